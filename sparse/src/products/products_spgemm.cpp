// Sparse x sparse products: SciPy's result format of A @ B per format pair (dot(A, B)), cusci's
// row-wise merge SpGEMM (the default, every dtype), cuSPARSE's
// memory-frugal SpGEMM (ALG2 / ALG3 with chunks) for float and complex values with int32-sized
// operands, cusci's expand-sort-compress kernel, and the matrix power by repeated squaring.

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <algorithm>
#include <complex>
#include <limits>
#include <string>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/products.hpp"
#include "cusci/stream.hpp"
#include "products/products_detail.hpp"

namespace cusci::sparse {
namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

cudaDataType value_type(dtype t) {
  switch (t) {
    case dtype::float32: return CUDA_R_32F;
    case dtype::float64: return CUDA_R_64F;
    case dtype::complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

struct spgemm_guard {
  cusparseSpMatDescr_t a = nullptr, b = nullptr, c = nullptr;
  cusparseSpGEMMDescr_t g = nullptr;
  ~spgemm_guard() {
    if (g) CUSCI_LAZY(cusparseSpGEMM_destroyDescr)(g);
    if (a) CUSCI_LAZY(cusparseDestroySpMat)(a);
    if (b) CUSCI_LAZY(cusparseDestroySpMat)(b);
    if (c) CUSCI_LAZY(cusparseDestroySpMat)(c);
  }
};

// C = A B through cuSPARSE; A, B canonical CSR of one float/complex dtype with int32 indices.
csr_matrix spgemm_cusparse(const csr_matrix& A, const csr_matrix& B, spgemm_algorithm which, float chunk) {
  const std::int64_t m = A.shape()[0], k = A.shape()[1], n = B.shape()[1];
  const dtype vt_d = A.dtype();
  const cudaDataType vt = value_type(vt_d);
  cusparseHandle_t h = cusci::detail::cusparse_handle();
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSetPointerMode)(h, CUSPARSE_POINTER_MODE_HOST));
  cudaStream_t s = get_current_stream();
  // Host scalars 16-byte aligned: cuSPARSE loads a complex128 scalar as an aligned double2.
  alignas(16) const double d1 = 1.0;
  alignas(16) const double d0 = 0.0;
  alignas(16) const float f1 = 1.0f;
  alignas(16) const float f0 = 0.0f;
  alignas(16) const std::complex<float> c1{1, 0};
  alignas(16) const std::complex<float> c0{0, 0};
  alignas(16) const std::complex<double> z1{1, 0};
  alignas(16) const std::complex<double> z0{0, 0};
  const void* alpha = vt_d == dtype::float32 ? static_cast<const void*>(&f1)
                      : vt_d == dtype::float64 ? static_cast<const void*>(&d1)
                      : vt_d == dtype::complex64 ? static_cast<const void*>(&c1)
                                                 : static_cast<const void*>(&z1);
  const void* beta = vt_d == dtype::float32 ? static_cast<const void*>(&f0)
                     : vt_d == dtype::float64 ? static_cast<const void*>(&d0)
                     : vt_d == dtype::complex64 ? static_cast<const void*>(&c0)
                                                : static_cast<const void*>(&z0);
  const auto opA = CUSPARSE_OPERATION_NON_TRANSPOSE, opB = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSpGEMMAlg_t alg = which == spgemm_algorithm::cusparse_alg3 ? CUSPARSE_SPGEMM_ALG3 : CUSPARSE_SPGEMM_ALG2;

  spgemm_guard g;
  ndarray cptr = empty({m + 1}, dtype::int32);
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateCsr)(&g.a, m, k, A.nnz(), A.indptr().data(), A.indices().data(),
                                                   A.data().data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                   CUSPARSE_INDEX_BASE_ZERO, vt));
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateCsr)(&g.b, k, n, B.nnz(), B.indptr().data(), B.indices().data(),
                                                   B.data().data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                   CUSPARSE_INDEX_BASE_ZERO, vt));
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateCsr)(&g.c, m, n, 0, cptr.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpGEMM_createDescr)(&g.g));

  // 1. work estimation (buffer 1)
  std::size_t b1 = 0;
  CUSCI_CUSPARSE_TRY(
      CUSCI_LAZY(cusparseSpGEMM_workEstimation)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g, &b1, nullptr));
  memory_ptr buf1 = cusci::malloc(b1 > 0 ? b1 : 1, s);
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpGEMM_workEstimation)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g,
                                                               &b1, buf1->ptr()));
  // 2. memory estimate (buffer 3, temporary) -> size of buffer 2
  std::size_t b3 = 0, b2 = 0;
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpGEMM_estimateMemory)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g,
                                                               chunk, &b3, nullptr, nullptr));
  {
    memory_ptr buf3 = cusci::malloc(b3 > 0 ? b3 : 1, s);
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpGEMM_estimateMemory)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g,
                                                                 chunk, &b3, buf3->ptr(), &b2));
  }  // buffer 3 back to the pool (stream-ordered)
  memory_ptr buf2 = cusci::malloc(b2 > 0 ? b2 : 1, s);
  // 3. compute (the structure and values of C live in cuSPARSE's buffers until copied)
  CUSCI_CUSPARSE_TRY(
      CUSCI_LAZY(cusparseSpGEMM_compute)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g, &b2, buf2->ptr()));
  std::int64_t crows = 0, ccols = 0, cnnz = 0;
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpMatGetSize)(g.c, &crows, &ccols, &cnnz));
  CUSCI_EXPECTS(cnnz <= int32_max, value_error,
                "cusci::sparse::dot: the product has more than 2**31 - 1 entries; use spgemm_algorithm::esc");
  ndarray cind = empty({cnnz}, dtype::int32), cval = empty({cnnz}, vt_d);
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCsrSetPointers)(g.c, cptr.data(), cind.data(), cval.data()));
  // 4. copy into C's arrays
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpGEMM_copy)(h, opA, opB, alpha, g.a, g.b, beta, g.c, vt, alg, g.g));
  // Buffers 1 and 2 are referenced by the SpGEMM descriptor until the copy; they go back to the pool
  // (stream-ordered) only now, so that C's arrays can never be carved from them.
  buf2.reset();
  buf1.reset();
  return csr_matrix::from_valid(cval, cind, cptr, {m, n}, false);  // sortedness computed on demand
}

// A canonical CSR form of M in value dtype t and index dtype it (none: M's own), on a private handle.
csr_matrix canonical_csr(const spmatrix& M, dtype t, std::optional<dtype> it) {
  csr_matrix C = M.holds<csr_matrix>() ? M.get<csr_matrix>() : M.tocsr();
  if (!C.has_canonical_format()) {
    C = C.copy();
    C.sum_duplicates();
  }
  ndarray d = C.data().astype(t, false);
  ndarray ind = it ? C.indices().astype(*it, false) : C.indices();
  ndarray ptr = it ? C.indptr().astype(*it, false) : C.indptr();
  if (d.memory() == C.data().memory() && ind.memory() == C.indices().memory()) return C;
  return csr_matrix::from_valid(d, ind, ptr, C.shape(), true);
}

}  // namespace

csr_matrix dot(const spmatrix& A, const spmatrix& B, const spgemm_options& options) {
  static constexpr const char* fn = "cusci::sparse::dot";
  const shape2 sa = A.shape(), sb = B.shape();
  CUSCI_EXPECTS(sa[1] == sb[0], value_error,
                std::string(fn) + ": dimension mismatch: A has shape (" + std::to_string(sa[0]) + ", " +
                    std::to_string(sa[1]) + "), B has shape (" + std::to_string(sb[0]) + ", " +
                    std::to_string(sb[1]) + ")");
  CUSCI_EXPECTS(options.chunk_fraction > 0.0f && options.chunk_fraction <= 1.0f, value_error,
                std::string(fn) + ": chunk_fraction must be in (0, 1], got " + std::to_string(options.chunk_fraction));
  dtype rt = promote_types(A.dtype(), B.dtype());
  if (rt == dtype::float16) rt = dtype::float32;
  const std::int64_t m = sa[0], n = sb[1];
  const bool fits32 = std::max({sa[0], sa[1], sb[1], A.nnz(), B.nnz()}) <= int32_max;
  spgemm_algorithm alg = options.algorithm;
  if (alg == spgemm_algorithm::cusparse_alg2 || alg == spgemm_algorithm::cusparse_alg3)
    CUSCI_EXPECTS(is_inexact(rt), type_error,
                  std::string(fn) + ": the cuSPARSE SpGEMM algorithms need float or complex values, got " +
                      std::string(dtype_name(rt)));
  if (alg == spgemm_algorithm::automatic) alg = spgemm_algorithm::rowwise;
  if ((alg == spgemm_algorithm::cusparse_alg2 || alg == spgemm_algorithm::cusparse_alg3) && !fits32)
    alg = spgemm_algorithm::esc;
  if (A.nnz() == 0 || B.nnz() == 0 || m == 0 || n == 0) {
    const dtype it = get_index_dtype(std::max({m, n, sa[1]}));
    return csr_matrix::from_valid(empty({0}, rt), empty({0}, it), zeros({m + 1}, it), {m, n}, true);
  }
  if (alg == spgemm_algorithm::esc) {
    const csr_matrix a = canonical_csr(A, rt, {}), b = canonical_csr(B, rt, {});
    return detail::spgemm_esc(a, b);
  }
  if (alg == spgemm_algorithm::rowwise) {
    // One index dtype for both operands and C: int64 when either operand has int64 indices (SciPy's
    // get_index_dtype of the four index arrays) or a dimension needs it, else int32 (the kernel
    // moves to int64 itself when the product count exceeds int32, as SciPy's maxval rule).
    const csr_matrix a0 = canonical_csr(A, rt, {}), b0 = canonical_csr(B, rt, {});
    const bool wide = a0.indices().dtype() == dtype::int64 || b0.indices().dtype() == dtype::int64 ||
                      std::max({sa[0], sa[1], sb[1]}) > int32_max;
    const dtype it = wide ? dtype::int64 : dtype::int32;
    return detail::spgemm_rows(canonical_csr(a0, rt, it), canonical_csr(b0, rt, it));
  }
  const csr_matrix a = canonical_csr(A, rt, dtype::int32), b = canonical_csr(B, rt, dtype::int32);
  return spgemm_cusparse(a, b, alg, options.chunk_fraction);
}

// SciPy's result format of A @ B (the `_matmul_sparse` of A's class): CSC for a CSC A (computed as
// the CSR product B^T A^T, whose transpose over the same arrays is the CSC result: SciPy's
// csr_matmat on the swapped operands), DIA for DIA @ DIA, BSR (R, C) for a BSR A, else CSR.
spmatrix dot(const spmatrix& A, const spmatrix& B) {
  static constexpr const char* fn = "cusci::sparse::dot";
  CUSCI_NVTX_SCOPE(fn);
  const shape2 sa = A.shape(), sb = B.shape();
  CUSCI_EXPECTS(sa[1] == sb[0], value_error,
                std::string(fn) + ": dimension mismatch: A has shape (" + std::to_string(sa[0]) + ", " +
                    std::to_string(sa[1]) + "), B has shape (" + std::to_string(sb[0]) + ", " +
                    std::to_string(sb[1]) + ")");
  switch (A.format()) {
    case sparse::format::csc: {
      const csr_matrix at = transpose(A.get<csc_matrix>());  // A^T, CSR over A's arrays
      const spmatrix bt = B.holds<csc_matrix>() ? spmatrix(transpose(B.get<csc_matrix>()))
                                                : spmatrix(transpose(B.tocsc()));
      return transpose(dot(bt, at, spgemm_options{}));
    }
    case sparse::format::dia:
      if (B.holds<dia_matrix>()) return dot(A, B, spgemm_options{}).todia();
      return dot(A, B, spgemm_options{});
    case sparse::format::bsr: {
      const std::int64_t R = A.get<bsr_matrix>().blocksize()[0];
      const std::int64_t C = B.holds<bsr_matrix>() ? B.get<bsr_matrix>().blocksize()[1] : 1;
      return dot(A, B, spgemm_options{}).tobsr(shape2{R, C});
    }
    default: return dot(A, B, spgemm_options{});
  }
}

// scipy.sparse.linalg.matrix_power (also cusci::sparse::matrix_power, a using-declaration in
// products.hpp; the messages keep that name).
csr_matrix linalg::matrix_power(const spmatrix& A, std::int64_t n) {
  static constexpr const char* fn = "cusci::sparse::matrix_power";
  const shape2 s = A.shape();
  CUSCI_EXPECTS(s[0] == s[1], type_error,
                std::string(fn) + ": sparse matrix is not square, got shape " + cusci::detail::shape_str(s));
  CUSCI_EXPECTS(n >= 0, value_error, std::string(fn) + ": exponent must be >= 0, got " + std::to_string(n));
  if (n == 0) {
    const dtype it = get_index_dtype(s[0]);
    ndarray d = ones({s[0]}, A.dtype());
    ndarray ind = arange(scalar(std::int64_t{0}), scalar(s[0]), scalar(std::int64_t{1}), it);
    ndarray ptr = arange(scalar(std::int64_t{0}), scalar(s[0] + 1), scalar(std::int64_t{1}), it);
    return csr_matrix::from_valid(d, ind, ptr, s, true);
  }
  // Repeated squaring, as SciPy: result = A^(n mod 2) ... combined from the binary digits of n.
  csr_matrix base = A.holds<csr_matrix>() ? A.get<csr_matrix>() : A.tocsr();
  if (n == 1) return base.copy();
  std::optional<csr_matrix> result;
  std::int64_t e = n;
  while (true) {
    if (e & 1) result = result ? dot(*result, base, spgemm_options{}) : base;
    e >>= 1;
    if (e == 0) break;
    base = dot(base, base, spgemm_options{});
  }
  return *result;
}

}  // namespace cusci::sparse
