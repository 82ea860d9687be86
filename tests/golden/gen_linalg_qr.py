"""Reference data for cusci::linalg's QR family (qr, rq, qr_multiply), from scipy.linalg 1.18.1 (format and
shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_qr/.

QR factors are unique only up to the signs (phases) of R's rows and Q's columns, so the test does not
compare Q and R with SciPy's directly: it checks the reconstruction (Q @ R = a[..., :, P], R @ Q = a for
rq, the raw factors through their Householder product), the orthonormality of Q, |R| against |R_scipy|,
P exactly, and the shapes and dtypes of every output against SciPy's; qr_multiply's product is checked
against Q = a[:, P][:, :K] @ inv(R[:K, :K]) formed on the host from the input and the returned R, plus the
shapes, dtypes and |R|.

qr_update: Q1 @ R1 = Q @ R + u v^H (from the inputs), Q1's orthonormal columns, |R1| against SciPy's, R1's
zero lower triangle, shapes and dtypes.

qr_delete: Q1 @ R1 = (Q @ R) with the rows / columns removed, Q1's orthonormal columns, |R1| against SciPy's,
R1's zero lower triangle, shapes and dtypes.

qr_insert: Q1 @ R1 = (Q @ R) with u's rows / columns inserted, and the checks of qr_delete.

Cases: func qr | rq | qr_multiply | qr_update (inputs <case>_q, <case>_r, <case>_u, <case>_v; expected_q,
expected_r) | qr_delete (inputs <case>_q, <case>_r; k, p, which; expected_q, expected_r) | qr_insert (inputs <case>_q,
<case>_r, <case>_u; k, which, rcond (absent: None); expected_q, expected_r). error: value_error |
lin_alg_error. Inputs: <case>_a (and <case>_c). layout: C | F (the test makes
Fortran-ordered device copies) | strided (the stored inputs have their last axis doubled and the test
takes the view [..., ::2]). Options as SciPy's keywords: mode, pivoting, check_finite, lwork (absent: not
given), conjugate, overwrite_c. Expected outputs (SciPy's): qr: expected_q (full/economic; raw: the packed
factors), expected_tau (raw), expected_r, expected_p (pivoting); rq: expected_r, expected_q; qr_multiply:
expected_cq, expected_r, expected_p. error: value_error.
rtol/atol: for reconstructions and |R|, from the conditioning of a and its scale.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, storer

suite = Suite("linalg_qr")
rng = suite.rng(20261204)
rand = rand_maker(rng)
stored = storer(suite)


def lapack_eps(dt):
    dt = np.dtype(dt)
    if dt in (np.float32, np.complex64) or dt.itemsize <= 2 or dt == np.bool_:
        return float(np.finfo(np.float32).eps)
    return float(np.finfo(np.float64).eps)


def tol_for(a, dt):
    """(rtol, atol) for reconstructions and |R| of a (computed in the LAPACK type of dt)."""
    a = np.atleast_2d(np.asarray(a))
    if a.size == 0:
        return 1e-6, 1e-6
    eps = lapack_eps(dt)
    m = a.astype(np.complex128).reshape((-1,) + a.shape[-2:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = float(np.max(np.linalg.cond(m)))
    if not np.isfinite(c) or c > 1e6:
        c = 1e6
    n = max(a.shape[-2:])
    t = max(20 * eps * c * n, 100 * eps * n)
    s = max(1.0, float(np.abs(a).max()))
    return float(f"{t:.3g}"), float(f"{t * s:.3g}")


def call(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(), None
        except np.linalg.LinAlgError:
            return None, "lin_alg_error"
        except ValueError:
            return None, "value_error"
        except Exception as e:  # f2py's error for a bad lwork
            if type(e).__name__ == "error":
                return None, "value_error"
            raise


def add_qr(case, a, mode="full", pivoting=False, layout="C", check_finite=True, lwork=None):
    kw = dict(mode=mode, pivoting=pivoting, check_finite=check_finite)
    if lwork is not None:
        kw["lwork"] = lwork
    r, err = call(lambda: sl.qr(a, **kw))
    params = dict(a=stored(case, "a", a, layout), layout=layout, **kw)
    rtol = atol = 0.0
    if r is not None:
        rtol, atol = tol_for(a, np.asarray(a).dtype)
        r = list(r)
        if mode == "raw":
            (qr, tau), rr = r[0], r[1]
            params["expected_q"] = suite.array(case + "_q", qr)
            params["expected_tau"] = suite.array(case + "_tau", tau)
            params["expected_r"] = suite.array(case + "_r", rr)
        elif mode == "r":
            params["expected_r"] = suite.array(case + "_r", r[0])
        else:
            params["expected_q"] = suite.array(case + "_q", r[0])
            params["expected_r"] = suite.array(case + "_r", r[1])
        if pivoting:
            params["expected_p"] = suite.array(case + "_p", r[-1])
    suite.case(case, func="qr", rtol=rtol, atol=atol, error=err, **params)


def add_rq(case, a, mode="full", layout="C", check_finite=True, lwork=None):
    kw = dict(mode=mode, check_finite=check_finite)
    if lwork is not None:
        kw["lwork"] = lwork
    r, err = call(lambda: sl.rq(a, **kw))
    params = dict(a=stored(case, "a", a, layout), layout=layout, **kw)
    rtol = atol = 0.0
    if r is not None:
        rtol, atol = tol_for(a, np.asarray(a).dtype)
        if mode == "r":
            params["expected_r"] = suite.array(case + "_r", r)
        else:
            params["expected_r"] = suite.array(case + "_r", r[0])
            params["expected_q"] = suite.array(case + "_q", r[1])
    suite.case(case, func="rq", rtol=rtol, atol=atol, error=err, **params)


def add_qrm(case, a, c, mode="right", pivoting=False, conjugate=False, overwrite_c=False, layout="C"):
    # copies: with overwrite_c SciPy writes its result into c
    r, err = call(lambda: sl.qr_multiply(np.copy(a), np.copy(c), mode=mode, pivoting=pivoting, conjugate=conjugate,
                                         overwrite_c=overwrite_c))
    params = dict(a=stored(case, "a", a, layout), c=stored(case, "c", c, layout), layout=layout, mode=mode,
                  pivoting=pivoting, conjugate=conjugate, overwrite_c=overwrite_c)
    rtol = atol = 0.0
    if r is not None:
        rtol, atol = tol_for(a, np.asarray(a).dtype)
        atol = float(f"{atol * max(1.0, float(np.abs(c).max()) if np.size(c) else 1.0):.3g}")
        params["expected_cq"] = suite.array(case + "_cq", np.asarray(r[0]))
        params["expected_r"] = suite.array(case + "_r", np.asarray(r[1]))
        if pivoting:
            params["expected_p"] = suite.array(case + "_p", np.asarray(r[2]))
    suite.case(case, func="qr_multiply", rtol=rtol, atol=atol, error=err, **params)


# --- qr ------------------------------------------------------------------------------------------
suite.group("qr")
for dn, dt in DT.items():
    for shape in [(5, 5), (7, 4), (4, 7)]:
        a = rand(shape, dt)
        for mode in ["full", "r", "economic", "raw"]:
            for piv in [False, True]:
                add_qr(f"qr_{dn}_{shape[0]}x{shape[1]}_{mode}{'_piv' if piv else ''}", a, mode, piv)
for shape in [(1, 1), (1, 5), (5, 1), (33, 33), (64, 40), (40, 64), (100, 100), (150, 120)]:
    a = rand(shape, np.float64)
    for mode in ["full", "economic", "raw"]:
        for piv in [False, True]:
            add_qr(f"qr_f64_{shape[0]}x{shape[1]}_{mode}{'_piv' if piv else ''}", a, mode, piv)
add_qr("qr_c128_1x1_full", rand((1, 1), np.complex128), "full")
add_qr("qr_c64_1x3_raw", rand((1, 3), np.complex64), "raw")
# batches (cusci's batched kernels)
for dn in ["f64", "c128", "f32"]:
    for shape in [(3, 6, 4), (2, 4, 7), (2, 3, 5, 5), (2, 40, 33)]:
        a = rand(shape, DT[dn])
        for mode in ["full", "economic", "raw", "r"]:
            for piv in [False, True]:
                add_qr(f"qr_b_{dn}_{'x'.join(map(str, shape))}_{mode}{'_piv' if piv else ''}", a, mode, piv)
# layouts
for layout in ["F", "strided"]:
    for shape in [(9, 7), (2, 6, 5)]:
        a = rand(shape, np.float64)
        for piv in [False, True]:
            add_qr(f"qr_{layout}_{'x'.join(map(str, shape))}{'_piv' if piv else ''}", a, "full", piv, layout)
# promotion
add_qr("qr_int64", rng.integers(-5, 6, (5, 4)).astype(np.int64), "full", True)
add_qr("qr_int16", rng.integers(-5, 6, (4, 4)).astype(np.int16), "economic")
add_qr("qr_bool", (rng.random((4, 3)) > 0.5) | np.eye(4, 3, dtype=bool), "full")
# rank deficient: equal columns and a zero column (pivoting puts them last)
a = rand((6, 5), np.float64)
a[:, 3] = a[:, 1]
a[:, 4] = 0
add_qr("qr_rankdef_piv", a, "full", True)
add_qr("qr_rankdef_raw_piv", a, "raw", True)
# columns of very different norms (pivot order clear, norm downdating exercised)
a = rand((30, 12), np.float64) * np.logspace(0, 6, 12)
add_qr("qr_scaled_piv", a, "economic", True)
add_qr("qr_b_scaled_piv", np.stack([a, a[::-1]]), "economic", True)
# empty inputs
for shape in [(0, 3), (3, 0), (0, 0), (2, 0, 3), (2, 3, 0), (0, 3, 3)]:
    for mode in ["full", "r", "economic", "raw"]:
        for piv in [False, True]:
            add_qr(f"qr_empty_{'x'.join(map(str, shape))}_{mode}{'_piv' if piv else ''}",
                   np.zeros(shape), mode, piv)
# errors and options
a = rand((4, 3), np.float64)
bad = a.copy()
bad[1, 2] = np.nan
add_qr("qr_nan", bad)
add_qr("qr_inf_batch", np.stack([a, np.where(np.isnan(bad), np.inf, bad)]))
add_qr("qr_nan_unchecked", a, check_finite=False)
add_qr("qr_1d", rand((4,), np.float64))
add_qr("qr_lwork_small", a, lwork=4)
add_qr("qr_lwork_ok", a, lwork=5)
add_qr("qr_lwork_minus1", a, lwork=-1)

# --- rq ------------------------------------------------------------------------------------------
suite.group("rq")
for dn, dt in DT.items():
    for shape in [(5, 5), (4, 7), (7, 4)]:
        a = rand(shape, dt)
        for mode in ["full", "r", "economic"]:
            add_rq(f"rq_{dn}_{shape[0]}x{shape[1]}_{mode}", a, mode)
for shape in [(1, 1), (1, 4), (4, 1), (40, 70), (70, 40)]:
    a = rand(shape, np.float64)
    for mode in ["full", "economic"]:
        add_rq(f"rq_f64_{shape[0]}x{shape[1]}_{mode}", a, mode)
for dn in ["f64", "c128"]:
    for shape in [(3, 5, 4), (2, 4, 6), (2, 40, 33)]:
        a = rand(shape, DT[dn])
        for mode in ["full", "r", "economic"]:
            add_rq(f"rq_b_{dn}_{'x'.join(map(str, shape))}_{mode}", a, mode)
for layout in ["F", "strided"]:
    add_rq(f"rq_{layout}_6x8", rand((6, 8), np.complex128), "full", layout)
    add_rq(f"rq_{layout}_2x6x5", rand((2, 6, 5), np.float64), "economic", layout)
add_rq("rq_int32", rng.integers(-5, 6, (4, 5)).astype(np.int32))
add_rq("rq_empty_int32", np.zeros((0, 3), np.int32))
for shape in [(0, 3), (3, 0), (2, 0, 3), (0, 3, 3)]:
    for mode in ["full", "r", "economic"]:
        add_rq(f"rq_empty_{'x'.join(map(str, shape))}_{mode}", np.zeros(shape), mode)
a = rand((4, 6), np.float64)
bad = a.copy()
bad[0, 0] = np.inf
add_rq("rq_inf", bad)
add_rq("rq_1d", rand((4,), np.float64))
add_rq("rq_lwork_gerqf", a, lwork=1)
add_rq("rq_lwork_orgrq", a, lwork=5)
add_rq("rq_lwork_r_ok", a, mode="r", lwork=4)
add_rq("rq_lwork_ok", a, lwork=6)

# --- qr_multiply ---------------------------------------------------------------------------------
suite.group("qr_multiply")
for dn, dt in DT.items():
    for (m, n) in [(6, 4), (4, 6), (5, 5)]:
        a = rand((m, n), dt)
        k = min(m, n)
        for mode in ["left", "right"]:
            c = rand((k, 3), dt) if mode == "left" else rand((3, m), dt)
            opts = [(False, False), (True, False), (False, True)]
            for piv, conj in opts:
                add_qrm(f"qrm_{dn}_{m}x{n}_{mode}{'_piv' if piv else ''}{'_conj' if conj else ''}", a, c, mode,
                        piv, conj)
a = rand((6, 4), np.complex128)
add_qrm("qrm_left_1d", a, rand((4,), np.complex128), "left")
add_qrm("qrm_right_1d", a, rand((6,), np.complex128), "right", conjugate=True)
add_qrm("qrm_left_overwrite_c", a, rand((6, 2), np.complex128), "left", overwrite_c=True)
add_qrm("qrm_left_overwrite_c_bad", a, rand((4, 2), np.complex128), "left", overwrite_c=True)
add_qrm("qrm_f64_60x40_left", rand((60, 40), np.float64), rand((40, 7), np.float64), "left")
add_qrm("qrm_f64_60x40_right_piv", rand((60, 40), np.float64), rand((5, 60), np.float64), "right", True)
# batches: a batched, c batched, both (broadcast)
add_qrm("qrm_b_a", rand((3, 6, 4), np.float64), rand((4, 2), np.float64), "left")
add_qrm("qrm_b_a_1d", rand((3, 6, 4), np.float64), rand((6,), np.float64), "right", True)
add_qrm("qrm_b_c", rand((6, 4), np.complex128), rand((2, 3, 6), np.complex128), "right", False, True)
add_qrm("qrm_b_both", rand((2, 1, 5, 7), np.float64), rand((3, 5, 2), np.float64), "left", True)
add_qrm("qrm_b_big", rand((2, 40, 33), np.complex64), rand((2, 33, 4), np.complex64), "left", False, True)
for layout in ["F", "strided"]:
    add_qrm(f"qrm_{layout}", rand((2, 7, 5), np.float64), rand((2, 5, 3), np.float64), "left", True,
            layout=layout)
    add_qrm(f"qrm_{layout}_right", rand((7, 5), np.complex128), rand((3, 7), np.complex128), "right", True,
            layout=layout)
add_qrm("qrm_int", rng.integers(-5, 6, (5, 3)).astype(np.int64), rng.integers(-5, 6, (3, 2)).astype(np.int64),
        "left")
add_qrm("qrm_f32_c64", rand((5, 3), np.float32), rand((2, 5), np.float64), "right")
add_qrm("qrm_empty_c", rand((6, 4), np.float64), np.zeros((0, 6)), "right", True)
add_qrm("qrm_empty_a", np.zeros((0, 4)), np.zeros((0, 3)), "left", True)
a = rand((5, 3), np.float64)
add_qrm("qrm_bad_left", a, rand((5, 2), np.float64), "left")
add_qrm("qrm_bad_right", a, rand((2, 3), np.float64), "right")
add_qrm("qrm_k0", np.zeros((3, 0)), rand((2, 3), np.float64), "right")
bad = rand((3, 5), np.float64)
bad[1, 1] = np.nan
add_qrm("qrm_nan_c", a, bad, "right")
add_qrm("qrm_nan_a", np.where(np.arange(15).reshape(5, 3) == 4, np.nan, a), rand((3, 5), np.float64), "right")
add_qrm("qrm_batch_mismatch", rand((2, 4, 3), np.float64), rand((3, 2, 4), np.float64), "right")
add_qrm("qrm_zero_batch", rand((0, 4, 3), np.float64), rand((2, 4), np.float64), "right")

# --- qr_update -----------------------------------------------------------------------------------
def add_qru(case, q, r, u, v, layout="C", check_finite=True):
    res, err = call(lambda: sl.qr_update(np.copy(q), np.copy(r), np.copy(u), np.copy(v), check_finite=check_finite))
    params = dict(q=stored(case, "q", q, layout), r=stored(case, "r", r, layout), u=stored(case, "u", u, layout),
                  v=stored(case, "v", v, layout), layout=layout, check_finite=check_finite)
    rtol = atol = 0.0
    if res is not None:
        a1 = np.matmul(q, r)
        rtol, atol = tol_for(a1, np.asarray(q).dtype)
        atol = float(f"{atol * max(1.0, float(np.abs(u).max()) * float(np.abs(v).max())):.3g}")
        params["expected_q"] = suite.array(case + "_eq", res[0])
        params["expected_r"] = suite.array(case + "_er", res[1])
    suite.case(case, func="qr_update", rtol=rtol, atol=atol, error=err, **params)


def qr_of(shape, dt, mode="full"):
    return sl.qr(rand(shape, dt), mode=mode)


suite.group("qr_update")
for dn, dt in DT.items():
    for (m, n, mode) in [(5, 3, "full"), (3, 5, "full"), (4, 4, "full"), (7, 3, "economic")]:
        q, r = qr_of((m, n), dt, mode)
        for k in [1, 2]:
            u = rand((m,), dt) if k == 1 else rand((m, k), dt)
            v = rand((n,), dt) if k == 1 else rand((n, k), dt)
            add_qru(f"qru_{dn}_{m}x{n}_{mode}_k{k}", q, r, u, v)
q, r = qr_of((40, 30), np.float64)
add_qru("qru_f64_40x30_k3", q, r, rand((40, 3), np.float64), rand((30, 3), np.float64))
q, r = qr_of((50, 20), np.complex128, "economic")
add_qru("qru_c128_50x20_econ_k2", q, r, rand((50, 2), np.complex128), rand((20, 2), np.complex128))
a = rand((6, 3), np.float64)
q, r = sl.qr(a, mode="economic")
add_qru("qru_econ_in_range", q, r, a[:, 0].copy(), rand((3,), np.float64))
# batches: factors batched, vectors batched, both
q, r = qr_of((3, 5, 4), np.float64)
add_qru("qru_b_factors", q, r, rand((5,), np.float64), rand((4,), np.float64))
q, r = qr_of((6, 3), np.complex64)  # (SciPy 1.18.1's complex rank-k path fails for some shapes, e.g. (5, 4))
add_qru("qru_b_vectors", q, r, rand((2, 6, 2), np.complex64), rand((2, 3, 2), np.complex64))
q, r = qr_of((2, 1, 6, 3), np.float32, "economic")
add_qru("qru_b_both_econ", q, r, rand((3, 6, 1), np.float32), rand((3, 3, 1), np.float32))
for layout in ["F", "strided"]:
    q, r = qr_of((6, 4), np.float64)
    add_qru(f"qru_{layout}", q, r, rand((6, 2), np.float64), rand((4, 2), np.float64), layout)
# errors
q, r = qr_of((5, 3), np.float64)
u5, v3 = rand((5,), np.float64), rand((3,), np.float64)
add_qru("qru_err_dtype_qr", q.astype(np.float32), r, u5, v3)
add_qru("qru_err_dtype_uv", q, r, u5.astype(np.complex128), v3)
add_qru("qru_err_int", q.astype(np.int64), r.astype(np.int64), u5.astype(np.int64), v3.astype(np.int64))
add_qru("qru_err_u_rows", q, r, u5[:4], v3)
add_qru("qru_err_v_rows", q, r, u5, v3[:2])
add_qru("qru_err_ndims", q, r, u5, v3[:, None])
add_qru("qru_err_qr_shapes", q[:, :3], r, u5, v3)
add_qru("qru_err_qr_shapes2", q[:, :4], r[:4], u5, v3)
add_qru("qru_err_rank", q, r, rand((5, 4), np.float64), rand((3, 4), np.float64))
add_qru("qru_err_k", q, r, rand((5, 2), np.float64), rand((3, 3), np.float64))
bad = u5.copy()
bad[2] = np.inf
add_qru("qru_err_inf", q, r, bad, v3)
add_qru("qru_inf_unchecked_shape_only", q, r, u5, v3, check_finite=False)
add_qru("qru_err_zero_batch", np.zeros((0, 5, 5)), np.zeros((0, 5, 3)), u5, v3)

# --- qr_delete -----------------------------------------------------------------------------------
def add_qrd(case, q, r, k, p=1, which="row", layout="C", check_finite=True):
    res, err = call(lambda: sl.qr_delete(np.copy(q), np.copy(r), k, p, which, check_finite=check_finite))
    params = dict(q=stored(case, "q", q, layout), r=stored(case, "r", r, layout), k=k, p=p, which=which,
                  layout=layout, check_finite=check_finite)
    rtol = atol = 0.0
    if res is not None:
        rtol, atol = tol_for(np.matmul(q, r), np.asarray(q).dtype)
        params["expected_q"] = suite.array(case + "_eq", res[0])
        params["expected_r"] = suite.array(case + "_er", res[1])
    suite.case(case, func="qr_delete", rtol=rtol, atol=atol, error=err, **params)


suite.group("qr_delete")
for dn, dt in DT.items():
    for (m, n, mode) in [(6, 4, "full"), (6, 4, "economic"), (4, 6, "full"), (5, 5, "full")]:
        q, r = qr_of((m, n), dt, mode)
        for which, k, p in [("row", 1, 1), ("row", 0, 2), ("row", -1, 1), ("col", 1, 1), ("col", 0, 2),
                            ("col", -2, 2)]:
            add_qrd(f"qrd_{dn}_{m}x{n}_{mode}_{which}_k{k}_p{p}", q, r, k, p, which)
q, r = qr_of((6, 4), np.float64, "economic")
add_qrd("qrd_econ_rows_to_full", q, r, 1, 3)   # M - p < N: full shapes
add_qrd("qrd_econ_all_cols", q, r, 0, 4, "col")
add_qrd("qrd_full_all_rows", *qr_of((3, 5), np.float64), 0, 3)
q, r = qr_of((40, 30), np.complex128)
add_qrd("qrd_c128_40x30_rows", q, r, 7, 5)
add_qrd("qrd_c128_40x30_cols", q, r, 3, 6, "col")
q, r = qr_of((3, 6, 4), np.float64)
add_qrd("qrd_b_rows", q, r, 2, 2)
add_qrd("qrd_b_cols", q, r, 0, 1, "col")
q, r = qr_of((5, 3), np.float32)
add_qrd("qrd_b_broadcast", np.stack([q, q]), r, 1)
for layout in ["F", "strided"]:
    q, r = qr_of((6, 5), np.float64)
    add_qrd(f"qrd_{layout}", q, r, 2, 2, "row", layout)
q, r = qr_of((6, 4), np.float64)
add_qrd("qrd_err_k", q, r, 6)
add_qrd("qrd_err_k_neg", q, r, -7)
add_qrd("qrd_err_k_col", q, r, 4, 1, "col")
add_qrd("qrd_err_p", q, r, 5, 2)
add_qrd("qrd_err_p0", q, r, 1, 0)
add_qrd("qrd_err_dtype", q.astype(np.float32), r, 1)
add_qrd("qrd_err_shapes", q[:, :3], r, 1)
bad = q.copy()
bad[0, 0] = np.nan
add_qrd("qrd_err_nan", bad, r, 1)
add_qrd("qrd_nan_unchecked_ok", q, r, 1, check_finite=False)

# --- qr_insert -----------------------------------------------------------------------------------
def add_qri(case, q, r, u, k, which="row", rcond=None, layout="C", check_finite=True):
    kw = dict(which=which, check_finite=check_finite)
    if rcond is not None:
        kw["rcond"] = rcond
    res, err = call(lambda: sl.qr_insert(np.copy(q), np.copy(r), np.copy(u), k, **kw))
    params = dict(q=stored(case, "q", q, layout), r=stored(case, "r", r, layout), u=stored(case, "u", u, layout),
                  k=k, layout=layout, **kw)
    rtol = atol = 0.0
    if res is not None:
        rtol, atol = tol_for(res[0] @ res[1], np.asarray(q).dtype)
        params["expected_q"] = suite.array(case + "_eq", res[0])
        params["expected_r"] = suite.array(case + "_er", res[1])
    suite.case(case, func="qr_insert", rtol=rtol, atol=atol, error=err, **params)


suite.group("qr_insert")
for dn, dt in DT.items():
    for (m, n, mode) in [(6, 4, "full"), (6, 4, "economic"), (4, 6, "full"), (5, 5, "full")]:
        q, r = qr_of((m, n), dt, mode)
        for which, k, p in [("row", 1, 1), ("row", 0, 2), ("row", -1, 1), ("row", m, 1), ("col", 1, 1),
                            ("col", 0, 2), ("col", n, 1), ("col", -2, 3)]:
            if which == "row":
                u = rand((n,), dt) if p == 1 else rand((p, n), dt)
            else:
                u = rand((m,), dt) if p == 1 else rand((m, p), dt)
            add_qri(f"qri_{dn}_{m}x{n}_{mode}_{which}_k{k}_p{p}", q, r, u, k, which)
q, r = qr_of((30, 20), np.complex128, "economic")
add_qri("qri_c128_30x20_econ_cols", q, r, rand((30, 4), np.complex128), 5, "col")
add_qri("qri_c128_30x20_econ_rows", q, r, rand((3, 20), np.complex128), 29, "row")
q, r = qr_of((6, 4), np.float64, "economic")
add_qri("qri_econ_cols_to_full", q, r, rand((6, 3), np.float64), 2, "col")  # N + p > M: full shapes
add_qri("qri_econ_in_span", q, r, q[:, 0].copy(), 1, "col")
add_qri("qri_econ_rcond_big", q, r, rand((6,), np.float64), 1, "col", rcond=0.999999)
q, r = qr_of((3, 5, 4), np.float64)
add_qri("qri_b_rows", q, r, rand((4,), np.float64), 2)
add_qri("qri_b_cols", q, r, rand((3, 5, 2), np.float64), 1, "col")
q, r = qr_of((5, 3), np.float32)
add_qri("qri_b_u", q, r, rand((2, 2, 3), np.float32), 1)
for layout in ["F", "strided"]:
    q, r = qr_of((6, 5), np.float64)
    add_qri(f"qri_{layout}", q, r, rand((2, 5), np.float64), 3, "row", layout=layout)
q, r = qr_of((6, 4), np.float64)
add_qri("qri_err_k", q, r, rand((4,), np.float64), 7)
add_qri("qri_err_k_neg", q, r, rand((4,), np.float64), -7)
add_qri("qri_err_k_col", q, r, rand((6,), np.float64), 5, "col")
add_qri("qri_err_u_rows", q, r, rand((6,), np.float64), 1)
add_qri("qri_err_u_cols", q, r, rand((4,), np.float64), 1, "col")
add_qri("qri_err_u_dtype", q, r, rand((4,), np.complex128), 1)
add_qri("qri_err_rcond_rows", q, r, rand((4,), np.float64), 1, rcond=0.5)
add_qri("qri_err_rcond_full", q, r, rand((6,), np.float64), 1, "col", rcond=0.5)
bad = rand((4,), np.float64)
bad[1] = np.nan
add_qri("qri_err_nan", q, r, bad, 1)

suite.write()
