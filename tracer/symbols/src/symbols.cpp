#include "tracelint/tracer/symbols.hpp"

#include <algorithm>
#include <array>

namespace tracelint::tracer {

namespace {

using namespace tags;

constexpr std::array<SymbolName, kSymbolCount> kNames = {{
#define TRACELINT_SYMBOL(module, name, tags)                                                       \
  {SymModule::module, #name, static_cast<uint16_t>(tags)},
#include "tracelint/tracer/symbols.def"
#undef TRACELINT_SYMBOL
}};

} // namespace

const SymbolName &symbol_name(Sym s) {
  return kNames[static_cast<std::size_t>(s)];
}

std::string qualified_name(Sym s) {
  const SymbolName &n = symbol_name(s);
  std::string out = module_name(n.module);
  out += '.';
  out += n.name;
  return out;
}

std::optional<Sym> find_symbol(std::string_view module, std::string_view name) {
  SymModule m;
  if (module == "prims")
    m = SymModule::prims;
  else if (module == "ltorch")
    m = SymModule::ltorch;
  else
    return std::nullopt;
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i].module == m && kNames[i].name == name) return static_cast<Sym>(i);
  return std::nullopt;
}

namespace {
// The prims symbol a dotted name calls (prims.x, thunder.core.prims.x), if the registry has it.
std::optional<Sym> called_prim(std::string_view qualified) {
  std::size_t dot = qualified.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view module = qualified.substr(0, dot);
  if (module != "prims" && !module.ends_with(".prims")) return std::nullopt;
  return find_symbol("prims", qualified.substr(dot + 1));
}
} // namespace

bool is_check_symbol(std::string_view qualified) {
  std::optional<Sym> s = called_prim(qualified);
  return s && has_tag(*s, CHECK);
}

bool is_metadata_check_symbol(std::string_view qualified) {
  // Thunder's torch executor prints the check it runs as the symbol's _impl.
  constexpr std::string_view impl = "_impl";
  if (qualified.ends_with(impl)) qualified.remove_suffix(impl.size());
  std::optional<Sym> s = called_prim(qualified);
  return s && has_tag(*s, METADATA);
}

} // namespace tracelint::tracer
