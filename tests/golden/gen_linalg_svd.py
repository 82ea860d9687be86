"""Reference data for cusci::linalg's SVD family (svd, svdvals, diagsvd, orth, null_space, subspace_angles,
orthogonal_procrustes, polar, pinv, lstsq), from scipy.linalg 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/linalg_svd/.

Inputs: <case>_a (and <case>_b). layout: C | F (the test makes Fortran-ordered device copies) | strided (the
stored inputs have their last axis doubled and the test takes the view [..., ::2]).
Rank-deficient inputs of the rank-revealing functions (orth, null_space, pinv, lstsq) pass an explicit
threshold far above rounding noise (rcond / rtol / cond), so both implementations count the same rank.
Singular vectors are not unique, so svd stores expected_s and the shapes (u_shape, vh_shape); the test
checks u @ diag(s) @ vh against the input and the orthonormality of u and vh. orth and null_space store
the projector Q Q^H (unique) and the column count; the others store SciPy's results (unique for the
inputs chosen: full rank where the result depends on vectors). error: value_error | lin_alg_error.
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite
from linalg_common import DT, rand_maker, storer

suite = Suite("linalg_svd")
rng = suite.rng(20261204)
rand = rand_maker(rng)
stored = storer(suite)


def low_rank(shape, rank, dt):
    """A batch of matrices of the given rank (exact zeros in the spectrum up to rounding)."""
    m, n = shape[-2:]
    left = rand(shape[:-2] + (m, rank), np.complex128 if np.dtype(dt).kind == "c" else np.float64)
    right = rand(shape[:-2] + (rank, n), left.dtype)
    return (left @ right).astype(dt)


def tol(dt, scale=1.0, n=1):
    """rtol, atol for results computed in dt (the Jacobi kernel and LAPACK differ by rounding)."""
    rdt = np.finfo(np.dtype(dt)).dtype if np.dtype(dt).kind in "fc" else np.float64
    e = float(np.finfo(rdt).eps)
    t = 50 * e * max(1, n)
    return float(f"{t:.3g}"), float(f"{t * max(1.0, float(scale)):.3g}")


def call(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return f(), None
    except np.linalg.LinAlgError:
        return None, "lin_alg_error"
    except ValueError:
        return None, "value_error"


def add_svd(case, a, layout="C", full_matrices=True, compute_uv=True, check_finite=True, lapack_driver="gesdd",
            func="svd"):
    if func == "svd":
        r, err = call(lambda: sl.svd(a, full_matrices=full_matrices, compute_uv=compute_uv,
                                     check_finite=check_finite, lapack_driver=lapack_driver))
    else:
        r, err = call(lambda: sl.svdvals(a, check_finite=check_finite))
    params = dict(a=stored(case, "a", a, layout), layout=layout, full_matrices=full_matrices, compute_uv=compute_uv,
                  check_finite=check_finite, lapack_driver=lapack_driver)
    rtol = atol = 0.0
    if r is not None:
        if func == "svd" and compute_uv:
            u, s, vh = r
            params["u_shape"] = list(u.shape)
            params["vh_shape"] = list(vh.shape)
            params["u_dtype"] = u.dtype.name
        else:
            s = r
        params["expected_s"] = suite.array(case + "_s", s)
        smax = float(np.abs(s).max()) if s.size else 1.0
        rtol, atol = tol(s.dtype, smax, int(np.sqrt(max(np.shape(a)[-2:]) or 1)))
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def add_plain(case, func, fn, arrays, layout="C", scale=1.0, n=1, **kw):
    """A function whose results are unique: stores expected_<i> for each output."""
    r, err = call(lambda: fn(*arrays, **kw))
    params = {f"in{i}": stored(case, f"in{i}", x, layout) for i, x in enumerate(arrays)}
    params.update(layout=layout, **{f"opt_{k}": v for k, v in kw.items()})
    rtol = atol = 0.0
    if r is not None:
        outs = tuple(r) if isinstance(r, (tuple, list)) else (r,)
        names = []
        for i, x in enumerate(outs):
            if x is None:
                names.append(None)
                continue
            x = np.asarray(x)
            names.append(suite.array(f"{case}_out{i}", x))
        params["expected"] = names
        dt = np.asarray(outs[0]).dtype
        if dt.kind not in "fc":
            dt = np.float64
        rtol, atol = tol(dt, scale, n)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def add_basis(case, func, a, layout="C", **kw):
    """orth / null_space: the projector Q Q^H and the column count."""
    fn = sl.orth if func == "orth" else sl.null_space
    r, err = call(lambda: fn(a, **kw))
    params = dict(a=stored(case, "a", a, layout), layout=layout, **kw)
    rtol = atol = 0.0
    if r is not None:
        params["ncols"] = int(r.shape[-1])
        params["expected_proj"] = suite.array(case + "_proj", r @ np.swapaxes(r, -1, -2).conj())
        rtol, atol = tol(r.dtype, 1.0, 8)
    suite.case(case, func=func, rtol=rtol, atol=atol, error=err, **params)


def main():
    suite.group("svd")
    shapes = [(1, 1), (3, 3), (5, 3), (3, 5), (8, 8), (17, 17), (32, 32), (33, 20), (20, 33), (64, 64)]
    for dn, dt in DT.items():
        for m, n in shapes:
            for bs in [(), (3,)]:
                a = rand(bs + (m, n), dt)
                add_svd(f"svd_{dn}_{m}x{n}_b{len(bs)}", a)
                add_svd(f"svd_{dn}_{m}x{n}_b{len(bs)}_econ", a, full_matrices=False)
        add_svd(f"svd_{dn}_novec", rand((2, 2, 7, 5), dt), compute_uv=False)
        add_svd(f"svdvals_{dn}", rand((2, 6, 9), dt), func="svdvals")
        add_svd(f"svd_{dn}_rankdef", low_rank((2, 9, 7), 3, dt))
        add_svd(f"svd_{dn}_rankdef_wide", low_rank((7, 12), 2, dt))
        add_svd(f"svd_{dn}_zero", np.zeros((4, 6), dt))
    # the batched-performance shape, tall/wide extremes, layouts, promotion
    add_svd("svd_f32_batch256_64", rand((256, 64, 64), np.float32), full_matrices=False)
    add_svd("svd_f64_tall_200x3", rand((2, 200, 3), np.float64))
    add_svd("svd_c128_wide_3x150", rand((3, 150), np.complex128), full_matrices=False)
    for lay in ["F", "strided"]:
        add_svd(f"svd_{lay}", rand((2, 10, 6), np.float64), layout=lay)
        add_svd(f"svd_{lay}_c64", rand((6, 10), np.complex64), layout=lay, full_matrices=False)
    add_svd("svd_int64", rng.integers(-5, 5, (4, 4)).astype(np.int64))
    add_svd("svd_int8", rng.integers(-5, 5, (3, 5)).astype(np.int8))
    add_svd("svd_bool", rng.integers(0, 2, (4, 3)).astype(bool))
    # the library path (too large for one block's shared memory), both drivers
    for drv in ["gesdd", "gesvd"]:
        add_svd(f"svd_lib_f64_300x200_{drv}", rand((300, 200), np.float64), lapack_driver=drv)
        add_svd(f"svd_lib_f64_200x300_econ_{drv}", rand((200, 300), np.float64), full_matrices=False,
                lapack_driver=drv)
        add_svd(f"svd_lib_c64_batch_{drv}", rand((2, 250, 180), np.complex64), full_matrices=False,
                lapack_driver=drv)
        add_svd(f"svd_lib_f32_novec_{drv}", rand((260, 260), np.float32), compute_uv=False, lapack_driver=drv)
    # singular values only on the library path, wide and batched (the calls of a batch share the scratch U and
    # V that Xgesvdp needs even without vectors); their own stream, so the inputs of the cases above and below
    # stay the same
    rand_lib = rand_maker(suite.rng(20261205))
    for drv in ["gesdd", "gesvd"]:
        add_svd(f"svd_lib_f64_novec_wide_batch_{drv}", rand_lib((2, 150, 210), np.float64), compute_uv=False,
                lapack_driver=drv)
    add_svd("svdvals_lib_c64_wide", rand_lib((240, 250), np.complex64), func="svdvals")
    # empty
    for shp in [(0, 3), (3, 0), (0, 0), (2, 0, 4), (0, 3, 3)]:
        add_svd(f"svd_empty_{'x'.join(map(str, shp))}", np.zeros(shp))
        add_svd(f"svd_empty_{'x'.join(map(str, shp))}_econ", np.zeros(shp), full_matrices=False)
    # errors
    bad = rand((4, 4), np.float64)
    bad[1, 2] = np.nan
    add_svd("svd_err_nan", bad)
    add_svd("svd_err_inf", np.array([[1.0, np.inf], [0.0, 1.0]]))
    add_svd("svd_err_1d", rand((4,), np.float64))

    suite.group("derived")
    for dn, dt in DT.items():
        add_plain(f"diagsvd_{dn}_mn", "diagsvd", sl.diagsvd, [rand((3,), dt)], M=3, N=5)
        add_plain(f"diagsvd_{dn}_nm", "diagsvd", sl.diagsvd, [rand((2, 3), dt)], M=5, N=3)
        add_basis(f"orth_{dn}", "orth", rand((2, 8, 5), dt))
        add_basis(f"orth_{dn}_rankdef", "orth", low_rank((9, 6), 2, dt), rcond=1e-4)
        add_basis(f"null_{dn}", "null_space", low_rank((2, 7, 9), 4, dt), rcond=1e-4)
        add_basis(f"null_{dn}_full", "null_space", rand((5, 5), dt))
        a = rand((2, 6, 4), dt)
        add_plain(f"pinv_{dn}", "pinv", lambda x, **k: sl.pinv(x, return_rank=True, **k), [a], scale=3)
        add_plain(f"pinv_{dn}_rankdef", "pinv", lambda x, **k: sl.pinv(x, return_rank=True, **k),
                  [low_rank((5, 8), 3, dt)], rtol=1e-4, scale=3, n=4)
        add_plain(f"polar_{dn}_right", "polar", sl.polar, [rand((2, 6, 4), dt)], side="right", scale=6)
        add_plain(f"polar_{dn}_left", "polar", sl.polar, [rand((4, 6), dt)], side="left", scale=6)
        add_plain(f"procrustes_{dn}", "orthogonal_procrustes", sl.orthogonal_procrustes,
                  [rand((2, 7, 4), dt), rand((2, 7, 4), dt)], scale=30, n=2)
        add_plain(f"angles_{dn}", "subspace_angles", sl.subspace_angles, [rand((8, 3), dt), rand((8, 2), dt)], n=4)
        for drv in ["gelsd", "gelsy", "gelss"]:
            add_plain(f"lstsq_{dn}_{drv}", "lstsq", sl.lstsq, [rand((9, 4), dt), rand((9,), dt)],
                      lapack_driver=drv, scale=10, n=4)
        add_plain(f"lstsq_{dn}_batch", "lstsq", sl.lstsq, [rand((2, 8, 3), dt), rand((2, 8, 2), dt)], scale=10,
                  n=4)
        add_plain(f"lstsq_{dn}_wide", "lstsq", sl.lstsq, [rand((3, 6), dt), rand((3, 2), dt)], scale=10, n=4)
    add_plain("lstsq_rankdef", "lstsq", sl.lstsq, [low_rank((8, 5), 2, np.float64), rand((8,), np.float64)],
              cond=1e-6, scale=10, n=4)
    add_plain("lstsq_cond", "lstsq", sl.lstsq, [rand((8, 5), np.float64), rand((8, 3), np.float64)], cond=0.3,
              scale=10, n=4)
    add_plain("lstsq_int", "lstsq", sl.lstsq, [rng.integers(-4, 5, (6, 3)), rng.integers(-4, 5, (6,))], scale=10,
              n=4)
    add_plain("pinv_atol_rtol", "pinv", lambda x, **k: sl.pinv(x, return_rank=True, **k), [rand((6, 6), np.float64)],
              atol=0.5, rtol=0.1, scale=3)
    add_plain("angles_batch", "subspace_angles", sl.subspace_angles,
              [rand((3, 7, 3), np.float64), rand((3, 7, 3), np.float64)], n=4)
    add_plain("angles_same", "subspace_angles", sl.subspace_angles,
              [np.eye(5)[:, :2], np.eye(5)[:, :2] @ np.array([[1.0, 2.0], [3.0, 1.0]])], n=4)
    add_plain("procrustes_F", "orthogonal_procrustes", sl.orthogonal_procrustes,
              [rand((6, 3), np.float64), rand((6, 3), np.float64)], layout="F", scale=30, n=2)
    add_plain("pinv_strided", "pinv", lambda x, **k: sl.pinv(x, return_rank=True, **k),
              [rand((3, 5, 4), np.complex128)], layout="strided", scale=3)
    add_plain("pinv_empty", "pinv", lambda x, **k: sl.pinv(x, return_rank=True, **k), [np.zeros((0, 3))])
    add_plain("lstsq_empty_n0", "lstsq", sl.lstsq, [np.zeros((3, 0)), np.ones((3,))])
    add_plain("polar_err_side", "polar", sl.polar, [np.eye(3)], side="up")
    add_plain("diagsvd_err", "diagsvd", sl.diagsvd, [np.ones(3)], M=4, N=5)
    add_plain("lstsq_err_rows", "lstsq", sl.lstsq, [np.ones((4, 3)), np.ones((5,))])
    add_plain("procrustes_err_shape", "orthogonal_procrustes", sl.orthogonal_procrustes,
              [np.ones((4, 3)), np.ones((4, 2))])
    add_plain("angles_err_rows", "subspace_angles", sl.subspace_angles, [np.ones((4, 3)), np.ones((5, 2))])
    suite.write()


if __name__ == "__main__":
    main()
