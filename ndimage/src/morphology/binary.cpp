// Host wrappers of cusci::ndimage's binary morphology: SciPy 1.18.1's argument handling
// (scipy/ndimage/_morphology.py: _binary_erosion and the functions built on it), in SciPy's order,
// then the passes of binary_kernels.cu.
//
// Data flow: the input (any dtype and layout) becomes a C-contiguous 0/1 byte image (a bool input
// that is already C-contiguous is read in place); the mask likewise. Passes ping-pong between the
// destination and one temporary bool array, so that the last pass writes the destination. The
// destination is the output array itself when it is a C-contiguous bool array sharing no memory with
// the input or the mask; otherwise a temporary that is cast into the output at the end (which makes
// an output aliasing the input give the same values as a separate one, as SciPy's temporary does).
//
// iterations > 1: where the structure fits the fused path (binary_fused_max_passes), up to 8 passes
// run in one launch (temporal blocking in shared memory, binary_kernels.cu): one launch per pass
// (~15-25 us each on 4096^2 on the H200, plus the host cost) made binary_opening(iterations=10)
// cost more than 10 single erosions; fused, 10 + 10 iterations take 4 launches (~150-190 us
// expected in all, host work included). Otherwise one launch per pass.
//
// iterations < 1: passes are enqueued in batches of `batch` with one int flag each ("changed");
// a pass whose predecessor changed nothing returns at once on the device, and the host reads the
// batch's flags once (one synchronization per batch) to find the pass that converged.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/morphology.hpp"
#include "filters/filter_common.hpp"
#include "morphology/binary_kernels.hpp"

namespace cusci::ndimage {
namespace {

using detail::fname;
using i64 = std::int64_t;

constexpr int batch = 32;

/// A structure as bool bytes and its shape.
struct bstruct {
  shape_t shape;
  std::vector<std::uint8_t> v;
};

bstruct to_bstruct(const host_array& h) {
  const host_array b = h.astype(dtype::bool_);
  bstruct s{b.shape(), std::vector<std::uint8_t>(static_cast<std::size_t>(b.size()))};
  const bool* p = b.data_as<bool>();
  for (std::size_t i = 0; i < s.v.size(); ++i) s.v[i] = p[i] ? 1 : 0;
  return s;
}

/// All axes reversed (SciPy's structure[::-1, ::-1, ...]).
bstruct mirrored(const bstruct& s) {
  bstruct m = s;
  std::reverse(m.v.begin(), m.v.end());  // reversing every axis of a C-ordered array reverses it flat
  return m;
}


void check_data_type(dtype t, const char* fn) {
  CUSCI_EXPECTS(t != dtype::float16 && !is_complex(t), runtime_error, fname(fn) + ": data type not supported (" +
                                                                          std::string(dtype_name(t)) + ")");
}

/// A C-contiguous bool view or copy of `a` (non-zero: true).
ndarray as_bool_c(const ndarray& a) {
  if (a.dtype() == dtype::bool_ && a.is_c_contiguous()) return a;
  ndarray b = a.astype(dtype::bool_, false);
  if (!b.is_c_contiguous()) b = b.copy(order::C);
  return b;
}

const std::uint8_t* bytes(const ndarray& a) { return static_cast<const std::uint8_t*>(a.data()); }
std::uint8_t* wbytes(const ndarray& a) { return static_cast<std::uint8_t*>(a.data()); }

/// Everything a binary erosion needs after SciPy's checks.
struct erosion_job {
  shape_t shape;
  bstruct s;                  // expanded to ndim
  std::vector<i64> origin;    // expanded to ndim
  bool cit = false;           // SciPy's center_is_true
};

/// The device passes of SciPy's _binary_erosion, from the validated job, into `dst` (bool C).
void run_passes(const char* fn, const erosion_job& job, const ndarray& in, const ndarray& dst, i64 iterations,
                const std::optional<ndarray>& mask_any, int border_value, bool invert, bool brute_force) {
  const int nd = static_cast<int>(job.shape.size());
  detail::binary_geometry g;
  g.ndim = nd;
  g.size = in.size();
  for (int d = 0; d < nd; ++d) g.shape[d] = job.shape[static_cast<std::size_t>(d)];
  std::vector<i64> table;
  std::vector<i64> cstride(static_cast<std::size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d)
    cstride[static_cast<std::size_t>(d)] = cstride[static_cast<std::size_t>(d) + 1] * job.shape[static_cast<std::size_t>(d) + 1];
  for (int d = 0; d < nd; ++d) {
    g.lo[d] = 0;
    g.hi[d] = 0;
  }
  bool first = true;
  const i64 ssize = static_cast<i64>(job.s.v.size());
  for (i64 k = 0; k < ssize; ++k) {
    if (!job.s.v[static_cast<std::size_t>(k)]) continue;
    std::vector<i64> dl(static_cast<std::size_t>(nd));
    i64 rem = k, flat = 0;
    for (int d = nd - 1; d >= 0; --d) {
      const i64 n = job.s.shape[static_cast<std::size_t>(d)];
      dl[static_cast<std::size_t>(d)] = rem % n - n / 2 - job.origin[static_cast<std::size_t>(d)];
      rem /= n;
    }
    for (int d = 0; d < nd; ++d) flat += dl[static_cast<std::size_t>(d)] * cstride[static_cast<std::size_t>(d)];
    table.push_back(flat);
    for (int d = 0; d < nd; ++d) {
      const i64 v = dl[static_cast<std::size_t>(d)];
      g.lo[d] = first ? v : std::min(g.lo[d], v);
      g.hi[d] = first ? v : std::max(g.hi[d], v);
      table.push_back(v);
    }
    first = false;
    ++g.points;
  }
  // The device copy of the table only for the generic kernel: a copy from host memory waits for the
  // stream, which would serialize back-to-back calls.
  ndarray dtab;
  const i64* dt = nullptr;
  if (!detail::binary_plane_fits(g)) {
    host_array ht(dtype::int64, shape_t{static_cast<i64>(std::max<std::size_t>(table.size(), 1))});
    if (!table.empty()) std::memcpy(ht.data(), table.data(), table.size() * sizeof(i64));
    dtab = asarray(ht);
    dt = static_cast<const i64*>(dtab.data());
  }

  std::optional<ndarray> m1, m2;
  if (mask_any) {
    m1 = as_bool_c(*mask_any);
    // SciPy's update-list path (several iterations, centre in the structure, brute_force false)
    // reads the mask converted to int8 after the first iteration.
    if (iterations != 1 && job.cit && !brute_force) {
      const dtype mt = mask_any->dtype();
      if (mt == dtype::bool_ || mt == dtype::int8 || mt == dtype::uint8) m2 = m1;
      else m2 = as_bool_c(mask_any->astype(dtype::int8));
    } else {
      m2 = m1;
    }
  }
  const std::uint8_t* mk1 = m1 ? bytes(*m1) : nullptr;
  const std::uint8_t* mk2 = m2 ? bytes(*m2) : nullptr;
  const bool bv = border_value != 0;
  const bool use_or = invert;
  auto pass = [&](const std::uint8_t* src, std::uint8_t* out, const std::uint8_t* mk, int* changed, const int* prev) {
    detail::binary_pass(src, out, mk, g, table.data(), dt, use_or, bv, changed, prev);
  };
  if (iterations == 1) {
    pass(bytes(in), wbytes(dst), mk1, nullptr, nullptr);
    return;
  }
  const int fmax = iterations > 1 ? detail::binary_fused_max_passes(g) : 0;
  if (iterations > 1 && fmax >= 2) {
    // Fused launches of up to fmax passes each (balanced sizes), after a single first pass when the
    // first iteration reads another mask than the later ones. Launch l (1-based) of L writes dst
    // when L - l is even.
    const i64 first = mk1 != mk2 ? 1 : 0;
    const i64 rest = iterations - first;
    const i64 nf = (rest + fmax - 1) / fmax;
    const i64 size_lo = rest / nf, extra = rest % nf;  // the first `extra` launches do size_lo + 1
    const i64 launches = first + nf;
    const ndarray tmp = launches > 1 ? empty(job.shape, dtype::bool_) : ndarray{};
    const std::uint8_t* src = bytes(in);
    for (i64 l = 1; l <= launches; ++l) {
      std::uint8_t* out = ((launches - l) % 2 == 0) ? wbytes(dst) : wbytes(tmp);
      if (l <= first) {
        pass(src, out, mk1, nullptr, nullptr);
      } else {
        const i64 f = l - first;
        const int n = static_cast<int>(size_lo + (f <= extra ? 1 : 0));
        if (n == 1) pass(src, out, mk2, nullptr, nullptr);
        else detail::binary_fused_passes(src, out, mk2, g, table.data(), use_or, bv, n);
      }
      src = out;
    }
    return;
  }
  ndarray tmp = empty(job.shape, dtype::bool_);
  if (iterations > 1) {
    // pass k (1-based) writes dst when iterations - k is even.
    for (i64 k = 1; k <= iterations; ++k) {
      std::uint8_t* out = ((iterations - k) % 2 == 0) ? wbytes(dst) : wbytes(tmp);
      const std::uint8_t* src = k == 1 ? bytes(in) : (((iterations - k) % 2 == 0) ? bytes(tmp) : bytes(dst));
      pass(src, out, k == 1 ? mk1 : mk2, nullptr, nullptr);
    }
    return;
  }
  // iterations < 1: until a pass changes nothing. Pass k writes dst for odd k, tmp for even k.
  const i64 cap = job.cit ? -1 : 2 * g.size + 2;  // a non-centred structure may never converge
  ndarray flags = empty(shape_t{batch + 1}, dtype::int32);
  i64 k = 0;
  while (true) {
    flags.fill(0);
    int* f = static_cast<int*>(flags.data());
    for (int j = 1; j <= batch; ++j) {
      const i64 kk = k + j;
      std::uint8_t* out = (kk % 2 == 1) ? wbytes(dst) : wbytes(tmp);
      const std::uint8_t* src = kk == 1 ? bytes(in) : ((kk % 2 == 1) ? bytes(tmp) : bytes(dst));
      pass(src, out, kk == 1 ? mk1 : mk2, f + j, j == 1 ? nullptr : f + j - 1);
    }
    const host_array hf = flags.get();  // synchronizes: once per batch
    const int* hp = hf.data_as<std::int32_t>();
    for (int j = 1; j <= batch; ++j) {
      if (hp[j] == 0) {
        const i64 kk = k + j;
        if (kk % 2 == 0) detail::copy_into(tmp, dst);
        return;
      }
    }
    k += batch;
    CUSCI_EXPECTS(cap < 0 || k < cap, runtime_error,
                  fname(fn) + ": iterations < 1 did not converge after " + std::to_string(k) +
                      " iterations (the structure's centre is false, the result oscillates)");
  }
}

/// SciPy's _binary_erosion: checks, then the passes; returns the result (new bool array or `output`).
ndarray erosion_core(const char* fn, const ndarray& input, const std::optional<bstruct>& structure, i64 iterations,
                     const std::optional<ndarray>& mask, const output_arg& output, int border_value,
                     const per_axis<i64>& origin_in, bool invert, bool brute_force,
                     const std::optional<std::vector<int>>& axes_in) {
  const int ndim = input.ndim();
  CUSCI_EXPECTS(!is_complex(input.dtype()), type_error, fname(fn) + ": Complex type not supported");
  const std::vector<int> axes = detail::check_axes(axes_in, ndim, fn);
  const int num_axes = static_cast<int>(axes.size());
  bstruct s = structure ? *structure : to_bstruct(generate_binary_structure(num_axes, 1));
  if (ndim > num_axes) {
    CUSCI_EXPECTS(static_cast<int>(s.shape.size()) == num_axes, runtime_error,
                  fname(fn) + ": structure.ndim (" + std::to_string(s.shape.size()) + ") must match len(axes) (" +
                      std::to_string(num_axes) + ")");
    // np.expand_dims inserts the length-1 axes; the structure's axes keep their order and land on
    // the filtered axes in increasing order (whatever the order of `axes`), the data unchanged.
    std::vector<int> sorted_axes = axes;
    std::sort(sorted_axes.begin(), sorted_axes.end());
    shape_t full(static_cast<std::size_t>(ndim), 1);
    for (int j = 0; j < num_axes; ++j)
      full[static_cast<std::size_t>(sorted_axes[static_cast<std::size_t>(j)])] = s.shape[static_cast<std::size_t>(j)];
    s.shape = full;
  }
  CUSCI_EXPECTS(static_cast<int>(s.shape.size()) == ndim, runtime_error,
                fname(fn) + ": structure and input must have same dimensionality (structure " +
                    std::to_string(s.shape.size()) + "-d, input " + std::to_string(ndim) + "-d)");
  CUSCI_EXPECTS(!s.v.empty(), runtime_error, fname(fn) + ": structure must not be empty");
  if (mask)
    CUSCI_EXPECTS(mask->shape() == input.shape(), runtime_error,
                  fname(fn) + ": mask and input must have equal sizes (mask " + cusci::detail::shape_str(mask->shape()) +
                      ", input " + cusci::detail::shape_str(input.shape()) + ")");
  std::vector<i64> o = detail::expand(origin_in, static_cast<std::size_t>(num_axes), fn, "origin");
  std::vector<i64> origin(static_cast<std::size_t>(ndim), 0);
  if (num_axes < ndim) {
    for (int j = 0; j < num_axes; ++j) origin[static_cast<std::size_t>(axes[static_cast<std::size_t>(j)])] = o[static_cast<std::size_t>(j)];
  } else {
    origin = o;
  }
  i64 centre = 0;
  for (int d = 0; d < ndim; ++d) {
    const i64 n = s.shape[static_cast<std::size_t>(d)];
    const i64 od = origin[static_cast<std::size_t>(d)];
    CUSCI_EXPECTS(od >= -(n / 2) && od <= (n - 1) / 2, value_error,
                  fname(fn) + ": invalid origin " + std::to_string(od) + " for a structure of length " + std::to_string(n) +
                      " along axis " + std::to_string(d) + " (expected " + std::to_string(-(n / 2)) + " <= origin <= " +
                      std::to_string((n - 1) / 2) + ")");
    centre = centre * n + od + n / 2;
  }
  erosion_job job{input.shape(), std::move(s), std::move(origin), false};
  job.cit = job.s.v[static_cast<std::size_t>(centre)] != 0;
  if (output.is_array())
    CUSCI_EXPECTS(!is_complex(output.array().dtype()), type_error, fname(fn) + ": Complex output type not supported");
  detail::check_output_shape(output, input.shape(), fn);
  if (input.size() > 0) {  // SciPy's C loop tests the dtypes per element
    check_data_type(input.dtype(), fn);
    if (mask) check_data_type(mask->dtype(), fn);
    if (output.is_array()) check_data_type(output.array().dtype(), fn);
  }
  CUSCI_EXPECTS(ndim <= detail::binary_max_axes, value_error,
                fname(fn) + ": arrays of more than " + std::to_string(detail::binary_max_axes) + " axes are not supported");

  const int device = output.is_array() ? output.array().device() : input.device();
  if (output.is_array())
    CUSCI_EXPECTS(output.array().device() == input.device(), value_error,
                  fname(fn) + ": the output array lives on another device than the input");
  if (input.size() == 0) return output.is_array() ? output.array() : empty(input.shape(), dtype::bool_);
  (void)device;
  const ndarray in = as_bool_c(input);
  bool direct = false;
  if (output.is_array()) {
    const ndarray& oa = output.array();
    direct = oa.dtype() == dtype::bool_ && oa.is_c_contiguous() && !detail::may_share_memory(oa, input) &&
             !detail::may_share_memory(oa, in) && !(mask && detail::may_share_memory(oa, *mask));
  }
  const ndarray dst = direct ? output.array() : empty(input.shape(), dtype::bool_);
  run_passes(fn, job, in, dst, iterations, mask, border_value, invert, brute_force);
  if (!output.is_array() || direct) return dst;
  detail::copy_into(dst, output.array());
  return output.array();
}

/// SciPy's binary_dilation: mirrors the structure and adjusts the origins, then _binary_erosion with
/// invert.
ndarray dilation_core(const char* fn, const ndarray& input, const std::optional<host_array>& structure, i64 iterations,
                      const std::optional<ndarray>& mask, const output_arg& output, int border_value,
                      const per_axis<i64>& origin_in, bool brute_force, const std::optional<std::vector<int>>& axes_in) {
  const std::vector<int> axes = detail::check_axes(axes_in, input.ndim(), fn);
  const int num_axes = static_cast<int>(axes.size());
  bstruct s = structure ? to_bstruct(*structure) : to_bstruct(generate_binary_structure(num_axes, 1));
  std::vector<i64> origin = detail::expand(origin_in, static_cast<std::size_t>(num_axes), fn, "origin");
  s = mirrored(s);
  for (std::size_t d = 0; d < origin.size(); ++d) {
    origin[d] = -origin[d];
    if (d < s.shape.size() && (s.shape[d] & 1) == 0) origin[d] -= 1;
  }
  return erosion_core(fn, input, s, iterations, mask, output, border_value, per_axis<i64>(origin), true, brute_force,
                      axes_in);
}

/// The checks SciPy makes on an `output=` array in the second step of binary_opening / binary_closing,
/// made before the first step's device work.
void precheck_output(const output_arg& output, const ndarray& input, const char* fn) {
  if (!output.is_array()) return;
  CUSCI_EXPECTS(!is_complex(output.array().dtype()), type_error, fname(fn) + ": Complex output type not supported");
  detail::check_output_shape(output, input.shape(), fn);
  if (input.size() > 0) check_data_type(output.array().dtype(), fn);
}

std::optional<bstruct> opt_struct(const std::optional<host_array>& h) {
  if (!h) return std::nullopt;
  return to_bstruct(*h);
}

}  // namespace

ndarray binary_erosion(const ndarray& input, const binary_options& o) {
  return erosion_core("binary_erosion", input, opt_struct(o.structure), o.iterations, o.mask, o.output, o.border_value,
                      o.origin, false, o.brute_force, o.axes);
}

ndarray binary_dilation(const ndarray& input, const binary_options& o) {
  return dilation_core("binary_dilation", input, o.structure, o.iterations, o.mask, o.output, o.border_value, o.origin,
                       o.brute_force, o.axes);
}

ndarray binary_opening(const ndarray& input, const binary_opening_options& o) {
  const char* fn = "binary_opening";
  const std::vector<int> axes = detail::check_axes(o.axes, input.ndim(), fn);
  const host_array s = o.structure ? *o.structure : generate_binary_structure(static_cast<int>(axes.size()), 1);
  precheck_output(o.output, input, fn);
  const ndarray tmp = erosion_core(fn, input, to_bstruct(s), o.iterations, o.mask, output_arg{}, o.border_value, o.origin,
                                   false, o.brute_force, o.axes);
  return dilation_core(fn, tmp, s, o.iterations, o.mask, o.output, o.border_value, o.origin, o.brute_force, o.axes);
}

ndarray binary_closing(const ndarray& input, const binary_opening_options& o) {
  const char* fn = "binary_closing";
  const std::vector<int> axes = detail::check_axes(o.axes, input.ndim(), fn);
  const host_array s = o.structure ? *o.structure : generate_binary_structure(static_cast<int>(axes.size()), 1);
  precheck_output(o.output, input, fn);
  const ndarray tmp =
      dilation_core(fn, input, s, o.iterations, o.mask, output_arg{}, o.border_value, o.origin, o.brute_force, o.axes);
  return erosion_core(fn, tmp, to_bstruct(s), o.iterations, o.mask, o.output, o.border_value, o.origin, false,
                      o.brute_force, o.axes);
}

ndarray binary_hit_or_miss(const ndarray& input, const hit_or_miss_options& o) {
  const char* fn = "binary_hit_or_miss";
  const std::vector<int> axes = detail::check_axes(o.axes, input.ndim(), fn);
  const bstruct s1 = o.structure1 ? to_bstruct(*o.structure1) : to_bstruct(generate_binary_structure(static_cast<int>(axes.size()), 1));
  bstruct s2;
  if (o.structure2) {
    s2 = to_bstruct(*o.structure2);
  } else {
    s2 = s1;
    for (auto& v : s2.v) v = v ? 0 : 1;
  }
  const per_axis<i64> origin2 = o.origin2 ? *o.origin2 : o.origin1;
  CUSCI_EXPECTS(!is_complex(input.dtype()), type_error, fname(fn) + ": Complex type not supported");
  if (o.output.is_array()) {  // SciPy checks it in the second erosion; checked here before device work
    CUSCI_EXPECTS(!is_complex(o.output.array().dtype()), type_error, fname(fn) + ": Complex output type not supported");
    detail::check_output_shape(o.output, input.shape(), fn);
    check_data_type(o.output.array().dtype(), fn);
  }
  const ndarray tmp1 = erosion_core(fn, input, s1, 1, std::nullopt, output_arg{}, 0, o.origin1, false, false, o.axes);
  const ndarray r = erosion_core(fn, input, s2, 1, std::nullopt, output_arg{}, 0, origin2, true, false, o.axes);
  if (input.size() == 0) return o.output.is_array() ? o.output.array() : r;
  ndarray res = empty(input.shape(), dtype::bool_);
  detail::bytes_and_not(bytes(tmp1), bytes(r), wbytes(res), input.size());
  if (!o.output.is_array()) return res;
  detail::copy_into(res, o.output.array());
  return o.output.array();
}

ndarray binary_propagation(const ndarray& input, const propagation_options& o) {
  return dilation_core("binary_propagation", input, o.structure, -1, o.mask, o.output, o.border_value, o.origin, false,
                       o.axes);
}

ndarray binary_fill_holes(const ndarray& input, const fill_holes_options& o) {
  const char* fn = "binary_fill_holes";
  if (o.output.is_array()) {
    CUSCI_EXPECTS(!is_complex(o.output.array().dtype()), type_error, fname(fn) + ": Complex output type not supported");
    detail::check_output_shape(o.output, input.shape(), fn);
  }
  // mask = NOT input (any dtype, complex and float16 included, as np.logical_not).
  ndarray mask = empty(input.shape(), dtype::bool_);
  if (input.size() > 0) {
    const ndarray b = as_bool_c(input);
    detail::bytes_not(bytes(b), wbytes(mask), input.size());
  }
  const ndarray tmp = zeros(input.shape(), dtype::bool_);
  const ndarray r = dilation_core(fn, tmp, o.structure, -1, mask, output_arg{}, 1, o.origin, false, o.axes);
  if (o.output.is_array()) check_data_type(o.output.array().dtype(), fn);
  if (input.size() == 0) return o.output.is_array() ? o.output.array() : r;
  ndarray res = empty(input.shape(), dtype::bool_);
  detail::bytes_not(bytes(r), wbytes(res), input.size());
  if (!o.output.is_array()) return res;
  detail::copy_into(res, o.output.array());
  return o.output.array();
}

}  // namespace cusci::ndimage
