// Host tests of cusci::sparse's formats family: format names, index dtype rule, and argument checks
// that throw before any device work (arrays over no memory prove no device access happens).

#include <string>

#include "cusci/error.hpp"
#include "cusci/sparse/io.hpp"
#include "cusci/sparse/matrix.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sp = cusci::sparse;

namespace {
// Array headers over no memory, for checks that throw before any device work.
constexpr auto fake = &cusci::testing::fake_array;

}  // namespace

TEST_CASE("format names parse as SciPy's strings") {
  CHECK(sp::format_from_string("csr") == sp::format::csr);
  CHECK(sp::format_from_string("csc") == sp::format::csc);
  CHECK(sp::format_from_string("coo") == sp::format::coo);
  CHECK(sp::format_from_string("dia") == sp::format::dia);
  CHECK(sp::format_from_string("bsr") == sp::format::bsr);
  for (auto f : {sp::format::csr, sp::format::csc, sp::format::coo, sp::format::dia, sp::format::bsr})
    CHECK(sp::format_from_string(sp::to_string(f)) == f);
  CHECK_THROWS_WITH_AS(sp::format_from_string("xyz"), doctest::Contains("Format xyz is unknown."), value_error);
  CHECK_THROWS_AS(sp::format_from_string("lil"), not_implemented_error);
  CHECK_THROWS_AS(sp::format_from_string("dok"), not_implemented_error);
  CHECK_THROWS_AS(sp::format_from_string("CSR"), value_error);
}

TEST_CASE("supported value dtypes: every dtype but float16") {
  for (dtype t : {dtype::bool_, dtype::int8, dtype::int16, dtype::int32, dtype::int64, dtype::uint8, dtype::uint16,
                  dtype::uint32, dtype::uint64, dtype::float32, dtype::float64, dtype::complex64, dtype::complex128})
    CHECK(sp::is_supported_dtype(t));
  CHECK_FALSE(sp::is_supported_dtype(dtype::float16));
  CHECK(sp::get_index_dtype(2147483647) == dtype::int32);
  CHECK(sp::get_index_dtype(2147483648LL) == dtype::int64);
}

TEST_CASE("float16 values are rejected with SciPy's message") {
  const ndarray h = fake(dtype::float16, {3}), i = fake(dtype::int32, {3}), p = fake(dtype::int32, {4});
  CHECK_THROWS_WITH_AS(sp::coo_matrix(h, {i, i}, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("scipy.sparse does not support dtype float16"), type_error);
  CHECK_THROWS_AS(sp::csr_matrix(h, i, p, {.shape = sp::shape2{3, 3}}), type_error);
  CHECK_THROWS_AS(sp::csc_matrix(h, i, p, {.shape = sp::shape2{3, 3}}), type_error);
  CHECK_THROWS_AS(sp::coo_matrix(fake(dtype::float16, {2, 2})), type_error);
  CHECK_THROWS_AS(sp::csr_matrix(fake(dtype::float16, {2, 2})), type_error);
  CHECK_THROWS_AS(sp::dia_matrix(fake(dtype::float16, {1, 3}), fake(dtype::int32, {1}), {.shape = sp::shape2{3, 3}}),
                  type_error);
  CHECK_THROWS_AS(sp::bsr_matrix(fake(dtype::float16, {1, 1, 1}), fake(dtype::int32, {1}), fake(dtype::int32, {2}),
                                 {.shape = sp::shape2{1, 1}}),
                  type_error);
  // dtype= option
  CHECK_THROWS_AS(sp::coo_matrix(sp::shape2{2, 2}, {.dtype = dtype::float16}), type_error);
  CHECK_THROWS_AS(sp::csr_matrix(fake(dtype::float64, {3}), i, p, {.shape = sp::shape2{3, 3}, .dtype = dtype::float16}),
                  type_error);
}

TEST_CASE("malformed structure: value_error naming what, before device work") {
  const ndarray d3 = fake(dtype::float64, {3}), i3 = fake(dtype::int32, {3}), i2 = fake(dtype::int32, {2});
  const ndarray p4 = fake(dtype::int32, {4});
  // COO
  CHECK_THROWS_WITH_AS(sp::coo_matrix(d3, {i3, i2}, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("all index and data arrays must have the same length"), value_error);
  CHECK_THROWS_WITH_AS(sp::coo_matrix(fake(dtype::float64, {3, 1}), {i3, i3}, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("coordinates and data arrays must be 1-D"), value_error);
  CHECK_THROWS_WITH_AS(sp::coo_matrix(fake(dtype::float64, {0}), {fake(dtype::int32, {0}), fake(dtype::int32, {0})}),
                       doctest::Contains("cannot infer dimensions from zero sized index arrays"), value_error);
  CHECK_THROWS_AS(sp::coo_matrix(d3, {fake(dtype::float64, {3}), i3}, {.shape = sp::shape2{3, 3}}), type_error);
  CHECK_THROWS_AS(sp::coo_matrix(sp::shape2{-1, 2}), value_error);
  CHECK_THROWS_AS(sp::coo_matrix(sp::shape2{2, 2}, {.index_dtype = dtype::int16}), type_error);
  CHECK_THROWS_AS(sp::coo_matrix(sp::shape2{3000000000LL, 2}, {.index_dtype = dtype::int32}), value_error);
  CHECK_THROWS_WITH_AS(sp::coo_matrix(fake(dtype::float64, {2, 2, 2})), doctest::Contains("expected 2D array or matrix, not 3D"),
                       type_error);
  // CSR / CSC
  CHECK_THROWS_WITH_AS(sp::csr_matrix(d3, i3, fake(dtype::int32, {3}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("index pointer size 3 should be 4"), value_error);
  CHECK_THROWS_WITH_AS(sp::csc_matrix(d3, i3, p4, {.shape = sp::shape2{3, 4}}),
                       doctest::Contains("index pointer size 4 should be 5"), value_error);
  CHECK_THROWS_WITH_AS(sp::csr_matrix(d3, i2, p4, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("indices and data should have the same size"), value_error);
  CHECK_THROWS_WITH_AS(sp::csr_matrix(fake(dtype::float64, {3, 1}), i3, p4, {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("data, indices, and indptr should be 1-D"), value_error);
  CHECK_THROWS_AS(sp::csr_matrix(d3, i3, fake(dtype::float32, {4}), {.shape = sp::shape2{3, 3}}), type_error);
  CHECK_THROWS_AS(sp::csr_matrix(d3, i3, p4, {.shape = sp::shape2{3, -3}}), value_error);
  // DIA
  CHECK_THROWS_WITH_AS(sp::dia_matrix(fake(dtype::float64, {1, 3}), fake(dtype::int32, {1})),
                       doctest::Contains("expected a shape argument"), value_error);
  CHECK_THROWS_WITH_AS(sp::dia_matrix(fake(dtype::float64, {1, 3}), fake(dtype::int32, {1, 1}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("offsets array must have rank 1"), value_error);
  CHECK_THROWS_WITH_AS(sp::dia_matrix(fake(dtype::float64, {1, 1, 3}), fake(dtype::int32, {1}), {.shape = sp::shape2{3, 3}}),
                       doctest::Contains("data array must have rank 2"), value_error);
  // BSR
  CHECK_THROWS_WITH_AS(sp::bsr_matrix(fake(dtype::float64, {2, 2}), i2, fake(dtype::int32, {2}), {.shape = sp::shape2{2, 4}}),
                       doctest::Contains("data should be 3-D"), value_error);
  CHECK_THROWS_WITH_AS(sp::bsr_matrix(fake(dtype::float64, {1, 2, 2}), fake(dtype::int32, {1}), fake(dtype::int32, {2}),
                                      {.shape = sp::shape2{3, 4}}),
                       doctest::Contains("shape must be multiple of blocksize"), value_error);
  CHECK_THROWS_WITH_AS(sp::bsr_matrix(fake(dtype::float64, {1, 2, 2}), fake(dtype::int32, {1}), fake(dtype::int32, {3}),
                                      {.shape = sp::shape2{2, 4}}),
                       doctest::Contains("index pointer size (3) should be (2)"), value_error);
  CHECK_THROWS_AS(sp::bsr_matrix(sp::shape2{4, 4}, {.blocksize = sp::shape2{0, 2}}), value_error);
  CHECK_THROWS_AS(sp::bsr_matrix(sp::shape2{4, 4}, {.blocksize = sp::shape2{3, 2}}), value_error);
}
