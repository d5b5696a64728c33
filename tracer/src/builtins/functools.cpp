// Builtins: dataclasses (dataclass, field, the generated __init__), functools (partial, reduce) and
// the identity decorators. Each is registered by its id (builtins.def) in this family's table;
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

Obj call_dataclass(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                   const Loc &loc) {
  const std::string &name = fn.name;
  if (args.empty()) return make_builtin(Builtin::dataclass, name); // @dataclass(frozen=True)
  arity(in, name, args, 1, 1, loc);
  if (args[0].kind != Obj::Kind::Class) raise(in, "TypeError", "dataclass() takes a class", loc);
  ClassObj &cls = args[0].as<ClassObj>();
  cls.is_dataclass = true;
  if (!cls.attributes.get("__init__"))
    cls.attributes.set(Obj::str("__init__"),
                       make_builtin(Builtin::dataclass_init, cls.name + ".__init__"));
  return args[0];
}

Obj call_dataclass_field(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                         const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 0, 0, loc);
  auto inst = std::make_shared<InstanceObj>();
  auto cls = std::make_shared<ClassObj>();
  cls->name = "Field";
  cls->mro.push_back(cls.get());
  inst->cls = cls;
  for (auto &[k, v] : kwargs)
    inst->dict->set(Obj::str(k), std::move(v));
  return Obj::heap(Obj::Kind::Instance, std::move(inst));
}

// dataclasses.replace(obj, **changes): a new instance, its fields taken from obj but those named.
Obj call_dataclass_replace(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                           const Loc &loc) {
  arity(in, fn.name, args, 1, 1, loc);
  if (args[0].kind != Obj::Kind::Instance || !args[0].as<InstanceObj>().cls->is_dataclass)
    raise(in, "TypeError", "replace() should be called on dataclass instances", loc);
  const std::shared_ptr<ClassObj> &cls = args[0].as<InstanceObj>().cls;
  Kwargs fields;
  for (const std::string &f : cls->fields) {
    auto given =
        std::find_if(kwargs.begin(), kwargs.end(), [&](const auto &kw) { return kw.first == f; });
    fields.emplace_back(f, given != kwargs.end() ? given->second : attribute(in, args[0], f, loc));
  }
  // A name that is no field: the class's __init__ refuses it, as in CPython.
  for (auto &kw : kwargs)
    if (std::find(cls->fields.begin(), cls->fields.end(), kw.first) == cls->fields.end())
      fields.push_back(std::move(kw));
  return in.call(Obj::heap(Obj::Kind::Class, cls), {}, std::move(fields), loc);
}

Obj call_dataclass_init(Interpreter &in, BuiltinObj & /*fn*/, std::vector<Obj> &args,
                        Kwargs &kwargs, const Loc &loc) {
  if (args.empty() || args[0].kind != Obj::Kind::Instance)
    raise(in, "TypeError", "__init__ needs self", loc);
  Obj self_obj = args[0];
  InstanceObj &inst = self_obj.as<InstanceObj>();
  const ClassObj &cls = *inst.cls;
  if (args.size() - 1 > cls.fields.size())
    raise(in, "TypeError",
          cls.name + ".__init__() takes " + std::to_string(cls.fields.size() + 1) +
              " positional arguments but " + std::to_string(args.size()) + " were given",
          loc);
  for (std::size_t i = 0; i < cls.fields.size(); ++i) {
    const std::string &f = cls.fields[i];
    std::optional<Obj> value;
    if (i + 1 < args.size()) value = args[i + 1];
    if (std::optional<Obj> kw = take_keyword(kwargs, f)) {
      if (value)
        raise(in, "TypeError",
              cls.name + ".__init__() got multiple values for argument '" + f + "'", loc);
      value = *kw;
    }
    if (!value) {
      const Obj *dflt = cls.lookup(f);
      if (dflt && dflt->kind == Obj::Kind::Instance &&
          dflt->as<InstanceObj>().cls->name == "Field") {
        const InstanceObj &field = dflt->as<InstanceObj>();
        if (const Obj *d = field.dict->get("default"))
          value = *d;
        else if (const Obj *factory = field.dict->get("default_factory"))
          value = in.call(*factory, {}, {}, loc);
      } else if (dflt) {
        value = *dflt;
      }
    }
    if (!value)
      raise(in, "TypeError",
            cls.name + ".__init__() missing 1 required positional argument: '" + f + "'", loc);
    inst.dict->set(Obj::str(f), std::move(*value));
  }
  if (!kwargs.empty())
    raise(in, "TypeError",
          cls.name + ".__init__() got an unexpected keyword argument '" + excerpt(kwargs[0].first) +
              "'",
          loc);
  if (cls.lookup("__post_init__"))
    in.call(attribute(in, self_obj, "__post_init__", loc), {}, {}, loc);
  return Obj::none();
}

Obj call_identity_decorator(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> &args,
                            Kwargs &kwargs, const Loc & /*loc*/) {
  const std::string &name = fn.name;
  if (args.size() == 1 && kwargs.empty() && is_callable(args[0])) return args[0];
  return make_builtin(Builtin::identity_decorator, name); // @lru_cache(maxsize=None)
}

Obj call_partial(Interpreter &in, BuiltinObj & /*fn*/, std::vector<Obj> &args, Kwargs &kwargs,
                 const Loc &loc) {
  if (args.empty()) raise(in, "TypeError", "partial() takes a callable", loc);
  Obj f = args[0];
  Obj bound_args = Obj::tuple(std::vector<Obj>(args.begin() + 1, args.end()));
  Obj bound_kwargs = Obj::dict();
  for (auto &[k, v] : kwargs)
    bound_kwargs.as<DictObj>().set(Obj::str(k), v);
  return bound_builtin(Builtin::partial_call, "functools.partial",
                       Obj::tuple({f, bound_args, bound_kwargs}));
}

Obj call_partial_call(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                      const Loc &loc) {
  const Obj &self = fn.self;
  const auto &parts = items_of(self);
  std::vector<Obj> all = items_of(parts[1]);
  all.insert(all.end(), args.begin(), args.end());
  Kwargs kw;
  const DictObj &d = parts[2].as<DictObj>();
  for (std::size_t i = 0; i < d.keys.size(); ++i)
    kw.emplace_back(str_of(d.keys[i]), d.values[i]);
  for (auto &p : kwargs)
    kw.push_back(p);
  return in.call(parts[0], std::move(all), std::move(kw), loc);
}

// @contextlib.contextmanager: the function, wrapped so that its generator is a `with`
// statement's context manager (run_with: enter runs it to its yield, exit to its end).
Obj call_contextmanager(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                        const Loc &loc) {
  no_keywords(in, fn.name, kwargs, loc);
  arity(in, fn.name, args, 1, 1, loc);
  return bound_builtin(Builtin::contextmanager_call, "contextlib.contextmanager", args[0]);
}

Obj call_contextmanager_call(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                             Kwargs &kwargs, const Loc &loc) {
  Obj made = in.call(fn.self, args, kwargs, loc);
  if (made.kind != Obj::Kind::Generator)
    raise(in, "TypeError", "'" + type_name(made) + "' object is not an iterator", loc);
  made.as<GeneratorObj>().context_manager = true;
  return made;
}

// enum.auto(): a marker the enum class's creation numbers (enums.cpp).
Obj call_enum_auto(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                   const Loc &loc) {
  no_keywords(in, fn.name, kwargs, loc);
  arity(in, fn.name, args, 0, 0, loc);
  return make_builtin(Builtin::enum_auto, "enum.auto");
}

Obj call_reduce(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 2, 3, loc);
  std::vector<Obj> items = iterate(in, args[1], loc);
  std::size_t i = 0;
  Obj acc;
  if (args.size() > 2)
    acc = args[2];
  else if (items.empty())
    raise(in, "TypeError", "reduce() of empty iterable with no initial value", loc);
  else
    acc = items[i++];
  for (; i < items.size(); ++i)
    acc = in.call(args[0], {acc, items[i]}, {}, loc);
  return acc;
}

} // namespace

std::span<const Entry> functools_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::dataclass, call_dataclass},
      {Builtin::dataclass_field, call_dataclass_field},
      {Builtin::dataclass_init, call_dataclass_init},
      {Builtin::dataclass_replace, call_dataclass_replace},
      {Builtin::identity_decorator, call_identity_decorator},
      {Builtin::partial, call_partial},
      {Builtin::partial_call, call_partial_call},
      {Builtin::reduce, call_reduce},
      {Builtin::contextmanager, call_contextmanager},
      {Builtin::enum_auto, call_enum_auto},
      {Builtin::contextmanager_call, call_contextmanager_call},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
