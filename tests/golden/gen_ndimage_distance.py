#!/usr/bin/env python
"""Reference data for cusci::ndimage's distance transforms (distance_transform_edt,
distance_transform_cdt, distance_transform_bf), computed with SciPy at build time
(tests/golden/golden.py):

    python tests/golden/gen_ndimage_distance.py --out <build>/tests/golden

Each case: func, input (array name), layout (C, F, step2, rev: tests/golden/ndimage_inputs.py) and
SciPy's parameters:
  sampling:          a number, a list, or absent (edt, bf);
  metric:            a name (cdt, bf), or metric_array: the name of a stored bool structure (cdt);
  return_distances, return_indices;
  dist_array / ind_array: a dtype name: a preallocated array of that dtype (zeros, or ind_fill) is
                     passed as distances= / indices=; dist_order / ind_order C or F; dist_shape /
                     ind_shape when its shape differs from the right one (error cases);
  ind_fill:          the value the preallocated indices array starts with (default 0).
Expected (array names): expected_distances / expected_indices for what SciPy returns, and
expected_dist_array / expected_ind_array for what the preallocated arrays hold afterwards. Error
cases name the cusci exception of SciPy's (RuntimeError -> runtime_error, ValueError -> value_error,
TypeError -> type_error).
"""
import numpy as np
import scipy.ndimage as ndi

from golden import Suite
from ndimage_inputs import view

s = Suite("ndimage_distance")
rng = s.rng(20261216)

FUNCS = {"distance_transform_edt": ndi.distance_transform_edt,
         "distance_transform_cdt": ndi.distance_transform_cdt,
         "distance_transform_bf": ndi.distance_transform_bf}
ERRORS = {RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error"}


def blobs(shape, p=0.5, smooth=1.0):
    """Seeded blob-like foreground: smoothed noise thresholded (boolean)."""
    a = rng.random(shape)
    if smooth > 0 and a.size:
        a = ndi.gaussian_filter(a, smooth)
    return a > np.quantile(a, 1 - p) if a.size else a > 0.5


def add(case, func, a, layout="C", sampling=None, metric=None, metric_array=None, return_distances=True,
        return_indices=False, dist_array=None, dist_order="C", dist_shape=None, ind_array=None, ind_order="C",
        ind_shape=None, ind_fill=0, expect_error=None):
    f = FUNCS[func]
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    kw = dict(return_distances=return_distances, return_indices=return_indices)
    if sampling is not None:
        kw["sampling"] = sampling
    if metric is not None:
        kw["metric"] = metric
    marr = None
    if metric_array is not None:
        marr = s.array(case + "_metric", metric_array)
        kw["metric"] = metric_array
    nd = max(x.ndim, 1) if func == "distance_transform_edt" else x.ndim
    xshape = x.shape if x.ndim or func != "distance_transform_edt" else (1,)
    dist = ind = None
    if dist_array is not None:
        dist = np.zeros(dist_shape if dist_shape is not None else xshape, dtype=dist_array, order=dist_order)
        kw["distances"] = dist
    if ind_array is not None:
        ind = np.full(ind_shape if ind_shape is not None else (nd,) + xshape, ind_fill, dtype=ind_array,
                      order=ind_order)
        kw["indices"] = ind
    error = None
    try:
        r = f(x, **kw)
    except Exception as e:  # noqa: BLE001: the exception kind is the reference
        error = next((v for k, v in ERRORS.items() if isinstance(e, k)), None)
        if error is None:
            raise
        if expect_error is not None and error != expect_error:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy raised {type(e).__name__}: {e}")
    else:
        if expect_error is not None:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy returned")
    params = dict(input=inp, layout=layout, sampling=sampling, metric=metric, metric_array=marr,
                  return_distances=return_distances, return_indices=return_indices, dist_array=dist_array,
                  dist_order=dist_order, dist_shape=list(dist_shape) if dist_shape is not None else None,
                  ind_array=ind_array, ind_order=ind_order,
                  ind_shape=list(ind_shape) if ind_shape is not None else None, ind_fill=ind_fill)
    if error is not None:
        s.case(case, func, error=error, **params)
        return
    want_d = return_distances and dist is None
    want_i = return_indices and ind is None
    out = list(r) if isinstance(r, tuple) else ([] if r is None else [r])
    assert len(out) == int(want_d) + int(want_i), case
    exp = {}
    if want_d:
        exp["expected_distances"] = s.array(case + "_dt", out[0])
    if want_i:
        exp["expected_indices"] = s.array(case + "_ft", out[-1])
    if dist is not None:
        exp["expected_dist_array"] = s.array(case + "_dta", dist)
    if ind is not None:
        exp["expected_ind_array"] = s.array(case + "_fta", ind)
    # Distances equal SciPy's bit for bit (same double expressions, correctly rounded sqrt).
    s.case(case, func, rtol=0.0, atol=0.0, **params, **exp)


EDT, CDT, BF = "distance_transform_edt", "distance_transform_cdt", "distance_transform_bf"

s.group("edt")
SHAPES = [(1,), (2,), (17,), (64,), (1, 1), (9, 13), (16, 16), (31, 7), (1, 12), (12, 1), (5, 6, 7),
          (8, 8, 8), (3, 1, 9), (3, 4, 2, 5)]
for shape in SHAPES:
    tag = "x".join(map(str, shape))
    for p in (0.3, 0.7, 0.95):
        a = blobs(shape, p)
        add(f"edt_{tag}_p{p}", EDT, a)
        add(f"edt_{tag}_p{p}_ind", EDT, a, return_indices=True)
    a = blobs(shape, 0.6)
    add(f"edt_{tag}_indonly", EDT, a, return_distances=False, return_indices=True)
    add(f"edt_{tag}_samp_scalar", EDT, a, sampling=1.5, return_indices=True)
    samp = [float(v) for v in np.round(rng.uniform(0.3, 3.0, len(shape)), 3)]
    add(f"edt_{tag}_samp_axes", EDT, a, sampling=samp, return_indices=True)
    for layout in ("F", "step2", "rev"):
        add(f"edt_{tag}_{layout}", EDT, a, layout=layout, return_indices=True)

s.group("edt_special")
# ties: symmetric patterns where several background elements are equally near
for shape in [(7,), (7, 7), (9, 9), (6, 6), (5, 5, 5), (8, 6, 4)]:
    tag = "x".join(map(str, shape))
    a = np.ones(shape, bool)
    a[tuple(0 for _ in shape)] = False
    a[tuple(n - 1 for n in shape)] = False
    add(f"edt_ties_corners_{tag}", EDT, a, return_indices=True)
    b = np.ones(shape, bool)
    b[tuple(slice(None, None, 4) for _ in shape)] = False
    add(f"edt_ties_grid_{tag}", EDT, b, return_indices=True)
    add(f"edt_ties_grid_{tag}_samp", EDT, b, sampling=[0.5 + 0.25 * k for k in range(len(shape))],
        return_indices=True)
    c = np.ones(shape, bool)
    c[tuple(n // 2 for n in shape)] = False
    add(f"edt_single_bg_{tag}", EDT, c, return_indices=True)
    add(f"edt_no_bg_{tag}", EDT, np.ones(shape, bool), return_indices=True)
    add(f"edt_no_bg_{tag}_samp", EDT, np.ones(shape, bool), sampling=2.0, return_indices=True)
    add(f"edt_no_fg_{tag}", EDT, np.zeros(shape, bool), return_indices=True)
    d = np.zeros(shape, bool)
    d[tuple(n // 2 for n in shape)] = True
    add(f"edt_single_fg_{tag}", EDT, d, return_indices=True)
# dtypes of the input (non-zero = foreground)
for dt in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float32", "float64", "complex64",
           "complex128"):
    a = (blobs((10, 11), 0.6) * rng.integers(1, 5, (10, 11))).astype(dt)
    add(f"edt_dtype_{dt}", EDT, a, return_indices=True)
fl = blobs((9, 9), 0.5).astype(np.float64)
fl[fl > 0] = np.nan
add("edt_nan_is_foreground", EDT, fl)
# special sampling values
for sv in (0.0, -1.5, 1e-3, 1e6):
    add(f"edt_samp_{sv}", EDT, blobs((11, 12), 0.6), sampling=sv, return_indices=True)
add("edt_samp_zero_axis0", EDT, blobs((11, 12), 0.6), sampling=[0.0, 1.0], return_indices=True)
add("edt_0d_fg", EDT, np.array(1.0), return_indices=True)
add("edt_0d_bg", EDT, np.array(0), return_indices=True)
add("edt_empty", EDT, np.zeros((0, 4), bool), return_indices=True)
add("edt_empty_1d", EDT, np.zeros((0,), bool))
# preallocated outputs
for order in ("C", "F"):
    a = blobs((12, 10), 0.6)
    add(f"edt_prealloc_both_{order}", EDT, a, return_indices=True, dist_array="float64", dist_order=order,
        ind_array="int32", ind_order=order)
    add(f"edt_prealloc_dist_{order}", EDT, a, return_indices=True, dist_array="float64", dist_order=order)
    add(f"edt_prealloc_ind_{order}", EDT, a, return_indices=True, ind_array="int32", ind_order=order)
    add(f"edt_prealloc_3d_{order}", EDT, blobs((5, 6, 4), 0.6), sampling=[1.0, 2.0, 0.5], return_indices=True,
        dist_array="float64", dist_order=order, ind_array="int32", ind_order=order)
add("edt_prealloc_ind_only", EDT, blobs((7, 9), 0.6), return_distances=False, return_indices=True,
    ind_array="int32")
add("edt_prealloc_no_bg_fill", EDT, np.ones((4, 5), bool), return_indices=True, ind_array="int32", ind_fill=3)
add("edt_prealloc_no_bg_fill_3d", EDT, np.ones((2, 3, 4), bool), return_indices=True, ind_array="int32",
    ind_fill=-2, ind_order="F")

s.group("cdt")
STRUCTS = {
    "cross2": ndi.generate_binary_structure(2, 1),
    "full2": ndi.generate_binary_structure(2, 2),
    "diag2": np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], bool),
    "asym2": np.array([[1, 1, 0], [0, 1, 1], [0, 0, 0]], bool),
    "noleft2": np.array([[0, 1, 0], [0, 1, 1], [0, 1, 0]], bool),
    "leftonly2": np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]], bool),
    "centre2": np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], bool),
    "cross3": ndi.generate_binary_structure(3, 1),
    "mid3": ndi.generate_binary_structure(3, 2),
    "full3": ndi.generate_binary_structure(3, 3),
}
for shape in [(1,), (17,), (1, 1), (9, 13), (16, 16), (31, 7), (1, 12), (12, 1), (5, 6, 7), (3, 1, 9),
              (3, 4, 2, 5)]:
    tag = "x".join(map(str, shape))
    for metric in ("chessboard", "taxicab"):
        for p in (0.4, 0.9):
            a = blobs(shape, p)
            add(f"cdt_{tag}_{metric}_p{p}", CDT, a, metric=metric)
            add(f"cdt_{tag}_{metric}_p{p}_ind", CDT, a, metric=metric, return_indices=True)
    a = blobs(shape, 0.7)
    add(f"cdt_{tag}_cityblock", CDT, a, metric="cityblock", return_indices=True)
    add(f"cdt_{tag}_manhattan_indonly", CDT, a, metric="manhattan", return_distances=False, return_indices=True)
    for layout in ("F", "step2", "rev"):
        add(f"cdt_{tag}_{layout}", CDT, a, layout=layout, return_indices=True)
for name, st in STRUCTS.items():
    nd = st.ndim
    for shape in ([(15, 14), (1, 9), (20, 3)] if nd == 2 else [(6, 7, 5), (4, 1, 6)]):
        tag = "x".join(map(str, shape))
        a = blobs(shape, 0.75)
        add(f"cdt_struct_{name}_{tag}", CDT, a, metric_array=st, return_indices=True)
add("cdt_struct_1d_left", CDT, blobs((20,), 0.7), metric_array=np.array([1, 1, 0], bool), return_indices=True)
add("cdt_struct_1d_right", CDT, blobs((20,), 0.7), metric_array=np.array([0, 1, 1], bool), return_indices=True)
add("cdt_struct_1d_none", CDT, blobs((20,), 0.7), metric_array=np.array([0, 1, 0], bool), return_indices=True)

s.group("cdt_special")
for shape in [(7,), (7, 7), (6, 6), (5, 5, 5)]:
    tag = "x".join(map(str, shape))
    for metric in ("chessboard", "taxicab"):
        a = np.ones(shape, bool)
        a[tuple(0 for _ in shape)] = False
        a[tuple(n - 1 for n in shape)] = False
        add(f"cdt_ties_{tag}_{metric}", CDT, a, metric=metric, return_indices=True)
        c = np.ones(shape, bool)
        c[tuple(n // 2 for n in shape)] = False
        add(f"cdt_single_bg_{tag}_{metric}", CDT, c, metric=metric, return_indices=True)
        add(f"cdt_no_bg_{tag}_{metric}", CDT, np.ones(shape, bool), metric=metric, return_indices=True)
        add(f"cdt_no_fg_{tag}_{metric}", CDT, np.zeros(shape, bool), metric=metric, return_indices=True)
        d = np.zeros(shape, bool)
        d[tuple(n // 2 for n in shape)] = True
        add(f"cdt_single_fg_{tag}_{metric}", CDT, d, metric=metric, return_indices=True)
# long rows (several scan chunks of 4096 elements) and many rows
add("cdt_long_row", CDT, blobs((9000,), 0.9, smooth=20.0), metric="taxicab", return_indices=True)
add("cdt_long_rows_2d", CDT, blobs((3, 5000), 0.95, smooth=10.0), metric="chessboard", return_indices=True)
add("cdt_long_row_sparse_bg", CDT, np.arange(10000) % 4500 != 7, metric="taxicab", return_indices=True)
for dt in ("bool", "int8", "uint16", "int64", "float32", "float64", "complex128"):
    a = (blobs((10, 11), 0.6) * rng.integers(1, 5, (10, 11))).astype(dt)
    add(f"cdt_dtype_{dt}", CDT, a, return_indices=True)
add("cdt_empty", CDT, np.zeros((0, 4), bool), return_indices=True)
for order in ("C", "F"):
    a = blobs((12, 10), 0.6)
    add(f"cdt_prealloc_both_{order}", CDT, a, return_indices=True, dist_array="int32", dist_order=order,
        ind_array="int32", ind_order=order)
    add(f"cdt_prealloc_dist_{order}", CDT, a, metric="taxicab", dist_array="int32", dist_order=order)
    add(f"cdt_prealloc_ind_{order}", CDT, a, return_indices=True, ind_array="int32", ind_order=order)

s.group("bf")
for shape in [(1,), (17,), (1, 1), (9, 13), (16, 16), (1, 12), (12, 1), (5, 6, 7), (3, 1, 9), (3, 4, 2, 3)]:
    tag = "x".join(map(str, shape))
    for metric in ("euclidean", "taxicab", "chessboard"):
        for p in (0.4, 0.9):
            a = blobs(shape, p)
            add(f"bf_{tag}_{metric}_p{p}", BF, a, metric=metric, return_indices=True)
        a = blobs(shape, 0.7)
        add(f"bf_{tag}_{metric}_dist", BF, a, metric=metric)
        add(f"bf_{tag}_{metric}_indonly", BF, a, metric=metric, return_distances=False, return_indices=True)
        samp = [float(v) for v in np.round(rng.uniform(0.3, 3.0, len(shape)), 3)]
        add(f"bf_{tag}_{metric}_samp", BF, a, metric=metric, sampling=samp, return_indices=True)
    for layout in ("F", "step2", "rev"):
        add(f"bf_{tag}_{layout}", BF, blobs(shape, 0.7), layout=layout, return_indices=True)
add("bf_metric_case", BF, blobs((8, 9), 0.6), metric="ChessBoard", return_indices=True)
add("bf_metric_cityblock", BF, blobs((8, 9), 0.6), metric="cityblock", return_indices=True)
add("bf_metric_manhattan", BF, blobs((8, 9), 0.6), metric="MANHATTAN")
add("bf_samp_scalar", BF, blobs((8, 9), 0.6), sampling=0.75, return_indices=True)

s.group("bf_special")
for shape in [(7,), (7, 7), (6, 6), (5, 5, 5)]:
    tag = "x".join(map(str, shape))
    for metric in ("euclidean", "taxicab", "chessboard"):
        a = np.ones(shape, bool)
        a[tuple(0 for _ in shape)] = False
        a[tuple(n - 1 for n in shape)] = False
        add(f"bf_ties_{tag}_{metric}", BF, a, metric=metric, return_indices=True)
        add(f"bf_no_bg_{tag}_{metric}", BF, np.ones(shape, bool), metric=metric, return_indices=True)
        add(f"bf_no_fg_{tag}_{metric}", BF, np.zeros(shape, bool), metric=metric, return_indices=True)
        d = np.zeros(shape, bool)
        d[tuple(n // 2 for n in shape)] = True
        add(f"bf_single_fg_{tag}_{metric}", BF, d, metric=metric, return_indices=True)
add("bf_0d_fg", BF, np.array(1), return_indices=True)
add("bf_0d_bg", BF, np.array(0.0), return_indices=True)
add("bf_empty", BF, np.zeros((0, 4), bool), return_indices=True)
for dt in ("bool", "int16", "float32", "complex64"):
    a = (blobs((9, 10), 0.6) * rng.integers(1, 5, (9, 10))).astype(dt)
    add(f"bf_dtype_{dt}", BF, a, return_indices=True)
for order in ("C", "F"):
    a = blobs((12, 10), 0.6)
    add(f"bf_prealloc_both_{order}", BF, a, return_indices=True, dist_array="float64", dist_order=order,
        ind_array="int32", ind_order=order)
    add(f"bf_prealloc_u32_{order}", BF, a, metric="taxicab", dist_array="uint32", dist_order=order)

s.group("errors")
a = blobs((6, 7), 0.6)
for func in FUNCS:
    add(f"{func}_err_no_return", func, a, return_distances=False, expect_error="runtime_error")
    add(f"{func}_err_dist_without_flag", func, a, return_distances=False, return_indices=True,
        dist_array="float64" if func != CDT else "int32", expect_error="runtime_error")
    add(f"{func}_err_ind_without_flag", func, a, ind_array="int32", expect_error="runtime_error")
    add(f"{func}_err_both_flags", func, a, return_distances=False, return_indices=False,
        dist_array="float64", ind_array="int32", expect_error="runtime_error")
add("edt_err_samp_len", EDT, a, sampling=[1.0, 2.0, 3.0], expect_error="runtime_error")
add("edt_err_samp_short", EDT, a, sampling=[1.0], expect_error="runtime_error")
add("edt_err_ind_shape", EDT, a, return_indices=True, ind_array="int32", ind_shape=(2, 7, 6),
    expect_error="runtime_error")
add("edt_err_ind_dtype", EDT, a, return_indices=True, ind_array="int64", expect_error="runtime_error")
add("edt_err_dist_shape", EDT, a, dist_array="float64", dist_shape=(7, 6), expect_error="runtime_error")
add("edt_err_dist_dtype", EDT, a, dist_array="float32", expect_error="runtime_error")
add("cdt_err_metric_name", CDT, a, metric="Chessboard", expect_error="value_error")
add("cdt_err_metric_euclidean", CDT, a, metric="euclidean", expect_error="value_error")
add("cdt_err_metric_size", CDT, a, metric_array=np.ones((3, 5), bool), expect_error="value_error")
add("cdt_err_metric_size1", CDT, a, metric_array=np.ones((2, 2), bool), expect_error="value_error")
add("cdt_err_dist_dtype", CDT, a, dist_array="float64", expect_error="value_error")
add("cdt_err_dist_shape", CDT, a, dist_array="int32", dist_shape=(7, 6), expect_error="value_error")
add("cdt_err_ind_dtype", CDT, a, return_indices=True, ind_array="int64", expect_error="value_error")
add("cdt_err_ind_shape", CDT, a, return_indices=True, ind_array="int32", ind_shape=(2, 6, 6),
    expect_error="value_error")
add("cdt_err_0d", CDT, np.array(1), expect_error="type_error")
add("bf_err_metric", BF, a, metric="euclid", expect_error="runtime_error")
add("bf_err_samp_len", BF, a, sampling=[1.0, 2.0, 3.0], expect_error="runtime_error")
add("bf_err_dist_dtype", BF, a, dist_array="float32", expect_error="runtime_error")
add("bf_err_dist_dtype_taxicab", BF, a, metric="taxicab", dist_array="float64", expect_error="runtime_error")
add("bf_err_dist_shape", BF, a, dist_array="float64", dist_shape=(7, 6), expect_error="runtime_error")
add("bf_err_ind_dtype", BF, a, return_indices=True, ind_array="int64", expect_error="runtime_error")
add("bf_err_ind_shape", BF, a, return_indices=True, ind_array="int32", ind_shape=(2, 6, 6),
    expect_error="runtime_error")

s.write()
