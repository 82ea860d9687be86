// Arrays remember their device; mixing devices in one call throws before any device work. Runs without a
// GPU: the arrays are views without memory that only claim a device.
#include <doctest/doctest.h>

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
