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

} // namespace tracelint::cli
