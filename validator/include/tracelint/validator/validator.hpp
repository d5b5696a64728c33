#pragma once
// The library entry points: check a source text or files, get diagnostics back.
#include "tracelint/core/diagnostic.hpp"
#include "tracelint/core/noqa.hpp"
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"
#include "tracelint/validator/config.hpp"
#include "tracelint/validator/options.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// The diagnostics of one file, sorted by position then code.
struct FileReport {
  SourceText source;
  std::vector<Diagnostic> diagnostics;
  std::optional<Error> error; // the file could not be read: no diagnostics then
  // Why the file was read as ordinary Python, no trace ("a class statement"): only the rules
  // that hold for any Python checked it. Never set when the options name a dialect.
  std::optional<std::string> plain_python;

  bool has_at_least(Severity s) const;
};

// Checks one text. Thread-safe: no shared mutable state. A "# noqa:" naming no rule is the
// report's error (invalid_noqa).
FileReport check_source(std::string path, std::string text, const Options &options);

// The file's "# noqa" and "# noqa: TL003, TL005" comments, where they stand and what they name.
std::vector<NoqaComment> noqa_comments(const SourceText &source);
// Lines carrying "# noqa" or "# noqa: TL003, TL005" and the codes they silence (empty: all).
// Codes are case-insensitive (upper case here).
std::map<uint32_t, std::set<std::string>> noqa_lines(const SourceText &source);
// The first "# noqa:" code that looks like tracelint's (TL...) but names no rule, as an error at
// its line and column with the closest code: a typo there would silence nothing. Other tools'
// codes (E501, F401) are theirs.
std::optional<Error> invalid_noqa(const SourceText &source);

} // namespace tracelint
