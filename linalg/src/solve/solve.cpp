// cusci::linalg::solve: argument handling, SciPy 1.18's shape rules, choice of kernel or library path.

#include "cusci/detail/checks.hpp"
#include "cusci/linalg/solve.hpp"

#include <complex>
#include <string>
#include <utility>

#include "cusci/memory.hpp"
#include "common/detail.hpp"
#include "common/shapes.hpp"
#include "lu/lu_engine.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::linalg {

matrix_structure parse_matrix_structure(std::string_view s) {
  if (s.empty() || s == "None") return matrix_structure::auto_;
  if (s == "gen" || s == "general") return matrix_structure::general;
  if (s == "sym" || s == "symmetric") return matrix_structure::symmetric;
  if (s == "her" || s == "hermitian") return matrix_structure::hermitian;
  if (s == "pos" || s == "positive definite") return matrix_structure::positive_definite;
  if (s == "diagonal") return matrix_structure::diagonal;
  if (s == "tridiagonal") return matrix_structure::tridiagonal;
  if (s == "banded") return matrix_structure::banded;
  if (s == "upper triangular") return matrix_structure::upper_triangular;
  if (s == "lower triangular") return matrix_structure::lower_triangular;
  throw value_error("cusci::linalg::parse_matrix_structure: " + std::string(s) +
                    " is not a recognized matrix structure");
}

namespace {

/// SciPy's _ensure_dtype_cdsz: result_type of the inputs, float64 when that is not inexact.
dtype solve_dtype(dtype a, dtype b) {
  const dtype r = promote_types(a, b);
  return is_inexact(r) ? r : dtype::float64;
}

std::string slice_list(const std::vector<int>& info) {
  std::string r = "[";
  int shown = 0;
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (info[i] == 0) continue;
    if (shown == 20) {
      r += ", ...";
      break;
    }
    if (shown++) r += ", ";
    r += std::to_string(i);
  }
  return r + "]";
}

}  // namespace

ndarray solve(const ndarray& a, const ndarray& b, const solve_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve");
  using namespace detail;
  const std::string fn = "cusci::linalg::solve";
  cusci::detail::check_same_device("cusci::linalg::solve", {&a, &b});

  // --- shapes (host only; nothing touches the device before all checks pass) -------------------
  operand ad = atleast(a, 2), bd = atleast(b, 1);
  const std::size_t and_ = ad.shape.size();
  const std::int64_t n = ad.shape[and_ - 1];
  if (ad.shape[and_ - 2] != n)
    throw value_error(fn + ": a must be square in its last two dimensions (shape (..., N, N)), got shape " +
                      shape_str(ad.shape));
  const dtype dt = solve_dtype(a.dtype(), b.dtype());
  if (is_complex(dt) && o.transposed)
    throw not_implemented_error(fn + ": transposed=true is not supported for complex matrices (as SciPy)");
  const bool b_is_1d = bd.shape.size() == 1;
  if (b_is_1d) {
    bd.shape.push_back(1);
    bd.strides.push_back(0);
  }
  const std::size_t bnd = bd.shape.size();
  const std::int64_t m = bd.shape[bnd - 2], k = bd.shape[bnd - 1];
  const bool a_is_scalar = prod(ad.shape) == 1;
  if (m != n && !a_is_scalar)
    throw value_error(fn + ": incompatible shapes: a has shape " + shape_str(ad.shape) + " and b " +
                      (b_is_1d ? "(as a column) " : "") + "has shape " + shape_str(bd.shape) +
                      "; expected b of shape (N,) or (..., N, K) with N = " + std::to_string(n));
  bool ok = true;
  const shape_t batch = broadcast_batch(shape_t(ad.shape.begin(), ad.shape.end() - 2),
                                        shape_t(bd.shape.begin(), bd.shape.end() - 2), ok);
  if (!ok)
    throw value_error(fn + ": batch dimensions of a " + shape_str(ad.shape) + " and b " + shape_str(bd.shape) +
                      " cannot be broadcast together");
  const std::int64_t nbatch = prod(batch);
  shape_t x_shape = concat(batch, {m});
  if (!b_is_1d) x_shape.push_back(k);

  if (nbatch * n * n == 0 || nbatch * m * k == 0) return cusci::empty(x_shape, dt);

  if (a_is_scalar && nbatch != 1)
    throw value_error(fn + ": a of size 1 broadcast to batch shape " + shape_str(batch) +
                      " (SciPy raises here: can only convert an array of size 1 to a Python scalar)");

  // --- device work ---------------------------------------------------------------------------
  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  const ndarray bc = b.dtype() == dt ? b : b.astype(dt);
  {
    // Strides may change with the conversion (astype gives a contiguous copy).
    operand a2 = atleast(ac, 2), b2 = atleast(bc, 1);
    if (b_is_1d) {
      b2.shape.push_back(1);
      b2.strides.push_back(0);
    }
    ad = std::move(a2);
    bd = std::move(b2);
  }
  batch_view av = broadcast_view(ac.data(), ad, batch);
  const batch_view bv = broadcast_view(bc.data(), bd, batch);
  const std::size_t isz = itemsize(dt);

  device_buffer<int> status(2);
  clear_status(status.data());

  if (a_is_scalar) {  // SciPy: x = b / a, with a singular when a == 0
    ndarray x = cusci::empty(concat(batch, {m, k}), dt);
    ndarray a0 = cusci::empty({1}, dt);
    gather(dt, bv, 1, m, k, fill_mode::full, false, o.check_finite, false, x.data(), status.data());
    gather(dt, av, 1, 1, 1, fill_mode::full, false, o.check_finite, false, a0.data(), status.data());
    if (read_status(status.data()).nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
    if (a0.item<std::complex<double>>() == std::complex<double>(0.0))
      throw lin_alg_error(fn + ": A singular matrix detected.");
    divide_by_scalar(dt, x.data(), x.size(), a0.data());
    return b_is_1d ? x.reshape(x_shape) : x;
  }

  const matrix_structure st = o.assume_a;
  const bool pos = st == matrix_structure::positive_definite;
  fill_mode mode = fill_mode::full;
  switch (st) {
    case matrix_structure::symmetric: mode = fill_mode::sym; break;
    case matrix_structure::hermitian:
    case matrix_structure::positive_definite: mode = fill_mode::her; break;
    case matrix_structure::diagonal: mode = fill_mode::diag; break;
    case matrix_structure::tridiagonal: mode = fill_mode::tridiag; break;
    case matrix_structure::upper_triangular: mode = fill_mode::triu; break;
    case matrix_structure::lower_triangular: mode = fill_mode::tril; break;
    default: mode = fill_mode::full; break;
  }
  if (o.transposed && mode != fill_mode::sym && mode != fill_mode::her) {
    // a.T: swap the matrix strides; the triangle kept by a triangular structure swaps with it.
    std::swap(av.s_row, av.s_col);
    if (mode == fill_mode::triu) mode = fill_mode::tril;
    else if (mode == fill_mode::tril) mode = fill_mode::triu;
  }

  ndarray x = cusci::empty(concat(batch, {n, k}), dt);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  status_flags flags;
  std::vector<int> infos;
  if (n <= small_max_n) {
    if (pos)
      small_chol_solve(dt, av, o.lower, bv, nbatch, static_cast<int>(n), k, o.check_finite, x.data(), info.data(),
                       status.data());
    else
      small_lu_solve(dt, av, mode, o.lower, bv, nbatch, static_cast<int>(n), k, o.check_finite, x.data(),
                     info.data(), status.data());
    flags = read_status(status.data());
    if (flags.failed && !flags.nonfinite) infos = read_info(info.data(), nbatch);
  } else {
    memory_ptr A = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * isz);
    memory_ptr B = cusci::malloc(static_cast<std::size_t>(nbatch * n * k) * isz);
    gather(dt, av, nbatch, n, n, mode, o.lower, o.check_finite, true, A->ptr(), status.data());
    gather(dt, bv, nbatch, n, k, fill_mode::full, false, o.check_finite, true, B->ptr(), status.data());
    if (pos) lib_chol_solve(dt, nbatch, n, k, A->ptr(), B->ptr(), info.data(), o.lower);
    else lu_solve_colmajor(dt, nbatch, n, k, A->ptr(), B->ptr(), info.data());
    batch_view bw;
    bw.data = B->ptr();
    bw.batch_shape = {nbatch};
    bw.batch_strides = {n * k * static_cast<std::int64_t>(isz)};
    bw.s_row = static_cast<std::int64_t>(isz);
    bw.s_col = n * static_cast<std::int64_t>(isz);
    gather(dt, bw, nbatch, n, k, fill_mode::full, false, false, false, x.data(), status.data());
    flags = read_status(status.data());
    infos = read_info(info.data(), nbatch);
    for (int v : infos) flags.failed |= v != 0;
  }
  if (flags.nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
  if (flags.failed)
    throw lin_alg_error(fn + ": A singular matrix detected: slice(s) " + slice_list(infos) + " are singular.");
  return b_is_1d ? x.reshape(x_shape) : x;
}

}  // namespace cusci::linalg
