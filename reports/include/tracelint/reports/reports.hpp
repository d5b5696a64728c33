#pragma once
#include "tracelint/validator/validator.hpp"

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
};

// Renders the reports in order; the output is deterministic for the same input.
std::string render(const std::vector<FileReport> &reports, Format format,
                   const RenderOptions &options = {});

// The version of the JSON report schema (docs/json-schema.md).
inline constexpr int kJsonSchemaVersion = 1;

} // namespace tracelint
