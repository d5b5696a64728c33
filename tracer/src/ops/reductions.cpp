// Reductions and normalisations: sum, mean, amax, var, std, logsumexp, argmax, softmax,
// layer_norm, rms_norm.
#include "common.hpp"
#include "gradients.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <tuple>
#include <utility>

namespace tracelint::tracer::ops {

namespace {

std::vector<Obj> without(const std::vector<Obj> &shape, const std::vector<int64_t> &dims) {
  std::vector<Obj> out;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end())
      out.push_back(shape[i]);
  return out;
}

std::vector<int64_t> dims_of(const Obj &dims, std::size_t rank, const Loc &loc) {
  if (!dims.is_sequence()) throw TraceError(loc, "a reduction prim takes a tuple of dims");
  std::vector<int64_t> out;
  for (const Obj &d : items(dims)) {
    if (d.integer < 0 || static_cast<std::size_t>(d.integer) >= std::max<std::size_t>(rank, 1))
      throw TraceError(loc, "a reduction prim's dim " + std::to_string(d.integer) +
                                " is out of range for rank " + std::to_string(rank));
    out.push_back(d.integer);
  }
  return out;
}

Obj reduce_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "a reduction", loc);
  const TensorObj &t = tensor(args[0]);
  return like(args[0], without(t.shape, dims_of(args[1], t.shape.size(), loc)));
}

Obj var_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.var", loc);
  const TensorObj &t = tensor(args[0]);
  return like(args[0], without(t.shape, dims_of(args[1], t.shape.size(), loc)));
}

Obj arg_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.argmax", loc);
  const TensorObj &t = tensor(args[0]);
  if (args[1].kind == Obj::Kind::None) return like(args[0], {}, DType::int64);
  return like(args[0], without(t.shape, {canonical_dim(args[1].integer, t.shape.size(), loc)}),
              DType::int64);
}

// The number of elements a reduction over dims covers (a proxy under symbolic shapes).
Obj count(Recorder &r, const std::vector<Obj> &shape, const std::vector<int64_t> &dims,
          const Loc &loc) {
  Obj n = Obj::int_of(1);
  for (int64_t d : dims)
    n = r.num(NumOp::mul, n, shape[static_cast<std::size_t>(d)], loc);
  return n;
}

Obj reduce(Recorder &r, Sym prim, const Obj &a, const std::vector<int64_t> &dims, bool keepdim,
           const Loc &loc) {
  const std::vector<Obj> &shape = tensor(a).shape;
  Obj out = shape.empty() ? a : r.prim(prim, {a, int_tuple(dims)}, loc);
  return keepdim && !shape.empty() ? keep_dims(r, out, shape, dims, loc) : out;
}

bool flag(const Obj &o, const char *name, const Loc &loc) {
  if (o.kind != Obj::Kind::Bool)
    throw TraceError(loc, std::string(name) + " must be True or False, not " + describe(o));
  return o.boolean;
}

Obj with_dtype(Recorder &r, const Obj &a, const Obj &dtype, const Loc &loc) {
  if (dtype.kind == Obj::Kind::None) return a;
  if (dtype.kind != Obj::Kind::DType) throw TraceError(loc, "dtype must be a torch dtype");
  return convert(r, a, dtype.dtype(), loc);
}

Obj sum(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "sum", loc);
  Obj x = with_dtype(r, a[0], a[3], loc);
  if (a[3].kind == Obj::Kind::None && is_integral(tensor(x).dtype))
    x = convert(r, x, DType::int64, loc); // torch sums integers as int64
  std::vector<int64_t> dims = reduction_dims(r, a[1], tensor(x).shape.size(), loc);
  return reduce(r, Sym::prims_sum, x, dims, flag(a[2], "keepdim", loc), loc);
}

Obj mean(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "mean", loc);
  Obj x = with_dtype(r, a[0], a[3], loc);
  if (!is_floating(tensor(x).dtype) && !is_complex(tensor(x).dtype))
    throw TraceError(loc, "mean(): could not infer output dtype. Input dtype must be either a "
                          "floating point or complex dtype. Got: " +
                              std::string(dtype_info(tensor(x).dtype).torch_name));
  const std::vector<Obj> shape = tensor(x).shape;
  std::vector<int64_t> dims = reduction_dims(r, a[1], shape.size(), loc);
  bool keepdim = flag(a[2], "keepdim", loc);
  Obj n = count(r, shape, dims, loc);
  Obj total = reduce(r, Sym::prims_sum, x, dims, false, loc);
  Obj m = r.prim(Sym::prims_div, {total, convert(r, n, tensor(total).dtype, loc)}, loc);
  return keepdim && !shape.empty() ? keep_dims(r, m, shape, dims, loc) : m;
}

// amax, amin, argmax, argmin: PyTorch refuses to reduce a dim of size 0 (it has no identity).
void refuse_empty_dims(Recorder &r, const char *name, const std::vector<Obj> &shape,
                       const std::vector<int64_t> &dims, const Obj &given, const Loc &loc) {
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (shape.empty() || !empty_size(r, shape[static_cast<std::size_t>(dims[i])], loc)) continue;
    // PyTorch names the dim as it was given.
    int64_t as_given = dims[i];
    if (given.is_sequence() && i < items(given).size()) as_given = items(given)[i].integer;
    if (given.kind == Obj::Kind::Int) as_given = given.integer;
    throw TraceError(loc, std::string(name) + "(): Expected reduction dim " +
                              std::to_string(as_given) + " to have non-zero size.");
  }
}

template <Sym P> Obj extremum(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", symbol_name(P).name.data(), loc);
  std::vector<int64_t> dims = reduction_dims(r, a[1], tensor(a[0]).shape.size(), loc);
  refuse_empty_dims(r, P == Sym::prims_amax ? "amax" : "amin", tensor(a[0]).shape, dims, a[1], loc);
  return reduce(r, P, a[0], dims, flag(a[2], "keepdim", loc), loc);
}

Obj prod(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "prod", loc);
  Obj x = with_dtype(r, a[0], a[3], loc);
  if (a[3].kind == Obj::Kind::None && is_integral(tensor(x).dtype))
    x = convert(r, x, DType::int64, loc);
  std::vector<int64_t> dims = reduction_dims(r, a[1], tensor(x).shape.size(), loc);
  return reduce(r, Sym::prims_prod, x, dims, flag(a[2], "keepdim", loc), loc);
}

// Thunder's ltorch.var takes `correction` (default 1) and not torch's `unbiased`: unbiased=b is
// correction=int(b) (an explicit correction wins, as before). An unbiased that is a symbolic
// bool is left for the decomposition to decide (and is printed: torch's form).
void var_as_thunder(std::vector<Obj> &a, const Loc &) {
  const Obj &unbiased = a[2];
  if (a[4].kind == Obj::Kind::None && unbiased.kind == Obj::Kind::Bool && !unbiased.is_proxy())
    a[4] = Obj::int_of(unbiased.boolean ? 1 : 0);
  if (a[4].kind != Obj::Kind::None) a[2] = Obj::none();
  if (a[4].kind == Obj::Kind::None && a[2].kind == Obj::Kind::None) a[4] = Obj::int_of(1);
}

Obj var(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, dim, unbiased, keepdim, correction
  require_tensor(a[0], "the input", "var", loc);
  if (!is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "var: a floating-point tensor is required");
  std::vector<int64_t> dims = reduction_dims(r, a[1], tensor(a[0]).shape.size(), loc);
  int64_t correction = 1;
  if (a[4].kind != Obj::Kind::None)
    correction = r.concrete(a[4], loc, "correction");
  else if (a[2].kind != Obj::Kind::None)
    correction = flag(a[2], "unbiased", loc) ? 1 : 0;
  bool keepdim = flag(a[3], "keepdim", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  Obj v = r.prim(Sym::prims_var, {a[0], int_tuple(dims), Obj::int_of(correction)}, loc);
  return keepdim ? keep_dims(r, v, shape, dims, loc) : v;
}

// std: the square root of var (its arguments and Thunder's form the same).
Obj std_dev(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "std", loc);
  return r.call(Sym::ltorch_sqrt, {r.call(Sym::ltorch_var, a, loc)}, loc);
}

// logsumexp as torch computes it: the max over dim taken out first (an infinite max counts as
// 0), log(sum(exp(a - max))) + max; over an empty dim, log(sum(exp(a))).
Obj logsumexp(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, dim, keepdim
  require_tensor(a[0], "the input", "logsumexp", loc);
  if (!is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "logsumexp: a floating-point tensor is required (convert it first)");
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  std::vector<int64_t> dims = reduction_dims(r, a[1], shape.size(), loc);
  Obj keepdim = Obj::boolean_of(flag(a[2], "keepdim", loc));
  Obj dim = int_tuple(dims);
  bool empty = false;
  for (int64_t d : dims)
    empty = empty || empty_size(r, shape[static_cast<std::size_t>(d)], loc);
  auto sum = [&](const Obj &x, const Obj &keep) {
    return r.call(Sym::ltorch_sum, {x, dim, keep, Obj::none()}, loc);
  };
  // dim=() reduces all dims; without keepdim PyTorch then fails writing its result (unless the
  // tensor is empty: another path).
  if (a[1].is_sequence() && items(a[1]).empty() && !shape.empty() && !empty &&
      !flag(a[2], "keepdim", loc))
    throw TraceError(loc, "logsumexp: dim=() without keepdim=True fails in PyTorch (\"output with "
                          "shape [] doesn't match the broadcast shape\"): name the dims");
  if (empty)
    return r.call(Sym::ltorch_log, {sum(r.call(Sym::ltorch_exp, {a[0]}, loc), keepdim)}, loc);
  Obj top = r.call(Sym::ltorch_amax, {a[0], dim, Obj::boolean_of(true)}, loc);
  Obj infinite =
      r.call(Sym::ltorch_eq, {r.call(Sym::ltorch_abs, {top}, loc), Obj::float_of(INFINITY)}, loc);
  top = r.call(Sym::ltorch_masked_fill, {top, infinite, Obj::float_of(0.0)}, loc);
  Obj shifted = r.call(Sym::ltorch_sub, {a[0], top, Obj::int_of(1)}, loc);
  Obj logged =
      r.call(Sym::ltorch_log, {sum(r.call(Sym::ltorch_exp, {shifted}, loc), keepdim)}, loc);
  // Summing the kept size-1 dims away is squeezing them.
  Obj back = flag(a[2], "keepdim", loc) ? top : sum(top, Obj::boolean_of(false));
  return r.call(Sym::ltorch_add, {logged, back, Obj::int_of(1)}, loc);
}

template <Sym P> Obj arg_extremum(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", symbol_name(P).name.data(), loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  bool keepdim = flag(a[2], "keepdim", loc);
  const char *name = P == Sym::prims_argmax ? "argmax" : "argmin";
  if (a[1].kind == Obj::Kind::None) {
    for (const Obj &size : shape)
      if (empty_size(r, size, loc))
        throw TraceError(loc, std::string(name) + "(): Expected reduction dim to be specified for "
                                                  "input.numel() == 0.");
    Obj out = r.prim(P, {a[0], Obj::none()}, loc);
    if (!keepdim) return out;
    std::vector<Obj> ones(shape.size(), Obj::int_of(1));
    return r.prim(Sym::prims_broadcast_in_dim, {out, dim_list(ones), Obj::list({})}, loc);
  }
  int64_t d = dim_arg(r, a[1], shape.size(), loc);
  refuse_empty_dims(r, name, shape, {d}, a[1], loc);
  Obj out = r.prim(P, {a[0], Obj::int_of(d)}, loc);
  return keepdim ? keep_dims(r, out, shape, {d}, loc) : out;
}

Obj softmax_like(Recorder &r, const std::vector<Obj> &a, bool log, const Loc &loc) {
  const char *name = log ? "log_softmax" : "softmax";
  require_tensor(a[0], "the input", name, loc);
  if (a[1].kind == Obj::Kind::None)
    throw TraceError(loc, std::string(name) + " needs a dim (the implicit dim is deprecated)");
  Obj x = with_dtype(r, a[0], a[2], loc);
  DType original = tensor(x).dtype;
  if (!is_floating(original))
    throw TraceError(loc, std::string("`") + name + "` needs a floating-point tensor, got " +
                              describe(x));
  // Half precision is computed in float32, as torch does.
  bool upcast = original == DType::float16 || original == DType::bfloat16;
  if (upcast) x = convert(r, x, DType::float32, loc);
  const std::vector<Obj> shape = tensor(x).shape;
  int64_t d = dim_arg(r, a[1], shape.size(), loc);
  // Shifted by the largest value for stability; a dim of size 0 has none (and no elements).
  Obj shifted = x;
  if (shape.empty() || !empty_size(r, shape[static_cast<std::size_t>(d)], loc)) {
    Obj peak = r.call(Sym::ltorch_amax, {x, Obj::int_of(d), Obj::boolean_of(true)}, loc);
    shifted = r.call(Sym::ltorch_sub, {x, peak, Obj::none()}, loc);
  }
  Obj e = r.call(Sym::ltorch_exp, {shifted}, loc);
  Obj total = r.call(Sym::ltorch_sum, {e, Obj::int_of(d), Obj::boolean_of(true), Obj::none()}, loc);
  Obj out = log ? r.call(Sym::ltorch_sub,
                         {shifted, r.call(Sym::ltorch_log, {total}, loc), Obj::none()}, loc)
                : r.call(Sym::ltorch_true_divide, {e, total}, loc);
  return upcast ? convert(r, out, original, loc) : out;
}

Obj softmax(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  return softmax_like(r, a, false, loc);
}
Obj log_softmax(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  return softmax_like(r, a, true, loc);
}

// The trailing dims a normalisation covers, after checking its normalized_shape.
std::vector<int64_t> normalized_dims(Recorder &r, const Obj &a, const Obj &normalized_shape,
                                     const Obj &weight, const Obj &bias, const char *name,
                                     const Loc &loc) {
  std::vector<Obj> ns = size_arg(r, normalized_shape, loc, name);
  const std::vector<Obj> &shape = tensor(a).shape;
  if (ns.size() > shape.size())
    throw TraceError(loc, std::string(name) + ": normalized_shape " + shape_text(ns) +
                              " has more dims than the input " + describe(a));
  std::size_t first = shape.size() - ns.size();
  for (std::size_t i = 0; i < ns.size(); ++i)
    if (!r.same_size(shape[first + i], ns[i], loc))
      throw TraceError(loc, std::string(name) + ": the input's last dims " + describe(a) +
                                " do not match normalized_shape " + shape_text(ns));
  for (const Obj *p : {&weight, &bias}) {
    if (p->kind == Obj::Kind::None) continue;
    require_tensor(*p, "the weight and bias", name, loc);
    const std::vector<Obj> &ps = tensor(*p).shape;
    bool match = ps.size() == ns.size();
    for (std::size_t i = 0; match && i < ns.size(); ++i)
      match = r.same_size(ps[i], ns[i], loc);
    if (!match)
      throw TraceError(loc, std::string(name) + ": weight/bias " + describe(*p) +
                                " do not match normalized_shape " + shape_text(ns));
  }
  std::vector<int64_t> dims;
  for (std::size_t i = first; i < shape.size(); ++i)
    dims.push_back(static_cast<int64_t>(i));
  return dims;
}

Obj dims_tuple(const std::vector<int64_t> &dims) {
  return int_tuple(dims);
}

// ---- normalisations

// A normalisation's input: floating, in float32 for f16 and bf16 (the precision of its
// statistics, as ATen's kernels accumulate them).
Obj statistics_input(Recorder &r, const Obj &input, const char *op, const Loc &loc) {
  DType dtype = tensor(input).dtype;
  if (!is_floating(dtype)) throw TraceError(loc, std::string(op) + " needs a floating-point input");
  bool upcast = dtype != DType::float64 && dtype != DType::float32;
  return upcast ? convert(r, input, DType::float32, loc) : input;
}

// x less its mean over dims, and its biased variance there, both keeping the dims.
std::pair<Obj, Obj> centered_and_variance(Recorder &r, const Obj &x,
                                          const std::vector<int64_t> &dims, const Loc &loc) {
  Obj keep = Obj::boolean_of(true);
  Obj mean = r.call(Sym::ltorch_mean, {x, dims_tuple(dims), keep, Obj::none()}, loc);
  Obj centered = r.call(Sym::ltorch_sub, {x, mean, Obj::none()}, loc);
  Obj squared = r.call(Sym::ltorch_mul, {centered, centered}, loc);
  return {centered, r.call(Sym::ltorch_mean, {squared, dims_tuple(dims), keep, Obj::none()}, loc)};
}

// centered / sqrt(variance + eps).
Obj standardized(Recorder &r, const Obj &centered, const Obj &variance, const Obj &eps,
                 const Loc &loc) {
  Obj shifted = r.call(Sym::ltorch_add, {variance, eps, Obj::none()}, loc);
  return r.call(Sym::ltorch_mul, {centered, r.call(Sym::ltorch_rsqrt, {shifted}, loc)}, loc);
}

Obj layer_norm(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, normalized_shape, weight, bias, eps
  require_tensor(a[0], "the input", "layer_norm", loc);
  std::vector<int64_t> dims = normalized_dims(r, a[0], a[1], a[2], a[3], "layer_norm", loc);
  Obj x = statistics_input(r, a[0], "layer_norm", loc);
  auto [centered, variance] = centered_and_variance(r, x, dims, loc);
  Obj out = standardized(r, centered, variance, a[4], loc);
  if (a[2].kind != Obj::Kind::None) out = r.call(Sym::ltorch_mul, {out, a[2]}, loc);
  if (a[3].kind != Obj::Kind::None) out = r.call(Sym::ltorch_add, {out, a[3], Obj::none()}, loc);
  return convert(r, out, tensor(a[0]).dtype, loc);
}

Obj rms_norm(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, normalized_shape, weight, eps
  require_tensor(a[0], "the input", "rms_norm", loc);
  std::vector<int64_t> dims = normalized_dims(r, a[0], a[1], a[2], Obj::none(), "rms_norm", loc);
  Obj x = statistics_input(r, a[0], "rms_norm", loc);
  Obj eps = a[3];
  if (eps.kind == Obj::Kind::None)
    eps = Obj::float_of(tensor(x).dtype == DType::float64 ? DBL_EPSILON : 1.1920928955078125e-07);
  Obj squared = r.call(Sym::ltorch_mul, {x, x}, loc);
  Obj ms = r.call(Sym::ltorch_mean, {squared, dims_tuple(dims), Obj::boolean_of(true), Obj::none()},
                  loc);
  Obj out = standardized(r, x, ms, eps, loc);
  if (a[2].kind != Obj::Kind::None) out = r.call(Sym::ltorch_mul, {out, a[2]}, loc);
  return convert(r, out, tensor(a[0]).dtype, loc);
}

// The channels (dim 1) of group_norm's or batch_norm's input, which has at least two dims; a
// symbolic count is guarded.
int64_t channels_of(Recorder &r, const Obj &input, const char *op, const Loc &loc) {
  const std::vector<Obj> &shape = tensor(input).shape;
  if (shape.size() < 2)
    throw TraceError(loc, std::string(op) +
                              ": Expected at least 2 dimensions for input tensor but received " +
                              std::to_string(shape.size()));
  return r.concrete(shape[1], loc, std::string("the channels of ") + op + "'s input");
}

// A per-channel parameter of group_norm or batch_norm (weight, bias, the running statistics):
// 1-D of the channels' count.
void check_channel_parameter(const Obj &p, const char *name, const char *op, int64_t channels,
                             const Loc &loc) {
  if (p.kind == Obj::Kind::None) return;
  require_tensor(p, name, op, loc);
  const std::vector<Obj> &shape = tensor(p).shape;
  if (shape.size() != 1 || (!shape[0].is_proxy() && shape[0].integer != channels))
    throw TraceError(loc, std::string(op) + ": the " + name +
                              " must be a vector of one value per channel (" +
                              std::to_string(channels) + "), not of shape " + shape_text(shape));
}

// The channels of batch_norm's or instance_norm's input (a[0]), each of its per-channel
// arguments (running_mean, running_var, weight, bias: a[1] to a[4]) checked against them.
int64_t channels_with_statistics(Recorder &r, const std::vector<Obj> &a, const char *op,
                                 const Loc &loc) {
  int64_t channels = channels_of(r, a[0], op, loc);
  const char *parameters[] = {"running_mean", "running_var", "weight", "bias"};
  for (std::size_t i = 1; i < 5; ++i)
    check_channel_parameter(a[i], parameters[i - 1], op, channels, loc);
  return channels;
}

// A per-channel vector shaped to broadcast along dim 1 of a tensor of that rank: [C, 1, ...].
Obj per_channel(Recorder &r, const Obj &p, int64_t channels, std::size_t rank, const Loc &loc) {
  std::vector<Obj> shape = {Obj::int_of(channels)};
  for (std::size_t i = 2; i < rank; ++i)
    shape.push_back(Obj::int_of(1));
  return r.call(Sym::ltorch_reshape, {p, Obj::tuple(shape)}, loc);
}

// out * weight + bias per channel, each where given.
Obj channel_affine(Recorder &r, Obj out, const Obj &weight, const Obj &bias, int64_t channels,
                   const Loc &loc) {
  std::size_t rank = tensor(out).shape.size();
  if (weight.kind != Obj::Kind::None)
    out = r.call(Sym::ltorch_mul, {out, per_channel(r, weight, channels, rank, loc)}, loc);
  if (bias.kind != Obj::Kind::None)
    out =
        r.call(Sym::ltorch_add, {out, per_channel(r, bias, channels, rank, loc), Obj::none()}, loc);
  return out;
}

// group_norm as Thunder's ltorch writes it: the channels (dim 1) split into num_groups groups,
// each normalised over its channels and every later dim, then the per-channel weight and bias;
// statistics in float32 for f16 and bf16 inputs, as layer_norm's.
Obj group_norm(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, num_groups, weight, bias, eps
  require_tensor(a[0], "the input", "group_norm", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (!is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "group_norm needs a floating-point input");
  int64_t channels = channels_of(r, a[0], "group_norm", loc);
  int64_t groups = r.concrete(a[1], loc, "group_norm's num_groups");
  if (groups <= 0 || channels % groups != 0)
    throw TraceError(loc, "group_norm: Expected number of channels in input to be divisible by "
                          "num_groups, but got input of shape " +
                              shape_text(shape) + " and num_groups=" + std::to_string(groups));
  check_channel_parameter(a[2], "weight", "group_norm", channels, loc);
  check_channel_parameter(a[3], "bias", "group_norm", channels, loc);
  for (const Obj &d : shape)
    if (empty_size(r, d, loc))
      return r.call(Sym::ltorch_zeros_like, args_with_defaults(Sym::ltorch_zeros_like, {a[0]}),
                    loc);
  Obj x = statistics_input(r, a[0], "group_norm", loc);
  std::vector<Obj> grouped_shape = {shape[0], Obj::int_of(groups), Obj::int_of(channels / groups)};
  std::vector<int64_t> dims = {2};
  for (std::size_t i = 2; i < shape.size(); ++i) {
    grouped_shape.push_back(shape[i]);
    dims.push_back(static_cast<int64_t>(i + 1));
  }
  Obj grouped = r.call(Sym::ltorch_reshape, {x, Obj::tuple(grouped_shape)}, loc);
  auto [centered, variance] = centered_and_variance(r, grouped, dims, loc);
  Obj normalized = standardized(r, centered, variance, a[4], loc);
  Obj out = r.call(Sym::ltorch_reshape, {normalized, Obj::tuple(shape)}, loc);
  out = channel_affine(r, out, a[2], a[3], channels, loc);
  return convert(r, out, tensor(a[0]).dtype, loc);
}

// batch_norm in training mode normalises each channel by its own statistics over the batch and
// every later dim; torch refuses a single value per channel.
std::vector<int64_t> batch_dims(Recorder &r, const std::vector<Obj> &shape, const Loc &loc) {
  std::vector<int64_t> dims = {0};
  int64_t values = r.concrete(shape[0], loc, "the batch of batch_norm's input in training");
  for (std::size_t i = 2; i < shape.size(); ++i) {
    dims.push_back(static_cast<int64_t>(i));
    values *= r.concrete(shape[i], loc, "a dim of batch_norm's input in training");
  }
  if (values == 1)
    throw TraceError(loc, "ValueError: Expected more than 1 value per channel when training, got "
                          "input size " +
                              shape_text(shape));
  return dims;
}

// batch_norm as ATen computes it: (x - mean) / sqrt(var + eps) * weight + bias per channel (dim
// 1), with the running statistics in evaluation mode (how the tracer runs a module) and the
// batch's in training mode. Training mode with running statistics reaches here without them
// (batch_norm_update writes their update back); a call that still has them is refused.
Obj batch_norm(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, running_mean, running_var, weight, bias, training, momentum, eps
  require_tensor(a[0], "the input", "batch_norm", loc);
  if (!is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "batch_norm needs a floating-point input");
  int64_t channels = channels_with_statistics(r, a, "batch_norm", loc);
  if (a[5].kind != Obj::Kind::Bool && a[5].kind != Obj::Kind::Int)
    throw TraceError(loc, "batch_norm: training must be a bool, not " + describe(a[5]));
  if (a[5].is_proxy()) r.guard(a[5], loc);
  bool training = is_set(a[5]);
  bool running = a[1].kind != Obj::Kind::None || a[2].kind != Obj::Kind::None;
  if (training && running) // batch_norm_update takes them out of a call from Python
    throw TraceError(loc, "batch_norm in training mode with running statistics: their update is "
                          "written back by the torch function's call, not by this symbol");
  if (!training && (a[1].kind == Obj::Kind::None || a[2].kind == Obj::Kind::None))
    throw TraceError(loc, "ValueError: running_mean and running_var must be defined in "
                          "evaluation mode");
  Obj x = statistics_input(r, a[0], "batch_norm", loc);
  std::size_t rank = tensor(x).shape.size();
  Obj centered, variance;
  if (training) {
    std::tie(centered, variance) =
        centered_and_variance(r, x, batch_dims(r, tensor(x).shape, loc), loc);
  } else {
    Obj mean = per_channel(r, a[1], channels, rank, loc);
    centered = r.call(Sym::ltorch_sub, {x, mean, Obj::none()}, loc);
    variance = per_channel(r, a[2], channels, rank, loc);
  }
  Obj out =
      channel_affine(r, standardized(r, centered, variance, a[7], loc), a[3], a[4], channels, loc);
  return convert(r, out, tensor(a[0]).dtype, loc);
}

// batch_norm in training (instance_norm with use_input_stats) with running statistics: PyTorch
// updates them in place to momentum * the batch's statistic + (1 - momentum) * the running one,
// the variance unbiased (instance_norm: its samples' statistics averaged). The new values are
// computed from the arguments as given and written back to them; the normalisation itself then
// uses the batch's statistics, without the running ones. Arguments the op refuses are left for
// it to say why.
std::vector<std::pair<Obj, Obj>> running_statistics_update(std::vector<Obj> &a,
                                                           const SymbolCall &call, bool per_sample,
                                                           const char *op, const Loc &loc) {
  // input, running_mean, running_var, weight, bias, training (use_input_stats), momentum, eps
  bool running = !a[1].is_none() || !a[2].is_none();
  if (!is_set(a[5]) || !running || a[0].kind != Obj::Kind::Tensor) return {};
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (shape.size() < 2) return {};
  for (std::size_t i : {1, 2})
    if (!a[i].is_none() && (a[i].kind != Obj::Kind::Tensor || tensor(a[i]).shape.size() != 1 ||
                            tensor(a[i]).shape[0].integer != shape[1].integer))
      return {};
  if (!a[6].is_number())
    throw TraceError(loc, std::string("TypeError: ") + op +
                              "(): argument 'momentum' must be float, not " + type_name(a[6]));
  double momentum = a[6].as_double();
  std::vector<Obj> dims;
  for (std::size_t d = per_sample ? 2 : 0; d < shape.size(); ++d)
    if (d != 1) dims.push_back(Obj::int_of(static_cast<int64_t>(d)));
  auto statistic = [&](Sym reduction, const Obj &running_value) {
    Obj x = a[0];
    if (tensor(x).dtype != tensor(running_value).dtype)
      x = call(Sym::ltorch_to, {x}, {{"dtype", Obj::dtype_of(tensor(running_value).dtype)}});
    std::vector<Obj> given = {x, Obj::tuple(dims)};
    if (reduction == Sym::ltorch_var) given.push_back(Obj::boolean_of(true)); // unbiased
    Obj s = call(reduction, std::move(given), {});
    return per_sample ? call(Sym::ltorch_mean, {s, Obj::int_of(0)}, {}) : s;
  };
  std::vector<std::pair<Obj, Obj>> written;
  for (auto [i, reduction] :
       {std::pair{std::size_t{1}, Sym::ltorch_mean}, std::pair{std::size_t{2}, Sym::ltorch_var}}) {
    if (a[i].is_none()) continue;
    Obj kept = call(Sym::ltorch_mul, {a[i], Obj::float_of(1 - momentum)}, {});
    Obj added = call(Sym::ltorch_mul, {statistic(reduction, a[i]), Obj::float_of(momentum)}, {});
    // The running statistic first: the sum keeps its shape's symbols (the prologue unpacks the
    // argument's shape from them).
    written.emplace_back(a[i], call(Sym::ltorch_add, {kept, added}, {}));
    a[i] = Obj::none();
  }
  return written;
}

std::vector<std::pair<Obj, Obj>> batch_norm_update(std::vector<Obj> &a, const SymbolCall &call,
                                                   const Loc &loc) {
  return running_statistics_update(a, call, false, "batch_norm", loc);
}

std::vector<std::pair<Obj, Obj>> instance_norm_update(std::vector<Obj> &a, const SymbolCall &call,
                                                      const Loc &loc) {
  return running_statistics_update(a, call, true, "instance_norm", loc);
}

// instance_norm: each channel of each sample normalised over its spatial dims (use_input_stats),
// or by the running statistics; then the per-channel weight and bias. With use_input_stats,
// running statistics reach here taken out (instance_norm_update writes their update back).
Obj instance_norm(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
  require_tensor(a[0], "the input", "instance_norm", loc);
  if (!is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "instance_norm needs a floating-point input");
  int64_t channels = channels_with_statistics(r, a, "instance_norm", loc);
  if (a[5].is_proxy()) r.guard(a[5], loc);
  bool use_input = is_set(a[5]);
  bool running = a[1].kind != Obj::Kind::None || a[2].kind != Obj::Kind::None;
  if (use_input && running) // instance_norm_update takes them out of a call from Python
    throw TraceError(loc, "instance_norm with use_input_stats and running statistics: their "
                          "update is written back by the torch function's call, not by this "
                          "symbol");
  if (!use_input && (a[1].kind == Obj::Kind::None || a[2].kind == Obj::Kind::None))
    throw TraceError(loc, "Expected running_mean and running_var to be defined when "
                          "use_input_stats is false");
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (empty_size(r, shape[0], loc))
    throw TraceError(loc, "instance_norm of an empty batch: PyTorch fails on it with a weight "
                          "(select(): index 0 out of range) and writes NaN into the running "
                          "statistics; the tracer refuses it");
  std::vector<int64_t> dims;
  int64_t spatial = 1;
  for (std::size_t i = 2; i < shape.size(); ++i) {
    dims.push_back(static_cast<int64_t>(i));
    spatial *= r.concrete(shape[i], loc, "a spatial size of instance_norm's input");
  }
  if (use_input && spatial <= 1)
    throw TraceError(loc, "ValueError: Expected more than 1 spatial element when training, got "
                          "input size " +
                              shape_text(shape));
  Obj x = statistics_input(r, a[0], "instance_norm", loc);
  Obj centered, variance;
  if (use_input) {
    std::tie(centered, variance) = centered_and_variance(r, x, dims, loc);
  } else {
    std::size_t rank = shape.size();
    centered =
        r.call(Sym::ltorch_sub, {x, per_channel(r, a[1], channels, rank, loc), Obj::none()}, loc);
    variance = per_channel(r, a[2], channels, rank, loc);
  }
  Obj out =
      channel_affine(r, standardized(r, centered, variance, a[7], loc), a[3], a[4], channels, loc);
  return convert(r, out, tensor(a[0]).dtype, loc);
}

// ---- VJP rules

// A reduction's result (or its cotangent) broadcast back over the reduced dims of `a`.
Obj unreduce(Recorder &r, const Obj &reduced, const Obj &a, const std::vector<int64_t> &dims,
             const Loc &loc) {
  std::vector<int64_t> kept;
  for (std::size_t i = 0; i < tensor(a).shape.size(); ++i)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end())
      kept.push_back(static_cast<int64_t>(i));
  return grad::broadcast_in_dim(r, reduced, tensor(a).shape, kept, loc);
}

std::vector<Obj> sum_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  std::vector<int64_t> dims = dims_of(a[1], tensor(a[0]).shape.size(), loc);
  return {unreduce(r, g, a[0], dims, loc), Obj::none()};
}

// amax and amin: the cotangent goes to the elements equal to the result, shared evenly among
// ties (torch's rule).
std::vector<Obj> extremum_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                              const Loc &loc) {
  std::vector<int64_t> dims = dims_of(a[1], tensor(a[0]).shape.size(), loc);
  Obj hit = r.prim(Sym::prims_eq, {a[0], unreduce(r, out, a[0], dims, loc)}, loc);
  Obj mask = grad::as_dtype_of(r, hit, a[0], loc);
  Obj ties = grad::sum(r, mask, dims, loc);
  Obj share = unreduce(r, grad::div(r, g, ties, loc), a[0], dims, loc);
  return {grad::mul(r, share, mask, loc), Obj::none()};
}

std::vector<Obj> prod_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                          const Loc &loc) {
  // prod / a: the product of the others (the inputs must be nonzero; torch's rule for zeros
  // is not implemented)
  std::vector<int64_t> dims = dims_of(a[1], tensor(a[0]).shape.size(), loc);
  Obj scaled = unreduce(r, grad::mul(r, g, out, loc), a[0], dims, loc);
  return {grad::div(r, scaled, a[0], loc), Obj::none()};
}

std::vector<Obj> var_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  // d var / d a = 2 (a - mean) / (N - correction)
  std::vector<int64_t> dims = dims_of(a[1], tensor(a[0]).shape.size(), loc);
  Obj n = count(r, tensor(a[0]).shape, dims, loc);
  Obj mean = grad::div(r, grad::sum(r, a[0], dims, loc), n, loc);
  Obj centered = grad::sub(r, a[0], unreduce(r, mean, a[0], dims, loc), loc);
  Obj denominator = r.num(NumOp::sub, n, a[2], loc);
  Obj scale = grad::div(r, grad::mul(r, g, Obj::float_of(2), loc), denominator, loc);
  return {grad::mul(r, centered, unreduce(r, scale, a[0], dims, loc), loc), Obj::none(),
          Obj::none()};
}

} // namespace

void define_reduction_ops(std::vector<OpSpec> &out) {
  out.push_back(prim_spec(Sym::prims_sum, "a, dims, /", reduce_meta, sum_vjp));
  out.push_back(prim_spec(Sym::prims_amax, "a, dims, /", reduce_meta, extremum_vjp));
  out.push_back(prim_spec(Sym::prims_amin, "a, dims, /", reduce_meta, extremum_vjp));
  out.push_back(prim_spec(Sym::prims_prod, "a, dims, /", reduce_meta, prod_vjp));
  out.push_back(prim_spec(Sym::prims_var, "a, /, dims, *, correction", var_meta, var_vjp));
  out.push_back(prim_spec(Sym::prims_argmax, "a, dim, /", arg_meta, no_gradient));
  out.push_back(prim_spec(Sym::prims_argmin, "a, dim, /", arg_meta, no_gradient));

  add_ltorch(out, Sym::ltorch_sum, "input, /, dim=None, keepdim=False, *, dtype=None",
             {"torch.sum", "Tensor.sum"}, sum);
  add_ltorch(out, Sym::ltorch_mean, "input, /, dim=None, keepdim=False, *, dtype=None",
             {"torch.mean", "Tensor.mean"}, mean);
  add_ltorch(out, Sym::ltorch_amax, "input, /, dim=(), keepdim=False",
             {"torch.amax", "Tensor.amax"}, extremum<Sym::prims_amax>);
  add_ltorch(out, Sym::ltorch_amin, "input, /, dim=(), keepdim=False",
             {"torch.amin", "Tensor.amin"}, extremum<Sym::prims_amin>);
  add_ltorch(out, Sym::ltorch_prod, "input, /, dim=None, keepdim=False, *, dtype=None",
             {"torch.prod", "Tensor.prod"}, prod);
  add_ltorch(out, Sym::ltorch_var,
             "input, /, dim=None, unbiased=None, keepdim=False, *, correction=None",
             {"torch.var", "Tensor.var"}, var);
  add_ltorch(out, Sym::ltorch_std,
             "input, /, dim=None, unbiased=None, keepdim=False, *, correction=None",
             {"torch.std", "Tensor.std"}, std_dev);
  add_ltorch(out, Sym::ltorch_logsumexp, "input, /, dim, keepdim=False",
             {"torch.logsumexp", "Tensor.logsumexp"}, logsumexp);
  torch_only(out, Sym::ltorch_var, "unbiased");
  torch_only(out, Sym::ltorch_std, "unbiased");
  for (OpSpec &spec : out)
    if (spec.sym == Sym::ltorch_var || spec.sym == Sym::ltorch_std) spec.normalize = var_as_thunder;
  add_ltorch(out, Sym::ltorch_argmax, "input, /, dim=None, keepdim=False",
             {"torch.argmax", "Tensor.argmax"}, arg_extremum<Sym::prims_argmax>);
  add_ltorch(out, Sym::ltorch_argmin, "input, /, dim=None, keepdim=False",
             {"torch.argmin", "Tensor.argmin"}, arg_extremum<Sym::prims_argmin>);
  add_ltorch(out, Sym::ltorch_softmax, "input, /, dim=None, *, dtype=None",
             {"torch.softmax", "Tensor.softmax", "torch.nn.functional.softmax"}, softmax);
  add_ltorch(out, Sym::ltorch_log_softmax, "input, /, dim=None, *, dtype=None",
             {"torch.log_softmax", "Tensor.log_softmax", "torch.nn.functional.log_softmax"},
             log_softmax);
  add_ltorch(out, Sym::ltorch_layer_norm,
             "input, /, normalized_shape, weight=None, bias=None, eps=1e-05",
             {"torch.nn.functional.layer_norm", "torch.layer_norm"}, layer_norm);
  add_ltorch(out, Sym::ltorch_rms_norm, "input, /, normalized_shape, weight=None, eps=None",
             {"torch.nn.functional.rms_norm", "torch.rms_norm"}, rms_norm);
  add_ltorch(out, Sym::ltorch_batch_norm,
             "input, running_mean=None, running_var=None, weight=None, bias=None, training=False, "
             "momentum=0.1, eps=1e-05",
             {"torch.nn.functional.batch_norm"}, batch_norm);
  out.back().write_back = batch_norm_update;
  add_ltorch(out, Sym::ltorch_instance_norm,
             "a, /, running_mean=None, running_var=None, weight=None, bias=None, "
             "use_input_stats=True, momentum=0.1, eps=1e-05",
             {"torch.nn.functional.instance_norm"}, instance_norm);
  out.back().write_back = instance_norm_update;
  add_ltorch(out, Sym::ltorch_group_norm, "input, /, num_groups, weight=None, bias=None, eps=1e-05",
             {"torch.nn.functional.group_norm", "torch.group_norm"}, group_norm);
}

} // namespace tracelint::tracer::ops
