#pragma once
// The fusion regions' CUDA kernels built for the host, for tests on machines without a GPU: the
// same kernel source (with the few CUDA built-ins it uses given host definitions) compiled by
// the host compiler into a shared library, each kernel launched as a loop over its threads with
// the launch the GPU runner makes (plan_launch, KernelArguments). What this checks is the
// kernels' code and their launches against libtorch; what only a GPU can check (the driver
// calls, device memory) it does not.
#include "tracelint/tracer/regions.hpp"

#include <map>
#include <string>
#include <vector>

namespace test {

class HostKernels : public tracelint::tracer::RegionRunner {
public:
  // Compiles every region's kernel into one library in `directory` (created): an Error with
  // the compiler's output when it fails.
  static tracelint::Result<std::unique_ptr<HostKernels>>
  build(const std::vector<tracelint::tracer::FusionRegion> &regions, const std::string &directory);
  ~HostKernels() override;
  bool runs(const std::string &region) const override;
  tracelint::Result<std::vector<at::Tensor>>
  run(const std::string &region,
      const std::vector<const tracelint::tracer::RtValue *> &inputs) const override;
  std::size_t launches() const { return launches_; }

private:
  HostKernels() = default;
  using Launch = void (*)(void **arguments, long long threads);
  void *library_ = nullptr;
  std::map<std::string, std::pair<tracelint::tracer::FusionRegion, Launch>> kernels_;
  mutable std::size_t launches_ = 0;
};

} // namespace test
