#pragma once
// `tracelint check --add-noqa`: silences every finding where it stands with a `# noqa: CODE`
// comment, for adopting tracelint on traces that exist (ruff's --add-noqa).
#include "tracelint/validator/validator.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tracelint::cli {

struct NoqaPlan {
  std::string text;                   // the checked text with the comments added
  std::size_t added = 0;              // lines that got a comment or more codes in theirs
  std::vector<std::string> not_added; // "path:line: TL003 is not silenced ...: why"
};

// For each line with findings: `  # noqa: CODES` at its end, or the codes added to the noqa
// comment it has. recheck checks a text as the file (its own options); a line where the
// comment would not silence the findings (it lies inside a string) or would break the file is
// left as it was, and said. Syntax errors (TL001) and TL021 are not silenced: the first is to
// be fixed, the second is about noqa comments themselves.
NoqaPlan plan_noqa(const FileReport &report,
                   const std::function<FileReport(const std::string &text)> &recheck);

struct AddNoqaResult {
  bool io_error = false;  // a file could not be rewritten
  bool left_over = false; // a finding could not be silenced (said on standard error)
};

// Adds the comments to each file (paths[i] for reports[i]; "-": the text is printed), each
// replaced atomically as --fix replaces it, and says on standard error what was added where
// (unless quiet) and what was not.
AddNoqaResult add_noqa_to_files(
    const std::vector<std::string> &paths, const std::vector<FileReport> &reports, bool quiet,
    const std::function<FileReport(std::size_t file, const std::string &text)> &recheck);

} // namespace tracelint::cli
