// Fused LU factor-and-solve kernel for batches of systems of order 33..64 (float32, float64, complex64),
// with solve's condition estimate of each matrix in the same kernel: the medium engine
// (common/medium.cuh: one block of 256 threads a matrix, the matrix in shared memory).
//
// The estimate is small_cond.cuh's (SciPy's structure detection, the 1-norm, Hager and Higham's ?lacn2)
// for this layout: the detection and the 1-norm read the formed matrix before the factorization (thread
// j sums column j, in row order as ?lange); the kinds that read A itself (triangular, diagonal) are
// estimated then, the others after the factorization from the packed L\U factors, which the elimination
// leaves in position order. Warp 0 runs ?lacn2 with two entries of its vector a lane (x_l and x_{l+32}),
// one shuffle a substitution column; the right-hand sides are solved the same way, a warp a column.

#include "common/medium.cuh"
#include "solve/small_cond.cuh"

namespace cusci::linalg::detail {
namespace {

namespace md = medium;

/// ||A||_1 (NaN if any column sum is) and, for kind detect, the structure SciPy's detection finds, from the
/// formed matrix in s.a (threads 0..63: a column each). Called by every thread of the block; ends with a
/// barrier.
template <class T>
__device__ __forceinline__ void prepare(md::smem<T>& s, int tid, int n, int& kind, real_t<T>& anorm) {
  using R = real_t<T>;
  if (tid < md::W) {  // warps 0 and 1, whole
    int lb = 0, ub = 0;
    R cs = 0;
    if (tid < n) {
      for (int i = 0; i < n; ++i) {
        const T v = s.a[i * md::LD + tid];
        cs += absval(v);
        if (i != tid && v != T(0)) {
          if (i > tid) lb = max(lb, i - tid);
          else ub = max(ub, tid - i);
        }
      }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      const R o = __shfl_xor_sync(full_mask, cs, off);
      if (o > cs || o != o) cs = o;
      lb = max(lb, __shfl_xor_sync(full_mask, lb, off));
      ub = max(ub, __shfl_xor_sync(full_mask, ub, off));
    }
    if ((tid & 31) == 0) {
      s.rv[tid >> 5] = cs;
      s.ri[tid >> 5] = lb;
      s.ri[2 + (tid >> 5)] = ub;
    }
  }
  __syncthreads();
  const R c0 = s.rv[0], c1 = s.rv[1];
  anorm = (c1 > c0 || c1 != c1) ? c1 : c0;
  const int lb = max(s.ri[0], s.ri[1]);
  const int ub = max(s.ri[2], s.ri[3]);
  if (kind == static_cast<int>(cond_kind::detect)) {
    if (lb == 0 && ub == 0) kind = static_cast<int>(cond_kind::diag);
    else if (lb == 1 && ub == 1 && n > 3) kind = static_cast<int>(cond_kind::lu);  // tridiagonal (?gttrf)
    else if (lb == 0) kind = static_cast<int>(cond_kind::tri_u);
    else if (ub == 0) kind = static_cast<int>(cond_kind::tri_l);
    else kind = static_cast<int>(cond_kind::lu);
  }
  __syncthreads();  // s.rv / s.ri are free again
}

template <class R>
__device__ __forceinline__ R wsum(R v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(full_mask, v, off);
  return v;
}

/// Largest value over the warp, NaN propagating (as LAPACK's ?lange).
template <class R>
__device__ __forceinline__ R wmax(R v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const R o = __shfl_xor_sync(full_mask, v, off);
    if (o > v || o != o) v = o;
  }
  return v;
}

/// First index of the largest |x_i| over the 64 entries (lane l: x_l, x_{l+32}); NaN never wins; 0 when
/// nothing is a number.
template <class T>
__device__ __forceinline__ int wargmax(const T& xl, const T& xh, int lane, bool live_h) {
  using R = real_t<T>;
  R v = absval(xl);
  if (v != v) v = R(-1);
  int bi = lane;
  R vh = live_h ? absval(xh) : R(-1);
  if (vh != vh) vh = R(-1);
  if (vh > v) {
    v = vh;
    bi = lane + 32;
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const R ov = __shfl_xor_sync(full_mask, v, off);
    const int oi = __shfl_xor_sync(full_mask, bi, off);
    if (ov > v || (ov == v && oi < bi)) {
      v = ov;
      bi = oi;
    }
  }
  return v < R(0) ? 0 : bi;
}

/// Entry i of the vector (the same in every lane).
template <class T>
__device__ __forceinline__ T entry(const T& xl, const T& xh, int i) {
  return shfl(i >= 32 ? xh : xl, i & 31, 32);
}

template <class T>
__device__ __forceinline__ T coef(const T* sg, int f, int i, int k) {
  using namespace small_cond;
  return (f == rows || f == rows_unit) ? sg[i * md::LD + k] : conj_elem(sg[k * md::LD + i]);
}

/// small_cond::fwd_bwd for the warp's two entries a lane.
template <class T>
__device__ __forceinline__ void fwd_bwd2(const T* sg, int lane, int n, int f, int b, T& xl, T& xh) {
  using namespace small_cond;
  const bool live_h = lane + 32 < n;
  const int il = lane, ih = lane + 32;
  for (int k = 0; k < n; ++k) {
    const bool hi = k >= 32;
    if (lane == (k & 31) && (f == rows || f == cols_h)) {
      const T d = f == rows ? sg[k * md::LD + k] : conj_elem(sg[k * md::LD + k]);
      if (hi) xh = xh / d;
      else xl = xl / d;
    }
    const T xk = shfl(hi ? xh : xl, k & 31, 32);
    if (f != none) {
      if (il > k) xl -= coef(sg, f, il, k) * xk;
      if (live_h && ih > k) xh -= coef(sg, f, ih, k) * xk;
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    const bool hi = k >= 32;
    if (lane == (k & 31) && (b == rows || b == cols_h)) {
      const T d = b == rows ? sg[k * md::LD + k] : conj_elem(sg[k * md::LD + k]);
      if (hi) xh = xh / d;
      else xl = xl / d;
    }
    const T xk = shfl(hi ? xh : xl, k & 31, 32);
    if (b != none) {
      if (il < k) xl -= coef(sg, b, il, k) * xk;
      if (live_h && ih < k) xh -= coef(sg, b, ih, k) * xk;
    }
  }
}

/// small_cond::lacn2's vector for one warp and one matrix: lane l holds x_l and x_{l+32}.
template <class T_>
struct warp2_vec {
  using T = T_;
  using R = real_t<T>;
  const T* sg;
  int lane, n;
  bool live_h;
  T xl = T(0), xh = T(0);
  int sl = 0, sh = 0;

  __device__ bool any(bool p) const { return __any_sync(full_mask, p); }
  __device__ void fill(const T& v) {
    xl = v;
    xh = live_h ? v : T(0);
  }
  __device__ void apply(int kind, bool h) {
    int f, b;
    small_cond::subs_of(kind, h, f, b);
    fwd_bwd2(sg, lane, n, f, b, xl, xh);
    if (!live_h) xh = T(0);
  }
  __device__ R sum_abs() const { return wsum(absval(xl) + (live_h ? absval(xh) : R(0))); }
  __device__ int argmax() const { return wargmax(xl, xh, lane, live_h); }
  __device__ bool sign_changed() const {
    bool diff = false;
    if constexpr (!is_complex_v<T>)
      diff = static_cast<int>(xl >= R(0) ? 1 : -1) != sl || (live_h && static_cast<int>(xh >= R(0) ? 1 : -1) != sh);
    return __any_sync(full_mask, diff);
  }
  __device__ void to_sign() {
    small_cond::to_sign(xl, sl);
    small_cond::to_sign(xh, sh);
  }
  __device__ void unit(int j) {
    xl = lane == j ? T(1) : T(0);
    xh = lane + 32 == j ? T(1) : T(0);
  }
  __device__ void alternating() {
    const R vl = R(1) + R(lane) / R(n - 1), vh = R(1) + R(lane + 32) / R(n - 1);
    xl = T((lane & 1) ? -vl : vl);
    xh = live_h ? T((lane & 1) ? -vh : vh) : T(0);
  }
  __device__ T entry(int j) const { return ::cusci::linalg::detail::entry(xl, xh, j); }
};

/// The estimate of matrix g by warp 0 (small_cond::estimator::finish with two entries a lane): sg holds
/// the packed factors in position order, or the formed matrix for the kinds that read A.
template <class T>
__device__ void estimate(const T* sg, int lane, int n, int kind, real_t<T> anorm, int lu_info, std::int64_t g,
                         const small_est_params& e) {
  using R = real_t<T>;
  using namespace small_cond;
  constexpr R eps = std::numeric_limits<R>::epsilon();
  const bool reads_a = kind >= static_cast<int>(cond_kind::tri_u);
  const bool live_h = lane + 32 < n;
  const T dl = sg[lane * md::LD + lane];
  const T dh = live_h ? sg[(lane + 32) * md::LD + lane + 32] : T(0);
  int z = dl == T(0) ? lane : md::W;
  if (live_h && dh == T(0) && z == md::W) z = lane + 32;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) z = min(z, __shfl_xor_sync(full_mask, z, off));
  const int info = reads_a ? (z < md::W ? z + 1 : 0) : lu_info;
  R ma = absval(dl), mi = absval(T(1) / dl);
  if (live_h) {
    const R a2 = absval(dh), i2 = absval(T(1) / dh);
    if (a2 > ma || a2 != a2) ma = a2;
    if (i2 > mi || i2 != i2) mi = i2;
  }
  ma = wmax(ma);
  mi = wmax(mi);
  double rcond = 0.0;
  if (info == 0 && kind == static_cast<int>(cond_kind::diag)) rcond = static_cast<double>(ma * mi);
  const bool est_on = info == 0 && kind != static_cast<int>(cond_kind::diag) && anorm == anorm && anorm > R(0);
  if (info == 0 && kind != static_cast<int>(cond_kind::diag) && anorm != anorm) rcond = static_cast<double>(anorm);
  warp2_vec<T> v{sg, lane, n, live_h};
  const R est = small_cond::lacn2(v, n, kind, est_on);
  if (est_on && est != R(0)) {
    const R rc = reads_a ? (R(1) / anorm) / est : (R(1) / est) / anorm;
    rcond = static_cast<double>(rc);
  }
  if (lane == 0) {
    e.rec[g].info = info;
    e.rec[g].kind = kind;
    e.rec[g].rcond = rcond;
    const double deps = static_cast<double>(eps);
    const bool bad = info != 0 || (kind == static_cast<int>(cond_kind::diag) ? rcond > 1.0 / deps
                                                                             : (rcond != rcond || rcond < deps));
    if (bad) *e.flag = 1;
  }
}

/// Load, detection and 1-norm, then LU with ?getf2's pivoting (medium::eliminate), the substitutions
/// for every right-hand side (warp w: columns w, w + 8, ...) and the estimate (warp 0).
template <class T>
__global__ void __launch_bounds__(md::TPB) medium_lu_kernel(const small_params<T> p, const small_est_params e) {
  using R = real_t<T>;
  md::smem<T>& s = md::shared_area<T>();
  const int tid = threadIdx.x, n = p.n, lane = tid & 31, warp = tid >> 5;
  const std::int64_t g = blockIdx.x;
  bool bad = false;
  md::load(p, g, s, bad);
  int kind = e.kind;
  R anorm = 0;
  prepare(s, tid, n, kind, anorm);
  const bool reads_a = kind >= static_cast<int>(cond_kind::tri_u);
  if (reads_a) {  // the estimate reads A itself: before the elimination overwrites it
    if (warp == 0) estimate<T>(s.a, lane, n, kind, anorm, 0, g, e);
    __syncthreads();
  }
  const int info = md::eliminate<T, md::factor>(s, n);
  if (tid == 0) {  // prm: where each position's row came from (the interchanges applied in order)
    for (int i = 0; i < n; ++i) s.prm[i] = i;
    for (int k = 0; k < n; ++k) {
      const int pk = s.pivrow[k];
      const int t = s.prm[k];
      s.prm[k] = s.prm[pk];
      s.prm[pk] = t;
    }
  }
  __syncthreads();
  // L U x = P b, a warp a column, lane l holding x_l and x_{l+32}.
  const bool live_h = lane + 32 < n;
  const char* bbase = p.b + p.bix.offset(g);
  for (std::int64_t c = warp; c < p.nrhs; c += md::TPB / 32) {
    T xl = load_at<T>(bbase, p.b_sr, p.b_sc, s.prm[lane], c);
    T xh = live_h ? load_at<T>(bbase, p.b_sr, p.b_sc, s.prm[lane + 32], c) : T(0);
    if (!is_finite_elem(xl) || !is_finite_elem(xh)) bad = true;
    fwd_bwd2(s.a, lane, n, small_cond::rows_unit, small_cond::rows, xl, xh);
    p.x[(g * n + lane) * p.nrhs + c] = xl;
    if (live_h) p.x[(g * n + lane + 32) * p.nrhs + c] = xh;
  }
  if (p.check && bad) p.status[0] = 1;
  if (tid == 0) {
    p.info[g] = info;
    if (info != 0) p.status[1] = 1;
  }
  if (!reads_a && warp == 0) estimate<T>(s.a, lane, n, kind, anorm, info, g, e);
}

template <class T>
void run(const small_params<T>& p, const small_est_params& e) {
  CUSCI_EXPECTS(p.nbatch <= std::numeric_limits<int>::max(), value_error,
                "cusci::linalg: batch of " + std::to_string(p.nbatch) + " matrices is too large");
  if (p.nbatch == 0) return;
  medium_lu_kernel<T><<<static_cast<unsigned>(p.nbatch), md::TPB, 0, get_current_stream()>>>(p, e);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void medium_lu_solve_estimate(dtype t, const batch_view& a, fill_mode mode, bool lower, cond_kind kind,
                              const batch_view& b, std::int64_t nbatch, int n, std::int64_t nrhs, bool check, void* x,
                              int* info, int* status, slice_record* rec, int* flag) {
  CUSCI_EXPECTS(kind == cond_kind::lu || kind == cond_kind::detect || kind == cond_kind::tri_u ||
                    kind == cond_kind::tri_l || kind == cond_kind::diag,
                value_error, "cusci::linalg::solve: the fused estimate takes the kinds lu, detect, tri_u, tri_l, diag");
  CUSCI_EXPECTS(md::fits(t, n), value_error, "cusci::linalg::solve: internal: the medium kernel takes orders 33..64");
  const small_est_params e{rec, flag, static_cast<int>(kind)};
  switch (t) {
    case dtype::float32: run<float>(make_small_params<float>(a, mode, lower, &b, nbatch, n, nrhs, check, x, info, status), e); break;
    case dtype::float64: run<double>(make_small_params<double>(a, mode, lower, &b, nbatch, n, nrhs, check, x, info, status), e); break;
    default:
      run<cuda::std::complex<float>>(
          make_small_params<cuda::std::complex<float>>(a, mode, lower, &b, nbatch, n, nrhs, check, x, info, status), e);
      break;
  }
}

}  // namespace cusci::linalg::detail
