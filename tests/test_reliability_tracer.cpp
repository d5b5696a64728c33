// Reliability (bad inputs and faults): tracer. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

std::string q(const std::string &s) {
  return "'" + s + "'";
}

// Runs `tracelint ARGS` with a bound on its time: a hang fails the test instead of stalling it.
test::Run bounded(const std::string &args) {
  test::Run r = test::tracelint(args, "", "timeout 60");
  CHECK_MESSAGE(r.exit_code != 124, "timed out: tracelint " << args.substr(0, 200));
  return r;
}

std::size_t count(const std::string &text, const std::string &part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

} // namespace

// ---- Item 2: no stack overflow on long or deeply nested input

TEST_CASE("tracer reliability: a 5000-term chain x + 1 + 1 ... traces, as CPython runs it") {
  test::TempDir dir;
  std::string sum = "x";
  for (int i = 0; i < 5000; ++i)
    sum += " + 1";
  test::write_file(dir.path + "/f.py", "def f(x):\n    return " + sum + "\n");
  test::Run r = bounded("trace --no-provenance " + q(dir.path + "/f.py") + " -f f -a x=f32[2]");
  CHECK(r.exit_code == 0);
  CHECK(count(r.out, "ltorch.add(") == 5000);
  // and/or chains are read the same way, left to right.
  std::string any = "0";
  for (int i = 0; i < 5000; ++i)
    any += i % 2 ? " or 0" : " and 1";
  test::write_file(dir.path + "/g.py", "def g(x):\n    return x * (" + any + " or 3)\n");
  test::Run g = bounded("trace --no-provenance " + q(dir.path + "/g.py") + " -f g -a x=f32[2]");
  CHECK(g.exit_code == 0);
  CHECK(g.out.find("ltorch.mul(x, 3)") != std::string::npos);
}

TEST_CASE("tracer reliability: 5000 nested parentheses are refused at their place, naming the "
          "limit") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return " + std::string(5000, '(') + "x" +
                                           std::string(5000, ')') + "\n");
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2]");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("f.py:2:") != std::string::npos);
  CHECK(r.err.find("too many nested parentheses") != std::string::npos);
  CHECK(r.err.find("200") != std::string::npos);
  // Under the limit it traces.
  test::write_file(dir.path + "/g.py", "def g(x):\n    return " + std::string(150, '(') + "x" +
                                           std::string(150, ')') + " + 1\n");
  CHECK(bounded("trace " + q(dir.path + "/g.py") + " -f g -a x=f32[2]").exit_code == 0);
}

TEST_CASE("tracer reliability: an if with 7000 elif clauses traces the one taken") {
  test::TempDir dir;
  std::string text = "def f(x, n):\n    if n == 0:\n        y = x\n";
  for (int i = 1; i < 7000; ++i)
    text += "    elif n == " + std::to_string(i) + ":\n        y = x + " + std::to_string(i) + "\n";
  text += "    else:\n        y = x\n    return y\n";
  test::write_file(dir.path + "/f.py", text);
  test::Run r = bounded("trace --no-provenance --cache constant-values " + q(dir.path + "/f.py") +
                        " -f f -a x=f32[2] -a n=6999");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ltorch.add(x, 6999, alpha=1)") != std::string::npos);
}

TEST_CASE("tracer reliability: a tensor spec of 20000 dims is a usage error, not a crash") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return x\n");
  std::string dims = "1";
  for (int i = 1; i < 20000; ++i)
    dims += ",1";
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[" + dims + "]");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("too many dims (at most 64)") != std::string::npos);
  CHECK(r.err.size() < 400); // the spec is cut in the message
}

// ---- Item 8c: no silent wrong trace from a numeric conversion; no silent empty --arg

TEST_CASE("tracer reliability: int() of a float outside int64 is an error at its place") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return x + int(1e300)\n\n"
                                       "def h(x):\n    return x + int(-2.5e18) + 1 ** 10**18\n");
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2]");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("f.py:2:16: error: int(1e+300) is outside the 64-bit integer range") !=
        std::string::npos);
  CHECK(r.out.empty());
  // In range it converts as Python does (and a huge power of 1 takes no time).
  test::Run h = bounded("trace --no-provenance " + q(dir.path + "/f.py") + " -f h -a x=f32[2]");
  CHECK(h.exit_code == 0);
  CHECK(h.out.find("ltorch.add(x, -2500000000000000000, alpha=1)") != std::string::npos);
}

TEST_CASE("tracer reliability: an empty --arg value is a usage error naming the argument") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return x\n");
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--arg x=: the value is empty") != std::string::npos);
  CHECK(r.out.empty());
}

// ---- Item 8d: the source's size is bounded

TEST_CASE("tracer reliability: a file over --max-file-size is refused before it is read") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return x\n" + std::string(2048, '#') + "\n");
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2] --max-file-size 1K");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("f.py: error: the file is 2.0 KiB, over --max-file-size (1.0 KiB)") !=
        std::string::npos);
  // The default cap is 64 MiB.
  test::write_file(dir.path + "/big.py",
                   "def f(x):\n    return x\n" + std::string((64u << 20) + 1, '#') + "\n");
  test::Run big = bounded("run " + q(dir.path + "/big.py") + " -f f -a x=f32[2]");
  CHECK(big.exit_code == 2);
  CHECK(big.err.find("over --max-file-size (64.0 MiB)") != std::string::npos);
  // The same from a pipe, which has no size to check first.
  test::Run piped = test::tracelint("trace - -f f -a x=f32[2] --max-file-size 1K",
                                    test::read_file(dir.path + "/f.py"), "timeout 60");
  CHECK(piped.exit_code == 2);
  CHECK(piped.err.find("over --max-file-size") != std::string::npos);
}

// ---- Item 9: a run's memory is estimated and bounded before anything is allocated

TEST_CASE("tracer reliability: --run over --max-memory is refused with the estimate, before "
          "allocating") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    y = x * 2\n    return y + 1\n");
  // 4 MB of input: an estimate of several times that, over 1 MiB.
  test::Run r =
      bounded("run " + q(dir.path + "/f.py") + " -f f -a x=f32[1000,1000] --max-memory 1M");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: running the traces would need about") != std::string::npos);
  CHECK(r.err.find("(inputs 3.8 MiB,") != std::string::npos);
  CHECK(r.err.find("over the limit of 1.0 MiB (--max-memory)") != std::string::npos);
  CHECK(r.out.empty());
  // A spec far beyond any machine, with the default limit (half of physical memory): refused
  // at once rather than allocated.
  test::Run huge =
      bounded("trace --run " + q(dir.path + "/f.py") + " -f f -a x=f32[100000000,100000000]");
  CHECK(huge.exit_code == 2);
  CHECK(huge.err.find("would need about") != std::string::npos);
  // Under the limit it runs.
  test::Run small =
      bounded("run " + q(dir.path + "/f.py") + " -f f -a x=f32[4,4] --max-memory 256M");
  CHECK(small.exit_code == 0);
  CHECK(small.out.find("(as traced): matches eager") != std::string::npos);
}

// ---- Item 10: messages name the real place and reason, and stay short

TEST_CASE("tracer reliability: blocks nested past the parser's indentation limit name the line "
          "and the limit") {
  test::TempDir dir;
  std::string text = "def foo(a):\n";
  for (int depth = 1; depth <= 64; ++depth)
    text += std::string(4 * depth, ' ') + "if a.ndim > 0:\n";
  text += std::string(4 * 65, ' ') + "a = a + 1\n    return a\n";
  test::write_file(dir.path + "/f.py", text);
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f foo -a a=f32[2]");
  CHECK(r.exit_code == 2);
  // Line 65 is the first indented 256 columns.
  CHECK(r.err.find("f.py:65:1: error: too deeply nested: this line is indented 256 columns, and "
                   "the parser reads at most 255") != std::string::npos);
}

TEST_CASE("tracer reliability: --arg messages say the real reason: too large a dim, a name given "
          "twice") {
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", "def f(x):\n    return x\n");
  test::Run large = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[1000000000]");
  CHECK(large.exit_code == 2);
  CHECK(large.err.find("dim 1000000000 is too large (at most 999999999)") != std::string::npos);
  test::Run twice = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2] -a x=f32[3]");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("--arg x is given twice") != std::string::npos);
  CHECK(twice.out.empty());
}

TEST_CASE("tracer reliability: a 10 MB name is cut in the message") {
  test::TempDir dir;
  std::string name(10'000'000, 'a');
  test::write_file(dir.path + "/f.py", "def f(x):\n    return " + name + "\n");
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2]");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("f.py:2:12: error: NameError: name '" + std::string(77, 'a') +
                   "...' is not defined") != std::string::npos);
  CHECK(r.err.size() < 1000);
}

TEST_CASE("tracer reliability: a large module read piece by piece gives the whole module's "
          "constants, functions and error places") {
  test::TempDir dir;
  // About 1 MB of module-level statements: several pieces.
  std::string text = "import torch\n\n@torch.no_grad()\ndef first(x):\n    return x\n";
  for (int i = 0; i < 35000; ++i)
    text += "c" + std::to_string(i) + " = " + std::to_string(i) + "  # a constant\n";
  text += "\ndef f(x):\n    return x * c34999 + c7\n";
  test::write_file(dir.path + "/f.py", text);
  test::Run r = bounded("trace " + q(dir.path + "/f.py") + " -f f -a x=f32[2]");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ltorch.mul(x, 34999)") != std::string::npos);
  CHECK(r.out.find("f.py:35008:     return x * c34999 + c7") != std::string::npos);
  CHECK(bounded("trace " + q(dir.path + "/f.py") + " -f first -a x=f32[2]").exit_code == 0);
  // An error in a late piece, at its line: the module's top level runs, and this loop never ends.
  test::write_file(dir.path + "/g.py", text + "while True:\n    pass\n");
  test::Run g = bounded("trace " + q(dir.path + "/g.py") + " -f f -a x=f32[2]");
  CHECK(g.exit_code == 2);
  CHECK(g.err.find("g.py:35009:1: error: the program runs more than 2000000 steps") !=
        std::string::npos);
}

TEST_CASE("tracer reliability: values built from themselves in a loop stop at the step limit") {
  test::TempDir dir;
  // Each t + t doubles t: exponential memory, stopped by the step limit (the copy counts). Each
  // (t,) nests t once more: linear, and freed without recursion (it overflowed the stack).
  test::write_file(dir.path + "/f.py", "def deep(x):\n    t = x\n    for i in range(200000):\n"
                                       "        t = (t,)\n    return x\n\n"
                                       "def wide(x):\n    t = (1,)\n    for i in range(64):\n"
                                       "        t = t + t\n    return x\n");
  test::Run wide = bounded("trace " + q(dir.path + "/f.py") + " -f wide -a x=f32[2]");
  CHECK(wide.exit_code == 2);
  CHECK(wide.err.find("runs more than 2000000 steps") != std::string::npos);
  test::Run deep = bounded("trace " + q(dir.path + "/f.py") + " -f deep -a x=f32[2]");
  CHECK(deep.exit_code == 0);
}

TEST_CASE("tracer reliability: a run of 20,000 comment lines in a body is read in linear time") {
  // tree-sitter-python's scanner reads a run of comment lines again at each newline: 16,000 lines
  // took 21 s before the frontend handed them to it as blank lines; now about 0.1 s.
  test::TempDir dir;
  std::string source = "def f(x):\n    y = x + 1\n";
  for (int i = 0; i < 20000; ++i)
    source += "    # y = x + " + std::to_string(i) + "\n";
  source += "    return y\n";
  test::write_file(dir.path + "/c.py", source);
  test::Run r = test::tracelint(
      "trace --no-provenance " + q(dir.path + "/c.py") + " -f f -a x=f32[2]", "", "timeout 10");
  CHECK(r.exit_code == 0); // 124: over 10 s
  CHECK(r.out.find("ltorch.add(x, 1, alpha=1)") != std::string::npos);
}
