#include "inputs.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>

namespace fs = std::filesystem;

namespace tracelint::cli {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "an unknown file type";
}

bool left_out_directory(const std::string &name) {
  return name == "node_modules" || (name.size() > 1 && name[0] == '.');
}

// Whether `path` is `root` or lies under it; both canonical.
bool within(const fs::path &path, const fs::path &root) {
  auto [in_root, in_path] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  (void)in_path;
  return in_root == root.end();
}

// One directory argument: its *.py files and, as errors, what under it cannot be checked.
class TreeScan {
public:
  TreeScan(const std::string &root, const ScanOptions &options) : root_(root), options_(options) {
    std::error_code ec;
    real_root_ = fs::canonical(root, ec);
    if (ec) real_root_ = fs::absolute(root, ec);
  }

  std::vector<Input> run() {
    std::vector<fs::path> pending{fs::path(root_)};
    remember(root_);
    while (!pending.empty()) {
      fs::path dir = std::move(pending.back());
      pending.pop_back();
      for (const fs::path &entry : list(dir))
        visit(entry, pending);
    }
    std::sort(found_.begin(), found_.end(),
              [](const Input &a, const Input &b) { return a.path < b.path; });
    return std::move(found_);
  }

private:
  // The directory's entries, read whole before any is visited: a deep tree then holds one open
  // descriptor, not one per level (which ran out under a low `ulimit -n` and ended the walk).
  std::vector<fs::path> list(const fs::path &dir) {
    std::vector<fs::path> entries;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec))
      entries.push_back(it->path());
    if (ec)
      found_.push_back({dir.string(), Error{"cannot list directory: " + ec.message() +
                                                "; its files were not checked",
                                            dir.string(), 0, 0}});
    return entries;
  }

  void visit(const fs::path &entry, std::vector<fs::path> &pending) {
    std::string path = entry.string();
    std::string name = entry.filename().string();
    bool python = entry.extension() == ".py";
    if (options_.excluded && options_.excluded(root_, path)) return;
    struct stat own {};
    if (::lstat(path.c_str(), &own) != 0) {
      // Listed a moment ago: gone or unreachable now.
      if (python) found_.push_back({path, stat_path(path).error()});
      return;
    }
    if (!S_ISLNK(own.st_mode)) {
      if (S_ISDIR(own.st_mode)) {
        if (!left_out_directory(name)) pending.push_back(entry);
      } else if (python) {
        found_.push_back({path, S_ISREG(own.st_mode)
                                    ? std::nullopt
                                    : std::optional<Error>(not_a_regular_file(path, own.st_mode))});
      }
      return;
    }
    Result<struct stat> target = stat_path(path);
    if (!target) {
      // A broken link not named *.py could have been anything: only a trace's is reported.
      if (python) found_.push_back({path, target.error()});
      return;
    }
    bool directory = S_ISDIR(target->st_mode);
    if ((!directory && !python) || (directory && left_out_directory(name))) return;
    std::error_code ec;
    fs::path real = fs::canonical(entry, ec);
    if (ec) {
      found_.push_back({path, Error{"cannot resolve symbolic link: " + ec.message(), path, 0, 0}});
      return;
    }
    bool inside = within(real, real_root_);
    if (!inside && !options_.follow_links) {
      found_.push_back({path, Error{"symbolic link to " + real.string() + ", outside " + root_ +
                                        ": not followed (--follow-links checks it)",
                                    path, 0, 0}});
      return;
    }
    if (directory) {
      // A link to a directory inside the tree is skipped: the walk reaches its files anyway.
      if (!inside && remember(path)) pending.push_back(entry);
      return;
    }
    found_.push_back({path, S_ISREG(target->st_mode)
                                ? std::nullopt
                                : std::optional<Error>(not_a_regular_file(path, target->st_mode))});
  }

  // Notes a directory about to be walked; false if it was walked already (links that loop).
  bool remember(const std::string &dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return true;
    return walked_.insert({st.st_dev, st.st_ino}).second;
  }

  std::string root_;
  fs::path real_root_;
  const ScanOptions &options_;
  std::vector<Input> found_;
  std::set<std::pair<dev_t, ino_t>> walked_;
};

} // namespace

Result<struct stat> stat_path(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return st;
  int error = errno;
  if (error == ELOOP) return Error{"symbolic link loop", path, 0, 0};
  struct stat link {};
  if (error == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    return Error{"broken symbolic link", path, 0, 0};
  if (error == ENOENT) return Error{"no such file or directory", path, 0, 0};
  return Error{std::string("cannot access: ") + std::strerror(error), path, 0, 0};
}

Error not_a_regular_file(const std::string &path, mode_t mode) {
  return Error{"not a regular file (" + kind_of(mode) +
                   "): give trace files, directories, or - to read standard input",
               path, 0, 0};
}

std::vector<Input> expand(const std::vector<std::string> &paths, const ScanOptions &options) {
  std::vector<Input> inputs;
  for (const std::string &p : paths) {
    if (p == "-") {
      inputs.push_back({p, std::nullopt});
      continue;
    }
    // stat, not open: opening a named pipe that has no writer blocks forever.
    Result<struct stat> st = stat_path(p);
    if (!st) {
      inputs.push_back({p, st.error()});
    } else if (S_ISDIR(st->st_mode)) {
      std::vector<Input> found = TreeScan(p, options).run();
      std::move(found.begin(), found.end(), std::back_inserter(inputs));
    } else if (!S_ISREG(st->st_mode)) {
      inputs.push_back({p, not_a_regular_file(p, st->st_mode)});
    } else {
      inputs.push_back({p, std::nullopt});
    }
  }
  return inputs;
}

} // namespace tracelint::cli
