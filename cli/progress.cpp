#include "progress.hpp"

#include "tracelint/core/escape.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tracelint::cli {

namespace {
constexpr std::chrono::milliseconds kRedrawEvery{100};

std::size_t terminal_width() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

void write_stderr(const std::string &text) {
  // Unbuffered, as std::cerr is; a failed write of a progress line is not worth reporting.
  if (std::fwrite(text.data(), 1, text.size(), stderr) != text.size()) std::clearerr(stderr);
  std::fflush(stderr);
}
} // namespace

std::string progress_text(const tracer::ProgressEvent &event, double seconds_in_phase,
                          std::size_t width) {
  // The phase names what was asked for (--module CLASS): no control character reaches the tty.
  std::string text = "tracelint: " + printable(event.phase);
  if (event.done && event.total && event.done <= event.total)
    text += ": " + std::to_string(event.done) + "/" + std::to_string(event.total);
  else if (event.done)
    text += ": " + std::to_string(event.done);
  if (seconds_in_phase >= 1)
    text += " (" + std::to_string(static_cast<long long>(seconds_in_phase)) + " s)";
  if (width > 1 && text.size() >= width) text.resize(width - 1);
  return text;
}

ProgressLine::ProgressLine() {
  const char *term = std::getenv("TERM");
  enabled_ = ::isatty(STDERR_FILENO) && !(term && std::string_view(term) == "dumb");
}

tracer::ProgressFn ProgressLine::callback() {
  if (!enabled_) return {};
  return [this](const tracer::ProgressEvent &event) { update(event); };
}

void ProgressLine::update(const tracer::ProgressEvent &event) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  bool new_phase = event.phase != phase_;
  if (new_phase) {
    phase_ = std::string(event.phase);
    phase_start_ = now;
  } else if (now - last_draw_ < kRedrawEvery) {
    return;
  }
  last_draw_ = now;
  std::chrono::duration<double> in_phase = now - phase_start_;
  // \r and erase-line: the new text replaces the old whatever their lengths.
  write_stderr("\r\033[K" + progress_text(event, in_phase.count(), terminal_width()));
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  write_stderr("\r\033[K");
  drawn_ = false;
  phase_.clear();
}

} // namespace tracelint::cli
