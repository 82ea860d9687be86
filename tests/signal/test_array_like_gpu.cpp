// Device arrays given to the host functions of cusci::signal (array_like parameters): they are copied to
// the host (synchronizing) and give the same results, bit for bit, as the host arrays.

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/signal/signal.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {
host_array H(std::vector<double> v) { return host_array::from(v); }
void check_same(const host_array& x, const host_array& y) {
  REQUIRE(x.dtype() == y.dtype());
  REQUIRE(x.shape() == y.shape());
  CHECK(std::memcmp(x.data(), y.data(), x.nbytes()) == 0);
}
}  // namespace

TEST_CASE("array_like: device arrays on the host functions") {
  const host_array b = H({1, 2}), a = H({1, -0.5});
  const ndarray db = asarray(b), da = asarray(a);
  const sig::zpk_coeffs z1 = sig::tf2zpk(db, da), z2 = sig::tf2zpk(b, a);
  check_same(z1.z, z2.z);
  check_same(z1.p, z2.p);
  CHECK(z1.k == z2.k);
  check_same(sig::lfilter_zi(db, da), sig::lfilter_zi(b, a));
  check_same(sig::normalize(db, a).b, sig::normalize(b, a).b);
  const sig::lti s1(db, da), s2(b, a);
  check_same(s1.to_tf().den(), s2.to_tf().den());
  check_same(sig::freqs(db, da, 16).h, sig::freqs(b, a, 16).h);
  // a device numerator with a host denominator: the host freqz (device b copied)
  check_same(sig::freqz(db, a, 8).h, sig::freqz(b, a, 8).h);
  // place_poles and cont2discrete with device matrices
  const host_array A = host_array::from(std::vector<double>{0, 1, -2, -3}, shape_t{2, 2});
  const host_array B = host_array::from(std::vector<double>{0, 1}, shape_t{2, 1});
  check_same(sig::place_poles(asarray(A), asarray(B), {-1.0, -2.0}).gain_matrix,
             sig::place_poles(A, B, {-1.0, -2.0}).gain_matrix);
  check_same(sig::cont2discrete(db, da, 0.1).den, sig::cont2discrete(b, a, 0.1).den);
}

TEST_CASE("host_array op ndarray uploads and computes on the device: lfilter_zi(b, a) * x[0]") {
  const auto [b, a] = signal::butter(2, 0.2).ba();
  const host_array zi = signal::lfilter_zi(b, a);
  const ndarray x = asarray(std::vector<double>{0.5, 1.0, -2.0, 3.0});
  const ndarray scaled = zi * x[{0}];  // SciPy: lfilter_zi(b, a) * x[0]
  const ndarray want = multiply(asarray(zi), x[{0}]);
  CHECK(scaled.shape() == want.shape());
  CHECK(to_host(scaled).to_vector<double>() == to_host(want).to_vector<double>());
  const ndarray sum_ = zi + asarray(zi), diff_ = asarray(zi) - zi, quot = zi / asarray(zi);
  CHECK(to_host(sum_).to_vector<double>() == to_host(multiply(asarray(zi), 2.0)).to_vector<double>());
  CHECK(to_host(diff_).to_vector<double>() == std::vector<double>(static_cast<std::size_t>(zi.size()), 0.0));
  CHECK(to_host(quot).to_vector<double>() == std::vector<double>(static_cast<std::size_t>(zi.size()), 1.0));
  const auto y = signal::lfilter(b, a, x, zi * x[{0}]);  // the zi overload takes the product directly
  CHECK(y.y.shape() == x.shape());
}
