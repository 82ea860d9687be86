// The axis-pass engine's host side: the [outer, L, inner] view of a pass and the chain of passes of
// a multi-axis filter (layout, complex parts, temporaries, an output that overlaps the input).

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/ndarray.hpp"
#include "engine/axis_engine.cuh"
#include "engine/axis_engine.hpp"
#include "filters/filter_common.hpp"

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

bool fortran_ordered(const ndarray& a) {
  if (a.ndim() < 2 || a.is_c_contiguous()) return false;
  std::int64_t prev = 0;
  int n = 0;
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape()[static_cast<std::size_t>(d)] <= 1) continue;
    const std::int64_t s = a.strides()[static_cast<std::size_t>(d)];
    const std::int64_t m = s < 0 ? -s : s;
    if (m <= prev) return false;  // also refuses zero strides
    prev = m;
    ++n;
  }
  return n >= 2;
}

namespace {

/// Runs the passes in turn from `in` to `out` (real arrays of one shape); the last pass writes
/// `out`. Pass k writes buffer dst[k], chosen from the last pass backwards so that no pass writes
/// the buffer it reads: `out` itself where `out_mid_ok` (it is C-contiguous, as the temporaries)
/// and, when `first_not_out` (out overlaps `in`), never for the first pass; else one of two
/// C-contiguous temporaries, allocated when first needed.
void run_chain(const ndarray& in, const ndarray& out, const std::vector<axis_pass>& passes, double cval,
               bool out_mid_ok, bool first_not_out) {
  const std::size_t n = passes.size();
  std::vector<int> dst(n, 0);  // 0: out, 1 and 2: temporaries
  for (std::size_t k = n - 1; k-- > 0;) {
    if (out_mid_ok && dst[k + 1] != 0 && !(k == 0 && first_not_out)) dst[k] = 0;
    else dst[k] = dst[k + 1] == 1 ? 2 : 1;
  }
  ndarray buf[3];
  bool made[3] = {true, false, false};
  buf[0] = out;
  ndarray src = in;
  for (std::size_t k = 0; k < n; ++k) {
    ndarray& d = buf[dst[k]];
    if (!made[dst[k]]) {
      d = cusci::empty(out.shape(), out.dtype());
      made[dst[k]] = true;
    }
    passes[k].run(src, d, passes[k].axis, cval);
    src = d;
  }
}

}  // namespace

void run_axis_filter_into(const ndarray& input, const ndarray& out, std::vector<axis_pass> passes, double cval) {
  if (out.size() == 0 || passes.empty()) return;
  ndarray src = input;
  bool first_not_out = false;
  if (may_share_memory(input, out)) {
    // Two or more passes: only the first reads the input, so it writes a temporary. One pass (or
    // a complex array partly overlapping its output): filter a copy of the input.
    if (passes.size() >= 2 && (!is_complex(out.dtype()) || same_view(input, out))) first_not_out = true;
    else src = input.copy(fortran_ordered(input) ? order::F : order::C);
  }
  const int nd = src.ndim();
  // An input in Fortran order is processed as its transpose so that loads stay coalesced; the last
  // pass then writes the (C-ordered) output through its strides.
  const bool flip = fortran_ordered(src);
  const ndarray in = flip ? src.T() : src;
  const ndarray o = flip ? out.T() : out;
  if (flip)
    for (auto& ps : passes) ps.axis = nd - 1 - ps.axis;
  const bool out_mid_ok = o.is_c_contiguous();
  if (is_complex(o.dtype())) {
    run_chain(component(in, 0), component(o, 0), passes, cval, out_mid_ok, first_not_out);
    run_chain(component(in, 1), component(o, 1), passes, 0.0, out_mid_ok, first_not_out);
  } else {
    run_chain(in, o, passes, cval, out_mid_ok, first_not_out);
  }
}

ndarray run_axis_filter(const ndarray& input, dtype out_dt, std::vector<axis_pass> passes, double cval) {
  ndarray out = cusci::empty(input.shape(), out_dt);
  run_axis_filter_into(input, out, std::move(passes), cval);
  return out;
}

}  // namespace cusci::ndimage::detail
