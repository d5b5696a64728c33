#include "lexing.hpp"
#include "tracelint/core/parser.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

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

// The comment text before a repr: the repr is inside an annotation's quotes
// (# a: "cuda:0 f32[[IntegerProxy ...") or in the code of a subsymbol line (# t0 = f(...).
bool in_trace_comment(std::string_view before) {
  static const std::regex annotation(R"re(#\s*[A-Za-z_]\w*\s*:\s*"[^"]*$)re");
  static const std::regex statement(R"re(^#\s*[A-Za-z_(\[][\w, ()\[\]]*=[^=])re");
  std::string text(before);
  std::size_t last = text.rfind('#');
  if (last != std::string::npos && std::regex_search(text.substr(last), annotation)) return true;
  return std::regex_search(text, statement);
}

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
  std::vector<ReprLeak> leaks;
  auto add = [&](std::size_t begin, std::size_t end, std::string kind, std::string name) {
    ReprLeak leak;
    leak.span = source.span(begin, end);
    leak.proxy_kind = std::move(kind);
    leak.name = std::move(name);
    std::string_view line = source.line(leak.span.line);
    std::size_t column = leak.span.column - 1;
    std::size_t code = lexing::code_end(line);
    leak.in_code = column < code && !lexing::in_string(line, column);
    // Outside code, a repr matters inside a type string or a commented bound symbol; prose
    // comments that quote a repr (a header describing the bug) are not trace text.
    if (!leak.in_code && column >= code && !in_trace_comment(line.substr(code, column - code)))
      return;
    leaks.push_back(std::move(leak));
  };
  auto line_end = [&](std::size_t i) {
    std::size_t nl = text.find_first_of("\r\n", i); // CPython's line ends: \n, \r\n, \r
    return nl == std::string::npos ? text.size() : nl;
  };
  for (std::size_t at = text.find("Proxy"); at != std::string::npos;
       at = text.find("Proxy", at + 5)) {
    std::size_t kind_begin = at;
    while (kind_begin > 0 && is_word(text[kind_begin - 1]))
      --kind_begin;
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
  std::sort(leaks.begin(), leaks.end(),
            [](const ReprLeak &a, const ReprLeak &b) { return a.span.begin < b.span.begin; });
  return leaks;
}

} // namespace tracelint
