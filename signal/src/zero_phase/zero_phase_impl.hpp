#pragma once
// (internal) The zero_phase family's host-side pieces shared by zero_phase.cpp (argument handling,
// orchestration, Gustafsson's matrices) and zero_phase_kernels.cu (the extension / state kernels).

#include <complex>
#include <cstdint>
#include <vector>

#include "cusci/ndarray.hpp"
#include "cusci/signal/zero_phase.hpp"

namespace cusci::signal::detail::zero_phase {

using cplx = std::complex<double>;

/// Whether extend_lines reads dtype `in` directly into an extension of dtype `out` (float32 / float64 /
/// complex64 / complex128 to themselves or to a wider inexact dtype); other inputs are cast first.
bool extend_supports(dtype in, dtype out);

/// Writes `ext` [L, N + 2 * edge] (C-contiguous, dtype of `ext`; `xv` of a dtype extend_supports takes) from `xv`
/// [..., N] (the data with the filtered axis last, any strides; L = product of the other dims) with
/// the extension `kind` computed in xv's dtype (as SciPy extends in x's dtype; pad_type::none copies),
/// converted to ext's dtype, and in the same pass the initial states
/// zi_out[(g * L + l) * C + c] = z[g * C + c] * ext[l, 0] for g < G, c < C (`zi_out` C-contiguous with
/// G * L * C elements, or unused when G * C == 0). One kernel, asynchronous on the current stream.
void extend_lines(const ndarray& xv, pad_type kind, std::int64_t edge, ndarray& ext, const std::vector<cplx>& z,
                  std::int64_t G, std::int64_t C, ndarray& zi_out);

/// zi_out[(g * L + l) * C + c] = z[g * C + c] * y[l, N - 1]: the states scaled by the last sample of each
/// line of `y` [..., N] (axis last, any strides, N >= 1). Asynchronous.
void scale_by_last(const ndarray& y, const std::vector<cplx>& z, std::int64_t G, std::int64_t C, ndarray& zi_out);

/// Gustafsson's residual delta[l, r] = ybf[l, pos[r]] - yfb_rev[l, n - 1 - pos[r]] for the R kept rows
/// (`pos` int64 [R] on the device). ybf, yfb_rev C-contiguous [L, n]; delta C-contiguous [L, R]; one
/// dtype. Asynchronous.
void gust_delta(const ndarray& ybf, const ndarray& yfb_rev, const ndarray& pos, ndarray& delta);

/// The correction in place: yfb_rev[l, n - 1 - pos[r]] += wic[l, r] (wic C-contiguous [L, R], positions
/// distinct). Asynchronous.
void gust_correct(ndarray& yfb_rev, const ndarray& wic, const ndarray& pos);

}  // namespace cusci::signal::detail::zero_phase
