#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
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
  std::error_code ec;
  if (path != "-" && fs::is_directory(path, ec)) return Error{"is a directory", path, 0, 0};
  int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{std::string("cannot open: ") + std::strerror(errno), path, 0, 0};
  // Read straight into the string, sized from the file where it has a size: the text is the
  // largest thing a check holds, so it is held once.
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    text.reserve(static_cast<std::size_t>(st.st_size));
  char block[64 * 1024];
  while (true) {
    std::size_t have = text.size();
    ssize_t n;
    if (have < text.capacity()) { // into the reserved space
      text.resize(text.capacity());
      n = ::read(fd, text.data() + have, text.size() - have);
      text.resize(have + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    } else { // past the size fstat gave (a pipe, a growing file), or to see the end
      n = ::read(fd, block, sizeof block);
      if (n > 0) text.append(block, static_cast<std::size_t>(n));
    }
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = errno;
      if (fd != STDIN_FILENO) ::close(fd);
      if (n < 0) return Error{std::string("read error: ") + std::strerror(error), path, 0, 0};
      break;
    }
  }
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
