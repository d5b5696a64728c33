#include "temp_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string_view>

namespace fs = std::filesystem;

namespace tracelint::cli {

namespace {

constexpr std::string_view kTag = ".tracelint-";
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::time_t kAbandonedAfterSeconds = 60 * 60;

// The temporary file being written, for the signal handler to remove. A handler reaches
// nothing but globals and may call only async-signal-safe functions (unlink, sigaction, raise),
// so the path is copied into a fixed buffer while those signals are blocked, and armed says
// whether it names a file that exists. These two are the tool's only mutable globals; they
// exist because a handler gets no argument to find the path through.
char g_temp_path[PATH_MAX];
std::atomic<bool> g_temp_armed{false};
static_assert(std::atomic<bool>::is_always_lock_free, "read in a signal handler");

extern "C" void remove_temp_file_and_die(int signal) {
  if (g_temp_armed.load()) ::unlink(g_temp_path);
  // Then die of the signal, as without the handler (the shell sees 128 + signal): it is
  // blocked while its handler runs, so it arrives, with the default action, on return.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal, &default_action, nullptr);
  ::raise(signal);
}

// Blocks the cleanup signals for its lifetime, so the handler sees the path and the armed flag
// change together.
class SignalsBlocked {
public:
  SignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kCleanupSignals)
      sigaddset(&set, s);
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsBlocked(const SignalsBlocked &) = delete;
  SignalsBlocked &operator=(const SignalsBlocked &) = delete;

private:
  sigset_t previous_;
};

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = remove_temp_file_and_die;
  sigemptyset(&action.sa_mask);
  for (int s : kCleanupSignals)
    sigaddset(&action.sa_mask, s);
  for (int s : kCleanupSignals) {
    struct sigaction previous {};
    // A signal the caller ignores (nohup) stays ignored.
    if (::sigaction(s, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    ::sigaction(s, &action, nullptr);
  }
}

// Whether a temporary file's suffix (after the tag) is one of ours, and the pid it names
// (0 for the older form "XXXXXX", which names none).
bool parse_suffix(std::string_view suffix, long &pid) {
  auto random_part = [](std::string_view s) {
    if (s.size() != 6) return false;
    for (char c : s)
      if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
  };
  pid = 0;
  std::size_t dash = suffix.find('-');
  if (dash == std::string_view::npos) return random_part(suffix);
  if (dash == 0 || dash > 10 || !random_part(suffix.substr(dash + 1))) return false;
  for (char c : suffix.substr(0, dash)) {
    if (c < '0' || c > '9') return false;
    pid = pid * 10 + (c - '0');
  }
  return pid > 0;
}

} // namespace

Result<std::unique_ptr<TempFile>> TempFile::create(const std::string &target) {
  fs::path path(target);
  fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string name = (dir / ("." + path.filename().string() + std::string(kTag) +
                             std::to_string(::getpid()) + "-XXXXXX"))
                         .string();
  if (name.size() >= sizeof g_temp_path)
    return Error{"cannot create a temporary file: the path is too long", target, 0, 0};
  if (g_temp_armed.load())
    return Error{"cannot create a temporary file: another one is being written", target, 0, 0};
  install_handlers();
  SignalsBlocked blocked;
  std::memcpy(g_temp_path, name.c_str(), name.size() + 1);
  int fd = ::mkostemp(g_temp_path, O_CLOEXEC);
  if (fd < 0)
    return Error{std::string("cannot create a temporary file: ") + std::strerror(errno), target, 0,
                 0};
  g_temp_armed.store(true);
  return std::unique_ptr<TempFile>(new TempFile(fd, g_temp_path));
}

TempFile::~TempFile() {
  SignalsBlocked blocked;
  if (fd_ >= 0) ::close(fd_);
  if (!renamed_) ::unlink(path_.c_str());
  g_temp_armed.store(false);
}

std::optional<std::string> TempFile::rename_over(const std::string &target) {
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)
    return std::string("cannot finish the temporary file: ") + std::strerror(errno);
  SignalsBlocked blocked;
  if (::rename(path_.c_str(), target.c_str()) != 0)
    return std::string("cannot replace the file: ") + std::strerror(errno);
  renamed_ = true;
  g_temp_armed.store(false);
  return std::nullopt;
}

void remove_stale_temp_files(const std::string &dir) {
  DIR *listing = ::opendir(dir.c_str());
  if (!listing) return; // creating the new temporary file will say what is wrong
  const std::time_t now = std::time(nullptr);
  while (const dirent *entry = ::readdir(listing)) {
    std::string_view name = entry->d_name;
    std::size_t tag = name.rfind(kTag);
    long pid = 0;
    if (name.size() < 2 || name[0] != '.' || tag == std::string_view::npos || tag < 2 ||
        !parse_suffix(name.substr(tag + kTag.size()), pid))
      continue;
    struct stat st {};
    if (::fstatat(::dirfd(listing), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    bool writer_gone = pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
    bool abandoned = now - st.st_mtime > kAbandonedAfterSeconds;
    if (writer_gone || abandoned) ::unlinkat(::dirfd(listing), entry->d_name, 0);
  }
  ::closedir(listing);
}

} // namespace tracelint::cli
