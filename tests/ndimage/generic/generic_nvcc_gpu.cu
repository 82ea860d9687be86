// GPU tests of the nvcc functor form of generic_filter, generic_filter1d and vectorized_filter
// (cusci/ndimage/nvcc/generic_filters.cuh) against SciPy 1.18.1 (tests/golden/gen_ndimage_generic.py):
// the same cases as generic_gpu.cpp, the functions as device functors (generic_functors.cuh), plus a
// __device__ lambda with a captured constant and the element-type check of vectorized_filter.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/nvcc/generic_filters.cuh"
#include "cusci/stream.hpp"
#include "generic_cases.hpp"
#include "generic_functors.cuh"

namespace {

namespace nd = cusci::ndimage;
using namespace generic_test;

/// vectorized_filter<T> (vmax) for the input's element type T.
template <class F>
cusci::ndarray vectorized_typed(const cusci::ndarray& x, F f, const nd::vectorized_filter_options& o) {
  switch (x.dtype()) {
#define CUSCI_TEST_CASE_(dt, T) \
  case cusci::dtype::dt: return nd::vectorized_filter<T>(x, f, o);
    CUSCI_TEST_CASE_(bool_, bool)
    CUSCI_TEST_CASE_(int8, std::int8_t)
    CUSCI_TEST_CASE_(int16, std::int16_t)
    CUSCI_TEST_CASE_(int32, std::int32_t)
    CUSCI_TEST_CASE_(int64, std::int64_t)
    CUSCI_TEST_CASE_(uint8, std::uint8_t)
    CUSCI_TEST_CASE_(uint16, std::uint16_t)
    CUSCI_TEST_CASE_(uint32, std::uint32_t)
    CUSCI_TEST_CASE_(uint64, std::uint64_t)
    CUSCI_TEST_CASE_(float16, __half)
    CUSCI_TEST_CASE_(float32, float)
    CUSCI_TEST_CASE_(float64, double)
#undef CUSCI_TEST_CASE_
    default: break;
  }
  FAIL("no functor instantiation for dtype " << cusci::dtype_name(x.dtype()));
  return x;
}

/// vectorized_filter<T, double> (vmean: results stored as float64) for the dtypes of the cases.
cusci::ndarray vmean_typed(const cusci::ndarray& x, const nd::vectorized_filter_options& o) {
  switch (x.dtype()) {
    case cusci::dtype::int16: return nd::vectorized_filter<std::int16_t, double>(x, vmean_fn{}, o);
    case cusci::dtype::uint8: return nd::vectorized_filter<std::uint8_t, double>(x, vmean_fn{}, o);
    case cusci::dtype::float32: return nd::vectorized_filter<float, double>(x, vmean_fn{}, o);
    case cusci::dtype::float64: return nd::vectorized_filter<double, double>(x, vmean_fn{}, o);
    default: break;
  }
  FAIL("vmean: no instantiation for dtype " << cusci::dtype_name(x.dtype()));
  return x;
}

/// Sums over complex windows (the complex cases use vsum only).
cusci::ndarray vsum_any(const cusci::ndarray& x, const nd::vectorized_filter_options& o) {
  if (x.dtype() == cusci::dtype::complex64) return nd::vectorized_filter<cuda::std::complex<float>>(x, vsum_fn{}, o);
  if (x.dtype() == cusci::dtype::complex128) return nd::vectorized_filter<cuda::std::complex<double>>(x, vsum_fn{}, o);
  switch (x.dtype()) {
    case cusci::dtype::uint8: return nd::vectorized_filter<std::uint8_t>(x, vsum_fn{}, o);
    case cusci::dtype::int32: return nd::vectorized_filter<std::int32_t>(x, vsum_fn{}, o);
    case cusci::dtype::float32: return nd::vectorized_filter<float>(x, vsum_fn{}, o);
    case cusci::dtype::float64: return nd::vectorized_filter<double>(x, vsum_fn{}, o);
    default: break;
  }
  FAIL("vsum: no instantiation for dtype " << cusci::dtype_name(x.dtype()));
  return x;
}

struct nvcc_form {
  static cusci::ndarray gf(const cusci::ndarray& x, const std::string& fn, const nd::per_axis<std::int64_t>& size,
                           const nd::generic_filter_options& o) {
    if (fn == "range") return nd::generic_filter(x, range_fn{}, size, o);
    if (fn == "wsum") return nd::generic_filter(x, wsum_fn{}, size, o);
    if (fn == "median") return nd::generic_filter(x, median_fn{}, size, o);
    REQUIRE(fn == "count");
    return nd::generic_filter(x, count_fn{0.5}, size, o);
  }
  static cusci::ndarray g1(const cusci::ndarray& x, const std::string& fn, std::int64_t fs, int axis,
                           const nd::generic_filter1d_options& o) {
    if (fn == "mean1d") return nd::generic_filter1d(x, mean1d_fn{}, fs, axis, o);
    if (fn == "range1d") return nd::generic_filter1d(x, range1d_fn{}, fs, axis, o);
    REQUIRE(fn == "diff1d");
    return nd::generic_filter1d(x, diff1d_fn{}, fs, axis, o);
  }
  static cusci::ndarray vf(const cusci::ndarray& x, const std::string& fn, const nd::vectorized_filter_options& o) {
    if (fn == "vmax") return vectorized_typed(x, vmax_fn{}, o);
    if (fn == "vmean") return vmean_typed(x, o);
    REQUIRE(fn == "vsum");
    return vsum_any(x, o);
  }
};

}  // namespace

TEST_CASE("generic_filter (nvcc): functions in every mode, dtypes, outputs, footprints, origins, axes, layouts") {
  CHECK(run_cases<nvcc_form>("generic_filter", "gf_") >= 100);
}
TEST_CASE("generic_filter1d (nvcc): modes, filter sizes and origins, axes, dtypes, outputs, layouts") {
  CHECK(run_cases<nvcc_form>("generic_filter1d", "g1_") >= 50);
}
TEST_CASE("vectorized_filter (nvcc): modes incl. valid, every dtype, footprints, origins, axes, outputs") {
  CHECK(run_cases<nvcc_form>("vectorized_filter", "vf_") >= 81);
}
TEST_CASE("generic filters (nvcc): errors with SciPy's kinds and texts") {
  CHECK(run_cases<nvcc_form>("generic_filter", "err_") >= 15);
  CHECK(run_cases<nvcc_form>("generic_filter1d", "err_") >= 8);
  CHECK(run_cases<nvcc_form>("vectorized_filter", "err_") >= 18);
}

TEST_CASE("generic_filter (nvcc): a __device__ lambda with a captured constant equals the functor") {
  const auto x = cusci::asarray(cusci::host_array::from(std::vector<double>{0.1, 0.7, 0.9, 0.2, 0.6, 0.3}));
  const double threshold = 0.5;
  const auto a = nd::generic_filter(
      x,
      [threshold] __device__(const double* b, std::ptrdiff_t n) {
        double c = 0.0;
        for (std::ptrdiff_t k = 0; k < n; ++k) c += b[k] > threshold ? 1.0 : 0.0;
        return c;
      },
      3, {.mode = nd::mode::wrap});
  const auto b = nd::generic_filter(x, count_fn{0.5}, 3, {.mode = nd::mode::wrap});
  const auto ha = a.get(), hb = b.get();
  // SciPy: generic_filter(x, lambda b: np.count_nonzero(b > 0.5), 3, mode="wrap") = [1, 2, 2, 2, 1, 1].
  const double expected[] = {1, 2, 2, 2, 1, 1};
  for (int i = 0; i < 6; ++i) {
    CHECK(ha.data_as<double>()[i] == expected[i]);
    CHECK(hb.data_as<double>()[i] == expected[i]);
  }
}

TEST_CASE("vectorized_filter (nvcc): the functor's element type must be the input's") {
  const auto x = cusci::testing::fake_array(cusci::dtype::float32, {4, 5});
  CHECK_THROWS_AS(nd::vectorized_filter<double>(x, vmax_fn{}, {.size = 3}), cusci::type_error);
}
