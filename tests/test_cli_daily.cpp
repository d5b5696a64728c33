// Daily use as ruff users expect it (issue 35): typos answered with the closest name, `check`
// with no path checks the current directory, a configuration error said once, force-exclude,
// report polish.
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
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
