#pragma once
// The interpreter behind the tracer and the eager run: it runs Python (the module's top level,
// classes, the traced function or module's forward) over Objs, and hands every tensor operation
// (an ltorch symbol of the op registry) and every number operation on a proxy to a Backend. The
// tracing backend (Recorder) records bound symbols; the eager backend (tracer/torch) calls
// libtorch.
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

struct InterpreterLimits {
  int max_depth = 200; // Python calls nested (recursion is not traced)
  // Work, all calls together: a statement or loop iteration is one step; an operation on a
  // value costs by its size (an item compared, copied or hashed, 64 characters), so that the
  // limit bounds time, not only statements.
  int64_t max_steps = 2'000'000;
  // Bytes of the strings, lists, tuples and dicts the program makes, summed over the run: what
  // is made, not what is still held, so a bound on what it can hold. Checked before a value is
  // made, so a format width of 10**9 is refused instead of allocated.
  uint64_t max_python_memory = kDefaultMaxPythonMemory;
  // Bytes of a module file an import reads (TraceRequest::max_file_size).
  uint64_t max_module_bytes = uint64_t{64} << 20;
};
// The limits a request asks for (its max_python_memory; the others as default).
InterpreterLimits limits_of(const TraceRequest &request);

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
  const Module &module() const { return *module_; }

  // Calls a Python callable: a function, a bound method, a class (constructs an instance), a
  // builtin. Errors are TraceErrors (PyErrors that nothing caught become TraceErrors too).
  Obj call_top(const Obj &callable, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);
  // Evaluates an expression in the module's namespace (an --init value).
  Obj eval_top(const Expr &e);
  // A Python exception that nothing caught, as the error it ends tracing with.
  TraceError uncaught(const PyError &e);

  // The lines the traced code printed (print()), in order.
  const std::vector<std::string> &printed() const { return printed_; }
  // Keeps a printed line for the caller (the CLI shows them on stderr); a flood is cut.
  void note_printed(std::string line) {
    if (printed_.size() < 10000) printed_.push_back(std::move(line));
  }

  // ---- used by the builtins, the torch API and the module-state walk
  Obj call(const Obj &callable, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);
  Obj attribute(const Obj &base, std::string_view name, const Loc &loc);
  // The attribute, or none where Python raises AttributeError.
  std::optional<Obj> find_instance_attribute(const Obj &base, std::string_view name,
                                             const Loc &loc);
  std::optional<Obj> find_attribute(const Obj &base, std::string_view name, const Loc &loc);
  void set_attribute(const Obj &base, const std::string &name, Obj value, const Loc &loc);
  bool truth(const Obj &o, const Loc &loc);
  // A concrete int where Python needs one (an index, a loop bound); a proxy is guarded.
  int64_t concrete_int(const Obj &o, const Loc &loc, const std::string &what);
  double concrete_float(const Obj &o, const Loc &loc, const std::string &what);
  // The items of an iterable (a list, tuple, dict's keys, str, set, an object's __iter__).
  std::vector<Obj> iterate(const Obj &o, const Loc &loc);
  // Runs a generator's body to its next yield: what it yields, or nothing once it has ended.
  std::optional<Obj> resume_generator(const Obj &generator, const Loc &loc);
  std::vector<Obj> iterate_instance(const Obj &o, const Loc &loc);
  // Enters one level of a value for `what` ("getting the repr of an object"); RecursionError past
  // CPython's default limit. The returned guard leaves it.
  struct ValueLevel {
    Interpreter &in;
    ~ValueLevel() { --in.value_depth_; }
  };
  ValueLevel enter_value(const char *what, const Loc &loc);
  std::string container_repr(const Obj &o, const Loc &loc);
  void require_hashable(const Obj &o, const Loc &loc);
  // A dict's lookups as CPython's: the key must be hashable; a key of a class that defines
  // __hash__ or __eq__ is found by its __hash__ and the stored key's __eq__. Charged by the
  // keys scanned.
  std::ptrdiff_t dict_find(const DictObj &d, const Obj &key, const Loc &loc);
  // hash() of an instance of a class that defines __hash__ or __eq__: its __hash__, which must
  // return an int; __eq__ without __hash__ is unhashable, as CPython makes it.
  int64_t user_hash(const Obj &instance, const Loc &loc);
  const Obj *dict_get(const DictObj &d, const Obj &key, const Loc &loc);
  void dict_set(DictObj &d, Obj key, Obj value, const Loc &loc);
  // Whether the Python exception is one of exception_class (a builtin's name) or a subclass.
  bool raised(const PyError &e, const char *exception_class) const;
  std::string str(const Obj &o, const Loc &loc);
  std::string repr(const Obj &o, const Loc &loc);
  // Python's == (concrete: a proxy compared is guarded).
  bool equal(const Obj &a, const Obj &b, const Loc &loc);
  Obj binary(BinaryOp op, Obj a, Obj b, const Loc &loc);
  Obj number(NumOp op, const std::vector<Obj> &args, const Loc &loc);
  bool isinstance(const Obj &o, const Obj &cls, const Loc &loc);
  std::shared_ptr<ClassObj> builtin_class(Builtin b) const;
  // Raises a Python exception of a builtin class (ValueError, ...) with this message.
  [[noreturn]] void raise(const std::string &exception_class, const std::string &message,
                          const Loc &loc);
  void step(const Loc &loc) { charge(1, loc); }
  void charge(int64_t work, const Loc &loc);
  // A value of `bytes` (a string's characters, a collection's items at 16 bytes each) is about
  // to be made: a TraceError at loc when it takes the run past max_python_memory; else counted
  // and charged as work (one step per 64 bytes).
  void make_room(uint64_t bytes, const Loc &loc);
  // make_room for `count` parts of `each` bytes (a repeat, a padding), without overflowing.
  void make_room(uint64_t count, uint64_t each, const Loc &loc);
  // The provided module of a dotted name (torch, torch.nn.functional, math), or none.
  std::optional<Obj> provided_module(const std::string &dotted);
  // The module of the tracer's own torch.nn (Python source run by this interpreter).
  Obj nn_module();
  // A new tensor object that shares this one's value (clone, detach, nn.Parameter).
  static Obj alias_tensor(const TensorObj &t);
  // Functionalises an in-place update: `target` takes result's value.
  void update_in_place(const Obj &target, const Obj &result, const Loc &loc);
  // Records that `result` (a tensor, or a tuple or list of them) shares `input`'s storage, so
  // that an in-place update of either is refused while the other is in use.
  static void note_views(const Obj &input, Obj &result);

  Obj compare(CompareOp op, const Obj &a, const Obj &b, const Loc &loc);
  Obj unary(UnaryOp op, const Obj &a, const Loc &loc);
  Obj format_value(const Obj &value, const std::string &spec, const Loc &loc);
  std::string format_method(const std::string &format, const std::vector<Obj> &args,
                            const Kwargs &kwargs, const Loc &loc);
  [[noreturn]] void unknown_used(const Obj &o, const Loc &loc, const std::string &how);
  Obj subscript(const Obj &base, const Obj &index, const Loc &loc);

  struct Impl;

private:
  struct Frame;
  enum class Flow : uint8_t { Normal, Break, Continue, Return };

  Obj call_function(const FunctionObj &f, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);
  // generators.cpp: a call of a generator function (its arguments bound in `bound`), and what
  // `yield` and `yield from` do in its body.
  Obj make_generator(const FunctionObj &f, Frame &&bound);
  Obj yield_value(Obj value, const Loc &loc);
  Obj yield_from(const Obj &iterable, const Loc &loc);
  Obj construct(const std::shared_ptr<ClassObj> &cls, std::vector<Obj> args, Kwargs kwargs,
                const Loc &loc);
  Obj call_builtin_class(const ClassObj &cls, std::vector<Obj> &args, Kwargs &kwargs,
                         const Loc &loc);
  Flow run_block(const std::vector<Stmt> &block, Frame &frame);
  Flow run(const Stmt &s, Frame &frame);
  Flow run_try(const Stmt &s, Frame &frame);
  Flow run_aug_assign(const Stmt &s, Frame &frame);
  Flow run_with(const Stmt &s, Frame &frame);
  void define_class(const Stmt &s, Frame &frame);
  // enums.cpp: the members of a class deriving from enum.Enum, made after its body ran.
  static bool is_enum_class(const ClassObj &cls);
  static std::vector<Obj> enum_members(const ClassObj &cls);
  void make_enum_members(const std::shared_ptr<ClassObj> &cls,
                         const std::vector<std::pair<std::string, Obj>> &body, const Loc &loc);
  Obj enum_lookup(const std::shared_ptr<ClassObj> &cls, const std::vector<Obj> &args,
                  const Loc &loc);
  void do_import(const Stmt &s, Frame &frame);
  // imports.cpp: the model's own modules, read from disk beside the traced file.
  // The modules `import dotted` (with `level` leading dots) runs, outermost first; none when
  // it names no file or folder there.
  std::vector<Obj> local_module(const std::string &dotted, std::size_t level, Frame &frame,
                                const Loc &loc);
  Obj namespace_module(const std::string &folder, const std::string &dotted);
  void import_names(const Obj &module, const std::string &dotted, std::size_t level, const Stmt &s,
                    Frame &frame);
  Obj load_local(const std::string &file, const std::string &dotted, const Frame &importer,
                 const Loc &loc);
  std::shared_ptr<const Module> owner_of(const Module *m) const;
  Obj eval(const Expr &e, Frame &frame);
  Obj eval_call(const Expr &e, Frame &frame);
  Obj eval_fstring(const Expr &e, Frame &frame);
  Obj eval_comprehension(const Expr &e, Frame &frame);
  Obj make_function(const FunctionDef &def, Frame &frame, const std::string &qualname);
  Obj lookup(const Expr &name, Frame &frame);
  void assign(const Expr &target, Obj value, Frame &frame);
  void bind_name(const std::string &name, Obj value, Frame &frame);
  void delete_target(const Expr &target, Frame &frame);
  void set_item(const Obj &base, const Obj &index, Obj value, const Loc &loc);
  // <, <=, >, >= through a user class's __lt__/__le__/__gt__/__ge__ (or the other operand's
  // reflected one), as CPython; nullopt when neither defines it or both say NotImplemented.
  std::optional<Obj> user_ordering(CompareOp op, const Obj &a, const Obj &b, const Loc &loc);
  // A tensor operand's special method (b is None for a unary operator).
  Obj tensor_binary(TensorOperator op, Obj a, Obj b, const Loc &loc);
  Obj tensor_attribute(const Obj &t, std::string_view name, const Loc &loc);
  std::optional<Obj> torch_attribute(const ModuleObj &m, std::string_view name, const Loc &loc);
  std::optional<Obj> builtin_method(const Obj &self, std::string_view name, const Loc &loc);
  std::string percent_format(const std::string &format, const Obj &args, const Loc &loc);
  Obj make_exception(const std::string &cls, const std::string &message);
  void call_chain_note(TraceError &e, const std::string &where);

  std::shared_ptr<const Module> module_;
  Backend *backend_;
  InterpreterLimits limits_;
  std::unique_ptr<Impl> impl_;
  std::vector<std::string> printed_;
  int depth_ = 0;
  // How deep repr, == and hash are inside a value (a list in a list ...), and the containers
  // whose repr is being written: a cycle prints [...], a value deeper than CPython's recursion
  // limit raises RecursionError, as CPython does, instead of recursing on.
  int value_depth_ = 0;
  std::vector<const void *> in_repr_;
  std::vector<const Module *> call_modules_; // the module of each function being run
  int64_t steps_ = 0;
  uint64_t made_bytes_ = 0; // see InterpreterLimits::max_python_memory
};

// A number operation that raises a Python exception in CPython too (ZeroDivisionError,
// OverflowError, ValueError "math domain error"): Interpreter::number raises it as that
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
