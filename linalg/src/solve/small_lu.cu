// Fused LU factor-and-solve kernel for batches of small systems (n <= 32), with LAPACK's partial
// pivoting. See small.cuh for the data layout.

#include "common/small.cuh"
#include "solve/small_cond.cuh"

namespace cusci::linalg::detail {
namespace {

/// LU with partial pivoting, then forward and back substitution for every right-hand side.
///
/// Pivoting without moving data: each lane keeps `pos`, the position its row would have after
/// LAPACK's row interchanges. At step k the pivot is the lane with the largest |a_ik| (|re| + |im| for
/// complex, BLAS i?amax's measure) among lanes with pos >= k, ties going to the smallest pos, which is
/// exactly ?getf2's choice (i?amax returns the first maximum in the current row order). The pivot lane
/// takes position k and the lane at position k takes the pivot's old position (the interchange). The
/// multipliers are scaled by the reciprocal of the pivot when |pivot| >= sfmin, else divided, as
/// ?getf2. info = first k + 1 whose pivot is exactly zero (?getrf's singularity test).
/// EST: also solve's condition estimate of each matrix (small_cond.cuh) into e.rec, from the factors
/// (or the matrix) left in the group's staging area; no second factorization.
template <class T, int W, int TPB, bool EST>
__global__ void __launch_bounds__(TPB) small_lu_kernel(const small_params<T> p, const small_est_params e) {
  using R = real_t<T>;
  __shared__ alignas(16) unsigned char smraw[TPB * (W + 1) * sizeof(T)];
  const small_lane<T, W> L = small_lane_of<T, W, TPB>(reinterpret_cast<T*>(smraw), p);
  const int gl = L.gl, gbase = L.gbase, n = p.n;
  const std::int64_t g = L.g;
  const bool valid = L.valid, real_row = L.real_row;
  bool bad = false;
  T row[W];
  load_rows<T, W>(p, L, p.mode, row, bad);
  [[maybe_unused]] small_cond::estimator<T, W> est;
  if constexpr (EST) est.prepare(row, gl, n, e.kind);

  constexpr R sfmin = std::numeric_limits<R>::min();
  int pos = gl;
  int info = 0;
#pragma unroll
  for (int k = 0; k < W; ++k) {
    if (k < n) {
      R v = (real_row && pos >= k) ? abs1(row[k]) : R(-1);
      if (v != v) v = R(-0.5);  // NaN never wins over a number (as i?amax), but beats non-candidates
      int bp = pos, bl = gl;
#pragma unroll
      for (int off = W / 2; off > 0; off >>= 1) {
        const R ov = __shfl_xor_sync(full_mask, v, off, W);
        const int op = __shfl_xor_sync(full_mask, bp, off, W);
        const int ol = __shfl_xor_sync(full_mask, bl, off, W);
        if (ov > v || (ov == v && op < bp)) {
          v = ov;
          bp = op;
          bl = ol;
        }
      }
      // (v, pos) is a strict total order over the group, so every lane agrees on (bl, bp).
      if (gl == bl) pos = k;
      else if (pos == k) pos = bp;
      const T piv = shfl(row[k], bl, W);
      const bool zero = piv == T(0);
      if (zero && info == 0) info = k + 1;
      const bool upd = real_row && pos > k;
      if (upd && !zero) row[k] = absval(piv) >= sfmin ? row[k] * (T(1) / piv) : row[k] / piv;
      const T l = row[k];
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T pj = shfl(row[j], bl, W);
        if (upd) row[j] -= l * pj;
      }
    }
  }

  // After the loop the lane that pivoted at step k holds row k of L\U and has pos == k.
  const char* bbase = valid ? p.b + p.bix.offset(g) : nullptr;
  for (std::int64_t c = 0; c < p.nrhs; ++c) {
    T y = T(0);
    if (valid && real_row) {
      y = load_at<T>(bbase, p.b_sr, p.b_sc, gl, c);
      if (!is_finite_elem(y)) bad = true;
    }
#pragma unroll
    for (int k = 0; k < W; ++k) {  // L y = P b
      if (k < n) {
        const T yk = shfl(y, group_lane_of<W>(pos == k, gbase), W);
        if (real_row && pos > k) y -= row[k] * yk;
      }
    }
#pragma unroll
    for (int k = W - 1; k >= 0; --k) {  // U x = y
      if (k < n) {
        const int plk = group_lane_of<W>(pos == k, gbase);
        if (real_row && pos == k) y = y / row[k];
        const T xk = shfl(y, plk, W);
        if (real_row && pos < k) y -= row[k] * xk;
      }
    }
    if (valid && real_row) p.x[(g * n + pos) * p.nrhs + c] = y;
  }

  store_status<T, W>(p, L, bad, info);
  if constexpr (EST) est.finish(row, pos, L.sg, gl, n, info, valid, g, e);
}

template <class T, bool EST>
void run_lu(const small_params<T>& p, const small_est_params& e) {
  launch_for_width(p, [](auto w) { return small_lu_kernel<T, decltype(w)::value, small_tpb<T>, EST>; }, e);
}

}  // namespace

void small_lu_solve(dtype t, const batch_view& a, fill_mode mode, bool lower, const batch_view& b,
                    std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x, int* info, int* status) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_lu<T, false>(make_small_params<T>(a, mode, lower, &b, nbatch, n, nrhs, check, x, info, status),
                     small_est_params{});
  });
}

void small_lu_solve_estimate(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind,
                             const batch_view& b, std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x,
                             int* info, int* status, slice_record* rec, int* flag) {
  CUSCI_EXPECTS(kind == cond_kind::lu || kind == cond_kind::detect || kind == cond_kind::tri_u ||
                    kind == cond_kind::tri_l || kind == cond_kind::diag,
                value_error, "cusci::linalg::solve: the fused estimate takes the kinds lu, detect, tri_u, tri_l, diag");
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_lu<T, true>(make_small_params<T>(a, mode, lower, &b, nbatch, n, nrhs, check, x, info, status),
                    small_est_params{rec, flag, static_cast<int>(kind)});
  });
}

}  // namespace cusci::linalg::detail
