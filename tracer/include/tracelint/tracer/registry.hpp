#pragma once
// The op registry: for each symbol of symbols.def, what it does. An ltorch symbol has its
// schema (Python's parameter list, with defaults), its Python spellings (torch.add, Tensor.add,
// torch.nn.functional.gelu; a spelling ending in _ is the in-place variant) and its
// decomposition into prims and other ltorch symbols; a prim has its schema and its shape and
// dtype rule. The interpreter binds calls with it, the recorder records with it, and the
// executor's libtorch implementations (tracer/torch) are keyed by the same ids.
#include "tracelint/tracer/interpreter.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracelint::tracer {

class Recorder;

struct SchemaParam {
  std::string name;
  Param::Kind kind = Param::Kind::Positional;
  std::optional<Obj> default_value; // none: required
};

// An ltorch symbol's meaning as prims (and other ltorch symbols), recorded through r. Returns
// the result (a tensor, a tuple of tensors, a number).
using Decomposition = Obj (*)(Recorder &r, const std::vector<Obj> &args, const Loc &loc);
// A prim's output: a tensor Obj without a name (its dtype, device and shape), a number, or a
// tuple of these; raises a TraceError on arguments the prim does not take.
using ShapeRule = Obj (*)(Recorder &r, const std::vector<Obj> &args, const Loc &loc);
// A prim's vector-Jacobian product, as Thunder's grad transform reads its VJP rules: from the
// cotangent of the prim's output, the cotangent of each argument in schema order, recorded
// through r as symbols of the backward trace: a tensor the argument's shape and dtype; None for
// an argument without one (a number, an index tensor, a dtype); a list for a list of tensors.
// `out` is the forward's output: what a rule reads of the forward (its arguments, `out`, their
// sizes) is saved for the backward by the transform.
using Vjp = std::vector<Obj> (*)(Recorder &r, const std::vector<Obj> &args, const Obj &out,
                                 const Obj &cotangent, const Loc &loc);
// Rewrites a bound call into the form Thunder's symbol takes, in place (torch.var's `unbiased`
// as Thunder's `correction`); runs after every bind, so it must be idempotent.
using Normalize = void (*)(std::vector<Obj> &args, const Loc &loc);
// Calls a registry symbol on the arguments given (its schema's defaults for the rest), recorded
// as a symbol of the trace in its own right.
using SymbolCall = std::function<Obj(Sym, std::vector<Obj>, Kwargs)>;
// What a torch function writes into its tensor arguments besides returning its result
// (batch_norm's running statistics in training): from the bound arguments, the (argument, new
// value) pairs, computed through `call` before the symbol runs. The interpreter writes each value
// into its argument as an in-place update, copied back to the caller's tensor at the end of the
// trace: the update is written back functionally, as Thunder writes it. It may rewrite `args`
// for the symbol's own call (the statistics it updates taken out).
using WriteBack = std::vector<std::pair<Obj, Obj>> (*)(std::vector<Obj> &args,
                                                       const SymbolCall &call, const Loc &loc);

struct OpDef {
  Sym sym{};
  std::string signature; // as written in the definition: "a, /, *, approximate='none'"
  std::vector<SchemaParam> params;
  std::vector<std::string> python;
  // The result shares the input's storage (view, transpose, getitem, ...): an in-place update
  // of one would change the other.
  bool view = false;
  Decomposition decompose = nullptr; // ltorch
  ShapeRule meta = nullptr;          // prims
  // prims: the VJP rule, or ops::no_gradient for a prim without gradients (comparisons,
  // checks, factories, argmax). An ltorch symbol is differentiated through its decomposition.
  Vjp vjp = nullptr;
  // Parameters PyTorch's function takes and Thunder's symbol of the same name does not (or
  // takes with another default): bound from the user's call, printed only when given another
  // value than the schema's default, so that a printed trace calls Thunder's symbol as Thunder
  // declares it (scripts/thunder_compat.py compares the schemas with Thunder's).
  std::vector<std::string> torch_only;
  // Parameters printed as keywords, with every one after them: where torch's order differs from
  // Thunder's (F.max_pool2d's ceil_mode before return_indices), the traced call binds in torch's
  // order and the printed call names them, so Thunder's symbol binds them alike.
  std::vector<std::string> by_name;
  Normalize normalize = nullptr;
  WriteBack write_back = nullptr;
  bool is_torch_only(const std::string &param) const;
  bool is_by_name(const std::string &param) const;
};

// What a definition file gives for one symbol.
struct OpSpec {
  Sym sym;
  const char *signature;
  std::vector<std::string> python = {};
  Decomposition decompose = nullptr;
  ShapeRule meta = nullptr;
  bool view = false;
  Vjp vjp = nullptr;
  const char *torch_only = ""; // OpDef::torch_only, comma-separated
  const char *by_name = "";    // OpDef::by_name, comma-separated
  Normalize normalize = nullptr;
  WriteBack write_back = nullptr;
};

// Adds an ltorch symbol's spec: its schema, its Python spellings and its decomposition (`view`:
// the result shares the input's storage, OpDef::view).
inline void add_ltorch(std::vector<OpSpec> &specs, Sym sym, const char *signature,
                       std::vector<std::string> python, Decomposition decompose,
                       bool view = false) {
  specs.push_back({sym, signature, std::move(python), decompose, nullptr, view});
}

// A prim's spec: its schema, shape rule and VJP rule.
inline OpSpec prim_spec(Sym sym, const char *signature, ShapeRule meta, Vjp vjp) {
  OpSpec spec{sym, signature};
  spec.meta = meta;
  spec.vjp = vjp;
  return spec;
}

class Registry {
public:
  // Built once, on first use, from the definition files (ops/*.cpp); read-only after that.
  static const Registry &get();

  const OpDef &op(Sym s) const { return ops_[static_cast<std::size_t>(s)]; }
  struct Spelling {
    const OpDef *op = nullptr;
    bool inplace = false; // Tensor.add_: the in-place variant of ltorch.add
  };
  // The op spelled torch.X, torch.nn.functional.X or Tensor.X, if the registry has one.
  std::optional<Spelling> python(std::string_view spelled) const;
  // The Tensor methods (the names after "Tensor."), for hasattr and messages.
  bool has_tensor_method(std::string_view name) const;

  // Binds a call's arguments to the op's schema: one Obj per parameter (a *args parameter
  // gets a tuple), defaults filled in. Errors name `spelled` as Python would.
  std::vector<Obj> bind(const OpDef &op, std::vector<Obj> args, Kwargs kwargs,
                        const std::string &spelled, const Loc &loc) const;

  // Every symbol without a definition, a definition without a decomposition or shape rule, or a
  // schema that does not parse: what the registry test checks is empty.
  std::vector<std::string> problems() const { return problems_; }

private:
  Registry();
  std::vector<OpDef> ops_;
  std::vector<std::pair<std::string, Spelling>> spellings_; // sorted by name
  std::vector<std::string> problems_;
};

// The definition files, each adding its family's specs.
namespace ops {
// Sets the torch-only parameters (OpDef::torch_only) of the spec of `sym` already in `specs`.
void torch_only(std::vector<OpSpec> &specs, Sym sym, const char *params);
// Sets the parameters printed by name (OpDef::by_name) of the spec of `sym` already in `specs`.
void by_name(std::vector<OpSpec> &specs, Sym sym, const char *params);
// The VJP of a prim that has no gradients: every argument's is None.
std::vector<Obj> no_gradient(Recorder &r, const std::vector<Obj> &args, const Obj &out,
                             const Obj &cotangent, const Loc &loc);
void define_elementwise_ops(std::vector<OpSpec> &out);
void define_activation_ops(std::vector<OpSpec> &out);
void define_reduction_ops(std::vector<OpSpec> &out);
void define_shape_ops(std::vector<OpSpec> &out);
void define_indexing_ops(std::vector<OpSpec> &out);
void define_nn_ops(std::vector<OpSpec> &out);
void define_convolution_ops(std::vector<OpSpec> &out);
void define_pooling_ops(std::vector<OpSpec> &out);
void define_resampling_ops(std::vector<OpSpec> &out);
void define_factory_ops(std::vector<OpSpec> &out);
void define_check_ops(std::vector<OpSpec> &out);
} // namespace ops

} // namespace tracelint::tracer
