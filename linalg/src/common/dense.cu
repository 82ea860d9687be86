// Strided gathers into library layouts, triangle clearing, and the cuSOLVER paths for n > 32.

#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <algorithm>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;

template <class T>
__global__ void gather_kernel(const char* src, strided_indexer bix, std::int64_t sr, std::int64_t sc,
                              std::int64_t nbatch, std::int64_t rows, std::int64_t cols, int mode, bool lower,
                              bool check, bool col_major, T* dst, int* status) {
  const std::int64_t per = rows * cols;
  const std::int64_t total = nbatch * per;
  bool bad = false;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t bi = e / per, r = e - bi * per;
    std::int64_t i, j;
    if (col_major) {
      j = r / rows;
      i = r - j * rows;
    } else {
      i = r / cols;
      j = r - i * cols;
    }
    dst[e] = structured_elem<T>(src + bix.offset(bi), sr, sc, i, j, mode, lower, bad);
  }
  if (check && bad) status[0] = 1;
}

template <class T>
__global__ void zero_triangle_kernel(T* c, std::int64_t nbatch, std::int64_t n, bool zero_below) {
  const std::int64_t per = n * n, total = nbatch * per;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = e % per, i = r / n, j = r - i * n;
    if (zero_below ? i > j : i < j) c[e] = T(0);
  }
}

/// ptrs[b] = base + b * stride (bytes).
__global__ void fill_ptrs_kernel(char* base, std::int64_t stride, std::int64_t nbatch, void** ptrs) {
  CUSCI_LINALG_GRID_LOOP(b, nbatch) ptrs[b] = base + b * stride;
}

template <class T>
__global__ void divide_kernel(T* x, std::int64_t count, const T* a0) {
  const T d = *a0;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    x[e] = x[e] / d;
}

template <class T>
void lu_solve_t(std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, T* A, T* B, int* info) {
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>();
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm.get(), n, n, dt, A, n, dt, &dev, &hst));
  workspace ws(dev, hst);
  device_buffer<std::int64_t> ipiv(static_cast<std::size_t>(n));
  device_buffer<int> rs_info(1);
  for (std::int64_t b = 0; b < nbatch; ++b) {
    T* Ab = A + b * n * n;
    T* Bb = B + b * n * nrhs;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm.get(), n, n, dt, Ab, n, ipiv.data(), dt, ws.dptr(),
                                                    ws.device_bytes, ws.hptr(), ws.host.size(), info + b));
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrs)(h, prm.get(), CUBLAS_OP_N, n, nrhs, dt, Ab, n, ipiv.data(), dt, Bb,
                                                    n, rs_info.data()));
  }
}

template <class T>
void potrf_t(std::int64_t nbatch, std::int64_t n, T* A, int* info, bool lower, std::int64_t nrhs, T* B) {
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>();
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  std::size_t dev = 0, hst = 0;
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXpotrf_bufferSize)(h, prm.get(), uplo, n, dt, A, n, dt, &dev, &hst));
  workspace ws(dev, hst);
  device_buffer<int> rs_info(1);
  for (std::int64_t b = 0; b < nbatch; ++b) {
    T* Ab = A + b * n * n;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXpotrf)(h, prm.get(), uplo, n, dt, Ab, n, dt, ws.dptr(), ws.device_bytes,
                                                    ws.hptr(), ws.host.size(), info + b));
    if (B)
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXpotrs)(h, prm.get(), uplo, n, nrhs, dt, Ab, n, dt, B + b * n * nrhs, n,
                                                      rs_info.data()));
  }
}

}  // namespace

device_buffer<void*> pointer_array(void* base, std::int64_t stride_bytes, std::int64_t nbatch) {
  device_buffer<void*> ptrs(static_cast<std::size_t>(nbatch));
  fill_ptrs_kernel<<<grid_for(nbatch), 256, 0, get_current_stream()>>>(static_cast<char*>(base), stride_bytes, nbatch,
                                                                       ptrs.data());
  CUSCI_CHECK_LAUNCH();
  return ptrs;
}

void gather(dtype t, const batch_view& src, std::int64_t nbatch, std::int64_t rows, std::int64_t cols,
            fill_mode mode, bool lower, bool check, bool col_major, void* dst, int* status) {
  const std::int64_t total = nbatch * rows * cols;
  if (total == 0) return;
  const strided_indexer bix = batch_indexer(src);
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gather_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(
        static_cast<const char*>(src.data), bix, src.s_row, src.s_col, nbatch, rows, cols, static_cast<int>(mode),
        lower, check, col_major, static_cast<T*>(dst), status);
    CUSCI_CHECK_LAUNCH();
  });
}

void zero_triangle(dtype t, void* c, std::int64_t nbatch, std::int64_t n, bool zero_below) {
  const std::int64_t total = nbatch * n * n;
  if (total == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    zero_triangle_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(static_cast<T*>(c), nbatch, n,
                                                                                zero_below);
    CUSCI_CHECK_LAUNCH();
  });
}

void divide_by_scalar(dtype t, void* x, std::int64_t count, const void* a0) {
  if (count == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    divide_kernel<T><<<grid_for(count), 256, 0, get_current_stream()>>>(static_cast<T*>(x), count,
                                                                         static_cast<const T*>(a0));
    CUSCI_CHECK_LAUNCH();
  });
}

void lib_lu_solve(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, void* A, void* B, int* info) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    lu_solve_t<T>(nbatch, n, nrhs, static_cast<T*>(A), static_cast<T*>(B), info);
  });
}

void lib_chol_solve(dtype t, std::int64_t nbatch, std::int64_t n, std::int64_t nrhs, void* A, void* B, int* info,
                    bool lower) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    potrf_t<T>(nbatch, n, static_cast<T*>(A), info, lower, nrhs, static_cast<T*>(B));
  });
}

void lib_potrf(dtype t, std::int64_t nbatch, std::int64_t n, void* A, int* info, bool lower) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    potrf_t<T>(nbatch, n, static_cast<T*>(A), info, lower, 0, static_cast<T*>(nullptr));
  });
}

}  // namespace cusci::linalg::detail
