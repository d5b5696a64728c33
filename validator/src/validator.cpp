#include "tracelint/validator/validator.hpp"
#include "tracelint/core/message_text.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/rules/analysis.hpp"
#include "tracelint/rules/rule.hpp"

#include "tracelint/core/lexing.hpp"

#include <algorithm>
#include <iterator>
#include <regex>

namespace tracelint {

bool FileReport::has_at_least(Severity s) const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic &d) { return d.severity >= s; });
}

namespace {

// "# noqa" or "# noqa: TL003, tl005" (codes of any tool, any case).
const std::regex &noqa_pattern() {
  static const std::regex noqa(R"(#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?)",
                               std::regex::icase);
  return noqa;
}

} // namespace

std::vector<NoqaComment> noqa_comments(const SourceText &source) {
  // Only lines where "noqa" occurs (in any case) are read: a large trace usually has none.
  const std::string &text = source.text();
  static const std::regex code(R"([A-Za-z]+[0-9]+)");
  std::vector<NoqaComment> comments;
  std::optional<std::vector<std::size_t>> starts; // found once a line mentions noqa
  uint32_t last_line = 0;
  for (std::size_t at = text.find_first_of("nN"); at != std::string::npos;
       at = text.find_first_of("nN", at + 1)) {
    auto is = [&](std::size_t i, char upper) {
      return i < text.size() && (text[i] == upper || text[i] == upper + ('a' - 'A'));
    };
    if (!is(at + 1, 'O') || !is(at + 2, 'Q') || !is(at + 3, 'A')) continue;
    uint32_t line = source.span(at, at).line;
    if (line == last_line) continue;
    last_line = line;
    if (!starts) starts = lexing::comment_starts(text);
    // The line's comment, if it has one: a noqa counts only there.
    const std::size_t line_begin = source.line_start(line);
    auto comment_at = std::lower_bound(starts->begin(), starts->end(), line_begin);
    if (comment_at == starts->end() || *comment_at >= line_begin + source.line(line).size())
      continue;
    const std::size_t start = *comment_at;
    std::string l(text.substr(start, line_begin + source.line(line).size() - start));
    std::smatch m;
    if (!std::regex_search(l, m, noqa_pattern())) continue;
    NoqaComment comment;
    comment.line = line;
    comment.begin = start + static_cast<std::size_t>(m.position(0));
    comment.end = comment.begin + static_cast<std::size_t>(m.length(0));
    comment.list_begin = comment.list_end = comment.end;
    if (m[1].matched) {
      std::string list = m[1];
      comment.list_begin = start + static_cast<std::size_t>(m.position(1));
      comment.list_end = comment.list_begin + list.size();
      for (auto it = std::sregex_iterator(list.begin(), list.end(), code);
           it != std::sregex_iterator(); ++it) {
        std::size_t begin = comment.list_begin + static_cast<std::size_t>(it->position());
        comment.codes.push_back({normalize_selector(it->str()), begin, begin + it->str().size()});
      }
    }
    comments.push_back(std::move(comment));
  }
  return comments;
}

namespace {

std::map<uint32_t, std::set<std::string>> silenced_lines(const std::vector<NoqaComment> &comments) {
  std::map<uint32_t, std::set<std::string>> lines;
  for (const NoqaComment &comment : comments) {
    std::set<std::string> &codes = lines[comment.line];
    for (const NoqaCode &code : comment.codes)
      codes.insert(code.code);
  }
  return lines;
}

} // namespace

std::map<uint32_t, std::set<std::string>> noqa_lines(const SourceText &source) {
  return silenced_lines(noqa_comments(source));
}

namespace {

std::optional<Error> invalid_noqa_in(const SourceText &source,
                                     const std::vector<NoqaComment> &comments) {
  for (const NoqaComment &comment : comments)
    for (const NoqaCode &code : comment.codes) {
      if (code.code.rfind("TL", 0) != 0) continue;
      if (std::optional<std::string> why = unknown_code(code.code)) {
        Span at = source.span(code.begin, code.end);
        return Error{"`# noqa: " + code.code + "` silences nothing: " + *why, source.path(),
                     at.line, at.column};
      }
    }
  return std::nullopt;
}

} // namespace

std::optional<Error> invalid_noqa(const SourceText &source) {
  return invalid_noqa_in(source, noqa_comments(source));
}

namespace {
// Hands each body statement to the name analysis and to the rules that read statements, then
// drops it: checking a large trace holds a few chunks of its model, not all of it.
class StatementFanOut : public BodyReader {
public:
  StatementFanOut(NameAnalysis &analysis, std::vector<std::unique_ptr<StatementCheck>> &checks,
                  std::vector<Diagnostic> &out)
      : analysis_(analysis), checks_(checks), out_(out) {}

  void begin_trace(const ParsedFile &file, const Trace &trace) override {
    analysis_.begin_trace(file, trace);
    trace_ = &trace;
  }
  void statements(std::vector<Statement> &&statements) override {
    for (const Statement &s : statements)
      for (auto &check : checks_)
        check->statement(*trace_, s, out_);
    analysis_.statements(std::move(statements));
  }
  void end_trace() override { analysis_.end_trace(); }

private:
  NameAnalysis &analysis_;
  std::vector<std::unique_ptr<StatementCheck>> &checks_;
  std::vector<Diagnostic> &out_;
  const Trace *trace_ = nullptr;
};
} // namespace

FileReport check_source(std::string path, std::string text, const Options &options) {
  FileReport report;
  if (!options.dialect) report.plain_python = plain_python_reason(text);
  std::vector<const Rule *> rules;
  std::vector<std::unique_ptr<StatementCheck>> statement_checks;
  for (const Rule *rule : all_rules()) {
    if (!rule->checks_traces() || !options.enabled(rule->code)) continue;
    if (report.plain_python && !rule->any_python) continue;
    rules.push_back(rule);
    if (rule->statement_check) statement_checks.push_back(rule->statement_check());
  }
  AnalysisOptions analysis_options;
  analysis_options.context_names = options.context_names;
  analysis_options.dialect = options.dialect ? *options.dialect : detect_dialect(text);
  NameAnalysis names(std::move(analysis_options));
  StatementFanOut reader(names, statement_checks, report.diagnostics);
  ParsedFile parsed =
      parse_trace_source(std::move(path), std::move(text), options.threads, &reader);
  Analysis analysis = names.finish(parsed);
  CheckContext ctx{parsed, analysis};
  for (const Rule *rule : rules)
    if (rule->check) rule->check(ctx, report.diagnostics);
  for (auto &check : statement_checks)
    check->finish(ctx, report.diagnostics);
  // Found once: the same comments are checked for unknown codes, read by TL021 and applied.
  std::vector<NoqaComment> comments = noqa_comments(parsed.source);
  if (std::optional<Error> noqa_error = invalid_noqa_in(parsed.source, comments)) {
    report.diagnostics.clear();
    report.error = std::move(noqa_error);
    report.source = std::move(parsed.source);
    return report;
  }
  std::vector<Diagnostic> about_noqa;
  NoqaContext noqa_context{parsed.source, comments, report.diagnostics,
                           [&](std::string_view code) { return options.enabled(code); }};
  for (const Rule *rule : rules)
    if (rule->noqa_check) rule->noqa_check(noqa_context, about_noqa);
  std::map<uint32_t, std::set<std::string>> noqa = silenced_lines(comments);
  std::erase_if(report.diagnostics, [&](const Diagnostic &d) {
    auto it = noqa.find(d.span.line);
    return it != noqa.end() && (it->second.empty() || it->second.count(d.code));
  });
  std::move(about_noqa.begin(), about_noqa.end(), std::back_inserter(report.diagnostics));
  for (Diagnostic &d : report.diagnostics) {
    if (auto it = options.severity.find(d.code); it != options.severity.end())
      d.severity = it->second;
    shorten_quoted(d); // a 10 MB name is not repeated whole in the report
  }
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return std::tie(a.span.begin, a.code, a.span.end) <
                            std::tie(b.span.begin, b.code, b.span.end);
                   });
  report.source = std::move(parsed.source);
  return report;
}

} // namespace tracelint
