// Resampling: F.interpolate (nearest, nearest-exact, linear, bilinear, trilinear, with and
// without align_corners) and pixel_shuffle / pixel_unshuffle. Interpolation is separable: one
// spatial dim at a time, its source indices (and, linear, weights) computed here as ATen's
// UpSample.h computes them, then gathered (ltorch.index_select) and blended elementwise.
#include "common.hpp"

#include <cmath>
#include <optional>

namespace tracelint::tracer::ops {

namespace {

enum class Sampling { nearest, nearest_exact, linear };

struct Resize {
  Sampling sampling = Sampling::nearest;
  bool align_corners = false;
  std::vector<int64_t> out;                  // per spatial dim
  std::vector<std::optional<double>> scales; // the given scale_factor, passed on as ATen's
};

// A constant 1-D tensor of the values along `dim` of a tensor of `rank` dims (its other dims 1),
// as the divisor of a blend or an index list.
Obj along(Recorder &r, std::vector<Obj> values, DType dtype, const std::string &device,
          std::size_t dim, std::size_t rank, bool reshape, const Loc &loc) {
  std::size_t n = values.size();
  Obj t = call_ltorch(r, Sym::ltorch_tensor, {Obj::list(std::move(values))}, loc,
                      {{"dtype", Obj::dtype_of(dtype)}, {"device", Obj::device_of(device)}});
  if (!reshape) return t;
  std::vector<Obj> shape(rank - dim, Obj::int_of(1));
  shape[0] = Obj::int_of(static_cast<int64_t>(n));
  return call_ltorch(r, Sym::ltorch_reshape, {t, Obj::tuple(std::move(shape))}, loc);
}

// ATen's compute_scales_value / area_pixel_compute_scale, in T as its kernels compute them (float
// for float, half and bfloat16 tensors, double for double).
template <typename T>
T source_scale(int64_t in, int64_t out, std::optional<double> scale, bool align_corners) {
  if (align_corners) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scale && *scale > 0 ? static_cast<T>(1.0 / *scale)
                             : static_cast<T>(in) / static_cast<T>(out);
}

// Where output i of a linear resampling reads: the lower source index, and the weight of the
// one above it (ATen's area_pixel_compute_source_index, not cubic).
template <typename T>
std::pair<int64_t, double> linear_source(int64_t i, T scale, bool align_corners) {
  T source = align_corners ? scale * static_cast<T>(i)
                           : std::max(T(0), scale * (static_cast<T>(i) + T(0.5)) - T(0.5));
  auto h = static_cast<int64_t>(source);
  return {h, static_cast<double>(source - static_cast<T>(h))};
}

Obj nearest_along(Recorder &r, const Obj &x, std::size_t dim, int64_t in, int64_t out,
                  std::optional<double> scale, bool exact, const Loc &loc) {
  float s = source_scale<float>(in, out, scale, false);
  std::vector<Obj> index;
  for (int64_t i = 0; i < out; ++i) {
    float at = exact ? (static_cast<float>(i) + 0.5f) * s : static_cast<float>(i) * s;
    int64_t source = static_cast<int64_t>(std::floor(at));
    // nearest with twice the size is i >> 1 in ATen, which the float rule gives too.
    index.push_back(Obj::int_of(std::min(source, in - 1)));
  }
  Obj idx = along(r, std::move(index), DType::int64, tensor(x).device, dim, 0, false, loc);
  return call_ltorch(r, Sym::ltorch_index_select, {x, Obj::int_of(dim), idx}, loc);
}

Obj linear_along(Recorder &r, const Obj &x, std::size_t dim, int64_t in, int64_t out,
                 std::optional<double> scale, bool align_corners, const Loc &loc) {
  bool in_double = tensor(x).dtype == DType::float64;
  auto s_float = source_scale<float>(in, out, scale, align_corners);
  auto s_double = source_scale<double>(in, out, scale, align_corners);
  std::vector<Obj> low, high, weight;
  for (int64_t i = 0; i < out; ++i) {
    auto [h, lambda] = in_double ? linear_source<double>(i, s_double, align_corners)
                                 : linear_source<float>(i, s_float, align_corners);
    low.push_back(Obj::int_of(h));
    high.push_back(Obj::int_of(h + (h < in - 1 ? 1 : 0)));
    weight.push_back(Obj::float_of(lambda));
  }
  const TensorObj &t = tensor(x);
  std::size_t rank = t.shape.size();
  Obj d = Obj::int_of(static_cast<int64_t>(dim));
  Obj lo = call_ltorch(r, Sym::ltorch_index_select,
                       {x, d, along(r, low, DType::int64, t.device, dim, rank, false, loc)}, loc);
  Obj hi = call_ltorch(r, Sym::ltorch_index_select,
                       {x, d, along(r, high, DType::int64, t.device, dim, rank, false, loc)}, loc);
  Obj w = along(r, std::move(weight), t.dtype, t.device, dim, rank, true, loc);
  // lo + w * (hi - lo): ATen blends (1 - w) * lo + w * hi, equal within rounding.
  Obj step = call_ltorch(r, Sym::ltorch_sub, {hi, lo}, loc);
  return call_ltorch(r, Sym::ltorch_add, {lo, call_ltorch(r, Sym::ltorch_mul, {w, step}, loc)},
                     loc);
}

Sampling sampling_of(const std::string &mode, std::size_t rank, const Loc &loc) {
  if (mode == "nearest") return Sampling::nearest;
  if (mode == "nearest-exact") return Sampling::nearest_exact;
  const char *linear[] = {"linear", "bilinear", "trilinear"};
  if (rank >= 1 && rank <= 3 && mode == linear[rank - 1]) return Sampling::linear;
  if (mode == "linear" || mode == "bilinear" || mode == "trilinear")
    throw TraceError(loc, "interpolate: mode '" + mode + "' takes a " +
                              std::to_string(mode == "linear"     ? 3
                                             : mode == "bilinear" ? 4
                                                                  : 5) +
                              "-D input, not " + std::to_string(rank + 2) + "-D");
  throw TraceError(loc, "interpolate: mode '" + mode +
                            "' is not supported by the tracer (nearest, nearest-exact, linear, "
                            "bilinear and trilinear are)");
}

// What F.interpolate computes from its arguments, checked as it checks them.
Resize resize_of(Recorder &r, const std::vector<Obj> &a, std::size_t rank, const Loc &loc) {
  // input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias
  if (a[3].kind != Obj::Kind::Str) throw TraceError(loc, "interpolate: mode must be a str");
  Resize z;
  z.sampling = sampling_of(a[3].as<StrObj>().value, rank, loc);
  if (!a[4].is_none() && z.sampling != Sampling::linear)
    throw TraceError(loc, "align_corners option can only be set with the interpolating modes: "
                          "linear | bilinear | bicubic | trilinear");
  z.align_corners = !a[4].is_none() && bool_arg(a[4], "interpolate", "align_corners", loc);
  if (is_set(a[6])) // F.interpolate's own `if antialias:`
    throw TraceError(loc, "interpolate: antialias=True is not supported by the tracer");
  if (a[1].is_none() == a[2].is_none())
    throw TraceError(loc, a[1].is_none() ? "either size or scale_factor should be defined"
                                         : "only one of size or scale_factor should be defined");
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  bool recompute = is_set(a[5]); // F.interpolate's own truth test
  const Obj &given = a[1].is_none() ? a[2] : a[1];
  std::vector<Obj> values = given.is_sequence() ? items(given) : std::vector<Obj>(rank, given);
  if (values.size() != rank)
    throw TraceError(loc, "interpolate: expected " +
                              std::string(a[1].is_none() ? "scale_factor" : "size") + " to have " +
                              std::to_string(rank) + " elements, got " +
                              std::to_string(values.size()));
  for (std::size_t i = 0; i < rank; ++i) {
    int64_t in = r.concrete(shape[i + 2], loc, "an interpolated size");
    if (!a[1].is_none()) {
      z.out.push_back(r.concrete(values[i], loc, "an interpolated size"));
      z.scales.push_back(std::nullopt);
      continue;
    }
    if (!values[i].is_number()) throw TraceError(loc, "interpolate: scale_factor must be numbers");
    double factor = values[i].kind == Obj::Kind::Float ? values[i].real
                                                       : static_cast<double>(values[i].integer);
    z.out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in) * factor)));
    z.scales.push_back(recompute ? std::nullopt : std::optional<double>(factor));
  }
  for (int64_t o : z.out)
    if (o <= 0)
      throw TraceError(loc, "interpolate: Input and output sizes should be greater than 0, but "
                            "got an output size of " +
                                std::to_string(o));
  return z;
}

Obj interpolate(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "interpolate", loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (shape.size() < 3 || shape.size() > 5)
    throw TraceError(loc, "interpolate: expected a 3-D, 4-D or 5-D input (batch, channels, then "
                          "1 to 3 spatial dims), not " +
                              shape_text(shape));
  std::size_t rank = shape.size() - 2;
  Resize z = resize_of(r, a, rank, loc);
  if (z.sampling == Sampling::linear && !is_floating(tensor(a[0]).dtype))
    throw TraceError(loc, "interpolate: linear modes need a floating-point input");
  Obj out = a[0];
  for (std::size_t i = 0; i < rank; ++i) {
    int64_t in = r.concrete(shape[i + 2], loc, "an interpolated size");
    if (in == z.out[i] && (z.sampling != Sampling::linear || !z.scales[i])) continue;
    out = z.sampling == Sampling::linear
              ? linear_along(r, out, i + 2, in, z.out[i], z.scales[i], z.align_corners, loc)
              : nearest_along(r, out, i + 2, in, z.out[i], z.scales[i],
                              z.sampling == Sampling::nearest_exact, loc);
  }
  return out;
}

// pixel_shuffle: (*, C * r * r, H, W) -> (*, C, H * r, W * r); unshuffle the inverse.
Obj pixel_shuffle(Recorder &r, const std::vector<Obj> &a, bool unshuffle, const Loc &loc) {
  const char *op = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
  require_tensor(a[0], "the input", op, loc);
  const std::vector<Obj> &shape = tensor(a[0]).shape;
  if (shape.size() < 3)
    throw TraceError(loc, std::string(op) +
                              " expects input to have at least 3 dimensions, but "
                              "got input with " +
                              std::to_string(shape.size()) + " dimension(s)");
  int64_t f = r.concrete(a[1], loc, unshuffle ? "downscale_factor" : "upscale_factor");
  if (f <= 0) throw TraceError(loc, std::string(op) + ": the factor must be greater than 0");
  std::size_t n = shape.size();
  int64_t c = r.concrete(shape[n - 3], loc, "the channels"),
          h = r.concrete(shape[n - 2], loc, "a size"), w = r.concrete(shape[n - 1], loc, "a size");
  std::vector<Obj> batch(shape.begin(), shape.end() - 3);
  auto with_batch = [&](std::vector<int64_t> rest) {
    std::vector<Obj> out = batch;
    for (int64_t v : rest)
      out.push_back(Obj::int_of(v));
    return Obj::tuple(std::move(out));
  };
  std::vector<Obj> permutation;
  for (std::size_t i = 0; i < batch.size(); ++i)
    permutation.push_back(Obj::int_of(static_cast<int64_t>(i)));
  auto at = [&](int64_t k) { return Obj::int_of(static_cast<int64_t>(batch.size()) + k); };
  Obj split, merged;
  if (!unshuffle) {
    if (c % (f * f) != 0)
      throw TraceError(loc, "pixel_shuffle expects its input's 'channel' dimension to be divisible "
                            "by the square of upscale_factor, but input.size(-3)=" +
                                std::to_string(c) + " is not divisible by " +
                                std::to_string(f * f));
    split = with_batch({c / (f * f), f, f, h, w});
    for (int64_t k : {0, 3, 1, 4, 2})
      permutation.push_back(at(k));
    merged = with_batch({c / (f * f), h * f, w * f});
  } else {
    // PyTorch gives an empty input back as it is (its shape unchanged).
    for (const Obj &size : shape)
      if (empty_size(r, size, loc)) return a[0];
    if (h % f != 0 || w % f != 0)
      throw TraceError(loc, "pixel_unshuffle expects height and width to be divisible by "
                            "downscale_factor, but got " +
                                shape_text(shape) + " and " + std::to_string(f));
    split = with_batch({c, h / f, f, w / f, f});
    for (int64_t k : {0, 2, 4, 1, 3})
      permutation.push_back(at(k));
    merged = with_batch({c * f * f, h / f, w / f});
  }
  Obj t = call_ltorch(r, Sym::ltorch_reshape, {a[0], split}, loc);
  t = call_ltorch(r, Sym::ltorch_permute, {t, Obj::tuple(std::move(permutation))}, loc);
  return call_ltorch(r, Sym::ltorch_reshape, {t, merged}, loc);
}

// Thunder's interpolate takes only floats as scale factors (torch any number): the bound call
// holds them as floats, so the printed one runs under Thunder. Idempotent.
void float_scale_factors(std::vector<Obj> &args, const Loc &) {
  auto as_float = [](const Obj &o) {
    return o.kind == Obj::Kind::Int && !o.is_proxy() ? Obj::float_of(static_cast<double>(o.integer))
                                                     : o;
  };
  if (args[2].is_sequence()) {
    std::vector<Obj> factors;
    for (const Obj &f : items(args[2]))
      factors.push_back(as_float(f));
    args[2] = Obj::tuple(std::move(factors));
  } else {
    args[2] = as_float(args[2]);
  }
}

} // namespace

void define_resampling_ops(std::vector<OpSpec> &out) {
  add_ltorch(out, Sym::ltorch_interpolate,
             "a, /, size=None, scale_factor=None, mode='nearest', align_corners=None, "
             "recompute_scale_factor=None, antialias=False",
             {"torch.nn.functional.interpolate"}, interpolate);
  out.back().normalize = float_scale_factors;
  add_ltorch(out, Sym::ltorch_pixel_shuffle, "a, upscale_factor, /",
             {"torch.pixel_shuffle", "torch.nn.functional.pixel_shuffle"},
             [](Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
               return pixel_shuffle(r, a, false, loc);
             });
  add_ltorch(out, Sym::ltorch_pixel_unshuffle, "a, downscale_factor, /",
             {"torch.pixel_unshuffle", "torch.nn.functional.pixel_unshuffle"},
             [](Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
               return pixel_shuffle(r, a, true, loc);
             });
}

} // namespace tracelint::tracer::ops
