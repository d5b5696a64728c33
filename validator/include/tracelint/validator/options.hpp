#pragma once
// The options of one check (which rules run, how findings are weighed) and the rule selectors
// they are made of: codes ("TL003"), prefixes ("TL0") and "ALL", case-insensitive.
#include "tracelint/core/diagnostic.hpp"
#include "tracelint/rules/dialect.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// One layer of rule selection, read as ruff reads select, extend-select and ignore: within a
// layer the most specific selector wins (select TL003 with ignore TL0 keeps TL003; at equal
// specificity ignore wins); a layer with select starts over from its own selection, one without
// changes what the layers before enabled.
struct RuleSelection {
  std::optional<std::vector<std::string>> select; // nullopt: not given (keep what was enabled)
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;

  bool empty() const { return !select && extend_select.empty() && ignore.empty(); }
  // Whether this layer turns code on (true), off (false) or says nothing about it.
  std::optional<bool> verdict(std::string_view code) const;
};

struct Options {
  // Applied in order over "every rule": a configuration file's selection, then the command
  // line's, then the per-file-ignores that match the file. Empty: every rule.
  std::vector<RuleSelection> rules;
  std::set<std::string> context_names;
  // The file's dialect; nullopt: detected from its text (detect_dialect).
  std::optional<Dialect> dialect;
  std::map<std::string, Severity> severity;
  Severity fail_on = Severity::Error;
  // Threads that parse the statement chunks of one large trace.
  unsigned threads = 1;

  // Whether diagnostics of this code are reported.
  bool enabled(std::string_view code) const;
};

// The canonical spelling of a selector or code: upper case ("tl003" is TL003, "all" is ALL).
std::string normalize_selector(std::string_view selector);

// Why a (normalized) selector names no rule, with the closest code or prefix when there is one
// ("unknown rule code or prefix 'TL999' (did you mean TL009?)"), or nullopt when it names some.
// A typo in select would otherwise turn every rule off, and one in ignore nothing.
std::optional<std::string> unknown_selector(std::string_view selector);
// The same for a whole rule code (severity tables, noqa comments): prefixes are not codes.
std::optional<std::string> unknown_code(std::string_view code);

// The candidate closest to word in edit distance, when it is close enough to be what was meant
// (at most a third of the word's length, and at least one edit, apart); ties: the one sharing
// the longest ending with word, then the first.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string> &candidates);

} // namespace tracelint
