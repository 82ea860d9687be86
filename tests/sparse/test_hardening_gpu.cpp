// Checks of sparse's hardening that need a device (the arrays are read): dia offsets outside the
// int32 index dtype, tril/triu with k far outside the matrix (int32 indices: SciPy's OverflowError;
// int64 indices: everything or nothing), an empty indptr leaving no pending CUDA error.

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/sparse/sparse.hpp"

using namespace cusci;

TEST_CASE("hardening: dia offsets outside int32, tril/triu with a huge k, empty indptr") {
  const std::int64_t t32 = std::int64_t{1} << 32, t40 = std::int64_t{1} << 40;
  CHECK_THROWS_WITH_AS(sparse::dia_matrix(ones({1, 3}), asarray(std::vector<std::int64_t>{t32 + 1}),
                                          {.shape = sparse::shape2{3, 3}}),
                       doctest::Contains("out of bounds for the int32 index dtype"), value_error);
  // Fits: int64 offsets are kept as given when asked for.
  const sparse::dia_matrix wide(ones({1, 3}), asarray(std::vector<std::int64_t>{1}),
                                {.shape = sparse::shape2{3, 3}, .index_dtype = dtype::int64});
  CHECK(wide.nnz() == 2);

  const std::vector<double> d{1, 2, 3, 4, 5};
  const std::vector<std::int32_t> r32{0, 1, 2, 2, 0}, c32{0, 0, 1, 2, 2};
  const sparse::spmatrix A32 = sparse::coo_matrix(asarray(d), {asarray(r32), asarray(c32)}, {.shape = sparse::shape2{3, 3}});
  CHECK_THROWS_WITH_AS((void)sparse::tril(A32, t40), doctest::Contains("out of bounds for int32"), value_error);
  CHECK_THROWS_AS((void)sparse::triu(A32, -t40), value_error);
  CHECK(sparse::tril(A32, 2).nnz() == 5);
  CHECK(sparse::tril(A32, -3).nnz() == 0);

  const std::vector<std::int64_t> r64{0, 1, 2, 2, 0}, c64{0, 0, 1, 2, 2};
  const sparse::spmatrix A64 = sparse::coo_matrix(asarray(d), {asarray(r64), asarray(c64)},
                                                  {.shape = sparse::shape2{3, 3}, .index_dtype = dtype::int64});
  CHECK(sparse::tril(A64, t40).nnz() == 5);
  CHECK(sparse::tril(A64, INT64_MAX).nnz() == 5);
  CHECK(sparse::tril(A64, -t40).nnz() == 0);
  CHECK(sparse::triu(A64, INT64_MIN).nnz() == 5);
  CHECK(sparse::triu(A64, INT64_MAX).nnz() == 0);
  CHECK(sparse::tril(A64, -1).nnz() == 2);  // (1, 0), (2, 1)

  CHECK_THROWS_WITH_AS(sparse::bsr_matrix(ones({1, 2, 2}), asarray(std::vector<std::int32_t>{0}),
                                          asarray(std::vector<std::int32_t>{})),
                       doctest::Contains("'shape' elements cannot be negative"), value_error);
  CHECK(cudaGetLastError() == cudaSuccess);  // no pending CUDA error left behind
}
