/// @file setops.cpp
/// isin, setdiff1d, intersect1d, union1d, lexsort and digitize, composed from cusci's sort, argsort,
/// unique, searchsorted, take and elementwise comparisons (see setops.hpp for the algorithms). The
/// only kernel of its own is digitize's monotonicity check (setops_kernels.cu).

#include "cusci/setops.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "cusci/dtype.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/sorting.hpp"
#include "setops/setops_detail.hpp"

namespace cusci {
namespace {

bool int_or_bool(dtype t) { return is_integer(t) || is_bool(t); }

std::string shape_str(const shape_t& s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    r += std::to_string(s[i]);
    if (s.size() == 1 || i + 1 < s.size()) r += ",";
    if (i + 1 < s.size()) r += " ";
  }
  return r + ")";
}

/// The flattened array's elements at `pos` (int64, in range): a gather without the bounds
/// synchronization (clip mode; every index is valid by construction).
ndarray gather(const ndarray& a, const ndarray& pos) { return take(a, pos, std::nullopt, clip_mode::clip); }

ndarray empty1d(dtype t) { return empty({0}, t); }

}  // namespace

isin_kind parse_isin_kind(std::string_view s) {
  if (s == "sort") return isin_kind::sort;
  if (s == "table") return isin_kind::table;
  throw value_error("cusci::parse_isin_kind: Invalid kind: '" + std::string(s) +
                    "'. Please use None, 'sort' or 'table'.");
}

ndarray isin(const ndarray& element, const ndarray& test_elements, isin_options opts) {
  if (opts.kind == isin_kind::table && !(int_or_bool(element.dtype()) && int_or_bool(test_elements.dtype())))
    throw value_error(
        "cusci::isin: The 'table' method is only supported for boolean or integer arrays. Please select "
        "'sort' or None for kind.");
  if (element.size() == 0) return empty(element.shape(), dtype::bool_);
  if (test_elements.size() == 0) return full(element.shape(), opts.invert, dtype::bool_);
  const ndarray sorted_test = sort(test_elements, std::nullopt);
  const ndarray pos = searchsorted(sorted_test, element);  // element.shape, in [0, m]
  const ndarray cand = gather(sorted_test, pos);            // clip: pos == m reads the last value
  return opts.invert ? not_equal(element, cand) : equal(element, cand);
}

ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, setdiff1d_options opts) {
  const ndarray a1 = opts.assume_unique ? ravel(ar1) : unique(ar1).values;
  if (a1.size() == 0) return empty1d(ar1.dtype());
  const ndarray keep = isin(a1, ar2, {.invert = true});
  return gather(a1, flatnonzero(keep));
}

intersect1d_result intersect1d(const ndarray& ar1, const ndarray& ar2, intersect1d_options opts) {
  const dtype rt = promote_types(ar1.dtype(), ar2.dtype());
  const bool ri = opts.return_indices;
  intersect1d_result r;
  if (ar1.size() == 0 || ar2.size() == 0) {
    r.values = empty1d(rt);
    if (ri) {
      r.ar1_indices = empty1d(dtype::int64);
      r.ar2_indices = empty1d(dtype::int64);
    }
    return r;
  }
  // Sorted (unique) values of each input and, with return_indices, their positions in the input.
  auto prepare = [&](const ndarray& a, ndarray& v, ndarray& idx) {
    if (!opts.assume_unique) {
      unique_result u = unique(a, {.return_index = ri});
      v = u.values;
      if (ri) idx = *u.indices;
    } else if (ri) {
      idx = argsort(a, std::nullopt);
      v = gather(a, idx);
    } else {
      v = sort(a, std::nullopt);
    }
  };
  ndarray v1, i1, v2, i2;
  prepare(ar1, v1, i1);
  prepare(ar2, v2, i2);
  const ndarray pos = searchsorted(v2, v1);  // compared in rt
  const ndarray common = equal(v1, gather(v2, pos));
  const ndarray sel = flatnonzero(common);  // synchronizes once (count)
  r.values = gather(v1, sel).astype(rt, false);
  if (ri) {
    r.ar1_indices = gather(i1, sel);
    r.ar2_indices = gather(i2, gather(pos, sel));
  }
  return r;
}

ndarray union1d(const ndarray& ar1, const ndarray& ar2) {
  return unique(concatenate({ravel(ar1), ravel(ar2)}, 0)).values;
}

ndarray lexsort(const std::vector<ndarray>& keys, lexsort_options opts) {
  if (keys.empty()) throw type_error("cusci::lexsort: need sequence of keys with len > 0 in lexsort");
  const shape_t& sh = keys[0].shape();
  for (const ndarray& k : keys)
    if (k.shape() != sh)
      throw value_error("cusci::lexsort: all keys need to be the same shape (got " + shape_str(sh) + " and " +
                        shape_str(k.shape()) + ")");
  const int nd = static_cast<int>(sh.size());
  if (nd == 0) return zeros({}, dtype::int64);  // NumPy returns 0 for 0-d keys
  if (opts.axis < -nd || opts.axis >= nd)
    throw index_error("cusci::lexsort: axis " + std::to_string(opts.axis) +
                      " is out of bounds for array of dimension " + std::to_string(nd));
  const int ax = opts.axis < 0 ? opts.axis + nd : opts.axis;
  if (keys.size() == 1) return argsort(keys[0], ax);
  std::int64_t size = 1;
  for (auto d : sh) size *= d;
  if (size == 0) return empty(sh, dtype::int64);
  const std::int64_t n = sh[ax], rows = size / n;
  // Every key as (rows, n) with the sort axis last.
  auto as2d = [&](const ndarray& k) { return moveaxis(k, ax, nd - 1).reshape({rows, n}); };
  ndarray idx = argsort(as2d(keys[0]), -1);  // (rows, n), C-contiguous
  const ndarray base = arange(std::int64_t{0}, size, n).reshape({rows, 1});  // row offsets
  for (std::size_t j = 1; j < keys.size(); ++j) {
    const ndarray vals = gather(as2d(keys[j]), add(idx, base));  // key_j[idx] row by row
    const ndarray p = argsort(vals, -1);                         // stable
    idx = gather(idx, add(p, base));
  }
  shape_t moved = sh;
  moved.erase(moved.begin() + ax);
  moved.push_back(n);
  return ascontiguousarray(moveaxis(idx.reshape(moved), nd - 1, ax));
}

ndarray lexsort(const ndarray& keys, lexsort_options opts) {
  if (keys.ndim() == 0 || keys.shape(0) == 0)
    throw type_error("cusci::lexsort: need sequence of keys with len > 0 in lexsort");
  std::vector<ndarray> k;
  k.reserve(static_cast<std::size_t>(keys.shape(0)));
  for (std::int64_t i = 0; i < keys.shape(0); ++i) k.push_back(keys[i]);
  return lexsort(k, opts);
}

ndarray digitize(const ndarray& x, const ndarray& bins, digitize_options opts) {
  if (is_complex(x.dtype())) throw type_error("cusci::digitize: x may not be complex");
  if (bins.ndim() == 0) throw value_error("cusci::digitize: bins: object of too small depth for desired array");
  if (bins.ndim() > 1) throw value_error("cusci::digitize: bins: object too deep for desired array");
  if (is_complex(bins.dtype()))
    throw type_error("cusci::digitize: Cannot cast array data from dtype('" + std::string(dtype_name(bins.dtype())) +
                     "') to dtype('float64') according to the rule 'safe'");
  const int mono =
      bins.size() < 2 ? 1 : detail::setops::bins_monotonicity(ascontiguousarray(bins.astype(dtype::float64, false)));
  if (mono == 0) throw value_error("cusci::digitize: bins must be monotonically increasing or decreasing");
  const search_side side = opts.right ? search_side::left : search_side::right;
  if (mono == 1) return searchsorted(bins, x, side);
  return subtract(bins.size(), searchsorted(flip(bins), x, side));
}

}  // namespace cusci
