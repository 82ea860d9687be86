// watershed_ift's SciPy-order path: SciPy's bucket queue (ni_measure.c, NI_WatershedIFT) rewritten
// for the host, so that the result is SciPy's for every input, ties and queue order included.
//
// The queue: one doubly linked list per cost 0..max(values). Markers enter bucket 0 in C order, the
// first at the list's head, later object markers (label >= 0 in the output dtype) at the head and
// background markers (< 0) at the tail. Buckets are emptied in increasing cost, always from the head;
// a popped element e is settled and offers each unsettled neighbour p = e + offset (any flat index in
// [0, n): SciPy does not stop at row ends) the cost max(cost[e], |value[p] - value[e]|); on a strict
// improvement p takes e's label and cost, leaves its bucket and enters the new one (head for an object
// label, tail for a background label). As in SciPy, an element with neither neighbour link counts as
// not queued and is not unlinked, which leaves its old bucket's head and tail pointing at it; later
// insertions into that bucket follow those stale pointers. Reproducing this is what makes the result
// SciPy's where its queue order departs from the least-cost labelling.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "segmentation/watershed_kernels.hpp"

namespace cusci::ndimage::detail {

void watershed_queue_host(const std::uint16_t* values, const std::int32_t* is_mark, std::int64_t* labels,
                          std::int64_t n, const std::vector<std::int64_t>& offsets) {
  if (n <= 0) return;
  using idx = std::int64_t;
  constexpr idx none = -1;
  idx maxval = 0;
  for (idx i = 0; i < n; ++i) maxval = std::max<idx>(maxval, values[i]);
  std::vector<idx> first(static_cast<std::size_t>(maxval + 1), none), last(first);
  std::vector<idx> next(static_cast<std::size_t>(n), none), prev(next);
  std::vector<std::uint32_t> cost(static_cast<std::size_t>(n), static_cast<std::uint32_t>(maxval + 1));
  std::vector<std::uint8_t> done(static_cast<std::size_t>(n), 0);
  for (idx j = 0; j < n; ++j) {
    if (is_mark[j] == 0) continue;
    cost[j] = 0;
    if (first[0] == none) {
      first[0] = last[0] = j;
    } else if (is_mark[j] > 0) {  // SciPy tests the sign of the marker's C int here
      next[j] = first[0];
      prev[first[0]] = j;
      first[0] = j;
    } else {
      prev[j] = last[0];
      next[last[0]] = j;
      last[0] = j;
    }
  }
  for (idx c = 0; c <= maxval; ++c) {
    while (first[c] != none) {
      const idx e = first[c];
      first[c] = next[e];
      if (first[c] != none) prev[first[c]] = none;
      prev[e] = next[e] = none;
      done[e] = 1;
      for (const idx o : offsets) {
        const idx p = e + o;
        if (p < 0 || p >= n || done[p]) continue;
        const std::uint32_t w = static_cast<std::uint32_t>(std::abs(int(values[p]) - int(values[e])));
        const std::uint32_t mx = std::max(cost[e], w);
        const std::uint32_t pc = cost[p];
        if (mx >= pc) continue;
        cost[p] = mx;
        labels[p] = labels[e];
        if (next[p] != none || prev[p] != none) {
          const idx a = prev[p], b = next[p];
          if (first[pc] == p) first[pc] = b;
          if (last[pc] == p) last[pc] = a;
          if (a != none) next[a] = b;
          if (b != none) prev[b] = a;
        }
        if (labels[p] < 0) {
          prev[p] = last[mx];
          next[p] = none;
          if (last[mx] != none) next[last[mx]] = p;
          last[mx] = p;
          if (first[mx] == none) first[mx] = p;
        } else {
          next[p] = first[mx];
          prev[p] = none;
          if (first[mx] != none) prev[first[mx]] = p;
          first[mx] = p;
          if (last[mx] == none) last[mx] = p;
        }
      }
    }
  }
}

}  // namespace cusci::ndimage::detail
