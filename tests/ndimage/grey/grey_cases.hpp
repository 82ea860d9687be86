#pragma once
// Shared by the grey morphology tests: the cases of tests/golden/gen_ndimage_grey.py run through the
// public API, with the case parameters of ../ndimage_cases.hpp (size, footprint, mode, cval, origin,
// axes, output, output_array, layout) plus `structure` (array name) and the layout "bcast" (the
// stored array's first row broadcast to its shape: a zero stride).

#include <string>

#include "../ndimage_cases.hpp"
#include "cusci/ndimage/grey_morphology.hpp"

namespace grey_test {

namespace nd = cusci::ndimage;
using cusci::testing::golden_case;
using ndimage_test::out_array;
using ndimage_test::output_array_of;
using ndimage_test::size_of;

inline nd::grey_morphology_options options_of(const golden_case& c, const out_array& arr) {
  auto o = ndimage_test::footprint_options_of<nd::grey_morphology_options>(c, arr);
  if (c.has("structure")) o.structure = c.array("structure");
  return o;
}

/// The case's input on the device in its layout (C, F, step2, rev, bcast).
inline cusci::ndarray input_of(const golden_case& c) {
  const cusci::ndarray a = cusci::asarray(c.array("input"));
  const std::string layout = c.get<std::string>("layout");
  if (layout == "bcast") {
    const cusci::ndarray row = a[{cusci::slice{0, 1}}];
    const cusci::ndarray b = row.broadcast_to(a.shape());
    REQUIRE(b.strides()[0] == 0);
    return b;
  }
  return ndimage_test::with_layout(a, layout);
}

/// Calls the case's function on `x` with the output array `arr` (or none).
inline cusci::ndarray call(const golden_case& c, const cusci::ndarray& x, const out_array& arr) {
  const auto o = options_of(c, arr);
  const auto size = size_of(c);
  const std::string f = c.func();
  if (f == "grey_erosion") return nd::grey_erosion(x, size, o);
  if (f == "grey_dilation") return nd::grey_dilation(x, size, o);
  if (f == "grey_opening") return nd::grey_opening(x, size, o);
  if (f == "grey_closing") return nd::grey_closing(x, size, o);
  if (f == "morphological_gradient") return nd::morphological_gradient(x, size, o);
  if (f == "morphological_laplace") return nd::morphological_laplace(x, size, o);
  if (f == "white_tophat") return nd::white_tophat(x, size, o);
  REQUIRE(f == "black_tophat");
  return nd::black_tophat(x, size, o);
}

/// Checks that error case `c` throws the exception it names, with SciPy's text where it gives one
/// and a message that names the function. `fake`: `x` has no memory (the host test).
inline void check_throws(const golden_case& c, const cusci::ndarray& x, bool fake = false) {
  ndimage_test::check_throws_with(c, [&] { (void)call(c, x, output_array_of(c, x, fake)); }, /*names_function=*/true);
}

inline const char* const funcs[] = {"grey_erosion",           "grey_dilation",         "grey_opening",
                                    "grey_closing",           "morphological_gradient", "morphological_laplace",
                                    "white_tophat",           "black_tophat"};

}  // namespace grey_test
