#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// A half-open byte range in a source text, with 1-based line and 1-based byte column
// of both ends. Display columns (Unicode code points) come from SourceText.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;
  bool valid() const { return line != 0; }
};

// The text being checked plus a line index, so spans can be turned into lines and
// code-point columns without rescanning.
class SourceText {
public:
  SourceText() = default;
  SourceText(std::string path, std::string text);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  std::size_t line_count() const { return line_starts_.size(); }
  // 1-based line, without its line terminator.
  std::string_view line(uint32_t line) const;
  uint32_t line_start(uint32_t line) const { return line_starts_.at(line - 1); }
  // Span for the byte range [begin, end).
  Span span(uint32_t begin, uint32_t end) const;
  // 1-based code-point column of a 1-based byte column on a line.
  uint32_t codepoint_column(uint32_t line, uint32_t byte_column) const;

private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  // UTF-8 continuation bytes before each block of kBlockBytes (empty for ASCII text), so that a
  // code-point column costs at most two blocks' scan, not the line's: a 10 MB line with a
  // finding every few bytes would otherwise be read once per finding.
  static constexpr uint32_t kBlockBytes = 4096;
  std::vector<uint32_t> continuations_before_block_;
  uint32_t continuations_before(uint32_t offset) const;
};

} // namespace tracelint
