// Python's builtin functions, the constructors of the builtin types, and the methods of str,
// list, tuple, dict and set, as the interpreter runs them; and Python's number arithmetic on
// objects (its rules are python_numbers.cpp's, which the executor shares).
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "interpreter_impl.hpp"

#include "tracelint/core/value.hpp"
#include "tracelint/tracer/python_numbers.hpp"

#include <algorithm>
#include <charconv>
#include <functional>

namespace tracelint::tracer {

namespace {

Obj object_of(const Number &n) {
  return n.is_float()                   ? Obj::float_of(n.real)
         : n.kind == Number::Kind::Bool ? Obj::boolean_of(n.integer != 0)
                                        : Obj::int_of(n.integer);
}

} // namespace

Obj compute_number(NumOp op, const std::vector<Obj> &args, const Loc &loc) {
  NumberResult r = args.size() == 1
                       ? python_number_op(op, number_held(args[0]))
                       : python_number_op(op, number_held(args[0]), number_held(args[1]));
  if (r.ok()) return object_of(r.value());
  // What CPython raises too is raised as that exception (`except` sees it); a limit of the
  // tracer is a TraceError.
  if (!r.error().python_class.empty())
    throw PythonNumberError(loc, r.error().python_class, r.error().message);
  throw TraceError(loc, r.error().message);
}

Obj literal_object(const Expr &e) {
  switch (e.kind) {
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
  case Expr::Kind::UnaryOp:
    if (e.unary_op == UnaryOp::neg && e.items.size() == 1 &&
        (e.items[0].kind == Expr::Kind::Int || e.items[0].kind == Expr::Kind::Float)) {
      Obj v = literal_object(e.items[0]);
      if (v.kind == Obj::Kind::Int) {
        if (v.integer == INT64_MIN) throw TraceError(e.loc, "integer literal out of range");
        return Obj::int_of(-v.integer);
      }
      return Obj::float_of(-v.real);
    }
    break;
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    std::vector<Obj> items;
    for (const Expr &item : e.items)
      items.push_back(literal_object(item));
    return e.kind == Expr::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  case Expr::Kind::Dict: {
    Obj d = Obj::dict();
    for (std::size_t i = 0; i + 1 < e.items.size(); i += 2) {
      Obj key = literal_object(e.items[i]);
      if (key.kind != Obj::Kind::Str && key.kind != Obj::Kind::Int)
        throw TraceError(e.items[i].loc, "dictionary keys must be str or int constants");
      d.as<DictObj>().set(std::move(key), literal_object(e.items[i + 1]));
    }
    return d;
  }
  case Expr::Kind::Call:
    if (e.items[0].kind == Expr::Kind::Name && e.items[0].text == "slice") {
      std::vector<Obj> parts;
      for (std::size_t i = 1; i < e.items.size(); ++i)
        parts.push_back(literal_object(e.items[i]));
      if (!e.keywords.empty() || parts.empty() || parts.size() > 3)
        throw TraceError(e.loc, "slice() takes 1 to 3 positional arguments");
      if (parts.size() == 1) return Obj::slice(Obj::none(), parts[0], Obj::none());
      while (parts.size() < 3)
        parts.push_back(Obj::none());
      return Obj::slice(parts[0], parts[1], parts[2]);
    }
    break;
  case Expr::Kind::Attribute:
    if (e.items[0].kind == Expr::Kind::Name && e.items[0].text == "torch") {
      std::optional<DType> d = dtype_from_name(e.text);
      if (!d) throw TraceError(e.loc, "torch." + e.text + " is not a dtype");
      return Obj::dtype_of(*d);
    }
    break;
  default:
    break;
  }
  throw TraceError(e.loc, "not a literal: only numbers, strings, None, ..., True/False, tuples, "
                          "lists, dicts, slice(...) and torch dtypes");
}

std::optional<Obj> builtin_method(Interpreter &in, const Obj &self, std::string_view name,
                                  const Loc &) {
  struct Method {
    Obj::Kind kind;
    const char *name;
    Builtin id;
  };
  static const Method methods[] = {
      {Obj::Kind::Str, "join", Builtin::str_join},
      {Obj::Kind::Str, "split", Builtin::str_split},
      {Obj::Kind::Str, "rsplit", Builtin::str_rsplit},
      {Obj::Kind::Str, "strip", Builtin::str_strip},
      {Obj::Kind::Str, "lstrip", Builtin::str_lstrip},
      {Obj::Kind::Str, "rstrip", Builtin::str_rstrip},
      {Obj::Kind::Str, "startswith", Builtin::str_startswith},
      {Obj::Kind::Str, "endswith", Builtin::str_endswith},
      {Obj::Kind::Str, "replace", Builtin::str_replace},
      {Obj::Kind::Str, "format", Builtin::str_format},
      {Obj::Kind::Str, "lower", Builtin::str_lower},
      {Obj::Kind::Str, "upper", Builtin::str_upper},
      {Obj::Kind::Str, "find", Builtin::str_find},
      {Obj::Kind::Str, "rfind", Builtin::str_rfind},
      {Obj::Kind::Str, "index", Builtin::str_index},
      {Obj::Kind::Str, "count", Builtin::str_count},
      {Obj::Kind::Str, "isdigit", Builtin::str_isdigit},
      {Obj::Kind::Str, "isnumeric", Builtin::str_isnumeric},
      {Obj::Kind::Str, "isalpha", Builtin::str_isalpha},
      {Obj::Kind::Str, "isidentifier", Builtin::str_isidentifier},
      {Obj::Kind::Str, "partition", Builtin::str_partition},
      {Obj::Kind::Str, "rpartition", Builtin::str_rpartition},
      {Obj::Kind::Str, "title", Builtin::str_title},
      {Obj::Kind::Str, "capitalize", Builtin::str_capitalize},
      {Obj::Kind::Str, "zfill", Builtin::str_zfill},
      {Obj::Kind::Str, "ljust", Builtin::str_ljust},
      {Obj::Kind::Str, "rjust", Builtin::str_rjust},
      {Obj::Kind::Str, "removeprefix", Builtin::str_removeprefix},
      {Obj::Kind::Str, "removesuffix", Builtin::str_removesuffix},
      {Obj::Kind::List, "append", Builtin::list_append},
      {Obj::Kind::List, "extend", Builtin::list_extend},
      {Obj::Kind::List, "insert", Builtin::list_insert},
      {Obj::Kind::List, "pop", Builtin::list_pop},
      {Obj::Kind::List, "remove", Builtin::list_remove},
      {Obj::Kind::List, "reverse", Builtin::list_reverse},
      {Obj::Kind::List, "sort", Builtin::list_sort},
      {Obj::Kind::List, "clear", Builtin::list_clear},
      {Obj::Kind::List, "index", Builtin::seq_index},
      {Obj::Kind::List, "count", Builtin::seq_count},
      {Obj::Kind::List, "copy", Builtin::seq_copy},
      {Obj::Kind::Tuple, "index", Builtin::seq_index},
      {Obj::Kind::Tuple, "count", Builtin::seq_count},
      {Obj::Kind::Dict, "get", Builtin::dict_get},
      {Obj::Kind::Dict, "keys", Builtin::dict_keys},
      {Obj::Kind::Dict, "values", Builtin::dict_values},
      {Obj::Kind::Dict, "items", Builtin::dict_items},
      {Obj::Kind::Dict, "pop", Builtin::dict_pop},
      {Obj::Kind::Dict, "setdefault", Builtin::dict_setdefault},
      {Obj::Kind::Dict, "update", Builtin::dict_update},
      {Obj::Kind::Dict, "clear", Builtin::dict_clear},
      {Obj::Kind::Dict, "copy", Builtin::seq_copy},
      {Obj::Kind::Set, "add", Builtin::set_add},
      {Obj::Kind::Set, "discard", Builtin::set_discard},
      {Obj::Kind::Set, "update", Builtin::set_update},
      {Obj::Kind::Set, "union", Builtin::set_union},
      {Obj::Kind::Set, "intersection", Builtin::set_intersection},
      {Obj::Kind::Set, "difference", Builtin::set_difference},
      {Obj::Kind::Set, "symmetric_difference", Builtin::set_symmetric_difference},
      {Obj::Kind::Set, "issubset", Builtin::set_issubset},
      {Obj::Kind::Set, "issuperset", Builtin::set_issuperset},
      {Obj::Kind::Set, "copy", Builtin::seq_copy},
      {Obj::Kind::Float, "is_integer", Builtin::float_is_integer},
      {Obj::Kind::Property, "getter", Builtin::property_getter},
      {Obj::Kind::Property, "setter", Builtin::property_setter},
      {Obj::Kind::Property, "deleter", Builtin::property_deleter},
  };
  if (self.kind == Obj::Kind::Dict && self.as<DictObj>().flavor == DictObj::Flavor::Ordered &&
      name == "move_to_end")
    return bound_builtin(Builtin::dict_move_to_end, "OrderedDict.move_to_end", self);
  if (self.kind == Obj::Kind::Dict && self.as<DictObj>().flavor == DictObj::Flavor::Default &&
      name == "default_factory")
    return self.as<DictObj>().default_factory;
  for (const Method &m : methods)
    if (m.kind == self.kind && name == m.name)
      return bound_builtin(m.id, type_name(self) + "." + m.name, self);
  if (name == "__class__") {
    std::vector<Obj> args{self};
    Kwargs none;
    Obj type = make_builtin(Builtin::type, "type");
    return builtins::call(in, type.as<BuiltinObj>(), args, none, Loc{});
  }
  return std::nullopt;
}

} // namespace tracelint::tracer
