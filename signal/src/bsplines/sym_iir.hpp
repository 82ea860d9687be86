#pragma once
// (internal) The symmetric IIR engine of the bsplines family: a causal recursion of order D (1 or 2)
// followed by the same recursion run backwards, each started from SciPy's mirror-symmetric initial
// values, over every line of a C-contiguous [outer, N, inner] array. cspline1d, qspline1d, cspline2d,
// qspline2d, spline_filter, symiirorder1 and symiirorder2 are plans (sym_filter) on it; the plans
// are built on the host (sym_iir_plan.cpp), the engine runs in sym_iir.cu.
//
//   forward   y[d] = sum_k wf[d][k] x[k]                    (d < D: the initial values)
//             y[n] = g_f x[n] + a1 y[n-1] + a2 y[n-2]       (n >= D; a2 = 0 when D == 1)
//   backward  D == 1: out[N-1] = q y[N-1]
//             D == 2: out[N-1-d] = sum_k wb[d][k] x[N-1-k]  (from the input, as SciPy's C code)
//             out[n] = g_b y[n] + a1 out[n+1] + a2 out[n+2]
//
// Host types: float, double, std::complex<float>, std::complex<double> (complex only with D == 1;
// a real filter on complex data runs on the real view of the data, see run_sym_filter_real_view).

#include <complex>
#include <cstdint>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

namespace cusci::signal::detail {

template <class T>
struct sym_filter {
  int D = 1;
  T g_f{1}, g_b{1}, a1{0}, a2{0};
  std::vector<T> wf[2];  // forward initial values, applied to x from the front
  std::vector<T> wb[2];  // D == 2: backward initial values, applied to x from the back
  T q{0};                // D == 1: out[N-1] = q * y[N-1]
};

/// Runs `f` along the middle axis of the C-contiguous [outer, N, inner] array x into y (same layout;
/// y may be x: the engine works in place). Asynchronous on `stream`; temporaries from the pool.
/// Lines with N == 0 or no lines: nothing to do. N must be >= the longest weight vector.
template <class T>
void run_sym_filter(const sym_filter<T>& f, const T* x, T* y, std::int64_t outer, std::int64_t N,
                    std::int64_t inner, cudaStream_t stream);

// --- plans (sym_iir_plan.cpp); each throws cusci::value_error with SciPy's messages --------------

/// The precision SciPy's C code uses when given `precision` (<= 0 or > 1: 1e-6 in single, 1e-11 in
/// double precision).
double c_precision(double precision, bool single);

/// scipy.signal.symiirorder1's plan on lines of length N, in T's precision (the initial sum
/// truncated where |z1|^k <= precision, as SciPy's C code; value_error when that needs N terms or
/// more: "Sum to find symmetric boundary conditions did not converge.").
template <class T>
sym_filter<T> plan_symiirorder1(T c0, T z1, double precision, std::int64_t N, std::string_view fn);

/// scipy.signal.symiirorder2's plan (T float or double).
template <class T>
sym_filter<T> plan_symiirorder2(double r, double omega, double precision, std::int64_t N, std::string_view fn);

/// cspline1d (lamb == 0, quadratic = false) / qspline1d (quadratic = true): SciPy's Python
/// _cubic_coeff / _quadratic_coeff, full-length initial sums, in double precision.
sym_filter<double> plan_spline_coeff(bool quadratic, std::int64_t N);

/// cspline1d with lamb != 0: SciPy's Python _cubic_smooth_coeff (full-length sums, double).
/// @throws cusci::value_error for a lamb whose roots do not exist ("math domain error").
sym_filter<double> plan_cubic_smooth(double lamb, std::int64_t N, std::string_view fn);

/// SciPy's compute_root_from_lambda (cspline2d's smoothing case).
void root_from_lambda(double lamb, double& r, double& omega);

}  // namespace cusci::signal::detail
