#include "tracelint/rules/rule.hpp"

#include <map>
#include <optional>
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
// Reported once per fragment, at its first line of code that is not one of the dialect's
// preamble calls (fx's wrap lines). The statements are streamed before the file's dialect is
// applied: each fragment keeps its leading calls that are some dialect's preamble calls and the
// first other line of code, and finish() decides with the file's dialect.
class FragmentCheck : public StatementCheck {
  struct Leading {
    std::vector<std::pair<std::string, Span>> calls; // callee, line
    std::optional<Span> other;
  };

  static bool preamble_call_of_a_dialect(const std::string &callee) {
    for (Dialect d : {Dialect::Thunder, Dialect::Fx, Dialect::Export, Dialect::Nvfuser})
      if (dialect_traits(d).is_preamble_call(callee)) return true;
    return false;
  }

  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (t.kind != Trace::Kind::Fragment || s.kind == Statement::Kind::Blank ||
        s.kind == Statement::Kind::Comment)
      return;
    Leading &leading = leading_[&t];
    if (leading.other) return;
    std::string callee =
        s.kind == Statement::Kind::BoundSymbol && !s.target && s.value.kind == ValueKind::Call
            ? s.value.callee().qualified_name()
            : "";
    if (!callee.empty() && preamble_call_of_a_dialect(callee))
      leading.calls.emplace_back(std::move(callee), s.span);
    else
      leading.other = s.span;
  }

  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    const DialectTraits &traits = dialect_traits(ctx.analysis.dialect);
    bool after_definition = false;
    for (const Trace &t : ctx.parsed.file.traces) {
      after_definition |= t.kind == Trace::Kind::Function;
      if (traits.driver_after_definition && after_definition) continue;
      auto it = leading_.find(&t);
      if (it == leading_.end()) continue;
      const Leading &leading = it->second;
      std::optional<Span> first = leading.other;
      for (const auto &[callee, span] : leading.calls)
        if (!traits.is_preamble_call(callee)) {
          first = span;
          break;
        }
      if (first)
        out.push_back(kTL013.diagnostic(
            *first, std::string("a fragment of a trace: no def binds its inputs") +
                        (ctx.parsed.fragment_was_indented ? " (and its lines are indented)" : "")));
    }
    if (ctx.parsed.file.traces.empty() && !ctx.parsed.orphan_subsymbols.empty())
      out.push_back(kTL013.diagnostic(ctx.parsed.orphan_subsymbols.front().span,
                                      "subsymbol lines without the trace they belong to"));
  }

  std::map<const Trace *, Leading> leading_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<FragmentCheck>();
}
} // namespace

} // namespace tracelint
