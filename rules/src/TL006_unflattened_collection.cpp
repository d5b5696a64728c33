#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL006{
    "TL006",
    "unflattened-collection",
    Severity::Error,
    "A collection input was not flattened, so a name only its elements define is undefined.",
    "A collection input (a tuple key, saved_for_backward) must be unpacked element by element, "
    "recursively, so every proxy inside it gets a name. Thunder once printed a slice element as "
    "`_` because a slice is not a Collection, so `_, _, = key` dropped the slice and the "
    "`i0` inside `slice(None, i0, None)` was never bound (PR #1201). The fix is to unpack the "
    "element that holds the name: `_, C0, = key` then `_, i0, _, = C0`.",
    "def foo(a, key):\n  # a: \"cuda:0 f32[2, 2, 9]\"\n  # key: \"Collection\"\n  _, _, = key\n"
    "  t0 = clang.getitem(a, (..., slice(None, i0, None)))\n  return t0\n",
    "def foo(a, key):\n  # a: \"cuda:0 f32[2, 2, 9]\"\n  # key: \"Collection\"\n  _, C0, = key\n"
    "  _, i0, _, = C0\n  t0 = clang.getitem(a, (..., slice(None, i0, None)))\n  return t0\n",
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    for (const UndefinedUse &use : facts.undefined) {
      if (use.problem == UseProblem::DroppedByUnpack) {
        Diagnostic d = kTL006.diagnostic(
            use.span, "`" + use.name + "` is never defined: `" + use.related_name +
                          "` was unpacked with `_` placeholders, which dropped the element " +
                          "that holds it");
        d.related.push_back({use.related, "`" + use.related_name + "` is unpacked here"});
        out.push_back(std::move(d));
      } else if (use.problem == UseProblem::CollectionNotUnpacked) {
        Diagnostic d = kTL006.diagnostic(
            use.span, "`" + use.name + "` is never defined: the collection input `" +
                          use.related_name + "` is never unpacked");
        d.related.push_back({use.related, "`" + use.related_name + "` is a collection"});
        out.push_back(std::move(d));
      }
    }
}
} // namespace

} // namespace tracelint
