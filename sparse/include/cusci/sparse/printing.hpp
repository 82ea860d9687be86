#pragma once
/// @file printing.hpp
/// SciPy's text forms of sparse matrices: `repr(A)` and `str(A)` / `print(A)`, character for
/// character as SciPy 1.18.1 prints its `*_matrix` classes. Page: docs/core-printing.md.
///
/// cusci's format classes mirror SciPy's spmatrix classes (`csr_matrix`, not `csr_array`; see
/// matrix.hpp), so the text says "sparse matrix" (SciPy's sparray classes say "sparse array"):
///
///     <Compressed Sparse Row sparse matrix of dtype 'float64'
///     	with 3 stored elements and shape (3, 3)>
///
/// DIA adds "(k diagonals)" after the stored elements, BSR "(blocksize=RxC)"; the stored elements are
/// SciPy's `nnz` (dia_matrix::nnz() for DIA: the in-matrix positions of the stored diagonals).
///
/// `str` is the repr followed, when nnz > 0, by "\n  Coords\tValues" and one line "  (i, j)\tv" per
/// entry of SciPy's COO form of the matrix: the stored order of COO; CSR row by row and CSC column by
/// column as stored (duplicates and explicit zeros included); BSR block by block, each block row by
/// row (every stored value); DIA through its CSR form (zeros dropped, rows sorted: SciPy 1.18.1's
/// `dia_matrix.tocoo` is `tocsr().tocoo()`). Values print as NumPy's scalars do (`str(np.float64(1.0))`
/// is "1.0", complex "(1+2j)", bool "True"; see cusci::scalar_str). When nnz > maxprint only the first
/// maxprint // 2 and the last maxprint - maxprint // 2 entries print, separated by "  :\t:" (SciPy's
/// `maxprint`, default 50; SciPy compares its `nnz`, so DIA may print fewer lines than that).
///
/// Stream behaviour: str synchronizes (it copies the printed entries to the host: only the two
/// printed ends when truncated; DIA first converts to CSR on the device). repr is host only.

#include <cstdint>
#include <ostream>
#include <string>

#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse {

/// SciPy's `repr(A)` (see the file comment). Host only, never throws.
std::string repr(const coo_matrix& A);
std::string repr(const csr_matrix& A);
std::string repr(const csc_matrix& A);
std::string repr(const dia_matrix& A);
std::string repr(const bsr_matrix& A);
std::string repr(const spmatrix& A);

/// SciPy's `str(A)` with `maxprint` (see the file comment). Synchronizes.
/// @throws cusci::value_error for maxprint < 0 (SciPy slices with negative bounds there);
///         cusci::out_of_memory, cusci::cuda_error.
/// SciPy: `str(A)` of a matrix built with `maxprint=maxprint`.
std::string to_string(const coo_matrix& A, std::int64_t maxprint = 50);
std::string to_string(const csr_matrix& A, std::int64_t maxprint = 50);
std::string to_string(const csc_matrix& A, std::int64_t maxprint = 50);
std::string to_string(const dia_matrix& A, std::int64_t maxprint = 50);
std::string to_string(const bsr_matrix& A, std::int64_t maxprint = 50);
std::string to_string(const spmatrix& A, std::int64_t maxprint = 50);

/// Writes `str(A)` (maxprint 50, no newline), as Python's `print(A)` without its newline.
/// Synchronizes. SciPy: `print(A)`.
std::ostream& operator<<(std::ostream& os, const coo_matrix& A);
std::ostream& operator<<(std::ostream& os, const csr_matrix& A);
std::ostream& operator<<(std::ostream& os, const csc_matrix& A);
std::ostream& operator<<(std::ostream& os, const dia_matrix& A);
std::ostream& operator<<(std::ostream& os, const bsr_matrix& A);
std::ostream& operator<<(std::ostream& os, const spmatrix& A);

}  // namespace cusci::sparse
