#pragma once
// Seeded random calls of the op registry's ltorch symbols for the differential test of the shape
// rules (tests/test_shape_differential.cpp): shapes of rank 0-5 with dims from {0, 1, 2, 3, 5},
// broadcasting partners (and, now and then, shapes that do not broadcast), dtypes, Python numbers
// as operands (literals, or inputs: IntegerProxy names under symbolic values), and each op's
// own arguments (dims, keepdim, sizes, keys). One recipe per ltorch symbol, by its name.
#include "tracelint/tracer/tracer.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace test {

using Shape = std::vector<int64_t>;

// One drawn call: the inputs it takes and the expression of its body.
class Draw {
public:
  explicit Draw(uint64_t seed) : rng_(seed) {}

  int below(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }
  template <class T> T pick(const std::vector<T> &choices) {
    return choices[static_cast<std::size_t>(below(static_cast<int>(choices.size())))];
  }

  int64_t dim() { return pick<int64_t>({0, 1, 2, 3, 5}); }
  Shape shape(int min_rank = 0, int max_rank = 5);
  // A shape that broadcasts with s (its dims or 1, right-aligned, of any rank), and in one case
  // of eight one drawn without regard to s, which may not.
  Shape partner(const Shape &s);
  // A dim index of a tensor of this rank, negative half of the time; for rank 0, 0 or -1.
  int64_t axis(std::size_t rank);
  // A random permutation of 0..rank-1.
  std::vector<int64_t> permutation(std::size_t rank);

  // Adds a tensor input and returns its name; range: "lo..hi" for integer values.
  std::string tensor(const std::string &dtype, const Shape &s, const std::string &range = "");
  // Adds a Python value as an input (an int or a tuple of ints becomes IntegerProxy names under
  // symbolic values) and returns its name.
  std::string value(const std::string &literal);
  // An int in the source or as an input, by chance.
  std::string integer(int64_t v);

  std::vector<tracelint::tracer::ArgSpec> args;

private:
  std::mt19937_64 rng_;
};

std::string shape_text(const Shape &s);
// "(2, 3)", "(5,)", "()".
std::string tuple_text(const std::vector<int64_t> &xs);

struct Recipe {
  std::function<std::string(Draw &)> draw; // the body's expression; inputs added to the Draw
  // Uses a function PyTorch 1.13 lacks: CPython runs it with the oracle's documented polyfill.
  bool polyfill = false;
};

// Every recipe, by the ltorch symbol it calls ("ltorch.mul").
const std::map<std::string, Recipe> &shape_recipes();

} // namespace test
