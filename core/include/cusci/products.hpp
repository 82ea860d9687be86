#pragma once
/// @file products.hpp
/// Linear-algebra products with NumPy's semantics: dot, vdot, inner, outer, matmul, tensordot and
/// einsum. Floating and complex operands go through cuBLAS (handle of the current device and thread,
/// bound to the current stream, workspace from the pool); integer and bool operands through cusci's
/// own tiled kernel. Mixed dtypes are promoted first with NumPy's `result_type`.
///
/// Stream behaviour: every function enqueues its work on the current stream and returns without
/// synchronizing. Results are new C-contiguous arrays on the operands' device.
///
/// Precision: float32 and complex64 products use `CUBLAS_COMPUTE_32F` (true float32 arithmetic, no
/// TF32), so results match NumPy's BLAS to float32 rounding; `set_allow_tf32(true)` lets cuBLAS use
/// TF32 tensor cores for float32 (about 10 mantissa bits in the products: faster, less accurate).
/// float16 operands are multiplied with float32 accumulation (`cublasGemmEx`, compute 32F) and
/// rounded to float16 once, as NumPy's float16 matmul (which computes in float32) does.
/// Integer products accumulate modulo 2^64 and are cast to the result dtype, which equals NumPy's
/// wrapping accumulation in the result dtype; bool products are logical (or of ands), as NumPy.

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cusci/ndarray.hpp"

namespace cusci {

/// Matrix product with NumPy's matmul rules.
/// @param a  [..., n, k] or [k] (a 1-D operand is promoted to [1, k] and the added axis removed from
///           the result); any dtype; any layout (C, F, transposed and other strided views: operands
///           whose matrices have one unit stride go to cuBLAS as transposes without a copy; others
///           are copied to C order first).
/// @param b  [..., k, m] or [k] (promoted to [k, 1], the axis removed afterwards).
/// @return   [broadcast(batch_a, batch_b)..., n, m] (without n / m for 1-D operands; a 0-d array for
///           two 1-D operands); dtype `np.result_type(a, b)`. Empty core dimensions (k == 0) give zeros.
/// Batches: when every operand's batch axes collapse to one stride (contiguous, or broadcast with
/// stride 0) one `cublasGemmStridedBatchedEx` runs; a broadcast right operand whose batch folds into
/// the rows of `a` runs as one GEMM; other batch layouts use `cublasGemmBatchedEx` with a pointer
/// array built on the device.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a 0-d operand ("matmul: Input operand 0 does not have enough
///         dimensions ..."), a core-dimension mismatch ("matmul: Input operand 1 has a mismatch in its
///         core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 3 is different from
///         4)"), batch shapes that do not broadcast, operands on different devices, or a dimension
///         beyond 2^31 - 1; cusci::out_of_memory; cusci::cublas_error.
/// NumPy: `np.matmul` (`@`). Deviations: no `out=`, `dtype=`, `casting=` or `axes=`.
ndarray matmul(const ndarray& a, const ndarray& b);

/// Dot product with NumPy's rules: 0-d operands multiply elementwise; two 1-D operands give their
/// inner product (a 0-d array; no conjugation); 2-D operands give the matrix product; an N-D `a` with
/// a 1-D `b` sums over the last axis of `a`; an N-D `a` with an M-D `b` (M >= 2) sums over the last
/// axis of `a` and the second-to-last of `b`: result [a.shape[:-1], b.shape[:-2], b.shape[-1]].
/// @param a, b  any dtype and layout; dtype of the result `np.result_type(a, b)`.
/// Asynchronous on the current stream.
/// @throws cusci::value_error when the summed axes differ in length ("shapes (2,3) and (4,5) not
///         aligned: 3 (dim 1) != 4 (dim 0)") or the devices differ; cusci::out_of_memory;
///         cusci::cublas_error.
/// NumPy: `np.dot` (no `out=`).
ndarray dot(const ndarray& a, const ndarray& b);

/// Dot product of the flattened operands with the first one complex-conjugated.
/// @param a, b  any shape with the same number of elements; any dtype and layout.
/// @return a 0-d array of dtype `np.result_type(a, b)`.
/// Asynchronous on the current stream.
/// @throws cusci::value_error when the sizes differ ("vdot: vectors have different lengths") or the
///         devices differ; cusci::out_of_memory; cusci::cublas_error.
/// NumPy: `np.vdot`.
ndarray vdot(const ndarray& a, const ndarray& b);

/// Inner product over the last axes: result [a.shape[:-1], b.shape[:-1]], dtype `np.result_type(a,
/// b)`; 0-d operands multiply elementwise. No conjugation.
/// Asynchronous on the current stream.
/// @throws cusci::value_error when the last axes differ in length or the devices differ;
///         cusci::out_of_memory; cusci::cublas_error.
/// NumPy: `np.inner`.
ndarray inner(const ndarray& a, const ndarray& b);

/// Outer product of the flattened operands: result [a.size, b.size], out[i, j] = a[i] * b[j], dtype
/// `np.result_type(a, b)` (bool gives logical and).
/// Asynchronous on the current stream.
/// @throws cusci::value_error when the devices differ; cusci::out_of_memory.
/// NumPy: `np.outer` (no `out=`).
ndarray outer(const ndarray& a, const ndarray& b);

/// The axes argument of `tensordot`: an integer N (the last N axes of `a` with the first N of `b`) or
/// two lists of axes (negative values count from the end).
using tensordot_axes = std::variant<int, std::pair<std::vector<int>, std::vector<int>>>;

/// Sum of products over the given axes, computed as one matrix product (the summed axes of `a` are
/// moved last and those of `b` first, both reshaped to 2-D, copying only when the strides require it).
/// @param a, b  any dtype and layout.
/// @param axes  N (default 2) or a pair of axis lists of equal length.
/// @return [free axes of a, free axes of b] in their original order; dtype `np.result_type(a, b)`.
/// Asynchronous on the current stream.
/// @throws cusci::value_error for axis lists of different lengths ("shape-mismatch for sum"), summed
///         axes of different lengths, a repeated axis, N < 0 or N larger than either ndim;
///         cusci::index_error for an axis out of range; cusci::out_of_memory; cusci::cublas_error.
/// NumPy: `np.tensordot`.
ndarray tensordot(const ndarray& a, const ndarray& b, const tensordot_axes& axes = 2);

/// Einstein summation.
/// @param subscripts  NumPy's subscript string: comma-separated labels (letters a-z, A-Z) per operand,
///                    optionally `...` for broadcast axes, and optionally `->` with the output labels;
///                    without `->` (implicit mode) the output holds the labels that appear once, in
///                    alphabetical order (upper case first), after the broadcast axes. Spaces are ignored.
/// @param operands    one or more arrays, any dtype and layout.
/// @return dtype `np.result_type` of the operands; a C-contiguous array in the output label order.
/// One operand: transposes, sums over labels not in the output, takes diagonals for a repeated label
/// (`ii->i`, `ii` trace). Two operands: labels repeated within one operand take a diagonal view (no
/// copy); labels only in one operand and not in the output are summed first; the rest is one batched
/// matmul (batch = labels in both and in the output, contracted = in both and not in the output).
/// Three or more operands are contracted pairwise from left to right (no path optimization).
/// Asynchronous on the current stream.
/// @throws cusci::value_error for a malformed string, a label count that does not match an operand's
///         ndim, a label whose lengths differ between axes, an output label that is not in any input
///         or is repeated, or no operands; cusci::out_of_memory; cusci::cublas_error.
/// NumPy: `np.einsum`. Deviations: no `optimize=` (left-to-right pairs), no `out=`/`dtype=`/
/// `casting=`; a label of length 1 does not broadcast against a longer one (only `...` axes do).
ndarray einsum(const std::string& subscripts, const std::vector<ndarray>& operands);
/// The same with the operands listed as arguments: `einsum("ij,jk->ik", a, b)`.
template <class... A>
ndarray einsum(const std::string& subscripts, const ndarray& first, const A&... rest) {
  return einsum(subscripts, std::vector<ndarray>{first, rest...});
}

/// Lets float32 matrix products use TF32 tensor cores (`CUBLAS_COMPUTE_32F_FAST_TF32`) when `allow`
/// is true; default false (`CUBLAS_COMPUTE_32F`). Process-wide; thread-safe; host only.
/// No NumPy counterpart (CuPy: the `CUPY_TF32` environment variable).
void set_allow_tf32(bool allow) noexcept;
/// The current setting of `set_allow_tf32`.
bool get_allow_tf32() noexcept;

}  // namespace cusci
