// Register-resident LU factorization (LAPACK ?getf2's partial pivoting) of batches of m x n matrices with
// max(m, n) <= 32, writing LAPACK's packed factors and 0-based pivots. Same data layout as the solve
// family's small_lu kernel (common/small.cuh): a group of W = small_width(max(m, n)) lanes owns a matrix,
// lane i holds row i; rows past m are padding that never pivots, columns past n are zero.

#include "common/small.cuh"
#include "lu/lu_engine.hpp"

namespace cusci::linalg::detail {
namespace {

/// p.n = m (rows), p.nrhs = n (columns); p.x = lu (C order), `piv` 0-based.
template <class T, int W, int TPB>
__global__ void __launch_bounds__(TPB) small_lu_factor_kernel(const small_params<T> p, int* __restrict__ piv) {
  using R = real_t<T>;
  __shared__ alignas(16) unsigned char smraw[TPB * (W + 1) * sizeof(T)];
  const small_lane<T, W> L = small_lane_of<T, W, TPB>(reinterpret_cast<T*>(smraw), p);
  const int gl = L.gl, m = p.n, n = static_cast<int>(p.nrhs);
  const int kmax = m < n ? m : n;
  const std::int64_t g = L.g;
  const bool valid = L.valid, real_row = L.real_row;
  bool bad = false;

  // Coalesced staging of the m x n matrix (the square loader of small.cuh reads n x n).
  if (valid) {
    const char* base = p.a + p.aix.offset(g);
    const int mn = m * n;
    for (int e = gl; e < mn; e += W) {
      int i, j;
      if (p.a_rowfast) {
        j = e / m;
        i = e - j * m;
      } else {
        i = e / n;
        j = e - i * n;
      }
      const T v = load_at<T>(base, p.a_sr, p.a_sc, i, j);
      if (!is_finite_elem(v)) bad = true;
      L.sg[i * (W + 1) + j] = v;
    }
  }
  __syncwarp();
  T row[W];
#pragma unroll
  for (int j = 0; j < W; ++j) row[j] = (valid && real_row && j < n) ? L.sg[gl * (W + 1) + j] : T(0);

  constexpr R sfmin = std::numeric_limits<R>::min();
  int pos = gl;
  int info = 0;
#pragma unroll
  for (int k = 0; k < W; ++k) {
    if (k < kmax) {
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
      if (valid && gl == 0) piv[g * kmax + k] = bp;  // row k was interchanged with row bp
      if (gl == bl) pos = k;
      else if (pos == k) pos = bp;
      const T pv = shfl(row[k], bl, W);
      const bool zero = pv == T(0);
      if (zero && info == 0) info = k + 1;
      const bool upd = real_row && pos > k;
      if (upd && !zero) row[k] = absval(pv) >= sfmin ? row[k] * (T(1) / pv) : row[k] / pv;
      const T l = row[k];
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T pj = shfl(row[j], bl, W);
        if (upd) row[j] -= l * pj;
      }
    }
  }

  // Lane at final position pos holds row pos of the packed factors. Written through shared memory so
  // that the global stores are coalesced.
  __syncwarp();
  if (valid && real_row) {
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (j < n) L.sg[pos * (W + 1) + j] = row[j];
  }
  __syncwarp();
  if (valid) {
    T* out = p.x + g * static_cast<std::int64_t>(m) * n;
    const int mn = m * n;
    for (int e = gl; e < mn; e += W) {
      const int i = e / n, j = e - i * n;
      out[e] = L.sg[i * (W + 1) + j];
    }
  }
  store_status<T, W>(p, L, bad, info);
}

template <class T>
void run_factor(const small_params<T>& p, int* piv) {
  constexpr int tpb = small_tpb<T>;
  const int w = small_width(p.n > p.nrhs ? p.n : static_cast<int>(p.nrhs));
  auto go = [&](auto wc) {
    constexpr int W = decltype(wc)::value;
    constexpr std::int64_t per_block = tpb / W;
    const std::int64_t grid = (p.nbatch + per_block - 1) / per_block;
    CUSCI_EXPECTS(grid <= std::numeric_limits<int>::max(), value_error,
                  "cusci::linalg: batch of " + std::to_string(p.nbatch) + " matrices is too large");
    if (grid == 0) return;
    small_lu_factor_kernel<T, W, tpb><<<static_cast<unsigned>(grid), tpb, 0, get_current_stream()>>>(p, piv);
    CUSCI_CHECK_LAUNCH();
  };
  switch (w) {
    case 4: go(std::integral_constant<int, 4>{}); break;
    case 8: go(std::integral_constant<int, 8>{}); break;
    case 16: go(std::integral_constant<int, 16>{}); break;
    default: go(std::integral_constant<int, 32>{}); break;
  }
}

}  // namespace

void small_lu_factor(dtype t, const batch_view& a, std::int64_t nbatch, int m, int n, bool check, void* lu, int* piv,
                     int* info, int* status) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // small_params' `n` is the row count (lanes), `nrhs` the column count.
    run_factor<T>(make_small_params<T>(a, fill_mode::full, false, nullptr, nbatch, m, n, check, lu, info, status),
                  piv);
  });
}

}  // namespace cusci::linalg::detail
