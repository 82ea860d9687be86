"""Reference data for cusci::linalg's matrix equation solvers (solve_sylvester, solve_continuous_lyapunov,
solve_lyapunov, solve_discrete_lyapunov), from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_equations/.

Cases: func solve_sylvester (inputs <case>_a, _b, _q) | solve_continuous_lyapunov | solve_lyapunov
(_a, _q) | solve_discrete_lyapunov (_a, _q; method: null or a string) | solve_continuous_are |
solve_discrete_are (_a, _b, _q, _r; e and s: null or an array name; balanced). layout: C | F | strided (the
stored inputs have their last axis doubled; the test takes [..., ::2]). Expected: expected (the solutions
are unique for these inputs: no eigenvalue of a equals one of -b, no pair of a sums to zero, no pair of
the discrete a multiplies to one). error: value_error | lin_alg_error | index_error.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite, tol

suite = Suite("linalg_equations")
rng = suite.rng(20261205)
DT = {"f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dt), np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x


def shifted(shape, dt, shift):
    """Random square matrices with eigenvalues in the half plane Re > 0 (shift * sqrt(n) on the diagonal)."""
    n = shape[-1]
    x = rand(shape, dt) + shift * max(1.0, np.sqrt(n)) * np.eye(n)
    return x.astype(dt)


def stable(shape, dt, radius=0.8):
    """Random square matrices of spectral radius `radius` (discrete Lyapunov: unique solutions)."""
    x = rand(shape, dt)
    if x.size:
        r = np.abs(np.linalg.eigvals(x)).max(axis=-1)
        x = x * (radius / r)[..., None, None]
    return x.astype(dt)


def sym(shape, dt):
    x = rand(shape, dt)
    return ((x + np.swapaxes(x, -1, -2).conj()) / 2 + 3 * np.eye(shape[-1])).astype(dt)


def strided(x):
    full = np.empty(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    full[..., ::2] = x
    full[..., 1::2] = 12345
    return full


def stored(case, key, x, layout):
    x = np.asarray(x)
    return suite.array(f"{case}_{key}", strided(x) if layout == "strided" and x.ndim >= 1 else x)


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


def tols(r, single, cond=1.0):
    s = float(np.abs(r).max()) if np.size(r) else 1.0
    return tol(np.complex64 if single else np.float64, scale=s, rtol32=2e-3 * cond, rtol64=1e-9 * cond)


SINGLE = (np.float32, np.complex64, np.float16)

# A float64/complex128 reference that SciPy computes partly in single precision is accurate to float32
# precision only: float32's unit roundoff (6e-8) times an allowance for the problem's size and
# condition (n <= 12 here), as golden.tol's default for float32.
RTOL_F32_STEP = 2e-5


def is_single(*xs):
    return all(np.asarray(x).dtype in SINGLE for x in xs)


def single_step(func, arrays, method):
    """Whether SciPy 1.18.1 computes a step of `func` in single precision although the result is float64 or
    complex128 (not all inputs single): solve_sylvester's schur(a) and schur(b^H) and the Lyapunov solvers'
    schur(a) run in the precision of that input; solve_discrete_lyapunov's "direct" method (also the default
    for n < 10) forms np.kron(a, a.conj()) in a's precision before np.eye (float64) promotes it ("bilinear"
    adds np.eye first: float64 throughout)."""
    def single(k):
        return np.asarray(arrays[k]).dtype in SINGLE
    if func == "solve_sylvester":
        return single("a") or single("b")
    if func in ("solve_continuous_lyapunov", "solve_lyapunov"):
        return single("a")
    if func == "solve_discrete_lyapunov":
        a = np.asarray(arrays["a"])
        m = method if method != "absent" else None
        direct = (m is None and a.ndim >= 2 and a.shape[-1] < 10) or (m is not None and m.lower() == "direct")
        return single("a") and direct
    return False


def add(func, case, layout="C", cond=1.0, **arrays):
    f = getattr(sl, func)
    method = arrays.pop("method", "absent")
    if method != "absent":
        r, err = call(lambda: f(*arrays.values(), method=method))
    else:
        r, err = call(lambda: f(*arrays.values()))
    params = {k: stored(case, k, v, layout) for k, v in arrays.items()}
    params["layout"] = layout
    if method != "absent":
        params["method"] = method
    rtol = atol = 0.0
    if r is not None:
        params["expected"] = suite.array(case + "_x", r)
        single = is_single(*arrays.values()) and func != "solve_discrete_lyapunov"
        rtol, atol = tols(r, single, cond)
        if not single and single_step(func, arrays, method):
            rtol, atol = tol(np.complex64, scale=float(np.abs(r).max()) if np.size(r) else 1.0,
                             rtol32=RTOL_F32_STEP * cond)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def add_are(func, case, a, b, q, r, e=None, s=None, balanced=True, layout="C"):
    f = getattr(sl, func)
    res, err = call(lambda: f(a, b, q, r, e=e, s=s, balanced=balanced))
    params = {k: stored(case, k, v, layout) for k, v in dict(a=a, b=b, q=q, r=r).items()}
    params.update(layout=layout, balanced=balanced,
                  e=None if e is None else stored(case, "e", e, layout),
                  s=None if s is None else stored(case, "s", s, layout))
    rtol = atol = 0.0
    if res is not None:
        params["expected"] = suite.array(case + "_x", res)
        rtol, atol = tols(res, False, 100.0)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def are_inputs(m, n, dt, batch=()):
    a = rand(batch + (m, m), dt).astype(dt)
    b = rand(batch + (m, n), dt).astype(dt)
    c = rand(batch + (m, m), dt)
    q = (np.swapaxes(c, -1, -2).conj() @ c / m + np.eye(m)).astype(dt)
    r = sym(batch + (n, n), dt)
    return a, b, q, r


def main():
    suite.group("sylvester")
    for dn, dt in DT.items():
        for m, n in [(1, 1), (3, 2), (5, 7), (12, 9)]:
            add("solve_sylvester", f"syl_{dn}_{m}x{n}", a=shifted((m, m), dt, 2.0), b=shifted((n, n), dt, 2.0),
                q=rand((m, n), dt).astype(dt))
        add("solve_sylvester", f"syl_{dn}_batch", a=shifted((2, 3, 4, 4), dt, 2.0), b=shifted((3, 3, 3), dt, 2.0),
            q=rand((2, 1, 4, 3), dt).astype(dt))
    # mixed dtypes (real symmetric a and b keep ztrsyl's reading of a real factor exact)
    add("solve_sylvester", "syl_mixed_f32_f64", a=shifted((4, 4), np.float32, 2.0), b=shifted((3, 3), np.float32, 2.0),
        q=rand((4, 3), np.float64))
    add("solve_sylvester", "syl_mixed_real_complex", a=sym((4, 4), np.float64), b=sym((3, 3), np.float64),
        q=rand((4, 3), np.complex128))
    add("solve_sylvester", "syl_int", a=np.array([[3, 1], [0, 4]]), b=np.array([[2, 1], [1, 5]]),
        q=np.array([[1, 2], [3, 4]]))
    for lay in ["F", "strided"]:
        # real a with complex b: symmetric a (see the mixed case above); a nonsymmetric real a has 2 x 2
        # blocks in its real Schur form, which SciPy's ztrsyl reads as triangular: its result (and cusci's,
        # which follows it) then does not solve the equation.
        add("solve_sylvester", f"syl_{lay}", layout=lay, a=sym((2, 5, 5), np.float64),
            b=shifted((4, 4), np.complex128, 2.0), q=rand((5, 4), np.complex128))
    add("solve_sylvester", "syl_n40", a=shifted((40, 40), np.float64, 2.0), b=shifted((30, 30), np.float64, 2.0),
        q=rand((40, 30), np.float64), cond=10.0)
    # empty and errors
    add("solve_sylvester", "syl_empty_a", a=np.zeros((0, 0)), b=shifted((2, 2), np.float64, 2.0), q=np.zeros((0, 2)))
    add("solve_sylvester", "syl_empty_f32", a=np.zeros((0, 0), np.float32), b=np.zeros((0, 0), np.float32),
        q=np.zeros((0, 0), np.float32))
    add("solve_sylvester", "syl_nonsquare_a", a=np.ones((2, 3)), b=np.eye(2), q=np.ones((2, 2)))
    add("solve_sylvester", "syl_q_mismatch", a=np.eye(3) * 2, b=np.eye(2), q=np.ones((2, 3)))
    a_nan = np.eye(3)
    a_nan[1, 2] = np.nan
    add("solve_sylvester", "syl_nan", a=a_nan, b=np.eye(2), q=np.ones((3, 2)))
    add("solve_sylvester", "syl_zero_batch", a=np.ones((0, 2, 2)), b=np.eye(2), q=np.ones((2, 2)))

    suite.group("lyapunov")
    for func in ["solve_continuous_lyapunov", "solve_lyapunov"]:
        short = "clyap" if func.startswith("solve_cont") else "lyap"
        for dn, dt in DT.items():
            for n in [1, 2, 6, 11]:
                add(func, f"{short}_{dn}_n{n}", a=shifted((n, n), dt, 2.0), q=sym((n, n), dt))
            add(func, f"{short}_{dn}_batch", a=shifted((3, 4, 4), dt, 2.0), q=sym((2, 1, 4, 4), dt))
        add(func, f"{short}_nonsym_q", a=shifted((5, 5), np.float64, 2.0), q=rand((5, 5), np.float64))
    add("solve_continuous_lyapunov", "clyap_int", a=np.array([[-3, 1], [0, -2]]), q=np.array([[1, 0], [0, 2]]))
    add("solve_continuous_lyapunov", "clyap_1d", a=np.array([2.0]), q=np.array([3.0]))
    add("solve_continuous_lyapunov", "clyap_0d", a=np.array(2.0), q=np.array(3.0))
    add("solve_continuous_lyapunov", "clyap_F", layout="F", a=shifted((6, 6), np.complex128, 2.0),
        q=sym((6, 6), np.complex128))
    add("solve_continuous_lyapunov", "clyap_strided", layout="strided", a=shifted((2, 5, 5), np.float64, 2.0),
        q=sym((5, 5), np.float64))
    add("solve_continuous_lyapunov", "clyap_n50", a=shifted((50, 50), np.float64, 2.0), q=sym((50, 50), np.float64),
        cond=10.0)
    add("solve_continuous_lyapunov", "clyap_empty", a=np.zeros((0, 0)), q=np.zeros((0, 0)))
    add("solve_continuous_lyapunov", "clyap_empty_c64", a=np.zeros((0, 0), np.complex64),
        q=np.zeros((0, 0), np.complex64))
    add("solve_continuous_lyapunov", "clyap_nonsquare_a", a=np.ones((2, 3)), q=np.eye(2))
    add("solve_continuous_lyapunov", "clyap_nonsquare_q", a=np.eye(2), q=np.ones((2, 3)))
    add("solve_continuous_lyapunov", "clyap_shape_mismatch", a=np.eye(2), q=np.eye(3))
    qn = np.eye(2)
    qn[0, 0] = np.inf
    add("solve_continuous_lyapunov", "clyap_inf_q", a=np.eye(2), q=qn)
    add("solve_continuous_lyapunov", "clyap_zero_batch", a=np.ones((0, 2, 2)), q=np.eye(2))

    suite.group("discrete")
    for dn, dt in DT.items():
        for n in [1, 3, 12]:
            for method in [None, "direct", "bilinear"]:
                add("solve_discrete_lyapunov", f"dlyap_{dn}_n{n}_{method}", a=stable((n, n), dt),
                    q=sym((n, n), dt), method=method)
        add("solve_discrete_lyapunov", f"dlyap_{dn}_batch", a=stable((2, 3, 3), dt), q=sym((3, 3), dt), method=None)
    add("solve_discrete_lyapunov", "dlyap_upper", a=stable((4, 4), np.float64), q=sym((4, 4), np.float64),
        method="DIRECT")
    add("solve_discrete_lyapunov", "dlyap_bilinear_batch", a=stable((2, 1, 5, 5), np.complex128),
        q=sym((3, 5, 5), np.complex128), method="Bilinear")
    add("solve_discrete_lyapunov", "dlyap_int", a=np.array([[0, 1], [0, 0]]), q=np.array([[1, 0], [0, 1]]), method=None)
    add("solve_discrete_lyapunov", "dlyap_F", layout="F", a=stable((5, 5), np.float64), q=sym((5, 5), np.float64),
        method="direct")
    add("solve_discrete_lyapunov", "dlyap_strided", layout="strided", a=stable((2, 4, 4), np.float64),
        q=sym((4, 4), np.float64), method="bilinear")
    add("solve_discrete_lyapunov", "dlyap_unknown", a=np.eye(2) * 0.5, q=np.eye(2), method="schur")
    add("solve_discrete_lyapunov", "dlyap_singular_bilinear", a=-np.eye(2), q=np.eye(2), method="bilinear")
    add("solve_discrete_lyapunov", "dlyap_singular_direct", a=np.eye(2), q=np.eye(2), method="direct")
    add("solve_discrete_lyapunov", "dlyap_zero_batch", a=np.ones((0, 2, 2)), q=np.eye(2), method=None)

    suite.group("are")
    for func in ["solve_continuous_are", "solve_discrete_are"]:
        short = "care" if func == "solve_continuous_are" else "dare"
        for dn, dt in DT.items():
            for m, n in [(1, 1), (3, 2), (6, 3)]:
                add_are(func, f"{short}_{dn}_{m}x{n}", *are_inputs(m, n, dt))
        add_are(func, f"{short}_batch", *are_inputs(4, 2, np.float64, (2, 3)))
        a, b, q, r = are_inputs(4, 2, np.float64)
        add_are(func, f"{short}_unbalanced", a, b, q, r, balanced=False)
        add_are(func, f"{short}_e", a, b, q, r, e=np.eye(4) + 0.1 * rng.standard_normal((4, 4)))
        add_are(func, f"{short}_s", a, b, q, r, s=0.05 * rng.standard_normal((4, 2)))
        add_are(func, f"{short}_e_s", a, b, q, r, e=np.eye(4) + 0.1 * rng.standard_normal((4, 4)),
                s=0.05 * rng.standard_normal((4, 2)))
        add_are(func, f"{short}_F", *are_inputs(5, 2, np.complex128), layout="F")
        add_are(func, f"{short}_scalars", np.array(1.0), np.array(1.0), np.array(2.0), np.array(1.0))
        add_are(func, f"{short}_badly_scaled", np.diag([1e-3, 1.0, 1e3]) @ a[:3, :3], b[:3] * 1e2,
                np.diag([1e4, 1.0, 1e-4]), r)
        add_are(func, f"{short}_nonsym_q", a, b, q + np.triu(np.ones((4, 4)), 1), r)
        add_are(func, f"{short}_nonsquare_a", np.ones((4, 3)), b, q, r)
        add_are(func, f"{short}_rows", a, b[:3], q, r)
        add_are(func, f"{short}_q_shape", a, b, q[:3, :3], r)
        add_are(func, f"{short}_r_cols", a, b, q, np.eye(3))
        add_are(func, f"{short}_e_shape", a, b, q, r, e=np.eye(3))
        add_are(func, f"{short}_s_shape", a, b, q, r, s=np.ones((4, 3)))
        add_are(func, f"{short}_singular_e", a, b, q, r, e=np.zeros((4, 4)))
        add_are(func, f"{short}_nan", a * np.nan, b, q, r)
    add_are("solve_continuous_are", "care_singular_r", a, b, q, np.zeros((2, 2)))
    # no solution: an uncontrollable mode on the unit circle
    add_are("solve_discrete_are", "dare_unit_circle", np.eye(2), np.zeros((2, 1)), np.zeros((2, 2)), np.eye(1))

    suite.write()


if __name__ == "__main__":
    main()
