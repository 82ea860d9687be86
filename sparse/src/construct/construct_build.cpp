// Constructors of cusci::sparse with SciPy 1.18's semantics (scipy/sparse/_construct.py and
// _extract.py): eye/identity, diags/diags_array/spdiags, random/random_array/rand, kron/kronsum,
// bmat/block_array/hstack/vstack, block_diag, tril/triu, find. Built from core's array operations
// (concatenation, broadcasting ufuncs, stable sorts, searchsorted, masks) and the format classes'
// conversions; no kernels of their own.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/random.hpp"
#include "cusci/sorting.hpp"
#include "cusci/sparse/construct.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::sparse {
namespace {

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

std::string fn_name(const char* fn) { return std::string("cusci::sparse::") + fn; }

void check_value_dtype(cusci::dtype t, const char* fn) {
  if (!is_supported_dtype(t))
    throw type_error(fn_name(fn) + ": scipy.sparse does not support dtype " + std::string(dtype_name(t)) +
                     ". The only supported types are: bool, int8, uint8, int16, uint16, int32, uint32, int64, "
                     "uint64, float32, float64, complex64, complex128.");
}

/// Validates a format string early (so that bad input throws before device work).
void check_format_string(std::string_view f) {
  if (!f.empty()) (void)format_from_string(f);
}

spmatrix finish(spmatrix A, std::string_view f) { return f.empty() ? A : A.asformat(f); }

// a + b for dimensions that are summed into a result's shape (block_diag, bmat): past int64 the
// result cannot exist (NumPy's "array is too big"); checked before any device work.
std::int64_t checked_dim_sum(std::int64_t a, std::int64_t b, const char* fn) {
  if (b > std::numeric_limits<std::int64_t>::max() - a)
    throw value_error(fn_name(fn) + ": array is too big: the blocks' dimensions add up past 2^63 - 1 (" +
                      std::to_string(a) + " + " + std::to_string(b) + ")");
  return a + b;
}

ndarray contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : a.copy(); }

/// Index arrays of a matrix built from triplets: SciPy's coo constructor checks the contents and
/// picks int32 whenever the largest dimension fits.
cusci::dtype triplet_index_dtype(shape2 s) { return get_index_dtype(std::max(s[0], s[1])); }

ndarray arange_of(std::int64_t n, cusci::dtype t) { return cusci::arange(0, n, 1, t); }

/// NumPy's common_type of the diagonals (integers count as float64; bool is refused).
cusci::dtype common_type(const std::vector<ndarray>& arrays, const char* fn) {
  bool cplx = false;
  int bits = 0;
  for (const ndarray& a : arrays) {
    const cusci::dtype t = a.dtype();
    if (t == cusci::dtype::bool_)
      throw type_error(fn_name(fn) + ": can't get common type for non-numeric array (bool diagonals need a dtype)");
    if (t == cusci::dtype::float16) check_value_dtype(t, fn);
    if (is_complex(t)) cplx = true;
    const int b = (t == cusci::dtype::float32 || t == cusci::dtype::complex64) ? 32 : 64;
    bits = std::max(bits, b);
  }
  if (bits == 0) bits = 64;
  if (cplx) return bits == 32 ? cusci::dtype::complex64 : cusci::dtype::complex128;
  return bits == 32 ? cusci::dtype::float32 : cusci::dtype::float64;
}

}  // namespace

// ----- diagonals --------------------------------------------------------------------------------

spmatrix diags_array(const std::vector<ndarray>& diagonals_in, const std::vector<std::int64_t>& offsets,
                     const diags_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::diags_array");
  check_format_string(o.format);
  if (diagonals_in.size() != offsets.size())
    throw value_error(fn_name("diags") + ": Different number of diagonals and offsets.");
  std::vector<ndarray> diagonals;
  for (std::size_t j = 0; j < diagonals_in.size(); ++j) {
    const ndarray& d = diagonals_in[j];
    if (d.ndim() > 1)
      throw value_error(fn_name("diags") + ": diagonal " + std::to_string(j) + " must be 1-D, got " +
                        std::to_string(d.ndim()) + "-D");
    diagonals.push_back(d.ndim() == 0 ? d.reshape(shape_t{1}) : d);
  }
  shape2 shape{0, 0};
  if (o.shape) {
    shape = *o.shape;
  } else {
    if (diagonals.empty()) throw value_error(fn_name("diags") + ": a shape is needed when there is no diagonal");
    const std::int64_t m = diagonals[0].shape(0) + std::abs(offsets[0]);
    shape = {m, m};
  }
  const std::int64_t m = shape[0], n = shape[1];
  if (m < 0 || n < 0) throw value_error(fn_name("diags") + ": negative dimensions are not allowed");
  const cusci::dtype dt = o.dtype ? *o.dtype : common_type(diagonals, "diags");
  check_value_dtype(dt, "diags");
  // Every diagonal is checked before anything is allocated (SciPy's checks, in its order). An offset
  // is clamped to [-m - 1, n + 1] first: beyond it the diagonal is out of bounds either way, and the
  // sums below cannot overflow.
  const std::int64_t K = std::min(m, n);
  const auto nd = static_cast<std::int64_t>(offsets.size());
  std::vector<std::int64_t> lengths(offsets.size());
  std::int64_t M = 0;
  for (std::int64_t j = 0; j < nd; ++j) {
    const std::int64_t off = offsets[j], oc = std::clamp<std::int64_t>(off, -m - 1, n + 1);
    const std::int64_t length = std::min({m + oc, n - oc, K});
    if (length < 0)
      throw value_error(fn_name("diags") + ": Offset " + std::to_string(off) + " (index " + std::to_string(j) +
                        ") out of bounds");
    const std::int64_t len = diagonals[j].shape(0);
    if (len < length && len != 1)
      throw value_error(fn_name("diags") + ": Diagonal length (index " + std::to_string(j) + ": " +
                        std::to_string(len) + " at offset " + std::to_string(off) +
                        ") does not agree with array size (" + std::to_string(m) + ", " + std::to_string(n) + ").");
    lengths[j] = length;
    M = std::max(M, std::min(m + oc, n - oc) + std::max<std::int64_t>(0, oc));
  }
  ndarray data = cusci::zeros(shape_t{nd, M}, dt);
  for (std::int64_t j = 0; j < nd; ++j) {
    const std::int64_t k = std::max<std::int64_t>(0, offsets[j]), length = lengths[j];
    const ndarray& d = diagonals[j];
    const std::int64_t len = d.shape(0);
    if (length == 0) continue;
    ndarray dst = data[{j, slice{k, k + length, {}}}];
    const ndarray src = len < length ? d.broadcast_to(shape_t{length}) : d[{slice{0, length, {}}}];
    cusci::detail::copy_cast(src, dst);
  }
  std::vector<std::int64_t> offs(offsets);
  dia_matrix D(data, cusci::asarray(offs), {.shape = shape});
  return finish(D, o.format);
}

spmatrix diags(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets,
               const diags_options& o) {
  return diags_array(diagonals, offsets, o);
}

spmatrix diags(const ndarray& diagonal, std::int64_t offset, const diags_options& o) {
  return diags_array({diagonal}, {offset}, o);
}

spmatrix spdiags(const ndarray& data, const std::vector<std::int64_t>& diags, std::optional<std::int64_t> m,
                 std::optional<std::int64_t> n, std::string_view format) {
  check_format_string(format);
  if (m.has_value() != n.has_value())
    throw value_error(fn_name("spdiags") + ": give both m and n, or neither");
  std::int64_t mm = 0, nn = 0;
  if (m) {
    mm = *m;
    nn = *n;
  } else {
    if (data.ndim() != 2) throw value_error(fn_name("spdiags") + ": data must be 2-D when m and n are omitted");
    mm = nn = data.shape(1);
  }
  std::vector<std::int64_t> offs(diags);
  dia_matrix D(data, cusci::asarray(offs), {.shape = shape2{mm, nn}});
  return finish(D, format);
}

spmatrix eye(std::int64_t m, std::optional<std::int64_t> n_opt, std::int64_t k, cusci::dtype dtype,
             std::string_view format) {
  const std::int64_t n = n_opt.value_or(m);
  if (m < 0 || n < 0) throw value_error(fn_name("eye") + ": negative dimensions are not allowed");
  check_value_dtype(dtype, "eye");
  check_format_string(format);
  if (m == n && k == 0 && (format == "csr" || format == "csc" || format == "coo")) {
    const cusci::dtype it = get_index_dtype(n);
    ndarray data = cusci::ones(shape_t{n}, dtype);
    ndarray idx = arange_of(n, it);
    if (format == "coo") return coo_matrix::from_valid(data, idx, idx.copy(), {n, n}, false);
    ndarray ptr = arange_of(n + 1, it);
    if (format == "csr") return csr_matrix::from_valid(data, idx, ptr, {n, n}, true);
    return csc_matrix::from_valid(data, idx, ptr, {n, n}, true);
  }
  ndarray data = cusci::ones(shape_t{std::max<std::int64_t>(0, std::min(m + k, n))}, dtype);
  return diags_array({data}, {k}, {.shape = shape2{m, n}, .format = format, .dtype = dtype});
}

spmatrix identity(std::int64_t n, cusci::dtype dtype, std::string_view format) {
  return eye(n, n, 0, dtype, format);
}

// ----- random -------------------------------------------------------------------------------------

namespace {
spmatrix random_impl(shape2 shape, const random_options& o, const char* fn) {
  if (!(o.density >= 0.0 && o.density <= 1.0))
    throw value_error(fn_name(fn) + ": density expected to be 0 <= density <= 1, got " + std::to_string(o.density));
  const std::int64_t m = shape[0], n = shape[1];
  if (m < 0 || n < 0) throw value_error(fn_name(fn) + ": negative dimensions are not allowed");
  check_format_string(o.format);
  const cusci::dtype dt = o.dtype.value_or(cusci::dtype::float64);
  check_value_dtype(dt, fn);
  if (n > 0 && m > std::numeric_limits<std::int64_t>::max() / n)
    throw value_error(fn_name(fn) + ": m * n exceeds the int64 range");
  const std::int64_t mn = m * n;
  const auto size = static_cast<std::int64_t>(std::nearbyint(o.density * static_cast<double>(mn)));
  random::generator rng = o.seed ? random::default_rng(*o.seed) : random::default_rng();
  const cusci::dtype it = triplet_index_dtype(shape);
  ndarray row(shape_t{0}, it), col(shape_t{0}, it);
  if (size > 0) {
    ndarray pos;
    if (mn <= int32_max) {
      pos = rng.choice(mn, shape_t{size}, false);
    } else {
      // Rounds of uniform draws made unique until k distinct positions are held. With k at most half
      // of m*n every round keeps at least half its draws on average, so the rounds end after about
      // log2(k) of them; above half (density near 1, where the last missing positions would take
      // about m*n rounds) the k = m*n - size positions left out are drawn instead and the kept ones
      // are the rest. The result's m*n-sized mask and `size` entries come from the pool, which
      // raises out_of_memory at once when they cannot fit.
      const bool complement = size > mn / 2;
      const std::int64_t k = complement ? mn - size : size;
      ndarray drawn(shape_t{0}, cusci::dtype::int64);
      if (complement) (void)cusci::empty(shape_t{size}, cusci::dtype::int64);  // fail before the rounds
      while (drawn.size() < k) {
        ndarray draw = rng.integers(0, mn, shape_t{k - drawn.size()}, cusci::dtype::int64);
        drawn = cusci::unique(cusci::concatenate({drawn, draw})).values;
      }
      if (complement) {
        ndarray keep = cusci::ones(shape_t{mn}, cusci::dtype::bool_);
        if (k > 0) cusci::put(keep, drawn, cusci::zeros(shape_t{1}, cusci::dtype::bool_), clip_mode::wrap);
        pos = cusci::flatnonzero(keep);
      } else {
        pos = drawn;
      }
    }
    row = cusci::remainder(pos, scalar(m)).astype(it, false);  // Fortran-order unravel, as SciPy
    col = cusci::floor_divide(pos, scalar(m)).astype(it, false);
  }
  ndarray vals;
  if (is_integer(dt)) {
    std::int64_t lo = 0, hi = 0;
    switch (dt) {
      case cusci::dtype::int8: lo = INT8_MIN; hi = INT8_MAX; break;
      case cusci::dtype::int16: lo = INT16_MIN; hi = INT16_MAX; break;
      case cusci::dtype::int32: lo = INT32_MIN; hi = INT32_MAX; break;
      case cusci::dtype::int64: lo = INT64_MIN; hi = INT64_MAX; break;
      case cusci::dtype::uint8: hi = UINT8_MAX; break;
      case cusci::dtype::uint16: hi = UINT16_MAX; break;
      case cusci::dtype::uint32: hi = UINT32_MAX; break;
      default: hi = INT64_MAX; break;  // uint64: bounds are int64 in cusci's generator
    }
    vals = rng.integers(lo, hi, shape_t{size}, dt);
  } else if (is_complex(dt)) {
    ndarray re = rng.random(shape_t{size}), im = rng.random(shape_t{size});
    vals = cusci::add(re, cusci::multiply(im, scalar(std::complex<double>(0.0, 1.0)))).astype(dt, false);
  } else {
    vals = rng.random(shape_t{size}).astype(dt, false);
  }
  return finish(coo_matrix::from_valid(vals, row, col, shape, false), o.format);
}
}  // namespace

spmatrix random(std::int64_t m, std::int64_t n, const random_options& o) { return random_impl({m, n}, o, "random"); }
spmatrix random_array(shape2 shape, const random_options& o) { return random_impl(shape, o, "random_array"); }
spmatrix rand(std::int64_t m, std::int64_t n, const random_options& o) { return random_impl({m, n}, o, "rand"); }

// ----- Kronecker products -------------------------------------------------------------------------

spmatrix kron(const spmatrix& A, const spmatrix& B, std::string_view format) {
  check_format_string(format);
  const shape2 as = A.shape(), bs = B.shape();
  // The product of the shapes must exist (it wrapped around before: a (0, 0) result with entries).
  const shape2 out_shape{cusci::detail::checked_mul(as[0], bs[0], fn_name("kron")),
                         cusci::detail::checked_mul(as[1], bs[1], fn_name("kron"))};
  coo_matrix b = B.tocoo();
  const bool bsr_path = (format.empty() || format == "bsr") && 2 * b.nnz() >= bs[0] * bs[1];
  if (bsr_path) {
    csr_matrix a = A.tocsr(true);
    if (a.nnz() == 0 || b.nnz() == 0) return finish(coo_matrix(out_shape), format);
    ndarray bd = b.toarray();
    ndarray data = cusci::multiply(a.data().reshape(shape_t{a.nnz(), 1, 1}), bd.reshape(shape_t{1, bs[0], bs[1]}));
    check_value_dtype(data.dtype(), "kron");
    return bsr_matrix::from_valid(contiguous(data), a.indices(), a.indptr(), out_shape);
  }
  coo_matrix a = A.tocoo();
  if (a.nnz() == 0 || b.nnz() == 0) return finish(coo_matrix(out_shape), format);
  const cusci::dtype it = (a.index_dtype() == cusci::dtype::int64 || std::max(out_shape[0], out_shape[1]) > int32_max)
                              ? cusci::dtype::int64
                              : cusci::dtype::int32;
  const std::int64_t an = a.nnz(), bn = b.nnz();
  auto expand = [&](const ndarray& ai, const ndarray& bi, std::int64_t scale) {
    ndarray r = cusci::add(cusci::multiply(ai.astype(it, false).reshape(shape_t{an, 1}), scalar(scale)),
                           bi.astype(it, false).reshape(shape_t{1, bn}));
    return r.reshape(shape_t{an * bn});
  };
  ndarray row = expand(a.row(), b.row(), bs[0]);
  ndarray col = expand(a.col(), b.col(), bs[1]);
  ndarray data = cusci::multiply(a.data().reshape(shape_t{an, 1}), b.data().reshape(shape_t{1, bn})).reshape(shape_t{an * bn});
  check_value_dtype(data.dtype(), "kron");
  const cusci::dtype ot = triplet_index_dtype(out_shape);
  return finish(coo_matrix::from_valid(data, row.astype(ot, false), col.astype(ot, false), out_shape, false), format);
}

spmatrix kronsum(const spmatrix& A, const spmatrix& B, std::string_view format) {
  check_format_string(format);
  if (A.shape()[0] != A.shape()[1]) throw value_error(fn_name("kronsum") + ": A is not square");
  if (B.shape()[0] != B.shape()[1]) throw value_error(fn_name("kronsum") + ": B is not square");
  const cusci::dtype dt = promote_types(A.dtype(), B.dtype());
  spmatrix I_n = identity(A.shape()[0], dt), I_m = identity(B.shape()[0], dt);
  spmatrix L = kron(I_m, A, "coo"), R = kron(B, I_n, "coo");
  return finish(add(L, R), format);
}

// ----- block assembly -------------------------------------------------------------------------------

namespace {

struct compressed {
  ndarray data, indices, indptr;
  std::int64_t major = 0, minor = 0;
};

compressed as_compressed(const spmatrix& M, bool csc) {
  if (csc) {
    const csc_matrix& c = M.get<csc_matrix>();
    return {c.data(), c.indices(), c.indptr(), c.shape()[1], c.shape()[0]};
  }
  const csr_matrix& c = M.get<csr_matrix>();
  return {c.data(), c.indices(), c.indptr(), c.shape()[0], c.shape()[1]};
}

spmatrix from_compressed(const compressed& c, bool csc) {
  if (csc) return csc_matrix::from_valid(c.data, c.indices, c.indptr, {c.minor, c.major});
  return csr_matrix::from_valid(c.data, c.indices, c.indptr, {c.major, c.minor});
}

/// SciPy's `_compressed_sparse_stack`: blocks stacked along the major axis.
compressed stack_major(const std::vector<compressed>& blocks, bool csc) {
  const std::int64_t constant = blocks[0].minor;
  std::int64_t nnz = 0, sum_major = 0;
  bool wide = false;
  for (const compressed& b : blocks) {
    if (b.minor != constant)
      throw value_error(fn_name("bmat") + ": incompatible dimensions for axis " + std::string(csc ? "0" : "1"));
    nnz += b.data.size();
    sum_major += b.major;
    wide = wide || b.indptr.dtype() == cusci::dtype::int64;
  }
  const cusci::dtype it = (wide || std::max(nnz, constant) > int32_max) ? cusci::dtype::int64 : cusci::dtype::int32;
  std::vector<ndarray> datas, indices, ptrs;
  std::int64_t offset = 0;
  for (const compressed& b : blocks) {
    datas.push_back(b.data);
    indices.push_back(b.indices.astype(it, false));
    ptrs.push_back(cusci::add(b.indptr[{slice{0, b.major, {}}}].astype(it, false), scalar(offset)));
    offset += b.data.size();
  }
  ptrs.push_back(cusci::full(shape_t{1}, scalar(offset), it));
  compressed r;
  r.data = contiguous(cusci::concatenate(datas));
  r.indices = contiguous(cusci::concatenate(indices));
  r.indptr = contiguous(cusci::concatenate(ptrs));
  r.major = sum_major;
  r.minor = constant;
  return r;
}

/// SciPy's `_stack_along_minor_axis` (csr_hstack): each major line is the concatenation of the
/// blocks' lines, minor indices offset, order kept (a stable sort by major index).
compressed stack_minor(const std::vector<compressed>& blocks, const std::vector<spmatrix>& mats, bool csc) {
  if (blocks.size() == 1) return blocks[0];
  std::set<std::int64_t> majors;
  for (const compressed& b : blocks) majors.insert(b.major);
  if (majors.size() > 1) {
    std::string s = "{";
    for (auto it = majors.begin(); it != majors.end(); ++it) s += (it == majors.begin() ? "" : ", ") + std::to_string(*it);
    throw value_error(fn_name("bmat") + ": Mismatching dimensions along axis " + std::string(csc ? "1" : "0") +
                      ": " + s + "}");
  }
  const std::int64_t major = blocks[0].major;
  std::int64_t sum_minor = 0, nnz = 0;
  bool wide = false;
  for (const compressed& b : blocks) {
    sum_minor += b.minor;
    nnz += b.data.size();
    wide = wide || b.indptr.dtype() == cusci::dtype::int64;
  }
  const cusci::dtype it =
      (wide || std::max(sum_minor - 1, nnz) > int32_max) ? cusci::dtype::int64 : cusci::dtype::int32;
  std::vector<ndarray> maj, mino, datas;
  std::int64_t off = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    coo_matrix c = mats[b].tocoo();
    const ndarray& ma = csc ? c.col() : c.row();
    const ndarray& mi = csc ? c.row() : c.col();
    maj.push_back(ma.astype(cusci::dtype::int64, false));
    mino.push_back(cusci::add(mi.astype(it, false), scalar(off)));
    datas.push_back(c.data());
    off += blocks[b].minor;
  }
  compressed r;
  r.major = major;
  r.minor = sum_minor;
  ndarray all_major = cusci::concatenate(maj);
  ndarray all_minor = cusci::concatenate(mino);
  ndarray all_data = cusci::concatenate(datas);
  if (all_data.size() == 0) {
    r.data = all_data;
    r.indices = ndarray(shape_t{0}, it);
    r.indptr = cusci::zeros(shape_t{major + 1}, it);
    return r;
  }
  ndarray order = cusci::argsort(all_major, -1, {.kind = sort_kind::stable});
  ndarray sorted_major = cusci::take(all_major, order);
  r.indices = contiguous(cusci::take(all_minor, order));
  r.data = contiguous(cusci::take(all_data, order));
  r.indptr = cusci::searchsorted(sorted_major, arange_of(major + 1, cusci::dtype::int64)).astype(it, false);
  return r;
}

}  // namespace

spmatrix bmat(const block_grid& blocks, std::string_view format, std::optional<cusci::dtype> dtype) {
  check_format_string(format);
  if (dtype) check_value_dtype(*dtype, "bmat");
  const std::size_t M = blocks.size();
  const std::size_t N = M ? blocks[0].size() : 0;
  for (const auto& r : blocks)
    if (r.size() != N) throw value_error(fn_name("bmat") + ": blocks must be 2-D (every block row of one length)");
  {  // the result's shape before any device work: each block row's height and column's width once
    std::int64_t rows_total = 0, cols_total = 0;
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j)
        if (blocks[i][j]) {
          rows_total = checked_dim_sum(rows_total, blocks[i][j]->shape()[0], "bmat");
          break;
        }
    for (std::size_t j = 0; j < N; ++j)
      for (std::size_t i = 0; i < M; ++i)
        if (blocks[i][j]) {
          cols_total = checked_dim_sum(cols_total, blocks[i][j]->shape()[1], "bmat");
          break;
        }
  }
  bool all_present = M > 0 && N > 0;
  bool all_csr = all_present, all_csc = all_present;
  for (const auto& r : blocks)
    for (const auto& b : r) {
      if (!b) {
        all_csr = all_csc = false;
        continue;
      }
      all_csr = all_csr && b->format() == format::csr;
      all_csc = all_csc && b->format() == format::csc;
    }
  if ((all_csr && (format.empty() || format == "csr")) || (all_csc && (format.empty() || format == "csc"))) {
    const bool csc = !all_csr;
    // csr: stack each block row along the columns, then the rows; csc: the transpose of that.
    const std::size_t outer = csc ? N : M, inner = csc ? M : N;
    std::vector<compressed> lines;
    for (std::size_t o = 0; o < outer; ++o) {
      std::vector<compressed> parts;
      std::vector<spmatrix> mats;
      for (std::size_t i = 0; i < inner; ++i) {
        const spmatrix& b = csc ? *blocks[i][o] : *blocks[o][i];
        parts.push_back(as_compressed(b, csc));
        mats.push_back(b);
      }
      lines.push_back(stack_minor(parts, mats, csc));
    }
    spmatrix A = from_compressed(stack_major(lines, csc), csc);
    if (dtype) A = A.astype(*dtype, false);
    return A;
  }
  // General path: COO entries of every block, offset.
  std::vector<std::int64_t> brow(M, 0), bcol(N, 0);
  std::vector<std::vector<std::optional<coo_matrix>>> coo(M, std::vector<std::optional<coo_matrix>>(N));
  std::vector<cusci::dtype> dtypes;
  bool wide = false;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      if (!blocks[i][j]) continue;
      coo_matrix c = blocks[i][j]->tocoo();
      const shape2 s = c.shape();
      if (brow[i] == 0) brow[i] = s[0];
      else if (brow[i] != s[0])
        throw value_error(fn_name("bmat") + ": blocks[" + std::to_string(i) + ",:] has incompatible row dimensions. Got blocks[" +
                          std::to_string(i) + "," + std::to_string(j) + "].shape[0] == " + std::to_string(s[0]) +
                          ", expected " + std::to_string(brow[i]) + ".");
      if (bcol[j] == 0) bcol[j] = s[1];
      else if (bcol[j] != s[1])
        throw value_error(fn_name("bmat") + ": blocks[:," + std::to_string(j) + "] has incompatible column dimensions. Got blocks[" +
                          std::to_string(i) + "," + std::to_string(j) + "].shape[1] == " + std::to_string(s[1]) +
                          ", expected " + std::to_string(bcol[j]) + ".");
      dtypes.push_back(c.dtype());
      wide = wide || c.index_dtype() == cusci::dtype::int64;
      coo[i][j] = std::move(c);
    }
  cusci::dtype dt = cusci::dtype::float64;
  if (dtype) dt = *dtype;
  else if (!dtypes.empty()) {
    dt = dtypes[0];
    for (cusci::dtype t : dtypes) dt = promote_types(dt, t);
  }
  std::vector<std::int64_t> roff(M + 1, 0), coff(N + 1, 0);
  for (std::size_t i = 0; i < M; ++i) roff[i + 1] = roff[i] + brow[i];
  for (std::size_t j = 0; j < N; ++j) coff[j + 1] = coff[j] + bcol[j];
  const shape2 shape{roff[M], coff[N]};
  const cusci::dtype it = (wide || std::max(shape[0], shape[1]) > int32_max) ? cusci::dtype::int64 : cusci::dtype::int32;
  std::vector<ndarray> rows, cols, datas;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      if (!coo[i][j]) continue;
      const coo_matrix& c = *coo[i][j];
      rows.push_back(cusci::add(c.row().astype(it, false), scalar(roff[i])).astype(it, false));
      cols.push_back(cusci::add(c.col().astype(it, false), scalar(coff[j])).astype(it, false));
      datas.push_back(c.data().astype(dt, false));
    }
  ndarray row = rows.empty() ? ndarray(shape_t{0}, it) : contiguous(cusci::concatenate(rows));
  ndarray col = cols.empty() ? ndarray(shape_t{0}, it) : contiguous(cusci::concatenate(cols));
  ndarray data = datas.empty() ? ndarray(shape_t{0}, dt) : contiguous(cusci::concatenate(datas));
  const cusci::dtype ot = triplet_index_dtype(shape);
  return finish(coo_matrix::from_valid(data, row.astype(ot, false), col.astype(ot, false), shape, false), format);
}

spmatrix block_array(const block_grid& blocks, std::string_view format, std::optional<cusci::dtype> dtype) {
  return bmat(blocks, format, dtype);
}

spmatrix hstack(const std::vector<spmatrix>& blocks, std::string_view format, std::optional<cusci::dtype> dtype) {
  block_grid g(1);
  for (const spmatrix& b : blocks) g[0].emplace_back(b);
  return bmat(g, format, dtype);
}

spmatrix vstack(const std::vector<spmatrix>& blocks, std::string_view format, std::optional<cusci::dtype> dtype) {
  block_grid g;
  for (const spmatrix& b : blocks) g.push_back({std::optional<spmatrix>(b)});
  return bmat(g, format, dtype);
}

spmatrix block_diag(const std::vector<spmatrix>& mats, std::string_view format, std::optional<cusci::dtype> dtype) {
  check_format_string(format);
  if (mats.empty()) throw value_error(fn_name("block_diag") + ": need at least one array to concatenate");
  if (dtype) check_value_dtype(*dtype, "block_diag");
  std::vector<coo_matrix> coos;
  std::int64_t r = 0, c = 0;
  for (const spmatrix& a : mats) {  // the result's shape first, before any device work
    r = checked_dim_sum(r, a.shape()[0], "block_diag");
    c = checked_dim_sum(c, a.shape()[1], "block_diag");
  }
  bool wide = false;
  for (const spmatrix& a : mats) {
    coos.push_back(a.tocoo());
    wide = wide || coos.back().index_dtype() == cusci::dtype::int64;
  }
  const cusci::dtype it = (wide || std::max(r, c) > int32_max) ? cusci::dtype::int64 : cusci::dtype::int32;
  std::vector<ndarray> rows, cols, datas;
  std::int64_t ri = 0, ci = 0;
  for (const coo_matrix& a : coos) {
    rows.push_back(cusci::add(a.row().astype(it, false), scalar(ri)).astype(it, false));
    cols.push_back(cusci::add(a.col().astype(it, false), scalar(ci)).astype(it, false));
    datas.push_back(a.data());
    ri += a.shape()[0];
    ci += a.shape()[1];
  }
  ndarray data = contiguous(cusci::concatenate(datas));
  if (dtype) data = data.astype(*dtype, false);
  check_value_dtype(data.dtype(), "block_diag");
  const shape2 shape{r, c};
  const cusci::dtype ot = triplet_index_dtype(shape);
  return finish(coo_matrix::from_valid(data, contiguous(cusci::concatenate(rows)).astype(ot, false),
                                       contiguous(cusci::concatenate(cols)).astype(ot, false), shape, false),
                format);
}

// ----- triangles and find -----------------------------------------------------------------------------

namespace {
spmatrix triangle(const spmatrix& A, std::int64_t k, std::string_view format, bool lower) {
  check_format_string(format);
  coo_matrix a = A.tocoo();
  const shape2 shape = A.shape();
  const cusci::dtype ot = triplet_index_dtype(shape);
  // SciPy computes A.row + k in the index dtype: a k outside int32 raises OverflowError there for
  // int32 indices (value_error here, before any device work). For int64 indices k is clamped to
  // [-rows, cols], which selects the same entries (everything, or nothing, beyond it) and keeps
  // row + k from overflowing.
  if (a.row().dtype() == cusci::dtype::int32 &&
      (k < std::numeric_limits<std::int32_t>::min() || k > std::numeric_limits<std::int32_t>::max()))
    throw value_error(fn_name(lower ? "tril" : "triu") + ": k: Python integer " + std::to_string(k) +
                      " out of bounds for int32");
  k = std::clamp<std::int64_t>(k, -shape[0], shape[1]);
  if (a.nnz() == 0)
    return finish(coo_matrix::from_valid(a.data(), a.row().astype(ot, false), a.col().astype(ot, false), shape, false),
                  format);
  ndarray shifted = cusci::add(a.row().astype(cusci::dtype::int64), scalar(k));
  ndarray c64 = a.col().astype(cusci::dtype::int64, false);
  ndarray mask = lower ? cusci::greater_equal(shifted, c64) : cusci::less_equal(shifted, c64);
  ndarray row = cusci::extract(mask, a.row()).astype(ot, false);
  ndarray col = cusci::extract(mask, a.col()).astype(ot, false);
  ndarray data = cusci::extract(mask, a.data());
  return finish(coo_matrix::from_valid(contiguous(data), contiguous(row), contiguous(col), shape, false), format);
}
}  // namespace

spmatrix tril(const spmatrix& A, std::int64_t k, std::string_view format) { return triangle(A, k, format, true); }
spmatrix triu(const spmatrix& A, std::int64_t k, std::string_view format) { return triangle(A, k, format, false); }

find_result find(const spmatrix& A) {
  const cusci::dtype it = (A.format() == format::csr || A.format() == format::csc || A.format() == format::coo)
                              ? A.index_dtype()
                              : triplet_index_dtype(A.shape());
  csr_matrix c = A.tocsr();
  c.sum_duplicates();
  coo_matrix a = c.tocoo();
  if (a.nnz() == 0) return {ndarray(shape_t{0}, it), ndarray(shape_t{0}, it), ndarray(shape_t{0}, A.dtype())};
  ndarray mask = cusci::not_equal(a.data(), scalar(0));
  return {cusci::extract(mask, a.row()).astype(it, false), cusci::extract(mask, a.col()).astype(it, false),
          cusci::extract(mask, a.data())};
}

}  // namespace cusci::sparse
