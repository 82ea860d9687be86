#pragma once
/// @file qr.hpp
/// The QR family of `cusci::linalg` (`scipy.linalg`): `qr`, `rq`, `qr_multiply`, `qr_update`, `qr_delete`
/// and `qr_insert`, batched over leading dimensions as SciPy 1.18 batches them.
///
/// Where the work runs (qr, rq, qr_multiply; the update functions: see their comments): the inputs are
/// gathered by a GPU kernel into column-major pool buffers (any
/// layout; the finiteness check is fused into that read). A single matrix without pivoting is factored by
/// cuSOLVER (`Xgeqrf`, then `?orgqr`/`?ungqr` for Q and `?ormqr`/`?unmqr` for products with Q). Batches of
/// matrices, and every pivoted factorization, run on cusci's own Householder kernels: one launch per
/// reflector for a whole batch (no host loop over matrices): a kernel forms the reflector of column k of
/// every matrix (LAPACK `?larfg`'s convention, with `?geqp3`'s pivot choice when pivoting), the next applies
/// it to the trailing columns (one thread block per column and matrix) and downdates the column norms as
/// LAPACK's `?laqp2`/`?laqps` do, recomputing a norm when the downdate cancels. The host only checks
/// arguments, enqueues the work and reads the finiteness flag back.
///
/// dtypes (SciPy's `_normalize_lapack_dtype`): float32, float64, complex64 and complex128 are kept; bool,
/// int8, uint8, int16, uint16 and float16 compute in float32; the other integers in float64.
///
/// Layout of the results: R and the products of `qr_multiply` are new C-contiguous arrays. Q (and the
/// packed factors of mode `raw`) are views over the column-major buffer the factorization ran in: each
/// matrix is Fortran-contiguous (strides (itemsize, M * itemsize) in the last two axes, batch axes
/// outermost), so that no transposing copy is added after cuSOLVER. SciPy returns Q C-contiguous (and the
/// raw factors Fortran-contiguous); the values are the same.

#include <cstdint>
#include <optional>
#include <string_view>

#include "cusci/linalg/lin_alg_error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// SciPy's `mode` strings of `qr`: "full" (also "qr"), "r", "economic", "raw".
enum class qr_mode { full, r, economic, raw };
/// Parses SciPy's `mode` string of `qr`.
/// @throws cusci::value_error "Mode argument should be one of ['full', 'qr', 'r', 'raw', 'economic']".
qr_mode parse_qr_mode(std::string_view mode);

/// Keyword arguments of `qr`, with SciPy's names, order and defaults.
struct qr_options {
  /// Accepted for SciPy compatibility and ignored: cusci never writes to `a`.
  bool overwrite_a = false;
  /// Deprecated in SciPy 1.18 and unused. Not given (nullopt, SciPy's default): nothing happens. Given:
  /// a value other than -1 (SciPy's None is -1 here) that is <= M raises value_error, any other value
  /// issues SciPy's DeprecationWarning through `cusci::warn`.
  std::optional<std::int64_t> lwork = {};
  qr_mode mode = qr_mode::full;
  /// Column pivoting (LAPACK `?geqp3`): `a[:, p] = Q @ R` with |diag(R)| non-increasing.
  bool pivoting = false;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
};

/// What `qr` returns; the members SciPy's tuple does not have in the chosen mode are empty (nullopt).
/// SciPy's tuples: full/economic `(Q, R)`, `r` `(R,)`, raw `((qr, tau), R)`, each followed by `P` with
/// pivoting.
struct qr_result {
  /// full: Q [..., M, M]; economic: Q [..., M, K]; raw: the packed factors qr [..., M, N] (R in the
  /// upper triangle, the Householder vectors below it, as LAPACK's `?geqrf`/`?geqp3`); r: nullopt.
  std::optional<ndarray> q;
  /// raw only: the reflectors' scalars tau [..., K].
  std::optional<ndarray> tau;
  /// full and r: R [..., M, N]; economic and raw: R [..., K, N]. Upper trapezoidal.
  ndarray r;
  /// pivoting only: P [..., N] int32 (0-based column indices, `a[..., :, P] = Q @ R`).
  std::optional<ndarray> p;
};

/// QR decomposition `a = Q @ R` (with pivoting `a[:, P] = Q @ R`) of one matrix or a batch; K = min(M, N).
///
/// @param a [..., M, N] (ndim >= 2), any dtype (computed in the LAPACK type above), any layout;
///          rectangular matrices allowed.
/// @return see qr_result; dtype of Q, R, qr and tau: the LAPACK type of `a`. An empty `a` gives SciPy's
///         empty results: Q the identity (full mode) or empty, R empty (uninitialised where SciPy's is),
///         tau zeros, and P = arange(N) of shape (N,) (not batched, as SciPy).
///
/// Algorithm: Householder QR. One matrix without pivoting: cuSOLVER `Xgeqrf` in place on the gathered
/// column-major copy (for mode full with M > N the buffer has M columns so that `?orgqr`/`?ungqr` forms
/// the M x M Q in place), R copied out, Q formed in place. Batches and pivoting: cusci's kernels (file
/// comment): unblocked Householder QR (LAPACK `?geqr2`; with pivoting `?geqp3`'s choice, the column of
/// largest remaining norm, ties to the first, with `?laqp2`'s norm downdating and recomputation when
/// `1 - (|r_kj| / norm_j)^2 * (norm_j / norm0_j)^2 <= sqrt(eps)`), then Q by backward accumulation
/// (`?org2r`). Reflectors follow `?larfg` (beta = -sign(Re alpha) * ||x||; no rescaling of tiny norms,
/// see the deviations).
///
/// Stream: enqueued on the current stream; with `check_finite` **synchronizes** once to read the
/// finiteness flag (after the factorization is enqueued), else does not synchronize.
///
/// @throws cusci::value_error for ndim < 2, an `lwork` <= M ("lwork should be None, -1 or > M, got
///         ..."), or (with `check_finite`) inf/NaN in `a` ("array must not contain infs or NaNs").
///
/// SciPy: `scipy.linalg.qr` (1.18). Deviations: `overwrite_a` is ignored; Q and raw's qr are
/// Fortran-ordered views (file comment); the signs of R's rows (and Q's columns) may differ from
/// LAPACK's where cuSOLVER chooses them differently (QR is unique up to them); with pivoting, ties
/// between equal remaining norms may be broken in a different order than LAPACK's blocked `?laqps`
/// after rounding; reflectors of columns whose norm is below the smallest normal number are not
/// rescaled as `?larfg` does (they lose relative accuracy); no DeprecationWarning for bool/float16.
qr_result qr(const ndarray& a, const qr_options& opts = {});

/// SciPy's `mode` strings of `rq`: "full", "r", "economic".
enum class rq_mode { full, r, economic };
/// Parses SciPy's `mode` string of `rq`.
/// @throws cusci::value_error "Mode argument should be one of ['full', 'r', 'economic']".
rq_mode parse_rq_mode(std::string_view mode);

/// Keyword arguments of `rq`, with SciPy's names, order and defaults.
struct rq_options {
  /// Accepted for SciPy compatibility and ignored.
  bool overwrite_a = false;
  /// LAPACK workspace size; unused, but checked as LAPACK checks it: a value other than -1 below
  /// max(1, M) (or, unless mode is r, below the row count of `?orgrq`'s matrix: N, or M for economic
  /// with M <= N) raises value_error. nullopt: SciPy's None.
  std::optional<std::int64_t> lwork = {};
  rq_mode mode = rq_mode::full;
  /// Check that `a` holds only finite numbers.
  bool check_finite = true;
};

/// What `rq` returns: (R, Q), or R alone for mode r (q is then nullopt).
struct rq_result {
  /// full and r: [..., M, N]; economic: [..., M, K]. Upper trapezoidal in LAPACK `?gerqf`'s sense
  /// (`np.triu(R, N - M)` for full).
  ndarray r;
  /// full: [..., N, N]; economic: [..., K, N]; orthonormal rows.
  std::optional<ndarray> q;
};

/// RQ decomposition `a = R @ Q` of one matrix or a batch; K = min(M, N).
///
/// @param a [..., M, N] (ndim >= 2), any dtype (LAPACK type as in the file comment), any layout.
/// @return see rq_result; both of the LAPACK type of `a`, C-contiguous. Empty inputs: R empty, Q the
///         identity (full) or empty, of a's own dtype (SciPy does not normalise it in that case).
///
/// Algorithm: the QR path of `qr` (cuSOLVER for one matrix, cusci's Householder kernels for batches) on
/// B = J_N a^H J_M (J: the exchange matrix; gathered by the same kernel that reads `a`), then
/// R = J_M R_B^H J and Q = J Q_B^H J_N, written by one kernel each: the RQ factorization of `a` up to
/// the signs of R's columns / Q's rows, which are not unique.
///
/// Stream: as `qr` (synchronizes once with `check_finite`).
///
/// @throws cusci::value_error for ndim < 2 ("expected matrix"), a batch of zero matrices ("`rq` does not
///         support zero-size batches"), a too small `lwork`, or (with `check_finite`) inf/NaN in `a`.
///
/// SciPy: `scipy.linalg.rq` (1.18). Deviations: `overwrite_a` is ignored; the signs of R's columns and
/// Q's rows may differ from LAPACK `?gerqf`'s; no rescaling of tiny reflectors (see `qr`).
rq_result rq(const ndarray& a, const rq_options& opts = {});

/// SciPy's `mode` strings of `qr_multiply`: "left" (Q @ c), "right" (c @ Q).
enum class qr_multiply_mode { left, right };
/// Parses SciPy's `mode` string of `qr_multiply`.
/// @throws cusci::value_error "Mode argument can only be 'left' or 'right' but not '<s>'".
qr_multiply_mode parse_qr_multiply_mode(std::string_view mode);

/// Keyword arguments of `qr_multiply`, with SciPy's names, order and defaults.
struct qr_multiply_options {
  qr_multiply_mode mode = qr_multiply_mode::right;
  /// Column pivoting as in `qr`; P is returned.
  bool pivoting = false;
  /// Use conj(Q) instead of Q.
  bool conjugate = false;
  /// Accepted and ignored, cusci never writes to `a`.
  bool overwrite_a = false;
  /// Ignored as a permission to write to `c`, but, as in SciPy, it changes the accepted shape of `c` in
  /// mode left when M > N: c then has M rows and the result is the full Q (M x M) times c.
  bool overwrite_c = false;
};

/// What `qr_multiply` returns: SciPy's (CQ, R) or (CQ, R, P).
struct qr_multiply_result {
  /// left: Q @ c [..., M, P] (or [..., M] for a 1-d c); right: c @ Q[:, :K] [..., P, K] (or [..., K]).
  /// With `conjugate`, conj(Q) replaces Q. C-contiguous, dtype: the common LAPACK type of a and c.
  ndarray cq;
  /// R [..., K, N] (mode raw's R of `qr`).
  ndarray r;
  /// pivoting only: P [..., N] int32.
  std::optional<ndarray> p;
};

/// Products with the Q of the QR decomposition of `a`, without forming Q.
///
/// @param a [..., M, N] (a 1-d or 0-d array is taken as one row, NumPy's atleast_2d), any dtype.
/// @param c mode left: [..., K, P] or [K] (with `overwrite_c` and M > N: M rows); mode right:
///          [..., P, M] or [M]. Batch dimensions of a and c broadcast (SciPy's `_apply_over_batch`: a
///          batched over a.shape[:-2], c over c.shape[:-2] when c.ndim >= 2).
/// @return see qr_multiply_result. An empty c gives an empty CQ of c's 2-d shape, as SciPy.
///
/// Algorithm: the factorization of `qr` (mode raw), then Q applied from the left to the column-major
/// gathered c (mode left, c padded with zero rows to M) or to c^T / c^H (mode right: c @ Q = (Q^H c^H)^H):
/// cuSOLVER `?ormqr`/`?unmqr` for one matrix, one kernel launch per reflector for batches. conj(Q) is
/// handled by conjugating on the way in and out.
///
/// Stream: **synchronizes** once to read the finiteness flags (SciPy always checks both a and c).
///
/// @throws cusci::value_error for incompatible shapes ("Array shapes are not compatible for Q @ c
///         operation: (M, N) vs (R, P)" / "... c @ Q ..."), batch dimensions that do not broadcast, a batch
///         of zero matrices, K = 0 with a non-empty c (SciPy's ormqr wrapper rejects it), or inf/NaN in a
///         or c.
///
/// SciPy: `scipy.linalg.qr_multiply` (1.18). Deviations: `overwrite_a`/`overwrite_c` never let cusci write
/// to the inputs (overwrite_c still selects the shape rule above); R's signs as in `qr`.
qr_multiply_result qr_multiply(const ndarray& a, const ndarray& c, const qr_multiply_options& opts = {});

/// Keyword arguments of `qr_update`, with SciPy's names and defaults.
struct qr_update_options {
  /// Accepted for SciPy compatibility and ignored: cusci never writes to the inputs.
  bool overwrite_qruv = false;
  /// Check that Q, R, u and v hold only finite numbers.
  bool check_finite = true;
};

/// The updated factors (Q1, R1), shaped as Q and R.
struct qr_update_result {
  ndarray q;
  ndarray r;
};

/// Rank-k QR update: from A = Q R, the QR factorization of A + u v^T (real) or A + u v^H (complex).
///
/// @param q [..., M, M] (full: r is [..., M, N]) or [..., M, N] (economic: r is [..., N, N]).
/// @param r the matching upper triangular factor.
/// @param u [M] or [..., M, k]; @param v [N] or [..., N, k] (both 1-d: rank 1). Batch dimensions of q, r and
///          of u and v when 2-d or more broadcast (SciPy's `_apply_over_batch`).
/// @return q1, r1 of q's and r's shapes (batch-broadcast), C-contiguous, the dtype of the inputs. The
///         diagonal of r1 is not made real or positive (as SciPy).
///
/// Algorithm: one thread block a matrix (no host loop over the batch) applies the k rank-1 updates in turn
/// with Givens rotations (Golub & Van Loan, "Matrix Computations", 12.5.1): w = Q^H u reduced to a multiple
/// of e_1 from the bottom (R becomes upper Hessenberg), the rank-1 term added to R's first row, R made upper
/// triangular again; every rotation also applied to Q. Economic factors get the extra column r / ||r||,
/// r = u - Q Q^H u reorthogonalised once (Daniel, Gragg, Kaufman & Stewart 1976), dropped at the end.
/// The rotations of one matrix run in sequence (each one parallel over a row of R and a column of Q):
/// suited to many small or medium matrices, not tuned for one large matrix.
///
/// Stream: with `check_finite` **synchronizes** once to read the finiteness flag, else does not.
///
/// @throws cusci::value_error with SciPy's messages: "Q and R must be 2-D", "Q and R must have the same
///         dtype", "Only arrays with dtypes float32, float64, complex64, and complex128 are supported.", "u and v
///         must have the same type as Q and R", "u must be either 1- or 2-D.", "u and v must have the same
///         number of dimensions", incompatible shapes of Q and R, "u.shape[0] must equal Q.shape[0]",
///         "v.shape[0] must equal R.shape[1]", "Second dimension of u and v must be the same", "Update rank
///         larger than np.dot(Q, R)." (k > min(M, N)), batch dimensions that do not broadcast, a zero-size
///         batch, and (with `check_finite`) inf/NaN.
///
/// SciPy: `scipy.linalg.qr_update` (1.18). Deviations: a rank-k update is applied as k rank-1 updates
/// (SciPy's full-Q rank-k path uses a blocked algorithm; the factors agree up to the signs of R's rows);
/// the economic reorthogonalisation is one fixed classical Gram-Schmidt pass (SciPy's iterates; when u lies
/// in the range of Q the extra column is zero and the update exact); `overwrite_qruv` is ignored;
/// k = 0 returns copies (SciPy's BLAS prints an error message and returns).
qr_update_result qr_update(const ndarray& q, const ndarray& r, const ndarray& u, const ndarray& v,
                           const qr_update_options& opts = {});

/// SciPy's `which` strings of `qr_delete` and `qr_insert`: "row", "col".
enum class qr_which { row, col };
/// Parses SciPy's `which` string of `qr_delete` / `qr_insert`.
/// @throws cusci::value_error "'which' must be either 'row' or 'col'".
qr_which parse_qr_which(std::string_view which);

/// Keyword arguments of `qr_delete` after `k`, with SciPy's names, order and defaults.
struct qr_delete_options {
  /// Number of rows or columns to delete.
  std::int64_t p = 1;
  qr_which which = qr_which::row;
  /// Accepted for SciPy compatibility and ignored: cusci never writes to the inputs.
  bool overwrite_qr = false;
  /// Check that Q and R hold only finite numbers.
  bool check_finite = true;
};

/// QR downdate: from A = Q R, the QR factorization of A with the rows (or columns) [k, k + p) removed.
///
/// @param q [..., M, M] (full, r [..., M, N]) or [..., M, N] (economic, r [..., N, N]); batch dimensions of
///          q and r broadcast. Same dtype, one of float32, float64, complex64, complex128 (no promotion).
/// @param k first row (column) to delete; negative values count from the end (-M <= k < M for rows,
///          -N <= k < N for columns).
/// @return (Q1, R1), C-contiguous. Rows, full: [..., M-p, M-p], [..., M-p, N]; rows, economic: [..., M-p, N],
///         [..., N, N] while M - p >= N, else the full shapes; columns, full: [..., M, M], [..., M, N-p];
///         columns, economic: [..., M, N-p], [..., N-p, N-p] (SciPy's shapes).
///
/// Algorithm: one thread block a matrix (the batch in one launch). Columns: R's remaining columns shifted
/// left, the p subdiagonals that appear rotated away by Givens rotations, each applied to Q's columns. Rows
/// (Golub & Van Loan, "Matrix Computations", 12.5.3), one row at a time: row k of Q reduced to a multiple
/// of e_1 by rotations of adjacent columns (R turns upper Hessenberg), then Q's row k and first column and
/// R's first row dropped. Economic factors are first extended by the unit vector x with
/// e_k = Q Q^H e_k + nu x (one reorthogonalisation), as in Daniel, Gragg, Kaufman & Stewart (1976).
///
/// Stream: with `check_finite` **synchronizes** once to read the finiteness flag, else does not.
///
/// @throws cusci::value_error with SciPy's messages: "Q and R must be 2-D", the dtype messages of
///         `qr_update`, incompatible shapes of Q and R, "'which' must be either 'row' or 'col'" (parser),
///         "'k' is out of bounds", "'p' is out of range" (p < 1 or k + p past the end), batch dimensions
///         that do not broadcast, a zero-size batch, and (with `check_finite`) inf/NaN.
///
/// SciPy: `scipy.linalg.qr_delete` (1.18). Deviations: `overwrite_qr` is ignored; rows are deleted one at
/// a time (SciPy's full-Q path deletes p rows at once); the signs of R1's rows may differ.
qr_update_result qr_delete(const ndarray& q, const ndarray& r, std::int64_t k, const qr_delete_options& opts = {});

/// Keyword arguments of `qr_insert` after `k`, with SciPy's names, order and defaults.
struct qr_insert_options {
  qr_which which = qr_which::row;
  /// Economic column insertion only: lower bound on the estimated reciprocal condition number of Q
  /// augmented with u / ||u||; nullopt (SciPy's None): the machine epsilon of the dtype. Must be nullopt for
  /// row insertion and for full factors (SciPy's rule).
  std::optional<double> rcond = {};
  /// Accepted for SciPy compatibility and ignored: cusci never writes to the inputs.
  bool overwrite_qru = false;
  /// Check that Q, R and u hold only finite numbers.
  bool check_finite = true;
};

/// QR update on row or column insertions: from A = Q R, the QR factorization of A with the rows (columns)
/// of `u` inserted before row (column) k.
///
/// @param q [..., M, M] (full, r [..., M, N]) or [..., M, N] (economic, r [..., N, N]); same dtype rule as
///          `qr_update` (u must have it too).
/// @param u rows: [N] or [..., p, N]; columns: [M] or [..., M, p]. Batch dimensions of q, r and u (when
///          2-d or more) broadcast.
/// @param k -M <= k <= M for rows, -N <= k <= N for columns; negative values count from the end.
/// @return (Q1, R1), C-contiguous. Rows, full: [..., M+p, M+p], [..., M+p, N]; rows, economic:
///         [..., M+p, N], [..., N, N]; columns, full: [..., M, M], [..., M, N+p]; columns, economic:
///         [..., M, N+p], [..., N+p, N+p] while N + p <= M, else the full shapes (SciPy's).
///
/// Algorithm: one thread block a matrix (the batch in one launch), one row or column at a time with Givens
/// rotations (Golub & Van Loan, "Matrix Computations", 12.5.2 and 12.5.3). Row: Q extended by e_k, R by
/// the row on top (upper Hessenberg), made triangular again. Column: w = Q^H u inserted into R, its entries
/// below row k rotated away from the bottom; economic factors first get the column r / ||r||,
/// r = u - Q Q^H u reorthogonalised once, with ||r|| under R's new column. Every rotation is applied to Q.
///
/// Stream: **synchronizes** once to read the finiteness flag (with `check_finite`) and, for economic
/// column insertion, the condition estimates; otherwise does not synchronize.
///
/// @throws cusci::value_error with SciPy's messages: the checks of `qr_update` on Q and R, "'u' must have
///         the same type as 'Q' and 'R'", "'u' should be either (N,) or (p,N) when inserting rows. Found
///         ..." / "(M,) or (M,p) when inserting columns", "'k' is out of bounds", "'rcond' is unused when
///         inserting rows and must be None", "'rcond' is not used when updating full, (M,M) (M,N)
///         decompositions and must be None.", p = 0 (SciPy fails too), batch errors, inf/NaN.
/// @throws cusci::linalg::lin_alg_error "One of the columns of u lies in the span of Q. Found reciprocal
///         condition number of ... for Q augmented with u/||u||." when an economic column insertion has
///         ||r|| / ||u|| < rcond.
///
/// SciPy: `scipy.linalg.qr_insert` (1.18). Deviations: the condition number is estimated as ||r|| / ||u||
/// (SciPy estimates it with LAPACK's condition estimator; both are tiny when u is in the span of Q, the
/// values differ otherwise); several rows or columns are inserted one at a time; `overwrite_qru` is
/// ignored; the signs of R1's rows may differ.
qr_update_result qr_insert(const ndarray& q, const ndarray& r, const ndarray& u, std::int64_t k,
                           const qr_insert_options& opts = {});

}  // namespace cusci::linalg
