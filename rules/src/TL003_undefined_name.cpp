#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL003{
    "TL003",
    "undefined-name",
    Severity::Error,
    "A name is used before anything defines it.",
    "Every name a trace reads must be a parameter, an import, or the target of an earlier "
    "assignment or unpack line, or a builtin, or a context name the project declares "
    "(`[tool.tracelint] context-names`). Uses are checked everywhere a value can hold a proxy: "
    "call arguments and keyword arguments, tuples, lists, dicts, slices, unpack sources, `del` "
    "and `return`. A symbolic dim that only an input's annotation mentions is not bound: the "
    "trace must unpack it, e.g. `(i0, i1) = prims.shape(a)` (Thunder issue #1253). Callees and "
    "context objects that only python_ctx provides are TL011, modules never imported TL012.",
    "def computation(a):\n  # a: \"cpu f32[2, 8]\"\n  t0 = ltorch.mul(a, t5)\n  return t0\n",
    "def computation(a, t5):\n  # a: \"cpu f32[2, 8]\"\n  # t5: \"cpu f32[2, 8]\"\n"
    "  t0 = ltorch.mul(a, t5)\n  return t0\n",
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces) {
    for (const UndefinedUse &use : facts.undefined) {
      if (use.problem == UseProblem::NeverDefined) {
        if (collection_explains(use, ctx.analysis.dialect)) continue; // TL006's
        out.push_back(kTL003.diagnostic(use.span, "`" + use.name + "` is used but never defined"));
      } else if (use.problem == UseProblem::ImplicitShapeSymbol) {
        Diagnostic d = kTL003.diagnostic(
            use.span, "`" + use.name + "` is used but never defined: only the annotation of `" +
                          use.related_name + "` mentions it; unpack it first, e.g. `(...) = " +
                          "prims.shape(" + use.related_name + ")`");
        d.related.push_back({use.related, "`" + use.name + "` appears in this annotation"});
        out.push_back(std::move(d));
      }
    }
  }
}
} // namespace

} // namespace tracelint
