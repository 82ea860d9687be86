// cusci::linalg's eigen family: argument handling (SciPy 1.18's checks and messages), dtype choice,
// batch shapes, and the sequence of device steps of eigen.cu.

#include "cusci/linalg/eigen.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "cusci/detail/checks.hpp"
#include "cusci/detail/nvtx.hpp"
#include "cusci/memory.hpp"
#include "common/detail.hpp"
#include "common/host_helpers.hpp"
#include "common/shapes.hpp"
#include "eigen/eigen_detail.hpp"
#include "lu/lu_engine.hpp"

namespace cusci::linalg {

namespace {

using namespace detail;
using i64 = std::int64_t;

/// The LAPACK type of two arrays together (get_lapack_funcs over both).
dtype lapack_type2(dtype a, dtype b) { return lapack_dtype(promote_types(lapack_dtype(a), lapack_dtype(b))); }

std::string shape_tuple(const shape_t& s) { return shape_str(s); }

shape_t batch_of(const shape_t& s, std::size_t core) { return shape_t(s.begin(), s.end() - core); }

/// SciPy's _apply_over_batch: zero-size batches are refused.
void check_batch(const std::string& fn, const std::string& name, const shape_t& batch) {
  if (!batch.empty() && prod(batch) == 0)
    throw value_error(fn + ": `" + name + "` does not support zero-size batches.");
}

shape_t with(shape_t s, std::initializer_list<i64> tail) {
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

/// [..., n, m] view of a buffer holding, per batch entry, a column-major n x m block (block_elems apart).
ndarray colmajor_view(const ndarray& buf, const shape_t& batch, i64 n, i64 m, i64 block_elems) {
  const i64 isz = static_cast<i64>(itemsize(buf.dtype()));
  shape_t shape = with(batch, {n, m});
  shape_t strides(shape.size(), 0);
  strides[shape.size() - 2] = isz;
  strides[shape.size() - 1] = n * isz;
  i64 s = block_elems * isz;
  for (std::size_t k = batch.size(); k-- > 0;) {
    strides[k] = s;
    s *= batch[k];
  }
  return ndarray(buf.memory(), buf.dtype(), shape, strides, buf.offset(), buf.device());
}

/// The view of an operand (batch + 2 core dims) broadcast to `batch`.
batch_view view_of(const ndarray& x, const shape_t& batch) {
  return broadcast_view(x.data(), operand{x.shape(), x.strides()}, batch);
}

/// Reads the status pair; throws for non-finite input.
void check_status(const std::string& fn, const int* status) {
  if (read_status(status).nonfinite) throw_nonfinite(fn);
}

/// Eigenvalues of a batch of n x n Hermitian matrices held column-major in `A` (nbatch blocks), with
/// optional generalized back transformation. Shared by eigh, eig_banded and eigh_tridiagonal.
struct sym_request {
  bool vectors = true;
  int range = 0;  // 0 all, 1 values in (vl, vu], 2 indices lo..hi (0-based)
  double vl = 0, vu = 0;
  i64 lo = 0, hi = 0;
  bool prefer_subset_solver = false;  // one matrix: Xsyevdx for a subset
  const char* driver_name = "evr";
};

struct sym_out {
  ndarray w, v;
};

std::string convergence_message(const std::string& driver, int info, i64 n, bool vectors) {
  if (driver == "ev" || driver == "gv")
    return "The algorithm failed to converge; " + std::to_string(info) +
           " off-diagonal elements of an intermediate tridiagonal form did not converge to zero.";
  if (driver == "evx" || driver == "gvx") return std::to_string(info) + " eigenvectors failed to converge.";
  if (driver == "evd" || driver == "gvd") {
    if (!vectors)
      return "The algorithm failed to converge; " + std::to_string(info) +
             " off-diagonal elements of an intermediate tridiagonal form did not converge to zero.";
    return "The algorithm failed to compute an eigenvalue while working on the submatrix lying in rows and columns " +
           std::to_string(info) + "/" + std::to_string(n + 1) + " through mod(" + std::to_string(info) + "," +
           std::to_string(n + 1) + ").";
  }
  return "Internal Error.";
}

/// Solves the (reduced) standard problems in A, back-transforms with L (when given) and selects.
sym_out solve_sym(const std::string& fn, dtype dt, const shape_t& batch, i64 n, ndarray& A, ndarray* L, int type,
                  const sym_request& rq) {
  const i64 nbatch = prod(batch);
  const dtype rt = real_dtype(dt);
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  ndarray W = cusci::empty({nbatch, n}, rt);
  i64 computed = n;  // columns the solver produced
  i64 first_const = 0, m = n;
  bool subset_done = false;
  // Xsyevdx for one matrix's subset; value ranges only with finite bounds (LAPACK's vl < vu contract)
  const bool subset_solver = rq.range == 2 || (rq.range == 1 && std::isfinite(rq.vl) && std::isfinite(rq.vu) &&
                                               rq.vl < rq.vu);
  if (subset_solver && nbatch == 1 && rq.prefer_subset_solver) {
    computed = eig_sym_subset(dt, n, rq.vectors, rq.range, rq.vl, rq.vu, rq.lo + 1, rq.hi + 1, A.data(), W.data(),
                              info.data());
    m = computed;
    subset_done = true;
  } else {
    eig_sym(dt, nbatch, n, rq.vectors, A.data(), W.data(), info.data());
  }
  const std::vector<int> infos = read_info(info.data(), nbatch);
  for (std::size_t b = 0; b < infos.size(); ++b)
    if (infos[b] != 0)
      throw lin_alg_error(fn + ": " + convergence_message(rq.driver_name, infos[b], n, rq.vectors) +
                          (nbatch > 1 ? " (slice " + std::to_string(b) + ")" : std::string()));

  ndarray V = A;  // eigenvectors, column-major blocks of n * n
  if (rq.vectors && L) {
    ndarray work = type == 3 ? cusci::empty({nbatch, n, n}, dt) : ndarray();
    void* r = eig_gen_back(dt, nbatch, n, computed, type, L->data(), A.data(), type == 3 ? work.data() : nullptr);
    if (type == 3) {
      (void)r;
      V = work;
    }
  }
  if (subset_done || rq.range == 0) {
    sym_out o;
    o.w = subset_done ? W[{slice{}, slice{0, m}}].copy().reshape(with(batch, {m})) : W.reshape(with(batch, {n}));
    if (rq.vectors) o.v = colmajor_view(V, batch, n, m, n * n);
    return o;
  }
  device_buffer<i64> first, count;
  if (rq.range == 2) {
    first_const = rq.lo;
    m = rq.hi - rq.lo + 1;
  } else {
    first = device_buffer<i64>(static_cast<std::size_t>(nbatch));
    count = device_buffer<i64>(static_cast<std::size_t>(nbatch));
    eig_value_range(rt, W.data(), nbatch, n, rq.vl, rq.vu, first.data(), count.data());
    std::vector<i64> cnt(static_cast<std::size_t>(nbatch));
    {
      ndarray c(count.block(), dtype::int64, {nbatch}, {8}, 0, A.device());
      host_array hc = c.get();
      for (i64 b = 0; b < nbatch; ++b) cnt[b] = hc.data_as<i64>()[b];
    }
    m = cnt.empty() ? 0 : cnt[0];
    for (i64 c : cnt)
      if (c != m)
        throw value_error(fn + ": all input arrays must have the same shape (the matrices of the batch have " +
                          std::to_string(m) + " and " + std::to_string(c) + " eigenvalues in the interval)");
  }
  sym_out o;
  ndarray wsel = cusci::empty(with(batch, {m}), rt);
  ndarray vsel = rq.vectors ? cusci::empty({nbatch, m, n}, dt) : ndarray();
  eig_select_pairs(dt, W.data(), rq.vectors ? V.data() : nullptr, nbatch, n, rq.range == 1 ? first.data() : nullptr,
               first_const, m, wsel.data(), rq.vectors ? vsel.data() : nullptr);
  o.w = wsel;
  if (rq.vectors) o.v = colmajor_view(vsel, batch, n, m, n * m);
  return o;
}

// --- eigh ---------------------------------------------------------------------------------------------

std::string driver_name(eigh_driver d) {
  switch (d) {
    case eigh_driver::none: return "None";
    case eigh_driver::ev: return "ev";
    case eigh_driver::evd: return "evd";
    case eigh_driver::evr: return "evr";
    case eigh_driver::evx: return "evx";
    case eigh_driver::gv: return "gv";
    case eigh_driver::gvd: return "gvd";
    case eigh_driver::gvx: return "gvx";
  }
  return "None";
}

eigh_result eigh_impl(const std::string& fn, const std::string& pyname, const ndarray& a, const ndarray* b,
                      const eigh_options& o) {
  const bool generalized = b != nullptr;
  if (generalized) cusci::detail::check_same_device(fn.c_str(), {&a, b});
  // shapes
  if (a.ndim() < 2 || a.shape(-1) != a.shape(-2)) throw value_error(fn + ": expected square \"a\" matrix");
  const i64 n = a.shape(-1);
  shape_t batch = batch_of(a.shape(), 2);
  if (generalized) {
    if (b->ndim() < 2 || b->shape(-1) != b->shape(-2)) throw value_error(fn + ": expected square \"b\" matrix");
    if (b->shape(-1) != n)
      throw value_error(fn + ": wrong b dimensions " + shape_tuple({b->shape(-2), b->shape(-1)}) + ", should be " +
                        shape_tuple({n, n}));
    bool ok = true;
    batch = broadcast_batch(batch, batch_of(b->shape(), 2), ok);
    if (!ok)
      throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes of a " +
                        shape_str(a.shape()) + " and b " + shape_str(b->shape()) + ")");
  }
  check_batch(fn, pyname, batch);
  const dtype dt = generalized ? lapack_type2(a.dtype(), b->dtype()) : lapack_dtype(a.dtype());
  const dtype rt = real_dtype(dt);
  if (n == 0) {
    eigh_result r;
    r.w = cusci::empty(with(batch, {0}), rt);
    if (!o.eigvals_only) r.v = cusci::empty(with(batch, {0, 0}), lapack_dtype(a.dtype()));
    return r;
  }
  if (generalized && (o.type < 1 || o.type > 3))
    throw value_error(fn + ": \"type\" keyword only accepts 1, 2, and 3.");
  const bool by_index = o.subset_by_index.has_value(), by_value = o.subset_by_value.has_value();
  if (by_index && by_value) throw value_error(fn + ": Either index or value subset can be requested.");
  if (by_index) {
    const i64 lo = (*o.subset_by_index)[0], hi = (*o.subset_by_index)[1];
    if (!(0 <= lo && lo <= hi && hi < n))
      throw value_error(fn + ": Requested eigenvalue indices are not valid. Valid range is [0, " + std::to_string(n - 1) +
                        "] and start <= end, but start=" + std::to_string(lo) + ", end=" + std::to_string(hi) +
                        " is given");
  }
  if (by_value) {
    const double lo = (*o.subset_by_value)[0], hi = (*o.subset_by_value)[1];
    const double inf = std::numeric_limits<double>::infinity();
    if (!(-inf <= lo && lo < hi && hi <= inf)) {
      auto num = [](double v) {  // Python's repr of a float, for the usual values
        if (std::isnan(v)) return std::string("nan");
        if (std::isinf(v)) return std::string(v < 0 ? "-inf" : "inf");
        char buf[40];
        for (int prec = 1; prec <= 17; ++prec) {
          std::snprintf(buf, sizeof(buf), "%.*g", prec, v);
          if (std::strtod(buf, nullptr) == v) break;
        }
        std::string s(buf);
        if (s.find_first_of(".e") == std::string::npos) s += ".0";
        return s;
      };
      throw value_error(fn + ": Requested eigenvalue bounds are not valid. Valid range is (-inf, inf) and low < high, "
                             "but low=" + num(lo) + ", high=" + num(hi) + " is given");
    }
  }
  const bool subset = by_index || by_value;
  eigh_driver drv = o.driver;
  if (drv != eigh_driver::none) {
    const bool gdrv = drv == eigh_driver::gv || drv == eigh_driver::gvd || drv == eigh_driver::gvx;
    if (!generalized && gdrv)
      throw value_error(fn + ": " + driver_name(drv) +
                        " requires input b array to be supplied for generalized eigenvalue problems.");
    if (generalized && !gdrv)
      throw value_error(fn + ": \"" + driver_name(drv) +
                        "\" does not accept input b array for standard eigenvalue problems.");
    if (subset && (drv == eigh_driver::ev || drv == eigh_driver::evd || drv == eigh_driver::gv ||
                   drv == eigh_driver::gvd))
      throw value_error(fn + ": \"" + driver_name(drv) + "\" cannot compute subsets of eigenvalues");
  } else {
    drv = !generalized ? eigh_driver::evr : (subset ? eigh_driver::gvx : eigh_driver::gvd);
  }

  const i64 nbatch = prod(batch);
  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  ndarray A = cusci::empty({nbatch, n, n}, dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  gather(dt, view_of(ac, batch), nbatch, n, n, fill_mode::her, o.lower, o.check_finite, true, A.data(),
         status.data());
  ndarray L;
  if (generalized) {
    const ndarray bc = b->dtype() == dt ? *b : b->astype(dt);
    L = cusci::empty({nbatch, n, n}, dt);
    gather(dt, view_of(bc, batch), nbatch, n, n, fill_mode::her, o.lower, o.check_finite, true, L.data(),
           status.data());
  }
  // SciPy checks finiteness before any LAPACK call: an eigensolver is never run on inf / NaN
  if (o.check_finite) check_status(fn, status.data());
  if (generalized) {
    device_buffer<int> binfo(static_cast<std::size_t>(nbatch));
    eig_chol_lower(dt, nbatch, n, L.data(), binfo.data());
    const std::vector<int> bi = read_info(binfo.data(), nbatch);
    for (int v : bi)
      if (v > 0)
        throw lin_alg_error(fn + ": The leading minor of order " + std::to_string(v) +
                            " of B is not positive definite. The factorization of B could not be completed and no "
                            "eigenvalues or eigenvectors were computed.");
    ndarray work = o.type == 1 ? ndarray() : cusci::empty({nbatch, n, n}, dt);
    eig_gen_reduce(dt, nbatch, n, o.type, L.data(), A.data(), o.type == 1 ? nullptr : work.data());
  }
  sym_request rq;
  rq.vectors = !o.eigvals_only;
  rq.range = by_index ? 2 : by_value ? 1 : 0;
  if (by_index) {
    rq.lo = (*o.subset_by_index)[0];
    rq.hi = (*o.subset_by_index)[1];
  }
  if (by_value) {
    rq.vl = (*o.subset_by_value)[0];
    rq.vu = (*o.subset_by_value)[1];
  }
  rq.prefer_subset_solver = drv == eigh_driver::evr || drv == eigh_driver::evx || drv == eigh_driver::gvx;
  const std::string dn = driver_name(drv);
  rq.driver_name = dn.c_str();
  sym_out s = solve_sym(fn, dt, batch, n, A, generalized ? &L : nullptr, o.type, rq);
  return {s.w, s.v};
}

eigh_options from(const eigvalsh_options& o) {
  eigh_options e;
  e.lower = o.lower;
  e.eigvals_only = true;
  e.type = o.type;
  e.check_finite = o.check_finite;
  e.subset_by_index = o.subset_by_index;
  e.subset_by_value = o.subset_by_value;
  e.driver = o.driver;
  return e;
}

// --- select (banded, tridiagonal) --------------------------------------------------------------------

/// SciPy's _check_select for select 'v' / 'i' with max_len = n: fills rq's range.
void check_select(const std::string& fn, eig_select sel, const std::optional<std::array<double, 2>>& range, i64 n,
                  sym_request& rq) {
  if (sel == eig_select::a) return;
  if (!range || (*range)[1] < (*range)[0] || std::isnan((*range)[0]) || std::isnan((*range)[1]))
    throw value_error(fn + ": select_range must be a 2-element array-like in nondecreasing order");
  if (sel == eig_select::v) {
    rq.range = 1;
    rq.vl = (*range)[0];
    rq.vu = (*range)[1];
    return;
  }
  const double lo = (*range)[0], hi = (*range)[1];
  if (std::floor(lo) != lo || std::floor(hi) != hi)
    throw value_error(fn + ": when using select=\"i\", select_range must contain integers");
  if (lo < 0 || hi > static_cast<double>(n - 1)) throw value_error(fn + ": select_range out of bounds");
  rq.range = 2;
  rq.lo = static_cast<i64>(lo);
  rq.hi = static_cast<i64>(hi);
}

}  // namespace

eigh_driver parse_eigh_driver(std::string_view s) {
  if (s.empty() || s == "None") return eigh_driver::none;
  if (s == "ev") return eigh_driver::ev;
  if (s == "evd") return eigh_driver::evd;
  if (s == "evr") return eigh_driver::evr;
  if (s == "evx") return eigh_driver::evx;
  if (s == "gv") return eigh_driver::gv;
  if (s == "gvd") return eigh_driver::gvd;
  if (s == "gvx") return eigh_driver::gvx;
  throw value_error("cusci::linalg::eigh: \"" + std::string(s) +
                    "\" is unknown. Possible values are \"None\", \"ev\", \"evd\", \"evr\", \"evx\", \"gv\", \"gvd\", "
                    "\"gvx\".");
}

eig_select parse_eig_select(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "a" || l == "all") return eig_select::a;
  if (l == "v" || l == "value") return eig_select::v;
  if (l == "i" || l == "index") return eig_select::i;
  throw value_error("cusci::linalg: invalid argument for select, got '" + std::string(s) + "'");
}

eigh_result eigh(const ndarray& a, const eigh_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigh");
  return eigh_impl("cusci::linalg::eigh", "eigh", a, nullptr, o);
}

eigh_result eigh(const ndarray& a, const ndarray& b, const eigh_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigh");
  return eigh_impl("cusci::linalg::eigh", "eigh", a, &b, o);
}

ndarray eigvalsh(const ndarray& a, const eigvalsh_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvalsh");
  return eigh_impl("cusci::linalg::eigvalsh", "eigvalsh", a, nullptr, from(o)).w;
}

ndarray eigvalsh(const ndarray& a, const ndarray& b, const eigvalsh_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvalsh");
  return eigh_impl("cusci::linalg::eigvalsh", "eigvalsh", a, &b, from(o)).w;
}

// --- eig ------------------------------------------------------------------------------------------

namespace {

eig_result eig_impl(const std::string& fn, const ndarray& a, const ndarray* b, const eig_options& o) {
  const bool generalized = b != nullptr;
  if (generalized) cusci::detail::check_same_device(fn.c_str(), {&a, b});
  if (a.ndim() < 2 || a.shape(-1) != a.shape(-2))
    throw value_error(fn + ": Expected a square matrix or a batch of square matrices. Got a.shape = " +
                      shape_str(a.shape()));
  const i64 n = a.shape(-1);
  shape_t batch = batch_of(a.shape(), 2);
  dtype dt = lapack_dtype(a.dtype());
  if (generalized) {
    if (b->ndim() < 2 || b->shape(-1) != b->shape(-2)) throw value_error(fn + ": expected square matrix");
    if (b->shape(-1) != n) throw value_error(fn + ": a and b must have the same shape");
    bool ok = true;
    batch = broadcast_batch(batch, batch_of(b->shape(), 2), ok);
    if (!ok)
      throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes of a " +
                        shape_str(a.shape()) + " and b " + shape_str(b->shape()) + ")");
    dt = lapack_type2(a.dtype(), b->dtype());
  }
  const dtype ct = is_complex(dt) ? dt : (dt == dtype::float32 ? dtype::complex64 : dtype::complex128);
  const bool real_in = !is_complex(dt);
  const i64 nbatch = prod(batch);
  eig_result r;
  auto make_w = [&](const ndarray& w) {
    if (!o.homogeneous_eigvals) return w.reshape(with(batch, {n}));
    ndarray h = cusci::empty(with(batch, {2, n}), ct);
    eig_homogeneous(ct, w.data(), nbatch, n, h.data());
    return h;
  };
  if (n == 0 || nbatch == 0) {
    // SciPy: dtypes of eig(eye(2)) (real vectors for real input), or of the all-real test on an empty batch
    r.w = o.homogeneous_eigvals ? cusci::empty(with(batch, {2, n}), ct) : cusci::empty(with(batch, {n}), ct);
    if (o.left) r.vl = cusci::empty(with(batch, {n, n}), dt);
    if (o.right) r.vr = cusci::empty(with(batch, {n, n}), dt);
    return r;
  }
  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  ndarray A = cusci::empty({nbatch, n, n}, dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  gather(dt, view_of(ac, batch), nbatch, n, n, fill_mode::full, false, o.check_finite, true, A.data(), status.data());
  ndarray B, B2;
  if (generalized) {
    const ndarray bc = b->dtype() == dt ? *b : b->astype(dt);
    B = cusci::empty({nbatch, n, n}, dt);
    gather(dt, view_of(bc, batch), nbatch, n, n, fill_mode::full, false, o.check_finite, true, B.data(),
           status.data());
    if (o.left) B2 = B.copy();  // B itself is overwritten by its LU factors
  }
  if (o.check_finite) check_status(fn, status.data());
  device_buffer<int> info(static_cast<std::size_t>(nbatch));
  if (generalized) {
    lu_solve_colmajor(dt, nbatch, n, n, B.data(), A.data(), info.data());  // A <- B^-1 A
    const std::vector<int> bi = read_info(info.data(), nbatch);
    for (std::size_t s = 0; s < bi.size(); ++s)
      if (bi[s] != 0)
        throw lin_alg_error(fn + ": b is singular (slice " + std::to_string(s) +
                            "); cusci solves the generalized problem as eig(b^-1 a), which needs a nonsingular b");
  }
  const bool vectors = o.left || o.right;
  ndarray W = cusci::empty({nbatch, n}, ct);
  ndarray VR = vectors ? cusci::empty({nbatch, n, n}, dt) : ndarray();
  eig_geev(dt, nbatch, n, vectors, A.data(), W.data(), vectors ? VR.data() : nullptr, info.data());
  device_buffer<int> flag(2);
  clear_status(flag.data());
  if (real_in && vectors) eig_any_complex(ct, W.data(), nbatch * n, flag.data());
  const std::vector<int> infos = read_info(info.data(), nbatch);
  std::vector<std::string> bad_info, bad_slice;
  for (std::size_t s = 0; s < infos.size(); ++s)
    if (infos[s] != 0) {
      bad_info.push_back(std::to_string(infos[s]));
      bad_slice.push_back(std::to_string(s));
    }
  if (!bad_info.empty()) {
    auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + v[k];
      return s;
    };
    throw lin_alg_error(fn + ": Internal geev return info = [" + join(bad_info) + "] for slices [" + join(bad_slice) +
                        "].");
  }
  r.w = make_w(W);
  if (!vectors) return r;
  const bool complex_vectors = !real_in || read_status(flag.data()).nonfinite != 0;
  ndarray V = VR;
  dtype vt = dt;
  if (real_in && complex_vectors) {
    V = cusci::empty({nbatch, n, n}, ct);
    eig_unpack_real_vectors(dt, W.data(), VR.data(), nbatch, n, V.data());
    vt = ct;
  }
  if (o.right) r.vr = colmajor_view(V, batch, n, n, n * n);
  if (o.left) {
    // Rows of V^-1 are the left eigenvectors (conjugated) of the standard problem. Generalized: with X the
    // right vectors of b^-1 a, the left ones u (u^H a = w u^H b) are the columns of (b X)^-H.
    ndarray P = V;
    if (generalized) {
      P = cusci::empty({nbatch, n, n}, vt);
      const ndarray bv = B2.dtype() == vt ? B2 : B2.astype(vt);
      eig_matmul_colmajor(vt, nbatch, n, bv.data(), V.data(), P.data());
    }
    batch_view vv;
    vv.data = P.data();
    vv.batch_shape = {nbatch};
    vv.batch_strides = {n * n * static_cast<i64>(itemsize(vt))};
    vv.s_row = static_cast<i64>(itemsize(vt));
    vv.s_col = n * static_cast<i64>(itemsize(vt));
    ndarray M = cusci::empty({nbatch, n, n}, vt);
    device_buffer<int> st(2), inf(static_cast<std::size_t>(nbatch));
    clear_status(st.data());
    inv_any(vt, vv, fill_mode::full, false, nbatch, n, false, M.data(), inf.data(), st.data());
    const std::vector<int> ii = read_info(inf.data(), nbatch);
    for (std::size_t s = 0; s < ii.size(); ++s)
      if (ii[s] != 0)
        throw lin_alg_error(fn + ": the eigenvector matrix of slice " + std::to_string(s) +
                            " is singular (defective matrix): left eigenvectors cannot be formed from it");
    ndarray VL = cusci::empty({nbatch, n, n}, vt);
    eig_left_from_inverse(vt, M.data(), nbatch, n, VL.data());
    r.vl = colmajor_view(VL, batch, n, n, n * n);
  }
  return r;
}

}  // namespace

eig_result eig(const ndarray& a, const eig_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eig");
  return eig_impl("cusci::linalg::eig", a, nullptr, o);
}

eig_result eig(const ndarray& a, const ndarray& b, const eig_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eig");
  return eig_impl("cusci::linalg::eig", a, &b, o);
}

ndarray eigvals(const ndarray& a, const eigvals_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvals");
  return eig_impl("cusci::linalg::eigvals", a, nullptr,
                  {.left = false, .right = false, .check_finite = o.check_finite,
                   .homogeneous_eigvals = o.homogeneous_eigvals})
      .w;
}

ndarray eigvals(const ndarray& a, const ndarray& b, const eigvals_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvals");
  return eig_impl("cusci::linalg::eigvals", a, &b,
                  {.left = false, .right = false, .check_finite = o.check_finite,
                   .homogeneous_eigvals = o.homogeneous_eigvals})
      .w;
}

// --- banded ---------------------------------------------------------------------------------------

namespace {

eigh_result banded_impl(const std::string& fn, const std::string& pyname, const ndarray& ab, bool lower,
                        bool eigvals_only, bool overwrite, eig_select sel,
                        const std::optional<std::array<double, 2>>& range, bool check_finite) {
  if (ab.ndim() < 2) throw value_error(fn + ": expected a 2-D array");
  const shape_t batch = batch_of(ab.shape(), 2);
  check_batch(fn, pyname, batch);
  const dtype dt = lapack_dtype(ab.dtype());
  const i64 rows = ab.shape(-2), n = ab.shape(-1);
  if (rows * n == 0) {
    eigh_result r;
    r.w = cusci::empty(with(batch, {0}), real_dtype(dt));
    if (!eigvals_only) r.v = cusci::empty(with(batch, {0, 0}), dt);
    return r;
  }
  sym_request rq;
  rq.vectors = !eigvals_only;
  check_select(fn, sel, range, n, rq);
  if (rq.range == 1 && !(rq.vl < rq.vu))  // LAPACK ?sbevx / ?hbevx reject vl >= vu
    throw value_error(fn + ": illegal value in argument 11 of internal " + (is_complex(dt) ? "hbevx" : "sbevx"));
  rq.prefer_subset_solver = true;
  rq.driver_name = "evx";
  // SciPy validates with check_finite only for eigvals_only / overwrite_a_band; otherwise it always
  // rejects inf / NaN.
  const bool check = (eigvals_only || overwrite) ? check_finite : true;
  const i64 nbatch = prod(batch);
  const ndarray ac = ab.dtype() == dt ? ab : ab.astype(dt);
  ndarray A = cusci::empty({nbatch, n, n}, dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  eig_band_dense(dt, view_of(ac, batch), nbatch, rows - 1, n, lower, check, A.data(), status.data());
  if (check) check_status(fn, status.data());
  sym_out s = solve_sym(fn, dt, batch, n, A, nullptr, 1, rq);
  return {s.w, s.v};
}

eigh_result tridiag_impl(const std::string& fn, const std::string& pyname, const ndarray& d, const ndarray& e,
                         bool eigvals_only, eig_select sel, const std::optional<std::array<double, 2>>& range,
                         bool check_finite, const std::string& driver) {
  cusci::detail::check_same_device(fn.c_str(), {&d, &e});
  for (const ndarray* x : {&d, &e})
    if (x->ndim() < 1) throw value_error(fn + ": expected a 1-D array");
  bool ok = true;
  const shape_t batch = broadcast_batch(batch_of(d.shape(), 1), batch_of(e.shape(), 1), ok);
  if (!ok)
    throw value_error(fn + ": shape mismatch: objects cannot be broadcast to a single shape (batch shapes of d " +
                      shape_str(d.shape()) + " and e " + shape_str(e.shape()) + ")");
  check_batch(fn, pyname, batch);
  for (const ndarray* x : {&d, &e})
    if (is_complex(x->dtype())) throw type_error(fn + ": Only real arrays currently supported");
  const i64 n = d.shape(-1), ne = e.shape(-1);
  if (n != ne + 1)
    throw value_error(fn + ": d (" + std::to_string(n) + ") must have one more element than e (" + std::to_string(ne) +
                      ")");
  sym_request rq;
  rq.vectors = !eigvals_only;
  check_select(fn, sel, range, n, rq);
  static const char* drivers[] = {"auto", "stemr", "sterf", "stebz", "stev", "stevd"};
  if (std::find_if(std::begin(drivers), std::end(drivers), [&](const char* s) { return driver == s; }) ==
      std::end(drivers))
    throw value_error(fn + ": lapack_driver must be one of ('auto', 'stemr', 'sterf', 'stebz', 'stev', 'stevd'), got " +
                      driver);
  const std::string drv = driver == "auto" ? (sel == eig_select::a ? "stevd" : "stebz") : driver;
  const dtype dt = lapack_type2(d.dtype(), e.dtype());
  const i64 nbatch = prod(batch);
  if (n > 1) {
    if (drv == "sterf" && sel != eig_select::a)
      throw value_error(fn + ": sterf can only be used when select == \"a\"");
    if (drv == "sterf" && !eigvals_only) throw value_error(fn + ": sterf can only be used when eigvals_only is True");
    if ((drv == "stev" || drv == "stevd") && sel != eig_select::a)
      throw value_error(fn + ": " + drv + " can only be used when select == \"a\"");
    if (rq.range == 1 && !(rq.vl < rq.vu))  // LAPACK ?stebz / ?stemr reject vl >= vu
      throw value_error(fn + ": illegal value in argument " + (drv == "stemr" ? "7" : "5") + " of internal " + drv +
                        " (eigh_tridiagonal)");
  }
  const ndarray dc = d.dtype() == dt ? d : d.astype(dt);
  const ndarray ec = e.dtype() == dt ? e : e.astype(dt);
  auto vec_view = [&](const ndarray& x) {
    // (..., len) as a batch of vectors: element k at s_col * k; x's own batch dims broadcast to `batch`
    batch_view v;
    v.data = x.data();
    v.batch_shape = batch;
    v.batch_strides.assign(batch.size(), 0);
    const std::size_t own = x.shape().size() - 1;
    for (std::size_t k = 0; k < own; ++k)
      v.batch_strides[batch.size() - own + k] = x.shape()[k] == 1 ? 0 : x.strides()[k];
    v.s_col = x.strides().back();
    return v;
  };
  ndarray A = cusci::empty({nbatch, n, n}, dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  eig_tridiag_dense(dt, vec_view(dc), vec_view(ec), nbatch, n, check_finite, A.data(), status.data());
  if (check_finite) check_status(fn, status.data());
  rq.prefer_subset_solver = true;
  rq.driver_name = "evx";
  sym_out s = solve_sym(fn, dt, batch, n, A, nullptr, 1, rq);
  if (n == 1) {
    // SciPy's 1 x 1 shortcut: results in d's own dtype; an empty value selection gives a float64 w
    const bool empty = s.w.shape(-1) == 0;
    s.w = s.w.astype(empty ? dtype::float64 : d.dtype());
    if (!eigvals_only) s.v = empty ? s.v.astype(d.dtype()) : cusci::ones(s.v.shape(), d.dtype());  // v = [[1.]]
  }
  return {s.w, s.v};
}

}  // namespace

eigh_result eig_banded(const ndarray& a_band, const eig_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eig_banded");
  return banded_impl("cusci::linalg::eig_banded", "eig_banded", a_band, o.lower, o.eigvals_only, o.overwrite_a_band,
                     o.select, o.select_range, o.check_finite);
}

ndarray eigvals_banded(const ndarray& a_band, const eigvals_banded_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvals_banded");
  return banded_impl("cusci::linalg::eigvals_banded", "eigvals_banded", a_band, o.lower, true, o.overwrite_a_band,
                     o.select, o.select_range, o.check_finite)
      .w;
}

eigh_result eigh_tridiagonal(const ndarray& d, const ndarray& e, const eigh_tridiagonal_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigh_tridiagonal");
  return tridiag_impl("cusci::linalg::eigh_tridiagonal", "eigh_tridiagonal", d, e, o.eigvals_only, o.select,
                      o.select_range, o.check_finite, o.lapack_driver);
}

ndarray eigvalsh_tridiagonal(const ndarray& d, const ndarray& e, const eigvalsh_tridiagonal_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::eigvalsh_tridiagonal");
  return tridiag_impl("cusci::linalg::eigvalsh_tridiagonal", "eigvalsh_tridiagonal", d, e, true, o.select,
                      o.select_range, o.check_finite, o.lapack_driver)
      .w;
}

// --- pinvh ----------------------------------------------------------------------------------------

pinvh_result pinvh(const ndarray& a, const pinvh_options& o) {
  CUSCI_NVTX_SCOPE("cusci::linalg::pinvh");
  const std::string fn = "cusci::linalg::pinvh";
  if (a.ndim() < 2 || a.shape(-1) != a.shape(-2)) throw value_error(fn + ": expected square \"a\" matrix");
  const shape_t batch = batch_of(a.shape(), 2);
  check_batch(fn, "pinvh", batch);
  const double atol = o.atol.value_or(0.0);
  const dtype dt = lapack_dtype(a.dtype());
  const i64 n = a.shape(-1);
  const double eps = real_dtype(dt) == dtype::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                                      : std::numeric_limits<double>::epsilon();
  const double rtol = o.rtol ? *o.rtol : static_cast<double>(n) * eps;
  if (atol < 0.0 || rtol < 0.0) throw value_error(fn + ": atol and rtol values must be positive.");
  const i64 nbatch = prod(batch);
  pinvh_result r;
  if (n == 0) {
    r.b = cusci::empty(with(batch, {0, 0}), dt);
    if (o.return_rank) r.rank = cusci::zeros(batch, dtype::int64);
    return r;
  }
  const ndarray ac = a.dtype() == dt ? a : a.astype(dt);
  ndarray A = cusci::empty({nbatch, n, n}, dt);
  device_buffer<int> status(2);
  clear_status(status.data());
  gather(dt, view_of(ac, batch), nbatch, n, n, fill_mode::her, o.lower, o.check_finite, true, A.data(), status.data());
  if (o.check_finite) check_status(fn, status.data());
  sym_request rq;
  rq.driver_name = "ev";
  sym_out s = solve_sym(fn, dt, batch, n, A, nullptr, 1, rq);
  ndarray scaled = cusci::empty({nbatch, n, n}, dt);
  ndarray B = cusci::empty({nbatch, n, n}, dt);
  ndarray rank = cusci::empty(batch, dtype::int64);
  pinvh_apply(dt, s.w.data(), A.data(), nbatch, n, atol, rtol, scaled.data(), rank.data_as<i64>(), B.data());
  r.b = colmajor_view(B, batch, n, n, n * n);
  if (o.return_rank) r.rank = rank;
  return r;
}

}  // namespace cusci::linalg
