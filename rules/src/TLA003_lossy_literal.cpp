#include "tracelint/rules/rule.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/analyzer.cpp).
extern const Rule kTLA003{
    "TLA003",
    "lossy-literal",
    Severity::Error,
    "A value streamed into generated Python loses its meaning or its precision.",
    "In a codegen function: a bool streamed with no std::boolalpha in the function prints 0/1 "
    "where Python needs False/True; a float or double streamed with no setprecision/max_digits10 "
    "/to_chars prints 6 significant digits, so the constant in the trace is not the traced one; "
    "a named std::string streamed right after a literal ending in `=` and not followed by a "
    "quote prints a bare word where a Python string literal is expected.",
    "void print_check(std::ostream &os, const std::string &t, bool requires_grad) {\n"
    "  os << \"  prims.check(\" << t << \", \" << requires_grad << \")\\n\";\n}\n",
    "void print_check(std::ostream &os, const std::string &t, bool requires_grad) {\n"
    "  os << std::boolalpha << \"  prims.check(\" << t << \", \" << requires_grad << "
    "\")\\n\";\n}\n",
    nullptr};

} // namespace tracelint
