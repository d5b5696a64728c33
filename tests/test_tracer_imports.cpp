// The model's own modules (issue 38): a traced file's `from .config import Config`,
// `from shop.layers import centered`, `import shop.config` read the package's files from disk
// (tests/tracer/imports/shop) and run them with the same interpreter; errors and provenance
// name the file they are in; CPython running the same package agrees.
#include "support.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/execute.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

// libtorch's headers bring glog's CHECK(cond); the tests mean doctest's.
#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

std::string shop(const std::string &file) {
  return std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/imports/shop/" + file;
}

TraceRequest request(const std::string &file, const std::string &function) {
  TraceRequest r;
  r.path = shop(file);
  r.source = test::read_file(r.path);
  r.function = function;
  r.args = {{"x", "f32[2, 4]"}};
  return r;
}

} // namespace

TEST_CASE("imports: a model's own modules, relative, absolute, nested and in a cycle, are read "
          "from disk and run, and the traces match eager and CPython") {
  test::TempDir dir;
  std::vector<std::string> runs;
  for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues}) {
    TraceRequest r = request("model.py", "forward");
    r.cache = cache;
    Result<TracedProgram> p = trace(r);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
    std::string printed = print_trace_file(p->file);
    // Provenance names the file each line is in.
    CHECK_MESSAGE(printed.find("shop/layers/norm.py:7:     return twice(") != std::string::npos,
                  printed);
    CHECK(printed.find("shop/cycle_a.py:8:     return cycle_b.B + A") != std::string::npos);
    std::string out = dir.path + "/" + to_string(cache);
    Result<RunReport> run = run_and_compare(r, p.value(), RunOptions{0, 0, out});
    REQUIRE_MESSAGE(run.ok(), (run.ok() ? std::string() : run.error().message));
    CHECK_MESSAGE(run->ok(), run->summary());
    runs.push_back(out);
  }
  if (std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") != 0) {
    test::skip_test("/usr/bin/python3 has no torch: nothing compared with CPython "
                    "(scripts/bootstrap.sh installs python3-torch)");
    return;
  }
  std::string command = "/usr/bin/python3 " + test::shell_quote(std::string(TRACELINT_SOURCE_DIR) +
                                                                "/tracer/oracle/cpython_oracle.py");
  for (const std::string &d : runs)
    command += " " + test::shell_quote(d);
  auto [status, verdicts] = test::run_capturing(command + " 2>/dev/null");
  CHECK_MESSAGE(status == 0, verdicts);
  CHECK_MESSAGE(verdicts.find("forward: matches CPython") != std::string::npos, verdicts);
}

TEST_CASE("imports: an error in an imported module is at its line in its file, with the calls "
          "from the traced file") {
  Result<TracedProgram> p = trace(request("model.py", "fails_inside"));
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().path == shop("config.py"));
  CHECK(p.error().line == 17);
  CHECK(p.error().column == 12);
  CHECK_MESSAGE(p.error().message.find("in `broken`, called at " + shop("model.py") + ":18:12") !=
                    std::string::npos,
                p.error().message);
}

TEST_CASE("imports: a relative import of a module that is not there is CPython's "
          "ModuleNotFoundError at the import") {
  Result<TracedProgram> p = trace(request("missing.py", "f"));
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().path == shop("missing.py"));
  CHECK(p.error().line == 1);
  CHECK_MESSAGE(p.error().message.find("ModuleNotFoundError") != std::string::npos,
                p.error().message);
}

TEST_CASE("imports: a module file over the traced file's --max-file-size is not read: the error "
          "is at the import and names the cap") {
  TraceRequest r = request("model.py", "forward");
  r.max_file_size = 64; // every module of the package is longer
  Result<TracedProgram> p = trace(r);
  REQUIRE_FALSE(p.ok());
  CHECK_MESSAGE(p.error().message.find("over --max-file-size (64 bytes)") != std::string::npos,
                p.error().message);
  CHECK(p.error().message.find("cannot import `") == 0);
  CHECK(p.error().line > 0);
}
