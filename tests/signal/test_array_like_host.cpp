// Host tests of the array_like parameters of cusci::signal's host functions: a scalar, a braced list, a
// std::vector and a host_array give the same result (bit for bit) as the host_array call; and, at
// compile time, calls with an options struct in braces keep choosing the options overloads.

#include <doctest/doctest.h>

#include <concepts>
#include <cstring>
#include <optional>
#include <vector>

#include "cusci/signal/signal.hpp"

using namespace cusci;
namespace sig = cusci::signal;

namespace {

host_array H(std::vector<double> v) { return host_array::from(v); }
host_array H(std::vector<double> v, shape_t shape) { return host_array::from(v, std::move(shape)); }
host_array S(double v) { return host_array::from(std::vector<double>{v}, shape_t{}); }

void check_same(const host_array& x, const host_array& y) {
  REQUIRE(x.dtype() == y.dtype());
  REQUIRE(x.shape() == y.shape());
  REQUIRE(x.nbytes() == y.nbytes());
  CHECK(std::memcmp(x.data(), y.data(), x.nbytes()) == 0);
}
void check_same(const sig::ba_coeffs& x, const sig::ba_coeffs& y) {
  check_same(x.b, y.b);
  check_same(x.a, y.a);
}
void check_same(const sig::zpk_coeffs& x, const sig::zpk_coeffs& y) {
  check_same(x.z, y.z);
  check_same(x.p, y.p);
  CHECK(x.k == y.k);
}

// ---- compile-time checks: the options overloads are still chosen ---------------------------------

// lfilter / sosfilt: a braced options struct after x is the options, not an array.
static_assert(requires(const host_array& b, const ndarray& x) {
  { sig::lfilter(b, b, x, {.axis = 0}) } -> std::same_as<ndarray>;
  { sig::lfilter({1.0, 2.0}, {1.0, -0.5}, x, {.axis = 0}) } -> std::same_as<ndarray>;
  { sig::lfilter(b, b, x, x, {.axis = 0}) } -> std::same_as<sig::filter_result>;
  { sig::sosfilt(b, x, {.axis = 0}) } -> std::same_as<ndarray>;
  { sig::sosfilt(b, x, x, {.axis = 0}) } -> std::same_as<sig::filter_result>;
});
// The classes and conversions with braced lists and options.
static_assert(requires(const host_array& h) {
  sig::dlti({1.0}, {1.0, -0.5}, {.dt = 0.1});
  sig::dlti(h, h, 2.0, {.dt = 0.1});
  sig::dlti(h, h, h, h, {.dt = 0.1});
  sig::lti({1.0}, {1.0, 2.0, 1.0});
  sig::lti({-1.0}, {-2.0, -3.0}, 4.0);
  sig::lti(h, h, h, 0.0);
  { sig::tf2sos({1.0, 2.0, 1.0}, {1.0, -0.5, 0.25}, {.analog = false}) } -> std::same_as<host_array>;
  { sig::zpk2sos({-1.0}, {0.5}, 1.0, {.analog = false}) } -> std::same_as<host_array>;
  { sig::residue({1.0}, {1.0, 3.0, 2.0}, {.tol = 1e-3}) } -> std::same_as<sig::residue_result>;
  { sig::unique_roots({1.0, 2.0}, {.tol = 1e-2}) } -> std::same_as<sig::unique_roots_result>;
  { sig::cont2discrete({1.0}, {1.0, 1.0}, 0.1, {.method = sig::discretization_method::bilinear}) }
      -> std::same_as<sig::discrete_tf>;
  { sig::cont2discrete({-1.0}, {-2.0}, 1.0, 0.1, {.method = sig::discretization_method::bilinear}) }
      -> std::same_as<sig::discrete_zpk>;
  { sig::cont2discrete(h, h, h, h, 0.1) } -> std::same_as<sig::discrete_ss>;
  { sig::minimum_phase(h, {.method = sig::minimum_phase_method::hilbert}) } -> std::same_as<host_array>;
});
// Frequency responses: braced lists are coefficients on the host, device arrays keep the device overloads.
static_assert(requires(const host_array& h, const ndarray& d) {
  { sig::freqz({1.0, 1.0}, std::nullopt, 64, {.whole = true}) } -> std::same_as<sig::freq_response>;
  { sig::freqz(h, h, 64) } -> std::same_as<sig::freq_response>;
  { sig::freqz({1.0, 1.0}, {1.0, -0.5}, 64, {.whole = true}) } -> std::same_as<sig::freq_response>;
  { sig::freqz(d) } -> std::same_as<sig::device_freq_response>;
  { sig::freqz(d, std::nullopt, 64) } -> std::same_as<sig::device_freq_response>;
  { sig::freqz(d, d, 64) } -> std::same_as<sig::device_freq_response>;
  { sig::freqz_sos(h, 64, {.whole = true}) } -> std::same_as<sig::freq_response>;
  { sig::freqz_sos(d, 64, {.whole = true}) } -> std::same_as<sig::device_freq_response>;
  { sig::sosfreqz(h) } -> std::same_as<sig::freq_response>;
  { sig::sosfreqz(d) } -> std::same_as<sig::device_freq_response>;
  { sig::freqz_zpk({0.5}, {0.25}, 1.0, 64, {.whole = true}) } -> std::same_as<sig::freq_response>;
  { sig::freqz_zpk(d, d, 1.0) } -> std::same_as<sig::device_freq_response>;
  { sig::freqs({1.0}, {1.0, 1.0}, 16) } -> std::same_as<sig::freq_response>;
});
// Simulation: device inputs keep the device overloads, host-side ones the host functions.
static_assert(requires(const sig::lti& c, const sig::dlti& d, const ndarray& u, const std::vector<double>& v) {
  { sig::lsim(c, u, u) } -> std::same_as<sig::lsim_device_result>;
  { sig::dlsim(d, u) } -> std::same_as<sig::lsim_device_result>;
  { sig::lsim(c, std::nullopt, v) } -> std::same_as<sig::lsim_result>;
  { sig::dlsim(d, v) } -> std::same_as<sig::lsim_result>;
  { sig::dlsim(d, {1.0, 0.0}) } -> std::same_as<sig::lsim_result>;
});
// zpk2tf with a scalar gain is filter_design.hpp's overload (double k), with an array the N-D form.
static_assert(requires(const host_array& h) {
  { sig::zpk2tf({0.5}, {0.25}, 2.0) } -> std::same_as<sig::ba_coeffs>;
  { sig::zpk2tf(h, h, h) } -> std::same_as<sig::ba_coeffs>;
});

}  // namespace

TEST_CASE("array_like: conversions with scalars, braced lists and vectors") {
  check_same(sig::tf2zpk({1.0, 2.0}, {1.0, -0.5}), sig::tf2zpk(H({1, 2}), H({1, -0.5})));
  check_same(sig::normalize({2.0, 4.0}, {2.0, 1.0}), sig::normalize(H({2, 4}), H({2, 1})));
  check_same(sig::normalize(std::vector<double>{2.0, 4.0}, 2.0), sig::normalize(H({2, 4}), S(2.0)));
  // a float32 vector keeps float32 (SciPy keeps single precision)
  check_same(sig::normalize(std::vector<float>{2.0f, 4.0f}, std::vector<float>{2.0f, 1.0f}),
             sig::normalize(H({2, 4}).astype(dtype::float32), H({2, 1}).astype(dtype::float32)));
  check_same(sig::zpk2tf({0.5}, {0.25, -0.25}, 2.0), sig::zpk2tf(H({0.5}), H({0.25, -0.25}), 2.0));
  check_same(sig::zpk2tf(std::vector<double>{0.5}, std::vector<double>{0.25, -0.25}, std::vector<double>{2.0}),
             sig::zpk2tf(H({0.5}), H({0.25, -0.25}), H({2.0})));
  check_same(sig::tf2sos({1.0, 2.0, 1.0}, {1.0, -0.5, 0.25}), sig::tf2sos(H({1, 2, 1}), H({1, -0.5, 0.25})));
  const host_array sos = sig::tf2sos(H({1, 2, 1}), H({1, -0.5, 0.25}));
  check_same(sig::sos2tf(sos), sig::sos2tf(H(std::vector<double>(static_cast<const double*>(sos.data()),
                                                                    static_cast<const double*>(sos.data()) + 6),
                                             shape_t{1, 6})));
  const sig::ss_coeffs a = sig::tf2ss({1.0}, {1.0, 3.0, 2.0}), b = sig::tf2ss(H({1}), H({1, 3, 2}));
  check_same(a.A, b.A);
  check_same(a.D, b.D);
  check_same(sig::ss2tf(a.A, a.B, a.C, 0.0), sig::ss2tf(a.A, a.B, a.C, S(0.0)));
  check_same(sig::zpk2ss({-1.0}, {-2.0, -3.0}, 4.0).A, sig::zpk2ss(H({-1}), H({-2, -3}), 4.0).A);
  check_same(sig::bilinear({1.0}, {1.0, 1.0}, 10.0), sig::bilinear(H({1}), H({1, 1}), 10.0));
  check_same(sig::lp2hp({1.0}, {1.0, 1.0}, 2.0), sig::lp2hp(H({1}), H({1, 1}), 2.0));
  check_same(sig::lp2bp_zpk(std::vector<double>{}, {-1.0}, 1.0, 2.0, 0.5),
             sig::lp2bp_zpk(H({}), H({-1}), 1.0, 2.0, 0.5));
  const sig::residue_result r1 = sig::residue({1.0, 2.0}, {1.0, 3.0, 2.0});
  const sig::residue_result r2 = sig::residue(H({1, 2}), H({1, 3, 2}));
  check_same(r1.r, r2.r);
  check_same(r1.p, r2.p);
  check_same(sig::invres(r1.r, r1.p, std::vector<double>{}), sig::invres(r2.r, r2.p, H({})));
  check_same(sig::unique_roots({1.0, 1.0001, 2.0}).unique, sig::unique_roots(H({1, 1.0001, 2})).unique);
}

TEST_CASE("array_like: filter initial conditions and minimum phase") {
  // SciPy's lfilter_zi(b, 1.0): a scalar denominator is one coefficient
  check_same(sig::lfilter_zi({1.0, 2.0}, 1.0), sig::lfilter_zi(H({1, 2}), H({1})));
  check_same(sig::lfilter_zi({0.5, 0.5}, {1.0, -0.5}), sig::lfilter_zi(H({0.5, 0.5}), H({1, -0.5})));
  const std::vector<double> h{0.1, 0.25, 0.3, 0.25, 0.1};
  check_same(sig::minimum_phase(h), sig::minimum_phase(H(h)));
  check_same(sig::zpk2sos({-1.0, -1.0}, {0.5, 0.25}, 2.0), sig::zpk2sos(H({-1, -1}), H({0.5, 0.25}), 2.0));
}

TEST_CASE("array_like: LTI classes") {
  const sig::lti t1({1.0}, {1.0, 2.0, 1.0}), t2(H({1}), H({1, 2, 1}));
  check_same(t1.to_tf().num(), t2.to_tf().num());
  check_same(t1.to_tf().den(), t2.to_tf().den());
  const sig::lti z1({-1.0}, {-2.0, -3.0}, 4.0), z2(H({-1}), H({-2, -3}), 4.0);
  check_same(z1.to_zpk().zeros(), z2.to_zpk().zeros());
  check_same(z1.to_zpk().poles(), z2.to_zpk().poles());
  const host_array A = H({-1, 0, 0, -2}, shape_t{2, 2}), B = H({1, 1}, shape_t{2, 1});
  const host_array C = H({1, 0}, shape_t{1, 2});
  const sig::lti s1(A, B, C, 0.0), s2(A, B, C, S(0.0));
  check_same(s1.to_ss().D(), s2.to_ss().D());
  const sig::dlti d1({1.0}, {1.0, -0.5}, {.dt = 0.1}), d2(H({1}), H({1, -0.5}), {.dt = 0.1});
  CHECK(d1.dt() == 0.1);
  check_same(d1.to_tf().den(), d2.to_tf().den());
  sig::TransferFunction tf({1.0}, {1.0, 1.0});
  tf.set_num({2.0});
  tf.set_den(std::vector<double>{1.0, 3.0});
  check_same(tf.num(), H({2}));
  check_same(tf.den(), H({1, 3}));
  sig::ZerosPolesGain zpk(std::vector<double>{}, {-1.0}, 1.0);
  zpk.set_zeros(-2.0);
  check_same(zpk.zeros(), H({-2}));
  const sig::StateSpace ss(-1.0, 1.0, 1.0, 0.0);
  check_same(ss.A(), H({-1}, shape_t{1, 1}));
}

TEST_CASE("array_like: LTI functions") {
  const sig::discrete_tf c1 = sig::cont2discrete({1.0}, {1.0, 1.0}, 0.1);
  const sig::discrete_tf c2 = sig::cont2discrete(H({1}), H({1, 1}), 0.1);
  check_same(c1.num, c2.num);
  check_same(c1.den, c2.den);
  const host_array A = H({0, 1, -2, -3}, shape_t{2, 2}), B = H({0, 1}, shape_t{2, 1});
  const sig::place_poles_result p1 = sig::place_poles(A, B, {-1.0, -2.0});
  const sig::place_poles_result p2 = sig::place_poles(A, B, H({-1, -2}));
  check_same(p1.gain_matrix, p2.gain_matrix);
  const sig::dlti sys({1.0}, {1.0, -0.5}, {.dt = 1.0});
  const std::vector<double> u{1.0, 0.0, 0.0, 1.0};
  check_same(sig::dlsim(sys, u).yout, sig::dlsim(sys, H(u)).yout);
  const sig::lti csys({1.0}, {1.0, 1.0});
  const std::vector<double> T{0.0, 0.5, 1.0, 1.5};
  check_same(sig::lsim(csys, H({1, 1, 1, 1}), T).yout, sig::lsim(csys, H({1, 1, 1, 1}), H(T)).yout);
}

TEST_CASE("array_like: frequency responses and windows") {
  const sig::freq_response f1 = sig::freqz({0.5, 0.5}, std::nullopt, 8);
  const sig::freq_response f2 = sig::freqz(H({0.5, 0.5}), std::nullopt, 8);
  check_same(f1.w, f2.w);
  check_same(f1.h, f2.h);
  check_same(sig::freqz({0.5, 0.5}, {1.0, -0.5}, 8).h, sig::freqz(H({0.5, 0.5}), H({1, -0.5}), 8).h);
  check_same(sig::freqz(std::vector<double>{0.5, 0.5}, 2.0, 8).h, sig::freqz(H({0.5, 0.5}), H({2}), 8).h);
  check_same(sig::freqs({1.0}, {1.0, 1.0}, 16).h, sig::freqs(H({1}), H({1, 1}), 16).h);
  check_same(sig::freqs_zpk(std::vector<double>{}, {-1.0}, 1.0, 16).h,
             sig::freqs_zpk(H({}), H({-1}), 1.0, 16).h);
  check_same(sig::freqz_zpk({0.5}, {0.25}, 1.0, 8).h, sig::freqz_zpk(H({0.5}), H({0.25}), 1.0, 8).h);
  check_same(sig::findfreqs({1.0}, {1.0, 1.0}, 5), sig::findfreqs(H({1}), H({1, 1}), 5));
  const host_array sos = sig::tf2sos(H({1, 2, 1}), H({1, -0.5, 0.25}));
  check_same(sig::freqz_sos(sos, 8).h, sig::sosfreqz(sos, 8).h);
  const std::vector<double> win{0.0, 0.5, 1.0, 0.5};
  const sig::ShortTimeFFT s1(win, 2, 1.0), s2(H(win), 2, 1.0);
  check_same(s1.win(), s2.win());
  check_same(sig::closest_STFT_dual_window(win, 2).first, sig::closest_STFT_dual_window(H(win), 2).first);
  check_same(sig::ShortTimeFFT::from_dual(std::vector<double>{1.0, 1.0, 1.0, 1.0}, 2, 1.0).win(),
             sig::ShortTimeFFT::from_dual(H({1, 1, 1, 1}), 2, 1.0).win());
}
