// The libtorch implementation of every symbol of the op registry (symbols.def), keyed by its
// id: the executor runs prims with them, and the eager run runs ltorch symbols with them, as
// torch itself computes each op (not as its decomposition). Each family (prologue checks,
// elementwise, shapes, reductions, indexing, torch.nn.functional, factories) is a table of
// {symbol, implementation}; kFamilies registers them all, and a static_assert fails the build
// when a symbol of the registry has no implementation or two.
#include "runtime.hpp"

#include "tracelint/core/value.hpp"
#include "tracelint/tracer/interpreter.hpp" // NumOp
#include "tracelint/tracer/python_numbers.hpp"

#include <ATen/ScalarOps.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <functional>
#include <numeric>
#include <span>
#include <utility>

namespace tracelint::tracer {

namespace {

// The arguments of one call, in the symbol's schema order.
class Args {
public:
  Args(const RtValue *const *values, std::size_t n, const ExecOptions &options)
      : values_(values), n_(n), options_(options) {}
  const RtValue &operator[](std::size_t i) const {
    if (i >= n_) throw ExecError("missing argument " + std::to_string(i + 1));
    return *values_[i];
  }
  std::size_t size() const { return n_; }
  const ExecOptions &options() const { return options_; }
  const at::Tensor &t(std::size_t i) const { return tensor_arg((*this)[i], "an argument"); }
  bool none(std::size_t i) const { return i >= n_ || (*this)[i].kind == RtValue::Kind::None; }
  int64_t i(std::size_t k) const {
    const RtValue &v = (*this)[k];
    if (v.kind != RtValue::Kind::Int && v.kind != RtValue::Kind::Bool)
      throw ExecError("expected an int, got " + describe(v));
    return v.integer;
  }
  bool b(std::size_t k) const {
    return (*this)[k].kind == RtValue::Kind::Bool ? (*this)[k].boolean : i(k) != 0;
  }
  // An optional int or tensor argument (None or left out: none).
  c10::optional<int64_t> i_opt(std::size_t k) const {
    if (none(k)) return c10::nullopt;
    return i(k);
  }
  c10::optional<at::Tensor> t_opt(std::size_t k) const {
    if (none(k)) return c10::nullopt;
    return t(k);
  }
  double d(std::size_t k) const { return as_double((*this)[k]); }
  const std::string &s(std::size_t k) const { return (*this)[k].text; }
  IntList ints(std::size_t k) const { return int_list((*this)[k]); }
  at::ScalarType dtype(std::size_t k) const { return scalar_type((*this)[k].text); }
  c10::optional<at::ScalarType> dtype_opt(std::size_t k) const {
    if (none(k)) return c10::nullopt;
    return dtype(k);
  }
  at::Device device(std::size_t k) const {
    if (none(k)) return at::kCPU;
    std::string spec = (*this)[k].text;
    if (spec.rfind("cuda", 0) == 0 && options_.cuda_as_cpu) return at::kCPU;
    return at::Device(spec == "cuda" ? "cuda:0" : spec);
  }
  // The device of the first tensor argument (CPU when none).
  at::Device tensor_device() const {
    for (std::size_t k = 0; k < n_; ++k)
      if (values_[k]->kind == RtValue::Kind::Tensor) return values_[k]->tensor.device();
    return at::kCPU;
  }
  // A tensor, or a number as a wrapped tensor next to the tensors.
  at::Tensor tn(std::size_t k) const { return as_tensor((*this)[k], tensor_device()); }
  at::Scalar scalar(std::size_t k) const { return as_scalar((*this)[k]); }
  bool is_tensor(std::size_t k) const { return (*this)[k].kind == RtValue::Kind::Tensor; }
  std::vector<at::Tensor> tensors(std::size_t k) const {
    std::vector<at::Tensor> out;
    for (const RtValue &v : (*this)[k].items)
      out.push_back(tensor_arg(v, "each element"));
    return out;
  }

private:
  const RtValue *const *values_;
  std::size_t n_;
  const ExecOptions &options_;
};

RtValue tensor(at::Tensor t) {
  return RtValue::of_tensor(std::move(t));
}

RtValue tuple_of(const std::vector<at::Tensor> &ts) {
  std::vector<RtValue> out;
  for (const at::Tensor &t : ts)
    out.push_back(RtValue::of_tensor(t));
  return RtValue::of_tuple(std::move(out));
}

// ---- numbers (the number prims of a trace: sizes, guards), by Python's rules

// The number, or the error as the run's: CPython's exception by its class and message.
RtValue value_or_throw(const NumberResult &r) {
  if (!r.ok())
    throw ExecError(r.error().python_class.empty()
                        ? r.error().message
                        : r.error().python_class + ": " + r.error().message);
  const Number &n = r.value();
  return n.is_float()                   ? RtValue::of_float(n.real)
         : n.kind == Number::Kind::Bool ? RtValue::of_bool(n.integer != 0)
                                        : RtValue::of_int(n.integer);
}

// The Python operator or math function a number prim computes: the tracer records `a + b` of
// numbers as prims.add, math.exp(x) as prims.exp, and computed them by python_numbers.hpp's
// rules, as the executor must. The prims not here are no Python operation (prims.div
// truncates ints, prims.floor of a float is a float).
constexpr std::pair<Sym, NumOp> kPythonNumberOps[] = {
    {Sym::prims_add, NumOp::add},
    {Sym::prims_sub, NumOp::sub},
    {Sym::prims_mul, NumOp::mul},
    {Sym::prims_pow, NumOp::pow},
    {Sym::prims_lt, NumOp::lt},
    {Sym::prims_le, NumOp::le},
    {Sym::prims_gt, NumOp::gt},
    {Sym::prims_ge, NumOp::ge},
    {Sym::prims_eq, NumOp::eq},
    {Sym::prims_ne, NumOp::ne},
    {Sym::prims_bitwise_and, NumOp::bitwise_and},
    {Sym::prims_bitwise_or, NumOp::bitwise_or},
    {Sym::prims_bitwise_xor, NumOp::bitwise_xor},
    {Sym::prims_neg, NumOp::neg},
    {Sym::prims_abs, NumOp::abs},
    {Sym::prims_exp, NumOp::exp},
    {Sym::prims_log, NumOp::log},
    {Sym::prims_sqrt, NumOp::sqrt},
    {Sym::prims_sin, NumOp::sin},
    {Sym::prims_cos, NumOp::cos},
    {Sym::prims_tanh, NumOp::tanh},
};

std::optional<NumOp> python_number_op_of(Sym s) {
  for (const auto &[prim, op] : kPythonNumberOps)
    if (prim == s) return op;
  return std::nullopt;
}

RtValue number_binary(Sym s, const RtValue &a, const RtValue &b) {
  Number x = number_held(a), y = number_held(b);
  if (std::optional<NumOp> op = python_number_op_of(s))
    return value_or_throw(python_number_op(*op, x, y));
  bool floats = x.is_float() || y.is_float();
  switch (s) {
  case Sym::prims_div: // truncating for ints, as Thunder's prims.div
    return value_or_throw(floats ? python_number_op(NumOp::truediv, x, y)
                                 : truncating_division(x.integer, y.integer));
  case Sym::prims_fmod:
    return value_or_throw(python_fmod(x.as_double(), y.as_double()));
  case Sym::prims_maximum:
    return floats ? RtValue::of_float(std::max(x.as_double(), y.as_double()))
                  : RtValue::of_int(std::max(x.integer, y.integer));
  case Sym::prims_minimum:
    return floats ? RtValue::of_float(std::min(x.as_double(), y.as_double()))
                  : RtValue::of_int(std::min(x.integer, y.integer));
  default:
    throw ExecError(qualified_name(s) + " of two numbers is not supported");
  }
}

// The number prims of one float whose result is no Python function's: Thunder's prims.floor
// of a float is a float (math.floor's is an int).
constexpr std::pair<Sym, double (*)(double)> kFloatPrims[] = {
    {Sym::prims_floor, [](double x) { return std::floor(x); }},
    {Sym::prims_ceil, [](double x) { return std::ceil(x); }},
    {Sym::prims_trunc, [](double x) { return std::trunc(x); }},
    {Sym::prims_log1p, [](double x) { return std::log1p(x); }},
    {Sym::prims_expm1, [](double x) { return std::expm1(x); }},
    {Sym::prims_rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
    {Sym::prims_erf, [](double x) { return std::erf(x); }},
    {Sym::prims_reciprocal, [](double x) { return 1.0 / x; }},
};

RtValue number_unary(Sym s, const RtValue &a) {
  if (std::optional<NumOp> op = python_number_op_of(s))
    return value_or_throw(python_number_op(*op, number_held(a)));
  double x = as_double(a);
  for (const auto &[prim, function] : kFloatPrims)
    if (prim == s) return RtValue::of_float(function(x));
  if (s == Sym::prims_signbit) return RtValue::of_bool(std::signbit(x));
  if (s == Sym::prims_isfinite) return RtValue::of_bool(std::isfinite(x));
  if (s == Sym::prims_bitwise_not)
    return a.kind == RtValue::Kind::Bool ? RtValue::of_bool(!a.boolean)
                                         : RtValue::of_int(~a.integer);
  throw ExecError(qualified_name(s) + " of a number is not supported");
}

// int(x), float(x) and bool(x) of a number, as the tracer computed them when it recorded the
// conversion.
RtValue converted_number(const RtValue &x, const std::string &type) {
  if (type == "int") return value_or_throw(python_number_op(NumOp::to_int, number_held(x)));
  if (type == "float") return value_or_throw(python_number_op(NumOp::to_float, number_held(x)));
  return RtValue::of_bool(as_double(x) != 0);
}

at::Tensor unary_tensor(Sym s, const at::Tensor &t) {
  switch (s) {
  case Sym::prims_neg:
    return at::neg(t);
  case Sym::prims_abs:
    return at::abs(t);
  case Sym::prims_exp:
    return at::exp(t);
  case Sym::prims_log:
    return at::log(t);
  case Sym::prims_log1p:
    return at::log1p(t);
  case Sym::prims_expm1:
    return at::expm1(t);
  case Sym::prims_tanh:
    return at::tanh(t);
  case Sym::prims_rsqrt:
    return at::rsqrt(t);
  case Sym::prims_sqrt:
    return at::sqrt(t);
  case Sym::prims_sin:
    return at::sin(t);
  case Sym::prims_cos:
    return at::cos(t);
  case Sym::prims_erf:
    return at::erf(t);
  case Sym::prims_floor:
    return at::floor(t);
  case Sym::prims_ceil:
    return at::ceil(t);
  case Sym::prims_trunc:
    return at::trunc(t);
  case Sym::prims_signbit:
    return at::signbit(t);
  case Sym::prims_reciprocal:
    return at::reciprocal(t);
  case Sym::prims_bitwise_not:
    return at::bitwise_not(t);
  case Sym::prims_isfinite:
    return at::isfinite(t);
  default:
    throw ExecError(qualified_name(s) + " is not unary");
  }
}

at::Tensor binary_tensor(Sym s, const at::Tensor &a, const at::Tensor &b) {
  switch (s) {
  case Sym::prims_add:
    return at::add(a, b);
  case Sym::prims_sub:
    return at::sub(a, b);
  case Sym::prims_mul:
    return at::mul(a, b);
  case Sym::prims_div:
    // Thunder's prims.div truncates integers (C's division), divides floats.
    return at::isIntegralType(a.scalar_type(), true) && at::isIntegralType(b.scalar_type(), true)
               ? at::div(a, b, "trunc")
               : at::div(a, b);
  case Sym::prims_pow:
    return at::pow(a, b);
  case Sym::prims_fmod:
    return at::fmod(a, b);
  case Sym::prims_maximum:
    return at::maximum(a, b);
  case Sym::prims_minimum:
    return at::minimum(a, b);
  case Sym::prims_eq:
    return at::eq(a, b);
  case Sym::prims_ne:
    return at::ne(a, b);
  case Sym::prims_lt:
    return at::lt(a, b);
  case Sym::prims_le:
    return at::le(a, b);
  case Sym::prims_gt:
    return at::gt(a, b);
  case Sym::prims_ge:
    return at::ge(a, b);
  case Sym::prims_bitwise_and:
    return at::bitwise_and(a, b);
  case Sym::prims_bitwise_or:
    return at::bitwise_or(a, b);
  case Sym::prims_bitwise_xor:
    return at::bitwise_xor(a, b);
  default:
    throw ExecError(qualified_name(s) + " is not binary");
  }
}

// prims.stride_order(a, order): a copy whose strides rank as `order` says (0 the densest dim):
// laid out contiguously in the order's permutation, then permuted back.
at::Tensor stride_ordered(const at::Tensor &t, const IntList &order) {
  IntList densest_last(order.size());
  std::iota(densest_last.begin(), densest_last.end(), 0);
  std::sort(densest_last.begin(), densest_last.end(), [&](int64_t x, int64_t y) {
    return order[static_cast<std::size_t>(x)] > order[static_cast<std::size_t>(y)];
  });
  IntList back(order.size());
  for (std::size_t k = 0; k < densest_last.size(); ++k)
    back[static_cast<std::size_t>(densest_last[k])] = static_cast<int64_t>(k);
  return t.permute(densest_last).contiguous().permute(back);
}

at::Tensor reduce_all(const at::Tensor &t, const IntList &dims,
                      at::Tensor (*one)(const at::Tensor &, int64_t)) {
  at::Tensor out = t;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it)
    out = one(out, *it);
  return out;
}

IntList all_dims(const at::Tensor &t) {
  IntList out;
  for (int64_t d = 0; d < t.dim(); ++d)
    out.push_back(d);
  return out;
}

// A reduction's dims argument: None or () is every dim.
IntList dims_arg(const Args &a, std::size_t k, const at::Tensor &t) {
  if (a.none(k)) return all_dims(t);
  const RtValue &v = a[k];
  if (v.kind == RtValue::Kind::Int) return IntList{v.integer};
  IntList dims = int_list(v);
  return dims.empty() ? all_dims(t) : dims;
}

int64_t reduction_of(const std::string &how) {
  if (how == "none") return at::Reduction::None;
  if (how == "sum") return at::Reduction::Sum;
  if (how == "mean") return at::Reduction::Mean;
  throw ExecError(how + " is not a valid value for reduction");
}

// Python numbers nested in lists, flattened, with the shape.
void flatten_numbers(const RtValue &v, std::vector<double> &values, std::vector<int64_t> &ints,
                     std::vector<int64_t> &shape, std::size_t depth) {
  if (v.kind == RtValue::Kind::Tuple || v.kind == RtValue::Kind::List) {
    if (shape.size() == depth) shape.push_back(static_cast<int64_t>(v.items.size()));
    for (const RtValue &item : v.items)
      flatten_numbers(item, values, ints, shape, depth + 1);
    return;
  }
  if (!is_number(v)) throw ExecError("tensor_from_sequence: " + describe(v) + " is not a number");
  values.push_back(as_double(v));
  ints.push_back(v.kind == RtValue::Kind::Float ? static_cast<int64_t>(v.real) : v.integer);
}

std::vector<at::indexing::TensorIndex> tensor_indices(const RtValue &key,
                                                      const at::Device &device) {
  std::vector<RtValue> entries =
      key.kind == RtValue::Kind::Tuple ? key.items : std::vector<RtValue>{key};
  std::vector<at::indexing::TensorIndex> index;
  for (const RtValue &e : entries) {
    switch (e.kind) {
    case RtValue::Kind::Int:
    case RtValue::Kind::Bool:
      index.emplace_back(e.integer);
      break;
    case RtValue::Kind::None:
      index.emplace_back(at::indexing::None);
      break;
    case RtValue::Kind::Ellipsis:
      index.emplace_back(at::indexing::Ellipsis);
      break;
    case RtValue::Kind::Slice: {
      auto part = [](const RtValue &p) -> c10::optional<int64_t> {
        if (p.kind == RtValue::Kind::None) return c10::nullopt;
        return p.integer;
      };
      index.emplace_back(at::indexing::Slice(part(e.items[0]), part(e.items[1]), part(e.items[2])));
      break;
    }
    case RtValue::Kind::List:
    case RtValue::Kind::Tuple: {
      std::vector<int64_t> values;
      for (const RtValue &i : e.items)
        values.push_back(i.integer);
      index.emplace_back(at::tensor(values, at::TensorOptions().dtype(at::kLong)).to(device));
      break;
    }
    case RtValue::Kind::Tensor:
      index.emplace_back(e.tensor);
      break;
    default:
      throw ExecError("unsupported index " + describe(e));
    }
  }
  return index;
}

// scaled_dot_product_attention as PyTorch documents it (libtorch 1.13 has no public one).
at::Tensor attention(const Args &a) {
  at::Tensor q = a.t(0), k = a.t(1), v = a.t(2);
  if (a.d(4) != 0) throw ExecError("scaled_dot_product_attention with dropout_p > 0 is random");
  if (!a.none(7) && a.b(7) && q.dim() >= 3) {
    int64_t groups = q.size(-3) / k.size(-3);
    k = k.repeat_interleave(groups, -3);
    v = v.repeat_interleave(groups, -3);
  }
  double scale = a.none(6) ? 1.0 / std::sqrt(static_cast<double>(q.size(-1))) : a.d(6);
  at::Tensor scores = at::matmul(q, k.transpose(-2, -1)) * scale;
  int64_t L = q.size(-2), S = k.size(-2);
  if (a.b(5)) {
    at::Tensor causal = at::ones({L, S}, q.options().dtype(at::kBool)).tril();
    scores = scores.masked_fill(causal.logical_not(), -INFINITY);
  } else if (!a.none(3)) {
    const at::Tensor &mask = a.t(3);
    scores = mask.scalar_type() == at::kBool ? scores.masked_fill(mask.logical_not(), -INFINITY)
                                             : scores + mask;
  }
  return at::matmul(at::softmax(scores, -1), v);
}

at::TensorOptions factory_options(const Args &a, std::size_t dtype, std::size_t device,
                                  at::ScalarType fallback) {
  return at::TensorOptions().dtype(a.dtype_opt(dtype).value_or(fallback)).device(a.device(device));
}

at::ScalarType number_type(const RtValue &v) {
  if (v.kind == RtValue::Kind::Bool) return at::kBool;
  if (v.kind == RtValue::Kind::Float) return at::kFloat;
  return at::kLong;
}

RtValue check_metadata(Sym, const Args &a) {
  const ExecOptions &options = a.options();
  const at::Tensor &t = a.t(0);
  IntList shape = a.ints(1);
  std::string device = device_name(t.device());
  std::string expected_device = a.s(2);
  if (options.cuda_as_cpu && expected_device.rfind("cuda", 0) == 0) expected_device = "cpu";
  if (!t.sizes().equals(shape) || device != expected_device ||
      dtype_name(t.scalar_type()) != a.s(3))
    throw ExecError("check failed: got " + describe(a[0]) + " on " + device + ", expected " +
                    a.s(3) + " of rank " + std::to_string(shape.size()) + " on " + a.s(2));
  if (!a.none(4) && t.requires_grad() != a.b(4))
    throw ExecError(std::string("check failed: got a tensor with requires_grad=") +
                    (t.requires_grad() ? "True" : "False") +
                    ", expected requires_grad=" + (a.b(4) ? "True" : "False"));
  return {};
}

// A parameter or buffer of the traced module reaches the computation as the printer's
// fn.get_parameter(...), never as this prim.
RtValue unpacked_by_the_printer(Sym s, const Args &) {
  throw ExecError(qualified_name(s) + " is printed as fn.get_parameter(...) and runs as that");
}

// ---- what symbols of several families share

at::Tensor squeezed(at::Tensor t, const IntList &dims) {
  for (auto it = dims.rbegin(); it != dims.rend(); ++it)
    t = t.squeeze(*it);
  return t;
}

// A tensor of nested Python numbers, made from doubles or int64s, then of `dtype` on `device`.
at::Tensor tensor_of_numbers(const RtValue &nested, bool from_doubles, at::ScalarType dtype,
                             const at::Device &device) {
  std::vector<double> values;
  std::vector<int64_t> ints, shape;
  flatten_numbers(nested, values, ints, shape, 0);
  at::Tensor t = from_doubles ? at::tensor(values, at::TensorOptions().dtype(at::kDouble))
                              : at::tensor(ints, at::TensorOptions().dtype(at::kLong));
  return t.reshape(shape).to(dtype).to(device);
}

// torch.tensor's dtype for nested numbers: bool if all are bools, float if any is a float,
// int64 otherwise.
at::ScalarType inferred_dtype(const RtValue &nested) {
  bool floats = false, bools = true;
  std::function<void(const RtValue &)> scan = [&](const RtValue &v) {
    if (v.kind == RtValue::Kind::Tuple || v.kind == RtValue::Kind::List) {
      for (const RtValue &i : v.items)
        scan(i);
      return;
    }
    floats = floats || v.kind == RtValue::Kind::Float;
    bools = bools && v.kind == RtValue::Kind::Bool;
  };
  scan(nested);
  return bools ? at::kBool : floats ? at::kFloat : at::kLong;
}

// *_like's options: the tensor's, with the dtype and device arguments when given.
at::TensorOptions like_options(const Args &a, std::size_t dtype, std::size_t device) {
  const at::Tensor &t = a.t(0);
  at::TensorOptions opts = t.options().dtype(a.dtype_opt(dtype).value_or(t.scalar_type()));
  if (!a.none(device)) opts = opts.device(a.device(device));
  return opts;
}

// ---- the families: each symbol's implementation, from its arguments in schema order

using Implementation = RtValue (*)(Sym, const Args &);
struct Entry {
  Sym symbol;
  Implementation run;
};

// The prims that a prim and an ltorch symbol share: the same libtorch call.
RtValue run_reshape(Sym, const Args &a) {
  return tensor(a.t(0).reshape(a.ints(1)));
}
RtValue run_permute(Sym, const Args &a) {
  return tensor(a.t(0).permute(a.ints(1)));
}
RtValue run_cat(Sym, const Args &a) {
  return tensor(at::cat(a.tensors(0), a.i(1)));
}
RtValue run_flip(Sym, const Args &a) {
  return tensor(at::flip(a.t(0), a.ints(1)));
}
RtValue run_roll(Sym, const Args &a) {
  auto ints_or_one = [&](std::size_t k) {
    return a[k].kind == RtValue::Kind::Int ? IntList{a[k].integer} : a.ints(k);
  };
  return tensor(at::roll(a.t(0), ints_or_one(1), a.none(2) ? IntList{} : ints_or_one(2)));
}
RtValue run_matmul(Sym, const Args &a) {
  return tensor(at::matmul(a.t(0), a.t(1)));
}
RtValue run_linear(Sym, const Args &a) {
  return tensor(at::linear(a.t(0), a.t(1), a.t_opt(2)));
}

// A window parameter of a convolution: an int or a sequence, as ATen takes it (one value, or
// one per spatial dim).
IntList window(const RtValue &v) {
  return v.kind == RtValue::Kind::Int ? IntList{v.integer} : int_list(v);
}

// The weight made contiguous: libtorch 1.13 views it, which fails for a strided one (a flipped
// transpose) when the batch is empty.
RtValue run_convolution(Sym, const Args &a) {
  return tensor(at::convolution(a.t(0), a.t(1).contiguous(), a.t_opt(2), window(a[3]), window(a[4]),
                                window(a[5]), a.b(6), window(a[7]), a.i(8)));
}

// conv1d/2d/3d: padding is ints or 'same' / 'valid'; the input may lack its batch dim. 'same'
// pads the input first, low and high as PyTorch splits them (what ATen does itself, with a
// warning on stderr for even kernels).
RtValue run_conv(Sym s, const Args &a) {
  at::Tensor x = a.t(0);
  const at::Tensor &w = a.t(1);
  IntList stride = window(a[3]), dilation = window(a[5]), padding;
  if (a[4].kind != RtValue::Kind::Str) {
    padding = window(a[4]);
  } else if (a.s(4) == "same") {
    IntList pads; // constant_pad_nd's order: the last dim first
    for (int64_t d = w.dim() - 1; d >= 2; --d) {
      int64_t spread =
          dilation.size() == 1 ? dilation[0] : dilation[static_cast<std::size_t>(d - 2)];
      int64_t total = spread * (w.size(d) - 1);
      pads.append({total / 2, total - total / 2});
    }
    x = at::constant_pad_nd(x, pads, 0);
  } else if (a.s(4) != "valid") {
    throw ExecError("conv: padding '" + a.s(4) + "' is neither 'same' nor 'valid'");
  }
  if (padding.empty()) padding.push_back(0);
  switch (s) {
  case Sym::ltorch_conv1d:
    return tensor(at::conv1d(x, w, a.t_opt(2), stride, padding, dilation, a.i(6)));
  case Sym::ltorch_conv2d:
    return tensor(at::conv2d(x, w, a.t_opt(2), stride, padding, dilation, a.i(6)));
  default:
    return tensor(at::conv3d(x, w, a.t_opt(2), stride, padding, dilation, a.i(6)));
  }
}

// conv_transpose1d/2d/3d(input, weight, bias, stride, padding, output_padding, groups, dilation)
RtValue run_conv_transpose(Sym s, const Args &a) {
  const at::Tensor &x = a.t(0);
  IntList stride = window(a[3]), padding = window(a[4]), extra = window(a[5]),
          dilation = window(a[7]);
  switch (s) {
  case Sym::ltorch_conv_transpose1d:
    return tensor(
        at::conv_transpose1d(x, a.t(1), a.t_opt(2), stride, padding, extra, a.i(6), dilation));
  case Sym::ltorch_conv_transpose2d:
    return tensor(
        at::conv_transpose2d(x, a.t(1), a.t_opt(2), stride, padding, extra, a.i(6), dilation));
  default:
    return tensor(
        at::conv_transpose3d(x, a.t(1), a.t_opt(2), stride, padding, extra, a.i(6), dilation));
  }
}

// A pooling op's stride: None or () is the kernel's, as ATen's empty list.
IntList pool_stride(const RtValue &v) {
  return v.kind == RtValue::Kind::None ? IntList{} : window(v);
}

// max_poolNd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
RtValue run_max_pool(Sym s, const Args &a) {
  if (a.b(6)) throw ExecError("max_pool: return_indices=True does not run");
  IntList k = window(a[1]), st = pool_stride(a[2]), p = window(a[3]), d = window(a[4]);
  switch (s) {
  case Sym::ltorch_max_pool1d:
    return tensor(at::max_pool1d(a.t(0), k, st, p, d, a.b(5)));
  case Sym::ltorch_max_pool2d:
    return tensor(at::max_pool2d(a.t(0), k, st, p, d, a.b(5)));
  default:
    return tensor(at::max_pool3d(a.t(0), k, st, p, d, a.b(5)));
  }
}

// avg_poolNd(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
RtValue run_avg_pool(Sym s, const Args &a) {
  IntList k = window(a[1]), st = pool_stride(a[2]), p = window(a[3]);
  switch (s) {
  case Sym::ltorch_avg_pool1d:
    return tensor(at::avg_pool1d(a.t(0), k, st, p, a.b(4), a.b(5)));
  case Sym::ltorch_avg_pool2d:
    return tensor(at::avg_pool2d(a.t(0), k, st, p, a.b(4), a.b(5), a.i_opt(6)));
  default:
    return tensor(at::avg_pool3d(a.t(0), k, st, p, a.b(4), a.b(5), a.i_opt(6)));
  }
}

// adaptive_{avg,max}_poolNd(input, output_size[, return_indices]): a None size keeps the input's.
RtValue run_adaptive_pool(Sym s, const Args &a) {
  const at::Tensor &x = a.t(0);
  bool two = s == Sym::ltorch_adaptive_avg_pool2d || s == Sym::ltorch_adaptive_max_pool2d;
  std::size_t rank = two ? 2 : 1;
  IntList sizes;
  for (std::size_t i = 0; i < rank; ++i) {
    const RtValue &given =
        a[1].kind == RtValue::Kind::Int || a[1].kind == RtValue::Kind::None ? a[1] : a[1].items[i];
    sizes.push_back(given.kind == RtValue::Kind::None
                        ? x.size(x.dim() - static_cast<int64_t>(rank - i))
                        : given.integer);
  }
  switch (s) {
  case Sym::ltorch_adaptive_avg_pool1d:
    return tensor(at::adaptive_avg_pool1d(x, sizes));
  case Sym::ltorch_adaptive_avg_pool2d:
    return tensor(at::adaptive_avg_pool2d(x, sizes));
  case Sym::ltorch_adaptive_max_pool1d:
    return tensor(std::get<0>(at::adaptive_max_pool1d(x, sizes)));
  default:
    return tensor(std::get<0>(at::adaptive_max_pool2d(x, sizes)));
  }
}

// F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor,
// antialias), dispatched to ATen's upsample kernels as torch.nn.functional does it.
RtValue run_interpolate(Sym, const Args &a) {
  const at::Tensor &x = a.t(0);
  int64_t rank = x.dim() - 2;
  c10::optional<IntList> size;
  std::vector<double> factors;
  if (!a.none(1)) {
    size = a[1].kind == RtValue::Kind::Int ? IntList(static_cast<std::size_t>(rank), a.i(1))
                                           : a.ints(1);
  } else {
    for (int64_t i = 0; i < rank; ++i) {
      const RtValue &f = a[2].items.empty() ? a[2] : a[2].items[static_cast<std::size_t>(i)];
      factors.push_back(as_double(f));
    }
    if (!a.none(5) && a.b(5)) { // recompute_scale_factor: the sizes, and no scales
      size = IntList{};
      for (int64_t i = 0; i < rank; ++i)
        size->push_back(static_cast<int64_t>(
            std::floor(static_cast<double>(x.size(i + 2)) * factors[static_cast<std::size_t>(i)])));
      factors.clear();
    }
  }
  at::OptionalIntArrayRef out_size =
      size ? at::OptionalIntArrayRef(*size) : at::OptionalIntArrayRef(c10::nullopt);
  c10::optional<at::ArrayRef<double>> scales;
  if (!factors.empty()) scales = at::ArrayRef<double>(factors);
  const std::string &mode = a.s(3);
  bool corners = !a.none(4) && a.b(4);
  if (mode == "nearest")
    return tensor(rank == 1   ? at::upsample_nearest1d(x, out_size, scales)
                  : rank == 2 ? at::upsample_nearest2d(x, out_size, scales)
                              : at::upsample_nearest3d(x, out_size, scales));
  if (mode == "nearest-exact")
    return tensor(rank == 1   ? at::_upsample_nearest_exact1d(x, out_size, scales)
                  : rank == 2 ? at::_upsample_nearest_exact2d(x, out_size, scales)
                              : at::_upsample_nearest_exact3d(x, out_size, scales));
  if (mode == "linear") return tensor(at::upsample_linear1d(x, out_size, corners, scales));
  if (mode == "bilinear") return tensor(at::upsample_bilinear2d(x, out_size, corners, scales));
  if (mode == "trilinear") return tensor(at::upsample_trilinear3d(x, out_size, corners, scales));
  throw ExecError("interpolate: mode '" + mode + "' does not run");
}

RtValue check_len(Sym, const Args &a) {
  std::size_t n = a[0].kind == RtValue::Kind::Dict ? a[0].items.size() / 2 : a[0].items.size();
  if (static_cast<int64_t>(n) != a.i(1))
    throw ExecError("check failed: length " + std::to_string(n) + ", expected " +
                    std::to_string(a.i(1)));
  return {};
}

RtValue check_type(Sym, const Args &a) {
  if (!is_number(a[0]) || (a.s(1) == "int" && a[0].kind == RtValue::Kind::Float) ||
      (a.s(1) == "float" && a[0].kind != RtValue::Kind::Float))
    throw ExecError("check failed: " + describe(a[0]) + " is not " + a.s(1));
  return {};
}

[[noreturn]] void specialised_for(const Args &a) {
  throw ExecError("check failed: " + describe(a[0]) + ", the trace was specialised for " +
                  describe(a[1]));
}

RtValue shape_of(Sym, const Args &a) {
  const at::Tensor &t = a.t(0);
  std::vector<RtValue> dims;
  for (int64_t d = 0; d < t.dim(); ++d)
    dims.push_back(RtValue::of_int(t.size(d)));
  return RtValue::of_tuple(std::move(dims));
}

constexpr Entry kPrologue[] = {
    {Sym::prims_check_len, check_len},
    {Sym::prims_check_tensor_shape_and_metadata, check_metadata},
    {Sym::prims_check_tensor_metadata, check_metadata},
    {Sym::prims_assert_tensor_metadata, check_metadata},
    {Sym::prims_check_type, check_type},
    {Sym::prims_check_number_type_and_value,
     [](Sym, const Args &a) -> RtValue {
       if (!is_number(a[0]) || a[0].kind != a[1].kind || as_double(a[0]) != as_double(a[1]))
         specialised_for(a);
       return {};
     }},
    {Sym::prims_check_literal_like,
     [](Sym, const Args &a) -> RtValue {
       if (!same_literal(a[0], a[1])) specialised_for(a);
       return {};
     }},
    {Sym::prims_check_none,
     [](Sym, const Args &a) -> RtValue {
       if (a[0].kind != RtValue::Kind::None)
         throw ExecError("check failed: " + describe(a[0]) + " is not None");
       return {};
     }},
    {Sym::prims_shape, shape_of},
    {Sym::prims_unpack_parameter, unpacked_by_the_printer},
    {Sym::prims_unpack_buffer, unpacked_by_the_printer},
};

// ---- elementwise: the prims of numbers and of tensors, and ltorch as torch computes it

RtValue elementwise_unary(Sym s, const Args &a) {
  if (is_number(a[0])) return number_unary(s, a[0]);
  return tensor(unary_tensor(s, a.t(0)));
}

RtValue elementwise_binary(Sym s, const Args &a) {
  if (is_number(a[0]) && is_number(a[1])) return number_binary(s, a[0], a[1]);
  return tensor(binary_tensor(s, a.tn(0), a.tn(1)));
}

RtValue convert_element_type(Sym, const Args &a) {
  const RtValue &to = a[1];
  if (to.kind == RtValue::Kind::DType) return tensor(a.t(0).to(scalar_type(to.text)));
  if (to.kind != RtValue::Kind::Builtin || !is_number(a[0]))
    throw ExecError("convert_element_type of " + describe(a[0]) + " to " + describe(to));
  return converted_number(a[0], to.text);
}

// The elementwise prims of one and of two operands, each a number or a tensor: registered
// with elementwise_unary and elementwise_binary.
constexpr Sym kUnaryPrims[] = {
    Sym::prims_expm1,      Sym::prims_neg,         Sym::prims_abs,     Sym::prims_exp,
    Sym::prims_log,        Sym::prims_log1p,       Sym::prims_tanh,    Sym::prims_rsqrt,
    Sym::prims_sqrt,       Sym::prims_sin,         Sym::prims_cos,     Sym::prims_erf,
    Sym::prims_floor,      Sym::prims_ceil,        Sym::prims_trunc,   Sym::prims_signbit,
    Sym::prims_reciprocal, Sym::prims_bitwise_not, Sym::prims_isfinite};
constexpr Sym kBinaryPrims[] = {
    Sym::prims_add,        Sym::prims_sub,  Sym::prims_mul,         Sym::prims_div,
    Sym::prims_pow,        Sym::prims_fmod, Sym::prims_maximum,     Sym::prims_minimum,
    Sym::prims_eq,         Sym::prims_ne,   Sym::prims_lt,          Sym::prims_le,
    Sym::prims_gt,         Sym::prims_ge,   Sym::prims_bitwise_and, Sym::prims_bitwise_or,
    Sym::prims_bitwise_xor};

// prims.where and ltorch.where: (pred, a, b). Two numbers become tensors of their promoted type
// (float32 for a float), as the traced annotation says; libtorch's where kernel cannot cast two
// wrapped numbers itself (an internal assert on an empty condition).
RtValue where(Sym, const Args &a) {
  at::Tensor x = a.tn(1), y = a.tn(2);
  if (!a.is_tensor(1) && !a.is_tensor(2)) {
    at::ScalarType type = at::result_type(x, y);
    x = x.to(type, false, true);
    y = y.to(type, false, true);
  }
  return tensor(at::where(a.tn(0), x, y));
}

constexpr Entry kElementwisePrims[] = {
    {Sym::prims_where, where},
    {Sym::prims_convert_element_type, convert_element_type},
};

// ltorch.add and ltorch.sub: `alpha` scales the second operand; of two numbers, a number.
RtValue add_or_sub(Sym s, const Args &a) {
  bool add = s == Sym::ltorch_add;
  if (!a.is_tensor(0) && !a.is_tensor(1)) {
    RtValue scaled = a.none(2) ? a[1] : number_binary(Sym::prims_mul, a[1], a[2]);
    return number_binary(add ? Sym::prims_add : Sym::prims_sub, a[0], scaled);
  }
  at::Scalar alpha = a.none(2) ? at::Scalar(1) : a.scalar(2);
  return tensor(add ? at::add(a.tn(0), a.tn(1), alpha) : at::sub(a.tn(0), a.tn(1), alpha));
}

// The ltorch symbols that compute as their prim does on tensors (for two operands, a number
// beside a tensor becomes a tensor): registered with as_prim_on_tensors.
struct SameAsPrim {
  Sym ltorch, prim;
  bool two_operands;
};
constexpr SameAsPrim kSameAsPrim[] = {
    {Sym::ltorch_neg, Sym::prims_neg, false},
    {Sym::ltorch_abs, Sym::prims_abs, false},
    {Sym::ltorch_exp, Sym::prims_exp, false},
    {Sym::ltorch_log, Sym::prims_log, false},
    {Sym::ltorch_log1p, Sym::prims_log1p, false},
    {Sym::ltorch_expm1, Sym::prims_expm1, false},
    {Sym::ltorch_tanh, Sym::prims_tanh, false},
    {Sym::ltorch_rsqrt, Sym::prims_rsqrt, false},
    {Sym::ltorch_sqrt, Sym::prims_sqrt, false},
    {Sym::ltorch_sin, Sym::prims_sin, false},
    {Sym::ltorch_cos, Sym::prims_cos, false},
    {Sym::ltorch_erf, Sym::prims_erf, false},
    {Sym::ltorch_floor, Sym::prims_floor, false},
    {Sym::ltorch_bitwise_not, Sym::prims_bitwise_not, false},
    {Sym::ltorch_mul, Sym::prims_mul, true},
    {Sym::ltorch_pow, Sym::prims_pow, true},
    {Sym::ltorch_maximum, Sym::prims_maximum, true},
    {Sym::ltorch_minimum, Sym::prims_minimum, true},
    {Sym::ltorch_eq, Sym::prims_eq, true},
    {Sym::ltorch_ne, Sym::prims_ne, true},
    {Sym::ltorch_lt, Sym::prims_lt, true},
    {Sym::ltorch_le, Sym::prims_le, true},
    {Sym::ltorch_gt, Sym::prims_gt, true},
    {Sym::ltorch_ge, Sym::prims_ge, true},
    {Sym::ltorch_bitwise_and, Sym::prims_bitwise_and, true},
    {Sym::ltorch_bitwise_or, Sym::prims_bitwise_or, true},
};

RtValue as_prim_on_tensors(Sym s, const Args &a) {
  for (const SameAsPrim &same : kSameAsPrim)
    if (same.ltorch == s)
      return tensor(same.two_operands ? binary_tensor(same.prim, a.tn(0), a.tn(1))
                                      : unary_tensor(same.prim, a.t(0)));
  throw ExecError(qualified_name(s) + " does not compute as a prim");
}

constexpr Entry kElementwiseLtorch[] = {
    {Sym::ltorch_add, add_or_sub},
    {Sym::ltorch_sub, add_or_sub},
    {Sym::ltorch_true_divide,
     [](Sym, const Args &a) { return tensor(at::true_divide(a.tn(0), a.tn(1))); }},
    {Sym::ltorch_div,
     [](Sym, const Args &a) {
       c10::optional<c10::string_view> mode;
       if (!a.none(2)) mode = c10::string_view(a.s(2));
       return tensor(at::div(a.tn(0), a.tn(1), mode));
     }},
    {Sym::ltorch_floor_divide,
     [](Sym, const Args &a) { return tensor(at::floor_divide(a.tn(0), a.tn(1))); }},
    {Sym::ltorch_remainder,
     [](Sym, const Args &a) { return tensor(at::remainder(a.tn(0), a.tn(1))); }},
    // torch.logical_and and logical_or take tensors only (no number beside a tensor).
    {Sym::ltorch_logical_and,
     [](Sym, const Args &a) { return tensor(at::logical_and(a.t(0), a.t(1))); }},
    {Sym::ltorch_logical_or,
     [](Sym, const Args &a) { return tensor(at::logical_or(a.t(0), a.t(1))); }},
    {Sym::ltorch_logical_not, [](Sym, const Args &a) { return tensor(at::logical_not(a.t(0))); }},
    {Sym::ltorch_sigmoid, [](Sym, const Args &a) { return tensor(at::sigmoid(a.t(0))); }},
    {Sym::ltorch_relu, [](Sym, const Args &a) { return tensor(at::relu(a.t(0))); }},
    {Sym::ltorch_silu, [](Sym, const Args &a) { return tensor(at::silu(a.t(0))); }},
    {Sym::ltorch_gelu, [](Sym, const Args &a) { return tensor(at::gelu(a.t(0), a.s(1))); }},
    {Sym::ltorch_clamp,
     [](Sym, const Args &a) {
       c10::optional<at::Scalar> lo, hi;
       if (!a.none(1)) lo = a.scalar(1);
       if (!a.none(2)) hi = a.scalar(2);
       return tensor(at::clamp(a.t(0), lo, hi));
     }},
    {Sym::ltorch_where, where},
    {Sym::ltorch_masked_fill,
     [](Sym, const Args &a) {
       if (a.is_tensor(2)) return tensor(a.t(0).masked_fill(a.t(1), a.t(2)));
       return tensor(a.t(0).masked_fill(a.t(1), a.scalar(2)));
     }},
    {Sym::ltorch_to,
     [](Sym, const Args &a) {
       at::Tensor t = a.t(0);
       if (!a.none(1)) t = t.to(a.device(1));
       if (!a.none(2)) t = t.to(a.dtype(2));
       return tensor(t);
     }},
    {Sym::ltorch_type_as, [](Sym, const Args &a) { return tensor(a.t(0).type_as(a.t(1))); }},
};

// ---- shapes

RtValue broadcast_in_dim(Sym, const Args &a) {
  const at::Tensor &t = a.t(0);
  IntList shape = a.ints(1), dims = a.ints(2);
  if (dims.size() != static_cast<std::size_t>(t.dim()))
    throw ExecError("broadcast_in_dim: " + std::to_string(dims.size()) +
                    " broadcast dims for a tensor of rank " + std::to_string(t.dim()));
  IntList view(shape.size(), 1);
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] < 0 || static_cast<std::size_t>(dims[k]) >= view.size())
      throw ExecError("broadcast_in_dim: dim " + std::to_string(dims[k]) +
                      " is out of range for a shape of rank " + std::to_string(view.size()));
    view[static_cast<std::size_t>(dims[k])] = t.size(static_cast<int64_t>(k));
  }
  // Only the libtorch calls that change something (each costs a dispatch): expand adds
  // leading dims itself, so trailing broadcast dims need no reshape.
  bool trailing = true;
  for (std::size_t k = 0; k < dims.size(); ++k)
    trailing = trailing && dims[k] == static_cast<int64_t>(shape.size() - dims.size() + k);
  at::Tensor viewed = trailing || t.sizes().equals(view) ? t : t.reshape(view);
  return tensor(viewed.sizes().equals(shape) ? viewed : viewed.expand(shape));
}

RtValue slice_prim(Sym, const Args &a) {
  at::Tensor t = a.t(0);
  IntList starts = a.ints(1), ends = a.ints(2);
  IntList strides = a.none(3) ? IntList(starts.size(), 1) : a.ints(3);
  if (starts.size() != static_cast<std::size_t>(t.dim()) || ends.size() != starts.size() ||
      strides.size() != starts.size())
    throw ExecError("slice_prim: index lists do not match the rank");
  for (std::size_t d = 0; d < starts.size(); ++d)
    t = t.slice(static_cast<int64_t>(d), starts[d], ends[d], strides[d]);
  return tensor(t);
}

// padding_config: (low, high, interior) per dim, as Thunder's prims.pad (no negative ones).
RtValue pad(Sym, const Args &a) {
  const at::Tensor &t = a.t(0);
  const RtValue &config = a[2];
  if (config.items.size() != static_cast<std::size_t>(t.dim()))
    throw ExecError("pad: the padding config does not match the rank");
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const RtValue &c = config.items[static_cast<std::size_t>(d)];
    if (c.items.size() != 3) throw ExecError("pad: each dim takes (low, high, interior)");
    int64_t n = t.size(d), lo = c.items[0].integer, hi = c.items[1].integer,
            interior = c.items[2].integer;
    if (lo < 0 || hi < 0 || interior < 0) throw ExecError("pad: negative padding");
    shape.push_back(lo + hi + n + std::max<int64_t>(n - 1, 0) * interior);
  }
  at::Tensor out = at::full(shape, a.scalar(1), t.options());
  at::Tensor window = out;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const RtValue &c = config.items[static_cast<std::size_t>(d)];
    int64_t lo = c.items[0].integer, step = c.items[2].integer + 1;
    window = window.slice(d, lo, lo + std::max<int64_t>(t.size(d) - 1, 0) * step + 1, step);
  }
  if (t.numel() > 0) window.copy_(t);
  return tensor(out);
}

// ltorch.squeeze: every dim of size 1, one dim, or several (negative ones counted from the end).
RtValue squeeze(Sym, const Args &a) {
  if (a.none(1)) return tensor(a.t(0).squeeze());
  if (a[1].kind == RtValue::Kind::Int) return tensor(a.t(0).squeeze(a.i(1)));
  IntList dims = a.ints(1);
  for (int64_t &d : dims)
    if (d < 0) d += a.t(0).dim();
  std::sort(dims.begin(), dims.end());
  return tensor(squeezed(a.t(0), dims));
}

constexpr Entry kShapes[] = {
    {Sym::prims_broadcast_in_dim, broadcast_in_dim},
    {Sym::prims_reshape, run_reshape},
    {Sym::prims_transpose, run_permute},
    {Sym::prims_squeeze, [](Sym, const Args &a) { return tensor(squeezed(a.t(0), a.ints(1))); }},
    {Sym::prims_slice_prim, slice_prim},
    {Sym::prims_pad, pad},
    {Sym::prims_cat, run_cat},
    {Sym::prims_flip, run_flip},
    {Sym::prims_stride_order,
     [](Sym, const Args &a) { return tensor(stride_ordered(a.t(0), a.ints(1))); }},
    {Sym::ltorch_reshape, run_reshape},
    {Sym::ltorch_view, [](Sym, const Args &a) { return tensor(a.t(0).view(a.ints(1))); }},
    {Sym::ltorch_contiguous, [](Sym, const Args &a) { return tensor(a.t(0).contiguous()); }},
    {Sym::ltorch_transpose,
     [](Sym, const Args &a) { return tensor(a.t(0).transpose(a.i(1), a.i(2))); }},
    {Sym::ltorch_permute, run_permute},
    {Sym::ltorch_unsqueeze, [](Sym, const Args &a) { return tensor(a.t(0).unsqueeze(a.i(1))); }},
    {Sym::ltorch_squeeze, squeeze},
    {Sym::ltorch_flatten,
     [](Sym, const Args &a) { return tensor(a.t(0).flatten(a.i(1), a.i(2))); }},
    {Sym::ltorch_expand, [](Sym, const Args &a) { return tensor(a.t(0).expand(a.ints(1))); }},
    {Sym::ltorch_repeat, [](Sym, const Args &a) { return tensor(a.t(0).repeat(a.ints(1))); }},
    {Sym::ltorch_repeat_interleave,
     [](Sym, const Args &a) { return tensor(a.t(0).repeat_interleave(a.i(1), a.i_opt(2))); }},
    {Sym::ltorch_split,
     [](Sym, const Args &a) {
       if (a[1].kind == RtValue::Kind::Int) return tuple_of(a.t(0).split(a.i(1), a.i(2)));
       return tuple_of(a.t(0).split_with_sizes(a.ints(1), a.i(2)));
     }},
    {Sym::ltorch_chunk, [](Sym, const Args &a) { return tuple_of(a.t(0).chunk(a.i(1), a.i(2))); }},
    {Sym::ltorch_cat, run_cat},
    {Sym::ltorch_stack, [](Sym, const Args &a) { return tensor(at::stack(a.tensors(0), a.i(1))); }},
    {Sym::ltorch_flip, run_flip},
    {Sym::ltorch_roll, run_roll},
    {Sym::ltorch_tril, [](Sym, const Args &a) { return tensor(at::tril(a.t(0), a.i(1))); }},
    {Sym::ltorch_triu, [](Sym, const Args &a) { return tensor(at::triu(a.t(0), a.i(1))); }},
};

// ---- reductions and normalisations

RtValue argmax_or_argmin(Sym s, const Args &a) {
  if (is_prim(s))
    return tensor(s == Sym::prims_argmax ? at::argmax(a.t(0), a.i_opt(1))
                                         : at::argmin(a.t(0), a.i_opt(1)));
  return tensor(s == Sym::ltorch_argmax ? at::argmax(a.t(0), a.i_opt(1), a.b(2))
                                        : at::argmin(a.t(0), a.i_opt(1), a.b(2)));
}

// torch.var's correction: given, or from `unbiased`, or 1.
RtValue var(Sym s, const Args &a) {
  int64_t correction = !a.none(4) ? a.i(4) : !a.none(2) ? (a.b(2) ? 1 : 0) : 1;
  IntList reduced = dims_arg(a, 1, a.t(0)); // the ArrayRef below views it
  at::OptionalIntArrayRef dims(reduced);
  if (s == Sym::ltorch_std)
    return tensor(at::std(a.t(0), dims, c10::optional<int64_t>(correction), a.b(3)));
  return tensor(at::var(a.t(0), dims, c10::optional<int64_t>(correction), a.b(3)));
}

// As PyTorch documents F.rms_norm (libtorch 1.13 has none): x * rsqrt(mean(x^2) + eps) * w,
// computed in float32 for half-precision inputs.
RtValue rms_norm(Sym, const Args &a) {
  at::Tensor x = a.t(0);
  at::ScalarType original = x.scalar_type();
  if (original == at::kHalf || original == at::kBFloat16) x = x.to(at::kFloat);
  IntList shape = a.ints(1);
  bool matches = static_cast<int64_t>(shape.size()) <= x.dim();
  for (std::size_t k = 0; matches && k < shape.size(); ++k)
    matches =
        x.size(x.dim() - static_cast<int64_t>(shape.size()) + static_cast<int64_t>(k)) == shape[k];
  if (!matches) // as PyTorch 2.x's rms_norm (and layer_norm) refuse it
    throw ExecError("rms_norm: the input's last dims do not match normalized_shape");
  IntList dims;
  for (std::size_t k = 0; k < shape.size(); ++k)
    dims.push_back(x.dim() - static_cast<int64_t>(shape.size()) + static_cast<int64_t>(k));
  double eps =
      a.none(3) ? (x.scalar_type() == at::kDouble ? DBL_EPSILON : 1.1920928955078125e-07) : a.d(3);
  at::Tensor out = x * at::rsqrt(at::mean(x * x, dims, true) + eps);
  if (!a.none(2)) out = out * a.t(2);
  return tensor(out.to(original));
}

constexpr Entry kReductions[] = {
    // Thunder's reduction prims keep the input's dtype (at::sum and at::prod of integers and
    // bools give int64).
    {Sym::prims_sum,
     [](Sym, const Args &a) {
       return tensor(at::sum(a.t(0), a.ints(1), false, a.t(0).scalar_type()));
     }},
    {Sym::prims_amax, [](Sym, const Args &a) { return tensor(at::amax(a.t(0), a.ints(1))); }},
    {Sym::prims_amin, [](Sym, const Args &a) { return tensor(at::amin(a.t(0), a.ints(1))); }},
    {Sym::prims_prod,
     [](Sym, const Args &a) {
       return tensor(reduce_all(a.t(0), a.ints(1), [](const at::Tensor &t, int64_t d) {
         return at::prod(t, d, false, t.scalar_type());
       }));
     }},
    {Sym::prims_var,
     [](Sym, const Args &a) {
       return tensor(at::var(a.t(0), at::OptionalIntArrayRef(a.ints(1)),
                             c10::optional<int64_t>(a.i(2)), false));
     }},
    {Sym::prims_argmax, argmax_or_argmin},
    {Sym::prims_argmin, argmax_or_argmin},
    {Sym::ltorch_sum,
     [](Sym, const Args &a) {
       return tensor(at::sum(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2), a.dtype_opt(3)));
     }},
    {Sym::ltorch_mean,
     [](Sym, const Args &a) {
       return tensor(at::mean(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2), a.dtype_opt(3)));
     }},
    {Sym::ltorch_amax,
     [](Sym, const Args &a) { return tensor(at::amax(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2))); }},
    {Sym::ltorch_amin,
     [](Sym, const Args &a) { return tensor(at::amin(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2))); }},
    {Sym::ltorch_prod,
     [](Sym, const Args &a) {
       if (a.none(1)) return tensor(at::prod(a.t(0), a.dtype_opt(3)));
       return tensor(at::prod(a.t(0), a.i(1), a.b(2), a.dtype_opt(3)));
     }},
    {Sym::ltorch_var, var},
    {Sym::ltorch_std, var},
    {Sym::ltorch_logsumexp,
     [](Sym, const Args &a) {
       // The dims as given: () is not all dims here (PyTorch then fails without keepdim).
       IntList dims = a[1].kind == RtValue::Kind::Int ? IntList{a.i(1)} : a.ints(1);
       return tensor(at::logsumexp(a.t(0), dims, a.b(2)));
     }},
    {Sym::ltorch_softplus,
     [](Sym, const Args &a) { return tensor(at::softplus(a.t(0), a.d(1), a.d(2))); }},
    {Sym::ltorch_leaky_relu,
     [](Sym, const Args &a) { return tensor(at::leaky_relu(a.t(0), a.scalar(1))); }},
    {Sym::ltorch_elu, [](Sym, const Args &a) { return tensor(at::elu(a.t(0), a.scalar(1))); }},
    {Sym::ltorch_celu, [](Sym, const Args &a) { return tensor(at::celu(a.t(0), a.scalar(1))); }},
    {Sym::ltorch_selu, [](Sym, const Args &a) { return tensor(at::selu(a.t(0))); }},
    {Sym::ltorch_relu6, [](Sym, const Args &a) { return tensor(at::hardtanh(a.t(0), 0, 6)); }},
    {Sym::ltorch_hardtanh,
     [](Sym, const Args &a) { return tensor(at::hardtanh(a.t(0), a.scalar(1), a.scalar(2))); }},
    {Sym::ltorch_hardsigmoid, [](Sym, const Args &a) { return tensor(at::hardsigmoid(a.t(0))); }},
    {Sym::ltorch_hardswish, [](Sym, const Args &a) { return tensor(at::hardswish(a.t(0))); }},
    {Sym::ltorch_mish, [](Sym, const Args &a) { return tensor(at::mish(a.t(0))); }},
    // torch.nn.functional's softsign and tanhshrink are Python compositions, not ATen ops.
    {Sym::ltorch_softsign, [](Sym, const Args &a) { return tensor(a.t(0) / (a.t(0).abs() + 1)); }},
    {Sym::ltorch_tanhshrink, [](Sym, const Args &a) { return tensor(a.t(0) - a.t(0).tanh()); }},
    {Sym::ltorch_logsigmoid, [](Sym, const Args &a) { return tensor(at::log_sigmoid(a.t(0))); }},
    {Sym::ltorch_unbind, [](Sym, const Args &a) { return tuple_of(at::unbind(a.t(0), a.i(1))); }},
    {Sym::ltorch_unfold,
     [](Sym, const Args &a) { return tensor(a.t(0).unfold(a.i(1), a.i(2), a.i(3))); }},
    {Sym::ltorch_bmm, [](Sym, const Args &a) { return tensor(at::bmm(a.t(0), a.t(1))); }},
    {Sym::ltorch_pad,
     [](Sym, const Args &a) {
       if (a[2].text != "constant") {
         // libtorch 1.13's circular mode wants the batch dim that PyTorch 2 lets one leave out.
         bool unbatched = a.t(0).dim() == static_cast<int64_t>(a.ints(1).size()) / 2 + 1;
         at::Tensor out = at::pad(unbatched ? a.t(0).unsqueeze(0) : a.t(0), a.ints(1), a[2].text);
         return tensor(unbatched ? out.squeeze(0) : out);
       }
       return tensor(
           at::constant_pad_nd(a.t(0), a.ints(1), a.none(3) ? at::Scalar(0) : as_scalar(a[3])));
     }},
    {Sym::ltorch_normalize,
     [](Sym, const Args &a) {
       // torch.nn.functional.normalize, as PyTorch writes it.
       IntList dims = a[2].kind == RtValue::Kind::Int ? IntList{a.i(2)} : a.ints(2);
       at::Tensor norm = a.t(0).norm(at::Scalar(a.d(1)), dims, true);
       return tensor(a.t(0) / norm.clamp_min(a.d(3)).expand_as(a.t(0)));
     }},
    {Sym::ltorch_argmax, argmax_or_argmin},
    {Sym::ltorch_argmin, argmax_or_argmin},
    {Sym::ltorch_softmax,
     [](Sym, const Args &a) { return tensor(at::softmax(a.t(0), a.i(1), a.dtype_opt(2))); }},
    {Sym::ltorch_log_softmax,
     [](Sym, const Args &a) { return tensor(at::log_softmax(a.t(0), a.i(1), a.dtype_opt(2))); }},
    {Sym::ltorch_layer_norm,
     [](Sym, const Args &a) {
       return tensor(at::layer_norm(a.t(0), a.ints(1), a.t_opt(2), a.t_opt(3), a.d(4)));
     }},
    {Sym::ltorch_rms_norm, rms_norm},
    // Never with running statistics in training mode (the tracer refuses it): nothing updated.
    {Sym::ltorch_batch_norm,
     [](Sym, const Args &a) {
       return tensor(at::batch_norm(a.t(0), a.t_opt(3), a.t_opt(4), a.t_opt(1), a.t_opt(2), a.b(5),
                                    a.d(6), a.d(7), false));
     }},
    {Sym::ltorch_instance_norm,
     [](Sym, const Args &a) {
       return tensor(at::instance_norm(a.t(0), a.t_opt(3), a.t_opt(4), a.t_opt(1), a.t_opt(2),
                                       a.b(5), a.d(6), a.d(7), false));
     }},
    {Sym::ltorch_group_norm,
     [](Sym, const Args &a) {
       return tensor(at::group_norm(a.t(0), a.i(1), a.t_opt(2), a.t_opt(3), a.d(4)));
     }},
};

// ---- indexing and matrix products

// prims.take: index_select along `dim`, the index's shape in place of that dim.
RtValue take(Sym, const Args &a) {
  const at::Tensor &t = a.t(0), &index = a.t(1);
  int64_t d = a.i(2);
  at::Tensor picked = at::index_select(t, d, index.reshape({-1}));
  std::vector<int64_t> shape(t.sizes().begin(), t.sizes().begin() + d);
  for (int64_t k : index.sizes())
    shape.push_back(k);
  shape.insert(shape.end(), t.sizes().begin() + d + 1, t.sizes().end());
  return tensor(picked.reshape(shape));
}

// prims.copy_with_setitem and ltorch.setitem: a copy of a, the value written where the key
// selects (as `a[key] = value` does, casting it to a's dtype).
RtValue copy_with_setitem(Sym, const Args &a) {
  at::Tensor out = a.t(0).clone();
  std::vector<at::indexing::TensorIndex> key = tensor_indices(a[1], out.device());
  if (a.is_tensor(2))
    out.index_put_(key, a.t(2));
  else
    out.index_put_(key, a.scalar(2));
  return tensor(out);
}

constexpr Entry kIndexing[] = {
    {Sym::prims_take, take},
    {Sym::prims_take_along_axis,
     [](Sym, const Args &a) { return tensor(at::gather(a.t(0), a.i(2), a.t(1))); }},
    // a, index, value, dim
    {Sym::prims_index_add,
     [](Sym, const Args &a) { return tensor(at::index_add(a.t(0), a.i(3), a.t(1), a.t(2))); }},
    {Sym::prims_scatter_add,
     [](Sym, const Args &a) { return tensor(at::scatter_add(a.t(0), a.i(3), a.t(1), a.t(2))); }},
    {Sym::prims_matmul, run_matmul},
    {Sym::prims_linear, run_linear},
    {Sym::prims_convolution, run_convolution},
    {Sym::ltorch_convolution, run_convolution},
    {Sym::ltorch_conv1d, run_conv},
    {Sym::ltorch_conv2d, run_conv},
    {Sym::ltorch_conv3d, run_conv},
    {Sym::ltorch_conv_transpose1d, run_conv_transpose},
    {Sym::ltorch_conv_transpose2d, run_conv_transpose},
    {Sym::ltorch_conv_transpose3d, run_conv_transpose},
    {Sym::ltorch_interpolate, run_interpolate},
    {Sym::ltorch_pixel_shuffle,
     [](Sym, const Args &a) { return tensor(at::pixel_shuffle(a.t(0), a.i(1))); }},
    {Sym::ltorch_pixel_unshuffle,
     [](Sym, const Args &a) { return tensor(at::pixel_unshuffle(a.t(0), a.i(1))); }},
    {Sym::ltorch_max_pool1d, run_max_pool},
    {Sym::ltorch_max_pool2d, run_max_pool},
    {Sym::ltorch_max_pool3d, run_max_pool},
    {Sym::ltorch_avg_pool1d, run_avg_pool},
    {Sym::ltorch_avg_pool2d, run_avg_pool},
    {Sym::ltorch_avg_pool3d, run_avg_pool},
    {Sym::ltorch_adaptive_avg_pool1d, run_adaptive_pool},
    {Sym::ltorch_adaptive_avg_pool2d, run_adaptive_pool},
    {Sym::ltorch_adaptive_max_pool1d, run_adaptive_pool},
    {Sym::ltorch_adaptive_max_pool2d, run_adaptive_pool},
    {Sym::prims_copy_,
     [](Sym, const Args &a) {
       at::Tensor dst = a.t(1);
       dst.copy_(a.t(0));
       return tensor(dst);
     }},
    {Sym::ltorch_getitem,
     [](Sym, const Args &a) {
       return tensor(a.t(0).index(tensor_indices(a[1], a.t(0).device())));
     }},
    {Sym::prims_copy_with_setitem, copy_with_setitem},
    {Sym::ltorch_setitem, copy_with_setitem},
    {Sym::ltorch_index_select,
     [](Sym, const Args &a) { return tensor(at::index_select(a.t(0), a.i(1), a.t(2))); }},
    {Sym::ltorch_gather,
     [](Sym, const Args &a) { return tensor(at::gather(a.t(0), a.i(1), a.t(2))); }},
    {Sym::ltorch_matmul, run_matmul},
    {Sym::ltorch_linear, run_linear},
    {Sym::ltorch_outer, [](Sym, const Args &a) { return tensor(at::outer(a.t(0), a.t(1))); }},
};

// ---- torch.nn.functional

constexpr Entry kNn[] = {
    {Sym::ltorch_embedding,
     [](Sym, const Args &a) {
       if (!a.none(3)) throw ExecError("embedding with max_norm is not supported");
       return tensor(at::embedding(a.t(1), a.t(0), a.none(2) ? -1 : a.i(2), a.b(5), a.b(6)));
     }},
    {Sym::ltorch_scaled_dot_product_attention,
     [](Sym, const Args &a) { return tensor(attention(a)); }},
    {Sym::ltorch_cross_entropy,
     [](Sym, const Args &a) {
       return tensor(at::cross_entropy_loss(a.t(0), a.t(1), a.t_opt(2), reduction_of(a.s(6)),
                                            a.i(4), a.d(7)));
     }},
    {Sym::ltorch_nll_loss,
     [](Sym, const Args &a) {
       return tensor(at::nll_loss_nd(a.t(0), a.t(1), a.t_opt(2), reduction_of(a.s(6)), a.i(4)));
     }},
    {Sym::ltorch_mse_loss,
     [](Sym, const Args &a) { return tensor(at::mse_loss(a.t(0), a.t(1), reduction_of(a.s(4)))); }},
    {Sym::ltorch_dropout,
     [](Sym, const Args &a) { return tensor(at::dropout(a.t(0), a.d(1), a.b(2))); }},
};

// ---- factories

RtValue iota(Sym, const Args &a) {
  at::TensorOptions opts = factory_options(a, 4, 3, at::kLong);
  bool floating = at::isFloatingType(opts.dtype().toScalarType());
  at::Tensor base = at::arange(a.i(0), opts.dtype(floating ? at::kDouble : at::kLong));
  return tensor((base * a.scalar(2) + a.scalar(1)).to(opts.dtype().toScalarType()));
}

// torch.arange(end) or (start, end, step): float if any of them is.
RtValue arange(Sym, const Args &a) {
  RtValue start = a[0], end = a[1];
  if (end.kind == RtValue::Kind::None) {
    end = start;
    start = RtValue::of_int(0);
  }
  bool floats = start.kind == RtValue::Kind::Float || end.kind == RtValue::Kind::Float ||
                a[2].kind == RtValue::Kind::Float;
  return tensor(at::arange(as_scalar(start), as_scalar(end), a.scalar(2),
                           factory_options(a, 4, 6, floats ? at::kFloat : at::kLong)));
}

RtValue zeros(Sym, const Args &a) {
  return tensor(at::zeros(a.ints(0), factory_options(a, 1, 3, at::kFloat)));
}

constexpr Entry kFactories[] = {
    {Sym::prims_full,
     [](Sym, const Args &a) {
       return tensor(at::full(a.ints(0), a.scalar(1), factory_options(a, 3, 2, at::kFloat)));
     }},
    {Sym::prims_iota, iota},
    // From doubles when the data holds a float, whatever the dtype (0.5 as bool is True, as
    // torch.tensor makes it), else from int64s (exact past 2**53).
    {Sym::prims_tensor_from_sequence,
     [](Sym, const Args &a) {
       bool floats = inferred_dtype(a[0]) == at::kFloat;
       return tensor(tensor_of_numbers(a[0], floats, a.dtype(1), a.device(2)));
     }},
    {Sym::prims_uniform,
     [](Sym, const Args &a) {
       return tensor(
           at::empty(a.ints(0), factory_options(a, 4, 3, at::kFloat)).uniform_(a.d(1), a.d(2)));
     }},
    {Sym::ltorch_arange, arange},
    {Sym::ltorch_full,
     [](Sym, const Args &a) {
       return tensor(at::full(a.ints(0), a.scalar(1), factory_options(a, 2, 4, number_type(a[1]))));
     }},
    {Sym::ltorch_zeros, zeros},
    // empty as zeros: the traces fill it with zeros too, so the values compare.
    {Sym::ltorch_empty, zeros},
    {Sym::ltorch_ones,
     [](Sym, const Args &a) {
       return tensor(at::ones(a.ints(0), factory_options(a, 1, 3, at::kFloat)));
     }},
    {Sym::ltorch_full_like,
     [](Sym, const Args &a) {
       return tensor(at::full(a.t(0).sizes(), a.scalar(1), like_options(a, 2, 4)));
     }},
    {Sym::ltorch_zeros_like,
     [](Sym, const Args &a) { return tensor(at::zeros(a.t(0).sizes(), like_options(a, 1, 3))); }},
    {Sym::ltorch_ones_like,
     [](Sym, const Args &a) { return tensor(at::ones(a.t(0).sizes(), like_options(a, 1, 3))); }},
    {Sym::ltorch_tensor,
     [](Sym, const Args &a) {
       bool floats = inferred_dtype(a[0]) == at::kFloat;
       at::ScalarType dtype = a.dtype_opt(1).value_or(inferred_dtype(a[0]));
       return tensor(tensor_of_numbers(a[0], floats, dtype, a.device(2)));
     }},
};

// Every family, registered in one place (with the lists of symbols that share one
// implementation): each symbol's implementation by its id.
constexpr std::span<const Entry> kFamilies[] = {
    kPrologue, kElementwisePrims, kElementwiseLtorch, kShapes, kReductions, kIndexing,
    kNn,       kFactories,
};

constexpr std::array<Implementation, kSymbolCount> implementations_by_id() {
  std::array<Implementation, kSymbolCount> by_id{};
  for (std::span<const Entry> family : kFamilies)
    for (const Entry &e : family)
      by_id[static_cast<std::size_t>(e.symbol)] = e.run;
  for (Sym prim : kUnaryPrims)
    by_id[static_cast<std::size_t>(prim)] = elementwise_unary;
  for (Sym prim : kBinaryPrims)
    by_id[static_cast<std::size_t>(prim)] = elementwise_binary;
  for (const SameAsPrim &same : kSameAsPrim)
    by_id[static_cast<std::size_t>(same.ltorch)] = as_prim_on_tensors;
  return by_id;
}

constexpr std::size_t entry_count() {
  std::size_t n = std::size(kUnaryPrims) + std::size(kBinaryPrims) + std::size(kSameAsPrim);
  for (std::span<const Entry> family : kFamilies)
    n += family.size();
  return n;
}

constexpr std::array<Implementation, kSymbolCount> kImplementations = implementations_by_id();

// A symbol added to the registry without an implementation, or given two, does not compile.
static_assert(entry_count() == kSymbolCount &&
                  std::none_of(kImplementations.begin(), kImplementations.end(),
                               [](Implementation run) { return run == nullptr; }),
              "each symbol of symbols.def has exactly one libtorch implementation");

} // namespace

RtValue implement(Sym s, const RtValue *const *values, std::size_t count,
                  const ExecOptions &options) {
  if (static_cast<std::size_t>(s) >= kSymbolCount)
    throw ExecError("symbol " + std::to_string(static_cast<std::size_t>(s)) +
                    " is not in the op registry");
  return kImplementations[static_cast<std::size_t>(s)](s, Args(values, count, options));
}

} // namespace tracelint::tracer
