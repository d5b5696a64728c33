#pragma once
// The dtypes, described once (as thunder/core/dtypes.py): every name, alias, size and spelling of
// a dtype anywhere in tracelint (the validator's names, the tracer, its executor and its fusion
// kernels) is read from this table (dtypes.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tracelint {

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
  complex32,
  float8_e5m2,
  float8_e4m3fn,
  float8_e5m2fnuz,
  float8_e4m3fnuz,
  float8_e8m0fnu,
  float4_e2m1fn_x2,
  uint64,
};
// How many dtypes there are: a table indexed by DType has this size.
inline constexpr std::size_t kDTypeCount = static_cast<std::size_t>(DType::uint64) + 1;

enum class DTypeKind : uint8_t { floating, complex, integer, boolean };

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
  const char *torch_alias;  // float (torch.float); nullptr: none
  const char *short_name;   // f32, ui8 (annotations, as Thunder prints them)
  const char *thunder_name; // float32 (thunder.dtypes.float32; bool8 for bool); its weak
                            // variant adds "_" (float32_)
  int bits;
  DTypeKind kind;
  // Whether the tracer traces it (torch.float8_e5m2 is a name the validator knows, no more).
  bool traced;
  // libtorch's c10::ScalarType, as c10::toString spells it; nullptr: the executor has none.
  const char *aten_name;
  // The Tensor method converting to it (x.float()); nullptr: none.
  const char *conversion_method;
  // nullptr: a fused kernel cannot hold it (the prims on it do not fuse).
  const CudaSpelling *cuda;
};

std::span<const DTypeInfo> dtype_table();
const DTypeInfo &dtype_info(DType d);

// Which spelling of a dtype a name is read as.
enum class DTypeSpelling : uint8_t {
  torch,      // torch.float32 or an alias (torch.float, torch.half, torch.long, ...)
  thunder,    // thunder.dtypes.float32, bool8, or a weak variant (float32_)
  short_name, // f32, bf16, b8, ui8 (or u8, tracelint's before it spelled uint8 as Thunder):
              // an annotation's
};
// The dtype a name spells in that namespace, traced or not.
std::optional<DType> dtype_spelled(std::string_view name, DTypeSpelling spelling);

inline bool is_floating(DType d) {
  return dtype_info(d).kind == DTypeKind::floating;
}
inline bool is_complex(DType d) {
  return dtype_info(d).kind == DTypeKind::complex;
}
inline bool is_integral(DType d) { // bool included
  return dtype_info(d).kind == DTypeKind::integer || dtype_info(d).kind == DTypeKind::boolean;
}

} // namespace tracelint
