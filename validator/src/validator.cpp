#include "tracelint/validator/validator.hpp"
#include "tracelint/core/message_text.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/rules/analysis.hpp"
#include "tracelint/rules/rule.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <toml++/toml.h>

namespace tracelint {

namespace {
bool matches(std::string_view code, const std::vector<std::string> &patterns) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string &p) {
    return p == "ALL" || code.substr(0, p.size()) == p;
  });
}
} // namespace

bool Options::enabled(std::string_view code) const {
  if (!select.empty() && !matches(code, select)) return false;
  return !matches(code, ignore);
}

bool FileReport::has_at_least(Severity s) const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic &d) { return d.severity >= s; });
}

std::map<uint32_t, std::set<std::string>> noqa_lines(const SourceText &source) {
  std::map<uint32_t, std::set<std::string>> lines;
  const std::string &text = source.text();
  if (text.find("noqa") == std::string::npos) return lines;
  static const std::regex noqa(R"(#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?)",
                               std::regex::icase);
  static const std::regex code(R"([A-Z]+[0-9]+)");
  for (uint32_t line = 1; line <= source.line_count(); ++line) {
    std::string l(source.line(line));
    std::smatch m;
    if (l.find("noqa") == std::string::npos || !std::regex_search(l, m, noqa)) continue;
    std::set<std::string> codes;
    std::string list = m[1];
    for (auto it = std::sregex_iterator(list.begin(), list.end(), code);
         it != std::sregex_iterator(); ++it)
      codes.insert(it->str());
    lines[line] = codes;
  }
  return lines;
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
  std::vector<const Rule *> rules;
  std::vector<std::unique_ptr<StatementCheck>> statement_checks;
  for (const Rule *rule : all_rules()) {
    if (!rule->checks_traces() || !options.enabled(rule->code)) continue;
    rules.push_back(rule);
    if (rule->statement_check) statement_checks.push_back(rule->statement_check());
  }
  AnalysisOptions analysis_options;
  analysis_options.context_names = options.context_names;
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
  auto noqa = noqa_lines(parsed.source);
  std::erase_if(report.diagnostics, [&](const Diagnostic &d) {
    auto it = noqa.find(d.span.line);
    return it != noqa.end() && (it->second.empty() || it->second.count(d.code));
  });
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

std::optional<std::string> unknown_rule_selector(const std::vector<std::string> &selectors) {
  for (const std::string &selector : selectors) {
    if (selector == "ALL") continue;
    const std::vector<const Rule *> &rules = all_rules();
    if (std::none_of(rules.begin(), rules.end(), [&](const Rule *rule) {
          return !selector.empty() && rule->code.substr(0, selector.size()) == selector;
        }))
      return selector;
  }
  return std::nullopt;
}

std::optional<std::string> find_config(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path at = fs::absolute(dir, ec);
  if (ec) return std::nullopt;
  while (true) {
    fs::path candidate = at / "pyproject.toml";
    if (fs::is_regular_file(candidate, ec)) {
      try {
        toml::table table = toml::parse_file(candidate.string());
        if (table["tool"]["tracelint"].is_table()) return candidate.string();
      } catch (const toml::parse_error &) {
        return candidate.string(); // let load_config report the error
      }
    }
    // The project root ends the search, as in ruff: the directory a checkout starts at.
    if (fs::exists(at / ".git", ec)) return std::nullopt;
    if (!at.has_parent_path() || at.parent_path() == at) return std::nullopt;
    at = at.parent_path();
  }
}

Result<Options> load_config(const std::string &pyproject_path, Options base) {
  auto fail = [&](std::string message, unsigned line = 0, unsigned column = 0) {
    return Error{std::move(message), pyproject_path, line, column};
  };
  toml::table table;
  try {
    table = toml::parse_file(pyproject_path);
  } catch (const toml::parse_error &e) {
    return fail(std::string(e.description()), e.source().begin.line, e.source().begin.column);
  }
  const toml::table *section = table["tool"]["tracelint"].as_table();
  if (!section) return base;
  auto strings = [&](const char *key, std::vector<std::string> &into) -> std::optional<Error> {
    const toml::node *node = section->get(key);
    if (!node) return std::nullopt;
    const toml::array *array = node->as_array();
    if (!array)
      return fail(std::string("[tool.tracelint] ") + key + " must be an array of strings",
                  node->source().begin.line, node->source().begin.column);
    for (const toml::node &item : *array) {
      if (!item.is_string())
        return fail(std::string("[tool.tracelint] ") + key + " must hold strings",
                    item.source().begin.line, item.source().begin.column);
      std::string value = *item.value<std::string>();
      bool selects_rules = std::string_view(key) == "select" || std::string_view(key) == "ignore";
      if (selects_rules && unknown_rule_selector({value}))
        return fail(std::string("[tool.tracelint] ") + key + ": unknown rule code or prefix '" +
                        value + "' (`tracelint rules` lists the codes)",
                    item.source().begin.line, item.source().begin.column);
      into.push_back(std::move(value));
    }
    return std::nullopt;
  };
  std::vector<std::string> context;
  for (auto [key, into] :
       {std::pair<const char *, std::vector<std::string> *>{"select", &base.select},
        {"ignore", &base.ignore},
        {"context-names", &context}})
    if (std::optional<Error> e = strings(key, *into)) return *e;
  base.context_names.insert(context.begin(), context.end());
  if (const toml::table *severity = (*section)["severity"].as_table()) {
    for (auto &&[code, value] : *severity) {
      std::optional<Severity> s =
          value.is_string() ? parse_severity(*value.value<std::string>()) : std::nullopt;
      if (!s)
        return fail("[tool.tracelint.severity] " + std::string(code.str()) +
                        " must be \"error\", \"warning\" or \"info\"",
                    value.source().begin.line, value.source().begin.column);
      if (!find_rule(code.str()))
        return fail("[tool.tracelint.severity] unknown rule code '" + std::string(code.str()) + "'",
                    value.source().begin.line, value.source().begin.column);
      base.severity[std::string(code.str())] = *s;
    }
  }
  if (const toml::node *fail_on = section->get("fail-on")) {
    std::optional<Severity> s =
        fail_on->is_string() ? parse_severity(*fail_on->value<std::string>()) : std::nullopt;
    if (!s)
      return fail("[tool.tracelint] fail-on must be \"error\", \"warning\" or \"info\"",
                  fail_on->source().begin.line, fail_on->source().begin.column);
    base.fail_on = *s;
  }
  return base;
}

} // namespace tracelint
