#pragma once
// Shared by the direct solvers' tests: the reference cases (tests/golden/gen_sparse_linalg_direct.py),
// their matrices (generated ones stored as CSC arrays, bundled ones read from examples/data), the
// right-hand sides the generator used, and norm-wise comparisons.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "golden.hpp"
#include "testing.hpp"

namespace cusci::direct_test {

using case_t = testing::golden_case;
inline const std::string kModule = "sparse_linalg_direct";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }
inline host_array garray(const std::string& name) { return testing::golden(kModule, name); }
template <class T>
std::vector<T> gvec(const std::string& name) {
  return garray(name).astype(dtype_of<T>).template to_vector<T>();
}

inline bool is_generated(const std::string& name) {
  return name == "poisson" || name == "poisson4" || name == "convdiff" || name == "rand_real" ||
         name == "rand_cplx" || name == "rand_small";
}

/// The generator's right-hand side: b[i, j] = cos(0.37 (i + 1) + 1.3 j) (+ 1j sin(0.21 (i + 1) - 0.7 j)
/// for complex dtypes) in float64, cast to dt; [n] when k < 0, else [n, k]. Host.
inline host_array rhs_host(std::int64_t n, std::int64_t k, dtype dt) {
  const std::int64_t kk = k < 0 ? 1 : k;
  std::vector<std::complex<double>> v(static_cast<std::size_t>(n * kk));
  const bool cplx = is_complex(dt);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < kk; ++j) {
      const double fi = static_cast<double>(i) + 1.0, fj = static_cast<double>(j);
      v[i * kk + j] = {std::cos(0.37 * fi + 1.3 * fj), cplx ? std::sin(0.21 * fi - 0.7 * fj) : 0.0};
    }
  host_array h = host_array::from(v, k < 0 ? shape_t{n} : shape_t{n, kk});
  return h.astype(dt);
}

/// Norm-wise relative difference ||a - e|| / ||e|| over all elements (NaNs compare equal); 0 for
/// empty arrays. Shapes must match.
inline double rel_diff(const host_array& a, const host_array& e) {
  REQUIRE(a.shape() == e.shape());
  const host_array ac = a.astype(dtype::complex128), ec = e.astype(dtype::complex128);
  const auto* pa = ac.data_as<std::complex<double>>();
  const auto* pe = ec.data_as<std::complex<double>>();
  double num = 0, den = 0;
  for (std::int64_t i = 0; i < ac.size(); ++i) {
    if (std::isnan(pa[i].real()) && std::isnan(pe[i].real())) continue;
    num += std::norm(pa[i] - pe[i]);
    den += std::norm(pe[i]);
  }
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

/// The largest |e| of an array.
inline double max_abs(const host_array& e) {
  const host_array ec = e.astype(dtype::complex128);
  const auto* p = ec.data_as<std::complex<double>>();
  double m = 0;
  for (std::int64_t i = 0; i < ec.size(); ++i) m = std::max(m, std::abs(p[i]));
  return m;
}

/// Dense [n, n] complex128 (C order) of CSC arrays on the host.
inline std::vector<std::complex<double>> dense_of_csc(std::int64_t n, const std::vector<std::int64_t>& ptr,
                                                      const std::vector<std::int64_t>& ind,
                                                      const host_array& data) {
  std::vector<std::complex<double>> d(static_cast<std::size_t>(n * n));
  const host_array v = data.astype(dtype::complex128);
  const auto* pv = v.data_as<std::complex<double>>();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t p = ptr[j]; p < ptr[j + 1]; ++p) d[ind[p] * n + j] += pv[p];
  return d;
}

}  // namespace cusci::direct_test
