#pragma once
// Facts about the names of each trace, computed once and read by the rules: what is used
// before it is defined, what is defined twice, which names only the trace's context knows.
#include "tracelint/core/parser.hpp"
#include "tracelint/rules/dialect.hpp"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tracelint {

struct AnalysisOptions {
  // Names the environment provides (python_ctx entries a project declares): exact names, or
  // glob patterns as fnmatch(3) reads them (`nvFusion*`, `apex_*`).
  std::set<std::string> context_names;
  bool is_context_name(const std::string &name) const;
  // The printer the file comes from: the names its runtime provides, how it frees values.
  Dialect dialect = Dialect::Thunder;
};

// What is known about a use that nothing defines where it stands. These are facts, not
// verdicts: which rule reports the use is each rule's own decision (TL003, TL005, TL006).
enum class UseProblem {
  NeverDefined,        // no definition reaches it
  ImplicitShapeSymbol, // no definition, but an input's annotation mentions it as a dim
  AfterDelete,         // its definition was deleted (a del, or fx's `x = None`)
};

// A place and the name it concerns: an unpack line and its source, a collection input.
struct NamedPlace {
  Span span;
  std::string name;
};

struct UndefinedUse {
  std::string name;
  Span span;
  UseProblem problem = UseProblem::NeverDefined;
  Span related;               // the del, the input's annotation
  std::string related_name;   // the tensor whose shape carries the symbol
  bool freed_by_none = false; // AfterDelete: an fx-style `x = None` freed it, not a del
  // NeverDefined: the first unpack before it that dropped elements with "_" placeholders, and
  // a collection input not unpacked by then (TL006 decides whether they explain the use).
  std::optional<NamedPlace> placeholder_unpack;
  std::optional<NamedPlace> open_collection;
};

struct Redefinition {
  std::string name;
  Span span;
  Span previous;
  bool in_subsymbols = false;
  bool after_delete = false;
};

// A name that only the trace's python_ctx can provide.
struct ContextName {
  enum class Kind { Module, Callable, Object };
  Kind kind = Kind::Callable;
  std::string name;
  Span span;
};

struct UndefinedSymbol { // TL007
  std::string symbol;
  Span span;
  std::string annotated; // the name whose annotation mentions it
};

struct StrayAnnotation { // TL014
  std::string name;
  Span span;
};

struct ArityMismatch { // TL008
  Span span;
  std::size_t targets = 0;
  std::size_t expected = 0;
  std::string source;
  Span source_span; // the annotation that gives the length
};

struct TraceFacts {
  const Trace *trace = nullptr;
  std::vector<UndefinedUse> undefined;
  std::vector<Redefinition> redefinitions;
  std::vector<ContextName> context;
  std::vector<UndefinedSymbol> undefined_symbols;
  std::vector<StrayAnnotation> stray_annotations;
  std::vector<ArityMismatch> arity;
};

struct Analysis {
  Dialect dialect = Dialect::Thunder;
  std::vector<TraceFacts> traces;
  // Commented bound symbols outside any trace (a subsymbol line pasted alone).
  TraceFacts orphans;
};

class TraceWalker;

// Computes the Analysis of a file while parse_trace_source hands it the bodies, statement by
// statement, so the names of a large trace are known without holding its model.
class NameAnalysis : public BodyReader {
public:
  explicit NameAnalysis(AnalysisOptions options);
  ~NameAnalysis() override;
  void begin_trace(const ParsedFile &file, const Trace &trace) override;
  void statements(std::vector<Statement> &&statements) override;
  void end_trace() override;
  // Once the file is parsed: adds what its module-level subsymbol lines define and use.
  Analysis finish(const ParsedFile &parsed);

private:
  AnalysisOptions options_;
  Analysis analysis_;
  const SourceText *source_ = nullptr;
  std::vector<std::pair<std::string, Span>> module_names_; // imports seen so far in the file
  std::unique_ptr<TraceWalker> walker_;
};

// Whether a context name is a glob pattern (holds *, ? or [).
bool is_glob_pattern(std::string_view text);

// Module names Thunder traces use, and the import that binds each.
const std::string *known_module_import(const std::string &name);
bool is_python_builtin(const std::string &name);

// Calls f(statement) for a statement or every statement of a body, and their subsymbols,
// depth first.
template <class F> void for_each_statement(const Statement &s, F &&f) {
  f(s);
  for (const Statement &sub : s.subsymbols)
    for_each_statement(sub, f);
}
template <class F> void for_each_statement(const std::vector<Statement> &body, F &&f) {
  for (const Statement &s : body)
    for_each_statement(s, f);
}

} // namespace tracelint
