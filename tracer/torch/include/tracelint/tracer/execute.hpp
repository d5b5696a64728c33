#pragma once
// Executes traces with libtorch and compares them with an eager interpretation of the traced
// Python function: the proof that trace(f)(x) == f(x).
#include "tracelint/core/result.hpp"
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/run.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <ATen/ATen.h>

#include <cstdint>
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
    Builtin
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

struct ExecOptions {
  // Inputs annotated cuda:N run on the CPU (no CUDA here): the device checks accept that.
  bool cuda_as_cpu = false;
};

// A trace (or a prologue and a computation) compiled once for the executor: names resolved to
// slots, constants evaluated, ltorch symbols replaced by their subsymbols. Run it many times.
class CompiledProgram {
public:
  static Result<CompiledProgram> compile(TraceFile file, const ExecOptions &options);
  // One trace: runs it on the inputs. Two: the prologue on the inputs, then the computation on
  // what the prologue returns.
  Result<RtValue> run(std::vector<RtValue> inputs) const;

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
                                const ExecOptions &options);
// Interprets request.function eagerly with libtorch on the same inputs.
Result<RtValue> run_eager(const TraceRequest &request, const std::vector<RtValue> &inputs);

// Seeded random inputs for the specs: tensors (randn for floating dtypes, small random ints
// otherwise) and the literals as given. device: "cpu" or "cuda".
std::vector<RtValue> make_inputs(const std::vector<InputSpec> &specs, uint64_t seed,
                                 const std::string &device);

// allclose for floating tensors (rtol, atol by dtype), exact for ints, bools and structure.
Comparison compare(const RtValue &expected, const RtValue &actual);

} // namespace tracelint::tracer
