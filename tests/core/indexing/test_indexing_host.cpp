// Host tests of the indexing family: string options and the argument checks that throw before any
// device work (no GPU needed).

#include <doctest/doctest.h>

#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"

using namespace cusci;

TEST_CASE("clip_mode_from_string parses NumPy's mode names") {
  CHECK(clip_mode_from_string("raise") == clip_mode::raise);
  CHECK(clip_mode_from_string("wrap") == clip_mode::wrap);
  CHECK(clip_mode_from_string("clip") == clip_mode::clip);
  CHECK_THROWS_AS(clip_mode_from_string("Raise"), value_error);
  CHECK_THROWS_AS(clip_mode_from_string(""), value_error);
}

TEST_CASE("pad_mode_from_string and pad_reflect_type_from_string parse np.pad's strings") {
  const std::pair<const char*, pad_mode> modes[] = {
      {"constant", pad_mode::constant}, {"edge", pad_mode::edge},       {"linear_ramp", pad_mode::linear_ramp},
      {"maximum", pad_mode::maximum},   {"mean", pad_mode::mean},       {"median", pad_mode::median},
      {"minimum", pad_mode::minimum},   {"reflect", pad_mode::reflect}, {"symmetric", pad_mode::symmetric},
      {"wrap", pad_mode::wrap},         {"empty", pad_mode::empty}};
  for (const auto& [s, m] : modes) CHECK(pad_mode_from_string(s) == m);
  CHECK_THROWS_AS(pad_mode_from_string("mirror"), value_error);
  CHECK(pad_reflect_type_from_string("even") == pad_reflect_type::even);
  CHECK(pad_reflect_type_from_string("odd") == pad_reflect_type::odd);
  CHECK_THROWS_AS(pad_reflect_type_from_string("uneven"), value_error);
}

TEST_CASE("argument errors raised before device work") {
  const ndarray empty1d;  // shape (0,), float64, no memory
  CHECK_THROWS_AS(concatenate({}), value_error);
  CHECK_THROWS_AS(stack({}), value_error);
  CHECK_THROWS_AS(hstack({}), value_error);
  CHECK_THROWS_AS(vstack({}), value_error);
  CHECK_THROWS_AS(column_stack({}), value_error);
  CHECK_THROWS_AS(array_split(empty1d, 0), value_error);
  CHECK_THROWS_AS(split(empty1d, -1), value_error);
  CHECK_THROWS_AS(split(empty1d, 2, 1), index_error);
  CHECK_THROWS_AS(flip(empty1d, 1), index_error);
  CHECK_THROWS_AS(flip(empty1d, std::vector<int>{0, 0}), value_error);
  CHECK_THROWS_AS(fliplr(empty1d), value_error);
  CHECK_THROWS_AS(swapaxes(empty1d, 0, 1), index_error);
  CHECK_THROWS_AS(moveaxis(empty1d, std::vector<int>{0}, std::vector<int>{}), value_error);
  CHECK_THROWS_AS(expand_dims(empty1d, {0, 0}), value_error);
  CHECK_THROWS_AS(expand_dims(empty1d, {3}), index_error);
  CHECK_THROWS_AS(squeeze(empty1d, {0}), value_error);
  CHECK_THROWS_AS(diagonal(empty1d), value_error);
  CHECK_THROWS_AS(tril_indices(-1), value_error);
  CHECK_THROWS_AS(triu_indices(3, 0, -2), value_error);
  CHECK_THROWS_AS(tile(empty1d, {-1}), value_error);
  CHECK_THROWS_AS(repeat(empty1d, -1, 0), value_error);
  CHECK_THROWS_AS(take(empty1d, empty1d), type_error);  // float64 indices
}

TEST_CASE("views made without device work have NumPy's shapes and strides") {
  const ndarray e;  // (0,) float64, stride 8
  CHECK(atleast_2d(e).shape() == shape_t{1, 0});
  CHECK(atleast_3d(e).shape() == shape_t{1, 0, 1});
  CHECK(expand_dims(e, {0, 2}).shape() == shape_t{1, 0, 1});
  CHECK(flip(e).shape() == shape_t{0});
  CHECK(split(e, 3).size() == 3);
  CHECK(array_split(e, std::vector<std::int64_t>{1, 5}).size() == 3);
}
