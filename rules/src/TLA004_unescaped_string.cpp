#include "tracelint/rules/rule.hpp"

#include "analyzer_printers.hpp"

namespace tracelint {

// Checked by `tracelint analyze` (analyzer/src/printer_checks.cpp).
extern const Rule kTLA004{
    "TLA004",
    "unescaped-string",
    Severity::Error,
    "C++ printer code prints a string into a Python string literal without escaping it.",
    TRACELINT_ANALYZER_PRINTERS
    " TLA004: a string the printer was given (a parameter, one of its own members, "
    "or text derived from them: a split line, a substring, a c_str()) is printed between the "
    "quotes of a Python string literal (`'` or `\"`, by <<, +, %s or `{}`), or inside a `\"\"\"` "
    "docstring, as it is; so is a member of another object (a node's attribute) quoted in the "
    "same write (`'%s'`). A quote, a backslash or a newline in it ends the literal early or "
    "changes it, and a `\"\"\"` in a docstring's text ends the docstring and runs the rest as "
    "code. Text that went through a function named for escaping, quoting or sanitizing "
    "(escape, quote, repr, sanitize, literal, identifier, python), literals, and functions "
    "that return only literals are not reported." TRACELINT_ANALYZER_OTHER_UNITS,
    "void print_load(FILE *fp, const std::string &path) {\n"
    "  fprintf(fp, \"    archive = zipfile.ZipFile('%s', 'r')\\n\", path.c_str());\n}\n",
    "void print_load(FILE *fp, const std::string &path) {\n"
    "  fprintf(fp, \"    archive = zipfile.ZipFile(%s, 'r')\\n\", "
    "python_string_literal(path).c_str());\n}\n",
    nullptr};

} // namespace tracelint
