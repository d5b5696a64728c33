#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL004{
    "TL004",
    "redefined-name",
    Severity::Error,
    "A name is assigned twice; traces are single-assignment.",
    "Each proxy is produced by exactly one bound symbol, so a trace never assigns a name twice, "
    "not even after `del`. A second assignment means two proxies were given the same name and "
    "every later use is ambiguous. Repeated assignments among the subsymbols of one bound "
    "symbol (Thunder issue #2728: `(i0, i1) = prims.shape(a)` printed again and again) are "
    "reported as warnings, since subsymbols are comments.",
    "def computation(a, b):\n  t0 = ltorch.add(a, b)\n  t0 = ltorch.mul(t0, b)\n  return t0\n",
    "def computation(a, b):\n  t0 = ltorch.add(a, b)\n  t1 = ltorch.mul(t0, b)\n  return t1\n",
    check};

namespace {
// Fires on every rebinding of a name, also after a `del`, except a rebinding after fx's
// `x = None` (that is how fx frees a value and reuses its name) and, among the subsymbols of
// one bound symbol, a rebinding of that bound symbol's own output (its decomposition may
// produce it in steps). Among subsymbols (comments) it is a warning.
void report(const std::vector<Rebinding> &rebindings, std::vector<Diagnostic> &out) {
  for (const Rebinding &r : rebindings) {
    if (r.previous_state == Rebinding::Previous::FreedByNoneAssignment) continue;
    if (r.in_subsymbols && r.parent_output) continue;
    bool after_delete = r.previous_state == Rebinding::Previous::Deleted;
    std::string message = r.in_subsymbols ? "subsymbol assigns `" + r.name + "` again"
                                          : "`" + r.name + "` is assigned again" +
                                                std::string(after_delete ? " after `del`" : "") +
                                                "; traces are single-assignment";
    Diagnostic d = kTL004.diagnostic(r.span, message);
    if (r.in_subsymbols) d.severity = Severity::Warning;
    d.related.push_back({r.previous, after_delete ? "deleted here" : "first assigned here"});
    out.push_back(std::move(d));
  }
}

void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces)
    report(facts.rebindings, out);
  report(ctx.analysis.orphans.rebindings, out);
}
} // namespace

} // namespace tracelint
