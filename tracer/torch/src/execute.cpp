#include "tracelint/tracer/execute.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/interpreter.hpp"

#include "frontend.hpp"

#include <ATen/ScalarOps.h>
#include <c10/util/Exception.h>
#include <c10/util/SmallVector.h>

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace tracelint::tracer {

RtValue RtValue::of_tensor(at::Tensor t) {
  RtValue v;
  v.kind = Kind::Tensor;
  v.tensor = std::move(t);
  return v;
}
RtValue RtValue::of_int(int64_t i) {
  RtValue v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}
RtValue RtValue::of_float(double d) {
  RtValue v;
  v.kind = Kind::Float;
  v.real = d;
  return v;
}
RtValue RtValue::of_bool(bool b) {
  RtValue v;
  v.kind = Kind::Bool;
  v.boolean = b;
  v.integer = b;
  return v;
}
RtValue RtValue::of_tuple(std::vector<RtValue> items) {
  RtValue v;
  v.kind = Kind::Tuple;
  v.items = std::move(items);
  return v;
}

namespace {

// An error while running a trace: a message naming the statement.
struct ExecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// torch's dtype names and libtorch's scalar types, both ways from one table.
constexpr std::pair<const char *, at::ScalarType> kScalarTypes[] = {
    {"float32", at::kFloat},  {"float16", at::kHalf}, {"bfloat16", at::kBFloat16},
    {"float64", at::kDouble}, {"int64", at::kLong},   {"int32", at::kInt},
    {"int16", at::kShort},    {"int8", at::kChar},    {"uint8", at::kByte},
    {"bool", at::kBool}};

at::ScalarType scalar_type(const std::string &torch_name) {
  for (const auto &[name, type] : kScalarTypes)
    if (torch_name == name) return type;
  throw ExecError("unknown dtype " + torch_name);
}

std::string dtype_name(at::ScalarType t) {
  for (const auto &[name, type] : kScalarTypes)
    if (type == t) return name;
  return c10::toString(t);
}

// The kinds that a model Value, an interpreter Obj and a runtime value share, mapped once.
RtValue::Kind runtime_kind(ValueKind k) {
  switch (k) {
  case ValueKind::String:
    return RtValue::Kind::Str;
  case ValueKind::DType:
    return RtValue::Kind::DType;
  case ValueKind::Device:
    return RtValue::Kind::Device;
  case ValueKind::Tuple:
    return RtValue::Kind::Tuple;
  case ValueKind::List:
    return RtValue::Kind::List;
  case ValueKind::Dict:
    return RtValue::Kind::Dict;
  case ValueKind::Slice:
    return RtValue::Kind::Slice;
  default:
    throw ExecError("cannot evaluate this value");
  }
}

constexpr std::pair<Obj::Kind, RtValue::Kind> kSharedKinds[] = {
    {Obj::Kind::Str, RtValue::Kind::Str},       {Obj::Kind::DType, RtValue::Kind::DType},
    {Obj::Kind::Device, RtValue::Kind::Device}, {Obj::Kind::Tuple, RtValue::Kind::Tuple},
    {Obj::Kind::List, RtValue::Kind::List},     {Obj::Kind::Dict, RtValue::Kind::Dict},
    {Obj::Kind::Slice, RtValue::Kind::Slice}};

RtValue::Kind runtime_kind(Obj::Kind k) {
  for (const auto &[obj, runtime] : kSharedKinds)
    if (obj == k) return runtime;
  throw ExecError("an interpreter object of this kind is not a value");
}

Obj::Kind object_kind(RtValue::Kind k) {
  for (const auto &[obj, runtime] : kSharedKinds)
    if (runtime == k) return obj;
  throw ExecError("a runtime value of this kind is not an interpreter object");
}

bool is_number(const RtValue &v) {
  return v.kind == RtValue::Kind::Bool || v.kind == RtValue::Kind::Int ||
         v.kind == RtValue::Kind::Float;
}
double as_double(const RtValue &v) {
  return v.kind == RtValue::Kind::Float ? v.real : static_cast<double>(v.integer);
}
at::Scalar as_scalar(const RtValue &v) {
  if (v.kind == RtValue::Kind::Float) return at::Scalar(v.real);
  if (v.kind == RtValue::Kind::Bool) return at::Scalar(v.boolean);
  return at::Scalar(v.integer);
}

// A Python number next to a tensor follows PyTorch's promotion (a "wrapped number").
at::Tensor as_tensor(const RtValue &v, const at::Device &device) {
  if (v.kind == RtValue::Kind::Tensor) return v.tensor;
  if (!is_number(v)) throw ExecError("expected a tensor or a number");
  at::Tensor t = c10::scalar_to_tensor(as_scalar(v), device);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// A shape or a list of dims: on the stack (one per broadcast, reshape or reduction run).
using IntList = c10::SmallVector<int64_t, 8>;

IntList int_list(const RtValue &v) {
  if (v.kind != RtValue::Kind::Tuple && v.kind != RtValue::Kind::List)
    throw ExecError("expected a tuple or list of ints");
  IntList out;
  for (const RtValue &item : v.items) {
    if (item.kind != RtValue::Kind::Int && item.kind != RtValue::Kind::Bool)
      throw ExecError("expected an int in a shape or dim list");
    out.push_back(item.integer);
  }
  return out;
}

const at::Tensor &tensor_arg(const RtValue &v, const char *what) {
  if (v.kind != RtValue::Kind::Tensor) throw ExecError(std::string(what) + " must be a tensor");
  return v.tensor;
}

std::string describe(const RtValue &v) {
  switch (v.kind) {
  case RtValue::Kind::Tensor: {
    std::string s = "tensor " + dtype_name(v.tensor.scalar_type()) + "[";
    for (int64_t i = 0; i < v.tensor.dim(); ++i)
      s += (i ? ", " : "") + std::to_string(v.tensor.size(i));
    return s + "]";
  }
  case RtValue::Kind::Int:
    return "int " + std::to_string(v.integer);
  case RtValue::Kind::Float:
    return "float " + python_float(v.real);
  case RtValue::Kind::Bool:
    return v.boolean ? "True" : "False";
  case RtValue::Kind::None:
    return "None";
  case RtValue::Kind::Ellipsis:
    return "Ellipsis";
  case RtValue::Kind::Str:
    return python_string(v.text);
  case RtValue::Kind::Tuple:
    return "tuple of " + std::to_string(v.items.size());
  case RtValue::Kind::List:
    return "list of " + std::to_string(v.items.size());
  case RtValue::Kind::Dict:
    return "dict";
  case RtValue::Kind::Slice:
    return "slice";
  case RtValue::Kind::DType:
    return "dtype " + v.text;
  case RtValue::Kind::Device:
    return "device " + v.text;
  case RtValue::Kind::Builtin:
    return v.text;
  }
  return "value";
}

bool same_literal(const RtValue &a, const RtValue &b) {
  if (is_number(a) && is_number(b)) return as_double(a) == as_double(b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case RtValue::Kind::None:
  case RtValue::Kind::Ellipsis:
    return true;
  case RtValue::Kind::Str:
  case RtValue::Kind::DType:
  case RtValue::Kind::Device:
    return a.text == b.text;
  default:
    return false;
  }
}

// ---- prims -------------------------------------------------------------------------------

using TensorBinary = at::Tensor (*)(const at::Tensor &, const at::Tensor &);
using TensorUnary = at::Tensor (*)(const at::Tensor &);
using ScalarBinary = at::Tensor (*)(const at::Tensor &, const at::Scalar &);

const std::map<std::string, TensorBinary> &binary_prims() {
  static const std::map<std::string, TensorBinary> binary = {
      {"add", [](const at::Tensor &a, const at::Tensor &b) { return at::add(a, b); }},
      {"sub", [](const at::Tensor &a, const at::Tensor &b) { return at::sub(a, b); }},
      {"mul", [](const at::Tensor &a, const at::Tensor &b) { return at::mul(a, b); }},
      {"div", [](const at::Tensor &a, const at::Tensor &b) { return at::div(a, b); }},
      {"pow", [](const at::Tensor &a, const at::Tensor &b) { return at::pow(a, b); }},
      {"fmod", [](const at::Tensor &a, const at::Tensor &b) { return at::fmod(a, b); }},
      {"lt", [](const at::Tensor &a, const at::Tensor &b) { return at::lt(a, b); }},
      {"le", [](const at::Tensor &a, const at::Tensor &b) { return at::le(a, b); }},
      {"gt", [](const at::Tensor &a, const at::Tensor &b) { return at::gt(a, b); }},
      {"ge", [](const at::Tensor &a, const at::Tensor &b) { return at::ge(a, b); }},
      {"eq", [](const at::Tensor &a, const at::Tensor &b) { return at::eq(a, b); }},
      {"ne", [](const at::Tensor &a, const at::Tensor &b) { return at::ne(a, b); }},
      {"bitwise_and",
       [](const at::Tensor &a, const at::Tensor &b) { return at::bitwise_and(a, b); }}};
  return binary;
}

const std::map<std::string, TensorUnary> &unary_prims() {
  static const std::map<std::string, TensorUnary> unary = {
      {"neg", [](const at::Tensor &a) { return at::neg(a); }},
      {"exp", [](const at::Tensor &a) { return at::exp(a); }},
      {"tanh", [](const at::Tensor &a) { return at::tanh(a); }},
      {"rsqrt", [](const at::Tensor &a) { return at::rsqrt(a); }},
      {"erf", [](const at::Tensor &a) { return at::erf(a); }},
      {"floor", [](const at::Tensor &a) { return at::floor(a); }},
      {"signbit", [](const at::Tensor &a) { return at::signbit(a); }}};

  return unary;
}

// A tensor and a Python number: libtorch's Scalar overloads, as a direct call would use them.
const std::map<std::string, ScalarBinary> &scalar_prims() {
  static const std::map<std::string, ScalarBinary> scalar = {
      {"add", [](const at::Tensor &a, const at::Scalar &b) { return at::add(a, b); }},
      {"sub", [](const at::Tensor &a, const at::Scalar &b) { return at::sub(a, b); }},
      {"mul", [](const at::Tensor &a, const at::Scalar &b) { return at::mul(a, b); }},
      {"div", [](const at::Tensor &a, const at::Scalar &b) { return at::div(a, b); }}};
  return scalar;
}

// A Value without names as a runtime value (constants of a trace, literal inputs).
RtValue literal(const Value &v) {
  RtValue out;
  switch (v.kind) {
  case ValueKind::None:
    return out;
  case ValueKind::Ellipsis:
    out.kind = RtValue::Kind::Ellipsis;
    return out;
  case ValueKind::Bool:
    return RtValue::of_bool(v.boolean);
  case ValueKind::Int:
    return RtValue::of_int(v.integer);
  case ValueKind::Float:
    return RtValue::of_float(v.real);
  case ValueKind::String:
  case ValueKind::DType:
  case ValueKind::Device:
    out.kind = runtime_kind(v.kind);
    out.text = v.text;
    return out;
  default: // a collection; a name or a call is not a constant
    out.kind = runtime_kind(v.kind);
    for (const Value &item : v.items)
      out.items.push_back(literal(item));
    return out;
  }
}

// The prims that are not elementwise (those have their libtorch function in the operand).
enum class Prim : uint8_t {
  Unsupported,
  Where,
  ConvertElementType,
  BroadcastInDim,
  Reshape,
  Transpose,
  Sum,
  Amax,
  Cat,
  Matmul,
  Linear,
  SlicePrim,
  Squeeze,
  Shape,
  CheckLen,
  CheckTensorShapeAndMetadata,
  CheckNumberType,
  CheckNumberTypeAndValue,
  CheckLiteralLike,
};

Prim prim_of(const std::string &name) {
  static const std::map<std::string, Prim> prims = {
      {"where", Prim::Where},
      {"convert_element_type", Prim::ConvertElementType},
      {"broadcast_in_dim", Prim::BroadcastInDim},
      {"reshape", Prim::Reshape},
      {"transpose", Prim::Transpose},
      {"sum", Prim::Sum},
      {"amax", Prim::Amax},
      {"cat", Prim::Cat},
      {"matmul", Prim::Matmul},
      {"linear", Prim::Linear},
      {"slice_prim", Prim::SlicePrim},
      {"squeeze", Prim::Squeeze},
      {"shape", Prim::Shape},
      {"check_len", Prim::CheckLen},
      {"check_tensor_shape_and_metadata", Prim::CheckTensorShapeAndMetadata},
      {"check_number_type", Prim::CheckNumberType},
      {"check_number_type_and_value", Prim::CheckNumberTypeAndValue},
      {"check_literal_like", Prim::CheckLiteralLike},
  };
  auto it = prims.find(name);
  return it == prims.end() ? Prim::Unsupported : it->second;
}

// An expression of a statement with its names resolved to slots and its constant parts
// evaluated once: running a step then costs no name lookups and no string work.
// What a run reads comes first and the constants live in the trace's pool: each tensor op
// evicts the executor's data from the caches, so every cache line a step touches costs a miss.
struct Operand {
  enum class Kind : uint8_t { Slot, Constant, Collection, Attribute, Subscript, Call };
  Kind kind = Kind::Constant;
  RtValue::Kind collection = RtValue::Kind::Tuple;
  Prim prim = Prim::Unsupported; // Call, when not elementwise
  int slot = -1;                 // Slot
  int constant = -1;             // Constant: its index in CompiledTrace::constants
  // Call: the libtorch function of an elementwise prim, found once (none for the others).
  TensorBinary binary = nullptr;
  TensorUnary unary = nullptr;
  ScalarBinary scalar = nullptr;
  // Collection: elements; Attribute: base; Subscript: base, index; Call: arguments. They are
  // CompiledTrace::operands[first_item, first_item + item_count): each step's next to the last's.
  uint32_t first_item = 0;
  uint32_t item_count = 0;
  std::string text; // Slot: the name; Attribute: the attribute; Call: the prim
};

struct TargetSlots {
  int slot = -1; // a name's slot; -1 for `_` or a tuple
  bool is_name = true;
  std::vector<TargetSlots> elements;
};

// A half-open range of slots in CompiledTrace::deleted_slots or freed_slots.
struct SlotRange {
  uint32_t begin = 0;
  uint32_t end = 0;
};

struct Step {
  bool is_return = false;
  bool is_delete = false;
  SlotRange deleted;   // in deleted_slots
  SlotRange last_uses; // in freed_slots: slots no later step reads, freed after this one
  std::optional<TargetSlots> target;
  Operand value;
  const Statement *statement = nullptr; // for messages
};

struct CompiledTrace {
  std::string name;
  std::vector<std::pair<ParamKind, int>> parameters;
  std::vector<Step> steps;
  std::vector<std::string> slot_names;
  std::vector<RtValue> constants; // Operand::constant
  std::vector<Operand> operands;  // the items of the steps' operands
  // The steps' deleted and last-use slots, each in step order: a run reads them one after
  // another.
  std::vector<int> deleted_slots;
  std::vector<int> freed_slots;
};

std::string print_statement_line(const Statement &s) {
  Statement copy = s;
  copy.subsymbols.clear();
  copy.type_comment.reset();
  std::string line = print_statement(copy, 0);
  while (!line.empty() && line.back() == '\n')
    line.pop_back();
  if (line.rfind("# ", 0) == 0) line = line.substr(2);
  return line;
}

std::string where(const std::string &trace, const Statement &s) {
  return trace + " line " + std::to_string(s.span.line) + " (`" + print_statement_line(s) + "`)";
}

class Compiler {
public:
  CompiledTrace compile(const Trace &trace) {
    out_.name = trace.name;
    for (const Parameter &p : trace.parameters)
      out_.parameters.emplace_back(p.kind, slot(p.name));
    for (const Statement &s : trace.body)
      statement(s);
    free_after_last_use();
    return std::move(out_);
  }

private:
  void reads(const Operand &op, std::vector<int> &out) const {
    if (op.kind == Operand::Kind::Slot) out.push_back(op.slot);
    for (uint32_t i = 0; i < op.item_count; ++i)
      reads(out_.operands[op.first_item + i], out);
  }

  // Puts an operand's items in the pool, together.
  void set_items(Operand &op, std::vector<Operand> items) {
    op.first_item = static_cast<uint32_t>(out_.operands.size());
    op.item_count = static_cast<uint32_t>(items.size());
    for (Operand &item : items)
      out_.operands.push_back(std::move(item));
  }

  // Thunder's "Delete Last Used" for the executor: an intermediate lives until its last reader,
  // so memory is reused as in eager code instead of growing with the trace.
  void free_after_last_use() {
    std::vector<int> last(out_.slot_names.size(), -1);
    std::vector<int> read;
    for (std::size_t i = 0; i < out_.steps.size(); ++i) {
      read.clear();
      reads(out_.steps[i].value, read);
      for (int slot : read)
        last[static_cast<std::size_t>(slot)] = static_cast<int>(i);
    }
    std::vector<std::vector<int>> freed(out_.steps.size());
    for (std::size_t slot = 0; slot < last.size(); ++slot)
      if (last[slot] >= 0 && !out_.steps[static_cast<std::size_t>(last[slot])].is_return)
        freed[static_cast<std::size_t>(last[slot])].push_back(static_cast<int>(slot));
    std::vector<int> &list = out_.freed_slots;
    for (std::size_t i = 0; i < out_.steps.size(); ++i) {
      out_.steps[i].last_uses.begin = static_cast<uint32_t>(list.size());
      list.insert(list.end(), freed[i].begin(), freed[i].end());
      out_.steps[i].last_uses.end = static_cast<uint32_t>(list.size());
    }
  }

  int constant(RtValue v) {
    out_.constants.push_back(std::move(v));
    return static_cast<int>(out_.constants.size() - 1);
  }

  int slot(const std::string &name) {
    auto [it, added] = slots_.emplace(name, static_cast<int>(out_.slot_names.size()));
    if (added) out_.slot_names.push_back(name);
    return it->second;
  }

  void statement(const Statement &s) {
    try {
      switch (s.kind) {
      case Statement::Kind::BoundSymbol:
      case Statement::Kind::AnnotatedAssign: {
        std::string callee =
            s.value.kind == ValueKind::Call ? s.value.callee().qualified_name() : "";
        if (!s.subsymbols.empty() && callee.rfind("prims.", 0) != 0) {
          // A composite symbol runs as its decomposition.
          for (const Statement &sub : s.subsymbols)
            statement(sub);
          if (s.target)
            for (const Target *t : s.target->bound_names())
              if (!slots_.count(t->name))
                throw ExecError("the subsymbols of " + callee + " do not define " + t->name);
          return;
        }
        Step step;
        step.statement = &s;
        step.value = operand(s.value);
        if (s.target) step.target = target(*s.target);
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::Return: {
        Step step;
        step.statement = &s;
        step.is_return = true;
        if (s.has_value) step.value = operand(s.value);
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::Delete: {
        Step step;
        step.statement = &s;
        step.is_delete = true;
        std::vector<int> &list = out_.deleted_slots;
        step.deleted.begin = static_cast<uint32_t>(list.size());
        for (const Target &t : s.deleted)
          list.push_back(slot(t.name));
        step.deleted.end = static_cast<uint32_t>(list.size());
        out_.steps.push_back(std::move(step));
        return;
      }
      case Statement::Kind::Raw:
        throw ExecError("cannot execute a statement the model does not represent");
      default:
        return; // comments, annotations, blank lines
      }
    } catch (const ExecError &e) {
      throw ExecError(where(out_.name, s) + ": " + e.what());
    }
  }

  TargetSlots target(const Target &t) {
    TargetSlots out;
    if (t.kind == Target::Kind::Name) {
      if (t.name != "_") out.slot = slot(t.name);
      return out;
    }
    out.is_name = false;
    for (const Target &e : t.elements)
      out.elements.push_back(target(e));
    return out;
  }

  Operand operand(const Value &v) {
    Operand op;
    switch (v.kind) {
    case ValueKind::Name:
      if (!slots_.count(v.text) && (v.text == "int" || v.text == "float" || v.text == "bool")) {
        RtValue builtin;
        builtin.kind = RtValue::Kind::Builtin;
        builtin.text = v.text;
        op.constant = constant(std::move(builtin));
        return op;
      }
      op.kind = Operand::Kind::Slot;
      op.slot = slot(v.text);
      op.text = v.text;
      return op;
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Dict:
    case ValueKind::Slice: {
      op.kind = Operand::Kind::Collection;
      op.collection = runtime_kind(v.kind);
      std::vector<Operand> items;
      bool all_constant = true;
      for (const Value &item : v.items) {
        items.push_back(operand(item));
        all_constant = all_constant && items.back().kind == Operand::Kind::Constant;
      }
      if (!all_constant) {
        set_items(op, std::move(items));
        return op;
      }
      // Evaluated once, here. The items' constants are the last ones pooled (each item left one
      // there): they move into the collection, which takes their place.
      RtValue collection;
      collection.kind = op.collection;
      std::size_t first = out_.constants.size() - items.size();
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].constant != static_cast<int>(first + i))
          throw ExecError("internal error: the executor's constant pool is out of order");
        collection.items.push_back(std::move(out_.constants[first + i]));
      }
      out_.constants.resize(first);
      op.kind = Operand::Kind::Constant;
      op.constant = constant(std::move(collection));
      return op;
    }
    case ValueKind::Attribute:
      op.kind = Operand::Kind::Attribute;
      set_items(op, {operand(v.items[0])});
      op.text = v.text;
      return op;
    case ValueKind::Subscript:
      op.kind = Operand::Kind::Subscript;
      set_items(op, {operand(v.items[0]), operand(v.items[1])});
      return op;
    case ValueKind::Call: {
      std::string callee = v.callee().qualified_name();
      if (!v.keywords.empty())
        throw ExecError(callee + " with keyword arguments cannot be executed");
      if (callee.rfind("prims.", 0) != 0)
        throw ExecError(callee + " cannot be executed: only prims run directly (ltorch symbols "
                                 "run as their subsymbols)");
      op.kind = Operand::Kind::Call;
      op.text = callee.substr(6);
      if (auto it = binary_prims().find(op.text); it != binary_prims().end())
        op.binary = it->second;
      if (auto it = unary_prims().find(op.text); it != unary_prims().end()) op.unary = it->second;
      if (auto it = scalar_prims().find(op.text); it != scalar_prims().end())
        op.scalar = it->second;
      op.prim = prim_of(op.text);
      std::vector<Operand> args;
      for (std::size_t i = 0; i < v.positional_count(); ++i)
        args.push_back(operand(v.arg(i)));
      set_items(op, std::move(args));
      return op;
    }
    case ValueKind::Complex:
      throw ExecError("complex numbers are not supported");
    default:
      op.constant = constant(literal(v));
      return op;
    }
  }

  CompiledTrace out_;
  std::unordered_map<std::string, int> slots_;
};

// A prim's arguments, read where they are (slots, constants, or scratch values).
class Args {
public:
  Args(const RtValue *const *values, std::size_t n) : values_(values), n_(n) {}
  const RtValue &operator[](std::size_t i) const { return *values_[i]; }
  std::size_t size() const { return n_; }

private:
  const RtValue *const *values_;
  std::size_t n_;
};

class Executor {
public:
  explicit Executor(const ExecOptions &options) : options_(options) {}

  RtValue run(const CompiledTrace &trace, std::vector<RtValue> args) {
    constants_ = trace.constants.data();
    operands_ = trace.operands.data();
    slots_.assign(trace.slot_names.size(), RtValue{});
    defined_.assign(trace.slot_names.size(), 0);
    std::size_t next = 0;
    for (const auto &[kind, slot] : trace.parameters) {
      if (kind == ParamKind::VarArgs) {
        RtValue rest = RtValue::of_tuple({});
        while (next < args.size())
          rest.items.push_back(std::move(args[next++]));
        set(slot, std::move(rest));
      } else if (kind == ParamKind::VarKeywords) {
        RtValue d;
        d.kind = RtValue::Kind::Dict;
        set(slot, std::move(d));
      } else {
        if (next >= args.size())
          throw ExecError(trace.name + "() is missing the argument " +
                          trace.slot_names[static_cast<std::size_t>(slot)]);
        set(slot, std::move(args[next++]));
      }
    }
    if (next != args.size())
      throw ExecError(trace.name + "() got " + std::to_string(args.size()) + " arguments");
    for (const Step &step : trace.steps) {
      try {
        if (step.is_return) return step.statement->has_value ? eval(step.value) : RtValue{};
        if (step.is_delete) {
          for (uint32_t k = step.deleted.begin; k < step.deleted.end; ++k)
            defined_[static_cast<std::size_t>(trace.deleted_slots[k])] = 0;
          continue;
        }
        RtValue value = eval(step.value);
        for (uint32_t k = step.last_uses.begin; k < step.last_uses.end; ++k)
          slots_[static_cast<std::size_t>(trace.freed_slots[k])] = RtValue{};
        if (step.target) assign(*step.target, std::move(value));
      } catch (const ExecError &e) {
        throw ExecError(where(trace.name, *step.statement) + ": " + e.what());
      } catch (const c10::Error &e) {
        throw ExecError(where(trace.name, *step.statement) +
                        ": libtorch: " + e.what_without_backtrace());
      }
    }
    return RtValue{};
  }

private:
  void set(int slot, RtValue v) {
    slots_[static_cast<std::size_t>(slot)] = std::move(v);
    defined_[static_cast<std::size_t>(slot)] = 1;
  }

  void assign(const TargetSlots &t, RtValue v) {
    if (t.is_name) {
      if (t.slot >= 0) set(t.slot, std::move(v));
      return;
    }
    if (v.kind != RtValue::Kind::Tuple && v.kind != RtValue::Kind::List)
      throw ExecError("cannot unpack " + describe(v));
    if (v.items.size() != t.elements.size())
      throw ExecError("cannot unpack " + std::to_string(v.items.size()) + " values into " +
                      std::to_string(t.elements.size()) + " names");
    for (std::size_t i = 0; i < t.elements.size(); ++i)
      assign(t.elements[i], std::move(v.items[i]));
  }

  const Operand &item(const Operand &op, uint32_t i) const { return operands_[op.first_item + i]; }

  // A slot's value without copying it; anything else is evaluated into scratch.
  const RtValue &read(const Operand &op, RtValue &scratch) {
    if (op.kind == Operand::Kind::Slot) {
      if (!defined_[static_cast<std::size_t>(op.slot)])
        throw ExecError("name `" + op.text + "` is not defined");
      return slots_[static_cast<std::size_t>(op.slot)];
    }
    if (op.kind == Operand::Kind::Constant) return constants_[op.constant];
    scratch = eval(op);
    return scratch;
  }

  RtValue eval(const Operand &op) {
    switch (op.kind) {
    case Operand::Kind::Constant:
      return constants_[op.constant];
    case Operand::Kind::Slot:
      if (!defined_[static_cast<std::size_t>(op.slot)])
        throw ExecError("name `" + op.text + "` is not defined");
      return slots_[static_cast<std::size_t>(op.slot)];
    case Operand::Kind::Collection: {
      RtValue out;
      out.kind = op.collection;
      out.items.reserve(op.item_count);
      for (uint32_t i = 0; i < op.item_count; ++i)
        out.items.push_back(eval(item(op, i)));
      return out;
    }
    case Operand::Kind::Attribute: {
      RtValue base = eval(item(op, 0));
      if (base.kind == RtValue::Kind::Slice) {
        if (op.text == "start") return base.items[0];
        if (op.text == "stop") return base.items[1];
        if (op.text == "step") return base.items[2];
      }
      throw ExecError("attribute " + op.text + " of " + describe(base));
    }
    case Operand::Kind::Subscript: {
      RtValue base = eval(item(op, 0));
      RtValue index = eval(item(op, 1));
      if (base.kind == RtValue::Kind::Dict) {
        for (std::size_t i = 0; i + 1 < base.items.size(); i += 2)
          if (same_literal(base.items[i], index)) return base.items[i + 1];
        throw ExecError("key " + describe(index) + " is missing");
      }
      if ((base.kind == RtValue::Kind::Tuple || base.kind == RtValue::Kind::List) &&
          index.kind == RtValue::Kind::Int) {
        int64_t n = static_cast<int64_t>(base.items.size());
        int64_t i = index.integer < 0 ? index.integer + n : index.integer;
        if (i < 0 || i >= n)
          throw ExecError("index " + std::to_string(index.integer) + " out of range");
        return base.items[static_cast<std::size_t>(i)];
      }
      throw ExecError("cannot subscript " + describe(base));
    }
    case Operand::Kind::Call: {
      // Elementwise prims on tensors go straight to libtorch, reading the slots in place.
      if (op.unary && op.item_count == 1) {
        RtValue scratch;
        const RtValue &a = read(item(op, 0), scratch);
        if (a.kind == RtValue::Kind::Tensor) return RtValue::of_tensor(op.unary(a.tensor));
        const RtValue *one[] = {&a};
        return call_prim(op, Args(one, 1));
      }
      if (op.binary && op.item_count == 2) {
        RtValue scratch_a, scratch_b;
        const RtValue &a = read(item(op, 0), scratch_a);
        const RtValue &b = read(item(op, 1), scratch_b);
        if (a.kind == RtValue::Kind::Tensor && b.kind == RtValue::Kind::Tensor)
          return RtValue::of_tensor(op.binary(a.tensor, b.tensor));
        if (op.scalar && a.kind == RtValue::Kind::Tensor && is_number(b))
          return RtValue::of_tensor(op.scalar(a.tensor, as_scalar(b)));
        const RtValue *two[] = {&a, &b};
        return call_prim(op, Args(two, 2));
      }
      // Slots and constants are read in place; only computed operands are materialised.
      constexpr std::size_t kMaxArgs = 6;
      if (op.item_count > kMaxArgs)
        throw ExecError("prims." + op.text + " cannot take " + std::to_string(op.item_count) +
                        " arguments");
      RtValue scratch[kMaxArgs];
      const RtValue *values[kMaxArgs];
      for (uint32_t i = 0; i < op.item_count; ++i)
        values[i] = &read(item(op, i), scratch[i]);
      return call_prim(op, Args(values, op.item_count));
    }
    }
    throw ExecError("cannot evaluate this value");
  }

  at::Device device_of(const Args &args) const {
    for (std::size_t i = 0; i < args.size(); ++i)
      if (args[i].kind == RtValue::Kind::Tensor) return args[i].tensor.device();
    return at::kCPU;
  }

  void need(const Args &args, std::size_t n, const std::string &name) {
    if (args.size() != n)
      throw ExecError("prims." + name + " takes " + std::to_string(n) + " arguments, got " +
                      std::to_string(args.size()));
  }

  RtValue number_binary(const std::string &name, const RtValue &a, const RtValue &b) {
    bool floats = a.kind == RtValue::Kind::Float || b.kind == RtValue::Kind::Float;
    double x = as_double(a), y = as_double(b);
    int64_t i = a.integer, j = b.integer;
    if (name == "add") return floats ? RtValue::of_float(x + y) : RtValue::of_int(i + j);
    if (name == "sub") return floats ? RtValue::of_float(x - y) : RtValue::of_int(i - j);
    if (name == "mul") return floats ? RtValue::of_float(x * y) : RtValue::of_int(i * j);
    if (name == "div") {
      if (floats ? y == 0 : j == 0) throw ExecError("division by zero");
      return floats ? RtValue::of_float(x / y) : RtValue::of_int(i / j); // truncation, as Thunder
    }
    if (name == "fmod") {
      if (y == 0) throw ExecError("fmod by zero");
      return RtValue::of_float(std::fmod(x, y));
    }
    if (name == "pow") {
      if (floats || j < 0) return RtValue::of_float(std::pow(x, y));
      // Through a double, as before; out of range is an error, not llround's unspecified value.
      std::optional<int64_t> power = truncate_to_int64(std::round(std::pow(x, y)));
      if (!power) throw ExecError("integer overflow in pow");
      return RtValue::of_int(*power);
    }
    if (name == "lt") return RtValue::of_bool(floats ? x < y : i < j);
    if (name == "le") return RtValue::of_bool(floats ? x <= y : i <= j);
    if (name == "gt") return RtValue::of_bool(floats ? x > y : i > j);
    if (name == "ge") return RtValue::of_bool(floats ? x >= y : i >= j);
    if (name == "eq") return RtValue::of_bool(floats ? x == y : i == j);
    if (name == "ne") return RtValue::of_bool(floats ? x != y : i != j);
    if (name == "bitwise_and") {
      if (a.kind == RtValue::Kind::Bool && b.kind == RtValue::Kind::Bool)
        return RtValue::of_bool(a.boolean && b.boolean);
      return RtValue::of_int(i & j);
    }
    throw ExecError("prims." + name + " of two numbers is not supported");
  }

  // The prim is the operand's, found when the trace was compiled: a run compares no names.
  RtValue call_prim(const Operand &op, const Args &args) {
    const std::string &name = op.text;
    if (op.binary) {
      need(args, 2, name);
      if (is_number(args[0]) && is_number(args[1])) return number_binary(name, args[0], args[1]);
      if (op.scalar && args[0].kind == RtValue::Kind::Tensor && is_number(args[1]))
        return RtValue::of_tensor(op.scalar(args[0].tensor, as_scalar(args[1])));
      at::Device device = device_of(args);
      return RtValue::of_tensor(op.binary(as_tensor(args[0], device), as_tensor(args[1], device)));
    }
    if (op.unary) {
      need(args, 1, name);
      const RtValue &a = args[0];
      if (is_number(a)) {
        double x = as_double(a);
        if (name == "neg")
          return a.kind == RtValue::Kind::Float ? RtValue::of_float(-x)
                                                : RtValue::of_int(-a.integer);
        if (name == "signbit") return RtValue::of_bool(std::signbit(x));
        if (name == "floor") return RtValue::of_float(std::floor(x));
        if (name == "exp") return RtValue::of_float(std::exp(x));
        if (name == "tanh") return RtValue::of_float(std::tanh(x));
        if (name == "erf") return RtValue::of_float(std::erf(x));
        return RtValue::of_float(1.0 / std::sqrt(x));
      }
      return RtValue::of_tensor(op.unary(tensor_arg(a, "the input")));
    }
    switch (op.prim) {
    case Prim::Where: {
      need(args, 3, name);
      at::Device device = device_of(args);
      return RtValue::of_tensor(at::where(as_tensor(args[0], device), as_tensor(args[1], device),
                                          as_tensor(args[2], device)));
    }
    case Prim::ConvertElementType: {
      need(args, 2, name);
      const RtValue &a = args[0];
      const RtValue &to = args[1];
      if (to.kind == RtValue::Kind::DType)
        return RtValue::of_tensor(tensor_arg(a, "the input").to(scalar_type(to.text)));
      if (to.kind != RtValue::Kind::Builtin || !is_number(a))
        throw ExecError("convert_element_type of " + describe(a) + " to " + describe(to));
      if (to.text == "int") {
        if (a.kind != RtValue::Kind::Float) return RtValue::of_int(a.integer);
        std::optional<int64_t> truncated = truncate_to_int64(a.real);
        if (!truncated)
          throw ExecError("convert_element_type: " + python_float(a.real) +
                          " has no 64-bit integer value");
        return RtValue::of_int(*truncated);
      }
      if (to.text == "float") return RtValue::of_float(as_double(a));
      return RtValue::of_bool(as_double(a) != 0);
    }
    case Prim::BroadcastInDim: {
      need(args, 3, name);
      const at::Tensor &t = tensor_arg(args[0], "the input");
      IntList shape = int_list(args[1]);
      IntList dims = int_list(args[2]);
      if (dims.size() != static_cast<std::size_t>(t.dim()))
        throw ExecError("broadcast_in_dim: " + std::to_string(dims.size()) +
                        " broadcast dims for a tensor of rank " + std::to_string(t.dim()));
      IntList view(shape.size(), 1);
      for (std::size_t k = 0; k < dims.size(); ++k) {
        if (dims[k] < 0 || static_cast<std::size_t>(dims[k]) >= view.size())
          throw ExecError("broadcast_in_dim: dim " + std::to_string(dims[k]) +
                          " is out of range for a shape of rank " + std::to_string(view.size()));
        view[static_cast<std::size_t>(dims[k])] = t.size(static_cast<int64_t>(k));
      }
      // Only the libtorch calls that change something (each costs a dispatch): expand adds
      // leading dims itself, so trailing broadcast dims need no reshape.
      bool trailing = true;
      for (std::size_t k = 0; k < dims.size(); ++k)
        trailing = trailing && dims[k] == static_cast<int64_t>(shape.size() - dims.size() + k);
      at::Tensor viewed = trailing || t.sizes().equals(view) ? t : t.reshape(view);
      return RtValue::of_tensor(viewed.sizes().equals(shape) ? viewed : viewed.expand(shape));
    }
    case Prim::Reshape: {
      need(args, 2, name);
      return RtValue::of_tensor(tensor_arg(args[0], "the input").reshape(int_list(args[1])));
    }
    case Prim::Transpose: {
      need(args, 2, name);
      return RtValue::of_tensor(tensor_arg(args[0], "the input").permute(int_list(args[1])));
    }
    case Prim::Sum:
    case Prim::Amax: {
      need(args, 2, name);
      const at::Tensor &t = tensor_arg(args[0], "the input");
      IntList dims = int_list(args[1]);
      return RtValue::of_tensor(op.prim == Prim::Sum ? at::sum(t, dims) : at::amax(t, dims));
    }
    case Prim::Cat: {
      need(args, 2, name);
      std::vector<at::Tensor> tensors;
      for (const RtValue &t : args[0].items)
        tensors.push_back(tensor_arg(t, "each element"));
      return RtValue::of_tensor(at::cat(tensors, args[1].integer));
    }
    case Prim::Matmul: {
      need(args, 2, name);
      return RtValue::of_tensor(at::matmul(tensor_arg(args[0], "a"), tensor_arg(args[1], "b")));
    }
    case Prim::Linear: {
      need(args, 3, name);
      c10::optional<at::Tensor> bias;
      if (args[2].kind != RtValue::Kind::None) bias = tensor_arg(args[2], "the bias");
      return RtValue::of_tensor(
          at::linear(tensor_arg(args[0], "the input"), tensor_arg(args[1], "the weight"), bias));
    }
    case Prim::SlicePrim: {
      need(args, 4, name);
      at::Tensor t = tensor_arg(args[0], "the input");
      IntList starts = int_list(args[1]), ends = int_list(args[2]), strides = int_list(args[3]);
      if (starts.size() != static_cast<std::size_t>(t.dim()) || ends.size() != starts.size() ||
          strides.size() != starts.size())
        throw ExecError("slice_prim: index lists do not match the rank");
      for (std::size_t d = 0; d < starts.size(); ++d)
        t = t.slice(static_cast<int64_t>(d), starts[d], ends[d], strides[d]);
      return RtValue::of_tensor(t);
    }
    case Prim::Squeeze: {
      need(args, 2, name);
      at::Tensor t = tensor_arg(args[0], "the input");
      IntList dims = int_list(args[1]);
      for (auto it = dims.rbegin(); it != dims.rend(); ++it)
        t = t.squeeze(*it);
      return RtValue::of_tensor(t);
    }
    case Prim::Shape: {
      need(args, 1, name);
      const at::Tensor &t = tensor_arg(args[0], "the input");
      std::vector<RtValue> dims;
      for (int64_t d = 0; d < t.dim(); ++d)
        dims.push_back(RtValue::of_int(t.size(d)));
      return RtValue::of_tuple(std::move(dims));
    }
    case Prim::CheckLen: {
      need(args, 2, name);
      std::size_t n =
          args[0].kind == RtValue::Kind::Dict ? args[0].items.size() / 2 : args[0].items.size();
      if (static_cast<int64_t>(n) != args[1].integer)
        throw ExecError("check failed: length " + std::to_string(n) + ", expected " +
                        std::to_string(args[1].integer));
      return RtValue{};
    }
    case Prim::CheckTensorShapeAndMetadata: {
      need(args, 5, name);
      const at::Tensor &t = tensor_arg(args[0], "the input");
      IntList shape = int_list(args[1]);
      std::string device =
          t.device().is_cuda() ? "cuda:" + std::to_string(t.device().index()) : "cpu";
      std::string expected_device = args[2].text;
      if (options_.cuda_as_cpu && expected_device.rfind("cuda", 0) == 0) expected_device = "cpu";
      if (!t.sizes().equals(shape) || device != expected_device ||
          dtype_name(t.scalar_type()) != args[3].text)
        throw ExecError("check failed: got " + describe(args[0]) + " on " + device + ", expected " +
                        args[3].text + " of rank " + std::to_string(shape.size()) + " on " +
                        args[2].text);
      return RtValue{};
    }
    case Prim::CheckNumberType: {
      need(args, 2, name);
      if (!is_number(args[0]) || (args[1].text == "int" && args[0].kind == RtValue::Kind::Float) ||
          (args[1].text == "float" && args[0].kind != RtValue::Kind::Float))
        throw ExecError("check failed: " + describe(args[0]) + " is not " + args[1].text);
      return RtValue{};
    }
    case Prim::CheckNumberTypeAndValue: {
      need(args, 2, name);
      if (!is_number(args[0]) || args[0].kind != args[1].kind ||
          as_double(args[0]) != as_double(args[1]))
        throw ExecError("check failed: " + describe(args[0]) + ", the trace was specialised for " +
                        describe(args[1]));
      return RtValue{};
    }
    case Prim::CheckLiteralLike: {
      need(args, 2, name);
      if (!same_literal(args[0], args[1]))
        throw ExecError("check failed: " + describe(args[0]) + ", the trace was specialised for " +
                        describe(args[1]));
      return RtValue{};
    }
    case Prim::Unsupported:
      break;
    }
    throw ExecError("prims." + name + " is not supported by the executor");
  }

  ExecOptions options_;
  const RtValue *constants_ = nullptr; // the running trace's
  const Operand *operands_ = nullptr;  // the running trace's
  std::vector<RtValue> slots_;
  std::vector<char> defined_;
};

// ---- eager -------------------------------------------------------------------------------

struct EagerTensor : TensorData {
  at::Tensor tensor;
  explicit EagerTensor(at::Tensor t) : tensor(std::move(t)) {}
};

Obj wrap(at::Tensor t) {
  Obj o;
  o.kind = Obj::Kind::Tensor;
  o.dtype = dtype_name(t.scalar_type());
  o.device = t.device().is_cuda() ? "cuda:" + std::to_string(t.device().index()) : "cpu";
  for (int64_t d = 0; d < t.dim(); ++d)
    o.shape.push_back(Obj::int_of(t.size(d)));
  o.data = std::make_shared<EagerTensor>(std::move(t));
  return o;
}

const at::Tensor &unwrap(const Obj &o) {
  return static_cast<const EagerTensor &>(*o.data).tensor;
}

at::Tensor eager_operand(const Obj &o, const at::Device &device) {
  if (o.kind == Obj::Kind::Tensor) return unwrap(o);
  RtValue v;
  if (o.kind == Obj::Kind::Float)
    v = RtValue::of_float(o.real);
  else if (o.kind == Obj::Kind::Bool)
    v = RtValue::of_bool(o.boolean);
  else
    v = RtValue::of_int(o.integer);
  return as_tensor(v, device);
}

std::vector<int64_t> ints(const Obj &seq) {
  std::vector<int64_t> out;
  for (const Obj &o : seq.items)
    out.push_back(o.integer);
  return out;
}

class Eager : public Backend {
public:
  Obj tensor_op(const std::string &op, const std::vector<Obj> &args, const Loc &loc) override {
    try {
      return wrap(run(op, args));
    } catch (const c10::Error &e) {
      throw TraceError(loc, "libtorch (eager `" + op + "`): " + e.what_without_backtrace());
    }
  }
  Obj number_op(const std::string &, const std::vector<Obj> &, Obj result, const Loc &) override {
    return result;
  }
  void guard(const Obj &, const Loc &) override {}

private:
  at::Tensor run(const std::string &op, const std::vector<Obj> &args) {
    const Obj &a = args[0];
    at::Device device = a.kind == Obj::Kind::Tensor ? unwrap(a).device()
                        : args.size() > 1 && args[1].kind == Obj::Kind::Tensor
                            ? unwrap(args[1]).device()
                            : at::Device(at::kCPU);
    if (op == "add") return at::add(eager_operand(a, device), eager_operand(args[1], device));
    if (op == "sub") return at::sub(eager_operand(a, device), eager_operand(args[1], device));
    if (op == "mul") return at::mul(eager_operand(a, device), eager_operand(args[1], device));
    if (op == "div") return at::div(eager_operand(a, device), eager_operand(args[1], device));
    if (op == "pow") return at::pow(eager_operand(a, device), eager_operand(args[1], device));
    if (op == "cat") {
      std::vector<at::Tensor> tensors;
      for (const Obj &t : a.items)
        tensors.push_back(unwrap(t));
      return at::cat(tensors, args[1].integer);
    }
    const at::Tensor &x = unwrap(a); // every other op's first argument is a tensor
    if (op == "neg") return at::neg(x);
    if (op == "exp") return at::exp(x);
    if (op == "tanh") return at::tanh(x);
    if (op == "rsqrt") return at::rsqrt(x);
    if (op == "relu") return at::relu(x);
    if (op == "silu") return at::silu(x);
    if (op == "sigmoid") return at::sigmoid(x);
    if (op == "gelu") return at::gelu(x, args[1].text);
    if (op == "softmax") return at::softmax(x, args[1].integer);
    if (op == "sum" || op == "mean" || op == "amax") {
      std::vector<int64_t> dims;
      if (args[1].kind == Obj::Kind::None || args[1].items.empty())
        for (int64_t d = 0; d < x.dim(); ++d)
          dims.push_back(d);
      else
        dims = ints(args[1]);
      bool keepdim = args[2].boolean;
      if (op == "sum") return at::sum(x, dims, keepdim);
      if (op == "mean") return at::mean(x, dims, keepdim);
      return at::amax(x, dims, keepdim);
    }
    if (op == "reshape") return x.reshape(ints(args[1]));
    if (op == "view") return x.view(ints(args[1]));
    if (op == "transpose") return x.transpose(args[1].integer, args[2].integer);
    if (op == "permute") return x.permute(ints(args[1]));
    if (op == "unsqueeze") return x.unsqueeze(args[1].integer);
    if (op == "matmul") return at::matmul(x, unwrap(args[1]));
    if (op == "linear") {
      c10::optional<at::Tensor> bias;
      if (args[2].kind == Obj::Kind::Tensor) bias = unwrap(args[2]);
      return at::linear(x, unwrap(args[1]), bias);
    }
    if (op == "getitem") {
      const Obj &key = args[1];
      std::vector<Obj> entries = key.kind == Obj::Kind::Tuple ? key.items : std::vector<Obj>{key};
      std::vector<at::indexing::TensorIndex> index;
      for (const Obj &e : entries) {
        switch (e.kind) {
        case Obj::Kind::Int:
          index.emplace_back(e.integer);
          break;
        case Obj::Kind::None:
          index.emplace_back(at::indexing::None);
          break;
        case Obj::Kind::Ellipsis:
          index.emplace_back(at::indexing::Ellipsis);
          break;
        case Obj::Kind::Slice: {
          auto part = [](const Obj &p) -> c10::optional<int64_t> {
            if (p.kind == Obj::Kind::None) return c10::nullopt;
            return p.integer;
          };
          index.emplace_back(
              at::indexing::Slice(part(e.items[0]), part(e.items[1]), part(e.items[2])));
          break;
        }
        default:
          throw std::runtime_error("unsupported index");
        }
      }
      return x.index(index);
    }
    throw std::runtime_error("no eager rule for " + op);
  }
};

Obj to_obj(const RtValue &v) {
  switch (v.kind) {
  case RtValue::Kind::Tensor:
    return wrap(v.tensor);
  case RtValue::Kind::Int:
    return Obj::int_of(v.integer);
  case RtValue::Kind::Float:
    return Obj::float_of(v.real);
  case RtValue::Kind::Bool:
    return Obj::boolean_of(v.boolean);
  case RtValue::Kind::None:
    return Obj::none();
  case RtValue::Kind::Ellipsis:
    return Obj::ellipsis();
  case RtValue::Kind::Str:
    return Obj::str(v.text);
  case RtValue::Kind::DType:
    return Obj::dtype_of(v.text);
  case RtValue::Kind::Device:
    return Obj::device_of(v.text);
  default: {
    Obj o;
    o.kind = object_kind(v.kind);
    for (const RtValue &item : v.items)
      o.items.push_back(to_obj(item));
    return o;
  }
  }
}

RtValue from_obj(const Obj &o) {
  RtValue v;
  switch (o.kind) {
  case Obj::Kind::Tensor:
    return RtValue::of_tensor(unwrap(o));
  case Obj::Kind::Int:
    return RtValue::of_int(o.integer);
  case Obj::Kind::Float:
    return RtValue::of_float(o.real);
  case Obj::Kind::Bool:
    return RtValue::of_bool(o.boolean);
  case Obj::Kind::None:
    return v;
  case Obj::Kind::Ellipsis:
    v.kind = RtValue::Kind::Ellipsis;
    return v;
  case Obj::Kind::Str:
  case Obj::Kind::DType:
  case Obj::Kind::Device:
    v.kind = runtime_kind(o.kind);
    v.text = o.text;
    return v;
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Dict:
  case Obj::Kind::Slice:
    v.kind = runtime_kind(o.kind);
    for (const Obj &item : o.items)
      v.items.push_back(from_obj(item));
    return v;
  default:
    throw ExecError("the function returned " + o.describe() + ", which is not a value");
  }
}

// Elements compared at a time (see RunMemoryEstimate: what comparing holds is bounded by it).
constexpr int64_t kCompareSlice = int64_t{1} << 20;

void compare_into(const RtValue &e, const RtValue &a, const std::string &where, Comparison &c) {
  if (!c.equal) return;
  auto fail = [&](const std::string &why) {
    c.equal = false;
    c.mismatch = (where.empty() ? "the result" : where) + ": " + why;
  };
  if (e.kind == RtValue::Kind::Tensor || a.kind == RtValue::Kind::Tensor) {
    if (e.kind != a.kind) return fail("expected " + describe(e) + ", got " + describe(a));
    if (e.tensor.sizes() != a.tensor.sizes() || e.tensor.scalar_type() != a.tensor.scalar_type())
      return fail("expected " + describe(e) + ", got " + describe(a));
    at::Tensor x = e.tensor.cpu(), y = a.tensor.cpu();
    if (at::isFloatingType(x.scalar_type())) {
      bool low = x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
      double rtol = low ? 1e-2 : x.scalar_type() == at::kDouble ? 1e-7 : 1e-4;
      double atol = low ? 1e-2 : x.scalar_type() == at::kDouble ? 1e-9 : 1e-5;
      // Slice by slice: the whole tensors in double and allclose's temporaries held about
      // eight times the result, most of a run's memory.
      at::Tensor flat_x = x.reshape({-1}), flat_y = y.reshape({-1});
      bool close = true;
      for (int64_t start = 0; start < flat_x.numel(); start += kCompareSlice) {
        int64_t length = std::min(kCompareSlice, flat_x.numel() - start);
        at::Tensor sx = flat_x.narrow(0, start, length), sy = flat_y.narrow(0, start, length);
        c.max_abs_diff = std::max(
            c.max_abs_diff, (sx.to(at::kDouble) - sy.to(at::kDouble)).abs().max().item<double>());
        close = close && at::allclose(sx, sy, rtol, atol, /*equal_nan=*/true);
      }
      if (!close) return fail("values differ (max abs diff " + python_float(c.max_abs_diff) + ")");
    } else if (!at::equal(x, y)) {
      return fail("values differ");
    }
    return;
  }
  if (is_number(e) && is_number(a)) {
    if (e.kind != a.kind) return fail("expected " + describe(e) + ", got " + describe(a));
    if (e.kind == RtValue::Kind::Float ? std::fabs(e.real - a.real) > 1e-9 * (1 + std::fabs(e.real))
                                       : e.integer != a.integer)
      return fail("expected " + describe(e) + ", got " + describe(a));
    return;
  }
  if (e.kind != a.kind || e.items.size() != a.items.size())
    return fail("expected " + describe(e) + ", got " + describe(a));
  if (!e.items.empty()) {
    for (std::size_t i = 0; i < e.items.size(); ++i)
      compare_into(e.items[i], a.items[i], where + "[" + std::to_string(i) + "]", c);
    return;
  }
  if (!same_literal(e, a) && e.kind != RtValue::Kind::Tuple && e.kind != RtValue::Kind::List &&
      e.kind != RtValue::Kind::Dict)
    fail("expected " + describe(e) + ", got " + describe(a));
}

} // namespace

struct CompiledProgram::Impl {
  TraceFile source; // the steps point into it
  std::vector<CompiledTrace> traces;
  ExecOptions options;
};

CompiledProgram::CompiledProgram(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledProgram::CompiledProgram(CompiledProgram &&) noexcept = default;
CompiledProgram &CompiledProgram::operator=(CompiledProgram &&) noexcept = default;
CompiledProgram::~CompiledProgram() = default;

Result<CompiledProgram> CompiledProgram::compile(TraceFile file, const ExecOptions &options) {
  if (file.traces.empty() || file.traces.size() > 2)
    return Error{"expected a computation, or a prologue and a computation; got " +
                     std::to_string(file.traces.size()) + " traces",
                 "", 0, 0};
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->source = std::move(file);
  try {
    for (const Trace &t : impl->source.traces)
      impl->traces.push_back(Compiler().compile(t));
  } catch (const ExecError &e) {
    return Error{e.what(), "", 0, 0};
  }
  return CompiledProgram(std::move(impl));
}

Result<RtValue> CompiledProgram::run(std::vector<RtValue> inputs) const {
  try {
    Executor executor(impl_->options);
    if (impl_->traces.size() == 1) return executor.run(impl_->traces[0], std::move(inputs));
    RtValue unpacked = executor.run(impl_->traces[0], std::move(inputs));
    if (unpacked.kind != RtValue::Kind::Tuple || unpacked.items.empty() ||
        unpacked.items[0].kind != RtValue::Kind::Tuple)
      return Error{"the prologue must return ((computation inputs...), ...)", "", 0, 0};
    return executor.run(impl_->traces[1], std::move(unpacked.items[0].items));
  } catch (const ExecError &e) {
    return Error{e.what(), "", 0, 0};
  } catch (const c10::Error &e) {
    return Error{std::string("libtorch: ") + e.what_without_backtrace(), "", 0, 0};
  }
}

Result<RtValue> execute_trace(const Trace &trace, std::vector<RtValue> args,
                              const ExecOptions &options) {
  TraceFile single;
  single.traces.push_back(trace);
  Result<CompiledProgram> compiled = CompiledProgram::compile(std::move(single), options);
  if (!compiled) return compiled.error();
  return compiled->run(std::move(args));
}

Result<RtValue> execute_program(const TraceFile &file, const std::vector<RtValue> &inputs,
                                const ExecOptions &options) {
  if (file.traces.size() != 2)
    return Error{"expected a prologue and a computation, got " +
                     std::to_string(file.traces.size()) + " traces",
                 "", 0, 0};
  Result<CompiledProgram> compiled = CompiledProgram::compile(file, options);
  if (!compiled) return compiled.error();
  return compiled->run(inputs);
}

Result<RtValue> run_eager(const TraceRequest &request, const std::vector<RtValue> &inputs) {
  Result<Module> module = parse_module(request.path, request.source);
  if (!module) return module.error();
  auto fn = module->functions.find(request.function);
  if (fn == module->functions.end())
    return Error{"no function `" + request.function + "`", request.path, 0, 0};
  try {
    std::vector<Obj> args;
    std::size_t next = 0;
    for (const auto &p : fn->second.params) {
      bool given = std::any_of(request.args.begin(), request.args.end(),
                               [&](const ArgSpec &a) { return a.name == p.name; });
      if (given) {
        if (next >= inputs.size()) return Error{"fewer inputs than --args", "", 0, 0};
        args.push_back(to_obj(inputs[next++]));
      } else if (p.default_value) {
        args.push_back(literal_object(module.value(), *p.default_value));
      } else {
        return Error{"missing --arg for `" + p.name + "`", request.path, p.loc.line, p.loc.column};
      }
    }
    Eager eager;
    return from_obj(interpret(module.value(), request.function, args, eager));
  } catch (const TraceError &e) {
    return Error{e.what(), request.path, e.loc.line, e.loc.column};
  } catch (const ExecError &e) {
    return Error{e.what(), request.path, 0, 0};
  } catch (const c10::Error &e) {
    return Error{std::string("libtorch: ") + e.what_without_backtrace(), request.path, 0, 0};
  }
}

std::vector<RtValue> make_inputs(const std::vector<InputSpec> &specs, uint64_t seed,
                                 const std::string &device) {
  at::manual_seed(seed);
  std::vector<RtValue> out;
  for (const InputSpec &spec : specs) {
    if (spec.kind == InputSpec::Kind::Literal) {
      out.push_back(literal(spec.literal));
      continue;
    }
    at::ScalarType type = scalar_type(spec.dtype);
    at::Tensor t;
    if (at::isFloatingType(type))
      t = at::randn(spec.shape, at::TensorOptions().dtype(at::kFloat)).to(type);
    else if (type == at::kBool)
      t = at::randint(0, 2, spec.shape, at::TensorOptions().dtype(at::kLong)).to(at::kBool);
    else
      t = at::randint(-8, 9, spec.shape, at::TensorOptions().dtype(at::kLong)).to(type);
    if (device != "cpu" && spec.device != "cpu") t = t.to(at::Device(spec.device));
    out.push_back(RtValue::of_tensor(t));
  }
  return out;
}

Comparison compare(const RtValue &expected, const RtValue &actual) {
  Comparison c;
  compare_into(expected, actual, "", c);
  return c;
}

Result<RunReport> run_and_compare(const TraceRequest &request, const TracedProgram &program,
                                  const RunOptions &options) {
  if (std::optional<Error> too_large =
          run_memory_error(program, options.max_memory, "RunOptions::max_memory"))
    return *too_large;
  RunReport report;
  bool wants_cuda =
      std::any_of(program.inputs.begin(), program.inputs.end(), [](const InputSpec &s) {
        return s.kind == InputSpec::Kind::Tensor && s.device != "cpu";
      });
  bool have_cuda = at::hasCUDA() && at::getNumGPUs() > 0;
  ExecOptions exec;
  if (wants_cuda && !have_cuda) {
    exec.cuda_as_cpu = true;
    report.notice =
        "note: no CUDA in this libtorch or no GPU: running on cpu; the traces keep their "
        "cuda annotations";
  }
  report.device = wants_cuda && have_cuda ? "cuda:0" : "cpu";
  std::string device = wants_cuda && have_cuda ? "cuda" : "cpu";

  std::vector<RtValue> inputs;
  try {
    inputs = make_inputs(program.inputs, options.seed, device);
  } catch (const c10::Error &e) {
    return Error{std::string("creating the random inputs: libtorch: ") + e.what_without_backtrace(),
                 request.path, 0, 0};
  } catch (const std::bad_alloc &) {
    return Error{"creating the random inputs: out of memory (are the shapes what you meant?)",
                 request.path, 0, 0};
  }
  Result<RtValue> expected = run_eager(request, inputs);
  if (!expected)
    return Error{"eager run: " + expected.error().message, expected.error().path,
                 expected.error().line, expected.error().column};
  Result<RtValue> traced = execute_program(program.file, inputs, exec);
  if (!traced) return Error{"running the trace: " + traced.error().message, request.path, 0, 0};
  report.from_model = compare(expected.value(), traced.value());

  std::string printed = print_trace_file(program.file);
  Result<TraceFile> reparsed = parse_trace(printed);
  if (!reparsed)
    return Error{"the printed trace does not parse back: " + reparsed.error().message +
                     " at line " + std::to_string(reparsed.error().line),
                 request.path, 0, 0};
  Result<RtValue> again = execute_program(reparsed.value(), inputs, exec);
  if (!again)
    return Error{"running the printed trace: " + again.error().message, request.path, 0, 0};
  report.from_printed = compare(expected.value(), again.value());
  return report;
}

} // namespace tracelint::tracer
