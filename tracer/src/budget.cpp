// The interpreter's budget: the steps a run may take and the bytes of Python values it may make.
#include "tracelint/tracer/budget.hpp"

#include <algorithm>
#include <string>

namespace tracelint::tracer {

void Budget::charge(int64_t work, const Loc &loc) {
  steps_ += work;
  if (steps_ > limits_.max_steps)
    throw TraceError(loc, "the program runs more than " + std::to_string(limits_.max_steps) +
                              " steps; the tracer stops here");
}

namespace {

TraceError python_memory_error(const Loc &loc, const std::string &size, uint64_t limit) {
  return TraceError(loc, "this makes a value of " + size +
                             ", past the limit on the Python values a traced program makes (" +
                             std::to_string(limit >> 20) +
                             " MiB in all; --max-python-memory raises it)");
}

} // namespace

void Budget::make_room(uint64_t bytes, const Loc &loc) {
  uint64_t limit = limits_.max_python_memory;
  if (bytes > limit - std::min(made_bytes_, limit))
    throw python_memory_error(loc, std::to_string(bytes) + " bytes", limit);
  made_bytes_ += bytes;
  charge(static_cast<int64_t>(bytes / 64), loc);
}

void Budget::make_room(uint64_t count, uint64_t each, const Loc &loc) {
  if (each && count > limits_.max_python_memory / each)
    throw python_memory_error(
        loc, std::to_string(count) + " parts of " + std::to_string(each) + " bytes",
        limits_.max_python_memory);
  make_room(count * each, loc);
}

} // namespace tracelint::tracer
