// cusci::fft host helpers: norm parsing, fast lengths, sample frequencies.
#include <string>

#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::fft {

norm_mode parse_norm(std::string_view s) {
  if (s.empty() || s == "backward") return norm_mode::backward;
  if (s == "ortho") return norm_mode::ortho;
  if (s == "forward") return norm_mode::forward;
  throw value_error("cusci::fft::parse_norm: Invalid norm value '" + std::string(s) +
                    "', should be \"backward\", \"ortho\" or \"forward\"");
}

namespace {
using u128 = unsigned __int128;

// Enumerates the products p = 3^a 5^b [7^c 11^d] <= limit and, for each, the power of two that brings it
// closest to `target` from above (next) or below (prev).
std::int64_t fast_len(std::int64_t target, bool real, bool next) {
  const u128 t = static_cast<u128>(target);
  // Bound for the candidates: next needs values up to 2 * target (a power of two is always there).
  const u128 limit = next ? 2 * t : t;
  u128 best = next ? (u128(1) << 64) * 4 : 0;
  const u128 p11_max = real ? 1 : limit;
  for (u128 p11 = 1; p11 <= p11_max; p11 *= 11) {
    const u128 p7_max = real ? 1 : limit;
    for (u128 p7 = p11; p7 <= p7_max && p7 <= limit; p7 *= 7) {
      for (u128 p5 = p7; p5 <= limit; p5 *= 5) {
        for (u128 p3 = p5; p3 <= limit; p3 *= 3) {
          u128 v = p3;
          if (next) {
            while (v < t) v *= 2;
            if (v < best) best = v;
          } else {
            if (v > t) continue;
            while (v * 2 <= t) v *= 2;
            if (v > best) best = v;
          }
        }
      }
    }
  }
  return static_cast<std::int64_t>(best);
}
}  // namespace

std::int64_t next_fast_len(std::int64_t target, bool real) {
  CUSCI_NVTX_SCOPE("cusci::fft::next_fast_len");
  CUSCI_EXPECTS(target >= 0, value_error,
                "cusci::fft::next_fast_len: Target length must be positive, got " + std::to_string(target));
  if (target <= 1) return target;
  CUSCI_EXPECTS(target <= (std::int64_t(1) << 62), value_error,
                "cusci::fft::next_fast_len: target too large, got " + std::to_string(target));
  return fast_len(target, real, true);
}

std::int64_t prev_fast_len(std::int64_t target, bool real) {
  CUSCI_NVTX_SCOPE("cusci::fft::prev_fast_len");
  CUSCI_EXPECTS(target >= 0, value_error,
                "cusci::fft::prev_fast_len: Target length must be positive, got " + std::to_string(target));
  if (target <= 1) return target;
  return fast_len(target, real, false);
}

namespace {
void check_freq_args(std::int64_t n, double d, const char* fn) {
  CUSCI_EXPECTS(n >= 1, value_error,
                std::string(fn) + ": n must be >= 1 (SciPy divides by n * d), got " + std::to_string(n));
  CUSCI_EXPECTS(d != 0.0, value_error, std::string(fn) + ": d must be non-zero (SciPy divides by n * d), got 0");
}
}  // namespace

host_array fftfreq_host(std::int64_t n, double d) {
  CUSCI_NVTX_SCOPE("cusci::fft::fftfreq_host");
  check_freq_args(n, d, "cusci::fft::fftfreq");
  host_array h(dtype::float64, {n});
  double* p = h.data_as<double>();
  const double val = 1.0 / (static_cast<double>(n) * d);
  const std::int64_t N = (n - 1) / 2 + 1;
  for (std::int64_t i = 0; i < N; ++i) p[i] = static_cast<double>(i) * val;
  for (std::int64_t i = N; i < n; ++i) p[i] = static_cast<double>(i - n) * val;  // -(n//2) .. -1
  return h;
}

host_array rfftfreq_host(std::int64_t n, double d) {
  CUSCI_NVTX_SCOPE("cusci::fft::rfftfreq_host");
  check_freq_args(n, d, "cusci::fft::rfftfreq");
  const std::int64_t m = n / 2 + 1;
  host_array h(dtype::float64, {m});
  double* p = h.data_as<double>();
  const double val = 1.0 / (static_cast<double>(n) * d);
  for (std::int64_t i = 0; i < m; ++i) p[i] = static_cast<double>(i) * val;
  return h;
}

ndarray fftfreq(std::int64_t n, double d) { return asarray(fftfreq_host(n, d)); }
ndarray rfftfreq(std::int64_t n, double d) { return asarray(rfftfreq_host(n, d)); }

}  // namespace cusci::fft
