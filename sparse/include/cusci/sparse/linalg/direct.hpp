#pragma once
/// @file linalg/direct.hpp
/// The direct solvers of `scipy.sparse.linalg`: `spsolve`, `splu`, `spilu` (a `SuperLU` object),
/// `factorized`, `spsolve_triangular`, `is_sptriangular`, `spbandwidth`, `use_solver`, `inv`, `expm`.
///
/// How: the LU factorization is SuperLU's (the same library SciPy bundles, called with SciPy's options:
/// column ordering COLAMD, partial pivoting threshold 1.0 for LU, SuperLU's ILU defaults for spilu),
/// computed on the host from the matrix's arrays (copied from the device once); the factors L and U
/// are then moved to the device once per factorization and every solve runs there: the row and column
/// permutations as gather/scatter kernels and the two triangular solves with cuSPARSE's SpSV (one
/// right-hand side) or SpSM (several, solved together). `spsolve_triangular` is a cuSPARSE solve of
/// the given triangle.
///
/// SuperLU is an optional dependency found at configure time (cmake/cusci_superlu.cmake). Without it
/// `spsolve`, `splu`, `spilu`, `factorized` and `inv` throw cusci::not_implemented_error naming the
/// missing library ("cusci was built without SuperLU (libsuperlu)"); `has_superlu()` tells. The
/// triangular solve and the structure queries never need it.
///
/// Dtypes: SciPy's: the matrix is brought to a floating dtype first (`A._asfptype()`: the promotion
/// of its dtype with float32: bool, int8/16, uint8/16 and float32 give float32; other integers and
/// float64 give float64; complex stays complex), then promoted with the right-hand side's dtype.
/// float32, float64, complex64 and complex128 factorizations are SuperLU's s/d/c/zgstrf.
///
/// Warnings (cusci::warn, SciPy's categories and messages): "MatrixRankWarning" "Matrix is exactly
/// singular" (spsolve of a singular matrix: the result is nan), "SparseEfficiencyWarning" when a
/// function converts its input to CSC/CSR as SciPy does.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::linalg {

/// Whether cusci was built with SuperLU (spsolve, splu, spilu, factorized, inv work). Host only.
bool has_superlu() noexcept;

/// SuperLU's column orderings (SciPy's `permc_spec` strings).
enum class colperm {
  natural,        ///< "NATURAL": no column permutation
  mmd_ata,        ///< "MMD_ATA": minimum degree on A^T A
  mmd_at_plus_a,  ///< "MMD_AT_PLUS_A": minimum degree on A^T + A
  colamd          ///< "COLAMD": approximate minimum degree column ordering (the default)
};

/// Parses SciPy's `permc_spec` / options['ColPerm'] strings: "NATURAL", "MMD_ATA", "MMD_AT_PLUS_A",
/// "COLAMD", case-insensitive, '_' and spaces ignored, as SciPy's parser. Host only.
/// @throws cusci::value_error "invalid value for 'ColPerm' parameter" (SciPy's words) for any other.
colperm colperm_from_string(std::string_view s);

/// Parses SciPy's `drop_rule` / options['ILU_DropRule']: a comma-separated list of "basic", "prows",
/// "column", "area", "secondary", "dynamic", "interp" (case-insensitive), as SuperLU's bit mask
/// (DROP_BASIC = 1, DROP_PROWS = 2, DROP_COLUMN = 4, DROP_AREA = 8, DROP_SECONDARY = 14,
/// DROP_DYNAMIC = 16, DROP_INTERP = 256). Host only.
/// @throws cusci::value_error "invalid value for 'ILU_DropRule' parameter" for an unknown name or an
///         empty list.
int drop_rule_from_string(std::string_view s);

/// SciPy's `options` dict of splu/spilu: the keys of SuperLU's superlu_options_t that the
/// factorization reads (SciPy's names, as in the dict). Unset keys keep SuperLU's defaults (LU:
/// set_default_options; ILU: ilu_set_default_options). Keys set here override the keyword arguments
/// of splu_options / spilu_options, as SciPy's `_options.update(options)`.
struct superlu_options {
  /// Column ordering ("NATURAL", "MMD_ATA", "MMD_AT_PLUS_A", "COLAMD").
  std::optional<std::string> ColPerm{};
  /// Partial pivoting threshold in [0, 1] (LU default 1.0, ILU default 0.1).
  std::optional<double> DiagPivotThresh{};
  /// Prefer diagonal pivots (set by splu/spilu when ColPerm is NATURAL, as SciPy).
  std::optional<bool> SymmetricMode{};
  /// Supernode relaxation and panel size (SuperLU's sp_ienv(2) = 10 and sp_ienv(1) = 20 by default).
  std::optional<int> Relax{};
  std::optional<int> PanelSize{};
  /// ILU only: drop rule (as drop_rule_from_string), drop tolerance (1e-4), fill factor (10),
  /// fill tolerance (1e-2), norm ("ONE_NORM", "TWO_NORM", "INF_NORM"; default INF_NORM) and modified
  /// ILU ("SILU", "SMILU_1", "SMILU_2", "SMILU_3"; default SILU).
  std::optional<std::string> ILU_DropRule{};
  std::optional<double> ILU_DropTol{};
  std::optional<double> ILU_FillFactor{};
  std::optional<double> ILU_FillTol{};
  std::optional<std::string> ILU_Norm{};
  std::optional<std::string> ILU_MILU{};
};

/// Keyword arguments of `splu`, SciPy's names, order and defaults (none: SuperLU's default).
struct splu_options {
  std::optional<std::string> permc_spec{};
  std::optional<double> diag_pivot_thresh{};
  std::optional<int> relax{};
  std::optional<int> panel_size{};
  superlu_options options{};
};

/// Keyword arguments of `spilu`, SciPy's names, order and defaults (none: SuperLU's ILU default).
struct spilu_options {
  std::optional<double> drop_tol{};
  std::optional<double> fill_factor{};
  std::optional<std::string> drop_rule{};
  std::optional<std::string> permc_spec{};
  std::optional<double> diag_pivot_thresh{};
  std::optional<int> relax{};
  std::optional<int> panel_size{};
  superlu_options options{};
};

/// An LU factorization Pr A Pc = L U of a square sparse matrix (SciPy's `SuperLU` object), with the
/// factors on the device. Copies share the factorization. Made by `splu` and `spilu`.
///
/// Pr = csc_matrix((ones(n), (perm_r, arange(n)))) and Pc = csc_matrix((ones(n), (arange(n),
/// perm_c))), as SciPy documents.
class SuperLU {
 public:
  struct impl;
  explicit SuperLU(std::shared_ptr<impl> p) : p_(std::move(p)) {}

  /// (n, n).
  shape2 shape() const noexcept;
  /// SuperLU's count of stored factor entries (its supernodal L storage plus U's), as SciPy's `nnz`.
  std::int64_t nnz() const noexcept;
  /// The factors' dtype (float32, float64, complex64 or complex128).
  cusci::dtype dtype() const noexcept;
  /// [n] int32 row permutation (SciPy's `perm_r`), on the device. No device work.
  const ndarray& perm_r() const noexcept;
  /// [n] int32 column permutation (SciPy's `perm_c`), on the device. No device work.
  const ndarray& perm_c() const noexcept;
  /// The unit lower triangular factor as a csc_matrix [n, n] (explicit unit diagonal, exact zeros
  /// left out, as SciPy's `L`), int32 indices. Deviation: row indices sorted within each column
  /// (SciPy keeps SuperLU's order). No device work (the matrix is held).
  const csc_matrix& L() const noexcept;
  /// The upper triangular factor as a csc_matrix [n, n] (as `L`). SciPy: `U`.
  const csc_matrix& U() const noexcept;

  /// Solves A x = rhs ('N'), A^T x = rhs ('T') or A^H x = rhs ('H'; 'T' for real factors), each
  /// column of rhs at once.
  /// @param rhs [n] or [n, k], any dtype that NumPy casts safely to dtype() (else type_error).
  /// @returns x of rhs's shape, dtype(). Asynchronous (the triangular solves of several columns run
  ///          together through cuSPARSE SpSM; one column through SpSV, whose analysis is cached per
  ///          trans in this object).
  /// @throws cusci::value_error "b is of incompatible size" for another first dimension or ndim
  ///         not 1/2; "trans must be N, T, or H"; cusci::type_error "Cannot cast array data from
  ///         dtype('complex128') to dtype('float64') according to the rule 'safe'".
  /// SciPy: `SuperLU.solve(rhs, trans='N')`.
  ndarray solve(const ndarray& rhs, char trans = 'N') const;

  const std::shared_ptr<impl>& state() const noexcept { return p_; }

 private:
  std::shared_ptr<impl> p_;
};

/// Solves A x = b for a dense b, as SciPy (SuperLU's gssv: a CSC matrix is factored as given, a CSR
/// matrix as its transpose, solved with trans 'T'; any other format is converted to CSC with a
/// SparseEfficiencyWarning "spsolve requires A be CSC or CSR matrix format").
/// @param A [n, n] any format and value dtype (duplicates summed; int32 or int64 indices with at most
///        2^31 - 1 entries). @param b [n], [n, 1] or [n, k].
/// @param permc_spec column ordering (as colperm_from_string); none: "COLAMD".
/// @param use_umfpack accepted and ignored (cusci has no UMFPACK; SciPy without scikit-umfpack).
/// @returns x [n] for b [n] or [n, 1] (SciPy ravels), else [n, k]; dtype promote_types(fp(A),
///          b.dtype). A singular matrix (SuperLU's info > 0, or a structurally singular pattern: no perfect
///          matching of rows and columns, checked on the host before SuperLU) gives a MatrixRankWarning "Matrix is exactly singular" and x full of nan.
/// Synchronizes (the matrix is copied to the host for SuperLU); the solves are asynchronous.
/// @throws cusci::value_error "matrix must be square (has shape (2, 3))", "matrix - rhs dimension
///         mismatch ((3, 3) - 2)", b with ndim other than 1 or 2, too many entries, a bad permc_spec;
///         cusci::not_implemented_error without SuperLU. All before any device work.
/// SciPy: `scipy.sparse.linalg.spsolve(A, b, permc_spec=None, use_umfpack=True)`.
/// Reference: Demmel, Eisenstat, Gilbert, Li, Liu, "A supernodal approach to sparse partial
/// pivoting", SIAM J. Matrix Anal. Appl. 20 (1999).
ndarray spsolve(const spmatrix& A, const ndarray& b, std::optional<std::string> permc_spec = {},
                bool use_umfpack = true);

/// Solves A X = B for a sparse B [n, k], as SciPy: one factorization (`splu(A)`, so a CSR A gives
/// SparseEfficiencyWarning "splu converted its input to CSC format") solving every column (B not CSC
/// gives SparseEfficiencyWarning "spsolve is more efficient when sparse b is in the CSC matrix
/// format"); the columns are solved together on the device in blocks of dense columns.
/// @returns the nonzeros of X, CSR when A is CSR, else CSC, dtype of the promoted A. `permc_spec`
/// is used only for a B of one column (SciPy densifies it and takes the dense path, warnings and
/// singular nan included; the sparse path factors with splu's defaults).
/// Deviation: a B of one column gives an [n, 1] sparse result (SciPy returns the dense [n] array).
/// Synchronizes. @throws as spsolve; cusci::runtime_error "Factor is exactly singular" for a
/// singular A (as SciPy's splu).
/// SciPy: `scipy.sparse.linalg.spsolve(A, B)` with sparse B.
spmatrix spsolve(const spmatrix& A, const spmatrix& b, std::optional<std::string> permc_spec = {},
                 bool use_umfpack = true);

/// LU factorization with partial pivoting of a square matrix (SuperLU's gstrf with SciPy's options:
/// NATURAL column ordering sets SymmetricMode). Input not CSC is converted, with a
/// SparseEfficiencyWarning "splu converted its input to CSC format".
/// @param A [n, n] any format and dtype. @returns the SuperLU object (dtype fp(A)).
/// Synchronizes (copies A to the host, factors there, uploads L and U).
/// @throws cusci::value_error "can only factor square matrices", bad option strings, more than
///         2^31 - 1 entries; cusci::runtime_error "Factor is exactly singular" (SuperLU's info in
///         [1, n], or a structurally singular pattern); cusci::out_of_memory when SuperLU runs out of memory;
///         cusci::not_implemented_error without SuperLU.
/// SciPy: `scipy.sparse.linalg.splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None,
/// panel_size=None, options=None)`.
SuperLU splu(const spmatrix& A, const splu_options& options = {});

/// Incomplete LU factorization (SuperLU's ILUTP, gsitrf, with SciPy's options), as splu.
/// @throws as splu; a structurally singular pattern (no perfect matching of rows and columns) gives
///         cusci::runtime_error "...: matrix is singular" (SciPy's SuperLU aborts with "[0]: matrix is
///         singular at line ... in file ilu_dpivotL.c"; the system SuperLU 5 would exit the process,
///         so cusci checks the pattern first).
/// SciPy: `scipy.sparse.linalg.spilu(A, drop_tol=None, fill_factor=None, drop_rule=None,
/// permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None)`.
SuperLU spilu(const spmatrix& A, const spilu_options& options = {});

/// A function solving A x = b with one factorization of A (`splu(A).solve`, as SciPy without
/// scikit-umfpack). The function takes b [n] or [n, k] and is asynchronous.
/// @throws as splu. SciPy: `scipy.sparse.linalg.factorized(A)`.
std::function<ndarray(const ndarray&)> factorized(const spmatrix& A);

/// Solves A x = b for a triangular A with cuSPARSE (SpSV / SpSM) over the chosen triangle (entries
/// of the other triangle are ignored). A CSR or CSC matrix is used as is; any other format is
/// converted to CSC with SparseEfficiencyWarning "CSC or CSR matrix format is required. Converting
/// to CSC matrix.". With unit_diagonal the stored diagonal is ignored (taken as 1).
/// @param A [n, n]. @param b [n] or [n, k]. @param overwrite_A, overwrite_b accepted; cusci never
///        writes the inputs.
/// @returns x of b's shape, dtype promote_types(promote_types(A.dtype, float32), b.dtype).
/// Synchronizes (reads whether the diagonal has a zero).
/// @throws cusci::value_error "A must be a square matrix but its shape is (2, 3).", "b must have 1
///         or 2 dims but its shape is (...).", "The size of the dimensions of A must be equal to the
///         size of the first dimension of b but the shape of A is (3, 3) and the shape of b is
///         (2,)."; cusci::linalg::lin_alg_error (cusci/linalg/lin_alg_error.hpp; a cusci::error)
///         "A is singular: zero entry on diagonal." without unit_diagonal.
/// SciPy: `scipy.sparse.linalg.spsolve_triangular(A, b, lower=True, overwrite_A=False,
/// overwrite_b=False, unit_diagonal=False)`. Deviation: a non-triangular A solves with its given
/// triangle only.
ndarray spsolve_triangular(const spmatrix& A, const ndarray& b, bool lower = true, bool overwrite_A = false,
                           bool overwrite_b = false, bool unit_diagonal = false);

/// Whether A's stored entries (explicit zeros included) lie on or below / on or above the diagonal:
/// {lower, upper}. DIA: by its offsets; BSR is converted to CSR with SparseEfficiencyWarning
/// "is_sptriangular needs sparse and not BSR format. Converting to CSR.". Synchronizes.
/// @throws cusci::value_error for a DIA matrix without diagonals (NumPy's empty max).
/// SciPy: `scipy.sparse.linalg.is_sptriangular(A)`.
std::pair<bool, bool> is_sptriangular(const spmatrix& A);

/// Lower and upper bandwidth {below, above} of A's stored entries (explicit zeros included): the
/// farthest diagonal holding an entry below / above the main diagonal (0: none). BSR is converted
/// to CSR with SparseEfficiencyWarning "spbandwidth needs sparse format not LIL and BSR. Converting
/// to CSR.". Synchronizes.
/// @throws cusci::value_error "zero-size array to reduction operation minimum which has no
///         identity" for a matrix without entries (as NumPy in SciPy's code).
/// SciPy: `scipy.sparse.linalg.spbandwidth(A)`.
std::pair<std::int64_t, std::int64_t> spbandwidth(const spmatrix& A);

/// SciPy's `use_solver(**kwargs)` keywords.
struct use_solver_options {
  /// Whether spsolve should use UMFPACK. Recorded; cusci has no UMFPACK and always uses SuperLU
  /// (SciPy without scikit-umfpack does the same).
  std::optional<bool> useUmfpack{};
  /// UMFPACK only; recorded and ignored.
  std::optional<bool> assumeSortedIndices{};
};
/// Sets the solver preferences (process-wide). Host only. SciPy: `scipy.sparse.linalg.use_solver`.
void use_solver(const use_solver_options& options);
/// The preferences last set (defaults: useUmfpack true, assumeSortedIndices false).
use_solver_options solver_preferences();

/// The inverse of a square sparse matrix: spsolve(A, I) with I the identity in A's format and dtype
/// (so a CSR A gives SciPy's two SparseEfficiencyWarnings). @returns CSR for a CSR A, else CSC.
/// Deviation: a 1 x 1 matrix gives a 1 x 1 sparse matrix (SciPy: a dense [1] array). Synchronizes.
/// @throws as spsolve with a sparse right-hand side. SciPy: `scipy.sparse.linalg.inv(A)`.
spmatrix inv(const spmatrix& A);

/// The matrix exponential of a square sparse matrix: SciPy 1.18's `_expm`, Al-Mohy & Higham's
/// scaling and squaring with Pade approximants of order 3, 5, 7, 9 or 13 chosen from one-norms of
/// powers of A and the backward-error correction ell(A, m); r = (V - U)^-1 (U + V) solved with
/// `spsolve` (so a CSR A gives SciPy's two SparseEfficiencyWarnings), then s squarings (an upper
/// triangular A: Code Fragment 2.1, the diagonal and first superdiagonal recomputed exactly). Every
/// product is a sparse-sparse product on the device.
/// @param A [n, n], any format and dtype (integers and bool computed in float64).
/// @returns exp(A): A's format for n <= 1, else the format of SciPy's products (CSC for a CSC A,
///          otherwise CSR), dtype fp(A). Synchronizes.
/// @throws cusci::value_error "expected a square matrix"; as spsolve (not_implemented_error without
///         SuperLU, for n >= 2).
/// SciPy: `scipy.sparse.linalg.expm(A)` for a sparse A. Deviations: the one-norms are exact for every
/// n (SciPy estimates them with onenormest for n >= 200; the estimates are lower bounds, equal in
/// most cases, so the order and s may differ rarely); Code Fragment 2.1 issues no "Changing the
/// sparsity structure" warnings; a 1 x 1 bool / small-integer matrix gives float64 (NumPy's exp
/// gives float16 / float32).
/// Reference: Al-Mohy & Higham, "A new scaling and squaring algorithm for the matrix exponential",
/// SIAM J. Matrix Anal. Appl. 31 (2009) 970-989.
spmatrix expm(const spmatrix& A);

}  // namespace cusci::sparse::linalg
