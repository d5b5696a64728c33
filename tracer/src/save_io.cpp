// --save-io DIR: the run's files are written into a fresh private folder and then moved into
// DIR, so nothing planted in DIR (a symbolic link named manifest.json) is ever followed.
#include "tracelint/tracer/run.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace tracelint::tracer {

namespace {

Error folder_error(const std::string &dir, const std::string &why) {
  return Error{"--save-io " + dir + ": " + why, "", 0, 0};
}

} // namespace

std::optional<Error> save_io_folder_error(const std::string &dir) {
  if (dir.empty()) return folder_error("''", "an empty path names no folder");
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::nullopt; // made by the run
    return folder_error(dir, std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) return folder_error(dir, "is a symbolic link; name the folder itself");
  if (!S_ISDIR(st.st_mode)) return folder_error(dir, "exists and is not a folder");
  if (st.st_uid != ::geteuid())
    return folder_error(dir, "belongs to another user (uid " + std::to_string(st.st_uid) +
                                 "), who could plant links in it; use a folder of your own");
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return folder_error(dir, "is writable by others, who could plant links in it; use a "
                             "folder only you can write (chmod go-w)");
  return std::nullopt;
}

Result<std::string> private_folder_beside(const std::string &dir) {
  std::filesystem::path target = std::filesystem::path(dir).lexically_normal();
  if (target.has_filename() == false) target = target.parent_path();
  std::filesystem::path parent = target.parent_path().empty() ? "." : target.parent_path();
  // Appended, not "." + name: GCC 12's -Wrestrict misreads the latter (PR105329).
  std::string hidden = ".";
  hidden += target.filename().string();
  hidden += ".tracelint-XXXXXX";
  std::string pattern = (parent / hidden).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (!::mkdtemp(name.data())) // 0700: nobody else can put anything in it
    return folder_error(dir, std::string("cannot make a private folder beside it: ") +
                                 std::strerror(errno));
  return std::string(name.data());
}

std::optional<Error> move_into(const std::string &private_dir, const std::string &dir) {
  if (std::optional<Error> refused = save_io_folder_error(dir)) return refused;
  // A folder that is not there yet: the private one becomes it, whole.
  if (::rename(private_dir.c_str(), dir.c_str()) == 0) return std::nullopt;
  if (errno != EEXIST && errno != ENOTEMPTY)
    return folder_error(dir,
                        std::string("cannot move the run's files there: ") + std::strerror(errno));
  int from = ::open(private_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int to = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  std::optional<Error> failed;
  if (from < 0 || to < 0) failed = folder_error(dir, std::strerror(errno));
  for (const auto &entry : std::filesystem::directory_iterator(private_dir)) {
    if (failed) break;
    std::string name = entry.path().filename().string();
    // renameat replaces what has the name in dir (a planted link too) without following it.
    if (::renameat(from, name.c_str(), to, name.c_str()) != 0)
      failed = folder_error(dir, "cannot move " + name + " there: " + std::strerror(errno));
  }
  if (from >= 0) ::close(from);
  if (to >= 0) ::close(to);
  std::error_code ignored;
  std::filesystem::remove_all(private_dir, ignored);
  return failed;
}

} // namespace tracelint::tracer
