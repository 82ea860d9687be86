// medfilt, medfilt2d and order_filter: SciPy's argument rules, then ndimage's rank filters with zero
// padding (mode constant, cval 0), or the dedicated 1-D median kernel (median1d.cu).

#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndimage/rank.hpp"
#include "cusci/signal/smoothing.hpp"
#include "cusci/stream.hpp"
#include "smoothing/smoothing_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {
namespace {

bool python_odd(std::int64_t k) { return ((k % 2) + 2) % 2 == 1; }

bool rank_dtype_ok(dtype dt) { return is_integer(dt) || dt == dtype::float32 || dt == dtype::float64; }

/// The 1-D kernel, with ndimage's path as the fallback when the line holds a NaN (synchronizes once
/// to read the flag).
ndarray medfilt_1d_fast(const ndarray& v, std::int64_t k) {
  ndarray y = empty(v.shape(), v.dtype());
  device_buffer<int> flag(1, get_current_stream());
  detail::median1d(v, y, static_cast<int>(k), flag.data());
  int h = 0;
  cudaStream_t stream = get_current_stream();
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&h, flag.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(stream));
  if (h == 0) return y;
  ndimage::rank_filter_options o;
  o.mode = ndimage::mode::constant;
  return ndimage::rank_filter(v, k / 2, std::vector<std::int64_t>{k}, o);
}

}  // namespace

ndarray medfilt(const ndarray& volume, const ndimage::per_axis<std::int64_t>& kernel_size) {
  CUSCI_NVTX_SCOPE("cusci::signal::medfilt");
  const std::string F = "cusci::signal::medfilt";
  ndarray v = volume.ndim() == 0 ? volume.reshape({1}) : volume;
  CUSCI_EXPECTS(rank_dtype_ok(v.dtype()), value_error,
                F + ": dtype=" + std::string(dtype_name(v.dtype())) + " is not supported by medfilt");
  const int nd = v.ndim();
  std::vector<std::int64_t> ks;
  if (kernel_size.empty()) ks.assign(static_cast<std::size_t>(nd), 3);
  else if (kernel_size.is_scalar) ks.assign(static_cast<std::size_t>(nd), kernel_size.values[0]);
  else ks = kernel_size.values;
  for (int k = 0; k < nd; ++k) {
    CUSCI_EXPECTS(static_cast<std::size_t>(k) < ks.size(), index_error,
                  F + ": kernel_size has " + std::to_string(ks.size()) + " entries for an array of dimension " +
                      std::to_string(nd) + " (index " + std::to_string(k) + " is out of bounds)");
    CUSCI_EXPECTS(python_odd(ks[static_cast<std::size_t>(k)]), value_error,
                  F + ": Each element of kernel_size should be odd., got " + std::to_string(ks[static_cast<std::size_t>(k)]));
  }
  CUSCI_EXPECTS(ks.size() == static_cast<std::size_t>(nd), runtime_error,
                F + ": sequence argument must have length equal to input rank (kernel_size has " +
                    std::to_string(ks.size()) + " entries, the array " + std::to_string(nd) + " dimensions)");
  std::int64_t size = 1;
  for (auto k : ks) {
    CUSCI_EXPECTS(k >= 1, value_error, F + ": kernel_size must be positive, got " + std::to_string(k));
    size *= k;
  }
  if (nd == 1 && (v.dtype() == dtype::float32 || v.dtype() == dtype::float64) && ks[0] >= 3 &&
      ks[0] <= detail::median1d_max_window)
    return medfilt_1d_fast(v, ks[0]);
  if (size == 1) return v.copy(order::C);  // a 1 x ... x 1 window: the identity (ndimage's rank 0 of 1)
  ndimage::rank_filter_options o;
  o.mode = ndimage::mode::constant;
  return ndimage::rank_filter(v, size / 2, ks, o);
}

ndarray medfilt2d(const ndarray& input, const ndimage::per_axis<std::int64_t>& kernel_size) {
  CUSCI_NVTX_SCOPE("cusci::signal::medfilt2d");
  const std::string F = "cusci::signal::medfilt2d";
  const dtype dt = input.dtype();
  if (!(dt == dtype::uint8 || dt == dtype::float32 || dt == dtype::float64)) return medfilt(input, kernel_size);
  std::vector<std::int64_t> ks;
  if (kernel_size.empty()) ks = {3, 3};
  else if (kernel_size.is_scalar) ks = {kernel_size.values[0], kernel_size.values[0]};
  else ks = kernel_size.values;
  for (auto k : ks)
    CUSCI_EXPECTS(python_odd(k), value_error, F + ": Each element of kernel_size should be odd., got " + std::to_string(k));
  CUSCI_EXPECTS(input.ndim() == 2, value_error,
                F + ": input must be 2-D (object of too small depth / too deep for desired array), got " +
                    std::to_string(input.ndim()) + " dimensions");
  CUSCI_EXPECTS(ks.size() == 2, value_error,
                F + ": Size must be a length two sequence, got " + std::to_string(ks.size()) + " sizes");
  CUSCI_EXPECTS(ks[0] >= 1 && ks[1] >= 1, value_error, F + ": kernel_size must be positive");
  if (ks[0] == 1 && ks[1] == 1) return input.copy(order::C);
  ndimage::rank_filter_options o;
  o.mode = ndimage::mode::constant;
  return ndimage::median_filter(input, ks, o);
}

ndarray order_filter(const ndarray& a, const array_like& domain, std::int64_t rank) {
  CUSCI_NVTX_SCOPE("cusci::signal::order_filter");
  const std::string F = "cusci::signal::order_filter";
  for (auto d : domain.shape())
    CUSCI_EXPECTS(python_odd(d), value_error,
                  F + ": Each dimension of domain argument should have an odd number of elements., got shape " +
                      cusci::detail::shape_str(domain.shape()));
  CUSCI_EXPECTS(rank_dtype_ok(a.dtype()), value_error,
                F + ": dtype=" + std::string(dtype_name(a.dtype())) + " is not supported by order_filter");
  ndimage::rank_filter_options o;
  o.footprint = domain.to_host();
  o.mode = ndimage::mode::constant;
  return ndimage::rank_filter(a, rank, {}, o);
}

}  // namespace cusci::signal
