#include "tracelint/tracer/object.hpp"

#include "excerpt.hpp"

#include <array>
#include <cmath>

namespace tracelint::tracer {

namespace {

const std::string kNoProxy;

} // namespace

Obj Obj::str(std::string s) {
  return heap(Kind::Str, std::make_shared<StrObj>(std::move(s)));
}
Obj Obj::tuple(std::vector<Obj> items) {
  return heap(Kind::Tuple, std::make_shared<SeqObj>(std::move(items)));
}
Obj Obj::list(std::vector<Obj> items) {
  return heap(Kind::List, std::make_shared<SeqObj>(std::move(items)));
}
Obj Obj::set(std::vector<Obj> items) {
  return heap(Kind::Set, std::make_shared<SeqObj>(std::move(items)));
}
Obj Obj::dict() {
  return heap(Kind::Dict, std::make_shared<DictObj>());
}
Obj Obj::slice(Obj start, Obj stop, Obj step) {
  auto s = std::make_shared<SliceObj>();
  s->start = std::move(start);
  s->stop = std::move(stop);
  s->step = std::move(step);
  return heap(Kind::Slice, std::move(s));
}
Obj Obj::device_of(std::string spec) {
  return heap(Kind::Device, std::make_shared<DeviceObj>(std::move(spec)));
}

Obj Obj::with_proxy(std::string name) const {
  Obj o = *this;
  o.ref = std::make_shared<ProxyName>(std::move(name));
  return o;
}

const std::string &Obj::proxy() const {
  if (!ref || !is_number()) return kNoProxy;
  return static_cast<const ProxyName &>(*ref).name;
}

std::optional<bool> equal_atoms(const Obj &a, const Obj &b) {
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
  case Obj::Kind::None:
  case Obj::Kind::Ellipsis:
  case Obj::Kind::NotImplemented:
    return true;
  case Obj::Kind::Str:
    return a.as<StrObj>().value == b.as<StrObj>().value;
  case Obj::Kind::DType:
    return a.integer == b.integer;
  case Obj::Kind::Device:
    return a.as<DeviceObj>().spec == b.as<DeviceObj>().spec;
  default:
    return std::nullopt;
  }
}

namespace {

// Python's == on the constants that can be dict keys; objects by identity.
bool same_key(const Obj &a, const Obj &b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind == Obj::Kind::Float || b.kind == Obj::Kind::Float)
      return a.as_double() == b.as_double();
    return a.integer == b.integer;
  }
  if (a.kind != b.kind) return false;
  if (std::optional<bool> same = equal_atoms(a, b)) return *same;
  switch (a.kind) {
  case Obj::Kind::Tuple: {
    const auto &x = a.as<SeqObj>().items, &y = b.as<SeqObj>().items;
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same_key(x[i], y[i])) return false;
    return true;
  }
  default:
    return a.ref == b.ref;
  }
}

} // namespace

namespace {

// Moves the items of every collection only `pending` holds into `pending`, so that each is
// freed empty: a loop instead of one level of stack per level of nesting.
void release(std::vector<Obj> &pending) {
  while (!pending.empty()) {
    Obj o = std::move(pending.back());
    pending.pop_back();
    if (!o.ref || o.ref.use_count() != 1) continue;
    if (o.kind == Obj::Kind::Tuple || o.kind == Obj::Kind::List || o.kind == Obj::Kind::Set) {
      std::vector<Obj> &items = o.as<SeqObj>().items;
      for (Obj &item : items)
        pending.push_back(std::move(item));
      items.clear();
    } else if (o.kind == Obj::Kind::Dict) {
      DictObj &d = o.as<DictObj>();
      for (Obj &item : d.values)
        pending.push_back(std::move(item));
      d.values.clear();
      d.keys.clear();
    }
  }
}

} // namespace

SeqObj::~SeqObj() {
  release(items);
}

DictObj::~DictObj() {
  release(values);
}

std::ptrdiff_t DictObj::find(const Obj &key) const {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (same_key(keys[i], key)) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

const Obj *DictObj::get(const Obj &key) const {
  std::ptrdiff_t i = find(key);
  return i < 0 ? nullptr : &values[static_cast<std::size_t>(i)];
}

const Obj *DictObj::get(std::string_view key) const {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i].kind == Obj::Kind::Str && keys[i].as<StrObj>().value == key) return &values[i];
  return nullptr;
}

void DictObj::set(Obj key, Obj value) {
  std::ptrdiff_t i = find(key);
  if (i >= 0) {
    values[static_cast<std::size_t>(i)] = std::move(value);
    return;
  }
  keys.push_back(std::move(key));
  values.push_back(std::move(value));
}

bool DictObj::erase(const Obj &key) {
  std::ptrdiff_t i = find(key);
  if (i < 0) return false;
  keys.erase(keys.begin() + i);
  values.erase(values.begin() + i);
  return true;
}

const Obj *ClassObj::lookup(std::string_view attribute) const {
  for (const ClassObj *c : mro)
    if (const Obj *v = c->attributes.get(attribute)) return v;
  return nullptr;
}

bool ClassObj::is_subclass_of(const ClassObj &other) const {
  for (const ClassObj *c : mro)
    if (c == &other) return true;
  return false;
}

namespace {
constexpr std::size_t kIndexFrom = 24;
}

Obj *Env::find(std::string_view name) {
  if (index_) {
    auto it = index_->find(name);
    return it == index_->end() ? nullptr : &vars[it->second].second;
  }
  for (auto &[n, v] : vars)
    if (n == name) return &v;
  return nullptr;
}

void Env::set(std::string_view name, Obj value) {
  if (Obj *v = find(name)) {
    *v = std::move(value);
    return;
  }
  vars.emplace_back(std::string(name), std::move(value));
  if (index_) {
    index_->emplace(vars.back().first, vars.size() - 1);
  } else if (vars.size() >= kIndexFrom) {
    index_ =
        std::make_unique<std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>>>();
    for (std::size_t i = 0; i < vars.size(); ++i)
      index_->emplace(vars[i].first, i);
  }
}

void Env::clear() {
  // Moved out first: releasing a value can release other scopes, which may refer to this one.
  std::vector<std::pair<std::string, Obj>> released = std::move(vars);
  vars.clear();
  index_.reset();
  parent.reset();
}

bool Env::erase(std::string_view name) {
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (vars[i].first == name) {
      vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(i));
      if (index_) {
        index_->clear();
        for (std::size_t j = 0; j < vars.size(); ++j)
          index_->emplace(vars[j].first, j);
      }
      return true;
    }
  return false;
}

std::string type_name(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::None:
    return "NoneType";
  case Obj::Kind::Ellipsis:
    return "ellipsis";
  case Obj::Kind::NotImplemented:
    return "NotImplementedType";
  case Obj::Kind::Bool:
    return "bool";
  case Obj::Kind::Int:
    return "int";
  case Obj::Kind::Float:
    return "float";
  case Obj::Kind::Str:
    return "str";
  case Obj::Kind::Tuple:
    return "tuple";
  case Obj::Kind::List:
    return "list";
  case Obj::Kind::Dict:
    return o.as<DictObj>().flavor == DictObj::Flavor::Ordered   ? "OrderedDict"
           : o.as<DictObj>().flavor == DictObj::Flavor::Default ? "defaultdict"
                                                                : "dict";
  case Obj::Kind::Set:
    return "set";
  case Obj::Kind::Slice:
    return "slice";
  case Obj::Kind::Tensor:
    return o.as<TensorObj>().is_parameter ? "Parameter" : "Tensor";
  case Obj::Kind::DType:
    return "dtype";
  case Obj::Kind::Device:
    return "device";
  case Obj::Kind::Function:
    return "function";
  case Obj::Kind::BoundMethod:
    return "method";
  case Obj::Kind::Builtin:
    return "builtin_function_or_method";
  case Obj::Kind::Class:
    return "type";
  case Obj::Kind::Instance:
    return o.as<InstanceObj>().cls->name;
  case Obj::Kind::Module:
    return "module";
  case Obj::Kind::Property:
    return "property";
  case Obj::Kind::ClassMethod:
    return "classmethod";
  case Obj::Kind::StaticMethod:
    return "staticmethod";
  case Obj::Kind::Super:
    return "super";
  case Obj::Kind::Cell:
    return "cell";
  case Obj::Kind::Generator:
    return "generator";
  case Obj::Kind::Unknown:
    return "object";
  }
  return "object";
}

std::string describe(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::Tensor: {
    const TensorObj &t = o.as<TensorObj>();
    std::string out = std::string("tensor ") + dtype_info(t.dtype).short_name + "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i)
      out += (i ? ", " : "") + std::to_string(t.shape[i].integer);
    return out + "]";
  }
  case Obj::Kind::Function:
    return "function `" + excerpt(o.as<FunctionObj>().qualname) + "`";
  case Obj::Kind::Builtin:
    return "`" + excerpt(o.as<BuiltinObj>().name) + "`";
  case Obj::Kind::Class:
    return "class `" + excerpt(o.as<ClassObj>().name) + "`";
  case Obj::Kind::Instance:
    return "a `" + excerpt(o.as<InstanceObj>().cls->name) + "` object";
  case Obj::Kind::Module:
    return "module `" + excerpt(o.as<ModuleObj>().name) + "`";
  case Obj::Kind::Unknown:
    return "`" + excerpt(o.as<UnknownObj>().what) + "` (not modelled by the tracer)";
  case Obj::Kind::DType:
    return std::string("dtype torch.") + dtype_info(o.dtype()).torch_name;
  default:
    return type_name(o);
  }
}

} // namespace tracelint::tracer
