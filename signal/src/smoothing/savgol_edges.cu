// savgol_filter's "interp" edges: the first and last window_length // 2 outputs of every line are
// replaced by the least-squares polynomial fitted to the line's first / last window_length samples,
// evaluated there. The fit is linear in the samples, so each edge output is a fixed dot product with
// the window (rows designed on the host in double, savgol_design with pos = the output's position).
//
// One thread per (line, edge output); threads are ordered (outer, edge output, inner) so that for a
// non-last axis consecutive threads read consecutive inner positions (coalesced). The work is tiny
// (2 h wl multiply-adds per line) next to the convolution pass it follows.

#include <cuda_runtime.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "smoothing/smoothing_detail.hpp"

namespace cusci::signal::detail {
namespace {

template <class T>
__global__ void savgol_edge_kernel(const T* __restrict__ x, T* __restrict__ y, std::int64_t outer, std::int64_t n,
                                   std::int64_t inner, std::int64_t wl, std::int64_t h,
                                   const double* __restrict__ coef) {
  const std::int64_t per_outer = 2 * h * inner;
  const std::int64_t total = outer * per_outer;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t o = idx / per_outer;
    const std::int64_t r = idx - o * per_outer;
    const std::int64_t e = r / inner;  // 0 .. 2h - 1: left edge outputs, then right edge outputs
    const std::int64_t i = r - e * inner;
    const bool left = e < h;
    const std::int64_t start = left ? 0 : n - wl;  // first sample of the fitted window
    const std::int64_t pos = left ? e : n - h + (e - h);
    const double* c = coef + e * wl;
    const T* xs = x + (o * n + start) * inner + i;
    double acc = 0.0;
    for (std::int64_t j = 0; j < wl; ++j) acc += c[j] * static_cast<double>(xs[j * inner]);
    y[(o * n + pos) * inner + i] = static_cast<T>(acc);
  }
}

}  // namespace

void savgol_edges(const ndarray& x, ndarray& y, std::int64_t outer, std::int64_t n, std::int64_t inner,
                  std::int64_t wl, std::int64_t h, const ndarray& coef) {
  const std::int64_t total = outer * 2 * h * inner;
  if (total == 0) return;
  cudaStream_t stream = get_current_stream();
  constexpr int threads = 256;
  const std::int64_t blocks = (total + threads - 1) / threads;
  const unsigned grid = static_cast<unsigned>(blocks < 65535LL * 64 ? blocks : 65535LL * 64);
  if (x.dtype() == dtype::float32) {
    savgol_edge_kernel<float><<<grid, threads, 0, stream>>>(x.data_as<float>(), y.data_as<float>(), outer, n, inner,
                                                            wl, h, coef.data_as<double>());
  } else {
    savgol_edge_kernel<double><<<grid, threads, 0, stream>>>(x.data_as<double>(), y.data_as<double>(), outer, n,
                                                             inner, wl, h, coef.data_as<double>());
  }
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
