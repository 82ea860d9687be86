// Device side of the n-dimensional COO arrays: one kernel that linearizes a selection of coordinate
// rows (C order) and unravels the linear index over a new shape. reshape, transpose, the 2-D views
// used by sums and products, and their inverses are all this kernel with different arguments.

#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "coo_nd/coo_nd_detail.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

constexpr int kMaxDims = 64;

// Passed by value (1.3 KB of kernel parameters, within the 4 KB limit).
struct remap_params {
  std::int64_t nnz;
  int n_sel, n_out;
  int sel_axis[kMaxDims];
  std::int64_t sel_size[kMaxDims];
  std::int64_t out_size[kMaxDims];
};

template <class I, class O>
__global__ void k_remap(const I* __restrict__ in, O* __restrict__ out, remap_params p) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < p.nnz; k += stride) {
    // L < prod(sel_size) <= 2^63 - 1: no overflow at any step (each partial product is smaller).
    std::int64_t lin = 0;
    for (int j = 0; j < p.n_sel; ++j)
      lin = lin * p.sel_size[j] + static_cast<std::int64_t>(in[static_cast<std::int64_t>(p.sel_axis[j]) * p.nnz + k]);
    for (int j = p.n_out - 1; j > 0; --j) {
      const std::int64_t d = p.out_size[j];  // >= 1 whenever nnz > 0
      const std::int64_t q = lin / d;
      out[static_cast<std::int64_t>(j) * p.nnz + k] = static_cast<O>(lin - q * d);
      lin = q;
    }
    out[k] = static_cast<O>(lin);
  }
}

template <class T>
struct tag {
  using type = T;
};
template <class F>
void by_index(dtype t, F&& f) {
  if (t == dtype::int32) return f(tag<std::int32_t>{});
  if (t == dtype::int64) return f(tag<std::int64_t>{});
  throw type_error("cusci::sparse::coo_array: internal index dtype must be int32 or int64, got " +
                   std::string(dtype_name(t)));
}

}  // namespace

ndarray coo_nd_remap(const ndarray& coords, const std::vector<int>& sel_axes, const shape_t& sel_shape,
                     const shape_t& out_shape, dtype out_dt) {
  const std::int64_t nnz = coords.ndim() == 2 ? coords.shape(1) : 0;
  const int n_out = static_cast<int>(out_shape.size());
  CUSCI_EXPECTS(n_out >= 1 && n_out <= kMaxDims && sel_axes.size() <= static_cast<std::size_t>(kMaxDims) &&
                    sel_axes.size() == sel_shape.size(),
                value_error, "cusci::sparse::coo_array: internal remap of unsupported rank");
  ndarray out = empty({static_cast<std::int64_t>(n_out), nnz}, out_dt);
  if (nnz == 0) return out;
  CUSCI_EXPECTS(coords.is_c_contiguous(), value_error, "cusci::sparse::coo_array: internal coords not contiguous");
  remap_params p{};
  p.nnz = nnz;
  p.n_sel = static_cast<int>(sel_axes.size());
  p.n_out = n_out;
  for (int j = 0; j < p.n_sel; ++j) {
    CUSCI_EXPECTS(sel_axes[j] >= 0 && sel_axes[j] < coords.shape(0), value_error,
                  "cusci::sparse::coo_array: internal remap axis out of range");
    p.sel_axis[j] = sel_axes[j];
    p.sel_size[j] = sel_shape[j];
  }
  for (int j = 0; j < n_out; ++j) p.out_size[j] = out_shape[j];
  cudaStream_t s = get_current_stream();
  by_index(coords.dtype(), [&](auto itag) {
    using I = typename decltype(itag)::type;
    by_index(out_dt, [&](auto otag) {
      using O = typename decltype(otag)::type;
      k_remap<I, O><<<cusci::detail::grid_for(nnz), 256, 0, s>>>(coords.data_as<I>(), out.data_as<O>(), p);
      CUSCI_CHECK_LAUNCH();
    });
  });
  return out;
}

}  // namespace cusci::sparse::detail
