#!/usr/bin/env python3
"""Reference data for cusci core's internal host dense linear algebra (core/internal/cusci/detail/
host_linalg.hpp, namespace cusci::detail::hostla), computed with numpy.linalg / scipy.linalg /
numpy.fft, written through golden.py.

Every case stores its inputs and expected outputs as arrays <case>_<name> and names them in params.
funcs and what the test compares:
- eigvals, eigvals_c (a): eigenvalues as a set (each expected value matched to the nearest unused
  computed one); real input also checks that complex pairs are adjacent with positive imaginary first.
- roots, roots_c (p), poly (r), poly_mat (a): numpy.roots / numpy.poly.
- eig, eig_c (a): eigenvalues as a set; each eigenvector checked by its residual |A v - w v| and unit
  norm, and against NumPy's vector up to a phase where the eigenvalue is simple.
- lu (a): scipy.linalg.lu_factor's lu and piv; solve, solve_c (a, b); inv (a); det (a); cholesky (a).
- qr, qr_c (a, complete): numpy.linalg.qr's Q and R exactly (same signs, LAPACK conventions).
- svd (a, full): singular values; U, V checked by reconstruction and orthogonality and against NumPy's
  singular vectors up to sign where the singular value is simple. matrix_rank, lstsq (a, b).
- expm (a): scipy.linalg.expm.
- eigh (a): values; vectors up to sign. eigh_tridiagonal (d, e, lo, hi): scipy.linalg.eigh_tridiagonal
  (select='i'), values and vectors (LAPACK stein's sign: largest component positive; compared up to
  sign, the sign rule checked separately).
- fft, ifft (x), rfft, irfft (x, n): numpy.fft, to 1e-13 of the scale.

Tolerances: 1e-12 of the scale for well-conditioned problems. Eigenvalues (and roots) of nonsymmetric
matrices are only determined to eps times their condition number: for each such case the tolerance is
derived from NumPy's own spread, max(1e-11 * scale, 100 * max |eig(A) - eig(A^T)|) (the same LAPACK code
on the transposed matrix gives a different rounding of the same problem), which is ~1e-9 relative for
the clustered poles of a 12th-order elliptic filter and ~1e-14 for random matrices. Error cases: the
calls that NumPy/SciPy reject (non-square, non-finite, singular, bad select_range).
"""
import numpy as np
import scipy.linalg as sl
import scipy.signal as ss

from golden import Suite

s = Suite("core_hostla")
rng = s.rng(20261202)


def arr(case, name, a):
    return s.array(f"{case}_{name}", a)


def matched_spread(x, y):
    """max distance of a nearest-neighbour matching of two eigenvalue sets."""
    y = list(y)
    worst = 0.0
    for v in sorted(x, key=lambda z: (round(z.real, 8), round(z.imag, 8))):
        k = int(np.argmin([abs(v - w) for w in y]))
        worst = max(worst, abs(v - y[k]))
        y.pop(k)
    return worst


def eig_tol(a, w):
    scale = max(1.0, float(np.abs(w).max()) if w.size else 1.0)
    spread = matched_spread(np.linalg.eigvals(a), np.linalg.eigvals(a.T)) if a.size else 0.0
    return 0.0, max(1e-11 * scale, 100 * spread)


def companion(p):
    p = np.trim_zeros(np.asarray(p), "f")
    n = len(p) - 1
    A = np.diag(np.ones(n - 1, dtype=p.dtype), -1)
    A[0, :] = -p[1:] / p[0]
    return A


# ---- products / eigenvalues --------------------------------------------------------------------------
s.group("eig")
sizes = [1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 16, 20, 25, 31, 40, 50, 60]
for n in sizes:
    a = rng.standard_normal((n, n))
    c = f"eigvals_rand{n}"
    w = np.linalg.eigvals(a).astype(complex)
    s.case(c, "eigvals", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w))
# badly scaled (balancing matters), triangular (isolated eigenvalues), zero and identity matrices
for n in [5, 12, 30]:
    d = 2.0 ** rng.integers(-20, 20, n)
    a = (rng.standard_normal((n, n)) * d[:, None]) / d[None, :]
    c = f"eigvals_scaled{n}"
    w = np.linalg.eigvals(a).astype(complex)
    s.case(c, "eigvals", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w))
for n in [4, 9]:
    a = np.triu(rng.standard_normal((n, n)))
    a[n - 1, 1] = 0.5  # one entry below the diagonal: partly permutable
    c = f"eigvals_tri{n}"
    w = np.linalg.eigvals(a).astype(complex)
    s.case(c, "eigvals", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w))
for c, a in [("eigvals_zero3", np.zeros((3, 3))), ("eigvals_eye4", np.eye(4)),
             ("eigvals_rot", np.array([[0.0, -1.0], [1.0, 0.0]])),
             ("eigvals_jordan", np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]]))]:
    w = np.linalg.eigvals(a).astype(complex)
    s.case(c, "eigvals", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w))
for name, f in [("huge", 1e300), ("tiny", 1e-300)]:  # geev's scaling into [smlnum, bignum]
    a = f * rng.standard_normal((6, 6))
    w = np.linalg.eigvals(a).astype(complex)
    c = f"eigvals_{name}"
    s.case(c, "eigvals", 1e-11, 0.0, a=arr(c, "a", a), w=arr(c, "w", w))
    w, v = np.linalg.eig(a)
    c = f"eig_{name}"
    s.case(c, "eig", 1e-11, 0.0, a=arr(c, "a", a), w=arr(c, "w", w.astype(complex)), v=arr(c, "v", v.astype(complex)))
for n in [1, 2, 3, 7, 20, 45]:
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    c = f"eigvals_c{n}"
    w = np.linalg.eigvals(a)
    s.case(c, "eigvals_c", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w))
for c, a in [("eigvals_empty", np.zeros((0, 0)))]:
    s.case(c, "eigvals", 0.0, 0.0, a=arr(c, "a", a), w=arr(c, "w", np.zeros(0, complex)))
s.case("eigvals_nonsquare", "eigvals", error="value_error", a=arr("eigvals_nonsquare", "a", np.ones((2, 3))))
bad = np.eye(3)
bad[1, 2] = np.nan
s.case("eigvals_nan", "eigvals", error="value_error", a=arr("eigvals_nan", "a", bad))
bad = np.eye(3)
bad[0, 0] = np.inf
s.case("eigvals_inf", "eigvals", error="value_error", a=arr("eigvals_inf", "a", bad))

# ---- roots and poly ----------------------------------------------------------------------------------
s.group("poly")
polys = {
    "quad": [1.0, -3.0, 2.0],
    "cplx": [1.0, 0.0, 1.0],
    "lead_trail_zeros": [0.0, 0.0, 2.0, -1.0, 0.5, 0.0, 0.0],
    "const": [3.0],
    "zero": [0.0, 0.0],
    "linear": [2.0, 1.0],
    "x4p1": [1.0, 0.0, 0.0, 0.0, 1.0],
    "repeated": list(np.poly([1.0, 1.0, 1.0, -2.0])),
}
for N in [6, 15, 30]:
    polys[f"rand{N}"] = list(rng.standard_normal(N + 1))
for name, (kind, order) in {"ellip12": ("ellip", 12), "cheby1_10": ("cheby1", 10), "butter16": ("butter", 16),
                            "ellip8bp": ("ellip_bp", 8)}.items():
    if kind == "ellip":
        z, p, k = ss.ellip(order, 0.5, 60, 0.3, output="zpk")
    elif kind == "ellip_bp":
        z, p, k = ss.ellip(order, 1, 50, [0.2, 0.35], btype="bandpass", output="zpk")
    elif kind == "cheby1":
        z, p, k = ss.cheby1(order, 1, 0.2, output="zpk")
    else:
        z, p, k = ss.butter(order, 0.1, output="zpk")
    polys[f"{name}_den"] = list(np.poly(p).real)
    if len(z):
        polys[f"{name}_num"] = list(np.poly(z).real)
polys["firwin101"] = list(ss.firwin(101, 0.3))
for name, p in polys.items():
    p = np.asarray(p, float)
    r = np.roots(p).astype(complex)
    c = f"roots_{name}"
    A = companion(p) if np.count_nonzero(p) > 1 and len(np.trim_zeros(p)) > 1 else np.zeros((0, 0))
    rt, at = eig_tol(A, r) if A.size else (0.0, 1e-12)
    s.case(c, "roots", rt, at, p=arr(c, "p", p), r=arr(c, "r", r))
for N in [1, 4, 9]:
    p = rng.standard_normal(N + 1) + 1j * rng.standard_normal(N + 1)
    r = np.roots(p)
    c = f"roots_c{N}"
    s.case(c, "roots_c", *eig_tol(companion(p), r), p=arr(c, "p", p), r=arr(c, "r", r))
for name, r in {"real": np.array([1.0, -2.0, 0.5]), "pairs": np.array([1 + 2j, 1 - 2j, -0.5, 3j, -3j]),
                "cplx": np.array([1 + 1j, 2.0, -1j]), "empty": np.zeros(0, complex),
                "ellip12_p": ss.ellip(12, 0.5, 60, 0.3, output="zpk")[1],
                "rand20": rng.standard_normal(20) + 1j * rng.standard_normal(20)}.items():
    pp = np.asarray(np.poly(r), complex) if r.size else np.array([1.0 + 0j])
    c = f"poly_{name}"
    s.case(c, "poly", 1e-13, 1e-13 * max(1.0, np.abs(pp).max()), r=arr(c, "r", np.asarray(r, complex)),
           p=arr(c, "p", pp))
for n in [1, 3, 8]:
    a = rng.standard_normal((n, n))
    pp = np.asarray(np.poly(a), complex)
    c = f"poly_mat{n}"
    s.case(c, "poly_mat", 1e-10, 1e-10 * max(1.0, np.abs(pp).max()), a=arr(c, "a", a), p=arr(c, "p", pp))

s.case("poly_mat_empty", "poly_mat", error="value_error", a=arr("poly_mat_empty", "a", np.zeros((0, 0))))
s.case("poly_mat_nonsquare", "poly_mat", error="value_error", a=arr("poly_mat_nonsquare", "a", np.ones((2, 3))))
s.case("roots_nan", "roots", error="value_error", p=arr("roots_nan", "p", np.array([1.0, np.nan, 2.0])))

# ---- solving -------------------------------------------------------------------------------------------
s.group("solve")
for n in [1, 2, 3, 5, 8, 17, 40, 60]:
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, 3))
    c = f"solve{n}"
    x = np.linalg.solve(a, b)
    s.case(c, "solve", 1e-10, 1e-10 * max(1, np.abs(x).max()), a=arr(c, "a", a), b=arr(c, "b", b),
           x=arr(c, "x", x))
    c = f"inv{n}"
    ai = np.linalg.inv(a)
    s.case(c, "inv", 1e-10, 1e-10 * max(1, np.abs(ai).max()), a=arr(c, "a", a), x=arr(c, "x", ai))
    c = f"det{n}"
    d = np.linalg.det(a)
    s.case(c, "det", 1e-11, 1e-300, a=arr(c, "a", a), det=float(d))
    c = f"lu{n}"
    lu, piv = sl.lu_factor(a)
    s.case(c, "lu", 1e-11, 1e-11 * max(1, np.abs(lu).max()), a=arr(c, "a", a), lu=arr(c, "lu", lu),
           piv=arr(c, "piv", piv.astype(np.int64)))
    m = rng.standard_normal((n, n))
    spd = m @ m.T + n * np.eye(n)
    c = f"cholesky{n}"
    L = np.linalg.cholesky(spd)
    s.case(c, "cholesky", 1e-12, 1e-12 * max(1, np.abs(L).max()), a=arr(c, "a", spd), l=arr(c, "l", L))
for n in [2, 6, 25]:
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    b = rng.standard_normal((n, 2)) + 1j * rng.standard_normal((n, 2))
    x = np.linalg.solve(a, b)
    c = f"solve_c{n}"
    s.case(c, "solve_c", 1e-10, 1e-10 * max(1, np.abs(x).max()), a=arr(c, "a", a), b=arr(c, "b", b),
           x=arr(c, "x", x))
c = "lu_pivot_ties"
a = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0], [1.0, -5.0, 2.0]])
lu, piv = sl.lu_factor(a)
s.case(c, "lu", 1e-14, 1e-14, a=arr(c, "a", a), lu=arr(c, "lu", lu), piv=arr(c, "piv", piv.astype(np.int64)))
c = "det_singular"
s.case(c, "det", 0.0, 1e-300, a=arr(c, "a", np.array([[1.0, 2.0], [2.0, 4.0]])), det=0.0)
s.case("solve_singular", "solve", error="runtime_error", a=arr("solve_singular", "a", np.array([[1.0, 2.0], [2.0, 4.0]])),
       b=arr("solve_singular", "b", np.ones((2, 1))))
s.case("solve_shape", "solve", error="value_error", a=arr("solve_shape", "a", np.eye(3)),
       b=arr("solve_shape", "b", np.ones((2, 1))))
c = "cholesky_notpd"
s.case(c, "cholesky", a=arr(c, "a", np.array([[1.0, 2.0], [2.0, 1.0]])), l=arr(c, "l", np.zeros((0, 0))), ok=False)

# ---- QR, SVD, rank, lstsq ------------------------------------------------------------------------------
s.group("qr_svd")
shapes = [(1, 1), (3, 3), (5, 3), (3, 5), (8, 8), (12, 7), (7, 12), (30, 30), (60, 20), (20, 60)]
for m, n in shapes:
    a = rng.standard_normal((m, n))
    for mode in ["reduced", "complete"]:
        q, r = np.linalg.qr(a, mode=mode)
        c = f"qr{m}x{n}_{mode}"
        s.case(c, "qr", 1e-11, 1e-11, a=arr(c, "a", a), complete=(mode == "complete"), q=arr(c, "q", q),
               r=arr(c, "r", r))
    ac = a + 1j * rng.standard_normal((m, n))
    for mode in ["reduced", "complete"]:
        q, r = np.linalg.qr(ac, mode=mode)
        c = f"qr_c{m}x{n}_{mode}"
        s.case(c, "qr_c", 1e-11, 1e-11, a=arr(c, "a", ac), complete=(mode == "complete"), q=arr(c, "q", q),
               r=arr(c, "r", r))
    for full in [False, True]:
        u, sv, vt = np.linalg.svd(a, full_matrices=full)
        c = f"svd{m}x{n}_{'full' if full else 'red'}"
        s.case(c, "svd", 1e-12, 1e-12 * sv.max(), a=arr(c, "a", a), full=full, u=arr(c, "u", u),
               s=arr(c, "s", sv), v=arr(c, "v", vt.T))
a = np.zeros((4, 3))
a[:, 0] = 1.0
q, r = np.linalg.qr(a, mode="complete")
s.case("qr_rankdef", "qr", 1e-12, 1e-12, a=arr("qr_rankdef", "a", a), complete=True, q=arr("qr_rankdef", "q", q),
       r=arr("qr_rankdef", "r", r))
for name, a in {"lowrank": rng.standard_normal((10, 3)) @ rng.standard_normal((3, 8)),
                "zero": np.zeros((4, 5)), "full": rng.standard_normal((6, 6)),
                "tiny": np.diag([1.0, 1e-10, 1e-17])}.items():
    c = f"rank_{name}"
    s.case(c, "matrix_rank", a=arr(c, "a", a), rank=int(np.linalg.matrix_rank(a)))
    u, sv, vt = np.linalg.svd(a, full_matrices=True)
    c = f"svd_{name}"
    s.case(c, "svd", 1e-12, 1e-12 * max(1.0, sv.max()), a=arr(c, "a", a), full=True, u=arr(c, "u", u),
           s=arr(c, "s", sv), v=arr(c, "v", vt.T))
for name, (m, n) in {"over": (20, 5), "under": (4, 9), "square": (7, 7)}.items():
    a = rng.standard_normal((m, n))
    b = rng.standard_normal((m, 2))
    x = np.linalg.lstsq(a, b, rcond=None)[0]
    c = f"lstsq_{name}"
    s.case(c, "lstsq", 1e-10, 1e-10 * max(1, np.abs(x).max()), a=arr(c, "a", a), b=arr(c, "b", b),
           x=arr(c, "x", x))
a = rng.standard_normal((9, 2)) @ rng.standard_normal((2, 6))
b = rng.standard_normal((9, 1))
x = np.linalg.lstsq(a, b, rcond=None)[0]
s.case("lstsq_rankdef", "lstsq", 1e-9, 1e-9 * max(1, np.abs(x).max()), a=arr("lstsq_rankdef", "a", a),
       b=arr("lstsq_rankdef", "b", b), x=arr("lstsq_rankdef", "x", x))

# ---- expm ----------------------------------------------------------------------------------------------
s.group("expm")
for name, a in {"tiny": 1e-3 * rng.standard_normal((4, 4)), "small": 0.1 * rng.standard_normal((5, 5)),
                "mid": 0.5 * rng.standard_normal((6, 6)), "one": rng.standard_normal((8, 8)),
                "big": 5 * rng.standard_normal((10, 10)), "huge": 40 * rng.standard_normal((6, 6)),
                "upper": np.triu(3 * rng.standard_normal((7, 7))), "lower": np.tril(2 * rng.standard_normal((5, 5))),
                "diag": np.diag([1.0, -2.0, 0.5]), "scalar": np.array([[2.5]]),
                "nilpotent": np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]),
                "rot": np.array([[0.0, -7.0], [7.0, 0.0]]),
                "ss": np.array([[-0.5, -2.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]) * 0.3,
                "aug": np.block([[rng.standard_normal((4, 4)), rng.standard_normal((4, 2))],
                                 [np.zeros((2, 6))]]) * 0.2}.items():
    e = sl.expm(a)
    c = f"expm_{name}"
    # rtol: expm's own conditioning for the large-norm cases (scaling and squaring amplifies rounding)
    norm = np.abs(a).sum(axis=0).max()
    rt = 1e-12 if norm < 8 else 1e-9
    s.case(c, "expm", rt, rt * max(1, np.abs(e).max()), a=arr(c, "a", a), e=arr(c, "e", e))

with np.errstate(all="ignore"):
    for name, a in {"overflow": np.array([[1e3, 1.0], [2.0, 1.0]]), "overflow_tri": np.array([[800.0, 1.0], [0.0, 1.0]]),
                    "inf": np.array([[np.inf, 1.0], [0.0, 1.0]]), "nan": np.array([[1.0, np.nan], [0.0, 1.0]])}.items():
        e = sl.expm(a)
        c = f"expm_{name}"
        s.case(c, "expm", 1e-12, 1e-12 * max(1, np.abs(e[np.isfinite(e)]).max(initial=0)), a=arr(c, "a", a),
               e=arr(c, "e", e))

# ---- symmetric ---------------------------------------------------------------------------------------
s.group("eigh")
for n in [1, 2, 3, 6, 10, 25, 60]:
    m = rng.standard_normal((n, n))
    a = m + m.T
    w, v = np.linalg.eigh(a)
    c = f"eigh{n}"
    s.case(c, "eigh", 1e-12, 1e-12 * max(1, np.abs(w).max()), a=arr(c, "a", a), w=arr(c, "w", w), v=arr(c, "v", v))
a = np.diag([1.0, 2.0, 2.0, 3.0])
w, v = np.linalg.eigh(a)
s.case("eigh_repeated", "eigh", 1e-12, 1e-12, a=arr("eigh_repeated", "a", a), w=arr("eigh_repeated", "w", w),
       v=arr("eigh_repeated", "v", v))


def dpss_tridiag(M, NW):
    W = float(NW) / M
    nidx = np.arange(M)
    d = ((M - 1 - 2 * nidx) / 2.0) ** 2 * np.cos(2 * np.pi * W)
    e = nidx[1:] * (M - nidx[1:]) / 2.0
    return d, e


for M, NW, K in [(2, 1.0, 1), (5, 1.5, 2), (16, 2.5, 4), (64, 4, 7), (101, 3, 5), (256, 4, 8), (512, 2.5, 4),
                 (512, 8, 12)]:
    d, e = dpss_tridiag(M, NW)
    lo, hi = M - K, M - 1
    w, v = sl.eigh_tridiagonal(d, e, select="i", select_range=(lo, hi))
    c = f"eigh_tri_dpss{M}_{K}"
    s.case(c, "eigh_tridiagonal", 1e-11, 1e-11 * max(1, np.abs(w).max()), d=arr(c, "d", d), e=arr(c, "e", e), lo=lo,
           hi=hi, w=arr(c, "w", w), v=arr(c, "v", v))
for n, lo, hi in [(1, 0, 0), (7, 0, 6), (30, 3, 9), (60, 59, 59)]:
    d = rng.standard_normal(n)
    e = rng.standard_normal(n - 1)
    w, v = sl.eigh_tridiagonal(d, e, select="i", select_range=(lo, hi))
    c = f"eigh_tri_rand{n}_{lo}_{hi}"
    s.case(c, "eigh_tridiagonal", 1e-12, 1e-12 * max(1, np.abs(w).max()), d=arr(c, "d", d), e=arr(c, "e", e), lo=lo,
           hi=hi, w=arr(c, "w", w), v=arr(c, "v", v))
d = np.array([1.0, 1.0, 2.0, 2.0, 3.0])
e = np.array([0.0, 1e-3, 0.0, 0.5])
w, v = sl.eigh_tridiagonal(d, e, select="i", select_range=(0, 4))
s.case("eigh_tri_split", "eigh_tridiagonal", 1e-12, 1e-12, d=arr("eigh_tri_split", "d", d),
       e=arr("eigh_tri_split", "e", e), lo=0, hi=4, w=arr("eigh_tri_split", "w", w), v=arr("eigh_tri_split", "v", v))
for c, lo, hi in [("eigh_tri_badrange", 3, 2), ("eigh_tri_outofrange", 0, 5)]:
    s.case(c, "eigh_tridiagonal", error="value_error", d=arr(c, "d", np.ones(5)), e=arr(c, "e", np.ones(4)),
           lo=lo, hi=hi)

# ---- general eigenvectors ----------------------------------------------------------------------------
s.group("eigvec")
for n in [1, 2, 3, 5, 8, 15, 30]:
    a = rng.standard_normal((n, n))
    w, v = np.linalg.eig(a)
    c = f"eig{n}"
    s.case(c, "eig", *eig_tol(a, w.astype(complex)), a=arr(c, "a", a), w=arr(c, "w", w.astype(complex)),
           v=arr(c, "v", v.astype(complex)))
for n in [2, 6, 12]:
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    w, v = np.linalg.eig(a)
    c = f"eig_c{n}"
    s.case(c, "eig_c", *eig_tol(a, w), a=arr(c, "a", a), w=arr(c, "w", w), v=arr(c, "v", v))
z, p, k = ss.ellip(6, 1, 40, 0.25, output="zpk")
A = ss.zpk2ss(z, p, k)[0]
w, v = np.linalg.eig(A)
s.case("eig_ss_ellip6", "eig", *eig_tol(A, w.astype(complex)), a=arr("eig_ss_ellip6", "a", A),
       w=arr("eig_ss_ellip6", "w", w.astype(complex)), v=arr("eig_ss_ellip6", "v", v.astype(complex)))

# ---- FFT -----------------------------------------------------------------------------------------------
s.group("fft")
for n in [1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 64, 100, 127, 128, 243, 500, 1000, 1024, 2048, 4097]:
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    y = np.fft.fft(x)
    c = f"fft{n}"
    s.case(c, "fft", 1e-13, 1e-13 * np.abs(y).max(), x=arr(c, "x", x), y=arr(c, "y", y))
    yi = np.fft.ifft(x)
    c = f"ifft{n}"
    s.case(c, "ifft", 1e-13, 1e-13 * np.abs(yi).max(), x=arr(c, "x", x), y=arr(c, "y", yi))
for nx, n in [(8, 8), (9, 9), (10, 16), (20, 12), (1, 1), (100, 100), (1000, 1024), (513, 513)]:
    x = rng.standard_normal(nx)
    y = np.fft.rfft(x, n)
    c = f"rfft{nx}_{n}"
    s.case(c, "rfft", 1e-13, 1e-13 * np.abs(y).max(), x=arr(c, "x", x), n=n, y=arr(c, "y", y))
for nx, n in [(5, 8), (5, 9), (3, 10), (9, 6), (1, 1), (51, 100), (513, 1024), (257, 513)]:
    x = rng.standard_normal(nx) + 1j * rng.standard_normal(nx)
    y = np.fft.irfft(x, n)
    c = f"irfft{nx}_{n}"
    s.case(c, "irfft", 1e-13, 1e-13 * max(np.abs(y).max(), 1e-300), x=arr(c, "x", x), n=n, y=arr(c, "y", y))
s.case("rfft_n0", "rfft", error="value_error", x=arr("rfft_n0", "x", np.ones(3)), n=0)

s.write()
