#include "tracelint/rules/rule.hpp"

#include <set>

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
std::unique_ptr<StatementCheck> statement_check();
} // namespace

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
    "`\\r`, as Python reads them. And what the tree holds but CPython's compile() rejects, with "
    "CPython's message: a `return` that lost its indentation and stands at module level "
    "(\"'return' outside function\"; ast.parse accepts the file, running it does not).",
    "def computation(a):\n  t0 = ltorch.getitem(a, (..., slice(None, 8, None))\n  return t0\n",
    "def computation(a):\n  t0 = ltorch.getitem(a, (..., slice(None, 8, None)))\n  return t0\n",
    check,
    statement_check,
    nullptr,
    true}; // a syntax error is one in any Python

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const SyntaxProblem &p : ctx.parsed.syntax)
    out.push_back(kTL001.diagnostic(p.span, "syntax error: " + p.message));
}

// A return at module level: statements outside any def are a Fragment's body. Lines copied
// with their indentation fail earlier in CPython (unexpected indent), so only unindented ones.
class CompileCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (s.kind != Statement::Kind::Blank && s.kind != Statement::Kind::Comment &&
        s.kind != Statement::Kind::AnnotationComment)
      with_code_.insert(&t);
    if (t.kind == Trace::Kind::Fragment && s.kind == Statement::Kind::Return && s.span.column == 1)
      returns_.emplace_back(&t, s.span);
  }
  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    if (ctx.parsed.fragment_was_indented) return;
    for (const auto &[fragment, span] : returns_) {
      // CPython stops at the first error: a syntax or indentation error before it wins, and so
      // does a def above it whose body is missing ("expected an indented block", TL010).
      bool earlier = false;
      for (const SyntaxProblem &p : ctx.parsed.syntax)
        earlier |= p.span.begin <= span.begin;
      for (const Trace &t : ctx.parsed.file.traces) {
        if (&t == fragment) break;
        earlier |= t.kind == Trace::Kind::Function && !with_code_.count(&t);
      }
      if (earlier) continue;
      Span keyword = ctx.parsed.source.span(span.begin, span.begin + 6);
      out.push_back(kTL001.diagnostic(keyword, "SyntaxError: 'return' outside function"));
    }
  }
  std::set<const Trace *> with_code_;
  std::vector<std::pair<const Trace *, Span>> returns_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<CompileCheck>();
}
} // namespace

} // namespace tracelint
