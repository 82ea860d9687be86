// The svd family's device work in one translation unit: the one-block-a-matrix one-sided Jacobi SVD
// kernel (Hestenes' method) for batches of matrices that fit in shared memory, the cuSOLVER path
// (Xgesvdp / Xgesvd, one call a matrix) for larger ones, and the relayout and diagonal kernels.
//
// One-sided Jacobi (Hestenes 1958; Demmel & Veselic, "Jacobi's method is more accurate than QR", SIAM J.
// Matrix Anal. Appl. 13, 1992): the working matrix W (the input, or its conjugate transpose when it is
// wide, so that W is r x c with r >= c) is rotated from the right by plane rotations J_pq until its
// columns are mutually orthogonal: W J_1 J_2 ... = P diag(sigma), V = J_1 J_2 ... . The column norms are
// the singular values, the normalized columns the left vectors, V the right ones. Columns are paired
// in round-robin order (c/2 disjoint pairs a round, c - 1 rounds a sweep), one warp a pair, the block
// synchronizing between rounds; a pair is rotated when |w_p^H w_q| > tol ||w_p|| ||w_q|| with
// tol = sqrt(r) * eps (LAPACK ?gesvj's sqrt(m) * ulp threshold, ulp = 2 * unit roundoff: twice the
// summation error of the warp's dot products, so that rounding alone cannot keep a sweep rotating), and sweeps stop when a sweep rotates nothing.
// The matrix is first scaled by a power of two so that its largest entry lies in [1, 2) (no overflow or
// underflow in the squared norms). Left vectors of zero singular values, and the extra columns of the
// full U (r > c), are completed to an orthonormal basis in the kernel by Gram-Schmidt (twice) on the
// unit vector e_i whose row of the current basis has the least weight.
//
// Work per matrix and sweep: c(c-1)/2 pairs x (3 dot products + 2 rotations of length r, + 1 rotation
// of length c for V) ~ c^2 (4r + 3c) real multiply-adds (x4 complex); data: (r c + c^2) elements in
// shared memory, read from global memory once and written once. (256, 64, 64) float32: ~7 sweeps x 1.8
// Mflop x 256 = 3.2 Gflop, 32 KiB of shared memory a block, 512 threads.

#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/kernels.cuh"
#include "common/libcalls.cuh"
#include "svd/svd_engine.hpp"

namespace cusci::linalg::detail {
namespace {

using cusci::detail::grid_for;
using i64 = std::int64_t;

template <class T>
__device__ __forceinline__ real_t<T> abs2(const T& v) {
  if constexpr (is_complex_v<T>) return v.real() * v.real() + v.imag() * v.imag();
  else return v * v;
}

template <class R>
__device__ __forceinline__ R warp_sum(R v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return __shfl_sync(0xffffffffu, v, 0);  // one value for every lane (xor orders differ by rounding)
}

template <class T>
__device__ __forceinline__ T warp_sum_t(T v) {
  if constexpr (is_complex_v<T>) return T(warp_sum(v.real()), warp_sum(v.imag()));
  else return warp_sum(v);
}

/// Sum (op 0) or max (op 1) over the block, in double; every thread gets the result.
__device__ double block_reduce(double v, int op, double* red) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const double w = __shfl_xor_sync(0xffffffffu, v, o);
    v = op == 0 ? v + w : fmax(v, w);
  }
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double acc = red[0];
    for (int w = 1; w < nw; ++w) acc = op == 0 ? acc + red[w] : fmax(acc, red[w]);
    red[32] = acc;
  }
  __syncthreads();
  return red[32];
}

/// Index of the smallest value over the block (ties: the smallest index).
__device__ int block_argmin(double v, int idx, double* red, int* redi) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const double w = __shfl_xor_sync(0xffffffffu, v, o);
    const int wi = __shfl_xor_sync(0xffffffffu, idx, o);
    if (w < v || (w == v && wi < idx)) {
      v = w;
      idx = wi;
    }
  }
  __syncthreads();
  if (lane == 0) {
    red[warp] = v;
    redi[warp] = idx;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < nw; ++w)
      if (red[w] < red[0] || (red[w] == red[0] && redi[w] < redi[0])) {
        red[0] = red[w];
        redi[0] = redi[w];
      }
    redi[32] = redi[0];
  }
  __syncthreads();
  return redi[32];
}

struct jacobi_params {
  const char* src;
  strided_indexer bix;
  i64 sr, sc;
  int m, n;    // the input's shape
  int r, c;    // the working matrix's (r >= c)
  bool trans;  // W = A^H (m < n)
  bool uv, full, check;
  int max_sweeps;
  double tol;
  void* s;
  void* u;
  void* vh;
  int* info;
  int* status;
};

template <class T>
__global__ void __launch_bounds__(512) jacobi_svd_kernel(jacobi_params p) {
  using R = real_t<T>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ double red[33];
  __shared__ int redi[33];
  __shared__ int s_rot;
  const int r = p.r, c = p.c;
  T* W = reinterpret_cast<T*>(smem_raw);
  T* V = W + static_cast<i64>(r) * c;
  T* H = V + (p.uv ? static_cast<i64>(c) * c : 0);
  R* sig = reinterpret_cast<R*>(H + (p.uv ? r : 0));
  int* rank = reinterpret_cast<int*>(sig + c);
  const i64 b = blockIdx.x;
  const char* base = p.src + p.bix.offset(b);
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;

  // --- load (column-major W), finiteness, largest entry ----------------------------------------------
  double amax = 0;
  int bad = 0;
  const i64 rc = static_cast<i64>(r) * c;
  for (i64 e = tid; e < rc; e += nt) {
    const int i = static_cast<int>(e % r), j = static_cast<int>(e / r);
    const T v = p.trans ? conj_elem(load_at<T>(base, p.sr, p.sc, j, i)) : load_at<T>(base, p.sr, p.sc, i, j);
    if (!is_finite_elem(v)) bad = 1;
    else amax = fmax(amax, static_cast<double>(abs1(v)));
    W[e] = v;
  }
  bad = __syncthreads_or(bad);
  amax = block_reduce(amax, 1, red);
  if (bad && tid == 0 && p.check) p.status[0] = 1;
  int scale_exp = 0;
  if (amax > 0 && !bad) {
    scale_exp = ilogb(amax);
    const R f = static_cast<R>(ldexp(1.0, -scale_exp));
    for (i64 e = tid; e < rc; e += nt) W[e] = W[e] * f;
  }
  if (p.uv)
    for (i64 e = tid; e < static_cast<i64>(c) * c; e += nt) V[e] = T(e % c == e / c ? 1 : 0);
  __syncthreads();

  // --- sweeps ----------------------------------------------------------------------------------------
  const R tol = static_cast<R>(p.tol);
  const int nc = c + (c & 1), L = nc - 1, npairs = nc / 2;
  bool converged = c < 2 || bad;
  int sweep = 0;
  for (; sweep < p.max_sweeps && !converged; ++sweep) {
    if (tid == 0) s_rot = 0;
    __syncthreads();
    for (int round = 0; round < L; ++round) {
      for (int k = warp; k < npairs; k += nw) {
        int pc, qc;
        if (k == 0) {
          pc = 0;
          qc = round % L + 1;
        } else {
          pc = (round + k) % L + 1;
          qc = (round + L - k) % L + 1;
        }
        if (pc >= c || qc >= c) continue;
        T* wp = W + static_cast<i64>(pc) * r;
        T* wq = W + static_cast<i64>(qc) * r;
        R al = 0, be = 0;
        T ga = T(0);
        for (int i = lane; i < r; i += 32) {
          const T x = wp[i], y = wq[i];
          al += abs2(x);
          be += abs2(y);
          ga += conj_elem(x) * y;
        }
        al = warp_sum(al);
        be = warp_sum(be);
        ga = warp_sum_t(ga);
        const R g = absval(ga);
        if (!(g > tol * sqrt(al) * sqrt(be))) continue;
        const R zeta = (be - al) / (2 * g);
        const R t = copysign(R(1), zeta) / (fabs(zeta) + hypot(R(1), zeta));
        const R cs = 1 / sqrt(1 + t * t), sn = cs * t;
        const T e = ga / g;  // e^{i phi}
        const T sq = conj_elem(e) * sn, sp = e * sn;
        for (int i = lane; i < r; i += 32) {
          const T x = wp[i], y = wq[i];
          wp[i] = x * cs - sq * y;
          wq[i] = sp * x + y * cs;
        }
        if (p.uv) {
          T* vp = V + static_cast<i64>(pc) * c;
          T* vq = V + static_cast<i64>(qc) * c;
          for (int i = lane; i < c; i += 32) {
            const T x = vp[i], y = vq[i];
            vp[i] = x * cs - sq * y;
            vq[i] = sp * x + y * cs;
          }
        }
        if (lane == 0) atomicOr(&s_rot, 1);  // atomic: several warps set the flag in one round
      }
      __syncthreads();
    }
    converged = s_rot == 0;
    __syncthreads();
  }

  // --- singular values, order --------------------------------------------------------------------------
  for (int j = warp; j < c; j += nw) {
    R acc = 0;
    for (int i = lane; i < r; i += 32) acc += abs2(W[static_cast<i64>(j) * r + i]);
    acc = warp_sum(acc);
    if (lane == 0) sig[j] = sqrt(acc);
  }
  __syncthreads();
  for (int j = tid; j < c; j += nt) {
    const R sj = sig[j];
    int rk = 0;
    for (int i = 0; i < c; ++i) {
      const R si = sig[i];
      rk += (si > sj || (si == sj && i < j) || (sj != sj && i < j)) ? 1 : 0;
    }
    rank[j] = rk;
  }
  __syncthreads();
  R* s_out = static_cast<R*>(p.s) + b * c;
  for (int j = tid; j < c; j += nt) s_out[rank[j]] = static_cast<R>(ldexp(static_cast<double>(sig[j]), scale_exp));
  if (tid == 0) p.info[b] = bad ? -4 : (converged ? 0 : 1);
  if (!p.uv) return;

  // --- vectors -------------------------------------------------------------------------------------------
  // P (r x pc_cols): the left vectors of W. !trans: P = U ([m, ucols]); trans: P = Vh^H ([vrows, n]).
  const int ucols = p.full ? p.m : c, vrows = p.full ? p.n : c;
  T* U = static_cast<T*>(p.u) + b * static_cast<i64>(p.m) * ucols;
  T* Vh = static_cast<T*>(p.vh) + b * static_cast<i64>(vrows) * p.n;
  auto pidx = [&](int i, int k) -> T* {
    return p.trans ? Vh + static_cast<i64>(k) * p.n + i : U + static_cast<i64>(i) * ucols + k;
  };
  auto pget = [&](int i, int k) -> T { return p.trans ? conj_elem(*pidx(i, k)) : *pidx(i, k); };
  auto pset = [&](int i, int k, T v) { *pidx(i, k) = p.trans ? conj_elem(v) : v; };
  const R tiny = sqrt(std::numeric_limits<R>::min());
  int nv = 0;
  for (int j = 0; j < c; ++j) nv += sig[j] > tiny ? 1 : 0;  // a prefix of the sorted order
  for (i64 e = tid; e < rc; e += nt) {
    const int i = static_cast<int>(e % r), j = static_cast<int>(e / r);
    if (rank[j] < nv) pset(i, rank[j], W[e] / sig[j]);
  }
  for (i64 e = tid; e < static_cast<i64>(c) * c; e += nt) {
    const int l = static_cast<int>(e % c), j = static_cast<int>(e / c);
    // Q = V: !trans -> Vh = Q^H; trans -> U = Q.
    if (p.trans) U[static_cast<i64>(l) * ucols + rank[j]] = V[e];
    else Vh[static_cast<i64>(rank[j]) * p.n + l] = conj_elem(V[e]);
  }
  const int rcols = p.full ? r : c;
  if (nv == rcols) return;
  __syncthreads();
  for (int col = nv; col < rcols; ++col) {
    double best = 1e300;
    int bi = 0x7fffffff;
    for (int i = tid; i < r; i += nt) {
      double w = 0;
      for (int k = 0; k < col; ++k) w += static_cast<double>(abs2(pget(i, k)));
      if (w < best) {
        best = w;
        bi = i;
      }
    }
    const int is = block_argmin(best, bi, red, redi);
    for (int k = tid; k < col; k += nt) H[k] = conj_elem(pget(is, k));
    __syncthreads();
    for (int i = tid; i < r; i += nt) {
      T v = T(i == is ? 1 : 0);
      for (int k = 0; k < col; ++k) v -= pget(i, k) * H[k];
      pset(i, col, v);
    }
    __syncthreads();
    for (int k = tid; k < col; k += nt) {
      T acc = T(0);
      for (int i = 0; i < r; ++i) acc += conj_elem(pget(i, k)) * pget(i, col);
      H[k] = acc;
    }
    __syncthreads();
    double nrm = 0;
    for (int i = tid; i < r; i += nt) {
      T v = pget(i, col);
      for (int k = 0; k < col; ++k) v -= pget(i, k) * H[k];
      nrm += static_cast<double>(abs2(v));
      pset(i, col, v);
    }
    nrm = block_reduce(nrm, 0, red);
    const R inv = static_cast<R>(1.0 / sqrt(nrm));
    for (int i = tid; i < r; i += nt) pset(i, col, pget(i, col) * inv);
    __syncthreads();
  }
}

/// Bytes of dynamic shared memory the Jacobi kernel needs.
std::size_t jacobi_smem(std::size_t tsize, std::size_t rsize, i64 r, i64 c, bool uv) {
  std::size_t elems = static_cast<std::size_t>(r * c);
  if (uv) elems += static_cast<std::size_t>(c * c + r);
  return elems * tsize + static_cast<std::size_t>(c) * (rsize + sizeof(int)) + 16;
}

std::size_t smem_optin() {
  int dev = 0, v = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  return static_cast<std::size_t>(v) > 1024 ? static_cast<std::size_t>(v) - 1024 : 0;  // static smem margin
}

template <class T>
void jacobi_launch(const batch_view& a, i64 nbatch, i64 m, i64 n, bool uv, bool full, bool check, void* s, void* u,
                   void* vh, int* info, int* status) {
  using R = real_t<T>;
  jacobi_params p{};
  p.src = static_cast<const char*>(a.data);
  p.bix = batch_indexer(a);
  p.sr = a.s_row;
  p.sc = a.s_col;
  p.m = static_cast<int>(m);
  p.n = static_cast<int>(n);
  p.trans = m < n;
  p.r = static_cast<int>(std::max(m, n));
  p.c = static_cast<int>(std::min(m, n));
  p.uv = uv;
  p.full = full;
  p.check = check;
  p.max_sweeps = 100;
  p.tol = std::sqrt(static_cast<double>(p.r)) * std::numeric_limits<R>::epsilon();
  p.s = s;
  p.u = u;
  p.vh = vh;
  p.info = info;
  p.status = status;
  const std::size_t bytes = jacobi_smem(sizeof(T), sizeof(R), p.r, p.c, uv);
  if (bytes > 48 * 1024)
    CUSCI_CUDA_TRY(cudaFuncSetAttribute(jacobi_svd_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
  const int npairs = (p.c + 1) / 2;
  const int threads = 32 * std::clamp(npairs, 2, 16);
  jacobi_svd_kernel<T><<<static_cast<unsigned>(nbatch), threads, bytes, get_current_stream()>>>(p);
  CUSCI_CHECK_LAUNCH();
}

// --- cuSOLVER path ------------------------------------------------------------------------------------

/// dst[b] (rows x cols, C order) = src[b * sb + i * si + j * sj], conjugated when `cj`.
template <class T>
__global__ void relayout_kernel(const T* src, i64 sb, i64 si, i64 sj, i64 nbatch, i64 rows, i64 cols, bool cj,
                                T* dst) {
  const i64 per = rows * cols, total = nbatch * per;
  for (i64 e = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 bi = e / per, rem = e - bi * per, i = rem / cols, j = rem - i * cols;
    const T v = src[bi * sb + i * si + j * sj];
    dst[e] = cj ? conj_elem(v) : v;
  }
}

template <class T>
void relayout(const T* src, i64 sb, i64 si, i64 sj, i64 nbatch, i64 rows, i64 cols, bool cj, T* dst) {
  const i64 total = nbatch * rows * cols;
  if (total == 0) return;
  relayout_kernel<T><<<grid_for(total), 256, 0, get_current_stream()>>>(src, sb, si, sj, nbatch, rows, cols, cj, dst);
  CUSCI_CHECK_LAUNCH();
}

template <class T> constexpr dtype dtype_of_v();
template <> constexpr dtype dtype_of_v<float>() { return dtype::float32; }
template <> constexpr dtype dtype_of_v<double>() { return dtype::float64; }
template <> constexpr dtype dtype_of_v<cuda::std::complex<float>>() { return dtype::complex64; }
template <> constexpr dtype dtype_of_v<cuda::std::complex<double>>() { return dtype::complex128; }

template <class T>
void lib_svd(const batch_view& a, i64 nbatch, i64 m, i64 n, bool uv, bool full, bool check, svd_lib lib, void* s,
             void* u, void* vh, int* info, int* status) {
  using R = real_t<T>;
  const bool trans = m < n;
  const i64 R_ = std::max(m, n), C = std::min(m, n);
  // The tall working matrix, column-major: A itself (m >= n), or A^T (C order read column-major).
  device_buffer<T> A(static_cast<std::size_t>(nbatch * m * n));
  gather(dtype_of_v<T>(), a, nbatch, m, n, fill_mode::full, false, check, !trans, A.data(), status);
  const bool gesvdp = lib == svd_lib::gesdd;
  // Xgesvdp references U and V whatever jobz is (it copies the R factor of its QR step into them): with
  // CUSOLVER_EIG_MODE_NOVECTOR it still needs valid arrays of the documented sizes, with econ = 1 U
  // ldu x min(m, n) and V ldv x min(m, n). Without vectors they are scratch for one matrix, reused by every
  // call of the batch (the calls are ordered on the stream). Xgesvd with jobu = jobvt = 'N' references
  // neither.
  const bool uv_scratch = !uv && gesvdp;
  const i64 ucolsR = (full && uv) ? R_ : C;
  const std::size_t u_elems = static_cast<std::size_t>(uv ? nbatch * R_ * ucolsR : (uv_scratch ? R_ * C : 0));
  const std::size_t v_elems = static_cast<std::size_t>(uv ? nbatch * C * C : (uv_scratch ? C * C : 0));
  device_buffer<T> Ut(u_elems);
  device_buffer<T> Vt(v_elems);
  cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
  solver_params prm;
  constexpr cudaDataType dt = cuda_type<T>(), rt = cuda_type<R>();
  std::size_t dev = 0, hst = 0;
  const signed char jobu = !uv ? 'N' : (full ? 'A' : 'S'), jobvt = uv ? 'A' : 'N';
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = (full && uv) ? 0 : 1;  // the scratch U of a call without vectors is R_ x C
  T* U0 = (uv || uv_scratch) ? Ut.data() : nullptr;
  T* V0 = (uv || uv_scratch) ? Vt.data() : nullptr;
  R* S = static_cast<R*>(s);
  if (gesvdp)
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvdp_bufferSize)(h, prm.get(), jobz, econ, R_, C, dt, A.data(), R_, rt,
                                                                S, dt, U0, R_, dt, V0, C, dt, &dev, &hst));
  else
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvd_bufferSize)(h, prm.get(), jobu, jobvt, R_, C, dt, A.data(), R_, rt,
                                                               S, dt, U0, R_, dt, V0, C, dt, &dev, &hst));
  memory_ptr dws = cusci::malloc(dev);
  std::vector<unsigned char> hws(hst);
  void* dptr = dws ? dws->ptr() : nullptr;
  void* hptr = hws.empty() ? nullptr : hws.data();
  for (i64 b = 0; b < nbatch; ++b) {
    T* Ab = A.data() + b * m * n;
    R* Sb = S + b * C;
    T* Ub = uv ? U0 + b * R_ * ucolsR : U0;  // without vectors: the scratch (gesvdp) or nullptr (gesvd)
    T* Vb = uv ? V0 + b * C * C : V0;
    if (gesvdp) {
      double err_sigma = 0;
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvdp)(h, prm.get(), jobz, econ, R_, C, dt, Ab, R_, rt, Sb, dt, Ub, R_,
                                                       dt, Vb, C, dt, dptr, dev, hptr, hst, info + b, &err_sigma));
    } else {
      CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgesvd)(h, prm.get(), jobu, jobvt, R_, C, dt, Ab, R_, rt, Sb, dt, Ub, R_,
                                                      dt, Vb, C, dt, dptr, dev, hptr, hst, info + b));
    }
  }
  if (!uv) return;
  const i64 ucols = full ? m : C, vrows = full ? n : C;
  T* uo = static_cast<T*>(u);
  T* vo = static_cast<T*>(vh);
  const i64 sbU = R_ * ucolsR, sbV = C * C;
  if (!trans) {  // U_A = U' (column-major m x ucols); Vh_A = VT' (gesvd) or V'^H (gesvdp), n x n
    relayout<T>(Ut.data(), sbU, 1, m, nbatch, m, ucols, false, uo);
    if (gesvdp) relayout<T>(Vt.data(), sbV, n, 1, nbatch, n, n, true, vo);
    else relayout<T>(Vt.data(), sbV, 1, n, nbatch, n, n, false, vo);
  } else {  // A^T = U' S V'^H: U_A = conj(V') (m x m), Vh_A = U'^T (vrows x n)
    if (gesvdp) relayout<T>(Vt.data(), sbV, 1, m, nbatch, m, m, true, uo);
    else relayout<T>(Vt.data(), sbV, m, 1, nbatch, m, m, false, uo);
    relayout<T>(Ut.data(), sbU, n, 1, nbatch, vrows, n, false, vo);
  }
}

__global__ void scatter_diag_kernel(const unsigned char* src, i64 nbatch, i64 k, unsigned char* dst, i64 rows,
                                    i64 cols, int itemsize) {
  const i64 total = nbatch * k;
  for (i64 e = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 bi = e / k, j = e - bi * k;
    unsigned char* d = dst + (bi * rows * cols + j * cols + j) * itemsize;
    const unsigned char* s = src + e * itemsize;
    for (int q = 0; q < itemsize; ++q) d[q] = s[q];
  }
}

}  // namespace

bool svd_jacobi_fits(dtype t, i64 m, i64 n, bool compute_uv) {
  const i64 r = std::max(m, n), c = std::min(m, n);
  if (r > (1 << 20)) return false;
  const std::size_t ts = itemsize(t), rs = itemsize(real_dtype(t));
  return jacobi_smem(ts, rs, r, c, compute_uv) <= smem_optin();
}

void svd_batched(dtype t, const batch_view& a, i64 nbatch, i64 m, i64 n, bool compute_uv, bool full, bool check,
                 svd_lib lib, void* s, void* u, void* vh, int* info, int* status) {
  if (nbatch == 0) return;
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (svd_jacobi_fits(t, m, n, compute_uv))
      jacobi_launch<T>(a, nbatch, m, n, compute_uv, full, check, s, u, vh, info, status);
    else
      lib_svd<T>(a, nbatch, m, n, compute_uv, full, check, lib, s, u, vh, info, status);
  });
}

void scatter_diagonal(std::size_t itemsize, const void* src, i64 nbatch, i64 k, void* dst, i64 rows, i64 cols) {
  const i64 total = nbatch * k;
  if (total == 0) return;
  scatter_diag_kernel<<<grid_for(total), 256, 0, get_current_stream()>>>(
      static_cast<const unsigned char*>(src), nbatch, k, static_cast<unsigned char*>(dst), rows, cols,
      static_cast<int>(itemsize));
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::linalg::detail
