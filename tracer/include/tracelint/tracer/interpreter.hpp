#pragma once
// The interpreter behind the tracer and the eager run: it runs Python (the module's top level,
// classes, the traced function or module's forward) over Objs, and hands every tensor operation
// (an ltorch symbol of the op registry) and every number operation on a proxy to a Backend. The
// tracing backend (Recorder) records bound symbols; the eager backend (tracer/torch) calls
// libtorch.
#include "tracelint/tracer/budget.hpp"
#include "tracelint/tracer/frontend.hpp"
#include "tracelint/tracer/object.hpp"
#include "tracelint/tracer/symbols.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracelint::tracer {

enum class Builtin : uint16_t {
#define TRACELINT_BUILTIN(id, spelled) id,
#include "tracelint/tracer/builtins.def"
#undef TRACELINT_BUILTIN
  count_ // how many there are
};
const char *builtin_spelling(Builtin b);

// A Python exception: raised by `raise`, or by the interpreter where Python raises one
// (NameError, AttributeError, KeyError, ...). `try`/`except` catches it; uncaught, it becomes
// the trace's error. What the tracer cannot do at all is a TraceError, which nothing catches.
struct PyError {
  Obj exception; // an instance of an exception class
  Loc loc;
  std::vector<std::string> chain;  // the calls it came through, innermost first
  std::optional<std::string> file; // of loc, as TraceError::file
};

// In-place initialisation of a tensor made while a module is constructed (torch.nn.init.*,
// Tensor.normal_(), torch.randn): values only an eager run has. RandomInt: integers in [a, b).
enum class InitKind : uint8_t { Normal, Uniform, Fill, RandomInt };

using Kwargs = std::vector<std::pair<std::string, Obj>>;

// Python's operations on numbers (ints, floats, bools), which a proxy operand turns into prims.
enum class NumOp : uint8_t {
  add,
  sub,
  mul,
  truediv,  // /
  floordiv, // //
  mod,      // %
  pow,
  neg,
  abs,
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  bitwise_and,
  bitwise_or,
  bitwise_xor,
  // math.*
  sqrt,
  exp,
  log,
  sin,
  cos,
  tanh,
  floor,
  ceil,
  trunc,
  to_int,    // int(x)
  to_float,  // float(x)
  exact_div, // a // b where b divides a (an inferred size): one prims.div
};
const char *num_op_symbol(NumOp op); // "+", "//", "math.sqrt"

class Backend {
public:
  virtual ~Backend() = default;
  // An ltorch symbol on its arguments, bound to its schema (one Obj per parameter, in order).
  virtual Obj call_symbol(Sym symbol, std::vector<Obj> args, const Loc &loc) = 0;
  // A number operation with at least one proxy operand; result holds the value Python
  // computes.
  virtual Obj number_op(NumOp op, const std::vector<Obj> &args, Obj result, const Loc &loc) = 0;
  // The interpreter needs the concrete value of a proxy (a branch, a loop bound).
  virtual void guard(const Obj &value, const Loc &loc) = 0;
  // The statement about to run (provenance comments).
  virtual void at_statement(const Stmt &, const Module &) {}
  virtual void initialize(TensorObj &, InitKind, double, double) {}
  // A tensor's values as Python values where this backend computes them (an eager one): its
  // one element as a number (`as_list` false), or all of them as nested lists. nullopt where
  // the backend knows only shapes and dtypes.
  virtual std::optional<Obj> values(const TensorObj &, bool /*as_list*/) { return std::nullopt; }
  // A copy of a tensor's values that shares nothing with them (copy.deepcopy), or none where
  // the backend knows only shapes and dtypes.
  virtual std::shared_ptr<TensorData> copy_values(const TensorObj &) { return nullptr; }
  // Whether operations are being recorded into a trace (false: a module is being constructed,
  // or this is an eager run).
  virtual bool tracing() const { return false; }
};

// Construction (not tracing) read a tensor's values on a backend that has none: the tracer
// constructs again on one that computes them (TraceRequest::value_backend), or, without one,
// this is the error.
struct ConstructionReadsValues : TraceError {
  using TraceError::TraceError;
};

// The limits a request asks for (its max_python_memory; the others as default).
InterpreterLimits limits_of(const TraceRequest &request);

class Evaluator;
struct InterpreterState;

// The interpreter is small parts with one owner each; this class holds them and the state they
// share, and is the entry point (run the module, call, evaluate). The parts (tracer/src):
// the evaluator of statements and expressions (evaluator.hpp), the object model as free
// functions taking the Interpreter first, as CPython's abstract object API (object_model.hpp:
// attributes, MRO, equality, truth, iteration, operators, subscripts, exceptions), values as
// text (formatting.hpp), imports (imports.hpp), enums (enums.hpp), the torch namespaces
// (torch_api.hpp), the builtins (builtins/), and the budget (budget.hpp).
class Interpreter {
public:
  Interpreter(std::shared_ptr<const Module> module, Backend &backend,
              InterpreterLimits limits = {});
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  void set_backend(Backend &backend) { backend_ = &backend; }
  Backend &backend() const { return *backend_; }

  // Runs the module's top-level statements once: imports, defs, classes, constants, and
  // whatever else is there.
  void run_module();
  // A name of the module's namespace after run_module, or nullptr.
  const Obj *global(std::string_view name) const;
  const Module &module() const;

  // Calls a Python callable: a function, a bound method, a class (constructs an instance), a
  // builtin. Errors are TraceErrors (PyErrors that nothing caught become TraceErrors too).
  Obj call_top(const Obj &callable, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);
  // Evaluates an expression in the module's namespace (an --init value).
  Obj eval_top(const Expr &e);
  // A Python exception that nothing caught, as the error it ends tracing with.
  TraceError uncaught(const PyError &e);

  // The lines the traced code printed (print()), in order.
  const std::vector<std::string> &printed() const;
  // Keeps a printed line for the caller (the CLI shows them on stderr); a flood is cut.
  void note_printed(std::string line);

  // Calls a Python callable, its errors PyErrors (what the builtins, the torch API and the
  // evaluator call).
  Obj call(const Obj &callable, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);

  // The parts.
  Budget &budget() { return budget_; }
  Evaluator &evaluator() { return *evaluator_; }
  // The per-run state the parts share (interpreter_impl.hpp).
  InterpreterState &state() { return *state_; }

private:
  Backend *backend_;
  Budget budget_;
  std::unique_ptr<InterpreterState> state_;
  std::unique_ptr<Evaluator> evaluator_;
};

// A number operation that raises a Python exception in CPython too (ZeroDivisionError,
// OverflowError, ValueError "math domain error"): number() (object_model.hpp) raises it as that
// exception, so `except` sees it; elsewhere it is the TraceError it derives from.
struct PythonNumberError : TraceError {
  std::string exception_class;
  PythonNumberError(Loc where, std::string cls, const std::string &message)
      : TraceError(where, cls + ": " + message), exception_class(std::move(cls)),
        python_message(message) {}
  std::string python_message;
};

// Python's result of a number operation on concrete values (errors are TraceErrors; those
// CPython raises too are PythonNumberErrors).
Obj compute_number(NumOp op, const std::vector<Obj> &args, const Loc &loc);

// Python's int() of a float: truncated toward zero; none where no int64_t holds it (NaN,
// infinity, 2**63 and beyond), which a plain cast would make undefined behaviour.
std::optional<int64_t> truncate_to_int64(double x);

// The Python literal an --arg gives (numbers, strings, None, ..., bools, tuples, lists, dicts,
// slice(...), torch dtypes), without running any code.
Obj literal_object(const Expr &e);

} // namespace tracelint::tracer
