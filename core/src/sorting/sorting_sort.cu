/// @file sorting_sort.cu
/// sort, argsort, partition and argpartition: the public functions.
///
/// The sorted axis is moved last (a view); the elements are gathered in C order of that view as
/// ordered keys and sorted as rows (see sorting_sort.cuh): real dtypes by key width as unsigned
/// integers (sorting_sort_k*.cu, sorting_argsort_k*.cu), complex dtypes with composite keys
/// (sorting_sort_c64.cu, sorting_sort_c128.cu). One row: cub::DeviceRadixSort; several rows:
/// cub::DeviceSegmentedSort (stable). Non-last axes are copied back into C order (NumPy returns a
/// C-contiguous array for every axis).

#include <algorithm>
#include <cctype>
#include <string>

#include "sorting/sorting_sort.cuh"
#include "cusci/sorting.hpp"

namespace cusci {
namespace {

using namespace detail::srt;

rows_view make_rows(const ndarray& a, std::optional<int> axis, const char* fn) {
  rows_view r;
  if (!axis) {
    r.view = a;
    r.n = a.size();
    r.out_shape = {r.n};
    r.len = r.n;
    r.rows = r.n > 0 ? 1 : 0;
    return r;
  }
  const int ax = normalize_axis(*axis, a.ndim(), fn);
  r.view = detail::move_axis_last(a, ax);
  r.inverse = detail::inverse_perm(detail::axis_last_perm(a.ndim(), ax));
  r.out_shape = r.view.shape();
  r.n = a.size();
  r.len = a.shape()[ax];
  r.rows = r.len > 0 ? r.n / r.len : 0;
  return r;
}

ndarray finish(const rows_view& r, const ndarray& sorted) {
  if (r.inverse.empty()) return sorted;
  // NumPy returns a C-contiguous array for every axis: copy the moved-back view into C order.
  ndarray back = sorted.transpose(r.inverse);
  return back.is_c_contiguous() ? back : back.copy(order::C);
}

/// Key mode of a real dtype (complex dtypes are handled apart).
key_mode mode_of(dtype t) {
  if (t == dtype::float16 || t == dtype::float32 || t == dtype::float64) return key_mode::real;
  if (t == dtype::int8 || t == dtype::int16 || t == dtype::int32 || t == dtype::int64) return key_mode::sign;
  return key_mode::raw;  // bool, unsigned
}

ndarray sort_rows(const ndarray& a, const rows_view& r) {
  const dtype dt = a.dtype();
  if (dt == dtype::complex64) return sort_complex<float>(r, dt);
  if (dt == dtype::complex128) return sort_complex<double>(r, dt);
  const key_mode m = mode_of(dt);
  switch (itemsize(dt)) {
    case 1: return sort_bits<std::uint8_t>(r, dt, m);
    case 2: return sort_bits<std::uint16_t>(r, dt, m);
    case 4: return sort_bits<std::uint32_t>(r, dt, m);
    case 8: return sort_bits<std::uint64_t>(r, dt, m);
    default: throw type_error("cusci::sort: unsupported dtype " + std::string(dtype_name(dt)));
  }
}

ndarray argsort_rows(const ndarray& a, const rows_view& r) {
  const dtype dt = a.dtype();
  if (dt == dtype::complex64) return argsort_complex<float>(r);
  if (dt == dtype::complex128) return argsort_complex<double>(r);
  const key_mode m = mode_of(dt);
  switch (itemsize(dt)) {
    case 1: return argsort_bits<std::uint8_t>(r, m);
    case 2: return argsort_bits<std::uint16_t>(r, m);
    case 4: return argsort_bits<std::uint32_t>(r, m);
    case 8: return argsort_bits<std::uint64_t>(r, m);
    default: throw type_error("cusci::argsort: unsupported dtype " + std::string(dtype_name(dt)));
  }
}

void check_kth(const std::vector<std::int64_t>& kth, i64 len, const char* fn) {
  CUSCI_EXPECTS(!kth.empty(), value_error, std::string(fn) + ": kth must not be empty");
  for (std::int64_t k : kth) {
    if (k < -len || k >= len)
      throw value_error(std::string(fn) + ": kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(len) +
                        ")");
  }
}

i64 axis_len(const ndarray& a, std::optional<int> axis, const char* fn) {
  if (!axis) return a.size();
  return a.shape()[normalize_axis(*axis, a.ndim(), fn)];
}

}  // namespace

sort_kind parse_sort_kind(std::string_view s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!l.empty()) {
    if (l[0] == 'q') return sort_kind::quicksort;
    if (l[0] == 'm') return sort_kind::mergesort;
    if (l[0] == 'h') return sort_kind::heapsort;
    if (l[0] == 's') return sort_kind::stable;
  }
  throw value_error("cusci::sort: sort kind must be one of 'quick', 'heap', or 'stable' (got '" + std::string(s) + "')");
}

search_side parse_search_side(std::string_view s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!l.empty() && l[0] == 'l') return search_side::left;
  if (!l.empty() && l[0] == 'r') return search_side::right;
  throw value_error("cusci::searchsorted: side must be 'left' or 'right' (got '" + std::string(s) + "')");
}

ndarray sort(const ndarray& a, std::optional<int> axis, sort_options) {
  rows_view r = make_rows(a, axis, "cusci::sort");
  return finish(r, sort_rows(a, r));
}

ndarray argsort(const ndarray& a, std::optional<int> axis, sort_options) {
  rows_view r = make_rows(a, axis, "cusci::argsort");
  return finish(r, argsort_rows(a, r));
}

ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(kth, axis_len(a, axis, "cusci::partition"), "cusci::partition");
  return sort(a, axis);
}
ndarray partition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return partition(a, std::vector<std::int64_t>{kth}, axis);
}
ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(kth, axis_len(a, axis, "cusci::argpartition"), "cusci::argpartition");
  return argsort(a, axis);
}
ndarray argpartition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return argpartition(a, std::vector<std::int64_t>{kth}, axis);
}

}  // namespace cusci
