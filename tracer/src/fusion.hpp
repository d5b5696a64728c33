#pragma once
// The cuda_fusion executor's pass (Thunder's fusion executors, nvfuserex_impl.py): after dead
// code elimination, each maximal run of elementwise prims of one shape (broadcasts of inputs
// into it included) becomes a fusion region, printed as a call of its name with the prims as
// subsymbols, followed by the `del` of what dies there; and each region gets its CUDA kernel.
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <vector>

namespace tracelint::tracer {

// The executors a request may name, in order: Error for an unknown one.
Result<bool> wants_cuda_fusion(const std::vector<std::string> &executors);

// Flattens `trace` to prims and groups its fusible runs; `next` numbers the regions across the
// program's traces (cudaFusion0, cudaFusion1, ...). `earlier`: the traces whose names it also
// reads (a backward's saved tensors are annotated in the forward).
void fuse_regions(Trace &trace, int &next, std::vector<FusionRegion> &regions,
                  const std::vector<const Trace *> &earlier = {});

} // namespace tracelint::tracer
