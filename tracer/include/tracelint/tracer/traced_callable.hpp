#pragma once
// The callable a request traces: a function of the module, or a method of an instance of one of
// its classes (made from --init, in eval mode). The tracer and the eager run make it alike.
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <string>

namespace tracelint::tracer {

struct TracedCallable {
  Obj callable;
  const FunctionDef *def = nullptr;
  const FunctionObj *function = nullptr;
  std::size_t first_param = 0; // 1 for a method: self is bound
  std::string signature;       // foo(a, b), for messages
  Obj instance;                // the module instance, or None
};

// Runs nothing but --init's expressions and the class's constructor (the module must have run).
Result<TracedCallable> traced_callable(const TraceRequest &request, const Module &module,
                                       Interpreter &in);

} // namespace tracelint::tracer
