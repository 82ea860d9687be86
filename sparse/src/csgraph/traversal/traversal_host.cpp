// Host algorithms of the csgraph traversal family (see traversal_internal.hpp): strongly connected
// components (iterative Tarjan, SciPy's numbering), SciPy's depth-first order, reference
// breadth-first order and weak components, and reconstruct_path's tree building.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "csgraph/traversal/traversal_internal.hpp"

namespace cusci::sparse::csgraph::detail {

namespace {
constexpr std::int32_t kNull = -9999;
}

host_adjacency transpose_host(const host_adjacency& g) {
  host_adjacency t;
  t.n = g.n;
  t.indptr.assign(static_cast<std::size_t>(g.n) + 1, 0);
  for (std::int32_t c : g.indices) ++t.indptr[static_cast<std::size_t>(c) + 1];
  for (std::int32_t j = 0; j < g.n; ++j) t.indptr[j + 1] += t.indptr[j];
  t.indices.resize(g.indices.size());
  std::vector<std::int64_t> next(t.indptr.begin(), t.indptr.end() - 1);
  for (std::int32_t i = 0; i < g.n; ++i)
    for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) t.indices[next[g.indices[e]]++] = i;
  return t;
}

// Iterative Tarjan. A component receives the next number when its root finishes (the order of
// SciPy's implementation, which differs from classic Tarjan only in bookkeeping). index[v] = -1:
// unvisited; done[v]: assigned to a component.
std::int32_t scc_host(const host_adjacency& g, std::int32_t* labels) {
  const std::int32_t n = g.n;
  if (n == 0) return 0;
  std::vector<std::int32_t> index(n, -1), low(n, 0);
  std::vector<char> on_stack(n, 0);
  std::vector<std::int64_t> pos(n, 0);
  std::vector<std::int32_t> call, comp;
  call.reserve(64);
  comp.reserve(64);
  std::int32_t counter = 0, n_comp = 0;
  for (std::int32_t r = 0; r < n; ++r) {
    if (index[r] != -1) continue;
    index[r] = low[r] = counter++;
    pos[r] = g.indptr[r];
    call.push_back(r);
    comp.push_back(r);
    on_stack[r] = 1;
    while (!call.empty()) {
      const std::int32_t v = call.back();
      if (pos[v] < g.indptr[v + 1]) {
        const std::int32_t w = g.indices[pos[v]++];
        if (index[w] == -1) {
          index[w] = low[w] = counter++;
          pos[w] = g.indptr[w];
          call.push_back(w);
          comp.push_back(w);
          on_stack[w] = 1;
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
      } else {
        call.pop_back();
        if (!call.empty()) {
          const std::int32_t u = call.back();
          low[u] = std::min(low[u], low[v]);
        }
        if (low[v] == index[v]) {
          std::int32_t x;
          do {
            x = comp.back();
            comp.pop_back();
            on_stack[x] = 0;
            labels[x] = n_comp;
          } while (x != v);
          ++n_comp;
        }
      }
    }
  }
  return n_comp;
}

std::int32_t weak_cc_host(const host_adjacency& g, std::int32_t* labels) {
  const std::int32_t n = g.n;
  std::vector<std::int32_t> parent(n);
  for (std::int32_t i = 0; i < n; ++i) parent[i] = i;
  auto find = [&](std::int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::int32_t i = 0; i < n; ++i)
    for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) {
      std::int32_t a = find(i), b = find(g.indices[e]);
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      parent[b] = a;
    }
  std::int32_t n_comp = 0;
  std::vector<std::int32_t> id(n, -1);
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t r = find(i);
    if (id[r] < 0) id[r] = n_comp++;
    labels[i] = id[r];
  }
  return n_comp;
}

std::int64_t dfs_host(const host_adjacency& g, const host_adjacency* gt, std::int32_t start, std::int32_t* order,
                      std::int32_t* pred) {
  const std::int32_t n = g.n;
  std::fill(pred, pred + n, kNull);
  std::vector<char> seen(n, 0);
  std::vector<std::int32_t> stack;
  stack.push_back(start);
  seen[start] = 1;
  order[0] = start;
  std::int64_t len = 1;
  // Next unvisited neighbour of v in SciPy's order (the CSR row, then the transposed row). The rows
  // are rescanned from their start each time, as SciPy does; already-seen prefixes are skipped
  // cheaply by remembering how far each row has been scanned (seen marks never revert).
  std::vector<std::int64_t> p1(n, -1), p2(n, -1);
  while (!stack.empty()) {
    const std::int32_t v = stack.back();
    if (p1[v] < 0) {
      p1[v] = g.indptr[v];
      if (gt) p2[v] = gt->indptr[v];
    }
    std::int32_t next = -1;
    while (p1[v] < g.indptr[v + 1]) {
      const std::int32_t c = g.indices[p1[v]];
      if (!seen[c]) {
        next = c;
        break;
      }
      ++p1[v];
    }
    if (next < 0 && gt) {
      while (p2[v] < gt->indptr[v + 1]) {
        const std::int32_t c = gt->indices[p2[v]];
        if (!seen[c]) {
          next = c;
          break;
        }
        ++p2[v];
      }
    }
    if (next < 0) {
      stack.pop_back();
      continue;
    }
    seen[next] = 1;
    pred[next] = v;
    order[len++] = next;
    stack.push_back(next);
  }
  return len;
}

std::int64_t bfs_host(const host_adjacency& g, const host_adjacency* gt, std::int32_t start, std::int32_t* order,
                      std::int32_t* pred) {
  const std::int32_t n = g.n;
  std::fill(pred, pred + n, kNull);
  order[0] = start;
  std::int64_t head = 0, tail = 1;
  auto visit = [&](std::int32_t p, std::int32_t c) {
    if (c == start || pred[c] != kNull) return;
    pred[c] = p;
    order[tail++] = c;
  };
  while (head < tail) {
    const std::int32_t p = order[head++];
    for (std::int64_t e = g.indptr[p]; e < g.indptr[p + 1]; ++e) visit(p, g.indices[e]);
    if (gt)
      for (std::int64_t e = gt->indptr[p]; e < gt->indptr[p + 1]; ++e) visit(p, gt->indices[e]);
  }
  return tail;
}

void reconstruct_path_host(const host_adjacency& g, const std::vector<double>& data, const std::int64_t* pred,
                           bool directed, std::vector<std::int32_t>& t_indptr, std::vector<std::int32_t>& t_indices,
                           std::vector<double>& t_data) {
  const std::int32_t n = g.n;
  t_indptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::int32_t c = 0; c < n; ++c)
    if (pred[c] >= 0) ++t_indptr[pred[c] + 1];
  for (std::int32_t i = 0; i < n; ++i) t_indptr[i + 1] += t_indptr[i];
  t_indices.resize(t_indptr[n]);
  t_data.resize(t_indptr[n]);
  std::vector<std::int32_t> next(t_indptr.begin(), t_indptr.end() - 1);
  // The sum of the stored entries [a, b] (SciPy's csr fancy indexing sums duplicates); 0 when none.
  auto entry = [&](std::int32_t a, std::int32_t b) {
    double s = 0.0;
    for (std::int64_t e = g.indptr[a]; e < g.indptr[a + 1]; ++e)
      if (g.indices[e] == b) s += data[e];
    return s;
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (std::int32_t c = 0; c < n; ++c) {
    if (pred[c] < 0) continue;
    const auto p = static_cast<std::int32_t>(pred[c]);
    double w = entry(p, c);
    if (!directed) {
      double w2 = entry(c, p);
      if (w == 0.0) w = inf;
      if (w2 == 0.0) w2 = inf;
      w = std::min(w, w2);  // np.minimum: NaN propagates
      if (std::isnan(entry(p, c)) || std::isnan(entry(c, p))) w = std::numeric_limits<double>::quiet_NaN();
    }
    const std::int32_t k = next[p]++;
    t_indices[k] = c;
    t_data[k] = w;
  }
}

}  // namespace cusci::sparse::csgraph::detail
