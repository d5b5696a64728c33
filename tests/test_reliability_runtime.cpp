// Reliability (bad inputs and faults): runtime. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {
// The two inputs that made Debian's tree-sitter 0.20.7 runtime free a bad pointer
// (munmap_chunk(): invalid pointer, exit 134): a long run of comment lines, and a deeply
// nested list opener. Both parse with the runtime the npm package vendors.
std::string comment_run() {
  std::string text;
  for (int i = 0; i < 65536; ++i)
    text += "#\n";
  return text;
}
std::string deep_list() {
  return "x = [" + std::string(65535, '[');
}
std::string q(const std::string &s) {
  return "'" + s + "'";
}
} // namespace

TEST_CASE("runtime: 65536 comment lines are checked, not a heap abort") {
  test::TempDir dir;
  test::write_file(dir.path + "/c.py", comment_run());
  test::Run file = test::tracelint("check --isolated " + q(dir.path + "/c.py"));
  CHECK(file.exit_code < 2); // 134 before: the runtime aborted
  test::Run in = test::tracelint("check --isolated -", comment_run());
  CHECK(in.exit_code < 2);
  test::Run print = test::tracelint("print " + q(dir.path + "/c.py"));
  CHECK(print.exit_code < 128);
}

TEST_CASE("runtime: a 65535-deep list opener is a finding, not a heap abort") {
  test::TempDir dir;
  test::write_file(dir.path + "/d.py", deep_list());
  test::Run file = test::tracelint("check --isolated " + q(dir.path + "/d.py"));
  CHECK(file.exit_code == 1); // a syntax error: never valid Python
  CHECK(file.out.find("TL001") != std::string::npos);
  test::Run in = test::tracelint("check --isolated -", deep_list());
  CHECK(in.exit_code == 1);
  test::Run print = test::tracelint("print " + q(dir.path + "/d.py"));
  CHECK(print.exit_code == 1); // cannot model it: said, with the place
  CHECK(print.err.find("cannot model the trace") != std::string::npos);
}
