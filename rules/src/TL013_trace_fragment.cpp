#include "tracelint/rules/rule.hpp"

#include <map>
#include <set>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL013{
    "TL013",
    "trace-fragment",
    Severity::Warning,
    "The file holds lines of a trace without the def that binds their inputs.",
    "Lines copied out of a larger trace (a docs excerpt, an issue comment, a lone subsymbol "
    "line) have no signature, so their inputs are undefined and indented lines are an "
    "IndentationError. tracelint checks the lines as a body anyway and says so once; names "
    "the fragment reads are reported as undefined.",
    "  t107 = torch_slice_prim_impl(t53, [0, 0], [4, 2], [1, 1])\n",
    "def computation(t53):\n  t107 = torch_slice_prim_impl(t53, [0, 0], [4, 2], [1, 1])\n"
    "  return t107\n",
    nullptr,
    statement_check};

namespace {
// Reported once per fragment, at its first line of code.
class FragmentCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (t.kind == Trace::Kind::Fragment && s.kind != Statement::Kind::Blank &&
        s.kind != Statement::Kind::Comment)
      first_code_.emplace(&t, s.span);
  }

  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    bool driver_ok = dialect_traits(ctx.analysis.dialect).driver_after_definition;
    bool after_definition = false;
    for (const Trace &t : ctx.parsed.file.traces) {
      after_definition |= t.kind == Trace::Kind::Function;
      if (driver_ok && after_definition) continue;
      if (auto it = first_code_.find(&t); it != first_code_.end())
        out.push_back(kTL013.diagnostic(
            it->second,
            std::string("a fragment of a trace: no def binds its inputs") +
                (ctx.parsed.fragment_was_indented ? " (and its lines are indented)" : "")));
    }
    if (ctx.parsed.file.traces.empty() && !ctx.parsed.orphan_subsymbols.empty())
      out.push_back(kTL013.diagnostic(ctx.parsed.orphan_subsymbols.front().span,
                                      "subsymbol lines without the trace they belong to"));
  }

  std::map<const Trace *, Span> first_code_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<FragmentCheck>();
}
} // namespace

} // namespace tracelint
