#include "tracelint/analyzer/printed_lines.hpp"

#include "tracelint/analyzer/python_text.hpp"

#include <cctype>

namespace tracelint::analyzer {

namespace {

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\f") == std::string_view::npos;
}

std::string_view last_physical_line(std::string_view s) {
  std::size_t nl = s.rfind('\n');
  return nl == std::string_view::npos ? s : s.substr(nl + 1);
}

// `name=`: a keyword argument (not ` = `, `==`, `<=`).
bool ends_with_keyword_equals(std::string_view s) {
  if (s.size() < 2 || s.back() != '=') return false;
  char before = s[s.size() - 2];
  return std::isalnum(static_cast<unsigned char>(before)) || before == '_';
}

// Advances the lexical state over one character of printed text; text[i] is the character and
// i may move past the two further quotes of a triple quote.
void lex(PythonLexState &st, std::string_view text, std::size_t &i) {
  char c = text[i];
  auto triple_at = [&](std::size_t at, char q) {
    return at + 2 < text.size() && text[at] == q && text[at + 1] == q && text[at + 2] == q;
  };
  if (st.comment) {
    if (c == '\n') st.comment = false;
    return;
  }
  if (st.quote) {
    if (st.escape) {
      st.escape = false;
    } else if (c == '\\') {
      st.escape = true;
    } else if (c == st.quote) {
      if (!st.triple) {
        st.quote = 0;
      } else if (triple_at(i, c)) {
        i += 2;
        st.quote = 0;
        st.triple = false;
      }
    } else if (c == '\n' && !st.triple) {
      st.quote = 0; // an unterminated one-line string ends with its line
    }
    return;
  }
  if (c == '#') {
    st.comment = true;
  } else if (c == '\'' || c == '"') {
    st.quote = c;
    if (triple_at(i, c)) {
      st.triple = true;
      i += 2;
    }
  } else if (c == '(' || c == '[' || c == '{') {
    ++st.depth;
  } else if (c == ')' || c == ']' || c == '}') {
    --st.depth;
  }
}

} // namespace

LineState merge(const LineState &a, const LineState &b) {
  if (a == b) return a;
  LineState out;
  if (a.kind == b.kind && a.kind != LineState::Kind::Mid) out.kind = a.kind;
  if (a.kind == LineState::Kind::Mid && b.kind == LineState::Kind::Mid && a.pending == b.pending &&
      a.pending_values == b.pending_values) {
    out.kind = a.kind;
    out.pending = a.pending;
    out.pending_values = a.pending_values;
  }
  if (a.lex == b.lex)
    out.lex = a.lex;
  else
    out.lex.known = false;
  if (out.kind == LineState::Kind::Mid && !out.lex.known) out.kind = LineState::Kind::Unknown;
  return out;
}

bool evidently_starts_line(const std::vector<TextPiece> &pieces) {
  std::string lead;
  bool indentation = false;
  for (const TextPiece &p : pieces) {
    if (p.indentation) {
      indentation = true;
      lead += "  ";
      continue;
    }
    if (!p.literal) break; // a value: the lead so far decides
    lead += *p.literal;
    if (!is_blank(lead)) break;
  }
  std::size_t ws = lead.find_first_not_of(" \t");
  if (ws == std::string::npos) // only indentation, then a value or nothing
    return indentation || lead.size() >= 2 || lead.find('\t') != std::string::npos;
  std::string_view rest = std::string_view(lead).substr(ws);
  if (ws == 0 && !indentation) return starts_with_python_keyword(rest);
  bool indented = indentation || ws >= 2 || lead.substr(0, ws).find('\t') != std::string::npos;
  // ` = x` or `  , x` continue a line; two spaces then a name or a keyword begin one.
  return indented &&
         std::string_view("=)]},:.+-*/%<>|&^!\n").find(rest.front()) == std::string_view::npos;
}

Printed print_pieces(LineState &state, const std::vector<TextPiece> &pieces) {
  Printed out;
  bool line_known = state.kind != LineState::Kind::Unknown;
  std::string line; // the logical line so far
  std::vector<const void *> line_values;
  if (state.kind == LineState::Kind::Mid) {
    line = state.pending;
    line_values = state.pending_values;
  }
  if (state.kind == LineState::Kind::Unknown) line_known = evidently_starts_line(pieces);
  PythonLexState lexed = state.lex;
  bool segment_at_start = line_known;
  std::string segment(last_physical_line(line));

  auto end_segment = [&](bool complete) {
    out.segments.push_back({segment, complete, segment_at_start});
    segment.clear();
    segment_at_start = true;
  };
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const TextPiece &p = pieces[k];
    if (p.indentation) {
      line += "  ";
      segment += "  ";
      continue;
    }
    if (!p.literal) {
      ValueContext ctx;
      ctx.value = p.value;
      ctx.quote = lexed.quote;
      ctx.triple = lexed.triple;
      ctx.comment = lexed.comment;
      ctx.known = lexed.known;
      ctx.after_equals = ends_with_keyword_equals(line);
      for (std::size_t n = k + 1; n < pieces.size(); ++n) {
        if (pieces[n].indentation) break;
        if (!pieces[n].literal) break;
        if (pieces[n].literal->empty()) continue;
        ctx.before_quote = pieces[n].literal->front() == '\'' || pieces[n].literal->front() == '"';
        break;
      }
      out.values.push_back(ctx);
      // A value before a keyword at the start of a line is its indentation (`os << pad <<
      // "return "`), elsewhere a name or an expression: `x`.
      bool before_keyword = k + 1 < pieces.size() && pieces[k + 1].literal &&
                            starts_with_python_keyword(*pieces[k + 1].literal) &&
                            (*pieces[k + 1].literal)[0] != ' ';
      std::string_view shown = is_blank(last_physical_line(line)) && before_keyword ? "  " : "x";
      line += shown;
      segment += shown;
      line_values.push_back(p.identity);
      continue;
    }
    const std::string &text = *p.literal;
    for (std::size_t i = 0; i < text.size(); ++i) {
      std::size_t from = i;
      bool continued = text[i] == '\n' && !line.empty() && line.back() == '\\';
      lex(lexed, text, i);
      line.append(text, from, i - from + 1);
      if (text[i] != '\n') {
        segment.append(text, from, i - from + 1);
        continue;
      }
      end_segment(true);
      if (lexed.quote || lexed.depth > 0 || continued) continue; // the statement goes on
      if (!lexed.known) {
        lexed = PythonLexState{}; // a new line: nothing is open, as far as we can tell
        line_known = false;
      }
      line.pop_back();
      if (line_known) out.lines.push_back(line);
      line.clear();
      line_values.clear();
      lexed.depth = 0;
      line_known = true;
    }
  }
  if (!segment.empty()) end_segment(false);
  if (line.empty() && line_known) {
    state.kind = LineState::Kind::Start;
    state.pending.clear();
    state.pending_values.clear();
  } else if (line_known) {
    state.kind = LineState::Kind::Mid;
    state.pending = line;
    state.pending_values = line_values;
  } else {
    state.kind = LineState::Kind::Unknown;
    state.pending.clear();
    state.pending_values.clear();
  }
  state.lex = lexed;
  return out;
}

} // namespace tracelint::analyzer
