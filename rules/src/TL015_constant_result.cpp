#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
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
    check};

namespace {
bool has_names(const Value &v) {
  bool found = false;
  for_each_name(v, [&](const Value &) { found = true; });
  return found;
}

void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const Trace &t : ctx.parsed.file.traces) {
    if (t.kind != Trace::Kind::Function || !t.parameters.empty())
      continue;
    const Statement *ret = nullptr;
    bool only_return = true;
    for (const Statement &s : t.body) {
      if (s.kind == Statement::Kind::Return)
        ret = &s;
      else if (s.kind != Statement::Kind::Blank && s.kind != Statement::Kind::Comment)
        only_return = false;
    }
    if (ret && only_return && ret->has_value && !has_names(ret->value))
      out.push_back(kTL015.diagnostic(ret->span, "`" + t.name + "` takes no inputs and returns "
                                                     "the constant `" + print_value(ret->value) +
                                                     "`: the traced computation was baked in"));
  }
}
} // namespace

} // namespace tracelint
