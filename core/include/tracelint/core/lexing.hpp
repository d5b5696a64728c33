#pragma once
// Line-level lexing shared by the repr-leak scan and the parser.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint::lexing {

// A character of a Python identifier (ASCII: what traces use).
inline bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Walks the bytes of a line before `limit`, calling on_code(i, c) for each one outside string
// literals until it returns false. Returns the quote of the string open where the walk ended.
template <class F> char walk_code(std::string_view line, std::size_t limit, F &&on_code) {
  char quote = 0;
  for (std::size_t i = 0; i < limit && i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (!on_code(i, c)) {
      return 0;
    }
  }
  return quote;
}

// Like walk_code, over one line of a text read line by line, knowing triple-quoted strings,
// which run across lines (as Python's tokenizer does, three quotes open one before one quote
// opens a short string; a backslash escapes the next character in either). `triple` is the quote
// of the triple-quoted string open where the line starts (0: none) and is left as the one open
// where it ends. A short string left open at the end of the line is closed there.
template <class F> void walk_code_across_lines(std::string_view line, char &triple, F &&on_code) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (triple) {
      if (c == '\\') {
        ++i;
      } else if (c == triple && i + 2 < line.size() && line[i + 1] == c && line[i + 2] == c) {
        triple = 0;
        i += 2;
      }
    } else if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      if (i + 2 < line.size() && line[i + 1] == c && line[i + 2] == c) {
        triple = c;
        i += 2;
      } else {
        quote = c;
      }
    } else if (!on_code(i, c)) {
      return;
    }
  }
}

// Where the code part of a line ends: the first '#' outside a string literal.
inline std::size_t code_end(std::string_view line) {
  std::size_t end = line.size();
  walk_code(line, line.size(), [&](std::size_t i, char c) {
    if (c != '#') return true;
    end = i;
    return false;
  });
  return end;
}

// Whether offset i of a code line lies inside a string literal.
inline bool in_string(std::string_view line, std::size_t offset) {
  return walk_code(line, offset, [](std::size_t, char) { return true; }) != 0;
}

// Whether a one-line statement closes every bracket and string it opens, so that it cannot
// swallow the lines after it.
inline bool self_contained(std::string_view line) {
  int depth = 0;
  bool balanced = true;
  char open = walk_code(line, line.size(), [&](std::size_t, char c) {
    if (c == '#') return false;
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && --depth < 0)
      balanced = false;
    return balanced;
  });
  return balanced && depth == 0 && open == 0 && (line.empty() || line.back() != '\\');
}

// Walks a whole text line by line (a line ends at '\n'; a '\r' before it is the line's),
// calling on_line(begin, line) with each line's offset, and on_code(offset, c) for each byte
// outside string literals (triple-quoted ones across lines) until the line's walk is stopped.
template <class F> void walk_text_code(std::string_view text, F &&on_code) {
  char triple = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = std::min(text.find('\n', begin), text.size());
    walk_code_across_lines(text.substr(begin, end - begin), triple,
                           [&](std::size_t i, char c) { return on_code(begin + i, c); });
    begin = end + 1;
  }
}

// Where each comment of a Python text begins (its '#'), in order: a '#' inside a string
// literal, a triple-quoted one over several lines included, begins none.
inline std::vector<std::size_t> comment_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  walk_text_code(text, [&](std::size_t at, char c) {
    if (c != '#') return true;
    starts.push_back(at);
    return false; // the rest of the line is the comment
  });
  return starts;
}

// The text with its string literals (quotes included) turned to blanks, comments kept: what a
// search for code must not find in strings (a test file holding a trace as a string is no
// trace).
inline std::string without_strings(std::string_view text) {
  std::string out(text.size(), ' ');
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') out[i] = '\n';
  walk_text_code(text, [&](std::size_t at, char c) {
    if (c != '#') {
      out[at] = c;
      return true;
    }
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::copy(text.begin() + static_cast<std::ptrdiff_t>(at),
              text.begin() + static_cast<std::ptrdiff_t>(end),
              out.begin() + static_cast<std::ptrdiff_t>(at));
    return false; // a quote in a comment opens no string
  });
  return out;
}

} // namespace tracelint::lexing
