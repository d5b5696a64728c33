// The analyzer's text layer without Clang: format strings split into fields, printed Python
// lines assembled across writes, and what a line of printed text says about its language.
#include "tracelint/analyzer/format_strings.hpp"
#include "tracelint/analyzer/printed_lines.hpp"
#include "tracelint/analyzer/python_text.hpp"

#include <doctest/doctest.h>

using namespace tracelint::analyzer;

namespace {
std::vector<FormatField> fields(const std::vector<FormatSegment> &segments) {
  std::vector<FormatField> out;
  for (const FormatSegment &s : segments)
    if (s.field) out.push_back(*s.field);
  return out;
}
std::string literals(const std::vector<FormatSegment> &segments) {
  std::string out;
  for (const FormatSegment &s : segments)
    out += s.field ? "{}" : s.literal;
  return out;
}
TextPiece text(std::string s) {
  return TextPiece{std::move(s)};
}
TextPiece value(std::size_t i) {
  TextPiece t;
  t.value = i;
  t.identity = reinterpret_cast<const void *>(i + 1);
  return t;
}
} // namespace

TEST_CASE("analyzer text: printf formats") {
  auto parsed = parse_printf_format("x=%d %5.2f 100%% %.*g %-8s %2$s %Lf %a");
  REQUIRE(parsed);
  CHECK(literals(*parsed) == "x={} {} 100% {} {} {} {} {}");
  auto f = fields(*parsed);
  REQUIRE(f.size() == 7);
  CHECK(f[0].type == 'd');
  CHECK(f[1].type == 'f');
  CHECK(f[1].precision == 2);
  CHECK(!f[0].precision);
  CHECK(f[2].dynamic_precision);
  CHECK(f[2].extra_args == 1);
  CHECK(f[3].type == 's');
  CHECK(f[4].arg_index == 1u);
  CHECK(f[5].length == "L");
  CHECK(f[6].type == 'a');
  CHECK(parse_printf_format("%.f")->at(0).field->precision == 0);
  CHECK(!parse_printf_format("50%"));
  CHECK(!parse_printf_format("%y"));
}

TEST_CASE("analyzer text: fmt and std::format formats") {
  auto parsed = parse_fmt_format("{} {{x}} {:.17g} {0:>8} {:.{}f} {name} {:.<10} {:a}");
  REQUIRE(parsed);
  CHECK(literals(*parsed) == "{} {x} {} {} {} {} {} {}");
  auto f = fields(*parsed);
  REQUIRE(f.size() == 7);
  CHECK(f[0].type == 0);
  CHECK(!f[0].precision);
  CHECK(f[1].type == 'g');
  CHECK(f[1].precision == 17);
  CHECK(f[2].arg_index == 0u);
  CHECK(f[2].type == 0);
  CHECK(f[3].dynamic_precision);
  CHECK(f[3].extra_args == 1);
  CHECK(f[3].type == 'f');
  CHECK(f[4].named);
  CHECK(!f[5].precision); // '.' is the fill character
  CHECK(f[6].type == 'a');
  CHECK(!parse_fmt_format("a } b"));
  CHECK(!parse_fmt_format("{0"));
}

TEST_CASE("analyzer text: Python lines and what printed text says") {
  PythonParser parser;
  CHECK(parser.line_is_valid("  t0 = prims.add(x, x)"));
  CHECK(!parser.line_is_valid("  t0 = prims.add(x x)"));
  CHECK(parser.line_is_valid("else:"));
  CHECK(parser.line_is_valid("  except Exception:"));
  CHECK(parser.line_is_valid("try:"));
  CHECK(parser.line_is_valid("@torch.no_grad()"));
  CHECK(parser.line_is_valid("def x(a, b) -> x:"));
  CHECK(!parser.line_is_valid("else"));
  CHECK(classify_printed_line(parser, "def x(", false, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, "    v_0 = F.relu(v_1)", true, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, " = fd.x(", false, false) == TextKind::Python);
  CHECK(classify_printed_line(parser, "import torch", true, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, "return ", false, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, "if x:", true, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, "t0 = add(a, b)", true, true) == TextKind::Python);
  CHECK(classify_printed_line(parser, "  float s = x;", true, true) == TextKind::Cpp);
  CHECK(classify_printed_line(parser, "if (x) {", true, true) == TextKind::Cpp);
  CHECK(classify_printed_line(parser, "return x;", true, true) == TextKind::Cpp);
  CHECK(classify_printed_line(parser, "traced x in x s, cached=x", true, true) ==
        TextKind::Neutral);
  CHECK(classify_printed_line(parser, "with x elements", false, true) == TextKind::Neutral);
  CHECK(classify_printed_line(parser, "size = x", true, true) == TextKind::Neutral);
}

TEST_CASE("analyzer text: a line built over several writes is checked once whole") {
  LineState state; // a stream the function was given: where it stands is unknown
  Printed first = print_pieces(state, {text("  "), value(0), text(" = prims.add("), value(1)});
  CHECK(first.lines.empty());
  CHECK(state.kind == LineState::Kind::Mid); // it began with indentation
  Printed second = print_pieces(state, {text(" "), value(0), text(")\n")});
  REQUIRE(second.lines.size() == 1);
  CHECK(second.lines[0] == "  x = prims.add(x x)");
  CHECK(state.kind == LineState::Kind::Start);

  // The second half of a line whose start this function did not print: not a line.
  LineState unknown;
  Printed half = print_pieces(unknown, {text(" = "), value(0), text("\n")});
  CHECK(half.lines.empty());
  CHECK(unknown.kind == LineState::Kind::Start); // after its newline, the next line is known
  Printed arrow = print_pieces(unknown, {text(") -> "), value(0), text(":\n")});
  REQUIRE(arrow.lines.size() == 1); // known now: it starts a line
  CHECK(arrow.lines[0] == ") -> x:");

  // Brackets carry a statement over newlines.
  LineState start;
  start.kind = LineState::Kind::Start;
  CHECK(print_pieces(start, {text("t0 = cat([\n")}).lines.empty());
  CHECK(print_pieces(start, {text("  "), value(0), text(",\n")}).lines.empty());
  Printed closed = print_pieces(start, {text("])\n")});
  REQUIRE(closed.lines.size() == 1);
  CHECK(closed.lines[0] == "t0 = cat([\n  x,\n])");

  CHECK(evidently_starts_line({text("def "), value(0)}));
  CHECK(evidently_starts_line({text("    "), value(0)}));
  CHECK(!evidently_starts_line({text(" = "), value(0)}));
  CHECK(!evidently_starts_line({value(0), text(" = x")}));
}

TEST_CASE("analyzer text: where printed values land") {
  LineState state;
  state.kind = LineState::Kind::Start;
  Printed p = print_pieces(state, {text("x = f('"), value(0), text("', mode="), value(1),
                                   text(")  # "), value(2), text("\n")});
  REQUIRE(p.values.size() == 3);
  CHECK(p.values[0].quote == '\'');
  CHECK(p.values[0].before_quote);
  CHECK(p.values[1].quote == 0);
  CHECK(p.values[1].after_equals);
  CHECK(!p.values[1].before_quote);
  CHECK(p.values[2].comment);

  // A docstring opened in one write holds the values of the next ones.
  LineState doc;
  print_pieces(doc, {text("\"\"\"")});
  Printed inside = print_pieces(doc, {text("\n    "), value(0)});
  REQUIRE(inside.values.size() == 1);
  CHECK(inside.values[0].quote == '"');
  CHECK(inside.values[0].triple);
  print_pieces(doc, {text("\n    \"\"\"")});
  CHECK(doc.lex.quote == 0);

  // Paths that print differently: what follows is not known.
  LineState a, b;
  a.kind = b.kind = LineState::Kind::Start;
  print_pieces(a, {text("x = '")});
  print_pieces(b, {text("x = ")});
  LineState merged = merge(a, b);
  CHECK(!merged.lex.known);
  Printed after = print_pieces(merged, {value(0)});
  REQUIRE(after.values.size() == 1);
  CHECK(!after.values[0].known);
}
