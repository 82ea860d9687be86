// The host half of the direct solvers: SuperLU's factorization (gstrf / gsitrf) with SciPy's calling
// sequence (get_perm_c, sp_preorder, gstrf; scipy/sparse/linalg/_dsolve/_superluobject.c), and the
// extraction of L and U to CSC (unit diagonal explicit in L, exact zeros left out, as SciPy's
// LU_to_csc). Built with SuperLU when CUSCI_HAVE_SUPERLU is defined (cmake/cusci_superlu.cmake).

#include <algorithm>
#include <complex>
#include <cstring>
#include <mutex>
#include <numeric>

#include "cusci/error.hpp"
#include "linalg/direct_detail.hpp"

#if defined(CUSCI_HAVE_SUPERLU)
#include <csetjmp>
extern "C" {
#include <slu_cdefs.h>
#include <slu_ddefs.h>
#include <slu_sdefs.h>
#include <slu_zdefs.h>
}
#endif

namespace cusci::sparse::linalg {

bool has_superlu() noexcept {
#if defined(CUSCI_HAVE_SUPERLU)
  return true;
#else
  return false;
#endif
}

}  // namespace cusci::sparse::linalg

#if defined(CUSCI_HAVE_SUPERLU)

namespace {

// SuperLU reports an unrecoverable condition (ILU on a column without pivot candidates, ...) by
// calling superlu_abort_and_exit, which exits the process. cusci defines the symbol (it takes
// precedence over the library's through the dynamic symbol lookup order) and jumps back to the
// factorization call instead, as SciPy does; only SuperLU's C frames are skipped.
thread_local std::jmp_buf* abort_target = nullptr;
thread_local char abort_text[256];

}  // namespace

#if SUPERLU_MAJOR_VERSION >= 6
extern "C" void superlu_abort_and_exit(const char* msg) {
#else
extern "C" void superlu_abort_and_exit(char* msg) {
#endif
  if (abort_target != nullptr) {
    std::strncpy(abort_text, msg != nullptr ? msg : "SuperLU aborted", sizeof(abort_text) - 1);
    abort_text[sizeof(abort_text) - 1] = '\0';
    std::longjmp(*abort_target, 1);
  }
  std::abort();
}

namespace cusci::sparse::linalg::detail {
namespace {

std::mutex superlu_mutex;

// The typed SuperLU entry points of one value type.
template <class T> struct slu;
template <> struct slu<float> {
  using value = float;
  static constexpr Dtype_t type = SLU_S;
  static void create(SuperMatrix* A, int n, int nnz, value* v, int* r, int* c) {
    sCreate_CompCol_Matrix(A, n, n, nnz, v, r, c, SLU_NC, type, SLU_GE);
  }
  static void gstrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                    SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    sgstrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static void gsitrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                     SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    sgsitrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static bool zero(const value& x) { return x == 0.0f; }
};
template <> struct slu<double> {
  using value = double;
  static constexpr Dtype_t type = SLU_D;
  static void create(SuperMatrix* A, int n, int nnz, value* v, int* r, int* c) {
    dCreate_CompCol_Matrix(A, n, n, nnz, v, r, c, SLU_NC, type, SLU_GE);
  }
  static void gstrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                    SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    dgstrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static void gsitrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                     SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    dgsitrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static bool zero(const value& x) { return x == 0.0; }
};
template <> struct slu<std::complex<float>> {
  using value = ::complex;
  static constexpr Dtype_t type = SLU_C;
  static void create(SuperMatrix* A, int n, int nnz, value* v, int* r, int* c) {
    cCreate_CompCol_Matrix(A, n, n, nnz, v, r, c, SLU_NC, type, SLU_GE);
  }
  static void gstrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                    SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    cgstrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static void gsitrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                     SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    cgsitrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static bool zero(const value& x) { return x.r == 0.0f && x.i == 0.0f; }
};
template <> struct slu<std::complex<double>> {
  using value = doublecomplex;
  static constexpr Dtype_t type = SLU_Z;
  static void create(SuperMatrix* A, int n, int nnz, value* v, int* r, int* c) {
    zCreate_CompCol_Matrix(A, n, n, nnz, v, r, c, SLU_NC, type, SLU_GE);
  }
  static void gstrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                    SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    zgstrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static void gsitrf(superlu_options_t* o, SuperMatrix* AC, int relax, int panel, int* etree, int* pc, int* pr,
                     SuperMatrix* L, SuperMatrix* U, GlobalLU_t* g, SuperLUStat_t* s, int* info) {
    zgsitrf(o, AC, relax, panel, etree, nullptr, 0, pc, pr, L, U, g, s, info);
  }
  static bool zero(const value& x) { return x.r == 0.0 && x.i == 0.0; }
};

// Everything the guarded call touches lives here (no C++ object with a destructor is live in the
// frames a longjmp skips).
template <class T>
struct factor_call {
  superlu_options_t* options;
  SuperMatrix* AC;
  int relax, panel;
  int* etree;
  int* perm_c;
  int* perm_r;
  SuperMatrix* L;
  SuperMatrix* U;
  GlobalLU_t* glu;
  SuperLUStat_t* stat;
  int* info;
  bool ilu;
};

template <class T>
void run_factor(factor_call<T>* c) {
  if (c->ilu)
    slu<T>::gsitrf(c->options, c->AC, c->relax, c->panel, c->etree, c->perm_c, c->perm_r, c->L, c->U, c->glu,
                   c->stat, c->info);
  else
    slu<T>::gstrf(c->options, c->AC, c->relax, c->panel, c->etree, c->perm_c, c->perm_r, c->L, c->U, c->glu,
                  c->stat, c->info);
}

// Calls fn(arg) with the abort hook armed; returns false when SuperLU aborted.
template <class T>
bool guarded(void (*fn)(factor_call<T>*), factor_call<T>* arg) {
  std::jmp_buf env;
  abort_target = &env;
  if (setjmp(env) != 0) {
    abort_target = nullptr;
    return false;
  }
  fn(arg);
  abort_target = nullptr;
  return true;
}

colperm_t to_superlu(colperm c) {
  switch (c) {
    case colperm::natural: return NATURAL;
    case colperm::mmd_ata: return MMD_ATA;
    case colperm::mmd_at_plus_a: return MMD_AT_PLUS_A;
    default: return COLAMD;
  }
}

// L and U of SuperLU's supernodal L and column U as CSC, as SciPy's LU_to_csc: L gets the entries
// below the diagonal of each supernode column and an explicit 1 on the diagonal; U the entries of U's
// columns and those on or above the diagonal inside the supernode; exact zeros are left out. Row
// indices are then sorted within each column.
template <class T>
void extract(SuperMatrix* Lm, SuperMatrix* Um, host_lu& out) {
  using V = typename slu<T>::value;
  SCformat* Lstore = static_cast<SCformat*>(Lm->Store);
  NCformat* Ustore = static_cast<NCformat*>(Um->Store);
  const V* Lval = static_cast<const V*>(Lstore->nzval);
  const V* Uval = static_cast<const V*>(Ustore->nzval);
  const int n = Lm->ncol;
  std::vector<std::pair<int, V>> lcol, ucol;
  std::vector<V> Ld, Ud;
  out.L_colptr.assign(n + 1, 0);
  out.U_colptr.assign(n + 1, 0);
  V one{};
  std::memset(static_cast<void*>(&one), 0, sizeof(V));
  if constexpr (std::is_same_v<V, float> || std::is_same_v<V, double>)
    one = 1;
  else
    one.r = 1;
  for (int k = 0; k <= Lstore->nsuper; ++k) {
    const int fsupc = L_FST_SUPC(k);
    const int istart = L_SUB_START(fsupc);
    const int nsupr = L_SUB_START(fsupc + 1) - istart;
    for (int j = fsupc; j < L_FST_SUPC(k + 1); ++j) {
      lcol.clear();
      ucol.clear();
      for (int i = U_NZ_START(j); i < U_NZ_START(j + 1); ++i)
        if (!slu<T>::zero(Uval[i])) ucol.emplace_back(U_SUB(i), Uval[i]);
      int luptr = L_NZ_START(j);
      for (int i = 0; i < nsupr; ++i, ++luptr) {
        const int r = L_SUB(istart + i);
        if (j < r) {
          if (!slu<T>::zero(Lval[luptr])) lcol.emplace_back(r, Lval[luptr]);
        } else {
          if (!slu<T>::zero(Lval[luptr])) ucol.emplace_back(r, Lval[luptr]);
          if (j == r) lcol.emplace_back(r, one);
        }
      }
      auto by_row = [](const auto& a, const auto& b) { return a.first < b.first; };
      std::stable_sort(lcol.begin(), lcol.end(), by_row);
      std::stable_sort(ucol.begin(), ucol.end(), by_row);
      for (const auto& e : lcol) {
        out.L_rowind.push_back(e.first);
        Ld.push_back(e.second);
      }
      for (const auto& e : ucol) {
        out.U_rowind.push_back(e.first);
        Ud.push_back(e.second);
      }
      out.L_colptr[j + 1] = static_cast<int>(out.L_rowind.size());
      out.U_colptr[j + 1] = static_cast<int>(out.U_rowind.size());
    }
  }
  out.L_data.resize(Ld.size() * sizeof(V));
  out.U_data.resize(Ud.size() * sizeof(V));
  if (!Ld.empty()) std::memcpy(out.L_data.data(), Ld.data(), out.L_data.size());
  if (!Ud.empty()) std::memcpy(out.U_data.data(), Ud.data(), out.U_data.size());
  out.nnz_store = static_cast<std::int64_t>(Lstore->nnz) + static_cast<std::int64_t>(Ustore->nnz);
}

template <class T>
host_lu factor_typed(std::int64_t n64, const std::vector<int>& colptr, const std::vector<int>& rowind,
                     const std::vector<unsigned char>& values, const factor_options& o) {
  using V = typename slu<T>::value;
  host_lu out;
  const int n = static_cast<int>(n64);
  out.n = n64;
  const int nnz = static_cast<int>(rowind.size());
  // SuperLU takes non-const arrays (it never writes A's); private copies keep the caller's intact.
  std::vector<int> cp(colptr), ri(rowind);
  std::vector<V> vals(static_cast<std::size_t>(nnz));
  if (nnz > 0) std::memcpy(static_cast<void*>(vals.data()), values.data(), vals.size() * sizeof(V));
  // SuperLU allocates at least one element per array; keep the pointers valid for n == 0 too.
  if (ri.empty()) ri.push_back(0);
  if (vals.empty()) vals.emplace_back();

  superlu_options_t options;
  if (o.ilu)
    ilu_set_default_options(&options);
  else
    set_default_options(&options);
  options.ColPerm = to_superlu(o.ColPerm);
  options.DiagPivotThresh = o.DiagPivotThresh;
  options.SymmetricMode = o.SymmetricMode ? YES : NO;
  options.PrintStat = NO;
  if (o.ilu) {
    options.ILU_DropRule = o.ILU_DropRule;
    options.ILU_DropTol = o.ILU_DropTol;
    options.ILU_FillFactor = o.ILU_FillFactor;
    options.ILU_FillTol = o.ILU_FillTol;
    options.ILU_Norm = static_cast<norm_t>(o.ILU_Norm);
    options.ILU_MILU = static_cast<milu_t>(o.ILU_MILU);
  }

  std::lock_guard<std::mutex> lock(superlu_mutex);
  SuperMatrix A{}, AC{}, L{}, U{};
  slu<T>::create(&A, n, nnz, vals.data(), ri.data(), cp.data());
  out.perm_c.assign(std::max(n, 1), 0);
  out.perm_r.assign(std::max(n, 1), 0);
  std::vector<int> etree(std::max(n, 1), 0);
  SuperLUStat_t stat;
  StatInit(&stat);
  get_perm_c(static_cast<int>(options.ColPerm), &A, out.perm_c.data());
  sp_preorder(&options, &A, out.perm_c.data(), etree.data(), &AC);
  GlobalLU_t glu;
  int info = 0;
  // SciPy: panel_size = sp_ienv(1), relax = sp_ienv(2) unless given.
  const int relax = o.Relax < 0 ? sp_ienv(2) : o.Relax;
  const int panel = o.PanelSize < 0 ? sp_ienv(1) : o.PanelSize;
  factor_call<T> call{&options, &AC, relax, panel, etree.data(), out.perm_c.data(), out.perm_r.data(),
                      &L, &U, &glu, &stat, &info, o.ilu};
  const bool ok = guarded<T>(&run_factor<T>, &call);
  if (!ok) {
    // SuperLU's memory of this call is lost (its allocations are not tracked), as little as the
    // factors of the columns done so far.
    out.abort_message = abort_text;
    out.info = -1;
  } else {
    out.info = info;
    if (info == 0) extract<T>(&L, &U, out);
    if (info == 0 || (info > 0 && info <= n)) {
      // On a singular matrix gstrf has built both factors up to the failing column; free them.
      if (L.Store != nullptr) Destroy_SuperNode_Matrix(&L);
      if (U.Store != nullptr) Destroy_CompCol_Matrix(&U);
    }
  }
  Destroy_CompCol_Permuted(&AC);
  Destroy_SuperMatrix_Store(&A);
  StatFree(&stat);
  out.perm_c.resize(n);
  out.perm_r.resize(n);
  return out;
}

}  // namespace

host_lu superlu_factor(cusci::dtype dt, std::int64_t n, const std::vector<int>& colptr,
                       const std::vector<int>& rowind, const std::vector<unsigned char>& values,
                       const factor_options& o) {
  switch (dt) {
    case cusci::dtype::float32: return factor_typed<float>(n, colptr, rowind, values, o);
    case cusci::dtype::float64: return factor_typed<double>(n, colptr, rowind, values, o);
    case cusci::dtype::complex64: return factor_typed<std::complex<float>>(n, colptr, rowind, values, o);
    case cusci::dtype::complex128: return factor_typed<std::complex<double>>(n, colptr, rowind, values, o);
    default:
      throw cusci::type_error("cusci::sparse::linalg::detail::superlu_factor: dt must be float32, float64, complex64 "
                              "or complex128 (the dtypes SuperLU factors), got " +
                              std::string(cusci::dtype_name(dt)));
  }
}

}  // namespace cusci::sparse::linalg::detail

#else  // no SuperLU

namespace cusci::sparse::linalg::detail {

host_lu superlu_factor(cusci::dtype, std::int64_t, const std::vector<int>&, const std::vector<int>&,
                       const std::vector<unsigned char>&, const factor_options&) {
  throw cusci::not_implemented_error(
      "cusci::sparse::linalg: cusci was built without SuperLU (libsuperlu); spsolve, splu, spilu, factorized "
      "and inv need it (install libsuperlu-dev and reconfigure, or set CUSCI_SUPERLU_INCLUDE_DIR and "
      "CUSCI_SUPERLU_LIBRARY)");
}

}  // namespace cusci::sparse::linalg::detail

#endif
