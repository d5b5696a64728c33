#pragma once
// The cuda_fusion executor's pass (Thunder's fusion executors, nvfuserex_impl.py): after dead
// code elimination, each maximal run of elementwise prims of one shape (broadcasts of inputs
// into it included) becomes a fusion region, printed as a call of its name with the prims as
// subsymbols, followed by the `del` of what dies there; and each region gets its CUDA kernel.
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/tracer.hpp"

#include "tracelint/tracer/symbols.hpp"

#include <string>
#include <vector>

namespace tracelint::tracer {

// An elementwise prim's CUDA C++ expression in a fused kernel, {0}, {1}, ... standing for its
// operands (variables or literals of their compute types: float for f16, bf16 and f32; the
// result is converted to the output's type); nullptr: it does not fuse (fusion_spellings.cpp).
const char *cuda_spelling(Sym sym);
// A spelling given to a prim that is not elementwise (op_registry_problems reports them).
std::vector<std::string> fusible_problems();

// The executors a request may name, in order: Error for an unknown one.
Result<bool> wants_cuda_fusion(const std::vector<std::string> &executors);

// Flattens `trace` to prims and groups its fusible runs; `next` numbers the regions across the
// program's traces (cudaFusion0, cudaFusion1, ...). `earlier`: the traces whose names it also
// reads (a backward's saved tensors are annotated in the forward).
void fuse_regions(Trace &trace, int &next, std::vector<FusionRegion> &regions,
                  const std::vector<const Trace *> &earlier = {});

} // namespace tracelint::tracer
