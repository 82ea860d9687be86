#pragma once
// solve's condition estimate inside the fused small kernel (n <= 32; nvcc only): SciPy's structure
// detection, the 1-norm and Hager/Higham's ?lacn2 estimator for the lane-group layout of small.cuh.
//
// After the solve, the group's staging area holds the matrix the estimate reads, in position order:
// the packed L\U factors (row k = the row that pivoted at step k; the interchanges are left out, as in
// ?gecon, since they do not change a 1-norm) or, for the kinds that read A itself (triangular, diagonal),
// the formed matrix as loaded. Lane i of the group then holds x_i of ?lacn2's vector. Every solve is a
// forward then a backward substitution, one shuffle a column; the two directions of ?lacn2 (A^-1 and
// A^-H) differ only in the coefficients each lane reads, so groups of one warp in different states of
// the estimator still execute the same shuffles (the reverse-communication loop runs until every group
// of the warp has finished).

#include <limits>

#include "common/small.cuh"
#include "solve/solve_detail.hpp"

namespace cusci::linalg::detail {

/// Where the fused kernel writes its estimate: rec[g] for matrix g, and *flag = 1 when some slice is
/// singular or ill-conditioned (the host copies the records only then). kind: a cond_kind other than
/// chol_*.
struct small_est_params {
  slice_record* rec = nullptr;
  int* flag = nullptr;
  int kind = 0;
};

namespace small_cond {

/// Sum over the W lanes of a group; every lane gets the same value (butterfly of commutative adds).
template <int W, class R>
__device__ __forceinline__ R gsum(R v) {
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) v += __shfl_xor_sync(full_mask, v, off, W);
  return v;
}

/// Largest value over a group, NaN propagating (as LAPACK's ?lange); the same in every lane.
template <int W, class R>
__device__ __forceinline__ R gmax(R v) {
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) {
    const R o = __shfl_xor_sync(full_mask, v, off, W);
    if (o > v || o != o) v = o;
  }
  return v;
}

template <int W>
__device__ __forceinline__ int gmax_int(int v) {
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(full_mask, v, off, W));
  return v;
}

template <int W>
__device__ __forceinline__ int gmin_int(int v) {
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) v = min(v, __shfl_xor_sync(full_mask, v, off, W));
  return v;
}

/// First index of the largest |x_i| over the group (i?amax / izmax1: modulus, the first on ties; NaN never
/// wins; 0 when nothing is a number). `live`: the lane holds an element (i < n).
template <int W, class T>
__device__ __forceinline__ int gargmax(const T& x, int i, bool live) {
  using R = real_t<T>;
  R v = live ? absval(x) : R(-1);
  if (v != v) v = R(-1);
  int bi = live ? i : W;
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) {
    const R ov = __shfl_xor_sync(full_mask, v, off, W);
    const int oi = __shfl_xor_sync(full_mask, bi, off, W);
    if (ov > v || (ov == v && oi < bi)) {
      v = ov;
      bi = oi;
    }
  }
  return v < R(0) ? 0 : bi;
}

/// How a substitution reads its coefficients from the matrix M (position order, row stride W + 1).
enum sub : int {
  none = 0,      ///< identity
  rows_unit,     ///< coefficients M(i, k), unit diagonal (L of L\U)
  rows,          ///< coefficients M(i, k), diagonal M(k, k)
  cols_h_unit,   ///< coefficients conj(M(k, i)), unit diagonal (L^H)
  cols_h,        ///< coefficients conj(M(k, i)), diagonal conj(M(k, k))
};

/// x := B^-1 F^-1 x for the forward substitution F (k ascending, lanes below k update) and the
/// backward substitution B (k descending, lanes above k update) given by their `sub` codes. Every lane
/// of the warp calls it with the same n.
template <class T, int W>
__device__ __forceinline__ void fwd_bwd(const T* sg, int gl, int n, int f, int b, T& x) {
  for (int k = 0; k < n; ++k) {
    if (gl == k && (f == rows || f == cols_h)) {
      const T d = f == rows ? sg[k * (W + 1) + k] : conj_elem(sg[k * (W + 1) + k]);
      x = x / d;
    }
    const T xk = shfl(x, k, W);
    if (f != none && gl > k && gl < n) {
      const T c = (f == rows || f == rows_unit) ? sg[gl * (W + 1) + k] : conj_elem(sg[k * (W + 1) + gl]);
      x -= c * xk;
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    if (gl == k && (b == rows || b == cols_h)) {
      const T d = b == rows ? sg[k * (W + 1) + k] : conj_elem(sg[k * (W + 1) + k]);
      x = x / d;
    }
    const T xk = shfl(x, k, W);
    if (b != none && gl < k) {
      const T c = (b == rows || b == rows_unit) ? sg[gl * (W + 1) + k] : conj_elem(sg[k * (W + 1) + gl]);
      x -= c * xk;
    }
  }
}

/// The substitutions of A^-1 (kase 1, h false) and A^-H (kase 2, h true) for a kind (see
/// apply_inverse in solve_cond.cu: the same products in the same order).
__device__ __forceinline__ void subs_of(int kind, bool h, int& f, int& b) {
  switch (static_cast<cond_kind>(kind)) {
    case cond_kind::lu:
      f = h ? cols_h : rows_unit;
      b = h ? cols_h_unit : rows;
      return;
    case cond_kind::tri_u:
      f = h ? cols_h : none;
      b = h ? none : rows;
      return;
    case cond_kind::tri_l:
      f = h ? none : rows;
      b = h ? cols_h : none;
      return;
    default:
      f = none;
      b = none;
      return;
  }
}

/// x := sign(x) (complex: x / |x|, 1 below the safe minimum); real types keep the signs in isgn.
template <class T>
__device__ __forceinline__ void to_sign(T& x, int& isgn) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    const R ax = absval(x);
    x = ax > std::numeric_limits<R>::min() ? T(x.real() / ax, x.imag() / ax) : T(1);
  } else {
    x = x >= R(0) ? R(1) : R(-1);
    isgn = static_cast<int>(x);
  }
}

/// Hager and Higham's estimate of ||A^-1||_1 (LAPACK ?lacn2: real and complex variants, at most 5
/// iterations, the final alternating-sign test vector) by reverse communication, written once for every
/// vector layout V. Returns the estimate (0 when `on` is false). Called by every lane of the warp: V::any
/// tells whether some lane group of the warp still runs, and the groups that are done keep executing V's
/// shuffles with an identity substitution (kind -2), so no shuffle sits in a branch that differs between
/// groups. States 1..5 are LAPACK's isave(1) (jump targets 20, 40, 70, 110, 140); kase 1 = x := A^-1 x
/// (h false), kase 2 = x := A^-H x (h true).
///
/// V provides (T, R its element and real types): any(pred); fill(value); apply(kind, h); sum_abs();
/// argmax() (the first largest |x_i|, NaN never winning, 0 when nothing is a number); sign_changed() (real
/// types: a live entry's sign differs from the one to_sign stored); to_sign(); unit(j) (x := e_j);
/// alternating() (x_i = (-1)^i (1 + i / (n - 1))); entry(j) (x_j, in every lane of the group).
template <class V>
__device__ __forceinline__ typename V::R lacn2(V& v, int n, int kind, bool on) {
  using T = typename V::T;
  using R = typename V::R;
  int state = on ? 1 : 0;
  bool h = false;
  v.fill(T(R(1) / R(n)));
  int j = 0, iter = 0;
  R est = 0, estold = 0;
  while (v.any(state != 0)) {
    v.apply(state != 0 ? kind : -2, h);
    const R s = v.sum_abs();
    const int jm = v.argmax();
    const bool gdiff = v.sign_changed();
    const T xj_last = v.entry(j);
    const T xj_new = v.entry(jm);
    const T x0 = v.entry(0);
    bool to120 = false;
    switch (state) {
      case 1:  // after x := A^-1 (1/n)
        if (n == 1) {
          est = absval(x0);
          state = 0;
          break;
        }
        est = s;
        v.to_sign();
        h = true;
        state = 2;
        break;
      case 2:  // after x := A^-H sign: j = argmax, iter = 2
        j = jm;
        iter = 2;
        v.unit(j);
        h = false;
        state = 3;
        break;
      case 3:  // after x := A^-1 e_j
        estold = est;
        est = s;
        if (!is_complex_v<T> && !gdiff) {
          to120 = true;  // repeated sign vector: converged
          break;
        }
        if (est <= estold) {
          to120 = true;
          break;
        }
        v.to_sign();
        h = true;
        state = 4;
        break;
      case 4: {  // after x := A^-H sign: test the new argmax
        j = jm;
        bool again;
        if constexpr (is_complex_v<T>) again = absval(xj_last) != absval(xj_new);
        else again = xj_last != fabs(xj_new);
        if (again && iter < 5) {
          ++iter;
          v.unit(j);
          h = false;
          state = 3;
        } else {
          to120 = true;
        }
        break;
      }
      case 5: {  // after x := A^-1 (alternating vector)
        const R temp = R(2) * (s / R(3 * n));
        if (temp > est) est = temp;
        state = 0;
        break;
      }
      default: break;
    }
    if (to120) {
      v.alternating();
      h = false;
      state = 5;
    }
  }
  return est;
}

/// lacn2's vector for the lane-group layout: lane gl of a group of W holds x_gl.
template <class T_, int W>
struct group_vec {
  using T = T_;
  using R = real_t<T>;
  const T* sg;
  int gl, n;
  bool live;
  T x = T(0);
  int isgn = 0;

  __device__ bool any(bool p) const { return __any_sync(full_mask, p); }
  __device__ void fill(const T& v) { x = live ? v : T(0); }
  __device__ void apply(int kind, bool h) {
    int f, b;
    subs_of(kind, h, f, b);
    fwd_bwd<T, W>(sg, gl, n, f, b, x);
    if (!live) x = T(0);
  }
  __device__ R sum_abs() const { return gsum<W>(live ? absval(x) : R(0)); }
  __device__ int argmax() const { return gargmax<W>(x, gl, live); }
  __device__ bool sign_changed() const {
    bool diff = false;
    if constexpr (!is_complex_v<T>) diff = live && static_cast<int>(x >= R(0) ? 1 : -1) != isgn;
    const unsigned dball = __ballot_sync(full_mask, diff);  // every lane of the warp votes
    const int gbase = (threadIdx.x & 31) & ~(W - 1);
    return W == 32 ? dball != 0u : ((dball >> gbase) & ((1u << (W & 31)) - 1u)) != 0u;
  }
  __device__ void to_sign() { small_cond::to_sign(x, isgn); }
  __device__ void unit(int j) { x = gl == j ? T(1) : T(0); }
  __device__ void alternating() {
    const R v = R(1) + R(gl) / R(n - 1);
    x = live ? T((gl & 1) ? -v : v) : T(0);
  }
  __device__ T entry(int j) const { return shfl(x, j, W); }
};

/// The estimate for the lane's group. `row` holds the lane's row of the formed matrix before
/// factoring (used for the detection and the 1-norm), `info` the factorization's info; sg the group's
/// staging area, which must hold the formed matrix on entry and which this function fills with the
/// packed factors `fac` (the lane's factored row and its position `pos`) where the kind reads them.
/// Called by every lane of the warp.
template <class T, int W>
struct estimator {
  using R = real_t<T>;
  int kind;
  R anorm;

  /// Detection (kind detect) and the 1-norm, from the rows before factoring.
  __device__ __forceinline__ void prepare(const T (&row)[W], int gl, int n, int kind0) {
    kind = kind0;
    if (kind == static_cast<int>(cond_kind::detect)) {
      int lb = 0, ub = 0;
#pragma unroll
      for (int j = 0; j < W; ++j)
        if (j < n && gl < n && j != gl && row[j] != T(0)) {
          if (gl > j) lb = max(lb, gl - j);
          else ub = max(ub, j - gl);
        }
      lb = gmax_int<W>(lb);
      ub = gmax_int<W>(ub);
      if (lb == 0 && ub == 0) kind = static_cast<int>(cond_kind::diag);
      else if (lb == 1 && ub == 1 && n > 3) kind = static_cast<int>(cond_kind::lu);  // tridiagonal (?gttrf)
      else if (lb == 0) kind = static_cast<int>(cond_kind::tri_u);
      else if (ub == 0) kind = static_cast<int>(cond_kind::tri_l);
      else kind = static_cast<int>(cond_kind::lu);
    }
    // ||A||_1 of the formed matrix (for the triangular kinds the other triangle is zero already).
    R cmax = 0;
#pragma unroll
    for (int j = 0; j < W; ++j) {
      const R s = gsum<W>(gl < n ? absval(row[j]) : R(0));
      if (j < n && (s > cmax || s != s)) cmax = s;
    }
    anorm = cmax;
  }

  /// Runs after the solve; writes the record of matrix g from lane 0 of its group.
  __device__ __forceinline__ void finish(const T (&fac)[W], int pos, T* sg, int gl, int n, int lu_info, bool valid,
                                         std::int64_t g, const small_est_params& e) {
    constexpr R eps = std::numeric_limits<R>::epsilon();
    const bool reads_a = kind >= static_cast<int>(cond_kind::tri_u);
    if (!reads_a) {
#pragma unroll
      for (int j = 0; j < W; ++j)
        if (gl < n) sg[pos * (W + 1) + j] = fac[j];
    }
    __syncwarp();
    // Every shuffle below is executed by every lane of the warp: the groups of a warp may have different
    // kinds and states, so no shuffle sits in a branch that depends on them.
    const bool live = gl < n;
    const T d = live ? sg[gl * (W + 1) + gl] : T(0);
    const int first = gmin_int<W>(live && d == T(0) ? gl : W);
    const int info = reads_a ? (first < W ? first + 1 : 0) : lu_info;
    const R ma = gmax<W>(live ? absval(d) : R(0));
    const R mi = gmax<W>(live ? absval(T(1) / d) : R(0));
    double rcond = 0.0;
    if (info == 0 && kind == static_cast<int>(cond_kind::diag)) rcond = static_cast<double>(ma * mi);
    const bool estimate = info == 0 && kind != static_cast<int>(cond_kind::diag) && anorm == anorm && anorm > R(0);
    if (info == 0 && kind != static_cast<int>(cond_kind::diag) && anorm != anorm) rcond = static_cast<double>(anorm);
    group_vec<T, W> v{sg, gl, n, live};
    const R est = lacn2(v, n, kind, estimate);
    if (estimate && est != R(0)) {
      const R rc = reads_a ? (R(1) / anorm) / est : (R(1) / est) / anorm;
      rcond = static_cast<double>(rc);
    }
    if (valid && gl == 0) {
      e.rec[g].info = info;
      e.rec[g].kind = kind;
      e.rec[g].rcond = rcond;
      const double deps = static_cast<double>(eps);
      const bool bad = info != 0 || (kind == static_cast<int>(cond_kind::diag) ? rcond > 1.0 / deps
                                                                               : (rcond != rcond || rcond < deps));
      if (bad) *e.flag = 1;
    }
  }
};

}  // namespace small_cond
}  // namespace cusci::linalg::detail
