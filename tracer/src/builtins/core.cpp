// Builtins: print, len, repr and slice.
// Each is registered by its id (builtins.def) in this family's table; dispatch.cpp reads it.
#include "builtin_family.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

Obj call_print(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const std::string &name = fn.name;
  std::optional<Obj> sep = take_keyword(kwargs, "sep");
  std::optional<Obj> end = take_keyword(kwargs, "end");
  take_keyword(kwargs, "file");
  take_keyword(kwargs, "flush");
  no_keywords(in, name, kwargs, loc);
  std::string line;
  std::string separator = sep && sep->kind == Obj::Kind::Str ? str_of(*sep) : " ";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) line += separator;
    line += str(in, args[i], loc);
  }
  if (end && end->kind == Obj::Kind::Str)
    line += str_of(*end);
  else
    line += "\n";
  in.note_printed(std::move(line));
  return Obj::none();
}

Obj call_len(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  const Obj &x = args[0];
  switch (x.kind) {
  case Obj::Kind::Tensor:
    if (x.as<TensorObj>().shape.empty()) raise(in, "TypeError", "len() of a 0-d tensor", loc);
    return x.as<TensorObj>().shape[0];
  case Obj::Kind::Str:
    return Obj::int_of(static_cast<int64_t>(code_points(str_of(x))));
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Set:
    return Obj::int_of(static_cast<int64_t>(items_of(x).size()));
  case Obj::Kind::Dict:
    return Obj::int_of(static_cast<int64_t>(x.as<DictObj>().keys.size()));
  case Obj::Kind::Instance:
    if (x.as<InstanceObj>().cls->lookup("__len__"))
      return in.call(attribute(in, x, "__len__", loc), {}, {}, loc);
    break;
  case Obj::Kind::Unknown:
    unknown_used(in, x, loc, "len() of");
  default:
    break;
  }
  raise(in, "TypeError", "object of type '" + type_name(x) + "' has no len()", loc);
}

Obj call_repr(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
              const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  return Obj::str(repr(in, args[0], loc));
}

Obj call_slice(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 3, loc);
  if (args.size() == 1) return Obj::slice(Obj::none(), args[0], Obj::none());
  return Obj::slice(args[0], args[1], args.size() > 2 ? args[2] : Obj::none());
}

} // namespace

std::span<const Entry> core_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::print, call_print},
      {Builtin::len, call_len},
      {Builtin::repr, call_repr},
      {Builtin::slice, call_slice},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
