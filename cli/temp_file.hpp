#pragma once
// The temporary file a fix is written to before it replaces the original: named after the file
// and the writing process (".NAME.tracelint-PID-XXXXXX"), removed when the writer is
// interrupted (SIGINT, SIGTERM, SIGHUP) and, when a killed writer left one (SIGKILL cannot be
// caught), by the next tracelint that fixes a file in that directory.
#include "tracelint/core/result.hpp"

#include <memory>
#include <optional>
#include <string>

namespace tracelint::cli {

class TempFile {
public:
  // Creates an empty temporary file (mode 0600) next to target. One at a time per process:
  // the signal handler knows a single path.
  static Result<std::unique_ptr<TempFile>> create(const std::string &target);
  ~TempFile();
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  int fd() const { return fd_; }
  const std::string &path() const { return path_; }
  // Closes the file and renames it over target; on success there is nothing left to remove.
  // Returns the reason on failure (the temporary file is then removed by the destructor).
  std::optional<std::string> rename_over(const std::string &target);

private:
  TempFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
  bool renamed_ = false;
};

// Removes, in dir, temporary files of this tool that their writer cannot finish any more:
// ".NAME.tracelint-PID-XXXXXX" whose process is gone, and those not modified for an hour
// (also the older ".NAME.tracelint-XXXXXX", which names no process). Only files of the
// calling user are removed.
void remove_stale_temp_files(const std::string &dir);

} // namespace tracelint::cli
