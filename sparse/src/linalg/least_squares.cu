// scipy.sparse.linalg.lsqr and lsmr on the device: SciPy 1.18's Golub-Kahan bidiagonalization with
// its scalar recurrences and stopping tests on the host (float64), and the vector work in three
// kernels an iteration:
//   u = A v - alfa u, beta = ||u||            (one kernel: CSR product fused with the update and norm)
//   u = u / beta                              (1 / beta read from device memory)
//   v = A^H u - beta v, alfa = ||v||          (same as the first, over A^H, formed once as a CSR matrix)
//   the x / w (lsqr) or h / hbar / x (lsmr) update with its norm (||w||^2, ||x||^2).
// u and v are normalized as SciPy normalizes them (v by the update kernel, which the host launches
// with 1 / alfa), and the updates round as NumPy's two operations do ((-alfa u) + A v, no fused
// multiply-add in float64): the late iterations' estimates (norma, conda, normr) depend on rounding
// once the bidiagonalization has lost orthogonality, and this keeps them near SciPy's. The device
// scalars of an iteration (beta, alfa, the update's norm) are read from pinned memory once.
// For an operator given by functions, the products are the functions' results and only the updates
// and norms run in cusci's kernels.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/checks.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/linalg/least_squares.hpp"
#include "cusci/stream.hpp"
#include "linalg/solver_common.cuh"

namespace cusci::sparse::linalg {
namespace {

using cusci::detail::shape_str;
using solver_detail::contiguous_vector;
using solver_detail::grid_sum;
using solver_detail::rn_add;
using solver_detail::rn_mul;
using solver_detail::sm_count;
constexpr int kBlock = 256;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// Device scalars (float64). A product kernel writes ||y|| to slot `out` and its inverse (1 when the
// norm is 0) to `out + 1`.
enum slot : int {
  BETA = 0,
  INV_BETA = 1,
  ALFA = 2,
  INV_ALFA = 3,
  BNORM = 4,
  INV_BNORM = 5,
  VEC = 6,   // the update kernel's squared norm: ||w||^2 (lsqr), ||x||^2 (lsmr)
  NEG1 = 7,  // constant -1
  ZERO = 8,  // constant 0
  n_slots = 9
};

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<cuda::std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
// The float64 counterpart of T (x and hbar are accumulated in it, as SciPy's float64 zeros).
template <class T> struct wide_of { using type = double; };
template <class R> struct wide_of<cuda::std::complex<R>> { using type = cuda::std::complex<double>; };
template <class T> using wide_t = typename wide_of<T>::type;

template <class T>
__device__ __forceinline__ double abs2(const T& v) {
  if constexpr (cusci::detail::is_complex_v<T>) {
    const double re = static_cast<double>(v.real()), im = static_cast<double>(v.imag());
    return re * re + im * im;
  } else {
    const double d = static_cast<double>(v);
    return d * d;
  }
}

template <class T>
__device__ __forceinline__ T shfl_down(const T& v, int offset, int width) {
  if constexpr (cusci::detail::is_complex_v<T>) {
    using R = real_t<T>;
    const R re = __shfl_down_sync(0xffffffffu, v.real(), offset, width);
    const R im = __shfl_down_sync(0xffffffffu, v.imag(), offset, width);
    return T(re, im);
  } else {
    return __shfl_down_sync(0xffffffffu, v, offset, width);
  }
}

// y = a * (Op x) - c * y over `rows` rows, and s[out] = ||y||, s[out + 1] = 1 / ||y|| (1 when 0).
// a = s[a_slot] (1 when a_slot < 0); c = s[c1] * s[c2] (s[c1] when c2 < 0). With skip_slot >= 0 and
// s[skip_slot] == 0 nothing is done (SciPy skips the v update when beta == 0; the branch is uniform).
// G == 0: Op x is the dense vector x (an operator function's product; x may alias y); else a CSR
// product with G lanes a row (G a power of two <= 32; the row loop runs equally often in every lane
// of a warp, so that the shuffles are converged). The scalars are read before the grid reduction,
// whose last block may overwrite them.
// a * p - c * y rounded as NumPy's (-c * y) + a * p (in float64, each operation rounded on its own
// with solver_common.cuh's rn_*: no contraction into a fused multiply-add; a == 1 is exact). Other
// dtypes use the plain operators.
template <class T, class R>
__device__ __forceinline__ T combine(R a, const T& p, R c, const T& y) {
  if constexpr (std::is_same_v<T, double>) {
    return rn_add(rn_mul(-c, y), rn_mul(a, p));
  } else {
    return a * p - c * y;
  }
}

// a * b + c rounded as NumPy's two operations in float64 (rn_*); other dtypes use the plain operators.
template <class S, class T>
__device__ __forceinline__ T mad_rn(S a, const T& b, const T& c) {
  if constexpr (std::is_same_v<T, double>) {
    return rn_add(rn_mul(a, b), c);
  } else {
    return a * b + c;
  }
}

// y = s[scale] * y over n elements, unless s[skip] == 0 (SciPy's u = (1 / beta) u, skipped when
// beta == 0).
template <class T>
__global__ void __launch_bounds__(kBlock) k_scale(std::int64_t n, T* y, const double* s, int scale, int skip) {
  if (s[skip] == 0.0) return;
  using R = real_t<T>;
  const R f = static_cast<R>(s[scale]);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    y[i] = f * y[i];
}

template <class T, class I, int G>
__global__ void __launch_bounds__(kBlock)
    k_product(std::int64_t rows, const I* __restrict__ indptr, const I* __restrict__ indices,
              const T* __restrict__ data, const T* x, T* y, int a_slot, int c1, int c2, int skip_slot, int out,
              double* partials, unsigned* counter, double* s) {
  if (skip_slot >= 0 && s[skip_slot] == 0.0) return;
  using R = real_t<T>;
  const R a = static_cast<R>(a_slot >= 0 ? s[a_slot] : 1.0);
  const R c = static_cast<R>(c2 >= 0 ? s[c1] * s[c2] : s[c1]);
  double acc = 0.0;
  if constexpr (G == 0) {
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < rows;
         i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      const T v = c == R(0) ? a * x[i] : combine(a, x[i], c, y[i]);  // c == 0: y may hold anything
      y[i] = v;
      acc += abs2(v);
    }
  } else {
    constexpr int gpw = 32 / G;  // rows per warp and pass
    const std::int64_t tid = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
    const std::int64_t group = tid / G;
    const int lane = static_cast<int>(tid % G);
    const std::int64_t ngroups = static_cast<std::int64_t>(gridDim.x) * blockDim.x / G;
    const std::int64_t warp_first = group - group % gpw;
    for (std::int64_t base = warp_first; base < rows; base += ngroups) {
      const std::int64_t row = base + group % gpw;
      T sum = T(0);
      if (row < rows) {
        const std::int64_t b = indptr[row], e = indptr[row + 1];
        for (std::int64_t j = b + lane; j < e; j += G) sum += data[j] * x[indices[j]];
      }
#pragma unroll
      for (int o = G / 2; o > 0; o >>= 1) sum += shfl_down(sum, o, G);
      if (lane == 0 && row < rows) {
        const T v = c == R(0) ? a * sum : combine(a, sum, c, y[row]);
        y[row] = v;
        acc += abs2(v);
      }
    }
  }
  grid_sum(acc, partials, counter, [s, out](double t) {
    const double nrm = ::sqrt(t);
    s[out] = nrm;
    s[out + 1] = nrm > 0.0 ? 1.0 / nrm : 1.0;
  });
}

// lsqr's update: v *= vscale; x += t1 w; var += (w / rho)^2; w = v + t2 w (first: w = v, x and var
// untouched); s[VEC] = ||w||^2 (the new w). x, var: nullptr to skip.
template <class T, class X>
__global__ void __launch_bounds__(kBlock)
    k_lsqr_update(std::int64_t n, T* __restrict__ v, T* __restrict__ w, X* __restrict__ x, X* __restrict__ var,
                  double vscale, double t1, double t2, double inv_rho, bool first, double* partials,
                  unsigned* counter, double* s) {
  using R = real_t<T>;
  const R vs = static_cast<R>(vscale), t2r = static_cast<R>(t2);
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    T vi = v[i];
    if (vscale != 1.0) {
      vi = vs * vi;
      v[i] = vi;
    }
    T wi = vi;
    if (!first) {
      const T wo = w[i];
      const X wx = static_cast<X>(wo);
      if (x) x[i] = mad_rn(t1, wx, x[i]);
      if (var) {
        const X d = wx * inv_rho;
        var[i] += d * d;
      }
      wi = mad_rn(t2r, wo, vi);
    }
    w[i] = wi;
    acc += abs2(wi);
  }
  grid_sum(acc, partials, counter, [s](double t) { s[VEC] = t; });
}

// lsmr's update: v *= vscale; hbar = h + c1 hbar; x += c2 hbar; h = v + c3 h (first: h = v only);
// s[VEC] = ||x||^2.
template <class T, class X>
__global__ void __launch_bounds__(kBlock)
    k_lsmr_update(std::int64_t n, T* __restrict__ v, T* __restrict__ h, X* __restrict__ hbar, X* __restrict__ x,
                  double vscale, double c1, double c2, double c3, bool first, double* partials, unsigned* counter,
                  double* s) {
  using R = real_t<T>;
  const R vs = static_cast<R>(vscale), c3r = static_cast<R>(c3);
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    T vi = v[i];
    if (vscale != 1.0) {
      vi = vs * vi;
      v[i] = vi;
    }
    if (first) {
      h[i] = vi;
      acc += abs2(x[i]);
      continue;
    }
    const T hi = h[i];
    const X hb = mad_rn(c1, hbar[i], static_cast<X>(hi));
    hbar[i] = hb;
    const X xi = mad_rn(c2, hb, x[i]);
    x[i] = xi;
    acc += abs2(xi);
    h[i] = mad_rn(c3r, hi, vi);
  }
  grid_sum(acc, partials, counter, [s](double t) { s[VEC] = t; });
}

double sign(double a) { return a > 0 ? 1.0 : (a < 0 ? -1.0 : a); }  // NaN and +-0 returned as is

// SciPy's _sym_ortho: a stable Givens rotation [c s; -s c] [a; b] = [r; 0].
void sym_ortho(double a, double b, double& c, double& s, double& r) {
  if (b == 0) {
    c = sign(a);
    s = 0;
    r = std::fabs(a);
  } else if (a == 0) {
    c = 0;
    s = sign(b);
    r = std::fabs(b);
  } else if (std::fabs(b) > std::fabs(a)) {
    const double tau = a / b;
    s = sign(b) / std::sqrt(1 + tau * tau);
    c = s * tau;
    r = b / s;
  } else {
    const double tau = b / a;
    c = sign(a) / std::sqrt(1 + tau * tau);
    s = c * tau;
    r = a / c;
  }
}

// SciPy's stopping rules, shared by lsqr and lsmr (the last rule that holds sets istop).
std::int64_t stop_code(std::int64_t itn, std::int64_t iter_lim, double test1, double test2, double test3, double t1,
                       double rtol, double atol, double ctol) {
  std::int64_t istop = 0;
  if (itn >= iter_lim) istop = 7;
  if (1 + test3 <= 1) istop = 6;
  if (1 + test2 <= 1) istop = 5;
  if (1 + t1 <= 1) istop = 4;
  if (test3 <= ctol) istop = 3;
  if (test2 <= atol) istop = 2;
  if (test1 <= rtol) istop = 1;
  return istop;
}

// The device side of both solvers for one vector type T (u, v, w, h) and CSR index type I (unused
// when A is not a CSR matrix): the products, the device scalars and their read-back.
template <class T, class I>
struct engine {
  using X = wide_t<T>;
  const linear_operator& A;
  std::int64_t m, n;
  dtype tt;  // T's dtype
  cudaStream_t st;
  bool fused = false;
  ndarray a_val, a_ind, a_ptr, h_val, h_ind, h_ptr;  // A and A^H as CSR (fused)
  int ga = 1, gh = 1;                                 // lanes a row of each
  unsigned grid_a = 1, grid_h = 1, grid_m = 1, grid_n = 1;
  device_buffer<double> s, partials;
  device_buffer<unsigned> counter;
  memory_ptr pinned;
  double* hs = nullptr;
  event ev{true};
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  engine(const linear_operator& a, dtype t) : A(a), m(a.shape()[0]), n(a.shape()[1]), tt(t), st(get_current_stream()) {
    const std::int64_t max_blocks = static_cast<std::int64_t>(sm_count()) * (2048 / kBlock);
    grid_m = cusci::detail::grid_for(m, kBlock, max_blocks);
    grid_n = cusci::detail::grid_for(n, kBlock, max_blocks);
    if (const csr_matrix* c = A.csr()) {
      fused = true;
      a_val = contiguous_vector(c->data(), tt, c->nnz(), false);
      a_ind = c->indices();
      a_ptr = c->indptr();
      const sparse::detail::compressed_arrays t = sparse::detail::transpose_compressed(a_val, a_ind, a_ptr, n);
      h_val = is_complex(tt) ? cusci::conj(t.data) : t.data;
      h_ind = t.indices;
      h_ptr = t.indptr;
      auto lanes = [](std::int64_t nnz, std::int64_t rows) {
        const double avg = rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 1.0;
        int g = 1;
        while (g < 32 && g < avg) g *= 2;
        return g;
      };
      ga = lanes(c->nnz(), m);
      gh = lanes(c->nnz(), n);
      grid_a = cusci::detail::grid_for(m * ga, kBlock, max_blocks);
      grid_h = cusci::detail::grid_for(n * gh, kBlock, max_blocks);
    }
    const unsigned g = std::max({grid_m, grid_n, grid_a, grid_h});
    s = device_buffer<double>(n_slots, st);
    partials = device_buffer<double>(g, st);
    counter = device_buffer<unsigned>(1, st);
    pinned = pinned_malloc(n_slots * sizeof(double));
    hs = static_cast<double*>(pinned->ptr());
    for (int k = 0; k < n_slots; ++k) hs[k] = 0.0;
    hs[INV_BETA] = hs[INV_ALFA] = hs[INV_BNORM] = 1.0;
    hs[NEG1] = -1.0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(s.data(), hs, n_slots * sizeof(double), cudaMemcpyHostToDevice, st));
    CUSCI_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned), st));
  }

  // The stream is normally idle here (the solvers synchronize before returning); after an exception
  // (a function operator that throws, out of memory) copies into the pinned buffer may still be in
  // flight: wait for them before the buffer goes back to the pool.
  ~engine() { (void)cudaStreamSynchronize(st); }
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  template <int G>
  void launch(unsigned grid, std::int64_t rows, const ndarray* ptr, const ndarray* ind, const ndarray* val,
              const T* x, T* y, int a_slot, int c1, int c2, int skip, int out) {
    k_product<T, I, G><<<grid, kBlock, 0, st>>>(rows, ptr ? ptr->data_as<I>() : nullptr,
                                                ind ? ind->data_as<I>() : nullptr, val ? val->data_as<T>() : nullptr,
                                                x, y, a_slot, c1, c2, skip, out, partials.data(), counter.data(),
                                                s.data());
    CUSCI_CHECK_LAUNCH();
  }

  // y = a * (M x) - c * y with M = A (rows m) or A^H (rows n); see k_product for the slots.
  void product(bool adjoint, const ndarray& x, ndarray& y, int a_slot, int c1, int c2, int skip, int out) {
    const std::int64_t rows = adjoint ? n : m;
    if (!fused) {
      const ndarray p = contiguous_vector(adjoint ? A.rmatvec(x) : A.matvec(x), tt, rows, false);
      launch<0>(adjoint ? grid_n : grid_m, rows, nullptr, nullptr, nullptr, p.data_as<T>(), y.data_as<T>(), a_slot,
                c1, c2, skip, out);
      return;
    }
    const ndarray* ptr = adjoint ? &h_ptr : &a_ptr;
    const ndarray* ind = adjoint ? &h_ind : &a_ind;
    const ndarray* val = adjoint ? &h_val : &a_val;
    const unsigned grid = adjoint ? grid_h : grid_a;
    const T* xp = x.data_as<T>();
    T* yp = y.data_as<T>();
    switch (adjoint ? gh : ga) {
      case 1: launch<1>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
      case 2: launch<2>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
      case 4: launch<4>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
      case 8: launch<8>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
      case 16: launch<16>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
      default: launch<32>(grid, rows, ptr, ind, val, xp, yp, a_slot, c1, c2, skip, out); break;
    }
  }

  // ||y|| into s[out] (y unchanged: y = 1 * y - 0 * y).
  void norm(ndarray& y, std::int64_t rows, int out) {
    launch<0>(rows == m ? grid_m : grid_n, rows, nullptr, nullptr, nullptr, y.data_as<T>(), y.data_as<T>(), -1, ZERO,
              -1, -1, out);
  }
  // u = u / beta unless beta == 0 (u stays as is then, as in SciPy).
  void normalize_u(ndarray& u) {
    k_scale<T><<<grid_m, kBlock, 0, st>>>(m, u.data_as<T>(), s.data(), INV_BETA, BETA);
    CUSCI_CHECK_LAUNCH();
  }
  // One bidiagonalization step: u = A v - alfa u, beta = ||u||; then, unless beta == 0, u = u / beta
  // and v = A^H u - beta v, alfa = ||v|| (v is normalized by the solver's update kernel).
  void bidiag(ndarray& u, ndarray& v) {
    product(false, v, u, -1, ALFA, -1, -1, BETA);
    normalize_u(u);
    product(true, u, v, -1, BETA, -1, BETA, ALFA);
  }
  void post() {
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hs, s.data(), n_slots * sizeof(double), cudaMemcpyDeviceToHost, st));
    ev.record(st);
  }
  void wait() { ev.synchronize(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

// The shared setup: u = b - A x0, beta = ||u||, u = u / beta, bnorm = ||b||, v = A^H u, alfa = ||v||.
// Reads the scalars (synchronizes). v is not normalized yet.
template <class T, class I>
void setup(engine<T, I>& e, const ndarray& b, const std::optional<ndarray>& x0, ndarray& u, ndarray& v,
           double& bnorm, double& beta, double& alfa) {
  u = contiguous_vector(b, e.tt, e.m, true);
  v = zeros({e.n}, e.tt);
  e.norm(u, e.m, BNORM);
  if (x0) {
    const ndarray xt = contiguous_vector(*x0, e.tt, e.n, false);
    e.product(false, xt, u, NEG1, NEG1, -1, -1, BETA);  // u = -(A x0) + u
  } else {
    e.norm(u, e.m, BETA);
  }
  e.normalize_u(u);
  e.product(true, u, v, -1, ZERO, -1, BETA, ALFA);
  e.post();
  e.wait();
  bnorm = e.hs[BNORM];
  beta = e.hs[BETA];
  alfa = beta > 0 ? e.hs[ALFA] : 0.0;
}

template <class T, class I>
lsqr_result run_lsqr(const linear_operator& A, const ndarray& b, const lsqr_options& o, dtype tt,
                     std::optional<dtype> x_out) {
  using X = wide_t<T>;
  engine<T, I> e(A, tt);
  const std::int64_t n = e.n;
  const dtype xt = is_complex(tt) ? dtype::complex128 : dtype::float64;
  const std::int64_t iter_lim = o.iter_lim.value_or(2 * n);
  ndarray u, v;
  double bnorm = 0, beta = 0, alfa = 0;
  setup(e, b, o.x0, u, v, bnorm, beta, alfa);

  lsqr_result res;
  // SciPy's x before any iteration: zeros(n) float64, or x0 as given; var zeros(n) float64.
  const ndarray x_first = o.x0 ? o.x0->reshape({n}) : zeros({n}, dtype::float64);
  res.x = x_first;
  res.var = zeros({n}, dtype::float64);
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0.0;
  const double dampsq = o.damp * o.damp;
  double anorm = 0, acond = 0, ddnorm = 0, res2 = 0, xnorm = 0, xxnorm = 0, z = 0, cs2 = -1, sn2 = 0;
  double rhobar = alfa, phibar = beta, rnorm = beta, r1norm = beta, r2norm = beta, arnorm = alfa * beta;
  res.r1norm = r1norm;
  res.r2norm = r2norm;
  res.arnorm = arnorm;
  res.history.residual_norms.push_back(rnorm);
  res.history.seconds.push_back(e.seconds());
  if (arnorm == 0) return res;

  ndarray x = o.x0 ? contiguous_vector(*o.x0, xt, n, true) : zeros({n}, xt);
  ndarray w = empty({n}, tt);
  ndarray var = o.calc_var ? zeros({n}, xt) : ndarray();
  X* xp = x.data_as<X>();
  X* varp = o.calc_var ? var.data_as<X>() : nullptr;
  // v = v / alfa, w = v, s[VEC] = ||w||^2.
  k_lsqr_update<T, X><<<e.grid_n, kBlock, 0, e.st>>>(n, v.data_as<T>(), w.data_as<T>(), nullptr, nullptr, 1 / alfa,
                                                       0.0, 0.0, 0.0, true, e.partials.data(), e.counter.data(),
                                                       e.s.data());
  CUSCI_CHECK_LAUNCH();

  std::int64_t itn = 0, istop = 0;
  if (itn < iter_lim) {
    e.bidiag(u, v);
    e.post();
  }
  while (itn < iter_lim) {
    ++itn;
    e.wait();
    const double beta_new = e.hs[BETA];
    const double ww = e.hs[VEC];  // ||w||^2 of the w this iteration updates
    double vscale = 1.0;
    if (beta_new > 0) {
      anorm = std::sqrt(anorm * anorm + alfa * alfa + beta_new * beta_new + dampsq);
      alfa = e.hs[ALFA];
      if (alfa > 0) vscale = 1 / alfa;
    }
    beta = beta_new;
    double rhobar1, psi;
    if (o.damp > 0) {
      rhobar1 = std::sqrt(rhobar * rhobar + dampsq);
      const double cs1 = rhobar / rhobar1, sn1 = o.damp / rhobar1;
      psi = sn1 * phibar;
      phibar = cs1 * phibar;
    } else {
      rhobar1 = rhobar;
      psi = 0.0;
    }
    double cs, sn, rho;
    sym_ortho(rhobar1, beta, cs, sn, rho);
    const double theta = sn * alfa;
    rhobar = -cs * alfa;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    const double tau = sn * phi;
    const double t1 = phi / rho, t2 = -theta / rho, inv_rho = 1 / rho;
    k_lsqr_update<T, X><<<e.grid_n, kBlock, 0, e.st>>>(n, v.data_as<T>(), w.data_as<T>(), xp, varp, vscale, t1, t2,
                                                         inv_rho, false, e.partials.data(), e.counter.data(),
                                                         e.s.data());
    CUSCI_CHECK_LAUNCH();
    ddnorm = ddnorm + ww * inv_rho * inv_rho;
    const double delta = sn2 * rho, gambar = -cs2 * rho, rhs = phi - delta * z, zbar = rhs / gambar;
    xnorm = std::sqrt(xxnorm + zbar * zbar);
    const double gamma = std::sqrt(gambar * gambar + theta * theta);
    cs2 = gambar / gamma;
    sn2 = theta / gamma;
    z = rhs / gamma;
    xxnorm = xxnorm + z * z;
    acond = anorm * std::sqrt(ddnorm);
    const double res1 = phibar * phibar;
    res2 = res2 + psi * psi;
    rnorm = std::sqrt(res1 + res2);
    arnorm = alfa * std::fabs(tau);
    if (o.damp > 0) {
      const double r1sq = rnorm * rnorm - dampsq * xxnorm;
      r1norm = std::sqrt(std::fabs(r1sq));
      if (r1sq < 0) r1norm = -r1norm;
    } else {
      r1norm = rnorm;
    }
    r2norm = rnorm;
    const double test1 = rnorm / bnorm, test2 = arnorm / (anorm * rnorm + kEps), test3 = 1 / (acond + kEps);
    const double tt1 = test1 / (1 + anorm * xnorm / bnorm);
    const double rtol = o.btol + o.atol * anorm * xnorm / bnorm;
    istop = stop_code(itn, iter_lim, test1, test2, test3, tt1, rtol, o.atol, ctol);
    res.history.residual_norms.push_back(rnorm);
    res.history.seconds.push_back(e.seconds());
    if (istop != 0) break;
    e.bidiag(u, v);  // the next iteration's products, before the host waits
    e.post();
  }
  CUSCI_CUDA_TRY(cudaStreamSynchronize(e.st));  // x (and var) final
  res.istop = istop;
  res.itn = itn;
  res.r1norm = r1norm;
  res.r2norm = r2norm;
  res.anorm = anorm;
  res.acond = acond;
  res.arnorm = arnorm;
  res.xnorm = xnorm;
  if (itn > 0) {
    res.x = x_out ? x.astype(*x_out, false) : x;
    if (o.calc_var) res.var = var;
  }
  return res;
}

template <class T, class I>
lsmr_result run_lsmr(const linear_operator& A, const ndarray& b, const lsmr_options& o, dtype tt, dtype x_out) {
  using X = wide_t<T>;
  engine<T, I> e(A, tt);
  const std::int64_t m = e.m, n = e.n;
  const dtype xt = is_complex(tt) ? dtype::complex128 : dtype::float64;
  const std::int64_t maxiter = o.maxiter.value_or(std::min(m, n));
  ndarray u, v;
  double normb = 0, beta = 0, alpha = 0;
  setup(e, b, o.x0, u, v, normb, beta, alpha);

  lsmr_result res;
  ndarray x = o.x0 ? contiguous_vector(*o.x0, xt, n, true) : zeros({n}, xt);
  double zetabar = alpha * beta, alphabar = alpha, rho = 1, rhobar = 1, cbar = 1, sbar = 0;
  double betadd = beta, betad = 0, rhodold = 1, tautildeold = 0, thetatilde = 0, zeta = 0, d = 0;
  double normA2 = alpha * alpha, maxrbar = 0, minrbar = 1e+100, normA = std::sqrt(normA2), condA = 1, normx = 0;
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0.0;
  double normr = beta, normar = alpha * beta;
  res.history.residual_norms.push_back(normr);
  res.history.seconds.push_back(e.seconds());
  auto finish = [&](std::int64_t istop, std::int64_t itn) {
    res.x = x.astype(x_out, false);
    res.istop = istop;
    res.itn = itn;
    res.normr = normr;
    res.normar = normar;
    res.norma = normA;
    res.conda = condA;
    res.normx = normx;
    return res;
  };
  if (normar == 0) return finish(0, 0);
  if (normb == 0) {
    x = zeros({n}, xt);
    return finish(0, 0);
  }

  ndarray h = empty({n}, tt), hbar = zeros({n}, xt);
  X* xp = x.data_as<X>();
  X* hbp = hbar.data_as<X>();
  // v = v / alpha, h = v.
  k_lsmr_update<T, X><<<e.grid_n, kBlock, 0, e.st>>>(n, v.data_as<T>(), h.data_as<T>(), hbp, xp, 1 / alpha, 0.0, 0.0,
                                                       0.0, true, e.partials.data(), e.counter.data(), e.s.data());
  CUSCI_CHECK_LAUNCH();
  // With cusci's own products the next iteration's products are enqueued before the host reads ||x||
  // (they change only u and v); a function operator's are called only when SciPy would call them.
  const bool ahead = e.fused;
  std::int64_t itn = 0, istop = 0;
  if (itn < maxiter) {
    e.bidiag(u, v);
    e.post();
  }
  while (itn < maxiter) {
    ++itn;
    e.wait();
    const double beta_new = e.hs[BETA];
    double vscale = 1.0;
    if (beta_new > 0) {
      alpha = e.hs[ALFA];
      if (alpha > 0) vscale = 1 / alpha;
    }
    beta = beta_new;
    double chat, shat, alphahat;
    sym_ortho(alphabar, o.damp, chat, shat, alphahat);
    const double rhoold = rho;
    double c, s;
    sym_ortho(alphahat, beta, c, s, rho);
    const double thetanew = s * alpha;
    alphabar = c * alpha;
    const double rhobarold = rhobar, zetaold = zeta, thetabar = sbar * rho, rhotemp = cbar * rho;
    sym_ortho(cbar * rho, thetanew, cbar, sbar, rhobar);
    zeta = cbar * zetabar;
    zetabar = -sbar * zetabar;
    const double c1 = -(thetabar * rho / (rhoold * rhobarold)), c2 = zeta / (rho * rhobar), c3 = -(thetanew / rho);
    k_lsmr_update<T, X><<<e.grid_n, kBlock, 0, e.st>>>(n, v.data_as<T>(), h.data_as<T>(), hbp, xp, vscale, c1, c2, c3,
                                                         false, e.partials.data(), e.counter.data(), e.s.data());
    CUSCI_CHECK_LAUNCH();
    const bool next = ahead && itn < maxiter;
    if (next) e.bidiag(u, v);
    e.post();
    // Estimate of ||r||.
    const double betaacute = chat * betadd, betacheck = -shat * betadd;
    const double betahat = c * betaacute;
    betadd = -s * betaacute;
    const double thetatildeold = thetatilde;
    double ctildeold, stildeold, rhotildeold;
    sym_ortho(rhodold, thetabar, ctildeold, stildeold, rhotildeold);
    thetatilde = stildeold * rhobar;
    rhodold = ctildeold * rhobar;
    betad = -stildeold * betad + ctildeold * betahat;
    tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold;
    const double taud = (zeta - thetatilde * tautildeold) / rhodold;
    d = d + betacheck * betacheck;
    normr = std::sqrt(d + (betad - taud) * (betad - taud) + betadd * betadd);
    // Estimate ||A|| and cond(A).
    normA2 = normA2 + beta * beta;
    normA = std::sqrt(normA2);
    normA2 = normA2 + alpha * alpha;
    maxrbar = std::max(maxrbar, rhobarold);
    if (itn > 1) minrbar = std::min(minrbar, rhobarold);
    condA = std::max(maxrbar, rhotemp) / std::min(minrbar, rhotemp);
    normar = std::fabs(zetabar);
    e.wait();  // ||x|| (and, ahead, the next iteration's beta and alpha)
    normx = std::sqrt(e.hs[VEC]);
    const double test1 = normr / normb;
    const double test2 = (normA * normr) != 0 ? normar / (normA * normr) : std::numeric_limits<double>::infinity();
    const double test3 = 1 / condA;
    const double t1 = test1 / (1 + normA * normx / normb);
    const double rtol = o.btol + o.atol * normA * normx / normb;
    istop = stop_code(itn, maxiter, test1, test2, test3, t1, rtol, o.atol, ctol);
    res.history.residual_norms.push_back(normr);
    res.history.seconds.push_back(e.seconds());
    if (istop > 0) break;
    if (!next) {
      e.bidiag(u, v);
      e.post();
    }
  }
  CUSCI_CUDA_TRY(cudaStreamSynchronize(e.st));
  (void)m;
  return finish(istop, itn);
}

// Calls f(type_tag<T>, type_tag<I>) for the vector dtype t and A's index dtype.
template <class F>
decltype(auto) dispatch_lsq(dtype t, const linear_operator& A, const char* fn, F&& f) {
  const bool i64 = A.csr() && A.csr()->index_dtype() == dtype::int64;
  auto with_index = [&](auto ttag) -> decltype(auto) {
    if (i64) return f(ttag, cusci::detail::type_tag<std::int64_t>{});
    return f(ttag, cusci::detail::type_tag<std::int32_t>{});
  };
  switch (t) {
    case dtype::float32: return with_index(cusci::detail::type_tag<float>{});
    case dtype::float64: return with_index(cusci::detail::type_tag<double>{});
    case dtype::complex64: return with_index(cusci::detail::type_tag<cuda::std::complex<float>>{});
    case dtype::complex128: return with_index(cusci::detail::type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error(std::string(fn) + ": A must have dtype float32, float64, complex64 or complex128, got " +
                   std::string(dtype_name(t)));
}

bool numeric(dtype t) { return is_bool(t) || is_integer(t) || is_inexact(t); }

// The checks both solvers share; returns the vector dtype (NumPy's promotion of A's dtype, b's (bool
// and integers as float64) and x0's).
dtype check_common(const char* fn, const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0) {
  cusci::detail::check_same_device(fn, {A.csr() ? &A.csr()->data() : nullptr, &b, x0 ? &*x0 : nullptr});
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const std::string a_shape = shape_str(A.shape());
  auto vec_ok = [](const ndarray& v, std::int64_t k) {
    return (v.ndim() == 1 && v.shape(0) == k) || (v.ndim() == 2 && v.shape(0) == k && v.shape(1) == 1);
  };
  CUSCI_EXPECTS(vec_ok(b, m), value_error,
                std::string(fn) + ": shapes of A " + a_shape + " and b " + shape_str(b.shape()) +
                    " are incompatible: expected b of shape (" + std::to_string(m) + ",) or (" + std::to_string(m) +
                    ", 1)");
  CUSCI_EXPECTS(numeric(b.dtype()), type_error,
                std::string(fn) + ": b must have a numeric dtype, got " + std::string(dtype_name(b.dtype())));
  if (x0) {
    CUSCI_EXPECTS(vec_ok(*x0, n), value_error,
                  std::string(fn) + ": shapes of A " + a_shape + " and x0 " + shape_str(x0->shape()) +
                      " are incompatible: expected x0 of shape (" + std::to_string(n) + ",) or (" + std::to_string(n) +
                      ", 1)");
    CUSCI_EXPECTS(numeric(x0->dtype()), type_error,
                  std::string(fn) + ": x0 must have a numeric dtype, got " + std::string(dtype_name(x0->dtype())));
  }
  CUSCI_EXPECTS(A.has_rmatvec(), not_implemented_error,
                std::string(fn) + ": A must define rmatvec (the adjoint product A^H u): rmatvec is not defined");
  const dtype bt = is_inexact(b.dtype()) ? b.dtype() : dtype::float64;
  dtype t = promote_types(A.dtype(), bt);
  // With x0 SciPy's u = b - A x0 takes x0's dtype into the promotion (a complex x0 makes the problem
  // complex).
  if (x0) t = promote_types(t, x0->dtype());
  CUSCI_EXPECTS(t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128,
                type_error,
                std::string(fn) + ": A must have dtype float32, float64, complex64 or complex128, got " +
                    std::string(dtype_name(A.dtype())));
  return t;
}

}  // namespace

lsqr_result lsqr(const linear_operator& A, const ndarray& b, const lsqr_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::lsqr");
  static constexpr const char* fn = "cusci::sparse::linalg::lsqr";
  const dtype t = check_common(fn, A, b, o.x0);
  std::optional<dtype> x_out;
  if (o.x0) x_out = promote_types(o.x0->dtype(), t);
  return dispatch_lsq(t, A, fn, [&](auto ttag, auto itag) {
    using T = typename decltype(ttag)::type;
    using I = typename decltype(itag)::type;
    return run_lsqr<T, I>(A, b, o, t, x_out);
  });
}

lsmr_result lsmr(const linear_operator& A, const ndarray& b, const lsmr_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::lsmr");
  static constexpr const char* fn = "cusci::sparse::linalg::lsmr";
  const dtype t = check_common(fn, A, b, o.x0);
  // SciPy updates u (b's dtype) and x (x0's) in place: a complex A with a real b, a real x0 for a
  // complex problem and a non-float x0 raise its UFuncTypeError (a TypeError).
  CUSCI_EXPECTS(o.x0 || !(is_complex(A.dtype()) && !is_complex(b.dtype())), type_error,
                std::string(fn) + ": a complex A needs a complex b (SciPy cannot cast the complex products into b's "
                                  "dtype), got b of dtype " + std::string(dtype_name(b.dtype())));
  dtype x_out = is_complex(t) ? dtype::complex128 : dtype::float64;
  if (o.x0) {
    const dtype x0t = o.x0->dtype();
    CUSCI_EXPECTS(is_inexact(x0t) && (is_complex(x0t) || !is_complex(t)),
                  type_error,
                  std::string(fn) + ": x0 must have a dtype the problem's dtype " + std::string(dtype_name(t)) +
                      " casts into (a float dtype for a real problem, else complex64/complex128), got " +
                      std::string(dtype_name(x0t)));
    x_out = x0t;
  }
  return dispatch_lsq(t, A, fn, [&](auto ttag, auto itag) {
    using T = typename decltype(ttag)::type;
    using I = typename decltype(itag)::type;
    return run_lsmr<T, I>(A, b, o, t, x_out);
  });
}

}  // namespace cusci::sparse::linalg
