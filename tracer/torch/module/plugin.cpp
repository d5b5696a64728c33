// libtracelint_torch.so: what `tracelint trace --run` and `tracelint run` load, so that the
// other commands start without loading libtorch.
#include "tracelint/tracer/execute.hpp"

extern "C" void tracelint_torch_run_and_compare(
    const tracelint::tracer::TraceRequest &request, const tracelint::tracer::TracedProgram &program,
    const tracelint::tracer::RunOptions &options,
    std::optional<tracelint::Result<tracelint::tracer::RunReport>> &out) {
  out = tracelint::tracer::run_and_compare(request, program, options);
}

// The entry point must match the type the loader casts it to.
static_assert(std::is_same_v<decltype(&tracelint_torch_run_and_compare),
                             tracelint::tracer::RunAndCompareEntry>);
