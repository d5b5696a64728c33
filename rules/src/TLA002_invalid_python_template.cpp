#include "tracelint/rules/rule.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/analyzer.cpp).
extern const Rule kTLA002{
    "TLA002",
    "invalid-python-template",
    Severity::Error,
    "The string-literal skeleton of a printer statement does not parse as Python.",
    "For each `os << ... << \"...\\n\"` chain or string concatenation in a codegen function that "
    "starts with a literal and ends with a newline, tracelint joins the literals with each "
    "streamed value replaced by the placeholder `x` and parses the result with "
    "tree-sitter-python: missing commas, unbalanced brackets or `=` where `==` is meant make "
    "every trace this printer emits invalid. A line ending in `:` gets a `pass` body and a "
    "decorator line a def before parsing.",
    "void print_call(std::ostream &os, const std::string &out, const std::string &a,\n"
    "                const std::string &b) {\n"
    "  os << \"  \" << out << \" = prims.add(\" << a << \" \" << b << \")\\n\";\n}\n",
    "void print_call(std::ostream &os, const std::string &out, const std::string &a,\n"
    "                const std::string &b) {\n"
    "  os << \"  \" << out << \" = prims.add(\" << a << \", \" << b << \")\\n\";\n}\n",
    nullptr};

} // namespace tracelint
