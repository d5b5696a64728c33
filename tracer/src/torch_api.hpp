#pragma once
// The torch namespaces the interpreter provides (torch, torch.nn.functional, math, ...), tensor
// attributes, methods and operators, in-place updates and views. Defined in torch_api.cpp.
#include "tracelint/tracer/interpreter.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tracelint::tracer {

// The provided module of a dotted name (torch, torch.nn.functional, math), or none.
std::optional<Obj> provided_module(Interpreter &in, const std::string &dotted);
// The module of the tracer's own torch.nn (Python source run by this interpreter).
Obj nn_module(Interpreter &in);
// A new tensor object that shares this one's value (clone, detach, nn.Parameter).
Obj alias_tensor(const TensorObj &t);
// Functionalises an in-place update: `target` takes result's value.
void update_in_place(Interpreter &in, const Obj &target, const Obj &result, const Loc &loc);
// Records that `result` (a tensor, or a tuple or list of them) shares `input`'s storage, so
// that an in-place update of either is refused while the other is in use.
void note_views(const Obj &input, Obj &result);
// A tensor operand's special method (b is None for a unary operator).
Obj tensor_binary(Interpreter &in, TensorOperator op, Obj a, Obj b, const Loc &loc);
Obj tensor_attribute(Interpreter &in, const Obj &t, std::string_view name, const Loc &loc);
std::optional<Obj> torch_attribute(Interpreter &in, const ModuleObj &m, std::string_view name,
                                   const Loc &loc);

} // namespace tracelint::tracer
