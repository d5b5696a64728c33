#pragma once
// The interpreter behind the tracer and the eager reference: it runs a Python function of
// the supported subset over Objs, and hands every tensor operation (and every number
// operation on a proxy) to a Backend. The tracing backend records bound symbols; the eager
// backend (tracelint/tracer/torch.hpp) calls libtorch.
#include "tracelint/core/result.hpp"
#include "tracelint/core/value.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::tracer {

struct Module;
struct Stmt;
struct Loc;

// A backend's tensor storage (an at::Tensor for the eager backend; none while tracing).
struct TensorData {
  virtual ~TensorData() = default;
};

struct Obj {
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
    Module,   // text: torch, torch.nn.functional
    Function, // text: a function of the traced module
    Method,   // text: the method name, items[0]: self
    Builtin,  // text: len, range, ...
  };
  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  // Str: contents. DType: torch name (float32). Device: cpu / cuda:0. Module: dotted path.
  std::string text;
  // Numbers and tensors: the proxy's name in the trace ("" for a constant).
  std::string proxy;
  // Tuple/List: elements. Slice: start, stop, step. Dict: key0, value0, ... Method: self.
  std::vector<Obj> items;
  // Tensor: the dims are Int Objs (proxies under symbolic values).
  std::string dtype;
  std::string device;
  std::vector<Obj> shape;
  std::shared_ptr<TensorData> data;

  static Obj none();
  static Obj ellipsis();
  static Obj boolean_of(bool b);
  static Obj int_of(int64_t i);
  static Obj float_of(double d);
  static Obj str(std::string s);
  static Obj tuple(std::vector<Obj> items);
  static Obj list(std::vector<Obj> items);
  static Obj slice(Obj start, Obj stop, Obj step);
  static Obj dtype_of(std::string torch_name);
  static Obj device_of(std::string spec);

  bool is_number() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  bool is_sequence() const { return kind == Kind::Tuple || kind == Kind::List; }
  double as_double() const;
  // Python's repr-free description for error messages: "int", "tensor f32[2, 3]".
  std::string describe() const;
};

// Short dtype names of annotations (f32) and the torch names (float32).
std::string short_dtype(const std::string &torch_name);
std::string torch_dtype(const std::string &short_or_torch);
bool is_floating(const std::string &torch_dtype);

class Backend {
public:
  virtual ~Backend() = default;
  // A tensor operation with arguments normalised by the interpreter:
  //  add sub mul div pow (a, b); neg exp tanh rsqrt relu silu sigmoid (a); gelu (a, approximate);
  //  softmax (a, dim); sum mean amax (a, dims tuple or None, keepdim); reshape view (a, shape);
  //  transpose (a, d0, d1); permute (a, dims); unsqueeze (a, dim); cat (tensors, dim);
  //  matmul (a, b); linear (x, w, bias or None); getitem (a, key).
  virtual Obj tensor_op(const std::string &op, const std::vector<Obj> &args, const Loc &loc) = 0;
  // A number operation with at least one proxy argument; result holds the value Python
  // computes. Ops: add sub mul truediv floordiv mod pow neg lt le gt ge eq ne.
  virtual Obj number_op(const std::string &op, const std::vector<Obj> &args, Obj result,
                        const Loc &loc) = 0;
  // The interpreter needs the concrete value of a proxy (a branch, a loop bound).
  virtual void guard(const Obj &value, const Loc &loc) = 0;
  // The statement about to run (provenance comments).
  virtual void at_statement(const Stmt &) {}
};

// Python's int() of a float: truncated toward zero; none where no int64_t holds it (NaN,
// infinity, 2**63 and beyond), which a plain cast would make undefined behaviour.
std::optional<int64_t> truncate_to_int64(double x);

// Python's result of a number operation (the ops of Backend::number_op) on concrete values.
Obj compute_number(const std::string &op, const std::vector<Obj> &args, const Loc &loc);

// Evaluates a literal expression (an --arg value, a parameter default).
Obj literal_object(const Module &module, const struct Expr &e);

// Runs module.functions[function] with the given arguments (by parameter, defaults filled
// from the source). Throws TraceError on anything outside the subset.
Obj interpret(const Module &module, const std::string &function, const std::vector<Obj> &args,
              Backend &backend);

// Obj <-> model Value: proxies print as their names, never as a repr.
Value to_value(const Obj &o);

} // namespace tracelint::tracer
