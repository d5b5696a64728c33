#include "file_writer.hpp"

#include "temp_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;

namespace tracelint::cli {

namespace {

std::string reason(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

class Fd {
public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd_; }
  // close(2)'s own error (a write that failed late on NFS) matters for a file written.
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

private:
  int fd_;
};

bool write_all(int fd, const std::string &text, off_t at) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::pwrite(fd, text.data() + done, text.size() - done, at + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, std::string &text) {
  char block[64 * 1024];
  while (true) {
    ssize_t n = ::read(fd, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    text.append(block, static_cast<std::size_t>(n));
  }
}

// Whether two stats are the same version of the same file: an edit, a replacement or a
// change of owner or mode in between changes one of these.
bool same_version(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
         a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

std::string octal_mode(mode_t mode) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%04o", static_cast<unsigned>(mode & 07777));
  return buffer;
}

const std::string kChanged = "changed since it was checked; run tracelint again";

// Other links share the inode: the file is rewritten where it is, once the complete fixed text
// exists in the temporary file (so a full disk fails before the original is touched), and the
// original text is put back if the rewrite fails half-way.
std::optional<std::string> rewrite_in_place(const std::string &target, const struct stat &before,
                                            const std::string &checked, const std::string &text,
                                            mode_t mode) {
  Fd out(::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW));
  if (out.get() < 0) return reason("cannot open it for writing (it has several hard links)");
  struct stat now {};
  if (::fstat(out.get(), &now) != 0 || !same_version(before, now)) return kChanged;
  bool written = write_all(out.get(), text, 0) &&
                 ::ftruncate(out.get(), static_cast<off_t>(text.size())) == 0 &&
                 ::fsync(out.get()) == 0;
  if (!written) {
    std::string why = reason("cannot rewrite it in place (it has several hard links)");
    bool restored = write_all(out.get(), checked, 0) &&
                    ::ftruncate(out.get(), static_cast<off_t>(checked.size())) == 0;
    return why + (restored ? "; its text is restored" : "; its text may be damaged");
  }
  // Writing clears setuid/setgid only for an unprivileged writer; clear them for root too.
  if ((before.st_mode & (S_ISUID | S_ISGID)) && ::fchmod(out.get(), mode) != 0)
    return reason("fixed, but cannot clear its setuid/setgid bits");
  if (!out.close()) return reason("cannot finish writing it");
  return std::nullopt;
}

// Writes text to what path names without creating or replacing it (a device or a FIFO).
std::optional<std::string> write_in_place(const std::string &path, const std::string &text) {
  Fd out(::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC));
  if (out.get() < 0) return reason("cannot open");
  // write, not pwrite: a FIFO has no offsets.
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(out.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return reason("write failed");
    done += static_cast<std::size_t>(n);
  }
  if (!out.close()) return reason("cannot finish writing it");
  return std::nullopt;
}

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

std::optional<std::string> write_atomically(const std::string &path, const std::string &text) {
  struct stat st {};
  mode_t mode = 0644 & ~current_umask(); // a new file
  if (::lstat(path.c_str(), &st) == 0) {
    // Renaming over a link would replace the link, and writing through it would change a file
    // the command line does not name: neither happens silently.
    if (S_ISLNK(st.st_mode))
      return "it is a symbolic link; name the file it points to, or remove the link";
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    // A device, FIFO or socket (/dev/null, /dev/stdout) is written to, never replaced.
    if (!S_ISREG(st.st_mode)) return write_in_place(path, text);
    mode = st.st_mode & 07777 & ~mode_t(S_ISUID | S_ISGID);
  } else if (errno != ENOENT) {
    return reason("cannot stat");
  }
  Result<std::unique_ptr<TempFile>> created = TempFile::create(path);
  if (!created) return created.error().message;
  TempFile &temp = **created;
  if (!write_all(temp.fd(), text, 0)) return reason("write failed");
  if (::fchmod(temp.fd(), mode) != 0 || ::fsync(temp.fd()) != 0)
    return reason("cannot finish the temporary file");
  return temp.rename_over(path);
}

std::optional<std::string> FileReplacer::replace(const std::string &path,
                                                 const std::string &checked,
                                                 const std::string &text) {
  // A symbolic link stays a link: the file it names is the one fixed.
  std::error_code ec;
  const std::string target = fs::canonical(path, ec).string();
  if (ec) return "cannot resolve the path: " + ec.message();
  Fd in(::open(target.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (in.get() < 0) return reason("cannot open");
  struct stat before {};
  if (::fstat(in.get(), &before) != 0) return reason("cannot stat");
  if (!S_ISREG(before.st_mode)) return "not a regular file";
  std::string now;
  if (!read_all(in.get(), now)) return reason("cannot read it again");
  // The same file, reached by another path earlier in this run (a symbolic link and its target,
  // two hard links), already holds this fix.
  if (written_.count({before.st_dev, before.st_ino}) && now == text) return std::nullopt;
  if (now != checked) return kChanged;
  if (before.st_uid != ::geteuid() && !force_)
    return "owned by another user (uid " + std::to_string(before.st_uid) +
           "); --force fixes it anyway and keeps its owner";
  if (!(before.st_mode & S_IWUSR) && !force_)
    return "read-only (mode " + octal_mode(before.st_mode) +
           "); --force fixes it anyway and keeps its mode";
  // As editors do: a rewritten program is not trusted with its owner's or group's rights.
  const mode_t mode = before.st_mode & 07777 & ~mode_t(S_ISUID | S_ISGID);

  std::string dir = fs::path(target).parent_path().string();
  if (cleaned_dirs_.insert(dir).second) remove_stale_temp_files(dir);
  Result<std::unique_ptr<TempFile>> created = TempFile::create(target);
  if (!created) return created.error().message;
  TempFile &temp = **created;
  struct stat made {};
  if (!write_all(temp.fd(), text, 0)) return reason("cannot write the temporary file");
  if (::fstat(temp.fd(), &made) != 0) return reason("cannot stat the temporary file");
  if ((made.st_uid != before.st_uid || made.st_gid != before.st_gid) &&
      ::fchown(temp.fd(), before.st_uid, before.st_gid) != 0)
    return reason("cannot keep its owner and group (uid " + std::to_string(before.st_uid) +
                  ", gid " + std::to_string(before.st_gid) + ")");
  if (::fchmod(temp.fd(), mode) != 0 || ::fsync(temp.fd()) != 0)
    return reason("cannot finish the temporary file");

  if (before.st_nlink > 1) {
    std::optional<std::string> why = rewrite_in_place(target, before, checked, text, mode);
    if (!why) written_.insert({before.st_dev, before.st_ino});
    return why;
  }
  // The last look before the rename: an edit made while the fix was written is kept.
  struct stat latest {};
  if (::stat(target.c_str(), &latest) != 0 || !same_version(before, latest)) return kChanged;
  if (std::optional<std::string> why = temp.rename_over(target)) return why;
  if (struct stat fixed{}; ::stat(target.c_str(), &fixed) == 0)
    written_.insert({fixed.st_dev, fixed.st_ino});
  // The rename is durable once the directory is: without this, a crash can bring back the
  // old file, or neither.
  Fd directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() >= 0) ::fsync(directory.get());
  return std::nullopt;
}

std::optional<std::string> write_report(const std::string &path, const std::string &text) {
  if (path.empty()) {
    std::cout << text;
    return flush_stdout();
  }
  Fd out(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (out.get() < 0) return reason("cannot open " + path);
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(out.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return reason("cannot write " + path);
    done += static_cast<std::size_t>(n);
  }
  if (!out.close()) return reason("cannot write " + path);
  return std::nullopt;
}

namespace {

// Whether standard output is a pipe or socket whose reader has gone: the kernel flags its
// write end with POLLERR (the EPIPE of the failed write may be long overwritten by then).
bool stdout_reader_gone() {
  struct pollfd out {
    STDOUT_FILENO, 0, 0
  };
  return ::poll(&out, 1, 0) == 1 && (out.revents & POLLERR);
}

} // namespace

std::optional<std::string> flush_stdout() {
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout.good();
  int error = errno;
  if (std::fflush(stdout) != 0) {
    failed = true;
    error = errno;
  }
  failed |= std::ferror(stdout) != 0;
  std::cout.clear();
  std::clearerr(stdout);
  // The reader closed the pipe (`tracelint check ... | head -1`, with SIGPIPE ignored, as a
  // parent that ignores it leaves it): it took what it wanted, which is no error.
  if (!failed || error == EPIPE || stdout_reader_gone()) return std::nullopt;
  return std::string("cannot write to standard output") +
         (error ? std::string(": ") + std::strerror(error) : std::string());
}

} // namespace tracelint::cli
