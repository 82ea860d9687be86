// Fused Cholesky factor-and-solve kernel for batches of small positive definite systems (n <= 32).
// See small.cuh for the data layout.

#include "common/small.cuh"

namespace cusci::linalg::detail {
namespace {

/// Cholesky of the Hermitian matrix formed from the chosen triangle, then L y = b, L^H x = y.
template <class T, int W, int TPB>
__global__ void __launch_bounds__(TPB) small_chol_solve_kernel(const small_params<T> p) {
  __shared__ alignas(16) unsigned char smraw[TPB * (W + 1) * sizeof(T)];
  const small_lane<T, W> L = small_lane_of<T, W, TPB>(reinterpret_cast<T*>(smraw), p);
  const int gl = L.gl, n = p.n;
  const std::int64_t g = L.g;
  const bool valid = L.valid, real_row = L.real_row;
  T* const sg = L.sg;
  bool bad = false;
  T row[W];
  load_rows<T, W>(p, L, static_cast<int>(fill_mode::her), row, bad);

  const int info = chol_factor<T, W>(row, gl, n);

  __syncwarp();
#pragma unroll
  for (int j = 0; j < W; ++j) sg[gl * (W + 1) + j] = row[j];
  __syncwarp();

  const char* bbase = valid ? p.b + p.bix.offset(g) : nullptr;
  for (std::int64_t c = 0; c < p.nrhs; ++c) {
    T y = T(0);
    if (valid && real_row) {
      y = load_at<T>(bbase, p.b_sr, p.b_sc, gl, c);
      if (!is_finite_elem(y)) bad = true;
    }
#pragma unroll
    for (int k = 0; k < W; ++k) {  // L y = b
      if (k < n) {
        if (gl == k) y = y / row[k];
        const T yk = shfl(y, k, W);
        if (real_row && gl > k) y -= row[k] * yk;
      }
    }
#pragma unroll
    for (int k = W - 1; k >= 0; --k) {  // L^H x = y
      if (k < n) {
        if (gl == k) y = y / row[k];
        const T xk = shfl(y, k, W);
        if (real_row && gl < k) y -= conj_elem(sg[k * (W + 1) + gl]) * xk;
      }
    }
    if (valid && real_row) p.x[(g * n + gl) * p.nrhs + c] = y;
  }

  store_status<T, W>(p, L, bad, info);
}

template <class T>
void run_chol(const small_params<T>& p) {
  launch_for_width(p, [](auto w) { return small_chol_solve_kernel<T, decltype(w)::value, small_tpb<T>>; });
}

}  // namespace

void small_chol_solve(dtype t, const batch_view& a, bool lower, const batch_view& b, std::int64_t nbatch,
                      int n, std::int64_t nrhs, bool check, void* x, int* info, int* status) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_chol<T>(make_small_params<T>(a, fill_mode::her, lower, &b, nbatch, n, nrhs, check, x, info, status));
  });
}

}  // namespace cusci::linalg::detail
