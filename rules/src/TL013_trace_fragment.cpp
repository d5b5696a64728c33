#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
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
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const Trace &t : ctx.parsed.file.traces) {
    if (t.kind != Trace::Kind::Fragment)
      continue;
    for (const Statement &s : t.body)
      if (s.kind != Statement::Kind::Blank && s.kind != Statement::Kind::Comment) {
        out.push_back(kTL013.diagnostic(
            s.span, std::string("a fragment of a trace: no def binds its inputs") +
                        (ctx.parsed.fragment_was_indented ? " (and its lines are indented)" : "")));
        break;
      }
  }
  if (ctx.parsed.file.traces.empty() && !ctx.parsed.orphan_subsymbols.empty())
    out.push_back(kTL013.diagnostic(ctx.parsed.orphan_subsymbols.front().span,
                                    "subsymbol lines without the trace they belong to"));
}
} // namespace

} // namespace tracelint
