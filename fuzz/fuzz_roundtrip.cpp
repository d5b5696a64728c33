// The printer and the parser are each other's inverse on generated traces.
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"

#include "../tests/trace_generator.hpp"

#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t seed = 0;
  std::memcpy(&seed, data, std::min<size_t>(size, sizeof seed));
  for (size_t i = sizeof seed; i < size; ++i)
    seed = seed * 31 + data[i];
  test::TraceGenerator gen(seed);
  tracelint::Trace trace = gen.trace();
  std::string printed = tracelint::print_trace(trace);
  tracelint::Result<tracelint::TraceFile> parsed = tracelint::parse_trace(printed);
  if (!parsed || parsed->traces.size() != 1 || !(parsed->traces[0] == trace) ||
      tracelint::print_trace_file(*parsed) != printed)
    __builtin_trap();
  return 0;
}
