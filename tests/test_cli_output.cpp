// The CLI's output as ruff's users know it: --output-format full|concise|grouped|... (--format
// stays an alias), --statistics, the "N fixable with --fix" hint, -q.
#include "support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace {

std::string q(const std::string &s) {
  return "'" + s + "'";
}

// examples/buggy_trace.py: 7 findings, 3 of them with a fix (TL002, TL012, and one more).
std::string buggy() {
  return std::string(TRACELINT_SOURCE_DIR) + "/examples/buggy_trace.py";
}

std::size_t lines(const std::string &text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("output: concise prints one line per finding, [*] where --fix can fix it") {
  auto run = test::tracelint("check --isolated --output-format concise " + q(buggy()));
  CHECK(run.exit_code == 1);
  auto json = nlohmann::json::parse(
      test::tracelint("check --isolated --output-format json " + q(buggy())).out);
  const auto &diagnostics = json["files"][0]["diagnostics"];
  std::size_t fixable = 0;
  for (const auto &d : diagnostics) {
    std::string line = buggy() + ":" + std::to_string(d["span"]["start"]["line"].get<int>()) + ":" +
                       std::to_string(d["span"]["start"]["column"].get<int>()) + ": " +
                       d["code"].get<std::string>() + (d["fix"].is_null() ? "" : " [*]") + " " +
                       d["message"].get<std::string>() + "\n";
    CAPTURE(line);
    CHECK(run.out.find(line) != std::string::npos);
    fixable += !d["fix"].is_null();
  }
  REQUIRE(fixable > 0);
  // The findings, a blank line, the summary and the fix hint: no source excerpts.
  CHECK(lines(run.out) == diagnostics.size() + 3);
  CHECK(run.out.find(" | ") == std::string::npos);
  CHECK(run.out.find("Found 7 problems") != std::string::npos);
  CHECK(run.out.find("[*] " + std::to_string(fixable) +
                     " fixable with `tracelint check --fix`.\n") != std::string::npos);
  // --format is the same option.
  CHECK(test::tracelint("check --isolated --format concise " + q(buggy())).out == run.out);
  CHECK(test::tracelint("check --isolated --output-format yaml " + q(buggy())).exit_code == 2);
}

TEST_CASE("output: full is the default and text its old name, grouped lists findings by file") {
  auto full = test::tracelint("check --isolated --output-format full " + q(buggy()));
  CHECK(full.out == test::tracelint("check --isolated " + q(buggy())).out);
  CHECK(full.out == test::tracelint("check --isolated --format text " + q(buggy())).out);
  CHECK(full.out.find("   = help: replace the repr with `i2`") != std::string::npos);

  test::TempDir dir;
  test::write_file(dir.path + "/clean.py", "def computation(a):\n  return a\n");
  auto grouped = test::tracelint("check --isolated --output-format grouped " + q(buggy()) + " " +
                                 q(dir.path + "/clean.py"));
  CHECK(grouped.exit_code == 1);
  CHECK(grouped.out.rfind(buggy() + ":\n", 0) == 0);
  CHECK(grouped.out.find("\n  14:45 TL002 [*] debug repr of IntegerProxy `i2`") !=
        std::string::npos);
  CHECK(grouped.out.find("\n  16:19 TL005 `t0` is used after `del`\n") != std::string::npos);
  CHECK(grouped.out.find("clean.py") == std::string::npos); // files without findings: not listed
  CHECK(grouped.out.find("in 1 of 2 files") != std::string::npos);
}

TEST_CASE("output: --statistics counts the findings of each code") {
  test::TempDir dir;
  std::string leak = "def computation(a, i10):\n"
                     "  t0 = ltorch.getitem(a, (slice(None, [IntegerProxy name=i10, value=1], "
                     "None),))\n  return t0\n";
  test::write_file(dir.path + "/a.py", leak);
  test::write_file(dir.path + "/b.py", leak);
  auto run = test::tracelint("check --isolated --statistics " + q(dir.path));
  CHECK(run.exit_code == 1);
  CHECK(run.out == "2  TL002  [*] repr-leak\n2  TL012  [*] missing-import\n");
  auto json = test::tracelint("check --isolated --statistics --output-format json " + q(dir.path));
  auto doc = nlohmann::json::parse(json.out);
  REQUIRE(doc.size() == 2);
  CHECK(doc[0] ==
        nlohmann::json{{"code", "TL002"}, {"name", "repr-leak"}, {"count", 2}, {"fixable", true}});
  CHECK(doc[1]["code"] == "TL012");
  auto clean = test::tracelint("check --isolated --statistics --select TL005 " + q(dir.path));
  CHECK(clean.exit_code == 0);
  CHECK(clean.out.empty());
}

TEST_CASE("output: -q prints the findings only") {
  auto quiet = test::tracelint("check --isolated -q --output-format concise " + q(buggy()));
  CHECK(quiet.exit_code == 1);
  CHECK(quiet.out.find("Found") == std::string::npos);
  CHECK(quiet.out.find("fixable") == std::string::npos);
  CHECK(lines(quiet.out) == 7);
  test::TempDir dir;
  test::write_file(dir.path + "/clean.py", "def computation(a):\n  return a\n");
  auto clean = test::tracelint("check --isolated --quiet " + q(dir.path + "/clean.py"));
  CHECK(clean.exit_code == 0);
  CHECK(clean.out.empty());
  std::string leak = dir.path + "/leak.py";
  test::write_file(leak, "import thunder.torch as ltorch\n\ndef computation(a, i10):\n"
                         "  t0 = ltorch.getitem(a, (..., slice(None, [IntegerProxy name=i10, "
                         "value=1], None)))\n  return t0\n");
  auto fixed = test::tracelint("check --isolated -q --fix " + q(leak));
  CHECK(fixed.exit_code == 0);
  CHECK(fixed.err.empty());
  CHECK(fixed.out.empty());
  CHECK(test::read_file(leak).find("slice(None, i10, None)") != std::string::npos);
}
