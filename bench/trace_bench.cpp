// Tracer and executor benchmarks, each against a peer in the same process:
//  1. bound symbols traced and printed per second on generated functions of 1k, 5k and 10k
//     tensor operations (target >= 100k/s at 10k; linear: the per-symbol cost stays flat);
//  2. executor overhead: the traced computation run by the trace executor vs the same libtorch
//     calls made directly (target <= 5%).
// Usage: build/bench/trace_bench [ops] [tensor side]   (side 0: the tracing part only)
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/execute.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace tracelint;
using namespace tracelint::tracer;
using Clock = std::chrono::steady_clock;

namespace {

// A straight-line function of n tensor operations: elementwise ops with a scalar, unary ops,
// a reduction kept to shape, and a reshape round trip, in a repeating pattern.
std::string generate(std::size_t n) {
  std::string src = "import torch\n\ndef f(x, w):\n    y = x\n";
  static const char *ops[] = {"    y = y * 0.5\n", "    y = torch.tanh(y)\n", "    y = y + w\n",
                              "    y = y.reshape(-1).view(y.shape)\n",
                              "    y = y - y.mean(-1, keepdim=True)\n"};
  static const std::size_t cost[] = {1, 1, 1, 2, 2};
  std::size_t emitted = 0, i = 0;
  while (emitted < n) {
    src += ops[i % 5];
    emitted += cost[i % 5];
    ++i;
  }
  return src + "    return y\n";
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <class F> double best_of(int runs, F &&f) {
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    Clock::time_point start = Clock::now();
    f();
    best = std::min(best, seconds_since(start));
  }
  return best;
}

TraceRequest request(const std::string &source, int64_t side, CacheMode cache) {
  TraceRequest r;
  r.path = "bench.py";
  r.source = source;
  r.function = "f";
  r.args = {{"x", "f32[" + std::to_string(side) + ", " + std::to_string(side) + "]"},
            {"w", "f32[" + std::to_string(side) + "]"}};
  r.cache = cache;
  r.provenance = false;
  r.threads = std::max(1u, std::thread::hardware_concurrency());
  return r;
}

// The direct peer: the same libtorch calls the traced prims make, without the executor.
at::Tensor direct(const std::vector<std::string> &prims, const at::Tensor &x, const at::Tensor &w) {
  at::Tensor y = x;
  for (std::size_t i = 0; i < prims.size(); ++i) {
    const std::string &p = prims[i];
    if (p == "mul")
      y = at::mul(y, 0.5);
    else if (p == "tanh")
      y = at::tanh(y);
    else if (p == "add")
      y = at::add(y, w.expand(y.sizes()));
    else if (p == "reshape")
      y = y.reshape(i + 1 < prims.size() && prims[i + 1] == "reshape" ? at::IntArrayRef{y.numel()}
                                                                      : x.sizes());
    else if (p == "sum") {
      at::Tensor s = at::sum(y, {1});
      at::Tensor m =
          at::div(s, static_cast<double>(y.size(1))).reshape({y.size(0), 1}).expand(y.sizes());
      y = at::sub(y, m);
      i += 3; // div, broadcast_in_dim, sub
    }
  }
  return y;
}

} // namespace

int main(int argc, char **argv) {
  std::size_t ops = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  int64_t side = argc > 2 ? std::strtoll(argv[2], nullptr, 10) : 256;

  std::printf("== tracing + printing (symbolic values, ltorch level with prims subsymbols)\n");
  std::printf("%8s %12s %12s %14s %16s %20s\n", "ops", "symbols", "seconds", "symbols/s",
              "us per symbol", "with subsymbols/s");
  double first_cost = 0, last_cost = 0;
  for (std::size_t n : {ops / 10, ops / 2, ops}) {
    std::string source = generate(n);
    std::size_t symbols = 0, all = 0;
    std::size_t printed = 0;
    double t = best_of(3, [&] {
      Result<TracedProgram> p =
          trace(request(source, side > 0 ? side : 256, CacheMode::SymbolicValues));
      if (!p) {
        std::fprintf(stderr, "trace failed: %s\n", p.error().message.c_str());
        std::exit(2);
      }
      symbols = p->bound_symbols;
      all = p->all_bound_symbols;
      printed = print_trace_file(p->file).size();
    });
    double per = t / static_cast<double>(symbols) * 1e6;
    if (first_cost == 0) first_cost = per;
    last_cost = per;
    std::printf("%8zu %12zu %12.4f %14.0f %16.2f %20.0f  (%zu bytes printed)\n", n, symbols, t,
                static_cast<double>(symbols) / t, per, static_cast<double>(all) / t, printed);
  }
  std::printf("scaling: cost per symbol at %zu ops / at %zu ops = %.2f (1.0 is linear)\n", ops,
              ops / 10, last_cost / first_cost);
  std::printf("target: >= 100000 symbols/s (top-level symbols; each carries its prims)\n\n");

  if (side <= 0) return 0;
  std::printf("== executor overhead, %zu ops on f32[%lld, %lld] (prims level)\n", ops / 10,
              static_cast<long long>(side), static_cast<long long>(side));
  TraceRequest r = request(generate(ops / 10), side, CacheMode::ConstantValues);
  r.level = Level::Prims;
  Result<TracedProgram> p = trace(r);
  if (!p) {
    std::fprintf(stderr, "trace failed: %s\n", p.error().message.c_str());
    return 2;
  }
  std::vector<std::string> prims;
  for (const Statement &s : p->computation().body)
    if (s.kind == Statement::Kind::BoundSymbol && s.value.kind == ValueKind::Call)
      prims.push_back(s.value.callee().qualified_name().substr(6));
  std::vector<RtValue> inputs = make_inputs(p->inputs, 0, "cpu");
  at::Tensor x = inputs[0].tensor, w = inputs[1].tensor;
  // Both must compute the same thing for the timing to mean anything.
  Result<RtValue> traced = execute_program(p->file, inputs, {});
  if (!traced || !at::allclose(traced->tensor, direct(prims, x, w), 1e-4, 1e-5)) {
    std::fprintf(stderr, "the executor and the direct calls disagree: %s\n",
                 traced ? "values differ" : traced.error().message.c_str());
    return 2;
  }
  // The trace is compiled once (as Thunder compiles a trace into a callable), then run.
  Clock::time_point compile_start = Clock::now();
  Result<CompiledProgram> compiled = CompiledProgram::compile(p->file, {});
  double t_compile = seconds_since(compile_start);
  if (!compiled) {
    std::fprintf(stderr, "compile failed: %s\n", compiled.error().message.c_str());
    return 2;
  }
  // Paired rounds (direct and the executor) and the median of their ratios: on a shared VM
  // the noise between rounds is larger than the difference being measured.
  double t_direct = 1e30, t_exec = 1e30;
  std::vector<double> ratios;
  for (int round = 0; round < 21; ++round) {
    // Alternate which goes first, so that neither always inherits the other's cache state.
    double d = 0, e = 0;
    if (round % 2) {
      e = best_of(1, [&] { (void)compiled->run(inputs); });
      d = best_of(1, [&] { direct(prims, x, w); });
    } else {
      d = best_of(1, [&] { direct(prims, x, w); });
      e = best_of(1, [&] { (void)compiled->run(inputs); });
    }
    t_direct = std::min(t_direct, d);
    t_exec = std::min(t_exec, e);
    ratios.push_back(e / d);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("direct libtorch calls: %.4f s (best round)\n", t_direct);
  std::printf("executor:              %.4f s (best round; compiled once, in %.4f s)\n", t_exec,
              t_compile);
  std::printf(
      "overhead: %+.1f%% (median of 21 paired rounds; best rounds: %+.1f%%; target <= 5%%)\n",
      (ratios[ratios.size() / 2] - 1) * 100, (t_exec / t_direct - 1) * 100);
  return 0;
}
