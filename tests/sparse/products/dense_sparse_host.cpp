// Host tests of dense x sparse products and sputils (no device work): overload resolution of every
// call form of dot and operator* between dense arrays and sparse matrices, the sparse type traits,
// argument checks that throw before any device work, and get_index_dtype without arrays.

#include <type_traits>
#include <utility>

#include "cusci/core.hpp"
#include "cusci/error.hpp"
#include "cusci/sparse/sparse.hpp"
#include "cusci/sparse/sputils.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::sparse;

namespace {

template <class T>
const T& cref();

// No implicit conversion between dense arrays and sparse matrices, or from a matrix to a scalar: the
// dense x sparse overloads cannot capture an elementwise call, nor the reverse.
static_assert(!std::is_convertible_v<ndarray, spmatrix>);
static_assert(!std::is_convertible_v<ndarray, csr_matrix>);
static_assert(!std::is_convertible_v<ndarray, coo_matrix>);
static_assert(!std::is_convertible_v<spmatrix, ndarray>);
static_assert(!std::is_convertible_v<csr_matrix, ndarray>);
static_assert(!std::is_convertible_v<spmatrix, scalar>);
static_assert(!std::is_convertible_v<csr_matrix, scalar>);

// dot: dense x sparse, sparse x dense, sparse x sparse, dense x dense; every format class as well as
// spmatrix selects the sparse overloads.
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<spmatrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<csr_matrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<csc_matrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<coo_matrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<dia_matrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<bsr_matrix>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<csr_matrix>(), cref<ndarray>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<spmatrix>(), cref<ndarray>())), ndarray>);
static_assert(std::is_same_v<decltype(dot(cref<csr_matrix>(), cref<csc_matrix>())), spmatrix>);
static_assert(std::is_same_v<decltype(dot(cref<spmatrix>(), cref<spmatrix>())), spmatrix>);
static_assert(std::is_same_v<decltype(dot(cref<csr_matrix>(), cref<csr_matrix>(), spgemm_options{})), csr_matrix>);
static_assert(std::is_same_v<decltype(dot(cref<ndarray>(), cref<ndarray>())), ndarray>);

// operator*: dense x sparse is the matrix product (ndarray); sparse x dense too; sparse x sparse an
// spmatrix; the elementwise and scalar forms keep their types.
static_assert(std::is_same_v<decltype(cref<ndarray>() * cref<spmatrix>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<ndarray>() * cref<csr_matrix>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<ndarray>() * cref<bsr_matrix>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<csr_matrix>() * cref<ndarray>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<spmatrix>() * cref<ndarray>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<csr_matrix>() * cref<csc_matrix>()), spmatrix>);
static_assert(std::is_same_v<decltype(cref<ndarray>() * cref<ndarray>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<ndarray>() * 2.0), ndarray>);
static_assert(std::is_same_v<decltype(2.0 * cref<ndarray>()), ndarray>);
static_assert(std::is_same_v<decltype(cref<csr_matrix>() * 2.0), spmatrix>);

// Traits.
static_assert(is_sparse_v<csr_matrix> && is_sparse_v<const spmatrix&> && !is_sparse_v<ndarray>);
static_assert(is_spmatrix_v<csr_matrix> && is_spmatrix_v<csc_matrix> && is_spmatrix_v<coo_matrix>);
static_assert(is_spmatrix_v<dia_matrix> && is_spmatrix_v<bsr_matrix> && is_spmatrix_v<const spmatrix&>);
static_assert(is_spmatrix_v<csr_matrix&&> && !is_spmatrix_v<ndarray> && !is_spmatrix_v<int>);

// A CSR matrix [m, n] with no stored entry whose arrays own no memory: enough for checks that throw
// before any device work.
csr_matrix fake_csr(std::int64_t m, std::int64_t n) {
  return csr_matrix::from_valid(testing::fake_array(dtype::float64, {0}), testing::fake_array(dtype::int32, {0}),
                                testing::fake_array(dtype::int32, {m + 1}), shape2{m, n}, true);
}

}  // namespace

TEST_CASE("dense @ sparse: shape checks throw value_error 'dimension mismatch' before device work") {
  const csr_matrix B = fake_csr(4, 3);
  using testing::fake_array;
  CHECK_THROWS_WITH_AS(dot(fake_array(dtype::float64, {2, 5}), B), doctest::Contains("dimension mismatch"),
                       value_error);
  CHECK_THROWS_WITH_AS(dot(fake_array(dtype::float64, {3}), B), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(dot(fake_array(dtype::float64, {2, 2, 4}), B), doctest::Contains("dimension mismatch"),
                       value_error);
  CHECK_THROWS_WITH_AS(dot(fake_array(dtype::float64, {}), B), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_WITH_AS(fake_array(dtype::int8, {1, 3}) * B, doctest::Contains("cusci::sparse::dot"), value_error);
}

TEST_CASE("is_sparse_warning: SciPy's SparseWarning family") {
  CHECK(sparse::is_sparse_warning(cusci::warning{"SparseEfficiencyWarning", "f", "m"}));
  CHECK(sparse::is_sparse_warning(cusci::warning{"SparseWarning", "f", "m"}));
  CHECK_FALSE(sparse::is_sparse_warning(cusci::warning{"LinAlgWarning", "f", "m"}));
}

TEST_CASE("isspmatrix_* answer from the held format (host only)") {
  const spmatrix A = fake_csr(2, 2);
  CHECK(isspmatrix(A));
  CHECK(isspmatrix_csr(A));
  CHECK_FALSE(isspmatrix_csc(A));
  CHECK_FALSE(isspmatrix_coo(A));
  CHECK_FALSE(isspmatrix_dia(A));
  CHECK_FALSE(isspmatrix_bsr(A));
  const csc_matrix C = transpose(fake_csr(3, 2));
  CHECK(isspmatrix_csc(C));
}

TEST_CASE("get_index_dtype: maxval and dtypes alone need no device work") {
  using testing::fake_array;
  CHECK(get_index_dtype(std::vector<ndarray>{}) == dtype::int32);
  CHECK(get_index_dtype(std::vector<ndarray>{}, std::int64_t{2147483647}) == dtype::int32);
  CHECK(get_index_dtype(std::vector<ndarray>{}, std::int64_t{2147483648}) == dtype::int64);
  CHECK(get_index_dtype({fake_array(dtype::int32, {3}), fake_array(dtype::uint16, {2})}) == dtype::int32);
  CHECK(get_index_dtype({fake_array(dtype::int32, {3}), fake_array(dtype::int64, {2})}) == dtype::int64);
  CHECK(get_index_dtype(fake_array(dtype::uint32, {2})) == dtype::int64);
  CHECK(get_index_dtype(fake_array(dtype::float64, {2}), {}, true) == dtype::int64);  // not an integer dtype
  CHECK(get_index_dtype(fake_array(dtype::int64, {0}), {}, true) == dtype::int32);   // empty: not needed
  CHECK(get_index_dtype(fake_array(dtype::int8, {4}), std::int64_t{5}, true) == dtype::int32);
  // The one-argument form of matrix.hpp stays reachable and unambiguous.
  CHECK(get_index_dtype(std::int64_t{7}) == dtype::int32);
  CHECK(get_index_dtype(5) == dtype::int32);
}

TEST_CASE("safely_cast_index_arrays: a non-integer idx_dtype is a value_error naming the function") {
  const csr_matrix A = fake_csr(2, 2);
  CHECK_THROWS_WITH_AS(safely_cast_index_arrays(A, dtype::float32),
                       doctest::Contains("cusci::sparse::safely_cast_index_arrays"), value_error);
}
