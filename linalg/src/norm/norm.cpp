// cusci::linalg's norm family: scipy.linalg.norm (SciPy's finiteness check, then core's norm) and
// clarkson_woodruff_transform (SciPy's checks and batching; the sketch from core's random generator,
// put in row form with core's argsort / searchsorted; the product in norm_kernels.cu).

#include "cusci/linalg/norm.hpp"

#include <algorithm>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/linalg/svd.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/indexing.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "cusci/sorting.hpp"
#include "common/detail.hpp"
#include "common/shapes.hpp"
#include "norm/norm_detail.hpp"

namespace cusci::linalg {

namespace {

using namespace detail;

/// A matrix norm that needs singular values ('nuc', 2, -2 over the axes (r, c)).
struct sv_order {
  bool use = false;
  int r = 0, c = 0;
  int kind = 0;  // 0: nuc (sum), 2: largest, -2: smallest
};

/// The argument errors of numpy.linalg.norm that need no data (core's norm raises the same ones, with
/// its own function name, after this); returns the singular-value order when there is one.
sv_order check_norm_args(const std::string& fn, const ndarray& a, const norm_options& o) {
  const int nd = a.ndim();
  const norm_ord& ord = o.ord;
  const bool is_kind = std::holds_alternative<norm_kind>(ord.value);
  const bool is_num = std::holds_alternative<double>(ord.value);
  const double p = is_num ? std::get<double>(ord.value) : 0.0;
  if (!o.axis.axes) {
    if (ord.is_none()) return {};
    if (is_kind && std::get<norm_kind>(ord.value) == norm_kind::fro && nd == 2) return {};
    if (is_num && p == 2.0 && nd == 1) return {};
  }
  std::vector<int> axes;
  if (o.axis.axes) axes = *o.axis.axes;
  else
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  if (axes.size() == 1) {
    (void)cusci::detail::normalize_axis(axes[0], nd, fn);
    if (is_kind)
      throw value_error(fn + ": Invalid norm order '" +
                        (std::get<norm_kind>(ord.value) == norm_kind::fro ? "fro" : "nuc") + "' for vectors");
    return {};
  }
  if (axes.size() == 2) {
    const int r = cusci::detail::normalize_axis(axes[0], nd, fn), c = cusci::detail::normalize_axis(axes[1], nd, fn);
    if (r == c) throw value_error(fn + ": Duplicate axes given.");
    if (is_num) {
      const double inf = INFINITY;
      if (!(p == 2.0 || p == -2.0 || p == 1.0 || p == -1.0 || p == inf || p == -inf))
        throw value_error(fn + ": Invalid norm order for matrices.");
      if (p == 2.0 || p == -2.0) return {true, r, c, p > 0 ? 2 : -2};
    } else if (is_kind && std::get<norm_kind>(ord.value) == norm_kind::nuc) {
      return {true, r, c, 0};
    }
    return {};
  }
  throw value_error(fn + ": Improper number of dimensions to norm.");
}

/// Whether scipy.linalg.norm 1.18 answers through BLAS ?nrm2 or LAPACK ?lange, which return a Python
/// float (float64 as an array) also for float32 / complex64 input: a non-empty float32, float64,
/// complex64 or complex128 `a`, no axis, no keepdims, and either a 1-D `a` with ord none or 2, or a 2-D
/// `a` with ord 1 or inf that is Fortran-ordered or whose transpose is (`np.isfortran`: F- and not
/// C-contiguous). Every other case goes to numpy.linalg.norm (a's real dtype).
bool scipy_blas_path(const ndarray& a, const norm_options& o) {
  const dtype t = a.dtype();
  if (a.size() == 0 || o.axis.axes || o.keepdims) return false;
  if (t != dtype::float32 && t != dtype::float64 && t != dtype::complex64 && t != dtype::complex128) return false;
  const norm_ord& ord = o.ord;
  const bool is_num = std::holds_alternative<double>(ord.value);
  const double p = is_num ? std::get<double>(ord.value) : 0.0;
  if (a.ndim() == 1) return ord.is_none() || (is_num && p == 2.0);
  if (a.ndim() == 2 && is_num && (p == 1.0 || p == static_cast<double>(INFINITY)))
    return a.is_c_contiguous() != a.is_f_contiguous();
  return false;
}

void check_sketch_size(const std::string& fn, std::int64_t k) {
  if (k <= 0) throw value_error(fn + ": high <= 0");
}

}  // namespace

ndarray norm(const ndarray& a, const norm_options& opts, bool check_finite) {
  CUSCI_NVTX_SCOPE("cusci::linalg::norm");
  const std::string fn = "cusci::linalg::norm";
  const sv_order sv = check_norm_args(fn, a, opts);
  if (sv.use && a.dtype() == dtype::float16)  // NumPy's svd refuses float16
    throw type_error(fn + ": array type float16 is unsupported in linalg");
  if (check_finite && is_inexact(a.dtype()) && a.size() > 0 && !all(isfinite(a)).item<bool>())
    throw value_error(fn + ": array must not contain infs or NaNs");
  if (!sv.use) {
    const ndarray r = norm(a, opts);
    // SciPy's Python float (its single-precision value, widened exactly) becomes a float64 0-d array.
    return scipy_blas_path(a, opts) && r.dtype() != dtype::float64 ? r.astype(dtype::float64) : r;
  }
  // Singular values of the stack over (r, c), batched on the SVD family's engine.
  const ndarray x = is_inexact(a.dtype()) ? a : a.astype(dtype::float64);
  const ndarray y = moveaxis(x, std::vector<int>{sv.r, sv.c}, std::vector<int>{-2, -1});
  const int yd = y.ndim();
  const std::int64_t k = std::min(y.shape(yd - 2), y.shape(yd - 1));
  shape_t sshape(y.shape().begin(), y.shape().end() - 2);
  sshape.push_back(k);
  const ndarray s = y.size() == 0 ? cusci::zeros(sshape, real_dtype(x.dtype())) : svdvals(y, {.check_finite = false});
  ndarray ret;
  if (sv.kind == 0) {
    ret = sum(s, -1);
  } else {
    if (k == 0 && sv.kind < 0)  // NumPy's amin of the empty singular values (its amax takes initial=0)
      throw value_error(fn + ": zero-size array to reduction operation minimum which has no identity");
    if (k == 0) ret = cusci::zeros(shape_t(sshape.begin(), sshape.end() - 1), real_dtype(x.dtype()));
    else ret = sv.kind > 0 ? max(s, -1) : min(s, -1);
  }
  if (opts.keepdims) {
    shape_t kshape = a.shape();
    kshape[static_cast<std::size_t>(sv.r)] = 1;
    kshape[static_cast<std::size_t>(sv.c)] = 1;
    ret = ret.reshape(kshape);
  }
  return ret;
}

cwt_sketch cwt_matrix(std::int64_t n_rows, std::int64_t n_columns, random::generator& rng) {
  CUSCI_NVTX_SCOPE("cusci::linalg::cwt_matrix");
  const std::string fn = "cusci::linalg::cwt_matrix";
  check_sketch_size(fn, n_rows);
  if (n_columns < 0) throw value_error(fn + ": negative dimensions are not allowed, got n_columns " +
                                       std::to_string(n_columns));
  cwt_sketch s;
  s.n_rows = n_rows;
  s.rows = rng.integers(0, n_rows, {n_columns});
  // rng.choice([1, -1]): index 0 -> +1, index 1 -> -1
  s.signs = subtract(scalar(std::int64_t{1}), multiply(rng.integers(0, 2, {n_columns}), scalar(std::int64_t{2})));
  return s;
}

ndarray clarkson_woodruff_transform(const ndarray& a, const cwt_sketch& sk) {
  CUSCI_NVTX_SCOPE("cusci::linalg::clarkson_woodruff_transform");
  const std::string fn = "cusci::linalg::clarkson_woodruff_transform";
  if (a.ndim() < 2)
    throw index_error(fn + ": input_matrix must have at least 2 dimensions (tuple index out of range), got shape " +
                      shape_str(a.shape()));
  check_sketch_size(fn, sk.n_rows);
  const int nd = a.ndim();
  const std::int64_t n = a.shape(nd - 2), d = a.shape(nd - 1), k = sk.n_rows;
  if (sk.rows.ndim() != 1 || sk.signs.ndim() != 1 || !is_integer(sk.rows.dtype()) || !is_integer(sk.signs.dtype()) ||
      sk.rows.shape(0) != sk.signs.shape(0))
    throw value_error(fn + ": the sketch's rows and signs must be 1-D integer arrays of one length, got " +
                      shape_str(sk.rows.shape()) + " and " + shape_str(sk.signs.shape()));
  if (sk.rows.shape(0) != n)
    throw value_error(fn + ": the sketch has " + std::to_string(sk.rows.shape(0)) + " columns, input_matrix " +
                      shape_str(a.shape()) + " has " + std::to_string(n) + " rows");
  const shape_t batch(a.shape().begin(), a.shape().end() - 2);
  const std::int64_t nbatch = prod(batch);
  if (nd > 2 && nbatch == 0) throw value_error(fn + ": `_batch_dot` does not support zero-size batches.");
  const dtype dt = promote_types(dtype::int64, a.dtype());
  shape_t out_shape = batch;
  out_shape.push_back(k);
  out_shape.push_back(d);
  if (n == 0 || d == 0 || nbatch == 0) return cusci::zeros(out_shape, dt);

  // S in row form: the columns sorted by row (stable: increasing column within a row), row pointers
  const ndarray rows = sk.rows.astype(dtype::int64, false);
  const ndarray signs = ascontiguousarray(sk.signs.astype(dtype::int64, false));
  const ndarray perm = ascontiguousarray(argsort(rows, -1, {.kind = sort_kind::stable}));
  const ndarray sorted = take(rows, perm);
  const ndarray rowptr = ascontiguousarray(
      searchsorted(sorted, arange(scalar(std::int64_t{0}), scalar(k + 1), scalar(std::int64_t{1}), dtype::int64)));

  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  operand o{ac.shape(), ac.strides()};
  const batch_view v = broadcast_view(ac.data(), o, batch);
  ndarray out = cusci::empty(out_shape, dt);
  cwt_apply(dt, v, nbatch, k, d, perm.data_as<std::int64_t>(), rowptr.data_as<std::int64_t>(),
            signs.data_as<std::int64_t>(), out.data());
  return out;
}

ndarray clarkson_woodruff_transform(const ndarray& a, std::int64_t sketch_size, random::generator& rng) {
  const std::string fn = "cusci::linalg::clarkson_woodruff_transform";
  // SciPy draws the sketch (cwt_matrix, which checks sketch_size) after reading input_matrix.shape[-2]
  if (a.ndim() < 2)
    throw index_error(fn + ": input_matrix must have at least 2 dimensions (tuple index out of range), got shape " +
                      shape_str(a.shape()));
  check_sketch_size(fn, sketch_size);
  const int nd = a.ndim();
  if (nd > 2 && prod(shape_t(a.shape().begin(), a.shape().end() - 2)) == 0)
    throw value_error(fn + ": `_batch_dot` does not support zero-size batches.");
  return clarkson_woodruff_transform(a, cwt_matrix(sketch_size, a.shape(nd - 2), rng));
}

ndarray clarkson_woodruff_transform(const ndarray& a, std::int64_t sketch_size, std::uint64_t seed) {
  random::generator g = random::default_rng(seed);
  return clarkson_woodruff_transform(a, sketch_size, g);
}

ndarray clarkson_woodruff_transform(const ndarray& a, std::int64_t sketch_size) {
  random::generator g = random::default_rng();
  return clarkson_woodruff_transform(a, sketch_size, g);
}

}  // namespace cusci::linalg
