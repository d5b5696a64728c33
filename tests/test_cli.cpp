// The tracelint command line, run as a user would: exit codes, formats, --fix, config.
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace {
const std::string kClean = "import thunder.torch as ltorch\n\ndef computation(a, b):\n"
                           "  t0 = ltorch.add(a, b)\n  return t0\n";
const std::string kLeak =
    "import thunder.torch as ltorch\n\ndef computation(a, i10):\n"
    "  t0 = ltorch.getitem(a, (..., slice(None, [IntegerProxy name=i10, value=1], None)))\n"
    "  return t0\n";
std::string q(const std::string &s) {
  return "'" + s + "'";
}
} // namespace

TEST_CASE("cli: exit codes 0 clean, 1 findings, 2 usage or I/O error") {
  test::TempDir dir;
  test::write_file(dir.path + "/clean.py", kClean);
  test::write_file(dir.path + "/leak.py", kLeak);
  auto clean = test::tracelint("check --isolated " + q(dir.path + "/clean.py"));
  CHECK(clean.exit_code == 0);
  CHECK(clean.out.find("All checks passed (1 file).") != std::string::npos);
  auto leak = test::tracelint("check --isolated " + q(dir.path + "/leak.py"));
  CHECK(leak.exit_code == 1);
  CHECK(leak.out.find("leak.py:4:44: error[TL002]") != std::string::npos);
  CHECK(test::tracelint("check --isolated --exit-zero " + q(dir.path + "/leak.py")).exit_code == 0);
  auto missing = test::tracelint("check --isolated " + q(dir.path + "/nope.py"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("nope.py: error: no such file or directory") != std::string::npos);
  CHECK(test::tracelint("check --format yaml " + q(dir.path)).exit_code == 2);
  CHECK(test::tracelint("check --select XY1 " + q(dir.path)).exit_code == 2);
  CHECK(test::tracelint("frobnicate").exit_code == 2);
  CHECK(test::tracelint("check").exit_code == 2);
  auto help = test::tracelint("check --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--fail-on") != std::string::npos);
}

TEST_CASE("cli: directories, stdin, binary files, broken links, warnings and --fail-on") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/traces/sub");
  test::write_file(dir.path + "/traces/b.py", kClean);
  test::write_file(dir.path + "/traces/sub/a.py", kLeak);
  test::write_file(dir.path + "/traces/notes.txt", "not a trace");
  auto tree = test::tracelint("check --isolated --format json " + q(dir.path + "/traces"));
  CHECK(tree.exit_code == 1);
  auto doc = nlohmann::json::parse(tree.out);
  REQUIRE(doc["files"].size() == 2);
  CHECK(doc["files"][0]["path"].get<std::string>().find("traces/b.py") != std::string::npos);
  CHECK(doc["files"][1]["path"].get<std::string>().find("traces/sub/a.py") != std::string::npos);

  auto in = test::tracelint("check --isolated --stdin-filename trace.py -", kLeak);
  CHECK(in.exit_code == 1);
  CHECK(in.out.find("trace.py:4:44: error[TL002]") != std::string::npos);

  test::write_file(dir.path + "/binary.py", std::string("\x7f"
                                                        "ELF\0\0\x01",
                                                        7));
  auto binary = test::tracelint("check --isolated " + q(dir.path + "/binary.py"));
  CHECK(binary.exit_code == 2);
  CHECK(binary.out.find("binary file") != std::string::npos);

  fs::create_symlink(dir.path + "/gone.py", dir.path + "/link.py");
  auto link = test::tracelint("check --isolated " + q(dir.path + "/link.py"));
  CHECK(link.exit_code == 2);
  CHECK(link.out.find("broken symbolic link") != std::string::npos);

  std::string warn_only = "def computation(a):\n  t0 = customOp0(a)\n  return t0\n";
  test::write_file(dir.path + "/warn.py", warn_only);
  CHECK(test::tracelint("check --isolated " + q(dir.path + "/warn.py")).exit_code == 0);
  CHECK(
      test::tracelint("check --isolated --fail-on warning " + q(dir.path + "/warn.py")).exit_code ==
      1);
  CHECK(test::tracelint("check --isolated --context-name customOp0 --fail-on warning " +
                        q(dir.path + "/warn.py"))
            .exit_code == 0);
}

TEST_CASE("cli: --fix rewrites atomically and keeps the mode, --diff writes nothing") {
  test::TempDir dir;
  std::string path = dir.path + "/leak.py";
  test::write_file(path, kLeak);
  ::chmod(path.c_str(), 0640);
  auto diff = test::tracelint("check --isolated --diff " + q(path));
  CHECK(diff.out.find("-  t0 = ltorch.getitem(a, (..., slice(None, [IntegerProxy") !=
        std::string::npos);
  CHECK(diff.out.find("+  t0 = ltorch.getitem(a, (..., slice(None, i10, None)))") !=
        std::string::npos);
  CHECK(test::read_file(path) == kLeak);

  auto fixed = test::tracelint("check --isolated --fix " + q(path));
  CHECK(fixed.exit_code == 0); // nothing left after the fix
  CHECK(fixed.err.find("applied 1 fix") != std::string::npos);
  CHECK(test::read_file(path).find("slice(None, i10, None)") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  std::size_t leftovers = 0;
  for (const auto &e : fs::directory_iterator(dir.path))
    leftovers += e.path().filename().string().find(".tracelint-") != std::string::npos;
  CHECK(leftovers == 0);
}

TEST_CASE("cli: pyproject.toml [tool.tracelint] found by walking up, flags win") {
  test::TempDir dir;
  fs::create_directories(dir.path + "/pkg/traces");
  test::write_file(dir.path + "/pyproject.toml",
                   "[project]\nname = \"x\"\n\n[tool.tracelint]\nignore = [\"TL003\"]\n"
                   "context-names = [\"customOp0\"]\nfail-on = \"warning\"\n\n"
                   "[tool.tracelint.severity]\nTL005 = \"warning\"\n");
  std::string trace = "def computation(a):\n  t0 = customOp0(a, t9)\n  del a\n"
                      "  t1 = customOp0(a)\n  return t1\n";
  std::string path = dir.path + "/pkg/traces/t.py";
  test::write_file(path, trace);
  auto r = test::tracelint("check --format json " + q(path));
  auto doc = nlohmann::json::parse(r.out);
  auto &diags = doc["files"][0]["diagnostics"];
  REQUIRE(diags.size() == 1); // TL003 ignored, customOp0 declared
  CHECK(diags[0]["code"] == "TL005");
  CHECK(diags[0]["severity"] == "warning");
  CHECK(r.exit_code == 1); // fail-on = "warning"
  CHECK(test::tracelint("check --isolated --format json " + q(path)).out.find("TL003") !=
        std::string::npos);

  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\nfail-on = \"sometimes\"\n");
  auto bad = test::tracelint("check " + q(path));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("pyproject.toml:2:") != std::string::npos);
  CHECK(bad.err.find("fail-on must be") != std::string::npos);
}

TEST_CASE("cli: rules, explain, print, and the seed trace passes check") {
  auto rules = test::tracelint("rules");
  CHECK(rules.exit_code == 0);
  CHECK(rules.out.find("TL006   unflattened-collection") != std::string::npos);
  auto markdown = test::tracelint("rules --format markdown");
  CHECK(markdown.out == test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/docs/rules.md"));
  auto explain = test::tracelint("explain tl003");
  CHECK(explain.exit_code == 0);
  CHECK(explain.out.find("TL003 undefined-name (error)") == 0);
  CHECK(explain.out.find("Bad:") != std::string::npos);
  CHECK(test::tracelint("explain TL999").exit_code == 2);

  test::TempDir dir;
  std::string seed = dir.path + "/seed.py";
  REQUIRE(std::system((std::string("'") + TRACELINT_SEED_TRACE + "' > '" + seed + "'").c_str()) ==
          0);
  std::string text = test::read_file(seed);
  CHECK(text.find("t37 = ltorch.getitem(a, (..., slice(None, i10, None)))") != std::string::npos);
  auto check = test::tracelint("check --isolated --fail-on info " + q(seed));
  CHECK_MESSAGE(check.exit_code == 0, check.out);
  auto printed = test::tracelint("print " + q(seed));
  CHECK(printed.exit_code == 0);
  CHECK(printed.out == text);
  test::write_file(dir.path + "/op.py", "def f(a):\n  t0 = a + 1\n  return t0\n");
  auto unmodelled = test::tracelint("print " + q(dir.path + "/op.py"));
  CHECK(unmodelled.exit_code == 1);
  CHECK(unmodelled.err.find("op.py:2:8: cannot model the trace") != std::string::npos);
}

TEST_CASE("cli: awkward input gets a clear diagnostic, never a crash") {
  test::TempDir dir;
  auto check = [&](const std::string &name, const std::string &text) {
    test::write_file(dir.path + "/" + name, text);
    return test::tracelint("check --isolated --format json " + q(dir.path + "/" + name));
  };
  std::string body = "import torch\n\ndef f(a):\n  t0 = torch.exp(a)\n  return t0\n";
  std::string crlf;
  for (char c : body)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(check("crlf.py", crlf).exit_code == 0);
  CHECK(check("bom.py", "\xEF\xBB\xBF" + body).exit_code == 0);
  CHECK(
      check("tabs.py", "import torch\n\ndef f(a):\n\tt0 = torch.exp(a)\n\treturn t0\n").exit_code ==
      0);
  CHECK(check("empty.py", "").exit_code == 0);

  auto utf8 = check("utf8.py", "def f(a):\n  t0 = g(a, '\xff')\n  return t0\n");
  CHECK(utf8.exit_code == 1);
  CHECK(utf8.out.find("invalid UTF-8 byte 0xff") != std::string::npos);
  CHECK(nlohmann::json::parse(utf8.out)["files"][0]["diagnostics"].size() == 2);

  auto deep = check("deep.py", "def f(a):\n  t0 = g(" + std::string(100000, '(') +
                                   std::string(100000, ')') + ")\n  return t0\n");
  CHECK(deep.exit_code == 1); // CPython refuses brackets nested past 200 levels
  CHECK(deep.out.find("too many nested parentheses") != std::string::npos);

  // A long line is shown as a window around the span.
  std::string many;
  for (int i = 0; i < 100; ++i)
    many += "a, ";
  std::string wide = "def f(a):\n  t0 = g(" + many + "t9, " + many + "a)\n  return t0\n";
  test::write_file(dir.path + "/wide.py", wide);
  auto text = test::tracelint("check --isolated " + q(dir.path + "/wide.py"));
  CHECK(text.out.find("`t9` is used but never defined") != std::string::npos);
  CHECK(text.out.find("| ... a, a, ") != std::string::npos);
  CHECK(text.out.find("a, a,...\n") != std::string::npos);
  for (std::size_t at = 0, nl; (nl = text.out.find('\n', at)) != std::string::npos; at = nl + 1)
    CHECK(nl - at < 260);
}

TEST_CASE(
    "cli: an unreadable file is exit 2, and --fix leaves a file it cannot replace untouched") {
  // Root reads everything: these run the binary as the unprivileged user 65534.
  test::TempDir dir;
  fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
  test::write_file(dir.path + "/secret.py", kClean);
  fs::permissions(dir.path + "/secret.py", fs::perms::none);
  std::optional<test::Run> unreadable =
      test::tracelint_as_nobody("check --isolated '" + dir.path + "/secret.py'");
  if (!unreadable) return;
  CHECK(unreadable->exit_code == 2);
  CHECK(unreadable->out.find("secret.py: error: cannot open: Permission denied") !=
        std::string::npos);

  // Readable, but its directory is not writable: the fix cannot be written, nothing is lost.
  // The file is that user's (--fix leaves other users' files alone without --force).
  test::write_file(dir.path + "/leak.py", kLeak);
  fs::permissions(dir.path + "/leak.py", fs::perms::owner_all | fs::perms::others_read);
  REQUIRE(::chown((dir.path + "/leak.py").c_str(), 65534, 65534) == 0);
  std::optional<test::Run> fix =
      test::tracelint_as_nobody("check --isolated --fix '" + dir.path + "/leak.py'");
  REQUIRE(fix);
  CHECK(fix->exit_code == 2);
  CHECK(fix->err.find("cannot create a temporary file") != std::string::npos);
  CHECK(test::read_file(dir.path + "/leak.py") == kLeak);
  std::vector<std::string> left;
  for (const auto &entry : fs::directory_iterator(dir.path))
    left.push_back(entry.path().filename().string());
  CHECK(left.size() == 2); // no temporary file left behind
}

TEST_CASE("cli: a 1M-line trace is checked to the end, its finding on the right line") {
#if defined(__SANITIZE_ADDRESS__)
  const int lines = 100000; // ten times slower under ASan: the same shape, smaller
  MESSAGE("sanitizer build: a " << lines << "-line trace instead of 1M lines");
#else
  const int lines = 1000000;
#endif
  test::TempDir dir;
  std::string text = "import thunder.torch as ltorch\n\ndef computation(x):\n";
  text.reserve(static_cast<std::size_t>(lines) * 40);
  const int statements = lines - 4; // the import, the blank, the def, the return
  const int undefined_at = statements - 10;
  for (int i = 0; i < statements; ++i) {
    std::string in = i ? "t" + std::to_string(i - 1) : "x";
    if (i == undefined_at) in = "nowhere";
    text += "  t" + std::to_string(i) + " = ltorch.neg(" + in + ")\n";
  }
  text += "  return t" + std::to_string(statements - 1) + "\n";
  test::write_file(dir.path + "/huge.py", text);
  text.clear();
  text.shrink_to_fit();
  auto run = test::tracelint("check --isolated --format json " + q(dir.path + "/huge.py"));
  REQUIRE(run.exit_code == 1);
  auto diagnostics = nlohmann::json::parse(run.out)["files"][0]["diagnostics"];
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0]["code"] == "TL003");
  CHECK(diagnostics[0]["span"]["start"]["line"] == 3 + undefined_at + 1);
  CHECK(diagnostics[0]["message"] == "`nowhere` is used but never defined");
}

TEST_CASE("cli: a file deleted during the run is an I/O error, the others are still checked") {
  // Standard input comes first, from a named pipe: once the run has read past what the pipe
  // holds, it is reading inputs, and the next file is deleted before the pipe is closed.
  // (A named pipe given as a path is refused: tests/test_reliability_input.cpp.)
  test::TempDir dir;
  std::string pipe = dir.path + "/stdin.fifo", second = dir.path + "/second.py";
  REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
  test::write_file(second, kClean);
  std::thread writer([&] {
    std::FILE *to = std::fopen(pipe.c_str(), "w"); // blocks until the shell opens it
    REQUIRE(to != nullptr);
    std::string comments(256 * 1024, '#');
    for (std::size_t at = 79; at < comments.size(); at += 80)
      comments[at] = '\n';
    comments += "\n";
    std::fwrite(comments.data(), 1, comments.size(), to); // more than a pipe holds
    std::fflush(to);
    fs::remove(second);
    std::fputs(kLeak.c_str(), to);
    std::fclose(to);
  });
  auto run = test::tracelint("check --isolated -j 1 --format json - " + q(second), "",
                             "timeout 60 bash -c 'exec \"$0\" \"$@\" < \"" + pipe + "\"'");
  writer.join();
  REQUIRE(run.exit_code != 124);
  CHECK(run.exit_code == 2);
  auto files = nlohmann::json::parse(run.out)["files"];
  REQUIRE(files.size() == 2);
  CHECK(files[0]["diagnostics"].size() == 1); // the pipe's text was read to its end
  CHECK(files[0]["diagnostics"][0]["code"] == "TL002");
  CHECK(files[1]["error"].get<std::string>().find("cannot open: No such file or directory") !=
        std::string::npos);
}

TEST_CASE("cli: a decorated class (a dataclass of ordinary Python) is read, not a crash") {
  // The trace parser took every decorated definition for a def and read a class's parameters
  // (none): `tracelint check` of the repository's tests/tracer/ops_cases.py crashed.
  test::TempDir dir;
  test::write_file(dir.path + "/d.py", "from dataclasses import dataclass\n\n@dataclass\n"
                                       "class Scale:\n    x: int = 1\n\n\ndef f(s):\n"
                                       "    return s.x\n");
  auto checked = test::tracelint("check --isolated " + q(dir.path + "/d.py"));
  CHECK(checked.exit_code == 0);
  CHECK(checked.out.find("All checks passed (1 file).") != std::string::npos);
  auto printed = test::tracelint("print " + q(dir.path + "/d.py"));
  CHECK(printed.exit_code == 1); // not a trace it can model: said, with where
  CHECK(printed.err.find("a decorated_definition is not a trace statement") != std::string::npos);
}
