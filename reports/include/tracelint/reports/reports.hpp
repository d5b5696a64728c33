#pragma once
#include "tracelint/validator/validator.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

enum class Format { Text, Json, Sarif, Junit, Github, Html };

std::optional<Format> parse_format(std::string_view name);

struct RenderOptions {
  bool color = false;                 // ANSI colors (text only)
  Severity fail_on = Severity::Error; // JUnit: what makes a testcase fail
  // HTML: the Graphviz binary that draws the dataflow (empty: /usr/bin/dot or /usr/local/bin/dot,
  // never one found on PATH), how long it may run before it is stopped and the graph is shown as
  // DOT source instead, and the most names one file's graph draws (larger graphs take dot
  // minutes and cannot be read).
  std::string graphviz_dot;
  std::chrono::milliseconds graphviz_timeout{10000};
  std::size_t graph_max_names = 150;
};

// Renders the reports in order; the output is deterministic for the same input.
std::string render(const std::vector<FileReport> &reports, Format format,
                   const RenderOptions &options = {});

// The version of the JSON report schema (docs/json-schema.md).
inline constexpr int kJsonSchemaVersion = 1;

} // namespace tracelint
