// label, find_objects and value_indices: SciPy's argument handling (_measurements.py, _ni_label.pyx,
// ni_measure.c) around the passes of label_kernels.cu and measure_sort.cu.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "cusci/reduction.hpp"
#include "cusci/scalar.hpp"
#include "filters/filter_common.hpp"
#include "measurements/measure_kernels.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {

using detail::fname;

namespace {

/// The structure as bools in C order (default: generate_binary_structure(ndim, 1)), checked as
/// SciPy's label checks it.
std::vector<char> structure_of(const std::optional<ndarray>& structure, int ndim, const char* fn) {
  std::int64_t count = 1;
  for (int d = 0; d < ndim; ++d) count *= 3;
  std::vector<char> s(static_cast<std::size_t>(count), 0);
  if (!structure) {
    for (std::int64_t k = 0; k < count; ++k) {
      std::int64_t rem = k, dist = 0;
      for (int d = 0; d < ndim; ++d) {
        dist += (rem % 3 == 1) ? 0 : 1;
        rem /= 3;
      }
      s[k] = dist <= 1;
    }
    return s;
  }
  if (structure->ndim() != ndim)
    throw runtime_error(fname(fn) + ": structure and input must have equal rank (structure " +
                        std::to_string(structure->ndim()) + "-D, input " + std::to_string(ndim) + "-D)");
  for (const std::int64_t n : structure->shape())
    if (n != 3)
      throw value_error(fname(fn) + ": structure dimensions must be equal to 3, got " +
                        cusci::detail::shape_str(structure->shape()));
  const host_array h = to_host(*structure).astype(dtype::bool_);
  const bool* b = h.data_as<bool>();
  for (std::int64_t k = 0; k < count; ++k) s[k] = b[k] ? 1 : 0;
  return s;
}

/// The most labels an output dtype holds for SciPy (beyond them SciPy raises "insufficient
/// bit-depth in requested output type"); -1: no limit.
std::int64_t label_capacity(dtype t) {
  switch (t) {
    case dtype::bool_: return 254;
    case dtype::int8: return 127;
    case dtype::uint8: return 255;
    case dtype::int16: return 32767;
    case dtype::uint16: return 65535;
    default: return -1;
  }
}

}  // namespace

label_result label(const ndarray& input, const label_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::label");
  const char* fn = "label";
  if (is_complex(input.dtype())) throw type_error(fname(fn) + ": Complex type not supported");
  const int nd = input.ndim();
  const std::vector<char> s = structure_of(opts.structure, nd, fn);
  const std::int64_t n = cusci::detail::checked_size(input.shape(), fname(fn));
  const bool need_64bits = n >= (std::int64_t{1} << 31) - 2;
  const output_arg& out = opts.output;
  if (out.is_array() && out.array().shape() != input.shape())
    throw value_error(fname(fn) + ": output shape not correct: output " + cusci::detail::shape_str(out.array().shape()) +
                      ", input " + cusci::detail::shape_str(input.shape()));
  const dtype odt = out.dtype().value_or(need_64bits ? dtype::int64 : dtype::int32);
  auto deliver = [&](ndarray labels32, std::int64_t count) {
    if (out.is_array()) {
      ndarray dst = out.array();
      detail::deliver_output(labels32.astype(odt), out, fn);  // SciPy's cast into the given array
      return label_result{dst, count};
    }
    return label_result{labels32.astype(odt, /*copy=*/false), count};  // int32: no copy
  };
  if (nd == 0 || n == 0) {
    std::int64_t count = 0;
    if (nd == 0) count = to_host(input).astype(dtype::bool_).data_as<bool>()[0] ? 1 : 0;
    ndarray l = full(input.shape(), scalar(count), dtype::int32);
    return deliver(l, count);
  }
  if (odt == dtype::float16 || is_complex(odt))
    throw type_error(fname(fn) + ": No matching signature found (output dtype " + std::string(dtype_name(odt)) + ")");
  // SciPy's _ni_label asserts a symmetric structure.
  const std::size_t cnt = s.size();
  for (std::size_t k = 0; k < cnt; ++k)
    if (s[k] != s[cnt - 1 - k]) throw value_error(fname(fn) + ": Structuring element is not symmetric");
  if (need_64bits)
    throw not_implemented_error(fname(fn) + ": inputs of 2**31 - 2 elements or more are not supported, got " +
                                std::to_string(n));
  // The backward half of the structure: offsets before the centre in C order.
  std::vector<std::int64_t> deltas;
  int n_offsets = 0;
  for (std::size_t k = 0; k < cnt / 2; ++k) {
    if (!s[k]) continue;
    std::int64_t rem = static_cast<std::int64_t>(k);
    std::vector<std::int64_t> o(static_cast<std::size_t>(nd));
    for (int d = nd - 1; d >= 0; --d) {
      o[d] = rem % 3 - 1;
      rem /= 3;
    }
    deltas.insert(deltas.end(), o.begin(), o.end());
    ++n_offsets;
  }
  const ndarray x = ascontiguousarray(input);
  ndarray labels32 = empty(input.shape(), dtype::int32);
  const std::int64_t count = detail::label_pass(x, deltas.data(), n_offsets, labels32);
  const std::int64_t cap = label_capacity(odt);
  if (cap >= 0 && count > cap)
    throw runtime_error(fname(fn) + ": insufficient bit-depth in requested output type (" + std::to_string(count) +
                        " features, output dtype " + std::string(dtype_name(odt)) + ")");
  return deliver(labels32, count);
}

std::vector<std::optional<object_slices>> find_objects(const ndarray& input, std::int64_t max_label) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::find_objects");
  const char* fn = "find_objects";
  const dtype t = input.dtype();
  if (is_complex(t)) throw type_error(fname(fn) + ": Complex type not supported");
  if (!is_integer(t) && !is_bool(t))
    throw type_error(fname(fn) + ": input must be an integer or bool array, got dtype " + std::string(dtype_name(t)));
  if (max_label < 1) {
    if (is_bool(t))
      throw type_error(fname(fn) + ": 'numpy.bool' object cannot be interpreted as an integer (give max_label)");
    if (input.size() == 0)
      throw value_error(fname(fn) + ": zero-size array to reduction operation maximum which has no identity");
    max_label = cusci::max(input).astype(dtype::int64).item<std::int64_t>();
  }
  std::vector<std::optional<object_slices>> result;
  if (max_label < 1) return result;
  (void)cusci::detail::checked_mul(max_label, 2 * std::max<std::int64_t>(input.ndim(), 1), fname(fn));
  ndarray l = input;
  if (t != dtype::int32 && t != dtype::int64) l = l.astype(dtype::int64);
  l = ascontiguousarray(l);
  ndarray bbox;
  detail::find_objects_pass(l, max_label, bbox);
  const host_array h = to_host(bbox);
  const auto* b = h.data_as<std::int64_t>();
  const int nd = input.ndim();
  result.reserve(static_cast<std::size_t>(max_label));
  for (std::int64_t k = 0; k < max_label; ++k) {
    const std::int64_t* e = b + k * nd * 2;
    if (nd > 0 && e[1] < 0) {
      result.emplace_back(std::nullopt);
      continue;
    }
    object_slices sl;
    sl.reserve(static_cast<std::size_t>(nd));  // one allocation per object (10^5 objects: host-bound)
    for (int d = 0; d < nd; ++d) sl.push_back(cusci::slice{e[2 * d], e[2 * d + 1] + 1, std::nullopt});
    result.emplace_back(std::move(sl));
  }
  return result;
}

std::map<std::int64_t, std::vector<ndarray>> value_indices(const ndarray& arr, const value_indices_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::value_indices");
  const char* fn = "value_indices";
  const dtype t = arr.dtype();
  if (!is_integer(t)) throw value_error(fname(fn) + ": Parameter 'arr' must be an integer array");
  if (opts.ignore_value) {
    const std::int64_t v = *opts.ignore_value;
    bool ok = true;
    if (is_unsigned_integer(t)) ok = v >= 0 && (itemsize(t) == 8 || (v >> (8 * itemsize(t))) == 0);
    else if (itemsize(t) < 8) ok = v >= -(std::int64_t{1} << (8 * itemsize(t) - 1)) && v < (std::int64_t{1} << (8 * itemsize(t) - 1));
    if (!ok)
      throw value_error(fname(fn) + ": Python integer " + std::to_string(v) + " out of bounds for " +
                        std::string(dtype_name(t)));
  }
  const ndarray keys = ascontiguousarray(arr.astype(dtype::int64));
  ndarray positions, unique, counts, coords;
  const std::int64_t runs = detail::sort_and_encode(keys, positions, unique, counts);
  detail::unravel_flat(positions, arr.shape(), coords);
  std::map<std::int64_t, std::vector<ndarray>> result;
  if (runs == 0) return result;
  const host_array u = to_host(unique[{cusci::slice{0, runs, std::nullopt}}]);
  const host_array c = to_host(counts[{cusci::slice{0, runs, std::nullopt}}]);
  const auto* uv = u.data_as<std::int64_t>();
  const auto* cv = c.data_as<std::int64_t>();
  std::int64_t off = 0;
  for (std::int64_t r = 0; r < runs; ++r) {
    const std::int64_t value = uv[r], count = cv[r];
    if (!(opts.ignore_value && *opts.ignore_value == value)) {
      std::vector<ndarray> idx;
      for (int d = 0; d < arr.ndim(); ++d)
        idx.push_back(coords[{static_cast<std::int64_t>(d), cusci::slice{off, off + count, std::nullopt}}]);
      result.emplace(value, std::move(idx));
    }
    off += count;
  }
  return result;
}

}  // namespace cusci::ndimage
