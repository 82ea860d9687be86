// scipy.sparse.linalg.LaplacianNd on the device: the stencil product (one thread an output element),
// the dense and CSR matrices (one thread an entry / a row), the analytic eigenvalues (per-axis terms
// broadcast-added, then a stable sort) and eigenvectors (one thread an entry: a product of 1-D
// sines/cosines).

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <cuda/std/complex>
#include <cuda_runtime.h>

#include "common/detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"
#include "cusci/sparse/linalg/laplacian_nd.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse {
namespace {

using cusci::detail::type_tag;
constexpr int kBlock = 256;
constexpr int kMaxDims = 32;
enum bc_kind : int { DIRICHLET = 0, NEUMANN = 1, PERIODIC = 2 };

// The grid: lengths n, C-order strides, and (eigenvectors) the lengths of the eigenvalue grid.
struct lap_dims {
  int nd = 0;
  int bc = NEUMANN;
  std::int64_t n[kMaxDims];
  std::int64_t stride[kMaxDims];
  std::int64_t g[kMaxDims];
};

template <class T>
__device__ __forceinline__ T from_int(int v) {
  if constexpr (cusci::detail::is_complex_v<T>) return T(static_cast<typename T::value_type>(v), 0);
  else return static_cast<T>(v);
}

// y = L x for x, y [N, k] (C order): SciPy's _matvec, axis by axis.
template <class T>
__global__ void __launch_bounds__(kBlock)
    k_lap_matvec(std::int64_t N, std::int64_t k, const T* __restrict__ x, T* __restrict__ y, lap_dims D) {
  const std::int64_t total = N * k;
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = idx / k, c = idx % k;
    const T xr = x[idx];
    T acc = from_int<T>(-2 * D.nd) * xr;
    for (int a = 0; a < D.nd; ++a) {
      const std::int64_t n = D.n[a], s = D.stride[a];
      const std::int64_t ca = (r / s) % n;
      // roll(X, 1): the element at coordinate ca - 1 (wrapped); roll(X, -1): ca + 1 (wrapped).
      if (ca > 0) acc += x[(r - s) * k + c];
      else if (D.bc == PERIODIC) acc += x[(r + (n - 1) * s) * k + c];
      if (ca < n - 1) acc += x[(r + s) * k + c];
      else if (D.bc == PERIODIC) acc += x[(r - (n - 1) * s) * k + c];
      if (D.bc == NEUMANN) {
        if (ca == 0) acc += xr;
        if (ca == n - 1) acc += xr;
      }
    }
    y[idx] = acc;
  }
}

// Contribution of one axis (length n, coordinate c) to the diagonal of toarray()/tosparse().
__device__ __forceinline__ int diag_term(int bc, std::int64_t n, std::int64_t c) {
  if (bc == NEUMANN) return (n == 1 || c == 0 || c == n - 1) ? -1 : -2;
  if (bc == PERIODIC) return n == 1 ? -1 : -2;
  return -2;
}

// Entry between coordinates c and c2 != c along an axis of length n.
__device__ __forceinline__ int offdiag_term(int bc, std::int64_t n, std::int64_t c, std::int64_t c2) {
  const std::int64_t d = c > c2 ? c - c2 : c2 - c;
  int v = d == 1 ? 1 : 0;
  if (bc == PERIODIC && n >= 2 && d == n - 1) v += 1;
  return v;
}

template <class T>
__global__ void __launch_bounds__(kBlock) k_lap_dense(std::int64_t N, T* __restrict__ out, lap_dims D) {
  const std::int64_t total = N * N;
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = idx / N, q = idx % N;
    int v = 0;
    if (r == q) {
      for (int a = 0; a < D.nd; ++a) v += diag_term(D.bc, D.n[a], (r / D.stride[a]) % D.n[a]);
    } else {
      int ndiff = 0, last = 0;
      for (int a = 0; a < D.nd; ++a) {
        const std::int64_t ca = (r / D.stride[a]) % D.n[a], qa = (q / D.stride[a]) % D.n[a];
        if (ca != qa) {
          ++ndiff;
          last = a;
        }
      }
      if (ndiff == 1) {
        const int a = last;
        v = offdiag_term(D.bc, D.n[a], (r / D.stride[a]) % D.n[a], (q / D.stride[a]) % D.n[a]);
      }
    }
    out[idx] = from_int<T>(v);
  }
}

// The entries of row r in column order: cols/vals (at most 2 nd + 1). Returns the count.
__device__ int lap_row(std::int64_t r, const lap_dims& D, std::int64_t* cols, int* vals) {
  int cnt = 0, dv = 0;
  for (int a = 0; a < D.nd; ++a) {
    const std::int64_t n = D.n[a], s = D.stride[a];
    const std::int64_t ca = (r / s) % n;
    dv += diag_term(D.bc, n, ca);
    if (n == 1) continue;
    const bool has_l = ca > 0 || D.bc == PERIODIC, has_r = ca < n - 1 || D.bc == PERIODIC;
    const std::int64_t cl = ca > 0 ? r - s : r + (n - 1) * s;
    const std::int64_t cr = ca < n - 1 ? r + s : r - (n - 1) * s;
    if (has_l && has_r && cl == cr) {  // periodic, n == 2: one neighbour twice
      cols[cnt] = cl;
      vals[cnt++] = 2;
    } else {
      if (has_l) {
        cols[cnt] = cl;
        vals[cnt++] = 1;
      }
      if (has_r) {
        cols[cnt] = cr;
        vals[cnt++] = 1;
      }
    }
  }
  cols[cnt] = r;
  vals[cnt++] = dv;
  // Insertion sort by column (distinct columns: different axes give different offsets).
  for (int i = 1; i < cnt; ++i) {
    const std::int64_t c = cols[i];
    const int v = vals[i];
    int j = i - 1;
    while (j >= 0 && cols[j] > c) {
      cols[j + 1] = cols[j];
      vals[j + 1] = vals[j];
      --j;
    }
    cols[j + 1] = c;
    vals[j + 1] = v;
  }
  return cnt;
}

__global__ void __launch_bounds__(kBlock) k_lap_count(std::int64_t N, std::int64_t* counts, lap_dims D) {
  std::int64_t cols[2 * kMaxDims + 1];
  int vals[2 * kMaxDims + 1];
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < N;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    counts[r] = lap_row(r, D, cols, vals);
}

// indptr (int64 [N + 1], exclusive scan of the counts with indptr[0] = 0) -> entries.
template <class T, class I>
__global__ void __launch_bounds__(kBlock)
    k_lap_fill(std::int64_t N, const std::int64_t* __restrict__ ptr64, I* __restrict__ indptr, I* __restrict__ indices,
               T* __restrict__ data, lap_dims D) {
  std::int64_t cols[2 * kMaxDims + 1];
  int vals[2 * kMaxDims + 1];
  for (std::int64_t r = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; r < N;
       r += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const int cnt = lap_row(r, D, cols, vals);
    const std::int64_t b = ptr64[r];
    indptr[r] = static_cast<I>(b);
    if (r == N - 1) indptr[N] = static_cast<I>(b + cnt);
    for (int i = 0; i < cnt; ++i) {
      indices[b + i] = static_cast<I>(cols[i]);
      data[b + i] = from_int<T>(vals[i]);
    }
  }
}

// SciPy's _ev1d(j, n)[i], entries of magnitude < eps set to 0.
__device__ double ev1d(int bc, std::int64_t j, std::int64_t n, std::int64_t i) {
  const double pi = 3.141592653589793;
  const double nd = static_cast<double>(n);
  double v;
  if (bc == DIRICHLET) {
    const double a = pi * static_cast<double>(i + 1) / (nd + 1.0);
    v = ::sqrt(2.0 / (nd + 1.0)) * ::sin(a * static_cast<double>(j + 1));
  } else if (bc == NEUMANN) {
    const double a = pi * (static_cast<double>(i) + 0.5) / nd;
    v = ::sqrt((j == 0 ? 1.0 : 2.0) / nd) * ::cos(a * static_cast<double>(j));
  } else {
    if (j == 0) {
      v = ::sqrt(1.0 / nd);
    } else if (j + 1 == n && n % 2 == 0) {
      v = ::sqrt(1.0 / nd) * (i % 2 == 0 ? 1.0 : -1.0);
    } else {
      const double a = pi * (static_cast<double>(i) + 0.5) / nd;
      v = (j + 1) % 2 == 0 ? ::sqrt(2.0 / nd) * ::sin(a * static_cast<double>(j + 1))
                           : ::sqrt(2.0 / nd) * ::cos(a * static_cast<double>(j));
    }
  }
  return ::fabs(v) < 2.220446049250313e-16 ? 0.0 : v;
}

// out [N, k] (C order): column c is the tensor product for the eigenvalue-grid index ind[c] (C order
// over D.g), entry r for the grid point r (C order over D.n).
__global__ void __launch_bounds__(kBlock)
    k_lap_eigvec(std::int64_t N, std::int64_t k, const std::int64_t* __restrict__ ind, double* __restrict__ out,
                 lap_dims D) {
  const std::int64_t total = N * k;
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = idx / k, c = idx % k;
    std::int64_t flat = ind[c];
    std::int64_t j[kMaxDims];
    for (int a = D.nd - 1; a >= 0; --a) {
      j[a] = flat % D.g[a];
      flat /= D.g[a];
    }
    double v = 1.0;
    for (int a = 0; a < D.nd; ++a) {
      const double f = ev1d(D.bc, j[a], D.n[a], (r / D.stride[a]) % D.n[a]);
      v = a == 0 ? f : v * f;
    }
    out[idx] = v;
  }
}

unsigned grid_of(std::int64_t n) { return cusci::detail::grid_for(n > 0 ? n : 1, kBlock, 65535LL * 16); }

}  // namespace

namespace linalg {

namespace {
constexpr const char* kCls = "cusci::sparse::linalg::LaplacianNd";

lap_dims make_dims(const std::vector<std::int64_t>& shape, const std::string& bc) {
  lap_dims D;
  D.nd = static_cast<int>(shape.size());
  D.bc = bc == "dirichlet" ? DIRICHLET : (bc == "periodic" ? PERIODIC : NEUMANN);
  std::int64_t s = 1;
  for (int a = D.nd - 1; a >= 0; --a) {
    D.n[a] = shape[static_cast<std::size_t>(a)];
    D.stride[a] = s;
    D.g[a] = shape[static_cast<std::size_t>(a)];
    s *= shape[static_cast<std::size_t>(a)];
  }
  return D;
}

// Value dtypes of LaplacianNd: every integer, float32/64, complex64/128 (device types).
template <class F>
decltype(auto) dispatch_values(dtype t, F&& f) {
  switch (t) {
    case cusci::dtype::int8: return f(type_tag<std::int8_t>{});
    case cusci::dtype::int16: return f(type_tag<std::int16_t>{});
    case cusci::dtype::int32: return f(type_tag<std::int32_t>{});
    case cusci::dtype::int64: return f(type_tag<std::int64_t>{});
    case cusci::dtype::uint8: return f(type_tag<std::uint8_t>{});
    case cusci::dtype::uint16: return f(type_tag<std::uint16_t>{});
    case cusci::dtype::uint32: return f(type_tag<std::uint32_t>{});
    case cusci::dtype::uint64: return f(type_tag<std::uint64_t>{});
    case cusci::dtype::float32: return f(type_tag<float>{});
    case cusci::dtype::float64: return f(type_tag<double>{});
    case cusci::dtype::complex64: return f(type_tag<cuda::std::complex<float>>{});
    case cusci::dtype::complex128: return f(type_tag<cuda::std::complex<double>>{});
    default: break;
  }
  throw type_error(std::string(kCls) + ": dtype must be an integer, float32/64 or complex64/128 dtype, got " +
                   std::string(dtype_name(t)));
}

// Python's min of two tuples (lexicographic).
std::vector<std::int64_t> lex_min(const std::vector<std::int64_t>& a, std::int64_t m) {
  std::vector<std::int64_t> b(a.size(), m);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] < b[i]) return a;
    if (a[i] > b[i]) return b;
  }
  return a;
}

struct eig_order {
  ndarray values;  // [k] float64
  ndarray ind;     // [k] int64 flat indices over grid g
  std::vector<std::int64_t> g;
};

eig_order eigen_ordering(const std::vector<std::int64_t>& shape, const std::string& bc, std::optional<std::int64_t> m) {
  const char* fn = "cusci::sparse::linalg::LaplacianNd.eigenvalues";
  if (m) CUSCI_EXPECTS(*m >= 0, value_error, std::string(fn) + ": m must be >= 0, got " + std::to_string(*m));
  eig_order r;
  r.g = m ? lex_min(shape, *m) : shape;
  std::int64_t M = 1;
  for (auto d : r.g) M *= d;
  const int nd = static_cast<int>(shape.size());
  ndarray L = cusci::zeros(shape_t(r.g.begin(), r.g.end()), cusci::dtype::float64);
  for (int a = 0; a < nd; ++a) {
    const std::int64_t len = r.g[static_cast<std::size_t>(a)];
    const double n = static_cast<double>(shape[static_cast<std::size_t>(a)]);
    std::vector<double> term(static_cast<std::size_t>(len));
    for (std::int64_t j = 0; j < len; ++j) {  // the per-axis terms: sum(grid) values, not N
      const double jd = static_cast<double>(j);
      double s;
      if (bc == "dirichlet") s = std::sin(M_PI * (jd + 1.0) / (2.0 * (n + 1.0)));
      else if (bc == "neumann") s = std::sin(M_PI * jd / (2.0 * n));
      else s = std::sin(M_PI * std::floor((jd + 1.0) / 2.0) / n);
      term[static_cast<std::size_t>(j)] = -4.0 * (s * s);
    }
    shape_t sh(static_cast<std::size_t>(nd), 1);
    sh[static_cast<std::size_t>(a)] = len;
    if (len > 0) L = cusci::add(L, cusci::asarray(term).reshape(sh));
  }
  ndarray flat = L.reshape({M});
  sort_options so;
  so.stable = true;
  ndarray ind = M > 0 ? cusci::argsort(flat, -1, so) : cusci::zeros({0}, cusci::dtype::int64);
  if (m && *m < M) ind = ind[{slice{M - *m, std::nullopt, std::nullopt}}].copy();
  r.ind = ind.astype(cusci::dtype::int64, false);
  r.values = r.ind.size() > 0 ? cusci::take(flat, r.ind) : cusci::zeros({0}, cusci::dtype::float64);
  return r;
}
}  // namespace

LaplacianNd::LaplacianNd(std::vector<std::int64_t> grid_shape, std::string boundary_conditions, cusci::dtype dtype)
    : grid_shape_(std::move(grid_shape)), bc_(std::move(boundary_conditions)), dtype_(dtype) {
  CUSCI_EXPECTS(bc_ == "dirichlet" || bc_ == "neumann" || bc_ == "periodic", value_error,
                std::string(kCls) + ": Unknown value '" + bc_ +
                    "' is given for 'boundary_conditions' parameter. The valid options are 'dirichlet', 'periodic', "
                    "and 'neumann' (default).");
  CUSCI_EXPECTS(!grid_shape_.empty() && grid_shape_.size() <= static_cast<std::size_t>(kMaxDims), value_error,
                std::string(kCls) + ": grid_shape must have 1 to " + std::to_string(kMaxDims) + " entries");
  n_ = 1;
  for (auto d : grid_shape_) {
    CUSCI_EXPECTS(d >= 1, value_error, std::string(kCls) + ": every grid_shape entry must be >= 1");
    CUSCI_EXPECTS(n_ <= std::numeric_limits<std::int64_t>::max() / d, value_error,
                  std::string(kCls) + ": the grid has too many points");
    n_ *= d;
  }
  CUSCI_EXPECTS(dtype_ != cusci::dtype::bool_ && dtype_ != cusci::dtype::float16, type_error,
                std::string(kCls) + ": dtype must be an integer, float32/64 or complex64/128 dtype, got " +
                    std::string(dtype_name(dtype_)));
}

ndarray LaplacianNd::eigenvalues(std::optional<std::int64_t> m) const {
  return eigen_ordering(grid_shape_, bc_, m).values;
}

ndarray LaplacianNd::eigenvectors(std::optional<std::int64_t> m) const {
  if (m) CUSCI_EXPECTS(*m >= 0, value_error, std::string(kCls) + ".eigenvectors: m must be >= 0");
  eig_order e = eigen_ordering(grid_shape_, bc_, m);
  const std::int64_t k = e.ind.size();
  ndarray out = cusci::empty({n_, k}, cusci::dtype::float64);
  if (k == 0 || n_ == 0) return out;
  lap_dims D = make_dims(grid_shape_, bc_);
  for (int a = 0; a < D.nd; ++a) D.g[a] = e.g[static_cast<std::size_t>(a)];
  ndarray ind = e.ind.is_c_contiguous() ? e.ind : e.ind.copy();
  k_lap_eigvec<<<grid_of(n_ * k), kBlock, 0, get_current_stream()>>>(n_, k, ind.data_as<std::int64_t>(),
                                                                     out.data_as<double>(), D);
  CUSCI_CHECK_LAUNCH();
  return out;
}

ndarray LaplacianNd::toarray() const {
  ndarray out = cusci::empty({n_, n_}, dtype_);
  const lap_dims D = make_dims(grid_shape_, bc_);
  dispatch_values(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    k_lap_dense<T><<<grid_of(n_ * n_), kBlock, 0, get_current_stream()>>>(n_, out.data_as<T>(), D);
    CUSCI_CHECK_LAUNCH();
  });
  return out;
}

csr_matrix LaplacianNd::tosparse() const {
  const lap_dims D = make_dims(grid_shape_, bc_);
  cudaStream_t st = get_current_stream();
  ndarray counts = cusci::empty({n_}, cusci::dtype::int64);
  k_lap_count<<<grid_of(n_), kBlock, 0, st>>>(n_, counts.data_as<std::int64_t>(), D);
  CUSCI_CHECK_LAUNCH();
  ndarray ends = cusci::cumsum(counts, 0, cusci::dtype::int64);  // inclusive
  const std::int64_t nnz = ends[n_ - 1].get().to_vector<std::int64_t>()[0];  // synchronizes
  ndarray ptr64 = cusci::subtract(ends, counts).astype(cusci::dtype::int64, false);  // exclusive
  const bool small = nnz <= std::numeric_limits<std::int32_t>::max() && n_ < std::numeric_limits<std::int32_t>::max();
  const cusci::dtype idt = small ? cusci::dtype::int32 : cusci::dtype::int64;
  ndarray indptr = cusci::empty({n_ + 1}, idt), indices = cusci::empty({nnz}, idt), data = cusci::empty({nnz}, dtype_);
  dispatch_values(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto go = [&](auto itag) {
      using I = typename decltype(itag)::type;
      k_lap_fill<T, I><<<grid_of(n_), kBlock, 0, st>>>(n_, ptr64.data_as<std::int64_t>(), indptr.data_as<I>(),
                                                       indices.data_as<I>(), data.data_as<T>(), D);
      CUSCI_CHECK_LAUNCH();
    };
    if (small) go(type_tag<std::int32_t>{});
    else go(type_tag<std::int64_t>{});
  });
  return csr_matrix::from_valid(data, indices, indptr, shape2{n_, n_}, true);
}

ndarray LaplacianNd::matvec(const ndarray& x) const {
  const char* fn = "cusci::sparse::linalg::LaplacianNd.matvec";
  CUSCI_EXPECTS((x.ndim() == 1 || x.ndim() == 2) && x.shape(0) == n_, value_error,
                std::string(fn) + ": dimension mismatch: L " + detail::shape_str(shape()) + ", x " +
                    detail::shape_str(x.shape()));
  CUSCI_EXPECTS(is_inexact(x.dtype()) || is_integer(x.dtype()) || is_bool(x.dtype()), type_error,
                std::string(fn) + ": x must have a numeric dtype");
  const cusci::dtype xt = is_inexact(x.dtype()) && x.dtype() != cusci::dtype::float16 ? x.dtype() : cusci::dtype::float64;
  const cusci::dtype rt = is_inexact(dtype_) ? promote_types(dtype_, xt) : xt;
  ndarray xc = x.astype(rt, false);
  if (!xc.is_c_contiguous()) xc = xc.copy();
  ndarray y = cusci::empty(x.shape(), rt);
  const std::int64_t k = x.ndim() == 2 ? x.shape(1) : 1;
  if (n_ * k == 0) return y;
  const lap_dims D = make_dims(grid_shape_, bc_);
  dispatch_values(rt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || cusci::detail::is_complex_v<T>) {
      k_lap_matvec<T><<<grid_of(n_ * k), kBlock, 0, get_current_stream()>>>(n_, k, xc.data_as<T>(), y.data_as<T>(), D);
      CUSCI_CHECK_LAUNCH();
    }
  });
  return y;
}

linear_operator LaplacianNd::aslinearoperator() const {
  const cusci::dtype dt = is_inexact(dtype_) ? dtype_ : cusci::dtype::float64;
  LaplacianNd self = *this;
  auto mv = [self](const ndarray& x) { return self.matvec(x); };
  return linear_operator(shape(), dt, mv, mv);
}

}  // namespace linalg
}  // namespace cusci::sparse
