// cuda_fusion benchmark: one fused trace run two ways on the same GPU, in paired rounds in the
// same process: its regions as the generated CUDA kernels (GpuRegions), and its regions as
// their prims, each prim one libtorch call by tracelint's own executor (not PyTorch eager, nor
// torch.compile: the peer is the same trace unfused). Both results are
// checked to agree before anything is timed. Without a GPU it says why and measures nothing.
// Usage: build/bench/fusion_bench [rounds]   (nanoGPT too where ../shared has it)
#include "bench_common.hpp"

#include "tracelint/tracer/cuda_driver.hpp"
#include "tracelint/tracer/execute.hpp"
#include "tracelint/tracer/nvrtc.hpp"
#include "tracelint/tracer/regions.hpp"

#include <torch/cuda.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

using namespace tracelint;
using namespace tracelint::tracer;
using namespace bench;

namespace {

struct Case {
  std::string title;
  TraceRequest request;
};

std::string read(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TraceRequest function_request(const std::string &path, const std::string &function,
                              std::vector<ArgSpec> args) {
  TraceRequest r;
  r.path = path;
  r.source = read(path);
  r.function = function;
  r.args = std::move(args);
  r.provenance = false;
  r.executors = {"cuda_fusion", "torch"};
  return r;
}

std::vector<Case> cases() {
  std::string models = std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py";
  std::vector<Case> out;
  out.push_back(
      {"rms_norm, x f32[16, 1024, 4096]",
       function_request(models, "rms_norm",
                        {{"x", "f32[16, 1024, 4096]@cuda"}, {"weight", "f32[4096]@cuda"}})});
  out.push_back({"swiglu_mlp, x bf16[8, 1024, 2048], hidden 5632",
                 function_request(models, "swiglu_mlp",
                                  {{"x", "bf16[8, 1024, 2048]@cuda"},
                                   {"w_gate", "bf16[5632, 2048]@cuda"},
                                   {"w_up", "bf16[5632, 2048]@cuda"},
                                   {"w_down", "bf16[2048, 5632]@cuda"}})});
  std::string gpt = std::string(TRACELINT_SOURCE_DIR) + "/../shared/models/nanogpt/model.py";
  if (std::filesystem::exists(gpt)) {
    TraceRequest r;
    r.path = gpt;
    r.source = read(gpt);
    r.module_class = "GPT";
    r.init = {{"config", "GPTConfig(n_layer=4, n_head=8, n_embd=512, block_size=256, "
                         "vocab_size=8192, dropout=0.0)"}};
    r.args = {{"idx", "i64[8, 256]@cuda:0..8192"}};
    r.provenance = false;
    r.executors = {"cuda_fusion", "torch"};
    out.push_back({"nanoGPT forward, 4 layers, n_embd 512, idx i64[8, 256]", r});
  } else {
    std::printf("(nanoGPT left out: ../shared/models/nanogpt/model.py is absent)\n");
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 21;
  // Traced and fused once: with no GPU, what the GPU would run is still listed.
  std::vector<std::pair<std::string, TracedProgram>> programs;
  for (const Case &c : cases()) {
    Result<TracedProgram> p = trace(c.request);
    if (!p) {
      std::fprintf(stderr, "%s: trace failed: %s\n", c.title.c_str(), p.error().message.c_str());
      return 2;
    }
    std::printf("%s: %zu regions\n", c.title.c_str(), p->fusions.size());
    programs.emplace_back(c.title, std::move(p.value()));
  }
  Result<std::shared_ptr<CudaDriver>> driver = CudaDriver::open();
  if (!driver) {
    std::printf("== cuda_fusion: no GPU here (%s): nothing measured\n",
                driver.error().message.c_str());
    return 0;
  }
  bool torch_cuda = at::hasCUDA();
  at::Device device = torch_cuda ? at::Device(at::kCUDA, 0) : at::Device(at::kCPU);
  std::printf("== cuda_fusion on %s; libtorch %s\n", driver.value()->device_name().c_str(),
              torch_cuda ? "with CUDA: every prim on the GPU"
                         : "without CUDA: the prims run on the CPU, each region's tensors are "
                           "copied to the GPU and back");
  auto synchronize = [&] {
    if (torch_cuda) torch::cuda::synchronize();
  };
  int status = 0;
  for (const auto &[title, program] : programs) {
    const TracedProgram *p = &program;
    KernelCache kernels(driver.value()->architecture());
    Result<std::unique_ptr<GpuRegions>> regions =
        GpuRegions::open(p->fusions, driver.value(), kernels);
    if (!regions) {
      std::fprintf(stderr, "%s: %s\n", title.c_str(), regions.error().message.c_str());
      return 2;
    }
    ExecOptions fused_options, prims_options;
    fused_options.cuda_as_cpu = prims_options.cuda_as_cpu = !torch_cuda;
    fused_options.regions = regions.value().get();
    Result<CompiledProgram> fused = CompiledProgram::compile(p->file, fused_options);
    Result<CompiledProgram> prims = CompiledProgram::compile(p->file, prims_options);
    if (!fused || !prims) {
      std::fprintf(stderr, "%s: the trace does not compile for the executor\n", title.c_str());
      return 2;
    }
    std::vector<RtValue> inputs = make_inputs(p->inputs, 1, torch_cuda ? "cuda" : "cpu");
    RtValue module = make_module_state(p->state, 5, device);
    Result<RtValue> a = fused->run(inputs, module), b = prims->run(inputs, module);
    if (!a || !b) {
      std::fprintf(stderr, "%s: %s\n", title.c_str(), (!a ? a.error() : b.error()).message.c_str());
      return 2;
    }
    Comparison agree = compare(b.value(), a.value());
    // bf16 kernels round once, libtorch's prims after each prim (see tests/test_fusion.cpp).
    if (!agree.equal && agree.max_rel_diff > 1.0 / 64) {
      std::fprintf(stderr, "%s: kernels and prims disagree: %s\n", title.c_str(),
                   agree.mismatch.c_str());
      status = 1;
      continue;
    }
    std::vector<double> ratios;
    double best_fused = 1e30, best_prims = 1e30;
    for (int round = 0; round < rounds; ++round) {
      auto time = [&](const CompiledProgram &program) {
        return best_of(1, [&] {
          (void)program.run(inputs, module);
          synchronize();
        });
      };
      double f = 0, q = 0;
      if (round % 2) {
        f = time(fused.value());
        q = time(prims.value());
      } else {
        q = time(prims.value());
        f = time(fused.value());
      }
      if (round == 0) continue; // warm-up: module loads, the caching allocator
      best_fused = std::min(best_fused, f);
      best_prims = std::min(best_prims, q);
      ratios.push_back(f / q);
    }
    std::sort(ratios.begin(), ratios.end());
    std::printf("%s\n", title.c_str());
    std::printf("  regions as kernels: %.3f ms (best round)\n", best_fused * 1e3);
    std::printf("  regions as prims:   %.3f ms (best round, tracelint's executor, a libtorch call "
                "per prim)\n",
                best_prims * 1e3);
    std::printf(
        "  kernels / prims (same trace, same executor): %.2fx (median of %d paired rounds)\n",
        ratios.empty() ? 0.0 : ratios[ratios.size() / 2], rounds - 1);
  }
  return status;
}
