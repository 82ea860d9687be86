// cusci::fft DCT and DST of types I-IV (scipy.fft definitions and scaling) through cuFFT.
//
// Each 1-D transform of length N along one axis is: a pre-kernel that gathers each line of the input
// (any strides; cropped / zero-padded to N; orthogonalization weights applied) into a contiguous work
// row, one batched cuFFT transform of all rows, and a post-kernel that applies the twiddles, the norm
// scale and orthogonalization weights, and scatters into the output. Algorithms (unnormalized SciPy
// definitions, x of length N, y the result):
//  - DCT-I:  y = Re(RFFT(v)) [0, N) with v the even extension [x0 .. x_{N-1}, x_{N-2} .. x1] of length
//            2(N-1).
//  - DST-I:  y[k] = -Im(RFFT(v))[k+1] with v the odd extension [0, x, 0, -reverse(x)] of length 2(N+1).
//  - DCT-II: Makhoul's reordering v = [x0, x2, x4, ..., x5, x3, x1], V = RFFT(v) (length N),
//            y[k] = 2 Re(exp(-i pi k / (2N)) V[k]) (V[k] = conj(V[N-k]) above N/2).
//            J. Makhoul, "A fast cosine transform in one and two dimensions", IEEE Trans. ASSP 28(1),
//            pp. 27-34, 1980.
//  - DCT-III: the inverse of that: W[k] = exp(i pi k / (2N)) (x[k] - i x[N-k]) (x[N] = 0) for
//            k <= N/2 is Hermitian, v = IRFFT_unnormalized(W), y[2n] = v[n], y[2n+1] = v[N-1-n].
//  - DST-II: y[k] = DCT-II((-1)^n x_n)[N-1-k]; DST-III: y[k] = (-1)^k DCT-III(reverse(x))[k].
//  - DCT-IV / DST-IV: Z = FFT_2N(x_n exp(-i pi n / (2N)), zero-padded to 2N),
//            y[k] = 2 Re(exp(-i pi (2k+1) / (4N)) Z[k]) (DCT), -2 Im(...) (DST).
// The inverse transforms are the forward ones of the inverse type (I<->I, II<->III, IV<->IV) with the
// inverse normalization, as SciPy defines them. Complex inputs are transformed as their real and
// imaginary parts (strided views), as SciPy does.
#include <algorithm>
#include <cmath>
#include <string>

#include <cuda/std/complex>
#include <cufft.h>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/indexer.cuh"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/stream.hpp"
#include "fft/fft_kernels.cuh"

namespace cusci::fft {
namespace {
using cusci::detail::strided_indexer;

struct dct_params {
  int type;        // effective type 1..4 (after mapping an inverse to its forward type)
  bool sine;       // DST
  bool orth;       // orthogonalize
  std::int64_t N;  // transform length
  std::int64_t Nin;  // input length along the axis
  std::int64_t in_ax, out_ax;  // byte strides along the axis
  std::int64_t B;  // number of lines
  std::int64_t W;  // work row length (elements of the pre-kernel's output row)
  double scale;
};

__device__ __forceinline__ void sc_pi(float a, float* s, float* c) { sincospif(a, s, c); }
__device__ __forceinline__ void sc_pi(double a, double* s, double* c) { sincospi(a, s, c); }

// x_i of a line after crop/pad and the orthogonalization input weights.
template <class T>
__device__ __forceinline__ T load_x(const char* line, const dct_params& p, std::int64_t i) {
  if (i >= p.Nin) return T(0);
  T v = *reinterpret_cast<const T*>(line + i * p.in_ax);
  if (p.orth) {
    const T r2 = T(1.4142135623730950488);
    if (!p.sine && p.type == 1 && (i == 0 || i == p.N - 1)) v *= r2;
    if (!p.sine && p.type == 3 && i == 0) v *= r2;
    if (p.sine && p.type == 3 && i == p.N - 1) v *= r2;
  }
  return v;
}

template <class T>
__global__ void dct_pre_kernel(const char* __restrict__ in, strided_indexer in_batch, void* __restrict__ work,
                               dct_params p) {
  using C = cuda::std::complex<T>;
  const std::int64_t N = p.N;
  for (std::int64_t b = blockIdx.y; b < p.B; b += gridDim.y) {
    const char* line = in + in_batch.offset(b);
    for (std::int64_t m = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; m < p.W;
         m += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      const std::int64_t o = b * p.W + m;
      switch (p.type) {
        case 1: {
          T v;
          if (!p.sine) {
            v = m < N ? load_x<T>(line, p, m) : load_x<T>(line, p, 2 * (N - 1) - m);
          } else {
            if (m == 0 || m == N + 1) v = T(0);
            else if (m <= N) v = load_x<T>(line, p, m - 1);
            else v = -load_x<T>(line, p, 2 * N + 1 - m);
          }
          static_cast<T*>(work)[o] = v;
          break;
        }
        case 2: {
          const std::int64_t i = m < (N + 1) / 2 ? 2 * m : 2 * (N - 1 - m) + 1;
          T v = load_x<T>(line, p, i);
          if (p.sine && (i & 1)) v = -v;
          static_cast<T*>(work)[o] = v;
          break;
        }
        case 3: {  // m in [0, N/2]
          T a, bb;
          if (!p.sine) {
            a = load_x<T>(line, p, m);
            bb = m == 0 ? T(0) : load_x<T>(line, p, N - m);
          } else {  // DCT-III of z_j = x_{N-1-j}
            a = load_x<T>(line, p, N - 1 - m);
            bb = m == 0 ? T(0) : load_x<T>(line, p, m - 1);
          }
          T s, c;
          sc_pi(static_cast<T>(m) / static_cast<T>(2 * N), &s, &c);
          static_cast<C*>(work)[o] = C(a * c + bb * s, a * s - bb * c);
          break;
        }
        default: {  // 4: m in [0, 2N)
          C v(T(0), T(0));
          if (m < N) {
            const T x = load_x<T>(line, p, m);
            T s, c;
            sc_pi(static_cast<T>(m) / static_cast<T>(2 * N), &s, &c);
            v = C(x * c, -x * s);
          }
          static_cast<C*>(work)[o] = v;
          break;
        }
      }
    }
  }
}

// work: the FFT's output rows (complex for types 1, 2, 4; real for type 3), row length Wf.
template <class T>
__global__ void dct_post_kernel(const void* __restrict__ work, std::int64_t Wf, char* __restrict__ out,
                                strided_indexer out_batch, dct_params p) {
  using C = cuda::std::complex<T>;
  const std::int64_t N = p.N;
  const T r2 = T(0.70710678118654752440);
  for (std::int64_t b = blockIdx.y; b < p.B; b += gridDim.y) {
    char* line = out + out_batch.offset(b);
    for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < N;
         k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
      T y;
      switch (p.type) {
        case 1: {
          const C* w = static_cast<const C*>(work) + b * Wf;
          if (!p.sine) {
            y = w[k].real();
            if (p.orth && (k == 0 || k == N - 1)) y *= r2;
          } else {
            y = -w[k + 1].imag();
          }
          break;
        }
        case 2: {
          const C* w = static_cast<const C*>(work) + b * Wf;
          const std::int64_t kk = p.sine ? N - 1 - k : k;
          C v = kk <= N / 2 ? w[kk] : cuda::std::conj(w[N - kk]);
          T s, c;
          sc_pi(static_cast<T>(kk) / static_cast<T>(2 * N), &s, &c);
          y = T(2) * (v.real() * c + v.imag() * s);
          if (p.orth && kk == 0) y *= r2;
          break;
        }
        case 3: {
          const T* v = static_cast<const T*>(work) + b * Wf;
          y = (k & 1) ? v[N - 1 - (k - 1) / 2] : v[k / 2];
          if (p.sine && (k & 1)) y = -y;
          break;
        }
        default: {
          const C* w = static_cast<const C*>(work) + b * Wf;
          const C z = w[k];
          T s, c;
          sc_pi(static_cast<T>(2 * k + 1) / static_cast<T>(4 * N), &s, &c);
          y = p.sine ? T(-2) * (z.imag() * c - z.real() * s) : T(2) * (z.real() * c + z.imag() * s);
          break;
        }
      }
      *reinterpret_cast<T*>(line + k * p.out_ax) = y * static_cast<T>(p.scale);
    }
  }
}

strided_indexer batch_indexer(const ndarray& a, int axis) {
  shape_t shape, strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  cusci::detail::coalesce(shape, {&strides});
  return cusci::detail::make_indexer(shape, strides);
}

dim3 grid2(std::int64_t len, std::int64_t rows) {
  const std::int64_t gx = std::min<std::int64_t>((len + 255) / 256, 1LL << 20);
  const std::int64_t gy = std::min<std::int64_t>(rows, 65535);
  return dim3(static_cast<unsigned>(gx < 1 ? 1 : gx), static_cast<unsigned>(gy < 1 ? 1 : gy));
}

// One axis: in (real float32/float64 view, any strides) -> out (same dtype, same shape except along
// axis, where it has length N).
void dct_axis(const ndarray& in, ndarray& out, int axis, int type, bool sine, bool orth, double scale) {
  dct_params p{};
  p.type = type;
  p.sine = sine;
  p.orth = orth;
  p.N = out.shape()[axis];
  p.Nin = in.shape()[axis];
  p.in_ax = in.strides()[axis];
  p.out_ax = out.strides()[axis];
  p.B = out.size() / p.N;
  p.scale = scale;
  if (p.B == 0) return;
  const bool dbl = in.dtype() == dtype::float64;
  const std::int64_t N = p.N;
  // Work row lengths: pre-kernel output (p.W) and FFT output (Wf), element types per type.
  std::int64_t M = 0, Wf = 0;
  dtype pre_dt, post_dt;
  const dtype rd = dbl ? dtype::float64 : dtype::float32;
  const dtype cd = dbl ? dtype::complex128 : dtype::complex64;
  switch (type) {
    case 1: M = sine ? 2 * (N + 1) : 2 * (N - 1); p.W = M; Wf = M / 2 + 1; pre_dt = rd; post_dt = cd; break;
    case 2: M = N; p.W = N; Wf = N / 2 + 1; pre_dt = rd; post_dt = cd; break;
    case 3: M = N; p.W = N / 2 + 1; Wf = N; pre_dt = cd; post_dt = rd; break;
    default: M = 2 * N; p.W = 2 * N; Wf = 2 * N; pre_dt = cd; post_dt = cd; break;
  }
  ndarray w1 = empty({p.B, p.W}, pre_dt);
  ndarray w2 = type == 4 ? w1 : empty({p.B, Wf}, post_dt);
  const cudaStream_t s = get_current_stream();
  const strided_indexer ib = batch_indexer(in, axis), ob = batch_indexer(out, axis);
  if (dbl)
    dct_pre_kernel<double><<<grid2(p.W, p.B), 256, 0, s>>>(static_cast<const char*>(in.data()), ib, w1.data(), p);
  else
    dct_pre_kernel<float><<<grid2(p.W, p.B), 256, 0, s>>>(static_cast<const char*>(in.data()), ib, w1.data(), p);
  CUSCI_CHECK_LAUNCH();
  const int t = type == 3 ? (dbl ? CUFFT_Z2D : CUFFT_C2R)
                          : type == 4 ? (dbl ? CUFFT_Z2Z : CUFFT_C2C) : (dbl ? CUFFT_D2Z : CUFFT_R2C);
  detail::run_axis(t, M, type == 3 ? p.W : M, Wf, p.B, 1, w1.data(), w2.data(), CUFFT_FORWARD);
  if (dbl)
    dct_post_kernel<double><<<grid2(N, p.B), 256, 0, s>>>(w2.data(), Wf, static_cast<char*>(out.data()), ob, p);
  else
    dct_post_kernel<float><<<grid2(N, p.B), 256, 0, s>>>(w2.data(), Wf, static_cast<char*>(out.data()), ob, p);
  CUSCI_CHECK_LAUNCH();
}

// The real (part 0) or imaginary (part 1) part of a complex array as a strided real view.
ndarray part_view(const ndarray& a, int part) {
  const dtype rd = real_dtype(a.dtype());
  return ndarray(a.memory(), rd, a.shape(), a.strides(),
                 a.offset() + part * static_cast<std::int64_t>(itemsize(rd)), a.device());
}

struct dct_request {
  const char* fn;
  int type;
  bool sine, inverse;
  std::vector<int> axes;
  shape_t lens;
  norm_mode norm;
  std::optional<bool> orthogonalize;
};

void check_type(int type, const char* fn) {
  CUSCI_EXPECTS(type >= 1 && type <= 4, value_error,
                std::string(fn) + ": invalid DCT type, expected 1, 2, 3 or 4, got " + std::to_string(type));
}

// Runs the axes one after another on real data.
ndarray dct_real(const ndarray& x, const dct_request& r) {
  const int eff = r.inverse ? (r.type == 2 ? 3 : r.type == 3 ? 2 : r.type) : r.type;
  const norm_mode nm = r.inverse ? (r.norm == norm_mode::backward  ? norm_mode::forward
                                    : r.norm == norm_mode::forward ? norm_mode::backward
                                                                   : norm_mode::ortho)
                                 : r.norm;
  const bool orth = r.orthogonalize ? *r.orthogonalize : (r.norm == norm_mode::ortho);
  ndarray cur = x;
  for (std::size_t i = 0; i < r.axes.size(); ++i) {
    const int a = r.axes[i];
    const std::int64_t N = r.lens[i];
    shape_t os = cur.shape();
    os[a] = N;
    ndarray out = empty(os, cur.dtype());
    const double M = (eff == 1) ? (r.sine ? 2.0 * (N + 1) : 2.0 * (N - 1)) : 2.0 * N;
    const double scale = detail::norm_factor(nm, M, true);
    if (out.size() != 0) dct_axis(cur, out, a, eff, r.sine, orth, scale);
    cur = out;
  }
  return cur;
}

ndarray dct_run(const ndarray& x0, const dct_request& r) {
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    CUSCI_EXPECTS(!(r.type == 1 && !r.sine && r.lens[i] < 2), value_error,
                  std::string(r.fn) + ": a type-1 DCT needs a length of at least 2, got " + std::to_string(r.lens[i]));
  ndarray x = detail::promote(x0, r.fn);
  if (r.axes.empty()) return x.copy();
  if (!is_complex(x.dtype())) return dct_real(x, r);
  // Complex: real and imaginary parts separately, written into the parts of a complex result. As
  // SciPy 1.18 does for complex inputs, `orthogonalize` is not honoured: the default (orthogonalized
  // exactly when norm is ortho) applies.
  dct_request rc = r;
  rc.orthogonalize.reset();
  shape_t os = x.shape();
  for (std::size_t i = 0; i < r.axes.size(); ++i) os[r.axes[i]] = r.lens[i];
  ndarray out = empty(os, x.dtype());
  if (out.size() == 0) return out;
  for (int part = 0; part < 2; ++part) {
    ndarray re = dct_real(part_view(x, part), rc);
    ndarray dst = part_view(out, part);
    cusci::detail::copy_cast(re, dst);
  }
  return out;
}

dct_request make_1d(const ndarray& x, const dct_options& o, const char* fn, bool sine, bool inverse) {
  check_type(o.type, fn);
  const int a = detail::normalize_axis(o.axis, x.ndim(), fn);
  const std::int64_t n = o.n ? *o.n : x.shape()[a];
  CUSCI_EXPECTS(n >= 1, value_error,
                std::string(fn) + ": invalid number of data points (" + std::to_string(n) + ") specified");
  return {fn, o.type, sine, inverse, {a}, {n}, o.norm, o.orthogonalize};
}

dct_request make_nd(const ndarray& x, const dctn_options& o, const char* fn, bool sine, bool inverse) {
  check_type(o.type, fn);
  dct_request r{fn, o.type, sine, inverse, {}, {}, o.norm, o.orthogonalize};
  detail::init_nd(x, o.s, o.axes, fn, r.lens, r.axes, false);
  return r;
}
}  // namespace

ndarray dct(const ndarray& x, const dct_options& o) { return dct_run(x, make_1d(x, o, "cusci::fft::dct", false, false)); }
ndarray idct(const ndarray& x, const dct_options& o) { return dct_run(x, make_1d(x, o, "cusci::fft::idct", false, true)); }
ndarray dst(const ndarray& x, const dct_options& o) { return dct_run(x, make_1d(x, o, "cusci::fft::dst", true, false)); }
ndarray idst(const ndarray& x, const dct_options& o) { return dct_run(x, make_1d(x, o, "cusci::fft::idst", true, true)); }
ndarray dctn(const ndarray& x, const dctn_options& o) { return dct_run(x, make_nd(x, o, "cusci::fft::dctn", false, false)); }
ndarray idctn(const ndarray& x, const dctn_options& o) {
  return dct_run(x, make_nd(x, o, "cusci::fft::idctn", false, true));
}
ndarray dstn(const ndarray& x, const dctn_options& o) { return dct_run(x, make_nd(x, o, "cusci::fft::dstn", true, false)); }
ndarray idstn(const ndarray& x, const dctn_options& o) {
  return dct_run(x, make_nd(x, o, "cusci::fft::idstn", true, true));
}

}  // namespace cusci::fft
