#pragma once
// What the interpreter's parts share: its per-run state (InterpreterState) (the builtins'
// namespace, the modules it provides) and small helpers. Not for use outside the interpreter.
#include "enums.hpp"
#include "evaluator.hpp"
#include "excerpt.hpp"
#include "formatting.hpp"
#include "imports.hpp"
#include "object_model.hpp"
#include "torch_api.hpp"
#include "tracelint/tracer/interpreter.hpp"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tracelint::tracer {

// The modules the tracer provides, by ModuleObj::provided.
enum class Provided : uint16_t {
  none,
  torch,
  torch_nn, // the tracer's own torch.nn, Python source run by the interpreter
  torch_nn_functional,
  torch_special,
  torch_cuda,
  math,
  dataclasses,
  typing,
  functools,
  copy_module,
  argparse_module,
  contextlib,
  collections,
  enum_module,
  builtins_module,
};

// An in-place update of a `to` tensor with a result of dtype `from` that PyTorch refuses (a
// float result into an integer tensor): its RuntimeError message, or nothing.
std::optional<std::string> in_place_cast_problem(DType from, DType to);

// A property's getter, setter or deleter (`part`) called on args (the instance first), or
// CPython's AttributeError where the property has none.
Obj call_property_part(Interpreter &in, const Obj &part, const char *part_name,
                       std::string_view attribute, const std::string &class_name,
                       std::vector<Obj> args, const Loc &loc);

struct InterpreterState {
  std::shared_ptr<const Module> module; // the traced module
  std::vector<std::string> printed;     // see Interpreter::printed
  // How deep repr, == and hash are inside a value (a list in a list ...), and the containers
  // whose repr is being written: a cycle prints [...], a value deeper than CPython's recursion
  // limit raises RecursionError, as CPython does, instead of recursing on.
  int value_depth = 0;
  std::vector<const void *> in_repr;
  std::shared_ptr<Env> globals;        // the traced module's namespace
  std::shared_ptr<Env> builtins;       // Python's builtins
  std::map<std::string, Obj> provided; // by dotted name
  std::map<std::string, std::shared_ptr<ClassObj>> exception_classes;
  std::unordered_map<uint16_t, std::shared_ptr<ClassObj>> builtin_classes;
  // torch.nn: its syntax tree and namespace, once loaded.
  std::shared_ptr<const Module> nn_source;
  std::shared_ptr<Env> nn_globals;
  // The model's own modules read from disk (imports.cpp), by canonical path: CPython's
  // sys.modules for them; their syntax trees, which their functions point into.
  std::map<std::string, Obj> local_modules;
  std::vector<std::shared_ptr<const Module>> local_sources;
  // The scopes functions closed over (see ~Interpreter).
  std::vector<std::weak_ptr<Env>> captured;
  std::size_t compact_captured_at = 64;
  bool module_ran = false;
  // The generators whose bodies are running, innermost last (a yield suspends the last).
  std::vector<Coroutine *> running_generators;
  // How many generators are started and not ended or dropped (each holds a thread); shared
  // with them, which may outlive this.
  std::shared_ptr<int> live_generators = std::make_shared<int>(0);
  // The enum classes made: a class and its members hold each other (~Interpreter parts them).
  std::vector<std::weak_ptr<ClassObj>> enum_classes;
};

inline std::string where_text(const std::string &path, const Loc &loc) {
  return path + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

inline Obj make_builtin(Builtin id, std::string name, uint32_t index = 0) {
  auto b = std::make_shared<BuiltinObj>();
  b->id = static_cast<uint16_t>(id);
  b->index = index;
  b->name = std::move(name);
  return Obj::heap(Obj::Kind::Builtin, std::move(b));
}

inline Obj bound_builtin(Builtin id, std::string name, Obj self, uint32_t index = 0) {
  auto b = std::make_shared<BuiltinObj>();
  b->id = static_cast<uint16_t>(id);
  b->index = index;
  b->name = std::move(name);
  b->self = std::move(self);
  b->bound = true;
  return Obj::heap(Obj::Kind::Builtin, std::move(b));
}

inline Obj make_unknown(std::string what, const Loc &loc) {
  auto u = std::make_shared<UnknownObj>();
  u->what = std::move(what);
  u->line = loc.line;
  u->column = loc.column;
  return Obj::heap(Obj::Kind::Unknown, std::move(u));
}

// A module the tracer cannot read, imported at loc: an error where something of it is used.
inline Obj unreadable_module(const std::string &dotted, std::string what, const Loc &loc) {
  Obj o = make_unknown(std::move(what), loc);
  o.as<UnknownObj>().module = dotted.substr(0, dotted.find('.'));
  o.as<UnknownObj>().import_line = loc.line;
  return o;
}

// What an unknown gives (an attribute, a call, a subscript): it keeps where it came from.
inline Obj derived_unknown(const Obj &base, std::string what, const Loc &loc) {
  Obj o = make_unknown(std::move(what), loc);
  o.as<UnknownObj>().module = base.as<UnknownObj>().module;
  o.as<UnknownObj>().import_line = base.as<UnknownObj>().import_line;
  return o;
}

// A tensor's values as Python values (`.item()`, `bool(t)`, `int(t)` or `float(t)`,
// `.tolist()`): while tracing, `traced_error` (its values depend on the data); while a module is
// constructed, the backend's values (libtorch's), or ConstructionReadsValues on a backend of
// shapes only. `what` names the read ("`Tensor.item()`"). One element for all but All, raising
// what PyTorch raises for more.
enum class ValueRead : uint8_t { Item, Truth, Number, All };
Obj tensor_values(Interpreter &in, const Obj &tensor, ValueRead read, const std::string &what,
                  const std::string &traced_error, const Loc &loc);

inline const std::string &str_of(const Obj &o) {
  return o.as<StrObj>().value;
}
// Python's length of a str (UTF-8 inside): its code points, the bytes that do not continue one.
inline std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}
inline std::vector<Obj> &items_of(const Obj &o) {
  return o.as<SeqObj>().items;
}

inline bool is_tensor(const Obj &o) {
  return o.kind == Obj::Kind::Tensor;
}

// A keyword argument by name, removed from kwargs; none when absent.
inline std::optional<Obj> take_keyword(Kwargs &kwargs, std::string_view name) {
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it)
    if (it->first == name) {
      Obj v = std::move(it->second);
      kwargs.erase(it);
      return v;
    }
  return std::nullopt;
}

} // namespace tracelint::tracer
