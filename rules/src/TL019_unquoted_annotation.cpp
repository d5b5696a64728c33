#include "tracelint/core/type_string.hpp"
#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL019{
    "TL019",
    "unquoted-annotation",
    Severity::Error,
    "A tensor type annotation is written without quotes (`x: f32[4]`, `full: i64[] = ...`).",
    "What it does: finds parameter annotations of graph code that spell a tensor type as an "
    "expression (`f32[4]`, `bf16[2, 8]`, `i64[]`) instead of a string. Why it matters: Python "
    "evaluates a def's parameter annotations when the def runs, and `f32` is no name there, so "
    "`def forward(self, x: f32[4])` raises NameError before the graph runs once (old torch.fx "
    "printers wrote them so; today's quote them, `x: \"f32[4]\"`). A 0-d tensor's type, `i64[]`, "
    "is an empty subscript: a SyntaxError wherever it stands, a parameter or an assignment in "
    "the body (`full_default: i64[] = ...`); TL001 reports the syntax error, this rule quotes "
    "it. An assignment's annotation in a def body is not evaluated, so `sin: f32[4] = ...` "
    "runs and is not reported, nor is a parameter's in a file with `from __future__ import "
    "annotations`. Example: `def forward(self, x: f32[4]):`. Use instead: "
    "`def forward(self, x: \"f32[4]\"):`.",
    "def forward(self, x: f32[4]):\n    relu = torch.relu(x);  x = None\n    return relu\n",
    "def forward(self, x: \"f32[4]\"):\n    relu = torch.relu(x);  x = None\n    return relu\n",
    check};

namespace {
bool postpones_annotations(const Trace &t) {
  for (const Import *import : t.imports())
    if (import->module == "__future__")
      for (const auto &[name, alias] : import->names)
        if (name == "annotations") return true;
  return false;
}

// What the annotation is in the file (tree-sitter reads an empty subscript's `[]` as a name).
std::string_view written(const CheckContext &ctx, const Span &span) {
  return std::string_view(ctx.parsed.source.text()).substr(span.begin, span.end - span.begin);
}

Diagnostic quote_it(const Span &span, std::string_view text, const std::string &message) {
  std::string quoted = "\"" + std::string(text) + "\"";
  Diagnostic d = kTL019.diagnostic(span, message + "; write `" + quoted + "`");
  d.fix = Fix{"quote it", {Edit{span.begin, span.end, std::move(quoted)}}};
  return d;
}

bool empty_subscript(std::string_view type) {
  return type.size() >= 2 && type.substr(type.size() - 2) == "[]";
}

// Fires on a parameter's unquoted tensor type (evaluated when the def runs, unless annotations
// are postponed), and on any unquoted tensor type with an empty subscript (a SyntaxError
// wherever it stands; TL001 reports the syntax error, this rule quotes it). An assignment's
// annotation in a def body is not evaluated: `sin: f32[10] = ...` runs.
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  bool postponed = false;
  for (const Trace &t : ctx.parsed.file.traces) {
    postponed |= postpones_annotations(t);
    for (const ParameterAnnotation &p : t.parameter_annotations) {
      std::string_view text = written(ctx, p.span);
      if (p.quoted || !is_unquoted_tensor_type(text)) continue;
      std::string what = "the annotation `" + std::string(text) + "` of `" + p.parameter + "`";
      if (empty_subscript(text))
        out.push_back(quote_it(p.span, text, what + " is an empty subscript, a SyntaxError"));
      else if (!postponed)
        out.push_back(
            quote_it(p.span, text,
                     what + " is not quoted: evaluating it when the def runs raises NameError"));
    }
  }
  for (const ModelProblem &m : ctx.parsed.model) {
    if (m.form != "unquoted_annotation") continue;
    std::string_view text = written(ctx, m.span);
    if (is_unquoted_tensor_type(text) && empty_subscript(text))
      out.push_back(quote_it(m.span, text,
                             "the annotation `" + std::string(text) +
                                 "` is an empty subscript, a SyntaxError"));
  }
}
} // namespace

} // namespace tracelint
