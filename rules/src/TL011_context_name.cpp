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
    "A callee or context object only the trace's python_ctx provides.",
    "Executor regions (`nvFusion0`), custom ops (`apex_cross_entropy`), helpers "
    "(`clear_mutable_collection`) and context objects (`_torch_memory_format_0`) are passed to "
    "the printed program through python_ctx rather than imported, so the printed trace does not "
    "run on its own (Thunder issue #160). That is how Thunder works, hence a warning; declare "
    "the names your environment provides in `[tool.tracelint] context-names` (or "
    "`--context-name`) and they are defined. Reported once per name and trace.",
    "def computation(t0):\n  t1 = torch_slice_prim_impl(t0, [0, 0], [4, 2], [1, 1])\n"
    "  return t1\n",
    "from thunder.executors.torchex import slice_prim_impl\n\ndef computation(t0):\n"
    "  t1 = slice_prim_impl(t0, [0, 0], [4, 2], [1, 1])\n  return t1\n",
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces) {
    std::set<std::string> seen;
    for (const ContextName &c : facts.context) {
      if (c.kind == ContextName::Kind::Module || !seen.insert(c.name).second) continue;
      out.push_back(kTL011.diagnostic(
          c.span, c.kind == ContextName::Kind::Callable
                      ? "`" + c.name +
                            "` is called but neither imported nor defined: only "
                            "the trace's python_ctx can provide it"
                      : "context object `" + c.name + "` is neither imported nor defined: " +
                            "only the trace's python_ctx can provide it"));
    }
  }
}
} // namespace

} // namespace tracelint
