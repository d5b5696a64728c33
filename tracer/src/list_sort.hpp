#pragma once
// list.sort and sorted() as CPython sorts (Objects/listobject.c, 3.11): the same comparisons in
// the same order, so that a user __lt__ that prints or raises is called as CPython calls it,
// and a comparison that raises leaves a list.sort()'s list in the order CPython leaves it (its
// runs found and reversed, its binary insertions done up to the failing one).
//
// Exact for lists under 64 items, which CPython sorts by one run and binary insertion. Longer
// lists get CPython's runs and binary insertions, then merges without galloping: the result is
// the same stable order, but the merges' comparisons differ from CPython's, and a comparison
// that raises in a merge leaves the list in another partial order than CPython's.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace tracelint::tracer {

namespace list_sort_detail {

inline std::size_t min_run(std::size_t n) {
  std::size_t r = 0;
  while (n >= 64) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

// [lo, start) is sorted; inserts each of [start, hi) where it belongs, by binary search (the
// pivot goes after equal items: stable).
template <class Less>
void binary_insertion(std::vector<std::size_t> &o, std::size_t lo, std::size_t hi,
                      std::size_t start, Less &less) {
  if (lo == start) ++start;
  for (; start < hi; ++start) {
    std::size_t l = lo, r = start, pivot = o[start];
    do {
      std::size_t p = l + ((r - l) >> 1);
      if (less(pivot, o[p]))
        r = p;
      else
        l = p + 1;
    } while (l < r);
    for (std::size_t p = start; p > l; --p)
      o[p] = o[p - 1];
    o[l] = pivot;
  }
}

// The length of the run at lo: ascending (a[i] >= a[i-1]) or strictly descending.
template <class Less>
std::size_t count_run(const std::vector<std::size_t> &o, std::size_t lo, std::size_t hi,
                      bool &descending, Less &less) {
  descending = false;
  if (lo + 1 == hi) return 1;
  std::size_t n = 2;
  if (less(o[lo + 1], o[lo])) {
    descending = true;
    for (std::size_t i = lo + 2; i < hi && less(o[i], o[i - 1]); ++i)
      ++n;
  } else {
    for (std::size_t i = lo + 2; i < hi && !less(o[i], o[i - 1]); ++i)
      ++n;
  }
  return n;
}

// Merges the sorted [lo, mid) and [mid, hi) in place, stably. A comparison that raises leaves
// every item in place (the left run's rest copied back into the gap), as CPython's merges do.
template <class Less>
void merge_runs(std::vector<std::size_t> &o, std::size_t lo, std::size_t mid, std::size_t hi,
                Less &less) {
  std::vector<std::size_t> left(o.begin() + static_cast<std::ptrdiff_t>(lo),
                                o.begin() + static_cast<std::ptrdiff_t>(mid));
  std::size_t i = 0, j = mid, dest = lo;
  try {
    while (i < left.size() && j < hi)
      o[dest++] = less(o[j], left[i]) ? o[j++] : left[i++];
  } catch (...) {
    std::copy(left.begin() + static_cast<std::ptrdiff_t>(i), left.end(),
              o.begin() + static_cast<std::ptrdiff_t>(dest));
    throw;
  }
  std::copy(left.begin() + static_cast<std::ptrdiff_t>(i), left.end(),
            o.begin() + static_cast<std::ptrdiff_t>(dest));
}

template <class Less> void forward_sort(std::vector<std::size_t> &o, Less &less) {
  const std::size_t n = o.size();
  if (n < 2) return;
  const std::size_t minrun = min_run(n);
  std::vector<std::size_t> run_ends;
  for (std::size_t lo = 0; lo < n;) {
    bool descending = false;
    std::size_t len = count_run(o, lo, n, descending, less);
    if (descending)
      std::reverse(o.begin() + static_cast<std::ptrdiff_t>(lo),
                   o.begin() + static_cast<std::ptrdiff_t>(lo + len));
    if (len < minrun) {
      std::size_t force = std::min(minrun, n - lo);
      binary_insertion(o, lo, lo + force, lo + len, less);
      len = force;
    }
    lo += len;
    run_ends.push_back(lo);
  }
  for (std::size_t r = 1; r < run_ends.size(); ++r)
    merge_runs(o, 0, run_ends[r - 1], run_ends[r], less);
}

} // namespace list_sort_detail

// Sorts the indices in order by less(x, y) (x's key < y's), as CPython: with reverse, the list
// is reversed, sorted forward and reversed again (stable both ways, < alone compared). less
// may throw: order is then left as CPython leaves the list, and the exception propagates.
template <class Less> void cpython_sort(std::vector<std::size_t> &order, bool reverse, Less less) {
  if (reverse) std::reverse(order.begin(), order.end());
  try {
    list_sort_detail::forward_sort(order, less);
  } catch (...) {
    if (reverse) std::reverse(order.begin(), order.end());
    throw;
  }
  if (reverse) std::reverse(order.begin(), order.end());
}

} // namespace tracelint::tracer
