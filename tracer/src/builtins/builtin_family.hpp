#pragma once
// The builtins the interpreter implements itself (builtins.def names them), one file per family,
// each a table of {id, handler}: a new builtin is a handler in its family's file and a row in
// that family's table (and its id in builtins.def). dispatch.cpp puts the tables together.
#include "tracelint/tracer/interpreter.hpp"

#include "../interpreter_impl.hpp"
#include "../list_sort.hpp"

#include <span>
#include <string>
#include <vector>

namespace tracelint::tracer::builtins {

// A builtin's implementation: fn is the called object (its name for messages, its receiver
// `self` for a bound method, its index); args and kwargs may be consumed.
using Handler = Obj (*)(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                        const Loc &loc);
struct Entry {
  Builtin id;
  Handler handler;
};

// Print, len, repr and slice (core.cpp).
std::span<const Entry> core_functions();
// Python's iteration builtins: range, enumerate, zip, reversed, sorted (and list.sort), map,
// filter, iter, next, min, max, sum, any, all (iteration.cpp).
std::span<const Entry> iteration_functions();
// The number builtins and conversions: int/float/bool/str and the collections' constructors called
// as functions, chr, ord, hash, format, round, pow, divmod, abs, float.is_integer
// (conversions.cpp).
std::span<const Entry> conversion_functions();
// The object model's builtins: isinstance, issubclass, the *attr functions, type, id, callable,
// super, property, classmethod, staticmethod, object and its dunders, vars, an exception's
// with_traceback (objects.cpp).
std::span<const Entry> object_functions();
// The methods of str (str_methods.cpp).
std::span<const Entry> str_methods();
// The methods of list, tuple, dict and set (collection_methods.cpp).
std::span<const Entry> collection_methods();
// Dataclasses (dataclass, field, the generated __init__), functools (partial, reduce) and the
// identity decorators (functools.cpp).
std::span<const Entry> functools_functions();
// copy.copy and copy.deepcopy (copying.cpp).
std::span<const Entry> copy_functions();
// a | b, a & b, a - b, a ^ b of two sets (collection_methods.cpp).
Obj set_operation(Interpreter &in, BinaryOp op, const Obj &a, const Obj &b, const Loc &loc);
// collections.namedtuple and its tuples' _asdict and _replace (named_tuples.cpp).
std::span<const Entry> named_tuple_functions();
// A tuple of the namedtuple class cls, its fields bound from the arguments as CPython's __new__.
Obj make_named_tuple(Interpreter &in, const std::shared_ptr<ClassObj> &cls, std::vector<Obj> &args,
                     Kwargs &kwargs, const Loc &loc);
// A field of a namedtuple, or its _asdict/_replace (its class's other attributes are the
// interpreter's to bind).
std::optional<Obj> named_tuple_attribute(const Obj &t, std::string_view name);
// A class statement made a namedtuple class (typing.NamedTuple's subclass, or a subclass of a
// namedtuple class): its _fields (the fields its bases had, then its body's annotated names) and
// _field_defaults (the values the body gave them), as CPython's.
void finish_named_tuple_class(ClassObj &cls, const std::vector<std::pair<std::string, Obj>> &body);
// A registry symbol called from a builtin's implementation, its arguments bound to its schema
// (spelled: the Python name the call used, for messages) (torch_api.cpp).
Obj call_symbol(Interpreter &in, Sym sym, std::vector<Obj> call_args, Kwargs call_kwargs,
                const std::string &spelled, const Loc &loc);
// The torch module, tensor methods and math (torch_api.cpp).
std::span<const Entry> torch_functions();

// Calls the builtin fn (its handler, found by fn.id); a TraceError for an id no family has.
Obj call(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs, const Loc &loc);
// Whether a family implements the builtin.
bool implemented(Builtin id);

// TypeError unless lo <= len(args) <= hi, worded as CPython's.
void arity(Interpreter &in, const std::string &name, const std::vector<Obj> &args, std::size_t lo,
           std::size_t hi, const Loc &loc);
// TypeError for the first keyword argument left.
void no_keywords(Interpreter &in, const std::string &name, const Kwargs &kwargs, const Loc &loc);
// Python's callable().
bool is_callable(const Obj &o);

} // namespace tracelint::tracer::builtins
