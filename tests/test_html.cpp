// --format html: findings highlighted, the dataflow drawn by Graphviz, and the page rendered
// by headless Chromium.
#include "support.hpp"

#include "tracelint/reports/reports.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <optional>

using namespace tracelint;

namespace {
std::string buggy_html() {
  std::string text =
      test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/examples/buggy_trace.py");
  return render({check_source("examples/buggy_trace.py", text, Options{})}, Format::Html);
}
} // namespace

TEST_CASE("html report: findings listed and marked in the source, dataflow as SVG") {
  std::string html = buggy_html();
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(
      html.find("<li class=\"finding error\" data-code=\"TL002\"><a href=\"#f0-L14\">14:45</a>") !=
      std::string::npos);
  CHECK(html.find("<mark class=\"error\" data-code=\"TL002\"") != std::string::npos);
  CHECK(html.find("<mark class=\"error\" data-code=\"TL005\" title=\"TL005: `t0` is used after "
                  "`del`\">t0</mark>") != std::string::npos);
  CHECK(html.find("fix: replace the repr with <code>i2</code>") != std::string::npos);
  // Graphviz drew the names around the findings (i2 is flagged, t1 consumes it).
  REQUIRE_MESSAGE(html.find("<svg") != std::string::npos, "dot (Debian graphviz) did not run");
  CHECK(html.find("<title>i2&#45;&gt;t1</title>") != std::string::npos);
  CHECK(html.find("# key: &quot;Collection&quot;") != std::string::npos); // source text is escaped
}

TEST_CASE("html report: one graph per trace, each edge once, del drawn, nodes linked to lines") {
  // A prologue and a computation that both use i1: two graphs, not one that merges their names.
  std::string text = "def prologue(a):\n  i1 = prims.size(a)\n  return i1\n\n"
                     "def computation(a):\n"
                     "  t0 = ltorch.reshape(a, i1, i1, i1, i1, i1)\n" // i1 is undefined here
                     "  t1 = ltorch.add(t0, i1)\n  del t0\n  t2 = ltorch.mul(t0, t1)\n"
                     "  return t2\n";
  std::string html = render({check_source("two.py", text, Options{})}, Format::Html);
  REQUIRE_MESSAGE(html.find("<svg") != std::string::npos, "dot (Debian graphviz) did not run");
  CHECK(html.find("<div class=\"trace-graph\" data-trace=\"prologue\">") != std::string::npos);
  CHECK(html.find("<div class=\"trace-graph\" data-trace=\"computation\">") != std::string::npos);
  std::string computation = html.substr(html.find("data-trace=\"computation\""));
  auto count = [](const std::string &in, const std::string &what) {
    std::size_t n = 0;
    for (std::size_t at = in.find(what); at != std::string::npos; at = in.find(what, at + 1))
      ++n;
    return n;
  };
  CHECK(count(computation, "<title>i1&#45;&gt;t0</title>") == 1); // five uses, one edge
  // t0's del (TL005 is about it) is a node, linked to its line, with t0 pointing at it.
  CHECK(computation.find("<title>t0&#45;&gt;del@8</title>") != std::string::npos);
  CHECK(computation.find("del (line 8)") != std::string::npos);
  CHECK(computation.find("xlink:href=\"#f0-L8\"") != std::string::npos);
  CHECK(computation.find("xlink:href=\"#f0-L6\"") != std::string::npos); // t0's line
  CHECK(html.find("<span class=\"line\" id=\"f0-L8\">") != std::string::npos);
}

TEST_CASE("html report: a 3000-line trace draws the neighbourhood of its findings") {
  std::string text =
      "import thunder.torch as ltorch\n\ndef computation(a):\n  t0 = ltorch.neg(a)\n";
  for (int i = 1; i < 3000; ++i)
    text += "  t" + std::to_string(i) + " = ltorch.add(t" + std::to_string(i - 1) + ", a)\n";
  text += "  t3000 = ltorch.mul(t2999, nowhere)\n  return t3000\n";
  std::string html = render({check_source("long.py", text, Options{})}, Format::Html);
  REQUIRE_MESSAGE(html.find("<svg") != std::string::npos, "dot (Debian graphviz) did not run");
  std::size_t nodes = 0;
  for (std::size_t at = html.find("class=\"node\""); at != std::string::npos;
       at = html.find("class=\"node\"", at + 1))
    ++nodes;
  CHECK(nodes == 3); // nowhere, t2999 and t3000: not the 3000 names of the trace
}

TEST_CASE("html report: quotes and control characters of the source are escaped") {
  std::string text = "def f(a):\n  t0 = g('<x>', \"\x01\")\n  return t0\n";
  std::string html = render({check_source("t.py", text, Options{})}, Format::Html);
  CHECK(html.find("(&apos;&lt;x&gt;&apos;, &quot;&#xFFFD;&quot;)") != std::string::npos);
  CHECK(html.find('\x01') == std::string::npos);
}

namespace {
// Headless Chromium's flags for a page in dir (its own profile there).
std::string chromium_flags(const std::string &dir) {
  return "--headless --no-sandbox --disable-gpu --disable-background-networking "
         "--disable-component-update --disable-sync --no-first-run --user-data-dir='" +
         dir + "/profile' --window-size=1280,1000 ";
}

bool have_chromium() {
  if (std::system("command -v chromium > /dev/null 2>&1") == 0) return true;
  FAIL("chromium is not installed (scripts/bootstrap.sh installs Debian's chromium)");
  return false;
}

// The DOM after the page's scripts ran, with Chromium opening url (a file:// URL, a fragment
// allowed).
std::string dom_of(const std::string &dir, const std::string &url) {
  std::string dom = dir + "/dom.html";
  std::string command = "timeout 60 chromium " + chromium_flags(dir) + "--dump-dom '" + url +
                        "' > '" + dom + "' 2>/dev/null";
  CHECK(std::system(command.c_str()) == 0);
  return test::read_file(dom);
}

std::size_t count(const std::string &in, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = in.find(what); at != std::string::npos; at = in.find(what, at + 1))
    ++n;
  return n;
}

// Whether the element with this id sits inside a <details> fold, and whether that fold is open.
struct Fold {
  bool folded = false;
  bool open = false;
};
Fold fold_of(const std::string &html, const std::string &id) {
  std::size_t at = html.find("id=\"" + id + "\"");
  REQUIRE(at != std::string::npos);
  std::size_t opened = html.rfind("<details", at), closed = html.rfind("</details>", at);
  if (opened == std::string::npos || (closed != std::string::npos && closed > opened)) return {};
  std::string tag = html.substr(opened, html.find('>', opened) - opened);
  return {true, tag.find(" open") != std::string::npos};
}
} // namespace

TEST_CASE("html report renders in headless Chromium with the findings in the DOM") {
  if (!have_chromium()) return;
  test::TempDir dir;
  std::string page = dir.path + "/report.html";
  test::write_file(page, buggy_html());
  std::string shot = dir.path + "/shot.png";
  std::string command = "timeout 60 chromium " + chromium_flags(dir.path) + "--screenshot='" +
                        shot + "' 'file://" + page + "' > /dev/null 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  REQUIRE(std::filesystem::exists(shot));
  CHECK(std::filesystem::file_size(shot) > 20000);
  std::string png = test::read_file(shot);
  CHECK(png.compare(1, 3, "PNG") == 0);
  std::string text = dom_of(dir.path, "file://" + page);
  CHECK(text.find("class=\"finding error\" data-code=\"TL006\"") != std::string::npos);
  CHECK(text.find("<svg") != std::string::npos);
  // The graph's nodes link to the listing's lines, which exist in the page.
  CHECK(text.find("xlink:href=\"#f0-L14\"") != std::string::npos);
  CHECK(text.find("id=\"f0-L14\"") != std::string::npos);
}

TEST_CASE("html report: an index with counts per file, and a clean file shows no source") {
  std::string buggy =
      test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/examples/buggy_trace.py");
  std::string clean = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                      "  t0 = ltorch.neg(a)\n  return t0\n";
  std::string html = render(
      {check_source("clean.py", clean, Options{}), check_source("buggy.py", buggy, Options{})},
      Format::Html);
  CHECK(html.find("<tr class=\"has-findings\"><td><a href=\"#f1\">buggy.py</a></td>"
                  "<td class=\"errors\">") != std::string::npos);
  CHECK(html.find("<details class=\"clean\"><summary>1 file without findings</summary>\n<ul>\n"
                  "<li>clean.py</li>") != std::string::npos);
  CHECK(html.find("<section class=\"file\" id=\"f1\" data-path=\"buggy.py\">") !=
        std::string::npos);
  // The clean file has no section: its source is not in the page.
  CHECK(html.find("data-path=\"clean.py\"") == std::string::npos);
  CHECK(html.find("id=\"f0-L4\"") == std::string::npos);
  // Names and code quoted in a message are set as code.
  CHECK(html.find("<code class=\"rule\">TL005 use-after-del</code> <code>t0</code> is used after "
                  "<code>del</code>") != std::string::npos);
}

TEST_CASE("html report: the lines around a finding are shown, the stretches between folded") {
  std::string text =
      "import thunder.torch as ltorch\n\ndef computation(a):\n  t0 = ltorch.neg(a)\n";
  for (int i = 1; i < 200; ++i)
    text += "  t" + std::to_string(i) + " = ltorch.neg(t" + std::to_string(i - 1) + ")\n";
  text += "  return t199\n";
  std::string broken = "  t100 = ltorch.neg(t99)\n";
  text.replace(text.find(broken), broken.size(), "  t100 = ltorch.neg(nowhere)\n"); // line 104
  std::string html = render({check_source("long.py", text, Options{})}, Format::Html);
  CHECK(fold_of(html, "f0-L104").folded == false);
  CHECK(fold_of(html, "f0-L101").folded == false); // three lines of context each side
  CHECK(fold_of(html, "f0-L107").folded == false);
  CHECK(fold_of(html, "f0-L100").folded);
  CHECK(fold_of(html, "f0-L108").folded);
  CHECK(fold_of(html, "f0-L1").folded);
  CHECK(html.find("<summary>lines 1&#8211;100 (100 lines without findings)</summary>") !=
        std::string::npos);
  CHECK(html.find("<summary>lines 108&#8211;204 (97 lines without findings)</summary>") !=
        std::string::npos);
  CHECK(count(html, "<details class=\"folded\">") == 2);
  // Every line is still in the page (a fold opens), once.
  for (int line = 1; line <= 204; ++line)
    CHECK(count(html, "id=\"f0-L" + std::to_string(line) + "\"") == 1);
}

TEST_CASE("html report of the biggest real Thunder trace: index, folds, links and long lines in "
          "Chromium") {
  std::optional<std::string> corpus = test::shared_corpus("thunder/real");
  if (!corpus || !have_chromium()) return;
  std::vector<std::string> files = test::python_files(*corpus);
  REQUIRE(files.size() >= 2);
  std::sort(files.begin(), files.end(), [](const std::string &a, const std::string &b) {
    return std::filesystem::file_size(a) > std::filesystem::file_size(b);
  });
  std::string biggest = test::read_file(files[0]);
  // A broken line planted in the middle of its body: the trace's only finding.
  std::size_t middle = biggest.find("\n  t", biggest.size() / 2);
  REQUIRE(middle != std::string::npos);
  biggest.insert(middle + 1, "  planted = torch.neg(nowhere)\n");
  std::size_t planted_line =
      2 + static_cast<std::size_t>(std::count(biggest.begin(), biggest.begin() + middle, '\n'));
  // The next biggest without findings (real traces may have TL011 warnings).
  std::optional<FileReport> clean;
  for (std::size_t i = 1; i < files.size() && !clean; ++i)
    if (FileReport r = check_source("clean.py", test::read_file(files[i]), Options{});
        r.diagnostics.empty())
      clean = std::move(r);
  REQUIRE(clean);
  FileReport report = check_source("biggest.py", biggest, Options{});
  std::size_t errors = static_cast<std::size_t>(
      std::count_if(report.diagnostics.begin(), report.diagnostics.end(),
                    [](const Diagnostic &d) { return d.severity == Severity::Error; }));
  CHECK(errors == 1); // the planted line's
  std::string html = render({report, *clean}, Format::Html);
  std::string planted_id = "f0-L" + std::to_string(planted_line);
  // Measured after layout: whether any line runs past the window (long lines must wrap).
  std::string measure = "<script>document.body.setAttribute('data-overflow', "
                        "String(document.documentElement.scrollWidth > window.innerWidth));"
                        "</script>\n";
  html.insert(html.rfind("</body>"), measure);
  test::TempDir dir;
  std::string page = dir.path + "/report.html";
  test::write_file(page, html);
  std::string dom = dom_of(dir.path, "file://" + page);
  CHECK(dom.find("data-overflow=\"false\"") != std::string::npos);
  CHECK(dom.find("<tr class=\"has-findings\"><td><a href=\"#f0\">biggest.py</a></td><td "
                 "class=\"errors\">1</td>") != std::string::npos);
  CHECK(dom.find("<summary>1 file without findings</summary>\n<ul>\n<li>clean.py</li>") !=
        std::string::npos);
  CHECK(dom.find("data-path=\"clean.py\"") == std::string::npos);
  CHECK(dom.find("class=\"finding error\" data-code=\"TL003\"><a href=\"#" + planted_id + "\">") !=
        std::string::npos);
  // The planted line is open; the 40 lines of `t0, \` at the top are folded, and closed.
  CHECK(fold_of(dom, planted_id).folded == false);
  Fold top = fold_of(dom, "f0-L11");
  CHECK(top.folded);
  CHECK_FALSE(top.open);
  CHECK(count(dom, "<details class=\"folded\">") >= 2); // all closed
  // A link into a fold (as the graph's nodes and the findings make) opens it.
  std::string linked = dom_of(dir.path, "file://" + page + "#f0-L11");
  CHECK(fold_of(linked, "f0-L11").open);
}
