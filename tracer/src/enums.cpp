// enum.Enum: a class deriving from it has members, made when its body has run: each name the
// body binds to a value (not a function, not _private) becomes an instance of the class with
// .name and .value (enum.auto() numbers them from 1); an equal value makes an alias. Calling the
// class looks a member up by value, indexing it by name, iterating it gives the members.
#include "interpreter_impl.hpp"
#include "tracelint/tracer/interpreter.hpp"

namespace tracelint::tracer {

bool is_enum_class(const ClassObj &cls) {
  if (cls.builtin == static_cast<uint16_t>(Builtin::class_enum)) return false; // Enum itself
  for (const ClassObj *c : cls.mro)
    if (c->builtin == static_cast<uint16_t>(Builtin::class_enum)) return true;
  return false;
}

std::vector<Obj> enum_members(const ClassObj &cls) {
  std::vector<Obj> out;
  if (const Obj *names = cls.attributes.get("_member_names_"))
    for (const Obj &n : items_of(*names))
      out.push_back(*cls.attributes.get(str_of(n)));
  return out;
}

void make_enum_members(Interpreter &in, const std::shared_ptr<ClassObj> &cls,
                       const std::vector<std::pair<std::string, Obj>> &body, const Loc &loc) {
  std::vector<Obj> names;
  int64_t last = 0;
  for (const auto &[name, value] : body) {
    bool callable = value.kind == Obj::Kind::Function || value.kind == Obj::Kind::ClassMethod ||
                    value.kind == Obj::Kind::StaticMethod || value.kind == Obj::Kind::Property;
    bool automatic = value.kind == Obj::Kind::Builtin &&
                     value.as<BuiltinObj>().id == static_cast<uint16_t>(Builtin::enum_auto);
    if (name.starts_with("_") || callable || (value.kind == Obj::Kind::Builtin && !automatic))
      continue;
    Obj v = automatic ? Obj::int_of(last + 1) : value;
    if (v.kind == Obj::Kind::Int) last = v.integer;
    Obj member;
    for (const Obj &n : names) // an equal value: an alias of that member
      if (Obj m = *cls->attributes.get(str_of(n));
          equal(in, *m.as<InstanceObj>().dict->get("value"), v, loc))
        member = m;
    if (member.kind != Obj::Kind::Instance) {
      auto inst = std::make_shared<InstanceObj>();
      inst->cls = cls;
      for (const char *key : {"name", "_name_"})
        inst->dict->set(Obj::str(key), Obj::str(name));
      for (const char *key : {"value", "_value_"})
        inst->dict->set(Obj::str(key), v);
      member = Obj::heap(Obj::Kind::Instance, std::move(inst));
      names.push_back(Obj::str(name));
    }
    cls->attributes.set(Obj::str(name), member);
  }
  cls->attributes.set(Obj::str("_member_names_"), Obj::list(std::move(names)));
  in.state().enum_classes.push_back(cls); // members and class hold each other: see ~Interpreter
}

Obj enum_lookup(Interpreter &in, const std::shared_ptr<ClassObj> &cls, const std::vector<Obj> &args,
                const Loc &loc) {
  if (args.size() != 1) raise(in, "TypeError", cls->name + "() takes one value", loc);
  for (const Obj &m : enum_members(*cls))
    if (equal(in, *m.as<InstanceObj>().dict->get("value"), args[0], loc)) return m;
  raise(in, "ValueError", repr(in, args[0], loc) + " is not a valid " + cls->name, loc);
}

} // namespace tracelint::tracer
