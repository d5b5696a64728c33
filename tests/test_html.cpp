// --format html: findings highlighted, the dataflow drawn by Graphviz, and the page rendered
// by headless Chromium.
#include "support.hpp"

#include "tracelint/reports/reports.hpp"

#include <doctest/doctest.h>

#include <filesystem>

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
  CHECK(html.find("fix: replace the repr with `i2`") != std::string::npos);
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

TEST_CASE("html report renders in headless Chromium with the findings in the DOM") {
  if (std::system("command -v chromium > /dev/null 2>&1") != 0) {
    FAIL("chromium is not installed (scripts/bootstrap.sh installs Debian's chromium)");
    return;
  }
  test::TempDir dir;
  std::string page = dir.path + "/report.html";
  test::write_file(page, buggy_html());
  std::string flags = "--headless --no-sandbox --disable-gpu --disable-background-networking "
                      "--disable-component-update --disable-sync --no-first-run --user-data-dir='" +
                      dir.path + "/profile' --window-size=1280,1000 ";
  std::string shot = dir.path + "/shot.png";
  std::string command = "timeout 60 chromium " + flags + "--screenshot='" + shot + "' 'file://" +
                        page + "' > /dev/null 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  REQUIRE(std::filesystem::exists(shot));
  CHECK(std::filesystem::file_size(shot) > 20000);
  std::string png = test::read_file(shot);
  CHECK(png.compare(1, 3, "PNG") == 0);
  std::string dom = dir.path + "/dom.html";
  command = "timeout 60 chromium " + flags + "--dump-dom 'file://" + page + "' > '" + dom +
            "' 2>/dev/null";
  CHECK(std::system(command.c_str()) == 0);
  std::string text = test::read_file(dom);
  CHECK(text.find("class=\"finding error\" data-code=\"TL006\"") != std::string::npos);
  CHECK(text.find("<svg") != std::string::npos);
  // The graph's nodes link to the listing's lines, which exist in the page.
  CHECK(text.find("xlink:href=\"#f0-L14\"") != std::string::npos);
  CHECK(text.find("id=\"f0-L14\"") != std::string::npos);
}
