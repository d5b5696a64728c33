#include "tracelint/core/message_text.hpp"

namespace tracelint {

namespace {
bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
} // namespace

std::string shorten_quoted(std::string text) {
  constexpr std::string_view kEllipsis = "...";
  std::size_t open = text.find('`');
  while (open != std::string::npos) {
    std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    std::size_t length = close - open - 1;
    if (length > kMaxQuotedLength) {
      std::size_t keep = kMaxQuotedLength - kEllipsis.size();
      while (keep > 0 && is_continuation_byte(text[open + 1 + keep]))
        --keep;
      text.replace(open + 1 + keep, length - keep, kEllipsis);
      close = open + 1 + keep + kEllipsis.size();
    }
    open = text.find('`', close + 1);
  }
  return text;
}

void shorten_quoted(Diagnostic &diagnostic) {
  diagnostic.message = shorten_quoted(std::move(diagnostic.message));
  for (RelatedLocation &related : diagnostic.related)
    related.message = shorten_quoted(std::move(related.message));
  if (diagnostic.fix)
    diagnostic.fix->description = shorten_quoted(std::move(diagnostic.fix->description));
}

} // namespace tracelint
