// The axis-pass engine's host side: the [outer, L, inner] view of a pass and the chain of passes of
// a multi-axis filter (layout, complex parts, temporaries).

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/ndarray.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"

namespace cusci::ndimage::detail {
namespace {

/// Indexers over the dims [begin, end) of `in` and `out` (coalesced where both allow it).
void split_axes(const ndarray& in, const ndarray& out, int begin, int end, strided_indexer& ii, strided_indexer& oi) {
  shape_t shape(in.shape().begin() + begin, in.shape().begin() + end);
  shape_t is(in.strides().begin() + begin, in.strides().begin() + end);
  shape_t os(out.strides().begin() + begin, out.strides().begin() + end);
  cusci::detail::coalesce(shape, {&is, &os});
  ii = cusci::detail::make_indexer(shape, is);
  oi = cusci::detail::make_indexer(shape, os);
}

}  // namespace

pass_params make_pass_params(const ndarray& in, const ndarray& out, int axis, int K, std::int64_t origin, ext mode,
                             double cval) {
  pass_params p{};
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  const cusci::detail::line_view v = cusci::detail::line_view_of(in.shape(), axis);
  p.L = v.length;
  p.n_outer = v.outer;
  p.n_inner = v.inner;
  p.in_sa = in.strides()[axis];
  p.out_sa = out.strides()[axis];
  split_axes(in, out, 0, axis, p.in_outer, p.out_outer);
  split_axes(in, out, axis + 1, in.ndim(), p.in_inner, p.out_inner);
  p.K = K;
  p.shift = static_cast<int>(K / 2 + origin);
  p.mode = static_cast<int>(mode);
  p.cval = cval;
  p.in_code = static_cast<int>(in.dtype());
  return p;
}

ndarray component(const ndarray& a, int part) {
  const dtype rt = real_dtype(a.dtype());
  return ndarray(a.memory(), rt, a.shape(), a.strides(),
                 a.offset() + part * static_cast<std::int64_t>(itemsize(rt)), a.device());
}

namespace {

/// Runs the passes in turn from `in` to `out` (real arrays of one shape), alternating between `out`
/// and one temporary so that the last pass lands in `out`.
void run_chain(const ndarray& in, const ndarray& out, const std::vector<axis_pass>& passes, double cval) {
  const std::size_t n = passes.size();
  ndarray tmp;
  if (n > 1) tmp = cusci::empty(out.shape(), out.dtype());
  ndarray src = in;
  for (std::size_t k = 0; k < n; ++k) {
    const ndarray& dst = ((n - 1 - k) % 2 == 0) ? out : tmp;
    passes[k].run(src, dst, passes[k].axis, cval);
    src = dst;
  }
}

}  // namespace

ndarray run_axis_filter(const ndarray& input, dtype out_dt, std::vector<axis_pass> passes, double cval) {
  const int nd = input.ndim();
  // An F-contiguous input is processed as its (C-contiguous) transpose so that loads stay coalesced;
  // the result is then F-contiguous.
  const bool flip = nd > 1 && input.is_f_contiguous() && !input.is_c_contiguous();
  const ndarray in = flip ? input.T() : input;
  if (flip)
    for (auto& ps : passes) ps.axis = nd - 1 - ps.axis;
  ndarray out = cusci::empty(in.shape(), out_dt);
  if (out.size() > 0 && !passes.empty()) {
    if (is_complex(out_dt)) {
      run_chain(component(in, 0), component(out, 0), passes, cval);
      run_chain(component(in, 1), component(out, 1), passes, 0.0);
    } else {
      run_chain(in, out, passes, cval);
    }
  }
  return flip ? out.T() : out;
}

}  // namespace cusci::ndimage::detail
