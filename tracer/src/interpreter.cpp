#include "tracelint/tracer/interpreter.hpp"

#include "excerpt.hpp"
#include "frontend.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tracelint::tracer {

// ---- Obj ---------------------------------------------------------------------------------

Obj Obj::none() {
  return Obj{};
}
Obj Obj::ellipsis() {
  Obj o;
  o.kind = Kind::Ellipsis;
  return o;
}
Obj Obj::boolean_of(bool b) {
  Obj o;
  o.kind = Kind::Bool;
  o.boolean = b;
  o.integer = b;
  return o;
}
Obj Obj::int_of(int64_t i) {
  Obj o;
  o.kind = Kind::Int;
  o.integer = i;
  return o;
}
Obj Obj::float_of(double d) {
  Obj o;
  o.kind = Kind::Float;
  o.real = d;
  return o;
}
Obj Obj::str(std::string s) {
  Obj o;
  o.kind = Kind::Str;
  o.text = std::move(s);
  return o;
}
Obj Obj::tuple(std::vector<Obj> items) {
  Obj o;
  o.kind = Kind::Tuple;
  o.items = std::move(items);
  return o;
}
Obj Obj::list(std::vector<Obj> items) {
  Obj o;
  o.kind = Kind::List;
  o.items = std::move(items);
  return o;
}
Obj Obj::slice(Obj start, Obj stop, Obj step) {
  Obj o;
  o.kind = Kind::Slice;
  o.items = {std::move(start), std::move(stop), std::move(step)};
  return o;
}
Obj Obj::dtype_of(std::string torch_name) {
  Obj o;
  o.kind = Kind::DType;
  o.text = std::move(torch_name);
  return o;
}
Obj Obj::device_of(std::string spec) {
  Obj o;
  o.kind = Kind::Device;
  o.text = std::move(spec);
  return o;
}

double Obj::as_double() const {
  switch (kind) {
  case Kind::Bool:
    return boolean ? 1.0 : 0.0;
  case Kind::Int:
    return static_cast<double>(integer);
  case Kind::Float:
    return real;
  default:
    return 0.0;
  }
}

namespace {

const std::vector<std::pair<std::string, std::string>> kDtypes = {
    {"float32", "f32"}, {"float16", "f16"}, {"bfloat16", "bf16"}, {"float64", "f64"},
    {"int64", "i64"},   {"int32", "i32"},   {"int16", "i16"},     {"int8", "i8"},
    {"uint8", "u8"},    {"bool", "b8"},     {"complex64", "c64"}, {"complex128", "c128"}};

const std::map<std::string, std::string> kDtypeAliases = {
    {"float", "float32"}, {"half", "float16"}, {"double", "float64"},
    {"long", "int64"},    {"int", "int32"},    {"short", "int16"}};

} // namespace

std::string short_dtype(const std::string &torch_name) {
  for (const auto &[name, brief] : kDtypes)
    if (name == torch_name) return brief;
  return torch_name;
}

std::string torch_dtype(const std::string &short_or_torch) {
  for (const auto &[name, brief] : kDtypes)
    if (name == short_or_torch || brief == short_or_torch) return name;
  auto alias = kDtypeAliases.find(short_or_torch);
  return alias == kDtypeAliases.end() ? "" : alias->second;
}

bool is_floating(const std::string &dtype) {
  return dtype == "float32" || dtype == "float16" || dtype == "bfloat16" || dtype == "float64";
}

std::string Obj::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Ellipsis:
    return "Ellipsis";
  case Kind::Bool:
    return "bool";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::Str:
    return "str";
  case Kind::Tuple:
    return "tuple";
  case Kind::List:
    return "list";
  case Kind::Dict:
    return "dict";
  case Kind::Slice:
    return "slice";
  case Kind::Tensor: {
    std::string out = "tensor " + short_dtype(dtype) + "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
      out += (i ? ", " : "") + std::to_string(shape[i].integer);
    return out + "]";
  }
  case Kind::DType:
    return "dtype";
  case Kind::Device:
    return "device";
  case Kind::Module:
    return "module or function `" + excerpt(text) + "`";
  case Kind::Function:
    return "function `" + excerpt(text) + "`";
  case Kind::Method:
    return "method `" + excerpt(text) + "`";
  case Kind::Builtin:
    return "builtin `" + text + "`";
  }
  return "object";
}

Value to_value(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::None:
    return Value::none();
  case Obj::Kind::Ellipsis:
    return Value::ellipsis();
  case Obj::Kind::Bool:
    return o.proxy.empty() ? Value::boolean_value(o.boolean) : Value::name(o.proxy);
  case Obj::Kind::Int:
    return o.proxy.empty() ? Value::int_value(o.integer) : Value::name(o.proxy);
  case Obj::Kind::Float:
    return o.proxy.empty() ? Value::float_value(o.real) : Value::name(o.proxy);
  case Obj::Kind::Str:
    return Value::string(o.text);
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    std::vector<Value> items;
    for (const Obj &item : o.items)
      items.push_back(to_value(item));
    return o.kind == Obj::Kind::Tuple ? Value::tuple(std::move(items))
                                      : Value::list(std::move(items));
  }
  case Obj::Kind::Dict: {
    std::vector<std::pair<Value, Value>> entries;
    for (std::size_t i = 0; i + 1 < o.items.size(); i += 2)
      entries.emplace_back(to_value(o.items[i]), to_value(o.items[i + 1]));
    return Value::dict(std::move(entries));
  }
  case Obj::Kind::Slice:
    return Value::slice(to_value(o.items[0]), to_value(o.items[1]), to_value(o.items[2]));
  case Obj::Kind::Tensor:
    return Value::name(o.proxy);
  case Obj::Kind::DType:
    return Value::dtype(o.text);
  case Obj::Kind::Device:
    return Value::device(o.text);
  case Obj::Kind::Module:
    return Value::dotted(o.text);
  case Obj::Kind::Function:
  case Obj::Kind::Builtin:
    return Value::name(o.text);
  case Obj::Kind::Method:
    return Value::attribute(to_value(o.items.at(0)), o.text);
  }
  return Value::none();
}

// ---- the interpreter ----------------------------------------------------------------------

namespace {

constexpr int kMaxCallDepth = 64;
constexpr int64_t kMaxSteps = 2'000'000; // statements and loop iterations, all calls together

// A torch function or Tensor method: its normalised op and its parameters after `input`.
struct Param {
  std::string name;
  std::optional<Obj> default_value; // nullopt: required
};
struct OpSpec {
  std::string op;
  std::vector<Param> params; // the first is the input (self for methods)
  bool varargs = false;      // the last parameter collects extra positionals (x.view(2, 3))
};

Param req(std::string n) {
  return Param{std::move(n), std::nullopt};
}
Param opt(std::string n, Obj d) {
  return Param{std::move(n), std::move(d)};
}

const std::map<std::string, OpSpec> &op_specs() {
  static const std::map<std::string, OpSpec> specs = [] {
    std::map<std::string, OpSpec> m;
    auto unary = [&](const std::string &op) { m[op] = OpSpec{op, {req("input")}, false}; };
    for (const char *op : {"exp", "tanh", "rsqrt", "relu", "silu", "sigmoid", "neg"})
      unary(op);
    for (const char *op : {"add", "sub", "mul", "div", "pow", "matmul"})
      m[op] = OpSpec{op, {req("input"), req("other")}, false};
    m["gelu"] = OpSpec{"gelu", {req("input"), opt("approximate", Obj::str("none"))}, false};
    m["softmax"] = OpSpec{"softmax", {req("input"), req("dim"), opt("dtype", Obj::none())}, false};
    for (const char *op : {"sum", "mean", "amax"})
      m[op] =
          OpSpec{op,
                 {req("input"), opt("dim", Obj::none()), opt("keepdim", Obj::boolean_of(false))},
                 false};
    m["reshape"] = OpSpec{"reshape", {req("input"), req("shape")}, true};
    m["view"] = OpSpec{"view", {req("input"), req("size")}, true};
    m["permute"] = OpSpec{"permute", {req("input"), req("dims")}, true};
    m["transpose"] = OpSpec{"transpose", {req("input"), req("dim0"), req("dim1")}, false};
    m["unsqueeze"] = OpSpec{"unsqueeze", {req("input"), req("dim")}, false};
    m["cat"] = OpSpec{"cat", {req("tensors"), opt("dim", Obj::int_of(0))}, false};
    m["linear"] = OpSpec{"linear", {req("input"), req("weight"), opt("bias", Obj::none())}, false};
    return m;
  }();
  return specs;
}

// torch.X, torch.nn.functional.X and Tensor.X names the subset knows, by their op.
const std::map<std::string, std::string> &torch_functions() {
  static const std::map<std::string, std::string> names = {
      {"torch.exp", "exp"},
      {"torch.tanh", "tanh"},
      {"torch.rsqrt", "rsqrt"},
      {"torch.relu", "relu"},
      {"torch.sigmoid", "sigmoid"},
      {"torch.neg", "neg"},
      {"torch.add", "add"},
      {"torch.sub", "sub"},
      {"torch.mul", "mul"},
      {"torch.div", "div"},
      {"torch.pow", "pow"},
      {"torch.matmul", "matmul"},
      {"torch.softmax", "softmax"},
      {"torch.sum", "sum"},
      {"torch.mean", "mean"},
      {"torch.amax", "amax"},
      {"torch.reshape", "reshape"},
      {"torch.permute", "permute"},
      {"torch.transpose", "transpose"},
      {"torch.unsqueeze", "unsqueeze"},
      {"torch.cat", "cat"},
      {"torch.nn.functional.silu", "silu"},
      {"torch.nn.functional.gelu", "gelu"},
      {"torch.nn.functional.relu", "relu"},
      {"torch.nn.functional.softmax", "softmax"},
      {"torch.nn.functional.linear", "linear"},
      {"torch.nn.functional.sigmoid", "sigmoid"},
      {"torch.sigmoid", "sigmoid"}};
  return names;
}

const std::set<std::string> &tensor_methods() {
  static const std::set<std::string> names = {
      "exp",  "tanh", "rsqrt",   "relu", "sigmoid", "neg",       "add",
      "sub",  "mul",  "div",     "pow",  "matmul",  "softmax",   "sum",
      "mean", "amax", "reshape", "view", "permute", "transpose", "unsqueeze"};
  return names;
}

const std::set<std::string> &builtins() {
  static const std::set<std::string> names = {"len", "range", "int",   "float", "min",
                                              "max", "abs",   "tuple", "list",  "bool"};
  return names;
}

std::string op_symbol(const std::string &op) {
  static const std::map<std::string, std::string> symbols = {
      {"add", "+"}, {"sub", "-"},  {"mul", "*"}, {"truediv", "/"}, {"floordiv", "//"},
      {"mod", "%"}, {"pow", "**"}, {"lt", "<"},  {"le", "<="},     {"gt", ">"},
      {"ge", ">="}, {"eq", "=="},  {"ne", "!="}, {"neg", "-"}};
  auto it = symbols.find(op);
  return it == symbols.end() ? op : it->second;
}

struct Frame {
  std::map<std::string, Obj> locals;
  bool returned = false;
  Obj result;
};

class Interpreter {
public:
  Interpreter(const Module &module, Backend &backend) : module_(module), backend_(backend) {}

  Obj call_function(const std::string &name, std::vector<Obj> args,
                    std::vector<std::pair<std::string, Obj>> kwargs, const Loc &loc) {
    auto it = module_.functions.find(name);
    if (it == module_.functions.end())
      throw TraceError(loc, "no function `" + excerpt(name) + "` in " + module_.path);
    const Function &f = it->second;
    if (++depth_ > kMaxCallDepth)
      throw TraceError(loc, "calls nest deeper than " + std::to_string(kMaxCallDepth) +
                                " (recursion is not traced)");
    Frame frame;
    if (args.size() > f.params.size())
      throw TraceError(loc, "`" + excerpt(name) + "` takes " + std::to_string(f.params.size()) +
                                " arguments, got " + std::to_string(args.size()));
    for (std::size_t i = 0; i < args.size(); ++i)
      frame.locals[f.params[i].name] = std::move(args[i]);
    for (auto &[key, value] : kwargs) {
      bool known = false;
      for (const auto &p : f.params)
        known = known || p.name == key;
      if (!known)
        throw TraceError(loc, "`" + excerpt(name) + "` has no parameter `" + excerpt(key) + "`");
      if (frame.locals.count(key))
        throw TraceError(loc, "`" + excerpt(name) + "` got two values for `" + excerpt(key) + "`");
      frame.locals[key] = std::move(value);
    }
    for (const auto &p : f.params) {
      if (frame.locals.count(p.name)) continue;
      if (!p.default_value)
        throw TraceError(loc, "`" + excerpt(name) + "` is missing the argument `" +
                                  excerpt(p.name) + "`");
      frame.locals[p.name] = eval(*p.default_value, frame);
    }
    run_block(f.body, frame);
    for (std::size_t i = 0; f.rest && i < f.rest->size() && !frame.returned; ++i)
      run_block(f.rest->chunk(i), frame);
    --depth_;
    return frame.returned ? frame.result : Obj::none();
  }

private:
  void step(const Loc &loc) { charge(1, loc); }
  void charge(int64_t work, const Loc &loc) {
    steps_ += work;
    if (steps_ > kMaxSteps)
      throw TraceError(loc, "the function runs more than " + std::to_string(kMaxSteps) +
                                " steps; the tracer stops here");
  }
  // Reading a collection copies it: the copy counts as steps, one per object in it, so that
  // building values from themselves (t = (t,) or t = t + t in a loop, quadratic or exponential
  // in time and memory) stops at the step limit.
  void charge_copy(const Obj &value, const Loc &loc) {
    if (!value.items.empty()) charge(object_count(value, kMaxSteps + 1), loc);
  }
  // The objects in o at every depth, counted up to `limit` (without recursion: values nest).
  static int64_t object_count(const Obj &o, int64_t limit) {
    int64_t n = 0;
    std::vector<const Obj *> pending{&o};
    while (!pending.empty() && n < limit) {
      const Obj *next = pending.back();
      pending.pop_back();
      ++n;
      for (const Obj &item : next->items)
        pending.push_back(&item);
    }
    return n;
  }

  void run_block(const std::vector<Stmt> &block, Frame &frame) {
    for (const Stmt &s : block) {
      if (frame.returned) return;
      run(s, frame);
    }
  }

  void run(const Stmt &s, Frame &frame) {
    step(s.loc);
    switch (s.kind) {
    case Stmt::Kind::Pass:
      return;
    case Stmt::Kind::Expr:
      backend_.at_statement(s);
      eval(s.value, frame);
      return;
    case Stmt::Kind::Assign: {
      backend_.at_statement(s);
      Obj value = eval(s.value, frame);
      // `a = b = x`: each target in turn; the last takes the value itself.
      for (std::size_t i = 0; i < s.targets.size(); ++i)
        assign(s.targets[i], i + 1 < s.targets.size() ? value : std::move(value), frame);
      return;
    }
    case Stmt::Kind::AugAssign: {
      backend_.at_statement(s);
      Obj left = lookup(s.targets[0], frame);
      Obj right = eval(s.value, frame);
      assign(s.targets[0], binary(s.op, std::move(left), std::move(right), s.loc), frame);
      return;
    }
    case Stmt::Kind::Return:
      backend_.at_statement(s);
      frame.result = s.has_value ? eval(s.value, frame) : Obj::none();
      frame.returned = true;
      return;
    case Stmt::Kind::If: {
      backend_.at_statement(s);
      if (truth(eval(s.value, frame), s.value.loc)) {
        run_block(s.body, frame);
        return;
      }
      for (const Stmt &clause : s.elifs) {
        step(clause.loc);
        backend_.at_statement(clause);
        if (truth(eval(clause.value, frame), clause.value.loc)) {
          run_block(clause.body, frame);
          return;
        }
      }
      run_block(s.orelse, frame);
      return;
    }
    case Stmt::Kind::For: {
      backend_.at_statement(s);
      Obj iterable = eval(s.value, frame);
      std::vector<Obj> items;
      if (iterable.is_sequence())
        items = iterable.items;
      else if (iterable.kind == Obj::Kind::Tensor)
        throw TraceError(s.value.loc, "iterating over a tensor is not supported");
      else
        throw TraceError(s.value.loc, "cannot iterate over " + iterable.describe());
      for (Obj &item : items) {
        step(s.loc);
        assign(s.targets[0], std::move(item), frame);
        run_block(s.body, frame);
        if (frame.returned) return;
      }
      return;
    }
    case Stmt::Kind::Def:
      throw TraceError(s.loc, "unsupported construct: nested function definition");
    }
  }

  // By value: the names take the value (or its items) without copies.
  void assign(const Expr &target, Obj value, Frame &frame) {
    if (target.kind == Expr::Kind::Name) {
      frame.locals[target.text] = std::move(value);
      return;
    }
    if (!value.is_sequence())
      throw TraceError(
          target.loc,
          "cannot unpack " + value.describe() +
              (value.kind == Obj::Kind::Tensor ? " (unpacking a tensor is not supported)" : ""));
    if (value.items.size() != target.items.size())
      throw TraceError(target.loc, "cannot unpack " + std::to_string(value.items.size()) +
                                       " values into " + std::to_string(target.items.size()) +
                                       " names");
    for (std::size_t i = 0; i < target.items.size(); ++i)
      assign(target.items[i], std::move(value.items[i]), frame);
  }

  Obj lookup(const Expr &name, Frame &frame) {
    auto local = frame.locals.find(name.text);
    if (local != frame.locals.end()) {
      charge_copy(local->second, name.loc);
      return local->second;
    }
    auto constant = module_.constants.find(name.text);
    if (constant != module_.constants.end()) return eval(constant->second, frame);
    auto import = module_.imports.find(name.text);
    if (import != module_.imports.end()) {
      Obj m;
      m.kind = Obj::Kind::Module;
      m.text = import->second;
      return m;
    }
    if (module_.functions.count(name.text)) {
      Obj f;
      f.kind = Obj::Kind::Function;
      f.text = name.text;
      return f;
    }
    if (builtins().count(name.text)) {
      Obj b;
      b.kind = Obj::Kind::Builtin;
      b.text = name.text;
      return b;
    }
    throw TraceError(name.loc, "name `" + excerpt(name.text) + "` is not defined");
  }

public:
  Obj eval(const Expr &e, Frame &frame) {
    switch (e.kind) {
    case Expr::Kind::Name:
      return lookup(e, frame);
    case Expr::Kind::Int:
      return Obj::int_of(e.integer);
    case Expr::Kind::Float:
      return Obj::float_of(e.real);
    case Expr::Kind::Str:
      return Obj::str(e.text);
    case Expr::Kind::Bool:
      return Obj::boolean_of(e.boolean);
    case Expr::Kind::None:
      return Obj::none();
    case Expr::Kind::Ellipsis:
      return Obj::ellipsis();
    case Expr::Kind::Tuple:
    case Expr::Kind::List: {
      std::vector<Obj> items;
      for (const Expr &item : e.items)
        items.push_back(eval(item, frame));
      return e.kind == Expr::Kind::Tuple ? Obj::tuple(std::move(items))
                                         : Obj::list(std::move(items));
    }
    case Expr::Kind::Dict: {
      Obj d;
      d.kind = Obj::Kind::Dict;
      for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
        Obj key = eval(e.items[i], frame);
        if (key.kind != Obj::Kind::Str && key.kind != Obj::Kind::Int)
          throw TraceError(e.items[i].loc, "dictionary keys must be str or int constants");
        if (!key.proxy.empty()) backend_.guard(key, e.items[i].loc);
        d.items.push_back(key);
        d.items.push_back(eval(e.items[i + 1], frame));
      }
      return d;
    }
    case Expr::Kind::Slice:
      return Obj::slice(eval(e.items[0], frame), eval(e.items[1], frame), eval(e.items[2], frame));
    case Expr::Kind::Attribute:
      return attribute(eval(e.items[0], frame), e.text, e.loc);
    case Expr::Kind::Call:
      return call(e, frame);
    case Expr::Kind::Subscript:
      return subscript(eval(e.items[0], frame), eval(e.items[1], frame), e.loc);
    case Expr::Kind::BinOp: {
      // A chain (a + b - c) runs left to right, as Python evaluates its left-deep tree.
      Obj left = eval(e.items[0], frame);
      for (std::size_t i = 1; i < e.items.size(); ++i)
        left = binary(e.ops[i - 1], std::move(left), eval(e.items[i], frame), e.loc);
      return left;
    }
    case Expr::Kind::UnaryOp: {
      Obj operand = eval(e.items[0], frame);
      if (e.text == "not") return Obj::boolean_of(!truth(operand, e.loc));
      if (e.text == "+") return operand;
      if (operand.kind == Obj::Kind::Tensor) return backend_.tensor_op("neg", {operand}, e.loc);
      return number("neg", {operand}, e.loc);
    }
    case Expr::Kind::Compare: {
      Obj left = eval(e.items[0], frame);
      Obj result = Obj::boolean_of(true);
      for (std::size_t i = 0; i < e.ops.size(); ++i) {
        Obj right = eval(e.items[i + 1], frame);
        static const std::map<std::string, std::string> names = {
            {"<", "lt"},  {"<=", "le"}, {">", "gt"},  {">=", "ge"},
            {"==", "eq"}, {"!=", "ne"}, {"is", "is"}, {"is not", "is not"}};
        if (left.kind == Obj::Kind::Tensor || right.kind == Obj::Kind::Tensor)
          throw TraceError(e.loc, "comparisons of tensors are not supported");
        result = compare(names.at(e.ops[i]), left, right, e.loc);
        if (i + 1 < e.ops.size() && !truth(result, e.loc)) return result;
        left = right;
      }
      return result;
    }
    case Expr::Kind::BoolOp: {
      // A chain (a and b or c) is ((a and b) or c): each operator keeps the value so far or
      // takes the next operand.
      Obj left = eval(e.items[0], frame);
      for (std::size_t i = 1; i < e.items.size(); ++i) {
        bool t = truth(left, e.items[i - 1].loc);
        if (e.ops[i - 1] == "and" ? t : !t) left = eval(e.items[i], frame);
      }
      return left;
    }
    case Expr::Kind::IfExp:
      return truth(eval(e.items[1], frame), e.items[1].loc) ? eval(e.items[0], frame)
                                                            : eval(e.items[2], frame);
    case Expr::Kind::Starred:
      throw TraceError(e.loc, "unsupported construct: * outside a call");
    }
    throw TraceError(e.loc, "unsupported expression");
  }

private:
  bool truth(const Obj &o, const Loc &loc) {
    switch (o.kind) {
    case Obj::Kind::None:
      return false;
    case Obj::Kind::Bool:
    case Obj::Kind::Int:
    case Obj::Kind::Float:
      if (!o.proxy.empty()) backend_.guard(o, loc);
      return o.kind == Obj::Kind::Float ? o.real != 0.0 : o.integer != 0;
    case Obj::Kind::Str:
      return !o.text.empty();
    case Obj::Kind::Tuple:
    case Obj::Kind::List:
    case Obj::Kind::Dict:
      return !o.items.empty();
    case Obj::Kind::Tensor:
      throw TraceError(loc, "the truth value of a tensor depends on its data: data-dependent "
                            "control flow cannot be traced");
    default:
      return true;
    }
  }

  // A concrete int where Python needs one (an index, a loop bound); a proxy is guarded.
  int64_t concrete_int(const Obj &o, const Loc &loc, const std::string &what) {
    if (o.kind != Obj::Kind::Int && o.kind != Obj::Kind::Bool)
      throw TraceError(loc, what + " must be an int, not " + o.describe());
    if (!o.proxy.empty()) backend_.guard(o, loc);
    return o.integer;
  }

  Obj attribute(Obj base, const std::string &name, const Loc &loc) {
    if (base.kind == Obj::Kind::Module) {
      std::string path = base.text + "." + name;
      if (base.text == "torch") {
        std::string dtype = torch_dtype(name);
        if (!dtype.empty()) return Obj::dtype_of(dtype);
      }
      Obj m;
      m.kind = Obj::Kind::Module;
      m.text = path;
      return m;
    }
    if (base.kind == Obj::Kind::Tensor) {
      if (name == "shape") return Obj::tuple(base.shape);
      if (name == "ndim") return Obj::int_of(static_cast<int64_t>(base.shape.size()));
      if (name == "dtype") return Obj::dtype_of(base.dtype);
      if (name == "device") return Obj::device_of(base.device);
      if (name == "T" || name == "mT")
        throw TraceError(loc, "`." + name + "` is not supported: use transpose(-2, -1)");
      if (tensor_methods().count(name) || name == "size" || name == "contiguous" || name == "dim") {
        Obj m;
        m.kind = Obj::Kind::Method;
        m.text = name;
        m.items.push_back(std::move(base));
        return m;
      }
      throw TraceError(loc, "tensor attribute or method `" + excerpt(name) + "` is not supported");
    }
    if (base.kind == Obj::Kind::Slice && (name == "start" || name == "stop" || name == "step"))
      return base.items[name == "start" ? 0 : name == "stop" ? 1 : 2];
    throw TraceError(loc, "attribute `" + excerpt(name) + "` of " + base.describe() +
                              " is not supported");
  }

  Obj call(const Expr &e, Frame &frame) {
    Obj callee = eval(e.items[0], frame);
    std::size_t positional = e.items.size() - 1 - e.keywords.size();
    std::vector<Obj> args;
    args.reserve(positional + 1); // and a method's self, put first
    for (std::size_t i = 1; i <= positional; ++i) {
      const Expr &a = e.items[i];
      if (a.kind == Expr::Kind::Starred) {
        Obj spread = eval(a.items[0], frame);
        if (!spread.is_sequence())
          throw TraceError(a.loc, "cannot unpack " + spread.describe() + " with *");
        args.insert(args.end(), spread.items.begin(), spread.items.end());
      } else {
        args.push_back(eval(a, frame));
      }
    }
    std::vector<std::pair<std::string, Obj>> kwargs;
    for (std::size_t i = 0; i < e.keywords.size(); ++i)
      kwargs.emplace_back(e.keywords[i], eval(e.items[1 + positional + i], frame));

    switch (callee.kind) {
    case Obj::Kind::Function:
      return call_function(callee.text, std::move(args), std::move(kwargs), e.loc);
    case Obj::Kind::Builtin:
      return call_builtin(callee.text, args, kwargs, e.loc);
    case Obj::Kind::Method: {
      const Obj &self = callee.items[0];
      if (callee.text == "size" || callee.text == "dim" || callee.text == "contiguous") {
        if (!kwargs.empty())
          throw TraceError(e.loc, "`" + callee.text + "` takes no keyword arguments here");
        if (callee.text == "contiguous") return self;
        if (callee.text == "dim") return Obj::int_of(static_cast<int64_t>(self.shape.size()));
        if (args.empty()) return Obj::tuple(self.shape);
        int64_t d = normalize_dim(concrete_int(args[0], e.loc, "a dim"), self.shape.size(), e.loc);
        return self.shape[static_cast<std::size_t>(d)];
      }
      args.insert(args.begin(), std::move(callee.items[0])); // self, not used after this
      return torch_op(callee.text, "Tensor." + callee.text, std::move(args), std::move(kwargs),
                      e.loc);
    }
    case Obj::Kind::Module: {
      auto it = torch_functions().find(callee.text);
      if (it == torch_functions().end())
        throw TraceError(e.loc, "`" + excerpt(callee.text) +
                                    "` is not in the supported subset of torch "
                                    "(see `tracelint trace --help`)");
      return torch_op(it->second, callee.text, std::move(args), std::move(kwargs), e.loc);
    }
    default:
      throw TraceError(e.loc, callee.describe() + " is not callable");
    }
  }

  Obj torch_op(const std::string &op, const std::string &spelled, std::vector<Obj> args,
               std::vector<std::pair<std::string, Obj>> kwargs, const Loc &loc) {
    const OpSpec &spec = op_specs().at(op);
    std::size_t fixed = spec.varargs ? spec.params.size() - 1 : spec.params.size();
    if (spec.varargs && args.size() > fixed) {
      // The extra positionals are the last parameter's tuple: x.view(2, 3) and x.view((2, 3))
      // mean the same.
      std::vector<Obj> rest(
          std::make_move_iterator(args.begin() + static_cast<std::ptrdiff_t>(fixed)),
          std::make_move_iterator(args.end()));
      args.resize(fixed);
      args.push_back(rest.size() == 1 && rest[0].is_sequence()
                         ? Obj::tuple(std::move(rest[0].items))
                         : Obj::tuple(std::move(rest)));
    } else if (args.size() > fixed) {
      throw TraceError(loc, "`" + spelled + "` takes at most " + std::to_string(fixed) +
                                " positional argument" + (fixed == 1 ? "" : "s") + ", got " +
                                std::to_string(args.size()));
    }
    auto missing = [&](std::size_t i) {
      return TraceError(loc,
                        "`" + spelled + "` is missing the argument `" + spec.params[i].name + "`");
    };
    if (kwargs.empty()) {
      // The common call: the arguments stay where they are, the parameters after them take
      // their defaults.
      for (std::size_t i = args.size(); i < spec.params.size(); ++i) {
        if (!spec.params[i].default_value) throw missing(i);
        args.push_back(*spec.params[i].default_value);
      }
      return tensor_call(op, std::move(args), spelled, loc);
    }
    std::vector<std::optional<Obj>> bound(spec.params.size());
    for (std::size_t i = 0; i < args.size(); ++i)
      bound[i] = std::move(args[i]);
    for (auto &[key, value] : kwargs) {
      std::size_t i = 0;
      while (i < spec.params.size() && spec.params[i].name != key)
        ++i;
      if (i == spec.params.size())
        throw TraceError(loc, "`" + spelled + "` got an unexpected keyword argument `" +
                                  excerpt(key) + "`");
      if (bound[i])
        throw TraceError(loc, "`" + spelled + "` got two values for `" + excerpt(key) + "`");
      bound[i] = std::move(value);
    }
    std::vector<Obj> normalised;
    normalised.reserve(spec.params.size());
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
      if (!bound[i] && !spec.params[i].default_value) throw missing(i);
      normalised.push_back(bound[i] ? std::move(*bound[i]) : *spec.params[i].default_value);
    }
    return tensor_call(op, std::move(normalised), spelled, loc);
  }

  // Checks argument kinds so that backends get what the Backend comment promises.
  Obj tensor_call(const std::string &op, std::vector<Obj> args, const std::string &spelled,
                  const Loc &loc) {
    auto need_tensor = [&](const Obj &o, const char *what) {
      if (o.kind != Obj::Kind::Tensor)
        throw TraceError(loc,
                         "`" + spelled + "`: " + what + " must be a tensor, not " + o.describe());
    };
    if (op == "cat") {
      if (!args[0].is_sequence() || args[0].items.empty())
        throw TraceError(loc, "`" + spelled + "` takes a non-empty tuple or list of tensors");
      for (const Obj &t : args[0].items)
        need_tensor(t, "each element");
      args[1] = Obj::int_of(concrete_int(args[1], loc, "dim"));
      return backend_.tensor_op(op, args, loc);
    }
    if (op == "add" || op == "sub" || op == "mul" || op == "div" || op == "pow") {
      if (args[0].kind != Obj::Kind::Tensor && args[1].kind != Obj::Kind::Tensor)
        return number(op == "div" ? "truediv" : op, {args[0], args[1]}, loc);
      for (const Obj &a : args)
        if (a.kind != Obj::Kind::Tensor && !a.is_number())
          throw TraceError(loc, "`" + spelled + "` of a tensor and " + a.describe());
      return backend_.tensor_op(op, args, loc);
    }
    need_tensor(args[0], "the input");
    if (op == "matmul" || op == "linear") {
      need_tensor(args[1], op == "matmul" ? "the other operand" : "the weight");
      if (op == "linear" && args[2].kind != Obj::Kind::None) need_tensor(args[2], "the bias");
    } else if (op == "softmax") {
      args[1] = Obj::int_of(concrete_int(args[1], loc, "dim"));
      if (args[2].kind != Obj::Kind::None)
        throw TraceError(loc, "`" + spelled + "`: the dtype argument is not supported");
      args.pop_back();
    } else if (op == "sum" || op == "mean" || op == "amax") {
      if (args[1].kind == Obj::Kind::Int)
        args[1] = Obj::tuple({Obj::int_of(concrete_int(args[1], loc, "dim"))});
      else if (args[1].is_sequence()) {
        std::vector<Obj> dims;
        for (const Obj &d : args[1].items)
          dims.push_back(Obj::int_of(concrete_int(d, loc, "dim")));
        args[1] = Obj::tuple(std::move(dims));
      } else if (args[1].kind != Obj::Kind::None)
        throw TraceError(loc, "`" + spelled + "`: dim must be an int, a tuple of ints or None");
      if (args[2].kind != Obj::Kind::Bool)
        throw TraceError(loc, "`" + spelled + "`: keepdim must be True or False");
      if (op == "amax" && args[1].kind == Obj::Kind::None) args[1] = Obj::tuple({});
    } else if (op == "reshape" || op == "view" || op == "permute") {
      if (!args[1].is_sequence())
        throw TraceError(loc, "`" + spelled + "` takes a shape: ints or a tuple of ints");
      for (Obj &d : args[1].items)
        if (d.kind != Obj::Kind::Int)
          throw TraceError(loc, "`" + spelled + "`: each size must be an int, not " + d.describe());
        else if (op == "permute")
          d = Obj::int_of(concrete_int(d, loc, "dim"));
      args[1] = Obj::tuple(std::move(args[1].items));
    } else if (op == "transpose" || op == "unsqueeze") {
      for (std::size_t i = 1; i < args.size(); ++i)
        args[i] = Obj::int_of(concrete_int(args[i], loc, "dim"));
    } else if (op == "gelu") {
      if (args[1].kind != Obj::Kind::Str || (args[1].text != "none" && args[1].text != "tanh"))
        throw TraceError(loc, "`" + spelled + "`: approximate must be 'none' or 'tanh'");
    }
    return backend_.tensor_op(op, args, loc);
  }

  Obj call_builtin(const std::string &name, const std::vector<Obj> &args,
                   const std::vector<std::pair<std::string, Obj>> &kwargs, const Loc &loc) {
    if (!kwargs.empty())
      throw TraceError(loc, "`" + name + "` with keyword arguments is not supported");
    auto arity = [&](std::size_t lo, std::size_t hi) {
      if (args.size() < lo || args.size() > hi)
        throw TraceError(loc, "`" + name + "` takes " + std::to_string(lo) +
                                  (hi != lo ? " to " + std::to_string(hi) : "") + " arguments");
    };
    if (name == "len") {
      arity(1, 1);
      if (args[0].kind == Obj::Kind::Tensor) {
        if (args[0].shape.empty()) throw TraceError(loc, "len() of a 0-d tensor");
        return args[0].shape[0];
      }
      if (args[0].is_sequence() || args[0].kind == Obj::Kind::Str)
        return Obj::int_of(static_cast<int64_t>(
            args[0].kind == Obj::Kind::Str ? args[0].text.size() : args[0].items.size()));
      if (args[0].kind == Obj::Kind::Dict)
        return Obj::int_of(static_cast<int64_t>(args[0].items.size() / 2));
      throw TraceError(loc, "len() of " + args[0].describe());
    }
    if (name == "range") {
      arity(1, 3);
      int64_t start = 0, stop = 0, stride = 1;
      if (args.size() == 1)
        stop = concrete_int(args[0], loc, "range's bound");
      else {
        start = concrete_int(args[0], loc, "range's start");
        stop = concrete_int(args[1], loc, "range's stop");
        if (args.size() == 3) stride = concrete_int(args[2], loc, "range's step");
      }
      if (stride == 0) throw TraceError(loc, "range() step must not be zero");
      std::vector<Obj> items;
      for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride) {
        step(loc);
        items.push_back(Obj::int_of(i));
      }
      return Obj::tuple(std::move(items));
    }
    if (name == "tuple" || name == "list") {
      arity(0, 1);
      std::vector<Obj> items;
      if (!args.empty()) {
        if (!args[0].is_sequence())
          throw TraceError(loc, name + "() of " + args[0].describe() + " is not supported");
        items = args[0].items;
      }
      return name == "tuple" ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
    }
    if (name == "bool") {
      arity(1, 1);
      return Obj::boolean_of(truth(args[0], loc));
    }
    if (name == "int" || name == "float" || name == "abs") {
      arity(1, 1);
      const Obj &x = args[0];
      if (!x.is_number())
        throw TraceError(loc, name + "() of " + x.describe() + " is not supported");
      if (!x.proxy.empty()) backend_.guard(x, loc);
      if (name == "int") {
        if (x.kind != Obj::Kind::Float) return Obj::int_of(x.integer);
        std::optional<int64_t> truncated = truncate_to_int64(x.real);
        if (!truncated)
          throw TraceError(loc, std::isnan(x.real)   ? "cannot convert float NaN to integer"
                                : std::isinf(x.real) ? "cannot convert float infinity to integer"
                                                     : "int(" + python_float(x.real) +
                                                           ") is outside the 64-bit integer range "
                                                           "that the tracer supports");
        return Obj::int_of(*truncated);
      }
      if (name == "float") return Obj::float_of(x.as_double());
      if (x.kind == Obj::Kind::Float) return Obj::float_of(std::fabs(x.real));
      if (x.integer == INT64_MIN) throw TraceError(loc, "integer overflow in abs()");
      return Obj::int_of(x.integer < 0 ? -x.integer : x.integer);
    }
    if (name == "min" || name == "max") {
      std::vector<Obj> items = args.size() == 1 && args[0].is_sequence() ? args[0].items : args;
      if (items.empty()) throw TraceError(loc, name + "() of an empty sequence");
      Obj best = items[0];
      for (std::size_t i = 1; i < items.size(); ++i) {
        Obj better = compare(name == "min" ? "lt" : "gt", items[i], best, loc);
        if (truth(better, loc)) best = items[i];
      }
      return best;
    }
    throw TraceError(loc, "builtin `" + name + "` is not supported");
  }

  Obj subscript(const Obj &base, const Obj &index, const Loc &loc) {
    if (base.kind == Obj::Kind::Tensor) return backend_.tensor_op("getitem", {base, index}, loc);
    if (base.kind == Obj::Kind::Dict) {
      for (std::size_t i = 0; i + 1 < base.items.size(); i += 2) {
        const Obj &key = base.items[i];
        if (key.kind == index.kind &&
            (key.kind == Obj::Kind::Str ? key.text == index.text
                                        : key.integer == concrete_int(index, loc, "a key")))
          return base.items[i + 1];
      }
      throw TraceError(loc, "key not in the dictionary");
    }
    if (!base.is_sequence()) throw TraceError(loc, base.describe() + " is not subscriptable here");
    int64_t n = static_cast<int64_t>(base.items.size());
    if (index.kind == Obj::Kind::Slice) {
      auto bound = [&](const Obj &o, int64_t dflt) {
        if (o.kind == Obj::Kind::None) return dflt;
        return concrete_int(o, loc, "a slice bound");
      };
      int64_t stride = bound(index.items[2], 1);
      if (stride == 0) throw TraceError(loc, "slice step cannot be zero");
      int64_t start = bound(index.items[0], stride > 0 ? 0 : n - 1);
      int64_t stop = bound(index.items[1], stride > 0 ? n : -n - 1);
      // Python's rule: a negative bound counts from the end, then both are clamped.
      auto clamp = [&](int64_t v) {
        if (v < 0) v += n;
        int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? n : n - 1;
        return std::max(lo, std::min(v, hi));
      };
      start = clamp(start);
      stop = clamp(stop);
      std::vector<Obj> items;
      for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride)
        items.push_back(base.items[static_cast<std::size_t>(i)]);
      return base.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items))
                                           : Obj::list(std::move(items));
    }
    int64_t i = concrete_int(index, loc, "an index");
    if (i < -n || i >= n)
      throw TraceError(loc, "index " + std::to_string(i) + " out of range for a " +
                                base.describe() + " of length " + std::to_string(n));
    return base.items[static_cast<std::size_t>(i < 0 ? i + n : i)];
  }

  int64_t normalize_dim(int64_t d, std::size_t rank, const Loc &loc) {
    int64_t r = static_cast<int64_t>(rank);
    if (d < -r || d >= r)
      throw TraceError(loc, "dim " + std::to_string(d) + " out of range for a tensor of rank " +
                                std::to_string(rank));
    return d < 0 ? d + r : d;
  }

  // By value: the operands move into the operation's arguments, tensors are not copied.
  Obj binary(const std::string &symbol, Obj a, Obj b, const Loc &loc) {
    static const std::map<std::string, std::string> tensor_ops = {
        {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"**", "pow"}, {"@", "matmul"}};
    static const std::map<std::string, std::string> number_ops = {
        {"+", "add"},       {"-", "sub"}, {"*", "mul"}, {"/", "truediv"},
        {"//", "floordiv"}, {"%", "mod"}, {"**", "pow"}};
    if (a.kind == Obj::Kind::Tensor || b.kind == Obj::Kind::Tensor) {
      auto it = tensor_ops.find(symbol);
      if (it == tensor_ops.end())
        throw TraceError(loc, "the `" + symbol + "` operator on tensors is not supported");
      std::vector<Obj> args;
      args.reserve(2);
      args.push_back(std::move(a));
      args.push_back(std::move(b));
      return tensor_call(it->second, std::move(args), it->second == "matmul" ? "@" : symbol, loc);
    }
    if (a.is_sequence() && b.is_sequence() && symbol == "+" && a.kind == b.kind) {
      std::vector<Obj> items = a.items;
      items.insert(items.end(), b.items.begin(), b.items.end());
      return a.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items))
                                        : Obj::list(std::move(items));
    }
    if (a.is_sequence() && b.kind == Obj::Kind::Int && symbol == "*") {
      std::vector<Obj> items;
      for (int64_t i = 0; i < concrete_int(b, loc, "a repeat count"); ++i) {
        step(loc);
        charge_copy(a, loc);
        items.insert(items.end(), a.items.begin(), a.items.end());
      }
      return a.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items))
                                        : Obj::list(std::move(items));
    }
    if (symbol == "@") throw TraceError(loc, "`@` needs tensors");
    return number(number_ops.at(symbol), {a, b}, loc);
  }

  Obj compare(const std::string &op, const Obj &a, const Obj &b, const Loc &loc) {
    if (op == "is" || op == "is not") {
      // Identity is only meaningful for the singletons: None and Ellipsis.
      if (a.kind != Obj::Kind::None && b.kind != Obj::Kind::None && a.kind != Obj::Kind::Ellipsis &&
          b.kind != Obj::Kind::Ellipsis)
        throw TraceError(loc, "`" + op + "` is supported only with None or ...");
      return Obj::boolean_of((a.kind == b.kind) == (op == "is"));
    }
    if (a.is_number() && b.is_number()) return number(op, {a, b}, loc);
    bool equal = false;
    if (op == "eq" || op == "ne") {
      if (a.kind == b.kind &&
          (a.kind == Obj::Kind::Str || a.kind == Obj::Kind::DType || a.kind == Obj::Kind::Device))
        equal = a.text == b.text;
      else if (a.kind == Obj::Kind::None || b.kind == Obj::Kind::None)
        equal = a.kind == b.kind;
      else if (a.is_sequence() && b.is_sequence() && a.kind == b.kind) {
        if (a.items.size() != b.items.size())
          equal = false;
        else {
          equal = true;
          for (std::size_t i = 0; i < a.items.size() && equal; ++i)
            equal = truth(compare("eq", a.items[i], b.items[i], loc), loc);
        }
      } else
        throw TraceError(loc, "comparing " + a.describe() + " with " + b.describe() +
                                  " is not supported");
      return Obj::boolean_of(op == "eq" ? equal : !equal);
    }
    throw TraceError(loc,
                     "ordering " + a.describe() + " and " + b.describe() + " is not supported");
  }

public:
  static Obj compute(const std::string &op, const std::vector<Obj> &args, const Loc &loc);

private:
  // Python's arithmetic on bools, ints and floats; proxies go to the backend.
  Obj number(const std::string &op, const std::vector<Obj> &args, const Loc &loc) {
    for (const Obj &a : args)
      if (!a.is_number())
        throw TraceError(loc, "unsupported operand for `" + op_symbol(op) + "`: " + a.describe());
    Obj result = compute(op, args, loc);
    for (const Obj &a : args)
      if (!a.proxy.empty()) return backend_.number_op(op, args, result, loc);
    return result;
  }

  const Module &module_;
  Backend &backend_;
  int depth_ = 0;
  int64_t steps_ = 0;
};

Obj Interpreter::compute(const std::string &op, const std::vector<Obj> &args, const Loc &loc) {
  const Obj &a = args[0];
  if (op == "neg") {
    if (a.kind == Obj::Kind::Float) return Obj::float_of(-a.real);
    if (a.integer == INT64_MIN) throw TraceError(loc, "integer overflow in `-`");
    return Obj::int_of(-a.integer);
  }
  const Obj &b = args[1];
  bool floats = a.kind == Obj::Kind::Float || b.kind == Obj::Kind::Float;
  double x = a.as_double(), y = b.as_double();
  int64_t i = a.integer, j = b.integer;
  if (op == "lt" || op == "le" || op == "gt" || op == "ge" || op == "eq" || op == "ne") {
    bool r = op == "lt"   ? x < y
             : op == "le" ? x <= y
             : op == "gt" ? x > y
             : op == "ge" ? x >= y
             : op == "eq" ? x == y
                          : x != y;
    if (!floats)
      r = op == "lt"   ? i < j
          : op == "le" ? i <= j
          : op == "gt" ? i > j
          : op == "ge" ? i >= j
          : op == "eq" ? i == j
                       : i != j;
    return Obj::boolean_of(r);
  }
  if ((op == "truediv" || op == "floordiv" || op == "mod") && (floats ? y == 0.0 : j == 0))
    throw TraceError(loc, "division by zero");
  if (op == "truediv") return Obj::float_of(x / y);
  if (floats) {
    if (op == "add") return Obj::float_of(x + y);
    if (op == "sub") return Obj::float_of(x - y);
    if (op == "mul") return Obj::float_of(x * y);
    if (op == "floordiv") return Obj::float_of(std::floor(x / y));
    if (op == "mod") {
      double m = std::fmod(x, y);
      return Obj::float_of(m != 0 && ((m < 0) != (y < 0)) ? m + y : m);
    }
    if (op == "pow") return Obj::float_of(std::pow(x, y));
  } else {
    int64_t r = 0;
    if (op == "add" && !__builtin_add_overflow(i, j, &r)) return Obj::int_of(r);
    if (op == "sub" && !__builtin_sub_overflow(i, j, &r)) return Obj::int_of(r);
    if (op == "mul" && !__builtin_mul_overflow(i, j, &r)) return Obj::int_of(r);
    if (op == "floordiv") {
      if (i == INT64_MIN && j == -1) throw TraceError(loc, "integer overflow");
      int64_t q = i / j;
      if ((i % j != 0) && ((i < 0) != (j < 0))) --q;
      return Obj::int_of(q);
    }
    if (op == "mod") {
      if (j == -1) return Obj::int_of(0);
      int64_t m = i % j;
      return Obj::int_of(m != 0 && ((m < 0) != (j < 0)) ? m + j : m);
    }
    if (op == "pow") {
      if (j < 0) return Obj::float_of(std::pow(x, y));
      // By squaring: j steps of a loop would run for ever on 1 ** 10**18.
      int64_t acc = 1, base = i;
      for (uint64_t e = static_cast<uint64_t>(j); e; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(acc, base, &acc))
          throw TraceError(loc, "integer overflow in **");
        if (e > 1 && __builtin_mul_overflow(base, base, &base))
          throw TraceError(loc, "integer overflow in **");
      }
      return Obj::int_of(acc);
    }
    if (op == "add" || op == "sub" || op == "mul")
      throw TraceError(loc, "integer overflow in `" + op_symbol(op) + "`");
  }
  throw TraceError(loc, "unsupported number operation " + op);
}

} // namespace

std::optional<int64_t> truncate_to_int64(double x) {
  // -2**63 and 2**63 are exact doubles; NaN fails both comparisons.
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return std::nullopt;
  return static_cast<int64_t>(x);
}

Obj compute_number(const std::string &op, const std::vector<Obj> &args, const Loc &loc) {
  return Interpreter::compute(op, args, loc);
}

Obj literal_object(const Module &module, const Expr &e) {
  // Literals need no backend: anything that would reach one is not a literal.
  struct NoBackend : Backend {
    Obj tensor_op(const std::string &, const std::vector<Obj> &, const Loc &loc) override {
      throw TraceError(loc, "a tensor operation is not a literal");
    }
    Obj number_op(const std::string &, const std::vector<Obj> &, Obj result, const Loc &) override {
      return result;
    }
    void guard(const Obj &, const Loc &) override {}
  } none;
  Interpreter interpreter(module, none);
  Frame frame;
  std::function<void(const Expr &)> check = [&](const Expr &x) {
    if (x.kind == Expr::Kind::Name || x.kind == Expr::Kind::Call ||
        x.kind == Expr::Kind::Subscript || x.kind == Expr::Kind::Attribute) {
      bool allowed = x.kind == Expr::Kind::Call && x.items[0].kind == Expr::Kind::Name &&
                     x.items[0].text == "slice";
      bool dtype = x.kind == Expr::Kind::Attribute && x.items[0].kind == Expr::Kind::Name &&
                   x.items[0].text == "torch";
      if (!allowed && !dtype && !(x.kind == Expr::Kind::Name && module.constants.count(x.text)))
        throw TraceError(x.loc, "not a literal: only numbers, strings, None, ..., True/False, "
                                "tuples, lists, dicts, slice(...) and torch dtypes");
      if (dtype) return;
      if (allowed) {
        for (std::size_t i = 1; i < x.items.size(); ++i)
          check(x.items[i]);
        return;
      }
    }
    for (const Expr &item : x.items)
      check(item);
  };
  check(e);
  if (e.kind == Expr::Kind::Call) {
    std::vector<Obj> parts;
    for (std::size_t i = 1; i < e.items.size(); ++i)
      parts.push_back(interpreter.eval(e.items[i], frame));
    if (!e.keywords.empty() || parts.empty() || parts.size() > 3)
      throw TraceError(e.loc, "slice() takes 1 to 3 positional arguments");
    if (parts.size() == 1) return Obj::slice(Obj::none(), parts[0], Obj::none());
    while (parts.size() < 3)
      parts.push_back(Obj::none());
    return Obj::slice(parts[0], parts[1], parts[2]);
  }
  if (e.kind == Expr::Kind::Tuple || e.kind == Expr::Kind::List) {
    std::vector<Obj> items;
    for (const Expr &item : e.items)
      items.push_back(literal_object(module, item));
    return e.kind == Expr::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  if (e.kind == Expr::Kind::Dict) {
    Obj d;
    d.kind = Obj::Kind::Dict;
    for (const Expr &item : e.items)
      d.items.push_back(literal_object(module, item));
    return d;
  }
  if (e.kind == Expr::Kind::Attribute) {
    std::string dtype = torch_dtype(e.text);
    if (dtype.empty()) throw TraceError(e.loc, "torch." + e.text + " is not a dtype");
    return Obj::dtype_of(dtype);
  }
  return interpreter.eval(e, frame);
}

Obj interpret(const Module &module, const std::string &function, const std::vector<Obj> &args,
              Backend &backend) {
  Interpreter interpreter(module, backend);
  auto it = module.functions.find(function);
  if (it == module.functions.end())
    throw TraceError(Loc{1, 1}, "no function `" + function + "` in " + module.path);
  return interpreter.call_function(function, args, {}, it->second.loc);
}

} // namespace tracelint::tracer
