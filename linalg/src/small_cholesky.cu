// Batched Cholesky factorization of small matrices (n <= 32) in registers. See small.cuh.

#include "small.cuh"

namespace cusci::linalg::detail {
namespace {

/// Factors the Hermitian matrix formed from the chosen triangle (A = L L^H) and writes L (lower) or
/// U = L^H (upper) with the other triangle zero, C order, through the staging area (coalesced).
template <class T, int W, int TPB>
__global__ void __launch_bounds__(TPB) small_cholesky_kernel(const small_params<T> p) {
  __shared__ alignas(16) unsigned char smraw[TPB * (W + 1) * sizeof(T)];
  T* sm = reinterpret_cast<T*>(smraw);
  const int lane = threadIdx.x & 31;
  const int gl = lane & (W - 1);
  const std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * (TPB / W) + threadIdx.x / W;
  const bool valid = g < p.nbatch;
  T* sg = sm + static_cast<std::size_t>(threadIdx.x - gl) * (W + 1);
  const int n = p.n;
  const bool real_row = gl < n;
  bool bad = false;

  if (valid) load_group<T, W>(p, g, gl, sg, static_cast<int>(fill_mode::her), bad);
  __syncwarp();
  T row[W];
#pragma unroll
  for (int j = 0; j < W; ++j) row[j] = (valid && real_row && j < n) ? sg[gl * (W + 1) + j] : T(0);

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

  if (p.check && bad) p.status[0] = 1;
  if (valid && gl == 0) {
    p.info[g] = info;
    if (info != 0) p.status[1] = 1;
  }
}

template <class T>
void run(const small_params<T>& p) {
  constexpr int tpb = small_tpb<T>;
  switch (small_width(p.n)) {
    case 4: launch_small<T, 4>(small_cholesky_kernel<T, 4, tpb>, p); break;
    case 8: launch_small<T, 8>(small_cholesky_kernel<T, 8, tpb>, p); break;
    case 16: launch_small<T, 16>(small_cholesky_kernel<T, 16, tpb>, p); break;
    default: launch_small<T, 32>(small_cholesky_kernel<T, 32, tpb>, p); break;
  }
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
