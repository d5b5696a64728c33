#include "runtime.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/dtypes.hpp"

#include <array>
#include <optional>

namespace tracelint::tracer {

RtValue RtValue::of_tensor(at::Tensor t) {
  RtValue v;
  v.kind = Kind::Tensor;
  v.tensor = std::move(t);
  return v;
}
RtValue RtValue::of_int(int64_t i) {
  RtValue v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}
RtValue RtValue::of_float(double d) {
  RtValue v;
  v.kind = Kind::Float;
  v.real = d;
  return v;
}
RtValue RtValue::of_bool(bool b) {
  RtValue v;
  v.kind = Kind::Bool;
  v.boolean = b;
  v.integer = b;
  return v;
}
RtValue RtValue::of_tuple(std::vector<RtValue> items) {
  RtValue v;
  v.kind = Kind::Tuple;
  v.items = std::move(items);
  return v;
}

namespace {

// libtorch's scalar type of each dtype the table gives an ATen name, found by that name.
const std::array<std::optional<at::ScalarType>, kDTypeCount> &scalar_types() {
  static const std::array<std::optional<at::ScalarType>, kDTypeCount> by_dtype = [] {
    std::array<std::optional<at::ScalarType>, kDTypeCount> out{};
    for (int i = 0; i < static_cast<int>(at::ScalarType::NumOptions); ++i) {
      auto t = static_cast<at::ScalarType>(i);
      if (std::optional<DType> d = dtype_from_aten_name(c10::toString(t)))
        out[static_cast<std::size_t>(*d)] = t;
    }
    return out;
  }();
  return by_dtype;
}

} // namespace

at::ScalarType scalar_type(const std::string &name) {
  if (std::optional<DType> d = dtype_from_trace_name(name))
    if (std::optional<at::ScalarType> t = scalar_types()[static_cast<std::size_t>(*d)]) return *t;
  throw ExecError("unknown dtype " + name);
}

std::string dtype_name(at::ScalarType t) {
  if (std::optional<DType> d = dtype_from_aten_name(c10::toString(t)))
    return dtype_info(*d).torch_name;
  return c10::toString(t);
}

// The kinds that a model Value, an interpreter Obj and a runtime value share, mapped once.
RtValue::Kind runtime_kind(ValueKind k) {
  switch (k) {
  case ValueKind::String:
    return RtValue::Kind::Str;
  case ValueKind::DType:
    return RtValue::Kind::DType;
  case ValueKind::Device:
    return RtValue::Kind::Device;
  case ValueKind::Tuple:
    return RtValue::Kind::Tuple;
  case ValueKind::List:
    return RtValue::Kind::List;
  case ValueKind::Dict:
    return RtValue::Kind::Dict;
  case ValueKind::Slice:
    return RtValue::Kind::Slice;
  default:
    throw ExecError("cannot evaluate this value");
  }
}

bool is_number(const RtValue &v) {
  return v.kind == RtValue::Kind::Bool || v.kind == RtValue::Kind::Int ||
         v.kind == RtValue::Kind::Float;
}
double as_double(const RtValue &v) {
  return v.kind == RtValue::Kind::Float ? v.real : static_cast<double>(v.integer);
}
at::Scalar as_scalar(const RtValue &v) {
  if (v.kind == RtValue::Kind::Float) return at::Scalar(v.real);
  if (v.kind == RtValue::Kind::Bool) return at::Scalar(v.boolean);
  return at::Scalar(v.integer);
}

// A Python number next to a tensor follows PyTorch's promotion (a "wrapped number").
at::Tensor as_tensor(const RtValue &v, const at::Device &device) {
  if (v.kind == RtValue::Kind::Tensor) return v.tensor;
  if (!is_number(v)) throw ExecError("expected a tensor or a number");
  at::Tensor t = c10::scalar_to_tensor(as_scalar(v), device);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// A shape or a list of dims: on the stack (one per broadcast, reshape or reduction run).
using IntList = c10::SmallVector<int64_t, 8>;

IntList int_list(const RtValue &v) {
  if (v.kind != RtValue::Kind::Tuple && v.kind != RtValue::Kind::List)
    throw ExecError("expected a tuple or list of ints");
  IntList out;
  for (const RtValue &item : v.items) {
    if (item.kind != RtValue::Kind::Int && item.kind != RtValue::Kind::Bool)
      throw ExecError("expected an int in a shape or dim list");
    out.push_back(item.integer);
  }
  return out;
}

const at::Tensor &tensor_arg(const RtValue &v, const char *what) {
  if (v.kind != RtValue::Kind::Tensor) throw ExecError(std::string(what) + " must be a tensor");
  return v.tensor;
}

std::string describe(const RtValue &v) {
  switch (v.kind) {
  case RtValue::Kind::Tensor: {
    std::string s = "tensor " + dtype_name(v.tensor.scalar_type()) + "[";
    for (int64_t i = 0; i < v.tensor.dim(); ++i)
      s += (i ? ", " : "") + std::to_string(v.tensor.size(i));
    return s + "]";
  }
  case RtValue::Kind::Int:
    return "int " + std::to_string(v.integer);
  case RtValue::Kind::Float:
    return "float " + python_float(v.real);
  case RtValue::Kind::Bool:
    return v.boolean ? "True" : "False";
  case RtValue::Kind::None:
    return "None";
  case RtValue::Kind::Ellipsis:
    return "Ellipsis";
  case RtValue::Kind::Str:
    return python_string(v.text);
  case RtValue::Kind::Tuple:
    return "tuple of " + std::to_string(v.items.size());
  case RtValue::Kind::List:
    return "list of " + std::to_string(v.items.size());
  case RtValue::Kind::Dict:
    return "dict";
  case RtValue::Kind::Slice:
    return "slice";
  case RtValue::Kind::DType:
    return "dtype " + v.text;
  case RtValue::Kind::Device:
    return "device " + v.text;
  case RtValue::Kind::Builtin:
    return v.text;
  case RtValue::Kind::Module:
    return "the traced module";
  }
  return "value";
}

bool same_literal(const RtValue &a, const RtValue &b) {
  if (is_number(a) && is_number(b)) return as_double(a) == as_double(b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case RtValue::Kind::None:
  case RtValue::Kind::Ellipsis:
    return true;
  case RtValue::Kind::Str:
  case RtValue::Kind::DType:
  case RtValue::Kind::Device:
    return a.text == b.text;
  default:
    return false;
  }
}

// A Value without names as a runtime value (constants of a trace, literal inputs).
RtValue literal(const Value &v) {
  RtValue out;
  switch (v.kind) {
  case ValueKind::None:
    return out;
  case ValueKind::Ellipsis:
    out.kind = RtValue::Kind::Ellipsis;
    return out;
  case ValueKind::Bool:
    return RtValue::of_bool(v.boolean);
  case ValueKind::Int:
    return RtValue::of_int(v.integer);
  case ValueKind::Float:
    return RtValue::of_float(v.real);
  case ValueKind::String:
  case ValueKind::DType:
  case ValueKind::Device:
    out.kind = runtime_kind(v.kind);
    out.text = v.text;
    return out;
  default: // a collection; a name or a call is not a constant
    out.kind = runtime_kind(v.kind);
    for (const Value &item : v.items)
      out.items.push_back(literal(item));
    return out;
  }
}

std::string print_statement_line(const Statement &s) {
  Statement copy = s;
  copy.subsymbols.clear();
  copy.type_comment.reset();
  std::string line = print_statement(copy, 0);
  while (!line.empty() && line.back() == '\n')
    line.pop_back();
  if (line.rfind("# ", 0) == 0) line = line.substr(2);
  return line;
}

std::string where(const std::string &trace, const Statement &s) {
  return trace + " line " + std::to_string(s.span.line) + " (`" + print_statement_line(s) + "`)";
}

std::string device_name(const at::Device &d) {
  return d.is_cuda() ? "cuda:" + std::to_string(d.index() < 0 ? 0 : d.index()) : "cpu";
}

} // namespace tracelint::tracer
