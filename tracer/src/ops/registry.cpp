#include "tracelint/tracer/registry.hpp"

#include "../excerpt.hpp"

#include <algorithm>

namespace tracelint::tracer {

namespace {

std::vector<SchemaParam> parse_schema(const std::string &signature, std::string &problem) {
  Result<std::vector<Param>> params = parse_parameters(signature);
  if (!params) {
    problem = params.error().message;
    return {};
  }
  std::vector<SchemaParam> out;
  for (const Param &p : params.value()) {
    SchemaParam s;
    s.name = p.name;
    s.kind = p.kind;
    if (p.default_value) {
      try {
        s.default_value = literal_object(*p.default_value);
      } catch (const TraceError &e) {
        problem = "the default of `" + p.name + "`: " + e.what();
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

// The parameters a comma-separated list names (OpSpec::torch_only, OpSpec::by_name), each of
// which must be one of the schema's with a default, else a problem of the registry.
std::vector<std::string> declared_params(const OpDef &op, std::string_view list,
                                         const std::string &name, const char *what,
                                         std::vector<std::string> &problems) {
  std::vector<std::string> out;
  for (std::string_view rest = list; !rest.empty();) {
    std::size_t comma = std::min(rest.find(','), rest.size());
    std::string_view param = rest.substr(0, comma);
    while (param.starts_with(' '))
      param.remove_prefix(1);
    auto declared = std::find_if(op.params.begin(), op.params.end(),
                                 [&](const SchemaParam &p) { return p.name == param; });
    if (declared == op.params.end() || !declared->default_value)
      problems.push_back(name + ": `" + std::string(param) + "` is " + what +
                         " but not a parameter with a default");
    out.emplace_back(param);
    rest.remove_prefix(std::min(comma + 1, rest.size()));
  }
  return out;
}

} // namespace

Registry::Registry() : ops_(kSymbolCount) {
  std::vector<OpSpec> specs;
  ops::define_elementwise_ops(specs);
  ops::define_activation_ops(specs);
  ops::define_reduction_ops(specs);
  ops::define_shape_ops(specs);
  ops::define_indexing_ops(specs);
  ops::define_nn_ops(specs);
  ops::define_convolution_ops(specs);
  ops::define_pooling_ops(specs);
  ops::define_resampling_ops(specs);
  ops::define_factory_ops(specs);
  ops::define_check_ops(specs);
  std::vector<bool> defined(kSymbolCount, false);
  for (OpSpec &spec : specs) {
    std::size_t i = static_cast<std::size_t>(spec.sym);
    std::string name = qualified_name(spec.sym);
    if (defined[i]) {
      problems_.push_back(name + " is defined twice");
      continue;
    }
    defined[i] = true;
    OpDef &op = ops_[i];
    op.sym = spec.sym;
    op.signature = spec.signature;
    std::string problem;
    op.params = parse_schema(op.signature, problem);
    if (!problem.empty())
      problems_.push_back(name + ": its schema `" + op.signature + "`: " + problem);
    op.python = std::move(spec.python);
    op.view = spec.view;
    op.decompose = spec.decompose;
    op.meta = spec.meta;
    op.vjp = spec.vjp;
    op.normalize = spec.normalize;
    op.write_back = spec.write_back;
    op.torch_only = declared_params(op, spec.torch_only, name, "torch-only", problems_);
    op.by_name = declared_params(op, spec.by_name, name, "printed by name", problems_);
    if (is_prim(spec.sym) && !op.meta)
      problems_.push_back(name + " is a prim without a shape rule");
    if (is_prim(spec.sym) && !op.vjp)
      problems_.push_back(name + " is a prim without a VJP rule (give it one, or "
                                 "ops::no_gradient where it has no gradients)");
    if (!is_prim(spec.sym) && op.vjp)
      problems_.push_back(name + ": an ltorch symbol is differentiated through its "
                                 "decomposition, not a VJP rule of its own");
    if (!is_prim(spec.sym) && !op.decompose)
      problems_.push_back(name + " is an ltorch symbol without a decomposition");
    for (const std::string &p : op.python) {
      Spelling s;
      s.op = &op;
      std::size_t dot = p.rfind('.');
      std::string_view method = std::string_view(p).substr(dot + 1);
      s.inplace = p.starts_with("Tensor.") && method.ends_with("_") && !method.starts_with("__");
      spellings_.emplace_back(p, s);
    }
  }
  for (std::size_t i = 0; i < kSymbolCount; ++i)
    if (!defined[i])
      problems_.push_back(qualified_name(static_cast<Sym>(i)) + " has no definition");
  std::sort(spellings_.begin(), spellings_.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  for (std::size_t i = 1; i < spellings_.size(); ++i)
    if (spellings_[i].first == spellings_[i - 1].first)
      problems_.push_back("`" + spellings_[i].first + "` names two symbols");
}

bool OpDef::is_torch_only(const std::string &param) const {
  return std::find(torch_only.begin(), torch_only.end(), param) != torch_only.end();
}

bool OpDef::is_by_name(const std::string &param) const {
  return std::find(by_name.begin(), by_name.end(), param) != by_name.end();
}

void ops::by_name(std::vector<OpSpec> &specs, Sym sym, const char *params) {
  for (OpSpec &spec : specs)
    if (spec.sym == sym) spec.by_name = params;
}

void ops::torch_only(std::vector<OpSpec> &specs, Sym sym, const char *params) {
  for (OpSpec &spec : specs)
    if (spec.sym == sym) spec.torch_only = params;
}

std::vector<Obj> ops::no_gradient(Recorder &, const std::vector<Obj> &args, const Obj &,
                                  const Obj &, const Loc &) {
  return std::vector<Obj>(args.size(), Obj::none());
}

const Registry &Registry::get() {
  static const Registry registry;
  return registry;
}

std::optional<Registry::Spelling> Registry::python(std::string_view spelled) const {
  auto it = std::lower_bound(spellings_.begin(), spellings_.end(), spelled,
                             [](const auto &entry, std::string_view s) { return entry.first < s; });
  if (it == spellings_.end() || it->first != spelled) return std::nullopt;
  return it->second;
}

bool Registry::has_tensor_method(std::string_view name) const {
  return python("Tensor." + std::string(name)).has_value();
}

std::vector<Obj> Registry::bind(const OpDef &op, std::vector<Obj> args, Kwargs kwargs,
                                const std::string &spelled, const Loc &loc) const {
  const std::vector<SchemaParam> &params = op.params;
  std::vector<std::optional<Obj>> bound(params.size());
  std::size_t next = 0;
  std::vector<Obj> extra;
  constexpr std::size_t kNone = SIZE_MAX;
  std::size_t varargs = kNone;
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].kind == Param::Kind::VarArgs) varargs = i;
  for (Obj &a : args) {
    while (next < params.size() && params[next].kind == Param::Kind::KeywordOnly)
      ++next;
    if (next == varargs) {
      extra.push_back(std::move(a));
      continue;
    }
    if (next >= params.size()) {
      std::size_t positional = 0;
      for (const SchemaParam &p : params)
        positional += p.kind == Param::Kind::Positional || p.kind == Param::Kind::PositionalOnly;
      throw TraceError(loc, "`" + spelled + "` takes at most " + std::to_string(positional) +
                                " positional argument" + (positional == 1 ? "" : "s") + ", got " +
                                std::to_string(args.size()));
    }
    bound[next++] = std::move(a);
  }
  for (auto &[key, value] : kwargs) {
    std::size_t i = 0;
    while (i < params.size() &&
           !(params[i].name == key && params[i].kind != Param::Kind::PositionalOnly))
      ++i;
    if (i == params.size())
      throw TraceError(loc, "`" + spelled + "` got an unexpected keyword argument `" +
                                excerpt(key) + "`");
    if (i == varargs) {
      if (!extra.empty())
        throw TraceError(loc, "`" + spelled + "` got two values for `" + excerpt(key) + "`");
      extra.push_back(std::move(value));
      continue;
    }
    if (bound[i])
      throw TraceError(loc, "`" + spelled + "` got two values for `" + excerpt(key) + "`");
    bound[i] = std::move(value);
  }
  std::vector<Obj> out;
  out.reserve(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (i == varargs) {
      // x.view(2, 3) and x.view((2, 3)) mean the same.
      if (extra.size() == 1 && extra[0].is_sequence())
        out.push_back(Obj::tuple(extra[0].as<SeqObj>().items));
      else
        out.push_back(Obj::tuple(std::move(extra)));
      continue;
    }
    if (!bound[i] && !params[i].default_value)
      throw TraceError(loc, "`" + spelled + "` is missing the argument `" + params[i].name + "`");
    out.push_back(bound[i] ? std::move(*bound[i]) : *params[i].default_value);
  }
  if (op.normalize) op.normalize(out, loc);
  return out;
}

} // namespace tracelint::tracer
