// Sparse x dense products of every format: cuSPARSE's generic SpMV / SpMM for float and complex
// results (descriptors, dense descriptors and workspace cached in the matrix so that a repeated
// product is one cuSPARSE call), the CSR-stream kernel (cg.cu) for short float rows, the CSR-vector
// kernel (cg.cu) for small float matrices with longer, even rows, and cusci's row
// kernel (products_kernels.cu) for integer and bool results and for CSR times a row-major dense
// operand of at most 32 columns. The per-matrix cache also holds the column structure of a CSR
// matrix that dense x sparse products (dense_sparse.cpp) compute on first use.

#include "cusci/detail/checks.hpp"
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <complex>
#include <mutex>
#include <string>
#include <vector>

#include "common/detail.hpp"
#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/products.hpp"
#include "cusci/stream.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse::detail {

namespace {

cudaDataType value_type(dtype t) {
  switch (t) {
    case dtype::float32: return CUDA_R_32F;
    case dtype::float64: return CUDA_R_64F;
    case dtype::complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}
cusparseIndexType_t index_type(dtype t) { return t == dtype::int32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I; }

// 1 and 0 in each cuSPARSE value type, host memory (pointer mode host). cuSPARSE reads a complex128
// scalar as cuDoubleComplex (double2, 16-byte aligned) with aligned vector loads: std::complex<double>
// is only 8-byte aligned, and a scalar at an odd multiple of 8 faults on the host. Every scalar is
// therefore 16-byte aligned.
struct unit_scalars {
  alignas(16) float f1 = 1.0f;
  alignas(16) float f0 = 0.0f;
  alignas(16) double d1 = 1.0;
  alignas(16) double d0 = 0.0;
  alignas(16) std::complex<float> c1{1.0f, 0.0f};
  alignas(16) std::complex<float> c0{0.0f, 0.0f};
  alignas(16) std::complex<double> z1{1.0, 0.0};
  alignas(16) std::complex<double> z0{0.0, 0.0};
  const void* one(dtype t) const {
    switch (t) {
      case dtype::float32: return &f1;
      case dtype::float64: return &d1;
      case dtype::complex64: return &c1;
      default: return &z1;
    }
  }
  const void* zero(dtype t) const {
    switch (t) {
      case dtype::float32: return &f0;
      case dtype::float64: return &d0;
      case dtype::complex64: return &c0;
      default: return &z0;
    }
  }
};

// One cached product configuration: stream, device, number of right-hand sides (0: SpMV), dense
// layout, the dense descriptors (re-pointed at each call), algorithm and workspace.
struct plan {
  cudaStream_t stream = nullptr;
  int device = 0;
  std::int64_t k = 0;
  bool colmajor = false;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseDnMatDescr_t X = nullptr, Y = nullptr;
  int alg = 0;
  memory_ptr buffer;
  std::uint64_t last_use = 0;
};

void destroy(plan& p) noexcept {
  if (p.x) CUSCI_LAZY(cusparseDestroyDnVec)(p.x);
  if (p.y) CUSCI_LAZY(cusparseDestroyDnVec)(p.y);
  if (p.X) CUSCI_LAZY(cusparseDestroyDnMat)(p.X);
  if (p.Y) CUSCI_LAZY(cusparseDestroyDnMat)(p.Y);
  p.x = p.y = nullptr;
  p.X = p.Y = nullptr;
}

constexpr std::size_t max_plans = 4;

}  // namespace

struct spmv_cache {
  std::mutex mu;
  cusparseSpMatDescr_t mat = nullptr;  // over the matrix's own arrays
  std::vector<plan> plans;
  std::uint64_t clock = 0;
  int even_rows = -1;  // whether the row lengths' coefficient of variation is <= 1; -1: not known yet
  // The column structure of a CSR matrix for dense x sparse products (empty until first used).
  bool has_columns = false;
  column_structure columns;
  ~spmv_cache() {
    for (auto& p : plans) destroy(p);
    if (mat) CUSCI_LAZY(cusparseDestroySpMat)(mat);  // errors ignored: destructors never throw
  }
};

std::shared_ptr<spmv_cache> make_spmv_cache() { return std::make_shared<spmv_cache>(); }

column_structure csr_column_structure(const csr_matrix& B) {
  spmv_cache* cache = B.spmv_cache().get();
  auto build = [&] {
    const dtype it = B.indptr().dtype();
    const std::int64_t nnz = B.indices().size();
    const ndarray pos = arange(scalar(std::int64_t{0}), scalar(nnz), scalar(std::int64_t{1}), it);
    compressed_arrays t = transpose_compressed(pos, B.indices(), B.indptr(), B.shape()[1]);
    return column_structure{std::move(t.indptr), std::move(t.indices), std::move(t.data)};
  };
  if (!cache) return build();
  std::lock_guard<std::mutex> lk(cache->mu);
  if (!cache->has_columns) {
    cache->columns = build();
    // Other threads may use the cached arrays on other streams: the build completes first.
    CUSCI_CUDA_TRY(cudaStreamSynchronize(get_current_stream()));
    cache->has_columns = true;
  }
  return cache->columns;
}

namespace {

// A CSR descriptor of shape `shape` (for a CSC matrix: the CSR form of its transpose).
cusparseSpMatDescr_t make_csr(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape) {
  cusparseSpMatDescr_t d = nullptr;
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateCsr)(&d, shape[0], shape[1], data.size(), indptr.data(), indices.data(),
                                                   data.data(), index_type(indptr.dtype()), index_type(indices.dtype()),
                                                   CUSPARSE_INDEX_BASE_ZERO, value_type(data.dtype())));
  return d;
}

// Whether the row lengths are even (coefficient of variation at most 1), the CSR-vector kernel's
// condition. Reads two numbers from the device (synchronizes), once per matrix.
bool rows_even(const ndarray& indptr) {
  if (indptr.size() < 3) return true;
  const ndarray len = cusci::diff(indptr).astype(dtype::float64);
  const double mu = cusci::mean(len).item<double>();
  const double var = cusci::var(len).item<double>();
  return !(mu > 0 && var > mu * mu);
}

// y = op(mat) x in value dtype rt; x, y contiguous; `shape` is the logical (rows, cols) of op(mat).
// k == 0: SpMV on vectors; else SpMM with k columns, row-major ([n, k] C order) or, with colmajor,
// column-major ([k, n] C order read as [n, k] with leading dimension n).
void run_product(cusparseSpMatDescr_t mat, cusparseOperation_t op, spmv_cache* cache, dtype rt,
                 const ndarray& x, ndarray& y, shape2 shape, std::int64_t k, bool colmajor) {
  cusparseHandle_t h = cusci::detail::cusparse_handle();
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSetPointerMode)(h, CUSPARSE_POINTER_MODE_HOST));
  cudaStream_t s = get_current_stream();
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  static const unit_scalars units;
  const void* alpha = units.one(rt);
  const void* beta = units.zero(rt);
  const cudaDataType vt = value_type(rt);

  plan local;
  plan* p = &local;
  std::unique_lock<std::mutex> lock;
  if (cache) {
    lock = std::unique_lock<std::mutex>(cache->mu);
    p = nullptr;
    for (auto& q : cache->plans)
      if (q.stream == s && q.device == dev && q.k == k && q.colmajor == colmajor) p = &q;
    if (!p) {
      if (cache->plans.size() >= max_plans) {  // evict the least recently used
        auto* old = &cache->plans[0];
        for (auto& q : cache->plans)
          if (q.last_use < old->last_use) old = &q;
        destroy(*old);
        *old = plan{};
        p = old;
      } else {
        cache->plans.emplace_back();
        p = &cache->plans.back();
      }
      p->stream = s;
      p->device = dev;
      p->k = k;
      p->colmajor = colmajor;
    }
    p->last_use = ++cache->clock;
  }
  struct local_guard {
    plan* p;
    bool owned;
    ~local_guard() {
      if (owned) destroy(*p);
    }
  } guard{p, cache == nullptr};

  // A plan whose setup fails (out_of_memory for its workspace under memory pressure, a cuSPARSE
  // error) is reset, so a cached plan is never left with descriptors but no workspace.
  auto setup = [&](auto&& body) {
    try {
      body();
    } catch (...) {
      destroy(*p);
      p->buffer.reset();
      throw;
    }
  };
  if (k == 0) {
    if (p->x == nullptr) setup([&] {
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnVec)(&p->x, shape[1], x.data(), vt));
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnVec)(&p->y, shape[0], y.data(), vt));
      std::size_t bytes = 0;
      // CSR_ALG2 (merge-based): bit-reproducible run to run, which cuSPARSE guarantees for it only;
      // CSR_ALG1 is 4-16% faster on long even rows but was measured non-reproducible on skewed rows.
      cusparseSpMVAlg_t alg =
          op == CUSPARSE_OPERATION_NON_TRANSPOSE ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT;
      cusparseStatus_t st = CUSCI_LAZY(cusparseSpMV_bufferSize)(h, op, alpha, mat, p->x, beta, p->y, vt, alg, &bytes);
      if (st == CUSPARSE_STATUS_NOT_SUPPORTED && alg != CUSPARSE_SPMV_ALG_DEFAULT) {
        alg = CUSPARSE_SPMV_ALG_DEFAULT;
        st = CUSCI_LAZY(cusparseSpMV_bufferSize)(h, op, alpha, mat, p->x, beta, p->y, vt, alg, &bytes);
      }
      CUSCI_CUSPARSE_TRY(st);
      p->alg = alg;
      p->buffer = cusci::malloc(bytes > 0 ? bytes : 1, s);
      if (cache)  // preprocessing pays off for repeated products only
        CUSCI_CUSPARSE_TRY(
            CUSCI_LAZY(cusparseSpMV_preprocess)(h, op, alpha, mat, p->x, beta, p->y, vt, alg, p->buffer->ptr()));
    });
    else {
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseDnVecSetValues)(p->x, x.data()));
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseDnVecSetValues)(p->y, y.data()));
    }
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpMV)(h, op, alpha, mat, p->x, beta, p->y, vt,
                                                static_cast<cusparseSpMVAlg_t>(p->alg), p->buffer->ptr()));
  } else {
    if (p->X == nullptr) setup([&] {
      if (colmajor) {
        CUSCI_CUSPARSE_TRY(
            CUSCI_LAZY(cusparseCreateDnMat)(&p->X, shape[1], k, shape[1], x.data(), vt, CUSPARSE_ORDER_COL));
        CUSCI_CUSPARSE_TRY(
            CUSCI_LAZY(cusparseCreateDnMat)(&p->Y, shape[0], k, shape[0], y.data(), vt, CUSPARSE_ORDER_COL));
      } else {
        CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnMat)(&p->X, shape[1], k, k, x.data(), vt, CUSPARSE_ORDER_ROW));
        CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnMat)(&p->Y, shape[0], k, k, y.data(), vt, CUSPARSE_ORDER_ROW));
      }
      // CSR_ALG1: bit-reproducible run to run. CSR_ALG2 (faster on row-major operands) is not: two
      // identical calls on one stream differ in the last bits (measured on the H200, CUDA 13.0).
      cusparseSpMMAlg_t alg =
          op != CUSPARSE_OPERATION_NON_TRANSPOSE ? CUSPARSE_SPMM_ALG_DEFAULT : CUSPARSE_SPMM_CSR_ALG1;
      std::size_t bytes = 0;
      cusparseStatus_t st = CUSCI_LAZY(cusparseSpMM_bufferSize)(h, op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat,
                                                                p->X, beta, p->Y, vt, alg, &bytes);
      if (st == CUSPARSE_STATUS_NOT_SUPPORTED && alg != CUSPARSE_SPMM_ALG_DEFAULT) {
        alg = CUSPARSE_SPMM_ALG_DEFAULT;
        st = CUSCI_LAZY(cusparseSpMM_bufferSize)(h, op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat, p->X, beta, p->Y,
                                                 vt, alg, &bytes);
      }
      CUSCI_CUSPARSE_TRY(st);
      p->alg = alg;
      p->buffer = cusci::malloc(bytes > 0 ? bytes : 1, s);
    });
    else {
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseDnMatSetValues)(p->X, x.data()));
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseDnMatSetValues)(p->Y, y.data()));
    }
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpMM)(h, op, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat, p->X, beta, p->Y,
                                                vt, static_cast<cusparseSpMMAlg_t>(p->alg), p->buffer->ptr()));
  }
  if (!cache) p->buffer.reset();  // released to the pool of stream s: stream order keeps it valid
}

// SciPy's upcast: NumPy's promotion, float16 (unsupported by scipy.sparse) computed as float32.
dtype result_dtype(dtype a, dtype x) {
  const dtype r = promote_types(a, x);
  return r == dtype::float16 ? dtype::float32 : r;
}

// A contiguous copy of a in dtype t (a itself when already so).
ndarray contiguous(const ndarray& a, dtype t) {
  ndarray b = a.astype(t, false);
  return b.is_c_contiguous() ? b : b.copy();
}

}  // namespace

// Checks x of `A.dot(x)` for an (m, n) matrix whose values are `data` (before any conversion of the
// matrix, so a bad x throws without touching the device).
void check_dot_operand(const char* fn, const ndarray& data, shape2 shape, const ndarray& x) {
  cusci::detail::check_same_device(fn, {&data, &x});
  const std::int64_t m = shape[0], n = shape[1];
  CUSCI_EXPECTS(x.ndim() == 1 || x.ndim() == 2, value_error,
                std::string(fn) + ": dimension mismatch: x must be 1-D or 2-D, got shape " + shape_str(x.shape()));
  CUSCI_EXPECTS(x.shape(0) == n, value_error,
                std::string(fn) + ": dimension mismatch: A has shape (" + std::to_string(m) + ", " +
                    std::to_string(n) + "), x has shape " + shape_str(x.shape()));
}

// The product of a compressed matrix with x (batched: x is [kb, n], result [kb, m]). For CSR
// `transposed` is false; for CSC the arrays are the CSR form of A^T and `transposed` is true (only
// float/complex results reach here for CSC).
ndarray compressed_dot(const char* fn, const ndarray& data, const ndarray& indices, const ndarray& indptr,
                       shape2 shape, bool transposed, spmv_cache* cache, const ndarray& x, bool batched) {
  cusci::detail::check_same_device(fn, {&data, &x});
  const std::int64_t m = shape[0], n = shape[1];
  if (batched) {
    CUSCI_EXPECTS(x.ndim() == 2 && x.shape(1) == n, value_error,
                  std::string(fn) + ": dimension mismatch: A has shape (" + std::to_string(m) + ", " +
                      std::to_string(n) + "), X must be [k, " + std::to_string(n) + "], got " + shape_str(x.shape()));
  } else {
    check_dot_operand(fn, data, shape, x);
  }
  const dtype rt = result_dtype(data.dtype(), x.dtype());
  const bool vec = !batched && x.ndim() == 1;
  const std::int64_t k = vec ? 0 : (batched ? x.shape(0) : x.shape(1));
  ndarray y = vec ? empty({m}, rt) : batched ? empty({k, m}, rt) : empty({m, k}, rt);
  if (m == 0 || (!vec && k == 0)) return y;
  if (data.size() == 0 || n == 0) {
    y.fill(0);
    return y;
  }
  ndarray xc = contiguous(x, rt);
  if (!is_inexact(rt)) {  // cusci's row kernel in the result dtype (CSR only)
    const ndarray d = data.astype(rt, false);
    if (batched)
      csr_rowprod(d, indices, indptr, m, k, xc, 1, n, y, 1, m);
    else
      csr_rowprod(d, indices, indptr, m, k, xc, vec ? 1 : k, 1, y, vec ? 1 : k, 1);
    return y;
  }
  // Row-major columns (x is [n, k], C order): cusci's row kernel, k consecutive threads per row, so
  // every stored entry reads one contiguous row of x (k * itemsize bytes) and the row's result is one
  // contiguous store; bit-reproducible (each output is one thread's sum in index order). cuSPARSE's
  // CSR_ALG2 is faster for k >= 64 and on skewed rows but not reproducible run to run; its CSR_ALG1,
  // reproducible, is slower than the row kernel in 6 of the 8 cases measured (docs/benchmarks.md).
  if (!transposed && !vec && !batched) {
    const ndarray d = data.astype(rt, false);
    csr_rowprod(d, indices, indptr, m, k, xc, k, 1, y, k, 1);
    return y;
  }
  if (!transposed && vec && rt == data.dtype() && is_floating(rt) && indptr.dtype() == indices.dtype() &&
      stream_spmv_preferred(m, data.size())) {
    csr_spmv_stream(data, indices, indptr, m, xc, y);
    return y;
  }
  // Small matrices with longer rows: the CSR-vector kernel (one launch; cuSPARSE's call overhead
  // exceeds the product's time there) where the row lengths are even (cuSPARSE would take ALG1).
  if (!transposed && vec && rt == data.dtype() && is_floating(rt) && indptr.dtype() == indices.dtype() && cache &&
      vector_spmv_preferred(m, data.size(), true)) {
    bool even = false;
    {
      std::lock_guard<std::mutex> lk(cache->mu);
      if (cache->even_rows < 0) cache->even_rows = rows_even(indptr) ? 1 : 0;
      even = cache->even_rows == 1;
    }
    if (vector_spmv_preferred(m, data.size(), even)) {
      csr_spmv_vector(data, indices, indptr, m, xc, y);
      return y;
    }
  }
  const cusparseOperation_t op = transposed ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  const shape2 dshape = transposed ? shape2{n, m} : shape;  // the descriptor's own shape
  if (rt == data.dtype() && cache) {
    {
      std::lock_guard<std::mutex> lk(cache->mu);
      if (!cache->mat) cache->mat = make_csr(data, indices, indptr, dshape);
    }
    run_product(cache->mat, op, cache, rt, xc, y, shape, k, batched);
  } else {
    // Mixed dtypes (e.g. float32 A with float64 x): a copy of the values in rt, uncached.
    const ndarray d = data.astype(rt, false);
    cusparseSpMatDescr_t mat = make_csr(d, indices, indptr, dshape);
    struct mat_guard {
      cusparseSpMatDescr_t m;
      ~mat_guard() { CUSCI_LAZY(cusparseDestroySpMat)(m); }
    } g{mat};
    run_product(mat, op, nullptr, rt, xc, y, shape, k, batched);
  }
  return y;
}

}  // namespace cusci::sparse::detail

namespace cusci::sparse {

namespace {
bool needs_row_kernel(dtype a, dtype x) { return !is_inexact(detail::result_dtype(a, x)); }
}  // namespace

namespace detail {
// The CSR form of a COO matrix with its duplicates kept (SciPy's coo_matvec adds every stored entry:
// summing duplicates first would change bool results, where True + True is True, and integer results
// whose duplicates wrap around in the value dtype).
csr_matrix csr_keeping_duplicates(const coo_matrix& A) {
  if (A.nnz() == 0 || A.has_canonical_format()) return A.tocsr();
  const sorted_entries s = sort_entries(A.data(), A.row(), A.col(), A.shape()[0], A.shape()[1], false, true);
  return csr_matrix::from_valid(s.data, s.minor, s.indptr, A.shape(), false);
}
}  // namespace detail

namespace {
// The function name of the messages of A.dot(x) for a matrix of format f.
constexpr const char* dot_name(sparse::format f) {
  switch (f) {
    case sparse::format::csr: return "cusci::sparse::csr_matrix::dot";
    case sparse::format::csc: return "cusci::sparse::csc_matrix::dot";
    case sparse::format::coo: return "cusci::sparse::coo_matrix::dot";
    case sparse::format::dia: return "cusci::sparse::dia_matrix::dot";
    case sparse::format::bsr: return "cusci::sparse::bsr_matrix::dot";
  }
  return "cusci::sparse::dot";
}
}  // namespace

// CSR: the product itself; CSC: the transposed product on its arrays; COO, DIA, BSR: their CSR form.
// The operand is checked before any conversion, so that a bad x throws without touching the device.
template <class Derived, sparse::format F>
ndarray matrix_base<Derived, F>::dot(const ndarray& x) const {
  static constexpr const char* fn = dot_name(F);
  const Derived& a = self();
  if constexpr (F == sparse::format::csr) {
    return detail::compressed_dot(fn, data_, a.indices(), a.indptr(), shape_, false, a.spmv_cache().get(), x, false);
  } else {
    detail::check_dot_operand(fn, data_, shape_, x);
    if constexpr (F == sparse::format::csc) {
      if (needs_row_kernel(dtype(), x.dtype())) return tocsr().dot(x);
      return detail::compressed_dot(fn, data_, a.indices(), a.indptr(), shape_, true, a.spmv_cache().get(), x, false);
    } else if constexpr (F == sparse::format::coo) {
      return detail::csr_keeping_duplicates(a).dot(x);
    } else {
      return tocsr().dot(x);
    }
  }
}
template ndarray matrix_base<coo_matrix, sparse::format::coo>::dot(const ndarray&) const;
template ndarray matrix_base<csr_matrix, sparse::format::csr>::dot(const ndarray&) const;
template ndarray matrix_base<csc_matrix, sparse::format::csc>::dot(const ndarray&) const;
template ndarray matrix_base<dia_matrix, sparse::format::dia>::dot(const ndarray&) const;
template ndarray matrix_base<bsr_matrix, sparse::format::bsr>::dot(const ndarray&) const;

ndarray spmatrix::dot(const ndarray& x) const {
  return visit([&](const auto& M) { return M.dot(x); });
}

ndarray dot(const spmatrix& A, const ndarray& x) { return A.dot(x); }

ndarray spmv_batched(const spmatrix& A, const ndarray& X) {
  static constexpr const char* fn = "cusci::sparse::spmv_batched";
  if (A.holds<csc_matrix>() && !needs_row_kernel(A.dtype(), X.dtype())) {
    const auto& C = A.get<csc_matrix>();
    return detail::compressed_dot(fn, C.data(), C.indices(), C.indptr(), C.shape(), true, C.spmv_cache().get(), X,
                                  true);
  }
  const csr_matrix C = A.holds<csr_matrix>()   ? A.get<csr_matrix>()
                       : A.holds<coo_matrix>() ? detail::csr_keeping_duplicates(A.get<coo_matrix>())
                                               : A.tocsr();
  return detail::compressed_dot(fn, C.data(), C.indices(), C.indptr(), C.shape(), false, C.spmv_cache().get(), X,
                                true);
}

}  // namespace cusci::sparse
