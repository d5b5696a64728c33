#pragma once
// What a long trace or run is doing, for a progress display (the CLI's, on a terminal): the
// tracer and the runner say which phase they are in and how far they have got; the caller
// decides what to show and how often.
#include <cstddef>
#include <functional>
#include <string_view>

namespace tracelint::tracer {

struct ProgressEvent {
  std::string_view phase; // "constructing GPT", "running the trace"
  std::size_t done = 0;   // steps done in this phase (symbols recorded, statements run)
  std::size_t total = 0;  // of how many; 0 when not known
};
// Called often (once per symbol recorded or statement run): keep it cheap. Empty: no reports.
using ProgressFn = std::function<void(const ProgressEvent &)>;

inline void report_progress(const ProgressFn &progress, std::string_view phase,
                            std::size_t done = 0, std::size_t total = 0) {
  if (progress) progress(ProgressEvent{phase, done, total});
}

} // namespace tracelint::tracer
