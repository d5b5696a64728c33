// Reliability round 4 (issue 34), what the tool writes: `trace -o` never replaces what is not
// a regular file, names from outside never become code in a printed trace, and control
// characters never reach the terminal or a CI log raw.
#include "support.hpp"

#include "tracelint/core/escape.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace {

const std::string kFunction = "def f(a):\n    return a + 1\n";

std::string q(const std::string &s) {
  return test::shell_quote(s);
}

} // namespace

TEST_CASE("reliability output: trace -o writes into a FIFO in place, and refuses a symbolic link "
          "or a folder") {
  test::TempDir dir;
  const std::string f = dir.path + "/f.py";
  test::write_file(f, kFunction);
  // A FIFO, with a reader: written to, and still a FIFO after.
  const std::string fifo = dir.path + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string got = dir.path + "/got";
  auto r = test::tracelint("trace " + q(f) + " -f f -a 'a=f32[2]' -o " + q(fifo), "",
                           "cat " + q(fifo) + " > " + q(got) + " & timeout 60");
  CHECK(r.exit_code == 0);
  // The reader got the trace. cat ends once tracelint closes the FIFO, but the shell does not
  // wait for it: under load its last write may land after tracelint's exit.
  std::string received;
  for (int tries = 0; tries < 100; ++tries) {
    received = test::read_file(got);
    if (received.find("def computation(") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK_MESSAGE(received.find("def computation(") != std::string::npos, received);
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  // A symbolic link: refused, the link and its target as they were.
  const std::string target = dir.path + "/target.py", link = dir.path + "/link.py";
  test::write_file(target, "precious\n");
  fs::create_symlink(target, link);
  r = test::tracelint("trace " + q(f) + " -f f -a 'a=f32[2]' -o " + q(link));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is a symbolic link") != std::string::npos);
  CHECK(fs::is_symlink(link));
  CHECK(test::read_file(target) == "precious\n");
  r = test::tracelint("trace " + q(f) + " -f f -a 'a=f32[2]' -o " + q(dir.path));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("it is a directory") != std::string::npos);
}

TEST_CASE("reliability output: a character device given to trace -o stays the device") {
  // mknod needs root (CAP_MKNOD): the row's own reproduction, /dev/null's twin.
  test::TempDir dir;
  const std::string null = dir.path + "/null";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    test::skip_test("mknod needs root: a character device cannot be made here");
    return;
  }
  test::write_file(dir.path + "/f.py", kFunction);
  auto r = test::tracelint("trace " + q(dir.path + "/f.py") + " -f f -a 'a=f32[2]' -o " + q(null));
  CHECK(r.exit_code == 0);
  struct stat st {};
  REQUIRE(::lstat(null.c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("reliability output: a file name never becomes code in the printed trace") {
  // The provenance comment quotes the path and the source line: a newline, a carriage return,
  // quotes, backslashes, NUL (in the line) and bytes that are not UTF-8 stay inside it.
  test::TempDir dir;
  for (const std::string &name :
       {std::string("m\n  __import__(\"os\").system(\"id\")\n  #.py"), std::string("c\rx = 1.py"),
        std::string("q'\"\\\\.py"), std::string("lat\xe9.py")}) {
    CAPTURE(name);
    const std::string path = dir.path + "/" + name;
    test::write_file(path, kFunction);
    auto r = test::tracelint("trace " + q(path) + " -f f -a 'a=f32[2]'");
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("internal error") == std::string::npos);
    CHECK(r.out.find("\n  __import__") == std::string::npos);
    CHECK(r.out.find("\rx = 1") == std::string::npos);
    tracelint::Result<tracelint::TraceFile> parsed = tracelint::parse_trace(r.out);
    REQUIRE(parsed.ok());
    CHECK(tracelint::check_source("t.py", r.out, tracelint::Options{}).diagnostics.empty());
    CHECK_FALSE(tracelint::first_invalid_utf8(r.out).has_value());
  }
}

TEST_CASE("reliability output: the one escaping functions keep valid text and escape the rest") {
  using tracelint::one_line_comment;
  using tracelint::printable;
  CHECK(one_line_comment("# a.py:3: x = 'é'\t# y") == "# a.py:3: x = 'é'\t# y");
  CHECK(one_line_comment("a\nb\rc") == "a\\nb\\rc");
  CHECK(one_line_comment(std::string("a\0b\xff", 4)) == "a\\x00b\\xff");
  CHECK(printable("b\n::error file=evil.py,line=1::INJECTED") ==
        "b\\n::error file=evil.py,line=1::INJECTED");
  CHECK(printable("\x1b[31mred\x7f\xc2\x9b") == "\\x1b[31mred\\x7f\\x9b");
  CHECK(printable("tab\there") == "tab\\there");
  CHECK(printable("tab\there", true) == "tab\there");
  CHECK(printable("naïve/\\path") == "naïve/\\path");
}

TEST_CASE(
    "reliability output: control characters in file names and lines are escaped in every human "
    "format") {
  test::TempDir dir;
  const std::string name = "b\n::error file=evil.py,line=1::INJECTED\x1b[2J.py";
  const std::string path = dir.path + "/" + name;
  test::write_file(path, "import torch\n\ndef computation(x):\n  return \x1b[2J y\n");
  for (const char *format : {"full", "concise", "grouped"}) {
    CAPTURE(format);
    auto r =
        test::tracelint("check --isolated --output-format " + std::string(format) + " " + q(path));
    CHECK(r.exit_code == 1);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find("\n::error") == std::string::npos);
    CHECK(r.out.rfind("::error", 0) != 0);
    CHECK(r.out.find("b\\n::error file=evil.py") != std::string::npos);
  }
}
