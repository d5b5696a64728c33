// Builtins: the object model's builtins: isinstance, issubclass, the *attr functions, type, id,
// callable, super, property, classmethod, staticmethod, object and its dunders, vars, an
// exception's with_traceback. Each is registered by its id (builtins.def) in this family's table;
// dispatch.cpp reads it.
#include "builtin_family.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

Obj call_isinstance(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                    const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  return Obj::boolean_of(isinstance(in, args[0], args[1], loc));
}

Obj call_issubclass(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                    const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  if (args[0].kind != Obj::Kind::Class)
    raise(in, "TypeError", "issubclass() arg 1 must be a class", loc);
  std::vector<Obj> classes =
      args[1].kind == Obj::Kind::Tuple ? items_of(args[1]) : std::vector<Obj>{args[1]};
  for (const Obj &c : classes)
    if (c.kind == Obj::Kind::Class && args[0].as<ClassObj>().is_subclass_of(c.as<ClassObj>()))
      return Obj::boolean_of(true);
  return Obj::boolean_of(false);
}

Obj call_hasattr(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                 const Loc &loc) {
  const std::string &name = fn.name;
  auto id = static_cast<Builtin>(fn.id);
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, id == Builtin::getattr ? 3 : 2, loc);
  if (args[1].kind != Obj::Kind::Str) raise(in, "TypeError", "attribute name must be string", loc);
  std::optional<Obj> found;
  try {
    found = find_attribute(in, args[0], str_of(args[1]), loc);
  } catch (const PyError &e) {
    if (!raised(in, e, "AttributeError")) throw;
  }
  if (id == Builtin::hasattr) return Obj::boolean_of(found.has_value());
  if (found) return *found;
  if (args.size() > 2) return args[2];
  return attribute(in, args[0], str_of(args[1]), loc);
}

Obj call_setattr(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                 const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 3, 3, loc);
  if (args[1].kind != Obj::Kind::Str) raise(in, "TypeError", "attribute name must be string", loc);
  set_attribute(in, args[0], str_of(args[1]), args[2], loc);
  return Obj::none();
}

Obj call_delattr(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                 const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  if (args[0].kind == Obj::Kind::Instance && args[1].kind == Obj::Kind::Str &&
      args[0].as<InstanceObj>().dict->erase(args[1]))
    return Obj::none();
  raise(in, "AttributeError", excerpt(args[1].kind == Obj::Kind::Str ? str_of(args[1]) : "?"), loc);
}

Obj call_type(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
              const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  const Obj &x = args[0];
  Builtin b;
  switch (x.kind) {
  case Obj::Kind::Instance:
    return Obj::heap(Obj::Kind::Class, x.as<InstanceObj>().cls);
  case Obj::Kind::Bool:
    b = Builtin::bool_;
    break;
  case Obj::Kind::Int:
    b = Builtin::int_;
    break;
  case Obj::Kind::Float:
    b = Builtin::float_;
    break;
  case Obj::Kind::Str:
    b = Builtin::str_;
    break;
  case Obj::Kind::Tuple:
    if (x.as<SeqObj>().named) return Obj::heap(Obj::Kind::Class, x.as<SeqObj>().named);
    b = Builtin::tuple;
    break;
  case Obj::Kind::List:
    b = Builtin::list;
    break;
  case Obj::Kind::Dict:
    b = x.as<DictObj>().flavor == DictObj::Flavor::Ordered   ? Builtin::class_ordered_dict
        : x.as<DictObj>().flavor == DictObj::Flavor::Default ? Builtin::class_defaultdict
                                                             : Builtin::dict;
    break;
  case Obj::Kind::Set:
    b = Builtin::set;
    break;
  case Obj::Kind::Class:
    b = Builtin::class_type;
    break;
  case Obj::Kind::Tensor:
    b = x.as<TensorObj>().is_parameter ? Builtin::class_parameter : Builtin::class_tensor;
    break;
  case Obj::Kind::DType:
    b = Builtin::class_dtype;
    break;
  case Obj::Kind::Device:
    b = Builtin::class_device;
    break;
  case Obj::Kind::None:
    b = Builtin::class_nonetype;
    break;
  default:
    return make_unknown("type(" + describe(x) + ")", loc);
  }
  if (auto c = builtin_class(in, b)) return Obj::heap(Obj::Kind::Class, c);
  (void)provided_module(in, "torch"); // registers torch's classes
  if (auto c = builtin_class(in, b)) return Obj::heap(Obj::Kind::Class, c);
  return make_unknown("type(" + describe(x) + ")", loc);
}

Obj call_id(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
            const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  const Obj &x = args[0];
  if (x.ref && !x.is_number())
    return Obj::int_of(static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.ref.get())));
  return Obj::int_of(static_cast<int64_t>(std::hash<std::string>{}(repr(in, x, loc)) >> 1));
}

Obj call_callable(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  return Obj::boolean_of(is_callable(args[0]));
}

Obj call_super(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  if (args[0].kind != Obj::Kind::Class)
    raise(in, "TypeError", "super() argument 1 must be a type", loc);
  auto s = std::make_shared<SuperObj>();
  s->start = std::static_pointer_cast<ClassObj>(args[0].ref);
  s->self = args[1];
  return Obj::heap(Obj::Kind::Super, std::move(s));
}

// property(fget=None, fset=None, fdel=None, doc=None).
Obj call_property(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  arity(in, fn.name, args, 0, 4, loc);
  auto p = std::make_shared<PropertyObj>();
  Obj *slots[] = {&p->getter, &p->setter, &p->deleter};
  const char *names[] = {"fget", "fset", "fdel"};
  for (std::size_t i = 0; i < 3; ++i) {
    if (std::optional<Obj> given = take_keyword(kwargs, names[i])) *slots[i] = *given;
    if (i < args.size()) *slots[i] = args[i];
  }
  take_keyword(kwargs, "doc");
  no_keywords(in, fn.name, kwargs, loc);
  return Obj::heap(Obj::Kind::Property, std::move(p));
}

// @x.getter / @x.setter / @x.deleter: a copy of the property with that function.
Obj call_property_with(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                       const Loc &loc) {
  arity(in, fn.name, args, 1, 1, loc);
  no_keywords(in, fn.name, kwargs, loc);
  auto p = std::make_shared<PropertyObj>(fn.self.as<PropertyObj>());
  auto id = static_cast<Builtin>(fn.id);
  (id == Builtin::property_getter   ? p->getter
   : id == Builtin::property_setter ? p->setter
                                    : p->deleter) = args[0];
  return Obj::heap(Obj::Kind::Property, std::move(p));
}

Obj call_classmethod(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                     const Loc &loc) {
  const std::string &name = fn.name;
  auto id = static_cast<Builtin>(fn.id);
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  auto w = std::make_shared<MethodWrapperObj>();
  w->function = args[0];
  return Obj::heap(id == Builtin::classmethod ? Obj::Kind::ClassMethod : Obj::Kind::StaticMethod,
                   std::move(w));
}

Obj call_vars(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
              const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 1, 1, loc);
  if (args[0].kind != Obj::Kind::Instance)
    raise(in, "TypeError", "vars() argument must have __dict__ attribute", loc);
  return Obj::heap(Obj::Kind::Dict, args[0].as<InstanceObj>().dict); // the live __dict__
}

Obj call_object_setattr(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                        Kwargs & /*kwargs*/, const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 3, 3, loc);
  if (args[0].kind != Obj::Kind::Instance || args[1].kind != Obj::Kind::Str)
    raise(in, "TypeError", "object.__setattr__ takes an object, a name and a value", loc);
  args[0].as<InstanceObj>().dict->set(args[1], args[2]);
  return Obj::none();
}

Obj call_object_getattribute(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                             Kwargs & /*kwargs*/, const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 2, 2, loc);
  if (args[0].kind != Obj::Kind::Instance || args[1].kind != Obj::Kind::Str)
    raise(in, "TypeError", "object.__getattribute__ takes an object and a name", loc);
  const InstanceObj &inst = args[0].as<InstanceObj>();
  if (const Obj *v = inst.dict->get(args[1])) return *v;
  if (const Obj *c = inst.cls->lookup(str_of(args[1]))) {
    if (c->kind == Obj::Kind::Function) {
      auto m = std::make_shared<BoundMethodObj>();
      m->self = args[0];
      m->function = *c;
      return Obj::heap(Obj::Kind::BoundMethod, std::move(m));
    }
    return *c;
  }
  raise(in, "AttributeError",
        "'" + inst.cls->name + "' object has no attribute '" + excerpt(str_of(args[1])) + "'", loc);
}

Obj call_object_init(Interpreter & /*in*/, BuiltinObj & /*fn*/, std::vector<Obj> &args,
                     Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  // BaseException.__init__ keeps its arguments; object's takes none that matter.
  if (!args.empty() && args[0].kind == Obj::Kind::Instance &&
      args[0].as<InstanceObj>().cls->builtin == static_cast<uint16_t>(Builtin::class_exception))
    args[0].as<InstanceObj>().dict->set(Obj::str("args"),
                                        Obj::tuple(std::vector<Obj>(args.begin() + 1, args.end())));
  return Obj::none();
}

Obj call_object_new(Interpreter &in, BuiltinObj & /*fn*/, std::vector<Obj> &args,
                    Kwargs & /*kwargs*/, const Loc &loc) {
  if (args.empty() || args[0].kind != Obj::Kind::Class)
    raise(in, "TypeError", "object.__new__(X): X is not a type object", loc);
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = std::static_pointer_cast<ClassObj>(args[0].ref);
  return Obj::heap(Obj::Kind::Instance, std::move(inst));
}

Obj call_exception_with_traceback(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                                  Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  return self;
}

} // namespace

std::span<const Entry> object_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::isinstance, call_isinstance},
      {Builtin::issubclass, call_issubclass},
      {Builtin::hasattr, call_hasattr},
      {Builtin::getattr, call_hasattr},
      {Builtin::setattr, call_setattr},
      {Builtin::delattr, call_delattr},
      {Builtin::type, call_type},
      {Builtin::id, call_id},
      {Builtin::callable, call_callable},
      {Builtin::super, call_super},
      {Builtin::property, call_property},
      {Builtin::property_getter, call_property_with},
      {Builtin::property_setter, call_property_with},
      {Builtin::property_deleter, call_property_with},
      {Builtin::classmethod, call_classmethod},
      {Builtin::staticmethod, call_classmethod},
      {Builtin::vars, call_vars},
      {Builtin::object_setattr, call_object_setattr},
      {Builtin::object_getattribute, call_object_getattribute},
      {Builtin::object_init, call_object_init},
      {Builtin::object_new, call_object_new},
      {Builtin::exception_with_traceback, call_exception_with_traceback},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
