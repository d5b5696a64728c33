#pragma once
// The tracer's dtypes, described once (as thunder/core/dtypes.py): every name, size and
// spelling of a dtype anywhere in the tracer, its executor and its fusion kernels is read from
// this table (dtypes.cpp).
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracelint::tracer {

enum class DType : uint8_t {
  float32,
  float16,
  bfloat16,
  float64,
  int64,
  int32,
  int16,
  int8,
  uint8,
  bool_,
  complex64,
  complex128,
};

// A dtype's C++ types in a fused CUDA kernel: as stored, and as computed with (f16 and bf16 in
// float), with the conversions between them ("" where there is none).
struct CudaSpelling {
  const char *storage;
  const char *compute;
  const char *load;  // storage -> compute
  const char *store; // compute -> storage
};

struct DTypeInfo {
  DType dtype;
  const char *torch_name;   // float32 (torch.float32)
  const char *short_name;   // f32 (annotations)
  const char *thunder_name; // float32 (thunder.dtypes.float32; bool8 for bool)
  int bits;
  // libtorch's c10::ScalarType, as c10::toString spells it; nullptr: the executor has none.
  const char *aten_name;
  // nullptr: a fused kernel cannot hold it (the prims on it do not fuse).
  const CudaSpelling *cuda;
};
const DTypeInfo &dtype_info(DType d);
// By torch name, short name or torch alias (float, half, double, long, int, short, bool).
std::optional<DType> dtype_from_name(std::string_view name);
// By torch name, short name or Thunder's name (what a printed trace may spell).
std::optional<DType> dtype_from_trace_name(std::string_view name);
// By libtorch's name of its scalar type (Float, BFloat16, ...).
std::optional<DType> dtype_from_aten_name(std::string_view name);
bool is_floating(DType d);
bool is_complex(DType d);
bool is_integral(DType d); // bool included
// float32 for a floating dtype's default, as torch.get_default_dtype().
inline constexpr DType kDefaultFloat = DType::float32;

} // namespace tracelint::tracer
