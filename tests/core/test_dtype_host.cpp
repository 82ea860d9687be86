// dtype names and parsing, NumPy 2's promotion (goldens from numpy), scalars, and error messages.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/libraries.hpp"
#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/scalar.hpp"
#include "testing.hpp"

using namespace cusci;

namespace {
const dtype all_dtypes[] = {
#define CUSCI_X_(name, type) dtype::name,
    CUSCI_FOR_EACH_DTYPE(CUSCI_X_)
#undef CUSCI_X_
};
}  // namespace

TEST_CASE("dtype names, itemsize and array-protocol strings round trip") {
  CHECK(sizeof(all_dtypes) / sizeof(all_dtypes[0]) == n_dtypes);
  for (dtype t : all_dtypes) {
    CHECK(dtype_from_string(dtype_name(t)) == t);
    CHECK(dtype_from_string(dtype_descr(t)) == t);
  }
  CHECK(itemsize(dtype::complex128) == 16);
  CHECK(itemsize(dtype::bool_) == 1);
  CHECK(dtype_descr(dtype::float32) == "<f4");
  CHECK(dtype_descr(dtype::bool_) == "|b1");
  CHECK(dtype_from_string("f8") == dtype::float64);
  CHECK(dtype_from_string("?") == dtype::bool_);
  CHECK_THROWS_AS(dtype_from_string(">f8"), type_error);
  CHECK(dtype_from_string("float16") == dtype::float16);
  CHECK(dtype_from_string("f2") == dtype::float16);
  CHECK(dtype_from_string("<f2") == dtype::float16);
  CHECK(dtype_from_string("e") == dtype::float16);
  CHECK(dtype_from_string("half") == dtype::float16);
  CHECK(dtype_descr(dtype::float16) == "<f2");
  CHECK(itemsize(dtype::float16) == 2);
  CHECK(is_floating(dtype::float16));
  CHECK(is_inexact(dtype::float16));
  CHECK(!is_integer(dtype::float16));
  CHECK_THROWS_AS(dtype_from_string(">f2"), type_error);
  CHECK_THROWS_AS(dtype_from_string("object"), type_error);
}

TEST_CASE("dtype_from_string reads what np.dtype reads, for the dtypes of cusci's list") {
  // Case dtype_strings of core_dtype (tests/golden/gen_core_dtype.py): each string with NumPy 2.5's
  // np.dtype(s).name, or null where NumPy raises. cusci: the same dtype where NumPy's is in its list
  // (big-endian only for single bytes), type_error otherwise.
  const auto cs = testing::cases("core_dtype", "dtype_from_string");
  REQUIRE(cs.size() == 1);
  const auto strings = cs[0].get<std::vector<std::string>>("strings");
  const auto names = cs[0].get<std::vector<std::optional<std::string>>>("numpy");
  REQUIRE(strings.size() == names.size());
  int accepted = 0, rejected = 0;
  for (std::size_t k = 0; k < strings.size(); ++k) {
    const std::string& s = strings[k];
    const std::string np_name = names[k].value_or("ERROR");
    INFO("np.dtype('" << s << "') is " << np_name);
    bool known = false;
    dtype want = dtype::bool_;
    for (dtype t : all_dtypes)
      if (dtype_name(t) == np_name) {
        known = true;
        want = t;
      }
    const bool big_multi = !s.empty() && s[0] == '>' && known && itemsize(want) > 1;
    if (known && !big_multi) {
      CHECK(dtype_from_string(s) == want);
      ++accepted;
    } else {
      CHECK_THROWS_AS(dtype_from_string(s), type_error);
      ++rejected;
    }
  }
  CHECK(accepted == 74);
  CHECK(rejected == 25);
}

TEST_CASE("promote_types matches np.promote_types for every pair") {
  host_array table = testing::golden("core_elementwise", "promote_types");
  REQUIRE(table.shape() == shape_t{n_dtypes, n_dtypes});
  const auto* t = table.data_as<std::int32_t>();
  int checked = 0;
  for (int i = 0; i < n_dtypes; ++i)
    for (int j = 0; j < n_dtypes; ++j) {
      INFO(dtype_name(all_dtypes[i]) << " with " << dtype_name(all_dtypes[j]));
      CHECK(promote_types(all_dtypes[i], all_dtypes[j]) == all_dtypes[t[i * n_dtypes + j]]);
      ++checked;
    }
  CHECK(checked == n_dtypes * n_dtypes);
}

TEST_CASE("weak Python-like scalars promote as NEP 50") {
  host_array table = testing::golden("core_elementwise", "weak_scalar");
  REQUIRE(table.shape() == shape_t{n_dtypes, 4});
  const auto* t = table.data_as<std::int32_t>();
  const scalar scalars[] = {scalar(true), scalar(1), scalar(1.0), scalar(std::complex<double>(0, 1))};
  for (int i = 0; i < n_dtypes; ++i)
    for (int j = 0; j < 4; ++j) {
      INFO(dtype_name(all_dtypes[i]) << " with scalar kind " << j);
      CHECK(promote_with_scalar(all_dtypes[i], scalars[j]) == all_dtypes[t[i * 4 + j]]);
    }
}

TEST_CASE("strong scalars promote like arrays and convert like NumPy scalars") {
  scalar s = scalar::of(300.0, dtype::uint8);
  CHECK(!s.is_weak());
  CHECK(s.value<int>() == 44);  // 300 wraps modulo 256
  CHECK(promote_with_scalar(dtype::float32, scalar::of(1.0, dtype::float64)) == dtype::float64);
  CHECK(promote_with_scalar(dtype::int8, scalar::of(1.0, dtype::int16)) == dtype::int16);
  scalar f = scalar::of(1.1, dtype::float32);
  CHECK(f.value<double>() == static_cast<double>(1.1f));
  scalar c = scalar::of({1.5, -2.0}, dtype::complex64);
  CHECK(c.value<std::complex<double>>() == std::complex<double>(1.5, -2.0));
  CHECK(scalar(7).value<double>() == 7.0);
  CHECK(scalar(2.5).value<int>() == 2);
  CHECK(scalar(true).dtype() == dtype::bool_);
  CHECK(scalar(3u).dtype() == dtype::uint64);
}

TEST_CASE("float16 rounds float64 and float32 values as NumPy's astype(float16)") {
  for (const char* src : {"f16_from_f64", "f16_from_f32"}) {
    INFO(src);
    host_array in = testing::golden("core_elementwise", std::string(src) + "_in");
    host_array out = testing::golden("core_elementwise", std::string(src) + "_out");
    REQUIRE(in.size() == out.size());
    REQUIRE(in.size() > 50);
    const auto* bits = out.data_as<std::uint16_t>();
    host_array cast = in.astype(dtype::float16);
    const auto* c = cast.data_as<float16>();
    for (std::int64_t i = 0; i < in.size(); ++i) {
      const double x = in.dtype() == dtype::float64 ? in.data_as<double>()[i] : in.data_as<float>()[i];
      INFO("value " << x);
      const float16 h(x);
      const bool nan = (bits[i] & 0x7c00u) == 0x7c00u && (bits[i] & 0x3ffu) != 0;
      if (nan) {
        CHECK(h != h);
        CHECK(c[i] != c[i]);
      } else {
        CHECK(h.bits == bits[i]);
        CHECK(c[i].bits == bits[i]);
      }
    }
  }
  // Every float16 value converts exactly to float32 (NaNs stay NaN with their sign).
  host_array all = testing::golden("core_elementwise", "f16_all_as_f32");
  REQUIRE(all.size() == 65536);
  const auto* f = all.data_as<float>();
  int mismatches = 0;
  for (int b = 0; b < 65536; ++b) {
    const float v = float16::from_bits(static_cast<std::uint16_t>(b));
    if (std::isnan(f[b]) ? !std::isnan(v) : std::memcmp(&v, &f[b], 4) != 0) ++mismatches;
    // Round trip: float -> float16 gives the same bits back for every non-NaN value.
    if (!std::isnan(f[b]) && float16(f[b]).bits != b) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("float16 scalars: strong scalars round once, value<float16> rounds like astype") {
  host_array in = testing::golden("core_elementwise", "f16_from_f64_in");
  host_array out = testing::golden("core_elementwise", "f16_from_f64_out");
  const auto* bits = out.data_as<std::uint16_t>();
  for (std::int64_t i = 0; i < in.size(); ++i) {
    const double x = in.data_as<double>()[i];
    if (std::isnan(x)) continue;
    INFO("value " << x);
    CHECK(scalar(x).value<float16>().bits == bits[i]);
    const scalar s = scalar::of(x, dtype::float16);
    CHECK(s.dtype() == dtype::float16);
    CHECK(!s.is_weak());
    CHECK(s.value<float16>().bits == bits[i]);
    CHECK(s.value<double>() == static_cast<double>(static_cast<float>(float16::from_bits(bits[i]))));
  }
  CHECK(promote_with_scalar(dtype::int8, scalar::of(1.0, dtype::float16)) == dtype::float16);
  CHECK(promote_with_scalar(dtype::int16, scalar::of(1.0, dtype::float16)) == dtype::float32);
}

TEST_CASE("CUDA error messages name the call, the status and the place") {
  try {
    CUSCI_CUDA_TRY(cudaErrorInvalidValue);
    FAIL("no exception");
  } catch (const cuda_error& e) {
    const std::string m = e.what();
    CHECK(m.find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(m.find("test_dtype_host.cpp") != std::string::npos);
    CHECK(e.status() == 1);
  }
  CHECK_THROWS_AS(CUSCI_CUDA_TRY(cudaErrorMemoryAllocation), out_of_memory);
  CHECK_THROWS_AS(CUSCI_CUBLAS_TRY(CUBLAS_STATUS_NOT_INITIALIZED), cublas_error);
  CHECK_THROWS_AS(CUSCI_CUSPARSE_TRY(CUSPARSE_STATUS_INVALID_VALUE), cusparse_error);
  CHECK_THROWS_AS(CUSCI_CUSOLVER_TRY(CUSOLVER_STATUS_INVALID_VALUE), cusolver_error);
  CHECK_THROWS_AS(CUSCI_CUFFT_TRY(CUFFT_INVALID_PLAN), cufft_error);
  CHECK_THROWS_WITH_AS(CUSCI_EXPECTS(false, value_error, "f: x must be > 0, got -1"), "f: x must be > 0, got -1",
                       value_error);
}
