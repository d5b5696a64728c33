// The configuration as a user meets it through the CLI, read as strictly as ruff reads its own:
// unknown keys, codes and prefixes (in flags, pyproject.toml and noqa comments) are errors with
// the closest valid name; codes in any case; extend-select, per-file-ignores, exclude and
// extend-exclude; --stdin-filename finds the configuration of the path it names; --show-settings
// says where each value came from.
#include "support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace {

// TL003 (an undefined name) and TL011 (a context name, a warning).
const std::string kTwoFindings = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                                 "  t0 = ltorch.neg(nowhere)\n  t1 = customOp0(t0)\n  return t1\n";
const std::string kUndefined = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                               "  t0 = ltorch.neg(nowhere)\n  return t0\n";

std::string q(const std::string &s) {
  return "'" + s + "'";
}

// A project: a .git folder (the project root) and a pyproject.toml with this [tool.tracelint].
struct Project {
  explicit Project(const std::string &tool_section) {
    fs::create_directories(dir.path + "/.git");
    test::write_file(dir.path + "/pyproject.toml", "[project]\nname = \"p\"\n\n" + tool_section);
  }
  std::string file(const std::string &relative, const std::string &text) const {
    std::string path = dir.path + "/" + relative;
    fs::create_directories(fs::path(path).parent_path());
    test::write_file(path, text);
    return path;
  }
  std::string config() const { return dir.path + "/pyproject.toml"; }
  test::TempDir dir;
};

// The codes of a JSON report, per file name.
std::map<std::string, std::set<std::string>> codes_by_file(const std::string &json) {
  std::map<std::string, std::set<std::string>> out;
  const nlohmann::json doc = nlohmann::json::parse(json);
  for (const auto &file : doc["files"]) {
    auto &codes = out[fs::path(file["path"].get<std::string>()).filename().string()];
    for (const auto &d : file["diagnostics"])
      codes.insert(d["code"].get<std::string>());
  }
  return out;
}

} // namespace

TEST_CASE("config: an unknown key is an error at its place with the closest key") {
  for (auto [section, key, expected] :
       {std::tuple<const char *, const char *, const char *>{
            "[tool.tracelint]\nselct = [\"TL003\"]\n", "selct", "did you mean select?"},
        {"[tool.tracelint]\nper-file-ignore = {}\n", "per-file-ignore",
         "did you mean per-file-ignores?"},
        {"[tool.tracelint]\nextend_select = [\"TL0\"]\n", "extend_select",
         "did you mean extend-select?"},
        {"[tool.tracelint]\ncolour = \"red\"\n", "colour", "known keys: select, extend-select"},
        {"[tool.tracelint.analyzer]\ncodegen-patern = \"x\"\n", "codegen-patern",
         "did you mean codegen-pattern?"}}) {
    // A named copy: clang 14 cannot capture a structured binding (CAPTURE makes a lambda).
    const std::string section_text = section;
    CAPTURE(section_text);
    Project project(section_text);
    std::string path = project.file("traces/t.py", kUndefined);
    auto run = test::tracelint("check " + q(path));
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(project.config() + ":5:1: ") != std::string::npos);
    CHECK(run.err.find("unknown key '" + std::string(key) + "'") != std::string::npos);
    CHECK(run.err.find(expected) != std::string::npos);
    CHECK(run.out.find("error[TL003]") == std::string::npos); // nothing checked with a bad config
  }
}

TEST_CASE("config: unknown codes and prefixes say which valid one is closest") {
  Project project("[tool.tracelint]\nselect = [\"TL9\"]\n");
  std::string path = project.file("t.py", kUndefined);
  auto prefix = test::tracelint("check " + q(path));
  CHECK(prefix.exit_code == 2);
  CHECK(prefix.err.find(":5:11: [tool.tracelint] select: unknown rule code or prefix 'TL9' (did "
                        "you mean TL0?)") != std::string::npos);
  test::write_file(project.config(), "[tool.tracelint]\nignore = [\"TL03\"]\n");
  auto code = test::tracelint("check " + q(path));
  CHECK(code.exit_code == 2);
  CHECK(code.err.find("unknown rule code or prefix 'TL03' (did you mean TL003?)") !=
        std::string::npos);
  test::write_file(project.config(), "[tool.tracelint.severity]\nTL0 = \"info\"\n");
  auto severity = test::tracelint("check " + q(path));
  CHECK(severity.exit_code == 2);
  CHECK(severity.err.find("[tool.tracelint.severity] unknown rule code 'TL0'") !=
        std::string::npos);
  // On the command line, the same suggestion, on standard error.
  auto flag = test::tracelint("check --isolated --select TLL003 " + q(path));
  CHECK(flag.exit_code == 2);
  CHECK(flag.err.find("--select: unknown rule code or prefix 'TLL003' (did you mean TL003?)") !=
        std::string::npos);
}

TEST_CASE("config: codes are case-insensitive in flags, pyproject.toml and noqa comments") {
  Project project("[tool.tracelint]\nselect = [\"tl0\"]\nignore = [\"Tl011\"]\n"
                  "[tool.tracelint.severity]\ntl003 = \"warning\"\n");
  std::string path = project.file("t.py", kTwoFindings);
  auto run = test::tracelint("check --output-format json " + q(path));
  CHECK(run.exit_code == 0); // TL003 is a warning now, TL011 ignored
  auto doc = nlohmann::json::parse(run.out);
  REQUIRE(doc["files"][0]["diagnostics"].size() == 1);
  CHECK(doc["files"][0]["diagnostics"][0]["code"] == "TL003");
  CHECK(doc["files"][0]["diagnostics"][0]["severity"] == "warning");
  CHECK(test::tracelint("check --isolated --ignore tl003,TL011 " + q(path)).exit_code == 0);

  std::string noqa = kUndefined;
  noqa.replace(noqa.find("(nowhere)") + 9, 0, "  # noqa: tl003");
  CHECK(test::tracelint("check --isolated " + q(project.file("n.py", noqa))).exit_code == 0);
}

TEST_CASE("config: a noqa comment naming no rule is an error at its place, other tools' codes "
          "are left alone") {
  test::TempDir dir;
  std::string typo = kUndefined;
  typo.replace(typo.find("(nowhere)") + 9, 0, "  # noqa: TL03");
  test::write_file(dir.path + "/typo.py", typo);
  auto run = test::tracelint("check --isolated " + q(dir.path + "/typo.py"));
  CHECK(run.exit_code == 2);
  CHECK(run.out.find("typo.py:4:37: error: `# noqa: TL03` silences nothing: unknown rule code "
                     "'TL03' (did you mean TL003?)") != std::string::npos);
  auto concise =
      test::tracelint("check --isolated --output-format concise " + q(dir.path + "/typo.py"));
  CHECK(concise.out.find("typo.py:4:37: error: `# noqa: TL03`") != std::string::npos);

  std::string other = kUndefined;
  other.replace(other.find("(nowhere)") + 9, 0, "  # noqa: E501");
  test::write_file(dir.path + "/other.py", other);
  auto foreign = test::tracelint("check --isolated " + q(dir.path + "/other.py"));
  CHECK(foreign.exit_code == 1); // E501 is not tracelint's: TL003 is still reported
  CHECK(foreign.out.find("error[TL003]") != std::string::npos);
}

TEST_CASE("config: extend-select adds to select, in pyproject.toml and as a flag") {
  Project project("[tool.tracelint]\nselect = [\"TL002\"]\nextend-select = [\"TL003\"]\n");
  std::string path = project.file("t.py", kTwoFindings);
  CHECK(codes_by_file(test::tracelint("check --output-format json " + q(path)).out)["t.py"] ==
        std::set<std::string>{"TL003"});
  CHECK(codes_by_file(test::tracelint("check --output-format json --extend-select TL011 " + q(path))
                          .out)["t.py"] == std::set<std::string>{"TL003", "TL011"});
  // A --select of the command line starts over from its own selection.
  CHECK(codes_by_file(
            test::tracelint("check --output-format json --select TL011 " + q(path)).out)["t.py"] ==
        std::set<std::string>{"TL011"});
  // ... so it re-enables what the configuration ignored.
  test::write_file(project.config(), "[tool.tracelint]\nignore = [\"TL003\"]\n");
  CHECK(codes_by_file(
            test::tracelint("check --output-format json --select TL003 " + q(path)).out)["t.py"] ==
        std::set<std::string>{"TL003"});
}

TEST_CASE("config: per-file-ignores by file name and by path under the project") {
  Project project("[tool.tracelint]\n[tool.tracelint.per-file-ignores]\n"
                  "\"legacy/*.py\" = [\"TL003\"]\n\"*_fragment.py\" = [\"TL00\"]\n");
  project.file("traces/legacy/old.py", kTwoFindings);
  project.file("traces/new.py", kTwoFindings);
  project.file("traces/x_fragment.py", kTwoFindings);
  project.file("legacy/top.py", kTwoFindings);
  auto run = test::tracelint("check --output-format json " + q(project.dir.path));
  auto codes = codes_by_file(run.out);
  CHECK(codes["new.py"] == std::set<std::string>{"TL003", "TL011"});
  CHECK(codes["top.py"] == std::set<std::string>{"TL011"}); // legacy/*.py from the project root
  CHECK(codes["old.py"] == std::set<std::string>{"TL003", "TL011"}); // traces/legacy: not legacy/
  CHECK(codes["x_fragment.py"] == std::set<std::string>{"TL011"});

  auto shown = test::tracelint("check --show-settings " + q(project.dir.path + "/legacy/top.py"));
  CHECK(shown.out.find("\"legacy/*.py\" = TL003 (matches this path) [" + project.config() +
                       ":5:1]") != std::string::npos);
  CHECK(shown.out.find("TL003 (matches") != std::string::npos);

  test::write_file(project.config(),
                   "[tool.tracelint.per-file-ignores]\n\"legacy/*.py\" = [\"TL30\"]\n");
  auto bad = test::tracelint("check " + q(project.dir.path));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("per-file-ignores \"legacy/*.py\": unknown rule code or prefix 'TL30'") !=
        std::string::npos);
}

TEST_CASE("config: exclude and extend-exclude leave scanned paths out, named files are checked") {
  Project project("[tool.tracelint]\nextend-exclude = [\"generated\", \"traces/skip_*.py\"]\n");
  project.file("traces/a.py", kUndefined);
  project.file("traces/skip_me.py", kUndefined);
  project.file("traces/generated/b.py", kUndefined);
  project.file("build/c.py", kUndefined);    // the default list
  project.file("venv/lib/d.py", kUndefined); // the default list
  std::string named = project.file("dist/e.py", kUndefined);
  auto files = [](const std::string &json) {
    std::set<std::string> names;
    for (const auto &[name, codes] : codes_by_file(json))
      names.insert(name);
    return names;
  };
  CHECK(files(test::tracelint("check --output-format json " + q(project.dir.path)).out) ==
        std::set<std::string>{"a.py"});
  CHECK(files(test::tracelint("check --output-format json " + q(project.dir.path) + " " + q(named))
                  .out) == std::set<std::string>{"a.py", "e.py"});
  // exclude replaces the default list (and the flag replaces the configuration's).
  test::write_file(project.config(), "[tool.tracelint]\nexclude = [\"venv\"]\n");
  CHECK(files(test::tracelint("check --output-format json " + q(project.dir.path)).out) ==
        std::set<std::string>{"a.py", "skip_me.py", "b.py", "c.py", "e.py"});
  CHECK(files(test::tracelint("check --output-format json --exclude traces --extend-exclude "
                              "'build/' " +
                              q(project.dir.path))
                  .out) == std::set<std::string>{"d.py", "e.py"});
  auto none = test::tracelint("check --exclude '*' " + q(project.dir.path));
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no Python files found") != std::string::npos);
}

TEST_CASE("config: --stdin-filename finds the configuration of the path it names") {
  Project project("[tool.tracelint]\nignore = [\"TL011\"]\n"
                  "[tool.tracelint.per-file-ignores]\n\"legacy/*\" = [\"TL003\"]\n");
  fs::create_directories(project.dir.path + "/traces");
  test::TempDir elsewhere; // standard input read from another folder, as an editor does
  std::string cd = "cd " + q(elsewhere.path) + " &&";
  auto run = test::tracelint("check --output-format json --stdin-filename " +
                                 q(project.dir.path + "/traces/t.py") + " -",
                             kTwoFindings, cd);
  CHECK(run.exit_code == 1);
  CHECK(codes_by_file(run.out)["t.py"] == std::set<std::string>{"TL003"});
  auto legacy = test::tracelint("check --output-format json --stdin-filename " +
                                    q(project.dir.path + "/legacy/t.py") + " -",
                                kTwoFindings, cd);
  CHECK(legacy.exit_code == 0);
  CHECK(codes_by_file(legacy.out)["t.py"].empty());
  // Without it, the current folder's configuration (none here).
  CHECK(codes_by_file(test::tracelint("check --output-format json -", kTwoFindings, cd).out)["-"] ==
        std::set<std::string>{"TL003", "TL011"});
  auto shown = test::tracelint("check --show-settings --stdin-filename " +
                                   q(project.dir.path + "/traces/t.py") + " -",
                               "", cd);
  CHECK(shown.out.find("config file: " + project.config()) != std::string::npos);
}

TEST_CASE("config: --show-settings says where each value came from") {
  Project project("[tool.tracelint]\nselect = [\"TL0\"]\nignore = [\"TL003\"]\n"
                  "context-names = [\"customOp0\"]\n[tool.tracelint.severity]\nTL005 = \"info\"\n");
  std::string path = project.file("t.py", kUndefined);
  auto run = test::tracelint("check --show-settings --ignore TL012 --fail-on warning " + q(path));
  CHECK(run.exit_code == 0);
  std::string c = project.config();
  CHECK(run.out.find("  config file: " + c + "\n") != std::string::npos);
  CHECK(run.out.find("  select: TL0 [" + c + ":5:10]\n") != std::string::npos);
  CHECK(run.out.find("  ignore: TL003 [" + c + ":6:10]; TL012 [--ignore]\n") != std::string::npos);
  CHECK(run.out.find("  context-names: customOp0 [" + c + ":7:17]\n") != std::string::npos);
  CHECK(run.out.find("  severity: TL005 = info [" + c + ":8:1]\n") != std::string::npos);
  CHECK(run.out.find("  fail-on: warning [--fail-on]\n") != std::string::npos);
  CHECK(run.out.find("  extend-select: none [default]\n") != std::string::npos);
  CHECK(run.out.find("  max-file-size: 64 MiB [default]\n") != std::string::npos);
  // The rules that run for this path, resolved from all of the above.
  CHECK(run.out.find("  rules enabled: TL001, TL002, TL004, TL005, TL006, TL007, TL008, TL009, "
                     "TL010, TL011, TL013, TL014, TL015, TL016, TL017, TL018, TL019, TL020, "
                     "TL021 (19 of 21)\n") != std::string::npos);
  CHECK(run.out.find("  dialect: detected from each file's text [default]\n") != std::string::npos);
}

TEST_CASE("config: a number past 64 bits in another tool's table is read as tomllib reads it, "
          "in [tool.tracelint] it is an error") {
  // toml++ refuses such numbers; tomllib (Python's tools' reader) reads them: found by
  // fuzz_config against tomllib.
  Project other("[tool.other]\nx = 666666666666666666666666666666\ny = -99999999999999999999\n"
                "z = 0x1ffffffffffffffffff\nw = 1e400\nv = 11_1e1111111111111\nu = " +
                std::string(130, '4') + "\nt = 1" + std::string(130, '3') + "E13" +
                "\n\n"
                "[tool.tracelint]\nselect = [\"TL003\"]\n");
  std::string file = other.file("t.py", "x = 1\n");
  test::Run r = test::tracelint("check " + q(file));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  Project ours("[tool.tracelint]\nselect = 99999999999999999999999\n");
  r = test::tracelint("check " + q(ours.file("t.py", "x = 1\n")));
  CHECK(r.exit_code == 2);
  const std::string said = r.out + r.err;
  CHECK_MESSAGE(said.find("pyproject.toml:5:10: [tool.tracelint] select must be an array of "
                          "strings") != std::string::npos,
                said);
}

TEST_CASE("config: a number-like key that TOML refuses stays an error (only a number too large "
          "for toml++ is read as tomllib reads it)") {
  // `+0` is no bare key (tomllib: "Invalid statement"); it was read as the key `0`. Found by
  // fuzz_config against tomllib.
  for (const char *table :
       {"[tool.other]\n+0 = \"\"\n", "[tool.other]\n+7e999 = 1\n", "[tool.+1e999]\nx = 1\n"}) {
    Project project(std::string(table) + "\n[tool.tracelint]\nselect = [\"TL003\"]\n");
    test::Run r = test::tracelint("check " + q(project.file("t.py", "x = 1\n")));
    CHECK_MESSAGE(r.exit_code == 2, table);
    const std::string said = r.out + r.err;
    CHECK_MESSAGE(said.find("pyproject.toml:") != std::string::npos, said); // at its place
  }
}
