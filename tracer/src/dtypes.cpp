// The traced dtypes by each of their names, read from the dtype table.
#include "tracelint/tracer/dtypes.hpp"

namespace tracelint::tracer {

namespace {

template <class Matches> std::optional<DType> traced_dtype(Matches matches) {
  for (const DTypeInfo &row : dtype_table())
    if (row.traced && matches(row)) return row.dtype;
  return std::nullopt;
}

} // namespace

std::optional<DType> dtype_from_name(std::string_view name) {
  std::optional<DType> by_short = dtype_spelled(name, DTypeSpelling::short_name);
  return traced_dtype([&](const DTypeInfo &row) {
    return row.dtype == by_short || name == row.torch_name ||
           (row.torch_alias && name == row.torch_alias);
  });
}

std::optional<DType> dtype_from_trace_name(std::string_view name) {
  std::optional<DType> by_short = dtype_spelled(name, DTypeSpelling::short_name);
  return traced_dtype([&](const DTypeInfo &row) {
    return row.dtype == by_short || name == row.torch_name || name == row.thunder_name;
  });
}

std::optional<DType> dtype_from_aten_name(std::string_view name) {
  return traced_dtype([&](const DTypeInfo &row) { return row.aten_name && name == row.aten_name; });
}

std::optional<DType> dtype_of_conversion_method(std::string_view name) {
  return traced_dtype(
      [&](const DTypeInfo &row) { return row.conversion_method && name == row.conversion_method; });
}

} // namespace tracelint::tracer
