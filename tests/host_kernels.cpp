#include "host_kernels.hpp"

#include "support.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace test {

namespace {

// CUDA's built-ins the kernels use, on the host: thread indices, the half and bfloat16 types
// with their conversions (round to nearest even, as cuda_fp16.h and cuda_bf16.h do), and the
// math functions by the names CUDA gives them (float overloads come from <cmath> by `using`).
constexpr const char *kPrelude = R"(#include <cmath>
#include <cstdint>
#include <cstring>
using namespace std;
struct HostDim3 { unsigned x = 0, y = 1, z = 1; };
static thread_local HostDim3 blockIdx, blockDim, threadIdx;
#define __global__
typedef _Float16 __half;
static inline float __half2float(__half h) { return (float)h; }
static inline __half __float2half(float f) { return (__half)f; }
struct __nv_bfloat16 { uint16_t bits; };
static inline float __bfloat162float(__nv_bfloat16 b) {
  uint32_t u = (uint32_t)b.bits << 16; float f; memcpy(&f, &u, 4); return f;
}
static inline __nv_bfloat16 __float2bfloat16(float f) {
  uint32_t u; memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return __nv_bfloat16{(uint16_t)((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);
  return __nv_bfloat16{(uint16_t)(u >> 16)};
}
static inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, 8); return d; }
static inline float rsqrt(float x) { return 1.0f / sqrt(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
)";

} // namespace

tracelint::Result<std::unique_ptr<HostKernels>>
HostKernels::build(const std::vector<tracelint::tracer::FusionRegion> &regions,
                   const std::string &directory) {
  std::filesystem::create_directories(directory);
  std::string source = kPrelude;
  for (const tracelint::tracer::FusionRegion &r : regions) {
    // The kernel as NVRTC gets it, less its CUDA headers (the prelude stands in for them).
    std::istringstream lines(r.cuda_source);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("#include <cuda_", 0) != 0) source += line + "\n";
    // Its launch: the grid's threads one after another, each with the kernel's arguments.
    source += "extern \"C\" void launch_" + r.name + "(void **a, long long threads) {\n";
    source += "  blockDim.x = 256;\n  for (long long t = 0; t < threads; ++t) {\n";
    source += "    blockIdx.x = (unsigned)(t / 256);\n    threadIdx.x = (unsigned)(t % 256);\n";
    source += "    " + r.name + "(";
    for (std::size_t k = 0; k < r.params.size(); ++k)
      source += (k ? ", *(" : "*(") + r.params[k].c_type + " *)a[" + std::to_string(k) + "]";
    source += ");\n  }\n}\n";
  }
  std::string cpp = directory + "/kernels.cpp", so = directory + "/kernels.so";
  {
    std::ofstream out(cpp);
    out << source;
  }
  std::string log = directory + "/compile.log";
  std::string command = std::string(TRACELINT_HOST_CXX) + " -std=c++17 -O1 -shared -fPIC -w -o " +
                        shell_quote(so) + " " + shell_quote(cpp) + " > " + shell_quote(log) +
                        " 2>&1";
  if (std::system(command.c_str()) != 0)
    return tracelint::Error{"the host build of the kernels failed:\n" + read_file(log), cpp, 0, 0};
  std::unique_ptr<HostKernels> kernels(new HostKernels());
  kernels->library_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!kernels->library_) return tracelint::Error{std::string("dlopen: ") + dlerror(), so, 0, 0};
  for (const tracelint::tracer::FusionRegion &r : regions) {
    auto launch = reinterpret_cast<Launch>(dlsym(kernels->library_, ("launch_" + r.name).c_str()));
    if (!launch) return tracelint::Error{"no launch_" + r.name, so, 0, 0};
    kernels->kernels_.emplace(r.name, std::make_pair(r, launch));
  }
  return kernels;
}

HostKernels::~HostKernels() {
  if (library_) dlclose(library_);
}

bool HostKernels::runs(const std::string &region) const {
  return kernels_.count(region) != 0;
}

tracelint::Result<std::vector<at::Tensor>>
HostKernels::run(const std::string &region,
                 const std::vector<const tracelint::tracer::RtValue *> &inputs) const {
  const auto &[info, launch] = kernels_.at(region);
  // The tensors are read in place, through their own strides (a transposed view included).
  tracelint::Result<tracelint::tracer::KernelLaunch> plan =
      tracelint::tracer::plan_launch(info, inputs);
  if (!plan) return plan.error();
  std::vector<uint64_t> views, outputs;
  for (const at::Tensor &t : plan->views)
    views.push_back(reinterpret_cast<uint64_t>(t.data_ptr()));
  std::vector<at::Tensor> made;
  for (at::ScalarType type : plan->outputs) {
    made.push_back(at::empty(plan->shape, at::TensorOptions().dtype(type)));
    outputs.push_back(reinterpret_cast<uint64_t>(made.back().data_ptr()));
  }
  tracelint::tracer::KernelArguments arguments(info, views, outputs, plan->numbers,
                                               reinterpret_cast<uint64_t>(plan->meta.data()));
  launch(arguments.get(), plan->elements);
  ++launches_;
  return made;
}

} // namespace test
