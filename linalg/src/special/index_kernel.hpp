#pragma once
// Internal interface of the special matrices (special.cpp -> index_kernel.cu). Host-only header.
//
// One kernel forms every element (b, i, j) of a batch of rows x cols matrices: either a gather (the
// element is one item of an input vector of batch b, or one of three constants: zero, one, minus one,
// all already in the output dtype (the constants travel in the plan), so the kernel only moves items of
// the output's size), or a closed formula of (i, j, n) for the functions of n alone (8- and 16-byte outputs).

#include <cstddef>
#include <cstdint>

#include "cusci/dtype.hpp"

namespace cusci::linalg::detail {

enum class index_kind : int {
  // gathers (any item size); x, y: per-batch contiguous vectors of lengths xlen, ylen
  toeplitz = 0,       // j > i ? y[j - i] : x[i - j]
  circulant,          // x[(i - j) mod cols]
  hankel,             // i + j < xlen ? x[i + j] : y[i + j - xlen + 1]
  companion,          // i == 0 ? x[j] : (i == j + 1 ? one : zero)
  leslie,             // i == 0 ? x[j] : (i == j + 1 ? y[j] : zero)
  fiedler_companion,  // x = -a / a[0]; pentadiagonal pattern (see the kernel)
  convolution,        // 0 <= i - j + p0 < xlen ? x[i - j + p0] : zero
  hadamard,           // popcount(i & j) odd ? minus one : one
  // formulas (no inputs); p0 = n, p1 = option
  hilbert,            // float64: 1 / (1 + i + j)
  helmert,            // float64; p1 = first row index (0 full, 1 not full)
  invhilbert_f,       // float64
  invhilbert_i,       // int64 exact
  pascal_f,           // float64; p1 = kind (0 symmetric, 1 lower, 2 upper)
  pascal_u,           // uint64 exact
  invpascal_f,        // float64; p1 = kind
  invpascal_i,        // int64 exact
  dft,                // complex128; p1 = scale (0 none, 1 sqrtn, 2 n)
};

struct index_plan {
  index_kind kind = index_kind::toeplitz;
  std::int64_t nbatch = 1, rows = 0, cols = 0;
  const void* x = nullptr;  // nbatch x xlen items, C order
  std::int64_t xlen = 0;
  const void* y = nullptr;  // nbatch x ylen items, C order
  std::int64_t ylen = 0;
  unsigned char k[3][16] = {};  // the items zero, one, minus one in the output dtype (constant_items)
  std::int64_t p0 = 0, p1 = 0;
};

/// Writes zero, one and minus one as items of `dt` into k (minus one wrapped for unsigned dtypes, as
/// NumPy's negative; true for bool). @throws cusci::not_implemented_error for a dtype it does not know.
void constant_items(dtype dt, unsigned char (&k)[3][16]);

/// out (nbatch x rows x cols items of `itemsize` bytes, C order) = the plan's elements. Asynchronous
/// on the current stream; nothing launched for an empty output.
void index_fill(const index_plan& p, std::size_t itemsize, void* out);

}  // namespace cusci::linalg::detail
