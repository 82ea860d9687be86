// lfilter: direct form II transposed IIR filtering (chunked parallel recurrence, recurrence.cuh),
// a direct-convolution kernel for FIR filters (a == [a0]), and a sequential kernel for IIR filters
// whose state exceeds the chunked path's 32 entries.

#include <algorithm>
#include <string>

#include "cusci/signal/filtering.hpp"
#include "cusci/stream.hpp"
#include "filtering/filter_common.hpp"
#include "filtering/recurrence.cuh"

namespace cusci::signal {
namespace detail {
namespace {

// Direct form II transposed of order MK (coefficients normalised, zero-padded to MK + 1; the padded
// state entries stay exactly zero). Same operation order as SciPy's C loop:
//   y = b0 x + z0;  z_i = z_{i+1} + x b_{i+1} - y a_{i+1};  z_{K-1} = x b_K - y a_K.
template <class T, int MK>
struct df2t_policy {
  using value_type = T;
  struct params {
    T b[MK + 1];
    T a[MK + 1];
  };
  T z[MK];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < MK; ++i) z[i] = T(0);
  }
  template <class S>
  __device__ __forceinline__ void load(const S* s, int D) {
#pragma unroll
    for (int i = 0; i < MK; ++i)
      if (i < D) z[i] = static_cast<T>(s[i]);
  }
  template <class S>
  __device__ __forceinline__ void store(S* s, int D) const {
#pragma unroll
    for (int i = 0; i < MK; ++i)
      if (i < D) s[i] = static_cast<S>(z[i]);
  }
  __device__ __forceinline__ T step(T x, const params& p) {
    const T y = p.b[0] * x + z[0];
#pragma unroll
    for (int i = 0; i < MK - 1; ++i) z[i] = z[i + 1] + x * p.b[i + 1] - y * p.a[i + 1];
    z[MK - 1] = x * p.b[MK] - y * p.a[MK];
    return y;
  }
};

template <class T>
__global__ void fir_kernel(const T* __restrict__ b, std::int64_t M, const T* __restrict__ x, T* __restrict__ y,
                           std::int64_t nb, std::int64_t N, const double* __restrict__ zi, std::int64_t K,
                           T* __restrict__ zf) {
  const std::int64_t per = N + (zf != nullptr ? K : 0);
  const std::int64_t total = nb * per;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t sig = idx / per, m = idx - sig * per;
    const std::int64_t kmin = max(std::int64_t{0}, m - (N - 1)), kmax = min(M - 1, m);
    const T* xs = x + sig * N + m;
    T acc = T(0);
    for (std::int64_t k = kmin; k <= kmax; ++k) acc += b[k] * xs[-k];
    if (zi != nullptr && m < K) acc += static_cast<T>(zi[sig * K + m]);
    if (m < N)
      y[sig * N + m] = acc;
    else
      zf[sig * K + (m - N)] = acc;
  }
}

// One thread per signal, state in global scratch: IIR filters with more than 32 state entries.
template <class T>
__global__ void df2t_sequential(const T* __restrict__ b, const T* __restrict__ a, int K, const T* __restrict__ x,
                                T* __restrict__ y, std::int64_t nb, std::int64_t N, const double* __restrict__ zi,
                                T* __restrict__ zf, T* __restrict__ scratch) {
  const std::int64_t sig = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (sig >= nb) return;
  T* z = scratch + sig * K;
  for (int i = 0; i < K; ++i) z[i] = zi != nullptr ? static_cast<T>(zi[sig * K + i]) : T(0);
  for (std::int64_t n = 0; n < N; ++n) {
    const T xv = x[sig * N + n];
    const T yv = b[0] * xv + z[0];
    for (int i = 0; i < K - 1; ++i) z[i] = z[i + 1] + xv * b[i + 1] - yv * a[i + 1];
    z[K - 1] = xv * b[K] - yv * a[K];
    y[sig * N + n] = yv;
  }
  if (zf != nullptr)
    for (int i = 0; i < K; ++i) zf[sig * K + i] = z[i];
}

template <class T, int MK>
void run_df2t(const std::vector<double>& bn, const std::vector<double>& an, int K, const T* x, T* y, std::int64_t nb,
              std::int64_t N, const double* zi, T* zf, cudaStream_t stream) {
  typename df2t_policy<T, MK>::params prm{};
  for (int i = 0; i <= K; ++i) {
    prm.b[i] = static_cast<T>(bn[i]);
    prm.a[i] = static_cast<T>(an[i]);
  }
  // One step of the zero-input recurrence from each unit state: the columns of A.
  matrix A(static_cast<std::size_t>(K * K), 0.0);
  for (int j = 0; j < K; ++j) {
    std::vector<double> z(static_cast<std::size_t>(K), 0.0), zn(static_cast<std::size_t>(K), 0.0);
    z[j] = 1.0;
    const double yv = z[0];
    for (int i = 0; i < K - 1; ++i) zn[i] = z[i + 1] - yv * an[i + 1];
    zn[K - 1] = -yv * an[K];
    for (int i = 0; i < K; ++i) A[i * K + j] = zn[i];
  }
  run_recurrence<df2t_policy<T, MK>>(prm, K, A, x, y, nb, N, zi, K, zf, K, stream);
}

template <class T>
void lfilter_typed(const std::vector<double>& bn, const std::vector<double>& an, bool fir, const ndarray& xc,
                   ndarray& yc, const double* zi, T* zf) {
  cudaStream_t stream = get_current_stream();
  const std::int64_t N = xc.shape().back();
  const std::int64_t nb = N > 0 ? xc.size() / N : 0;
  const T* x = xc.data_as<T>();
  T* y = yc.data_as<T>();
  if (fir) {
    const std::int64_t M = static_cast<std::int64_t>(bn.size()), K = M - 1;
    std::vector<T> bt(bn.begin(), bn.end());
    ndarray bd = cusci::asarray(bt);
    const std::int64_t total = nb * (N + (zf != nullptr ? K : 0));
    if (total == 0) return;
    const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>((total + 255) / 256, 65535LL * 32));
    fir_kernel<T><<<grid, 256, 0, stream>>>(bd.data_as<T>(), M, x, y, nb, N, zi, K, zf);
    CUSCI_CHECK_LAUNCH();
    return;
  }
  const int K = static_cast<int>(bn.size()) - 1;
  if (nb == 0) return;
  if (N == 0) return;  // the caller sets zf = zi
  switch (K <= 1 ? 1 : K <= 2 ? 2 : K <= 4 ? 4 : K <= 8 ? 8 : K <= 16 ? 16 : K <= 32 ? 32 : 0) {
    case 1: run_df2t<T, 1>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 2: run_df2t<T, 2>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 4: run_df2t<T, 4>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 8: run_df2t<T, 8>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 16: run_df2t<T, 16>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 32: run_df2t<T, 32>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    default: {
      std::vector<T> bt(bn.begin(), bn.end()), at(an.begin(), an.end());
      ndarray bd = cusci::asarray(bt), ad = cusci::asarray(at);
      device_buffer<T> scratch(static_cast<std::size_t>(nb * K), stream);
      const unsigned grid = static_cast<unsigned>((nb + 127) / 128);
      df2t_sequential<T><<<grid, 128, 0, stream>>>(bd.data_as<T>(), ad.data_as<T>(), K, x, y, nb, N, zi, zf,
                                                   scratch.data());
      CUSCI_CHECK_LAUNCH();
    }
  }
}

struct lfilter_out {
  ndarray y, zf;
};

lfilter_out lfilter_impl(const array_like& b, const array_like& a, const ndarray& x, const array_like* zi, int axis_in) {
  const std::string F = "cusci::signal::lfilter";
  std::vector<double> bv = coeff_vector(b, F, "b"), av = coeff_vector(a, F, "a");
  const bool fir = av.size() == 1;
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, F + ": x must be at least 1-D");
  const int axis = normalize_axis(axis_in, x.ndim(), F);
  std::vector<dtype> dts{b.dtype(), a.dtype(), x.dtype()};
  if (zi) dts.push_back(zi->dtype());
  const dtype dt = filter_result_dtype(dts, F);
  CUSCI_EXPECTS(av[0] != 0, value_error, F + ": BUG: filter coefficient a[0] == 0 not supported yet");
  if (fir) CUSCI_EXPECTS(x.size() > 0, value_error, F + ": the FIR path (len(a) == 1) needs a non-empty x (as SciPy)");
  // Normalise by a[0] and pad b and a to the same length.
  const std::size_t n = std::max(bv.size(), av.size());
  const double a0 = av[0];
  for (auto& v : bv) v /= a0;
  for (auto& v : av) v /= a0;
  if (!fir) {
    bv.resize(n, 0.0);
    av.resize(n, 0.0);
  }
  const std::int64_t K = static_cast<std::int64_t>(fir ? bv.size() : n) - 1;

  ndarray zi64;
  if (zi) {
    ndarray zd = zi->to_device();
    shape_t expected = x.shape();
    expected[static_cast<std::size_t>(axis)] = K;
    CUSCI_EXPECTS(zd.ndim() == x.ndim(), value_error,
                  F + ": Dimensions of parameters x and zi must match, but x.ndim=" + std::to_string(x.ndim()) +
                      ", zi.ndim=" + std::to_string(zd.ndim()) + "!");
    for (int d = 0; d < x.ndim(); ++d) {
      const auto zs = zd.shape()[static_cast<std::size_t>(d)], es = expected[static_cast<std::size_t>(d)];
      CUSCI_EXPECTS(zs == es || (d != axis && zs == 1), value_error,
                    F + ": Unexpected shape for parameter zi: expected " + shape_str(expected) + ", found " +
                        shape_str(zd.shape()) + ".");
    }
    if (zd.shape() != expected) zd = zd.broadcast_to(expected);
    zi64 = canonical(zd, axis, dtype::float64);
  }
  const ndarray xc = canonical(x, axis, dt);
  ndarray yc = empty(xc.shape(), dt);
  shape_t zshape = xc.shape();
  zshape.back() = K;
  ndarray zfc;
  if (zi) zfc = empty(zshape, dt);
  const double* zip = (zi && zi64.size() > 0) ? zi64.data_as<double>() : nullptr;
  const std::int64_t N = xc.shape().back();
  if (!fir && zi && N == 0) {
    zfc = zi64.astype(dt);  // nothing filtered: the final state is the initial state
  } else if (dt == dtype::float32) {
    lfilter_typed<float>(bv, av, fir, xc, yc, zip, zi && zfc.size() > 0 ? zfc.data_as<float>() : nullptr);
  } else {
    lfilter_typed<double>(bv, av, fir, xc, yc, zip, zi && zfc.size() > 0 ? zfc.data_as<double>() : nullptr);
  }
  lfilter_out out;
  out.y = move_last_axis_to(yc, axis);
  if (zi) out.zf = move_last_axis_to(zfc, axis);
  return out;
}

}  // namespace
}  // namespace detail

ndarray lfilter(const array_like& b, const array_like& a, const ndarray& x, const lfilter_options& opts) {
  return detail::lfilter_impl(b, a, x, nullptr, opts.axis).y;
}

filter_result lfilter(const array_like& b, const array_like& a, const ndarray& x, const array_like& zi,
                      const lfilter_options& opts) {
  auto r = detail::lfilter_impl(b, a, x, &zi, opts.axis);
  return {r.y, r.zf};
}

}  // namespace cusci::signal
