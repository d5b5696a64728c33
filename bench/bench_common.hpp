#pragma once
// What the tracer and executor benchmarks share: the generated function and the timing.
#include "tracelint/tracer/tracer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

namespace bench {

using Clock = std::chrono::steady_clock;

// A straight-line function of n tensor operations: elementwise ops with a scalar, unary ops,
// a reduction kept to shape, and a reshape round trip, in a repeating pattern.
inline std::string generate(std::size_t n) {
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

inline tracelint::tracer::TraceRequest request(const std::string &source, int64_t side,
                                               tracelint::tracer::CacheMode cache,
                                               unsigned threads) {
  tracelint::tracer::TraceRequest r;
  r.path = "bench.py";
  r.source = source;
  r.function = "f";
  r.args = {{"x", "f32[" + std::to_string(side) + ", " + std::to_string(side) + "]"},
            {"w", "f32[" + std::to_string(side) + "]"}};
  r.cache = cache;
  r.provenance = false;
  r.threads = threads;
  return r;
}

inline double seconds_since(Clock::time_point start) {
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

} // namespace bench
