// Kernels of the zero_phase family: the line extension (odd / even / constant / none) fused with
// the `zi * x0` initial states, the `zi * y0` states of the backward pass, and Gustafsson's residual
// and correction. Data movement only: instantiated for float32, float64, complex64 and complex128.

#include <algorithm>
#include <string>
#include <type_traits>
#include <cuda/std/complex>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "cusci/detail/indexer.cuh"
#include "zero_phase/zero_phase_impl.hpp"

namespace cusci::signal::detail::zero_phase {
namespace {

using cusci::detail::make_indexer;
using cusci::detail::strided_indexer;

// Lines of an array whose last axis is the filtered one: the byte offset of each line (an indexer
// over the other dimensions) and the byte stride along the line.
struct line_layout {
  const char* base = nullptr;
  strided_indexer lines{};
  std::int64_t L = 0;       // number of lines
  std::int64_t N = 0;       // line length
  std::int64_t stride = 0;  // bytes between samples of a line
};

line_layout layout_of(const ndarray& a) {
  line_layout l;
  shape_t sh(a.shape().begin(), a.shape().end() - 1), st(a.strides().begin(), a.strides().end() - 1);
  l.L = 1;
  for (auto d : sh) l.L *= d;
  l.N = a.shape().back();
  l.stride = a.strides().back();
  cusci::detail::coalesce(sh, {&st});
  l.lines = make_indexer(sh, st);
  l.base = static_cast<const char*>(a.data());
  return l;
}

template <class T>
__device__ __forceinline__ T load_at(const char* base, std::int64_t i, std::int64_t stride) {
  return *reinterpret_cast<const T*>(base + i * stride);
}

// Sample j of the extended line (length N + 2 edge) of the line at `base`.
template <class T>
__device__ __forceinline__ T ext_value(const char* base, std::int64_t stride, std::int64_t N, std::int64_t edge,
                                       int kind, std::int64_t j) {
  const std::int64_t i = j - edge;
  if (i >= 0 && i < N) return load_at<T>(base, i, stride);
  if (i < 0) {
    const std::int64_t k = -i;  // 1..edge
    if (kind == 0) return T(2) * load_at<T>(base, 0, stride) - load_at<T>(base, k, stride);  // odd
    if (kind == 1) return load_at<T>(base, k, stride);                                       // even
    return load_at<T>(base, 0, stride);                                                      // constant
  }
  const std::int64_t k = i - (N - 1);  // 1..edge
  if (kind == 0) return T(2) * load_at<T>(base, N - 1, stride) - load_at<T>(base, N - 1 - k, stride);
  if (kind == 1) return load_at<T>(base, N - 1 - k, stride);
  return load_at<T>(base, N - 1, stride);
}

template <class T> struct is_cplx : std::false_type {};
template <class T> struct is_cplx<cuda::std::complex<T>> : std::true_type {};

// Value conversion to the result type (real -> complex, complex64 -> complex128, float -> double).
template <class To, class From>
__device__ __forceinline__ To convert(From v) {
  if constexpr (std::is_same_v<To, From>) return v;
  else if constexpr (is_cplx<To>::value && is_cplx<From>::value) return To(v.real(), v.imag());
  else return To(static_cast<typename std::conditional_t<is_cplx<To>::value, To, cuda::std::complex<To>>::value_type>(v));
}

// The extension is computed in the data's type Tin (as SciPy extends in x's dtype) and stored as Tout.
template <class Tin, class Tout>
__global__ void extend_kernel(line_layout x, std::int64_t edge, int kind, Tout* __restrict__ ext, std::int64_t Ne,
                              const Tout* __restrict__ z, std::int64_t GC, std::int64_t C, Tout* __restrict__ zi_out) {
  for (std::int64_t line = blockIdx.y; line < x.L; line += gridDim.y) {
    const char* base = x.base + x.lines.offset(line);
    Tout* out = ext + line * Ne;
    for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < Ne;
         j += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
      out[j] = convert<Tout>(ext_value<Tin>(base, x.stride, x.N, edge, kind, j));
    if (blockIdx.x == 0 && GC > 0) {
      const Tout x0 = convert<Tout>(ext_value<Tin>(base, x.stride, x.N, edge, kind, 0));
      for (std::int64_t t = threadIdx.x; t < GC; t += blockDim.x) {
        const std::int64_t g = t / C, c = t - g * C;
        zi_out[(g * x.L + line) * C + c] = z[t] * x0;
      }
    }
  }
}

template <class T>
__global__ void scale_last_kernel(line_layout y, const T* __restrict__ z, std::int64_t G, std::int64_t C,
                                  T* __restrict__ zi_out) {
  const std::int64_t total = G * y.L * C;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t c = idx % C, t = idx / C, line = t % y.L, g = t / y.L;
    const T y0 = load_at<T>(y.base + y.lines.offset(line), y.N - 1, y.stride);
    zi_out[idx] = z[g * C + c] * y0;
  }
}

template <class T>
__global__ void gust_delta_kernel(const T* __restrict__ ybf, const T* __restrict__ yfr, std::int64_t L,
                                  std::int64_t n, const std::int64_t* __restrict__ pos, std::int64_t R,
                                  T* __restrict__ delta) {
  const std::int64_t total = L * R;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t l = idx / R, r = idx - l * R;
    const std::int64_t i = pos[r];
    delta[idx] = ybf[l * n + i] - yfr[l * n + (n - 1 - i)];
  }
}

// yfr[l, n - 1 - pos[r]] += wic[l, r]: the positions are distinct, so no two threads write one element.
template <class T>
__global__ void gust_correct_kernel(T* __restrict__ yfr, const T* __restrict__ wic, std::int64_t L, std::int64_t n,
                                    const std::int64_t* __restrict__ pos, std::int64_t R) {
  const std::int64_t total = L * R;
  for (std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t l = idx / R, r = idx - l * R;
    yfr[l * n + (n - 1 - pos[r])] += wic[idx];
  }
}

// Calls f(device_tag, host_tag) for the four dtypes of the family.
template <class D, class H> struct tags { using dev = D; using host = H; };
template <class F>
void dispatch4(dtype dt, F&& f) {
  switch (dt) {
    case dtype::float32: f(tags<float, float>{}); return;
    case dtype::float64: f(tags<double, double>{}); return;
    case dtype::complex64: f(tags<cuda::std::complex<float>, std::complex<float>>{}); return;
    case dtype::complex128: f(tags<cuda::std::complex<double>, std::complex<double>>{}); return;
    default: break;
  }
  throw not_implemented_error("cusci::signal (zero_phase): dtype '" + std::string(dtype_name(dt)) +
                              "' is not supported");
}

// The coefficients z as a device array of host type H (real part only for a real H).
template <class H>
ndarray upload(const std::vector<cplx>& z) {
  std::vector<H> v(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    if constexpr (std::is_floating_point_v<H>) v[i] = static_cast<H>(z[i].real());
    else v[i] = H(static_cast<typename H::value_type>(z[i].real()), static_cast<typename H::value_type>(z[i].imag()));
  }
  return cusci::asarray(v);
}

}  // namespace

bool extend_supports(dtype in, dtype out) {
  if (in == out) return in == dtype::float32 || in == dtype::float64 || in == dtype::complex64 || in == dtype::complex128;
  if (in == dtype::float32) return out == dtype::float64 || out == dtype::complex64 || out == dtype::complex128;
  if (in == dtype::float64 || in == dtype::complex64) return out == dtype::complex128;
  return false;
}

namespace {

template <class Tin, class Tout, class H>
void launch_extend(const line_layout& x, std::int64_t edge, int k, ndarray& ext, const std::vector<cplx>& z,
                   std::int64_t G, std::int64_t C, ndarray& zi_out, cudaStream_t stream) {
  ndarray zd = upload<H>(z);
  const std::int64_t Ne = x.N + 2 * edge, GC = G * C;
  const int block = 256;
  const unsigned gx = static_cast<unsigned>(std::clamp<std::int64_t>((Ne + block - 1) / block, 1, 65535));
  const unsigned gy = static_cast<unsigned>(std::min<std::int64_t>(x.L, 65535));
  extend_kernel<Tin, Tout><<<dim3(gx, gy), block, 0, stream>>>(
      x, edge, k, reinterpret_cast<Tout*>(ext.data()), Ne, GC > 0 ? reinterpret_cast<const Tout*>(zd.data()) : nullptr,
      GC, C > 0 ? C : 1, GC > 0 ? reinterpret_cast<Tout*>(zi_out.data()) : nullptr);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void extend_lines(const ndarray& xv, pad_type kind, std::int64_t edge, ndarray& ext, const std::vector<cplx>& z,
                  std::int64_t G, std::int64_t C, ndarray& zi_out) {
  const line_layout x = layout_of(xv);
  const std::int64_t Ne = x.N + 2 * edge;
  if (x.L == 0 || Ne == 0) return;
  const int k = kind == pad_type::odd ? 0 : kind == pad_type::even ? 1 : 2;  // none: edge == 0
  cudaStream_t stream = get_current_stream();
  const dtype in = xv.dtype();
  CUSCI_EXPECTS(extend_supports(in, ext.dtype()), not_implemented_error,
                "cusci::signal (zero_phase): extension from " + std::string(dtype_name(in)) + " to " +
                    std::string(dtype_name(ext.dtype())) + " is not instantiated");
  dispatch4(ext.dtype(), [&](auto tg) {
    using T = typename decltype(tg)::dev;
    using H = typename decltype(tg)::host;
    if (in == ext.dtype()) launch_extend<T, T, H>(x, edge, k, ext, z, G, C, zi_out, stream);
    else if (in == dtype::float32) launch_extend<float, T, H>(x, edge, k, ext, z, G, C, zi_out, stream);
    else if constexpr (std::is_same_v<H, std::complex<double>>) {
      if (in == dtype::float64) launch_extend<double, T, H>(x, edge, k, ext, z, G, C, zi_out, stream);
      else launch_extend<cuda::std::complex<float>, T, H>(x, edge, k, ext, z, G, C, zi_out, stream);
    }
  });
}

void scale_by_last(const ndarray& y, const std::vector<cplx>& z, std::int64_t G, std::int64_t C, ndarray& zi_out) {
  const line_layout l = layout_of(y);
  const std::int64_t total = G * l.L * C;
  if (total == 0 || l.N == 0) return;
  cudaStream_t stream = get_current_stream();
  dispatch4(zi_out.dtype(), [&](auto tg) {
    using T = typename decltype(tg)::dev;
    using H = typename decltype(tg)::host;
    ndarray zd = upload<H>(z);
    scale_last_kernel<T><<<cusci::detail::grid_for(total), 256, 0, stream>>>(
        l, reinterpret_cast<const T*>(zd.data()), G, C, reinterpret_cast<T*>(zi_out.data()));
    CUSCI_CHECK_LAUNCH();
  });
}

void gust_delta(const ndarray& ybf, const ndarray& yfb_rev, const ndarray& pos, ndarray& delta) {
  const std::int64_t n = ybf.shape().back();
  const std::int64_t L = n > 0 ? ybf.size() / n : 0;
  const std::int64_t R = delta.shape().back();
  if (L * R == 0) return;
  cudaStream_t stream = get_current_stream();
  dispatch4(delta.dtype(), [&](auto tg) {
    using T = typename decltype(tg)::dev;
    gust_delta_kernel<T><<<cusci::detail::grid_for(L * R), 256, 0, stream>>>(
        reinterpret_cast<const T*>(ybf.data()), reinterpret_cast<const T*>(yfb_rev.data()), L, n,
        pos.data_as<std::int64_t>(), R, reinterpret_cast<T*>(delta.data()));
    CUSCI_CHECK_LAUNCH();
  });
}

void gust_correct(ndarray& yfb_rev, const ndarray& wic, const ndarray& pos) {
  const std::int64_t n = yfb_rev.shape().back();
  const std::int64_t L = n > 0 ? yfb_rev.size() / n : 0;
  const std::int64_t R = wic.shape().back();
  if (L * R == 0) return;
  cudaStream_t stream = get_current_stream();
  dispatch4(yfb_rev.dtype(), [&](auto tg) {
    using T = typename decltype(tg)::dev;
    gust_correct_kernel<T><<<cusci::detail::grid_for(L * R), 256, 0, stream>>>(
        reinterpret_cast<T*>(yfb_rev.data()), reinterpret_cast<const T*>(wic.data()), L, n,
        pos.data_as<std::int64_t>(), R);
    CUSCI_CHECK_LAUNCH();
  });
}

}  // namespace cusci::signal::detail::zero_phase
