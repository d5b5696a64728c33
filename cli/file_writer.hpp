#pragma once
// Writing files for the command-line tool: a fixed trace in place of the file that was checked,
// and the report (standard output or -o FILE). A failure is a message, never a silent success.
#include <sys/types.h>

#include <optional>
#include <set>
#include <string>
#include <utility>

namespace tracelint::cli {

// Replaces checked files with their fixed text, one at a time (not thread-safe: it installs
// signal handlers while a temporary file exists).
class FileReplacer {
public:
  // force: also fix files that are read-only or owned by another user (owner and mode kept).
  explicit FileReplacer(bool force) : force_(force) {}

  // Replaces the contents of the file at path with text if the file still holds checked (the
  // text that was checked), so an edit made meanwhile is never overwritten. A symbolic link
  // is followed: the file it names is fixed and the link stays. Owner, group and permission
  // bits are kept, except setuid and setgid, which are cleared as editors do; a file with
  // several hard links is rewritten in place so that every link sees the fix. Returns why the
  // file was not fixed; it is then as it was.
  std::optional<std::string> replace(const std::string &path, const std::string &checked,
                                     const std::string &text);

private:
  bool force_;
  std::set<std::string> cleaned_dirs_;        // where stale temporary files were already looked for
  std::set<std::pair<dev_t, ino_t>> written_; // the files (device, inode) fixed so far
};

// Writes a new version of a file the tool generates (`tracelint trace -o`): next to it, then
// renamed over it, so a failure leaves the old one intact. An existing file keeps its mode
// (less setuid/setgid); a new one gets 0644 less the umask. What is not a regular file is never
// replaced: a device or FIFO (/dev/null) is written to in place, a symbolic link or a directory
// is refused. Returns the reason on failure.
std::optional<std::string> write_atomically(const std::string &path, const std::string &text);

// Writes a report to path, or to standard output when path is empty, and makes sure it got
// there (a full disk fails at the flush, not at the write). Returns why not.
std::optional<std::string> write_report(const std::string &path, const std::string &text);
// Flushes standard output; returns why not everything written to it arrived.
std::optional<std::string> flush_stdout();

} // namespace tracelint::cli
