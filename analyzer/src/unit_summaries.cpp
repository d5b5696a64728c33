#include "unit_summaries.hpp"

#include <filesystem>

namespace tracelint::analyzer {

std::string render_steps(const std::vector<ReprStep> &steps, const std::string &main_file) {
  std::string out;
  for (const ReprStep &s : steps) {
    if (!out.empty()) out += " \u2192 ";
    out += "`" + s.function + "`";
    if (s.line == 0) continue;
    if (s.file == main_file)
      out += " at line " + std::to_string(s.line);
    else
      out +=
          " at " + std::filesystem::path(s.file).filename().string() + ":" + std::to_string(s.line);
  }
  return out;
}

void UnitSummaries::define(const std::string &usr, ReprChain chain) {
  // The first unit's word stands (a function defined in a header is summarised by each unit
  // that includes it, alike).
  chains_.try_emplace(usr, std::move(chain));
}

void UnitSummaries::define_problems(const std::string &usr, std::vector<TextProblem> problems) {
  problems_.try_emplace(usr, std::move(problems));
}

const std::vector<TextProblem> *UnitSummaries::problems(const std::string &usr) const {
  auto it = problems_.find(usr);
  return it == problems_.end() ? nullptr : &it->second;
}

std::set<std::string> UnitSummaries::missing_names() const {
  std::set<std::string> names;
  for (const Waiting &w : waiting_) {
    std::string usr = w.chain.continues_in, name = w.chain.continues_name;
    std::set<std::string> followed;
    while (!usr.empty() && seen_.count(usr) && followed.insert(usr).second) {
      auto it = chains_.find(usr);
      if (it == chains_.end()) break; // defined, and its text is no repr: nothing to look for
      usr = it->second.continues_in;
      name = it->second.continues_name;
    }
    if (!usr.empty() && !seen_.count(usr) && !name.empty()) names.insert(name);
  }
  return names;
}

std::optional<std::vector<ReprStep>> UnitSummaries::resolve(const ReprChain &chain) const {
  std::vector<ReprStep> steps = chain.steps;
  std::set<std::string> seen;
  std::string next = chain.continues_in;
  while (!next.empty()) {
    if (!seen.insert(next).second) return std::nullopt; // round in a cycle
    auto it = chains_.find(next);
    if (it == chains_.end()) return std::nullopt;
    steps.insert(steps.end(), it->second.steps.begin(), it->second.steps.end());
    next = it->second.continues_in;
  }
  return steps;
}

} // namespace tracelint::analyzer
