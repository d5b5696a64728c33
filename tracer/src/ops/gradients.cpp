#include "gradients.hpp"

namespace tracelint::tracer::ops::grad {

Obj add(Recorder &r, const Obj &a, const Obj &b, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_add, {a, b}, loc);
}
Obj sub(Recorder &r, const Obj &a, const Obj &b, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_sub, {a, b}, loc);
}
Obj mul(Recorder &r, const Obj &a, const Obj &b, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_mul, {a, b}, loc);
}
Obj div(Recorder &r, const Obj &a, const Obj &b, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_true_divide, {a, b}, loc);
}
Obj neg(Recorder &r, const Obj &a, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_neg, {a}, loc);
}
Obj unary(Recorder &r, Sym symbol, const Obj &a, const Loc &loc) {
  return call_ltorch(r, symbol, {a}, loc);
}
Obj where(Recorder &r, const Obj &pred, const Obj &a, const Obj &b, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_where, {pred, a, b}, loc);
}

Obj zeros_like(Recorder &r, const Obj &x, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_zeros_like, {x}, loc);
}

Obj as_dtype_of(Recorder &r, const Obj &predicate, const Obj &x, const Loc &loc) {
  return convert(r, predicate, tensor(x).dtype, loc);
}

Obj reshape(Recorder &r, const Obj &g, const std::vector<Obj> &shape, const Loc &loc) {
  return r.prim(Sym::prims_reshape, {g, Obj::tuple(shape)}, loc);
}

Obj transpose(Recorder &r, const Obj &g, const std::vector<int64_t> &permutation, const Loc &loc) {
  return r.prim(Sym::prims_transpose, {g, int_tuple(permutation)}, loc);
}

Obj broadcast_in_dim(Recorder &r, const Obj &g, const std::vector<Obj> &shape,
                     const std::vector<int64_t> &dims, const Loc &loc) {
  std::vector<Obj> d;
  for (int64_t i : dims)
    d.push_back(Obj::int_of(i));
  return r.prim(Sym::prims_broadcast_in_dim, {g, Obj::list(shape), Obj::list(std::move(d))}, loc);
}

Obj sum(Recorder &r, const Obj &g, const std::vector<int64_t> &dims, const Loc &loc) {
  return r.prim(Sym::prims_sum, {g, int_tuple(dims)}, loc);
}

Obj swap_last_two(Recorder &r, const Obj &g, const Loc &loc) {
  std::size_t rank = tensor(g).shape.size();
  std::vector<int64_t> perm;
  for (std::size_t i = 0; i < rank; ++i)
    perm.push_back(static_cast<int64_t>(i));
  std::swap(perm[rank - 1], perm[rank - 2]);
  return transpose(r, g, perm, loc);
}

Obj sum_to(Recorder &r, const Obj &g, const std::vector<Obj> &shape, const Loc &loc) {
  const std::vector<Obj> &from = tensor(g).shape;
  std::size_t lead = from.size() - shape.size();
  std::vector<int64_t> dims;
  // By value: a proxy dim of 1 that was broadcast has a guard saying so (the forward decided).
  for (std::size_t i = 0; i < from.size(); ++i)
    if (i < lead || (shape[i - lead].integer == 1 && from[i].integer != 1))
      dims.push_back(static_cast<int64_t>(i));
  if (dims.empty()) return g;
  Obj summed = sum(r, g, dims, loc);
  return reshape(r, summed, shape, loc);
}

} // namespace tracelint::tracer::ops::grad
