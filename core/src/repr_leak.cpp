#include "tracelint/core/lexing.hpp"
#include "tracelint/core/parser.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace tracelint {

namespace {

using lexing::is_word;

std::string read_name(const std::string &text, std::size_t &i) {
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;
  std::size_t begin = i;
  while (i < text.size() && is_word(text[i]))
    ++i;
  std::string name = text.substr(begin, i - begin);
  if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;
  return name;
}

// Where a repr that opened with `opener` ends: one past the closer that matches it, skipping
// what the repr's fields nest (`value=[1]`, `shape=(2, 3)`, quoted strings), so a field's
// bracket does not cut the repr short (a fix would then leave `i0], None)` behind). A repr cut
// by a line break ends at stop, the end of its line. `<TensorProxy(name=...)>` starts inside
// its parenthesis (nested is true). Fields whose brackets do not balance fall back to the
// first closer on the line.
std::size_t repr_end(const std::string &text, std::size_t i, std::size_t stop, char opener,
                     bool nested) {
  const char closer = opener == '[' ? ']' : '>';
  std::size_t first_closer = std::string_view(text).substr(i, stop - i).find(closer);
  std::size_t unbalanced = first_closer == std::string_view::npos ? stop : i + first_closer + 1;
  std::string open; // the brackets opened inside the repr, innermost last
  if (nested) open.push_back(')');
  char quote = 0;
  for (; i < stop; ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      open.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (!open.empty() && c == open.back()) {
      open.pop_back();
    } else if (open.empty() && c == closer) {
      return i + 1;
    }
  }
  return unbalanced;
}

} // namespace

namespace {

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool starts_name(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

// A commented statement ("# t0 = f(...": '#', a target list, '=' and not "=="): how many bytes
// of the comment show it, or npos.
std::size_t statement_comment_end(std::string_view comment) {
  std::size_t i = 1, n = comment.size();
  if (n == 0 || comment[0] != '#') return std::string_view::npos;
  while (i < n && is_space(comment[i]))
    ++i;
  if (i == n || !(starts_name(comment[i]) || comment[i] == '(' || comment[i] == '['))
    return std::string_view::npos;
  ++i;
  while (i < n && (is_word(comment[i]) ||
                   std::string_view(", ()[]").find(comment[i]) != std::string_view::npos))
    ++i;
  if (i + 1 < n && comment[i] == '=' && comment[i + 1] != '=') return i + 2;
  return std::string_view::npos;
}

// The opening quote of an annotation's type (# a: "...) that starts at the '#' at `hash`,
// or npos.
std::size_t annotation_quote(std::string_view line, std::size_t hash) {
  std::size_t i = hash + 1, n = line.size();
  while (i < n && is_space(line[i]))
    ++i;
  if (i == n || !starts_name(line[i])) return std::string_view::npos;
  while (i < n && is_word(line[i]))
    ++i;
  while (i < n && is_space(line[i]))
    ++i;
  if (i == n || line[i] != ':') return std::string_view::npos;
  ++i;
  while (i < n && is_space(line[i]))
    ++i;
  return i < n && line[i] == '"' ? i : std::string_view::npos;
}

// Tells, for the reprs of one line taken in column order, whether each is in code and whether
// it is trace text, walking the line once: a line of many reprs would otherwise be read again
// for each of them.
class LineCursor {
public:
  explicit LineCursor(std::string_view line)
      : line_(line), code_(lexing::code_end(line)),
        statement_end_(statement_comment_end(line.substr(code_))), comment_at_(code_) {}

  std::size_t code_end() const { return code_; }

  // Whether the 0-based column lies in code, outside string literals (lexing::in_string).
  bool in_code(std::size_t column) {
    for (; code_at_ < column && code_at_ < line_.size(); ++code_at_) {
      char c = line_[code_at_];
      if (quote_) {
        if (c == '\\')
          ++code_at_;
        else if (c == quote_)
          quote_ = 0;
      } else if (c == '\'' || c == '"') {
        quote_ = c;
      }
    }
    return column < code_ && !quote_;
  }

  // For a column in the comment: whether the comment text before it is trace text, inside an
  // annotation's quotes (# a: "cuda:0 f32[[IntegerProxy ...") or a commented bound symbol
  // (# t0 = f(...). Prose comments that quote a repr (a header describing the bug) are not.
  bool in_trace_comment(std::size_t column) {
    for (; comment_at_ < column && comment_at_ < line_.size(); ++comment_at_) {
      char c = line_[comment_at_];
      if (c == '#') {
        last_hash_quote_ = annotation_quote(line_, comment_at_);
      } else if (c == '"') {
        last_quote_ = comment_at_;
      }
    }
    bool in_annotation =
        last_hash_quote_ != std::string_view::npos && last_quote_ == last_hash_quote_;
    return in_annotation ||
           (statement_end_ != std::string_view::npos && column - code_ >= statement_end_);
  }

private:
  std::string_view line_;
  std::size_t code_, statement_end_;
  std::size_t code_at_ = 0;
  char quote_ = 0;
  std::size_t comment_at_;
  std::size_t last_hash_quote_ = std::string_view::npos; // of the last '#' passed
  std::size_t last_quote_ = std::string_view::npos;      // the last '"' passed
};

} // namespace

std::vector<ReprLeak> find_repr_leaks(const std::string &text) {
  if (text.find("Proxy") == std::string::npos && text.find(" object at 0x") == std::string::npos)
    return {};
  return find_repr_leaks(SourceText("", text));
}

std::vector<ReprLeak> find_repr_leaks(const SourceText &source) {
  const std::string &text = source.text();
  // Thunder's NumberProxy repr is "[IntegerProxy name=i10, value=1, static=...]"; TensorProxy's
  // is "<TensorProxy(name="t0", ...)>"; Python's default repr is "<mod.Type object at 0x...>".
  // A repr cut by a line break (a pasted, wrapped trace) ends at the end of its line.
  struct Found {
    std::size_t begin, end;
    std::string kind, name;
  };
  std::vector<Found> found;
  auto add = [&](std::size_t begin, std::size_t end, std::string kind, std::string name) {
    found.push_back({begin, end, std::move(kind), std::move(name)});
  };
  // Each scan below stays linear on a line of many reprs, or a word of many "Proxy": the end of
  // the current line and the start of the current word are found once, not once per match.
  std::size_t line_begin = 0, line_stop = 0;
  auto line_end = [&](std::size_t i) {
    if (i < line_begin || i > line_stop || line_stop == 0) {
      std::size_t nl = text.find_first_of("\r\n", i); // CPython's line ends: \n, \r\n, \r
      line_begin = i;
      line_stop = nl == std::string::npos ? text.size() : nl;
    }
    return line_stop;
  };
  std::size_t word_begin = 0, word_end = 0; // the last word walked back over
  for (std::size_t at = text.find("Proxy"); at != std::string::npos;
       at = text.find("Proxy", at + 5)) {
    std::size_t kind_begin = at;
    while (kind_begin > word_end && is_word(text[kind_begin - 1]))
      --kind_begin;
    if (kind_begin == word_end && word_end > word_begin) kind_begin = word_begin;
    word_begin = kind_begin;
    word_end = at;
    if (kind_begin == 0) continue;
    char opener = text[kind_begin - 1];
    std::string kind = text.substr(kind_begin, at + 5 - kind_begin);
    std::size_t i = at + 5;
    // [IntegerProxy name=i0, ...] or <TensorProxy(name="t0", ...)>
    const char *tail = opener == '[' ? " name=" : opener == '<' ? "(name=" : nullptr;
    if (!tail || text.compare(i, 6, tail) != 0) continue;
    i += 6;
    std::string name = read_name(text, i);
    std::size_t end = repr_end(text, i, line_end(i), opener, opener == '<');
    add(kind_begin - 1, end, kind, name);
    at = end - 5 > at ? end - 5 : at;
  }
  for (std::size_t at = text.find(" object at 0x"); at != std::string::npos;
       at = text.find(" object at 0x", at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && (is_word(text[begin - 1]) || text[begin - 1] == '.'))
      --begin;
    if (begin == 0 || text[begin - 1] != '<') continue;
    std::size_t i = at + 13;
    while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i])))
      ++i;
    if (i >= text.size() || text[i] != '>') continue;
    add(begin - 1, i + 1, text.substr(begin, at - begin), "");
  }
  std::sort(found.begin(), found.end(),
            [](const Found &a, const Found &b) { return a.begin < b.begin; });
  std::vector<ReprLeak> leaks;
  std::optional<LineCursor> cursor;
  uint32_t cursor_line = 0;
  for (Found &f : found) {
    ReprLeak leak;
    leak.span = source.span(f.begin, f.end);
    leak.proxy_kind = std::move(f.kind);
    leak.name = std::move(f.name);
    if (!cursor || cursor_line != leak.span.line) {
      cursor.emplace(source.line(leak.span.line));
      cursor_line = leak.span.line;
    }
    std::size_t column = leak.span.column - 1;
    leak.in_code = cursor->in_code(column);
    // Outside code, a repr matters inside a type string or a commented bound symbol.
    if (!leak.in_code && column >= cursor->code_end() && !cursor->in_trace_comment(column))
      continue;
    leaks.push_back(std::move(leak));
  }
  return leaks;
}

} // namespace tracelint
