#pragma once
// From a function's body to its writes: every statement that appends text to a stream, a
// string, a FILE* or a buffer (`<<`, `+`/`+=`, `.append`, fmt::format/format_to, std::format,
// the printf family, `return`), each value with the stream's state where it is printed and its
// place in the line, followed through the function's control flow.
#include "printer_facts.hpp"

#include "tracelint/analyzer/python_text.hpp"

#include <clang/AST/ASTContext.h>

#include <map>
#include <optional>

namespace tracelint::analyzer {

// What the printer settings say about a function: written by a function marked
// [[clang::annotate("tracelint::codegen")]] or named like --codegen-pattern says.
struct FunctionMarks {
  bool annotation = false;
  bool pattern = false;
};

class WriteCollector {
public:
  WriteCollector(clang::ASTContext &context, Facts &facts, PythonParser &parser)
      : context_(context), facts_(facts), parser_(parser) {}

  // Collects the writes of the function and of the lambdas in it.
  void collect(const clang::FunctionDecl *function, FunctionMarks marks);

  // A function that returns a stream it writes to (`std::ostream &NewLine() { ...; return
  // output_; }`): the member or global it returns, or the index of the parameter.
  struct ReturnedStream {
    std::optional<int> sink;
    std::optional<unsigned> parameter;
  };
  const ReturnedStream &returned_stream(const clang::FunctionDecl *function);

  clang::ASTContext &context() { return context_; }
  Facts &facts() { return facts_; }
  PythonParser &parser() { return parser_; }

private:
  clang::ASTContext &context_;
  Facts &facts_;
  PythonParser &parser_;
  std::map<const clang::FunctionDecl *, ReturnedStream> returned_;
};

} // namespace tracelint::analyzer
