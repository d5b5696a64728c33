#pragma once
// A generator's body, run on a thread of its own so that it can stop at a `yield` in the middle
// of its statements and go on later: the consumer's thread and the body's take turns, exactly
// one of them running at any time, so the interpreter's state is never touched by both.
#include "tracelint/tracer/object.hpp"

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace tracelint::tracer {

// Thrown at a suspended yield of a generator that is dropped unfinished: its body unwinds
// without running anything more (no Python code runs while a generator is freed).
struct GeneratorAbandoned {};

class Coroutine {
public:
  // live: how many bodies are started and not yet ended or dropped, this one's included once
  // it starts (each holds a thread).
  Coroutine(std::function<void()> body, std::shared_ptr<int> live)
      : body_(std::move(body)), live_(std::move(live)) {}
  ~Coroutine();
  Coroutine(const Coroutine &) = delete;
  Coroutine &operator=(const Coroutine &) = delete;

  // Runs the body (from its start, or from its last yield) until it yields or ends; false when
  // it has ended. What the body raised is rethrown here, in the consumer's thread.
  bool resume();
  // In the body's thread: gives `value` to the consumer and waits to be resumed.
  void suspend(Obj value);
  bool finished() const { return finished_; }
  bool started() const { return started_; }
  Obj take_value() { return std::move(value_); }

private:
  void run();

  std::function<void()> body_;
  std::shared_ptr<int> live_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable turn_;
  bool body_turn_ = false, started_ = false, finished_ = false, abandon_ = false;
  Obj value_;
  std::exception_ptr error_;
};

} // namespace tracelint::tracer
