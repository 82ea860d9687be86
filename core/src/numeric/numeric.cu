// Kernels of the numeric family (cusci/numeric.hpp): interp's per-point search and formula, and the
// fused isclose of two float32 / float64 arrays of one shape. Everything else of the family composes
// existing operations (numeric.cpp).

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <optional>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "numeric/numeric_internal.hpp"

namespace cusci::detail::numeric {
namespace {

constexpr int block = 256;

__device__ inline double interp_part(double x, const double* xp, const double* fp, int fs, std::int64_t j) {
  // NumPy's formula (compiled_base.c arr_interp): slope from fp[j] to fp[j+1]; when it gives NaN,
  // interpolate from the right end; when that is NaN too and both values are equal, that value.
  const double x0 = xp[j], x1 = xp[j + 1], f0 = fp[j * fs], f1 = fp[(j + 1) * fs];
  const double slope = (f1 - f0) / (x1 - x0);
  double r = __dadd_rn(__dmul_rn(slope, x - x0), f0);
  if (isnan(r)) {
    r = __dadd_rn(__dmul_rn(slope, x - x1), f1);
    if (isnan(r) && f0 == f1) r = f0;
  }
  return r;
}

/// One thread per x; fp has `fs` doubles per point (1 real, 2 complex); res likewise.
__global__ void interp_kernel(const double* __restrict__ x, std::int64_t nx, const double* __restrict__ xp,
                              const double* __restrict__ fp, std::int64_t n, int fs, bool left_given,
                              double left_re, double left_im, bool right_given, double right_re,
                              double right_im, double* __restrict__ res) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nx) return;
  // defaults fp[0] / fp[-1] (read here so that the host never reads device memory)
  if (!left_given) {
    left_re = fp[0];
    left_im = fs == 2 ? fp[1] : 0.0;
  }
  if (!right_given) {
    right_re = fp[(n - 1) * fs];
    right_im = fs == 2 ? fp[(n - 1) * fs + 1] : 0.0;
  }
  const double xv = x[i];
  double re, im = 0.0;
  if (n == 1) {
    const double x0 = xp[0];
    if (xv < x0) { re = left_re; im = left_im; }
    else if (xv > x0) { re = right_re; im = right_im; }
    else { re = fp[0]; if (fs == 2) im = fp[1]; }
  } else if (isnan(xv)) {
    re = xv;
  } else if (xv < xp[0]) {
    re = left_re; im = left_im;
  } else if (xv > xp[n - 1]) {
    re = right_re; im = right_im;
  } else {
    // last j with xp[j] <= xv (xv >= xp[0] here, so j >= 0)
    std::int64_t lo = 0, hi = n;  // invariant: xp[lo] <= xv, answer in [lo, hi)
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (xp[mid] <= xv) lo = mid; else hi = mid;
    }
    const std::int64_t j = lo;
    if (j == n - 1 || xp[j] == xv) {
      re = fp[j * fs];
      if (fs == 2) im = fp[j * fs + 1];
    } else {
      re = interp_part(xv, xp, fp, fs, j);
      if (fs == 2) im = interp_part(xv, xp, fp + 1, fs, j);
    }
  }
  res[i * fs] = re;
  if (fs == 2) res[i * fs + 1] = im;
}

// Products and sums rounded separately (no FMA contraction), as NumPy's separate ufunc calls.
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ inline float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ inline double add_rn(double a, double b) { return __dadd_rn(a, b); }

template <class T>
__global__ void isclose_kernel(const T* __restrict__ a, const T* __restrict__ b, std::int64_t n, T rtol, T atol,
                               bool equal_nan, bool* __restrict__ out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T x = a[i], y = b[i];
    // NumPy's expression, evaluated in T as its ufuncs do (weak rtol/atol take T).
    bool r = (fabs(x - y) <= add_rn(atol, mul_rn(rtol, fabs(y))) && isfinite(y)) || x == y;
    if (equal_nan && isnan(x) && isnan(y)) r = true;
    out[i] = r;
  }
}

}  // namespace

void interp_launch(const double* x, std::int64_t nx, const double* xp, const double* fp, std::int64_t n,
                   bool complex_fp, std::optional<std::complex<double>> left,
                   std::optional<std::complex<double>> right, double* res) {
  if (nx == 0) return;
  const std::int64_t blocks = (nx + block - 1) / block;
  CUSCI_EXPECTS(blocks < (std::int64_t{1} << 31), cusci::value_error, "cusci::interp: x has too many elements");
  interp_kernel<<<static_cast<unsigned>(blocks), block, 0, cusci::get_current_stream()>>>(
      x, nx, xp, fp, n, complex_fp ? 2 : 1, left.has_value(), left.value_or(0.0).real(),
      left.value_or(0.0).imag(), right.has_value(), right.value_or(0.0).real(), right.value_or(0.0).imag(), res);
  CUSCI_CHECK_LAUNCH();
}

void isclose_launch(const void* a, const void* b, std::int64_t n, bool is_double, double rtol, double atol,
                    bool equal_nan, bool* out) {
  if (n == 0) return;
  const std::int64_t g = (n + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(g < 65536 * 16 ? g : 65536 * 16);
  if (is_double)
    isclose_kernel<double><<<grid, block, 0, cusci::get_current_stream()>>>(
        static_cast<const double*>(a), static_cast<const double*>(b), n, rtol, atol, equal_nan, out);
  else
    isclose_kernel<float><<<grid, block, 0, cusci::get_current_stream()>>>(
        static_cast<const float*>(a), static_cast<const float*>(b), n, static_cast<float>(rtol),
        static_cast<float>(atol), equal_nan, out);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::detail::numeric
