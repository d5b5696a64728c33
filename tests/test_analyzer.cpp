// tracelint analyze: C++ printer fixtures with inline expectations (clang-tidy's
// CHECK-MESSAGES idea, in the form `// expect: TLA001@27: message part` about the line above),
// our own printers analysed clean, and clear errors for bad input.
#include "support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace {
std::vector<test::Expectation> expectations(const std::string &text) {
  return test::parse_expectations(text, R"(^\s*// expect: (TLA\d{3})@(\d+): (.*)$)");
}
} // namespace

std::vector<std::string> cpp_files(const std::string &dir) {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".cpp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

const std::string kFixtures = std::string(TRACELINT_SOURCE_DIR) + "/analyzer/fixtures";

TEST_CASE("analyzer fixtures: exactly the expected diagnostics") {
  std::vector<std::string> files = cpp_files(kFixtures);
  REQUIRE(files.size() >= 7);
  for (const std::string &path : files) {
    auto expected = expectations(test::read_file(path));
    REQUIRE(!expected.empty());
    auto run = test::tracelint("analyze --format json '" + path + "' -- -std=c++17");
    CHECK_MESSAGE(run.exit_code == 1, path << "\n" << run.err);
    auto doc = nlohmann::json::parse(run.out);
    std::set<std::size_t> matched;
    for (const auto &d : doc["files"][0]["diagnostics"]) {
      bool ok = false;
      for (std::size_t i = 0; i < expected.size() && !ok; ++i) {
        const test::Expectation &e = expected[i];
        if (!matched.count(i) && d["code"] == e.code && d["span"]["start"]["line"] == e.line &&
            d["span"]["start"]["column"] == e.column &&
            d["message"].get<std::string>().find(e.message) != std::string::npos) {
          matched.insert(i);
          ok = true;
        }
      }
      CHECK_MESSAGE(ok, path << ": unexpected " << d.dump());
    }
    for (std::size_t i = 0; i < expected.size(); ++i)
      CHECK_MESSAGE(matched.count(i), path << ":" << expected[i].line << ": missing "
                                           << expected[i].code << " '" << expected[i].message
                                           << "'");
  }
}

// Correct printers (max_digits10, std::format("{}"), precision(17), TVMScript's exact fixed
// notation) and text that is not Python (a CUDA kernel generator, logs, error messages,
// TorchScript-style lines built over several statements) stay silent.
TEST_CASE("analyzer fixtures: correct printers and non-Python text have no findings") {
  std::vector<std::string> files = cpp_files(kFixtures + "/clean");
  REQUIRE(files.size() >= 3);
  for (const std::string &path : files) {
    auto run = test::tracelint("analyze --format json '" + path + "' -- -std=c++17");
    CHECK_MESSAGE(run.exit_code == 0, path << "\n" << run.out << run.err);
    auto doc = nlohmann::json::parse(run.out);
    CHECK_MESSAGE(doc["files"][0]["diagnostics"].empty(), path << ": " << doc.dump(2));
    CHECK(doc["files"][0]["error"].is_null());
  }
}

// The printers are found by the Python they write: with no name pattern at all, every
// rendition of Thunder #1182 is still reported, and none of the silent fixtures speaks up.
TEST_CASE("analyzer: printers are found by what they write, without a name pattern") {
  for (std::string name : {"TLA001_slice_bug_styles.cpp", "TLA001_repr_through_functions.cpp",
                           "TLA003_precision_styles.cpp", "TLA004_unescaped_string.cpp",
                           "TLA002_lines_over_statements.cpp"}) {
    CAPTURE(name);
    std::string path = kFixtures + "/" + name;
    auto expected = expectations(test::read_file(path));
    auto run =
        test::tracelint("analyze --codegen-pattern '' --format json '" + path + "' -- -std=c++17");
    CHECK(run.exit_code == 1);
    auto doc = nlohmann::json::parse(run.out);
    CHECK(doc["files"][0]["diagnostics"].size() == expected.size());
  }
  for (const std::string &path : cpp_files(kFixtures + "/clean")) {
    auto run = test::tracelint("analyze --codegen-pattern '' '" + path + "' -- -std=c++17");
    CHECK_MESSAGE(run.exit_code == 0, path << "\n" << run.out);
  }
}

// A missing header: the file failed, in every format, with Clang's first error.
TEST_CASE("analyzer fixtures: a file with a missing include is reported as failed") {
  std::string path = kFixtures + "/failing/missing_include.cpp";
  std::string first_error = path + ":3:10: 'tracelint_fixture_missing_header.h' file not found";
  std::string first_error_xml =
      path + ":3:10: &apos;tracelint_fixture_missing_header.h&apos; file not found";
  for (std::string format : {"text", "json", "sarif", "junit", "github", "html"}) {
    CAPTURE(format);
    auto run = test::tracelint("analyze --format " + format + " '" + path + "' -- -std=c++17");
    CHECK(run.exit_code == 2);
    if (format == "text") {
      CHECK(run.out.find("All checks passed") == std::string::npos);
      CHECK_MESSAGE(run.out.find(path + ": error: does not compile: " + first_error) !=
                        std::string::npos,
                    run.out);
      CHECK(run.out.find("1 file could not be checked") != std::string::npos);
    } else if (format == "json") {
      auto doc = nlohmann::json::parse(run.out);
      CHECK(doc["files"][0]["error"] == "does not compile: " + first_error);
      CHECK(doc["files"][0]["diagnostics"].empty());
    } else if (format == "sarif") {
      auto doc = nlohmann::json::parse(run.out);
      const auto &invocation = doc["runs"][0]["invocations"][0];
      CHECK(invocation["executionSuccessful"] == false);
      CHECK(invocation["toolExecutionNotifications"][0]["message"]["text"] ==
            "does not compile: " + first_error);
    } else if (format == "junit") {
      CHECK(run.out.find("errors=\"1\"") != std::string::npos);
      CHECK(run.out.find("<error message=\"does not compile: " + first_error_xml + "\"/>") !=
            std::string::npos);
    } else if (format == "github") {
      CHECK(run.out.find("::error file=" + path + "::does not compile: ") == 0);
    } else {
      CHECK(run.out.find("<p class=\"unreadable\">does not compile: " + first_error_xml) !=
            std::string::npos);
    }
  }
}

TEST_CASE("analyzer: tracelint's own printers have no findings") {
  std::string build = std::filesystem::path(TRACELINT_BINARY).parent_path().string();
  std::string src = TRACELINT_SOURCE_DIR;
  auto run = test::tracelint("analyze -p '" + build + "' '" + src + "/core/src/printer.cpp' '" +
                             src + "/core/src/value.cpp' '" + src + "/core/src/type_string.cpp' '" +
                             src + "/examples/seed_trace.cpp' '" + src +
                             "/tracer/src/recorder.cpp' '" + src + "/tracer/src/tracer.cpp'");
  CHECK_MESSAGE(run.exit_code == 0, run.out << run.err);
  CHECK(run.out.find("All checks passed (6 files).") != std::string::npos);
}

// Summaries across units: printer.cpp sees only the declarations of proxy.cpp's functions.
// Alone (and proxy.cpp alone, and printer.cpp with a database that has proxy.cpp but without
// --cross-unit) they are clean; analysed in one run (either order, or printer.cpp with that
// database and --cross-unit) the two chains
// into proxy.cpp are reported, named file:line, and so are the text problems of two helpers
// whose results printer.cpp prints into Python (a %g number, a string quoted unescaped); the
// functions that print the name, a cycle through both units and the right helpers stay silent.
TEST_CASE("analyzer: a repr reached through a function of another unit of the same run") {
  std::string dir = kFixtures + "/units";
  for (std::string file : {"printer.cpp", "proxy.cpp"}) {
    auto alone = test::tracelint("analyze --format json '" + dir + "/" + file + "' -- -std=c++17");
    CHECK_MESSAGE(alone.exit_code == 0, alone.out << alone.err);
  }
  // printer.cpp alone with a compilation database that has proxy.cpp: read from it.
  test::TempDir db;
  nlohmann::json commands = nlohmann::json::array();
  for (std::string file : {"printer.cpp", "proxy.cpp"})
    commands.push_back({{"directory", dir},
                        {"file", dir + "/" + file},
                        {"arguments", {"c++", "-std=c++17", "-c", dir + "/" + file}}});
  test::write_file(db.path + "/compile_commands.json", commands.dump());
  auto without = test::tracelint("analyze -p '" + db.path + "' '" + dir + "/printer.cpp'");
  CHECK_MESSAGE(without.exit_code == 0, without.out << without.err); // --cross-unit is opt-in
  for (std::string arguments : {"'" + dir + "/printer.cpp' '" + dir + "/proxy.cpp' -- -std=c++17",
                                "'" + dir + "/proxy.cpp' '" + dir + "/printer.cpp' -- -std=c++17",
                                "-p '" + db.path + "' --cross-unit '" + dir + "/printer.cpp'"}) {
    CAPTURE(arguments);
    auto run = test::tracelint("analyze --format json " + arguments);
    CHECK_MESSAGE(run.exit_code == 1, run.out << run.err);
    auto doc = nlohmann::json::parse(run.out);
    std::vector<std::tuple<int, std::string, std::string>> found;
    for (const auto &file : doc["files"])
      for (const auto &d : file["diagnostics"]) {
        CHECK(file["path"].get<std::string>().find("printer.cpp") != std::string::npos);
        found.emplace_back(d["span"]["start"]["line"].get<int>(), d["code"].get<std::string>(),
                           d["message"].get<std::string>());
      }
    const std::vector<std::tuple<int, std::string, std::string>> expected = {
        {8, "TLA001",
         "`stop` \u2192 `operator<<` at proxy.cpp:13 \u2192 `describe()` at proxy.cpp:10 \u2192 "
         "`repr()`: a debug repr"},
        {12, "TLA001",
         "`stop.toString()` \u2192 `toString()` at proxy.cpp:11 \u2192 `describe()` at "
         "proxy.cpp:10 \u2192 `repr()`: a debug repr"},
        {22, "TLA003",
         "`number_text(alpha)` \u2192 `number_text()` at proxy.cpp:19: a double printed with %g "
         "does not round-trip"},
        {23, "TLA004",
         "`quoted(name)` \u2192 `quoted()` at proxy.cpp:22: `s` is printed inside a '...' Python "
         "string without escaping"}};
    REQUIRE(found.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(std::get<0>(found[i]) == std::get<0>(expected[i]));
      CHECK(std::get<1>(found[i]) == std::get<1>(expected[i]));
      CHECK_MESSAGE(std::get<2>(found[i]).find(std::get<2>(expected[i])) == 0,
                    std::get<2>(found[i]));
    }
  }
}

TEST_CASE("analyzer: a missing compile database or broken C++ is exit 2 with a clear error") {
  test::TempDir dir;
  test::write_file(dir.path + "/x.cpp", "void print_x() {}\n");
  auto no_db = test::tracelint("analyze -p '" + dir.path + "/nope' '" + dir.path + "/x.cpp'");
  CHECK(no_db.exit_code == 2);
  CHECK(no_db.err.find("compilation database") != std::string::npos);
  test::write_file(dir.path + "/broken.cpp", "void print_x( {\n");
  auto broken = test::tracelint("analyze '" + dir.path + "/broken.cpp' -- -std=c++17");
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("could not be compiled") != std::string::npos);
  auto help = test::tracelint("analyze --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--codegen-pattern") != std::string::npos);
}

TEST_CASE("analyzer: [tool.tracelint.analyzer] codegen-pattern, overridden by the flag") {
  test::TempDir dir;
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint.analyzer]\ncodegen-pattern = \"^render_\"\n");
  test::write_file(
      dir.path + "/p.cpp",
      "#include <ostream>\n"
      "void render_flag(std::ostream &os, bool b) { os << \"  f(\" << b << \")\\n\"; }\n"
      "void print_flag(std::ostream &os, bool b) { os << \"  f(\" << b << \")\\n\"; }\n");
  auto configured = test::tracelint("analyze --format json '" + dir.path + "/p.cpp' -- -std=c++17");
  CHECK(configured.exit_code == 1);
  auto doc = nlohmann::json::parse(configured.out);
  REQUIRE(doc["files"][0]["diagnostics"].size() == 1);
  CHECK(doc["files"][0]["diagnostics"][0]["span"]["start"]["line"] == 2); // render_flag only
  auto flag = test::tracelint("analyze --codegen-pattern '^print_' --format json '" + dir.path +
                              "/p.cpp' -- -std=c++17");
  auto doc2 = nlohmann::json::parse(flag.out);
  REQUIRE(doc2["files"][0]["diagnostics"].size() == 1);
  CHECK(doc2["files"][0]["diagnostics"][0]["span"]["start"]["line"] == 3);
}

TEST_CASE("analyzer: Clang is a module that only `tracelint analyze` loads") {
  // The executable does not link Clang, LLVM or libtorch: `check` starts small and fast.
  test::TempDir dir;
  std::string needed = dir.path + "/needed";
  REQUIRE(std::system(
              ("readelf -d '" + std::string(TRACELINT_BINARY) + "' > '" + needed + "'").c_str()) ==
          0);
  // The libraries it needs: the names in "Shared library: [libfoo.so.1]" lines.
  std::vector<std::string> libraries;
  std::istringstream dynamic(test::read_file(needed));
  for (std::string line; std::getline(dynamic, line);)
    if (std::size_t open = line.find("Shared library: ["); open != std::string::npos)
      libraries.push_back(line.substr(open + 17, line.find(']', open) - open - 17));
  std::string all;
  for (const std::string &l : libraries)
    all += l + " ";
  for (const std::string &l : libraries)
    // tree-sitter: the runtime the npm package vendors is compiled in, not Debian's 0.20.7.
    for (std::string heavy : {"clang", "LLVM", "torch", "c10", "tree-sitter"})
      CHECK_MESSAGE(l.find(heavy) == std::string::npos, heavy << " is linked: " << all);

  // A binary copied without its modules still checks traces, and says what analyze needs.
  std::filesystem::copy_file(TRACELINT_BINARY, dir.path + "/tracelint");
  test::write_file(dir.path + "/x.cpp", "void print_x() {}\n");
  test::write_file(dir.path + "/t.py", "def f(a):\n  return a\n");
  std::string alone = "'" + dir.path + "/tracelint' ";
  int check = std::system((alone + "check --isolated '" + dir.path + "/t.py' > /dev/null").c_str());
  CHECK(WEXITSTATUS(check) == 0);
  std::string err = dir.path + "/err";
  int analyze = std::system(
      (alone + "analyze '" + dir.path + "/x.cpp' -- -std=c++17 2> '" + err + "'").c_str());
  CHECK(WEXITSTATUS(analyze) == 2);
  CHECK_MESSAGE(test::read_file(err).find("tracelint analyze (Clang) needs "
                                          "libtracelint_analyzer.so, which is not installed") !=
                    std::string::npos,
                test::read_file(err));
}

TEST_CASE("analyzer: a compilation database's flags cannot write files, load code or read "
          "files outside the project") {
  // The database belongs to the repository analysed: any flag in it may be hostile.
  test::TempDir dir;
  const std::string project = dir.path + "/project", outside = dir.path + "/outside";
  std::filesystem::create_directories(project + "/build");
  std::filesystem::create_directories(outside);
  test::write_file(project + "/x.cpp", "int main() { return 0; }\n");
  test::write_file(outside + "/secret.txt", "the secret line\n");
  nlohmann::json command = {
      {"directory", project + "/build"},
      {"file", project + "/x.cpp"},
      {"arguments",
       {"clang++", "-std=c++17", "--serialize-diagnostics", project + "/written.dia", "-include",
        outside + "/secret.txt", "-Xclang", "-load", "-Xclang", outside + "/plugin.so",
        "-fplugin=" + outside + "/plugin2.so", "-c", project + "/x.cpp"}}};
  test::write_file(project + "/build/compile_commands.json",
                   nlohmann::json::array({command}).dump());
  auto r = test::tracelint("analyze --verbose -p '" + project + "/build' '" + project + "/x.cpp'");
  CHECK(r.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(project + "/written.dia"));
  CHECK(r.out.find("the secret line") == std::string::npos);
  CHECK(r.err.find("the secret line") == std::string::npos);
  for (const std::string &dropped :
       {"dropped `--serialize-diagnostics " + project + "/written.dia`",
        "dropped `-include " + outside +
            "/secret.txt` from the compilation database: it reads a file outside the project",
        "dropped `-Xclang -load -Xclang " + outside +
            "/plugin.so` from the compilation database: it loads code",
        "dropped `-fplugin=" + outside + "/plugin2.so`"})
    CHECK_MESSAGE(r.err.find(dropped) != std::string::npos, r.err);
  // Flags typed after `--` are the user's own: -include is kept (and fails on that file).
  auto typed = test::tracelint("analyze '" + project + "/x.cpp' -- -std=c++17 -include '" +
                               outside + "/secret.txt'");
  CHECK(typed.exit_code == 2);
}
