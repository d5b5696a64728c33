// Builtins: collections.namedtuple. The class it makes is a subclass of tuple whose instances
// are the interpreter's tuples naming it (SeqObj::named): they index, unpack, compare, hash
// and return from a trace as tuples, and read their fields by name.
#include "builtin_family.hpp"

#include <algorithm>

namespace tracelint::tracer::builtins {

namespace {

// The field names given as a list of strings or one string of names split by spaces or commas.
std::vector<std::string> field_names(Interpreter &in, const Obj &given, const Loc &loc) {
  std::vector<std::string> out;
  if (given.kind == Obj::Kind::Str) {
    std::string name;
    for (char c : str_of(given) + " ") {
      if (c == ' ' || c == ',') {
        if (!name.empty()) out.push_back(std::move(name));
        name.clear();
      } else {
        name += c;
      }
    }
    return out;
  }
  for (const Obj &f : iterate(in, given, loc)) {
    if (f.kind != Obj::Kind::Str)
      raise(in, "TypeError", "Type names and field names must be strings", loc);
    out.push_back(str_of(f));
  }
  return out;
}

Obj call_namedtuple(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                    const Loc &loc) {
  arity(in, fn.name, args, 2, 2, loc);
  if (args[0].kind != Obj::Kind::Str)
    raise(in, "TypeError", "Type names and field names must be strings", loc);
  Obj defaults = Obj::none();
  for (auto &[k, v] : kwargs) {
    if (k == "defaults")
      defaults = v;
    else if (k != "module" && k != "rename")
      raise(in, "TypeError", "namedtuple() got an unexpected keyword argument '" + k + "'", loc);
  }
  std::vector<std::string> fields = field_names(in, args[1], loc);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].starts_with("_"))
      raise(in, "ValueError", "Field names cannot start with an underscore: '" + fields[i] + "'",
            loc);
    if (std::find(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(i), fields[i]) !=
        fields.begin() + static_cast<std::ptrdiff_t>(i))
      raise(in, "ValueError", "Encountered duplicate field name: '" + fields[i] + "'", loc);
  }
  std::vector<Obj> given_defaults =
      defaults.is_none() ? std::vector<Obj>{} : iterate(in, defaults, loc);
  if (given_defaults.size() > fields.size())
    raise(in, "TypeError", "Got more default values than field names", loc);
  auto made = std::make_shared<ClassObj>();
  ClassObj &c = *made;
  c.name = c.qualname = str_of(args[0]);
  c.builtin = static_cast<uint16_t>(Builtin::class_namedtuple);
  c.bases.push_back(builtin_class(in, Builtin::tuple));
  c.mro.push_back(&c);
  for (ClassObj *m : c.bases[0]->mro)
    c.mro.push_back(m);
  c.fields = fields;
  std::vector<Obj> names;
  for (const std::string &f : fields)
    names.push_back(Obj::str(f));
  c.attributes.set(Obj::str("_fields"), Obj::tuple(std::move(names)));
  Obj field_defaults = Obj::dict();
  for (std::size_t i = 0; i < given_defaults.size(); ++i)
    field_defaults.as<DictObj>().set(Obj::str(fields[fields.size() - given_defaults.size() + i]),
                                     given_defaults[i]);
  c.attributes.set(Obj::str("_field_defaults"), field_defaults);
  return Obj::heap(Obj::Kind::Class, std::move(made));
}

// p._asdict(): its fields and values, in order.
Obj call_namedtuple_asdict(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                           const Loc &loc) {
  no_keywords(in, fn.name, kwargs, loc);
  arity(in, fn.name, args, 0, 0, loc);
  const SeqObj &t = fn.self.as<SeqObj>();
  Obj d = Obj::dict();
  for (std::size_t i = 0; i < t.items.size(); ++i)
    d.as<DictObj>().set(Obj::str(t.named->fields[i]), t.items[i]);
  return d;
}

// p._replace(**changes): a new one of its class with those fields changed.
Obj call_namedtuple_replace(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                            const Loc &loc) {
  arity(in, fn.name, args, 0, 0, loc);
  const SeqObj &t = fn.self.as<SeqObj>();
  std::vector<Obj> items = t.items;
  std::vector<std::string> unknown;
  for (auto &[k, v] : kwargs) {
    auto at = std::find(t.named->fields.begin(), t.named->fields.end(), k);
    if (at == t.named->fields.end())
      unknown.push_back("'" + k + "'");
    else
      items[static_cast<std::size_t>(at - t.named->fields.begin())] = v;
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string &u : unknown)
      list += (list.empty() ? "" : ", ") + u;
    raise(in, "ValueError", "Got unexpected field names: [" + list + "]", loc);
  }
  Obj out = Obj::tuple(std::move(items));
  out.as<SeqObj>().named = t.named;
  return out;
}

} // namespace

Obj make_named_tuple(Interpreter &in, const std::shared_ptr<ClassObj> &cls, std::vector<Obj> &args,
                     Kwargs &kwargs, const Loc &loc) {
  const std::vector<std::string> &fields = cls->fields;
  std::string name = cls->name + ".__new__()";
  if (args.size() > fields.size())
    raise(in, "TypeError",
          name + " takes " + std::to_string(fields.size() + 1) + " positional arguments but " +
              std::to_string(args.size() + 1) + " were given",
          loc);
  std::vector<std::optional<Obj>> items(fields.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    items[i] = args[i];
  for (auto &[k, v] : kwargs) {
    auto at = std::find(fields.begin(), fields.end(), k);
    if (at == fields.end())
      raise(in, "TypeError", name + " got an unexpected keyword argument '" + k + "'", loc);
    std::size_t i = static_cast<std::size_t>(at - fields.begin());
    if (items[i])
      raise(in, "TypeError", name + " got multiple values for argument '" + k + "'", loc);
    items[i] = v;
  }
  const DictObj &defaults = cls->lookup("_field_defaults")->as<DictObj>();
  std::vector<Obj> out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!items[i])
      if (const Obj *d = defaults.get(fields[i])) items[i] = *d;
    if (!items[i])
      raise(in, "TypeError", name + " missing 1 required positional argument: '" + fields[i] + "'",
            loc);
    out.push_back(std::move(*items[i]));
  }
  Obj t = Obj::tuple(std::move(out));
  t.as<SeqObj>().named = cls;
  return t;
}

std::optional<Obj> named_tuple_attribute(const Obj &t, std::string_view name) {
  const std::shared_ptr<ClassObj> &cls = t.as<SeqObj>().named;
  const std::vector<std::string> &fields = cls->fields;
  auto at = std::find(fields.begin(), fields.end(), name);
  if (at != fields.end())
    return t.as<SeqObj>().items[static_cast<std::size_t>(at - fields.begin())];
  if (name == "_asdict")
    return bound_builtin(Builtin::namedtuple_asdict, cls->name + "._asdict", t);
  if (name == "_replace")
    return bound_builtin(Builtin::namedtuple_replace, cls->name + "._replace", t);
  return std::nullopt;
}

void finish_named_tuple_class(ClassObj &cls, const std::vector<std::pair<std::string, Obj>> &body) {
  std::vector<Obj> names;
  for (const std::string &f : cls.fields)
    names.push_back(Obj::str(f));
  cls.attributes.set(Obj::str("_fields"), Obj::tuple(std::move(names)));
  Obj defaults = Obj::dict();
  for (const ClassObj *base : cls.mro)
    if (base != &cls)
      if (const Obj *inherited = base->attributes.get("_field_defaults")) {
        defaults = Obj::dict();
        for (std::size_t i = 0; i < inherited->as<DictObj>().keys.size(); ++i)
          defaults.as<DictObj>().set(inherited->as<DictObj>().keys[i],
                                     inherited->as<DictObj>().values[i]);
        break;
      }
  for (const auto &[name, value] : body)
    if (std::find(cls.fields.begin(), cls.fields.end(), name) != cls.fields.end())
      defaults.as<DictObj>().set(Obj::str(name), value);
  cls.attributes.set(Obj::str("_field_defaults"), defaults);
}

std::span<const Entry> named_tuple_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::namedtuple, call_namedtuple},
      {Builtin::namedtuple_asdict, call_namedtuple_asdict},
      {Builtin::namedtuple_replace, call_namedtuple_replace},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
