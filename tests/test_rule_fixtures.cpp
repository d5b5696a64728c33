// Per-rule fixtures (rules/fixtures/TLxxx_*.py) with the expected diagnostics inline:
//   # expect: TL003@22: `t5` is used but never defined
// names the line above it (the nearest line that is not an expectation), the column and a
// part of the message. A fixture's diagnostics must be exactly the expected ones.
#include "support.hpp"

#include "tracelint/rules/rule.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

using namespace tracelint;

namespace {

std::vector<test::Expectation> expectations(const std::string &text) {
  return test::parse_expectations(text, R"(^\s*# expect: (TL\d{3})@(\d+): (.*)$)");
}

// "TL003@4" for each diagnostic, in report order.
std::vector<std::string> codes_at_lines(const FileReport &report) {
  std::vector<std::string> seen;
  for (const Diagnostic &d : report.diagnostics)
    seen.push_back(d.code + "@" + std::to_string(d.span.line));
  return seen;
}

std::string fixtures_dir() {
  return std::string(TRACELINT_SOURCE_DIR) + "/rules/fixtures";
}

} // namespace

TEST_CASE("rule fixtures: every diagnostic is expected and every expectation is met") {
  auto files = test::python_files(fixtures_dir());
  REQUIRE(!files.empty());
  for (const std::string &path : files) {
    std::string name = std::filesystem::path(path).filename().string();
    std::string text = test::read_file(path);
    auto expected = expectations(text);
    CHECK_MESSAGE(!expected.empty(), name << " has no expectation");
    FileReport report = check_source(name, text, Options{});
    std::set<std::size_t> matched;
    for (const Diagnostic &d : report.diagnostics) {
      bool ok = false;
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const test::Expectation &e = expected[i];
        if (!matched.count(i) && e.code == d.code && e.line == d.span.line &&
            e.column == d.span.column && d.message.find(e.message) != std::string::npos) {
          matched.insert(i);
          ok = true;
          break;
        }
      }
      CHECK_MESSAGE(ok, name << ":" << d.span.line << ":" << d.span.column << ": unexpected "
                             << d.code << " " << d.message);
    }
    for (std::size_t i = 0; i < expected.size(); ++i)
      CHECK_MESSAGE(matched.count(i), name << ":" << expected[i].line << ":" << expected[i].column
                                           << ": missing " << expected[i].code << " '"
                                           << expected[i].message << "'");
  }
}

TEST_CASE("every rule has a fixture, and its documented examples behave as documented") {
  auto files = test::python_files(fixtures_dir());
  for (const Rule *rule : all_rules()) {
    std::string code(rule->code);
    if (!rule->checks_traces()) { // an analyzer rule: its fixtures are C++
                                  // (tests/test_analyzer.cpp)
      bool has_fixture = false;
      for (const auto &e : std::filesystem::directory_iterator(std::string(TRACELINT_SOURCE_DIR) +
                                                               "/analyzer/fixtures"))
        has_fixture |= e.path().filename().string().rfind(code + "_", 0) == 0;
      CHECK_MESSAGE(has_fixture, code << " has no fixture in analyzer/fixtures");
      CHECK(rule->explanation.size() > 80);
      continue;
    }
    bool has_fixture = std::any_of(files.begin(), files.end(), [&](const std::string &f) {
      return std::filesystem::path(f).filename().string().rfind(code + "_", 0) == 0;
    });
    CHECK_MESSAGE(has_fixture, code << " has no fixture in rules/fixtures");
    auto fires = [&](std::string_view example) {
      FileReport r = check_source("example.py", std::string(example), Options{});
      return std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                         [&](const Diagnostic &d) { return d.code == code; });
    };
    CHECK_MESSAGE(fires(rule->bad_example), code << ": the bad example does not trigger it");
    CHECK_MESSAGE(!fires(rule->good_example), code << ": the good example triggers it");
    CHECK(!rule->summary.empty());
    CHECK(rule->explanation.size() > 80);
  }
}

TEST_CASE("docs/rules.md is generated from the rules and is up to date") {
  std::string committed = test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/docs/rules.md");
  CHECK_MESSAGE(
      committed == rules_markdown(),
      "docs/rules.md is stale: run `make docs` (build/tracelint rules --format markdown)");
  for (const Rule *rule : all_rules()) {
    std::string text = explain_rule(*rule);
    CHECK(text.find(std::string(rule->code)) == 0);
    CHECK(text.find(std::string(rule->explanation)) != std::string::npos);
  }
}

TEST_CASE("noqa comments silence the codes they name on their line") {
  std::string text = "def computation(a):\n"
                     "  t0 = ltorch.mul(a, t5)  # noqa: TL003\n"
                     "  t1 = ltorch.mul(t0, t6)  # noqa: TL012\n"
                     "  t2 = ltorch.mul(t1, t7)  # noqa\n"
                     "  return t2\n";
  std::vector<std::string> seen = codes_at_lines(check_source("noqa.py", text, Options{}));
  // TL012 (ltorch never imported) is reported at its first use, line 2: the noqa of line 3
  // silences nothing, which TL021 says.
  CHECK(seen == std::vector<std::string>{"TL012@2", "TL003@3", "TL021@3"});
}

TEST_CASE("a noqa inside a string is no comment and silences nothing") {
  std::string text = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                     "  t0 = ltorch.f(n1, '# noqa')\n"
                     "  t1 = ltorch.f(n2, \"\"\"x  # noqa\n# noqa\"\"\", t0)  # noqa: TL003\n"
                     "  t2 = ltorch.f(n3, r'\\'# noqa')  # t2: \"f32[2]\"  # noqa: TL003\n"
                     "  return t2\n";
  std::vector<std::string> seen = codes_at_lines(check_source("noqa.py", text, Options{}));
  // Line 4's string is no comment; line 5's "# noqa" is in a string, and the comment after the
  // string, on line 6, silences nothing there (TL021); line 7's comment, after a type comment
  // and a raw string with an escaped quote, silences n3.
  CHECK(seen == std::vector<std::string>{"TL003@4", "TL003@5", "TL021@6"});
}
