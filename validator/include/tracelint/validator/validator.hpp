#pragma once
// The library entry points: check a source text or files, get diagnostics back.
#include "tracelint/core/diagnostic.hpp"
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

struct Options {
  // Rule codes or prefixes ("TL0", "TL003"); empty select means every rule.
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::set<std::string> context_names;
  std::map<std::string, Severity> severity;
  Severity fail_on = Severity::Error;
  // Threads that parse the statement chunks of one large trace.
  unsigned threads = 1;

  // Whether diagnostics of this code are reported.
  bool enabled(std::string_view code) const;
};

// The diagnostics of one file, sorted by position then code.
struct FileReport {
  SourceText source;
  std::vector<Diagnostic> diagnostics;
  std::optional<Error> error; // the file could not be read: no diagnostics then

  bool has_at_least(Severity s) const;
};

// Checks one text. Thread-safe: no shared mutable state.
FileReport check_source(std::string path, std::string text, const Options &options);

// [tool.tracelint] of a pyproject.toml, applied on top of base. Keys: select, ignore,
// context-names, severity (table code -> "error"|"warning"|"info"), fail-on. A select or
// ignore entry that names no rule is an error at its line and column.
Result<Options> load_config(const std::string &pyproject_path, Options base);
// The nearest pyproject.toml with a [tool.tracelint] table, from dir up to the project root
// (the first directory holding .git, or that pyproject), never past it: a stray pyproject in
// /tmp or / must not configure someone else's project.
std::optional<std::string> find_config(const std::string &dir);

// The first selector ("TL003", a prefix such as "TL0", or "ALL") that matches no rule code, or
// nullopt. A typo in select would otherwise turn every rule off, and one in ignore nothing.
std::optional<std::string> unknown_rule_selector(const std::vector<std::string> &selectors);

// Lines carrying "# noqa" or "# noqa: TL003, TL005" and the codes they silence (empty: all).
std::map<uint32_t, std::set<std::string>> noqa_lines(const SourceText &source);

} // namespace tracelint
