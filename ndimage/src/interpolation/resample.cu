// Host entry of cusci::ndimage's resampling (map_coordinates, affine_transform, shift, zoom, rotate):
// fills the kernel parameters from a resample_spec and picks a kernel:
// - the specialised kernels of resample_fast.cuh (resample_f32.cu / resample_f64.cu) for 2-D and 3-D
//   interpolation with nothing batched, orders 0, 1 and 3, float32 / float64 input and output, a
//   C-contiguous output (zoom / shift and affine walk rows of output
//   columns; map_coordinates needs coordinates contiguous per input axis);
// - the generic kernel of resample_common.cuh for everything else (other orders, dtypes, layouts,
//   ranks, rotate's batched planes); the any-dtype instantiation lives here, float32 and float64 in
//   their own files.
// Both follow ni_interpolation.c operation by operation (the files are compiled without fused
// multiply-adds), so every path gives the same bits.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "interpolation/interp_detail.hpp"
#include "interpolation/resample_fast.cuh"

namespace cusci::ndimage::detail {
namespace interp {

extern template void launch_generic<float>(const resample_params& p, cudaStream_t stream);
extern template void launch_generic<double>(const resample_params& p, cudaStream_t stream);
extern template void launch_fast2<float>(fast_kind kind, int order, bool out_f32, const fast_params<2>& p,
                                         cudaStream_t stream);
extern template void launch_fast2<double>(fast_kind kind, int order, bool out_f32, const fast_params<2>& p,
                                          cudaStream_t stream);
extern template void launch_fast3<float>(fast_kind kind, int order, bool out_f32, const fast_params<3>& p,
                                         cudaStream_t stream);
extern template void launch_fast3<double>(fast_kind kind, int order, bool out_f32, const fast_params<3>& p,
                                          cudaStream_t stream);

}  // namespace interp

namespace {

using namespace interp;

/// Output rows narrower than this take the generic kernel (kept at 1: every 2-D / 3-D case of the
/// tests runs the specialised kernels; narrow rows only idle part of a warp).
constexpr std::int64_t min_fast_cols = 1;

/// The specialised path for `p` (already filled), or false when it does not apply.
template <int ND>
bool try_fast(const ndarray& in, const ndarray& out, const resample_spec& spec, const resample_params& g,
              cudaStream_t stream) {
  if (spec.order != 0 && spec.order != 1 && spec.order != 3) return false;
  if (in.dtype() != dtype::float32 && in.dtype() != dtype::float64) return false;
  if (out.dtype() != dtype::float32 && out.dtype() != dtype::float64) return false;
  if (!out.is_c_contiguous()) return false;
  fast_params<ND> p{};
  p.in = g.in;
  p.out = g.out;
  p.cols = out.shape().back();
  p.rows = out.size() / p.cols;
  for (int d = 0; d < ND; ++d) {
    p.in_len[d] = g.in_len[d];
    p.in_stride[d] = g.in_stride[d];
  }
  p.mode = g.mode;
  p.spline_mode = g.spline_mode;
  p.cval = g.cval;
  p.npad = g.npad;
  fast_kind kind;
  ndarray table;  // zoom's tables; freed to the pool (stream-ordered) when this call returns
  if (spec.kind == resample_spec::coordinates) {
    // coordinates[d] must be contiguous over the points (C order)
    const ndarray& c = spec.coords;
    std::int64_t want = static_cast<std::int64_t>(itemsize(c.dtype()));
    for (int l = c.ndim() - 1; l >= 1; --l) {
      if (c.shape()[static_cast<std::size_t>(l)] != 1 && c.strides()[static_cast<std::size_t>(l)] != want) return false;
      want *= c.shape()[static_cast<std::size_t>(l)];
    }
    kind = fast_kind::coords;
    p.coords = g.coords;
    p.c_stride0 = g.c_stride0;
    p.coord_f32 = g.coord_code == static_cast<int>(dtype::float32) ? 1 : 0;
  } else {
    if (out.ndim() != ND || p.cols < min_fast_cols) return false;
    for (int d = 0; d < ND; ++d) p.out_shape[d] = out.shape()[static_cast<std::size_t>(d)];
    if (spec.kind == resample_spec::affine) {
      kind = fast_kind::affine;
      for (int k = 0; k < ND * ND; ++k) p.matrix[k] = g.matrix[k];
      for (int d = 0; d < ND; ++d) p.offset[d] = g.offset[d];
    } else {
      kind = fast_kind::zoom;
      p.has_zoom = g.has_zoom;
      p.has_shift = g.has_shift;
      p.grid_mode = g.grid_mode;
      for (int d = 0; d < ND; ++d) {
        p.zoom[d] = g.zoom[d];
        p.shift[d] = g.shift[d];
      }
      std::int64_t n_entries = 0;
      for (int d = 0; d < ND - 1; ++d) {
        p.table_start[d] = n_entries;
        n_entries += p.out_shape[d];
      }
      const auto build = [&](auto order_tag) {
        constexpr int O = decltype(order_tag)::value;
        table = ndarray({n_entries * static_cast<std::int64_t>(sizeof(tap_entry<O>))}, dtype::uint8);
        build_tables<ND, O><<<cusci::detail::grid_for(n_entries, 256), 256, 0, stream>>>(
            p, static_cast<tap_entry<O>*>(table.data()), n_entries);
        CUSCI_CHECK_LAUNCH();
        p.table = table.data();
      };
      switch (spec.order) {
        case 0: build(std::integral_constant<int, 0>{}); break;
        case 1: build(std::integral_constant<int, 1>{}); break;
        default: build(std::integral_constant<int, 3>{}); break;
      }
    }
  }
  const bool out_f32 = out.dtype() == dtype::float32;
  if (in.dtype() == dtype::float32) {
    if constexpr (ND == 2) launch_fast2<float>(kind, spec.order, out_f32, p, stream);
    else launch_fast3<float>(kind, spec.order, out_f32, p, stream);
  } else {
    if constexpr (ND == 2) launch_fast2<double>(kind, spec.order, out_f32, p, stream);
    else launch_fast3<double>(kind, spec.order, out_f32, p, stream);
  }
  return true;
}

}  // namespace

void resample(const ndarray& in, const ndarray& out, const resample_spec& spec) {
  if (out.size() == 0) return;
  const char* fn = "cusci::ndimage: resample";
  resample_params p{};
  CUSCI_EXPECTS(in.size() > 0, runtime_error,
                std::string(fn) + ": cannot interpolate an input with no elements into a non-empty output");
  p.nb = spec.n_batch;
  p.nd = in.ndim() - spec.n_batch;
  p.out_ndim = out.ndim();
  p.n_out = out.ndim() - spec.n_batch;
  CUSCI_EXPECTS(in.ndim() <= kmax && out.ndim() <= kmax, not_implemented_error,
                std::string(fn) + ": arrays of more than 16 dimensions are not supported");
  CUSCI_EXPECTS(spec.kind != resample_spec::affine || p.nd * p.n_out <= kmax_matrix, not_implemented_error,
                std::string(fn) + ": affine matrix too large");
  p.in = static_cast<const char*>(in.data());
  p.out = static_cast<char*>(out.data());
  p.total = out.size();
  for (int b = 0; b < p.nb; ++b) p.batch_stride[b] = in.strides()[static_cast<std::size_t>(b)];
  for (int d = 0; d < p.nd; ++d) {
    p.in_len[d] = in.shape()[static_cast<std::size_t>(p.nb + d)];
    p.in_stride[d] = in.strides()[static_cast<std::size_t>(p.nb + d)];
  }
  for (int d = 0; d < p.out_ndim; ++d) {
    p.out_shape[d] = out.shape()[static_cast<std::size_t>(d)];
    p.out_stride[d] = out.strides()[static_cast<std::size_t>(d)];
  }
  p.out_contig = out.is_c_contiguous() ? 1 : 0;
  p.out_itemsize = static_cast<int>(itemsize(out.dtype()));
  p.kind = spec.kind;
  p.order = spec.order;
  p.mode = spec.mode;
  // _get_spline_boundary_mode: the taps of constant and wrap see a mirrored input.
  p.spline_mode = (spec.mode == ic_constant || spec.mode == ic_wrap) ? ic_mirror : spec.mode;
  p.in_code = static_cast<int>(in.dtype());
  p.out_code = static_cast<int>(out.dtype());
  p.cval = spec.cval;
  p.npad = static_cast<double>(spec.npad);
  p.has_zoom = spec.has_zoom;
  p.has_shift = spec.has_shift;
  p.grid_mode = spec.grid_mode;
  for (std::size_t d = 0; d < spec.zoom.size() && d < kmax; ++d) p.zoom[d] = spec.zoom[d];
  for (std::size_t d = 0; d < spec.shift.size() && d < kmax; ++d) p.shift[d] = spec.shift[d];
  for (std::size_t d = 0; d < spec.offset.size() && d < kmax; ++d) p.offset[d] = spec.offset[d];
  for (std::size_t k = 0; k < spec.matrix.size() && k < kmax_matrix; ++k) p.matrix[k] = spec.matrix[k];
  if (spec.kind == resample_spec::coordinates) {
    p.coords = static_cast<const char*>(spec.coords.data());
    p.coord_code = static_cast<int>(spec.coords.dtype());
    p.c_stride0 = spec.coords.strides()[0];
    for (int l = 0; l < p.n_out; ++l) p.c_stride[l] = spec.coords.strides()[static_cast<std::size_t>(l + 1)];
  }
  cudaStream_t stream = get_current_stream();
  if (p.nb == 0 && p.nd == 2 && try_fast<2>(in, out, spec, p, stream)) return;
  if (p.nb == 0 && p.nd == 3 && try_fast<3>(in, out, spec, p, stream)) return;
  switch (in.dtype()) {
    case dtype::float32: return launch_generic<float>(p, stream);
    case dtype::float64: return launch_generic<double>(p, stream);
    default: return launch_generic<any_in>(p, stream);
  }
}

}  // namespace cusci::ndimage::detail
