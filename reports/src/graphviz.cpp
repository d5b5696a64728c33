#include "graphviz.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

extern char **environ;

namespace tracelint {

namespace {

using Clock = std::chrono::steady_clock;

// System locations only: a `dot` that comes first on PATH (a project's bin/, a checkout) could be
// anything, and a report is often rendered in CI on untrusted input.
constexpr std::array<const char *, 2> kSystemDot = {"/usr/bin/dot", "/usr/local/bin/dot"};

// An SVG larger than this is not worth embedding; dot is stopped instead.
constexpr std::size_t kMaxSvgBytes = std::size_t{64} << 20;

class Descriptor {
public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  Descriptor(Descriptor &&other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor &operator=(Descriptor &&) = delete;
  Descriptor(const Descriptor &) = delete;
  ~Descriptor() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

private:
  int fd_;
};

Error failure(std::string message) {
  return Error{std::move(message), "", 0, 0};
}

std::string errno_text(const char *what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

// The child, started with its stdin and stdout on the given descriptors.
Result<pid_t> spawn(const std::string &dot, int child_stdin, int child_stdout) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawnattr_init(&attributes);
  ::posix_spawn_file_actions_adddup2(&actions, child_stdin, STDIN_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, child_stdout, STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // Its own process group, so that a timeout kills whatever it started; default signal handling
  // and an empty mask whatever the embedding program set.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETSIGDEF);
  ::posix_spawnattr_setpgroup(&attributes, 0);
  ::posix_spawnattr_setsigmask(&attributes, &none);
  ::posix_spawnattr_setsigdefault(&attributes, &defaults);
  std::string program = dot, format = "-Tsvg";
  std::array<char *, 3> argv = {program.data(), format.data(), nullptr};
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);
  if (rc != 0) return failure(fmt::format("cannot run Graphviz ({}): {}", dot, std::strerror(rc)));
  return pid;
}

// Kills the child's whole process group (a wrapper script's children too) and reaps the child.
void kill_and_reap(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

// The child's wait status once it has exited, or nullopt at the deadline.
std::optional<int> wait_until(pid_t pid, Clock::time_point deadline) {
  while (true) {
    int status = 0;
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0; // SIGCHLD ignored: reaped already, judge the output
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

enum class Exchange { Done, TimedOut, TooLarge, Failed };

// Writes the graph to the child while reading its output, both without blocking, until the child
// closes its stdout or the deadline passes.
Exchange exchange(Descriptor &to_child, Descriptor &from_child, const std::string &input,
                  std::string &output, Clock::time_point deadline) {
  std::size_t written = 0;
  if (input.empty()) to_child.reset();
  std::array<char, 65536> buffer;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Exchange::TimedOut;
    std::array<pollfd, 2> fds{};
    nfds_t count = 0;
    fds[count++] = {from_child.get(), POLLIN, 0};
    if (to_child.get() >= 0) fds[count++] = {to_child.get(), POLLOUT, 0};
    int ready = ::poll(fds.data(), count, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Exchange::Failed;
    if (count == 2 && fds[1].revents) {
      // MSG_NOSIGNAL: a child that exits early makes this fail with EPIPE instead of killing us.
      ssize_t n = ::send(to_child.get(), input.data() + written, input.size() - written,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (written == input.size() || (n < 0 && errno != EAGAIN && errno != EINTR))
        to_child.reset(); // end of input for dot
    }
    if (fds[0].revents) {
      ssize_t n = ::read(from_child.get(), buffer.data(), buffer.size());
      if (n == 0) return Exchange::Done;
      if (n < 0 && errno != EAGAIN && errno != EINTR) return Exchange::Failed;
      if (n > 0) output.append(buffer.data(), static_cast<std::size_t>(n));
      if (output.size() > kMaxSvgBytes) return Exchange::TooLarge;
    }
  }
}

std::string seconds(std::chrono::milliseconds d) {
  return d.count() % 1000 == 0 ? fmt::format("{} s", d.count() / 1000)
                               : fmt::format("{:.1f} s", static_cast<double>(d.count()) / 1000);
}

} // namespace

Result<std::string> render_svg(const std::string &dot_source, const GraphvizOptions &options) {
  std::string dot = options.dot;
  if (dot.empty())
    for (const char *path : kSystemDot)
      if (::access(path, X_OK) == 0) {
        dot = path;
        break;
      }
  if (dot.empty()) return failure("Graphviz (dot) is not installed");

  // Close-on-exec everywhere: another thread's child must not inherit these (a pipe held open
  // by a stranger never reaches end of file).
  int in[2], out[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
    return failure(errno_text("cannot run Graphviz (dot): socketpair"));
  Descriptor to_child(in[0]), child_stdin(in[1]);
  if (::pipe2(out, O_CLOEXEC) != 0) return failure(errno_text("cannot run Graphviz (dot): pipe"));
  Descriptor from_child(out[0]), child_stdout(out[1]);
  for (int fd : {to_child.get(), from_child.get()})
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

  Clock::time_point deadline = Clock::now() + options.timeout;
  Result<pid_t> pid = spawn(dot, child_stdin.get(), child_stdout.get());
  if (!pid) return pid.error();
  child_stdin.reset();
  child_stdout.reset();

  std::string svg;
  Exchange outcome = exchange(to_child, from_child, dot_source, svg, deadline);
  to_child.reset();
  from_child.reset();
  std::optional<int> status =
      outcome == Exchange::Done ? wait_until(*pid, deadline) : std::optional<int>();
  if (!status) {
    kill_and_reap(*pid);
    if (outcome == Exchange::TooLarge)
      return failure(fmt::format("Graphviz (dot) wrote more than {} MiB of SVG and was stopped",
                                 kMaxSvgBytes >> 20));
    if (outcome == Exchange::Failed) return failure("Graphviz (dot)'s output could not be read");
    return failure(fmt::format("Graphviz (dot) did not finish within {} and was stopped",
                               seconds(options.timeout)));
  }
  if (WIFSIGNALED(*status))
    return failure(fmt::format("Graphviz (dot) was killed by signal {}", WTERMSIG(*status)));
  if (WIFEXITED(*status) && WEXITSTATUS(*status) != 0)
    return failure(fmt::format("Graphviz (dot) failed (exit status {})", WEXITSTATUS(*status)));
  std::size_t start = svg.find("<svg");
  if (start == std::string::npos || svg.find("</svg>", start) == std::string::npos)
    return failure("Graphviz (dot) wrote no SVG");
  return svg.substr(start);
}

} // namespace tracelint
