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
  for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues})
    for (Level level : {Level::Ltorch, Level::Prims}) {
      request.cache = cache;
      request.level = level;
      check(request);
    }
  // For training (the tensor inputs require grad), once: a traced program's grad transform
  // costs about twice its forward, and the four ways above already take most of an input's
  // time budget under the sanitizers when the function is long.
  if (size <= 4096) {
    TraceRequest training = request;
    training.cache = CacheMode::SymbolicValues;
    training.level = Level::Ltorch;
    training.grad = true;
    for (ArgSpec &a : training.args)
      if (a.text.starts_with("f32")) a.text += ":grad";
    check(training);
  }
  return 0;
}
