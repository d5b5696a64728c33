#pragma once
// One rule = one code, its documentation and its check. Each lives in rules/src/TLxxx_*.cpp.
#include "tracelint/core/diagnostic.hpp"
#include "tracelint/core/noqa.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/rules/analysis.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

struct CheckContext {
  const ParsedFile &parsed;
  const Analysis &analysis;
};

// The part of a rule that reads statements. It sees each body statement (subsymbols inside)
// once, in order, while the file is parsed, and keeps what it needs: the model of a large
// trace is never held whole. One instance per checked file.
class StatementCheck {
public:
  virtual ~StatementCheck() = default;
  virtual void statement(const Trace &trace, const Statement &s, std::vector<Diagnostic> &out) = 0;
  // After the whole file is parsed and analysed.
  virtual void finish(const CheckContext &, std::vector<Diagnostic> &) {}
};

// What a rule about noqa comments sees: the comments, and every finding of the enabled rules
// before the comments silenced any.
struct NoqaContext {
  const SourceText &source;
  const std::vector<NoqaComment> &comments;
  const std::vector<Diagnostic> &findings;
  std::function<bool(std::string_view code)> enabled;
};

struct Rule {
  std::string_view code;
  std::string_view name;
  Severity severity;
  std::string_view summary;
  std::string_view explanation;
  std::string_view bad_example;
  std::string_view good_example;
  // Trace rules check the parsed file (its traces without their bodies) and its analysis,
  // and may read statements too; analyzer rules (TLA*) have neither here: their checks need
  // Clang and live in analyzer/.
  void (*check)(const CheckContext &, std::vector<Diagnostic> &);
  // Rules that read body statements: makes the per-file StatementCheck.
  std::unique_ptr<StatementCheck> (*statement_check)() = nullptr;
  // Rules about the file's noqa comments: run after every other rule, before the comments
  // silence what they name; their own findings are not silenced by them.
  void (*noqa_check)(const NoqaContext &, std::vector<Diagnostic> &) = nullptr;
  // The rule holds for any Python, not only for printed traces: it also checks the files
  // that are ordinary Python (plain_python_reason in dialect.hpp), as `check .` meets them.
  bool any_python = false;

  bool checks_traces() const { return check || statement_check || noqa_check; }

  Diagnostic diagnostic(Span span, std::string message) const {
    Diagnostic d;
    d.code = std::string(code);
    d.severity = severity;
    d.span = span;
    d.message = std::move(message);
    return d;
  }
};

// Rules' verdicts on a read nothing binds (analysis.hpp), each defined in its rule's file, so
// that one read is reported by one rule: a freed name is TL005's; a module never imported is
// TL012's; what only Thunder's python_ctx provides is TL011's; a proxy name a collection input
// should have bound is TL006's; TL003 reports what none of them explains.
//
// TL012 (rules/src/TL012_missing_import.cpp): a module the trace uses without importing it.
bool missing_module_import(const UnresolvedRead &read);
// TL011 (rules/src/TL011_context_name.cpp): a callee, or a context object, that a Thunder
// trace's python_ctx hands the program.
bool python_ctx_provides(const UnresolvedRead &read, Dialect dialect);
// TL006 (rules/src/TL006_unflattened_collection.cpp): a collection that was never unpacked, or
// unpacked with placeholders, explains the read.
bool collection_explains(const UnresolvedRead &read, Dialect dialect);

// Every rule, ordered by code.
const std::vector<const Rule *> &all_rules();
const Rule *find_rule(std::string_view code);

// The rules' documentation as Markdown (docs/rules.md) and as text (tracelint explain).
std::string rules_markdown();
// The fragment of a rule's section in docs/rules.md, as Markdown renderers (GitHub's included)
// make it from the heading `## TL002 repr-leak`: "tl002-repr-leak".
std::string rule_anchor(const Rule &rule);
std::string explain_rule(const Rule &rule);

} // namespace tracelint
