#include "tracelint/rules/rule.hpp"

#include "analyzer_printers.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/printer_checks.cpp).
extern const Rule kTLA003{
    "TLA003",
    "lossy-literal",
    Severity::Error,
    "A value printed into generated Python loses its meaning or its precision.",
    TRACELINT_ANALYZER_PRINTERS
    " TLA003: a bool printed as 0 or 1 (<< without std::boolalpha, std::to_string, "
    "%d) or as true/false (fmt's `{}`, `b ? \"true\" : \"false\"`) where Python needs True/False; "
    "a float or double printed with fewer digits than it needs to round-trip (17 for a "
    "double, 9 for a float): << at the default precision 6 (std::showpoint does not change "
    "it) or a precision below that, std::fixed with fewer than 17 decimals, std::to_string "
    "(%f), %f/%e/%g and {:f}/{:e}/{:g} without enough digits; the message says which digits "
    "are lost. Lossless: precision >= max_digits10 (setprecision, os.precision, "
    "std::numeric_limits<T>::max_digits10), std::hexfloat, %a, `{}` and std::format(\"{}\") "
    "(the shortest text that round-trips), std::to_chars, fixed notation of a value the code "
    "checked is integral (`v == std::nearbyint(v)`, `v == (int)v`), values under a "
    "std::isinf/std::isnan branch, and a value printed into a buffer that the function parses "
    "back and compares with it (`if (strtof(buffer, 0) != f)`, printing it again with more "
    "digits: pnnx's float_to_string). A stream whose format another function sets is not judged "
    "by the default. Also: a string the printer was given printed right after `name=` and "
    "before no quote prints a bare word where Python expects a string literal (a variable "
    "named for a Python name or expression, `weight_name` or `rhs_expr`, is taken to hold "
    "one)." TRACELINT_ANALYZER_OTHER_UNITS,
    "void print_check(std::ostream &os, const std::string &t, bool requires_grad) {\n"
    "  os << \"  prims.check(\" << t << \", \" << requires_grad << \")\\n\";\n}\n",
    "void print_check(std::ostream &os, const std::string &t, bool requires_grad) {\n"
    "  os << std::boolalpha << \"  prims.check(\" << t << \", \" << requires_grad << "
    "\")\\n\";\n}\n",
    nullptr};

} // namespace tracelint
