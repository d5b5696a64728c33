#include "tracelint/analyzer/python_text.hpp"

#include "tracelint/core/python_tree.hpp"

#include <array>
#include <cctype>
#include <regex>
#include <string>

namespace tracelint::analyzer {

namespace {

std::string_view trim_left(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t\f");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}
std::string_view trim_right(std::string_view s) {
  std::size_t i = s.find_last_not_of(" \t\f\r");
  return i == std::string_view::npos ? std::string_view() : s.substr(0, i + 1);
}

// The keyword the line starts with, if it is a Python statement keyword followed by what such a
// statement allows (a space, `:`, `(`, or the end).
std::string_view leading_keyword(std::string_view line) {
  static constexpr std::array<std::string_view, 23> keywords = {
      "def",    "class",   "return", "if",     "elif",     "else",  "for",   "while",
      "with",   "import",  "from",   "assert", "raise",    "del",   "pass",  "try",
      "except", "finally", "yield",  "global", "nonlocal", "async", "lambda"};
  line = trim_left(line);
  for (std::string_view k : keywords) {
    if (line.substr(0, k.size()) != k) continue;
    if (line.size() == k.size()) return k;
    char next = line[k.size()];
    if (next == ' ' || next == ':' || next == '(' || next == '\n' || next == '\t') return k;
  }
  return {};
}

} // namespace

PythonParser::PythonParser() : parser_(std::make_unique<python::Parser>()) {}
PythonParser::~PythonParser() = default;

bool PythonParser::parses(std::string_view text) {
  python::Tree tree = parser_->parse(text);
  return !ts_node_has_error(ts_tree_root_node(tree.get()));
}

bool PythonParser::line_is_valid(std::string_view line) {
  // Remove the first line's indentation from every line (continuation lines inside brackets
  // may have any indentation).
  std::size_t indent = line.find_first_not_of(" \t");
  if (indent == std::string_view::npos) return true; // blank
  std::string text;
  std::size_t start = 0;
  while (start <= line.size()) {
    std::size_t nl = line.find('\n', start);
    std::string_view one =
        line.substr(start, nl == std::string_view::npos ? line.npos : nl - start);
    std::size_t lead = std::min(indent, one.find_first_not_of(" \t") == std::string_view::npos
                                            ? one.size()
                                            : one.find_first_not_of(" \t"));
    text += one.substr(lead);
    text += '\n';
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  std::string_view body =
      trim_right(std::string_view(text).substr(0, text.find_last_not_of('\n') + 1));
  std::string_view keyword = leading_keyword(body);
  std::string before, after;
  if (keyword == "else" || keyword == "elif") before = "if x:\n  pass\n";
  if (keyword == "except" || keyword == "finally") before = "try:\n  pass\n";
  if (!body.empty() && body.back() == ':') after = "  pass\n";
  if (keyword == "try") after += "finally:\n  pass\n";
  if (!body.empty() && body.front() == '@') after += "def f():\n  pass\n";
  return parses(before + text + after);
}

bool starts_with_python_keyword(std::string_view line) {
  line = trim_left(line);
  return !leading_keyword(line).empty() || (!line.empty() && line.front() == '@');
}

TextKind classify_printed_line(PythonParser &parser, std::string_view segment, bool complete,
                               bool at_line_start) {
  std::string_view line = trim_right(trim_left(segment));
  if (line.empty()) return TextKind::Neutral;
  // C++ (or another C-like language): statements end in `;`, blocks open after `)`.
  static const std::regex cpp_block(R"(\)\s*(const\s*)?\{$)");
  static const std::regex cpp_line(
      R"(^(#\s*(include|pragma|define|if|endif)\b|template\s*<|namespace\s+\w+\s*\{|__global__|__device__))");
  if (line.back() == ';' || std::regex_search(line.begin(), line.end(), cpp_block) ||
      std::regex_search(line.begin(), line.end(), cpp_line))
    return TextKind::Cpp;
  // Python that no C++ generator prints: headers and imports (even unfinished), and
  // assignments from a call of a dotted name.
  static const std::regex header(
      R"(^(async\s+)?def\s+[A-Za-z_]\w*\s*\(|^class\s+[A-Za-z_]\w*\s*[(:])");
  static const std::regex import(
      R"(^import\s+[A-Za-z_][\w.]*(\s+as\s+\w+)?(\s*,\s*[A-Za-z_][\w.]*(\s+as\s+\w+)?)*$|^from\s+\.*[A-Za-z_][\w.]*\s+import\s)");
  static const std::regex decorator(R"(^@[A-Za-z_][\w.]*(\(.*)?$)");
  static const std::regex call_assignment(
      R"((^|[\w\])]\s*)=\s*[A-Za-z_]\w*(\.[A-Za-z_]\w*)+\s*(\(|$))");
  // (The regexes only run where their first characters are, most printed lines have neither.)
  bool has_equals = line.find('=') != std::string_view::npos;
  char first = line.front();
  bool may_head =
      first == 'a' || first == 'd' || first == 'c' || first == 'i' || first == 'f' || first == '@';
  if ((may_head && std::regex_search(line.begin(), line.end(), header)) ||
      (may_head && std::regex_search(line.begin(), line.end(), import)) ||
      (at_line_start && first == '@' && std::regex_search(line.begin(), line.end(), decorator)) ||
      (has_equals && std::regex_search(line.begin(), line.end(), call_assignment)))
    return TextKind::Python;
  // A statement's first word alone, its rest printed by the next writes: `def `, `return `.
  static const std::regex opener(
      R"(^((async\s+)?def|class|import|from|return|lambda|elif|assert|raise|yield|with|del|global|nonlocal)(\s+[\w.]*)?$|^(else|try|finally):$)");
  if (at_line_start && !complete && std::regex_search(line.begin(), line.end(), opener))
    return TextKind::Python;
  // A whole keyword statement that parses: `return x`, `if x:`, `for x in x:`, `else:`; a
  // whole line that assigns a call's result (`t0 = add(a, b)`) and parses.
  static const std::regex call_line(
      R"(^[A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)*\s*,?\s*(:\s*[^=]+)?=\s*[A-Za-z_][\w.]*\(.*\)$)");
  if (complete && at_line_start &&
      (!leading_keyword(line).empty() ||
       (has_equals && std::regex_search(line.begin(), line.end(), call_line))) &&
      parser.line_is_valid(line))
    return TextKind::Python;
  return TextKind::Neutral;
}

} // namespace tracelint::analyzer
