#pragma once
/// @file ndarray.hpp
/// `cusci::ndarray`: an N-dimensional device array with a runtime dtype, NumPy's shape/strides/offset
/// model (strides in bytes), shared ownership of its buffer and the device it lives on; basic indexing
/// and views with NumPy's semantics; creation functions; host transfer.
///
/// Stream behaviour: every operation that launches work enqueues it on the current stream of the
/// array's device and returns at once, unless its documentation says "synchronizes".

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/memory.hpp"
#include "cusci/scalar.hpp"

namespace cusci {

using shape_t = std::vector<std::int64_t>;

/// Memory layout of a new array: C (row-major) or F (column-major).
enum class order { C, F };

/// A slice `start:stop:step` with Python's semantics (negative values count from the end, a missing
/// value takes the default for the sign of `step`).
struct slice {
  std::optional<std::int64_t> start{};
  std::optional<std::int64_t> stop{};
  std::optional<std::int64_t> step{};
};
/// `np.newaxis`: inserts an axis of length 1.
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};
/// `...`: as many full slices as needed.
struct ellipsis_t {};
inline constexpr ellipsis_t ellipsis{};
/// One entry of a basic index: an integer, a slice, `newaxis` or `ellipsis`.
using index_spec = std::variant<std::int64_t, slice, newaxis_t, ellipsis_t>;

class host_array;

/// An N-dimensional array in device memory. Copying an ndarray copies the handle (the data is shared,
/// like a NumPy view); use `copy()` for a deep copy.
/// CuPy: `cupy.ndarray` (cusci core mirrors NumPy/CuPy, not SciPy). Attribute accessors below mirror
/// `a.dtype`, `a.shape`, `a.strides`, `a.ndim`, `a.size`, `a.itemsize`, `a.nbytes`, `a.device`,
/// `a.data.ptr`, `a.flags.c_contiguous` / `f_contiguous`; none of them touches the device.
class ndarray {
 public:
  /// An empty float64 array of shape (0,) that owns no memory.
  ndarray();
  /// Allocates an uninitialized array from the pool on the current device and stream.
  /// @throws cusci::value_error for a negative dimension or a size that overflows; cusci::out_of_memory.
  /// CuPy: `cupy.ndarray(shape, dtype, order=...)`.
  ndarray(const shape_t& shape, cusci::dtype dt, cusci::order ord = order::C);
  /// A view onto existing device memory: `strides` and `offset` in bytes, as NumPy's. The bounds are
  /// not checked: the caller guarantees every element lies inside `mem`.
  /// @throws cusci::value_error when shape and strides differ in length.
  /// CuPy: `cupy.ndarray(shape, dtype, memptr, strides)`.
  ndarray(memory_ptr mem, cusci::dtype dt, shape_t shape, shape_t strides, std::int64_t offset, int device);

  // --- attributes ---------------------------------------------------------------------------
  cusci::dtype dtype() const noexcept { return dtype_; }
  const shape_t& shape() const noexcept { return shape_; }
  /// Strides in bytes, as NumPy's `a.strides`.
  const shape_t& strides() const noexcept { return strides_; }
  /// Byte offset of element 0 from the start of the buffer.
  std::int64_t offset() const noexcept { return offset_; }
  int ndim() const noexcept { return static_cast<int>(shape_.size()); }
  /// Number of elements (product of the shape; 1 for a 0-d array).
  std::int64_t size() const noexcept;
  std::size_t itemsize() const noexcept { return cusci::itemsize(dtype_); }
  std::size_t nbytes() const noexcept { return static_cast<std::size_t>(size()) * itemsize(); }
  int device() const noexcept { return device_; }
  const memory_ptr& memory() const noexcept { return mem_; }
  /// Device address of element 0 (the buffer start plus the offset); nullptr for an unallocated array.
  void* data() const noexcept;
  template <class T> T* data_as() const noexcept { return static_cast<T*>(data()); }
  bool is_c_contiguous() const noexcept;
  bool is_f_contiguous() const noexcept;
  /// Length of axis `axis` (negative counts from the end). NumPy: `a.shape[axis]`.
  /// @throws cusci::index_error for an axis out of range.
  std::int64_t shape(int axis) const;

  // --- views -------------------------------------------------------------------------------
  /// Basic indexing, `a[i, 1:5:2, newaxis, ...]`; returns a view (no device work).
  /// @throws cusci::index_error for an index out of range, too many indices or more than one
  ///         ellipsis; cusci::value_error for a zero step.
  /// NumPy: basic indexing `a[...]` (no advanced/boolean indexing).
  ndarray operator[](std::initializer_list<index_spec> index) const;
  /// The same with an index whose length is known only at run time, or a single integer.
  ndarray operator[](const std::vector<index_spec>& index) const;
  ndarray operator[](std::int64_t i) const;
  /// Reverses the axes; a view. NumPy: `a.T` / `a.transpose()`.
  ndarray T() const;
  ndarray transpose() const;
  /// Permutes the axes; a view. NumPy: `a.transpose(axes)`.
  /// @throws cusci::value_error for a wrong length or a repeated axis; cusci::index_error for an axis
  ///         out of range.
  ndarray transpose(const std::vector<int>& axes) const;
  /// A view when the strides allow it, else a copy (asynchronous); with `copy == false` a copy is
  /// an error, with `copy == true` a copy is always made. One entry may be -1.
  /// @throws cusci::value_error when the sizes differ, for more than one -1 or another negative entry,
  ///         or when a view is impossible and copy == false; cusci::out_of_memory for a copy.
  /// NumPy: `np.reshape(a, shape, order, copy)`.
  ndarray reshape(const shape_t& shape, cusci::order ord = order::C, std::optional<bool> copy = {}) const;
  /// Removes all axes of length 1, or only `axis` (which must have length 1); a view.
  /// @throws cusci::value_error when `axis` has length other than 1; cusci::index_error for an axis
  ///         out of range. NumPy: `np.squeeze`.
  ndarray squeeze() const;
  ndarray squeeze(int axis) const;
  /// Inserts an axis of length 1 at `axis` (in [-ndim-1, ndim]); a view. NumPy: `np.expand_dims`.
  /// @throws cusci::index_error for an axis out of range.
  ndarray expand_dims(int axis) const;
  /// Broadcast view with zero strides; treat it as read-only (cusci does not enforce it, NumPy does).
  /// @throws cusci::value_error when the shapes are not compatible or a dimension is negative.
  /// NumPy: `np.broadcast_to(a, shape)`.
  ndarray broadcast_to(const shape_t& shape) const;

  // --- copies ------------------------------------------------------------------------------
  /// A new contiguous array in `ord` order with the same values. Asynchronous.
  /// @throws cusci::out_of_memory. NumPy: `a.copy(order)`.
  ndarray copy(cusci::order ord = order::C) const;
  /// A copy converted to `dt` with NumPy's casting (`casting='unsafe'`; float to int truncates,
  /// complex to real drops the imaginary part), laid out as `order='K'`. With `copy == false` and the
  /// same dtype, returns *this. Asynchronous. Out-of-range float -> integer values saturate (NumPy:
  /// undefined).
  /// @throws cusci::out_of_memory. NumPy: `a.astype(dt, copy=copy)`.
  ndarray astype(cusci::dtype dt, bool copy = true) const;
  /// Sets every element to `value` (converted to this dtype). Asynchronous. NumPy: `a.fill(value)`.
  void fill(const scalar& value);
  /// Copies to host memory in C order, as `to_host`. Synchronizes. CuPy: `a.get()`.
  host_array get() const;
  /// The single element of a size-1 array, converted to T. Synchronizes.
  /// @throws cusci::value_error when size() != 1. NumPy: `a.item()`.
  template <class T> T item() const;

 private:
  memory_ptr mem_;
  cusci::dtype dtype_ = cusci::dtype::float64;
  shape_t shape_{0};
  shape_t strides_{8};
  std::int64_t offset_ = 0;
  int device_ = 0;
};

/// A C-contiguous array in host memory, for transfers and file I/O (a minimal `numpy.ndarray`).
/// Bool elements are stored as bytes 0 or 1.
class host_array {
 public:
  host_array() = default;
  /// Zero-initialized host array (`np.zeros(shape, dt)`).
  /// @throws cusci::value_error for a negative dimension or a size that overflows; cusci::out_of_memory
  ///         (NumPy's MemoryError) for more bytes than the host's physical memory, checked before
  ///         anything is allocated or written, or when the allocation fails.
  host_array(cusci::dtype dt, shape_t shape);
  /// Copies `data` (C order, `product(shape)` elements of type T).
  /// @throws cusci::value_error when data.size() != product(shape) or a dimension is negative.
  template <class T>
  static host_array from(const std::vector<T>& data, shape_t shape) {
    host_array h(dtype_of<T>, std::move(shape));
    copy_in(h, data.data(), data.size() * sizeof(T));
    return h;
  }
  template <class T>
  static host_array from(const std::vector<T>& data) {
    return from(data, shape_t{static_cast<std::int64_t>(data.size())});
  }
  cusci::dtype dtype() const noexcept { return dtype_; }
  const shape_t& shape() const noexcept { return shape_; }
  int ndim() const noexcept { return static_cast<int>(shape_.size()); }
  std::int64_t size() const noexcept;
  std::size_t nbytes() const noexcept { return bytes_.size(); }
  void* data() noexcept { return bytes_.data(); }
  const void* data() const noexcept { return bytes_.data(); }
  /// Typed access. @throws cusci::type_error when T does not match dtype().
  template <class T> T* data_as() { check_type(dtype_of<T>); return reinterpret_cast<T*>(bytes_.data()); }
  template <class T> const T* data_as() const { check_type(dtype_of<T>); return reinterpret_cast<const T*>(bytes_.data()); }
  /// The elements as a std::vector<T> (T must match dtype()).
  template <class T> std::vector<T> to_vector() const {
    const T* p = data_as<T>();
    return std::vector<T>(p, p + size());
  }
  /// A copy with the elements converted to `dt` (NumPy: `a.astype(dt)`, unsafe casting; any
  /// non-zero bool byte counts as True).
  host_array astype(cusci::dtype dt) const;

 private:
  static void copy_in(host_array& h, const void* src, std::size_t bytes);
  void check_type(cusci::dtype t) const;
  cusci::dtype dtype_ = cusci::dtype::float64;
  shape_t shape_{0};
  std::vector<std::byte> bytes_;
};

// --- creation -------------------------------------------------------------------------------
// All allocate from the pool on the current device and are asynchronous on its current stream
// (never synchronize). cusci core mirrors NumPy/CuPy, not SciPy.

/// Uninitialized array of `shape` [any], dtype `dt`, C or F layout.
/// @throws cusci::value_error for a negative dimension or a size that overflows; cusci::out_of_memory.
/// NumPy: `np.empty(shape, dtype, order)` (CuPy: `cupy.empty`). Default dtype float64.
ndarray empty(const shape_t& shape, dtype dt = dtype::float64, order ord = order::C);
/// Array of zeros; shape, dtype, layout and throws as `empty`.
/// NumPy: `np.zeros` (CuPy: `cupy.zeros`).
ndarray zeros(const shape_t& shape, dtype dt = dtype::float64, order ord = order::C);
/// Array of ones; shape, dtype, layout and throws as `empty`.
/// NumPy: `np.ones` (CuPy: `cupy.ones`).
ndarray ones(const shape_t& shape, dtype dt = dtype::float64, order ord = order::C);
/// Array filled with `value` (converted to the dtype); without `dt` the dtype is NumPy's for the
/// value (bool, int64 (uint64 for a weak integer above the int64 range), float64, complex128, or the
/// dtype of a strong scalar).
/// @throws as `empty`; cusci::value_error (NumPy 2's OverflowError "Python integer 300 out of bounds
///         for int8") for a weak integer `value` outside the integer dtype's range, before allocating.
/// NumPy: `np.full(shape, fill_value, dtype, order)` (CuPy: `cupy.full`).
ndarray full(const shape_t& shape, const scalar& value, std::optional<dtype> dt = {}, order ord = order::C);
/// Uninitialized / zero / one arrays with `a`'s shape and dtype on `a`'s device, laid out as NumPy's
/// `order='K'` (C if `a` is C-contiguous, F if F-contiguous, else axes by decreasing |stride|).
/// @throws cusci::out_of_memory.
/// NumPy: `np.empty_like`, `np.zeros_like`, `np.ones_like` (no dtype/order/shape arguments).
ndarray empty_like(const ndarray& a);
ndarray zeros_like(const ndarray& a);
ndarray ones_like(const ndarray& a);
/// Values in [start, stop) spaced by `step`, shape (ceil((stop - start) / step),) (0 when empty);
/// without `dt`, int64 for integral arguments and float64 otherwise (strong scalars promote);
/// values `start + i * step` computed as NumPy's fill loop does.
/// @throws cusci::value_error for step == 0, a NaN or too large length, or a bool result of more than
///         2 elements; cusci::type_error for complex arguments; cusci::out_of_memory.
/// NumPy: `np.arange(start, stop, step, dtype)` (deviation: complex arguments are refused).
ndarray arange(const scalar& stop);
ndarray arange(const scalar& start, const scalar& stop, const scalar& step = 1, std::optional<dtype> dt = {});
/// `num` evenly spaced values over [start, stop] (over [start, stop) when `endpoint` is false),
/// shape (num,), dtype `dt` (integer dtypes take the floor, as NumPy).
/// @throws cusci::value_error for num < 0; cusci::out_of_memory.
/// NumPy: `np.linspace(start, stop, num, endpoint, dtype=dt)` (no `retstep` or `axis`; scalar
/// start/stop only).
ndarray linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                 dtype dt = dtype::float64);
/// An N x M matrix (M defaults to N) of dtype `dt` with ones on the k-th diagonal (k > 0 above the
/// main diagonal), zeros elsewhere.
/// @throws cusci::value_error for a negative N or M; cusci::out_of_memory.
/// NumPy: `np.eye(N, M, k, dtype, order)` (CuPy: `cupy.eye`).
ndarray eye(std::int64_t N, std::optional<std::int64_t> M = {}, std::int64_t k = 0,
            dtype dt = dtype::float64, order ord = order::C);

namespace detail {
/// @throws cusci::value_error unless `n` equals the product of `shape` (non-negative dimensions).
void check_asarray_size(std::int64_t n, const shape_t& shape);
}  // namespace detail

// --- host transfer ------------------------------------------------------------------------

/// Copies a host array to a new C-contiguous device array of the same shape and dtype on the current
/// device, through pinned staging. Asynchronous on the current stream (the staging block is released
/// once the copy has finished); the host data may be reused on return.
/// @throws cusci::out_of_memory (device or pinned memory); cusci::cuda_error.
/// CuPy: `cupy.asarray(numpy_array)`.
ndarray asarray(const host_array& h);
/// Copies `product(shape)` elements of dtype `dt` from host memory at `src` (C order); as above.
/// @throws cusci::value_error for a negative dimension, or a null `src` with a non-empty shape;
///         cusci::out_of_memory; cusci::cuda_error.
ndarray asarray(const void* src, dtype dt, const shape_t& shape);
template <class T>
ndarray asarray(const std::vector<T>& v, const shape_t& shape) {
  detail::check_asarray_size(static_cast<std::int64_t>(v.size()), shape);
  return asarray(static_cast<const void*>(v.data()), dtype_of<T>, shape);
}
template <class T>
ndarray asarray(const std::vector<T>& v) {
  return asarray(v, shape_t{static_cast<std::int64_t>(v.size())});
}
/// Copies a device array (any layout) to host memory in C order, same shape and dtype. Synchronizes
/// the current stream of `a`'s device.
/// @throws cusci::out_of_memory (a C-order device copy for a non-C-contiguous array, pinned staging);
///         cusci::cuda_error.
/// CuPy: `cupy.asnumpy(a)` / `a.get()`.
host_array to_host(const ndarray& a);
/// Same as `to_host`. CuPy: `cupy.asnumpy`.
inline host_array asnumpy(const ndarray& a) { return to_host(a); }

namespace detail {
/// @throws cusci::value_error unless n == 1 (NumPy's "can only convert an array of size 1").
void check_item_size(std::int64_t n);
}  // namespace detail

template <class T>
T ndarray::item() const {
  detail::check_item_size(size());
  host_array h = astype(dtype_of<T>, false).get();
  return h.data_as<T>()[0];
}

}  // namespace cusci
