// Snapshot tests of every report format on the bundled buggy trace, and structural checks of
// the JSON schema and of SARIF 2.1.0's required properties.
#include "support.hpp"

#include "tracelint/reports/reports.hpp"
#include "tracelint/rules/rule.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

using namespace tracelint;
using nlohmann::json;

namespace {
std::vector<FileReport> sample() {
  std::string text =
      test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/examples/buggy_trace.py");
  std::vector<FileReport> reports;
  reports.push_back(check_source("examples/buggy_trace.py", text, Options{}));
  reports.push_back(check_source("clean.py", "def f(a):\n  return a\n", Options{}));
  FileReport unreadable;
  unreadable.source = SourceText("missing.py", "");
  unreadable.error = Error{"no such file or directory", "missing.py", 0, 0};
  reports.push_back(unreadable);
  return reports;
}
} // namespace

TEST_CASE("report snapshots: text, json, sarif, junit, github") {
  auto reports = sample();
  REQUIRE(!reports[0].diagnostics.empty());
  const std::pair<Format, const char *> formats[] = {{Format::Text, "buggy_trace.txt"},
                                                     {Format::Json, "buggy_trace.json"},
                                                     {Format::Sarif, "buggy_trace.sarif"},
                                                     {Format::Junit, "buggy_trace.junit.xml"},
                                                     {Format::Github, "buggy_trace.github"}};
  for (auto [format, snapshot] : formats) {
    std::string name = snapshot;
    std::string rendered = render(reports, format);
    CHECK_MESSAGE(test::matches_snapshot(name, rendered),
                  name << " differs from tests/snapshots/" << name
                       << " (TRACELINT_UPDATE_SNAPSHOTS=1 rewrites it):\n"
                       << rendered);
    CHECK(render(reports, format) == rendered); // deterministic
  }
}

TEST_CASE("report snapshots: TRACELINT_UPDATE_SNAPSHOTS=1 is refused under CI=true") {
  // Both variables are this process's: restored below, whatever they were.
  auto saved = [](const char *name) {
    const char *v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  std::optional<std::string> ci = saved("CI"), update = saved("TRACELINT_UPDATE_SNAPSHOTS");
  ::setenv("CI", "true", 1);
  ::setenv("TRACELINT_UPDATE_SNAPSHOTS", "1", 1);
  const std::string name = "no-such-snapshot-ci-refusal.txt";
  const std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/snapshots/" + name;
  bool matched = test::matches_snapshot(name, "what the code prints now\n");
  bool written = std::filesystem::exists(path);
  std::filesystem::remove(path);
  for (auto [var, value] : {std::pair{"CI", ci}, std::pair{"TRACELINT_UPDATE_SNAPSHOTS", update}})
    value ? ::setenv(var, value->c_str(), 1) : ::unsetenv(var);
  CHECK_FALSE(matched);
  CHECK_FALSE(written);
}

TEST_CASE("text report: caret under the exact span, colors only when asked") {
  auto reports = sample();
  std::string plain = render(reports, Format::Text);
  CHECK(plain.find("\x1b[") == std::string::npos);
  CHECK(plain.find("examples/buggy_trace.py:14:45: error[TL002]") != std::string::npos);
  // The caret line under line 14 starts at column 45 and covers the 64-character repr.
  std::string caret = std::string(44, ' ') + std::string(64, '^');
  CHECK(plain.find("   | " + caret + "\n") != std::string::npos);
  CHECK(plain.find("= help: replace the repr with `i2`") != std::string::npos);
  RenderOptions color;
  color.color = true;
  CHECK(render(reports, Format::Text, color).find("\x1b[1;31m") != std::string::npos);
}

TEST_CASE("json report follows the documented, versioned schema") {
  auto reports = sample();
  json doc = json::parse(render(reports, Format::Json));
  CHECK(doc["version"] == kJsonSchemaVersion);
  CHECK(doc["tool"]["name"] == "tracelint");
  REQUIRE(doc["files"].size() == 3);
  const json &d = doc["files"][0]["diagnostics"][0];
  for (const char *key : {"code", "name", "severity", "message", "span", "fix", "related"})
    CHECK_MESSAGE(d.contains(key), key);
  CHECK(d["span"]["start"]["line"].is_number());
  CHECK(d["span"]["start"]["column"].is_number());
  CHECK(d["span"]["start"]["offset"].is_number());
  CHECK(doc["files"][2]["error"] == "no such file or directory");
  CHECK(doc["summary"]["errors"].get<int>() >= 1);
  CHECK(doc["summary"]["unreadable"] == 1);
}

TEST_CASE("sarif report has SARIF 2.1.0's required properties") {
  auto reports = sample();
  json doc = json::parse(render(reports, Format::Sarif));
  CHECK(doc["version"] == "2.1.0");
  REQUIRE(doc["runs"].is_array());
  REQUIRE(doc["runs"].size() == 1);
  const json &run = doc["runs"][0];
  const json &driver = run["tool"]["driver"];
  CHECK(driver["name"] == "tracelint");
  REQUIRE(driver["rules"].size() == all_rules().size());
  for (const json &rule : driver["rules"]) {
    CHECK(rule["id"].is_string());
    CHECK(rule["shortDescription"]["text"].is_string());
    std::string level = rule["defaultConfiguration"]["level"];
    CHECK((level == "error" || level == "warning" || level == "note"));
  }
  REQUIRE(run["results"].size() == reports[0].diagnostics.size());
  for (const json &result : run["results"]) {
    CHECK(result["message"]["text"].is_string()); // required: message
    std::string id = result["ruleId"];
    std::size_t index = result["ruleIndex"];
    CHECK(driver["rules"][index]["id"] == id);
    std::string level = result["level"];
    CHECK((level == "error" || level == "warning" || level == "note"));
    const json &region = result["locations"][0]["physicalLocation"]["region"];
    CHECK(region["startLine"].get<int>() >= 1);
    CHECK(region["startColumn"].get<int>() >= 1);
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string());
    if (result.contains("fixes"))
      for (const json &fix : result["fixes"])
        CHECK(
            fix["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startLine"].is_number());
  }
  CHECK(run["invocations"][0]["executionSuccessful"] == false); // missing.py could not be read
  CHECK(run["invocations"][0]["toolExecutionNotifications"].size() == 1);
}

TEST_CASE("junit and github formats") {
  auto reports = sample();
  std::string junit = render(reports, Format::Junit);
  CHECK(junit.find("<testsuites name=\"tracelint\" tests=\"3\" failures=\"1\" errors=\"1\">") !=
        std::string::npos);
  CHECK(junit.find("<testcase classname=\"tracelint\" name=\"clean.py\" file=\"clean.py\">\n    "
                   "</testcase>") != std::string::npos);
  std::string github = render(reports, Format::Github);
  CHECK(github.find("::error file=examples/buggy_trace.py,line=14,col=45,") != std::string::npos);
  CHECK(github.find("title=TL002 repr-leak::") != std::string::npos);
  CHECK(github.find("::error file=missing.py::no such file or directory") != std::string::npos);
}
