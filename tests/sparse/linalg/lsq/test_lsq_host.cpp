// Host tests of cusci::sparse::linalg's lsqr and lsmr (no GPU): SciPy's option defaults, and every
// argument check, which throws before any device work: SciPy's errors from the reference cases
// (tests/golden/gen_sparse_linalg_lsq.py) and the other checks, on array headers over no memory and
// an operator given by functions that must never be called.

#include <doctest/doctest.h>

#include <string>

#include "lsq_test_util.hpp"

using namespace cusci;
using namespace cusci::lsq_test;

namespace {

// An operator of shape (m, n) whose products fail the test if called (the checks must come first).
la::linear_operator never_called(sparse::shape2 shape, bool with_rmatvec = true) {
  auto fail = [](const ndarray& x) -> ndarray {
    FAIL("a product was called before the argument checks");
    return x;
  };
  return with_rmatvec ? la::linear_operator(shape, dtype::float64, fail, fail)
                      : la::linear_operator(shape, dtype::float64, fail);
}

ndarray fake_like(const host_array& h) { return testing::fake_array(h.dtype(), h.shape()); }

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const cusci::error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("the options have SciPy's defaults") {
  const la::lsqr_options q;
  CHECK(q.damp == 0.0);
  CHECK(q.atol == 1e-6);
  CHECK(q.btol == 1e-6);
  CHECK(q.conlim == 1e8);
  CHECK_FALSE(q.iter_lim.has_value());
  CHECK_FALSE(q.show);
  CHECK_FALSE(q.calc_var);
  CHECK_FALSE(q.x0.has_value());
  const la::lsmr_options r;
  CHECK(r.damp == 0.0);
  CHECK(r.atol == 1e-6);
  CHECK(r.btol == 1e-6);
  CHECK(r.conlim == 1e8);
  CHECK_FALSE(r.maxiter.has_value());
  CHECK_FALSE(r.show);
  CHECK_FALSE(r.x0.has_value());
  // SciPy's keyword order (designated initializers must follow the declaration order).
  const la::lsqr_options q2{.damp = 1, .atol = 2, .btol = 3, .conlim = 4, .iter_lim = 5, .show = true,
                            .calc_var = true, .x0 = std::nullopt};
  CHECK(q2.iter_lim == 5);
  const la::lsmr_options r2{.damp = 1, .atol = 2, .btol = 3, .conlim = 4, .maxiter = 5, .show = true,
                            .x0 = std::nullopt};
  CHECK(r2.maxiter == 5);
  const la::lsqr_result a;
  const la::lsmr_result b;
  CHECK(a.istop == 0);
  CHECK(b.itn == 0);
}

TEST_CASE("SciPy's errors are raised before any device work") {
  int n = 0;
  for (const std::string func : {"lsqr", "lsmr"}) {
    for (const auto& c : cases_of(func)) {
      if (!c.expects_error()) continue;
      CAPTURE(c.name());
      // An operator given by functions is real (float32/float64); the complex-A case runs in the gpu test.
      if (c.get<std::string>("a_dtype").rfind("complex", 0) == 0) continue;
      const la::linear_operator A = never_called(shape_of(c));
      const ndarray b = fake_like(c.array("b"));
      std::optional<ndarray> x0;
      if (c.has("x0")) x0 = fake_like(c.array("x0"));
      if (func == "lsqr") {
        la::lsqr_options o;
        o.x0 = x0;
        testing::check_error(c, [&] { (void)la::lsqr(A, b, o); });
      } else {
        la::lsmr_options o;
        o.x0 = x0;
        testing::check_error(c, [&] { (void)la::lsmr(A, b, o); });
      }
      ++n;
    }
  }
  CHECK(n >= 6);
}

TEST_CASE("bad shapes of b and x0 are value errors naming the function and the parameter") {
  const la::linear_operator A = never_called({6, 4});
  for (const shape_t& bad : {shape_t{5}, shape_t{7}, shape_t{6, 2}, shape_t{1, 6}, shape_t{6, 1, 1}, shape_t{}}) {
    CAPTURE(bad.size());
    const ndarray b = testing::fake_array(dtype::float64, bad);
    CHECK_THROWS_AS((void)la::lsqr(A, b), value_error);
    CHECK_THROWS_AS((void)la::lsmr(A, b), value_error);
  }
  const std::string m = message_of([&] { (void)la::lsqr(A, testing::fake_array(dtype::float64, {5})); });
  CHECK(m.find("cusci::sparse::linalg::lsqr") != std::string::npos);
  CHECK(m.find("b (5,)") != std::string::npos);
  CHECK(m.find("(6, 4)") != std::string::npos);
  const ndarray b = testing::fake_array(dtype::float64, {6, 1});
  for (const shape_t& bad : {shape_t{3}, shape_t{6}, shape_t{4, 2}, shape_t{2, 4}}) {
    la::lsqr_options o;
    o.x0 = testing::fake_array(dtype::float64, bad);
    CHECK_THROWS_AS((void)la::lsqr(A, b, o), value_error);
    la::lsmr_options p;
    p.x0 = testing::fake_array(dtype::float64, bad);
    CHECK_THROWS_AS((void)la::lsmr(A, b, p), value_error);
  }
  la::lsmr_options p;
  p.x0 = testing::fake_array(dtype::float64, {3});
  const std::string m2 = message_of([&] { (void)la::lsmr(A, b, p); });
  CHECK(m2.find("cusci::sparse::linalg::lsmr") != std::string::npos);
  CHECK(m2.find("x0") != std::string::npos);
}

TEST_CASE("an operator without rmatvec is not_implemented_error, as SciPy's") {
  const la::linear_operator A = never_called({6, 4}, false);
  const ndarray b = testing::fake_array(dtype::float64, {6});
  CHECK_THROWS_AS((void)la::lsqr(A, b), not_implemented_error);
  CHECK_THROWS_AS((void)la::lsmr(A, b), not_implemented_error);
  CHECK(message_of([&] { (void)la::lsqr(A, b); }).find("rmatvec") != std::string::npos);
}

TEST_CASE("lsmr: x0 dtypes SciPy cannot update in place are type errors") {
  const la::linear_operator A = never_called({6, 4});
  const ndarray b = testing::fake_array(dtype::float64, {6});
  const ndarray bc = testing::fake_array(dtype::complex128, {6});
  for (const dtype t : {dtype::int64, dtype::int32, dtype::uint8, dtype::bool_}) {
    la::lsmr_options o;
    o.x0 = testing::fake_array(t, {4});
    CHECK_THROWS_AS((void)la::lsmr(A, b, o), type_error);
  }
  for (const dtype t : {dtype::float32, dtype::float64}) {  // real x0, complex problem
    la::lsmr_options o;
    o.x0 = testing::fake_array(t, {4});
    CHECK_THROWS_AS((void)la::lsmr(A, bc, o), type_error);
    CHECK(message_of([&] { (void)la::lsmr(A, bc, o); }).find("x0") != std::string::npos);
  }
}
