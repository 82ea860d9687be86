// cusci::linalg's schur family: argument handling (SciPy 1.18's checks and messages), dtype choice, batch
// shapes; the input gather on the GPU (common/dense.cu), one copy to pinned host memory, LAPACK per
// matrix on host threads (schur_lapack.cpp) and one copy back; rsf2csf / cdf2rdf on the GPU (schur.cu).

#include "cusci/linalg/schur.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"
#include "common/detail.hpp"
#include "common/shapes.hpp"
#include "schur/schur_detail.hpp"
#include "schur/schur_lapack.hpp"

namespace cusci::linalg {

namespace {

using namespace detail;
using schur_detail::kind;
using i64 = std::int64_t;
using cd = std::complex<double>;

kind kind_of(dtype t) {
  switch (t) {
    case dtype::float32: return kind::s;
    case dtype::float64: return kind::d;
    case dtype::complex64: return kind::c;
    default: return kind::z;
  }
}

dtype complex_of(dtype t) {
  if (is_complex(t)) return t;
  return t == dtype::float32 ? dtype::complex64 : dtype::complex128;
}

/// SciPy's LAPACK type (get_lapack_funcs): inexact kept (float16 -> float32), bool and the integers of at
/// most 16 bits -> float32, other integers -> float64.
dtype lapack_type(dtype t) {
  switch (t) {
    case dtype::float32:
    case dtype::float64:
    case dtype::complex64:
    case dtype::complex128: return t;
    case dtype::float16:
    case dtype::bool_:
    case dtype::int8:
    case dtype::uint8:
    case dtype::int16:
    case dtype::uint16: return dtype::float32;
    default: return dtype::float64;
  }
}

/// `_double_precision = ['i', 'l', 'd']` of schur / qz: the real dtypes whose complex output is complex128.
bool double_precision(dtype t) { return t == dtype::int32 || t == dtype::int64 || t == dtype::float64; }

shape_t batch_of(const shape_t& s, std::size_t core) { return shape_t(s.begin(), s.end() - core); }

shape_t with(shape_t s, std::initializer_list<i64> tail) {
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

/// SciPy's _apply_over_batch refuses zero-size batches.
void check_batch(const std::string& fn, const std::string& name, const shape_t& batch) {
  if (!batch.empty() && prod(batch) == 0)
    throw value_error(fn + ": `" + name + "` does not support zero-size batches.");
}

void check_output(const std::string& fn, const std::string& output) {
  if (output != "real" && output != "complex" && output != "r" && output != "c")
    throw value_error(fn + ": argument must be 'real', or 'complex'");
}

bool complex_output(const std::string& output) { return output == "complex" || output == "c"; }

/// [..., n, m] view of a buffer holding, per batch entry, a column-major n x m block.
ndarray colmajor_view(const ndarray& buf, const shape_t& batch, i64 n, i64 m) {
  const i64 isz = static_cast<i64>(itemsize(buf.dtype()));
  shape_t shape = with(batch, {n, m});
  shape_t strides(shape.size(), 0);
  strides[shape.size() - 2] = isz;
  strides[shape.size() - 1] = n * isz;
  i64 s = n * m * isz;
  for (std::size_t k = batch.size(); k-- > 0;) {
    strides[k] = s;
    s *= batch[k];
  }
  return ndarray(buf.memory(), buf.dtype(), shape, strides, buf.offset(), buf.device());
}

void sync() { CUSCI_CUDA_TRY(cudaStreamSynchronize(get_current_stream())); }

/// Gathers the matrices of `a` (batch dims broadcast to `batch`) as column-major blocks of dtype ct on
/// the GPU, with the finiteness check, and copies them to a pinned host block. Synchronizes.
memory_ptr to_pinned(const std::string& fn, const ndarray& a, const shape_t& batch, dtype ct, bool check) {
  const i64 nbatch = prod(batch), n = a.shape(-2), m = a.shape(-1);
  const std::size_t bytes = static_cast<std::size_t>(nbatch * n * m) * itemsize(ct);
  memory_ptr h = pinned_malloc(bytes);
  if (bytes == 0) return h;
  const ndarray src = a.astype(ct, false);
  const batch_view v = broadcast_view(src.data(), operand{src.shape(), src.strides()}, batch);
  ndarray buf = cusci::empty({nbatch * n * m}, ct);
  device_buffer<int> status(2);
  clear_status(status.data());
  gather(ct, v, nbatch, n, m, fill_mode::full, false, check, true, buf.data(), status.data());
  if (check && read_status(status.data()).nonfinite)
    throw value_error(fn + ": array must not contain infs or NaNs");
  CUSCI_CUDA_TRY(cudaMemcpyAsync(h->ptr(), buf.data(), bytes, cudaMemcpyDeviceToHost, get_current_stream()));
  sync();
  return h;
}

/// A new device array [batch..., n, m] (Fortran-ordered per matrix) from column-major host blocks.
/// Asynchronous: the caller keeps `host` alive and synchronizes before releasing it.
ndarray upload(const void* host, dtype ct, const shape_t& batch, i64 n, i64 m) {
  const i64 nbatch = prod(batch);
  ndarray buf = cusci::empty({nbatch * n * m}, ct);
  const std::size_t bytes = static_cast<std::size_t>(nbatch * n * m) * itemsize(ct);
  if (bytes) CUSCI_CUDA_TRY(cudaMemcpyAsync(buf.data(), host, bytes, cudaMemcpyHostToDevice, get_current_stream()));
  return colmajor_view(buf, batch, n, m);
}

/// A new C-order device array of `shape` from host memory (asynchronous, as upload).
ndarray upload_c(const void* host, dtype ct, const shape_t& shape) {
  ndarray buf = cusci::empty(shape, ct);
  const std::size_t bytes = buf.nbytes();
  if (bytes) CUSCI_CUDA_TRY(cudaMemcpyAsync(buf.data(), host, bytes, cudaMemcpyHostToDevice, get_current_stream()));
  return buf;
}

char* at(const memory_ptr& p, i64 b, i64 elems, dtype t) {
  return static_cast<char*>(p->ptr()) + static_cast<std::size_t>(b * elems) * itemsize(t);
}

/// Keeps the first exception a host-side callable threw on any thread.
struct first_error {
  std::mutex mu;
  std::exception_ptr e;
  void keep() {
    std::lock_guard<std::mutex> l(mu);
    if (!e) e = std::current_exception();
  }
  void rethrow() {
    if (e) std::rethrow_exception(e);
  }
};

void check_lwork(const std::string& fn, const std::optional<i64>& lwork, i64 minimum) {
  if (!lwork || *lwork == -1) return;
  if (*lwork < std::max<i64>(1, minimum))
    throw value_error(fn + ": lwork must be -1 (query) or at least " + std::to_string(std::max<i64>(1, minimum)) +
                      ", got " + std::to_string(*lwork));
}

void check_square_nd(const std::string& fn, const ndarray& a, const std::string& msg) {
  if (a.ndim() < 2 || a.shape(-1) != a.shape(-2)) throw value_error(fn + ": " + msg);
}

std::string slice_note(i64 nbatch, i64 b) {
  return nbatch > 1 ? " (matrix " + std::to_string(b) + " of the batch)" : std::string();
}

/// An identity block in column-major host storage.
void set_identity(char* dst, dtype t, i64 n) {
  const std::size_t isz = itemsize(t);
  std::memset(dst, 0, static_cast<std::size_t>(n * n) * isz);
  for (i64 i = 0; i < n; ++i) {
    char* p = dst + static_cast<std::size_t>(i * n + i) * isz;
    if (t == dtype::float32 || t == dtype::complex64) {
      const float one = 1.0f;
      std::memcpy(p, &one, sizeof one);
    } else {
      const double one = 1.0;
      std::memcpy(p, &one, sizeof one);
    }
  }
}

}  // namespace

// --- schur ---------------------------------------------------------------------------------------

schur_result schur(const ndarray& a, const schur_options& o) {
  const std::string fn = "schur";
  check_output(fn, o.output);
  check_square_nd(fn, a, "expected square matrix");
  const bool sorted = static_cast<bool>(o.sort_fn) || !o.sort.empty();
  if (!o.sort_fn && !o.sort.empty() && o.sort != "lhp" && o.sort != "rhp" && o.sort != "iuc" && o.sort != "ouc")
    throw value_error(fn + ": 'sort' parameter must either be 'None', or a callable, or one of "
                           "('lhp','rhp','iuc','ouc')");
  const shape_t batch = batch_of(a.shape(), 2);
  check_batch(fn, "a", batch);
  const i64 n = a.shape(-1), nbatch = prod(batch);
  // SciPy converts integers to int64 (LAPACK double); bool and float16 compute in float32.
  dtype ct = is_integer(a.dtype()) ? dtype::float64 : lapack_type(a.dtype());
  if (complex_output(o.output)) ct = complex_of(ct);
  check_lwork(fn, o.lwork, (is_complex(ct) ? 2 : 3) * n);

  schur_result r;
  if (n == 0) {
    r.t = cusci::empty(with(batch, {0, 0}), ct);
    r.z = cusci::empty(with(batch, {0, 0}), ct);
    r.sdim = sorted ? cusci::zeros(batch, dtype::int64) : cusci::empty({0}, dtype::int64);
    return r;
  }
  memory_ptr A = to_pinned(fn, a, batch, ct, o.check_finite);
  memory_ptr Z = pinned_malloc(static_cast<std::size_t>(nbatch * n * n) * itemsize(ct));
  std::vector<int> info(static_cast<std::size_t>(nbatch)), sd(static_cast<std::size_t>(nbatch));
  first_error err;
  schur_detail::select1 sel;
  if (o.sort_fn) {
    sel = [&](cd w) {
      try {
        return o.sort_fn(w);
      } catch (...) {
        err.keep();
        return false;
      }
    };
  } else if (o.sort == "lhp") {
    sel = [](cd w) { return w.real() < 0.0; };
  } else if (o.sort == "rhp") {
    sel = [](cd w) { return w.real() >= 0.0; };
  } else if (o.sort == "iuc") {
    sel = [](cd w) { return std::abs(w) <= 1.0; };
  } else if (o.sort == "ouc") {
    sel = [](cd w) { return std::abs(w) > 1.0; };
  }
  const kind k = kind_of(ct);
  schur_detail::parallel_for(nbatch, [&](i64 b) {
    info[b] = schur_detail::gees(k, static_cast<int>(n), at(A, b, n * n, ct), at(Z, b, n * n, ct),
                                 sorted ? &sel : nullptr, &sd[b]);
  });
  err.rethrow();
  for (i64 b = 0; b < nbatch; ++b) {
    const int inf = info[b];
    if (inf < 0)
      throw value_error(fn + ": illegal value in " + std::to_string(-inf) + "-th argument of internal gees");
    if (inf == n + 1)
      throw lin_alg_error(fn + ": Eigenvalues could not be separated for reordering." + slice_note(nbatch, b));
    if (inf == n + 2)
      throw lin_alg_error(fn + ": Leading eigenvalues do not satisfy sort condition." + slice_note(nbatch, b));
    if (inf > 0) throw lin_alg_error(fn + ": Schur form not found. Possibly ill-conditioned." + slice_note(nbatch, b));
  }
  r.t = upload(A->ptr(), ct, batch, n, n);
  r.z = upload(Z->ptr(), ct, batch, n, n);
  if (sorted) {
    std::vector<i64> s(sd.begin(), sd.end());
    r.sdim = upload_c(s.data(), dtype::int64, batch);
    sync();
  } else {
    r.sdim = cusci::empty({0}, dtype::int64);
    sync();
  }
  return r;
}

// --- hessenberg ----------------------------------------------------------------------------------

hessenberg_result hessenberg(const ndarray& a, const hessenberg_options& o) {
  const std::string fn = "hessenberg";
  check_square_nd(fn, a, "expected square matrix");
  const shape_t batch = batch_of(a.shape(), 2);
  check_batch(fn, "a", batch);
  const i64 n = a.shape(-1), nbatch = prod(batch);
  const dtype ct = lapack_type(a.dtype());
  hessenberg_result r;
  if (n == 0) {
    r.h = cusci::empty(with(batch, {0, 0}), ct);
    if (o.calc_q) r.q = cusci::empty(with(batch, {0, 0}), ct);
    return r;
  }
  memory_ptr A = to_pinned(fn, a, batch, ct, o.check_finite);
  memory_ptr Q = o.calc_q ? pinned_malloc(static_cast<std::size_t>(nbatch * n * n) * itemsize(ct)) : memory_ptr();
  std::vector<int> info(static_cast<std::size_t>(nbatch), 0);
  const kind k = kind_of(ct);
  schur_detail::parallel_for(nbatch, [&](i64 b) {
    if (n <= 2) {
      if (Q) set_identity(at(Q, b, n * n, ct), ct, n);
      return;
    }
    info[b] = schur_detail::hessenberg(k, static_cast<int>(n), at(A, b, n * n, ct), Q ? at(Q, b, n * n, ct) : nullptr);
  });
  for (i64 b = 0; b < nbatch; ++b)
    if (info[b] != 0)
      throw value_error(fn + ": illegal value in argument " + std::to_string(-info[b]) +
                        " of internal gehrd (hessenberg)");
  r.h = upload(A->ptr(), ct, batch, n, n);
  if (Q) r.q = upload(Q->ptr(), ct, batch, n, n);
  sync();
  return r;
}

// --- matrix_balance ------------------------------------------------------------------------------

matrix_balance_result matrix_balance(const ndarray& a_in, const matrix_balance_options& o) {
  const std::string fn = "matrix_balance";
  ndarray a = a_in;
  if (a.ndim() == 0) a = a.reshape({1, 1});
  else if (a.ndim() == 1) a = a.reshape({1, a.shape(0)});
  if (a.shape(-1) != a.shape(-2)) throw value_error(fn + ": The data matrix for balancing should be square.");
  const shape_t batch = batch_of(a.shape(), 2);
  check_batch(fn, "A", batch);
  const i64 n = a.shape(-1), nbatch = prod(batch);
  const dtype ct = lapack_type(a.dtype());
  matrix_balance_result r;
  if (n == 0) {
    r.b = cusci::empty(with(batch, {0, 0}), ct);
    if (o.separate) {
      r.scale = cusci::empty(with(batch, {0}), dtype::float64);
      r.perm = cusci::empty(with(batch, {0}), dtype::int64);
    } else {
      r.t = cusci::empty(with(batch, {0, 0}), dtype::float64);
    }
    return r;
  }
  memory_ptr A = to_pinned(fn, a, batch, ct, true);
  const char job = o.permute ? (o.scale ? 'B' : 'P') : (o.scale ? 'S' : 'N');
  std::vector<double> scaling(static_cast<std::size_t>(nbatch * n));
  std::vector<i64> perm(static_cast<std::size_t>(nbatch * n));
  std::vector<int> info(static_cast<std::size_t>(nbatch), 0);
  const kind k = kind_of(ct);
  schur_detail::parallel_for(nbatch, [&](i64 b) {
    int ilo = 0, ihi = 0;
    std::vector<double> ps(static_cast<std::size_t>(n));
    info[b] = schur_detail::gebal(k, job, static_cast<int>(n), at(A, b, n * n, ct), &ilo, &ihi, ps.data());
    schur_detail::balance_scaling_perm(static_cast<int>(n), ilo, ihi, ps.data(), scaling.data() + b * n,
                                       perm.data() + b * n);
  });
  for (i64 b = 0; b < nbatch; ++b)
    if (info[b] < 0)
      throw value_error(fn + ": xGEBAL exited with the internal error \"illegal value in argument number " +
                        std::to_string(-info[b]) + ".\". See LAPACK documentation for the xGEBAL error codes.");
  r.b = upload(A->ptr(), ct, batch, n, n);
  std::vector<double> t;
  if (o.separate) {
    r.scale = upload_c(scaling.data(), dtype::float64, with(batch, {n}));
    r.perm = upload_c(perm.data(), dtype::int64, with(batch, {n}));
  } else {
    // t = diag(scaling)[iperm, :]: row i holds scaling[iperm[i]] in column iperm[i] (column-major blocks).
    t.assign(static_cast<std::size_t>(nbatch * n * n), 0.0);
    for (i64 b = 0; b < nbatch; ++b) {
      const i64* p = perm.data() + b * n;
      std::vector<i64> iperm(static_cast<std::size_t>(n));
      for (i64 j = 0; j < n; ++j) iperm[p[j]] = j;
      for (i64 i = 0; i < n; ++i) t[b * n * n + iperm[i] * n + i] = scaling[b * n + iperm[i]];
    }
    r.t = upload(t.data(), dtype::float64, batch, n, n);
  }
  sync();
  return r;
}

// --- qz / ordqz ----------------------------------------------------------------------------------

namespace {

struct qz_work {
  shape_t batch;
  i64 n = 0, nbatch = 0;
  dtype ct = dtype::float64;
  memory_ptr A, B, Q, Z;
  std::vector<cd> alpha, beta;
};

/// Checks, dtype choice and ?gges over the batch (shared by qz and ordqz).
qz_work run_qz(const std::string& fn, const ndarray& a, const ndarray& b, const std::string& output,
               const std::optional<i64>& lwork, bool check_finite, bool for_ordqz,
               const std::function<void(const qz_work&)>& before_device) {
  check_output(fn, output);
  if (a.ndim() < 2 || b.ndim() < 2 || a.shape(-1) != a.shape(-2) || b.shape(-1) != b.shape(-2) ||
      a.shape(-1) != b.shape(-1))
    throw value_error(fn + ": Array dimensions must be square and agree");
  qz_work w;
  bool ok = true;
  w.batch = broadcast_batch(batch_of(a.shape(), 2), batch_of(b.shape(), 2), ok);
  if (!ok)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes of A " +
                      shape_str(batch_of(a.shape(), 2)) + " and B " + shape_str(batch_of(b.shape(), 2)) + ")");
  check_batch(fn, "A", w.batch);
  w.n = a.shape(-1);
  w.nbatch = prod(w.batch);
  dtype ta = a.dtype(), tb = b.dtype();
  if (complex_output(output)) {
    if (!is_complex(ta)) ta = double_precision(ta) ? dtype::complex128 : dtype::complex64;
    if (!is_complex(tb)) tb = double_precision(tb) ? dtype::complex128 : dtype::complex64;
  }
  w.ct = lapack_type(promote_types(lapack_type(ta), lapack_type(tb)));
  check_lwork(fn, lwork, is_complex(w.ct) ? 2 * w.n : std::max<i64>(8 * w.n, 6 * w.n + 16));
  (void)for_ordqz;
  if (before_device) before_device(w);
  w.alpha.assign(static_cast<std::size_t>(w.nbatch * w.n), cd(0));
  w.beta.assign(static_cast<std::size_t>(w.nbatch * w.n), cd(0));
  if (w.n == 0) return w;
  const std::size_t bytes = static_cast<std::size_t>(w.nbatch * w.n * w.n) * itemsize(w.ct);
  w.A = to_pinned(fn, a, w.batch, w.ct, check_finite);
  w.B = to_pinned(fn, b, w.batch, w.ct, check_finite);
  w.Q = pinned_malloc(bytes);
  w.Z = pinned_malloc(bytes);
  std::vector<int> info(static_cast<std::size_t>(w.nbatch), 0);
  const kind k = kind_of(w.ct);
  const i64 n = w.n, nn = n * n;
  schur_detail::parallel_for(w.nbatch, [&](i64 i) {
    info[i] = schur_detail::gges(k, static_cast<int>(n), at(w.A, i, nn, w.ct), at(w.B, i, nn, w.ct),
                                 at(w.Q, i, nn, w.ct), at(w.Z, i, nn, w.ct), w.alpha.data() + i * n,
                                 w.beta.data() + i * n);
  });
  for (i64 i = 0; i < w.nbatch; ++i) {
    const int inf = info[i];
    if (inf < 0) throw value_error(fn + ": Illegal value in argument " + std::to_string(-inf) + " of gges");
    if (inf > 0 && inf <= n)
      throw lin_alg_error(fn + ": The QZ iteration failed. (a,b) are not in Schur form, but ALPHAR(j), ALPHAI(j), "
                               "and BETA(j) should be correct for J=" +
                          std::to_string(inf - 1) + ",...,N" + slice_note(w.nbatch, i));
    if (inf == n + 1) throw lin_alg_error(fn + ": Something other than QZ iteration failed" + slice_note(w.nbatch, i));
    if (inf > n + 1) throw lin_alg_error(fn + ": Reordering failed in <s,d,c,z>tgsen" + slice_note(w.nbatch, i));
  }
  return w;
}

}  // namespace

qz_result qz(const ndarray& a, const ndarray& b, const qz_options& o) {
  const std::string fn = "qz";
  if (!o.sort.empty())
    throw value_error(fn + ": The 'sort' input of qz() has to be None and will be removed in a future release. "
                           "Use ordqz instead.");
  qz_work w = run_qz(fn, a, b, o.output, o.lwork, o.check_finite, false, {});
  qz_result r;
  if (w.n == 0) {
    for (ndarray* x : {&r.aa, &r.bb, &r.q, &r.z}) *x = cusci::empty(with(w.batch, {0, 0}), w.ct);
    return r;
  }
  r.aa = upload(w.A->ptr(), w.ct, w.batch, w.n, w.n);
  r.bb = upload(w.B->ptr(), w.ct, w.batch, w.n, w.n);
  r.q = upload(w.Q->ptr(), w.ct, w.batch, w.n, w.n);
  r.z = upload(w.Z->ptr(), w.ct, w.batch, w.n, w.n);
  sync();
  return r;
}

ordqz_result ordqz(const ndarray& a, const ndarray& b, const ordqz_options& o) {
  const std::string fn = "ordqz";
  if (!o.sort_fn && o.sort != "lhp" && o.sort != "rhp" && o.sort != "iuc" && o.sort != "ouc")
    throw value_error(fn + ": sort parameter must be None, a callable, or one of ('lhp','rhp','iuc','ouc')");
  qz_work w = run_qz(fn, a, b, o.output, std::nullopt, o.check_finite, true, {});
  const dtype ct = w.ct, cplx = complex_of(ct), beta_t = is_complex(ct) ? ct : real_dtype(ct);
  const i64 n = w.n, nn = n * n;
  ordqz_result r;
  if (n == 0) {
    for (ndarray* x : {&r.aa, &r.bb, &r.q, &r.z}) *x = cusci::empty(with(w.batch, {0, 0}), ct);
    r.alpha = cusci::empty(with(w.batch, {0}), cplx);
    r.beta = cusci::empty(with(w.batch, {0}), beta_t);
    return r;
  }
  // SciPy's selection functions of alpha / beta (complex alpha; beta real for real kinds).
  first_error err;
  auto select = [&](cd al, cd be) -> bool {
    if (o.sort_fn) {
      try {
        return o.sort_fn(al, be);
      } catch (...) {
        err.keep();
        return false;
      }
    }
    if (o.sort == "ouc") {
      if (be == cd(0)) return al != cd(0);
      return std::abs(al / be) > 1.0;
    }
    if (be == cd(0)) return false;
    const cd q = al / be;
    if (o.sort == "lhp") return q.real() < 0.0;
    if (o.sort == "rhp") return q.real() > 0.0;
    return std::abs(q) < 1.0;  // iuc
  };
  std::vector<int> info(static_cast<std::size_t>(w.nbatch), 0);
  const kind k = kind_of(ct);
  schur_detail::parallel_for(w.nbatch, [&](i64 i) {
    std::vector<int> sel(static_cast<std::size_t>(n));
    for (i64 j = 0; j < n; ++j) sel[j] = select(w.alpha[i * n + j], w.beta[i * n + j]) ? 1 : 0;
    int m = 0;
    info[i] = schur_detail::tgsen(k, static_cast<int>(n), at(w.A, i, nn, ct), at(w.B, i, nn, ct),
                                  at(w.Q, i, nn, ct), at(w.Z, i, nn, ct), sel.data(), w.alpha.data() + i * n,
                                  w.beta.data() + i * n, &m);
  });
  err.rethrow();
  for (i64 i = 0; i < w.nbatch; ++i) {
    if (info[i] < 0) throw value_error(fn + ": Illegal value in argument " + std::to_string(-info[i]) + " of tgsen");
    if (info[i] == 1)
      throw value_error(fn + ": Reordering of (A, B) failed because the transformed matrix pair (A, B) would be too "
                             "far from generalized Schur form; the problem is very ill-conditioned. (A, B) may have "
                             "been partially reordered." +
                        slice_note(w.nbatch, i));
  }
  r.aa = upload(w.A->ptr(), ct, w.batch, n, n);
  r.bb = upload(w.B->ptr(), ct, w.batch, n, n);
  r.q = upload(w.Q->ptr(), ct, w.batch, n, n);
  r.z = upload(w.Z->ptr(), ct, w.batch, n, n);
  // alpha / beta in their dtypes (host conversion of n values per matrix)
  const i64 total = w.nbatch * n;
  std::vector<std::complex<float>> af, bf;
  std::vector<float> brf;
  std::vector<double> brd;
  if (cplx == dtype::complex64) {
    af.resize(total);
    for (i64 i = 0; i < total; ++i) af[i] = std::complex<float>(w.alpha[i]);
    r.alpha = upload_c(af.data(), cplx, with(w.batch, {n}));
  } else {
    r.alpha = upload_c(w.alpha.data(), cplx, with(w.batch, {n}));
  }
  if (beta_t == dtype::complex64) {
    bf.resize(total);
    for (i64 i = 0; i < total; ++i) bf[i] = std::complex<float>(w.beta[i]);
    r.beta = upload_c(bf.data(), beta_t, with(w.batch, {n}));
  } else if (beta_t == dtype::complex128) {
    r.beta = upload_c(w.beta.data(), beta_t, with(w.batch, {n}));
  } else if (beta_t == dtype::float32) {
    brf.resize(total);
    for (i64 i = 0; i < total; ++i) brf[i] = static_cast<float>(w.beta[i].real());
    r.beta = upload_c(brf.data(), beta_t, with(w.batch, {n}));
  } else {
    brd.resize(total);
    for (i64 i = 0; i < total; ++i) brd[i] = w.beta[i].real();
    r.beta = upload_c(brd.data(), beta_t, with(w.batch, {n}));
  }
  sync();
  return r;
}

// --- rsf2csf (GPU) -------------------------------------------------------------------------------

rsf2csf_result rsf2csf(const ndarray& t, const ndarray& z, bool check_finite) {
  const std::string fn = "rsf2csf";
  // SciPy's _commonType accepts int32, int64, float32, float64, complex64, complex128 only.
  auto allowed = [](dtype d) {
    return d == dtype::int32 || d == dtype::int64 || d == dtype::float32 || d == dtype::float64 ||
           d == dtype::complex64 || d == dtype::complex128;
  };
  if (!allowed(t.dtype()) || !allowed(z.dtype()))
    throw type_error(fn + ": unsupported dtype (SciPy accepts int32, int64, float32, float64, complex64 and "
                          "complex128), got T " + std::string(dtype_name(t.dtype())) + " and Z " +
                     std::string(dtype_name(z.dtype())));
  if (z.ndim() < 2 || z.shape(-1) != z.shape(-2)) throw value_error(fn + ": Input 'Z' must be square.");
  if (t.ndim() < 2 || t.shape(-1) != t.shape(-2)) throw value_error(fn + ": Input 'T' must be square.");
  if (t.shape(-1) != z.shape(-1))
    throw value_error(fn + ": Input array shapes must match: Z: " + shape_str(shape_t{z.shape(-2), z.shape(-1)}) +
                      " vs. T: " + shape_str(shape_t{t.shape(-2), t.shape(-1)}));
  bool ok = true;
  const shape_t batch = broadcast_batch(batch_of(t.shape(), 2), batch_of(z.shape(), 2), ok);
  if (!ok)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes of T " +
                      shape_str(batch_of(t.shape(), 2)) + " and Z " + shape_str(batch_of(z.shape(), 2)) + ")");
  check_batch(fn, "T", batch);
  auto single = [](dtype d) { return d == dtype::float32 || d == dtype::complex64; };
  const dtype ct = single(t.dtype()) && single(z.dtype()) ? dtype::complex64 : dtype::complex128;
  const i64 n = t.shape(-1), nbatch = prod(batch);
  rsf2csf_result r;
  ndarray T = cusci::empty({nbatch * n * n}, ct), Z = cusci::empty({nbatch * n * n}, ct);
  if (nbatch * n > 0) {
    device_buffer<int> status(2);
    clear_status(status.data());
    const ndarray ts = t.astype(ct, false), zs = z.astype(ct, false);
    gather(ct, broadcast_view(ts.data(), operand{ts.shape(), ts.strides()}, batch), nbatch, n, n, fill_mode::full,
           false, check_finite, true, T.data(), status.data());
    gather(ct, broadcast_view(zs.data(), operand{zs.shape(), zs.strides()}, batch), nbatch, n, n, fill_mode::full,
           false, check_finite, true, Z.data(), status.data());
    if (check_finite && read_status(status.data()).nonfinite)
      throw value_error(fn + ": array must not contain infs or NaNs");
    schur_detail::rsf2csf_device(ct, nbatch, n, T.data(), Z.data());
  }
  r.t = colmajor_view(T, batch, n, n);
  r.z = colmajor_view(Z, batch, n, n);
  return r;
}

// --- cdf2rdf (GPU) -------------------------------------------------------------------------------

cdf2rdf_result cdf2rdf(const ndarray& w, const ndarray& v) {
  const std::string fn = "cdf2rdf";
  if (w.ndim() < 1) throw value_error(fn + ": expected w to be at least 1D");
  if (v.ndim() < 2) throw value_error(fn + ": expected v to be at least 2D");
  if (v.ndim() != w.ndim() + 1)
    throw value_error(fn + ": expected eigenvectors array to have exactly one dimension more than eigenvalues array");
  const i64 n = w.shape(-1);
  if (v.shape(-2) != v.shape(-1))
    throw value_error(fn + ": expected v to be a square matrix or stacked square matrices: v.shape[-2] = v.shape[-1]");
  if (v.shape(-1) != n) throw value_error(fn + ": expected the same number of eigenvalues as eigenvectors");
  const shape_t batch = batch_of(w.shape(), 1);
  if (batch_of(v.shape(), 2) != batch)
    throw value_error(fn + ": the batch shapes of w " + shape_str(batch) + " and v " + shape_str(batch_of(v.shape(), 2)) +
                      " differ");
  const dtype wr_t = is_complex(w.dtype()) ? real_dtype(w.dtype()) : w.dtype();
  const i64 nbatch = prod(batch);
  ndarray WR = cusci::empty(with(batch, {n, n}), dtype::float64);
  ndarray VR = cusci::empty(with(batch, {n, n}), dtype::float64);
  if (nbatch * n > 0) {
    const ndarray wc = w.astype(dtype::complex128, false).copy(order::C);
    const ndarray vc = v.astype(dtype::complex128, false).copy(order::C);
    device_buffer<int> partner(static_cast<std::size_t>(nbatch * n)), status(2);
    clear_status(status.data());
    schur_detail::cdf2rdf_device(nbatch, n, wc.data(), vc.data(), WR.data_as<double>(), VR.data_as<double>(),
                                 partner.data(), status.data());
    const status_flags f = read_status(status.data());
    if (f.nonfinite) throw value_error(fn + ": array must not contain infs or NaNs");
    if (f.failed) throw value_error(fn + ": expected complex-conjugate pairs of eigenvalues");
  }
  cdf2rdf_result r;
  r.wr = wr_t == dtype::float64 ? WR : WR.astype(wr_t);
  r.vr = VR;
  return r;
}

}  // namespace cusci::linalg
