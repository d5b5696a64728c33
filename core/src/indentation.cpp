#include "tracelint/core/indentation.hpp"

#include "tracelint/core/lexing.hpp"

#include <string>
#include <string_view>

namespace tracelint {

namespace {

using chunking::EditedText;
using lexing::is_word;

// One level of the indentation stack, as CPython's tokenizer keeps it: the column with tabs to
// multiples of 8 and with tabs as 1 (where they disagree, the meaning depends on the tab size:
// TabError), and how many blocks the compiler has open inside the enclosing def or class.
struct Level {
  std::size_t column = 0;
  std::size_t tabs_as_one = 0;
  int blocks = 0;
};

// What a compound statement's header opens for its body (CPython 3.11's compiler): a loop, a
// try body, a with item or a finally body one block each, an except body two (the handler and
// its cleanup); a def or class starts counting from zero. Counted low where the count depends
// on what follows (a try body with both except and finally has two): no false error.
struct Header {
  int blocks = 0;
  bool new_scope = false;
};

std::string_view triple_quote(char quote) {
  return quote == '"' ? "\"\"\"" : "'''";
}

std::string_view first_word(std::string_view code) {
  std::size_t end = 0;
  while (end < code.size() && is_word(code[end]))
    ++end;
  return code.substr(0, end);
}

Header header_of(std::string_view code) {
  std::string_view word = first_word(code);
  if (word == "async") {
    std::size_t next = code.find_first_not_of(" \t\f", word.size());
    if (next == std::string_view::npos) return {};
    code = code.substr(next);
    word = first_word(code);
  }
  if (word == "def" || word == "class") return {0, true};
  if (word == "for" || word == "while" || word == "try" || word == "finally") return {1, false};
  if (word == "except") return {2, false};
  if (word != "with") return {};
  // `with a, b:` opens a block per item.
  int items = 1, depth = 0;
  lexing::walk_code(code, code.size(), [&](std::size_t, char c) {
    if (c == '#' || (c == ':' && depth == 0)) return false;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) ++items;
    return true;
  });
  return {items, false};
}

class Scanner {
public:
  Scanner(const EditedText &text, const SourceText &source) : text_(text), source_(source) {}

  std::vector<SyntaxProblem> run() {
    std::string scratch;
    for (std::size_t n = 1; n <= source_.line_count(); ++n) {
      std::size_t begin = source_.line_start(n);
      std::string_view line = text_.line(begin, begin + source_.line(n).size(), scratch);
      if (n == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) {
        line.remove_prefix(3);
        begin += 3;
      }
      scan_line(line, begin);
    }
    return std::move(problems_);
  }

private:
  void report(std::size_t begin, std::size_t end, std::string message) {
    problems_.push_back({source_.span(begin, end), std::move(message)});
  }

  // CPython's tokenizer at the start of a logical line (Parser/tokenizer.c, tok_get).
  void indentation(std::string_view line, std::size_t begin, std::size_t first) {
    Level now;
    for (std::size_t i = 0; i < first; ++i) {
      if (line[i] == ' ') {
        ++now.column;
        ++now.tabs_as_one;
      } else if (line[i] == '\t') {
        now.column = (now.column / 8 + 1) * 8;
        ++now.tabs_as_one;
      } else { // a form feed resets the column
        now.column = now.tabs_as_one = 0;
      }
    }
    auto tab_error = [&] {
      report(begin, begin + first,
             "inconsistent use of tabs and spaces in indentation (Python's TabError): the "
             "indentation means something else with another tab size; indent with spaces only");
    };
    if (now.column == levels_.back().column) {
      if (now.tabs_as_one != levels_.back().tabs_as_one) tab_error();
    } else if (now.column > levels_.back().column) {
      if (levels_.size() >= kMaxIndentLevels && !reported_levels_) {
        reported_levels_ = true;
        report(begin, begin + first,
               "too many levels of indentation (Python's IndentationError: it allows " +
                   std::to_string(kMaxIndentLevels - 1) + ")");
      }
      if (now.tabs_as_one <= levels_.back().tabs_as_one) tab_error();
      // Only a block's header (a statement ending in ':') opens an indented body; an indented
      // first statement is a fragment of a body (TL013), not an error here.
      if (seen_statement_ && last_code_char_ != ':')
        report(begin, begin + first, "unexpected indent (Python's IndentationError)");
      now.blocks = opened_.new_scope ? 0 : levels_.back().blocks + opened_.blocks;
      levels_.push_back(now);
    } else {
      while (levels_.size() > 1 && now.column < levels_.back().column)
        levels_.pop_back();
      if (now.column != levels_.back().column) {
        report(begin, begin + first,
               "unindent does not match any outer indentation level (Python's IndentationError)");
        now.blocks = levels_.back().blocks;
        levels_.push_back(now);
      } else if (now.tabs_as_one != levels_.back().tabs_as_one) {
        tab_error();
      }
    }
  }

  void statement_start(std::string_view line, std::size_t begin, std::size_t first) {
    indentation(line, begin, first);
    opened_ = header_of(line.substr(first));
    if (opened_.blocks > 0 && levels_.back().blocks + opened_.blocks > kMaxStaticBlocks &&
        !reported_blocks_) {
      reported_blocks_ = true;
      std::size_t word_end = first + first_word(line.substr(first)).size();
      report(begin + first, begin + word_end,
             "too many statically nested blocks (Python's SyntaxError: loops, try and with "
             "blocks nest at most " +
                 std::to_string(kMaxStaticBlocks) + " deep in a function)");
    }
  }

  void scan_line(std::string_view line, std::size_t begin) {
    std::size_t i = 0;
    if (depth_ == 0 && !continued_ && !quote_) {
      std::size_t first = line.find_first_not_of(" \t\f");
      if (first == std::string_view::npos || line[first] == '#') return; // not a statement
      statement_start(line, begin, first);
      seen_statement_ = true;
      reported_nesting_ = false;
      i = first;
    }
    continued_ = false;
    bool escaped_line_end = false;
    for (; i < line.size(); ++i) {
      char c = line[i];
      if (quote_) {
        if (c == '\\') {
          escaped_line_end = ++i == line.size();
        } else if (c == quote_ && (!triple_ || line.substr(i, 3) == triple_quote(c))) {
          if (triple_) i += 2;
          quote_ = 0;
        }
        continue;
      }
      if (c == '#') break;
      if (c != ' ' && c != '\t' && c != '\f' && c != '\\') last_code_char_ = c;
      if (c == '\'' || c == '"') {
        quote_ = c;
        triple_ = line.substr(i, 3) == triple_quote(c);
        if (triple_) i += 2;
      } else if (c == '(' || c == '[' || c == '{') {
        if (++depth_ > kMaxBracketNesting && !reported_nesting_) {
          reported_nesting_ = true;
          report(begin + i, begin + i + 1,
                 "too many nested parentheses (Python's limit is " +
                     std::to_string(kMaxBracketNesting) + " levels of brackets)");
        }
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth_ > 0) --depth_;
      } else if (c == '\\' && i + 1 == line.size()) {
        continued_ = true;
      }
    }
    // A one-quote string ends with its line unless a backslash continues it (unterminated:
    // reported elsewhere).
    if (quote_ && !triple_ && !escaped_line_end) quote_ = 0;
  }

  const EditedText &text_;
  const SourceText &source_;
  std::vector<SyntaxProblem> problems_;
  std::vector<Level> levels_{Level{}};
  Header opened_; // by the last statement: what an indented line after it is inside
  std::size_t depth_ = 0;
  bool continued_ = false;
  char quote_ = 0;
  bool triple_ = false;
  bool reported_nesting_ = false, reported_levels_ = false, reported_blocks_ = false;
  bool seen_statement_ = false;
  char last_code_char_ = 0; // outside strings and comments: ':' after a block's header
};

} // namespace

std::vector<SyntaxProblem> tokenizer_problems(const EditedText &text, const SourceText &source) {
  return Scanner(text, source).run();
}

} // namespace tracelint
