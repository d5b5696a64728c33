#include "tracelint/tracer/run.hpp"

#include "tracelint/core/value.hpp"

namespace tracelint::tracer {

std::string RunReport::summary() const {
  auto line = [](const char *what, const Comparison &c) {
    return std::string(what) + (c.equal ? "matches eager" : "DIFFERS from eager: " + c.mismatch) +
           " (max abs diff " + python_float(c.max_abs_diff) + ")\n";
  };
  return (notice.empty() ? "" : notice + "\n") + "ran on " + device + "\n" +
         line("computation trace (as traced): ", from_model) +
         line("computation trace (printed, parsed back): ", from_printed);
}

} // namespace tracelint::tracer
