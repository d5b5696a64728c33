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
    "after a bracket). The repr may be reached through the printer's own functions: an "
    "operator<< that streams `p.repr()`, a toString() that returns describe() which returns "
    "repr(), a fmt or std formatter that formats `p.repr()`, found through up to 64 nested such "
    "calls in the translation unit, and into the other units analysed in the same run "
    "(`tracelint analyze a.cpp b.cpp`, or -p with the project's files; -p --cross-unit reads "
    "the database's units that define them), where a function declared here is defined (calls that "
    "go round in a cycle end the search); a "
    "function whose text is more than the value (Python code around it) is checked where it "
    "writes instead. The message names the chain: `stop` \u2192 `operator<<` at line 12 "
    "\u2192 `repr()` (`at proxy.cpp:12` in another file). This is the C++ twin of Thunder issue "
    "#1182, where a NumberProxy's "
    "repr ended up inside slice(...). Print the value's Python spelling, a proxy's name.",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << repr(stop) << \", None)\";\n}\n",
    "void print_slice(std::ostream &os, const IntegerProxy &stop) {\n"
    "  os << \"slice(None, \" << stop.name << \", None)\";\n}\n",
    nullptr};

} // namespace tracelint
