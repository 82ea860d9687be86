// Host tests of cusci::sparse::coo_array: argument checks that throw before any device work, run on
// data-less arrays (testing::fake_array): SciPy's rejected arguments from the goldens
// (tests/golden/gen_sparse_coo_nd.py, func "error"), shape and dtype checks, and is_sparse.

#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/sparse/coo_array.hpp"
#include "testing.hpp"

namespace t = cusci::testing;
using namespace cusci;
using namespace cusci::sparse;

namespace {

constexpr const char* M = "sparse_coo_nd";

coo_array fake_coo(const coo_array::shape_type& shape, std::int64_t nnz = 5) {
  return coo_array::from_valid(t::fake_array(dtype::float64, {nnz}),
                               t::fake_array(dtype::int64, {static_cast<std::int64_t>(shape.size()), nnz}), shape);
}

std::vector<int> ints(const std::vector<std::int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

}  // namespace

static_assert(is_sparse_v<coo_array>);
static_assert(is_sparse_v<const coo_array&>);

TEST_CASE("coo_array: SciPy's rejected arguments (goldens) throw the mapped exception, without a GPU") {
  const auto cs = t::cases(M, "error");
  REQUIRE(cs.size() >= 30);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    REQUIRE(c.expects_error());
    const std::string op = c.get<std::string>("op");
    const auto shape = c.get<std::optional<std::vector<std::int64_t>>>("shape");
    if (op == "construct") {
      const auto n = c.get<std::int64_t>("ncoords"), nnz = c.get<std::int64_t>("nnz"),
                 len = c.get<std::int64_t>("coord_len");
      std::vector<ndarray> coords;
      for (std::int64_t i = 0; i < n; ++i) coords.push_back(t::fake_array(dtype::int64, {len}));
      coo_array_options o;
      if (shape) o.shape = *shape;
      t::check_error(c, [&] { (void)coo_array(t::fake_array(dtype::float64, {nnz}), coords, o); });
      continue;
    }
    const coo_array A = fake_coo(*shape);
    const auto xs = c.get_or<std::vector<std::int64_t>>("x_shape", {});
    const ndarray X = t::fake_array(dtype::float64, shape_t(xs.begin(), xs.end()));
    const coo_array XS = xs.empty() ? A : fake_coo(xs);
    if (op == "reshape") t::check_error(c, [&] { (void)A.reshape(c.get<std::vector<std::int64_t>>("new_shape")); });
    else if (op == "transpose")
      t::check_error(c, [&] { (void)A.transpose(ints(c.get<std::vector<std::int64_t>>("axes"))); });
    else if (op == "mT") t::check_error(c, [&] { (void)A.mT(); });
    else if (op == "sum") t::check_error(c, [&] { (void)A.sum(ints(c.get<std::vector<std::int64_t>>("axis"))); });
    else if (op == "permute_dims")
      t::check_error(c, [&] { (void)permute_dims(A, ints(c.get<std::vector<std::int64_t>>("axes"))); });
    else if (op == "swapaxes")
      t::check_error(c, [&] { (void)swapaxes(A, c.get<int>("axis1"), c.get<int>("axis2")); });
    else if (op == "expand_dims") t::check_error(c, [&] { (void)expand_dims(A, c.get<int>("axis")); });
    else if (op == "tocsr") t::check_error(c, [&] { (void)A.tocsr(); });
    else if (op == "dot_dense") t::check_error(c, [&] { (void)A.dot(X); });
    else if (op == "dot_sparse") t::check_error(c, [&] { (void)A.dot(XS); });
    else if (op == "matmul_dense") t::check_error(c, [&] { (void)A.matmul(X); });
    else if (op == "matmul_sparse") t::check_error(c, [&] { (void)A.matmul(XS); });
    else if (op == "tensordot_dense" || op == "tensordot_sparse") {
      const bool sparse_x = op == "tensordot_sparse";
      if (c.has("axes") && !c.params().at("axes").is_null()) {
        const int n = c.get<int>("axes");
        if (sparse_x) t::check_error(c, [&] { (void)A.tensordot(XS, n); });
        else t::check_error(c, [&] { (void)A.tensordot(X, n); });
      } else {
        const auto a = ints(c.get<std::vector<std::int64_t>>("a_axes")), b = ints(c.get<std::vector<std::int64_t>>("b_axes"));
        if (sparse_x) t::check_error(c, [&] { (void)A.tensordot(XS, a, b); });
        else t::check_error(c, [&] { (void)A.tensordot(X, a, b); });
      }
    } else if (op == "add") {
      t::check_error(c, [&] { (void)A.add(XS); });
      t::check_error(c, [&] { (void)A.subtract(XS); });
    } else if (op == "multiply_dense") t::check_error(c, [&] { (void)A.multiply(X); });
    else if (op == "multiply_sparse") t::check_error(c, [&] { (void)A.multiply(XS); });
    else FAIL("unknown op " << op);
  }
}

TEST_CASE("coo_array: shapes and dtypes are checked before anything is allocated") {
  using shp = coo_array::shape_type;
  CHECK_THROWS_AS(coo_array(shp{}), value_error);                        // rank 0
  CHECK_THROWS_AS(coo_array(shp(65, 1)), value_error);                   // rank > 64
  CHECK_THROWS_AS(coo_array(shp{2, -1}), value_error);                   // negative dimension
  CHECK_THROWS_WITH_AS(coo_array(shp{1LL << 40, 1LL << 40}), doctest::Contains("array is too big"), value_error);
  CHECK_THROWS_AS(coo_array(shp{2, 3}, dtype::float16), type_error);
  // Constructor from index arrays: count, rank, length, dtype, inference.
  const ndarray d3 = t::fake_array(dtype::float64, {3});
  const ndarray c3 = t::fake_array(dtype::int64, {3});
  CHECK_THROWS_WITH_AS(coo_array(d3, std::vector<ndarray>{c3, c3}, {.shape = shp{4, 4, 4}}),
                       doctest::Contains("mismatching number of index arrays"), value_error);
  CHECK_THROWS_AS(coo_array(d3, std::vector<ndarray>{t::fake_array(dtype::float32, {3})}), type_error);
  CHECK_THROWS_AS(coo_array(d3, std::vector<ndarray>{t::fake_array(dtype::bool_, {3})}), type_error);
  CHECK_THROWS_AS(coo_array(d3, std::vector<ndarray>{t::fake_array(dtype::int64, {3, 1})}), value_error);
  CHECK_THROWS_AS(coo_array(t::fake_array(dtype::float64, {3, 1}), std::vector<ndarray>{c3}), value_error);
  CHECK_THROWS_AS(coo_array(d3, std::vector<ndarray>{c3}, {.dtype = dtype::float16}), type_error);
  CHECK_THROWS_AS(coo_array(t::fake_array(dtype::float16, {3}), std::vector<ndarray>{c3}), type_error);
  CHECK_THROWS_AS(coo_array(d3, std::vector<ndarray>{}), value_error);
  CHECK_THROWS_AS(coo_array(d3, t::fake_array(dtype::int64, {3})), value_error);  // [ndim, nnz] needs 2-D
  // Constructor from dense: 0-d refused, inconsistent shape refused.
  CHECK_THROWS_AS(coo_array(t::fake_array(dtype::float64, {})), value_error);
  CHECK_THROWS_WITH_AS(coo_array(t::fake_array(dtype::float64, {2, 3}), {.shape = shp{3, 2}}),
                       doctest::Contains("inconsistent shapes"), value_error);
  CHECK_THROWS_AS(coo_array(t::fake_array(dtype::float16, {2, 3})), type_error);
}

TEST_CASE("coo_array: host properties and the checks of the members") {
  const coo_array A = fake_coo({2, 3, 4}, 7);
  CHECK(A.ndim() == 3);
  CHECK(A.nnz() == 7);
  CHECK(A.dtype() == dtype::float64);
  CHECK(A.index_dtype() == dtype::int64);
  CHECK(A.format() == format::coo);
  CHECK_FALSE(A.has_canonical_format());
  CHECK_THROWS_AS(A.coords(3), index_error);
  CHECK_THROWS_AS(A.coords(-4), index_error);
  CHECK_THROWS_AS(A.astype(dtype::float16), type_error);
  CHECK_THROWS_AS(A.sum(std::vector<int>{0}, dtype::float16), type_error);
  CHECK_THROWS_AS(A.to_coo_matrix(), value_error);
  // Identity reshapes and permutations return the same arrays (no device work).
  CHECK(A.reshape({2, 3, 4}).coords().data() == A.coords().data());
  CHECK(A.reshape({2, -1, 4}).coords().data() == A.coords().data());
  CHECK(permute_dims(A, std::vector<int>{0, 1, 2}).coords().data() == A.coords().data());
  // A transpose with an axis aliased through a negative index is a repeated axis here.
  CHECK_THROWS_AS(A.transpose(std::vector<int>{0, 2, -1}), value_error);
  // Division by a Python-like zero (ZeroDivisionError in SciPy).
  CHECK_THROWS_AS(A.divide(0), value_error);
  // Full contractions of two sparse arrays (a scalar in SciPy) are refused.
  const coo_array v = fake_coo({4});
  CHECK_THROWS_AS(v.matmul(v), value_error);
  CHECK_THROWS_AS(v.tensordot(v, 1), value_error);
  // expand_dims past 64 dimensions.
  CHECK_THROWS_AS(expand_dims(fake_coo(coo_array::shape_type(64, 1)), 0), value_error);
}
