#pragma once
// Compiling the cuda_fusion executor's kernels with NVRTC, to PTX for the GPU of this machine
// (its compute capability, read through the CUDA driver: cuda_driver.hpp) or for compute_90
// when there is none.
#include "tracelint/core/result.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace tracelint::tracer {

// Whether this build has NVRTC (the CUDA Toolkit was found when it was configured).
bool have_nvrtc();

// What kernels are compiled for where there is no GPU (CudaDriver::architecture() where there
// is one): the H100's.
inline constexpr const char *kDefaultArchitecture = "compute_90";

struct Ptx {
  std::string architecture;
  std::string ptx;
};

// Compiles one kernel's CUDA C++ source; errors carry NVRTC's log.
Result<Ptx> compile_kernel(const std::string &name, const std::string &source,
                           const std::string &architecture);

// Kernels compiled once per source text for a run (a region repeated across traces, or a
// program run again, compiles once). Thread-safe.
class KernelCache {
public:
  explicit KernelCache(std::string architecture) : architecture_(std::move(architecture)) {}
  Result<Ptx> get(const std::string &name, const std::string &source);
  std::size_t compiled() const { return compiled_; }
  std::size_t hits() const { return hits_; }
  const std::string &architecture() const { return architecture_; }

private:
  std::string architecture_;
  std::mutex mutex_;
  // Keyed by the whole source: a hash alone could hand one kernel another's PTX.
  std::map<std::string, Ptx> by_source_;
  std::size_t compiled_ = 0, hits_ = 0;
};

} // namespace tracelint::tracer
