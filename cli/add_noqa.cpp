#include "add_noqa.hpp"

#include "file_writer.hpp"

#include "tracelint/core/escape.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

namespace tracelint::cli {

namespace {

constexpr std::string_view kSyntaxError = "TL001";
constexpr std::string_view kUnusedNoqa = "TL021";

using CodesByLine = std::map<uint32_t, std::set<std::string>>;

// The codes to silence on each line.
CodesByLine codes_to_silence(const FileReport &report) {
  CodesByLine lines;
  for (const Diagnostic &d : report.diagnostics)
    if (d.code != kSyntaxError && d.code != kUnusedNoqa) lines[d.span.line].insert(d.code);
  return lines;
}

std::string joined(const std::set<std::string> &codes) {
  std::string out;
  for (const std::string &code : codes)
    out += (out.empty() ? "" : ", ") + code;
  return out;
}

// The edits that add the codes of each line: to the line's noqa comment, or a new one at its
// end. Comments add no line, so line numbers stay those of the checked text.
std::vector<Edit> noqa_edits(const SourceText &source, const CodesByLine &lines) {
  std::map<uint32_t, const NoqaComment *> existing;
  std::vector<NoqaComment> comments = noqa_comments(source);
  for (const NoqaComment &c : comments)
    existing[c.line] = &c;
  std::vector<Edit> edits;
  for (const auto &[line, codes] : lines) {
    auto it = existing.find(line);
    if (it != existing.end() && it->second->codes.empty()) continue; // a bare noqa: all
    if (it != existing.end()) {
      edits.push_back({it->second->list_end, it->second->list_end, ", " + joined(codes)});
      continue;
    }
    std::size_t end = source.line_start(line) + source.line(line).size();
    edits.push_back({end, end, "  # noqa: " + joined(codes)});
  }
  return edits;
}

std::string apply(const std::string &text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) {
    return a.begin > b.begin; // from the end: earlier offsets stay valid
  });
  std::string out = text;
  for (const Edit &e : edits)
    out.replace(e.begin, e.end - e.begin, e.replacement);
  return out;
}

// The lines of `tried` whose comment did not work in `after`: a code meant to be silenced is
// still reported there, or a syntax error is new there.
std::set<uint32_t> failed_lines(const CodesByLine &tried, const FileReport &before,
                                const FileReport &after) {
  std::set<uint32_t> had_syntax_error;
  for (const Diagnostic &d : before.diagnostics)
    if (d.code == kSyntaxError) had_syntax_error.insert(d.span.line);
  std::set<uint32_t> failed;
  for (const Diagnostic &d : after.diagnostics) {
    auto it = tried.find(d.span.line);
    if (it != tried.end() && it->second.count(d.code)) failed.insert(d.span.line);
    if (d.code == kSyntaxError && !had_syntax_error.count(d.span.line)) {
      // A new syntax error (an unclosed string now swallowing code): the comment of its line,
      // or, reported elsewhere, of every tried line.
      if (tried.count(d.span.line)) {
        failed.insert(d.span.line);
      } else {
        for (const auto &[line, codes] : tried)
          failed.insert(line);
      }
    }
  }
  return failed;
}

} // namespace

NoqaPlan plan_noqa(const FileReport &report,
                   const std::function<FileReport(const std::string &text)> &recheck) {
  const std::string &original = report.source.text();
  NoqaPlan plan{original, 0, {}};
  CodesByLine tried = codes_to_silence(report);
  // Rounds until every comment left works: each round drops the lines that did not.
  while (!tried.empty()) {
    std::string text = apply(original, noqa_edits(report.source, tried));
    std::set<uint32_t> failed = failed_lines(tried, report, recheck(text));
    if (failed.empty()) {
      plan.text = std::move(text);
      plan.added = tried.size();
      break;
    }
    for (uint32_t line : failed) {
      plan.not_added.push_back(printable(report.source.path()) + ":" + std::to_string(line) + ": " +
                               joined(tried[line]) +
                               " not silenced: a noqa comment at the end of this line would not "
                               "apply to it (the line ends inside a string?)");
      tried.erase(line);
    }
  }
  return plan;
}

AddNoqaResult add_noqa_to_files(
    const std::vector<std::string> &paths, const std::vector<FileReport> &reports, bool quiet,
    const std::function<FileReport(std::size_t file, const std::string &text)> &recheck) {
  AddNoqaResult result;
  FileReplacer replacer(false);
  std::size_t total = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const FileReport &r = reports[i];
    if (r.error) continue;
    NoqaPlan plan = plan_noqa(r, [&](const std::string &text) { return recheck(i, text); });
    for (const std::string &line : plan.not_added)
      std::cerr << "tracelint: " << line << "\n";
    result.left_over |= !plan.not_added.empty();
    // A syntax error is to be fixed, not silenced: it stays a finding.
    result.left_over |= std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                    [](const Diagnostic &d) { return d.code == kSyntaxError; });
    if (paths[i] == "-") {
      std::cout << plan.text;
      continue;
    }
    if (plan.added == 0) continue;
    if (std::optional<std::string> why = replacer.replace(paths[i], r.source.text(), plan.text)) {
      std::cerr << "tracelint: " << printable(paths[i]) << ": noqa comments not added: " << *why
                << "\n";
      result.io_error = true;
      continue;
    }
    total += plan.added;
    if (!quiet)
      std::cerr << "tracelint: " << printable(paths[i]) << ": added noqa comments to " << plan.added
                << " line" << (plan.added == 1 ? "" : "s") << "\n";
  }
  if (!quiet)
    std::cerr << "tracelint: added noqa comments to " << total << " line" << (total == 1 ? "" : "s")
              << "\n";
  return result;
}

} // namespace tracelint::cli
