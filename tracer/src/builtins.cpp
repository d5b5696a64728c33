// Python's builtin functions, the constructors of the builtin types, and the methods of str,
// list, tuple, dict and set, as the interpreter runs them; and Python's number arithmetic.
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "interpreter_impl.hpp"

#include "tracelint/core/value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

namespace tracelint::tracer {

std::optional<int64_t> truncate_to_int64(double x) {
  // -2**63 and 2**63 are exact doubles; NaN fails both comparisons.
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return std::nullopt;
  return static_cast<int64_t>(x);
}

Obj compute_number(NumOp op, const std::vector<Obj> &args, const Loc &loc) {
  const Obj &a = args[0];
  auto fail = [&](const std::string &m) -> Obj { throw TraceError(loc, m); };
  auto python_error = [&](const char *cls, const std::string &m) -> Obj {
    throw PythonNumberError(loc, cls, m);
  };
  auto float_result = [&](double r) { return Obj::float_of(r); };
  switch (op) {
  case NumOp::neg:
    if (a.kind == Obj::Kind::Float) return Obj::float_of(-a.real);
    if (a.integer == INT64_MIN) return fail("integer overflow in `-`");
    return Obj::int_of(-a.integer);
  case NumOp::abs:
    if (a.kind == Obj::Kind::Float) return Obj::float_of(std::fabs(a.real));
    if (a.integer == INT64_MIN) return fail("integer overflow in abs()");
    return Obj::int_of(a.integer < 0 ? -a.integer : a.integer);
  case NumOp::to_int: {
    if (a.kind != Obj::Kind::Float) return Obj::int_of(a.integer);
    std::optional<int64_t> truncated = truncate_to_int64(a.real);
    if (!truncated)
      return std::isnan(a.real) ? python_error("ValueError", "cannot convert float NaN to integer")
             : std::isinf(a.real)
                 ? python_error("OverflowError", "cannot convert float infinity to integer")
                 : fail("int(" + python_float(a.real) +
                        ") is outside the 64-bit integer range that the "
                        "tracer supports");
    return Obj::int_of(*truncated);
  }
  case NumOp::to_float:
    return Obj::float_of(a.as_double());
  case NumOp::exact_div:
    if (args[1].integer == 0) return python_error("ZeroDivisionError", "division by zero");
    return Obj::int_of(a.integer / args[1].integer);
  case NumOp::sqrt:
    if (a.as_double() < 0) return python_error("ValueError", "math domain error");
    return float_result(std::sqrt(a.as_double()));
  case NumOp::exp: {
    double r = std::exp(a.as_double());
    if (std::isinf(r) && std::isfinite(a.as_double()))
      return python_error("OverflowError", "math range error");
    return float_result(r);
  }
  case NumOp::log:
    if (a.as_double() <= 0) return python_error("ValueError", "math domain error");
    return float_result(std::log(a.as_double()));
  case NumOp::sin:
    return float_result(std::sin(a.as_double()));
  case NumOp::cos:
    return float_result(std::cos(a.as_double()));
  case NumOp::tanh:
    return float_result(std::tanh(a.as_double()));
  case NumOp::floor:
  case NumOp::ceil:
  case NumOp::trunc: {
    if (a.kind != Obj::Kind::Float) return Obj::int_of(a.integer);
    double r = op == NumOp::floor  ? std::floor(a.real)
               : op == NumOp::ceil ? std::ceil(a.real)
                                   : std::trunc(a.real);
    std::optional<int64_t> i = truncate_to_int64(r);
    if (std::isnan(a.real))
      return python_error("ValueError", "cannot convert float NaN to integer");
    if (std::isinf(a.real))
      return python_error("OverflowError", "cannot convert float infinity to integer");
    if (!i)
      return fail(std::string(num_op_symbol(op)) + "(" + python_float(a.real) +
                  ") is outside the 64-bit integer range that the tracer supports");
    return Obj::int_of(*i);
  }
  default:
    break;
  }
  const Obj &b = args[1];
  bool floats = a.kind == Obj::Kind::Float || b.kind == Obj::Kind::Float;
  double x = a.as_double(), y = b.as_double();
  int64_t i = a.integer, j = b.integer;
  switch (op) {
  case NumOp::lt:
    return Obj::boolean_of(floats ? x < y : i < j);
  case NumOp::le:
    return Obj::boolean_of(floats ? x <= y : i <= j);
  case NumOp::gt:
    return Obj::boolean_of(floats ? x > y : i > j);
  case NumOp::ge:
    return Obj::boolean_of(floats ? x >= y : i >= j);
  case NumOp::eq:
    return Obj::boolean_of(floats ? x == y : i == j);
  case NumOp::ne:
    return Obj::boolean_of(floats ? x != y : i != j);
  case NumOp::bitwise_and:
  case NumOp::bitwise_or:
  case NumOp::bitwise_xor: {
    int64_t r = op == NumOp::bitwise_and ? (i & j) : op == NumOp::bitwise_or ? (i | j) : (i ^ j);
    if (a.kind == Obj::Kind::Bool && b.kind == Obj::Kind::Bool) return Obj::boolean_of(r != 0);
    return Obj::int_of(r);
  }
  default:
    break;
  }
  if ((op == NumOp::truediv || op == NumOp::floordiv || op == NumOp::mod) &&
      (floats ? y == 0.0 : j == 0))
    return python_error("ZeroDivisionError", op == NumOp::truediv ? "division by zero"
                                             : floats             ? "float floor division by zero"
                                                      : "integer division or modulo by zero");
  if (op == NumOp::truediv) return Obj::float_of(x / y);
  if (floats) {
    switch (op) {
    case NumOp::add:
      return Obj::float_of(x + y);
    case NumOp::sub:
      return Obj::float_of(x - y);
    case NumOp::mul:
      return Obj::float_of(x * y);
    case NumOp::floordiv: { // CPython's float_floor_div: from fmod, so 2.0 // 0.1 is 19.0
      double mod = std::fmod(x, y);
      double div = (x - mod) / y;
      if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1.0;
      if (div == 0) return Obj::float_of(std::copysign(0.0, x / y));
      double floored = std::floor(div);
      if (div - floored > 0.5) floored += 1.0;
      return Obj::float_of(floored);
    }
    case NumOp::mod: {
      double m = std::fmod(x, y);
      if (m == 0) return Obj::float_of(std::copysign(0.0, y)); // CPython: a zero of y's sign
      return Obj::float_of((m < 0) != (y < 0) ? m + y : m);
    }
    case NumOp::pow: {
      if (x < 0 && y != std::floor(y) && std::isfinite(y))
        return fail("a negative number to a fractional power (a complex number in Python)");
      if (x == 0 && y < 0)
        return python_error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      double r = std::pow(x, y);
      if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
        return python_error("OverflowError", "(34, 'Numerical result out of range')");
      return Obj::float_of(r);
    }
    default:
      break;
    }
  } else {
    int64_t r = 0;
    switch (op) {
    case NumOp::add:
      if (!__builtin_add_overflow(i, j, &r)) return Obj::int_of(r);
      return fail("integer overflow in `+`");
    case NumOp::sub:
      if (!__builtin_sub_overflow(i, j, &r)) return Obj::int_of(r);
      return fail("integer overflow in `-`");
    case NumOp::mul:
      if (!__builtin_mul_overflow(i, j, &r)) return Obj::int_of(r);
      return fail("integer overflow in `*`");
    case NumOp::floordiv: {
      if (i == INT64_MIN && j == -1) return fail("integer overflow");
      int64_t q = i / j;
      if ((i % j != 0) && ((i < 0) != (j < 0))) --q;
      return Obj::int_of(q);
    }
    case NumOp::mod: {
      if (j == -1) return Obj::int_of(0);
      int64_t m = i % j;
      return Obj::int_of(m != 0 && ((m < 0) != (j < 0)) ? m + j : m);
    }
    case NumOp::pow: {
      if (j < 0 && i == 0)
        return python_error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      if (j < 0) return Obj::float_of(std::pow(x, y));
      // By squaring: j steps of a loop would run for ever on 1 ** 10**18.
      int64_t acc = 1, base = i;
      for (uint64_t e = static_cast<uint64_t>(j); e; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(acc, base, &acc))
          return fail("integer overflow in **");
        if (e > 1 && __builtin_mul_overflow(base, base, &base))
          return fail("integer overflow in **");
      }
      return Obj::int_of(acc);
    }
    default:
      break;
    }
  }
  return fail(std::string("unsupported number operation ") + num_op_symbol(op));
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
    if (e.text == "-" && e.items.size() == 1 &&
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

std::optional<Obj> Interpreter::builtin_method(const Obj &self, std::string_view name,
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
      {Obj::Kind::Set, "copy", Builtin::seq_copy},
      {Obj::Kind::Float, "is_integer", Builtin::float_is_integer},
  };
  for (const Method &m : methods)
    if (m.kind == self.kind && name == m.name)
      return bound_builtin(m.id, type_name(self) + "." + m.name, self);
  if (name == "__class__") {
    std::vector<Obj> args{self};
    Kwargs none;
    Obj type = make_builtin(Builtin::type, "type");
    return builtins::call(*this, type.as<BuiltinObj>(), args, none, Loc{});
  }
  return std::nullopt;
}

} // namespace tracelint::tracer
