// Calls a builtin: finds its handler in the families' tables by id.
#include "builtin_family.hpp"

#include <array>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

// The work a builtin does on its operands, at most: one step per 64 characters of a string and
// per 16 items of a collection (find, count, split, sum, extend read them all).
int64_t operand_work(const Obj &self, const std::vector<Obj> &args) {
  uint64_t work = 0;
  auto add = [&](const Obj &o) {
    if (o.kind == Obj::Kind::Str)
      work += str_of(o).size() / 64;
    else if (o.kind == Obj::Kind::Tuple || o.kind == Obj::Kind::List || o.kind == Obj::Kind::Set)
      work += items_of(o).size() / 16;
    else if (o.kind == Obj::Kind::Dict)
      work += o.as<DictObj>().keys.size() / 16;
  };
  add(self);
  for (const Obj &o : args)
    add(o);
  return static_cast<int64_t>(std::min<uint64_t>(work, std::numeric_limits<int64_t>::max()));
}

constexpr std::size_t kBuiltinCount = static_cast<std::size_t>(Builtin::count_);

// Every family's entries by id, once (immutable after it is built).
const std::array<Handler, kBuiltinCount> &handlers() {
  static const std::array<Handler, kBuiltinCount> table = [] {
    std::array<Handler, kBuiltinCount> t{};
    for (auto family : {core_functions, iteration_functions, conversion_functions, object_functions,
                        str_methods, collection_methods, functools_functions, copy_functions,
                        named_tuple_functions, torch_functions})
      for (const Entry &e : family())
        t[static_cast<std::size_t>(e.id)] = e.handler;
    return t;
  }();
  return table;
}

} // namespace

Obj call(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs, const Loc &loc) {
  in.budget().charge(1 + operand_work(fn.self, args), loc);
  auto id = static_cast<std::size_t>(fn.id);
  if (Handler handler = id < kBuiltinCount ? handlers()[id] : nullptr)
    return handler(in, fn, args, kwargs, loc);
  throw TraceError(loc, "the builtin `" + excerpt(fn.name) + "` is not supported");
}

bool implemented(Builtin id) {
  return handlers()[static_cast<std::size_t>(id)] != nullptr;
}

} // namespace tracelint::tracer::builtins
