// --format html: each trace with its findings highlighted, and the dataflow around the flagged
// names drawn by Graphviz (dot -Tsvg) when it is installed.
#include "html.hpp"

#include "counts.hpp"
#include "graphviz.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/rules/rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace tracelint {

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table 3-7: no overlong forms,
// no surrogates, nothing above U+10FFFF), or 0 when the byte there does not start one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  auto in = [&](std::size_t k, unsigned lo, unsigned hi) {
    return i + k < s.size() && byte(k) >= lo && byte(k) <= hi;
  };
  unsigned c = byte(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return in(1, 0x80, 0xBF) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return in(1, lo, hi) && in(2, 0x80, 0xBF) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return in(1, lo, hi) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD"; // U+FFFD

} // namespace

std::string markup_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t length = utf8_sequence(s, i);
    if (length == 0) {
      out += kReplacementCharacter;
      ++i;
      continue;
    }
    std::string_view sequence = s.substr(i, length);
    i += length;
    if (length > 1) {
      // U+FFFE and U+FFFF are not XML characters either.
      out += sequence == "\xEF\xBF\xBE" || sequence == "\xEF\xBF\xBF" ? kReplacementCharacter
                                                                      : sequence;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(sequence[0]);
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

// A DOT string: names are identifiers, symbols dotted identifiers, but a quote must not end it.
std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

struct Dataflow {
  std::string trace; // the trace's name
  std::string dot;
  std::size_t drawn = 0; // names in the graph
  std::size_t total = 0; // names around the findings, drawn or not
};

// One trace's graph: the bound symbols next to the flagged names (what produces each and what
// consumes it) as edges between names, one edge per pair with the symbols and lines that make
// it, the `del`s of those names, and every node and edge linked to its line of the listing. At
// most max_names names are drawn: the flagged ones first, then their neighbours in trace order;
// a large trace is drawn around its findings, not whole.
Dataflow trace_dataflow(const Trace &t, const std::set<std::string> &flagged, std::size_t max_names,
                        std::size_t file_index) {
  auto link = [&](uint32_t line) { return fmt::format("#f{}-L{}", file_index, line); };
  std::map<std::string, uint32_t> defined_at; // name -> the line that binds it
  for (const Parameter &p : t.parameters)
    defined_at.emplace(p.name, p.span.line ? p.span.line : t.def_span.line);
  for (const Statement &s : t.body)
    if (s.target)
      for (const Target *n : s.target->bound_names())
        defined_at.emplace(n->name, s.span.line);
  // Edges in trace order, each (from, to) once with every symbol and line that makes it.
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> labels;
  std::map<std::pair<std::string, std::string>, uint32_t> first_line;
  struct Deletion {
    uint32_t line;
    std::vector<std::string> names;
  };
  std::vector<Deletion> deletions;
  std::set<std::string> nodes;
  for (const Statement &s : t.body) {
    if (s.kind == Statement::Kind::Delete) {
      Deletion d{s.span.line, {}};
      for (const Target &target : s.deleted)
        for (const Target *n : target.bound_names())
          if (flagged.count(n->name)) d.names.push_back(n->name);
      if (!d.names.empty()) deletions.push_back(std::move(d));
      continue;
    }
    if (!s.target ||
        (s.kind != Statement::Kind::BoundSymbol && s.kind != Statement::Kind::AnnotatedAssign))
      continue;
    std::vector<std::string> inputs, read, outputs;
    value_names(s.value, read);
    for (const std::string &n : read)
      if ((defined_at.count(n) || flagged.count(n)) &&
          std::find(inputs.begin(), inputs.end(), n) == inputs.end())
        inputs.push_back(n);
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
        auto key = std::pair{in, o};
        auto &label = labels[key];
        if (label.empty()) {
          order.push_back(key);
          first_line[key] = s.span.line;
        }
        std::string text = fmt::format("{} (line {})", symbol, s.span.line);
        if (label.size() < 3)
          label.push_back(text);
        else if (label.size() == 3)
          label.push_back("...");
      }
  }
  std::set<std::string> present(nodes.begin(), nodes.end());
  for (const Deletion &d : deletions)
    present.insert(d.names.begin(), d.names.end());
  std::set<std::string> drawn;
  for (const std::string &n : flagged)
    if (present.count(n) && drawn.size() < max_names) drawn.insert(n);
  // Neighbours of what is drawn, in trace order, until none is left or the limit is reached.
  for (bool grew = true; grew && drawn.size() < max_names;) {
    grew = false;
    for (const auto &e : order) {
      if (drawn.size() >= max_names) break;
      if (!drawn.count(e.first) && !drawn.count(e.second)) continue;
      if (drawn.count(e.first) && drawn.count(e.second)) continue;
      drawn.insert(e.first); // one of the two is in already: this adds one name
      drawn.insert(e.second);
      grew = true;
    }
  }
  std::string dot =
      "digraph dataflow {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n"
      "  edge [fontname=\"monospace\", fontsize=10];\n";
  for (const std::string &n : drawn) {
    std::string attributes;
    if (auto it = defined_at.find(n); it != defined_at.end() && it->second)
      attributes = fmt::format("URL={}, tooltip={}", quote(link(it->second)),
                               quote(fmt::format("{}: line {}", n, it->second)));
    if (flagged.count(n))
      attributes += std::string(attributes.empty() ? "" : ", ") +
                    "color=\"#c0392b\", style=filled, fillcolor=\"#fadbd8\"";
    dot += "  " + quote(n) + (attributes.empty() ? "" : " [" + attributes + "]") + ";\n";
  }
  for (const auto &e : order) {
    if (!drawn.count(e.first) || !drawn.count(e.second)) continue;
    std::string label;
    for (const std::string &part : labels[e])
      label += (label.empty() ? "" : "\n") + part;
    dot += fmt::format("  {} -> {} [label={}, URL={}];\n", quote(e.first), quote(e.second),
                       quote(label), quote(link(first_line[e])));
  }
  // Each `del` of a drawn name (and the frees of Thunder's "Delete Last Used"): a node of its
  // own, the deleted names pointing at it.
  for (const Deletion &d : deletions) {
    std::string id = fmt::format("del@{}", d.line);
    bool any = false;
    for (const std::string &n : d.names)
      any |= drawn.count(n) > 0;
    if (!any) continue;
    dot += fmt::format("  {} [label={}, shape=note, color=\"#7f8c8d\", URL={}];\n", quote(id),
                       quote(fmt::format("del (line {})", d.line)), quote(link(d.line)));
    for (const std::string &n : d.names)
      if (drawn.count(n))
        dot += fmt::format("  {} -> {} [style=dashed, color=\"#7f8c8d\"];\n", quote(n), quote(id));
  }
  return {t.name, dot + "}\n", drawn.size(), present.size()};
}

// The dataflow section: per trace with flagged names, the SVG, or why there is none and the
// graph as DOT source.
std::string dataflow_section(const FileReport &r, const std::set<std::string> &flagged,
                             const RenderOptions &options, std::size_t file_index) {
  ParsedFile parsed = parse_trace_source(r.source.path(), r.source.text());
  std::string out;
  for (const Trace &t : parsed.file.traces) {
    Dataflow graph =
        trace_dataflow(t, flagged, std::max<std::size_t>(options.graph_max_names, 1), file_index);
    if (graph.drawn == 0) continue;
    out += "<div class=\"trace-graph\" data-trace=\"" + markup_escape(graph.trace) + "\">\n";
    out += "<h4>" + markup_escape(graph.trace.empty() ? "(fragment)" : graph.trace) + "</h4>\n";
    if (graph.drawn < graph.total)
      out += fmt::format("<p class=\"graph-note\">The graph draws {} of the {} names around the "
                         "findings (the flagged ones first): a larger one would be slow to lay "
                         "out and hard to read.</p>\n",
                         graph.drawn, graph.total);
    Result<std::string> svg =
        render_svg(graph.dot, GraphvizOptions{options.graphviz_dot, options.graphviz_timeout});
    if (svg)
      out += svg.value();
    else
      out += "<p class=\"graph-note\">" + markup_escape(svg.error().message) +
             "; the graph in DOT:</p>\n<pre class=\"dot\">" + markup_escape(graph.dot) + "</pre>\n";
    out += "</div>\n";
  }
  if (out.empty()) return out;
  return "<div class=\"dataflow\">\n<h3>Dataflow of the flagged names</h3>\n" + out + "</div>\n";
}

std::string_view css_class(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "info";
}

// A diagnostic's message or fix as markup: `quoted` parts (names, code) become <code>.
std::string message_markup(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t open = text.find('`', at);
    std::size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {
      out += markup_escape(text.substr(at));
      break;
    }
    out += markup_escape(text.substr(at, open - at));
    out += "<code>" + markup_escape(text.substr(open + 1, close - open - 1)) + "</code>";
    at = close + 1;
  }
  return out;
}

using LineMarks = std::vector<std::pair<std::pair<std::size_t, std::size_t>, const Diagnostic *>>;

// Marks per line: [begin, end) byte columns of each diagnostic's span on that line.
std::map<uint32_t, LineMarks> line_marks(const FileReport &r) {
  std::map<uint32_t, LineMarks> marks;
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
  for (auto &[line, ranges] : marks)
    std::stable_sort(ranges.begin(), ranges.end(),
                     [](const auto &a, const auto &b) { return a.first.first < b.first.first; });
  return marks;
}

// One line of the listing, its marks highlighted (the first one wins where two overlap).
std::string listing_line(std::string_view text, uint32_t line, const LineMarks *ranges,
                         std::size_t file_index) {
  std::string out = fmt::format("<span class=\"line\" id=\"f{}-L{}\"><span class=\"ln\">{}</span>",
                                file_index, line, line);
  std::size_t at = 0;
  if (ranges)
    for (const auto &[range, d] : *ranges) {
      if (range.first < at) continue;
      out += markup_escape(text.substr(at, range.first - at));
      out +=
          fmt::format("<mark class=\"{}\" data-code=\"{}\" title=\"{}\">{}</mark>",
                      css_class(d->severity), d->code, markup_escape(d->code + ": " + d->message),
                      markup_escape(text.substr(range.first, range.second - range.first)));
      at = range.second;
    }
  // The newline inside the line's block: copied text keeps its lines, and no empty line shows.
  return out + markup_escape(text.substr(std::min(at, text.size()))) + "\n</span>";
}

// Which lines the listing shows open: kContextLines around each finding and each place its
// notes point at; the rest is folded.
constexpr uint32_t kContextLines = 3;
std::vector<bool> lines_to_show(const FileReport &r, uint32_t lines) {
  std::vector<bool> shown(lines + 1, false);
  auto show = [&](uint32_t first, uint32_t last) {
    uint32_t from = first > kContextLines ? first - kContextLines : 1;
    for (uint32_t line = from; line <= last + kContextLines && line <= lines; ++line)
      shown[line] = true;
  };
  for (const Diagnostic &d : r.diagnostics) {
    show(d.span.line, std::max(d.span.line, d.span.end_line));
    for (const RelatedLocation &note : d.related)
      show(note.span.line, std::max(note.span.line, note.span.end_line));
  }
  // A fold of one or two lines saves nothing: show them.
  for (uint32_t line = 1; line <= lines;) {
    if (shown[line]) {
      ++line;
      continue;
    }
    uint32_t end = line;
    while (end <= lines && !shown[end])
      ++end;
    if (end - line <= 2)
      for (uint32_t l = line; l < end; ++l)
        shown[l] = true;
    line = end;
  }
  return shown;
}

// The source around the findings, each stretch between them folded into a <details> that
// opens on a click (or when a link leads into it).
std::string source_listing(const FileReport &r, std::size_t file_index) {
  std::map<uint32_t, LineMarks> marks = line_marks(r);
  uint32_t lines = r.source.line_count();
  if (lines > 1 && r.source.line(lines).empty()) --lines; // the file ends with a newline
  std::vector<bool> shown = lines_to_show(r, lines);
  std::string out = "<div class=\"listing\">\n";
  for (uint32_t line = 1; line <= lines;) {
    uint32_t end = line;
    while (end <= lines && shown[end] == shown[line])
      ++end;
    std::string block;
    for (uint32_t l = line; l < end; ++l) {
      auto it = marks.find(l);
      block +=
          listing_line(r.source.line(l), l, it == marks.end() ? nullptr : &it->second, file_index);
    }
    if (shown[line])
      out += "<pre class=\"source\">" + block + "</pre>\n";
    else
      out += fmt::format("<details class=\"folded\"><summary>lines {}&#8211;{} ({} lines without "
                         "findings)</summary>\n<pre class=\"source\">{}</pre></details>\n",
                         line, end - 1, end - line, block);
    line = end;
  }
  return out + "</div>\n";
}

// The index: each file with findings (or that could not be read), linked to its section, with
// its counts; the clean ones listed folded.
std::string file_index(const std::vector<FileReport> &reports) {
  std::string rows, clean;
  std::size_t clean_count = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const FileReport &r = reports[i];
    std::string path = markup_escape(r.source.path());
    Counts c = count(r);
    if (r.error)
      rows += fmt::format("<tr class=\"unreadable\"><td><a href=\"#f{}\">{}</a></td><td "
                          "colspan=\"3\">could not be checked</td></tr>\n",
                          i, path);
    else if (c.total() > 0)
      rows += fmt::format("<tr class=\"has-findings\"><td><a href=\"#f{}\">{}</a></td>"
                          "<td class=\"errors\">{}</td><td class=\"warnings\">{}</td>"
                          "<td class=\"infos\">{}</td></tr>\n",
                          i, path, c.errors, c.warnings, c.infos);
    else {
      clean += "<li>" + path + "</li>\n";
      ++clean_count;
    }
  }
  std::string out = "<nav class=\"index\">\n";
  if (!rows.empty())
    out += "<table>\n<thead><tr><th>file</th><th>errors</th><th>warnings</th><th>info</th></tr>"
           "</thead>\n<tbody>\n" +
           rows + "</tbody>\n</table>\n";
  if (clean_count)
    out += fmt::format("<details class=\"clean\"><summary>{} file{} without findings</summary>\n"
                       "<ul>\n{}</ul></details>\n",
                       clean_count, clean_count == 1 ? "" : "s", clean);
  return out + "</nav>\n";
}

std::string findings_list(const FileReport &r, std::size_t index) {
  std::string out = "<ol class=\"findings\">\n";
  for (const Diagnostic &d : r.diagnostics) {
    const Rule *rule = find_rule(d.code);
    out += fmt::format("<li class=\"finding {}\" data-code=\"{}\"><a href=\"#f{}-L{}\">{}:{}</a> "
                       "<code class=\"rule\">{} {}</code> {}",
                       css_class(d.severity), d.code, index, d.span.line, d.span.line,
                       r.source.codepoint_column(d.span.line, d.span.column), d.code,
                       rule ? std::string(rule->name) : "", message_markup(d.message));
    if (d.fix) out += " <span class=\"fix\">fix: " + message_markup(d.fix->description) + "</span>";
    out += "</li>\n";
  }
  return out + "</ol>\n";
}

// Opens the folds around the line a link leads to (the index, a finding, a graph's node).
constexpr std::string_view kOpenLinkedFold =
    "<script>\n"
    "function openLinkedFold() {\n"
    "  var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));\n"
    "  if (!target) return;\n"
    "  for (var e = target; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;\n"
    "  target.scrollIntoView();\n"
    "}\n"
    "addEventListener('hashchange', openLinkedFold);\n"
    "openLinkedFold();\n"
    "</script>\n";

constexpr std::string_view kStyle =
    "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
    "pre.source { background: #f8f8f8; padding: 0 1em; margin: 0; line-height: 1.4;\n"
    "  white-space: pre-wrap; overflow-wrap: anywhere; }\n"
    ".listing { border: 1px solid #ddd; }\n"
    ".line { display: block; padding-left: 5em; text-indent: -5em; }\n"
    ".ln { display: inline-block; width: 4em; margin-right: 1em; text-indent: 0; color: #999;\n"
    "  text-align: right; user-select: none; }\n"
    "details.folded > summary { color: #666; padding: 0.2em 1em; cursor: pointer;\n"
    "  background: #eee; font-size: 90%; }\n"
    "mark.error { background: #fadbd8; border-bottom: 2px solid #c0392b; }\n"
    "mark.warning { background: #fcf3cf; border-bottom: 2px solid #b7950b; }\n"
    "mark.info { background: #d6eaf8; border-bottom: 2px solid #2874a6; }\n"
    "li.finding.error code.rule { color: #c0392b; }\n"
    "li.finding.warning code.rule { color: #b7950b; }\n"
    "li.finding code { background: #f2f2f2; padding: 0 0.2em; }\n"
    "nav.index table { border-collapse: collapse; }\n"
    "nav.index td, nav.index th { padding: 0.1em 0.8em; text-align: left; }\n"
    "nav.index td.errors, nav.index td.warnings, nav.index td.infos { text-align: right; }\n"
    ".fix { color: #1e8449; } .dataflow svg { max-width: 100%; height: auto; }\n";

} // namespace

std::string render_html(const std::vector<FileReport> &reports, const RenderOptions &options) {
  Counts all = count(reports);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>tracelint report</title>\n<style>\n" +
                    std::string(kStyle) + "</style>\n</head>\n<body>\n<h1>tracelint report</h1>\n";
  out += fmt::format("<p class=\"summary\">{} file{}: {} error{}, {} warning{}, {} info</p>\n",
                     reports.size(), reports.size() == 1 ? "" : "s", all.errors,
                     all.errors == 1 ? "" : "s", all.warnings, all.warnings == 1 ? "" : "s",
                     all.infos);
  out += file_index(reports);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const FileReport &r = reports[i];
    if (!r.error && r.diagnostics.empty()) continue; // listed in the index; no source to show
    out += fmt::format("<section class=\"file\" id=\"f{}\" data-path=\"{}\">\n<h2>{}</h2>\n", i,
                       markup_escape(r.source.path()), markup_escape(r.source.path()));
    if (r.error) {
      out += "<p class=\"unreadable\">" + markup_escape(r.error->message) + "</p>\n</section>\n";
      continue;
    }
    out += findings_list(r, i);
    std::set<std::string> flagged = flagged_names(r);
    if (!flagged.empty()) out += dataflow_section(r, flagged, options, i);
    out += source_listing(r, i);
    out += "</section>\n";
  }
  return out + std::string(kOpenLinkedFold) + "</body>\n</html>\n";
}

} // namespace tracelint
