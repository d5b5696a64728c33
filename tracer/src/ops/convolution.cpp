// Convolutions, as Thunder writes them: one prim, prims.convolution (its shape rule and its VJP,
// which is two more convolutions), and the torch functions conv1d/2d/3d and convolution over it.
// conv_transpose1d/2d/3d, which Thunder 0.2.6 lacks, are the convolution the VJP uses for the
// input's gradient: the input spread by the stride (prims.pad's interior padding), the weight's
// channels regrouped and its kernel flipped.
#include "common.hpp"
#include "gradients.hpp"

#include <algorithm>
#include <array>

namespace tracelint::tracer::ops {

namespace {

std::vector<int64_t> concrete_sizes(Recorder &r, const std::vector<Obj> &shape, std::size_t from,
                                    const Loc &loc) {
  std::vector<int64_t> out;
  for (std::size_t i = from; i < shape.size(); ++i)
    out.push_back(r.concrete(shape[i], loc, "a convolution's size"));
  return out;
}

// A window parameter (stride, padding, dilation, output_padding) as one value per spatial dim:
// an int, or a sequence of one int or of `rank` ints, each at least `least`.
std::vector<int64_t> per_spatial_dim(Recorder &r, const Obj &given, std::size_t rank,
                                     const std::string &what, int64_t least, const Loc &loc) {
  std::vector<Obj> values = given.is_sequence() ? items(given) : std::vector<Obj>{given};
  if (values.size() != 1 && values.size() != rank)
    throw TraceError(loc, "expected " + what + " to be a single integer value or a list of " +
                              std::to_string(rank) + " values to match the convolution " +
                              "dimensions, but got " + what + "=" + describe(given));
  std::vector<int64_t> out;
  for (const Obj &v : values) {
    if (v.kind != Obj::Kind::Int)
      throw TraceError(loc, what + " must hold integers, not " + describe(v));
    int64_t n = r.concrete(v, loc, what);
    if (n < least)
      throw TraceError(loc, (least == 0 ? "negative " + what + " is not supported"
                                        : "non-positive " + what + " is not supported") +
                                " (got " + describe(given) + ")");
    out.push_back(n);
  }
  if (out.size() == 1) out.assign(rank, out[0]);
  return out;
}

// What prims.convolution reads of its arguments, checked as Thunder's meta function and
// PyTorch's convolution check them.
struct Geometry {
  std::size_t rank = 0; // spatial dims
  Obj batch;
  int64_t in_channels = 0, out_channels = 0, groups = 1;
  std::vector<int64_t> spatial, kernel, stride, padding, dilation, output_padding;

  int64_t reach(std::size_t d, int64_t outputs) const { // one past the last input a window reads
    return (outputs - 1) * stride[d] + dilation[d] * (kernel[d] - 1) + 1;
  }
};

void check_operands(const Obj &x, const Obj &w, const Obj &bias, const Loc &loc) {
  require_tensor(x, "the input", "convolution", loc);
  require_tensor(w, "the weight", "convolution", loc);
  if (!is_floating(tensor(x).dtype))
    throw TraceError(loc, "convolution needs a floating-point input, not " +
                              std::string(dtype_info(tensor(x).dtype).torch_name));
  std::vector<const Obj *> operands = {&w};
  if (!bias.is_none()) {
    require_tensor(bias, "the bias", "convolution", loc);
    operands.push_back(&bias);
  }
  for (const Obj *o : operands) {
    if (tensor(*o).dtype != tensor(x).dtype)
      throw TraceError(loc, "convolution: Input type (" +
                                std::string(dtype_info(tensor(x).dtype).torch_name) +
                                ") and weight or bias type (" +
                                dtype_info(tensor(*o).dtype).torch_name + ") should be the same");
    if (tensor(*o).device != tensor(x).device)
      throw TraceError(loc, "convolution: the input is on " + tensor(x).device +
                                " and the weight or bias on " + tensor(*o).device);
  }
}

Geometry geometry(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, weight, bias, stride, padding, dilation, transposed, output_padding, groups
  check_operands(a[0], a[1], a[2], loc);
  const std::vector<Obj> &xs = tensor(a[0]).shape, &ws = tensor(a[1]).shape;
  if (ws.size() < 3 || ws.size() > 5 || xs.size() != ws.size())
    throw TraceError(loc, "convolution: expected a " + std::to_string(ws.size()) +
                              "-D input for a weight of " + shape_text(ws) +
                              " (batch, channels, then 1 to 3 spatial dims), but got " +
                              shape_text(xs));
  Geometry g;
  g.rank = ws.size() - 2;
  g.batch = xs[0];
  g.groups = r.concrete(a[8], loc, "groups");
  if (g.groups <= 0) throw TraceError(loc, "non-positive groups is not supported");
  g.in_channels = r.concrete(xs[1], loc, "a convolution's channels");
  g.out_channels = r.concrete(ws[0], loc, "a convolution's channels");
  int64_t per_group = r.concrete(ws[1], loc, "a convolution's channels");
  g.spatial = concrete_sizes(r, xs, 2, loc);
  g.kernel = concrete_sizes(r, ws, 2, loc);
  g.stride = per_spatial_dim(r, a[3], g.rank, "stride", 1, loc);
  g.padding = per_spatial_dim(r, a[4], g.rank, "padding", 0, loc);
  g.dilation = per_spatial_dim(r, a[5], g.rank, "dilation", 1, loc);
  g.output_padding = per_spatial_dim(r, a[7], g.rank, "output_padding", 0, loc);
  if (per_group * g.groups != g.in_channels || g.out_channels % g.groups != 0)
    throw TraceError(loc, "Given groups=" + std::to_string(g.groups) + ", weight of size " +
                              shape_text(ws) + ", expected input" + shape_text(xs) + " to have " +
                              std::to_string(per_group * g.groups) + " channels, but got " +
                              std::to_string(g.in_channels) + " channels instead");
  if (!a[2].is_none() &&
      (tensor(a[2]).shape.size() != 1 ||
       r.concrete(tensor(a[2]).shape[0], loc, "the bias's size") != g.out_channels))
    throw TraceError(loc, "Given weight of size " + shape_text(ws) +
                              ", expected bias to be 1-dimensional with " +
                              std::to_string(g.out_channels) + " elements, but got bias of size " +
                              shape_text(tensor(a[2]).shape) + " instead");
  for (std::size_t d = 0; d < g.rank; ++d) {
    if (g.spatial[d] == 0 || g.kernel[d] == 0)
      throw TraceError(loc, "convolution: the input's and the kernel's spatial sizes must not be "
                            "0 (input " +
                                shape_text(xs) + ", weight " + shape_text(ws) + ")");
    if (g.spatial[d] + 2 * g.padding[d] < g.dilation[d] * (g.kernel[d] - 1) + 1)
      throw TraceError(loc, "Calculated padded input size per channel: (" +
                                std::to_string(g.spatial[d] + 2 * g.padding[d]) +
                                "). Kernel size: (" +
                                std::to_string(g.dilation[d] * (g.kernel[d] - 1) + 1) +
                                "). Kernel size can't be greater than actual input size");
  }
  return g;
}

Obj convolution_meta(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (is_set(a[6]))
    throw TraceError(loc, "prims.convolution: transposed=True is not supported (as Thunder's "
                          "prim): ltorch.convolution decomposes a transposed convolution");
  Geometry g = geometry(r, a, loc);
  std::vector<Obj> out = {g.batch, Obj::int_of(g.in_channels > 0 ? g.out_channels : 0)};
  for (std::size_t d = 0; d < g.rank; ++d) {
    int64_t dilated_kernel = g.dilation[d] * (g.kernel[d] - 1) + 1;
    out.push_back(Obj::int_of((g.spatial[d] + 2 * g.padding[d] - dilated_kernel) / g.stride[d] + 1 +
                              g.output_padding[d]));
  }
  return like(a[0], out);
}

// ---- shared by the VJP and the transposed convolution

Obj window_list(const std::vector<int64_t> &v) {
  std::vector<Obj> out;
  for (int64_t x : v)
    out.push_back(Obj::int_of(x));
  return Obj::list(std::move(out));
}

// The spatial dims (2, 3, ...) of t padded with zeros or cropped (pad_or_crop).
Obj pad_spatial(Recorder &r, const Obj &t, const std::vector<PadWidths> &spatial, const Loc &loc) {
  std::vector<PadWidths> config = {PadWidths{0, 0, 0}, PadWidths{0, 0, 0}};
  config.insert(config.end(), spatial.begin(), spatial.end());
  return pad_or_crop(r, t, config, Obj::float_of(0.0), loc);
}

std::vector<int64_t> channels_first_swap(std::size_t rank) {
  std::vector<int64_t> permutation = {1, 0};
  for (std::size_t d = 2; d < rank; ++d)
    permutation.push_back(static_cast<int64_t>(d));
  return permutation;
}

// A weight [A, B, *kernel] with A = groups * a as the weight of the convolution that runs it
// backwards, [groups * B, a, *kernel] with the kernel flipped: each group's two channel dims
// swapped (Thunder's transpose_and_flip_weight).
Obj regroup_and_flip(Recorder &r, const Obj &w, int64_t groups, const Loc &loc) {
  const std::vector<Obj> &shape = tensor(w).shape;
  std::vector<Obj> kernel(shape.begin() + 2, shape.end());
  int64_t a = r.concrete(shape[0], loc, "a channel count") / groups;
  int64_t b = r.concrete(shape[1], loc, "a channel count");
  std::vector<Obj> split = {Obj::int_of(groups), Obj::int_of(a), Obj::int_of(b)};
  split.insert(split.end(), kernel.begin(), kernel.end());
  std::vector<int64_t> swap = {0, 2, 1};
  for (std::size_t d = 0; d < kernel.size(); ++d)
    swap.push_back(static_cast<int64_t>(d + 3));
  std::vector<Obj> merged = {Obj::int_of(groups * b), Obj::int_of(a)};
  merged.insert(merged.end(), kernel.begin(), kernel.end());
  Obj t = grad::transpose(r, grad::reshape(r, w, split, loc), swap, loc);
  t = grad::reshape(r, t, merged, loc);
  std::vector<Obj> spatial;
  for (std::size_t d = 2; d < shape.size(); ++d)
    spatial.push_back(Obj::int_of(static_cast<int64_t>(d)));
  return r.prim(Sym::prims_flip, {t, Obj::list(std::move(spatial))}, loc);
}

Obj convolve(Recorder &r, const Obj &x, const Obj &w, const Obj &bias,
             const std::vector<int64_t> &stride, const std::vector<int64_t> &padding,
             const std::vector<int64_t> &dilation, int64_t groups, const Loc &loc) {
  std::vector<int64_t> no_output_padding(stride.size(), 0);
  return r.prim(Sym::prims_convolution,
                {x, w, bias, window_list(stride), window_list(padding), window_list(dilation),
                 Obj::boolean_of(false), window_list(no_output_padding), Obj::int_of(groups)},
                loc);
}

// ---- VJP (Thunder's convolution_backward)

Obj input_gradient(Recorder &r, const Geometry &g, const Obj &weight, const Obj &cotangent,
                   const Loc &loc) {
  // The cotangent spread by the stride, convolved with the regrouped, flipped weight over a
  // full-kernel padding, then the forward's padding cut off again.
  std::vector<PadWidths> spread, cut;
  std::vector<int64_t> full(g.rank), ones(g.rank, 1);
  for (std::size_t d = 0; d < g.rank; ++d) {
    spread.push_back({0, 0, g.stride[d] - 1});
    full[d] = g.dilation[d] * (g.kernel[d] - 1);
  }
  Obj spread_g = pad_spatial(r, cotangent, spread, loc);
  Obj gi = convolve(r, spread_g, regroup_and_flip(r, weight, g.groups, loc), Obj::none(), ones,
                    full, g.dilation, g.groups, loc);
  const std::vector<Obj> &out_shape = tensor(cotangent).shape;
  for (std::size_t d = 0; d < g.rank; ++d) {
    int64_t reached = g.reach(d, r.concrete(out_shape[d + 2], loc, "a convolution's size"));
    cut.push_back({-g.padding[d], g.spatial[d] + g.padding[d] - reached, 0});
  }
  return pad_spatial(r, gi, cut, loc);
}

Obj weight_gradient(Recorder &r, const Geometry &g, const Obj &input, const Obj &cotangent,
                    const Loc &loc) {
  // The input, padded to what the windows read, with the groups moved into the batch,
  // convolved with the cotangent as the kernel: stride and dilation trade places.
  std::vector<PadWidths> config;
  const std::vector<Obj> &out_shape = tensor(cotangent).shape;
  for (std::size_t d = 0; d < g.rank; ++d) {
    int64_t reached = g.reach(d, r.concrete(out_shape[d + 2], loc, "a convolution's size"));
    config.push_back({g.padding[d], reached - (g.spatial[d] + g.padding[d]), 0});
  }
  Obj t = pad_spatial(r, input, config, loc);
  std::vector<Obj> spatial(tensor(t).shape.begin() + 2, tensor(t).shape.end());
  int64_t per_group = g.in_channels / g.groups;
  std::vector<int64_t> to_channels_first = channels_first_swap(g.rank + 2);
  t = grad::transpose(r, t, to_channels_first, loc); // [in, batch, ...]
  std::vector<Obj> split = {Obj::int_of(g.groups), Obj::int_of(per_group), g.batch};
  split.insert(split.end(), spatial.begin(), spatial.end());
  t = grad::reshape(r, t, split, loc);
  std::vector<int64_t> groups_inside = channels_first_swap(g.rank + 3);
  t = grad::transpose(r, t, groups_inside, loc); // [per_group, groups, batch, ...]
  std::vector<Obj> merged = {Obj::int_of(per_group),
                             r.num(NumOp::mul, Obj::int_of(g.groups), g.batch, loc)};
  merged.insert(merged.end(), spatial.begin(), spatial.end());
  t = grad::reshape(r, t, merged, loc);
  Obj kernel = grad::transpose(r, cotangent, to_channels_first, loc); // [out, batch, ...]
  std::vector<int64_t> no_padding(g.rank, 0);
  Obj gw = convolve(r, t, kernel, Obj::none(), g.dilation, no_padding, g.stride, g.groups, loc);
  return grad::transpose(r, gw, to_channels_first, loc);
}

std::vector<Obj> convolution_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out,
                                 const Obj &cotangent, const Loc &loc) {
  Geometry g = geometry(r, a, loc);
  std::vector<Obj> grads(a.size(), Obj::none());
  bool empty = false;
  for (const Obj &s : tensor(out).shape)
    empty = empty || empty_size(r, s, loc);
  if (empty) { // nothing flowed forward: zeros, as Thunder's rule short-circuits
    for (std::size_t i = 0; i < 3; ++i)
      if (is_tensor(a[i])) grads[i] = grad::if_differentiable(a[i], grad::zeros_like(r, a[i], loc));
    return grads;
  }
  grads[0] = grad::if_differentiable(a[0], input_gradient(r, g, a[1], cotangent, loc));
  grads[1] = grad::if_differentiable(a[1], weight_gradient(r, g, a[0], cotangent, loc));
  if (is_tensor(a[2])) {
    std::vector<int64_t> dims = {0};
    for (std::size_t d = 0; d < g.rank; ++d)
      dims.push_back(static_cast<int64_t>(d + 2));
    grads[2] = grad::if_differentiable(a[2], grad::sum(r, cotangent, dims, loc));
  }
  return grads;
}

// ---- the torch functions

// The transposed convolution of x (batch, channels, spatial) by w [in, out / groups, *kernel]:
// x spread by the stride and padded by what the kernel overhangs (less `padding`, plus
// `output_padding` at the end), convolved with the regrouped, flipped weight.
Obj transposed_convolution(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, weight, bias, stride, padding, dilation, transposed, output_padding, groups
  check_operands(a[0], a[1], a[2], loc);
  const std::vector<Obj> &ws = tensor(a[1]).shape;
  std::size_t rank = ws.size() >= 3 ? ws.size() - 2 : 1;
  if (ws.size() < 3 || tensor(a[0]).shape.size() != ws.size())
    throw TraceError(loc, "conv_transpose: expected a " + std::to_string(ws.size()) +
                              "-D input for a weight of " + shape_text(ws) + ", but got " +
                              shape_text(tensor(a[0]).shape));
  int64_t groups = r.concrete(a[8], loc, "groups");
  if (groups <= 0) throw TraceError(loc, "non-positive groups is not supported");
  std::vector<int64_t> stride = per_spatial_dim(r, a[3], rank, "stride", 1, loc);
  std::vector<int64_t> padding = per_spatial_dim(r, a[4], rank, "padding", 0, loc);
  std::vector<int64_t> dilation = per_spatial_dim(r, a[5], rank, "dilation", 1, loc);
  std::vector<int64_t> extra = per_spatial_dim(r, a[7], rank, "output_padding", 0, loc);
  int64_t in_channels = r.concrete(tensor(a[0]).shape[1], loc, "a convolution's channels");
  int64_t weight_in = r.concrete(ws[0], loc, "a convolution's channels");
  if (weight_in != in_channels || in_channels % groups != 0)
    throw TraceError(loc, "Given transposed=1, weight of size " + shape_text(ws) +
                              ", expected input" + shape_text(tensor(a[0]).shape) + " to have " +
                              std::to_string(weight_in) +
                              " channels, divisible by groups=" + std::to_string(groups));
  std::vector<int64_t> kernel = concrete_sizes(r, ws, 2, loc);
  std::vector<PadWidths> config;
  for (std::size_t d = 0; d < rank; ++d) {
    if (extra[d] >= stride[d] && extra[d] >= dilation[d])
      throw TraceError(loc, "output padding must be smaller than either stride or dilation, but "
                            "got output_padding=" +
                                describe(a[7]) + ", stride=" + describe(a[3]) +
                                ", dilation=" + describe(a[5]));
    int64_t overhang = dilation[d] * (kernel[d] - 1) - padding[d];
    config.push_back({overhang, overhang + extra[d], stride[d] - 1});
  }
  Obj spread = pad_spatial(r, a[0], config, loc);
  std::vector<int64_t> ones(rank, 1), zeros(rank, 0);
  return convolve(r, spread, regroup_and_flip(r, a[1], groups, loc), a[2], ones, zeros, dilation,
                  groups, loc);
}

Obj convolution(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (is_set(a[6])) return transposed_convolution(r, a, loc);
  return r.prim(Sym::prims_convolution, a, loc);
}

// conv1d/2d/3d's and conv_transpose's input may lack the batch dim: one is added and taken off.
template <typename Body>
Obj batched(Recorder &r, const Obj &x, std::size_t rank, const char *op, const Loc &loc,
            Body body) {
  require_tensor(x, "the input", op, loc);
  std::size_t given = tensor(x).shape.size();
  if (given != rank + 1 && given != rank + 2)
    throw TraceError(loc, std::string("Expected ") + std::to_string(rank + 1) +
                              "D (unbatched) or " + std::to_string(rank + 2) +
                              "D (batched) input to " + op +
                              ", but got input of size: " + shape_text(tensor(x).shape));
  if (given == rank + 2) return body(x);
  Obj out = body(r.call(Sym::ltorch_unsqueeze, {x, Obj::int_of(0)}, loc));
  return r.call(Sym::ltorch_squeeze, {out, Obj::int_of(0)}, loc);
}

// padding='same' pads the input itself (low and high may differ), as Thunder's _conv_helper.
Obj same_padded(Recorder &r, const Obj &x, const Obj &w, const std::vector<int64_t> &stride,
                const std::vector<int64_t> &dilation, const Loc &loc) {
  if (std::any_of(stride.begin(), stride.end(), [](int64_t s) { return s != 1; }))
    throw TraceError(loc, "padding='same' is not supported for strided convolutions");
  std::vector<int64_t> kernel = concrete_sizes(r, tensor(w).shape, 2, loc);
  std::vector<PadWidths> config;
  for (std::size_t d = 0; d < kernel.size(); ++d) {
    int64_t total = dilation[d] * (kernel[d] - 1);
    config.push_back({total / 2, total - total / 2, 0});
  }
  return pad_spatial(r, x, config, loc);
}

template <std::size_t Rank> Obj conv(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, weight, bias, stride, padding, dilation, groups
  static const std::string op = "conv" + std::to_string(Rank) + "d";
  return batched(r, a[0], Rank, op.c_str(), loc, [&](const Obj &x) {
    Obj padding = a[4], input = x;
    if (a[4].kind == Obj::Kind::Str) {
      const std::string &mode = a[4].as<StrObj>().value;
      if (mode != "same" && mode != "valid")
        throw TraceError(loc, "Invalid padding string '" + mode + "'; expected 'same' or 'valid'");
      require_tensor(a[1], "the weight", op.c_str(), loc);
      if (mode == "same")
        input = same_padded(r, x, a[1], per_spatial_dim(r, a[3], Rank, "stride", 1, loc),
                            per_spatial_dim(r, a[5], Rank, "dilation", 1, loc), loc);
      padding = Obj::int_of(0);
    }
    auto sequence = [](const Obj &o) { return o.is_sequence() ? o : Obj::tuple({o}); };
    return r.prim(Sym::prims_convolution,
                  {input, a[1], a[2], sequence(a[3]), sequence(padding), sequence(a[5]),
                   Obj::boolean_of(false), int_tuple(std::vector<int64_t>(Rank, 0)), a[6]},
                  loc);
  });
}

template <std::size_t Rank>
Obj conv_transpose(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, weight, bias, stride, padding, output_padding, groups, dilation
  static const std::string op = "conv_transpose" + std::to_string(Rank) + "d";
  return batched(r, a[0], Rank, op.c_str(), loc, [&](const Obj &x) {
    return transposed_convolution(
        r, {x, a[1], a[2], a[3], a[4], a[7], Obj::boolean_of(true), a[5], a[6]}, loc);
  });
}

} // namespace

void define_convolution_ops(std::vector<OpSpec> &out) {
  out.push_back(prim_spec(Sym::prims_convolution,
                          "a, /, weight, bias, stride, padding, dilation, transposed, "
                          "output_padding, groups",
                          convolution_meta, convolution_vjp));
  add_ltorch(out, Sym::ltorch_convolution,
             "a, weight, bias, stride, padding, dilation, transposed, output_padding, groups",
             {"torch.convolution"}, convolution);
  const char *conv_signature = "a, /, weight, bias=None, stride=1, padding=0, dilation=1, groups=1";
  add_ltorch(out, Sym::ltorch_conv1d, conv_signature,
             {"torch.conv1d", "torch.nn.functional.conv1d"}, conv<1>);
  add_ltorch(out, Sym::ltorch_conv2d, conv_signature,
             {"torch.conv2d", "torch.nn.functional.conv2d"}, conv<2>);
  add_ltorch(out, Sym::ltorch_conv3d, conv_signature,
             {"torch.conv3d", "torch.nn.functional.conv3d"}, conv<3>);
  const char *transpose_signature = "a, /, weight, bias=None, stride=1, padding=0, "
                                    "output_padding=0, groups=1, dilation=1";
  add_ltorch(out, Sym::ltorch_conv_transpose1d, transpose_signature,
             {"torch.conv_transpose1d", "torch.nn.functional.conv_transpose1d"}, conv_transpose<1>);
  add_ltorch(out, Sym::ltorch_conv_transpose2d, transpose_signature,
             {"torch.conv_transpose2d", "torch.nn.functional.conv_transpose2d"}, conv_transpose<2>);
  add_ltorch(out, Sym::ltorch_conv_transpose3d, transpose_signature,
             {"torch.conv_transpose3d", "torch.nn.functional.conv_transpose3d"}, conv_transpose<3>);
}

} // namespace tracelint::tracer::ops
