#pragma once
// Lines of printed Python as a printer builds them, statement by statement: what each write
// appends to a stream or string, where each printed value lands (inside a string literal, right
// after `name=`), and which lines are complete with a known start, so that they can be parsed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint::analyzer {

// Where the printed text is, lexically: in which string literal, how deep in brackets.
struct PythonLexState {
  char quote = 0;       // '\'' or '"' inside a string literal
  bool triple = false;  // the string is triple-quoted (a docstring)
  bool comment = false; // after `#`, up to the newline
  bool escape = false;  // after a backslash inside a string
  int depth = 0;        // open brackets
  bool known = true;    // false where paths disagree (an if whose branches print differently)
  bool operator==(const PythonLexState &) const = default;
};

// One operand of a write: text the printer spells out, or a value printed at run time.
struct TextPiece {
  std::optional<std::string> literal;
  std::size_t value = 0;          // a value: its index in the write's list of values
  const void *identity = nullptr; // a value: its expression, to compare lines across paths
  bool indentation = false;       // whitespace whose width is known at run time (indent())
};

// The line a stream or string is on, as far as the function that prints it knows.
struct LineState {
  enum class Kind { Start, Mid, Unknown };
  Kind kind = Kind::Unknown;
  std::string pending;                      // Mid: the logical line so far, values as `x`
  std::vector<const void *> pending_values; // Mid: the values in it
  PythonLexState lex;
  bool operator==(const LineState &) const = default;
};

// The state after either of two paths (an if and its else).
LineState merge(const LineState &a, const LineState &b);

// A value's place in the printed text.
struct ValueContext {
  std::size_t value = 0;
  char quote = 0;            // inside a string literal opened with this quote
  bool triple = false;       // ... a triple-quoted one
  bool comment = false;      // inside a `#` comment
  bool known = true;         // the lexical state is known
  bool after_equals = false; // right after `name=` (a keyword argument)
  bool before_quote = false; // the next literal starts with a quote
};

// A physical line of the write's text (with the pending text of its line before it).
struct PrintedSegment {
  std::string text;
  bool complete = false;      // its newline is part of the write
  bool at_line_start = false; // known to begin a line
};

struct Printed {
  std::vector<ValueContext> values;
  std::vector<PrintedSegment> segments;
  // Logical lines completed by this write whose start is known (values as `x`): what TLA002
  // parses.
  std::vector<std::string> lines;
};

// The write's text begins a line even though the stream's state is unknown: it begins with
// indentation (two spaces, a tab, an indentation value) or a statement keyword.
bool evidently_starts_line(const std::vector<TextPiece> &pieces);

// Appends the pieces to the line state and says what they printed.
Printed print_pieces(LineState &state, const std::vector<TextPiece> &pieces);

} // namespace tracelint::analyzer
