#pragma once
// The object model, as CPython's abstract object API (PyObject_GetAttr, PyObject_IsTrue,
// PyObject_RichCompare, PyObject_GetIter, ...): free functions that take the interpreter first.
// Attributes and the MRO, truth, equality and ordering, operators, subscripts, iteration, dicts'
// lookups and hashing, class calls, exceptions. Defined in object_model.cpp, with the
// builtin types' own parts beside their builtins: their methods (builtin_method, builtins.cpp),
// their calls (call_builtin_class and require_hashable, builtin_classes.cpp) and a generator's
// resumption (resume_generator, generators.cpp).
#include "tracelint/tracer/interpreter.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint::tracer {

// ---- attributes (PyObject_GetAttr, PyObject_SetAttr): the instance, its class's MRO, properties
Obj attribute(Interpreter &in, const Obj &base, std::string_view name, const Loc &loc);
// The attribute, or none where Python raises AttributeError.
std::optional<Obj> find_instance_attribute(Interpreter &in, const Obj &base, std::string_view name,
                                           const Loc &loc);
std::optional<Obj> find_attribute(Interpreter &in, const Obj &base, std::string_view name,
                                  const Loc &loc);
void set_attribute(Interpreter &in, const Obj &base, const std::string &name, Obj value,
                   const Loc &loc);
// A builtin type's method bound to self (str.join, list.append, ...), or none (builtins.cpp).
std::optional<Obj> builtin_method(Interpreter &in, const Obj &self, std::string_view name,
                                  const Loc &loc);

// ---- truth, numbers, comparisons, operators (PyObject_IsTrue, PyNumber_*, PyObject_RichCompare)
bool truth(Interpreter &in, const Obj &o, const Loc &loc);
// A concrete int where Python needs one (an index, a loop bound); a proxy is guarded.
int64_t concrete_int(Interpreter &in, const Obj &o, const Loc &loc, const std::string &what);
double concrete_float(Interpreter &in, const Obj &o, const Loc &loc, const std::string &what);
// Python's == (concrete: a proxy compared is guarded).
bool equal(Interpreter &in, const Obj &a, const Obj &b, const Loc &loc);
Obj compare(Interpreter &in, CompareOp op, const Obj &a, const Obj &b, const Loc &loc);
// ---- sets: a vector searched item by item where CPython's is a hash table, so building one is
// quadratic; each comparison is a step (budget.hpp), and a large set stops at the step limit.
// Whether the set holds an item equal to item.
bool set_contains(Interpreter &in, const Obj &set, const Obj &item, const Loc &loc);
// Adds item unless the set holds an equal one (set.add); whether it added it.
bool set_insert(Interpreter &in, const Obj &set, Obj item, const Loc &loc);
// The set of items, the first of equal ones kept: {a, b}, set(iterable), {x for x in ...}.
Obj make_set(Interpreter &in, std::vector<Obj> items, const Loc &loc);
// <, <=, >, >= through a user class's __lt__/__le__/__gt__/__ge__ (or the other operand's
// reflected one), as CPython; nullopt when neither defines it or both say NotImplemented.
std::optional<Obj> user_ordering(Interpreter &in, CompareOp op, const Obj &a, const Obj &b,
                                 const Loc &loc);
Obj unary(Interpreter &in, UnaryOp op, const Obj &a, const Loc &loc);
Obj binary(Interpreter &in, BinaryOp op, Obj a, Obj b, const Loc &loc);
// A number operation (a proxy operand goes to the backend); the errors CPython raises
// (ZeroDivisionError, ...) as Python exceptions.
Obj number(Interpreter &in, NumOp op, const std::vector<Obj> &args, const Loc &loc);
bool isinstance(Interpreter &in, const Obj &o, const Obj &cls, const Loc &loc);

// ---- items and iteration (PyObject_GetItem, PyObject_SetItem, PyObject_GetIter)
Obj subscript(Interpreter &in, const Obj &base, const Obj &index, const Loc &loc);
void set_item(Interpreter &in, const Obj &base, const Obj &index, Obj value, const Loc &loc);
// The items of an iterable (a list, tuple, dict's keys, str, set, an object's __iter__).
std::vector<Obj> iterate(Interpreter &in, const Obj &o, const Loc &loc);
std::vector<Obj> iterate_instance(Interpreter &in, const Obj &o, const Loc &loc);
// Runs a generator's body to its next yield: what it yields, or nothing once it has ended
// (generators.cpp).
std::optional<Obj> resume_generator(Interpreter &in, const Obj &generator, const Loc &loc);

// ---- hashing and dicts (PyObject_Hash, PyDict_GetItem, PyDict_SetItem)
void require_hashable(Interpreter &in, const Obj &o, const Loc &loc);
// hash() of an instance of a class that defines __hash__ or __eq__: its __hash__, which must
// return an int; __eq__ without __hash__ is unhashable, as CPython makes it.
int64_t user_hash(Interpreter &in, const Obj &instance, const Loc &loc);
// A dict's lookups as CPython's: the key must be hashable; a key of a class that defines
// __hash__ or __eq__ is found by its __hash__ and the stored key's __eq__. Charged by the
// keys scanned.
std::ptrdiff_t dict_find(Interpreter &in, const DictObj &d, const Obj &key, const Loc &loc);
const Obj *dict_get(Interpreter &in, const DictObj &d, const Obj &key, const Loc &loc);
void dict_set(Interpreter &in, DictObj &d, Obj key, Obj value, const Loc &loc);

// ---- classes (type_call)
// A class's call: a new instance, its __init__ run.
Obj construct(Interpreter &in, const std::shared_ptr<ClassObj> &cls, std::vector<Obj> args,
              Kwargs kwargs, const Loc &loc);
// A builtin class's call (int, list, torch.device, ...: builtin_classes.cpp).
Obj call_builtin_class(Interpreter &in, const ClassObj &cls, std::vector<Obj> &args, Kwargs &kwargs,
                       const Loc &loc);
std::shared_ptr<ClassObj> builtin_class(Interpreter &in, Builtin b);

// ---- exceptions (PyErr_SetString, PyErr_ExceptionMatches)
Obj make_exception(Interpreter &in, const std::string &cls, const std::string &message);
// Raises a Python exception of a builtin class (ValueError, ...) with this message.
[[noreturn]] void raise(Interpreter &in, const std::string &exception_class,
                        const std::string &message, const Loc &loc);
// Whether the Python exception is one of exception_class (a builtin's name) or a subclass.
bool raised(Interpreter &in, const PyError &e, const char *exception_class);
// A value the tracer does not model (UnknownObj) used `how`: the TraceError that says so.
[[noreturn]] void unknown_used(Interpreter &in, const Obj &o, const Loc &loc,
                               const std::string &how);

} // namespace tracelint::tracer
