#include "tracelint/rules/rule.hpp"

#include "analyzer_printers.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/printer_checks.cpp).
extern const Rule kTLA002{
    "TLA002",
    "invalid-python-template",
    Severity::Error,
    "The string-literal skeleton of a printed line does not parse as Python.",
    TRACELINT_ANALYZER_PRINTERS
    " TLA002: a printer's writes are followed statement by statement into lines, "
    "each printed value shown as the placeholder `x`, and each whole logical line (brackets "
    "and triple quotes carry it over newlines) is parsed with tree-sitter-python: missing "
    "commas, unbalanced brackets or `=` where `==` is meant make every trace this printer "
    "emits invalid. A line is checked only where its start is known: after a newline the "
    "printer wrote, at the start of a string it builds, or where the write evidently begins "
    "one (indentation, a statement keyword); the second half of a line begun by another "
    "function (` = x`, `) -> x:`) is not a line. A line ending in `:` gets a `pass` body, "
    "`else:`/`elif`/`except`/`finally`/`try` the statement they continue, and a decorator "
    "line a def before parsing.",
    "void print_call(std::ostream &os, const std::string &out, const std::string &a,\n"
    "                const std::string &b) {\n"
    "  os << \"  \" << out << \" = prims.add(\" << a << \" \" << b << \")\\n\";\n}\n",
    "void print_call(std::ostream &os, const std::string &out, const std::string &a,\n"
    "                const std::string &b) {\n"
    "  os << \"  \" << out << \" = prims.add(\" << a << \", \" << b << \")\\n\";\n}\n",
    nullptr};

} // namespace tracelint
