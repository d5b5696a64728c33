#include "tracelint/rules/rule.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/analyzer.cpp).
extern const Rule kTLA001{
    "TLA001",
    "repr-in-codegen",
    Severity::Error,
    "C++ printer code streams a value's debug repr into generated Python.",
    "Inside a codegen function (marked [[clang::annotate(\"tracelint::codegen\")]] or matching "
    "--codegen-pattern, default ^(print|emit|codegen)), a call to a function marked "
    "[[clang::annotate(\"tracelint::repr\")]] or matching --repr-pattern, or a value of a type "
    "marked tracelint::repr, flows into an output stream or string. This is the C++ twin of "
    "Thunder issue #1182, where a NumberProxy's repr ended up inside slice(...). Print the "
    "value's Python spelling, a proxy's name.",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << repr(stop) << \", None)\";\n}\n",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << stop.name << \", None)\";\n}\n",
    nullptr};

} // namespace tracelint
