#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL014{
    "TL014",
    "stray-annotation",
    Severity::Warning,
    "An input annotation names something the trace does not have.",
    "Thunder prints `# name: \"type\"` for each input (and for each unpacked element) right "
    "where the name becomes available. An annotation for a name that is not defined at that "
    "point means the printer renamed one side only: in Thunder PR #1061 the annotations said "
    "`i4`, `i5` while the signature and the body kept `i0`, `i1`.",
    "def augmented_forward_fn(a, i0, i1):\n  # i4: \"int 2\"\n  # i5: \"int 2\"\n"
    "  return i0\n",
    "def augmented_forward_fn(a, i0, i1):\n  # i0: \"int 2\"\n  # i1: \"int 2\"\n  return i0\n",
    check};

namespace {
// Fires on every input annotation comment for a name not bound where it stands (a name the
// project declares as a context name is bound).
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    for (const UnboundAnnotation &a : facts.unbound_annotations)
      out.push_back(kTL014.diagnostic(a.span, "annotation for `" + a.name +
                                                  "`, which is not defined here: the " +
                                                  "signature and the body do not have it"));
}
} // namespace

} // namespace tracelint
