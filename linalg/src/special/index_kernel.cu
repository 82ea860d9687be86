// The one kernel behind cusci::linalg's special matrices (index_kernel.hpp): element (b, i, j) is
// gathered from the batch's input vectors or the constants, or computed from a closed formula of
// (i, j, n). Instantiated per item size (1, 2, 4, 8, 16 bytes); the formulas exist in the 8- and
// 16-byte instantiations only.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cusci/error.hpp"
#include "cusci/stream.hpp"
#include "special/index_kernel.hpp"

namespace cusci::linalg::detail {

namespace {

template <int S> struct alignas(S) item {
  unsigned char b[S];
};

using i64 = std::int64_t;
using u64 = std::uint64_t;

__host__ __device__ inline int popcount(u64 v) {
#ifdef __CUDA_ARCH__
  return __popcll(v);
#else
  return __builtin_popcountll(v);
#endif
}

__host__ __device__ u64 gcd_u64(u64 a, u64 b) {
  while (b != 0) {
    const u64 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// C(m, k) exactly when it fits in 64 bits (m <= 67 always does); 0 outside 0 <= k <= m. Every
/// intermediate divides the result by gcd reduction, so nothing overflows before the result would.
__host__ __device__ u64 binom_u64(i64 m, i64 k) {
  if (k < 0 || m < 0 || k > m) return 0;
  if (k > m - k) k = m - k;
  u64 r = 1;
  for (i64 t = 1; t <= k; ++t) {
    u64 x = static_cast<u64>(m - k + t);
    const u64 g = gcd_u64(r, static_cast<u64>(t));
    r /= g;
    x /= static_cast<u64>(t) / g;
    r *= x;
  }
  return r;
}

/// C(m, k) in float64: exact (one rounding) for m <= 67, else the multiplicative product.
__host__ __device__ double binom_f64(i64 m, i64 k) {
  if (k < 0 || m < 0 || k > m) return 0.0;
  if (m <= 67) return static_cast<double>(binom_u64(m, k));
  if (k > m - k) k = m - k;
  double r = 1.0;
  for (i64 t = 1; t <= k; ++t) r = r * static_cast<double>(m - k + t) / static_cast<double>(t);
  return r;
}

/// Where element (b, i, j) of a gather plan comes from: item `idx` of x or y (of batch b), or a constant.
enum class src : int { x, y, zero, one, minus_one };
struct src_ref {
  src from;
  i64 idx;
};

__host__ __device__ src_ref gather_src(const index_plan& p, i64 i, i64 j) {
  constexpr src_ref zero{src::zero, 0}, one{src::one, 0}, minus_one{src::minus_one, 0};
  switch (p.kind) {
    case index_kind::toeplitz:  // the diagonal comes from c, as SciPy
      return j > i ? src_ref{src::y, j - i} : src_ref{src::x, i - j};
    case index_kind::circulant: {
      i64 d = (i - j) % p.cols;
      if (d < 0) d += p.cols;
      return {src::x, d};
    }
    case index_kind::hankel: return i + j < p.xlen ? src_ref{src::x, i + j} : src_ref{src::y, i + j - p.xlen + 1};
    case index_kind::companion: return i == 0 ? src_ref{src::x, j} : (i == j + 1 ? one : zero);
    case index_kind::leslie: return i == 0 ? src_ref{src::x, j} : (i == j + 1 ? src_ref{src::y, j} : zero);
    case index_kind::fiedler_companion: {
      // SciPy's assignments: c[0, 0] = -a1, c[1, 0] = 1; for even i: c[i, i + 1] = -a[i + 2],
      // c[i, i + 2] = 1, c[i, i - 1] = -a[i + 1]; for odd i >= 3: c[i, i - 2] = 1 (x holds -a / a0).
      if (j == 0 && i <= 1) return i == 0 ? src_ref{src::x, 1} : one;
      if (i % 2 == 0) {
        if (j == i + 1) return {src::x, i + 2};
        if (j == i + 2) return one;
        if (j == i - 1) return {src::x, i + 1};
      } else if (i >= 3 && j == i - 2) {
        return one;
      }
      return zero;
    }
    case index_kind::convolution: {
      const i64 d = i - j + p.p0;
      return d >= 0 && d < p.xlen ? src_ref{src::x, d} : zero;
    }
    case index_kind::hadamard: return (popcount(static_cast<u64>(i & j)) & 1) ? minus_one : one;
    default: return zero;
  }
}

/// The item a source reference names (constants read from the plan with constant indices).
template <int S>
__host__ __device__ item<S> load(const index_plan& p, src_ref r, i64 b) {
  item<S> v;
  switch (r.from) {
    case src::x: return static_cast<const item<S>*>(p.x)[b * p.xlen + r.idx];
    case src::y: return static_cast<const item<S>*>(p.y)[b * p.ylen + r.idx];
    case src::one: memcpy(&v, p.k[1], S); return v;
    case src::minus_one: memcpy(&v, p.k[2], S); return v;
    default: memcpy(&v, p.k[0], S); return v;
  }
}

__host__ __device__ double formula_f64(const index_plan& p, i64 i, i64 j) {
  const i64 n = p.p0;
  switch (p.kind) {
    case index_kind::hilbert: return 1.0 / (1.0 + static_cast<double>(i + j));
    case index_kind::helmert: {
      const i64 r = i + p.p1;
      if (r == 0) return 1.0 / sqrt(static_cast<double>(n));
      const double h = j < r ? 1.0 : (j == r ? -static_cast<double>(r) : 0.0);
      return h / sqrt(static_cast<double>(r * (r + 1)));
    }
    case index_kind::invhilbert_f: {
      const i64 s = i + j;
      const double c = binom_f64(s, i);
      const double v = static_cast<double>(s + 1) * binom_f64(n + i, n - j - 1) * binom_f64(n + j, n - i - 1) * (c * c);
      return (s & 1) ? -v : v;
    }
    case index_kind::pascal_f:
      if (p.p1 == 0) return binom_f64(i + j, i);
      return p.p1 == 1 ? binom_f64(i, j) : binom_f64(j, i);
    case index_kind::invpascal_f: {
      const double sg = ((i - j) & 1) ? -1.0 : 1.0;
      if (p.p1 == 1) return sg * binom_f64(i, j);
      if (p.p1 == 2) return sg * binom_f64(j, i);
      // sum over t < n - a of C(a + t, t) C(a + t, c): exact binomials at t = 0 and while a + t <= 67, then updated
      // by their ratios (C(m + 1, t + 1) = C(m, t) (m + 1) / (t + 1), C(m + 1, c) = C(m, c) (m + 1) / (m + 1 - c)),
      // so an element costs O(n)
      const i64 a = i > j ? i : j, c = i > j ? j : i;
      double v = 0.0, b1 = 1.0, b2 = 1.0;
      for (i64 t = 0; t < n - a; ++t) {
        const i64 m = a + t;
        if (m <= 67 || t == 0) {
          b1 = binom_f64(m, t);
          b2 = binom_f64(m, c);
        } else {
          b1 = b1 * static_cast<double>(m) / static_cast<double>(t);
          b2 = b2 * static_cast<double>(m) / static_cast<double>(m - c);
        }
        v += b1 * b2;
      }
      return sg * v;
    }
    default: return 0.0;
  }
}

__host__ __device__ i64 formula_i64(const index_plan& p, i64 i, i64 j) {
  const i64 n = p.p0;
  switch (p.kind) {
    case index_kind::invhilbert_i: {
      const i64 s = i + j;
      const u64 c = binom_u64(s, i);
      // every factor is >= 1, so no partial product exceeds the (int64) result
      const u64 v = static_cast<u64>(s + 1) * binom_u64(n + i, n - j - 1) * binom_u64(n + j, n - i - 1) * c * c;
      return (s & 1) ? -static_cast<i64>(v) : static_cast<i64>(v);
    }
    case index_kind::pascal_u:
      if (p.p1 == 0) return static_cast<i64>(binom_u64(i + j, i));
      return static_cast<i64>(p.p1 == 1 ? binom_u64(i, j) : binom_u64(j, i));
    case index_kind::invpascal_i: {
      const bool neg = ((i - j) & 1) != 0;
      u64 v = 0;
      if (p.p1 == 1) {
        v = binom_u64(i, j);
      } else if (p.p1 == 2) {
        v = binom_u64(j, i);
      } else {
        const i64 a = i > j ? i : j, c = i > j ? j : i;
        for (i64 t = 0; t < n - a; ++t) v += binom_u64(a + t, t) * binom_u64(a + t, a + t - c);
      }
      return neg ? -static_cast<i64>(v) : static_cast<i64>(v);
    }
    default: return 0;
  }
}

/// exp(-2 pi i (i j mod n) / n), scaled by 1/sqrt(n) (p1 == 1) or 1/n (p1 == 2), as (re, im).
__host__ __device__ void dft_element(const index_plan& p, i64 i, i64 j, double* v) {
  const u64 n = static_cast<u64>(p.p0);
  // (i j) mod n without overflow: i, j < n < 2^63 (one product when n <= 2^32)
  u64 m = 0, a = static_cast<u64>(i) % n, b = static_cast<u64>(j);
  if (n <= (u64{1} << 32)) {
    m = (a * b) % n;
    b = 0;
  }
  while (b != 0) {
    if (b & 1) m = (m >= n - a) ? m - (n - a) : m + a;
    a = (a >= n - a) ? a - (n - a) : a + a;
    b >>= 1;
  }
  double sn, cs;
  sincospi(2.0 * static_cast<double>(m) / static_cast<double>(n), &sn, &cs);
  v[0] = cs;
  v[1] = -sn;
  if (p.p1 == 1) {
    const double q = sqrt(static_cast<double>(n));
    v[0] /= q;
    v[1] /= q;
  } else if (p.p1 == 2) {
    v[0] /= static_cast<double>(n);
    v[1] /= static_cast<double>(n);
  }
}

template <int S>
__global__ void index_kernel(index_plan p, item<S>* out, i64 total) {
  for (i64 t = static_cast<i64>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += static_cast<i64>(gridDim.x) * blockDim.x) {
    const i64 j = t % p.cols;
    const i64 r = t / p.cols;
    const i64 i = r % p.rows;
    const i64 b = r / p.rows;
    if constexpr (S == 8) {
      if (p.kind >= index_kind::hilbert) {
        item<8> it;
        if (p.kind == index_kind::invhilbert_i || p.kind == index_kind::pascal_u ||
            p.kind == index_kind::invpascal_i) {
          const i64 v = formula_i64(p, i, j);
          memcpy(&it, &v, 8);
        } else {
          const double v = formula_f64(p, i, j);
          memcpy(&it, &v, 8);
        }
        out[t] = it;
        continue;
      }
    }
    if constexpr (S == 16) {
      if (p.kind == index_kind::dft) {
        double v[2];
        dft_element(p, i, j, v);
        item<16> it;
        memcpy(&it, v, 16);
        out[t] = it;
        continue;
      }
    }
    out[t] = load<S>(p, gather_src(p, i, j), b);
  }
}

template <int S>
void launch(const index_plan& p, void* out, i64 total) {
  constexpr int threads = 256;
  const i64 blocks = std::min<i64>((total + threads - 1) / threads, i64{1} << 20);
  index_kernel<S><<<static_cast<unsigned>(blocks), threads, 0, get_current_stream()>>>(p, static_cast<item<S>*>(out), total);
  CUSCI_CHECK_LAUNCH();
}

}  // namespace

void index_fill(const index_plan& p, std::size_t itemsize, void* out) {
  const i64 total = p.nbatch * p.rows * p.cols;
  if (total == 0) return;
  switch (itemsize) {
    case 1: launch<1>(p, out, total); break;
    case 2: launch<2>(p, out, total); break;
    case 4: launch<4>(p, out, total); break;
    case 8: launch<8>(p, out, total); break;
    case 16: launch<16>(p, out, total); break;
    default: throw not_implemented_error("cusci::linalg: special matrix of item size " + std::to_string(itemsize));
  }
}

}  // namespace cusci::linalg::detail
