#pragma once
// What a check found: a code, a severity, an exact span, a message and maybe a fix.
#include "tracelint/core/source.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

enum class Severity { Info, Warning, Error };

std::string_view severity_name(Severity s);
std::optional<Severity> parse_severity(std::string_view name);

// Replace bytes [begin, end) of the checked text.
struct Edit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
};

struct Fix {
  std::string description; // "replace the repr with `i10`"
  std::vector<Edit> edits;
};

// Another place the diagnostic refers to ("first defined here").
struct RelatedLocation {
  Span span;
  std::string message;
};

struct Diagnostic {
  std::string code; // TL003
  Severity severity = Severity::Error;
  Span span;
  std::string message;
  std::optional<Fix> fix;
  std::vector<RelatedLocation> related;
};

// Applies the non-overlapping edits of the given fixes, earliest first; an edit that
// overlaps an earlier one is skipped. Returns the new text and how many fixes applied.
std::pair<std::string, std::size_t> apply_fixes(const std::string &text,
                                                const std::vector<const Fix *> &fixes);

// A fix that apply_fixes_mapped applied, and where: bytes [begin, end) of the original (from
// its first edit's start to its last edit's end) became [fixed_begin, fixed_end) of the fixed
// text. A caller re-checks that range to tell whether the fix did what it said.
struct AppliedFix {
  const Fix *fix = nullptr;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t fixed_begin = 0;
  std::size_t fixed_end = 0;
};
struct FixedText {
  std::string text;
  std::vector<AppliedFix> applied; // in text order
};
// apply_fixes, also saying where each applied fix landed.
FixedText apply_fixes_mapped(const std::string &text, const std::vector<const Fix *> &fixes);

} // namespace tracelint
