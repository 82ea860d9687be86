"""Reference data for cusci::linalg's triangular family (solve_triangular, cho_factor, cho_solve,
solve_banded, solveh_banded, cholesky_banded, cho_solve_banded, bandwidth, issymmetric, ishermitian),
from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_triangular/.

Every case: func (the SciPy name); inputs: the parameters `a`, `b`, `ab`, `c` or `cb` name stored arrays;
layout C | F (the test makes Fortran-ordered device copies of every input) | strided (the stored inputs
have their last axis doubled and the test takes the view [..., ::2]); the keyword arguments under
SciPy's names (trans as the strings "0"/"1"/"2" or "N"/"T"/"C", lower, unit_diagonal, check_finite, l
and u; issymmetric's / ishermitian's atol and rtol as atol_ and rtol_, null = not given); expected: the result array (bandwidth: expected_lower / expected_upper), or
error: lin_alg_error | value_error | type_error. Tolerances from the conditioning of the matrix.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, run_scipy, storer

suite = Suite("linalg_triangular")
rng = suite.rng(20261203)
INPUTS = ("a", "b", "ab", "c", "cb")
ERRORS = ((np.linalg.LinAlgError, "lin_alg_error"), (ValueError, "value_error"), (TypeError, "type_error"))
rand = rand_maker(rng)
stored = storer(suite)


def eps(dt):
    dt = np.dtype(dt)
    return float(np.finfo(dt).eps) if dt.kind in "fc" else 0.0


def tol_for(m, dt, scale):
    """rtol/atol from the conditioning of the effective matrices m (..., n, n)."""
    m = np.asarray(m)
    if m.size == 0 or np.dtype(dt).kind not in "fc":
        return 0.0, 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = np.linalg.cond(m.astype(np.complex128).reshape((-1,) + m.shape[-2:])).max()
    if not np.isfinite(c):
        c = 1e8
    t = max(200 * eps(dt) * c, 50 * eps(dt))
    return float(f"{t:.3g}"), float(f"{t * max(1.0, scale):.3g}")


def add(case, func, call, inputs, layout="C", cond=None, **kw):
    """Runs call() (SciPy), stores the inputs and the outcome. cond: the effective matrices for the
    tolerance."""
    out, error = run_scipy(call, ERRORS)
    params = {k: stored(case, k, v, layout) for k, v in inputs.items()}
    rtol = atol = 0.0
    if out is not None:
        if func == "bandwidth":
            params["expected_lower"] = suite.array(case + "_lo", np.asarray(out[0], np.int64))
            params["expected_upper"] = suite.array(case + "_up", np.asarray(out[1], np.int64))
        elif func == "cho_factor":
            params["expected"] = suite.array(case + "_x", out[0])
            if cond is not None:
                # the factor's triangle comes from a different Cholesky implementation: compared with the
                # tolerance from the conditioning (scale: the factor's largest entry); the other triangle
                # (zeros, or the cast input's entries for a 2-d input SciPy casts) the test compares
                # exactly, as it involves no arithmetic
                c = np.asarray(out[0])
                f = np.tril(c) if kw.get("lower") else np.triu(c)
                rtol, atol = tol_for(cond, c.dtype, float(np.abs(f).max()) if f.size else 1.0)
        else:
            out = np.asarray(out)
            params["expected"] = suite.array(case + "_x", out)
            if cond is not None:
                rtol, atol = tol_for(cond, out.dtype, float(np.abs(out).max()) if out.size else 1.0)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=error, layout=layout, **params, **kw)


def tri_matrix(shape, dt, lower, dom=True):
    """A triangular-ish matrix whose triangle `lower` is well conditioned; the other triangle garbage."""
    n = shape[-1]
    a = rand(shape, dt)
    if n:
        d = np.arange(n)
        a[..., d, d] = a[..., d, d] + (np.sign(a[..., d, d].real) + (a[..., d, d] == 0)) * (1.0 + np.sqrt(n))
    return a.astype(dt)


def eff_tri(a, lower, unit):
    t = np.tril(a) if lower else np.triu(a)
    if unit and a.shape[-1]:
        d = np.arange(a.shape[-1])
        t[..., d, d] = 1
    return t


def pd_matrix(shape, dt):
    n = shape[-1]
    m = rand(shape, dt)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) / max(n, 1) + np.eye(n)).astype(dt)


def to_band_upper(a, kd):
    """(..., n, n) Hermitian -> upper form (..., kd+1, n); unused corners garbage."""
    n = a.shape[-1]
    ab = rand(a.shape[:-2] + (kd + 1, n), a.dtype) * 9
    for i in range(n):
        for j in range(i, min(n, i + kd + 1)):
            ab[..., kd + i - j, j] = a[..., i, j]
    return ab


def to_band_lower(a, kd):
    n = a.shape[-1]
    ab = rand(a.shape[:-2] + (kd + 1, n), a.dtype) * 9
    for j in range(n):
        for i in range(j, min(n, j + kd + 1)):
            ab[..., i - j, j] = a[..., i, j]
    return ab


def band_pd(shape, kd, dt):
    """Hermitian positive definite banded matrices (..., n, n), diagonally dominant."""
    n = shape[-1]
    a = rand(shape, dt)
    a = a + np.conj(np.swapaxes(a, -1, -2))
    i, j = np.indices((n, n))
    a = np.where(np.abs(i - j) <= kd, a, 0)
    if n:
        d = np.arange(n)
        a[..., d, d] = 0
        a[..., d, d] = np.abs(a).sum(-1) + 1 + np.abs(rng.standard_normal(a.shape[:-1]))
    return a.astype(dt)


def general_band(shape, l, u, dt):
    n = shape[-1]
    a = rand(shape, dt)
    i, j = np.indices((n, n))
    a = np.where((i - j <= l) & (j - i <= u), a, 0)
    if n:
        d = np.arange(n)  # moderately conditioned (random triangular bands are not)
        a[..., d, d] += np.where(a[..., d, d].real < 0, -1, 1) * 2 * np.sqrt(l + u + 1)
    return a.astype(dt)


def to_diag_form(a, l, u):
    n = a.shape[-1]
    ab = rand(a.shape[:-2] + (l + u + 1, n), a.dtype) * 9  # corners garbage
    for i in range(n):
        for j in range(max(0, i - l), min(n, i + u + 1)):
            ab[..., u + i - j, j] = a[..., i, j]
    return ab


def gen_solve_triangular():
    suite.group("solve_triangular")
    f = "solve_triangular"
    for dn, dt in DT.items():
        for n in [1, 2, 5, 17, 40, 100]:
            if n == 100 and dn not in ("f64", "c64"):
                continue
            bs = (2, 3) if n <= 17 else ((2,) if n <= 40 else ())
            for lower in [False, True]:
                for trans in [0, 1, 2]:
                    if trans == 2 and dn.startswith("f") and n > 5:
                        continue
                    a = tri_matrix(bs + (n, n), dt, lower)
                    b = rand(bs + (n, 3), dt)
                    add(f"st_{dn}_n{n}_l{int(lower)}_t{trans}", f,
                        lambda a=a, b=b, lower=lower, trans=trans: sl.solve_triangular(a, b, trans=trans, lower=lower),
                        dict(a=a, b=b), cond=eff_tri(a, lower, False), trans=str(trans), lower=lower,
                        unit_diagonal=False, check_finite=True)
        # vector right-hand side, unit diagonal, string trans
        a = tri_matrix((7, 7), dt, True)
        b = rand((7,), dt)
        add(f"st_{dn}_vec", f, lambda a=a, b=b: sl.solve_triangular(a, b, lower=True), dict(a=a, b=b),
            cond=eff_tri(a, True, False), trans="0", lower=True, unit_diagonal=False, check_finite=True)
        a = tri_matrix((3, 6, 6), dt, False) * 0.2
        b = rand((3, 6, 2), dt)
        add(f"st_{dn}_unit", f, lambda a=a, b=b: sl.solve_triangular(a, b, unit_diagonal=True, trans="T"),
            dict(a=a, b=b), cond=eff_tri(a, False, True), trans="T", lower=False, unit_diagonal=True,
            check_finite=True)
        a = tri_matrix((3, 6, 6), dt, True)
        b = rand((3, 6, 2), dt)
        add(f"st_{dn}_C", f, lambda a=a, b=b: sl.solve_triangular(a, b, lower=True, trans="C"),
            dict(a=a, b=b), cond=eff_tri(a, True, False), trans="C", lower=True, unit_diagonal=False,
            check_finite=True)
    # cuBLAS trsmBatched path (n >= 64 with >= 8 right-hand sides)
    for dn, n, trans, lower, unit, bs, k in [("f32", 70, "0", False, False, (2,), 9), ("f64", 70, "1", True, False, (2,), 12),
                                             ("c64", 66, "2", False, True, (), 8), ("c128", 64, "C", True, False, (2,), 10),
                                             ("f64", 80, "N", True, True, (), 16), ("c128", 65, "T", False, True, (), 8)]:
        dt = DT[dn]
        a = tri_matrix(bs + (n, n), dt, lower)
        if unit:
            a = (a / np.sqrt(n)).astype(dt)
        b = rand(bs + (n, k), dt)
        add(f"st_blas_{dn}_n{n}_l{int(lower)}_t{trans}_u{int(unit)}", f,
            lambda a=a, b=b, lower=lower, trans=trans, unit=unit: sl.solve_triangular(
                a, b, trans=int(trans) if trans.isdigit() else trans, lower=lower, unit_diagonal=unit),
            dict(a=a, b=b), cond=eff_tri(a, lower, unit), trans=trans, lower=lower, unit_diagonal=unit,
            check_finite=True)
    a = tri_matrix((2, 70, 70), np.float64, True)
    b = rand((2, 70, 8), np.float64)
    for lay in ["F", "strided"]:
        add(f"st_blas_{lay}", f, lambda a=a, b=b: sl.solve_triangular(a, b, lower=True, trans=1), dict(a=a, b=b),
            layout=lay, cond=eff_tri(a, True, False), trans="1", lower=True, unit_diagonal=False, check_finite=True)
    a = tri_matrix((3, 64, 64), np.float32, False)
    a[2, 40, 40] = 0
    add("st_blas_singular", f, lambda: sl.solve_triangular(a, np.ones((64, 8), np.float32)),
        dict(a=a, b=np.ones((64, 8), np.float32)), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    a = tri_matrix((64, 64), np.float64, False)
    a[63, 0] = np.inf  # outside the used triangle: still checked
    add("st_blas_inf", f, lambda: sl.solve_triangular(a, np.ones((64, 8))), dict(a=a, b=np.ones((64, 8))),
        trans="0", lower=False, unit_diagonal=False, check_finite=True)
    # layouts
    for lay in ["F", "strided"]:
        for dn in ["f64", "c64"]:
            for n in [6, 40]:
                for lower in [False, True]:
                    a = tri_matrix((2, n, n), DT[dn], lower)
                    b = rand((2, n, 2), DT[dn])
                    add(f"st_{lay}_{dn}_n{n}_l{int(lower)}", f,
                        lambda a=a, b=b, lower=lower: sl.solve_triangular(a, b, lower=lower, trans=1),
                        dict(a=a, b=b), layout=lay, cond=eff_tri(a, lower, False), trans="1", lower=lower,
                        unit_diagonal=False, check_finite=True)
            a = tri_matrix((9, 9), DT[dn], False)
            b = rand((9,), DT[dn])
            add(f"st_{lay}_{dn}_vec", f, lambda a=a, b=b: sl.solve_triangular(a, b), dict(a=a, b=b), layout=lay,
                cond=eff_tri(a, False, False), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    # broadcasting: a batch against one b, one a against a batch of b, (3,1) against (2)
    a = tri_matrix((4, 5, 5), np.float64, True)
    b = rand((5, 2), np.float64)
    add("st_bcast_a", f, lambda: sl.solve_triangular(a, b, lower=True), dict(a=a, b=b),
        cond=eff_tri(a, True, False), trans="0", lower=True, unit_diagonal=False, check_finite=True)
    a2 = tri_matrix((5, 5), np.float64, True)
    b2 = rand((4, 5, 2), np.float64)
    add("st_bcast_b", f, lambda: sl.solve_triangular(a2, b2, lower=True), dict(a=a2, b=b2),
        cond=eff_tri(a2, True, False), trans="0", lower=True, unit_diagonal=False, check_finite=True)
    a3 = tri_matrix((3, 1, 4, 4), np.complex128, False)
    b3 = rand((2, 4, 1), np.complex128)
    add("st_bcast_ab", f, lambda: sl.solve_triangular(a3, b3), dict(a=a3, b=b3),
        cond=eff_tri(a3, False, False), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    # dtype promotion
    for da, db in [("int8", "float32"), ("int32", "float32"), ("float32", "complex128"), ("int64", "int64"),
                   ("bool", "int16"), ("float32", "float64"), ("uint16", "complex64")]:
        a = (np.triu(rng.integers(1, 4, (4, 4))) + 3 * np.eye(4, dtype=int)).astype(da)
        b = rng.integers(-3, 4, (4, 2)).astype(db) if np.dtype(db).kind in "iub" else rand((4, 2), db)
        add(f"st_dtype_{da}_{db}", f, lambda a=a, b=b: sl.solve_triangular(a, b), dict(a=a, b=b),
            cond=np.triu(a.astype(np.float64)), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    # empty
    for name, ash, bsh in [("n0", (0, 0), (0,)), ("k0", (3, 3), (3, 0)), ("bn0", (2, 0, 0), (2, 0, 4))]:
        a = np.zeros(ash)
        b = np.zeros(bsh, np.float32)
        add(f"st_empty_{name}", f, lambda a=a, b=b: sl.solve_triangular(a, b), dict(a=a, b=b), trans="0",
            lower=False, unit_diagonal=False, check_finite=True)
    # errors
    a = tri_matrix((3, 4, 4), np.float64, False)
    a[1, 2, 2] = 0
    b = rand((3, 4, 1), np.float64)
    add("st_singular", f, lambda: sl.solve_triangular(a, b), dict(a=a, b=b), trans="0", lower=False,
        unit_diagonal=False, check_finite=True)
    add("st_singular_unit", f, lambda: sl.solve_triangular(a, b, unit_diagonal=True), dict(a=a, b=b),
        cond=eff_tri(a, False, True), trans="0", lower=False, unit_diagonal=True, check_finite=True)
    an = tri_matrix((4, 4), np.float64, False)
    an[3, 0] = np.nan  # outside the used triangle: still checked
    bn = rand((4,), np.float64)
    add("st_nan_a", f, lambda: sl.solve_triangular(an, bn), dict(a=an, b=bn), trans="0", lower=False,
        unit_diagonal=False, check_finite=True)
    bi = rand((4,), np.float64)
    bi[1] = np.inf
    add("st_inf_b", f, lambda: sl.solve_triangular(an * 0 + np.triu(an), bi), dict(a=np.triu(an), b=bi), trans="0",
        lower=False, unit_diagonal=False, check_finite=True)
    add("st_nonsquare", f, lambda: sl.solve_triangular(np.ones((3, 4)), np.ones(3)),
        dict(a=np.ones((3, 4)), b=np.ones(3)), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    add("st_1d_a", f, lambda: sl.solve_triangular(np.ones(3), np.ones(3)),
        dict(a=np.ones(3), b=np.ones(3)), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    add("st_mismatch", f, lambda: sl.solve_triangular(np.eye(3), np.ones(4)),
        dict(a=np.eye(3), b=np.ones(4)), trans="0", lower=False, unit_diagonal=False, check_finite=True)
    add("st_nobcast", f, lambda: sl.solve_triangular(np.ones((2, 3, 3)), np.ones((3, 3, 1))),
        dict(a=np.ones((2, 3, 3)), b=np.ones((3, 3, 1))), trans="0", lower=False, unit_diagonal=False,
        check_finite=True)
    add("st_zero_batch", f, lambda: sl.solve_triangular(np.ones((0, 3, 3)), np.ones((3,))),
        dict(a=np.ones((0, 3, 3)), b=np.ones((3,))), trans="0", lower=False, unit_diagonal=False, check_finite=True)


def gen_cho():
    suite.group("cho")
    for dn, dt in DT.items():
        for n in [1, 3, 17, 40]:
            for lower in [False, True]:
                bs = (2, 2) if n <= 17 else ()
                a = pd_matrix(bs + (n, n), dt)
                c = sl.cho_factor(a, lower=lower)[0]
                add(f"cf_{dn}_n{n}_l{int(lower)}", "cho_factor", lambda a=a, lower=lower: sl.cho_factor(a, lower=lower),
                    dict(a=a), cond=a, lower=lower, check_finite=True)
                # the factor's other triangle is garbage for cho_solve
                cg = c.copy()
                g = rand(c.shape, dt) * 5
                mask = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
                cg[..., mask] = g[..., mask]
                b = rand(bs + (n, 2), dt)
                add(f"cs_{dn}_n{n}_l{int(lower)}", "cho_solve",
                    lambda cg=cg, b=b, lower=lower: sl.cho_solve((cg, lower), b), dict(c=cg, b=b), cond=a,
                    lower=lower, check_finite=True)
    # cho_solve on the cuBLAS trsmBatched path (n >= 64 with >= 8 right-hand sides)
    for dn, lower, bs in [("f64", True, (2,)), ("c128", False, ()), ("f32", False, (2,)), ("c64", True, ())]:
        dt = DT[dn]
        a = pd_matrix(bs + (70, 70), dt)
        c = sl.cho_factor(a, lower=lower)[0]
        b = rand(bs + (70, 9), dt)
        add(f"cs_blas_{dn}_l{int(lower)}", "cho_solve", lambda c=c, b=b, lower=lower: sl.cho_solve((c, lower), b),
            dict(c=c, b=b), cond=a, lower=lower, check_finite=True)
    a = pd_matrix((3, 6, 6), np.float64)
    for lay in ["F", "strided"]:
        add(f"cf_{lay}", "cho_factor", lambda: sl.cho_factor(a), dict(a=a), layout=lay, cond=a, lower=False,
            check_finite=True)
        c = sl.cho_factor(a, lower=True)[0]
        b = rand((6,), np.float64)
        add(f"cs_{lay}_vec", "cho_solve", lambda c=c, b=b: sl.cho_solve((c, True), b), dict(c=c, b=b), layout=lay,
            cond=a, lower=True, check_finite=True)
    c = sl.cho_factor(pd_matrix((5, 5), np.float32))[0]
    b = rand((4, 5, 3), np.float64)
    add("cs_bcast_dtype", "cho_solve", lambda: sl.cho_solve((c, False), b), dict(c=c, b=b), cond=c.T @ c,
        lower=False, check_finite=True)
    ai = np.array([[4, 2], [2, 3]], np.int16)
    add("cf_int16", "cho_factor", lambda: sl.cho_factor(ai), dict(a=ai), cond=ai, lower=False, check_finite=True)
    notpd = pd_matrix((3, 5, 5), np.float64)
    notpd[1, 3, 3] = -10
    add("cf_notpd", "cho_factor", lambda: sl.cho_factor(notpd), dict(a=notpd), lower=False, check_finite=True)
    add("cf_nonsquare", "cho_factor", lambda: sl.cho_factor(np.ones((2, 3))), dict(a=np.ones((2, 3))),
        lower=False, check_finite=True)
    add("cf_empty", "cho_factor", lambda: sl.cho_factor(np.zeros((2, 0, 0))), dict(a=np.zeros((2, 0, 0))),
        lower=False, check_finite=True)
    cn = np.eye(3)
    cn[2, 0] = np.nan
    add("cs_nan", "cho_solve", lambda: sl.cho_solve((cn, False), np.ones(3)), dict(c=cn, b=np.ones(3)),
        lower=False, check_finite=True)
    add("cs_nonsquare", "cho_solve", lambda: sl.cho_solve((np.ones((2, 3)), False), np.ones(2)),
        dict(c=np.ones((2, 3)), b=np.ones(2)), lower=False, check_finite=True)
    add("cs_mismatch", "cho_solve", lambda: sl.cho_solve((np.eye(3), False), np.ones(2)),
        dict(c=np.eye(3), b=np.ones(2)), lower=False, check_finite=True)
    add("cs_empty", "cho_solve", lambda: sl.cho_solve((np.eye(3), False), np.ones((3, 0))),
        dict(c=np.eye(3), b=np.ones((3, 0))), lower=False, check_finite=True)


def gen_banded():
    suite.group("banded")
    # solve_banded
    f = "solve_banded"
    for dn, dt in DT.items():
        for n in [1, 2, 5, 17, 60]:
            for (l, u) in [(0, 0), (1, 1), (2, 1), (0, 3), (3, 0), (4, 2)]:
                if n == 60 and (l, u) not in ((1, 1), (4, 2)):
                    continue
                bs = (3,) if n < 60 else ()
                a = general_band(bs + (n, n), l, u, dt)
                if n == 1:
                    a = a + 2  # SciPy's 1x1 path
                ab = to_diag_form(a, l, u)
                b = rand(bs + (n, 2), dt)
                add(f"sb_{dn}_n{n}_l{l}u{u}", f, lambda ab=ab, b=b, l=l, u=u: sl.solve_banded((l, u), ab, b),
                    dict(ab=ab, b=b), cond=a, l=l, u=u, check_finite=True)
    for lay in ["F", "strided"]:
        a = general_band((2, 9, 9), 2, 3, np.complex128)
        ab = to_diag_form(a, 2, 3)
        b = rand((9,), np.complex128)
        add(f"sb_{lay}", f, lambda ab=ab, b=b: sl.solve_banded((2, 3), ab, b), dict(ab=ab, b=b), layout=lay, cond=a,
            l=2, u=3, check_finite=True)
    a = general_band((7, 7), 1, 2, np.float64)
    ab = to_diag_form(a, 1, 2)
    b = rand((2, 3, 7, 1), np.float32)
    add("sb_bcast_dtype", f, lambda: sl.solve_banded((1, 2), ab, b), dict(ab=ab, b=b), cond=a, l=1, u=2,
        check_finite=True)
    abi = np.array([[0, 1, 1], [4, 4, 4], [1, 1, 0]], np.int32)
    add("sb_int", f, lambda: sl.solve_banded((1, 1), abi, np.array([1, 2, 3], np.int8)),
        dict(ab=abi, b=np.array([1, 2, 3], np.int8)), cond=np.diag([4.0] * 3), l=1, u=1, check_finite=True)
    # pivoting matters: small diagonal
    a = general_band((3, 12, 12), 2, 1, np.float64)
    d = np.arange(12)
    a[..., d, d] *= 1e-3
    ab = to_diag_form(a, 2, 1)
    b = rand((3, 12, 2), np.float64)
    add("sb_pivot", f, lambda: sl.solve_banded((2, 1), ab, b), dict(ab=ab, b=b), cond=a, l=2, u=1, check_finite=True)
    sing = to_diag_form(np.zeros((2, 4, 4)) + np.eye(4) * [[[1]], [[0]]], 1, 1)
    add("sb_singular", f, lambda: sl.solve_banded((1, 1), sing, np.ones(4)), dict(ab=sing, b=np.ones(4)), l=1, u=1,
        check_finite=True)
    sing2 = to_diag_form(np.diag([1.0, 2, 0, 3]), 2, 1)
    add("sb_singular_gbsv", f, lambda: sl.solve_banded((2, 1), sing2, np.ones(4)), dict(ab=sing2, b=np.ones(4)), l=2,
        u=1, check_finite=True)
    # the warp-per-system path (kl + ku >= 4): several systems per block, a singular one among them
    a = general_band((9, 20, 20), 4, 2, np.float64)
    ab = to_diag_form(a, 4, 2)
    b = rand((9, 20, 3), np.float64)
    add("sb_batch_warp", f, lambda: sl.solve_banded((4, 2), ab, b), dict(ab=ab, b=b), cond=a, l=4, u=2,
        check_finite=True)
    a = general_band((5, 8, 8), 1, 3, np.complex64)
    d = np.arange(8)
    a[..., d, d] *= 1e-2
    a[3, :, 5] = 0  # a zero column: singular
    ab = to_diag_form(a, 1, 3)
    add("sb_singular_warp", f, lambda: sl.solve_banded((1, 3), ab, np.ones(8, np.complex64)),
        dict(ab=ab, b=np.ones(8, np.complex64)), l=1, u=3, check_finite=True)
    z1 = np.zeros((1, 1))
    add("sb_1x1_zero", f, lambda: sl.solve_banded((0, 0), z1, np.ones(1)), dict(ab=z1, b=np.ones(1)), l=0, u=0,
        check_finite=True)
    add("sb_bad_lu", f, lambda: sl.solve_banded((1, 1), np.ones((2, 4)), np.ones(4)),
        dict(ab=np.ones((2, 4)), b=np.ones(4)), l=1, u=1, check_finite=True)
    add("sb_mismatch", f, lambda: sl.solve_banded((1, 1), np.ones((3, 4)), np.ones(5)),
        dict(ab=np.ones((3, 4)), b=np.ones(5)), l=1, u=1, check_finite=True)
    abn = np.ones((3, 4)) + np.eye(3, 4)
    abn[0, 0] = np.nan  # unused corner: still checked
    add("sb_nan_corner", f, lambda: sl.solve_banded((1, 1), abn, np.ones(4)), dict(ab=abn, b=np.ones(4)), l=1, u=1,
        check_finite=True)
    add("sb_empty", f, lambda: sl.solve_banded((1, 1), np.ones((3, 4)), np.ones((4, 0))),
        dict(ab=np.ones((3, 4)), b=np.ones((4, 0))), l=1, u=1, check_finite=True)

    # solveh_banded / cholesky_banded / cho_solve_banded
    for dn, dt in DT.items():
        for n in [1, 2, 6, 17, 50]:
            for kd in [0, 1, 2, 5]:
                if n == 50 and kd not in (1, 5):
                    continue
                for lower in [False, True]:
                    bs = (2, 2) if n < 50 else ()
                    a = band_pd(bs + (n, n), kd, dt)
                    ab = to_band_lower(a, kd) if lower else to_band_upper(a, kd)
                    b = rand(bs + (n, 3), dt)
                    tag = f"{dn}_n{n}_kd{kd}_l{int(lower)}"
                    add(f"shb_{tag}", "solveh_banded",
                        lambda ab=ab, b=b, lower=lower: sl.solveh_banded(ab, b, lower=lower), dict(ab=ab, b=b), cond=a,
                        lower=lower, check_finite=True)
                    add(f"cb_{tag}", "cholesky_banded", lambda ab=ab, lower=lower: sl.cholesky_banded(ab, lower=lower),
                        dict(ab=ab), cond=a, lower=lower, check_finite=True)
                    if n in (6, 50):
                        cb = sl.cholesky_banded(ab, lower=lower)
                        add(f"csb_{tag}", "cho_solve_banded",
                            lambda cb=cb, b=b, lower=lower: sl.cho_solve_banded((cb, lower), b), dict(cb=cb, b=b),
                            cond=a, lower=lower, check_finite=True)
    # complex diagonal with imaginary parts (ignored by the factorization)
    a = band_pd((5, 5), 2, np.complex128)
    ab = to_band_upper(a, 2)
    ab[2] += 1j * rng.standard_normal(5)
    b = rand((5,), np.complex128)
    add("shb_imagdiag", "solveh_banded", lambda: sl.solveh_banded(ab, b), dict(ab=ab, b=b), cond=a, lower=False,
        check_finite=True)
    add("cb_imagdiag", "cholesky_banded", lambda: sl.cholesky_banded(ab), dict(ab=ab), cond=a, lower=False,
        check_finite=True)
    for lay in ["F", "strided"]:
        a = band_pd((3, 8, 8), 2, np.float64)
        ab = to_band_lower(a, 2)
        b = rand((8,), np.float64)
        add(f"shb_{lay}", "solveh_banded", lambda ab=ab, b=b: sl.solveh_banded(ab, b, lower=True), dict(ab=ab, b=b),
            layout=lay, cond=a, lower=True, check_finite=True)
        add(f"cb_{lay}", "cholesky_banded", lambda ab=ab: sl.cholesky_banded(ab, lower=True), dict(ab=ab),
            layout=lay, cond=a, lower=True, check_finite=True)
        cb = sl.cholesky_banded(ab, lower=True)
        add(f"csb_{lay}", "cho_solve_banded", lambda cb=cb, b=b: sl.cho_solve_banded((cb, True), b), dict(cb=cb, b=b),
            layout=lay, cond=a, lower=True, check_finite=True)
    a = band_pd((6, 6), 1, np.float32)
    ab = to_band_upper(a, 1)
    b = rand((2, 6, 2), np.complex128)
    add("shb_bcast_dtype", "solveh_banded", lambda: sl.solveh_banded(ab, b), dict(ab=ab, b=b), cond=a, lower=False,
        check_finite=True)
    abi = np.array([[0, 1, 1], [4, 4, 4]], np.int16)
    add("cb_int16", "cholesky_banded", lambda: sl.cholesky_banded(abi), dict(ab=abi), cond=np.eye(3) * 4,
        lower=False, check_finite=True)
    notpd = to_band_upper(band_pd((3, 6, 6), 2, np.float64), 2)
    notpd[1, 2, 4] = -50
    add("shb_notpd", "solveh_banded", lambda: sl.solveh_banded(notpd, np.ones(6)), dict(ab=notpd, b=np.ones(6)),
        lower=False, check_finite=True)
    add("cb_notpd", "cholesky_banded", lambda: sl.cholesky_banded(notpd), dict(ab=notpd), lower=False,
        check_finite=True)
    # the warp-per-system path (kd >= 4): several systems per block, one not positive definite
    a = band_pd((7, 12, 12), 4, np.complex128)
    ab = to_band_lower(a, 4)
    b = rand((7, 12, 2), np.complex128)
    add("shb_batch_warp", "solveh_banded", lambda: sl.solveh_banded(ab, b, lower=True), dict(ab=ab, b=b), cond=a,
        lower=True, check_finite=True)
    add("cb_batch_warp", "cholesky_banded", lambda: sl.cholesky_banded(ab, lower=True), dict(ab=ab), cond=a,
        lower=True, check_finite=True)
    notpd5 = to_band_upper(band_pd((6, 10, 10), 5, np.float32), 5)
    notpd5[4, 5, 7] = -100
    add("cb_notpd_warp", "cholesky_banded", lambda: sl.cholesky_banded(notpd5), dict(ab=notpd5), lower=False,
        check_finite=True)
    add("shb_mismatch", "solveh_banded", lambda: sl.solveh_banded(np.ones((2, 4)), np.ones(3)),
        dict(ab=np.ones((2, 4)), b=np.ones(3)), lower=False, check_finite=True)
    add("csb_mismatch", "cho_solve_banded", lambda: sl.cho_solve_banded((np.ones((2, 4)), False), np.ones(3)),
        dict(cb=np.ones((2, 4)), b=np.ones(3)), lower=False, check_finite=True)
    abn = np.ones((2, 4)) * [[1], [4]]
    abn[0, 0] = np.inf
    add("cb_inf", "cholesky_banded", lambda: sl.cholesky_banded(abn), dict(ab=abn), lower=False, check_finite=True)
    add("cb_empty", "cholesky_banded", lambda: sl.cholesky_banded(np.ones((2, 0))), dict(ab=np.ones((2, 0))),
        lower=False, check_finite=True)
    add("shb_empty", "solveh_banded", lambda: sl.solveh_banded(np.ones((2, 3)), np.ones((3, 0))),
        dict(ab=np.ones((2, 3)), b=np.ones((3, 0))), lower=False, check_finite=True)


def gen_structure():
    suite.group("structure")
    cases = {}
    a = np.zeros((5, 7))
    a[3, 0] = 1
    a[1, 4] = -2
    cases["rect"] = a
    cases["eye"] = np.eye(4)
    cases["zeros"] = np.zeros((3, 3))
    b = np.zeros((2, 3, 6, 6), np.complex64)
    b[0, 1, 5, 0] = 1j
    b[1, 2, 0, 3] = 1
    b[1, 0, 2, 1] = -0.0  # negative zero is zero
    cases["batch_c64"] = b
    cases["int8"] = np.triu(rng.integers(-2, 3, (6, 6)), -1).astype(np.int8)
    cases["uint64"] = np.tril(np.full((5, 5), 2**63, np.uint64), 2)
    cases["bool"] = np.eye(5, k=2, dtype=bool)
    cases["full_f32"] = rand((3, 4, 4), np.float32)
    cases["tall"] = np.ones((6, 2))
    for k, v in cases.items():
        add(f"bw_{k}", "bandwidth", lambda v=v: sl.bandwidth(v), dict(a=v))
    add("bw_F", "bandwidth", lambda: sl.bandwidth(cases["rect"]), dict(a=cases["rect"]), layout="F")
    add("bw_strided", "bandwidth", lambda: sl.bandwidth(cases["batch_c64"]), dict(a=cases["batch_c64"]),
        layout="strided")
    add("bw_empty", "bandwidth", lambda: sl.bandwidth(np.zeros((2, 0, 3))), dict(a=np.zeros((2, 0, 3))))
    add("bw_1d", "bandwidth", lambda: sl.bandwidth(np.ones(3)), dict(a=np.ones(3)))
    add("bw_f16", "bandwidth", lambda: sl.bandwidth(np.ones((2, 2), np.float16)), dict(a=np.ones((2, 2), np.float16)))

    s = rand((4, 5, 5), np.float64)
    s = s + np.swapaxes(s, -1, -2)
    s[2, 1, 3] += 1e-9
    h = rand((3, 4, 4), np.complex128)
    h = h + np.conj(np.swapaxes(h, -1, -2))
    h[1, 2, 2] += 1e-10j  # not Hermitian exactly; within atol
    cs = rand((4, 4), np.complex64)
    cs = cs + cs.T
    nan_diag = np.array([[np.nan, 1.0], [1.0, 2.0]])
    inf_off = np.array([[1.0, np.inf], [np.inf, 2.0]])
    nan_off = np.array([[1.0, np.nan], [np.nan, 2.0]])
    ints = np.array([[1, 2], [2, 1]], np.int32)
    ints_ns = np.array([[1, 2], [3, 1]], np.int64)
    negz = np.array([[1.0, 0.0], [-0.0, 1.0]])
    big = rand((70, 70), np.float32)
    big = big + big.T
    inputs = dict(sym=s, herm=h, csym=cs, nan_diag=nan_diag, inf_off=inf_off, nan_off=nan_off, ints=ints,
                  ints_ns=ints_ns, negz=negz, big=big, bool=np.eye(3, dtype=bool), empty=np.zeros((2, 0, 0)),
                  one=np.array([[1 + 1j]]))
    for fn, func in [("issymmetric", sl.issymmetric), ("ishermitian", sl.ishermitian)]:
        for k, v in inputs.items():
            for tname, atol, rtol in [("exact", None, None), ("atol", 1e-6, None), ("rtol", None, 1e-3),
                                      ("both", 1e-12, 1e-12)]:
                if tname != "exact" and k in ("big", "empty", "bool"):
                    continue
                add(f"{fn}_{k}_{tname}", fn, lambda v=v, atol=atol, rtol=rtol, func=func: func(v, atol=atol, rtol=rtol),
                    dict(a=v), atol_=atol, rtol_=rtol)
        add(f"{fn}_F", fn, lambda func=func: func(h), dict(a=h), layout="F", atol_=None, rtol_=None)
        add(f"{fn}_strided", fn, lambda func=func: func(s), dict(a=s), layout="strided", atol_=None, rtol_=None)
        add(f"{fn}_nonsquare", fn, lambda func=func: func(np.ones((2, 3))), dict(a=np.ones((2, 3))), atol_=None,
            rtol_=None)
        add(f"{fn}_1d", fn, lambda func=func: func(np.ones(3)), dict(a=np.ones(3)), atol_=None, rtol_=None)
        add(f"{fn}_zero_batch", fn, lambda func=func: func(np.ones((0, 2, 2))), dict(a=np.ones((0, 2, 2))),
            atol_=None, rtol_=None)
        add(f"{fn}_f16", fn, lambda func=func: func(np.eye(2, dtype=np.float16)), dict(a=np.eye(2, dtype=np.float16)),
            atol_=None, rtol_=None)


def main():
    gen_solve_triangular()
    gen_cho()
    gen_banded()
    gen_structure()
    suite.write()


if __name__ == "__main__":
    main()
