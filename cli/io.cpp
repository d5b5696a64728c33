#include "io.hpp"

#include "inputs.hpp"

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

std::string byte_size(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = 1024 * 1024;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

Result<std::string> read_input(const std::string &path, std::uint64_t max_bytes) {
  bool from_stdin = path == "-";
  // O_NONBLOCK: opening a named pipe that has no writer would wait for one forever; what is
  // not a regular file is refused below, before anything is read.
  int fd = from_stdin ? STDIN_FILENO
                      : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Error{std::string("cannot open: ") + std::strerror(errno), path, 0, 0};
  auto fail = [&](std::string message) {
    if (!from_stdin) ::close(fd);
    return Error{std::move(message), path, 0, 0};
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(std::string("cannot stat: ") + std::strerror(errno));
  // Standard input may be a pipe or a terminal; a named path must be a file, which has an end.
  if (!from_stdin && S_ISDIR(st.st_mode)) return fail("is a directory");
  if (!from_stdin && !S_ISREG(st.st_mode))
    return fail(not_a_regular_file(path, st.st_mode).message);
  if (!from_stdin) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  auto too_large = [&] {
    return fail("larger than " + byte_size(max_bytes) +
                " (--max-file-size): not checked; raise --max-file-size to check it");
  };
  std::uint64_t size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  if (size > max_bytes) return too_large();
  // Read straight into the string, sized from the file where it has a size: the text is the
  // largest thing a check holds, so it is held once. One byte more than the cap is read at
  // most, to know that the input (a pipe, a growing file) goes past it.
  std::string text;
  if (size) text.reserve(static_cast<std::size_t>(size) + 1);
  constexpr std::size_t kBlock = 64 * 1024;
  while (true) {
    std::size_t have = text.size();
    // A regular file's last read is of the one byte reserved past its size (to see its end):
    // asking for a block more there would reallocate, and copy, the whole text.
    std::size_t room = text.capacity() - have;
    std::size_t want = room >= kBlock || (size && room > 0) ? room : kBlock;
    if (max_bytes - have < want) want = static_cast<std::size_t>(max_bytes - have) + 1;
    text.resize(have + want);
    ssize_t n = ::read(fd, text.data() + have, want);
    int error = errno;
    text.resize(have + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n < 0 && error == EINTR) continue;
    if (n < 0) return fail(std::string("read error: ") + std::strerror(error));
    if (n == 0) break;
    // Each block as it arrives: /dev/zero or random bytes on stdin end at their first block.
    if (const void *nul = std::memchr(text.data() + have, '\0', static_cast<std::size_t>(n)))
      return fail("binary file (a NUL byte at offset " +
                  std::to_string(static_cast<const char *>(nul) - text.data()) + "): not a trace");
    if (text.size() > max_bytes) return too_large();
  }
  if (!from_stdin) ::close(fd);
  return text;
}

} // namespace tracelint::cli
