#pragma once
// Executes traces with libtorch and compares them with an eager interpretation of the traced
// Python function: the proof that trace(f)(x) == f(x).
#include "tracelint/core/result.hpp"
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/run.hpp"
#include "tracelint/tracer/symbols.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tracelint::tracer {

// A runtime value: what a trace's names hold while it runs.
struct RtValue {
  enum class Kind {
    None,
    Ellipsis,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    List,
    Dict,
    Slice,
    Tensor,
    DType,
    Device,
    Builtin,
    Module, // the traced module (a prologue's globals()['__function_obj']): items are the
            // state tensors' paths (Str) and values, in pairs
  };
  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text; // Str, DType (torch name), Device, Builtin (int, float, bool)
  std::vector<RtValue> items;
  at::Tensor tensor;

  static RtValue of_tensor(at::Tensor t);
  static RtValue of_int(int64_t i);
  static RtValue of_float(double d);
  static RtValue of_bool(bool b);
  static RtValue of_tuple(std::vector<RtValue> items);
};

// Runs the cuda_fusion executor's regions (`[t8] = cudaFusion0(t5, i0)`) as their kernels
// instead of their prims (regions.hpp: GpuRegions). Shared by the threads that run traces.
class RegionRunner {
public:
  virtual ~RegionRunner() = default;
  // Whether a call of this name is one of its regions.
  virtual bool runs(const std::string &region) const = 0;
  // The region's outputs, in order, from its inputs (the call's arguments).
  virtual Result<std::vector<at::Tensor>> run(const std::string &region,
                                              const std::vector<const RtValue *> &inputs) const = 0;
};

struct ExecOptions {
  // Inputs annotated cuda:N run on the CPU (no CUDA here): the device checks accept that.
  bool cuda_as_cpu = false;
  // The annotations' numbers ("int 8", "float 0.5") are the values the trace was made with:
  // checked only when the run's inputs are those (tracelint run, trace --run); a symbolic trace
  // reused for other sizes computes other numbers. Kinds, shapes, dtypes and devices are always
  // checked.
  bool check_number_values = false;
  // Fusion regions run by this runner (not owned); null: as their prims.
  const RegionRunner *regions = nullptr;
  // Called after each statement of a trace with (statements done, the trace's statements): for
  // a progress display. Empty: not called.
  std::function<void(std::size_t, std::size_t)> on_step = nullptr;
};

// A trace (or a prologue and a computation) compiled once for the executor: names resolved to
// slots, constants evaluated, ltorch symbols replaced by their subsymbols. Run it many times.
class CompiledProgram {
public:
  static Result<CompiledProgram> compile(TraceFile file, const ExecOptions &options);
  // One trace: runs it on the inputs. Two: the prologue on the inputs, then the computation on
  // what the prologue returns. `module`: the traced module's state (RtValue::Kind::Module), for
  // a prologue that unpacks it.
  Result<RtValue> run(std::vector<RtValue> inputs, const RtValue &module = {}) const;

  CompiledProgram(CompiledProgram &&) noexcept;
  CompiledProgram &operator=(CompiledProgram &&) noexcept;
  ~CompiledProgram();

private:
  struct Impl;
  explicit CompiledProgram(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Runs one traced function with these arguments (*args for a prologue).
Result<RtValue> execute_trace(const Trace &trace, std::vector<RtValue> args,
                              const ExecOptions &options);
// Runs the prologue on the inputs, then the computation on what the prologue returns.
Result<RtValue> execute_program(const TraceFile &file, const std::vector<RtValue> &inputs,
                                const ExecOptions &options, const RtValue &module = {});

// What an eager run gives: the result, and (for a module) its state, which the traces take as
// inputs: the same values the eager run used.
struct EagerRun {
  RtValue result;
  RtValue module; // RtValue::Kind::Module, or None for a function
  // Traced for grad (TraceRequest::grad): the module's tensors of `state` as the run used
  // them, those that require grad as autograd leaves (module's values are detached copies).
  std::vector<at::Tensor> state_leaves;
};
// Interprets the traced function (or the module's method, on an instance made from --init, its
// parameters initialised by libtorch from `seed`) eagerly with libtorch on the same inputs;
// request.progress is told when it constructs the module and runs the call (with the symbols
// run so far).
// `state`: the module tensors whose values the run returns. With request.grad, libtorch's
// autograd records the run: inputs that require grad must come as leaves that do.
Result<EagerRun> run_eager(const TraceRequest &request, const std::vector<RtValue> &inputs,
                           const std::vector<StateTensor> &state, uint64_t seed);

// The backend a module is constructed on when its construction reads tensors' values
// (TraceRequest::value_backend): libtorch computes every symbol, and the parameters are drawn
// from `seed` as run_eager draws them, so the eager run constructs the same module.
std::unique_ptr<Backend> make_value_backend(uint64_t seed);
// make_value_backend as a TraceRequest::value_backend (for callers that link libtorch).
TraceRequest::ValueBackendMaker libtorch_values(uint64_t seed);

// Seeded random inputs for the specs: tensors (randn for floating dtypes, small random ints or
// the spec's value range otherwise) and the literals as given. device: "cpu" or "cuda".
std::vector<RtValue> make_inputs(const std::vector<InputSpec> &specs, uint64_t seed,
                                 const std::string &device);

// Seeded random values (randn * 0.1, float) for a module's tensors, as the traces take them
// (RtValue::Kind::Module, path then tensor), on `device`: state for running a module's traces
// without an eager run, as tests and benchmarks that compare two traces do. None without state.
RtValue make_module_state(const std::vector<StateTensor> &state, uint64_t seed,
                          const at::Device &device);

// The libtorch implementation of a symbol of the op registry on runtime values (an ltorch
// symbol runs as torch itself runs it, not as its decomposition): what the executor runs for
// prims and the eager run for ltorch symbols.
RtValue implement(Sym symbol, const RtValue *const *args, std::size_t count,
                  const ExecOptions &options);

// allclose for floating tensors (rtol, atol by dtype), exact for ints, bools and structure.
Comparison compare(const RtValue &expected, const RtValue &actual);

} // namespace tracelint::tracer
