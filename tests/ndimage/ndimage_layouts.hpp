#pragma once
// Shared by the ndimage tests: the input layouts of the reference generators (`layout` of a case,
// tests/golden/ndimage_inputs.py's view): C (as stored), F (a Fortran-order copy), step2 (every
// other element along each axis) and rev (the last axis reversed), made from the stored array on the
// device.

#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"

namespace ndimage_test {

/// a[::2, ::2, ...]: every other element along each axis (a view).
inline cusci::ndarray every_other(const cusci::ndarray& a) {
  std::vector<cusci::index_spec> idx(static_cast<std::size_t>(a.ndim()), cusci::slice{std::nullopt, std::nullopt, 2});
  return a[idx];
}

/// a[..., ::-1]: the last axis reversed (a view with a negative stride).
inline cusci::ndarray reversed_last(const cusci::ndarray& a) {
  return a[{cusci::ellipsis, cusci::slice{std::nullopt, std::nullopt, -1}}];
}

/// `a` in the case's `layout`: C (itself), F (an F-contiguous copy), rev (reversed_last) or step2
/// (every_other).
inline cusci::ndarray with_layout(const cusci::ndarray& a, const std::string& layout) {
  if (layout == "C") return a;
  if (layout == "F") {
    auto f = a.copy(cusci::order::F);
    REQUIRE(f.is_f_contiguous());
    return f;
  }
  if (layout == "rev") return reversed_last(a);
  REQUIRE(layout == "step2");
  return every_other(a);
}

}  // namespace ndimage_test
