// scipy.sparse.linalg's long-recurrence Krylov solvers on the device: gmres, lgmres, gcrotmk and
// minres, with SciPy 1.18's iterations, stopping rules and info codes.
//
// The Krylov bases are [rows, n] row-major device matrices (column-major n x rows for cuBLAS). gmres
// orthogonalises with the fused Gram-Schmidt step of gram_schmidt.cu (classical Gram-Schmidt whose
// DGKS second pass is decided on the device, the vector normalised there too), reads each Hessenberg
// column with one host wait and queues the next step before that wait where nothing observable runs
// in a step. Columns beyond the fused step's row bound, and lgmres and gcrotmk, orthogonalise with
// two gemv calls a pass (h = V^H w and w -= V h), the second (DGKS) pass only when ||w|| fell below
// 1/sqrt(2) of its value before the pass; their coefficients and norms are written by cuBLAS into one
// small device buffer (device pointer mode) and read into pinned memory with a single host wait. The
// small Hessenberg problems are solved on the host in float64 / complex128 (krylov_gmres_detail.hpp).
//
// minres keeps SciPy's Lanczos recurrence; its one host wait per step reads the step's alpha and beta
// together with norm(x) of the step before, whose stopping test is thereby decided one step late.
// The step's alpha enters the vector update y -= (alpha / beta) r2 on the device: its coefficient
// -alpha / beta is computed by cuBLAS as the dot product (-v / beta)^H y, so no host wait is needed.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/checks.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/detail/host_linalg.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/krylov_gmres.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "linalg/gram_schmidt.hpp"
#include "linalg/krylov_gmres_detail.hpp"

namespace cusci::sparse::linalg {
namespace {

using cusci::detail::shape_str;
using namespace linalg::gmres_detail;

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> constexpr bool is_cplx_v = !std::is_same_v<T, real_t<T>>;
/// The host scalar type of the small problems: float64 or complex128.
template <class T> using host_t = std::conditional_t<is_cplx_v<T>, std::complex<double>, double>;

template <class T>
T to_dev(const host_t<T>& v) {
  if constexpr (is_cplx_v<T>) return T(static_cast<real_t<T>>(v.real()), static_cast<real_t<T>>(v.imag()));
  else return static_cast<T>(v);
}
template <class T>
host_t<T> to_host(const T& v) {
  if constexpr (is_cplx_v<T>) return host_t<T>(v.real(), v.imag());
  else return static_cast<double>(v);
}

// ---- cuBLAS, 64-bit sizes, unit strides ------------------------------------------------------------
template <class T> struct blas;
#define CUSCI_KRYLOV_BLAS(T, CT, RT, gemv, dotc, nrm2, axpy, scal, copy)                                    \
  template <> struct blas<T> {                                                                             \
    static void gemv_(cublasHandle_t h, cublasOperation_t op, std::int64_t m, std::int64_t n, const T* a,   \
                      const T* A, std::int64_t lda, const T* x, const T* b, T* y) {                         \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(gemv)(h, op, m, n, reinterpret_cast<const CT*>(a),                        \
                                        reinterpret_cast<const CT*>(A), lda, reinterpret_cast<const CT*>(x), \
                                        1, reinterpret_cast<const CT*>(b), reinterpret_cast<CT*>(y), 1));    \
    }                                                                                                      \
    static void dotc_(cublasHandle_t h, std::int64_t n, const T* x, const T* y, T* r) {                      \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(dotc)(h, n, reinterpret_cast<const CT*>(x), 1, reinterpret_cast<const CT*>(y), \
                                        1, reinterpret_cast<CT*>(r)));                                      \
    }                                                                                                      \
    static void nrm2_(cublasHandle_t h, std::int64_t n, const T* x, RT* r) {                                \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(nrm2)(h, n, reinterpret_cast<const CT*>(x), 1, r));                      \
    }                                                                                                      \
    static void axpy_(cublasHandle_t h, std::int64_t n, const T* a, const T* x, T* y) {                     \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(axpy)(h, n, reinterpret_cast<const CT*>(a), reinterpret_cast<const CT*>(x), 1, \
                                        reinterpret_cast<CT*>(y), 1));                                      \
    }                                                                                                      \
    static void scal_(cublasHandle_t h, std::int64_t n, const T* a, T* x) {                                 \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(scal)(h, n, reinterpret_cast<const CT*>(a), reinterpret_cast<CT*>(x), 1));  \
    }                                                                                                      \
    static void copy_(cublasHandle_t h, std::int64_t n, const T* x, T* y) {                                 \
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(copy)(h, n, reinterpret_cast<const CT*>(x), 1, reinterpret_cast<CT*>(y), 1)); \
    }                                                                                                      \
  };
CUSCI_KRYLOV_BLAS(float, float, float, cublasSgemv_64, cublasSdot_64, cublasSnrm2_64, cublasSaxpy_64,
                  cublasSscal_64, cublasScopy_64)
CUSCI_KRYLOV_BLAS(double, double, double, cublasDgemv_64, cublasDdot_64, cublasDnrm2_64, cublasDaxpy_64,
                  cublasDscal_64, cublasDcopy_64)
CUSCI_KRYLOV_BLAS(std::complex<float>, cuComplex, float, cublasCgemv_64, cublasCdotc_64, cublasScnrm2_64,
                  cublasCaxpy_64, cublasCscal_64, cublasCcopy_64)
CUSCI_KRYLOV_BLAS(std::complex<double>, cuDoubleComplex, double, cublasZgemv_64, cublasZdotc_64,
                  cublasDznrm2_64, cublasZaxpy_64, cublasZscal_64, cublasZcopy_64)
#undef CUSCI_KRYLOV_BLAS

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ndarray as_vector(const ndarray& a, dtype dt, std::int64_t n, bool force_copy) {
  ndarray c = a.astype(dt, force_copy);
  if (!c.is_c_contiguous()) c = c.copy();
  return c.reshape({n});
}

// ---- argument checks (no device work) --------------------------------------------------------------
struct system_info {
  dtype xt = dtype::float64;
  std::int64_t n = 0;
};

system_info check_system(const char* fn, const linear_operator& A, const ndarray& b, const std::optional<ndarray>& x0,
                         const std::optional<linear_operator>& M, const double* atol, double rtol) {
  cusci::detail::check_same_device(fn, {&b, x0 ? &*x0 : nullptr});
  const std::int64_t m = A.shape()[0], n = A.shape()[1];
  const std::string a_shape = shape_str(A.shape());
  CUSCI_EXPECTS(m == n, value_error, std::string(fn) + ": expected square matrix, but got shape=" + a_shape);
  auto vec_ok = [n](const ndarray& v) {
    return (v.ndim() == 1 && v.shape(0) == n) || (v.ndim() == 2 && v.shape(0) == n && v.shape(1) == 1);
  };
  CUSCI_EXPECTS(vec_ok(b), value_error,
                std::string(fn) + ": shapes of A " + a_shape + " and b " + shape_str(b.shape()) + " are incompatible");
  auto numeric = [](dtype t) { return t != dtype::bool_ && (is_floating(t) || is_complex(t) || is_integer(t)); };
  CUSCI_EXPECTS(numeric(b.dtype()), type_error,
                std::string(fn) + ": b must be a numeric array, got dtype " + std::string(dtype_name(b.dtype())));
  if (x0) {
    CUSCI_EXPECTS(vec_ok(*x0), value_error,
                  std::string(fn) + ": shapes of A " + a_shape + " and x0 " + shape_str(x0->shape()) +
                      " are incompatible");
    CUSCI_EXPECTS(numeric(x0->dtype()), type_error,
                  std::string(fn) + ": x0 must be a numeric array, got dtype " + std::string(dtype_name(x0->dtype())));
  }
  if (M)
    CUSCI_EXPECTS(M->shape() == A.shape(), value_error,
                  std::string(fn) + ": matrix and preconditioner have different shapes");
  if (atol && !(*atol >= 0.0)) {
    std::ostringstream os;
    os << fn << ": called with invalid `atol`=" << *atol << "; if set, `atol` must be a real, non-negative number.";
    throw value_error(os.str());
  }
  CUSCI_EXPECTS(!std::isnan(rtol), value_error, std::string(fn) + ": rtol must be a number, got nan");
  const dtype at = A.dtype();
  CUSCI_EXPECTS(at == dtype::float32 || at == dtype::float64 || at == dtype::complex64 || at == dtype::complex128,
                type_error,
                std::string(fn) + ": A must be float32, float64, complex64 or complex128, got " +
                    std::string(dtype_name(at)));
  const dtype bt = (is_floating(b.dtype()) || is_complex(b.dtype())) ? b.dtype() : dtype::float64;
  dtype xt = promote_types(at, bt);
  if (xt == dtype::float16) xt = dtype::float32;
  return {xt, n};
}

template <class F>
decltype(auto) dispatch_solver(dtype xt, const char* fn, F&& f) {
  switch (xt) {
    case dtype::float32: return f(static_cast<float*>(nullptr));
    case dtype::float64: return f(static_cast<double*>(nullptr));
    case dtype::complex64: return f(static_cast<std::complex<float>*>(nullptr));
    case dtype::complex128: return f(static_cast<std::complex<double>*>(nullptr));
    default: break;
  }
  throw type_error(std::string(fn) + ": unsupported dtype " + std::string(dtype_name(xt)));
}

// ---- the device side of a solve ---------------------------------------------------------------------
// Vectors, the operators, cuBLAS with the solver's pointer mode, and the scalar buffer read once per
// iteration. The buffer holds T coefficients [0, 2 cap) (two Gram-Schmidt passes) and kNorms real
// slots after them.
template <class T>
struct engine {
  using R = real_t<T>;
  using S = host_t<T>;
  static constexpr int kNorms = 8;

  const char* fn;
  const linear_operator& A;
  const linear_operator* M;
  dtype xt;
  std::int64_t n;
  std::size_t cap;
  cudaStream_t st;
  cublasHandle_t h;
  cublasPointerMode_t mode0 = CUBLAS_POINTER_MODE_HOST, mode = CUBLAS_POINTER_MODE_HOST;
  device_buffer<T> dbuf;
  memory_ptr pin, stage;
  double eps;
  bool staged = false;  // an upload is pending since the last host wait
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  engine(const char* f, const linear_operator& a, const linear_operator* m, dtype t, std::int64_t nn, std::size_t c)
      : fn(f), A(a), M(m), xt(t), n(nn), cap(c), st(get_current_stream()), h(cusci::detail::cublas_handle()) {
    CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGetPointerMode)(h, &mode0));
    mode = mode0;
    const std::size_t slots = 2 * cap + kNorms;
    dbuf = device_buffer<T>(slots, st);
    pin = pinned_malloc(slots * sizeof(T));
    stage = pinned_malloc(cap * sizeof(T));
    eps = static_cast<double>(std::numeric_limits<R>::epsilon());
  }
  ~engine() {
    if (mode != mode0) CUSCI_LAZY(cublasSetPointerMode)(h, mode0);
    // A copy from the pinned staging area may still be pending: let it finish before the area goes
    // back to the pool (not checked: a destructor must not throw; a failure shows at the next call).
    if (staged) (void)cudaStreamSynchronize(st);
  }
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  void set_mode(cublasPointerMode_t m) {
    if (m != mode) {
      CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetPointerMode)(h, m));
      mode = m;
    }
  }
  T* coef(int pass = 0) const { return dbuf.data() + pass * cap; }
  R* norms() const { return reinterpret_cast<R*>(dbuf.data() + 2 * cap); }
  const T* hcoef(int pass = 0) const { return static_cast<const T*>(pin->ptr()) + pass * cap; }
  const R* hnorms() const { return reinterpret_cast<const R*>(static_cast<const T*>(pin->ptr()) + 2 * cap); }

  // Copies coefficients [0, k) of `pass` and the first `nn` norms to the host; one wait.
  void read(int pass, std::size_t k, int nn) {
    if (k > 0)
      CUSCI_CUDA_TRY(cudaMemcpyAsync(const_cast<T*>(hcoef(pass)), coef(pass), k * sizeof(T), cudaMemcpyDeviceToHost, st));
    if (nn > 0)
      CUSCI_CUDA_TRY(cudaMemcpyAsync(const_cast<R*>(hnorms()), norms(), static_cast<std::size_t>(nn) * sizeof(R),
                                     cudaMemcpyDeviceToHost, st));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(st));
    staged = false;
  }
  double hnorm(int i) const { return static_cast<double>(hnorms()[i]); }
  S hcoef_at(int pass, std::size_t i) const { return to_host<T>(hcoef(pass)[i]); }

  // Host values to the device coefficient area of pass 0 (through pinned staging; the staging area
  // is rewritten only after a later host wait).
  void upload(const std::vector<S>& v) {
    T* s = static_cast<T*>(stage->ptr());
    for (std::size_t i = 0; i < v.size(); ++i) s[i] = to_dev<T>(v[i]);
    if (!v.empty()) {
      CUSCI_CUDA_TRY(cudaMemcpyAsync(coef(0), s, v.size() * sizeof(T), cudaMemcpyHostToDevice, st));
      staged = true;
    }
  }

  ndarray vec(const ndarray& a, bool copy = false) const { return as_vector(a, xt, n, copy); }
  ndarray new_vec() const { return empty({n}, xt); }
  ndarray Av(const ndarray& x) const { return vec(A.matvec(x)); }
  ndarray Mv(const ndarray& x) const { return M ? vec(M->matvec(x)) : x; }

  // y = alpha x + y, x *= alpha, y = x (host scalars).
  void axpy(const S& alpha, const T* x, T* y) {
    set_mode(CUBLAS_POINTER_MODE_HOST);
    const T a = to_dev<T>(alpha);
    blas<T>::axpy_(h, n, &a, x, y);
  }
  void axpy(const S& alpha, const ndarray& x, ndarray& y) { axpy(alpha, x.data_as<T>(), y.data_as<T>()); }
  void scal(const S& alpha, T* x) {
    set_mode(CUBLAS_POINTER_MODE_HOST);
    const T a = to_dev<T>(alpha);
    blas<T>::scal_(h, n, &a, x);
  }
  void copy(const T* x, T* y) { blas<T>::copy_(h, n, x, y); }
  ndarray copy_of(const ndarray& x) {
    ndarray y = new_vec();
    copy(x.data_as<T>(), y.data_as<T>());
    return y;
  }
  // Device results.
  void nrm2(const T* x, int slot) {
    set_mode(CUBLAS_POINTER_MODE_DEVICE);
    blas<T>::nrm2_(h, n, x, norms() + slot);
  }
  void dotc(const T* x, const T* y, T* out) {
    set_mode(CUBLAS_POINTER_MODE_DEVICE);
    blas<T>::dotc_(h, n, x, y, out);
  }
  // out[0, k) = V[0, k)^H w, V row-major [k, n].
  void gemv_c(const T* V, std::int64_t k, const T* w, T* out) {
    set_mode(CUBLAS_POINTER_MODE_HOST);
    const T one(1), zero(0);
    blas<T>::gemv_(h, is_cplx_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T, n, k, &one, V, n, w, &zero, out);
  }
  // y = alpha V[0, k)^T c + beta y (c on the device).
  void gemv_n(const T* V, std::int64_t k, const T* c, T* y, double alpha, double beta) {
    set_mode(CUBLAS_POINTER_MODE_HOST);
    const T a(static_cast<R>(alpha)), bb(static_cast<R>(beta));
    blas<T>::gemv_(h, CUBLAS_OP_N, n, k, &a, V, n, c, &bb, y);
  }

  // Orthogonalises w against the rows of C [kc, n] and then of V [kv, n] by classical Gram-Schmidt,
  // with a second pass when ||w|| dropped below 1/sqrt(2) of ||w|| before (DGKS). Returns the
  // coefficients (C's first), ||w|| before (h0) and after (h1). One host wait (two with the second
  // pass). A non-finite w propagates into h0 / h1 (NaN fails every comparison: no second pass).
  struct ortho_result {
    std::vector<S> hc, hv;
    double h0 = 0, h1 = 0;
  };
  ortho_result orthogonalize(const T* C, std::int64_t kc, const T* V, std::int64_t kv, T* w) {
    ortho_result o;
    auto pass = [&](int p) {
      if (kc > 0) {
        gemv_c(C, kc, w, coef(p));
        gemv_n(C, kc, coef(p), w, -1.0, 1.0);
      }
      if (kv > 0) {
        gemv_c(V, kv, w, coef(p) + kc);
        gemv_n(V, kv, coef(p) + kc, w, -1.0, 1.0);
      }
      nrm2(w, p);
    };
    const std::size_t k = static_cast<std::size_t>(kc + kv);
    if (k == 0) nrm2(w, 0);
    else pass(0);
    read(0, k, 1);
    o.h1 = hnorm(0);
    std::vector<S> all(k);
    double hh = 0;
    for (std::size_t i = 0; i < k; ++i) {
      all[i] = hcoef_at(0, i);
      hh += abs2(all[i]);
    }
    // ||w|| before the pass, by Pythagoras (the basis is orthonormal to working precision): saves a
    // pass over w.
    o.h0 = std::sqrt(o.h1 * o.h1 + hh);
    if (k > 0 && o.h1 * o.h1 < 0.5 * o.h0 * o.h0) {
      pass(1);
      read(1, k, 2);
      for (std::size_t i = 0; i < k; ++i) all[i] += hcoef_at(1, i);
      o.h1 = hnorm(1);
    }
    o.hc.assign(all.begin(), all.begin() + kc);
    o.hv.assign(all.begin() + kc, all.end());
    return o;
  }

  // The 0-d float64 array SciPy's pr_norm callbacks receive.
  static ndarray scalar_array(double v) { return full(shape_t{}, scalar(v), dtype::float64); }
};

// The Arnoldi steps of gmres: w = V[c + 1] = M A V[c], then the fused Gram-Schmidt step of
// gram_schmidt.cu (columns c < kmax: orthogonalised and normalised on the device, its Hessenberg column
// read by the host with one wait). Each step's result goes to one of two pinned slots, so the step of
// column c + 1 can be queued before the host waits for column c's (look-ahead: the device does not
// idle while the host applies its rotations). A step queued past the last column of a cycle writes
// only the basis row after it, which the solution update does not read.
template <class T>
struct gmres_steps {
  using S = host_t<T>;
  engine<T>& e;
  ndarray& V;
  bool direct;
  std::int64_t kmax, roff;
  std::size_t slot;
  gs_detail::workspace ws;
  memory_ptr pin;
  cusci::event ev[2] = {cusci::event(true), cusci::event(true)};
  ndarray a_val, a_ind, a_ptr;

  gmres_steps(engine<T>& eng, ndarray& basis, bool dir)
      : e(eng), V(basis), direct(dir), kmax(gs_detail::fused_max_rows(eng.xt)),
        roff(gs_detail::result_offset(eng.xt)),
        slot(static_cast<std::size_t>(gs_detail::result_doubles(eng.xt, kmax))), ws(eng.xt, eng.n, eng.st),
        pin(pinned_malloc(2 * slot * sizeof(double))) {
    if (direct) {
      const csr_matrix* Ac = e.A.csr();
      a_val = Ac->data();
      a_ind = Ac->indices();
      a_ptr = Ac->indptr();
    }
  }
  // A copy into a pinned slot may still be pending (an exception left the loop): let it finish before
  // the slots go back to the pool (unchecked: a destructor must not throw).
  ~gmres_steps() { (void)cudaStreamSynchronize(e.st); }
  gmres_steps(const gmres_steps&) = delete;
  gmres_steps& operator=(const gmres_steps&) = delete;

  double* host(std::int64_t c) const { return static_cast<double*>(pin->ptr()) + (c % 2) * slot; }

  // V[c + 1] = M A V[c].
  void apply_operator(std::int64_t c) {
    T* w = V.data_as<T>() + (c + 1) * e.n;
    if (direct) {
      ndarray wrow = V[c + 1];
      sparse::detail::csr_spmv_stream(a_val, a_ind, a_ptr, e.n, V[c], wrow);
    } else {
      ndarray av = e.Av(V[c]);
      ndarray wv = e.Mv(av);
      e.copy(wv.data_as<T>(), w);
    }
  }
  // Queues the step of column c (c + 1 <= kmax).
  void launch(std::int64_t c) {
    apply_operator(c);
    T* w = V.data_as<T>() + (c + 1) * e.n;
    gs_detail::orthogonalize(e.xt, V.data_as<T>(), e.n, c + 1, w, e.eps, ws, e.st);
    const std::size_t nd = static_cast<std::size_t>(gs_detail::result_doubles(e.xt, c + 1));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(host(c), ws.area.data() + roff, nd * sizeof(double), cudaMemcpyDeviceToHost, e.st));
    ev[c % 2].record(e.st);
  }
  // Waits for the step of column c; returns h[0..c] and sets h0, h1.
  std::vector<S> read(std::int64_t c, double& h0, double& h1) {
    ev[c % 2].synchronize();
    const double* r = host(c);
    std::vector<S> h(static_cast<std::size_t>(c + 1));
    for (std::int64_t i = 0; i <= c; ++i) {
      if constexpr (is_cplx_v<T>) h[i] = S(r[2 * i], r[2 * i + 1]);
      else h[i] = S(r[i]);
    }
    const std::int64_t m = (is_cplx_v<T> ? 2 : 1) * (c + 1);
    h0 = r[m];
    h1 = r[m + 1];
    return h;
  }
};

// ================================================================================================ gmres
template <class T>
krylov_result gmres_impl(const linear_operator& A, const ndarray& b_in, const gmres_options& o, dtype xt,
                         std::int64_t n) {
  using S = host_t<T>;
  static constexpr const char* fn = "cusci::sparse::linalg::gmres";
  const std::int64_t restart = std::min<std::int64_t>(o.restart.value_or(20), n);
  const std::int64_t maxiter = o.maxiter.value_or(10 * n);
  const bool has_cb = static_cast<bool>(o.callback);
  const gmres_callback_type cbt = o.callback_type.value_or(gmres_callback_type::legacy);
  const bool cb_scalar = has_cb && cbt != gmres_callback_type::x;
  const bool cb_legacy = has_cb && cbt == gmres_callback_type::legacy;
  const bool cb_x = has_cb && cbt == gmres_callback_type::x;

  engine<T> e(fn, A, o.M ? &*o.M : nullptr, xt, n, static_cast<std::size_t>(restart + 1));
  krylov_result res;
  ndarray b = e.vec(b_in);
  ndarray x = o.x0 ? e.vec(*o.x0, true) : zeros({n}, xt);
  e.nrm2(b.data_as<T>(), 0);
  ndarray Mb = e.Mv(b);
  e.nrm2(Mb.data_as<T>(), 1);
  ndarray r = e.new_vec();
  ndarray z;
  if (o.x0) {
    ndarray ax = e.Av(x);
    e.copy(b.data_as<T>(), r.data_as<T>());
    e.axpy(S(-1), ax, r);
    e.nrm2(r.data_as<T>(), 2);
    z = e.Mv(r);
    e.nrm2(z.data_as<T>(), 3);
  }
  e.read(0, 0, o.x0 ? 4 : 2);
  const double bnrm2 = e.hnorm(0), Mb_nrm2 = e.hnorm(1);
  if (bnrm2 == 0) {
    res.x = b.copy();
    res.history.residual_norms.push_back(0.0);
    res.history.seconds.push_back(seconds_since(e.t0));
    return res;
  }
  const double atol = std::max(o.atol, o.rtol * bnrm2);
  double rnorm = bnrm2, znorm = Mb_nrm2;
  if (o.x0) {
    rnorm = e.hnorm(2);
    znorm = e.hnorm(3);
  } else {
    e.copy(b.data_as<T>(), r.data_as<T>());
    z = Mb;
  }
  res.history.residual_norms.push_back(znorm / bnrm2);
  res.history.seconds.push_back(seconds_since(e.t0));
  if (rnorm < atol) {
    res.x = x;
    return res;
  }
  const double eps = e.eps;
  gmres_ptol ctl;
  double ptol = Mb_nrm2 * std::min(1.0, atol / bnrm2);
  double presid = 0;
  ndarray V = empty({restart + 1, n}, xt);
  T* Vp = V.data_as<T>();
  std::int64_t inner_iter = 0;
  bool first = true;
  // A CSR matrix with short rows and no preconditioner: A v_j is written by the CSR-stream kernel
  // straight into the basis row v_{j+1} (no temporary, no copy).
  const csr_matrix* Ac = A.csr();
  const bool direct = !is_cplx_v<T> && !o.M && Ac && Ac->dtype() == xt && Ac->data().is_c_contiguous() &&
                      Ac->indices().is_c_contiguous() && Ac->indptr().is_c_contiguous() &&
                      sparse::detail::stream_spmv_preferred(Ac->shape()[0], Ac->nnz());
  gmres_steps<T> steps(e, V, direct);
  // One step of look-ahead where a step runs nothing the caller can observe (no preconditioner or
  // operator callbacks): see gmres_steps.
  const bool lookahead = direct;

  for (std::int64_t iteration = 0; iteration < maxiter; ++iteration) {
    if (!first) {
      z = e.Mv(r);
      e.nrm2(z.data_as<T>(), 0);
      e.read(0, 0, 1);
      znorm = e.hnorm(0);
    }
    first = false;
    e.copy(z.data_as<T>(), Vp);
    e.scal(S(1.0 / znorm), Vp);
    hessenberg_lsq<S> H{S(znorm)};
    bool breakdown = false;
    bool queued = false;  // the step of column col is already queued (look-ahead)
    std::int64_t col = 0;
    for (col = 0; col < restart; ++col) {
      std::vector<S> hcol;
      if (col + 1 <= steps.kmax) {
        if (!queued) steps.launch(col);
        queued = lookahead && col + 1 < restart && col + 2 <= steps.kmax;
        if (queued) steps.launch(col + 1);
        double h0 = 0, h1 = 0;
        hcol = steps.read(col, h0, h1);
        hcol.push_back(S(h1));
        if (h1 <= eps * h0) {  // the device left w unscaled
          hcol[col + 1] = S(0);
          breakdown = true;
        }
      } else {
        T* w = Vp + (col + 1) * n;
        steps.apply_operator(col);
        auto orth = e.orthogonalize(nullptr, 0, Vp, col + 1, w);
        hcol = orth.hv;
        hcol.push_back(S(orth.h1));
        if (orth.h1 <= eps * orth.h0) {
          hcol[col + 1] = S(0);
          breakdown = true;
        } else {
          e.scal(S(1.0 / orth.h1), w);
        }
      }
      presid = H.add_column(std::move(hcol));
      ++inner_iter;
      res.history.residual_norms.push_back(presid / bnrm2);
      res.history.seconds.push_back(seconds_since(e.t0));
      if (cb_scalar) o.callback(engine<T>::scalar_array(presid / bnrm2));
      if (cb_legacy && inner_iter == maxiter) break;
      if (presid <= ptol || breakdown) break;
    }
    if (col == restart) col = restart - 1;
    const std::vector<S> y = H.solve_gmres(col + 1);
    e.upload(y);
    e.gemv_n(Vp, col + 1, e.coef(0), x.data_as<T>(), 1.0, 1.0);
    ndarray ax = e.Av(x);
    e.copy(b.data_as<T>(), r.data_as<T>());
    e.axpy(S(-1), ax, r);
    e.nrm2(r.data_as<T>(), 0);
    e.read(0, 0, 1);
    rnorm = e.hnorm(0);
    res.iterations = inner_iter;
    if (cb_legacy && inner_iter == maxiter) {
      res.x = x;
      res.info = rnorm <= atol ? 0 : maxiter;
      return res;
    }
    if (cb_x) o.callback(x);
    if (rnorm <= atol) break;
    if (breakdown) break;
    ptol = ctl.next(presid, ptol, rnorm, atol, eps);
  }
  res.x = x;
  res.info = rnorm <= atol ? 0 : maxiter;
  res.iterations = inner_iter;
  return res;
}

// ============================================================================= flexible GMRES (_fgmres)
// SciPy's _fgmres (scipy/sparse/linalg/_isolve/_gcrotmk.py): m steps of flexible GMRES from the unit
// vector V[0], w = lpsolve(A z) with z = rpsolve(v_j) or an augmentation vector, orthogonalised against
// the rows of C first (coefficients B) and then against V.
template <class T>
struct fgmres_out {
  using S = host_t<T>;
  hessenberg_lsq<S> H{S(1)};
  std::vector<std::vector<S>> B;  // B[j][i] = c_i^H w_j
  std::vector<ndarray> zs;
  std::vector<S> y;
  double res = std::numeric_limits<double>::quiet_NaN();
  std::int64_t cols = 0;
  bool lin_alg_error = false;
};

template <class T>
fgmres_out<T> fgmres(engine<T>& e, ndarray& V, std::int64_t m, const linear_operator* lpsolve,
                     const linear_operator* rpsolve, double atol, const std::vector<lgmres_outer_vector>* outer,
                     bool prepend, const T* C, std::int64_t kc) {
  using S = host_t<T>;
  fgmres_out<T> out;
  const std::int64_t n = e.n, nouter = outer ? static_cast<std::int64_t>(outer->size()) : 0;
  m += nouter;
  T* Vp = V.data_as<T>();
  auto rp = [&](const ndarray& v) { return rpsolve ? as_vector(rpsolve->matvec(v), e.xt, n, false) : v; };
  auto lp = [&](const ndarray& v) { return lpsolve ? as_vector(lpsolve->matvec(v), e.xt, n, false) : v; };
  bool breakdown = false;
  std::int64_t j = 0;
  for (j = 0; j < m; ++j) {
    ndarray z;
    const ndarray* w_given = nullptr;
    if (prepend && j < nouter) {
      z = e.vec((*outer)[j].z);
      if ((*outer)[j].Az) w_given = &*(*outer)[j].Az;
    } else if (prepend && j == nouter) {
      z = rp(V[0]);
    } else if (!prepend && j >= m - nouter) {
      const auto& ov = (*outer)[j - (m - nouter)];
      z = e.vec(ov.z);
      if (ov.Az) w_given = &*ov.Az;
    } else {
      z = rp(V[j]);
    }
    T* w = Vp + (j + 1) * n;
    if (w_given) {
      ndarray wg = e.vec(*w_given);
      e.copy(wg.data_as<T>(), w);
    } else {
      ndarray wv = lp(e.Av(z));
      e.copy(wv.data_as<T>(), w);
    }
    auto orth = e.orthogonalize(C, kc, Vp, j + 1, w);
    out.B.push_back(orth.hc);
    std::vector<S> hcur = orth.hv;
    hcur.push_back(S(orth.h1));
    const double alpha = 1.0 / orth.h1;
    if (std::isfinite(alpha)) e.scal(S(alpha), w);
    if (!(orth.h1 > e.eps * orth.h0)) breakdown = true;
    out.zs.push_back(z);
    out.res = out.H.add_column(std::move(hcur));
    if (out.res < atol || breakdown) break;
  }
  if (j == m) j = m - 1;
  out.cols = j + 1;
  if (m == 0 || !std::isfinite(std::abs(out.H.R[j][j]))) {
    out.lin_alg_error = true;
    return out;
  }
  out.y = out.H.solve(j + 1);
  return out;
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double a) { return std::isfinite(a); });
}
bool all_finite(const std::vector<std::complex<double>>& v) {
  return std::all_of(v.begin(), v.end(),
                     [](const std::complex<double>& a) { return std::isfinite(a.real()) && std::isfinite(a.imag()); });
}

void check_finite_rhs(const char* fn, const ndarray& b) {
  const bool ok = all(isfinite(b)).item<bool>();
  CUSCI_EXPECTS(ok, value_error, std::string(fn) + ": RHS must contain only finite numbers");
}

// =============================================================================================== lgmres
template <class T>
krylov_result lgmres_impl(const linear_operator& A, const ndarray& b_in, const lgmres_options& o, dtype xt,
                          std::int64_t n) {
  using S = host_t<T>;
  static constexpr const char* fn = "cusci::sparse::linalg::lgmres";
  std::vector<lgmres_outer_vector> local;
  std::vector<lgmres_outer_vector>& outer_v = o.outer_v ? *o.outer_v : local;
  for (const auto& ov : outer_v) {
    CUSCI_EXPECTS(ov.z.size() == n && (!ov.Az || ov.Az->size() == n), value_error,
                  std::string(fn) + ": outer_v vectors must have " + std::to_string(n) + " entries");
  }
  const std::size_t cap =
      static_cast<std::size_t>(o.inner_m + std::max<std::int64_t>(o.outer_k, static_cast<std::int64_t>(outer_v.size())) + 2);
  engine<T> e(fn, A, o.M ? &*o.M : nullptr, xt, n, cap);
  krylov_result res;
  ndarray b = e.vec(b_in);
  check_finite_rhs(fn, b);
  ndarray x = o.x0 ? e.vec(*o.x0, true) : zeros({n}, xt);
  e.nrm2(b.data_as<T>(), 0);
  e.read(0, 0, 1);
  const double b_norm = e.hnorm(0);
  const double atol = std::max(o.atol, o.rtol * b_norm);
  if (b_norm == 0) {
    res.x = b.copy();
    return res;
  }
  double ptol_max_factor = 1.0;
  ndarray r = e.new_vec();
  std::int64_t k_outer = 0;
  bool converged = false;
  for (k_outer = 0; k_outer < o.maxiter; ++k_outer) {
    ndarray ax = e.Av(x);
    e.copy(ax.data_as<T>(), r.data_as<T>());
    e.axpy(S(-1), b, r);  // r_outer = A x - b
    if (o.callback) o.callback(x);
    e.nrm2(r.data_as<T>(), 0);
    ndarray v0 = e.Mv(r);
    e.nrm2(v0.data_as<T>(), 1);
    e.read(0, 0, 2);
    const double r_norm = e.hnorm(0);
    res.iterations = k_outer;  // outer iterations completed
    res.history.residual_norms.push_back(r_norm);
    res.history.seconds.push_back(seconds_since(e.t0));
    if (r_norm <= atol) {
      converged = true;
      break;
    }
    const double inner_res_0 = e.hnorm(1);
    if (inner_res_0 == 0) {
      std::ostringstream os;
      os.precision(1);
      os << fn << ": Preconditioner returned a zero vector; |v| ~ " << r_norm << ", |M v| = 0";
      throw runtime_error(os.str());
    }
    const std::int64_t m_tot = o.inner_m + static_cast<std::int64_t>(outer_v.size());
    ndarray V = empty({m_tot + 1, n}, xt);
    e.copy(v0.data_as<T>(), V.data_as<T>());
    e.scal(S(-1.0 / inner_res_0), V.data_as<T>());  // v0 = -M r / ||M r||
    const double ptol = std::min(ptol_max_factor, atol / r_norm);
    fgmres_out<T> f =
        fgmres<T>(e, V, o.inner_m, e.M, nullptr, ptol, &outer_v, o.prepend_outer_v, nullptr, 0);
    if (f.lin_alg_error) {
      res.x = x;
      res.info = k_outer + 1;
      return res;
    }
    std::vector<S> y = f.y;
    for (auto& v : y) v *= inner_res_0;
    if (!all_finite(y)) {
      res.x = x;
      res.info = k_outer + 1;
      return res;
    }
    if (f.res > ptol) ptol_max_factor = std::min(1.0, 1.5 * ptol_max_factor);
    else ptol_max_factor = std::max(1e-16, 0.25 * ptol_max_factor);
    ndarray dx = e.new_vec();
    e.copy(f.zs[0].template data_as<T>(), dx.data_as<T>());
    e.scal(y[0], dx.data_as<T>());
    for (std::size_t i = 1; i < f.zs.size(); ++i) e.axpy(y[i], f.zs[i], dx);
    e.nrm2(dx.data_as<T>(), 0);
    e.read(0, 0, 1);
    const double nx = e.hnorm(0);
    if (nx > 0) {
      lgmres_outer_vector ov;
      ov.z = dx.copy();
      e.scal(S(1.0 / nx), ov.z.data_as<T>());
      if (o.store_outer_Av) {
        const std::vector<S> q = f.H.h_times(y);  // Q R y = H y
        ndarray axv = zeros({n}, xt);
        e.upload(q);
        e.gemv_n(V.data_as<T>(), static_cast<std::int64_t>(q.size()), e.coef(0), axv.data_as<T>(), 1.0 / nx, 0.0);
        ov.Az = axv;
      }
      outer_v.push_back(std::move(ov));
    }
    while (static_cast<std::int64_t>(outer_v.size()) > o.outer_k) outer_v.erase(outer_v.begin());
    e.axpy(S(1), dx, x);
  }
  res.x = x;
  res.info = converged ? 0 : o.maxiter;
  if (!converged) res.iterations = o.maxiter;
  return res;
}

// ============================================================================================== gcrotmk
template <class T>
struct cu_pair {
  ndarray c, u;
};

template <class T>
krylov_result gcrotmk_impl(const linear_operator& A, const ndarray& b_in, const gcrotmk_options& o, dtype xt,
                           std::int64_t n) {
  using S = host_t<T>;
  static constexpr const char* fn = "cusci::sparse::linalg::gcrotmk";
  const std::int64_t k = o.k.value_or(o.m);
  std::vector<gcrotmk_cu> local;
  std::vector<gcrotmk_cu>& CU_io = o.CU ? *o.CU : local;
  for (const auto& p : CU_io)
    CUSCI_EXPECTS(p.u.size() == n && (!p.c || p.c->size() == n), value_error,
                  std::string(fn) + ": CU vectors must have " + std::to_string(n) + " entries");
  const std::int64_t k_cap = std::max<std::int64_t>(k, static_cast<std::int64_t>(CU_io.size()));
  const std::size_t cap = static_cast<std::size_t>(o.m + k + k_cap + 2);
  engine<T> e(fn, A, o.M ? &*o.M : nullptr, xt, n, cap);
  krylov_result res;
  ndarray b = e.vec(b_in);
  check_finite_rhs(fn, b);
  ndarray x = o.x0 ? e.vec(*o.x0, true) : zeros({n}, xt);
  ndarray r = e.new_vec();
  e.copy(b.data_as<T>(), r.data_as<T>());
  if (o.x0) e.axpy(S(-1), e.Av(x), r);
  e.nrm2(b.data_as<T>(), 0);
  e.read(0, 0, 1);
  const double b_norm = e.hnorm(0);
  const double atol = std::max(o.atol, o.rtol * b_norm);
  if (b_norm == 0) {
    res.x = b.copy();
    return res;
  }
  if (o.discard_C)
    for (auto& p : CU_io) p.c.reset();

  std::vector<cu_pair<T>> CU;
  if (!CU_io.empty()) {
    // Existing c first (stable), missing ones computed; then C = Q R P^T by pivoted Gram-Schmidt and
    // U := U P R^-1, dropping the vectors after the first R[j][j] < 1e-12 R[0][0].
    std::stable_sort(CU_io.begin(), CU_io.end(),
                     [](const gcrotmk_cu& a, const gcrotmk_cu& bb) { return !a.c.has_value() && bb.c.has_value(); });
    std::vector<ndarray> cs, us;
    for (auto& p : CU_io) {
      cs.push_back(p.c ? e.vec(*p.c, true) : e.Av(e.vec(p.u)));
      us.push_back(e.vec(p.u, true));
    }
    CU_io.clear();
    // C P = Q R by pivoted modified Gram-Schmidt (the pivot: the remaining column of largest norm,
    // as LAPACK's geqp3); then U := U P R^-1 by back substitution, u_j = (u_P[j] - sum_{i<j} R[i][j]
    // u_i) / R[j][j], stopping at the first |R[j][j]| < 1e-12 |R[0][0]|.
    const std::size_t kk = cs.size();
    std::vector<bool> used(kk, false);
    std::vector<std::size_t> perm;
    std::vector<std::vector<S>> Rm(kk, std::vector<S>(kk, S(0)));  // Rm[step][original column]
    double r00 = 0;
    std::vector<cu_pair<T>> fresh;
    for (std::size_t step = 0; step < kk; ++step) {
      std::vector<std::size_t> rest;
      for (std::size_t j = 0; j < kk; ++j)
        if (!used[j]) rest.push_back(j);
      for (std::size_t t = 0; t < rest.size(); ++t)
        e.dotc(cs[rest[t]].template data_as<T>(), cs[rest[t]].template data_as<T>(), e.coef(0) + t);
      e.read(0, rest.size(), 0);
      std::size_t p = rest[0];
      double best = -1;
      for (std::size_t t = 0; t < rest.size(); ++t) {
        const double nr = std::sqrt(std::abs(std::real(e.hcoef_at(0, t))));
        if (nr > best) {
          best = nr;
          p = rest[t];
        }
      }
      used[p] = true;
      perm.push_back(p);
      const double rjj = best;
      if (step == 0) r00 = rjj;
      ndarray u = us[p].copy();
      for (std::size_t i = 0; i < step; ++i) e.axpy(-Rm[i][p], us[perm[i]], u);
      if (rjj < 1e-12 * r00) break;
      e.scal(S(1.0 / rjj), cs[p].template data_as<T>());
      e.scal(S(1.0 / rjj), u.data_as<T>());
      us[p] = u;  // SciPy's axpy / scal work in place: later columns use the new u
      fresh.push_back({cs[p], u});
      rest.clear();
      for (std::size_t j = 0; j < kk; ++j)
        if (!used[j]) rest.push_back(j);
      if (rest.empty()) continue;
      for (std::size_t t = 0; t < rest.size(); ++t)
        e.dotc(cs[p].template data_as<T>(), cs[rest[t]].template data_as<T>(), e.coef(0) + t);
      e.read(0, rest.size(), 0);
      for (std::size_t t = 0; t < rest.size(); ++t) {
        const S a = e.hcoef_at(0, t);
        Rm[step][rest[t]] = a;
        e.axpy(-a, cs[p], cs[rest[t]]);
      }
    }
    // SciPy: CU = list(zip(cs, new_us))[::-1]
    for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) CU.push_back(*it);
  }
  if (!CU.empty()) {
    for (auto& p : CU) {
      e.dotc(p.c.template data_as<T>(), r.data_as<T>(), e.coef(0));
      e.read(0, 1, 0);
      const S yc = e.hcoef_at(0, 0);
      e.axpy(yc, p.u, x);
      e.axpy(-yc, p.c, r);
    }
  }
  std::int64_t j_outer = 0;
  bool converged = false;
  ndarray C;
  for (j_outer = 0; j_outer < o.maxiter; ++j_outer) {
    if (o.callback) o.callback(x);
    res.iterations = j_outer;  // outer iterations completed
    e.nrm2(r.data_as<T>(), 0);
    e.read(0, 0, 1);
    double beta = e.hnorm(0);
    const double beta_tol = atol;
    if (beta <= beta_tol && (j_outer > 0 || !CU.empty())) {
      ndarray ax = e.Av(x);
      e.copy(b.data_as<T>(), r.data_as<T>());
      e.axpy(S(-1), ax, r);
      e.nrm2(r.data_as<T>(), 0);
      e.read(0, 0, 1);
      beta = e.hnorm(0);
    }
    res.history.residual_norms.push_back(beta);
    res.history.seconds.push_back(seconds_since(e.t0));
    if (beta <= beta_tol) {
      converged = true;
      break;
    }
    const std::int64_t nc = static_cast<std::int64_t>(CU.size());
    const std::int64_t ml = o.m + std::max<std::int64_t>(k - nc, 0);
    if (nc > 0) {
      C = empty({nc, n}, xt);
      for (std::int64_t i = 0; i < nc; ++i) e.copy(CU[i].c.template data_as<T>(), C.data_as<T>() + i * n);
    }
    ndarray V = empty({ml + 1, n}, xt);
    e.copy(r.data_as<T>(), V.data_as<T>());
    e.scal(S(1.0 / beta), V.data_as<T>());
    fgmres_out<T> f = fgmres<T>(e, V, ml, nullptr, e.M, beta_tol / beta, nullptr, false,
                                nc > 0 ? C.data_as<T>() : nullptr, nc);
    if (f.lin_alg_error) break;
    std::vector<S> y = f.y;
    for (auto& v : y) v *= beta;
    // ux = Z y - U (B y)
    ndarray ux = e.new_vec();
    e.copy(f.zs[0].template data_as<T>(), ux.data_as<T>());
    e.scal(y[0], ux.data_as<T>());
    for (std::size_t i = 1; i < f.zs.size(); ++i) e.axpy(y[i], f.zs[i], ux);
    for (std::int64_t i = 0; i < nc; ++i) {
      S by(0);
      for (std::size_t jj = 0; jj < y.size(); ++jj) by += f.B[jj][i] * y[jj];
      e.axpy(-by, CU[i].u, ux);
    }
    // cx = V H y
    const std::vector<S> hy = f.H.h_times(y);
    ndarray cx = zeros({n}, xt);
    e.upload(hy);
    e.gemv_n(V.data_as<T>(), static_cast<std::int64_t>(hy.size()), e.coef(0), cx.data_as<T>(), 1.0, 0.0);
    e.nrm2(cx.data_as<T>(), 0);
    e.read(0, 0, 1);
    const double alpha = 1.0 / e.hnorm(0);
    if (!std::isfinite(alpha)) continue;
    e.scal(S(alpha), cx.data_as<T>());
    e.scal(S(alpha), ux.data_as<T>());
    e.dotc(cx.data_as<T>(), r.data_as<T>(), e.coef(0));
    e.read(0, 1, 0);
    const S gamma = e.hcoef_at(0, 0);
    e.axpy(-gamma, cx, r);
    e.axpy(gamma, ux, x);
    if (o.truncate == gcrotmk_truncate::oldest) {
      while (static_cast<std::int64_t>(CU.size()) >= k && !CU.empty()) CU.erase(CU.begin());
    } else if (static_cast<std::int64_t>(CU.size()) >= k && !CU.empty()) {
      if constexpr (is_cplx_v<T>) {
        throw not_implemented_error(std::string(fn) + ": truncate='smallest' is not implemented for complex systems");
      } else {
        // D = B R^-1 (R the triangle of the Hessenberg's QR), W = left singular vectors of D; keep
        // C W[:, :k-1], U W[:, :k-1], re-orthonormalised.
        const std::int64_t jc = f.cols;
        cusci::detail::hostla::rmat D(nc, jc);
        for (std::int64_t i = 0; i < nc; ++i) {
          for (std::int64_t c = 0; c < jc; ++c) {
            double v = f.B[c][i];
            for (std::int64_t l = 0; l < c; ++l) v -= D(i, l) * f.H.R[c][l];
            D(i, c) = v / f.H.R[c][c];
          }
        }
        const auto sv = cusci::detail::hostla::svd(D, true, true);
        std::vector<cu_pair<T>> new_CU;
        ndarray Cb = empty({nc, n}, xt), Ub = empty({nc, n}, xt);
        for (std::int64_t i = 0; i < nc; ++i) {
          e.copy(CU[i].c.template data_as<T>(), Cb.data_as<T>() + i * n);
          e.copy(CU[i].u.template data_as<T>(), Ub.data_as<T>() + i * n);
        }
        ndarray NC = empty({std::max<std::int64_t>(k - 1, 1), n}, xt), NU = empty({std::max<std::int64_t>(k - 1, 1), n}, xt);
        for (std::int64_t jj = 0; jj < std::min<std::int64_t>(k - 1, nc); ++jj) {
          std::vector<S> wcol(static_cast<std::size_t>(nc));
          for (std::int64_t i = 0; i < nc; ++i) wcol[i] = sv.u(i, jj);
          e.upload(wcol);
          T* c = NC.data_as<T>() + jj * n;
          T* u = NU.data_as<T>() + jj * n;
          e.gemv_n(Cb.data_as<T>(), nc, e.coef(0), c, 1.0, 0.0);
          e.gemv_n(Ub.data_as<T>(), nc, e.coef(0), u, 1.0, 0.0);
          if (jj > 0) {
            e.gemv_c(NC.data_as<T>(), jj, c, e.coef(1));
            e.gemv_n(NC.data_as<T>(), jj, e.coef(1), c, -1.0, 1.0);
            e.gemv_n(NU.data_as<T>(), jj, e.coef(1), u, -1.0, 1.0);
          }
          e.nrm2(c, 0);
          e.read(0, 0, 1);
          const double nrm = e.hnorm(0);
          e.scal(S(1.0 / nrm), c);
          e.scal(S(1.0 / nrm), u);
        }
        for (std::int64_t jj = 0; jj < std::min<std::int64_t>(k - 1, nc); ++jj)
          new_CU.push_back({NC[jj].copy(), NU[jj].copy()});
        CU = std::move(new_CU);
      }
    }
    CU.push_back({cx, ux});
  }
  // Hand the subspace back, with the solution vector in its span (SciPy: CU.append((None, x.copy()))).
  CU_io.clear();
  for (auto& p : CU) {
    gcrotmk_cu q;
    if (!o.discard_C) q.c = p.c;
    q.u = p.u;
    CU_io.push_back(std::move(q));
  }
  CU_io.push_back(gcrotmk_cu{std::nullopt, x.copy()});
  res.x = x;
  res.info = converged ? 0 : std::min<std::int64_t>(j_outer + 1, o.maxiter);
  if (!converged && j_outer >= o.maxiter) res.iterations = o.maxiter;
  return res;
}

// =============================================================================================== minres
template <class T>
krylov_result minres_impl(const linear_operator& A, const ndarray& b_in, const minres_options& o, dtype xt,
                          std::int64_t n) {
  using S = host_t<T>;
  static constexpr const char* fn = "cusci::sparse::linalg::minres";
  const std::int64_t maxiter = o.maxiter.value_or(5 * n);
  engine<T> e(fn, A, o.M ? &*o.M : nullptr, xt, n, 4);
  krylov_result res;
  ndarray b = e.vec(b_in);
  ndarray x = o.x0 ? e.vec(*o.x0, true) : zeros({n}, xt);
  ndarray r1 = e.new_vec();
  e.copy(b.data_as<T>(), r1.data_as<T>());
  if (o.x0) e.axpy(S(-1), e.Av(x), r1);
  ndarray y = e.Mv(r1);
  e.dotc(r1.data_as<T>(), y.data_as<T>(), e.coef(0));
  e.nrm2(b.data_as<T>(), 0);
  e.read(0, 1, 1);
  const S beta1_s = e.hcoef_at(0, 0);
  const double bnorm = e.hnorm(0);
  double beta1 = std::real(beta1_s);
  CUSCI_EXPECTS(!(beta1 < 0), value_error, std::string(fn) + ": indefinite preconditioner");
  if (beta1 == 0 || bnorm == 0) {
    res.x = beta1 == 0 ? x : b.copy();
    res.history.residual_norms.push_back(0.0);
    res.history.seconds.push_back(seconds_since(e.t0));
    return res;
  }
  beta1 = std::sqrt(beta1);
  const double eps = e.eps;
  if (o.check) {
    ndarray w = e.Av(y);
    ndarray r2c = e.Av(w);
    e.dotc(w.data_as<T>(), w.data_as<T>(), e.coef(0));
    e.dotc(y.data_as<T>(), r2c.data_as<T>(), e.coef(0) + 1);
    e.read(0, 2, 0);
    double s = std::real(e.hcoef_at(0, 0));
    double z = std::abs(e.hcoef_at(0, 0) - e.hcoef_at(0, 1));
    double epsa = (s + eps) * std::cbrt(eps);
    CUSCI_EXPECTS(!(z > epsa), value_error, std::string(fn) + ": non-symmetric matrix");
    ndarray r2p = e.Mv(y);
    e.dotc(y.data_as<T>(), y.data_as<T>(), e.coef(0));
    e.dotc(r1.data_as<T>(), r2p.data_as<T>(), e.coef(0) + 1);
    e.read(0, 2, 0);
    s = std::real(e.hcoef_at(0, 0));
    z = std::abs(e.hcoef_at(0, 0) - e.hcoef_at(0, 1));
    epsa = (s + eps) * std::cbrt(eps);
    CUSCI_EXPECTS(!(z > epsa), value_error, std::string(fn) + ": non-symmetric preconditioner");
  }
  double oldb = 0, beta = beta1, epsln = 0, phibar = beta1;
  S dbar(0), cs(-1);
  double sn = 0, gmax = 0, gmin = std::numeric_limits<real_t<T>>::max();
  S tnorm2(0);
  int istop = 0;
  ndarray w = zeros({n}, xt), w2 = zeros({n}, xt), w1 = zeros({n}, xt);
  ndarray r2 = r1;
  ndarray v = e.new_vec(), u = e.new_vec();
  res.history.residual_norms.push_back(beta1);
  res.history.seconds.push_back(seconds_since(e.t0));

  // Step itn's vector work up to the dot products: v = y / beta; y = A v - shift v - (beta / oldb) r1;
  // y -= (alfa / beta) r2 with -alfa / beta = (-v / beta)^H y on the device (coef 0); r1 = r2;
  // r2 = y; y = M r2; beta^2 = r2^H y (coef 1).
  auto lanczos = [&](std::int64_t itn) {
    e.copy(y.data_as<T>(), v.data_as<T>());
    e.scal(S(1.0 / beta), v.data_as<T>());
    ndarray yn = e.Av(v);
    if (yn.data() == v.data()) yn = e.copy_of(yn);
    if (o.shift != 0.0) e.axpy(S(-o.shift), v, yn);
    if (itn >= 2) e.axpy(S(-(beta / oldb)), r1, yn);
    e.copy(v.data_as<T>(), u.data_as<T>());
    e.scal(S(-1.0 / beta), u.data_as<T>());
    e.dotc(u.data_as<T>(), yn.data_as<T>(), e.coef(0));
    e.set_mode(CUBLAS_POINTER_MODE_DEVICE);
    blas<T>::axpy_(e.h, n, e.coef(0), r2.data_as<T>(), yn.data_as<T>());
    r1 = r2;
    r2 = yn;
    y = e.Mv(r2);
    e.dotc(r2.data_as<T>(), y.data_as<T>(), e.coef(0) + 1);
  };
  struct pending_test {
    std::int64_t itn = 0;
    double Anorm = 0, rnorm = 0, root = 0, Acond = 0;
  } pend;
  bool have_pending = false;
  // SciPy's tests of step pend.itn, with ynorm = norm(x) after that step; true: stop.
  auto finish = [&](double ynorm) {
    const double Anorm = pend.Anorm;
    const double epsx = Anorm * ynorm * eps;
    const double test1 = (ynorm == 0 || Anorm == 0) ? INFINITY : pend.rnorm / (Anorm * ynorm);
    const double test2 = Anorm == 0 ? INFINITY : pend.root / Anorm;
    if (istop == 0) {
      const double t1 = 1 + test1, t2 = 1 + test2;
      if (t2 <= 1) istop = 2;
      if (t1 <= 1) istop = 1;
      if (pend.itn >= maxiter) istop = 6;
      if (pend.Acond >= 0.1 / eps) istop = 4;
      if (epsx >= beta1) istop = 3;
      if (test2 <= o.rtol) istop = 2;
      if (test1 <= o.rtol) istop = 1;
    }
    res.iterations = pend.itn;
    if (o.callback) o.callback(x);
    return istop != 0;
  };

  std::int64_t itn = 0;
  if (maxiter > 0) lanczos(1);
  while (itn < maxiter) {
    ++itn;
    const bool tested = have_pending;
    e.read(0, 2, tested ? 1 : 0);
    if (tested && finish(e.hnorm(0))) break;
    have_pending = false;
    const S alfa = -beta * e.hcoef_at(0, 0);
    const S beta_sq = e.hcoef_at(0, 1);
    oldb = beta;
    CUSCI_EXPECTS(!(std::real(beta_sq) < 0), value_error, std::string(fn) + ": non-symmetric matrix");
    beta = std::sqrt(std::real(beta_sq));
    tnorm2 += alfa * alfa + S(oldb * oldb) + S(beta * beta);
    if (itn == 1 && beta / beta1 <= 10 * eps) istop = -1;
    const double oldeps = epsln;
    const S delta = cs * dbar + S(sn) * alfa;
    const S gbar = S(sn) * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * S(beta);
    const double root = std::hypot(std::abs(gbar), std::abs(dbar));
    double gamma = std::hypot(std::abs(gbar), beta);
    gamma = std::max(gamma, eps);
    cs = gbar / S(gamma);
    sn = beta / gamma;
    const S phi = cs * S(phibar);
    phibar = sn * phibar;
    const double denom = 1.0 / gamma;
    // w1 = w2; w2 = w; w = (v - oldeps w1 - delta w2) denom; x += phi w
    ndarray wn = w1;  // the old w1 is free
    w1 = w2;
    w2 = w;
    e.copy(v.data_as<T>(), wn.data_as<T>());
    e.scal(S(denom), wn.data_as<T>());
    e.axpy(S(-oldeps * denom), w1, wn);
    e.axpy(-delta * S(denom), w2, wn);
    w = wn;
    e.axpy(phi, w, x);
    e.nrm2(x.data_as<T>(), 0);
    gmax = std::max(gmax, gamma);
    gmin = std::min(gmin, gamma);
    pend.itn = itn;
    pend.Anorm = std::sqrt(std::real(tnorm2));
    pend.rnorm = phibar;
    pend.root = root;
    pend.Acond = gmax / gmin;
    have_pending = true;
    res.history.residual_norms.push_back(phibar);
    res.history.seconds.push_back(seconds_since(e.t0));
    if (istop == 0 && itn < maxiter) {
      lanczos(itn + 1);
    } else {
      e.read(0, 0, 1);
      finish(e.hnorm(0));
      have_pending = false;
      break;
    }
  }
  // A final pending test can remain only when the loop ended by itn == maxiter with the last step
  // read above; nothing is left here.
  res.x = x;
  res.info = istop == 6 ? maxiter : 0;
  if (res.iterations > static_cast<std::int64_t>(res.history.residual_norms.size()) - 1)
    res.iterations = static_cast<std::int64_t>(res.history.residual_norms.size()) - 1;
  res.history.residual_norms.resize(static_cast<std::size_t>(res.iterations) + 1);
  res.history.seconds.resize(static_cast<std::size_t>(res.iterations) + 1);
  return res;
}

}  // namespace

gmres_callback_type gmres_callback_type_from_string(std::string_view s) {
  if (s == "legacy") return gmres_callback_type::legacy;
  if (s == "pr_norm") return gmres_callback_type::pr_norm;
  if (s == "x") return gmres_callback_type::x;
  throw value_error("cusci::sparse::linalg::gmres: Unknown callback_type: '" + std::string(s) + "'");
}

gcrotmk_truncate gcrotmk_truncate_from_string(std::string_view s) {
  if (s == "oldest") return gcrotmk_truncate::oldest;
  if (s == "smallest") return gcrotmk_truncate::smallest;
  throw value_error("cusci::sparse::linalg::gcrotmk: Invalid value for 'truncate': '" + std::string(s) + "'");
}

krylov_result gmres(const linear_operator& A, const ndarray& b, const gmres_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::gmres");
  static constexpr const char* fn = "cusci::sparse::linalg::gmres";
  const system_info si = check_system(fn, A, b, o.x0, o.M, &o.atol, o.rtol);
  if (o.restart)
    CUSCI_EXPECTS(*o.restart >= 1, value_error,
                  std::string(fn) + ": restart must be >= 1, got " + std::to_string(*o.restart));
  if (o.maxiter)
    CUSCI_EXPECTS(*o.maxiter >= 1, value_error,
                  std::string(fn) + ": maxiter must be >= 1, got " + std::to_string(*o.maxiter));
  if (o.callback && !o.callback_type)
    warn("DeprecationWarning", fn,
         "scipy.sparse.linalg.gmres called without specifying `callback_type`. The default value will be "
         "changed in a future release. For compatibility, specify a value for `callback_type` explicitly, "
         "e.g., ``gmres(..., callback_type='pr_norm')``, or to retain the old behavior "
         "``gmres(..., callback_type='legacy')``");
  if (si.n == 0) return krylov_result{empty({0}, si.xt), 0, 0, {}};
  return dispatch_solver(si.xt, fn, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    return gmres_impl<T>(A, b, o, si.xt, si.n);
  });
}

krylov_result lgmres(const linear_operator& A, const ndarray& b, const lgmres_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::lgmres");
  static constexpr const char* fn = "cusci::sparse::linalg::lgmres";
  const system_info si = check_system(fn, A, b, o.x0, o.M, &o.atol, o.rtol);
  CUSCI_EXPECTS(o.inner_m >= 1, value_error, std::string(fn) + ": inner_m must be >= 1, got " + std::to_string(o.inner_m));
  CUSCI_EXPECTS(o.outer_k >= 0, value_error, std::string(fn) + ": outer_k must be >= 0, got " + std::to_string(o.outer_k));
  CUSCI_EXPECTS(o.maxiter >= 0, value_error, std::string(fn) + ": maxiter must be >= 0, got " + std::to_string(o.maxiter));
  if (si.n == 0) return krylov_result{empty({0}, si.xt), 0, 0, {}};
  return dispatch_solver(si.xt, fn, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    return lgmres_impl<T>(A, b, o, si.xt, si.n);
  });
}

krylov_result gcrotmk(const linear_operator& A, const ndarray& b, const gcrotmk_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::gcrotmk");
  static constexpr const char* fn = "cusci::sparse::linalg::gcrotmk";
  const system_info si = check_system(fn, A, b, o.x0, o.M, &o.atol, o.rtol);
  CUSCI_EXPECTS(o.m >= 1, value_error, std::string(fn) + ": m must be >= 1, got " + std::to_string(o.m));
  if (o.k) CUSCI_EXPECTS(*o.k >= 1, value_error, std::string(fn) + ": k must be >= 1, got " + std::to_string(*o.k));
  CUSCI_EXPECTS(o.maxiter >= 1, value_error, std::string(fn) + ": maxiter must be >= 1, got " + std::to_string(o.maxiter));
  if (o.truncate == gcrotmk_truncate::smallest)
    CUSCI_EXPECTS(!is_complex(si.xt), not_implemented_error,
                  std::string(fn) + ": truncate='smallest' is not implemented for complex systems");
  if (si.n == 0) return krylov_result{empty({0}, si.xt), 0, 0, {}};
  return dispatch_solver(si.xt, fn, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    return gcrotmk_impl<T>(A, b, o, si.xt, si.n);
  });
}

krylov_result minres(const linear_operator& A, const ndarray& b, const minres_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::minres");
  static constexpr const char* fn = "cusci::sparse::linalg::minres";
  const system_info si = check_system(fn, A, b, o.x0, o.M, nullptr, o.rtol);
  if (o.maxiter)
    CUSCI_EXPECTS(*o.maxiter >= 0, value_error,
                  std::string(fn) + ": maxiter must be >= 0, got " + std::to_string(*o.maxiter));
  if (si.n == 0) return krylov_result{empty({0}, si.xt), 0, 0, {}};
  return dispatch_solver(si.xt, fn, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    return minres_impl<T>(A, b, o, si.xt, si.n);
  });
}

}  // namespace cusci::sparse::linalg
