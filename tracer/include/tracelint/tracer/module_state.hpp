#pragma once
// The tensors of an nn.Module instance that a traced method may read: its parameters and
// buffers (as named_parameters()/named_buffers() list them, each shared tensor once) and its
// modules' other tensor attributes, with Thunder's names for them in traces
// (transformer.h.0.attn.c_attn.weight -> t_transformer_h_0_attn_c_attn_weight). The tracer
// names them; an eager run gives them their values.
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <string>
#include <vector>

namespace tracelint::tracer {

struct StateEntry {
  StateTensor::Kind kind;
  std::string path;
  Obj tensor;
};

std::vector<StateEntry> module_state(Interpreter &in, const Obj &root, const Loc &loc);

// "t_" + the path with every character that cannot be in a name as `_`.
std::string state_name(const std::string &path);

} // namespace tracelint::tracer
