// The tracer frontend on arbitrary Python: never a crash, a hang or a sanitizer report; an
// error is a clear Error with a position; and every trace it emits (the grad transform's
// augmented forward and backward too) prints, parses back to the same model, and passes the
// validator without errors. What it traces is executed by tests/test_fuzz_replay.cpp, which
// replays this target's corpus against eager with libtorch (not built with its sanitizers).
#include "tracer_inputs.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/tracer.hpp"
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <string>

using namespace tracelint;
using namespace tracelint::tracer;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::optional<TraceRequest> request =
      fuzzing::request_for(std::string(reinterpret_cast<const char *>(data), size));
  if (!request) return 0;
  Result<TracedProgram> program = trace(*request);
  if (!program) {
    if (program.error().message.empty()) __builtin_trap();
    return 0;
  }
  std::string printed = print_trace_file(program->file);
  Result<TraceFile> back = parse_trace(printed);
  if (!back || !(back.value() == program->file)) __builtin_trap();
  FileReport report = check_source("traced.py", printed, Options{});
  if (report.has_at_least(Severity::Error)) __builtin_trap();
  return 0;
}
