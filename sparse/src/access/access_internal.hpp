#pragma once
// Device primitives of cusci::sparse's access family (indexing, assignment, reshape, resize), on
// compressed arrays seen as (major, minor): CSR rows/columns, CSC columns/rows.

#include <cstdint>
#include <utility>

#include "cusci/ndarray.hpp"
#include "cusci/sparse/matrix.hpp"

namespace cusci::sparse::detail {

/// data [nnz] (any dtype), indices [nnz] and indptr [n_major + 1] of one index dtype (int32/int64),
/// all contiguous, indptr[0] == 0, indptr[-1] == nnz.
struct compressed {
  ndarray data, indices, indptr;
};

/// The major lines `sel` (int64 [k] on the device, each in [0, n_major)) in that order, repeats
/// allowed; indices/data copied in stored order. Synchronizes (reads the result's nnz).
/// @throws cusci::value_error when the result's nnz does not fit the index dtype.
compressed access_gather_major(const compressed& a, const ndarray& sel);

/// Minor selection: minor index j of an entry becomes every position p with sel[p] == j.
/// `offsets` int64 [n_minor + 1] (exclusive prefix of the counts of each j in sel), `order` int64
/// [k] (positions p grouped by sel[p], ascending p within a group). Entries keep their order within a
/// line; for one entry the new positions come in ascending order. Synchronizes (reads nnz).
compressed access_select_minor(const compressed& a, const ndarray& offsets, const ndarray& order);

/// Sum of the values at (major i[k], minor j[k]) (int64 [n], in range) for every k: [n] of data's
/// dtype (bool: logical or). Asynchronous.
ndarray access_sample(const compressed& a, const ndarray& i, const ndarray& j);

/// The value at (major i[k], minor j[k]) (int64 [n], in range) for every k, by binary search in the
/// sorted line: `a` must be canonical (sorted indices, no duplicates). [n] of data's dtype, zero where
/// nothing is stored. Asynchronous.
ndarray access_sample_sorted(const compressed& a, const ndarray& i, const ndarray& j);

/// Offset of the entry at (major i[k], minor j[k]), or -1 when not stored: int64 [n]. `duplicate`
/// tells whether a position matched more than one entry (then offsets are not meaningful).
/// Synchronizes (reads the flag).
ndarray access_offsets(const compressed& a, const ndarray& i, const ndarray& j, bool& duplicate);

/// data[off[k]] = x[k] for every k with off[k] >= 0; for equal offsets the largest k wins. x: [n]
/// contiguous of data's dtype. Asynchronous.
void access_scatter_last(const ndarray& data, const ndarray& off, const ndarray& x);

/// New (row, col) of COO entries after reshaping `from` to `to` (C or F flattening), index dtype
/// `out`. Asynchronous.
std::pair<ndarray, ndarray> access_reshape_coo(const ndarray& row, const ndarray& col, shape2 from, shape2 to,
                                               bool f_order, cusci::dtype out);

/// Keeps the COO entries with row < m and col < n, in order. Synchronizes (reads the count).
void access_coo_filter(ndarray& data, ndarray& row, ndarray& col, std::int64_t m, std::int64_t n);

/// indptr [k + 1] extended (or cut) to [n_major + 1], new lines empty. Asynchronous.
ndarray access_pad_indptr(const ndarray& indptr, std::int64_t n_major);

/// DIA data [n_diags, L]: zeroes data[d, c] where offsets[d] + old_rows <= c (values an added row
/// would expose; SciPy's dia resize). Asynchronous.
void access_dia_clear(const ndarray& data, const ndarray& offsets, std::int64_t old_rows);

}  // namespace cusci::sparse::detail
