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
// state entries stay exactly zero), computed in CT (float64 or complex128) whatever the data type T.
// Same operation order as SciPy's C loop:
//   y = b0 x + z0;  z_i = z_{i+1} + x b_{i+1} - y a_{i+1};  z_{K-1} = x b_K - y a_K.
template <class T, class CT, int MK, class In = T>
struct df2t_policy {
  using value_type = T;
  using input_type = In;
  using compute_type = CT;
  static constexpr int width = is_complex_t<CT>::value ? 2 : 1;  // doubles per state entry
  struct params {
    CT b[MK + 1];
    CT a[MK + 1];
  };
  CT z[MK];
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < MK; ++i) z[i] = CT(0);
  }
  __device__ __forceinline__ void load(const double* s, int D) {
#pragma unroll
    for (int i = 0; i < MK; ++i)
      if (i * width < D) z[i] = load_state<CT>(s + i * width);
  }
  __device__ __forceinline__ void store(double* s, int D) const {
#pragma unroll
    for (int i = 0; i < MK; ++i)
      if (i * width < D) store_state(s + i * width, z[i]);
  }
  __device__ __forceinline__ void store_out(T* s, int D) const {
#pragma unroll
    for (int i = 0; i < MK; ++i)
      if (i * width < D) s[i] = static_cast<T>(z[i]);
  }
  __device__ __forceinline__ CT step(CT x, const params& p) {
    const CT y = p.b[0] * x + z[0];
#pragma unroll
    for (int i = 0; i < MK - 1; ++i) z[i] = z[i + 1] + x * p.b[i + 1] - y * p.a[i + 1];
    z[MK - 1] = x * p.b[MK] - y * p.a[MK];
    return y;
  }
};

/// Coefficients as a device array of the compute type (asynchronous upload through the pool).
template <class CT>
ndarray upload(const coeffs& c) {
  std::vector<host_compute_t<CT>> h(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    if constexpr (is_complex_t<CT>::value) h[i] = c[i];
    else h[i] = c[i].real();
  }
  return cusci::asarray(h, {static_cast<std::int64_t>(h.size())});
}

template <class T, class CT, class In>
__global__ void fir_kernel(const CT* __restrict__ b, std::int64_t M, const In* __restrict__ x, T* __restrict__ y,
                           std::int64_t nb, std::int64_t N, const double* __restrict__ zi, std::int64_t K,
                           T* __restrict__ zf) {
  constexpr int width = is_complex_t<CT>::value ? 2 : 1;
  const std::int64_t per = N + (zf != nullptr ? K : 0);
  const std::int64_t total = nb * per;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t sig = idx / per, m = idx - sig * per;
    const std::int64_t kmin = max(std::int64_t{0}, m - (N - 1)), kmax = min(M - 1, m);
    const In* xs = x + sig * N + m;
    CT acc = CT(0);
    for (std::int64_t k = kmin; k <= kmax; ++k) acc += b[k] * static_cast<CT>(xs[-k]);
    if (zi != nullptr && m < K) acc += load_state<CT>(zi + (sig * K + m) * width);
    if (m < N)
      y[sig * N + m] = static_cast<T>(acc);
    else
      zf[sig * K + (m - N)] = static_cast<T>(acc);
  }
}

// One thread per signal, state in global scratch: IIR filters with more state than the chunked path
// holds (32 real components).
template <class T, class CT, class In>
__global__ void df2t_sequential(const CT* __restrict__ b, const CT* __restrict__ a, int K, const In* __restrict__ x,
                                T* __restrict__ y, std::int64_t nb, std::int64_t N, const double* __restrict__ zi,
                                T* __restrict__ zf, CT* __restrict__ scratch) {
  constexpr int width = is_complex_t<CT>::value ? 2 : 1;
  const std::int64_t sig = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (sig >= nb) return;
  CT* z = scratch + sig * K;
  for (int i = 0; i < K; ++i) z[i] = zi != nullptr ? load_state<CT>(zi + (sig * K + i) * width) : CT(0);
  for (std::int64_t n = 0; n < N; ++n) {
    const CT xv = static_cast<CT>(x[sig * N + n]);
    const CT yv = b[0] * xv + z[0];
    for (int i = 0; i < K - 1; ++i) z[i] = z[i + 1] + xv * b[i + 1] - yv * a[i + 1];
    z[K - 1] = xv * b[K] - yv * a[K];
    y[sig * N + n] = static_cast<T>(yv);
  }
  if (zf != nullptr)
    for (int i = 0; i < K; ++i) zf[sig * K + i] = static_cast<T>(z[i]);
}

template <class T, class CT, int MK, class In>
void run_df2t(const coeffs& bn, const coeffs& an, int K, const In* x, T* y, std::int64_t nb, std::int64_t N,
              const double* zi, T* zf, cudaStream_t stream) {
  using P = df2t_policy<T, CT, MK, In>;
  typename P::params prm{};
  for (int i = 0; i <= K; ++i) {
    prm.b[i] = to_compute<CT>(bn[i]);
    prm.a[i] = to_compute<CT>(an[i]);
  }
  // One step of the zero-input recurrence from each unit state: the columns of A (complex K x K).
  std::vector<cplx> Ac(static_cast<std::size_t>(K) * K);
  for (int j = 0; j < K; ++j) {
    std::vector<cplx> z(static_cast<std::size_t>(K), 0.0), zn(static_cast<std::size_t>(K), 0.0);
    z[j] = 1.0;
    const cplx yv = z[0];
    for (int i = 0; i < K - 1; ++i) zn[i] = z[i + 1] - yv * an[i + 1];
    zn[K - 1] = -yv * an[K];
    for (int i = 0; i < K; ++i) Ac[static_cast<std::size_t>(i) * K + j] = zn[i];
  }
  constexpr int width = P::width;
  run_recurrence<P>(prm, K * width, real_transition(Ac, K, width == 2), x, y, nb, N, zi,
                                          K * width, zf, K, stream);
}

// x is read as In: T, or float32 data for a float64 result (no converted copy of the input).
template <class T, class CT, class In = T>
void lfilter_typed(const coeffs& bn, const coeffs& an, bool fir, const ndarray& xc, ndarray& yc, const double* zi,
                   T* zf) {
  cudaStream_t stream = get_current_stream();
  const std::int64_t N = xc.shape().back();
  const std::int64_t nb = N > 0 ? xc.size() / N : 0;
  const In* x = xc.data_as<In>();
  T* y = yc.data_as<T>();
  if (fir) {
    const std::int64_t M = static_cast<std::int64_t>(bn.size()), K = M - 1;
    const ndarray bd = upload<CT>(bn);
    const std::int64_t total = nb * (N + (zf != nullptr ? K : 0));
    if (total > 0) {
      const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>((total + 255) / 256, 65535LL * 32));
      fir_kernel<T, CT, In><<<grid, 256, 0, stream>>>(bd.data_as<CT>(), M, x, y, nb, N, zi, K, zf);
      CUSCI_CHECK_LAUNCH();
    }
    return;
  }
  const int K = static_cast<int>(bn.size()) - 1;
  if (nb == 0) return;
  if (N == 0) return;  // the caller sets zf = zi
  constexpr bool cx = is_complex_t<CT>::value;
  const int cap = cx ? 16 : 32;  // state entries the chunked path holds (32 real components)
  const int mk = K <= 1 ? 1 : K <= 2 ? 2 : K <= 4 ? 4 : K <= 8 ? 8 : K <= 16 ? 16 : K <= cap ? 32 : 0;
  switch (mk) {
    case 1: run_df2t<T, CT, 1, In>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 2: run_df2t<T, CT, 2, In>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 4: run_df2t<T, CT, 4, In>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 8: run_df2t<T, CT, 8, In>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 16: run_df2t<T, CT, 16, In>(bn, an, K, x, y, nb, N, zi, zf, stream); break;
    case 32:
      if constexpr (!cx) {
        run_df2t<T, CT, 32, In>(bn, an, K, x, y, nb, N, zi, zf, stream);
        break;
      }
      [[fallthrough]];
    default: {
      const ndarray bd = upload<CT>(bn), ad = upload<CT>(an);
      device_buffer<CT> scratch(static_cast<std::size_t>(nb * K), stream);
      const unsigned grid = static_cast<unsigned>((nb + 127) / 128);
      df2t_sequential<T, CT, In><<<grid, 128, 0, stream>>>(bd.data_as<CT>(), ad.data_as<CT>(), K, x, y, nb, N, zi, zf,
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
  coeffs bv = coeff_cvector(b, F, "b"), av = coeff_cvector(a, F, "a");
  const bool fir = av.size() == 1;
  CUSCI_EXPECTS(x.ndim() >= 1, value_error, F + ": x must be at least 1-D");
  const int axis = normalize_axis(axis_in, x.ndim(), F);
  std::vector<dtype> dts{b.dtype(), a.dtype(), x.dtype()};
  if (zi) dts.push_back(zi->dtype());
  const dtype dt = filter_result_dtype(dts, F);
  CUSCI_EXPECTS(av[0] != 0.0, value_error, F + ": BUG: filter coefficient a[0] == 0 not supported yet");
  if (fir) CUSCI_EXPECTS(x.size() > 0, value_error, F + ": the FIR path (len(a) == 1) needs a non-empty x (as SciPy)");
  // Normalise by a[0] and pad b and a to the same length.
  const std::size_t n = std::max(bv.size(), av.size());
  const cplx a0 = av[0];
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
    zi64 = canonical(zd, axis, is_complex(dt) ? dtype::complex128 : dtype::float64);
  }
  // float32 data with a float64 result (float64 coefficients, as every design returns) is read as float32
  // by the filter itself rather than converted first: one pass and half the input traffic fewer.
  const bool widen = dt == dtype::float64 && x.dtype() == dtype::float32;
  const ndarray xc = canonical(x, axis, widen ? dtype::float32 : dt);
  ndarray yc = empty(xc.shape(), dt);
  shape_t zshape = xc.shape();
  zshape.back() = K;
  ndarray zfc;
  if (zi) zfc = empty(zshape, dt);
  const double* zip = (zi && zi64.size() > 0) ? static_cast<const double*>(zi64.data()) : nullptr;
  const std::int64_t N = xc.shape().back();
  if (!fir && zi && N == 0) {
    zfc = zi64.astype(dt);  // nothing filtered: the final state is the initial state
  } else if (widen) {
    lfilter_typed<double, double, float>(bv, av, fir, xc, yc, zip, zi && zfc.size() > 0 ? zfc.data_as<double>() : nullptr);
  } else {
    dispatch_filter(dt, [&](auto tag, auto ctag) {
      using T = typename decltype(tag)::type;
      using CT = typename decltype(ctag)::type;
      lfilter_typed<T, CT>(bv, av, fir, xc, yc, zip, zi && zfc.size() > 0 ? zfc.data_as<T>() : nullptr);
    });
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

filter_result lfilter(const array_like& b, const array_like& a, const ndarray& x, const array_ref& zi,
                      const lfilter_options& opts) {
  auto r = detail::lfilter_impl(b, a, x, &zi, opts.axis);
  return {r.y, r.zf};
}

}  // namespace cusci::signal
