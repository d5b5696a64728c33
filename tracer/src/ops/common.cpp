#include "common.hpp"

#include "../excerpt.hpp"

#include <algorithm>

namespace tracelint::tracer::ops {

Obj make_tensor(DType dtype, const std::string &device, std::vector<Obj> shape) {
  auto t = std::make_shared<TensorObj>();
  t->dtype = dtype;
  t->device = device;
  t->shape = std::move(shape);
  return Obj::heap(Obj::Kind::Tensor, std::move(t));
}

std::string shape_text(const std::vector<Obj> &shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i].integer);
  return out + "]";
}

Obj int_tuple(const std::vector<int64_t> &v) {
  std::vector<Obj> out;
  out.reserve(v.size());
  for (int64_t i : v)
    out.push_back(Obj::int_of(i));
  return Obj::tuple(std::move(out));
}

std::vector<int64_t> int_values(const std::vector<Obj> &v) {
  std::vector<int64_t> out;
  for (const Obj &o : v)
    out.push_back(o.integer);
  return out;
}

int64_t canonical_dim(int64_t d, std::size_t rank, const Loc &loc) {
  int64_t r = std::max<int64_t>(static_cast<int64_t>(rank), 1); // a 0-d tensor takes 0 and -1
  if (d < -r || d >= r)
    throw TraceError(loc, "Dimension out of range (expected to be in range of [" +
                              std::to_string(-r) + ", " + std::to_string(r - 1) + "], but got " +
                              std::to_string(d) + ")");
  return d < 0 ? d + r : d;
}

bool inferred_size(Recorder &r, const Obj &d, const Loc &loc) {
  if (!d.is_proxy()) return d.integer == -1;
  // A symbolic size given as -1 is inferred too: the trace holds while it is -1 (guarded).
  return d.integer == -1 && r.decide(NumOp::eq, d, Obj::int_of(-1), loc);
}

bool size_is(Recorder &r, const Obj &size, int64_t value, const Loc &loc) {
  // Guarded only when it is: a trace made for a dim of another size does not check for it.
  return size.integer == value &&
         (!size.is_proxy() || r.decide(NumOp::eq, size, Obj::int_of(value), loc));
}

bool empty_size(Recorder &r, const Obj &size, const Loc &loc) {
  return size_is(r, size, 0, loc);
}

int64_t dim_arg(Recorder &r, const Obj &d, std::size_t rank, const Loc &loc) {
  return canonical_dim(r.concrete(d, loc, "a dim"), rank, loc);
}

std::vector<int64_t> reduction_dims(Recorder &r, const Obj &dims, std::size_t rank,
                                    const Loc &loc) {
  std::vector<int64_t> out;
  if (dims.kind == Obj::Kind::None || (dims.is_sequence() && items(dims).empty())) {
    for (std::size_t i = 0; i < rank; ++i)
      out.push_back(static_cast<int64_t>(i));
    return out;
  }
  std::vector<Obj> given = dims.is_sequence() ? items(dims) : std::vector<Obj>{dims};
  std::vector<int64_t> seen; // a 0-d tensor takes 0 and -1, once
  for (const Obj &d : given) {
    int64_t n = dim_arg(r, d, rank, loc);
    if (std::find(seen.begin(), seen.end(), n) != seen.end())
      throw TraceError(loc,
                       "dim " + std::to_string(n) + " appears multiple times in the list of dims");
    seen.push_back(n);
    if (rank != 0) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Obj> size_arg(Recorder &r, const Obj &shape, const Loc &loc, const std::string &what) {
  std::vector<Obj> given;
  if (shape.is_sequence())
    given = items(shape);
  else if (shape.kind == Obj::Kind::Int)
    given = {shape};
  else
    throw TraceError(loc, what + " takes a size: ints or a tuple of ints, not " + describe(shape));
  if (given.size() == 1 && given[0].is_sequence()) given = items(given[0]);
  for (const Obj &d : given)
    if (d.kind != Obj::Kind::Int && d.kind != Obj::Kind::Bool)
      throw TraceError(loc, what + ": each size must be an int, not " + describe(d));
  (void)r;
  return given;
}

namespace {

int category(DType d) {
  if (d == DType::bool_) return 0;
  if (is_complex(d)) return 3;
  if (is_floating(d)) return 2;
  return 1;
}

} // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::bool_) return b;
  if (b == DType::bool_) return a;
  int ca = category(a), cb = category(b);
  if (ca != cb) {
    if (ca == 3 || cb == 3) {
      DType c = ca == 3 ? a : b, other = ca == 3 ? b : a;
      return other == DType::float64 ? DType::complex128 : c;
    }
    return ca > cb ? a : b;
  }
  if (ca == 3) return DType::complex128;
  if (ca == 2) {
    if (a == DType::float64 || b == DType::float64) return DType::float64;
    return DType::float32; // f16 with bf16, or either with f32
  }
  // Integers: uint8 with a signed one needs the next signed width.
  auto bits = [](DType d) { return dtype_info(d).bits; };
  if (a == DType::uint8 || b == DType::uint8) {
    DType s = a == DType::uint8 ? b : a;
    return s == DType::int8 ? DType::int16 : s;
  }
  return bits(a) >= bits(b) ? a : b;
}

DType number_dtype(const Obj &n) {
  if (n.kind == Obj::Kind::Bool) return DType::bool_;
  if (n.kind == Obj::Kind::Int) return DType::int64;
  return kDefaultFloat;
}

DType result_type(const std::vector<const Obj *> &operands) {
  std::optional<DType> dim, zero, wrapped;
  auto add = [](std::optional<DType> &acc, DType d) { acc = acc ? promote_types(*acc, d) : d; };
  for (const Obj *o : operands) {
    if (is_tensor(*o))
      add(tensor(*o).shape.empty() ? zero : dim, tensor(*o).dtype);
    else if (o->is_number())
      add(wrapped, number_dtype(*o));
  }
  // c10's combine_categories: a lower priority level counts only when its category is higher.
  auto combine = [](std::optional<DType> higher,
                    std::optional<DType> lower) -> std::optional<DType> {
    if (!higher) return lower;
    if (!lower) return higher;
    if (is_complex(*higher)) return higher;
    if (is_complex(*lower))
      return is_floating(*higher)
                 ? (*higher == DType::float64 ? DType::complex128 : DType::complex64)
                 : *lower;
    if (is_floating(*higher)) return higher;
    if (*higher == DType::bool_ || is_floating(*lower)) return promote_types(*higher, *lower);
    return higher;
  };
  std::optional<DType> r = combine(dim, combine(zero, wrapped));
  return r ? *r : kDefaultFloat;
}

std::vector<Obj> broadcast_shapes(Recorder &r, const std::vector<Obj> &a, const std::vector<Obj> &b,
                                  const Loc &loc) {
  std::size_t rank = std::max(a.size(), b.size());
  std::vector<Obj> out(rank, Obj::int_of(1));
  for (std::size_t i = 0; i < rank; ++i) {
    const Obj *da = i < a.size() ? &a[a.size() - 1 - i] : nullptr;
    const Obj *db = i < b.size() ? &b[b.size() - 1 - i] : nullptr;
    Obj &o = out[rank - 1 - i];
    if (!da) {
      o = *db;
    } else if (!db) {
      o = *da;
    } else if (r.same_size(*da, *db, loc)) {
      o = da->is_proxy() ? *da : *db;
    } else if (!da->is_proxy() && da->integer == 1) {
      o = *db;
    } else if (!db->is_proxy() && db->integer == 1) {
      o = *da;
    } else if (r.decide(NumOp::eq, *da, Obj::int_of(1), loc)) {
      o = *db;
    } else if (r.decide(NumOp::eq, *db, Obj::int_of(1), loc)) {
      o = *da;
    } else {
      throw TraceError(loc, "The size of tensor a (" + std::to_string(da->integer) +
                                ") must match the size of tensor b (" +
                                std::to_string(db->integer) + ") at non-singleton dimension " +
                                std::to_string(rank - 1 - i) + " (shapes " + shape_text(a) +
                                " and " + shape_text(b) + ")");
    }
  }
  return out;
}

namespace {

bool same_shape(const std::vector<Obj> &a, const std::vector<Obj> &b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].integer != b[i].integer || a[i].proxy() != b[i].proxy()) return false;
  return true;
}

} // namespace

Obj broadcast_to(Recorder &r, const Obj &t, const std::vector<Obj> &shape, const Loc &loc) {
  const TensorObj &x = tensor(t);
  if (same_shape(x.shape, shape)) return t;
  if (x.shape.size() > shape.size())
    throw TraceError(loc, "cannot expand a tensor of shape " + shape_text(x.shape) +
                              " to the smaller rank of " + shape_text(shape));
  std::size_t offset = shape.size() - x.shape.size();
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < x.shape.size(); ++i) {
    const Obj &d = x.shape[i];
    const Obj &target = shape[offset + i];
    // A size-1 dim broadcasts, and so does a symbolic one that is 1 (guarded, as
    // broadcast_shapes decided it): the printed trace holds only for inputs where it is 1.
    bool broadcasts = !d.is_proxy() && d.integer == 1;
    if (!broadcasts && !r.same_size(d, target, loc) && !r.decide(NumOp::eq, d, Obj::int_of(1), loc))
      throw TraceError(loc, "The expanded size of the tensor (" + std::to_string(target.integer) +
                                ") must match the existing size (" + std::to_string(d.integer) +
                                ") at non-singleton dimension " + std::to_string(offset + i) +
                                " (" + shape_text(x.shape) + " to " + shape_text(shape) + ")");
    dims.push_back(static_cast<int64_t>(offset + i));
  }
  return r.prim(Sym::prims_broadcast_in_dim,
                {t, dim_list(shape), Obj::list(int_tuple(dims).as<SeqObj>().items)}, loc);
}

Obj convert(Recorder &r, const Obj &x, DType dtype, const Loc &loc) {
  if (is_tensor(x)) {
    if (tensor(x).dtype == dtype) return x;
    return r.prim(Sym::prims_convert_element_type, {x, Obj::dtype_of(dtype)}, loc);
  }
  if (!x.is_number()) return x;
  if (x.is_proxy()) {
    // As Thunder's elementwise wrappers: a number proxy becomes the computation type's Python
    // type first (f1 = prims.convert_element_type(i0, float)); Thunder's prims take no mixed
    // number types.
    if (is_floating(dtype) && x.kind != Obj::Kind::Float)
      return r.num(NumOp::to_float, x, Obj::none(), loc);
    return x;
  }
  if (is_floating(dtype) || is_complex(dtype)) return Obj::float_of(x.as_double());
  if (dtype == DType::bool_) return Obj::boolean_of(x.as_double() != 0);
  if (x.kind == Obj::Kind::Float) return x; // a float with an int tensor stays a float
  return Obj::int_of(x.integer);
}

Obj keep_dims(Recorder &r, const Obj &reduced, const std::vector<Obj> &original,
              const std::vector<int64_t> &dims, const Loc &loc) {
  std::vector<Obj> shape;
  std::vector<int64_t> kept;
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end()) {
      kept.push_back(static_cast<int64_t>(i));
      shape.push_back(original[i]);
    } else {
      shape.push_back(Obj::int_of(1));
    }
  }
  return r.prim(Sym::prims_broadcast_in_dim,
                {reduced, dim_list(shape), Obj::list(int_tuple(kept).as<SeqObj>().items)}, loc);
}

Obj elementwise(Recorder &r, Sym prim, const std::vector<Obj> &operands, const Loc &loc,
                std::optional<DType> compute, std::optional<DType> out) {
  std::vector<const Obj *> ptrs;
  const Obj *first_tensor = nullptr;
  for (const Obj &o : operands) {
    ptrs.push_back(&o);
    if (is_tensor(o) && !first_tensor) first_tensor = &o;
    if (!is_tensor(o) && !o.is_number())
      throw TraceError(loc, std::string("prims.") + std::string(symbol_name(prim).name) +
                                ": an operand is " + describe(o) + ", not a tensor or a number");
  }
  DType dtype = compute ? *compute : result_type(ptrs);
  std::vector<Obj> shape;
  for (const Obj &o : operands)
    if (is_tensor(o)) {
      if (tensor(o).device != tensor(*first_tensor).device)
        throw TraceError(loc, "Expected all tensors to be on the same device, but found at least "
                              "two devices, " +
                                  tensor(*first_tensor).device + " and " + tensor(o).device);
      shape = broadcast_shapes(r, shape, tensor(o).shape, loc);
    }
  std::vector<Obj> args;
  args.reserve(operands.size());
  for (const Obj &o : operands) {
    Obj c = convert(r, o, dtype, loc);
    if (is_tensor(c)) c = broadcast_to(r, c, shape, loc);
    args.push_back(std::move(c));
  }
  Obj result = r.prim(prim, std::move(args), loc);
  if (out && is_tensor(result) && tensor(result).dtype != *out)
    result = convert(r, result, *out, loc);
  return result;
}

std::vector<Obj> args_with_defaults(Sym symbol, std::vector<Obj> given, Kwargs kwargs) {
  const Registry &reg = Registry::get();
  return reg.bind(reg.op(symbol), std::move(given), std::move(kwargs), qualified_name(symbol),
                  Loc{});
}

Obj call_ltorch(Recorder &r, Sym symbol, std::vector<Obj> given, const Loc &loc, Kwargs kwargs) {
  return r.call(symbol, args_with_defaults(symbol, std::move(given), std::move(kwargs)), loc);
}

void require_tensor(const Obj &o, const char *what, const char *op, const Loc &loc) {
  if (!is_tensor(o))
    throw TraceError(loc, std::string("`") + op + "`: " + what + " must be a tensor, not " +
                              describe(o));
}

Obj float_input(Recorder &, const Obj &a, const char *op, const Loc &loc) {
  require_tensor(a, "the input", op, loc);
  if (!is_floating(tensor(a).dtype))
    throw TraceError(loc,
                     std::string("`") + op + "` needs a floating-point tensor, got " + describe(a));
  return a;
}

void refuse_inplace(const Obj &inplace, const char *op, const Loc &loc) {
  if (inplace.kind == Obj::Kind::Bool && inplace.boolean)
    throw TraceError(loc, std::string(op) +
                              "(inplace=True) is not supported (use the out-of-place form)");
}

Obj pad_or_crop(Recorder &r, const Obj &t, const std::vector<PadWidths> &config, const Obj &value,
                const Loc &loc) {
  Obj out = t;
  std::vector<Obj> pads;
  bool pads_any = false, crops_any = false;
  for (const auto &[lo, hi, interior] : config) {
    pads.push_back(int_tuple({std::max<int64_t>(lo, 0), std::max<int64_t>(hi, 0), interior}));
    pads_any = pads_any || lo > 0 || hi > 0 || interior > 0;
    crops_any = crops_any || lo < 0 || hi < 0;
  }
  if (pads_any) out = r.prim(Sym::prims_pad, {out, value, Obj::list(std::move(pads))}, loc);
  if (!crops_any) return out;
  std::vector<Obj> starts, ends, steps;
  const std::vector<Obj> &shape = tensor(out).shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    int64_t lo = config[d][0], hi = config[d][1];
    starts.push_back(Obj::int_of(std::max<int64_t>(-lo, 0)));
    ends.push_back(hi >= 0 ? shape[d]
                           : Obj::int_of(r.concrete(shape[d], loc, "a padded size") + hi));
    steps.push_back(Obj::int_of(1));
  }
  return r.prim(
      Sym::prims_slice_prim,
      {out, Obj::list(std::move(starts)), Obj::list(std::move(ends)), Obj::list(std::move(steps))},
      loc);
}

bool bool_arg(const Obj &flag, const std::string &op, const char *name, const Loc &loc) {
  if (flag.kind == Obj::Kind::Bool) return flag.boolean;
  throw TraceError(loc, "TypeError: " + op + "(): argument '" + name + "' must be bool, not " +
                            type_name(flag));
}

Obj strided_slice(Recorder &r, const Obj &t, std::size_t dim, int64_t start, int64_t count,
                  int64_t step, const Loc &loc) {
  const std::vector<Obj> &shape = tensor(t).shape;
  std::vector<Obj> starts, ends, steps;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    bool here = d == dim;
    starts.push_back(Obj::int_of(here ? start : 0));
    ends.push_back(here ? Obj::int_of(count == 0 ? start : start + (count - 1) * step + 1)
                        : shape[d]);
    steps.push_back(Obj::int_of(here ? step : 1));
  }
  return r.prim(
      Sym::prims_slice_prim,
      {t, Obj::list(std::move(starts)), Obj::list(std::move(ends)), Obj::list(std::move(steps))},
      loc);
}

} // namespace tracelint::tracer::ops
