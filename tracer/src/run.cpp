#include "tracelint/tracer/run.hpp"

#include "tracelint/core/value.hpp"

#include <unistd.h>

#include <cstdio>

namespace tracelint::tracer {

std::string RunReport::summary() const {
  auto line = [](const std::string &what, const Comparison &c, const char *reference) {
    return what +
           (c.equal ? std::string("matches ") + reference
                    : std::string("DIFFERS from ") + reference + ": " + c.mismatch) +
           " (max abs diff " + python_float(c.max_abs_diff) + ", max rel diff " +
           python_float(c.max_rel_diff) + ")\n";
  };
  const char *forward = gradients.empty() ? "computation" : "augmented forward";
  std::string out =
      (notice.empty() ? "" : notice + "\n") + "ran on " + device + "\n" +
      // Which reference: eager is not PyTorch's own run of the source (issue 33).
      "reference: eager is tracelint's interpreter running the source on libtorch" +
      (gradients.empty() ? "" : ", autograd is libtorch's on that run") +
      "; CPython's PyTorch: --save-io DIR, then tracer/oracle/cpython_oracle.py DIR\n" +
      (fusion.empty() ? "" : fusion + "\n") +
      line(std::string(forward) + " trace (as traced): ", from_model, "eager") +
      line(std::string(forward) + " trace (printed, parsed back): ", from_printed, "eager");
  for (const GradientComparison &g : gradients) {
    out += line("gradient of " + g.input + " (backward as traced): ", g.from_model, "autograd");
    out += line("gradient of " + g.input + " (backward printed, parsed back): ", g.from_printed,
                "autograd");
  }
  return out;
}

uint64_t default_max_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0; // unknown: no limit
  return static_cast<uint64_t>(pages) / 2 * static_cast<uint64_t>(page);
}

std::string format_bytes(uint64_t bytes) {
  static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::optional<Error> run_memory_error(const TracedProgram &program, uint64_t limit,
                                      const std::string &limit_name) {
  RunMemoryEstimate m = run_memory(program);
  if (limit == 0 || m.total() <= limit) return std::nullopt;
  return Error{"running the traces would need about " + format_bytes(m.total()) + " (inputs " +
                   format_bytes(m.inputs) + ", and up to " + format_bytes(m.intermediates) +
                   " more at once), over the limit of " + format_bytes(limit) + " (" + limit_name +
                   "): use smaller shapes, or raise " + limit_name,
               "", 0, 0};
}

} // namespace tracelint::tracer
