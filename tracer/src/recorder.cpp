#include "recorder.hpp"

#include "memory_estimate.hpp"

#include "tracelint/core/type_string.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

namespace tracelint::tracer {

namespace {

Value list_of(const std::vector<Obj> &items) {
  std::vector<Value> values;
  for (const Obj &o : items)
    values.push_back(to_value(o));
  return Value::list(std::move(values));
}

Value int_list(const std::vector<int64_t> &items) {
  std::vector<Value> values;
  for (int64_t i : items)
    values.push_back(Value::int_value(i));
  return Value::list(std::move(values));
}

Value int_tuple(const std::vector<int64_t> &items) {
  std::vector<Value> values;
  for (int64_t i : items)
    values.push_back(Value::int_value(i));
  return Value::tuple(std::move(values));
}

std::string shape_text(const std::vector<Obj> &shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i].integer);
  return out + "]";
}

bool same_dim(const Obj &a, const Obj &b) {
  return a.integer == b.integer;
}

bool same_shape(const std::vector<Obj> &a, const std::vector<Obj> &b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_dim(a[i], b[i]) || a[i].proxy != b[i].proxy) return false;
  return true;
}

int dtype_rank(const std::string &dtype) {
  static const std::vector<std::string> order = {"bool",    "uint8",   "int8",      "int16",
                                                 "int32",   "int64",   "float16",   "bfloat16",
                                                 "float32", "float64", "complex64", "complex128"};
  auto it = std::find(order.begin(), order.end(), dtype);
  return static_cast<int>(it - order.begin());
}

std::string promote(const std::string &a, const std::string &b) {
  if (a == b) return a;
  if ((a == "float16" && b == "bfloat16") || (a == "bfloat16" && b == "float16")) return "float32";
  return dtype_rank(a) >= dtype_rank(b) ? a : b;
}

} // namespace

std::string proxy_prefix(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::Tensor:
    return "t";
  case Obj::Kind::Int:
    return "i";
  case Obj::Kind::Float:
    return "f";
  case Obj::Kind::Bool:
    return "b";
  default:
    return "C";
  }
}

std::string type_string(const Obj &o) {
  ProxyType t;
  switch (o.kind) {
  case Obj::Kind::Tensor: {
    // One per recorded symbol: written in place rather than through a ProxyType.
    std::string out;
    append_tensor_type(out, o.device, short_dtype(o.dtype), o.shape.size(), [&](std::size_t i) {
      return DimSpelling{o.shape[i].proxy, o.shape[i].integer};
    });
    return out;
  }
  case Obj::Kind::Int:
    t.kind = ProxyKind::Integer;
    t.value = std::to_string(o.integer);
    break;
  case Obj::Kind::Float:
    t.kind = ProxyKind::Float;
    t.value = python_float(o.real);
    break;
  case Obj::Kind::Bool:
    t.kind = ProxyKind::Bool;
    t.value = o.boolean ? "True" : "False";
    break;
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Dict:
  case Obj::Kind::Slice:
    t.kind = ProxyKind::Collection;
    t.text = "Collection";
    break;
  default:
    t.kind = ProxyKind::Any;
    t.text = "Any";
    break;
  }
  return print_type_string(t);
}

std::string Recorder::fresh(const std::string &prefix) {
  // One counter for every prefix, so generated names never repeat: only reserved ones can be hit.
  while (true) {
    std::string name = prefix + std::to_string(counter_++);
    if (!reserved_.count(name)) return name;
  }
}

Statement &Recorder::top_statement() {
  if (!pending_provenance_.empty()) {
    body_.push_back(Statement::comment(std::move(pending_provenance_)));
    pending_provenance_.clear();
  }
  return body_.emplace_back();
}

void Recorder::at_statement(const Stmt &s) {
  if (!provenance_) return;
  if (s.loc.line == 0 || s.loc.line > module_.source->line_count()) return;
  std::string_view line = module_.source->line(s.loc.line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  pending_provenance_ = "# " + module_.path + ":" + std::to_string(s.loc.line) + ": ";
  pending_provenance_ += line;
}

namespace {

// The arguments of a call, moved in (an initializer list would copy each Value).
template <class... V> std::vector<Value> args_of(V &&...v) {
  std::vector<Value> out;
  out.reserve(sizeof...(v));
  (out.push_back(std::forward<V>(v)), ...);
  return out;
}

// prims.name: the callee a recorded symbol's call prints, built as the model spells it (an
// Attribute of a Name) without a dotted string to split again.
Value member_of(const char *module, const std::string &name) {
  return Value::attribute(Value::name(module), name);
}

// Makes s `name = value  # name: "type of out"`.
void fill_binding(Statement &s, const std::string &name, Value value, const Obj &out) {
  s.kind = Statement::Kind::BoundSymbol;
  s.target = Target::named(name);
  s.value = std::move(value);
  s.type_comment = TypeComment{name, TypeText{type_string(out), {}}, {}};
}

} // namespace

Statement &Recorder::bind(const std::string &name, Value value, const Obj &out) {
  Statement *s;
  if (sink_ == &body_) {
    s = &top_statement();
  } else {
    s = &sink_->emplace_back();
    s->commented = true; // a subsymbol of the composite being recorded
  }
  fill_binding(*s, name, std::move(value), out);
  if (out.kind == Obj::Kind::Tensor) tensor_bytes_[name] = tensor_bytes(out);
  return *s;
}

Obj Recorder::prim(const std::string &name, std::vector<Value> args, Obj out) {
  out.proxy = fresh(proxy_prefix(out));
  bind(out.proxy, Value::call(member_of("prims", name), std::move(args)), out);
  return out;
}

template <class F>
Obj Recorder::composite(const std::string &name, std::vector<Value> args, F &&decompose) {
  std::vector<Statement> subsymbols;
  subsymbols.reserve(4); // most decompositions; a Statement is large to move
  std::vector<Statement> *outer = sink_;
  sink_ = &subsymbols;
  Obj out = decompose();
  sink_ = outer;
  if (subsymbols.empty()) return out; // the operation was the identity: nothing to record
  bool top_level = sink_ == &body_;
  Statement &s = bind(out.proxy, Value::call(member_of("ltorch", name), std::move(args)), out);
  s.subsymbols = std::move(subsymbols);
  if (top_level) note_hidden_reads(s);
  return out;
}

namespace {

// Reads (code, then annotation symbols) before the names a statement binds, its own
// subsymbols in between.
template <class F>
void visit_subsymbol(const Statement &s, std::vector<std::string_view> &known, F &&read) {
  for_each_read_name(s.value, [&](const Value &v) { read(v.text); });
  if (s.type_comment && s.type_comment->type)
    for_each_type_symbol(s.type_comment->type->text, read);
  for (const Statement &sub : s.subsymbols)
    visit_subsymbol(sub, known, read);
  if (s.target) s.target->for_each_bound_name([&](const Target &t) { known.push_back(t.name); });
}

} // namespace

void Recorder::note_hidden_reads(const Statement &composite) {
  std::size_t index = body_.size() - 1;
  std::vector<std::string_view> &known = names_seen_; // its capacity stays from the last symbol
  known.clear();
  for_each_read_name(composite.value, [&](const Value &v) { known.push_back(v.text); });
  auto read = [&](std::string_view name) {
    if (std::find(known.begin(), known.end(), name) != known.end()) return;
    known.push_back(name);
    hidden_reads_.emplace_back(index, std::string(name));
  };
  for (const Statement &sub : composite.subsymbols)
    visit_subsymbol(sub, known, read);
}

Obj Recorder::record_number(const std::string &prim_name, std::vector<Value> args, Obj result) {
  // The same operation on the same operands is recorded once.
  Value call = Value::call(member_of("prims", prim_name), std::move(args));
  std::string key = print_value(call);
  auto seen = number_memo_.find(key);
  if (seen != number_memo_.end()) return seen->second;
  result.proxy = fresh(proxy_prefix(result));
  number_memo_[key] = result;
  // At top level even during a composite's decomposition: sizes are computed before the symbol.
  Statement &s = top_statement();
  fill_binding(s, result.proxy, std::move(call), result);
  number_index_[result.proxy] = number_defs_.size();
  number_defs_.push_back(s);
  return result;
}

namespace {

// A number operand as the key of a number operation: a proxy by its name, a constant by its
// kind and value.
void append_operand_key(std::string &key, const Obj &o) {
  key += ' ';
  if (!o.proxy.empty()) {
    key += o.proxy;
    return;
  }
  char digits[32];
  char *end = o.kind == Obj::Kind::Float
                  ? std::to_chars(digits, digits + sizeof digits, o.real).ptr
                  : std::to_chars(digits, digits + sizeof digits, o.integer).ptr;
  key += o.kind == Obj::Kind::Float ? 'f' : o.kind == Obj::Kind::Bool ? 'b' : 'i';
  key.append(digits, end);
}

} // namespace

Obj Recorder::num(const std::string &op, const Obj &a, const Obj &b, const Loc &loc) {
  if (a.proxy.empty() && b.proxy.empty()) return compute_number(op, {a, b}, loc);
  // Its prims are recorded once (record_number): a repeat, such as the element count of each
  // reshape of the same tensor, is found by its operands before any call is built and printed.
  std::string key = op;
  append_operand_key(key, a);
  append_operand_key(key, b);
  auto seen = number_results_.find(key);
  if (seen != number_results_.end()) return seen->second;
  std::vector<Obj> args = {a, b};
  Obj result = number_op(op, args, compute_number(op, args, loc), loc);
  number_results_.emplace(std::move(key), result);
  return result;
}

Obj Recorder::number_op(const std::string &op, const std::vector<Obj> &args, Obj result,
                        const Loc &loc) {
  result.proxy.clear();
  if (op == "neg") return record_number("neg", args_of(to_value(args[0])), result);
  const Obj &a = args[0];
  const Obj &b = args[1];
  if (op == "truediv") {
    auto as_float = [&](const Obj &x) {
      if (x.kind == Obj::Kind::Float) return x;
      if (x.proxy.empty()) return Obj::float_of(x.as_double());
      return record_number("convert_element_type", args_of(to_value(x), Value::name("float")),
                           Obj::float_of(x.as_double()));
    };
    Obj fa = as_float(a), fb = as_float(b);
    return record_number("div", args_of(to_value(fa), to_value(fb)), result);
  }
  if (op == "floordiv") {
    if (result.kind == Obj::Kind::Float) {
      Obj q = number_op("truediv", args, Obj::float_of(a.as_double() / b.as_double()), loc);
      return record_number("floor", args_of(to_value(q)), result);
    }
    // Thunder's integer floor division: truncating division, minus one where the signs
    // differ and the remainder is not zero.
    auto signbit = [&](const Obj &x) {
      Obj value = Obj::boolean_of(x.integer < 0);
      return x.proxy.empty() ? value : record_number("signbit", args_of(to_value(x)), value);
    };
    Obj sa = signbit(a), sb = signbit(b);
    Obj differ = record_number("ne", args_of(to_value(sa), to_value(sb)),
                               Obj::boolean_of(sa.boolean != sb.boolean));
    Obj rem = record_number("fmod", args_of(to_value(a), to_value(b)),
                            Obj::float_of(std::fmod(a.as_double(), b.as_double())));
    Obj rem_int = record_number("convert_element_type", args_of(to_value(rem), Value::name("int")),
                                Obj::int_of(static_cast<int64_t>(rem.real)));
    Obj nonzero = record_number("ne", args_of(to_value(rem_int), Value::int_value(0)),
                                Obj::boolean_of(rem_int.integer != 0));
    Obj offset = record_number("bitwise_and", args_of(to_value(differ), to_value(nonzero)),
                               Obj::boolean_of(differ.boolean && nonzero.boolean));
    Obj quotient =
        record_number("div", args_of(to_value(a), to_value(b)), Obj::int_of(a.integer / b.integer));
    Obj offset_int =
        record_number("convert_element_type", args_of(to_value(offset), Value::name("int")),
                      Obj::int_of(offset.boolean ? 1 : 0));
    return record_number("sub", args_of(to_value(quotient), to_value(offset_int)), result);
  }
  if (op == "mod") {
    Obj quotient = num("floordiv", a, b, loc);
    Obj product = num("mul", quotient, b, loc);
    Obj r = num("sub", a, product, loc);
    r.integer = result.integer;
    r.real = result.real;
    return r;
  }
  return record_number(op, args_of(to_value(a), to_value(b)), result);
}

void Recorder::guard(const Obj &value, const Loc &) {
  if (value.proxy.empty()) return;
  for (const auto &g : guards_)
    if (g.first == value.proxy) return;
  Obj constant = value;
  constant.proxy.clear();
  guards_.emplace_back(value.proxy, constant);
}

std::vector<Statement> Recorder::guard_statements() const {
  std::set<std::size_t> needed;
  std::vector<std::string> stack;
  for (const auto &g : guards_)
    stack.push_back(g.first);
  while (!stack.empty()) {
    std::string name = stack.back();
    stack.pop_back();
    auto it = number_index_.find(name);
    if (it == number_index_.end() || !needed.insert(it->second).second) continue;
    for_each_name(number_defs_[it->second].value, [&](const Value &v) { stack.push_back(v.text); });
  }
  std::vector<Statement> out;
  for (std::size_t i : needed)
    out.push_back(number_defs_[i]);
  for (const auto &[name, value] : guards_)
    out.push_back(
        Statement::bound(std::nullopt, Value::call("prims.check_number_type_and_value",
                                                   {Value::name(name), to_value(value)})));
  return out;
}

// ---- shapes ------------------------------------------------------------------------------

Obj Recorder::like(const Obj &t, std::vector<Obj> shape) const {
  return like(t, std::move(shape), t.dtype);
}

Obj Recorder::like(const Obj &t, std::vector<Obj> shape, const std::string &dtype) const {
  Obj out;
  out.kind = Obj::Kind::Tensor;
  out.dtype = dtype;
  out.device = t.device;
  out.shape = std::move(shape);
  return out;
}

int64_t Recorder::dim_index(int64_t d, std::size_t rank, const Loc &loc) const {
  int64_t r = static_cast<int64_t>(rank);
  if (d < -r || d >= r || r == 0)
    throw TraceError(loc, "dim " + std::to_string(d) + " is out of range for a tensor of rank " +
                              std::to_string(rank));
  return d < 0 ? d + r : d;
}

Obj Recorder::broadcast_to(const Obj &t, const std::vector<Obj> &shape, const Loc &loc) {
  if (same_shape(t.shape, shape)) return t;
  std::size_t offset = shape.size() - t.shape.size();
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    const Obj &d = t.shape[i];
    if (d.integer != 1 && !same_dim(d, shape[offset + i]))
      throw TraceError(loc, "cannot broadcast a tensor of shape " + shape_text(t.shape) + " to " +
                                shape_text(shape));
    dims.push_back(static_cast<int64_t>(offset + i));
  }
  return prim("broadcast_in_dim", args_of(to_value(t), list_of(shape), int_list(dims)),
              like(t, shape));
}

Obj Recorder::elementwise(const std::string &op, const Obj &a, const Obj &b, const Loc &loc) {
  static const std::map<std::string, std::string> ltorch_names = {
      {"add", "add"}, {"sub", "sub"}, {"mul", "mul"}, {"div", "true_divide"}, {"pow", "pow"}};
  const Obj &tensor = a.kind == Obj::Kind::Tensor ? a : b;
  std::vector<Obj> shape = tensor.shape;
  std::string dtype = tensor.dtype;
  if (a.kind == Obj::Kind::Tensor && b.kind == Obj::Kind::Tensor) {
    if (a.device != b.device)
      throw TraceError(loc, "tensors on different devices (" + a.device + ", " + b.device + ")");
    std::size_t rank = std::max(a.shape.size(), b.shape.size());
    shape.assign(rank, Obj::int_of(1));
    for (std::size_t i = 0; i < rank; ++i) {
      const Obj *da = i < a.shape.size() ? &a.shape[a.shape.size() - 1 - i] : nullptr;
      const Obj *db = i < b.shape.size() ? &b.shape[b.shape.size() - 1 - i] : nullptr;
      Obj &out = shape[rank - 1 - i];
      if (!da)
        out = *db;
      else if (!db)
        out = *da;
      else if (same_dim(*da, *db))
        out = da->proxy.empty() ? *db : *da;
      else if (da->integer == 1)
        out = *db;
      else if (db->integer == 1)
        out = *da;
      else
        throw TraceError(loc, "shapes " + shape_text(a.shape) + " and " + shape_text(b.shape) +
                                  " cannot be broadcast together");
    }
    dtype = promote(a.dtype, b.dtype);
  } else {
    const Obj &scalar = a.kind == Obj::Kind::Tensor ? b : a;
    if (scalar.kind == Obj::Kind::Float && !is_floating(dtype)) dtype = "float32";
  }
  if (op == "div" && !is_floating(dtype)) dtype = "float32";
  Obj out_template = like(tensor, std::move(shape), dtype);
  const std::vector<Obj> &out_shape = out_template.shape; // until the template moves to the prim
  auto operand = [&](const Obj &x) {
    if (x.kind == Obj::Kind::Tensor && same_shape(x.shape, out_shape)) return to_value(x);
    if (x.kind == Obj::Kind::Tensor) return to_value(broadcast_to(x, out_shape, loc));
    // A Python int with a floating tensor is printed as the float it becomes.
    if (x.kind == Obj::Kind::Int && x.proxy.empty() && is_floating(dtype))
      return Value::float_value(static_cast<double>(x.integer));
    return to_value(x);
  };
  return composite(ltorch_names.at(op), args_of(to_value(a), to_value(b)), [&] {
    Value first = operand(a); // in order: each may record a broadcast
    Value second = operand(b);
    return prim(op, args_of(std::move(first), std::move(second)), std::move(out_template));
  });
}

Obj Recorder::unary(const std::string &op, const Obj &a, const Loc &loc) {
  if (op != "neg" && !is_floating(a.dtype))
    throw TraceError(loc, "`" + op + "` needs a floating-point tensor, got " + a.describe());
  Value x = to_value(a);
  auto f = [](double d) { return Value::float_value(d); };
  std::vector<Value> args = {x};
  if (op == "gelu")
    return composite("gelu", args_of(x), [&] {
      Obj t1 = prim("mul", args_of(x, f(0.7071067811865476)), like(a, a.shape));
      Obj t2 = prim("erf", args_of(to_value(t1)), like(a, a.shape));
      Obj t3 = prim("add", args_of(to_value(t2), f(1.0)), like(a, a.shape));
      Obj t4 = prim("mul", args_of(x, to_value(t3)), like(a, a.shape));
      return prim("mul", args_of(to_value(t4), f(0.5)), like(a, a.shape));
    });
  if (op == "gelu_tanh")
    return composite("gelu", args_of(x), [&] {
      Obj t1 = prim("mul", args_of(x, x), like(a, a.shape));
      Obj t2 = prim("mul", args_of(to_value(t1), x), like(a, a.shape));
      Obj t3 = prim("mul", args_of(to_value(t2), f(0.044715)), like(a, a.shape));
      Obj t4 = prim("add", args_of(x, to_value(t3)), like(a, a.shape));
      Obj t5 = prim("mul", args_of(to_value(t4), f(0.7978845608028654)), like(a, a.shape));
      Obj t6 = prim("tanh", args_of(to_value(t5)), like(a, a.shape));
      Obj t7 = prim("add", args_of(to_value(t6), f(1.0)), like(a, a.shape));
      Obj t8 = prim("mul", args_of(x, to_value(t7)), like(a, a.shape));
      return prim("mul", args_of(to_value(t8), f(0.5)), like(a, a.shape));
    });
  return composite(op, args, [&] {
    if (op == "relu") {
      Obj positive = prim("gt", args_of(x, f(0.0)), like(a, a.shape, "bool"));
      return prim("where", args_of(to_value(positive), x, f(0.0)), like(a, a.shape));
    }
    if (op == "sigmoid" || op == "silu") {
      Obj t1 = prim("neg", args_of(x), like(a, a.shape));
      Obj t2 = prim("exp", args_of(to_value(t1)), like(a, a.shape));
      Obj t3 = prim("add", args_of(f(1.0), to_value(t2)), like(a, a.shape));
      return prim("div", args_of(op == "silu" ? x : f(1.0), to_value(t3)), like(a, a.shape));
    }
    return prim(op, args_of(x), like(a, a.shape));
  });
}

namespace {

// The dims a reduction covers, normalised and sorted; None or () means every dim.
std::vector<int64_t> reduction_dims(const Obj &dims, std::size_t rank, const Loc &loc) {
  std::vector<int64_t> out;
  if (dims.kind == Obj::Kind::None || dims.items.empty()) {
    for (std::size_t i = 0; i < rank; ++i)
      out.push_back(static_cast<int64_t>(i));
    return out;
  }
  for (const Obj &d : dims.items) {
    int64_t r = static_cast<int64_t>(rank);
    if (d.integer < -r || d.integer >= r)
      throw TraceError(loc, "dim " + std::to_string(d.integer) +
                                " is out of range for a tensor of rank " + std::to_string(rank));
    int64_t n = d.integer < 0 ? d.integer + r : d.integer;
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw TraceError(loc, "dim " + std::to_string(n) + " appears twice in the reduction");
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

Obj Recorder::reduce_prims(const std::string &prim_name, const Obj &a,
                           const std::vector<int64_t> &dims, bool keepdim) {
  std::vector<Obj> shape;
  for (std::size_t i = 0; i < a.shape.size(); ++i)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end())
      shape.push_back(a.shape[i]);
  std::string dtype = a.dtype;
  if (prim_name == "sum" && !is_floating(dtype)) dtype = "int64";
  Obj reduced = prim(prim_name, args_of(to_value(a), int_tuple(dims)), like(a, shape, dtype));
  return keepdim ? keep_dims(reduced, a, dims) : reduced;
}

Obj Recorder::keep_dims(const Obj &reduced, const Obj &a, const std::vector<int64_t> &dims) {
  std::vector<Obj> shape;
  std::vector<int64_t> kept;
  for (std::size_t i = 0; i < a.shape.size(); ++i) {
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end()) {
      kept.push_back(static_cast<int64_t>(i));
      shape.push_back(a.shape[i]);
    } else {
      shape.push_back(Obj::int_of(1));
    }
  }
  return prim("broadcast_in_dim", args_of(to_value(reduced), list_of(shape), int_list(kept)),
              like(reduced, shape));
}

Obj Recorder::reduce(const std::string &op, const Obj &a, const Obj &dims, bool keepdim,
                     const Loc &loc) {
  if (op == "mean" && !is_floating(a.dtype))
    throw TraceError(loc, "`mean` needs a floating-point tensor, got " + a.describe());
  std::vector<int64_t> d = reduction_dims(dims, a.shape.size(), loc);
  Value printed_dims = dims.kind == Obj::Kind::None ? Value::none() : int_tuple(d);
  // The element count of a mean is a number operation: recorded before the symbol.
  Obj count = Obj::int_of(1);
  if (op == "mean")
    for (int64_t i : d)
      count = num("mul", count, a.shape[static_cast<std::size_t>(i)], loc);
  return composite(op, args_of(to_value(a), printed_dims, Value::boolean_value(keepdim)), [&] {
    if (op != "mean") return reduce_prims(op, a, d, keepdim);
    Obj total = reduce_prims("sum", a, d, false);
    Value divisor = count.proxy.empty() ? Value::float_value(static_cast<double>(count.integer))
                                        : to_value(count);
    Obj mean = prim("div", args_of(to_value(total), divisor), like(total, total.shape));
    return keepdim ? keep_dims(mean, a, d) : mean;
  });
}

Obj Recorder::softmax(const Obj &a, int64_t dim, const Loc &loc) {
  if (!is_floating(a.dtype))
    throw TraceError(loc, "`softmax` needs a floating-point tensor, got " + a.describe());
  std::vector<int64_t> d = {dim_index(dim, a.shape.size(), loc)};
  // prims take operands of one shape: each reduction is broadcast back to a's shape.
  auto expand = [&](const Obj &reduced) {
    std::vector<int64_t> kept;
    for (std::size_t i = 0; i < a.shape.size(); ++i)
      if (static_cast<int64_t>(i) != d[0]) kept.push_back(static_cast<int64_t>(i));
    return prim("broadcast_in_dim", args_of(to_value(reduced), list_of(a.shape), int_list(kept)),
                like(a, a.shape));
  };
  return composite("softmax", args_of(to_value(a), Value::int_value(dim)), [&] {
    Obj peak = expand(reduce_prims("amax", a, d, false));
    Obj shifted = prim("sub", args_of(to_value(a), to_value(peak)), like(a, a.shape));
    Obj e = prim("exp", args_of(to_value(shifted)), like(a, a.shape));
    Obj total = expand(reduce_prims("sum", e, d, false));
    return prim("div", args_of(to_value(e), to_value(total)), like(a, a.shape));
  });
}

Obj Recorder::reshape(const std::string &name, const Obj &a, const Obj &shape, const Loc &loc) {
  Obj numel = Obj::int_of(1);
  for (const Obj &d : a.shape)
    numel = num("mul", numel, d, loc);
  Obj known = Obj::int_of(1);
  int inferred = -1;
  for (std::size_t i = 0; i < shape.items.size(); ++i) {
    const Obj &d = shape.items[i];
    if (d.proxy.empty() && d.integer == -1) {
      if (inferred >= 0)
        throw TraceError(loc, "only one dimension can be inferred (-1) in " + name);
      inferred = static_cast<int>(i);
      continue;
    }
    if (d.integer < 0)
      throw TraceError(loc, "invalid size " + std::to_string(d.integer) + " in " + name);
    known = num("mul", known, d, loc);
  }
  std::vector<Obj> out_shape = shape.items;
  if (inferred >= 0) {
    if (known.integer == 0 || numel.integer % known.integer != 0)
      throw TraceError(loc, "shape " + shape_text(shape.items) + " is invalid for " +
                                std::to_string(numel.integer) + " elements");
    Obj missing = Obj::int_of(numel.integer / known.integer);
    if (!numel.proxy.empty() || !known.proxy.empty())
      missing = record_number("div", args_of(to_value(numel), to_value(known)), missing);
    out_shape[static_cast<std::size_t>(inferred)] = missing;
  } else if (known.integer != numel.integer) {
    throw TraceError(loc, "shape " + shape_text(shape.items) + " is invalid for " +
                              std::to_string(numel.integer) + " elements (" + a.describe() + ")");
  }
  return composite(name, args_of(to_value(a), to_value(shape)), [&] {
    return prim("reshape", args_of(to_value(a), to_value(Obj::tuple(out_shape))),
                like(a, out_shape));
  });
}

Obj Recorder::matmul(const Obj &a, const Obj &b, const Loc &loc) {
  if (a.shape.size() < 2 || b.shape.size() < 2)
    throw TraceError(loc, "matmul of 1-D tensors is not supported (shapes " + shape_text(a.shape) +
                              ", " + shape_text(b.shape) + ")");
  if (a.dtype != b.dtype || a.device != b.device)
    throw TraceError(loc, "matmul of " + a.describe() + " on " + a.device + " and " + b.describe() +
                              " on " + b.device);
  const Obj &k1 = a.shape[a.shape.size() - 1];
  const Obj &k2 = b.shape[b.shape.size() - 2];
  if (!same_dim(k1, k2))
    throw TraceError(loc, "matmul: shapes " + shape_text(a.shape) + " and " + shape_text(b.shape) +
                              " cannot be multiplied");
  std::vector<Obj> batch_a(a.shape.begin(), a.shape.end() - 2);
  std::vector<Obj> batch_b(b.shape.begin(), b.shape.end() - 2);
  Obj ba = like(a, batch_a), bb = like(b, batch_b);
  std::vector<Obj> batch;
  {
    std::size_t rank = std::max(batch_a.size(), batch_b.size());
    batch.assign(rank, Obj::int_of(1));
    for (std::size_t i = 0; i < rank; ++i) {
      const Obj *da = i < batch_a.size() ? &batch_a[batch_a.size() - 1 - i] : nullptr;
      const Obj *db = i < batch_b.size() ? &batch_b[batch_b.size() - 1 - i] : nullptr;
      Obj &out = batch[rank - 1 - i];
      if (!da || (db && da->integer == 1))
        out = *db;
      else if (!db || db->integer == 1 || same_dim(*da, *db))
        out = *da;
      else
        throw TraceError(loc, "matmul: batch dims of " + shape_text(a.shape) + " and " +
                                  shape_text(b.shape) + " cannot be broadcast");
    }
  }
  std::vector<Obj> full_a = batch, full_b = batch, out_shape = batch;
  full_a.insert(full_a.end(), a.shape.end() - 2, a.shape.end());
  full_b.insert(full_b.end(), b.shape.end() - 2, b.shape.end());
  out_shape.push_back(a.shape[a.shape.size() - 2]);
  out_shape.push_back(b.shape.back());
  return composite("matmul", args_of(to_value(a), to_value(b)), [&] {
    Obj xa = broadcast_to(a, full_a, loc);
    Obj xb = broadcast_to(b, full_b, loc);
    return prim("matmul", args_of(to_value(xa), to_value(xb)), like(a, out_shape));
  });
}

Obj Recorder::linear(const Obj &x, const Obj &w, const Obj &bias, const Loc &loc) {
  if (w.shape.size() != 2 || x.shape.empty())
    throw TraceError(loc, "linear: the weight must be 2-D and the input at least 1-D (got " +
                              shape_text(x.shape) + ", " + shape_text(w.shape) + ")");
  if (!same_dim(x.shape.back(), w.shape[1]))
    throw TraceError(loc, "linear: input " + shape_text(x.shape) + " does not match weight " +
                              shape_text(w.shape));
  if (bias.kind == Obj::Kind::Tensor &&
      (bias.shape.size() != 1 || !same_dim(bias.shape[0], w.shape[0])))
    throw TraceError(loc, "linear: bias " + shape_text(bias.shape) + " does not match weight " +
                              shape_text(w.shape));
  if (x.dtype != w.dtype || x.device != w.device)
    throw TraceError(loc, "linear of " + x.describe() + " on " + x.device + " and " + w.describe() +
                              " on " + w.device);
  std::vector<Obj> shape(x.shape.begin(), x.shape.end() - 1);
  shape.push_back(w.shape[0]);
  return composite("linear", args_of(to_value(x), to_value(w), to_value(bias)), [&] {
    return prim("linear", args_of(to_value(x), to_value(w), to_value(bias)), like(x, shape));
  });
}

Obj Recorder::cat(const Obj &tensors, int64_t dim, const Loc &loc) {
  const Obj &first = tensors.items[0];
  int64_t d = dim_index(dim, first.shape.size(), loc);
  Obj size = Obj::int_of(0);
  std::vector<Value> names;
  for (const Obj &t : tensors.items) {
    if (t.shape.size() != first.shape.size() || t.dtype != first.dtype || t.device != first.device)
      throw TraceError(loc, "cat: " + t.describe() + " does not match " + first.describe());
    for (std::size_t i = 0; i < t.shape.size(); ++i)
      if (static_cast<int64_t>(i) != d && !same_dim(t.shape[i], first.shape[i]))
        throw TraceError(loc, "cat: shapes " + shape_text(first.shape) + " and " +
                                  shape_text(t.shape) + " differ outside dim " + std::to_string(d));
    size = num("add", size, t.shape[static_cast<std::size_t>(d)], loc);
    names.push_back(to_value(t));
  }
  std::vector<Obj> shape = first.shape;
  shape[static_cast<std::size_t>(d)] = size;
  return composite("cat", args_of(Value::list(names), Value::int_value(dim)), [&] {
    return prim("cat", args_of(Value::list(names), Value::int_value(d)), like(first, shape));
  });
}

Obj Recorder::getitem(const Obj &a, const Obj &key, const Loc &loc) {
  std::vector<Obj> entries = key.kind == Obj::Kind::Tuple ? key.items : std::vector<Obj>{key};
  std::size_t consuming = 0, ellipses = 0;
  for (const Obj &e : entries) {
    if (e.kind == Obj::Kind::Int || e.kind == Obj::Kind::Slice)
      ++consuming;
    else if (e.kind == Obj::Kind::Ellipsis)
      ++ellipses;
    else if (e.kind != Obj::Kind::None)
      throw TraceError(loc, "indexing with " + e.describe() +
                                " is not supported (basic indexing only: ints, slices, None, ...)");
  }
  if (ellipses > 1) throw TraceError(loc, "an index can only have a single ellipsis");
  if (consuming > a.shape.size())
    throw TraceError(loc,
                     "too many indices for a tensor of rank " + std::to_string(a.shape.size()));
  std::vector<Obj> expanded;
  for (const Obj &e : entries) {
    if (e.kind == Obj::Kind::Ellipsis) {
      for (std::size_t i = 0; i < a.shape.size() - consuming; ++i)
        expanded.push_back(Obj::slice(Obj::none(), Obj::none(), Obj::none()));
    } else {
      expanded.push_back(e);
    }
  }
  while (expanded.size() - std::count_if(expanded.begin(), expanded.end(),
                                         [](const Obj &e) { return e.kind == Obj::Kind::None; }) <
         a.shape.size())
    expanded.push_back(Obj::slice(Obj::none(), Obj::none(), Obj::none()));

  // A decision that depends on a proxy's value is guarded, so the prologue checks it.
  auto decide = [&](const std::string &op, const Obj &x, const Obj &y) {
    Obj r = num(op, x, y, loc);
    guard(r, loc);
    return r.boolean;
  };
  std::vector<Obj> starts, ends, out_shape, sliced_shape;
  std::vector<int64_t> strides, squeezed, new_axes;
  bool trivial = true;
  std::size_t dim = 0, out_pos = 0;
  for (const Obj &e : expanded) {
    if (e.kind == Obj::Kind::None) {
      new_axes.push_back(static_cast<int64_t>(out_pos++));
      continue;
    }
    const Obj &size = a.shape[dim];
    if (e.kind == Obj::Kind::Int) {
      Obj index = e;
      if (decide("lt", index, Obj::int_of(0))) index = num("add", index, size, loc);
      if (index.integer < 0 || index.integer >= size.integer)
        throw TraceError(loc, "index " + std::to_string(e.integer) + " is out of bounds for dim " +
                                  std::to_string(dim) + " of size " + std::to_string(size.integer));
      starts.push_back(index);
      ends.push_back(num("add", index, Obj::int_of(1), loc));
      strides.push_back(1);
      sliced_shape.push_back(Obj::int_of(1));
      squeezed.push_back(static_cast<int64_t>(dim));
      trivial = false;
    } else {
      const Obj &step_obj = e.items[2];
      int64_t step = 1;
      if (step_obj.kind != Obj::Kind::None) {
        if (step_obj.kind != Obj::Kind::Int) throw TraceError(loc, "slice steps must be ints");
        guard(step_obj, loc);
        step = step_obj.integer;
      }
      if (step == 0) throw TraceError(loc, "slice step cannot be zero");
      if (step < 0)
        throw TraceError(loc, "slice steps must be positive (torch has no negative steps)");
      auto bound = [&](const Obj &b, const Obj &dflt) {
        if (b.kind == Obj::Kind::None) return dflt;
        if (b.kind != Obj::Kind::Int)
          throw TraceError(loc, "slice bounds must be ints or None, not " + b.describe());
        Obj v = b;
        if (decide("lt", v, Obj::int_of(0))) {
          v = num("add", v, size, loc);
          if (decide("lt", v, Obj::int_of(0))) v = Obj::int_of(0);
        } else if (decide("gt", v, size)) {
          v = size;
        }
        return v;
      };
      Obj start = bound(e.items[0], Obj::int_of(0));
      Obj stop = bound(e.items[1], size);
      bool from_zero = start.proxy.empty() && start.integer == 0;
      // Sizes are never negative, so a slice from 0 cannot end before it starts.
      if (!from_zero && decide("lt", stop, start)) stop = start;
      Obj length = from_zero ? stop : num("sub", stop, start, loc);
      if (step != 1) {
        Obj rounded = num("add", length, Obj::int_of(step - 1), loc);
        length = num("floordiv", rounded, Obj::int_of(step), loc);
      }
      if (!from_zero || stop.proxy != size.proxy || stop.integer != size.integer || step != 1)
        trivial = false;
      starts.push_back(start);
      ends.push_back(stop);
      strides.push_back(step);
      sliced_shape.push_back(length);
      out_shape.push_back(length);
      ++out_pos;
    }
    ++dim;
  }
  // Output shape with the new axes in place.
  std::vector<Obj> final_shape;
  {
    std::size_t src = 0;
    for (std::size_t pos = 0; pos < out_shape.size() + new_axes.size(); ++pos) {
      if (std::find(new_axes.begin(), new_axes.end(), static_cast<int64_t>(pos)) != new_axes.end())
        final_shape.push_back(Obj::int_of(1));
      else
        final_shape.push_back(out_shape[src++]);
    }
  }
  return composite("getitem", args_of(to_value(a), to_value(key)), [&] {
    Obj t = a;
    if (!trivial) {
      std::vector<Value> s, e;
      for (const Obj &o : starts)
        s.push_back(to_value(o));
      for (const Obj &o : ends)
        e.push_back(to_value(o));
      t = prim("slice_prim",
               args_of(to_value(a), Value::list(s), Value::list(e), int_list(strides)),
               like(a, sliced_shape));
    }
    if (!squeezed.empty())
      t = prim("squeeze", args_of(to_value(t), int_tuple(squeezed)), like(a, out_shape));
    if (!new_axes.empty()) {
      std::vector<int64_t> kept;
      for (std::size_t pos = 0; pos < final_shape.size(); ++pos)
        if (std::find(new_axes.begin(), new_axes.end(), static_cast<int64_t>(pos)) ==
            new_axes.end())
          kept.push_back(static_cast<int64_t>(pos));
      t = prim("broadcast_in_dim", args_of(to_value(t), list_of(final_shape), int_list(kept)),
               like(a, final_shape));
    }
    return t;
  });
}

Obj Recorder::tensor_op(const std::string &op, const std::vector<Obj> &args, const Loc &loc) {
  if (op == "add" || op == "sub" || op == "mul" || op == "div" || op == "pow")
    return elementwise(op, args[0], args[1], loc);
  if (op == "neg" || op == "exp" || op == "tanh" || op == "rsqrt" || op == "relu" || op == "silu" ||
      op == "sigmoid")
    return unary(op, args[0], loc);
  if (op == "gelu") return unary(args[1].text == "tanh" ? "gelu_tanh" : "gelu", args[0], loc);
  if (op == "softmax") return softmax(args[0], args[1].integer, loc);
  if (op == "sum" || op == "mean" || op == "amax")
    return reduce(op, args[0], args[1], args[2].boolean, loc);
  if (op == "reshape" || op == "view") return reshape(op, args[0], args[1], loc);
  if (op == "transpose" || op == "permute") {
    const Obj &a = args[0];
    std::vector<int64_t> perm(a.shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::vector<Value> printed;
    if (op == "transpose") {
      int64_t d0 = dim_index(args[1].integer, a.shape.size(), loc);
      int64_t d1 = dim_index(args[2].integer, a.shape.size(), loc);
      std::swap(perm[static_cast<std::size_t>(d0)], perm[static_cast<std::size_t>(d1)]);
      printed = {to_value(a), Value::int_value(args[1].integer), Value::int_value(args[2].integer)};
    } else {
      if (args[1].items.size() != a.shape.size())
        throw TraceError(loc, "permute: " + std::to_string(args[1].items.size()) +
                                  " dims for a tensor of rank " + std::to_string(a.shape.size()));
      std::vector<bool> seen(a.shape.size());
      for (std::size_t i = 0; i < perm.size(); ++i) {
        int64_t d = dim_index(args[1].items[i].integer, a.shape.size(), loc);
        if (seen[static_cast<std::size_t>(d)])
          throw TraceError(loc, "permute: dim " + std::to_string(d) + " appears twice");
        seen[static_cast<std::size_t>(d)] = true;
        perm[i] = d;
      }
      printed = {to_value(a), int_tuple(perm)};
    }
    std::vector<Obj> shape;
    for (int64_t p : perm)
      shape.push_back(a.shape[static_cast<std::size_t>(p)]);
    return composite(op, printed, [&] {
      return prim("transpose", args_of(to_value(a), int_tuple(perm)), like(a, shape));
    });
  }
  if (op == "unsqueeze") {
    const Obj &a = args[0];
    int64_t d = dim_index(args[1].integer, a.shape.size() + 1, loc);
    std::vector<Obj> shape = a.shape;
    shape.insert(shape.begin() + d, Obj::int_of(1));
    std::vector<int64_t> kept;
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (static_cast<int64_t>(i) != d) kept.push_back(static_cast<int64_t>(i));
    return composite("unsqueeze", args_of(to_value(a), Value::int_value(args[1].integer)), [&] {
      return prim("broadcast_in_dim", args_of(to_value(a), list_of(shape), int_list(kept)),
                  like(a, shape));
    });
  }
  if (op == "cat") return cat(args[0], args[1].integer, loc);
  if (op == "matmul") return matmul(args[0], args[1], loc);
  if (op == "linear") return linear(args[0], args[1], args[2], loc);
  if (op == "getitem") return getitem(args[0], args[1], loc);
  throw TraceError(loc, "the tracer has no rule for `" + op + "`");
}

} // namespace tracelint::tracer
