#include "tracelint/rules/rule.hpp"

#include <map>
#include <set>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL015{
    "TL015",
    "constant-result",
    Severity::Warning,
    "A computation with no inputs returns only constants.",
    "A traced function normally reads its inputs. A trace with no parameters whose body only "
    "returns literals means the tracer evaluated the function instead of tracing it and baked "
    "the result in, e.g. `math.fmod` on NumberProxies under cache=\"symbolic values\" (Thunder "
    "issue #526): every later call returns the first call's result.",
    "def computation():\n  return 1.2\n",
    "def computation(a, b):\n  # a: \"float 3.2\"\n  # b: \"float 2.0\"\n"
    "  f0 = math.fmod(a, b)  # f0: \"float 1.2\"\n  return f0\n",
    nullptr,
    statement_check};

namespace {
bool has_names(const Value &v) {
  bool found = false;
  for_each_name(v, [&](const Value &) { found = true; });
  return found;
}

// Keeps, for each function without inputs, its last return while nothing else is in the body.
class ConstantResultCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (t.kind != Trace::Kind::Function || !t.parameters.empty() || not_only_return_.count(&t))
      return;
    if (s.kind == Statement::Kind::Return) {
      returns_.insert_or_assign(&t, s);
    } else if (s.kind != Statement::Kind::Blank && s.kind != Statement::Kind::Comment) {
      not_only_return_.insert(&t);
      returns_.erase(&t);
    }
  }

  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    for (const Trace &t : ctx.parsed.file.traces) {
      auto it = returns_.find(&t);
      if (it == returns_.end()) continue;
      const Statement &ret = it->second;
      if (ret.has_value && !has_names(ret.value))
        out.push_back(kTL015.diagnostic(ret.span, "`" + t.name +
                                                      "` takes no inputs and returns "
                                                      "the constant `" +
                                                      print_value(ret.value) +
                                                      "`: the traced computation was baked in"));
    }
  }

  std::map<const Trace *, Statement> returns_;
  std::set<const Trace *> not_only_return_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<ConstantResultCheck>();
}
} // namespace

} // namespace tracelint
