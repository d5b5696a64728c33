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

namespace {
std::vector<test::Expectation> expectations(const std::string &text) {
  return test::parse_expectations(text, R"(^\s*// expect: (TLA\d{3})@(\d+): (.*)$)");
}
} // namespace

TEST_CASE("analyzer fixtures: exactly the expected diagnostics") {
  std::string dir = std::string(TRACELINT_SOURCE_DIR) + "/analyzer/fixtures";
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".cpp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 3);
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
