#include "tracelint/core/source.hpp"

#include <algorithm>

namespace tracelint {

SourceText::SourceText(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.reserve(static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1);
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view SourceText::line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

Span SourceText::span(uint32_t begin, uint32_t end) const {
  auto locate = [&](uint32_t offset, uint32_t &line, uint32_t &column) {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    line = static_cast<uint32_t>(it - line_starts_.begin());
    column = offset - line_starts_[line - 1] + 1;
  };
  Span s;
  s.begin = begin;
  s.end = end;
  locate(begin, s.line, s.column);
  locate(end, s.end_line, s.end_column);
  return s;
}

uint32_t SourceText::codepoint_column(uint32_t line, uint32_t byte_column) const {
  std::string_view l = this->line(line);
  uint32_t column = 1;
  for (uint32_t i = 0; i + 1 < byte_column && i < l.size(); ++i)
    if ((static_cast<unsigned char>(l[i]) & 0xC0) != 0x80) ++column;
  // Bytes past the end of the line (the newline) count one column each.
  if (byte_column > l.size() + 1) column += byte_column - 1 - static_cast<uint32_t>(l.size());
  return column;
}

} // namespace tracelint
