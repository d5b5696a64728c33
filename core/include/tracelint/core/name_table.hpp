#pragma once
// A map from names to small states, compact enough for the tens of thousands of names of a
// large trace: keys are copied into blocks of characters, entries live in a deque (neither
// moves as the table grows), and only the open-addressing index of 4-byte slots is rebuilt.
// Used by the rules' name analysis and the tracer's dead-code elimination (an implementation
// detail, so not a public header).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace tracelint {

template <class State> class NameTable {
public:
  const State *find(std::string_view name) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = hash(name) & mask(); slots_[i]; i = (i + 1) & mask()) {
      const Entry &e = entries_[slots_[i] - 1];
      if (e.key == name) return &e.state;
    }
    return nullptr;
  }
  State *find(std::string_view name) {
    return const_cast<State *>(static_cast<const NameTable *>(this)->find(name));
  }

  // The state of `name`, default-constructed when it is new.
  State &operator[](std::string_view name) {
    if (State *s = find(name)) return *s;
    if ((entries_.size() + 1) * 4 > slots_.size() * 3) grow();
    entries_.push_back({intern(name), State{}});
    std::size_t i = hash(name) & mask();
    while (slots_[i])
      i = (i + 1) & mask();
    slots_[i] = static_cast<uint32_t>(entries_.size());
    return entries_.back().state;
  }

  // As a set of names: the state is left default.
  void insert(std::string_view name) { (*this)[name]; }
  bool contains(std::string_view name) const { return find(name) != nullptr; }

  std::size_t size() const { return entries_.size(); }

private:
  struct Entry {
    std::string_view key; // into blocks_
    State state;
  };

  static std::size_t hash(std::string_view name) { return std::hash<std::string_view>{}(name); }
  std::size_t mask() const { return slots_.size() - 1; }

  void grow() {
    std::vector<uint32_t> slots(slots_.empty() ? 64 : slots_.size() * 2, 0);
    slots_.swap(slots);
    for (uint32_t n = 1; n <= entries_.size(); ++n) {
      std::size_t i = hash(entries_[n - 1].key) & mask();
      while (slots_[i])
        i = (i + 1) & mask();
      slots_[i] = n;
    }
  }

  std::string_view intern(std::string_view name) {
    constexpr std::size_t kBlock = 16 * 1024;
    if (blocks_.empty() || used_ + name.size() > block_size_) {
      block_size_ = std::max(kBlock, name.size());
      blocks_.push_back(std::make_unique<char[]>(block_size_));
      used_ = 0;
    }
    char *at = blocks_.back().get() + used_;
    std::copy(name.begin(), name.end(), at);
    used_ += name.size();
    return {at, name.size()};
  }

  std::deque<Entry> entries_;
  std::vector<uint32_t> slots_; // 0: empty, else 1 + the index of an entry
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_size_ = 0, used_ = 0;
};

} // namespace tracelint
