#pragma once
// The policies of TLA001-TLA004 over the writes of Python printers: which printed values are
// debug reprs, which lines are not Python, which values lose their meaning or their digits,
// which strings are printed into Python literals unescaped. The rule files under rules/src hold
// their codes and docs.
#include "printer_facts.hpp"
#include "unit_summaries.hpp"

#include "tracelint/analyzer/python_text.hpp"

#include <clang/AST/ASTContext.h>
#include <llvm/Support/Regex.h>

#include <map>
#include <string>
#include <vector>

namespace tracelint::analyzer {

struct Finding {
  Finding(std::string code_, const clang::Expr *where_, std::string message_,
          std::optional<ReprChain> continues_ = std::nullopt, bool text_problems_ = false)
      : code(std::move(code_)), where(where_), message(std::move(message_)),
        continues(std::move(continues_)), text_problems(text_problems_) {}
  std::string code;
  const clang::Expr *where = nullptr;
  std::string message;
  // TLA001 whose chain goes on in a function of another unit (the message is its first part):
  // UnitSummaries finishes it.
  std::optional<ReprChain> continues;
  // Not a finding yet: the value is the result of a function another unit defines, whose text
  // problems (TLA003, TLA004) the run reports here (UnitSummaries::TextProblem).
  bool text_problems = false;
};

// What TLA001 says of a value: the message; with `continues`, its first part, to be finished
// once the unit that defines the function the chain goes on in is analysed.
struct ReprMessage {
  std::string text;
  std::optional<ReprChain> continues;
  // Not a finding yet: the value is the result of a function another unit defines, whose text
  // problems (TLA003, TLA004) the run reports here (UnitSummaries::TextProblem).
  bool text_problems = false;
};

class PrinterChecks {
public:
  // formatters: each type's fmt::formatter (or std::formatter) `format` function in the
  // translation unit.
  // units: the run's summaries across translation units, or none (one unit alone).
  PrinterChecks(
      clang::ASTContext &context, const Facts &facts, const llvm::Regex &repr_pattern,
      PythonParser &parser,
      const std::map<const clang::CXXRecordDecl *, const clang::FunctionDecl *> &formatters,
      UnitSummaries *units = nullptr)
      : context_(context), facts_(facts), repr_pattern_(repr_pattern), parser_(parser),
        formatters_(formatters), units_(units) {}

  // The write goes into Python text: its findings.
  void check(const Write &write, std::vector<Finding> &out);

  // A debug repr: marked as one, with literal debug text of its own, or whose text is one
  // through what it calls (function_chain).
  bool is_repr_function(const clang::FunctionDecl *f);

  // Tells the run's summaries which of these functions' text is a debug repr.
  void export_summaries(const std::vector<const clang::FunctionDecl *> &functions);

private:
  // Marked as a debug repr ([[clang::annotate("tracelint::repr")]] or --repr-pattern), or
  // a function whose text is one (`[IntegerProxy name=...`): the function's own judgement.
  bool direct_repr(const clang::FunctionDecl *f);

  // Function summaries (repr_chains.cpp). A function whose text (what it returns, streams into
  // its stream parameter, or formats into its formatter's output) is a debug repr and no more
  // (`return describe();`, `os << p.repr()`, `format_to(ctx.out(), "{}", p.repr())`), found
  // through calls, locals and other such functions; a cycle ends the search. The chain names
  // each step (the function, and the line where it reaches the next), the repr last.
  std::optional<ReprChain> function_chain(const clang::FunctionDecl *f);
  std::optional<ReprChain> expr_chain(const clang::Expr *e, int depth);
  std::optional<ReprChain> piece_chain(const ValuePiece &v);
  std::optional<ReprChain> reach_repr(const clang::FunctionDecl *def);
  std::optional<ReprChain> formatted_arguments(const clang::FunctionDecl *def);
  const std::vector<const Write *> &writes_of(const clang::FunctionDecl *def);
  ReprChain step(const clang::FunctionDecl *def, const clang::Stmt *where, ReprChain rest) const;
  ReprMessage chain_message(const clang::Expr *value, const ReprChain &chain) const;
  // A function without a body here, whose text another unit of the run may show to be a repr.
  std::optional<ReprChain> elsewhere(const clang::FunctionDecl *f) const;
  std::string main_file() const;
  // The value is the result of a function defined in no body here, which another unit of the
  // run may define: the chain to it (its name the one step; its place comes from that unit).
  std::optional<ReprChain> result_elsewhere(const clang::Expr *value) const;
  // The TLA003/TLA004 findings in the text a function returns (its writes into its returned
  // string or locals), for other units; none where that text already goes into Python here.
  std::vector<TextProblem> text_problems(const clang::FunctionDecl *def);
  bool returned_text(const Write &w) const;

  std::optional<ReprMessage> repr_source(const ValuePiece &v);
  // The printer's own operator<< or formatter that turns the value into text, if any.
  const clang::FunctionDecl *printing_function(const ValuePiece &v) const;
  std::optional<ReprMessage> repr_of(const clang::Expr *e, int depth);
  bool debug_text(const clang::FunctionDecl *f, const clang::CXXRecordDecl *printed, bool strong);
  // A string the printer got as it is, not made Python text: its name, to quote in the
  // message; own: a parameter, a member of the printer, or text derived from them (else a
  // member of another object, such as a node's attribute).
  struct RawText {
    std::string name;
    bool own = true;
  };
  std::optional<RawText> raw_text(const clang::Expr *e, int depth);
  bool raw_container(const clang::Expr *e, int depth);
  std::string source_text(const clang::Expr *e) const;

  void check_bool(const Write &w, const ValuePiece &v, std::vector<Finding> &out);
  void check_float(const Write &w, const ValuePiece &v, std::vector<Finding> &out);
  bool round_trip_checked(const Write &w, const ValuePiece &v) const;
  void check_strings(const Write &w, std::size_t index, std::vector<Finding> &out);

  clang::ASTContext &context_;
  const Facts &facts_;
  const llvm::Regex &repr_pattern_;
  PythonParser &parser_;
  const std::map<const clang::CXXRecordDecl *, const clang::FunctionDecl *> &formatters_;
  UnitSummaries *units_;
  std::map<std::pair<const clang::FunctionDecl *, bool>, bool> debug_text_;
  std::map<const clang::FunctionDecl *, std::optional<ReprChain>> chains_; // by definition
  std::map<const clang::FunctionDecl *, std::vector<const Write *>> writes_by_function_;
  bool writes_indexed_ = false;
  static constexpr int kMaxChainSearch = 64;
  int searching_ = 0; // functions whose chain is being searched, nested
};

} // namespace tracelint::analyzer
