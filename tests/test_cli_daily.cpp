// Daily use as ruff users expect it (issue 35): typos answered with the closest name, `check`
// with no path checks the current directory, a configuration error said once, force-exclude,
// report polish.
#include "support.hpp"

#include "tracelint/tracer/run.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const std::string kUndefined = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                               "  t0 = ltorch.neg(nowhere)\n  return t0\n";

std::string q(const std::string &s) {
  return test::shell_quote(s);
}

bool has(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("daily: a mistyped command, option or rule code gets the closest one") {
  auto command = test::tracelint("chek .");
  CHECK(command.exit_code == 2);
  CHECK(has(command.err, "unknown command 'chek' (did you mean check?)"));
  auto option = test::tracelint("check --selct TL003 .");
  CHECK(option.exit_code == 2);
  CHECK(has(option.err, "tracelint check: unknown option '--selct' (did you mean --select?)"));
  auto with_value = test::tracelint("check --output-fromat=json .");
  CHECK(has(with_value.err, "unknown option '--output-fromat' (did you mean --output-format?)"));
  auto code = test::tracelint("explain TL06");
  CHECK(code.exit_code == 2);
  CHECK(has(code.err, "no rule 'TL06' (did you mean TL006?)"));
  auto name = test::tracelint("explain undefind-name");
  CHECK(has(name.err, "(did you mean undefined-name?)"));
  // A zero too many is the code with that ending, not the one it starts as.
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nignore = [\"TL0012\"]\n");
  test::write_file(dir.path + "/t.py", kUndefined);
  auto config = test::tracelint("check " + q(dir.path));
  CHECK(config.exit_code == 2);
  CHECK(has(config.out + config.err, "'TL0012' (did you mean TL012?)"));
}

TEST_CASE("daily: check with no path checks the current directory") {
  test::TempDir dir;
  test::write_file(dir.path + "/t.py", kUndefined);
  auto run = test::tracelint("check --output-format concise", "", "cd " + q(dir.path) + " &&");
  CHECK(run.exit_code == 1);
  CHECK(has(run.out, "t.py:4:19: TL003"));
}

TEST_CASE("daily: explain --all prints every rule, rules aligns its columns") {
  auto all = test::tracelint("explain --all");
  CHECK(all.exit_code == 0);
  auto rules = test::tracelint("rules");
  std::size_t count = 0, name_column = std::string::npos;
  std::istringstream lines(rules.out);
  for (std::string line; std::getline(lines, line);) {
    ++count;
    std::string code = line.substr(0, line.find(' '));
    CHECK_MESSAGE(has(all.out, code + " "), code);
    std::size_t name_at = line.find_first_not_of(' ', code.size());
    if (name_column == std::string::npos) name_column = name_at;
    CHECK_MESSAGE(name_at == name_column, line);
  }
  CHECK(count > 20);
}

TEST_CASE("daily: a configuration error is said once, and nothing is checked") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nselect = [\"TL9\"]\n");
  for (const char *name : {"a.py", "b.py", "sub/c.py"}) {
    fs::create_directories(fs::path(dir.path + "/" + name).parent_path());
    test::write_file(dir.path + "/" + name, kUndefined);
  }
  for (const char *format : {"full", "json", "sarif"}) {
    CAPTURE(format);
    auto run = test::tracelint("check --output-format " + std::string(format) + " " + q(dir.path));
    CHECK(run.exit_code == 2);
    const std::string error = "pyproject.toml:2:11: [tool.tracelint] select: unknown rule code";
    std::size_t first = run.err.find(error);
    CHECK(first != std::string::npos);
    CHECK(run.err.find(error, first + 1) == std::string::npos);
    CHECK(run.out.empty());
  }
  // --isolated, as the message says, checks the files without it.
  CHECK(test::tracelint("check --isolated " + q(dir.path)).exit_code == 1);
}

TEST_CASE("daily: force-exclude applies exclude to the paths given by name, as pre-commit gives "
          "them") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  fs::create_directories(dir.path + "/traces/generated");
  const std::string kept = dir.path + "/traces/t.py", skipped = dir.path + "/traces/generated/g.py";
  test::write_file(kept, kUndefined);
  test::write_file(skipped, kUndefined);
  auto files_checked = [](const test::Run &run) {
    return std::count(run.out.begin(), run.out.end(), '\n');
  };
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\nextend-exclude = [\"generated\"]\n");
  // Without force-exclude, a file given by name is checked even if excluded (ruff's default).
  auto named = test::tracelint("check --output-format concise -q " + q(kept) + " " + q(skipped));
  CHECK(files_checked(named) == 2);
  auto forced = test::tracelint("check --force-exclude --output-format concise -q " + q(kept) +
                                " " + q(skipped));
  CHECK(forced.exit_code == 1);
  CHECK(files_checked(forced) == 1);
  CHECK(has(forced.out, "t.py:4:19: TL003"));
  // Only excluded files: nothing to do, which is no error (a pre-commit hook must pass).
  auto only_excluded = test::tracelint("check --force-exclude " + q(skipped));
  CHECK(only_excluded.exit_code == 0);
  CHECK(has(only_excluded.err, "every path given is excluded (force-exclude)"));
  // The configuration's key, and the flag that turns it off again.
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\nextend-exclude = [\"generated\"]\nforce-exclude = true\n");
  CHECK(test::tracelint("check " + q(skipped)).exit_code == 0);
  CHECK(test::tracelint("check --no-force-exclude " + q(skipped)).exit_code == 1);
  auto shown = test::tracelint("check --show-settings " + q(skipped));
  CHECK(has(shown.out, "force-exclude: yes [" + dir.path + "/pyproject.toml:3:17]"));
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nforce-exclude = 1\n");
  auto bad = test::tracelint("check " + q(kept));
  CHECK(bad.exit_code == 2);
  CHECK(has(bad.err, "force-exclude must be true or false"));
}

TEST_CASE("daily: --version names the commit the binary was built from") {
  auto run = test::tracelint("--version");
  CHECK(run.exit_code == 0);
  // `git describe` of the checkout the test runs from: the build's own commit, when built
  // from it (the test and the binary come from the same build).
  CHECK(has(run.out, "tracelint 0."));
  std::size_t at = run.out.find("(commit ");
  REQUIRE(at != std::string::npos);
  std::string commit = run.out.substr(at + 8, run.out.find(')', at) - at - 8);
  std::string head = test::read_file(TRACELINT_SOURCE_DIR "/.git/HEAD");
  if (head.empty()) return test::skip_test("not a git checkout: the commit is 'unknown'");
  test::TempDir dir;
  std::string out = dir.path + "/describe";
  std::system(("git -C " + q(TRACELINT_SOURCE_DIR) +
               " describe --always --dirty --abbrev=10 --exclude='*' > " + q(out))
                  .c_str());
  std::string expected = test::read_file(out);
  CHECK(commit + "\n" == expected);
}

TEST_CASE("daily: a reader that closes the pipe early is no error") {
  // `tracelint check ... | head -c 10` with SIGPIPE ignored (as a parent that ignores it leaves
  // it): the report stops quietly with the check's own exit code, not "cannot write" and 2.
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 400; ++i)
    test::write_file(dir.path + "/t" + std::to_string(i) + ".py", kUndefined);
  const std::string rc = dir.path + "/rc", err = dir.path + "/err";
  std::string command = "trap '' PIPE; { " + q(TRACELINT_BINARY) + " check --output-format json " +
                        q(dir.path) + "; echo $? > " + q(rc) + "; } 2> " + q(err) +
                        " | head -c 10 > /dev/null";
  std::system(("sh -c " + q(command)).c_str());
  CHECK(test::read_file(rc) == "1\n");
  CHECK(test::read_file(err) == "");
  // A full disk is still an error.
  std::system(("sh -c " + q(q(TRACELINT_BINARY) + " check --output-format json " + q(dir.path) +
                            " > /dev/full 2> " + q(err) + "; echo $? > " + q(rc)))
                  .c_str());
  CHECK(test::read_file(rc) == "2\n");
  CHECK(has(test::read_file(err), "cannot write to standard output"));
}

namespace {

// Whether value fits schema, for the parts of JSON schema docs/tracelint.schema.json uses:
// type, enum, items, pattern, properties, additionalProperties.
bool fits(const nlohmann::ordered_json &value, const nlohmann::ordered_json &schema) {
  if (schema.contains("enum")) {
    const auto &options = schema["enum"];
    if (std::find(options.begin(), options.end(), value) == options.end()) return false;
  }
  if (schema.contains("type")) {
    const std::string type = schema["type"];
    bool right = (type == "array" && value.is_array()) || (type == "object" && value.is_object()) ||
                 (type == "string" && value.is_string()) ||
                 (type == "boolean" && value.is_boolean());
    if (!right) return false;
  }
  if (schema.contains("pattern") &&
      !std::regex_search(value.get<std::string>(),
                         std::regex(schema["pattern"].get<std::string>())))
    return false;
  if (value.is_array() && schema.contains("items"))
    for (const auto &item : value)
      if (!fits(item, schema["items"])) return false;
  if (value.is_object())
    for (const auto &[name, item] : value.items()) {
      if (schema.contains("propertyNames") && !fits(name, schema["propertyNames"])) return false;
      if (schema.contains("properties") && schema["properties"].contains(name)) {
        if (!fits(item, schema["properties"][name])) return false;
      } else if (schema.contains("additionalProperties")) {
        const auto &extra = schema["additionalProperties"];
        if (extra.is_boolean() ? !extra.get<bool>() : !fits(item, extra)) return false;
      }
    }
  return true;
}

} // namespace

TEST_CASE("daily: docs/tracelint.schema.json is `tracelint config --schema`, and accepts what the "
          "settings code accepts") {
  auto generated = test::tracelint("config --schema");
  CHECK(generated.exit_code == 0);
  const std::string committed = test::read_file(TRACELINT_SOURCE_DIR "/docs/tracelint.schema.json");
  CHECK_MESSAGE(generated.out == committed,
                "regenerate it: build/tracelint config --schema > docs/tracelint.schema.json");
  const nlohmann::ordered_json schema = nlohmann::ordered_json::parse(committed);
  // Each key with values of each kind, as TOML and as JSON: the schema and the reader agree on
  // which are accepted.
  const std::vector<std::pair<std::string, nlohmann::ordered_json>> values = {
      {"true", true},
      {"\"thunder\"", "thunder"},
      {"\"warning\"", "warning"},
      {"\"TL003\"", "TL003"},
      {"[\"TL003\", \"tl0\"]", {"TL003", "tl0"}},
      {"[\"build\"]", {"build"}},
      {"[1]", {1}},
      {"{}", nlohmann::ordered_json::object()},
      {"{ \"a/*.py\" = [\"TL003\"] }", {{"a/*.py", {"TL003"}}}},
      {"{ \"a/*.py\" = \"fx\" }", {{"a/*.py", "fx"}}},
      {"{ TL003 = \"info\" }", {{"TL003", "info"}}},
      {"{ codegen-pattern = \"print_.*\" }", {{"codegen-pattern", "print_.*"}}},
      {"{ other = \"x\" }", {{"other", "x"}}}};
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  std::size_t agreed = 0;
  for (const auto &[key, property] : schema["properties"].items()) {
    for (const auto &[toml_value, json_value] : values) {
      test::write_file(dir.path + "/tracelint.toml", key + " = " + toml_value + "\n");
      auto run = test::tracelint("check --show-settings " + q(dir.path));
      bool read = run.exit_code == 0;
      // A selector that names no rule is refused by the reader only: the schema has no list
      // of codes. Every such case is a string that fits the pattern, so it agrees otherwise.
      bool fit = fits(json_value, property);
      if (fit && has(run.err, "unknown rule code")) continue;
      CAPTURE(key);
      CAPTURE(toml_value);
      CHECK_MESSAGE(read == fit, run.err);
      agreed += read;
    }
  }
  CHECK(agreed >= 13); // each key accepts one of the values
  // The keys `tracelint config` lists, in order, are the schema's.
  std::istringstream listed(test::tracelint("config").out);
  std::vector<std::string> keys;
  for (std::string line; std::getline(listed, line);)
    keys.push_back(line.substr(0, line.find(':')));
  std::vector<std::string> in_schema;
  for (const auto &[key, property] : schema["properties"].items())
    in_schema.push_back(key);
  CHECK(keys == in_schema);
}

TEST_CASE("daily: tracelint.toml and .tracelint.toml configure as ruff.toml does, before "
          "pyproject.toml, and --config works or fails") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  fs::create_directories(dir.path + "/sub");
  // TL003 (error) and TL011 (warning) in each file.
  const std::string two = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                          "  t0 = ltorch.neg(nowhere)\n  t1 = customOp0(t0)\n  return t1\n";
  test::write_file(dir.path + "/t.py", two);
  test::write_file(dir.path + "/sub/t.py", two);
  auto codes = [&](const std::string &args) {
    auto run = test::tracelint("check --output-format concise -q " + args);
    std::string found;
    for (const char *code : {"TL003", "TL011"})
      if (has(run.out, code)) found += code;
    return found + (run.exit_code == 2 ? " exit 2: " + run.err : "");
  };
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nselect = [\"TL003\"]\n");
  CHECK(codes(q(dir.path + "/t.py")) == "TL003");
  // In one folder: tracelint.toml before pyproject.toml, .tracelint.toml before both.
  test::write_file(dir.path + "/tracelint.toml", "select = [\"TL011\"]\n");
  CHECK(codes(q(dir.path + "/t.py")) == "TL011");
  test::write_file(dir.path + "/.tracelint.toml", "select = [\"TL003\", \"TL011\"]\n");
  CHECK(codes(q(dir.path + "/t.py")) == "TL003TL011");
  // The nearest folder's file wins, even an empty tracelint.toml (every rule).
  test::write_file(dir.path + "/sub/tracelint.toml", "ignore = [\"TL003\"]\n");
  CHECK(codes(q(dir.path + "/sub/t.py")) == "TL011");
  auto shown = test::tracelint("check --show-settings " + q(dir.path + "/sub/t.py"));
  CHECK(has(shown.out, "config file: " + dir.path + "/sub/tracelint.toml"));
  CHECK(has(shown.out, "ignore: TL003 [" + dir.path + "/sub/tracelint.toml:1:10]"));
  // --config: a tracelint.toml given by name applies (it was silently the defaults).
  test::write_file(dir.path + "/other.toml", "select = [\"TL011\"]\n");
  CHECK(codes("--config " + q(dir.path + "/other.toml") + " " + q(dir.path + "/t.py")) == "TL011");
  // ... and a pyproject.toml that configures nothing, or a missing file, is an error.
  fs::create_directories(dir.path + "/empty");
  test::write_file(dir.path + "/empty/pyproject.toml", "[project]\nname = \"p\"\n");
  std::string empty =
      codes("--config " + q(dir.path + "/empty/pyproject.toml") + " " + q(dir.path + "/t.py"));
  CHECK(has(empty, "exit 2: "));
  CHECK(has(empty, "has no [tool.tracelint] table"));
  CHECK(has(codes("--config " + q(dir.path + "/missing.toml") + " " + q(dir.path + "/t.py")),
            "exit 2: "));
  // Errors in a tracelint.toml name its keys as they are written there.
  test::write_file(dir.path + "/sub/tracelint.toml", "select = [\"TL9\"]\n[severity]\n");
  CHECK(has(codes(q(dir.path + "/sub/t.py")),
            "tracelint.toml:1:11: select: unknown rule code or prefix 'TL9'"));
  test::write_file(dir.path + "/sub/tracelint.toml", "[tool.tracelint]\nselect = []\n");
  CHECK(has(
      codes(q(dir.path + "/sub/t.py")),
      "tracelint.toml:1:1: a [tool.tracelint] table in a tracelint.toml: its keys are at the top "
      "level"));
}

TEST_CASE("daily: --add-noqa silences every finding where it stands, and TL021 --fix removes what "
          "silences nothing") {
  test::TempDir dir;
  const std::string file = dir.path + "/t.py";
  const std::string original = test::read_file(TRACELINT_SOURCE_DIR "/examples/buggy_trace.py");
  test::write_file(file, original);
  REQUIRE(test::tracelint("check " + q(file)).exit_code == 1);
  auto added = test::tracelint("check --add-noqa " + q(file));
  CHECK(added.exit_code == 0);
  CHECK(has(added.err, "added noqa comments to"));
  const std::string silenced = test::read_file(file);
  // The type comments stay type comments: `# t0: "..."  # noqa: ...` is still read as one.
  CHECK(has(silenced, "# t0: \"cuda:0 f32[i0, i3]\"  # noqa: TL003"));
  auto clean = test::tracelint("check " + q(file));
  CHECK_MESSAGE(clean.exit_code == 0, clean.out);
  // Again: nothing to add, the file is unchanged.
  CHECK(test::tracelint("check --add-noqa -q " + q(file)).exit_code == 0);
  CHECK(test::read_file(file) == silenced);

  // Codes are added to a noqa comment the line has; a line inside a string cannot be silenced.
  const std::string awkward = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                              "  t0 = ltorch.neg(nowhere)  # noqa: E501\n"
                              "  t1 = ltorch.f(nowhere2, \"\"\"x\ny\"\"\")\n"
                              "  return t0\n";
  test::write_file(file, awkward);
  auto partly = test::tracelint("check --add-noqa --select TL003 " + q(file));
  CHECK(partly.exit_code == 1);
  CHECK(has(test::read_file(file), "ltorch.neg(nowhere)  # noqa: E501, TL003\n"));
  CHECK(has(partly.err, ":5: TL003 not silenced"));
  // Standard input: the text with the comments, on standard output.
  auto piped = test::tracelint("check --add-noqa --select TL003 -", awkward);
  CHECK(has(piped.out, "# noqa: E501, TL003\n"));

  // TL021: the comments once the findings are gone silence nothing; --fix removes them.
  test::write_file(file, "import thunder.torch as ltorch\n\ndef computation(a):\n"
                         "  t0 = ltorch.neg(a)  # noqa: TL003, E501\n"
                         "  t1 = ltorch.neg(t0)  # noqa: TL003\n  return t1\n");
  auto stale = test::tracelint("check --output-format concise " + q(file));
  CHECK(stale.exit_code == 0); // a warning
  CHECK(has(stale.out, "t.py:4:23: TL021 [*]"));
  CHECK(has(stale.out, "t.py:5:24: TL021 [*]"));
  CHECK(test::tracelint("check --fix " + q(file)).exit_code == 0);
  CHECK(test::read_file(file) == "import thunder.torch as ltorch\n\ndef computation(a):\n"
                                 "  t0 = ltorch.neg(a)  # noqa: E501\n"
                                 "  t1 = ltorch.neg(t0)\n  return t1\n");
}

TEST_CASE("daily: ordinary Python is not checked as a trace, --dialect reads it as one") {
  test::TempDir dir;
  // setup.py-like: an import inside a function, a class, a loop; and a test holding a trace in
  // a string (its `ltorch.` is no marker: it is in a string).
  test::write_file(dir.path + "/setup.py",
                   "import os\n\n\ndef version():\n    from pathlib import Path\n"
                   "    for line in Path('x').read_text().splitlines():\n"
                   "        if line.startswith('v'):\n            return line\n\n\n"
                   "class Build:\n    def run(self):\n        return os.getcwd() + unset\n");
  test::write_file(dir.path + "/test_it.py",
                   "import tracelint\n\nTRACE = '''def computation(a):\\n  return "
                   "ltorch.neg([IntegerProxy name=i0, value=2])\\n'''\n"
                   "\n\ndef test_it():\n    assert tracelint.check(TRACE).ok\n");
  test::write_file(dir.path + "/trace.py", kUndefined);
  test::write_file(dir.path + "/broken.py", "class X:\n    def f(self:\n        pass\n");
  auto run = test::tracelint("check --output-format concise " + q(dir.path));
  CHECK(run.exit_code == 1);
  CHECK(has(run.out, "trace.py:4:19: TL003"));
  CHECK(has(run.out, "broken.py:2:")); // a syntax error is one in any Python
  CHECK(!has(run.out, "setup.py"));
  CHECK(!has(run.out, "test_it.py"));
  CHECK(has(run.err, "3 files are ordinary Python, not a printed trace ("));
  // A debug repr in a program's string is data (a test's broken trace), not a leak.
  CHECK(has(run.err, "only TL001 checked there"));
  auto forced = test::tracelint("check --output-format concise --dialect thunder " +
                                q(dir.path + "/setup.py"));
  CHECK(forced.exit_code == 1);
  CHECK(has(forced.out, "setup.py:"));
  CHECK(!has(forced.err, "ordinary Python"));
}

TEST_CASE("daily: a mistyped command or option is echoed escaped") {
  // A newline and an escape sequence in the word: printed as escapes, never raw.
  auto command = test::tracelint("\"$(printf 'ch\\nek\\033[31m')\" .");
  CHECK(command.exit_code == 2);
  CHECK(has(command.err, "unknown command 'ch"));
  CHECK(!has(command.err, "ch\nek"));
  CHECK(!has(command.err, "\x1b"));
  auto option = test::tracelint("check \"$(printf -- '--se\\nlct')\" .");
  CHECK(option.exit_code == 2);
  CHECK(has(option.err, "unknown option '--se"));
  CHECK(!has(option.err, "--se\nlct"));
}

TEST_CASE("daily: each SARIF rule's helpUri is its section of docs/rules.md") {
  test::TempDir dir;
  test::write_file(dir.path + "/t.py", kUndefined);
  auto run = test::tracelint("check --output-format sarif " + q(dir.path + "/t.py"));
  CHECK(run.exit_code == 1);
  auto rules = nlohmann::json::parse(run.out)["runs"][0]["tool"]["driver"]["rules"];
  REQUIRE(rules.size() > 20);
  for (const auto &rule : rules) {
    INFO(rule["id"]);
    REQUIRE(rule.contains("helpUri"));
    std::string uri = rule["helpUri"];
    // An absolute URI (SARIF 3.49.12): the build's docs/rules.md, as no published URL is set.
    REQUIRE(uri.rfind("file:///", 0) == 0);
    std::size_t hash = uri.find('#');
    REQUIRE(hash != std::string::npos);
    std::string path = uri.substr(7, hash - 7), fragment = uri.substr(hash + 1);
    CHECK(fs::equivalent(path, std::string(TRACELINT_SOURCE_DIR) + "/docs/rules.md"));
    // The fragment is the anchor Markdown renderers give the rule's heading, and the table's link.
    std::string heading =
        "## " + rule["id"].get<std::string>() + " " + rule["name"].get<std::string>();
    std::string expected = rule["id"].get<std::string>() + "-" + rule["name"].get<std::string>();
    std::transform(expected.begin(), expected.end(), expected.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    CHECK(fragment == expected);
    std::string doc = test::read_file(path);
    CHECK(has(doc, "\n" + heading + "\n"));
    CHECK(has(doc, "](#" + fragment + ")"));
  }
}

TEST_CASE("daily: a run's summary lists what differs, one result line over all, and the times") {
  using namespace tracelint::tracer;
  RunReport report;
  report.device = "cpu";
  report.from_model.max_abs_diff = 1e-7;
  report.from_printed.max_abs_diff = 2e-7;
  report.from_printed.worst_at = "[1]";
  for (const char *name : {"w1", "w2", "w3"}) {
    GradientComparison g;
    g.input = name;
    g.from_model.max_abs_diff = g.from_printed.max_abs_diff = 1e-6;
    report.gradients.push_back(g);
  }
  report.gradients[1].from_printed = {false, 0.5, 0.25, "the result: values differ", ""};
  report.timings = {{"eager", 12.25}, {"the trace", 0.5}};
  std::string text = report.summary();
  CHECK_FALSE(has(text, "gradient of w1"));
  CHECK_FALSE(has(text, "gradient of w2 (backward as traced)"));
  CHECK(has(text, "gradient of w2 (backward printed, parsed back): DIFFERS from autograd: the "
                  "result: values differ (max abs diff 0.5, max rel diff 0.25)\n"));
  CHECK(has(text, "result: 1 of 8 comparisons DIFFER (the output and 3 gradients, each as traced "
                  "and printed, parsed back; each is listed above); max abs diff 0.5 (the "
                  "gradient of w2 (backward printed, parsed back)), max rel diff 0.25 (the "
                  "gradient of w2 (backward printed, parsed back))\n"));
  CHECK(has(text, "time: eager 12.2 s, the trace 0.50 s\n"));
  std::string verbose = report.summary(true);
  CHECK(has(verbose, "gradient of w1 (backward as traced): matches autograd"));
  CHECK(has(verbose, "gradient of w3 (backward printed, parsed back): matches autograd"));
  // With no gradients, the output's worst place is named.
  report.gradients.clear();
  CHECK(has(report.summary(), "result: all 2 comparisons match (the output, as traced and "
                              "printed, parsed back); max abs diff 2e-07 (the output[1] (printed, "
                              "parsed back))"));
}

TEST_CASE("daily: a long run shows its phases on a terminal, and nothing in a pipe or a log") {
  REQUIRE_MESSAGE(std::system("command -v script > /dev/null") == 0,
                  "script (util-linux) runs the CLI on a terminal");
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "import torch\n\ndef f(a, b):\n"
                                       "    return torch.nn.functional.gelu(a @ b).sum(-1)\n");
  std::string args =
      " run " + q(dir.path + "/f.py") + " -f f -a 'a=f32[4, 8]:grad' -a 'b=f32[8, 4]:grad' --grad";
  std::string log = dir.path + "/terminal.log";
  // script gives the command a terminal (stdout and stderr) and copies what it wrote.
  std::string command = "TERM=xterm script -qfec " + q(q(TRACELINT_BINARY) + args) +
                        " /dev/null > " + q(log) + " 2>&1";
  int on_terminal = std::system(command.c_str());
  std::string shown = test::read_file(log);
  CHECK_MESSAGE(on_terminal == 0, shown);
  for (const char *phase : {"tracing f", "checking the emitted trace", "running eager",
                            "running the trace", "running the printed trace", "running autograd",
                            "running the backward", "running the printed backward"})
    CHECK_MESSAGE(has(shown, std::string("\r\033[Ktracelint: ") + phase), phase);
  // Erased before the report: the report's first line starts clean.
  CHECK(has(shown, "\r\033[Kran on cpu"));
  CHECK(has(shown, "result: all 6 comparisons match"));
  auto piped = test::tracelint(args);
  CHECK_MESSAGE(piped.exit_code == 0, piped.err);
  CHECK(has(piped.out, "result: all 6 comparisons match"));
  CHECK_FALSE(has(piped.err, "\033[K"));
  CHECK_FALSE(has(piped.err, "running"));
}

TEST_CASE("daily: a run on the reference BLAS says so, with what to install") {
  const std::string netlib = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3";
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "import torch\n\ndef f(a, b):\n    return a @ b\n");
  std::string args = " run " + q(dir.path + "/f.py") + " -f f -a 'a=f32[4, 8]' -a 'b=f32[8, 4]'";
  auto usual = test::tracelint(args);
  CHECK(usual.exit_code == 0);
  // scripts/bootstrap.sh installs OpenBLAS, which the alternatives system then prefers.
  CHECK_MESSAGE(!has(usual.out, "reference BLAS"), usual.out);
  if (!fs::exists(netlib)) {
    test::skip_test("no reference BLAS (" + netlib + ", Debian's libblas3) to run libtorch on");
    return;
  }
  // libtorch loads libblas.so.3 from this folder first: the reference one.
  fs::create_directories(dir.path + "/lib");
  fs::create_symlink(netlib, dir.path + "/lib/libblas.so.3");
  auto slow = test::tracelint(args, "", "LD_LIBRARY_PATH=" + q(dir.path + "/lib"));
  CHECK(slow.exit_code == 0);
  CHECK(has(slow.out, "note: libtorch multiplies matrices with the reference BLAS (" +
                          fs::canonical(netlib).string() +
                          "), one core and 10-50x slower than OpenBLAS: install Debian's "
                          "libopenblas0-pthread (scripts/bootstrap.sh does) for larger models\n"));
  CHECK(has(slow.out, "result: all 2 comparisons match"));
}
