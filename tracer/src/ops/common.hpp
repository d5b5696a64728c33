#pragma once
// What the op definitions share: tensor templates, torch's type promotion, broadcasting, dims.
#include "../recorder.hpp"
#include "tracelint/tracer/registry.hpp"

#include <array>
#include <string>
#include <vector>

namespace tracelint::tracer::ops {

inline const TensorObj &tensor(const Obj &o) {
  return o.as<TensorObj>();
}
inline bool is_tensor(const Obj &o) {
  return o.kind == Obj::Kind::Tensor;
}
inline const std::vector<Obj> &items(const Obj &o) {
  return o.as<SeqObj>().items;
}

// A tensor Obj without a name: what a shape rule returns.
Obj make_tensor(DType dtype, const std::string &device, std::vector<Obj> shape);
inline Obj like(const Obj &t, std::vector<Obj> shape) {
  return make_tensor(tensor(t).dtype, tensor(t).device, std::move(shape));
}
inline Obj like(const Obj &t, std::vector<Obj> shape, DType dtype) {
  return make_tensor(dtype, tensor(t).device, std::move(shape));
}

// "[2, 3]"
std::string shape_text(const std::vector<Obj> &shape);
Obj int_tuple(const std::vector<int64_t> &v);
std::vector<int64_t> int_values(const std::vector<Obj> &v);
inline Obj dim_list(const std::vector<Obj> &shape) {
  return Obj::list(shape);
}

// A dim normalised to [0, rank): Python's rule for negative dims, an IndexError otherwise.
int64_t canonical_dim(int64_t d, std::size_t rank, const Loc &loc);
// Whether a requested size (reshape, view, expand) is -1, the one to infer.
bool inferred_size(Recorder &r, const Obj &d, const Loc &loc);
// Whether a dim's size is `value` (a symbolic one under a guard that it is).
bool size_is(Recorder &r, const Obj &size, int64_t value, const Loc &loc);
bool empty_size(Recorder &r, const Obj &size, const Loc &loc);
// A dim argument (an int, guarded when a proxy), normalised.
int64_t dim_arg(Recorder &r, const Obj &d, std::size_t rank, const Loc &loc);
// A reduction's dims: None or () is every dim; an int or a sequence of ints; sorted, unique.
std::vector<int64_t> reduction_dims(Recorder &r, const Obj &dims, std::size_t rank, const Loc &loc);
// A size argument: ints or a tuple/list of ints (proxies kept).
std::vector<Obj> size_arg(Recorder &r, const Obj &shape, const Loc &loc, const std::string &what);

// torch's type promotion (torch.result_type) of tensors and Python numbers.
DType promote_types(DType a, DType b);
DType result_type(const std::vector<const Obj *> &operands);
DType number_dtype(const Obj &number); // bool, int64 or float32 (the default)

// The broadcast shape of two shapes (sizes compared with guards where one is a proxy).
std::vector<Obj> broadcast_shapes(Recorder &r, const std::vector<Obj> &a, const std::vector<Obj> &b,
                                  const Loc &loc);
// t expanded to shape (prims.broadcast_in_dim when it changes).
Obj broadcast_to(Recorder &r, const Obj &t, const std::vector<Obj> &shape, const Loc &loc);
// A tensor in another dtype (prims.convert_element_type when it changes); a number as that
// dtype's Python type.
Obj convert(Recorder &r, const Obj &x, DType dtype, const Loc &loc);
// t with size-1 dims put back where a reduction removed them (keepdim).
Obj keep_dims(Recorder &r, const Obj &reduced, const std::vector<Obj> &original,
              const std::vector<int64_t> &dims, const Loc &loc);

// An elementwise prim of tensors and numbers, broadcast and promoted as torch does; `compute`
// is the dtype to compute in (none: the promoted dtype), `out` the result's (none: computed).
Obj elementwise(Recorder &r, Sym prim, const std::vector<Obj> &operands, const Loc &loc,
                std::optional<DType> compute = std::nullopt,
                std::optional<DType> out = std::nullopt);

// The ltorch symbol's call on its schema's defaults for everything but `given`.
std::vector<Obj> args_with_defaults(Sym symbol, std::vector<Obj> given, Kwargs kwargs = {});
// Records the symbol with its schema's defaults for what is not given.
Obj call_ltorch(Recorder &r, Sym symbol, std::vector<Obj> given, const Loc &loc,
                Kwargs kwargs = {});

void require_tensor(const Obj &o, const char *what, const char *op, const Loc &loc);
// The input of an op torch computes on floating tensors only (silu, the activations): a[0] when
// it is one, a TraceError naming the op otherwise.
Obj float_input(Recorder &r, const Obj &a, const char *op, const Loc &loc);
// A flag argument (transposed, training, use_input_stats) given as a bool or an int: set when
// True or nonzero.
inline bool is_set(const Obj &flag) {
  return (flag.kind == Obj::Kind::Bool && flag.boolean) ||
         (flag.kind == Obj::Kind::Int && flag.integer != 0);
}
// A bool parameter of an ATen function (ceil_mode, count_include_pad, align_corners):
// PyTorch's argument parser takes a bool only, and refuses an int with this TypeError.
bool bool_arg(const Obj &flag, const std::string &op, const char *name, const Loc &loc);
// An op's `inplace=True`: the tracer records out-of-place symbols only.
void refuse_inplace(const Obj &inplace, const char *op, const Loc &loc);

// Per dim (low, high, interior): t padded with `value` (prims.pad) where they are positive and
// spread apart by `interior`, then cropped (prims.slice_prim) where low or high is negative,
// which prims.pad does not take. Records nothing for all zeros. `config` holds every dim of t.
using PadWidths = std::array<int64_t, 3>;
Obj pad_or_crop(Recorder &r, const Obj &t, const std::vector<PadWidths> &config, const Obj &value,
                const Loc &loc);
// One dim's elements from `start`, `step` apart, `count` of them (prims.slice_prim).
Obj strided_slice(Recorder &r, const Obj &t, std::size_t dim, int64_t start, int64_t count,
                  int64_t step, const Loc &loc);

} // namespace tracelint::tracer::ops
