// Executor benchmark: the traced computation run by the trace executor against the same
// libtorch calls made directly, in paired rounds in the same process (target: overhead <= 5%).
// Usage: build/bench/exec_bench [ops] [tensor side]
#include "bench_common.hpp"

#include "tracelint/tracer/execute.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace tracelint;
using namespace tracelint::tracer;
using namespace bench;

namespace {

// On a shared VM the noise between rounds is larger than the difference being measured: the
// figure is the median of many paired rounds (the direct calls against themselves scatter by a
// few percent with 41 rounds).
constexpr int kPairedRounds = 101;

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
  std::size_t ops = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
  int64_t side = argc > 2 ? std::strtoll(argv[2], nullptr, 10) : 256;
  std::printf("== executor overhead, %zu ops on f32[%lld, %lld] (prims level)\n", ops,
              static_cast<long long>(side), static_cast<long long>(side));
  TraceRequest r = request(generate(ops), side, CacheMode::ConstantValues, 1);
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
  for (int round = 0; round < kPairedRounds; ++round) {
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
      "overhead: %+.1f%% (median of %d paired rounds; best rounds: %+.1f%%; target <= 5%%)\n",
      (ratios[ratios.size() / 2] - 1) * 100, kPairedRounds, (t_exec / t_direct - 1) * 100);
  return 0;
}
