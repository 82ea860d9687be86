"""Reference data for cusci::linalg's LU family (lu, lu_factor, lu_solve, inv, det), from scipy.linalg
1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_lu/.

Cases: func lu | lu_factor | lu_solve | inv | det. Inputs: <case>_a (lu, lu_factor, inv, det), or
<case>_lu, <case>_piv, <case>_b (lu_solve). layout: C | F (the test makes Fortran-ordered device copies)
| strided (the stored inputs have their last axis doubled and the test takes the view [..., ::2]).
Options as SciPy's keywords: permute_l, p_indices, check_finite, trans, assume_a (a string or null),
lower. Expected: lu: expected_p (absent with permute_l), expected_l, expected_u; lu_factor:
expected_lu, expected_piv and warns (a LinAlgWarning was issued); the others: expected. error:
lin_alg_error | value_error. Tolerances come from the conditioning of the inputs (3 significant digits).
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, storer

suite = Suite("linalg_lu")
rng = suite.rng(20261203)
rand = rand_maker(rng)
stored = storer(suite)


def gen_matrix(shape, dt):
    """General matrix (not diagonally dominant: pivoting happens)."""
    n = min(shape[-2:])
    e = np.zeros(shape[-2:])
    e[np.arange(n), np.arange(n)] = 1.5
    return (rand(shape, dt) + e).astype(dt)


def eps(dt):
    return float(np.finfo(dt).eps)


def tol_for(a, dt, scale=1.0):
    """rtol/atol from the conditioning of the inputs (the golden is itself computed in dt)."""
    a = np.atleast_2d(np.asarray(a))
    if a.size == 0:
        return 1e-6, 1e-6
    rdt = np.finfo(np.dtype(dt)).dtype if np.dtype(dt).kind in "fc" else np.float64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = a.astype(np.complex128).reshape((-1,) + a.shape[-2:])
        c = np.linalg.cond(m).max() if a.shape[-1] == a.shape[-2] else np.linalg.cond(m).max()
    if not np.isfinite(c) or c > 1e8:
        c = 1e8
    t = max(200 * eps(rdt) * c, 50 * eps(rdt))
    s = max(1.0, float(scale)) if np.isfinite(scale) else 1.0
    return float(f"{t:.3g}"), float(f"{t * s:.3g}")


def amax(*xs):
    v = [float(np.abs(x).max()) for x in xs if x is not None and np.size(x)]
    return max(v) if v else 1.0


def call(f):
    """(result, error kind, warned)"""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
        except np.linalg.LinAlgError:
            return None, "lin_alg_error", False
        except (ValueError, KeyError):
            return None, "value_error", False
    warned = any(issubclass(x.category, sl.LinAlgWarning) for x in w)
    return r, None, warned


def add_lu(case, a, layout="C", permute_l=False, p_indices=False, check_finite=True):
    r, err, _ = call(lambda: sl.lu(a, permute_l=permute_l, p_indices=p_indices, check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, permute_l=permute_l, p_indices=p_indices,
                  check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        if permute_l:
            pl, u = r
        else:
            p, pl, u = r
            params["expected_p"] = suite.array(case + "_p", p)
        params["expected_l"] = suite.array(case + "_l", pl)
        params["expected_u"] = suite.array(case + "_u", u)
        rtol, atol = tol_for(a if np.shape(a)[-1] == np.shape(a)[-2] else np.zeros((1, 1)) + 1, u.dtype,
                             amax(u))
        if np.shape(a)[-1] != np.shape(a)[-2]:
            rtol, atol = tol_for(np.eye(2), u.dtype, amax(u))
            rtol, atol = rtol * 20, atol * 20
    suite.case(case, func="lu", rtol=rtol, atol=atol, error=err, **params)


def add_lu_factor(case, a, layout="C", check_finite=True, rect_tol=False):
    r, err, warned = call(lambda: sl.lu_factor(a, check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, check_finite=check_finite, warns=warned)
    rtol = atol = 0.0
    if r is not None:
        lu, piv = r
        params["expected_lu"] = suite.array(case + "_lu", lu)
        params["expected_piv"] = suite.array(case + "_piv", piv)
        sq = np.ndim(a) >= 2 and np.shape(a)[-1] == np.shape(a)[-2]
        rtol, atol = tol_for(a if sq else np.eye(2), lu.dtype, amax(lu))
        if not sq:
            rtol, atol = rtol * 20, atol * 20
    suite.case(case, func="lu_factor", rtol=rtol, atol=atol, error=err, **params)


_shared = {}


def add_lu_solve(case, lu, piv, b, layout="C", trans=0, check_finite=True, a_for_tol=None):
    r, err, _ = call(lambda: sl.lu_solve((lu, piv), b, trans=trans, check_finite=check_finite))
    # One stored copy of factors shared by several cases (the three trans values).
    key = (id(lu), layout)
    if key not in _shared:
        _shared[key] = (stored(case, "lu", lu, layout), suite.array(case + "_piv", piv), lu)
    lu_name, piv_name, _ = _shared[key]
    params = dict(lu=lu_name, piv=piv_name,
                  b=stored(case, "b", b, layout), layout=layout, trans=trans, check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        params["expected"] = suite.array(case + "_x", r)
        rtol, atol = tol_for(a_for_tol if a_for_tol is not None else lu, r.dtype, amax(r))
    suite.case(case, func="lu_solve", rtol=rtol, atol=atol, error=err, **params)


def add_inv(case, a, layout="C", assume_a=None, lower=False, check_finite=True):
    r, err, _ = call(lambda: sl.inv(a, check_finite=check_finite, assume_a=assume_a, lower=lower))
    params = dict(a=stored(case, "a", a, layout), layout=layout, assume_a=assume_a, lower=lower,
                  check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        params["expected"] = suite.array(case + "_x", r)
        rtol, atol = tol_for(r if r.size else a, r.dtype, amax(r))
    suite.case(case, func="inv", rtol=rtol, atol=atol, error=err, **params)


def add_det(case, a, layout="C", check_finite=True):
    r, err, _ = call(lambda: sl.det(a, check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        r = np.asarray(r)
        params["expected"] = suite.array(case + "_x", r)
        adt = np.asarray(a).dtype
        cdt = adt if adt.kind in "fc" else np.float64
        rtol, atol = tol_for(a, cdt, 0.0)
        atol = 0.0 if r.size and np.all(r != 0) else atol
    suite.case(case, func="det", rtol=rtol, atol=atol, error=err, **params)


def batch_for(n):
    """Batches on every path (nbatch > 1 selects cuBLAS' batched calls above 32); one matrix at n = 100."""
    return (2, 3) if n <= 8 else ((2,) if n <= 64 else ())


def main():
    suite.group("lu")
    # --- lu: dtypes, sizes on both paths, rectangular, options ---------------------------------------
    for dn, dt in DT.items():
        for n in [1, 2, 3, 8, 17, 32, 33, 64, 100]:
            if n == 100 and dn != "f64":
                continue
            add_lu(f"lu_{dn}_n{n}", gen_matrix(batch_for(n) + (n, n), dt))
        add_lu(f"lu_{dn}_n5_2d", gen_matrix((5, 5), dt))
        add_lu(f"lu_{dn}_n40_2d", gen_matrix((40, 40), dt))
    for m, n in [(5, 3), (3, 5), (1, 4), (4, 1), (32, 7), (7, 32), (40, 20), (20, 40), (50, 33)]:
        for bs in [(), (2,)]:
            add_lu(f"lu_rect_{m}x{n}_b{len(bs)}", gen_matrix(bs + (m, n), np.float64))
            add_lu(f"lu_rect_{m}x{n}_b{len(bs)}_pl", gen_matrix(bs + (m, n), np.complex128), permute_l=True)
            add_lu(f"lu_rect_{m}x{n}_b{len(bs)}_pi", gen_matrix(bs + (m, n), np.float32), p_indices=True)
    for n in [6, 40]:
        for opt in ["pl", "pi"]:
            add_lu(f"lu_opt_{opt}_n{n}", gen_matrix((2, 2, n, n), np.float64), permute_l=opt == "pl",
                   p_indices=opt == "pi")
        for lay in ["F", "strided"]:
            add_lu(f"lu_{lay}_n{n}", gen_matrix((3, n, n), np.float64), layout=lay)
            add_lu(f"lu_{lay}_c64_n{n}", gen_matrix((n, n), np.complex64), layout=lay)
    # scalar matrices (SciPy's special case: P of a's dtype, int64 indices)
    add_lu("lu_scalar_f64", np.array([[3.0]]))
    add_lu("lu_scalar_c64_batch", rand((3, 1, 1), np.complex64))
    add_lu("lu_scalar_pi", rand((2, 1, 1), np.float64), p_indices=True)
    add_lu("lu_scalar_pl", np.array([[-2.0]]), permute_l=True)
    # promotion
    add_lu("lu_int32", rng.integers(-5, 6, size=(4, 4)).astype(np.int32))
    add_lu("lu_int16", rng.integers(-5, 6, size=(4, 4)).astype(np.int16))
    add_lu("lu_bool", np.array([[True, False, True], [True, True, False], [False, True, True]]))
    # ties in the pivot column and exactly singular matrices (no error)
    t = rng.integers(-2, 3, size=(3, 6, 6)).astype(np.float64)
    t[..., 0] = 2.0 * np.sign(rng.standard_normal((3, 6)))
    add_lu("lu_ties", t)
    s = gen_matrix((2, 5, 5), np.float64)
    s[1, :, 2] = 0.0
    add_lu("lu_singular", s)
    add_lu("lu_zeros", np.zeros((4, 4)))
    # errors and empty inputs
    nan = gen_matrix((2, 4, 4), np.float64)
    nan[1, 2, 3] = np.nan
    add_lu("lu_nan", nan)
    inf = gen_matrix((40, 40), np.float64)
    inf[3, 3] = np.inf
    add_lu("lu_inf_n40", inf)
    add_lu("lu_1d", np.ones(3))
    add_lu("lu_empty_00", np.zeros((0, 0)))
    add_lu("lu_empty_03", np.zeros((0, 3)))
    add_lu("lu_empty_batch", np.zeros((0, 3, 3), np.float32), p_indices=True)
    add_lu("lu_empty_30_pl", np.zeros((2, 3, 0), np.complex64), permute_l=True)

    suite.group("lu_factor")
    # --- lu_factor ------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 3, 8, 17, 32, 33, 64, 100]:
            if n == 100 and dn not in ("f64", "c64"):
                continue
            add_lu_factor(f"luf_{dn}_n{n}", gen_matrix(batch_for(n) + (n, n), dt))
        add_lu_factor(f"luf_{dn}_n50_2d", gen_matrix((50, 50), dt))
    for m, n in [(5, 3), (3, 5), (40, 20), (20, 40)]:
        add_lu_factor(f"luf_rect_{m}x{n}", gen_matrix((2, m, n), np.float64))
    for lay in ["F", "strided"]:
        for n in [7, 40]:
            add_lu_factor(f"luf_{lay}_n{n}", gen_matrix((2, n, n), np.float64), layout=lay)
    add_lu_factor("luf_1d", np.array([1.0, 2.0, 4.0]))
    add_lu_factor("luf_0d", np.array(2.0))
    add_lu_factor("luf_int64", rng.integers(-5, 6, size=(5, 5)).astype(np.int64))
    s = gen_matrix((3, 4, 4), np.float64)
    s[2, :, 1] = 0.0
    add_lu_factor("luf_singular_batch", s)
    s = gen_matrix((40, 40), np.float64)
    s[:, 7] = 0.0
    add_lu_factor("luf_singular_n40", s)
    nan = gen_matrix((3, 3), np.float64)
    nan[0, 0] = np.nan
    add_lu_factor("luf_nan", nan)
    add_lu_factor("luf_empty_00", np.zeros((0, 0)))
    add_lu_factor("luf_empty_int", np.zeros((0, 3), np.int32))
    add_lu_factor("luf_zero_batch", np.zeros((0, 3, 3)))
    add_lu_factor("luf_empty_matrices", np.zeros((2, 0, 3), np.int32))

    suite.group("lu_solve")
    # --- lu_solve -------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 3, 8, 33, 64]:
            bs = (2, 2) if n <= 8 else (2,)
            a = gen_matrix(bs + (n, n), dt)
            lu, piv = sl.lu_factor(a)
            for trans in [0, 1, 2]:
                add_lu_solve(f"lus_{dn}_n{n}_t{trans}", lu, piv, rand(bs + (n, 2), dt), trans=trans, a_for_tol=a)
        a = gen_matrix((60, 60), dt)
        lu, piv = sl.lu_factor(a)
        add_lu_solve(f"lus_{dn}_n60_vec", lu, piv, rand((60,), dt), a_for_tol=a)
        add_lu_solve(f"lus_{dn}_n60_mat_t2", lu, piv, rand((60, 3), dt), trans=2, a_for_tol=a)
    # broadcasting: one factorization for a batch of b, a batch of factors for one b
    a = gen_matrix((5, 5), np.float64)
    lu, piv = sl.lu_factor(a)
    add_lu_solve("lus_bcast_b", lu, piv, rand((4, 5, 2), np.float64), a_for_tol=a)
    a = gen_matrix((3, 1, 6, 6), np.float64)
    lu, piv = sl.lu_factor(a)
    add_lu_solve("lus_bcast_lu", lu, piv, rand((2, 6, 1), np.float64), a_for_tol=a)
    add_lu_solve("lus_bcast_vec", lu, piv, rand((6,), np.float64), a_for_tol=a)
    for lay in ["F", "strided"]:
        for n in [6, 40]:
            a = gen_matrix((2, n, n), np.float64)
            lu, piv = sl.lu_factor(a)
            add_lu_solve(f"lus_{lay}_n{n}", lu, piv, rand((2, n, 3), np.float64), layout=lay, a_for_tol=a)
    a = gen_matrix((4, 4), np.float32)
    lu, piv = sl.lu_factor(a)
    add_lu_solve("lus_f32_int", lu, piv, rng.integers(-3, 4, size=(4,)).astype(np.int32), a_for_tol=a)
    add_lu_solve("lus_f32_c128", lu, piv, rand((4, 1), np.complex128), a_for_tol=a)
    binf = rand((4,), np.float32)
    binf[1] = np.inf
    add_lu_solve("lus_inf_b", lu, piv, binf)
    add_lu_solve("lus_bad_rows", lu, piv, rand((5,), np.float32))
    add_lu_solve("lus_empty_rhs", lu, piv, np.zeros((4, 0), np.float32))
    add_lu_solve("lus_zero_batch", lu, piv, np.zeros((0, 4, 2), np.float32))

    suite.group("inv")
    # --- inv ------------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 2, 3, 8, 17, 32, 33, 64, 100]:
            if n == 100 and dn not in ("f64", "c128"):
                continue
            add_inv(f"inv_{dn}_n{n}", gen_matrix(batch_for(n) + (n, n), dt))
        add_inv(f"inv_{dn}_n70_2d", gen_matrix((70, 70), dt))
    for lay in ["F", "strided"]:
        for n in [5, 40]:
            add_inv(f"inv_{lay}_n{n}", gen_matrix((2, n, n), np.float64), layout=lay)
    for n in [6, 40]:
        base = gen_matrix((2, n, n), np.float64) + 3 * np.eye(n)
        add_inv(f"inv_diag_n{n}", base, assume_a="diagonal")
        add_inv(f"inv_upper_n{n}", base, assume_a="upper triangular")
        add_inv(f"inv_lower_n{n}", base, assume_a="lower triangular")
        add_inv(f"inv_gen_n{n}", base, assume_a="gen")
        m = rand((2, n, n), np.complex128)
        pd = m @ np.conj(np.swapaxes(m, -1, -2)) / n + np.eye(n)
        for lower in [False, True]:
            g = pd.copy()
            mask = np.tril(np.ones((n, n), bool), -1) if not lower else np.triu(np.ones((n, n), bool), 1)
            g[..., mask] = 99.0
            add_inv(f"inv_pos_n{n}_l{int(lower)}", g, assume_a="pos", lower=lower)
            add_inv(f"inv_her_n{n}_l{int(lower)}", g, assume_a="her", lower=lower)
            sy = (base + np.swapaxes(base, -1, -2))
            sy[..., mask] = -7.0
            add_inv(f"inv_sym_n{n}_l{int(lower)}", sy, assume_a="sym", lower=lower)
    add_inv("inv_int32", (rng.integers(-3, 4, size=(4, 4)) + 9 * np.eye(4)).astype(np.int32))
    add_inv("inv_uint8", (rng.integers(0, 3, size=(3, 3)) + 5 * np.eye(3)).astype(np.uint8))
    s = gen_matrix((3, 3, 3), np.float64)
    s[1, :, 1] = 0.0
    add_inv("inv_singular_batch", s)
    s = gen_matrix((50, 50), np.complex128)
    s[:, 20] = 0.0
    add_inv("inv_singular_n50", s)
    s = gen_matrix((3, 40, 40), np.float64)
    s[2, 5, :] = 0.0
    add_inv("inv_singular_batch_n40", s)
    nan = gen_matrix((2, 3, 3), np.float64)
    nan[1, 0, 0] = np.nan
    add_inv("inv_nan", nan)
    add_inv("inv_1d", np.ones(3))
    add_inv("inv_rect", np.ones((3, 4)))
    add_inv("inv_empty_00", np.zeros((0, 0)))
    add_inv("inv_empty_batch_int", np.zeros((0, 3, 3), np.int32))

    suite.group("det")
    # --- det ------------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n in [1, 2, 3, 8, 17, 32, 33, 64, 100]:
            if n == 100 and dn not in ("f64", "c128"):
                continue
            # scaled by 2 / sqrt(n): determinants stay far from float32's overflow (det_f32_overflow
            # covers that)
            add_det(f"det_{dn}_n{n}", (gen_matrix(batch_for(n) + (n, n), dt) * (2 / np.sqrt(n))).astype(dt))
        add_det(f"det_{dn}_n6_2d", gen_matrix((6, 6), dt))
        add_det(f"det_{dn}_n80_2d", (gen_matrix((80, 80), dt) * (2 / np.sqrt(80))).astype(dt))
    for lay in ["F", "strided"]:
        for n in [5, 40]:
            add_det(f"det_{lay}_n{n}", gen_matrix((2, n, n), np.float64), layout=lay)
    add_det("det_int64", rng.integers(-5, 6, size=(2, 4, 4)).astype(np.int64))
    add_det("det_bool", np.array([[True, True], [False, True]]))
    s = gen_matrix((3, 5, 5), np.float64)
    s[0, :, 3] = 0.0
    add_det("det_singular", s)
    add_det("det_zeros_n40", np.zeros((40, 40)))
    add_det("det_f32_overflow", np.diag([3e38, 3e38]).astype(np.float32))
    nan = gen_matrix((2, 3, 3), np.float64)
    nan[0, 1, 1] = np.inf
    add_det("det_inf", nan)
    add_det("det_1d", np.ones(3))
    add_det("det_rect", np.ones((3, 4)))
    add_det("det_empty_00", np.zeros((0, 0)))
    add_det("det_empty_200", np.zeros((2, 0, 0), np.complex64))
    add_det("det_empty_033", np.zeros((0, 3, 3)))

    suite.write()


if __name__ == "__main__":
    main()
