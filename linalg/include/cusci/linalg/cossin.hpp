#pragma once
/// @file cossin.hpp
/// `cusci::linalg::cossin`: the cosine-sine (CS) decomposition of an orthogonal or unitary matrix
/// (`scipy.linalg.cossin`), batched over leading dimensions. Host work (LAPACK ?orcsd / ?uncsd).

#include <cstdint>
#include <optional>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci::linalg {

/// Keyword arguments of `cossin`, with SciPy's names and defaults.
struct cossin_options {
  /// Number of rows of the upper-left block x11 (SciPy: None). With `x` as one matrix, p or q must be
  /// given (a missing one counts as 1, as SciPy); 0 < p < M and 0 < q < M.
  std::optional<std::int64_t> p;
  /// Number of columns of the upper-left block x11 (SciPy: None).
  std::optional<std::int64_t> q;
  /// Return the factors (u1, u2), theta, (v1h, v2h) instead of the assembled u, cs, vdh.
  bool separate = false;
  /// The -s block of cs lies in the lower-left instead of the upper-right block (LAPACK's SIGNS = 'O').
  bool swap_sign = false;
  /// Compute u (u1, u2); when false they are empty (0, 0) matrices, as SciPy.
  bool compute_u = true;
  /// Compute vdh (v1h, v2h); when false they are empty (0, 0) matrices.
  bool compute_vh = true;
};

/// What `cossin` returns. With `separate = false`: u, cs, vdh (the other members are empty, default
/// ndarrays); with `separate = true`: u1, u2, theta, v1h, v2h (SciPy's ((u1, u2), theta, (v1h, v2h))).
struct cossin_result {
  ndarray u;      ///< [..., M, M] block_diag(u1, u2) (or [..., 0, 0] without compute_u), x's dtype
  ndarray cs;     ///< [..., M, M] the cosine-sine factor, real dtype
  ndarray vdh;    ///< [..., M, M] block_diag(v1h, v2h) (or [..., 0, 0] without compute_vh)
  ndarray u1;     ///< [..., P, P]
  ndarray u2;     ///< [..., M - P, M - P]
  ndarray theta;  ///< [..., R], R = min(P, Q, M - P, M - Q), angles in radians, real dtype
  ndarray v1h;    ///< [..., Q, Q]
  ndarray v2h;    ///< [..., M - Q, M - Q]
};

/// CS decomposition x = u @ cs @ vdh of an orthogonal/unitary matrix partitioned after row p and column q.
///
/// @param x [..., M, M] the matrix (any dtype: float32, float64, complex64, complex128 kept; integers and
///          bool promoted as SciPy's LAPACK type choice: float32 for bool/int8/uint8/int16/uint16, float64
///          otherwise). When neither p nor q is given (or both are 0), SciPy treats `x` as the sequence of
///          the four blocks along its first axis: x must then have exactly 4 entries along axis 0 (x[0] is
///          x11, ...), each taken as at least 2-d.
/// @param opts see `cossin_options`.
/// @return see `cossin_result`; u/vdh/u1/u2/v1h/v2h in the computation dtype, cs/theta in its real type.
///
/// Runs on the host: the blocks are copied to the host (synchronizing the current stream), each matrix of
/// the batch is decomposed by LAPACK's ?orcsd (real) or ?uncsd (complex) (TRANS = 'N', SIGNS = 'O' with
/// swap_sign, else 'D'), the factors and cs are assembled as SciPy does, and the results are copied to
/// the device. No device kernel; the host loop over the batch is the LAPACK calls themselves.
///
/// @throws cusci::value_error for p or q outside (0, M), a non-square x, non-finite x (when p or q is given;
///         SciPy checks only then), an x that is not 4 blocks when p and q are absent, empty blocks
///         ("x11 can't be empty"), blocks whose shapes do not fit together, batch dimensions that do not
///         broadcast, or LAPACK's argument errors ("illegal value in argument k of internal dorcsd").
/// @throws cusci::linalg::lin_alg_error when LAPACK does not converge ("dorcsd did not converge: <info>").
///
/// SciPy: `scipy.linalg.cossin` (1.18). Deviations: the results are one struct instead of a tuple whose
/// shape depends on `separate`; the overload taking the four blocks stands for SciPy's iterable `X`.
cossin_result cossin(const ndarray& x, const cossin_options& opts = {});

/// The same with the four blocks given separately ({x11, x12, x21, x22}, each [..., rows, cols], at least
/// 2-d after numpy.atleast_2d; their batch dimensions broadcast). p and q must not be given.
/// @throws cusci::value_error when `blocks` does not hold exactly 4 arrays, or p or q is given.
cossin_result cossin(const std::vector<ndarray>& blocks, const cossin_options& opts = {});

}  // namespace cusci::linalg
