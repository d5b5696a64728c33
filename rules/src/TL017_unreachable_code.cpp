#include "tracelint/rules/rule.hpp"

#include <map>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL017{
    "TL017",
    "unreachable-code",
    Severity::Warning,
    "Statements after the trace's `return` never run.",
    "What it does: finds the first statement after a `return` in a trace's body (comments and "
    "blank lines aside). Why it matters: a trace is straight-line code, so everything after its "
    "`return` is dead. Printers that append a bound symbol after the return (a `del` of the "
    "outputs, a late check, a second computation pasted below) produce a trace whose printed "
    "code no longer says what runs, and whose dead lines tools that re-read the trace "
    "(dataflow graphs, diffing) take for real. Example: `return t1` followed by `del t0`. Use "
    "instead: move the statement before the `return`, or drop it. Reported once per trace.",
    "def computation(a):\n  t0 = ltorch.exp(a)\n  return t0\n  del a\n",
    "def computation(a):\n  t0 = ltorch.exp(a)\n  del a\n  return t0\n",
    nullptr,
    statement_check};

namespace {
class UnreachableCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &out) override {
    if (s.kind == Statement::Kind::Blank || s.kind == Statement::Kind::Comment ||
        s.kind == Statement::Kind::AnnotationComment)
      return;
    auto it = returned_.find(&t);
    if (it == returned_.end()) {
      if (s.kind == Statement::Kind::Return) returned_.emplace(&t, s.span);
      return;
    }
    if (it->second.line == 0) return; // reported already
    Diagnostic d = kTL017.diagnostic(
        s.span, "unreachable: this statement comes after the trace's `return` (line " +
                    std::to_string(it->second.line) + ")");
    d.related.push_back({it->second, "the trace returns here"});
    out.push_back(std::move(d));
    it->second = Span{};
  }

  std::map<const Trace *, Span> returned_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<UnreachableCheck>();
}
} // namespace

} // namespace tracelint
