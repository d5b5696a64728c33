#include "recorder.hpp"

#include "excerpt.hpp"
#include "memory_estimate.hpp"
#include "torch_api.hpp"
#include "tracelint/tracer/registry.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/core/type_string.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace tracelint::tracer {

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
    const TensorObj &x = o.as<TensorObj>();
    std::string out;
    append_tensor_type(out, x.device, dtype_info(x.dtype).short_name, x.shape.size(),
                       [&](std::size_t i) {
                         return DimSpelling{x.shape[i].proxy(), x.shape[i].integer};
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

Value to_value(const Obj &o, const Loc &loc) {
  switch (o.kind) {
  case Obj::Kind::None:
    return Value::none();
  case Obj::Kind::Ellipsis:
    return Value::ellipsis();
  case Obj::Kind::Bool:
    return o.is_proxy() ? Value::name(o.proxy()) : Value::boolean_value(o.boolean);
  case Obj::Kind::Int:
    return o.is_proxy() ? Value::name(o.proxy()) : Value::int_value(o.integer);
  case Obj::Kind::Float:
    return o.is_proxy() ? Value::name(o.proxy()) : Value::float_value(o.real);
  case Obj::Kind::Str:
    return Value::string(o.as<StrObj>().value);
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    std::vector<Value> items;
    items.reserve(o.as<SeqObj>().items.size());
    for (const Obj &item : o.as<SeqObj>().items)
      items.push_back(to_value(item, loc));
    return o.kind == Obj::Kind::Tuple ? Value::tuple(std::move(items))
                                      : Value::list(std::move(items));
  }
  case Obj::Kind::Dict: {
    const DictObj &d = o.as<DictObj>();
    std::vector<std::pair<Value, Value>> entries;
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      entries.emplace_back(to_value(d.keys[i], loc), to_value(d.values[i], loc));
    return Value::dict(std::move(entries));
  }
  case Obj::Kind::Slice: {
    const SliceObj &s = o.as<SliceObj>();
    return Value::slice(to_value(s.start, loc), to_value(s.stop, loc), to_value(s.step, loc));
  }
  case Obj::Kind::Tensor: {
    const TensorObj &t = o.as<TensorObj>();
    if (t.name.empty())
      throw TraceError(loc, "a tensor made while the module was constructed (" + describe(o) +
                                ") is used here, but it is none of the module's parameters, "
                                "buffers or tensor attributes: the trace cannot take it as an "
                                "input (register it with register_buffer)");
    return Value::name(t.name);
  }
  case Obj::Kind::DType:
    // Thunder's spelling: dtypes.bool8, the others as torch names them.
    return Value::dtype(dtype_info(o.dtype()).thunder_name);
  case Obj::Kind::Device:
    return Value::device(o.as<DeviceObj>().spec);
  default:
    throw TraceError(loc, describe(o) + " cannot be an argument of a traced operation");
  }
}

Recorder::Recorder(CacheMode cache, const Module &module, bool provenance)
    : cache_(cache), module_(module), provenance_(provenance) {
  // About a symbol per source line, and its provenance comment: fewer moves of the body.
  body_.reserve(module.source->line_count() * (provenance ? 2 : 1));
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

void Recorder::at_statement(const Stmt &s, const Module &m) {
  if (!provenance_ || !recording_) return;
  if (s.loc.line == 0 || s.loc.line > m.source->line_count()) return;
  std::string_view line = m.source->line(s.loc.line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  // The traced file as the user named it; a module it imports by its path.
  pending_provenance_ =
      "# " + (&m == &module_ ? module_.path : m.path) + ":" + std::to_string(s.loc.line) + ": ";
  pending_provenance_ += line;
}

namespace {

// prims.name: the callee a recorded symbol's call prints, built as the model spells it (an
// Attribute of a Name) without a dotted string to split again.
Value callee_of(Sym s) {
  const SymbolName &n = symbol_name(s);
  return Value::attribute(Value::name(module_name(n.module)), std::string(n.name));
}

// The arguments of a call, moved in (an initializer list would copy each Value).
template <class... V> std::vector<Value> values_of(V &&...v) {
  std::vector<Value> out;
  out.reserve(sizeof...(v));
  (out.push_back(std::forward<V>(v)), ...);
  return out;
}

// The outputs' names (fresh ones for tensors and numbers of the result) as a target.
Target output_target(const Obj &out) {
  if (out.kind == Obj::Kind::Tuple || out.kind == Obj::Kind::List) {
    std::vector<Target> items;
    for (const Obj &o : out.as<SeqObj>().items)
      items.push_back(output_target(o));
    return Target::tuple(std::move(items));
  }
  if (out.kind == Obj::Kind::Tensor) return Target::named(out.as<TensorObj>().name);
  return Target::named(out.proxy());
}

} // namespace

Statement &Recorder::bind_statement() {
  if (sink_ == &body_) return top_statement();
  Statement &s = sink_->emplace_back();
  s.commented = true; // a subsymbol of the composite being recorded
  return s;
}

// Names the output's tensors and numbers and makes s `names = value  # name: "type"`.
void Recorder::bind_output(Statement &s, Value value, Obj &out) {
  s.kind = Statement::Kind::BoundSymbol;
  s.value = std::move(value);
  s.target = output_target(out);
  if (out.kind == Obj::Kind::Tensor || out.is_number()) {
    const std::string &name = s.target->name;
    s.type_comment = TypeComment{name, TypeText{type_string(out), {}}, {}};
    if (out.kind == Obj::Kind::Tensor) tensor_bytes_.emplace_back(name, tensor_bytes(out));
  } else {
    for (const Obj &o : out.as<SeqObj>().items)
      if (o.kind == Obj::Kind::Tensor)
        tensor_bytes_.emplace_back(o.as<TensorObj>().name, tensor_bytes(o));
  }
}

namespace {

// A copy of o whose tensors are copies: what they are now, whatever happens to them later.
Obj snapshot(const Obj &o) {
  if (o.kind == Obj::Kind::Tensor) return alias_tensor(o.as<TensorObj>());
  if (o.kind == Obj::Kind::Tuple || o.kind == Obj::Kind::List) {
    std::vector<Obj> items;
    for (const Obj &item : o.as<SeqObj>().items)
      items.push_back(snapshot(item));
    return o.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  return o;
}
std::vector<Obj> snapshot(const std::vector<Obj> &objs) {
  std::vector<Obj> out;
  out.reserve(objs.size());
  for (const Obj &o : objs)
    out.push_back(snapshot(o));
  return out;
}

// Gives each tensor and number of a prim's output template a fresh name.
void name_outputs(Recorder &r, Obj &out) {
  if (out.kind == Obj::Kind::Tensor) {
    out.as<TensorObj>().name = r.fresh("t");
  } else if (out.is_number()) {
    out = out.with_proxy(r.fresh(proxy_prefix(out)));
  } else if (out.kind == Obj::Kind::Tuple || out.kind == Obj::Kind::List) {
    for (Obj &o : out.as<SeqObj>().items)
      name_outputs(r, o);
  }
}

} // namespace

Obj Recorder::prim(Sym p, std::vector<Obj> args, const Loc &loc) {
  const OpDef &op = Registry::get().op(p);
  Obj out = op.meta(*this, args, loc);
  if (!recording_) return out;
  Value call = call_value(p, args);
  name_outputs(*this, out);
  bind_output(bind_statement(), std::move(call), out);
  if (taping_) tape_.push_back(TapeEntry{p, snapshot(args), snapshot(out), loc});
  return out;
}

Value Recorder::call_value(Sym symbol, const std::vector<Obj> &args) const {
  const OpDef &op = Registry::get().op(symbol);
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;
  bool omitted = false; // a positional parameter left out: the ones after it go by name
  for (std::size_t i = 0; i < args.size() && i < op.params.size(); ++i) {
    const SchemaParam &p = op.params[i];
    Value value = to_value(args[i]);
    if (op.is_torch_only(p.name) && print_value(value) == print_value(to_value(*p.default_value))) {
      omitted = true;
      continue;
    }
    if (p.kind == Param::Kind::VarArgs) {
      // One tuple: ltorch.reshape(a, (2, 6, 3)), as x.reshape((2, 6, 3)) spells it.
      positional.push_back(std::move(value));
    } else if (p.kind == Param::Kind::VarKeywords) {
      continue;
    } else if (p.kind == Param::Kind::KeywordOnly || op.is_by_name(p.name) ||
               (omitted && p.kind == Param::Kind::Positional)) {
      omitted = omitted || op.is_by_name(p.name);
      keywords.emplace_back(p.name, std::move(value));
    } else {
      positional.push_back(std::move(value));
    }
  }
  return Value::call(callee_of(symbol), std::move(positional), std::move(keywords));
}

template <class F> Obj Recorder::composite(Value call, F &&decompose) {
  std::vector<Statement> subsymbols;
  subsymbols.reserve(4); // most decompositions; a Statement is large to move
  std::vector<Statement> *outer = sink_;
  sink_ = &subsymbols;
  Obj out;
  try {
    out = decompose();
  } catch (...) {
    sink_ = outer;
    throw;
  }
  sink_ = outer;
  if (subsymbols.empty()) return out; // the operation was the identity: nothing to record
  bool top_level = sink_ == &body_;
  Statement &s = bind_statement();
  bind_output(s, std::move(call), out);
  s.subsymbols = std::move(subsymbols);
  if (top_level) note_hidden_reads(s);
  return out;
}

Obj Recorder::call(Sym symbol, std::vector<Obj> args, const Loc &loc) {
  const OpDef &op = Registry::get().op(symbol);
  if (!recording_) return op.decompose(*this, args, loc);
  // Printed from the arguments as given, before the decomposition runs.
  Value printed = call_value(symbol, args);
  return composite(std::move(printed), [&] { return op.decompose(*this, args, loc); });
}

Obj Recorder::call_symbol(Sym symbol, std::vector<Obj> args, const Loc &loc) {
  Obj result = call(symbol, std::move(args), loc);
  if (progress_ && recording_) progress_(body_.size());
  return result;
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

Obj Recorder::record_number(Sym p, std::vector<Value> args, Obj result) {
  // The same operation on the same operands is recorded once.
  Value call = Value::call(callee_of(p), std::move(args));
  std::string key = print_value(call);
  auto seen = number_memo_.find(key);
  if (seen != number_memo_.end()) return seen->second;
  result = result.with_proxy(fresh(proxy_prefix(result)));
  number_memo_[key] = result;
  // At top level even during a composite's decomposition: sizes are computed before the symbol.
  Statement &s = top_statement();
  s.kind = Statement::Kind::BoundSymbol;
  s.target = Target::named(result.proxy());
  s.value = std::move(call);
  s.type_comment = TypeComment{result.proxy(), TypeText{type_string(result), {}}, {}};
  number_index_[result.proxy()] = number_defs_.size();
  number_defs_.push_back(s);
  return result;
}

namespace {

// A number operand as the key of a number operation: a proxy by its name, a constant by its
// kind and value.
void append_operand_key(std::string &key, const Obj &o) {
  key += ' ';
  if (o.is_proxy()) {
    key += 'p'; // never a constant's code: a proxy named i0 is not the constant 0
    key += o.proxy();
    return;
  }
  char digits[32];
  char *end = o.kind == Obj::Kind::Float
                  ? std::to_chars(digits, digits + sizeof digits, o.real).ptr
                  : std::to_chars(digits, digits + sizeof digits, o.integer).ptr;
  key += o.kind == Obj::Kind::Float ? 'f' : o.kind == Obj::Kind::Bool ? 'b' : 'i';
  key.append(digits, end);
}

Obj plain(Obj o) {
  o.ref.reset();
  return o;
}

} // namespace

Obj Recorder::num(NumOp op, const Obj &a, const Obj &b, const Loc &loc) {
  if (!a.is_proxy() && !b.is_proxy()) return compute_number(op, {plain(a), plain(b)}, loc);
  if (std::optional<Obj> same = simplified(op, a, b)) return *same;
  // Its prims are recorded once (record_number): a repeat, such as the element count of each
  // reshape of the same tensor, is found by its operands before any call is built and printed.
  std::string key(1, static_cast<char>('A' + static_cast<int>(op)));
  append_operand_key(key, a);
  append_operand_key(key, b);
  auto seen = number_results_.find(key);
  if (seen != number_results_.end()) return seen->second;
  std::vector<Obj> args = {a, b};
  Obj result = number_op(op, args, compute_number(op, {plain(a), plain(b)}, loc), loc);
  number_results_.emplace(std::move(key), result);
  if (op == NumOp::sub && result.is_proxy() && a.kind == Obj::Kind::Int && b.kind == Obj::Kind::Int)
    differences_.emplace(result.proxy(), std::make_pair(a, b));
  return result;
}

std::optional<Obj> Recorder::simplified(NumOp op, const Obj &a, const Obj &b) const {
  // Integer identities only (a float's x + 0.0 is x too, but -0.0 + 0.0 is not -0.0).
  if (a.kind != Obj::Kind::Int || b.kind != Obj::Kind::Int) return std::nullopt;
  auto is = [](const Obj &x, int64_t v) { return !x.is_proxy() && x.integer == v; };
  auto same = [](const Obj &x, const Obj &y) {
    return x.is_proxy() == y.is_proxy() &&
           (x.is_proxy() ? x.proxy() == y.proxy() : x.integer == y.integer);
  };
  switch (op) {
  case NumOp::add: {
    if (is(b, 0)) return a;
    if (is(a, 0)) return b;
    // x + (z - x) is z: a backward's sizes (a slice's padding) add back up to the forward's.
    for (auto [x, y] : {std::pair<const Obj *, const Obj *>{&a, &b}, {&b, &a}})
      if (y->is_proxy())
        if (auto d = differences_.find(y->proxy());
            d != differences_.end() && same(d->second.second, *x))
          return d->second.first;
    return std::nullopt;
  }
  case NumOp::sub:
    if (is(b, 0)) return a;
    if (same(a, b)) return Obj::int_of(0); // a slice from 0 to i0 of a dim of i0 pads nothing
    return std::nullopt;
  case NumOp::mul:
    if (is(b, 1)) return a;
    if (is(a, 1)) return b;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool Recorder::decide(NumOp comparison, const Obj &a, const Obj &b, const Loc &loc) {
  Obj r = num(comparison, a, b, loc);
  guard(r, loc);
  return r.boolean;
}

bool Recorder::same_size(const Obj &a, const Obj &b, const Loc &loc) {
  if (!a.is_proxy() && !b.is_proxy()) return a.integer == b.integer;
  if (a.is_proxy() && b.is_proxy() && a.proxy() == b.proxy()) return true;
  return decide(NumOp::eq, a, b, loc);
}

int64_t Recorder::concrete(const Obj &o, const Loc &loc, const std::string &what) {
  if (o.kind != Obj::Kind::Int && o.kind != Obj::Kind::Bool)
    throw TraceError(loc, what + " must be an int, not " + describe(o));
  if (o.is_proxy()) guard(o, loc);
  return o.integer;
}

Obj Recorder::number_op(NumOp op, const std::vector<Obj> &args, Obj result, const Loc &loc) {
  result.ref.reset();
  if (!recording_) return result;
  auto v = [&](const Obj &o) { return to_value(o, loc); };
  auto to = [&](const Obj &x, const char *type, Obj value) {
    return record_number(Sym::prims_convert_element_type, values_of(v(x), Value::name(type)),
                         std::move(value));
  };
  const Obj &a = args[0];
  switch (op) {
  case NumOp::neg:
    return record_number(Sym::prims_neg, values_of(v(a)), result);
  case NumOp::abs:
    return record_number(Sym::prims_abs, values_of(v(a)), result);
  case NumOp::to_int:
    return to(a, "int", result);
  case NumOp::to_float:
    return to(a, "float", result);
  case NumOp::sqrt:
  case NumOp::exp:
  case NumOp::log:
  case NumOp::sin:
  case NumOp::cos:
  case NumOp::tanh:
  case NumOp::trunc: {
    Sym p = op == NumOp::sqrt   ? Sym::prims_sqrt
            : op == NumOp::exp  ? Sym::prims_exp
            : op == NumOp::log  ? Sym::prims_log
            : op == NumOp::sin  ? Sym::prims_sin
            : op == NumOp::cos  ? Sym::prims_cos
            : op == NumOp::tanh ? Sym::prims_tanh
                                : Sym::prims_trunc;
    Obj x = a.kind == Obj::Kind::Float ? a : to(a, "float", Obj::float_of(a.as_double()));
    Obj r = record_number(p, values_of(v(x)), Obj::float_of(result.as_double()));
    return op == NumOp::trunc ? to(r, "int", result) : r;
  }
  case NumOp::floor:
  case NumOp::ceil: {
    // math.floor and math.ceil give ints.
    if (a.kind != Obj::Kind::Float) return a;
    Obj r = record_number(op == NumOp::floor ? Sym::prims_floor : Sym::prims_ceil, values_of(v(a)),
                          Obj::float_of(static_cast<double>(result.integer)));
    return to(r, "int", result);
  }
  default:
    break;
  }
  const Obj &b = args[1];
  auto as_float = [&](const Obj &x) {
    if (x.kind == Obj::Kind::Float) return x;
    if (!x.is_proxy()) return Obj::float_of(x.as_double());
    return to(x, "float", Obj::float_of(x.as_double()));
  };
  // Thunder's number prims take operands of one Python type: an int beside a float becomes a
  // float first, as Thunder's own number wrappers do (prims.pow(i0, 0.5) is refused).
  bool mixed = (a.kind == Obj::Kind::Float) != (b.kind == Obj::Kind::Float);
  auto binary = [&](Sym p) {
    Obj x = mixed ? as_float(a) : a, y = mixed ? as_float(b) : b;
    return record_number(p, values_of(v(x), v(y)), result);
  };
  switch (op) {
  case NumOp::add:
    return binary(Sym::prims_add);
  case NumOp::sub:
    return binary(Sym::prims_sub);
  case NumOp::mul:
    return binary(Sym::prims_mul);
  case NumOp::pow:
    return binary(Sym::prims_pow);
  case NumOp::lt:
    return binary(Sym::prims_lt);
  case NumOp::le:
    return binary(Sym::prims_le);
  case NumOp::gt:
    return binary(Sym::prims_gt);
  case NumOp::ge:
    return binary(Sym::prims_ge);
  case NumOp::eq:
    return binary(Sym::prims_eq);
  case NumOp::ne:
    return binary(Sym::prims_ne);
  case NumOp::bitwise_and:
    return binary(Sym::prims_bitwise_and);
  case NumOp::bitwise_or:
    return binary(Sym::prims_bitwise_or);
  case NumOp::bitwise_xor:
    return binary(Sym::prims_bitwise_xor);
  case NumOp::exact_div:
    return binary(Sym::prims_div);
  case NumOp::truediv: {
    Obj fa = as_float(a), fb = as_float(b);
    return record_number(Sym::prims_div, values_of(v(fa), v(fb)), result);
  }
  case NumOp::floordiv: {
    if (result.kind == Obj::Kind::Float) {
      Obj q = number_op(NumOp::truediv, args, Obj::float_of(a.as_double() / b.as_double()), loc);
      return record_number(Sym::prims_floor, values_of(v(q)), result);
    }
    // Thunder's integer floor division: truncating division, minus one where the signs
    // differ and the remainder is not zero.
    auto signbit = [&](const Obj &x) {
      Obj value = Obj::boolean_of(x.integer < 0);
      return !x.is_proxy() ? value : record_number(Sym::prims_signbit, values_of(v(x)), value);
    };
    Obj sa = signbit(a), sb = signbit(b);
    Obj differ = record_number(Sym::prims_ne, values_of(v(sa), v(sb)),
                               Obj::boolean_of(sa.boolean != sb.boolean));
    Obj rem = record_number(Sym::prims_fmod, values_of(v(a), v(b)),
                            Obj::float_of(std::fmod(a.as_double(), b.as_double())));
    Obj rem_int = to(rem, "int", Obj::int_of(static_cast<int64_t>(rem.real)));
    Obj nonzero = record_number(Sym::prims_ne, values_of(v(rem_int), Value::int_value(0)),
                                Obj::boolean_of(rem_int.integer != 0));
    Obj offset = record_number(Sym::prims_bitwise_and, values_of(v(differ), v(nonzero)),
                               Obj::boolean_of(differ.boolean && nonzero.boolean));
    Obj quotient =
        record_number(Sym::prims_div, values_of(v(a), v(b)), Obj::int_of(a.integer / b.integer));
    Obj offset_int = to(offset, "int", Obj::int_of(offset.boolean ? 1 : 0));
    return record_number(Sym::prims_sub, values_of(v(quotient), v(offset_int)), result);
  }
  case NumOp::mod: {
    Obj quotient = num(NumOp::floordiv, a, b, loc);
    Obj product = num(NumOp::mul, quotient, b, loc);
    Obj r = num(NumOp::sub, a, product, loc);
    r.integer = result.integer;
    r.real = result.real;
    return r;
  }
  default:
    throw TraceError(loc, std::string("the tracer cannot record `") + num_op_symbol(op) +
                              "` on a symbolic number");
  }
}

void Recorder::guard(const Obj &value, const Loc &) {
  if (!value.is_proxy() || !recording_) return;
  for (const auto &g : guards_)
    if (g.first == value.proxy()) return;
  guards_.emplace_back(value.proxy(), plain(value));
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
    for_each_read_name(number_defs_[it->second].value,
                       [&](const Value &v) { stack.push_back(v.text); });
  }
  std::vector<Statement> out;
  for (std::size_t i : needed)
    out.push_back(number_defs_[i]);
  for (const auto &[name, value] : guards_)
    out.push_back(Statement::bound(std::nullopt,
                                   Value::call(callee_of(Sym::prims_check_number_type_and_value),
                                               values_of(Value::name(name), to_value(value)))));
  return out;
}

} // namespace tracelint::tracer
