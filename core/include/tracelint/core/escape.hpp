#pragma once
// Text from outside (a file name, a source line, a string argument) on its way into something
// a person or a program reads as structure: a printed trace, where a line break would make it
// code, and the human report formats, where a control character would drive the terminal or a
// CI log (an ESC sequence; a line starting `::error` that GitHub Actions runs).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tracelint {

// A byte as two lower-case hex digits ("e9"), for messages and escapes.
std::string hex_byte(unsigned char byte);

// The offset of the first byte that does not begin or continue a valid UTF-8 sequence.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// Appends a code point as UTF-8 (any below 0x110000, surrogates too, as Python's str holds
// them).
void append_utf8(std::string &out, uint32_t cp);

// One line of Python source for a comment: line breaks (\n, \r), NUL and bytes that are not
// UTF-8 become escapes (`\n`, `\r`, `\x00`, `\xff`); everything else is kept, so a comment
// read from a valid trace prints as it was.
std::string one_line_comment(std::string_view text);

// For the human report formats and messages: every control character (C0, DEL, C1) and byte
// that is not UTF-8 is escaped as git and ruff do (`\n`, `\t`, `\x1b`, `\xff`); a backslash
// stays one. keep_tabs: a tab stays (a source line shown with carets under it).
std::string printable(std::string_view text, bool keep_tabs = false);

} // namespace tracelint
