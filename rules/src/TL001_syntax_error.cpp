#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL001{
    "TL001",
    "syntax-error",
    Severity::Error,
    "The trace is not valid Python.",
    "tree-sitter-python cannot parse this region, and no other rule explains why (a debug repr "
    "in code is TL002, a missing signature TL010). Python would refuse the whole file with a "
    "SyntaxError; tracelint reports the region and keeps checking the rest of the file, so one "
    "broken line does not hide the findings below it. Also reported: what tree-sitter accepts "
    "but Python does not: a line dedented to a column no enclosing block starts at, or indented "
    "with no block header before it (IndentationError); indentation whose meaning depends on the "
    "tab size (TabError); brackets nested past 200 levels, indentation past 99 levels, and loops, "
    "try and with blocks nested past 20 in a function. Lines end at `\\n`, `\\r\\n` or a lone "
    "`\\r`, as Python reads them.",
    "def computation(a):\n  t0 = ltorch.getitem(a, (..., slice(None, 8, None))\n  return t0\n",
    "def computation(a):\n  t0 = ltorch.getitem(a, (..., slice(None, 8, None)))\n  return t0\n",
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const SyntaxProblem &p : ctx.parsed.syntax)
    out.push_back(kTL001.diagnostic(p.span, "syntax error: " + p.message));
}
} // namespace

} // namespace tracelint
