// Host tests of the products' argument checks: they throw before any device work, so the operands
// are views without memory (no GPU needed).

#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/products.hpp"

using namespace cusci;

namespace {

/// A C-contiguous view of `shape` without memory (only shapes and dtypes are read by the checks).
ndarray shaped(const shape_t& shape, dtype dt = dtype::float64) {
  shape_t strides(shape.size());
  std::int64_t s = static_cast<std::int64_t>(itemsize(dt));
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape[d] > 0 ? shape[d] : 1;
  }
  return ndarray(memory_ptr{}, dt, shape, strides, 0, 0);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cusci::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("matmul: NumPy's shape errors") {
  CHECK(message_of([] { (void)matmul(shaped({3, 4}), shaped({5, 6})); }) ==
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
        "(n?,k),(k,m?)->(n?,m?) (size 5 is different from 4)");
  CHECK_THROWS_AS((void)matmul(shaped({}), shaped({2, 2})), value_error);
  CHECK_THROWS_AS((void)matmul(shaped({2, 2}), shaped({})), value_error);
  CHECK(message_of([] { (void)matmul(shaped({}), shaped({2})); }).find("Input operand 0 does not have enough dimensions") !=
        std::string::npos);
  CHECK_THROWS_AS((void)matmul(shaped({3}), shaped({4})), value_error);
  CHECK_THROWS_AS((void)matmul(shaped({2, 3, 4}), shaped({3, 4, 5})), value_error);
  CHECK_THROWS_AS((void)matmul(shaped({2, 3}), shaped({2, 4, 3})), value_error);
}

TEST_CASE("matmul: operands on different devices") {
  const ndarray a(memory_ptr{}, dtype::float64, {2, 2}, {16, 8}, 0, 0);
  const ndarray b(memory_ptr{}, dtype::float64, {2, 2}, {16, 8}, 0, 1);
  CHECK_THROWS_AS((void)matmul(a, b), value_error);
  CHECK_THROWS_AS((void)dot(a, b), value_error);
  CHECK_THROWS_AS((void)einsum("ij,jk", a, b), value_error);
}

TEST_CASE("dot, vdot, inner: alignment errors with NumPy's wording") {
  CHECK(message_of([] { (void)dot(shaped({2, 3}), shaped({4, 5})); }) == "shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)");
  CHECK(message_of([] { (void)dot(shaped({3}), shaped({4})); }) == "shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
  CHECK_THROWS_AS((void)dot(shaped({2, 3}), shaped({2, 4, 5})), value_error);
  CHECK_THROWS_AS((void)vdot(shaped({5}), shaped({2, 3})), value_error);
  CHECK(message_of([] { (void)inner(shaped({2, 3}), shaped({2, 4})); }) == "shapes (2,3) and (2,4) not aligned: 3 (dim 1) != 4 (dim 1)");
}

TEST_CASE("tensordot: axes errors") {
  using P = std::pair<std::vector<int>, std::vector<int>>;
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({4, 3}), P({0, 1}, {0})), value_error);
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({3, 4}), P({1}, {0})), value_error);
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({3, 4}), P({2}, {0})), index_error);
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({3, 4}), P({0, 0}, {0, 0})), value_error);
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({3, 4}), 3), value_error);
  CHECK_THROWS_AS((void)tensordot(shaped({3, 4}), shaped({3, 4}), -1), value_error);
}

TEST_CASE("einsum: subscript errors") {
  const ndarray a = shaped({2, 3}), b = shaped({3, 4}), c = shaped({2, 3, 4});
  CHECK_THROWS_AS((void)einsum("ij,jk->il", a, b), value_error);       // output label not in inputs
  CHECK_THROWS_AS((void)einsum("ij->ii", a), value_error);             // repeated output label
  CHECK_THROWS_AS((void)einsum("ij->i", c), value_error);              // label count != ndim
  CHECK_THROWS_AS((void)einsum("ij,jk->ik", a, a), value_error);       // j: 3 vs 2
  CHECK_THROWS_AS((void)einsum("ij,jk->ik", a), value_error);          // operand count
  CHECK_THROWS_AS((void)einsum("i1->i", a), value_error);              // bad character
  CHECK_THROWS_AS((void)einsum("i.j->i", a), value_error);             // lone '.'
  CHECK_THROWS_AS((void)einsum("...i...->i", a), value_error);         // two ellipses
  CHECK_THROWS_AS((void)einsum("ij->i->j", a), value_error);           // two arrows
  CHECK_THROWS_AS((void)einsum("ijk...->i", a), value_error);          // more labels than axes
  CHECK_THROWS_AS((void)einsum("ij", std::vector<ndarray>{}), value_error);
  CHECK_THROWS_AS((void)einsum("...i,...i", shaped({2, 3}), shaped({4, 3})), value_error);  // ellipsis broadcast
}

TEST_CASE("TF32 switch round-trips") {
  CHECK_FALSE(get_allow_tf32());
  set_allow_tf32(true);
  CHECK(get_allow_tf32());
  set_allow_tf32(false);
  CHECK_FALSE(get_allow_tf32());
}
