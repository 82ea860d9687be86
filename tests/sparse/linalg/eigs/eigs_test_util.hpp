#pragma once
// Shared helpers of the eigs / lobpcg tests: reading the reference cases
// (tests/golden/gen_sparse_linalg_eigs.py) and comparing eigenvalue sets.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "golden.hpp"
#include "testing.hpp"

namespace cusci::eigs_test {

using cplx = std::complex<double>;
inline const std::string kModule = "sparse_linalg_eigs";

inline std::vector<testing::golden_case> cases_of(const std::string& func) { return testing::cases(kModule, func); }

/// A stored array as complex values (any float / complex dtype).
inline std::vector<cplx> as_cplx(const host_array& h) {
  const host_array c = h.astype(dtype::complex128);
  return c.to_vector<cplx>();
}

/// Whether the eigenvalue lists agree as multisets within rtol * max(1, max|ref|). Real problems
/// (`conj_free`): conjugate pairs are interchangeable (SciPy's order of the two members of a pair and
/// the member kept when a pair is cut at k are not defined), so (re, |im|) is compared.
inline bool same_set(std::vector<cplx> got, std::vector<cplx> ref, double rtol, bool conj_free) {
  if (got.size() != ref.size()) return false;
  double scale = 1.0;
  for (const cplx& r : ref) scale = std::max(scale, std::abs(r));
  const double tol = rtol * scale;
  if (conj_free) {
    for (auto& g : got) g = cplx(g.real(), std::abs(g.imag()));
    for (auto& r : ref) r = cplx(r.real(), std::abs(r.imag()));
  }
  std::vector<char> used(ref.size(), 0);
  for (const cplx& g : got) {
    bool found = false;
    for (std::size_t j = 0; j < ref.size(); ++j)
      if (!used[j] && std::abs(g - ref[j]) <= tol) {
        used[j] = 1;
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}

/// SciPy's ordering key of `which` ("LR"/"SR": real part; "LI"/"SI": |imag|; else modulus).
inline double which_key(const cplx& w, const std::string& which) {
  if (which == "LR" || which == "SR") return w.real();
  if (which == "LI" || which == "SI") return std::abs(w.imag());
  return std::abs(w);
}

/// Whether `w` is monotone (non-strictly, to rtol) in the key of `which`.
inline bool monotone(const std::vector<cplx>& w, const std::string& which, bool descending, double rtol) {
  for (std::size_t i = 1; i < w.size(); ++i) {
    const double a = which_key(w[i - 1], which), b = which_key(w[i], which);
    const double tol = rtol * std::max(1.0, std::max(std::abs(a), std::abs(b)));
    if (descending ? b > a + tol : b < a - tol) return false;
  }
  return true;
}

/// Iteration counts: ARPACK's are reproduced up to rounding effects on the restarts; a quarter of
/// the reference (at least 3) is allowed (the counts of the references differ by 0 to 2 restarts on
/// these problems when the iteration is modelled on the host in float64).
inline bool iterations_close(std::int64_t got, std::int64_t ref) {
  const std::int64_t slack = std::max<std::int64_t>(3, ref / 4);
  return std::abs(got - ref) <= slack;
}

}  // namespace cusci::eigs_test
