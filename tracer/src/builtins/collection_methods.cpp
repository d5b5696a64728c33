// Builtins: the methods of list, tuple, dict and set.
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

Obj call_list_append(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 1, loc);
  items_of(self).push_back(args[0]);
  return Obj::none();
}

Obj call_list_extend(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  for (Obj &o : iterate(in, args[0], loc)) {
    if (id == Builtin::set_update)
      set_insert(in, self, std::move(o), loc);
    else
      items_of(self).push_back(std::move(o));
  }
  return Obj::none();
}

Obj call_list_insert(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 2, 2, loc);
  auto &items = items_of(self);
  int64_t n = static_cast<int64_t>(items.size());
  int64_t i = concrete_int(in, args[0], loc, "an index");
  if (i < 0) i = std::max<int64_t>(0, i + n);
  i = std::min(i, n);
  items.insert(items.begin() + i, args[1]);
  return Obj::none();
}

Obj call_list_pop(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                  const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 0, 1, loc);
  auto &items = items_of(self);
  int64_t n = static_cast<int64_t>(items.size());
  if (n == 0) raise(in, "IndexError", "pop from empty list", loc);
  int64_t i = args.empty() ? n - 1 : concrete_int(in, args[0], loc, "an index");
  if (i < 0) i += n;
  if (i < 0 || i >= n) raise(in, "IndexError", "pop index out of range", loc);
  Obj out = items[static_cast<std::size_t>(i)];
  items.erase(items.begin() + i);
  return out;
}

Obj call_list_remove(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  auto &items = items_of(self);
  for (auto it = items.begin(); it != items.end(); ++it)
    if (equal(in, *it, args[0], loc)) {
      items.erase(it);
      return Obj::none();
    }
  if (id == Builtin::list_remove) raise(in, "ValueError", "list.remove(x): x not in list", loc);
  return Obj::none();
}

Obj call_list_reverse(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                      Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  std::reverse(items_of(self).begin(), items_of(self).end());
  return Obj::none();
}

Obj call_list_clear(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                    Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  items_of(self).clear();
  return Obj::none();
}

Obj call_seq_index(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                   const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  int64_t count = 0;
  const auto &items = items_of(self);
  for (std::size_t i = 0; i < items.size(); ++i)
    if (equal(in, items[i], args[0], loc)) {
      if (id == Builtin::seq_index) return Obj::int_of(static_cast<int64_t>(i));
      ++count;
    }
  if (id == Builtin::seq_index)
    raise(in, "ValueError", "the value is not in the " + type_name(self), loc);
  return Obj::int_of(count);
}

Obj call_seq_copy(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                  Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  if (self.kind == Obj::Kind::Dict) {
    Obj d = Obj::dict();
    d.as<DictObj>().keys = self.as<DictObj>().keys;
    d.as<DictObj>().values = self.as<DictObj>().values;
    d.as<DictObj>().flavor = self.as<DictObj>().flavor;
    d.as<DictObj>().default_factory = self.as<DictObj>().default_factory;
    return d;
  }
  return self.kind == Obj::Kind::Set ? Obj::set(items_of(self)) : Obj::list(items_of(self));
}

Obj call_set_add(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                 const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 1, loc);
  set_insert(in, self, args[0], loc);
  return Obj::none();
}

// Membership in a set operation (a | b, a & b, ...): charged at 1/16 of a step a comparison,
// as list equality is, where building a set (set_insert) charges a step each.
bool set_has(Interpreter &in, const Obj &set, const Obj &item, const Loc &loc) {
  in.budget().charge(static_cast<int64_t>(items_of(set).size() / 16), loc);
  for (const Obj &u : items_of(set))
    if (equal(in, u, item, loc)) return true;
  return false;
}

// s.union(t), s.issubset(t), ...: t any iterable, as CPython's methods take.
Obj call_set_method(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                    const Loc &loc) {
  arity(in, fn.name, args, 1, 1, loc);
  Obj other = make_set(in, iterate(in, args[0], loc), loc);
  switch (static_cast<Builtin>(fn.id)) {
  case Builtin::set_union:
    return set_operation(in, BinaryOp::bit_or, fn.self, other, loc);
  case Builtin::set_intersection:
    return set_operation(in, BinaryOp::bit_and, fn.self, other, loc);
  case Builtin::set_difference:
    return set_operation(in, BinaryOp::sub, fn.self, other, loc);
  case Builtin::set_symmetric_difference:
    return set_operation(in, BinaryOp::bit_xor, fn.self, other, loc);
  case Builtin::set_issubset:
    return Obj::boolean_of(items_of(set_operation(in, BinaryOp::sub, fn.self, other, loc)).empty());
  default: // issuperset
    return Obj::boolean_of(items_of(set_operation(in, BinaryOp::sub, other, fn.self, loc)).empty());
  }
}

Obj call_dict_get(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                  const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 2, loc);
  if (args[0].is_proxy()) in.backend().guard(args[0], loc);
  if (const Obj *v = dict_get(in, self.as<DictObj>(), args[0], loc)) return *v;
  return args.size() > 1 ? args[1] : Obj::none();
}

Obj call_dict_keys(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                   Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  return Obj::list(self.as<DictObj>().keys);
}

Obj call_dict_values(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                     Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  return Obj::list(self.as<DictObj>().values);
}

Obj call_dict_items(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                    Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  const DictObj &d = self.as<DictObj>();
  std::vector<Obj> out;
  for (std::size_t i = 0; i < d.keys.size(); ++i)
    out.push_back(Obj::tuple({d.keys[i], d.values[i]}));
  return Obj::list(std::move(out));
}

Obj call_dict_pop(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                  const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 2, loc);
  DictObj &d = self.as<DictObj>();
  std::ptrdiff_t at = dict_find(in, d, args[0], loc);
  if (at >= 0) {
    Obj out = d.values[static_cast<std::size_t>(at)];
    d.keys.erase(d.keys.begin() + at);
    d.values.erase(d.values.begin() + at);
    return out;
  }
  if (args.size() > 1) return args[1];
  raise(in, "KeyError", repr(in, args[0], loc), loc);
}

// OrderedDict.move_to_end(key, last=True).
Obj call_dict_move_to_end(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                          const Loc &loc) {
  arity(in, fn.name, args, 1, 2, loc);
  bool last = true;
  if (args.size() > 1) last = truth(in, args[1], loc);
  for (auto &[k, v] : kwargs) {
    if (k != "last")
      raise(in, "TypeError", "move_to_end() got an unexpected keyword argument", loc);
    last = truth(in, v, loc);
  }
  DictObj &d = fn.self.as<DictObj>();
  std::ptrdiff_t at = dict_find(in, d, args[0], loc);
  if (at < 0) raise(in, "KeyError", repr(in, args[0], loc), loc);
  Obj key = d.keys[static_cast<std::size_t>(at)], value = d.values[static_cast<std::size_t>(at)];
  d.keys.erase(d.keys.begin() + at);
  d.values.erase(d.values.begin() + at);
  d.keys.insert(last ? d.keys.end() : d.keys.begin(), std::move(key));
  d.values.insert(last ? d.values.end() : d.values.begin(), std::move(value));
  return Obj::none();
}

Obj call_dict_setdefault(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                         Kwargs & /*kwargs*/, const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 2, loc);
  DictObj &d = self.as<DictObj>();
  if (const Obj *v = dict_get(in, d, args[0], loc)) return *v;
  Obj value = args.size() > 1 ? args[1] : Obj::none();
  dict_set(in, d, args[0], value, loc);
  return value;
}

Obj call_dict_update(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 0, 1, loc);
  DictObj &d = self.as<DictObj>();
  if (!args.empty()) {
    if (args[0].kind == Obj::Kind::Dict) {
      const DictObj &src = args[0].as<DictObj>();
      for (std::size_t i = 0; i < src.keys.size(); ++i)
        dict_set(in, d, src.keys[i], src.values[i], loc);
    } else {
      for (const Obj &pair : iterate(in, args[0], loc)) {
        std::vector<Obj> kv = iterate(in, pair, loc);
        if (kv.size() != 2)
          raise(in, "ValueError", "dictionary update sequence element has the wrong length", loc);
        dict_set(in, d, kv[0], kv[1], loc);
      }
    }
  }
  for (auto &[k, v] : kwargs)
    dict_set(in, d, Obj::str(k), std::move(v), loc);
  return Obj::none();
}

Obj call_dict_clear(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                    Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  self.as<DictObj>().keys.clear();
  self.as<DictObj>().values.clear();
  return Obj::none();
}

} // namespace

Obj set_operation(Interpreter &in, BinaryOp op, const Obj &a, const Obj &b, const Loc &loc) {
  std::vector<Obj> out;
  for (const Obj &x : items_of(a)) {
    bool in_b = set_has(in, b, x, loc);
    if ((op == BinaryOp::bit_and) == in_b || op == BinaryOp::bit_or) out.push_back(x);
  }
  if (op == BinaryOp::bit_or || op == BinaryOp::bit_xor)
    for (const Obj &y : items_of(b))
      if (!set_has(in, a, y, loc)) out.push_back(y);
  in.budget().make_room(out.size(), sizeof(Obj), loc);
  return Obj::set(std::move(out));
}

std::span<const Entry> collection_methods() {
  static constexpr Entry kEntries[] = {
      {Builtin::list_append, call_list_append},
      {Builtin::list_extend, call_list_extend},
      {Builtin::set_update, call_list_extend},
      {Builtin::list_insert, call_list_insert},
      {Builtin::list_pop, call_list_pop},
      {Builtin::list_remove, call_list_remove},
      {Builtin::set_discard, call_list_remove},
      {Builtin::list_reverse, call_list_reverse},
      {Builtin::list_clear, call_list_clear},
      {Builtin::seq_index, call_seq_index},
      {Builtin::seq_count, call_seq_index},
      {Builtin::seq_copy, call_seq_copy},
      {Builtin::set_add, call_set_add},
      {Builtin::set_union, call_set_method},
      {Builtin::set_intersection, call_set_method},
      {Builtin::set_difference, call_set_method},
      {Builtin::set_symmetric_difference, call_set_method},
      {Builtin::set_issubset, call_set_method},
      {Builtin::set_issuperset, call_set_method},
      {Builtin::dict_get, call_dict_get},
      {Builtin::dict_keys, call_dict_keys},
      {Builtin::dict_values, call_dict_values},
      {Builtin::dict_items, call_dict_items},
      {Builtin::dict_pop, call_dict_pop},
      {Builtin::dict_setdefault, call_dict_setdefault},
      {Builtin::dict_update, call_dict_update},
      {Builtin::dict_clear, call_dict_clear},
      {Builtin::dict_move_to_end, call_dict_move_to_end},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
