// Kernels of the schur family: rsf2csf's Givens sweep (one block per matrix) and cdf2rdf's pairing scan and
// element-wise transform (see schur_detail.hpp).

#include <cuda_runtime_api.h>

#include <cuda/std/complex>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/indexer.cuh"
#include "schur/schur_detail.hpp"

namespace cusci::linalg::schur_detail {
namespace {

using cusci::detail::grid_for;
using zc = cuda::std::complex<double>;

template <class C>
__device__ __forceinline__ zc widen(const C& x) {
  return zc(static_cast<double>(x.real()), static_cast<double>(x.imag()));
}

/// One block per matrix: T, Z column-major n x n (element (i, j) at j * n + i).
template <class C>
__global__ void rsf2csf_kernel(C* t_all, C* z_all, std::int64_t n) {
  using R = typename C::value_type;
  C* T = t_all + static_cast<std::int64_t>(blockIdx.x) * n * n;
  C* Z = z_all + static_cast<std::int64_t>(blockIdx.x) * n * n;
  __shared__ C rot[2];  // c, s
  __shared__ int apply;
  const double eps = 2.220446049250313e-16;
  for (std::int64_t m = n - 1; m > 0; --m) {
    if (threadIdx.x == 0) {
      const zc a = widen(T[(m - 1) * n + (m - 1)]), b = widen(T[m * n + (m - 1)]), c = widen(T[(m - 1) * n + m]),
               d = widen(T[m * n + m]);
      apply = cuda::std::abs(c) > eps * (cuda::std::abs(a) + cuda::std::abs(d));
      if (apply) {
        // eigenvalues of [[a, b], [c, d]]: the one with the larger imaginary part (LAPACK's order for a
        // real 2x2 block's conjugate pair), minus d
        const zc tr2 = (a + d) * 0.5, disc = cuda::std::sqrt((a - d) * (a - d) * 0.25 + b * c);
        const zc l1 = tr2 + disc, l2 = tr2 - disc;
        const zc mu0 = (l1.imag() >= l2.imag() ? l1 : l2) - d;
        const double r = hypot(cuda::std::abs(mu0), cuda::std::abs(c));
        const zc cc = mu0 / r, s = c / r;
        rot[0] = C(static_cast<R>(cc.real()), static_cast<R>(cc.imag()));
        rot[1] = C(static_cast<R>(s.real()), static_cast<R>(s.imag()));
      }
    }
    __syncthreads();
    if (apply) {
      const C cc = rot[0], s = rot[1];
      // rows m-1, m of T[:, m-1:] = G @ (...), G = [[conj(c), s], [-s, c]]
      for (std::int64_t j = m - 1 + threadIdx.x; j < n; j += blockDim.x) {
        const C x = T[j * n + m - 1], y = T[j * n + m];
        T[j * n + m - 1] = cuda::std::conj(cc) * x + s * y;
        T[j * n + m] = -s * x + cc * y;
      }
      __syncthreads();
      // columns m-1, m of T[:m+1] and Z: [x y] @ G^H, G^H = [[c, -conj(s)], [conj(s), conj(c)]]
      for (std::int64_t i = threadIdx.x; i < n + m + 1; i += blockDim.x) {
        C* M = i <= m ? T : Z;
        const std::int64_t r = i <= m ? i : i - (m + 1);
        const C x = M[(m - 1) * n + r], y = M[m * n + r];
        M[(m - 1) * n + r] = x * cc + y * cuda::std::conj(s);
        M[m * n + r] = -x * cuda::std::conj(s) + y * cuda::std::conj(cc);
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) T[(m - 1) * n + m] = C(0);
    __syncthreads();
  }
}

/// One thread per matrix: partner[k] = index of the conjugate partner of complex eigenvalue k, encoded as
/// partner + 1 for the first of a pair and -(partner + 1) for the second; 0 for real eigenvalues.
__global__ void cdf2rdf_pair_kernel(const zc* w, std::int64_t nbatch, std::int64_t n, int* partner, int* status) {
  const std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nbatch) return;
  const zc* wb = w + b * n;
  int* p = partner + b * n;
  std::int64_t open = -1;
  bool bad = false;
  for (std::int64_t k = 0; k < n; ++k) {
    const zc x = wb[k];
    if (!isfinite(x.real()) || !isfinite(x.imag())) bad = true;
    p[k] = 0;
    if (x.imag() != 0.0) {
      if (open < 0) {
        open = k;
      } else {
        p[open] = static_cast<int>(k) + 1;
        p[k] = -(static_cast<int>(open) + 1);
        open = -1;
      }
    }
  }
  if (bad) status[0] = 1;
  if (open >= 0) status[1] = 1;
}

/// Element (b, i, c) of wr and vr (C order).
__global__ void cdf2rdf_elem_kernel(const zc* w, const zc* v, std::int64_t nbatch, std::int64_t n,
                                    const int* partner, double* wr, double* vr, int* status) {
  const std::int64_t per = n * n, total = nbatch * per;
  bool bad = false;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t b = e / per, r = e - b * per, i = r / n, c = r - i * n;
    const zc* wb = w + b * n;
    const zc* vb = v + b * per;
    const int* p = partner + b * n;
    // wr: diagonal real parts; wr[j, k] = imag(w[j]), wr[k, j] = imag(w[k]) for a pair (j, k)
    double x = 0.0;
    if (i == c) x = wb[i].real();
    else if (p[i] != 0 && (p[i] > 0 ? p[i] - 1 : -p[i] - 1) == c) x = wb[i].imag();
    wr[e] = x;
    const zc vic = vb[i * n + c];
    if (!isfinite(vic.real()) || !isfinite(vic.imag())) bad = true;
    // vr = Re(v @ u): real column: Re v[:, c]; first of a pair (c, k): Re(0.5i v[:, c] - 0.5i v[:, k]);
    // second (j, c): Re(0.5 v[:, j] + 0.5 v[:, c])
    double y;
    if (p[c] == 0) {
      y = vic.real();
    } else if (p[c] > 0) {
      const zc vk = vb[i * n + (p[c] - 1)];
      y = (zc(0, 0.5) * vic - zc(0, 0.5) * vk).real();
    } else {
      const zc vj = vb[i * n + (-p[c] - 1)];
      y = 0.5 * vj.real() + 0.5 * vic.real();
    }
    vr[e] = y;
  }
  if (bad) status[0] = 1;
}

}  // namespace

void rsf2csf_device(dtype ct, std::int64_t nbatch, std::int64_t n, void* t, void* z) {
  if (nbatch == 0 || n < 2) return;
  const unsigned threads = n <= 64 ? 64u : (n <= 128 ? 128u : 256u);
  if (ct == dtype::complex64)
    rsf2csf_kernel<cuda::std::complex<float>><<<static_cast<unsigned>(nbatch), threads, 0, get_current_stream()>>>(
        static_cast<cuda::std::complex<float>*>(t), static_cast<cuda::std::complex<float>*>(z), n);
  else
    rsf2csf_kernel<zc><<<static_cast<unsigned>(nbatch), threads, 0, get_current_stream()>>>(static_cast<zc*>(t),
                                                                                           static_cast<zc*>(z), n);
  CUSCI_CHECK_LAUNCH();
}

void cdf2rdf_device(std::int64_t nbatch, std::int64_t n, const void* w, const void* v, double* wr, double* vr,
                    int* partner, int* status) {
  if (nbatch == 0 || n == 0) return;
  cudaStream_t s = get_current_stream();
  cdf2rdf_pair_kernel<<<grid_for(nbatch, 128), 128, 0, s>>>(static_cast<const zc*>(w), nbatch, n, partner, status);
  CUSCI_CHECK_LAUNCH();
  cdf2rdf_elem_kernel<<<grid_for(nbatch * n * n), 256, 0, s>>>(static_cast<const zc*>(w), static_cast<const zc*>(v),
                                                               nbatch, n, partner, wr, vr, status);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::linalg::schur_detail
