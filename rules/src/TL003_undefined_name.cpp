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
    "context objects that only python_ctx provides are TL011, modules never imported TL012. In "
    "graph code (fx, export) a name that is called and bound nowhere (`__main___my_helper(x)`) "
    "is one of the GraphModule's globals, where fx's codegen puts every function it cannot "
    "spell through an import, and is not reported.",
    "def computation(a):\n  # a: \"cpu f32[2, 8]\"\n  t0 = ltorch.mul(a, t5)\n  return t0\n",
    "def computation(a, t5):\n  # a: \"cpu f32[2, 8]\"\n  # t5: \"cpu f32[2, 8]\"\n"
    "  t0 = ltorch.mul(a, t5)\n  return t0\n",
    check};

namespace {
// Fires on a read that nothing binds (no parameter, import, earlier assignment or unpack, no
// builtin, runtime or declared context name: the analysis resolves those) unless another rule
// explains it: a freed name (TL005), a module never imported (TL012), a python_ctx name
// (TL011), a proxy a collection input should have bound (TL006); or the dialect's globals hold
// it: graph code (fx, export) calls the functions its codegen put in the GraphModule's globals
// by name, so an unbound name called there is one of them (`f(x)`; `f.g(x)`, and a read of
// anything else, is still TL003).
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  const Dialect dialect = ctx.analysis.dialect;
  const bool callees_are_globals = dialect_traits(dialect).callees_are_globals;
  for (const TraceFacts &facts : ctx.analysis.traces) {
    for (const UnresolvedRead &read : facts.unresolved) {
      if (read.freed != UnresolvedRead::Freed::No || missing_module_import(read) ||
          python_ctx_provides(read, dialect) || (callees_are_globals && read.called_by_name))
        continue;
      if (const NamedPlace *annotation = facts.place(read.shape_annotation)) {
        // The input carries the dim, but a trace binds it only by unpacking the shape.
        Diagnostic d = kTL003.diagnostic(
            read.span, "`" + read.name + "` is used but never defined: only the annotation of `" +
                           annotation->name + "` mentions it; unpack it first, e.g. `(...) = " +
                           "prims.shape(" + annotation->name + ")`");
        d.related.push_back({annotation->span, "`" + read.name + "` appears in this annotation"});
        out.push_back(std::move(d));
        continue;
      }
      if (collection_explains(read, dialect)) continue;
      out.push_back(kTL003.diagnostic(read.span, "`" + read.name + "` is used but never defined"));
    }
  }
}
} // namespace

} // namespace tracelint
