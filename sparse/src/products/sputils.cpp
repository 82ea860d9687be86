// SciPy's sparse utilities: get_index_dtype with its array and content checks (min/max reductions
// on the device) and safely_cast_index_arrays.

#include "cusci/sparse/sputils.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "cusci/detail/nvtx.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"

namespace cusci::sparse {

namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t int32_min = std::numeric_limits<std::int32_t>::min();

// NumPy's can_cast(t, int32) (safe casting).
bool casts_to_int32(dtype t) noexcept {
  switch (t) {
    case dtype::bool_:
    case dtype::int8:
    case dtype::int16:
    case dtype::int32:
    case dtype::uint8:
    case dtype::uint16: return true;
    default: return false;
  }
}

// Whether the values of a non-empty integer array all lie in int32's range (synchronizes).
bool fits_int32(const ndarray& a) {
  if (is_unsigned_integer(a.dtype())) return cusci::max(a).item<std::uint64_t>() <= static_cast<std::uint64_t>(int32_max);
  const std::int64_t lo = cusci::min(a).item<std::int64_t>();
  const std::int64_t hi = cusci::max(a).item<std::int64_t>();
  return lo >= int32_min && hi <= int32_max;
}

// np.iinfo(t).max for an integer dtype.
std::uint64_t integer_max(dtype t) {
  const std::size_t bits = 8 * itemsize(t);
  if (is_unsigned_integer(t)) return bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
  return (std::uint64_t{1} << (bits - 1)) - 1;
}

// v > max_value for a signed v (a negative v never exceeds it).
bool exceeds(std::int64_t v, std::uint64_t max_value) noexcept {
  return v > 0 && static_cast<std::uint64_t>(v) > max_value;
}

// Whether a value of the index array (int32/int64) times `factor` exceeds max_value (synchronizes;
// false for an empty array). The factor is a block dimension: max * factor stays within the matrix's
// dimension, which fits int64.
bool any_exceeds(const ndarray& idx, std::int64_t factor, std::uint64_t max_value) {
  if (idx.size() == 0) return false;
  return exceeds(cusci::max(idx).item<std::int64_t>() * factor, max_value);
}

std::int64_t last_of(const ndarray& indptr) { return indptr[indptr.size() - 1].item<std::int64_t>(); }

}  // namespace

dtype get_index_dtype(const std::vector<ndarray>& arrays, std::optional<std::int64_t> maxval, bool check_contents) {
  CUSCI_NVTX_SCOPE("cusci::sparse::get_index_dtype");
  if (maxval && *maxval > int32_max) return dtype::int64;
  for (const ndarray& a : arrays) {
    if (casts_to_int32(a.dtype())) continue;
    if (check_contents) {
      if (a.size() == 0) continue;  // a bigger type is not needed
      if (is_integer(a.dtype()) && fits_int32(a)) continue;
    }
    return dtype::int64;
  }
  return dtype::int32;
}

dtype get_index_dtype(const ndarray& array, std::optional<std::int64_t> maxval, bool check_contents) {
  return get_index_dtype(std::vector<ndarray>{array}, maxval, check_contents);
}

std::vector<ndarray> safely_cast_index_arrays(const spmatrix& A, dtype idx_dtype, const std::string& msg) {
  static constexpr const char* fn = "cusci::sparse::safely_cast_index_arrays";
  CUSCI_NVTX_SCOPE(fn);
  CUSCI_EXPECTS(is_integer(idx_dtype), value_error,
                std::string(fn) + ": idx_dtype must be an integer dtype, got " + std::string(dtype_name(idx_dtype)));
  const std::string text = msg.empty() ? "dtype " + std::string(dtype_name(idx_dtype)) : msg;
  const std::uint64_t max_value = integer_max(idx_dtype);
  const shape2 s = A.shape();
  const bool big_shape = exceeds(std::max(s[0], s[1]), max_value);
  auto fail = [&](const std::string& what) { throw value_error(std::string(fn) + ": " + what); };
  switch (A.format()) {
    case sparse::format::csr:
    case sparse::format::csc: {
      const ndarray& indices = A.holds<csr_matrix>() ? A.get<csr_matrix>().indices() : A.get<csc_matrix>().indices();
      const ndarray& indptr = A.holds<csr_matrix>() ? A.get<csr_matrix>().indptr() : A.get<csc_matrix>().indptr();
      // indptr[-1] is its maximum: indptr never decreases.
      if (exceeds(last_of(indptr), max_value)) fail("indptr values too large for " + text);
      if (big_shape && any_exceeds(indices, 1, max_value)) fail("indices values too large for " + text);
      return {indices.astype(idx_dtype, false), indptr.astype(idx_dtype, false)};
    }
    case sparse::format::coo: {
      const coo_matrix& C = A.get<coo_matrix>();
      if (big_shape && (any_exceeds(C.row(), 1, max_value) || any_exceeds(C.col(), 1, max_value)))
        fail("coords values too large for " + text);
      return {C.row().astype(idx_dtype, false), C.col().astype(idx_dtype, false)};
    }
    case sparse::format::dia: {
      const dia_matrix& D = A.get<dia_matrix>();
      if (big_shape && any_exceeds(D.offsets(), 1, max_value)) fail("offsets values too large for " + text);
      return {D.offsets().astype(idx_dtype, false)};
    }
    case sparse::format::bsr: {
      const bsr_matrix& Bm = A.get<bsr_matrix>();
      const shape2 bs = Bm.blocksize();
      const std::int64_t last = last_of(Bm.indptr());
      // SciPy's own text: its message for indptr is not formatted and reads "{msg}" literally.
      if (last > 0 && exceeds(last, max_value / static_cast<std::uint64_t>(bs[0])) ) fail("indptr values too large for {msg}");
      if (big_shape && any_exceeds(Bm.indices(), bs[1], max_value)) fail("indices values too large for " + text);
      return {Bm.indices().astype(idx_dtype, false), Bm.indptr().astype(idx_dtype, false)};
    }
  }
  throw value_error(std::string(fn) + ": unknown format");
}

}  // namespace cusci::sparse
