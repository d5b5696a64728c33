// libtracelint_torch.so: what `tracelint trace --run` and `tracelint run` load, so that the
// other commands start without loading libtorch.
#include "tracelint/tracer/execute.hpp"
#include "tracelint/tracer/interpreter.hpp"

extern "C" void tracelint_torch_run_and_compare(
    const tracelint::tracer::TraceRequest &request, const tracelint::tracer::TracedProgram &program,
    const tracelint::tracer::RunOptions &options,
    std::optional<tracelint::Result<tracelint::tracer::RunReport>> &out) {
  out = tracelint::tracer::run_and_compare(request, program, options);
}

extern "C" void
tracelint_torch_make_value_backend(uint64_t seed,
                                   std::unique_ptr<tracelint::tracer::Backend> &out) {
  out = tracelint::tracer::make_value_backend(seed);
}

// The entry points must match the types the loader casts them to.
static_assert(std::is_same_v<decltype(&tracelint_torch_run_and_compare),
                             tracelint::tracer::RunAndCompareEntry>);
static_assert(std::is_same_v<decltype(&tracelint_torch_make_value_backend),
                             tracelint::tracer::ValueBackendEntry>);
