#include "tracelint/tracer/module_state.hpp"

#include "interpreter_impl.hpp"

#include <unordered_set>

namespace tracelint::tracer {

std::string state_name(const std::string &path) {
  std::string out = "t_";
  for (char c : path)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return out;
}

std::vector<StateEntry> module_state(Interpreter &in, const Obj &root, const Loc &loc) {
  std::vector<StateEntry> out;
  std::unordered_set<const Heap *> seen;
  auto add = [&](StateTensor::Kind kind, const std::string &path, const Obj &t) {
    if (t.kind != Obj::Kind::Tensor || !seen.insert(t.ref.get()).second) return;
    out.push_back({kind, path, t});
  };
  auto pairs = [&](const char *method) {
    std::vector<std::pair<std::string, Obj>> found;
    std::optional<Obj> f = find_attribute(in, root, method, loc);
    if (!f) return found;
    for (const Obj &pair : iterate(in, in.call(*f, {}, {}, loc), loc)) {
      std::vector<Obj> kv = iterate(in, pair, loc);
      if (kv.size() == 2 && kv[0].kind == Obj::Kind::Str) found.emplace_back(str_of(kv[0]), kv[1]);
    }
    return found;
  };
  for (const auto &[path, t] : pairs("named_parameters"))
    add(StateTensor::Kind::Parameter, path, t);
  for (const auto &[path, t] : pairs("named_buffers"))
    add(StateTensor::Kind::Buffer, path, t);
  // Other tensors held as plain attributes, module by module.
  std::vector<std::pair<std::string, Obj>> modules = pairs("named_modules");
  if (modules.empty()) modules.emplace_back("", root);
  for (const auto &[prefix, m] : modules) {
    if (m.kind != Obj::Kind::Instance) continue;
    const DictObj &dict = *m.as<InstanceObj>().dict;
    for (std::size_t i = 0; i < dict.keys.size(); ++i)
      if (dict.keys[i].kind == Obj::Kind::Str && dict.values[i].kind == Obj::Kind::Tensor)
        add(StateTensor::Kind::Attribute,
            prefix.empty() ? str_of(dict.keys[i]) : prefix + "." + str_of(dict.keys[i]),
            dict.values[i]);
  }
  return out;
}

} // namespace tracelint::tracer
