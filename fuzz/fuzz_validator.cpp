// The validator on arbitrary bytes: it must report, never crash or hang.
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  tracelint::FileReport report = tracelint::check_source("fuzz.py", text, tracelint::Options{});
  for (const tracelint::Diagnostic &d : report.diagnostics)
    if (d.span.end > text.size() || d.span.begin > d.span.end)
      __builtin_trap(); // a span outside the text
  (void)tracelint::render({report}, tracelint::Format::Text);
  (void)tracelint::render({report}, tracelint::Format::Sarif);
  return 0;
}
