#pragma once
// Shared by the eigensolver tests: the reference cases (tests/golden/gen_sparse_linalg_eigen.py) and
// their matrices on the device.

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cusci/sparse/io.hpp"
#include "cusci/sparse/linalg.hpp"
#include "cusci/sparse/linalg/eigen.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace cusci::eigen_test {

namespace sl = cusci::sparse::linalg;
using case_t = testing::golden_case;
inline const std::string kModule = "sparse_linalg_eigen";

inline std::vector<case_t> cases_of(const std::string& func) { return testing::cases(kModule, func); }
inline host_array garray(const std::string& name) { return testing::golden(kModule, name); }

inline dtype dtype_named(const std::string& s) {
  if (s == "float32") return dtype::float32;
  if (s == "float64") return dtype::float64;
  if (s == "complex64") return dtype::complex64;
  return dtype::complex128;
}

/// The bundled Matrix Market file `file` (examples/data) as a CSR matrix of dtype dt.
inline sparse::csr_matrix load_file(const std::string& file, dtype dt) {
  const auto coo = cusci::io::mmread(std::string(CUSCI_EXAMPLE_DATA) + "/" + file);
  return coo.tocsr().astype(dt);
}

/// The case's A (shape from the case).
inline sparse::csr_matrix load_case_A(const case_t& c) {
  const dtype dt = dtype_named(c.get<std::string>("dtype"));
  const auto shape = c.get<std::vector<std::int64_t>>("shape");
  const std::string file = c.get_or<std::string>("file", "");
  if (!file.empty()) return load_file(file, dt);
  const std::string name = c.get<std::string>("A");
  return sparse::csr_matrix(asarray(garray(name + "_data")), asarray(garray(name + "_indices")),
                            asarray(garray(name + "_indptr")),
                            sparse::matrix_options{.shape = sparse::shape2{shape.at(0), shape.at(1)}, .dtype = dt});
}

/// Column j of a C-order [rows, cols] host array as complex<double>.
inline std::vector<std::complex<double>> column(const host_array& a, std::int64_t j) {
  const std::int64_t rows = a.shape().at(0), cols = a.shape().at(1);
  std::vector<std::complex<double>> v(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) v[i] = testing::element(a, i * cols + j);
  return v;
}
/// Row i of a C-order [rows, cols] host array.
inline std::vector<std::complex<double>> row_of(const host_array& a, std::int64_t i) {
  const std::int64_t cols = a.shape().at(1);
  std::vector<std::complex<double>> v(static_cast<std::size_t>(cols));
  for (std::int64_t j = 0; j < cols; ++j) v[j] = testing::element(a, i * cols + j);
  return v;
}
/// sum conj(a) b.
inline std::complex<double> inner(const std::vector<std::complex<double>>& a,
                                  const std::vector<std::complex<double>>& b) {
  std::complex<double> s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::conj(a[i]) * b[i];
  return s;
}

}  // namespace cusci::eigen_test
