// The traces Lightning Thunder printed (../shared/corpus/thunder/real): each parses into the
// model, each valid one validates with no error, each degenerate one gets its code.
#include "support.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

using namespace tracelint;

namespace {

struct Expectation {
  bool parses = true;  // the "parses" column: CPython's ast.parse accepts it
  bool valid = true;   // the "expected valid" column
  std::string reading; // the column's text
};

// The table of SOURCES.md, by file name.
std::map<std::string, Expectation> read_sources(const std::string &dir) {
  std::map<std::string, Expectation> table;
  std::istringstream in(test::read_file(dir + "/SOURCES.md"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| 0", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    std::string cell;
    while (std::getline(row, cell, '|'))
      cells.push_back(std::regex_replace(cell, std::regex("^\\s+|\\s+$"), ""));
    if (cells.size() < 10) continue;
    Expectation e;
    e.parses = cells[7].rfind("yes", 0) == 0;
    e.reading = cells[9];
    e.valid = !std::regex_search(e.reading, std::regex("\\bNO\\b")) &&
              e.reading.rfind("fragment", 0) != 0;
    table[cells[0]] = e;
  }
  return table;
}

// What the degenerate traces must be flagged with: the reading in SOURCES.md says why.
const std::map<std::string, std::string> kDegenerate = {
    {"002_trace_intro_no_signature.py", "TL010"},             // "# No signature available"
    {"003_trace_intro_signature_only.py", "TL010"},           // def with empty body
    {"035_old_adding_operator_executor_initial.py", "TL012"}, // ltorch never imported
    {"045_docs_mlp_mnist_augmented_forward.py", "TL012"},     // header elided: torch, no_autocast
    {"048_docs_readme_mlp_flattened.py", "TL010"},            // body lost its indentation
    {"049_docs_inside_thunder_nanogpt_softmax_fragment.py", "TL013"},
    {"059_pr1061_prologue_symbolic_fragment.py", "TL013"},
};

} // namespace

TEST_CASE("real Thunder traces: SOURCES.md lists every file") {
  std::optional<std::string> dir = test::shared_corpus("thunder/real");
  if (!dir) return;
  auto table = read_sources(*dir);
  auto files = test::python_files(*dir);
  CHECK(files.size() == 59);
  for (const std::string &f : files)
    CHECK_MESSAGE(table.count(std::filesystem::path(f).filename().string()), f);
}

TEST_CASE("real Thunder traces parse into the model and the model is stable") {
  std::optional<std::string> dir = test::shared_corpus("thunder/real");
  if (!dir) return;
  auto table = read_sources(*dir);
  std::size_t modelled = 0, python = 0;
  for (const std::string &path : test::python_files(*dir)) {
    std::string name = std::filesystem::path(path).filename().string();
    ParsedFile parsed = parse_trace_source(name, test::read_file(path));
    const Expectation &e = table[name];
    if (!e.parses) continue;
    ++python;
    // Valid Python: tree-sitter agrees, and every statement is modelled.
    CHECK_MESSAGE(parsed.syntax.empty(), name << ": " << parsed.syntax.front().message);
    for (const ModelProblem &p : parsed.model)
      MESSAGE(name << ":" << p.span.line << ":" << p.span.column
                   << " cannot be modelled: " << p.message);
    CHECK_MESSAGE(parsed.model.empty(), name);
    modelled += parsed.model.empty();
    // print -> parse -> print is the identity on the printed form.
    std::string printed = print_trace_file(parsed.file);
    ParsedFile again = parse_trace_source(name, printed);
    CHECK_MESSAGE(again.file == parsed.file, name);
    CHECK_MESSAGE(print_trace_file(again.file) == printed, name);
  }
  MESSAGE(modelled << " of " << python << " traces that are valid Python are fully modelled");
  CHECK(python >= 55);
}

TEST_CASE("real Thunder traces: valid ones have no errors, degenerate ones get their code") {
  std::optional<std::string> dir = test::shared_corpus("thunder/real");
  if (!dir) return;
  auto table = read_sources(*dir);
  for (const std::string &path : test::python_files(*dir)) {
    std::string name = std::filesystem::path(path).filename().string();
    const Expectation &e = table[name];
    FileReport report = check_source(name, test::read_file(path), Options{});
    if (e.valid) {
      for (const Diagnostic &d : report.diagnostics)
        CHECK_MESSAGE(d.severity != Severity::Error,
                      name << ":" << d.span.line << ":" << d.span.column << " " << d.code << " "
                           << d.message << " (SOURCES.md: " << e.reading << ")");
      continue;
    }
    auto expected = kDegenerate.find(name);
    REQUIRE_MESSAGE(expected != kDegenerate.end(), name << " is not valid per SOURCES.md ("
                                                        << e.reading
                                                        << ") but has no expected code");
    bool found = std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                             [&](const Diagnostic &d) { return d.code == expected->second; });
    CHECK_MESSAGE(found, name << " should get " << expected->second);
  }
}

TEST_CASE("real Thunder traces: at most one warning per file on average") {
  std::optional<std::string> dir = test::shared_corpus("thunder/real");
  if (!dir) return;
  std::size_t files = 0, warnings = 0, tl011 = 0;
  for (const std::string &path : test::python_files(*dir)) {
    FileReport report = check_source(path, test::read_file(path), Options{});
    ++files;
    for (const Diagnostic &d : report.diagnostics)
      if (d.severity == Severity::Warning) {
        ++warnings;
        tl011 += d.code == "TL011";
        // Thunder's executors' own names are how a trace runs: never reported.
        CHECK_MESSAGE(d.message.find("`nvFusion") == std::string::npos, d.message);
        CHECK_MESSAGE(d.message.find("context object") == std::string::npos, d.message);
      }
  }
  MESSAGE(warnings << " warnings (" << tl011 << " TL011) in " << files << " files");
  CHECK(warnings <= files);
}
