#include "tracelint/tracer/nvrtc.hpp"

#include <dlfcn.h>

#include <functional>
#include <vector>

#if TRACELINT_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace tracelint::tracer {

bool have_nvrtc() {
#if TRACELINT_HAVE_NVRTC
  return true;
#else
  return false;
#endif
}

std::string target_architecture(bool &gpu) {
  gpu = false;
  // The driver API by dlopen, as libtorch is loaded: a machine without a GPU has no libcuda.
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver) {
    using Init = int (*)(unsigned);
    using Count = int (*)(int *);
    using Attribute = int (*)(int *, int, int);
    auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
    auto count = reinterpret_cast<Count>(dlsym(driver, "cuDeviceGetCount"));
    auto attribute = reinterpret_cast<Attribute>(dlsym(driver, "cuDeviceGetAttribute"));
    int devices = 0, major = 0, minor = 0;
    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76 (cuda.h).
    if (init && count && attribute && init(0) == 0 && count(&devices) == 0 && devices > 0 &&
        attribute(&major, 75, 0) == 0 && attribute(&minor, 76, 0) == 0) {
      gpu = true;
      return "compute_" + std::to_string(major) + std::to_string(minor);
    }
  }
  return "compute_90";
}

Result<Ptx> compile_kernel(const std::string &name, const std::string &source,
                           const std::string &architecture) {
#if TRACELINT_HAVE_NVRTC
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return Error{"NVRTC could not take the kernel " + name, "", 0, 0};
  std::string arch = "--gpu-architecture=" + architecture;
  std::string include = std::string("--include-path=") + TRACELINT_CUDA_INCLUDE;
  std::vector<const char *> options = {arch.c_str(), include.c_str(), "--std=c++17"};
  nvrtcResult compiled =
      nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::string log(log_size, '\0');
  if (log_size) nvrtcGetProgramLog(program, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
    log.pop_back();
  if (compiled != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&program);
    return Error{"NVRTC: " + name + " does not compile for " + architecture + ": " +
                     nvrtcGetErrorString(compiled) + (log.empty() ? "" : "\n" + log),
                 "", 0, 0};
  }
  std::size_t ptx_size = 0;
  nvrtcGetPTXSize(program, &ptx_size);
  Ptx out{architecture, std::string(ptx_size, '\0')};
  nvrtcGetPTX(program, out.ptx.data());
  nvrtcDestroyProgram(&program);
  while (!out.ptx.empty() && out.ptx.back() == '\0')
    out.ptx.pop_back();
  return out;
#else
  (void)source;
  (void)architecture;
  return Error{"cannot compile " + name +
                   ": this build has no NVRTC (the CUDA Toolkit was not found when it was "
                   "configured; it looks in /usr/local/cuda, or set CUDAToolkit_ROOT)",
               "", 0, 0};
#endif
}

Result<Ptx> KernelCache::get(const std::string &name, const std::string &source) {
  std::size_t hash = std::hash<std::string>{}(source);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = by_hash_.find(hash);
    if (found != by_hash_.end()) {
      ++hits_;
      return found->second;
    }
  }
  Result<Ptx> ptx = compile_kernel(name, source, architecture_);
  if (!ptx) return ptx;
  std::lock_guard<std::mutex> lock(mutex_);
  by_hash_.emplace(hash, ptx.value());
  ++compiled_;
  return ptx;
}

} // namespace tracelint::tracer
