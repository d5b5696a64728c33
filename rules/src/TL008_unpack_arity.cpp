#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL008{
    "TL008",
    "unpack-arity",
    Severity::Error,
    "An unpack line binds a different number of names than its source has.",
    "`i0, i1, = shape` raises ValueError when `shape` has three elements. The length comes from "
    "what the trace itself says about the source: the rank in a tensor's annotation for "
    "`prims.shape(a)` and `a.shape` (and names assigned from them), or a tuple or list literal.",
    "def computation(a):\n  # a: \"cpu f32[2, 3, 4]\"\n  (i0, i1) = prims.shape(a)\n"
    "  return i0\n",
    "def computation(a):\n  # a: \"cpu f32[2, 3, 4]\"\n  (i0, i1, i2) = prims.shape(a)\n"
    "  return i0\n",
    check};

namespace {
// Fires on an unpack whose number of targets differs from the length the trace states for its
// source.
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    for (const KnownLengthUnpack &m : facts.unpacks) {
      if (m.targets == m.source_length) continue;
      Diagnostic d = kTL008.diagnostic(m.span, "unpacks " + std::to_string(m.targets) +
                                                   " names from `" + m.source + "`, which has " +
                                                   std::to_string(m.source_length) + " elements");
      d.related.push_back({m.source_span, "the length comes from here"});
      out.push_back(std::move(d));
    }
}
} // namespace

} // namespace tracelint
