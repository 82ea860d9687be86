// Structuring elements of cusci::ndimage (SciPy 1.18.1's generate_binary_structure and
// iterate_structure, scipy/ndimage/_morphology.py), computed on the host: structures are small.

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/morphology.hpp"
#include "filters/filter_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {

host_array generate_binary_structure(int rank, int connectivity) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::generate_binary_structure");
  if (connectivity < 1) connectivity = 1;
  if (rank < 1) {
    host_array h(dtype::bool_, shape_t{});
    *h.data_as<bool>() = true;
    return h;
  }
  const shape_t shape(static_cast<std::size_t>(rank), 3);
  const std::int64_t n = cusci::detail::checked_size(shape, "cusci::ndimage::generate_binary_structure");
  host_array h(dtype::bool_, shape);
  bool* p = h.data_as<bool>();
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t rem = i;
    int dist = 0;  // squared distance from the centre: the number of coordinates that are not 1
    for (int d = 0; d < rank; ++d) {
      if (rem % 3 != 1) ++dist;
      rem /= 3;
    }
    p[i] = dist <= connectivity;
  }
  return h;
}

host_array iterate_structure(const host_array& structure, std::int64_t iterations) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::iterate_structure");
  if (iterations < 2) {
    host_array h(structure.dtype(), structure.shape());
    if (structure.nbytes()) std::memcpy(h.data(), structure.data(), structure.nbytes());
    return h;
  }
  const host_array s = structure.astype(dtype::bool_);
  const int nd = s.ndim();
  const shape_t& ss = s.shape();
  const std::int64_t ni = iterations - 1;
  shape_t shape(ss.size());
  for (std::size_t d = 0; d < ss.size(); ++d)
    shape[d] = cusci::detail::checked_mul(ni, ss[d] > 0 ? ss[d] - 1 : 0, "cusci::ndimage::iterate_structure") + ss[d];
  const std::int64_t n = cusci::detail::checked_size(shape, "cusci::ndimage::iterate_structure");
  host_array out(dtype::bool_, shape);
  if (n == 0) return out;
  // The points of the structure relative to its centre (size // 2): SciPy dilates the structure,
  // placed at ni * (size // 2), ni times by itself; dilation by a structure adds its points p - c.
  std::vector<std::vector<std::int64_t>> pts;
  const bool* sp = s.data_as<bool>();
  for (std::int64_t k = 0; k < s.size(); ++k) {
    if (!sp[k]) continue;
    std::vector<std::int64_t> c(static_cast<std::size_t>(nd));
    std::int64_t rem = k;
    for (int d = nd - 1; d >= 0; --d) {
      c[static_cast<std::size_t>(d)] = rem % ss[static_cast<std::size_t>(d)];
      rem /= ss[static_cast<std::size_t>(d)];
    }
    pts.push_back(std::move(c));
  }
  std::vector<std::int64_t> cstride(static_cast<std::size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d)
    cstride[static_cast<std::size_t>(d)] = cstride[static_cast<std::size_t>(d) + 1] * shape[static_cast<std::size_t>(d) + 1];
  std::vector<std::uint8_t> cur(static_cast<std::size_t>(n), 0), next;
  for (const auto& p : pts) {
    std::int64_t idx = 0;
    for (int d = 0; d < nd; ++d)
      idx += (ni * (ss[static_cast<std::size_t>(d)] / 2) + p[static_cast<std::size_t>(d)]) * cstride[static_cast<std::size_t>(d)];
    cur[static_cast<std::size_t>(idx)] = 1;
  }
  std::vector<std::int64_t> coord(static_cast<std::size_t>(nd));
  for (std::int64_t it = 0; it < ni; ++it) {
    next.assign(static_cast<std::size_t>(n), 0);
    for (std::int64_t i = 0; i < n; ++i) {
      if (!cur[static_cast<std::size_t>(i)]) continue;
      std::int64_t rem = i;
      for (int d = nd - 1; d >= 0; --d) {
        coord[static_cast<std::size_t>(d)] = rem % shape[static_cast<std::size_t>(d)];
        rem /= shape[static_cast<std::size_t>(d)];
      }
      for (const auto& p : pts) {
        std::int64_t idx = 0;
        bool inside = true;
        for (int d = 0; d < nd && inside; ++d) {
          const std::int64_t c = coord[static_cast<std::size_t>(d)] + p[static_cast<std::size_t>(d)] -
                                 ss[static_cast<std::size_t>(d)] / 2;
          inside = c >= 0 && c < shape[static_cast<std::size_t>(d)];
          idx += c * cstride[static_cast<std::size_t>(d)];
        }
        if (inside) next[static_cast<std::size_t>(idx)] = 1;
      }
    }
    cur.swap(next);
  }
  bool* o = out.data_as<bool>();
  for (std::int64_t i = 0; i < n; ++i) o[i] = cur[static_cast<std::size_t>(i)] != 0;
  return out;
}

std::pair<host_array, std::vector<std::int64_t>> iterate_structure(const host_array& structure,
                                                                   std::int64_t iterations,
                                                                   const per_axis<std::int64_t>& origin) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::iterate_structure");
  host_array s = iterate_structure(structure, iterations);
  std::vector<std::int64_t> o =
      detail::expand(origin, static_cast<std::size_t>(structure.ndim()), "iterate_structure", "origin");
  if (iterations >= 2)
    for (auto& v : o) v *= iterations;
  return {std::move(s), std::move(o)};
}

}  // namespace cusci::ndimage
