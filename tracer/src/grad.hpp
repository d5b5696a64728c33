#pragma once
// The grad transform, as Thunder's transforms.py builds a training trace: the forward's prims
// (the recorder's tape) walked in reverse, each one's VJP rule (declared with the prim in the
// op registry) recording the backward through the same recorder; then what the backward reads
// of the forward (its residuals) becomes saved_for_backward.
#include "recorder.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tracelint::tracer {

struct BackwardRecording {
  std::vector<Statement> body;
  std::vector<std::pair<std::size_t, std::string>> hidden_reads; // as Recorder's
  // The backward's cotangent inputs, one per tensor of the output that has a gradient, and
  // each one's index among the output's tensors (flat_output).
  std::vector<Obj> cotangents;
  std::vector<std::size_t> cotangent_of;
  // The gradient of each input of `requires_grad` that gets one, by its name.
  std::unordered_map<std::string, Obj> gradients;
};

// Records the backward of `tape` (the forward's prims, in order) into r, whose body must be
// empty (the forward's taken), for the tensors named in `requires_grad` (the inputs that
// require grad): a cotangent for each floating tensor of `result` that depends on one of them,
// then each prim's VJP from the last to the first.
BackwardRecording record_backward(Recorder &r, const std::vector<TapeEntry> &tape,
                                  const Obj &result,
                                  const std::unordered_set<std::string> &requires_grad,
                                  const Loc &loc);

// The tensors of o (a tensor, or tuples, lists and dicts of them), in order.
void tensors_of(const Obj &o, std::vector<Obj> &out);

// The names `body` (a recorded forward or backward) reads from outside itself among its kept
// statements: what its top-level statements and their subsymbols read, minus what it binds.
// keep: live_statements' answer for it.
std::vector<std::string>
outside_reads(const std::vector<Statement> &body,
              const std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
              const std::vector<bool> &keep, const Value &returned);

// Flattens, in place, each top-level composite of `body` that binds one of `names` only among
// its subsymbols (at --level ltorch a prim's output inside ltorch.softmax is a comment): the
// backward reads those names, so the forward must bind them. hidden_reads is remapped.
void expose(std::vector<Statement> &body,
            std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
            const std::unordered_set<std::string> &names);

// A program's training traces, from its recorded forward.
struct Training {
  Value saved_for_backward; // ((tensors...), (numbers...)): what the forward returns for it
  Trace backward;           // backward_fn, without its return and decorators
  std::vector<std::size_t> cotangent_of;            // BackwardRecording's
  std::unordered_map<std::string, Value> gradients; // by input name
};

// The input of a forward: its name, and whether it is a tensor (else a number proxy).
struct ForwardInput {
  std::string name;
  bool tensor = false;
};

// Records the backward of the forward in `forward` (the recorder's body, taken; its tape still
// in r) and prints it as Thunder does: backward_fn(saved_for_backward, cotangents) unpacking
// both collections. What it reads of the forward is saved_for_backward, sorted as the forward
// made it; a saved tensor the forward binds only inside a composite is exposed (see expose).
Training record_training(Recorder &r, std::vector<Statement> &forward,
                         std::vector<std::pair<std::size_t, std::string>> &forward_hidden_reads,
                         const Obj &result, const std::vector<ForwardInput> &forward_inputs,
                         const std::unordered_set<std::string> &requires_grad, Level level,
                         const Loc &loc);

} // namespace tracelint::tracer
