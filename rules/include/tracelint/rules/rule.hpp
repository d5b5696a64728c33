#pragma once
// One rule = one code, its documentation and its check. Each lives in rules/src/TLxxx_*.cpp.
#include "tracelint/core/diagnostic.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/rules/analysis.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

struct CheckContext {
  const ParsedFile &parsed;
  const Analysis &analysis;
};

struct Rule {
  std::string_view code;
  std::string_view name;
  Severity severity;
  std::string_view summary;
  std::string_view explanation;
  std::string_view bad_example;
  std::string_view good_example;
  // Trace rules check a parsed trace; analyzer rules (TLA*) have no check here: their checks
  // need Clang and live in analyzer/.
  void (*check)(const CheckContext &, std::vector<Diagnostic> &);

  Diagnostic diagnostic(Span span, std::string message) const {
    Diagnostic d;
    d.code = std::string(code);
    d.severity = severity;
    d.span = span;
    d.message = std::move(message);
    return d;
  }
};

// Every rule, ordered by code.
const std::vector<const Rule *> &all_rules();
const Rule *find_rule(std::string_view code);

// The rules' documentation as Markdown (docs/rules.md) and as text (tracelint explain).
std::string rules_markdown();
std::string explain_rule(const Rule &rule);

} // namespace tracelint
