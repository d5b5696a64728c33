#include "tracelint/tracer/nvrtc.hpp"

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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = by_source_.find(source);
    if (found != by_source_.end()) {
      ++hits_;
      return found->second;
    }
  }
  Result<Ptx> ptx = compile_kernel(name, source, architecture_);
  if (!ptx) return ptx;
  std::lock_guard<std::mutex> lock(mutex_);
  by_source_.emplace(source, ptx.value());
  ++compiled_;
  return ptx;
}

} // namespace tracelint::tracer
