// The validator on arbitrary bytes: it must report, never crash or hang; and --fix, planned as
// the CLI plans it, is idempotent: fixing what it fixed changes nothing more (every fixable
// finding left is one whose fix the plan refused as unsafe).
#include "fix_files.hpp" // cli/

#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <string>

namespace {

tracelint::cli::FixPlan plan(const tracelint::FileReport &report) {
  tracelint::cli::Recheck recheck{[](const std::string &text, bool) {
                                    return tracelint::check_source("fuzz.py", text,
                                                                   tracelint::Options{});
                                  },
                                  true};
  return tracelint::cli::plan_fixes(report, recheck);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  tracelint::FileReport report = tracelint::check_source("fuzz.py", text, tracelint::Options{});
  for (const tracelint::Diagnostic &d : report.diagnostics)
    if (d.span.end > text.size() || d.span.begin > d.span.end)
      __builtin_trap(); // a span outside the text
  (void)tracelint::render({report}, tracelint::Format::Text);
  (void)tracelint::render({report}, tracelint::Format::Sarif);
  tracelint::cli::FixPlan fixed = plan(report);
  if (fixed.applied == 0) return 0;
  tracelint::FileReport after =
      fixed.report ? *fixed.report
                   : tracelint::check_source("fuzz.py", fixed.text, tracelint::Options{});
  if (plan(after).text != fixed.text) __builtin_trap(); // a second --fix changed the fixed file
  return 0;
}
