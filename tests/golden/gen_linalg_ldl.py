"""Reference data for cusci::linalg.ldl, from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_ldl/.

Cases: func ldl; input <case>_a; layout C | F | strided (the stored input has its last axis doubled and the
test takes the view [..., ::2]); options lower, hermitian, check_finite. Expected: expected_lu, expected_d
(compared with rtol/atol), expected_perm (exactly), complex_warnings (how many ComplexWarnings SciPy issued);
or error: value_error. The entries of the triangle that is not read are garbage. Tolerances come from the
growth of the factors (3 significant digits).
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, storer

suite = Suite("linalg_ldl")
rng = suite.rng(20261204)
rand = rand_maker(rng)
stored = storer(suite)


def sym(shape, dt, hermitian, zero_diag=False):
    m = rand(shape, dt)
    a = m + (np.conj(np.swapaxes(m, -1, -2)) if hermitian else np.swapaxes(m, -1, -2))
    if zero_diag:  # forces 2x2 pivots
        n = shape[-1]
        a[..., np.arange(n), np.arange(n)] = 0
    return a.astype(dt)


def garbage(a, lower):
    a = a.copy()
    n = a.shape[-1]
    if n == 0:
        return a
    mask = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    a[..., mask] = 99
    return a


def add(case, a, layout="C", lower=True, hermitian=True, check_finite=True):
    caught = []
    error = None
    res = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = sl.ldl(a, lower=lower, hermitian=hermitian, check_finite=check_finite)
    except ValueError:
        error = "value_error"
    params = dict(a=stored(case, "a", a, layout))
    rtol = atol = 0.0
    if res is not None:
        lu, d, perm = res
        params["expected_lu"] = suite.array(case + "_lu", lu)
        params["expected_d"] = suite.array(case + "_d", d)
        params["expected_perm"] = suite.array(case + "_perm", perm)
        eps = float(np.finfo(lu.dtype).eps) if lu.size else 1e-7
        growth = max(1.0, float(np.abs(lu).max()) if lu.size else 1.0) ** 2
        scale = max(1.0, float(np.abs(d).max()) if d.size else 1.0)
        n = a.shape[-1] if np.ndim(a) >= 2 else 1
        rtol = 200 * eps * growth * max(n, 1)
        atol = rtol * scale
    nwarn = sum(1 for w in caught if issubclass(w.category, np.exceptions.ComplexWarning))
    suite.case(case, func="ldl", rtol=float(f"{rtol:.3g}"), atol=float(f"{atol:.3g}"), error=error, layout=layout,
               lower=lower, hermitian=hermitian, check_finite=check_finite, complex_warnings=nwarn, **params)


def main():
    suite.group("ldl")
    for dn, dt in DT.items():
        cplx = dn.startswith("c")
        for n in [1, 2, 3, 5, 8, 33, 70]:
            for lower in [True, False]:
                for herm in ([True, False] if cplx else [True]):
                    bs = (2, 2) if n <= 8 else ((2,) if n <= 33 else ())
                    a = sym(bs + (n, n), dt, herm)
                    if cplx and herm:
                        idx = np.arange(n)
                        a[..., idx, idx] = a[..., idx, idx].real  # no ComplexWarning here
                    add(f"ldl_{dn}_n{n}_l{int(lower)}_h{int(herm)}", garbage(a, lower), lower=lower, hermitian=herm)
        for n in [4, 9, 40]:
            for lower in [True, False]:
                a = sym((2, n, n), dt, True, zero_diag=True)
                add(f"ldl_2x2_{dn}_n{n}_l{int(lower)}", garbage(a, lower), lower=lower)
    # layouts
    for dn in ["f64", "c128"]:
        for n in [6, 40]:
            for lay in ["F", "strided"]:
                for lower in [True, False]:
                    a = sym(((3,) if n < 40 else ()) + (n, n), DT[dn], dn == "c128", zero_diag=(n == 6))
                    add(f"ldl_{lay}_{dn}_n{n}_l{int(lower)}", garbage(a, lower), layout=lay, lower=lower)
    # SciPy's own example; a singular matrix (no error); the identity
    add("ldl_example", np.array([[2., -1., 3.], [0., 2., 0.], [0., 0., 1.]]), lower=False)
    add("ldl_zeros", np.zeros((3, 3)))
    add("ldl_eye_f32", np.eye(4, dtype=np.float32))
    # complex Hermitian input with imaginary diagonal parts: one ComplexWarning per such slice
    a = sym((3, 4, 4), np.complex128, True)
    a[0, 1, 1] += 0.5j
    a[2, 0, 0] -= 2j
    add("ldl_imag_diag", a)
    add("ldl_imag_diag_sym", a, hermitian=False)
    # promotion (SciPy's LAPACK type choice)
    ai = (rng.integers(-3, 4, size=(4, 4)))
    ai = ai + ai.T
    add("ldl_int64", ai.astype(np.int64))
    add("ldl_int16", ai.astype(np.int16))
    add("ldl_scalar", np.array(3.0))
    add("ldl_1x1_batch", rand((3, 1, 1), np.float64))
    # errors
    add("ldl_not_square", rand((3, 4), np.float64))
    add("ldl_vector", rand((3,), np.float64))
    add("ldl_zero_batch", np.zeros((0, 3, 3)))
    nan = sym((5, 5), np.float64, False)
    nan[4, 0] = np.nan  # in the triangle that is read
    add("ldl_nan", nan)
    add("ldl_inf_diag", np.where(np.eye(3) > 0, np.inf, 1.0))
    # empty
    add("ldl_empty_00", np.zeros((0, 0)))
    add("ldl_empty_200", np.zeros((2, 0, 0), np.complex64))
    suite.write()


if __name__ == "__main__":
    main()
