// The tracer frontend on arbitrary Python: never a crash, a hang or a sanitizer report; an
// error is a clear Error with a position; and every trace it emits (the grad transform's
// augmented forward and backward too) prints, parses back to the same model, and passes the
// validator without errors.
#include "frontend.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/tracer.hpp"
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <functional>
#include <string>

using namespace tracelint;
using namespace tracelint::tracer;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string source(reinterpret_cast<const char *>(data), size);
  Result<Module> module = parse_module("fuzz.py", source);
  if (!module) return 0;
  // The first function, with inputs of every kind in turn.
  const FunctionDef *first = nullptr;
  for (const Stmt &s : module->body)
    if (s.kind == Stmt::Kind::Def && s.function) {
      first = s.function.get();
      break;
    }
  if (!first) return 0;
  static const char *specs[] = {"f32[2, 3]", "3", "(..., slice(None, 2, None))", "f32[4]",
                                "(2, 3)"};
  TraceRequest request;
  request.path = "fuzz.py";
  request.source = source;
  request.function = first->name;
  for (std::size_t i = 0; i < first->params.size(); ++i)
    request.args.push_back({first->params[i].name, specs[i % 5]});
  auto check = [](const TraceRequest &r) {
    Result<TracedProgram> program = trace(r);
    if (!program) {
      if (program.error().message.empty()) __builtin_trap();
      return;
    }
    std::string printed = print_trace_file(program->file);
    Result<TraceFile> back = parse_trace(printed);
    if (!back || !(back.value() == program->file)) __builtin_trap();
    FileReport report = check_source("traced.py", printed, Options{});
    if (report.has_at_least(Severity::Error)) __builtin_trap();
  };
  // One way per input, picked by a hash of its bytes: tracing every input all five ways cost
  // five times the executions (19 exec/s under ASan), and a mutation that keeps the function
  // but changes the hash reaches the other ways, so coverage still guides toward each.
  // The training way (tensor inputs require grad) costs about twice a forward: inputs over
  // 4 KB (long chains) take one of the forward ways, within libFuzzer's 10 s under ASan.
  constexpr std::size_t forward_ways = 4;
  std::size_t way =
      std::hash<std::string>{}(source) % (size <= 4096 ? forward_ways + 1 : forward_ways);
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
  check(request);
  return 0;
}
