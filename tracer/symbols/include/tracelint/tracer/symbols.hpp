#pragma once
// The index of the op registry: every symbol a trace may call (symbols.def), by id. The
// tracer, the executor and the validator name symbols through it, never by a string of their
// own.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tracelint::tracer {

enum class Sym : uint16_t {
#define TRACELINT_SYMBOL(module, name, tags) module##_##name,
#include "tracelint/tracer/symbols.def"
#undef TRACELINT_SYMBOL
};

inline constexpr std::size_t kSymbolCount = 0
#define TRACELINT_SYMBOL(module, name, tags) +1
#include "tracelint/tracer/symbols.def"
#undef TRACELINT_SYMBOL
    ;

enum class SymModule : uint8_t { prims, ltorch };

namespace tags {
inline constexpr uint16_t CHECK = 1;
inline constexpr uint16_t NEVER_DCE = 2;
inline constexpr uint16_t ELEMENTWISE = 4;
inline constexpr uint16_t REDUCTION = 8;
inline constexpr uint16_t SHAPE = 16;
inline constexpr uint16_t FACTORY = 32;
inline constexpr uint16_t RANDOM = 64;
inline constexpr uint16_t METADATA = 128;
inline constexpr uint16_t THUNDER_ONLY = 256;
} // namespace tags

struct SymbolName {
  SymModule module;
  std::string_view name; // as printed after the module: add, gelu
  uint16_t tags;
};

const SymbolName &symbol_name(Sym s);
inline const char *module_name(SymModule m) {
  return m == SymModule::prims ? "prims" : "ltorch";
}
// "prims.add"
std::string qualified_name(Sym s);
inline bool has_tag(Sym s, uint16_t tag) {
  return (symbol_name(s).tags & tag) != 0;
}
inline bool is_prim(Sym s) {
  return symbol_name(s).module == SymModule::prims;
}

// The symbol printed as module.name, if the registry has one.
std::optional<Sym> find_symbol(std::string_view module, std::string_view name);
// Whether a dotted name (prims.check_len, thunder.core.prims.check_len) is a prologue check
// of the registry.
bool is_check_symbol(std::string_view qualified);
// Whether it is a check of a tensor's metadata (prims.check_tensor_shape_and_metadata), or
// the implementation an executor prints for one (prims.assert_tensor_metadata_impl): what
// TL016 counts.
bool is_metadata_check_symbol(std::string_view qualified);

} // namespace tracelint::tracer
