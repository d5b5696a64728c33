#include "tracelint/core/source.hpp"

#include <algorithm>

namespace tracelint {

namespace {
bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
} // namespace

SourceText::SourceText(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.reserve(static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1);
  line_starts_.push_back(0);
  bool ascii = true;
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
    ascii = ascii && static_cast<unsigned char>(text_[i]) < 0x80;
  }
  if (ascii) return;
  continuations_before_block_.reserve(text_.size() / kBlockBytes + 1);
  uint32_t continuations = 0;
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (i % kBlockBytes == 0) continuations_before_block_.push_back(continuations);
    if (is_continuation(text_[i])) ++continuations;
  }
}

uint32_t SourceText::continuations_before(uint32_t offset) const {
  if (continuations_before_block_.empty()) return 0;
  uint32_t block = offset / kBlockBytes;
  uint32_t count = continuations_before_block_[block];
  for (uint32_t i = block * kBlockBytes; i < offset; ++i)
    if (is_continuation(text_[i])) ++count;
  return count;
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
  // The line's bytes before the column, less the continuation bytes among them.
  uint32_t bytes = std::min(byte_column > 0 ? byte_column - 1 : 0, static_cast<uint32_t>(l.size()));
  uint32_t start = line >= 1 && line <= line_starts_.size() ? line_starts_[line - 1] : 0;
  uint32_t column = 1 + bytes - (continuations_before(start + bytes) - continuations_before(start));
  // Bytes past the end of the line (the newline) count one column each.
  if (byte_column > l.size() + 1) column += byte_column - 1 - static_cast<uint32_t>(l.size());
  return column;
}

} // namespace tracelint
