#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL018{
    "TL018",
    "type-comment-target",
    Severity::Warning,
    "A statement's type comment names another variable than the one it assigns.",
    "What it does: compares the name in a bound symbol's trailing type comment (`# t1: \"cpu "
    "f32[4]\"`) with the name the statement assigns. Why it matters: the type comment is how a "
    "reader, and every tool that re-reads the trace, learns the proxy's device, dtype and shape; "
    "one that names another proxy (a printer that renamed the output but kept the old comment, "
    "as in-place ops such as `ltorch.exp_` once did) describes the wrong value, and a shape "
    "check built on it checks the wrong thing. Example: `c = ltorch.exp_(a)  # t1: \"cpu "
    "f32[4]\"`. Use instead: the comment of the name assigned, `c = ltorch.exp_(a)  # c: \"cpu "
    "f32[4]\"`. Subsymbol comments are checked the same way.",
    "def computation(a):\n  c = ltorch.exp_(a)  # t1: \"cpu f32[4]\"\n  return c\n",
    "def computation(a):\n  c = ltorch.exp_(a)  # c: \"cpu f32[4]\"\n  return c\n",
    nullptr,
    statement_check};

namespace {
class TargetCheck : public StatementCheck {
  void statement(const Trace &, const Statement &statement, std::vector<Diagnostic> &out) override {
    for_each_statement(statement, [&](const Statement &s) {
      if (s.kind != Statement::Kind::BoundSymbol || !s.target || !s.type_comment ||
          s.target->kind != Target::Kind::Name || s.target->is_placeholder())
        return;
      const TypeComment &c = *s.type_comment;
      if (c.name.empty() || c.name == s.target->name || !c.name_span.valid()) return;
      Diagnostic d = kTL018.diagnostic(c.name_span, "the type comment names `" + c.name +
                                                        "` but the statement assigns `" +
                                                        s.target->name + "`");
      d.related.push_back({s.target->span, "assigned here"});
      out.push_back(std::move(d));
    });
  }
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<TargetCheck>();
}
} // namespace

} // namespace tracelint
