#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL007{
    "TL007",
    "annotation-undefined-symbol",
    Severity::Error,
    "A shape annotation mentions a symbolic dim that nothing defines.",
    "Under cache=\"symbolic values\" tensor shapes hold IntegerProxy names (`f32[i0, i5]`). Each "
    "such name must come from somewhere: a dim of an input's annotation, a parameter, or a bound "
    "symbol (often a `prims.shape` subsymbol). A symbol with no producer means the trace hides "
    "how the size is computed (Thunder issue #471), so no executor can reproduce it.",
    "def computation(a):\n  # a: \"cuda:0 f32[i0, 8]\"\n"
    "  t1 = ltorch.cat((a, a), 1)  # t1: \"cuda:0 f32[i0, i5]\"\n  return t1\n",
    "def computation(a):\n  # a: \"cuda:0 f32[i0, 8]\"\n"
    "  t1 = ltorch.cat((a, a), 1)  # t1: \"cuda:0 f32[i0, 16]\"\n  return t1\n",
    check};

namespace {
// Fires on a symbolic dim of a type comment that nothing binds before it, unless an input's
// annotation carries it (TL003 asks for its unpack where it is read) or a subsymbol line (a
// decomposition's `prims.shape`) produces it.
void report(const TraceFacts &facts, std::vector<Diagnostic> &out) {
  for (const UnresolvedDim &d : facts.unresolved_dims) {
    if (d.in_input_annotation || d.subsymbol_bound) continue;
    out.push_back(kTL007.diagnostic(d.span, "the annotation of `" + d.annotated + "` mentions `" +
                                                d.symbol +
                                                "`, which nothing in the trace defines"));
  }
}

void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    report(facts, out);
  report(ctx.analysis.orphans, out);
}
} // namespace

} // namespace tracelint
