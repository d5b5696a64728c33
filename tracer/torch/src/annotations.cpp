#include "annotations.hpp"

#include "tracelint/core/value.hpp"
#include "tracelint/tracer/object.hpp"

#include <cmath>
#include <cstdlib>

namespace tracelint::tracer {

namespace {

std::string tensor_description(const at::Tensor &t) {
  std::string out = device_name(t.device()) + " " + dtype_name(t.scalar_type()) + "[";
  for (int64_t d = 0; d < t.dim(); ++d)
    out += (d ? ", " : "") + std::to_string(t.size(d));
  return out + "]";
}

std::string tensor_mismatch(const at::Tensor &t, const AnnotationCheck &check,
                            const std::function<const RtValue *(int)> &symbol,
                            const ExecOptions &options) {
  const ProxyType &type = check.type;
  std::optional<DType> dtype = dtype_from_name(type.dtype);
  bool dtype_ok = !dtype || scalar_type(dtype_info(*dtype).torch_name) == t.scalar_type();
  at::Device device = t.device();
  bool device_ok = type.device.empty() || type.device == device_name(device) ||
                   (type.device.rfind("cuda", 0) == 0 && device.is_cpu() && options.cuda_as_cpu);
  bool shape_ok = static_cast<int64_t>(type.shape.size()) == t.dim();
  for (std::size_t d = 0; shape_ok && d < type.shape.size(); ++d) {
    const Dim &dim = type.shape[d];
    int64_t size = t.size(static_cast<int64_t>(d));
    if (!dim.symbolic) {
      shape_ok = dim.size == size;
      continue;
    }
    const RtValue *bound = check.dim_slots[d] >= 0 ? symbol(check.dim_slots[d]) : nullptr;
    if (bound && bound->kind == RtValue::Kind::Int) shape_ok = bound->integer == size;
  }
  if (dtype_ok && device_ok && shape_ok) return "";
  return "its value is " + tensor_description(t);
}

std::string number_mismatch(const RtValue &v, const ProxyType &type, const ExecOptions &options) {
  bool kind_ok = (type.kind == ProxyKind::Integer && v.kind == RtValue::Kind::Int) ||
                 (type.kind == ProxyKind::Float && v.kind == RtValue::Kind::Float) ||
                 (type.kind == ProxyKind::Bool && v.kind == RtValue::Kind::Bool);
  if (!kind_ok) return "its value is " + describe(v);
  if (!options.check_number_values || type.value.empty()) return "";
  bool value_ok = true;
  if (v.kind == RtValue::Kind::Int) {
    value_ok = type.value == std::to_string(v.integer);
  } else if (v.kind == RtValue::Kind::Bool) {
    value_ok = type.value == (v.boolean ? "True" : "False");
  } else {
    double annotated = type.value == "inf"    ? INFINITY
                       : type.value == "-inf" ? -INFINITY
                       : type.value == "nan"  ? NAN
                                              : std::strtod(type.value.c_str(), nullptr);
    value_ok = annotated == v.real || (std::isnan(annotated) && std::isnan(v.real));
  }
  return value_ok ? "" : "its value is " + describe(v);
}

} // namespace

std::optional<AnnotationCheck> annotation_check(const std::string &name, const std::string &text) {
  Result<ProxyType> type = parse_type_string(text);
  if (!type) return std::nullopt;
  switch (type->kind) {
  case ProxyKind::Tensor:
  case ProxyKind::Integer:
  case ProxyKind::Float:
  case ProxyKind::Bool:
    break;
  default:
    return std::nullopt;
  }
  AnnotationCheck check{name, text, type.value(), {}};
  check.dim_slots.assign(check.type.shape.size(), -1);
  return check;
}

std::string annotation_mismatch(const RtValue &value, const AnnotationCheck &check,
                                const std::function<const RtValue *(int)> &symbol,
                                const ExecOptions &options) {
  std::string why;
  if (check.type.kind == ProxyKind::Tensor)
    why = value.kind == RtValue::Kind::Tensor
              ? tensor_mismatch(value.tensor, check, symbol, options)
              : "its value is " + describe(value);
  else
    why = number_mismatch(value, check.type, options);
  if (why.empty()) return "";
  return "`" + check.name + "` is annotated \"" + check.text + "\", but " + why;
}

} // namespace tracelint::tracer
