#include "tracelint/rules/rule.hpp"

#include <cctype>

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
// Thunder's generated proxy names: a letter and a number (i0, t12, C0).
bool looks_like_proxy_name(const std::string &name) {
  if (name.size() < 2 || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  for (std::size_t i = 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  return true;
}
} // namespace

// Fires on a proxy-named read nothing binds (not freed, not a module, not a python_ctx name, not
// a dim an input's annotation carries) in a Thunder trace that has a collection it could have
// come from: one unpacked with placeholders before the read, or one never unpacked by then.
// Thunder's collection inputs and their unpacking belong to its prologue: other dialects have
// neither.
bool collection_explains(const UnresolvedRead &read, Dialect dialect) {
  return dialect_traits(dialect).thunder_checks && read.freed == UnresolvedRead::Freed::No &&
         read.shape_annotation < 0 && (read.placeholder_unpack >= 0 || read.open_collection >= 0) &&
         looks_like_proxy_name(read.name) && !missing_module_import(read) &&
         !python_ctx_provides(read, dialect);
}

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    for (const UnresolvedRead &read : facts.unresolved) {
      if (!collection_explains(read, ctx.analysis.dialect)) continue;
      if (const NamedPlace *unpack = facts.place(read.placeholder_unpack)) {
        Diagnostic d = kTL006.diagnostic(
            read.span, "`" + read.name + "` is never defined: `" + unpack->name +
                           "` was unpacked with `_` placeholders, which dropped the element " +
                           "that holds it");
        d.related.push_back({unpack->span, "`" + unpack->name + "` is unpacked here"});
        out.push_back(std::move(d));
      } else {
        const NamedPlace &collection = *facts.place(read.open_collection);
        Diagnostic d = kTL006.diagnostic(
            read.span, "`" + read.name + "` is never defined: the collection input `" +
                           collection.name + "` is never unpacked");
        d.related.push_back({collection.span, "`" + collection.name + "` is a collection"});
        out.push_back(std::move(d));
      }
    }
}
} // namespace

} // namespace tracelint
