#pragma once
// The tracer's view of the dtype table (tracelint/core/dtypes.hpp): the dtypes it traces, looked
// up by the names a traced program, a printed trace or libtorch gives them.
#include "tracelint/core/dtypes.hpp"

#include <optional>
#include <string_view>

namespace tracelint::tracer {

using tracelint::CudaSpelling;
using tracelint::DType;
using tracelint::dtype_info;
using tracelint::DTypeInfo;

// By torch name, short name or torch alias (float, half, double, long, int, short, bool).
std::optional<DType> dtype_from_name(std::string_view name);
// By torch name, short name or Thunder's name (what a printed trace may spell).
std::optional<DType> dtype_from_trace_name(std::string_view name);
// By libtorch's name of its scalar type (Float, BFloat16, ...).
std::optional<DType> dtype_from_aten_name(std::string_view name);
// The dtype a Tensor method converts to (x.float(), x.half(), x.long(), ...): those the
// executor runs.
std::optional<DType> dtype_of_conversion_method(std::string_view name);
// float32 for a floating dtype's default, as torch.get_default_dtype().
inline constexpr DType kDefaultFloat = DType::float32;

} // namespace tracelint::tracer
