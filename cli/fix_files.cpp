#include "fix_files.hpp"

#include "diff.hpp"
#include "file_writer.hpp"
#include "tracelint/core/escape.hpp"

#include <algorithm>
#include <iostream>
#include <map>

namespace tracelint::cli {

namespace {

constexpr std::string_view kSyntaxError = "TL001";

std::size_t syntax_errors(const FileReport &report) {
  return static_cast<std::size_t>(
      std::count_if(report.diagnostics.begin(), report.diagnostics.end(),
                    [](const Diagnostic &d) { return d.code == kSyntaxError; }));
}

// The lines [first, last] that bytes [begin, end) of a text cover (an empty range: its line).
std::pair<uint32_t, uint32_t> lines_of(const SourceText &source, uint32_t begin, uint32_t end) {
  Span span = source.span(begin, end > begin ? end - 1 : begin);
  return {span.line, std::max(span.line, span.end_line)};
}

bool on_lines(const Diagnostic &d, std::pair<uint32_t, uint32_t> lines) {
  return d.span.line <= lines.second && std::max(d.span.line, d.span.end_line) >= lines.first;
}

// Why a fix that applied_fix placed in after is not safe, or "" when it is.
std::string why_unsafe(const AppliedFix &applied_fix, const Diagnostic &fixed,
                       const FileReport &before, const FileReport &after) {
  std::pair<uint32_t, uint32_t> old_lines =
      lines_of(before.source, applied_fix.begin, applied_fix.end);
  std::pair<uint32_t, uint32_t> new_lines =
      lines_of(after.source, applied_fix.fixed_begin, applied_fix.fixed_end);
  for (const Diagnostic &d : after.diagnostics) {
    bool in_region = d.span.begin <= applied_fix.fixed_end && d.span.end >= applied_fix.fixed_begin;
    if (d.code == fixed.code && in_region) return "the fixed text still has " + d.code;
    if (d.code != kSyntaxError || !on_lines(d, new_lines)) continue;
    bool was_there =
        std::any_of(before.diagnostics.begin(), before.diagnostics.end(), [&](const Diagnostic &b) {
          return b.code == kSyntaxError && on_lines(b, old_lines);
        });
    if (!was_there) return "the fixed line would not parse (" + d.message + ")";
  }
  return "";
}

std::string describe(const FileReport &report, const Diagnostic &d, const std::string &why) {
  return printable(report.source.path()) + ":" + std::to_string(d.span.line) + ":" +
         std::to_string(d.span.column) + ": " + d.code + " fix not applied (" + d.fix->description +
         "): " + why;
}

// One round: the report's safe fixes applied together.
FixPlan plan_round(const FileReport &report, const Recheck &recheck) {
  const std::string &original = report.source.text();
  std::map<const Fix *, const Diagnostic *> owner;
  for (const Diagnostic &d : report.diagnostics)
    if (d.fix) owner[&*d.fix] = &d;
  FixPlan plan{original, 0, {}, std::nullopt};
  if (owner.empty()) return plan;
  const FileReport before =
      recheck.own_options_are_every_rule ? report : recheck.check(original, true);
  const std::size_t syntax_before = syntax_errors(before);
  while (!owner.empty()) {
    std::vector<const Fix *> fixes;
    for (const Diagnostic &d : report.diagnostics)
      if (d.fix && owner.count(&*d.fix)) fixes.push_back(&*d.fix);
    FixedText fixed = apply_fixes_mapped(original, fixes);
    if (fixed.applied.empty()) return plan;
    FileReport after = recheck.check(fixed.text, true);
    std::map<const Fix *, std::string> unsafe;
    for (const AppliedFix &a : fixed.applied)
      if (std::string why = why_unsafe(a, *owner[a.fix], before, after); !why.empty())
        unsafe[a.fix] = why;
    // A syntax error no fix's lines show (an unclosed bracket is reported where the file
    // ends): find the fixes that cause it alone; if none does, they do together.
    if (unsafe.empty() && syntax_errors(after) > syntax_before) {
      for (const AppliedFix &a : fixed.applied)
        if (syntax_errors(recheck.check(apply_fixes(original, {a.fix}).first, true)) >
            syntax_before)
          unsafe[a.fix] = "the fixed file would not parse";
      if (unsafe.empty())
        for (const AppliedFix &a : fixed.applied)
          unsafe[a.fix] = "with the other fixes, the fixed file would not parse";
    }
    if (unsafe.empty()) {
      plan.text = std::move(fixed.text);
      plan.applied = fixed.applied.size();
      if (recheck.own_options_are_every_rule) plan.report = std::move(after);
      return plan;
    }
    for (const Diagnostic &d : report.diagnostics) // in the report's order
      if (auto it = d.fix ? unsafe.find(&*d.fix) : unsafe.end(); it != unsafe.end()) {
        plan.not_applied.push_back(describe(report, d, it->second));
        owner.erase(it->first);
      }
  }
  return plan;
}

} // namespace

FixPlan plan_fixes(const FileReport &report, const Recheck &recheck) {
  // Rounds until one applies nothing, as ruff fixes: a fix can bring a finding to light (a
  // debug repr nested in the one just replaced), so one round would leave a file that a second
  // --fix changes again.
  constexpr int kMaxRounds = 100;
  FixPlan plan = plan_round(report, recheck);
  for (int round = 1; round < kMaxRounds && plan.applied > 0; ++round) {
    FileReport fixed = plan.report ? *plan.report : recheck.check(plan.text, false);
    FixPlan next = plan_round(fixed, recheck);
    // What is still not applied is what the last round saw, in the text it was given.
    plan.not_applied = std::move(next.not_applied);
    if (next.applied == 0) break;
    plan.text = std::move(next.text);
    plan.applied += next.applied;
    plan.report = std::move(next.report);
  }
  return plan;
}

bool fix_files(const std::vector<std::string> &paths, std::vector<FileReport> &reports,
               const FixSettings &settings,
               const std::function<Recheck(std::size_t file)> &recheck) {
  bool failed = false;
  FileReplacer replacer(settings.force);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    FileReport &r = reports[i];
    if (r.error) continue;
    // Fixing standard input prints the text, fixed or not: `check --fix - < a > b` makes b.
    const bool to_stdout = settings.write && !settings.diff && paths[i] == "-";
    if (std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const Diagnostic &d) { return d.fix.has_value(); })) {
      if (to_stdout) std::cout << r.source.text();
      continue;
    }
    const Recheck as_this_file = recheck(i);
    FixPlan plan = plan_fixes(r, as_this_file);
    for (const std::string &line : plan.not_applied)
      std::cerr << "tracelint: " << line << "\n";
    const std::string &original = r.source.text(); // the report holds the checked text
    if (to_stdout) {
      std::cout << plan.text;
      continue;
    }
    if (plan.text == original) continue;
    if (settings.diff) {
      std::cout << unified_diff(r.source.path(), original, plan.text);
      continue;
    }
    if (std::optional<std::string> why = replacer.replace(paths[i], original, plan.text)) {
      std::cerr << "tracelint: " << printable(paths[i]) << ": not fixed: " << *why << "\n";
      failed = true;
      continue;
    }
    if (!settings.quiet)
      std::cerr << "tracelint: " << printable(paths[i]) << ": applied " << plan.applied << " fix"
                << (plan.applied == 1 ? "" : "es") << "\n";
    reports[i] = plan.report ? std::move(*plan.report) : as_this_file.check(plan.text, false);
  }
  return failed;
}

} // namespace tracelint::cli
