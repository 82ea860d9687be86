// The public functions of the waveforms family (waveforms.hpp): argument checks in SciPy's order, the
// dtype rules of SciPy's NumPy expressions, the constants its Python code folds (computed here in
// double exactly as Python does), then the elementwise kernels of waveforms.cu. unit_impulse is
// core's zeros plus a basic-index fill; max_len_seq runs its shift register on the host.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numbers>
#include <string>
#include <vector>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/waveforms.hpp"
#include "waveforms/waveforms_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using cusci::detail::msg;

namespace {

constexpr double pi = 3.141592653589793;  // numpy.pi

// t as a C-contiguous array of dtype `dt` (float32 / float64); t itself when it already is one.
ndarray contiguous_as(const ndarray& t, dtype dt) {
  if (t.dtype() == dt && t.is_c_contiguous()) return t;
  ndarray out = cusci::empty(t.shape(), dt);
  if (out.size() > 0) cusci::detail::copy_cast(t, out);
  return out;
}

void check_real(const ndarray& a, const char* fn, const char* what) {
  CUSCI_EXPECTS(!is_complex(a.dtype()), type_error,
                msg(fn, std::string(what) + " must be real, got " + std::string(dtype_name(a.dtype()))));
}

// The dtype a float32-preserving expression computes t in: float32 for float16/float32 (float16 is
// cusci's deviation), float64 otherwise.
dtype weak_float_dtype(dtype t) { return (t == dtype::float32 || t == dtype::float16) ? dtype::float32 : dtype::float64; }

std::string fmt2(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

void check_gauss(const gausspulse_options& o) {
  const char* fn = "cusci::signal::gausspulse";
  CUSCI_EXPECTS(!(o.fc < 0), value_error, msg(fn, "Center frequency (fc=" + fmt2(o.fc) + ") must be >=0."));
  CUSCI_EXPECTS(!(o.bw <= 0), value_error, msg(fn, "Fractional bandwidth (bw=" + fmt2(o.bw) + ") must be > 0."));
  CUSCI_EXPECTS(!(o.bwr >= 0), value_error,
                msg(fn, "Reference level for bandwidth (bwr=" + fmt2(o.bwr) + ") must be < 0 dB"));
}

// SciPy's a = -(pi fc bw)^2 / (4 log(10^(bwr / 20))).
double gauss_a(const gausspulse_options& o) {
  const double ref = std::pow(10.0, o.bwr / 20.0);
  const double p = pi * o.fc * o.bw;
  return -(p * p) / (4.0 * std::log(ref));
}

// Result dtype of sawtooth / square: NumPy's promotion of t and w forced to floating.
dtype periodic_dtype(dtype t, const ndarray* w) {
  dtype r = w ? promote_types(t, w->dtype()) : t;
  if (!is_floating(r)) return dtype::float64;
  return weak_float_dtype(r);
}

ndarray periodic(const ndarray& t, const ndarray* w, double ws, bool square) {
  const char* fn = square ? "cusci::signal::square" : "cusci::signal::sawtooth";
  check_real(t, fn, "t");
  if (w) check_real(*w, fn, square ? "duty" : "width");
  const dtype dt = periodic_dtype(t.dtype(), w);
  if (!w) {
    const ndarray tc = contiguous_as(t, dt);
    ndarray out = cusci::empty(t.shape(), dt);
    detail::periodic_run(tc, nullptr, ws, square, out);
    return out;
  }
  const shape_t shp = broadcast_shapes(t.shape(), w->shape());
  const ndarray tc = contiguous_as(t.broadcast_to(shp), dt);
  const ndarray wc = contiguous_as(w->broadcast_to(shp), dt);
  ndarray out = cusci::empty(shp, dt);
  detail::periodic_run(tc, &wc, 0.0, square, out);
  return out;
}

}  // namespace

// ------------------------------------------------------------------------------------ chirp

chirp_method parse_chirp_method(std::string_view s) {
  if (s == "linear" || s == "lin" || s == "li") return chirp_method::linear;
  if (s == "quadratic" || s == "quad" || s == "q") return chirp_method::quadratic;
  if (s == "logarithmic" || s == "log" || s == "lo") return chirp_method::logarithmic;
  if (s == "hyperbolic" || s == "hyp") return chirp_method::hyperbolic;
  throw value_error(msg("cusci::signal::chirp",
                        "method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of '" +
                            std::string(s) + "' was given."));
}

namespace detail {
chirp_consts chirp_consts_of(double f0, double t1, double f1, const chirp_options& o) {
  const char* fn = "cusci::signal::chirp";
  chirp_consts c;
  c.complex = o.complex;
  c.phi = o.phi * (pi / 180.0);  // np.deg2rad
  const double two_pi = 2 * pi;
  switch (o.method) {
    case chirp_method::linear: {
      CUSCI_EXPECTS(t1 != 0.0, value_error, msg(fn, "float division by zero (t1 must be nonzero)"));
      const double beta = (f1 - f0) / t1;
      c.kind = 0;
      c.k = two_pi;
      c.a = f0;
      c.b = 0.5 * beta;
      break;
    }
    case chirp_method::quadratic: {
      const double t1sq = t1 * t1;
      CUSCI_EXPECTS(t1sq != 0.0, value_error, msg(fn, "float division by zero (t1 must be nonzero)"));
      const double beta = (f1 - f0) / t1sq;
      c.k = two_pi;
      c.b = beta;
      if (o.vertex_zero) {
        c.kind = 1;
        c.a = f0;
      } else {
        c.kind = 2;
        c.a = f1;
        c.c = t1;
        c.d = std::pow(t1, 3.0);  // Python's t1 ** 3 for a float
      }
      break;
    }
    case chirp_method::logarithmic: {
      CUSCI_EXPECTS(!(f0 * f1 <= 0.0), value_error,
                    msg(fn, "For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign."));
      if (f0 == f1) {
        c.kind = 5;
        c.k = two_pi * f0;
      } else {
        const double beta = t1 / std::log(f1 / f0);
        c.kind = 3;
        c.a = f1 / f0;
        c.c = t1;
        c.strong = two_pi * beta * f0;
      }
      break;
    }
    case chirp_method::hyperbolic: {
      CUSCI_EXPECTS(f0 != 0 && f1 != 0, value_error, msg(fn, "For a hyperbolic chirp, f0 and f1 must be nonzero."));
      if (f0 == f1) {
        c.kind = 5;
        c.k = two_pi * f0;
      } else {
        const double sing = -f1 * t1 / (f0 - f1);
        c.kind = 4;
        c.a = sing;
        c.k = two_pi * (-sing * f0);
      }
      break;
    }
  }
  return c;
}
}  // namespace detail

ndarray chirp(const ndarray& t, double f0, double t1, double f1, const chirp_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::chirp");
  check_real(t, "cusci::signal::chirp", "t");
  const detail::chirp_consts c = detail::chirp_consts_of(f0, t1, f1, opts);
  const ndarray tc = contiguous_as(t, weak_float_dtype(t.dtype()));
  ndarray out = cusci::empty(t.shape(), opts.complex ? dtype::complex128 : dtype::float64);
  detail::chirp_run(tc, c, out);
  return out;
}

// ------------------------------------------------------------------------------------ gausspulse

gausspulse_result gausspulse(const ndarray& t, const gausspulse_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::gausspulse");
  check_gauss(opts);
  check_real(t, "cusci::signal::gausspulse", "t");
  const double a = gauss_a(opts);
  const ndarray tc = contiguous_as(t, weak_float_dtype(t.dtype()));
  gausspulse_result r;
  r.yI = cusci::empty(t.shape(), dtype::float64);
  if (opts.retquad) r.yQ = cusci::empty(t.shape(), dtype::float64);
  if (opts.retenv) r.yenv = cusci::empty(t.shape(), dtype::float64);
  detail::gausspulse_run(tc, a, 2 * pi * opts.fc, r.yI.data_as<double>(), r.yQ ? r.yQ->data_as<double>() : nullptr,
                         r.yenv ? r.yenv->data_as<double>() : nullptr);
  return r;
}

double gausspulse_cutoff(const gausspulse_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::gausspulse_cutoff");
  check_gauss(opts);
  const double a = gauss_a(opts);
  CUSCI_EXPECTS(!(opts.tpr >= 0), value_error,
                msg("cusci::signal::gausspulse", "Reference level for time cutoff must be < 0 dB"));
  const double tref = std::pow(10.0, opts.tpr / 20.0);
  return std::sqrt(-std::log(tref) / a);
}

double gausspulse(std::string_view t, const gausspulse_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::gausspulse");
  check_gauss(opts);
  CUSCI_EXPECTS(t == "cutoff", value_error,
                msg("cusci::signal::gausspulse", "If `t` is a string, it must be 'cutoff'"));
  return gausspulse_cutoff(opts);
}

// ------------------------------------------------------------------------------------ sawtooth, square

ndarray sawtooth(const ndarray& t, double width) { return periodic(t, nullptr, width, false); }
ndarray sawtooth(const ndarray& t, const ndarray& width) { return periodic(t, &width, 0.0, false); }
ndarray square(const ndarray& t, double duty) { return periodic(t, nullptr, duty, true); }
ndarray square(const ndarray& t, const ndarray& duty) { return periodic(t, &duty, 0.0, true); }

// ------------------------------------------------------------------------------------ sweep_poly

ndarray sweep_poly(const ndarray& t, const std::vector<double>& poly, double phi) {
  CUSCI_NVTX_SCOPE("cusci::signal::sweep_poly");
  check_real(t, "cusci::signal::sweep_poly", "t");
  // numpy.polyint: p[i] / (n - i), then the integration constant 0.
  const std::size_t n = poly.size();
  std::vector<double> q(n + 1);
  for (std::size_t i = 0; i < n; ++i) q[i] = poly[i] / static_cast<double>(n - i);
  q[n] = 0.0;
  const ndarray tc = contiguous_as(t, weak_float_dtype(t.dtype()));
  ndarray out = cusci::empty(t.shape(), dtype::float64);
  if (out.size() == 0) return out;
  const ndarray qd = asarray(q);
  detail::sweep_poly_run(tc, qd, 2 * pi, phi * (pi / 180), out);
  return out;
}

// ------------------------------------------------------------------------------------ unit_impulse

ndarray unit_impulse(const shape_t& shape, const std::vector<std::int64_t>& idx, dtype dt) {
  CUSCI_NVTX_SCOPE("cusci::signal::unit_impulse");
  const char* fn = "cusci::signal::unit_impulse";
  for (auto d : shape) CUSCI_EXPECTS(d >= 0, value_error, msg(fn, "negative dimensions are not allowed"));
  CUSCI_EXPECTS(idx.size() <= shape.size(), index_error,
                msg(fn, "too many indices for array: array is " + std::to_string(shape.size()) +
                            "-dimensional, but " + std::to_string(idx.size()) + " were indexed"));
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::int64_t n = shape[k], i = idx[k];
    CUSCI_EXPECTS(i >= -n && i < n, index_error,
                  msg(fn, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(k) +
                              " with size " + std::to_string(n)));
  }
  ndarray out = cusci::zeros(shape, dt);
  std::vector<index_spec> ix(idx.begin(), idx.end());
  ndarray v = ix.empty() ? out : out[ix];
  v.fill(scalar(1));
  return out;
}

ndarray unit_impulse(const shape_t& shape, std::optional<std::int64_t> idx, dtype dt) {
  CUSCI_NVTX_SCOPE("cusci::signal::unit_impulse");
  return unit_impulse(shape, std::vector<std::int64_t>(shape.size(), idx.value_or(0)), dt);
}

ndarray unit_impulse(const shape_t& shape, std::string_view idx, dtype dt) {
  CUSCI_NVTX_SCOPE("cusci::signal::unit_impulse");
  CUSCI_EXPECTS(idx == "mid", index_error,
                msg("cusci::signal::unit_impulse",
                    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                    "boolean arrays are valid indices, got '" + std::string(idx) + "'"));
  std::vector<std::int64_t> mid(shape.size());
  for (std::size_t k = 0; k < shape.size(); ++k) mid[k] = shape[k] >= 0 ? shape[k] / 2 : -((-shape[k] + 1) / 2);
  return unit_impulse(shape, mid, dt);
}

// ------------------------------------------------------------------------------------ max_len_seq

namespace detail {
// SciPy's default taps (the first entry of each nbits in its table), nbits 2..32.
const std::vector<std::int64_t>* mls_default_taps(int nbits) {
  static const std::vector<std::vector<std::int64_t>> table = {
      {1},          {2},          {3},          {3},      {5},          {6},      {7, 6, 1},    {5},
      {7},          {9},          {11, 10, 4},  {12, 11, 8}, {13, 12, 2}, {14},   {15, 13, 4},  {14},
      {11},         {18, 17, 14}, {17},         {19},     {21},         {18},     {23, 22, 17}, {22},
      {25, 24, 20}, {26, 25, 22}, {25},         {27},     {29, 28, 7},  {28},     {31, 30, 10}};
  if (nbits < 2 || nbits > 32) return nullptr;
  return &table[static_cast<std::size_t>(nbits - 2)];
}

// The register loop of SciPy's _max_len_seq_inner (a ring buffer: no shifting).
void mls_run(const std::vector<std::int64_t>& taps, std::vector<std::int8_t>& state, int nbits, std::int64_t length,
             std::int8_t* seq) {
  std::int64_t idx = 0;
  const std::int64_t nb = nbits;
  for (std::int64_t i = 0; i < length; ++i) {
    std::int8_t fb = state[static_cast<std::size_t>(idx)];
    seq[i] = fb;
    for (auto tp : taps) fb ^= state[static_cast<std::size_t>((tp + idx) % nb)];
    state[static_cast<std::size_t>(idx)] = fb;
    idx = (idx + 1) % nb;
  }
  std::rotate(state.begin(), state.begin() + idx, state.end());
}
}  // namespace detail

max_len_seq_result max_len_seq(int nbits, const max_len_seq_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::signal::max_len_seq");
  const char* fn = "cusci::signal::max_len_seq";
  std::vector<std::int64_t> taps;
  if (!opts.taps) {
    const auto* d = detail::mls_default_taps(nbits);
    CUSCI_EXPECTS(d != nullptr, value_error, msg(fn, "nbits must be between 2 and 32 if taps is None"));
    taps = *d;
  } else {
    taps = *opts.taps;
    std::sort(taps.begin(), taps.end());
    taps.erase(std::unique(taps.begin(), taps.end()), taps.end());
    std::reverse(taps.begin(), taps.end());
    bool ok = !taps.empty();
    for (auto v : taps) ok = ok && v >= 0 && v <= nbits;
    CUSCI_EXPECTS(ok, value_error, msg(fn, "taps must be non-empty with values between zero and nbits (inclusive)"));
  }
  std::int64_t length;
  if (opts.length) {
    length = *opts.length;
    CUSCI_EXPECTS(length >= 0, value_error, msg(fn, "length must be greater than or equal to 0"));
  } else {
    CUSCI_EXPECTS(nbits <= 62, value_error,
                  msg(fn, "the default length 2**nbits - 1 does not fit for nbits=" + std::to_string(nbits)));
    length = (std::int64_t{1} << nbits) - 1;
  }
  std::vector<std::int8_t> state;
  if (opts.state) {
    for (double v : *opts.state) state.push_back(v != 0.0 ? 1 : 0);
  } else {
    state.assign(static_cast<std::size_t>(std::max(nbits, 0)), 1);
  }
  CUSCI_EXPECTS(static_cast<std::int64_t>(state.size()) == nbits, value_error,
                msg(fn, "state must be a 1-D array of size nbits"));
  CUSCI_EXPECTS(std::any_of(state.begin(), state.end(), [](std::int8_t v) { return v != 0; }), value_error,
                msg(fn, "state must not be all zeros"));
  std::vector<std::int8_t> seq;
  try {
    seq.resize(static_cast<std::size_t>(length));
  } catch (const std::exception&) {  // std::bad_alloc / length_error: NumPy's MemoryError
    throw out_of_memory(msg(fn, "cannot allocate a host sequence of " + std::to_string(length) + " bytes"),
                        static_cast<std::size_t>(length), 0, 0, 0);
  }
  detail::mls_run(taps, state, nbits, length, seq.data());
  max_len_seq_result r;
  r.seq = asarray(seq);
  r.state = host_array::from(state);
  return r;
}

}  // namespace cusci::signal
