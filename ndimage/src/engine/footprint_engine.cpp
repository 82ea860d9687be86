// The footprint engine's host side: the tile shape and the footprint's offsets for a pass (the
// extremum policies' plan and the weighted-sum plan).

#include "engine/footprint_engine.hpp"

#include <string>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"

namespace cusci::ndimage::detail {

footprint_plan make_footprint_plan(const ndarray& in, const ndarray& out, const footprint_spec& f,
                                   std::size_t itemsize) {
  const char* fn = "cusci::ndimage: footprint filter";
  const int nd = in.ndim();
  CUSCI_EXPECTS(nd >= 1 && nd <= footprint_max_dims, value_error,
                std::string(fn) + ": arrays of 1 to 16 dimensions are supported, got " + std::to_string(nd));
  CUSCI_EXPECTS(static_cast<int>(f.shape.size()) == nd, value_error,
                std::string(fn) + ": the footprint needs one dimension per array axis");
  for (auto e : f.shape)
    CUSCI_EXPECTS(e >= 1 && e <= (std::int64_t{1} << 30), value_error,
                  std::string(fn) + ": footprint extents must lie in [1, 2^30], got " + std::to_string(e));
  footprint_plan p;
  // Footprint elements inside, as per-axis indices (C order, as SciPy visits them).
  std::vector<std::int64_t> idx;
  std::int64_t n_fp = 1;
  for (auto e : f.shape) n_fp *= e;
  for (std::int64_t j = 0; j < n_fp; ++j) {
    if (!f.mask[static_cast<std::size_t>(j)]) continue;
    std::int64_t r = j;
    std::vector<std::int64_t> k(static_cast<std::size_t>(nd));
    for (int d = nd - 1; d >= 0; --d) {
      k[static_cast<std::size_t>(d)] = r % f.shape[static_cast<std::size_t>(d)];
      r /= f.shape[static_cast<std::size_t>(d)];
    }
    idx.insert(idx.end(), k.begin(), k.end());
    if (!f.weights.empty()) p.weights.push_back(f.weights[static_cast<std::size_t>(j)]);
  }
  p.n_taps = static_cast<int>(idx.size() / static_cast<std::size_t>(nd));
  CUSCI_EXPECTS(p.n_taps >= 1, value_error, std::string(fn) + ": the footprint has no element inside");

  // Tiled: arrays of at most 3 dims, padded to [z, y, x] with leading extents of 1.
  if (nd <= 3) {
    const int pad = 3 - nd;
    std::int64_t ext3[3] = {1, 1, 1}, shp[3] = {1, 1, 1};
    for (int d = 0; d < nd; ++d) {
      ext3[pad + d] = f.shape[static_cast<std::size_t>(d)];
      shp[pad + d] = in.shape()[static_cast<std::size_t>(d)];
    }
    int tz = (shp[0] > 1) ? 8 : 1, ty = (tz > 1) ? 8 : 32, tx = 32;
    if (shp[1] == 1) {  // 1-D: a block covers 256 outputs of the line
      ty = 1;
      tx = 256;
    }
    auto bytes = [&] {
      return static_cast<std::size_t>((tz + ext3[0] - 1) * (ty + ext3[1] - 1) * (tx + ext3[2] - 1)) * itemsize;
    };
    constexpr std::size_t limit = 48 * 1024;
    while (bytes() > limit && (ty > 1 || tz > 1)) {
      if (ty >= tz && ty > 1) ty /= 2;
      else tz /= 2;
    }
    while (bytes() > limit && tx > 1) tx /= 2;
    if (bytes() <= limit) {
      p.tiled = true;
      p.ndim = 3;
      p.tile[0] = tz;
      p.tile[1] = ty;
      p.tile[2] = tx;
      for (int a = 0; a < 3; ++a) {
        p.halo[a] = static_cast<int>(p.tile[a] + ext3[a] - 1);
        p.n_tiles[a] = (shp[a] + p.tile[a] - 1) / p.tile[a];
        p.shape[a] = shp[a];
      }
      p.smem_bytes = bytes();
      for (int d = 0; d < nd; ++d) {
        p.in_strides[pad + d] = in.strides()[static_cast<std::size_t>(d)];
        p.out_strides[pad + d] = out.strides()[static_cast<std::size_t>(d)];
        p.shift[pad + d] = static_cast<int>(f.shape[static_cast<std::size_t>(d)] / 2 + f.origins[static_cast<std::size_t>(d)]);
        p.mode[pad + d] = static_cast<int>(f.modes[static_cast<std::size_t>(d)]);
      }
      for (int a = 0; a < pad; ++a) p.mode[a] = static_cast<int>(ext::nearest);  // extent 1: never outside
      for (int t = 0; t < p.n_taps; ++t) {
        std::int64_t k3[3] = {0, 0, 0};
        for (int d = 0; d < nd; ++d) k3[pad + d] = idx[static_cast<std::size_t>(t * nd + d)];
        p.taps.push_back(static_cast<std::int32_t>((k3[0] * p.halo[1] + k3[1]) * p.halo[2] + k3[2]));
      }
      return p;
    }
  }
  p.tiled = false;
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    p.shape[d] = in.shape()[static_cast<std::size_t>(d)];
    p.in_strides[d] = in.strides()[static_cast<std::size_t>(d)];
    p.out_strides[d] = out.strides()[static_cast<std::size_t>(d)];
    p.shift[d] = static_cast<int>(f.shape[static_cast<std::size_t>(d)] / 2 + f.origins[static_cast<std::size_t>(d)]);
    p.mode[d] = static_cast<int>(f.modes[static_cast<std::size_t>(d)]);
  }
  for (auto v : idx) p.taps.push_back(static_cast<std::int32_t>(v));
  return p;
}

weighted_plan make_weighted_plan(const ndarray& in, const ndarray& out, const footprint_spec& f) {
  const char* fn = "cusci::ndimage: weighted footprint filter";
  const int nd = in.ndim();
  CUSCI_EXPECTS(nd >= 1 && nd <= footprint_max_dims, value_error,
                std::string(fn) + ": arrays of 1 to 16 dimensions are supported, got " + std::to_string(nd));
  CUSCI_EXPECTS(static_cast<int>(f.shape.size()) == nd, value_error,
                std::string(fn) + ": the footprint needs one dimension per array axis");
  for (auto e : f.shape)
    CUSCI_EXPECTS(e >= 1 && e <= (std::int64_t{1} << 30), value_error,
                  std::string(fn) + ": footprint extents must lie in [1, 2^30], got " + std::to_string(e));
  std::int64_t n_fp = 1;
  for (auto e : f.shape) n_fp = cusci::detail::checked_mul(n_fp, e, fn);
  CUSCI_EXPECTS(static_cast<std::int64_t>(f.mask.size()) == n_fp && static_cast<std::int64_t>(f.weights.size()) == n_fp,
                value_error, std::string(fn) + ": the mask and the weights need one value per footprint element");
  weighted_plan p;
  std::int64_t n_active = 0;
  for (std::int64_t j = 0; j < n_fp; ++j) n_active += f.mask[static_cast<std::size_t>(j)] ? 1 : 0;
  CUSCI_EXPECTS(n_active <= (std::int64_t{1} << 30), value_error,
                std::string(fn) + ": at most 2^30 nonzero weights are supported, got " + std::to_string(n_active));
  p.n_taps = static_cast<int>(n_active);
  p.all_active = n_active == n_fp;

  // Blocked: 2-D and 3-D arrays with a small box whose tile fits.
  if ((nd == 2 || nd == 3) && n_fp <= weighted_param_taps) {
    const int pad = 3 - nd;
    std::int64_t ext3[3] = {1, 1, 1}, shp[3] = {1, 1, 1};
    for (int d = 0; d < nd; ++d) {
      ext3[pad + d] = f.shape[static_cast<std::size_t>(d)];
      shp[pad + d] = in.shape()[static_cast<std::size_t>(d)];
    }
    // The strip kernel's boxes (every element a tap; see weighted_plan).
    // uint32 / uint64 inputs stay on the blocked kernel (fewer copies of the strip kernel's body).
    // 5 x 5 boxes on the strip kernel for float32 -> float32 and float64 -> float64 only (the
    // run-time-dtype variant is compiled for 3 x 3 and 3 x 3 x 3 boxes).
    const bool strip_dtype = in.dtype() != dtype::uint32 && in.dtype() != dtype::uint64;
    const bool same_float = in.dtype() == out.dtype() && (in.dtype() == dtype::float32 || in.dtype() == dtype::float64);
    const bool strip = p.all_active && strip_dtype &&
                       ((nd == 2 && ext3[1] == ext3[2] && (ext3[2] == 3 || (ext3[2] == 5 && same_float))) ||
                                        (nd == 3 && ext3[0] == 3 && ext3[1] == 3 && ext3[2] == 3));
    const int R = strip ? (nd == 3 ? weighted_strip_rows_3d : weighted_strip_rows_2d) : weighted_rows_per_thread;
    // 256 threads = 32 lanes along x times 8 groups; a thread covers R outputs along the blocked axis.
    const int bax = nd == 3 ? 0 : 1;
    const int tile[3] = {bax == 0 ? R : 1, bax == 0 ? 8 : 8 * R, 32};
    const std::int64_t halo_elems = (tile[0] + ext3[0] - 1) * (tile[1] + ext3[1] - 1) * (tile[2] + ext3[2] - 1);
    const std::size_t bytes = strip ? 0 : static_cast<std::size_t>(halo_elems) * sizeof(double);
    if (bytes <= 48 * 1024) {
      p.blocked = true;
      p.strip = strip;
      p.ndim = 3;
      p.blocked_axis = bax;
      for (int a = 0; a < 3; ++a) {
        p.ext[a] = static_cast<int>(ext3[a]);
        p.tile[a] = tile[a];
        p.halo[a] = static_cast<int>(tile[a] + ext3[a] - 1);
        p.n_tiles[a] = (shp[a] + tile[a] - 1) / tile[a];
        p.shape[a] = shp[a];
        p.mode[a] = static_cast<int>(ext::nearest);  // padded axes: extent 1, never outside
      }
      for (int d = 0; d < nd; ++d) {
        const auto ud = static_cast<std::size_t>(d);
        p.in_strides[pad + d] = in.strides()[ud];
        p.out_strides[pad + d] = out.strides()[ud];
        p.shift[pad + d] = static_cast<int>(f.shape[ud] / 2 + f.origins[ud]);
        p.mode[pad + d] = static_cast<int>(f.modes[ud]);
      }
      p.box.resize(static_cast<std::size_t>(n_fp));
      for (std::int64_t j = 0; j < n_fp; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        // A skipped element holds +0.0; a kept one is never 0 (|w| > DBL_EPSILON), so the kernel can
        // tell them apart by the bits alone.
        p.box[uj] = f.mask[uj] ? f.weights[uj] : 0.0;
      }
      p.smem_bytes = bytes;
      return p;
    }
  }
  p.blocked = false;
  p.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    const auto ud = static_cast<std::size_t>(d);
    p.shape[d] = in.shape()[ud];
    p.in_strides[d] = in.strides()[ud];
    p.out_strides[d] = out.strides()[ud];
    p.shift[d] = static_cast<int>(f.shape[ud] / 2 + f.origins[ud]);
    p.mode[d] = static_cast<int>(f.modes[ud]);
  }
  p.taps.reserve(static_cast<std::size_t>(p.n_taps) * static_cast<std::size_t>(nd));
  p.weights.reserve(static_cast<std::size_t>(p.n_taps));
  std::vector<std::int32_t> k(static_cast<std::size_t>(nd));
  for (std::int64_t j = 0; j < n_fp; ++j) {
    if (!f.mask[static_cast<std::size_t>(j)]) continue;
    std::int64_t r = j;
    for (int d = nd - 1; d >= 0; --d) {
      k[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(r % f.shape[static_cast<std::size_t>(d)]);
      r /= f.shape[static_cast<std::size_t>(d)];
    }
    p.taps.insert(p.taps.end(), k.begin(), k.end());
    p.weights.push_back(f.weights[static_cast<std::size_t>(j)]);
  }
  return p;
}

}  // namespace cusci::ndimage::detail
