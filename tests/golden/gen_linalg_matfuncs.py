"""Reference data for cusci::linalg's matrix functions (expm, cosm, sinm, tanm, coshm, sinhm, tanhm,
expm_frechet, expm_cond), from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_matfuncs/.

Cases: func expm | cosm | sinm | tanm | coshm | sinhm | tanhm | expm_frechet | expm_cond. Inputs:
<case>_a (and <case>_e for expm_frechet). layout: C | F (the test makes Fortran-ordered device copies) |
strided (the stored inputs have their last axis doubled and the test takes the view [..., ::2]).
Options as SciPy's keywords: method ("SPS" | "blockEnlarge"), compute_expm, check_finite. Expected:
expected (expm_frechet: expected_expm when compute_expm, expected_frechet). error: lin_alg_error |
value_error | type_error. The matrices are scaled to 1-norms that select each Pade order (3, 5, 7, 9,
13 with and without scaling) in SciPy's expm and expm_frechet.
"""
import numpy as np
import scipy.linalg as sl

from golden import Suite, tol
from linalg_common import DT, run_scipy, storer

suite = Suite("linalg_matfuncs")
rng = suite.rng(20261204)
stored = storer(suite)


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if np.issubdtype(dt, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x


def scaled(shape, dt, norm):
    """Random matrices whose 1-norm is `norm` (each matrix of a batch)."""
    x = rand(shape, dt)
    if len(shape) >= 2 and x.size:
        s = np.abs(x).sum(axis=-2).max(axis=-1)
        x = x * (norm / s)[..., None, None]
    return x.astype(dt)


def amax(*xs):
    v = [float(np.abs(x).max()) for x in xs if x is not None and np.size(x)]
    v = [x for x in v if np.isfinite(x)]
    return max(v) if v else 1.0


ERRORS = ((np.linalg.LinAlgError, "lin_alg_error"), (TypeError, "type_error"), (ValueError, "value_error"))


def call(f):
    return run_scipy(f, ERRORS)


def tols(r, scale=1.0, dt=None):
    dt = np.asarray(r).dtype if dt is None else dt
    return tol(dt, scale=scale * amax(r), rtol32=2e-3, rtol64=1e-9)


FUNCS = {"expm": sl.expm, "cosm": sl.cosm, "sinm": sl.sinm, "tanm": sl.tanm, "coshm": sl.coshm,
         "sinhm": sl.sinhm, "tanhm": sl.tanhm}


def add(func, case, a, layout="C", scale=1.0):
    r, err = call(lambda: FUNCS[func](a))
    params = dict(a=stored(case, "a", a, layout), layout=layout)
    rtol = atol = 0.0
    if r is not None:
        params["expected"] = suite.array(case + "_x", r)
        rtol, atol = tols(r, scale)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def add_frechet(case, a, e, method="SPS", compute_expm=True, check_finite=True, layout="C"):
    r, err = call(lambda: sl.expm_frechet(a, e, method=method, compute_expm=compute_expm,
                                          check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), e=stored(case, "e", e, layout), layout=layout,
                  method=method, compute_expm=compute_expm, check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        if compute_expm:
            x, l = r
            params["expected_expm"] = suite.array(case + "_x", x)
        else:
            l = r
        params["expected_frechet"] = suite.array(case + "_l", l)
        # SciPy computes parts of SPS in the inputs' single precision (its results are float64)
        single = any(np.asarray(v).dtype in (np.float32, np.complex64) for v in (a, e))
        dt = np.float32 if single else None
        rtol, atol = tols(l, 10.0, dt)
        if compute_expm:
            atol = max(atol, tols(x, 10.0, dt)[1])
    suite.case(case, func="expm_frechet", rtol=rtol, atol=atol, error=err, **params)


def add_cond(case, a, check_finite=True, layout="C"):
    r, err = call(lambda: sl.expm_cond(a, check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        r = np.asarray(r, dtype=np.float64)
        params["expected"] = suite.array(case + "_x", r)
        rtol, atol = 1e-7, 0.0
        if np.asarray(a).dtype in (np.float32, np.complex64):
            rtol = 5e-3
    suite.case(case, func="expm_cond", rtol=rtol, atol=atol, error=err, **params)


# 1-norms that select each order in SciPy's expm (3, 5, 7, 9, 13 without and with scaling)
NORMS = {"m3": 0.005, "m5": 0.12, "m7": 0.6, "m9": 1.5, "m13": 3.5, "s2": 12.0, "s6": 150.0}


def main():
    suite.group("expm")
    # --- expm: every order, dtypes, batches (mixed orders in one batch), layouts -----------------------
    for dn, dt in DT.items():
        for key, nrm in NORMS.items():
            for n in [2, 5, 17]:
                add("expm", f"expm_{dn}_{key}_n{n}", scaled((n, n), dt, nrm))
        add("expm", f"expm_{dn}_batch_mixed", np.stack([scaled((6, 6), dt, v) for v in NORMS.values()]))
        add("expm", f"expm_{dn}_batch2d", scaled((2, 3, 4, 4), dt, 2.0))
        add("expm", f"expm_{dn}_n64", scaled((64, 64), dt, 20.0))
    for key in ["m5", "m9", "s2"]:
        add("expm", f"expm_f64_{key}_n120", scaled((120, 120), np.float64, NORMS[key] * 3))
    # orders >= 400: SciPy's block-norm tests
    for key, nrm in [("m7", 1.0), ("m13", 6.0), ("s6", 200.0)]:
        add("expm", f"expm_f64_{key}_n400", scaled((400, 400), np.float64, nrm))
    add("expm", "expm_c64_n410", scaled((410, 410), np.complex64, 30.0))
    for lay in ["F", "strided"]:
        add("expm", f"expm_{lay}_f64", scaled((3, 7, 7), np.float64, 5.0), layout=lay)
        add("expm", f"expm_{lay}_c64", scaled((7, 7), np.complex64, 0.3), layout=lay)
    # structure: diagonal (exact exp), triangular with squarings (Fragment 2.1), nilpotent, zero
    d = np.diag(rng.standard_normal(5) * 3)
    add("expm", "expm_diag", d)
    add("expm", "expm_diag_batch", np.stack([d, scaled((5, 5), np.float64, 40.0), np.zeros((5, 5))]))
    for dn, dt in DT.items():
        t = np.triu(scaled((8, 8), dt, 30.0))
        add("expm", f"expm_triu_{dn}", t)
        add("expm", f"expm_tril_{dn}", np.tril(scaled((8, 8), dt, 30.0)))
        add("expm", f"expm_triu_small_{dn}", np.triu(scaled((6, 6), dt, 0.4)))
    tb = np.stack([np.triu(scaled((6, 6), np.float64, 25.0)), np.tril(scaled((6, 6), np.float64, 3.0)),
                   scaled((6, 6), np.float64, 80.0), np.diag(rng.standard_normal(6))])
    add("expm", "expm_structures_batch", tb)
    add("expm", "expm_triu_equal_diag", np.triu(np.ones((5, 5)) * 4.0))
    add("expm", "expm_nilpotent", np.diag(np.ones(4), 1) * 3.0)
    add("expm", "expm_zeros", np.zeros((3, 3)))
    # promotion, scalars, 1 x 1, empty, errors
    add("expm", "expm_int64", rng.integers(-3, 4, size=(4, 4)))
    add("expm", "expm_int8", rng.integers(-3, 4, size=(2, 3, 3)).astype(np.int8))
    add("expm", "expm_bool", np.array([[True, False], [True, True]]))
    add("expm", "expm_f16", scaled((3, 3), np.float64, 1.0).astype(np.float16))
    add("expm", "expm_1x1_f64", np.array([[0.5]]))
    add("expm", "expm_1x1_batch_c64", rand((3, 1, 1), np.complex64).astype(np.complex64))
    add("expm", "expm_1x1_int8", np.array([[2]], np.int8))
    add("expm", "expm_1x1_int32", np.array([[2]], np.int32))
    add("expm", "expm_scalar_f32", np.array(1.5, np.float32))
    add("expm", "expm_len1_c64", np.array([1 + 2j], np.complex64))
    add("expm", "expm_scalar_int", np.array(3))
    add("expm", "expm_scalar_bool", np.array(True))
    add("expm", "expm_empty_00", np.zeros((0, 0)))
    add("expm", "expm_empty_batch", np.zeros((0, 3, 3), np.float32))
    add("expm", "expm_empty_int", np.zeros((2, 0, 0), np.int32))
    add("expm", "expm_1d", np.ones(3))
    add("expm", "expm_nonsquare", np.ones((2, 3, 4)))

    suite.group("trig")
    # --- cosm, sinm, tanm, coshm, sinhm, tanhm --------------------------------------------------------
    for func in ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"]:
        for dn, dt in DT.items():
            add(func, f"{func}_{dn}", scaled((5, 5), dt, 1.2))
            add(func, f"{func}_{dn}_batch", scaled((2, 4, 4), dt, 2.5))
        add(func, f"{func}_f64_n40", scaled((40, 40), np.float64, 6.0))
        add(func, f"{func}_F", scaled((6, 6), np.complex128, 1.0), layout="F")
        add(func, f"{func}_strided", scaled((2, 6, 6), np.float64, 1.0), layout="strided")
        add(func, f"{func}_int", rng.integers(-2, 3, size=(3, 3)))
        u8 = rng.integers(0, 3, size=(3, 3)).astype(np.uint8)
        if func == "tanhm":
            # SciPy negates the uint8 input (expm(-A) wraps to 256 - a): for a full matrix coshm(A) is then
            # numerically rank one (rcond ~ 1e-18, LinAlgWarning) and solve(coshm, sinhm) is rounding noise.
            # The diagonal keeps the wraparound (tanhm = -1 where a > 0, not tanh(a)) and is well-conditioned.
            u8 = np.diag(np.diag(u8))
        add(func, f"{func}_uint8", u8)
        add(func, f"{func}_f16", scaled((3, 3), np.float64, 1.0).astype(np.float16))
        add(func, f"{func}_1x1", np.array([[0.7]]))
        add(func, f"{func}_1x1_int8", np.array([[1]], np.int8))
        add(func, f"{func}_empty", np.zeros((0, 0)))
        add(func, f"{func}_empty_batch", np.zeros((0, 2, 2)))
        add(func, f"{func}_1d", np.ones(3))
        add(func, f"{func}_nonsquare", np.ones((2, 3)))
        add(func, f"{func}_bool", np.array([[True, False], [False, True]]))

    suite.group("frechet")
    # --- expm_frechet -----------------------------------------------------------------------------------
    FN = {"m3": 0.008, "m5": 0.15, "m7": 0.7, "m9": 1.6, "m13": 4.0, "s3": 30.0}
    for dn, dt in DT.items():
        for key, nrm in FN.items():
            add_frechet(f"fr_{dn}_{key}", scaled((5, 5), dt, nrm), scaled((5, 5), dt, 1.0))
        add_frechet(f"fr_{dn}_batch_mixed", np.stack([scaled((4, 4), dt, v) for v in FN.values()]),
                    scaled((6, 4, 4), dt, 1.0))
    add_frechet("fr_f64_n40", scaled((40, 40), np.float64, 8.0), scaled((40, 40), np.float64, 2.0))
    add_frechet("fr_broadcast", scaled((3, 1, 4, 4), np.float64, 2.0), scaled((2, 4, 4), np.float64, 1.0))
    add_frechet("fr_broadcast_2d_e", scaled((3, 4, 4), np.float64, 0.5), scaled((4, 4), np.float64, 1.0))
    add_frechet("fr_real_a_complex_e", scaled((4, 4), np.float64, 2.0), scaled((4, 4), np.complex128, 1.0))
    add_frechet("fr_int", rng.integers(-2, 3, size=(3, 3)), rng.integers(-2, 3, size=(3, 3)))
    add_frechet("fr_no_expm", scaled((5, 5), np.float64, 3.0), scaled((5, 5), np.float64, 1.0),
                compute_expm=False)
    for dn in ["f32", "f64", "c128"]:
        add_frechet(f"fr_block_{dn}", scaled((5, 5), DT[dn], 3.0), scaled((5, 5), DT[dn], 1.0),
                    method="blockEnlarge")
    add_frechet("fr_block_batch", scaled((2, 3, 3), np.float64, 9.0), scaled((3, 3), np.float64, 1.0),
                method="blockEnlarge", compute_expm=False)
    add_frechet("fr_F", scaled((6, 6), np.float64, 2.0), scaled((6, 6), np.float64, 1.0), layout="F")
    add_frechet("fr_strided", scaled((2, 5, 5), np.complex128, 6.0), scaled((2, 5, 5), np.complex128, 1.0),
                layout="strided")
    add_frechet("fr_1x1", np.array([[0.3]]), np.array([[1.0]]))
    add_frechet("fr_empty", np.zeros((0, 0)), np.zeros((0, 0)))
    nan = scaled((3, 3), np.float64, 1.0)
    nan[1, 1] = np.nan
    add_frechet("fr_nan_a", nan, np.ones((3, 3)))
    add_frechet("fr_inf_e", np.ones((3, 3)), np.full((3, 3), np.inf))
    add_frechet("fr_nan_block", nan, np.ones((3, 3)), method="blockEnlarge")
    add_frechet("fr_nonsquare_a", np.ones((3, 4)), np.ones((3, 3)))
    add_frechet("fr_nonsquare_e", np.ones((3, 3)), np.ones((3, 4)))
    add_frechet("fr_1d", np.ones(3), np.ones(3))
    add_frechet("fr_shape_mismatch", np.ones((3, 3)), np.ones((4, 4)))
    add_frechet("fr_batch_mismatch", np.ones((2, 3, 3)), np.ones((3, 3, 3)))
    add_frechet("fr_zero_batch", np.ones((0, 3, 3)), np.ones((3, 3)))

    suite.group("cond")
    # --- expm_cond ----------------------------------------------------------------------------------------
    for dn, dt in DT.items():
        for n, nrm in [(1, 0.5), (2, 0.1), (3, 2.0), (5, 10.0)]:
            add_cond(f"cond_{dn}_n{n}", scaled((n, n), dt, nrm))
    add_cond("cond_batch", scaled((2, 2, 4, 4), np.float64, 3.0))
    add_cond("cond_F", scaled((4, 4), np.complex128, 1.5), layout="F")
    add_cond("cond_int", rng.integers(-2, 3, size=(3, 3)))
    add_cond("cond_n12", scaled((12, 12), np.float64, 5.0))
    add_cond("cond_nan", nan)
    add_cond("cond_empty", np.zeros((0, 0)))
    add_cond("cond_1d", np.ones(3))
    add_cond("cond_nonsquare", np.ones((3, 4)))
    add_cond("cond_zero_batch", np.ones((0, 2, 2)))

    suite.write()


if __name__ == "__main__":
    main()
