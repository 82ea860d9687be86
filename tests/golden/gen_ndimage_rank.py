#!/usr/bin/env python
"""Golden data for cusci::ndimage's rank filters (rank_filter, median_filter, percentile_filter) from
SciPy 1.18.1: box sizes 1..7 (odd and even) in every mode, 3x3x3, non-box footprints, ranks (negative
too) and percentiles, origins, axes, every real dtype, NaN and infinity (both SciPy paths: the N-D
quickselect and the 1-D running mediator), layouts, output dtypes and arrays (in place too), sizes 0
and 1, and the error cases. Same case format as gen_ndimage.py (tests/golden/golden.py):

    python tests/golden/gen_ndimage_rank.py --out <build>/tests/golden

Case parameters: input (array), layout (C, F, step2, rev), size (int, list or null), footprint
(array name), rank (rank_filter), percentile (percentile_filter), mode (string or list), cval,
origin (int or list), axes, output (dtype name), output_array ({"dtype", "layout"}: C, F, rev,
step2 or "input" for in place), error (+ error_text).
"""
import functools

import numpy as np
import scipy.ndimage as ndi

from golden import Suite
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage_rank")
rng = s.rng(20261202)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap"]

# ties=True: integer-valued floats with repeated values (the selection among equal keys).
make_input = functools.partial(ndimage_inputs.make_input, rng, uint_max=250, int_max=120)


def call(func, x, kw):
    common = dict(size=kw.get("size"), footprint=kw.get("fp"), output=kw.get("out"), mode=kw.get("mode", "reflect"),
                  cval=kw.get("cval", 0.0), origin=kw.get("origin", 0), axes=kw.get("axes"))
    if func == "median_filter":
        return ndi.median_filter(x, **common)
    if func == "rank_filter":
        return ndi.rank_filter(x, kw["rank"], **common)
    return ndi.percentile_filter(x, kw["percentile"], **common)


def add(case, func, a, layout="C", error=None, error_text=None, footprint=None, output_array=None, **kw):
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    c = dict(kw)
    if kw.get("output") is not None:
        c["out"] = np.dtype(kw["output"])
    fp_name = None
    if footprint is not None:
        footprint = np.asarray(footprint)
        c["fp"] = footprint
        fp_name = s.array(case + "_fp", footprint.astype(np.bool_))
    if output_array is not None and error is None:
        # The values an output array receives are those of a new array of its dtype.
        c["out"] = np.dtype(output_array["dtype"]) if output_array["layout"] != "input" else None
    elif output_array is not None:
        c["out"] = np.empty(output_array.get("shape", a.shape), output_array["dtype"])
    expected = None
    if error is None:
        r = call(func, x, c)
        if x.ndim == 1 and x.size > 0 and footprint is None and not np.isnan(x.astype(np.float64)).any():
            # SciPy's 1-D path must agree with its N-D path on NaN-free data (else the case would
            # rest on the 1-D path's reads outside the array).
            c2 = dict(c)
            if isinstance(c2.get("size"), (list, tuple)):
                c2["size"] = [1] + list(c2["size"])
            elif c2.get("size") is not None:
                c2["size"] = [1, c2["size"]]
            if isinstance(c2.get("origin"), (list, tuple)):
                c2["origin"] = [0] + list(c2["origin"])
            elif "origin" in c2:
                c2["origin"] = [0, c2["origin"]]
            if x.dtype != np.float16 and c2.get("out") in (None, x.dtype) and not (
                    x.dtype.kind in "biu" and c2.get("mode") in ("constant", "grid-constant")):
                r2 = call(func, x[None, :], c2)[0]
                assert np.array_equal(r, r2), f"{case}: SciPy's 1-D and N-D paths differ"
        expected = s.array(case + "_out", r)
    else:
        try:
            call(func, x, c)
        except (ValueError, RuntimeError, TypeError, IndexError, OverflowError, np.exceptions.AxisError):
            pass
        else:
            raise AssertionError(f"{case}: SciPy accepted an error case")
    s.case(case, func, rtol=0.0, atol=0.0, error=error, error_text=error_text, input=inp, expected=expected,
           layout=layout, footprint=fp_name, output_array=output_array, **kw)


CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
DIAMOND5 = np.array([[abs(i - 2) + abs(j - 2) <= 2 for j in range(5)] for i in range(5)])
RAND43 = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]], bool)
CROSS3D = np.zeros((3, 3, 3), bool)
CROSS3D[1, 1, :] = CROSS3D[1, :, 1] = CROSS3D[:, 1, 1] = True

s.group("boxes")
# Box sizes 1..7 (odd: the register networks for 3, 5, 7; even: the generic kernel), every mode.
a64 = make_input((17, 19), "float64")
for size in range(1, 8):
    for mode in MODES:
        add(f"med_f64_s{size}_{mode}", "median_filter", a64, size=size, mode=mode, cval=1.25)
for dt in ("float32", "uint8"):
    a = make_input((21, 37), dt)
    for size in (3, 5, 7):
        for mode in MODES:
            add(f"med_{dt}_s{size}_{mode}", "median_filter", a, size=size, mode=mode, cval=3.0)
# Tiles: arrays larger than one 32 x 32 tile, partial edge tiles; lines shorter than the window.
for dt in ("float32", "uint8", "float64"):
    big = make_input((70, 67), dt)
    for size in (3, 5, 7):
        add(f"med_{dt}_big_s{size}", "median_filter", big, size=size, mode="mirror")
# 3x3 on tiles of 128 x 32 outputs: several tiles along both axes, partial edge tiles, and a 3-D
# array filtered over its last two axes (one tile row per plane); the origins shift the halo.
for dt in ("float32", "uint8", "float64"):
    wide = make_input((69, 263), dt, ties=(dt != "uint8"))
    for mode in ("reflect", "constant", "wrap"):
        add(f"med_{dt}_wide_s3_{mode}", "median_filter", wide, size=3, mode=mode, cval=1.0)
    add(f"med_{dt}_wide_s3_o", "median_filter", wide, size=3, origin=[-1, 1], mode="nearest")
    add(f"med_{dt}_wide_133", "median_filter", make_input((3, 37, 131), dt), size=[1, 3, 3], mode="mirror")
add("med_f32_short_s7", "median_filter", make_input((3, 5), "float32"), size=7, mode="reflect")
add("med_f32_short_s7_wrap", "median_filter", make_input((2, 4), "float32"), size=7, mode="wrap")
add("med_f64_rect", "median_filter", a64, size=[3, 5], mode="nearest")
add("med_f64_rect2", "median_filter", a64, size=[6, 2], mode="wrap")
# 3x3x3 and other 3-D boxes.
for dt in ("float32", "float64", "uint8"):
    a3 = make_input((9, 10, 35), dt)
    for mode in MODES:
        add(f"med3d_{dt}_{mode}", "median_filter", a3, size=3, mode=mode, cval=2.0)
    add(f"med3d_{dt}_155", "median_filter", a3, size=[1, 5, 5], mode="reflect")
a3 = make_input((6, 7, 8), "float64")
add("med3d_f64_s4", "median_filter", a3, size=4)
add("med3d_f64_s235", "median_filter", a3, size=[2, 3, 5], mode="mirror")
# 4-D (the generic N-D kernel).
add("med4d_f64", "median_filter", make_input((4, 5, 3, 6), "float64"), size=3)
add("rank4d_i32", "rank_filter", make_input((3, 4, 5, 3), "int32"), size=[2, 3, 3, 2], rank=7, mode="wrap")
# Long windows (per-thread scratch beyond 32 values).
add("med_f64_s9", "median_filter", make_input((30, 33), "float64"), size=9, mode="reflect")
add("rank_f32_s8x6", "rank_filter", make_input((25, 27), "float32"), size=[8, 6], rank=-11, mode="constant", cval=0.5)
add("pct_u16_s11", "percentile_filter", make_input((26, 24), "uint16"), size=11, percentile=30.0)

s.group("origins")
for size in (3, 4, 5):
    for origin in sorted({-(size // 2), -1, 0, (size - 1) // 2}):
        for mode in ("reflect", "constant", "wrap", "mirror"):
            add(f"med_origin_s{size}_o{origin}_{mode}", "median_filter", a64, size=size, origin=origin, mode=mode,
                cval=-2.0)
add("med_origin_list", "median_filter", a64, size=[3, 5], origin=[1, -2], mode="nearest")
add("med3d_origin", "median_filter", make_input((7, 8, 9), "float32"), size=3, origin=[-1, 0, 1])
add("rank_fp_origin", "rank_filter", a64, footprint=RAND43, rank=2, origin=[-2, 1], mode="mirror")

s.group("footprints")
for dt in ("float64", "float32", "uint8", "int16"):
    a = make_input((15, 16), dt)
    add(f"med_cross_{dt}", "median_filter", a, footprint=CROSS)
    add(f"med_diamond_{dt}", "median_filter", a, footprint=DIAMOND5, mode="wrap")
    add(f"med_rand43_{dt}", "median_filter", a, footprint=RAND43, mode="constant", cval=7.0)
add("med_cross3d", "median_filter", make_input((6, 7, 8), "float32"), footprint=CROSS3D, mode="nearest")
add("med_fp_allones", "median_filter", a64, footprint=np.ones((3, 3)))
add("med_fp_ints", "median_filter", a64, footprint=np.array([[2, 0, 1], [0, 3, 0], [1, 0, 5]]))
add("med_fp_single", "median_filter", a64, footprint=[[1]])
add("med_fp_row", "median_filter", a64, footprint=[[1, 1, 0, 1, 1]], mode="mirror")
# Ranks: first / last (delegated to minimum / maximum), negative, middle.
for rank in (0, 1, 4, 7, 8, -1, -2, -9):
    add(f"rank_s3_r{rank}", "rank_filter", a64, size=3, rank=rank, mode="reflect")
for rank in (0, 2, 4, -1, -3):
    add(f"rank_cross_r{rank}", "rank_filter", a64, footprint=CROSS, rank=rank, mode="constant", cval=100.0)
for rank in (0, 3, 6, 12, 24, -5):
    add(f"rank_s5_f32_r{rank}", "rank_filter", make_input((18, 20), "float32"), size=5, rank=rank)
add("rank_ties", "rank_filter", make_input((16, 17), "float64", ties=True), size=4, rank=5)
add("med_ties_f32", "median_filter", make_input((40, 40), "float32", ties=True), size=5)
# Percentiles.
for pct in (0.0, 10.0, 25.0, 33.3, 50.0, 75.0, 99.0, 100.0, -20.0, -100.0, -0.5):
    add(f"pct_{pct}", "percentile_filter", a64, size=[3, 4], percentile=pct)
add("pct_fp", "percentile_filter", a64, footprint=DIAMOND5, percentile=80.0, mode="nearest")
# Per-axis modes: accepted for the first and last ranks (SciPy delegates to minimum / maximum).
add("rank0_modes", "rank_filter", a64, size=3, rank=0, mode=["reflect", "wrap"])
add("rank_last_modes", "rank_filter", a64, size=[3, 2], rank=-1, mode=["constant", "nearest"], cval=50.0)

s.group("axes")
a3 = make_input((6, 7, 8), "float64")
add("med_axes_02", "median_filter", a3, size=[3, 5], axes=[0, 2])
add("med_axes_neg", "median_filter", a3, size=3, axes=[-1], mode="mirror")
add("med_axes_rev", "median_filter", a3, size=[5, 3], axes=[2, 0], origin=[1, -1], mode="wrap")
add("med_axes_fp", "median_filter", a3, footprint=CROSS, axes=[1, 2])
add("med_axes_fp_rev", "median_filter", a3, footprint=RAND43, axes=[2, 0])
add("rank_axes_1", "rank_filter", a3, size=4, rank=-1, axes=[1])
add("rank_axes_modes", "rank_filter", a3, size=[3, 3], rank=0, axes=[0, 1], mode=["nearest", "reflect"])
add("pct_axes", "percentile_filter", a3, size=[2, 3], axes=[1, 0], percentile=60.0)
add("med_axes_box_2d_of_3d", "median_filter", make_input((5, 20, 22), "float32"), size=[5, 5], axes=[1, 2])
add("med_axes_empty", "median_filter", a3, size=3, axes=[])

s.group("dtypes")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]
for dt in DTYPES:
    a = make_input((13, 14), dt)
    add(f"dt_med_{dt}", "median_filter", a, size=3)
    add(f"dt_med5_{dt}", "median_filter", a, size=5, mode="mirror")
    add(f"dt_rank_{dt}", "rank_filter", a, size=[2, 3], rank=2, mode="constant", cval=-1.0)
    add(f"dt_fp_{dt}", "median_filter", a, footprint=CROSS, mode="constant", cval=300.7)
    a1 = make_input((29,), dt)
    add(f"dt1d_med_{dt}", "median_filter", a1, size=5)
    add(f"dt1d_rank_{dt}", "rank_filter", a1, size=4, rank=1, mode="constant", cval=-1.0)
    add(f"dt1d_pct_{dt}", "percentile_filter", a1, size=3, percentile=50.0, mode="wrap")
add("dt1d_med_float16", "median_filter", make_input((21,), "float16"), size=3)
add("dt1d_rank_float16", "rank_filter", make_input((21,), "float16"), size=4, rank=2, mode="constant", cval=0.1)
# Output dtypes (C casts of the selected value).
for dt, out in [("float64", "float32"), ("float64", "int32"), ("uint8", "float64"), ("int16", "int32"),
                ("float32", "float64"), ("int32", "uint8"), ("float64", "int8")]:
    add(f"out_{dt}_{out}", "median_filter", make_input((11, 12), dt), size=3, output=out)
add("out_1d_i16_i32", "median_filter", make_input((20,), "int16"), size=3, output="int32")
add("out_1d_u8_f64", "rank_filter", make_input((20,), "uint8"), size=3, rank=0, output="float64")

s.group("nan_inf")
# N-D path: NaN placement decides the value through SciPy's quickselect.
for dt in ("float32", "float64"):
    a = make_input((24, 40), dt)
    a[rng.random(a.shape) < 0.08] = np.nan
    a[3, 5] = np.inf
    a[10, 20] = -np.inf
    a[0, 0] = np.nan
    a[23, 39] = np.nan
    for size in (2, 3, 4, 5, 7):
        add(f"nan_{dt}_s{size}", "median_filter", a, size=size, mode="reflect")
    for mode in MODES:
        add(f"nan_{dt}_s3_{mode}", "median_filter", a, size=3, mode=mode, cval=0.5)
    add(f"nan_{dt}_cross", "median_filter", a, footprint=CROSS)
    add(f"nan_{dt}_rank", "rank_filter", a, size=3, rank=2)
    add(f"nan_{dt}_rankneg", "rank_filter", a, size=5, rank=-3, mode="wrap")
    add(f"nan_{dt}_pct", "percentile_filter", a, size=[3, 5], percentile=70.0)
    # Ranks 0 and n - 1 (SciPy hands them to minimum_filter / maximum_filter: a box or an all-true
    # footprint as 1-D passes with SciPy's running list, any other footprint in its order), and
    # size-2 medians (rank 1 of 2: the maximum).
    for size in (2, 3, (4, 2), 31):
        sz = list(size) if isinstance(size, tuple) else size
        tag = "x".join(map(str, size)) if isinstance(size, tuple) else str(size)
        add(f"nan_{dt}_min_s{tag}", "rank_filter", a, size=sz, rank=0, mode="reflect")
        add(f"nan_{dt}_max_s{tag}", "rank_filter", a, size=sz, rank=-1, mode="nearest")
    for mode in MODES:
        add(f"nan_{dt}_min_{mode}", "rank_filter", a, size=3, rank=0, mode=mode, cval=np.nan)
        add(f"nan_{dt}_max_cross_{mode}", "rank_filter", a, footprint=CROSS, rank=4, mode=mode, cval=np.nan)
    add(f"nan_{dt}_median_s2", "median_filter", a, size=2)
    add(f"nan_{dt}_median_s2x1", "median_filter", a, size=[2, 1], mode="wrap")
    add(f"nan_{dt}_pct0_origin", "percentile_filter", a, size=[3, 4], percentile=0.0, origin=[1, -1])
    add(f"nan_{dt}_pct100_modes", "percentile_filter", a, size=[5, 3], percentile=100.0,
        mode=["constant", "mirror"], cval=np.nan)
    add(f"nan_{dt}_min_cross", "rank_filter", a, footprint=CROSS, rank=0, mode="constant", cval=-np.inf)
    add(f"nan3d_{dt}_max", "rank_filter", a3, size=(3, 2, 17), rank=-1, mode="mirror")
    add(f"nan_{dt}_cval", "median_filter", a, size=3, mode="constant", cval=np.nan)
    a3 = make_input((8, 9, 34), dt)
    a3[rng.random(a3.shape) < 0.05] = np.nan
    add(f"nan3d_{dt}", "median_filter", a3, size=3)
    add(f"nan3d_{dt}_constant", "median_filter", a3, size=3, mode="constant", cval=-1.0)
    # A few NaN only: most tiles NaN-free, the rest exact.
    b = make_input((70, 70), dt)
    b[5, 7] = np.nan
    b[40, 66] = np.nan
    for size in (3, 5, 7):
        add(f"nan_sparse_{dt}_s{size}", "median_filter", b, size=size)
    inf = make_input((20, 21), dt)
    inf[rng.random(inf.shape) < 0.2] = np.inf
    inf[rng.random(inf.shape) < 0.2] = -np.inf
    add(f"inf_{dt}_s3", "median_filter", inf, size=3)
    add(f"inf_{dt}_s5", "rank_filter", inf, size=5, rank=3)
# 1-D path: SciPy's running mediator with NaN.
for dt in ("float32", "float64"):
    x = make_input((61,), dt)
    x[rng.random(x.shape) < 0.12] = np.nan
    x[0] = np.nan
    x[30] = np.inf
    for size in (2, 3, 4, 5, 6, 7):
        for mode in ("reflect", "constant", "nearest", "mirror", "wrap"):
            add(f"nan1d_{dt}_s{size}_{mode}", "median_filter", x, size=size, mode=mode, cval=1.0)
    for origin in (-2, -1, 1, 2):
        add(f"nan1d_{dt}_o{origin}", "median_filter", x, size=5, origin=origin, mode="wrap")
    add(f"nan1d_{dt}_rank", "rank_filter", x, size=7, rank=2, mode="reflect")
    add(f"nan1d_{dt}_pct", "percentile_filter", x, size=6, percentile=80.0, mode="nearest")
    add(f"nan1d_{dt}_cval", "median_filter", x, size=3, mode="constant", cval=np.nan)
    # Ranks 0 and n - 1 of 1-D arrays: minimum_filter / maximum_filter as well (NaN at both ends).
    xe = x.copy()
    xe[-1] = np.nan
    for size in (2, 5, 31):
        for mode in ("reflect", "constant", "wrap"):
            add(f"nan1d_{dt}_min_s{size}_{mode}", "rank_filter", xe, size=size, rank=0, mode=mode, cval=np.nan)
            add(f"nan1d_{dt}_max_s{size}_{mode}", "rank_filter", xe, size=size, rank=size - 1, mode=mode,
                cval=2.0)
    add(f"nan1d_{dt}_max_fp", "rank_filter", xe, footprint=[1, 1, 0, 1], rank=2, mode="mirror")
add("nan1d_f16", "median_filter", np.array([1, np.nan, 3, 2, np.nan, 5, 4, 7, 6], np.float16), size=3)

s.group("layouts")
for layout in ("C", "F", "step2", "rev"):
    add(f"lay_med3_{layout}", "median_filter", make_input((18, 22), "float32"), layout=layout, size=3)
    add(f"lay_med5_{layout}", "median_filter", make_input((18, 22), "uint8"), layout=layout, size=5, mode="wrap")
    add(f"lay_rank_{layout}", "rank_filter", make_input((14, 16), "int32"), layout=layout, size=3, rank=3)
    add(f"lay_3d_{layout}", "median_filter", make_input((8, 10, 12), "float64"), layout=layout, size=3)
    add(f"lay_fp_{layout}", "median_filter", make_input((12, 14), "float64"), layout=layout, footprint=CROSS)
    add(f"lay_1d_{layout}", "median_filter", make_input((40,), "float64"), layout=layout, size=3)
# Output arrays (every layout, and in place).
for layout in ("C", "F", "rev", "step2", "input"):
    add(f"outarr_{layout}", "median_filter", make_input((12, 14), "float64"), size=3,
        output_array={"dtype": "float64", "layout": layout})
    add(f"outarr_1d_{layout}", "median_filter", make_input((30,), "float32"), size=5,
        output_array={"dtype": "float32", "layout": layout})
add("outarr_rank0_input", "rank_filter", make_input((12, 14), "int16"), size=3, rank=0,
    output_array={"dtype": "int16", "layout": "input"})
add("outarr_f32_i32", "median_filter", make_input((12, 14), "float32"), size=3,
    output_array={"dtype": "int32", "layout": "C"})
# Sizes 0 and 1.
add("empty_2d", "median_filter", np.zeros((0, 5), np.float32), size=3)
add("empty_1d", "median_filter", np.zeros((0,), np.float64), size=3)
add("one_1d", "median_filter", np.array([4.5]), size=3)
add("one_1d_const", "rank_filter", np.array([4.5]), size=1, rank=0)
add("one_2d", "median_filter", np.array([[2.0]]), size=3, mode="constant", cval=1.0)
add("short_1d_nd_path", "median_filter", np.array([3.0, 1.0, 2.0]), size=9, mode="reflect")
add("short_1d_nd_path_wrap", "rank_filter", np.array([3.0, 1.0, 2.0, 7.0]), size=11, rank=7, mode="wrap")

s.group("errors")
e2 = make_input((5, 6), "float64")
add("err_complex", "median_filter", make_input((5, 6), "complex128"), size=3, error="type_error",
    error_text="Complex type not supported")
add("err_no_size", "median_filter", e2, error="runtime_error", error_text="no footprint or filter size provided")
add("err_rank_hi", "rank_filter", e2, size=3, rank=9, error="runtime_error",
    error_text="rank not within filter footprint size")
add("err_rank_lo", "rank_filter", e2, size=3, rank=-10, error="runtime_error",
    error_text="rank not within filter footprint size")
add("err_fp_zero", "median_filter", e2, footprint=np.zeros((3, 3)), error="runtime_error",
    error_text="rank not within filter footprint size")
add("err_pct_hi", "percentile_filter", e2, size=3, percentile=100.5, error="runtime_error",
    error_text="invalid percentile")
add("err_pct_lo", "percentile_filter", e2, size=3, percentile=-101.0, error="runtime_error",
    error_text="invalid percentile")
add("err_pct_nan", "percentile_filter", e2, size=3, percentile=np.nan, error="value_error")
add("err_size_len", "median_filter", e2, size=[3, 3, 3], error="runtime_error",
    error_text="sequence argument must have length equal to input rank")
add("err_size_zero", "median_filter", e2, size=0, error="runtime_error", error_text="must match len(axes)")
add("err_size_neg", "median_filter", e2, size=-2, error="value_error")
add("err_fp_ndim", "median_filter", e2, footprint=np.ones(3), error="runtime_error",
    error_text="must match len(axes)")
add("err_fp_ndim_axes", "median_filter", make_input((4, 5, 6), "float64"), footprint=np.ones((3, 3)), axes=[0],
    error="runtime_error", error_text="must match len(axes)")
add("err_origin", "median_filter", e2, size=3, origin=2, error="value_error", error_text="invalid origin")
add("err_origin_even", "median_filter", e2, size=4, origin=-3, error="value_error", error_text="invalid origin")
add("err_origin_len", "median_filter", e2, size=3, origin=[0, 0, 0], error="runtime_error")
add("err_modes", "median_filter", e2, size=3, mode=["reflect", "wrap"], error="runtime_error",
    error_text="A sequence of modes is not supported")
add("err_modes_len", "rank_filter", e2, size=3, rank=0, mode=["reflect"], error="runtime_error")
add("err_axes_range", "median_filter", e2, size=3, axes=[2], error="value_error", error_text="out of range")
add("err_axes_dup", "median_filter", e2, size=3, axes=[0, -2], error="value_error", error_text="unique")
add("err_out_shape", "median_filter", e2, size=3, output_array={"dtype": "float64", "layout": "C", "shape": [5, 5]},
    error="runtime_error", error_text="output shape not correct")
add("err_f16_2d", "median_filter", make_input((5, 6), "float16"), size=3, error="runtime_error")
add("err_out_complex", "median_filter", e2, size=3, output="complex128", error="runtime_error")
add("err_cval_nan_int1d", "median_filter", make_input((9,), "int32"), size=3, mode="constant", cval=np.nan,
    error="value_error")

# The 3x3 kernel's vector-load path (rows contiguous and 16-byte aligned, tiles of 128 columns inside
# the array) and its edge tiles; NaN in the columns around a tile boundary; a NaN cval in 3-D.
s.group("fast3x3")
for dt in ("float32", "uint8"):
    a = make_input((40, 264), dt)
    for mode in ("reflect", "constant", "nearest", "mirror", "wrap"):
        add(f"med_fast_{dt}_{mode}", "median_filter", a, size=3, mode=mode, cval=1.5)
    add(f"med_fast_{dt}_origin", "median_filter", a, size=3, origin=[1, -1], mode="nearest")
an = make_input((40, 264), "float32")
an[5, 127] = np.nan
an[17, 128] = np.nan
an[30, 0] = np.nan
add("nan_fast_float32", "median_filter", an, size=3, mode="reflect")
add("nan3d_cval_float32", "median_filter", make_input((6, 7, 40), "float32"), size=3, mode="constant", cval=np.nan)
add("med3d_fast_float32", "median_filter", make_input((20, 17, 70), "float32"), size=3, mode="wrap")
add("med3d_fast_float64", "median_filter", make_input((18, 9, 33), "float64"), size=3, mode="mirror")

s.write()
