#include "tracelint/core/chunking.hpp"

#include "tracelint/core/lexing.hpp"

#include <algorithm>
#include <cctype>

namespace tracelint::chunking {

namespace {

using lexing::is_word;

// A clause that belongs to the statement before it (else:, except ...:): no chunk starts there.
bool continues_compound(std::string_view code) {
  for (std::string_view word : {"else", "elif", "except", "finally"})
    if (code.substr(0, word.size()) == word &&
        (code.size() == word.size() || !is_word(code[word.size()])))
      return true;
  return false;
}

} // namespace

void track_brackets(std::string_view line, int &depth, bool &continued) {
  char triple = 0;
  track_brackets(line, depth, continued, triple);
}

void track_brackets(std::string_view line, int &depth, bool &continued, char &triple) {
  lexing::walk_code_across_lines(line, triple, [&](std::size_t, char c) {
    if (c == '#') return false;
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      depth = std::max(0, depth - 1);
    return true;
  });
  std::string_view trimmed = line.substr(0, line.find_last_not_of(" \t\r") + 1);
  continued = !trimmed.empty() && trimmed.back() == '\\';
}

std::optional<BodyChunks> find_chunks(const EditedText &text, const std::string &original) {
  if (text.size() < kChunkedFileBytes || has_triple_quote(original)) return std::nullopt;
  BodyChunks chunks;
  int depth = 0;
  bool in_def = false, continued = false, previous_blank = true, after_decorator = false;
  constexpr uint32_t kNone = UINT32_MAX;
  uint32_t indent = kNone; // of the current def's body
  std::size_t chunk_start = 0, body_end = std::string::npos;
  // Where the body's last line ends: blank lines and column-0 comments after it belong to the
  // module (the next trace's preamble), so the last chunk stops before them.
  std::size_t last_body_line_end = 0;
  for (Lines lines(text, 0); lines.next();) {
    std::string_view line = lines.text();
    std::size_t line_start = lines.begin();
    std::size_t first = line.find_first_not_of(" \t\r\f");
    bool blank = first == std::string_view::npos;
    bool comment = !blank && line[first] == '#';
    bool statement_start = depth == 0 && !continued && !blank && !comment;
    if (statement_start && first == 0) {
      if (in_def && indent != kNone && !chunks.rest.empty()) {
        body_end = std::max(last_body_line_end, chunks.rest.back().first);
        break;
      }
      indent = kNone; // a small def before: look at the next one
      in_def = line.rfind("def ", 0) == 0;
      if (in_def) {
        chunks.def_offset = line_start;
        chunk_start = lines.next_begin();
      }
    } else if (statement_start && in_def) {
      if (indent == kNone) {
        indent = static_cast<uint32_t>(first);
      } else if (first < indent) {
        // A dedent to no enclosing level (Python's IndentationError): tree-sitter closes the
        // def there, which a chunk's own wrapper def would not show. Parse it whole.
        return std::nullopt;
      } else if (first == indent && !previous_blank && !after_decorator &&
                 !continues_compound(line.substr(first)) &&
                 line_start - chunk_start >= kChunkBytes) {
        if (!chunks.rest.empty()) chunks.rest.back().second = line_start;
        chunks.rest.emplace_back(line_start, std::string::npos);
        chunk_start = line_start;
      }
      if (first == indent) after_decorator = line[first] == '@';
    }
    if (!blank && !comment) {
      if (lexing::in_string(line, line.size()))
        return std::nullopt; // an unterminated string: no safe split
      track_brackets(line, depth, continued);
    }
    previous_blank = blank;
    if (!blank && !(comment && first == 0)) last_body_line_end = lines.next_begin();
  }
  if (chunks.rest.empty() || indent == kNone) return std::nullopt;
  chunks.rest.back().second = body_end == std::string::npos ? text.size() : body_end;
  chunks.indent = indent;
  return chunks;
}

} // namespace tracelint::chunking
