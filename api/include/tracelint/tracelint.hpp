#pragma once
// tracelint's stable library interface: check a trace's text, look at or render the findings.
//
//   tracelint::Report r = tracelint::check(str(trace));
//   if (!r.ok()) std::cerr << r.render();
//
// Link with find_package(tracelint) and target_link_libraries(app PRIVATE tracelint::tracelint).
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

class Report {
public:
  explicit Report(FileReport file, Severity fail_on = Severity::Error)
      : file_(std::move(file)), fail_on_(fail_on) {}

  // No diagnostic at or above the fail-on severity (errors, unless configured otherwise).
  bool ok() const { return !file_.error && !file_.has_at_least(fail_on_); }
  std::vector<Diagnostic>::const_iterator begin() const { return file_.diagnostics.begin(); }
  std::vector<Diagnostic>::const_iterator end() const { return file_.diagnostics.end(); }
  std::size_t size() const { return file_.diagnostics.size(); }
  bool empty() const { return file_.diagnostics.empty(); }
  const FileReport &file() const { return file_; }
  // Text (with source excerpts and carets), JSON, SARIF, JUnit or GitHub annotations.
  std::string render(Format format = Format::Text) const;

private:
  FileReport file_;
  Severity fail_on_;
};

// Checks one trace. Thread-safe. `path` names the trace in diagnostics.
Report check(std::string_view source, const Options &options = {},
             std::string_view path = "<trace>");

} // namespace tracelint
