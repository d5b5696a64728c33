#include "tracelint/rules/rule.hpp"

#include <map>
#include <set>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL010{
    "TL010",
    "no-signature",
    Severity::Error,
    "The trace has no signature (`# No signature available`) or a def with an empty body.",
    "A TraceCtx printed before its function's signature is known prints `# No signature "
    "available` where the def line belongs; with decorators above it the file is a "
    "SyntaxError, and the body's inputs are bound by nothing (Thunder issue #1133; later "
    "Thunder falls back to `(*args, **kwargs)`). A trace with a signature but no bound "
    "symbols prints a def with no body, also a SyntaxError. Print the trace after tracing, or "
    "give it a signature.",
    "@torch.no_grad()\n@no_autocast\n# No signature available\n",
    "@torch.no_grad()\n@no_autocast\ndef computation(*args, **kwargs):\n  return None\n",
    nullptr,
    statement_check};

namespace {

// A body whose statements did not parse is not empty: TL001 reports it.
bool syntax_error_after(const CheckContext &ctx, const Trace &t, const Trace *next) {
  for (const SyntaxProblem &p : ctx.parsed.syntax)
    if (p.span.begin >= t.def_span.end && (!next || p.span.begin < next->def_span.begin))
      return true;
  return false;
}

class EmptyBodyCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (s.kind != Statement::Kind::Comment && s.kind != Statement::Kind::AnnotationComment &&
        s.kind != Statement::Kind::Blank)
      with_code_.insert(&t);
  }

  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    const auto &traces = ctx.parsed.file.traces;
    for (std::size_t i = 0; i < traces.size(); ++i) {
      const Trace &t = traces[i];
      const Trace *next = i + 1 < traces.size() ? &traces[i + 1] : nullptr;
      if (t.kind == Trace::Kind::NoSignature)
        out.push_back(kTL010.diagnostic(
            t.def_span,
            "no signature: `# No signature available` stands where the def line belongs"));
      else if (t.kind == Trace::Kind::Function && !with_code_.count(&t) &&
               !syntax_error_after(ctx, t, next))
        out.push_back(kTL010.diagnostic(t.def_span, "`def " + t.name + "` has an empty body"));
    }
  }

  std::set<const Trace *> with_code_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<EmptyBodyCheck>();
}
} // namespace

} // namespace tracelint
