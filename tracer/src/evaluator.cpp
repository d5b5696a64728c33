// The evaluator: runs statements and evaluates expressions in frames, makes functions and
// classes, and calls Python functions. The object model is in object_model.hpp, the builtins
// in builtins/, the torch namespaces in torch_api.cpp, formatting in formatting.cpp.
#include "evaluator.hpp"

#include "builtins/builtin_family.hpp"
#include "generators.hpp"
#include "interpreter_impl.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

namespace tracelint::tracer {

namespace {

bool contains(const std::vector<std::string> &names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

// ---- statements ------------------------------------------------------------------------------

Evaluator::Flow Evaluator::run_block(const std::vector<Stmt> &block, Frame &frame) {
  for (const Stmt &s : block) {
    Flow f = run(s, frame);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Evaluator::Flow Evaluator::run(const Stmt &s, Frame &frame) {
  in.budget().step(s.loc);
  bool traced_code = frame.module && frame.module != in.state().nn_source.get();
  switch (s.kind) {
  case Stmt::Kind::Pass:
    return Flow::Normal;
  case Stmt::Kind::Break:
    return Flow::Break;
  case Stmt::Kind::Continue:
    return Flow::Continue;
  case Stmt::Kind::Expr:
    if (traced_code) in.backend().at_statement(s, *frame.module);
    eval(s.value, frame);
    return Flow::Normal;
  case Stmt::Kind::Assign: {
    if (traced_code) in.backend().at_statement(s, *frame.module);
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
    if (traced_code) in.backend().at_statement(s, *frame.module);
    assign(target, eval(s.value, frame), frame);
    return Flow::Normal;
  }
  case Stmt::Kind::AugAssign:
    return run_aug_assign(s, frame);
  case Stmt::Kind::Return:
    if (traced_code) in.backend().at_statement(s, *frame.module);
    frame.result = s.has_value ? eval(s.value, frame) : Obj::none();
    return Flow::Return;
  case Stmt::Kind::If: {
    if (traced_code) in.backend().at_statement(s, *frame.module);
    if (truth(in, eval(s.value, frame), s.value.loc)) return run_block(s.body, frame);
    for (const Stmt &clause : s.elifs) {
      in.budget().step(clause.loc);
      if (traced_code) in.backend().at_statement(clause, *frame.module);
      if (truth(in, eval(clause.value, frame), clause.value.loc))
        return run_block(clause.body, frame);
    }
    return run_block(s.orelse, frame);
  }
  case Stmt::Kind::For: {
    if (traced_code) in.backend().at_statement(s, *frame.module);
    std::vector<Obj> items = iterate(in, eval(s.value, frame), s.value.loc);
    for (Obj &item : items) {
      in.budget().step(s.loc);
      assign(s.targets[0], std::move(item), frame);
      Flow f = run_block(s.body, frame);
      if (f == Flow::Break) return Flow::Normal;
      if (f == Flow::Return) return f;
    }
    return run_block(s.orelse, frame);
  }
  case Stmt::Kind::While: {
    if (traced_code) in.backend().at_statement(s, *frame.module);
    while (truth(in, eval(s.value, frame), s.value.loc)) {
      in.budget().step(s.loc);
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
      f = in.call(eval(*d, frame), {std::move(f)}, {}, d->loc);
    bind_name(s.function->name, std::move(f), frame);
    return Flow::Normal;
  }
  case Stmt::Kind::Class:
    define_class(s, frame);
    return Flow::Normal;
  case Stmt::Kind::Import:
  case Stmt::Kind::ImportFrom:
    do_import(in, s, frame);
    return Flow::Normal;
  case Stmt::Kind::Assert: {
    if (traced_code) in.backend().at_statement(s, *frame.module);
    if (truth(in, eval(s.value, frame), s.value.loc)) return Flow::Normal;
    std::string message = s.exprs.empty() ? "" : str(in, eval(s.exprs[0], frame), s.loc);
    raise(in, "AssertionError", message, s.loc);
  }
  case Stmt::Kind::Raise: {
    if (!s.has_value) raise(in, "RuntimeError", "No active exception to reraise", s.loc);
    Obj e = eval(s.value, frame);
    if (e.kind == Obj::Kind::Class) e = in.call(e, {}, {}, s.loc);
    if (e.kind != Obj::Kind::Instance ||
        !e.as<InstanceObj>().cls->is_subclass_of(*in.state().exception_classes.at("BaseException")))
      raise(in, "TypeError", "exceptions must derive from BaseException", s.loc);
    throw PyError{e, s.loc, {}, std::nullopt};
  }
  case Stmt::Kind::Try:
    return run_try(s, frame);
  case Stmt::Kind::With:
    return run_with(s, frame);
  case Stmt::Kind::Delete:
    if (traced_code) in.backend().at_statement(s, *frame.module);
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
Evaluator::Flow Evaluator::run_aug_assign(const Stmt &s, Frame &frame) {
  bool traced_code = frame.module && frame.module != in.state().nn_source.get();
  if (traced_code) in.backend().at_statement(s, *frame.module);
  const Expr &target = s.targets[0];
  // The target's parts are evaluated once (x[i] += 1 reads and writes the same x and i).
  Obj base, index, left;
  if (target.kind == Expr::Kind::Attribute) {
    base = eval(target.items[0], frame);
    left = attribute(in, base, target.text, target.loc);
  } else if (target.kind == Expr::Kind::Subscript) {
    base = eval(target.items[0], frame);
    index = eval(target.items[1], frame);
    left = subscript(in, base, index, target.loc);
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
    result = tensor_binary(in, s.op, left, std::move(right), s.loc);
    if (std::optional<std::string> problem =
            in_place_cast_problem(result.as<TensorObj>().dtype, left.as<TensorObj>().dtype))
      raise(in, "RuntimeError", *problem, s.loc);
    left = Obj::none();
  } else if (left.kind == Obj::Kind::Tensor) {
    // Tensor.__iadd__: an in-place update that every alias of the tensor sees.
    result = tensor_binary(in, s.op, left, std::move(right), s.loc);
    update_in_place(in, left, result, s.loc);
    result = left;
  } else if (left.kind == Obj::Kind::List && s.op == BinaryOp::add) {
    // list.__iadd__ extends the list itself.
    for (Obj &o : iterate(in, right, s.loc))
      items_of(left).push_back(std::move(o));
    result = left;
  } else {
    result = binary(in, s.op, std::move(left), std::move(right), s.loc);
  }
  if (target.kind == Expr::Kind::Attribute)
    set_attribute(in, base, target.text, std::move(result), target.loc);
  else if (target.kind == Expr::Kind::Subscript)
    set_item(in, base, index, std::move(result), target.loc);
  else
    bind_name(target.text, std::move(result), frame);
  return Flow::Normal;
}

// `with`: torch.no_grad() and objects with __enter__/__exit__.
Evaluator::Flow Evaluator::run_with(const Stmt &s, Frame &frame) {
  bool traced_code = frame.module && frame.module != in.state().nn_source.get();
  if (traced_code) in.backend().at_statement(s, *frame.module);
  std::vector<Obj> managers;
  for (std::size_t i = 0; i < s.exprs.size(); ++i) {
    Obj m = eval(s.exprs[i], frame);
    Obj entered;
    if (m.kind == Obj::Kind::Builtin &&
        (m.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::no_grad) ||
         m.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::null_context))) {
      entered = Obj::none();
    } else if (m.kind == Obj::Kind::Instance && m.as<InstanceObj>().cls->lookup("__enter__")) {
      entered = in.call(attribute(in, m, "__enter__", s.loc), {}, {}, s.loc);
    } else if (m.kind == Obj::Kind::Generator && m.as<GeneratorObj>().context_manager) {
      std::optional<Obj> first = resume_generator(in, m, s.loc);
      if (!first) raise(in, "RuntimeError", "generator didn't yield", s.loc);
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
      in.call(attribute(in, *m, "__exit__", s.loc), {Obj::none(), Obj::none(), Obj::none()}, {},
              s.loc);
    else if (m->kind == Obj::Kind::Generator && resume_generator(in, *m, s.loc))
      raise(in, "RuntimeError", "generator didn't stop", s.loc);
  return f;
}

Evaluator::Flow Evaluator::run_try(const Stmt &s, Frame &frame) {
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
      if (isinstance(in, e.exception, types, h.loc)) {
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

Obj Evaluator::make_function(const FunctionDef &def, Frame &frame, const std::string &qualname) {
  auto f = std::make_shared<FunctionObj>();
  f->def = &def;
  f->globals = frame.globals;
  f->module = owner_of(in, frame.module);
  // A def in a class body does not see the class's names; one in a function sees its scope.
  if (frame.is_class)
    f->closure = frame.locals->parent;
  else if (!frame.is_module)
    f->closure = frame.locals;
  // The function and the scope it closes over may hold each other (a nested def is one of the
  // scope's names): ~Interpreter empties such scopes.
  if (f->closure &&
      (in.state().captured.empty() || in.state().captured.back().lock() != f->closure)) {
    in.state().captured.push_back(f->closure);
    // An expired entry still holds its scope's memory (make_shared): drop those now and then.
    if (in.state().captured.size() >= in.state().compact_captured_at) {
      std::erase_if(in.state().captured, [](const std::weak_ptr<Env> &w) { return w.expired(); });
      in.state().compact_captured_at = std::max<std::size_t>(64, 2 * in.state().captured.size());
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

void Evaluator::define_class(const Stmt &s, Frame &frame) {
  const ClassDef &def = *s.cls;
  auto cls = std::make_shared<ClassObj>();
  cls->name = def.name;
  cls->qualname = def.name;
  for (const Expr &b : def.bases) {
    Obj base = eval(b, frame);
    if (base.kind == Obj::Kind::Class &&
        base.as<ClassObj>().builtin == static_cast<uint16_t>(Builtin::class_typing_namedtuple)) {
      // class Out(NamedTuple): a tuple whose fields are the annotated names.
      cls->bases.push_back(builtin_class(in, Builtin::tuple));
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
      raise(in, "TypeError", "a class base must be a class, not " + describe(base), b.loc);
    }
  }
  if (cls->bases.empty()) cls->bases.push_back(builtin_class(in, Builtin::object));
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
  if (is_enum_class(*cls)) make_enum_members(in, cls, body.locals->vars, s.loc);
  if (named_tuple) builtins::finish_named_tuple_class(*cls, body.locals->vars);
  for (auto d = def.decorators.rbegin(); d != def.decorators.rend(); ++d)
    cls_obj = in.call(eval(*d, frame), {std::move(cls_obj)}, {}, d->loc);
  bind_name(def.name, std::move(cls_obj), frame);
}

// ---- names ----------------------------------------------------------------------------------

Obj Evaluator::lookup(const Expr &name, Frame &frame) {
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
  if (Obj *v = in.state().builtins->find(n)) return *v;
  raise(in, "NameError", "name '" + excerpt(n) + "' is not defined", name.loc);
}

void Evaluator::bind_name(const std::string &name, Obj value, Frame &frame) {
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

void Evaluator::assign(const Expr &target, Obj value, Frame &frame) {
  switch (target.kind) {
  case Expr::Kind::Name:
    bind_name(target.text, std::move(value), frame);
    return;
  case Expr::Kind::Attribute:
    set_attribute(in, eval(target.items[0], frame), target.text, std::move(value), target.loc);
    return;
  case Expr::Kind::Subscript: {
    Obj base = eval(target.items[0], frame);
    Obj index = eval(target.items[1], frame);
    set_item(in, base, index, std::move(value), target.loc);
    return;
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    if (value.kind == Obj::Kind::Tensor)
      throw TraceError(target.loc, "unsupported construct: unpacking a tensor (its rows depend "
                                   "on its first dim; index it or use unbind)");
    std::vector<Obj> items = iterate(in, value, target.loc);
    std::size_t starred = target.items.size();
    for (std::size_t i = 0; i < target.items.size(); ++i)
      if (target.items[i].kind == Expr::Kind::Starred) starred = i;
    if (starred == target.items.size()) {
      if (items.size() != target.items.size())
        raise(in, "ValueError",
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
      raise(in, "ValueError", "not enough values to unpack", target.loc);
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

void Evaluator::delete_target(const Expr &target, Frame &frame) {
  switch (target.kind) {
  case Expr::Kind::Name:
    if (!frame.locals->erase(target.text))
      raise(in, "NameError", "name '" + excerpt(target.text) + "' is not defined", target.loc);
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
      if (!base.as<DictObj>().erase(index))
        raise(in, "KeyError", repr(in, index, target.loc), target.loc);
      return;
    }
    if (base.kind == Obj::Kind::List && index.kind == Obj::Kind::Int) {
      auto &items = items_of(base);
      int64_t n = static_cast<int64_t>(items.size());
      int64_t i = concrete_int(in, index, target.loc, "an index");
      if (i < 0) i += n;
      if (i < 0 || i >= n)
        raise(in, "IndexError", "list assignment index out of range", target.loc);
      items.erase(items.begin() + i);
      return;
    }
    if (base.kind == Obj::Kind::Instance)
      if (base.as<InstanceObj>().cls->lookup("__delitem__")) {
        in.call(attribute(in, base, "__delitem__", target.loc), {index}, {}, target.loc);
        return;
      }
    throw TraceError(target.loc, "unsupported construct: del of an item of " + describe(base));
  }
  case Expr::Kind::Attribute: {
    Obj base = eval(target.items[0], frame);
    if (base.kind == Obj::Kind::Instance) {
      InstanceObj &inst = base.as<InstanceObj>();
      if (inst.cls->lookup("__delattr__")) {
        in.call(attribute(in, base, "__delattr__", target.loc), {Obj::str(target.text)}, {},
                target.loc);
        return;
      }
      if (const Obj *p = inst.cls->lookup(target.text); p && p->kind == Obj::Kind::Property) {
        call_property_part(in, p->as<PropertyObj>().deleter, "deleter", target.text, inst.cls->name,
                           {base}, target.loc);
        return;
      }
      if (inst.dict->erase(Obj::str(target.text))) return;
    }
    raise(in, "AttributeError", excerpt(target.text), target.loc);
  }
  default:
    throw TraceError(target.loc, "unsupported construct: del of this expression");
  }
}

// ---- expressions ----------------------------------------------------------------------------

Obj Evaluator::eval(const Expr &e, Frame &frame) {
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
        for (Obj &o : iterate(in, eval(item.items[0], frame), item.loc))
          items.push_back(std::move(o));
      } else {
        items.push_back(eval(item, frame));
      }
    }
    if (e.kind == Expr::Kind::Tuple) return Obj::tuple(std::move(items));
    if (e.kind == Expr::Kind::List) return Obj::list(std::move(items));
    return make_set(in, std::move(items), e.loc);
  }
  case Expr::Kind::Dict: {
    Obj d = Obj::dict();
    DictObj &dict = d.as<DictObj>();
    for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
      if (e.items[i].kind == Expr::Kind::DoubleStarred) {
        Obj other = eval(e.items[i].items[0], frame);
        if (other.kind != Obj::Kind::Dict)
          raise(in, "TypeError", "'" + type_name(other) + "' object is not a mapping",
                e.items[i].loc);
        const DictObj &o = other.as<DictObj>();
        for (std::size_t k = 0; k < o.keys.size(); ++k)
          dict_set(in, dict, o.keys[k], o.values[k], e.items[i].loc);
        continue;
      }
      Obj key = eval(e.items[i], frame);
      if (key.is_proxy()) in.backend().guard(key, e.items[i].loc);
      Obj value = eval(e.items[i + 1], frame);
      dict_set(in, dict, std::move(key), std::move(value), e.items[i].loc);
    }
    return d;
  }
  case Expr::Kind::Slice:
    return Obj::slice(eval(e.items[0], frame), eval(e.items[1], frame), eval(e.items[2], frame));
  case Expr::Kind::Attribute:
    return attribute(in, eval(e.items[0], frame), e.text, e.loc);
  case Expr::Kind::Call:
    return eval_call(e, frame);
  case Expr::Kind::Subscript: {
    Obj base = eval(e.items[0], frame);
    return subscript(in, base, eval(e.items[1], frame), e.loc);
  }
  case Expr::Kind::BinOp: {
    // A chain (a + b - c) runs left to right, as Python evaluates its left-deep tree.
    Obj left = eval(e.items[0], frame);
    for (std::size_t i = 1; i < e.items.size(); ++i)
      left = binary(in, e.binary_ops()[i - 1], std::move(left), eval(e.items[i], frame), e.loc);
    return left;
  }
  case Expr::Kind::UnaryOp:
    return unary(in, e.unary_op, eval(e.items[0], frame), e.loc);
  case Expr::Kind::Compare: {
    Obj left = eval(e.items[0], frame);
    Obj result = Obj::boolean_of(true);
    const std::vector<CompareOp> &ops = e.compare_ops();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      Obj right = eval(e.items[i + 1], frame);
      result = compare(in, ops[i], left, right, e.loc);
      if (i + 1 < ops.size() && !truth(in, result, e.loc)) return result;
      left = std::move(right);
    }
    return result;
  }
  case Expr::Kind::BoolOp: {
    // A chain (a and b or c) is ((a and b) or c): each operator keeps the value so far or
    // takes the next operand.
    Obj left = eval(e.items[0], frame);
    for (std::size_t i = 1; i < e.items.size(); ++i) {
      bool t = truth(in, left, e.items[i - 1].loc);
      if (e.bool_ops()[i - 1] == BoolOp::and_ ? t : !t) left = eval(e.items[i], frame);
    }
    return left;
  }
  case Expr::Kind::IfExp:
    return truth(in, eval(e.items[1], frame), e.items[1].loc) ? eval(e.items[0], frame)
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

Obj Evaluator::eval_comprehension(const Expr &e, Frame &frame) {
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
  pending[0] = iterate(in, eval(gens[0].iter, frame), gens[0].iter.loc);
  std::size_t level = 0;
  while (true) {
    if (at[level] >= pending[level].size()) {
      if (level == 0) break;
      --level;
      continue;
    }
    in.budget().step(e.loc);
    assign(gens[level].target, pending[level][at[level]++], inner);
    bool keep = true;
    for (const Expr &cond : gens[level].ifs)
      if (!truth(in, eval(cond, inner), cond.loc)) {
        keep = false;
        break;
      }
    if (!keep) continue;
    if (level + 1 < gens.size()) {
      ++level;
      pending[level] = iterate(in, eval(gens[level].iter, inner), gens[level].iter.loc);
      at[level] = 0;
      continue;
    }
    if (e.kind == Expr::Kind::DictComp) {
      Obj key = eval(e.items[0], inner);
      Obj value = eval(e.items[1], inner);
      dict_set(in, dict.as<DictObj>(), std::move(key), std::move(value), e.items[0].loc);
    } else
      out.push_back(eval(e.items[0], inner));
  }
  switch (e.kind) {
  case Expr::Kind::DictComp:
    return dict;
  case Expr::Kind::SetComp:
    return make_set(in, std::move(out), e.loc);
  case Expr::Kind::GeneratorExp:
    // A generator the tracer runs at once: over the static iterables model code walks, the
    // values are the same.
    return Obj::tuple(std::move(out));
  default:
    return Obj::list(std::move(out));
  }
}

Obj Evaluator::eval_call(const Expr &e, Frame &frame) {
  Obj callee = eval(e.items[0], frame);
  std::size_t positional = e.items.size() - 1 - e.keywords.size();
  std::vector<Obj> args;
  args.reserve(positional + 1); // and a method's self, put first
  for (std::size_t i = 1; i <= positional; ++i) {
    const Expr &a = e.items[i];
    if (a.kind == Expr::Kind::Starred) {
      for (Obj &o : iterate(in, eval(a.items[0], frame), a.loc))
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
        raise(in, "TypeError", "argument after ** must be a mapping, not " + type_name(d), v.loc);
      const DictObj &dict = d.as<DictObj>();
      for (std::size_t k = 0; k < dict.keys.size(); ++k) {
        if (dict.keys[k].kind != Obj::Kind::Str)
          raise(in, "TypeError", "keywords must be strings", v.loc);
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
    if (!owner) raise(in, "RuntimeError", "super(): no arguments outside a method", e.loc);
    auto s = std::make_shared<SuperObj>();
    s->start = std::static_pointer_cast<ClassObj>(owner);
    s->self = frame.first_argument;
    return Obj::heap(Obj::Kind::Super, std::move(s));
  }
  return in.call(callee, std::move(args), std::move(kwargs), e.loc);
}

Obj Evaluator::eval_fstring(const Expr &e, Frame &frame) {
  if (e.kind == Expr::Kind::FormattedValue) {
    Obj value = eval(e.items[0], frame);
    if (e.text == "r" || e.text == "a")
      value = Obj::str(repr(in, value, e.loc));
    else if (e.text == "s")
      value = Obj::str(str(in, value, e.loc));
    std::string spec = e.items.size() > 1 ? str_of(eval_fstring(e.items[1], frame)) : "";
    return format_value(in, value, spec, e.loc);
  }
  std::string out;
  for (const Expr &part : e.items) {
    if (part.kind == Expr::Kind::Str)
      out += part.text;
    else
      out += str_of(eval_fstring(part, frame));
  }
  return Obj::str(std::move(out));
}

void Evaluator::call_chain_note(TraceError &e, const std::string &where) {
  e.chain.push_back(where);
}

Obj Evaluator::call_function(const FunctionObj &f, std::vector<Obj> args, Kwargs kwargs,
                             const Loc &loc) {
  const FunctionDef &def = *f.def;
  if (depth >= in.budget().limits().max_depth)
    throw TraceError(loc, "calls nest deeper than " +
                              std::to_string(in.budget().limits().max_depth) +
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
      raise(in, "TypeError",
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
        raise(in, "TypeError",
              excerpt(name) + "() got an unexpected keyword argument '" + excerpt(key) + "'", loc);
      if (var_kwargs.kind != Obj::Kind::Dict) var_kwargs = Obj::dict();
      var_kwargs.as<DictObj>().set(Obj::str(key), std::move(value));
      continue;
    }
    if (bound[i])
      raise(in, "TypeError",
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
      raise(in, "TypeError",
            excerpt(name) + "() missing 1 required argument: '" + excerpt(p.name) + "'", loc);
    frame.locals->set(p.name, *f.defaults[i]);
  }
  if (!def.params.empty() && def.params[0].kind != Param::Kind::VarArgs &&
      def.params[0].kind != Param::Kind::VarKeywords)
    if (Obj *first = frame.locals->find(def.params[0].name)) frame.first_argument = *first;
  if (def.is_generator) return make_generator(f, std::move(frame));

  ++depth;
  const Module *nn = in.state().nn_source.get();
  bool library = f.module.get() == nn;
  const Module *caller = call_modules.empty() ? in.state().module.get() : call_modules.back();
  call_modules.push_back(f.module.get());
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
    --depth;
    call_modules.pop_back();
    return flow == Flow::Return ? std::move(frame.result) : Obj::none();
  } catch (TraceError &e) {
    --depth;
    call_modules.pop_back();
    note(e);
    throw;
  } catch (PyError &e) {
    --depth;
    call_modules.pop_back();
    note(e);
    throw;
  } catch (...) {
    --depth;
    call_modules.pop_back();
    throw;
  }
}

} // namespace tracelint::tracer
