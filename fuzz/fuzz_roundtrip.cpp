// The printer and the parser are each other's inverse on generated traces: the input's bytes
// are the generator's choices, so coverage guides the generator toward new kinds of trace.
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"

#include "../tests/trace_generator.hpp"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  test::TraceGenerator gen(data, size);
  tracelint::Trace trace = gen.trace();
  std::string printed = tracelint::print_trace(trace);
  tracelint::Result<tracelint::TraceFile> parsed = tracelint::parse_trace(printed);
  if (!parsed || parsed->traces.size() != 1 || !(parsed->traces[0] == trace) ||
      tracelint::print_trace_file(*parsed) != printed)
    __builtin_trap();
  return 0;
}
