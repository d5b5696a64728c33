// The dtype table: each dtype's names, size and spellings, once.
#include "tracelint/tracer/dtypes.hpp"

#include <array>

namespace tracelint::tracer {

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

// In DType's order.
constexpr std::array<DTypeInfo, 12> kDTypes = {{
    {DType::float32, "float32", "f32", "float32", 32, "Float", &kCudaFloat},
    {DType::float16, "float16", "f16", "float16", 16, "Half", &kCudaHalf},
    {DType::bfloat16, "bfloat16", "bf16", "bfloat16", 16, "BFloat16", &kCudaBFloat},
    {DType::float64, "float64", "f64", "float64", 64, "Double", &kCudaDouble},
    {DType::int64, "int64", "i64", "int64", 64, "Long", &kCudaLong},
    {DType::int32, "int32", "i32", "int32", 32, "Int", &kCudaInt},
    {DType::int16, "int16", "i16", "int16", 16, "Short", &kCudaShort},
    {DType::int8, "int8", "i8", "int8", 8, "Char", &kCudaChar},
    {DType::uint8, "uint8", "u8", "uint8", 8, "Byte", &kCudaByte},
    {DType::bool_, "bool", "b8", "bool8", 8, "Bool", &kCudaBool},
    {DType::complex64, "complex64", "c64", "complex64", 64, nullptr, nullptr},
    {DType::complex128, "complex128", "c128", "complex128", 128, nullptr, nullptr},
}};

constexpr bool in_order() {
  for (std::size_t i = 0; i < kDTypes.size(); ++i)
    if (static_cast<std::size_t>(kDTypes[i].dtype) != i) return false;
  return true;
}
static_assert(in_order(), "kDTypes is indexed by DType");

constexpr std::pair<const char *, DType> kAliases[] = {
    {"float", DType::float32},    {"half", DType::float16},      {"double", DType::float64},
    {"long", DType::int64},       {"int", DType::int32},         {"short", DType::int16},
    {"cfloat", DType::complex64}, {"cdouble", DType::complex128}};

} // namespace

const DTypeInfo &dtype_info(DType d) {
  return kDTypes[static_cast<std::size_t>(d)];
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const DTypeInfo &i : kDTypes)
    if (name == i.torch_name || name == i.short_name) return i.dtype;
  for (const auto &[alias, d] : kAliases)
    if (name == alias) return d;
  return std::nullopt;
}

std::optional<DType> dtype_from_trace_name(std::string_view name) {
  for (const DTypeInfo &i : kDTypes)
    if (name == i.torch_name || name == i.short_name || name == i.thunder_name) return i.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_aten_name(std::string_view name) {
  for (const DTypeInfo &i : kDTypes)
    if (i.aten_name && name == i.aten_name) return i.dtype;
  return std::nullopt;
}

bool is_floating(DType d) {
  return d == DType::float32 || d == DType::float16 || d == DType::bfloat16 || d == DType::float64;
}
bool is_complex(DType d) {
  return d == DType::complex64 || d == DType::complex128;
}
bool is_integral(DType d) {
  return !is_floating(d) && !is_complex(d);
}

} // namespace tracelint::tracer
