// Indexing: a[key] with ints, slices, None, ..., and one int list or int tensor; a[key] = value
// (also with a boolean mask); index_select, gather.
#include "common.hpp"
#include "gradients.hpp"

#include <algorithm>

namespace tracelint::tracer::ops {

namespace {

Obj slice_meta(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.slice_prim", loc);
  const TensorObj &t = tensor(args[0]);
  const std::vector<Obj> &starts = items(args[1]), &ends = items(args[2]);
  if (starts.size() != t.shape.size() || ends.size() != t.shape.size())
    throw TraceError(loc, "prims.slice_prim: index lists do not match the rank");
  std::vector<Obj> shape;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    int64_t step = args[3].kind == Obj::Kind::None ? 1 : items(args[3])[i].integer;
    bool from_zero = !starts[i].is_proxy() && starts[i].integer == 0;
    Obj length = from_zero ? ends[i] : r.num(NumOp::sub, ends[i], starts[i], loc);
    if (step != 1) {
      Obj rounded = r.num(NumOp::add, length, Obj::int_of(step - 1), loc);
      length = r.num(NumOp::floordiv, rounded, Obj::int_of(step), loc);
    }
    shape.push_back(length);
  }
  return like(args[0], shape);
}

Obj take_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.take", loc);
  require_tensor(args[1], "the index", "prims.take", loc);
  const TensorObj &t = tensor(args[0]);
  if (args[2].kind != Obj::Kind::Int || args[2].integer < 0 ||
      args[2].integer >= static_cast<int64_t>(t.shape.size()))
    throw TraceError(loc, "prims.take: the dim " + describe(args[2]) +
                              " is not one of a tensor of rank " + std::to_string(t.shape.size()));
  std::size_t d = static_cast<std::size_t>(args[2].integer);
  std::vector<Obj> shape(t.shape.begin(), t.shape.begin() + static_cast<std::ptrdiff_t>(d));
  for (const Obj &s : tensor(args[1]).shape)
    shape.push_back(s);
  shape.insert(shape.end(), t.shape.begin() + static_cast<std::ptrdiff_t>(d) + 1, t.shape.end());
  return like(args[0], shape);
}

// prims.pad(a, padding_value, padding_config): (low, high, interior) per dim, as Thunder's.
Obj pad_meta(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.pad", loc);
  const TensorObj &t = tensor(args[0]);
  if (!args[2].is_sequence() || items(args[2]).size() != t.shape.size())
    throw TraceError(loc, "prims.pad takes one (low, high, interior) per dim");
  std::vector<Obj> shape;
  for (std::size_t d = 0; d < t.shape.size(); ++d) {
    const Obj &c = items(args[2])[d];
    if (!c.is_sequence() || items(c).size() != 3)
      throw TraceError(loc, "prims.pad takes one (low, high, interior) per dim");
    const Obj &lo = items(c)[0], &hi = items(c)[1], &interior = items(c)[2];
    if (lo.integer < 0 || hi.integer < 0 || interior.integer < 0)
      throw TraceError(loc, "prims.pad: negative padding is not supported");
    Obj n = t.shape[d];
    if (!(interior.kind == Obj::Kind::Int && !interior.is_proxy() && interior.integer == 0) &&
        n.integer > 0)
      n = r.num(NumOp::add, n,
                r.num(NumOp::mul, r.num(NumOp::sub, n, Obj::int_of(1), loc), interior, loc), loc);
    // (low + n) + high: a slice's cotangent padded back adds up to the sliced dim's proxy
    shape.push_back(r.num(NumOp::add, r.num(NumOp::add, lo, n, loc), hi, loc));
  }
  return like(args[0], shape);
}

Obj index_add_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.index_add", loc);
  require_tensor(args[1], "the index", "prims.index_add", loc);
  require_tensor(args[2], "the values", "prims.index_add", loc);
  return like(args[0], tensor(args[0]).shape);
}

Obj take_along_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.take_along_axis", loc);
  require_tensor(args[1], "the index", "prims.take_along_axis", loc);
  return like(args[0], tensor(args[1]).shape);
}

bool is_index_sequence(const Obj &o) {
  if (!o.is_sequence()) return false;
  for (const Obj &i : items(o))
    if (i.kind != Obj::Kind::Int) return false;
  return true;
}

// An int list or an integer tensor: the advanced index of a key.
bool is_advanced_index(const Obj &e) {
  return is_index_sequence(e) ||
         (is_tensor(e) && is_integral(tensor(e).dtype) && tensor(e).dtype != DType::bool_);
}

// A key's entries: its items where it is a tuple, else the key itself.
std::vector<Obj> key_entries(const Obj &key) {
  return key.kind == Obj::Kind::Tuple ? items(key) : std::vector<Obj>{key};
}

// An index into a dim of `size`, normalised, with its bounds guarded: a call whose index falls
// outside the dim fails the prologue instead of reading elsewhere.
Obj checked_index(Recorder &r, const Obj &index, const Obj &size, std::size_t dim, const Loc &loc) {
  Obj i = index;
  if (r.decide(NumOp::lt, i, Obj::int_of(0), loc)) i = r.num(NumOp::add, i, size, loc);
  bool inside = r.decide(NumOp::ge, i, Obj::int_of(0), loc) && r.decide(NumOp::lt, i, size, loc);
  if (!inside)
    throw TraceError(loc, "index " + std::to_string(index.integer) +
                              " is out of bounds for dimension " + std::to_string(dim) +
                              " with size " + std::to_string(size.integer));
  return i;
}

// The key of a[key] as one entry per dim and None (its ellipsis expanded, trailing dims
// filled with `:`), after checking what the tracer can index with.
std::vector<Obj> expanded_key(const Obj &key, const std::vector<Obj> &shape, const Loc &loc) {
  std::vector<Obj> entries = key_entries(key);
  std::size_t consuming = 0, ellipses = 0, advanced = 0;
  for (const Obj &e : entries) {
    if (e.kind == Obj::Kind::Int || e.kind == Obj::Kind::Slice || is_advanced_index(e)) {
      ++consuming;
      if (is_advanced_index(e)) ++advanced;
    } else if (e.kind == Obj::Kind::Ellipsis) {
      ++ellipses;
    } else if (is_tensor(e)) {
      throw TraceError(loc, "indexing with a boolean mask selects a data-dependent number of "
                            "elements, which cannot be traced (use torch.where or masked_fill)");
    } else if (e.kind != Obj::Kind::None) {
      throw TraceError(loc, "indexing with " + describe(e) +
                                " is not supported (ints, slices, None, ..., and one int list or "
                                "int tensor)");
    }
  }
  if (ellipses > 1) throw TraceError(loc, "an index can only have a single ellipsis ('...')");
  if (advanced > 1)
    throw TraceError(loc, "indexing with more than one int list or tensor is not supported");
  if (consuming > shape.size())
    throw TraceError(loc,
                     "too many indices for tensor of dimension " + std::to_string(shape.size()));
  std::vector<Obj> expanded;
  for (const Obj &e : entries) {
    if (e.kind == Obj::Kind::Ellipsis)
      for (std::size_t i = 0; i < shape.size() - consuming; ++i)
        expanded.push_back(Obj::slice(Obj::none(), Obj::none(), Obj::none()));
    else
      expanded.push_back(e);
  }
  while (static_cast<std::size_t>(std::count_if(expanded.begin(), expanded.end(), [](const Obj &e) {
           return e.kind != Obj::Kind::None;
         })) < shape.size())
    expanded.push_back(Obj::slice(Obj::none(), Obj::none(), Obj::none()));

  return expanded;
}

// One dim's slice: its bounds clamped to the dim as Python's, its length.
struct DimSlice {
  Obj start, stop, length;
  int64_t step = 1;
  bool whole = false; // the whole dim, unchanged
};

DimSlice slice_dim(Recorder &r, const SliceObj &s, const Obj &size, const Loc &loc) {
  DimSlice out;
  if (s.step.kind != Obj::Kind::None) out.step = r.concrete(s.step, loc, "a slice step");
  if (out.step == 0) throw TraceError(loc, "slice step cannot be zero");
  if (out.step < 0)
    throw TraceError(loc, "step must be greater than zero (torch has no negative slice steps)");
  auto bound = [&](const Obj &b, const Obj &dflt) {
    if (b.kind == Obj::Kind::None) return dflt;
    if (b.kind != Obj::Kind::Int && b.kind != Obj::Kind::Bool)
      throw TraceError(loc, "slice bounds must be ints or None, not " + describe(b));
    Obj v = b;
    if (r.decide(NumOp::lt, v, Obj::int_of(0), loc)) {
      v = r.num(NumOp::add, v, size, loc);
      if (r.decide(NumOp::lt, v, Obj::int_of(0), loc)) v = Obj::int_of(0);
    } else if (r.decide(NumOp::gt, v, size, loc)) {
      v = size;
    }
    return v;
  };
  out.start = bound(s.start, Obj::int_of(0));
  out.stop = bound(s.stop, size);
  bool from_zero = !out.start.is_proxy() && out.start.integer == 0;
  // Sizes are never negative, so a slice from 0 cannot end before it starts.
  if (!from_zero && r.decide(NumOp::lt, out.stop, out.start, loc)) out.stop = out.start;
  out.length = from_zero ? out.stop : r.num(NumOp::sub, out.stop, out.start, loc);
  if (out.step != 1) {
    Obj rounded = r.num(NumOp::add, out.length, Obj::int_of(out.step - 1), loc);
    out.length = r.num(NumOp::floordiv, rounded, Obj::int_of(out.step), loc);
  }
  out.whole = from_zero && out.stop.proxy() == size.proxy() && out.stop.integer == size.integer &&
              out.step == 1;
  return out;
}

Obj getitem(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  const Obj &a = args[0];
  const Obj &key = args[1];
  require_tensor(a, "the indexed value", "getitem", loc);
  const std::vector<Obj> &shape = tensor(a).shape;
  std::vector<Obj> expanded = expanded_key(key, shape, loc);

  std::vector<Obj> starts, ends, out_shape, sliced_shape;
  std::vector<int64_t> strides, squeezed, new_axes;
  bool trivial = true;
  std::size_t dim = 0, out_pos = 0;
  std::optional<std::size_t> advanced_pos; // its dim in the output of the basic part
  Obj advanced_index;
  for (const Obj &e : expanded) {
    if (e.kind == Obj::Kind::None) {
      new_axes.push_back(static_cast<int64_t>(out_pos++));
      continue;
    }
    const Obj &size = shape[dim];
    if (e.kind == Obj::Kind::Int) {
      Obj index = checked_index(r, e, size, dim, loc);
      starts.push_back(index);
      ends.push_back(r.num(NumOp::add, index, Obj::int_of(1), loc));
      strides.push_back(1);
      sliced_shape.push_back(Obj::int_of(1));
      squeezed.push_back(static_cast<int64_t>(dim));
      trivial = false;
    } else if (e.kind == Obj::Kind::Slice) {
      DimSlice d = slice_dim(r, e.as<SliceObj>(), size, loc);
      trivial = trivial && d.whole;
      starts.push_back(d.start);
      ends.push_back(d.stop);
      strides.push_back(d.step);
      sliced_shape.push_back(d.length);
      out_shape.push_back(d.length);
      ++out_pos;
    } else {
      // The advanced index: the whole dim here, then taken.
      advanced_pos = out_pos;
      std::vector<Obj> values;
      if (is_tensor(e)) {
        advanced_index = e;
      } else {
        for (const Obj &i : items(e))
          values.push_back(checked_index(r, i, size, dim, loc));
        advanced_index = r.prim(
            Sym::prims_tensor_from_sequence,
            {Obj::list(values), Obj::dtype_of(DType::int64), Obj::device_of(tensor(a).device)},
            loc);
      }
      starts.push_back(Obj::int_of(0));
      ends.push_back(size);
      strides.push_back(1);
      sliced_shape.push_back(size);
      out_shape.push_back(size);
      ++out_pos;
    }
    ++dim;
  }
  std::vector<Obj> final_shape;
  {
    std::size_t src = 0;
    for (std::size_t pos = 0; pos < out_shape.size() + new_axes.size(); ++pos) {
      if (std::find(new_axes.begin(), new_axes.end(), static_cast<int64_t>(pos)) != new_axes.end())
        final_shape.push_back(Obj::int_of(1));
      else
        final_shape.push_back(out_shape[src++]);
    }
  }
  Obj t = a;
  if (!trivial) {
    t = r.prim(
        Sym::prims_slice_prim,
        {a, Obj::list(starts), Obj::list(ends), Obj::list(int_tuple(strides).as<SeqObj>().items)},
        loc);
  }
  if (!squeezed.empty()) t = r.prim(Sym::prims_squeeze, {t, int_tuple(squeezed)}, loc);
  if (!new_axes.empty()) {
    std::vector<int64_t> kept;
    for (std::size_t pos = 0; pos < final_shape.size(); ++pos)
      if (std::find(new_axes.begin(), new_axes.end(), static_cast<int64_t>(pos)) == new_axes.end())
        kept.push_back(static_cast<int64_t>(pos));
    t = r.prim(Sym::prims_broadcast_in_dim,
               {t, dim_list(final_shape), Obj::list(int_tuple(kept).as<SeqObj>().items)}, loc);
  }
  if (advanced_pos) {
    // Its position counts the new axes before it already (out_pos does).
    t = r.prim(Sym::prims_take,
               {t, advanced_index, Obj::int_of(static_cast<int64_t>(*advanced_pos))}, loc);
  }
  return t;
}

// ---- a[key] = value, functionally: ltorch.setitem records prims.copy_with_setitem, whose
// result is a copy of `a` with the value written where the key selects (Thunder's setitem). The
// interpreter makes `x[key] = value` an in-place update of x with it.

// The key's boolean mask, when the key is one (alone, or the key's only entry).
const Obj *mask_of(const Obj &key) {
  const Obj *e = &key;
  if (key.kind == Obj::Kind::Tuple && items(key).size() == 1) e = &items(key)[0];
  if (is_tensor(*e) && tensor(*e).dtype == DType::bool_) return e;
  return nullptr;
}

// The shape a[key] has, worked out without recording: setitem records only its prim, and its
// value's shape is checked against the sizes of this call (libtorch checks every later one).
std::vector<Obj> indexed_shape(Recorder &r, const Obj &a, const Obj &key, const Loc &loc) {
  struct Quiet {
    Recorder &r;
    bool was;
    ~Quiet() { r.set_recording(was); }
  } quiet{r, r.tracing()};
  r.set_recording(false);
  return tensor(getitem(r, {a, key}, loc)).shape;
}

// The value's shape without the leading size-1 dims past the target's rank, which PyTorch
// drops before broadcasting it.
std::vector<Obj> value_shape_for(const Obj &value, std::size_t target_rank) {
  std::vector<Obj> v = tensor(value).shape;
  while (v.size() > target_rank && v.front().integer == 1)
    v.erase(v.begin());
  return v;
}

// PyTorch's check: the value broadcasts to what the key selects (a dim of `target` that is
// nullopt is the count of a mask's true elements, which only a size-1 value dim can match).
void check_value_fits(const Obj &value, const std::vector<std::optional<Obj>> &target,
                      const Loc &loc) {
  if (!is_tensor(value)) return;
  std::vector<Obj> v = value_shape_for(value, target.size());
  bool fits = v.size() <= target.size();
  for (std::size_t i = 0; fits && i < v.size(); ++i) {
    const Obj &vd = v[v.size() - 1 - i];
    const std::optional<Obj> &td = target[target.size() - 1 - i];
    fits = vd.integer == 1 || (td && vd.integer == td->integer);
  }
  if (fits) return;
  std::string selected = "[";
  for (std::size_t i = 0; i < target.size(); ++i)
    selected += (i ? ", " : "") + (target[i] ? std::to_string(target[i]->integer) : "N");
  throw TraceError(loc, "shape mismatch: value tensor of shape " + shape_text(tensor(value).shape) +
                            " cannot be broadcast to indexing result of shape " + selected + "]" +
                            (target.empty() || target[0] ? "" : " (N: the mask's true elements)"));
}

// PyTorch writes through an int list, int tensor or mask with index_put_, which takes a tensor
// value only of the destination's dtype (but a mask's single value is a masked_fill's, cast).
void check_value_dtype(const Obj &a, const Obj &key, const Obj &value, const Loc &loc) {
  if (!is_tensor(value) || tensor(value).dtype == tensor(a).dtype) return;
  const Obj *mask = mask_of(key);
  if (mask) {
    // (A 0-d mask goes to index_put_ too.)
    bool single = !tensor(*mask).shape.empty() &&
                  std::all_of(tensor(value).shape.begin(), tensor(value).shape.end(),
                              [](const Obj &d) { return d.integer == 1; });
    if (single) return;
  } else {
    std::vector<Obj> entries = key_entries(key);
    if (std::none_of(entries.begin(), entries.end(), is_advanced_index)) return;
  }
  throw TraceError(loc, std::string("Index put requires the source and destination dtypes "
                                    "match, got ") +
                            dtype_info(tensor(a).dtype).torch_name + " for the destination and " +
                            dtype_info(tensor(value).dtype).torch_name + " for the source.");
}

Obj setitem(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  const Obj &a = args[0], &key = args[1], &value = args[2];
  require_tensor(a, "the tensor assigned into", "setitem", loc);
  if (!is_tensor(value) && !value.is_number())
    throw TraceError(loc, "can't assign " + describe(value) +
                              " to a torch tensor: the tracer assigns tensors and numbers");
  const std::vector<Obj> &shape = tensor(a).shape;
  std::vector<std::optional<Obj>> target;
  if (const Obj *mask = mask_of(key)) {
    // A mask selects a data-dependent number of elements, but writing into them keeps the
    // shape: the value broadcasts over them (one value, or one per trailing position).
    const std::vector<Obj> &m = tensor(*mask).shape;
    bool prefix = m.size() <= shape.size();
    for (std::size_t i = 0; prefix && i < m.size(); ++i)
      prefix = r.same_size(m[i], shape[i], loc);
    if (!prefix)
      throw TraceError(loc, "The shape of the mask " + shape_text(m) +
                                " does not match the shape "
                                "of the indexed tensor " +
                                shape_text(shape));
    // The count of true elements is unknown, but 0 where the mask has none (an empty dim):
    // asked only where a value dim other than 1 meets it.
    std::optional<Obj> count;
    std::size_t rank = 1 + shape.size() - m.size();
    if (is_tensor(value)) {
      std::vector<Obj> v = value_shape_for(value, rank);
      if (v.size() == rank && v[0].integer != 1 &&
          std::any_of(m.begin(), m.end(), [&](const Obj &d) { return empty_size(r, d, loc); }))
        count = Obj::int_of(0);
    }
    target.push_back(count);
    for (std::size_t i = m.size(); i < shape.size(); ++i)
      target.push_back(shape[i]);
  } else {
    for (const Obj &d : indexed_shape(r, a, key, loc))
      target.push_back(d);
  }
  check_value_fits(value, target, loc);
  check_value_dtype(a, key, value, loc);
  return r.prim(Sym::prims_copy_with_setitem, {a, key, value}, loc);
}

Obj copy_with_setitem_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.copy_with_setitem", loc);
  return like(args[0], tensor(args[0]).shape);
}

// The cotangent of what a mask's selected positions were written from: g where the mask is
// true, summed over the mask's dims.
Obj masked_value_cotangent(Recorder &r, const Obj &g, const Obj &mask, const Loc &loc) {
  const std::vector<Obj> &shape = tensor(g).shape;
  std::size_t rank = tensor(mask).shape.size();
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < rank; ++i)
    dims.push_back(static_cast<int64_t>(i));
  Obj spread = grad::broadcast_in_dim(r, mask, shape, dims, loc);
  Obj picked = grad::where(r, spread, g, grad::zeros_like(r, g, loc), loc);
  return rank == 0 ? picked : grad::sum(r, picked, dims, loc);
}

std::vector<Obj> copy_with_setitem_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &,
                                       const Obj &g, const Loc &loc) {
  // a's cotangent is g with the written positions zeroed; the value's is g where it was
  // written, summed back over its broadcast (Thunder's rule).
  Obj a_grad = r.prim(Sym::prims_copy_with_setitem, {g, a[1], Obj::int_of(0)}, loc);
  Obj value_grad = Obj::none();
  const Obj &value = a[2];
  if (is_tensor(value) && (is_floating(tensor(value).dtype) || is_complex(tensor(value).dtype))) {
    const Obj *mask = mask_of(a[1]);
    Obj selected = mask ? masked_value_cotangent(r, g, *mask, loc)
                        : r.call(Sym::ltorch_getitem, {g, a[1]}, loc);
    std::vector<Obj> stripped = value_shape_for(value, tensor(selected).shape.size());
    value_grad = grad::sum_to(r, selected, stripped, loc);
    if (stripped.size() != tensor(value).shape.size())
      value_grad = grad::reshape(r, value_grad, tensor(value).shape, loc);
    value_grad = convert(r, value_grad, tensor(value).dtype, loc);
  }
  return {grad::if_differentiable(a[0], a_grad), Obj::none(), value_grad};
}

Obj index_select(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "index_select", loc);
  require_tensor(a[2], "the index", "index_select", loc);
  if (tensor(a[2]).shape.size() > 1 || !is_integral(tensor(a[2]).dtype))
    throw TraceError(loc, "index_select(): Index is supposed to be a vector of integers");
  int64_t d = dim_arg(r, a[1], tensor(a[0]).shape.size(), loc);
  // A 0-d input is its own selection (PyTorch gives it back, whatever the index's length).
  if (tensor(a[0]).shape.empty()) return a[0];
  return r.prim(Sym::prims_take, {a[0], a[2], Obj::int_of(d)}, loc);
}

Obj gather(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "gather", loc);
  require_tensor(a[2], "the index", "gather", loc);
  if (tensor(a[2]).shape.size() != tensor(a[0]).shape.size())
    throw TraceError(loc, "Index tensor must have the same number of dimensions as input tensor");
  int64_t d = dim_arg(r, a[1], tensor(a[0]).shape.size(), loc);
  return r.prim(Sym::prims_take_along_axis, {a[0], a[2], Obj::int_of(d)}, loc);
}

// ---- VJP rules

std::vector<Obj> slice_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                           const Loc &loc) {
  // The cotangent padded back into place with zeros (Thunder's rule): low = start, interior =
  // step - 1, high = what is left after the last element taken.
  const std::vector<Obj> &in = tensor(a[0]).shape, &starts = items(a[1]);
  std::vector<Obj> config;
  for (std::size_t d = 0; d < in.size(); ++d) {
    int64_t step = a[3].kind == Obj::Kind::None ? 1 : items(a[3])[d].integer;
    const Obj &m = tensor(out).shape[d];
    Obj taken_to; // one past the last element taken
    if (r.decide(NumOp::eq, m, Obj::int_of(0), loc))
      taken_to = starts[d];
    else
      taken_to = r.num(NumOp::add, starts[d],
                       r.num(NumOp::add,
                             r.num(NumOp::mul, r.num(NumOp::sub, m, Obj::int_of(1), loc),
                                   Obj::int_of(step), loc),
                             Obj::int_of(1), loc),
                       loc);
    config.push_back(
        Obj::tuple({starts[d], r.num(NumOp::sub, in[d], taken_to, loc), Obj::int_of(step - 1)}));
  }
  return {r.prim(Sym::prims_pad, {g, Obj::float_of(0), Obj::tuple(std::move(config))}, loc),
          Obj::none(), Obj::none(), Obj::none()};
}

std::vector<Obj> pad_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  // The input's elements where the pad put them: from `low`, `interior + 1` apart; the end is one
  // past the last (Thunder's slice_prim takes no end past the dim).
  const std::vector<Obj> &in = tensor(a[0]).shape;
  std::vector<Obj> starts, ends, steps;
  for (std::size_t d = 0; d < in.size(); ++d) {
    const Obj &c = items(a[2])[d], &low = items(c)[0];
    Obj step = r.num(NumOp::add, items(c)[2], Obj::int_of(1), loc);
    starts.push_back(low);
    if (empty_size(r, in[d], loc)) {
      ends.push_back(low);
    } else {
      Obj last = r.num(NumOp::mul, r.num(NumOp::sub, in[d], Obj::int_of(1), loc), step, loc);
      ends.push_back(r.num(NumOp::add, r.num(NumOp::add, low, last, loc), Obj::int_of(1), loc));
    }
    steps.push_back(step);
  }
  return {
      r.prim(Sym::prims_slice_prim, {g, Obj::list(starts), Obj::list(ends), Obj::list(steps)}, loc),
      Obj::none(), Obj::none()};
}

std::vector<Obj> take_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                          const Loc &loc) {
  // The cotangent's rows added into zeros at their indices (prims.index_add), the index
  // flattened to one dim first.
  const std::vector<Obj> &in = tensor(a[0]).shape, &index = tensor(a[1]).shape;
  auto d = static_cast<std::size_t>(a[2].integer);
  Obj n = Obj::int_of(1);
  for (const Obj &s : index)
    n = r.num(NumOp::mul, n, s, loc);
  Obj flat_index = index.size() == 1 ? a[1] : grad::reshape(r, a[1], {n}, loc);
  std::vector<Obj> rows(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(d));
  rows.push_back(n);
  rows.insert(rows.end(), in.begin() + static_cast<std::ptrdiff_t>(d) + 1, in.end());
  Obj flat_g = index.size() == 1 ? g : grad::reshape(r, g, rows, loc);
  Obj zeros = grad::zeros_like(r, a[0], loc);
  return {r.prim(Sym::prims_index_add, {zeros, flat_index, flat_g, a[2]}, loc), Obj::none(),
          Obj::none()};
}

std::vector<Obj> take_along_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                                const Loc &loc) {
  Obj zeros = grad::zeros_like(r, a[0], loc);
  return {r.prim(Sym::prims_scatter_add, {zeros, a[1], g, a[2]}, loc), Obj::none(), Obj::none()};
}

// index_add and scatter_add: a's cotangent passes through; the values' is what they added to.
std::vector<Obj> index_add_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                               const Loc &loc) {
  return {grad::if_differentiable(a[0], g), Obj::none(),
          grad::if_differentiable(a[2], r.prim(Sym::prims_take, {g, a[1], a[3]}, loc)),
          Obj::none()};
}
std::vector<Obj> scatter_add_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                                 const Loc &loc) {
  return {grad::if_differentiable(a[0], g), Obj::none(),
          grad::if_differentiable(a[2], r.prim(Sym::prims_take_along_axis, {g, a[1], a[3]}, loc)),
          Obj::none()};
}

} // namespace

void define_indexing_ops(std::vector<OpSpec> &out) {
  out.push_back(prim_spec(Sym::prims_slice_prim, "a, start_indices, end_indices, strides=None, /",
                          slice_meta, slice_vjp));
  out.push_back(
      prim_spec(Sym::prims_pad, "a, padding_value, padding_config, /", pad_meta, pad_vjp));
  out.push_back(prim_spec(Sym::prims_take, "a, index, dim, /", take_meta, take_vjp));
  out.push_back(
      prim_spec(Sym::prims_take_along_axis, "a, index, dim, /", take_along_meta, take_along_vjp));
  out.push_back(
      prim_spec(Sym::prims_index_add, "a, index, value, dim, /", index_add_meta, index_add_vjp));
  out.push_back(prim_spec(Sym::prims_scatter_add, "a, index, value, dim, /", index_add_meta,
                          scatter_add_vjp));
  out.push_back(prim_spec(Sym::prims_copy_with_setitem, "a, index, value, /",
                          copy_with_setitem_meta, copy_with_setitem_vjp));
  out.push_back(
      {Sym::ltorch_getitem, "input, /, key", {"Tensor.__getitem__"}, getitem, nullptr, true});
  // x[key] = value runs it (an in-place update of x); no spelling calls it as a function.
  out.push_back({Sym::ltorch_setitem, "input, /, key, value", {}, setitem, nullptr});
  out.push_back({Sym::ltorch_index_select,
                 "input, /, dim, index",
                 {"torch.index_select", "Tensor.index_select"},
                 index_select,
                 nullptr});
  out.push_back({Sym::ltorch_gather,
                 "input, /, dim, index",
                 {"torch.gather", "Tensor.gather"},
                 gather,
                 nullptr});
}

} // namespace tracelint::tracer::ops
