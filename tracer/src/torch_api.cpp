// The modules the tracer provides to the traced code: torch, torch.nn.functional, torch.nn (the
// tracer's own, in Python: prelude/nn.py), math, dataclasses, typing, functools; and the
// tensor's Python surface (attributes, methods, operators). Every tensor operation is an ltorch
// symbol of the op registry, bound to its schema and handed to the backend.
#include "tracelint/tracer/interpreter.hpp"

#include "builtins/builtin_family.hpp"
#include "interpreter_impl.hpp"
#include "prelude.hpp"
#include "tracelint/tracer/registry.hpp"

#include <cfloat>
#include <cmath>

namespace tracelint::tracer {

namespace {

enum class TensorMethod : uint32_t {
  size,
  dim,
  numel,
  to,
  clone,
  detach,
  item,
  tolist,
  requires_grad_,
  zero_,
  fill_,
  normal_,
  uniform_,
  copy_,
  new_zeros,
  new_ones,
  new_full,
  new_empty,
  expand_as,
  view_as,
  reshape_as,
  is_floating_point,
  is_contiguous,
  element_size,
  unbind,
  cpu,
  cuda,
  max,
  min,
  get_device,
};

struct MethodName {
  const char *name;
  TensorMethod method;
};
constexpr MethodName kTensorMethods[] = {
    {"size", TensorMethod::size},
    {"dim", TensorMethod::dim},
    {"ndimension", TensorMethod::dim},
    {"numel", TensorMethod::numel},
    {"nelement", TensorMethod::numel},
    {"to", TensorMethod::to},
    {"clone", TensorMethod::clone},
    {"detach", TensorMethod::detach},
    {"item", TensorMethod::item},
    {"tolist", TensorMethod::tolist},
    {"numpy", TensorMethod::tolist},
    {"requires_grad_", TensorMethod::requires_grad_},
    {"zero_", TensorMethod::zero_},
    {"fill_", TensorMethod::fill_},
    {"normal_", TensorMethod::normal_},
    {"uniform_", TensorMethod::uniform_},
    {"copy_", TensorMethod::copy_},
    {"new_zeros", TensorMethod::new_zeros},
    {"new_ones", TensorMethod::new_ones},
    {"new_full", TensorMethod::new_full},
    {"new_empty", TensorMethod::new_empty},
    {"expand_as", TensorMethod::expand_as},
    {"view_as", TensorMethod::view_as},
    {"reshape_as", TensorMethod::reshape_as},
    {"is_floating_point", TensorMethod::is_floating_point},
    {"is_contiguous", TensorMethod::is_contiguous},
    {"element_size", TensorMethod::element_size},
    {"unbind", TensorMethod::unbind},
    {"cpu", TensorMethod::cpu},
    {"cuda", TensorMethod::cuda},
    {"max", TensorMethod::max},
    {"min", TensorMethod::min},
    {"get_device", TensorMethod::get_device},
};

enum class TorchSpecial : uint32_t {
  finfo,
  iinfo,
  is_tensor,
  is_floating_point,
  manual_seed,
  get_default_dtype,
  is_grad_enabled,
  cuda_is_available,
  cuda_device_count,
  numel,
  typing_cast,
  broadcast_shapes,
  // Random factories: run while a module is constructed (values only an eager run has).
  randn,
  rand,
  randint,
  randn_like,
  rand_like,
};

// Math functions beyond the number ops (whose index is their NumOp), by index from 100.
enum class MathExtra : uint32_t {
  isinf = 100,
  isnan,
  isfinite,
  log2,
  log10,
  gcd,
  prod,
  isqrt,
  erf
};

// t.T and t.H (every dim reversed), t.mT and t.mH (the last two swapped): real tensors only.
Obj transposed(Interpreter &in, const Obj &t, bool matrix, const Loc &loc) {
  const Registry &r = Registry::get();
  int64_t rank = static_cast<int64_t>(t.as<TensorObj>().shape.size());
  if (!matrix) {
    std::vector<Obj> dims;
    for (int64_t i = rank - 1; i >= 0; --i)
      dims.push_back(Obj::int_of(i));
    return in.backend().call_symbol(
        Sym::ltorch_permute,
        r.bind(r.op(Sym::ltorch_permute), {t, Obj::tuple(std::move(dims))}, {}, "Tensor.T", loc),
        loc);
  }
  if (rank < 2)
    raise(in, "RuntimeError", "tensor.mT is only supported on matrices or batches of matrices",
          loc);
  return in.backend().call_symbol(Sym::ltorch_transpose,
                                  r.bind(r.op(Sym::ltorch_transpose),
                                         {t, Obj::int_of(-2), Obj::int_of(-1)}, {}, "Tensor.mT",
                                         loc),
                                  loc);
}

// A tensor's attributes that are no method: each row's function gives its value.
struct TensorAttribute {
  const char *name;
  Obj (*get)(Interpreter &in, const Obj &t, const Loc &loc);
};
const TensorObj &tensor_of(const Obj &t) {
  return t.as<TensorObj>();
}
constexpr TensorAttribute kTensorAttributes[] = {
    {"shape",
     [](Interpreter &, const Obj &t, const Loc &) { return Obj::tuple(tensor_of(t).shape); }},
    {"ndim",
     [](Interpreter &, const Obj &t, const Loc &) {
       return Obj::int_of(static_cast<int64_t>(tensor_of(t).shape.size()));
     }},
    {"dtype",
     [](Interpreter &, const Obj &t, const Loc &) { return Obj::dtype_of(tensor_of(t).dtype); }},
    {"device",
     [](Interpreter &, const Obj &t, const Loc &) { return Obj::device_of(tensor_of(t).device); }},
    {"is_cuda",
     [](Interpreter &, const Obj &t, const Loc &) {
       return Obj::boolean_of(tensor_of(t).device.starts_with("cuda"));
     }},
    {"requires_grad", [](Interpreter &, const Obj &t,
                         const Loc &) { return Obj::boolean_of(tensor_of(t).requires_grad); }},
    {"is_leaf", [](Interpreter &, const Obj &, const Loc &) { return Obj::boolean_of(true); }},
    {"grad", [](Interpreter &, const Obj &, const Loc &) { return Obj::none(); }},
    {"data", [](Interpreter &, const Obj &t, const Loc &) { return alias_tensor(tensor_of(t)); }},
    {"T",
     [](Interpreter &in, const Obj &t, const Loc &loc) { return transposed(in, t, false, loc); }},
    {"H",
     [](Interpreter &in, const Obj &t, const Loc &loc) { return transposed(in, t, false, loc); }},
    {"mT",
     [](Interpreter &in, const Obj &t, const Loc &loc) { return transposed(in, t, true, loc); }},
    {"mH",
     [](Interpreter &in, const Obj &t, const Loc &loc) { return transposed(in, t, true, loc); }},
};

// What a provided module's name is: a row of kProvidedNames.
enum class NameKind : uint8_t { builtin, number, boolean, module, builtin_class };
struct ProvidedName {
  Provided module;
  const char *name;
  NameKind kind;
  Builtin builtin = Builtin::unknown_call; // builtin: its id; builtin_class: the class
  uint32_t index = 0;                      // builtin: BuiltinObj::index (a TorchSpecial, ...)
  double number = 0;                       // number, boolean
  const char *module_name = nullptr;       // module: its dotted name
};

constexpr ProvidedName special_name(Provided m, const char *name, TorchSpecial s) {
  return {m, name, NameKind::builtin, Builtin::torch_special, static_cast<uint32_t>(s)};
}
constexpr ProvidedName builtin_name(Provided m, const char *name, Builtin b, uint32_t index = 0) {
  return {m, name, NameKind::builtin, b, index};
}
constexpr ProvidedName number_name(Provided m, const char *name, double value) {
  return {m, name, NameKind::number, Builtin::unknown_call, 0, value};
}
constexpr ProvidedName math_name(const char *name, uint32_t index) {
  return builtin_name(Provided::math, name, Builtin::math_function, index);
}
constexpr ProvidedName class_name(Provided m, const char *name, Builtin cls) {
  return {m, name, NameKind::builtin_class, cls};
}

// Every name the provided modules give that is not a registry symbol or a torch dtype: one
// table, read by torch_attribute and listed by `tracelint trace --list-names`.
constexpr ProvidedName kProvidedNames[] = {
    {Provided::torch, "nn", NameKind::module, Builtin::unknown_call, 0, 0, "torch.nn"},
    {Provided::torch, "cuda", NameKind::module, Builtin::unknown_call, 0, 0, "torch.cuda"},
    {Provided::torch, "special", NameKind::module, Builtin::unknown_call, 0, 0, "torch.special"},
    class_name(Provided::torch, "Tensor", Builtin::class_tensor),
    class_name(Provided::torch, "dtype", Builtin::class_dtype),
    class_name(Provided::torch, "device", Builtin::class_device),
    class_name(Provided::torch, "Size", Builtin::tuple),
    builtin_name(Provided::torch, "no_grad", Builtin::no_grad),
    builtin_name(Provided::torch, "enable_grad", Builtin::no_grad),
    builtin_name(Provided::torch, "inference_mode", Builtin::no_grad),
    special_name(Provided::torch, "finfo", TorchSpecial::finfo),
    special_name(Provided::torch, "iinfo", TorchSpecial::iinfo),
    special_name(Provided::torch, "is_tensor", TorchSpecial::is_tensor),
    special_name(Provided::torch, "is_floating_point", TorchSpecial::is_floating_point),
    special_name(Provided::torch, "manual_seed", TorchSpecial::manual_seed),
    special_name(Provided::torch, "get_default_dtype", TorchSpecial::get_default_dtype),
    special_name(Provided::torch, "is_grad_enabled", TorchSpecial::is_grad_enabled),
    special_name(Provided::torch, "numel", TorchSpecial::numel),
    special_name(Provided::torch, "broadcast_shapes", TorchSpecial::broadcast_shapes),
    special_name(Provided::torch, "randn", TorchSpecial::randn),
    special_name(Provided::torch, "rand", TorchSpecial::rand),
    special_name(Provided::torch, "randint", TorchSpecial::randint),
    special_name(Provided::torch, "randn_like", TorchSpecial::randn_like),
    special_name(Provided::torch, "rand_like", TorchSpecial::rand_like),
    number_name(Provided::torch, "pi", M_PI),
    number_name(Provided::torch, "inf", INFINITY),
    number_name(Provided::torch, "nan", NAN),
    special_name(Provided::torch_cuda, "is_available", TorchSpecial::cuda_is_available),
    special_name(Provided::torch_cuda, "device_count", TorchSpecial::cuda_device_count),
    number_name(Provided::math, "pi", M_PI),
    number_name(Provided::math, "e", M_E),
    number_name(Provided::math, "tau", 2 * M_PI),
    number_name(Provided::math, "inf", INFINITY),
    number_name(Provided::math, "nan", NAN),
    math_name("sqrt", static_cast<uint32_t>(NumOp::sqrt)),
    math_name("exp", static_cast<uint32_t>(NumOp::exp)),
    math_name("log", static_cast<uint32_t>(NumOp::log)),
    math_name("sin", static_cast<uint32_t>(NumOp::sin)),
    math_name("cos", static_cast<uint32_t>(NumOp::cos)),
    math_name("tanh", static_cast<uint32_t>(NumOp::tanh)),
    math_name("floor", static_cast<uint32_t>(NumOp::floor)),
    math_name("ceil", static_cast<uint32_t>(NumOp::ceil)),
    math_name("trunc", static_cast<uint32_t>(NumOp::trunc)),
    math_name("fabs", static_cast<uint32_t>(NumOp::abs)),
    math_name("pow", static_cast<uint32_t>(NumOp::pow)),
    math_name("isinf", static_cast<uint32_t>(MathExtra::isinf)),
    math_name("isnan", static_cast<uint32_t>(MathExtra::isnan)),
    math_name("isfinite", static_cast<uint32_t>(MathExtra::isfinite)),
    math_name("log2", static_cast<uint32_t>(MathExtra::log2)),
    math_name("log10", static_cast<uint32_t>(MathExtra::log10)),
    math_name("gcd", static_cast<uint32_t>(MathExtra::gcd)),
    math_name("prod", static_cast<uint32_t>(MathExtra::prod)),
    math_name("isqrt", static_cast<uint32_t>(MathExtra::isqrt)),
    math_name("erf", static_cast<uint32_t>(MathExtra::erf)),
    builtin_name(Provided::dataclasses, "dataclass", Builtin::dataclass),
    builtin_name(Provided::dataclasses, "field", Builtin::dataclass_field),
    builtin_name(Provided::dataclasses, "replace", Builtin::dataclass_replace),
    {Provided::typing, "TYPE_CHECKING", NameKind::boolean},
    class_name(Provided::typing, "NamedTuple", Builtin::class_typing_namedtuple),
    special_name(Provided::typing, "cast", TorchSpecial::typing_cast),
    builtin_name(Provided::functools, "partial", Builtin::partial),
    builtin_name(Provided::functools, "reduce", Builtin::reduce),
    builtin_name(Provided::functools, "lru_cache", Builtin::identity_decorator),
    builtin_name(Provided::functools, "cache", Builtin::identity_decorator),
    builtin_name(Provided::functools, "wraps", Builtin::identity_decorator),
    // Computed at each read: the same value where the getter has no side effects.
    builtin_name(Provided::functools, "cached_property", Builtin::property),
    builtin_name(Provided::copy_module, "deepcopy", Builtin::deepcopy),
    class_name(Provided::argparse_module, "Namespace", Builtin::class_namespace),
    builtin_name(Provided::copy_module, "copy", Builtin::shallow_copy),
    builtin_name(Provided::contextlib, "contextmanager", Builtin::contextmanager),
    builtin_name(Provided::contextlib, "nullcontext", Builtin::null_context),
    class_name(Provided::collections, "OrderedDict", Builtin::class_ordered_dict),
    class_name(Provided::collections, "defaultdict", Builtin::class_defaultdict),
    builtin_name(Provided::collections, "namedtuple", Builtin::namedtuple),
    class_name(Provided::enum_module, "Enum", Builtin::class_enum),
    builtin_name(Provided::enum_module, "auto", Builtin::enum_auto),
};

// The dotted name a provided module's names are spelled under ("typing" for typing_extensions).
const char *provided_prefix(Provided m) {
  switch (m) {
  case Provided::torch:
    return "torch";
  case Provided::torch_nn:
    return "torch.nn";
  case Provided::torch_nn_functional:
    return "torch.nn.functional";
  case Provided::torch_special:
    return "torch.special";
  case Provided::torch_cuda:
    return "torch.cuda";
  case Provided::math:
    return "math";
  case Provided::dataclasses:
    return "dataclasses";
  case Provided::typing:
    return "typing";
  case Provided::functools:
    return "functools";
  case Provided::copy_module:
    return "copy";
  case Provided::argparse_module:
    return "argparse";
  case Provided::contextlib:
    return "contextlib";
  case Provided::collections:
    return "collections";
  case Provided::enum_module:
    return "enum";
  default:
    return "builtins";
  }
}

const ProvidedName *find_provided(Provided m, std::string_view name) {
  for (const ProvidedName &row : kProvidedNames)
    if (row.module == m && name == row.name) return &row;
  return nullptr;
}

Obj dtype_attribute(std::string_view name) {
  // torch.float32, torch.half, ...; not the annotations' short names (torch.f32 is no dtype).
  if (std::optional<DType> d = dtype_spelled(name, DTypeSpelling::torch))
    if (dtype_info(*d).traced) return Obj::dtype_of(*d);
  return Obj::none();
}

Obj info_object(Interpreter &in, const std::string &cls_name,
                std::vector<std::pair<const char *, Obj>> attributes) {
  auto cls = std::make_shared<ClassObj>();
  cls->name = cls_name;
  cls->mro.push_back(cls.get());
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  for (auto &[k, v] : attributes)
    inst->dict->set(Obj::str(k), std::move(v));
  (void)in;
  return Obj::heap(Obj::Kind::Instance, std::move(inst));
}

} // namespace

std::optional<Obj> provided_module(Interpreter &in, const std::string &dotted) {
  auto it = in.state().provided.find(dotted);
  if (it != in.state().provided.end()) return it->second;
  static const std::pair<const char *, Provided> known[] = {
      {"torch", Provided::torch},
      {"torch.nn", Provided::torch_nn},
      {"torch.nn.functional", Provided::torch_nn_functional},
      {"torch.special", Provided::torch_special},
      {"torch.cuda", Provided::torch_cuda},
      {"math", Provided::math},
      {"dataclasses", Provided::dataclasses},
      {"typing", Provided::typing},
      {"typing_extensions", Provided::typing},
      {"functools", Provided::functools},
      {"copy", Provided::copy_module},
      {"argparse", Provided::argparse_module},
      {"contextlib", Provided::contextlib},
      {"collections", Provided::collections},
      {"enum", Provided::enum_module},
  };
  for (auto [name, id] : known)
    if (dotted == name) {
      auto m = std::make_shared<ModuleObj>();
      m->name = dotted;
      m->provided = static_cast<uint16_t>(id);
      Obj module = Obj::heap(Obj::Kind::Module, m);
      if (id == Provided::torch_nn) {
        Obj nn = nn_module(in);
        in.state().provided[dotted] = nn;
        return nn;
      }
      in.state().provided[dotted] = module;
      return module;
    }
  if (dotted == "torch.nn.init") {
    Obj nn = nn_module(in);
    return attribute(in, nn, "init", Loc{});
  }
  return std::nullopt;
}

Obj nn_module(Interpreter &in) {
  auto it = in.state().provided.find("torch.nn");
  if (it != in.state().provided.end()) return it->second;
  Result<Module> parsed = parse_module("<torch.nn>", std::string(nn_prelude_source()));
  if (!parsed)
    throw TraceError(
        Loc{}, "internal error: the tracer's torch.nn does not parse: " + parsed.error().message +
                   " at line " + std::to_string(parsed.error().line));
  in.state().nn_source = std::make_shared<const Module>(std::move(parsed.value()));
  in.state().nn_globals = std::make_shared<Env>();
  auto m = std::make_shared<ModuleObj>();
  m->name = "torch.nn";
  m->globals = in.state().nn_globals;
  m->provided = static_cast<uint16_t>(Provided::torch_nn);
  Obj module = Obj::heap(Obj::Kind::Module, m);
  in.state().provided["torch.nn"] = module;
  in.state().nn_globals->set(
      "Parameter", Obj::heap(Obj::Kind::Class, builtin_class(in, Builtin::class_parameter)));
  in.state().nn_globals->set("functional", *provided_module(in, "torch.nn.functional"));
  Frame frame;
  frame.locals = frame.globals = in.state().nn_globals;
  frame.module = in.state().nn_source.get();
  frame.is_module = true;
  try {
    in.evaluator().run_block(in.state().nn_source->body, frame);
  } catch (const PyError &e) {
    throw TraceError(e.loc, "internal error in the tracer's torch.nn");
  }
  return module;
}

std::optional<Obj> torch_attribute(Interpreter &in, const ModuleObj &m, std::string_view name,
                                   const Loc &loc) {
  auto provided = static_cast<Provided>(m.provided);
  const std::string spelled = std::string(provided_prefix(provided)) + "." + std::string(name);
  if (provided == Provided::torch)
    if (Obj d = dtype_attribute(name); d.kind == Obj::Kind::DType) return d;
  if (const ProvidedName *row = find_provided(provided, name)) {
    switch (row->kind) {
    case NameKind::builtin:
      return make_builtin(row->builtin, spelled, row->index);
    case NameKind::number:
      return Obj::float_of(row->number);
    case NameKind::boolean:
      return Obj::boolean_of(row->number != 0);
    case NameKind::module:
      return provided_module(in, row->module_name);
    case NameKind::builtin_class:
      return Obj::heap(Obj::Kind::Class, builtin_class(in, row->builtin));
    }
  }
  if (provided == Provided::torch || provided == Provided::torch_nn_functional ||
      provided == Provided::torch_special)
    if (std::optional<Registry::Spelling> s = Registry::get().python(spelled))
      return make_builtin(Builtin::torch_symbol, spelled, static_cast<uint32_t>(s->op->sym));
  switch (provided) {
  case Provided::torch:
  case Provided::torch_nn_functional:
  case Provided::torch_special:
  case Provided::torch_nn:
  case Provided::torch_cuda:
  case Provided::dataclasses:
  case Provided::typing:
  case Provided::functools:
  case Provided::argparse_module: // its parser is not modelled: an error where it is used
    return make_unknown(spelled, loc);
  default: // math, and a module with no names of its own
    return std::nullopt;
  }
}

Obj tensor_attribute(Interpreter &in, const Obj &t, std::string_view name, const Loc &loc) {
  for (const TensorAttribute &a : kTensorAttributes)
    if (name == a.name) return a.get(in, t, loc);
  std::string spelled = "Tensor." + std::string(name);
  if (std::optional<Registry::Spelling> s = Registry::get().python(spelled))
    return bound_builtin(Builtin::tensor_symbol, spelled, t, static_cast<uint32_t>(s->op->sym));
  for (const MethodName &m : kTensorMethods)
    if (name == m.name)
      return bound_builtin(Builtin::tensor_method, spelled, t, static_cast<uint32_t>(m.method));
  if (std::optional<DType> d = dtype_of_conversion_method(name))
    return bound_builtin(Builtin::tensor_to_dtype, spelled, t, static_cast<uint32_t>(*d));
  throw TraceError(loc, "the tensor attribute or method `" + excerpt(spelled) +
                            "` is not in the tracer's vocabulary (see `tracelint trace --help`)");
}

namespace {

bool is_basic_index(const Obj &key) {
  auto basic = [](const Obj &k) {
    return k.kind == Obj::Kind::Int || k.kind == Obj::Kind::None || k.kind == Obj::Kind::Ellipsis ||
           k.kind == Obj::Kind::Slice;
  };
  if (key.kind != Obj::Kind::Tuple) return basic(key);
  for (const Obj &k : items_of(key))
    if (!basic(k)) return false;
  return true;
}

// The registry's op for an operator on tensors, by its "Tensor.__add__" spelling (how bind's
// errors name it): looked up once per operator, then by index. None where torch.Tensor has no
// such method in the registry (^, <<, >>).
struct TensorOperatorOp {
  std::string spelled;
  const OpDef *op = nullptr;
};
const TensorOperatorOp &tensor_operator_op(TensorOperator op) {
  constexpr std::size_t kKinds = 4, kPerKind = 16; // every operator enum has fewer values
  static const std::vector<TensorOperatorOp> ops = [] {
    std::vector<TensorOperatorOp> out(kKinds * kPerKind);
    auto add = [&](TensorOperator o) {
      TensorOperatorOp &entry = out[static_cast<std::size_t>(o.kind) * kPerKind + o.op];
      entry.spelled = "Tensor." + std::string(o.method());
      if (std::optional<Registry::Spelling> s = Registry::get().python(entry.spelled))
        entry.op = s->op;
    };
    for (std::size_t i = 0; i < operator_table<BinaryOp>().size(); ++i)
      add(static_cast<BinaryOp>(i));
    for (std::size_t i = 0; i < operator_table<CompareOp>().size(); ++i)
      add(static_cast<CompareOp>(i));
    for (std::size_t i = 0; i < operator_table<UnaryOp>().size(); ++i)
      add(static_cast<UnaryOp>(i));
    add(TensorOperator::subscript());
    return out;
  }();
  return ops[static_cast<std::size_t>(op.kind) * kPerKind + op.op];
}

} // namespace

Obj tensor_binary(Interpreter &in, TensorOperator op, Obj a, Obj b, const Loc &loc) {
  bool unary = op.kind == TensorOperator::Kind::unary, getitem = op == TensorOperator::subscript();
  if (op == UnaryOp::pos && a.kind == Obj::Kind::Tensor) return a; // +t is t
  const std::string symbol(op.spelling());
  const auto &[spelled, found] = tensor_operator_op(op);
  if (!found) throw TraceError(loc, "the `" + symbol + "` operator on tensors is not supported");
  const OpDef &def = *found;
  if (a.kind == Obj::Kind::Unknown) unknown_used(in, a, loc, "an operand");
  if (b.kind == Obj::Kind::Unknown) unknown_used(in, b, loc, "an operand");
  std::vector<Obj> args;
  args.push_back(std::move(a));
  if (!unary) args.push_back(std::move(b));
  for (const Obj &x : args)
    if (x.kind != Obj::Kind::Tensor && !x.is_number() && !getitem)
      raise(in, "TypeError",
            "unsupported operand type(s) for " + symbol + ": a tensor and '" + type_name(x) + "'",
            loc);
  // Basic indexing (ints, slices, None, ...) gives a view; a tensor or list index, a copy.
  bool view = def.view && (!getitem || is_basic_index(args[1]));
  Obj input = args[0];
  std::vector<Obj> bound = Registry::get().bind(def, std::move(args), {}, spelled, loc);
  Obj result = in.backend().call_symbol(def.sym, std::move(bound), loc);
  if (view && input.kind == Obj::Kind::Tensor) note_views(input, result);
  return result;
}

void note_views(const Obj &input, Obj &result) {
  auto note = [&](Obj &out) {
    if (out.kind != Obj::Kind::Tensor || out.ref == input.ref) return;
    // Its base is the input's base, or the input.
    auto in = std::static_pointer_cast<TensorObj>(input.ref);
    std::shared_ptr<TensorObj> base = in->base ? in->base : in;
    auto view = std::static_pointer_cast<TensorObj>(out.ref);
    view->base = base;
    base->views.push_back(view);
  };
  if (result.kind == Obj::Kind::Tuple || result.kind == Obj::Kind::List)
    for (Obj &o : items_of(result))
      note(o);
  else
    note(result);
}

std::optional<std::string> in_place_cast_problem(DType from, DType to) {
  if (!is_integral(to) || is_integral(from)) return std::nullopt;
  return std::string("result type ") + dtype_info(from).torch_name +
         " can't be cast to the desired output type " + dtype_info(to).torch_name;
}

void update_in_place(Interpreter &in, const Obj &target, const Obj &result, const Loc &loc) {
  TensorObj &t = target.as<TensorObj>();
  if (result.kind != Obj::Kind::Tensor)
    throw TraceError(loc, "internal error: an in-place operation without a tensor result");
  // The caller sees an input's or a parameter's update even when the function no longer does.
  if (t.base && (t.base.use_count() > 1 || !t.base->input_name.empty() || t.base->is_parameter))
    throw TraceError(loc, "unsupported construct: an in-place update of a view (" +
                              describe(target) +
                              ") whose base tensor is still in use, an input or a parameter; the "
                              "functional trace would not update the base (use the out-of-place "
                              "operation)");
  for (const auto &v : t.views)
    if (!v.expired())
      throw TraceError(loc, "unsupported construct: an in-place update of a tensor that has live "
                            "views (from view, reshape, transpose, indexing, ...); the functional "
                            "trace would not update them (use the out-of-place operation)");
  Obj value = result;
  const TensorObj &r = result.as<TensorObj>();
  if (r.shape.size() != t.shape.size())
    raise(in, "RuntimeError",
          "output with shape " + describe(target) + " doesn't match the broadcast shape " +
              describe(result),
          loc);
  for (std::size_t i = 0; i < r.shape.size(); ++i)
    if (r.shape[i].integer != t.shape[i].integer)
      raise(in, "RuntimeError",
            "output with shape " + describe(target) + " doesn't match the broadcast shape " +
                describe(result),
            loc);
  if (r.dtype != t.dtype) {
    if (std::optional<std::string> problem = in_place_cast_problem(r.dtype, t.dtype))
      raise(in, "RuntimeError", *problem, loc);
    value = builtins::call_symbol(in, Sym::ltorch_to, {result}, {{"dtype", Obj::dtype_of(t.dtype)}},
                                  "Tensor.to", loc);
  }
  const TensorObj &v = value.as<TensorObj>();
  t.name = v.name;
  // The shape stays as t has it: equal to the value's (checked above), but in t's own symbols,
  // which its input's prologue unpacks (a value broadcast from another tensor may hold that
  // tensor's symbols for the same sizes).
  t.data = v.data;
}

namespace builtins {

Obj call_symbol(Interpreter &in, Sym sym, std::vector<Obj> call_args, Kwargs call_kwargs,
                const std::string &spelled, const Loc &loc) {
  const Registry &registry = Registry::get();
  const OpDef &def = registry.op(sym);
  return in.backend().call_symbol(
      sym, registry.bind(def, std::move(call_args), std::move(call_kwargs), spelled, loc), loc);
}

namespace {

// Tensor.float() and the like: ltorch.to with the dtype.
// x.float(), x.half(), x.long(), ...: the dtype table's conversion methods.
Obj call_tensor_to_dtype(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                         Kwargs & /*kwargs*/, const Loc &loc) {
  if (!args.empty()) raise(in, "TypeError", fn.name + "() takes no positional arguments", loc);
  auto d = static_cast<DType>(fn.index);
  return call_symbol(in, Sym::ltorch_to, {fn.self}, {{"dtype", Obj::dtype_of(d)}}, fn.name, loc);
}

Obj call_context_manager(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> &args,
                         Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  auto id = static_cast<Builtin>(fn.id);
  // torch.no_grad() makes the context manager; used as a decorator, it returns the function.
  if (args.size() == 1 && args[0].kind != Obj::Kind::Bool) return args[0];
  return make_builtin(id, fn.name);
}

Obj call_registry_symbol(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                         const Loc &loc) {
  auto id = static_cast<Builtin>(fn.id);
  const Registry &registry = Registry::get();
  const OpDef &def = registry.op(static_cast<Sym>(fn.index));
  std::optional<Registry::Spelling> spelling = registry.python(fn.name);
  bool inplace = spelling && spelling->inplace;
  if (id == Builtin::tensor_symbol) args.insert(args.begin(), fn.self);
  for (const Obj &a : args)
    if (a.kind == Obj::Kind::Unknown) unknown_used(in, a, loc, "an argument");
  std::vector<Obj> bound = registry.bind(def, args, std::move(kwargs), fn.name, loc);
  std::vector<std::pair<Obj, Obj>> written;
  if (def.write_back) {
    SymbolCall call = [&](Sym s, std::vector<Obj> given, Kwargs named) {
      return in.backend().call_symbol(
          s, registry.bind(registry.op(s), std::move(given), std::move(named), fn.name, loc), loc);
    };
    written = def.write_back(bound, call, loc);
  }
  Obj result = in.backend().call_symbol(def.sym, std::move(bound), loc);
  for (const auto &[target, value] : written)
    update_in_place(in, target, value, loc);
  if (inplace) {
    update_in_place(in, fn.self, result, loc);
    return fn.self;
  }
  if (def.view && !args.empty() && args[0].kind == Obj::Kind::Tensor) note_views(args[0], result);
  return result;
}

Obj tensor_size(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const TensorObj &t = fn.self.as<TensorObj>();
  std::optional<Obj> dim = take_keyword(kwargs, "dim");
  if (!args.empty()) dim = args[0];
  if (!dim || dim->kind == Obj::Kind::None) return Obj::tuple(t.shape);
  int64_t rank = static_cast<int64_t>(t.shape.size());
  int64_t d = concrete_int(in, *dim, loc, "a dim");
  if (d < -rank || d >= rank)
    raise(in, "IndexError",
          "Dimension out of range (expected to be in range of [" + std::to_string(-rank) + ", " +
              std::to_string(rank - 1) + "], but got " + std::to_string(d) + ")",
          loc);
  return t.shape[static_cast<std::size_t>(d < 0 ? d + rank : d)];
}

Obj tensor_dim(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
               Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const TensorObj &t = fn.self.as<TensorObj>();
  return Obj::int_of(static_cast<int64_t>(t.shape.size()));
}

Obj tensor_numel(Interpreter &in, BuiltinObj &fn, std::vector<Obj> & /*args*/, Kwargs & /*kwargs*/,
                 const Loc &loc) {
  const TensorObj &t = fn.self.as<TensorObj>();
  Obj n = Obj::int_of(1);
  for (const Obj &d : t.shape)
    n = number(in, NumOp::mul, {n, d}, loc);
  return n;
}

Obj tensor_to(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
              const Loc &loc) {
  const Obj &self = fn.self;
  // to(dtype), to(device), to(device, dtype), to(other), to(dtype=..., device=...)
  Kwargs kw;
  for (const char *k : {"dtype", "device"})
    if (std::optional<Obj> v = take_keyword(kwargs, k)) kw.emplace_back(k, *v);
  take_keyword(kwargs, "non_blocking");
  take_keyword(kwargs, "copy");
  take_keyword(kwargs, "memory_format");
  if (!kwargs.empty())
    raise(in, "TypeError", "to() got an unexpected keyword argument '" + kwargs[0].first + "'",
          loc);
  for (const Obj &a : args) {
    if (a.kind == Obj::Kind::DType)
      kw.emplace_back("dtype", a);
    else if (a.kind == Obj::Kind::Device)
      kw.emplace_back("device", a);
    else if (a.kind == Obj::Kind::Str)
      kw.emplace_back("device", Obj::device_of(str_of(a) == "cuda" ? "cuda:0" : str_of(a)));
    else if (a.kind == Obj::Kind::Tensor) {
      kw.emplace_back("dtype", Obj::dtype_of(a.as<TensorObj>().dtype));
      kw.emplace_back("device", Obj::device_of(a.as<TensorObj>().device));
    } else if (a.kind != Obj::Kind::Bool)
      raise(in, "TypeError", "to() received an invalid combination of arguments", loc);
  }
  return call_symbol(in, Sym::ltorch_to, {self}, std::move(kw), fn.name, loc);
}

Obj tensor_clone(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                 Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  auto method = static_cast<TensorMethod>(fn.index);
  Obj copy = alias_tensor(fn.self.as<TensorObj>());
  if (method == TensorMethod::detach) copy.as<TensorObj>().requires_grad = false;
  return copy;
}

Obj tensor_item(Interpreter &in, BuiltinObj &fn, std::vector<Obj> & /*args*/, Kwargs & /*kwargs*/,
                const Loc &loc) {
  std::string what = "`" + fn.name + "()`";
  std::string traced = what + " reads the tensor's values, which cannot be traced (data-dependent)";
  // An ndarray is not a Python value the tracer models, even while constructing.
  if (fn.name.ends_with("numpy")) throw TraceError(loc, traced);
  auto method = static_cast<TensorMethod>(fn.index);
  return tensor_values(in, fn.self, method == TensorMethod::item ? ValueRead::Item : ValueRead::All,
                       what, traced, loc);
}

Obj tensor_requires_grad(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                         Kwargs & /*kwargs*/, const Loc &loc) {
  const Obj &self = fn.self;
  bool on = args.empty() || truth(in, args[0], loc);
  self.as<TensorObj>().requires_grad = on;
  return self;
}

Obj tensor_zero(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const Obj &self = fn.self;
  auto method = static_cast<TensorMethod>(fn.index);
  auto number_arg = [&](std::size_t i, const char *kw, double dflt) {
    std::optional<Obj> v = take_keyword(kwargs, kw);
    if (i < args.size()) v = args[i];
    return v ? concrete_float(in, *v, loc, kw) : dflt;
  };
  if (in.backend().tracing()) {
    if (method == TensorMethod::normal_ || method == TensorMethod::uniform_)
      throw TraceError(loc, "`" + fn.name +
                                "()` draws random numbers in the traced "
                                "function, which cannot be compared with eager");
    Obj value = method == TensorMethod::zero_ ? Obj::int_of(0)
                : args.empty()                ? Obj::none()
                                              : args[0];
    if (value.kind == Obj::Kind::None) raise(in, "TypeError", "fill_() takes a value", loc);
    Obj full = call_symbol(in, Sym::ltorch_full_like, {self, value}, {}, fn.name, loc);
    update_in_place(in, self, full, loc);
    return self;
  }
  TensorObj &target = self.as<TensorObj>();
  if (method == TensorMethod::normal_)
    in.backend().initialize(target, InitKind::Normal, number_arg(0, "mean", 0),
                            number_arg(1, "std", 1));
  else if (method == TensorMethod::uniform_)
    in.backend().initialize(target, InitKind::Uniform, number_arg(0, "from", 0),
                            number_arg(1, "to", 1));
  else
    in.backend().initialize(target, InitKind::Fill,
                            method == TensorMethod::zero_ ? 0 : number_arg(0, "value", 0), 0);
  return self;
}

Obj tensor_copy(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                const Loc &loc) {
  const Obj &self = fn.self;
  const TensorObj &t = fn.self.as<TensorObj>();
  if (args.size() != 1 || args[0].kind != Obj::Kind::Tensor)
    raise(in, "TypeError", "copy_() takes a tensor", loc);
  if (!in.backend().tracing()) {
    // Module construction (loading values into a parameter): the eager backend copies.
    Obj converted = call_symbol(in, Sym::ltorch_to, {args[0]}, {{"dtype", Obj::dtype_of(t.dtype)}},
                                fn.name, loc);
    update_in_place(in, self, converted, loc);
    return self;
  }
  Obj expanded =
      call_symbol(in, Sym::ltorch_expand, {args[0], Obj::tuple(t.shape)}, {}, fn.name, loc);
  Obj converted = call_symbol(in, Sym::ltorch_to, {expanded}, {{"dtype", Obj::dtype_of(t.dtype)}},
                              fn.name, loc);
  update_in_place(in, self, converted, loc);
  return self;
}

Obj tensor_new_zeros(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                     const Loc &loc) {
  const TensorObj &t = fn.self.as<TensorObj>();
  auto method = static_cast<TensorMethod>(fn.index);
  Kwargs kw{{"dtype", Obj::dtype_of(t.dtype)}, {"device", Obj::device_of(t.device)}};
  for (auto &[k, v] : kwargs)
    for (auto &[kk, vv] : kw)
      if (kk == k) vv = v;
  if (args.empty()) raise(in, "TypeError", fn.name + "() takes a size", loc);
  Obj size = args.size() == 1 || method == TensorMethod::new_full ? args[0] : Obj::tuple(args);
  if (method == TensorMethod::new_full) {
    if (args.size() != 2) raise(in, "TypeError", "new_full() takes a size and a fill value", loc);
    return call_symbol(in, Sym::ltorch_full, {size, args[1]}, std::move(kw), fn.name, loc);
  }
  return call_symbol(in, method == TensorMethod::new_ones ? Sym::ltorch_ones : Sym::ltorch_zeros,
                     {size}, std::move(kw), fn.name, loc);
}

Obj tensor_expand_as(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const Obj &self = fn.self;
  auto method = static_cast<TensorMethod>(fn.index);
  if (args.size() != 1 || args[0].kind != Obj::Kind::Tensor)
    raise(in, "TypeError", fn.name + "() takes a tensor", loc);
  Sym s = method == TensorMethod::expand_as ? Sym::ltorch_expand
          : method == TensorMethod::view_as ? Sym::ltorch_view
                                            : Sym::ltorch_reshape;
  return call_symbol(in, s, {self, Obj::tuple(args[0].as<TensorObj>().shape)}, {}, fn.name, loc);
}

Obj tensor_is_floating_point(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                             Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const TensorObj &t = fn.self.as<TensorObj>();
  return Obj::boolean_of(is_floating(t.dtype));
}

Obj tensor_is_contiguous(Interpreter & /*in*/, BuiltinObj & /*fn*/, std::vector<Obj> & /*args*/,
                         Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  return Obj::boolean_of(true);
}

Obj tensor_element_size(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                        Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const TensorObj &t = fn.self.as<TensorObj>();
  return Obj::int_of(dtype_info(t.dtype).bits / 8);
}

Obj tensor_get_device(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                      Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const TensorObj &t = fn.self.as<TensorObj>();
  return Obj::int_of(t.device.starts_with("cuda") ? std::stoll(t.device.substr(5)) : -1);
}

Obj tensor_unbind(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  const Obj &self = fn.self;
  const TensorObj &t = fn.self.as<TensorObj>();
  std::optional<Obj> dim = take_keyword(kwargs, "dim");
  if (!args.empty()) dim = args[0];
  int64_t rank = static_cast<int64_t>(t.shape.size());
  int64_t d = dim ? concrete_int(in, *dim, loc, "a dim") : 0;
  if (d < -rank || d >= rank) raise(in, "IndexError", "Dimension out of range", loc);
  if (d < 0) d += rank;
  int64_t n =
      concrete_int(in, t.shape[static_cast<std::size_t>(d)], loc, "the size of the unbound dim");
  std::vector<Obj> out;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<Obj> key(static_cast<std::size_t>(d),
                         Obj::slice(Obj::none(), Obj::none(), Obj::none()));
    key.push_back(Obj::int_of(i));
    out.push_back(subscript(in, self, Obj::tuple(std::move(key)), loc));
  }
  return Obj::tuple(std::move(out));
}

Obj tensor_cpu(Interpreter &in, BuiltinObj &fn, std::vector<Obj> & /*args*/, Kwargs & /*kwargs*/,
               const Loc &loc) {
  const Obj &self = fn.self;
  auto method = static_cast<TensorMethod>(fn.index);
  std::string device = method == TensorMethod::cpu ? "cpu" : "cuda:0";
  return call_symbol(in, Sym::ltorch_to, {self}, {{"device", Obj::device_of(device)}}, fn.name,
                     loc);
}

Obj tensor_max(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const Obj &self = fn.self;
  auto method = static_cast<TensorMethod>(fn.index);
  if (!args.empty() || !kwargs.empty())
    throw TraceError(loc, "`" + fn.name +
                              "(dim)` returns values and indices, which the "
                              "tracer does not support: use amax/amin and argmax/argmin");
  return call_symbol(in, method == TensorMethod::max ? Sym::ltorch_amax : Sym::ltorch_amin, {self},
                     {}, fn.name, loc);
}

// A tensor method the registry has no symbol for (tensor_method_names).
Obj call_tensor_method(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                       const Loc &loc) {
  switch (static_cast<TensorMethod>(fn.index)) {
  case TensorMethod::size:
    return tensor_size(in, fn, args, kwargs, loc);
  case TensorMethod::dim:
    return tensor_dim(in, fn, args, kwargs, loc);
  case TensorMethod::numel:
    return tensor_numel(in, fn, args, kwargs, loc);
  case TensorMethod::to:
    return tensor_to(in, fn, args, kwargs, loc);
  case TensorMethod::clone:
  case TensorMethod::detach:
    return tensor_clone(in, fn, args, kwargs, loc);
  case TensorMethod::item:
  case TensorMethod::tolist:
    return tensor_item(in, fn, args, kwargs, loc);
  case TensorMethod::requires_grad_:
    return tensor_requires_grad(in, fn, args, kwargs, loc);
  case TensorMethod::zero_:
  case TensorMethod::fill_:
  case TensorMethod::normal_:
  case TensorMethod::uniform_:
    return tensor_zero(in, fn, args, kwargs, loc);
  case TensorMethod::copy_:
    return tensor_copy(in, fn, args, kwargs, loc);
  case TensorMethod::new_zeros:
  case TensorMethod::new_ones:
  case TensorMethod::new_empty:
  case TensorMethod::new_full:
    return tensor_new_zeros(in, fn, args, kwargs, loc);
  case TensorMethod::expand_as:
  case TensorMethod::view_as:
  case TensorMethod::reshape_as:
    return tensor_expand_as(in, fn, args, kwargs, loc);
  case TensorMethod::is_floating_point:
    return tensor_is_floating_point(in, fn, args, kwargs, loc);
  case TensorMethod::is_contiguous:
    return tensor_is_contiguous(in, fn, args, kwargs, loc);
  case TensorMethod::element_size:
    return tensor_element_size(in, fn, args, kwargs, loc);
  case TensorMethod::get_device:
    return tensor_get_device(in, fn, args, kwargs, loc);
  case TensorMethod::unbind:
    return tensor_unbind(in, fn, args, kwargs, loc);
  case TensorMethod::cpu:
  case TensorMethod::cuda:
    return tensor_cpu(in, fn, args, kwargs, loc);
  case TensorMethod::max:
  case TensorMethod::min:
    return tensor_max(in, fn, args, kwargs, loc);
  }
  throw TraceError(loc, "`" + excerpt(fn.name) + "` is not supported");
}

// torch.randn, rand, randint and their _like forms while a module is constructed: the tensor
// made as torch.empty/zeros_like makes it, then drawn by the backend (libtorch's generator in the
// eager run; the tracer keeps only its shape). In a traced function they are refused: a trace's
// random numbers cannot be compared with eager's.
Obj call_random_factory(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                        const Loc &loc) {
  auto kind = static_cast<TorchSpecial>(fn.index);
  if (in.backend().tracing())
    throw TraceError(loc, "`" + excerpt(fn.name) +
                              "()` draws random numbers in the traced function, which cannot be "
                              "compared with eager: draw them outside and pass them as an input");
  take_keyword(kwargs, "generator");
  if (kind == TorchSpecial::randn_like || kind == TorchSpecial::rand_like) {
    Obj t = call_symbol(in, Sym::ltorch_zeros_like, args, std::move(kwargs), fn.name, loc);
    in.backend().initialize(t.as<TensorObj>(),
                            kind == TorchSpecial::randn_like ? InitKind::Normal : InitKind::Uniform,
                            0, 1);
    return t;
  }
  if (kind == TorchSpecial::randint) {
    // randint(high, size) or randint(low, high, size); int64 unless a dtype is given.
    if (args.size() < 2 || args.size() > 3)
      raise(in, "TypeError", "randint() takes (high, size) or (low, high, size)", loc);
    double low = args.size() == 3 ? concrete_float(in, args[0], loc, "randint()'s low") : 0;
    double high = concrete_float(in, args[args.size() - 2], loc, "randint()'s high");
    if (high <= low)
      raise(in, "RuntimeError",
            "random_ expects 'from' to be less than 'to', but got from=" +
                std::to_string(static_cast<int64_t>(low)) +
                " >= to=" + std::to_string(static_cast<int64_t>(high)),
            loc);
    if (!std::any_of(kwargs.begin(), kwargs.end(),
                     [](const auto &k) { return k.first == "dtype"; }))
      kwargs.emplace_back("dtype", Obj::dtype_of(DType::int64));
    Obj t = call_symbol(in, Sym::ltorch_zeros, {args.back()}, std::move(kwargs), fn.name, loc);
    in.backend().initialize(t.as<TensorObj>(), InitKind::RandomInt, low, high);
    return t;
  }
  Obj t = call_symbol(in, Sym::ltorch_empty, args, std::move(kwargs), fn.name, loc);
  in.backend().initialize(t.as<TensorObj>(),
                          kind == TorchSpecial::randn ? InitKind::Normal : InitKind::Uniform, 0, 1);
  return t;
}

Obj call_torch_special(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                       const Loc &loc) {
  switch (static_cast<TorchSpecial>(fn.index)) {
  case TorchSpecial::randn:
  case TorchSpecial::rand:
  case TorchSpecial::randint:
  case TorchSpecial::randn_like:
  case TorchSpecial::rand_like:
    return call_random_factory(in, fn, args, kwargs, loc);
  case TorchSpecial::finfo: {
    DType d = args.empty()                       ? kDefaultFloat
              : args[0].kind == Obj::Kind::DType ? args[0].dtype()
                                                 : kDefaultFloat;
    if (!args.empty() && args[0].kind != Obj::Kind::DType)
      raise(in, "TypeError", "finfo() takes a dtype", loc);
    double max = 0, eps = 0, tiny = 0;
    switch (d) {
    case DType::float16:
      max = 65504.0, eps = 0.0009765625, tiny = 6.103515625e-05;
      break;
    case DType::bfloat16:
      max = 3.3895313892515355e+38, eps = 0.0078125, tiny = 1.1754943508222875e-38;
      break;
    case DType::float32:
      max = 3.4028234663852886e+38, eps = 1.1920928955078125e-07, tiny = 1.1754943508222875e-38;
      break;
    case DType::float64:
      max = DBL_MAX, eps = DBL_EPSILON, tiny = DBL_MIN;
      break;
    default:
      raise(in, "TypeError", "torch.finfo() requires a floating point input type", loc);
    }
    return info_object(in, "finfo",
                       {{"max", Obj::float_of(max)},
                        {"min", Obj::float_of(-max)},
                        {"eps", Obj::float_of(eps)},
                        {"tiny", Obj::float_of(tiny)},
                        {"smallest_normal", Obj::float_of(tiny)},
                        {"bits", Obj::int_of(dtype_info(d).bits)},
                        {"dtype", Obj::str(dtype_info(d).torch_name)}});
  }
  case TorchSpecial::iinfo: {
    if (args.empty() || args[0].kind != Obj::Kind::DType)
      raise(in, "TypeError", "iinfo() takes a dtype", loc);
    DType d = args[0].dtype();
    int64_t lo = 0, hi = 0;
    switch (d) {
    case DType::int64:
      lo = INT64_MIN;
      hi = INT64_MAX;
      break;
    case DType::int32:
      lo = INT32_MIN;
      hi = INT32_MAX;
      break;
    case DType::int16:
      lo = INT16_MIN;
      hi = INT16_MAX;
      break;
    case DType::int8:
      lo = INT8_MIN;
      hi = INT8_MAX;
      break;
    case DType::uint8:
      lo = 0;
      hi = 255;
      break;
    case DType::bool_:
      lo = 0;
      hi = 1;
      break;
    default:
      raise(in, "TypeError", "torch.iinfo() requires an integer input type", loc);
    }
    return info_object(in, "iinfo",
                       {{"min", Obj::int_of(lo)},
                        {"max", Obj::int_of(hi)},
                        {"bits", Obj::int_of(dtype_info(d).bits)}});
  }
  case TorchSpecial::is_tensor:
    return Obj::boolean_of(!args.empty() && args[0].kind == Obj::Kind::Tensor);
  case TorchSpecial::is_floating_point:
    return Obj::boolean_of(!args.empty() && args[0].kind == Obj::Kind::Tensor &&
                           is_floating(args[0].as<TensorObj>().dtype));
  case TorchSpecial::manual_seed:
    return Obj::none();
  case TorchSpecial::get_default_dtype:
    return Obj::dtype_of(kDefaultFloat);
  case TorchSpecial::is_grad_enabled:
    return Obj::boolean_of(false);
  case TorchSpecial::cuda_is_available:
    return Obj::boolean_of(false);
  case TorchSpecial::cuda_device_count:
    return Obj::int_of(0);
  case TorchSpecial::numel: {
    if (args.size() != 1 || args[0].kind != Obj::Kind::Tensor)
      raise(in, "TypeError", "numel() takes a tensor", loc);
    Obj n = Obj::int_of(1);
    for (const Obj &d : args[0].as<TensorObj>().shape)
      n = number(in, NumOp::mul, {n, d}, loc);
    return n;
  }
  case TorchSpecial::typing_cast:
    if (args.size() != 2) raise(in, "TypeError", "cast() takes a type and a value", loc);
    return args[1];
  case TorchSpecial::broadcast_shapes: {
    std::vector<Obj> out;
    for (const Obj &shape : args) {
      std::vector<Obj> dims = iterate(in, shape, loc);
      if (dims.size() > out.size())
        out.insert(out.begin(), dims.size() - out.size(), Obj::int_of(1));
      std::size_t offset = out.size() - dims.size();
      for (std::size_t i = 0; i < dims.size(); ++i) {
        Obj &o = out[offset + i];
        int64_t x = concrete_int(in, o, loc, "a size"),
                y = concrete_int(in, dims[i], loc, "a size");
        if (x == 1)
          o = dims[i];
        else if (y != 1 && y != x)
          raise(in, "RuntimeError", "shape mismatch: objects cannot be broadcast to a single shape",
                loc);
      }
    }
    return Obj::tuple(std::move(out));
  }
  }
  throw TraceError(loc, "`" + excerpt(fn.name) + "` is not supported");
}

Obj call_math_function(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                       const Loc &loc) {
  if (fn.index < 100) {
    auto op = static_cast<NumOp>(fn.index);
    if (op == NumOp::pow) {
      if (args.size() != 2) raise(in, "TypeError", "math.pow takes two arguments", loc);
      Obj x = number(in, NumOp::to_float, {args[0]}, loc);
      Obj y = number(in, NumOp::to_float, {args[1]}, loc);
      // CPython's math.pow: a finite result out of range is "math range error", 0.0 to a
      // negative power "math domain error" (not the ZeroDivisionError of `**`).
      if (!x.is_proxy() && !y.is_proxy()) {
        double r = std::pow(x.real, y.real);
        if (x.real == 0 && y.real < 0) raise(in, "ValueError", "math domain error", loc);
        if (std::isinf(r) && std::isfinite(x.real) && std::isfinite(y.real))
          raise(in, "OverflowError", "math range error", loc);
        if (x.real < 0 && std::isfinite(y.real) && y.real != std::floor(y.real))
          raise(in, "ValueError", "math domain error", loc);
      }
      return number(in, NumOp::pow, {x, y}, loc);
    }
    if (args.size() != 1) raise(in, "TypeError", fn.name + "() takes exactly one argument", loc);
    if (args[0].kind == Obj::Kind::Tensor)
      raise(in, "TypeError", "must be real number, not Tensor (use the torch function)", loc);
    Obj x = op == NumOp::abs ? number(in, NumOp::to_float, {args[0]}, loc) : args[0];
    return number(in, op, {x}, loc);
  }
  auto extra = static_cast<MathExtra>(fn.index);
  switch (extra) {
  case MathExtra::isinf:
  case MathExtra::isnan:
  case MathExtra::isfinite: {
    double x = concrete_float(in, args.at(0), loc, fn.name + "()'s argument");
    return Obj::boolean_of(extra == MathExtra::isinf   ? std::isinf(x)
                           : extra == MathExtra::isnan ? std::isnan(x)
                                                       : std::isfinite(x));
  }
  case MathExtra::log2:
  case MathExtra::log10: {
    Obj l = number(in, NumOp::log, {args.at(0)}, loc);
    return number(in, NumOp::truediv,
                  {l, Obj::float_of(std::log(extra == MathExtra::log2 ? 2.0 : 10.0))}, loc);
  }
  case MathExtra::gcd: {
    int64_t a = 0;
    for (const Obj &o : args) {
      int64_t b = std::llabs(concrete_int(in, o, loc, "gcd()'s argument"));
      while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
      }
    }
    return Obj::int_of(a);
  }
  case MathExtra::prod: {
    Obj acc = Obj::int_of(1);
    for (Obj &o : iterate(in, args.at(0), loc))
      acc = binary(in, BinaryOp::mul, std::move(acc), std::move(o), loc);
    return acc;
  }
  case MathExtra::isqrt:
    return Obj::int_of(static_cast<int64_t>(
        std::sqrt(static_cast<double>(concrete_int(in, args.at(0), loc, "isqrt()'s argument")))));
  case MathExtra::erf:
    return Obj::float_of(std::erf(concrete_float(in, args.at(0), loc, "erf()'s argument")));
  }
  throw TraceError(loc, "`" + excerpt(fn.name) + "` is not supported");
}

} // namespace

std::span<const Entry> torch_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::no_grad, call_context_manager},
      {Builtin::null_context, call_context_manager},
      {Builtin::torch_symbol, call_registry_symbol},
      {Builtin::tensor_symbol, call_registry_symbol},
      {Builtin::tensor_method, call_tensor_method},
      {Builtin::tensor_to_dtype, call_tensor_to_dtype},
      {Builtin::torch_special, call_torch_special},
      {Builtin::math_function, call_math_function},
  };
  return kEntries;
}

} // namespace builtins

} // namespace tracelint::tracer

namespace tracelint::tracer {

namespace {

void add_operator_names(std::vector<NameEntry> &out) {
  auto add = [&](const OperatorRow &row) {
    std::string means = "operator";
    if (!row.method.empty()) means += ": " + std::string(row.method);
    if (!row.reflected.empty()) means += ", " + std::string(row.reflected);
    out.push_back({std::string(row.spelling), means});
  };
  for (const OperatorRow &row : operator_table<BinaryOp>())
    add(row);
  for (const OperatorRow &row : operator_table<CompareOp>())
    add(row);
  for (const OperatorRow &row : operator_table<UnaryOp>())
    add(row);
}

} // namespace

std::vector<NameEntry> name_vocabulary() {
  std::vector<NameEntry> out;
  // Python's builtins and the builtin types' methods: builtins.def up to its provided modules.
  for (auto b = Builtin::print; b <= Builtin::exception_with_traceback;
       b = static_cast<Builtin>(static_cast<int>(b) + 1))
    if (builtins::implemented(b)) out.push_back({builtin_spelling(b), "builtin"});
  for (const ProvidedName &row : kProvidedNames) {
    static const char *const kinds[] = {"builtin", "number", "bool", "module", "class"};
    out.push_back({std::string(provided_prefix(row.module)) + "." + row.name,
                   kinds[static_cast<int>(row.kind)]});
  }
  for (const OpEntry &op : op_vocabulary())
    for (const std::string &spelling : op.spellings)
      out.push_back({spelling, op.name});
  for (const MethodName &m : kTensorMethods)
    out.push_back({std::string("Tensor.") + m.name, "tensor method"});
  for (const DTypeInfo &row : dtype_table())
    if (row.conversion_method && dtype_of_conversion_method(row.conversion_method))
      out.push_back({std::string("Tensor.") + row.conversion_method, "tensor method"});
  for (const TensorAttribute &a : kTensorAttributes)
    out.push_back({std::string("Tensor.") + a.name, "tensor attribute"});
  add_operator_names(out);
  return out;
}

Obj tensor_values(Interpreter &in, const Obj &tensor, ValueRead read, const std::string &what,
                  const std::string &traced_error, const Loc &loc) {
  if (in.backend().tracing()) throw TraceError(loc, traced_error);
  const TensorObj &t = tensor.as<TensorObj>();
  int64_t count = 1;
  for (const Obj &d : t.shape)
    count *= d.integer; // construction's shapes are concrete
  if (read == ValueRead::Item && count != 1)
    raise(in, "RuntimeError",
          "a Tensor with " + std::to_string(count) + " elements cannot be converted to Scalar",
          loc);
  if (read == ValueRead::Truth && count != 1)
    raise(in, "RuntimeError",
          count == 0 ? "Boolean value of Tensor with no values is ambiguous"
                     : "Boolean value of Tensor with more than one value is ambiguous",
          loc);
  if (read == ValueRead::Number && count != 1)
    raise(in, "ValueError", "only one element tensors can be converted to Python scalars", loc);
  std::optional<Obj> values = in.backend().values(t, read == ValueRead::All);
  if (!values)
    throw ConstructionReadsValues(
        loc, what + " reads a tensor's values while the module is constructed: that needs "
                    "libtorch (libtracelint_torch.so) in the tracing process, which this tracer "
                    "was not given");
  return *values;
}

} // namespace tracelint::tracer
