#include "indentation.hpp"

#include "lexing.hpp"

namespace tracelint {

using chunking::EditedText;
using chunking::has_triple_quote;
using chunking::track_brackets;

std::vector<SyntaxProblem> bad_dedents(const EditedText &text, const std::string &original,
                                       const SourceText &source) {
  std::vector<SyntaxProblem> out;
  // A line inside a triple-quoted string is not code: with one in the code, no check (one in
  // a comment does not count).
  if (has_triple_quote(original))
    for (uint32_t n = 1; n <= source.line_count(); ++n) {
      std::string_view line = source.line(n);
      if (has_triple_quote(line.substr(0, lexing::code_end(line)))) return out;
    }
  std::vector<std::size_t> levels{0};
  int depth = 0;
  bool continued = false;
  std::string scratch;
  for (uint32_t n = 1; n <= source.line_count(); ++n) {
    std::size_t begin = source.line_start(n);
    std::string_view line = text.line(begin, begin + source.line(n).size(), scratch);
    if (n == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) {
      line.remove_prefix(3);
      begin += 3;
    }
    std::size_t first = line.find_first_not_of(" \t\f");
    if (first == std::string_view::npos || line[first] == '#') continue;
    if (depth == 0 && !continued) {
      std::size_t width = 0;
      for (std::size_t i = 0; i < first; ++i)
        width = line[i] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      if (width > levels.back()) {
        levels.push_back(width);
      } else if (width < levels.back()) {
        while (levels.back() > width)
          levels.pop_back(); // levels[0] is 0, never above width
        if (levels.back() != width) {
          auto at = static_cast<uint32_t>(begin);
          out.push_back({source.span(at, at + static_cast<uint32_t>(first)),
                         "unindent does not match any outer indentation level (Python's "
                         "IndentationError)"});
          levels.push_back(width);
        }
      }
    }
    track_brackets(line, depth, continued);
  }
  return out;
}

} // namespace tracelint
