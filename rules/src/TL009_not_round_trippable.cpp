#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
std::unique_ptr<StatementCheck> statement_check();
} // namespace

extern const Rule kTL009{
    "TL009",
    "not-round-trippable",
    Severity::Warning,
    "A value the trace model cannot represent, so print(parse(trace)) would change it.",
    "A trace's values must be ones the printer can print back exactly: literals, dtypes, "
    "devices, names, tuples, lists, dicts, slices and calls. Anything else (an operator "
    "expression, `torch.Size([2])` where a tuple is meant, a dtype spelled with a doubled prefix "
    "such as `dtypes.thunder.dtypes.float16` from Thunder PR #704) is valid or almost valid "
    "Python but not a trace value; other tools that re-read the trace will misread it. A line "
    "longer than 1 MiB is not parsed at all (its tree and model would take about 200 times its "
    "size): it is reported here as an error, and the rest of the file is still checked.",
    "t0 = prims.convert_element_type(x, dtypes.thunder.dtypes.float16)\n",
    "t0 = prims.convert_element_type(x, dtypes.float16)\n",
    check,
    statement_check};

namespace {
void values(const Value &v, std::vector<Diagnostic> &out) {
  if (v.kind == ValueKind::Attribute) {
    const Value *root = v.root_name();
    std::string qualified = v.qualified_name();
    // A dtype path that names its namespace twice (dtypes.thunder.dtypes.float16); an
    // operator overload such as torch.ops.aten.select.int is not one.
    auto doubled = [&]() {
      for (const Value *at = &v.items.front(); at->kind == ValueKind::Attribute;
           at = &at->items.front())
        if (at->text == "dtypes" || at->text == "torch") return true;
      return false;
    };
    if (root && (root->text == "dtypes" || root->text == "torch") &&
        v.items.front().kind == ValueKind::Attribute && doubled()) {
      Namespace ns = root->text == "dtypes" ? Namespace::Thunder : Namespace::Torch;
      if (is_dtype_name(v.text, ns)) {
        std::string fixed = root->text + "." + v.text;
        Diagnostic d = kTL009.diagnostic(
            v.span, "`" + qualified + "` is not a dtype path; did you mean `" + fixed + "`?");
        d.fix = Fix{"replace with `" + fixed + "`", {Edit{v.span.begin, v.span.end, fixed}}};
        out.push_back(std::move(d));
        return;
      }
    }
  }
  if (v.kind == ValueKind::Call && v.callee().qualified_name() == "torch.Size" &&
      v.positional_count() == 1 && v.keywords.empty() &&
      (v.arg(0).kind == ValueKind::List || v.arg(0).kind == ValueKind::Tuple)) {
    Value tuple = v.arg(0);
    tuple.kind = ValueKind::Tuple;
    tuple.bare = false;
    std::string fixed = print_value(tuple);
    Diagnostic d = kTL009.diagnostic(
        v.span, "`torch.Size(...)` where the trace model expects a tuple: print `" + fixed + "`");
    d.fix = Fix{"replace with `" + fixed + "`", {Edit{v.span.begin, v.span.end, fixed}}};
    out.push_back(std::move(d));
    return;
  }
  for (const Value &child : v.items)
    values(child, out);
}

void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  const DialectTraits &dialect = dialect_traits(ctx.analysis.dialect);
  for (const ModelProblem &p : ctx.parsed.model) {
    // A form the file's printer writes as a matter of course (fx's `a + b`, nvFuser's
    // `fd : FusionDefinition`) is that dialect's normal code, not a printer's slip.
    if (!p.unchecked && dialect.is_normal_form(p.form)) continue;
    Diagnostic d = kTL009.diagnostic(p.span, p.message);
    if (p.unchecked) d.severity = Severity::Error;
    out.push_back(std::move(d));
  }
}

class ValuesCheck : public StatementCheck {
  void statement(const Trace &, const Statement &statement, std::vector<Diagnostic> &out) override {
    for_each_statement(statement, [&](const Statement &s) {
      if (s.kind == Statement::Kind::BoundSymbol || s.kind == Statement::Kind::AnnotatedAssign ||
          s.kind == Statement::Kind::Return)
        values(s.value, out);
    });
  }
};

std::unique_ptr<StatementCheck> statement_check() {
  return std::make_unique<ValuesCheck>();
}
} // namespace

} // namespace tracelint
