"""Reference data for cusci::linalg's Schur-based matrix functions (sqrtm, logm, funm, signm,
fractional_matrix_power), from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_matfuncs_schur/.

Cases: func sqrtm | logm | funm | signm | fractional_matrix_power; input <case>_a; layout C | F | strided
(the stored input has its last axis doubled; the test takes [..., ::2]). funm: fname, one of "exp",
"sin", "cos", "sqrt", "square", "log" (the test maps it to the same elementwise function over complex
values), disp (false: expected_err holds SciPy's error estimate); fractional_matrix_power: t.
Expected: expected. The principal roots and logarithms are unique for these inputs (no eigenvalue on the
closed negative real axis unless the case tests the complex branch; the sqrtm_zero* cases are singular and
expect SciPy's inf/NaN entries); signm's inputs have eigenvalues away from the imaginary axis. error: value_error | lin_alg_error | index_error.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite, tol

suite = Suite("linalg_matfuncs_schur")
rng = suite.rng(20261206)
DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}
FUNCS = {"exp": np.exp, "sin": np.sin, "cos": np.cos, "sqrt": np.sqrt, "square": np.square, "log": np.log}


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dt), np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x


def spd(shape, dt):
    x = rand(shape, dt)
    return (x @ np.swapaxes(x, -1, -2).conj() / shape[-1] + np.eye(shape[-1])).astype(dt)


def shifted(shape, dt, shift=2.0):
    n = shape[-1]
    return (rand(shape, dt) + shift * max(1.0, np.sqrt(n)) * np.eye(n)).astype(dt)


def strided(x):
    full = np.empty(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    full[..., ::2] = x
    full[..., 1::2] = 12345
    return full


def call(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(), None
        except np.linalg.LinAlgError:
            return None, "lin_alg_error"
        except IndexError:
            return None, "index_error"
        except (ValueError, TypeError):
            return None, "value_error"


def add(func, case, a, layout="C", cond=1.0, **kw):
    a = np.asarray(a)
    f = getattr(sl, func)
    if func == "funm":
        fn = FUNCS[kw["fname"]]
        r, err = call(lambda: f(a, fn, disp=kw["disp"]))
    elif func == "fractional_matrix_power":
        r, err = call(lambda: f(a, kw["t"]))
    else:
        r, err = call(lambda: f(a))
    params = dict(a=suite.array(case + "_a", strided(a) if layout == "strided" and a.ndim >= 1 else a),
                  layout=layout, **kw)
    rtol = atol = 0.0
    if r is not None:
        if func == "funm" and not kw["disp"]:
            r, e = r
            params["expected_err"] = suite.array(case + "_err", np.asarray(e, dtype=np.float64))
        r = np.asarray(r)
        params["expected"] = suite.array(case + "_x", r)
        single_in = a.dtype in (np.float32, np.complex64, np.float16)
        single = single_in and func not in ("logm", "fractional_matrix_power")
        s = float(np.nanmax(np.abs(r[np.isfinite(r)]))) if np.isfinite(r).any() else 1.0
        rtol, atol = tol(np.complex64 if single else np.float64, scale=s, rtol32=2e-3 * cond, rtol64=1e-9 * cond)
        if single_in and not single:
            # logm and fractional_matrix_power return float64/complex128 for every input precision, but SciPy
            # computes the Schur form (schur, rsf2csf) of a single precision input in single precision, and
            # integer powers (np.linalg.matrix_power, its inverse for negative powers) in the input's dtype:
            # the reference is accurate to float32 precision only (float32's unit roundoff 6e-8 times an
            # allowance for size and condition, golden.tol's float32 default).
            rtol, atol = tol(np.complex64, scale=s, rtol32=2e-5 * cond)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def main():
    suite.group("sqrtm")
    for dn, dt in DT.items():
        for n in [2, 3, 8, 20]:
            add("sqrtm", f"sqrtm_{dn}_spd_n{n}", spd((n, n), dt))
            add("sqrtm", f"sqrtm_{dn}_gen_n{n}", shifted((n, n), dt, 1.0))
        add("sqrtm", f"sqrtm_{dn}_batch", spd((2, 3, 4, 4), dt))
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    add("sqrtm", "sqrtm_rotation_real", rot)  # complex eigenvalues: real root
    add("sqrtm", "sqrtm_negative_eig", np.array([[1.0, 2.0], [0.0, -1.0]]))  # complex root
    add("sqrtm", "sqrtm_negative_f32", np.diag([-4.0, 9.0, 1.0]).astype(np.float32) + np.triu(np.ones((3, 3)), 1))
    add("sqrtm", "sqrtm_batch_mixed", np.stack([spd((3, 3), np.float64), np.diag([1.0, -2.0, 3.0])]))
    add("sqrtm", "sqrtm_zero", np.zeros((3, 3)))
    # singular (upper triangular: SciPy skips the Schur step): its recursion's inf/NaN patterns
    add("sqrtm", "sqrtm_zero_n5", np.zeros((5, 5)))
    add("sqrtm", "sqrtm_zero_diag_triu", np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]]))
    add("sqrtm", "sqrtm_zero_batch_mixed", np.stack([np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),
                                                     np.zeros((3, 3)), np.diag([0.0, 1.0, 0.0])]))
    add("sqrtm", "sqrtm_int", np.array([[4, 1], [1, 3]]))
    add("sqrtm", "sqrtm_1x1_neg", np.array([[-4.0]]))
    add("sqrtm", "sqrtm_1x1_batch_f32", np.array([[[-4.0]], [[4.0]]], np.float32))
    add("sqrtm", "sqrtm_1x1_pos", np.array([[9.0]]))
    add("sqrtm", "sqrtm_0d", np.array(2.0))
    add("sqrtm", "sqrtm_1d_size1", np.array([-1.0]))
    add("sqrtm", "sqrtm_empty", np.zeros((0, 0)))
    add("sqrtm", "sqrtm_empty_f32", np.zeros((2, 0, 0), np.float32))
    add("sqrtm", "sqrtm_empty_c64", np.zeros((0, 0), np.complex64))
    add("sqrtm", "sqrtm_F", spd((6, 6), np.complex128), layout="F")
    add("sqrtm", "sqrtm_strided", spd((2, 5, 5), np.float64), layout="strided")
    add("sqrtm", "sqrtm_n64", spd((64, 64), np.float64), cond=10.0)
    add("sqrtm", "sqrtm_1d", np.ones(3))
    add("sqrtm", "sqrtm_nonsquare", np.ones((2, 3)))

    suite.group("logm")
    for dn, dt in DT.items():
        for n in [1, 2, 5, 12]:
            add("logm", f"logm_{dn}_spd_n{n}", spd((n, n), dt))
            add("logm", f"logm_{dn}_gen_n{n}", shifted((n, n), dt, 1.0))
        add("logm", f"logm_{dn}_batch", spd((2, 2, 4, 4), dt))
    add("logm", "logm_negative_eig", np.array([[1.0, 2.0], [0.0, -1.0]]))
    add("logm", "logm_rotation", np.array([[0.0, -1.0], [1.0, 0.0]]) * 2)
    add("logm", "logm_near_identity", np.eye(4) + 1e-3 * rng.standard_normal((4, 4)))
    add("logm", "logm_large_norm", spd((5, 5), np.float64) * 1e3)
    add("logm", "logm_int", np.array([[2, 1], [1, 3]]))
    add("logm", "logm_F", shifted((6, 6), np.complex128, 1.0), layout="F")
    add("logm", "logm_strided", spd((3, 4, 4), np.float64), layout="strided")
    add("logm", "logm_batch_mixed", np.stack([spd((3, 3), np.float64), np.diag([1.0, -2.0, 3.0])]))
    add("logm", "logm_empty", np.zeros((0, 0)))
    add("logm", "logm_1d", np.ones(3))
    add("logm", "logm_nonsquare", np.ones((2, 3)))
    add("logm", "logm_nan", np.eye(2) * np.nan)
    add("logm", "logm_zero_batch", np.ones((0, 2, 2)))

    suite.group("funm")
    for dn, dt in DT.items():
        for fname in ["exp", "sin", "cos", "square"]:
            for n in [1, 3, 7]:
                add("funm", f"funm_{dn}_{fname}_n{n}", rand((n, n), dt).astype(dt) * 0.5, fname=fname, disp=True)
        add("funm", f"funm_{dn}_sqrt_spd", spd((5, 5), dt), fname="sqrt", disp=True)
        add("funm", f"funm_{dn}_batch_err", spd((2, 3, 3), dt), fname="log", disp=False)
    add("funm", "funm_rot_exp", np.array([[0.0, -1.0], [1.0, 0.0]]), fname="exp", disp=False)
    add("funm", "funm_triu_repeated", np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 4.0], [0.0, 0.0, 2.0]]),
        fname="exp", disp=False)
    add("funm", "funm_int", np.array([[1, 2], [3, 4]]), fname="exp", disp=True)
    add("funm", "funm_F", rand((5, 5), np.complex128) * 0.5, fname="exp", disp=True, layout="F")
    add("funm", "funm_strided", rand((2, 4, 4), np.float64) * 0.5, fname="sin", disp=True, layout="strided")
    add("funm", "funm_empty", np.zeros((0, 0)), fname="exp", disp=True)
    add("funm", "funm_1d", np.ones(3), fname="exp", disp=True)
    add("funm", "funm_nonsquare", np.ones((2, 3)), fname="exp", disp=True)

    suite.group("signm")
    for dn, dt in DT.items():
        for n in [1, 2, 5, 9]:
            x = rand((n, n), dt)
            d = np.where(rng.random(n) < 0.5, -3.0, 3.0)
            add("signm", f"signm_{dn}_n{n}", (x * 0.3 + np.diag(d)).astype(dt))
        add("signm", f"signm_{dn}_batch", (rand((2, 4, 4), dt) * 0.3 + np.diag([3.0, -3.0, 2.0, -2.0])).astype(dt))
    add("signm", "signm_spd", spd((4, 4), np.float64))
    add("signm", "signm_int", np.array([[3, 1], [0, -2]]))
    add("signm", "signm_empty", np.zeros((0, 0)))
    add("signm", "signm_nonsquare", np.ones((2, 3)))

    suite.group("fmp")
    for dn, dt in DT.items():
        for t in [0.5, -0.5, 1.5, 2.0, -1.0, 0.3, -2.7]:
            add("fractional_matrix_power", f"fmp_{dn}_spd_t{t}", spd((4, 4), dt), t=t)
        add("fractional_matrix_power", f"fmp_{dn}_gen", shifted((5, 5), dt, 1.0), t=0.7)
        add("fractional_matrix_power", f"fmp_{dn}_batch", spd((2, 3, 3), dt), t=0.25)
    add("fractional_matrix_power", "fmp_negative_eig", np.array([[1.0, 2.0], [0.0, -1.0]]), t=0.5)
    add("fractional_matrix_power", "fmp_rotation", np.array([[1.0, -2.0], [2.0, 1.0]]), t=1.5)
    add("fractional_matrix_power", "fmp_int_half", np.array([[2, 1], [1, 3]]), t=0.5)
    add("fractional_matrix_power", "fmp_int_square", np.array([[2, 1], [1, 3]]), t=2.0)
    add("fractional_matrix_power", "fmp_int_zero", np.array([[2, 1], [1, 3]]), t=0.0)
    add("fractional_matrix_power", "fmp_singular_pos", np.array([[1.0, 1.0], [1.0, 1.0]]), t=0.5)
    add("fractional_matrix_power", "fmp_singular_neg", np.array([[1.0, 1.0], [1.0, 1.0]]), t=-0.5)
    add("fractional_matrix_power", "fmp_singular_inv", np.array([[1.0, 1.0], [1.0, 1.0]]), t=-1.0)
    add("fractional_matrix_power", "fmp_F", spd((5, 5), np.complex128), t=0.4, layout="F")
    add("fractional_matrix_power", "fmp_n30", spd((30, 30), np.float64), t=0.6, cond=10.0)
    add("fractional_matrix_power", "fmp_empty_int_t", np.zeros((0, 0)), t=2.0)
    add("fractional_matrix_power", "fmp_empty", np.zeros((0, 0)), t=0.5)
    add("fractional_matrix_power", "fmp_nonsquare", np.ones((2, 3)), t=0.5)
    add("fractional_matrix_power", "fmp_nan", np.eye(2) * np.nan, t=0.5)

    suite.write()


if __name__ == "__main__":
    main()
