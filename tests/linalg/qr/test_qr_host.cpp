// Host tests of cusci::linalg's QR family: SciPy's defaults, the mode parsers, and the argument checks that
// throw before any device work (the arrays here are headers over no memory; they are never read).

#include <doctest/doctest.h>

#include "cusci/linalg/qr.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::fake_array;
using cusci::testing::linalg_cases::f64;

TEST_CASE("qr family options default to SciPy's") {
  const linalg::qr_options q{};
  CHECK_FALSE(q.overwrite_a);
  CHECK_FALSE(q.lwork.has_value());
  CHECK(q.mode == linalg::qr_mode::full);
  CHECK_FALSE(q.pivoting);
  CHECK(q.check_finite);
  const linalg::rq_options r{};
  CHECK_FALSE(r.overwrite_a);
  CHECK_FALSE(r.lwork.has_value());
  CHECK(r.mode == linalg::rq_mode::full);
  CHECK(r.check_finite);
  const linalg::qr_multiply_options m{};
  CHECK(m.mode == linalg::qr_multiply_mode::right);
  CHECK_FALSE(m.pivoting);
  CHECK_FALSE(m.conjugate);
  CHECK_FALSE(m.overwrite_a);
  CHECK_FALSE(m.overwrite_c);
}

TEST_CASE("mode strings parse as SciPy's") {
  CHECK(linalg::parse_qr_mode("full") == linalg::qr_mode::full);
  CHECK(linalg::parse_qr_mode("qr") == linalg::qr_mode::full);
  CHECK(linalg::parse_qr_mode("r") == linalg::qr_mode::r);
  CHECK(linalg::parse_qr_mode("economic") == linalg::qr_mode::economic);
  CHECK(linalg::parse_qr_mode("raw") == linalg::qr_mode::raw);
  CHECK_THROWS_WITH_AS(linalg::parse_qr_mode("x"),
                       doctest::Contains("Mode argument should be one of ['full', 'qr', 'r', 'raw', 'economic']"),
                       value_error);
  CHECK(linalg::parse_rq_mode("economic") == linalg::rq_mode::economic);
  CHECK_THROWS_WITH_AS(linalg::parse_rq_mode("raw"),
                       doctest::Contains("Mode argument should be one of ['full', 'r', 'economic']"), value_error);
  CHECK(linalg::parse_qr_multiply_mode("left") == linalg::qr_multiply_mode::left);
  CHECK_THROWS_WITH_AS(linalg::parse_qr_multiply_mode("up"),
                       doctest::Contains("Mode argument can only be 'left' or 'right' but not 'up'"), value_error);
}

TEST_CASE("qr and rq reject bad shapes and lwork before touching the device") {
  CHECK_THROWS_WITH_AS(linalg::qr(f64({4})), doctest::Contains("Expected at least a 2-D array"), value_error);
  CHECK_THROWS_AS(linalg::qr(f64({})), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr(f64({4, 3}), {.lwork = 4}),
                       "cusci::linalg::qr: lwork should be None, -1 or > M, got 4", value_error);
  CHECK_THROWS_WITH_AS(linalg::rq(f64({4})), doctest::Contains("expected matrix"), value_error);
  CHECK_THROWS_WITH_AS(linalg::rq(f64({0, 3, 3})), doctest::Contains("`rq` does not support zero-size batches."),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::rq(f64({4, 6}), {.lwork = 1}), doctest::Contains("gerqf:lwork=1"), value_error);
  CHECK_THROWS_WITH_AS(linalg::rq(f64({4, 6}), {.lwork = 5}), doctest::Contains("orgrq:lwork=5"), value_error);
}

TEST_CASE("qr_multiply checks shapes before touching the device") {
  using linalg::qr_multiply_mode;
  CHECK_THROWS_WITH_AS(linalg::qr_multiply(f64({5, 3}), f64({5, 2}), {.mode = qr_multiply_mode::left}),
                       "cusci::linalg::qr_multiply: Array shapes are not compatible for Q @ c operation: (5, 3) vs "
                       "(5, 2)",
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_multiply(f64({5, 3}), f64({2, 3})),
                       "cusci::linalg::qr_multiply: Array shapes are not compatible for c @ Q operation: (2, 3) vs "
                       "(5, 3)",
                       value_error);
  CHECK_THROWS_AS(linalg::qr_multiply(f64({6, 4}), f64({4, 2}), {.mode = qr_multiply_mode::left, .overwrite_c = true}),
                  value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_multiply(f64({2, 4, 3}), f64({3, 2, 4})), doctest::Contains("shape mismatch"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_multiply(f64({0, 4, 3}), f64({2, 4})),
                       doctest::Contains("`qr_multiply` does not support zero-size batches."), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_multiply(f64({3, 0}), f64({2, 3})), doctest::Contains("unexpected array size"),
                       value_error);
}

TEST_CASE("qr_update checks dtypes and shapes before touching the device") {
  const ndarray q = f64({5, 5}), r = f64({5, 3}), u = f64({5}), v = f64({3});
  CHECK_THROWS_WITH_AS(linalg::qr_update(f64({5}), r, u, v), doctest::Contains("Q and R must be 2-D"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(fake_array(dtype::float32, {5, 5}), r, u, v),
                       doctest::Contains("Q and R must have the same dtype"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(fake_array(dtype::int64, {5, 5}), fake_array(dtype::int64, {5, 3}),
                                         fake_array(dtype::int64, {5}), fake_array(dtype::int64, {3})),
                       doctest::Contains("Only arrays with dtypes float32, float64, complex64, and complex128"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, fake_array(dtype::complex128, {5}), v),
                       doctest::Contains("u and v must have the same type as Q and R"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, u, f64({3, 1})),
                       doctest::Contains("u and v must have the same number of dimensions"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(f64({5, 3}), r, u, v),
                       doctest::Contains("Q and R do not have compatible shapes"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, f64({4}), v), doctest::Contains("u.shape[0] must equal Q.shape[0]"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, u, f64({2})), doctest::Contains("v.shape[0] must equal R.shape[1]"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, f64({5, 2}), f64({3, 3})),
                       doctest::Contains("Second dimension of u and v must be the same"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(q, r, f64({5, 4}), f64({3, 4})),
                       doctest::Contains("Update rank larger than np.dot(Q, R)."), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_update(f64({0, 5, 5}), f64({0, 5, 3}), u, v),
                       doctest::Contains("`qr_update` does not support zero-size batches."), value_error);
  const linalg::qr_update_options o{};
  CHECK_FALSE(o.overwrite_qruv);
  CHECK(o.check_finite);
}

TEST_CASE("qr_delete checks its arguments before touching the device") {
  const ndarray q = f64({6, 6}), r = f64({6, 4});
  using linalg::qr_which;
  CHECK(linalg::parse_qr_which("col") == qr_which::col);
  CHECK_THROWS_WITH_AS(linalg::parse_qr_which("x"), doctest::Contains("'which' must be either 'row' or 'col'"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_delete(q, r, 6), doctest::Contains("'k' is out of bounds"), value_error);
  CHECK_THROWS_AS(linalg::qr_delete(q, r, -7), value_error);
  CHECK_THROWS_AS(linalg::qr_delete(q, r, 4, {.which = qr_which::col}), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_delete(q, r, 5, {.p = 2}), doctest::Contains("'p' is out of range"), value_error);
  CHECK_THROWS_AS(linalg::qr_delete(q, r, 1, {.p = 0}), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_delete(f64({6, 3}), r, 1), doctest::Contains("Q and R do not have compatible shapes"),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_delete(fake_array(dtype::complex128, {6, 6}), r, 1),
                       doctest::Contains("Q and R must have the same dtype"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_delete(f64({0, 6, 6}), r, 1),
                       doctest::Contains("`qr_delete` does not support zero-size batches."), value_error);
  const linalg::qr_delete_options o{};
  CHECK(o.p == 1);
  CHECK(o.which == qr_which::row);
  CHECK_FALSE(o.overwrite_qr);
  CHECK(o.check_finite);
}

TEST_CASE("qr_insert checks its arguments before touching the device") {
  const ndarray q = f64({6, 6}), r = f64({6, 4});
  using linalg::qr_which;
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, f64({4}), 7), doctest::Contains("'k' is out of bounds"), value_error);
  CHECK_THROWS_AS(linalg::qr_insert(q, r, f64({4}), -7), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, f64({6}), 1),
                       doctest::Contains("'u' should be either (N,) or (p,N) when inserting rows. Found (6,)."),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, f64({4}), 1, {.which = qr_which::col}),
                       doctest::Contains("'u' should be either (M,) or (M,p) when inserting columns. Found (4,)."),
                       value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, fake_array(dtype::float32, {4}), 1),
                       doctest::Contains("'u' must have the same type as 'Q' and 'R'"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, f64({4}), 1, {.rcond = 0.5}),
                       doctest::Contains("'rcond' is unused when inserting rows and must be None"), value_error);
  CHECK_THROWS_WITH_AS(linalg::qr_insert(q, r, f64({6}), 1, {.which = qr_which::col, .rcond = 0.5}),
                       doctest::Contains("'rcond' is not used when updating full"), value_error);
  CHECK_THROWS_AS(linalg::qr_insert(q, r, f64({0, 4}), 1), value_error);
  const linalg::qr_insert_options o{};
  CHECK(o.which == qr_which::row);
  CHECK_FALSE(o.rcond.has_value());
  CHECK_FALSE(o.overwrite_qru);
  CHECK(o.check_finite);
}
