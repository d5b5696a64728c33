// Calls of the builtin classes (int, float, str, the collections, object, type, torch.device,
// nn.Parameter): converting or constructing, as CPython does; the builtin functions and methods
// are in builtins/, one file per family.
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "interpreter_impl.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer {

using builtins::arity;
using builtins::no_keywords;

namespace {

int64_t parse_int(Interpreter &in, const std::string &text, int base, const Loc &loc) {
  std::string t = text;
  t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
  std::size_t b = 0, e = t.size();
  while (b < e && std::isspace(static_cast<unsigned char>(t[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(t[e - 1])))
    --e;
  std::string_view v(t.data() + b, e - b);
  bool negative = false;
  if (!v.empty() && (v[0] == '+' || v[0] == '-')) {
    negative = v[0] == '-';
    v.remove_prefix(1);
  }
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out, base);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    raise(in, "ValueError",
          "invalid literal for int() with base " + std::to_string(base) + ": '" + excerpt(text) +
              "'",
          loc);
  return negative ? -out : out;
}

// int(x), int(s, base).
Obj construct_int(Interpreter &in, const std::string &name, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  if (args.empty()) return Obj::int_of(0);
  std::optional<Obj> base_arg = take_keyword(kwargs, "base");
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  const Obj &x = args[0];
  if (x.kind == Obj::Kind::Str) {
    int base = args.size() > 1 ? static_cast<int>(concrete_int(in, args[1], loc, "base"))
               : base_arg      ? static_cast<int>(concrete_int(in, *base_arg, loc, "base"))
                               : 10;
    return Obj::int_of(parse_int(in, str_of(x), base, loc));
  }
  if (x.kind == Obj::Kind::Tensor) {
    Obj value = tensor_values(in, x, ValueRead::Number, "`int()` of a tensor",
                              "int() of a tensor depends on its data, which cannot be traced", loc);
    return value.kind == Obj::Kind::Float ? number(in, NumOp::to_int, {value}, loc)
                                          : Obj::int_of(value.integer);
  }
  if (x.kind == Obj::Kind::Instance && x.as<InstanceObj>().cls->lookup("__int__"))
    return in.call(attribute(in, x, "__int__", loc), {}, {}, loc);
  if (!x.is_number())
    raise(in, "TypeError",
          "int() argument must be a string or a number, not '" + type_name(x) + "'", loc);
  if (x.kind == Obj::Kind::Int) return x;
  return number(in, NumOp::to_int, {x}, loc);
}

// float(x), float(s) as CPython parses it.
Obj construct_float(Interpreter &in, const std::string &name, std::vector<Obj> &args,
                    Kwargs &kwargs, const Loc &loc) {
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 0, 1, loc);
  if (args.empty()) return Obj::float_of(0.0);
  const Obj &x = args[0];
  if (x.kind == Obj::Kind::Str) {
    std::string t = x.as<StrObj>().value;
    std::string lower;
    for (char c : t)
      if (!std::isspace(static_cast<unsigned char>(c)))
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
      return Obj::float_of(INFINITY);
    if (lower == "-inf" || lower == "-infinity") return Obj::float_of(-INFINITY);
    if (lower == "nan" || lower == "+nan" || lower == "-nan") return Obj::float_of(NAN);
    double d = 0;
    auto [ptr, ec] = std::from_chars(lower.data(), lower.data() + lower.size(), d);
    if (lower.empty() || ec != std::errc() || ptr != lower.data() + lower.size())
      raise(in, "ValueError", "could not convert string to float: '" + excerpt(t) + "'", loc);
    return Obj::float_of(d);
  }
  if (x.kind == Obj::Kind::Tensor) {
    Obj value =
        tensor_values(in, x, ValueRead::Number, "`float()` of a tensor",
                      "float() of a tensor depends on its data, which cannot be traced", loc);
    return value.kind == Obj::Kind::Float ? value
                                          : Obj::float_of(static_cast<double>(value.integer));
  }
  if (!x.is_number())
    raise(in, "TypeError",
          "float() argument must be a string or a number, not '" + type_name(x) + "'", loc);
  if (x.kind == Obj::Kind::Float) return x;
  return number(in, NumOp::to_float, {x}, loc);
}

// tuple, list, set and frozenset of an iterable.
Obj construct_collection(Interpreter &in, const std::string &name, Builtin b,
                         std::vector<Obj> &args, Kwargs &kwargs, const Loc &loc) {
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 0, 1, loc);
  std::vector<Obj> items = args.empty() ? std::vector<Obj>{} : iterate(in, args[0], loc);
  if (b == Builtin::tuple) return Obj::tuple(std::move(items));
  if (b == Builtin::list) return Obj::list(std::move(items));
  return make_set(in, std::move(items), loc);
}

// dict(mapping or pairs, **kwargs).
Obj construct_dict(Interpreter &in, const std::string &name, std::vector<Obj> &args, Kwargs &kwargs,
                   const Loc &loc) {
  arity(in, name, args, 0, 1, loc);
  Obj d = Obj::dict();
  DictObj &out = d.as<DictObj>();
  if (!args.empty()) {
    if (args[0].kind == Obj::Kind::Dict) {
      const DictObj &src = args[0].as<DictObj>();
      out.keys = src.keys;
      out.values = src.values;
    } else {
      for (const Obj &pair : iterate(in, args[0], loc)) {
        std::vector<Obj> kv = iterate(in, pair, loc);
        if (kv.size() != 2)
          raise(in, "ValueError",
                "dictionary update sequence element has length " + std::to_string(kv.size()) +
                    "; 2 is required",
                loc);
        dict_set(in, out, kv[0], kv[1], loc);
      }
    }
  }
  for (auto &[k, v] : kwargs)
    dict_set(in, out, Obj::str(k), std::move(v), loc);
  return d;
}

// torch.Tensor(...), PyTorch's legacy constructor (real models' `nn.Parameter(torch.Tensor(n, m))`
// before an init): sizes make an uninitialized float32 tensor, as torch.empty; a list or tuple
// of numbers makes its float32 copy, as torch.tensor.
Obj legacy_tensor_constructor(Interpreter &in, std::vector<Obj> &args, Kwargs &kwargs,
                              const Loc &loc) {
  no_keywords(in, "torch.Tensor", kwargs, loc);
  bool sizes =
      std::all_of(args.begin(), args.end(), [](const Obj &a) { return a.kind == Obj::Kind::Int; });
  bool data =
      args.size() == 1 && (args[0].kind == Obj::Kind::List || args[0].kind == Obj::Kind::Tuple);
  if (!sizes && !data)
    throw TraceError(loc, "unsupported construct: torch.Tensor(...) of " + type_name(args[0]) +
                              " (the tracer takes sizes or a list of numbers; use torch.tensor, "
                              "torch.empty, ...)");
  std::vector<Obj> call_args =
      data ? args
           : std::vector<Obj>{args.empty() ? Obj::tuple({Obj::int_of(0)}) : Obj::tuple(args)};
  return builtins::call_symbol(in, data ? Sym::ltorch_tensor : Sym::ltorch_empty,
                               std::move(call_args), {{"dtype", Obj::dtype_of(DType::float32)}},
                               "torch.Tensor", loc);
}

} // namespace

Obj alias_tensor(const TensorObj &t) {
  auto copy = std::make_shared<TensorObj>(t);
  copy->base.reset();
  copy->views.clear();
  copy->input_name.clear();
  return Obj::heap(Obj::Kind::Tensor, std::move(copy));
}

Obj call_builtin_class(Interpreter &in, const ClassObj &cls, std::vector<Obj> &args, Kwargs &kwargs,
                       const Loc &loc) {
  auto b = static_cast<Builtin>(cls.builtin);
  const std::string &name = cls.name;
  switch (b) {
  case Builtin::int_:
    return construct_int(in, name, args, kwargs, loc);
  case Builtin::float_:
    return construct_float(in, name, args, kwargs, loc);
  case Builtin::bool_:
    no_keywords(in, name, kwargs, loc);
    arity(in, name, args, 0, 1, loc);
    return Obj::boolean_of(!args.empty() && truth(in, args[0], loc));
  case Builtin::str_:
    no_keywords(in, name, kwargs, loc);
    arity(in, name, args, 0, 1, loc);
    return Obj::str(args.empty() ? "" : str(in, args[0], loc));
  case Builtin::tuple:
  case Builtin::list:
  case Builtin::set:
  case Builtin::frozenset:
    return construct_collection(in, name, b, args, kwargs, loc);
  case Builtin::dict:
    return construct_dict(in, name, args, kwargs, loc);
  case Builtin::class_ordered_dict: {
    Obj d = construct_dict(in, name, args, kwargs, loc);
    d.as<DictObj>().flavor = DictObj::Flavor::Ordered;
    return d;
  }
  case Builtin::class_defaultdict: {
    // defaultdict(default_factory=None, /, *args, **kwargs): the rest as dict() takes them.
    Obj factory = args.empty() ? Obj::none() : args[0];
    if (!factory.is_none() && !builtins::is_callable(factory))
      raise(in, "TypeError", "first argument must be callable or None", loc);
    std::vector<Obj> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    Obj d = construct_dict(in, name, rest, kwargs, loc);
    d.as<DictObj>().flavor = DictObj::Flavor::Default;
    d.as<DictObj>().default_factory = factory;
    return d;
  }
  case Builtin::object:
    no_keywords(in, name, kwargs, loc);
    arity(in, name, args, 0, 0, loc);
    {
      auto inst = std::make_shared<InstanceObj>();
      inst->cls = builtin_class(in, Builtin::object);
      return Obj::heap(Obj::Kind::Instance, std::move(inst));
    }
  case Builtin::class_type: {
    no_keywords(in, name, kwargs, loc);
    if (args.size() != 1)
      throw TraceError(loc, "unsupported construct: type() with three arguments (making a class)");
    Obj t = make_builtin(Builtin::type, "type");
    return builtins::call(in, t.as<BuiltinObj>(), args, kwargs, loc);
  }
  case Builtin::class_namespace: {
    // argparse.Namespace(**kwargs): an object whose attributes are the keywords.
    arity(in, name, args, 0, 0, loc);
    auto inst = std::make_shared<InstanceObj>();
    inst->cls = builtin_class(in, Builtin::class_namespace);
    for (auto &[k, v] : kwargs)
      inst->dict->set(Obj::str(k), std::move(v));
    return Obj::heap(Obj::Kind::Instance, std::move(inst));
  }
  case Builtin::class_parameter: {
    std::optional<Obj> requires_grad = take_keyword(kwargs, "requires_grad");
    no_keywords(in, name, kwargs, loc);
    arity(in, name, args, 0, 2, loc);
    if (args.empty() || args[0].kind != Obj::Kind::Tensor)
      raise(in, "TypeError", "nn.Parameter takes a tensor", loc);
    Obj p = alias_tensor(args[0].as<TensorObj>());
    TensorObj &t = p.as<TensorObj>();
    t.is_parameter = true;
    t.requires_grad = args.size() > 1 ? truth(in, args[1], loc)
                      : requires_grad ? truth(in, *requires_grad, loc)
                                      : true;
    return p;
  }
  case Builtin::class_device: {
    no_keywords(in, name, kwargs, loc);
    arity(in, name, args, 1, 2, loc);
    if (args[0].kind == Obj::Kind::Device) return args[0];
    if (args[0].kind != Obj::Kind::Str)
      raise(in, "TypeError", "torch.device() takes a string", loc);
    std::string spec = str_of(args[0]);
    if (args.size() > 1)
      spec += ":" + std::to_string(concrete_int(in, args[1], loc, "the device index"));
    if (spec == "cuda") spec = "cuda:0";
    if (spec != "cpu" && !spec.starts_with("cuda:") && spec != "meta")
      throw TraceError(loc, "unsupported device `" + excerpt(spec) + "` (cpu, cuda or cuda:N)");
    return Obj::device_of(spec);
  }
  case Builtin::class_tensor:
    return legacy_tensor_constructor(in, args, kwargs, loc);
  default:
    break;
  }
  raise(in, "TypeError", "cannot create '" + name + "' instances", loc);
}

// CPython's unhashable builtins: a list, dict or set, alone or inside a tuple.
void require_hashable(Interpreter &in, const Obj &o, const Loc &loc) {
  if (o.kind == Obj::Kind::List || o.kind == Obj::Kind::Dict || o.kind == Obj::Kind::Set)
    raise(in, "TypeError", "unhashable type: '" + type_name(o) + "'", loc);
  if (o.kind != Obj::Kind::Tuple) return;
  ValueLevel level = enter_value(in, "while calling a Python object", loc);
  for (const Obj &item : items_of(o))
    require_hashable(in, item, loc);
}

} // namespace tracelint::tracer
