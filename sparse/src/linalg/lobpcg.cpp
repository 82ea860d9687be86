// scipy.sparse.linalg.lobpcg: SciPy 1.18's _lobpcg.py step for step, the blocks on the device (cuBLAS
// gemm through eigs_blas), the Rayleigh-Ritz problems through cuSOLVER sygvd / hegvd, the small
// Cholesky factorizations of the B-orthonormalization on the host.

#include "cusci/sparse/linalg/lobpcg.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"
#include "cusci/reduction.hpp"
#include "linalg/eigs_blas.hpp"

namespace cusci::sparse::linalg {
namespace {

using eig_detail::cplx;
constexpr const char* kFn = "cusci::sparse::linalg::lobpcg";
using hmat = std::vector<cplx>;  // small row-major host matrix

// a as a C-contiguous [rows, cols] array of dtype t (complex to real: the real part).
ndarray as_block(const ndarray& a, dtype t, std::int64_t rows, std::int64_t cols) {
  ndarray x = a;
  if (is_complex(x.dtype()) && !is_complex(t)) x = real(x);
  x = x.astype(t, false);
  if (!x.is_c_contiguous()) x = x.copy();
  return x.reshape({rows, cols});
}

std::int64_t cols_of(const ndarray& a) { return a.ndim() == 2 ? a.shape(1) : 1; }

// G [a, b] = X^H Y for X [n, a], Y [n, b] (C order: column-major X^T, Y^T).
ndarray gram(const ndarray& X, const ndarray& Y) {
  const std::int64_t n = X.shape(0), a = cols_of(X), b = cols_of(Y);
  ndarray G = zeros({a, b}, X.dtype());
  eig_detail::gemm(X.dtype(), 'N', 'C', b, a, n, 1.0, Y.data(), b, X.data(), a, 0.0, G.data(), b);
  return G;
}

// Z [n, b] = X [n, a] @ C [a, b].
ndarray mul(const ndarray& X, const ndarray& C) {
  const std::int64_t n = X.shape(0), a = cols_of(X), b = C.shape(1);
  ndarray Z = zeros({n, b}, X.dtype());
  if (a > 0) eig_detail::gemm(X.dtype(), 'N', 'N', b, n, a, 1.0, C.data(), b, X.data(), a, 0.0, Z.data(), b);
  return Z;
}

ndarray up(const hmat& m, dtype t, std::int64_t r, std::int64_t c) { return eig_detail::upload(m, t, {r, c}); }

hmat down(const ndarray& G) {
  const host_array h = to_host(G);
  return eig_detail::to_cplx(h.data(), G.dtype(), G.size());
}

// Upper Cholesky factor U (G = U^H U) of a Hermitian k x k matrix, or none.
std::optional<hmat> chol_upper(const hmat& g, std::int64_t k) {
  hmat u(static_cast<std::size_t>(k * k), 0.0);
  for (std::int64_t j = 0; j < k; ++j) {
    double d = g[j * k + j].real();
    for (std::int64_t i = 0; i < j; ++i) d -= std::norm(u[i * k + j]);
    if (!(d > 0.0) || !std::isfinite(d)) return std::nullopt;
    const double r = std::sqrt(d);
    u[j * k + j] = r;
    for (std::int64_t l = j + 1; l < k; ++l) {
      cplx s = g[j * k + l];
      for (std::int64_t i = 0; i < j; ++i) s -= std::conj(u[i * k + j]) * u[i * k + l];
      u[j * k + l] = s / r;
    }
  }
  return u;
}

hmat inv_upper(const hmat& u, std::int64_t k) {
  hmat x(static_cast<std::size_t>(k * k), 0.0);
  for (std::int64_t j = 0; j < k; ++j) {
    x[j * k + j] = 1.0 / u[j * k + j];
    for (std::int64_t i = j - 1; i >= 0; --i) {
      cplx s = 0.0;
      for (std::int64_t l = i + 1; l <= j; ++l) s += u[i * k + l] * x[l * k + j];
      x[i * k + j] = -s / u[i * k + i];
    }
  }
  return x;
}

// Solves (U^H U) Z = R for R [k, c].
hmat cho_solve(const hmat& u, std::int64_t k, const hmat& r, std::int64_t c) {
  hmat z(r);
  for (std::int64_t col = 0; col < c; ++col) {
    for (std::int64_t i = 0; i < k; ++i) {  // U^H y = r
      cplx s = z[i * c + col];
      for (std::int64_t l = 0; l < i; ++l) s -= std::conj(u[l * k + i]) * z[l * c + col];
      z[i * c + col] = s / std::conj(u[i * k + i]);
    }
    for (std::int64_t i = k - 1; i >= 0; --i) {  // U z = y
      cplx s = z[i * c + col];
      for (std::int64_t l = i + 1; l < k; ++l) s -= u[i * k + l] * z[l * c + col];
      z[i * c + col] = s / u[i * k + i];
    }
  }
  return z;
}

struct ortho {
  ndarray V, BV, invR;
};

struct state {
  dtype t;
  std::int64_t n;
  const linear_operator* A;
  const linear_operator* B;
  const linear_operator* M;
  ndarray apply(const linear_operator& op, const ndarray& X) const {
    return as_block(op.matmat(X), t, n, cols_of(X));
  }
  // SciPy's _b_orthonormalize: V <- V inv(U), BV <- BV inv(U) with V^H B V = U^H U.
  std::optional<ortho> b_orthonormalize(const ndarray& V, std::optional<ndarray> BV) const {
    const std::int64_t k = cols_of(V);
    ndarray bv = BV ? *BV : (B ? apply(*B, V) : V);
    const auto u = chol_upper(down(gram(V, bv)), k);
    if (!u) return std::nullopt;
    ndarray inv = up(inv_upper(*u, k), t, k, k);
    ortho o;
    o.V = mul(V, inv);
    o.BV = B ? mul(bv, inv) : o.V;
    o.invR = inv;
    return o;
  }
};

// Columns j of R with mask[j].
ndarray select_cols(const ndarray& R, const std::vector<char>& mask, std::int64_t cur) {
  const std::int64_t k = static_cast<std::int64_t>(mask.size());
  hmat s(static_cast<std::size_t>(k * cur), 0.0);
  std::int64_t c = 0;
  for (std::int64_t j = 0; j < k; ++j)
    if (mask[j]) s[j * cur + c++] = 1.0;
  return mul(R, up(s, R.dtype(), k, cur));
}

// The rows [r0, r0 + nr) of a host matrix [k, c], as a device block.
ndarray rows_of(const hmat& e, std::int64_t c, std::int64_t r0, std::int64_t nr, dtype t) {
  hmat s(e.begin() + r0 * c, e.begin() + (r0 + nr) * c);
  return up(s, t, nr, c);
}

// SciPy's _get_indx for ascending eigenvalues.
std::vector<std::int64_t> get_indx(std::int64_t total, std::int64_t num, bool largest) {
  std::vector<std::int64_t> ii;
  for (std::int64_t i = 0; i < num && i < total; ++i) ii.push_back(largest ? total - 1 - i : i);
  return ii;
}

// Residual norms ||R_j|| of the columns of R = AX - BX diag(lambda).
std::vector<double> residual_norms(const ndarray& AX, const ndarray& BX, const std::vector<double>& lam,
                                   ndarray* Rout) {
  const std::int64_t k = static_cast<std::int64_t>(lam.size());
  hmat l(lam.begin(), lam.end());
  ndarray lrow = eig_detail::upload(l, real_dtype(AX.dtype()), {1, k});
  ndarray R = subtract(AX, multiply(BX, lrow));
  if (Rout) *Rout = R;
  ndarray s = sum(real(multiply(conj(R), R)), 0);
  const hmat h = down(s);
  std::vector<double> out(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < k; ++j) out[j] = std::sqrt(std::abs(h[j].real()));
  return out;
}

void set_row(std::vector<std::vector<double>>& h, std::int64_t row, const std::vector<double>& v) {
  if (static_cast<std::int64_t>(h.size()) <= row) h.resize(static_cast<std::size_t>(row + 1), std::vector<double>(v.size(), 0.0));
  h[row] = v;
}

}  // namespace

lobpcg_result lobpcg(const linear_operator& A, const ndarray& X0, const lobpcg_options& o) {
  CUSCI_NVTX_SCOPE("cusci::sparse::linalg::lobpcg");
  using cusci::detail::shape_str;
  CUSCI_EXPECTS(X0.ndim() == 2, value_error, std::string(kFn) + ": expected rank-2 array for argument X");
  const std::int64_t n = X0.shape(0);
  std::int64_t sizeX = X0.shape(1);
  CUSCI_EXPECTS(A.shape()[0] == n && A.shape()[1] == n, value_error,
                std::string(kFn) + ": A of shape " + shape_str(A.shape()) + " does not match X of shape " +
                    shape_str(X0.shape()));
  for (const linear_operator* op : {o.B ? &*o.B : nullptr, o.M ? &*o.M : nullptr})
    if (op)
      CUSCI_EXPECTS(op->shape() == A.shape(), value_error,
                    std::string(kFn) + ": B / M of shape " + shape_str(op->shape()) + ", expected " +
                        shape_str(A.shape()));
  std::int64_t sizeY = 0;
  if (o.Y) {
    CUSCI_EXPECTS(o.Y->ndim() == 2 && o.Y->shape(0) == n, value_error,
                  std::string(kFn) + ": Y must be [n, sizeY] with n=" + std::to_string(n) + ", got shape " +
                      shape_str(o.Y->shape()));
    sizeY = o.Y->shape(1);
  }
  const dtype t = is_inexact(X0.dtype()) ? X0.dtype() : dtype::float32;
  CUSCI_EXPECTS(t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128,
                type_error, std::string(kFn) + ": unsupported dtype " + std::string(dtype_name(t)));
  const dtype rt = real_dtype(t);
  const bool single = rt == dtype::float32;
  const double eps = single ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  const std::int64_t maxiter = o.maxiter.value_or(20);
  lobpcg_result res;

  // Dense fallback for small problems.
  if (n - sizeY < 5 * sizeX) {
    sizeX = std::min(sizeX, n);
    CUSCI_EXPECTS(!o.Y, not_implemented_error, std::string(kFn) + ": The dense eigensolver does not support constraints.");
    ndarray I = eye(n, {}, 0, t);
    const hmat a = down(as_block(A.matmat(I), t, n, n));
    hmat b(static_cast<std::size_t>(n * n), 0.0);
    if (o.B) b = down(as_block(o.B->matmat(I), t, n, n));
    else
      for (std::int64_t i = 0; i < n; ++i) b[i * n + i] = 1.0;
    std::vector<double> w;
    hmat v;
    CUSCI_EXPECTS(eig_detail::sygvd(t, n, a, b, w, v), value_error, std::string(kFn) + ": Dense eigensolver failed");
    const auto ii = get_indx(n, sizeX, o.largest);
    hmat wl, vs(static_cast<std::size_t>(n * sizeX));
    for (std::int64_t j = 0; j < sizeX; ++j) {
      wl.push_back(w[ii[j]]);
      for (std::int64_t i = 0; i < n; ++i) vs[i * sizeX + j] = v[i * n + ii[j]];
    }
    res.w = eig_detail::upload(wl, rt, {sizeX});
    res.v = up(vs, t, n, sizeX);
    return res;
  }

  const double tol = (!o.tol || *o.tol <= 0.0) ? std::sqrt(eps) * static_cast<double>(n) : *o.tol;
  state S{t, n, &A, o.B ? &*o.B : nullptr, o.M ? &*o.M : nullptr};
  const bool hasB = S.B != nullptr;

  ndarray X = as_block(X0, t, n, sizeX).copy();
  ndarray Y, BY;
  std::optional<hmat> uY;
  auto apply_constraints = [&](const ndarray& V) {
    const std::int64_t c = cols_of(V);
    const hmat ybv = down(gram(BY, V));
    const hmat tmp = cho_solve(*uY, sizeY, ybv, c);
    return subtract(V, mul(Y, up(tmp, t, sizeY, c)));
  };
  if (o.Y) {
    Y = as_block(*o.Y, t, n, sizeY);
    BY = hasB ? S.apply(*S.B, Y) : Y;
    uY = chol_upper(down(gram(Y, BY)), sizeY);
    CUSCI_EXPECTS(uY.has_value(), value_error, std::string(kFn) + ": Linearly dependent constraints");
    X = apply_constraints(X);
  }
  auto x0 = S.b_orthonormalize(X, std::nullopt);
  CUSCI_EXPECTS(x0.has_value(), value_error, std::string(kFn) + ": Linearly dependent initial approximations");
  X = x0->V;
  ndarray BX = x0->BV;
  ndarray AX = S.apply(A, X);
  std::vector<double> lam;
  {
    const hmat gxax = down(gram(X, AX));
    hmat id(static_cast<std::size_t>(sizeX * sizeX), 0.0);
    for (std::int64_t i = 0; i < sizeX; ++i) id[i * sizeX + i] = 1.0;
    std::vector<double> w;
    hmat e;
    CUSCI_EXPECTS(eig_detail::sygvd(t, sizeX, gxax, id, w, e), value_error, std::string(kFn) + ": eigh failed");
    const auto ii = get_indx(sizeX, sizeX, o.largest);
    hmat es(static_cast<std::size_t>(sizeX * sizeX));
    for (std::int64_t j = 0; j < sizeX; ++j) {
      lam.push_back(w[ii[j]]);
      for (std::int64_t i = 0; i < sizeX; ++i) es[i * sizeX + j] = e[i * sizeX + ii[j]];
    }
    ndarray E = up(es, t, sizeX, sizeX);
    X = mul(X, E);
    AX = mul(AX, E);
    if (hasB) BX = mul(BX, E);
    else BX = X;
  }
  set_row(res.lambda_history, 0, lam);

  std::vector<char> active(static_cast<std::size_t>(sizeX), 1);
  ndarray P, AP, BP;
  double smallest = single ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  std::int64_t best_it = maxiter;
  ndarray bestX = X;
  std::int64_t it = -1;
  bool restart = true, forced = false, explicit_gram = false;
  while (it < maxiter) {
    ++it;
    ndarray R;
    const std::vector<double> rn = residual_norms(AX, hasB ? BX : X, lam, &R);
    set_row(res.residual_norms_history, it, rn);
    double rmean = 0.0, rmax = 0.0;
    for (double v : rn) {
      rmean += std::abs(v);
      rmax = std::max(rmax, v);
    }
    rmean /= static_cast<double>(sizeX);
    if (rmean < smallest) {
      smallest = rmean;
      best_it = it;
      bestX = X;
    } else if (rmean > std::ldexp(1.0, o.restartControl) * smallest) {
      forced = true;
      AX = S.apply(A, X);
      if (hasB) BX = S.apply(*S.B, X);
    }
    std::int64_t cur = 0;
    for (std::int64_t j = 0; j < sizeX; ++j) {
      active[j] = active[j] && rn[j] > tol;
      cur += active[j];
    }
    if (cur == 0) break;
    ndarray Ra = select_cols(R, active, cur);
    ndarray Pa, APa, BPa;
    if (it > 0) {
      Pa = select_cols(P, active, cur);
      APa = select_cols(AP, active, cur);
      if (hasB) BPa = select_cols(BP, active, cur);
    }
    if (S.M) Ra = S.apply(*S.M, Ra);
    if (o.Y) Ra = apply_constraints(Ra);
    Ra = subtract(Ra, mul(X, gram(hasB ? BX : X, Ra)));
    auto ro = S.b_orthonormalize(Ra, std::nullopt);
    if (!ro) break;  // SciPy: "Failed at iteration ..." warning, then post-processing
    Ra = ro->V;
    ndarray BRa = ro->BV;
    ndarray ARa = S.apply(A, Ra);
    if (it > 0) {
      auto po = hasB ? S.b_orthonormalize(Pa, BPa) : S.b_orthonormalize(Pa, Pa);
      if (po) {
        Pa = po->V;
        if (hasB) BPa = po->BV;
        APa = mul(APa, po->invR);
        restart = forced;
      } else {
        restart = true;
      }
    }
    const double myeps = t == dtype::float32 ? 1.0 : std::sqrt(eps);
    explicit_gram = !(rmax > myeps && !explicit_gram);
    if (!hasB) {
      BX = X;
      BRa = Ra;
      if (!restart) BPa = Pa;
    }
    // The Gram blocks of the Rayleigh-Ritz step, all at once: W^H [AX AR AP] and W^H [BX BR BP].
    auto rayleigh_ritz = [&](bool with_p, std::vector<double>& w, hmat& e) {
      const std::int64_t np = with_p ? cur : 0, k = sizeX + cur + np;
      std::vector<ndarray> ws{X, Ra}, aws{AX, ARa}, bws{BX, BRa};
      if (with_p) {
        ws.push_back(Pa);
        aws.push_back(APa);
        bws.push_back(BPa);
      }
      const ndarray W = concatenate(ws, 1), AW = concatenate(aws, 1), BW = concatenate(bws, 1);
      const ndarray gA = gram(W, AW), gB = gram(W, BW);
      const hmat ga = down(gA), gb = down(gB);
      hmat a(static_cast<std::size_t>(k * k)), b(static_cast<std::size_t>(k * k));
      // Upper blocks as computed, lower blocks their conjugate transposes (np.block of SciPy).
      auto blk = [&](std::int64_t i) { return i < sizeX ? 0 : (i < sizeX + cur ? 1 : 2); };
      for (std::int64_t i = 0; i < k; ++i)
        for (std::int64_t j = 0; j < k; ++j) {
          const int bi = blk(i), bj = blk(j);
          if (bi <= bj) {
            a[i * k + j] = ga[i * k + j];
            b[i * k + j] = gb[i * k + j];
          } else {
            a[i * k + j] = std::conj(ga[j * k + i]);
            b[i * k + j] = std::conj(gb[j * k + i]);
          }
        }
      auto sym = [&](hmat& m, std::int64_t r0, std::int64_t r1) {
        for (std::int64_t i = r0; i < r1; ++i)
          for (std::int64_t j = r0; j < i; ++j) {
            const cplx v = (m[i * k + j] + std::conj(m[j * k + i])) / 2.0;
            m[i * k + j] = v;
            m[j * k + i] = std::conj(v);
          }
        for (std::int64_t i = r0; i < r1; ++i) m[i * k + i] = m[i * k + i].real();
      };
      auto set_block = [&](hmat& m, std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1, bool ident,
                           const std::vector<double>* diag) {
        for (std::int64_t i = r0; i < r1; ++i)
          for (std::int64_t j = c0; j < c1; ++j) {
            cplx v = 0.0;
            if (i - r0 == j - c0) v = diag ? cplx((*diag)[i - r0], 0.0) : (ident ? 1.0 : 0.0);
            m[i * k + j] = v;
            m[j * k + i] = std::conj(v);
          }
      };
      const std::int64_t x1 = sizeX, r1 = sizeX + cur, p1 = k;
      if (explicit_gram) {
        sym(a, x1, r1);  // gramRAR
        sym(a, 0, x1);   // gramXAX
        if (with_p) sym(a, r1, p1);  // gramPAP
      } else {
        set_block(a, 0, x1, 0, x1, false, &lam);  // gramXAX = diag(lambda)
        set_block(b, 0, x1, 0, x1, true, nullptr);
        set_block(b, x1, r1, x1, r1, true, nullptr);
        for (std::int64_t i = 0; i < x1; ++i)  // gramXBR = 0
          for (std::int64_t j = x1; j < r1; ++j) b[i * k + j] = b[j * k + i] = 0.0;
        if (with_p) set_block(b, r1, p1, r1, p1, true, nullptr);  // gramPBP = I
      }
      return eig_detail::sygvd(t, k, a, b, w, e);
    };
    std::vector<double> w;
    hmat e;
    bool ok = false;
    if (!restart) {
      ok = rayleigh_ritz(true, w, e);
      if (!ok) restart = true;
    }
    if (restart) {
      ok = rayleigh_ritz(false, w, e);
      if (!ok) break;
    }
    const std::int64_t k = sizeX + cur + (restart ? 0 : cur);
    const auto ii = get_indx(k, sizeX, o.largest);
    hmat es(static_cast<std::size_t>(k * sizeX));
    lam.clear();
    for (std::int64_t j = 0; j < sizeX; ++j) {
      lam.push_back(w[ii[j]]);
      for (std::int64_t i = 0; i < k; ++i) es[i * sizeX + j] = e[i * k + ii[j]];
    }
    set_row(res.lambda_history, it + 1, lam);
    const ndarray eX = rows_of(es, sizeX, 0, sizeX, t), eR = rows_of(es, sizeX, sizeX, cur, t);
    ndarray pp = mul(Ra, eR), app = mul(ARa, eR), bpp;
    if (hasB) bpp = mul(BRa, eR);
    if (!restart) {
      const ndarray eP = rows_of(es, sizeX, sizeX + cur, cur, t);
      pp = add(pp, mul(Pa, eP));
      app = add(app, mul(APa, eP));
      if (hasB) bpp = add(bpp, mul(BPa, eP));
    }
    X = add(mul(X, eX), pp);
    AX = add(mul(AX, eX), app);
    if (hasB) BX = add(mul(BX, eX), bpp);
    P = pp;
    AP = app;
    if (hasB) BP = bpp;
  }
  {
    const std::vector<double> rn = residual_norms(AX, hasB ? BX : X, lam, nullptr);
    set_row(res.lambda_history, it + 1, lam);
    set_row(res.residual_norms_history, it + 1, rn);
    double rmean = 0.0;
    for (double v : rn) rmean += std::abs(v);
    rmean /= static_cast<double>(sizeX);
    if (rmean < smallest) {
      smallest = rmean;
      best_it = it + 1;
      bestX = X;
    }
  }
  // Post-processing: Rayleigh-Ritz on the best iterate.
  X = bestX;
  if (o.Y) X = apply_constraints(X);
  AX = S.apply(A, X);
  BX = hasB ? S.apply(*S.B, X) : X;
  hmat gxax = down(gram(X, AX)), gxbx = down(gram(X, BX));
  for (auto* m : {&gxax, &gxbx})
    for (std::int64_t i = 0; i < sizeX; ++i)
      for (std::int64_t j = 0; j <= i; ++j) {
        const cplx v = ((*m)[i * sizeX + j] + std::conj((*m)[j * sizeX + i])) / 2.0;
        (*m)[i * sizeX + j] = v;
        (*m)[j * sizeX + i] = std::conj(v);
      }
  std::vector<double> w;
  hmat e;
  CUSCI_EXPECTS(eig_detail::sygvd(t, sizeX, gxax, gxbx, w, e), value_error,
                std::string(kFn) + ": eigh has failed in lobpcg postprocessing");
  const auto ii = get_indx(sizeX, sizeX, o.largest);
  hmat es(static_cast<std::size_t>(sizeX * sizeX));
  lam.clear();
  for (std::int64_t j = 0; j < sizeX; ++j) {
    lam.push_back(w[ii[j]]);
    for (std::int64_t i = 0; i < sizeX; ++i) es[i * sizeX + j] = e[i * sizeX + ii[j]];
  }
  const ndarray E = up(es, t, sizeX, sizeX);
  X = mul(X, E);
  AX = mul(AX, E);
  BX = hasB ? mul(BX, E) : X;
  const std::vector<double> rn = residual_norms(AX, BX, lam, nullptr);
  set_row(res.lambda_history, best_it + 1, lam);
  set_row(res.residual_norms_history, best_it + 1, rn);
  res.lambda_history.resize(static_cast<std::size_t>(best_it + 2));
  res.residual_norms_history.resize(static_cast<std::size_t>(best_it + 2));
  if (!o.retLambdaHistory) res.lambda_history.clear();
  if (!o.retResidualNormsHistory) res.residual_norms_history.clear();
  hmat wl(lam.begin(), lam.end());
  res.w = eig_detail::upload(wl, rt, {sizeX});
  res.v = X;
  res.iterations = best_it + 1;
  return res;
}

}  // namespace cusci::sparse::linalg
