// The norm family's kernel: the Clarkson-Woodruff sketch product S @ A with S in row form, one thread
// per output element, each summing its row's few terms in column order (deterministic, no atomics).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "norm/norm_detail.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;

template <class T>
__global__ void cwt_kernel(const char* a, strided_indexer bix, std::int64_t sr, std::int64_t sc, std::int64_t nbatch,
                           std::int64_t k, std::int64_t d, const std::int64_t* perm, const std::int64_t* rowptr,
                           const std::int64_t* signs, T* out) {
  const std::int64_t per = k * d, total = nbatch * per;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t b = e / per, rem = e - b * per, i = rem / d, col = rem - i * d;
    const char* base = a + bix.offset(b);
    T acc = T(0);
    for (std::int64_t p = rowptr[i], end = rowptr[i + 1]; p < end; ++p) {
      const std::int64_t j = perm[p];
      const T v = load_at<T>(base, sr, sc, j, col);
      const std::int64_t s = signs[j];
      if (s == 1) acc += v;
      else if (s == -1) acc -= v;
      else acc += T(static_cast<real_t<T>>(s)) * v;
    }
    out[e] = acc;
  }
}

}  // namespace

void cwt_apply(dtype t, const batch_view& a, std::int64_t nbatch, std::int64_t k, std::int64_t d,
               const std::int64_t* perm, const std::int64_t* rowptr, const std::int64_t* signs, void* out) {
  const std::int64_t total = nbatch * k * d;
  if (total == 0) return;
  const strided_indexer bix = batch_indexer(a);
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    cwt_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(static_cast<const char*>(a.data), bix, a.s_row,
                                                                      a.s_col, nbatch, k, d, perm, rowptr, signs,
                                                                      static_cast<T*>(out));
    CUSCI_CHECK_LAUNCH();
  };
  switch (t) {
    case dtype::int64: run(cusci::detail::type_tag<std::int64_t>{}); break;
    case dtype::float64: run(cusci::detail::type_tag<double>{}); break;
    case dtype::complex128: run(cusci::detail::type_tag<cuda::std::complex<double>>{}); break;
    default:
      throw type_error("cusci::linalg::clarkson_woodruff_transform: internal dtype must be int64, float64 or "
                       "complex128");
  }
}

}  // namespace cusci::linalg::detail
