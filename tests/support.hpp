#pragma once
// Helpers shared by the tests: reading files, running the CLI, locating the shared corpus.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace test {

std::string read_file(const std::string &path);
// s in single quotes for a POSIX shell.
std::string shell_quote(const std::string &s);
void write_file(const std::string &path, const std::string &text);
// A shell command's exit status (-1 when it did not exit) and its stdout.
std::pair<int, std::string> run_capturing(const std::string &command);
// A test, or a part of one, that cannot run here: prints `TRACELINT-SKIP: <reason>`, which the
// discovered tests' SKIP_REGULAR_EXPRESSION turns into ctest's "Skipped" (never "Passed").
// Under CI=true, where scripts/bootstrap.sh has installed everything and ../shared lies beside
// the clone, it fails the test instead: CI must not pass what it did not run.
void skip_test(const std::string &reason);
// CI=true: the tests run as CI runs them (skips fail, snapshots are never rewritten).
bool in_ci();
// The corpus folder under ../shared, or nullopt (after skip_test, which names the folder).
std::optional<std::string> shared_corpus(const std::string &sub);
// ../shared/models/nanogpt/model.py, or nullopt after skip_test.
std::optional<std::string> nanogpt_model();
std::vector<std::string> python_files(const std::string &dir);

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs build/tracelint with the arguments (a shell fragment), optionally feeding stdin;
// prefix comes before the binary (e.g. a command that drops privileges).
Run tracelint(const std::string &args, const std::string &stdin_text = "",
              const std::string &prefix = "");

// Runs the CLI as the unprivileged user 65534 (setpriv; root reads everything), from a copy of
// the binary in a folder that user can enter: the checkout may lie where it cannot. Returns
// nullopt after skip_test when that cannot be done here (not root, no setpriv).
std::optional<Run> tracelint_as_nobody(const std::string &args, const std::string &stdin_text = "");

// Whether that Python interpreter imports torch.
bool can_import_torch(const std::string &python);
// Runs tracer/oracle/cpython_oracle.py by `python` with `flags` (" --polyfill", ...) on the run
// directories: every verdict must be a match (doctest checks), one per directory.
void expect_cpython_matches(const std::vector<std::string> &dirs, const std::string &python,
                            const std::string &flags);

// A fresh temporary directory, removed at scope exit.
struct TempDir {
  TempDir();
  ~TempDir();
  std::string path;
};

// Inline expectations in fixtures: a comment line such as `# expect: TL003@22: message part`
// (regex groups: code, column, message) names the nearest line above it that is not one.
struct Expectation {
  std::string code;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};
std::vector<Expectation> parse_expectations(const std::string &text, const std::string &pattern);

// Compares text with the snapshot file; TRACELINT_UPDATE_SNAPSHOTS=1 rewrites it.
bool matches_snapshot(const std::string &name, const std::string &text);

} // namespace test
