#include "io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace tracelint::cli {

namespace {

// The process's umask, read without setting it (umask(2) can only swap it, which would race
// with anything else creating files).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

} // namespace

Result<std::string> read_input(const std::string &path) {
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error{"is a directory", path, 0, 0};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{std::string("cannot open: ") + std::strerror(errno), path, 0, 0};
  ss << in.rdbuf();
  if (in.bad()) return Error{"read error", path, 0, 0};
  std::string text = ss.str();
  if (text.find('\0') != std::string::npos)
    return Error{"binary file (contains NUL bytes): not a trace", path, 0, 0};
  return text;
}

// Writes next to the file, then renames over it: a failure leaves the original intact.
std::optional<std::string> write_atomically(const std::string &path, const std::string &text) {
  struct stat st {};
  mode_t mode = 0644 & ~current_umask(); // a new file
  if (::stat(path.c_str(), &st) == 0)
    mode = st.st_mode & 07777;
  else if (errno != ENOENT)
    return std::string("cannot stat: ") + std::strerror(errno);
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tracelint-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return std::string("cannot create a temporary file: ") + std::strerror(errno);
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      ::close(fd);
      ::unlink(name.data());
      return std::string("write failed: ") + std::strerror(errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(name.data());
    return std::string("cannot finish the temporary file: ") + std::strerror(errno);
  }
  if (::rename(name.data(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(name.data());
    return "cannot replace the file: " + why;
  }
  return std::nullopt;
}

} // namespace tracelint::cli
