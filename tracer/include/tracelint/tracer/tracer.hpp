#pragma once
// The tracer: interprets a Python function (a subset of Python) over proxies and records
// Thunder-style traces: a prologue that unpacks and checks the inputs, and a computation
// of ltorch symbols with their prims as subsymbols.
#include "tracelint/core/result.hpp"
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/progress.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::tracer {

// The default bound on the Python values (strings, lists, tuples, dicts) a traced program
// makes, summed over the run (TraceRequest::max_python_memory).
inline constexpr uint64_t kDefaultMaxPythonMemory = uint64_t{512} << 20;

enum class CacheMode {
  ConstantValues, // ints are specialised: the prologue checks their values
  SymbolicValues, // int inputs and tensor dims become IntegerProxy names
};
enum class Level {
  Ltorch, // torch-level symbols, their prims as subsymbol comments
  Prims,  // the flattened prims
};

// An input given on the command line: a tensor (f32[2, 3]@cuda, i64[2, 16]:0..64) or a Python
// literal.
class Backend;

struct ArgSpec {
  std::string name;
  std::string text; // as the user wrote it, after "name="
};

struct TraceRequest {
  std::string path;   // for error messages and provenance comments
  std::string source; // the Python module
  // What to trace: a function of the module, or (module_class set) the `method` of an instance
  // of that class, made as module_class(**init) and put in eval mode (in training mode with
  // `train`: batch_norm on the batch's statistics, writing its running ones back; dropout with
  // p > 0 refused, as it draws random numbers).
  std::string function;
  std::string module_class;
  std::string method = "forward";
  bool train = false;
  std::vector<ArgSpec> init; // NAME=EXPR: Python expressions evaluated in the module's namespace
  std::vector<ArgSpec> args;
  CacheMode cache = CacheMode::SymbolicValues;
  Level level = Level::Ltorch;
  bool provenance = true; // "# file.py:3: <source line>" comments before each line's symbols
  // For training: an augmented forward that also returns what the backward needs, and the
  // backward (Thunder's grad transform). The gradients are those of the inputs given with
  // :grad (f32[2, 8]:grad) and of the module's parameters that require grad.
  bool grad = false;
  // Thunder's executor list, in order of preference: "cuda_fusion" groups runs of elementwise
  // prims into fusion regions (cudaFusion0, ...), each compiled as one CUDA kernel; "torch"
  // (always last, implied) runs the rest. Empty: torch alone. With cuda_fusion the traces are
  // execution traces: prims and regions, whatever `level` says.
  std::vector<std::string> executors;
  // A large function body is parsed in chunks on this many threads while it is traced.
  unsigned threads = 1;
  // Bytes of strings, lists, tuples and dicts the traced program may make, summed over the
  // run (module construction and --init included): past it, tracing stops with an error at
  // the line that would have made the value.
  uint64_t max_python_memory = kDefaultMaxPythonMemory;
  // The largest module file of the model's own package the tracer reads for an import (the CLI
  // gives its --max-file-size, the traced file's cap).
  uint64_t max_file_size = uint64_t{64} << 20;
  // Told each phase (running the module, constructing, tracing with the symbols recorded so
  // far, differentiating, fusing; and for a run, run_and_compare's phases).
  ProgressFn progress;
  // A module is constructed knowing its tensors' shapes and dtypes only, which is quick at any
  // size. Where construction reads a tensor's values (`.item()`, `.tolist()`, `int(t)`,
  // `if t.any():`), it runs again from the top on this backend, libtorch's (the CLI loads
  // libtracelint_torch.so: make_value_backend), with its parameters drawn from the seed as
  // --run's eager run draws them. Unset: such a construction is an error that says so.
  using ValueBackendMaker = std::function<Result<std::unique_ptr<Backend>>()>;
  ValueBackendMaker value_backend;
};

// What an input is, as given: the tracer builds proxies from it, the executor random data.
struct InputSpec {
  // Collection: a list, tuple or dict that holds tensors (-a 'arr=[f32[2, 5], f32[2, 5]]').
  enum class Kind { Tensor, Literal, Collection };
  Kind kind = Kind::Literal;
  std::string name;
  std::string dtype;  // Tensor: torch name (float32)
  std::string device; // Tensor: "cpu" or "cuda:0"
  std::vector<int64_t> shape;
  // Tensor: the half-open range of its random values for a run (an integer tensor of
  // indices: i64[2, 16]:0..64); none for the default.
  std::optional<std::pair<int64_t, int64_t>> range;
  bool requires_grad = false; // Tensor: given with :grad
  Value literal;              // Literal: the value (tuples, slices, numbers...)
  // Collection: ValueKind::List, Tuple or Dict; its items (a dict's values), each a spec of its
  // own, and a dict's keys (str or int constants).
  ValueKind collection = ValueKind::List;
  std::vector<InputSpec> items;
  std::vector<Value> keys;
};

// Calls fn on each tensor spec of spec, depth first (spec itself, or a collection's leaves).
template <class Fn> void for_each_tensor_spec(const InputSpec &spec, Fn &&fn) {
  if (spec.kind == InputSpec::Kind::Tensor) fn(spec);
  for (const InputSpec &item : spec.items)
    for_each_tensor_spec(item, fn);
}

// A tensor of the traced module's state that the computation reads: a parameter, a buffer, or
// another tensor attribute, by its path (transformer.h.0.attn.c_attn.weight).
struct StateTensor {
  enum class Kind { Parameter, Buffer, Attribute };
  Kind kind = Kind::Parameter;
  std::string path;
  std::string name; // in the traces: t_transformer_h_0_attn_c_attn_weight
  std::string dtype;
  std::string device;
  std::vector<int64_t> shape;
  bool requires_grad = false;
};

// What running the traces (run_and_compare) will hold at its peak, estimated from the shapes
// before anything is allocated.
struct RunMemoryEstimate {
  uint64_t inputs = 0;        // the random inputs, held for the whole run
  uint64_t intermediates = 0; // the most held at once besides them
  uint64_t total() const {
    return inputs + intermediates < inputs ? UINT64_MAX : inputs + intermediates;
  }
};

// A fusion region of the cuda_fusion executor: a run of elementwise prims of one shape printed
// as one call, `[t12, t19] = cudaFusion0(t4, t5, i0)` with the prims as its subsymbols (as
// Thunder prints nvFuser regions), and compiled as one CUDA kernel.
struct FusionRegion {
  std::string name;  // cudaFusion0: the region's call and its kernel's name
  std::string trace; // the trace it is in ("computation", "backward_fn")
  std::vector<std::string> inputs, outputs;
  std::size_t prims = 0;
  // The kernel: one thread per element of the region's shape, each input read through its
  // strides (0 for a broadcast dim), the outputs written contiguously. Its parameters: the
  // input views, the outputs, the number inputs, then `meta`: the element count, the sizes and
  // each view's strides (the comment at its top says which).
  std::string cuda_source;
  // The kernel's parameters in order, for whoever launches it: the input views, the outputs,
  // the numbers, then meta.
  struct KernelParam {
    enum class Kind { View, Output, Number, Meta };
    Kind kind = Kind::View;
    std::string name;   // the trace's name it carries (a tensor or a number); "" for meta
    std::string c_type; // its type in the kernel: "const float *", "double"
    std::string dtype;  // View, Output: the tensor's dtype ("f32")
    // View: the region dims the tensor's dims go to (prims.broadcast_in_dim's third
    // argument); empty when it has the region's shape and is read through its own strides.
    std::vector<int64_t> broadcast_dims;
    bool broadcast = false;
  };
  std::vector<KernelParam> params;
  // The region's shape as the trace spells it: sizes ("4") and the names of int proxies
  // ("i0"), which a run finds among the inputs or in a view of the region's shape.
  std::vector<std::string> shape;
};

// What the backward of a program traced with TraceRequest::grad takes and gives.
struct GradientSignature {
  // The backward's cotangents, one per output tensor that has a gradient: each one's index
  // among the tensors of the output, in the order they appear in it (flat_output).
  std::vector<std::size_t> cotangent_of;
  // What the backward returns, one per input (TracedProgram::inputs, then ::state): its
  // gradient, or None where it has none. True where it has one.
  std::vector<bool> has_gradient;
};

struct TracedProgram {
  // traces[0] prologue, traces[1] computation; traced for grad: traces[1] the augmented
  // forward, returning ({'output': ..., 'flat_args': [...], 'flat_output': (...)},
  // saved_for_backward), and traces[2] the backward(saved_for_backward, cotangents).
  TraceFile file;
  std::optional<GradientSignature> gradients; // traced for grad
  std::vector<FusionRegion> fusions;          // with the cuda_fusion executor
  std::vector<InputSpec> inputs;
  std::vector<StateTensor> state; // the module's tensors the computation takes, in order
  // What the traced code printed (print()), line by line.
  std::vector<std::string> printed;
  std::size_t bound_symbols = 0;     // top-level symbols of the computation
  std::size_t all_bound_symbols = 0; // the same with their subsymbols, at every depth
  // The bytes of each tensor the computation makes, by name, in the order made: what
  // run_memory() reads (estimated only for a run, not for every trace).
  std::vector<std::pair<std::string, uint64_t>> tensor_bytes;
  const Trace &prologue() const { return file.traces.at(0); }
  const Trace &computation() const { return file.traces.at(1); }
  const Trace &backward() const { return file.traces.at(2); }
};

Result<InputSpec> parse_arg(const ArgSpec &arg);
// What is wrong with the text of an --arg or --init value before it is read (empty, not
// UTF-8), or none.
std::optional<std::string> argument_text_problem(const std::string &text);

// What running the program's traces will hold at its peak (see RunMemoryEstimate).
RunMemoryEstimate run_memory(const TracedProgram &program);

// Traces request.function of request.source. Errors name file:line:col and the construct.
// Thread-safe: each call has its own state.
Result<TracedProgram> trace(const TraceRequest &request);

// One symbol of the op registry, as `tracelint trace --list-ops` and docs/ops.md show it.
struct OpEntry {
  std::string name;                   // ltorch.gelu, prims.add
  std::string signature;              // "a, /, *, approximate='none'"
  std::vector<std::string> spellings; // torch.nn.functional.gelu, Tensor.add_ (in place), ...
  std::vector<std::string> tags;      // check, never-dce, elementwise, view, ...
  // Parameters of torch's function that Thunder's symbol lacks: printed only when set.
  std::vector<std::string> torch_only;
};
// Every symbol of the registry, ltorch first, each module in declaration order.
std::vector<OpEntry> op_vocabulary();
// What is wrong with the registry's definitions (a symbol without a definition, an ltorch
// symbol without a decomposition, a prim without a shape rule, a schema that does not parse, a
// spelling naming two symbols); empty when sound.
std::vector<std::string> op_registry_problems();

// A name a traced program can use, and what the tracer makes of it.
struct NameEntry {
  std::string name;  // len, str.join, torch.finfo, math.sqrt, Tensor.shape, torch.add, +
  std::string means; // "builtin", "ltorch.add", "tensor attribute", "operator: __add__", ...
};
// Every name the tracer accepts, from the tables that resolve them: Python's builtins and the
// builtin types' methods, the provided modules' names (torch, torch.cuda, math, dataclasses,
// typing, functools), the registry's spellings, the tensor methods and attributes that are no
// registry symbol, and the operators. `tracelint trace --list-names` prints it.
std::vector<NameEntry> name_vocabulary();

const char *to_string(CacheMode mode);
const char *to_string(Level level);

} // namespace tracelint::tracer
