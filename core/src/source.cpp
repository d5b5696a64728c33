#include "tracelint/core/source.hpp"

#include <algorithm>
#include <limits>

namespace tracelint {

namespace {
// Line and column numbers are 32-bit in spans and reports; a text with more lines than that
// (past 4 GiB) shows the last representable one rather than a wrapped one.
uint32_t saturated(std::size_t n) {
  return static_cast<uint32_t>(std::min<std::size_t>(n, std::numeric_limits<uint32_t>::max()));
}
bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
} // namespace

std::string with_lone_cr_as_newline(std::string text) {
  for (std::size_t i = text.find('\r'); i != std::string::npos; i = text.find('\r', i + 1))
    if (i + 1 == text.size() || text[i + 1] != '\n') text[i] = '\n';
  return text;
}

std::size_t SourceText::continuations_before(std::size_t offset) const {
  if (continuations_before_block_.empty()) return 0;
  // A span may end at the text's end: offset == size(), in a block of its own when the size is
  // a multiple of kBlockBytes (the constructor records that block too).
  offset = std::min(offset, text_.size());
  std::size_t block = offset / kBlockBytes;
  std::size_t count = continuations_before_block_[block];
  for (std::size_t i = block * kBlockBytes; i < offset; ++i)
    if (is_continuation(text_[i])) ++count;
  return count;
}

SourceText::SourceText(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  bool first = true;
  for (std::size_t i = 0; i < text_.size(); ++i) {
    std::size_t length = newline_length(text_, i);
    if (length == 0) continue;
    if (first) newline_ = length == 2 ? "\r\n" : text_[i] == '\r' ? "\r" : "\n";
    first = false;
    if (length == 1 && text_[i] == '\r') has_lone_cr_ = true;
    i += length - 1;
    line_starts_.push_back(i + 1);
  }
  bool ascii = std::all_of(text_.begin(), text_.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (ascii) return;
  continuations_before_block_.reserve(text_.size() / kBlockBytes + 1);
  std::size_t continuations = 0;
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (i % kBlockBytes == 0) continuations_before_block_.push_back(continuations);
    if (is_continuation(text_[i])) ++continuations;
  }
  if (text_.size() % kBlockBytes == 0) continuations_before_block_.push_back(continuations);
}

std::string_view SourceText::line(std::size_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::size_t begin = line_starts_[line - 1];
  std::size_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  // Drop the terminator: "\n", "\r\n" or "\r".
  if (end > begin && line < line_starts_.size() && text_[end - 1] == '\n') --end;
  if (end > begin && line < line_starts_.size() && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

Span SourceText::span(std::size_t begin, std::size_t end) const {
  auto locate = [&](std::size_t offset, uint32_t &line, uint32_t &column) {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    auto index = static_cast<std::size_t>(it - line_starts_.begin());
    line = saturated(index);
    column = saturated(offset - line_starts_[index - 1] + 1);
  };
  Span s;
  s.begin = begin;
  s.end = end;
  locate(begin, s.line, s.column);
  locate(end, s.end_line, s.end_column);
  return s;
}

uint32_t SourceText::codepoint_column(std::size_t line, std::size_t byte_column) const {
  std::string_view l = this->line(line);
  // The line's bytes before the column, less the continuation bytes among them.
  std::size_t bytes = std::min<std::size_t>(byte_column > 0 ? byte_column - 1 : 0, l.size());
  std::size_t start = line >= 1 && line <= line_starts_.size() ? line_starts_[line - 1] : 0;
  std::size_t column =
      1 + bytes - (continuations_before(start + bytes) - continuations_before(start));
  // Bytes past the end of the line (the newline) count one column each.
  if (byte_column > l.size() + 1) column += byte_column - 1 - l.size();
  return saturated(column);
}

} // namespace tracelint
