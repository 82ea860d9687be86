// cusci::linalg::solve: argument handling, SciPy 1.18's shape rules, choice of kernel or library path.

#include "cusci/detail/checks.hpp"
#include "cusci/linalg/solve.hpp"

#include <cuda_runtime_api.h>

#include <charconv>
#include <complex>
#include <limits>
#include <vector>
#include <string>
#include <algorithm>
#include <cmath>
#include <utility>

#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/detail.hpp"
#include "common/shapes.hpp"
#include "lu/lu_engine.hpp"
#include "solve/solve_detail.hpp"
#include "cusci/warnings.hpp"
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

using detail::batch_view;
using detail::cond_kind;
using detail::slice_record;

/// SciPy's _ensure_dtype_cdsz: result_type of the inputs, float64 when that is not inexact.
dtype solve_dtype(dtype a, dtype b) {
  const dtype r = promote_types(a, b);
  return is_inexact(r) ? r : dtype::float64;
}

/// Python's repr of a float (shortest round trip; fixed notation for exponents -4..15, else d.ddde+XX).
std::string python_repr(double v) {
  if (v != v) return "nan";
  if (v == std::numeric_limits<double>::infinity()) return "inf";
  if (v == -std::numeric_limits<double>::infinity()) return "-inf";
  if (v == 0.0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const std::size_t epos = sci.find('e');
  const int e = std::stoi(sci.substr(epos + 1));
  std::string digits = sci.substr(0, epos);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  if (e >= -4 && e < 16) {
    std::string r;
    if (e >= 0) {
      if (static_cast<int>(digits.size()) <= e + 1) {
        r = digits + std::string(static_cast<std::size_t>(e + 1) - digits.size(), '0') + ".0";
      } else {
        r = digits.substr(0, static_cast<std::size_t>(e + 1)) + "." + digits.substr(static_cast<std::size_t>(e + 1));
      }
    } else {
      r = "0." + std::string(static_cast<std::size_t>(-e - 1), '0') + digits;
    }
    return sign + r;
  }
  std::string m = digits.substr(0, 1);
  if (digits.size() > 1) m += "." + digits.substr(1);
  const int ae = e < 0 ? -e : e;
  return sign + m + "e" + (e < 0 ? "-" : "+") + (ae < 10 ? "0" : "") + std::to_string(ae);
}

bool is_single(dtype t) { return t == dtype::float32 || t == dtype::complex64; }

batch_view rowmajor_view(const void* p, std::int64_t nbatch, std::int64_t rows, std::int64_t cols, std::int64_t es) {
  batch_view v;
  v.data = p;
  v.batch_shape = {nbatch};
  v.batch_strides = {rows * cols * es};
  v.s_row = cols * es;
  v.s_col = es;
  return v;
}

batch_view colmajor_view(const void* p, std::int64_t nbatch, std::int64_t rows, std::int64_t cols, std::int64_t es) {
  batch_view v = rowmajor_view(p, nbatch, rows, cols, es);
  v.s_row = es;
  v.s_col = rows * es;
  return v;
}

/// SciPy's error list (_batched_linalg._solve) and its formatting (_format_emit_errors_warnings): slices in
/// order; a singular slice is listed and ends the walk (SciPy stops at the first one), except with
/// assume_a="pos", where every slice is factored and listed; an ill-conditioned slice is listed with its
/// rcond. A singular slice raises LinAlgError naming the positions of the singular entries in that list;
/// otherwise the ill-conditioned entries give one LinAlgWarning.
void report_slices(const std::string& fn, const std::vector<slice_record>& recs, bool single, bool pos) {
  const double eps = single ? static_cast<double>(std::numeric_limits<float>::epsilon())
                            : std::numeric_limits<double>::epsilon();
  std::vector<int> singular;
  std::string ill;
  int pos_in_list = 0;
  for (const slice_record& r : recs) {
    if (r.info != 0) {
      singular.push_back(pos_in_list++);
      if (!pos) break;
      continue;
    }
    const bool bad = r.kind == static_cast<int>(cond_kind::diag) ? r.rcond > 1.0 / eps
                                                                  : (r.rcond != r.rcond || r.rcond < eps);
    if (bad) {
      if (!ill.empty()) ill += ",";
      ill += "slice " + std::to_string(pos_in_list++) + " has rcond = " + python_repr(r.rcond);
    }
  }
  if (!singular.empty()) {
    std::string l = "[";
    for (std::size_t i = 0; i < singular.size(); ++i) l += (i ? ", " : "") + std::to_string(singular[i]);
    throw lin_alg_error(fn + ": A singular matrix detected: slice(s) " + l + "] are singular.");
  }
  if (!ill.empty()) warn(std::string(lin_alg_warning), fn, "An ill-conditioned matrix detected: " + ill + ".");
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

  // status[2]: set by the condition estimate when some slice must be reported (singular or ill-conditioned).
  device_buffer<int> status(3);
  clear_status(status.data(), 3);

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
  cond_kind ck = cond_kind::lu;
  switch (st) {
    case matrix_structure::symmetric: mode = fill_mode::sym; break;
    case matrix_structure::hermitian: mode = fill_mode::her; break;
    case matrix_structure::positive_definite:
      mode = fill_mode::her;
      ck = o.lower ? cond_kind::chol_l : cond_kind::chol_u;
      break;
    case matrix_structure::diagonal:
      mode = fill_mode::diag;
      ck = cond_kind::diag;
      break;
    case matrix_structure::tridiagonal: mode = fill_mode::tridiag; break;
    case matrix_structure::upper_triangular:
      mode = fill_mode::triu;
      ck = cond_kind::tri_u;
      break;
    case matrix_structure::lower_triangular:
      mode = fill_mode::tril;
      ck = cond_kind::tri_l;
      break;
    case matrix_structure::auto_: ck = cond_kind::detect; break;
    default: break;
  }
  // SciPy ignores `transposed` for the symmetric, Hermitian and positive definite solvers.
  const bool trans = o.transposed && mode != fill_mode::sym && mode != fill_mode::her;
  const std::int64_t es = static_cast<std::int64_t>(isz);

  ndarray x = cusci::empty(concat(batch, {n, k}), dt);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  device_buffer<slice_record> rec(static_cast<std::size_t>(nbatch));
  memory_ptr F, G;
  device_buffer<int> piv;
  factor_view fv;
  bool estimated = false;
  if (pos) {
    F = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * isz);
    fv.info = info.data();
    if (n <= small_max_n) {
      small_chol_solve(dt, av, o.lower, bv, nbatch, static_cast<int>(n), k, o.check_finite, x.data(), info.data(),
                       status.data());
      // The factor for the estimate (C order, the triangle `lower`; same info as the solve's).
      small_cholesky(dt, av, nbatch, static_cast<int>(n), o.lower, false, F->ptr(), info.data(), status.data());
      fv.data = F->ptr();
      fv.s_row = n;
      fv.s_col = 1;
    } else {
      memory_ptr B = cusci::malloc(static_cast<std::size_t>(nbatch * n * k) * isz);
      gather(dt, av, nbatch, n, n, mode, o.lower, o.check_finite, true, F->ptr(), status.data());
      gather(dt, bv, nbatch, n, k, fill_mode::full, false, o.check_finite, true, B->ptr(), status.data());
      lib_chol_solve(dt, nbatch, n, k, F->ptr(), B->ptr(), info.data(), o.lower);  // F: column-major factor
      gather(dt, colmajor_view(B->ptr(), nbatch, n, k, es), nbatch, n, k, fill_mode::full, false, false, false,
             x.data(), status.data());
      fv.data = F->ptr();
      fv.s_row = 1;
      fv.s_col = n;
    }
  } else if (n <= small_max_n && !trans) {
    // One kernel factors, solves and estimates each slice's condition from the factors it holds.
    small_lu_solve_estimate(dt, av, mode, o.lower, ck, bv, nbatch, static_cast<int>(n), k, o.check_finite, x.data(),
                            info.data(), status.data(), rec.data(), status.data() + 2);
    estimated = true;
  } else if (medium_fits(dt, n) && !trans) {
    // The same for orders 33..64 (float32, float64, complex64): one block of 64 threads a matrix.
    medium_lu_solve_estimate(dt, av, mode, o.lower, ck, bv, nbatch, static_cast<int>(n), k, o.check_finite,
                             x.data(), info.data(), status.data(), rec.data(), status.data() + 2);
    estimated = true;
  } else {
    if (n <= small_max_n) {
      // The fused kernel solves with a.T through swapped strides (the kept triangle swaps with them); the
      // estimate is of a itself, from a second factorization below.
      batch_view at = av;
      fill_mode mt = mode;
      if (trans) {
        std::swap(at.s_row, at.s_col);
        if (mt == fill_mode::triu) mt = fill_mode::tril;
        else if (mt == fill_mode::tril) mt = fill_mode::triu;
      }
      small_lu_solve(dt, at, mt, o.lower, bv, nbatch, static_cast<int>(n), k, o.check_finite, x.data(), info.data(),
                     status.data());
    }
    // getrf factors of a (formed with the structure): the estimate's input, and the solve's for n > 32.
    if (n > small_max_n || ck == cond_kind::lu || ck == cond_kind::detect) {
      batch_view src = av;
      if (mode != fill_mode::full) {
        G = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * isz);
        gather(dt, av, nbatch, n, n, mode, o.lower, o.check_finite, false, G->ptr(), status.data());
        src = rowmajor_view(G->ptr(), nbatch, n, n, es);
      }
      F = cusci::malloc(static_cast<std::size_t>(nbatch * n * n) * isz);
      piv = device_buffer<int>(static_cast<std::size_t>(nbatch * n));
      lu_factor_any(dt, src, nbatch, n, n, o.check_finite, F->ptr(), piv.data(), info.data(), status.data());
      fv.data = F->ptr();
      fv.s_row = n;
      fv.s_col = 1;
      fv.info = info.data();
      if (n > small_max_n) {
        batch_view pv;
        pv.data = piv.data();
        pv.batch_shape = {nbatch};
        pv.batch_strides = {n * static_cast<std::int64_t>(sizeof(int))};
        pv.s_row = sizeof(int);
        lu_solve_any(dt, rowmajor_view(F->ptr(), nbatch, n, n, es), pv, bv, nbatch, n, k, trans ? 1 : 0,
                     o.check_finite, x.data(), status.data());
      }
    }
  }
  if (!estimated) solve_condition(dt, av, mode, o.lower, ck, fv, nbatch, n, rec.data(), status.data() + 2);

  const status_flags flags = read_status(status.data(), 3);  // synchronizes
  if (flags.nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
  if (flags.flagged) {  // some slice is singular or ill-conditioned: the records say which
    std::vector<slice_record> recs(static_cast<std::size_t>(nbatch));
    CUSCI_CUDA_TRY(cudaMemcpyAsync(recs.data(), rec.data(), recs.size() * sizeof(slice_record),
                                   cudaMemcpyDeviceToHost, get_current_stream()));
    CUSCI_CUDA_TRY(cudaStreamSynchronize(get_current_stream()));
    report_slices(fn, recs, is_single(dt), pos);
  }
  return b_is_1d ? x.reshape(x_shape) : x;
}

}  // namespace cusci::linalg
