// cusci::linalg's triangular family: argument handling (SciPy's checks, shapes, dtypes, batching) and the
// kernel sequence of each function; the kernels are in triangular_kernels.cu.

#include "cusci/linalg/triangular.hpp"

#include <string>

#include "cusci/elementwise.hpp"
#include "cusci/indexing.hpp"
#include "cusci/linalg/cholesky.hpp"
#include "cusci/memory.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "cusci/detail/nvtx.hpp"
#include "triangular/tri_detail.hpp"

namespace cusci::linalg {

namespace {

using namespace detail;

/// SciPy's LAPACK type of one operand (find_best_lapack_type after _normalize_lapack_dtype): inexact
/// types kept (float16 to float32); bool and integers float32 holds exactly to float32, other integers
/// to float64 (all of them to float64 with `as_inexact`, which converts integers first).
dtype lapack_type(dtype t, bool as_inexact = false) {
  if (as_inexact && !is_inexact(t)) return dtype::float64;
  return lapack_dtype(t);
}

/// A matrix operand [..., R, M] and a right-hand side [M] or [..., M, K], broadcast (SciPy's
/// _apply_over_batch with core dims 2 and "1|2").
struct batched_pair {
  shape_t batch;
  std::int64_t nbatch = 0;
  bool vec = false;  // b is one vector
  std::int64_t m = 0, k = 1;
  operand bo;        // b as [..., M, K] (K = 1, stride 0 for a vector)
  shape_t out_shape;
};

batched_pair pair_shapes(const std::string& fn, const ndarray& a, const ndarray& b, std::int64_t m,
                         const std::string& mismatch) {
  batched_pair p;
  if (b.ndim() == 0) throw value_error(fn + ": b must have at least one dimension, got a 0-d array");
  p.vec = b.ndim() == 1;
  if (p.vec) {
    p.bo.shape = {b.shape()[0], 1};
    p.bo.strides = {b.strides()[0], 0};
  } else {
    p.bo.shape = b.shape();
    p.bo.strides = b.strides();
  }
  const std::size_t nd = p.bo.shape.size();
  p.m = p.bo.shape[nd - 2];
  p.k = p.bo.shape[nd - 1];
  if (p.m != m) throw value_error(fn + ": " + mismatch);
  const shape_t ab(a.shape().begin(), a.shape().end() - 2), bb(p.bo.shape.begin(), p.bo.shape.end() - 2);
  bool ok = true;
  p.batch = broadcast_batch(ab, bb, ok);
  if (!ok)
    throw value_error(fn + ": batch dimensions of the operands do not broadcast: " + shape_str(a.shape()) +
                      " and " + shape_str(b.shape()));
  p.nbatch = prod(p.batch);
  if (!p.batch.empty() && p.nbatch == 0) throw value_error(fn + ": zero-size batches are not supported (SciPy)");
  p.out_shape = p.batch;
  p.out_shape.push_back(p.m);
  if (!p.vec) p.out_shape.push_back(p.k);
  return p;
}

/// x (C order, nbatch x M x K) = b broadcast and converted to `dt`; checks b's values when `check`.
void load_rhs(const ndarray& b, const batched_pair& p, dtype dt, bool check, ndarray& x, int* status) {
  const ndarray bc = cast_to(b, dt);
  operand o = p.bo;
  if (p.vec) o.strides = {bc.strides()[0], 0};
  else o.strides = bc.strides();
  gather(dt, broadcast_view(bc.data(), o, p.batch), p.nbatch, p.m, p.k, fill_mode::full, false, check, false, x.data(),
         status);
}

operand matrix_operand(const ndarray& a) { return operand{a.shape(), a.strides()}; }

int first_failure(const std::vector<int>& infos, std::size_t& slice) {
  slice = 0;
  while (slice < infos.size() && infos[slice] == 0) ++slice;
  return slice < infos.size() ? infos[slice] : 0;
}

/// Whether a triangular solve goes to cuBLAS's trsmBatched (large orders with many right-hand sides,
/// sizes within its int arguments) rather than the warp-per-column kernel.
bool use_blas(std::int64_t n, std::int64_t nrhs, std::int64_t nbatch) {
  constexpr std::int64_t int_max = 2147483647;
  return n >= blas_min_n && nrhs >= blas_min_nrhs && n <= int_max && nrhs <= int_max && nbatch <= int_max;
}

void check_nonfinite(const std::string& fn, const status_flags& f) {
  if (f.nonfinite) throw_nonfinite(fn);
}

}  // namespace

transpose_mode parse_transpose_mode(std::string_view s) {
  if (s == "N" || s == "0") return transpose_mode::N;
  if (s == "T" || s == "1") return transpose_mode::T;
  if (s == "C" || s == "2") return transpose_mode::C;
  throw value_error("cusci::linalg::parse_transpose_mode: trans must be one of 'N', 'T', 'C', 0, 1, 2, got '" +
                    std::string(s) + "'");
}

ndarray solve_triangular(const ndarray& a, const ndarray& b, const solve_triangular_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_triangular");
  const std::string fn = "cusci::linalg::solve_triangular";
  if (a.ndim() < 2 || a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw value_error(fn + ": expected square matrix, got a of shape " + shape_str(a.shape()));
  const int trans = static_cast<int>(o.trans);
  if (trans < 0 || trans > 2) throw value_error(fn + ": trans must be 0, 1 or 2, got " + std::to_string(trans));
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const batched_pair p = pair_shapes(fn, a, b, n,
                                     "shapes of a " + shape_str(a.shape()) + " and b " + shape_str(b.shape()) +
                                         " are incompatible");
  const dtype dt = promote_types(lapack_type(a.dtype()), lapack_type(b.dtype()));
  ndarray x = cusci::empty(p.out_shape, dt);
  if (x.size() == 0) return x;

  const ndarray ac = cast_to(a, dt);
  const batch_view av = broadcast_view(ac.data(), matrix_operand(ac), p.batch);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(p.nbatch));
  clear_status(status.data());
  const bool blas = use_blas(n, p.k, p.nbatch);
  ndarray work;
  if (blas) {
    work = cusci::empty({p.nbatch, n, n}, dt);
    gather(dt, av, p.nbatch, n, n, fill_mode::full, false, o.check_finite, false, work.data(), status.data());
  } else if (o.check_finite) {
    scan_nonfinite(dt, av, p.nbatch, n, n, status.data());
  }
  load_rhs(b, p, dt, o.check_finite, x, status.data());
  if (!o.unit_diagonal) tri_diag_check(dt, av, p.nbatch, n, info.data(), status.data());
  if (blas) tri_solve_blas(dt, work.data(), p.nbatch, n, p.k, trans, o.lower, o.unit_diagonal, x.data());
  else tri_solve(dt, av, p.nbatch, n, p.k, trans, o.lower, o.unit_diagonal, x.data());
  const status_flags f = read_status(status.data());
  check_nonfinite(fn, f);
  if (f.failed) {
    std::size_t s = 0;
    const int v = first_failure(read_info(info.data(), p.nbatch), s);
    throw lin_alg_error(fn + ": singular matrix: resolution failed at diagonal " + std::to_string(v - 1) +
                        (p.nbatch > 1 ? " (batch slice " + std::to_string(s) + ")" : std::string()));
  }
  return x;
}

cho_factor_result cho_factor(const ndarray& a, const cho_factor_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cho_factor");
  const std::string from = "cusci::linalg::cholesky", to = "cusci::linalg::cho_factor";
  auto rename = [&](const std::string& m) {
    return m.rfind(from, 0) == 0 ? to + m.substr(from.size()) : m;
  };
  try {
    cho_factor_result r{cholesky(a, {.lower = o.lower, .check_finite = o.check_finite}), o.lower};
    // SciPy 1.18.1 factors a single matrix whose dtype it casts to its LAPACK type (integers, bool,
    // float16) in place on that cast copy, so the triangle it does not use keeps the cast input's
    // entries; every other input is factored into a fresh buffer whose other triangle is zero (as
    // cholesky's). (0-d and 1-d inputs get here only as 1 x 1 matrices, which have no other triangle.)
    const std::int64_t n = a.ndim() == 2 ? a.shape()[1] : 0;
    if (a.dtype() != r.c.dtype() && n > 1) {
      const ndarray all = cusci::ones({n, n}, dtype::bool_);
      const ndarray other = o.lower ? triu(all, 1) : tril(all, -1);
      r.c = where(other, a.astype(r.c.dtype()), r.c);
    }
    return r;
  } catch (const lin_alg_error& e) {
    throw lin_alg_error(rename(e.what()));
  } catch (const value_error& e) {
    throw value_error(rename(e.what()));
  }
}

ndarray cho_solve(const cho_factor_result& cl, const ndarray& b, const cho_solve_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cho_solve");
  const std::string fn = "cusci::linalg::cho_solve";
  const ndarray& c = cl.c;
  if (c.ndim() < 2 || c.shape()[c.ndim() - 1] != c.shape()[c.ndim() - 2])
    throw value_error(fn + ": The factored matrix c is not square (shape " + shape_str(c.shape()) + ")");
  const std::int64_t n = c.shape()[c.ndim() - 1];
  const batched_pair p = pair_shapes(fn, c, b, n,
                                     "incompatible dimensions (" + shape_str(c.shape()) + " and " +
                                         shape_str(b.shape()) + ")");
  const dtype dt = promote_types(lapack_type(c.dtype()), lapack_type(b.dtype()));
  ndarray x = cusci::empty(p.out_shape, dt);
  if (x.size() == 0) return x;

  const ndarray cc = cast_to(c, dt);
  const batch_view cv = broadcast_view(cc.data(), matrix_operand(cc), p.batch);
  device_buffer<int> status(2);
  clear_status(status.data());
  const bool blas = use_blas(n, p.k, p.nbatch);
  ndarray work;
  if (blas) {
    work = cusci::empty({p.nbatch, n, n}, dt);
    gather(dt, cv, p.nbatch, n, n, fill_mode::full, false, o.check_finite, false, work.data(), status.data());
  } else if (o.check_finite) {
    scan_nonfinite(dt, cv, p.nbatch, n, n, status.data());
  }
  load_rhs(b, p, dt, o.check_finite, x, status.data());
  // A = U^H U: U^H y = b, U x = y;  A = L L^H: L y = b, L^H x = y.
  const int first = cl.lower ? 0 : 2, second = cl.lower ? 2 : 0;
  if (blas) {
    tri_solve_blas(dt, work.data(), p.nbatch, n, p.k, first, cl.lower, false, x.data());
    tri_solve_blas(dt, work.data(), p.nbatch, n, p.k, second, cl.lower, false, x.data());
  } else {
    tri_solve(dt, cv, p.nbatch, n, p.k, first, cl.lower, false, x.data());
    tri_solve(dt, cv, p.nbatch, n, p.k, second, cl.lower, false, x.data());
  }
  if (o.check_finite) check_nonfinite(fn, read_status(status.data()));
  return x;
}

ndarray solve_banded(std::pair<std::int64_t, std::int64_t> lu, const ndarray& ab, const ndarray& b,
                     const solve_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solve_banded");
  const std::string fn = "cusci::linalg::solve_banded";
  const auto [kl, ku] = lu;
  if (kl < 0 || ku < 0)
    throw value_error(fn + ": l and u must be non-negative, got (" + std::to_string(kl) + ", " + std::to_string(ku) +
                      ")");
  if (ab.ndim() < 2) throw value_error(fn + ": ab must have at least 2 dimensions, got shape " + shape_str(ab.shape()));
  const std::int64_t n = ab.shape()[ab.ndim() - 1], rows = ab.shape()[ab.ndim() - 2];
  const batched_pair p = pair_shapes(fn, ab, b, n, "shapes of ab and b are not compatible.");
  if (kl + ku + 1 != rows)
    throw value_error(fn + ": invalid values for the number of lower and upper diagonals: l+u+1 (" +
                      std::to_string(kl + ku + 1) + ") does not equal ab.shape[0] (" + std::to_string(rows) + ")");
  const dtype dt = promote_types(lapack_type(ab.dtype(), true), lapack_type(b.dtype(), true));
  ndarray x = cusci::empty(p.out_shape, dt);
  if (x.size() == 0) return x;

  const ndarray abc = cast_to(ab, dt);
  const batch_view av = broadcast_view(abc.data(), matrix_operand(abc), p.batch);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(p.nbatch));
  const std::int64_t ldab = 2 * kl + ku + 1;
  ndarray work = cusci::empty({n == 1 ? 1 : p.nbatch * ldab * n}, dt);
  device_buffer<int> piv(static_cast<std::size_t>(n == 1 ? 1 : p.nbatch * n));
  clear_status(status.data());
  if (o.check_finite) scan_nonfinite(dt, av, p.nbatch, rows, n, status.data());
  load_rhs(b, p, dt, o.check_finite, x, status.data());
  gb_solve(dt, av, p.nbatch, n, kl, ku, p.k, work.data(), piv.data(), x.data(), info.data(), status.data());
  const status_flags f = read_status(status.data());
  check_nonfinite(fn, f);
  if (f.failed) throw lin_alg_error(fn + ": singular matrix");
  return x;
}

ndarray solveh_banded(const ndarray& ab, const ndarray& b, const solveh_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::solveh_banded");
  const std::string fn = "cusci::linalg::solveh_banded";
  if (ab.ndim() < 2) throw value_error(fn + ": ab must have at least 2 dimensions, got shape " + shape_str(ab.shape()));
  const std::int64_t n = ab.shape()[ab.ndim() - 1], rows = ab.shape()[ab.ndim() - 2];
  const batched_pair p = pair_shapes(fn, ab, b, n, "shapes of ab and b are not compatible.");
  const dtype dt = promote_types(lapack_type(ab.dtype()), lapack_type(b.dtype()));
  if (prod(p.out_shape) == 0) return cusci::empty(p.out_shape, dt);
  if (rows == 0) throw value_error(fn + ": ab must have at least one row (kd + 1 >= 1), got shape " + shape_str(ab.shape()));
  // SciPy sends kd = 1 to ?ptsv, whose wrapper rejects the empty off-diagonal of a 1 x 1 system.
  if (rows == 2 && n == 1)
    throw value_error(fn + ": unexpected array size: new_size=1, got array with arr_size=0 (kd = 1 with M = 1, as SciPy)");

  ndarray x = cusci::empty(p.out_shape, dt);
  const std::int64_t kd = rows - 1;
  const ndarray abc = cast_to(ab, dt);
  const batch_view av = broadcast_view(abc.data(), matrix_operand(abc), p.batch);
  ndarray c = cusci::empty(concat(p.batch, {rows, n}), dt);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(p.nbatch));
  clear_status(status.data());
  gather(dt, av, p.nbatch, rows, n, fill_mode::full, false, o.check_finite, false, c.data(), status.data());
  pb_factor(dt, c.data(), p.nbatch, kd, n, o.lower, info.data(), status.data());
  load_rhs(b, p, dt, o.check_finite, x, status.data());
  batch_view cv;
  cv.data = c.data();
  cv.batch_shape = {p.nbatch};
  cv.batch_strides = {rows * n * static_cast<std::int64_t>(itemsize(dt))};
  cv.s_row = n * static_cast<std::int64_t>(itemsize(dt));
  cv.s_col = static_cast<std::int64_t>(itemsize(dt));
  pb_solve(dt, cv, p.nbatch, kd, n, o.lower, p.k, x.data());
  const status_flags f = read_status(status.data());
  check_nonfinite(fn, f);
  if (f.failed) {
    std::size_t s = 0;
    const int v = first_failure(read_info(info.data(), p.nbatch), s);
    throw lin_alg_error(fn + ": " + std::to_string(v) + "th leading minor not positive definite");
  }
  return x;
}

ndarray cholesky_banded(const ndarray& ab, const cholesky_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cholesky_banded");
  const std::string fn = "cusci::linalg::cholesky_banded";
  if (ab.ndim() < 2) throw value_error(fn + ": ab must have at least 2 dimensions, got shape " + shape_str(ab.shape()));
  const std::int64_t n = ab.shape()[ab.ndim() - 1], rows = ab.shape()[ab.ndim() - 2];
  const shape_t batch(ab.shape().begin(), ab.shape().end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (!batch.empty() && nbatch == 0) throw value_error(fn + ": zero-size batches are not supported (SciPy)");
  const dtype dt = lapack_type(ab.dtype());
  ndarray c = cusci::empty(ab.shape(), dt);
  if (c.size() == 0) return c;

  const ndarray abc = cast_to(ab, dt);
  const batch_view av = broadcast_view(abc.data(), matrix_operand(abc), batch);
  device_buffer<int> status(2);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  clear_status(status.data());
  gather(dt, av, nbatch, rows, n, fill_mode::full, false, o.check_finite, false, c.data(), status.data());
  pb_factor(dt, c.data(), nbatch, rows - 1, n, o.lower, info.data(), status.data());
  const status_flags f = read_status(status.data());
  check_nonfinite(fn, f);
  if (f.failed) {
    std::size_t s = 0;
    const int v = first_failure(read_info(info.data(), nbatch), s);
    throw lin_alg_error(fn + ": " + std::to_string(v) + "-th leading minor not positive definite");
  }
  return c;
}

ndarray cho_solve_banded(const cho_banded_factor& cl, const ndarray& b, const cho_solve_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cho_solve_banded");
  const std::string fn = "cusci::linalg::cho_solve_banded";
  const ndarray& cb = cl.cb;
  if (cb.ndim() < 2) throw value_error(fn + ": cb must have at least 2 dimensions, got shape " + shape_str(cb.shape()));
  const std::int64_t n = cb.shape()[cb.ndim() - 1], rows = cb.shape()[cb.ndim() - 2];
  const batched_pair p = pair_shapes(fn, cb, b, n, "shapes of cb and b are not compatible.");
  const dtype dt = promote_types(lapack_type(cb.dtype()), lapack_type(b.dtype()));
  if (prod(p.out_shape) == 0) return cusci::empty(p.out_shape, dt);
  if (rows == 0) throw value_error(fn + ": cb must have at least one row (kd + 1 >= 1), got shape " + shape_str(cb.shape()));
  ndarray x = cusci::empty(p.out_shape, dt);

  const ndarray cc = cast_to(cb, dt);
  const batch_view cv = broadcast_view(cc.data(), matrix_operand(cc), p.batch);
  device_buffer<int> status(2);
  clear_status(status.data());
  if (o.check_finite) scan_nonfinite(dt, cv, p.nbatch, rows, n, status.data());
  load_rhs(b, p, dt, o.check_finite, x, status.data());
  pb_solve(dt, cv, p.nbatch, rows - 1, n, cl.lower, p.k, x.data());
  if (o.check_finite) check_nonfinite(fn, read_status(status.data()));
  return x;
}

std::pair<ndarray, ndarray> bandwidth(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::linalg::bandwidth");
  const std::string fn = "cusci::linalg::bandwidth";
  if (a.ndim() < 2) throw value_error(fn + ": Input array must be at least 2D.");
  if (a.dtype() == dtype::float16) throw type_error(fn + ": Input array with float16 dtype is not supported.");
  const shape_t batch(a.shape().begin(), a.shape().end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (a.size() == 0) return {cusci::zeros(batch, dtype::int64), cusci::zeros(batch, dtype::int64)};
  ndarray lo = cusci::empty(batch, dtype::int64), up = cusci::empty(batch, dtype::int64);
  const batch_view v = broadcast_view(a.data(), matrix_operand(a), batch);
  band_width(a.dtype(), v, nbatch, a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1],
             static_cast<std::int64_t*>(lo.data()), static_cast<std::int64_t*>(up.data()));
  return {lo, up};
}

namespace {

ndarray symmetry_query(const std::string& fn, const ndarray& a, const symmetry_options& o, bool herm) {
  if (a.ndim() < 2) throw value_error(fn + ": Input array must be a 2D NumPy array.");
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw value_error(fn + ": Input array must be square (got shape " + shape_str(a.shape()) + ").");
  if (a.dtype() == dtype::float16) throw type_error(fn + ": Input array with float16 dtype is not supported.");
  const shape_t batch(a.shape().begin(), a.shape().end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (!batch.empty() && nbatch == 0) throw value_error(fn + ": zero-size batches are not supported (SciPy)");
  const bool tol = o.atol.has_value() || o.rtol.has_value();
  const double atol = o.atol.value_or(0.0), rtol = o.rtol.value_or(0.0);
  ndarray out = cusci::empty(batch, dtype::bool_);
  const ndarray ac = tol && !is_inexact(a.dtype()) ? a.astype(dtype::float64) : a;
  const batch_view v = broadcast_view(ac.data(), matrix_operand(ac), batch);
  symmetry(ac.dtype(), v, nbatch, a.shape()[a.ndim() - 1], herm, tol, atol, rtol, static_cast<bool*>(out.data()));
  return out;
}

}  // namespace

ndarray issymmetric(const ndarray& a, const symmetry_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::issymmetric");
  return symmetry_query("cusci::linalg::issymmetric", a, o, false);
}

ndarray ishermitian(const ndarray& a, const symmetry_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::ishermitian");
  return symmetry_query("cusci::linalg::ishermitian", a, o, true);
}

}  // namespace cusci::linalg
