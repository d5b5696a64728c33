// Function summaries for TLA001: which functions' text is a debug repr because of what they call
// (`os << stop` where operator<< writes `p.repr()`, `stop.toString()` returning `describe()`,
// a formatter formatting `p.repr()`), and the chain that shows it.
#include "clang_helpers.hpp"
#include "printer_checks.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Index/USRGeneration.h>

namespace tracelint::analyzer {

using namespace clang;

namespace {

// Text with a letter or digit in it: code or words, more than the brackets around a value.
bool has_words(const std::string &text) {
  for (char c : text)
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
  return false;
}

bool is_formatter_format(const FunctionDecl *f) {
  const auto *m = dyn_cast_or_null<CXXMethodDecl>(f);
  return m && m->getIdentifier() && m->getName() == "format" && m->getParent()->getIdentifier() &&
         m->getParent()->getName() == "formatter";
}

// How a function is named in a chain: `toString()`, `operator<<`, `formatter<T>::format`.
std::string display_name(const FunctionDecl *f) {
  if (is_formatter_format(f)) {
    std::string printed = "T";
    if (const auto *spec =
            dyn_cast<ClassTemplateSpecializationDecl>(cast<CXXMethodDecl>(f)->getParent());
        spec && spec->getTemplateArgs().size() > 0 &&
        spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      if (const CXXRecordDecl *r = spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl())
        printed = r->getNameAsString();
    return "formatter<" + printed + ">::format";
  }
  if (f->isOverloadedOperator()) return f->getNameAsString();
  return f->getNameAsString() + "()";
}

// The name a call names, resolved or not (a call in a template that depends on its argument).
llvm::StringRef called_name(const CallExpr *call) {
  if (const FunctionDecl *f = call->getDirectCallee())
    return f->getIdentifier() ? f->getName() : "";
  if (const auto *lookup = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts());
      lookup && lookup->getName().isIdentifier())
    return lookup->getName().getAsIdentifierInfo()->getName();
  return "";
}

void collect_calls(const Stmt *s, std::vector<const CallExpr *> &out) {
  if (!s || isa<LambdaExpr>(s)) return;
  if (const auto *call = dyn_cast<CallExpr>(s)) out.push_back(call);
  for (const Stmt *child : s->children())
    collect_calls(child, out);
}

} // namespace

const std::vector<const Write *> &PrinterChecks::writes_of(const FunctionDecl *def) {
  if (!writes_indexed_) {
    for (const Write &w : facts_.writes)
      if (w.function) writes_by_function_[w.function->getCanonicalDecl()].push_back(&w);
    writes_indexed_ = true;
  }
  return writes_by_function_[def->getCanonicalDecl()];
}

ReprChain PrinterChecks::step(const FunctionDecl *def, const Stmt *where, ReprChain rest) const {
  const SourceManager &sm = context_.getSourceManager();
  PresumedLoc at = sm.getPresumedLoc(sm.getSpellingLoc(where->getBeginLoc()));
  rest.steps.insert(rest.steps.begin(),
                    ReprStep{display_name(def), at.isValid() ? at.getFilename() : "",
                             at.isValid() ? at.getLine() : 0});
  return rest;
}

std::string PrinterChecks::main_file() const {
  const SourceManager &sm = context_.getSourceManager();
  const FileEntry *file = sm.getFileEntryForID(sm.getMainFileID());
  return file ? file->getName().str() : "";
}

ReprMessage PrinterChecks::chain_message(const Expr *value, const ReprChain &chain) const {
  std::string text = "`" + source_text(value) + "`";
  if (!chain.steps.empty()) text += " \u2192 " + render_steps(chain.steps, main_file());
  if (!chain.continues_in.empty()) return ReprMessage{text, chain};
  return ReprMessage{text + ": a debug repr", std::nullopt};
}

std::optional<ReprChain> PrinterChecks::elsewhere(const FunctionDecl *f) const {
  if (!units_ || !library_function(f).empty() || f->isInStdNamespace()) return std::nullopt;
  QualType returned = f->getReturnType();
  bool text = is_string_like(returned) && !returned->isPointerType();
  if (!text && !is_formatter_format(f) && f->getOverloadedOperator() != OO_LessLess)
    return std::nullopt;
  llvm::SmallString<128> usr;
  if (index::generateUSRForDecl(f->getCanonicalDecl(), usr)) return std::nullopt;
  return ReprChain{{}, usr.str().str(), f->getNameAsString()};
}

std::optional<ReprChain> PrinterChecks::result_elsewhere(const Expr *value) const {
  const auto *call = dyn_cast_or_null<CallExpr>(strip(value));
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || callee->getDefinition()) return std::nullopt;
  std::optional<ReprChain> chain = elsewhere(callee);
  if (chain) chain->steps.push_back(ReprStep{display_name(callee), "", 0});
  return chain;
}

void PrinterChecks::export_summaries(const std::vector<const FunctionDecl *> &functions) {
  if (!units_) return;
  for (const FunctionDecl *f : functions) {
    std::optional<ReprChain> here = elsewhere(f); // its USR, as other units name it
    if (!here) continue;                          // not a function whose text another unit prints
    const std::string &usr = here->continues_in;
    units_->saw(usr);
    std::optional<ReprChain> chain =
        direct_repr(f) ? std::optional(ReprChain{{ReprStep{display_name(f), "", 0}}, "", ""})
                       : function_chain(f);
    if (chain) units_->define(usr, std::move(*chain));
    if (std::vector<TextProblem> problems = text_problems(f); !problems.empty())
      units_->define_problems(usr, std::move(problems));
  }
}

// The write goes into what the function returns: its returned string, or a local (a buffer, a
// stream) whose text it returns.
bool PrinterChecks::returned_text(const Write &w) const {
  SinkKind kind = facts_.sinks.kind(w.sink);
  const auto *local = dyn_cast_or_null<VarDecl>(facts_.sinks.decl(w.sink));
  return kind == SinkKind::Return || (kind == SinkKind::Named && local && local->isLocalVarDecl());
}

std::vector<TextProblem> PrinterChecks::text_problems(const FunctionDecl *def) {
  std::vector<TextProblem> problems;
  const Sinks &sinks = facts_.sinks;
  std::vector<Finding> found;
  for (const Write *w : writes_of(def)) {
    if (sinks.is_python(w->sink)) return {}; // checked and reported in this unit
    if (!returned_text(*w)) continue;
    for (std::size_t i = 0; i < w->values.size(); ++i) {
      check_bool(*w, w->values[i], found);
      check_float(*w, w->values[i], found);
      check_strings(*w, i, found);
    }
  }
  const SourceManager &sm = context_.getSourceManager();
  for (const Finding &f : found) {
    PresumedLoc at = sm.getPresumedLoc(sm.getSpellingLoc(f.where->getBeginLoc()));
    problems.push_back(
        {f.code, f.message, at.isValid() ? at.getFilename() : "", at.isValid() ? at.getLine() : 0});
  }
  return problems;
}

std::optional<ReprChain> PrinterChecks::function_chain(const FunctionDecl *f) {
  if (!f) return std::nullopt;
  const FunctionDecl *def = f->getDefinition();
  if (!def || !def->hasBody()) return elsewhere(f);
  // A formatter specialization lives in fmt's or std's namespace but is the printer's own.
  if (!is_formatter_format(def) && (!library_function(def).empty() || def->isInStdNamespace()))
    return std::nullopt;
  auto [it, fresh] = chains_.try_emplace(def);
  if (!fresh) return it->second; // known, or being searched (a cycle): no repr that way
  // A bound on the functions searched at once, so that a generated chain of thousands of
  // functions cannot exhaust the stack; past it, a chain counts as no repr.
  if (searching_ >= kMaxChainSearch) return std::nullopt;
  ++searching_;
  std::optional<ReprChain> found = reach_repr(def);
  --searching_;
  chains_[def] = found;
  return found;
}

// What the function writes into its output (its returned string, a stream or formatter
// context it was given, a local it returns), what it returns, and what a formatter formats.
std::optional<ReprChain> PrinterChecks::reach_repr(const FunctionDecl *def) {
  const Sinks &sinks = facts_.sinks;
  // A chain that ends at a repr here is preferred to one that goes on in another unit.
  std::optional<ReprChain> found;
  auto consider = [&](const Stmt *where, std::optional<ReprChain> chain) {
    if (chain && (!found || (!found->continues_in.empty() && chain->continues_in.empty())))
      found = step(def, where, std::move(*chain));
  };
  for (const Write *w : writes_of(def)) {
    if (!returned_text(*w) && sinks.kind(w->sink) != SinkKind::Parameter) continue;
    for (const TextPiece &t : w->text)
      if (t.literal && has_words(*t.literal))
        return std::nullopt; // it prints more than a value: its own writes are checked
    for (const ValuePiece &v : w->values)
      if (v.expr) consider(v.expr, piece_chain(v));
  }
  std::vector<const ReturnStmt *> returns;
  collect_returns(def->getBody(), returns);
  for (const ReturnStmt *r : returns)
    if (r->getRetValue()) consider(r, expr_chain(r->getRetValue(), 0));
  if (found && found->continues_in.empty()) return found;
  if (auto formatted = formatted_arguments(def)) return formatted;
  return found;
}

// `format_to(ctx.out(), "{}", p.repr())` in a formatter template, where the call depends on the
// context's type and so is no write the collector could follow.
std::optional<ReprChain> PrinterChecks::formatted_arguments(const FunctionDecl *def) {
  if (!is_formatter_format(def) && !def->isOverloadedOperator()) return std::nullopt;
  std::vector<const CallExpr *> calls;
  collect_calls(def->getBody(), calls);
  for (const CallExpr *call : calls) {
    llvm::StringRef name = called_name(call);
    if (name != "format_to" && name != "format_to_n" && name != "vformat_to" && name != "format")
      continue;
    bool words = false;
    for (const Expr *a : call->arguments())
      if (auto text = literal_text(strip(a))) words |= has_words(*text);
    if (words) continue;
    for (const Expr *a : call->arguments())
      if (auto chain = expr_chain(a, 0)) return step(def, a, std::move(*chain));
  }
  return std::nullopt;
}

std::optional<ReprChain> PrinterChecks::piece_chain(const ValuePiece &v) {
  if (auto chain = expr_chain(v.expr, 0)) return chain;
  const FunctionDecl *printer = printing_function(v);
  if (!printer) return std::nullopt;
  const CXXRecordDecl *record = printed_record(v.expr->getType());
  if (has_annotation(printer, "tracelint::repr") || debug_text(printer, record, true))
    return ReprChain{
        {ReprStep{display_name(printer) + " of " + record->getNameAsString(), "", 0}}, "", ""};
  return function_chain(printer);
}

std::optional<ReprChain> PrinterChecks::expr_chain(const Expr *e, int depth) {
  const Expr *s = strip(e);
  if (!s || depth > 8) return std::nullopt;
  if (const Expr *text = string_of_pointer(s)) return expr_chain(text, depth + 1);
  if (const auto *call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return std::nullopt;
    if (direct_repr(callee)) return ReprChain{{ReprStep{display_name(callee), "", 0}}, "", ""};
    if (auto chain = function_chain(callee)) return chain;
    if (is_formatter_format(callee)) // formatter<string_view>::format(repr(p), ctx)
      for (const Expr *a : call->arguments())
        if (auto chain = expr_chain(a, depth + 1)) return chain;
    return std::nullopt;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    if (const auto *v = dyn_cast<VarDecl>(ref->getDecl()))
      if (auto it = facts_.assignments.find(v); it != facts_.assignments.end())
        for (const Assignment &a : it->second)
          if (!a.element)
            if (auto chain = expr_chain(a.value, depth + 1)) return chain;
  return std::nullopt;
}

} // namespace tracelint::analyzer
