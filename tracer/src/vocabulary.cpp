// The op registry as its users read it: what `tracelint trace --list-ops` prints.
#include "tracelint/tracer/registry.hpp"

#include "fusion.hpp"

#include "tracelint/tracer/tracer.hpp"

namespace tracelint::tracer {

namespace {

std::vector<std::string> tag_names(const OpDef &op) {
  static const std::pair<uint16_t, const char *> names[] = {{tags::CHECK, "check"},
                                                            {tags::NEVER_DCE, "never-dce"},
                                                            {tags::ELEMENTWISE, "elementwise"},
                                                            {tags::REDUCTION, "reduction"},
                                                            {tags::SHAPE, "shape"},
                                                            {tags::FACTORY, "factory"},
                                                            {tags::RANDOM, "random"},
                                                            {tags::METADATA, "metadata"},
                                                            {tags::THUNDER_ONLY, "thunder-only"}};
  std::vector<std::string> out;
  for (auto [tag, name] : names)
    if (has_tag(op.sym, tag)) out.emplace_back(name);
  if (op.view) out.emplace_back("view");
  // A prim's VJP rule (the grad transform's): what the backward of --grad records for it.
  if (is_prim(op.sym)) out.emplace_back(op.vjp == &ops::no_gradient ? "no-gradient" : "vjp");
  return out;
}

} // namespace

std::vector<OpEntry> op_vocabulary() {
  const Registry &registry = Registry::get();
  std::vector<OpEntry> out;
  for (SymModule module : {SymModule::ltorch, SymModule::prims})
    for (std::size_t i = 0; i < kSymbolCount; ++i) {
      auto sym = static_cast<Sym>(i);
      if (symbol_name(sym).module != module) continue;
      const OpDef &op = registry.op(sym);
      OpEntry e;
      e.name = qualified_name(sym);
      e.signature = op.signature;
      for (const std::string &p : op.python) {
        std::optional<Registry::Spelling> s = registry.python(p);
        e.spellings.push_back(s && s->inplace ? p + " (in place)" : p);
      }
      e.tags = tag_names(op);
      e.torch_only = op.torch_only;
      out.push_back(std::move(e));
    }
  return out;
}

std::vector<std::string> op_registry_problems() {
  std::vector<std::string> problems = Registry::get().problems();
  for (std::string &p : fusible_problems())
    problems.push_back(std::move(p));
  return problems;
}

} // namespace tracelint::tracer
