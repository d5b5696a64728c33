#include "shape_draws.hpp"

#include <algorithm>
#include <numeric>

namespace test {

namespace {

const std::vector<std::string> kAnyDtype = {"f32", "f64", "i64", "i32", "b8"};
const std::vector<std::string> kFloating = {"f32", "f64"};
// Without bool: PyTorch's kernels with no bool case refuse it only for tensors with elements
// (the tracer refuses it for any, tests/test_tracer_run.cpp); an integer divided by a bool
// tensor divides by zero where it is False.
const std::vector<std::string> kNumeric = {"f32", "f64", "i64", "i32"};
const std::vector<std::string> kIntegral = {"i64", "i32", "u8", "b8"};

bool is_floating(const std::string &dtype) {
  return dtype[0] == 'f' || (dtype[0] == 'b' && dtype[1] == 'f');
}

int64_t numel(const Shape &s) {
  return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>());
}

std::string join(const std::vector<std::string> &parts) {
  std::string out;
  for (const std::string &p : parts)
    out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string list_text(const std::vector<int64_t> &xs) {
  std::vector<std::string> parts;
  for (int64_t x : xs)
    parts.push_back(std::to_string(x));
  return "[" + join(parts) + "]";
}

// The sizes as the call's trailing arguments, a tuple, or an input (symbolic under symbolic
// values), by chance.
std::string sizes(Draw &d, const std::vector<int64_t> &xs, bool varargs_allowed = true) {
  int way = d.below(3);
  if (way == 0 && varargs_allowed && !xs.empty()) {
    std::vector<std::string> parts;
    for (int64_t x : xs)
      parts.push_back(d.integer(x));
    return join(parts);
  }
  return way == 1 ? d.value(tuple_text(xs)) : tuple_text(xs);
}

// ---- elementwise

struct Operands {
  std::vector<std::string> dtypes = kAnyDtype;
  bool numbers = true;      // a Python number may stand for the second operand
  bool nonnegative = false; // values, and numbers, that a division or power takes
};

std::string number(Draw &d, const Operands &o) {
  std::string literal = o.nonnegative ? d.pick<std::string>({"2", "3", "0.5", "1.5"})
                                      : d.pick<std::string>({"2", "-3", "0.5", "True", "0"});
  return d.chance(50) ? d.value(literal) : literal;
}

std::string operand(Draw &d, const Shape &with, const Operands &o) {
  if (o.numbers && d.chance(25)) return number(d, o);
  return d.tensor(d.pick(o.dtypes), d.partner(with), o.nonnegative ? "1..4" : "");
}

// torch.NAME(a, b), or the operator with the operands either way round.
Recipe binary(const std::string &name, const std::string &op = "", Operands o = {},
              const std::string &extra = "") {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(o.dtypes), s, o.nonnegative ? "1..4" : "");
    std::string b = operand(d, s, o);
    if (!op.empty() && d.chance(40))
      return d.chance(70) ? a + " " + op + " " + b : b + " " + op + " " + a;
    return "torch." + name + "(" + a + ", " + b + extra + ")";
  }};
}

Recipe unary(const std::string &call, const std::vector<std::string> &dtypes = kAnyDtype) {
  return {[=](Draw &d) { return call + "(" + d.tensor(d.pick(dtypes), d.shape()) + ")"; }};
}

Recipe clamp() {
  return {[](Draw &d) {
    std::string a = d.tensor(d.pick(kAnyDtype), d.shape());
    std::string lo = d.chance(30) ? "None" : d.pick<std::string>({"-1", "0.5", "0"});
    std::string hi = d.chance(30) ? "None" : d.pick<std::string>({"2", "1.5"});
    return "torch.clamp(" + a + ", min=" + lo + ", max=" + hi + ")";
  }};
}

Recipe where() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string pred = d.tensor("b8", s);
    Operands o;
    std::string a = operand(d, s, o), b = operand(d, s, o);
    return "torch.where(" + pred + ", " + a + ", " + b + ")";
  }};
}

Recipe masked_fill() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(kAnyDtype), s);
    std::string mask = d.tensor("b8", d.partner(s));
    std::string value =
        d.chance(20) ? d.tensor("f32", {}) : d.pick<std::string>({"0.5", "-2", "float('-inf')"});
    return a + ".masked_fill(" + mask + ", " + value + ")";
  }};
}

Recipe conversion() {
  return {[](Draw &d) {
    std::string a = d.tensor(d.pick(kAnyDtype), d.shape());
    std::string dtype =
        "torch." + d.pick<std::string>({"float32", "float64", "int64", "int32", "bool", "float16"});
    return d.chance(50) ? a + ".to(" + dtype + ")" : a + ".to(dtype=" + dtype + ")";
  }};
}

Recipe type_as() {
  return {[](Draw &d) {
    std::string a = d.tensor(d.pick(kAnyDtype), d.shape());
    return a + ".type_as(" + d.tensor(d.pick(kAnyDtype), d.shape()) + ")";
  }};
}

// ---- reductions

// dim=None, one dim, or a tuple of distinct dims (now and then a repeated or out-of-range one).
std::string dims_argument(Draw &d, std::size_t rank, bool none_allowed = true) {
  if (none_allowed && d.chance(20)) return "None";
  if (d.chance(40)) return std::to_string(d.axis(rank));
  std::vector<int64_t> dims;
  int n = d.between(0, static_cast<int>(std::max<std::size_t>(rank, 1)));
  std::vector<int64_t> order = d.permutation(std::max<std::size_t>(rank, 1));
  for (int i = 0; i < n; ++i)
    dims.push_back(order[static_cast<std::size_t>(i)] -
                   (d.chance(30) ? static_cast<int64_t>(std::max<std::size_t>(rank, 1)) : 0));
  if (d.chance(5) && !dims.empty()) dims.push_back(dims.front());
  return tuple_text(dims);
}

Recipe reduction(const std::string &name, const std::vector<std::string> &dtypes, bool dtype_kwarg,
                 bool none_allowed = true) {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(dtypes), s);
    std::string call = "torch." + name + "(" + a + ", " + dims_argument(d, s.size(), none_allowed);
    if (d.chance(50)) call += ", keepdim=True";
    if (dtype_kwarg && d.chance(20))
      call += ", dtype=torch." + d.pick<std::string>({"float64", "float32", "int64"});
    return call + ")";
  }};
}

Recipe arg_reduction(const std::string &name) {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(kFloating), s);
    if (d.chance(25)) return "torch." + name + "(" + a + ")";
    return "torch." + name + "(" + a + ", " + std::to_string(d.axis(s.size())) +
           (d.chance(50) ? ", keepdim=True" : "") + ")";
  }};
}

// torch.var or torch.std (or the method), with unbiased or a correction, now and then keepdim.
Recipe spread(const std::string &name) {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string x = d.tensor(d.pick(kFloating), s);
    std::string call = d.chance(50) ? "torch." + name + "(" + x + ", " : x + "." + name + "(";
    call += dims_argument(d, s.size());
    int way = d.below(3);
    if (way == 0) call += ", unbiased=False";
    if (way == 1) call += ", correction=" + d.pick<std::string>({"0", "1", "2"});
    if (d.chance(50)) call += ", keepdim=True";
    return call + ")";
  }};
}

// Over drawn dims (now and then none, or an empty one); the values now and then infinite.
Recipe logsumexp() {
  return {[](Draw &d) {
    Shape s = d.shape(1);
    std::string x = d.tensor(d.pick(kFloating), s);
    if (d.chance(20)) x = x + ".masked_fill(" + x + " > 1.0, float('-inf'))";
    std::string dims =
        d.chance(30) ? std::to_string(d.axis(s.size())) : dims_argument(d, s.size(), false);
    return "torch.logsumexp(" + x + ", " + dims + (d.chance(50) ? ", keepdim=True" : "") + ")";
  }};
}

Recipe softmax(const std::string &name) {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(kFloating), s);
    std::string call = "torch." + name + "(" + a + ", " + std::to_string(d.axis(s.size()));
    if (d.chance(20)) call += ", dtype=torch.float64";
    return call + ")";
  }};
}

// The last k dims of s (or, now and then, dims it does not end with).
std::vector<int64_t> normalized_shape(Draw &d, const Shape &s) {
  std::size_t k =
      static_cast<std::size_t>(d.between(1, static_cast<int>(std::max<std::size_t>(s.size(), 1))));
  std::vector<int64_t> out;
  for (std::size_t i = s.size() >= k ? s.size() - k : 0; i < s.size(); ++i)
    out.push_back(s[i]);
  if (d.chance(10) || out.empty()) out.push_back(d.dim());
  return out;
}

Recipe layer_norm() {
  return {[](Draw &d) {
    Shape s = d.shape(1);
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, s);
    std::vector<int64_t> n = normalized_shape(d, s);
    // Over one element the result is 0; libtorch's fused kernel rounds x - mean to about 1e-8
    // there, which its rstd of 1/sqrt(eps) makes 1e-5: past the float32 tolerance.
    if (numel(n) == 1) n.push_back(2);
    std::string w = d.chance(50) ? d.tensor(dtype, n) : "None";
    std::string b = d.chance(50) ? d.tensor(dtype, n) : "None";
    return "F.layer_norm(" + x + ", " + tuple_text(n) + ", " + w + ", " + b + ")";
  }};
}

// Groups that divide the channels, each of at least two elements (over one, the result is 0 and
// libtorch's rounding of x - mean is past the float32 tolerance, as layer_norm's).
Recipe group_norm() {
  return {[](Draw &d) {
    Shape s = d.shape(2);
    if (s[1] == 0) s[1] = 2;
    int64_t spatial = 1;
    for (std::size_t i = 2; i < s.size(); ++i)
      spatial *= s[i];
    std::vector<std::string> groups;
    for (int64_t g = 1; g <= s[1]; ++g)
      if (s[1] % g == 0 && (spatial == 0 || (s[1] / g) * spatial >= 2))
        groups.push_back(std::to_string(g));
    if (groups.empty()) {
      s[1] = 2;
      groups = {"1"};
    }
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, s);
    std::string w = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    std::string b = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    return "F.group_norm(" + x + ", " + d.pick(groups) + ", " + w + ", " + b +
           (d.chance(30) ? ", eps=1e-3" : "") + ")";
  }};
}

// Evaluation mode with running statistics (a positive variance), or training mode on the batch's
// own where the channels hold more than one value each (torch refuses one), with running
// statistics to update now and then.
Recipe batch_norm() {
  return {[](Draw &d) {
    Shape s = d.shape(2);
    if (s[1] == 0) s[1] = 2;
    int64_t values = s[0];
    for (std::size_t i = 2; i < s.size(); ++i)
      values *= s[i];
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, s);
    std::string w = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    std::string b = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    if (values >= 2 && d.chance(40))
      return "F.batch_norm(" + x + ", None, None, " + w + ", " + b + ", training=True)";
    if (values >= 2 && d.chance(30)) // the running statistics updated too
      return "F.batch_norm(" + x + ", " + d.tensor(dtype, {s[1]}) + ", " +
             d.tensor(dtype, {s[1]}, "1..4") + ", " + w + ", " + b +
             ", training=True, momentum=0.3)";
    return "F.batch_norm(" + x + ", " + d.tensor(dtype, {s[1]}) + ", " +
           d.tensor(dtype, {s[1]}, "1..4") + ", " + w + ", " + b +
           (d.chance(30) ? ", eps=1e-3" : "") + ")";
  }};
}

// A convolution of rank 1-3 that PyTorch takes: channels split into groups, a kernel that fits
// the padded (or, transposed, gives a positive output), now and then an empty batch, an
// unbatched input, no bias, a padding string. `spelled`: "conv" (F.convNd), "conv_transpose"
// or "convolution" (torch.convolution, either form).
Recipe convolution(const std::string &spelled, int rank) {
  return {[=](Draw &d) {
    bool transposed = spelled == "conv_transpose" || (spelled == "convolution" && d.chance(50));
    int64_t groups = d.between(1, 2), in_per_group = d.between(1, 2),
            out_per_group = d.between(1, 3);
    std::vector<int64_t> kernel, stride, padding, dilation, extra;
    Shape x = {d.pick<int64_t>({0, 1, 2}), groups * in_per_group};
    Shape w = transposed ? Shape{groups * in_per_group, out_per_group}
                         : Shape{groups * out_per_group, in_per_group};
    for (int i = 0; i < rank; ++i) {
      int64_t k = d.between(1, 3), s = d.between(1, 3), dl = d.between(1, 2), p = d.between(0, 2);
      int64_t reach = dl * (k - 1) + 1,
              op = transposed ? d.below(static_cast<int>(std::max(s, dl))) : 0;
      int64_t size =
          transposed ? d.between(1, 4) : std::max<int64_t>(1, reach - 2 * p + d.below(4));
      if (transposed && (size - 1) * s - 2 * p + reach + op <= 0) p = 0;
      kernel.push_back(k), stride.push_back(s), padding.push_back(p), dilation.push_back(dl);
      extra.push_back(op), x.push_back(size), w.push_back(k);
    }
    std::string dtype = d.pick(kFloating);
    bool unbatched = spelled != "convolution" && d.chance(20);
    if (unbatched) x.erase(x.begin());
    std::string xs = d.tensor(dtype, x), ws = d.tensor(dtype, w);
    int64_t out = transposed ? groups * out_per_group : w[0];
    std::string bias = d.chance(50) ? d.tensor(dtype, {out}) : "None";
    std::string g = std::to_string(groups);
    if (spelled == "convolution")
      return "torch.convolution(" + xs + ", " + ws + ", " + bias + ", " + list_text(stride) + ", " +
             list_text(padding) + ", " + list_text(dilation) + ", " +
             (transposed ? "True" : "False") + ", " + list_text(extra) + ", " + g + ")";
    std::string name = spelled + std::to_string(rank) + "d";
    if (transposed)
      return "F." + name + "(" + xs + ", " + ws + ", " + bias + ", " + tuple_text(stride) + ", " +
             tuple_text(padding) + ", " + tuple_text(extra) + ", " + g + ", " +
             tuple_text(dilation) + ")";
    std::string pad = tuple_text(padding);
    if (d.chance(20)) pad = "'valid'";
    if (d.chance(20) && std::all_of(stride.begin(), stride.end(), [](int64_t v) { return v == 1; }))
      pad = "'same'";
    if (pad == "'valid'") // the kernel must fit the input unpadded
      for (int i = 0; i < rank; ++i)
        if (x[x.size() - rank + i] < dilation[i] * (kernel[i] - 1) + 1) pad = tuple_text(padding);
    return "F." + name + "(" + xs + ", " + ws + ", " + bias + ", stride=" + tuple_text(stride) +
           ", padding=" + pad + ", dilation=" + tuple_text(dilation) + ", groups=" + g + ")";
  }};
}

// A pooling of rank 1-3 that PyTorch takes: the kernel fits the padded input, the padding at
// most half the (dilated) kernel, now and then ceil_mode, an unbatched input, an empty batch.
// `kind`: "max_pool", "avg_pool", "adaptive_avg_pool" or "adaptive_max_pool".
Recipe pooling(const std::string &kind, int rank) {
  return {[=](Draw &d) {
    bool adaptive = kind.starts_with("adaptive"), max = kind.find("max") != std::string::npos;
    Shape x = {d.pick<int64_t>({0, 1, 2}), d.between(1, 3)};
    std::vector<int64_t> kernel, stride, padding, dilation, out;
    for (int i = 0; i < rank; ++i) {
      int64_t k = d.between(1, 3), s = d.between(1, 3), dl = max && !adaptive ? d.between(1, 2) : 1;
      int64_t p = d.between(0, static_cast<int>(k / 2));
      int64_t reach = dl * (k - 1) + 1;
      x.push_back(std::max<int64_t>(1, reach - 2 * p + d.below(5)));
      kernel.push_back(k), stride.push_back(s), padding.push_back(p), dilation.push_back(dl);
      out.push_back(d.between(1, static_cast<int>(x.back()) + 2));
    }
    if (d.chance(20)) x.erase(x.begin());
    std::string xs = d.tensor(d.pick(kFloating), x);
    std::string name = "F." + kind + std::to_string(rank) + "d(" + xs + ", ";
    if (adaptive) return name + (rank == 1 ? std::to_string(out[0]) : tuple_text(out)) + ")";
    std::string ceil = d.chance(30) ? "True" : "False";
    std::string stride_text = d.chance(25) ? "None" : tuple_text(stride);
    if (max)
      return name + tuple_text(kernel) + ", " + stride_text + ", " + tuple_text(padding) + ", " +
             tuple_text(dilation) + ", ceil_mode=" + ceil + ")";
    std::string count = d.chance(50) ? "True" : "False";
    std::string divisor = rank > 1 && d.chance(20) ? ", divisor_override=3" : "";
    return name + tuple_text(kernel) + ", " + stride_text + ", " + tuple_text(padding) + ", " +
           ceil + ", " + count + divisor + ")";
  }};
}

// F.interpolate of a 3-D to 5-D input: by sizes or by factors (ints or floats, now and then
// recomputed), every mode the tracer takes, align_corners for the linear ones.
Recipe interpolate() {
  return {[](Draw &d) {
    int rank = d.between(1, 3);
    Shape x = {d.pick<int64_t>({0, 1, 2}), d.between(1, 3)};
    for (int i = 0; i < rank; ++i)
      x.push_back(d.between(1, 5));
    const char *linear[] = {"linear", "bilinear", "trilinear"};
    std::string mode = d.pick<std::string>({"nearest", "nearest-exact", linear[rank - 1]});
    // PyTorch 1.13's CPU kernels take no other dtypes for nearest (the tracer's gather does).
    std::string dtype =
        mode.starts_with("nearest") ? d.pick<std::string>({"f32", "f64", "u8"}) : d.pick(kFloating);
    std::string xs = d.tensor(dtype, x);
    std::string how;
    if (d.chance(50)) {
      std::vector<int64_t> size;
      for (int i = 0; i < rank; ++i)
        size.push_back(d.between(1, 7));
      how = "size=" + (d.chance(30) ? std::to_string(size[0]) : tuple_text(size));
    } else {
      how = "scale_factor=" + d.pick<std::string>({"2", "3", "1.5", "2.5", "0.75", "1.0"});
      if (d.chance(25)) how += ", recompute_scale_factor=True";
    }
    if (mode == linear[rank - 1] && d.chance(50))
      how += d.chance(50) ? ", align_corners=True" : ", align_corners=False";
    return "F.interpolate(" + xs + ", " + how + ", mode='" + mode + "')";
  }};
}

Recipe pixel_shuffle(bool unshuffle) {
  return {[=](Draw &d) {
    int64_t f = d.between(1, 3);
    Shape x = {d.pick<int64_t>({0, 1, 2})};
    if (d.chance(30)) x.clear();
    if (unshuffle)
      x.insert(x.end(), {d.between(1, 3), f * d.between(1, 3), f * d.between(1, 3)});
    else
      x.insert(x.end(), {f * f * d.between(1, 2), d.between(1, 4), d.between(1, 4)});
    return std::string(unshuffle ? "F.pixel_unshuffle(" : "F.pixel_shuffle(") +
           d.tensor(d.pick(kAnyDtype), x) + ", " + std::to_string(f) + ")";
  }};
}

// The input's statistics where each instance holds more than one value per channel (torch
// refuses one), else the running statistics.
Recipe instance_norm() {
  return {[](Draw &d) {
    Shape s = d.shape(3);
    if (s[0] == 0) s[0] = 2; // an empty batch: the tracer refuses what PyTorch fails on or
    if (s[1] == 0) s[1] = 2; // fills with NaN (tests/test_tracer.cpp checks the refusal)
    int64_t spatial = 1;
    for (std::size_t i = 2; i < s.size(); ++i)
      spatial *= s[i];
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, s);
    std::string w = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    std::string b = d.chance(50) ? d.tensor(dtype, {s[1]}) : "None";
    if (spatial >= 2 && d.chance(70))
      return "F.instance_norm(" + x + ", None, None, " + w + ", " + b +
             (d.chance(30) ? ", eps=1e-3" : "") + ")";
    if (spatial >= 2 && d.chance(40)) // the running statistics updated from the input's
      return "F.instance_norm(" + x + ", " + d.tensor(dtype, {s[1]}) + ", " +
             d.tensor(dtype, {s[1]}, "1..4") + ", " + w + ", " + b + ")";
    return "F.instance_norm(" + x + ", " + d.tensor(dtype, {s[1]}) + ", " +
           d.tensor(dtype, {s[1]}, "1..4") + ", " + w + ", " + b + ", use_input_stats=False)";
  }};
}

Recipe rms_norm() {
  Recipe r{[](Draw &d) {
    Shape s = d.shape(1);
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, s);
    std::vector<int64_t> n = normalized_shape(d, s);
    std::string w = d.chance(50) ? d.tensor(dtype, n) : "None";
    return "F.rms_norm(" + x + ", " + tuple_text(n) + ", " + w +
           (d.chance(50) ? ", eps=1e-6" : "") + ")";
  }};
  r.polyfill = true;
  return r;
}

// ---- shapes

// A shape of the same number of elements: s's dims shuffled, adjacent ones merged, ones put in,
// one of them -1 (where that is unambiguous); in one case of ten a shape drawn at random.
std::vector<int64_t> reshaped(Draw &d, const Shape &s) {
  if (d.chance(10)) return d.shape();
  std::vector<int64_t> dims = s;
  for (std::size_t i = 0; i + 1 < dims.size(); ++i)
    if (d.chance(30)) {
      dims[i] *= dims[i + 1];
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  std::shuffle(dims.begin(), dims.end(), std::mt19937_64(static_cast<uint64_t>(d.below(1000))));
  if (d.chance(30)) dims.insert(dims.begin() + d.below(static_cast<int>(dims.size()) + 1), 1);
  if (!dims.empty() && numel(s) != 0 && d.chance(40))
    dims[static_cast<std::size_t>(d.below(static_cast<int>(dims.size())))] = -1;
  return dims;
}

Recipe reshape(const std::string &method) {
  return {[=](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor(d.pick(kAnyDtype), s);
    std::string target = sizes(d, reshaped(d, s));
    if (method == "reshape" && d.chance(30))
      return "torch.reshape(" + a + ", " + tuple_text(reshaped(d, s)) + ")";
    return a + "." + method + "(" + target + ")";
  }};
}

Recipe transpose() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor("f32", s);
    return "torch.transpose(" + a + ", " + d.integer(d.axis(s.size())) + ", " +
           std::to_string(d.axis(s.size())) + ")";
  }};
}

Recipe permute() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::vector<int64_t> perm = d.permutation(s.size());
    if (d.chance(10)) perm.push_back(0);
    for (int64_t &p : perm)
      if (d.chance(30)) p -= static_cast<int64_t>(s.size());
    std::string a = d.tensor("f32", s);
    return d.chance(50) ? "torch.permute(" + a + ", " + tuple_text(perm) + ")"
                        : a + ".permute(" + sizes(d, perm) + ")";
  }};
}

Recipe unsqueeze() {
  return {[](Draw &d) {
    Shape s = d.shape(0, 4);
    int64_t r = static_cast<int64_t>(s.size());
    return "torch.unsqueeze(" + d.tensor("f32", s) + ", " +
           std::to_string(
               d.between(static_cast<int>(-r - 1), static_cast<int>(r + (d.chance(5) ? 1 : 0)))) +
           ")";
  }};
}

Recipe squeeze() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor("f32", s);
    return d.chance(30) ? "torch.squeeze(" + a + ")"
                        : "torch.squeeze(" + a + ", " + std::to_string(d.axis(s.size())) + ")";
  }};
}

Recipe flatten() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor("f32", s);
    if (d.chance(20)) return "torch.flatten(" + a + ")";
    return "torch.flatten(" + a + ", " + std::to_string(d.axis(s.size())) + ", " +
           std::to_string(d.axis(s.size())) + ")";
  }};
}

Recipe expand() {
  return {[](Draw &d) {
    Shape s = d.shape(0, 4);
    std::vector<int64_t> target;
    for (int i = d.below(3); i > 0; --i)
      target.push_back(d.dim());
    for (int64_t dim : s)
      target.push_back(d.chance(30) ? -1 : dim == 1 || d.chance(10) ? d.dim() : dim);
    return d.tensor("f32", s) + ".expand(" + sizes(d, target) + ")";
  }};
}

Recipe repeat() {
  return {[](Draw &d) {
    Shape s = d.shape(0, 4);
    std::vector<int64_t> times;
    std::size_t n =
        s.size() + static_cast<std::size_t>(d.below(2)) - (d.chance(10) && !s.empty() ? 1 : 0);
    for (std::size_t i = 0; i < n; ++i)
      times.push_back(d.pick<int64_t>({0, 1, 2, 3}));
    return d.tensor("f32", s) + ".repeat(" + sizes(d, times) + ")";
  }};
}

Recipe repeat_interleave() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor("f32", s);
    std::string repeats = d.integer(d.pick<int64_t>({0, 1, 2, 3}));
    if (d.chance(30)) return "torch.repeat_interleave(" + a + ", " + repeats + ")";
    return "torch.repeat_interleave(" + a + ", " + repeats +
           ", dim=" + std::to_string(d.axis(s.size())) + ")";
  }};
}

int64_t size_at(const Shape &s, int64_t axis) {
  int64_t r = static_cast<int64_t>(s.size());
  int64_t at = axis < 0 ? axis + r : axis;
  return at < 0 || at >= r ? 1 : s[static_cast<std::size_t>(at)]; // 1: a dim not there
}

// A window of 1 to the dim's size + 1 (over it now and then), a step of 1 to 4; a 0-d tensor
// now and then.
Recipe unfold() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string t = d.tensor(d.pick<std::string>({"f32", "i64"}), s);
    int64_t dim = s.empty() ? 0 : d.axis(s.size()), length = size_at(s, dim);
    return t + ".unfold(" + std::to_string(dim) + ", " +
           std::to_string(d.between(1, static_cast<int>(length) + 1)) + ", " +
           std::to_string(d.between(1, 4)) + ")";
  }};
}

Recipe split() {
  return {[](Draw &d) {
    Shape s = d.shape(1);
    int64_t axis = d.axis(s.size()), n = size_at(s, axis);
    std::string a = d.tensor("f32", s);
    if (d.chance(50))
      return "torch.split(" + a + ", " + d.integer(d.pick<int64_t>({1, 2, 3})) + ", " +
             std::to_string(axis) + ")";
    std::vector<int64_t> sections;
    for (int64_t left = n; left > 0;) {
      int64_t take = std::min<int64_t>(left, d.between(0, 3));
      sections.push_back(take);
      left -= take;
    }
    if (d.chance(10)) sections.push_back(1);
    return "torch.split(" + a + ", " + list_text(sections) + ", dim=" + std::to_string(axis) + ")";
  }};
}

Recipe chunk() {
  return {[](Draw &d) {
    Shape s = d.shape(1);
    return "torch.chunk(" + d.tensor("f32", s) + ", " + d.integer(d.pick<int64_t>({1, 2, 3, 4})) +
           ", " + std::to_string(d.axis(s.size())) + ")";
  }};
}

// Two shapes equal but at axis (for cat) or equal (for stack), and now and then not.
Recipe joined(const std::string &name) {
  return {[=](Draw &d) {
    Shape s = d.shape(name == "cat" ? 1 : 0);
    int64_t axis = name == "cat"
                       ? d.axis(s.size())
                       : d.between(-static_cast<int>(s.size()) - 1, static_cast<int>(s.size()));
    Shape t = s;
    int64_t at = axis < 0 ? axis + static_cast<int64_t>(t.size()) : axis;
    if (name == "cat" && at >= 0 && at < static_cast<int64_t>(t.size())) // in range: it may not be
      t[static_cast<std::size_t>(at)] = d.dim();
    if (d.chance(10)) t = d.shape();
    std::string dtype = d.pick<std::string>({"f32", "f32", "f64", "i64"});
    std::string a = d.tensor(dtype, s), b = d.tensor(d.chance(80) ? dtype : d.pick(kAnyDtype), t);
    return "torch." + name + "([" + a + ", " + b + "], " + std::to_string(axis) + ")";
  }};
}

Recipe flip() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::vector<int64_t> dims = d.permutation(s.size());
    dims.resize(static_cast<std::size_t>(d.below(static_cast<int>(dims.size()) + 1)));
    return "torch.flip(" + d.tensor("f32", s) + ", " + tuple_text(dims) + ")";
  }};
}

// A shift of the flattened tensor, or shifts over drawn dims (the counts now and then differ).
Recipe roll() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string t = d.tensor(d.pick<std::string>({"f32", "i64"}), s);
    if (d.chance(30)) return "torch.roll(" + t + ", " + d.integer(d.between(-7, 7)) + ")";
    std::vector<int64_t> dims = d.permutation(s.size()), shifts;
    dims.resize(
        static_cast<std::size_t>(d.between(s.empty() ? 0 : 1, static_cast<int>(dims.size()))));
    for (std::size_t i = 0; i < dims.size() + (d.chance(5) ? 1 : 0); ++i)
      shifts.push_back(d.between(-7, 7));
    return "torch.roll(" + t + ", " + d.value(tuple_text(shifts)) + ", " + tuple_text(dims) + ")";
  }};
}

Recipe unbind() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string t = d.tensor(d.pick<std::string>({"f32", "i64"}), s);
    if (d.chance(30)) return "torch.unbind(" + t + ")";
    return t + ".unbind(" + std::to_string(s.empty() ? 0 : d.axis(s.size())) + ")";
  }};
}

// Pads of -3..3 for up to rank + 1 dims (more than the rank now and then), an odd count now and
// then; a value now and then; another mode now and then.
// reflect, replicate and circular padding of 1 to 3 of the last dims, with a batch and channel
// dim (PyTorch 1.13's circular mode wants both) or, now and then, no batch; widths of 0 to 4
// (past the size now and then).
std::string border_pad(Draw &d) {
  std::string mode = d.pick<std::string>({"reflect", "replicate", "circular"});
  int dims = d.between(1, 3);
  int rank = dims + (mode == "circular" || d.chance(70) ? 2 : 1);
  std::vector<int64_t> pads;
  for (int i = 0; i < 2 * dims; ++i)
    pads.push_back(d.between(0, 4));
  return "F.pad(" + d.tensor(d.pick<std::string>({"f32", "f64"}), d.shape(rank, rank)) + ", " +
         tuple_text(pads) + ", mode='" + mode + "')";
}

Recipe pad() {
  return {[](Draw &d) {
    if (d.chance(40)) return border_pad(d);
    Shape s = d.shape();
    std::string dtype = d.pick<std::string>({"f32", "f64", "i64"});
    std::string t = d.tensor(dtype, s);
    std::vector<int64_t> pads;
    int pairs = d.between(0, static_cast<int>(s.size()) + (d.chance(5) ? 1 : 0));
    for (int i = 0; i < 2 * pairs + (d.chance(5) ? 1 : 0); ++i)
      pads.push_back(d.between(-3, 3));
    std::string call = "F.pad(" + t + ", " + d.value(tuple_text(pads));
    if (d.chance(30)) call += dtype == "i64" ? ", value=7" : ", value=-1.5";
    if (d.chance(3)) call += ", mode='reflect'";
    return call + ")";
  }};
}

// p of 1, 2, 3 or inf over one dim or a tuple of them.
Recipe normalize() {
  return {[](Draw &d) {
    Shape s = d.shape(1);
    std::string call = "F.normalize(" + d.tensor(d.pick<std::string>({"f32", "f64"}), s);
    if (d.chance(70)) call += ", p=" + d.pick<std::string>({"1", "2.0", "3", "float('inf')"});
    if (d.chance(70))
      call += ", dim=" +
              (d.chance(70) ? std::to_string(d.axis(s.size())) : dims_argument(d, s.size(), false));
    if (d.chance(30)) call += ", eps=0.5";
    return call + ")";
  }};
}

Recipe triangle(const std::string &name) {
  return {[=](Draw &d) {
    Shape s = d.shape(d.chance(95) ? 2 : 0);
    // PyTorch 1.13 (this test's libtorch) returns an empty tensor of rank < 2 as it is, where
    // 2.x refuses every rank < 2 as the tracer does: those draws get a non-empty shape.
    if (s.size() < 2)
      for (int64_t &size : s)
        size = std::max<int64_t>(size, 1);
    return "torch." + name + "(" + d.tensor(d.pick<std::string>({"f32", "i64", "b8"}), s) + ", " +
           d.integer(d.between(-3, 3)) + ")";
  }};
}

// A subscript key: ints, slices with steps, None, an Ellipsis, an int list.
std::string key(Draw &d, const Shape &s) {
  std::vector<std::string> parts;
  std::size_t dim = 0;
  bool ellipsis = false, listed = false; // one int list: the tracer indexes with no more
  int n = d.between(1, static_cast<int>(s.size()) + 1);
  for (int i = 0; i < n; ++i) {
    int kind = d.below(100);
    int64_t size = dim < s.size() ? s[dim] : 0;
    auto bound = [&] { return d.chance(30) ? std::string() : std::to_string(d.between(-6, 6)); };
    if (kind < 10) {
      parts.push_back("None");
      continue;
    }
    if (kind < 18 && !ellipsis) {
      ellipsis = true;
      parts.push_back("...");
      dim = s.size() - std::min(s.size(), static_cast<std::size_t>(n - i - 1));
      continue;
    }
    if (kind < 45 && (size > 0 || d.chance(10))) {
      parts.push_back(
          d.integer(size > 0 ? d.between(static_cast<int>(-size), static_cast<int>(size) - 1) : 0));
    } else if (kind < 52 && size > 0 && !listed) {
      listed = true;
      parts.push_back(
          "[" + std::to_string(d.between(static_cast<int>(-size), static_cast<int>(size) - 1)) +
          ", " + std::to_string(d.between(0, static_cast<int>(size) - 1)) + "]");
    } else {
      std::string step = d.chance(60) ? "" : ":" + std::to_string(d.between(1, 3));
      parts.push_back(bound() + ":" + bound() + step);
    }
    ++dim;
  }
  return parts.size() == 1 && d.chance(50) ? parts[0] : join(parts);
}

Recipe getitem() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string a = d.tensor("f32", s);
    return a + "[" + key(d, s) + "]";
  }};
}

// a[key] = value on a copy (the header's assigned()): a key as getitem's or a boolean mask, the
// value a number, a tensor shaped from a[key] (as is, with a size-1 dim, with a leading 1, of
// another dtype) or one drawn at random, which may not broadcast.
Recipe setitem() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string dtype = d.pick<std::string>({"f32", "f32", "i64", "b8"});
    std::string a = d.tensor(dtype, s);
    // A 0-d tensor takes a mask, None or ... (PyTorch writes through [:0] of one, but reads
    // through no slice of it); with a mask, a value dim other than 1 meets the count of its true
    // elements, data-dependent (the tracer refuses it): the value is one element then.
    bool mask = s.empty() ? d.chance(50) : d.chance(20);
    std::string k = mask        ? "(" + a + " > 0)"
                    : s.empty() ? d.pick<std::string>({"None", "...", "None, ..."})
                                : key(d, s);
    std::string selected = mask ? "torch.zeros_like(" + a + ")[" + k + "]" : a + "[" + k + "]";
    std::string value;
    switch (d.below(mask ? 5 : 7)) {
    case 0:
      value = d.pick<std::string>({"0", "2", "-1.5", "True"});
      break;
    case 1:
      value = mask ? d.tensor("f32", {}) : selected + " * 2";
      break;
    case 2:
      value = mask ? d.tensor("f32", {1}) : "torch.ones_like(" + selected + ")[None]";
      break;
    case 3:
      value = mask ? "3.0" : "(" + selected + " > 0)";
      break;
    case 4:
      value = mask ? "-2" : "torch.ones_like(" + selected + ", dtype=torch.float64)";
      break;
    default:
      value = d.tensor(d.pick<std::string>({"f32", "i64"}), d.shape(0, 2));
    }
    return "assigned(" + a + ".clone(), K[" + k + "], " + value + ")";
  }};
}

std::string index_range(int64_t size) {
  return "0.." + std::to_string(std::max<int64_t>(size, 1));
}

Recipe index_select() {
  return {[](Draw &d) {
    Shape s = d.shape();
    int64_t axis = d.axis(s.size()), n = size_at(s, axis);
    std::string a = d.tensor("f32", s);
    // Of a 0-d input PyTorch gives back the input, and for an empty index whatever its
    // uninitialised result holds: the index then has elements.
    int64_t length = n == 0 ? 0 : s.empty() ? d.pick<int64_t>({1, 2, 3}) : d.dim();
    std::string index = d.tensor("i64", {length}, index_range(n));
    return "torch.index_select(" + a + ", " + std::to_string(axis) + ", " + index + ")";
  }};
}

Recipe gather() {
  return {[](Draw &d) {
    Shape s = d.shape();
    int64_t axis = d.axis(s.size()), n = size_at(s, axis);
    Shape is = s;
    for (std::size_t i = 0; i < is.size(); ++i)
      is[i] = std::min<int64_t>(is[i], d.dim());
    int64_t at = axis < 0 ? axis + static_cast<int64_t>(is.size()) : axis;
    if (n == 0 && at >= 0 && at < static_cast<int64_t>(is.size()))
      is[static_cast<std::size_t>(at)] = 0;
    std::string a = d.tensor("f32", s);
    return "torch.gather(" + a + ", " + std::to_string(axis) + ", " +
           d.tensor("i64", is, index_range(n)) + ")";
  }};
}

// ---- linear algebra and nn

Recipe matmul() {
  return {[](Draw &d) {
    Shape a = d.shape(1, 4);
    Shape b;
    int64_t inner = a.back();
    if (d.chance(30)) {
      b = {d.chance(85) ? inner : d.dim()};
    } else {
      Shape batch(a.begin(), a.end() - 1);
      if (a.size() >= 2) batch.pop_back();
      b = d.partner(batch);
      if (b.size() > 2) b.resize(2);
      b.push_back(d.chance(85) ? inner : d.dim());
      b.push_back(d.dim());
    }
    std::string dtype = d.pick(kFloating);
    std::string x = d.tensor(dtype, a), y = d.tensor(dtype, b);
    return d.chance(30) ? x + " @ " + y : "torch.matmul(" + x + ", " + y + ")";
  }};
}

Recipe linear() {
  return {[](Draw &d) {
    Shape x = d.shape(1, 4);
    int64_t in = d.chance(90) ? x.back() : d.dim(), out = d.dim();
    std::string xs = d.tensor("f32", x), w = d.tensor("f32", {out, in});
    std::string b = d.chance(50) ? ", " + d.tensor("f32", {d.chance(90) ? out : d.dim()}) : "";
    return "F.linear(" + xs + ", " + w + b + ")";
  }};
}

// bmm: batches that now and then differ, inner sizes that now and then do not match.
Recipe bmm() {
  return {[](Draw &d) {
    int64_t b = d.dim(), n = d.dim(), m = d.dim(), p = d.dim();
    Shape x = {b, n, m}, y = {d.chance(85) ? b : d.dim(), d.chance(85) ? m : d.dim(), p};
    if (d.chance(5)) y.pop_back();
    std::string dtype = d.pick(kFloating);
    return "torch.bmm(" + d.tensor(dtype, x) + ", " + d.tensor(dtype, y) + ")";
  }};
}

Recipe outer() {
  return {[](Draw &d) {
    return "torch.outer(" + d.tensor("f32", {d.dim()}) + ", " +
           d.tensor(d.pick(kAnyDtype), {d.dim()}) + ")";
  }};
}

Recipe embedding() {
  return {[](Draw &d) {
    int64_t n = d.pick<int64_t>({1, 2, 3, 5});
    std::string idx = d.tensor("i64", d.shape(0, 3), index_range(n));
    std::string w = d.tensor("f32", {n, d.dim()});
    return "F.embedding(" + idx + ", " + w + ")";
  }};
}

Recipe sdpa() {
  Recipe r{[](Draw &d) {
    Shape batch = d.shape(1, 2);
    int64_t l = d.dim(), s = d.dim(), e = d.pick<int64_t>({1, 2, 3, 5}), ev = d.dim();
    auto with = [&](int64_t a, int64_t b) {
      Shape out = batch;
      out.push_back(a);
      out.push_back(b);
      return out;
    };
    std::string q = d.tensor("f32", with(l, e)), k = d.tensor("f32", with(s, e)),
                v = d.tensor("f32", with(s, ev));
    std::string call = "F.scaled_dot_product_attention(" + q + ", " + k + ", " + v;
    if (d.chance(30))
      call += ", attn_mask=" + d.tensor(d.pick<std::string>({"b8", "f32"}), d.partner({l, s}));
    else if (d.chance(40))
      call += ", is_causal=True";
    return call + ")";
  }};
  r.polyfill = true;
  return r;
}

Recipe classification_loss(const std::string &name) {
  return {[=](Draw &d) {
    int64_t classes = d.pick<int64_t>({1, 2, 3, 5});
    Shape input = d.chance(20)   ? Shape{classes}
                  : d.chance(70) ? Shape{d.dim(), classes}
                                 : Shape{d.dim(), classes, d.dim()};
    Shape target = input;
    target.erase(target.begin() + (input.size() == 1 ? 0 : 1));
    std::string x = d.tensor("f32", input), t = d.tensor("i64", target, index_range(classes));
    std::string call = "F." + name + "(" + x + ", " + t;
    if (d.chance(40)) call += ", reduction='" + d.pick<std::string>({"sum", "none", "mean"}) + "'";
    if (d.chance(20)) call += ", ignore_index=1";
    return call + ")";
  }};
}

Recipe mse_loss() {
  return {[](Draw &d) {
    Shape s = d.shape();
    std::string call = "F.mse_loss(" + d.tensor("f32", s) + ", " +
                       d.tensor("f32", d.chance(80) ? s : d.partner(s));
    if (d.chance(40)) call += ", reduction='" + d.pick<std::string>({"sum", "none", "mean"}) + "'";
    return call + ")";
  }};
}

Recipe dropout() {
  return {[](Draw &d) {
    std::string a = d.tensor(d.pick(kFloating), d.shape());
    return d.chance(50) ? "F.dropout(" + a + ", 0.5, training=False)"
                        : "F.dropout(" + a + ", p=0.0)";
  }};
}

// ---- factories

std::string dtype_kwarg(Draw &d) {
  return d.chance(30) ? ", dtype=torch." +
                            d.pick<std::string>({"float32", "float64", "int64", "int32", "bool"})
                      : "";
}

Recipe arange() {
  return {[](Draw &d) {
    if (d.chance(40)) return "torch.arange(" + d.integer(d.dim()) + dtype_kwarg(d) + ")";
    if (d.chance(50))
      return "torch.arange(" + d.integer(d.between(-3, 3)) + ", " + d.integer(d.between(-3, 6)) +
             ", " + d.integer(d.pick<int64_t>({1, 2, 3, -1})) + ")";
    return "torch.arange(" + d.pick<std::string>({"0.5", "-1.0", "0"}) + ", " +
           d.pick<std::string>({"3", "2.5"}) + ", " + d.pick<std::string>({"0.5", "1", "0.75"}) +
           ")";
  }};
}

Recipe filled(const std::string &name) {
  return {[=](Draw &d) {
    std::vector<int64_t> size = d.shape(0, 4);
    if (name == "full")
      return "torch.full(" + tuple_text(size) + ", " + d.pick<std::string>({"1.5", "2", "True"}) +
             dtype_kwarg(d) + ")";
    if (name == "empty")
      return "torch.zeros_like(torch.empty(" + sizes(d, size) + dtype_kwarg(d) + "))";
    return "torch." + name + "(" + sizes(d, size) + dtype_kwarg(d) + ")";
  }};
}

Recipe like(const std::string &name) {
  return {[=](Draw &d) {
    std::string a = d.tensor(d.pick(kAnyDtype), d.shape());
    std::string fill = name == "full_like" ? ", " + d.pick<std::string>({"1.5", "2", "False"}) : "";
    return "torch." + name + "(" + a + fill + dtype_kwarg(d) + ")";
  }};
}

std::string nested_data(Draw &d, const Shape &s, std::size_t at, const std::string &kind) {
  if (at == s.size()) {
    if (kind == "int") return std::to_string(d.between(-3, 3));
    if (kind == "bool") return d.chance(50) ? "True" : "False";
    return std::to_string(d.between(-6, 6)) + ".5";
  }
  std::vector<std::string> items;
  for (int64_t i = 0; i < s[at]; ++i)
    items.push_back(nested_data(d, s, at + 1, kind));
  return "[" + join(items) + "]";
}

Recipe tensor_factory() {
  return {[](Draw &d) {
    Shape s = d.shape(0, 3);
    if (std::find(s.begin(), s.end(), 0) != s.end()) s = {};
    return "torch.tensor(" + nested_data(d, s, 0, d.pick<std::string>({"int", "float", "bool"})) +
           dtype_kwarg(d) + ")";
  }};
}

} // namespace

Shape Draw::shape(int min_rank, int max_rank) {
  Shape s(static_cast<std::size_t>(between(min_rank, max_rank)));
  for (int64_t &d : s)
    d = dim();
  return s;
}

Shape Draw::partner(const Shape &s) {
  if (chance(12)) return shape();
  std::size_t rank = static_cast<std::size_t>(between(0, 5));
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    // Right-aligned with s: its dim, 1, or (where s has 1 or nothing) any dim.
    std::size_t from_end = rank - 1 - i;
    bool aligned = from_end < s.size();
    int64_t theirs = aligned ? s[s.size() - 1 - from_end] : 1;
    out[i] = chance(30) ? 1 : theirs == 1 ? dim() : theirs;
  }
  return out;
}

int64_t Draw::axis(std::size_t rank) {
  if (rank == 0) return chance(50) ? 0 : -1;
  int64_t r = static_cast<int64_t>(rank), a = below(static_cast<int>(rank));
  if (chance(3)) return r; // out of range
  return chance(50) ? a - r : a;
}

std::vector<int64_t> Draw::permutation(std::size_t rank) {
  std::vector<int64_t> out(rank);
  std::iota(out.begin(), out.end(), 0);
  for (std::size_t i = rank; i > 1; --i)
    std::swap(out[i - 1], out[static_cast<std::size_t>(below(static_cast<int>(i)))]);
  return out;
}

std::string Draw::tensor(const std::string &dtype, const Shape &s, const std::string &range) {
  std::string name = "t" + std::to_string(args.size());
  std::string text = dtype + shape_text(s);
  bool integral = !is_floating(dtype) && dtype != "b8";
  if (integral)
    text += ":" + (range.empty() ? std::string(dtype == "u8" ? "0..4" : "-3..4") : range);
  args.push_back({name, text});
  return name;
}

std::string Draw::value(const std::string &literal) {
  std::string name = "n" + std::to_string(args.size());
  args.push_back({name, literal});
  return name;
}

std::string Draw::integer(int64_t v) {
  return chance(50) ? value(std::to_string(v)) : std::to_string(v);
}

std::string shape_text(const Shape &s) {
  return list_text(s);
}

std::string tuple_text(const std::vector<int64_t> &xs) {
  if (xs.size() == 1) return "(" + std::to_string(xs[0]) + ",)";
  std::vector<std::string> parts;
  for (int64_t x : xs)
    parts.push_back(std::to_string(x));
  return "(" + join(parts) + ")";
}

const std::map<std::string, Recipe> &shape_recipes() {
  static const std::map<std::string, Recipe> recipes = [] {
    Operands numeric, divisor, power, tensors, integral;
    divisor.nonnegative = true;
    divisor.dtypes = kNumeric;
    power.nonnegative = true;
    power.dtypes = kNumeric;
    tensors.numbers = false;
    integral.dtypes = kIntegral;
    std::map<std::string, Recipe> r;
    r["ltorch.add"] = binary("add", "+");
    r["ltorch.sub"] = binary("sub", "-");
    r["ltorch.mul"] = binary("mul", "*");
    r["ltorch.true_divide"] = binary("true_divide", "/", divisor);
    r["ltorch.div"] = {[](Draw &d) {
      Operands o;
      o.nonnegative = true;
      o.dtypes = kNumeric;
      std::string mode = d.pick<std::string>({"None", "'trunc'", "'floor'"});
      return binary("div", "", o, ", rounding_mode=" + mode).draw(d);
    }};
    r["ltorch.floor_divide"] = binary("floor_divide", "//", divisor);
    r["ltorch.remainder"] = binary("remainder", "%", divisor);
    r["ltorch.pow"] = binary("pow", "**", power);
    r["ltorch.maximum"] = binary("maximum", "", tensors);
    r["ltorch.minimum"] = binary("minimum", "", tensors);
    for (auto [name, op] : {std::pair<const char *, const char *>{"eq", "=="},
                            {"ne", "!="},
                            {"lt", "<"},
                            {"le", "<="},
                            {"gt", ">"},
                            {"ge", ">="}})
      r[std::string("ltorch.") + name] = binary(name, op);
    r["ltorch.logical_and"] = binary("logical_and");
    r["ltorch.logical_or"] = binary("logical_or");
    r["ltorch.bitwise_and"] = binary("bitwise_and", "&", integral);
    r["ltorch.bitwise_or"] = binary("bitwise_or", "|", integral);
    r["ltorch.logical_not"] = unary("torch.logical_not");
    r["ltorch.bitwise_not"] = unary("torch.bitwise_not", kIntegral);
    for (const char *name : {"neg", "exp", "log", "log1p", "expm1", "tanh", "rsqrt", "sqrt", "sin",
                             "cos", "erf", "sigmoid", "relu"})
      r[std::string("ltorch.") + name] = unary(std::string("torch.") + name);
    r["ltorch.abs"] = unary("torch.abs", kNumeric);
    r["ltorch.floor"] = unary("torch.floor", kNumeric);
    r["ltorch.silu"] = unary("F.silu", kFloating);
    for (const char *name : {"selu", "relu6", "hardsigmoid", "hardswish", "mish", "softsign",
                             "tanhshrink", "logsigmoid"})
      r[std::string("ltorch.") + name] = unary(std::string("F.") + name, kFloating);
    // The activations with a number parameter: given or not, positionally or by keyword.
    auto with_number = [](std::string call, std::string keyword,
                          std::vector<std::string> values) -> Recipe {
      return {[=](Draw &d) {
        std::string x = d.tensor(d.pick(kFloating), d.shape());
        if (d.chance(30)) return call + "(" + x + ")";
        std::string value = d.pick(values);
        return call + "(" + x + ", " + (d.chance(50) ? keyword + "=" : "") + value + ")";
      }};
    };
    r["ltorch.leaky_relu"] = with_number("F.leaky_relu", "negative_slope", {"0.2", "0.0", "1"});
    r["ltorch.elu"] = with_number("F.elu", "alpha", {"0.5", "2.0", "1"});
    r["ltorch.celu"] = with_number("F.celu", "alpha", {"0.5", "2.0", "3"});
    r["ltorch.hardtanh"] = {[](Draw &d) {
      std::string x = d.tensor(d.pick(kFloating), d.shape());
      if (d.chance(30)) return "F.hardtanh(" + x + ")";
      return "F.hardtanh(" + x + ", " + d.pick<std::string>({"-0.5, 2.0", "0.0, 6.0", "-3, 3"}) +
             ")";
    }};
    r["ltorch.softplus"] = {[](Draw &d) {
      std::string x = d.tensor(d.pick(kFloating), d.shape());
      if (d.chance(40)) return "F.softplus(" + x + ")";
      return "F.softplus(" + x + ", beta=" + d.pick<std::string>({"0.5", "2", "1.0"}) +
             ", threshold=" + d.pick<std::string>({"1.0", "20", "0.5"}) + ")";
    }};
    r["ltorch.gelu"] = {[](Draw &d) {
      std::string a = d.tensor(d.pick(kFloating), d.shape());
      return d.chance(50) ? "F.gelu(" + a + ")" : "F.gelu(" + a + ", approximate='tanh')";
    }};
    r["ltorch.clamp"] = clamp();
    r["ltorch.where"] = where();
    r["ltorch.masked_fill"] = masked_fill();
    r["ltorch.to"] = conversion();
    r["ltorch.type_as"] = type_as();
    r["ltorch.sum"] = reduction("sum", kAnyDtype, true);
    r["ltorch.mean"] = reduction("mean", kFloating, true);
    r["ltorch.prod"] = {[](Draw &d) {
      // torch.prod takes one dim or none, not a tuple.
      Shape s = d.shape();
      std::string a = d.tensor(d.pick(kAnyDtype), s);
      if (d.chance(30)) return "torch.prod(" + a + dtype_kwarg(d) + ")";
      return "torch.prod(" + a + ", " + std::to_string(d.axis(s.size())) +
             (d.chance(50) ? ", keepdim=True" : "") + ")";
    }};
    r["ltorch.amax"] = reduction("amax", kAnyDtype, false, false);
    r["ltorch.amin"] = reduction("amin", kAnyDtype, false, false);
    r["ltorch.var"] = spread("var");
    r["ltorch.std"] = spread("std");
    r["ltorch.logsumexp"] = logsumexp();
    r["ltorch.argmax"] = arg_reduction("argmax");
    r["ltorch.argmin"] = arg_reduction("argmin");
    r["ltorch.softmax"] = softmax("softmax");
    r["ltorch.log_softmax"] = softmax("log_softmax");
    r["ltorch.layer_norm"] = layer_norm();
    r["ltorch.rms_norm"] = rms_norm();
    r["ltorch.group_norm"] = group_norm();
    r["ltorch.batch_norm"] = batch_norm();
    r["ltorch.instance_norm"] = instance_norm();
    for (int rank = 1; rank <= 3; ++rank) {
      r["ltorch.conv" + std::to_string(rank) + "d"] = convolution("conv", rank);
      r["ltorch.conv_transpose" + std::to_string(rank) + "d"] = convolution("conv_transpose", rank);
    }
    r["ltorch.convolution"] = convolution("convolution", 2);
    r["ltorch.interpolate"] = interpolate();
    r["ltorch.pixel_shuffle"] = pixel_shuffle(false);
    r["ltorch.pixel_unshuffle"] = pixel_shuffle(true);
    for (int rank = 1; rank <= 3; ++rank) {
      r["ltorch.max_pool" + std::to_string(rank) + "d"] = pooling("max_pool", rank);
      r["ltorch.avg_pool" + std::to_string(rank) + "d"] = pooling("avg_pool", rank);
    }
    for (int rank = 1; rank <= 2; ++rank) {
      r["ltorch.adaptive_avg_pool" + std::to_string(rank) + "d"] =
          pooling("adaptive_avg_pool", rank);
      r["ltorch.adaptive_max_pool" + std::to_string(rank) + "d"] =
          pooling("adaptive_max_pool", rank);
    }
    r["ltorch.reshape"] = reshape("reshape");
    r["ltorch.view"] = reshape("view");
    r["ltorch.contiguous"] = {[](Draw &d) { return d.tensor("f32", d.shape()) + ".contiguous()"; }};
    r["ltorch.transpose"] = transpose();
    r["ltorch.permute"] = permute();
    r["ltorch.unsqueeze"] = unsqueeze();
    r["ltorch.squeeze"] = squeeze();
    r["ltorch.flatten"] = flatten();
    r["ltorch.expand"] = expand();
    r["ltorch.repeat"] = repeat();
    r["ltorch.repeat_interleave"] = repeat_interleave();
    r["ltorch.split"] = split();
    r["ltorch.chunk"] = chunk();
    r["ltorch.cat"] = joined("cat");
    r["ltorch.stack"] = joined("stack");
    r["ltorch.flip"] = flip();
    r["ltorch.roll"] = roll();
    r["ltorch.unbind"] = unbind();
    r["ltorch.unfold"] = unfold();
    r["ltorch.pad"] = pad();
    r["ltorch.normalize"] = normalize();
    r["ltorch.tril"] = triangle("tril");
    r["ltorch.triu"] = triangle("triu");
    r["ltorch.getitem"] = getitem();
    r["ltorch.setitem"] = setitem();
    r["ltorch.index_select"] = index_select();
    r["ltorch.gather"] = gather();
    r["ltorch.matmul"] = matmul();
    r["ltorch.linear"] = linear();
    r["ltorch.outer"] = outer();
    r["ltorch.bmm"] = bmm();
    r["ltorch.embedding"] = embedding();
    r["ltorch.scaled_dot_product_attention"] = sdpa();
    r["ltorch.cross_entropy"] = classification_loss("cross_entropy");
    r["ltorch.nll_loss"] = classification_loss("nll_loss");
    r["ltorch.mse_loss"] = mse_loss();
    r["ltorch.dropout"] = dropout();
    r["ltorch.arange"] = arange();
    for (const char *name : {"full", "zeros", "ones", "empty"})
      r[std::string("ltorch.") + name] = filled(name);
    for (const char *name : {"full_like", "zeros_like", "ones_like"})
      r[std::string("ltorch.") + name] = like(name);
    r["ltorch.tensor"] = tensor_factory();
    return r;
  }();
  return recipes;
}

} // namespace test
