#pragma once
// Shared by the matrix-function tests: the reference cases (tests/golden/gen_sparse_linalg_matfuncs.py),
// their matrices on the device, and a host matrix exponential for funm_multiply_krylov's f.

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/elementwise.hpp"
#include "cusci/numeric.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/laplacian_nd.hpp"
#include "cusci/sparse/linalg/matfuncs.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::matfuncs_test {

namespace sl = cusci::sparse::linalg;
using case_t = testing::golden_case;
inline const std::string kModule = "sparse_linalg_matfuncs";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }
inline host_array garray(const std::string& name) { return testing::golden(kModule, name); }

inline sparse::shape2 shape_of(const case_t& c) {
  const auto v = c.get<std::vector<std::int64_t>>("shape");
  return {v.at(0), v.at(1)};
}

/// The case's matrix (parameter `matrix`: the prefix of its CSR arrays) on the device.
inline sparse::csr_matrix device_csr(const case_t& c) {
  const std::string g = c.get<std::string>("matrix");
  return sparse::csr_matrix(asarray(garray(g + "_data")), asarray(garray(g + "_indices")),
                            asarray(garray(g + "_indptr")), sparse::matrix_options{.shape = shape_of(c)});
}

/// e^M for a small dense host matrix (float64 or complex128, [e, e]) by scaling and squaring of the
/// Taylor series (30 terms after scaling to norm <= 1/2: truncation below 1e-40). Returns M's dtype.
inline host_array host_expm(const host_array& m) {
  using cd = std::complex<double>;
  const std::int64_t e = m.shape().at(0);
  const auto a = m.astype(dtype::complex128).to_vector<cd>();
  auto mul = [e](const std::vector<cd>& x, const std::vector<cd>& y) {
    std::vector<cd> z(static_cast<std::size_t>(e * e));
    for (std::int64_t i = 0; i < e; ++i)
      for (std::int64_t k = 0; k < e; ++k) {
        const cd xik = x[static_cast<std::size_t>(i * e + k)];
        for (std::int64_t j = 0; j < e; ++j) z[static_cast<std::size_t>(i * e + j)] += xik * y[static_cast<std::size_t>(k * e + j)];
      }
    return z;
  };
  double nrm = 0;
  for (std::int64_t j = 0; j < e; ++j) {
    double s = 0;
    for (std::int64_t i = 0; i < e; ++i) s += std::abs(a[static_cast<std::size_t>(i * e + j)]);
    nrm = std::max(nrm, s);
  }
  int sq = 0;
  while (nrm > 0.5) {
    nrm /= 2;
    ++sq;
  }
  std::vector<cd> x(a);
  for (auto& v : x) v = std::ldexp(1.0, -sq) * v;
  std::vector<cd> r(static_cast<std::size_t>(e * e)), term(static_cast<std::size_t>(e * e));
  for (std::int64_t i = 0; i < e; ++i) r[static_cast<std::size_t>(i * e + i)] = term[static_cast<std::size_t>(i * e + i)] = 1.0;
  for (int k = 1; k <= 30; ++k) {
    term = mul(term, x);
    for (auto& v : term) v /= static_cast<double>(k);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] += term[i];
  }
  for (int i = 0; i < sq; ++i) r = mul(r, r);
  host_array out = host_array::from(r, {e, e});
  return m.dtype() == dtype::complex128 ? out : out.astype(m.dtype());
}

}  // namespace cusci::matfuncs_test
