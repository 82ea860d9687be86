// Kernels of the lombscargle family: the tiled trigonometric-sum kernel shared by lombscargle and
// vectorstrength, their finalizers and the moments of the weights.
//
// trig_sums_kernel: block (i, c) owns frequencies [i 1024, (i + 1) 1024) (8 consecutive ones a thread,
// in registers) and the samples of chunk c, staged through shared memory 256 at a time (x, w, w y, and
// on an evenly spaced frequency tile cos / sin of df x). Per (frequency, sample) pair it accumulates in
// float64 the sums the periodogram needs: lombscargle {C, S,} CC, CS, YC, YS (C, S only with a floating
// mean), vectorstrength C, S. cos / sin of f x come from one sincos per pair, or, when the block's tile
// is evenly spaced within 4 ulps of its largest frequency, from one sincos per thread and sample plus 7
// rotations by (cos df x, sin df x): about 13 FP64 instructions a pair instead of about 40. Each block
// writes its partial sums to part[c][s][f]; the finalizer adds the chunks in order (deterministic).
// Cost for 1e5 samples x 1e4 frequencies: 1e9 pairs, ~1.3e10 FP64 instructions (~0.8 ms at the H200's
// FP64 rate) on a uniform grid; 10 x 98 blocks; the partial sums move 98 x 4 x 1e4 x 8 B = 31 MB.
#include <cstdint>

#include <cuda_runtime.h>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "lombscargle/lombscargle_detail.hpp"

namespace cusci::signal::detail {

namespace {

constexpr double kPi = 3.141592653589793;
constexpr int K = trig_per_thread;
constexpr int TS = static_cast<int>(trig_tile);
constexpr int NT = trig_threads;

// The angular frequency of index j: lombscargle's freqs[j]; vectorstrength's 2 (pi / period) (float64)
// or float32(pi) / period in float32 (the angle is then 2 float32(f x)).
template <bool VS>
__device__ __forceinline__ double freq_at(const double* __restrict__ f, std::int64_t j, bool f32) {
  const double v = f[j];
  if constexpr (VS) {
    if (f32) return static_cast<double>(__fdiv_rn(static_cast<float>(kPi), static_cast<float>(v)));
    return 2.0 * __ddiv_rn(kPi, v);
  }
  return v;
}

template <bool VS>
__device__ __forceinline__ double angle(double f, double x, bool f32) {
  if (VS && f32) return 2.0 * static_cast<double>(__fmul_rn(static_cast<float>(f), static_cast<float>(x)));
  return __dmul_rn(f, x);
}

// Number of sums: vectorstrength 2 (C, S); lombscargle 4 (CC, CS, YC, YS) or 6 (C, S first).
template <bool FM, bool VS>
struct nsums {
  static constexpr int value = VS ? 2 : (FM ? 6 : 4);
};

template <bool FM, bool VS>
__device__ __forceinline__ void accumulate(double (&a)[nsums<FM, VS>::value], double c, double s, double w, double wy) {
  if constexpr (VS) {
    a[0] += c;
    a[1] += s;
  } else {
    const double tc = w * c;
    constexpr int o = FM ? 2 : 0;
    if constexpr (FM) {
      a[0] += tc;
      a[1] = fma(w, s, a[1]);
    }
    a[o + 0] = fma(tc, c, a[o + 0]);
    a[o + 1] = fma(tc, s, a[o + 1]);
    a[o + 2] = fma(wy, c, a[o + 2]);
    a[o + 3] = fma(wy, s, a[o + 3]);
  }
}

template <bool FM, bool VS>
__global__ void __launch_bounds__(NT) trig_sums_kernel(const double* __restrict__ x, const double* __restrict__ w,
                                                       const double* __restrict__ y, std::int64_t n,
                                                       const double* __restrict__ freqs, std::int64_t nf,
                                                       std::int64_t chunk, bool f32, double* __restrict__ part) {
  constexpr int NS = nsums<FM, VS>::value;
  __shared__ double sx[TS], sw[TS], swy[TS], scd[TS], ssd[TS];

  const std::int64_t fb = static_cast<std::int64_t>(blockIdx.x) * trig_freqs_per_block;
  const std::int64_t fm = (nf - fb < trig_freqs_per_block) ? nf - fb : trig_freqs_per_block;  // >= 1
  const std::int64_t j0 = fb + static_cast<std::int64_t>(threadIdx.x) * K;
  const bool active = j0 < nf;

  double fr[K];
#pragma unroll
  for (int k = 0; k < K; ++k) fr[k] = (j0 + k < nf) ? freq_at<VS>(freqs, j0 + k, f32) : 0.0;

  // Is the block's frequency tile evenly spaced (to within 4 ulps of its largest magnitude)?
  const double ffirst = freq_at<VS>(freqs, fb, f32);
  const double flast = freq_at<VS>(freqs, fb + fm - 1, f32);
  const double df = fm > 1 ? (flast - ffirst) / static_cast<double>(fm - 1) : 0.0;
  const double tol = 4.0 * 2.220446049250313e-16 * fmax(fabs(ffirst), fabs(flast));
  bool ok = true;
  if (active) {
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (j0 + k < nf) ok = ok && fabs(fr[k] - (ffirst + static_cast<double>(j0 + k - fb) * df)) <= tol;
  }
  const bool uniform = __syncthreads_and(ok ? 1 : 0) && fm > 1 && !(VS && f32);

  double acc[K][NS];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int s = 0; s < NS; ++s) acc[k][s] = 0.0;

  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.y) * chunk;
  const std::int64_t end = (n - begin < chunk) ? n : begin + chunk;
  for (std::int64_t base = begin; base < end; base += TS) {
    const int cnt = static_cast<int>((end - base < TS) ? end - base : TS);
    __syncthreads();
    for (int i = threadIdx.x; i < cnt; i += NT) {
      const double xi = x[base + i];
      sx[i] = xi;
      if constexpr (!VS) {
        const double wi = w ? w[base + i] : 1.0;
        sw[i] = wi;
        swy[i] = wi * y[base + i];
      }
      if (uniform) sincos(__dmul_rn(df, xi), &ssd[i], &scd[i]);
    }
    __syncthreads();
    if (!active) continue;
    if (uniform) {
      for (int i = 0; i < cnt; ++i) {
        const double xi = sx[i];
        const double wi = VS ? 1.0 : sw[i], wyi = VS ? 0.0 : swy[i];
        const double cd = scd[i], sd = ssd[i];
        double s, c;
        sincos(__dmul_rn(fr[0], xi), &s, &c);
#pragma unroll
        for (int k = 0; k < K; ++k) {
          accumulate<FM, VS>(acc[k], c, s, wi, wyi);
          const double cn = fma(c, cd, -s * sd);
          s = fma(s, cd, c * sd);
          c = cn;
        }
      }
    } else {
      for (int i = 0; i < cnt; ++i) {
        const double xi = sx[i];
        const double wi = VS ? 1.0 : sw[i], wyi = VS ? 0.0 : swy[i];
#pragma unroll
        for (int k = 0; k < K; ++k) {
          double s, c;
          sincos(angle<VS>(fr[k], xi, f32), &s, &c);
          accumulate<FM, VS>(acc[k], c, s, wi, wyi);
        }
      }
    }
  }
  if (!active) return;
  double* p = part + static_cast<std::int64_t>(blockIdx.y) * NS * nf;
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (j0 + k < nf)
#pragma unroll
      for (int s = 0; s < NS; ++s) p[s * nf + j0 + k] = acc[k][s];
}

// Sum of sum s of frequency f over the chunks, in chunk order.
__device__ __forceinline__ double chunk_sum(const double* __restrict__ part, std::int64_t chunks, int ns, int s,
                                            std::int64_t nf, std::int64_t f) {
  double v = 0.0;
  for (std::int64_t c = 0; c < chunks; ++c) v += part[(c * ns + s) * nf + f];
  return v;
}

// SciPy's formulas from the raw sums (see lombscargle.hpp): the tau shift by the angle-difference
// identities, the floating-mean corrections, the epsneg clamp, a, b and the normalization.
__global__ void ls_finalize_kernel(const double* __restrict__ part, std::int64_t chunks, std::int64_t nf,
                                   const double* __restrict__ mom, double n, bool fm, int mode, void* __restrict__ out) {
  const int ns = fm ? 6 : 4, o = fm ? 2 : 0;
  const double epsneg = 1.1102230246251565e-16;
  for (std::int64_t f = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; f < nf;
       f += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double invW = 1.0 / mom[0];
    const double Y = mom[1] * invW;
    const double C0 = fm ? chunk_sum(part, chunks, ns, 0, nf, f) * invW : 0.0;
    const double S0 = fm ? chunk_sum(part, chunks, ns, 1, nf, f) * invW : 0.0;
    const double CCr = chunk_sum(part, chunks, ns, o + 0, nf, f) * invW;
    const double CSr = chunk_sum(part, chunks, ns, o + 1, nf, f) * invW;
    const double YCr = chunk_sum(part, chunks, ns, o + 2, nf, f) * invW;
    const double YSr = chunk_sum(part, chunks, ns, o + 3, nf, f) * invW;
    const double SSr = 1.0 - CCr;
    double CC = CCr, SS = SSr, CS = CSr;
    if (fm) {
      CC -= C0 * C0;
      SS -= S0 * S0;
      CS -= C0 * S0;
    }
    const double tau = 0.5 * atan2(2.0 * CS, CC - SS);
    double st, ct;
    sincos(tau, &st, &ct);
    // cos(a - tau) = c ct + s st, sin(a - tau) = s ct - c st.
    double YC = ct * YCr + st * YSr;
    double YS = ct * YSr - st * YCr;
    double CCt = ct * ct * CCr + 2.0 * ct * st * CSr + st * st * SSr;
    double SSt = 1.0 - CCt;
    if (fm) {
      const double Ct = ct * C0 + st * S0;
      const double St = ct * S0 - st * C0;
      YC -= Y * Ct;
      YS -= Y * St;
      CCt -= Ct * Ct;
      SSt -= St * St;
    }
    if (CCt < epsneg) CCt = epsneg;
    if (SSt < epsneg) SSt = epsneg;
    const double a = YC / CCt, b = YS / SSt;
    double p = 2.0 * (a * YC + b * YS);
    if (mode == 0) {
      static_cast<double*>(out)[f] = p * (n / 4.0);
    } else if (mode == 1) {
      double YY = mom[2] * invW;
      if (fm) YY -= Y * Y;
      static_cast<double*>(out)[f] = p * (0.5 / YY);
    } else {
      static_cast<double2*>(out)[f] = make_double2(a * ct - b * st, a * st + b * ct);
    }
  }
}

__global__ void vs_finalize_kernel(const double* __restrict__ part, std::int64_t chunks, std::int64_t np, double ne,
                                   bool f32, void* __restrict__ strength, void* __restrict__ phase) {
  for (std::int64_t f = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; f < np;
       f += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const double C = chunk_sum(part, chunks, 2, 0, np, f) / ne;
    const double S = chunk_sum(part, chunks, 2, 1, np, f) / ne;
    if (f32) {
      const float Cf = static_cast<float>(C), Sf = static_cast<float>(S);
      static_cast<float*>(strength)[f] = hypotf(Cf, Sf);
      static_cast<float*>(phase)[f] = atan2f(Sf, Cf);
    } else {
      static_cast<double*>(strength)[f] = hypot(C, S);
      static_cast<double*>(phase)[f] = atan2(S, C);
    }
  }
}

// One block: the weight moments and the bad-weight flag, reduced in a fixed order.
__global__ void __launch_bounds__(256) moments_kernel(const double* __restrict__ y, const double* __restrict__ w,
                                                      std::int64_t n, double* __restrict__ mom) {
  __shared__ double sh[4][256];
  double a = 0, b = 0, c = 0, bad = 0;
  for (std::int64_t i = threadIdx.x; i < n; i += 256) {
    const double wi = w ? w[i] : 1.0, yi = y[i];
    if (!(wi >= 0.0)) bad = 1.0;
    a += wi;
    const double wy = wi * yi;
    b += wy;
    c += wy * yi;
  }
  sh[0][threadIdx.x] = a;
  sh[1][threadIdx.x] = b;
  sh[2][threadIdx.x] = c;
  sh[3][threadIdx.x] = bad;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (static_cast<int>(threadIdx.x) < s)
      for (int q = 0; q < 4; ++q) {
        if (q == 3)
          sh[q][threadIdx.x] = fmax(sh[q][threadIdx.x], sh[q][threadIdx.x + s]);
        else
          sh[q][threadIdx.x] += sh[q][threadIdx.x + s];
      }
    __syncthreads();
  }
  if (threadIdx.x < 4) mom[threadIdx.x] = sh[threadIdx.x][0];
}

template <bool FM, bool VS>
void launch_sums(const double* x, const double* w, const double* y, std::int64_t n, const double* f, std::int64_t nf,
                 bool f32, const trig_plan& p, double* part, cudaStream_t s) {
  const dim3 grid(static_cast<unsigned>(p.freq_blocks), static_cast<unsigned>(p.chunks));
  trig_sums_kernel<FM, VS><<<grid, NT, 0, s>>>(x, w, y, n, f, nf, p.chunk, f32, part);
  CUSCI_CHECK_LAUNCH();
}

unsigned flat_grid(std::int64_t n) {
  std::int64_t g = (n + 255) / 256;
  if (g > 65535) g = 65535;
  return static_cast<unsigned>(g < 1 ? 1 : g);
}

}  // namespace

void ls_moments(const ndarray& y, const double* w, ndarray& mom) {
  moments_kernel<<<1, 256, 0, get_current_stream()>>>(y.data_as<double>(), w, y.size(), mom.data_as<double>());
  CUSCI_CHECK_LAUNCH();
}

void ls_run(const ndarray& x, const ndarray& y, const double* w, const ndarray& freqs, const ndarray& mom,
            bool floating_mean, int mode, ndarray& out) {
  const std::int64_t n = x.size(), nf = freqs.size();
  const trig_plan p = trig_plan_of(n, nf);
  const int ns = floating_mean ? 6 : 4;
  ndarray part = cusci::empty({p.chunks, ns, nf}, dtype::float64);
  const cudaStream_t s = get_current_stream();
  if (floating_mean)
    launch_sums<true, false>(x.data_as<double>(), w, y.data_as<double>(), n, freqs.data_as<double>(), nf, false, p,
                             part.data_as<double>(), s);
  else
    launch_sums<false, false>(x.data_as<double>(), w, y.data_as<double>(), n, freqs.data_as<double>(), nf, false, p,
                              part.data_as<double>(), s);
  ls_finalize_kernel<<<flat_grid(nf), 256, 0, s>>>(part.data_as<double>(), p.chunks, nf, mom.data_as<double>(),
                                                   static_cast<double>(n), floating_mean, mode, out.data());
  CUSCI_CHECK_LAUNCH();
}

void vs_run(const ndarray& events, const ndarray& periods, bool f32, ndarray& strength, ndarray& phase) {
  const std::int64_t n = events.size(), np = periods.size();
  if (np == 0) return;
  const cudaStream_t s = get_current_stream();
  const trig_plan p = trig_plan_of(n, np);
  ndarray part = cusci::empty({p.chunks, 2, np}, dtype::float64);
  if (n > 0) {
    launch_sums<false, true>(events.data_as<double>(), nullptr, nullptr, n, periods.data_as<double>(), np, f32, p,
                             part.data_as<double>(), s);
  } else {
    CUSCI_CUDA_TRY(cudaMemsetAsync(part.data(), 0, part.nbytes(), s));
  }
  vs_finalize_kernel<<<flat_grid(np), 256, 0, s>>>(part.data_as<double>(), p.chunks, np, static_cast<double>(n), f32,
                                                   strength.data(), phase.data());
  CUSCI_CHECK_LAUNCH();
}

}  // namespace cusci::signal::detail
