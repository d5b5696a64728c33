#pragma once
// The files a check reads: paths as given, the *.py files under directories, "-" for stdin.
#include "tracelint/core/result.hpp"

#include <sys/stat.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::cli {

struct Input {
  std::string path;           // as the user wrote it (or found under a directory); "-" for stdin
  std::optional<Error> error; // why it cannot be checked: reported for it, and the run exits 2
};

struct ScanOptions {
  // Check what symbolic links under a scanned directory point to outside it (files, and the
  // directories they lead to); without it they are errors, never read.
  bool follow_links = false;
  // Whether an entry met while scanning the directory argument root (a file or a folder) is
  // left out (exclude, extend-exclude); paths given by name are always checked.
  std::function<bool(const std::string &root, const std::string &entry)> excluded;
};

// Each path as given (a directory: its *.py files, sorted, hidden directories and node_modules
// left out). What is found but cannot be checked (an unreadable directory, a link leaving the
// tree, a broken link, a named pipe) comes back as an Input with its error, never dropped: a
// run that skipped a file must not pass.
std::vector<Input> expand(const std::vector<std::string> &paths, const ScanOptions &options);

// stat(2), its failure said the way a user can act on: a missing path, a broken symbolic link,
// a symbolic link loop, or the system's reason.
Result<struct stat> stat_path(const std::string &path);
// The error for what is not a regular file (a named pipe, a device, a socket): reading one
// could block forever or never end.
Error not_a_regular_file(const std::string &path, mode_t mode);

} // namespace tracelint::cli
