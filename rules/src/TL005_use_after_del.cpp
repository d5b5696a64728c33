#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL005{
    "TL005",
    "use-after-del",
    Severity::Error,
    "A name is used after a `del` of it.",
    "Thunder's \"Delete Last Used\" pass inserts `del` after the last use of each proxy to free "
    "memory early. A use after that `del` raises NameError at run time; it means the pass and "
    "the trace disagree about the order of bound symbols. torch.fx, Dynamo and AOT graph code "
    "free a value by rebinding its name instead (`add = abs_1 + 1;  abs_1 = None`): in those "
    "dialects a read after `x = None` is the same defect (a None where a tensor was meant).",
    "def computation(a, b):\n  t0 = ltorch.add(a, b)\n  del a\n  t1 = ltorch.mul(a, t0)\n"
    "  return t1\n",
    "def computation(a, b):\n  t0 = ltorch.add(a, b)\n  t1 = ltorch.mul(a, t0)\n  del a\n"
    "  return t1\n",
    check};

namespace {
// Fires on every read of a name whose binding was freed before it: by a `del`, or (in the
// dialects where that frees a value, DialectTraits::none_frees) by `x = None`.
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    for (const UnresolvedRead &read : facts.unresolved) {
      if (read.freed == UnresolvedRead::Freed::No) continue;
      bool by_none = read.freed == UnresolvedRead::Freed::ByNoneAssignment;
      Diagnostic d = kTL005.diagnostic(
          read.span, "`" + read.name + "` is used after " +
                         (by_none ? "`" + read.name + " = None` freed it" : "`del`"));
      d.related.push_back({read.freed_at, by_none ? "freed here" : "deleted here"});
      out.push_back(std::move(d));
    }
}
} // namespace

} // namespace tracelint
