#pragma once
// The case runner of the geometric_transform tests, shared by both forms (geometric_gpu.cpp: the
// NVRTC-compiled device_function; geometric_nvcc_gpu.cu: device functors): the cases of
// tests/golden/gen_ndimage_geometric.py with their layouts, output kinds (a dtype, a C or F output
// array, the input itself) and errors, and the outputs of several chunks. `transform(mapping_name,
// input, opts)` calls the form under test with the mapping of that name
// (geometric_mappings.inc).

#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "../ndimage_layouts.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/reduction.hpp"
#include "golden.hpp"
#include "testing.hpp"

namespace geometric_test {

namespace ndi = cusci::ndimage;
using cusci::testing::golden_case;

inline const char* const kModule = "ndimage_geometric";

/// The rotation's cosine and sine (cos / sin of 30 degrees as Python computes them), as NVRTC
/// options; the nvcc test #defines the same literals.
inline const std::vector<std::string> kRotationOptions{"-DGT_ROT_C=0.8660254037844387",
                                                       "-DGT_ROT_S=0.49999999999999994"};

inline ndi::geometric_transform_options options_of(const golden_case& c) {
  ndi::geometric_transform_options o;
  o.order = c.get_or<int>("order", 3);
  o.mode = ndi::parse_mode(c.get_or<std::string>("mode", "constant"));
  o.cval = c.get_or<std::complex<double>>("cval", 0.0);
  o.prefilter = c.get_or<bool>("prefilter", true);
  if (c.has("output_shape")) o.output_shape = c.get<std::vector<std::int64_t>>("output_shape");
  return o;
}

/// Runs every case of the module; returns the number run.
template <class Transform>
int run_cases(Transform&& transform) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(kModule, "geometric_transform")) {
    INFO("case " << c.name());
    const auto x = ndimage_test::with_layout(cusci::asarray(c.array("input")), c.get<std::string>("layout"));
    const std::string mapping = c.get<std::string>("mapping");
    const std::string kind = c.get_or<std::string>("out_kind", "");
    auto o = options_of(c);
    const cusci::dtype odt = c.has("output") ? cusci::dtype_from_string(c.get<std::string>("output")) : x.dtype();
    cusci::ndarray out;
    if (kind == "array_C" || kind == "array_F") {
      const cusci::shape_t shape = c.has("out_array_shape") ? c.get<std::vector<std::int64_t>>("out_array_shape")
                                   : o.output_shape                 ? *o.output_shape
                                                                    : x.shape();
      out = cusci::zeros(shape, odt, kind == "array_F" ? cusci::order::F : cusci::order::C);
      o.output = out;
    } else if (kind == "inplace") {
      out = x.copy();
      o.output = out;
    } else if (c.has("output")) {
      o.output = odt;
    }
    if (c.expects_error()) {
      cusci::testing::check_error(c, [&] { return transform(mapping, x, o); });
      try {
        (void)transform(mapping, x, o);
      } catch (const cusci::error& e) {
        CHECK(std::string(e.what()).find("cusci::ndimage::geometric_transform") != std::string::npos);
      }
    } else {
      const cusci::ndarray y = transform(mapping, x, o);
      if (kind.empty()) CHECK(y.is_c_contiguous());
      else CHECK(y.data() == out.data());
      cusci::testing::check_allclose(y, c.array("expected"), c.rtol(), c.atol());
    }
    ++n;
  }
  return n;
}

/// The outputs of several chunks: the input arange(size) % 251 (uint8), the mapping int_shift with
/// order 1; the references are SciPy's sum and the rows around the chunk boundaries.
template <class Transform>
int run_chunk_cases(Transform&& transform) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(kModule, "geometric_transform_chunks")) {
    INFO("case " << c.name());
    const cusci::shape_t shape = c.get<std::vector<std::int64_t>>("shape");
    std::int64_t size = 1;
    for (auto e : shape) size *= e;
    std::vector<std::uint8_t> h(static_cast<std::size_t>(size));
    for (std::int64_t i = 0; i < size; ++i) h[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i % 251);
    const auto x = cusci::asarray(h, shape);
    ndi::geometric_transform_options o;
    o.order = c.get<int>("order");
    const cusci::ndarray y = transform(c.get<std::string>("mapping"), x, o);
    REQUIRE(y.shape() == shape);
    CHECK(cusci::sum(y.astype(cusci::dtype::int64)).item<std::int64_t>() == c.get<std::int64_t>("total"));
    const auto expected = c.array("expected");
    const auto rows = c.get<std::vector<std::vector<std::int64_t>>>("rows");
    std::vector<cusci::ndarray> picked;
    for (const auto& r : rows) {
      std::vector<cusci::index_spec> idx(r.begin(), r.end());
      picked.push_back(y[idx].expand_dims(0));
    }
    cusci::testing::check_allclose(cusci::concatenate(picked, 0), expected, 0.0, 0.0);
    ++n;
  }
  return n;
}

}  // namespace geometric_test
