// Host tests of cusci::sparse::linalg's LinearOperator algebra and the argument checks of ilu0 / ic0:
// SciPy's dtype rules (promotion of sums and products, weak scalars, H / T / pow keep the dtype),
// shapes of composed operators, SciPy's errors (shape mismatches, p < 0, non-square powers, 1-d
// matmat, undefined rmatvec), and that composition calls the operands' functions in SciPy's order.
// No device work: operands are data-less arrays (testing::fake_array) and user functions that only
// record their calls.

#include <doctest/doctest.h>

#include <complex>
#include <string>
#include <vector>

#include "cusci/sparse/linalg.hpp"
#include "testing.hpp"

using namespace cusci;
namespace sl = cusci::sparse::linalg;
using testing::fake_array;

namespace {

/// An operator of the given shape and dtype whose products return data-less arrays of the right
/// shape and append `tag` to `log` (matvec: tag, rmatvec: tag + "'").
sl::linear_operator recording(sparse::shape2 s, dtype dt, std::vector<std::string>& log, const std::string& tag,
                              bool with_rmatvec = true) {
  auto mv = [s, dt, &log, tag](const ndarray& x) {
    log.push_back(tag);
    return x.ndim() == 2 ? fake_array(dt, {s[0], x.shape(1)}) : fake_array(dt, {s[0]});
  };
  auto rmv = [s, dt, &log, tag](const ndarray& x) {
    log.push_back(tag + "'");
    return x.ndim() == 2 ? fake_array(dt, {s[1], x.shape(1)}) : fake_array(dt, {s[1]});
  };
  if (with_rmatvec) return sl::linear_operator(s, dt, mv, rmv, mv, rmv);
  return sl::linear_operator(s, dt, mv, {}, mv);
}

}  // namespace

TEST_CASE("linear_operator: constructor checks and dtypes") {
  auto never = [](const ndarray&) -> ndarray {
    FAIL("must not be called");
    return ndarray();
  };
  for (dtype t : {dtype::float32, dtype::float64, dtype::complex64, dtype::complex128})
    CHECK(sl::linear_operator({2, 3}, t, never).dtype() == t);
  CHECK_THROWS_WITH_AS(sl::linear_operator({2, 2}, dtype::float16, never),
                       doctest::Contains("float32, float64, complex64 or complex128"), type_error);
  CHECK_THROWS_AS(sl::linear_operator({2, 2}, dtype::int64, never), type_error);
  CHECK_THROWS_AS(sl::linear_operator({2, -1}, dtype::float64, never), value_error);
  CHECK_THROWS_WITH_AS(sl::linear_operator({2, 2}, dtype::float64, nullptr), doctest::Contains("must not be empty"),
                       value_error);
  // matmat alone defines matvec (as a [n, 1] product), rmatmat alone rmatvec.
  std::vector<std::string> log;
  const sl::linear_operator M({3, 2}, dtype::float64, {}, {}, [&](const ndarray& X) {
    log.push_back("mm" + std::to_string(X.ndim()));
    return fake_array(dtype::float64, {3, X.shape(1)});
  });
  CHECK(M.matvec(fake_array(dtype::float64, {2})).shape() == shape_t{3});
  CHECK(log == std::vector<std::string>{"mm2"});
  CHECK_FALSE(M.has_rmatvec());
  CHECK_THROWS_AS((void)M.rmatvec(fake_array(dtype::float64, {3})), not_implemented_error);
  CHECK_THROWS_AS((void)M.rmatmat(fake_array(dtype::float64, {3, 2})), not_implemented_error);
}

TEST_CASE("linear_operator: SciPy's dtype rules for composed operators") {
  std::vector<std::string> log;
  const auto f32 = recording({3, 3}, dtype::float32, log, "a"), f64 = recording({3, 3}, dtype::float64, log, "b");
  const auto c64 = recording({3, 3}, dtype::complex64, log, "c");
  CHECK((f32 + f32).dtype() == dtype::float32);
  CHECK((f32 + f64).dtype() == dtype::float64);
  CHECK((f32 * c64).dtype() == dtype::complex64);
  CHECK((f64 * c64).dtype() == dtype::complex128);
  CHECK((f32 - f64).dtype() == dtype::float64);
  // Scalars are weak (SciPy 1.18, NumPy 2): a real scalar keeps float32, a complex one makes it complex64.
  CHECK((2.5 * f32).dtype() == dtype::float32);
  CHECK((f32 * 2.5).dtype() == dtype::float32);
  CHECK((-f32).dtype() == dtype::float32);
  CHECK((std::complex<double>(0, 1) * f32).dtype() == dtype::complex64);
  CHECK((std::complex<double>(0, 1) * f64).dtype() == dtype::complex128);
  CHECK((f32 / 2.0).dtype() == dtype::float32);
  CHECK(f32.H().dtype() == dtype::float32);
  CHECK(c64.T().dtype() == dtype::complex64);
  CHECK(sl::pow(c64, 3).dtype() == dtype::complex64);
}

TEST_CASE("linear_operator: shapes, errors and the order of the operands' products") {
  std::vector<std::string> log;
  const auto A = recording({4, 3}, dtype::float64, log, "A"), B = recording({3, 2}, dtype::float64, log, "B");
  const auto C = recording({4, 3}, dtype::float64, log, "C", false);
  CHECK(A.H().shape() == sparse::shape2{3, 4});
  CHECK(A.T().shape() == sparse::shape2{3, 4});
  CHECK(A.H().H().shape() == sparse::shape2{4, 3});
  const auto AB = A * B;
  CHECK(AB.shape() == sparse::shape2{4, 2});
  // (A B) x = A (B x); (A B)^H y = B^H (A^H y).
  log.clear();
  CHECK(AB.matvec(fake_array(dtype::float64, {2})).shape() == shape_t{4});
  CHECK(log == std::vector<std::string>{"B", "A"});
  log.clear();
  CHECK(AB.rmatvec(fake_array(dtype::float64, {4})).shape() == shape_t{2});
  CHECK(log == std::vector<std::string>{"A'", "B'"});
  log.clear();
  CHECK(AB.H().matvec(fake_array(dtype::float64, {4})).shape() == shape_t{2});
  CHECK(log == std::vector<std::string>{"A'", "B'"});
  log.clear();
  CHECK(AB.matmat(fake_array(dtype::float64, {2, 5})).shape() == shape_t{4, 5});
  CHECK(log == std::vector<std::string>{"B", "A"});
  // Real operators: the transpose is the adjoint (no conjugation of real data).
  log.clear();
  CHECK(A.T().matvec(fake_array(dtype::float64, {4})).shape() == shape_t{3});
  CHECK(log == std::vector<std::string>{"A'"});
  // [n, 1] in, [m, 1] out.
  CHECK(A.matvec(fake_array(dtype::float64, {3, 1})).shape() == shape_t{4, 1});
  CHECK(A.dot(fake_array(dtype::float64, {3, 7})).shape() == shape_t{4, 7});

  CHECK_THROWS_WITH_AS((void)(A + B), doctest::Contains("cannot add"), value_error);
  CHECK_THROWS_WITH_AS((void)(A - B), doctest::Contains("shape mismatch"), value_error);
  CHECK_THROWS_WITH_AS((void)(B * A), doctest::Contains("cannot multiply"), value_error);
  CHECK_THROWS_WITH_AS((void)sl::pow(A, 2), doctest::Contains("square LinearOperator expected"), value_error);
  const auto S = recording({3, 3}, dtype::float64, log, "S");
  CHECK_THROWS_WITH_AS((void)sl::pow(S, -1), doctest::Contains("non-negative integer expected as p"), value_error);
  CHECK_THROWS_AS((void)(A / 0.0), value_error);
  CHECK_THROWS_WITH_AS((void)A.matmat(fake_array(dtype::float64, {3})), doctest::Contains("expected a 2-d array"),
                       value_error);
  CHECK_THROWS_WITH_AS((void)A.matmat(fake_array(dtype::float64, {4, 2})), doctest::Contains("dimension mismatch"),
                       value_error);
  CHECK_THROWS_AS((void)A.rmatmat(fake_array(dtype::float64, {3, 2})), value_error);
  CHECK_THROWS_WITH_AS((void)A.matvec(fake_array(dtype::float64, {4})), doctest::Contains("dimension mismatch"),
                       value_error);
  // An operand without rmatvec: the composite has none either; its adjoint's matvec is undefined.
  CHECK_FALSE((A + C).has_rmatvec());
  CHECK_FALSE((C * B).has_rmatvec());
  CHECK_FALSE((2.0 * C).has_rmatvec());
  CHECK((A + A).has_rmatvec());
  CHECK_THROWS_AS((void)C.H().matvec(fake_array(dtype::float64, {4})), not_implemented_error);
  CHECK_THROWS_AS((void)(A + C).rmatvec(fake_array(dtype::float64, {4})), not_implemented_error);
}

TEST_CASE("aslinearoperator of a dense array and ilu0 / ic0 argument checks, before device work") {
  const auto D = sl::aslinearoperator(fake_array(dtype::complex64, {2, 5}));
  CHECK(D.shape() == sparse::shape2{2, 5});
  CHECK(D.dtype() == dtype::complex64);
  CHECK(D.has_rmatvec());
  CHECK(sl::aslinearoperator(fake_array(dtype::float64, {5})).shape() == sparse::shape2{1, 5});  // atleast_2d
  CHECK_THROWS_AS((void)sl::aslinearoperator(fake_array(dtype::float64, {2, 2, 2})), value_error);
  CHECK_THROWS_AS((void)sl::aslinearoperator(fake_array(dtype::float64, {})), value_error);
  CHECK_THROWS_AS((void)D.matvec(fake_array(dtype::complex64, {2})), value_error);

  const auto rect = sparse::csr_matrix::from_valid(fake_array(dtype::float64, {0}), fake_array(dtype::int32, {0}),
                                                   fake_array(dtype::int32, {3}), {2, 3});
  CHECK_THROWS_WITH_AS((void)sl::ilu0(rect), doctest::Contains("cusci::sparse::linalg::ilu0: A must be square"),
                       value_error);
  CHECK_THROWS_WITH_AS((void)sl::ic0(rect), doctest::Contains("cusci::sparse::linalg::ic0: A must be square"),
                       value_error);
  const auto half = sparse::csr_matrix::from_valid(fake_array(dtype::float16, {0}), fake_array(dtype::int32, {0}),
                                                   fake_array(dtype::int32, {3}), {2, 2});
  CHECK_THROWS_AS((void)sl::ilu0(half), type_error);
  CHECK_THROWS_AS((void)sl::ic0(half), type_error);
}
