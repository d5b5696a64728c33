#include "tracelint/rules/rule.hpp"

#include <optional>

namespace tracelint {

namespace {
std::unique_ptr<StatementCheck> statement_check();
}

extern const Rule kTL020{
    "TL020",
    "nvfuser-inputs-arity",
    Severity::Error,
    "An nvFuser repro's `inputs` list does not match the definition's inputs.",
    "What it does: in an nvFuser repro script, counts the fusion definition's inputs (each "
    "`fd.define_tensor(...)`, and each `fd.define_scalar(...)` without a value: one with a value "
    "is a constant) and compares them with the `inputs = [...]` list the script passes to "
    "`fd.execute(inputs)`. Why it matters: `fd.execute` binds the list to the definition's "
    "inputs in order, so a repro with an input too many or too few fails before it reproduces "
    "anything, or, worse, binds a tensor to the wrong input when two have the same shape "
    "(a repro whose tensors were pruned by hand, or that was pasted from another fusion). "
    "Outputs that name nothing defined (`fd.add_output(T99)`) are TL003. Example: three "
    "`define_tensor` calls and `inputs = [a, b]`. Use instead: one entry per input, in the "
    "order they are defined.",
    "def nvfuser_fusion_id0(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float)\n"
    "    T1 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float)\n"
    "    T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)\n\n"
    "with FusionDefinition() as fd:\n    nvfuser_fusion_id0(fd)\n\n"
    "inputs = [\n    torch.ones((4,), device='cuda:0'),\n]\nfd.execute(inputs)\n",
    "def nvfuser_fusion_id0(fd : FusionDefinition) -> None :\n"
    "    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float)\n"
    "    T1 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float)\n"
    "    T2 = fd.ops.add(T0, T1)\n    fd.add_output(T2)\n\n"
    "with FusionDefinition() as fd:\n    nvfuser_fusion_id0(fd)\n\n"
    "inputs = [\n    torch.ones((4,), device='cuda:0'),\n    torch.ones((4,), device='cuda:0'),\n"
    "]\nfd.execute(inputs)\n",
    nullptr,
    statement_check};

namespace {
bool ends_with(const std::string &s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

class InputsCheck : public StatementCheck {
  void statement(const Trace &t, const Statement &s, std::vector<Diagnostic> &) override {
    if (s.kind != Statement::Kind::BoundSymbol) return;
    if (t.kind == Trace::Kind::Function && s.value.kind == ValueKind::Call) {
      std::string callee = s.value.callee().qualified_name();
      if (ends_with(callee, ".define_tensor")) {
        ++defined_;
        if (!first_definition_.valid()) first_definition_ = s.span;
      } else if (ends_with(callee, ".define_scalar")) {
        bool constant = s.value.positional_count() > 0 && s.value.arg(0).kind != ValueKind::None;
        if (!constant) {
          ++defined_;
          if (!first_definition_.valid()) first_definition_ = s.span;
        }
      }
      return;
    }
    if (t.kind != Trace::Kind::Function && s.target && s.target->kind == Target::Kind::Name &&
        s.target->name == "inputs" &&
        (s.value.kind == ValueKind::List || s.value.kind == ValueKind::Tuple) && !inputs_)
      inputs_ = std::make_pair(s.value.items.size(), s.target->span);
  }

  void finish(const CheckContext &ctx, std::vector<Diagnostic> &out) override {
    if (ctx.analysis.dialect != Dialect::Nvfuser || !inputs_ || inputs_->first == defined_) return;
    Diagnostic d = kTL020.diagnostic(
        inputs_->second, "`inputs` has " + std::to_string(inputs_->first) + " entr" +
                             (inputs_->first == 1 ? "y" : "ies") + " but the fusion defines " +
                             std::to_string(defined_) + " input" + (defined_ == 1 ? "" : "s") +
                             " (define_tensor, and define_scalar without a value)");
    if (first_definition_.valid()) d.related.push_back({first_definition_, "the first input"});
    out.push_back(std::move(d));
  }

  std::size_t defined_ = 0;
  Span first_definition_;
  std::optional<std::pair<std::size_t, Span>> inputs_;
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<InputsCheck>();
}
} // namespace

} // namespace tracelint
