// Batched Cholesky factorization of small matrices (n <= 32) in registers. See small.cuh.

#include "common/small.cuh"

namespace cusci::linalg::detail {
namespace {

/// Factors the Hermitian matrix formed from the chosen triangle (A = L L^H) and writes L (lower) or
/// U = L^H (upper) with the other triangle zero, C order, through the staging area (coalesced).
template <class T, int W, int TPB>
__global__ void __launch_bounds__(TPB) small_cholesky_kernel(const small_params<T> p) {
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
  for (int j = 0; j < W; ++j) sg[gl * (W + 1) + j] = j <= gl ? row[j] : T(0);
  __syncwarp();
  if (valid) {
    T* out = p.x + g * n * n;
    const int nn = n * n;
    for (int e = gl; e < nn; e += W) {
      const int i = e / n, j = e - (e / n) * n;
      out[e] = p.lower ? sg[i * (W + 1) + j] : conj_elem(sg[j * (W + 1) + i]);
    }
  }

  store_status<T, W>(p, L, bad, info);
}

template <class T>
void run(const small_params<T>& p) {
  launch_for_width(p, [](auto w) { return small_cholesky_kernel<T, decltype(w)::value, small_tpb<T>>; });
}

}  // namespace

void small_cholesky(dtype t, const batch_view& a, std::int64_t nbatch, int n, bool lower, bool check, void* c,
                    int* info, int* status) {
  dispatch_lapack(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run<T>(make_small_params<T>(a, fill_mode::her, lower, nullptr, nbatch, n, 0, check, c, info, status));
  });
}

}  // namespace cusci::linalg::detail
