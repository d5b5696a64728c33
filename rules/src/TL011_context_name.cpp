#include "tracelint/rules/rule.hpp"

#include <set>

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL011{
    "TL011",
    "context-name",
    Severity::Warning,
    "A callee only the trace's python_ctx provides, and that follows no executor's convention.",
    "Thunder passes executor regions, custom ops and helpers to the printed program through "
    "python_ctx rather than importing them, so the printed trace does not run on its own "
    "(Thunder issue #160). The names Thunder's own executors generate are how a trace is meant "
    "to run and are not reported: `nvFusion<n>`, `torchCompile<n>`, `clear_collection` and "
    "`clear_mutable_collection` (and `cudaFusion<n>`, the regions of `tracelint trace "
    "--executors cuda_fusion,torch`), and context objects named `_<qualified type>_<n>` "
    "(`_torch_memory_format_0`). A callee that matches no convention (`apex_cross_entropy`, a "
    "custom op, or the torch executor's `torch_slice_prim_impl`, which Thunder's maintainers "
    "want imported) is a warning: declare the names your "
    "environment provides in `[tool.tracelint] context-names` (or `--context-name`), exactly or "
    "as glob patterns (`apex_*`), and they are defined. Only Thunder has a python_ctx: in the "
    "fx, export and nvFuser dialects an undefined callee is TL003. Reported once per name and "
    "trace.",
    "def computation(t0):\n  t1 = apex_cross_entropy(t0, 0.0)\n  return t1\n",
    "from apex.contrib.xentropy import apex_cross_entropy\n\ndef computation(t0):\n"
    "  t1 = apex_cross_entropy(t0, 0.0)\n  return t1\n",
    check};

namespace {
bool is_context_object(const UnresolvedRead &read) {
  return !read.callee && looks_like_context_object(read.name);
}
} // namespace

// Only Thunder hands the printed program a python_ctx: a callee nothing binds, or a context
// object (`_torch_memory_format_0`), comes from it. Elsewhere an undefined callee is TL003's.
bool python_ctx_provides(const UnresolvedRead &read, Dialect dialect) {
  return dialect_traits(dialect).thunder_checks && read.freed == UnresolvedRead::Freed::No &&
         (read.callee || is_context_object(read)) && !missing_module_import(read);
}

namespace {
// Fires once per name and trace on a python_ctx callee that follows no convention: what the
// dialect's executors generate by name (nvFusion3), and context objects, are how the trace is
// meant to run.
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  const Dialect dialect = ctx.analysis.dialect;
  const DialectTraits &traits = dialect_traits(dialect);
  for (const TraceFacts &facts : ctx.analysis.traces) {
    std::set<std::string> seen;
    for (const UnresolvedRead &read : facts.unresolved) {
      if (!python_ctx_provides(read, dialect) || is_context_object(read) ||
          traits.follows_context_convention(read.name) || !seen.insert(read.name).second)
        continue;
      out.push_back(kTL011.diagnostic(read.span, "`" + read.name +
                                                     "` is called but neither imported nor "
                                                     "defined: only the trace's python_ctx can "
                                                     "provide it"));
    }
  }
}
} // namespace

} // namespace tracelint
