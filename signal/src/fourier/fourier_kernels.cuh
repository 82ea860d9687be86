#pragma once
// (internal) Device helpers of the fourier family: complex element types as cuFFT lays them out
// (float2 / double2) and the 2-D grid of the row kernels (y: rows, x: positions in a row, both
// grid-stride loops, so any row count and length fit).
#include <cstdint>

#include <cuda_runtime.h>

namespace cusci::signal::detail {

template <class R> struct cplx_of;
template <> struct cplx_of<float> { using type = float2; };
template <> struct cplx_of<double> { using type = double2; };
template <class R> using cplx_t = typename cplx_of<R>::type;

template <class C> __device__ __forceinline__ C cmul(C a, C b) {
  C r;
  r.x = a.x * b.x - a.y * b.y;
  r.y = a.x * b.y + a.y * b.x;
  return r;
}
template <class C, class R> __device__ __forceinline__ C cscale(C a, R s) {
  a.x *= s;
  a.y *= s;
  return a;
}

/// Grid for the row kernels: x covers one row's `len` positions with `block` threads a block, y the rows.
inline dim3 row_grid(std::int64_t len, std::int64_t rows, int block = 256) {
  std::int64_t gx = (len + block - 1) / block;
  if (gx < 1) gx = 1;
  if (gx > (1LL << 24)) gx = 1LL << 24;
  std::int64_t gy = rows < 1 ? 1 : rows;
  if (gy > 65535) gy = 65535;
  // Keep the total block count moderate when rows are many and short.
  while (gx > 1 && gx * gy > (1LL << 24)) gx = (gx + 1) / 2;
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), 1);
}

#define CUSCI_FOURIER_ROWS(r, rows) \
  for (std::int64_t r = blockIdx.y; r < (rows); r += gridDim.y)
#define CUSCI_FOURIER_COLS(k, len)                                                                      \
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < (len); \
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

}  // namespace cusci::signal::detail
