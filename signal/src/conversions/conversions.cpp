// Conversions between transfer functions, zeros/poles/gain, second-order sections and state space
// (scipy/signal/_filter_design.py: normalize, tf2zpk, zpk2tf, tf2sos, sos2tf, sos2zpk;
// scipy/signal/_lti_conversion.py: abcd_normalize, tf2ss, ss2tf, zpk2ss, ss2zpk), step by step as SciPy
// computes them.

#include <algorithm>
#include <cmath>

#include "conversions/conversions_detail.hpp"
#include "cusci/detail/shape.hpp"
#include "cusci/error.hpp"
#include "cusci/signal/conversions.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::signal {

using namespace detail::conv;
using cusci::detail::shape_str;

namespace {
const std::string P = "cusci::signal::";
}

ba_coeffs normalize(const array_like& b_arg, const array_like& a_arg) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::normalize");
  const norm_t n = normalize_impl(b, a, P + "normalize");
  return {num_array(n), narrow(make(n.den), n.den_f32)};
}

zpk_coeffs tf2zpk(const array_like& b_arg, const array_like& a_arg) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::tf2zpk");
  const std::string F = P + "tf2zpk";
  return to_zpk_coeffs(tf2zpk_impl(b, a, F), F);
}

ba_coeffs zpk2tf(const array_like& z_arg, const array_like& p_arg, const array_like& k_arg) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  const host_array k = k_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::zpk2tf");
  const std::string F = P + "zpk2tf";
  CUSCI_EXPECTS(z.ndim() <= 2, value_error, F + ": z must be 1-D or 2-D, got shape " + shape_str(z.shape()));
  CUSCI_EXPECTS(p.ndim() <= 1, value_error, F + ": p must be 1-D, got shape " + shape_str(p.shape()));
  CUSCI_EXPECTS(k.ndim() <= 1, value_error, F + ": k must be a scalar or 1-D, got shape " + shape_str(k.shape()));
  const cvec kv = read(k);
  CUSCI_EXPECTS(!kv.empty(), value_error, F + ": k must not be empty");
  const cvec zv = read(z), pv = read(p);
  ba_coeffs out;
  if (z.ndim() == 2) {
    const std::int64_t rows = z.shape()[0], nz = z.shape()[1];
    CUSCI_EXPECTS(kv.size() == 1 || static_cast<std::int64_t>(kv.size()) >= rows, index_error,
                  F + ": k has " + std::to_string(kv.size()) + " gains for " + std::to_string(rows) + " rows of z");
    CUSCI_EXPECTS(kv.size() == 1 || static_cast<std::int64_t>(kv.size()) == rows, value_error,
                  F + ": k must have 1 or " + std::to_string(rows) + " gains, got " + std::to_string(kv.size()));
    // SciPy: the dtype of every row is that of k * poly(z[0]).
    bool cx = kv.cx;
    std::vector<cplx> b(static_cast<std::size_t>(rows * (nz + 1)));
    for (std::int64_t i = 0; i < rows; ++i) {
      cvec zi{std::vector<cplx>(zv.v.begin() + i * nz, zv.v.begin() + (i + 1) * nz), zv.cx};
      cvec pi = sp_poly(zi);
      if (i == 0) cx = cx || pi.cx;
      const cplx ki = kv.v[kv.size() == 1 ? 0 : static_cast<std::size_t>(i)];
      for (std::int64_t j = 0; j <= nz; ++j) {
        const cplx c = cx ? pi.v[j] : cplx(pi.v[j].real(), 0.0);
        b[i * (nz + 1) + j] = mul(cx ? ki : cplx(ki.real(), 0.0), c);
      }
    }
    out.b = narrow(make(b, cx, shape_t{rows, nz + 1}), single({z.dtype(), p.dtype(), k.dtype()}));
  } else {
    CUSCI_EXPECTS(kv.size() == 1, value_error,
                  F + ": k must be a single gain for a 1-D z, got " + std::to_string(kv.size()));
    cvec pz = sp_poly(zv);
    const bool cx = pz.cx || kv.cx;
    for (auto& c : pz.v) c = mul(kv.v[0], c);
    pz.cx = cx;
    out.b = narrow(make(pz), single({z.dtype(), p.dtype(), k.dtype()}));
  }
  out.a = narrow(make(sp_poly(pv)), single({p.dtype()}));
  return out;
}

// ---- second-order sections -------------------------------------------------------------------------

namespace {
void check_sos(const host_array& sos, const std::string& F) {
  CUSCI_EXPECTS(sos.ndim() == 2 && sos.shape()[1] == 6, value_error,
                F + ": sos array must be shape (n_sections, 6), got " + shape_str(sos.shape()));
}
}  // namespace

host_array tf2sos(const array_like& b_arg, const array_like& a_arg, const zpk2sos_options& opts) {
  const host_array b = b_arg.to_host();
  const host_array a = a_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::tf2sos");
  const std::string F = P + "tf2sos";
  const zpk_coeffs f = to_zpk_coeffs(tf2zpk_impl(b, a, F), F);
  return zpk2sos(f.z, f.p, f.k, opts);
}

ba_coeffs sos2tf(const array_like& sos_arg) {
  const host_array sos = sos_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::sos2tf");
  const std::string F = P + "sos2tf";
  check_sos(sos, F);
  const cvec s = read(sos);
  cvec b{{cplx(1.0, 0.0)}, s.cx}, a{{cplx(1.0, 0.0)}, s.cx};
  for (std::int64_t i = 0; i < sos.shape()[0]; ++i) {
    const auto it = s.v.begin() + 6 * i;
    b = polymul(b, cvec{std::vector<cplx>(it, it + 3), s.cx});
    a = polymul(a, cvec{std::vector<cplx>(it + 3, it + 6), s.cx});
  }
  const bool f32 = single({sos.dtype()});
  return {narrow(make(b), f32), narrow(make(a), f32)};
}

zpk_coeffs sos2zpk(const array_like& sos_arg) {
  const host_array sos = sos_arg.to_host();
  CUSCI_NVTX_SCOPE("cusci::signal::sos2zpk");
  const std::string F = P + "sos2zpk";
  check_sos(sos, F);
  const std::int64_t ns = sos.shape()[0];
  const host_array s = sos.astype(is_complex(sos.dtype()) ? dtype::complex128 : dtype::float64);
  std::vector<cplx> z(static_cast<std::size_t>(2 * ns)), p(static_cast<std::size_t>(2 * ns));
  double k = 1.0;
  const std::size_t item = is_complex(s.dtype()) ? 16 : 8;
  for (std::int64_t i = 0; i < ns; ++i) {
    host_array b(s.dtype(), shape_t{3}), a(s.dtype(), shape_t{3});
    const auto* base = static_cast<const std::byte*>(s.data()) + static_cast<std::size_t>(6 * i) * item;
    std::copy(base, base + 3 * item, static_cast<std::byte*>(b.data()));
    std::copy(base + 3 * item, base + 6 * item, static_cast<std::byte*>(a.data()));
    const zpk_v r = tf2zpk_impl(b, a, F);
    CUSCI_EXPECTS(r.k.imag() == 0.0, not_implemented_error, F + ": a section's gain is complex; not supported");
    std::copy(r.z.v.begin(), r.z.v.end(), z.begin() + 2 * i);
    std::copy(r.p.v.begin(), r.p.v.end(), p.begin() + 2 * i);
    k *= r.k.real();
  }
  return {make(z, true, shape_t{2 * ns}), make(p, true, shape_t{2 * ns}), k};
}

// ---- state space -----------------------------------------------------------------------------------

namespace {
/// A matrix as NumPy's atleast_2d sees it, with its values.
struct m2 {
  std::int64_t r = 0, c = 0;
  std::vector<cplx> v;
  std::int64_t size() const { return r * c; }
};

m2 as2d(const host_array& a) {
  m2 m;
  if (a.ndim() == 0) {
    m.r = m.c = 1;
  } else if (a.ndim() == 1) {
    m.r = 1;
    m.c = a.shape()[0];
  } else {
    m.r = a.shape()[0];
    m.c = a.shape()[1];
  }
  m.v = read(a).v;
  return m;
}

struct abcd_t {
  m2 A, B, C, D;
  bool cx = false;
  bool f32 = false;  // all given matrices single precision (SciPy keeps float32)
};

std::string shape2(std::int64_t r, std::int64_t c) { return "(" + std::to_string(r) + ", " + std::to_string(c) + ")"; }

abcd_t abcd_impl(const std::optional<host_array>& A, const std::optional<host_array>& B,
                 const std::optional<host_array>& C, const std::optional<host_array>& D, const std::string& F) {
  CUSCI_EXPECTS(A || B || C, value_error, F + ": Dimension n is undefined for parameters A = B = C = None!");
  CUSCI_EXPECTS(B || D, value_error, F + ": Dimension p is undefined for parameters B = D = None!");
  CUSCI_EXPECTS(C || D, value_error, F + ": Dimension q is undefined for parameters C = D = None!");
  const std::optional<host_array>* in[4] = {&A, &B, &C, &D};
  const char* names[4] = {"A", "B", "C", "D"};
  abcd_t r;
  dtype rt = dtype::bool_;
  for (int i = 0; i < 4; ++i)
    if (*in[i]) rt = promote_types(rt, (*in[i])->dtype());
  r.f32 = rt == dtype::float32 || rt == dtype::complex64;
  for (int i = 0; i < 4; ++i) {
    if (*in[i]) {
      CUSCI_EXPECTS((*in[i])->ndim() <= 2, value_error,
                    F + ": Parameter " + names[i] + " must have at most 2 dimensions, got shape " +
                        shape_str((*in[i])->shape()));
      r.cx = r.cx || is_complex((*in[i])->dtype());
    }
  }
  m2* out[4] = {&r.A, &r.B, &r.C, &r.D};
  for (int i = 0; i < 4; ++i)
    if (*in[i]) *out[i] = as2d(**in[i]);
  const std::int64_t n = r.A.r ? r.A.r : (r.B.r ? r.B.r : r.C.c);
  const std::int64_t p = r.B.c ? r.B.c : r.D.c;
  const std::int64_t q = r.C.r ? r.C.r : r.D.r;
  auto fill = [](m2& m, std::int64_t rows, std::int64_t cols) {
    if (m.size() == 0) {
      m.r = rows;
      m.c = cols;
      m.v.assign(static_cast<std::size_t>(rows * cols), cplx(0.0, 0.0));
    }
  };
  fill(r.A, n, n);
  fill(r.B, n, p);
  fill(r.C, q, n);
  fill(r.D, q, p);
  auto check = [&](const m2& m, const char* name, std::int64_t rows, std::int64_t cols) {
    CUSCI_EXPECTS(m.r == rows && m.c == cols, value_error,
                  F + ": Parameter " + name + " has shape " + shape2(m.r, m.c) + " but should be " + shape2(rows, cols) + "!");
  };
  check(r.A, "A", n, n);
  check(r.B, "B", n, p);
  check(r.C, "C", q, n);
  check(r.D, "D", q, p);
  return r;
}

host_array mk(const m2& m, bool cx, bool f32) { return narrow(make(m.v, cx, shape_t{m.r, m.c}), f32); }

ss_coeffs tf2ss_impl(const host_array& num_in, const host_array& den_in, const std::string& F) {
  const norm_t n = normalize_impl(num_in, den_in, F);
  const bool cx = n.cx;
  const std::int64_t rows = n.rows, M = n.cols, K = static_cast<std::int64_t>(n.den.size());
  CUSCI_EXPECTS(M <= K, value_error, F + ": Improper transfer function. `num` is longer than `den`.");
  if (M == 0 || K == 0) {
    const host_array e(dtype::float64, shape_t{0});
    return {e, e, e, e};
  }
  // num padded at the front to K columns
  std::vector<cplx> num(static_cast<std::size_t>(rows * K), cplx(0.0, 0.0));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < M; ++j) num[i * K + (K - M) + j] = n.num[i * M + j];
  std::vector<cplx> d(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) d[i] = num[i * K];
  if (K == 1) {
    return {host_array(dtype::float64, shape_t{1, 1}), host_array(dtype::float64, shape_t{1, 1}),
            host_array(dtype::float64, shape_t{rows, 1}), narrow(make(d, cx, shape_t{rows, 1}), n.f32)};
  }
  const std::int64_t ns = K - 1;
  std::vector<cplx> A(static_cast<std::size_t>(ns * ns), cplx(0.0, 0.0));
  for (std::int64_t j = 0; j < ns; ++j) A[j] = -n.den.v[j + 1];
  for (std::int64_t i = 1; i < ns; ++i) A[i * ns + (i - 1)] = cplx(1.0, 0.0);
  host_array B(dtype::float64, shape_t{ns, 1});
  B.data_as<double>()[0] = 1.0;
  std::vector<cplx> C(static_cast<std::size_t>(rows * ns));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < ns; ++j) {
      const cplx t = mul(num[i * K], n.den.v[j + 1]);
      const cplx x = num[i * K + j + 1];
      C[i * ns + j] = cplx(x.real() - t.real(), x.imag() - t.imag());
    }
  // SciPy: A = r_[-den[1:], eye] (den's kind, float64) and B = eye; C and D keep num's precision
  return {make(A, n.den.cx, shape_t{ns, ns}), B, narrow(make(C, cx, shape_t{rows, ns}), n.f32),
          narrow(make(d, cx, shape_t{rows, 1}), n.f32)};
}

ba_coeffs ss2tf_impl(const host_array& A_, const host_array& B_, const host_array& C_, const host_array& D_,
                     std::int64_t input, const std::string& F) {
  const abcd_t s = abcd_impl(A_, B_, C_, D_, F);
  const bool cx = s.cx;
  const std::int64_t nout = s.D.r, nin = s.D.c;
  CUSCI_EXPECTS(input < nin, value_error, F + ": System does not have the input specified.");
  CUSCI_EXPECTS(input >= 0, value_error, F + ": input must be non-negative, got " + std::to_string(input));
  const std::int64_t n = s.A.r;
  std::vector<cplx> Bc(static_cast<std::size_t>(n)), Dc(static_cast<std::size_t>(nout));
  for (std::int64_t i = 0; i < n; ++i) Bc[i] = s.B.v[i * s.B.c + input];
  for (std::int64_t i = 0; i < nout; ++i) Dc[i] = s.D.v[i * s.D.c + input];
  // den = poly(A); a 0 x 0 A makes numpy.poly raise, and SciPy uses 1.
  cvec den{{cplx(1.0, 0.0)}, false};
  if (n > 0) den = np_poly_matrix(cvec{s.A.v, cx}, n, F);
  // B[:, input] is empty exactly when there are no states, and then C is empty too: num = D[:, input]
  // (den is 1, or [] when there are no outputs either).
  if (n == 0) {
    if (Dc.empty()) den.v.clear();
    return {narrow(make(Dc, cx, shape_t{nout}), s.f32), make(den)};
  }
  const bool ncx = cx;  // dtype of A[:, 0] + B[:, 0] + C[0, :] + D + 0.0
  std::vector<cplx> num(static_cast<std::size_t>(nout * (n + 1)));
  for (std::int64_t k = 0; k < nout; ++k) {
    cvec m{std::vector<cplx>(static_cast<std::size_t>(n * n)), cx};
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const cplx t = mul(Bc[i], s.C.v[k * n + j]);
        const cplx a = s.A.v[i * n + j];
        m.v[i * n + j] = cplx(a.real() - t.real(), a.imag() - t.imag());
      }
    const cvec pk = np_poly_matrix(m, n, F);
    const cplx dk1(Dc[k].real() - 1.0, Dc[k].imag());
    for (std::int64_t j = 0; j <= n; ++j) {
      const cplx t = mul(dk1, den.v[j]);
      cplx v(pk.v[j].real() + t.real(), pk.v[j].imag() + t.imag());
      if (!ncx) v = cplx(v.real(), 0.0);
      num[k * (n + 1) + j] = v;
    }
  }
  return {narrow(make(num, ncx, shape_t{nout, n + 1}), s.f32), narrow(make(den), s.f32)};
}
}  // namespace

ss_coeffs abcd_normalize(const std::optional<host_array>& A, const std::optional<host_array>& B,
                         const std::optional<host_array>& C, const std::optional<host_array>& D) {
  CUSCI_NVTX_SCOPE("cusci::signal::abcd_normalize");
  const abcd_t r = abcd_impl(A, B, C, D, P + "abcd_normalize");
  return {mk(r.A, r.cx, r.f32), mk(r.B, r.cx, r.f32), mk(r.C, r.cx, r.f32), mk(r.D, r.cx, r.f32)};
}

ss_coeffs tf2ss(const array_like& num, const array_like& den) {
  return tf2ss_impl(num.to_host(), den.to_host(), P + "tf2ss");
}

ba_coeffs ss2tf(const array_like& A_arg, const array_like& B_arg, const array_like& C_arg, const array_like& D_arg,
                std::int64_t input) {
  const host_array A = A_arg.to_host();
  const host_array B = B_arg.to_host();
  const host_array C = C_arg.to_host();
  const host_array D = D_arg.to_host();
  return ss2tf_impl(A, B, C, D, input, P + "ss2tf");
}

ss_coeffs zpk2ss(const array_like& z_arg, const array_like& p_arg, double k) {
  const host_array z = z_arg.to_host();
  const host_array p = p_arg.to_host();
  // SciPy's k is a Python float, which takes z's and p's precision
  host_array ka = narrow(host_array::from(std::vector<double>{k}), single({z.dtype(), p.dtype()}));
  const ba_coeffs t = zpk2tf(z, p, ka);
  return tf2ss_impl(t.b, t.a, P + "zpk2ss");
}

zpk_coeffs ss2zpk(const array_like& A_arg, const array_like& B_arg, const array_like& C_arg, const array_like& D_arg,
                  std::int64_t input) {
  const host_array A = A_arg.to_host();
  const host_array B = B_arg.to_host();
  const host_array C = C_arg.to_host();
  const host_array D = D_arg.to_host();
  const std::string F = P + "ss2zpk";
  const ba_coeffs t = ss2tf_impl(A, B, C, D, input, F);
  return to_zpk_coeffs(tf2zpk_impl(t.b, t.a, F), F);
}

}  // namespace cusci::signal
