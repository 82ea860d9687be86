// cusci::linalg's special matrices: SciPy's argument checks, dtypes and batch shapes on the host, then
// one launch of the index kernel (index_kernel.cu) per call; block_diag through strided copies.

#include "cusci/linalg/special_matrices.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "cusci/detail/copy.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/reduction.hpp"
#include "common/detail.hpp"
#include "special/index_kernel.hpp"

namespace cusci::linalg {

namespace detail {

void constant_items(dtype dt, unsigned char (&k)[3][16]) {
  auto put = [&](auto zero, auto one, auto minus_one) {
    static_assert(sizeof(zero) <= 16);
    std::memcpy(k[0], &zero, sizeof(zero));
    std::memcpy(k[1], &one, sizeof(one));
    std::memcpy(k[2], &minus_one, sizeof(minus_one));
  };
  switch (dt) {
    case dtype::bool_: put(false, true, true); break;
    case dtype::int8: put(std::int8_t{0}, std::int8_t{1}, std::int8_t{-1}); break;
    case dtype::uint8: put(std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{0xFF}); break;
    case dtype::int16: put(std::int16_t{0}, std::int16_t{1}, std::int16_t{-1}); break;
    case dtype::uint16: put(std::uint16_t{0}, std::uint16_t{1}, std::uint16_t{0xFFFF}); break;
    case dtype::int32: put(std::int32_t{0}, std::int32_t{1}, std::int32_t{-1}); break;
    case dtype::uint32: put(std::uint32_t{0}, std::uint32_t{1}, ~std::uint32_t{0}); break;
    case dtype::int64: put(std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}); break;
    case dtype::uint64: put(std::uint64_t{0}, std::uint64_t{1}, ~std::uint64_t{0}); break;
    case dtype::float16: put(std::uint16_t{0}, std::uint16_t{0x3C00}, std::uint16_t{0xBC00}); break;  // IEEE half bits
    case dtype::float32: put(0.0f, 1.0f, -1.0f); break;
    case dtype::float64: put(0.0, 1.0, -1.0); break;
    case dtype::complex64: put(std::complex<float>(0), std::complex<float>(1), std::complex<float>(-1)); break;
    case dtype::complex128: put(std::complex<double>(0), std::complex<double>(1), std::complex<double>(-1)); break;
    default: throw not_implemented_error("cusci::linalg: special matrices of dtype " + std::string(dtype_name(dt)));
  }
}

}  // namespace detail

namespace {

using detail::index_kind;
using detail::index_plan;

std::string name(const char* f) { return std::string("cusci::linalg::") + f; }

using detail::prod;

shape_t cat(shape_t a, std::initializer_list<std::int64_t> tail) {
  a.insert(a.end(), tail.begin(), tail.end());
  return a;
}

shape_t leading(const ndarray& a, int core) {
  const auto& s = a.shape();
  return s.size() > static_cast<std::size_t>(core) ? shape_t(s.begin(), s.end() - core) : shape_t{};
}

ndarray atleast_1d(const ndarray& a) { return a.ndim() == 0 ? a.reshape({1}) : a; }

ndarray atleast_2d(const ndarray& a) {
  if (a.ndim() == 0) return a.reshape({1, 1});
  if (a.ndim() == 1) return a.reshape({1, a.shape()[0]});
  return a;
}

/// `v` ([..., len], any layout) broadcast to batch + (len,) and cast to `dt`, as a new C-contiguous array.
ndarray batch_vectors(const ndarray& v, const shape_t& batch, std::int64_t len, dtype dt) {
  const shape_t s = cat(batch, {len});
  ndarray out = cusci::empty(s, dt);
  cusci::detail::copy_cast(v.broadcast_to(s), out);
  return out;
}

/// SciPy's _apply_over_batch batch shape of two operands with `core` core dimensions each: () when
/// neither is batched, else the broadcast shape, which must not be empty.
shape_t apply_over_batch_shape(const shape_t& a, const shape_t& b, const std::string& fn, const char* scipy_name) {
  if (a.empty() && b.empty()) return {};
  const shape_t batch = broadcast_shapes(a, b);
  if (prod(batch) == 0)
    throw value_error(fn + ": `" + scipy_name + "` does not support zero-size batches (batch shape " +
                      cusci::detail::shape_str(batch) + ")");
  return batch;
}

ndarray run(index_plan p, const shape_t& out_shape, dtype dt, const ndarray* x = nullptr, const ndarray* y = nullptr) {
  ndarray out = cusci::empty(out_shape, dt);
  if (out.size() == 0) return out;
  detail::constant_items(dt, p.k);
  if (x != nullptr) p.x = x->data();
  if (y != nullptr) p.y = y->data();
  detail::index_fill(p, cusci::itemsize(dt), out.data());
  return out;
}

/// Whether any element of `a` is zero. Synchronizes.
bool any_zero(const ndarray& a) { return a.size() > 0 && any(equal(a, scalar(0))).item<bool>(); }

void check_n_nonnegative(std::int64_t n, const std::string& fn) {
  if (n < 0)
    throw value_error(fn + ": negative dimensions are not allowed (n = " + std::to_string(n) + ")");
}

}  // namespace

ndarray toeplitz(const ndarray& c, const std::optional<ndarray>& r) {
  CUSCI_NVTX_SCOPE("cusci::linalg::toeplitz");
  const std::string fn = name("toeplitz");
  const ndarray c1 = atleast_1d(c);
  const ndarray r1 = r ? atleast_1d(*r) : (is_complex(c.dtype()) ? conj(c1) : c1);
  const shape_t batch = apply_over_batch_shape(leading(c1, 1), leading(r1, 1), fn, "_toeplitz");
  const dtype dt = promote_types(c1.dtype(), r1.dtype());
  const std::int64_t m = c1.shape().back(), n = r1.shape().back();
  const shape_t out_shape = cat(batch, {m, n});
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  const ndarray x = batch_vectors(c1, batch, m, dt), y = batch_vectors(r1, batch, n, dt);
  index_plan p;
  p.kind = index_kind::toeplitz;
  p.nbatch = prod(batch);
  p.rows = m;
  p.cols = n;
  p.xlen = m;
  p.ylen = n;
  return run(p, out_shape, dt, &x, &y);
}

ndarray circulant(const ndarray& c) {
  CUSCI_NVTX_SCOPE("cusci::linalg::circulant");
  const std::string fn = name("circulant");
  const ndarray c1 = atleast_1d(c);
  const shape_t batch = leading(c1, 1);
  const std::int64_t n = c1.shape().back();
  const dtype dt = c.dtype();
  const shape_t out_shape = cat(batch, {n, n});
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  const ndarray x = batch_vectors(c1, batch, n, dt);
  index_plan p;
  p.kind = index_kind::circulant;
  p.nbatch = prod(batch);
  p.rows = p.cols = p.xlen = n;
  return run(p, out_shape, dt, &x);
}

ndarray hankel(const ndarray& c, const std::optional<ndarray>& r) {
  CUSCI_NVTX_SCOPE("cusci::linalg::hankel");
  const std::string fn = name("hankel");
  const ndarray rr = r ? *r : c;  // r = zeros_like(c) when not given (only its shape and dtype matter)
  if (rr.ndim() == 0)
    throw index_error(fn + ": r must have at least one dimension (NumPy: too many indices for array)");
  if (c.ndim() == 0) throw value_error(fn + ": c must have at least one dimension (zero-dimensional arrays cannot be concatenated)");
  const ndarray c1 = c.ndim() > 1 ? c.reshape({c.size()}) : c;
  const ndarray r1 = rr.ndim() > 1 ? rr.reshape({rr.size()}) : rr;
  const dtype dt = r ? promote_types(c.dtype(), r->dtype()) : c.dtype();
  const std::int64_t m = c1.size(), n = r1.size();
  const shape_t out_shape{m, n};
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  const ndarray x = batch_vectors(c1, {}, m, dt);
  // no r: the entries below the anti-diagonal are zero; a zeroed y serves them
  const ndarray y = r ? batch_vectors(r1, {}, n, dt) : cusci::zeros({n}, dt);
  index_plan p;
  p.kind = index_kind::hankel;
  p.rows = m;
  p.cols = n;
  p.xlen = m;
  p.ylen = n;
  return run(p, out_shape, dt, &x, &y);
}

ndarray companion(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::linalg::companion");
  const std::string fn = name("companion");
  const ndarray a1 = atleast_1d(a);
  const std::int64_t n = a1.shape().back();
  if (n < 2)
    throw value_error(fn + ": The length of `a` along the last axis must be at least 2, got " + std::to_string(n));
  const ndarray a0 = a1[{ellipsis, slice{0, 1}}];
  if (any_zero(a0))
    throw value_error(fn + ": The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) must not be zero.");
  if (is_bool(a.dtype()))
    throw type_error(fn + ": The numpy boolean negative, the `-` operator, is not supported (a has dtype bool)");
  const ndarray first_row = divide(negative(a1[{ellipsis, slice{1, std::nullopt}}]), multiply(a0, scalar(1.0)));
  const dtype dt = first_row.dtype();
  const shape_t batch = leading(a1, 1);
  const ndarray x = batch_vectors(first_row, batch, n - 1, dt);
  index_plan p;
  p.kind = index_kind::companion;
  p.nbatch = prod(batch);
  p.rows = p.cols = p.xlen = n - 1;
  return run(p, cat(batch, {n - 1, n - 1}), dt, &x);
}

convolution_mode parse_convolution_mode(std::string_view mode) {
  if (mode == "full") return convolution_mode::full;
  if (mode == "valid") return convolution_mode::valid;
  if (mode == "same") return convolution_mode::same;
  throw value_error("cusci::linalg::convolution_matrix: 'mode' argument must be one of ('full', 'valid', 'same'), got '" +
                    std::string(mode) + "'");
}

ndarray convolution_matrix(const ndarray& a, std::int64_t n, convolution_mode mode) {
  CUSCI_NVTX_SCOPE("cusci::linalg::convolution_matrix");
  const std::string fn = name("convolution_matrix");
  if (n <= 0) throw value_error(fn + ": n must be a positive integer, got " + std::to_string(n));
  if (a.size() == 0) throw value_error(fn + ": len(a) must be at least 1, got a of shape " + cusci::detail::shape_str(a.shape()));
  if (a.ndim() == 0) throw index_error(fn + ": a must have at least one dimension (NumPy: too many indices for array)");
  const std::int64_t m = a.shape().back();
  const std::int64_t full_rows = m + n - 1;
  std::int64_t rows = full_rows, t = 0;
  if (mode == convolution_mode::same) {
    const std::int64_t trim = std::min(n, m) - 1;
    t = trim / 2;
    rows = full_rows - trim;
  } else if (mode == convolution_mode::valid) {
    t = std::min(n, m) - 1;
    rows = full_rows - 2 * t;
  }
  const dtype dt = a.dtype();
  const shape_t batch = leading(a, 1);
  const shape_t out_shape = cat(batch, {rows, n});
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  const ndarray x = batch_vectors(a, batch, m, dt);
  index_plan p;
  p.kind = index_kind::convolution;
  p.nbatch = prod(batch);
  p.rows = rows;
  p.cols = n;
  p.xlen = m;
  p.p0 = t;
  return run(p, out_shape, dt, &x);
}

ndarray fiedler(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::linalg::fiedler");
  if (a.size() == 0) return cusci::empty({0, 0}, dtype::float64);
  if (a.size() == 1) return cusci::zeros({1, 1}, dtype::float64);
  if (is_bool(a.dtype()))
    throw type_error(name("fiedler") + ": numpy boolean subtract, the `-` operator, is not supported (a has dtype bool)");
  // The ufuncs lay their results out as NumPy's order='K' does, which for an F-ordered or transposed
  // batch of vectors is not C order; the result must be a new C-contiguous array (as every special
  // matrix), so the vectors (N per matrix, cheap) are made C-contiguous first, which gives the
  // (..., N, N) result C order, and the result is checked (no copy when it already is).
  auto c_order = [](const ndarray& x) { return x.is_c_contiguous() ? x : x.copy(order::C); };
  const ndarray a1 = c_order(atleast_1d(a));
  return c_order(cusci::abs(subtract(a1.expand_dims(-1), a1.expand_dims(-2))));
}

ndarray fiedler_companion(const ndarray& a) {
  CUSCI_NVTX_SCOPE("cusci::linalg::fiedler_companion");
  const std::string fn = name("fiedler_companion");
  const ndarray a1 = atleast_1d(a);
  const shape_t batch = leading(a1, 1);
  if (a1.ndim() > 1 && prod(batch) == 0)
    throw value_error(fn + ": Cannot apply_along_axis when any iteration dimensions are 0 (a has shape " +
                      cusci::detail::shape_str(a.shape()) + ")");
  const std::int64_t n = a1.shape().back();
  if (n == 0) return cusci::empty(cat(batch, {0}), a.dtype());
  if (n == 1) return cusci::empty(cat(batch, {0, 0}), a.dtype());
  const ndarray a0 = a1[{ellipsis, slice{0, 1}}];
  if (n > 2 && any_zero(a0)) throw value_error(fn + ": Leading coefficient is zero.");
  const ndarray na = negative(divide(a1, a0));  // -a / a[0], SciPy's values
  const dtype dt = na.dtype();
  const ndarray x = batch_vectors(na, batch, n, dt);
  index_plan p;
  p.kind = index_kind::fiedler_companion;
  p.nbatch = prod(batch);
  p.rows = p.cols = n - 1;
  p.xlen = n;
  return run(p, cat(batch, {n - 1, n - 1}), dt, &x);
}

ndarray leslie(const ndarray& f, const ndarray& s) {
  CUSCI_NVTX_SCOPE("cusci::linalg::leslie");
  const std::string fn = name("leslie");
  const shape_t batch = apply_over_batch_shape(leading(f, 1), leading(s, 1), fn, "leslie");
  const ndarray f1 = atleast_1d(f), s1 = atleast_1d(s);
  const std::int64_t n = f1.shape().back();
  if (n != s1.shape().back() + 1)
    throw value_error(fn + ": Incorrect lengths for f and s. The length of s along the last axis must be one less "
                           "than the length of f (got " + std::to_string(n) + " and " +
                      std::to_string(s1.shape().back()) + ").");
  if (s1.shape().back() == 0) throw value_error(fn + ": The length of s must be at least 1.");
  const dtype dt = promote_types(f.dtype(), s.dtype());
  const shape_t out_shape = cat(batch, {n, n});
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  const ndarray x = batch_vectors(f1, batch, n, dt), y = batch_vectors(s1, batch, n - 1, dt);
  index_plan p;
  p.kind = index_kind::leslie;
  p.nbatch = prod(batch);
  p.rows = p.cols = p.xlen = n;
  p.ylen = n - 1;
  return run(p, out_shape, dt, &x, &y);
}

ndarray block_diag(const std::vector<ndarray>& arrs) {
  CUSCI_NVTX_SCOPE("cusci::linalg::block_diag");
  const std::string fn = name("block_diag");
  if (arrs.empty()) return cusci::zeros({1, 0}, dtype::float64);
  std::vector<ndarray> a2;
  a2.reserve(arrs.size());
  for (const auto& a : arrs) a2.push_back(atleast_2d(a));
  shape_t batch = leading(a2[0], 2);
  dtype dt = a2[0].dtype();
  std::int64_t rows = 0, cols = 0;
  for (std::size_t k = 0; k < a2.size(); ++k) {
    if (k > 0) {
      batch = broadcast_shapes(batch, leading(a2[k], 2));
      dt = promote_types(dt, a2[k].dtype());
    }
    rows += a2[k].shape()[a2[k].ndim() - 2];
    cols += a2[k].shape().back();
  }
  const shape_t out_shape = cat(batch, {rows, cols});
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  ndarray out = cusci::zeros(out_shape, dt);
  if (out.size() == 0) return out;
  std::int64_t r = 0, c = 0;
  for (const auto& a : a2) {
    const std::int64_t rr = a.shape()[a.ndim() - 2], cc = a.shape().back();
    if (rr > 0 && cc > 0) {
      ndarray view = out[{ellipsis, slice{r, r + rr}, slice{c, c + cc}}];
      cusci::detail::copy_cast(a.broadcast_to(cat(batch, {rr, cc})), view);
    }
    r += rr;
    c += cc;
  }
  return out;
}

ndarray hadamard(std::int64_t n, dtype dt) {
  CUSCI_NVTX_SCOPE("cusci::linalg::hadamard");
  const std::string fn = name("hadamard");
  if (n < 1 || (n & (n - 1)) != 0)
    throw value_error(fn + ": n must be a positive integer, and n must be a power of 2, got " + std::to_string(n));
  if (is_bool(dt) && n > 1)
    throw type_error(fn + ": The numpy boolean negative, the `-` operator, is not supported (dtype bool, n > 1)");
  const shape_t out_shape{n, n};
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  index_plan p;
  p.kind = index_kind::hadamard;
  p.rows = p.cols = n;
  return run(p, out_shape, dt);
}

namespace {
ndarray formula(index_kind kind, std::int64_t rows, std::int64_t cols, std::int64_t n, std::int64_t opt, dtype dt,
                const std::string& fn) {
  const shape_t out_shape{rows, cols};
  cusci::detail::checked_size(out_shape, fn, itemsize(dt));
  index_plan p;
  p.kind = kind;
  p.rows = rows;
  p.cols = cols;
  p.p0 = n;
  p.p1 = opt;
  ndarray out = cusci::empty(out_shape, dt);
  detail::index_fill(p, itemsize(dt), out.data());
  return out;
}

int kind_code(pascal_kind k) { return k == pascal_kind::symmetric ? 0 : (k == pascal_kind::lower ? 1 : 2); }
}  // namespace

ndarray hilbert(std::int64_t n) {
  CUSCI_NVTX_SCOPE("cusci::linalg::hilbert");
  const std::int64_t m = n > 0 ? n : 0;
  return formula(index_kind::hilbert, m, m, m, 0, dtype::float64, name("hilbert"));
}

ndarray invhilbert(std::int64_t n, bool exact) {
  CUSCI_NVTX_SCOPE("cusci::linalg::invhilbert");
  const std::string fn = name("invhilbert");
  check_n_nonnegative(n, fn);
  if (exact && n > 14)
    throw not_implemented_error(fn + ": exact=True with n > 14 gives Python integers beyond int64 (SciPy: object "
                                     "array); cusci has no such dtype (n = " + std::to_string(n) + ")");
  return formula(exact ? index_kind::invhilbert_i : index_kind::invhilbert_f, n, n, n, 0,
                 exact ? dtype::int64 : dtype::float64, fn);
}

pascal_kind parse_pascal_kind(std::string_view kind) {
  if (kind == "symmetric") return pascal_kind::symmetric;
  if (kind == "lower") return pascal_kind::lower;
  if (kind == "upper") return pascal_kind::upper;
  throw value_error("cusci::linalg::pascal: kind must be 'symmetric', 'lower', or 'upper', got '" + std::string(kind) + "'");
}

ndarray pascal(std::int64_t n, pascal_kind kind, bool exact) {
  CUSCI_NVTX_SCOPE("cusci::linalg::pascal");
  const std::string fn = name("pascal");
  if (!exact) {
    const std::int64_t m = n > 0 ? n : 0;
    return formula(index_kind::pascal_f, m, m, m, kind_code(kind), dtype::float64, fn);
  }
  check_n_nonnegative(n, fn);
  if (n >= 35)
    throw not_implemented_error(fn + ": exact=True with n >= 35 gives Python integers (SciPy: object array); cusci "
                                     "has no such dtype (n = " + std::to_string(n) + ")");
  return formula(index_kind::pascal_u, n, n, n, kind_code(kind), dtype::uint64, fn);
}

ndarray invpascal(std::int64_t n, pascal_kind kind, bool exact) {
  CUSCI_NVTX_SCOPE("cusci::linalg::invpascal");
  const std::string fn = name("invpascal");
  if (kind == pascal_kind::symmetric || exact) check_n_nonnegative(n, fn);
  if (exact && n >= 35)
    throw not_implemented_error(fn + ": exact=True with n >= 35 gives Python integers (SciPy: object array); cusci "
                                     "has no such dtype (n = " + std::to_string(n) + ")");
  const std::int64_t m = n > 0 ? n : 0;
  return formula(exact ? index_kind::invpascal_i : index_kind::invpascal_f, m, m, m, kind_code(kind),
                 exact ? dtype::int64 : dtype::float64, fn);
}

ndarray helmert(std::int64_t n, bool full) {
  CUSCI_NVTX_SCOPE("cusci::linalg::helmert");
  const std::string fn = name("helmert");
  check_n_nonnegative(n, fn);
  if (n == 0) throw index_error(fn + ": index 0 is out of bounds for axis 0 with size 0 (n = 0)");
  return formula(index_kind::helmert, full ? n : n - 1, n, n, full ? 0 : 1, dtype::float64, fn);
}

dft_scale parse_dft_scale(std::string_view scale) {
  if (scale.empty() || scale == "none" || scale == "None") return dft_scale::none;
  if (scale == "sqrtn") return dft_scale::sqrtn;
  if (scale == "n") return dft_scale::n;
  throw value_error("cusci::linalg::dft: scale must be None, 'sqrtn', or 'n'; '" + std::string(scale) + "' is not valid.");
}

ndarray dft(std::int64_t n, dft_scale scale) {
  CUSCI_NVTX_SCOPE("cusci::linalg::dft");
  if (n < 0 && scale == dft_scale::sqrtn)
    throw value_error(name("dft") + ": scale='sqrtn' needs n >= 0 (math domain error), got n = " + std::to_string(n));
  const std::int64_t m = n > 0 ? n : 0;
  const int s = scale == dft_scale::none ? 0 : (scale == dft_scale::sqrtn ? 1 : 2);
  return formula(index_kind::dft, m, m, m, s, dtype::complex128, name("dft"));
}

ndarray khatri_rao(const ndarray& a, const ndarray& b) {
  CUSCI_NVTX_SCOPE("cusci::linalg::khatri_rao");
  const std::string fn = name("khatri_rao");
  const shape_t batch = apply_over_batch_shape(leading(a, 2), leading(b, 2), fn, "khatri_rao");
  if (a.ndim() < 2 || b.ndim() < 2)
    throw value_error(fn + ": The both arrays should be 2-dimensional (got shapes " +
                      cusci::detail::shape_str(a.shape()) + " and " + cusci::detail::shape_str(b.shape()) + ")");
  const std::int64_t m = a.shape()[a.ndim() - 2], k = a.shape().back();
  const std::int64_t n = b.shape()[b.ndim() - 2];
  if (b.shape().back() != k)
    throw value_error(fn + ": The number of columns for both arrays should be equal (got " + std::to_string(k) +
                      " and " + std::to_string(b.shape().back()) + ")");
  if (m * k == 0 || n * k == 0) return cusci::empty(cat(batch, {m * n, k}), a.dtype());
  const ndarray c = multiply(a.expand_dims(-2), b.expand_dims(-3));  // [..., m, n, k]
  return c.reshape(cat(batch, {m * n, k}));
}

}  // namespace cusci::linalg
