// The running-mean policy of the axis-pass engine (uniform_filter1d, uniform_filter): SciPy's
// NI_UniformFilter1D, which needs each line in order, runs as its own line kernel on the engine's
// pass_params: one thread per line (consecutive threads on consecutive inner positions, so a pass
// along a non-last axis is coalesced), the sum of the first window, then one add of
// (entering - leaving) and one division by size per output, in double with IEEE operations: bit for
// bit SciPy's values, so integer outputs truncate as SciPy's. float32 -> float32 and float64 -> float64 take the
// engine's fast weights kernels where they apply (weights 1 / size: within a few ulps of SciPy).

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"

namespace cusci::ndimage::detail {
namespace {

template <class Tout>
__global__ void __launch_bounds__(block_threads) running_mean_kernel(const pass_params p, std::int64_t n_lines) {
  const double size = static_cast<double>(p.K);
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < n_lines;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t o = t / p.n_inner;
    const std::int64_t n = t - o * p.n_inner;
    const char* base = p.in + p.in_outer.offset(o) + p.in_inner.offset(n);
    char* obase = p.out + p.out_outer.offset(o) + p.out_inner.offset(n);
    // iline[j] = ext(j - shift): the window of output l is iline[l .. l + K). The window sum is
    // carried and divided for each output (SciPy 1.18's order; exact sums for integer inputs, so
    // integer outputs truncate exact quotients).
    double sum = 0.0;
    for (int k = 0; k < p.K; ++k) sum = __dadd_rn(sum, load_ext<any_in, double>(p, base, k - p.shift));
    store_value<Tout>(obase, __ddiv_rn(sum, size));
    for (std::int64_t l = 1; l < p.L; ++l) {
      const double enter = load_ext<any_in, double>(p, base, l - 1 + p.K - p.shift);
      const double leave = load_ext<any_in, double>(p, base, l - 1 - p.shift);
      sum = __dadd_rn(sum, __dsub_rn(enter, leave));
      store_value<Tout>(obase + l * p.out_sa, __ddiv_rn(sum, size));
    }
  }
}

template <class Tout>
void launch_running_mean(const pass_params& p, cudaStream_t stream) {
  const std::int64_t n_lines = p.n_outer * p.n_inner;
  running_mean_kernel<Tout><<<blocks_for((n_lines + block_threads - 1) / block_threads), block_threads, 0, stream>>>(
      p, n_lines);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void uniform_pass(const ndarray& in, const ndarray& out, int axis, std::int64_t size, ext mode, double cval,
                  std::int64_t origin) {
  if (out.size() == 0) return;
  if (size <= 64 && in.dtype() == out.dtype() && (in.dtype() == dtype::float32 || in.dtype() == dtype::float64)) {
    const std::vector<double> w(static_cast<std::size_t>(size), 1.0 / static_cast<double>(size));
    if (fast_correlate_pass(in, out, axis, w, mode, cval, origin)) return;
  }
  const pass_params p = make_pass_params(in, out, axis, static_cast<int>(size), origin, mode, cval);
  cudaStream_t stream = get_current_stream();
  switch (out.dtype()) {
    case dtype::bool_:  // SciPy stores the truncated byte into a bool
    case dtype::uint8: return launch_running_mean<std::uint8_t>(p, stream);
    case dtype::int8: return launch_running_mean<std::int8_t>(p, stream);
    case dtype::int16: return launch_running_mean<std::int16_t>(p, stream);
    case dtype::uint16: return launch_running_mean<std::uint16_t>(p, stream);
    case dtype::int32: return launch_running_mean<std::int32_t>(p, stream);
    case dtype::uint32: return launch_running_mean<std::uint32_t>(p, stream);
    case dtype::int64: return launch_running_mean<std::int64_t>(p, stream);
    case dtype::uint64: return launch_running_mean<std::uint64_t>(p, stream);
    case dtype::float32: return launch_running_mean<float>(p, stream);
    case dtype::float64: return launch_running_mean<double>(p, stream);
    default: break;
  }
  throw type_error("cusci::ndimage: output dtype " + std::string(dtype_name(out.dtype())) +
                   " is not supported by the kernel");
}

}  // namespace cusci::ndimage::detail
