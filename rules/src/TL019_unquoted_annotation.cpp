#include "tracelint/rules/rule.hpp"

#include <cctype>

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL019{
    "TL019",
    "unquoted-annotation",
    Severity::Error,
    "A parameter's annotation is a tensor type written without quotes (`x: f32[4]`).",
    "What it does: finds parameter annotations of graph code that spell a tensor type as an "
    "expression (`f32[4]`, `bf16[2, 8]`, `i64[]`) instead of a string. Why it matters: Python "
    "evaluates a def's parameter annotations when the def runs, and `f32` is no name there, so "
    "`def forward(self, x: f32[4])` raises NameError before the graph runs once (old torch.fx "
    "printers wrote them so; today's quote them, `x: \"f32[4]\"`). The same annotation on an "
    "assignment in the body (`full_default: i64[] = ...`) is a SyntaxError when the subscript is "
    "empty, which TL001 reports. A file with `from __future__ import annotations` does not "
    "evaluate them and is not reported. Example: `def forward(self, x: f32[4]):`. Use instead: "
    "`def forward(self, x: \"f32[4]\"):`.",
    "def forward(self, x: f32[4]):\n    relu = torch.relu(x);  x = None\n    return relu\n",
    "def forward(self, x: \"f32[4]\"):\n    relu = torch.relu(x);  x = None\n    return relu\n",
    check};

namespace {
// f32[4], bf16[2, 8], i64[], b8[3], c64[1], u8[2], f8e4m3fn[4]: a dtype abbreviation subscripted.
bool looks_like_tensor_type(const std::string &text) {
  std::size_t bracket = text.find('[');
  if (bracket == std::string::npos || bracket == 0 || text.back() != ']') return false;
  std::string head = text.substr(0, bracket);
  if (head == "bf16" || head == "b8") return true;
  if (head[0] != 'f' && head[0] != 'i' && head[0] != 'u' && head[0] != 'c') return false;
  if (head.size() < 2 || !std::isdigit(static_cast<unsigned char>(head[1]))) return false;
  for (char c : head)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

bool postpones_annotations(const Trace &t) {
  for (const Import *import : t.imports())
    if (import->module == "__future__")
      for (const auto &[name, alias] : import->names)
        if (name == "annotations") return true;
  return false;
}

void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  bool postponed = false;
  for (const Trace &t : ctx.parsed.file.traces) {
    postponed |= postpones_annotations(t);
    if (postponed) continue;
    for (const ParameterAnnotation &p : t.parameter_annotations) {
      if (p.quoted || !looks_like_tensor_type(p.text)) continue;
      std::string quoted = "\"" + p.text + "\"";
      Diagnostic d =
          kTL019.diagnostic(p.span, "the annotation `" + p.text + "` of `" + p.parameter +
                                        "` is not quoted: evaluating it when the def runs raises "
                                        "NameError; write `" +
                                        quoted + "`");
      d.fix = Fix{"quote it", {Edit{p.span.begin, p.span.end, std::move(quoted)}}};
      out.push_back(std::move(d));
    }
  }
}
} // namespace

} // namespace tracelint
