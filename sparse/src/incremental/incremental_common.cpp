// Shared host code of the incremental family: value conversion with SciPy's assignment rules,
// host triplets, uploads and downloads.

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <cuda_runtime_api.h>

#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "incremental/incremental_detail.hpp"

namespace cusci::sparse::detail::incremental {

void check_dtype(const char* fn, dtype t) {
  CUSCI_EXPECTS(is_supported_dtype(t), type_error,
                std::string(fn) + ": scipy.sparse does not support dtype " + std::string(dtype_name(t)) +
                    ". The only supported types are: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
                    "float32, float64, complex64, complex128.");
}

void check_shape2(const char* fn, shape2 shape) {
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                std::string(fn) + ": 'shape' elements cannot be negative, got " + cusci::detail::shape_str(shape));
}

std::int64_t wrap_index(const char* fn, const char* what, std::int64_t i, std::int64_t n) {
  const std::int64_t w = i < 0 ? i + n : i;
  CUSCI_EXPECTS(w >= 0 && w < n, index_error,
                std::string(fn) + ": " + what + " index (" + std::to_string(i) + ") out of range");
  return w;
}

namespace {

template <class T>
struct is_cplx : std::false_type {};
template <class T>
struct is_cplx<std::complex<T>> : std::true_type {};

template <class T>
T convert(const char* fn, const scalar& s, dtype t) {
  const dtype sd = s.dtype();
  if constexpr (is_cplx<T>::value) {
    return s.value<T>();
  } else {
    if (is_complex(sd) && s.is_weak())
      throw type_error(std::string(fn) + ": cannot convert a complex value to dtype " + std::string(dtype_name(t)) +
                       " (SciPy: TypeError)");
    if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>) {
      return s.value<T>();
    } else {
      const bool weak = s.is_weak();
      if (!is_inexact(sd)) {  // bool or integer source: exact
        if (sd == dtype::uint64) {
          const std::uint64_t u = s.value<std::uint64_t>();
          CUSCI_EXPECTS(!weak || u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()), value_error,
                        std::string(fn) + ": Python integer " + std::to_string(u) + " out of bounds for " +
                            std::string(dtype_name(t)));
          return static_cast<T>(u);
        }
        const std::int64_t i = s.value<std::int64_t>();
        bool fits;
        if constexpr (std::is_unsigned_v<T>)
          fits = i >= 0 && static_cast<std::uint64_t>(i) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
        else
          fits = i >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                 i <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
        CUSCI_EXPECTS(!weak || fits, value_error,
                      std::string(fn) + ": Python integer " + std::to_string(i) + " out of bounds for " +
                          std::string(dtype_name(t)));
        return static_cast<T>(i);
      }
      const double d = s.value<std::complex<double>>().real();
      if (weak && std::isnan(d))
        throw value_error(std::string(fn) + ": cannot convert float NaN to integer");
      if (weak && std::isinf(d))
        throw value_error(std::string(fn) + ": cannot convert float infinity to integer");
      return scalar::of(std::complex<double>(d), t).value<T>();
    }
  }
}

}  // namespace

void encode(const char* fn, const scalar& s, dtype t, std::byte* out) {
  visit(t, [&](auto tg) {
    using T = typename decltype(tg)::type;
    if constexpr (std::is_same_v<T, bool>) {
      const std::uint8_t b = convert<bool>(fn, s, t) ? 1 : 0;
      std::memcpy(out, &b, 1);
    } else {
      const T v = convert<T>(fn, s, t);
      std::memcpy(out, &v, sizeof(T));
    }
  });
}

scalar decode(const std::byte* p, dtype t) {
  return visit(t, [&](auto tg) -> scalar {
    using T = typename decltype(tg)::type;
    if constexpr (std::is_same_v<T, bool>) {
      std::uint8_t b;
      std::memcpy(&b, p, 1);
      return scalar::of(std::complex<double>(b != 0 ? 1.0 : 0.0), t);
    } else {
      T v;
      std::memcpy(&v, p, sizeof(T));
      if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) return scalar(v);
      else if constexpr (is_cplx<T>::value) return scalar::of(std::complex<double>(v.real(), v.imag()), t);
      else return scalar::of(std::complex<double>(static_cast<double>(v)), t);
    }
  });
}

bool is_zero(const std::byte* p, dtype t) {
  return visit(t, [&](auto tg) {
    using T = typename decltype(tg)::type;
    if constexpr (std::is_same_v<T, bool>) {
      std::uint8_t b;
      std::memcpy(&b, p, 1);
      return b == 0;
    } else {
      T v;
      std::memcpy(&v, p, sizeof(T));
      return v == T{};
    }
  });
}

void add_into(std::byte* acc, const std::byte* p, dtype t) {
  visit(t, [&](auto tg) {
    using T = typename decltype(tg)::type;
    if constexpr (std::is_same_v<T, bool>) {
      std::uint8_t a, b;
      std::memcpy(&a, acc, 1);
      std::memcpy(&b, p, 1);
      const std::uint8_t r = (a != 0 || b != 0) ? 1 : 0;
      std::memcpy(acc, &r, 1);
    } else {
      T a, b;
      std::memcpy(&a, acc, sizeof(T));
      std::memcpy(&b, p, sizeof(T));
      T r;
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        r = static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));  // wraps, as NumPy
      } else {
        r = a + b;
      }
      std::memcpy(acc, &r, sizeof(T));
    }
  });
}

std::vector<std::byte> cast_values(const std::byte* p, std::int64_t n, dtype from, dtype to) {
  const std::size_t w = itemsize(to);
  std::vector<std::byte> out(static_cast<std::size_t>(n) * w);
  if (n == 0) return out;
  if (from == to) {
    std::memcpy(out.data(), p, out.size());
    return out;
  }
  host_array h(from, shape_t{n});
  std::memcpy(h.data(), p, static_cast<std::size_t>(n) * itemsize(from));
  const host_array c = h.astype(to);
  std::memcpy(out.data(), c.data(), out.size());
  return out;
}

host_triplets canonical_triplets(const char* fn, shape2 shape, const std::vector<std::int64_t>& row,
                                 const std::vector<std::int64_t>& col, const host_array& data,
                                 std::optional<dtype> want) {
  check_shape2(fn, shape);
  check_dtype(fn, data.dtype());
  const dtype t = want ? *want : data.dtype();
  check_dtype(fn, t);
  const std::int64_t n = static_cast<std::int64_t>(row.size());
  CUSCI_EXPECTS(data.ndim() <= 1 && static_cast<std::int64_t>(col.size()) == n && data.size() == n, value_error,
                std::string(fn) + ": row, column, and data array must all be the same length");
  for (std::int64_t k = 0; k < n; ++k) {
    CUSCI_EXPECTS(row[k] < shape[0], value_error, std::string(fn) + ": row index exceeds matrix dimensions");
    CUSCI_EXPECTS(col[k] < shape[1], value_error, std::string(fn) + ": column index exceeds matrix dimensions");
  }
  for (std::int64_t k = 0; k < n; ++k) {
    CUSCI_EXPECTS(row[k] >= 0, value_error, std::string(fn) + ": negative row index found");
    CUSCI_EXPECTS(col[k] >= 0, value_error, std::string(fn) + ": negative column index found");
  }
  const std::vector<std::byte> v =
      cast_values(static_cast<const std::byte*>(data.data()), n, data.dtype(), t);
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
    return row[a] != row[b] ? row[a] < row[b] : col[a] < col[b];
  });
  const std::size_t w = itemsize(t);
  host_triplets out;
  out.row.reserve(perm.size());
  out.col.reserve(perm.size());
  out.val.reserve(perm.size() * w);
  for (std::size_t k = 0; k < perm.size(); ++k) {
    const std::int64_t p = perm[k];
    const std::byte* src = v.data() + static_cast<std::size_t>(p) * w;
    if (!out.row.empty() && out.row.back() == row[p] && out.col.back() == col[p]) {
      add_into(out.val.data() + out.val.size() - w, src, t);
    } else {
      out.row.push_back(row[p]);
      out.col.push_back(col[p]);
      out.val.insert(out.val.end(), src, src + w);
    }
  }
  return out;
}

host_triplets download_canonical(const spmatrix& A, std::optional<dtype> t) {
  coo_matrix c = A.tocoo();
  if (!c.has_canonical_format()) c.sum_duplicates();
  ndarray d = c.data();
  if (t && *t != d.dtype()) d = d.astype(*t);
  host_triplets out;
  out.row = to_host(c.row()).astype(dtype::int64).to_vector<std::int64_t>();
  out.col = to_host(c.col()).astype(dtype::int64).to_vector<std::int64_t>();
  const host_array hv = to_host(d);
  const auto* p = static_cast<const std::byte*>(hv.data());
  out.val.assign(p, p + hv.nbytes());
  return out;
}

std::vector<ndarray> upload_parts(const std::vector<upload_part>& parts,
                                  const std::function<void(const std::vector<std::byte*>&)>& fill) {
  constexpr std::size_t align = 256;
  std::vector<std::size_t> offset(parts.size());
  std::size_t total = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    offset[k] = total;
    const std::size_t bytes = cusci::detail::checked_bytes(static_cast<std::size_t>(parts[k].n), itemsize(parts[k].t),
                                                           "cusci::sparse: upload");
    total += (bytes + align - 1) / align * align;
  }
  std::vector<ndarray> out;
  out.reserve(parts.size());
  if (total == 0) {
    std::vector<std::byte*> none(parts.size(), nullptr);
    fill(none);
    for (const auto& p : parts) out.push_back(empty(shape_t{p.n}, p.t));
    return out;
  }
  memory_ptr staging = pinned_malloc(total);
  std::vector<std::byte*> ptrs(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) ptrs[k] = static_cast<std::byte*>(staging->ptr()) + offset[k];
  fill(ptrs);
  cudaStream_t stream = get_current_stream();
  for (const auto& p : parts) out.push_back(empty(shape_t{p.n}, p.t));  // allocate all before any copy
  try {
    for (std::size_t k = 0; k < parts.size(); ++k)
      if (out[k].nbytes() > 0)
        CUSCI_CUDA_TRY(cudaMemcpyAsync(out[k].data(), ptrs[k], out[k].nbytes(), cudaMemcpyHostToDevice, stream));
  } catch (...) {
    cudaStreamSynchronize(stream);  // copies already enqueued read the staging block
    throw;
  }
  // The staging block goes back to the pinned pool once the copies have read it. Waiting here (a few
  // hundred microseconds for 10^6 entries) rather than releasing it from a host callback keeps pool
  // operations out of CUDA's callback thread, where a pool flush (cudaFreeHost) could deadlock.
  CUSCI_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace cusci::sparse::detail::incremental
