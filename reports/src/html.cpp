// --format html: each trace with its findings highlighted, and the dataflow around the flagged
// names drawn by Graphviz (dot -Tsvg) when it is installed.
#include "html.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/rules/rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace tracelint {

std::string markup_escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      if (c < 0x20 && c != '\n' && c != '\t')
        out += fmt::format("&#x{:X};", c == '\r' ? 0xD : 0xFFFD);
      else
        out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

// The proxies the diagnostics are about: the first `name` of their message.
std::set<std::string> flagged_names(const FileReport &r) {
  static const std::set<std::string> about_names = {"TL002", "TL003", "TL004", "TL005",
                                                    "TL006", "TL007", "TL014"};
  std::set<std::string> names;
  for (const Diagnostic &d : r.diagnostics) {
    if (!about_names.count(d.code)) continue;
    std::size_t open = d.message.find('`');
    std::size_t close = open == std::string::npos ? open : d.message.find('`', open + 1);
    if (close == std::string::npos) continue;
    std::string name = d.message.substr(open + 1, close - open - 1);
    if (is_python_identifier(name)) names.insert(name);
  }
  return names;
}

// Names read as values: callees (modules, executor regions) are not dataflow.
void value_names(const Value &v, std::vector<std::string> &out) {
  if (v.kind == ValueKind::Name) {
    out.push_back(v.text);
    return;
  }
  if (v.kind == ValueKind::Attribute) return value_names(v.items.front(), out);
  for (std::size_t i = v.kind == ValueKind::Call ? 1 : 0; i < v.items.size(); ++i)
    value_names(v.items[i], out);
}

std::string quote(const std::string &s) {
  return "\"" + s + "\"";
}

// The bound symbols next to the flagged names: what produces each and what consumes it.
std::string dataflow_dot(const FileReport &r, const std::set<std::string> &flagged) {
  ParsedFile parsed = parse_trace_source(r.source.path(), r.source.text());
  std::set<std::string> nodes(flagged.begin(), flagged.end());
  std::vector<std::string> edges;
  for (const Trace &t : parsed.file.traces) {
    std::set<std::string> known;
    for (const Parameter &p : t.parameters)
      known.insert(p.name);
    for (const Statement &s : t.body)
      if (s.target)
        for (const Target *n : s.target->bound_names())
          known.insert(n->name);
    for (const Statement &s : t.body) {
      if (!s.target ||
          (s.kind != Statement::Kind::BoundSymbol && s.kind != Statement::Kind::AnnotatedAssign))
        continue;
      std::vector<std::string> inputs, read;
      value_names(s.value, read);
      for (const std::string &n : read)
        if (known.count(n) || flagged.count(n)) inputs.push_back(n);
      std::vector<std::string> outputs;
      for (const Target *n : s.target->bound_names())
        outputs.push_back(n->name);
      bool touches = false;
      for (const std::string &n : inputs)
        touches |= flagged.count(n) > 0;
      for (const std::string &n : outputs)
        touches |= flagged.count(n) > 0;
      if (!touches) continue;
      std::string symbol = s.value.kind == ValueKind::Call ? s.value.callee().qualified_name() : "";
      for (const std::string &in : inputs)
        for (const std::string &o : outputs) {
          nodes.insert(in);
          nodes.insert(o);
          edges.push_back(fmt::format("  {} -> {} [label={}];", quote(in), quote(o),
                                      quote(fmt::format("{} (line {})", symbol, s.span.line))));
        }
    }
  }
  std::string dot =
      "digraph dataflow {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n"
      "  edge [fontname=\"monospace\", fontsize=10];\n";
  for (const std::string &n : nodes)
    dot +=
        "  " + quote(n) +
        (flagged.count(n) ? " [color=\"#c0392b\", style=filled, fillcolor=\"#fadbd8\"];\n" : ";\n");
  for (const std::string &e : edges)
    dot += e + "\n";
  return dot + "}\n";
}

// SVG from Graphviz, or nothing when dot is not installed or fails.
std::optional<std::string> run_dot(const std::string &dot) {
  std::string dir = (std::filesystem::temp_directory_path() / "tracelint-dot-XXXXXX").string();
  std::vector<char> buf(dir.begin(), dir.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) return std::nullopt;
  std::string in = std::string(buf.data()) + "/graph.dot",
              out = std::string(buf.data()) + "/graph.svg";
  std::ofstream(in) << dot;
  std::string command = "dot -Tsvg '" + in + "' -o '" + out + "' 2>/dev/null";
  std::optional<std::string> svg;
  if (std::system(command.c_str()) == 0) {
    std::ifstream f(out);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string text = ss.str();
    std::size_t start = text.find("<svg");
    if (start != std::string::npos) svg = text.substr(start);
  }
  std::error_code ec;
  std::filesystem::remove_all(buf.data(), ec);
  return svg;
}

std::string_view css_class(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "info";
}

std::string source_listing(const FileReport &r, std::size_t file_index) {
  // Marks per line: [begin, end) byte columns, first one wins on overlap.
  std::map<uint32_t,
           std::vector<std::pair<std::pair<std::size_t, std::size_t>, const Diagnostic *>>>
      marks;
  for (const Diagnostic &d : r.diagnostics)
    for (uint32_t line = d.span.line; line <= d.span.end_line && line <= r.source.line_count();
         ++line) {
      std::size_t width = r.source.line(line).size();
      std::size_t begin = line == d.span.line ? d.span.column - 1 : 0;
      std::size_t end = line == d.span.end_line ? d.span.end_column - 1 : width;
      begin = std::min(begin, width);
      end = std::max(begin + (begin < width ? 1 : 0), std::min(end, width));
      marks[line].push_back({{begin, end}, &d});
    }
  std::string out = "<pre class=\"source\">";
  uint32_t lines = r.source.line_count();
  if (lines > 1 && r.source.line(lines).empty()) --lines; // the file ends with a newline
  for (uint32_t line = 1; line <= lines; ++line) {
    std::string_view text = r.source.line(line);
    out += fmt::format("<span class=\"line\" id=\"f{}-L{}\"><span class=\"ln\">{}</span>",
                       file_index, line, line);
    auto &ranges = marks[line];
    std::sort(ranges.begin(), ranges.end(),
              [](const auto &a, const auto &b) { return a.first.first < b.first.first; });
    std::size_t at = 0;
    for (auto &[range, d] : ranges) {
      if (range.first < at) continue;
      out += markup_escape(text.substr(at, range.first - at));
      out +=
          fmt::format("<mark class=\"{}\" data-code=\"{}\" title=\"{}\">{}</mark>",
                      css_class(d->severity), d->code, markup_escape(d->code + ": " + d->message),
                      markup_escape(text.substr(range.first, range.second - range.first)));
      at = range.second;
    }
    out += markup_escape(text.substr(std::min(at, text.size())));
    out += "</span>\n";
  }
  return out + "</pre>\n";
}

} // namespace

std::string render_html(const std::vector<FileReport> &reports) {
  std::size_t errors = 0, warnings = 0, infos = 0;
  for (const FileReport &r : reports)
    for (const Diagnostic &d : r.diagnostics)
      (d.severity == Severity::Error     ? errors
       : d.severity == Severity::Warning ? warnings
                                         : infos)++;
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>tracelint report</title>\n<style>\n"
      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
      "pre.source { background: #f8f8f8; padding: 1em; overflow-x: auto; line-height: 1.4; }\n"
      ".ln { display: inline-block; width: 4em; color: #999; user-select: none; }\n"
      "mark.error { background: #fadbd8; border-bottom: 2px solid #c0392b; }\n"
      "mark.warning { background: #fcf3cf; border-bottom: 2px solid #b7950b; }\n"
      "mark.info { background: #d6eaf8; border-bottom: 2px solid #2874a6; }\n"
      "li.finding.error code { color: #c0392b; } li.finding.warning code { color: #b7950b; }\n"
      ".fix { color: #1e8449; } .dataflow svg { max-width: 100%; height: auto; }\n"
      "</style>\n</head>\n<body>\n<h1>tracelint report</h1>\n";
  out += fmt::format("<p class=\"summary\">{} file{}: {} error{}, {} warning{}, {} info</p>\n",
                     reports.size(), reports.size() == 1 ? "" : "s", errors, errors == 1 ? "" : "s",
                     warnings, warnings == 1 ? "" : "s", infos);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const FileReport &r = reports[i];
    out += fmt::format("<section class=\"file\" data-path=\"{}\">\n<h2>{}</h2>\n",
                       markup_escape(r.source.path()), markup_escape(r.source.path()));
    if (r.error) {
      out += "<p class=\"unreadable\">" + markup_escape(r.error->message) + "</p>\n</section>\n";
      continue;
    }
    out += "<ol class=\"findings\">\n";
    for (const Diagnostic &d : r.diagnostics) {
      const Rule *rule = find_rule(d.code);
      out += fmt::format("<li class=\"finding {}\" data-code=\"{}\"><a href=\"#f{}-L{}\">{}:{}</a> "
                         "<code>{} {}</code> {}",
                         css_class(d.severity), d.code, i, d.span.line, d.span.line,
                         r.source.codepoint_column(d.span.line, d.span.column), d.code,
                         rule ? std::string(rule->name) : "", markup_escape(d.message));
      if (d.fix)
        out += " <span class=\"fix\">fix: " + markup_escape(d.fix->description) + "</span>";
      out += "</li>\n";
    }
    out += "</ol>\n";
    std::set<std::string> flagged = flagged_names(r);
    if (!flagged.empty()) {
      std::string dot = dataflow_dot(r, flagged);
      out += "<div class=\"dataflow\">\n<h3>Dataflow of the flagged names</h3>\n";
      if (std::optional<std::string> svg = run_dot(dot))
        out += *svg;
      else
        out += "<p>Graphviz (dot) is not installed; the graph in DOT:</p>\n<pre class=\"dot\">" +
               markup_escape(dot) + "</pre>\n";
      out += "</div>\n";
    }
    out += source_listing(r, i);
    out += "</section>\n";
  }
  return out + "</body>\n</html>\n";
}

} // namespace tracelint
