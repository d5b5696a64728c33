#pragma once
// What the VJP rules share: the backward's arithmetic, recorded as ltorch symbols (so that
// `--level ltorch` shows the backward at torch level, its prims as subsymbols), and the shape
// plumbing, recorded as prims.
#include "common.hpp"

namespace tracelint::tracer::ops::grad {

// ltorch.add/sub/mul/true_divide of tensors and numbers (same shapes: the prims' operands are
// broadcast already).
Obj add(Recorder &r, const Obj &a, const Obj &b, const Loc &loc);
Obj sub(Recorder &r, const Obj &a, const Obj &b, const Loc &loc);
Obj mul(Recorder &r, const Obj &a, const Obj &b, const Loc &loc);
Obj div(Recorder &r, const Obj &a, const Obj &b, const Loc &loc);
Obj neg(Recorder &r, const Obj &a, const Loc &loc);
// An ltorch symbol of one tensor (exp, log, sin, ...).
Obj unary(Recorder &r, Sym symbol, const Obj &a, const Loc &loc);
Obj where(Recorder &r, const Obj &pred, const Obj &a, const Obj &b, const Loc &loc);
// Zeros shaped and typed as x.
Obj zeros_like(Recorder &r, const Obj &x, const Loc &loc);
// A boolean predicate as x's dtype (1 where true).
Obj as_dtype_of(Recorder &r, const Obj &predicate, const Obj &x, const Loc &loc);

// g, a broadcast of something shaped `shape` (leading dims added, size-1 dims expanded),
// summed back to `shape`.
Obj sum_to(Recorder &r, const Obj &g, const std::vector<Obj> &shape, const Loc &loc);
// prims.reshape, prims.transpose, prims.broadcast_in_dim, prims.sum.
Obj reshape(Recorder &r, const Obj &g, const std::vector<Obj> &shape, const Loc &loc);
Obj transpose(Recorder &r, const Obj &g, const std::vector<int64_t> &permutation, const Loc &loc);
Obj broadcast_in_dim(Recorder &r, const Obj &g, const std::vector<Obj> &shape,
                     const std::vector<int64_t> &dims, const Loc &loc);
Obj sum(Recorder &r, const Obj &g, const std::vector<int64_t> &dims, const Loc &loc);
// g with its last two dims swapped.
Obj swap_last_two(Recorder &r, const Obj &g, const Loc &loc);

// The argument's cotangent when it is a tensor of a floating dtype, else None.
inline Obj if_differentiable(const Obj &arg, Obj cotangent) {
  if (!is_tensor(arg) || !(is_floating(tensor(arg).dtype) || is_complex(tensor(arg).dtype)))
    return Obj::none();
  return cotangent;
}

} // namespace tracelint::tracer::ops::grad
