// `tracelint analyze`: its command line, its configuration, and each file through Clang into a
// report (the analysis itself is printer_analysis.cpp).
#include "tracelint/analyzer/analyzer.hpp"

#include "printer_analysis.hpp"

#include "tracelint/reports/reports.hpp"
#include "tracelint/rules/rule.hpp"
#include "tracelint/validator/validator.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Regex.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <toml++/toml.h>
#include <tuple>

namespace tracelint {

namespace {

using namespace clang;

using analyzer::LocatedFinding;
using analyzer::PrinterSettings;
using analyzer::UnitSummaries;

// Findings in the order of the file, then by code and message.
void sort_diagnostics(FileReport &report) {
  std::sort(report.diagnostics.begin(), report.diagnostics.end(),
            [](const Diagnostic &a, const Diagnostic &b) {
              return std::tie(a.span.begin, a.code, a.message) <
                     std::tie(b.span.begin, b.code, b.message);
            });
}

class Action : public ASTFrontendAction {
public:
  Action(const PrinterSettings &settings, std::map<std::string, FileReport> &reports,
         UnitSummaries *units)
      : settings_(settings), reports_(reports), units_(units) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return analyzer::make_printer_consumer(settings_, findings_, units_);
  }

  void EndSourceFileAction() override {
    SourceManager &sm = getCompilerInstance().getSourceManager();
    const FileEntry *file = sm.getFileEntryForID(sm.getMainFileID());
    std::string path = file ? file->getName().str() : getCurrentFile().str();
    std::string text = sm.getBufferData(sm.getMainFileID()).str();
    FileReport &report = reports_[path];
    report.source = SourceText(path, text);
    for (const LocatedFinding &f : findings_) {
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
    sort_diagnostics(report);
    findings_.clear();
  }

private:
  const PrinterSettings &settings_;
  std::map<std::string, FileReport> &reports_;
  UnitSummaries *units_;
  std::vector<LocatedFinding> findings_;
};

class Factory : public clang::tooling::FrontendActionFactory {
public:
  Factory(const PrinterSettings &settings, std::map<std::string, FileReport> &reports,
          UnitSummaries *units)
      : settings_(settings), reports_(reports), units_(units) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(settings_, reports_, units_);
  }

private:
  const PrinterSettings &settings_;
  std::map<std::string, FileReport> &reports_;
  UnitSummaries *units_;
};

// Prints Clang's diagnostics to stderr as ClangTool would, and keeps the first error: a file that
// does not compile is a failed file in the report, not one that passed.
class FirstErrorKeeper : public DiagnosticConsumer {
public:
  // quiet: Clang's diagnostics are not printed (a unit read only for its summaries).
  explicit FirstErrorKeeper(bool quiet = false)
      : options_(new DiagnosticOptions),
        printer_(quiet ? llvm::nulls() : llvm::errs(), options_.get()) {}

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
                        const std::string &source, const PrinterSettings &settings,
                        const clang::tooling::ArgumentsAdjuster &untrusted, UnitSummaries *units,
                        bool quiet = false) {
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
  if (untrusted) tool.appendArgumentsAdjuster(untrusted);
  // A database written for GCC may name warnings Clang does not know (-Wno-restrict): with
  // -Werror that is an error, which says nothing about the printers; the code is still read.
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      "-Wno-unknown-warning-option", clang::tooling::ArgumentInsertPosition::END));
  FirstErrorKeeper diagnostics(quiet);
  tool.setDiagnosticConsumer(&diagnostics);
  std::map<std::string, FileReport> by_file;
  Factory factory(settings, by_file, units);
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

// What waited on another unit of the run: a TLA001 chain the units show ends at a repr, and a
// function's text problems (TLA003, TLA004), each added to the report of the file that prints
// the value (a file that failed keeps no findings).
std::vector<Diagnostic> finished(const UnitSummaries &units, const UnitSummaries::Waiting &w) {
  std::vector<Diagnostic> out;
  auto add = [&](const std::string &code, std::string message) {
    const Rule *rule = find_rule(code);
    Diagnostic d;
    d.code = code;
    d.severity = rule ? rule->severity : Severity::Error;
    d.message = std::move(message);
    out.push_back(std::move(d));
  };
  if (w.text_problems) {
    const auto *problems = units.problems(w.chain.continues_in);
    for (std::size_t i = 0; problems && i < problems->size() && !w.chain.steps.empty(); ++i) {
      const analyzer::TextProblem &p = (*problems)[i];
      analyzer::ReprStep where{w.chain.steps.front().function, p.file, p.line};
      add(p.code, w.text + " \u2192 " + analyzer::render_steps({where}, w.path) + ": " + p.message);
    }
  } else if (auto steps = units.resolve(w.chain)) {
    add("TLA001", w.text + " \u2192 " + analyzer::render_steps(*steps, w.path) + ": a debug repr" +
                      analyzer::kReprAdvice);
  }
  return out;
}

void finish_waiting(const UnitSummaries &units, std::vector<FileReport> &reports) {
  for (const UnitSummaries::Waiting &w : units.waiting())
    for (FileReport &report : reports) {
      if (report.source.path() != w.path || report.error) continue;
      for (Diagnostic &d : finished(units, w)) {
        d.span = report.source.span(w.begin, w.end);
        report.diagnostics.push_back(std::move(d));
      }
      sort_diagnostics(report);
      break;
    }
}

// --cross-unit with a compilation database: the functions waiting findings need that no file
// given defines
// may be defined in the database's other units. Those whose text names one of them (a cheap
// filter before Clang reads them) are read for their summaries only, quietly, a few rounds as
// the chains lead on, 64 units at most; their own findings are not reported.
void read_units_for_waiting(const clang::tooling::CompilationDatabase &compilations,
                            const std::vector<std::string> &given, const PrinterSettings &settings,
                            const clang::tooling::ArgumentsAdjuster &untrusted,
                            UnitSummaries &units) {
  std::set<std::string> read;
  for (const std::string &g : given) {
    std::error_code ec;
    read.insert(std::filesystem::weakly_canonical(g, ec).string());
  }
  std::size_t budget = 64;
  for (int round = 0; round < 4 && budget > 0; ++round) {
    std::set<std::string> names = units.missing_names();
    if (names.empty()) return;
    bool progress = false;
    for (const std::string &file : compilations.getAllFiles()) {
      std::error_code ec;
      std::string canonical = std::filesystem::weakly_canonical(file, ec).string();
      if (budget == 0 || read.count(canonical)) continue;
      std::ifstream in(file, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (std::none_of(names.begin(), names.end(),
                       [&](const std::string &n) { return text.find(n) != std::string::npos; }))
        continue;
      read.insert(canonical);
      --budget;
      progress = true;
      analyze_file(compilations, file, settings, untrusted, &units, true);
    }
    if (!progress) return;
  }
}

// A compilation database belongs to the repository analysed, which may be hostile: its flags
// may not load code (-fplugin, -Xclang -load), write files (--serialize-diagnostics,
// -save-temps, profiles; ClangTool already drops -o and -MF/-MD) or read files outside the
// project (-include /etc/passwd, whose lines Clang would quote). Flags typed after `--` are
// the user's own and pass untouched.
struct DroppedFlag {
  std::string flag; // as given, with its argument
  const char *why;
};

// Whether arg (with the next argument, `*takes_next`) is a flag analysis must not run with.
const char *untrusted_flag(llvm::StringRef arg, llvm::StringRef next, const std::string &root,
                           bool *takes_next) {
  *takes_next = false;
  if (arg == "--serialize-diagnostics" || arg == "-serialize-diagnostic-file") {
    *takes_next = true;
    return "it writes a file";
  }
  if (arg.startswith("--serialize-diagnostics=") || arg.startswith("-save-temps") ||
      arg.startswith("-fprofile-") || arg.startswith("-fcs-profile-") ||
      arg.startswith("-fcoverage-") || arg.startswith("-fdebug-compilation-dir"))
    return "it writes or reads files beside the compilation";
  if (arg.startswith("-fplugin") || arg.startswith("-fpass-plugin"))
    return "it loads code into the analyzer";
  if (arg == "-include" || arg == "-imacros" || arg == "-include-pch") {
    *takes_next = true;
    std::string path = std::filesystem::path(next.str()).lexically_normal().string();
    if (std::filesystem::path(path).is_absolute() && !root.empty() &&
        path.rfind(root + "/", 0) != 0)
      return "it reads a file outside the project";
    *takes_next = false;
  }
  return nullptr;
}

// Drops the untrusted flags of database commands, noting each in dropped.
clang::tooling::ArgumentsAdjuster untrusted_flags_dropper(std::string root,
                                                          std::vector<DroppedFlag> &dropped) {
  return [root = std::move(root), &dropped](const clang::tooling::CommandLineArguments &args,
                                            llvm::StringRef) {
    clang::tooling::CommandLineArguments kept;
    for (std::size_t i = 0; i < args.size(); ++i) {
      llvm::StringRef next = i + 1 < args.size() ? llvm::StringRef(args[i + 1]) : "";
      if (args[i] == "-Xclang" && (next == "-load" || next == "-plugin" || next == "-add-plugin" ||
                                   next == "-load-pass-plugin" || next.startswith("-plugin-arg"))) {
        // -Xclang -load -Xclang PATH: the plugin's path is the next -Xclang's argument.
        std::string flag = args[i] + " " + args[i + 1];
        ++i;
        if (i + 2 < args.size() && args[i + 1] == "-Xclang") {
          flag += " -Xclang " + args[i + 2];
          i += 2;
        }
        dropped.push_back({flag, "it loads code into the analyzer"});
        continue;
      }
      bool takes_next = false;
      const char *why = untrusted_flag(args[i], next, root, &takes_next);
      if (!why) {
        kept.push_back(args[i]);
        continue;
      }
      std::string flag = args[i];
      if (takes_next && i + 1 < args.size()) flag += " " + args[++i];
      dropped.push_back({flag, why});
    }
    return kept;
  };
}

llvm::cl::OptionCategory category("tracelint analyze options");
llvm::cl::opt<bool> cross_unit_option(
    "cross-unit",
    llvm::cl::desc("With -p: follow the function summaries (a repr, a lossy number, an unescaped "
                   "string reached through a function) into the database's other units that "
                   "name the functions the given files call, read for their summaries only (64 "
                   "at most). Opt-in, as Clang's cross-translation-unit analysis: it reads more "
                   "than the files given. The files given always share their summaries"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> verbose_option(
    "verbose",
    llvm::cl::desc("Say which flags of the compilation database were dropped, and why (flags "
                   "that load plugins, write files or read files outside the project)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> format_option("format",
                                         llvm::cl::desc("text, json, sarif, junit, github or html"),
                                         llvm::cl::init("text"), llvm::cl::cat(category));
llvm::cl::opt<std::string> codegen_option(
    "codegen-pattern",
    llvm::cl::desc("Regex on function names (case-insensitive) that print Python once some text "
                   "they spell out parses as Python and none is C++; "
                   "[[clang::annotate(\"tracelint::codegen\")]] marks one whatever it writes. "
                   "Functions that print Python statements are found without either. Empty: none"),
    llvm::cl::init("^(print|emit|codegen)"), llvm::cl::cat(category));
llvm::cl::opt<std::string> not_codegen_option(
    "not-codegen-pattern",
    llvm::cl::desc("Regex on function names (case-insensitive) that never print Python: their "
                   "writes are not checked (also [[clang::annotate(\"tracelint::not_codegen\")]])"),
    llvm::cl::init(""), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    repr_option("repr-pattern",
                llvm::cl::desc("Regex on function names (case-insensitive) that return debug "
                               "reprs (also [[clang::annotate(\"tracelint::repr\")]], a type "
                               "marked so, and a type whose operator<< or formatter prints "
                               "`name=`, `value=` or its name in brackets)"),
                llvm::cl::init("^(repr|debug_?(string|repr)|to_debug_string|__repr__)$"),
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

// The patterns: the flags given, else [tool.tracelint.analyzer] in the nearest pyproject.toml
// (from the first file's folder up). None, with the reason on stderr, when one is bad.
std::optional<PrinterSettings> printer_settings(const std::vector<std::string> &sources) {
  std::string codegen = codegen_option, not_codegen = not_codegen_option, repr_names = repr_option;
  if (!sources.empty()) {
    std::string dir = std::filesystem::path(sources.front()).parent_path().string();
    if (std::optional<std::string> config = find_config(dir.empty() ? "." : dir)) {
      try {
        Result<std::string> text = pyproject_text(*config);
        if (!text) throw toml::parse_error(text.error().message.c_str(), toml::source_region{});
        toml::table table = toml::parse(text.value(), *config);
        const toml::node_view<toml::node> section = table["tool"]["tracelint"]["analyzer"];
        for (auto [key, target, option] :
             {std::tuple<const char *, std::string *, llvm::cl::opt<std::string> *>{
                  "codegen-pattern", &codegen, &codegen_option},
              {"not-codegen-pattern", &not_codegen, &not_codegen_option},
              {"repr-pattern", &repr_names, &repr_option}}) {
          if (option->getNumOccurrences() > 0 || !section[key]) continue;
          if (!section[key].is_string()) {
            llvm::errs() << *config << ": [tool.tracelint.analyzer] " << key
                         << " must be a string\n";
            return std::nullopt;
          }
          *target = *section[key].value<std::string>();
        }
      } catch (const toml::parse_error &e) {
        llvm::errs() << *config << ":" << e.source().begin.line << ":" << e.source().begin.column
                     << ": " << std::string(e.description()) << "\n";
        return std::nullopt;
      }
    }
  }
  auto compile = [](const std::string &pattern) {
    return llvm::Regex(pattern, llvm::Regex::IgnoreCase);
  };
  PrinterSettings settings{std::nullopt, std::nullopt, compile(repr_names)};
  if (!codegen.empty()) settings.codegen = compile(codegen);
  if (!not_codegen.empty()) settings.not_codegen = compile(not_codegen);
  std::string error;
  for (const llvm::Regex *r :
       {settings.codegen ? &*settings.codegen : nullptr,
        settings.not_codegen ? &*settings.not_codegen : nullptr, &settings.repr})
    if (r && !r->isValid(error)) {
      llvm::errs() << "tracelint analyze: bad pattern: " << error << "\n";
      return std::nullopt;
    }
  return settings;
}

// The database's flags are untrusted (flags typed after `--` are the user's): the project is
// the smallest folder holding the database and the first file.
clang::tooling::ArgumentsAdjuster database_flags_filter(const FlagSource &flags,
                                                        const std::string &first_source,
                                                        std::vector<DroppedFlag> &dropped) {
  if (flags.after_dashes) return nullptr;
  std::error_code ec;
  std::filesystem::path source = std::filesystem::absolute(first_source, ec).lexically_normal();
  std::filesystem::path database = source.parent_path();
  if (flags.build) {
    database = std::filesystem::absolute(*flags.build, ec).lexically_normal();
  } else {
    while (!std::filesystem::exists(database / "compile_commands.json", ec) &&
           database.has_parent_path() && database.parent_path() != database)
      database = database.parent_path();
  }
  std::filesystem::path root = database;
  while (!root.empty() && root.has_parent_path() && root.parent_path() != root &&
         source.string().rfind(root.string() + "/", 0) != 0)
    root = root.parent_path();
  return untrusted_flags_dropper(root.string(), dropped);
}

// Every file through Clang, the findings that waited on other units finished, the report
// printed; the exit code.
int analyze_files(const clang::tooling::CompilationDatabase &compilations,
                  const std::vector<std::string> &sources, const PrinterSettings &settings,
                  const FlagSource &flags, Format format) {
  std::vector<DroppedFlag> dropped;
  clang::tooling::ArgumentsAdjuster untrusted =
      database_flags_filter(flags, sources.front(), dropped);
  std::vector<FileReport> reports;
  bool failed = false;
  // Several units: a chain from a printed value to a repr may run through another's functions.
  // With a compilation database (-p) and --cross-unit, also into the database's other units.
  UnitSummaries units;
  bool database = flags.build && !flags.after_dashes && cross_unit_option;
  UnitSummaries *shared = sources.size() > 1 || database ? &units : nullptr;
  for (const std::string &source : sources) {
    reports.push_back(analyze_file(compilations, source, settings, untrusted, shared));
    failed |= reports.back().error.has_value();
  }
  if (database) read_units_for_waiting(compilations, sources, settings, untrusted, units);
  finish_waiting(units, reports);
  if (verbose_option) {
    std::set<std::string> said;
    for (const DroppedFlag &d : dropped)
      if (said.insert(d.flag).second)
        llvm::errs() << "tracelint analyze: dropped `" << d.flag
                     << "` from the compilation database: " << d.why << "\n";
  }
  std::cout << render(reports, format);
  if (failed) {
    llvm::errs() << "tracelint analyze: some files could not be compiled or read (the report says "
                    "why)\n";
    return 2;
  }
  for (const FileReport &r : reports)
    if (r.has_at_least(Severity::Error)) return 1;
  return 0;
}

// Not CommonOptionsParser::HelpMessage: it promises the upward search this command refuses.
const char *const kAnalyzeHelp =
    "\nChecks C++ code that prints Python: TLA001 repr-in-codegen, TLA002\n"
    "invalid-python-template, TLA003 lossy-literal, TLA004 unescaped-string. A printer is a\n"
    "function whose output (a stream, a string it returns or builds, a FILE*, a buffer) gets\n"
    "Python statements (`def `, `import `, `x = torch.add(`, `return x`), with the functions\n"
    "it passes that output to or takes text from; also functions marked\n"
    "[[clang::annotate(\"tracelint::codegen\")]] or matching --codegen-pattern.\n"
    "Styles followed: <<, + and +=, .append, fmt::format/format_to/print, std::format,\n"
    "printf/fprintf/snprintf, std::to_string, and locals holding text. A debug repr is\n"
    "followed through the printer's own functions (an operator<< or formatter that prints\n"
    "`p.repr()`, a toString() that returns it), also into the other files of the same run:\n"
    "`tracelint analyze -p build src/printer.cpp src/proxy.cpp` finds printer.cpp's\n"
    "`os << stop` whose operator<< proxy.cpp defines; `-p build --cross-unit\n"
    "src/printer.cpp` reads proxy.cpp from the database for it.\n\n"
    "Compile flags: -p BUILD_DIR reads BUILD_DIR/compile_commands.json (CMake writes it with\n"
    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON; the folders above are not searched), or `-- FLAGS`\n"
    "after the files gives them: `tracelint analyze src/printer.cpp -- -std=c++17 -Iinclude`.\n"
    "With neither, nothing is compiled (exit 2) unless --find-compile-db asks for a search\n"
    "upwards (clang-tidy's default, opt-in here: a checkout's database can carry any flag).\n"
    "A file that does not compile is a failed file in the report, with Clang's first error.\n"
    "Exit codes: 0 clean, 1 findings, 2 usage, I/O or compile error.\n";

int analyze_main(int argc, const char **argv) {
  llvm::cl::extrahelp more(kAnalyzeHelp);
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
  std::optional<PrinterSettings> settings = printer_settings(parser->getSourcePathList());
  if (!settings) return 2;
  return analyze_files(parser->getCompilations(), parser->getSourcePathList(), *settings, flags,
                       *format);
}

} // namespace tracelint
