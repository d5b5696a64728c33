#pragma once
// `tracelint check --fix` and `--diff`: which of a file's fixes are safe to apply, and applying
// them to the files (or printing them).
#include "tracelint/validator/validator.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::cli {

// Checks a text again as the file it came from. every_rule: with every rule enabled (the
// safety check of a fix must see syntax errors even under --select); otherwise with the file's
// own options (the report after the fix). own_options_are_every_rule: the two are the same, so
// one check serves both.
struct Recheck {
  std::function<FileReport(const std::string &text, bool every_rule)> check;
  bool own_options_are_every_rule = false;
};

struct FixPlan {
  std::string text;                     // the checked text with the kept fixes applied
  std::size_t applied = 0;              // how many fixes text holds
  std::vector<std::string> not_applied; // "path:line:col: TL002 fix not applied (...): why"
  // The check of text with the file's own options, when planning made it anyway.
  std::optional<FileReport> report;
};

// The report's fixes that leave the file better, as ruff does: apply them, check the result,
// and drop each fix after which its region still has the finding it fixes, or a syntax error
// the original did not have there; then again with the rest, until a round drops nothing.
FixPlan plan_fixes(const FileReport &report, const Recheck &recheck);

struct FixSettings {
  bool write = false; // --fix: replace the files ("-": print the fixed text)
  bool diff = false;  // --diff: print the changes as a unified diff, write nothing
  bool force = false; // --force: also fix read-only files and files of other users
  bool quiet = false; // --quiet: no "applied N fixes" lines (what was not applied is still said)
};

// Applies the safe fixes of each report to its file (paths[i] for reports[i]), says on
// standard error which fixes were not applied and why, and replaces each fixed file's report
// with the check of its new text. Returns whether a file could not be fixed (an I/O error).
bool fix_files(const std::vector<std::string> &paths, std::vector<FileReport> &reports,
               const FixSettings &settings,
               const std::function<Recheck(std::size_t file)> &recheck);

} // namespace tracelint::cli
