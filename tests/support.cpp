#include "support.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::optional<std::string> shared_corpus(const std::string &sub) {
  fs::path dir = fs::path(TRACELINT_SHARED_DIR) / "corpus" / sub;
  if (!fs::is_directory(dir)) {
    MESSAGE("skipping: " << dir.string()
                         << " is absent (the shared corpus lies beside the checkout)");
    return std::nullopt;
  }
  return dir.string();
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

Run tracelint(const std::string &args, const std::string &stdin_text, const std::string &prefix) {
  TempDir tmp;
  std::string in = tmp.path + "/stdin", out = tmp.path + "/stdout", err = tmp.path + "/stderr";
  write_file(in, stdin_text);
  std::string command = "NO_COLOR=1 " + prefix + " '" + TRACELINT_BINARY + "' " + args + " < '" +
                        in + "' > '" + out + "' 2> '" + err + "'";
  int status = std::system(command.c_str());
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
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
    write_file(path, text);
    return true;
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

} // namespace test
