#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// A half-open byte range in a source text, with 1-based line and 1-based byte column
// of both ends. Display columns (Unicode code points) come from SourceText. Offsets are 64-bit:
// a text past 4 GiB must not wrap them.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;
  bool valid() const { return line != 0; }
};

// How many bytes of line terminator start at `offset`: 2 for "\r\n", 1 for "\n" or a lone "\r"
// (CPython reads all three as a newline), 0 otherwise.
inline std::size_t newline_length(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return 0;
  if (text[offset] == '\n') return 1;
  if (text[offset] != '\r') return 0;
  return offset + 1 < text.size() && text[offset + 1] == '\n' ? 2 : 1;
}

// The text with each lone "\r" turned into "\n": the same length, so every offset holds, and
// line by line what CPython reads. tree-sitter-python takes a lone "\r" for a space.
std::string with_lone_cr_as_newline(std::string text);

// The text being checked plus a line index, so spans can be turned into lines and
// code-point columns without rescanning. Lines end at "\n", "\r\n" or a lone "\r", as CPython
// reads them.
class SourceText {
public:
  SourceText() = default;
  SourceText(std::string path, std::string text);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  std::size_t line_count() const { return line_starts_.size(); }
  // 1-based line, without its line terminator.
  std::string_view line(std::size_t line) const;
  std::size_t line_start(std::size_t line) const { return line_starts_.at(line - 1); }
  // The file's own line terminator (that of its first line), "\n" when it has none: what text
  // inserted into it uses, so that a fix keeps the file's style.
  std::string_view newline() const { return newline_; }
  // Whether some line ends in a lone "\r", which tree-sitter must not see (see
  // with_lone_cr_as_newline).
  bool has_lone_cr() const { return has_lone_cr_; }
  // Span for the byte range [begin, end).
  Span span(std::size_t begin, std::size_t end) const;
  // 1-based code-point column of a 1-based byte column on a line.
  uint32_t codepoint_column(std::size_t line, std::size_t byte_column) const;

private:
  std::string path_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
  std::string_view newline_ = "\n";
  bool has_lone_cr_ = false;
  // UTF-8 continuation bytes before each block of kBlockBytes (empty for ASCII text), so that a
  // code-point column costs at most two blocks' scan, not the line's: a 10 MB line with a
  // finding every few bytes would otherwise be read once per finding.
  static constexpr std::size_t kBlockBytes = 4096;
  std::vector<std::size_t> continuations_before_block_;
  std::size_t continuations_before(std::size_t offset) const;
};

} // namespace tracelint
