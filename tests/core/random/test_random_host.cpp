// Host tests of cusci::random: Philox4x32-10 against Random123's published known-answer vectors, and
// the argument checks, which throw before any device work.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/random.hpp"

using namespace cusci;
namespace rnd = cusci::random;

TEST_CASE("Philox4x32-10 known-answer vectors (Random123 kat_vectors)") {
  using A4 = std::array<std::uint32_t, 4>;
  CHECK(rnd::detail::philox4x32_10({0, 0, 0, 0}, {0, 0}) == A4{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
  CHECK(rnd::detail::philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}) ==
        A4{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu});
  CHECK(rnd::detail::philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u}) ==
        A4{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u});
}

TEST_CASE("generator: seed and position") {
  auto g = rnd::default_rng(12345);
  CHECK(g.seed() == 12345u);
  CHECK(g.position() == 0u);
}

TEST_CASE("argument errors throw value_error / type_error / index_error and use no counters") {
  auto g = rnd::default_rng(1);
  CHECK_THROWS_AS((void)g.random({-1}), value_error);
  CHECK_THROWS_AS((void)g.random({3}, dtype::int32), type_error);
  CHECK_THROWS_AS((void)g.standard_normal({3}, dtype::complex64), type_error);
  CHECK_THROWS_AS((void)g.uniform(0.0, 1e308 * 10, {3}), value_error);
  CHECK_THROWS_AS((void)g.uniform(-1.7e308, 1.7e308, {3}), value_error);  // high - low overflows
  CHECK_THROWS_AS((void)g.normal(0.0, -1.0, {3}), value_error);
  CHECK_THROWS_AS((void)g.exponential(-0.5, {3}), value_error);
  CHECK_THROWS_AS((void)g.poisson(-1.0, {3}), value_error);
  CHECK_THROWS_AS((void)g.poisson(1e19, {3}), value_error);
  // integers: NumPy's bounds rules
  CHECK_THROWS_AS((void)g.integers(5, 5, {3}), value_error);                       // low >= high
  CHECK_THROWS_AS((void)g.integers(6, 5, {3}, dtype::int64, true), value_error);   // low > high
  CHECK_THROWS_AS((void)g.integers(0, std::nullopt, {3}), value_error);            // high = 0
  CHECK_THROWS_AS((void)g.integers(-129, 0, {3}, dtype::int8), value_error);       // low out of bounds
  CHECK_THROWS_AS((void)g.integers(0, 129, {3}, dtype::int8), value_error);        // high out of bounds
  CHECK_THROWS_AS((void)g.integers(0, 128, {3}, dtype::int8, true), value_error);  // inclusive high out of bounds
  CHECK_THROWS_AS((void)g.integers(-1, 3, {3}, dtype::uint8), value_error);
  CHECK_THROWS_AS((void)g.integers(0, 3, {3}, dtype::bool_), value_error);
  CHECK_THROWS_AS((void)g.integers(0, 3, {3}, dtype::float64), type_error);
  CHECK_THROWS_AS((void)g.integers(0, 3, {-2}), value_error);
  // choice
  CHECK_THROWS_AS((void)g.choice(-1, {3}), value_error);
  CHECK_THROWS_AS((void)g.choice(0, {3}), value_error);
  CHECK_THROWS_AS((void)g.choice(3, {4}, false), value_error);
  CHECK_THROWS_AS((void)g.choice(3, {2}, true, std::vector<double>{0.5, 0.5}), value_error);        // length
  CHECK_THROWS_AS((void)g.choice(3, {2}, true, std::vector<double>{0.5, 0.6, -0.1}), value_error);  // negative
  CHECK_THROWS_AS((void)g.choice(3, {2}, true, std::vector<double>{0.5, 0.2, 0.2}), value_error);   // sum 0.9
  CHECK_THROWS_AS((void)g.choice(3, {2}, false, std::vector<double>{1.0, 0.0, 0.0}), value_error);  // too few non-zero
  CHECK_THROWS_AS((void)g.permutation(std::int64_t{-1}), value_error);
  CHECK_THROWS_AS(rnd::detail::set_launch_config(2048, 0), value_error);
  CHECK_THROWS_AS(rnd::detail::set_launch_config(32, -1), value_error);
  CHECK(g.position() == 0u);
}
