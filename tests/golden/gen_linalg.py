"""Reference data for cusci::linalg (solve, cholesky), from scipy.linalg 1.18.1 (format and shared code:
golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg/.

Cases: func solve or cholesky; parameters a (and b for solve): the input arrays <case>_a, <case>_b;
layout C | F (the test makes Fortran-ordered device copies) | strided (the stored inputs have their last
axis doubled and the test takes the view [..., ::2]); assume_a (a SciPy string, or null: not given);
lower, transposed, check_finite (bools); expected: <case>_x, or error: lin_alg_error | value_error;
message: SciPy's LinAlgError text (null otherwise); warning: the text of SciPy's LinAlgWarning (null when
SciPy issued none; rcond values in it are the LAPACK estimates, compared loosely by the test).
Tolerances come from the conditioning of the inputs (3 significant digits).
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite

suite = Suite("linalg")
rng = suite.rng(20261130)
DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if np.issubdtype(dt, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def eps(dt):
    return float(np.finfo(dt).eps)


def strided(x):
    """An array whose [..., ::2] view is x (last axis doubled, odd entries garbage)."""
    full = np.empty(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    full[..., ::2] = x
    full[..., 1::2] = 12345
    return full


def tol_for(a, dt):
    """rtol/atol from the conditioning of the inputs (the golden is itself computed in dt)."""
    a = np.atleast_2d(np.asarray(a))
    if a.size == 0:
        return 1e-6, 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = np.linalg.cond(a.astype(np.complex128).reshape((-1,) + a.shape[-2:])).max()
    if not np.isfinite(c):
        c = 1e8
    t = max(200 * eps(dt) * c, 50 * eps(dt))
    return t, t


def add(case, func, a, b=None, layout="C", assume_a=None, lower=False, transposed=False, check_finite=True,
        dt_for_tol=None):
    kw = {}
    if func == "solve":
        kw = dict(lower=lower, transposed=transposed, check_finite=check_finite)
        if assume_a:
            kw["assume_a"] = assume_a
    else:
        kw = dict(lower=lower, check_finite=check_finite)
    error = None
    message = None
    x = None
    caught = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = sl.solve(a, b, **kw) if func == "solve" else sl.cholesky(a, **kw)
    except np.linalg.LinAlgError as e:
        error = "lin_alg_error"
        message = str(e)
    except ValueError:
        error = "value_error"
    linalg_warnings = [str(w.message) for w in caught if issubclass(w.category, sl.LinAlgWarning)]
    params = dict(a=suite.array(case + "_a", strided(a) if layout == "strided" else a))
    if b is not None:
        params["b"] = suite.array(case + "_b", strided(b) if layout == "strided" else b)
    rtol = atol = 0.0
    if x is not None:
        params["expected"] = suite.array(case + "_x", x)
        dt = x.dtype if dt_for_tol is None else dt_for_tol
        rtol, atol = tol_for(a, dt)
        atol *= max(1.0, float(np.abs(x).max()) if x.size else 1.0)
    suite.case(case, func=func, rtol=float(f"{rtol:.3g}"), atol=float(f"{atol:.3g}"), error=error, layout=layout,
               assume_a=assume_a, lower=lower, transposed=transposed, check_finite=check_finite,
               message=message, warning=linalg_warnings[0] if linalg_warnings else None, **params)


def gen_matrix(shape, dt):
    """General (non-dominant) matrix: pivoting happens."""
    n = shape[-1]
    return (rand(shape, dt) + 1.5 * np.eye(n)).astype(dt)


def pd_matrix(shape, dt, garbage=True):
    n = shape[-1]
    m = rand(shape, dt)
    a = m @ np.conj(np.swapaxes(m, -1, -2)) / max(n, 1) + np.eye(n)
    a = a.astype(dt)
    return a


def with_garbage(a, lower, dt):
    """Fill the triangle that must not be read (and complex diagonal imaginary parts) with garbage."""
    a = a.copy()
    n = a.shape[-1]
    g = rand(a.shape, dt) * 7
    mask = np.tril(np.ones((n, n), bool), -1) if not lower else np.triu(np.ones((n, n), bool), 1)
    a[..., mask] = g[..., mask]
    if np.issubdtype(dt, np.complexfloating):
        idx = np.arange(n)
        a[..., idx, idx] = a[..., idx, idx].real + 1j * rng.standard_normal(a.shape[:-2] + (n,))
    return a


def batch_for(n):
    return (2, 3) if n <= 17 else ((2,) if n <= 33 else ())


def big_ok(n, dn, lower=False):
    """n = 100 only for float64 and one triangle, to keep the golden data small."""
    return n < 100 or (dn == "f64" and not lower)


def main():
    suite.group("solve")
    # --- solve, general --------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 2, 3, 8, 17, 33, 100]:
            if not big_ok(n, dn):
                continue
            bs = batch_for(n)
            a = gen_matrix(bs + (n, n), dt)
            add(f"solve_gen_{dn}_n{n}_bmat", "solve", a, rand(bs + (n, 2), dt), assume_a="gen")
        a = gen_matrix((2, 3, 8, 8), dt)
        add(f"solve_gen_{dn}_n8_bcol", "solve", a, rand((2, 3, 8, 1), dt), assume_a="gen")
        for n in [3, 8, 33]:
            add(f"solve_gen_{dn}_n{n}_bvec", "solve", gen_matrix((3, n, n), dt), rand((n,), dt))
    # ties in the pivot column (small integers): pivot choice must follow LAPACK
    a = rng.integers(-2, 3, size=(4, 6, 6)).astype(np.float64) + 0.0
    a[..., 0] = 2.0 * np.sign(rng.standard_normal((4, 6)))  # all |a_i0| equal
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok = [i for i in range(4) if np.linalg.matrix_rank(a[i]) == 6]
    add("solve_ties_f64", "solve", a[ok], rand((len(ok), 6, 3), np.float64), assume_a="gen")
    # broadcasting of batch dimensions
    add("solve_bcast1_f64", "solve", gen_matrix((3, 1, 5, 5), np.float64), rand((2, 5, 2), np.float64))
    add("solve_bcast2_f64", "solve", gen_matrix((5, 5), np.float64), rand((4, 5, 3), np.float64))
    add("solve_bcast3_c64", "solve", gen_matrix((2, 1, 40, 40), np.complex64), rand((3, 40, 1), np.complex64))
    # layouts
    for dn in ["f64", "c64", "f32"]:
        dt = DT[dn]
        for n in [4, 17, 40]:
            for lay in ["F", "strided"]:
                bs = (3,) if n < 40 else ()
                add(f"solve_{lay}_{dn}_n{n}", "solve", gen_matrix(bs + (n, n), dt), rand(bs + (n, 2), dt), layout=lay)
            add(f"solve_stridedvec_{dn}_n{n}", "solve", gen_matrix((n, n), dt), rand((n,), dt), layout="strided")
    # positive definite
    for dn, dt in DT.items():
        for n in [1, 3, 8, 17, 33, 100]:
            bs = (3,) if n <= 17 else ((2,) if n <= 33 else ())
            for lower in [False, True]:
                if not big_ok(n, dn, lower):
                    continue
                a = with_garbage(pd_matrix(bs + (n, n), dt), lower, dt)
                add(f"solve_pos_{dn}_n{n}_l{int(lower)}", "solve", a, rand(bs + (n, 2), dt), assume_a="pos",
                    lower=lower)
    # symmetric / hermitian (other triangle garbage)
    for dn in ["f64", "c128", "f32", "c64"]:
        dt = DT[dn]
        for n in ([5, 20, 40] if dn in ("f64", "c128") else [5, 40]):
            for lower in [False, True]:
                for s in (["sym", "her"] if dn.startswith("c") else ["sym"]):
                    bs = (2,) if n < 40 else ()
                    a = gen_matrix(bs + (n, n), dt)
                    a = a + np.swapaxes(a, -1, -2)
                    a = with_garbage(a, lower, dt) if s == "sym" else with_garbage(
                        (a + np.conj(np.swapaxes(a, -1, -2))).astype(dt), lower, dt)
                    add(f"solve_{s}_{dn}_n{n}_l{int(lower)}", "solve", a, rand(bs + (n, 1), dt), assume_a=s,
                        lower=lower)
    # transposed (real only)
    for dn in ["f32", "f64"]:
        for n in [4, 20, 40]:
            bs = (2,) if n < 40 else ()
            add(f"solve_T_{dn}_n{n}", "solve", gen_matrix(bs + (n, n), DT[dn]), rand(bs + (n, 3), DT[dn]),
                transposed=True)
            add(f"solve_Tpos_{dn}_n{n}", "solve", with_garbage(pd_matrix((n, n), DT[dn]), False, DT[dn]),
                rand((n, 1), DT[dn]), assume_a="pos", transposed=True)
    # other structures: entries outside the structure are garbage and must be ignored
    for n in [6, 40]:
        base = gen_matrix(((2,) if n < 40 else (1,)) + (n, n), np.float64)
        add(f"solve_diagonal_n{n}", "solve", base + 0 * base, rand(base.shape[:1] + (n, 1), np.float64), assume_a="diagonal")
        add(f"solve_tridiagonal_n{n}", "solve", base, rand(base.shape[:1] + (n, 1), np.float64), assume_a="tridiagonal")
        add(f"solve_banded_n{n}", "solve", base, rand(base.shape[:1] + (n, 1), np.float64), assume_a="banded")
        add(f"solve_upper_n{n}", "solve", base + 3 * np.eye(n), rand(base.shape[:1] + (n, 2), np.float64),
            assume_a="upper triangular")
        add(f"solve_lower_n{n}", "solve", base + 3 * np.eye(n), rand(base.shape[:1] + (n, 2), np.float64),
            assume_a="lower triangular")
        add(f"solve_upperT_n{n}", "solve", base + 3 * np.eye(n), rand(base.shape[:1] + (n, 2), np.float64),
            assume_a="upper triangular", transposed=True)
        add(f"solve_auto_n{n}", "solve", base, rand(base.shape[:1] + (n, 2), np.float64))
    # dtype promotion
    ai = (rng.integers(-3, 4, size=(4, 4)) + 9 * np.eye(4)).astype(np.int32)
    add("solve_int32_int64", "solve", ai, rng.integers(-5, 5, size=(4,)).astype(np.int64))
    add("solve_f32_int8", "solve", ai.astype(np.float32), rng.integers(-5, 5, size=(4, 2)).astype(np.int8))
    add("solve_f32_c64", "solve", ai.astype(np.float32), rand((4,), np.complex64))
    # scalar a (SciPy divides)
    add("solve_scalar_mat", "solve", np.array([[2.5]]), rand((5, 3), np.float64))
    add("solve_scalar_vec_f32", "solve", np.array([[-4.0]], np.float32), rand((7,), np.float32))
    add("solve_scalar_zero", "solve", np.array([[0.0]]), rand((3,), np.float64))
    # failures
    s = gen_matrix((3, 3, 3), np.float64)
    s[1, :, 1] = 0.0  # a zero column: an exactly zero pivot whatever the rounding
    add("solve_singular_batch", "solve", s, rand((3, 3, 1), np.float64))
    s = gen_matrix((40, 40), np.complex128)
    s[:, 17] = 0.0
    add("solve_singular_n40", "solve", s, rand((40,), np.complex128))
    add("solve_singular_zero_n8", "solve", np.zeros((8, 8), np.float32), rand((8,), np.float32))
    npd = pd_matrix((3, 5, 5), np.float64)
    npd[2, 3, 3] = -50.0
    add("solve_pos_notpd", "solve", npd, rand((3, 5, 1), np.float64), assume_a="pos")
    npd = pd_matrix((40, 40), np.float64)
    npd[30, 30] = -50.0
    add("solve_pos_notpd_n40", "solve", npd, rand((40, 1), np.float64), assume_a="pos")
    nan = gen_matrix((2, 3, 3), np.float64)
    nan[1, 0, 2] = np.nan
    add("solve_nan_a", "solve", nan, rand((3,), np.float64))
    binf = rand((40, 2), np.float64)
    binf[5, 1] = np.inf
    add("solve_inf_b_n40", "solve", gen_matrix((40, 40), np.float64), binf)
    # --- condition estimate, LinAlgWarning and SciPy's error list (the "cond" cases) ---------------
    def illc(n, dt, tiny):
        m = gen_matrix((n, n), dt)
        d = np.ones(n)
        d[n // 2] = tiny
        return (m * d[None, :]).astype(dt)
    for n in [4, 40]:
        for dn, tiny in [("f64", 1e-19), ("f32", 1e-10), ("c128", 1e-19), ("c64", 1e-10)]:
            dt = DT[dn]
            eye = np.eye(n, dtype=dt)
            a = np.stack([eye, illc(n, dt, tiny), eye, illc(n, dt, tiny)])
            add(f"cond_gen_{dn}_n{n}", "solve", a, rand((4, n, 1), dt), assume_a="gen")
        dt = np.float64
        eye = np.eye(n)
        sing = gen_matrix((n, n), dt)
        sing[:, 1] = 0.0
        add(f"cond_sing_after_ill_n{n}", "solve", np.stack([illc(n, dt, 1e-19), eye, sing, illc(n, dt, 1e-19), sing]),
            rand((5, n, 2), dt))
        add(f"cond_T_n{n}", "solve", np.stack([eye, illc(n, dt, 1e-19)]), rand((2, n, 1), dt), transposed=True,
            assume_a="gen")
        p = pd_matrix((5, n, n), dt)
        p[1, 2, 2] = -60.0
        p[3, 1, 1] = -60.0
        p[2] = np.diag(np.r_[np.full(n - 1, 2.0), 1e-18])  # positive definite, rcond 5e-19 whatever the rounding
        p[2, 0, 1] = p[2, 1, 0] = 0.5
        for lower in [False, True]:
            add(f"cond_pos_n{n}_l{int(lower)}", "solve", p, rand((5, n, 1), dt), assume_a="pos", lower=lower)
        add(f"cond_pos_ill_n{n}", "solve", p[[0, 2]], rand((2, n, 1), dt), assume_a="pos")
        sy = gen_matrix((3, n, n), dt)
        sy = sy + np.swapaxes(sy, -1, -2)
        dsc = np.ones(n)
        dsc[n // 2] = 1e-10  # symmetric scaling: rcond ~ 1e-20, set by the scaling rather than by rounding
        sy[1] = sy[1] * dsc[:, None] * dsc[None, :]
        add(f"cond_sym_n{n}", "solve", sy, rand((3, n, 1), dt), assume_a="sym")
        t = np.triu(gen_matrix((3, n, n), dt)) + 3 * np.eye(n)
        t[1, n // 2, n // 2] = 1e-19
        for s_ in ["upper triangular", "lower triangular"]:
            tt = t if s_.startswith("upper") else np.swapaxes(t, -1, -2).copy()
            add(f"cond_{s_[:5]}_n{n}", "solve", tt, rand((3, n, 1), dt), assume_a=s_)
            add(f"cond_{s_[:5]}T_n{n}", "solve", tt, rand((3, n, 1), dt), assume_a=s_, transposed=True)
            ts = tt.copy()
            ts[2, 1, 1] = 0.0
            add(f"cond_{s_[:5]}_sing_n{n}", "solve", ts, rand((3, n, 1), dt), assume_a=s_)
        dg = np.stack([np.diag(np.linspace(1.0, 2.0, n)), np.diag(np.r_[1e9, np.ones(n - 2), 1e-9]),
                       np.diag(np.r_[np.ones(n - 1), 0.0]), np.diag(np.r_[1e9, np.ones(n - 2), 1e-9])])
        add(f"cond_diag_n{n}", "solve", dg, rand((4, n, 1), dt), assume_a="diagonal")
        add(f"cond_diag_ill_n{n}", "solve", dg[[0, 1, 3]], rand((3, n, 1), dt), assume_a="diagonal")
        tri = np.diag(np.full(n, 4.0)) + np.diag(np.ones(n - 1), 1) + np.diag(np.full(n - 1, 2.0), -1)
        add(f"cond_tridiagonal_n{n}", "solve", np.stack([tri, gen_matrix((n, n), dt)]), rand((2, n, 1), dt),
            assume_a="tridiagonal")
        add(f"cond_banded_n{n}", "solve", np.stack([tri, illc(n, dt, 1e-19)]), rand((2, n, 1), dt), assume_a="banded")
    # assume_a=None: SciPy's per-slice structure detection (diag, tridiagonal for n > 3, triangular, sym/her, general)
    for n in [3, 5, 36]:
        for dn in ["f64", "c128", "f32"]:
            dt = DT[dn]
            g = gen_matrix((n, n), dt)
            pd = pd_matrix((n, n), dt)
            ind = (g + np.conj(g.T)).astype(dt)
            tri = (np.diag(np.full(n, 4.0)) + np.diag(np.ones(n - 1), 1) + np.diag(np.full(n - 1, 2.0), -1)).astype(dt)
            ut = (np.triu(g) + 3 * np.eye(n)).astype(dt)
            slices = [np.diag(np.arange(1.0, n + 1)).astype(dt), tri, ut, np.conj(ut.T), pd, ind, g]
            add(f"cond_auto_{dn}_n{n}", "solve", np.stack(slices), rand((len(slices), n, 2), dt))
            ill_ut = ut.copy()
            ill_ut[1, 1] = 1e-25
            ill_d = np.diag(np.r_[1e10, np.ones(n - 1) * 1e-9]).astype(dt)
            add(f"cond_auto_ill_{dn}_n{n}", "solve", np.stack([ill_ut, g, ill_d, illc(n, dt, 1e-25)]),
                rand((4, n, 1), dt))
            sing_ut = ut.copy()
            sing_ut[0, 0] = 0.0
            add(f"cond_auto_sing_{dn}_n{n}", "solve", np.stack([g, ill_d, sing_ut, g]), rand((4, n, 1), dt))
    add("cond_auto_1d_f64", "solve", np.array([[1e-30, 1.0], [0.0, 1.0]]), np.ones(2))
    # empty
    add("solve_empty_00", "solve", np.zeros((0, 0)), np.zeros((0,)))
    add("solve_empty_batch", "solve", np.zeros((0, 3, 3), np.float32), np.zeros((3, 2), np.float32))
    add("solve_empty_rhs", "solve", np.eye(3), np.zeros((3, 0)))
    add("solve_empty_500", "solve", np.zeros((5, 0, 0), np.complex64), np.zeros((0,), np.complex64))

    suite.group("cholesky")
    # --- cholesky --------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 2, 3, 8, 17, 33, 100]:
            bs = batch_for(n)
            for lower in [False, True]:
                if not big_ok(n, dn, lower):
                    continue
                a = with_garbage(pd_matrix(bs + (n, n), dt), lower, dt)
                add(f"chol_{dn}_n{n}_l{int(lower)}", "cholesky", a, lower=lower)
    for dn in ["f64", "c64"]:
        for n in [5, 40]:
            for lay in ["F", "strided"]:
                for lower in [False, True]:
                    a = with_garbage(pd_matrix(((2,) if n < 40 else ()) + (n, n), DT[dn]), lower, DT[dn])
                    add(f"chol_{lay}_{dn}_n{n}_l{int(lower)}", "cholesky", a, layout=lay, lower=lower)
    add("chol_int32", "cholesky", (np.ones((3, 3)) + 4 * np.eye(3)).astype(np.int32))
    add("chol_int16", "cholesky", (np.ones((3, 3)) + 4 * np.eye(3)).astype(np.int16), dt_for_tol=np.float32)
    add("chol_float16", "cholesky", (np.ones((3, 3)) + 4 * np.eye(3)).astype(np.float16), dt_for_tol=np.float32)
    add("chol_scalar", "cholesky", np.array(9.0))
    npd = pd_matrix((4, 6, 6), np.float64)
    npd[2, 4, 4] = -3.0
    npd[3, 1, 1] = -3.0
    add("chol_notpd_batch", "cholesky", npd)
    npd = pd_matrix((40, 40), np.complex128)
    npd[35, 35] = -100.0
    add("chol_notpd_n40", "cholesky", npd, lower=True)
    nan = pd_matrix((3, 3), np.float64)
    nan[2, 0] = np.nan  # in the unread triangle: still an error with check_finite
    add("chol_nan", "cholesky", nan)
    add("chol_nan_n40", "cholesky", np.where(np.eye(40) > 0, np.inf, pd_matrix((40, 40), np.float64)))
    add("chol_empty_00", "cholesky", np.zeros((0, 0)))
    add("chol_empty_300", "cholesky", np.zeros((3, 0, 0), np.float32))
    add("chol_empty_033", "cholesky", np.zeros((0, 3, 3)))

    suite.write()

if __name__ == "__main__":
    main()
