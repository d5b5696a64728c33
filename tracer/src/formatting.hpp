#pragma once
// Values as text: repr() and str() (containers through container_repr, which prints a cycle as
// [...]), format() and f-string format specs, str.format and `%`. Defined in formatting.cpp.
#include "tracelint/tracer/interpreter.hpp"

#include <string>
#include <vector>

namespace tracelint::tracer {

// Enters one level of a value for `what` ("getting the repr of an object"); RecursionError past
// CPython's default limit. The returned guard leaves it.
struct ValueLevel {
  Interpreter &in;
  ~ValueLevel();
};
ValueLevel enter_value(Interpreter &in, const char *what, const Loc &loc);
// repr() of a list, tuple, dict or set: a cycle prints as [...] ({...}, ...), as CPython.
std::string container_repr(Interpreter &in, const Obj &o, const Loc &loc);
std::string str(Interpreter &in, const Obj &o, const Loc &loc);
std::string repr(Interpreter &in, const Obj &o, const Loc &loc);
// format(value, spec): an f-string's {value:spec}.
Obj format_value(Interpreter &in, const Obj &value, const std::string &spec, const Loc &loc);
// str.format.
std::string format_method(Interpreter &in, const std::string &format, const std::vector<Obj> &args,
                          const Kwargs &kwargs, const Loc &loc);
// format % args.
std::string percent_format(Interpreter &in, const std::string &format, const Obj &args,
                           const Loc &loc);

} // namespace tracelint::tracer
