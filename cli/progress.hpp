#pragma once
// The progress of a long `trace` or `run` on standard error: one line, rewritten in place, only
// on a terminal, so logs and pipes get none of it.
#include "tracelint/tracer/progress.hpp"

#include <chrono>
#include <string>

namespace tracelint::cli {

class ProgressLine {
public:
  // Shows nothing unless standard error is a terminal (and TERM is not "dumb").
  ProgressLine();
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  bool shown() const { return enabled_; }
  // The callback for TraceRequest::progress (empty when nothing is shown).
  tracer::ProgressFn callback();
  void update(const tracer::ProgressEvent &event);
  // Erases the line: call before writing anything else to standard error.
  void clear();

private:
  bool enabled_ = false;
  bool drawn_ = false;
  std::string phase_;
  std::chrono::steady_clock::time_point phase_start_, last_draw_;
};

// "tracing GPT.forward: 120 symbols", "running the trace: 120/480 (3 s)", cut to `width`
// columns (a wrapped line could not be rewritten in place).
std::string progress_text(const tracer::ProgressEvent &event, double seconds_in_phase,
                          std::size_t width);

} // namespace tracelint::cli
