// Reliability (bad inputs and faults): input. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

const std::string kUndefined = "import thunder.torch as ltorch\n\ndef computation(a):\n"
                               "  t0 = ltorch.neg(nowhere)\n  return t0\n";
const std::string kClean =
    "import thunder.torch as ltorch\n\ndef computation(a):\n  t0 = ltorch.neg(a)\n  return t0\n";

std::string q(const std::string &s) {
  return "'" + s + "'";
}

// A hang ends here instead of holding the suite; exit 124 then says it hung.
const std::string kBounded = "timeout 60";

// Standard input from a device or a command: test::tracelint feeds stdin from a file, so a
// shell in the prefix replaces it. Outside sanitizer builds the address space is capped too,
// so that a regression that reads without end fails fast instead of filling the machine
// (ASan reserves terabytes of address space, so it cannot run under such a cap).
std::string stdin_from(const std::string &source) {
#if defined(__SANITIZE_ADDRESS__)
  const std::string cap;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  const std::string cap;
#else
  const std::string cap = "ulimit -v 2097152; ";
#endif
#else
  const std::string cap = "ulimit -v 2097152; ";
#endif
  return kBounded + " bash -c '" + cap + source + " | exec \"$0\" \"$@\"'";
}

// The temporary directory readable by the unprivileged user (mkdtemp makes it 0700).
void open_to_others(const std::string &dir) {
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
}

} // namespace

// Item 5: unbounded reads and hangs.

TEST_CASE("input: a named pipe with no writer is refused, not waited on") {
  test::TempDir dir;
  std::string pipe = dir.path + "/trace.py";
  REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
  auto given = test::tracelint("check --isolated " + q(pipe), "", kBounded);
  REQUIRE(given.exit_code != 124); // it hung: opened for a read that no writer would end
  CHECK(given.exit_code == 2);
  CHECK(given.out.find("trace.py: error: not a regular file (a named pipe)") != std::string::npos);

  // Found under a directory: the same error, not a hang and not a silent skip.
  test::write_file(dir.path + "/clean.py", kClean);
  auto scanned = test::tracelint("check --isolated " + q(dir.path), "", kBounded);
  REQUIRE(scanned.exit_code != 124);
  CHECK(scanned.exit_code == 2);
  CHECK(scanned.out.find("trace.py: error: not a regular file (a named pipe)") !=
        std::string::npos);

  auto print = test::tracelint("print " + q(pipe), "", kBounded);
  REQUIRE(print.exit_code != 124);
  CHECK(print.exit_code == 2);
  CHECK(print.err.find("not a regular file (a named pipe)") != std::string::npos);
}

TEST_CASE("input: /dev/zero and /dev/urandom are refused as paths and end at once on stdin") {
  for (const char *device : {"/dev/zero", "/dev/urandom"}) {
    CAPTURE(device);
    auto given = test::tracelint("check --isolated " + std::string(device), "", kBounded);
    REQUIRE(given.exit_code != 124);
    CHECK(given.exit_code == 2);
    CHECK(given.out.find("not a regular file (a character device)") != std::string::npos);

    // On stdin there is no type to refuse: the first block's NUL byte ends the read.
    auto in = test::tracelint("check --isolated -", "", stdin_from("cat " + std::string(device)));
    REQUIRE(in.exit_code != 124);
    CHECK(in.exit_code == 2);
    CHECK(in.out.find("-: error: binary file") != std::string::npos);
    CHECK(in.err.find("internal error") == std::string::npos); // not out of memory
  }
}

TEST_CASE("input: a file or stdin past --max-file-size is refused, never read whole") {
  test::TempDir dir;
  std::string path = dir.path + "/big.py";
  test::write_file(path, kClean + std::string(2048, '#') + "\n");
  auto small = test::tracelint("check --isolated --max-file-size 1KiB " + q(path));
  CHECK(small.exit_code == 2);
  CHECK(small.out.find("big.py: error: larger than 1024 bytes (--max-file-size)") !=
        std::string::npos);
  CHECK(test::tracelint("check --isolated --max-file-size 1MiB " + q(path)).exit_code == 0);
  CHECK(test::tracelint("check --isolated --max-file-size 0 " + q(path)).exit_code == 2);

  // The default cap, 64 MiB: a sparse file past it is refused from its size, unread.
  std::string sparse = dir.path + "/sparse.py";
  test::write_file(sparse, "");
  fs::resize_file(sparse, (64u << 20) + 1);
  auto huge = test::tracelint("check --isolated " + q(sparse), "", kBounded);
  CHECK(huge.exit_code == 2);
  CHECK(huge.out.find("sparse.py: error: larger than 64 MiB (--max-file-size)") !=
        std::string::npos);

  // Standard input has no size to read first: an endless text stream stops at the cap.
  auto endless = test::tracelint("check --isolated -", "", stdin_from("yes \"# a comment\""));
  REQUIRE(endless.exit_code != 124);
  CHECK(endless.exit_code == 2);
  CHECK(endless.out.find("-: error: larger than 64 MiB (--max-file-size)") != std::string::npos);
  CHECK(endless.err.find("internal error") == std::string::npos);
  auto capped = test::tracelint("check --isolated --max-file-size 100 -", kClean + kClean + kClean);
  CHECK(capped.exit_code == 2);
  CHECK(capped.out.find("larger than 100 bytes") != std::string::npos);
}

TEST_CASE("input: -j 4294967295 on one large file is checked, not a deadlock") {
  // Large enough to be parsed in statement chunks (over 16 KiB), with a finding near the end.
  std::string text = "import thunder.torch as ltorch\n\ndef computation(x):\n";
  const int statements = 3000;
  for (int i = 0; i < statements; ++i)
    text += "  t" + std::to_string(i) + " = ltorch.neg(" +
            (i == statements - 2 ? std::string("nowhere")
             : i                 ? "t" + std::to_string(i - 1)
                                 : "x") +
            ")\n";
  text += "  return t" + std::to_string(statements - 1) + "\n";
  test::TempDir dir;
  test::write_file(dir.path + "/large.py", text);
  for (const char *jobs : {"4294967295", "4294967294", "1000000"}) {
    CAPTURE(jobs);
    auto run = test::tracelint(
        "check --isolated -j " + std::string(jobs) + " " + q(dir.path + "/large.py"), "", kBounded);
    REQUIRE(run.exit_code != 124);
    CHECK(run.exit_code == 1);
    CHECK(run.out.find("`nowhere` is used but never defined") != std::string::npos);
  }
}

// Item 7: nothing skipped or switched off without a word.

TEST_CASE("input: an unreadable subdirectory is an error naming it, not a silent pass") {
  test::TempDir dir;
  open_to_others(dir.path);
  fs::create_directories(dir.path + "/tree/closed");
  open_to_others(dir.path + "/tree");
  test::write_file(dir.path + "/tree/clean.py", kClean);
  test::write_file(dir.path + "/tree/closed/bad.py", kUndefined);
  fs::permissions(dir.path + "/tree/closed", fs::perms::owner_all); // root's, 0700
  std::optional<test::Run> run =
      test::tracelint_as_nobody("check --isolated " + q(dir.path + "/tree"));
  if (!run) return;
  CHECK(run->exit_code == 2);
  CHECK(run->out.find("closed: error: cannot list directory: Permission denied") !=
        std::string::npos);
  std::optional<test::Run> json =
      test::tracelint_as_nobody("check --isolated --format json " + q(dir.path + "/tree"));
  REQUIRE(json);
  CHECK(json->out.find("tree/clean.py\"") != std::string::npos); // the rest is still checked
}

TEST_CASE("input: a deep tree under a low open-file limit is walked to the end") {
  // The walk held one descriptor per level: at ulimit -n 20 it ran out and ended silently,
  // passing with 1 of 4 files checked.
  test::TempDir dir;
  std::string at = dir.path + "/tree";
  for (int depth = 0; depth < 40; ++depth) {
    fs::create_directories(at);
    if (depth % 13 == 0)
      test::write_file(at + "/t" + std::to_string(depth) + ".py",
                       depth == 39 ? kUndefined : kClean);
    at += "/d";
  }
  fs::create_directories(at);
  test::write_file(at + "/deepest.py", kUndefined);
  auto run = test::tracelint("check --isolated -j 1 --format json " + q(dir.path + "/tree"), "",
                             "bash -c 'ulimit -n 20; exec \"$0\" \"$@\"'");
  CHECK(run.exit_code == 1);
  auto files = nlohmann::json::parse(run.out)["files"];
  CHECK(files.size() == 5);
  CHECK(run.out.find("deepest.py") != std::string::npos);
}

TEST_CASE("input: --select and --ignore with a code or prefix that names no rule are refused") {
  test::TempDir dir;
  std::string path = dir.path + "/bad.py";
  test::write_file(path, kUndefined);
  for (const char *flags : {"--select TL999", "--select TL05", "--select TL003,TL9",
                            "--ignore TL999", "--ignore XY", "--extend-select TL03"}) {
    CAPTURE(flags);
    auto run = test::tracelint("check --isolated " + std::string(flags) + " " + q(path));
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("unknown rule code or prefix") != std::string::npos);
  }
  // Codes and prefixes that exist still select, in any case.
  CHECK(test::tracelint("check --isolated --select TL0 " + q(path)).exit_code == 1);
  CHECK(test::tracelint("check --isolated --select tl003 " + q(path)).exit_code == 1);
  CHECK(test::tracelint("check --isolated --select tl005 " + q(path)).exit_code == 0);
  CHECK(test::tracelint("check --isolated --select ALL --ignore TL003 " + q(path)).exit_code == 0);
}

TEST_CASE("input: select or ignore in pyproject that names no rule is a configuration error") {
  test::TempDir dir;
  test::write_file(dir.path + "/bad.py", kUndefined);
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nselect = [\"TL999\"]\n");
  auto select = test::tracelint("check " + q(dir.path + "/bad.py"));
  CHECK(select.exit_code == 2);
  CHECK(select.err.find("pyproject.toml:2:11: [tool.tracelint] select: unknown rule code or "
                        "prefix 'TL999'") != std::string::npos);
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\nignore = [\"TL003\", \"TL05\"]\n");
  auto ignore = test::tracelint("check " + q(dir.path + "/bad.py"));
  CHECK(ignore.exit_code == 2);
  CHECK(ignore.err.find("[tool.tracelint] ignore: unknown rule code or prefix 'TL05'") !=
        std::string::npos);
}

// Built only where the build has the Python module (not in the sanitizer build).
#ifdef TRACELINT_PYTHON_MODULE
TEST_CASE("input: the Python module refuses select and ignore that name no rule") {
  fs::path module_dir = fs::path(TRACELINT_BINARY).parent_path() / "python";
  bool built = false;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(module_dir / "tracelint", ec))
    built |= entry.path().filename().string().rfind("_tracelint", 0) == 0;
  REQUIRE_MESSAGE(built,
                  "the build has the Python module but " << module_dir.string() << " holds none");
  test::TempDir dir;
  test::write_file(dir.path + "/probe.py",
                   "import tracelint\n"
                   "for kw in ({'select': ['XY1']}, {'select': ['TL999']}, {'ignore': ['TL05']}):\n"
                   "    try:\n"
                   "        tracelint.check('x = 1\\n', **kw)\n"
                   "        print('accepted', kw)\n"
                   "    except ValueError as e:\n"
                   "        print('ValueError:', e)\n"
                   "tracelint.check('x = 1\\n', select=['TL0'], ignore=['TL003'])\n"
                   "print('TL0 ok')\n");
  std::string out = dir.path + "/out";
  std::string command = "PYTHONPATH='" + module_dir.string() + "' /usr/bin/python3 '" + dir.path +
                        "/probe.py' > '" + out + "' 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  std::string printed = test::read_file(out);
  CAPTURE(printed);
  CHECK(printed.find("accepted") == std::string::npos);
  CHECK(printed.find("ValueError: select: unknown rule code or prefix 'XY1'") != std::string::npos);
  CHECK(printed.find("ValueError: ignore: unknown rule code or prefix 'TL05'") !=
        std::string::npos);
  CHECK(printed.find("TL0 ok") != std::string::npos);
}
#endif

TEST_CASE("input: a pyproject above the project root does not configure it") {
  // ignore = ["TL"] in /tmp or / turned every finding off; the search stops at the directory
  // holding .git, as ruff's does.
  test::TempDir dir;
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nignore = [\"TL\"]\n");
  fs::create_directories(dir.path + "/project/.git");
  fs::create_directories(dir.path + "/project/traces");
  test::write_file(dir.path + "/project/traces/bad.py", kUndefined);
  auto run = test::tracelint("check " + q(dir.path + "/project/traces/bad.py"));
  CHECK(run.exit_code == 1);
  CHECK(run.out.find("TL003") != std::string::npos);

  // One at the project root still applies, and --show-settings says which was used.
  test::write_file(dir.path + "/project/pyproject.toml",
                   "[tool.tracelint]\nignore = [\"TL003\"]\nfail-on = \"warning\"\n");
  CHECK(test::tracelint("check " + q(dir.path + "/project/traces/bad.py")).exit_code == 0);
  auto shown = test::tracelint("check --show-settings " + q(dir.path + "/project/traces/bad.py"));
  CHECK(shown.exit_code == 0);
  CHECK(shown.out.find("config file: " + dir.path + "/project/pyproject.toml\n") !=
        std::string::npos);
  std::string config = dir.path + "/project/pyproject.toml";
  CHECK(shown.out.find("ignore: TL003 [" + config + ":2:10]\n") != std::string::npos);
  CHECK(shown.out.find("fail-on: warning [" + config + ":3:11]\n") != std::string::npos);
  CHECK(shown.out.find("error[TL003]") == std::string::npos); // nothing was checked
  auto none = test::tracelint("check --isolated --show-settings --select TL0 " +
                              q(dir.path + "/project/traces"));
  CHECK(none.exit_code == 0);
  CHECK(none.out.find("config file: none (--isolated)\n") != std::string::npos);
  CHECK(none.out.find("select: TL0 (replaces the configuration's) [--select]\n") !=
        std::string::npos);
  fs::remove(dir.path + "/project/pyproject.toml");
  auto without = test::tracelint("check --show-settings " + q(dir.path + "/project/traces"));
  CHECK(without.exit_code == 0);
  CHECK(without.out.find("config file: none (no .tracelint.toml, tracelint.toml or pyproject.toml "
                         "with [tool.tracelint] up to the project root)") != std::string::npos);
}

// Item 8d: a scan reads nothing outside the tree it was given.

TEST_CASE("input: a directory scan does not follow symbolic links out of the tree") {
  test::TempDir outside, dir;
  test::write_file(outside.path + "/shadow", "root:SECRET-HASH:19000:0:99999:7:::\n");
  fs::create_directories(dir.path + "/tree/a");
  test::write_file(dir.path + "/tree/a/clean.py", kClean);
  fs::create_symlink(outside.path + "/shadow", dir.path + "/tree/a/shadow.py");
  fs::create_symlink(outside.path, dir.path + "/tree/elsewhere");
  fs::create_symlink(dir.path + "/tree/a/clean.py", dir.path + "/tree/inside.py");
  auto run = test::tracelint("check --isolated " + q(dir.path + "/tree"));
  CHECK(run.exit_code == 2);
  CHECK(run.out.find("SECRET") == std::string::npos);
  CHECK(run.out.find("shadow.py: error: symbolic link to " + outside.path + "/shadow, outside ") !=
        std::string::npos);
  CHECK(run.out.find("not followed (--follow-links checks it)") != std::string::npos);
  CHECK(run.out.find("elsewhere: error: symbolic link to " + outside.path) != std::string::npos);
  CHECK(run.out.find("inside.py: error") == std::string::npos); // a link within the tree is fine

  // Asked for, the link is read (and its text is no trace: a finding).
  auto followed = test::tracelint("check --isolated --follow-links " + q(dir.path + "/tree"));
  CHECK(followed.exit_code == 1);
  CHECK(followed.out.find("shadow.py:1:") != std::string::npos);
  // A file named on the command line is the user's choice: read through its link.
  CHECK(test::tracelint("check --isolated " + q(dir.path + "/tree/a/shadow.py")).exit_code == 1);
}

// Item 10: a link loop said as one.

TEST_CASE("input: a symbolic link loop is reported as a loop, not as a broken link") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/tree");
  fs::create_symlink(dir.path + "/tree/loop.py", dir.path + "/tree/loop.py");
  fs::create_symlink(dir.path + "/tree/b.py", dir.path + "/tree/a.py");
  fs::create_symlink(dir.path + "/tree/a.py", dir.path + "/tree/b.py");
  auto given = test::tracelint("check --isolated " + q(dir.path + "/tree/loop.py"));
  CHECK(given.exit_code == 2);
  CHECK(given.out.find("loop.py: error: symbolic link loop") != std::string::npos);
  auto scanned = test::tracelint("check --isolated " + q(dir.path + "/tree"), "", kBounded);
  CHECK(scanned.exit_code == 2);
  CHECK(scanned.out.find("a.py: error: symbolic link loop") != std::string::npos);
  CHECK(scanned.out.find("b.py: error: symbolic link loop") != std::string::npos);
  // A link to nowhere is still a broken link.
  fs::create_symlink(dir.path + "/gone.py", dir.path + "/tree/dangling.py");
  auto dangling = test::tracelint("check --isolated " + q(dir.path + "/tree/dangling.py"));
  CHECK(dangling.out.find("dangling.py: error: broken symbolic link") != std::string::npos);
}
