// Ops that move elements: reshape, view, transpose, permute, (un)squeeze, flatten, expand,
// repeat, split, chunk, cat, stack, flip, roll, unbind, unfold, tril, triu.
#include "common.hpp"
#include "gradients.hpp"

#include <algorithm>
#include <numeric>

namespace tracelint::tracer::ops {

namespace {

// ---- shape rules

Obj broadcast_in_dim_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.broadcast_in_dim", loc);
  const TensorObj &t = tensor(args[0]);
  if (!args[1].is_sequence() || !args[2].is_sequence())
    throw TraceError(loc, "prims.broadcast_in_dim takes a shape and a list of dims");
  const std::vector<Obj> &shape = items(args[1]);
  const std::vector<Obj> &dims = items(args[2]);
  if (dims.size() != t.shape.size())
    throw TraceError(loc, "prims.broadcast_in_dim: " + std::to_string(dims.size()) +
                              " dims for a tensor of rank " + std::to_string(t.shape.size()));
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i].integer;
    if (d < 0 || static_cast<std::size_t>(d) >= shape.size())
      throw TraceError(loc,
                       "prims.broadcast_in_dim: dim " + std::to_string(d) + " is out of range");
    if (t.shape[i].integer != 1 && t.shape[i].integer != shape[static_cast<std::size_t>(d)].integer)
      throw TraceError(loc, "prims.broadcast_in_dim: size " + std::to_string(t.shape[i].integer) +
                                " cannot broadcast to " + shape_text(shape));
  }
  return like(args[0], shape);
}

Obj reshape_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.reshape", loc);
  if (!args[1].is_sequence()) throw TraceError(loc, "prims.reshape takes a shape");
  return like(args[0], items(args[1]));
}

Obj transpose_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.transpose", loc);
  const TensorObj &t = tensor(args[0]);
  const std::vector<Obj> &perm = items(args[1]);
  if (perm.size() != t.shape.size())
    throw TraceError(loc, "prims.transpose: a permutation of " + std::to_string(perm.size()) +
                              " dims for a tensor of rank " + std::to_string(t.shape.size()));
  std::vector<Obj> shape;
  for (const Obj &p : perm)
    shape.push_back(t.shape.at(static_cast<std::size_t>(p.integer)));
  return like(args[0], shape);
}

Obj squeeze_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.squeeze", loc);
  const TensorObj &t = tensor(args[0]);
  std::vector<Obj> shape;
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    bool removed = false;
    for (const Obj &d : items(args[1]))
      removed = removed || d.integer == static_cast<int64_t>(i);
    if (removed && t.shape[i].integer != 1)
      throw TraceError(loc, "prims.squeeze: dim " + std::to_string(i) + " has size " +
                                std::to_string(t.shape[i].integer) + ", not 1");
    if (!removed) shape.push_back(t.shape[i]);
  }
  return like(args[0], shape);
}

Obj cat_meta(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  const std::vector<Obj> &ts = items(args[0]);
  if (ts.empty()) throw TraceError(loc, "prims.cat takes at least one tensor");
  int64_t d = args[1].integer;
  std::vector<Obj> shape = tensor(ts[0]).shape;
  Obj size = Obj::int_of(0);
  for (const Obj &t : ts) {
    require_tensor(t, "each element", "prims.cat", loc);
    size = r.num(NumOp::add, size, tensor(t).shape.at(static_cast<std::size_t>(d)), loc);
  }
  shape.at(static_cast<std::size_t>(d)) = size;
  return like(ts[0], shape);
}

Obj same_shape_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "a prim", loc);
  return like(args[0], tensor(args[0]).shape);
}

// ---- decompositions

Obj numel_of(Recorder &r, const std::vector<Obj> &shape, const Loc &loc) {
  Obj n = Obj::int_of(1);
  for (const Obj &d : shape)
    n = r.num(NumOp::mul, n, d, loc);
  return n;
}

Obj reshape_to(Recorder &r, const Obj &a, std::vector<Obj> requested, const char *name,
               const Loc &loc) {
  const std::vector<Obj> &in = tensor(a).shape;
  Obj numel = numel_of(r, in, loc);
  Obj known = Obj::int_of(1);
  int inferred = -1;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const Obj &d = requested[i];
    if (inferred_size(r, d, loc)) {
      if (inferred >= 0)
        throw TraceError(loc, std::string("only one dimension can be inferred (-1) in ") + name);
      inferred = static_cast<int>(i);
      continue;
    }
    if (d.integer < 0)
      throw TraceError(loc, "invalid shape dimension " + std::to_string(d.integer) + " in " + name);
    known = r.num(NumOp::mul, known, d, loc);
  }
  if (inferred >= 0) {
    if (known.integer == 0 || numel.integer % known.integer != 0)
      throw TraceError(loc, "shape '" + shape_text(requested) + "' is invalid for input of size " +
                                std::to_string(numel.integer));
    requested[static_cast<std::size_t>(inferred)] = r.num(NumOp::exact_div, numel, known, loc);
  } else if (!r.same_size(known, numel, loc)) {
    throw TraceError(loc, "shape '" + shape_text(requested) + "' is invalid for input of size " +
                              std::to_string(numel.integer) + " (" + describe(a) + ")");
  }
  // The same shape: nothing to do.
  if (requested.size() == in.size()) {
    bool same = true;
    for (std::size_t i = 0; i < in.size() && same; ++i)
      same = requested[i].integer == in[i].integer && requested[i].proxy() == in[i].proxy();
    if (same) return a;
  }
  return r.prim(Sym::prims_reshape, {a, Obj::tuple(std::move(requested))}, loc);
}

Obj reshape(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "reshape", loc);
  return reshape_to(r, a[0], size_arg(r, a[1], loc, "reshape"), "reshape", loc);
}

Obj view(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "view", loc);
  if (items(a[1]).size() == 1 && items(a[1])[0].kind == Obj::Kind::DType)
    throw TraceError(loc, "view(dtype) (reinterpreting the bytes) is not supported");
  return reshape_to(r, a[0], size_arg(r, a[1], loc, "view"), "view", loc);
}

// A trace's tensors have no strides, but the traces run with PyTorch, whose view() needs a
// layout it can view: so contiguous() is recorded, as Thunder records it, as a stride_order of
// the row-major order (the last dim densest), which its later views rely on.
Obj contiguous(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "contiguous", loc);
  std::vector<int64_t> row_major(tensor(a[0]).shape.size());
  std::iota(row_major.rbegin(), row_major.rend(), 0);
  return r.prim(Sym::prims_stride_order, {a[0], int_tuple(row_major)}, loc);
}

Obj permute_by(Recorder &r, const Obj &a, const std::vector<int64_t> &perm, const Loc &loc) {
  std::vector<int64_t> identity(perm.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (perm == identity) return a;
  return r.prim(Sym::prims_transpose, {a, int_tuple(perm)}, loc);
}

Obj transpose(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "transpose", loc);
  std::size_t rank = tensor(a[0]).shape.size();
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  if (rank == 0) return a[0];
  int64_t d0 = dim_arg(r, a[1], rank, loc), d1 = dim_arg(r, a[2], rank, loc);
  std::swap(perm[static_cast<std::size_t>(d0)], perm[static_cast<std::size_t>(d1)]);
  return permute_by(r, a[0], perm, loc);
}

Obj permute(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "permute", loc);
  std::size_t rank = tensor(a[0]).shape.size();
  std::vector<Obj> given = size_arg(r, a[1], loc, "permute");
  if (given.size() != rank)
    throw TraceError(loc,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match "
                     "the length of the desired ordering of dimensions i.e. input.dim() = " +
                         std::to_string(rank) +
                         " is not equal to len(dims) = " + std::to_string(given.size()));
  std::vector<int64_t> perm;
  std::vector<bool> seen(rank);
  for (const Obj &d : given) {
    int64_t n = dim_arg(r, d, rank, loc);
    if (seen[static_cast<std::size_t>(n)])
      throw TraceError(loc, "permute(): duplicate dims are not allowed.");
    seen[static_cast<std::size_t>(n)] = true;
    perm.push_back(n);
  }
  return permute_by(r, a[0], perm, loc);
}

Obj insert_dim(Recorder &r, const Obj &a, int64_t d, const Loc &loc) {
  std::vector<Obj> shape = tensor(a).shape;
  if (d < 0 || d > static_cast<int64_t>(shape.size()))
    throw TraceError(loc, "a new dim at " + std::to_string(d) + " of a tensor of rank " +
                              std::to_string(shape.size()));
  shape.insert(shape.begin() + d, Obj::int_of(1));
  std::vector<int64_t> kept;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (static_cast<int64_t>(i) != d) kept.push_back(static_cast<int64_t>(i));
  return r.prim(Sym::prims_broadcast_in_dim,
                {a, dim_list(shape), Obj::list(int_tuple(kept).as<SeqObj>().items)}, loc);
}

Obj unsqueeze(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "unsqueeze", loc);
  int64_t d = canonical_dim(r.concrete(a[1], loc, "a dim"), tensor(a[0]).shape.size() + 1, loc);
  return insert_dim(r, a[0], d, loc);
}

Obj squeeze(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "squeeze", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  std::vector<int64_t> candidates;
  if (a[1].kind == Obj::Kind::None) {
    for (std::size_t i = 0; i < shape.size(); ++i)
      candidates.push_back(static_cast<int64_t>(i));
  } else {
    candidates = reduction_dims(r, a[1], shape.size(), loc);
  }
  std::vector<int64_t> dims;
  for (int64_t d : candidates)
    if (shape.empty() ? false
                      : r.same_size(shape[static_cast<std::size_t>(d)], Obj::int_of(1), loc))
      dims.push_back(d);
  if (dims.empty()) return a[0];
  return r.prim(Sym::prims_squeeze, {a[0], int_tuple(dims)}, loc);
}

Obj flatten(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "flatten", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (shape.empty()) return reshape_to(r, a[0], {Obj::int_of(1)}, "flatten", loc);
  int64_t s = dim_arg(r, a[1], shape.size(), loc), e = dim_arg(r, a[2], shape.size(), loc);
  if (s > e)
    throw TraceError(loc, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (s == e) return a[0];
  std::vector<Obj> out(shape.begin(), shape.begin() + s);
  Obj n = Obj::int_of(1);
  for (int64_t i = s; i <= e; ++i)
    n = r.num(NumOp::mul, n, shape[static_cast<std::size_t>(i)], loc);
  out.push_back(n);
  out.insert(out.end(), shape.begin() + e + 1, shape.end());
  return reshape_to(r, a[0], out, "flatten", loc);
}

Obj expand(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "expand", loc);
  std::vector<Obj> target = size_arg(r, a[1], loc, "expand");
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (target.size() < shape.size())
    throw TraceError(loc,
                     "expand: the number of sizes provided (" + std::to_string(target.size()) +
                         ") must be greater or equal to the number of dimensions in the tensor (" +
                         std::to_string(shape.size()) + ")");
  std::size_t offset = target.size() - shape.size();
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (inferred_size(r, target[i], loc)) {
      if (i < offset)
        throw TraceError(loc, "expand: -1 is not allowed in a leading, non-existing dimension");
      target[i] = shape[i - offset];
    }
  }
  return broadcast_to(r, a[0], target, loc);
}

Obj repeat(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "repeat", loc);
  std::vector<Obj> repeats = size_arg(r, a[1], loc, "repeat");
  std::vector<Obj> shape = tensor(a[0]).shape;
  if (repeats.size() < shape.size())
    throw TraceError(loc, "Number of dimensions of repeat dims can not be smaller than number of "
                          "dimensions of tensor");
  shape.insert(shape.begin(), repeats.size() - shape.size(), Obj::int_of(1));
  Obj x = reshape_to(r, a[0], shape, "repeat", loc);
  // [r0, s0, r1, s1, ...] with the input in the odd dims, then merged pairwise.
  std::vector<Obj> big, merged;
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    big.push_back(repeats[i]);
    big.push_back(shape[i]);
    dims.push_back(static_cast<int64_t>(2 * i + 1));
    merged.push_back(r.num(NumOp::mul, repeats[i], shape[i], loc));
  }
  Obj b = r.prim(Sym::prims_broadcast_in_dim,
                 {x, dim_list(big), Obj::list(int_tuple(dims).as<SeqObj>().items)}, loc);
  return reshape_to(r, b, merged, "repeat", loc);
}

Obj repeat_interleave(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "repeat_interleave", loc);
  if (is_tensor(a[1]))
    throw TraceError(
        loc,
        "repeat_interleave with a tensor of repeats is data-dependent; the tracer takes an int");
  Obj reps = a[1];
  Obj x = a[0];
  if (a[2].kind == Obj::Kind::None) x = flatten(r, {x, Obj::int_of(0), Obj::int_of(-1)}, loc);
  const std::vector<Obj> shape = tensor(x).shape;
  if (shape.empty()) // torch's wrap_dim for a dim of a 0-d tensor here, not the usual [-1, 0]
    throw TraceError(loc, "Dimension specified as " +
                              std::to_string(r.concrete(a[2], loc, "a dim")) +
                              " but tensor has no dimensions");
  int64_t d = a[2].kind == Obj::Kind::None ? 0 : dim_arg(r, a[2], shape.size(), loc);
  Obj u = insert_dim(r, x, d + 1, loc);
  std::vector<Obj> big = tensor(u).shape;
  big[static_cast<std::size_t>(d + 1)] = reps;
  Obj e = broadcast_to(r, u, big, loc);
  std::vector<Obj> out = shape;
  out[static_cast<std::size_t>(d)] =
      r.num(NumOp::mul, shape[static_cast<std::size_t>(d)], reps, loc);
  return reshape_to(r, e, out, "repeat_interleave", loc);
}

Obj slice_along(Recorder &r, const Obj &a, int64_t dim, const Obj &start, const Obj &stop,
                const Loc &loc) {
  const std::vector<Obj> &shape = tensor(a).shape;
  std::vector<Obj> starts, ends, strides; // strides of 1, written out as Thunder does
  for (std::size_t i = 0; i < shape.size(); ++i) {
    bool here = static_cast<int64_t>(i) == dim;
    starts.push_back(here ? start : Obj::int_of(0));
    ends.push_back(here ? stop : shape[i]);
    strides.push_back(Obj::int_of(1));
  }
  return r.prim(Sym::prims_slice_prim, {a, Obj::list(starts), Obj::list(ends), Obj::list(strides)},
                loc);
}

Obj split_sizes(Recorder &r, const Obj &a, const std::vector<Obj> &sizes, int64_t dim,
                const Loc &loc) {
  std::vector<Obj> out;
  Obj at = Obj::int_of(0);
  for (const Obj &s : sizes) {
    Obj end = r.num(NumOp::add, at, s, loc);
    out.push_back(slice_along(r, a, dim, at, end, loc));
    at = end;
  }
  return Obj::tuple(std::move(out));
}

Obj split(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "split", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  int64_t d = dim_arg(r, a[2], shape.size(), loc);
  const Obj &length = shape.at(static_cast<std::size_t>(d));
  std::vector<Obj> sizes;
  if (a[1].is_sequence()) {
    sizes = items(a[1]);
    Obj total = Obj::int_of(0);
    for (const Obj &s : sizes)
      total = r.num(NumOp::add, total, s, loc);
    if (!r.same_size(total, length, loc))
      throw TraceError(loc, "split_with_sizes expects split_sizes to sum exactly to " +
                                std::to_string(length.integer) +
                                " (input tensor's size at dimension " + std::to_string(d) +
                                "), but got split_sizes=" + shape_text(sizes));
  } else {
    int64_t size = r.concrete(a[1], loc, "split_size");
    if (size <= 0) throw TraceError(loc, "split expects split_size be positive");
    int64_t n = r.concrete(length, loc, "the size of the split dim");
    for (int64_t at = 0; at < n || (n == 0 && at == 0); at += size) {
      sizes.push_back(Obj::int_of(std::min(size, n - at)));
      if (n == 0) break;
    }
  }
  return split_sizes(r, a[0], sizes, d, loc);
}

Obj chunk(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "chunk", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  int64_t chunks = r.concrete(a[1], loc, "chunks");
  if (chunks <= 0) throw TraceError(loc, "chunk expects `chunks` to be greater than 0");
  int64_t d = dim_arg(r, a[2], shape.size(), loc);
  int64_t n = r.concrete(shape.at(static_cast<std::size_t>(d)), loc, "the size of the chunked dim");
  if (n == 0) // torch.chunk: `chunks` empty pieces of an empty dim
    return split(r,
                 {a[0],
                  Obj::list(std::vector<Obj>(static_cast<std::size_t>(chunks), Obj::int_of(0))),
                  Obj::int_of(d)},
                 loc);
  int64_t size = (n + chunks - 1) / chunks;
  return split(r, {a[0], Obj::int_of(std::max<int64_t>(size, 1)), Obj::int_of(d)}, loc);
}

Obj cat(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!a[0].is_sequence() || items(a[0]).empty())
    throw TraceError(loc, "`cat` takes a non-empty tuple or list of tensors");
  std::vector<const Obj *> ptrs;
  for (const Obj &t : items(a[0])) {
    require_tensor(t, "each element", "cat", loc);
    ptrs.push_back(&t);
  }
  DType dtype = result_type(ptrs);
  // PyTorch's legacy rule: a 1-D tensor of no elements joins tensors of any rank (it is left out).
  std::size_t most = 0;
  for (const Obj &t : items(a[0]))
    most = std::max(most, tensor(t).shape.size());
  auto legacy_empty = [&](const Obj &t) {
    const std::vector<Obj> &s = tensor(t).shape;
    return most > 1 && s.size() == 1 && empty_size(r, s[0], loc);
  };
  std::vector<Obj> joined;
  for (const Obj &t : items(a[0]))
    if (!legacy_empty(t)) joined.push_back(t);
  if (joined.empty()) joined.push_back(items(a[0])[0]);
  const Obj &first = joined[0];
  std::size_t rank = tensor(first).shape.size();
  int64_t d = dim_arg(r, a[1], rank, loc);
  std::vector<Obj> converted;
  for (const Obj &t : joined) {
    if (tensor(t).shape.size() != rank)
      throw TraceError(loc, "Tensors must have same number of dimensions: got " +
                                std::to_string(rank) + " and " +
                                std::to_string(tensor(t).shape.size()));
    for (std::size_t i = 0; i < rank; ++i)
      if (static_cast<int64_t>(i) != d &&
          !r.same_size(tensor(t).shape[i], tensor(first).shape[i], loc))
        throw TraceError(loc, "Sizes of tensors must match except in dimension " +
                                  std::to_string(d) + ": " + shape_text(tensor(first).shape) +
                                  " and " + shape_text(tensor(t).shape));
    if (tensor(t).device != tensor(first).device)
      throw TraceError(loc, "cat: tensors on different devices");
    converted.push_back(convert(r, t, dtype, loc));
  }
  return r.prim(Sym::prims_cat, {Obj::list(std::move(converted)), Obj::int_of(d)}, loc);
}

Obj stack(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!a[0].is_sequence() || items(a[0]).empty())
    throw TraceError(loc, "stack expects a non-empty TensorList");
  const Obj &first = items(a[0])[0];
  require_tensor(first, "each element", "stack", loc);
  int64_t d = canonical_dim(r.concrete(a[1], loc, "a dim"), tensor(first).shape.size() + 1, loc);
  std::vector<Obj> expanded;
  for (const Obj &t : items(a[0])) {
    require_tensor(t, "each element", "stack", loc);
    expanded.push_back(insert_dim(r, t, d, loc));
  }
  return cat(r, {Obj::list(std::move(expanded)), Obj::int_of(d)}, loc);
}

Obj flip(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "flip", loc);
  std::vector<int64_t> dims = reduction_dims(r, a[1], tensor(a[0]).shape.size(), loc);
  if (items(a[1]).empty()) return a[0];
  return r.prim(Sym::prims_flip, {a[0], int_tuple(dims)}, loc);
}

// torch.roll: each (shift, dim) pair moves the last `shift mod n` positions of the dim to the
// front, as two slices joined by cat; without dims the flattened tensor rolls and is reshaped
// back. Nothing recorded when nothing moves (an empty dim, a shift of a multiple of n).
Obj roll(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "roll", loc);
  std::vector<Obj> shifts = a[1].is_sequence() ? items(a[1]) : std::vector<Obj>{a[1]};
  std::vector<Obj> dims = a[2].is_none()
                              ? std::vector<Obj>{}
                              : (a[2].is_sequence() ? items(a[2]) : std::vector<Obj>{a[2]});
  if (shifts.empty()) throw TraceError(loc, "`shifts` required");
  if (dims.empty()) {
    if (shifts.size() != 1)
      throw TraceError(loc, "shifts and dimensions must align. shifts: " +
                                std::to_string(shifts.size()) + ", dims:0");
    const std::vector<Obj> shape = tensor(a[0]).shape;
    Obj flat = flatten(r, {a[0], Obj::int_of(0), Obj::int_of(-1)}, loc);
    Obj rolled = roll(r, {flat, shifts[0], Obj::int_of(0)}, loc);
    return reshape_to(r, rolled, shape, "roll", loc);
  }
  if (shifts.size() != dims.size())
    throw TraceError(loc,
                     "shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                         ", dims:" + std::to_string(dims.size()));
  Obj out = a[0];
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const std::vector<Obj> &shape = tensor(out).shape;
    int64_t d = dim_arg(r, dims[i], shape.size(), loc);
    int64_t n = r.concrete(shape[static_cast<std::size_t>(d)], loc, "the size of the rolled dim");
    int64_t shift = r.concrete(shifts[i], loc, "a shift");
    if (n == 0 || shift % n == 0) continue;
    int64_t moved = ((shift % n) + n) % n;
    Obj pieces = split_sizes(r, out, {Obj::int_of(n - moved), Obj::int_of(moved)}, d, loc);
    out = r.prim(Sym::prims_cat, {Obj::list({items(pieces)[1], items(pieces)[0]}), Obj::int_of(d)},
                 loc);
  }
  return out;
}

// Tensor.unfold(dim, size, step): dim becomes the count of windows, and a last dim of `size`
// holds each window's elements. Recorded as one strided slice per offset in the window (start k,
// `step` apart), stacked along a new last dim: prims.slice_prim and prims.cat, whose VJPs give
// the gradient (Thunder's prims.unfold has none of its own here). The window dim's size is
// specialised.
Obj unfold(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "unfold", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  // A 0-d tensor unfolds as one element along dim 0 (or -1).
  Obj input = shape.empty() ? reshape_to(r, a[0], {Obj::int_of(1)}, "unfold", loc) : a[0];
  std::size_t rank = tensor(input).shape.size();
  int64_t d = dim_arg(r, a[1], rank, loc);
  int64_t size = r.concrete(a[2], loc, "the window size");
  int64_t step = r.concrete(a[3], loc, "the step");
  int64_t length = r.concrete(tensor(input).shape[static_cast<std::size_t>(d)], loc,
                              "the size of the unfolded dim");
  if (step <= 0) throw TraceError(loc, "step is " + std::to_string(step) + " but must be > 0");
  if (size < 0) throw TraceError(loc, "size is " + std::to_string(size) + " but must be >= 0");
  if (size > length)
    throw TraceError(loc, "maximum size for tensor at dimension " + std::to_string(d) + " is " +
                              std::to_string(length) + " but size is " + std::to_string(size));
  if (size == 0) throw TraceError(loc, "unsupported construct: unfold with size 0 (empty windows)");
  int64_t windows = (length - size) / step + 1;
  std::vector<Obj> offsets;
  for (int64_t k = 0; k < size; ++k)
    offsets.push_back(strided_slice(r, input, static_cast<std::size_t>(d), k, windows, step, loc));
  Obj out = r.call(Sym::ltorch_stack, {Obj::list(std::move(offsets)), Obj::int_of(-1)}, loc);
  if (!shape.empty()) return out;
  return reshape_to(r, out, {Obj::int_of(size)}, "unfold", loc);
}

// unbind: the slices along dim, each without it (as Thunder's: split into ones, then squeeze).
Obj unbind(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "unbind", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (shape.empty())
    throw TraceError(loc, "IndexError: Dimension specified as 0 but tensor has no dimensions");
  int64_t d = dim_arg(r, a[1], shape.size(), loc);
  int64_t n = r.concrete(shape[static_cast<std::size_t>(d)], loc, "the size of the unbound dim");
  if (n == 0) return Obj::tuple({});
  Obj pieces =
      split_sizes(r, a[0], std::vector<Obj>(static_cast<std::size_t>(n), Obj::int_of(1)), d, loc);
  std::vector<Obj> out;
  for (const Obj &piece : items(pieces))
    out.push_back(r.call(Sym::ltorch_squeeze, {piece, Obj::int_of(d)}, loc));
  return Obj::tuple(std::move(out));
}

// The pads of F.pad, checked as torch's constant_pad_nd checks them.
std::vector<int64_t> pad_widths(Recorder &r, const Obj &given, std::size_t rank, const Loc &loc) {
  if (!given.is_sequence()) throw TraceError(loc, "F.pad: pad must be a tuple of ints");
  std::vector<int64_t> pads;
  for (const Obj &p : items(given))
    pads.push_back(r.concrete(p, loc, "a pad"));
  if (pads.size() % 2)
    throw TraceError(loc, "Length of pad must be even but instead it equals " +
                              std::to_string(pads.size()));
  if (pads.size() / 2 > rank)
    throw TraceError(loc, "Length of pad should be no more than twice the number of dimensions "
                          "of the input. Pad length is " +
                              std::to_string(pads.size()) + " while the input has " +
                              std::to_string(rank) + " dimensions.");
  return pads;
}

// F.pad in constant mode, as torch's constant_pad_nd: (before, after) pairs from the last dim
// backwards, a negative one cropping (slices), a positive one joining tensors of `value` (cat).
// F.pad's reflect, replicate and circular modes, on the last pads.size() / 2 dims of an input
// with one or two more (its batch and channels): per dim, the border on each side (mirrored
// without the edge element, the edge element repeated, or the other end wrapped around) cut
// with slices and concatenated, so the gradient is the slices' and the cat's.
Obj pad_from_border(Recorder &r, const Obj &input, const std::vector<int64_t> &pads,
                    const std::string &mode, const Obj &value, const Loc &loc) {
  if (!value.is_none())
    throw TraceError(loc, "Padding mode \"" + mode + "\" doesn't take in value argument");
  const std::vector<Obj> &shape = tensor(input).shape;
  std::size_t dims = pads.size() / 2, rank = shape.size();
  if (dims < 1 || dims > 3 || (rank != dims + 1 && rank != dims + 2))
    throw TraceError(loc, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported "
                          "for now (mode '" +
                              mode + "' pads " + std::to_string(dims) + " dims of a " +
                              std::to_string(rank) + "-D input)");
  if (mode !=
      "circular") // PyTorch's reflection and replication kernels: only the batch may be empty
    for (std::size_t i = rank == dims + 2 ? 1 : 0; i < rank; ++i)
      if (r.concrete(shape[i], loc, "a size of the padded input") == 0)
        throw TraceError(loc, "Expected " + std::to_string(dims + 1) + "D or " +
                                  std::to_string(dims + 2) +
                                  "D (batch mode) tensor with possibly 0 batch size and other "
                                  "non-zero dimensions for input, but got: " +
                                  shape_text(shape));
  Obj out = input;
  for (std::size_t k = 0; k < dims; ++k) {
    int64_t d = static_cast<int64_t>(rank - 1 - k), before = pads[2 * k], after = pads[2 * k + 1];
    int64_t n = r.concrete(shape[static_cast<std::size_t>(d)], loc, "a padded size");
    if (before < 0 || after < 0)
      throw TraceError(loc, "unsupported construct: negative padding (a crop) in F.pad's mode '" +
                                mode + "'");
    if (mode == "reflect" && (before >= n || after >= n))
      throw TraceError(loc, "Argument #4: Padding size should be less than the corresponding "
                            "input dimension, but got: padding (" +
                                std::to_string(before) + ", " + std::to_string(after) +
                                ") at dimension " + std::to_string(d) + " of input " +
                                shape_text(shape));
    if (mode == "circular" && (before > n || after > n))
      throw TraceError(loc, "Padding value causes wrapping around more than once.");
    auto cut = [&](int64_t start, int64_t stop) {
      return slice_along(r, out, d, Obj::int_of(start), Obj::int_of(stop), loc);
    };
    auto side = [&](int64_t width, bool low) -> Obj {
      if (mode == "reflect")
        return r.call(
            Sym::ltorch_flip,
            {low ? cut(1, width + 1) : cut(n - 1 - width, n - 1), Obj::tuple({Obj::int_of(d)})},
            loc);
      if (mode == "circular") return low ? cut(n - width, n) : cut(0, width);
      std::vector<Obj> widened = tensor(out).shape; // replicate: the edge element, expanded
      widened[static_cast<std::size_t>(d)] = Obj::int_of(width);
      return r.call(Sym::ltorch_expand, {low ? cut(0, 1) : cut(n - 1, n), Obj::tuple(widened)},
                    loc);
    };
    std::vector<Obj> parts;
    if (before > 0) parts.push_back(side(before, true));
    parts.push_back(out);
    if (after > 0) parts.push_back(side(after, false));
    if (parts.size() > 1) out = r.call(Sym::ltorch_cat, {Obj::list(parts), Obj::int_of(d)}, loc);
  }
  return out;
}

Obj pad(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, pad, mode, value
  require_tensor(a[0], "the input", "pad", loc);
  std::string mode = a[2].kind == Obj::Kind::Str ? a[2].as<StrObj>().value : "";
  if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular")
    throw TraceError(loc, "F.pad: mode " + describe(a[2]) +
                              " is not one of 'constant', 'reflect', 'replicate' and 'circular'");
  const std::size_t rank = tensor(a[0]).shape.size();
  std::vector<int64_t> pads = pad_widths(r, a[1], rank, loc);
  if (mode != "constant") return pad_from_border(r, a[0], pads, mode, a[3], loc);
  bool grows = std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p > 0; });
  Obj value = a[3].is_none() ? Obj::int_of(0) : a[3];
  Obj out = a[0];
  for (std::size_t k = 0; k < pads.size() / 2; ++k) {
    int64_t d = static_cast<int64_t>(rank - 1 - k), before = pads[2 * k], after = pads[2 * k + 1];
    int64_t n = r.concrete(tensor(out).shape[static_cast<std::size_t>(d)], loc, "a padded size");
    // torch crops first (a narrow, which must not go past the dim), then pads.
    int64_t cropped = n + std::min<int64_t>(0, before) + std::min<int64_t>(0, after);
    if (cropped < 0)
      throw TraceError(loc, "F.pad: cropping " + std::to_string(-std::min<int64_t>(0, before)) +
                                " and " + std::to_string(-std::min<int64_t>(0, after)) +
                                " from dimension " + std::to_string(d) + " of size " +
                                std::to_string(n) + " leaves a negative size");
    if (n + before + after < (grows ? 1 : 0))
      throw TraceError(loc, "The input size " + std::to_string(n) + ", plus negative padding " +
                                std::to_string(before) + " and " + std::to_string(after) +
                                " resulted in a negative output size, which is invalid. Check "
                                "dimension " +
                                std::to_string(d) + " of your input.");
    if (before < 0 || after < 0)
      out = slice_along(r, out, d, Obj::int_of(std::max<int64_t>(0, -before)),
                        Obj::int_of(n - std::max<int64_t>(0, -after)), loc);
    auto filled = [&](int64_t width) {
      std::vector<Obj> shape = tensor(out).shape;
      shape[static_cast<std::size_t>(d)] = Obj::int_of(width);
      return r.call(Sym::ltorch_full,
                    {Obj::tuple(std::move(shape)), value, Obj::dtype_of(tensor(out).dtype),
                     Obj::none(), Obj::device_of(tensor(out).device), Obj::boolean_of(false)},
                    loc);
    };
    std::vector<Obj> parts;
    if (before > 0) parts.push_back(filled(before));
    parts.push_back(out);
    if (after > 0) parts.push_back(filled(after));
    if (parts.size() > 1) out = r.call(Sym::ltorch_cat, {Obj::list(parts), Obj::int_of(d)}, loc);
  }
  return out;
}

Obj triangle(Recorder &r, const std::vector<Obj> &a, bool lower, const Loc &loc) {
  require_tensor(a[0], "the input", lower ? "tril" : "triu", loc);
  const TensorObj &t = tensor(a[0]);
  if (t.shape.size() < 2)
    throw TraceError(loc, std::string(lower ? "tril" : "triu") +
                              ": input tensor must have at least 2 dimensions");
  int64_t diagonal = r.concrete(a[1], loc, "diagonal");
  const Obj &rows = t.shape[t.shape.size() - 2], &cols = t.shape.back();
  Obj dev = Obj::device_of(t.device), i64 = Obj::dtype_of(DType::int64);
  Obj row = r.prim(Sym::prims_iota, {rows, Obj::int_of(0), Obj::int_of(1), dev, i64}, loc);
  Obj col = r.prim(Sym::prims_iota, {cols, Obj::int_of(0), Obj::int_of(1), dev, i64}, loc);
  std::vector<Obj> grid = {rows, cols};
  Obj row2 =
      r.prim(Sym::prims_broadcast_in_dim, {row, dim_list(grid), Obj::list({Obj::int_of(0)})}, loc);
  Obj col2 =
      r.prim(Sym::prims_broadcast_in_dim, {col, dim_list(grid), Obj::list({Obj::int_of(1)})}, loc);
  Obj offset = r.prim(Sym::prims_sub, {col2, row2}, loc);
  Obj keep = r.prim(lower ? Sym::prims_le : Sym::prims_ge, {offset, Obj::int_of(diagonal)}, loc);
  Obj mask = broadcast_to(r, keep, t.shape, loc);
  Obj zero = is_floating(t.dtype)      ? Obj::float_of(0.0)
             : t.dtype == DType::bool_ ? Obj::boolean_of(false)
                                       : Obj::int_of(0);
  return r.prim(Sym::prims_where, {mask, a[0], zero}, loc);
}

Obj tril(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  return triangle(r, a, true, loc);
}
Obj triu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  return triangle(r, a, false, loc);
}

// ---- VJP rules

std::vector<Obj> broadcast_in_dim_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &,
                                      const Obj &g, const Loc &loc) {
  // Sum over the dims the broadcast added and those it expanded from 1, then back to a's shape.
  const std::vector<Obj> &in = tensor(a[0]).shape, &out = items(a[1]);
  std::vector<bool> from_input(out.size(), false);
  std::vector<int64_t> summed;
  for (std::size_t i = 0; i < in.size(); ++i) {
    auto d = static_cast<std::size_t>(items(a[2])[i].integer);
    from_input[d] = !(in[i].integer == 1 && out[d].integer != 1);
  }
  for (std::size_t d = 0; d < out.size(); ++d)
    if (!from_input[d]) summed.push_back(static_cast<int64_t>(d));
  Obj x = summed.empty() ? g : grad::sum(r, g, summed, loc);
  if (tensor(x).shape.size() != in.size() || !summed.empty()) x = grad::reshape(r, x, in, loc);
  return {x, Obj::none(), Obj::none()};
}

std::vector<Obj> reshape_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                             const Loc &loc) {
  return {grad::reshape(r, g, tensor(a[0]).shape, loc), Obj::none()};
}

std::vector<Obj> transpose_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                               const Loc &loc) {
  const std::vector<Obj> &perm = items(a[1]);
  std::vector<int64_t> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<std::size_t>(perm[i].integer)] = static_cast<int64_t>(i);
  return {grad::transpose(r, g, inverse, loc), Obj::none()};
}

std::vector<Obj> cat_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  // Each input's cotangent is its slice of g along the dim.
  auto d = static_cast<std::size_t>(a[1].integer);
  const std::vector<Obj> &shape = tensor(g).shape;
  std::vector<Obj> grads;
  Obj offset = Obj::int_of(0);
  for (const Obj &t : items(a[0])) {
    std::vector<Obj> starts(shape.size(), Obj::int_of(0)), ends = shape;
    Obj end = r.num(NumOp::add, offset, tensor(t).shape[d], loc);
    starts[d] = offset;
    ends[d] = end;
    grads.push_back(grad::if_differentiable(
        t,
        r.prim(Sym::prims_slice_prim, {g, Obj::list(starts), Obj::list(ends), Obj::none()}, loc)));
    offset = end;
  }
  return {Obj::list(std::move(grads)), Obj::none()};
}

std::vector<Obj> flip_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                          const Loc &loc) {
  return {r.prim(Sym::prims_flip, {g, a[1]}, loc), Obj::none()};
}

// The layout does not change the values: the gradient passes through.
std::vector<Obj> stride_order_vjp(Recorder &, const std::vector<Obj> &, const Obj &, const Obj &g,
                                  const Loc &) {
  return {g, Obj::none()};
}

} // namespace

void define_shape_ops(std::vector<OpSpec> &out) {
  out.push_back(prim_spec(Sym::prims_broadcast_in_dim, "a, shape, broadcast_dimensions, /",
                          broadcast_in_dim_meta, broadcast_in_dim_vjp));
  out.push_back(prim_spec(Sym::prims_reshape, "a, shape, /", reshape_meta, reshape_vjp));
  out.push_back(
      prim_spec(Sym::prims_transpose, "a, permutation, /", transpose_meta, transpose_vjp));
  out.push_back(prim_spec(Sym::prims_squeeze, "a, dims, /", squeeze_meta, reshape_vjp));
  out.push_back(prim_spec(Sym::prims_cat, "tensors, dim, /", cat_meta, cat_vjp));
  out.push_back(prim_spec(Sym::prims_flip, "a, dims, /", same_shape_meta, flip_vjp));
  out.push_back(
      prim_spec(Sym::prims_stride_order, "a, order, /", same_shape_meta, stride_order_vjp));

  add_ltorch(out, Sym::ltorch_reshape, "input, /, *shape", {"torch.reshape", "Tensor.reshape"},
             reshape, true);
  add_ltorch(out, Sym::ltorch_view, "input, /, *shape", {"Tensor.view"}, view, true);
  add_ltorch(out, Sym::ltorch_contiguous, "input, /, *, memory_format=None", {"Tensor.contiguous"},
             contiguous);
  // Thunder's default is torch.contiguous_format, which None means here.
  torch_only(out, Sym::ltorch_contiguous, "memory_format");
  add_ltorch(out, Sym::ltorch_transpose, "input, /, dim0, dim1",
             {"torch.transpose", "torch.swapaxes", "Tensor.transpose", "Tensor.swapaxes"},
             transpose, true);
  add_ltorch(out, Sym::ltorch_permute, "input, /, *dims", {"torch.permute", "Tensor.permute"},
             permute, true);
  add_ltorch(out, Sym::ltorch_unsqueeze, "input, /, dim", {"torch.unsqueeze", "Tensor.unsqueeze"},
             unsqueeze, true);
  add_ltorch(out, Sym::ltorch_squeeze, "input, /, dim=None", {"torch.squeeze", "Tensor.squeeze"},
             squeeze, true);
  add_ltorch(out, Sym::ltorch_flatten, "input, /, start_dim=0, end_dim=-1",
             {"torch.flatten", "Tensor.flatten"}, flatten, true);
  add_ltorch(out, Sym::ltorch_expand, "input, /, *shape", {"Tensor.expand"}, expand, true);
  add_ltorch(out, Sym::ltorch_repeat, "input, /, *repeats", {"Tensor.repeat"}, repeat);
  add_ltorch(out, Sym::ltorch_repeat_interleave, "input, /, repeats, dim=None, *, output_size=None",
             {"torch.repeat_interleave", "Tensor.repeat_interleave"}, repeat_interleave);
  add_ltorch(out, Sym::ltorch_split, "input, /, split_size_or_sections, dim=0",
             {"torch.split", "Tensor.split"}, split, true);
  add_ltorch(out, Sym::ltorch_chunk, "input, /, chunks, dim=0", {"torch.chunk", "Tensor.chunk"},
             chunk, true);
  add_ltorch(out, Sym::ltorch_cat, "tensors, /, dim=0",
             {"torch.cat", "torch.concat", "torch.concatenate"}, cat);
  add_ltorch(out, Sym::ltorch_stack, "tensors, /, dim=0", {"torch.stack"}, stack);
  add_ltorch(out, Sym::ltorch_flip, "input, /, *dims", {"torch.flip", "Tensor.flip"}, flip);
  add_ltorch(out, Sym::ltorch_roll, "input, /, shifts, dims=None", {"torch.roll", "Tensor.roll"},
             roll);
  add_ltorch(out, Sym::ltorch_unbind, "input, /, dim=0", {"torch.unbind", "Tensor.unbind"}, unbind);
  add_ltorch(out, Sym::ltorch_unfold, "a, /, dim, size, step", {"Tensor.unfold"}, unfold, true);
  add_ltorch(out, Sym::ltorch_pad, "input, /, pad, mode='constant', value=None",
             {"torch.nn.functional.pad"}, pad);
  add_ltorch(out, Sym::ltorch_tril, "input, /, diagonal=0", {"torch.tril", "Tensor.tril"}, tril);
  add_ltorch(out, Sym::ltorch_triu, "input, /, diagonal=0", {"torch.triu", "Tensor.triu"}, triu);
}

} // namespace tracelint::tracer::ops
