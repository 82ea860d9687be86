/// @file reduction.cu
/// The host side of the reduction engine (axis normalization, plan, chunking; see
/// reduction_engine.cuh) and the additive reductions: sum, prod, mean, nansum, nanprod, nanmean,
/// any, all, count_nonzero.

#include "reduction/reduction_ops.cuh"

namespace cusci {
namespace detail::red {

std::vector<bool> axis_mask(const char* fn, int ndim, const axis_arg& axis) {
  std::vector<bool> m(static_cast<std::size_t>(ndim), !axis.axes.has_value());
  if (!axis.axes) return m;
  for (int ax : *axis.axes) {
    if (ax < -ndim || ax >= ndim)
      throw index_error(std::string(fn) + ": axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                        std::to_string(ndim));
    const int a = ax < 0 ? ax + ndim : ax;
    if (m[a]) throw value_error(std::string(fn) + ": duplicate value in 'axis'");
    m[a] = true;
  }
  return m;
}

shape_t reduced_shape(const ndarray& a, const std::vector<bool>& mask, bool keepdims, i64& n_red) {
  shape_t out;
  n_red = 1;
  for (int i = 0; i < a.ndim(); ++i) {
    if (mask[i]) {
      n_red *= a.shape()[i];
      if (keepdims) out.push_back(1);
    } else {
      out.push_back(a.shape()[i]);
    }
  }
  return out;
}

namespace {

/// Fills `m` from n axes (lengths `sh`, byte strides `st`), dropping length-1 axes and merging each
/// axis into the previous one where the two are contiguous with each other (as `coalesce` does),
/// without allocating: a reduction's plan is built on every call.
void fill_map(nd_map<1>& m, const i64* sh, const i64* st, int n) {
  int k = 0;
  for (int d = 0; d < n; ++d) {
    if (sh[d] == 1) continue;
    if (k > 0 && st[d] * sh[d] == m.stride[0][k - 1]) {
      m.shape[k - 1] *= sh[d];
      m.stride[0][k - 1] = st[d];
      continue;
    }
    CUSCI_EXPECTS(k < max_kernel_dims, value_error,
                  "cusci: arrays of more than 16 non-mergeable dimensions are not supported by kernels");
    m.shape[k] = sh[d];
    m.stride[0][k] = st[d];
    ++k;
  }
  m.ndim = k;
}

}  // namespace

plan make_plan(const ndarray& src, const std::vector<bool>& reduced, char* out, dtype out_dt) {
  plan p;
  // Kept and reduced axes' lengths and strides; on the stack up to 64 axes (NumPy's limit).
  const int nd = src.ndim();
  constexpr int stack_dims = 64;
  i64 stack_buf[4 * stack_dims];
  std::vector<i64> heap_buf;
  i64* buf = stack_buf;
  if (nd > stack_dims) {
    heap_buf.resize(4 * static_cast<std::size_t>(nd));
    buf = heap_buf.data();
  }
  const int cap = nd > stack_dims ? nd : stack_dims;
  i64 *ks = buf, *kst = buf + cap, *rs = buf + 2 * cap, *rst = buf + 3 * cap;
  int nk0 = 0, nr0 = 0;
  const i64* shape = src.shape().data();
  const i64* strides = src.strides().data();
  for (int d = 0; d < nd; ++d) {
    if (!reduced[d]) {
      ks[nk0] = shape[d];
      kst[nk0++] = strides[d];
      continue;
    }
    // Reduced axes by decreasing |stride|, stably (insertion): equal strides (length-1 or broadcast
    // axes) keep their C order.
    int j = nr0++;
    while (j > 0 && std::llabs(rst[j - 1]) < std::llabs(strides[d])) {
      rs[j] = rs[j - 1];
      rst[j] = rst[j - 1];
      --j;
    }
    rs[j] = shape[d];
    rst[j] = strides[d];
  }
  i64 n_out = 1, n_red = 1;
  for (int d = 0; d < nk0; ++d) n_out *= ks[d];
  for (int d = 0; d < nr0; ++d) n_red *= rs[d];
  fill_map(p.g.kept, ks, kst, nk0);
  fill_map(p.g.red, rs, rst, nr0);
  const i64 item = static_cast<i64>(src.itemsize());
  p.g.base = static_cast<const char*>(src.data());
  p.g.in_dt = src.dtype();
  p.g.n_out = n_out;
  p.g.n_red = n_red;
  p.g.out = out;
  p.g.out_dt = out_dt;
  p.g.out_item = static_cast<int>(itemsize(out_dt));
  const int nr = p.g.red.ndim, nk = p.g.kept.ndim;
  const i64 r_last = nr > 0 ? std::llabs(p.g.red.stride[0][nr - 1]) : 0;
  const i64 k_last = nk > 0 ? std::llabs(p.g.kept.stride[0][nk - 1]) : 0;
  if (n_out == 1) p.rows = true;
  else if (nr == 0) p.rows = false;
  else p.rows = r_last < k_last;
  const bool static_contig = nr == 1 && p.g.red.stride[0][0] == item;
  bool kept_aligned = aligned16(src.data());
  for (int d = 0; d < nk; ++d) kept_aligned = kept_aligned && (p.g.kept.stride[0][d] % 16 == 0);
  p.g.vec = static_contig && kept_aligned;
  p.kept_vec_ok = nk == 1 && p.g.kept.stride[0][0] == item && aligned16(src.data());
  p.g.col_vec = 1;
  return p;
}

void configure(plan& p, i64 per_sm, int col_vec) {
  const i64 sms = sm_count();
  const i64 n_out = p.g.n_out, n_red = p.g.n_red;
  const i64 resident_blocks = sms * per_sm;
  const i64 resident_warps = resident_blocks * (block_threads / 32);
  if (p.rows) {
    const bool many_rows = n_out >= resident_warps / 2;
    p.g.per_block = !many_rows && n_red > 4096;
    i64 chunks;
    if (p.g.per_block) chunks = std::clamp<i64>(resident_blocks / n_out, 1, std::max<i64>(1, ceil_div(n_red, 4096)));
    else if (many_rows) chunks = 1;
    else chunks = std::clamp<i64>(resident_warps / n_out, 1, std::max<i64>(1, ceil_div(n_red, 1024)));
    i64 len = std::max<i64>(1, ceil_div(n_red, chunks));
    len = ceil_div(len, 16) * 16;  // keeps every chunk start on a 16-byte vector boundary
    p.g.chunk_len = len;
    p.g.chunks = std::max<i64>(1, ceil_div(n_red, len));
    const i64 items = n_out * p.g.chunks;
    const i64 blocks = p.g.per_block ? items : ceil_div(items, block_threads / 32);
    p.grid = dim3(static_cast<unsigned>(std::clamp<i64>(blocks, 1, resident_blocks)), 1, 1);
    p.g.col_vec = 1;
  } else {
    p.g.per_block = false;
    p.g.col_vec = col_vec;
    const i64 threads = ceil_div(n_out, col_vec);
    const i64 bx = ceil_div(threads, block_threads);
    CUSCI_EXPECTS(bx <= 0x7fffffffLL, value_error, "cusci: reduction output too large");
    // Rows of at least 64 elements per chunk; enough chunks for about one wave of resident blocks.
    i64 chunks = std::clamp<i64>(resident_blocks / bx, 1, std::max<i64>(1, ceil_div(n_red, 64)));
    chunks = std::min<i64>(chunks, 65535);
    const i64 len = std::max<i64>(1, ceil_div(n_red, chunks));
    p.g.chunk_len = len;
    p.g.chunks = std::max<i64>(1, ceil_div(n_red, len));
    p.grid = dim3(static_cast<unsigned>(bx), static_cast<unsigned>(p.g.chunks), 1);
  }
}

}  // namespace detail::red

namespace {

using namespace detail::red;
using c64 = cuda::std::complex<float>;
using c128 = cuda::std::complex<double>;

enum class kind { sum, prod, mean, nansum, nanprod, nanmean };

const char* fn_name(kind k) {
  switch (k) {
    case kind::sum: return "cusci::sum";
    case kind::prod: return "cusci::prod";
    case kind::mean: return "cusci::mean";
    case kind::nansum: return "cusci::nansum";
    case kind::nanprod: return "cusci::nanprod";
    default: return "cusci::nanmean";
  }
}

/// Accumulator dtype of a sum/product/mean with result dtype r.
dtype sum_acc(dtype r) {
  if (r == dtype::bool_ || is_signed_integer(r)) return dtype::int64;
  if (is_unsigned_integer(r)) return dtype::uint64;
  if (is_floating(r)) return dtype::float64;
  return dtype::complex128;
}

/// Runs Op<Acc> with input In over the plan, for the accumulator dtype `acc`.
template <template <class> class Op, class... Dummy>
void run_acc(dtype acc, const plan& p, const store_ctx& c) {
  if (acc == dtype::float64) run<dyn, Op<double>>(p, c);
  else if (acc == dtype::complex128) run<dyn, Op<c128>>(p, c);
  else if (acc == dtype::uint64) run<dyn, Op<std::uint64_t>>(p, c);
  else run<dyn, Op<std::int64_t>>(p, c);
}

template <class A> using sum_op = op_sum<A, false, false>;
template <class A> using prod_op = op_sum<A, true, false>;
template <class A> using mean_op = op_sum<A, false, false, true>;
template <class A> using nansum_op = op_sum<A, false, true>;
template <class A> using nanprod_op = op_sum<A, true, true>;

ndarray additive(kind k, const ndarray& a, const axis_arg& axis, const reduce_options& opts) {
  const char* fn = fn_name(k);
  const std::vector<bool> mask = axis_mask(fn, a.ndim(), axis);
  const dtype d = a.dtype();
  // NaN variants of non-inexact inputs are the plain reductions (NumPy does the same).
  if (!is_inexact(d)) {
    if (k == kind::nansum) k = kind::sum;
    else if (k == kind::nanprod) k = kind::prod;
    else if (k == kind::nanmean) k = kind::mean;
  }
  dtype r;
  if (opts.dtype) r = *opts.dtype;
  else if (k == kind::mean || k == kind::nanmean) r = (d == dtype::bool_ || is_integer(d)) ? dtype::float64 : d;
  else r = default_sum_dtype(d);
  if (k == kind::nanmean && !is_inexact(r))
    throw type_error(std::string(fn) + ": dtype must be inexact (floating or complex) for an inexact input, got " +
                     std::string(dtype_name(r)));

  i64 n_red = 0;
  const shape_t out_shape = reduced_shape(a, mask, opts.keepdims, n_red);
  ndarray out = empty(out_shape, r);
  if (out.size() == 0) return out;

  // Inputs whose cast to the result dtype changes values the accumulator would see differently
  // (float -> int truncation, complex -> real, narrowing floats, anything -> bool) are cast first.
  // (Bound by reference: copying an ndarray copies its shape and strides, a cost on every call.)
  const bool direct = (promote_types(d, r) == r) || (is_integer(r) && (is_integer(d) || d == dtype::bool_));
  ndarray cast;
  if (!direct) cast = a.astype(r);
  const ndarray& src = direct ? a : cast;
  const plan p = make_plan(src, mask, static_cast<char*>(out.data()), r);
  const dtype sd = src.dtype();
  const dtype acc = sum_acc(r);
  const store_ctx c{.n_red = n_red};
  // float32 / float64 (and complex) inputs load statically (vector loads); the float32 sum kernels add
  // small groups in float32 before widening, only when the result is float32 too.
  switch (k) {
    case kind::sum:
      if (r == dtype::float32 && sd == dtype::float32) run<float, sum_op<double>>(p, c);
      else if (acc == dtype::float64 && sd == dtype::float64) run<double, sum_op<double>>(p, c);
      else if (r == dtype::complex64 && sd == dtype::complex64) run<c64, sum_op<c128>>(p, c);
      else if (acc == dtype::complex128 && sd == dtype::complex128) run<c128, sum_op<c128>>(p, c);
      else run_acc<sum_op>(acc, p, c);
      break;
    case kind::mean:
      if (r == dtype::float32 && sd == dtype::float32) run<float, mean_op<double>>(p, c);
      else if (acc == dtype::float64 && sd == dtype::float64) run<double, mean_op<double>>(p, c);
      else run_acc<mean_op>(acc, p, c);
      break;
    case kind::prod:
      run_acc<prod_op>(acc, p, c);
      break;
    case kind::nansum:
      if (sd == dtype::float32 && acc == dtype::float64) run<float, nansum_op<double>>(p, c);
      else run_acc<nansum_op>(acc, p, c);
      break;
    case kind::nanprod:
      run_acc<nanprod_op>(acc, p, c);
      break;
    case kind::nanmean:
      if (acc == dtype::complex128) run<dyn, op_nanmean<c128>>(p, c);
      else if (sd == dtype::float32) run<float, op_nanmean<double>>(p, c);
      else run<dyn, op_nanmean<double>>(p, c);
      break;
  }
  return out;
}

/// any / all / count_nonzero.
template <class Op>
ndarray logical(const char* fn, const ndarray& a, const axis_arg& axis, bool keepdims, dtype r) {
  const std::vector<bool> mask = axis_mask(fn, a.ndim(), axis);
  i64 n_red = 0;
  const shape_t out_shape = reduced_shape(a, mask, keepdims, n_red);
  ndarray out = empty(out_shape, r);
  if (out.size() == 0) return out;
  const plan p = make_plan(a, mask, static_cast<char*>(out.data()), r);
  run<dyn, Op>(p, store_ctx{.n_red = n_red});
  return out;
}

}  // namespace

ndarray sum(const ndarray& a, axis_arg axis, reduce_options opts) { return additive(kind::sum, a, axis, opts); }
ndarray prod(const ndarray& a, axis_arg axis, reduce_options opts) { return additive(kind::prod, a, axis, opts); }
ndarray mean(const ndarray& a, axis_arg axis, reduce_options opts) { return additive(kind::mean, a, axis, opts); }
ndarray nansum(const ndarray& a, axis_arg axis, reduce_options opts) {
  return additive(kind::nansum, a, axis, opts);
}
ndarray nanprod(const ndarray& a, axis_arg axis, reduce_options opts) {
  return additive(kind::nanprod, a, axis, opts);
}
ndarray nanmean(const ndarray& a, axis_arg axis, reduce_options opts) {
  return additive(kind::nanmean, a, axis, opts);
}
ndarray any(const ndarray& a, axis_arg axis, keepdims_options opts) {
  return logical<op_logic<false>>("cusci::any", a, axis, opts.keepdims, dtype::bool_);
}
ndarray all(const ndarray& a, axis_arg axis, keepdims_options opts) {
  return logical<op_logic<true>>("cusci::all", a, axis, opts.keepdims, dtype::bool_);
}
ndarray count_nonzero(const ndarray& a, axis_arg axis, keepdims_options opts) {
  return logical<op_count>("cusci::count_nonzero", a, axis, opts.keepdims, dtype::int64);
}

}  // namespace cusci
