// Host side of the convolution family: SciPy's argument checks, swaps, dtype rules and method choice
// for convolve / correlate / fftconvolve / oaconvolve / convolve2d / correlate2d, plus
// choose_conv_method, correlation_lags and deconvolve. Kernels: direct.cu, fftconv.cu.

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "convolution/conv_common.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/fft.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/signal/convolution.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using cusci::detail::shape_str;

conv_mode parse_conv_mode(std::string_view s) {
  if (s == "full") return conv_mode::full;
  if (s == "valid") return conv_mode::valid;
  if (s == "same") return conv_mode::same;
  throw value_error("cusci::signal: Acceptable mode flags are 'valid', 'same', or 'full', not mode=" + std::string(s));
}

conv_method parse_conv_method(std::string_view s) {
  if (s == "auto") return conv_method::auto_;
  if (s == "direct") return conv_method::direct;
  if (s == "fft") return conv_method::fft;
  throw value_error("cusci::signal: Acceptable method flags are 'auto', 'direct', or 'fft', got " + std::string(s));
}

conv_boundary parse_conv_boundary(std::string_view s) {
  if (s == "fill") return conv_boundary::fill;
  if (s == "wrap" || s == "circular") return conv_boundary::wrap;
  if (s == "symm" || s == "symmetric") return conv_boundary::symm;
  throw value_error(
      "cusci::signal: Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm'), got " +
      std::string(s));
}

namespace {

using i64 = std::int64_t;

/// A view of `a` reversed along every axis (core's flip: negative strides, no copy).
ndarray reversed_view(const ndarray& a) { return a.ndim() == 0 || a.size() == 0 ? a : cusci::flip(a); }

/// SciPy's _inputs_swap_needed: in valid mode, whether in2 is the larger input over `axes`.
/// @throws value_error when neither is at least as large as the other over every axis.
bool swap_needed(conv_mode mode, const shape_t& s1, const shape_t& s2, const std::vector<int>& axes,
                 const std::string& F) {
  if (mode != conv_mode::valid || s1.empty()) return false;
  bool ok1 = true, ok2 = true;
  for (int a : axes) {
    ok1 = ok1 && s1[static_cast<std::size_t>(a)] >= s2[static_cast<std::size_t>(a)];
    ok2 = ok2 && s2[static_cast<std::size_t>(a)] >= s1[static_cast<std::size_t>(a)];
  }
  CUSCI_EXPECTS(ok1 || ok2, value_error,
                F + ": For 'valid' mode, one must be at least as large as the other in every dimension, got " +
                    shape_str(s1) + " and " + shape_str(s2));
  return !ok1;
}

std::vector<int> all_axes(int nd) {
  std::vector<int> a(static_cast<std::size_t>(nd));
  for (int i = 0; i < nd; ++i) a[static_cast<std::size_t>(i)] = i;
  return a;
}

void check_same_ndim(const ndarray& a, const ndarray& b, const std::string& F) {
  CUSCI_EXPECTS(a.ndim() == b.ndim(), value_error,
                F + ": in1 and in2 should have the same dimensionality, got " + std::to_string(a.ndim()) + " and " +
                    std::to_string(b.ndim()));
}

/// The dtype the direct kernels sum in for a result dtype: int64 for integers and bool, float32 for
/// float16, else the result dtype.
dtype direct_compute_dtype(dtype rt) {
  if (is_integer(rt) || rt == dtype::bool_) return dtype::int64;
  if (rt == dtype::float16) return dtype::float32;
  return rt;
}

/// The output of the direct N-D path: shape and offsets p by mode (in1, in2 already swapped). The
/// same offset m // 2 serves convolve (kernel reversed) and correlate, matching SciPy's np.convolve /
/// np.correlate / _correlateND centring (checked against SciPy in a NumPy emulation).
struct direct_plan {
  shape_t out;
  std::vector<i64> p;
};

direct_plan direct_shape(conv_mode mode, const shape_t& s1, const shape_t& s2) {
  direct_plan d;
  for (std::size_t i = 0; i < s1.size(); ++i) {
    const i64 n = s1[i], m = s2[i];
    switch (mode) {
      case conv_mode::full: d.out.push_back(n + m - 1); d.p.push_back(m - 1); break;
      case conv_mode::same: d.out.push_back(n); d.p.push_back(m / 2); break;
      case conv_mode::valid: d.out.push_back(n - m + 1); d.p.push_back(0); break;
    }
  }
  return d;
}

/// The direct sum: 2-D inputs go to the tiled shared-memory kernel of convolve2d (boundary fill with
/// zeros is the N-D path's zero extension), the others to the N-D kernel.
ndarray run_direct(const ndarray& x, const ndarray& w, const direct_plan& d, bool conj_x, bool conj_w) {
  if (x.ndim() == 2 && !conj_x)
    return detail::direct_correlate2d(x, w, d.out[0], d.out[1], d.p[0], d.p[1], conv_boundary::fill, {0.0, 0.0},
                                      conj_w, false);
  return detail::direct_correlate(x, w, d.out, d.p, conj_x, conj_w);
}

/// Shared checks of the direct N-D path: dtypes SciPy's _correlateND refuses (np.convolve /
/// np.correlate take them in 1-D), empty inputs, the dimension limit.
void check_direct(const ndarray& in1, const ndarray& in2, conv_mode mode, dtype rt, const std::string& F) {
  CUSCI_EXPECTS(in1.size() > 0 && in2.size() > 0, value_error,
                F + ": the direct method needs non-empty inputs, got shapes " + shape_str(in1.shape()) + " and " +
                    shape_str(in2.shape()));
  const bool np_ok = in1.ndim() == 1 && (mode != conv_mode::same || in1.size() >= in2.size());
  CUSCI_EXPECTS(np_ok || (rt != dtype::bool_ && rt != dtype::float16), value_error,
                F + ": Unsupported type " + std::string(dtype_name(rt)) + " for the direct method beyond 1-D");
  CUSCI_EXPECTS(in1.ndim() <= detail::direct_max_ndim, not_implemented_error,
                F + ": the direct method supports at most 8 dimensions, got " + std::to_string(in1.ndim()));
}

/// The fft path's dtype: complex when either input is complex, double precision unless both are
/// single precision (float16, float32, complex64) as scipy.fft computes.
dtype fft_result_dtype(dtype a, dtype b) {
  auto single = [](dtype t) { return t == dtype::float16 || t == dtype::float32 || t == dtype::complex64; };
  const bool sp = single(a) && single(b);
  const bool cx = is_complex(a) || is_complex(b);
  return cx ? (sp ? dtype::complex64 : dtype::complex128) : (sp ? dtype::float32 : dtype::float64);
}

/// `arr` cropped to `newshape`, centred (SciPy's _centered); a view.
ndarray centered(const ndarray& arr, const shape_t& newshape) {
  std::vector<index_spec> idx;
  for (std::size_t d = 0; d < newshape.size(); ++d) {
    const i64 start = (arr.shape()[d] - newshape[d]) / 2;
    idx.push_back(slice{start, start + newshape[d], 1});
  }
  return arr[idx];
}

/// SciPy's _apply_conv_mode (a C-contiguous copy).
ndarray apply_conv_mode(const ndarray& ret, const shape_t& s1, const shape_t& s2, conv_mode mode,
                        const std::vector<int>& axes) {
  if (mode == conv_mode::full) return ret.copy();
  if (mode == conv_mode::same) return centered(ret, s1).copy();
  shape_t sv = ret.shape();
  for (int a : axes) sv[static_cast<std::size_t>(a)] = s1[static_cast<std::size_t>(a)] - s2[static_cast<std::size_t>(a)] + 1;
  return centered(ret, sv).copy();
}

ndarray fft_family(const ndarray& in1_in, const ndarray& in2_in, const fftconvolve_options& opts, const std::string& F) {
  ndarray in1 = in1_in, in2 = in2_in;
  if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, in2);
  check_same_ndim(in1, in2, F);
  if (in1.size() == 0 || in2.size() == 0) return empty(shape_t{0}, dtype::float64);
  const int nd = in1.ndim();
  std::vector<int> axes;
  if (opts.axes) {
    CUSCI_EXPECTS(!opts.axes->empty(), value_error, F + ": when provided, axes cannot be empty");
    std::vector<bool> seen(static_cast<std::size_t>(nd), false);
    for (int a : *opts.axes) {
      CUSCI_EXPECTS(a >= -nd && a < nd, value_error,
                    F + ": axes exceeds dimensionality of input, got axis " + std::to_string(a) + " for " +
                        std::to_string(nd) + " dimensions");
      const int n = a < 0 ? a + nd : a;
      CUSCI_EXPECTS(!seen[static_cast<std::size_t>(n)], value_error, F + ": all axes must be unique");
      seen[static_cast<std::size_t>(n)] = true;
      axes.push_back(n);
    }
  } else {
    axes = all_axes(nd);
  }
  const shape_t& S1 = in1.shape();
  const shape_t& S2 = in2.shape();
  std::vector<int> kept;
  for (int a : axes)
    if (S1[static_cast<std::size_t>(a)] != 1 && S2[static_cast<std::size_t>(a)] != 1) kept.push_back(a);
  axes = kept;
  for (int a = 0; a < nd; ++a) {
    if (std::find(axes.begin(), axes.end(), a) != axes.end()) continue;
    const i64 x = S1[static_cast<std::size_t>(a)], y = S2[static_cast<std::size_t>(a)];
    CUSCI_EXPECTS(x == y || x == 1 || y == 1, value_error,
                  F + ": incompatible shapes for in1 and in2: " + shape_str(S1) + " and " + shape_str(S2));
  }
  if (swap_needed(opts.mode, S1, S2, axes, F)) std::swap(in1, in2);
  const shape_t s1 = in1.shape(), s2 = in2.shape();
  if (axes.empty()) return apply_conv_mode(multiply(in1, in2), s1, s2, opts.mode, axes);

  const dtype cd = fft_result_dtype(in1.dtype(), in2.dtype());
  shape_t full(static_cast<std::size_t>(nd));
  for (int a = 0; a < nd; ++a) {
    const std::size_t u = static_cast<std::size_t>(a);
    full[u] = std::find(axes.begin(), axes.end(), a) != axes.end() ? s1[u] + s2[u] - 1 : std::max(s1[u], s2[u]);
  }

  // Overlap-save engine: one axis, a 1-D filter (the other input is 1 on every other axis), long lines.
  if (axes.size() == 1) {
    const int ax = axes[0];
    const std::size_t ua = static_cast<std::size_t>(ax);
    auto one_d_like = [&](const shape_t& s) {
      for (int a = 0; a < nd; ++a)
        if (a != ax && s[static_cast<std::size_t>(a)] != 1) return false;
      return true;
    };
    const ndarray* sig = nullptr;
    const ndarray* fil = nullptr;
    if (one_d_like(s2) && (!one_d_like(s1) || s2[ua] <= s1[ua])) {
      sig = &in1;
      fil = &in2;
    } else if (one_d_like(s1) && one_d_like(s2)) {
      sig = &in2;
      fil = &in1;
    }
    if (sig != nullptr) {
      const i64 N = sig->shape()[ua], M = fil->shape()[ua];
      const i64 nfft = detail::oa_block_length(M);
      if (nfft > 0 && N + M - 1 >= 2 * nfft) {
        const i64 Lf = N + M - 1;
        const i64 Lout = opts.mode == conv_mode::full ? Lf
                         : opts.mode == conv_mode::same ? s1[ua]
                                                        : s1[ua] - s2[ua] + 1;
        const i64 o0 = (Lf - Lout) / 2;
        ndarray xc = cusci::detail::move_axis_last(*sig, ax).astype(cd, false);
        if (!xc.is_c_contiguous()) xc = xc.copy();
        ndarray h = fil->astype(cd, false);
        if (!h.is_c_contiguous()) h = h.copy();
        h = h.reshape(shape_t{M});
        shape_t os = xc.shape();
        os.back() = Lout;
        ndarray out = empty(os, cd);
        detail::oa_convolve_lines(xc, h, o0, Lout, out, nfft);
        ndarray res = cusci::detail::move_last_axis_to(out, ax);
        if (opts.mode == conv_mode::same) {
          // other axes: SciPy centres every axis on s1 (the signal's other axes already are s1's
          // when in1 is the signal; a 1-D-like in1 as filter has only the conv axis)
          shape_t want = s1;
          want[ua] = Lout;
          if (want != res.shape()) res = centered(res, want);
        }
        return res.is_c_contiguous() ? res : res.copy();
      }
    }
  }

  // SciPy's own scheme: transforms of the full (fast) lengths.
  const bool cx = is_complex(cd);
  ndarray a = in1, b = in2;
  if (!is_inexact(a.dtype())) a = a.astype(dtype::float64);
  if (!is_inexact(b.dtype())) b = b.astype(dtype::float64);
  shape_t fshape;
  for (int ax : axes) fshape.push_back(fft::next_fast_len(full[static_cast<std::size_t>(ax)], !cx));
  fft::fftn_options fo{.s = fshape, .axes = axes};
  ndarray ret;
  if (cx) {
    ret = fft::ifftn(multiply(fft::fftn(a, fo), fft::fftn(b, fo)), fo);
  } else {
    ret = fft::irfftn(multiply(fft::rfftn(a, fo), fft::rfftn(b, fo)), fo);
  }
  std::vector<index_spec> fsl;
  for (int d = 0; d < nd; ++d) fsl.push_back(slice{0, full[static_cast<std::size_t>(d)], 1});
  ret = ret[fsl];
  if (ret.dtype() != cd) ret = ret.astype(cd);
  return apply_conv_mode(ret, s1, s2, opts.mode, axes);
}

/// SciPy's _fftconv_faster (measure=False).
bool fftconv_faster(const shape_t& xs, const shape_t& hs, conv_mode mode) {
  const std::size_t nd = xs.size();
  auto prod = [](const std::vector<double>& v) {
    double p = 1;
    for (double t : v) p *= t;
    return p;
  };
  std::vector<double> s1(xs.begin(), xs.end()), s2(hs.begin(), hs.end()), outs, fulls;
  for (std::size_t i = 0; i < nd; ++i) {
    fulls.push_back(s1[i] + s2[i] - 1);
    outs.push_back(mode == conv_mode::full ? s1[i] + s2[i] - 1
                   : mode == conv_mode::valid ? std::abs(s1[i] - s2[i]) + 1
                                              : s1[i]);
  }
  double direct_ops = 0;
  if (nd == 1) {
    const double a = s1[0], b = s2[0];
    if (mode == conv_mode::full) direct_ops = a * b;
    else if (mode == conv_mode::valid) direct_ops = b >= a ? (b - a + 1) * a : (a - b + 1) * b;
    else direct_ops = a < b ? a * b : a * b - std::floor(b / 2) * std::floor((b + 1) / 2);
  } else {
    if (mode == conv_mode::same) direct_ops = prod(s1) * prod(s2);
    else direct_ops = std::min(prod(s1), prod(s2)) * prod(outs);
  }
  const double N = prod(fulls);
  const double fft_ops = 3 * N * std::log(N);
  const double offset = nd == 1 ? -1e-3 : -1e-4;
  double of = 0, od = 0, oo = offset;
  if (nd == 1) {
    switch (mode) {
      case conv_mode::valid: of = 1.89095737e-9; od = 2.1364985e-10; break;
      case conv_mode::full: of = 1.7649070e-9; od = 2.1414831e-10; break;
      case conv_mode::same:
        if (prod(s2) <= prod(s1)) {
          of = 3.2646654e-9;
          od = 2.8478277e-10;
        } else {
          of = 3.21635404e-9;
          od = 1.1773253e-8;
          oo = -1e-5;
        }
        break;
    }
  } else {
    switch (mode) {
      case conv_mode::valid: of = 1.85927e-9; od = 2.11242e-8; break;
      case conv_mode::full: of = 1.99817e-9; od = 1.66174e-8; break;
      case conv_mode::same: of = 2.04735e-9; od = 1.55367e-8; break;
    }
  }
  return of * fft_ops < od * direct_ops + oo;  // NaN (N == 0) compares false: direct
}

ndarray convolve_impl(const ndarray& in1, const ndarray& in2, conv_mode mode, conv_method method, const std::string& F) {
  if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, in2);
  check_same_ndim(in1, in2, F);
  ndarray volume = in1, kernel = in2;
  if (swap_needed(mode, volume.shape(), kernel.shape(), all_axes(volume.ndim()), F)) std::swap(volume, kernel);
  if (method == conv_method::auto_) method = choose_conv_method(volume, kernel, {.mode = mode});
  const dtype rt = promote_types(volume.dtype(), kernel.dtype());
  if (method == conv_method::fft) {
    ndarray out = fft_family(volume, kernel, {.mode = mode}, F);
    // SciPy reads out[0] to warn about NaN: an empty result raises IndexError there.
    CUSCI_EXPECTS(out.size() > 0, index_error, F + ": index 0 is out of bounds for axis 0 with size 0 (method fft)");
    if (is_integer(rt)) out = cusci::round(out);
    return out.dtype() == rt ? out : out.astype(rt);
  }
  check_direct(volume, kernel, mode, rt, F);
  const dtype cd = direct_compute_dtype(rt);
  const direct_plan d = direct_shape(mode, volume.shape(), kernel.shape());
  ndarray out = run_direct(volume.astype(cd, false), reversed_view(kernel.astype(cd, false)), d, false, false);
  return cd == rt ? out : out.astype(rt);
}

}  // namespace

ndarray convolve(const ndarray& in1, const ndarray& in2, const convolve_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::convolve");
  return convolve_impl(in1, in2, opts.mode, opts.method, "cusci::signal::convolve");
}

ndarray correlate(const ndarray& in1, const ndarray& in2, const convolve_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::correlate");
  const std::string F = "cusci::signal::correlate";
  if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, is_complex(in2.dtype()) ? conj(in2) : in2);
  check_same_ndim(in1, in2, F);
  if (opts.method != conv_method::direct) {
    ndarray r = reversed_view(in2);
    if (is_complex(r.dtype())) r = conj(r);
    return convolve_impl(in1, r, opts.mode, opts.method, F);
  }
  const dtype rt = promote_types(in1.dtype(), in2.dtype());
  const bool swapped = swap_needed(opts.mode, in1.shape(), in2.shape(), all_axes(in1.ndim()), F);
  const ndarray& big = swapped ? in2 : in1;
  const ndarray& small = swapped ? in1 : in2;
  check_direct(big, small, opts.mode, rt, F);
  const dtype cd = direct_compute_dtype(rt);
  const bool cx = is_complex(cd);
  ndarray out;
  if (!swapped) {
    direct_plan d = direct_shape(opts.mode, in1.shape(), in2.shape());
    out = run_direct(in1.astype(cd, false), in2.astype(cd, false), d, false, cx);
  } else {
    // reverse(conj(correlate(in2, in1))) == sum_k rev(conj(in2))[n + k] * rev(in1)[k]
    direct_plan d = direct_shape(conv_mode::valid, in2.shape(), in1.shape());
    out = run_direct(reversed_view(in2.astype(cd, false)), reversed_view(in1.astype(cd, false)), d, cx, false);
  }
  return cd == rt ? out : out.astype(rt);
}

ndarray fftconvolve(const ndarray& in1, const ndarray& in2, const fftconvolve_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::fftconvolve");
  return fft_family(in1, in2, opts, "cusci::signal::fftconvolve");
}

ndarray oaconvolve(const ndarray& in1, const ndarray& in2, const fftconvolve_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::oaconvolve");
  return fft_family(in1, in2, opts, "cusci::signal::oaconvolve");
}

namespace {

ndarray conv2d_impl(const ndarray& in1_in, const ndarray& in2_in, const convolve2d_options& opts, bool conv) {
  const std::string F = conv ? "cusci::signal::convolve2d" : "cusci::signal::correlate2d";
  CUSCI_EXPECTS(in1_in.ndim() == 2 && in2_in.ndim() == 2, value_error,
                F + ": " + (conv ? "convolve2d" : "correlate2d") + " inputs must both be 2-D arrays, got shapes " +
                    shape_str(in1_in.shape()) + " and " + shape_str(in2_in.shape()));
  const bool swapped = swap_needed(opts.mode, in1_in.shape(), in2_in.shape(), {0, 1}, F);
  const ndarray& in1 = swapped ? in2_in : in1_in;
  const ndarray& in2 = swapped ? in1_in : in2_in;
  const dtype rt = promote_types(in1.dtype(), in2.dtype());
  CUSCI_EXPECTS(rt != dtype::bool_ && rt != dtype::float16, value_error,
                F + ": convolve2d not available for this type (" + std::string(dtype_name(rt)) + ")");
  const std::complex<double> fill = opts.fillvalue.value<std::complex<double>>();
  CUSCI_EXPECTS(is_complex(rt) || fill.imag() == 0.0, value_error,
                F + ": could not cast `fillvalue` directly to the output type (it was first converted to complex).");
  CUSCI_EXPECTS(in1.size() > 0 || opts.boundary == conv_boundary::fill, value_error,
                F + ": boundary wrap / symm needs a non-empty in1, got shape " + shape_str(in1.shape()));
  const i64 n0 = in1.shape()[0], n1 = in1.shape()[1], m0 = in2.shape()[0], m1 = in2.shape()[1];
  i64 r = 0, c = 0, p0 = 0, p1 = 0;
  switch (opts.mode) {
    case conv_mode::full: r = n0 + m0 - 1; c = n1 + m1 - 1; p0 = m0 - 1; p1 = m1 - 1; break;
    case conv_mode::same:
      r = n0;
      c = n1;
      p0 = conv ? m0 / 2 : (m0 - 1) / 2;
      p1 = conv ? m1 / 2 : (m1 - 1) / 2;
      break;
    case conv_mode::valid: r = n0 - m0 + 1; c = n1 - m1 + 1; break;
  }
  CUSCI_EXPECTS(r >= 0 && c >= 0, value_error,
                F + ": negative output shape for inputs " + shape_str(in1.shape()) + " and " + shape_str(in2.shape()));
  const dtype cd = direct_compute_dtype(rt);
  const ndarray x = in1.astype(cd, false);
  const ndarray w = conv ? reversed_view(in2.astype(cd, false)) : in2.astype(cd, false);
  ndarray out = detail::direct_correlate2d(x, w, r, c, p0, p1, opts.boundary, fill, !conv && is_complex(cd),
                                           !conv && swapped);
  return cd == rt ? out : out.astype(rt);
}

}  // namespace

ndarray convolve2d(const ndarray& in1, const ndarray& in2, const convolve2d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::convolve2d");
  return conv2d_impl(in1, in2, opts, true);
}

ndarray correlate2d(const ndarray& in1, const ndarray& in2, const convolve2d_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::correlate2d");
  return conv2d_impl(in1, in2, opts, false);
}

conv_method choose_conv_method(const ndarray& in1, const ndarray& in2, const choose_conv_method_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::choose_conv_method");
  const bool i1 = is_integer(in1.dtype()), i2 = is_integer(in2.dtype());
  if (i1 || i2) {
    auto maxabs = [](const ndarray& a) {
      // int(np.max(np.abs(a))): truncation toward zero of the maximum
      return std::trunc(cusci::max(cusci::abs(a)).astype(dtype::float64).item<double>());
    };
    double mv = maxabs(in1) * maxabs(in2);
    mv *= static_cast<double>(std::min(in1.size(), in2.size()));
    if (mv > 4503599627370495.0) return conv_method::direct;  // 2**52 - 1
  }
  if (in1.dtype() == dtype::bool_ && in2.dtype() == dtype::bool_) return conv_method::direct;
  return fftconv_faster(in1.shape(), in2.shape(), opts.mode) ? conv_method::fft : conv_method::direct;
}

host_array correlation_lags(std::int64_t in1_len, std::int64_t in2_len, conv_mode mode) {
  CUSCI_NVTX_SCOPE("cusci::signal::correlation_lags");
  auto arange = [](i64 a, i64 b) {
    std::vector<i64> v;
    for (i64 t = a; t < b; ++t) v.push_back(t);
    return v;
  };
  // Python's slice [start:stop] on a sequence of length n.
  auto pyslice = [](const std::vector<i64>& v, i64 start, i64 stop) {
    const i64 n = static_cast<i64>(v.size());
    auto norm = [n](i64 i) { return i < 0 ? std::max<i64>(0, i + n) : std::min(i, n); };
    const i64 s = norm(start), e = norm(stop);
    return e > s ? std::vector<i64>(v.begin() + s, v.begin() + e) : std::vector<i64>{};
  };
  auto floordiv = [](i64 a, i64 b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); };
  std::vector<i64> lags;
  if (mode == conv_mode::full) {
    lags = arange(-in2_len + 1, in1_len);
  } else if (mode == conv_mode::same) {
    lags = arange(-in2_len + 1, in1_len);
    const i64 mid = floordiv(static_cast<i64>(lags.size()), 2), lb = floordiv(in1_len, 2);
    lags = in1_len % 2 == 0 ? pyslice(lags, mid - lb, mid + lb) : pyslice(lags, mid - lb, mid + lb + 1);
  } else {
    const i64 lb = in1_len - in2_len;
    lags = lb >= 0 ? arange(0, lb + 1) : arange(lb, 1);
  }
  host_array h(dtype::int64, shape_t{static_cast<i64>(lags.size())});
  std::copy(lags.begin(), lags.end(), h.data_as<std::int64_t>());
  return h;
}

deconvolve_result deconvolve(const ndarray& signal, const ndarray& divisor) {
  CUSCI_NVTX_SCOPE("cusci::signal::deconvolve");
  const std::string F = "cusci::signal::deconvolve";
  const ndarray num = signal.ndim() == 0 ? signal.reshape(shape_t{1}) : signal;
  const ndarray den = divisor.ndim() == 0 ? divisor.reshape(shape_t{1}) : divisor;
  CUSCI_EXPECTS(num.ndim() == 1 && num.size() > 0, value_error,
                F + ": Parameter signal must be non-empty 1d array, but its shape is " + shape_str(num.shape()) + "!");
  CUSCI_EXPECTS(den.ndim() == 1 && den.size() > 0, value_error,
                F + ": Parameter divisor must be non-empty 1d array, but its shape is " + shape_str(den.shape()) + "!");
  const i64 N = num.size(), D = den.size();
  if (D > N) return {empty(shape_t{0}, dtype::float64), num};
  const bool cx = is_complex(num.dtype()) || is_complex(den.dtype());
  host_array hn = to_host(num.astype(dtype::complex128)), hd = to_host(den.astype(dtype::complex128));
  const auto* pn = hn.data_as<std::complex<double>>();
  const auto* pd = hd.data_as<std::complex<double>>();
  CUSCI_EXPECTS(pd[0] != std::complex<double>(0.0), value_error,
                F + ": BUG: filter coefficient a[0] == 0 not supported yet");
  // lfilter(num, den, impulse): the long division's quotient, then rem = num - convolve(den, quot).
  const i64 Q = N - D + 1;
  std::vector<std::complex<double>> q(static_cast<std::size_t>(Q)), rem(static_cast<std::size_t>(N));
  for (i64 k = 0; k < Q; ++k) {
    std::complex<double> acc = pn[k];
    for (i64 j = 1; j < D && j <= k; ++j) acc -= pd[j] * q[static_cast<std::size_t>(k - j)];
    q[static_cast<std::size_t>(k)] = acc / pd[0];
  }
  for (i64 n = 0; n < N; ++n) {
    std::complex<double> acc = 0;
    for (i64 j = std::max<i64>(0, n - Q + 1); j <= std::min(n, D - 1); ++j) acc += pd[j] * q[static_cast<std::size_t>(n - j)];
    rem[static_cast<std::size_t>(n)] = pn[n] - acc;
  }
  const dtype out_dt = cx ? dtype::complex128 : dtype::float64;
  auto upload = [&](const std::vector<std::complex<double>>& v) {
    host_array h(dtype::complex128, shape_t{static_cast<i64>(v.size())});
    std::copy(v.begin(), v.end(), h.data_as<std::complex<double>>());
    return asarray(cx ? h : h.astype(out_dt));
  };
  return {upload(q), upload(rem)};
}

}  // namespace cusci::signal
