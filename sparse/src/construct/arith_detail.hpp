#pragma once
// Internal declarations of the construct/arithmetic family of cusci::sparse (host-only header).

#include <cstdint>

#include "cusci/ndarray.hpp"

namespace cusci::sparse::detail {

/// The binary operations of SciPy's sparsetools `csr_binop_csr` (csr_plus_csr, csr_ne_csr, ...).
enum class binop : int { plus, minus, elmul, eldiv, maximum, minimum, ne, lt, gt, le, ge };

/// True for the comparison ops (bool result).
constexpr bool binop_is_bool(binop op) noexcept { return static_cast<int>(op) >= static_cast<int>(binop::ne); }

/// Result arrays of a compressed binop.
struct compressed_arrays {
  ndarray data, indices, indptr;
};

/// C = op(A, B) on two canonical compressed matrices (rows sorted, no duplicates) with `major` rows
/// (CSR rows, or CSC columns): entries over the union of the patterns where op(a, b) != 0, a missing
/// entry reading as 0; sorted. A and B: data of one value dtype (not float16), indices/indptr of one
/// index dtype (int32/int64), contiguous. Result data dtype: bool for comparisons, else the input's.
/// Synchronizes once (the entry count).
compressed_arrays compressed_binop(binop op, std::int64_t major, const ndarray& a_data, const ndarray& a_indices,
                                   const ndarray& a_indptr, const ndarray& b_data, const ndarray& b_indices,
                                   const ndarray& b_indptr);

}  // namespace cusci::sparse::detail
