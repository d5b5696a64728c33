#include "tracelint/reports/reports.hpp"

#include "tracelint/core/escape.hpp"

#include "counts.hpp"
#include "html.hpp"

#include "tracelint/rules/rule.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace tracelint {

namespace {

using nlohmann::ordered_json;

std::string_view rule_name(const std::string &code) {
  const Rule *r = find_rule(code);
  return r ? r->name : std::string_view("unknown");
}

// --- text ---

struct Palette {
  bool on;
  std::string paint(std::string_view text, const char *code) const {
    return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : std::string(text);
  }
};

const char *severity_color(Severity s) {
  return s == Severity::Error ? "1;31" : s == Severity::Warning ? "1;33" : "1;34";
}

std::string location(const FileReport &r, const Span &s) {
  return fmt::format("{}:{}:{}", printable(r.source.path()), s.line,
                     r.source.codepoint_column(s.line, s.column));
}

// The source line and a caret line under [column, end_column) of that line (byte columns).
// Lines longer than this are shown as a window around the span.
constexpr std::size_t kMaxExcerpt = 160;

std::size_t char_start(std::string_view line, std::size_t i) {
  while (i > 0 && i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80)
    --i;
  return i;
}

std::string excerpt(const FileReport &r, const Span &s, const Palette &p, Severity severity) {
  std::string_view full = r.source.line(s.line);
  std::string_view line = full;
  std::size_t shift = 0; // bytes cut from the front
  std::string before, after;
  if (full.size() > kMaxExcerpt) {
    std::size_t begin = std::min<std::size_t>(s.column - 1, full.size());
    std::size_t from = char_start(full, begin > 40 ? begin - 40 : 0);
    std::size_t to = char_start(full, std::min(full.size(), from + kMaxExcerpt));
    if (to < full.size() && to <= begin) to = full.size();
    line = full.substr(from, to - from);
    shift = from;
    if (from > 0) before = "...";
    if (to < full.size()) after = "...";
  }
  std::string number = std::to_string(s.line);
  std::string gutter(number.size(), ' ');
  std::size_t begin = std::min<std::size_t>(s.column - 1 - shift, line.size());
  std::size_t end = s.end_line == s.line
                        ? std::min<std::size_t>(s.end_column - 1 - shift, line.size())
                        : line.size();
  end = std::max(end, begin);
  // Control characters shown escaped (an ESC must not reach the terminal), the carets under
  // the escaped text.
  std::string head = printable(line.substr(0, begin), true),
              mid = printable(line.substr(begin, end - begin), true),
              tail = printable(line.substr(end), true);
  std::string pad(before.size(), ' ');
  for (char c : head)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) pad += c == '\t' ? '\t' : ' ';
  std::size_t width = 0;
  for (char c : mid)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  std::string carets(std::max<std::size_t>(width, 1), '^');
  return fmt::format("{} {}\n{} {} {}\n{} {} {}{}\n", gutter, p.paint("|", "1;34"),
                     p.paint(number, "1;34"), p.paint("|", "1;34"),
                     before + head + mid + tail + after, gutter, p.paint("|", "1;34"), pad,
                     p.paint(carets, severity_color(severity)));
}

// Where a file's error stands: path, or path:line:col when the error is at a place in it.
std::string error_location(const FileReport &r) {
  if (!r.error || !r.error->line) return printable(r.source.path());
  return fmt::format("{}:{}:{}", printable(r.source.path()), r.error->line, r.error->column);
}

// The closing lines of the text formats: the counts, and what --fix can fix.
std::string summary(const std::vector<FileReport> &reports, const Palette &p) {
  Counts c = count(reports);
  std::size_t total = c.errors + c.warnings + c.infos;
  std::string out;
  if (total == 0 && c.unreadable == 0) {
    out += fmt::format("All checks passed ({} file{}).\n", reports.size(),
                       reports.size() == 1 ? "" : "s");
  } else {
    out += fmt::format("Found {} problem{} ({} error{}, {} warning{}, {} info) in {} of {} file{}",
                       total, total == 1 ? "" : "s", c.errors, c.errors == 1 ? "" : "s", c.warnings,
                       c.warnings == 1 ? "" : "s", c.infos, c.files_with_findings, reports.size(),
                       reports.size() == 1 ? "" : "s");
    if (c.unreadable)
      out += fmt::format("; {} file{} could not be checked", c.unreadable,
                         c.unreadable == 1 ? "" : "s");
    out += ".\n";
  }
  if (std::size_t fixable = fixable_count(reports))
    out += fmt::format("{} {} fixable with `tracelint check --fix`.\n", p.paint("[*]", "1;32"),
                       fixable);
  return out;
}

std::string render_text(const std::vector<FileReport> &reports, const RenderOptions &options) {
  Palette p{options.color};
  std::string out;
  for (const FileReport &r : reports) {
    if (r.error) {
      out += fmt::format("{}: {}: {}\n", p.paint(error_location(r), "1"), p.paint("error", "1;31"),
                         printable(r.error->message));
      continue;
    }
    for (const Diagnostic &d : r.diagnostics) {
      out += fmt::format("{}: {} {}\n", p.paint(location(r, d.span), "1"),
                         p.paint(fmt::format("{}[{}]", severity_name(d.severity), d.code),
                                 severity_color(d.severity)),
                         printable(d.message));
      if (d.span.line >= 1 && d.span.line <= r.source.line_count())
        out += excerpt(r, d.span, p, d.severity);
      std::string gutter(std::to_string(d.span.line).size(), ' ');
      for (const RelatedLocation &rel : d.related)
        out += fmt::format("{} = note: {}: {}\n", gutter, location(r, rel.span),
                           printable(rel.message));
      if (d.fix)
        out += fmt::format("{} = {}: {}\n", gutter, p.paint("help", "1;32"),
                           printable(d.fix->description));
      out += "\n";
    }
  }
  if (options.summary) out += summary(reports, p);
  return out;
}

// One line per finding: path:line:col: CODE [*] message ([*]: --fix can fix it).
std::string render_concise(const std::vector<FileReport> &reports, const RenderOptions &options) {
  Palette p{options.color};
  std::string out;
  for (const FileReport &r : reports) {
    if (r.error) {
      out += fmt::format("{}: {}: {}\n", p.paint(error_location(r), "1"), p.paint("error", "1;31"),
                         printable(r.error->message));
      continue;
    }
    for (const Diagnostic &d : r.diagnostics)
      out += fmt::format("{}: {}{} {}\n", p.paint(location(r, d.span), "1"),
                         p.paint(d.code, severity_color(d.severity)),
                         d.fix ? " " + p.paint("[*]", "1;32") : "", printable(d.message));
  }
  if (options.summary) out += (out.empty() ? "" : "\n") + summary(reports, p);
  return out;
}

// The findings of each file under its path, one line each: line:col CODE [*] message.
std::string render_grouped(const std::vector<FileReport> &reports, const RenderOptions &options) {
  Palette p{options.color};
  std::string out;
  for (const FileReport &r : reports) {
    if (!r.error && r.diagnostics.empty()) continue;
    out += p.paint(printable(r.source.path()), "1") + ":\n";
    if (r.error) {
      std::string where =
          r.error->line ? fmt::format("{}:{} ", r.error->line, r.error->column) : "";
      out += fmt::format("  {}{}: {}\n\n", where, p.paint("error", "1;31"),
                         printable(r.error->message));
      continue;
    }
    std::size_t width = 0;
    std::vector<std::string> places;
    for (const Diagnostic &d : r.diagnostics) {
      places.push_back(
          fmt::format("{}:{}", d.span.line, r.source.codepoint_column(d.span.line, d.span.column)));
      width = std::max(width, places.back().size());
    }
    for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
      const Diagnostic &d = r.diagnostics[i];
      out += fmt::format("  {:<{}} {}{} {}\n", places[i], width,
                         p.paint(d.code, severity_color(d.severity)),
                         d.fix ? " " + p.paint("[*]", "1;32") : "", printable(d.message));
    }
    out += "\n";
  }
  if (options.summary) out += summary(reports, p);
  return out;
}

// --- json ---

ordered_json position(const FileReport &r, uint32_t line, uint32_t byte_column, uint32_t offset) {
  return {
      {"line", line}, {"column", r.source.codepoint_column(line, byte_column)}, {"offset", offset}};
}

ordered_json span_json(const FileReport &r, const Span &s) {
  return {{"start", position(r, s.line, s.column, s.begin)},
          {"end", position(r, s.end_line, s.end_column, s.end)}};
}

std::string render_json(const std::vector<FileReport> &reports) {
  ordered_json files = ordered_json::array();
  for (const FileReport &r : reports) {
    ordered_json diagnostics = ordered_json::array();
    for (const Diagnostic &d : r.diagnostics) {
      ordered_json j = {{"code", d.code},
                        {"name", rule_name(d.code)},
                        {"severity", severity_name(d.severity)},
                        {"message", d.message},
                        {"span", span_json(r, d.span)}};
      if (d.fix) {
        ordered_json edits = ordered_json::array();
        for (const Edit &e : d.fix->edits)
          edits.push_back({{"span", span_json(r, r.source.span(e.begin, e.end))},
                           {"replacement", e.replacement}});
        j["fix"] = {{"description", d.fix->description}, {"edits", edits}};
      } else {
        j["fix"] = nullptr;
      }
      ordered_json related = ordered_json::array();
      for (const RelatedLocation &rel : d.related)
        related.push_back({{"message", rel.message}, {"span", span_json(r, rel.span)}});
      j["related"] = related;
      diagnostics.push_back(std::move(j));
    }
    ordered_json file = {{"path", r.source.path()}};
    file["error"] = r.error ? ordered_json(r.error->message) : ordered_json(nullptr);
    file["diagnostics"] = std::move(diagnostics);
    files.push_back(std::move(file));
  }
  Counts c = count(reports);
  ordered_json doc = {{"version", kJsonSchemaVersion},
                      {"tool", {{"name", "tracelint"}, {"version", TRACELINT_VERSION}}},
                      {"files", std::move(files)},
                      {"summary",
                       {{"files", reports.size()},
                        {"errors", c.errors},
                        {"warnings", c.warnings},
                        {"infos", c.infos},
                        {"unreadable", c.unreadable}}}};
  return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

// --- sarif ---

} // namespace

std::string uri_path(std::string_view path) {
  std::string out;
  for (unsigned char ch : path) {
    if (std::isalnum(ch) ||
        std::string_view("/-._~").find(static_cast<char>(ch)) != std::string_view::npos)
      out += static_cast<char>(ch);
    else
      out += fmt::format("%{:02X}", ch);
  }
  return out;
}

namespace {

std::string_view sarif_level(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

ordered_json region(const FileReport &r, const Span &s) {
  return {{"startLine", s.line},
          {"startColumn", r.source.codepoint_column(s.line, s.column)},
          {"endLine", s.end_line},
          {"endColumn", r.source.codepoint_column(s.end_line, s.end_column)}};
}

ordered_json physical(const FileReport &r, const Span &s) {
  return {{"artifactLocation", {{"uri", uri_path(r.source.path())}}}, {"region", region(r, s)}};
}

std::string render_sarif(const std::vector<FileReport> &reports, const RenderOptions &options) {
  ordered_json rules = ordered_json::array();
  for (const Rule *rule : all_rules()) {
    rules.push_back({{"id", rule->code},
                     {"name", rule->name},
                     {"shortDescription", {{"text", rule->summary}}},
                     {"fullDescription", {{"text", rule->explanation}}},
                     {"defaultConfiguration", {{"level", sarif_level(rule->severity)}}},
                     {"help", {{"text", explain_rule(*rule)}}}});
    if (!options.rules_doc_url.empty())
      rules.back()["helpUri"] = options.rules_doc_url + "#" + rule_anchor(*rule);
  }
  ordered_json results = ordered_json::array();
  ordered_json notifications = ordered_json::array();
  for (const FileReport &r : reports) {
    if (r.error) {
      notifications.push_back(
          {{"level", "error"},
           {"message", {{"text", r.error->message}}},
           {"locations",
            {{{"physicalLocation",
               {{"artifactLocation", {{"uri", uri_path(r.source.path())}}}}}}}}});
      continue;
    }
    for (const Diagnostic &d : r.diagnostics) {
      ordered_json result = {{"ruleId", d.code}};
      for (std::size_t i = 0; i < all_rules().size(); ++i)
        if (all_rules()[i]->code == d.code) result["ruleIndex"] = i;
      result["level"] = sarif_level(d.severity);
      result["message"] = {{"text", d.message}};
      result["locations"] = ordered_json::array({{{"physicalLocation", physical(r, d.span)}}});
      if (!d.related.empty()) {
        ordered_json related = ordered_json::array();
        for (std::size_t i = 0; i < d.related.size(); ++i)
          related.push_back({{"id", i},
                             {"physicalLocation", physical(r, d.related[i].span)},
                             {"message", {{"text", d.related[i].message}}}});
        result["relatedLocations"] = related;
      }
      if (d.fix) {
        ordered_json replacements = ordered_json::array();
        for (const Edit &e : d.fix->edits)
          replacements.push_back({{"deletedRegion", region(r, r.source.span(e.begin, e.end))},
                                  {"insertedContent", {{"text", e.replacement}}}});
        result["fixes"] = ordered_json::array(
            {{{"description", {{"text", d.fix->description}}},
              {"artifactChanges",
               ordered_json::array({{{"artifactLocation", {{"uri", uri_path(r.source.path())}}},
                                     {"replacements", replacements}}})}}});
      }
      results.push_back(std::move(result));
    }
  }
  ordered_json run = {
      {"tool",
       {{"driver",
         {{"name", "tracelint"},
          {"version", TRACELINT_VERSION},
          {"semanticVersion", TRACELINT_VERSION},
          {"rules", std::move(rules)}}}}},
      {"invocations", ordered_json::array({{{"executionSuccessful", notifications.empty()},
                                            {"toolExecutionNotifications", notifications}}})},
      {"columnKind", "unicodeCodePoints"},
      {"results", std::move(results)}};
  ordered_json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", ordered_json::array({std::move(run)})}};
  return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

// --- junit ---

std::string render_junit(const std::vector<FileReport> &reports, const RenderOptions &options) {
  std::size_t failures = 0, errors = 0;
  std::string cases;
  for (const FileReport &r : reports) {
    cases += fmt::format("    <testcase classname=\"tracelint\" name=\"{}\" file=\"{}\">\n",
                         markup_escape(r.source.path()), markup_escape(r.source.path()));
    if (r.error) {
      ++errors;
      cases += fmt::format("      <error message=\"{}\"/>\n", markup_escape(r.error->message));
    } else {
      std::string failing, other;
      std::size_t failing_count = 0;
      for (const Diagnostic &d : r.diagnostics) {
        std::string line = fmt::format("{}: {}[{}] {}\n", location(r, d.span),
                                       severity_name(d.severity), d.code, d.message);
        if (d.severity >= options.fail_on) {
          failing += line;
          ++failing_count;
        } else {
          other += line;
        }
      }
      if (failing_count) {
        ++failures;
        cases +=
            fmt::format("      <failure message=\"{} problem{}\" type=\"tracelint\">{}</failure>\n",
                        failing_count, failing_count == 1 ? "" : "s", markup_escape(failing));
      }
      if (!other.empty())
        cases += fmt::format("      <system-out>{}</system-out>\n", markup_escape(other));
    }
    cases += "    </testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"tracelint\" tests=\"{0}\" failures=\"{1}\" errors=\"{2}\">\n"
      "  <testsuite name=\"tracelint\" tests=\"{0}\" failures=\"{1}\" errors=\"{2}\">\n"
      "{3}  </testsuite>\n</testsuites>\n",
      reports.size(), failures, errors, cases);
}

// --- github ---

std::string gh_escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string render_github(const std::vector<FileReport> &reports) {
  std::string out;
  for (const FileReport &r : reports) {
    if (r.error) {
      out += fmt::format("::error file={}::{}\n", gh_escape(r.source.path(), true),
                         gh_escape(r.error->message, false));
      continue;
    }
    for (const Diagnostic &d : r.diagnostics) {
      std::string_view command = d.severity == Severity::Error     ? "error"
                                 : d.severity == Severity::Warning ? "warning"
                                                                   : "notice";
      std::string message = d.message + (d.fix ? " (fix: " + d.fix->description + ")" : "");
      out += fmt::format("::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                         command, gh_escape(r.source.path(), true), d.span.line,
                         r.source.codepoint_column(d.span.line, d.span.column), d.span.end_line,
                         r.source.codepoint_column(d.span.end_line, d.span.end_column),
                         gh_escape(d.code + " " + std::string(rule_name(d.code)), true),
                         gh_escape(message, false));
    }
  }
  return out;
}

} // namespace

std::optional<Format> parse_format(std::string_view name) {
  if (name == "full" || name == "text") return Format::Text;
  if (name == "concise") return Format::Concise;
  if (name == "grouped") return Format::Grouped;
  if (name == "json") return Format::Json;
  if (name == "sarif") return Format::Sarif;
  if (name == "junit") return Format::Junit;
  if (name == "github") return Format::Github;
  if (name == "html") return Format::Html;
  return std::nullopt;
}

std::string_view format_names() {
  return "full, concise, grouped, json, sarif, junit, github, html";
}

std::size_t fixable_count(const std::vector<FileReport> &reports) {
  std::size_t n = 0;
  for (const FileReport &r : reports)
    for (const Diagnostic &d : r.diagnostics)
      n += d.fix.has_value();
  return n;
}

std::string render_statistics(const std::vector<FileReport> &reports, Format format) {
  struct Row {
    std::size_t count = 0;
    bool fixable = false;
  };
  std::map<std::string, Row> rows;
  for (const FileReport &r : reports)
    for (const Diagnostic &d : r.diagnostics) {
      Row &row = rows[d.code];
      ++row.count;
      row.fixable |= d.fix.has_value();
    }
  std::vector<std::pair<std::string, Row>> sorted(rows.begin(), rows.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) { return a.second.count > b.second.count; });
  if (format == Format::Json) {
    ordered_json out = ordered_json::array();
    for (const auto &[code, row] : sorted)
      out.push_back({{"code", code},
                     {"name", rule_name(code)},
                     {"count", row.count},
                     {"fixable", row.fixable}});
    return out.dump(2) + "\n";
  }
  std::size_t count_width = 1, code_width = 1;
  for (const auto &[code, row] : sorted) {
    count_width = std::max(count_width, std::to_string(row.count).size());
    code_width = std::max(code_width, code.size());
  }
  std::string out;
  for (const auto &[code, row] : sorted)
    out += fmt::format("{:>{}}  {:<{}}  {} {}\n", row.count, count_width, code, code_width,
                       row.fixable ? "[*]" : "   ", rule_name(code));
  std::size_t unreadable = 0;
  for (const FileReport &r : reports)
    unreadable += r.error.has_value();
  if (unreadable)
    out += fmt::format("{} file{} could not be checked\n", unreadable, unreadable == 1 ? "" : "s");
  return out;
}

std::string render(const std::vector<FileReport> &reports, Format format,
                   const RenderOptions &options) {
  switch (format) {
  case Format::Text:
    return render_text(reports, options);
  case Format::Concise:
    return render_concise(reports, options);
  case Format::Grouped:
    return render_grouped(reports, options);
  case Format::Json:
    return render_json(reports);
  case Format::Sarif:
    return render_sarif(reports, options);
  case Format::Junit:
    return render_junit(reports, options);
  case Format::Github:
    return render_github(reports);
  case Format::Html:
    return render_html(reports, options);
  }
  return {};
}

} // namespace tracelint
