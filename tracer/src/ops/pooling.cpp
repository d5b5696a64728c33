// Pooling: max_pool1d/2d/3d, avg_pool1d/2d/3d and adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d.
// A window's maximum or mean over a box is the maximum or mean over its dims one after the
// other, so each is pooled along one spatial dim at a time: the input padded (-inf for the
// maximum, zeros for the sum), then one strided slice per kernel offset, combined elementwise
// (ltorch.maximum, ltorch.add: fusible). This takes ceil_mode, dilation and count_include_pad,
// which Thunder 0.2.6's convolution-based pooling refuses. An adaptive pool's windows are the
// same along a dim when the size divides (a reshape and one reduction), else one slice each.
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tracelint::tracer::ops {

namespace {

// A pooling window along one dim, with the output size PyTorch's pooling_output_shape gives.
struct Window {
  int64_t size = 0, kernel = 1, stride = 1, padding = 0, dilation = 1, out = 0;
  // One past the last padded element the last window reads.
  int64_t reach() const { return (out - 1) * stride + dilation * (kernel - 1) + 1; }
};

std::vector<int64_t> pool_parameter(Recorder &r, const Obj &given, std::size_t rank,
                                    const std::string &what, const std::string &op,
                                    const Loc &loc) {
  std::vector<Obj> values = given.is_sequence() ? items(given) : std::vector<Obj>{given};
  if (values.size() != 1 && values.size() != rank)
    throw TraceError(loc, op + ": " + what + " must either be a single int, or a tuple of " +
                              std::to_string(rank) + " ints");
  std::vector<int64_t> out;
  for (const Obj &v : values) {
    if (v.kind != Obj::Kind::Int) throw TraceError(loc, op + ": " + what + " must hold ints");
    out.push_back(r.concrete(v, loc, what));
  }
  if (out.size() == 1) out.assign(rank, out[0]);
  return out;
}

// The windows of each spatial dim (the last `rank` of x), checked as PyTorch checks them.
std::vector<Window> windows(Recorder &r, const Obj &x, std::size_t rank, const Obj &kernel,
                            const Obj &stride, const Obj &padding, const Obj &dilation,
                            bool ceil_mode, const std::string &op, const Loc &loc) {
  std::vector<int64_t> k = pool_parameter(r, kernel, rank, "kernel_size", op, loc);
  bool no_stride = stride.is_none() || (stride.is_sequence() && items(stride).empty());
  std::vector<int64_t> s = no_stride ? k : pool_parameter(r, stride, rank, "stride", op, loc);
  std::vector<int64_t> p = pool_parameter(r, padding, rank, "padding", op, loc);
  std::vector<int64_t> d = pool_parameter(r, dilation, rank, "dilation", op, loc);
  const std::vector<Obj> &shape = tensor(x).shape;
  std::vector<Window> out;
  for (std::size_t i = 0; i < rank; ++i) {
    Window w;
    w.size = r.concrete(shape[shape.size() - rank + i], loc, "a pooled size");
    w.kernel = k[i], w.stride = s[i], w.padding = p[i], w.dilation = d[i];
    if (w.kernel <= 0 || w.stride <= 0 || w.dilation <= 0 || w.padding < 0)
      throw TraceError(loc, op + ": kernel_size, stride and dilation must be greater than zero, "
                                 "padding not negative");
    if (w.padding > w.kernel / 2) // the kernel's half, dilated or not, as ATen checks it
      throw TraceError(loc, op +
                                ": pad should be smaller than or equal to half of kernel size, "
                                "but got pad=" +
                                std::to_string(w.padding) +
                                " and kernel_size=" + std::to_string(w.kernel));
    int64_t span = w.size + 2 * w.padding - w.dilation * (w.kernel - 1) - 1;
    int64_t steps = span + (ceil_mode ? w.stride - 1 : 0);
    w.out = (steps >= 0 ? steps / w.stride : -((-steps + w.stride - 1) / w.stride)) + 1;
    // The last window must start inside the input or its left padding.
    if (ceil_mode && w.out > 0 && (w.out - 1) * w.stride >= w.size + w.padding) --w.out;
    if (w.out < 1)
      throw TraceError(loc, op + ": Given input size " + shape_text(shape) +
                                ", the calculated output size is too small (a window larger "
                                "than the padded input)");
    out.push_back(w);
  }
  return out;
}

// x pooled along `dim`: padded with `fill` (low by the padding, high as far as the last window
// reads, cropped where it reads less), one slice per kernel offset, combined by `combine`.
Obj pool_along(Recorder &r, const Obj &x, std::size_t dim, const Window &w, int64_t low,
               int64_t length, const Obj &fill, Sym combine, const Loc &loc) {
  std::vector<PadWidths> config(tensor(x).shape.size(), PadWidths{0, 0, 0});
  config[dim] = {low, w.reach() - length - low, 0};
  Obj padded = pad_or_crop(r, x, config, fill, loc);
  Obj combined;
  for (int64_t j = 0; j < w.kernel; ++j) {
    Obj taken = strided_slice(r, padded, dim, j * w.dilation, w.out, w.stride, loc);
    combined = j == 0 ? taken : call_ltorch(r, combine, {combined, taken}, loc);
  }
  return combined;
}

// Pooling ops take an input with or without the batch dim: (C, *spatial) or (N, C, *spatial).
void check_pool_input(const Obj &x, std::size_t rank, const std::string &op, const Loc &loc) {
  require_tensor(x, "the input", op.c_str(), loc);
  std::size_t given = tensor(x).shape.size();
  if (given != rank + 1 && given != rank + 2)
    throw TraceError(loc, op + ": Expected " + std::to_string(rank + 1) + "D or " +
                              std::to_string(rank + 2) + "D input, but got " +
                              shape_text(tensor(x).shape));
  if (!is_floating(tensor(x).dtype))
    throw TraceError(loc, op + " needs a floating-point input, not " +
                              std::string(dtype_info(tensor(x).dtype).torch_name));
}

template <std::size_t Rank> Obj max_pool(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, kernel_size, stride, padding, dilation, ceil_mode, return_indices
  static const std::string op = "max_pool" + std::to_string(Rank) + "d";
  check_pool_input(a[0], Rank, op, loc);
  if (is_set(a[6])) // F.max_pool*d's own `if return_indices:`
    throw TraceError(loc, op + ": return_indices=True is not supported by the tracer (Thunder's "
                               "max_pool neither): pool without the indices");
  bool ceil_mode = bool_arg(a[5], op, "ceil_mode", loc);
  std::vector<Window> ws = windows(r, a[0], Rank, a[1], a[2], a[3], a[4], ceil_mode, op, loc);
  Obj out = a[0];
  std::size_t first = tensor(a[0]).shape.size() - Rank;
  Obj lowest = Obj::float_of(-std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < Rank; ++i)
    out = pool_along(r, out, first + i, ws[i], ws[i].padding, ws[i].size, lowest,
                     Sym::ltorch_maximum, loc);
  return out;
}

// How many elements each window of a dim divides by: those inside [0, size) without
// count_include_pad, inside the padded [-padding, size + padding) with it (PyTorch's rule: the
// part of a ceil_mode window past the padding never counts).
std::vector<int64_t> window_counts(const Window &w, bool count_include_pad) {
  std::vector<int64_t> counts;
  for (int64_t i = 0; i < w.out; ++i) {
    int64_t start = i * w.stride - w.padding, end = std::min(start + w.kernel, w.size + w.padding);
    if (!count_include_pad) start = std::max<int64_t>(start, 0), end = std::min(end, w.size);
    counts.push_back(end - start);
  }
  return counts;
}

// The sums divided by the windows' counts along one dim: by a number when every window of the
// dim counts alike, else by a tensor of the counts along that dim.
Obj divided_by_counts(Recorder &r, const Obj &sums, std::size_t dim,
                      const std::vector<int64_t> &counts, const Loc &loc) {
  if (std::all_of(counts.begin(), counts.end(), [&](int64_t c) { return c == counts[0]; }))
    return counts[0] == 1
               ? sums
               : call_ltorch(r, Sym::ltorch_true_divide, {sums, Obj::int_of(counts[0])}, loc);
  std::vector<Obj> values;
  for (int64_t c : counts)
    values.push_back(Obj::float_of(static_cast<double>(c)));
  const TensorObj &t = tensor(sums);
  Obj divisor =
      call_ltorch(r, Sym::ltorch_tensor, {Obj::list(std::move(values))}, loc,
                  {{"dtype", Obj::dtype_of(t.dtype)}, {"device", Obj::device_of(t.device)}});
  std::vector<Obj> shape(t.shape.size() - dim, Obj::int_of(1));
  shape[0] = Obj::int_of(static_cast<int64_t>(counts.size()));
  divisor = call_ltorch(r, Sym::ltorch_reshape, {divisor, Obj::tuple(std::move(shape))}, loc);
  return call_ltorch(r, Sym::ltorch_true_divide, {sums, divisor}, loc);
}

template <std::size_t Rank> Obj avg_pool(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
  static const std::string op = "avg_pool" + std::to_string(Rank) + "d";
  check_pool_input(a[0], Rank, op, loc);
  bool ceil_mode = bool_arg(a[4], op, "ceil_mode", loc);
  bool count_include_pad = bool_arg(a[5], op, "count_include_pad", loc);
  std::vector<Window> ws =
      windows(r, a[0], Rank, a[1], a[2], a[3], Obj::int_of(1), ceil_mode, op, loc);
  // ATen's avg_pool3d wants each size at least the kernel's, padding or not.
  if (Rank == 3 &&
      (ws[0].size < ws[0].kernel || ws[1].size < ws[1].kernel || ws[2].size < ws[2].kernel)) {
    auto sizes = [&](const char *t, const char *h, const char *w, auto field) {
      return std::string(t) + std::to_string(ws[0].*field) + h + std::to_string(ws[1].*field) + w +
             std::to_string(ws[2].*field);
    };
    throw TraceError(loc, "avg_pool3d: input image (" +
                              sizes("T: ", " H: ", " W: ", &Window::size) +
                              ") smaller than kernel size (" +
                              sizes("kT: ", " kH: ", " kW: ", &Window::kernel) + ")");
  }
  Obj out = a[0];
  std::size_t first = tensor(a[0]).shape.size() - Rank;
  for (std::size_t i = 0; i < Rank; ++i)
    out = pool_along(r, out, first + i, ws[i], ws[i].padding, ws[i].size, Obj::float_of(0.0),
                     Sym::ltorch_add, loc);
  // avg_pool1d has no divisor_override in PyTorch (the schema takes it, as Thunder's).
  if (!a[6].is_none() && Rank > 1) {
    if (r.concrete(a[6], loc, "divisor_override") == 0)
      throw TraceError(loc, op + ": divisor must be not zero");
    return call_ltorch(r, Sym::ltorch_true_divide, {out, a[6]}, loc);
  }
  for (std::size_t i = 0; i < Rank; ++i)
    out = divided_by_counts(r, out, first + i, window_counts(ws[i], count_include_pad), loc);
  return out;
}

// An adaptive pool along one dim: output i reduces [floor(i * n / o), ceil((i + 1) * n / o)).
Obj adaptive_along(Recorder &r, const Obj &x, std::size_t dim, int64_t out, Sym reduce,
                   const Loc &loc) {
  const std::vector<Obj> &shape = tensor(x).shape;
  int64_t n = r.concrete(shape[dim], loc, "a pooled size");
  auto reduced = [&](const Obj &t, int64_t along) {
    return call_ltorch(r, reduce, {t, Obj::int_of(along)}, loc);
  };
  if (n == out) return x;
  if (n % out == 0) {
    std::vector<Obj> split(shape.begin(), shape.end());
    split[dim] = Obj::int_of(n / out);
    split.insert(split.begin() + static_cast<std::ptrdiff_t>(dim), Obj::int_of(out));
    Obj grouped = call_ltorch(r, Sym::ltorch_reshape, {x, Obj::tuple(std::move(split))}, loc);
    return reduced(grouped, static_cast<int64_t>(dim) + 1);
  }
  std::vector<Obj> parts;
  for (int64_t i = 0; i < out; ++i) {
    int64_t start = i * n / out, end = ((i + 1) * n + out - 1) / out;
    Obj window = strided_slice(r, x, dim, start, end - start, 1, loc);
    parts.push_back(call_ltorch(r, Sym::ltorch_unsqueeze,
                                {reduced(window, static_cast<int64_t>(dim)), Obj::int_of(dim)},
                                loc));
  }
  return call_ltorch(r, Sym::ltorch_cat, {Obj::list(std::move(parts)), Obj::int_of(dim)}, loc);
}

template <std::size_t Rank, Sym Reduce>
Obj adaptive_pool(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // input, output_size (, return_indices for the max)
  static const std::string op =
      std::string(Reduce == Sym::ltorch_mean ? "adaptive_avg_pool" : "adaptive_max_pool") +
      std::to_string(Rank) + "d";
  check_pool_input(a[0], Rank, op, loc);
  if (a.size() > 2 && is_set(a[2])) // F.adaptive_max_pool*d's own `if return_indices:`
    throw TraceError(loc, op + ": return_indices=True is not supported by the tracer: pool "
                               "without the indices");
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  std::vector<Obj> sizes = a[1].is_sequence() ? items(a[1]) : std::vector<Obj>(Rank, a[1]);
  if (sizes.size() != Rank)
    throw TraceError(loc, op + ": output_size must be " + std::to_string(Rank) + " ints");
  Obj out = a[0];
  std::size_t first = shape.size() - Rank;
  for (std::size_t i = 0; i < Rank; ++i) {
    if (r.concrete(shape[first + i], loc, "a pooled size") == 0)
      throw TraceError(loc, op +
                                ": Expected input to have non-zero size for non-batch "
                                "dimensions, but input has sizes " +
                                shape_text(shape));
    // None keeps the input's size.
    int64_t o = sizes[i].is_none() ? r.concrete(shape[first + i], loc, "a pooled size")
                                   : r.concrete(sizes[i], loc, "output_size");
    if (o <= 0) throw TraceError(loc, op + ": output_size must be positive");
    out = adaptive_along(r, out, first + i, o, Reduce, loc);
  }
  return out;
}

// Thunder's adaptive_avg_pool2d takes no None in output_size (torch's keeps that dim's size):
// the bound call names the size, so the printed one runs under Thunder. Idempotent.
void sizes_without_none(std::vector<Obj> &args, const Loc &) {
  if (!args[1].is_sequence() || !is_tensor(args[0])) return;
  std::vector<Obj> sizes = items(args[1]);
  const std::vector<Obj> &shape = tensor(args[0]).shape;
  if (shape.size() < sizes.size()) return; // the decomposition says what is wrong
  bool changed = false;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i].is_none()) {
      sizes[i] = shape[shape.size() - sizes.size() + i];
      changed = true;
    }
  if (changed) args[1] = Obj::tuple(std::move(sizes));
}

} // namespace

void define_pooling_ops(std::vector<OpSpec> &out) {
  // torch's order: ceil_mode before return_indices (Thunder's has them the other way round).
  const char *max_signature = "a, /, kernel_size, stride=None, padding=0, dilation=1, "
                              "ceil_mode=False, return_indices=False";
  add_ltorch(out, Sym::ltorch_max_pool1d, max_signature,
             {"torch.max_pool1d", "torch.nn.functional.max_pool1d"}, max_pool<1>);
  add_ltorch(out, Sym::ltorch_max_pool2d, max_signature,
             {"torch.max_pool2d", "torch.nn.functional.max_pool2d"}, max_pool<2>);
  add_ltorch(out, Sym::ltorch_max_pool3d, max_signature,
             {"torch.max_pool3d", "torch.nn.functional.max_pool3d"}, max_pool<3>);
  const char *avg_signature = "a, /, kernel_size, stride=None, padding=0, ceil_mode=False, "
                              "count_include_pad=True, divisor_override=None";
  add_ltorch(out, Sym::ltorch_avg_pool1d, avg_signature,
             {"torch.avg_pool1d", "torch.nn.functional.avg_pool1d"}, avg_pool<1>);
  add_ltorch(out, Sym::ltorch_avg_pool2d, avg_signature, {"torch.nn.functional.avg_pool2d"},
             avg_pool<2>);
  add_ltorch(out, Sym::ltorch_avg_pool3d, avg_signature, {"torch.nn.functional.avg_pool3d"},
             avg_pool<3>);
  add_ltorch(out, Sym::ltorch_adaptive_avg_pool1d, "a, /, output_size",
             {"torch.adaptive_avg_pool1d", "torch.nn.functional.adaptive_avg_pool1d"},
             adaptive_pool<1, Sym::ltorch_mean>);
  add_ltorch(out, Sym::ltorch_adaptive_avg_pool2d, "a, /, output_size",
             {"torch.nn.functional.adaptive_avg_pool2d"}, adaptive_pool<2, Sym::ltorch_mean>);
  add_ltorch(out, Sym::ltorch_adaptive_max_pool1d, "a, /, output_size, return_indices=False",
             {"torch.nn.functional.adaptive_max_pool1d"}, adaptive_pool<1, Sym::ltorch_amax>);
  add_ltorch(out, Sym::ltorch_adaptive_max_pool2d, "a, /, output_size, return_indices=False",
             {"torch.nn.functional.adaptive_max_pool2d"}, adaptive_pool<2, Sym::ltorch_amax>);
  for (Sym s : {Sym::ltorch_max_pool1d, Sym::ltorch_max_pool2d, Sym::ltorch_max_pool3d})
    by_name(out, s, "ceil_mode, return_indices");
  // torch's adaptive max pools take return_indices; ATen's (which Thunder runs) do not.
  torch_only(out, Sym::ltorch_adaptive_max_pool1d, "return_indices");
  torch_only(out, Sym::ltorch_adaptive_max_pool2d, "return_indices");
  for (OpSpec &spec : out)
    if (spec.sym == Sym::ltorch_adaptive_avg_pool2d || spec.sym == Sym::ltorch_adaptive_max_pool2d)
      spec.normalize = sizes_without_none;
}

} // namespace tracelint::tracer::ops
