#pragma once
// How many findings of each severity a report holds: the summaries of the text, JSON and HTML
// formats and the HTML report's index.
#include "tracelint/validator/validator.hpp"

#include <cstddef>
#include <vector>

namespace tracelint {

struct Counts {
  std::size_t errors = 0, warnings = 0, infos = 0, files_with_findings = 0, unreadable = 0;
  std::size_t total() const { return errors + warnings + infos; }

  void add(const FileReport &r) {
    if (r.error) ++unreadable;
    if (!r.diagnostics.empty()) ++files_with_findings;
    for (const Diagnostic &d : r.diagnostics)
      (d.severity == Severity::Error     ? errors
       : d.severity == Severity::Warning ? warnings
                                         : infos)++;
  }
};

inline Counts count(const FileReport &r) {
  Counts c;
  c.add(r);
  return c;
}

inline Counts count(const std::vector<FileReport> &reports) {
  Counts c;
  for (const FileReport &r : reports)
    c.add(r);
  return c;
}

} // namespace tracelint
