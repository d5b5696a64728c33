#pragma once
// CPython as the differential fuzz targets' oracle: one `python3 fuzz/python_oracle.py`
// process, started on the first question and kept for the run (starting CPython per input would
// cost more than the code under test). Its protocol is in python_oracle.py.
#include <nlohmann/json.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern char **environ;

namespace fuzzing {

class PythonOracle {
public:
  // kind 't' (TOML text) or 'p' (a Python module whose f(1) is called).
  nlohmann::json ask(char kind, const std::string &payload) {
    if (!started_) start();
    std::string request(1, kind);
    uint64_t n = payload.size();
    for (int i = 0; i < 8; ++i)
      request += static_cast<char>((n >> (8 * i)) & 0xFF);
    request += payload;
    std::string header;
    if (!write_all(request) || !read_exact(8, header)) return died();
    uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
      length = (length << 8) | static_cast<unsigned char>(header[static_cast<std::size_t>(i)]);
    std::string answer;
    if (!read_exact(length, answer)) return died();
    return nlohmann::json::parse(answer);
  }

private:
  void start() {
    std::signal(SIGPIPE, SIG_IGN); // a write to an oracle that ended is an error, not a kill
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) fail("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    posix_spawn_file_actions_addclose(&actions, to_child[1]);
    posix_spawn_file_actions_addclose(&actions, from_child[0]);
    std::string script = std::string(TRACELINT_FUZZ_DIR) + "/python_oracle.py";
    const char *python = std::getenv("TRACELINT_FUZZ_PYTHON");
    std::string interpreter = python ? python : "/usr/bin/python3";
    char *argv[] = {interpreter.data(), script.data(), nullptr};
    if (posix_spawn(&pid_, interpreter.c_str(), &actions, nullptr, argv, environ) != 0)
      fail("starting " + interpreter);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
    started_ = true;
  }
  bool write_all(const std::string &s) {
    for (std::size_t done = 0; done < s.size();) {
      ssize_t n = write(to_, s.data() + done, s.size() - done);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  bool read_exact(uint64_t n, std::string &out) {
    out.assign(n, '\0');
    for (std::size_t done = 0; done < n;) {
      ssize_t got = read(from_, out.data() + done, n - done);
      if (got <= 0) return false;
      done += static_cast<std::size_t>(got);
    }
    return true;
  }
  // CPython itself ended on this input (a C stack overflow in a deep repr, the address-space
  // limit): no answer to compare with, which is not the tracer's failure. Said on stderr, and
  // the next question starts a new one.
  nlohmann::json died() {
    close(to_);
    close(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
    std::fprintf(stderr, "python oracle: CPython ended (%s %d); restarting it\n",
                 WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    started_ = false;
    return nlohmann::json{{"skip", "CPython ended"}};
  }
  [[noreturn]] static void fail(const std::string &what) {
    std::fprintf(stderr, "python oracle: %s failed\n", what.c_str());
    std::abort();
  }

  bool started_ = false;
  pid_t pid_ = 0;
  int to_ = -1, from_ = -1;
};

} // namespace fuzzing
