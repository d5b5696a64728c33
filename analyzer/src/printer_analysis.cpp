#include "printer_analysis.hpp"

#include "clang_helpers.hpp"
#include "collect_writes.hpp"
#include "printer_checks.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace tracelint::analyzer {

using namespace clang;

namespace {

bool annotated(const FunctionDecl *f, llvm::StringRef annotation) {
  for (const FunctionDecl *r : f->redecls())
    if (has_annotation(r, annotation)) return true;
  if (const auto *m = dyn_cast<CXXMethodDecl>(f)) return has_annotation(m->getParent(), annotation);
  return false;
}

// Every function with a body outside the system headers, and each type's formatter.
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  FunctionFinder(ASTContext &context, const PrinterSettings &settings, WriteCollector &collector)
      : sm_(context.getSourceManager()), settings_(settings), collector_(collector) {}

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(d->getLocation()))
      return true; // the standard library and /usr/include: not printers to check
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitFunctionDecl(FunctionDecl *f) {
    if (!f->doesThisDeclarationHaveABody()) return true;
    if (const auto *m = dyn_cast<CXXMethodDecl>(f); m && m->getParent()->isLambda())
      return true; // collected with the function it is in
    const FunctionDecl *named = enclosing_named_function(f);
    bool has_name = named && named->getIdentifier();
    if (annotated(named, "tracelint::not_codegen") ||
        (has_name && settings_.not_codegen && settings_.not_codegen->match(named->getName())))
      return true;
    FunctionMarks marks;
    marks.annotation = annotated(named, "tracelint::codegen");
    marks.pattern = has_name && settings_.codegen && settings_.codegen->match(named->getName());
    collector_.collect(f, marks);
    functions.push_back(f);
    return true;
  }

  bool VisitClassTemplateSpecializationDecl(ClassTemplateSpecializationDecl *d) {
    if (!d->getIdentifier() || d->getName() != "formatter" || !d->hasDefinition()) return true;
    const TemplateArgumentList &args = d->getTemplateArgs();
    if (args.size() < 1 || args[0].getKind() != TemplateArgument::Type) return true;
    const CXXRecordDecl *printed = args[0].getAsType()->getAsCXXRecordDecl();
    if (!printed) return true;
    for (const CXXMethodDecl *m : d->methods())
      if (m->getIdentifier() && m->getName() == "format")
        formatters[printed->getCanonicalDecl()] = m->getDefinition() ? m->getDefinition() : m;
    for (const Decl *inner : d->decls()) // `template <class Context> auto format(...)`
      if (const auto *t = dyn_cast<FunctionTemplateDecl>(inner);
          t && t->getIdentifier() && t->getName() == "format")
        formatters[printed->getCanonicalDecl()] = t->getTemplatedDecl();
    return true;
  }

  bool shouldVisitLambdaBody() const { return false; }

  std::map<const CXXRecordDecl *, const FunctionDecl *> formatters;
  std::vector<const FunctionDecl *> functions; // every function collected

private:
  SourceManager &sm_;
  const PrinterSettings &settings_;
  WriteCollector &collector_;
};

class PrinterConsumer : public ASTConsumer {
public:
  PrinterConsumer(const PrinterSettings &settings, std::vector<LocatedFinding> &findings,
                  UnitSummaries *units)
      : settings_(settings), findings_(findings), units_(units) {}

  void HandleTranslationUnit(ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred()) return; // a broken AST: the file failed
    Facts facts;
    PythonParser parser;
    WriteCollector collector(context, facts, parser);
    FunctionFinder finder(context, settings_, collector);
    finder.TraverseDecl(context.getTranslationUnitDecl());
    facts.sinks.resolve();
    PrinterChecks checks(context, facts, settings_.repr, parser, finder.formatters, units_);
    SourceManager &sm = context.getSourceManager();
    std::vector<Finding> found;
    for (const Write &w : facts.writes) {
      if (!facts.sinks.is_python(w.sink)) continue;
      if (!sm.isWrittenInMainFile(sm.getSpellingLoc(w.anchor->getBeginLoc()))) continue;
      found.clear();
      checks.check(w, found);
      for (const Finding &f : found)
        add(f, sm, context.getLangOpts());
    }
    checks.export_summaries(finder.functions);
  }

private:
  void add(const Finding &f, SourceManager &sm, const LangOptions &lang) {
    SourceLocation begin = sm.getSpellingLoc(f.where->getBeginLoc());
    if (!sm.isWrittenInMainFile(begin)) return;
    SourceLocation end =
        Lexer::getLocForEndOfToken(sm.getSpellingLoc(f.where->getEndLoc()), 0, sm, lang);
    if (f.continues) { // finished by the run once the unit that defines its function is in
      const FileEntry *file = sm.getFileEntryForID(sm.getMainFileID());
      if (units_ && file)
        units_->wait({file->getName().str(), sm.getFileOffset(begin),
                      std::max(sm.getFileOffset(begin), sm.getFileOffset(end)), f.message,
                      *f.continues, f.text_problems});
      return;
    }
    for (const LocatedFinding &seen : findings_)
      if (seen.code == f.code && seen.begin == begin && seen.message == f.message) return;
    findings_.push_back({f.code, begin, end, f.message});
  }

  const PrinterSettings &settings_;
  std::vector<LocatedFinding> &findings_;
  UnitSummaries *units_;
};

} // namespace

std::unique_ptr<ASTConsumer> make_printer_consumer(const PrinterSettings &settings,
                                                   std::vector<LocatedFinding> &findings,
                                                   UnitSummaries *units) {
  return std::make_unique<PrinterConsumer>(settings, findings, units);
}

} // namespace tracelint::analyzer
