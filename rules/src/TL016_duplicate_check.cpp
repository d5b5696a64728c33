#include "tracelint/rules/rule.hpp"
#include "tracelint/tracer/symbols.hpp"

#include <map>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL016{
    "TL016",
    "duplicate-check",
    Severity::Warning,
    "A prologue checks the same tensor's metadata twice.",
    "A prologue validates each input once. Two metadata checks of one tensor "
    "(`prims.assert_tensor_metadata_impl` and `prims.check_tensor_metadata` in Thunder issue "
    "#528) mean two passes both emitted checks; the duplicate costs time on every call and "
    "hides which check is authoritative.",
    "def prologue(*args, **kwargs):\n  x: \"cpu f32[3]\" = args[0]\n"
    "  prims.check_tensor_metadata(x, (3,), 'cpu', torch.float32, False)\n"
    "  prims.check_tensor_metadata(x, (3,), 'cpu', torch.float32, False)\n  return (x,)\n",
    "def prologue(*args, **kwargs):\n  x: \"cpu f32[3]\" = args[0]\n"
    "  prims.check_tensor_metadata(x, (3,), 'cpu', torch.float32, False)\n  return (x,)\n",
    nullptr,
    statement_check};

namespace {
// Which calls are metadata checks is the op registry's knowledge (its METADATA tag), shared
// with the tracer that prints them. Printers import the prims under several names
// (prims.x, thunder.core.prims.x, a bare x), so only the last component is looked up.
bool is_metadata_check(const std::string &callee) {
  std::size_t dot = callee.rfind('.');
  return tracer::is_metadata_check_symbol(
      "prims." + (dot == std::string::npos ? callee : callee.substr(dot + 1)));
}

class DuplicateCheckCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &out) override {
    if (s.kind != Statement::Kind::BoundSymbol || s.target || s.value.kind != ValueKind::Call ||
        s.value.positional_count() == 0 || s.value.arg(0).kind != ValueKind::Name ||
        !is_metadata_check(s.value.callee().qualified_name()))
      return;
    if (&t != trace_) {
      trace_ = &t;
      checked_.clear();
    }
    const std::string &tensor = s.value.arg(0).text;
    auto [it, fresh] = checked_.emplace(tensor, s.span);
    if (fresh) return;
    Diagnostic d = kTL016.diagnostic(s.span, "the metadata of `" + tensor + "` is checked again");
    d.related.push_back({it->second, "first checked here"});
    out.push_back(std::move(d));
  }

  const Trace *trace_ = nullptr; // the trace `checked_` is about
  std::map<std::string, Span> checked_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<DuplicateCheckCheck>();
}
} // namespace

} // namespace tracelint
