#include "tracelint/validator/options.hpp"

#include "tracelint/rules/rule.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace tracelint {

namespace {

// How specific a selector is: ALL least, then longer prefixes more.
std::size_t specificity(std::string_view selector) {
  return selector == "ALL" ? 0 : selector.size();
}

bool selects(std::string_view selector, std::string_view code) {
  return selector == "ALL" || (!selector.empty() && code.substr(0, selector.size()) == selector);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::size_t common_suffix(std::string_view a, std::string_view b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n])
    ++n;
  return n;
}

std::vector<std::string> rule_codes() {
  std::vector<std::string> codes;
  for (const Rule *rule : all_rules())
    codes.emplace_back(rule->code);
  return codes;
}

// Every code, then every shorter prefix of one ("TL00", "TL0", ...), longest first: a near miss
// of a whole code ("TL03") is more likely a code than a prefix.
std::vector<std::string> codes_and_prefixes() {
  std::vector<std::string> out = rule_codes();
  std::vector<std::string> prefixes;
  for (const std::string &code : rule_codes())
    for (std::size_t n = 3; n < code.size(); ++n)
      if (std::find(prefixes.begin(), prefixes.end(), code.substr(0, n)) == prefixes.end())
        prefixes.push_back(code.substr(0, n));
  std::stable_sort(prefixes.begin(), prefixes.end(),
                   [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
  out.insert(out.end(), prefixes.begin(), prefixes.end());
  return out;
}

std::string with_suggestion(std::string message, std::string_view word,
                            const std::vector<std::string> &candidates) {
  if (std::optional<std::string> close = did_you_mean(word, candidates))
    return message + " (did you mean " + *close + "?)";
  return message + " (`tracelint rules` lists the codes)";
}

} // namespace

std::optional<bool> RuleSelection::verdict(std::string_view code) const {
  std::optional<bool> decision;
  std::size_t best = 0;
  auto consider = [&](const std::vector<std::string> &selectors, bool on) {
    for (const std::string &s : selectors) {
      if (!selects(s, code)) continue;
      std::size_t level = specificity(s);
      // Ignore is applied after select at the same specificity, so it wins a tie.
      if (!decision || level > best || (level == best && !on)) {
        decision = on;
        best = level;
      }
    }
  };
  if (select) consider(*select, true);
  consider(extend_select, true);
  consider(ignore, false);
  return decision;
}

bool Options::enabled(std::string_view code) const {
  bool on = true;
  for (const RuleSelection &layer : rules) {
    std::optional<bool> v = layer.verdict(code);
    if (layer.select)
      on = v.value_or(false);
    else if (v)
      on = *v;
  }
  return on;
}

std::string normalize_selector(std::string_view selector) {
  std::string out(selector);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// A selector as a message quotes it: a code is a few characters, a 10 MB one is cut.
static std::string quoted_selector(std::string_view selector) {
  constexpr std::size_t kLongest = 40;
  if (selector.size() <= kLongest) return std::string(selector);
  std::size_t cut = kLongest;
  while (cut > 0 && (static_cast<unsigned char>(selector[cut]) & 0xC0) == 0x80)
    --cut; // on a UTF-8 character boundary
  return std::string(selector.substr(0, cut)) + "... (" + std::to_string(selector.size()) +
         " bytes)";
}

std::optional<std::string> unknown_selector(std::string_view selector) {
  if (selector == "ALL") return std::nullopt;
  const std::vector<const Rule *> &rules = all_rules();
  if (std::any_of(rules.begin(), rules.end(),
                  [&](const Rule *rule) { return selects(selector, rule->code); }))
    return std::nullopt;
  return with_suggestion("unknown rule code or prefix '" + quoted_selector(selector) + "'",
                         selector, codes_and_prefixes());
}

std::optional<std::string> unknown_code(std::string_view code) {
  if (find_rule(code)) return std::nullopt;
  return with_suggestion("unknown rule code '" + quoted_selector(code) + "'", code, rule_codes());
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string> &candidates) {
  // No code is long: a long word is like none of them, and its edit distances would cost its
  // length times theirs each.
  constexpr std::size_t kLongestCompared = 32;
  if (word.size() > kLongestCompared) return std::nullopt;
  std::size_t limit = std::max<std::size_t>(1, (word.size() + 2) / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1, best_suffix = 0;
  for (const std::string &candidate : candidates) {
    std::size_t d = edit_distance(word, candidate);
    if (d == 0 || d > limit || d > best_distance) continue;
    // At the same distance, the candidate that ends as the word does: a code's last digits are
    // what tells it apart ("TL0012" is TL012 with a zero too many, not TL001 cut short).
    std::size_t suffix = common_suffix(word, candidate);
    if (d < best_distance || suffix > best_suffix) {
      best = candidate;
      best_distance = d;
      best_suffix = suffix;
    }
  }
  return best;
}

} // namespace tracelint
