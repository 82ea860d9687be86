// scipy.sparse.linalg's direct solvers (direct.hpp): the SciPy-side logic of linsolve.py (formats,
// dtypes, warnings, options), the SuperLU object with its factors on the device, and the triangular
// solves through cuSPARSE SpSV (one right-hand side, analysis cached per factor) and SpSM (several).

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <climits>
#include <complex>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/detail/libraries.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/memory.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/access.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/sparse/linalg/direct.hpp"
#include "cusci/stream.hpp"
#include "cusci/warnings.hpp"
#include "csgraph/flow/flow_detail.hpp"
#include "linalg/direct_detail.hpp"

namespace cusci::sparse::linalg {

using cusci::detail::shape_str;

namespace {

const std::string kNs = "cusci::sparse::linalg::";

// ------------------------------------------------------------------------------------------------
// Option strings

// SciPy's comparison of option strings: case-insensitive, '_' and ' ' ignored.
std::string squash(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_' && c != ' ') out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return out;
}

int norm_from_string(std::string_view s, const std::string& fn) {
  const std::string t = squash(s);
  if (t == "ONENORM") return 0;
  if (t == "TWONORM") return 1;
  if (t == "INFNORM") return 2;
  throw value_error(fn + ": invalid value for 'ILU_Norm' parameter");
}

int milu_from_string(std::string_view s, const std::string& fn) {
  const std::string t = squash(s);
  if (t == "SILU") return 0;
  if (t == "SMILU1") return 1;
  if (t == "SMILU2") return 2;
  if (t == "SMILU3") return 3;
  throw value_error(fn + ": invalid value for 'ILU_MILU' parameter");
}

// ------------------------------------------------------------------------------------------------
// dtypes

// SciPy's A._asfptype(): the first of float32, float64, complex64, complex128 the dtype casts to safely.
dtype fp_dtype(dtype t) { return promote_types(t, dtype::float32); }

// NumPy's can_cast(from, to, 'safe') for a floating `to`.
bool can_cast_safe(dtype from, dtype to) {
  return promote_types(from, to) == to;
}

void check_factor_dtype(const std::string& fn, dtype t) {
  CUSCI_EXPECTS(t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128,
                type_error, fn + ": cannot factor a matrix of dtype " + std::string(dtype_name(t)));
}

cudaDataType cuda_type(dtype t) {
  switch (t) {
    case dtype::float32: return CUDA_R_32F;
    case dtype::float64: return CUDA_R_64F;
    case dtype::complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

// Host scalars 16-byte aligned (cuSPARSE loads a complex128 scalar as an aligned double2).
struct unit_scalars {
  alignas(16) double d = 1.0;
  alignas(16) float f = 1.0f;
  alignas(16) std::complex<float> c{1.0f, 0.0f};
  alignas(16) std::complex<double> z{1.0, 0.0};
  const void* get(dtype t) const {
    switch (t) {
      case dtype::float32: return &f;
      case dtype::float64: return &d;
      case dtype::complex64: return &c;
      default: return &z;
    }
  }
};

// ------------------------------------------------------------------------------------------------
// Triangular matrices on the device, with cuSPARSE's descriptors.

struct dnvec_guard {
  cusparseDnVecDescr_t a = nullptr, b = nullptr;
  ~dnvec_guard() {
    if (a) CUSCI_LAZY(cusparseDestroyDnVec)(a);
    if (b) CUSCI_LAZY(cusparseDestroyDnVec)(b);
  }
};
struct spsm_guard {
  cusparseDnMatDescr_t a = nullptr, b = nullptr;
  cusparseSpSMDescr_t d = nullptr;
  ~spsm_guard() {
    if (d) CUSCI_LAZY(cusparseSpSM_destroyDescr)(d);
    if (a) CUSCI_LAZY(cusparseDestroyDnMat)(a);
    if (b) CUSCI_LAZY(cusparseDestroyDnMat)(b);
  }
};

}  // namespace

namespace detail {

/// An n x n triangular CSR matrix (canonical) solved with cuSPARSE: op NON_TRANSPOSE always (the
/// transposed solves of a factorization use the CSC arrays, which are the CSR arrays of the transpose).
struct tri_matrix {
  ndarray data, indices, indptr;
  std::int64_t n = 0;
  bool lower = true, unit = false;
  std::mutex m;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseSpSVDescr_t sv = nullptr;
  memory_ptr sv_buf;
  bool sv_ready = false;

  tri_matrix(ndarray d, ndarray i, ndarray p, std::int64_t n_, bool lower_, bool unit_)
      : data(std::move(d)), indices(std::move(i)), indptr(std::move(p)), n(n_), lower(lower_), unit(unit_) {}
  tri_matrix(const tri_matrix&) = delete;
  tri_matrix& operator=(const tri_matrix&) = delete;
  ~tri_matrix() {
    if (sv) CUSCI_LAZY(cusparseSpSV_destroyDescr)(sv);
    if (mat) CUSCI_LAZY(cusparseDestroySpMat)(mat);
  }

  void ensure_mat() {
    if (mat) return;
    const cusparseIndexType_t it = indices.dtype() == dtype::int64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateCsr)(&mat, n, n, data.size(), indptr.data(), indices.data(),
                                                     data.data(), it, it, CUSPARSE_INDEX_BASE_ZERO,
                                                     cuda_type(data.dtype())));
    cusparseFillMode_t fill = lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t diag = unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpMatSetAttribute)(mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpMatSetAttribute)(mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  }

  // x = T^-1 b; b, x: [n] contiguous or [n, k] F-contiguous (k >= 1), dtype of data, distinct.
  void solve(const ndarray& b, ndarray& x) {
    if (n == 0) return;
    const std::int64_t k = b.ndim() == 2 ? b.shape(1) : 1;
    if (k == 0) return;
    std::lock_guard<std::mutex> lock(m);
    const unit_scalars one;
    const dtype t = data.dtype();
    const cudaDataType vt = cuda_type(t);
    cusparseHandle_t h = cusci::detail::cusparse_handle();
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSetPointerMode)(h, CUSPARSE_POINTER_MODE_HOST));
    cudaStream_t s = get_current_stream();
    ensure_mat();
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    if (b.ndim() == 1 || k == 1) {
      dnvec_guard g;
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnVec)(&g.a, n, b.data(), vt));
      CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnVec)(&g.b, n, x.data(), vt));
      if (!sv_ready) {
        if (!sv) CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSV_createDescr)(&sv));
        std::size_t bytes = 0;
        CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSV_bufferSize)(h, op, one.get(t), mat, g.a, g.b, vt,
                                                               CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes));
        sv_buf = cusci::malloc(bytes > 0 ? bytes : 1, s);
        CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSV_analysis)(h, op, one.get(t), mat, g.a, g.b, vt,
                                                             CUSPARSE_SPSV_ALG_DEFAULT, sv, sv_buf->ptr()));
        sv_ready = true;
      }
      CUSCI_CUSPARSE_TRY(
          CUSCI_LAZY(cusparseSpSV_solve)(h, op, one.get(t), mat, g.a, g.b, vt, CUSPARSE_SPSV_ALG_DEFAULT, sv));
      return;
    }
    spsm_guard g;
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnMat)(&g.a, n, k, n, b.data(), vt, CUSPARSE_ORDER_COL));
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseCreateDnMat)(&g.b, n, k, n, x.data(), vt, CUSPARSE_ORDER_COL));
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSM_createDescr)(&g.d));
    std::size_t bytes = 0;
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSM_bufferSize)(h, op, op, one.get(t), mat, g.a, g.b, vt,
                                                           CUSPARSE_SPSM_ALG_DEFAULT, g.d, &bytes));
    memory_ptr buf = cusci::malloc(bytes > 0 ? bytes : 1, s);
    CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSpSM_analysis)(h, op, op, one.get(t), mat, g.a, g.b, vt,
                                                         CUSPARSE_SPSM_ALG_DEFAULT, g.d, buf->ptr()));
    CUSCI_CUSPARSE_TRY(
        CUSCI_LAZY(cusparseSpSM_solve)(h, op, op, one.get(t), mat, g.a, g.b, vt, CUSPARSE_SPSM_ALG_DEFAULT, g.d));
    // buf returns to the pool stream-ordered, after the solve.
  }
};

}  // namespace detail

// --------------------------------------------------------------------------------------------------
// SuperLU object

struct SuperLU::impl {
  std::int64_t n = 0, nnz_store = 0;
  cusci::dtype dt = cusci::dtype::float64;
  ndarray perm_r, perm_c;
  csc_matrix L, U;
  std::mutex m;
  std::shared_ptr<detail::tri_matrix> Ln, Un, Lt, Ut, Lh, Uh;

  impl(std::int64_t n_, std::int64_t nnz_, cusci::dtype t, ndarray pr, ndarray pc, csc_matrix l, csc_matrix u)
      : n(n_), nnz_store(nnz_), dt(t), perm_r(std::move(pr)), perm_c(std::move(pc)), L(std::move(l)),
        U(std::move(u)) {}
};

shape2 SuperLU::shape() const noexcept { return {p_->n, p_->n}; }
std::int64_t SuperLU::nnz() const noexcept { return p_->nnz_store; }
cusci::dtype SuperLU::dtype() const noexcept { return p_->dt; }
const ndarray& SuperLU::perm_r() const noexcept { return p_->perm_r; }
const ndarray& SuperLU::perm_c() const noexcept { return p_->perm_c; }
const csc_matrix& SuperLU::L() const noexcept { return p_->L; }
const csc_matrix& SuperLU::U() const noexcept { return p_->U; }

namespace {

// The CSR arrays of an n x n matrix given in CSC (host; values of `es` bytes each).
void host_transpose(std::int64_t n, const std::vector<int>& colptr, const std::vector<int>& rowind,
                    const std::vector<unsigned char>& vals, std::size_t es, std::vector<int>& rowptr,
                    std::vector<int>& colind, std::vector<unsigned char>& out) {
  const std::size_t nnz = rowind.size();
  rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int r : rowind) ++rowptr[static_cast<std::size_t>(r) + 1];
  for (std::int64_t i = 0; i < n; ++i) rowptr[i + 1] += rowptr[i];
  std::vector<int> next(rowptr.begin(), rowptr.end() - 1);
  colind.assign(nnz, 0);
  out.assign(nnz * es, 0);
  for (std::int64_t j = 0; j < n; ++j)
    for (int p = colptr[j]; p < colptr[j + 1]; ++p) {
      const int d = next[rowind[p]]++;
      colind[d] = static_cast<int>(j);
      std::memcpy(out.data() + static_cast<std::size_t>(d) * es, vals.data() + static_cast<std::size_t>(p) * es, es);
    }
}

ndarray upload_ints(const std::vector<int>& v) {
  return asarray(static_cast<const void*>(v.data()), dtype::int32, {static_cast<std::int64_t>(v.size())});
}
ndarray upload_values(const std::vector<unsigned char>& v, dtype t) {
  const std::int64_t count = static_cast<std::int64_t>(v.size() / itemsize(t));
  return asarray(static_cast<const void*>(v.data()), t, {count});
}

// The SuperLU object of a host factorization: perm_r, perm_c, L and U uploaded, plus L and U in CSR
// for the solves with trans 'N' (`with_n`; spsolve of a CSR matrix solves with 'T' only).
SuperLU make_superlu(const detail::host_lu& f, dtype t, bool with_n = true) {
  const std::int64_t n = f.n;
  const std::size_t es = itemsize(t);
  ndarray pr = upload_ints(f.perm_r), pc = upload_ints(f.perm_c);
  std::vector<int> lp = f.L_colptr, up = f.U_colptr;
  if (lp.empty()) lp.assign(static_cast<std::size_t>(n) + 1, 0);
  if (up.empty()) up.assign(static_cast<std::size_t>(n) + 1, 0);
  csc_matrix L = csc_matrix::from_valid(upload_values(f.L_data, t), upload_ints(f.L_rowind), upload_ints(lp), {n, n},
                                        true);
  csc_matrix U = csc_matrix::from_valid(upload_values(f.U_data, t), upload_ints(f.U_rowind), upload_ints(up), {n, n},
                                        true);
  auto p = std::make_shared<SuperLU::impl>(n, f.nnz_store, t, std::move(pr), std::move(pc), L, U);
  if (!with_n) return SuperLU(std::move(p));
  std::vector<int> rp, ci;
  std::vector<unsigned char> vv;
  host_transpose(n, lp, f.L_rowind, f.L_data, es, rp, ci, vv);
  p->Ln = std::make_shared<detail::tri_matrix>(upload_values(vv, t), upload_ints(ci), upload_ints(rp), n, true, false);
  host_transpose(n, up, f.U_rowind, f.U_data, es, rp, ci, vv);
  p->Un = std::make_shared<detail::tri_matrix>(upload_values(vv, t), upload_ints(ci), upload_ints(rp), n, false, false);
  return SuperLU(std::move(p));
}

}  // namespace

ndarray SuperLU::solve(const ndarray& rhs, char trans) const {
  const std::string fn = kNs + "SuperLU::solve";
  CUSCI_EXPECTS(trans == 'N' || trans == 'T' || trans == 'H', value_error, fn + ": trans must be N, T, or H");
  CUSCI_EXPECTS(rhs.ndim() >= 1, value_error, fn + ": rhs: object of too small depth for desired array");
  CUSCI_EXPECTS(rhs.ndim() <= 2, value_error, fn + ": rhs: object too deep for desired array");
  CUSCI_EXPECTS(rhs.shape(0) == p_->n, value_error, fn + ": b is of incompatible size");
  CUSCI_EXPECTS(can_cast_safe(rhs.dtype(), p_->dt), type_error,
                fn + ": rhs: Cannot cast array data from dtype('" + std::string(dtype_name(rhs.dtype())) +
                    "') to dtype('" + std::string(dtype_name(p_->dt)) + "') according to the rule 'safe'");
  const std::int64_t n = p_->n, k = rhs.ndim() == 2 ? rhs.shape(1) : 1;
  ndarray x = empty(rhs.shape(), p_->dt);
  if (n == 0 || k == 0) return x;
  const ndarray b = rhs.astype(p_->dt, false);
  const bool conj = trans == 'H' && is_complex(p_->dt);
  std::shared_ptr<detail::tri_matrix> first, second;
  {
    std::lock_guard<std::mutex> lock(p_->m);
    if (trans == 'N') {
      first = p_->Ln;
      second = p_->Un;
    } else {
      auto& ut = conj ? p_->Uh : p_->Ut;
      auto& lt = conj ? p_->Lh : p_->Lt;
      if (!ut) {
        const csc_matrix& U = p_->U;
        ut = std::make_shared<detail::tri_matrix>(conj ? cusci::conj(U.data()) : U.data(), U.indices(), U.indptr(),
                                                  n, true, false);
      }
      if (!lt) {
        const csc_matrix& L = p_->L;
        lt = std::make_shared<detail::tri_matrix>(conj ? cusci::conj(L.data()) : L.data(), L.indices(), L.indptr(),
                                                  n, false, false);
      }
      first = ut;
      second = lt;
    }
  }
  const order ord = order::F;
  const shape_t sh = rhs.shape();
  ndarray y = empty(sh, p_->dt, ord), z = empty(sh, p_->dt, ord);
  const ndarray& p_in = trans == 'N' ? p_->perm_r : p_->perm_c;
  const ndarray& p_out = trans == 'N' ? p_->perm_c : p_->perm_r;
  detail::permute_rows(b, p_in, y, true);
  first->solve(y, z);
  second->solve(z, y);
  detail::permute_rows(y, p_out, x, false);
  return x;
}

// --------------------------------------------------------------------------------------------------
// Option parsing

namespace {

colperm parse_colperm(std::string_view s, const std::string& fn) {
  const std::string t = squash(s);
  if (t == "NATURAL") return colperm::natural;
  if (t == "MMDATA") return colperm::mmd_ata;
  if (t == "MMDATPLUSA") return colperm::mmd_at_plus_a;
  if (t == "COLAMD") return colperm::colamd;
  throw value_error(fn + ": invalid value for 'ColPerm' parameter");
}

int parse_drop_rule(std::string_view s, const std::string& fn) {
  int rule = 0;
  bool any = false;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    const std::string_view part = s.substr(start, comma == std::string_view::npos ? s.size() - start : comma - start);
    const std::string t = squash(part);
    if (t == "BASIC") rule |= 0x0001;
    else if (t == "PROWS") rule |= 0x0002;
    else if (t == "COLUMN") rule |= 0x0004;
    else if (t == "AREA") rule |= 0x0008;
    else if (t == "SECONDARY") rule |= 0x000E;
    else if (t == "DYNAMIC") rule |= 0x0010;
    else if (t == "INTERP") rule |= 0x0100;
    else throw value_error(fn + ": invalid value for 'ILU_DropRule' parameter");
    any = true;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  CUSCI_EXPECTS(any, value_error, fn + ": invalid value for 'ILU_DropRule' parameter");
  return rule;
}

}  // namespace

colperm colperm_from_string(std::string_view s) { return parse_colperm(s, kNs + "colperm_from_string"); }

int drop_rule_from_string(std::string_view s) { return parse_drop_rule(s, kNs + "drop_rule_from_string"); }

namespace {

// SciPy's _options dict after the keyword arguments and options.update(options), resolved over
// SuperLU's defaults. Validates every string before any device work.
detail::factor_options resolve(bool ilu, const std::optional<std::string>& permc_spec,
                               const std::optional<double>& diag_pivot_thresh, const std::optional<int>& relax,
                               const std::optional<int>& panel_size, const std::optional<double>& drop_tol,
                               const std::optional<double>& fill_factor, const std::optional<std::string>& drop_rule,
                               const superlu_options& o, const std::string& fn) {
  detail::factor_options f;
  f.ilu = ilu;
  if (ilu) f.DiagPivotThresh = 0.1;  // ilu_set_default_options
  f.Relax = -1;
  f.PanelSize = -1;
  std::optional<std::string> cp = o.ColPerm ? o.ColPerm : permc_spec;
  if (cp) f.ColPerm = parse_colperm(*cp, fn);
  if (auto v = o.DiagPivotThresh ? o.DiagPivotThresh : diag_pivot_thresh) f.DiagPivotThresh = *v;
  if (auto v = o.Relax ? o.Relax : relax) f.Relax = *v;
  if (auto v = o.PanelSize ? o.PanelSize : panel_size) f.PanelSize = *v;
  if (o.SymmetricMode) f.SymmetricMode = *o.SymmetricMode;
  // SciPy: `if _options["ColPerm"] == "NATURAL": _options["SymmetricMode"] = True` (an exact compare).
  if (cp && *cp == "NATURAL") f.SymmetricMode = true;
  if (ilu) {
    if (auto v = o.ILU_DropRule ? o.ILU_DropRule : drop_rule) f.ILU_DropRule = parse_drop_rule(*v, fn);
    if (auto v = o.ILU_DropTol ? o.ILU_DropTol : drop_tol) f.ILU_DropTol = *v;
    if (auto v = o.ILU_FillFactor ? o.ILU_FillFactor : fill_factor) f.ILU_FillFactor = *v;
    if (o.ILU_FillTol) f.ILU_FillTol = *o.ILU_FillTol;
    if (o.ILU_Norm) f.ILU_Norm = norm_from_string(*o.ILU_Norm, fn);
    if (o.ILU_MILU) f.ILU_MILU = milu_from_string(*o.ILU_MILU, fn);
  } else {
    // SuperLU's LU ignores the ILU keys; SciPy still parses them.
    if (o.ILU_DropRule) (void)parse_drop_rule(*o.ILU_DropRule, fn);
    if (o.ILU_Norm) (void)norm_from_string(*o.ILU_Norm, fn);
    if (o.ILU_MILU) (void)milu_from_string(*o.ILU_MILU, fn);
  }
  return f;
}

// The canonical CSC arrays of a compressed matrix (or of the transpose of a CSR matrix) on the host.
struct host_csc {
  std::int64_t n = 0;
  std::vector<int> colptr, rowind;
  std::vector<unsigned char> values;
  bool empty_line = false;  // structurally singular: no perfect matching of rows and columns
};

// Whether the pattern has no perfect matching (Hopcroft-Karp on the host): SuperLU 5's ILU exits
// the process on such a matrix (ilu_?pivotL), and its LU reports it singular; both are decided here.
bool structurally_singular(const host_csc& h) {
  for (std::int64_t j = 0; j < h.n; ++j)
    if (h.colptr[j] == h.colptr[j + 1]) return true;
  csgraph::detail::host_csr g;
  g.nr = g.nc = h.n;
  g.indptr.assign(h.colptr.begin(), h.colptr.end());
  g.indices.assign(h.rowind.begin(), h.rowind.end());
  return csgraph::detail::hopcroft_karp_host(g).size < h.n;
}

template <class M>
host_csc download(M c, const std::string& fn) {
  host_csc h;
  h.n = c.shape()[0];
  c.sum_duplicates();
  CUSCI_EXPECTS(c.nnz() <= INT_MAX, value_error,
                fn + ": the matrix has more than 2**31 - 1 entries; SuperLU takes 32-bit indices");
  h.colptr = to_host(c.indptr().astype(dtype::int32, false)).template to_vector<int>();
  h.rowind = to_host(c.indices().astype(dtype::int32, false)).template to_vector<int>();
  const host_array v = to_host(c.data());
  h.values.assign(static_cast<const unsigned char*>(v.data()), static_cast<const unsigned char*>(v.data()) + v.nbytes());
  h.empty_line = structurally_singular(h);
  return h;
}

// splu / spilu on a CSC matrix of a factor dtype.
SuperLU factor_csc(const csc_matrix& A, detail::factor_options f, const std::string& fn) {
  const host_csc h = download(A, fn);
  const dtype t = A.dtype();
  if (h.n == 0) {
    detail::host_lu e;
    return make_superlu(e, t);
  }
  if (h.empty_line) {
    if (f.ilu) throw runtime_error(fn + ": matrix is singular (structurally: no perfect matching of rows and columns)");
    throw runtime_error(fn + ": Factor is exactly singular");
  }
  const detail::host_lu lu = detail::superlu_factor(t, h.n, h.colptr, h.rowind, h.values, f);
  if (!lu.abort_message.empty()) throw runtime_error(fn + ": " + lu.abort_message);
  if (lu.info < 0) throw value_error(fn + ": gstrf was called with invalid arguments");
  if (lu.info > 0) {
    if (lu.info <= h.n) throw runtime_error(fn + ": Factor is exactly singular");
    throw out_of_memory(fn + ": SuperLU ran out of memory", 0, 0, 0, 0);
  }
  return make_superlu(lu, t);
}

// A as a CSC matrix of dtype fp(A) (SciPy's conversion with its warning when A is not CSC).
csc_matrix as_csc_factor(const spmatrix& A, const std::string& fn, const char* warning, std::optional<dtype> to = {}) {
  csc_matrix c = A.format() == format::csc ? A.get<csc_matrix>() : A.tocsc();
  if (A.format() != format::csc) warn("SparseEfficiencyWarning", fn, warning);
  const dtype t = to ? *to : fp_dtype(c.dtype());
  check_factor_dtype(fn, t);
  if (c.dtype() != t) c = c.astype(t, false);
  return c;
}

// Built without SuperLU: not_implemented_error naming fn, before any other work.
void require_superlu(const std::string& fn) {
  CUSCI_EXPECTS(has_superlu(), not_implemented_error,
                fn + ": cusci was built without SuperLU (libsuperlu), which it needs (install libsuperlu-dev and "
                     "reconfigure, or set CUSCI_SUPERLU_INCLUDE_DIR and CUSCI_SUPERLU_LIBRARY)");
}

void check_square_factor(const spmatrix& A, const std::string& fn) {
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error, fn + ": can only factor square matrices");
}

}  // namespace

SuperLU splu(const spmatrix& A, const splu_options& o) {
  const std::string fn = kNs + "splu";
  detail::factor_options f = resolve(false, o.permc_spec, o.diag_pivot_thresh, o.relax, o.panel_size, {}, {}, {},
                                     o.options, fn);
  check_square_factor(A, fn);
  require_superlu(fn);
  const csc_matrix c = as_csc_factor(A, fn, "splu converted its input to CSC format");
  return factor_csc(c, f, fn);
}

SuperLU spilu(const spmatrix& A, const spilu_options& o) {
  const std::string fn = kNs + "spilu";
  detail::factor_options f = resolve(true, o.permc_spec, o.diag_pivot_thresh, o.relax, o.panel_size, o.drop_tol,
                                     o.fill_factor, o.drop_rule, o.options, fn);
  check_square_factor(A, fn);
  require_superlu(fn);
  const csc_matrix c = as_csc_factor(A, fn, "spilu converted its input to CSC format");
  return factor_csc(c, f, fn);
}

std::function<ndarray(const ndarray&)> factorized(const spmatrix& A) {
  SuperLU lu = splu(A);
  return [lu](const ndarray& b) { return lu.solve(b); };
}

// --------------------------------------------------------------------------------------------------
// spsolve

ndarray spsolve(const spmatrix& A, const ndarray& b, std::optional<std::string> permc_spec, bool use_umfpack) {
  (void)use_umfpack;
  const std::string fn = kNs + "spsolve";
  detail::factor_options f;
  if (permc_spec) f.ColPerm = parse_colperm(*permc_spec, fn);
  f.Relax = -1;
  f.PanelSize = -1;
  const std::int64_t M = A.shape()[0], N = A.shape()[1];
  CUSCI_EXPECTS(M == N, value_error, fn + ": matrix must be square (has shape " + shape_str(A.shape()) + ")");
  CUSCI_EXPECTS(b.ndim() == 1 || b.ndim() == 2, value_error,
                fn + ": b must be 1-D or 2-D, got shape " + shape_str(b.shape()));
  CUSCI_EXPECTS(b.shape(0) == M, value_error,
                fn + ": matrix - rhs dimension mismatch (" + shape_str(A.shape()) + " - " + std::to_string(b.shape(0)) +
                    ")");
  const dtype rt = promote_types(fp_dtype(A.dtype()), b.dtype());
  check_factor_dtype(fn, rt);
  require_superlu(fn);
  const bool b_is_vector = b.ndim() == 1 || b.shape(1) == 1;
  const shape_t out_shape = b_is_vector ? shape_t{M} : b.shape();

  // CSC as given; CSR as the CSC arrays of A^T, solved with trans 'T' (SuperLU's gssv on SLU_NR).
  bool transposed = false;
  host_csc h;
  if (A.format() == format::csr) {
    csr_matrix c = A.get<csr_matrix>();
    if (c.dtype() != rt) c = c.astype(rt, false);
    h = download(c, fn);
    transposed = true;
  } else {
    csc_matrix c;
    if (A.format() == format::csc) {
      c = A.get<csc_matrix>();
    } else {
      warn("SparseEfficiencyWarning", fn, "spsolve requires A be CSC or CSR matrix format");
      c = A.tocsc();
    }
    if (c.dtype() != rt) c = c.astype(rt, false);
    h = download(c, fn);
  }
  if (M == 0) return empty(out_shape, rt);
  const ndarray bb = b_is_vector ? b.reshape({M}) : b;
  detail::host_lu lu;
  if (!h.empty_line) lu = detail::superlu_factor(rt, h.n, h.colptr, h.rowind, h.values, f);
  if (!lu.abort_message.empty()) throw runtime_error(fn + ": " + lu.abort_message);
  if (lu.info > h.n) throw out_of_memory(fn + ": SuperLU ran out of memory", 0, 0, 0, 0);
  if (lu.info < 0) throw value_error(fn + ": gssv was called with invalid arguments");
  if (h.empty_line || lu.info > 0) {
    warn("MatrixRankWarning", fn, "Matrix is exactly singular");
    return full(out_shape, std::numeric_limits<double>::quiet_NaN(), rt);
  }
  const SuperLU factor = make_superlu(lu, rt, !transposed);
  return factor.solve(bb, transposed ? 'T' : 'N');
}

spmatrix spsolve(const spmatrix& A, const spmatrix& b, std::optional<std::string> permc_spec, bool use_umfpack) {
  (void)use_umfpack;
  const std::string fn = kNs + "spsolve";
  const std::int64_t M = A.shape()[0], N = A.shape()[1];
  CUSCI_EXPECTS(M == N, value_error, fn + ": matrix must be square (has shape " + shape_str(A.shape()) + ")");
  CUSCI_EXPECTS(b.shape()[0] == M, value_error,
                fn + ": matrix - rhs dimension mismatch (" + shape_str(A.shape()) + " - " +
                    std::to_string(b.shape()[0]) + ")");
  const dtype rt = promote_types(fp_dtype(A.dtype()), b.dtype());
  check_factor_dtype(fn, rt);
  require_superlu(fn);
  if (b.shape()[1] == 1) {
    // SciPy densifies a one-column b and takes the dense path (gssv, permc_spec used, singular: nan
    // with MatrixRankWarning); the [n] result is returned here as an [n, 1] sparse matrix.
    const ndarray x = spsolve(A, b.toarray(), permc_spec, use_umfpack).reshape({M, 1});
    if (A.format() == format::csr) return csr_matrix(x);
    return csc_matrix(x);
  }
  // SciPy: A converted to CSC (with its warning) unless CSC/CSR, cast to the result dtype; then
  // factorized(A) = splu(A) (warns for CSR), then the format warning of b.
  spmatrix a = A;
  if (A.format() != format::csr && A.format() != format::csc) {
    warn("SparseEfficiencyWarning", fn, "spsolve requires A be CSC or CSR matrix format");
    a = A.tocsc();
  }
  const bool result_csr = a.format() == format::csr;
  if (a.dtype() != rt) a = a.astype(rt, false);
  const SuperLU lu = splu(a);
  if (b.format() != format::csc)
    warn("SparseEfficiencyWarning", fn, "spsolve is more efficient when sparse b is in the CSC matrix format");
  const std::int64_t k = b.shape()[1];
  // The columns of b, densified in blocks of at most 2^26 elements, solved together.
  const std::int64_t block = std::max<std::int64_t>(1, (std::int64_t{1} << 26) / std::max<std::int64_t>(M, 1));
  spmatrix bb = b.dtype() == rt ? b : b.astype(rt, false);
  csc_matrix bc = bb.tocsc();
  std::vector<spmatrix> parts;
  for (std::int64_t c0 = 0; c0 < k || (k == 0 && c0 == 0); c0 += block) {
    if (k == 0) break;
    const std::int64_t c1 = std::min(k, c0 + block);
    const ndarray dense =
        (c0 == 0 && c1 == k) ? bc.toarray() : getitem(bc, slice{}, slice{c0, c1}).toarray();
    ndarray x = lu.solve(dense, 'N');
    if (result_csr)
      parts.push_back(csr_matrix(x));
    else
      parts.push_back(csc_matrix(x));
  }
  if (parts.empty()) {
    if (result_csr) return csr_matrix(shape2{M, k}, matrix_options{.dtype = rt});
    return csc_matrix(shape2{M, k}, matrix_options{.dtype = rt});
  }
  if (parts.size() == 1) return parts.front();
  return hstack(parts, result_csr ? "csr" : "csc");
}

spmatrix inv(const spmatrix& A) {
  const spmatrix I = identity(A.shape()[0], A.dtype(), to_string(A.format()));
  return spsolve(A, I);
}

// --------------------------------------------------------------------------------------------------
// spsolve_triangular, is_sptriangular, spbandwidth

ndarray spsolve_triangular(const spmatrix& A, const ndarray& b, bool lower, bool overwrite_A, bool overwrite_b,
                           bool unit_diagonal) {
  (void)overwrite_A;
  (void)overwrite_b;
  const std::string fn = kNs + "spsolve_triangular";
  // SciPy transposes a CSR matrix (A = A.T, a CSC view) before its checks, so its message names the
  // transposed shape.
  const auto shown = A.format() == format::csr ? std::vector<std::int64_t>{A.shape()[1], A.shape()[0]}
                                               : std::vector<std::int64_t>{A.shape()[0], A.shape()[1]};
  CUSCI_EXPECTS(A.shape()[0] == A.shape()[1], value_error,
                fn + ": A must be a square matrix but its shape is " + shape_str(shown) + ".");
  CUSCI_EXPECTS(b.ndim() == 1 || b.ndim() == 2, value_error,
                fn + ": b must have 1 or 2 dims but its shape is " + shape_str(b.shape()) + ".");
  CUSCI_EXPECTS(b.shape(0) == A.shape()[0], value_error,
                fn +
                    ": The size of the dimensions of A must be equal to the size of the first dimension of b but the "
                    "shape of A is " +
                    shape_str(A.shape()) + " and the shape of b is " + shape_str(b.shape()) + ".");
  const dtype rt = promote_types(promote_types(A.dtype(), dtype::float32), b.dtype());
  check_factor_dtype(fn, rt);
  if (A.format() != format::csr && A.format() != format::csc)
    warn("SparseEfficiencyWarning", fn, "CSC or CSR matrix format is required. Converting to CSC matrix.");
  csr_matrix c = A.format() == format::csr ? A.get<csr_matrix>() : A.tocsr();
  if (c.dtype() != rt) c = c.astype(rt, false);
  c.sum_duplicates();
  const std::int64_t n = c.shape()[0];
  if (!unit_diagonal && n > 0) {
    const std::int64_t nz = count_nonzero(c.diagonal()).item<std::int64_t>();  // synchronizes
    if (nz != n) throw cusci::linalg::lin_alg_error(fn + ": A is singular: zero entry on diagonal.");
  }
  ndarray x = empty(b.shape(), rt);
  const std::int64_t k = b.ndim() == 2 ? b.shape(1) : 1;
  if (n == 0 || k == 0) return x;
  if (c.nnz() == 0) {  // unit diagonal, nothing else: x = b
    return b.astype(rt, true);
  }
  detail::tri_matrix t(c.data(), c.indices(), c.indptr(), n, lower, unit_diagonal);
  if (b.ndim() == 1 || k == 1) {
    const ndarray bv = b.astype(rt, false).copy();  // contiguous
    ndarray xv = empty({n}, rt);
    t.solve(bv.reshape({n}), xv);
    return xv.reshape(b.shape());
  }
  const ndarray bf = b.astype(rt, false).copy(order::F);
  ndarray xf = empty(b.shape(), rt, order::F);
  t.solve(bf, xf);
  return xf.copy(order::C);
}

namespace {

// min/max of (col - row) over the stored entries of A (not DIA). Synchronizes.
detail::diag_span span_of(const spmatrix& A) {
  const coo_matrix c = A.format() == format::coo ? A.get<coo_matrix>() : A.tocoo();
  return detail::entry_diagonal_span(c.row(), c.col());
}

}  // namespace

std::pair<bool, bool> is_sptriangular(const spmatrix& A) {
  const std::string fn = kNs + "is_sptriangular";
  if (A.format() == format::dia) {
    const auto& off = A.get<dia_matrix>().offsets_host();
    CUSCI_EXPECTS(!off.empty(), value_error,
                  fn + ": A: zero-size array to reduction operation maximum which has no identity");
    return {*std::max_element(off.begin(), off.end()) <= 0, *std::min_element(off.begin(), off.end()) >= 0};
  }
  spmatrix a = A;
  if (A.format() == format::bsr) {
    warn("SparseEfficiencyWarning", fn, "is_sptriangular needs sparse and not BSR format. Converting to CSR.");
    a = A.tocsr();
  }
  if (a.nnz() == 0) return {true, true};
  const detail::diag_span s = span_of(a);
  return {s.max_gap <= 0, s.min_gap >= 0};
}

std::pair<std::int64_t, std::int64_t> spbandwidth(const spmatrix& A) {
  const std::string fn = kNs + "spbandwidth";
  if (A.format() == format::dia) {
    const auto& off = A.get<dia_matrix>().offsets_host();
    CUSCI_EXPECTS(!off.empty(), value_error,
                  fn + ": A: zero-size array to reduction operation minimum which has no identity");
    return {std::max<std::int64_t>(0, -*std::min_element(off.begin(), off.end())),
            std::max<std::int64_t>(0, *std::max_element(off.begin(), off.end()))};
  }
  spmatrix a = A;
  if (A.format() == format::bsr) {
    warn("SparseEfficiencyWarning", fn, "spbandwidth needs sparse format not LIL and BSR. Converting to CSR.");
    a = A.tocsr();
  }
  CUSCI_EXPECTS(a.nnz() > 0, value_error,
                fn + ": A: zero-size array to reduction operation minimum which has no identity");
  const detail::diag_span s = span_of(a);
  return {std::max<std::int64_t>(-s.min_gap, 0), std::max<std::int64_t>(s.max_gap, 0)};
}

// --------------------------------------------------------------------------------------------------
// use_solver

namespace {
std::atomic<bool> pref_umfpack{true};
std::atomic<bool> pref_sorted{false};
}  // namespace

void use_solver(const use_solver_options& options) {
  if (options.useUmfpack) pref_umfpack.store(*options.useUmfpack);
  if (options.assumeSortedIndices) pref_sorted.store(*options.assumeSortedIndices);
}

use_solver_options solver_preferences() {
  return use_solver_options{pref_umfpack.load(), pref_sorted.load()};
}

}  // namespace cusci::sparse::linalg
