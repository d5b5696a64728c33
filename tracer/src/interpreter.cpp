// The interpreter's statements, expressions, calls, classes and attributes. Builtins are in
// builtins.cpp, the torch namespaces in torch_api.cpp, string formatting in formatting.cpp.
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

bool contains(const std::vector<std::string> &names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// What `import` would name the file: model for path/to/model.py.
std::string module_name_of(const std::string &path) {
  std::string stem = std::filesystem::path(path).stem().string();
  return stem.empty() || stem == "__main__" ? "__traced__" : stem;
}

} // namespace

// ---- setup ---------------------------------------------------------------------------------

namespace {

void add_class(Interpreter::Impl &impl, const std::string &name, Builtin id,
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
    : module_(std::move(module)), backend_(&backend), limits_(limits),
      impl_(std::make_unique<Impl>()) {
  impl_->globals = std::make_shared<Env>();
  impl_->builtins = std::make_shared<Env>();
  Env &b = *impl_->builtins;
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
  add_class(*impl_, "object", Builtin::object);
  auto object = impl_->builtin_classes[static_cast<uint16_t>(Builtin::object)];
  add_class(*impl_, "int", Builtin::int_, object);
  add_class(*impl_, "bool", Builtin::bool_,
            impl_->builtin_classes[static_cast<uint16_t>(Builtin::int_)]);
  for (auto [name, id] :
       std::initializer_list<std::pair<const char *, Builtin>>{{"float", Builtin::float_},
                                                               {"str", Builtin::str_},
                                                               {"tuple", Builtin::tuple},
                                                               {"list", Builtin::list},
                                                               {"dict", Builtin::dict},
                                                               {"set", Builtin::set},
                                                               {"frozenset", Builtin::frozenset},
                                                               {"type", Builtin::class_type}})
    add_class(*impl_, name, id, object);
  // torch's classes, reached through torch (torch.Tensor, torch.nn.Parameter, ...).
  add_class(*impl_, "Tensor", Builtin::class_tensor, object, false);
  add_class(*impl_, "Parameter", Builtin::class_parameter,
            impl_->builtin_classes[static_cast<uint16_t>(Builtin::class_tensor)], false);
  add_class(*impl_, "dtype", Builtin::class_dtype, object, false);
  add_class(*impl_, "device", Builtin::class_device, object, false);
  add_class(*impl_, "NoneType", Builtin::class_nonetype, object, false);
  // collections' dicts, reached through collections.
  auto dict = impl_->builtin_classes[static_cast<uint16_t>(Builtin::dict)];
  add_class(*impl_, "OrderedDict", Builtin::class_ordered_dict, dict, false);
  add_class(*impl_, "defaultdict", Builtin::class_defaultdict, dict, false);
  add_class(*impl_, "Enum", Builtin::class_enum, object, false);
  add_class(*impl_, "NamedTuple", Builtin::class_typing_namedtuple, object, false);
  // The exceptions, with the part of Python's hierarchy model code catches.
  auto exception = [&](const std::string &name, const std::string &base) {
    auto c = std::make_shared<ClassObj>();
    c->name = c->qualname = name;
    c->builtin = static_cast<uint16_t>(Builtin::class_exception);
    std::shared_ptr<ClassObj> parent = base.empty() ? object : impl_->exception_classes.at(base);
    c->bases.push_back(parent);
    c->mro.push_back(c.get());
    for (ClassObj *m : parent->mro)
      c->mro.push_back(m);
    impl_->exception_classes[name] = c;
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
  impl_->globals->set("__name__", Obj::str(module_name_of(module_->path)));
  impl_->globals->set("__file__", Obj::str(module_->path));
}

Interpreter::~Interpreter() {
  // A module-level function holds the module's namespace, which holds the function; a closure
  // and the scope it closes over can hold each other too. Python's garbage collector frees
  // such cycles; here the scopes that can be in one are emptied when the interpreter goes.
  for (const std::weak_ptr<Env> &scope : impl_->captured)
    if (std::shared_ptr<Env> env = scope.lock()) env->clear();
  for (const std::shared_ptr<Env> &env : {impl_->globals, impl_->nn_globals})
    if (env) env->clear();
  for (auto &[path, module] : impl_->local_modules)
    if (const std::shared_ptr<Env> &env = module.as<ModuleObj>().globals) env->clear();
  for (const std::weak_ptr<ClassObj> &c : impl_->enum_classes)
    if (std::shared_ptr<ClassObj> cls = c.lock()) cls->attributes = DictObj{};
}

std::shared_ptr<ClassObj> Interpreter::builtin_class(Builtin b) const {
  auto it = impl_->builtin_classes.find(static_cast<uint16_t>(b));
  return it == impl_->builtin_classes.end() ? nullptr : it->second;
}

void Interpreter::charge(int64_t work, const Loc &loc) {
  steps_ += work;
  if (steps_ > limits_.max_steps)
    throw TraceError(loc, "the program runs more than " + std::to_string(limits_.max_steps) +
                              " steps; the tracer stops here");
}

namespace {

TraceError python_memory_error(const Loc &loc, const std::string &size, uint64_t limit) {
  return TraceError(loc, "this makes a value of " + size +
                             ", past the limit on the Python values a traced program makes (" +
                             std::to_string(limit >> 20) +
                             " MiB in all; --max-python-memory raises it)");
}

} // namespace

void Interpreter::make_room(uint64_t bytes, const Loc &loc) {
  uint64_t limit = limits_.max_python_memory;
  if (bytes > limit - std::min(made_bytes_, limit))
    throw python_memory_error(loc, std::to_string(bytes) + " bytes", limit);
  made_bytes_ += bytes;
  charge(static_cast<int64_t>(bytes / 64), loc);
}

void Interpreter::make_room(uint64_t count, uint64_t each, const Loc &loc) {
  if (each && count > limits_.max_python_memory / each)
    throw python_memory_error(
        loc, std::to_string(count) + " parts of " + std::to_string(each) + " bytes",
        limits_.max_python_memory);
  make_room(count * each, loc);
}

Obj Interpreter::make_exception(const std::string &cls, const std::string &message) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = impl_->exception_classes.at(cls);
  inst->dict->set(Obj::str("args"), Obj::tuple({Obj::str(message)}));
  return Obj::heap(Obj::Kind::Instance, std::move(inst));
}

void Interpreter::raise(const std::string &exception_class, const std::string &message,
                        const Loc &loc) {
  throw PyError{make_exception(exception_class, message), loc, {}, std::nullopt};
}

void Interpreter::unknown_used(const Obj &o, const Loc &loc, const std::string &how) {
  const UnknownObj &u = o.as<UnknownObj>();
  std::string what(std::string_view(u.what).substr(u.what.starts_with("module ") ? 7 : 0));
  if (!u.module.empty())
    throw TraceError(loc, how + " `" + excerpt(what) + "`: it comes from `" + excerpt(u.module) +
                              "` (imported at line " + std::to_string(u.import_line) +
                              "), a module the tracer cannot read (it runs torch, math and the "
                              "model's own files: docs/tracer.md)");
  throw TraceError(loc, how + " `" + excerpt(what) + "`" +
                            (u.line ? " (from line " + std::to_string(u.line) + ")" : "") +
                            ": the tracer does not model it");
}

namespace {

// The message of an exception instance: its first argument.
std::string exception_text(Interpreter &in, const Obj &e, const Loc &loc) {
  if (e.kind != Obj::Kind::Instance) return in.str(e, loc);
  const InstanceObj &inst = e.as<InstanceObj>();
  std::string text = inst.cls->name;
  const Obj *args = inst.dict->get("args");
  if (args && args->kind == Obj::Kind::Tuple && !items_of(*args).empty()) {
    const Obj &first = items_of(*args).front();
    std::string message = first.kind == Obj::Kind::Str ? str_of(first) : in.repr(first, loc);
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
  if (impl_->module_ran) return;
  impl_->module_ran = true;
  Frame frame;
  frame.locals = frame.globals = impl_->globals;
  frame.module = module_.get();
  frame.is_module = true;
  try {
    run_block(module_->body, frame);
  } catch (const PyError &e) {
    throw uncaught(e);
  }
}

const Obj *Interpreter::global(std::string_view name) const {
  return impl_->globals->find(name);
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
  frame.locals = frame.globals = impl_->globals;
  frame.module = module_.get();
  frame.is_module = true;
  try {
    return eval(e, frame);
  } catch (const PyError &err) {
    throw uncaught(err);
  }
}

// ---- statements ------------------------------------------------------------------------------

Interpreter::Flow Interpreter::run_block(const std::vector<Stmt> &block, Frame &frame) {
  for (const Stmt &s : block) {
    Flow f = run(s, frame);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interpreter::Flow Interpreter::run(const Stmt &s, Frame &frame) {
  step(s.loc);
  bool traced_code = frame.module && frame.module != impl_->nn_source.get();
  switch (s.kind) {
  case Stmt::Kind::Pass:
    return Flow::Normal;
  case Stmt::Kind::Break:
    return Flow::Break;
  case Stmt::Kind::Continue:
    return Flow::Continue;
  case Stmt::Kind::Expr:
    if (traced_code) backend_->at_statement(s, *frame.module);
    eval(s.value, frame);
    return Flow::Normal;
  case Stmt::Kind::Assign: {
    if (traced_code) backend_->at_statement(s, *frame.module);
    Obj value = eval(s.value, frame);
    // `a = b = x`: each target in turn; the last takes the value itself.
    for (std::size_t i = 0; i < s.targets.size(); ++i)
      assign(s.targets[i], i + 1 < s.targets.size() ? value : std::move(value), frame);
    return Flow::Normal;
  }
  case Stmt::Kind::AnnAssign: {
    const Expr &target = s.targets[0];
    if (frame.is_class && target.kind == Expr::Kind::Name &&
        !contains(frame.annotations, target.text))
      frame.annotations.push_back(target.text);
    if (!s.has_value) return Flow::Normal;
    if (traced_code) backend_->at_statement(s, *frame.module);
    assign(target, eval(s.value, frame), frame);
    return Flow::Normal;
  }
  case Stmt::Kind::AugAssign:
    return run_aug_assign(s, frame);
  case Stmt::Kind::Return:
    if (traced_code) backend_->at_statement(s, *frame.module);
    frame.result = s.has_value ? eval(s.value, frame) : Obj::none();
    return Flow::Return;
  case Stmt::Kind::If: {
    if (traced_code) backend_->at_statement(s, *frame.module);
    if (truth(eval(s.value, frame), s.value.loc)) return run_block(s.body, frame);
    for (const Stmt &clause : s.elifs) {
      step(clause.loc);
      if (traced_code) backend_->at_statement(clause, *frame.module);
      if (truth(eval(clause.value, frame), clause.value.loc)) return run_block(clause.body, frame);
    }
    return run_block(s.orelse, frame);
  }
  case Stmt::Kind::For: {
    if (traced_code) backend_->at_statement(s, *frame.module);
    std::vector<Obj> items = iterate(eval(s.value, frame), s.value.loc);
    for (Obj &item : items) {
      step(s.loc);
      assign(s.targets[0], std::move(item), frame);
      Flow f = run_block(s.body, frame);
      if (f == Flow::Break) return Flow::Normal;
      if (f == Flow::Return) return f;
    }
    return run_block(s.orelse, frame);
  }
  case Stmt::Kind::While: {
    if (traced_code) backend_->at_statement(s, *frame.module);
    while (truth(eval(s.value, frame), s.value.loc)) {
      step(s.loc);
      Flow f = run_block(s.body, frame);
      if (f == Flow::Break) return Flow::Normal;
      if (f == Flow::Return) return f;
    }
    return run_block(s.orelse, frame);
  }
  case Stmt::Kind::Def: {
    Obj f = make_function(*s.function, frame,
                          frame.is_class ? "" : s.function->name); // a method's: set below
    // Decorators apply innermost first.
    for (auto d = s.function->decorators.rbegin(); d != s.function->decorators.rend(); ++d)
      f = call(eval(*d, frame), {std::move(f)}, {}, d->loc);
    bind_name(s.function->name, std::move(f), frame);
    return Flow::Normal;
  }
  case Stmt::Kind::Class:
    define_class(s, frame);
    return Flow::Normal;
  case Stmt::Kind::Import:
  case Stmt::Kind::ImportFrom:
    do_import(s, frame);
    return Flow::Normal;
  case Stmt::Kind::Assert: {
    if (traced_code) backend_->at_statement(s, *frame.module);
    if (truth(eval(s.value, frame), s.value.loc)) return Flow::Normal;
    std::string message = s.exprs.empty() ? "" : str(eval(s.exprs[0], frame), s.loc);
    raise("AssertionError", message, s.loc);
  }
  case Stmt::Kind::Raise: {
    if (!s.has_value) raise("RuntimeError", "No active exception to reraise", s.loc);
    Obj e = eval(s.value, frame);
    if (e.kind == Obj::Kind::Class) e = call(e, {}, {}, s.loc);
    if (e.kind != Obj::Kind::Instance ||
        !e.as<InstanceObj>().cls->is_subclass_of(*impl_->exception_classes.at("BaseException")))
      raise("TypeError", "exceptions must derive from BaseException", s.loc);
    throw PyError{e, s.loc, {}, std::nullopt};
  }
  case Stmt::Kind::Try:
    return run_try(s, frame);
  case Stmt::Kind::With:
    return run_with(s, frame);
  case Stmt::Kind::Delete:
    if (traced_code) backend_->at_statement(s, *frame.module);
    for (const Expr &t : s.targets)
      delete_target(t, frame);
    return Flow::Normal;
  case Stmt::Kind::Global:
    for (const ImportName &n : s.names)
      frame.global_names.push_back(n.name);
    return Flow::Normal;
  case Stmt::Kind::Nonlocal:
    for (const ImportName &n : s.names)
      frame.nonlocal_names.push_back(n.name);
    return Flow::Normal;
  case Stmt::Kind::Unsupported:
    throw TraceError(s.loc, "unsupported construct: " + s.text +
                                " (the tracer interprets most of Python; see `tracelint trace "
                                "--help`)");
  }
  return Flow::Normal;
}

// x op= y: the target's parts evaluated once; a tensor updated in place, a list extended.
Interpreter::Flow Interpreter::run_aug_assign(const Stmt &s, Frame &frame) {
  bool traced_code = frame.module && frame.module != impl_->nn_source.get();
  if (traced_code) backend_->at_statement(s, *frame.module);
  const Expr &target = s.targets[0];
  // The target's parts are evaluated once (x[i] += 1 reads and writes the same x and i).
  Obj base, index, left;
  if (target.kind == Expr::Kind::Attribute) {
    base = eval(target.items[0], frame);
    left = attribute(base, target.text, target.loc);
  } else if (target.kind == Expr::Kind::Subscript) {
    base = eval(target.items[0], frame);
    index = eval(target.items[1], frame);
    left = subscript(base, index, target.loc);
  } else if (target.kind == Expr::Kind::Name) {
    left = lookup(target, frame);
  } else {
    throw TraceError(
        target.loc,
        "unsupported construct: augmented assignment to " +
            (target.kind == Expr::Kind::Unsupported ? target.text : std::string("this target")));
  }
  Obj right = eval(s.value, frame);
  Obj result;
  if (left.kind == Obj::Kind::Tensor && base.kind == Obj::Kind::Tensor &&
      target.kind == Expr::Kind::Subscript) {
    // x[key] += y is x[key] = x[key] + y: the sum is written back by setitem, so the view
    // x[key] need not be updated in place (and must not stay alive as x's view).
    result = tensor_binary(s.op, left, std::move(right), s.loc);
    if (std::optional<std::string> problem =
            in_place_cast_problem(result.as<TensorObj>().dtype, left.as<TensorObj>().dtype))
      raise("RuntimeError", *problem, s.loc);
    left = Obj::none();
  } else if (left.kind == Obj::Kind::Tensor) {
    // Tensor.__iadd__: an in-place update that every alias of the tensor sees.
    result = tensor_binary(s.op, left, std::move(right), s.loc);
    update_in_place(left, result, s.loc);
    result = left;
  } else if (left.kind == Obj::Kind::List && s.op == BinaryOp::add) {
    // list.__iadd__ extends the list itself.
    for (Obj &o : iterate(right, s.loc))
      items_of(left).push_back(std::move(o));
    result = left;
  } else {
    result = binary(s.op, std::move(left), std::move(right), s.loc);
  }
  if (target.kind == Expr::Kind::Attribute)
    set_attribute(base, target.text, std::move(result), target.loc);
  else if (target.kind == Expr::Kind::Subscript)
    set_item(base, index, std::move(result), target.loc);
  else
    bind_name(target.text, std::move(result), frame);
  return Flow::Normal;
}

// `with`: torch.no_grad() and objects with __enter__/__exit__.
Interpreter::Flow Interpreter::run_with(const Stmt &s, Frame &frame) {
  bool traced_code = frame.module && frame.module != impl_->nn_source.get();
  if (traced_code) backend_->at_statement(s, *frame.module);
  std::vector<Obj> managers;
  for (std::size_t i = 0; i < s.exprs.size(); ++i) {
    Obj m = eval(s.exprs[i], frame);
    Obj entered;
    if (m.kind == Obj::Kind::Builtin &&
        (m.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::no_grad) ||
         m.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::null_context))) {
      entered = Obj::none();
    } else if (m.kind == Obj::Kind::Instance && m.as<InstanceObj>().cls->lookup("__enter__")) {
      entered = call(attribute(m, "__enter__", s.loc), {}, {}, s.loc);
    } else if (m.kind == Obj::Kind::Generator && m.as<GeneratorObj>().context_manager) {
      std::optional<Obj> first = resume_generator(m, s.loc);
      if (!first) raise("RuntimeError", "generator didn't yield", s.loc);
      entered = std::move(*first);
    } else {
      throw TraceError(s.exprs[i].loc, "unsupported construct: `with` " + describe(m) +
                                           " (the tracer knows torch.no_grad() and "
                                           "objects with __enter__/__exit__)");
    }
    managers.push_back(m);
    if (s.targets[i].kind != Expr::Kind::None) assign(s.targets[i], entered, frame);
  }
  Flow f = run_block(s.body, frame);
  for (auto m = managers.rbegin(); m != managers.rend(); ++m)
    if (m->kind == Obj::Kind::Instance)
      call(attribute(*m, "__exit__", s.loc), {Obj::none(), Obj::none(), Obj::none()}, {}, s.loc);
    else if (m->kind == Obj::Kind::Generator && resume_generator(*m, s.loc))
      raise("RuntimeError", "generator didn't stop", s.loc);
  return f;
}

Interpreter::Flow Interpreter::run_try(const Stmt &s, Frame &frame) {
  Flow flow = Flow::Normal;
  auto finally = [&] {
    if (s.finalbody.empty()) return;
    Flow f = run_block(s.finalbody, frame);
    if (f != Flow::Normal) flow = f;
  };
  try {
    flow = run_block(s.body, frame);
  } catch (const PyError &e) {
    const ExceptHandler *handler = nullptr;
    for (const ExceptHandler &h : s.handlers) {
      if (!h.type) {
        handler = &h;
        break;
      }
      Obj types = eval(*h.type, frame);
      if (isinstance(e.exception, types, h.loc)) {
        handler = &h;
        break;
      }
    }
    if (!handler) {
      finally();
      throw;
    }
    if (!handler->name.empty()) bind_name(handler->name, e.exception, frame);
    try {
      flow = run_block(handler->body, frame);
    } catch (const GeneratorAbandoned &) {
      throw; // a dropped generator unwinds: no more of its code runs
    } catch (...) {
      finally();
      throw;
    } finally();
    return flow;
  } catch (const TraceError &) {
    throw; // not a Python exception: nothing catches it
  }
  if (flow == Flow::Normal) flow = run_block(s.orelse, frame);
  finally();
  return flow;
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

void Interpreter::do_import(const Stmt &s, Frame &frame) {
  // A provided module (torch, math, ...), else one of the model's own files, else a module the
  // tracer cannot read: an error where something of it is used.
  auto module_object = [&](const std::string &dotted) -> Obj {
    if (std::optional<Obj> m = provided_module(dotted)) return *m;
    return unreadable_module(dotted, "module " + dotted, s.loc);
  };
  if (s.kind == Stmt::Kind::Import) {
    for (const ImportName &n : s.names) {
      std::string top = n.name.substr(0, n.name.find('.'));
      if (!provided_module(top)) {
        std::vector<Obj> chain = local_module(n.name, 0, frame, s.loc);
        if (!chain.empty()) {
          // import a.b binds a; import a.b as c binds a.b.
          bind_name(n.alias.empty() ? top : n.alias, n.alias.empty() ? chain.front() : chain.back(),
                    frame);
          continue;
        }
      }
      if (!n.alias.empty()) {
        bind_name(n.alias, module_object(n.name), frame);
      } else {
        // import a.b binds a (which must then have b).
        bind_name(top, module_object(top), frame);
      }
    }
    return;
  }
  std::size_t level = s.text.find_first_not_of('.');
  if (level == std::string::npos) level = s.text.size();
  std::string dotted = s.text.substr(level);
  if (level > 0 || !provided_module(dotted.substr(0, dotted.find('.')))) {
    std::vector<Obj> chain = local_module(dotted, level, frame, s.loc);
    if (!chain.empty()) return import_names(chain.back(), dotted, level, s, frame);
    if (level > 0)
      raise("ModuleNotFoundError",
            "no module named '" + s.text + "' beside " + (frame.module ? frame.module->path : ""),
            s.loc);
  }
  Obj module = module_object(s.text);
  for (const ImportName &n : s.names) {
    if (n.name == "*") {
      if (module.kind != Obj::Kind::Module) continue;
      continue; // a star import of a provided module: its names are reached through it
    }
    Obj value;
    if (std::optional<Obj> sub = provided_module(s.text + "." + n.name)) {
      value = *sub;
    } else if (module.kind == Obj::Kind::Unknown) {
      value = derived_unknown(module, s.text + "." + n.name, s.loc);
    } else {
      std::optional<Obj> found = find_attribute(module, n.name, s.loc);
      if (!found)
        raise("ImportError", "cannot import name '" + n.name + "' from '" + s.text + "'", s.loc);
      value = *found;
    }
    bind_name(n.alias.empty() ? n.name : n.alias, std::move(value), frame);
  }
}

// from <one of the model's modules> import names: its attributes, or its submodules.
void Interpreter::import_names(const Obj &module, const std::string &dotted, std::size_t level,
                               const Stmt &s, Frame &frame) {
  const ModuleObj &m = module.as<ModuleObj>();
  for (const ImportName &n : s.names) {
    if (n.name == "*") {
      for (const auto &[name, value] : std::vector(m.globals->vars))
        if (!name.starts_with("_")) bind_name(name, value, frame);
      continue;
    }
    Obj value;
    if (Obj *v = m.globals->find(n.name)) {
      value = *v;
    } else {
      std::vector<Obj> sub =
          local_module(dotted.empty() ? n.name : dotted + "." + n.name, level, frame, s.loc);
      if (sub.empty())
        raise("ImportError", "cannot import name '" + n.name + "' from '" + s.text + "'", s.loc);
      value = sub.back();
    }
    bind_name(n.alias.empty() ? n.name : n.alias, std::move(value), frame);
  }
}

Obj Interpreter::make_function(const FunctionDef &def, Frame &frame, const std::string &qualname) {
  auto f = std::make_shared<FunctionObj>();
  f->def = &def;
  f->globals = frame.globals;
  f->module = owner_of(frame.module);
  // A def in a class body does not see the class's names; one in a function sees its scope.
  if (frame.is_class)
    f->closure = frame.locals->parent;
  else if (!frame.is_module)
    f->closure = frame.locals;
  // The function and the scope it closes over may hold each other (a nested def is one of the
  // scope's names): ~Interpreter empties such scopes.
  if (f->closure && (impl_->captured.empty() || impl_->captured.back().lock() != f->closure)) {
    impl_->captured.push_back(f->closure);
    // An expired entry still holds its scope's memory (make_shared): drop those now and then.
    if (impl_->captured.size() >= impl_->compact_captured_at) {
      std::erase_if(impl_->captured, [](const std::weak_ptr<Env> &w) { return w.expired(); });
      impl_->compact_captured_at = std::max<std::size_t>(64, 2 * impl_->captured.size());
    }
  }
  f->qualname = qualname.empty() ? def.name : qualname;
  f->defaults.resize(def.params.size());
  for (std::size_t i = 0; i < def.params.size(); ++i)
    if (def.params[i].default_value) f->defaults[i] = eval(*def.params[i].default_value, frame);
  return Obj::heap(Obj::Kind::Function, std::move(f));
}

namespace {

// C3 linearisation, as Python orders a class's bases.
std::vector<ClassObj *> linearize(ClassObj *cls, const Loc &loc) {
  std::vector<std::vector<ClassObj *>> sequences;
  for (const auto &b : cls->bases)
    sequences.push_back(b->mro);
  std::vector<ClassObj *> bases;
  for (const auto &b : cls->bases)
    bases.push_back(b.get());
  sequences.push_back(bases);
  std::vector<ClassObj *> out{cls};
  while (true) {
    std::erase_if(sequences, [](const auto &s) { return s.empty(); });
    if (sequences.empty()) return out;
    ClassObj *next = nullptr;
    for (const auto &s : sequences) {
      ClassObj *candidate = s.front();
      bool in_tail = false;
      for (const auto &t : sequences)
        in_tail = in_tail || std::find(t.begin() + 1, t.end(), candidate) != t.end();
      if (!in_tail) {
        next = candidate;
        break;
      }
    }
    if (!next)
      throw TraceError(loc, "cannot create a consistent method resolution order for class `" +
                                cls->name + "`");
    out.push_back(next);
    for (auto &s : sequences)
      if (!s.empty() && s.front() == next) s.erase(s.begin());
  }
}

} // namespace

void Interpreter::define_class(const Stmt &s, Frame &frame) {
  const ClassDef &def = *s.cls;
  auto cls = std::make_shared<ClassObj>();
  cls->name = def.name;
  cls->qualname = def.name;
  for (const Expr &b : def.bases) {
    Obj base = eval(b, frame);
    if (base.kind == Obj::Kind::Class &&
        base.as<ClassObj>().builtin == static_cast<uint16_t>(Builtin::class_typing_namedtuple)) {
      // class Out(NamedTuple): a tuple whose fields are the annotated names.
      cls->bases.push_back(builtin_class(Builtin::tuple));
      cls->builtin = static_cast<uint16_t>(Builtin::class_namedtuple);
    } else if (base.kind == Obj::Kind::Class) {
      cls->bases.push_back(std::static_pointer_cast<ClassObj>(base.ref));
      // A subclass of a namedtuple class is one too (its fields, its methods).
      if (base.as<ClassObj>().builtin == static_cast<uint16_t>(Builtin::class_namedtuple))
        cls->builtin = static_cast<uint16_t>(Builtin::class_namedtuple);
    } else if (base.kind == Obj::Kind::Unknown) {
      // class Config(PretrainedConfig) from a module the tracer does not have: the class is
      // made without that base (its own methods still work).
      continue;
    } else if (base.kind == Obj::Kind::Tuple || base.kind == Obj::Kind::Instance) {
      throw TraceError(b.loc, "unsupported construct: a class base that is " + describe(base));
    } else {
      raise("TypeError", "a class base must be a class, not " + describe(base), b.loc);
    }
  }
  if (cls->bases.empty()) cls->bases.push_back(builtin_class(Builtin::object));
  bool named_tuple = cls->builtin == static_cast<uint16_t>(Builtin::class_namedtuple);
  cls->mro = linearize(cls.get(), s.loc);
  for (const auto &b : cls->bases)
    if (b->builtin == static_cast<uint16_t>(Builtin::class_exception))
      cls->builtin = static_cast<uint16_t>(Builtin::class_exception);
  // The body runs in its own namespace; its defs become the class's attributes.
  Frame body;
  body.locals = std::make_shared<Env>();
  body.locals->parent = frame.is_module ? nullptr : frame.locals;
  body.globals = frame.globals;
  body.module = frame.module;
  body.is_class = true;
  Obj cls_obj = Obj::heap(Obj::Kind::Class, cls);
  Flow f = run_block(def.body, body);
  (void)f;
  for (auto &[name, value] : body.locals->vars) {
    if (value.kind == Obj::Kind::Function) {
      FunctionObj &fn = value.as<FunctionObj>();
      if (fn.qualname == fn.def->name) fn.qualname = def.name + "." + fn.def->name;
      fn.owner_class = cls;
    } else if (value.kind == Obj::Kind::ClassMethod || value.kind == Obj::Kind::StaticMethod ||
               value.kind == Obj::Kind::Property) {
      std::vector<const Obj *> inner;
      if (value.kind == Obj::Kind::Property) {
        const PropertyObj &p = value.as<PropertyObj>();
        inner = {&p.getter, &p.setter, &p.deleter};
      } else {
        inner = {&value.as<MethodWrapperObj>().function};
      }
      for (const Obj *f : inner) {
        if (f->kind != Obj::Kind::Function) continue;
        FunctionObj &fn = f->as<FunctionObj>();
        if (fn.qualname == fn.def->name) fn.qualname = def.name + "." + fn.def->name;
        fn.owner_class = cls;
      }
    }
    cls->attributes.set(Obj::str(name), value);
  }
  // Fields of dataclass bases come first, then this class's annotated names.
  for (auto it = cls->mro.rbegin(); it != cls->mro.rend(); ++it)
    if (*it != cls.get())
      for (const std::string &f : (*it)->fields)
        if (!contains(cls->fields, f)) cls->fields.push_back(f);
  for (const std::string &a : body.annotations)
    if (!contains(cls->fields, a)) cls->fields.push_back(a);
  cls->attributes.set(Obj::str("__name__"), Obj::str(def.name));
  cls->attributes.set(Obj::str("__qualname__"), Obj::str(def.name));
  if (is_enum_class(*cls)) make_enum_members(cls, body.locals->vars, s.loc);
  if (named_tuple) builtins::finish_named_tuple_class(*cls, body.locals->vars);
  for (auto d = def.decorators.rbegin(); d != def.decorators.rend(); ++d)
    cls_obj = call(eval(*d, frame), {std::move(cls_obj)}, {}, d->loc);
  bind_name(def.name, std::move(cls_obj), frame);
}

// ---- names ----------------------------------------------------------------------------------

Obj Interpreter::lookup(const Expr &name, Frame &frame) {
  const std::string &n = name.text;
  if (!frame.global_names.empty() && contains(frame.global_names, n)) {
    if (Obj *v = frame.globals->find(n)) return *v;
  } else {
    for (Env *env = frame.locals.get(); env; env = env->parent.get())
      if (Obj *v = env->find(n)) {
        if (v->kind == Obj::Kind::Cell) return v->as<CellObj>().value;
        return *v;
      }
    if (frame.locals != frame.globals)
      if (Obj *v = frame.globals->find(n)) return *v;
  }
  if (Obj *v = impl_->builtins->find(n)) return *v;
  raise("NameError", "name '" + excerpt(n) + "' is not defined", name.loc);
}

void Interpreter::bind_name(const std::string &name, Obj value, Frame &frame) {
  if (!frame.global_names.empty() && contains(frame.global_names, name)) {
    frame.globals->set(name, std::move(value));
    return;
  }
  if (!frame.nonlocal_names.empty() && contains(frame.nonlocal_names, name))
    for (Env *env = frame.locals->parent.get(); env; env = env->parent.get())
      if (Obj *v = env->find(name)) {
        *v = std::move(value);
        return;
      }
  frame.locals->set(name, std::move(value));
}

void Interpreter::assign(const Expr &target, Obj value, Frame &frame) {
  switch (target.kind) {
  case Expr::Kind::Name:
    bind_name(target.text, std::move(value), frame);
    return;
  case Expr::Kind::Attribute:
    set_attribute(eval(target.items[0], frame), target.text, std::move(value), target.loc);
    return;
  case Expr::Kind::Subscript: {
    Obj base = eval(target.items[0], frame);
    Obj index = eval(target.items[1], frame);
    set_item(base, index, std::move(value), target.loc);
    return;
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    if (value.kind == Obj::Kind::Tensor)
      throw TraceError(target.loc, "unsupported construct: unpacking a tensor (its rows depend "
                                   "on its first dim; index it or use unbind)");
    std::vector<Obj> items = iterate(value, target.loc);
    std::size_t starred = target.items.size();
    for (std::size_t i = 0; i < target.items.size(); ++i)
      if (target.items[i].kind == Expr::Kind::Starred) starred = i;
    if (starred == target.items.size()) {
      if (items.size() != target.items.size())
        raise("ValueError",
              items.size() > target.items.size()
                  ? "too many values to unpack (expected " + std::to_string(target.items.size()) +
                        ")"
                  : "not enough values to unpack (expected " + std::to_string(target.items.size()) +
                        ", got " + std::to_string(items.size()) + ")",
              target.loc);
      for (std::size_t i = 0; i < items.size(); ++i)
        assign(target.items[i], std::move(items[i]), frame);
      return;
    }
    std::size_t after = target.items.size() - starred - 1;
    if (items.size() < starred + after)
      raise("ValueError", "not enough values to unpack", target.loc);
    for (std::size_t i = 0; i < starred; ++i)
      assign(target.items[i], std::move(items[i]), frame);
    std::vector<Obj> middle(std::make_move_iterator(items.begin() + starred),
                            std::make_move_iterator(items.end() - after));
    assign(target.items[starred].items[0], Obj::list(std::move(middle)), frame);
    for (std::size_t i = 0; i < after; ++i)
      assign(target.items[starred + 1 + i], std::move(items[items.size() - after + i]), frame);
    return;
  }
  case Expr::Kind::Starred:
    throw TraceError(target.loc, "a starred assignment target must be in a list or tuple");
  default:
    throw TraceError(target.loc, "unsupported construct: " +
                                     (target.kind == Expr::Kind::Unsupported
                                          ? target.text
                                          : std::string("assignment to this expression")));
  }
}

void Interpreter::delete_target(const Expr &target, Frame &frame) {
  switch (target.kind) {
  case Expr::Kind::Name:
    if (!frame.locals->erase(target.text))
      raise("NameError", "name '" + excerpt(target.text) + "' is not defined", target.loc);
    return;
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
    for (const Expr &t : target.items)
      delete_target(t, frame);
    return;
  case Expr::Kind::Subscript: {
    Obj base = eval(target.items[0], frame);
    Obj index = eval(target.items[1], frame);
    if (base.kind == Obj::Kind::Dict) {
      if (!base.as<DictObj>().erase(index)) raise("KeyError", repr(index, target.loc), target.loc);
      return;
    }
    if (base.kind == Obj::Kind::List && index.kind == Obj::Kind::Int) {
      auto &items = items_of(base);
      int64_t n = static_cast<int64_t>(items.size());
      int64_t i = concrete_int(index, target.loc, "an index");
      if (i < 0) i += n;
      if (i < 0 || i >= n) raise("IndexError", "list assignment index out of range", target.loc);
      items.erase(items.begin() + i);
      return;
    }
    if (base.kind == Obj::Kind::Instance)
      if (base.as<InstanceObj>().cls->lookup("__delitem__")) {
        call(attribute(base, "__delitem__", target.loc), {index}, {}, target.loc);
        return;
      }
    throw TraceError(target.loc, "unsupported construct: del of an item of " + describe(base));
  }
  case Expr::Kind::Attribute: {
    Obj base = eval(target.items[0], frame);
    if (base.kind == Obj::Kind::Instance) {
      InstanceObj &inst = base.as<InstanceObj>();
      if (inst.cls->lookup("__delattr__")) {
        call(attribute(base, "__delattr__", target.loc), {Obj::str(target.text)}, {}, target.loc);
        return;
      }
      if (const Obj *p = inst.cls->lookup(target.text); p && p->kind == Obj::Kind::Property) {
        call_property_part(*this, p->as<PropertyObj>().deleter, "deleter", target.text,
                           inst.cls->name, {base}, target.loc);
        return;
      }
      if (inst.dict->erase(Obj::str(target.text))) return;
    }
    raise("AttributeError", excerpt(target.text), target.loc);
  }
  default:
    throw TraceError(target.loc, "unsupported construct: del of this expression");
  }
}

// ---- expressions ----------------------------------------------------------------------------

Obj Interpreter::eval(const Expr &e, Frame &frame) {
  switch (e.kind) {
  case Expr::Kind::Name:
    return lookup(e, frame);
  case Expr::Kind::Int:
    return Obj::int_of(e.integer);
  case Expr::Kind::Float:
    return Obj::float_of(e.real);
  case Expr::Kind::Str:
    return Obj::str(e.text);
  case Expr::Kind::FString:
    return eval_fstring(e, frame);
  case Expr::Kind::FormattedValue:
    return eval_fstring(e, frame);
  case Expr::Kind::Bool:
    return Obj::boolean_of(e.boolean);
  case Expr::Kind::None:
    return Obj::none();
  case Expr::Kind::Ellipsis:
    return Obj::ellipsis();
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
  case Expr::Kind::Set: {
    std::vector<Obj> items;
    items.reserve(e.items.size());
    for (const Expr &item : e.items) {
      if (item.kind == Expr::Kind::Starred) {
        for (Obj &o : iterate(eval(item.items[0], frame), item.loc))
          items.push_back(std::move(o));
      } else {
        items.push_back(eval(item, frame));
      }
    }
    if (e.kind == Expr::Kind::Tuple) return Obj::tuple(std::move(items));
    if (e.kind == Expr::Kind::List) return Obj::list(std::move(items));
    std::vector<Obj> unique;
    for (Obj &o : items) {
      bool seen = false;
      for (const Obj &u : unique)
        seen = seen || equal(u, o, e.loc);
      if (!seen) unique.push_back(std::move(o));
    }
    return Obj::set(std::move(unique));
  }
  case Expr::Kind::Dict: {
    Obj d = Obj::dict();
    DictObj &dict = d.as<DictObj>();
    for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
      if (e.items[i].kind == Expr::Kind::DoubleStarred) {
        Obj other = eval(e.items[i].items[0], frame);
        if (other.kind != Obj::Kind::Dict)
          raise("TypeError", "'" + type_name(other) + "' object is not a mapping", e.items[i].loc);
        const DictObj &o = other.as<DictObj>();
        for (std::size_t k = 0; k < o.keys.size(); ++k)
          dict_set(dict, o.keys[k], o.values[k], e.items[i].loc);
        continue;
      }
      Obj key = eval(e.items[i], frame);
      if (key.is_proxy()) backend_->guard(key, e.items[i].loc);
      Obj value = eval(e.items[i + 1], frame);
      dict_set(dict, std::move(key), std::move(value), e.items[i].loc);
    }
    return d;
  }
  case Expr::Kind::Slice:
    return Obj::slice(eval(e.items[0], frame), eval(e.items[1], frame), eval(e.items[2], frame));
  case Expr::Kind::Attribute:
    return attribute(eval(e.items[0], frame), e.text, e.loc);
  case Expr::Kind::Call:
    return eval_call(e, frame);
  case Expr::Kind::Subscript: {
    Obj base = eval(e.items[0], frame);
    return subscript(base, eval(e.items[1], frame), e.loc);
  }
  case Expr::Kind::BinOp: {
    // A chain (a + b - c) runs left to right, as Python evaluates its left-deep tree.
    Obj left = eval(e.items[0], frame);
    for (std::size_t i = 1; i < e.items.size(); ++i)
      left = binary(e.binary_ops()[i - 1], std::move(left), eval(e.items[i], frame), e.loc);
    return left;
  }
  case Expr::Kind::UnaryOp:
    return unary(e.unary_op, eval(e.items[0], frame), e.loc);
  case Expr::Kind::Compare: {
    Obj left = eval(e.items[0], frame);
    Obj result = Obj::boolean_of(true);
    const std::vector<CompareOp> &ops = e.compare_ops();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      Obj right = eval(e.items[i + 1], frame);
      result = compare(ops[i], left, right, e.loc);
      if (i + 1 < ops.size() && !truth(result, e.loc)) return result;
      left = std::move(right);
    }
    return result;
  }
  case Expr::Kind::BoolOp: {
    // A chain (a and b or c) is ((a and b) or c): each operator keeps the value so far or
    // takes the next operand.
    Obj left = eval(e.items[0], frame);
    for (std::size_t i = 1; i < e.items.size(); ++i) {
      bool t = truth(left, e.items[i - 1].loc);
      if (e.bool_ops()[i - 1] == BoolOp::and_ ? t : !t) left = eval(e.items[i], frame);
    }
    return left;
  }
  case Expr::Kind::IfExp:
    return truth(eval(e.items[1], frame), e.items[1].loc) ? eval(e.items[0], frame)
                                                          : eval(e.items[2], frame);
  case Expr::Kind::Lambda:
    return make_function(*e.function, frame, "<lambda>");
  case Expr::Kind::ListComp:
  case Expr::Kind::SetComp:
  case Expr::Kind::DictComp:
  case Expr::Kind::GeneratorExp:
    return eval_comprehension(e, frame);
  case Expr::Kind::Yield:
    return yield_value(eval(e.items[0], frame), e.loc);
  case Expr::Kind::YieldFrom:
    return yield_from(eval(e.items[0], frame), e.loc);
  case Expr::Kind::NamedExpr: {
    Obj value = eval(e.items[1], frame);
    // := binds in the enclosing function, not in a comprehension's scope.
    bind_name(e.items[0].text, value, frame);
    return value;
  }
  case Expr::Kind::Starred:
    throw TraceError(e.loc, "can't use starred expression here");
  case Expr::Kind::DoubleStarred:
    throw TraceError(e.loc, "can't use ** here");
  case Expr::Kind::Unsupported:
    throw TraceError(e.loc, "unsupported construct: " + e.text +
                                " (the tracer interprets most of Python; see `tracelint trace "
                                "--help`)");
  }
  throw TraceError(e.loc, "unsupported expression");
}

Obj Interpreter::eval_comprehension(const Expr &e, Frame &frame) {
  // Its own scope, reading through to the enclosing one.
  Frame inner;
  inner.locals = std::make_shared<Env>();
  inner.locals->parent = frame.is_module ? nullptr : frame.locals;
  if (frame.is_class) inner.locals->parent = frame.locals->parent;
  inner.globals = frame.globals;
  inner.module = frame.module;
  inner.function = frame.function;
  std::vector<Obj> out;
  Obj dict = e.kind == Expr::Kind::DictComp ? Obj::dict() : Obj{};
  const std::vector<CompFor> &gens = *e.generators;
  // The outermost iterable is evaluated in the enclosing scope, as Python does.
  std::vector<std::vector<Obj>> pending(gens.size());
  std::vector<std::size_t> at(gens.size(), 0);
  pending[0] = iterate(eval(gens[0].iter, frame), gens[0].iter.loc);
  std::size_t level = 0;
  while (true) {
    if (at[level] >= pending[level].size()) {
      if (level == 0) break;
      --level;
      continue;
    }
    step(e.loc);
    assign(gens[level].target, pending[level][at[level]++], inner);
    bool keep = true;
    for (const Expr &cond : gens[level].ifs)
      if (!truth(eval(cond, inner), cond.loc)) {
        keep = false;
        break;
      }
    if (!keep) continue;
    if (level + 1 < gens.size()) {
      ++level;
      pending[level] = iterate(eval(gens[level].iter, inner), gens[level].iter.loc);
      at[level] = 0;
      continue;
    }
    if (e.kind == Expr::Kind::DictComp) {
      Obj key = eval(e.items[0], inner);
      Obj value = eval(e.items[1], inner);
      dict_set(dict.as<DictObj>(), std::move(key), std::move(value), e.items[0].loc);
    } else
      out.push_back(eval(e.items[0], inner));
  }
  switch (e.kind) {
  case Expr::Kind::DictComp:
    return dict;
  case Expr::Kind::SetComp: {
    std::vector<Obj> unique;
    for (Obj &o : out) {
      bool seen = false;
      for (const Obj &u : unique)
        seen = seen || equal(u, o, e.loc);
      if (!seen) unique.push_back(std::move(o));
    }
    return Obj::set(std::move(unique));
  }
  case Expr::Kind::GeneratorExp:
    // A generator the tracer runs at once: over the static iterables model code walks, the
    // values are the same.
    return Obj::tuple(std::move(out));
  default:
    return Obj::list(std::move(out));
  }
}

Obj Interpreter::eval_call(const Expr &e, Frame &frame) {
  Obj callee = eval(e.items[0], frame);
  std::size_t positional = e.items.size() - 1 - e.keywords.size();
  std::vector<Obj> args;
  args.reserve(positional + 1); // and a method's self, put first
  for (std::size_t i = 1; i <= positional; ++i) {
    const Expr &a = e.items[i];
    if (a.kind == Expr::Kind::Starred) {
      for (Obj &o : iterate(eval(a.items[0], frame), a.loc))
        args.push_back(std::move(o));
    } else {
      args.push_back(eval(a, frame));
    }
  }
  Kwargs kwargs;
  for (std::size_t i = 0; i < e.keywords.size(); ++i) {
    const Expr &v = e.items[1 + positional + i];
    if (e.keywords[i] == "**") {
      Obj d = eval(v, frame);
      if (d.kind != Obj::Kind::Dict)
        raise("TypeError", "argument after ** must be a mapping, not " + type_name(d), v.loc);
      const DictObj &dict = d.as<DictObj>();
      for (std::size_t k = 0; k < dict.keys.size(); ++k) {
        if (dict.keys[k].kind != Obj::Kind::Str)
          raise("TypeError", "keywords must be strings", v.loc);
        kwargs.emplace_back(str_of(dict.keys[k]), dict.values[k]);
      }
    } else {
      kwargs.emplace_back(e.keywords[i], eval(v, frame));
    }
  }
  // super() without arguments: the class the method was defined in, and its first argument.
  if (callee.kind == Obj::Kind::Builtin &&
      callee.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::super) && args.empty()) {
    std::shared_ptr<Heap> owner = frame.function ? frame.function->owner_class.lock() : nullptr;
    if (!owner) raise("RuntimeError", "super(): no arguments outside a method", e.loc);
    auto s = std::make_shared<SuperObj>();
    s->start = std::static_pointer_cast<ClassObj>(owner);
    s->self = frame.first_argument;
    return Obj::heap(Obj::Kind::Super, std::move(s));
  }
  return call(callee, std::move(args), std::move(kwargs), e.loc);
}

// ---- calls ----------------------------------------------------------------------------------

Obj Interpreter::call(const Obj &callee, std::vector<Obj> args, Kwargs kwargs, const Loc &loc) {
  switch (callee.kind) {
  case Obj::Kind::Function:
    return call_function(callee.as<FunctionObj>(), std::move(args), std::move(kwargs), loc);
  case Obj::Kind::BoundMethod: {
    const BoundMethodObj &m = callee.as<BoundMethodObj>();
    args.insert(args.begin(), m.self);
    return call(m.function, std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::Builtin:
    return builtins::call(*this, callee.as<BuiltinObj>(), args, kwargs, loc);
  case Obj::Kind::Class: {
    auto cls = std::static_pointer_cast<ClassObj>(callee.ref);
    return construct(cls, std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::Instance: {
    const InstanceObj &inst = callee.as<InstanceObj>();
    if (!inst.cls->lookup("__call__"))
      raise("TypeError", "'" + inst.cls->name + "' object is not callable", loc);
    return call(attribute(callee, "__call__", loc), std::move(args), std::move(kwargs), loc);
  }
  case Obj::Kind::StaticMethod:
  case Obj::Kind::ClassMethod:
    return call(callee.as<MethodWrapperObj>().function, std::move(args), std::move(kwargs), loc);
  case Obj::Kind::Unknown: {
    for (const Obj &a : args)
      if (is_tensor(a)) unknown_used(callee, loc, "calling with a tensor");
    for (const auto &[k, a] : kwargs)
      if (is_tensor(a)) unknown_used(callee, loc, "calling with a tensor");
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
    raise("TypeError", "'" + type_name(callee) + "' object is not callable", loc);
  }
}

void Interpreter::call_chain_note(TraceError &e, const std::string &where) {
  e.chain.push_back(where);
}

Obj Interpreter::call_function(const FunctionObj &f, std::vector<Obj> args, Kwargs kwargs,
                               const Loc &loc) {
  const FunctionDef &def = *f.def;
  if (depth_ >= limits_.max_depth)
    throw TraceError(loc, "calls nest deeper than " + std::to_string(limits_.max_depth) +
                              " (recursion is not traced)");
  Frame frame;
  frame.locals = std::make_shared<Env>();
  frame.locals->parent = f.closure;
  frame.globals = f.globals;
  frame.module = f.module.get();
  frame.function = &f;
  frame.locals->vars.reserve(def.params.size() + 4);

  // Python's binding of arguments to parameters.
  const std::string &name = f.qualname;
  std::vector<char> bound(def.params.size(), 0);
  std::size_t next = 0;
  std::vector<Obj> extra;
  for (Obj &a : args) {
    while (next < def.params.size() && (def.params[next].kind == Param::Kind::KeywordOnly ||
                                        def.params[next].kind == Param::Kind::VarKeywords))
      ++next;
    if (next < def.params.size() && def.params[next].kind == Param::Kind::VarArgs) {
      extra.push_back(std::move(a));
      continue;
    }
    if (next >= def.params.size())
      raise("TypeError",
            excerpt(name) + "() takes " + std::to_string(def.params.size()) +
                " positional arguments but " + std::to_string(args.size()) + " were given",
            loc);
    frame.locals->set(def.params[next].name, std::move(a));
    bound[next++] = 1;
  }
  Obj var_kwargs;
  for (auto &[key, value] : kwargs) {
    std::size_t i = 0;
    while (i < def.params.size() &&
           !(def.params[i].name == key && def.params[i].kind != Param::Kind::VarArgs &&
             def.params[i].kind != Param::Kind::VarKeywords &&
             def.params[i].kind != Param::Kind::PositionalOnly))
      ++i;
    if (i == def.params.size()) {
      bool takes_kwargs = std::any_of(def.params.begin(), def.params.end(), [](const Param &p) {
        return p.kind == Param::Kind::VarKeywords;
      });
      if (!takes_kwargs)
        raise("TypeError",
              excerpt(name) + "() got an unexpected keyword argument '" + excerpt(key) + "'", loc);
      if (var_kwargs.kind != Obj::Kind::Dict) var_kwargs = Obj::dict();
      var_kwargs.as<DictObj>().set(Obj::str(key), std::move(value));
      continue;
    }
    if (bound[i])
      raise("TypeError",
            excerpt(name) + "() got multiple values for argument '" + excerpt(key) + "'", loc);
    frame.locals->set(key, std::move(value));
    bound[i] = 1;
  }
  for (std::size_t i = 0; i < def.params.size(); ++i) {
    const Param &p = def.params[i];
    if (p.kind == Param::Kind::VarArgs) {
      frame.locals->set(p.name, Obj::tuple(std::move(extra)));
      continue;
    }
    if (p.kind == Param::Kind::VarKeywords) {
      frame.locals->set(p.name, var_kwargs.kind == Obj::Kind::Dict ? var_kwargs : Obj::dict());
      continue;
    }
    if (bound[i]) continue;
    if (!f.defaults[i])
      raise("TypeError",
            excerpt(name) + "() missing 1 required argument: '" + excerpt(p.name) + "'", loc);
    frame.locals->set(p.name, *f.defaults[i]);
  }
  if (!def.params.empty() && def.params[0].kind != Param::Kind::VarArgs &&
      def.params[0].kind != Param::Kind::VarKeywords)
    if (Obj *first = frame.locals->find(def.params[0].name)) frame.first_argument = *first;
  if (def.is_generator) return make_generator(f, std::move(frame));

  ++depth_;
  const Module *nn = impl_->nn_source.get();
  bool library = f.module.get() == nn;
  const Module *caller = call_modules_.empty() ? module_.get() : call_modules_.back();
  call_modules_.push_back(f.module.get());
  // Errors inside the tracer's torch.nn are reported at the user's call into it; an error in a
  // module the traced file imports names that module's file. A user function that torch.nn
  // called (a forward, through Module.__call__) is said to be called where the user's code
  // entered torch.nn: the library's own lines are never shown.
  static constexpr std::string_view kEnteredLibrary = "\x01";
  auto note = [&](auto &e) {
    if (!library) {
      if (!e.file) e.file = f.module->path; // raised in this function's code
      e.chain.push_back(
          "in `" + excerpt(f.qualname) + "`, called at " +
          (caller == nn ? std::string(kEnteredLibrary) : where_text(caller->path, loc)));
    } else if (caller != nn) {
      for (std::string &link : e.chain)
        if (link.ends_with(kEnteredLibrary))
          link.replace(link.size() - kEnteredLibrary.size(), kEnteredLibrary.size(),
                       where_text(caller->path, loc));
      if (!e.file || *e.file == nn->path) { // raised in torch.nn's own code
        e.loc = loc;
        e.file = caller->path;
      }
    }
  };
  try {
    Flow flow = run_block(def.body, frame);
    for (std::size_t i = 0; def.rest && i < def.rest->size() && flow != Flow::Return; ++i)
      flow = run_block(def.rest->chunk(i), frame);
    --depth_;
    call_modules_.pop_back();
    return flow == Flow::Return ? std::move(frame.result) : Obj::none();
  } catch (TraceError &e) {
    --depth_;
    call_modules_.pop_back();
    note(e);
    throw;
  } catch (PyError &e) {
    --depth_;
    call_modules_.pop_back();
    note(e);
    throw;
  } catch (...) {
    --depth_;
    call_modules_.pop_back();
    throw;
  }
}

} // namespace tracelint::tracer
