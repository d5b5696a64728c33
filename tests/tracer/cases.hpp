#pragma once
// The functions of examples/tracer/models.py with inputs, shared by the tracer tests.
#include "../support.hpp"

#include "tracelint/tracer/tracer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace test {

struct TracerCase {
  std::string function;
  std::vector<tracelint::tracer::ArgSpec> args;
};

inline std::vector<TracerCase> model_cases() {
  return {
      {"slice_half", {{"a", "f32[2, 6]@cuda"}}},
      {"index_with_key", {{"a", "f32[2, 3, 12]"}, {"key", "(..., slice(None, 8, None))"}}},
      {"reshape_to", {{"a", "f32[4, 9]"}, {"newshape", "(2, 6, 3)"}}},
      {"rotate_half", {{"x", "f32[2, 4, 8]"}}},
      {"apply_rotary_emb",
       {{"q", "f32[2, 4, 8, 16]"},
        {"k", "f32[2, 4, 8, 16]"},
        {"cos", "f32[8, 16]"},
        {"sin", "f32[8, 16]"}}},
      {"rms_norm", {{"x", "f32[2, 8, 32]"}, {"weight", "f32[32]"}}},
      {"swiglu_mlp",
       {{"x", "f32[2, 8, 32]"},
        {"w_gate", "f32[64, 32]"},
        {"w_up", "f32[64, 32]"},
        {"w_down", "f32[32, 64]"}}},
      {"causal_self_attention",
       {{"x", "f32[2, 8, 32]"},
        {"w_qkv", "f32[96, 32]"},
        {"w_out", "f32[32, 32]"},
        {"mask", "f32[16, 16]"},
        {"n_head", "4"}}},
      {"llama_block",
       {{"x", "f32[2, 8, 32]"},
        {"norm_w", "f32[32]"},
        {"w_gate", "f32[64, 32]"},
        {"w_up", "f32[64, 32]"},
        {"w_down", "f32[32, 64]"}}},
      {"branchy", {{"x", "f32[3, 4]"}, {"n", "3"}}},
      {"branchy", {{"x", "f32[3, 4]"}, {"n", "1"}}},
      {"indexing_mix", {{"x", "f32[4, 5, 6]"}, {"i", "1"}}},
      {"collections",
       {{"x", "f32[2, 3]"}, {"opts", "{'scale': 2.0, 'dims': [0, 1]}"}, {"pair", "(3, None)"}}},
  };
}

inline tracelint::tracer::TraceRequest model_request(const TracerCase &c,
                                                     tracelint::tracer::CacheMode cache,
                                                     tracelint::tracer::Level level,
                                                     const std::string &source) {
  tracelint::tracer::TraceRequest r;
  r.path = "models.py";
  r.source = source;
  r.function = c.function;
  r.args = c.args;
  r.cache = cache;
  r.level = level;
  return r;
}

inline std::string models_source() {
  return read_file(std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py");
}

// Calls f(request) for every model case in both cache modes and both levels, with the case
// captured in the test's messages.
template <class F> void for_each_model_request(F &&f) {
  const std::string source = models_source();
  for (const TracerCase &c : model_cases())
    for (auto cache : {tracelint::tracer::CacheMode::SymbolicValues,
                       tracelint::tracer::CacheMode::ConstantValues})
      for (auto level : {tracelint::tracer::Level::Ltorch, tracelint::tracer::Level::Prims}) {
        // CAPTURE keeps a reference: capture named values, never temporaries.
        std::string cache_name = to_string(cache), level_name = to_string(level);
        CAPTURE(c.function);
        CAPTURE(cache_name);
        CAPTURE(level_name);
        f(model_request(c, cache, level, source));
      }
}

} // namespace test
