// Builtins: Python's iteration builtins: range, enumerate, zip, reversed, sorted (and list.sort),
// map, filter, iter, next, min, max, sum, any, all. Each is registered by its id (builtins.def) in
// this family's table; dispatch.cpp reads it.
#include "builtin_family.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

Obj call_range(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 3, loc);
  int64_t start = 0, stop = 0, stride = 1;
  if (args.size() == 1) {
    stop = concrete_int(in, args[0], loc, "range's bound");
  } else {
    start = concrete_int(in, args[0], loc, "range's start");
    stop = concrete_int(in, args[1], loc, "range's stop");
    if (args.size() == 3) stride = concrete_int(in, args[2], loc, "range's step");
  }
  if (stride == 0) raise(in, "ValueError", "range() arg 3 must not be zero", loc);
  std::vector<Obj> items;
  for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride) {
    in.budget().step(loc);
    items.push_back(Obj::int_of(i));
  }
  return Obj::tuple(std::move(items));
}

Obj call_min(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  auto id = static_cast<Builtin>(fn.id);
  std::optional<Obj> key = take_keyword(kwargs, "key");
  std::optional<Obj> dflt = take_keyword(kwargs, "default");
  no_keywords(in, name, kwargs, loc);
  if (args.empty()) raise(in, "TypeError", name + " expected at least 1 argument, got 0", loc);
  std::vector<Obj> items = args.size() == 1 ? iterate(in, args[0], loc) : args;
  if (items.empty()) {
    if (dflt) return *dflt;
    raise(in, "ValueError", name + "() arg is an empty sequence", loc);
  }
  for (const Obj &o : items)
    if (o.kind == Obj::Kind::Tensor)
      throw TraceError(loc, "the builtin " + name +
                                "() of tensors compares their values, "
                                "which cannot be traced (use torch.maximum/torch.minimum)");
  std::size_t best = 0;
  Obj best_key = key ? in.call(*key, {items[0]}, {}, loc) : items[0];
  for (std::size_t i = 1; i < items.size(); ++i) {
    Obj k = key ? in.call(*key, {items[i]}, {}, loc) : items[i];
    if (truth(in, compare(in, id == Builtin::min ? CompareOp::lt : CompareOp::gt, k, best_key, loc),
              loc)) {
      best = i;
      best_key = k;
    }
  }
  return items[best];
}

Obj call_sum(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  std::optional<Obj> start = take_keyword(kwargs, "start");
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  Obj total = args.size() > 1 ? args[1] : start ? *start : Obj::int_of(0);
  for (Obj &o : iterate(in, args[0], loc)) {
    in.budget().step(loc);
    total = binary(in, BinaryOp::add, std::move(total), std::move(o), loc);
  }
  return total;
}

Obj call_any(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  auto id = static_cast<Builtin>(fn.id);
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  for (const Obj &o : iterate(in, args[0], loc)) {
    bool t = truth(in, o, loc);
    if (id == Builtin::any && t) return Obj::boolean_of(true);
    if (id == Builtin::all && !t) return Obj::boolean_of(false);
  }
  return Obj::boolean_of(id == Builtin::all);
}

Obj call_enumerate(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                   const Loc &loc) {
  const std::string &name = fn.name;
  std::optional<Obj> start_kw = take_keyword(kwargs, "start");
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  int64_t i = args.size() > 1 ? concrete_int(in, args[1], loc, "start")
              : start_kw      ? concrete_int(in, *start_kw, loc, "start")
                              : 0;
  std::vector<Obj> out;
  for (Obj &o : iterate(in, args[0], loc))
    out.push_back(Obj::tuple({Obj::int_of(i++), std::move(o)}));
  return Obj::list(std::move(out));
}

Obj call_zip(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  std::optional<Obj> strict = take_keyword(kwargs, "strict");
  no_keywords(in, name, kwargs, loc);
  std::vector<std::vector<Obj>> its;
  std::size_t n = SIZE_MAX;
  for (const Obj &a : args) {
    its.push_back(iterate(in, a, loc));
    n = std::min(n, its.back().size());
  }
  if (its.empty()) return Obj::list({});
  if (strict && truth(in, *strict, loc))
    for (const auto &it : its)
      if (it.size() != n) raise(in, "ValueError", "zip() arguments have different lengths", loc);
  std::vector<Obj> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Obj> row;
    for (auto &it : its)
      row.push_back(it[i]);
    out.push_back(Obj::tuple(std::move(row)));
  }
  return Obj::list(std::move(out));
}

Obj call_reversed(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  std::vector<Obj> items = iterate(in, args[0], loc);
  std::reverse(items.begin(), items.end());
  return Obj::list(std::move(items));
}

Obj call_sorted(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  std::optional<Obj> key = take_keyword(kwargs, "key");
  std::optional<Obj> reverse = take_keyword(kwargs, "reverse");
  no_keywords(in, name, kwargs, loc);
  std::vector<Obj> items;
  if (id == Builtin::sorted) {
    arity(in, name, args, 1, 1, loc);
    items = iterate(in, args[0], loc);
  } else {
    arity(in, name, args, 0, 0, loc);
    items = items_of(self);
  }
  std::vector<Obj> keys;
  for (const Obj &o : items)
    keys.push_back(key ? in.call(*key, {o}, {}, loc) : o);
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto in_order = [&] {
    std::vector<Obj> out;
    for (std::size_t i : order)
      out.push_back(items[i]);
    return out;
  };
  try {
    cpython_sort(order, reverse && truth(in, *reverse, loc), [&](std::size_t x, std::size_t y) {
      in.budget().step(loc); // a comparison is one in.step (n log n in all)
      return truth(in, compare(in, CompareOp::lt, keys[x], keys[y], loc), loc);
    });
  } catch (...) {
    // A comparison raised: list.sort leaves its list as far as CPython's sort had got.
    if (id == Builtin::list_sort) items_of(self) = in_order();
    throw;
  }
  if (id == Builtin::sorted) return Obj::list(in_order());
  items_of(self) = in_order();
  return Obj::none();
}

Obj call_map(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  if (args.size() < 2) raise(in, "TypeError", "map() must have at least two arguments", loc);
  std::vector<std::vector<Obj>> its;
  std::size_t n = SIZE_MAX;
  for (std::size_t i = 1; i < args.size(); ++i) {
    its.push_back(iterate(in, args[i], loc));
    n = std::min(n, its.back().size());
  }
  std::vector<Obj> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Obj> call_args;
    for (auto &it : its)
      call_args.push_back(it[i]);
    out.push_back(in.call(args[0], std::move(call_args), {}, loc));
  }
  return Obj::list(std::move(out));
}

Obj call_filter(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  std::vector<Obj> out;
  for (Obj &o : iterate(in, args[1], loc)) {
    bool keep = args[0].kind == Obj::Kind::None ? truth(in, o, loc)
                                                : truth(in, in.call(args[0], {o}, {}, loc), loc);
    if (keep) out.push_back(std::move(o));
  }
  return Obj::list(std::move(out));
}

Obj call_iter(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
              const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  // An iterator is a fresh list that next() consumes from the front; a generator is its own.
  if (args[0].kind == Obj::Kind::Generator) return args[0];
  return Obj::list(iterate(in, args[0], loc));
}

Obj call_next(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
              const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  const Obj &it = args[0];
  if (it.kind == Obj::Kind::Generator) {
    if (std::optional<Obj> v = resume_generator(in, it, loc)) return *v;
    if (args.size() > 1) return args[1];
    raise(in, "StopIteration", "", loc);
  }
  if (it.kind == Obj::Kind::List || it.kind == Obj::Kind::Tuple) {
    auto &items = items_of(it);
    if (items.empty()) {
      if (args.size() > 1) return args[1];
      raise(in, "StopIteration", "", loc);
    }
    Obj first = items.front();
    if (it.kind == Obj::Kind::List) items.erase(items.begin());
    return first;
  }
  if (it.kind == Obj::Kind::Instance && it.as<InstanceObj>().cls->lookup("__next__"))
    return in.call(attribute(in, it, "__next__", loc), {}, {}, loc);
  raise(in, "TypeError", "'" + type_name(it) + "' object is not an iterator", loc);
}

} // namespace

std::span<const Entry> iteration_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::range, call_range},
      {Builtin::min, call_min},
      {Builtin::max, call_min},
      {Builtin::sum, call_sum},
      {Builtin::any, call_any},
      {Builtin::all, call_any},
      {Builtin::enumerate, call_enumerate},
      {Builtin::zip, call_zip},
      {Builtin::reversed, call_reversed},
      {Builtin::sorted, call_sorted},
      {Builtin::list_sort, call_sorted},
      {Builtin::map, call_map},
      {Builtin::filter, call_filter},
      {Builtin::iter, call_iter},
      {Builtin::next, call_next},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
