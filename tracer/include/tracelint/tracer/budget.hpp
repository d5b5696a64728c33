#pragma once
// The interpreter's budget: the work a run may do and the bytes of Python values it may make,
// both counted as it goes. A statement, a loop iteration or an operation on a value is charged
// here; past a limit, the run ends with a TraceError.
#include "tracelint/tracer/frontend.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <cstdint>

namespace tracelint::tracer {

struct InterpreterLimits {
  int max_depth = 200; // Python calls nested (recursion is not traced)
  // Work, all calls together: a statement or loop iteration is one step; an operation on a
  // value costs by its size (an item compared, copied or hashed, 64 characters), so that the
  // limit bounds time, not only statements.
  int64_t max_steps = 2'000'000;
  // Bytes of the strings, lists, tuples and dicts the program makes, summed over the run: what
  // is made, not what is still held, so a bound on what it can hold. Checked before a value is
  // made, so a format width of 10**9 is refused instead of allocated.
  uint64_t max_python_memory = kDefaultMaxPythonMemory;
  // Bytes of a module file an import reads (TraceRequest::max_file_size).
  uint64_t max_module_bytes = uint64_t{64} << 20;
};

class Budget {
public:
  explicit Budget(InterpreterLimits limits) : limits_(limits) {}
  const InterpreterLimits &limits() const { return limits_; }
  void step(const Loc &loc) { charge(1, loc); }
  void charge(int64_t work, const Loc &loc);
  // A value of `bytes` (a string's characters, a collection's items at 16 bytes each) is about
  // to be made: a TraceError at loc when it takes the run past max_python_memory; else counted
  // and charged as work (one step per 64 bytes).
  void make_room(uint64_t bytes, const Loc &loc);
  // make_room for `count` parts of `each` bytes (a repeat, a padding), without overflowing.
  void make_room(uint64_t count, uint64_t each, const Loc &loc);

private:
  InterpreterLimits limits_;
  int64_t steps_ = 0;
  uint64_t made_bytes_ = 0; // see InterpreterLimits::max_python_memory
};

} // namespace tracelint::tracer
