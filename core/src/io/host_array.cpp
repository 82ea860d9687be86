/// @file host_array.cpp
/// host_array: a C-contiguous, zero-initialized host buffer with a dtype, and its host-side casts.

#include <unistd.h>

#include <complex>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"

namespace cusci {
namespace {

template <class T> struct is_std_complex : std::false_type {};
template <class R> struct is_std_complex<std::complex<R>> : std::true_type {};

/// NumPy's unsafe cast of one element (the host twin of copy.cu's device cast): complex -> real keeps
/// the real part, anything -> bool is "!= 0", float -> int truncates toward zero.
template <class D, class S>
D convert(const S& v) {
  if constexpr (std::is_same_v<D, bool>) {
    if constexpr (is_std_complex<S>::value) return v.real() != 0 || v.imag() != 0;
    else return v != S(0);
  } else if constexpr (is_std_complex<D>::value) {
    using R = typename D::value_type;
    if constexpr (is_std_complex<S>::value) return D(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else return D(static_cast<R>(v), R(0));
  } else {
    if constexpr (is_std_complex<S>::value) return static_cast<D>(v.real());
    else return static_cast<D>(v);
  }
}

template <class T> struct tag { using type = T; };

template <class F>
void dispatch_host(dtype t, F&& f) {
  switch (t) {
#define CUSCI_HOST_CASE_(name, type) \
  case dtype::name: f(tag<type>{}); return;
    CUSCI_FOR_EACH_DTYPE(CUSCI_HOST_CASE_)
#undef CUSCI_HOST_CASE_
  }
  throw type_error("cusci::host_array: unknown dtype");
}

using detail::shape_str;

}  // namespace

namespace detail {
std::size_t host_memory_bytes() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}
}  // namespace detail

host_array::host_array(cusci::dtype dt, shape_t shape) : dtype_(dt), shape_(std::move(shape)) {
  const std::int64_t n = detail::checked_size(shape_, "cusci::host_array", itemsize(dt));
  const std::size_t bytes = static_cast<std::size_t>(n) * itemsize(dt);
  // More than the machine holds: fail at once (NumPy's MemoryError), instead of an allocation that
  // overcommit may grant and a zero fill that would then run for minutes or end in the OOM killer.
  const std::size_t phys = detail::host_memory_bytes();
  if (phys != 0 && bytes > phys)
    throw out_of_memory("cusci::host_array: unable to allocate " + std::to_string(bytes) + " bytes for shape " +
                            detail::shape_str(shape_) + ": more than the host's " + std::to_string(phys) +
                            " bytes of memory",
                        bytes, 0, phys, 0);
  try {
    bytes_.assign(bytes, std::byte{0});
  } catch (const std::bad_alloc&) {
    throw out_of_memory("cusci::host_array: unable to allocate " + std::to_string(bytes) + " bytes for shape " +
                            detail::shape_str(shape_),
                        bytes, 0, phys, 0);
  }
}

std::int64_t host_array::size() const noexcept {
  std::int64_t n = 1;
  for (std::int64_t d : shape_) n *= d;
  return n;
}

host_array host_array::astype(cusci::dtype dt) const {
  host_array out(dt, shape_);
  const std::int64_t n = size();
  if (n == 0) return out;
  dispatch_host(dtype_, [&](auto stag) {
    using S = typename decltype(stag)::type;
    dispatch_host(dt, [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      auto* d = reinterpret_cast<D*>(out.bytes_.data());
      if constexpr (std::is_same_v<S, bool>) {
        // Read bool bytes as bytes: any non-zero byte is True (as NumPy), and a byte other than 0 or
        // 1 written through data() would be undefined behaviour when read as a C++ bool.
        const auto* s = reinterpret_cast<const unsigned char*>(bytes_.data());
        for (std::int64_t i = 0; i < n; ++i) d[i] = convert<D>(s[i] != 0);
      } else {
        const auto* s = reinterpret_cast<const S*>(bytes_.data());
        for (std::int64_t i = 0; i < n; ++i) d[i] = convert<D>(s[i]);
      }
    });
  });
  return out;
}

void host_array::copy_in(host_array& h, const void* src, std::size_t bytes) {
  CUSCI_EXPECTS(bytes == h.nbytes(), value_error,
                "cusci::host_array::from: data holds " + std::to_string(bytes) + " bytes, but shape " +
                    shape_str(h.shape_) + " of dtype " + std::string(dtype_name(h.dtype_)) + " needs " +
                    std::to_string(h.nbytes()));
  if (bytes) std::memcpy(h.bytes_.data(), src, bytes);
}

void host_array::check_type(cusci::dtype t) const {
  CUSCI_EXPECTS(t == dtype_, type_error,
                "cusci::host_array::data_as: requested element type " + std::string(dtype_name(t)) +
                    " does not match the array's dtype " + std::string(dtype_name(dtype_)));
}

}  // namespace cusci
