#pragma once
// What printed text says: whether a line is valid Python, and whether a piece of it is Python
// code (so that the function printing it is a Python printer) or C++ (a kernel generator).
#include <memory>
#include <string_view>

namespace tracelint::python {
class Parser;
}

namespace tracelint::analyzer {

// A tree-sitter-python parser, reused across calls; not for use by two threads at once.
class PythonParser {
public:
  PythonParser();
  ~PythonParser();
  PythonParser(const PythonParser &) = delete;
  PythonParser &operator=(const PythonParser &) = delete;

  // The text parses without an ERROR or MISSING node.
  bool parses(std::string_view text);
  // One logical line of printed Python (values shown as `x`) is valid on its own, once its
  // indentation is removed and what it needs around it is added: a block header (`...:`) gets
  // a `pass` body, `else:`/`elif`/`except`/`finally` the `if` or `try` it continues, a
  // decorator the def it decorates.
  bool line_is_valid(std::string_view line);

private:
  std::unique_ptr<python::Parser> parser_; // core's tree-sitter layer
};

// The line starts (after indentation) with a Python statement keyword: `def `, `return`,
// `if `, `else:`, `import `, `@`...
bool starts_with_python_keyword(std::string_view line);

enum class TextKind { Neutral, Python, Cpp };

// One physical line of text a function prints, values shown as `x`. `complete`: its newline is
// printed too; `at_line_start`: it is known to begin a line. Python: a def or class header, an
// import, `= module.attr(` (an assignment from a call of a dotted name, as in `t0 = torch.add(`
// or `= fd.ops.mul(`), a decorator, a statement's first word that later writes finish (`def `,
// `return `), or a complete keyword statement (`return x`, `if x:`) that parses. Cpp: a line ending
// in `;` or `) {`, a preprocessor line, a template header.
TextKind classify_printed_line(PythonParser &parser, std::string_view segment, bool complete,
                               bool at_line_start);

} // namespace tracelint::analyzer
