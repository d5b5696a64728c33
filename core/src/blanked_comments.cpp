#include "tracelint/core/blanked_comments.hpp"

#include "tracelint/core/chunking.hpp"
#include "tracelint/core/lexing.hpp"

#include <algorithm>
#include <string_view>

namespace tracelint::chunking {

namespace {

bool starts_with_word(std::string_view code, std::string_view word) {
  return code.substr(0, word.size()) == word &&
         (code.size() == word.size() || !lexing::is_word(code[word.size()]));
}

std::vector<OwnLineComment> find_own_line_comments(const std::string &text,
                                                   std::vector<CommentContext> *contexts) {
  std::vector<OwnLineComment> out;
  int depth = 0;
  bool continued = false;
  char triple = 0; // the quote of the triple-quoted string open at the line's start
  // The statement being read (from its first line to the one that ends it) and what follows.
  uint32_t statement_indent = 0, statement_line = 0;
  bool statement_is_def = false, statement_is_decorator = false;
  bool in_def = false, awaiting_body = false; // inside (or just after the header of) a def
  uint32_t body_indent = CommentContext::kNone;
  CommentContext context;
  uint32_t row = 0;
  for (std::size_t begin = 0; begin < text.size(); ++row) {
    std::size_t nl = text.find('\n', begin);
    std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    // A comment ends before its line's "\r\n", as tree-sitter's own comments are read here.
    std::size_t end = nl != std::string::npos && nl > begin && text[nl - 1] == '\r' ? nl - 1
                      : nl == std::string::npos                                     ? text.size()
                                                                                    : nl;
    std::string_view line(text.data() + begin, end - begin);
    std::size_t first = line.find_first_not_of(" \t\f\r");
    // A line that starts inside a triple-quoted string (a docstring's) is neither a comment nor
    // the start of a statement.
    bool in_string = triple != 0;
    if (first != std::string_view::npos) {
      if (in_string || line[first] != '#') {
        if (contexts && depth == 0 && !continued && !in_string) { // a statement starts here
          statement_indent = static_cast<uint32_t>(first);
          statement_line = static_cast<uint32_t>(begin);
          std::string_view code = line.substr(first);
          std::string_view keyword = code;
          if (starts_with_word(keyword, "async")) {
            keyword.remove_prefix(5);
            keyword.remove_prefix(std::min(keyword.find_first_not_of(" \t"), keyword.size()));
          }
          statement_is_def = starts_with_word(keyword, "def");
          statement_is_decorator = code[0] == '@';
          if (first == 0) {
            in_def = false;
            awaiting_body = false;
            body_indent = CommentContext::kNone;
          } else if (awaiting_body) {
            body_indent = statement_indent;
            awaiting_body = false;
          }
        }
        track_brackets(line, depth, continued, triple);
        if (contexts && depth == 0 && !continued && !triple) { // and ends on it
          std::string_view code = line.substr(0, lexing::code_end(line));
          code = code.substr(0, code.find_last_not_of(" \t\r\f") + 1);
          bool opens_block = !code.empty() && code.back() == ':';
          context = CommentContext{};
          if (statement_indent == 0 && statement_is_def && opens_block) {
            in_def = true;
            awaiting_body = true;
          } else if (opens_block || statement_is_decorator) {
            // No statement can follow it at its level.
          } else if (statement_indent == 0 || (in_def && statement_indent == body_indent)) {
            context = CommentContext{statement_indent, statement_line};
          }
        }
      } else if (depth == 0 && !continued) {
        out.push_back({static_cast<uint32_t>(begin + first), static_cast<uint32_t>(end), row,
                       static_cast<uint32_t>(first)});
        if (contexts) contexts->push_back(context);
      }
    }
    begin = next;
  }
  return out;
}

} // namespace

std::vector<OwnLineComment> own_line_comments(const std::string &text) {
  return find_own_line_comments(text, nullptr);
}

std::vector<OwnLineComment> own_line_comments(const std::string &text,
                                              std::vector<CommentContext> &contexts) {
  contexts.clear();
  return find_own_line_comments(text, &contexts);
}

const char *ShapedInput::read(void *payload, uint32_t byte, TSPoint, uint32_t *bytes_read) {
  static constexpr char kSpaces[] = "                                                        "
                                    "                                                        ";
  const auto &self = *static_cast<const ShapedInput *>(payload);
  if (byte >= self.text_.size()) {
    *bytes_read = 0;
    return "";
  }
  auto next = std::upper_bound(
      self.segments_.begin(), self.segments_.end(), byte,
      [](uint32_t at, const Segment &s) { return at < s.end; }); // the first ending after
  if (next != self.segments_.end() && next->begin <= byte) {
    if (next->shift == kBlank) {
      *bytes_read = std::min<uint32_t>(next->end - byte, sizeof(kSpaces) - 1);
      return kSpaces;
    }
    *bytes_read = next->end - byte;
    return self.text_.data() + byte + next->shift;
  }
  uint32_t stop =
      next != self.segments_.end() ? next->begin : static_cast<uint32_t>(self.text_.size());
  *bytes_read = stop - byte;
  return self.text_.data() + byte;
}

} // namespace tracelint::chunking
