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

std::pair<std::string, std::size_t> apply_fixes(const std::string &text,
                                                const std::vector<const Fix *> &fixes) {
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
  std::vector<Edit> accepted;
  std::size_t applied = 0;
  std::size_t covered_to = 0;
  bool any = false;
  for (const Pending &p : order) {
    std::vector<Edit> edits = p.fix->edits;
    std::sort(edits.begin(), edits.end(),
              [](const Edit &a, const Edit &b) { return a.begin < b.begin; });
    bool overlaps = false;
    std::size_t end = covered_to;
    for (const Edit &e : edits) {
      if (any && e.begin < end) overlaps = true;
      end = std::max(end, e.end);
    }
    if (overlaps || edits.back().end > text.size()) continue;
    accepted.insert(accepted.end(), edits.begin(), edits.end());
    covered_to = end;
    any = true;
    ++applied;
  }
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const Edit &e : accepted) {
    out.append(text, at, e.begin - at);
    out += e.replacement;
    at = e.end;
  }
  out.append(text, at, std::string::npos);
  return {out, applied};
}

} // namespace tracelint
