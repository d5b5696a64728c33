#pragma once
// Line-level lexing shared by the repr-leak scan and the parser.
#include <cstddef>
#include <string_view>

namespace tracelint::lexing {

// Where the code part of a line ends: the first '#' outside a string literal.
inline std::size_t code_end(std::string_view line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return i;
    }
  }
  return line.size();
}

// Whether offset i of a code line lies inside a string literal.
inline bool in_string(std::string_view line, std::size_t offset) {
  char quote = 0;
  for (std::size_t i = 0; i < offset && i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    }
  }
  return quote != 0;
}


// Whether a one-line statement closes every bracket and string it opens, so that it cannot
// swallow the lines after it.
inline bool self_contained(std::string_view line) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      break;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return false;
    }
  }
  return depth == 0 && quote == 0 && (line.empty() || line.back() != '\\');
}

} // namespace tracelint::lexing
