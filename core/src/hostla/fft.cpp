// Host FFT for design code: Stockham radix-4 passes (a radix-2 last pass for odd powers of two) for
// powers of two, Bluestein's chirp-z algorithm (through power-of-two transforms of a length >= 2n - 1) for
// every other length; real transforms of even length n as one complex transform of n/2 points. Plans
// (per-pass twiddle tables), the passes' work buffer, chirp and the transformed chirp filter are cached
// per thread (and length). Twiddles and chirps are computed directly from exactly reduced angles
// (k^2 mod 2n), so errors stay at a few ulps of the scale.
// Conventions are numpy.fft's: forward sum x[j] e^{-2 pi i jk/n}, inverse scaled by 1/n.
#include <algorithm>
#include <cmath>
#include <string>

#include "cusci/detail/host_linalg.hpp"
#include "cusci/error.hpp"

namespace cusci::detail::hostla {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

bool is_pow2(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Complex product without the C99 Annex G inf/NaN recovery of operator* (a library call per product);
// the inputs here are finite transforms.
inline cplx mul(const cplx& a, const cplx& b) {
  return cplx(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// e^{sign * 2 pi i k / n} with the angle reduced to the first octant for accuracy.
cplx unit_root(std::int64_t k, std::int64_t n, double sgn) {
  // reduce k to [0, n)
  k %= n;
  if (k < 0) k += n;
  // use symmetry: angle = 2 pi k / n; evaluate via the nearest quarter
  const std::int64_t k8 = 8 * k;  // compare against multiples of n
  double c, s;
  if (k8 <= n) {  // [0, pi/4]
    const double t = 2 * kPi * static_cast<double>(k) / static_cast<double>(n);
    c = std::cos(t);
    s = std::sin(t);
  } else if (k8 <= 3 * n) {  // around pi/2: angle = pi/2 + t
    const double t = 2 * kPi * static_cast<double>(4 * k - n) / static_cast<double>(4 * n);
    c = -std::sin(t);
    s = std::cos(t);
  } else if (k8 <= 5 * n) {  // around pi
    const double t = 2 * kPi * static_cast<double>(2 * k - n) / static_cast<double>(2 * n);
    c = -std::cos(t);
    s = -std::sin(t);
  } else if (k8 <= 7 * n) {  // around 3pi/2
    const double t = 2 * kPi * static_cast<double>(4 * k - 3 * n) / static_cast<double>(4 * n);
    c = std::sin(t);
    s = -std::cos(t);
  } else {  // around 2pi
    const double t = 2 * kPi * static_cast<double>(k - n) / static_cast<double>(n);
    c = std::cos(t);
    s = std::sin(t);
  }
  return cplx(c, sgn * s);
}

// A power-of-two transform plan: per-stage twiddle tables of the Stockham radix-4 passes (contiguous, in
// the order the passes read them) and the twiddles of the real-input pre/post-processing for real length
// 2n. Plans of the last few sizes used on this thread are cached (design code transforms the same
// lengths repeatedly; Bluestein makes three transforms of one size per call).
struct pow2_plan {
  std::size_t n = 0;
  std::vector<cplx> tw;   // for each radix-4 pass of length L (n, n/4, ...): w^p, w^2p, w^3p, p < L/4
  std::vector<cplx> rtw;  // e^{-2 pi i k / (2n)}, k <= n/2 (real transforms of length 2n), built on demand
};

// The passes' ping-pong buffer: one per thread, as large as the largest transform made on it (reused, so
// that repeated transforms touch no new memory).
double* work_buffer(std::size_t n) {
  thread_local std::vector<cplx> work;
  if (work.size() < n) work.assign(n, cplx(0));
  return reinterpret_cast<double*>(work.data());
}

pow2_plan& plan_for(std::size_t n) {
  constexpr std::size_t kSlots = 4;
  thread_local pow2_plan plans[kSlots];
  thread_local std::size_t next = 0;
  for (auto& p : plans)
    if (p.n == n) return p;
  pow2_plan& p = plans[next];
  next = (next + 1) % kSlots;
  p.n = n;
  p.tw.clear();
  p.rtw.clear();
  p.tw.reserve(n);  // 3/4 n + 3/16 n + ... < n entries
  for (std::size_t L = n; L >= 4; L /= 4) {
    const std::size_t m = L / 4;
    for (std::size_t q = 0; q < m; ++q) {
      const auto k = static_cast<std::int64_t>(q), LL = static_cast<std::int64_t>(L);
      p.tw.push_back(unit_root(k, LL, -1.0));
      p.tw.push_back(unit_root(2 * k, LL, -1.0));
      p.tw.push_back(unit_root(3 * k, LL, -1.0));
    }
  }
  return p;
}

// One radix-4 decimation-in-frequency Stockham pass: sub-transforms of length L = 4m at stride s, from x
// to y (x[q + s(p + jm)] -> y[q + s(4p + j)]). Inv: the conjugate twiddles (backward transform).
template <bool Inv>
void radix4_pass(std::size_t m, std::size_t s, const double* __restrict X, double* __restrict Y, const cplx* tw) {
  const double sg = Inv ? -1.0 : 1.0;
  for (std::size_t p = 0; p < m; ++p) {
    const double w1r = tw[3 * p].real(), w1i = sg * tw[3 * p].imag();
    const double w2r = tw[3 * p + 1].real(), w2i = sg * tw[3 * p + 1].imag();
    const double w3r = tw[3 * p + 2].real(), w3i = sg * tw[3 * p + 2].imag();
    const double* x0 = X + 2 * s * p;
    const double* x1 = X + 2 * s * (p + m);
    const double* x2 = X + 2 * s * (p + 2 * m);
    const double* x3 = X + 2 * s * (p + 3 * m);
    double* y0 = Y + 2 * s * (4 * p);
    double* y1 = y0 + 2 * s;
    double* y2 = y1 + 2 * s;
    double* y3 = y2 + 2 * s;
    for (std::size_t q = 0; q < s; ++q) {
      const double ar = x0[2 * q], ai = x0[2 * q + 1], br = x1[2 * q], bi = x1[2 * q + 1];
      const double cr = x2[2 * q], ci = x2[2 * q + 1], dr = x3[2 * q], di = x3[2 * q + 1];
      const double apcr = ar + cr, apci = ai + ci, amcr = ar - cr, amci = ai - ci;
      const double bpdr = br + dr, bpdi = bi + di;
      // j (b - d) with j = -i forward, +i backward: forward -i(b - d) = ((bi - di), -(br - dr))
      const double jr = sg * (bi - di), ji = -sg * (br - dr);
      y0[2 * q] = apcr + bpdr;
      y0[2 * q + 1] = apci + bpdi;
      const double t1r = amcr + jr, t1i = amci + ji;
      y1[2 * q] = t1r * w1r - t1i * w1i;
      y1[2 * q + 1] = t1r * w1i + t1i * w1r;
      const double t2r = apcr - bpdr, t2i = apci - bpdi;
      y2[2 * q] = t2r * w2r - t2i * w2i;
      y2[2 * q + 1] = t2r * w2i + t2i * w2r;
      const double t3r = amcr - jr, t3i = amci - ji;
      y3[2 * q] = t3r * w3r - t3i * w3i;
      y3[2 * q + 1] = t3r * w3i + t3i * w3r;
    }
  }
}

// The last pass of an odd power of two: length-2 transforms at stride s (x[q], x[q + s] -> y[q], y[q + s]).
void radix2_last(std::size_t s, const double* __restrict X, double* __restrict Y) {
  for (std::size_t q = 0; q < 2 * s; q += 2) {
    const double ar = X[q], ai = X[q + 1], br = X[q + 2 * s], bi = X[q + 2 * s + 1];
    Y[q] = ar + br;
    Y[q + 1] = ai + bi;
    Y[q + 2 * s] = ar - br;
    Y[q + 2 * s + 1] = ai - bi;
  }
}

// In-place transform of length n (a power of two) of the n complex values interleaved in a[0..2n), sign
// -1 forward, +1 backward (unscaled).
void fft_pow2(double* a, std::size_t n, double sgn) {
  if (n <= 1) return;
  pow2_plan& pl = plan_for(n);
  double* src = a;
  double* dst = work_buffer(n);
  const cplx* tw = pl.tw.data();
  std::size_t L = n, s = 1;
  for (; L >= 4; L /= 4, s *= 4) {
    if (sgn > 0)
      radix4_pass<true>(L / 4, s, src, dst, tw);
    else
      radix4_pass<false>(L / 4, s, src, dst, tw);
    tw += 3 * (L / 4);
    std::swap(src, dst);
  }
  if (L == 2) {
    radix2_last(s, src, dst);
    std::swap(src, dst);
  }
  if (src != a) std::copy(src, src + 2 * n, a);
}

void fft_pow2(cplx* a, std::size_t n, double sgn) { fft_pow2(reinterpret_cast<double*>(a), n, sgn); }

void fft_pow2(std::vector<cplx>& a, double sgn) { fft_pow2(a.data(), a.size(), sgn); }

// e^{-2 pi i k / (2n)}, k <= n/2, for real transforms of length 2n (n a power of two).
const std::vector<cplx>& real_twiddles(std::size_t n) {
  pow2_plan& pl = plan_for(n);
  if (pl.rtw.empty()) {
    pl.rtw.resize(n / 2 + 1);
    for (std::size_t k = 0; k <= n / 2; ++k)
      pl.rtw[k] = unit_root(static_cast<std::int64_t>(k), static_cast<std::int64_t>(2 * n), -1.0);
  }
  return pl.rtw;
}

// Unscaled DFT of any length via Bluestein.
std::vector<cplx> dft_any(const std::vector<cplx>& x, double sgn) {
  const std::size_t n = x.size();
  if (n == 0) return {};
  if (is_pow2(n)) {
    std::vector<cplx> a = x;
    fft_pow2(a, sgn);
    return a;
  }
  std::size_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  // chirp w[k] = e^{sgn i pi k^2 / n} = unit_root(k^2 mod 2n, 2n)
  // The chirp of the last length used on this thread (its conjugate for the other direction).
  thread_local std::vector<cplx> chirp;
  thread_local std::size_t chirp_n = 0;
  const std::int64_t n2 = 2 * static_cast<std::int64_t>(n);
  if (chirp_n != n) {
    chirp.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t kk =
          static_cast<std::int64_t>((static_cast<unsigned __int128>(k) * k) % static_cast<unsigned __int128>(n2));
      chirp[k] = unit_root(kk, n2, -1.0);
    }
    chirp_n = n;
  }
  std::vector<cplx> w(n);
  for (std::size_t k = 0; k < n; ++k) w[k] = sgn < 0 ? chirp[k] : std::conj(chirp[k]);
  std::vector<cplx> a(m, cplx(0));
  for (std::size_t k = 0; k < n; ++k) a[k] = mul(x[k], w[k]);
  // The transformed chirp filter, per length and direction (cached with the chirp).
  thread_local std::vector<cplx> bf[2];
  thread_local std::size_t bf_n[2] = {0, 0};
  const int dir = sgn < 0 ? 0 : 1;
  if (bf_n[dir] != n) {
    std::vector<cplx>& b = bf[dir];
    b.assign(m, cplx(0));
    b[0] = std::conj(w[0]);
    for (std::size_t k = 1; k < n; ++k) b[k] = b[m - k] = std::conj(w[k]);
    fft_pow2(b, -1);
    bf_n[dir] = n;
  }
  const std::vector<cplx>& b = bf[dir];
  fft_pow2(a, -1);
  for (std::size_t k = 0; k < m; ++k) a[k] = mul(a[k], b[k]);
  fft_pow2(a, +1);
  const double inv_m = 1.0 / static_cast<double>(m);
  std::vector<cplx> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = mul(a[k] * inv_m, w[k]);
  return y;
}

}  // namespace

std::vector<cplx> fft(const std::vector<cplx>& x, bool inverse) {
  std::vector<cplx> y = dft_any(x, inverse ? +1.0 : -1.0);
  if (inverse && !y.empty()) {
    const double s = 1.0 / static_cast<double>(y.size());
    for (auto& v : y) v *= s;
  }
  return y;
}

namespace {

// e^{-2 pi i k / n} for k <= n/2 of an even real length n = 2h (cached table for power-of-two h).
inline cplx real_twiddle(const std::vector<cplx>* tab, std::size_t k, std::size_t h) {
  if (tab) return k <= h / 2 ? (*tab)[k] : -std::conj((*tab)[h - k]);
  return unit_root(static_cast<std::int64_t>(k), static_cast<std::int64_t>(2 * h), -1.0);
}

}  // namespace

void rfft(const double* x, std::size_t len, std::int64_t n, std::vector<cplx>& y) {
  if (n < 1)
    throw cusci::value_error("cusci::detail::hostla::rfft: invalid number of FFT data points (" + std::to_string(n) +
                             ") specified");
  const std::size_t nn = static_cast<std::size_t>(n);
  const std::size_t c = std::min(len, nn);
  if (nn % 2 != 0 || nn < 2) {
    std::vector<cplx> a(nn, cplx(0));
    for (std::size_t i = 0; i < c; ++i) a[i] = x[i];
    a = dft_any(a, -1.0);
    y.assign(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nn / 2 + 1));
    return;
  }
  // Even n = 2h: the even and odd samples as the real and imaginary parts of one transform of length h,
  // separated afterwards (X[k] = E[k] + e^{-2 pi i k/n} O[k]), in place in the output.
  const std::size_t h = nn / 2;
  y.assign(h + 1, cplx(0));
  double* yd = reinterpret_cast<double*>(y.data());
  std::copy(x, x + c, yd);
  if (is_pow2(h)) {
    fft_pow2(y.data(), h, -1.0);
  } else {
    std::vector<cplx> z(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(h));
    z = dft_any(z, -1.0);
    std::copy(z.begin(), z.end(), y.begin());
  }
  const std::vector<cplx>* tab = is_pow2(h) ? &real_twiddles(h) : nullptr;
  const cplx z0 = y[0];
  y[0] = cplx(z0.real() + z0.imag(), 0.0);
  y[h] = cplx(z0.real() - z0.imag(), 0.0);
  for (std::size_t k = 1; k <= h / 2; ++k) {
    // the pair k, h - k from Z[k], Z[h - k]
    const cplx a = y[k], b = std::conj(y[h - k]);
    const double er = 0.5 * (a.real() + b.real()), ei = 0.5 * (a.imag() + b.imag());
    // O = -i (a - b) / 2
    const double orr = 0.5 * (a.imag() - b.imag()), oi = -0.5 * (a.real() - b.real());
    const cplx w = real_twiddle(tab, k, h);
    const double tr = w.real() * orr - w.imag() * oi, ti = w.real() * oi + w.imag() * orr;
    y[k] = cplx(er + tr, ei + ti);
    // X[h - k] = conj(E[k] - W^k O[k]) (E and O of h - k are the conjugates, W^{h-k} = -conj(W^k))
    y[h - k] = cplx(er - tr, -(ei - ti));
  }
}

std::vector<cplx> rfft(const std::vector<double>& x, std::int64_t n) {
  std::vector<cplx> y;
  rfft(x.data(), x.size(), n, y);
  return y;
}

void irfft(const cplx* x, std::size_t len, std::int64_t n, std::vector<double>& out) {
  if (n < 1)
    throw cusci::value_error("cusci::detail::hostla::irfft: invalid number of FFT data points (" +
                             std::to_string(n) + ") specified");
  const std::size_t nn = static_cast<std::size_t>(n), hh = nn / 2 + 1;
  if (nn % 2 != 0 || nn < 2) {
    std::vector<cplx> full(nn, cplx(0));
    for (std::size_t k = 0; k < hh && k < len; ++k) full[k] = x[k];
    full[0] = cplx(full[0].real(), 0.0);
    if (nn % 2 == 0) full[nn / 2] = cplx(full[nn / 2].real(), 0.0);
    for (std::size_t k = 1; k < hh; ++k)
      if (nn - k != k) full[nn - k] = std::conj(full[k]);
    std::vector<cplx> y = dft_any(full, +1.0);
    out.resize(nn);
    const double s = 1.0 / static_cast<double>(n);
    for (std::size_t i = 0; i < nn; ++i) out[i] = y[i].real() * s;
    return;
  }
  // Even n = 2h: Z[k] = (X[k] + conj X[h-k]) + i e^{2 pi i k/n} (X[k] - conj X[h-k]), whose inverse
  // transform of length h holds the even (real part) and odd (imaginary part) samples, times n.
  const std::size_t h = nn / 2;
  auto X = [&](std::size_t k) { return k < len ? x[k] : cplx(0); };
  const cplx x0(X(0).real(), 0.0), xh(X(h).real(), 0.0);
  const std::vector<cplx>* tab = is_pow2(h) ? &real_twiddles(h) : nullptr;
  // Z is built interleaved in the output's storage and transformed there.
  out.resize(nn);
  double* z = out.data();
  z[0] = x0.real() + xh.real();
  z[1] = x0.real() - xh.real();
  for (std::size_t k = 1; k <= h / 2; ++k) {
    const cplx a = X(k), b = std::conj(X(h - k));
    const double sr = a.real() + b.real(), si = a.imag() + b.imag();
    const double dr = a.real() - b.real(), di = a.imag() - b.imag();
    const cplx w = real_twiddle(tab, k, h);  // e^{-2 pi i k/n}; its conjugate is used
    // t = i conj(w) d
    const double cr = w.real(), ci = -w.imag();
    const double ur = cr * dr - ci * di, ui = cr * di + ci * dr;
    z[2 * k] = sr - ui;
    z[2 * k + 1] = si + ur;
    if (h - k != k) {
      // Z[h-k] from X(h-k) = conj(b), conj(X(k)) = conj(a): the sum conj(s), the difference -conj(d),
      // and e^{2 pi i (h-k)/n} = -conj(conj(w))
      const double cr2 = -cr, ci2 = ci;
      const double dr2 = -dr, di2 = di;
      const double ur2 = cr2 * dr2 - ci2 * di2, ui2 = cr2 * di2 + ci2 * dr2;
      z[2 * (h - k)] = sr - ui2;
      z[2 * (h - k) + 1] = -si + ur2;
    }
  }
  if (is_pow2(h)) {
    fft_pow2(z, h, +1.0);
  } else {
    std::vector<cplx> zc(h);
    for (std::size_t j = 0; j < h; ++j) zc[j] = cplx(z[2 * j], z[2 * j + 1]);
    zc = dft_any(zc, +1.0);
    for (std::size_t j = 0; j < h; ++j) {
      z[2 * j] = zc[j].real();
      z[2 * j + 1] = zc[j].imag();
    }
  }
  const double s = 1.0 / static_cast<double>(n);
  for (std::size_t j = 0; j < nn; ++j) out[j] *= s;
}

std::vector<double> irfft(const std::vector<cplx>& x, std::int64_t n) {
  std::vector<double> out;
  irfft(x.data(), x.size(), n, out);
  return out;
}

}  // namespace cusci::detail::hostla
