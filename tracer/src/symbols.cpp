#include "tracelint/tracer/symbols.hpp"

#include <algorithm>
#include <array>

namespace tracelint::tracer {

namespace {

using namespace tags;

constexpr std::array<SymbolName, kSymbolCount> kNames = {{
#define TRACELINT_SYMBOL(module, name, tags) {SymModule::module, #name, static_cast<uint8_t>(tags)},
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

bool is_check_symbol(std::string_view qualified) {
  std::size_t dot = qualified.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view module = qualified.substr(0, dot);
  // prims.x, thunder.core.prims.x
  if (module != "prims" && !module.ends_with(".prims")) return false;
  std::optional<Sym> s = find_symbol("prims", qualified.substr(dot + 1));
  return s && has_tag(*s, CHECK);
}

} // namespace tracelint::tracer
