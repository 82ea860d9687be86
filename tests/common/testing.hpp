#pragma once
// Shared helpers for cusci's tests: golden files written by tests/golden/gen_*.py, their manifests,
// and value comparisons that also check dtype and shape.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/io.hpp"
#include "cusci/ndarray.hpp"

namespace cusci::testing {

/// Path of golden file `<module>/<name>.npy`.
inline std::string golden_path(const std::string& module, const std::string& name) {
  return std::string(CUSCI_GOLDEN_DIR) + "/" + module + "/" + name + ".npy";
}

/// Reads golden file `<module>/<name>.npy` to host memory.
inline host_array golden(const std::string& module, const std::string& name) {
  return io::read_npy(golden_path(module, name));
}

/// Rows of `<module>/MANIFEST.tsv` (first line: column names; tab-separated), as name -> value maps.
inline std::vector<std::map<std::string, std::string>> manifest(const std::string& module) {
  std::ifstream f(std::string(CUSCI_GOLDEN_DIR) + "/" + module + "/MANIFEST.tsv");
  REQUIRE_MESSAGE(f.good(), "missing golden manifest for " << module);
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  std::vector<std::string> cols;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream is(s);
    while (std::getline(is, cur, '\t')) out.push_back(cur);
    return out;
  };
  if (std::getline(f, line)) cols = split(line);
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    auto v = split(line);
    v.resize(cols.size());  // getline drops trailing empty fields: those columns are "" in the file
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cols.size(); ++i) row[cols[i]] = v[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

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
