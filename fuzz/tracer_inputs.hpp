#pragma once
// How fuzz_tracer turns a Python file into a trace request, shared with the libtorch
// differential that replays its corpus (tests/test_fuzz_replay.cpp): the first function, its
// parameters given inputs of every kind in turn, and one way of tracing picked by the bytes.
#include "tracelint/tracer/frontend.hpp"

#include "tracelint/tracer/tracer.hpp"

#include <functional>
#include <optional>
#include <string>

namespace tracelint::tracer::fuzzing {

inline std::optional<TraceRequest> request_for(const std::string &source) {
  Result<Module> module = parse_module("fuzz.py", source);
  if (!module) return std::nullopt;
  const FunctionDef *first = nullptr;
  for (const Stmt &s : module->body)
    if (s.kind == Stmt::Kind::Def && s.function) {
      first = s.function.get();
      break;
    }
  if (!first) return std::nullopt;
  static const char *specs[] = {"f32[2, 3]", "3", "(..., slice(None, 2, None))", "f32[4]",
                                "(2, 3)"};
  TraceRequest request;
  request.path = "fuzz.py";
  request.source = source;
  request.function = first->name;
  for (std::size_t i = 0; i < first->params.size(); ++i)
    request.args.push_back({first->params[i].name, specs[i % 5]});
  // One way per input, picked by a hash of its bytes: tracing every input all five ways cost
  // five times the executions (19 exec/s under ASan), and a mutation that keeps the function
  // but changes the hash reaches the other ways, so coverage still guides toward each.
  // The training way (tensor inputs require grad) costs about twice a forward: inputs over
  // 4 KB (long chains) take one of the forward ways, within libFuzzer's 10 s under ASan.
  constexpr std::size_t forward_ways = 4;
  std::size_t way =
      std::hash<std::string>{}(source) % (source.size() <= 4096 ? forward_ways + 1 : forward_ways);
  if (way < forward_ways) {
    request.cache = way & 1 ? CacheMode::ConstantValues : CacheMode::SymbolicValues;
    request.level = way & 2 ? Level::Prims : Level::Ltorch;
  } else {
    request.cache = CacheMode::SymbolicValues;
    request.level = Level::Ltorch;
    request.grad = true;
    for (ArgSpec &a : request.args)
      if (a.text.starts_with("f32")) a.text += ":grad";
  }
  return request;
}

} // namespace tracelint::tracer::fuzzing
