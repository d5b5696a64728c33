#pragma once
// Text from the input (a name, an --arg value) quoted in a message, cut to a readable length:
// a 10 MB name must not make a 10 MB message.
#include <cstddef>
#include <string>
#include <string_view>

namespace tracelint::tracer {

inline constexpr std::size_t kExcerptBytes = 80;

inline std::string excerpt(std::string_view text) {
  if (text.size() <= kExcerptBytes) return std::string(text);
  std::size_t cut = kExcerptBytes - 3;
  // Not inside a UTF-8 sequence: back to the byte that starts one.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return std::string(text.substr(0, cut)) + "...";
}

} // namespace tracelint::tracer
