// Elementwise kernels of the waveforms family: chirp, gausspulse, sawtooth / square and sweep_poly over
// C-contiguous float32 / float64 time arrays. Each evaluates SciPy's NumPy expression in NumPy's order
// and precision: every float32 operation is rounded separately (the __f*_rn intrinsics keep nvcc from
// fusing a multiply and an add, which NumPy never does), Python-float constants are rounded to float32
// where NumPy 2 treats them as weak scalars, and float64 operations use the __d*_rn intrinsics for the
// same reason. Transcendental functions of float32 arguments are evaluated in float64 and rounded once
// (correctly rounded in practice, as glibc's / NumPy's float32 functions). One pass over t, one write:
// 8 + 8 bytes (float64 chirp) or 4 + 4 bytes (float32 square / sawtooth) a sample.
#include <cstdint>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "waveforms/waveforms_detail.hpp"

namespace cusci::signal::detail {

namespace {

// Separately rounded arithmetic in T (no contraction).
template <class T> struct rn;
template <> struct rn<float> {
  static __device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
  static __device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
  static __device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
  static __device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
  // a ** 3 (NumPy: powf(a, 3), correctly rounded in practice): exact in float64 up to one rounding of
  // a 72-bit product, then rounded to float32.
  static __device__ __forceinline__ float cube(float a) {
    const double d = a;
    return static_cast<float>(__dmul_rn(__dmul_rn(d, d), d));
  }
  static __device__ __forceinline__ float pow(float a, float b) {
    return static_cast<float>(::pow(static_cast<double>(a), static_cast<double>(b)));
  }
  static __device__ __forceinline__ float log(float a) { return static_cast<float>(::log(static_cast<double>(a))); }
};
template <> struct rn<double> {
  static __device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
  static __device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
  static __device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
  static __device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
  // a ** 3 with one rounding of the exact square's error term (within an ulp of pow(a, 3)).
  static __device__ __forceinline__ double cube(double a) {
    const double a2 = __dmul_rn(a, a);
    const double e = fma(a, a, -a2);
    return fma(a2, a, __dmul_rn(e, a));
  }
  static __device__ __forceinline__ double pow(double a, double b) { return ::pow(a, b); }
  static __device__ __forceinline__ double log(double a) { return ::log(a); }
};

template <class T>
__device__ __forceinline__ T cst(double v) {
  return static_cast<T>(v);
}

// SciPy's _chirp_phase(t) + deg2rad(phi), in float64 (the phase's own arithmetic in T).
template <class T>
__device__ __forceinline__ double chirp_phase(T t, const chirp_consts& c) {
  using R = rn<T>;
  double ph;
  switch (c.kind) {
    case 0: {  // 2 pi (f0 t + 0.5 beta t t)
      const T u = R::add(R::mul(cst<T>(c.a), t), R::mul(R::mul(cst<T>(c.b), t), t));
      ph = static_cast<double>(R::mul(cst<T>(c.k), u));
      break;
    }
    case 1: {  // 2 pi (f0 t + beta t**3 / 3)
      const T u = R::add(R::mul(cst<T>(c.a), t), R::div(R::mul(cst<T>(c.b), R::cube(t)), T(3)));
      ph = static_cast<double>(R::mul(cst<T>(c.k), u));
      break;
    }
    case 2: {  // 2 pi (f1 t + beta ((t1 - t)**3 - t1**3) / 3)
      const T v = R::sub(R::cube(R::sub(cst<T>(c.c), t)), cst<T>(c.d));
      const T u = R::add(R::mul(cst<T>(c.a), t), R::div(R::mul(cst<T>(c.b), v), T(3)));
      ph = static_cast<double>(R::mul(cst<T>(c.k), u));
      break;
    }
    case 3: {  // (2 pi beta f0) * (pow(f1 / f0, t / t1) - 1.0): a float64 scalar times a T array
      const T p = R::sub(R::pow(cst<T>(c.a), R::div(t, cst<T>(c.c))), T(1));
      ph = __dmul_rn(c.strong, static_cast<double>(p));
      break;
    }
    case 4: {  // 2 pi (-sing f0) log|1 - t / sing|
      const T v = R::sub(T(1), R::div(t, cst<T>(c.a)));
      ph = static_cast<double>(R::mul(cst<T>(c.k), R::log(v < T(0) ? -v : v)));
      break;
    }
    default:  // 2 pi f0 t
      ph = static_cast<double>(R::mul(cst<T>(c.k), t));
  }
  return __dadd_rn(ph, c.phi);
}

template <class T>
__global__ void chirp_kernel(const T* __restrict__ t, std::int64_t n, chirp_consts c, double* __restrict__ out) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double ph = chirp_phase<T>(t[i], c);
    if (c.complex) {
      double s, co;
      sincos(ph, &s, &co);
      // exp(1j * phase): 1j * phase has the real part 0 * phase (NaN for an infinite phase).
      const double re = __dmul_rn(0.0, ph);
      if (re != 0.0) {
        s = re;
        co = re;
      }
      reinterpret_cast<double2*>(out)[i] = make_double2(co, s);
    } else {
      out[i] = cos(ph);
    }
  }
}

template <class T>
__global__ void gausspulse_kernel(const T* __restrict__ t, std::int64_t n, double a, double c, double* __restrict__ yI,
                                  double* __restrict__ yQ, double* __restrict__ yenv) {
  using R = rn<T>;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T ti = t[i];
    const double td = static_cast<double>(ti);
    const double env = exp(__dmul_rn(__dmul_rn(-a, td), td));
    const double arg = static_cast<double>(R::mul(cst<T>(c), ti));
    double s, co;
    sincos(arg, &s, &co);
    if (sizeof(T) == 4) {  // NumPy's float32 cos / sin, then promoted
      s = static_cast<double>(static_cast<float>(s));
      co = static_cast<double>(static_cast<float>(co));
    }
    if (yenv) yenv[i] = env;
    if (yI) yI[i] = __dmul_rn(env, co);
    if (yQ) yQ[i] = __dmul_rn(env, s);
  }
}

// NumPy's floating remainder a % b: fmod with the sign of b.
template <class T>
__device__ __forceinline__ T py_mod(T a, T b) {
  T m = fmod(a, b);
  if (m != T(0)) {
    if ((b < T(0)) != (m < T(0))) m = rn<T>::add(m, b);
  } else {
    m = copysign(T(0), b);
  }
  return m;
}

template <class T>
__global__ void periodic_kernel(const T* __restrict__ t, const T* __restrict__ w, T wscalar, std::int64_t n, bool square,
                                T* __restrict__ out) {
  using R = rn<T>;
  const T two_pi = cst<T>(2.0 * 3.141592653589793);
  const T pi = cst<T>(3.141592653589793);
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T wi = w ? w[i] : wscalar;
    T y;
    if (wi > T(1) || wi < T(0)) {
      y = static_cast<T>(NAN);
    } else {
      const T tm = py_mod(t[i], two_pi);
      if (tm < R::mul(R::mul(wi, T(2)), pi)) {
        y = square ? T(1) : R::sub(R::div(tm, R::mul(pi, wi)), T(1));
      } else {
        y = square ? T(-1) : R::div(R::sub(R::mul(pi, R::add(wi, T(1))), tm), R::mul(pi, R::sub(T(1), wi)));
      }
    }
    out[i] = y;
  }
}

template <class T>
__global__ void sweep_poly_kernel(const T* __restrict__ t, std::int64_t n, const double* __restrict__ q, int m, double k,
                                  double phi, double* __restrict__ out) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double x = static_cast<double>(t[i]);
    double y = __dadd_rn(__dmul_rn(0.0, x), q[0]);  // numpy.polyval starts from zeros_like(t)
    for (int j = 1; j < m; ++j) y = __dadd_rn(__dmul_rn(y, x), q[j]);
    out[i] = cos(__dadd_rn(__dmul_rn(k, y), phi));
  }
}

unsigned grid_of(std::int64_t n) {
  std::int64_t g = (n + 255) / 256;
  if (g > (1LL << 20)) g = 1LL << 20;
  return static_cast<unsigned>(g < 1 ? 1 : g);
}

bool is_f32(const ndarray& t) { return t.dtype() == dtype::float32; }

}  // namespace

void chirp_run(const ndarray& t, const chirp_consts& c, ndarray& out) {
  const std::int64_t n = t.size();
  if (n == 0) return;
  const cudaStream_t s = get_current_stream();
  if (is_f32(t))
    chirp_kernel<float><<<grid_of(n), 256, 0, s>>>(t.data_as<float>(), n, c, out.data_as<double>());
  else
    chirp_kernel<double><<<grid_of(n), 256, 0, s>>>(t.data_as<double>(), n, c, out.data_as<double>());
  CUSCI_CHECK_LAUNCH();
}

void gausspulse_run(const ndarray& t, double a, double c, double* yI, double* yQ, double* yenv) {
  const std::int64_t n = t.size();
  if (n == 0) return;
  const cudaStream_t s = get_current_stream();
  if (is_f32(t))
    gausspulse_kernel<float><<<grid_of(n), 256, 0, s>>>(t.data_as<float>(), n, a, c, yI, yQ, yenv);
  else
    gausspulse_kernel<double><<<grid_of(n), 256, 0, s>>>(t.data_as<double>(), n, a, c, yI, yQ, yenv);
  CUSCI_CHECK_LAUNCH();
}

void periodic_run(const ndarray& t, const ndarray* w, double w_scalar, bool square, ndarray& out) {
  const std::int64_t n = t.size();
  if (n == 0) return;
  const cudaStream_t s = get_current_stream();
  if (is_f32(t))
    periodic_kernel<float><<<grid_of(n), 256, 0, s>>>(t.data_as<float>(), w ? w->data_as<float>() : nullptr,
                                                      static_cast<float>(w_scalar), n, square, out.data_as<float>());
  else
    periodic_kernel<double><<<grid_of(n), 256, 0, s>>>(t.data_as<double>(), w ? w->data_as<double>() : nullptr,
                                                       w_scalar, n, square, out.data_as<double>());
  CUSCI_CHECK_LAUNCH();
}

void sweep_poly_run(const ndarray& t, const ndarray& q, double k, double phi, ndarray& out) {
  const std::int64_t n = t.size();
  if (n == 0) return;
  const cudaStream_t s = get_current_stream();
  const int m = static_cast<int>(q.size());
  if (is_f32(t))
    sweep_poly_kernel<float><<<grid_of(n), 256, 0, s>>>(t.data_as<float>(), n, q.data_as<double>(), m, k, phi,
                                                        out.data_as<double>());
  else
    sweep_poly_kernel<double><<<grid_of(n), 256, 0, s>>>(t.data_as<double>(), n, q.data_as<double>(), m, k, phi,
                                                         out.data_as<double>());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
