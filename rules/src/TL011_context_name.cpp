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
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  const DialectTraits &dialect = dialect_traits(ctx.analysis.dialect);
  for (const TraceFacts &facts : ctx.analysis.traces) {
    std::set<std::string> seen;
    for (const ContextName &c : facts.context) {
      if (c.kind == ContextName::Kind::Module || !seen.insert(c.name).second) continue;
      // What the dialect's executors generate by name is how the trace is meant to run.
      if (c.kind == ContextName::Kind::Object || dialect.follows_context_convention(c.name))
        continue;
      out.push_back(kTL011.diagnostic(c.span, "`" + c.name +
                                                  "` is called but neither imported nor defined: "
                                                  "only the trace's python_ctx can provide it"));
    }
  }
}
} // namespace

} // namespace tracelint
