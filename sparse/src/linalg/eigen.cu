// scipy.sparse.linalg.eigsh and svds on the device: a thick-restart Lanczos iteration (Wu & Simon 2000)
// with full reorthogonalisation, whose restart (keep the wanted Ritz vectors), convergence test and
// wanted sets follow ARPACK's dsaup2 / dsconv / dsgets, so that it converges where and when SciPy's
// ARPACK does.
//
// Device side: the basis V [ncv + 1, n] (rows; a column-major n x (ncv + 1) matrix for cuBLAS) and, for
// a generalized problem, BV = B V; each Lanczos step applies OP, orthogonalises the new vector twice
// against every basis vector (two gemv each), and reads alpha, the norms and nothing else (one
// synchronization a step). A restart forms the kept Ritz vectors with one gemm. Host side: the
// projected matrix (arrowhead after a restart, tridiagonal after it), its eigendecomposition in float64
// (cusci's host eigh, Householder + implicit QL), the which-sorting and the convergence bookkeeping.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include "common/detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/host_linalg.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/random.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/sparse/linalg/eigen.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::linalg {
namespace {

using cusci::detail::shape_str;
namespace hostla = cusci::detail::hostla;

constexpr const char* kEigsh = "cusci::sparse::linalg::eigsh";
constexpr const char* kSvds = "cusci::sparse::linalg::svds";
constexpr int kThreads = 256;
// Largest n for which inv(A - sigma M) / inv(M) is built by a dense LU when no operator is given.
constexpr std::int64_t kDenseMax = 4096;

template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<cuda::std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_of<T>::type;
template <class T>
inline constexpr bool is_cplx_v = cusci::detail::is_complex_v<T>;

// ---- kernels ----------------------------------------------------------------------------------------

// real(conj(a) b), accumulated in float64.
template <class T>
__device__ __forceinline__ double re_dot(T a, T b) {
  if constexpr (is_cplx_v<T>)
    return static_cast<double>(a.real()) * static_cast<double>(b.real()) +
           static_cast<double>(a.imag()) * static_cast<double>(b.imag());
  else
    return static_cast<double>(a) * static_cast<double>(b);
}

// *out += real(a^H b): a block sum, then one atomicAdd a block (out zeroed by the caller).
template <class T>
__global__ void __launch_bounds__(kThreads)
    k_re_dot(std::int64_t n, const T* __restrict__ a, const T* __restrict__ b, double* out) {
  __shared__ double sh[kThreads / 32];
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    acc += re_dot(a[i], b[i]);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) sh[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    double t = lane < static_cast<int>(blockDim.x >> 5) ? sh[lane] : 0.0;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) t += __shfl_down_sync(0xffffffffu, t, o);
    if (lane == 0) atomicAdd(out, t);
  }
}

// dst = src * s (s real, as float64).
template <class T>
__global__ void k_scale(std::int64_t n, const T* __restrict__ src, T* __restrict__ dst, double s) {
  using R = real_t<T>;
  const R f = static_cast<R>(s);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    dst[i] = src[i] * f;
}

// out = x + a * y (a real).
template <class T>
__global__ void k_axpy(std::int64_t n, const T* __restrict__ x, const T* __restrict__ y, double a,
                       T* __restrict__ out) {
  using R = real_t<T>;
  const R f = static_cast<R>(a);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = x[i] + y[i] * f;
}

// out[i] = 2 u - 1 (uniform in [-1, 1)); complex: real and imaginary parts from u[2i], u[2i + 1].
template <class T>
__global__ void k_uniform(std::int64_t n, const double* __restrict__ u, T* __restrict__ out) {
  using R = real_t<T>;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if constexpr (is_cplx_v<T>)
      out[i] = T(static_cast<R>(2.0 * u[2 * i] - 1.0), static_cast<R>(2.0 * u[2 * i + 1] - 1.0));
    else
      out[i] = static_cast<T>(2.0 * u[i] - 1.0);
  }
}

// D = A - sigma M over n*n entries (M null: the identity).
template <class T>
__global__ void k_shift(std::int64_t n, const T* __restrict__ a, const T* __restrict__ m, double sigma,
                        T* __restrict__ d) {
  using R = real_t<T>;
  const R s = static_cast<R>(sigma);
  const std::int64_t nn = n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < nn;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T mv = m ? m[e] : T((e / n == e % n) ? R(1) : R(0));
    d[e] = a[e] - mv * s;
  }
}

// ---- cuBLAS / cuSOLVER wrappers ---------------------------------------------------------------------

template <class T>
constexpr cudaDataType cuda_type();
template <>
constexpr cudaDataType cuda_type<float>() {
  return CUDA_R_32F;
}
template <>
constexpr cudaDataType cuda_type<double>() {
  return CUDA_R_64F;
}
template <>
constexpr cudaDataType cuda_type<cuda::std::complex<float>>() {
  return CUDA_C_32F;
}
template <>
constexpr cudaDataType cuda_type<cuda::std::complex<double>>() {
  return CUDA_C_64F;
}

// y = alpha op(A) x + beta y, A column-major rows x cols, lda.
template <class T>
void gemv(cublasHandle_t h, bool adjoint, int rows, int cols, T alpha, const T* A, int lda, const T* x, T beta, T* y) {
  if constexpr (std::is_same_v<T, float>) {
    CUSCI_CUBLAS_TRY(
        CUSCI_LAZY(cublasSgemv)(h, adjoint ? CUBLAS_OP_T : CUBLAS_OP_N, rows, cols, &alpha, A, lda, x, 1, &beta, y, 1));
  } else if constexpr (std::is_same_v<T, double>) {
    CUSCI_CUBLAS_TRY(
        CUSCI_LAZY(cublasDgemv)(h, adjoint ? CUBLAS_OP_T : CUBLAS_OP_N, rows, cols, &alpha, A, lda, x, 1, &beta, y, 1));
  } else if constexpr (std::is_same_v<T, cuda::std::complex<float>>) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasCgemv)(
        h, adjoint ? CUBLAS_OP_C : CUBLAS_OP_N, rows, cols, reinterpret_cast<const cuComplex*>(&alpha),
        reinterpret_cast<const cuComplex*>(A), lda, reinterpret_cast<const cuComplex*>(x), 1,
        reinterpret_cast<const cuComplex*>(&beta), reinterpret_cast<cuComplex*>(y), 1));
  } else {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasZgemv)(
        h, adjoint ? CUBLAS_OP_C : CUBLAS_OP_N, rows, cols, reinterpret_cast<const cuDoubleComplex*>(&alpha),
        reinterpret_cast<const cuDoubleComplex*>(A), lda, reinterpret_cast<const cuDoubleComplex*>(x), 1,
        reinterpret_cast<const cuDoubleComplex*>(&beta), reinterpret_cast<cuDoubleComplex*>(y), 1));
  }
}

// C = A B (all column-major, no transposes): A rows x inner, B inner x cols.
template <class T>
void gemm(cublasHandle_t h, bool adjoint_a, int rows, int cols, int inner, const T* A, int lda, const T* B, int ldb,
          T* C, int ldc) {
  const T one = T(1), zero = T(0);
  const cublasOperation_t opa = adjoint_a ? (is_cplx_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
  if constexpr (std::is_same_v<T, float>) {
    CUSCI_CUBLAS_TRY(
        CUSCI_LAZY(cublasSgemm)(h, opa, CUBLAS_OP_N, rows, cols, inner, &one, A, lda, B, ldb, &zero, C, ldc));
  } else if constexpr (std::is_same_v<T, double>) {
    CUSCI_CUBLAS_TRY(
        CUSCI_LAZY(cublasDgemm)(h, opa, CUBLAS_OP_N, rows, cols, inner, &one, A, lda, B, ldb, &zero, C, ldc));
  } else if constexpr (std::is_same_v<T, cuda::std::complex<float>>) {
    CUSCI_CUBLAS_TRY(
        CUSCI_LAZY(cublasCgemm)(h, opa, CUBLAS_OP_N, rows, cols, inner, reinterpret_cast<const cuComplex*>(&one),
                                reinterpret_cast<const cuComplex*>(A), lda, reinterpret_cast<const cuComplex*>(B), ldb,
                                reinterpret_cast<const cuComplex*>(&zero), reinterpret_cast<cuComplex*>(C), ldc));
  } else {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasZgemm)(
        h, opa, CUBLAS_OP_N, rows, cols, inner, reinterpret_cast<const cuDoubleComplex*>(&one),
        reinterpret_cast<const cuDoubleComplex*>(A), lda, reinterpret_cast<const cuDoubleComplex*>(B), ldb,
        reinterpret_cast<const cuDoubleComplex*>(&zero), reinterpret_cast<cuDoubleComplex*>(C), ldc));
  }
}

/// cusolverDnParams_t owned for one scope.
class solver_params {
 public:
  solver_params() { CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnCreateParams)(&p_)); }
  ~solver_params() { CUSCI_LAZY(cusolverDnDestroyParams)(p_); }
  solver_params(const solver_params&) = delete;
  solver_params& operator=(const solver_params&) = delete;
  cusolverDnParams_t get() const { return p_; }

 private:
  cusolverDnParams_t p_ = nullptr;
};

// ---- host helpers ------------------------------------------------------------------------------------

enum class which_t { LM, SM, LA, SA, BE };

which_t parse_which(const std::string& w, bool complex_a) {
  if (w == "LM") return which_t::LM;
  if (w == "SM") return which_t::SM;
  if (w == "LA") return which_t::LA;
  if (w == "SA") return which_t::SA;
  if (w == "BE") {
    CUSCI_EXPECTS(!complex_a, value_error, std::string(kEigsh) + ": which='BE' cannot be used with complex matrix A");
    return which_t::BE;
  }
  throw value_error(std::string(kEigsh) + ": which must be one of LM SM LA SA BE, got '" + w + "'");
}

/// The `count` wanted Ritz values of `theta` for `which` (ARPACK's dsgets: the last `count` after its
/// sort; BE: count / 2 from the low end, the rest from the high end). Indices, most wanted first.
std::vector<int> select_wanted(const std::vector<double>& theta, which_t which, int count) {
  const int m = static_cast<int>(theta.size());
  std::vector<int> idx(m);
  std::iota(idx.begin(), idx.end(), 0);
  auto by = [&](auto key) {
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return key(theta[a]) > key(theta[b]); });
  };
  switch (which) {
    case which_t::LM:
      by([](double t) { return std::abs(t); });
      break;
    case which_t::SM:
      by([](double t) { return -std::abs(t); });
      break;
    case which_t::LA:
      by([](double t) { return t; });
      break;
    case which_t::SA:
      by([](double t) { return -t; });
      break;
    case which_t::BE: {
      // ascending, then alternate from the high end (one more there for odd counts).
      std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return theta[a] < theta[b]; });
      std::vector<int> out;
      const int low = count / 2, high = count - low;
      for (int i = 0; i < high && i < m; ++i) out.push_back(idx[m - 1 - i]);
      for (int i = 0; i < low && i < m - high; ++i) out.push_back(idx[i]);
      return out;
    }
  }
  idx.resize(std::min(count, m));
  return idx;
}

/// eps^(2/3) and eps of the real precision (LAPACK's dlamch('E'): half the spacing at 1).
template <class R>
double unit_roundoff() {
  return static_cast<double>(std::numeric_limits<R>::epsilon()) * 0.5;
}

ndarray as_vector(const ndarray& y, dtype dt, std::int64_t n, const char* what) {
  CUSCI_EXPECTS(y.size() == n, value_error,
                std::string(kEigsh) + ": " + what + " returned shape " + shape_str(y.shape()) + ", expected (" +
                    std::to_string(n) + ",)");
  ndarray c = y.astype(dt, false);
  if (!c.is_c_contiguous()) c = c.copy();
  return c.reshape({n});
}

// ---- dense LU of A - sigma M (the factorization hook of modes 2-5) ------------------------------------

/// inv(D) for the dense matrix D = A - sigma M (or M alone), LU-factorized once with cuSOLVER.
template <class T>
struct dense_lu {
  ndarray lu;  // [n, n] column-major (F order)
  device_buffer<std::int64_t> ipiv;
  device_buffer<int> info;
  std::int64_t n = 0;
  dtype dt;

  dense_lu(const csr_matrix& A, const csr_matrix* M, std::optional<double> sigma, dtype t, const char* what)
      : n(A.shape()[0]), dt(t) {
    cudaStream_t st = get_current_stream();
    ndarray a = A.toarray(order::F).astype(dt, false);
    if (!a.is_f_contiguous()) a = a.copy(order::F);
    ndarray m;
    if (M) {
      m = M->toarray(order::F).astype(dt, false);
      if (!m.is_f_contiguous()) m = m.copy(order::F);
    }
    if (sigma) {
      lu = empty({n, n}, dt, order::F);
      k_shift<T><<<cusci::detail::grid_for(n * n), kThreads, 0, st>>>(n, a.data_as<T>(), M ? m.data_as<T>() : nullptr,
                                                                      *sigma, lu.data_as<T>());
      CUSCI_CHECK_LAUNCH();
    } else {
      lu = a.copy(order::F);
    }
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType cdt = cuda_type<T>();
    std::size_t dev = 0, hst = 0;
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf_bufferSize)(h, prm.get(), n, n, cdt, lu.data(), n, cdt, &dev, &hst));
    memory_ptr ws = cusci::malloc(dev > 0 ? dev : 1, st);
    std::vector<unsigned char> hws(hst);
    ipiv = device_buffer<std::int64_t>(static_cast<std::size_t>(n), st);
    info = device_buffer<int>(1, st);
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrf)(h, prm.get(), n, n, cdt, lu.data(), n, ipiv.data(), cdt, ws->ptr(),
                                                    dev, hws.empty() ? nullptr : hws.data(), hst, info.data()));
    int hinfo = 0;
    CUSCI_CUDA_TRY(cudaMemcpyAsync(&hinfo, info.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    CUSCI_EXPECTS(hinfo == 0, cusci::runtime_error,
                  std::string(kEigsh) + ": " + what + " is exactly singular (LU factorization)");
  }

  ndarray solve(const ndarray& x) const {
    ndarray y = x.astype(dt, true);
    if (!y.is_c_contiguous()) y = y.copy();
    y = y.reshape({n});
    cusolverDnHandle_t h = cusci::detail::cusolver_dn_handle();
    solver_params prm;
    constexpr cudaDataType cdt = cuda_type<T>();
    CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnXgetrs)(h, prm.get(), CUBLAS_OP_N, n, 1, cdt, lu.data(), n, ipiv.data(),
                                                    cdt, y.data(), n, info.data()));
    return y;
  }
};

/// The factorization hook of modes 2-5: x -> inv(D) x for D = A - sigma M (or M alone): SuperLU's
/// sparse LU (`splu`, factors on the device) when cusci has SuperLU, else the dense LU above.
template <class T>
std::function<ndarray(const ndarray&)> make_inverse(const csr_matrix& A, const csr_matrix* M,
                                                    std::optional<double> sigma, dtype dt, const char* what) {
  const std::int64_t n = A.shape()[0];
  if (has_superlu()) {
    spmatrix D = spmatrix(A);
    if (sigma) {
      spmatrix B = M ? spmatrix(*M) : identity(n, dt, "csr");
      D = subtract(spmatrix(A), multiply(B, scalar(*sigma)));
    }
    auto lu = std::make_shared<SuperLU>(splu(spmatrix(D.tocsc())));
    const std::int64_t nn = n;
    return [lu, dt, nn](const ndarray& x) {
      ndarray y = lu->solve(x.astype(dt, false));
      if (y.dtype() != dt) y = y.astype(dt);
      if (!y.is_c_contiguous()) y = y.copy();
      return y.reshape({nn});
    };
  }
  CUSCI_EXPECTS(n <= kDenseMax, not_implemented_error,
                std::string(kEigsh) + ": inv(" + what +
                    ") for n > 4096 needs cusci built with SuperLU (splu) or an operator (OPinv / Minv)");
  auto lu = std::make_shared<dense_lu<T>>(A, M, sigma, dt, what);
  return [lu](const ndarray& x) { return lu->solve(x); };
}

// ---- the solver ----------------------------------------------------------------------------------------

using vec_fn = std::function<ndarray(const ndarray&)>;

/// Everything eigsh resolved from its arguments (checked, before any device work).
struct problem {
  std::int64_t n = 0, k = 0, ncv = 0, maxiter = 0;
  int mode = 1;
  bool bmat = false;  // B != I
  which_t which = which_t::LM;
  double sigma = 0, tol = 0;
  bool vectors = true;
  std::uint64_t seed = 0;
  std::optional<ndarray> v0;
  dtype dt = dtype::float64;
  vec_fn Afn;                        // A x
  const csr_matrix* Acsr = nullptr;  // A as a CSR matrix, when it is one (for the factorization)
  const linear_operator* M = nullptr;
  const linear_operator* Minv = nullptr;
  const linear_operator* OPinv = nullptr;
};

struct lanczos_out {
  std::vector<double> w;  // eigenvalues, final order
  ndarray v;              // [n, count] or empty
  std::int64_t iterations = 0, op_products = 0, nconv = 0;
  bool converged = true;
};

template <class T>
class lanczos {
 public:
  using R = real_t<T>;

  explicit lanczos(const problem& p) : p_(p), n_(p.n), m_(p.ncv), st_(get_current_stream()) {
    CUSCI_EXPECTS(n_ <= std::numeric_limits<int>::max(), not_implemented_error,
                  std::string(kEigsh) + ": n > 2^31 - 1 is not supported");
    V_ = empty({m_ + 1, n_}, p.dt);
    if (p.bmat) BV_ = empty({m_ + 1, n_}, p.dt);
    h_ = device_buffer<T>(3 * static_cast<std::size_t>(m_ + 1), st_);
    scal_ = device_buffer<double>(4, st_);
    pinned_ = pinned_malloc(scal_offset() + 4 * sizeof(double));
    grid_ = cusci::detail::grid_for(n_, kThreads, 1024);
    eps_ = unit_roundoff<R>();
    tol_ = p.tol > 0 ? p.tol : eps_;
    eps23_ = std::pow(eps_, 2.0 / 3.0);
    T_ = hostla::rmat(m_, m_);
    setup_operators();
  }

  lanczos_out run() {
    // Starting vector: v0 or uniform [-1, 1); in range of OP for a generalized problem (ARPACK dgetv0).
    ndarray r;
    if (p_.v0) {
      r = as_vector(*p_.v0, p_.dt, n_, "v0");
      r = r.copy();
    } else {
      r = random_vector(p_.seed);
    }
    if (p_.bmat) r = op_any(r);
    ndarray Br = p_.bmat ? B_(r) : r;
    const double rn2 = re_dot_sync(r, Br);
    if (!(rn2 > 0.0)) {
      if (rn2 == 0.0) throw arpack_error(-9, std::string(kEigsh) + ": ARPACK error -9: Starting vector is zero.");
      factorization_error();
    }
    const double rn = std::sqrt(rn2);
    scale_into(r, 1.0 / rn, row(V_, 0));
    if (p_.bmat) scale_into(Br, 1.0 / rn, row(BV_, 0));

    std::int64_t start = 0;  // rows 0..start hold the basis; T_ is valid in its leading start x start
    std::int64_t iter = 0;
    double beta_m = 0;
    hostla::eigh_result eg;
    std::vector<int> want;
    std::int64_t nconv = 0;
    while (true) {
      ++iter;
      beta_m = extend(start);
      eg = hostla::eigh(T_, kEigsh);
      const std::vector<double>& theta = eg.values;
      auto bound = [&](int i) { return std::abs(beta_m * eg.vectors(m_ - 1, i)); };
      auto conv = [&](int i) { return bound(i) <= tol_ * std::max(eps23_, std::abs(theta[i])); };
      want = select_wanted(theta, p_.which, static_cast<int>(p_.k));
      nconv = 0;
      for (int i : want) nconv += conv(i) ? 1 : 0;
      if (nconv >= p_.k || iter > p_.maxiter) {
        lanczos_out out;
        out.iterations = iter;
        out.op_products = op_count_;
        out.nconv = nconv;
        out.converged = nconv >= p_.k;
        std::vector<int> sel;
        if (out.converged) {
          sel = want;
        } else {
          for (int i : want)
            if (conv(i)) sel.push_back(i);
        }
        finish(eg, sel, out, !out.converged);
        return out;
      }
      // ARPACK's dsaup2: keep nev = k + min(nconv, np / 2) (adjusted for nev == 1).
      const std::int64_t np = m_ - p_.k;
      std::int64_t keep = p_.k + std::min<std::int64_t>(nconv, np / 2);
      if (keep == 1 && m_ >= 6)
        keep = m_ / 2;
      else if (keep == 1 && m_ > 2)
        keep = 2;
      const std::vector<int> kept = select_wanted(theta, p_.which, static_cast<int>(keep));
      restart(eg, kept, beta_m);
      start = static_cast<std::int64_t>(kept.size());
    }
  }

 private:
  const problem& p_;
  std::int64_t n_, m_;
  cudaStream_t st_;
  ndarray V_, BV_;
  device_buffer<T> h_;
  device_buffer<double> scal_;
  memory_ptr pinned_;
  unsigned grid_ = 1;
  double eps_ = 0, tol_ = 0, eps23_ = 0;
  hostla::rmat T_;
  std::int64_t op_count_ = 0;
  vec_fn B_, OPinv_, Minv_;

  static ndarray row(const ndarray& a, std::int64_t i) { return a[i]; }

  void setup_operators() {
    const dtype dt = p_.dt;
    const std::int64_t n = n_;
    if (p_.mode == 4) {
      vec_fn Af = p_.Afn;
      B_ = [Af, dt, n](const ndarray& x) { return as_vector(Af(x), dt, n, "A.matvec"); };
    } else if (p_.M) {
      const linear_operator* M = p_.M;
      B_ = [M, dt, n](const ndarray& x) { return as_vector(M->matvec(x), dt, n, "M.matvec"); };
    }
    if (p_.mode == 2) {
      if (p_.Minv) {
        const linear_operator* Mi = p_.Minv;
        Minv_ = [Mi, dt, n](const ndarray& x) { return as_vector(Mi->matvec(x), dt, n, "Minv.matvec"); };
      } else {
        Minv_ = make_inverse<T>(*p_.M->csr(), nullptr, std::nullopt, dt, "M");
      }
    } else if (p_.mode >= 3) {
      if (p_.OPinv) {
        const linear_operator* Oi = p_.OPinv;
        OPinv_ = [Oi, dt, n](const ndarray& x) { return as_vector(Oi->matvec(x), dt, n, "OPinv.matvec"); };
      } else {
        OPinv_ = make_inverse<T>(*p_.Acsr, p_.M ? p_.M->csr() : nullptr, p_.sigma, dt, "A - sigma M");
      }
    }
  }

  ndarray Amul(const ndarray& x) { return as_vector(p_.Afn(x), p_.dt, n_, "A.matvec"); }
  ndarray Bmul(const ndarray& x) { return p_.bmat ? B_(x) : x; }

  // OP x for any x (start vectors).
  ndarray op_any(const ndarray& x) {
    ++op_count_;
    switch (p_.mode) {
      case 1:
        return Amul(x);
      case 2:
        return Minv_(Amul(x));
      case 3:
        return OPinv_(Bmul(x));
      case 4:
        return OPinv_(Amul(x));
      default: {
        ndarray ax = Amul(x);
        ndarray bx = Bmul(x);
        ndarray s = empty({n_}, p_.dt);
        k_axpy<T><<<grid_, kThreads, 0, st_>>>(n_, ax.data_as<T>(), bx.data_as<T>(), p_.sigma, s.data_as<T>());
        CUSCI_CHECK_LAUNCH();
        return OPinv_(s);
      }
    }
  }

  // u = OP v_j and Bu, using the stored B v_j where ARPACK does.
  void op_step(std::int64_t j, ndarray& u, ndarray& Bu) {
    ++op_count_;
    const ndarray v = row(V_, j);
    const ndarray bv = p_.bmat ? row(BV_, j) : v;
    switch (p_.mode) {
      case 1:
        u = Amul(v);
        Bu = u;
        return;
      case 2: {
        ndarray av = Amul(v);
        u = Minv_(av);
        Bu = av;  // B OP v = M inv(M) A v = A v (ARPACK's mode 2)
        return;
      }
      case 3:
        u = OPinv_(bv);
        break;
      case 4:
        u = OPinv_(bv);
        break;  // B = A: bv = A v
      default: {
        ndarray av = Amul(v);
        ndarray s = empty({n_}, p_.dt);
        k_axpy<T><<<grid_, kThreads, 0, st_>>>(n_, av.data_as<T>(), bv.data_as<T>(), p_.sigma, s.data_as<T>());
        CUSCI_CHECK_LAUNCH();
        u = OPinv_(s);
        break;
      }
    }
    if (p_.bmat) {
      Bu = B_(u);
    } else {
      Bu = u;
    }
    // u may alias an operator's internal storage: work on a private copy.
  }

  ndarray random_vector(std::uint64_t seed) {
    auto g = cusci::random::default_rng(seed);
    const std::int64_t cnt = is_cplx_v<T> ? 2 * n_ : n_;
    ndarray u = g.random({cnt}, dtype::float64);
    ndarray r = empty({n_}, p_.dt);
    k_uniform<T><<<grid_, kThreads, 0, st_>>>(n_, u.data_as<double>(), r.data_as<T>());
    CUSCI_CHECK_LAUNCH();
    return r;
  }

  void scale_into(const ndarray& src, double s, const ndarray& dst) {
    k_scale<T><<<grid_, kThreads, 0, st_>>>(n_, src.data_as<T>(), dst.data_as<T>(), s);
    CUSCI_CHECK_LAUNCH();
  }

  void dot_into(const ndarray& a, const ndarray& b, int slot) {
    k_re_dot<T><<<grid_, kThreads, 0, st_>>>(n_, a.data_as<T>(), b.data_as<T>(), scal_.data() + slot);
    CUSCI_CHECK_LAUNCH();
  }

  double re_dot_sync(const ndarray& a, const ndarray& b) {
    CUSCI_CUDA_TRY(cudaMemsetAsync(scal_.data(), 0, sizeof(double), st_));
    dot_into(a, b, 0);
    double out = 0;
    double* hp = pinned_scal();
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hp, scal_.data(), sizeof(double), cudaMemcpyDeviceToHost, st_));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st_));
    out = hp[0];
    return out;
  }

  T* pinned_h() const { return static_cast<T*>(pinned_->ptr()); }
  // Byte offset of the 4 doubles after the 3 (m + 1) coefficients in the pinned block (16-aligned).
  std::size_t scal_offset() const { return (3 * static_cast<std::size_t>(m_ + 1) * sizeof(T) + 15) / 16 * 16; }
  double* pinned_scal() const { return reinterpret_cast<double*>(static_cast<char*>(pinned_->ptr()) + scal_offset()); }

  // One classical Gram-Schmidt pass of u against basis rows 0..cols-1 in the B inner product (the
  // coefficients V^H B u into hbuf), then B u of the result.
  void orth_pass(ndarray& u, ndarray& Bu, std::int64_t cols, T* hbuf) {
    cublasHandle_t h = cusci::detail::cublas_handle();
    const int nn = static_cast<int>(n_), c = static_cast<int>(cols);
    gemv<T>(h, true, nn, c, T(1), V_.data_as<T>(), nn, Bu.data_as<T>(), T(0), hbuf);
    gemv<T>(h, false, nn, c, T(-1), V_.data_as<T>(), nn, hbuf, T(1), u.data_as<T>());
    // B u afresh (ARPACK's dsaitr does the same): updating B u alongside u loses the B-norm of a small
    // residual to cancellation.
    if (p_.bmat) {
      Bu = B_(u);
    } else {
      Bu = u;
    }
  }

  // Private, writable copies of u and Bu (Bu aliases u when B = I).
  void own(ndarray& u, ndarray& Bu) {
    const bool alias = Bu.data() == u.data();
    u = u.copy();
    Bu = alias ? u : Bu.copy();
  }

  // Orthogonalises (u, Bu) against rows 0..cols-1 (DGKS: a second pass always, a third when the second
  // removed more than 30%); returns the B-norm, 0 when u lies in the span (ARPACK's dsaitr rule), and
  // alpha = real(v_{cols-1}^H B u) from the passes when want_alpha.
  double orthogonalise(ndarray& u, ndarray& Bu, std::int64_t cols, double* alpha) {
    T* h0 = h_.data();
    T* h1 = h0 + (m_ + 1);
    T* h2 = h1 + (m_ + 1);
    CUSCI_CUDA_TRY(cudaMemsetAsync(scal_.data(), 0, 4 * sizeof(double), st_));
    orth_pass(u, Bu, cols, h0);
    dot_into(u, Bu, 1);
    orth_pass(u, Bu, cols, h1);
    dot_into(u, Bu, 2);
    T* hp = pinned_h();
    double* sp = pinned_scal();
    const std::size_t hb = static_cast<std::size_t>(cols) * sizeof(T);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hp, h0, hb, cudaMemcpyDeviceToHost, st_));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(hp + (m_ + 1), h1, hb, cudaMemcpyDeviceToHost, st_));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(sp, scal_.data(), 4 * sizeof(double), cudaMemcpyDeviceToHost, st_));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st_));
    const double n1 = sp[1], n2 = sp[2];
    double a = re_of(hp[cols - 1]) + re_of(hp[(m_ + 1) + cols - 1]);
    if (!std::isfinite(n1) || !std::isfinite(n2) || n2 < 0.0 || !std::isfinite(a)) factorization_error();
    double rn = std::sqrt(n2);
    if (!(rn > 0.717 * std::sqrt(std::max(n1, 0.0)))) {
      orth_pass(u, Bu, cols, h2);
      dot_into(u, Bu, 3);
      CUSCI_CUDA_TRY(cudaMemcpyAsync(hp + 2 * (m_ + 1), h2, hb, cudaMemcpyDeviceToHost, st_));
      CUSCI_CUDA_TRY(cudaMemcpyAsync(sp, scal_.data(), 4 * sizeof(double), cudaMemcpyDeviceToHost, st_));
      CUSCI_CUDA_TRY(cudaStreamSynchronize(st_));
      a += re_of(hp[2 * (m_ + 1) + cols - 1]);
      const double n3 = sp[3];
      if (!std::isfinite(n3) || n3 < 0.0) factorization_error();
      rn = (std::sqrt(n3) > 0.717 * rn) ? std::sqrt(n3) : 0.0;
    }
    if (alpha) *alpha = a;
    return rn;
  }

  static double re_of(T v) {
    if constexpr (is_cplx_v<T>)
      return static_cast<double>(v.real());
    else
      return static_cast<double>(v);
  }

  [[noreturn]] void factorization_error() {
    throw arpack_error(
        -9999, std::string(kEigsh) +
                   ": ARPACK error -9999: Could not build an Arnoldi factorization. IPARAM(5) returns the size of "
                   "the current Arnoldi factorization. The user is advised to check that enough workspace and "
                   "array storage has been allocated.");
  }

  // A new basis vector orthogonal to rows 0..cols-1 (the factorization found an invariant subspace):
  // random, in range of OP for generalized problems, orthogonalised and normalised into row `cols`.
  void new_direction(std::int64_t cols) {
    if (cols >= n_) {
      // The basis spans the whole space (ncv == n): the residual is exactly zero; any row will do.
      CUSCI_CUDA_TRY(cudaMemsetAsync(row(V_, cols).data(), 0, n_ * sizeof(T), st_));
      if (p_.bmat) CUSCI_CUDA_TRY(cudaMemsetAsync(row(BV_, cols).data(), 0, n_ * sizeof(T), st_));
      return;
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
      ndarray r = random_vector(p_.seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(cols * 3 + attempt + 1));
      if (p_.bmat) r = op_any(r);
      ndarray Br = Bmul(r);
      own(r, Br);
      const double rn = orthogonalise(r, Br, cols, nullptr);
      if (rn > 0) {
        scale_into(r, 1.0 / rn, row(V_, cols));
        if (p_.bmat) scale_into(Br, 1.0 / rn, row(BV_, cols));
        return;
      }
    }
    factorization_error();
  }

  // Lanczos steps start..m-1 (rows 0..start valid; T_ rows/columns < start valid, plus the arrow row
  // `start` set by restart); returns beta_m, the B-norm of the residual now in row m.
  double extend(std::int64_t start) {
    double beta = 0;
    for (std::int64_t j = start; j < m_; ++j) {
      ndarray u, Bu;
      op_step(j, u, Bu);
      own(u, Bu);
      double alpha = 0;
      beta = orthogonalise(u, Bu, j + 1, &alpha);
      T_(j, j) = alpha;
      if (beta > 0) {
        scale_into(u, 1.0 / beta, row(V_, j + 1));
        if (p_.bmat) scale_into(Bu, 1.0 / beta, row(BV_, j + 1));
      } else {
        new_direction(j + 1);
      }
      if (j + 1 < m_) {
        T_(j + 1, j) = beta;
        T_(j, j + 1) = beta;
      }
    }
    return beta;
  }

  // Thick restart: rows 0..kk-1 <- the kept Ritz vectors, row kk <- the residual (row m); T_ becomes
  // diag(theta_kept) with the arrow row kk: beta_m * s_{m-1, i}.
  void restart(const hostla::eigh_result& eg, const std::vector<int>& kept, double beta_m) {
    const std::int64_t kk = static_cast<std::int64_t>(kept.size());
    std::vector<T> S(static_cast<std::size_t>(m_ * kk));
    for (std::int64_t c = 0; c < kk; ++c)
      for (std::int64_t r = 0; r < m_; ++r) S[c * m_ + r] = T(static_cast<R>(eg.vectors(r, kept[c])));
    ndarray Sd = asarray(static_cast<const void*>(S.data()), p_.dt, {kk, m_});
    combine_rows(V_, Sd, kk);
    if (p_.bmat) combine_rows(BV_, Sd, kk);
    CUSCI_CUDA_TRY(
        cudaMemcpyAsync(row(V_, kk).data(), row(V_, m_).data(), n_ * sizeof(T), cudaMemcpyDeviceToDevice, st_));
    if (p_.bmat)
      CUSCI_CUDA_TRY(
          cudaMemcpyAsync(row(BV_, kk).data(), row(BV_, m_).data(), n_ * sizeof(T), cudaMemcpyDeviceToDevice, st_));
    T_ = hostla::rmat(m_, m_);
    for (std::int64_t i = 0; i < kk; ++i) {
      T_(i, i) = eg.values[kept[i]];
      const double s = beta_m * eg.vectors(m_ - 1, kept[i]);
      T_(kk, i) = s;
      T_(i, kk) = s;
    }
  }

  // rows 0..kk-1 of X <- (X[0:m]^T S)^T, i.e. the column-major product X_cm[:, 0:m] * S_cm (m x kk).
  void combine_rows(ndarray& X, const ndarray& Sd, std::int64_t kk) {
    ndarray Y = ritz(X, Sd, kk);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(X.data(), Y.data(), static_cast<std::size_t>(kk * n_) * sizeof(T),
                                   cudaMemcpyDeviceToDevice, st_));
  }

  // [cnt, n] rows: sum_r S[c, r] X[r] (S given as [cnt, m] rows = column-major m x cnt).
  ndarray ritz(const ndarray& X, const ndarray& Sd, std::int64_t cnt) {
    ndarray Y = empty({cnt, n_}, p_.dt);
    if (cnt == 0) return Y;
    cublasHandle_t h = cusci::detail::cublas_handle();
    gemm<T>(h, false, static_cast<int>(n_), static_cast<int>(cnt), static_cast<int>(m_), X.data_as<T>(),
            static_cast<int>(n_), Sd.data_as<T>(), static_cast<int>(m_), Y.data_as<T>(), static_cast<int>(n_));
    return Y;
  }

  double transform(double nu) const {
    switch (p_.mode) {
      case 3:
        return p_.sigma + 1.0 / nu;
      case 4:
        return p_.sigma * nu / (nu - 1.0);
      case 5:
        return p_.sigma * (nu + 1.0) / (nu - 1.0);
      default:
        return nu;
    }
  }

  // The selected Ritz pairs, transformed and ordered as SciPy returns them.
  void finish(const hostla::eigh_result& eg, std::vector<int> sel, lanczos_out& out, bool partial) {
    const auto& th = eg.values;
    const bool ascending = p_.vectors || p_.mode >= 3 || partial;
    if (ascending) {
      std::stable_sort(sel.begin(), sel.end(), [&](int a, int b) { return transform(th[a]) < transform(th[b]); });
    } else {
      // ARPACK's order of the Ritz values without eigenvectors (dseupd, rvec = false).
      auto key = [&](int i) {
        switch (p_.which) {
          case which_t::LM:
            return std::abs(th[i]);
          case which_t::SM:
            return -std::abs(th[i]);
          case which_t::SA:
            return -th[i];
          default:
            return th[i];
        }
      };
      std::stable_sort(sel.begin(), sel.end(), [&](int a, int b) { return key(a) < key(b); });
    }
    for (int i : sel) out.w.push_back(transform(th[i]));
    if (p_.vectors || partial) {
      const std::int64_t cnt = static_cast<std::int64_t>(sel.size());
      std::vector<T> S(static_cast<std::size_t>(m_ * cnt));
      for (std::int64_t c = 0; c < cnt; ++c)
        for (std::int64_t r = 0; r < m_; ++r) S[c * m_ + r] = T(static_cast<R>(eg.vectors(r, sel[c])));
      ndarray Y;
      if (cnt > 0) {
        ndarray Sd = asarray(static_cast<const void*>(S.data()), p_.dt, {cnt, m_});
        Y = ritz(V_, Sd, cnt);
        out.v = Y.T().copy();
      } else {
        out.v = empty({n_, 0}, p_.dt);
      }
    }
  }
};

// The dtypes of the iteration (ARPACK's s, d, c, z).
bool supported_dtype(dtype t) {
  return t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128;
}

template <class F>
decltype(auto) dispatch_inexact(dtype t, F&& f) {
  switch (t) {
    case dtype::float32:
      return f(cusci::detail::type_tag<float>{});
    case dtype::float64:
      return f(cusci::detail::type_tag<double>{});
    case dtype::complex64:
      return f(cusci::detail::type_tag<cuda::std::complex<float>>{});
    case dtype::complex128:
      return f(cusci::detail::type_tag<cuda::std::complex<double>>{});
    default:
      break;
  }
  throw type_error(std::string(kEigsh) + ": matrix type must be float32, float64, complex64 or complex128, got " +
                   std::string(dtype_name(t)));
}

ndarray to_device_real(const std::vector<double>& w, dtype rt) {
  ndarray d = asarray(w, {static_cast<std::int64_t>(w.size())});
  return d.astype(rt, false);
}

/// The operator A of an eigenproblem: shape, dtype, product, and the CSR matrix when it is one.
struct op_desc {
  shape2 shape{0, 0};
  dtype dt = dtype::float64;
  vec_fn fn;
  const csr_matrix* csr = nullptr;
};

/// Host-side transpose-copy of a column-major rows x cols device buffer of T into a C-order array is
/// done on the device: conj(x) elementwise for the Hermitian transposes svds needs.
template <class T>
__global__ void k_conj(std::int64_t n, T* __restrict__ x) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if constexpr (is_cplx_v<T>) x[i] = cuda::std::conj(x[i]);
  }
}

// Hermitian eigendecomposition of a small k x k matrix on the host (cyclic Jacobi, float64): values
// ascending, vectors as columns (k x k, column c of `vec` at vec[r * k + c]).
void jacobi_eigh(std::vector<std::complex<double>>& a, std::int64_t k, std::vector<double>& w,
                 std::vector<std::complex<double>>& vec) {
  using C = std::complex<double>;
  vec.assign(static_cast<std::size_t>(k * k), C(0));
  for (std::int64_t i = 0; i < k; ++i) vec[i * k + i] = C(1);
  auto at = [&](std::int64_t i, std::int64_t j) -> C& { return a[i * k + j]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, tot = 0;
    for (std::int64_t i = 0; i < k; ++i)
      for (std::int64_t j = 0; j < k; ++j) {
        tot += std::norm(at(i, j));
        if (i != j) off += std::norm(at(i, j));
      }
    if (off <= 1e-32 * tot || off == 0) break;
    for (std::int64_t p = 0; p < k - 1; ++p)
      for (std::int64_t q = p + 1; q < k; ++q) {
        const C apq = at(p, q);
        const double mag = std::abs(apq);
        if (mag == 0) continue;
        const double app = at(p, p).real(), aqq = at(q, q).real();
        // Rotation zeroing a_pq: phase e = apq / |apq|; real Jacobi on [app, mag; mag, aqq].
        const C e = apq / mag;
        const double tau = (aqq - app) / (2 * mag);
        const double t = (tau >= 0 ? 1.0 : -1.0) / (std::abs(tau) + std::sqrt(1 + tau * tau));
        const double c = 1 / std::sqrt(1 + t * t), s = t * c;
        // Columns: G with G_pp = c, G_qq = c, G_pq = s e, G_qp = -s conj(e); A <- G^H A G.
        for (std::int64_t r = 0; r < k; ++r) {
          const C arp = at(r, p), arq = at(r, q);
          at(r, p) = c * arp - s * std::conj(e) * arq;
          at(r, q) = s * e * arp + c * arq;
        }
        for (std::int64_t r = 0; r < k; ++r) {
          const C apr = at(p, r), aqr = at(q, r);
          at(p, r) = c * apr - s * e * aqr;
          at(q, r) = s * std::conj(e) * apr + c * aqr;
        }
        for (std::int64_t r = 0; r < k; ++r) {
          const C vrp = vec[r * k + p], vrq = vec[r * k + q];
          vec[r * k + p] = c * vrp - s * std::conj(e) * vrq;
          vec[r * k + q] = s * e * vrp + c * vrq;
        }
      }
  }
  std::vector<std::int64_t> idx(static_cast<std::size_t>(k));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) { return at(x, x).real() < at(y, y).real(); });
  std::vector<C> v2(vec.size());
  w.resize(static_cast<std::size_t>(k));
  for (std::int64_t c = 0; c < k; ++c) {
    w[c] = at(idx[c], idx[c]).real();
    for (std::int64_t r = 0; r < k; ++r) v2[r * k + c] = vec[r * k + idx[c]];
  }
  vec = std::move(v2);
}

/// eigsh over an operator descriptor (shared by eigsh and svds). Every check before device work.
eigsh_result eigsh_impl(const op_desc& A, const eigsh_options& o) {
  const std::int64_t rows = A.shape[0], cols = A.shape[1];
  CUSCI_EXPECTS(rows == cols, value_error,
                std::string(kEigsh) + ": expected square matrix (shape=" + shape_str(A.shape) + ")");
  const dtype dt = A.dt;
  CUSCI_EXPECTS(supported_dtype(dt), type_error,
                std::string(kEigsh) + ": matrix type must be float32, float64, complex64 or complex128, got " +
                    std::string(dtype_name(dt)));
  const bool complex_a = dt == dtype::complex64 || dt == dtype::complex128;
  if (complex_a)
    CUSCI_EXPECTS(o.mode == "normal", value_error,
                  std::string(kEigsh) + ": mode=" + o.mode + " cannot be used with complex matrix A");
  problem p;
  p.which = parse_which(o.which, complex_a);
  const std::int64_t n = rows;
  if (o.M) {
    CUSCI_EXPECTS(
        o.M->shape() == A.shape, value_error,
        std::string(kEigsh) + ": wrong M dimensions " + shape_str(o.M->shape()) + ", should be " + shape_str(A.shape));
    CUSCI_EXPECTS(supported_dtype(o.M->dtype()), type_error,
                  std::string(kEigsh) + ": M must have a float or complex dtype");
  }
  CUSCI_EXPECTS(o.k > 0, value_error, std::string(kEigsh) + ": k must be greater than 0.");
  const std::int64_t kmax = complex_a ? n - 1 : n;
  if (o.k >= kmax) {
    if (complex_a)
      throw type_error(std::string(kEigsh) +
                       ": k >= N - 1 for N * N square matrix: cannot use scipy.linalg.eig for "
                       "sparse A or LinearOperator A with k >= N - 1. Reduce k.");
    throw type_error(std::string(kEigsh) + ": k >= N for N * N square matrix: " +
                     (A.csr ? "Cannot use scipy.linalg.eigh for sparse A with k >= N. Use "
                              "scipy.linalg.eigh(A.toarray()) or reduce k."
                            : "Cannot use scipy.linalg.eigh for LinearOperator A with k >= N."));
  }
  for (const linear_operator* op : {o.Minv ? &*o.Minv : nullptr, o.OPinv ? &*o.OPinv : nullptr})
    if (op) {
      CUSCI_EXPECTS(op->shape() == A.shape, value_error,
                    std::string(kEigsh) + ": Minv / OPinv must have shape " + shape_str(A.shape) + ", got " +
                        shape_str(op->shape()));
      CUSCI_EXPECTS(supported_dtype(op->dtype()), type_error,
                    std::string(kEigsh) + ": Minv / OPinv must have a float or complex dtype");
    }
  if (!o.sigma) {
    CUSCI_EXPECTS(!o.OPinv, value_error, std::string(kEigsh) + ": OPinv should not be specified with sigma = None.");
    if (!o.M) {
      CUSCI_EXPECTS(!o.Minv, value_error, std::string(kEigsh) + ": Minv should not be specified with M = None.");
      p.mode = 1;
    } else {
      p.mode = 2;
      p.bmat = true;
      if (!o.Minv)
        CUSCI_EXPECTS(o.M->csr() != nullptr && (n <= kDenseMax || has_superlu()), not_implemented_error,
                      std::string(kEigsh) +
                          ": inv(M) without Minv needs M as a csr_matrix (and SuperLU or n <= 4096); pass Minv");
    }
  } else {
    CUSCI_EXPECTS(!o.Minv, value_error,
                  std::string(kEigsh) + ": Minv should not be specified when sigma is specified.");
    if (o.mode == "normal") {
      p.mode = 3;
      p.bmat = static_cast<bool>(o.M);
    } else if (o.mode == "buckling") {
      p.mode = 4;
      p.bmat = true;
    } else if (o.mode == "cayley") {
      p.mode = 5;
      p.bmat = static_cast<bool>(o.M);
    } else {
      throw value_error(std::string(kEigsh) + ": unrecognized mode '" + o.mode + "'");
    }
    CUSCI_EXPECTS(std::isfinite(*o.sigma), value_error, std::string(kEigsh) + ": sigma must be finite");
    if (!o.OPinv)
      CUSCI_EXPECTS(A.csr != nullptr && (!o.M || o.M->csr() != nullptr) && (n <= kDenseMax || has_superlu()),
                    not_implemented_error,
                    std::string(kEigsh) +
                        ": inv(A - sigma M) without OPinv needs A (and M) as csr_matrix (and SuperLU or n <= "
                        "4096); pass OPinv");
    p.sigma = *o.sigma;
  }
  if (!o.sigma && o.mode != "normal" && o.mode != "buckling" && o.mode != "cayley")
    throw value_error(std::string(kEigsh) + ": unrecognized mode '" + o.mode + "'");
  const std::int64_t maxiter = o.maxiter.value_or(n * 10);
  CUSCI_EXPECTS(maxiter > 0, value_error,
                std::string(kEigsh) + ": maxiter must be positive, maxiter=" + std::to_string(maxiter));
  const std::int64_t ncv = std::min(o.ncv.value_or(std::max<std::int64_t>(2 * o.k + 1, 20)), n);
  CUSCI_EXPECTS(ncv > o.k, value_error, std::string(kEigsh) + ": ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  if (o.v0) {
    const ndarray& v0 = *o.v0;
    const bool ok = (v0.ndim() == 1 && v0.shape(0) == n) || (v0.ndim() == 2 && v0.shape(0) == n && v0.shape(1) == 1);
    CUSCI_EXPECTS(
        ok, value_error,
        std::string(kEigsh) + ": v0 must have shape (" + std::to_string(n) + ",), got " + shape_str(v0.shape()));
    CUSCI_EXPECTS(supported_dtype(v0.dtype()) || !is_complex(v0.dtype()), type_error,
                  std::string(kEigsh) + ": v0 must be numeric");
  }
  CUSCI_EXPECTS(n <= std::numeric_limits<int>::max(), not_implemented_error,
                std::string(kEigsh) + ": n > 2^31 - 1 is not supported");
  p.n = n;
  p.k = o.k;
  p.ncv = ncv;
  p.maxiter = maxiter;
  p.tol = o.tol;
  p.vectors = o.return_eigenvectors;
  p.seed = o.rng.value_or(0);
  p.v0 = o.v0;
  p.dt = dt;
  p.Afn = A.fn;
  p.Acsr = A.csr;
  p.M = o.M ? &*o.M : nullptr;
  p.Minv = o.Minv ? &*o.Minv : nullptr;
  p.OPinv = o.OPinv ? &*o.OPinv : nullptr;

  lanczos_out out = dispatch_inexact(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    lanczos<T> solver(p);
    return solver.run();
  });
  const dtype rt = real_dtype(dt);
  if (!out.converged) {
    std::ostringstream os;
    os << kEigsh << ": ARPACK error -1: No convergence (" << out.iterations << " iterations, " << out.nconv << "/"
       << p.k << " eigenvectors converged)";
    throw arpack_no_convergence(os.str(), to_device_real(out.w, rt), out.v);
  }
  eigsh_result r;
  r.w = to_device_real(out.w, rt);
  if (o.return_eigenvectors) r.v = out.v;
  r.iterations = out.iterations;
  r.op_products = out.op_products;
  return r;
}

/// svds' step after eigsh, for one value type: AV = X V, its Gram matrix, and the singular vectors.
template <class T>
void svds_vectors(const vec_fn& X_dot, const ndarray& Vt, std::int64_t k, std::int64_t p, std::int64_t mn, dtype dt,
                  bool tall, bool jobu, bool jobv, svds_result& r) {
  using R = real_t<T>;
  cudaStream_t st = get_current_stream();
  // AV: k rows of length p (column-major p x k).
  ndarray AV = empty({k, p}, dt);
  for (std::int64_t c = 0; c < k; ++c) {
    ndarray y = X_dot(Vt[c]).astype(dt, false);
    if (!y.is_c_contiguous()) y = y.copy();
    CUSCI_EXPECTS(y.size() == p, value_error, std::string(kSvds) + ": A's product returned a vector of the wrong size");
    CUSCI_CUDA_TRY(
        cudaMemcpyAsync(AV[c].data(), y.data(), static_cast<std::size_t>(p) * sizeof(T), cudaMemcpyDeviceToDevice, st));
  }
  // G = AV^H AV (k x k, column-major: G(i, j) = a_i^H a_j).
  cublasHandle_t h = cusci::detail::cublas_handle();
  ndarray G = empty({k, k}, dt);
  const int ik = static_cast<int>(k), ip = static_cast<int>(p), imn = static_cast<int>(mn);
  gemm<T>(h, true, ik, ik, ip, AV.data_as<T>(), ip, AV.data_as<T>(), ip, G.data_as<T>(), ik);
  std::vector<T> gh(static_cast<std::size_t>(k * k));
  CUSCI_CUDA_TRY(cudaMemcpyAsync(gh.data(), G.data(), gh.size() * sizeof(T), cudaMemcpyDeviceToHost, st));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
  std::vector<std::complex<double>> a(gh.size());
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = 0; j < k; ++j) {
      const T v = gh[static_cast<std::size_t>(i + j * k)];
      if constexpr (is_cplx_v<T>)
        a[static_cast<std::size_t>(i * k + j)] = {static_cast<double>(v.real()), static_cast<double>(v.imag())};
      else
        a[static_cast<std::size_t>(i * k + j)] = {static_cast<double>(v), 0.0};
    }
  std::vector<double> ev;
  std::vector<std::complex<double>> W;
  jacobi_eigh(a, k, ev, W);
  std::vector<double> s(static_cast<std::size_t>(k));
  for (std::int64_t c = 0; c < k; ++c) s[c] = std::sqrt(std::max(ev[c], 0.0));
  r.s = to_device_real(s, real_dtype(dt));
  if (!jobu && !jobv) return;
  // W (column-major, T) and W / s.
  std::vector<T> w1(static_cast<std::size_t>(k * k)), w2(w1.size());
  for (std::int64_t rr = 0; rr < k; ++rr)
    for (std::int64_t c = 0; c < k; ++c) {
      const std::complex<double> z = W[static_cast<std::size_t>(rr * k + c)];
      const double is = s[c] > 0 ? 1.0 / s[c] : 0.0;
      if constexpr (is_cplx_v<T>) {
        w1[static_cast<std::size_t>(rr + c * k)] = T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
        w2[static_cast<std::size_t>(rr + c * k)] = T(static_cast<R>(z.real() * is), static_cast<R>(z.imag() * is));
      } else {
        w1[static_cast<std::size_t>(rr + c * k)] = static_cast<T>(z.real());
        w2[static_cast<std::size_t>(rr + c * k)] = static_cast<T>(z.real() * is);
      }
    }
  ndarray W1 = asarray(static_cast<const void*>(w1.data()), dt, {k, k});
  ndarray W2 = asarray(static_cast<const void*>(w2.data()), dt, {k, k});
  // left (p x k) = AV W / s; right (mn x k) = V W; both column-major = [k, p] / [k, mn] rows.
  ndarray left = empty({k, p}, dt), right = empty({k, mn}, dt);
  gemm<T>(h, false, ip, ik, ik, AV.data_as<T>(), ip, W2.data_as<T>(), ik, left.data_as<T>(), ip);
  gemm<T>(h, false, imn, ik, ik, Vt.data_as<T>(), imn, W1.data_as<T>(), ik, right.data_as<T>(), imn);
  // u = columns (X = A: left; X = A^H: right) -> [rows, k]; vh = the other's columns conjugated, as
  // rows -> [k, cols].
  const ndarray& ucols = tall ? left : right;
  ndarray vrows = (tall ? right : left).copy();
  const std::int64_t nv = vrows.size();
  if constexpr (is_cplx_v<T>) {
    k_conj<T><<<cusci::detail::grid_for(nv), kThreads, 0, st>>>(nv, vrows.data_as<T>());
    CUSCI_CHECK_LAUNCH();
  }
  if (jobu) r.u = ucols.T().copy();
  if (jobv) r.vh = vrows;
}

}  // namespace

eigsh_result eigsh(const linear_operator& A, const eigsh_options& o) {
  op_desc d;
  d.shape = A.shape();
  d.dt = A.dtype();
  d.fn = [A](const ndarray& x) { return A.matvec(x); };
  d.csr = A.csr();
  return eigsh_impl(d, o);
}

svds_result svds(const linear_operator& A, const svds_options& o) {
  std::string solver = o.solver;
  std::transform(solver.begin(), solver.end(), solver.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  CUSCI_EXPECTS(solver == "arpack" || solver == "lobpcg" || solver == "propack", value_error,
                std::string(kSvds) + ": solver must be one of {'arpack', 'lobpcg', 'propack'}.");
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const dtype dt = A.dtype();
  CUSCI_EXPECTS(supported_dtype(dt), value_error, std::string(kSvds) + ": `A` must be of numeric data type.");
  CUSCI_EXPECTS(m * n != 0, value_error, std::string(kSvds) + ": `A` must not be empty.");
  const std::int64_t mn = std::min(m, n);
  CUSCI_EXPECTS(o.k > 0 && o.k < mn, value_error,
                std::string(kSvds) + ": `k` must be an integer satisfying `0 < k < min(A.shape)`.");
  if (o.ncv)
    CUSCI_EXPECTS(*o.ncv > o.k && *o.ncv < mn, value_error,
                  std::string(kSvds) + ": `ncv` must be an integer satisfying `k < ncv < min(A.shape)`.");
  CUSCI_EXPECTS(o.tol >= 0 && std::isfinite(o.tol), value_error,
                std::string(kSvds) + ": `tol` must be a non-negative floating point value.");
  std::string which = o.which;
  std::transform(which.begin(), which.end(), which.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  CUSCI_EXPECTS(which == "LM" || which == "SM", value_error, std::string(kSvds) + ": `which` must be in {'LM', 'SM'}.");
  if (o.v0) {
    CUSCI_EXPECTS(supported_dtype(o.v0->dtype()), value_error,
                  std::string(kSvds) + ": `v0` must be of floating or complex floating data type.");
    CUSCI_EXPECTS(o.v0->ndim() == 1 && o.v0->shape(0) == mn, value_error,
                  std::string(kSvds) + ": `v0` must have shape (" + std::to_string(mn) + ",).");
  }
  if (o.maxiter)
    CUSCI_EXPECTS(*o.maxiter > 0, value_error, std::string(kSvds) + ": `maxiter` must be a positive integer.");
  CUSCI_EXPECTS(A.has_rmatvec(), not_implemented_error,
                std::string(kSvds) + ": A must define rmatvec (A^H x) for svds");
  CUSCI_EXPECTS(m <= std::numeric_limits<int>::max() && n <= std::numeric_limits<int>::max(), not_implemented_error,
                std::string(kSvds) + ": dimensions above 2^31 - 1 are not supported");

  const bool tall = m >= n;  // X = A (eigsh of A^H A, n x n), else X = A^H (of A A^H, m x m)
  const linear_operator Aop = A;
  vec_fn X_dot = [Aop, tall](const ndarray& x) { return tall ? Aop.matvec(x) : Aop.rmatvec(x); };
  vec_fn XH_dot = [Aop, tall](const ndarray& x) { return tall ? Aop.rmatvec(x) : Aop.matvec(x); };
  op_desc d;
  d.shape = {mn, mn};
  d.dt = dt;
  d.fn = [X_dot, XH_dot](const ndarray& x) { return XH_dot(X_dot(x)); };
  eigsh_options eo;
  eo.k = o.k;
  eo.tol = o.tol * o.tol;
  eo.maxiter = o.maxiter;
  eo.ncv = o.ncv;
  eo.which = which;
  eo.v0 = o.v0;
  eo.rng = o.rng;
  eo.return_eigenvectors = true;
  eigsh_result er = eigsh_impl(d, eo);
  const ndarray Vt = er.v.T().copy();  // [k, mn] rows (column-major mn x k)
  const bool jobu =
      o.return_singular_vectors == singular_vectors::both || o.return_singular_vectors == singular_vectors::u;
  const bool jobv =
      o.return_singular_vectors == singular_vectors::both || o.return_singular_vectors == singular_vectors::vh;
  svds_result r;
  dispatch_inexact(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    svds_vectors<T>(X_dot, Vt, o.k, tall ? m : n, mn, dt, tall, jobu, jobv, r);
  });
  return r;
}

}  // namespace cusci::sparse::linalg
