// GPU tests of cusci::ndimage::geometric_transform's functor form (cusci/ndimage/nvcc/
// geometric_transform.cuh, compiled by nvcc with --fmad=false) against SciPy 1.18.1
// (tests/golden/gen_ndimage_geometric.py): the same cases and the same mappings as the
// run-time-compiled form (geometric_gpu.cpp), the mappings compiled here from
// geometric_mappings.inc and wrapped in functors; plus a functor carrying its constants as members
// and extended lambdas (`__device__` and `__host__ __device__`) capturing them.

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/ndimage/nvcc/geometric_transform.cuh"
#include "geometric_cases.hpp"

namespace ndi = cusci::ndimage;

// the literals of geometric_test::kRotationOptions
#define GT_ROT_C 0.8660254037844387
#define GT_ROT_S 0.49999999999999994

#define GEOMETRIC_MAPPINGS(...) __VA_ARGS__
#include "geometric_mappings.inc"
#undef GEOMETRIC_MAPPINGS

namespace {

#define GT_FUNCTOR(NAME, RESULT)                                                                  \
  struct NAME##_f {                                                                               \
    __device__ RESULT operator()(const std::ptrdiff_t* o, double* c, int orank, int irank) const { \
      return gt_##NAME(o, c, orank, irank);                                                       \
    }                                                                                             \
  };
GT_FUNCTOR(shift, int)
GT_FUNCTOR(scale, void)
GT_FUNCTOR(rotate, int)
GT_FUNCTOR(swirl, int)
GT_FUNCTOR(barrel, void)
GT_FUNCTOR(polar, int)
GT_FUNCTOR(line, int)
GT_FUNCTOR(stack, int)
GT_FUNCTOR(int_shift, void)
GT_FUNCTOR(fail, int)
#undef GT_FUNCTOR

/// gt_shift with its constants as members (SciPy's extra_arguments, the functor way), returning bool.
struct member_shift {
  double s[4];
  __device__ bool operator()(const std::ptrdiff_t* o, double* c, int, int irank) const {
    for (int d = 0; d < irank; ++d) c[d] = static_cast<double>(o[d]) - s[d];
    return true;
  }
};

cusci::ndarray transform(const std::string& m, const cusci::ndarray& x, const ndi::geometric_transform_options& o) {
  if (m == "shift") return ndi::geometric_transform(x, shift_f{}, o);
  if (m == "scale") return ndi::geometric_transform(x, scale_f{}, o);
  if (m == "rotate") return ndi::geometric_transform(x, rotate_f{}, o);
  if (m == "swirl") return ndi::geometric_transform(x, swirl_f{}, o);
  if (m == "barrel") return ndi::geometric_transform(x, barrel_f{}, o);
  if (m == "polar") return ndi::geometric_transform(x, polar_f{}, o);
  if (m == "line") return ndi::geometric_transform(x, line_f{}, o);
  if (m == "stack") return ndi::geometric_transform(x, stack_f{}, o);
  if (m == "int_shift") return ndi::geometric_transform(x, int_shift_f{}, o);
  if (m == "fail") return ndi::geometric_transform(x, fail_f{}, o);
  FAIL("unknown mapping " << m);
  return x;
}

/// The shift mapping as member_shift, for the cases of gt_shift.
cusci::ndarray transform_members(const std::string& m, const cusci::ndarray& x,
                                 const ndi::geometric_transform_options& o) {
  if (m == "shift") return ndi::geometric_transform(x, member_shift{{2.3, -1.7, 0.75, -0.4}}, o);
  return transform(m, x, o);
}

/// gt_shift and gt_rotate as extended lambdas: `__device__` only (result type unknown to the host:
/// the status is read) and `__host__ __device__`, constants captured.
cusci::ndarray transform_lambdas(const std::string& m, const cusci::ndarray& x,
                                 const ndi::geometric_transform_options& o) {
  if (m == "shift") {
    const double s0 = 2.3, s1 = -1.7, s2 = 0.75, s3 = -0.4;
    return ndi::geometric_transform(
        x,
        [=] __device__(const std::ptrdiff_t* p, double* c, int, int irank) {
          const double s[4] = {s0, s1, s2, s3};
          for (int d = 0; d < irank; ++d) c[d] = static_cast<double>(p[d]) - s[d];
        },
        o);
  }
  if (m == "rotate") {
    const double cs = GT_ROT_C, sn = GT_ROT_S;
    return ndi::geometric_transform(
        x,
        [=] __host__ __device__(const std::ptrdiff_t* p, double* c, int, int) {
          const double y = static_cast<double>(p[0]) - 4.5;
          const double xx = static_cast<double>(p[1]) - 5.0;
          c[0] = cs * y - sn * xx + 4.5;
          c[1] = sn * y + cs * xx + 5.0;
          return 1;
        },
        o);
  }
  return transform(m, x, o);
}

}  // namespace

TEST_CASE("geometric_transform (functor): mappings, orders, modes, dtypes, layouts, outputs, errors") {
  CHECK(geometric_test::run_cases(transform) > 200);
}

TEST_CASE("geometric_transform (functor): outputs of several chunks") {
  CHECK(geometric_test::run_chunk_cases(transform) == 2);
}

TEST_CASE("geometric_transform (functor): constants as members") {
  CHECK(geometric_test::run_cases(transform_members) > 200);
}

TEST_CASE("geometric_transform (functor): extended lambdas") {
  CHECK(geometric_test::run_cases(transform_lambdas) > 200);
}
