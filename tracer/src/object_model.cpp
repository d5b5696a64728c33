// The interpreter's object protocol: constructing instances, attributes, items, operators,
// truth, iteration and equality, as Python defines them for the values the tracer models.
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "interpreter_impl.hpp"
#include "tracelint/tracer/registry.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tracelint::tracer {

namespace {

bool is_builtin(const ClassObj &c, Builtin b) {
  return c.builtin == static_cast<uint16_t>(b);
}

Obj bind_method(const Obj &self, const Obj &f) {
  auto m = std::make_shared<BoundMethodObj>();
  m->self = self;
  m->function = f;
  return Obj::heap(Obj::Kind::BoundMethod, std::move(m));
}

// A class attribute read through an object: a method bound to it, a classmethod to `cls`, a
// property's value, a staticmethod's function, anything else as it is.
Obj bound_to(Interpreter &in, const Obj &self, const Obj &cls, const Obj &v, const Loc &loc) {
  if (v.kind == Obj::Kind::Function || v.kind == Obj::Kind::Builtin) return bind_method(self, v);
  if (v.kind == Obj::Kind::ClassMethod) return bind_method(cls, v.as<MethodWrapperObj>().function);
  if (v.kind == Obj::Kind::StaticMethod) return v.as<MethodWrapperObj>().function;
  if (v.kind == Obj::Kind::Property) return in.call(v.as<PropertyObj>().getter, {self}, {}, loc);
  return v;
}

} // namespace

Obj construct(Interpreter &in, const std::shared_ptr<ClassObj> &cls, std::vector<Obj> args,
              Kwargs kwargs, const Loc &loc) {
  if (is_builtin(*cls, Builtin::class_namedtuple))
    return builtins::make_named_tuple(in, cls, args, kwargs, loc);
  if (is_enum_class(*cls)) return enum_lookup(in, cls, args, loc);
  if (cls->builtin && !is_builtin(*cls, Builtin::class_exception))
    return call_builtin_class(in, *cls, args, kwargs, loc);
  for (const ClassObj *c : cls->mro) {
    if (is_builtin(*c, Builtin::class_tensor))
      throw TraceError(loc,
                       "unsupported construct: a subclass of torch.Tensor (`" + cls->name + "`)");
    // Made, not defined: a file may define `class AttrDict(dict)` that the model never uses.
    if (c->builtin && !is_builtin(*c, Builtin::object) && !is_builtin(*c, Builtin::class_exception))
      throw TraceError(loc, "unsupported construct: an instance of `" + cls->name +
                                "`, a class deriving from the builtin `" + c->name + "`");
  }
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  Obj self = Obj::heap(Obj::Kind::Instance, inst);
  bool exception = is_builtin(*cls, Builtin::class_exception);
  if (exception) inst->dict->set(Obj::str("args"), Obj::tuple(args));
  const Obj *init = cls->lookup("__init__");
  if (!init) {
    if (!exception && (!args.empty() || !kwargs.empty()))
      raise(in, "TypeError", cls->name + "() takes no arguments", loc);
    return self;
  }
  args.insert(args.begin(), self);
  Obj r = in.call(*init, std::move(args), std::move(kwargs), loc);
  if (r.kind != Obj::Kind::None)
    raise(in, "TypeError", "__init__() should return None, not '" + type_name(r) + "'", loc);
  return self;
}

Obj attribute(Interpreter &in, const Obj &base, std::string_view name, const Loc &loc) {
  if (std::optional<Obj> found = find_attribute(in, base, name, loc)) return std::move(*found);
  std::string what = base.kind == Obj::Kind::Class
                         ? "type object '" + base.as<ClassObj>().name + "'"
                     : base.kind == Obj::Kind::Module ? "module '" + base.as<ModuleObj>().name + "'"
                                                      : "'" + type_name(base) + "' object";
  raise(in, "AttributeError", what + " has no attribute '" + excerpt(name) + "'", loc);
}

Obj call_property_part(Interpreter &in, const Obj &part, const char *part_name,
                       std::string_view attribute, const std::string &class_name,
                       std::vector<Obj> args, const Loc &loc) {
  if (part.kind == Obj::Kind::None)
    raise(in, "AttributeError",
          "property '" + excerpt(attribute) + "' of '" + class_name + "' object has no " +
              part_name,
          loc);
  return in.call(part, std::move(args), {}, loc);
}

// An instance's attribute: a property's getter, its own, its class's (bound), __getattr__.
std::optional<Obj> find_instance_attribute(Interpreter &in, const Obj &base, std::string_view name,
                                           const Loc &loc) {
  const InstanceObj &inst = base.as<InstanceObj>();
  const Obj *on_class = inst.cls->lookup(name);
  if (on_class && on_class->kind == Obj::Kind::Property)
    return call_property_part(in, on_class->as<PropertyObj>().getter, "getter", name,
                              inst.cls->name, {base}, loc);
  // object.__dict__ is a data descriptor: the instance's own attributes, live.
  if (name == "__dict__") return Obj::heap(Obj::Kind::Dict, inst.dict);
  if (const Obj *own = inst.dict->get(name)) return *own;
  if (on_class) {
    switch (on_class->kind) {
    case Obj::Kind::Function:
    case Obj::Kind::Builtin:
      return bind_method(base, *on_class);
    case Obj::Kind::ClassMethod:
      return bind_method(Obj::heap(Obj::Kind::Class, inst.cls),
                         on_class->as<MethodWrapperObj>().function);
    case Obj::Kind::StaticMethod:
      return on_class->as<MethodWrapperObj>().function;
    default:
      return *on_class;
    }
  }
  if (name == "__class__") return Obj::heap(Obj::Kind::Class, inst.cls);
  if (const Obj *getattr = inst.cls->lookup("__getattr__")) {
    try {
      return in.call(*getattr, {base, Obj::str(std::string(name))}, {}, loc);
    } catch (const PyError &e) {
      if (e.exception.kind == Obj::Kind::Instance &&
          e.exception.as<InstanceObj>().cls->is_subclass_of(
              *in.state().exception_classes.at("AttributeError")))
        return std::nullopt;
      throw;
    }
  }
  return std::nullopt;
}

std::optional<Obj> find_attribute(Interpreter &in, const Obj &base, std::string_view name,
                                  const Loc &loc) {
  switch (base.kind) {
  case Obj::Kind::Instance:
    return find_instance_attribute(in, base, name, loc);
  case Obj::Kind::Class: {
    const ClassObj &cls = base.as<ClassObj>();
    if (name == "__name__" || name == "__qualname__") return Obj::str(cls.name);
    if (name == "__mro__") {
      std::vector<Obj> mro;
      for (ClassObj *c : cls.mro)
        mro.push_back(Obj::heap(Obj::Kind::Class,
                                std::shared_ptr<ClassObj>(base.ref, c))); // aliasing: kept alive
      return Obj::tuple(std::move(mro));
    }
    if (const Obj *v = cls.lookup(name)) {
      if (v->kind == Obj::Kind::ClassMethod)
        return bind_method(base, v->as<MethodWrapperObj>().function);
      if (v->kind == Obj::Kind::StaticMethod) return v->as<MethodWrapperObj>().function;
      return *v;
    }
    if (name == "__init__") return make_builtin(Builtin::object_init, "object.__init__");
    if (name == "__setattr__") return make_builtin(Builtin::object_setattr, "object.__setattr__");
    if (name == "__getattribute__")
      return make_builtin(Builtin::object_getattribute, "object.__getattribute__");
    if (name == "__new__") return make_builtin(Builtin::object_new, "object.__new__");
    if (is_builtin(cls, Builtin::str_) || is_builtin(cls, Builtin::dict) ||
        is_builtin(cls, Builtin::list))
      return std::nullopt;
    return std::nullopt;
  }
  case Obj::Kind::Super: {
    const SuperObj &s = base.as<SuperObj>();
    const ClassObj *type = s.self.kind == Obj::Kind::Instance ? s.self.as<InstanceObj>().cls.get()
                           : s.self.kind == Obj::Kind::Class  ? &s.self.as<ClassObj>()
                                                              : nullptr;
    if (!type) raise(in, "TypeError", "super(): the second argument is not an object", loc);
    auto it = std::find(type->mro.begin(), type->mro.end(), s.start.get());
    if (it != type->mro.end()) ++it;
    for (; it != type->mro.end(); ++it)
      if (const Obj *v = (*it)->attributes.get(name))
        return bound_to(in, s.self, Obj::heap(Obj::Kind::Class, s.start), *v, loc);
    if (name == "__init__")
      return bind_method(s.self, make_builtin(Builtin::object_init, "object.__init__"));
    if (name == "__setattr__")
      return bind_method(s.self, make_builtin(Builtin::object_setattr, "object.__setattr__"));
    if (name == "__getattribute__" || name == "__getattr__")
      return bind_method(s.self,
                         make_builtin(Builtin::object_getattribute, "object.__getattribute__"));
    return std::nullopt;
  }
  case Obj::Kind::Module: {
    const ModuleObj &m = base.as<ModuleObj>();
    if (m.globals)
      if (Obj *v = m.globals->find(name)) return *v;
    if (m.provided) return torch_attribute(in, m, name, loc);
    return std::nullopt;
  }
  case Obj::Kind::Tensor:
    return tensor_attribute(in, base, name, loc);
  case Obj::Kind::Unknown:
    return derived_unknown(base, base.as<UnknownObj>().what + "." + std::string(name), loc);
  case Obj::Kind::Function: {
    const FunctionObj &f = base.as<FunctionObj>();
    if (name == "__name__") return Obj::str(f.def->name);
    if (name == "__qualname__") return Obj::str(f.qualname);
    if (name == "__doc__") return Obj::none();
    return std::nullopt;
  }
  case Obj::Kind::BoundMethod: {
    const BoundMethodObj &m = base.as<BoundMethodObj>();
    if (name == "__self__") return m.self;
    if (name == "__func__") return m.function;
    return find_attribute(in, m.function, name, loc);
  }
  case Obj::Kind::Slice: {
    const SliceObj &s = base.as<SliceObj>();
    if (name == "start") return s.start;
    if (name == "stop") return s.stop;
    if (name == "step") return s.step;
    return std::nullopt;
  }
  case Obj::Kind::DType: {
    DType d = base.dtype();
    if (name == "is_floating_point") return Obj::boolean_of(is_floating(d));
    if (name == "is_complex") return Obj::boolean_of(is_complex(d));
    if (name == "itemsize") return Obj::int_of(dtype_info(d).bits / 8);
    return std::nullopt;
  }
  case Obj::Kind::Device: {
    const std::string &spec = base.as<DeviceObj>().spec;
    std::size_t colon = spec.find(':');
    if (name == "type") return Obj::str(spec.substr(0, colon));
    if (name == "index")
      return colon == std::string::npos ? Obj::none()
                                        : Obj::int_of(std::stoll(spec.substr(colon + 1)));
    return std::nullopt;
  }
  case Obj::Kind::Builtin:
    if (name == "__name__") return Obj::str(base.as<BuiltinObj>().name);
    return std::nullopt;
  case Obj::Kind::Property: {
    const PropertyObj &p = base.as<PropertyObj>();
    if (name == "fget") return p.getter;
    if (name == "fset") return p.setter;
    if (name == "fdel") return p.deleter;
    return builtin_method(in, base, name, loc); // getter, setter, deleter
  }
  case Obj::Kind::Tuple:
    if (const std::shared_ptr<ClassObj> &named = base.as<SeqObj>().named) {
      if (std::optional<Obj> v = builtins::named_tuple_attribute(base, name)) return v;
      if (const Obj *v = named->lookup(name)) // its class's methods and properties, bound
        return bound_to(in, base, Obj::heap(Obj::Kind::Class, named), *v, loc);
    }
    return builtin_method(in, base, name, loc);
  default:
    return builtin_method(in, base, name, loc);
  }
}

void set_attribute(Interpreter &in, const Obj &base, const std::string &name, Obj value,
                   const Loc &loc) {
  switch (base.kind) {
  case Obj::Kind::Instance: {
    InstanceObj &inst = base.as<InstanceObj>();
    const Obj *setter = inst.cls->lookup("__setattr__");
    if (setter && setter->kind == Obj::Kind::Function) {
      in.call(*setter, {base, Obj::str(name), std::move(value)}, {}, loc);
      return;
    }
    const Obj *on_class = inst.cls->lookup(name);
    if (on_class && on_class->kind == Obj::Kind::Property) {
      call_property_part(in, on_class->as<PropertyObj>().setter, "setter", name, inst.cls->name,
                         {base, std::move(value)}, loc);
      return;
    }
    inst.dict->set(Obj::str(name), std::move(value));
    return;
  }
  case Obj::Kind::Class:
    base.as<ClassObj>().attributes.set(Obj::str(name), std::move(value));
    return;
  case Obj::Kind::Tensor: {
    TensorObj &t = base.as<TensorObj>();
    if (name == "requires_grad") {
      t.requires_grad = truth(in, value, loc);
      return;
    }
    if (name == "grad" && value.kind == Obj::Kind::None) return;
    // `p.data = t` (and `p.data += t`, which ends so) while a model is constructed: p takes t's
    // values. A new shape or dtype, or a write in the traced function, is refused.
    if (name == "data" && value.kind == Obj::Kind::Tensor && !in.backend().tracing() &&
        value.as<TensorObj>().dtype == t.dtype) {
      update_in_place(in, base, value, loc);
      return;
    }
    throw TraceError(loc,
                     "unsupported construct: setting the tensor attribute `" + excerpt(name) + "`");
  }
  case Obj::Kind::Unknown:
  case Obj::Kind::Module:
  case Obj::Kind::Function:
    // Settings of modules the tracer does not model (torch.backends...) change nothing it
    // traces.
    return;
  default:
    raise(in, "AttributeError",
          "'" + type_name(base) + "' object has no attribute '" + excerpt(name) + "'", loc);
  }
}

// ---- items ------------------------------------------------------------------------------------

namespace {

// Python's slice of a sequence of length n: the indices it selects.
std::vector<int64_t> slice_indices(Interpreter &in, const SliceObj &s, int64_t n, const Loc &loc) {
  auto bound = [&](const Obj &o, int64_t dflt) {
    if (o.kind == Obj::Kind::None) return dflt;
    return concrete_int(in, o, loc, "a slice bound");
  };
  int64_t stride = bound(s.step, 1);
  if (stride == 0) raise(in, "ValueError", "slice step cannot be zero", loc);
  int64_t start = bound(s.start, stride > 0 ? 0 : n - 1);
  // A reverse slice without a stop runs through index 0: -1 is "before 0" after clamping.
  int64_t stop = bound(s.stop, stride > 0 ? n : -1);
  // Python's rule: a negative bound counts from the end, then both are clamped.
  auto clamp = [&](int64_t v) {
    if (v < 0) v += n;
    int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? n : n - 1;
    return std::max(lo, std::min(v, hi));
  };
  if (s.start.kind != Obj::Kind::None) start = clamp(start);
  if (s.stop.kind != Obj::Kind::None) stop = clamp(stop);
  std::vector<int64_t> out;
  for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride)
    out.push_back(i);
  return out;
}

// The code points of a UTF-8 string, each as a string.
std::vector<std::string> characters(const std::string &s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = 1;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xF0)
      n = 4;
    else if (c >= 0xE0)
      n = 3;
    else if (c >= 0xC0)
      n = 2;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

} // namespace

Obj subscript(Interpreter &in, const Obj &base, const Obj &index, const Loc &loc) {
  switch (base.kind) {
  case Obj::Kind::Tensor:
    return tensor_binary(in, TensorOperator::subscript(), base, index, loc);
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Str: {
    bool is_str = base.kind == Obj::Kind::Str;
    std::vector<std::string> chars;
    if (is_str) chars = characters(str_of(base));
    int64_t n =
        is_str ? static_cast<int64_t>(chars.size()) : static_cast<int64_t>(items_of(base).size());
    if (index.kind == Obj::Kind::Slice) {
      std::vector<int64_t> picked = slice_indices(in, index.as<SliceObj>(), n, loc);
      in.budget().charge(static_cast<int64_t>(picked.size()) / 16, loc);
      if (is_str) {
        std::string out;
        for (int64_t i : picked)
          out += chars[static_cast<std::size_t>(i)];
        return Obj::str(std::move(out));
      }
      std::vector<Obj> items;
      items.reserve(picked.size());
      for (int64_t i : picked)
        items.push_back(items_of(base)[static_cast<std::size_t>(i)]);
      return base.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items))
                                           : Obj::list(std::move(items));
    }
    if (!index.is_number() || index.kind == Obj::Kind::Float)
      raise(in, "TypeError",
            type_name(base) + " indices must be integers or slices, not " + type_name(index), loc);
    int64_t i = concrete_int(in, index, loc, "an index");
    if (i < -n || i >= n) raise(in, "IndexError", type_name(base) + " index out of range", loc);
    std::size_t at = static_cast<std::size_t>(i < 0 ? i + n : i);
    return is_str ? Obj::str(chars[at]) : items_of(base)[at];
  }
  case Obj::Kind::Dict: {
    if (index.is_proxy()) in.backend().guard(index, loc);
    if (const Obj *v = dict_get(in, base.as<DictObj>(), index, loc)) return *v;
    if (DictObj &d = base.as<DictObj>();
        d.flavor == DictObj::Flavor::Default && !d.default_factory.is_none()) {
      Obj made = in.call(d.default_factory, {}, {}, loc); // defaultdict.__missing__
      dict_set(in, base.as<DictObj>(), index, made, loc);
      return made;
    }
    raise(in, "KeyError", repr(in, index, loc), loc);
  }
  case Obj::Kind::Instance:
    if (base.as<InstanceObj>().cls->lookup("__getitem__"))
      return in.call(attribute(in, base, "__getitem__", loc), {index}, {}, loc);
    break;
  case Obj::Kind::Class:
  case Obj::Kind::Unknown:
    // typing's generics (Optional[torch.Tensor], list[int]): nothing the tracer runs reads them.
    if (base.kind == Obj::Kind::Class && is_enum_class(base.as<ClassObj>())) { // Color["RED"]
      for (const Obj &m : enum_members(base.as<ClassObj>()))
        if (equal(in, *m.as<InstanceObj>().dict->get("name"), index, loc)) return m;
      raise(in, "KeyError", repr(in, index, loc), loc);
    }
    if (base.kind == Obj::Kind::Class) return make_unknown(base.as<ClassObj>().name + "[...]", loc);
    return derived_unknown(base, base.as<UnknownObj>().what + "[...]", loc);
  default:
    break;
  }
  raise(in, "TypeError", "'" + type_name(base) + "' object is not subscriptable", loc);
}

void set_item(Interpreter &in, const Obj &base, const Obj &index, Obj value, const Loc &loc) {
  switch (base.kind) {
  case Obj::Kind::List: {
    auto &items = items_of(base);
    int64_t n = static_cast<int64_t>(items.size());
    if (index.kind == Obj::Kind::Slice) {
      const SliceObj &s = index.as<SliceObj>();
      if (s.step.kind != Obj::Kind::None)
        throw TraceError(loc, "unsupported construct: assignment to an extended slice");
      std::vector<int64_t> picked = slice_indices(in, s, n, loc);
      int64_t start =
          picked.empty()
              ? (s.start.kind == Obj::Kind::None
                     ? 0
                     : std::clamp<int64_t>(concrete_int(in, s.start, loc, "a slice bound") < 0
                                               ? concrete_int(in, s.start, loc, "") + n
                                               : concrete_int(in, s.start, loc, ""),
                                           0, n))
              : picked.front();
      std::vector<Obj> replacement = iterate(in, value, loc);
      items.erase(items.begin() + start,
                  items.begin() + start + static_cast<int64_t>(picked.size()));
      items.insert(items.begin() + start, replacement.begin(), replacement.end());
      return;
    }
    int64_t i = concrete_int(in, index, loc, "an index");
    if (i < -n || i >= n) raise(in, "IndexError", "list assignment index out of range", loc);
    items[static_cast<std::size_t>(i < 0 ? i + n : i)] = std::move(value);
    return;
  }
  case Obj::Kind::Dict:
    if (index.is_proxy()) in.backend().guard(index, loc);
    dict_set(in, base.as<DictObj>(), index, std::move(value), loc);
    return;
  case Obj::Kind::Instance:
    if (base.as<InstanceObj>().cls->lookup("__setitem__")) {
      in.call(attribute(in, base, "__setitem__", loc), {index, std::move(value)}, {}, loc);
      return;
    }
    break;
  case Obj::Kind::Tensor: {
    // Tensor.__setitem__: ltorch.setitem's copy, which every alias of the tensor sees.
    const Registry &registry = Registry::get();
    std::vector<Obj> bound = registry.bind(registry.op(Sym::ltorch_setitem),
                                           {base, index, std::move(value)}, {}, "setitem", loc);
    update_in_place(in, base, in.backend().call_symbol(Sym::ltorch_setitem, std::move(bound), loc),
                    loc);
    return;
  }
  default:
    break;
  }
  raise(in, "TypeError", "'" + type_name(base) + "' object does not support item assignment", loc);
}

// ---- operators --------------------------------------------------------------------------------

namespace {

// The number operation a binary operator is on two numbers (@, << and >> are none: binary
// runs them itself).
std::optional<NumOp> number_operation(BinaryOp op) {
  switch (op) {
  case BinaryOp::add:
    return NumOp::add;
  case BinaryOp::sub:
    return NumOp::sub;
  case BinaryOp::mul:
    return NumOp::mul;
  case BinaryOp::truediv:
    return NumOp::truediv;
  case BinaryOp::floordiv:
    return NumOp::floordiv;
  case BinaryOp::mod:
    return NumOp::mod;
  case BinaryOp::pow:
    return NumOp::pow;
  case BinaryOp::bit_and:
    return NumOp::bitwise_and;
  case BinaryOp::bit_or:
    return NumOp::bitwise_or;
  case BinaryOp::bit_xor:
    return NumOp::bitwise_xor;
  case BinaryOp::matmul:
  case BinaryOp::lshift:
  case BinaryOp::rshift:
    break;
  }
  return std::nullopt;
}

} // namespace

Obj binary(Interpreter &in, BinaryOp op, Obj a, Obj b, const Loc &loc) {
  const std::string symbol(spelling(op));
  if (a.kind == Obj::Kind::Unknown) unknown_used(in, a, loc, "an operand");
  if (b.kind == Obj::Kind::Unknown) unknown_used(in, b, loc, "an operand");
  if (a.kind == Obj::Kind::Tensor || b.kind == Obj::Kind::Tensor)
    return tensor_binary(in, op, std::move(a), std::move(b), loc);
  if (a.kind == Obj::Kind::Instance || b.kind == Obj::Kind::Instance) {
    const OperatorRow &methods = operator_row(op);
    if (a.kind == Obj::Kind::Instance && a.as<InstanceObj>().cls->lookup(methods.method)) {
      Obj r = in.call(attribute(in, a, methods.method, loc), {b}, {}, loc);
      if (r.kind != Obj::Kind::NotImplemented) return r;
    }
    if (b.kind == Obj::Kind::Instance && b.as<InstanceObj>().cls->lookup(methods.reflected)) {
      Obj r = in.call(attribute(in, b, methods.reflected, loc), {a}, {}, loc);
      if (r.kind != Obj::Kind::NotImplemented) return r;
    }
  }
  if (a.is_number() && b.is_number()) {
    std::optional<NumOp> num = number_operation(op);
    if (!num) {
      if (op == BinaryOp::matmul) raise(in, "TypeError", "unsupported operand type(s) for @", loc);
      int64_t x = concrete_int(in, a, loc, "a shifted value"),
              y = concrete_int(in, b, loc, "a shift");
      if (y < 0 || y > 62) raise(in, "ValueError", "shift count out of the supported range", loc);
      return Obj::int_of(op == BinaryOp::lshift ? x << y : x >> y);
    }
    if ((op == BinaryOp::bit_and || op == BinaryOp::bit_or || op == BinaryOp::bit_xor) &&
        (a.kind == Obj::Kind::Float || b.kind == Obj::Kind::Float))
      raise(in, "TypeError", "unsupported operand type(s) for " + symbol + ": float", loc);
    return number(in, *num, {a, b}, loc);
  }
  if (op == BinaryOp::add && a.kind == b.kind &&
      (a.kind == Obj::Kind::Tuple || a.kind == Obj::Kind::List)) {
    in.budget().make_room(items_of(a).size() + items_of(b).size(), sizeof(Obj), loc);
    std::vector<Obj> items = items_of(a);
    const auto &more = items_of(b);
    items.insert(items.end(), more.begin(), more.end());
    return a.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  if (op == BinaryOp::add && a.kind == Obj::Kind::Str && b.kind == Obj::Kind::Str) {
    in.budget().make_room(str_of(a).size() + str_of(b).size(), loc);
    return Obj::str(str_of(a) + str_of(b));
  }
  if (op == BinaryOp::mul && (a.is_sequence() || a.kind == Obj::Kind::Str || b.is_sequence() ||
                              b.kind == Obj::Kind::Str)) {
    const Obj &seq = a.is_number() ? b : a;
    const Obj &count = a.is_number() ? a : b;
    if (count.kind != Obj::Kind::Int && count.kind != Obj::Kind::Bool)
      raise(in, "TypeError",
            "can't multiply sequence by non-int of type '" + type_name(count) + "'", loc);
    int64_t n = std::max<int64_t>(0, concrete_int(in, count, loc, "a repeat count"));
    if (seq.kind == Obj::Kind::Str) {
      in.budget().make_room(static_cast<uint64_t>(n), str_of(seq).size(), loc);
      in.budget().step(loc);
      std::string out;
      for (int64_t i = 0; i < n; ++i)
        out += str_of(seq);
      return Obj::str(std::move(out));
    }
    in.budget().make_room(static_cast<uint64_t>(n), items_of(seq).size() * sizeof(Obj), loc);
    in.budget().step(loc);
    std::vector<Obj> items;
    for (int64_t i = 0; i < n; ++i)
      items.insert(items.end(), items_of(seq).begin(), items_of(seq).end());
    return seq.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items))
                                        : Obj::list(std::move(items));
  }
  if (op == BinaryOp::mod && a.kind == Obj::Kind::Str)
    return Obj::str(percent_format(in, str_of(a), b, loc));
  if ((op == BinaryOp::bit_or || op == BinaryOp::bit_and || op == BinaryOp::sub ||
       op == BinaryOp::bit_xor) &&
      a.kind == Obj::Kind::Set && b.kind == Obj::Kind::Set)
    return builtins::set_operation(in, op, a, b, loc);
  if (op == BinaryOp::bit_or && a.kind == Obj::Kind::Dict && b.kind == Obj::Kind::Dict) {
    Obj out = Obj::dict();
    for (const Obj *d : {&a, &b}) {
      const DictObj &src = d->as<DictObj>();
      for (std::size_t i = 0; i < src.keys.size(); ++i)
        dict_set(in, out.as<DictObj>(), src.keys[i], src.values[i], loc);
    }
    return out;
  }
  raise(in, "TypeError",
        "unsupported operand type(s) for " + symbol + ": '" + type_name(a) + "' and '" +
            type_name(b) + "'",
        loc);
}

Obj number(Interpreter &in, NumOp op, const std::vector<Obj> &args, const Loc &loc) {
  for (const Obj &a : args)
    if (!a.is_number())
      raise(in, "TypeError",
            std::string("unsupported operand type for ") + num_op_symbol(op) + ": '" +
                type_name(a) + "'",
            loc);
  std::vector<Obj> plain = args;
  bool proxy = false;
  for (Obj &a : plain) {
    proxy = proxy || a.is_proxy();
    a.ref.reset();
  }
  Obj result;
  try {
    result = compute_number(op, plain, loc);
  } catch (const PythonNumberError &e) {
    raise(in, e.exception_class, e.python_message, loc);
  }
  if (proxy) return in.backend().number_op(op, args, std::move(result), loc);
  return result;
}

Obj unary(Interpreter &in, UnaryOp op, const Obj &a, const Loc &loc) {
  if (op == UnaryOp::not_) return Obj::boolean_of(!truth(in, a, loc));
  if (a.kind == Obj::Kind::Unknown) unknown_used(in, a, loc, "the operand");
  if (a.kind == Obj::Kind::Tensor) return tensor_binary(in, op, a, Obj::none(), loc);
  if (a.kind == Obj::Kind::Instance) {
    std::string_view method = operator_row(op).method;
    if (a.as<InstanceObj>().cls->lookup(method))
      return in.call(attribute(in, a, method, loc), {}, {}, loc);
  }
  if (!a.is_number())
    raise(in, "TypeError",
          "bad operand type for unary " + std::string(spelling(op)) + ": '" + type_name(a) + "'",
          loc);
  if (op == UnaryOp::pos) return a.kind == Obj::Kind::Bool ? Obj::int_of(a.integer) : a;
  if (op == UnaryOp::neg) return number(in, NumOp::neg, {a}, loc);
  if (op == UnaryOp::abs) return number(in, NumOp::abs, {a}, loc);
  // ~x == -x - 1 for ints
  if (a.kind == Obj::Kind::Float)
    raise(in, "TypeError", "bad operand type for unary ~: 'float'", loc);
  Obj neg = number(in, NumOp::neg, {a}, loc);
  return number(in, NumOp::sub, {neg, Obj::int_of(1)}, loc);
}

std::optional<Obj> user_ordering(Interpreter &in, CompareOp op, const Obj &a, const Obj &b,
                                 const Loc &loc) {
  const OperatorRow &methods = operator_row(op);
  std::string_view method = methods.method, reflected = methods.reflected;
  auto try_method = [&](const Obj &self, std::string_view name,
                        const Obj &other) -> std::optional<Obj> {
    if (self.kind != Obj::Kind::Instance || !self.as<InstanceObj>().cls->lookup(name))
      return std::nullopt;
    Obj r = in.call(attribute(in, self, name, loc), {other}, {}, loc);
    if (r.kind == Obj::Kind::NotImplemented) return std::nullopt;
    return r;
  };
  // As CPython: the right operand's reflected method first when its class is a proper
  // subclass of the left's, else the left's method, then the right's reflected one.
  bool right_first = a.kind == Obj::Kind::Instance && b.kind == Obj::Kind::Instance &&
                     b.as<InstanceObj>().cls != a.as<InstanceObj>().cls &&
                     b.as<InstanceObj>().cls->is_subclass_of(*a.as<InstanceObj>().cls);
  if (right_first)
    if (std::optional<Obj> r = try_method(b, reflected, a)) return r;
  if (std::optional<Obj> r = try_method(a, method, b)) return r;
  if (!right_first)
    if (std::optional<Obj> r = try_method(b, reflected, a)) return r;
  return std::nullopt;
}

Obj compare(Interpreter &in, CompareOp op, const Obj &a, const Obj &b, const Loc &loc) {
  if (op == CompareOp::is || op == CompareOp::is_not) {
    // What the tracer cannot read has no identity to compare: `helper is not None` would
    // answer for a module it never saw.
    if (a.kind == Obj::Kind::Unknown || b.kind == Obj::Kind::Unknown)
      unknown_used(in, a.kind == Obj::Kind::Unknown ? a : b, loc, "comparing with `is`");
    bool same;
    if (a.kind != b.kind)
      same = false;
    else if (a.is_number())
      same = a.integer == b.integer && a.real == b.real;
    else if (a.kind == Obj::Kind::DType)
      same = a.integer == b.integer;
    else if (!a.ref)
      same = true; // None, Ellipsis, NotImplemented
    else
      same = a.ref == b.ref;
    return Obj::boolean_of(same == (op == CompareOp::is));
  }
  if (op == CompareOp::in || op == CompareOp::not_in) {
    bool found = false;
    switch (b.kind) {
    case Obj::Kind::Str:
      if (a.kind != Obj::Kind::Str)
        raise(in, "TypeError", "'in <string>' requires string as left operand", loc);
      in.budget().charge(static_cast<int64_t>(str_of(b).size() / 64), loc);
      found = str_of(b).find(str_of(a)) != std::string::npos;
      break;
    case Obj::Kind::Dict:
      if (a.is_proxy()) in.backend().guard(a, loc);
      found = dict_find(in, b.as<DictObj>(), a, loc) >= 0;
      break;
    case Obj::Kind::Instance:
      if (b.as<InstanceObj>().cls->lookup("__contains__")) {
        found = truth(in, in.call(attribute(in, b, "__contains__", loc), {a}, {}, loc), loc);
        break;
      }
      [[fallthrough]];
    default:
      for (const Obj &item : iterate(in, b, loc))
        if (equal(in, item, a, loc)) {
          found = true;
          break;
        }
    }
    return Obj::boolean_of(found == (op == CompareOp::in));
  }
  if (a.kind == Obj::Kind::Tensor || b.kind == Obj::Kind::Tensor)
    return tensor_binary(in, op, a, b, loc);
  if (op == CompareOp::eq || op == CompareOp::ne) {
    if (a.is_number() && b.is_number())
      return number(in, op == CompareOp::eq ? NumOp::eq : NumOp::ne, {a, b}, loc);
    if (a.kind == Obj::Kind::Instance && a.as<InstanceObj>().cls->lookup("__eq__")) {
      Obj r = in.call(attribute(in, a, "__eq__", loc), {b}, {}, loc);
      if (r.kind != Obj::Kind::NotImplemented)
        return op == CompareOp::eq ? r : Obj::boolean_of(!truth(in, r, loc));
    }
    bool eq = equal(in, a, b, loc);
    return Obj::boolean_of(op == CompareOp::eq ? eq : !eq);
  }
  NumOp num = op == CompareOp::lt   ? NumOp::lt
              : op == CompareOp::le ? NumOp::le
              : op == CompareOp::gt ? NumOp::gt
                                    : NumOp::ge;
  if (a.is_number() && b.is_number()) return number(in, num, {a, b}, loc);
  if (a.kind == Obj::Kind::Instance || b.kind == Obj::Kind::Instance)
    if (std::optional<Obj> r = user_ordering(in, op, a, b, loc)) return *r;
  auto ordered = [&](int c) {
    switch (num) {
    case NumOp::lt:
      return c < 0;
    case NumOp::le:
      return c <= 0;
    case NumOp::gt:
      return c > 0;
    default:
      return c >= 0;
    }
  };
  if (a.kind == Obj::Kind::Str && b.kind == Obj::Kind::Str) {
    in.budget().charge(static_cast<int64_t>(std::min(str_of(a).size(), str_of(b).size()) / 64),
                       loc);
    return Obj::boolean_of(ordered(str_of(a).compare(str_of(b))));
  }
  if (a.is_sequence() && a.kind == b.kind) {
    const auto &x = items_of(a), &y = items_of(b);
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (!equal(in, x[i], y[i], loc)) return compare(in, op, x[i], y[i], loc);
    return Obj::boolean_of(ordered(x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0));
  }
  raise(in, "TypeError",
        "'" + std::string(spelling(op)) + "' not supported between instances of '" + type_name(a) +
            "' and '" + type_name(b) + "'",
        loc);
}

namespace {

// Whether dict lookups of this key go through its class's __hash__ and __eq__.
bool has_user_key_methods(const Obj &key) {
  if (key.kind != Obj::Kind::Instance) return false;
  const ClassObj &cls = *key.as<InstanceObj>().cls;
  return cls.lookup("__hash__") || cls.lookup("__eq__");
}

} // namespace

int64_t user_hash(Interpreter &in, const Obj &instance, const Loc &loc) {
  const ClassObj &cls = *instance.as<InstanceObj>().cls;
  if (!cls.lookup("__hash__")) raise(in, "TypeError", "unhashable type: '" + cls.name + "'", loc);
  Obj h = in.call(attribute(in, instance, "__hash__", loc), {}, {}, loc);
  if (h.kind != Obj::Kind::Int && h.kind != Obj::Kind::Bool)
    raise(in, "TypeError", "__hash__ method should return an integer", loc);
  return concrete_int(in, h, loc, "a hash");
}

std::ptrdiff_t dict_find(Interpreter &in, const DictObj &d, const Obj &key, const Loc &loc) {
  in.budget().charge(1 + static_cast<int64_t>(d.keys.size() / 16), loc);
  require_hashable(in, key, loc);
  if (!has_user_key_methods(key)) return d.find(key);
  int64_t hash = user_hash(in, key, loc);
  for (std::size_t i = 0; i < d.keys.size(); ++i) {
    const Obj &stored = d.keys[i];
    if (stored.ref == key.ref) return static_cast<std::ptrdiff_t>(i);
    if (!has_user_key_methods(stored) || user_hash(in, stored, loc) != hash) continue;
    if (truth(in, compare(in, CompareOp::eq, stored, key, loc), loc))
      return static_cast<std::ptrdiff_t>(i);
  }
  return -1;
}

const Obj *dict_get(Interpreter &in, const DictObj &d, const Obj &key, const Loc &loc) {
  std::ptrdiff_t i = dict_find(in, d, key, loc);
  return i < 0 ? nullptr : &d.values[static_cast<std::size_t>(i)];
}

void dict_set(Interpreter &in, DictObj &d, Obj key, Obj value, const Loc &loc) {
  std::ptrdiff_t i = dict_find(in, d, key, loc);
  if (i >= 0) {
    d.values[static_cast<std::size_t>(i)] = std::move(value);
    return;
  }
  d.keys.push_back(std::move(key));
  d.values.push_back(std::move(value));
}

bool set_contains(Interpreter &in, const Obj &set, const Obj &item, const Loc &loc) {
  // At one step a comparison, set(range(100000)) stops at the limit (at 1/16 it ran 60 s under
  // ASan before it did).
  in.budget().charge(static_cast<int64_t>(items_of(set).size()), loc);
  for (const Obj &u : items_of(set))
    if (equal(in, u, item, loc)) return true;
  return false;
}

bool set_insert(Interpreter &in, const Obj &set, Obj item, const Loc &loc) {
  if (set_contains(in, set, item, loc)) return false;
  items_of(set).push_back(std::move(item));
  return true;
}

Obj make_set(Interpreter &in, std::vector<Obj> items, const Loc &loc) {
  Obj set = Obj::set({});
  for (Obj &o : items)
    set_insert(in, set, std::move(o), loc);
  return set;
}

bool equal(Interpreter &in, const Obj &a, const Obj &b, const Loc &loc) {
  if (a.kind == Obj::Kind::Unknown || b.kind == Obj::Kind::Unknown)
    unknown_used(in, a.kind == Obj::Kind::Unknown ? a : b, loc, "comparing");
  if (a.is_number() && b.is_number()) return truth(in, number(in, NumOp::eq, {a, b}, loc), loc);
  if (a.kind == Obj::Kind::Tensor || b.kind == Obj::Kind::Tensor) {
    if (a.kind == Obj::Kind::Tensor && b.kind == Obj::Kind::Tensor && a.ref == b.ref) return true;
    if (a.kind != b.kind) return false;
    throw TraceError(loc, "comparing tensors with == for a truth value depends on their data: "
                          "data-dependent control flow cannot be traced");
  }
  if (a.kind != b.kind) return false;
  // The same container is equal to itself (CPython compares items by identity first), so a
  // list holding itself equals itself; two such lists recurse into RecursionError.
  if (a.ref && a.ref == b.ref) return true;
  ValueLevel level = enter_value(in, "in comparison", loc);
  if (a.kind == Obj::Kind::Str)
    in.budget().charge(static_cast<int64_t>(str_of(a).size() / 64), loc);
  if (std::optional<bool> same = equal_atoms(a, b)) return *same;
  switch (a.kind) {
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    const auto &x = items_of(a), &y = items_of(b);
    if (x.size() != y.size()) return false;
    in.budget().charge(1 + static_cast<int64_t>(x.size() / 16), loc);
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!equal(in, x[i], y[i], loc)) return false;
    return true;
  }
  case Obj::Kind::Set: {
    const auto &x = items_of(a), &y = items_of(b);
    if (x.size() != y.size()) return false;
    in.budget().charge(1 + static_cast<int64_t>(x.size() * y.size() / 16), loc);
    for (const Obj &o : x) {
      bool found = false;
      for (const Obj &p : y)
        found = found || equal(in, o, p, loc);
      if (!found) return false;
    }
    return true;
  }
  case Obj::Kind::Dict: {
    const DictObj &x = a.as<DictObj>(), &y = b.as<DictObj>();
    if (x.keys.size() != y.keys.size()) return false;
    for (std::size_t i = 0; i < x.keys.size(); ++i) {
      const Obj *v = y.get(x.keys[i]);
      if (!v || !equal(in, x.values[i], *v, loc)) return false;
    }
    return true;
  }
  case Obj::Kind::Slice: {
    const SliceObj &x = a.as<SliceObj>(), &y = b.as<SliceObj>();
    return equal(in, x.start, y.start, loc) && equal(in, x.stop, y.stop, loc) &&
           equal(in, x.step, y.step, loc);
  }
  default:
    return a.ref == b.ref;
  }
}

bool truth(Interpreter &in, const Obj &o, const Loc &loc) {
  switch (o.kind) {
  case Obj::Kind::None:
    return false;
  case Obj::Kind::Bool:
  case Obj::Kind::Int:
  case Obj::Kind::Float:
    if (o.is_proxy()) in.backend().guard(o, loc);
    return o.kind == Obj::Kind::Float ? o.real != 0.0 : o.integer != 0;
  case Obj::Kind::Str:
    return !str_of(o).empty();
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Set:
    return !items_of(o).empty();
  case Obj::Kind::Dict:
    return !o.as<DictObj>().keys.empty();
  case Obj::Kind::Tensor:
    return truth(in,
                 tensor_values(in, o, ValueRead::Truth, "the truth value of a tensor",
                               "the truth value of a tensor depends on its data: data-dependent "
                               "control flow cannot be traced",
                               loc),
                 loc);
  case Obj::Kind::Unknown:
    unknown_used(in, o, loc, "the truth value of");
  case Obj::Kind::Instance: {
    const InstanceObj &inst = o.as<InstanceObj>();
    if (inst.cls->lookup("__bool__"))
      return truth(in, in.call(attribute(in, o, "__bool__", loc), {}, {}, loc), loc);
    if (inst.cls->lookup("__len__"))
      return concrete_int(in, in.call(attribute(in, o, "__len__", loc), {}, {}, loc), loc,
                          "__len__") != 0;
    return true;
  }
  default:
    return true;
  }
}

int64_t concrete_int(Interpreter &in, const Obj &o, const Loc &loc, const std::string &what) {
  if (o.kind != Obj::Kind::Int && o.kind != Obj::Kind::Bool) {
    if (o.kind == Obj::Kind::Unknown) unknown_used(in, o, loc, what);
    if (o.kind == Obj::Kind::Tensor)
      throw TraceError(loc, what + " is a tensor here: using a tensor's value as a number "
                                   "depends on its data, which cannot be traced");
    raise(in, "TypeError", what + " must be an int, not " + type_name(o), loc);
  }
  if (o.is_proxy()) in.backend().guard(o, loc);
  return o.integer;
}

double concrete_float(Interpreter &in, const Obj &o, const Loc &loc, const std::string &what) {
  if (!o.is_number()) raise(in, "TypeError", what + " must be a number, not " + type_name(o), loc);
  if (o.is_proxy()) in.backend().guard(o, loc);
  return o.as_double();
}

bool raised(Interpreter &in, const PyError &e, const char *exception_class) {
  return e.exception.kind == Obj::Kind::Instance &&
         e.exception.as<InstanceObj>().cls->is_subclass_of(
             *in.state().exception_classes.at(exception_class));
}

// CPython's protocols for an instance: iter(o) is o.__iter__() (an iterator: an object with
// __next__, often o itself), whose __next__ is called until StopIteration; without __iter__,
// o.__getitem__(0, 1, ...) until IndexError. A loop, never a recursion on what __iter__ gives.
std::vector<Obj> iterate_instance(Interpreter &in, const Obj &o, const Loc &loc) {
  const ClassObj &cls = *o.as<InstanceObj>().cls;
  std::vector<Obj> out;
  if (!cls.lookup("__iter__")) {
    if (!cls.lookup("__getitem__"))
      raise(in, "TypeError", "'" + type_name(o) + "' object is not iterable", loc);
    for (int64_t i = 0;; ++i) {
      in.budget().step(loc);
      try {
        out.push_back(in.call(attribute(in, o, "__getitem__", loc), {Obj::int_of(i)}, {}, loc));
      } catch (const PyError &e) {
        if (!raised(in, e, "IndexError") && !raised(in, e, "StopIteration")) throw;
        return out;
      }
    }
  }
  Obj it = in.call(attribute(in, o, "__iter__", loc), {}, {}, loc);
  if (it.kind != Obj::Kind::Instance) {
    // A builtin iterator (iter(list) is a list here): its items.
    if (it.kind == Obj::Kind::List || it.kind == Obj::Kind::Tuple) return items_of(it);
    raise(in, "TypeError", "iter() returned non-iterator of type '" + type_name(it) + "'", loc);
  }
  if (!it.as<InstanceObj>().cls->lookup("__next__"))
    raise(in, "TypeError", "iter() returned non-iterator of type '" + type_name(it) + "'", loc);
  Obj next = attribute(in, it, "__next__", loc);
  while (true) {
    in.budget().step(loc);
    try {
      out.push_back(in.call(next, {}, {}, loc));
    } catch (const PyError &e) {
      if (!raised(in, e, "StopIteration")) throw;
      return out;
    }
  }
}

std::vector<Obj> iterate(Interpreter &in, const Obj &o, const Loc &loc) {
  switch (o.kind) {
  case Obj::Kind::Class:
    if (is_enum_class(o.as<ClassObj>())) return enum_members(o.as<ClassObj>());
    break;
  case Obj::Kind::Generator: { // drained here: a for loop takes all it yields first
    std::vector<Obj> out;
    while (std::optional<Obj> v = resume_generator(in, o, loc)) {
      in.budget().step(loc);
      out.push_back(std::move(*v));
    }
    return out;
  }
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Set:
    in.budget().charge(static_cast<int64_t>(items_of(o).size()) / 16, loc);
    return items_of(o);
  case Obj::Kind::Dict:
    return o.as<DictObj>().keys;
  case Obj::Kind::Str: {
    std::vector<Obj> out;
    for (std::string &c : characters(str_of(o)))
      out.push_back(Obj::str(std::move(c)));
    return out;
  }
  case Obj::Kind::Tensor: {
    const TensorObj &t = o.as<TensorObj>();
    if (t.shape.empty()) raise(in, "TypeError", "iteration over a 0-d tensor", loc);
    int64_t n = concrete_int(in, t.shape[0], loc, "the length of the iterated tensor");
    std::vector<Obj> out;
    for (int64_t i = 0; i < n; ++i) {
      in.budget().step(loc);
      out.push_back(subscript(in, o, Obj::int_of(i), loc));
    }
    return out;
  }
  case Obj::Kind::Instance:
    return iterate_instance(in, o, loc);
  case Obj::Kind::Unknown:
    unknown_used(in, o, loc, "iterating over");
  default:
    break;
  }
  raise(in, "TypeError", "'" + type_name(o) + "' object is not iterable", loc);
}

bool isinstance(Interpreter &in, const Obj &o, const Obj &cls, const Loc &loc) {
  if (cls.kind == Obj::Kind::Tuple) {
    for (const Obj &c : items_of(cls))
      if (isinstance(in, o, c, loc)) return true;
    return false;
  }
  if (cls.kind == Obj::Kind::Unknown) return false; // a class of a module the tracer lacks
  if (cls.kind != Obj::Kind::Class)
    raise(in, "TypeError", "isinstance() arg 2 must be a type or tuple of types", loc);
  const ClassObj &c = cls.as<ClassObj>();
  if (o.kind == Obj::Kind::Instance) return o.as<InstanceObj>().cls->is_subclass_of(c);
  auto b = static_cast<Builtin>(c.builtin);
  if (!c.builtin) return false;
  switch (b) {
  case Builtin::object:
    return true;
  case Builtin::int_:
    return o.kind == Obj::Kind::Int || o.kind == Obj::Kind::Bool;
  case Builtin::bool_:
    return o.kind == Obj::Kind::Bool;
  case Builtin::float_:
    return o.kind == Obj::Kind::Float;
  case Builtin::str_:
    return o.kind == Obj::Kind::Str;
  case Builtin::tuple:
    return o.kind == Obj::Kind::Tuple;
  case Builtin::list:
    return o.kind == Obj::Kind::List;
  case Builtin::dict:
    return o.kind == Obj::Kind::Dict;
  case Builtin::class_namedtuple:
    return o.kind == Obj::Kind::Tuple && o.as<SeqObj>().named &&
           o.as<SeqObj>().named->is_subclass_of(c);
  case Builtin::class_ordered_dict:
    return o.kind == Obj::Kind::Dict && o.as<DictObj>().flavor == DictObj::Flavor::Ordered;
  case Builtin::class_defaultdict:
    return o.kind == Obj::Kind::Dict && o.as<DictObj>().flavor == DictObj::Flavor::Default;
  case Builtin::set:
  case Builtin::frozenset:
    return o.kind == Obj::Kind::Set;
  case Builtin::class_type:
    return o.kind == Obj::Kind::Class;
  case Builtin::class_tensor:
    return o.kind == Obj::Kind::Tensor;
  case Builtin::class_parameter:
    return o.kind == Obj::Kind::Tensor && o.as<TensorObj>().is_parameter;
  case Builtin::class_dtype:
    return o.kind == Obj::Kind::DType;
  case Builtin::class_device:
    return o.kind == Obj::Kind::Device;
  case Builtin::class_nonetype:
    return o.kind == Obj::Kind::None;
  default:
    return false;
  }
}

// ---- f-strings --------------------------------------------------------------------------------

std::shared_ptr<ClassObj> builtin_class(Interpreter &in, Builtin b) {
  auto it = in.state().builtin_classes.find(static_cast<uint16_t>(b));
  return it == in.state().builtin_classes.end() ? nullptr : it->second;
}

Obj make_exception(Interpreter &in, const std::string &cls, const std::string &message) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = in.state().exception_classes.at(cls);
  inst->dict->set(Obj::str("args"), Obj::tuple({Obj::str(message)}));
  return Obj::heap(Obj::Kind::Instance, std::move(inst));
}

void raise(Interpreter &in, const std::string &exception_class, const std::string &message,
           const Loc &loc) {
  throw PyError{make_exception(in, exception_class, message), loc, {}, std::nullopt};
}

void unknown_used(Interpreter & /*in*/, const Obj &o, const Loc &loc, const std::string &how) {
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

} // namespace tracelint::tracer
