// The dtype table: each dtype's names, size and spellings, once.
#include "tracelint/core/dtypes.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace tracelint {

namespace {

constexpr CudaSpelling kCudaFloat{"float", "float", "", ""};
constexpr CudaSpelling kCudaDouble{"double", "double", "", ""};
constexpr CudaSpelling kCudaHalf{"__half", "float", "__half2float", "__float2half"};
constexpr CudaSpelling kCudaBFloat{"__nv_bfloat16", "float", "__bfloat162float",
                                   "__float2bfloat16"};
constexpr CudaSpelling kCudaLong{"long long", "long long", "", ""};
constexpr CudaSpelling kCudaInt{"int", "int", "", ""};
constexpr CudaSpelling kCudaShort{"short", "short", "", ""};
constexpr CudaSpelling kCudaChar{"signed char", "signed char", "", ""};
constexpr CudaSpelling kCudaByte{"unsigned char", "unsigned char", "", ""};
constexpr CudaSpelling kCudaBool{"bool", "bool", "", ""};

constexpr DTypeKind F = DTypeKind::floating, C = DTypeKind::complex, I = DTypeKind::integer,
                    B = DTypeKind::boolean;

// In DType's order.
constexpr std::array<DTypeInfo, kDTypeCount> kDTypes = {{
    // clang-format off
    // dtype            torch name       alias      short        Thunder name   bits kind traced
    //                  ATen name     conversion  CUDA
    {DType::float32,    "float32",       "float",   "f32",       "float32",       32, F, true,
                        "Float",      "float",    &kCudaFloat},
    {DType::float16,    "float16",       "half",    "f16",       "float16",       16, F, true,
                        "Half",       "half",     &kCudaHalf},
    {DType::bfloat16,   "bfloat16",      nullptr,   "bf16",      "bfloat16",      16, F, true,
                        "BFloat16",   "bfloat16", &kCudaBFloat},
    {DType::float64,    "float64",       "double",  "f64",       "float64",       64, F, true,
                        "Double",     "double",   &kCudaDouble},
    {DType::int64,      "int64",         "long",    "i64",       "int64",         64, I, true,
                        "Long",       "long",     &kCudaLong},
    {DType::int32,      "int32",         "int",     "i32",       "int32",         32, I, true,
                        "Int",        "int",      &kCudaInt},
    {DType::int16,      "int16",         "short",   "i16",       "int16",         16, I, true,
                        "Short",      "short",    &kCudaShort},
    {DType::int8,       "int8",          nullptr,   "i8",        "int8",           8, I, true,
                        "Char",       "char",     &kCudaChar},
    {DType::uint8,      "uint8",         nullptr,   "ui8",       "uint8",          8, I, true,
                        "Byte",       "byte",     &kCudaByte},
    {DType::bool_,      "bool",          nullptr,   "b8",        "bool8",          8, B, true,
                        "Bool",       "bool",     &kCudaBool},
    {DType::complex64,  "complex64",     "cfloat",  "c64",       "complex64",     64, C, true,
                        nullptr,      nullptr,    nullptr},
    {DType::complex128, "complex128",    "cdouble", "c128",      "complex128",   128, C, true,
                        nullptr,      nullptr,    nullptr},
    {DType::complex32,  "complex32",     "chalf",   "c32",       "complex32",     32, C, false,
                        nullptr,      nullptr,    nullptr},
    {DType::float8_e5m2, "float8_e5m2",  nullptr,   "f8_e5m2",   "float8_e5m2",    8, F, false,
                        nullptr,      nullptr,    nullptr},
    {DType::float8_e4m3fn, "float8_e4m3fn", nullptr, "f8_e4m3fn", "float8_e4m3fn", 8, F, false,
                        nullptr,      nullptr,    nullptr},
    {DType::float8_e5m2fnuz, "float8_e5m2fnuz", nullptr, "f8_e5m2fnuz", "float8_e5m2fnuz", 8, F,
                        false, nullptr, nullptr,  nullptr},
    {DType::float8_e4m3fnuz, "float8_e4m3fnuz", nullptr, "f8_e4m3fnuz", "float8_e4m3fnuz", 8, F,
                        false, nullptr, nullptr,  nullptr},
    {DType::float8_e8m0fnu, "float8_e8m0fnu", nullptr, "f8_e8m0fnu", "float8_e8m0fnu", 8, F,
                        false, nullptr, nullptr,  nullptr},
    {DType::float4_e2m1fn_x2, "float4_e2m1fn_x2", nullptr, "f4_e2m1fn_x2", "float4_e2m1fn_x2", 4,
                        F, false, nullptr, nullptr, nullptr},
    {DType::uint64,     "uint64",        nullptr,   "ui64",      "uint64",        64, I, false,
                        nullptr,      nullptr,    nullptr},
    // clang-format on
}};

constexpr bool in_order() {
  for (std::size_t i = 0; i < kDTypes.size(); ++i)
    if (static_cast<std::size_t>(kDTypes[i].dtype) != i) return false;
  return true;
}
static_assert(in_order(), "kDTypes is indexed by DType");

// tracelint spelled uint8 u8 in annotations and --arg before it spelled it as Thunder does.
constexpr std::pair<std::string_view, DType> kShortAliases[] = {{"u8", DType::uint8}};

bool spells(const DTypeInfo &row, std::string_view name, DTypeSpelling spelling) {
  if (spelling == DTypeSpelling::torch)
    return name == row.torch_name || (row.torch_alias && name == row.torch_alias);
  if (spelling == DTypeSpelling::short_name) {
    for (const auto &[alias, dtype] : kShortAliases)
      if (name == alias && dtype == row.dtype) return true;
    return name == row.short_name;
  }
  std::string_view thunder = row.thunder_name;
  if (name == thunder) return true;
  // Thunder's weak variants (float32_: a Python number's dtype in a promotion).
  return name.size() == thunder.size() + 1 && name.starts_with(thunder) && name.back() == '_';
}

} // namespace

std::span<const DTypeInfo> dtype_table() {
  return kDTypes;
}

const DTypeInfo &dtype_info(DType d) {
  return kDTypes[static_cast<std::size_t>(d)];
}

std::optional<DType> dtype_spelled(std::string_view name, DTypeSpelling spelling) {
  for (const DTypeInfo &row : kDTypes)
    if (spells(row, name, spelling)) return row.dtype;
  return std::nullopt;
}

} // namespace tracelint
