#include "tracelint/core/diagnostic.hpp"

#include <algorithm>

namespace tracelint {

std::string_view severity_name(Severity s) {
  switch (s) {
  case Severity::Info:
    return "info";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view name) {
  if (name == "info") return Severity::Info;
  if (name == "warning") return Severity::Warning;
  if (name == "error") return Severity::Error;
  return std::nullopt;
}

FixedText apply_fixes_mapped(const std::string &text, const std::vector<const Fix *> &fixes) {
  struct Pending {
    const Fix *fix;
    std::size_t begin;
  };
  std::vector<Pending> order;
  for (const Fix *f : fixes) {
    if (f->edits.empty()) continue;
    std::size_t begin = f->edits.front().begin;
    for (const Edit &e : f->edits)
      begin = std::min(begin, e.begin);
    order.push_back({f, begin});
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Pending &a, const Pending &b) { return a.begin < b.begin; });
  FixedText out;
  out.text.reserve(text.size());
  std::size_t at = 0; // the original is copied up to here
  bool any = false;
  for (const Pending &p : order) {
    std::vector<Edit> edits = p.fix->edits;
    std::sort(edits.begin(), edits.end(),
              [](const Edit &a, const Edit &b) { return a.begin < b.begin; });
    // Edits of a fix must not overlap those of the fixes already taken, nor each other, nor
    // reach past the text.
    bool usable = edits.back().end <= text.size() && (!any || edits.front().begin >= at);
    for (std::size_t i = 0; usable && i < edits.size(); ++i)
      usable = edits[i].begin <= edits[i].end && (i == 0 || edits[i].begin >= edits[i - 1].end);
    if (!usable) continue;
    AppliedFix applied{p.fix, edits.front().begin, edits.back().end, 0, 0};
    for (std::size_t i = 0; i < edits.size(); ++i) {
      const Edit &e = edits[i];
      out.text.append(text, at, e.begin - at);
      if (i == 0) applied.fixed_begin = out.text.size();
      out.text += e.replacement;
      at = e.end;
    }
    applied.fixed_end = out.text.size();
    out.applied.push_back(applied);
    any = true;
  }
  out.text.append(text, at, std::string::npos);
  return out;
}

std::pair<std::string, std::size_t> apply_fixes(const std::string &text,
                                                const std::vector<const Fix *> &fixes) {
  FixedText fixed = apply_fixes_mapped(text, fixes);
  return {std::move(fixed.text), fixed.applied.size()};
}

} // namespace tracelint
