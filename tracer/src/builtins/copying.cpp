// Builtins: the copy module (copy.copy and copy.deepcopy), as CPython's copy.py copies the
// interpreter's values: numbers, strings, functions, classes and modules are atoms; collections
// and instances are copied (deepcopy: their contents too, each object once, so shared and
// cyclic references stay shared); tensors made while a model is constructed are copied with
// their values. Each is registered by its id (builtins.def) in this family's table; dispatch.cpp
// reads it.
#include "builtin_family.hpp"

#include "../object_model.hpp"
#include "../torch_api.hpp"

#include <unordered_map>

namespace tracelint::tracer::builtins {

namespace {

class DeepCopier {
public:
  DeepCopier(Interpreter &in, const Loc &loc) : in_(in), loc_(loc) {}

  Obj copy(const Obj &o) {
    if (!o.ref || o.is_number() || is_atom(o.kind)) return o;
    if (auto it = memo_.find(o.ref.get()); it != memo_.end()) return it->second;
    switch (o.kind) {
    case Obj::Kind::Tuple:
    case Obj::Kind::List:
    case Obj::Kind::Set:
      return copy_sequence(o);
    case Obj::Kind::Dict:
      return copy_dict(o);
    case Obj::Kind::Slice: {
      const SliceObj &s = o.as<SliceObj>();
      return remember(o, Obj::slice(copy(s.start), copy(s.stop), copy(s.step)));
    }
    case Obj::Kind::Tensor:
      return remember(o, copy_tensor(in_, o, true, loc_));
    case Obj::Kind::Instance:
      return copy_instance(o);
    case Obj::Kind::BoundMethod: {
      // CPython rebuilds a bound method on the copy of its receiver.
      auto m = std::make_shared<BoundMethodObj>();
      m->function = o.as<BoundMethodObj>().function;
      m->self = copy(o.as<BoundMethodObj>().self);
      return remember(o, Obj::heap(Obj::Kind::BoundMethod, std::move(m)));
    }
    case Obj::Kind::Unknown:
      unknown_used(in_, o, loc_, "copied by copy.deepcopy");
    default:
      raise(in_, "TypeError", "cannot pickle '" + type_name(o) + "' object", loc_);
    }
  }

  // A deep copy is a new tensor of the same values: in the functional trace, the same proxy
  // (an in-place update of either then rebinds only that one, as Tensor.clone()); while a
  // model is constructed, its own copy of the values. A shallow copy shares the storage, which
  // the trace can only express for tensors it does not read.
  static Obj copy_tensor(Interpreter &in, const Obj &o, bool deep, const Loc &loc) {
    const TensorObj &t = o.as<TensorObj>();
    if (!deep && in.backend().tracing() && !t.name.empty())
      throw TraceError(loc, "unsupported construct: copy.copy of a tensor the computation reads "
                            "(it would share the storage, which an in-place update of either "
                            "changes): use copy.deepcopy or Tensor.clone()");
    Obj c = alias_tensor(t);
    if (deep) c.as<TensorObj>().data = in.backend().copy_values(t);
    return c;
  }

private:
  static bool is_atom(Obj::Kind k) {
    switch (k) {
    case Obj::Kind::Str:
    case Obj::Kind::DType:
    case Obj::Kind::Device:
    case Obj::Kind::Function:
    case Obj::Kind::Builtin:
    case Obj::Kind::Class:
    case Obj::Kind::Module:
    case Obj::Kind::Property:
    case Obj::Kind::ClassMethod:
    case Obj::Kind::StaticMethod:
      return true;
    default:
      return false;
    }
  }

  Obj remember(const Obj &original, Obj copied) {
    memo_.emplace(original.ref.get(), copied);
    return copied;
  }

  Obj copy_sequence(const Obj &o) {
    const SeqObj &s = o.as<SeqObj>();
    auto c = std::make_shared<SeqObj>(std::vector<Obj>{});
    c->named = s.named;
    // Remembered first, so a list that holds itself copies to one that holds its copy.
    Obj copied = remember(o, Obj::heap(o.kind, c));
    c->items.reserve(s.items.size());
    for (const Obj &item : s.items)
      c->items.push_back(copy(item));
    return copied;
  }

  Obj copy_dict(const Obj &o) {
    const DictObj &d = o.as<DictObj>();
    auto c = std::make_shared<DictObj>();
    c->flavor = d.flavor;
    Obj copied = remember(o, Obj::heap(Obj::Kind::Dict, c));
    c->default_factory = copy(d.default_factory);
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      c->set(copy(d.keys[i]), copy(d.values[i]));
    return copied;
  }

  Obj copy_instance(const Obj &o) {
    const InstanceObj &inst = o.as<InstanceObj>();
    if (inst.cls->lookup("__deepcopy__"))
      throw TraceError(loc_, "unsupported construct: copy.deepcopy of a " + inst.cls->name +
                                 ", whose class defines __deepcopy__");
    auto c = std::make_shared<InstanceObj>();
    c->cls = inst.cls;
    Obj copied = remember(o, Obj::heap(Obj::Kind::Instance, c));
    auto state = std::make_shared<DictObj>();
    const DictObj &d = *inst.dict;
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      state->set(copy(d.keys[i]), copy(d.values[i]));
    // As copy._reconstruct: the class's __setstate__ takes the copied state where it has one
    // (nn.Module's, and the transformer layers' that default a missing `activation`).
    if (inst.cls->lookup("__setstate__"))
      in_.call(attribute(in_, copied, "__setstate__", loc_),
               {Obj::heap(Obj::Kind::Dict, std::move(state))}, {}, loc_);
    else
      c->dict = std::move(state);
    return copied;
  }

  Interpreter &in_;
  const Loc &loc_;
  std::unordered_map<const Heap *, Obj> memo_;
};

Obj call_deepcopy(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                  const Loc &loc) {
  no_keywords(in, fn.name, kwargs, loc);
  arity(in, fn.name, args, 1, 1, loc);
  return DeepCopier(in, loc).copy(args[0]);
}

// copy.copy: a new collection or instance holding the same objects.
Obj call_shallow_copy(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                      const Loc &loc) {
  no_keywords(in, fn.name, kwargs, loc);
  arity(in, fn.name, args, 1, 1, loc);
  const Obj &o = args[0];
  switch (o.kind) {
  case Obj::Kind::List:
  case Obj::Kind::Set: {
    auto c = std::make_shared<SeqObj>(o.as<SeqObj>().items);
    return Obj::heap(o.kind, std::move(c));
  }
  case Obj::Kind::Dict: {
    auto c = std::make_shared<DictObj>(o.as<DictObj>());
    return Obj::heap(Obj::Kind::Dict, std::move(c));
  }
  case Obj::Kind::Instance: {
    const InstanceObj &inst = o.as<InstanceObj>();
    if (inst.cls->lookup("__copy__"))
      throw TraceError(loc, "unsupported construct: copy.copy of a " + inst.cls->name +
                                ", whose class defines __copy__");
    auto c = std::make_shared<InstanceObj>();
    c->cls = inst.cls;
    c->dict = std::make_shared<DictObj>(*inst.dict);
    return Obj::heap(Obj::Kind::Instance, std::move(c));
  }
  case Obj::Kind::Tensor:
    return DeepCopier::copy_tensor(in, o, false, loc);
  case Obj::Kind::Unknown:
    unknown_used(in, o, loc, "copied by copy.copy");
  default: // immutable values (a tuple included) are their own copy
    return o;
  }
}

} // namespace

std::span<const Entry> copy_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::deepcopy, call_deepcopy},
      {Builtin::shallow_copy, call_shallow_copy},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
