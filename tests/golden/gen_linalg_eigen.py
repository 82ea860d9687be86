"""Reference data for cusci::linalg's eigen family (eigh, eigvalsh, eig, eigvals, eig_banded,
eigvals_banded, eigh_tridiagonal, eigvalsh_tridiagonal, pinvh), from scipy.linalg 1.18.1 (format and
shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_eigen/.

Every case: func, the inputs as stored arrays (<case>_a, _b, _d, _e, _ab), layout C | F (the test makes
Fortran-ordered device copies) | strided (stored with the last axis doubled; the test takes [..., ::2]),
the options as SciPy's keywords, and error (a cusci exception name) or the expectations:
- expected_w: SciPy's eigenvalues. Symmetric problems: compared elementwise (ascending, unique).
  Nonsymmetric (eig, eigvals): compared as multisets per matrix (nearest match), and with
  homogeneous_eigvals as alpha / beta.
- Eigenvectors are not unique: a_full (and b_full, binv_full for type 3) hold the dense matrices the
  problem means (Hermitian matrix formed from the triangle read, the dense band / tridiagonal matrix;
  absent when the stored a / b already is that matrix, and always absent for eig),
  and the test checks the residual a v - w b v (per type) and the normalization v^H b v = I (v^H b^-1 v
  for type 3; unit columns for eig), scaled by the norms: res_tol is the allowed residual relative to
  ||a|| + |w| ||b|| (max-abs norms times n).
- v_dtype / vl_dtype / vr_dtype and v_cols: SciPy's dtypes and column counts of the vectors.
- pinvh: expected (SciPy's result) and expected_rank.
Tolerances: eps of the computation dtype times a margin, times the conditioning where it matters.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, run_scipy, storer

suite = Suite("linalg_eigen")
rng = suite.rng(20261203)


def is_c(dt):
    return np.issubdtype(np.dtype(dt), np.complexfloating)
rand = rand_maker(rng)
stored = storer(suite)


def herm(shape, dt):
    x = rand(shape, np.complex128 if is_c(dt) else np.float64)
    h = (x + np.conj(np.swapaxes(x, -1, -2))) / 2
    return h.astype(dt)


def posdef(shape, dt):
    n = shape[-1]
    x = rand(shape, np.complex128 if is_c(dt) else np.float64)
    p = x @ np.conj(np.swapaxes(x, -1, -2)) / max(n, 1) + np.eye(n)
    return p.astype(dt)


def with_spectrum(batch, lam, dt):
    """Hermitian matrices Q diag(lam) Q^H with random unitary Q (same spectrum for every batch entry)."""
    n = len(lam)
    q, _ = np.linalg.qr(rand(batch + (n, n), np.complex128 if is_c(dt) else np.float64))
    return (q @ (np.asarray(lam)[:, None] * np.conj(np.swapaxes(q, -1, -2)))).astype(dt)


def garbage_triangle(a, lower):
    """a with the triangle that is not read (and the diagonal's imaginary part) overwritten."""
    a = np.array(a)
    if a.ndim < 2 or a.shape[-1] == 0:
        return a
    n = a.shape[-1]
    mask = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    a[..., mask] = 77
    if is_c(a.dtype):
        idx = np.arange(n)
        a[..., idx, idx] = a[..., idx, idx].real + 5j
    return a


def full_from(a, lower):
    """The Hermitian matrix LAPACK sees from the triangle `lower` of a (diagonal made real)."""
    a = np.asarray(a).astype(np.complex128)
    t = np.tril(a) if lower else np.triu(a)
    d = np.real(np.diagonal(t, axis1=-2, axis2=-1))
    f = t + np.conj(np.swapaxes(t, -1, -2))
    n = a.shape[-1]
    idx = np.arange(n)
    f[..., idx, idx] = d
    return f


def eps(dt):
    d = np.dtype(dt)
    if d.kind not in "fc":
        d = np.dtype(np.float64)
    return float(np.finfo(d).eps)


def comp_dt(*arrays):
    """SciPy's LAPACK type of the inputs."""
    r = None
    for a in arrays:
        a = np.asarray(a)
        c = a.dtype
        if c.kind not in "fc":
            c = np.dtype(np.float32) if c.itemsize <= 2 or c.kind == "b" else np.dtype(np.float64)
        elif c == np.float16:
            c = np.dtype(np.float32)
        r = c if r is None else np.promote_types(r, c)
    return r


ERRORS = ((np.linalg.LinAlgError, "lin_alg_error"), (NotImplementedError, "not_implemented_error"),
          (TypeError, "type_error"), (ValueError, "value_error"))


def call(f):
    return run_scipy(f, ERRORS)


def amax(x):
    x = np.asarray(x)
    return float(np.abs(x).max()) if x.size else 1.0


# --- eigh / eigvalsh -----------------------------------------------------------------------------------

def add_eigh(case, a, b=None, layout="C", func="eigh", lower=True, eigvals_only=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None, cond_b=1.0):
    kw = dict(lower=lower, type=type, check_finite=check_finite, subset_by_index=subset_by_index,
              subset_by_value=subset_by_value, driver=driver)
    if func == "eigh":
        kw["eigvals_only"] = eigvals_only
        r, err = call(lambda: sl.eigh(a, b, **kw))
    else:
        r, err = call(lambda: sl.eigvalsh(a, b, **kw))
        eigvals_only = True
    params = dict(a=stored(case, "a", a, layout), layout=layout, lower=lower, eigvals_only=eigvals_only,
                  type=type, check_finite=check_finite, subset_by_index=subset_by_index,
                  subset_by_value=subset_by_value, driver=driver)
    if b is not None:
        params["b"] = stored(case, "b", b, layout)
    rtol = atol = 0.0
    if r is not None:
        w, v = (r, None) if eigvals_only else r
        params["expected_w"] = suite.array(case + "_w", w)
        cdt = comp_dt(a) if b is None else comp_dt(a, b)
        e = eps(cdt)
        n = np.shape(a)[-1]
        if n:
            af = full_from(a, lower)
            scale = amax(af) * max(1.0, cond_b)
        else:
            scale = 1.0
        rtol = 0.0
        atol = float(f"{max(100, 20 * n) * e * max(scale, amax(w)):.3g}")
        if v is not None:
            params["v_dtype"] = v.dtype.name
            params["v_cols"] = int(v.shape[-1])
            if n:
                # the dense matrices the problem means; absent when the stored input already is one
                if not np.array_equal(af, np.asarray(a).astype(np.complex128)):
                    params["a_full"] = suite.array(case + "_af", af)
                if b is not None:
                    bf = full_from(b, lower)
                    if not np.array_equal(bf, np.asarray(b).astype(np.complex128)):
                        params["b_full"] = suite.array(case + "_bf", bf)
                    if type == 3:
                        params["binv_full"] = suite.array(case + "_bi", np.linalg.inv(bf))
                params["res_tol"] = float(f"{max(200, 20 * n) * e * max(1.0, cond_b):.3g}")
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def eigh_cases():
    suite.group("eigh")
    for dn, dt in DT.items():
        for n in [1, 2, 5, 17, 33, 64, 100]:
            for bs in ([(), (3,)] if n <= 64 else [(), (2,)]):
                a = herm(bs + (n, n), dt)
                add_eigh(f"eigh_{dn}_n{n}_b{len(bs)}", a)
                add_eigh(f"eigh_{dn}_n{n}_b{len(bs)}_wo", a, eigvals_only=True)
        # lower / upper with garbage in the other triangle
        for lower in [True, False]:
            for n in [6, 40]:
                a = garbage_triangle(herm((2, n, n), dt), lower)
                add_eigh(f"eigh_{dn}_tri_n{n}_l{int(lower)}", a, lower=lower)
        # generalized, three types, both triangles, batched and broadcast b
        for typ in [1, 2, 3]:
            for n in [4, 40]:
                a = herm((2, n, n), dt)
                b = posdef((2, n, n), dt)
                cb = float(np.linalg.cond(b.astype(np.complex128)).max())
                add_eigh(f"eigh_{dn}_gen_t{typ}_n{n}", a, b, type=typ, cond_b=cb)
                add_eigh(f"eigh_{dn}_gen_t{typ}_n{n}_wo", a, b, type=typ, eigvals_only=True, cond_b=cb)
                lo = garbage_triangle(a, False)
                add_eigh(f"eigh_{dn}_gen_t{typ}_n{n}_up", lo, garbage_triangle(b, False), type=typ, lower=False,
                         cond_b=cb)
        b1 = posdef((5, 5), dt)
        add_eigh(f"eigh_{dn}_gen_bcast", herm((3, 5, 5), dt), b1, cond_b=float(np.linalg.cond(b1)))
    # subsets: index and value, one matrix (Xsyevdx path) and batches; every driver
    for dn, dt in [("f64", np.float64), ("c64", np.complex64), ("f32", np.float32)]:
        for n in [7, 50]:
            a = herm((n, n), dt)
            add_eigh(f"eigh_sub_idx_{dn}_n{n}", a, subset_by_index=[1, n - 2])
            add_eigh(f"eigh_sub_idx_{dn}_n{n}_one", a, subset_by_index=[n - 1, n - 1])
            add_eigh(f"eigh_sub_idx_{dn}_n{n}_evx", a, subset_by_index=[0, 2], driver="evx")
            add_eigh(f"eigh_sub_idx_{dn}_n{n}_wo", a, subset_by_index=[2, 4], eigvals_only=True)
            lam = np.linspace(-3, 3, n)
            s = with_spectrum((), lam + 0.01, dt)
            add_eigh(f"eigh_sub_val_{dn}_n{n}", s, subset_by_value=[-1.0, 2.0])
            add_eigh(f"eigh_sub_val_{dn}_n{n}_inf", s, subset_by_value=[-np.inf, 0.0])
            add_eigh(f"eigh_sub_val_{dn}_n{n}_none", s, subset_by_value=[10.0, 11.0])
            sb = with_spectrum((3,), lam + 0.01, dt)
            add_eigh(f"eigh_sub_val_{dn}_n{n}_batch", sb, subset_by_value=[-1.0, 2.0])
            add_eigh(f"eigh_sub_idx_{dn}_n{n}_batch", herm((2, n, n), dt), subset_by_index=[0, 3])
            b = posdef((n, n), dt)
            cb = float(np.linalg.cond(b.astype(np.complex128)))
            add_eigh(f"eigh_sub_gen_{dn}_n{n}", a, b, subset_by_index=[1, 3], cond_b=cb)
            add_eigh(f"eigh_sub_gen_{dn}_n{n}_t3", a, b, subset_by_index=[1, 3], type=3, cond_b=cb)
            add_eigh(f"eigh_sub_gen_{dn}_n{n}_batch", herm((2, n, n), dt), posdef((2, n, n), dt),
                     subset_by_index=[0, 1], driver="gvx", cond_b=10.0)
    a = herm((6, 6), np.float64)
    b = posdef((6, 6), np.float64)
    for drv in ["ev", "evd", "evr", "evx"]:
        add_eigh(f"eigh_driver_{drv}", a, driver=drv)
    for drv in ["gv", "gvd", "gvx"]:
        add_eigh(f"eigh_driver_{drv}", a, b, driver=drv, cond_b=10.0)
    # layouts
    for lay in ["F", "strided"]:
        for n in [5, 40]:
            add_eigh(f"eigh_{lay}_n{n}", herm((2, n, n), np.float64), layout=lay)
            add_eigh(f"eigh_{lay}_c128_n{n}", herm((n, n), np.complex128), layout=lay)
            add_eigh(f"eigh_{lay}_gen_n{n}", herm((n, n), np.float64), posdef((n, n), np.float64), layout=lay,
                     cond_b=10.0)
    # promotion
    ai = rng.integers(-5, 6, size=(4, 4))
    ai = (ai + ai.T)
    add_eigh("eigh_int32", ai.astype(np.int32))
    add_eigh("eigh_int8", ai.astype(np.int8))
    add_eigh("eigh_bool", np.array([[True, False], [False, True]]))
    add_eigh("eigh_f32_with_f64_b", herm((4, 4), np.float32), posdef((4, 4), np.float64), cond_b=10.0)
    add_eigh("eigh_f32_with_c64_b", herm((4, 4), np.float32), posdef((4, 4), np.complex64), cond_b=10.0)
    # edge cases and errors
    add_eigh("eigh_empty", np.zeros((0, 0)))
    add_eigh("eigh_empty_batch_mats", np.zeros((2, 0, 0), np.complex64))
    add_eigh("eigh_empty_int", np.zeros((0, 0), np.int32), eigvals_only=True)
    add_eigh("eigh_zero_batch", np.zeros((0, 3, 3)))
    add_eigh("eigh_1d", np.ones(3))
    add_eigh("eigh_rect", np.ones((3, 4)))
    nan = herm((4, 4), np.float64)
    nan[0, 3] = np.nan  # in the triangle not read: still an error
    add_eigh("eigh_nan", nan)
    add_eigh("eigh_nan_batch", np.stack([herm((4, 4), np.float64), nan]))
    add_eigh("eigh_inf_b", herm((3, 3), np.float64), np.diag([1.0, np.inf, 1.0]))
    add_eigh("eigh_b_not_pd", herm((4, 4), np.float64), np.diag([1.0, 2.0, -1.0, 3.0]))
    add_eigh("eigh_b_not_pd_batch", herm((2, 4, 4), np.float64), np.stack([np.eye(4), np.diag([1.0, 0.0, 1, 1])]))
    add_eigh("eigh_b_shape", herm((3, 3), np.float64), np.eye(4))
    add_eigh("eigh_b_rect", herm((3, 3), np.float64), np.ones((3, 4)))
    add_eigh("eigh_b_bcast", herm((2, 3, 3), np.float64), np.stack([np.eye(3)] * 3))
    add_eigh("eigh_bad_type", herm((3, 3), np.float64), np.eye(3), type=4)
    add_eigh("eigh_bad_idx", herm((3, 3), np.float64), subset_by_index=[0, 3])
    add_eigh("eigh_bad_idx_order", herm((3, 3), np.float64), subset_by_index=[2, 1])
    add_eigh("eigh_bad_val", herm((3, 3), np.float64), subset_by_value=[1.0, 1.0])
    add_eigh("eigh_both_subsets", herm((3, 3), np.float64), subset_by_index=[0, 1], subset_by_value=[0.0, 1.0])
    add_eigh("eigh_gvd_without_b", herm((3, 3), np.float64), driver="gvd")
    add_eigh("eigh_evr_with_b", herm((3, 3), np.float64), np.eye(3), driver="evr")
    add_eigh("eigh_evd_subset", herm((3, 3), np.float64), subset_by_index=[0, 1], driver="evd")
    add_eigh("eigh_gv_subset", herm((3, 3), np.float64), np.eye(3), subset_by_index=[0, 1], driver="gv")
    lam = np.array([1.0, 2.0, 3.0])
    uneven = np.stack([with_spectrum((), lam, np.float64), with_spectrum((), 10 * lam, np.float64)])
    add_eigh("eigh_uneven_value_subset", uneven, subset_by_value=[1.5, 4.0])
    add_eigh("eigh_nonfinite_unchecked", herm((3, 3), np.float64), check_finite=False)
    # eigvalsh
    for dn, dt in DT.items():
        add_eigh(f"eigvalsh_{dn}_n9", herm((2, 9, 9), dt), func="eigvalsh")
        add_eigh(f"eigvalsh_{dn}_gen_n9", herm((9, 9), dt), posdef((9, 9), dt), func="eigvalsh", cond_b=10.0)
        add_eigh(f"eigvalsh_{dn}_upper_n40", garbage_triangle(herm((40, 40), dt), False), func="eigvalsh",
                 lower=False)
    add_eigh("eigvalsh_sub", herm((8, 8), np.float64), func="eigvalsh", subset_by_index=[3, 5])
    add_eigh("eigvalsh_zero_batch", np.zeros((0, 2, 2)), func="eigvalsh")


# --- eig / eigvals -----------------------------------------------------------------------------------

def add_eig(case, a, b=None, layout="C", func="eig", left=False, right=True, check_finite=True,
            homogeneous_eigvals=False, cond=1.0):
    if func == "eig":
        r, err = call(lambda: sl.eig(a, b, left=left, right=right, check_finite=check_finite,
                                     homogeneous_eigvals=homogeneous_eigvals))
    else:
        r, err = call(lambda: sl.eigvals(a, b, check_finite=check_finite, homogeneous_eigvals=homogeneous_eigvals))
        left = right = False
    params = dict(a=stored(case, "a", a, layout), layout=layout, left=left, right=right,
                  check_finite=check_finite, homogeneous_eigvals=homogeneous_eigvals)
    if b is not None:
        params["b"] = stored(case, "b", b, layout)
    rtol = atol = 0.0
    if r is not None:
        r = r if isinstance(r, tuple) else (r,)
        w = r[0]
        params["expected_w"] = suite.array(case + "_w", w)
        k = 1
        if left:
            params["vl_dtype"] = r[k].dtype.name
            k += 1
        if right:
            params["vr_dtype"] = r[k].dtype.name
        n = np.shape(a)[-1]
        cdt = comp_dt(a) if b is None else comp_dt(a, b)
        e = eps(cdt)
        an = amax(a) if np.size(a) else 1.0
        atol = float(f"{max(1000, 50 * n) * e * an * cond:.3g}")
        if n and (left or right):
            params["res_tol"] = float(f"{max(1000, 50 * n) * e * cond:.3g}")
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def eig_cases():
    suite.group("eig")
    for dn, dt in DT.items():
        for n in [1, 2, 5, 16, 33, 64]:
            bs = (3,) if n <= 16 else ()
            a = rand(bs + (n, n), dt)
            add_eig(f"eig_{dn}_n{n}", a)
            add_eig(f"eig_{dn}_n{n}_lr", a, left=True)
            add_eig(f"eigvals_{dn}_n{n}", a, func="eigvals")
        add_eig(f"eig_{dn}_left_only", rand((2, 6, 6), dt), left=True, right=False)
        add_eig(f"eig_{dn}_hom", rand((6, 6), dt), homogeneous_eigvals=True)
        add_eig(f"eigvals_{dn}_hom", rand((2, 6, 6), dt), func="eigvals", homogeneous_eigvals=True)
        b = posdef((2, 6, 6), dt)
        add_eig(f"eig_{dn}_gen", rand((2, 6, 6), dt), b, cond=10.0)
        add_eig(f"eig_{dn}_gen_lr", rand((2, 6, 6), dt), b, left=True, cond=10.0)
        add_eig(f"eig_{dn}_gen_n40_lr", rand((40, 40), dt), posdef((40, 40), dt), left=True, cond=30.0)
        add_eig(f"eigvals_{dn}_gen", rand((6, 6), dt), b, func="eigvals", cond=10.0)
        add_eig(f"eig_{dn}_gen_hom", rand((6, 6), dt), b[0], homogeneous_eigvals=True, cond=10.0)
    # real input with only real eigenvalues: real vectors (SciPy's dtype rule), also in a batch
    s = herm((2, 5, 5), np.float64)
    add_eig("eig_real_spectrum", s, left=True)
    tri = np.triu(rand((4, 4), np.float32)) + np.diag([1.0, 2.0, 3.0, 4.0]).astype(np.float32)
    add_eig("eig_triangular_f32", tri)
    # one matrix of the batch has complex eigenvalues: complex vectors for all
    rot = np.array([[0.0, 1.0], [-1.0, 0.0]])
    add_eig("eig_mixed_batch", np.stack([np.diag([1.0, 2.0]), rot]), left=True)
    add_eig("eig_rotation", rot)
    for lay in ["F", "strided"]:
        add_eig(f"eig_{lay}", rand((2, 7, 7), np.float64), layout=lay, left=True)
        add_eig(f"eig_{lay}_c64", rand((7, 7), np.complex64), layout=lay)
    add_eig("eig_int", rng.integers(-4, 5, size=(4, 4)).astype(np.int32))
    add_eig("eig_int16", rng.integers(-4, 5, size=(4, 4)).astype(np.int16))
    add_eig("eig_gen_bcast", rand((3, 4, 4), np.float64), posdef((4, 4), np.float64), cond=10.0)
    # edge cases and errors
    add_eig("eig_empty", np.zeros((0, 0)))
    add_eig("eig_empty_c64_lr", np.zeros((0, 0), np.complex64), left=True)
    add_eig("eig_empty_batch", np.zeros((0, 3, 3), np.float32))
    add_eig("eig_empty_hom", np.zeros((2, 0, 0)), homogeneous_eigvals=True)
    add_eig("eig_1d", np.ones(3))
    add_eig("eig_rect", np.ones((3, 4)))
    nan = rand((3, 3), np.float64)
    nan[1, 2] = np.inf
    add_eig("eig_inf", nan)
    add_eig("eigvals_nan", np.stack([rand((3, 3), np.float64), nan]), func="eigvals")
    add_eig("eig_b_shape", rand((3, 3), np.float64), np.eye(4))
    add_eig("eig_b_rect", rand((3, 3), np.float64), np.ones((3, 4)))
    add_eig("eig_b_inf", rand((3, 3), np.float64), np.diag([1.0, np.inf, 1.0]))


# --- banded and tridiagonal -----------------------------------------------------------------------------

def band_of(a, u, lower):
    n = a.shape[-1]
    ab = np.zeros(a.shape[:-2] + (u + 1, n), a.dtype)
    for i in range(n):
        for j in range(n):
            if lower and 0 <= i - j <= u:
                ab[..., i - j, j] = a[..., i, j]
            if not lower and 0 <= j - i <= u:
                ab[..., u + i - j, j] = a[..., i, j]
    return ab


def dense_of_band(ab, lower):
    ab = np.asarray(ab).astype(np.complex128)
    u = ab.shape[-2] - 1
    n = ab.shape[-1]
    a = np.zeros(ab.shape[:-2] + (n, n), np.complex128)
    for i in range(n):
        for j in range(n):
            if lower and 0 <= i - j <= u:
                a[..., i, j] = ab[..., i - j, j]
            if not lower and 0 <= j - i <= u:
                a[..., i, j] = ab[..., u + i - j, j]
    return full_from(a, lower)


def add_banded(case, ab, func="eig_banded", layout="C", lower=False, eigvals_only=False, select="a",
               select_range=None, check_finite=True):
    if func == "eig_banded":
        r, err = call(lambda: sl.eig_banded(ab, lower=lower, eigvals_only=eigvals_only, select=select,
                                            select_range=select_range, check_finite=check_finite))
    else:
        r, err = call(lambda: sl.eigvals_banded(ab, lower=lower, select=select, select_range=select_range,
                                                check_finite=check_finite))
        eigvals_only = True
    params = dict(ab=stored(case, "ab", ab, layout), layout=layout, lower=lower, eigvals_only=eigvals_only,
                  select=select, select_range=None if select_range is None else [float(x) for x in select_range],
                  check_finite=check_finite)
    rtol = atol = 0.0
    if r is not None:
        w, v = (r, None) if eigvals_only else r
        params["expected_w"] = suite.array(case + "_w", w)
        n = np.shape(ab)[-1]
        e = eps(comp_dt(ab))
        atol = float(f"{max(100, 20 * n) * e * max(amax(ab), 1.0) * 4:.3g}")
        if v is not None:
            params["v_dtype"] = v.dtype.name
            params["v_cols"] = int(v.shape[-1])
            if np.size(ab):
                params["a_full"] = suite.array(case + "_af", dense_of_band(ab, lower))
                params["res_tol"] = float(f"{max(200, 20 * n) * e:.3g}")
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def add_tridiag(case, d, e, func="eigh_tridiagonal", layout="C", eigvals_only=False, select="a",
                select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"):
    if func == "eigh_tridiagonal":
        r, err = call(lambda: sl.eigh_tridiagonal(d, e, eigvals_only=eigvals_only, select=select,
                                                  select_range=select_range, check_finite=check_finite, tol=tol,
                                                  lapack_driver=lapack_driver))
    else:
        r, err = call(lambda: sl.eigvalsh_tridiagonal(d, e, select=select, select_range=select_range,
                                                      check_finite=check_finite, tol=tol,
                                                      lapack_driver=lapack_driver))
        eigvals_only = True
    params = dict(d=stored(case, "d", d, layout), e=stored(case, "e", e, layout), layout=layout,
                  eigvals_only=eigvals_only, select=select,
                  select_range=None if select_range is None else [float(x) for x in select_range],
                  check_finite=check_finite, tol=tol, lapack_driver=lapack_driver)
    rtol = atol = 0.0
    if r is not None:
        w, v = (r, None) if eigvals_only else r
        params["expected_w"] = suite.array(case + "_w", w)
        n = np.shape(d)[-1]
        ep = eps(comp_dt(d, e))
        atol = float(f"{max(100, 20 * n) * ep * max(amax(d), amax(e), 1.0) * 4:.3g}")
        if v is not None:
            params["v_dtype"] = v.dtype.name
            params["v_cols"] = int(v.shape[-1])
            dd = np.asarray(d).astype(np.complex128)
            ee = np.asarray(e).astype(np.complex128)
            bshape = np.broadcast_shapes(dd.shape[:-1], ee.shape[:-1])
            dd = np.broadcast_to(dd, bshape + dd.shape[-1:])
            ee = np.broadcast_to(ee, bshape + ee.shape[-1:])
            af = np.zeros(bshape + (n, n), np.complex128)
            idx = np.arange(n)
            af[..., idx, idx] = dd
            if n > 1:
                af[..., idx[:-1], idx[1:]] = ee
                af[..., idx[1:], idx[:-1]] = ee
            params["a_full"] = suite.array(case + "_af", af)
            params["res_tol"] = float(f"{max(200, 20 * n) * ep:.3g}")
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def banded_cases():
    suite.group("banded")
    for dn, dt in DT.items():
        for n, u in [(1, 0), (5, 1), (12, 3), (40, 5)]:
            for lower in [False, True]:
                a = herm((2, n, n), dt)
                ab = band_of(a, u, lower)
                add_banded(f"eb_{dn}_n{n}_u{u}_l{int(lower)}", ab, lower=lower)
                add_banded(f"evb_{dn}_n{n}_u{u}_l{int(lower)}", ab[0], func="eigvals_banded", lower=lower)
        a = herm((10, 10), dt)
        ab = band_of(a, 2, False)
        add_banded(f"eb_{dn}_sel_i", ab, select="i", select_range=[2, 5])
        add_banded(f"eb_{dn}_sel_v", band_of(with_spectrum((), np.linspace(-2, 2, 10) + 0.05, dt), 9, True),
                   lower=True, select="v", select_range=[-1.0, 1.0])
        add_banded(f"evb_{dn}_sel_i", ab, func="eigvals_banded", select="i", select_range=[0, 0])
    for lay in ["F", "strided"]:
        add_banded(f"eb_{lay}", band_of(herm((2, 9, 9), np.float64), 2, True), layout=lay, lower=True)
    add_banded("eb_int", np.array([[1, 2, 3, 4], [5, 5, 5, 0], [2, 2, 0, 0]]), lower=True)
    add_banded("eb_empty", np.zeros((2, 0)))
    add_banded("eb_1d", np.ones(4))
    add_banded("eb_zero_batch", np.zeros((0, 2, 4)))
    nan = band_of(herm((5, 5), np.float64), 1, False)
    nan[0, 0] = np.nan  # outside the band's meaningful part: SciPy still checks it
    add_banded("eb_nan", nan)
    add_banded("eb_nan_unchecked_vectors", nan, check_finite=False)  # vectors: SciPy always checks
    add_banded("eb_bad_range", band_of(herm((5, 5), np.float64), 1, False), select="i", select_range=[3, 1])
    add_banded("eb_range_oob", band_of(herm((5, 5), np.float64), 1, False), select="i", select_range=[0, 5])
    add_banded("eb_sel_v_equal", band_of(herm((5, 5), np.float64), 1, False), select="v", select_range=[1, 1])
    add_banded("eb_sel_v_inf", band_of(herm((5, 5), np.float64), 1, True), lower=True, select="v",
               select_range=[-np.inf, 0.5])
    add_banded("eb_no_range", band_of(herm((5, 5), np.float64), 1, False), select="v")

    suite.group("tridiagonal")
    for dn, dt in [("f32", np.float32), ("f64", np.float64)]:
        for n in [1, 2, 7, 30, 80]:
            d = rand((n,), dt)
            e = rand((max(n - 1, 0),), dt)
            add_tridiag(f"et_{dn}_n{n}", d, e)
            add_tridiag(f"evt_{dn}_n{n}", d, e, func="eigvalsh_tridiagonal")
        d = rand((3, 12), dt)
        e = rand((3, 11), dt)
        add_tridiag(f"et_{dn}_batch", d, e)
        add_tridiag(f"et_{dn}_bcast_e", d, e[0])
        add_tridiag(f"et_{dn}_sel_i", d[0], e[0], select="i", select_range=[2, 6])
        add_tridiag(f"evt_{dn}_sel_i", d, e, func="eigvalsh_tridiagonal", select="i", select_range=[0, 3])
        dd = np.linspace(-3, 3, 12).astype(dt)
        ee = np.full(11, 1e-3, dt)
        add_tridiag(f"et_{dn}_sel_v", dd, ee, select="v", select_range=[-1.2, 2.0])
        for drv in ["stemr", "stebz", "stev", "stevd"]:
            add_tridiag(f"et_{dn}_drv_{drv}", d[0], e[0], lapack_driver=drv)
        add_tridiag(f"evt_{dn}_sterf", d[0], e[0], func="eigvalsh_tridiagonal", lapack_driver="sterf")
    for lay in ["F", "strided"]:
        add_tridiag(f"et_{lay}", rand((2, 9), np.float64), rand((2, 8), np.float64), layout=lay)
    add_tridiag("et_int", np.array([2, 3, 4]), np.array([1, 1]))
    add_tridiag("et_1x1_int", np.array([2]), np.array([], dtype=np.int64))
    add_tridiag("et_1x1_sel_v_empty", np.array([2.0]), np.array([]), select="v", select_range=[5.0, 6.0])
    add_tridiag("et_1x1_sterf_vectors", np.array([2.0]), np.array([]), lapack_driver="sterf")
    add_tridiag("et_complex", np.ones(3, np.complex128), np.ones(2))
    add_tridiag("et_bad_len", np.ones(3), np.ones(3))
    add_tridiag("et_0d", np.array(1.0), np.ones(0))
    add_tridiag("et_bad_driver", np.ones(3), np.ones(2), lapack_driver="xyz")
    add_tridiag("et_sterf_vectors", np.ones(3), np.ones(2), lapack_driver="sterf")
    add_tridiag("et_sterf_select", np.ones(3), np.ones(2), func="eigvalsh_tridiagonal", lapack_driver="sterf",
                select="i", select_range=[0, 1])
    add_tridiag("et_stev_select", np.ones(3), np.ones(2), lapack_driver="stev", select="i", select_range=[0, 1])
    add_tridiag("et_sel_v_equal", np.ones(3), np.ones(2), select="v", select_range=[1.0, 1.0])
    add_tridiag("et_1x1_sel_v_equal", np.array([1.0]), np.ones(0), select="v", select_range=[1.0, 1.0])
    add_tridiag("et_inf", np.array([1.0, np.inf, 2.0]), np.ones(2))
    add_tridiag("et_zero_batch", np.ones((0, 3)), np.ones((0, 2)))
    add_tridiag("et_sel_i_float", np.ones(3), np.ones(2), select="i", select_range=[0.5, 1.0])


# --- pinvh ----------------------------------------------------------------------------------------

def add_pinvh(case, a, layout="C", atol=None, rtol=None, lower=True, return_rank=False, check_finite=True):
    r, err = call(lambda: sl.pinvh(a, atol=atol, rtol=rtol, lower=lower, return_rank=return_rank,
                                   check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, p_atol=atol, p_rtol=rtol, lower=lower,
                  return_rank=return_rank, check_finite=check_finite)
    t_rtol = t_atol = 0.0
    if r is not None:
        if return_rank:
            bm, rank = r
            params["expected_rank"] = suite.array(case + "_rank", np.asarray(rank, dtype=np.int64))
        else:
            bm = r
        params["expected"] = suite.array(case + "_x", bm)
        n = np.shape(a)[-1]
        e = eps(comp_dt(a))
        # the pseudo-inverse's sensitivity: 1 / (smallest kept |eigenvalue|)^2 relative to ||a||
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if n:
                w = np.linalg.eigvalsh(full_from(a, lower))
                keep = np.abs(w) > (atol or 0) + np.abs(w).max(axis=-1, keepdims=True) * (
                    rtol if rtol is not None else n * e)
                smin = np.where(keep, np.abs(w), np.inf).min()
                k = max(np.abs(w).max() / smin, 1.0) if np.isfinite(smin) else 1.0
            else:
                k = 1.0
        t_rtol = float(f"{max(200, 20 * n) * e * k:.3g}")
        t_atol = float(f"{t_rtol * max(amax(bm), 1e-30):.3g}")
    suite.case(case, func="pinvh", rtol=t_rtol, atol=t_atol, error=err, **params)


def pinvh_cases():
    suite.group("pinvh")
    for dn, dt in DT.items():
        for n in [1, 4, 20, 50]:
            bs = (3,) if n <= 20 else ()
            add_pinvh(f"pinvh_{dn}_n{n}", posdef(bs + (n, n), dt) - 0.5 * np.eye(n, dtype=dt))
        # rank deficient: rank 3 of 8
        x = rand((2, 8, 3), dt)
        rd = (x @ np.conj(np.swapaxes(x, -1, -2))).astype(dt)
        add_pinvh(f"pinvh_{dn}_rankdef", rd, return_rank=True)
        add_pinvh(f"pinvh_{dn}_upper", garbage_triangle(posdef((6, 6), dt), False), lower=False)
    spec = with_spectrum((), np.array([1e-3, 0.1, 1.0, 2.0, 5.0]), np.float64)
    add_pinvh("pinvh_atol", spec, atol=0.05, return_rank=True)
    add_pinvh("pinvh_rtol", spec, rtol=0.1, return_rank=True)
    add_pinvh("pinvh_single_rank", posdef((5, 5), np.float64), return_rank=True)
    for lay in ["F", "strided"]:
        add_pinvh(f"pinvh_{lay}", posdef((2, 7, 7), np.float64), layout=lay)
    add_pinvh("pinvh_int", np.array([[2, 1], [1, 2]], np.int32))
    add_pinvh("pinvh_zero", np.zeros((3, 3)), return_rank=True)
    add_pinvh("pinvh_empty", np.zeros((0, 0)))
    add_pinvh("pinvh_neg_atol", np.eye(3), atol=-1.0)
    add_pinvh("pinvh_neg_rtol", np.eye(3), rtol=-1e-3)
    add_pinvh("pinvh_rect", np.ones((3, 4)))
    nan = np.eye(3)
    nan[2, 0] = np.nan
    add_pinvh("pinvh_nan", nan)
    add_pinvh("pinvh_zero_batch", np.zeros((0, 3, 3)))


def main():
    eigh_cases()
    eig_cases()
    banded_cases()
    pinvh_cases()
    suite.write()


if __name__ == "__main__":
    main()
