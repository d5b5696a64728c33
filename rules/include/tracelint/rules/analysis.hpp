#pragma once
// Facts about the names of each trace, computed once and read by the rules: what each read
// resolves to, what is bound twice, what annotations and unpacks say.
#include "tracelint/core/parser.hpp"
#include "tracelint/rules/dialect.hpp"

#include <cstdint>
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

// The name analysis is a semantic model, not a set of verdicts: it follows each trace's
// bindings (parameters, imports, assignments, unpacks), frees (`del`, fx's `x = None`), reads
// and annotations, and records the facts below. Which of them is a defect, and which rule says
// so, is decided in each rule's own file (rules/src/TL0xx_*.cpp), as ruff's semantic model and
// its rules split the work.
//
// Names the code's environment provides are bindings like any other, so a read of them is
// resolved: Python's builtins, the dialect's runtime names (DialectTraits::runtime_names) and
// the context names the project declares (`context-names`).

// A place and the name it concerns: an unpack line and its source, a collection input, the
// dim of an input's annotation and that input.
struct NamedPlace {
  Span span;
  std::string name;
};

// A read that no binding reaches where it stands.
struct UnresolvedRead {
  enum class Freed : uint8_t {
    No,               // nothing bound it before
    ByDel,            // its binding was deleted by a `del`
    ByNoneAssignment, // its binding was dropped by rebinding it to None (fx's `x = None`)
  };
  std::string name;
  Span span;
  bool callee = false;         // the read is a call's callee (`f(x)`, `f.g(x)`)
  bool called_by_name = false; // the callee itself, a plain name (`f(x)`, not `f.g(x)`)
  Freed freed = Freed::No;
  Span freed_at; // the del or the `x = None`
  // Indexes into TraceFacts::places, or -1. An input's annotation mentions the name as a
  // symbolic dim (the input carries it, nothing binds it); the first unpack before the read
  // that dropped elements with "_" placeholders; a collection input not unpacked by then.
  int32_t shape_annotation = -1;
  int32_t placeholder_unpack = -1;
  int32_t open_collection = -1;
};

// A binding of a name that was bound, or freed, before.
struct Rebinding {
  enum class Previous : uint8_t { Bound, Deleted, FreedByNoneAssignment };
  std::string name;
  Span span;
  Span previous;
  Previous previous_state = Previous::Bound;
  // Among the subsymbols (comments) of one bound symbol; `parent_output`: the name is one of
  // that bound symbol's own outputs, which its decomposition may produce in steps.
  bool in_subsymbols = false;
  bool parent_output = false;
};

// A symbolic dim of a type comment (`# t1: "f32[i0, i5]"`) that no binding reaches.
struct UnresolvedDim {
  std::string symbol;
  Span span;
  std::string annotated;            // the name whose type comment mentions it
  bool in_input_annotation = false; // an input's annotation mentions it too (it carries it)
  bool subsymbol_bound = false;     // a subsymbol line (a comment) assigns it
};

// An input annotation comment (`# name: "type"`) for a name not bound where it stands.
struct UnboundAnnotation {
  std::string name;
  Span span;
};

// An unpack line whose source has a length the trace states: a tuple or list literal, or a
// tensor's shape whose rank its annotation gives.
struct KnownLengthUnpack {
  Span span;
  std::size_t targets = 0;
  std::size_t source_length = 0;
  std::string source;
  Span source_span; // what gives the length
};

struct TraceFacts {
  const Trace *trace = nullptr;
  std::vector<UnresolvedRead> unresolved;
  std::vector<NamedPlace> places; // what UnresolvedRead's indexes point to
  std::vector<Rebinding> rebindings;
  std::vector<UnresolvedDim> unresolved_dims;
  std::vector<UnboundAnnotation> unbound_annotations;
  std::vector<KnownLengthUnpack> unpacks;

  const NamedPlace *place(int32_t index) const {
    return index < 0 ? nullptr : &places[static_cast<std::size_t>(index)];
  }
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
// Thunder's name for a context object: `_<qualified type>_<n>` (`_torch_memory_format_0`).
bool looks_like_context_object(const std::string &name);

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
