// Host algorithms of the csgraph "flow" family: Reverse Cuthill-McKee, Hopcroft-Karp, the sparse
// shortest-augmenting-path assignment, Edmonds-Karp and Dinic maximum flows. Plain C++ (no device
// code), so that the host test can run them without a GPU.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "csgraph/flow/flow_detail.hpp"
#include "cusci/error.hpp"

namespace cusci::sparse::csgraph::detail {

// ---- Reverse Cuthill-McKee ----------------------------------------------------------------------
std::vector<std::int32_t> scipy_sum_order(const host_csr& a, const host_csr& sum) {
  const std::int64_t n = a.nr;
  // a's transpose by a stable counting sort: row i lists the rows of a holding i, ascending (as
  // SciPy's csr_tocsc, which makes the transposed operand of the sum).
  std::vector<std::int64_t> tptr(n + 1, 0);
  for (const std::int32_t j : a.indices) ++tptr[j + 1];
  for (std::int64_t i = 0; i < n; ++i) tptr[i + 1] += tptr[i];
  std::vector<std::int32_t> tind(a.indices.size());
  {
    std::vector<std::int64_t> next(tptr.begin(), tptr.end() - 1);
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t e = a.indptr[r]; e < a.indptr[r + 1]; ++e) tind[next[a.indices[e]]++] = static_cast<std::int32_t>(r);
  }
  std::vector<std::int64_t> seen(n, -1), member(n, -1);
  std::vector<std::int32_t> first;  // row i's columns in order of first appearance
  std::vector<std::int32_t> out(sum.indices.size());
  for (std::int64_t i = 0; i < n; ++i) {
    first.clear();
    const auto visit = [&](std::int32_t j) {
      if (seen[j] != i) {
        seen[j] = i;
        first.push_back(j);
      }
    };
    for (std::int64_t e = a.indptr[i]; e < a.indptr[i + 1]; ++e) visit(a.indices[e]);
    for (std::int64_t e = tptr[i]; e < tptr[i + 1]; ++e) visit(tind[e]);
    const std::int64_t b = sum.indptr[i], e = sum.indptr[i + 1];
    for (std::int64_t k = b; k < e; ++k) member[sum.indices[k]] = i;
    std::int64_t o = b;
    for (auto it = first.rbegin(); it != first.rend() && o < e; ++it)
      if (member[*it] == i) {
        member[*it] = -1;
        out[o++] = *it;
      }
    // Entries of the sum outside a's pattern cannot occur; keep any in their given order.
    for (std::int64_t k = b; k < e && o < e; ++k)
      if (member[sum.indices[k]] == i) {
        member[sum.indices[k]] = -1;
        out[o++] = sum.indices[k];
      }
  }
  return out;
}

std::vector<std::int32_t> rcm_host(const host_csr& g) {
  const std::int64_t n = g.nr;
  std::vector<std::int64_t> degree(n);
  for (std::int64_t i = 0; i < n; ++i) {
    degree[i] = g.indptr[i + 1] - g.indptr[i];
    for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e)
      if (g.indices[e] == i) {  // the diagonal counts twice, as SciPy's _node_degrees
        ++degree[i];
        break;
      }
  }
  std::vector<std::int32_t> seeds(n);
  std::iota(seeds.begin(), seeds.end(), 0);
  std::stable_sort(seeds.begin(), seeds.end(), [&](std::int32_t a, std::int32_t b) { return degree[a] < degree[b]; });
  std::vector<char> visited(n, 0);
  std::vector<std::int32_t> order;
  order.reserve(n);
  for (std::int64_t z = 0; z < n && static_cast<std::int64_t>(order.size()) < n; ++z) {
    const std::int32_t seed = seeds[z];
    if (visited[seed]) continue;
    visited[seed] = 1;
    order.push_back(seed);
    std::size_t level_start = order.size() - 1, level_end = order.size();
    while (level_start < level_end) {
      for (std::size_t ii = level_start; ii < level_end; ++ii) {
        const std::int32_t i = order[ii];
        const std::size_t first_new = order.size();
        for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) {
          const std::int32_t j = g.indices[e];
          if (!visited[j]) {
            visited[j] = 1;
            order.push_back(j);
          }
        }
        // SciPy's insertion sort by degree (stable).
        for (std::size_t k = first_new + 1; k < order.size(); ++k) {
          const std::int32_t v = order[k];
          std::size_t l = k;
          while (l > first_new && degree[v] < degree[order[l - 1]]) {
            order[l] = order[l - 1];
            --l;
          }
          order[l] = v;
        }
      }
      level_start = level_end;
      level_end = order.size();
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// ---- Hopcroft-Karp (SciPy's variant: BFS layers, then a stack DFS from each free row) -------------
hk_result hopcroft_karp_host(const host_csr& g) {
  const std::int64_t nr = g.nr, nc = g.nc;
  constexpr std::int64_t INF = std::numeric_limits<std::int64_t>::max() / 4;
  const auto aux = static_cast<std::int32_t>(nr);  // the auxiliary row every free column is matched to
  hk_result r;
  r.x.assign(nr, -1);
  r.y.assign(nc, aux);
  std::vector<std::int64_t> dist(nr + 1);
  std::vector<std::int32_t> q(nr + 1), parents(nr), stack;
  while (true) {
    std::int64_t head = 0, tail = 0;
    for (std::int64_t v = 0; v < nr; ++v) {
      if (r.x[v] < 0) {
        dist[v] = 0;
        q[tail++] = static_cast<std::int32_t>(v);
      } else {
        dist[v] = INF;
      }
    }
    dist[nr] = INF;
    while (head < tail) {
      const std::int32_t v = q[head++];
      if (dist[v] < dist[nr]) {
        for (std::int64_t e = g.indptr[v]; e < g.indptr[v + 1]; ++e) {
          const std::int32_t yu = r.y[g.indices[e]];
          if (dist[yu] == INF) {
            dist[yu] = dist[v] + 1;
            q[tail++] = yu;
          }
        }
      }
    }
    if (dist[nr] == INF) break;
    for (std::int64_t w = 0; w < nr; ++w) {
      if (r.x[w] >= 0) continue;
      bool done = false;
      stack.assign(1, static_cast<std::int32_t>(w));
      while (!stack.empty() && !done) {
        std::int32_t v = stack.back();
        stack.pop_back();
        for (std::int64_t e = g.indptr[v]; e < g.indptr[v + 1]; ++e) {
          std::int32_t u = g.indices[e];
          const std::int32_t yu = r.y[u];
          if (dist[v] < INF && dist[yu] == dist[v] + 1) {
            if (yu == aux) {
              done = true;
              while (true) {  // flip the path back to w
                dist[v] = INF;
                const std::int32_t u_old = r.x[v];
                r.y[u] = v;
                r.x[v] = u;
                u = u_old;
                if (v == w) break;
                v = parents[v];
              }
              break;
            }
            stack.push_back(yu);
            parents[yu] = v;
          }
        }
      }
    }
  }
  r.size = 0;
  for (auto& yy : r.y) {
    if (yy == aux) yy = -1;
    else ++r.size;
  }
  return r;
}

// ---- minimum-weight full matching: successive shortest augmenting paths ---------------------------
std::vector<std::int32_t> min_weight_matching_host(const host_csr& g, const std::string& fn) {
  const std::int64_t nr = g.nr, nc = g.nc;
  constexpr double INF = std::numeric_limits<double>::infinity();
  // Potentials with non-negative reduced costs c - u - v: u = the row minima, v = 0. Free columns keep
  // v = 0 throughout (only columns finalized before the free one that ends a search change), so the
  // reduced distance to every free column is its true distance minus the same constant.
  std::vector<double> v(nc, 0.0), u(nr, INF);
  for (std::int64_t i = 0; i < nr; ++i) {
    for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) u[i] = std::min(u[i], g.data[e]);
    if (u[i] == INF) throw value_error(fn + ": no full matching exists");
  }
  std::vector<std::int32_t> x(nr, -1), y(nc, -1);
  std::vector<std::int64_t> xedge(nr, -1);   // the entry of the matched edge of each row
  std::vector<double> dist(nc, INF);
  std::vector<std::int64_t> pred_edge(nc, -1);  // the entry through which each column was reached
  std::vector<char> done(nc, 0);
  std::vector<std::int32_t> touched, finals;
  using item = std::pair<double, std::int32_t>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> heap;
  std::vector<std::int32_t> rowpred(nc);  // the row whose edge reached each column
  for (std::int64_t i0 = 0; i0 < nr; ++i0) {
    touched.clear();
    finals.clear();
    heap = {};
    auto relax = [&](std::int32_t i, double base) {
      for (std::int64_t e = g.indptr[i]; e < g.indptr[i + 1]; ++e) {
        const std::int32_t j = g.indices[e];
        if (done[j]) continue;
        const double nd = base + (g.data[e] - u[i] - v[j]);
        if (nd < dist[j]) {
          if (dist[j] == INF) touched.push_back(j);
          dist[j] = nd;
          pred_edge[j] = e;
          rowpred[j] = i;
          heap.emplace(nd, j);
        }
      }
    };
    relax(static_cast<std::int32_t>(i0), 0.0);
    std::int32_t jend = -1;
    double D = 0;
    while (!heap.empty()) {
      const auto [d, j] = heap.top();
      heap.pop();
      if (done[j] || d > dist[j]) continue;
      done[j] = 1;
      finals.push_back(j);
      if (y[j] < 0) {
        jend = j;
        D = d;
        break;
      }
      relax(y[j], d);
    }
    if (jend < 0) throw value_error(fn + ": no full matching exists");
    // Potentials: finalized columns v += dist - D; rows of the tree u += D - dist(their column).
    u[i0] += D;
    for (const std::int32_t j : finals) {
      if (j == jend) continue;
      v[j] += dist[j] - D;
      u[y[j]] += D - dist[j];
    }
    // Augment along the predecessor edges.
    std::int32_t j = jend;
    while (true) {
      const std::int32_t i = rowpred[j];
      const std::int32_t jprev = x[i];
      x[i] = j;
      xedge[i] = pred_edge[j];
      y[j] = i;
      if (i == i0) break;
      j = jprev;
    }
    for (const std::int32_t t : touched) {
      dist[t] = INF;
      done[t] = 0;
    }
  }
  return x;
}

// ---- maximum flow --------------------------------------------------------------------------------
flow_host_result max_flow_host(std::int64_t n, const std::vector<std::int64_t>& indptr,
                               const std::vector<std::int32_t>& indices, const std::vector<std::int32_t>& cap,
                               std::int32_t source, std::int32_t sink, bool dinic) {
  // SciPy's residual structure: for every pair (i, j), max(count(i, j), count(j, i)) entries in row i,
  // the stored ones first (capacities in storage order), then zero-capacity reverse entries; rows
  // sorted by column; the k-th entry of (i, j) is paired with the k-th entry of (j, i).
  using ent = std::pair<std::int32_t, std::int32_t>;  // (column, capacity)
  std::vector<std::vector<ent>> rows(n);
  std::vector<std::vector<std::int32_t>> trows(n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t e = indptr[i]; e < indptr[i + 1]; ++e) {
      rows[i].emplace_back(indices[e], cap[e]);
      trows[indices[e]].push_back(static_cast<std::int32_t>(i));
    }
  flow_host_result r;
  r.indptr.assign(n + 1, 0);
  std::vector<std::int64_t> rcap;
  for (std::int64_t i = 0; i < n; ++i) {
    auto& a = rows[i];
    std::stable_sort(a.begin(), a.end(), [](const ent& p, const ent& q) { return p.first < q.first; });
    auto& t = trows[i];
    std::sort(t.begin(), t.end());
    std::size_t p = 0, q = 0;
    while (p < a.size() || q < t.size()) {
      const std::int32_t j = p < a.size() && (q >= t.size() || a[p].first <= t[q]) ? a[p].first : t[q];
      std::size_t ca = 0, ct = 0;
      while (p < a.size() && a[p].first == j) {
        r.indices.push_back(j);
        rcap.push_back(a[p].second);
        ++p;
        ++ca;
      }
      while (q < t.size() && t[q] == j) {
        ++q;
        ++ct;
      }
      for (std::size_t k = ca; k < ct; ++k) {
        r.indices.push_back(j);
        rcap.push_back(0);
      }
    }
    r.indptr[i + 1] = static_cast<std::int64_t>(r.indices.size());
  }
  const std::int64_t m = static_cast<std::int64_t>(r.indices.size());
  std::vector<std::int64_t> rev(m), tail(m);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t e = r.indptr[i]; e < r.indptr[i + 1];) {
      const std::int32_t j = r.indices[e];
      std::int64_t len = 0;
      while (e + len < r.indptr[i + 1] && r.indices[e + len] == j) ++len;
      const auto b = r.indices.begin();
      const std::int64_t pj = std::lower_bound(b + r.indptr[j], b + r.indptr[j + 1], static_cast<std::int32_t>(i)) - b;
      for (std::int64_t k = 0; k < len; ++k) {
        rev[e + k] = pj + k;
        tail[e + k] = i;
      }
      e += len;
    }
  }
  std::vector<std::int64_t> flow(m, 0);
  auto res = [&](std::int64_t e) { return rcap[e] - flow[e]; };
  auto push = [&](std::int64_t e, std::int64_t d) {
    flow[e] += d;
    flow[rev[e]] -= d;
  };
  std::vector<std::int64_t> level(n), pred(n);
  std::vector<std::int32_t> queue(n);
  // BFS over residual edges; returns whether the sink is reached (levels and predecessor edges set).
  auto bfs = [&]() {
    std::fill(level.begin(), level.end(), -1);
    std::int64_t head = 0, qt = 0;
    queue[qt++] = source;
    level[source] = 0;
    while (head < qt) {
      const std::int32_t v = queue[head++];
      for (std::int64_t e = r.indptr[v]; e < r.indptr[v + 1]; ++e) {
        const std::int32_t w = r.indices[e];
        if (level[w] < 0 && res(e) > 0) {
          level[w] = level[v] + 1;
          pred[w] = e;
          if (!dinic && w == sink) return true;
          queue[qt++] = w;
        }
      }
    }
    return level[sink] >= 0;
  };
  std::int64_t total = 0;
  if (!dinic) {
    while (bfs()) {
      std::int64_t d = std::numeric_limits<std::int64_t>::max();
      for (std::int32_t w = sink; w != source; w = static_cast<std::int32_t>(tail[pred[w]])) d = std::min(d, res(pred[w]));
      for (std::int32_t w = sink; w != source; w = static_cast<std::int32_t>(tail[pred[w]])) push(pred[w], d);
      total += d;
    }
  } else {
    std::vector<std::int64_t> it(n), path;
    while (bfs()) {
      for (std::int64_t v = 0; v < n; ++v) it[v] = r.indptr[v];
      path.clear();
      std::int32_t v = source;
      while (true) {
        if (v == sink) {
          std::int64_t d = std::numeric_limits<std::int64_t>::max();
          for (const auto e : path) d = std::min(d, res(e));
          for (const auto e : path) push(e, d);
          total += d;
          path.clear();
          v = source;
          continue;
        }
        bool advanced = false;
        for (; it[v] < r.indptr[v + 1]; ++it[v]) {
          const std::int64_t e = it[v];
          const std::int32_t w = r.indices[e];
          if (level[w] == level[v] + 1 && res(e) > 0) {
            path.push_back(e);
            v = w;
            advanced = true;
            break;
          }
        }
        if (advanced) continue;
        if (v == source) break;
        level[v] = -1;  // dead end
        const std::int64_t e = path.back();
        path.pop_back();
        v = static_cast<std::int32_t>(tail[e]);
        ++it[v];
      }
    }
  }
  r.value = total;
  r.flow.resize(m);
  for (std::int64_t e = 0; e < m; ++e) r.flow[e] = static_cast<std::int32_t>(flow[e]);
  return r;
}

}  // namespace cusci::sparse::csgraph::detail
