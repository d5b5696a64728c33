// Tracing benchmark: top-level bound symbols traced and printed per second on generated
// functions of 1k, 5k and 10k tensor operations (target >= 100k/s at 10k; linear: the cost per
// symbol stays flat), with the body parsed on every core while it is traced and, as the peer in
// the same run, on one. Like `tracelint trace`, this process does not load libtorch (that
// alone, from its static initialisation, makes the tracer's allocations 10-20% slower).
// Then the same functions traced for training (--grad: x and w require grad), whose backward
// trace has about as many symbols again: symbols/s counts both traces' top-level symbols.
// Usage: build/bench/trace_bench [ops] [threads]   (threads: default all cores)
//        build/bench/trace_bench --source ops        (prints the generated function, for
//                                                     bench/trace_vs_fx.sh)
#include "bench_common.hpp"

#include "tracelint/core/printer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace tracelint;
using namespace tracelint::tracer;
using namespace bench;

namespace {

// On a shared VM a single run can be 30% slow: each figure is the best of several runs.
constexpr int kRuns = 5;

// Symbols per second at 10k... printed as a table row per size; returns symbols/s at `ops`.
std::size_t top_level_symbols(const Trace &t) {
  return static_cast<std::size_t>(
      std::count_if(t.body.begin(), t.body.end(),
                    [](const Statement &s) { return s.kind == Statement::Kind::BoundSymbol; }));
}

double measure(std::size_t ops, unsigned threads, bool grad = false) {
  std::printf("== tracing + printing%s (symbolic values, ltorch level with prims subsymbols; the "
              "body parsed on %u thread%s while it is traced)\n",
              grad ? " for training: augmented forward and backward (--grad)" : "", threads,
              threads == 1 ? "" : "s");
  std::printf("%8s %12s %12s %14s %16s %20s\n", "ops", "symbols", "seconds", "symbols/s",
              "us per symbol", "with subsymbols/s");
  double first_cost = 0, middle_cost = 0, last_cost = 0, rate = 0;
  for (std::size_t n : {ops / 10, ops / 2, ops}) {
    std::string source = generate(n);
    std::size_t symbols = 0, all = 0;
    std::size_t printed = 0;
    TraceRequest r = request(source, 256, CacheMode::SymbolicValues, threads);
    if (grad) {
      r.grad = true;
      for (ArgSpec &a : r.args)
        a.text += ":grad";
    }
    double t = best_of(kRuns, [&] {
      Result<TracedProgram> p = trace(r);
      if (!p) {
        std::fprintf(stderr, "trace failed: %s\n", p.error().message.c_str());
        std::exit(2);
      }
      symbols = p->bound_symbols;
      all = p->all_bound_symbols;
      if (grad) {
        std::size_t backward = top_level_symbols(p->backward());
        symbols += backward;
        all += backward;
      }
      printed = print_trace_file(p->file, threads).size();
    });
    double per = t / static_cast<double>(symbols) * 1e6;
    if (first_cost == 0)
      first_cost = per;
    else if (middle_cost == 0)
      middle_cost = per;
    last_cost = per;
    rate = static_cast<double>(symbols) / t;
    std::printf("%8zu %12zu %12.4f %14.0f %16.2f %20.0f  (%zu bytes printed)\n", n, symbols, t,
                rate, per, static_cast<double>(all) / t, printed);
  }
  // The smallest trace's model fits in the caches and the larger ones do not: the second ratio
  // shows the growth once both are out of cache.
  std::printf("scaling: cost per symbol at %zu ops / at %zu ops = %.2f, / at %zu ops = %.2f (1.0 "
              "is linear)\n\n",
              ops, ops / 10, last_cost / first_cost, ops / 2, last_cost / middle_cost);
  return rate;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--source") {
    std::fputs(generate(std::strtoul(argv[2], nullptr, 10)).c_str(), stdout);
    return 0;
  }
  std::size_t ops = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10))
                              : std::max(1u, std::thread::hardware_concurrency());
  double rate = measure(ops, threads);
  if (threads > 1) {
    double one = measure(ops, 1);
    std::printf("%u threads / 1 thread: %.2fx\n", threads, rate / one);
  }
  double training = measure(ops, threads, true);
  std::printf("training (forward + backward symbols/s) / forward only: %.2fx\n", training / rate);
  std::printf("target: >= 100000 symbols/s (top-level symbols; each carries its prims)\n");
  return 0;
}
