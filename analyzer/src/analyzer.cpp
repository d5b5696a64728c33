// Clang LibTooling checks over C++ code that prints Python (trace printers, repro writers).
#include "tracelint/analyzer/analyzer.hpp"

#include "tracelint/reports/reports.hpp"
#include "tracelint/rules/rule.hpp"
#include "tracelint/validator/validator.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Regex.h>

#include <tree_sitter/api.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <toml++/toml.h>
#include <tuple>

extern "C" const TSLanguage *tree_sitter_python();

namespace tracelint {

namespace {

using namespace clang;
using namespace clang::ast_matchers;

struct Settings {
  llvm::Regex codegen;
  llvm::Regex repr;
};

bool has_annotation(const Decl *d, llvm::StringRef annotation) {
  for (const auto *attr : d->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == annotation) return true;
  return false;
}

// Marked with the annotation, or named like the pattern says.
bool is_marked(const FunctionDecl *f, llvm::StringRef annotation, const llvm::Regex &pattern) {
  return f &&
         (has_annotation(f, annotation) || (f->getIdentifier() && pattern.match(f->getName())));
}

bool is_codegen(const FunctionDecl *f, const Settings &s) {
  return is_marked(f, "tracelint::codegen", s.codegen);
}
bool is_repr_function(const FunctionDecl *f, const Settings &s) {
  return is_marked(f, "tracelint::repr", s.repr);
}

// One operand of an output chain: a literal's text, or a value (a placeholder in skeletons).
struct Piece {
  const Expr *expr = nullptr;
  std::optional<std::string> literal;
};

const Expr *strip(const Expr *e) {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && c->getNumArgs() == 1)
      e = c->getArg(0);
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else
      return e;
  }
}

std::optional<std::string> literal_text(const Expr *e) {
  e = strip(e);
  if (const auto *s = dyn_cast<StringLiteral>(e)) return s->getString().str();
  if (const auto *c = dyn_cast<CharacterLiteral>(e))
    return std::string(1, static_cast<char>(c->getValue()));
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (ref->getDecl()->getName() == "endl") return std::string("\n");
  return std::nullopt;
}

bool is_stream_op(const Expr *e, const char *op) {
  const auto *call = dyn_cast<CXXOperatorCallExpr>(strip(e));
  return call && call->getNumArgs() == 2 &&
         getOperatorSpelling(call->getOperator()) == llvm::StringRef(op);
}

// The operands of `os << a << b << c` or `a + b + c`, left to right.
void flatten(const Expr *e, const char *op, std::vector<Piece> &out) {
  const Expr *s = strip(e);
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(s);
      call && call->getNumArgs() == 2 &&
      getOperatorSpelling(call->getOperator()) == llvm::StringRef(op)) {
    flatten(call->getArg(0), op, out);
    flatten(call->getArg(1), op, out);
    return;
  }
  out.push_back({s, literal_text(s)});
}

struct Finding {
  std::string code;
  SourceLocation begin, end;
  std::string message;
};

class Checks : public MatchFinder::MatchCallback {
public:
  Checks(const Settings &settings, std::vector<Finding> &findings)
      : settings_(settings), findings_(findings) {}

  void run(const MatchFinder::MatchResult &result) override {
    const auto *chain = result.Nodes.getNodeAs<CXXOperatorCallExpr>("chain");
    const auto *fn = result.Nodes.getNodeAs<FunctionDecl>("fn");
    if (!chain || !fn || !is_codegen(fn, settings_)) return;
    SourceManager &sm = *result.SourceManager;
    if (!sm.isWrittenInMainFile(sm.getSpellingLoc(chain->getBeginLoc()))) return;
    std::string op = getOperatorSpelling(chain->getOperator());
    const char *chain_op = op == "<<" ? "<<" : "+";
    // Only the outermost operator of a chain.
    for (const auto &parent : result.Context->getParents(*chain))
      if (const auto *p = parent.get<CXXOperatorCallExpr>(); p && is_stream_op(p, chain_op)) return;
    std::vector<Piece> pieces;
    if (op == "+=") {
      pieces.push_back({chain->getArg(0), std::nullopt}); // the string being built
      flatten(chain->getArg(1), "+", pieces);
      pieces.erase(pieces.begin());
    } else {
      flatten(chain, chain_op, pieces);
      if (op == "<<" && !pieces.empty()) pieces.erase(pieces.begin()); // the stream
    }
    bool boolalpha = function_mentions(fn, sm, "boolalpha");
    bool precise = function_mentions(fn, sm, "setprecision") ||
                   function_mentions(fn, sm, "max_digits10") ||
                   function_mentions(fn, sm, "to_chars");
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const Piece &p = pieces[i];
      if (p.literal) continue;
      check_repr(p.expr, result);
      QualType t = p.expr->getType().getCanonicalType().getUnqualifiedType().getNonReferenceType();
      if (op == "<<" && t->isBooleanType() && !boolalpha)
        add("TLA003", p.expr, sm,
            "a bool streamed without std::boolalpha prints 0 or 1, not False or True");
      if (op == "<<" && t->isRealFloatingType() && !precise)
        add("TLA003", p.expr, sm,
            "a floating-point value streamed with the default precision (6 digits) does not "
            "round-trip; "
            "use std::setprecision(std::numeric_limits<double>::max_digits10) or std::to_chars");
      // A named string (not the result of a call, which is usually printed code already).
      bool named = isa<DeclRefExpr>(p.expr) || isa<MemberExpr>(p.expr);
      if (named && is_std_string(t) && i > 0 && pieces[i - 1].literal &&
          !pieces[i - 1].literal->empty() && pieces[i - 1].literal->back() == '=' &&
          !(i + 1 < pieces.size() && pieces[i + 1].literal && !pieces[i + 1].literal->empty() &&
            (pieces[i + 1].literal->front() == '\'' || pieces[i + 1].literal->front() == '"')))
        add("TLA003", p.expr, sm,
            "a std::string streamed unquoted after '" + *pieces[i - 1].literal +
                "' prints a bare word where Python expects a string literal; quote it (repr)");
    }
    check_template(pieces, chain, sm);
  }

private:
  static bool is_std_string(QualType t) {
    const auto *record = t->getAsCXXRecordDecl();
    if (!record) return false;
    std::string name = record->getQualifiedNameAsString();
    return name == "std::basic_string" || name == "std::__cxx11::basic_string";
  }

  // The code of a function with its comments (and so prose about std::boolalpha) removed.
  static std::string without_comments(llvm::StringRef text) {
    std::string out;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (quote) {
        out += c;
        if (c == '\\' && i + 1 < text.size())
          out += text[++i];
        else if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
        out += c;
      } else if (text.substr(i).startswith("//")) {
        i = std::min(text.size(), text.find('\n', i)) - 1;
      } else if (text.substr(i).startswith("/*")) {
        std::size_t close = text.find("*/", i + 2);
        i = close == llvm::StringRef::npos ? text.size() : close + 1;
      } else {
        out += c;
      }
    }
    return out;
  }

  bool function_mentions(const FunctionDecl *fn, SourceManager &sm, llvm::StringRef word) {
    auto key = std::make_pair(fn, word.str());
    if (auto it = mentions_.find(key); it != mentions_.end()) return it->second;
    CharSourceRange range = CharSourceRange::getTokenRange(fn->getSourceRange());
    bool invalid = false;
    llvm::StringRef text = Lexer::getSourceText(range, sm, LangOptions(), &invalid);
    bool found = !invalid && without_comments(text).find(word.str()) != std::string::npos;
    mentions_[key] = found;
    return found;
  }

  void check_repr(const Expr *e, const MatchFinder::MatchResult &result) {
    const Expr *s = strip(e);
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      if (is_repr_function(call->getDirectCallee(), settings_))
        add("TLA001", s, *result.SourceManager,
            "`" + call->getDirectCallee()->getNameAsString() +
                "(...)` is a debug repr, streamed into generated Python; print the value's Python "
                "spelling (a proxy's name) instead");
      return;
    }
    // A value of a type whose printing is marked as a debug repr.
    if (const auto *record = s->getType()->getAsCXXRecordDecl();
        record && has_annotation(record, "tracelint::repr"))
      add("TLA001", s, *result.SourceManager,
          "`" + record->getNameAsString() +
              "` prints its debug repr, streamed into generated Python; print its name instead");
  }

  // The literals of the chain with each value as a placeholder name must parse as Python.
  void check_template(const std::vector<Piece> &pieces, const Expr *chain, SourceManager &sm) {
    if (pieces.size() < 2 || !pieces.front().literal || !pieces.back().literal ||
        pieces.back().literal->empty() || pieces.back().literal->back() != '\n')
      return; // not one or more whole lines
    std::string skeleton;
    for (const Piece &p : pieces)
      skeleton += p.literal ? *p.literal : "x";
    // Indentation of the emitted line, and lines that open a block or wait for a def.
    std::string text;
    std::istringstream lines(skeleton);
    std::string line;
    std::size_t indent = skeleton.find_first_not_of(' ');
    while (std::getline(lines, line)) {
      text += line.substr(std::min(indent, line.find_first_not_of(' ') == std::string::npos
                                               ? line.size()
                                               : line.find_first_not_of(' '))) +
              "\n";
    }
    std::string trimmed = text.substr(0, text.find_last_not_of(" \n") + 1);
    if (!trimmed.empty() && trimmed.back() == ':') text += "  pass\n";
    if (!trimmed.empty() && trimmed.front() == '@') text += "def f():\n  pass\n";
    if (valid_python(text)) return;
    std::string shown = skeleton;
    while (!shown.empty() && shown.back() == '\n')
      shown.pop_back();
    add("TLA002", chain, sm,
        "this printer's template is not valid Python: `" + shown +
            "` (each streamed value shown as `x`)");
  }

  static bool valid_python(const std::string &text) {
    TSParser *parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    TSTree *tree =
        ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
    bool ok = tree && !ts_node_has_error(ts_tree_root_node(tree));
    ts_tree_delete(tree);
    ts_parser_delete(parser);
    return ok;
  }

  void add(const std::string &code, const Expr *e, SourceManager &sm, std::string message) {
    SourceLocation b = sm.getSpellingLoc(e->getBeginLoc());
    SourceLocation end = sm.getSpellingLoc(e->getEndLoc());
    end = Lexer::getLocForEndOfToken(end, 0, sm, LangOptions());
    for (const Finding &f : findings_)
      if (f.code == code && f.begin == b && f.message == message) return;
    findings_.push_back({code, b, end, std::move(message)});
  }

  const Settings &settings_;
  std::vector<Finding> &findings_;
  std::map<std::pair<const FunctionDecl *, std::string>, bool> mentions_;
};

class Action : public ASTFrontendAction {
public:
  Action(const Settings &settings, std::map<std::string, FileReport> &reports)
      : settings_(settings), reports_(reports) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    finder_ = std::make_unique<MatchFinder>();
    checks_ = std::make_unique<Checks>(settings_, findings_);
    auto in_function = hasAncestor(functionDecl().bind("fn"));
    finder_->addMatcher(
        traverse(TK_IgnoreUnlessSpelledInSource,
                 cxxOperatorCallExpr(hasAnyOverloadedOperatorName("<<", "+", "+="), in_function)
                     .bind("chain")),
        checks_.get());
    return finder_->newASTConsumer();
  }

  void EndSourceFileAction() override {
    SourceManager &sm = getCompilerInstance().getSourceManager();
    const FileEntry *file = sm.getFileEntryForID(sm.getMainFileID());
    std::string path = file ? file->getName().str() : getCurrentFile().str();
    std::string text = sm.getBufferData(sm.getMainFileID()).str();
    FileReport &report = reports_[path];
    report.source = SourceText(path, text);
    for (const Finding &f : findings_) {
      const Rule *rule = find_rule(f.code);
      Diagnostic d;
      d.code = f.code;
      d.severity = rule ? rule->severity : Severity::Error;
      uint32_t begin = sm.getFileOffset(f.begin);
      uint32_t end = sm.getFileOffset(f.end);
      d.span = report.source.span(begin, std::max(begin, end));
      d.message = f.message;
      report.diagnostics.push_back(std::move(d));
    }
    std::sort(report.diagnostics.begin(), report.diagnostics.end(),
              [](const Diagnostic &a, const Diagnostic &b) {
                return std::tie(a.span.begin, a.code) < std::tie(b.span.begin, b.code);
              });
    findings_.clear();
  }

private:
  const Settings &settings_;
  std::map<std::string, FileReport> &reports_;
  std::vector<Finding> findings_;
  std::unique_ptr<MatchFinder> finder_;
  std::unique_ptr<Checks> checks_;
};

class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(const Settings &settings, std::map<std::string, FileReport> &reports)
      : settings_(settings), reports_(reports) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(settings_, reports_);
  }

private:
  const Settings &settings_;
  std::map<std::string, FileReport> &reports_;
};

// Prints Clang's diagnostics to stderr as ClangTool would, and keeps the first error: a file that
// does not compile is a failed file in the report, not one that passed.
class FirstErrorKeeper : public DiagnosticConsumer {
public:
  FirstErrorKeeper() : options_(new DiagnosticOptions), printer_(llvm::errs(), options_.get()) {}

  void BeginSourceFile(const LangOptions &lang, const Preprocessor *pp) override {
    printer_.BeginSourceFile(lang, pp);
  }
  void EndSourceFile() override { printer_.EndSourceFile(); }
  void finish() override { printer_.finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    printer_.HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error || first_error_) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      PresumedLoc loc = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (loc.isValid())
        where = std::string(loc.getFilename()) + ":" + std::to_string(loc.getLine()) + ":" +
                std::to_string(loc.getColumn()) + ": ";
    }
    first_error_ = where + message.str().str();
  }

  const std::optional<std::string> &first_error() const { return first_error_; }

private:
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> options_;
  TextDiagnosticPrinter printer_;
  std::optional<std::string> first_error_;
};

// One file through Clang: its report, or a failed file with the compiler's first error.
FileReport analyze_file(const clang::tooling::CompilationDatabase &compilations,
                        const std::string &source, const Settings &settings) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source, ec)) {
    FileReport missing;
    missing.source = SourceText(source, "");
    bool exists = std::filesystem::exists(source, ec);
    missing.error =
        Error{exists ? "not a regular file" : "no such file or directory", source, 0, 0};
    return missing;
  }
  clang::tooling::ClangTool tool(compilations, {source});
  FirstErrorKeeper diagnostics;
  tool.setDiagnosticConsumer(&diagnostics);
  std::map<std::string, FileReport> by_file;
  Factory factory(settings, by_file);
  int rc = tool.run(&factory);
  FileReport report;
  if (!by_file.empty())
    report = std::move(by_file.begin()->second);
  else
    report.source = SourceText(source, "");
  if (rc == 0) return report;
  std::string why = diagnostics.first_error() ? "does not compile: " + *diagnostics.first_error()
                    : rc == 2 ? "skipped: the compilation database has no command for this file"
                              : "does not compile (Clang's errors are above)";
  report.error = Error{why, report.source.path(), 0, 0};
  report.diagnostics.clear(); // findings in a broken AST are not worth reporting
  return report;
}

llvm::cl::OptionCategory category("tracelint analyze options");
llvm::cl::opt<std::string> format_option("format",
                                         llvm::cl::desc("text, json, sarif, junit, github or html"),
                                         llvm::cl::init("text"), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    codegen_option("codegen-pattern",
                   llvm::cl::desc("Regex on function names that emit Python (also "
                                  "[[clang::annotate(\"tracelint::codegen\")]])"),
                   llvm::cl::init("^(print|emit|codegen)"), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    repr_option("repr-pattern",
                llvm::cl::desc("Regex on function names that return debug reprs (also "
                               "[[clang::annotate(\"tracelint::repr\")]])"),
                llvm::cl::init("^(repr|debug_?[Ss]tring|to_debug_string|__repr__)$"),
                llvm::cl::cat(category));
llvm::cl::opt<bool> find_compile_db_option(
    "find-compile-db",
    llvm::cl::desc("Search for compile_commands.json upwards: from -p's folder, or without -p "
                   "from the first file's folder (off: a database found that way, in a checkout "
                   "under review say, may carry any flag)"),
    llvm::cl::cat(category));

// Where the compile flags come from, read off the arguments before Clang's parser, which would
// otherwise take them from any compile_commands.json above the first file.
struct FlagSource {
  bool after_dashes = false;        // `-- FLAGS`
  std::optional<std::string> build; // -p DIR
  bool find = false;                // --find-compile-db
  bool help = false;                // --help and friends: nothing is compiled
};

FlagSource flag_source(int argc, const char **argv) {
  FlagSource f;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--") {
      f.after_dashes = true;
      break;
    }
    llvm::StringRef name = arg.ltrim('-');
    if (arg.startswith("-") && (name == "p") && i + 1 < argc)
      f.build = argv[++i];
    else if (arg.startswith("-") && name.startswith("p="))
      f.build = name.drop_front(2).str();
    else if (arg.startswith("-") && name == "find-compile-db")
      f.find = true;
    else if (arg.startswith("-") && (name.startswith("help") || name == "version"))
      f.help = true;
  }
  return f;
}

} // namespace

int analyze_main(int argc, const char **argv) {
  // Not CommonOptionsParser::HelpMessage: it promises the upward search this command refuses.
  llvm::cl::extrahelp more(
      "\nChecks C++ code that prints Python (TLA001 repr-in-codegen, TLA002 "
      "invalid-python-template,\n"
      "TLA003 lossy-literal) in functions marked [[clang::annotate(\"tracelint::codegen\")]] or\n"
      "matching --codegen-pattern.\n\n"
      "Compile flags: -p BUILD_DIR reads BUILD_DIR/compile_commands.json (CMake writes it with\n"
      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON; the folders above are not searched), or `-- FLAGS`\n"
      "after the files gives them: `tracelint analyze src/printer.cpp -- -std=c++17 -Iinclude`.\n"
      "With neither, nothing is compiled (exit 2) unless --find-compile-db asks for a search\n"
      "upwards (clang-tidy's default, opt-in here: a checkout's database can carry any flag).\n"
      "A file that does not compile is a failed file in the report, with Clang's first error.\n"
      "Exit codes: 0 clean, 1 findings, 2 usage, I/O or compile error.\n");
  FlagSource flags = flag_source(argc, argv);
  if (!flags.help && !flags.after_dashes && !flags.build && !flags.find) {
    llvm::errs() << "tracelint analyze: no compile flags: pass -p BUILD_DIR (the folder with "
                    "compile_commands.json), the flags after the files (`-- -std=c++17`), or "
                    "--find-compile-db to use the nearest compile_commands.json above the first "
                    "file\n";
    return 2;
  }
  // clang's option parser falls back to "no flags" when -p finds no database, and searches the
  // folders above -p's; we refuse both unless --find-compile-db asks for the search.
  if (flags.build && !flags.after_dashes) {
    std::string why;
    bool found =
        flags.find
            ? clang::tooling::CompilationDatabase::autoDetectFromDirectory(*flags.build, why) !=
                  nullptr
            : clang::tooling::CompilationDatabase::loadFromDirectory(*flags.build, why) != nullptr;
    if (!found) {
      llvm::errs() << "tracelint analyze: no compilation database (compile_commands.json) in "
                   << *flags.build << (flags.find ? " or above" : "") << ": " << why
                   << "\n(build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or pass "
                   << "flags after --)\n";
      return 2;
    }
  }
  auto parser =
      clang::tooling::CommonOptionsParser::create(argc, argv, category, llvm::cl::OneOrMore);
  if (!parser) {
    llvm::errs() << "tracelint analyze: " << llvm::toString(parser.takeError()) << "\n";
    return 2;
  }
  if (flags.find && !flags.build && !flags.after_dashes) {
    std::string why;
    const std::string &first = parser->getSourcePathList().front();
    if (!clang::tooling::CompilationDatabase::autoDetectFromSource(first, why)) {
      llvm::errs()
          << "tracelint analyze: --find-compile-db: no compile_commands.json in the folder "
             "of "
          << first << " or above: " << why << "\n";
      return 2;
    }
  }
  std::optional<Format> format = parse_format(format_option);
  if (!format) {
    llvm::errs()
        << "tracelint analyze: --format must be text, json, sarif, junit, github or html\n";
    return 2;
  }
  // [tool.tracelint.analyzer] in the nearest pyproject.toml (from the first file's folder up)
  // gives the patterns; flags given on the command line win.
  std::string codegen = codegen_option, repr_names = repr_option;
  const auto &sources = parser->getSourcePathList();
  if (!sources.empty()) {
    std::string dir = std::filesystem::path(sources.front()).parent_path().string();
    if (std::optional<std::string> config = find_config(dir.empty() ? "." : dir)) {
      try {
        toml::table table = toml::parse_file(*config);
        const toml::node_view<toml::node> section = table["tool"]["tracelint"]["analyzer"];
        for (auto [key, target, option] :
             {std::tuple<const char *, std::string *, llvm::cl::opt<std::string> *>{
                  "codegen-pattern", &codegen, &codegen_option},
              {"repr-pattern", &repr_names, &repr_option}}) {
          if (option->getNumOccurrences() > 0 || !section[key]) continue;
          if (!section[key].is_string()) {
            llvm::errs() << *config << ": [tool.tracelint.analyzer] " << key
                         << " must be a string\n";
            return 2;
          }
          *target = *section[key].value<std::string>();
        }
      } catch (const toml::parse_error &e) {
        llvm::errs() << *config << ":" << e.source().begin.line << ":" << e.source().begin.column
                     << ": " << std::string(e.description()) << "\n";
        return 2;
      }
    }
  }
  Settings settings{llvm::Regex(codegen), llvm::Regex(repr_names)};
  std::string error;
  if (!settings.codegen.isValid(error) || !settings.repr.isValid(error)) {
    llvm::errs() << "tracelint analyze: bad pattern: " << error << "\n";
    return 2;
  }
  std::vector<FileReport> reports;
  bool failed = false;
  for (const std::string &source : parser->getSourcePathList()) {
    reports.push_back(analyze_file(parser->getCompilations(), source, settings));
    failed |= reports.back().error.has_value();
  }
  std::cout << render(reports, *format);
  if (failed) {
    llvm::errs() << "tracelint analyze: some files could not be compiled or read (the report says "
                    "why)\n";
    return 2;
  }
  for (const FileReport &r : reports)
    if (r.has_at_least(Severity::Error)) return 1;
  return 0;
}

} // namespace tracelint
