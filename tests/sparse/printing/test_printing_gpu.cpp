// GPU tests of cusci::sparse's printing against SciPy 1.18.1 (tests/golden/gen_sparse_printing.py):
// every case builds its matrix from the stored arrays in its format (every value dtype, int32/int64
// indices, unsorted indices, duplicates, explicit zeros, empty matrices, DIA diagonals outside the
// matrix or all zero, truncation with maxprint 0..51) and compares repr and str with SciPy's exact
// strings; through the concrete class, spmatrix and operator<<.

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/sparse/printing.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;

namespace {

const char* mod = "sparse_printing";

ndarray arr(const std::string& c, const std::string& k) { return asarray(t::golden(mod, c + "_" + k)); }

sparse::spmatrix build(const t::golden_case& r) {
  const std::string c = r.name(), f = r.get<std::string>("fmt");
  const auto sh = r.get<std::vector<std::int64_t>>("shape");
  const sparse::shape2 shape{sh.at(0), sh.at(1)};
  const dtype it = dtype_from_string(r.get<std::string>("index"));
  const ndarray data = arr(c, "data"), a = arr(c, "a");
  const sparse::matrix_options o{.shape = shape, .index_dtype = it};
  if (f == "coo") return sparse::coo_matrix(data, {a, arr(c, "b")}, o);
  if (f == "csr") return sparse::csr_matrix(data, a, arr(c, "b"), o);
  if (f == "csc") return sparse::csc_matrix(data, a, arr(c, "b"), o);
  if (f == "dia") return sparse::dia_matrix(data, a, o);
  return sparse::bsr_matrix(data, a, arr(c, "b"), sparse::bsr_options{.shape = shape, .index_dtype = it});
}

}  // namespace

TEST_CASE("sparse printing: repr and str of every format vs SciPy") {
  int n = 0;
  for (const auto& r : t::cases(mod, "print")) {
    CAPTURE(r.name());
    const sparse::spmatrix A = build(r);
    const std::int64_t maxprint = r.get<std::int64_t>("maxprint");
    const std::string rep = r.get<std::string>("repr"), str = r.get<std::string>("str");
    CHECK(sparse::repr(A) == rep);
    const std::string s = sparse::to_string(A, maxprint);
    CHECK_MESSAGE(s == str, "--- cusci:\n" << s << "\n--- SciPy:\n" << str);
    // the concrete class gives the same text
    A.visit([&](const auto& m) {
      CHECK(sparse::repr(m) == rep);
      CHECK(sparse::to_string(m, maxprint) == str);
      if (maxprint == 50) {
        std::ostringstream os;
        os << m;
        CHECK(os.str() == str);
      }
    });
    ++n;
  }
  CHECK(n > 90);
}

TEST_CASE("sparse printing: errors and small examples") {
  const sparse::csr_matrix A(asarray(std::vector<double>{1, 0, 2, 0, 0, 3, 4, 5, 0}, {3, 3}));
  CHECK(sparse::repr(A) ==
        "<Compressed Sparse Row sparse matrix of dtype 'float64'\n\twith 5 stored elements and shape (3, 3)>");
  CHECK(sparse::to_string(A) == sparse::repr(A) +
                                    "\n  Coords\tValues\n  (0, 0)\t1.0\n  (0, 2)\t2.0\n  (1, 2)\t3.0\n"
                                    "  (2, 0)\t4.0\n  (2, 1)\t5.0");
  CHECK_THROWS_AS(sparse::to_string(A, -1), value_error);
  std::ostringstream os;
  os << sparse::spmatrix(A);
  CHECK(os.str() == sparse::to_string(A));
}
