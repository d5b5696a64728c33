// The libtorch implementation of every symbol of the op registry (symbols.def), keyed by its
// id: the executor runs prims with them, and the eager run runs ltorch symbols with them, as
// torch itself computes each op (not as its decomposition). The switch has no default: a
// symbol added to the registry without an implementation here does not compile (-Wswitch).
#include "runtime.hpp"

#include "tracelint/core/value.hpp"
#include "tracelint/tracer/interpreter.hpp" // NumOp
#include "tracelint/tracer/python_numbers.hpp"

#include <ATen/ScalarOps.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <numeric>

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

// ---- numbers (the number prims of a trace: sizes, guards)

Number number_of(const RtValue &v) {
  switch (v.kind) {
  case RtValue::Kind::Float:
    return Number::of_float(v.real);
  case RtValue::Kind::Bool:
    return Number::of_bool(v.boolean);
  default:
    return Number::of_int(v.integer);
  }
}

// The number, or the error as the run's: CPython's exception by its class and message.
RtValue value_or_throw(const NumberResult &r) {
  if (!r.ok())
    throw ExecError(r.error().python_class.empty()
                        ? r.error().message
                        : r.error().python_class + ": " + r.error().message);
  const Number &n = r.value();
  switch (n.kind) {
  case Number::Kind::Float:
    return RtValue::of_float(n.real);
  case Number::Kind::Bool:
    return RtValue::of_bool(n.integer != 0);
  default:
    return RtValue::of_int(n.integer);
  }
}

// The Python operator a number prim computes on two numbers (the tracer records `a + b` of
// numbers as prims.add, and so on), or none for a prim that is no Python operator.
std::optional<NumOp> python_operator(Sym s) {
  switch (s) {
  case Sym::prims_add:
    return NumOp::add;
  case Sym::prims_sub:
    return NumOp::sub;
  case Sym::prims_mul:
    return NumOp::mul;
  case Sym::prims_pow:
    return NumOp::pow;
  case Sym::prims_lt:
    return NumOp::lt;
  case Sym::prims_le:
    return NumOp::le;
  case Sym::prims_gt:
    return NumOp::gt;
  case Sym::prims_ge:
    return NumOp::ge;
  case Sym::prims_eq:
    return NumOp::eq;
  case Sym::prims_ne:
    return NumOp::ne;
  case Sym::prims_bitwise_and:
    return NumOp::bitwise_and;
  case Sym::prims_bitwise_or:
    return NumOp::bitwise_or;
  case Sym::prims_bitwise_xor:
    return NumOp::bitwise_xor;
  default:
    return std::nullopt;
  }
}

// A number prim of two numbers, by Python's rules (python_numbers.hpp), as the tracer computed
// it when it recorded the prim.
RtValue number_binary(Sym s, const RtValue &a, const RtValue &b) {
  Number x = number_of(a), y = number_of(b);
  if (std::optional<NumOp> op = python_operator(s))
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

// The Python function a number prim computes on one number (-x, abs, math.*), or none for a
// prim whose number result is not Python's (prims.floor of a float is a float).
std::optional<NumOp> python_function(Sym s) {
  switch (s) {
  case Sym::prims_neg:
    return NumOp::neg;
  case Sym::prims_abs:
    return NumOp::abs;
  case Sym::prims_exp:
    return NumOp::exp;
  case Sym::prims_log:
    return NumOp::log;
  case Sym::prims_sqrt:
    return NumOp::sqrt;
  case Sym::prims_sin:
    return NumOp::sin;
  case Sym::prims_cos:
    return NumOp::cos;
  case Sym::prims_tanh:
    return NumOp::tanh;
  default:
    return std::nullopt;
  }
}

RtValue number_unary(Sym s, const RtValue &a) {
  if (std::optional<NumOp> op = python_function(s))
    return value_or_throw(python_number_op(*op, number_of(a)));
  double x = as_double(a);
  switch (s) {
  case Sym::prims_signbit:
    return RtValue::of_bool(std::signbit(x));
  case Sym::prims_floor:
    return RtValue::of_float(std::floor(x));
  case Sym::prims_ceil:
    return RtValue::of_float(std::ceil(x));
  case Sym::prims_trunc:
    return RtValue::of_float(std::trunc(x));
  case Sym::prims_log1p:
    return RtValue::of_float(std::log1p(x));
  case Sym::prims_rsqrt:
    return RtValue::of_float(1.0 / std::sqrt(x));
  case Sym::prims_erf:
    return RtValue::of_float(std::erf(x));
  case Sym::prims_reciprocal:
    return RtValue::of_float(1.0 / x);
  case Sym::prims_isfinite:
    return RtValue::of_bool(std::isfinite(x));
  case Sym::prims_bitwise_not:
    return a.kind == RtValue::Kind::Bool ? RtValue::of_bool(!a.boolean)
                                         : RtValue::of_int(~a.integer);
  default:
    throw ExecError(qualified_name(s) + " of a number is not supported");
  }
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

void check_metadata(const Args &a, const ExecOptions &options) {
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
}

} // namespace

RtValue implement(Sym s, const RtValue *const *values, std::size_t count,
                  const ExecOptions &options) {
  Args a(values, count, options);
  switch (s) {
  // ---- prologue checks
  case Sym::prims_check_len: {
    std::size_t n = a[0].kind == RtValue::Kind::Dict ? a[0].items.size() / 2 : a[0].items.size();
    if (static_cast<int64_t>(n) != a.i(1))
      throw ExecError("check failed: length " + std::to_string(n) + ", expected " +
                      std::to_string(a.i(1)));
    return {};
  }
  case Sym::prims_check_tensor_shape_and_metadata:
  case Sym::prims_check_tensor_metadata:
  case Sym::prims_assert_tensor_metadata:
    check_metadata(a, options);
    return {};
  case Sym::prims_check_type:
    if (!is_number(a[0]) || (a.s(1) == "int" && a[0].kind == RtValue::Kind::Float) ||
        (a.s(1) == "float" && a[0].kind != RtValue::Kind::Float))
      throw ExecError("check failed: " + describe(a[0]) + " is not " + a.s(1));
    return {};
  case Sym::prims_check_number_type_and_value:
    if (!is_number(a[0]) || a[0].kind != a[1].kind || as_double(a[0]) != as_double(a[1]))
      throw ExecError("check failed: " + describe(a[0]) + ", the trace was specialised for " +
                      describe(a[1]));
    return {};
  case Sym::prims_check_literal_like:
    if (!same_literal(a[0], a[1]))
      throw ExecError("check failed: " + describe(a[0]) + ", the trace was specialised for " +
                      describe(a[1]));
    return {};
  case Sym::prims_check_none:
    if (a[0].kind != RtValue::Kind::None)
      throw ExecError("check failed: " + describe(a[0]) + " is not None");
    return {};
  case Sym::prims_shape: {
    const at::Tensor &t = a.t(0);
    std::vector<RtValue> dims;
    for (int64_t d = 0; d < t.dim(); ++d)
      dims.push_back(RtValue::of_int(t.size(d)));
    return RtValue::of_tuple(std::move(dims));
  }
  case Sym::prims_unpack_parameter:
  case Sym::prims_unpack_buffer:
    throw ExecError(qualified_name(s) + " is printed as fn.get_parameter(...) and runs as that");

  // ---- elementwise prims
  case Sym::prims_neg:
  case Sym::prims_abs:
  case Sym::prims_exp:
  case Sym::prims_log:
  case Sym::prims_log1p:
  case Sym::prims_tanh:
  case Sym::prims_rsqrt:
  case Sym::prims_sqrt:
  case Sym::prims_sin:
  case Sym::prims_cos:
  case Sym::prims_erf:
  case Sym::prims_floor:
  case Sym::prims_ceil:
  case Sym::prims_trunc:
  case Sym::prims_signbit:
  case Sym::prims_reciprocal:
  case Sym::prims_bitwise_not:
  case Sym::prims_isfinite:
    if (is_number(a[0])) return number_unary(s, a[0]);
    return tensor(unary_tensor(s, a.t(0)));
  case Sym::prims_add:
  case Sym::prims_sub:
  case Sym::prims_mul:
  case Sym::prims_div:
  case Sym::prims_pow:
  case Sym::prims_fmod:
  case Sym::prims_maximum:
  case Sym::prims_minimum:
  case Sym::prims_eq:
  case Sym::prims_ne:
  case Sym::prims_lt:
  case Sym::prims_le:
  case Sym::prims_gt:
  case Sym::prims_ge:
  case Sym::prims_bitwise_and:
  case Sym::prims_bitwise_or:
  case Sym::prims_bitwise_xor:
    if (is_number(a[0]) && is_number(a[1])) return number_binary(s, a[0], a[1]);
    return tensor(binary_tensor(s, a.tn(0), a.tn(1)));
  case Sym::prims_where:
    return tensor(at::where(a.tn(0), a.tn(1), a.tn(2)));
  case Sym::prims_convert_element_type: {
    const RtValue &to = a[1];
    if (to.kind == RtValue::Kind::DType) return tensor(a.t(0).to(scalar_type(to.text)));
    if (to.kind != RtValue::Kind::Builtin || !is_number(a[0]))
      throw ExecError("convert_element_type of " + describe(a[0]) + " to " + describe(to));
    // int(x) and float(x), as the tracer computed them when it recorded the conversion.
    if (to.text == "int") return value_or_throw(python_number_op(NumOp::to_int, number_of(a[0])));
    if (to.text == "float")
      return value_or_throw(python_number_op(NumOp::to_float, number_of(a[0])));
    return RtValue::of_bool(as_double(a[0]) != 0);
  }

  // ---- shape prims
  case Sym::prims_broadcast_in_dim: {
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
  case Sym::prims_reshape:
    return tensor(a.t(0).reshape(a.ints(1)));
  case Sym::prims_transpose:
    return tensor(a.t(0).permute(a.ints(1)));
  case Sym::prims_squeeze: {
    at::Tensor t = a.t(0);
    IntList dims = a.ints(1);
    for (auto it = dims.rbegin(); it != dims.rend(); ++it)
      t = t.squeeze(*it);
    return tensor(t);
  }
  case Sym::prims_slice_prim: {
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
  case Sym::prims_pad: {
    // padding_config: (low, high, interior) per dim, as Thunder's prims.pad (no negative ones)
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
  case Sym::prims_cat:
    return tensor(at::cat(a.tensors(0), a.i(1)));
  case Sym::prims_flip:
    return tensor(at::flip(a.t(0), a.ints(1)));
  case Sym::prims_stride_order:
    return tensor(stride_ordered(a.t(0), a.ints(1)));
  case Sym::prims_sum:
    return tensor(at::sum(a.t(0), a.ints(1)));
  case Sym::prims_amax:
    return tensor(at::amax(a.t(0), a.ints(1)));
  case Sym::prims_amin:
    return tensor(at::amin(a.t(0), a.ints(1)));
  case Sym::prims_prod:
    return tensor(reduce_all(a.t(0), a.ints(1),
                             [](const at::Tensor &t, int64_t d) { return at::prod(t, d); }));
  case Sym::prims_var:
    return tensor(
        at::var(a.t(0), at::OptionalIntArrayRef(a.ints(1)), c10::optional<int64_t>(a.i(2)), false));
  case Sym::prims_argmax:
  case Sym::prims_argmin: {
    c10::optional<int64_t> dim;
    if (!a.none(1)) dim = a.i(1);
    return tensor(s == Sym::prims_argmax ? at::argmax(a.t(0), dim) : at::argmin(a.t(0), dim));
  }
  case Sym::prims_take: {
    const at::Tensor &t = a.t(0), &index = a.t(1);
    int64_t d = a.i(2);
    at::Tensor picked = at::index_select(t, d, index.reshape({-1}));
    std::vector<int64_t> shape(t.sizes().begin(), t.sizes().begin() + d);
    for (int64_t k : index.sizes())
      shape.push_back(k);
    shape.insert(shape.end(), t.sizes().begin() + d + 1, t.sizes().end());
    return tensor(picked.reshape(shape));
  }
  case Sym::prims_take_along_axis:
    return tensor(at::gather(a.t(0), a.i(2), a.t(1)));
  case Sym::prims_index_add: // a, index, value, dim
    return tensor(at::index_add(a.t(0), a.i(3), a.t(1), a.t(2)));
  case Sym::prims_scatter_add: // a, index, value, dim
    return tensor(at::scatter_add(a.t(0), a.i(3), a.t(1), a.t(2)));
  case Sym::prims_matmul:
    return tensor(at::matmul(a.t(0), a.t(1)));
  case Sym::prims_linear: {
    c10::optional<at::Tensor> bias;
    if (!a.none(2)) bias = a.t(2);
    return tensor(at::linear(a.t(0), a.t(1), bias));
  }
  case Sym::prims_full:
    return tensor(at::full(a.ints(0), a.scalar(1), factory_options(a, 3, 2, at::kFloat)));
  case Sym::prims_iota: {
    at::TensorOptions opts = factory_options(a, 4, 3, at::kLong);
    int64_t n = a.i(0);
    bool floating = at::isFloatingType(opts.dtype().toScalarType());
    at::Tensor base = at::arange(n, opts.dtype(floating ? at::kDouble : at::kLong));
    return tensor((base * a.scalar(2) + a.scalar(1)).to(opts.dtype().toScalarType()));
  }
  case Sym::prims_tensor_from_sequence: {
    std::vector<double> values;
    std::vector<int64_t> ints, shape;
    flatten_numbers(a[0], values, ints, shape, 0);
    at::ScalarType dtype = a.dtype(1);
    at::Tensor t = at::isFloatingType(dtype)
                       ? at::tensor(values, at::TensorOptions().dtype(at::kDouble))
                       : at::tensor(ints, at::TensorOptions().dtype(at::kLong));
    return tensor(t.reshape(shape).to(dtype).to(a.device(2)));
  }
  case Sym::prims_uniform:
    return tensor(
        at::empty(a.ints(0), factory_options(a, 4, 3, at::kFloat)).uniform_(a.d(1), a.d(2)));
  case Sym::prims_copy_: {
    at::Tensor dst = a.t(1);
    dst.copy_(a.t(0));
    return tensor(dst);
  }

  // ---- ltorch: elementwise, as torch computes them
  case Sym::ltorch_add:
  case Sym::ltorch_sub: {
    at::Scalar alpha = a.none(2) ? at::Scalar(1) : a.scalar(2);
    if (!a.is_tensor(0) && !a.is_tensor(1)) {
      RtValue scaled = a.none(2) ? a[1] : number_binary(Sym::prims_mul, a[1], a[2]);
      return number_binary(s == Sym::ltorch_add ? Sym::prims_add : Sym::prims_sub, a[0], scaled);
    }
    return tensor(s == Sym::ltorch_add ? at::add(a.tn(0), a.tn(1), alpha)
                                       : at::sub(a.tn(0), a.tn(1), alpha));
  }
  case Sym::ltorch_mul:
    return tensor(at::mul(a.tn(0), a.tn(1)));
  case Sym::ltorch_true_divide:
    return tensor(at::true_divide(a.tn(0), a.tn(1)));
  case Sym::ltorch_div: {
    c10::optional<c10::string_view> mode;
    if (!a.none(2)) mode = c10::string_view(a.s(2));
    return tensor(at::div(a.tn(0), a.tn(1), mode));
  }
  case Sym::ltorch_floor_divide:
    return tensor(at::floor_divide(a.tn(0), a.tn(1)));
  case Sym::ltorch_remainder:
    return tensor(at::remainder(a.tn(0), a.tn(1)));
  case Sym::ltorch_pow:
    return tensor(at::pow(a.tn(0), a.tn(1)));
  case Sym::ltorch_maximum:
    return tensor(at::maximum(a.tn(0), a.tn(1)));
  case Sym::ltorch_minimum:
    return tensor(at::minimum(a.tn(0), a.tn(1)));
  case Sym::ltorch_eq:
    return tensor(at::eq(a.tn(0), a.tn(1)));
  case Sym::ltorch_ne:
    return tensor(at::ne(a.tn(0), a.tn(1)));
  case Sym::ltorch_lt:
    return tensor(at::lt(a.tn(0), a.tn(1)));
  case Sym::ltorch_le:
    return tensor(at::le(a.tn(0), a.tn(1)));
  case Sym::ltorch_gt:
    return tensor(at::gt(a.tn(0), a.tn(1)));
  case Sym::ltorch_ge:
    return tensor(at::ge(a.tn(0), a.tn(1)));
  case Sym::ltorch_logical_and:
    return tensor(at::logical_and(a.tn(0), a.tn(1)));
  case Sym::ltorch_logical_or:
    return tensor(at::logical_or(a.tn(0), a.tn(1)));
  case Sym::ltorch_logical_not:
    return tensor(at::logical_not(a.t(0)));
  case Sym::ltorch_bitwise_and:
    return tensor(at::bitwise_and(a.tn(0), a.tn(1)));
  case Sym::ltorch_bitwise_or:
    return tensor(at::bitwise_or(a.tn(0), a.tn(1)));
  case Sym::ltorch_bitwise_not:
    return tensor(at::bitwise_not(a.t(0)));
  case Sym::ltorch_neg:
    return tensor(at::neg(a.t(0)));
  case Sym::ltorch_abs:
    return tensor(at::abs(a.t(0)));
  case Sym::ltorch_exp:
    return tensor(at::exp(a.t(0)));
  case Sym::ltorch_log:
    return tensor(at::log(a.t(0)));
  case Sym::ltorch_log1p:
    return tensor(at::log1p(a.t(0)));
  case Sym::ltorch_tanh:
    return tensor(at::tanh(a.t(0)));
  case Sym::ltorch_rsqrt:
    return tensor(at::rsqrt(a.t(0)));
  case Sym::ltorch_sqrt:
    return tensor(at::sqrt(a.t(0)));
  case Sym::ltorch_sin:
    return tensor(at::sin(a.t(0)));
  case Sym::ltorch_cos:
    return tensor(at::cos(a.t(0)));
  case Sym::ltorch_erf:
    return tensor(at::erf(a.t(0)));
  case Sym::ltorch_floor:
    return tensor(at::floor(a.t(0)));
  case Sym::ltorch_sigmoid:
    return tensor(at::sigmoid(a.t(0)));
  case Sym::ltorch_relu:
    return tensor(at::relu(a.t(0)));
  case Sym::ltorch_silu:
    return tensor(at::silu(a.t(0)));
  case Sym::ltorch_gelu:
    return tensor(at::gelu(a.t(0), a.s(1)));
  case Sym::ltorch_clamp: {
    c10::optional<at::Scalar> lo, hi;
    if (!a.none(1)) lo = a.scalar(1);
    if (!a.none(2)) hi = a.scalar(2);
    return tensor(at::clamp(a.t(0), lo, hi));
  }
  case Sym::ltorch_where:
    return tensor(at::where(a.t(0), a.tn(1), a.tn(2)));
  case Sym::ltorch_masked_fill:
    if (a.is_tensor(2)) return tensor(a.t(0).masked_fill(a.t(1), a.t(2)));
    return tensor(a.t(0).masked_fill(a.t(1), a.scalar(2)));
  case Sym::ltorch_to: {
    at::Tensor t = a.t(0);
    if (!a.none(1)) t = t.to(a.device(1));
    if (!a.none(2)) t = t.to(a.dtype(2));
    return tensor(t);
  }
  case Sym::ltorch_type_as:
    return tensor(a.t(0).type_as(a.t(1)));

  // ---- ltorch: reductions and normalisations
  case Sym::ltorch_sum:
    return tensor(at::sum(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2), a.dtype_opt(3)));
  case Sym::ltorch_mean:
    return tensor(at::mean(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2), a.dtype_opt(3)));
  case Sym::ltorch_amax:
    return tensor(at::amax(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2)));
  case Sym::ltorch_amin:
    return tensor(at::amin(a.t(0), dims_arg(a, 1, a.t(0)), a.b(2)));
  case Sym::ltorch_prod: {
    if (a.none(1)) return tensor(at::prod(a.t(0), a.dtype_opt(3)));
    return tensor(at::prod(a.t(0), a.i(1), a.b(2), a.dtype_opt(3)));
  }
  case Sym::ltorch_var: {
    c10::optional<int64_t> correction;
    if (!a.none(4))
      correction = a.i(4);
    else if (!a.none(2))
      correction = a.b(2) ? 1 : 0;
    else
      correction = 1;
    return tensor(
        at::var(a.t(0), at::OptionalIntArrayRef(dims_arg(a, 1, a.t(0))), correction, a.b(3)));
  }
  case Sym::ltorch_argmax:
  case Sym::ltorch_argmin: {
    c10::optional<int64_t> dim;
    if (!a.none(1)) dim = a.i(1);
    return tensor(s == Sym::ltorch_argmax ? at::argmax(a.t(0), dim, a.b(2))
                                          : at::argmin(a.t(0), dim, a.b(2)));
  }
  case Sym::ltorch_softmax:
    return tensor(at::softmax(a.t(0), a.i(1), a.dtype_opt(2)));
  case Sym::ltorch_log_softmax:
    return tensor(at::log_softmax(a.t(0), a.i(1), a.dtype_opt(2)));
  case Sym::ltorch_layer_norm: {
    c10::optional<at::Tensor> w, b;
    if (!a.none(2)) w = a.t(2);
    if (!a.none(3)) b = a.t(3);
    return tensor(at::layer_norm(a.t(0), a.ints(1), w, b, a.d(4)));
  }
  case Sym::ltorch_rms_norm: {
    // As PyTorch documents F.rms_norm (libtorch 1.13 has none): x * rsqrt(mean(x^2) + eps) * w,
    // computed in float32 for half-precision inputs.
    at::Tensor x = a.t(0);
    at::ScalarType original = x.scalar_type();
    if (original == at::kHalf || original == at::kBFloat16) x = x.to(at::kFloat);
    IntList shape = a.ints(1);
    IntList dims;
    for (std::size_t k = 0; k < shape.size(); ++k)
      dims.push_back(x.dim() - static_cast<int64_t>(shape.size()) + static_cast<int64_t>(k));
    double eps = a.none(3) ? (x.scalar_type() == at::kDouble ? DBL_EPSILON : 1.1920928955078125e-07)
                           : a.d(3);
    at::Tensor out = x * at::rsqrt(at::mean(x * x, dims, true) + eps);
    if (!a.none(2)) out = out * a.t(2);
    return tensor(out.to(original));
  }

  // ---- ltorch: shapes
  case Sym::ltorch_reshape:
    return tensor(a.t(0).reshape(a.ints(1)));
  case Sym::ltorch_view:
    return tensor(a.t(0).view(a.ints(1)));
  case Sym::ltorch_contiguous:
    return tensor(a.t(0).contiguous());
  case Sym::ltorch_transpose:
    return tensor(a.t(0).transpose(a.i(1), a.i(2)));
  case Sym::ltorch_permute:
    return tensor(a.t(0).permute(a.ints(1)));
  case Sym::ltorch_unsqueeze:
    return tensor(a.t(0).unsqueeze(a.i(1)));
  case Sym::ltorch_squeeze: {
    if (a.none(1)) return tensor(a.t(0).squeeze());
    if (a[1].kind == RtValue::Kind::Int) return tensor(a.t(0).squeeze(a.i(1)));
    at::Tensor t = a.t(0);
    IntList dims = a.ints(1);
    for (int64_t &d : dims)
      if (d < 0) d += t.dim();
    std::sort(dims.begin(), dims.end());
    for (auto it = dims.rbegin(); it != dims.rend(); ++it)
      t = t.squeeze(*it);
    return tensor(t);
  }
  case Sym::ltorch_flatten:
    return tensor(a.t(0).flatten(a.i(1), a.i(2)));
  case Sym::ltorch_expand:
    return tensor(a.t(0).expand(a.ints(1)));
  case Sym::ltorch_repeat:
    return tensor(a.t(0).repeat(a.ints(1)));
  case Sym::ltorch_repeat_interleave: {
    c10::optional<int64_t> dim;
    if (!a.none(2)) dim = a.i(2);
    return tensor(a.t(0).repeat_interleave(a.i(1), dim));
  }
  case Sym::ltorch_split:
    if (a[1].kind == RtValue::Kind::Int) return tuple_of(a.t(0).split(a.i(1), a.i(2)));
    return tuple_of(a.t(0).split_with_sizes(a.ints(1), a.i(2)));
  case Sym::ltorch_chunk:
    return tuple_of(a.t(0).chunk(a.i(1), a.i(2)));
  case Sym::ltorch_cat:
    return tensor(at::cat(a.tensors(0), a.i(1)));
  case Sym::ltorch_stack:
    return tensor(at::stack(a.tensors(0), a.i(1)));
  case Sym::ltorch_flip:
    return tensor(at::flip(a.t(0), a.ints(1)));
  case Sym::ltorch_tril:
    return tensor(at::tril(a.t(0), a.i(1)));
  case Sym::ltorch_triu:
    return tensor(at::triu(a.t(0), a.i(1)));

  // ---- ltorch: indexing, matrix products
  case Sym::ltorch_getitem:
    return tensor(a.t(0).index(tensor_indices(a[1], a.t(0).device())));
  case Sym::ltorch_index_select:
    return tensor(at::index_select(a.t(0), a.i(1), a.t(2)));
  case Sym::ltorch_gather:
    return tensor(at::gather(a.t(0), a.i(1), a.t(2)));
  case Sym::ltorch_matmul:
    return tensor(at::matmul(a.t(0), a.t(1)));
  case Sym::ltorch_linear: {
    c10::optional<at::Tensor> bias;
    if (!a.none(2)) bias = a.t(2);
    return tensor(at::linear(a.t(0), a.t(1), bias));
  }
  case Sym::ltorch_outer:
    return tensor(at::outer(a.t(0), a.t(1)));

  // ---- ltorch: torch.nn.functional
  case Sym::ltorch_embedding:
    if (!a.none(3)) throw ExecError("embedding with max_norm is not supported");
    return tensor(at::embedding(a.t(1), a.t(0), a.none(2) ? -1 : a.i(2), a.b(5), a.b(6)));
  case Sym::ltorch_scaled_dot_product_attention:
    return tensor(attention(a));
  case Sym::ltorch_cross_entropy: {
    c10::optional<at::Tensor> weight;
    if (!a.none(2)) weight = a.t(2);
    return tensor(
        at::cross_entropy_loss(a.t(0), a.t(1), weight, reduction_of(a.s(6)), a.i(4), a.d(7)));
  }
  case Sym::ltorch_nll_loss: {
    c10::optional<at::Tensor> weight;
    if (!a.none(2)) weight = a.t(2);
    return tensor(at::nll_loss_nd(a.t(0), a.t(1), weight, reduction_of(a.s(6)), a.i(4)));
  }
  case Sym::ltorch_mse_loss:
    return tensor(at::mse_loss(a.t(0), a.t(1), reduction_of(a.s(4))));
  case Sym::ltorch_dropout:
    return tensor(at::dropout(a.t(0), a.d(1), a.b(2)));

  // ---- ltorch: factories
  case Sym::ltorch_arange: {
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
  case Sym::ltorch_full:
    return tensor(at::full(a.ints(0), a.scalar(1), factory_options(a, 2, 4, number_type(a[1]))));
  case Sym::ltorch_zeros:
  case Sym::ltorch_empty:
    // empty as zeros: the traces fill it with zeros too, so the values compare.
    return tensor(at::zeros(a.ints(0), factory_options(a, 1, 3, at::kFloat)));
  case Sym::ltorch_ones:
    return tensor(at::ones(a.ints(0), factory_options(a, 1, 3, at::kFloat)));
  case Sym::ltorch_full_like: {
    const at::Tensor &t = a.t(0);
    at::TensorOptions opts = t.options().dtype(a.dtype_opt(2).value_or(t.scalar_type()));
    if (!a.none(4)) opts = opts.device(a.device(4));
    return tensor(at::full(t.sizes(), a.scalar(1), opts));
  }
  case Sym::ltorch_zeros_like:
  case Sym::ltorch_ones_like: {
    const at::Tensor &t = a.t(0);
    at::TensorOptions opts = t.options().dtype(a.dtype_opt(1).value_or(t.scalar_type()));
    if (!a.none(3)) opts = opts.device(a.device(3));
    return tensor(s == Sym::ltorch_zeros_like ? at::zeros(t.sizes(), opts)
                                              : at::ones(t.sizes(), opts));
  }
  case Sym::ltorch_tensor: {
    std::vector<double> values;
    std::vector<int64_t> ints, shape;
    flatten_numbers(a[0], values, ints, shape, 0);
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
    scan(a[0]);
    at::ScalarType dtype = a.dtype_opt(1).value_or(bools    ? at::kBool
                                                   : floats ? at::kFloat
                                                            : at::kLong);
    at::Tensor t = floats ? at::tensor(values, at::TensorOptions().dtype(at::kDouble))
                          : at::tensor(ints, at::TensorOptions().dtype(at::kLong));
    return tensor(t.reshape(shape).to(dtype).to(a.device(2)));
  }
  }
  throw ExecError(qualified_name(s) + " has no libtorch implementation");
}

} // namespace tracelint::tracer
