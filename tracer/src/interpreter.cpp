// The interpreter as a whole: its setup (the builtins' namespace and classes), its entry points
// (run the module, call, evaluate an --init value) and the call of any callable. The parts it
// holds are in their own files (interpreter.hpp names them).
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "generators.hpp"
#include "interpreter_impl.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

namespace tracelint::tracer {

const char *builtin_spelling(Builtin b) {
  static const char *const names[] = {
#define TRACELINT_BUILTIN(id, spelled) spelled,
#include "tracelint/tracer/builtins.def"
#undef TRACELINT_BUILTIN
  };
  return names[static_cast<std::size_t>(b)];
}

const char *num_op_symbol(NumOp op) {
  static const char *const symbols[] = {
      "+",          "-",         "*",          "/",        "//",       "%",
      "**",         "-",         "abs",        "<",        "<=",       ">",
      ">=",         "==",        "!=",         "&",        "|",        "^",
      "math.sqrt",  "math.exp",  "math.log",   "math.sin", "math.cos", "math.tanh",
      "math.floor", "math.ceil", "math.trunc", "int",      "float",    "//"};
  return symbols[static_cast<std::size_t>(op)];
}

namespace {

// What `import` would name the file: model for path/to/model.py.
std::string module_name_of(const std::string &path) {
  std::string stem = std::filesystem::path(path).stem().string();
  return stem.empty() || stem == "__main__" ? "__traced__" : stem;
}

} // namespace

// ---- setup ---------------------------------------------------------------------------------

namespace {

void add_class(InterpreterState &impl, const std::string &name, Builtin id,
               std::shared_ptr<ClassObj> base = nullptr, bool is_builtin_name = true) {
  auto c = std::make_shared<ClassObj>();
  c->name = c->qualname = name;
  c->builtin = static_cast<uint16_t>(id);
  if (base) c->bases.push_back(base);
  c->mro.push_back(c.get());
  if (base)
    for (ClassObj *m : base->mro)
      c->mro.push_back(m);
  impl.builtin_classes[c->builtin] = c;
  if (is_builtin_name) impl.builtins->set(name, Obj::heap(Obj::Kind::Class, c));
}

} // namespace

InterpreterLimits limits_of(const TraceRequest &request) {
  InterpreterLimits limits;
  limits.max_python_memory = request.max_python_memory;
  limits.max_module_bytes = request.max_file_size;
  return limits;
}

Interpreter::Interpreter(std::shared_ptr<const Module> module, Backend &backend,
                         InterpreterLimits limits)
    : backend_(&backend), budget_(limits), state_(std::make_unique<InterpreterState>()),
      evaluator_(std::make_unique<Evaluator>(*this)) {
  state_->module = std::move(module);
  state_->globals = std::make_shared<Env>();
  state_->builtins = std::make_shared<Env>();
  Env &b = *state_->builtins;
  for (Builtin id :
       {Builtin::print,       Builtin::len,          Builtin::range,      Builtin::repr,
        Builtin::abs,         Builtin::min,          Builtin::max,        Builtin::sum,
        Builtin::any,         Builtin::all,          Builtin::enumerate,  Builtin::zip,
        Builtin::reversed,    Builtin::sorted,       Builtin::map,        Builtin::filter,
        Builtin::iter,        Builtin::next,         Builtin::isinstance, Builtin::issubclass,
        Builtin::hasattr,     Builtin::getattr,      Builtin::setattr,    Builtin::delattr,
        Builtin::id,          Builtin::callable,     Builtin::round,      Builtin::pow,
        Builtin::divmod,      Builtin::slice,        Builtin::super,      Builtin::property,
        Builtin::classmethod, Builtin::staticmethod, Builtin::format,     Builtin::chr,
        Builtin::ord,         Builtin::hash,         Builtin::vars})
    b.set(builtin_spelling(id), make_builtin(id, builtin_spelling(id)));
  add_class(*state_, "object", Builtin::object);
  auto object = state_->builtin_classes[static_cast<uint16_t>(Builtin::object)];
  add_class(*state_, "int", Builtin::int_, object);
  add_class(*state_, "bool", Builtin::bool_,
            state_->builtin_classes[static_cast<uint16_t>(Builtin::int_)]);
  for (auto [name, id] :
       std::initializer_list<std::pair<const char *, Builtin>>{{"float", Builtin::float_},
                                                               {"str", Builtin::str_},
                                                               {"tuple", Builtin::tuple},
                                                               {"list", Builtin::list},
                                                               {"dict", Builtin::dict},
                                                               {"set", Builtin::set},
                                                               {"frozenset", Builtin::frozenset},
                                                               {"type", Builtin::class_type}})
    add_class(*state_, name, id, object);
  // torch's classes, reached through torch (torch.Tensor, torch.nn.Parameter, ...).
  add_class(*state_, "Tensor", Builtin::class_tensor, object, false);
  add_class(*state_, "Parameter", Builtin::class_parameter,
            state_->builtin_classes[static_cast<uint16_t>(Builtin::class_tensor)], false);
  add_class(*state_, "dtype", Builtin::class_dtype, object, false);
  add_class(*state_, "device", Builtin::class_device, object, false);
  add_class(*state_, "NoneType", Builtin::class_nonetype, object, false);
  // argparse's, reached through argparse: what a model's constructor reads its options from.
  add_class(*state_, "Namespace", Builtin::class_namespace, object, false);
  // collections' dicts, reached through collections.
  auto dict = state_->builtin_classes[static_cast<uint16_t>(Builtin::dict)];
  add_class(*state_, "OrderedDict", Builtin::class_ordered_dict, dict, false);
  add_class(*state_, "defaultdict", Builtin::class_defaultdict, dict, false);
  add_class(*state_, "Enum", Builtin::class_enum, object, false);
  add_class(*state_, "NamedTuple", Builtin::class_typing_namedtuple, object, false);
  // The exceptions, with the part of Python's hierarchy model code catches.
  auto exception = [&](const std::string &name, const std::string &base) {
    auto c = std::make_shared<ClassObj>();
    c->name = c->qualname = name;
    c->builtin = static_cast<uint16_t>(Builtin::class_exception);
    std::shared_ptr<ClassObj> parent = base.empty() ? object : state_->exception_classes.at(base);
    c->bases.push_back(parent);
    c->mro.push_back(c.get());
    for (ClassObj *m : parent->mro)
      c->mro.push_back(m);
    state_->exception_classes[name] = c;
    b.set(name, Obj::heap(Obj::Kind::Class, c));
  };
  exception("BaseException", "");
  exception("Exception", "BaseException");
  for (const char *name :
       {"ArithmeticError", "AssertionError", "AttributeError", "ImportError", "LookupError",
        "NameError", "RuntimeError", "StopIteration", "TypeError", "ValueError", "Warning"})
    exception(name, "Exception");
  exception("ZeroDivisionError", "ArithmeticError");
  exception("OverflowError", "ArithmeticError");
  exception("IndexError", "LookupError");
  exception("KeyError", "LookupError");
  exception("ModuleNotFoundError", "ImportError");
  exception("NotImplementedError", "RuntimeError");
  exception("RecursionError", "RuntimeError");
  exception("UnboundLocalError", "NameError");
  exception("UserWarning", "Warning");
  exception("DeprecationWarning", "Warning");
  b.set("None", Obj::none());
  b.set("True", Obj::boolean_of(true));
  b.set("False", Obj::boolean_of(false));
  b.set("Ellipsis", Obj::ellipsis());
  b.set("NotImplemented", Obj::not_implemented());
  b.set("__name__", Obj::str("builtins"));
  // The traced file is imported, as by `import model`, not run as a script: its
  // `if __name__ == "__main__":` block (a demo, a training loop) is left alone.
  state_->globals->set("__name__", Obj::str(module_name_of(state_->module->path)));
  state_->globals->set("__file__", Obj::str(state_->module->path));
}

Interpreter::~Interpreter() {
  // A module-level function holds the module's namespace, which holds the function; a closure
  // and the scope it closes over can hold each other too. Python's garbage collector frees
  // such cycles; here the scopes that can be in one are emptied when the interpreter goes.
  for (const std::weak_ptr<Env> &scope : state_->captured)
    if (std::shared_ptr<Env> env = scope.lock()) env->clear();
  for (const std::shared_ptr<Env> &env : {state_->globals, state_->nn_globals})
    if (env) env->clear();
  for (auto &[path, module] : state_->local_modules)
    if (const std::shared_ptr<Env> &env = module.as<ModuleObj>().globals) env->clear();
  for (const std::weak_ptr<ClassObj> &c : state_->enum_classes)
    if (std::shared_ptr<ClassObj> cls = c.lock()) cls->attributes = DictObj{};
}

const Module &Interpreter::module() const {
  return *state_->module;
}

const std::vector<std::string> &Interpreter::printed() const {
  return state_->printed;
}

void Interpreter::note_printed(std::string line) {
  if (state_->printed.size() < 10000) state_->printed.push_back(std::move(line));
}

namespace {

// The message of an exception instance: its first argument.
std::string exception_text(Interpreter &in, const Obj &e, const Loc &loc) {
  if (e.kind != Obj::Kind::Instance) return str(in, e, loc);
  const InstanceObj &inst = e.as<InstanceObj>();
  std::string text = inst.cls->name;
  const Obj *args = inst.dict->get("args");
  if (args && args->kind == Obj::Kind::Tuple && !items_of(*args).empty()) {
    const Obj &first = items_of(*args).front();
    std::string message = first.kind == Obj::Kind::Str ? str_of(first) : repr(in, first, loc);
    if (!message.empty()) text += ": " + message;
  }
  return text;
}

} // namespace

TraceError Interpreter::uncaught(const PyError &e) {
  TraceError out(e.loc, exception_text(*this, e.exception, e.loc));
  out.file = e.file;
  out.chain = e.chain;
  return out;
}

void Interpreter::run_module() {
  if (state_->module_ran) return;
  state_->module_ran = true;
  Frame frame;
  frame.locals = frame.globals = state_->globals;
  frame.module = state_->module.get();
  frame.is_module = true;
  try {
    evaluator_->run_block(state_->module->body, frame);
  } catch (const PyError &e) {
    throw uncaught(e);
  }
}

const Obj *Interpreter::global(std::string_view name) const {
  return state_->globals->find(name);
}

Obj Interpreter::call_top(const Obj &callable, std::vector<Obj> args, Kwargs kwargs,
                          const Loc &loc) {
  try {
    return call(callable, std::move(args), std::move(kwargs), loc);
  } catch (const PyError &e) {
    throw uncaught(e);
  }
}

Obj Interpreter::eval_top(const Expr &e) {
  Frame frame;
  frame.locals = frame.globals = state_->globals;
  frame.module = state_->module.get();
  frame.is_module = true;
  try {
    return evaluator_->eval(e, frame);
  } catch (const PyError &err) {
    throw uncaught(err);
  }
}

namespace {

// Whether a placeholder (UnknownObj::what: "module logging.getLogger(...).info") comes from a
// module whose calls the tracer may skip: those that only log or warn, and `re`, whose calls
// change nothing outside what they return (a tokenizer's class-level `re.compile(...)`); what
// a skipped call returns is a placeholder again, an error wherever it is used.
bool skippable_call(std::string_view what) {
  if (what.starts_with("module ")) what.remove_prefix(7);
  std::string_view root = what.substr(0, what.find_first_of(".("));
  return root == "logging" || root == "warnings" || root == "re";
}

} // namespace

// ---- calls ----------------------------------------------------------------------------------

Obj Interpreter::call(const Obj &callee, std::vector<Obj> args, Kwargs kwargs, const Loc &loc) {
  switch (callee.kind) {
  case Obj::Kind::Function:
    return evaluator_->call_function(callee.as<FunctionObj>(), std::move(args), std::move(kwargs),
                                     loc);
  case Obj::Kind::BoundMethod: {
    const BoundMethodObj &m = callee.as<BoundMethodObj>();
    args.insert(args.begin(), m.self);
    return call(m.function, std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::Builtin:
    return builtins::call(*this, callee.as<BuiltinObj>(), args, kwargs, loc);
  case Obj::Kind::Class: {
    auto cls = std::static_pointer_cast<ClassObj>(callee.ref);
    return construct(*this, cls, std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::Instance: {
    const InstanceObj &inst = callee.as<InstanceObj>();
    if (!inst.cls->lookup("__call__"))
      raise(*this, "TypeError", "'" + inst.cls->name + "' object is not callable", loc);
    return call(attribute(*this, callee, "__call__", loc), std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::StaticMethod:
  case Obj::Kind::ClassMethod:
    return call(callee.as<MethodWrapperObj>().function, std::move(args), std::move(kwargs), loc);
  case Obj::Kind::Unknown: {
    for (const Obj &a : args)
      if (is_tensor(a)) unknown_used(*this, callee, loc, "calling with a tensor");
    for (const auto &[k, a] : kwargs)
      if (is_tensor(a)) unknown_used(*this, callee, loc, "calling with a tensor");
    const std::string &what = callee.as<UnknownObj>().what;
    // A call the tracer does not model could write a file or run a command: stopping is
    // right, skipping it is not. Calls into logging and warnings only write messages; re's
    // calls only compute.
    if (!skippable_call(what)) {
      std::string name(what.starts_with("module ") ? what.substr(7) : what);
      if (name.starts_with("torch.nn.") && name.find('.', 9) == std::string::npos &&
          name.size() > 9 && std::isupper(static_cast<unsigned char>(name[9])))
        throw TraceError(loc, excerpt(name) +
                                  " is not supported by the tracer (the torch.nn classes it "
                                  "runs are listed in docs/tracer.md)");
      throw TraceError(loc, "`" + excerpt(name) +
                                "(...)` is not run by the tracer: it does "
                                "not model `" +
                                excerpt(name) +
                                "`, and skipping the call could change what "
                                "the program does");
    }
    return derived_unknown(callee, what + "(...)", loc);
  }
  default:
    raise(*this, "TypeError", "'" + type_name(callee) + "' object is not callable", loc);
  }
}

} // namespace tracelint::tracer
