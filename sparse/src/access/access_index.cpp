// Indexing, assignment, reshape and resize of cusci::sparse matrices (SciPy's spmatrix semantics):
// index validation and normalization on the host, the data movement in access_kernels.cu.

#include <algorithm>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "access/access_internal.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/sparse/access.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/indexing.hpp"
#include "cusci/sorting.hpp"
#include "cusci/warnings.hpp"

namespace cusci::sparse {
namespace {

using detail::compressed;

// One normalized axis: `all` (no selection), or the selected positions in order.
struct axis_sel {
  bool all = false;
  bool integer = false;  // a single integer (the axis keeps length 1)
  bool array = false;    // an integer array or a mask (fancy)
  std::vector<std::int64_t> idx;
  std::int64_t size(std::int64_t dim) const { return all ? dim : static_cast<std::int64_t>(idx.size()); }
};

const char* axis_word(int axis) { return axis == 0 ? "row" : "column"; }

std::int64_t wrap(std::int64_t v, std::int64_t dim, const char* fn, int axis) {
  const std::int64_t w = v < 0 ? v + dim : v;
  if (w < 0 || w >= dim)
    throw index_error(std::string(fn) + ": " + axis_word(axis) + " index (" + std::to_string(v) + ") out of range");
  return w;
}

axis_sel from_mask(const std::vector<bool>& m, std::int64_t dim, const char* fn, int axis) {
  if (static_cast<std::int64_t>(m.size()) != dim)
    throw index_error(std::string(fn) + ": bool index " + std::to_string(axis) + " has shape (" + std::to_string(dim) +
                      ",) instead of (" + std::to_string(m.size()) + ",)");
  axis_sel s;
  s.array = true;
  for (std::size_t k = 0; k < m.size(); ++k)
    if (m[k]) s.idx.push_back(static_cast<std::int64_t>(k));
  return s;
}

axis_sel normalize(const axis_index& ix, std::int64_t dim, const char* fn, int axis) {
  axis_sel s;
  if (const auto* i = std::get_if<std::int64_t>(&ix)) {
    s.integer = true;
    s.idx.push_back(wrap(*i, dim, fn, axis));
    return s;
  }
  if (const auto* sl = std::get_if<cusci::slice>(&ix)) {
    const std::int64_t step = sl->step.value_or(1);
    CUSCI_EXPECTS(step != 0, value_error, std::string(fn) + ": slice step cannot be zero");
    // Python's slice.indices(dim).
    auto clip = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
      if (!v) return dflt;
      std::int64_t x = *v;
      if (x < 0) {
        x += dim;
        if (x < 0) x = step < 0 ? -1 : 0;
      } else if (x >= dim) {
        x = step < 0 ? dim - 1 : dim;
      }
      return x;
    };
    const std::int64_t start = clip(sl->start, step < 0 ? dim - 1 : 0);
    const std::int64_t stop = clip(sl->stop, step < 0 ? -1 : dim);
    if (step == 1 && start == 0 && stop == dim) {
      s.all = true;
      return s;
    }
    if (step > 0)
      for (std::int64_t v = start; v < stop; v += step) s.idx.push_back(v);
    else
      for (std::int64_t v = start; v > stop; v += step) s.idx.push_back(v);
    return s;
  }
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&ix)) {
    s.array = true;
    s.idx.reserve(v->size());
    for (std::int64_t x : *v) s.idx.push_back(wrap(x, dim, fn, axis));
    return s;
  }
  if (const auto* m = std::get_if<std::vector<bool>>(&ix)) return from_mask(*m, dim, fn, axis);
  const ndarray& a = std::get<ndarray>(ix);
  CUSCI_EXPECTS(a.ndim() == 1, value_error,
                std::string(fn) + ": index arrays must be 1-D, got " + std::to_string(a.ndim()) + "-D");
  if (a.dtype() == dtype::bool_) {
    const host_array h = to_host(a);
    const auto* p = h.data_as<bool>();
    return from_mask(std::vector<bool>(p, p + h.size()), dim, fn, axis);
  }
  CUSCI_EXPECTS(is_integer(a.dtype()), type_error,
                std::string(fn) + ": index arrays must have an integer or bool dtype, got " +
                    std::string(dtype_name(a.dtype())));
  std::vector<std::int64_t> v = to_host(a).astype(dtype::int64).to_vector<std::int64_t>();
  if (a.dtype() == dtype::uint64)
    for (std::int64_t& x : v)
      if (x < 0) x = std::numeric_limits<std::int64_t>::max();  // beyond every dimension: out of range below
  s.array = true;
  s.idx.reserve(v.size());
  for (std::int64_t x : v) s.idx.push_back(wrap(x, dim, fn, axis));
  return s;
}

ndarray upload(const std::vector<std::int64_t>& v) {
  if (v.empty()) return empty({0}, dtype::int64);
  return asarray(v);
}

// Rejects the formats SciPy cannot index; returns whether A is csc.
bool check_indexable(const spmatrix& A, const char* fn) {
  switch (A.format()) {
    case format::csr: return false;
    case format::csc: return true;
    case format::coo:
    case format::dia:
      throw type_error(std::string(fn) + ": '" + std::string(to_string(A.format())) +
                       "_matrix' object is not subscriptable (convert with tocsr() first)");
    case format::bsr: throw not_implemented_error(std::string(fn) + ": bsr_matrix does not support indexing, as SciPy");
  }
  return false;
}

compressed arrays_of(const spmatrix& A) {
  if (A.holds<csr_matrix>()) {
    const auto& m = A.get<csr_matrix>();
    return {m.data(), m.indices(), m.indptr()};
  }
  const auto& m = A.get<csc_matrix>();
  return {m.data(), m.indices(), m.indptr()};
}

// Minor selection map of a host selection over a minor dimension: offsets [dim + 1] and the
// positions grouped by value (counting sort, ascending positions within a value).
std::pair<ndarray, ndarray> minor_map(const std::vector<std::int64_t>& sel, std::int64_t dim) {
  std::vector<std::int64_t> off(static_cast<std::size_t>(dim + 1), 0);
  for (std::int64_t j : sel) ++off[static_cast<std::size_t>(j + 1)];
  for (std::int64_t k = 0; k < dim; ++k) off[static_cast<std::size_t>(k + 1)] += off[static_cast<std::size_t>(k)];
  std::vector<std::int64_t> order(sel.size()), next(off.begin(), off.end() - 1);
  for (std::size_t p = 0; p < sel.size(); ++p) order[static_cast<std::size_t>(next[static_cast<std::size_t>(sel[p])]++)] =
      static_cast<std::int64_t>(p);
  return {upload(off), upload(order)};
}

// Outer selection on compressed arrays: major lines then minor positions.
compressed select(const compressed& a, std::int64_t n_minor, const axis_sel& major, const axis_sel& minor) {
  compressed c = a;
  if (!major.all) c = detail::access_gather_major(c, upload(major.idx));
  if (!minor.all) {
    auto [off, order] = minor_map(minor.idx, n_minor);
    c = detail::access_select_minor(c, off, order);
  }
  return c;
}

spmatrix getitem_impl(const spmatrix& A, const axis_index& rows, const axis_index& cols, const char* fn) {
  const bool csc = check_indexable(A, fn);
  const shape2 sh = A.shape();
  const axis_sel r = normalize(rows, sh[0], fn, 0), c = normalize(cols, sh[1], fn, 1);
  CUSCI_EXPECTS(!(r.integer && c.integer), value_error,
                std::string(fn) + ": two integers select one element: use cusci::sparse::get(A, i, j)");
  CUSCI_EXPECTS(!(r.array && c.array), value_error,
                std::string(fn) + ": two index arrays select paired elements (SciPy's A[rows, cols] gives a dense "
                                  "(1, n) matrix): use cusci::sparse::get(A, rows, cols)");
  const shape2 out{r.size(sh[0]), c.size(sh[1])};
  const compressed a = arrays_of(A);
  if (!csc) {
    compressed o = select(a, sh[1], r, c);
    return csr_matrix::from_valid(o.data, o.indices, o.indptr, out);
  }
  compressed o = select(a, sh[0], c, r);
  return csc_matrix::from_valid(o.data, o.indices, o.indptr, out);
}

// Paired positions (major, minor) of a selection, broadcast; values count n.
struct pairs {
  std::vector<std::int64_t> i, j;  // rows, cols
};

pairs paired(const axis_sel& r, const axis_sel& c, const shape2& sh, const char* fn) {
  auto list = [](const axis_sel& s, std::int64_t dim) {
    if (!s.all) return s.idx;
    std::vector<std::int64_t> v(static_cast<std::size_t>(dim));
    std::iota(v.begin(), v.end(), std::int64_t{0});
    return v;
  };
  std::vector<std::int64_t> ri = list(r, sh[0]), ci = list(c, sh[1]);
  pairs p;
  if (r.array && c.array) {
    const std::size_t n = std::max(ri.size(), ci.size());
    CUSCI_EXPECTS(ri.size() == ci.size() || ri.size() == 1 || ci.size() == 1, value_error,
                  std::string(fn) + ": shape mismatch: indexing arrays could not be broadcast together with shapes (" +
                      std::to_string(ri.size()) + ",) (" + std::to_string(ci.size()) + ",)");
    if (ri.empty() || ci.empty()) return p;
    p.i.resize(n);
    p.j.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      p.i[k] = ri[ri.size() == 1 ? 0 : k];
      p.j[k] = ci[ci.size() == 1 ? 0 : k];
    }
    return p;
  }
  p.i.reserve(ri.size() * ci.size());
  p.j.reserve(ri.size() * ci.size());
  for (std::int64_t x : ri)
    for (std::int64_t y : ci) {
      p.i.push_back(x);
      p.j.push_back(y);
    }
  return p;
}

template <class M>
void setitem_impl(M& A, const axis_index& rows, const axis_index& cols, const ndarray& values, new_entries mode,
                  const char* fn) {
  constexpr bool csc = std::is_same_v<M, csc_matrix>;
  const shape2 sh = A.shape();
  const axis_sel r = normalize(rows, sh[0], fn, 0), c = normalize(cols, sh[1], fn, 1);
  const pairs p = paired(r, c, sh, fn);
  const auto n = static_cast<std::int64_t>(p.i.size());
  // Values broadcast to the selection's shape, then flattened in C order.
  const shape_t target = (r.array && c.array) ? shape_t{n} : shape_t{r.size(sh[0]), c.size(sh[1])};
  ndarray x;
  try {
    ndarray v = values.ndim() > static_cast<int>(target.size()) ? values.squeeze() : values;
    x = v.broadcast_to(target).astype(A.dtype()).reshape({n}, order::C, {});
    if (!x.is_c_contiguous()) x = x.copy();
  } catch (const value_error&) {
    throw value_error(std::string(fn) + ": shape mismatch in assignment: values of shape (" + [&] {
      std::string s;
      for (std::size_t d = 0; d < values.shape().size(); ++d) s += (d ? ", " : "") + std::to_string(values.shape()[d]);
      return s;
    }() + ") do not broadcast to the selection");
  }
  if (n == 0) return;
  const std::vector<std::int64_t>& maj = csc ? p.j : p.i;
  const std::vector<std::int64_t>& mnr = csc ? p.i : p.j;
  const ndarray di = upload(maj), dj = upload(mnr);
  bool dup = false;
  ndarray off = detail::access_offsets({A.data(), A.indices(), A.indptr()}, di, dj, dup);
  if (dup) {
    A.sum_duplicates();
    off = detail::access_offsets({A.data(), A.indices(), A.indptr()}, di, dj, dup);
  }
  const std::vector<std::int64_t> hoff = to_host(off).to_vector<std::int64_t>();
  const auto missing = static_cast<std::int64_t>(std::count(hoff.begin(), hoff.end(), std::int64_t{-1}));
  if (missing > 0 && mode == new_entries::raise) {
    const auto k = static_cast<std::size_t>(std::find(hoff.begin(), hoff.end(), std::int64_t{-1}) - hoff.begin());
    throw value_error(std::string(fn) + ": position (" + std::to_string(p.i[k]) + ", " + std::to_string(p.j[k]) +
                      ") is not stored and new_entries::raise was given");
  }
  if (missing > 0)
    warn("SparseEfficiencyWarning", fn,
         std::string("Changing the sparsity structure of a ") + (csc ? "csc_matrix" : "csr_matrix") +
             " is expensive. lil and dok are more efficient.");
  detail::access_scatter_last(A.data(), off, x);
  if (missing == 0) return;
  // Insert the missing positions: the last value given for a position wins.
  const host_array hx = to_host(x);
  const std::size_t item = itemsize(A.dtype());
  std::vector<std::size_t> keep;  // indices k of the last occurrence of each missing position
  {
    std::vector<std::size_t> ks;
    for (std::size_t k = 0; k < hoff.size(); ++k)
      if (hoff[k] < 0) ks.push_back(k);
    std::stable_sort(ks.begin(), ks.end(), [&](std::size_t a, std::size_t b) {
      return p.i[a] != p.i[b] ? p.i[a] < p.i[b] : p.j[a] < p.j[b];
    });
    for (std::size_t q = 0; q < ks.size(); ++q)
      if (q + 1 == ks.size() || p.i[ks[q + 1]] != p.i[ks[q]] || p.j[ks[q + 1]] != p.j[ks[q]]) keep.push_back(ks[q]);
  }
  const auto added = static_cast<std::int64_t>(keep.size());
  std::vector<std::int64_t> nr(keep.size()), nc(keep.size());
  host_array nv(A.dtype(), {added});
  for (std::size_t q = 0; q < keep.size(); ++q) {
    nr[q] = p.i[keep[q]];
    nc[q] = p.j[keep[q]];
    std::memcpy(static_cast<unsigned char*>(nv.data()) + q * item,
                static_cast<const unsigned char*>(hx.data()) + keep[q] * item, item);
  }
  const coo_matrix C = A.tocoo();
  const std::int64_t total = C.nnz() + added;
  const dtype it = get_index_dtype(std::max({total, sh[0], sh[1]})) == dtype::int64 ? dtype::int64 : C.index_dtype();
  const ndarray data = concatenate({C.data(), asarray(nv)});
  const ndarray row = concatenate({C.row().astype(it, false), upload(nr).astype(it, false)});
  const ndarray col = concatenate({C.col().astype(it, false), upload(nc).astype(it, false)});
  A = M(data, std::pair<ndarray, ndarray>{row, col}, matrix_options{.shape = sh, .index_dtype = it});
}

// ---- 2-D boolean masks ---------------------------------------------------------------------------

std::string shape_text(const shape_t& sh) {
  std::string s = "(";
  for (std::size_t d = 0; d < sh.size(); ++d) s += (d ? ", " : "") + std::to_string(sh[d]);
  return s + (sh.size() == 1 ? ",)" : ")");
}

void check_mask_shape(const shape_t& mask_shape, const shape2& sh, const char* fn) {
  if (mask_shape.size() != 2 || mask_shape[0] != sh[0] || mask_shape[1] != sh[1])
    throw index_error(std::string(fn) + ": bool index 0 has shape " + shape_text(shape_t{sh[0], sh[1]}) +
                      " instead of " + shape_text(mask_shape));
}

// The true positions of a dense 2-D bool mask of shape sh: (rows, cols), int64 on the device, C order.
std::pair<ndarray, ndarray> mask_positions(const ndarray& mask, const shape2& sh, const char* fn) {
  CUSCI_EXPECTS(mask.dtype() == dtype::bool_, type_error,
                std::string(fn) + ": a 2-D mask must have dtype bool, got " + std::string(dtype_name(mask.dtype())) +
                    " (integer index arrays are 1-D: getitem(A, rows, cols) or get(A, rows, cols))");
  if (mask.ndim() > 2)
    throw index_error(std::string(fn) + ": too many indices: a " + std::to_string(mask.ndim()) +
                      "-D mask needs " + std::to_string(mask.ndim()) + "D. Array is 2D");
  CUSCI_EXPECTS(mask.ndim() == 2, value_error,
                std::string(fn) + ": a " + std::to_string(mask.ndim()) +
                    "-D mask selects rows: use getitem(A, mask, cusci::slice{}); a 2-D mask of A's shape is "
                    "expected here");
  check_mask_shape(mask.shape(), sh, fn);
  if (mask.size() == 0) return {empty({0}, dtype::int64), empty({0}, dtype::int64)};
  std::vector<ndarray> nz = nonzero(mask);
  return {nz[0], nz[1]};
}

// The positions a sparse bool mask selects: SciPy's mask.nonzero() (true stored entries in storage
// order for csr, coo and bsr; a csc mask stably sorted by row; a dia mask through its canonical CSR
// form, as SciPy's dia tocoo).
std::pair<ndarray, ndarray> mask_positions(const spmatrix& mask, const shape2& sh, const char* fn) {
  CUSCI_EXPECTS(mask.dtype() == dtype::bool_, index_error,
                std::string(fn) +
                    ": Indexing with sparse matrices is not supported except boolean indexing where matrix and index "
                    "are equal shapes.");
  const shape2 ms = mask.shape();
  check_mask_shape(shape_t{ms[0], ms[1]}, sh, fn);
  const coo_matrix C = mask.format() == format::dia ? mask.tocsr().tocoo() : mask.tocoo();
  if (C.nnz() == 0) return {empty({0}, dtype::int64), empty({0}, dtype::int64)};
  const ndarray keep = nonzero(C.data())[0];
  ndarray r = take(C.row(), keep).astype(dtype::int64, false), c = take(C.col(), keep).astype(dtype::int64, false);
  if (mask.format() == format::csc && r.size() > 1) {
    const ndarray o = argsort(r);  // stable
    r = take(r, o);
    c = take(c, o);
  }
  return {r, c};
}

// Values of A (csr/csc) at the (row, col) positions: [1, n].
ndarray sample_positions(const spmatrix& A, bool csc, const ndarray& r, const ndarray& c) {
  const compressed a = arrays_of(A);
  const ndarray& maj = csc ? c : r;
  const ndarray& mnr = csc ? r : c;
  const bool canonical =
      csc ? A.get<csc_matrix>().has_canonical_format() : A.get<csr_matrix>().has_canonical_format();
  const ndarray v = canonical ? detail::access_sample_sorted(a, maj, mnr) : detail::access_sample(a, maj, mnr);
  return v.reshape({1, r.size()});
}

// values shaped as SciPy's __setitem__ shapes them for n selected positions: used as is when their
// squeezed shape is (n,) (() for n == 1), else broadcast to (n,); converted to dt, contiguous.
ndarray mask_values(const ndarray& values, std::int64_t n, dtype dt, const char* fn) {
  shape_t sq;
  for (std::int64_t d : values.shape())
    if (d != 1) sq.push_back(d);
  const shape_t target = n == 1 ? shape_t{} : shape_t{n};
  ndarray x;
  if (sq == target) {
    x = values.reshape({n});
  } else {
    const shape_t& vs = values.shape();
    CUSCI_EXPECTS(values.ndim() == 0 || (values.ndim() == 1 && (vs[0] == 1 || vs[0] == n)), value_error,
                  std::string(fn) + ": shape mismatch in assignment: values of shape " + shape_text(vs) +
                      " do not broadcast to the " + std::to_string(n) + " selected positions");
    x = values.broadcast_to({n});
  }
  x = x.astype(dt, false);
  if (!x.is_c_contiguous()) x = x.copy();
  return x;
}

// The mask is checked (and its positions found) before the values are made or checked, as SciPy.
template <class M, class Mask, class Values>
void setitem_mask(M& A, const Mask& mask, const Values& values, new_entries mode, const char* fn) {
  auto [r, c] = mask_positions(mask, A.shape(), fn);
  const std::int64_t n = r.size();
  ndarray x;
  if constexpr (std::is_same_v<Values, scalar>) x = mask_values(full({1}, values, A.dtype()), n, A.dtype(), fn);
  else x = mask_values(values, n, A.dtype(), fn);
  if (n == 0) return;
  setitem_impl(A, axis_index{r}, axis_index{c}, x, mode, fn);
}

template <class F>
decltype(auto) on_compressed(spmatrix& A, const char* fn, F&& f);

// `A[mask] = v` for A a csr_matrix, csc_matrix or spmatrix, v an ndarray or a scalar.
template <class Target, class Mask, class Values>
void set_mask(Target& A, const Mask& mask, const Values& v, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  static constexpr const char* fn = "cusci::sparse::setitem";
  if constexpr (std::is_same_v<Target, spmatrix>)
    on_compressed(A, fn, [&](auto& M) { setitem_mask(M, mask, v, mode, fn); });
  else
    setitem_mask(A, mask, v, mode, fn);
}

template <class F>
decltype(auto) on_compressed(spmatrix& A, const char* fn, F&& f) {
  check_indexable(A, fn);
  if (A.holds<csr_matrix>()) return f(A.get<csr_matrix>());
  return f(A.get<csc_matrix>());
}

shape2 resolve_shape(shape2 shape, std::int64_t m, std::int64_t n, const char* fn) {
  int unknown = -1;
  for (int d = 0; d < 2; ++d) {
    if (shape[d] == -1) {
      CUSCI_EXPECTS(unknown < 0, value_error, std::string(fn) + ": can only specify one unknown dimension");
      unknown = d;
    } else {
      CUSCI_EXPECTS(shape[d] >= 0, value_error,
                    std::string(fn) + ": negative dimensions are not allowed, got " + std::to_string(shape[d]));
    }
  }
  const __int128 size = static_cast<__int128>(m) * n;
  const std::string msg = std::string(fn) + ": cannot reshape array of size " +
                          std::to_string(static_cast<long long>(size)) + " into shape " +
                          cusci::detail::shape_str(shape);
  if (unknown >= 0) {
    const std::int64_t other = shape[1 - unknown];
    CUSCI_EXPECTS(other != 0 && size % other == 0, value_error, msg);
    shape[unknown] = static_cast<std::int64_t>(size / other);
  }
  CUSCI_EXPECTS(static_cast<__int128>(shape[0]) * shape[1] == size, value_error, msg);
  return shape;
}

template <class M>
void resize_compressed(M& A, shape2 shape) {
  constexpr bool csc = std::is_same_v<M, csc_matrix>;
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                "cusci::sparse::resize: negative dimensions are not allowed, got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
  const shape2 sh = A.shape();
  const std::int64_t maj_old = csc ? sh[1] : sh[0], min_old = csc ? sh[0] : sh[1];
  const std::int64_t maj_new = csc ? shape[1] : shape[0], min_new = csc ? shape[0] : shape[1];
  compressed c{A.data(), A.indices(), A.indptr()};
  if (maj_new < maj_old) {
    axis_sel s;
    s.idx.resize(static_cast<std::size_t>(maj_new));
    std::iota(s.idx.begin(), s.idx.end(), std::int64_t{0});
    c = detail::access_gather_major(c, upload(s.idx));
  }
  if (min_new < min_old) {
    std::vector<std::int64_t> keep(static_cast<std::size_t>(min_new));
    std::iota(keep.begin(), keep.end(), std::int64_t{0});
    auto [off, order] = minor_map(keep, min_old);
    c = detail::access_select_minor(c, off, order);
  }
  if (maj_new > maj_old) c.indptr = detail::access_pad_indptr(c.indptr, maj_new);
  A = M::from_valid(c.data, c.indices, c.indptr, shape);
}

}  // namespace

scalar get(const spmatrix& A, std::int64_t i, std::int64_t j) {
  CUSCI_NVTX_SCOPE("cusci::sparse::get");
  static constexpr const char* fn = "cusci::sparse::get";
  const bool csc = check_indexable(A, fn);
  const shape2 sh = A.shape();
  const std::int64_t r = wrap(i, sh[0], fn, 0), c = wrap(j, sh[1], fn, 1);
  const ndarray v = detail::access_sample(arrays_of(A), upload({csc ? c : r}), upload({csc ? r : c}));
  const host_array h = to_host(v);
  switch (A.dtype()) {
    case dtype::int64: return scalar(h.data_as<std::int64_t>()[0]);    // exact (a weak int64 scalar)
    case dtype::uint64: return scalar(h.data_as<std::uint64_t>()[0]);  // exact (a weak uint64 scalar)
    default: return scalar::of(h.astype(dtype::complex128).data_as<std::complex<double>>()[0], A.dtype());
  }
}

ndarray get(const spmatrix& A, const axis_index& rows, const axis_index& cols) {
  CUSCI_NVTX_SCOPE("cusci::sparse::get");
  static constexpr const char* fn = "cusci::sparse::get";
  const bool csc = check_indexable(A, fn);
  const shape2 sh = A.shape();
  axis_sel r = normalize(rows, sh[0], fn, 0), c = normalize(cols, sh[1], fn, 1);
  CUSCI_EXPECTS(r.array && c.array, value_error,
                std::string(fn) + ": paired selection needs two index arrays; use getitem for slices");
  const pairs p = paired(r, c, sh, fn);
  const ndarray v = detail::access_sample(arrays_of(A), upload(csc ? p.j : p.i), upload(csc ? p.i : p.j));
  return v.reshape({1, static_cast<std::int64_t>(p.i.size())});
}

ndarray get(const spmatrix& A, const ndarray& mask) {
  CUSCI_NVTX_SCOPE("cusci::sparse::get");
  static constexpr const char* fn = "cusci::sparse::get";
  const bool csc = check_indexable(A, fn);
  auto [r, c] = mask_positions(mask, A.shape(), fn);
  return sample_positions(A, csc, r, c);
}

ndarray get(const spmatrix& A, const spmatrix& mask) {
  CUSCI_NVTX_SCOPE("cusci::sparse::get");
  static constexpr const char* fn = "cusci::sparse::get";
  const bool csc = check_indexable(A, fn);
  auto [r, c] = mask_positions(mask, A.shape(), fn);
  return sample_positions(A, csc, r, c);
}

spmatrix getitem(const spmatrix& A, const axis_index& rows, const axis_index& cols) {
  CUSCI_NVTX_SCOPE("cusci::sparse::getitem");
  return getitem_impl(A, rows, cols, "cusci::sparse::getitem");
}

csr_matrix getrow(const spmatrix& A, std::int64_t i) {
  CUSCI_NVTX_SCOPE("cusci::sparse::getrow");
  static constexpr const char* fn = "cusci::sparse::getrow";
  const std::int64_t r = wrap(i, A.shape()[0], fn, 0);
  if (A.format() == format::csr) return getitem_impl(A, r, cusci::slice{}, fn).get<csr_matrix>();
  if (A.format() == format::csc) return getitem_impl(A, r, cusci::slice{}, fn).tocsr();
  return getitem_impl(spmatrix(A.tocsr()), r, cusci::slice{}, fn).get<csr_matrix>();
}

spmatrix getcol(const spmatrix& A, std::int64_t j) {
  CUSCI_NVTX_SCOPE("cusci::sparse::getcol");
  static constexpr const char* fn = "cusci::sparse::getcol";
  const std::int64_t c = wrap(j, A.shape()[1], fn, 1);
  if (A.format() == format::csr || A.format() == format::csc) return getitem_impl(A, cusci::slice{}, c, fn);
  spmatrix col = getitem_impl(spmatrix(A.tocsr()), cusci::slice{}, c, fn);
  if (A.format() == format::bsr) return col.tobsr(shape2{A.get<bsr_matrix>().blocksize()[0], 1});
  return col;
}

void setitem(csr_matrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem_impl(A, rows, cols, values, mode, "cusci::sparse::setitem");
}
void setitem(csc_matrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem_impl(A, rows, cols, values, mode, "cusci::sparse::setitem");
}
void setitem(spmatrix& A, const axis_index& rows, const axis_index& cols, const ndarray& values, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  on_compressed(A, "cusci::sparse::setitem", [&](auto& M) { setitem_impl(M, rows, cols, values, mode, "cusci::sparse::setitem"); });
}
void setitem(csr_matrix& A, const axis_index& rows, const axis_index& cols, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem(A, rows, cols, full({1}, value, A.dtype()), mode);
}
void setitem(csc_matrix& A, const axis_index& rows, const axis_index& cols, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem(A, rows, cols, full({1}, value, A.dtype()), mode);
}
void setitem(spmatrix& A, const axis_index& rows, const axis_index& cols, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  check_indexable(A, "cusci::sparse::setitem");
  setitem(A, rows, cols, full({1}, value, A.dtype()), mode);
}
void setitem(csr_matrix& A, const ndarray& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(csc_matrix& A, const ndarray& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(spmatrix& A, const ndarray& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(csr_matrix& A, const ndarray& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}
void setitem(csc_matrix& A, const ndarray& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}
void setitem(spmatrix& A, const ndarray& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}
void setitem(csr_matrix& A, const spmatrix& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(csc_matrix& A, const spmatrix& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(spmatrix& A, const spmatrix& mask, const ndarray& values, new_entries mode) {
  set_mask(A, mask, values, mode);
}
void setitem(csr_matrix& A, const spmatrix& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}
void setitem(csc_matrix& A, const spmatrix& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}
void setitem(spmatrix& A, const spmatrix& mask, const scalar& value, new_entries mode) {
  set_mask(A, mask, value, mode);
}

void setitem(csr_matrix& A, std::int64_t i, std::int64_t j, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem(A, axis_index{i}, axis_index{j}, value, mode);
}
void setitem(csc_matrix& A, std::int64_t i, std::int64_t j, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem(A, axis_index{i}, axis_index{j}, value, mode);
}
void setitem(spmatrix& A, std::int64_t i, std::int64_t j, const scalar& value, new_entries mode) {
  CUSCI_NVTX_SCOPE("cusci::sparse::setitem");
  setitem(A, axis_index{i}, axis_index{j}, value, mode);
}

spmatrix reshape(const spmatrix& A, shape2 shape, cusci::order ord, bool copy) {
  CUSCI_NVTX_SCOPE("cusci::sparse::reshape");
  static constexpr const char* fn = "cusci::sparse::reshape";
  const shape2 sh = A.shape();
  shape = resolve_shape(shape, sh[0], sh[1], fn);
  if (shape == sh) return copy ? A.copy() : A;
  const coo_matrix C = A.tocoo();
  const dtype it = get_index_dtype(std::max(shape[0], shape[1]));
  auto [r, c] = detail::access_reshape_coo(C.row(), C.col(), sh, shape, ord == cusci::order::F, it);
  ndarray d = copy ? C.data().copy() : C.data();
  return coo_matrix::from_valid(d, r, c, shape);
}

void resize(csr_matrix& A, shape2 shape) { resize_compressed(A, shape); }
void resize(csc_matrix& A, shape2 shape) { resize_compressed(A, shape); }

void resize(coo_matrix& A, shape2 shape) {
  CUSCI_NVTX_SCOPE("cusci::sparse::resize");
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                "cusci::sparse::resize: negative dimensions are not allowed, got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
  ndarray d = A.data(), r = A.row(), c = A.col();
  const bool canonical = A.has_canonical_format();
  if (shape[0] < A.shape()[0] || shape[1] < A.shape()[1]) detail::access_coo_filter(d, r, c, shape[0], shape[1]);
  const dtype it = get_index_dtype(std::max({shape[0], shape[1], d.size()}));
  if (it == dtype::int64 && r.dtype() != dtype::int64) {
    r = r.astype(dtype::int64);
    c = c.astype(dtype::int64);
  }
  A = coo_matrix::from_valid(d, r, c, shape, canonical);
}

void resize(dia_matrix& A, shape2 shape) {
  CUSCI_NVTX_SCOPE("cusci::sparse::resize");
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                "cusci::sparse::resize: negative dimensions are not allowed, got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
  ndarray data = A.data();
  const std::int64_t L = data.shape()[1];
  if (shape[1] < L) data = data[{cusci::slice{}, cusci::slice{0, shape[1]}}].copy();
  else data = data.copy();  // resize acts on this matrix only: other handles keep their values
  if (shape[0] > A.shape()[0]) detail::access_dia_clear(data, A.offsets(), A.shape()[0]);
  A = dia_matrix::from_valid(data, A.offsets(), A.offsets_host(), shape);
}

void resize(bsr_matrix& A, shape2 shape) {
  CUSCI_NVTX_SCOPE("cusci::sparse::resize");
  const shape2 b = A.blocksize();
  CUSCI_EXPECTS(shape[0] >= 0 && shape[1] >= 0, value_error,
                "cusci::sparse::resize: negative dimensions are not allowed, got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
  CUSCI_EXPECTS(shape[0] % b[0] == 0 && shape[1] % b[1] == 0, value_error,
                "cusci::sparse::resize: shape must be divisible into (" + std::to_string(b[0]) + ", " +
                    std::to_string(b[1]) + ") blocks. Got (" + std::to_string(shape[0]) + ", " +
                    std::to_string(shape[1]) + ")");
  csr_matrix C = A.tocsr();
  resize(C, shape);
  A = C.tobsr(b);
}

void resize(spmatrix& A, shape2 shape) {
  CUSCI_NVTX_SCOPE("cusci::sparse::resize");
  A.visit([&](auto& M) { resize(M, shape); });
}

}  // namespace cusci::sparse
