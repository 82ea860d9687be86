// watershed_ift: SciPy's argument handling (_measurements.py's watershed_ift and the checks of
// ni_measure.c's NI_WatershedIFT) around the GPU flooding (watershed_kernels.cu) and SciPy's queue
// order on the host (watershed_queue.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/segmentation.hpp"
#include "filters/filter_common.hpp"
#include "segmentation/watershed_kernels.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {

using detail::fname;

namespace {

constexpr const char* kFn = "watershed_ift";
constexpr int kMaxDims = 7;  // SciPy's WS_MAXDIM

/// The structure as bools in C order, from a host copy (nullptr: generate_binary_structure(ndim, 1)),
/// checked as SciPy's watershed_ift checks it (RuntimeError for rank and dimensions).
std::vector<char> structure_of(const host_array* structure, int ndim) {
  if (!structure) {
    std::int64_t count = 1;
    for (int d = 0; d < ndim; ++d) count *= 3;
    std::vector<char> s(static_cast<std::size_t>(count), 0);
    for (std::int64_t k = 0; k < count; ++k) {
      std::int64_t rem = k, dist = 0;
      for (int d = 0; d < ndim; ++d) {
        dist += (rem % 3 == 1) ? 0 : 1;
        rem /= 3;
      }
      s[static_cast<std::size_t>(k)] = dist <= 1;
    }
    return s;
  }
  if (structure->ndim() != ndim)
    throw runtime_error(fname(kFn) + ": structure and input must have equal rank (structure " +
                        std::to_string(structure->ndim()) + "-D, input " + std::to_string(ndim) + "-D)");
  for (const std::int64_t n : structure->shape())
    if (n != 3)
      throw runtime_error(fname(kFn) + ": structure dimensions must be equal to 3, got " +
                          cusci::detail::shape_str(structure->shape()));
  const host_array h = structure->astype(dtype::bool_);
  const bool* b = h.data_as<bool>();
  std::vector<char> s(static_cast<std::size_t>(h.size()), 0);
  for (std::size_t k = 0; k < s.size(); ++k) s[k] = b[k] ? 1 : 0;
  return s;
}

/// SciPy's checks in SciPy's order (input dtype, structure, markers' shape and dtype, output dtype,
/// output shape, rank); returns the structure and the result dtype.
struct plan {
  std::vector<char> structure;
  dtype out;
  std::int64_t n;
};

void check_input_dtype(dtype it) {
  if (it != dtype::uint8 && it != dtype::uint16)
    throw type_error(fname(kFn) + ": only 8 and 16 unsigned inputs are supported (input dtype " +
                     std::string(dtype_name(it)) + ")");
}

plan check_rest(const shape_t& in_shape, std::vector<char> s, const shape_t& mk_shape, dtype mk,
                std::optional<dtype> out_array, const shape_t* out_shape) {
  if (mk_shape != in_shape)
    throw runtime_error(fname(kFn) + ": input and markers must have equal shape (input " +
                        cusci::detail::shape_str(in_shape) + ", markers " + cusci::detail::shape_str(mk_shape) + ")");
  if (!is_signed_integer(mk))
    throw runtime_error(fname(kFn) + ": marker should be of integer type (int8, int16, int32 or int64; got " +
                        std::string(dtype_name(mk)) + ")");
  // SciPy: an output array must be of a signed integer dtype; a dtype argument is ignored (the
  // result takes the markers' dtype).
  if (out_array && !is_signed_integer(*out_array))
    throw runtime_error(fname(kFn) + ": output should be of integer type (int8, int16, int32 or int64; got " +
                        std::string(dtype_name(*out_array)) + ")");
  if (out_shape && *out_shape != in_shape)
    throw runtime_error(fname(kFn) + ": output shape not correct (output " + cusci::detail::shape_str(*out_shape) +
                        ", input " + cusci::detail::shape_str(in_shape) + ")");
  const int nd = static_cast<int>(in_shape.size());
  if (nd > kMaxDims)
    throw runtime_error(fname(kFn) + ": too many dimensions (at most 7, got " + std::to_string(nd) + ")");
  const std::int64_t n = cusci::detail::checked_size(in_shape, fname(kFn));
  if (n >= (std::int64_t{1} << 31))
    throw not_implemented_error(fname(kFn) + ": inputs of 2**31 elements or more are not supported, got " +
                                std::to_string(n));
  return plan{std::move(s), out_array.value_or(mk), n};
}

/// SciPy's neighbour offsets: the structure's true elements in C order as flat C-order offsets of
/// the input (zero offsets dropped; the centre is one).
std::vector<std::int64_t> flat_offsets(const shape_t& shape, const std::vector<char>& s) {
  const int nd = static_cast<int>(shape.size());
  std::vector<std::int64_t> strides(static_cast<std::size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  std::vector<std::int64_t> offsets;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (!s[k]) continue;
    std::int64_t rem = static_cast<std::int64_t>(k), off = 0;
    for (int d = nd - 1; d >= 0; --d) {
      off += (rem % 3 - 1) * strides[d];
      rem /= 3;
    }
    if (off != 0) offsets.push_back(off);
  }
  return offsets;
}

/// SciPy's queue on host copies: values (any unsigned dtype of the input), markers, the output dtype.
host_array queue_on_host(const host_array& input, const host_array& markers, dtype odt,
                         const std::vector<char>& s) {
  const host_array is_mark = markers.astype(dtype::int32);  // SciPy reads markers as C ints
  host_array labels = is_mark.astype(odt).astype(dtype::int64);
  if (input.ndim() > 0 && input.size() > 0) {
    const host_array values = input.astype(dtype::uint16);
    detail::watershed_queue_host(values.data_as<std::uint16_t>(), is_mark.data_as<std::int32_t>(),
                                 labels.data_as<std::int64_t>(), input.size(), flat_offsets(input.shape(), s));
  }
  return labels.astype(odt);
}

}  // namespace

ndarray watershed_ift(const ndarray& input, const ndarray& markers, const watershed_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::watershed_ift");
  check_input_dtype(input.dtype());
  const int nd = input.ndim();
  std::optional<host_array> st;
  if (opts.structure) st = to_host(*opts.structure);
  const output_arg& out = opts.output;
  std::optional<dtype> out_dt;
  if (out.is_array()) out_dt = out.array().dtype();
  const plan pl = check_rest(input.shape(), structure_of(st ? &*st : nullptr, nd), markers.shape(),
                             markers.dtype(), out_dt, out.is_array() ? &out.array().shape() : nullptr);
  if (markers.device() != input.device())
    throw value_error(fname(kFn) + ": markers are on device " + std::to_string(markers.device()) +
                      ", input on device " + std::to_string(input.device()));
  if (out.is_array() && out.array().device() != input.device())
    throw value_error(fname(kFn) + ": output is on device " + std::to_string(out.array().device()) +
                      ", input on device " + std::to_string(input.device()));
  const dtype odt = pl.out;
  ndarray result;
  if (opts.scipy_order) {
    result = asarray(queue_on_host(to_host(input), to_host(markers), odt, pl.structure));
  } else {
    // SciPy reads each marker into a C int and writes it to the output dtype; the output's value
    // (its sign included) is what propagates.
    const ndarray is_mark = ascontiguousarray(markers).astype(dtype::int32);
    const ndarray labels = is_mark.astype(odt).astype(dtype::int64);
    if (nd == 0 || pl.n == 0) {
      result = labels.astype(odt);
    } else {
      const ndarray values = ascontiguousarray(input).astype(dtype::uint16);
      result = detail::watershed_flood(values, is_mark, labels, flat_offsets(input.shape(), pl.structure)).astype(odt);
    }
  }
  if (!out.is_array()) return result;
  ndarray dst = out.array();
  detail::deliver_output(result, out, kFn);
  return dst;
}

host_array watershed_ift(const host_array& input, const host_array& markers, const watershed_host_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::watershed_ift");
  check_input_dtype(input.dtype());
  const plan pl = check_rest(input.shape(), structure_of(opts.structure ? &*opts.structure : nullptr, input.ndim()),
                             markers.shape(), markers.dtype(), opts.output, nullptr);
  return queue_on_host(input, markers, pl.out, pl.structure);
}

}  // namespace cusci::ndimage
