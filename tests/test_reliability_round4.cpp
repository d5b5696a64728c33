// Reliability round 4 (issue 34), what the tool accepts: values that would wrap, saturate or
// be ignored are usage errors naming the option; text that is not UTF-8 is refused where it
// enters; INT64_MIN prints as a literal both parsers read; the configuration reader survives a
// key deeper than its parser's stack and answers for a folder.
#include "support.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/validator/config.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace {

const std::string kFunction = "def f(a):\n    return a + 1\n";

struct Traced {
  test::TempDir dir;
  std::string file;
  explicit Traced(const std::string &source = kFunction) : file(dir.path + "/f.py") {
    test::write_file(file, source);
  }
  test::Run trace(const std::string &more) const {
    return test::tracelint("trace " + test::shell_quote(file) + " -f f " + more);
  }
};

void usage_error(const test::Run &r, const std::string &part) {
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find(part) != std::string::npos, r.err);
}

} // namespace

TEST_CASE("round 4: numbers and lists that would wrap, saturate or be ignored are usage errors") {
  Traced t;
  const std::string a = "-a 'a=f32[3]' ";
  usage_error(t.trace(a + "--seed -1"), "--seed: `-1` is not a number from 0 to");
  usage_error(t.trace(a + "--seed 99999999999999999999"), "is not a number from 0 to");
  usage_error(t.trace(a + "--max-memory -1"), "--max-memory: `-1` is not a size above 0");
  usage_error(t.trace(a + "--max-memory 0"), "--max-memory: `0` is not a size above 0");
  usage_error(t.trace(a + "--max-memory 99999999999999999999"), "is not a size above 0");
  usage_error(t.trace(a + "--max-memory 99999999999G"), "(it does not fit in 64 bits)");
  usage_error(t.trace(a + "--max-file-size 0"), "--max-file-size: `0` is not a size above 0");
  usage_error(t.trace(a + "--executors cuda_fusion"), "the list must end with torch");
  usage_error(t.trace(a + "--executors cuda_fusion,cuda_fusion,torch"), "is listed twice");
  usage_error(t.trace(a + "--executors cuda,torch"), "unknown executor `cuda`");
  usage_error(t.trace("-a 'a=u8[8]:0..1000'"), "the value range 0..1000 does not fit in uint8");
  usage_error(t.trace("-a 'a=i8[4]:-1000..1000'"), "does not fit in int8 (-128..128 does)");
  usage_error(t.trace("-a 'a=f32[2]@cuda:99999999999999999999'"), "device index");
  usage_error(t.trace(a + "--save-io io"), "--save-io saves a run: add --run");
  // What stays accepted.
  CHECK(t.trace(a + "--seed 18446744073709551615 --max-memory 1G").exit_code == 0);
  CHECK(t.trace("-a 'a=u8[8]:0..256' --executors cuda_fusion,torch").exit_code == 0);
}

TEST_CASE("round 4: a value that is not UTF-8 is refused where it enters, naming it") {
  Traced t("def f(a, s):\n    return a + len(s)\n");
  auto r = t.trace("-a 'a=f32[3]' -a \"s='$(printf '\\377')'\"");
  usage_error(r, "--arg s=");
  CHECK(r.err.find("is not valid UTF-8 (byte 0xff at offset 1)") != std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
  Traced m("class M:\n    def __init__(self, width):\n        self.width = width\n\n"
           "    def forward(self, a):\n        return a * self.width\n");
  r = test::tracelint("trace " + test::shell_quote(m.file) +
                      " --module M --init 'width=' -a 'a=f32[2]'");
  usage_error(r, "--init width=: the value is empty");
}

TEST_CASE("round 4: INT64_MIN prints as a literal the parser reads back") {
  // Python reads -9223372036854775808 as the negation of 2^63, which fits once negated.
  tracelint::Result<tracelint::TraceFile> parsed =
      tracelint::parse_trace("import thunder.core.prims as prims\n\ndef computation(a):\n"
                             "  t0 = prims.add(a, -9223372036854775808)\n  return t0\n");
  REQUIRE(parsed.ok());
  const tracelint::Value &literal = parsed->traces[0].body[0].value.items[2];
  CHECK(literal.integer == std::numeric_limits<int64_t>::min());
  CHECK(tracelint::parse_trace(tracelint::print_trace_file(parsed.value())).ok());
  CHECK_FALSE(tracelint::parse_trace("def computation(a):\n  return -9223372036854775809\n").ok());
  Traced t("def f(a):\n    return a + (-9223372036854775807 - 1)\n");
  auto r = t.trace("-a 'a=i64[2]'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("-9223372036854775808") != std::string::npos);
  CHECK(r.err.find("error") == std::string::npos);
}

TEST_CASE("round 4: a dotted key deeper than the TOML parser's stack does not crash check") {
  test::TempDir dir;
  std::string deep = "[";
  for (int i = 0; i < 40000; ++i)
    deep += i ? ".a" : "a";
  deep += "]\n";
  test::write_file(dir.path + "/t.py", "import torch\n\ndef computation(x):\n  return y\n");
  // Another tool's key: ignored; tracelint's own tables are still read.
  test::write_file(dir.path + "/pyproject.toml", deep + "[tool.tracelint]\nignore = [\"TL003\"]\n");
  auto r = test::tracelint("check " + test::shell_quote(dir.path + "/t.py"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("All checks passed") != std::string::npos);
  // tracelint's own: an error naming the configuration, exit 2.
  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint." + deep.substr(1));
  r = test::tracelint("check " + test::shell_quote(dir.path + "/t.py"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("[tool.tracelint] has a dotted key of more than 128 parts") !=
        std::string::npos);
  tracelint::Result<tracelint::Config> folder = tracelint::load_config("/");
  REQUIRE_FALSE(folder.ok());
  CHECK(folder.error().message == "is a folder, not a pyproject.toml");
}

TEST_CASE("round 4: a 10 MB rule code in select is quoted cut, not echoed whole") {
  test::TempDir dir;
  test::write_file(dir.path + "/t.py", "x = 1\n");
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\nselect = [\"" + std::string(10'000'000, 'X') + "\"]\n");
  auto r = test::tracelint("check " + test::shell_quote(dir.path + "/t.py"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown rule code or prefix 'XXXX") != std::string::npos);
  CHECK(r.err.find("... (10000000 bytes)'") != std::string::npos);
  CHECK(r.out.size() + r.err.size() < 2000);
}

namespace {

// Traces `def f(a):` with `body` before `return a + 1`; the result of the CLI.
test::Run trace_body(const std::string &body, const std::string &more = "") {
  Traced t("import torch\n\ndef f(a):\n" + body + "    return a + 1\n");
  return t.trace("-a 'a=f32[2]' " + more);
}

} // namespace

TEST_CASE("round 4: a value past the Python memory limit is refused at its line before it is "
          "made") {
  const std::string limit = "past the limit on the Python values a traced program makes (512 MiB";
  for (const char *body :
       {"    s = '{:>1000000000}'.format('x')\n", "    s = f'{1:>1000000000}'\n",
        "    s = '%1000000000d' % 1\n", "    s = format(1.0, '.1000000000f')\n",
        "    s = 'ab'.zfill(10**9)\n", "    s = 'ab'.rjust(10**9)\n", "    s = 'ab' * 10**9\n",
        "    s = [0] * 10**9\n", "    s = 'a' * 100000\n    s = s.replace('a', s)\n",
        "    s = ','.join(['x' * 1000000] * 1000)\n"}) {
    INFO(body);
    test::Run r = trace_body(body);
    CHECK(r.exit_code == 2);
    // At the body's last line (the file's line 3 + the body's lines).
    auto line = 3 + std::count(body, body + std::strlen(body), '\n');
    CHECK_MESSAGE(r.err.find("f.py:" + std::to_string(line) + ":") != std::string::npos, r.err);
    CHECK_MESSAGE(r.err.find(limit) != std::string::npos, r.err);
    CHECK(r.err.find("bad_alloc") == std::string::npos);
  }
  // A width CPython refuses is its ValueError, not a wrapped int.
  test::Run r = trace_body("    s = '{:>99999999999999999999}'.format('x')\n");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("ValueError: Too many decimal digits in format string") !=
                    std::string::npos,
                r.err);
  // The limit is the user's: lower, a 1 MB padding is refused; raised, a 600 MB one is made.
  const std::string pad = "    s = '{:>1000000}'.format('x')\n    assert len(s) == 1000000\n";
  CHECK(trace_body(pad).exit_code == 0);
  CHECK(trace_body(pad, "--max-python-memory 512K").exit_code == 2);
  usage_error(trace_body(pad, "--max-python-memory 0"), "--max-python-memory");
  // The same limit holds for --init, evaluated by the same interpreter.
  Traced m("class M:\n    def __init__(self, width):\n        self.width = len(width)\n\n"
           "    def forward(self, a):\n        return a * self.width\n");
  r = test::tracelint("trace " + test::shell_quote(m.file) +
                      " --module M --init \"width='x' * 10**9\" -a 'a=f32[2]'");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find(limit) != std::string::npos, r.err);
}

TEST_CASE("round 4: steps are charged by the work done, so a loop of large operations stops "
          "near the step limit") {
  for (const char *body :
       {"    l = list(range(100000))\n    for i in range(100000):\n        x = l == list(l)\n",
        "    s = 'x' * 1000000\n    for i in range(100000):\n        h = hash(s + str(i))\n",
        "    l = list(range(100000))\n    for i in range(100000):\n        x = sorted(l)\n",
        "    s = 'x' * 1000000\n    for i in range(100000):\n        x = s.count('y')\n",
        "    d = {}\n    for i in range(10**7):\n        d[i] = i\n",
        "    s = set(range(100000))\n",
        "    s = set()\n    for i in range(100000):\n        s.add(i)\n",
        "    s = {i for i in range(100000)}\n", "    r = range(100000)\n    s = {*r}\n",
        "    s = set()\n    s.update(range(100000))\n",
        "    l = ['x' * 1000000] * 1000\n    for i in range(1000):\n        s = repr(l)\n"}) {
    INFO(body);
    auto start = std::chrono::steady_clock::now();
    test::Run r = trace_body(body);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find("the program runs more than 2000000 steps") != std::string::npos,
                  r.err);
    // Seconds, not hours (the sanitizer build is several times slower than a release one).
    CHECK(seconds < 60);
  }
}

TEST_CASE("round 4: a call the tracer does not model is an error at its line, not a silent "
          "no-op") {
  for (const auto &[body, name] : std::vector<std::pair<std::string, std::string>>{
           {"    import os\n    os.system('id')\n", "os.system"},
           {"    from os import system\n    system('id')\n", "os.system"},
           {"    import pathlib\n    pathlib.Path('x').write_text('y')\n", "pathlib.Path"},
           {"    torch.load('x.pt')\n", "torch.load"},
           {"    import subprocess\n    r = subprocess.run(['id'])\n", "subprocess.run"}}) {
    INFO(body);
    test::Run r = trace_body(body);
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find("`" + name + "(...)` is not run by the tracer") != std::string::npos,
                  r.err);
  }
  // Logging and warnings only write messages: skipped.
  CHECK(trace_body("    import logging\n    logging.getLogger(__name__).info('x')\n").exit_code ==
        0);
  CHECK(trace_body("    import warnings\n    warnings.warn('x')\n").exit_code == 0);
}

TEST_CASE("round 4: numbers, hashes and dict keys as CPython has them (CPython's answers written "
          "here, tests/tracer/ops_cases.py runs the same against CPython)") {
  const std::string body =
      "    import math\n"
      "    class Key:\n"
      "        def __init__(self, v):\n            self.v = v\n"
      "        def __hash__(self):\n            return hash(self.v)\n"
      "        def __eq__(self, other):\n            return self.v == other.v\n"
      "    for thunk in (lambda: math.pow(10, 10**6), lambda: 1 / 0, lambda: pow(2, -1, 4)):\n"
      "        try:\n            thunk()\n"
      "        except (OverflowError, ZeroDivisionError, ValueError) as e:\n"
      "            print(type(e).__name__, e)\n"
      "    d = {Key(1): 'one'}\n"
      "    print(round(1.5, 10**9), pow(3, -1, 7), d[Key(1)], hash(-1), 2.0 // 0.1)\n";
  test::Run r = trace_body(body);
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  for (const char *line :
       {"printed: OverflowError math range error", "printed: ZeroDivisionError division by zero",
        "printed: ValueError base is not invertible for the given modulus",
        "printed: 1.5 5 one -2 19.0"})
    CHECK_MESSAGE(r.err.find(line) != std::string::npos, r.err);
}
