#include "tracelint/tracer/run.hpp"

#include "tracelint/core/value.hpp"

#include <unistd.h>

#include <cstdio>

namespace tracelint::tracer {

namespace {

std::string comparison_line(const std::string &what, const Comparison &c, const char *reference) {
  return what +
         (c.equal ? std::string("matches ") + reference
                  : std::string("DIFFERS from ") + reference + ": " + c.mismatch) +
         " (max abs diff " + python_float(c.max_abs_diff) + ", max rel diff " +
         python_float(c.max_rel_diff) + ")\n";
}

// Every comparison of a run, named as the result line names the worst one.
struct Named {
  std::string what;
  const Comparison *comparison;
};

std::vector<Named> all_comparisons(const RunReport &r) {
  std::vector<Named> out = {{"the output", &r.from_model}, {"the output", &r.from_printed}};
  out[0].what += r.from_model.worst_at + " (as traced)";
  out[1].what += r.from_printed.worst_at + " (printed, parsed back)";
  for (const GradientComparison &g : r.gradients) {
    out.push_back({"the gradient of " + g.input + " (backward as traced)", &g.from_model});
    out.push_back(
        {"the gradient of " + g.input + " (backward printed, parsed back)", &g.from_printed});
  }
  return out;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s < 10 ? "%.2f s" : "%.1f s", s);
  return text;
}

// One line over everything compared: whether all match, and the largest differences and where.
std::string result_line(const RunReport &r) {
  std::vector<Named> all = all_comparisons(r);
  std::size_t differ = 0;
  const Named *worst_abs = &all[0], *worst_rel = &all[0];
  for (const Named &n : all) {
    differ += n.comparison->equal ? 0 : 1;
    if (n.comparison->max_abs_diff > worst_abs->comparison->max_abs_diff) worst_abs = &n;
    if (n.comparison->max_rel_diff > worst_rel->comparison->max_rel_diff) worst_rel = &n;
  }
  std::string compared = r.gradients.empty()
                             ? "the output, as traced and printed, parsed back"
                             : "the output and " + std::to_string(r.gradients.size()) +
                                   " gradient" + (r.gradients.size() == 1 ? "" : "s") +
                                   ", each as traced and printed, parsed back";
  std::string out =
      differ == 0
          ? "result: all " + std::to_string(all.size()) + " comparisons match (" + compared + ")"
          : "result: " + std::to_string(differ) + " of " + std::to_string(all.size()) +
                " comparisons DIFFER (" + compared + "; each is listed above)";
  return out + "; max abs diff " + python_float(worst_abs->comparison->max_abs_diff) + " (" +
         worst_abs->what + "), max rel diff " + python_float(worst_rel->comparison->max_rel_diff) +
         " (" + worst_rel->what + ")\n";
}

} // namespace

std::string RunReport::summary(bool verbose) const {
  const char *forward = gradients.empty() ? "computation" : "augmented forward";
  std::string out =
      (notice.empty() ? "" : notice + "\n") + "ran on " + device + "\n" +
      // Which reference: eager is not PyTorch's own run of the source (issue 33).
      "reference: eager is tracelint's interpreter running the source on libtorch" +
      (gradients.empty() ? "" : ", autograd is libtorch's on that run") +
      "; CPython's PyTorch: --save-io DIR, then tracer/oracle/cpython_oracle.py DIR\n" +
      (fusion.empty() ? "" : fusion + "\n") +
      comparison_line(std::string(forward) + " trace (as traced): ", from_model, "eager") +
      comparison_line(std::string(forward) + " trace (printed, parsed back): ", from_printed,
                      "eager");
  // One line per gradient only where asked, or where it differs: a model has hundreds.
  for (const GradientComparison &g : gradients) {
    if (verbose || !g.from_model.equal)
      out += comparison_line("gradient of " + g.input + " (backward as traced): ", g.from_model,
                             "autograd");
    if (verbose || !g.from_printed.equal)
      out += comparison_line("gradient of " + g.input + " (backward printed, parsed back): ",
                             g.from_printed, "autograd");
  }
  out += result_line(*this);
  if (!timings.empty()) {
    out += "time:";
    for (std::size_t i = 0; i < timings.size(); ++i)
      out += (i ? ", " : " ") + timings[i].phase + " " + seconds(timings[i].seconds);
    out += "\n";
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
