#pragma once
// Shared helpers for cusci's tests: the reference data computed by tests/golden/gen_*.py at build time
// (golden.hpp: cases, arrays), and value comparisons that also check dtype and shape.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <string>
#include <vector>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"
#include "golden.hpp"

namespace cusci::testing {

#ifdef CUSCI_EXAMPLE_DATA
/// The path of the bundled Matrix Market file `name` (no extension) in examples/data: `name`.mtx, or
/// `name`.mtx.gz where the file is stored gzip-compressed (io::mmread reads both).
inline std::string example_matrix(const std::string& name) {
  const std::string plain = std::string(CUSCI_EXAMPLE_DATA) + "/" + name + ".mtx";
  return std::ifstream(plain).good() ? plain : plain + ".gz";
}
#endif

/// An array header of dtype `dt` and C-order `shape` over no memory: enough for argument checks that
/// throw before any device work (host tests).
inline ndarray fake_array(dtype dt, const shape_t& shape) {
  shape_t strides(shape.size(), 0);
  std::int64_t s = static_cast<std::int64_t>(itemsize(dt));
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d];
  }
  return ndarray(memory_ptr{}, dt, shape, strides, 0, 0);
}

/// Element `i` of a host array as complex<double> (any dtype).
inline std::complex<double> element(const host_array& a, std::int64_t i) {
  // host_array is C-contiguous: read element i in place for the common dtypes (converting the whole
  // array per call made loops over large arrays quadratic).
  switch (a.dtype()) {
    case dtype::float64: return a.data_as<double>()[i];
    case dtype::float32: return a.data_as<float>()[i];
    case dtype::complex128: return a.data_as<std::complex<double>>()[i];
    case dtype::complex64: return std::complex<double>(a.data_as<std::complex<float>>()[i]);
    case dtype::int64: return static_cast<double>(a.data_as<std::int64_t>()[i]);
    case dtype::int32: return static_cast<double>(a.data_as<std::int32_t>()[i]);
    default: break;
  }
  host_array c = a.astype(dtype::complex128);
  return c.data_as<std::complex<double>>()[i];
}

/// Checks dtype, shape and values: |actual - expected| <= atol + rtol * |expected| elementwise,
/// NaN equal to NaN, inf equal to inf of the same sign.
inline void check_allclose(const host_array& actual, const host_array& expected, double rtol, double atol,
                           bool check_dtype = true) {
  if (check_dtype)
    CHECK_MESSAGE(actual.dtype() == expected.dtype(),
                  "dtype " << dtype_name(actual.dtype()) << " != expected " << dtype_name(expected.dtype()));
  REQUIRE_MESSAGE(actual.shape() == expected.shape(), "shape mismatch");
  host_array a = actual.astype(dtype::complex128), e = expected.astype(dtype::complex128);
  const auto* pa = a.data_as<std::complex<double>>();
  const auto* pe = e.data_as<std::complex<double>>();
  std::int64_t bad = 0, first = -1;
  double worst = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    auto x = pa[i], y = pe[i];
    bool ok;
    if (std::isnan(y.real()) || std::isnan(y.imag()))
      ok = (std::isnan(x.real()) || std::isnan(x.imag()));
    else if (std::isinf(y.real()) || std::isinf(y.imag()))
      ok = x == y;
    else {
      double err = std::abs(x - y);
      ok = err <= atol + rtol * std::abs(y);
      if (err > worst) worst = err;
    }
    if (!ok) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad) {
    FAIL_CHECK(bad << " of " << a.size() << " elements differ; first at flat index " << first << ": got "
                   << pa[first] << ", expected " << pe[first] << " (rtol " << rtol << ", atol " << atol
                   << ", max abs error " << worst << ")");
  }
}

/// Same, for a device array against a golden file.
inline void check_allclose(const ndarray& actual, const host_array& expected, double rtol, double atol,
                           bool check_dtype = true) {
  check_allclose(to_host(actual), expected, rtol, atol, check_dtype);
}

}  // namespace cusci::testing
