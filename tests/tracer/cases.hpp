#pragma once
// The functions of examples/tracer/models.py with inputs, shared by the tracer tests.
#include "../support.hpp"

#include "tracelint/tracer/tracer.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace test {

struct TracerCase {
  std::string function;
  std::vector<tracelint::tracer::ArgSpec> args;
};

// The cases of tests/tracer/model_cases.json (scripts/thunder_compat.py reads them too).
inline std::vector<TracerCase> model_cases() {
  static const std::vector<TracerCase> cases = [] {
    nlohmann::json listed = nlohmann::json::parse(
        read_file(std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/model_cases.json"));
    std::vector<TracerCase> out;
    for (const nlohmann::json &c : listed) {
      TracerCase t{c.at("function").get<std::string>(), {}};
      for (const nlohmann::json &a : c.at("args"))
        t.args.push_back({a.at(0).get<std::string>(), a.at(1).get<std::string>()});
      out.push_back(std::move(t));
    }
    return out;
  }();
  return cases;
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
