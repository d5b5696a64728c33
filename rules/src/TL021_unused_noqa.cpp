#include "tracelint/rules/rule.hpp"

#include <algorithm>
#include <set>

namespace tracelint {

namespace {
void check(const NoqaContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL021{
    "TL021",
    "unused-noqa",
    Severity::Warning,
    "A `# noqa` comment silences nothing on its line.",
    "What it does: finds `# noqa` comments, and the tracelint codes in `# noqa: TL003, TL005`, "
    "that silence no finding on their line: the code does not fire there (any more), its rule "
    "is not enabled, or it is named twice. A bare `# noqa` on a line without findings is "
    "reported too; other tools' codes (E501, BLE001) are left alone. Why it matters: a noqa "
    "comment outlives the finding it was written for; when the printer is fixed or the line "
    "moves, a stale comment silently hides the next, different finding on that line. As ruff's "
    "RUF100. Example: `t0 = ltorch.neg(a)  # noqa: TL003` where `a` is defined. Use instead: "
    "remove the comment or the stale code (`--fix` does); `--add-noqa` adds the codes that do "
    "fire.",
    "def computation(a):\n  t0 = ltorch.neg(a)  # noqa: TL003\n  return t0\n",
    "def computation(a):\n  t0 = ltorch.neg(nowhere)  # noqa: TL003\n  return t0\n",
    nullptr,
    nullptr,
    check};

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}

// The edit that leaves only the kept codes in the comment: the code list rewritten, or, when
// nothing is kept, the whole comment removed with the blanks before it (a comment with text
// after its codes keeps that text: `# noqa: TL003 reason` becomes `# reason`).
Edit remove_unused(const SourceText &source, const NoqaComment &comment,
                   const std::vector<std::string> &kept) {
  const std::string &text = source.text();
  if (!kept.empty()) {
    std::string list;
    for (const std::string &code : kept)
      list += (list.empty() ? "" : ", ") + code;
    return Edit{comment.list_begin, comment.list_end, list};
  }
  std::size_t line_end = source.line_start(comment.line) + source.line(comment.line).size();
  bool rest_blank = std::all_of(text.begin() + static_cast<std::ptrdiff_t>(comment.end),
                                text.begin() + static_cast<std::ptrdiff_t>(line_end), is_space);
  if (!rest_blank) return Edit{comment.begin, comment.end, "#"};
  std::size_t begin = comment.begin;
  while (begin > source.line_start(comment.line) && is_space(text[begin - 1]))
    --begin;
  return Edit{begin, line_end, ""};
}

void check(const NoqaContext &ctx, std::vector<Diagnostic> &out) {
  for (const NoqaComment &comment : ctx.comments) {
    std::set<std::string> fired;
    for (const Diagnostic &d : ctx.findings)
      if (d.span.line == comment.line) fired.insert(d.code);
    Span where = ctx.source.span(comment.begin, comment.end);
    if (comment.codes.empty()) {
      if (!fired.empty()) continue;
      Diagnostic d =
          kTL021.diagnostic(where, "`# noqa` silences nothing: this line has no finding");
      d.fix = Fix{"remove the comment", {remove_unused(ctx.source, comment, {})}};
      out.push_back(std::move(d));
      continue;
    }
    std::vector<std::string> kept, unused;
    std::vector<std::string> why;
    for (const NoqaCode &code : comment.codes) {
      bool ours = code.code.rfind("TL", 0) == 0;
      bool again = std::find(kept.begin(), kept.end(), code.code) != kept.end();
      if (!ours || (fired.count(code.code) && !again)) {
        if (!again) kept.push_back(code.code);
        continue;
      }
      unused.push_back(code.code);
      why.push_back(again                     ? "named twice"
                    : !ctx.enabled(code.code) ? "its rule is not enabled"
                                              : "no " + code.code + " finding on this line");
    }
    if (unused.empty()) continue;
    std::string message = "`# noqa` names what it does not silence: ";
    for (std::size_t i = 0; i < unused.size(); ++i)
      message += (i ? "; " : "") + unused[i] + " (" + why[i] + ")";
    Diagnostic d = kTL021.diagnostic(where, message);
    // kept holds what is still needed: other tools' codes and those that fire here.
    d.fix = Fix{kept.empty() ? "remove the comment" : "remove the unused codes",
                {remove_unused(ctx.source, comment, kept)}};
    out.push_back(std::move(d));
  }
}

} // namespace

} // namespace tracelint
