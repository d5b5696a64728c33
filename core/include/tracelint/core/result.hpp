#pragma once
// A std::expected-style result for library boundaries (C++20 has no std::expected).
#include <string>
#include <utility>
#include <variant>

namespace tracelint {

struct Error {
  std::string message;
  std::string path;  // empty when the error is not about a file
  unsigned line = 0; // 1-based; 0 when unknown
  unsigned column = 0;
};

template <class T> class Result {
public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T &value() & { return std::get<0>(state_); }
  const T &value() const & { return std::get<0>(state_); }
  T &&value() && { return std::get<0>(std::move(state_)); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  const Error &error() const { return std::get<1>(state_); }

private:
  std::variant<T, Error> state_;
};

} // namespace tracelint
