#include "tracelint/rules/rule.hpp"

#include <set>
#include <string_view>

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL012{
    "TL012",
    "missing-import",
    Severity::Warning,
    "A module the trace uses (torch, prims, ltorch, ...) is never imported.",
    "Thunder prints the imports a trace needs above its decorators. Traces copied into docs "
    "and issues often lose that header, and some printers forget a module (`ltorch` used "
    "with only `import torch`). The fix inserts the import Thunder would print. Reported once "
    "per module and trace.",
    "import torch\n\ndef computation(a):\n  t0 = ltorch.exp(a)\n  return t0\n",
    "import thunder.torch as ltorch\nimport torch\n\ndef computation(a):\n  t0 = ltorch.exp(a)\n"
    "  return t0\n",
    check};

namespace {
// Where a trace's imports go: before its first import, else after its leading comments.
std::size_t import_offset(const CheckContext &ctx, const Trace &t) {
  for (const PreambleItem &item : t.preamble)
    if (item.kind == PreambleItem::Kind::Import) return item.span.begin;
  std::size_t offset = 0;
  for (const PreambleItem &item : t.preamble)
    if (item.kind == PreambleItem::Kind::Comment && item.span.valid())
      offset = ctx.parsed.source.line_start(item.span.line + 1 <= ctx.parsed.source.line_count()
                                                ? item.span.line + 1
                                                : item.span.line);
  if (offset == 0 && !t.preamble.empty() && t.preamble.front().span.valid())
    offset = t.preamble.front().span.begin;
  if (offset == 0 && t.def_span.valid() && t.decorators.empty())
    offset = ctx.parsed.source.line_start(t.def_span.line);
  if (offset == 0 && !t.decorators.empty() && t.decorators.front().span.valid())
    offset = ctx.parsed.source.line_start(t.decorators.front().span.line);
  // A UTF-8 byte-order mark stays first: CPython rejects U+FEFF anywhere else.
  const std::string_view bom = "\xEF\xBB\xBF";
  if (offset < bom.size() && std::string_view(ctx.parsed.source.text()).substr(0, 3) == bom)
    offset = bom.size();
  return offset;
}

} // namespace

// A read nothing binds of a module Thunder's traces use (torch, ltorch, prims, ...).
bool missing_module_import(const UnresolvedRead &read) {
  return read.freed == UnresolvedRead::Freed::No && known_module_import(read.name) != nullptr;
}

namespace {
// Fires once per module and trace; the fix adds the import Thunder prints.
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const TraceFacts &facts : ctx.analysis.traces) {
    std::set<std::string> seen;
    for (const UnresolvedRead &read : facts.unresolved) {
      if (!missing_module_import(read) || !seen.insert(read.name).second) continue;
      const std::string *import = known_module_import(read.name);
      Diagnostic d = kTL012.diagnostic(read.span, "`" + read.name + "` is used but never imported");
      if (import && facts.trace->kind != Trace::Kind::Fragment) {
        std::size_t at = import_offset(ctx, *facts.trace);
        d.fix = Fix{"add `" + *import + "`",
                    {Edit{at, at, *import + std::string(ctx.parsed.source.newline())}}};
      }
      out.push_back(std::move(d));
    }
  }
}
} // namespace

} // namespace tracelint
