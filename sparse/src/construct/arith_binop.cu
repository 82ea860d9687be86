// Elementwise binary operations of two canonical compressed (CSR/CSC) matrices: SciPy's sparsetools
// csr_binop_csr family (plus, minus, elmul, eldiv, maximum, minimum, ne, lt, gt, le, ge) as a row
// merge on the device. Pass 1 counts, per row, the union positions whose result is nonzero; an
// exclusive scan (CUB) turns the counts into the result's indptr; pass 2 writes the entries.
// One thread per row (grid-stride): rows are merged sequentially, so neighbouring threads read
// neighbouring segments; the traffic is two reads of both inputs and one write of the result.

#include <cstdint>
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <cuda/std/complex>

#include "construct/arith_detail.hpp"
#include "cusci/detail/dispatch.cuh"
#include "cusci/detail/indexer.cuh"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::sparse::detail {
namespace {

using cusci::detail::is_complex_v;

template <class T>
__device__ __forceinline__ bool nonzero(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v;
  else return v != T(0);
}

// Lexicographic order for complex values (SciPy's complex wrappers), the built-in one otherwise.
template <class T>
__device__ __forceinline__ bool lt(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
template <class T>
__device__ __forceinline__ bool le(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) return a.real() < b.real() || (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}

// SciPy's sparsetools divides complex values by the textbook formula
// (a.re*b.re + a.im*b.im, a.im*b.re - a.re*b.im) * (1 / |b|^2), the reciprocal taken in double and
// rounded to the value type, not by a scaled (Smith) division: a / 0 is therefore nan+nanj for every
// a (cuda::std::complex would give infinities). Kept verbatim so csr_eldiv_csr's answers match.
template <class T>
__device__ __forceinline__ T sparsetools_complex_div(const T& a, const T& b) {
  using V = typename T::value_type;
  const V denom = static_cast<V>(1.0 / static_cast<double>(b.real() * b.real() + b.imag() * b.imag()));
  return T((a.real() * b.real() + a.imag() * b.imag()) * denom, (a.imag() * b.real() - a.real() * b.imag()) * denom);
}

template <class T>
__device__ __forceinline__ T arith(binop op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case binop::plus: return a || b;
      case binop::minus: return a != b;  // sparsetools: (a - b) != 0
      case binop::elmul: return a && b;
      case binop::eldiv: return b ? a : false;
      case binop::maximum: return a || b;
      default: return a && b;  // minimum
    }
  } else if constexpr (std::is_integral_v<T>) {
    // Wrapping arithmetic in an unsigned type at least as wide as unsigned int.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    switch (op) {
      case binop::plus: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case binop::minus: return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
      case binop::elmul: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case binop::eldiv:
        if (b == 0) return T(0);  // sparsetools' safe_divide
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return static_cast<T>(U(0) - static_cast<U>(a));
        }
        return static_cast<T>(a / b);
      case binop::maximum: return a < b ? b : a;  // std::max
      default: return b < a ? b : a;              // std::min
    }
  } else {
    switch (op) {
      case binop::plus: return a + b;
      case binop::minus: return a - b;
      case binop::elmul: return a * b;
      case binop::eldiv:
        if constexpr (is_complex_v<T>) return sparsetools_complex_div(a, b);
        else return a / b;
      case binop::maximum: return lt(a, b) ? b : a;
      default: return lt(b, a) ? b : a;
    }
  }
}

template <class T>
__device__ __forceinline__ bool compare(binop op, const T& a, const T& b) {
  switch (op) {
    case binop::ne: return a != b;
    case binop::lt: return lt(a, b);
    case binop::gt: return lt(b, a);
    case binop::le: return le(a, b);
    default: return le(b, a);  // ge
  }
}

template <class R, class T>
__device__ __forceinline__ R apply(binop op, const T& a, const T& b) {
  if (static_cast<int>(op) >= static_cast<int>(binop::ne)) return static_cast<R>(compare(op, a, b));
  if constexpr (std::is_same_v<R, T>) return arith(op, a, b);
  else return R{};
}

// Visits the merged entries of row i: f(column, result).
template <class R, class I, class T, class F>
__device__ __forceinline__ void merge_row(binop op, std::int64_t i, const I* ap, const I* aj, const T* ax,
                                         const I* bp, const I* bj, const T* bx, F&& f) {
  I ia = ap[i];
  const I ea = ap[i + 1];
  I ib = bp[i];
  const I eb = bp[i + 1];
  while (ia < ea || ib < eb) {
    T a{}, b{};
    I j;
    if (ib >= eb || (ia < ea && aj[ia] < bj[ib])) {
      j = aj[ia];
      a = ax[ia++];
    } else if (ia >= ea || bj[ib] < aj[ia]) {
      j = bj[ib];
      b = bx[ib++];
    } else {
      j = aj[ia];
      a = ax[ia++];
      b = bx[ib++];
    }
    const R r = apply<R>(op, a, b);
    if (nonzero(r)) f(j, r);
  }
}

template <class R, class I, class T>
__global__ void binop_count_kernel(binop op, std::int64_t major, const I* ap, const I* aj, const T* ax, const I* bp,
                                   const I* bj, const T* bx, I* counts) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < major; i += stride) {
    I c = 0;
    merge_row<R>(op, i, ap, aj, ax, bp, bj, bx, [&](I, const R&) { ++c; });
    counts[i] = c;
  }
}

template <class R, class I, class T>
__global__ void binop_fill_kernel(binop op, std::int64_t major, const I* ap, const I* aj, const T* ax, const I* bp,
                                  const I* bj, const T* bx, const I* cp, I* cj, R* cx) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < major; i += stride) {
    I k = cp[i];
    merge_row<R>(op, i, ap, aj, ax, bp, bj, bx, [&](I j, const R& r) {
      cj[k] = j;
      cx[k] = r;
      ++k;
    });
  }
}

template <class R, class I, class T>
compressed_arrays run(binop op, std::int64_t major, const ndarray& a_data, const ndarray& a_indices,
                      const ndarray& a_indptr, const ndarray& b_data, const ndarray& b_indices, const ndarray& b_indptr) {
  const cusci::dtype idt = a_indptr.dtype();
  const cusci::dtype rdt = std::is_same_v<R, bool> ? cusci::dtype::bool_ : a_data.dtype();
  cudaStream_t s = cusci::get_current_stream();
  ndarray indptr(shape_t{major + 1}, idt);
  if (major == 0) {
    indptr.fill(0);
    return {ndarray(shape_t{0}, rdt), ndarray(shape_t{0}, idt), indptr};
  }
  const I* ap = a_indptr.data_as<I>();
  const I* aj = a_indices.data_as<I>();
  const T* ax = a_data.data_as<T>();
  const I* bp = b_indptr.data_as<I>();
  const I* bj = b_indices.data_as<I>();
  const T* bx = b_data.data_as<T>();
  ndarray counts(shape_t{major + 1}, idt);
  I* cnt = counts.data_as<I>();
  CUSCI_CUDA_TRY(cudaMemsetAsync(cnt + major, 0, sizeof(I), s));
  constexpr int block = 256;
  const unsigned grid = cusci::detail::grid_for(major, block);
  binop_count_kernel<R, I, T><<<grid, block, 0, s>>>(op, major, ap, aj, ax, bp, bj, bx, cnt);
  CUSCI_CHECK_LAUNCH();
  std::size_t temp_bytes = 0;
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, cnt, indptr.data_as<I>(), major + 1, s));
  memory_ptr temp = cusci::malloc(temp_bytes > 0 ? temp_bytes : 1);
  CUSCI_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->ptr(), temp_bytes, cnt, indptr.data_as<I>(), major + 1, s));
  I total = 0;
  CUSCI_CUDA_TRY(cudaMemcpyAsync(&total, indptr.data_as<I>() + major, sizeof(I), cudaMemcpyDeviceToHost, s));
  CUSCI_CUDA_TRY(cudaStreamSynchronize(s));
  ndarray indices(shape_t{static_cast<std::int64_t>(total)}, idt);
  ndarray data(shape_t{static_cast<std::int64_t>(total)}, rdt);
  if (total > 0) {
    binop_fill_kernel<R, I, T><<<grid, block, 0, s>>>(op, major, ap, aj, ax, bp, bj, bx, indptr.data_as<I>(),
                                                      indices.data_as<I>(), data.data_as<R>());
    CUSCI_CHECK_LAUNCH();
  }
  return {data, indices, indptr};
}

}  // namespace

compressed_arrays compressed_binop(binop op, std::int64_t major, const ndarray& a_data, const ndarray& a_indices,
                                   const ndarray& a_indptr, const ndarray& b_data, const ndarray& b_indices,
                                   const ndarray& b_indptr) {
  CUSCI_EXPECTS(a_data.dtype() == b_data.dtype() && a_data.dtype() != cusci::dtype::float16, type_error,
                "cusci::sparse: internal binop on mismatched or float16 values");
  CUSCI_EXPECTS(a_indptr.dtype() == a_indices.dtype() && b_indptr.dtype() == a_indptr.dtype() &&
                    b_indices.dtype() == a_indptr.dtype() &&
                    (a_indptr.dtype() == cusci::dtype::int32 || a_indptr.dtype() == cusci::dtype::int64),
                type_error, "cusci::sparse: internal binop on mismatched index dtypes");
  const bool out_bool = binop_is_bool(op);
  return cusci::detail::dispatch(a_data.dtype(), [&](auto tag) -> compressed_arrays {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, __half>) {
      throw type_error("cusci::sparse: float16 values are not supported");
    } else {
      auto by_index = [&](auto itag) -> compressed_arrays {
        using I = typename decltype(itag)::type;
        if constexpr (std::is_same_v<T, bool>) {
          return run<bool, I, T>(op, major, a_data, a_indices, a_indptr, b_data, b_indices, b_indptr);
        } else {
          if (out_bool) return run<bool, I, T>(op, major, a_data, a_indices, a_indptr, b_data, b_indices, b_indptr);
          return run<T, I, T>(op, major, a_data, a_indices, a_indptr, b_data, b_indices, b_indptr);
        }
      };
      if (a_indptr.dtype() == cusci::dtype::int32) return by_index(cusci::detail::type_tag<std::int32_t>{});
      return by_index(cusci::detail::type_tag<std::int64_t>{});
    }
  });
}

}  // namespace cusci::sparse::detail
