#include "binding.hpp"

#include "interpreter_impl.hpp"

namespace tracelint::tracer {

namespace {

Value call(Sym s, std::vector<Value> args) {
  const SymbolName &n = symbol_name(s);
  return Value::call(Value::attribute(Value::name(module_name(n.module)), std::string(n.name)),
                     std::move(args));
}

bool is_literal(const Obj &o) {
  return o.kind == Obj::Kind::None || o.kind == Obj::Kind::Ellipsis || o.kind == Obj::Kind::Str ||
         o.kind == Obj::Kind::DType || o.kind == Obj::Kind::Device;
}

Statement literal_check(Value source, const Obj &o) {
  return Statement::bound(std::nullopt,
                          call(Sym::prims_check_literal_like, {std::move(source), to_value(o)}));
}

} // namespace

const std::string &proxy_name(const Obj &o) {
  static const std::string none;
  if (o.kind == Obj::Kind::Tensor) return o.as<TensorObj>().name;
  return o.is_number() ? o.proxy() : none;
}

Obj value_to_obj(const Value &v) {
  switch (v.kind) {
  case ValueKind::None:
    return Obj::none();
  case ValueKind::Ellipsis:
    return Obj::ellipsis();
  case ValueKind::Bool:
    return Obj::boolean_of(v.boolean);
  case ValueKind::Int:
    return Obj::int_of(v.integer);
  case ValueKind::Float:
    return Obj::float_of(v.real);
  case ValueKind::String:
    return Obj::str(v.text);
  case ValueKind::DType:
    return Obj::dtype_of(*dtype_from_name(v.text));
  case ValueKind::Tuple:
  case ValueKind::List: {
    std::vector<Obj> items;
    for (const Value &item : v.items)
      items.push_back(value_to_obj(item));
    return v.kind == ValueKind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  case ValueKind::Dict: {
    Obj d = Obj::dict();
    for (std::size_t i = 0; i + 1 < v.items.size(); i += 2)
      d.as<DictObj>().set(value_to_obj(v.items[i]), value_to_obj(v.items[i + 1]));
    return d;
  }
  case ValueKind::Slice:
    return Obj::slice(value_to_obj(v.items[0]), value_to_obj(v.items[1]), value_to_obj(v.items[2]));
  default:
    throw TraceError(Loc{1, 1}, "this value cannot be an input");
  }
}

Obj Binder::proxied(Obj o, const std::string &top_name) {
  bool symbolic = cache_ == CacheMode::SymbolicValues;
  switch (o.kind) {
  case Obj::Kind::Int:
  case Obj::Kind::Float:
    if (!symbolic) return o;
    return o.with_proxy(top_name.empty() ? recorder_.fresh(o.kind == Obj::Kind::Int ? "i" : "f")
                                         : top_name);
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    std::vector<Obj> items;
    for (const Obj &item : o.as<SeqObj>().items)
      items.push_back(proxied(item, ""));
    return o.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  case Obj::Kind::Slice: {
    const SliceObj &s = o.as<SliceObj>();
    return Obj::slice(proxied(s.start, ""), proxied(s.stop, ""), proxied(s.step, ""));
  }
  case Obj::Kind::Dict: {
    Obj d = Obj::dict();
    const DictObj &src = o.as<DictObj>();
    for (std::size_t i = 0; i < src.keys.size(); ++i)
      d.as<DictObj>().set(src.keys[i], proxied(src.values[i], ""));
    return d;
  }
  default:
    return o;
  }
}

Obj Binder::make_input(const InputSpec &spec, const std::string &name) {
  if (spec.kind == InputSpec::Kind::Literal) return proxied(value_to_obj(spec.literal), name);
  if (spec.kind == InputSpec::Kind::Collection) {
    // Its tensors are named as the prologue unpacks them (t0, t1, ...), its numbers as proxies.
    std::vector<Obj> items;
    for (const InputSpec &item : spec.items)
      items.push_back(make_input(item, item.kind == InputSpec::Kind::Tensor ? recorder_.fresh("t")
                                                                            : std::string()));
    if (spec.collection == ValueKind::Tuple) return Obj::tuple(std::move(items));
    if (spec.collection == ValueKind::List) return Obj::list(std::move(items));
    Obj d = Obj::dict();
    for (std::size_t i = 0; i < items.size(); ++i)
      d.as<DictObj>().set(value_to_obj(spec.keys[i]), std::move(items[i]));
    return d;
  }
  auto t = std::make_shared<TensorObj>();
  t->name = name;
  t->input_name = name;
  t->dtype = *dtype_from_name(spec.dtype);
  t->device = spec.device;
  t->requires_grad = spec.requires_grad;
  for (int64_t d : spec.shape) {
    Obj dim = Obj::int_of(d);
    if (cache_ == CacheMode::SymbolicValues) dim = dim.with_proxy(recorder_.fresh("i"));
    t->shape.push_back(std::move(dim));
  }
  return Obj::heap(Obj::Kind::Tensor, std::move(t));
}

Obj Binder::name_state(const Obj &tensor, const std::string &name) {
  TensorObj &t = tensor.as<TensorObj>();
  t.name = name;
  t.input_name = name;
  return tensor;
}

void collect_proxies(const Obj &o, std::vector<const Obj *> &out) {
  if (!proxy_name(o).empty()) out.push_back(&o);
  switch (o.kind) {
  case Obj::Kind::Tensor:
    for (const Obj &d : o.as<TensorObj>().shape)
      collect_proxies(d, out);
    return;
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
    for (const Obj &item : o.as<SeqObj>().items)
      collect_proxies(item, out);
    return;
  case Obj::Kind::Slice: {
    const SliceObj &s = o.as<SliceObj>();
    for (const Obj *p : {&s.start, &s.stop, &s.step})
      collect_proxies(*p, out);
    return;
  }
  case Obj::Kind::Dict:
    for (const Obj &v : o.as<DictObj>().values)
      collect_proxies(v, out);
    return;
  default:
    return;
  }
}

Statement Binder::annotated(const std::string &name, const Obj &o, Value source) {
  Statement s;
  s.kind = Statement::Kind::AnnotatedAssign;
  s.target = Target::named(name);
  s.value = std::move(source);
  s.annotation = TypeText{type_string(o), {}};
  return s;
}

void Binder::check_input(const Obj &o, const std::string &name, std::vector<Statement> &out) {
  Value self = Value::name(name);
  switch (o.kind) {
  case Obj::Kind::Tensor: {
    const TensorObj &t = o.as<TensorObj>();
    std::vector<Value> dims;
    std::vector<Target> targets;
    for (const Obj &d : t.shape) {
      dims.push_back(to_value(d));
      if (d.is_proxy()) targets.push_back(Target::named(d.proxy()));
    }
    if (!targets.empty() && targets.size() == t.shape.size())
      out.push_back(Statement::bound(Target::tuple(targets), call(Sym::prims_shape, {self})));
    out.push_back(Statement::bound(
        std::nullopt, call(Sym::prims_check_tensor_shape_and_metadata,
                           {self, Value::tuple(dims), Value::string(t.device),
                            Value::dtype(dtype_info(t.dtype).torch_name, Namespace::Torch),
                            Value::boolean_value(t.requires_grad)})));
    return;
  }
  case Obj::Kind::Int:
  case Obj::Kind::Float:
  case Obj::Kind::Bool:
    if (o.is_proxy())
      out.push_back(Statement::bound(
          std::nullopt, call(Sym::prims_check_type,
                             {self, Value::name(o.kind == Obj::Kind::Float ? "float" : "int")})));
    else
      out.push_back(Statement::bound(
          std::nullopt, call(Sym::prims_check_number_type_and_value, {self, to_value(o)})));
    return;
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    const std::vector<Obj> &items = o.as<SeqObj>().items;
    out.push_back(Statement::bound(
        std::nullopt,
        call(Sym::prims_check_len, {self, Value::int_value(static_cast<int64_t>(items.size()))})));
    if (items.empty()) return;
    std::vector<Target> targets;
    std::vector<std::pair<std::string, const Obj *>> named;
    std::vector<Statement> literal_checks;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Obj &item = items[i];
      if (is_literal(item)) {
        targets.push_back(Target::named("_"));
        literal_checks.push_back(
            literal_check(Value::subscript(self, Value::int_value(static_cast<int64_t>(i))), item));
      } else {
        std::string element =
            proxy_name(item).empty() ? recorder_.fresh(proxy_prefix(item)) : proxy_name(item);
        targets.push_back(Target::named(element));
        named.emplace_back(element, &item);
      }
    }
    Statement unpack = Statement::bound(Target::tuple(targets), self);
    unpack.style = UnpackStyle::Bare;
    unpack.trailing_comma = true;
    out.push_back(std::move(unpack));
    for (Statement &s : literal_checks)
      out.push_back(std::move(s));
    for (const auto &[element, item] : named)
      check_input(*item, element, out);
    return;
  }
  case Obj::Kind::Slice: {
    static const char *parts[] = {"start", "stop", "step"};
    const SliceObj &s = o.as<SliceObj>();
    const Obj *values[] = {&s.start, &s.stop, &s.step};
    for (std::size_t i = 0; i < 3; ++i)
      bind_part(*values[i], Value::attribute(self, parts[i]), out);
    return;
  }
  case Obj::Kind::Dict: {
    const DictObj &d = o.as<DictObj>();
    out.push_back(Statement::bound(
        std::nullopt,
        call(Sym::prims_check_len, {self, Value::int_value(static_cast<int64_t>(d.keys.size()))})));
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      bind_part(d.values[i], Value::subscript(self, to_value(d.keys[i])), out);
    return;
  }
  default:
    out.push_back(literal_check(self, o));
    return;
  }
}

void Binder::bind_part(const Obj &item, Value source, std::vector<Statement> &out) {
  if (is_literal(item)) {
    out.push_back(literal_check(std::move(source), item));
    return;
  }
  std::string element =
      proxy_name(item).empty() ? recorder_.fresh(proxy_prefix(item)) : proxy_name(item);
  out.push_back(annotated(element, item, std::move(source)));
  check_input(item, element, out);
}

} // namespace tracelint::tracer
