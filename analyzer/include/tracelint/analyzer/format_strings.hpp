#pragma once
// The format strings of printf and of fmt::format / std::format, split into literal text and
// replacement fields, so that the analyzer can follow each argument into the printed text.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint::analyzer {

struct FormatField {
  // printf: the conversion ('d', 'f', 'g', 's', ...); fmt: the presentation type, 0 when the
  // field has none (`{}`, `{:>8}`).
  char type = 0;
  std::optional<int> precision;   // an explicit precision: `%.17g`, `{:.3f}`
  bool dynamic_precision = false; // `%.*f`, `{:.{}f}`: set by an argument
  std::string length;             // printf's length modifier: "l", "L", "ll", "h", ...
  // The argument this field prints: fmt's `{1}` or printf's `%2$d` (0-based); nullopt means
  // the next one in order.
  std::optional<std::size_t> arg_index;
  // Arguments the field takes besides its value: printf's `*` width and precision (before the
  // value), fmt's `{}` nested in the spec (after it, in automatic numbering).
  unsigned extra_args = 0;
  bool named = false; // fmt's `{name}`: no position we can follow
};

// Either literal text (after %% or {{ }} are unescaped) or a field.
struct FormatSegment {
  std::string literal;
  std::optional<FormatField> field;
};

// nullopt when the string is not a well-formed format of that kind.
std::optional<std::vector<FormatSegment>> parse_printf_format(std::string_view format);
std::optional<std::vector<FormatSegment>> parse_fmt_format(std::string_view format);

} // namespace tracelint::analyzer
