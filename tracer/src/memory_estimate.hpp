#pragma once
// What running a trace (`trace --run`, `run`) will hold at its peak, estimated from the shapes
// the tracer recorded, so that a run too large for the machine is refused before it allocates.
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/object.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace tracelint::tracer {

// Bytes of a tensor's data; UINT64_MAX where that overflows.
uint64_t tensor_bytes(const Obj &tensor);

// The estimate for a computation trace whose tensors (inputs and recorded outputs) have the
// given sizes, by name: each tensor lives from the statement that makes it to its last reader,
// as the executor frees it (and eager Python frees a temporary); the inputs live throughout.
// The module state the computation takes counts as inputs too.
RunMemoryEstimate estimate_run_memory(const Trace &computation,
                                      const std::unordered_map<std::string, uint64_t> &bytes,
                                      const std::vector<InputSpec> &inputs,
                                      const std::vector<StateTensor> &state = {});

} // namespace tracelint::tracer
