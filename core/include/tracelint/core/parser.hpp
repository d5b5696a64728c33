#pragma once
// Parses Python trace text with tree-sitter-python into the trace model.
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"
#include "tracelint/core/trace.hpp"

#include <string>
#include <vector>

namespace tracelint {

// A debug repr found in the text: [IntegerProxy name=i10, ...], <TensorProxy(name=t0, ...)>,
// <object at 0x...>.
struct ReprLeak {
  Span span;
  std::string proxy_kind; // IntegerProxy, TensorProxy, ... or the object's type
  std::string name;       // the proxy's name, "" when the repr does not say
  bool in_code = false;   // outside comments and strings: makes the line invalid Python
};

// tree-sitter could not parse this region.
struct SyntaxProblem {
  Span span;
  std::string message;
};

// Valid Python that the trace model cannot represent.
struct ModelProblem {
  Span span;
  std::string message;
  std::string suggestion; // replacement text, "" when there is none
  // Part of the file went unchecked (a line too long to parse): an error, so that the check
  // does not pass on what it did not read.
  bool unchecked = false;
  // The syntax form that is not modelled: a tree-sitter node kind ("binary_operator",
  // "typed_parameter", "class_definition"), or "chained_assignment" / "annotation_only". A
  // dialect whose printer writes the form as a matter of course does not warn about it.
  std::string form;
};

struct ParsedFile {
  SourceText source;
  TraceFile file;
  std::vector<ReprLeak> leaks;
  std::vector<SyntaxProblem> syntax;
  std::vector<ModelProblem> model;
  // Module-level comments that spell bound symbols ("# t43 = prims.slice_prim(...)"): a
  // subsymbol line pasted without its trace. They stay comments in the file's model.
  std::vector<Statement> orphan_subsymbols;
  bool fragment_was_indented = false;
};

std::vector<ReprLeak> find_repr_leaks(const std::string &text);
std::vector<ReprLeak> find_repr_leaks(const SourceText &source);

// Takes the bodies of a file's traces as they are parsed, so that a large trace can be checked
// without holding its whole model.
class BodyReader {
public:
  virtual ~BodyReader() = default;
  // Called for each trace in source order, once the file's structure is known; `trace` stays
  // valid in the returned ParsedFile, without its body.
  virtual void begin_trace(const ParsedFile &file, const Trace &trace) = 0;
  // The trace's body statements in order, in one or more runs; they are the reader's.
  virtual void statements(std::vector<Statement> &&statements) = 0;
  virtual void end_trace() = 0;
};

// Never fails on bad Python: syntax errors become SyntaxProblems and parsing goes on.
// Large function bodies are parsed in statement chunks on up to `threads` threads.
ParsedFile parse_trace_source(std::string path, std::string text, unsigned threads = 1);
// The same, handing each trace's body to `reader` instead of keeping it: a large body comes
// chunk by chunk, and no more than a few chunks are parsed ahead of the reader.
ParsedFile parse_trace_source(std::string path, std::string text, unsigned threads,
                              BodyReader *reader);

// Parses text that must be a canonical, fully modellable trace; any problem is an Error
// naming the first line and column. For round trips and tests.
Result<TraceFile> parse_trace(const std::string &text);

} // namespace tracelint
