#include "tracelint/core/escape.hpp"

namespace tracelint {

namespace {

// The length of the valid UTF-8 sequence at text[i], or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  auto c = static_cast<unsigned char>(text[i]);
  std::size_t len = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
  if (len == 0 || i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  if ((len == 2 && c < 0xC2) || (len == 4 && c > 0xF4)) return 0; // overlong or past U+10FFFF
  return len;
}

void append_hex(std::string &out, unsigned char c) {
  out += "\\x" + hex_byte(c);
}

// Escapes text, byte by byte where `escaped` says (and every invalid byte).
template <class Escaped> std::string escape(std::string_view text, Escaped escaped) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t len = utf8_length(text, i);
    auto c = static_cast<unsigned char>(text[i]);
    if (len == 0) {
      append_hex(out, c);
      ++i;
      continue;
    }
    // C1 controls, U+0080..U+009F, are two bytes: C2 80..C2 9F.
    bool c1 = len == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (len == 1 && escaped(c)) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\t')
        out += "\\t";
      else
        append_hex(out, c);
    } else if (c1 && escaped(0x80)) {
      append_hex(out, static_cast<unsigned char>(text[i + 1]));
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

} // namespace

std::string hex_byte(unsigned char byte) {
  static const char *digits = "0123456789abcdef";
  return {digits[byte >> 4], digits[byte & 0xF]};
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t len = utf8_length(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::nullopt;
}

std::string one_line_comment(std::string_view text) {
  return escape(text, [](unsigned char c) { return c == '\n' || c == '\r' || c == 0; });
}

std::string printable(std::string_view text, bool keep_tabs) {
  return escape(text, [keep_tabs](unsigned char c) {
    return (c < 0x20 && !(keep_tabs && c == '\t')) || c == 0x7F || c == 0x80;
  });
}

void append_utf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

} // namespace tracelint
