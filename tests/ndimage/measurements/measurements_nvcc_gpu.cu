// GPU tests of labeled_comprehension's functor form (nvcc/measurements.cuh): the
// labeled_comprehension cases of tests/golden/gen_ndimage_measurements.py with device functors equal
// to the CUDA functions of the run-time-compiled test (measurements_cases.hpp), and its own checks.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cusci/ndimage/nvcc/measurements.cuh"
#include "measurements_cases.hpp"

namespace {

namespace nd = cusci::ndimage;

struct f_sum {
  template <class T> __device__ double operator()(const T* v, std::ptrdiff_t n) const {
    double t = 0;
    for (std::ptrdiff_t i = 0; i < n; ++i) t += static_cast<double>(v[i]);
    return t;
  }
};
struct f_count {
  template <class T> __device__ double operator()(const T*, std::ptrdiff_t n) const { return static_cast<double>(n); }
};
struct f_max {
  template <class T> __device__ double operator()(const T* v, std::ptrdiff_t n) const {
    double m = static_cast<double>(v[0]);
    for (std::ptrdiff_t i = 1; i < n; ++i) m = static_cast<double>(v[i]) > m ? static_cast<double>(v[i]) : m;
    return m;
  }
};
struct f_range {
  template <class T> __device__ double operator()(const T* v, std::ptrdiff_t n) const {
    double lo = static_cast<double>(v[0]), hi = lo;
    for (std::ptrdiff_t i = 1; i < n; ++i) {
      const double x = static_cast<double>(v[i]);
      lo = x < lo ? x : lo;
      hi = x > hi ? x : hi;
    }
    return hi - lo;
  }
};
struct f_possum {
  template <class T> __device__ double operator()(const T*, const long long* p, std::ptrdiff_t n) const {
    double t = 0;
    for (std::ptrdiff_t i = 0; i < n; ++i) t += static_cast<double>(p[i]);
    return t;
  }
};
struct f_weighted {
  template <class T> __device__ double operator()(const T* v, const long long* p, std::ptrdiff_t n) const {
    double t = 0;
    for (std::ptrdiff_t i = 0; i < n; ++i) t += static_cast<double>(v[i]) * static_cast<double>(p[i]);
    return t;
  }
};

template <class T>
cusci::ndarray call_typed(const cusci::testing::golden_case& c, const cusci::ndarray& x,
                          const std::optional<cusci::ndarray>& labels, const nd::label_index& index) {
  const std::string fn = c.get<std::string>("function");
  const auto o = measure_test::comprehension_options(c);
  if (fn == "sum") return nd::labeled_comprehension<T>(x, labels, index, f_sum{}, o);
  if (fn == "count") return nd::labeled_comprehension<T>(x, labels, index, f_count{}, o);
  if (fn == "max") return nd::labeled_comprehension<T>(x, labels, index, f_max{}, o);
  if (fn == "range") return nd::labeled_comprehension<T>(x, labels, index, f_range{}, o);
  if (fn == "possum") return nd::labeled_comprehension<T, true>(x, labels, index, f_possum{}, o);
  if (fn == "weighted") return nd::labeled_comprehension<T, true>(x, labels, index, f_weighted{}, o);
  FAIL("unknown function " << fn);
  return {};
}

cusci::ndarray call(const cusci::testing::golden_case& c) {
  const cusci::ndarray x = measure_test::input_of(c, false);
  const auto labels = measure_test::labels_of(c, false);
  const nd::label_index index = measure_test::index_of(c, false);
  switch (x.dtype()) {
    case cusci::dtype::bool_: return call_typed<bool>(c, x, labels, index);
    case cusci::dtype::int8: return call_typed<std::int8_t>(c, x, labels, index);
    case cusci::dtype::int16: return call_typed<std::int16_t>(c, x, labels, index);
    case cusci::dtype::uint16: return call_typed<std::uint16_t>(c, x, labels, index);
    case cusci::dtype::int32: return call_typed<std::int32_t>(c, x, labels, index);
    case cusci::dtype::float32: return call_typed<float>(c, x, labels, index);
    case cusci::dtype::float64: return call_typed<double>(c, x, labels, index);
    default: FAIL("dtype not covered by the functor test: " << cusci::dtype_name(x.dtype())); return {};
  }
}

}  // namespace

TEST_CASE("labeled_comprehension (nvcc functor): SciPy's results and errors") {
  int n = 0;
  for (const auto& c : cusci::testing::cases(measure_test::kModule, "labeled_comprehension")) {
    INFO("case " << c.name());
    if (c.expects_error()) {
      ndimage_test::check_throws_with(c, [&] { (void)call(c); }, /*names_function=*/true);
    } else {
      cusci::testing::check_allclose(call(c), c.array("expected"), c.rtol(), c.atol());
    }
    ++n;
  }
  CHECK(n >= 30);
}

TEST_CASE("labeled_comprehension (nvcc functor): a functor of another element type, or positions not matching") {
  const auto& all = cusci::testing::cases(measure_test::kModule, "labeled_comprehension");
  REQUIRE(!all.empty());
  const cusci::ndarray x = cusci::zeros({4, 5}, cusci::dtype::float64);
  CHECK_THROWS_AS(nd::labeled_comprehension<float>(x, std::nullopt, {}, f_sum{}), cusci::type_error);
  nd::labeled_comprehension_options o;
  o.pass_positions = true;
  CHECK_THROWS_AS(nd::labeled_comprehension<double>(x, std::nullopt, {}, f_sum{}, o), cusci::value_error);
  const auto lam = [] __device__(const double* v, std::ptrdiff_t n) { return n > 0 ? v[0] + 1.0 : 0.0; };
  const cusci::ndarray r = nd::labeled_comprehension<double>(x, std::nullopt, {}, lam);
  CHECK(r.item<double>() == 1.0);
}
