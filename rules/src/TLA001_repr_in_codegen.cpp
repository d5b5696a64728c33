#include "tracelint/rules/rule.hpp"

#include "analyzer_printers.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/printer_checks.cpp).
extern const Rule kTLA001{
    "TLA001",
    "repr-in-codegen",
    Severity::Error,
    "C++ printer code prints a value's debug repr into generated Python.",
    TRACELINT_ANALYZER_PRINTERS
    " TLA001: a debug repr reaches a printer's output by any style (<<, +, +=, "
    ".append, fmt::format, std::format, %s, a local variable that holds it): a call of a "
    "function marked [[clang::annotate(\"tracelint::repr\")]] or matching --repr-pattern "
    "(case-insensitive, default ^(repr|debug_?(string|repr)|to_debug_string|__repr__)$), a "
    "function whose text is a debug repr (`[IntegerProxy ` or `<TensorProxy `: its class's or "
    "parameter's name after a bracket), a value of a type marked tracelint::repr, or of a "
    "type whose operator<< or fmt::formatter prints a debug repr (`name=`, `value=`, its name "
    "after a bracket). This is the C++ twin of Thunder issue #1182, where a NumberProxy's "
    "repr ended up inside slice(...). Print the value's Python spelling, a proxy's name.",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << repr(stop) << \", None)\";\n}\n",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << stop.name << \", None)\";\n}\n",
    nullptr};

} // namespace tracelint
