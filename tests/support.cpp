#include "support.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace test {

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::pair<int, std::string> run_capturing(const std::string &command) {
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe))
    out.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

bool in_ci() {
  const char *ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

void skip_test(const std::string &reason) {
  if (in_ci()) {
    FAIL_CHECK("CI=true and this cannot run: " << reason);
    return;
  }
  std::cout << "TRACELINT-SKIP: " << reason << std::endl;
}

std::optional<std::string> shared_corpus(const std::string &sub) {
  fs::path dir = fs::path(TRACELINT_SHARED_DIR) / "corpus" / sub;
  if (!fs::is_directory(dir)) {
    skip_test(dir.string() + " is absent (the shared corpus lies beside the checkout)");
    return std::nullopt;
  }
  return dir.string();
}

std::optional<std::string> nanogpt_model() {
  fs::path model = fs::path(TRACELINT_SHARED_DIR) / "models" / "nanogpt" / "model.py";
  if (!fs::is_regular_file(model)) {
    skip_test(model.string() + " is absent (the shared models lie beside the checkout)");
    return std::nullopt;
  }
  return model.string();
}

std::vector<std::string> python_files(const std::string &dir) {
  std::vector<std::string> files;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".py") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "tracelint-test-XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  path = ::mkdtemp(buf.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

namespace {

// The shell opens stdin, stdout and stderr's files (as the user running the tests), then runs
// prefix and the binary.
Run run_binary(const std::string &binary, const std::string &args, const std::string &stdin_text,
               const std::string &prefix) {
  TempDir tmp;
  std::string in = tmp.path + "/stdin", out = tmp.path + "/stdout", err = tmp.path + "/stderr";
  write_file(in, stdin_text);
  std::string command = "NO_COLOR=1 " + prefix + " " + shell_quote(binary) + " " + args + " < '" +
                        in + "' > '" + out + "' 2> '" + err + "'";
  int status = std::system(command.c_str());
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

} // namespace

Run tracelint(const std::string &args, const std::string &stdin_text, const std::string &prefix) {
  return run_binary(TRACELINT_BINARY, args, stdin_text, prefix);
}

std::optional<Run> tracelint_as_nobody(const std::string &args, const std::string &stdin_text) {
  // One copy per test process, in a 0755 folder; `check`, the only command run this way,
  // loads none of the modules beside the binary.
  static const TempDir copy_dir;
  const std::string copy = copy_dir.path + "/tracelint";
  std::error_code ec;
  if (!fs::exists(copy)) {
    fs::permissions(copy_dir.path,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
    fs::copy_file(TRACELINT_BINARY, copy, ec);
  }
  const std::string prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups";
  const std::string probe = prefix + " " + shell_quote(copy) + " --version >/dev/null 2>&1";
  if (ec || std::system(probe.c_str()) != 0) {
    skip_test("cannot run tracelint as the unprivileged user 65534 here (needs root and setpriv)");
    return std::nullopt;
  }
  return run_binary(copy, args, stdin_text, prefix);
}

std::vector<Expectation> parse_expectations(const std::string &text, const std::string &pattern) {
  std::regex expect(pattern);
  std::vector<Expectation> out;
  std::istringstream in(text);
  std::string line;
  unsigned number = 0, subject = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (std::regex_match(line, m, expect))
      out.push_back({m[1], subject, static_cast<unsigned>(std::stoul(m[2])), m[3]});
    else
      subject = number;
  }
  return out;
}

bool matches_snapshot(const std::string &name, const std::string &text) {
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/snapshots/" + name;
  const char *update = std::getenv("TRACELINT_UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1") {
    // CI compares, never rewrites: an update there would pass whatever the code now prints.
    if (!in_ci()) {
      write_file(path, text);
      return true;
    }
    MESSAGE("TRACELINT_UPDATE_SNAPSHOTS=1 is refused under CI=true: " << path << " is compared");
  }
  if (!fs::exists(path)) {
    MESSAGE("snapshot " << path << " is missing; run with TRACELINT_UPDATE_SNAPSHOTS=1");
    return false;
  }
  return read_file(path) == text;
}

std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void expect_cpython_matches(const std::vector<std::string> &dirs, const std::string &python,
                            const std::string &flags) {
  if (dirs.empty()) return;
  std::string command =
      shell_quote(python) + " " +
      shell_quote(std::string(TRACELINT_SOURCE_DIR) + "/tracer/oracle/cpython_oracle.py") + flags;
  for (const std::string &d : dirs)
    command += " " + shell_quote(d);
  auto [status, out] = run_capturing(command + " 2>/dev/null"); // stderr: what the model prints
  CAPTURE(out);
  CHECK(status == 0);
  std::istringstream lines(out);
  std::size_t matched = 0;
  for (std::string line; std::getline(lines, line);) {
    CHECK_MESSAGE(line.find("matches CPython") != std::string::npos, line);
    matched += line.find("matches CPython") != std::string::npos;
  }
  CHECK(matched == dirs.size());
}

bool can_import_torch(const std::string &python) {
  return std::system((shell_quote(python) + " -c 'import torch' > /dev/null 2>&1").c_str()) == 0;
}

} // namespace test
