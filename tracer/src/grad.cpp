#include "grad.hpp"

#include "dce.hpp"
#include "ops/gradients.hpp"
#include "torch_api.hpp"
#include "tracelint/tracer/registry.hpp"

#include <algorithm>

namespace tracelint::tracer {

namespace {

bool has_gradient_dtype(const Obj &t) {
  return is_floating(t.as<TensorObj>().dtype) || is_complex(t.as<TensorObj>().dtype);
}

const std::string &name_of(const Obj &t) {
  return t.as<TensorObj>().name;
}

// Whether o holds a tensor named in `names`.
bool reads_any(const Obj &o, const std::unordered_set<std::string> &names) {
  std::vector<Obj> tensors;
  tensors_of(o, tensors);
  return std::any_of(tensors.begin(), tensors.end(),
                     [&](const Obj &t) { return names.count(name_of(t)) > 0; });
}

// Every name a statement binds, its subsymbols' included.
template <class F> void for_each_bound(const Statement &s, F &&f) {
  if (s.target) s.target->for_each_bound_name([&](const Target &t) { f(t.name); });
  for (const Statement &sub : s.subsymbols)
    for_each_bound(sub, f);
}

} // namespace

void tensors_of(const Obj &o, std::vector<Obj> &out) {
  switch (o.kind) {
  case Obj::Kind::Tensor:
    out.push_back(o);
    return;
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
    for (const Obj &item : o.as<SeqObj>().items)
      tensors_of(item, out);
    return;
  case Obj::Kind::Dict:
    for (const Obj &v : o.as<DictObj>().values)
      tensors_of(v, out);
    return;
  default:
    return;
  }
}

BackwardRecording record_backward(Recorder &r, const std::vector<TapeEntry> &tape,
                                  const Obj &result,
                                  const std::unordered_set<std::string> &requires_grad,
                                  const Loc &loc) {
  const Registry &registry = Registry::get();
  // Which tensors depend on an input that requires grad (Thunder's requires_grad propagation):
  // only their prims are differentiated.
  std::unordered_set<std::string> needs = requires_grad;
  for (const TapeEntry &e : tape) {
    if (registry.op(e.prim).vjp == &ops::no_gradient) continue;
    if (!std::any_of(e.args.begin(), e.args.end(),
                     [&](const Obj &a) { return reads_any(a, needs); }))
      continue;
    std::vector<Obj> outs;
    tensors_of(e.out, outs);
    for (const Obj &o : outs)
      if (has_gradient_dtype(o)) needs.insert(name_of(o));
  }

  BackwardRecording b;
  std::unordered_map<std::string, Obj> grads; // the cotangent of each forward tensor so far
  auto accumulate = [&](const Obj &x, const Obj &g, const Loc &at) {
    auto [it, fresh] = grads.try_emplace(name_of(x), g);
    if (!fresh) it->second = ops::grad::add(r, it->second, g, at);
  };
  std::vector<Obj> outputs;
  tensors_of(result, outputs);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const Obj &o = outputs[i];
    if (!needs.count(name_of(o)) || !has_gradient_dtype(o)) continue;
    Obj cotangent = alias_tensor(o.as<TensorObj>());
    cotangent.as<TensorObj>().name = r.fresh("t");
    cotangent.as<TensorObj>().requires_grad = false;
    b.cotangents.push_back(cotangent);
    b.cotangent_of.push_back(i);
    accumulate(o, cotangent, loc);
  }

  for (auto e = tape.rbegin(); e != tape.rend(); ++e) {
    const OpDef &op = registry.op(e->prim);
    if (op.vjp == &ops::no_gradient) continue;
    Obj cotangent;
    if (e->out.kind == Obj::Kind::Tensor) {
      auto g = grads.find(name_of(e->out));
      if (g == grads.end()) continue;
      cotangent = g->second;
    } else if (e->out.kind == Obj::Kind::Tuple || e->out.kind == Obj::Kind::List) {
      // A prim of several outputs: zeros for those without a cotangent.
      const std::vector<Obj> &outs = e->out.as<SeqObj>().items;
      bool any = false;
      for (const Obj &o : outs)
        any = any || (o.kind == Obj::Kind::Tensor && grads.count(name_of(o)));
      if (!any) continue;
      std::vector<Obj> items;
      for (const Obj &o : outs) {
        auto g = o.kind == Obj::Kind::Tensor ? grads.find(name_of(o)) : grads.end();
        items.push_back(g != grads.end()              ? g->second
                        : o.kind == Obj::Kind::Tensor ? ops::grad::zeros_like(r, o, e->loc)
                                                      : Obj::none());
      }
      cotangent = Obj::tuple(std::move(items));
    } else {
      continue;
    }
    std::vector<Obj> arg_grads = op.vjp(r, e->args, e->out, cotangent, e->loc);
    for (std::size_t k = 0; k < e->args.size() && k < arg_grads.size(); ++k) {
      const Obj &a = e->args[k];
      const Obj &g = arg_grads[k];
      if (a.kind == Obj::Kind::Tensor) {
        if (g.kind == Obj::Kind::Tensor && needs.count(name_of(a))) accumulate(a, g, e->loc);
      } else if ((a.kind == Obj::Kind::Tuple || a.kind == Obj::Kind::List) &&
                 (g.kind == Obj::Kind::Tuple || g.kind == Obj::Kind::List)) {
        const std::vector<Obj> &as = a.as<SeqObj>().items, &gs = g.as<SeqObj>().items;
        for (std::size_t j = 0; j < as.size() && j < gs.size(); ++j)
          if (as[j].kind == Obj::Kind::Tensor && gs[j].kind == Obj::Kind::Tensor &&
              needs.count(name_of(as[j])))
            accumulate(as[j], gs[j], e->loc);
      }
    }
  }
  for (const std::string &name : requires_grad)
    if (auto g = grads.find(name); g != grads.end()) b.gradients.emplace(name, g->second);
  b.body = r.take_body();
  b.hidden_reads = r.take_hidden_reads();
  return b;
}

std::vector<std::string>
outside_reads(const std::vector<Statement> &body,
              const std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
              const std::vector<bool> &keep, const Value &returned) {
  std::unordered_set<std::string> bound, seen;
  std::vector<std::string> reads;
  auto read = [&](std::string_view name) {
    // The Python types a number prim names (prims.convert_element_type(i0, float)) are
    // builtins, never the trace's variables (the tracer reserves their names).
    if (name == "int" || name == "float" || name == "bool") return;
    std::string n(name);
    if (!bound.count(n) && seen.insert(n).second) reads.push_back(std::move(n));
  };
  std::size_t h = 0;
  for (std::size_t k = 0; k < body.size(); ++k) {
    const Statement &s = body[k];
    bool kept = keep[k] && s.kind == Statement::Kind::BoundSymbol;
    for (; h < hidden_reads.size() && hidden_reads[h].first == k; ++h)
      if (kept) read(hidden_reads[h].second);
    if (!kept) continue;
    for_each_read_name(s.value, [&](const Value &v) { read(v.text); });
    if (s.type_comment && s.type_comment->type)
      for_each_type_symbol(s.type_comment->type->text, read);
    for_each_bound(s, [&](const std::string &name) { bound.insert(name); });
  }
  for_each_name(returned, [&](const Value &v) { read(v.text); });
  return reads;
}

void expose(std::vector<Statement> &body,
            std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
            const std::unordered_set<std::string> &names) {
  auto hides = [&](const Statement &s) {
    if (s.subsymbols.empty()) return false;
    bool hidden = false;
    for (const Statement &sub : s.subsymbols)
      for_each_bound(sub, [&](const std::string &n) { hidden = hidden || names.count(n); });
    return hidden;
  };
  if (std::none_of(body.begin(), body.end(), hides)) return;
  std::vector<Statement> out;
  std::vector<std::size_t> moved_to(body.size());
  std::vector<bool> flattened(body.size(), false);
  for (std::size_t k = 0; k < body.size(); ++k) {
    if (hides(body[k])) {
      flattened[k] = true;
      flatten(std::move(body[k]), out);
      moved_to[k] = out.size() - 1;
    } else {
      moved_to[k] = out.size();
      out.push_back(std::move(body[k]));
    }
  }
  // A flattened composite's prims read at top level what were its hidden reads.
  std::erase_if(hidden_reads, [&](const auto &h) { return flattened[h.first]; });
  for (auto &h : hidden_reads)
    h.first = moved_to[h.first];
  body = std::move(out);
}

namespace {

// names, = source: Thunder's bare unpack with its trailing comma, one name per line with a
// backslash when long.
Statement unpack(const std::vector<std::string> &names, const std::string &source) {
  std::vector<Target> targets;
  for (const std::string &n : names)
    targets.push_back(Target::named(n));
  Statement s = Statement::bound(Target::tuple(std::move(targets)), Value::name(source));
  constexpr std::size_t kLongUnpack = 8;
  s.style = names.size() > kLongUnpack ? UnpackStyle::Continued : UnpackStyle::Bare;
  s.trailing_comma = true;
  return s;
}

} // namespace

Training record_training(Recorder &r, std::vector<Statement> &forward,
                         std::vector<std::pair<std::size_t, std::string>> &forward_hidden_reads,
                         const Obj &result, const std::vector<ForwardInput> &forward_inputs,
                         const std::unordered_set<std::string> &requires_grad, Level level,
                         const Loc &loc) {
  r.set_taping(false);
  r.set_provenance(false);
  std::vector<TapeEntry> tape = r.take_tape();
  BackwardRecording b = record_backward(r, tape, result, requires_grad, loc);
  r.take_tensor_bytes(); // a run's estimate is the forward's

  Training t;
  t.cotangent_of = b.cotangent_of;
  std::vector<Value> gradient_values;
  for (const auto &[name, g] : b.gradients) {
    t.gradients.emplace(name, to_value(g, loc));
    gradient_values.push_back(to_value(g, loc));
  }
  Value returned = Value::tuple(std::move(gradient_values));
  std::unordered_set<std::string> unused;
  std::vector<bool> keep = live_statements(b.body, b.hidden_reads, returned, unused);
  std::vector<std::string> reads = outside_reads(b.body, b.hidden_reads, keep, returned);
  // The cotangents' annotations name sizes too.
  for (const Obj &c : b.cotangents)
    for_each_type_symbol(type_string(c), [&](std::string_view n) {
      if (std::find(reads.begin(), reads.end(), n) == reads.end()) reads.emplace_back(n);
    });

  // Where each name of the forward is made, and which are tensors.
  std::unordered_map<std::string, std::size_t> made_at;
  std::unordered_set<std::string> tensors;
  for (const ForwardInput &in : forward_inputs) {
    made_at.emplace(in.name, made_at.size());
    if (in.tensor) tensors.insert(in.name);
  }
  for (const Statement &s : forward)
    for_each_bound(s, [&](const std::string &n) { made_at.emplace(n, made_at.size()); });
  for (const TapeEntry &e : tape) {
    std::vector<Obj> ts;
    for (const Obj &a : e.args)
      tensors_of(a, ts);
    tensors_of(e.out, ts);
    for (const Obj &x : ts)
      tensors.insert(name_of(x));
  }
  std::unordered_set<std::string> cotangent_names;
  for (const Obj &c : b.cotangents)
    cotangent_names.insert(name_of(c));
  std::vector<std::string> saved_tensors, saved_numbers;
  for (const std::string &name : reads) {
    if (cotangent_names.count(name)) continue;
    if (!made_at.count(name))
      throw TraceError(loc, "the backward reads `" + name +
                                "`, which the forward does not make (a VJP rule of the op "
                                "registry records what it cannot read)");
    (tensors.count(name) ? saved_tensors : saved_numbers).push_back(name);
  }
  auto by_forward_order = [&](const std::string &a, const std::string &b) {
    return made_at.at(a) < made_at.at(b);
  };
  std::sort(saved_tensors.begin(), saved_tensors.end(), by_forward_order);
  std::sort(saved_numbers.begin(), saved_numbers.end(), by_forward_order);
  expose(forward, forward_hidden_reads,
         std::unordered_set<std::string>(saved_tensors.begin(), saved_tensors.end()));
  auto names = [](const std::vector<std::string> &ns) {
    std::vector<Value> out;
    for (const std::string &n : ns)
      out.push_back(Value::name(n));
    return Value::tuple(std::move(out));
  };
  t.saved_for_backward = Value::tuple({names(saved_tensors), names(saved_numbers)});

  // backward_fn(saved_for_backward, cotangents): each collection unpacked, then freed.
  Trace &bw = t.backward;
  bw.preamble = {PreambleItem::blank()};
  bw.name = "backward_fn";
  bw.parameters = {Parameter{"saved_for_backward", ParamKind::Positional, {}, {}},
                   Parameter{"cotangents", ParamKind::Positional, {}, {}}};
  std::vector<Statement> &out = bw.body;
  out.push_back(Statement::annotation_comment("saved_for_backward", "Collection"));
  out.push_back(Statement::annotation_comment("cotangents", "Collection"));
  std::string tensors_collection = saved_tensors.empty() ? "_" : r.fresh("C");
  std::string numbers_collection = saved_numbers.empty() ? "_" : r.fresh("C");
  out.push_back(unpack({tensors_collection, numbers_collection}, "saved_for_backward"));
  for (const std::string &c : {tensors_collection, numbers_collection})
    if (c != "_") out.push_back(Statement::annotation_comment(c, "Collection"));
  out.push_back(Statement::del({"saved_for_backward"}));
  std::vector<std::string> cotangents;
  for (const Obj &c : b.cotangents)
    cotangents.push_back(name_of(c));
  if (!cotangents.empty()) out.push_back(unpack(cotangents, "cotangents"));
  out.push_back(Statement::del({"cotangents"}));
  auto unpack_saved = [&](const std::vector<std::string> &saved, const std::string &collection) {
    if (saved.empty()) return;
    out.push_back(unpack(saved, collection));
    out.push_back(Statement::del({collection}));
  };
  unpack_saved(saved_tensors, tensors_collection);
  unpack_saved(saved_numbers, numbers_collection);
  // The cotangents' types name sizes that the unpacks above bind.
  for (const Obj &c : b.cotangents)
    out.push_back(Statement::annotation_comment(name_of(c), type_string(c)));
  for (std::size_t k = 0; k < b.body.size(); ++k) {
    if (!keep[k]) continue;
    if (level == Level::Prims)
      flatten(std::move(b.body[k]), out);
    else
      out.push_back(std::move(b.body[k]));
  }
  return t;
}

} // namespace tracelint::tracer
