// csr_matrix::dot: SpMV with the CSR-stream kernel (cg.cu) for short rows, else SpMV / SpMM through
// cuSPARSE's generic API, with the matrix descriptor, the dense descriptors and the workspace cached
// in the matrix so that a repeated product is one cuSPARSE call.

#include "cusci/detail/checks.hpp"
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <mutex>
#include <string>
#include <vector>

#include "cusci/detail/libraries.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/stream.hpp"
#include "detail.hpp"

namespace cusci::sparse::detail {

namespace {

cudaDataType value_type(dtype t) { return t == dtype::float32 ? CUDA_R_32F : CUDA_R_64F; }
cusparseIndexType_t index_type(dtype t) { return t == dtype::int32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I; }

// One cached product configuration: the stream it runs on, the number of right-hand sides (0: SpMV),
// the dense descriptors (re-pointed at each call) and the workspace (preprocessed for SpMV).
struct plan {
  cudaStream_t stream = nullptr;
  int device = 0;
  std::int64_t k = 0;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseDnMatDescr_t X = nullptr, Y = nullptr;
  memory_ptr buffer;
  std::uint64_t last_use = 0;
};

void destroy(plan& p) noexcept {
  if (p.x) cusparseDestroyDnVec(p.x);
  if (p.y) cusparseDestroyDnVec(p.y);
  if (p.X) cusparseDestroyDnMat(p.X);
  if (p.Y) cusparseDestroyDnMat(p.Y);
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
  ~spmv_cache() {
    for (auto& p : plans) destroy(p);
    if (mat) cusparseDestroySpMat(mat);  // errors ignored: destructors never throw
  }
};

std::shared_ptr<spmv_cache> make_spmv_cache() { return std::make_shared<spmv_cache>(); }

namespace {

cusparseSpMatDescr_t make_csr(const ndarray& data, const ndarray& indices, const ndarray& indptr, shape2 shape) {
  cusparseSpMatDescr_t d = nullptr;
  CUSCI_CUSPARSE_TRY(cusparseCreateCsr(&d, shape[0], shape[1], data.size(), indptr.data(), indices.data(),
                                       data.data(), index_type(indptr.dtype()), index_type(indices.dtype()),
                                       CUSPARSE_INDEX_BASE_ZERO, value_type(data.dtype())));
  return d;
}

// y = A x with x, y contiguous of dtype rt == A's value dtype; `cached` uses and fills the cache.
void run_product(cusparseSpMatDescr_t mat, spmv_cache* cache, dtype rt, const ndarray& x, ndarray& y, shape2 shape) {
  cusparseHandle_t h = cusci::detail::cusparse_handle();
  CUSCI_CUSPARSE_TRY(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST));
  cudaStream_t s = get_current_stream();
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  const std::int64_t k = x.ndim() == 2 ? x.shape(1) : 0;
  const double one_d = 1.0, zero_d = 0.0;
  const float one_f = 1.0f, zero_f = 0.0f;
  const void* alpha = rt == dtype::float32 ? static_cast<const void*>(&one_f) : static_cast<const void*>(&one_d);
  const void* beta = rt == dtype::float32 ? static_cast<const void*>(&zero_f) : static_cast<const void*>(&zero_d);
  const cudaDataType vt = value_type(rt);

  plan local;
  plan* p = &local;
  std::unique_lock<std::mutex> lock;
  if (cache) {
    lock = std::unique_lock<std::mutex>(cache->mu);
    p = nullptr;
    for (auto& q : cache->plans)
      if (q.stream == s && q.device == dev && q.k == k) p = &q;
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

  if (k == 0) {
    const bool fresh = p->x == nullptr;
    if (fresh) {
      CUSCI_CUSPARSE_TRY(cusparseCreateDnVec(&p->x, shape[1], x.data(), vt));
      CUSCI_CUSPARSE_TRY(cusparseCreateDnVec(&p->y, shape[0], y.data(), vt));
      std::size_t bytes = 0;
      CUSCI_CUSPARSE_TRY(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat, p->x, beta, p->y,
                                                 vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
      p->buffer = cusci::malloc(bytes > 0 ? bytes : 1, s);
      CUSCI_CUSPARSE_TRY(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat, p->x, beta, p->y,
                                                 vt, CUSPARSE_SPMV_ALG_DEFAULT, p->buffer->ptr()));
    } else {
      CUSCI_CUSPARSE_TRY(cusparseDnVecSetValues(p->x, x.data()));
      CUSCI_CUSPARSE_TRY(cusparseDnVecSetValues(p->y, y.data()));
    }
    CUSCI_CUSPARSE_TRY(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat, p->x, beta, p->y, vt,
                                    CUSPARSE_SPMV_ALG_DEFAULT, p->buffer->ptr()));
  } else {
    const bool fresh = p->X == nullptr;
    if (fresh) {
      CUSCI_CUSPARSE_TRY(cusparseCreateDnMat(&p->X, shape[1], k, k, x.data(), vt, CUSPARSE_ORDER_ROW));
      CUSCI_CUSPARSE_TRY(cusparseCreateDnMat(&p->Y, shape[0], k, k, y.data(), vt, CUSPARSE_ORDER_ROW));
      std::size_t bytes = 0;
      CUSCI_CUSPARSE_TRY(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                 alpha, mat, p->X, beta, p->Y, vt, CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
      p->buffer = cusci::malloc(bytes > 0 ? bytes : 1, s);
    } else {
      CUSCI_CUSPARSE_TRY(cusparseDnMatSetValues(p->X, x.data()));
      CUSCI_CUSPARSE_TRY(cusparseDnMatSetValues(p->Y, y.data()));
    }
    CUSCI_CUSPARSE_TRY(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat,
                                    p->X, beta, p->Y, vt, CUSPARSE_SPMM_ALG_DEFAULT, p->buffer->ptr()));
  }
  if (!cache) p->buffer.reset();  // released to the pool of stream s: stream order keeps it valid
}

}  // namespace
}  // namespace cusci::sparse::detail

namespace cusci::sparse {

ndarray coo_matrix::dot(const ndarray& x) const { return tocsr().dot(x); }

ndarray csr_matrix::dot(const ndarray& x) const {
  static constexpr const char* fn = "cusci::sparse::csr_matrix::dot";
  cusci::detail::check_same_device(fn, {&data_, &x});
  const std::int64_t m = shape_[0], n = shape_[1];
  auto shp = [](const shape_t& s) {
    std::string out = "(";
    for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + (s.size() == 1 ? ",)" : ")");
  };
  CUSCI_EXPECTS(x.ndim() == 1 || x.ndim() == 2, value_error,
                std::string(fn) + ": x must be 1-D or 2-D, got shape " + shp(x.shape()));
  CUSCI_EXPECTS(x.shape(0) == n, value_error,
                std::string(fn) + ": dimension mismatch: A has shape (" + std::to_string(m) + ", " +
                    std::to_string(n) + "), x has shape " + shp(x.shape()));
  CUSCI_EXPECTS(!is_complex(x.dtype()), type_error,
                std::string(fn) + ": x must be real, got " + std::string(dtype_name(x.dtype())));
  cusci::dtype rt = promote_types(dtype(), x.dtype());
  if (!is_floating(rt)) rt = cusci::dtype::float64;  // not reachable for float A; kept for safety
  const bool vec = x.ndim() == 1;
  const std::int64_t k = vec ? 0 : x.shape(1);
  ndarray y = vec ? empty({m}, rt) : empty({m, k}, rt);
  if (m == 0 || (!vec && k == 0)) return y;
  if (nnz() == 0 || n == 0) {
    y.fill(0);
    return y;
  }
  ndarray xc = x.astype(rt, false);
  if (!xc.is_c_contiguous()) xc = xc.copy();
  if (vec && rt == dtype() && indptr_.dtype() == indices_.dtype() && detail::stream_spmv_preferred(m, nnz())) {
    detail::csr_spmv_stream(data_, indices_, indptr_, m, xc, y);
    return y;
  }
  if (rt == dtype()) {
    std::lock_guard<std::mutex> lk(cache_->mu);
    if (!cache_->mat) cache_->mat = detail::make_csr(data_, indices_, indptr_, shape_);
  }
  if (rt == dtype()) {
    detail::run_product(cache_->mat, cache_.get(), rt, xc, y, shape_);
  } else {
    // Mixed precision (float32 A, float64 x): a float64 copy of the values, uncached.
    ndarray d = data_.astype(rt);
    cusparseSpMatDescr_t mat = detail::make_csr(d, indices_, indptr_, shape_);
    struct mat_guard {
      cusparseSpMatDescr_t m;
      ~mat_guard() { cusparseDestroySpMat(m); }
    } g{mat};
    detail::run_product(mat, nullptr, rt, xc, y, shape_);
  }
  return y;
}

}  // namespace cusci::sparse
