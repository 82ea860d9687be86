// Host tests of 2-D boolean-mask indexing of cusci::sparse matrices: the argument checks that throw
// before any device work (mask dtype, rank and shape, sparse masks, formats that cannot be indexed),
// with SciPy's messages, and the overloads a call picks.
#include <string>
#include <vector>

#include "cusci/sparse/access.hpp"
#include "testing.hpp"

using namespace cusci;

namespace {
// Array headers over no memory, for checks that throw before any device work.
constexpr auto fake = &cusci::testing::fake_array;

sparse::csr_matrix fake_csr(dtype dt, sparse::shape2 sh) {
  return sparse::csr_matrix::from_valid(fake(dt, {4}), fake(dtype::int32, {4}), fake(dtype::int32, {sh[0] + 1}), sh);
}
sparse::csc_matrix fake_csc(dtype dt, sparse::shape2 sh) {
  return sparse::csc_matrix::from_valid(fake(dt, {4}), fake(dtype::int32, {4}), fake(dtype::int32, {sh[1] + 1}), sh);
}
}  // namespace

TEST_CASE("get(A, mask): dense mask checks") {
  const sparse::csr_matrix A = fake_csr(dtype::float64, {5, 6});
  CHECK_THROWS_WITH_AS(sparse::get(A, fake(dtype::bool_, {5, 5})),
                       doctest::Contains("bool index 0 has shape (5, 6) instead of (5, 5)"), index_error);
  CHECK_THROWS_WITH_AS(sparse::get(A, fake(dtype::bool_, {6, 5})),
                       doctest::Contains("cusci::sparse::get: bool index 0 has shape (5, 6) instead of (6, 5)"),
                       index_error);
  CHECK_THROWS_AS(sparse::get(A, fake(dtype::bool_, {5, 6, 1})), index_error);
  CHECK_THROWS_AS(sparse::get(A, fake(dtype::bool_, {5})), value_error);
  CHECK_THROWS_AS(sparse::get(A, fake(dtype::bool_, {})), value_error);
  CHECK_THROWS_WITH_AS(sparse::get(A, fake(dtype::int64, {5, 6})), doctest::Contains("dtype bool"), type_error);
  CHECK_THROWS_AS(sparse::get(A, fake(dtype::float32, {5, 6})), type_error);
  const sparse::csc_matrix C = fake_csc(dtype::int8, {0, 3});
  CHECK_THROWS_WITH_AS(sparse::get(C, fake(dtype::bool_, {3, 0})),
                       doctest::Contains("bool index 0 has shape (0, 3) instead of (3, 0)"), index_error);
}

TEST_CASE("get(A, sparse mask): dtype and shape checks with SciPy's messages") {
  const sparse::csr_matrix A = fake_csr(dtype::complex64, {5, 6});
  const sparse::csr_matrix wrong_dtype = fake_csr(dtype::float64, {5, 6});
  CHECK_THROWS_WITH_AS(sparse::get(A, wrong_dtype),
                       doctest::Contains("Indexing with sparse matrices is not supported except boolean indexing "
                                         "where matrix and index are equal shapes."),
                       index_error);
  const sparse::csc_matrix wrong_shape = fake_csc(dtype::bool_, {4, 6});
  CHECK_THROWS_WITH_AS(sparse::get(A, wrong_shape),
                       doctest::Contains("bool index 0 has shape (5, 6) instead of (4, 6)"), index_error);
  const sparse::coo_matrix coo_mask = sparse::coo_matrix::from_valid(fake(dtype::bool_, {0}), fake(dtype::int32, {0}),
                                                                     fake(dtype::int32, {0}), {6, 5});
  CHECK_THROWS_AS(sparse::get(A, coo_mask), index_error);
}

TEST_CASE("mask indexing: formats SciPy cannot index") {
  const sparse::coo_matrix C = sparse::coo_matrix::from_valid(fake(dtype::float64, {0}), fake(dtype::int32, {0}),
                                                              fake(dtype::int32, {0}), {5, 6});
  CHECK_THROWS_WITH_AS(sparse::get(C, fake(dtype::bool_, {5, 6})),
                       doctest::Contains("'coo_matrix' object is not subscriptable"), type_error);
  const sparse::bsr_matrix B = sparse::bsr_matrix::from_valid(fake(dtype::float64, {0, 2, 2}), fake(dtype::int32, {0}),
                                                              fake(dtype::int32, {3}), {4, 4});
  CHECK_THROWS_AS(sparse::get(B, fake(dtype::bool_, {4, 4})), not_implemented_error);
  sparse::spmatrix S = C;
  CHECK_THROWS_AS(sparse::setitem(S, fake(dtype::bool_, {5, 6}), 1.0), type_error);
  CHECK_THROWS_AS(sparse::setitem(S, fake(dtype::bool_, {5, 6}), fake(dtype::float64, {3})), type_error);
  sparse::spmatrix SB = B;
  CHECK_THROWS_AS(sparse::setitem(SB, fake(dtype::bool_, {4, 4}), 1.0), not_implemented_error);
}

TEST_CASE("setitem(A, mask, x): the mask is checked before the values") {
  sparse::csr_matrix A = fake_csr(dtype::float64, {5, 6});
  sparse::csc_matrix B = fake_csc(dtype::int32, {5, 6});
  sparse::spmatrix S = fake_csr(dtype::bool_, {5, 6});
  const ndarray bad = fake(dtype::bool_, {6, 5});
  // Scalars (weak C++ values convert to cusci::scalar) and arrays, through each overload.
  CHECK_THROWS_WITH_AS(sparse::setitem(A, bad, 2), doctest::Contains("cusci::sparse::setitem: bool index 0 has shape"),
                       index_error);
  CHECK_THROWS_AS(sparse::setitem(A, bad, 2.5, sparse::new_entries::raise), index_error);
  CHECK_THROWS_AS(sparse::setitem(B, bad, fake(dtype::float64, {7})), index_error);
  CHECK_THROWS_AS(sparse::setitem(S, bad, true), index_error);
  CHECK_THROWS_AS(sparse::setitem(A, fake(dtype::int8, {5, 6}), 1.0), type_error);
  const sparse::csr_matrix float_mask = fake_csr(dtype::float64, {5, 6});
  CHECK_THROWS_AS(sparse::setitem(A, float_mask, 1.0), index_error);
  CHECK_THROWS_AS(sparse::setitem(B, float_mask, fake(dtype::float64, {2})), index_error);
  CHECK_THROWS_AS(sparse::setitem(S, sparse::spmatrix(fake_csc(dtype::bool_, {5, 5})), 0), index_error);
  // The existing (rows, cols) overloads are still chosen for integer and slice indices.
  CHECK_THROWS_AS(sparse::getitem(A, cusci::slice{}, std::int64_t{9}), index_error);
  CHECK_THROWS_AS(sparse::get(A, 9, 0), index_error);
}
