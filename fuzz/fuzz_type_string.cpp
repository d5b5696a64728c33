// Annotation type strings: parse never crashes; what parses prints and parses back the same.
#include "tracelint/core/type_string.hpp"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  tracelint::Result<tracelint::ProxyType> type = tracelint::parse_type_string(text);
  if (!type) return 0;
  std::string printed = tracelint::print_type_string(*type);
  tracelint::Result<tracelint::ProxyType> again = tracelint::parse_type_string(printed);
  if (!again || !(*again == *type && print_type_string(*again) == printed)) __builtin_trap();
  return 0;
}
