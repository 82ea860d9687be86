#pragma once
// Internal helpers of the incremental family (dok_matrix, lil_matrix): host values stored as raw
// bytes of the matrix's dtype, their conversion from and to cusci::scalar with SciPy's rules,
// typed addition for duplicate triplets, and the upload/download of triplets. Host code only.

#include <complex>
#include <functional>
#include <optional>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::detail::incremental {

template <class T>
struct tag {
  using type = T;
};

/// Calls f(tag<T>{}) for the host type T of a value dtype of cusci::sparse (float16 excluded).
template <class F>
decltype(auto) visit(dtype t, F&& f) {
  switch (t) {
    case dtype::bool_: return f(tag<bool>{});
    case dtype::int8: return f(tag<std::int8_t>{});
    case dtype::int16: return f(tag<std::int16_t>{});
    case dtype::int32: return f(tag<std::int32_t>{});
    case dtype::int64: return f(tag<std::int64_t>{});
    case dtype::uint8: return f(tag<std::uint8_t>{});
    case dtype::uint16: return f(tag<std::uint16_t>{});
    case dtype::uint32: return f(tag<std::uint32_t>{});
    case dtype::uint64: return f(tag<std::uint64_t>{});
    case dtype::float32: return f(tag<float>{});
    case dtype::float64: return f(tag<double>{});
    case dtype::complex64: return f(tag<std::complex<float>>{});
    case dtype::complex128: return f(tag<std::complex<double>>{});
    default: break;
  }
  throw type_error("cusci::sparse: unsupported value dtype " + std::string(dtype_name(t)));
}

/// Throws type_error (SciPy's wording) unless t is a value dtype of cusci::sparse.
void check_dtype(const char* fn, dtype t);
/// Throws value_error unless both dimensions are non-negative.
void check_shape2(const char* fn, shape2 shape);
/// Wraps a negative index and checks it against n ("row"/"column" in the message).
std::int64_t wrap_index(const char* fn, const char* what, std::int64_t i, std::int64_t n);

/// Converts `s` to dtype t as SciPy's element assignment does (see dok_matrix::set) and writes
/// itemsize(t) bytes to out.
void encode(const char* fn, const scalar& s, dtype t, std::byte* out);
/// The stored value at p as a scalar (int64/uint64: exact weak scalars; others strong of dtype t).
scalar decode(const std::byte* p, dtype t);
/// Whether the stored value at p is zero.
bool is_zero(const std::byte* p, dtype t);
/// *acc += *p (integers wrap, bool: or).
void add_into(std::byte* acc, const std::byte* p, dtype t);

/// `n` values of dtype `from` cast to `to` with NumPy's unsafe casting (through host_array::astype).
std::vector<std::byte> cast_values(const std::byte* p, std::int64_t n, dtype from, dtype to);

/// Checked, sorted and summed host triplets (SciPy's coo_matrix((data, (row, col))).sum_duplicates()):
/// entries in row-major order, values in dtype `t`.
struct host_triplets {
  std::vector<std::int64_t> row, col;
  std::vector<std::byte> val;
};
host_triplets canonical_triplets(const char* fn, shape2 shape, const std::vector<std::int64_t>& row,
                                 const std::vector<std::int64_t>& col, const host_array& data,
                                 std::optional<dtype> t);

/// Entries of a device matrix downloaded in SciPy's canonical order (tocoo, then sum_duplicates when
/// not canonical), values cast to `t` when given. Synchronizes.
host_triplets download_canonical(const spmatrix& A, std::optional<dtype> t);

/// One part of a staged upload: a 1-D device array [n] of dtype t.
struct upload_part {
  dtype t;
  std::int64_t n;
};
/// Device arrays [parts[k].n] of dtype parts[k].t, written on the host straight into one pinned staging
/// block (`fill` receives a pointer per part, 256-byte aligned) and moved with one host-to-device copy
/// per array. Synchronizes with the current stream once the copies are enqueued; the staging block then
/// returns to the pinned pool.
std::vector<ndarray> upload_parts(const std::vector<upload_part>& parts,
                                  const std::function<void(const std::vector<std::byte*>&)>& fill);


}  // namespace cusci::sparse::detail::incremental
