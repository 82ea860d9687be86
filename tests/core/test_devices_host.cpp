// Arrays remember their device; mixing devices in one call throws before any device work. Runs without a
// GPU: the arrays are views without memory that only claim a device.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cusci/core.hpp"

using namespace cusci;

namespace {
ndarray on_device(int device, shape_t shape, dtype dt = dtype::float64) {
  shape_t strides(shape.size());
  std::int64_t s = static_cast<std::int64_t>(itemsize(dt));
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return ndarray(memory_ptr{}, dt, shape, strides, 0, device);
}
}  // namespace

TEST_CASE("elementwise operations refuse operands on different devices") {
  const ndarray a = on_device(0, {4}), b = on_device(1, {4});
  CHECK(a.device() == 0);
  CHECK(b.device() == 1);
  CHECK(b[{slice{1, 3}}].device() == 1);  // views keep the device
  CHECK(b.T().device() == 1);
  CHECK_THROWS_WITH_AS(add(a, b), doctest::Contains("different devices"), value_error);
  CHECK_THROWS_AS(multiply(b, a), value_error);
  CHECK_THROWS_AS(less(a, b), value_error);
}

TEST_CASE("asarray from a std::vector checks the element count against the shape") {
  const std::vector<float> v(6, 1.0f);
  CHECK_THROWS_WITH_AS(asarray(v, shape_t{4, 2}), doctest::Contains("cannot reshape"), value_error);
  CHECK_THROWS_AS(asarray(v, shape_t{-1, 6}), value_error);
}

TEST_CASE("strong integer scalars from out-of-range floats saturate instead of overflowing") {
  CHECK(scalar::of(1e30, dtype::int64).value<std::int64_t>() == INT64_MAX);
  CHECK(scalar::of(-1e30, dtype::int64).value<std::int64_t>() == INT64_MIN);
  CHECK(scalar::of(1e30, dtype::uint64).value<std::uint64_t>() == UINT64_MAX);
  CHECK(scalar::of(std::nan(""), dtype::int32).value<std::int64_t>() == 0);
}

TEST_CASE("without a usable GPU the first device call says so plainly") {
  if (!cusci::is_available()) {
    CHECK(cusci::device_count() == 0);
    CHECK_THROWS_WITH_AS((void)cusci::zeros({3}), doctest::Contains("no usable CUDA GPU is visible"), cusci::cuda_error);
    CHECK_THROWS_WITH_AS((void)cusci::zeros({3}), doctest::Contains("cusci::is_available()"), cusci::cuda_error);
  } else {
    CHECK(cusci::device_count() >= 1);
    const cusci::host_array h = cusci::to_host(cusci::zeros({3}));
    CHECK(h.size() == 3);
  }
}

TEST_CASE("impossible allocation sizes raise out_of_memory before any device call") {
  const std::size_t huge = ~std::size_t{0};
  CHECK_THROWS_WITH_AS((void)cusci::malloc(huge), doctest::Contains("cusci::malloc: cannot allocate"), cusci::out_of_memory);
  CHECK_THROWS_AS((void)cusci::malloc(huge - 100), cusci::out_of_memory);
  CHECK_THROWS_AS((void)cusci::malloc((std::size_t{1} << 63) + 1), cusci::out_of_memory);
  CHECK_THROWS_AS((void)cusci::pinned_malloc(huge), cusci::out_of_memory);
  CHECK_THROWS_WITH_AS(cusci::device_buffer<double>((std::size_t{1} << 61) + 1),
                       doctest::Contains("cusci::device_buffer: cannot allocate"), cusci::out_of_memory);
  try {
    (void)cusci::malloc(huge);
  } catch (const cusci::out_of_memory& e) {
    CHECK(e.requested_bytes() == huge);
  }
}

TEST_CASE("shapes whose size overflows are refused even with a zero dimension, as NumPy") {
  const std::int64_t big = std::int64_t{1} << 62;
  CHECK_THROWS_WITH_AS((void)cusci::empty({big, big, 0}), doctest::Contains("array is too big"), cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::host_array(cusci::dtype::float64, {big, 4, 0}), doctest::Contains("array is too big"),
                       cusci::value_error);
  CHECK_THROWS_WITH_AS(cusci::host_array(cusci::dtype::uint8, cusci::shape_t(65, 1)),
                       doctest::Contains("maximum supported dimension for an ndarray is 64, found 65"),
                       cusci::value_error);
  CHECK(cusci::host_array(cusci::dtype::uint8, cusci::shape_t(64, 1)).size() == 1);
  CHECK(cusci::host_array(cusci::dtype::float64, {big / 8, 0}).size() == 0);  // fits: allowed, as NumPy
}

TEST_CASE("host arrays larger than the machine raise out_of_memory at once, as NumPy's MemoryError") {
  const std::int64_t n = std::int64_t{1} << 40;  // 8 TiB of float64
  CHECK_THROWS_WITH_AS(cusci::host_array(cusci::dtype::float64, {n}), doctest::Contains("unable to allocate"),
                       cusci::out_of_memory);
  CHECK_THROWS_AS((void)cusci::fft::fftfreq_host(n), cusci::out_of_memory);
  CHECK_THROWS_AS((void)cusci::fft::rfftfreq_host(4 * n), cusci::out_of_memory);
  CHECK(cusci::host_array(cusci::dtype::float64, {1000}).size() == 1000);
}
