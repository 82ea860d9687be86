#pragma once
/// @file coo_array.hpp
/// N-dimensional sparse arrays in coordinate format: SciPy's `scipy.sparse.coo_array` with a shape of
/// any rank from 1 to 64.
///
/// ## Semantics
///
/// `coo_array` follows SciPy's sparse ARRAY semantics (not the spmatrix semantics of matrix.hpp):
/// shapes keep their rank (a 1-D array stays 1-D, sums over an axis drop that axis), and the
/// elementwise and matrix products are named functions: `multiply` (elementwise), `dot`, `matmul`
/// (SciPy's `@`) and `tensordot`. `A * s` and `A / s` with a scalar scale every stored value, as
/// SciPy's `A * s` and `A / s`.
///
/// ## Storage
///
/// - `data()`: [nnz] values, contiguous; the value dtypes of cusci::sparse (every dtype but float16).
/// - `coords()`: ONE [ndim, nnz] C-contiguous device array, int32 or int64; row i holds the indices
///   along axis i (`coords(i)` is a view of that row, SciPy's `A.coords[i]`). SciPy holds a tuple of
///   ndim 1-D arrays; the rows of this array are those arrays.
/// - `shape()`: std::vector<int64_t>, rank 1..64. The product of the dimensions must fit in int64
///   (linear indices are computed in int64).
/// - Index dtype, as SciPy 1.18's coo_array: int64 whenever ndim > 2; for ndim <= 2 int32 unless the
///   largest dimension exceeds 2^31 - 1 or (construction from index arrays) an index array's dtype
///   does not cast safely to int32 (SciPy's `get_index_dtype(coords, maxval=max(shape))`, contents
///   not checked for sparse arrays).
///
/// Copying a coo_array object copies handles: the copy shares the arrays. `copy()` gives an
/// independent array. `sum_duplicates()` and `eliminate_zeros()` rebind this object's arrays.
///
/// Stream behaviour: work is enqueued on the current stream of the current device. Construction from
/// index arrays (range check), from a dense array (count of nonzeros), `sum_duplicates`,
/// `eliminate_zeros` and everything that calls them (`toarray`, `sum` over axes, the products)
/// synchronize; each function says so.
///
/// Thread-safety: as the matrices of matrix.hpp: concurrent const use is safe; the non-const members
/// need exclusive use of the object.

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/scalar.hpp"
#include "cusci/sparse/matrix.hpp"
#include "cusci/sparse/sputils.hpp"

namespace cusci::sparse {

/// Keyword arguments of the coo_array constructors (SciPy's `shape=`, `dtype=`, `copy=`).
struct coo_array_options {
  /// The shape; none: inferred (from index arrays as max index + 1 along each axis, from a dense array
  /// as its shape). Given with a dense array, it must equal the dense array's shape.
  std::optional<std::vector<std::int64_t>> shape{};
  /// Value dtype of the result (the input values are cast, NumPy's unsafe casting); none: the input's.
  std::optional<cusci::dtype> dtype{};
  /// true: fresh copies of the given arrays; false: the data array is shared when contiguous and of
  /// the right dtype (the coordinates are always gathered into the [ndim, nnz] array).
  bool copy = false;
};

/// An n-dimensional sparse array in COO format. SciPy: `scipy.sparse.coo_array` (any ndim).
class coo_array {
 public:
  using shape_type = std::vector<std::int64_t>;

  /// An empty array (nnz = 0) of `shape`, values of `dt` (default float64).
  /// @throws cusci::value_error for a rank outside 1..64, a negative dimension, or a shape whose
  ///         product exceeds int64; cusci::type_error for float16. Asynchronous (nothing on the device).
  /// SciPy: `coo_array(shape, dtype=dt)`.
  explicit coo_array(const shape_type& shape, std::optional<cusci::dtype> dt = {});
  /// An empty 1-D array of shape (0,) and dtype float64.
  coo_array() : coo_array(shape_type{0}) {}

  /// From values and one index array per axis.
  /// @param data   [nnz] values (any contiguity; float16 refused).
  /// @param coords ndim arrays [nnz] of an integer dtype (bool and float refused).
  /// @param o      shape (default: max index + 1 per axis), dtype, copy.
  /// Synchronizes (every index is checked against the shape on the device; with the shape omitted the
  /// maxima are read back).
  /// @throws cusci::value_error "mismatching number of index arrays for shape" (ndim != len(coords)),
  ///         "all index and data arrays must have the same length", "coordinates and data arrays must
  ///         be 1-D", "cannot infer dimensions from zero sized index arrays", "axis i index j exceeds
  ///         matrix dimension n", "negative axis i index: j", a bad shape (as the shape constructor);
  ///         cusci::type_error for a non-integer index array or a float16 value dtype.
  /// SciPy: `coo_array((data, coords), shape=..., dtype=..., copy=...)`. Deviation: SciPy accepts
  /// (with a warning) float index arrays; cusci refuses them.
  coo_array(const ndarray& data, const std::vector<ndarray>& coords, const coo_array_options& o = {});
  /// From values and a [ndim, nnz] integer index array (rows as the per-axis arrays above). Same rules.
  coo_array(const ndarray& data, const ndarray& coords, const coo_array_options& o = {});

  /// From a dense array of any rank 1..64 (0-d refused): its nonzero entries in C order (canonical).
  /// Index dtype as in the file comment. Synchronizes (count of nonzeros).
  /// @throws cusci::value_error for a 0-d array or rank > 64, "inconsistent shapes" when o.shape is
  ///         given and differs; cusci::type_error for float16.
  /// SciPy: `coo_array(dense)`.
  explicit coo_array(const ndarray& dense, const coo_array_options& o = {});

  /// From any 2-D sparse matrix (its COO entries as `tocoo()` gives them; duplicates kept).
  /// Asynchronous for COO input; other formats convert as `tocoo()` does.
  /// SciPy: `coo_array(A)` for a sparse matrix A. The has_canonical_format flag is false, as SciPy's.
  explicit coo_array(const spmatrix& A, std::optional<cusci::dtype> dt = {});

  /// A coo_array over arrays the caller guarantees valid: data [nnz] contiguous, coords [ndim, nnz]
  /// C-contiguous int32/int64 with every index in range, shape checked. Nothing is checked.
  static coo_array from_valid(ndarray data, ndarray coords, shape_type shape, bool canonical = false);

  // ---------------------------------------------------------------------------------------------
  // Properties (host only, never synchronize)

  /// Number of dimensions. SciPy: `A.ndim`.
  int ndim() const noexcept { return static_cast<int>(shape_.size()); }
  /// The shape. SciPy: `A.shape`.
  const shape_type& shape() const noexcept { return shape_; }
  /// Stored entries, duplicates and explicit zeros included. SciPy: `A.nnz`.
  std::int64_t nnz() const noexcept { return data_.size(); }
  /// Value dtype. SciPy: `A.dtype`.
  cusci::dtype dtype() const noexcept { return data_.dtype(); }
  /// int32 or int64 (see the file comment). SciPy: `A.coords[0].dtype`.
  cusci::dtype index_dtype() const noexcept { return coords_.dtype(); }
  /// SciPy's format string. SciPy: `A.format`.
  sparse::format format() const noexcept { return sparse::format::coo; }
  /// [nnz] stored values (shared). SciPy: `A.data`.
  const ndarray& data() const noexcept { return data_; }
  /// [ndim, nnz] indices (shared, C-contiguous). SciPy: `np.stack(A.coords)`.
  const ndarray& coords() const noexcept { return coords_; }
  /// [nnz] indices along `axis` (a view of a row of coords(); negative axes count from the end).
  /// @throws cusci::index_error for an axis out of range. SciPy: `A.coords[axis]`.
  ndarray coords(int axis) const;
  /// Whether the entries are known sorted in C order without duplicates (SciPy's flag: set by
  /// sum_duplicates and construction from dense, cleared by constructions from index arrays, reshape,
  /// transpose and the sums of two arrays). SciPy: `A.has_canonical_format`.
  bool has_canonical_format() const noexcept { return canonical_; }

  // ---------------------------------------------------------------------------------------------
  // Format maintenance (in place: rebind this object's arrays)

  /// Sorts the entries in C order (lexicographic by coords, axis 0 first) and adds duplicates
  /// (bool: or; integers wrap, in the value dtype). No-op when has_canonical_format(). Explicit zeros
  /// are kept. Synchronizes (number of distinct entries). SciPy: `A.sum_duplicates()`.
  void sum_duplicates();
  /// Removes the stored entries equal to zero (order kept). Synchronizes. SciPy: `A.eliminate_zeros()`.
  void eliminate_zeros();

  // ---------------------------------------------------------------------------------------------
  // Conversions

  /// The dense array [shape] (C order) with duplicates added (dtype()). Synchronizes (sums
  /// duplicates of a private copy unless canonical). SciPy: `A.toarray()` / `A.todense()`.
  ndarray toarray() const;
  /// Same as toarray() (SciPy's coo_array.todense() returns an ndarray too).
  ndarray todense() const { return toarray(); }
  /// The 2-D array as a coo_matrix (arrays shared). A 1-D array of shape (n,) becomes (1, n), as
  /// SciPy's spmatrix conversion. Asynchronous.
  /// @throws cusci::value_error for ndim > 2. SciPy: `coo_matrix(A)`.
  coo_matrix to_coo_matrix() const;
  /// The 1-D or 2-D array as a canonical csr_matrix ((1, n) for 1-D). Synchronizes.
  /// @throws cusci::value_error "Cannot convert a 3D sparse array to CSR format" for ndim > 2.
  /// SciPy: `A.tocsr()` (a csr_array; cusci's CSR class is the matrix).
  csr_matrix tocsr() const;
  /// Values cast to `t` (NumPy's unsafe casting). For t != dtype(), as SciPy, the duplicates of the
  /// cast copy are then summed in `t` (entries in C order; the flag of the result is false);
  /// synchronizes unless canonical. For t == dtype(): copy() (copy=true) or *this.
  /// @throws cusci::type_error for float16. SciPy: `A.astype(t, copy=copy)`.
  coo_array astype(cusci::dtype t, bool copy = true) const;
  /// An independent copy (its has_canonical_format is false, as SciPy's copy). Asynchronous. SciPy: `A.copy()`.
  coo_array copy() const;

  // ---------------------------------------------------------------------------------------------
  // Shape manipulation (coordinate recomputation on the device; asynchronous)

  /// The same entries in an array of `shape` (C order; one dimension may be -1). Returns *this (or a
  /// copy with copy=true) when the shape is unchanged. Index dtype: SciPy's rule for the new shape
  /// (int64 for ndim > 2; for ndim <= 2 int32 unless this array's indices are int64 or a dimension
  /// needs int64). The result's has_canonical_format is false, as SciPy's.
  /// @throws cusci::value_error "cannot reshape array of size X into shape Y", "can only specify one
  ///         unknown dimension", a rank outside 1..64. SciPy: `A.reshape(shape, copy=copy)` (order 'C').
  coo_array reshape(const shape_type& shape, bool copy = false) const;
  /// Axes permuted: result axis i is axis `axes[i]` of this array; none: reversed. Negative axes count
  /// from the end. Result flag false (SciPy's constructor).
  /// @throws cusci::value_error "axes don't match matrix dimensions" (length != ndim), "repeated axis
  ///         in transpose"; cusci::index_error for an axis out of range (SciPy: IndexError).
  /// SciPy: `A.transpose(axes, copy)`. Deviation: SciPy lets a negative axis alias a positive one
  /// (`(0, 2, -1)` on 3-D builds a wrong shape); cusci normalizes first and reports a repeated axis.
  coo_array transpose(const std::optional<std::vector<int>>& axes = {}, bool copy = false) const;
  /// All axes reversed. SciPy: `A.T`.
  coo_array T() const { return transpose(); }
  /// The last two axes swapped. @throws cusci::value_error "Array must be at least 2-dimensional" for
  /// ndim < 2. SciPy: `A.mT`.
  coo_array mT() const;

  // ---------------------------------------------------------------------------------------------
  // Reductions

  /// Sum over `axis` (none: every axis; SciPy's `validateaxis`: negative axes count from the end; a
  /// list naming every axis is the same as none).
  /// @returns axis none: a 0-d device array, the sum of the values after duplicates are summed (as
  ///          SciPy, which sums them in place first: a bool array counts a duplicated true once);
  ///          else an ndarray of the shape without the summed axes (every stored entry counted).
  ///          dtype: `dt` if given (values cast to it first, after summing duplicates), else SciPy's
  ///          get_sum_dtype: bool and signed integers -> int64, unsigned -> uint64, float/complex kept.
  /// Synchronizes (duplicate summation), except axis none on a canonical array.
  /// @throws cusci::value_error "axis out of range for ndim", "duplicate value in axis", "sparse does
  ///         not accept 0D axis ()" (an empty list). SciPy: `A.sum(axis=axis, dtype=dt)`.
  ndarray sum(const std::optional<std::vector<int>>& axis = {}, std::optional<cusci::dtype> dt = {}) const;
  /// Sum over one axis (as the list form).
  ndarray sum(int axis, std::optional<cusci::dtype> dt = {}) const { return sum(std::vector<int>{axis}, dt); }

  // ---------------------------------------------------------------------------------------------
  // Arithmetic

  /// Elementwise sum with an array of the same shape. ndim > 2: SciPy's n-D add, the concatenation of
  /// both entry lists (duplicates kept, flag false), values of NumPy's promotion of the dtypes.
  /// ndim <= 2: SciPy's CSR addition (canonical, entries that cancel to zero dropped), returned as a
  /// coo_array. Asynchronous for ndim > 2; synchronizes for ndim <= 2.
  /// @throws cusci::value_error "Incompatible shapes". SciPy: `A + B`. Deviation: SciPy returns a
  /// csr_array for ndim <= 2.
  coo_array add(const coo_array& other) const;
  /// Elementwise difference (as add, with -other). ndim > 2 with bool values: cusci::type_error (NumPy's
  /// boolean negative). SciPy: `A - B`.
  coo_array subtract(const coo_array& other) const;
  /// Elementwise sum with a dense array broadcastable to shape(): a dense array of shape(), dtype
  /// NumPy's promotion; every stored entry is added (values cast to that dtype before duplicates
  /// meet). Asynchronous unless A has duplicates to sum (synchronizes then).
  /// @throws cusci::value_error when D does not broadcast to shape(). SciPy: `A + D`, `D + A`.
  ndarray add(const ndarray& D) const;
  /// `toarray() - D` (D broadcast to shape()); NumPy's subtract rules (bool - bool: type_error).
  /// Synchronizes unless canonical. SciPy: `A - D`.
  ndarray subtract(const ndarray& D) const;
  /// `D - toarray()` (D broadcast to shape()). SciPy: `D - A`.
  ndarray rsubtract(const ndarray& D) const;
  /// Every stored value times `s` (entries kept, flag false); dtype NumPy's promotion with a weak
  /// scalar (NEP 50). Asynchronous.
  /// SciPy: `A * s` / `A.multiply(s)`.
  coo_array multiply(const scalar& s) const;
  /// Elementwise product with a dense array of the same shape: values data * other[coords] (entries
  /// kept, duplicates included; flag false), dtype NumPy's promotion. Asynchronous.
  /// @throws cusci::value_error for another shape ("inconsistent shapes: >2D multiply() does not yet
  ///         support broadcasting"). SciPy: `A.multiply(D)`. Deviation: for ndim <= 2 SciPy also
  ///         broadcasts; cusci requires equal shapes for every ndim, and returns a coo_array where SciPy
  ///         returns csr_array for ndim <= 2.
  coo_array multiply(const ndarray& other) const;
  /// Elementwise product with a sparse array of the same shape (SciPy's CSR elementwise product on the
  /// (1, size) reshape: canonical, zeros dropped). Synchronizes.
  /// @throws cusci::value_error for another shape. SciPy: `A.multiply(B)`.
  coo_array multiply(const coo_array& other) const;
  /// Every stored value divided by `s`: values cast to float64 first when the dtype casts safely to
  /// float64 (bool, integers, float32; through astype, which sums duplicates), then times 1/s, as
  /// SciPy. Synchronizes when a cast sums duplicates. @throws cusci::value_error for a weak (Python)
  /// zero (SciPy: ZeroDivisionError). SciPy: `A / s`.
  coo_array divide(const scalar& s) const;

  // ---------------------------------------------------------------------------------------------
  // Products

  /// SciPy's `A.dot(x)` with a dense x: for ndim <= 2 and x.ndim <= 2 the matrix product (a 1-D
  /// result for 1-D operands; a 0-d array for 1-D . 1-D); otherwise the sum over the last axis of A
  /// and the second-to-last axis of x (last for 1-D x): result shape A.shape[:-1] + x.shape[:-2] +
  /// x.shape[-1:]. dtype NumPy's promotion. Every stored entry is multiplied, as SciPy's COO
  /// kernels do (values are cast to the result dtype before duplicates meet: a duplicated bool true
  /// counts twice against a numeric x). Runs as one SpMV/SpMM of A raveled to [prod(shape[:-1]), K]
  /// (x moved to [K, ...] when x.ndim > 2). Synchronizes (CSR conversion).
  /// @throws cusci::value_error "shapes ... are not aligned for n-D dot" (also for a 0-d x: use
  ///         multiply for a scalar).
  ndarray dot(const ndarray& x) const;
  /// SciPy's `A.dot(B)` with a sparse B: same axes as above; a coo_array. For two operands of ndim
  /// <= 2 the matrix product (SciPy returns csr_array there). Runs as one SpGEMM of the raveled
  /// operands (duplicates of each operand summed first in its dtype, bool: or; entries that sum to
  /// zero dropped, as SciPy's CSR product); n-D results have int64 indices, 2-D products the
  /// SpGEMM's index dtype. Synchronizes.
  /// @throws cusci::value_error "shapes ... are not aligned for n-D dot"; for a 1-D . 1-D product
  ///         (a scalar in SciPy) cusci::value_error: use dot with a dense operand.
  coo_array dot(const coo_array& B) const;
  /// SciPy's `A @ x` with dense x (batched matrix product, batch dimensions broadcast): x of shape
  /// (K,) gives A.shape[:-1]; (K, 1) gives A.shape[:-1] + (1,); otherwise x.shape[-2] == K and the
  /// result is broadcast(A.shape[:-2], x.shape[:-2]) + (A.shape[-2], x.shape[-1]). For ndim <= 2 and
  /// x.ndim <= 2 the ordinary matrix product. Every stored entry multiplied (as dot). Runs as one
  /// SpMM of the block-diagonal form of A broadcast over the batch dimensions. Synchronizes.
  /// @throws cusci::value_error "matmul: dimension mismatch with signature ...", "dimension
  ///         mismatch" (ndim <= 2), "Batch dimensions are not broadcastable", a 0-d x.
  ndarray matmul(const ndarray& x) const;
  /// SciPy's `A @ B` with sparse B (batched, broadcast as above; 1-D operands get a dimension
  /// prepended / appended and removed again). A coo_array. Runs as one SpGEMM of the block-diagonal
  /// 2-D forms of the broadcast operands (SciPy's `_block_diag`). Synchronizes.
  /// @throws cusci::value_error "matmul: dimension mismatch with signature ...", "Batch dimensions
  ///         are not broadcastable", and for two 1-D operands (a scalar in SciPy: use dot with a
  ///         dense operand).
  coo_array matmul(const coo_array& B) const;
  /// SciPy's `A.tensordot(x, axes=n)`: the last n axes of A against the first n of x (n >= 1).
  /// Returns a dense array of shape A's other axes + x's other axes. Synchronizes.
  /// @throws cusci::value_error "axes integer is out of bounds for input arrays", "sizes of the
  ///         corresponding axes must match".
  ndarray tensordot(const ndarray& x, int axes = 2) const;
  /// `A.tensordot(x, axes=(a_axes, b_axes))` (negative axes count from the end).
  /// @throws cusci::value_error "axes lists/tuples must be of the same length", "axes indices are out
  ///         of bounds for input arrays", "sizes of the corresponding axes must match", a repeated
  ///         axis (SciPy: ValueError from its transpose).
  ndarray tensordot(const ndarray& x, const std::vector<int>& a_axes, const std::vector<int>& b_axes) const;
  /// Sparse tensordot: a coo_array of A's other axes + B's other axes.
  /// @throws as above, and cusci::value_error when every axis of both is contracted (SciPy returns a
  ///         scalar; use the dense overload).
  coo_array tensordot(const coo_array& B, int axes = 2) const;
  coo_array tensordot(const coo_array& B, const std::vector<int>& a_axes, const std::vector<int>& b_axes) const;

 private:
  struct raw_tag {};
  explicit coo_array(raw_tag) {}
  ndarray data_, coords_;
  shape_type shape_;
  bool canonical_ = false;
};

/// Sum of two arrays (coo_array::add). SciPy: `A + B`.
inline coo_array operator+(const coo_array& a, const coo_array& b) { return a.add(b); }
/// Difference of two arrays (coo_array::subtract). SciPy: `A - B`.
inline coo_array operator-(const coo_array& a, const coo_array& b) { return a.subtract(b); }
/// Sums and differences with a dense array (coo_array::add / subtract / rsubtract). SciPy: `A + D`,
/// `D + A`, `A - D`, `D - A`.
inline ndarray operator+(const coo_array& a, const ndarray& d) { return a.add(d); }
inline ndarray operator+(const ndarray& d, const coo_array& a) { return a.add(d); }
inline ndarray operator-(const coo_array& a, const ndarray& d) { return a.subtract(d); }
inline ndarray operator-(const ndarray& d, const coo_array& a) { return a.rsubtract(d); }
/// Every value scaled (coo_array::multiply(scalar)). SciPy: `A * s`, `s * A`.
inline coo_array operator*(const coo_array& a, const scalar& s) { return a.multiply(s); }
inline coo_array operator*(const scalar& s, const coo_array& a) { return a.multiply(s); }
/// Every value divided (coo_array::divide). SciPy: `A / s`.
inline coo_array operator/(const coo_array& a, const scalar& s) { return a.divide(s); }

/// Axes permuted as coo_array::transpose(axes) (axes none: reversed), always a new object; copy=true
/// copies the arrays. Returns A itself (a handle copy) for the identity permutation unless copy.
/// @throws cusci::value_error "Incorrect number of axes", "axis out of range for ndim", "duplicate
///         value in axis". SciPy: `scipy.sparse.permute_dims(A, axes, copy)`. Deviation: with
///         copy=false SciPy permutes A itself in place and returns it; cusci leaves A unchanged and
///         returns a new array sharing A's values (the flag is false in both).
coo_array permute_dims(const coo_array& A, const std::optional<std::vector<int>>& axes = {}, bool copy = false);
/// Axes `axis1` and `axis2` interchanged (a copy). @throws cusci::value_error "Invalid axis: ..." for
/// an axis outside [-ndim, ndim - 1]. SciPy: `scipy.sparse.swapaxes(A, axis1, axis2)`.
coo_array swapaxes(const coo_array& A, int axis1, int axis2);
/// A new axis of length 1 at position `axis` (in [-ndim - 1, ndim]); a copy keeping the index dtype
/// and canonical flag. @throws cusci::value_error "Invalid axis" outside the range, or for a result
/// rank above 64. SciPy: `scipy.sparse.expand_dims(A, axis=axis)`.
coo_array expand_dims(const coo_array& A, int axis = 0);

/// The last two axes swapped (A.mT()). @throws cusci::value_error for ndim < 2.
/// SciPy: `scipy.sparse.matrix_transpose(A)`.
inline coo_array matrix_transpose(const coo_array& A) { return A.mT(); }

/// coo_array is a sparse class (sputils.hpp). SciPy: `issparse(coo_array(...))`.
template <>
struct is_sparse<coo_array> : std::true_type {};

}  // namespace cusci::sparse
