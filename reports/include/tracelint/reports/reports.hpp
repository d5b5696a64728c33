#pragma once
#include "tracelint/validator/validator.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// Text is the full report ("full"): each finding with its source line, a caret under its span,
// its notes and its fix. Concise: one line per finding; grouped: one block per file.
enum class Format { Text, Concise, Grouped, Json, Sarif, Junit, Github, Html };

// "full" (or "text"), "concise", "grouped", "json", "sarif", "junit", "github", "html".
std::optional<Format> parse_format(std::string_view name);
// The names parse_format accepts, as a user is told them: "full, concise, ..., html".
std::string_view format_names();

struct RenderOptions {
  bool color = false; // ANSI colors (full, concise and grouped)
  // full, concise and grouped: the closing line ("Found 3 problems ...", "All checks passed")
  // and how many findings --fix can fix; --quiet leaves them out.
  bool summary = true;
  Severity fail_on = Severity::Error; // JUnit: what makes a testcase fail
  // HTML: the Graphviz binary that draws the dataflow (empty: /usr/bin/dot or /usr/local/bin/dot,
  // never one found on PATH), how long it may run before it is stopped and the graph is shown as
  // DOT source instead, and the most names one file's graph draws (larger graphs take dot
  // minutes and cannot be read).
  std::string graphviz_dot;
  std::chrono::milliseconds graphviz_timeout{10000};
  std::size_t graph_max_names = 150;
  // SARIF: the absolute URI of docs/rules.md (published, or the installed copy as file://);
  // each rule's helpUri is its section there. Empty: no helpUri.
  std::string rules_doc_url;
};

// A path as the path of a URI (RFC 3986): bytes other than letters, digits, '/', '-', '.', '_'
// and '~' percent-encoded. SARIF's artifact locations; "file://" + uri_path(absolute) a file URI.
std::string uri_path(std::string_view path);

// Renders the reports in order; the output is deterministic for the same input.
std::string render(const std::vector<FileReport> &reports, Format format,
                   const RenderOptions &options = {});

// --statistics: how many findings of each code, the most frequent first, and whether --fix can
// fix them: a table, or (Format::Json) an array of {code, name, count, fixable}.
std::string render_statistics(const std::vector<FileReport> &reports, Format format);

// How many findings carry a fix (`check --fix` applies each that leaves its file valid).
std::size_t fixable_count(const std::vector<FileReport> &reports);

// The version of the JSON report schema (docs/json-schema.md).
inline constexpr int kJsonSchemaVersion = 1;

} // namespace tracelint
