#!/usr/bin/env python
"""Golden data for cusci::ndimage's filters with a user function (generic_filter, generic_filter1d,
vectorized_filter) from SciPy 1.18.1. SciPy runs Python functions equal to the CUDA functions the C++
tests compile (tests/ndimage/generic/generic_cases.hpp: the same names, the same arithmetic):

    generic_filter:    range (max - min), wsum (sum of (k + 1) * buffer[k]), median (np.median),
                       count (number of values > 0.5)
    generic_filter1d:  mean1d (mean of each window of filter_size), range1d, diff1d (last - first)
    vectorized_filter: vmax (np.max), vsum (np.sum), vmean (np.mean, stored as float64)

Cases cover every input dtype SciPy's C filters take (bool, integers, float32/64) and the float16 /
complex inputs vectorized_filter takes, integer and bool outputs (SciPy's C cast: overflow and NaN),
1-D to 3-D, layouts C / F / step2 / rev, every mode, cval, origins, footprints (all-false too),
axes, output arrays (C, F, rev, step2, in place) and the error cases. Same case format as
gen_ndimage_rank.py:

    python tests/golden/gen_ndimage_generic.py --out <build>/tests/golden

Case parameters: input (array), layout, function (name above), size (int, list or null), footprint
(array name), filter_size and axis (generic_filter1d), mode, cval, origin (int or list), axes, output
(dtype name), output_array ({"dtype", "layout", "shape"}), batch_memory, error (+ error_text).
"""
import functools

import numpy as np
import scipy.ndimage as ndi

from golden import Suite
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage_generic")
rng = s.rng(20261203)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap"]
make_input = functools.partial(ndimage_inputs.make_input, rng, uint_max=250, int_max=120)


# The Python twins of the CUDA functions (sequential sums in window order, as the CUDA loops).
def f_range(b):
    return b.max() - b.min() if b.size else 0.0


def f_wsum(b):
    t = 0.0
    for k, v in enumerate(b):
        t += (k + 1) * v
    return t


def f_median(b):
    return np.median(b) if b.size else 0.0


def f_count(b):
    return float(np.count_nonzero(b > 0.5))


GENERIC = {"range": f_range, "wsum": f_wsum, "median": f_median, "count": f_count}


def mean1d(inp, out):
    fs = inp.size - out.size + 1
    for i in range(out.size):
        t = 0.0
        for k in range(fs):
            t += inp[i + k]
        out[i] = t / fs


def range1d(inp, out):
    fs = inp.size - out.size + 1
    for i in range(out.size):
        w = inp[i:i + fs]
        out[i] = w.max() - w.min()


def diff1d(inp, out):
    fs = inp.size - out.size + 1
    out[:] = inp[fs - 1:fs - 1 + out.size] - inp[:out.size]


LINE = {"mean1d": mean1d, "range1d": range1d, "diff1d": diff1d}


def v_sum_seq(x, axis):
    # Sequential sum in window order in the input's type (the CUDA loop's order).
    n_axes = 1 if np.isscalar(axis) else len(axis)
    x = np.moveaxis(x, axis, tuple(range(-n_axes, 0))) if n_axes else x[..., None]
    x = np.reshape(x, x.shape[:x.ndim - max(n_axes, 1)] + (-1,))
    t = np.zeros(x.shape[:-1], x.dtype)
    for k in range(x.shape[-1]):
        t = (t + x[..., k]).astype(x.dtype)
    return t


def v_mean(x, axis):
    n_axes = 1 if np.isscalar(axis) else len(axis)
    x = np.moveaxis(x, axis, tuple(range(-n_axes, 0))) if n_axes else x[..., None]
    x = np.reshape(x, x.shape[:x.ndim - max(n_axes, 1)] + (-1,)).astype(np.float64)
    t = np.zeros(x.shape[:-1])
    for k in range(x.shape[-1]):
        t = t + x[..., k]
    return t / x.shape[-1]


VECTOR = {"vmax": lambda x, axis: np.max(x, axis=axis), "vsum": v_sum_seq, "vmean": v_mean}


def call(func, x, kw):
    fn = kw["function"]
    if func == "generic_filter":
        return ndi.generic_filter(x, GENERIC[fn], size=kw.get("size"), footprint=kw.get("fp"), output=kw.get("out"),
                                  mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                  origin=kw.get("origin", 0), axes=kw.get("axes"))
    if func == "generic_filter1d":
        return ndi.generic_filter1d(x, LINE[fn], kw["filter_size"], axis=kw.get("axis", -1), output=kw.get("out"),
                                    mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                    origin=kw.get("origin", 0))
    out = kw.get("out")
    r = ndi.vectorized_filter(x, VECTOR[fn], size=kw.get("size"), footprint=kw.get("fp"),
                              output=out if isinstance(out, np.ndarray) else None, mode=kw.get("mode", "reflect"),
                              cval=kw.get("cval"), origin=kw.get("origin"), axes=kw.get("axes"),
                              batch_memory=kw.get("batch_memory", 2**30))
    if out is not None and not isinstance(out, np.ndarray):
        r = np.asarray(r).astype(out)  # cusci's output dtype: the result assigned into a new array
    return r


def add(case, func, a, layout="C", error=None, error_text=None, footprint=None, output_array=None, rtol=0.0,
        atol=0.0, **kw):
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
        # The values an output array receives are those of a new array of its dtype (in place too:
        # cusci filters a padded copy; see the in-place cases below).
        c["out"] = np.dtype(output_array["dtype"] if output_array["layout"] != "input" else a.dtype)
    elif output_array is not None:
        c["out"] = np.empty(output_array.get("shape", a.shape), output_array["dtype"])
    expected = None
    if error is None:
        r = call(func, x, c)
        expected = s.array(case + "_out", r)
    else:
        try:
            call(func, x, c)
        except (ValueError, RuntimeError, TypeError, IndexError, np.exceptions.AxisError):
            pass
        else:
            raise AssertionError(f"{case}: SciPy accepted an error case")
    s.case(case, func, rtol=rtol, atol=atol, error=error, error_text=error_text, input=inp, expected=expected,
           layout=layout, footprint=fp_name, output_array=output_array, **kw)


CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
RAND43 = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]], bool)
NONE33 = np.zeros((3, 3), bool)
T64 = dict(rtol=1e-12, atol=1e-12)

# ----------------------------------------------------------------------------------------------
s.group("generic")
a64 = make_input((11, 13), "float64")
for fn in GENERIC:
    for mode in MODES:
        add(f"gf_{fn}_{mode}", "generic_filter", a64, function=fn, size=3, mode=mode, cval=1.25, **T64)
for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32"):
    a = make_input((9, 10), dt)
    add(f"gf_dt_{dt}", "generic_filter", a, function="range", size=[3, 2], mode="nearest")
    add(f"gf_dt_{dt}_wsum", "generic_filter", a, function="wsum", size=3, mode="constant", cval=2.0, **T64)
# Integer / bool / float32 outputs with SciPy's C cast (wsum overflows int8 / uint8; NaN into int).
for od in ("int8", "uint8", "int16", "int32", "uint64", "bool", "float32"):
    add(f"gf_out_{od}", "generic_filter", a64, function="wsum", size=3, output=od)
an = a64.copy()
an[3, 4] = np.nan
add("gf_nan_int32", "generic_filter", an, function="wsum", size=3, output="int32")
add("gf_nan_uint8", "generic_filter", an, function="range", size=2, output="uint8")
# Fractions, NaN and values of 256 and more into bool: the byte of C's (npy_bool) cast, not "nonzero".
add("gf_frac_bool", "generic_filter", an * 0.01, function="wsum", size=3, output="bool")
# 1-D, 3-D, 0-d, long windows (global scratch: more than 64 values).
add("gf_1d", "generic_filter", make_input((40,), "float64"), function="median", size=5, mode="mirror")
add("gf_1d_long", "generic_filter", make_input((150,), "float32"), function="median", size=71, mode="wrap")
add("gf_3d", "generic_filter", make_input((5, 6, 7), "float64"), function="wsum", size=3, mode="reflect", **T64)
add("gf_3d_rect", "generic_filter", make_input((5, 6, 7), "int16"), function="range", size=[2, 3, 4], mode="wrap")
add("gf_long_9x9", "generic_filter", make_input((20, 23), "float64"), function="median", size=9, mode="constant",
    cval=-3.0)
add("gf_long_wsum", "generic_filter", make_input((16, 18), "float64"), function="wsum", size=[9, 8], **T64)
add("gf_0d", "generic_filter", np.array(2.5), function="wsum", size=1)
# Footprints (all-false: filter_size 0, as SciPy), origins, axes.
add("gf_fp_cross", "generic_filter", a64, function="wsum", footprint=CROSS, mode="mirror", **T64)
add("gf_fp_rand", "generic_filter", a64, function="median", footprint=RAND43, mode="wrap", origin=[-2, 1])
add("gf_fp_none", "generic_filter", a64, function="count", footprint=NONE33)
for size in (3, 4):
    for origin in sorted({-(size // 2), -1, 1, (size - 1) // 2}):
        add(f"gf_origin_s{size}_o{origin}", "generic_filter", a64, function="wsum", size=size, origin=origin,
            mode="constant", cval=0.5, **T64)
add("gf_origin_list", "generic_filter", a64, function="wsum", size=[3, 4], origin=[1, -2], mode="nearest", **T64)
a3 = make_input((5, 6, 7), "float64")
add("gf_axes_02", "generic_filter", a3, function="wsum", size=[3, 2], axes=[0, 2], origin=[1, 0], **T64)
add("gf_axes_20", "generic_filter", a3, function="wsum", size=[3, 2], axes=[2, 0], origin=[0, -1], **T64)
add("gf_axes_1", "generic_filter", a3, function="range", size=4, axes=[1], mode="wrap")
add("gf_axes_fp", "generic_filter", a3, function="wsum", footprint=RAND43, axes=[-1, 0], **T64)
add("gf_axes_perm", "generic_filter", a64, function="wsum", size=[3, 2], axes=[1, 0], origin=[1, 0], **T64)
# Layouts and output arrays (in place: cusci gives the values of a separate output; see the report).
for layout in ndimage_inputs.LAYOUTS:
    add(f"gf_lay_{layout}", "generic_filter", make_input((12, 14), "float64"), layout=layout, function="wsum",
        size=3, mode="reflect", **T64)
    add(f"gf_lay3_{layout}", "generic_filter", make_input((6, 8, 10), "int16"), layout=layout, function="range",
        size=[2, 3, 2], mode="mirror")
for lay in ("C", "F", "rev", "step2"):
    add(f"gf_outarr_{lay}", "generic_filter", a64, function="wsum", size=3,
        output_array={"dtype": "float32", "layout": lay}, rtol=1e-6)
    add(f"gf_outarr_int_{lay}", "generic_filter", a64, function="range", size=3,
        output_array={"dtype": "int16", "layout": lay})
add("gf_inplace_f64", "generic_filter", a64, function="range", size=3, output_array={"dtype": "float64", "layout": "input"})
add("gf_empty", "generic_filter", np.zeros((0, 4)), function="range", size=3)

# ----------------------------------------------------------------------------------------------
s.group("line")
l64 = make_input((7, 12), "float64")
for fn in LINE:
    for mode in MODES:
        add(f"g1_{fn}_{mode}", "generic_filter1d", l64, function=fn, filter_size=3, mode=mode, cval=-1.5, **T64)
for fs in (1, 2, 4, 5):
    for origin in sorted({-(fs // 2), 0, (fs - 1) // 2}):
        add(f"g1_fs{fs}_o{origin}", "generic_filter1d", l64, function="diff1d", filter_size=fs, origin=origin,
            mode="reflect", **T64)
for axis in (0, 1, -1, -2):
    add(f"g1_axis{axis}", "generic_filter1d", l64, function="mean1d", filter_size=4, axis=axis, **T64)
add("g1_3d_axis1", "generic_filter1d", make_input((4, 9, 5), "float32"), function="range1d", filter_size=3, axis=1)
add("g1_long", "generic_filter1d", make_input((3, 10), "float64"), function="mean1d", filter_size=25, mode="wrap",
    **T64)
for dt in ("bool", "int8", "uint16", "int32", "uint64", "float32"):
    add(f"g1_dt_{dt}", "generic_filter1d", make_input((6, 11), dt), function="diff1d", filter_size=3)
for od in ("int8", "uint8", "bool", "float32"):
    add(f"g1_out_{od}", "generic_filter1d", l64, function="diff1d", filter_size=4, output=od)
for layout in ndimage_inputs.LAYOUTS:
    add(f"g1_lay_{layout}", "generic_filter1d", make_input((10, 12), "float64"), layout=layout, function="mean1d",
        filter_size=3, axis=0, **T64)
for lay in ("C", "F", "rev", "step2", "input"):
    add(f"g1_outarr_{lay}", "generic_filter1d", l64, function="diff1d", filter_size=3,
        output_array={"dtype": "float64", "layout": lay})

# ----------------------------------------------------------------------------------------------
s.group("vectorized")
v64 = make_input((10, 12), "float64")
for fn in ("vmax", "vsum"):
    for mode in MODES + ["valid"]:
        kw = {"cval": 2.5} if mode in ("constant", "grid-constant") else {}
        add(f"vf_{fn}_{mode}", "vectorized_filter", v64, function=fn, size=3, mode=mode, **kw, **T64)
for dt in ("bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"):
    a = make_input((8, 9), dt)
    add(f"vf_dt_{dt}", "vectorized_filter", a, function="vmax", size=[3, 2], mode="nearest")
    if dt != "bool":
        add(f"vf_dt_{dt}_cval", "vectorized_filter", a, function="vmax", size=3, mode="constant", cval=-1.0)
for dt in ("float32", "complex64", "complex128"):
    add(f"vf_sum_{dt}", "vectorized_filter", make_input((8, 9), dt), function="vsum", size=3, mode="wrap",
        rtol=1e-5 if dt in ("float32", "complex64") else 1e-12, atol=1e-5)
add("vf_sum_u8_wraps", "vectorized_filter", make_input((8, 9), "uint8"), function="vsum", size=3)
for dt in ("int16", "uint8", "float32"):
    add(f"vf_mean_{dt}", "vectorized_filter", make_input((8, 9), dt), function="vmean", size=[2, 3],
        output="float64", **T64)
# A float64 result stored with NumPy's casting: out of int32's range and NaN (x86's INT32_MIN), and
# into bool (nonzero, NaN included, is True).
big = make_input((8, 9), "float64") * 1e9
big[2, 3] = np.nan
add("vf_mean_big_int32", "vectorized_filter", big, function="vmean", size=3, output="int32")
frac = make_input((8, 9), "float64") * 1e-3
frac[:, :4] = 0.0
frac[6, 7] = np.nan
add("vf_mean_frac_bool", "vectorized_filter", frac, function="vmean", size=[1, 2], output="bool")
add("vf_cval_u8_big", "vectorized_filter", make_input((6, 7), "uint8"), function="vmax", size=3, mode="constant",
    cval=300.7)
add("vf_1d", "vectorized_filter", make_input((30,), "float64"), function="vmax", size=5, mode="mirror")
add("vf_3d", "vectorized_filter", make_input((5, 6, 7), "int32"), function="vsum", size=3, mode="reflect")
add("vf_3d_valid", "vectorized_filter", make_input((5, 6, 7), "float64"), function="vsum", size=[2, 3, 4],
    mode="valid", **T64)
add("vf_long", "vectorized_filter", make_input((20, 22), "float64"), function="vsum", size=9, mode="wrap", **T64)
add("vf_long_small_batch", "vectorized_filter", make_input((20, 22), "float64"), function="vsum", size=9,
    batch_memory=20000, **T64)
add("vf_fp_cross", "vectorized_filter", v64, function="vsum", footprint=CROSS, mode="mirror", **T64)
add("vf_fp_rand", "vectorized_filter", v64, function="vsum", footprint=RAND43, origin=[-2, 1], **T64)
for size in (3, 4):
    for origin in sorted({-(size // 2), 1, (size - 1) // 2}):
        add(f"vf_origin_s{size}_o{origin}", "vectorized_filter", v64, function="vsum", size=size, origin=origin,
            **T64)
v3 = make_input((5, 6, 7), "float64")
add("vf_axes_02", "vectorized_filter", v3, function="vsum", size=[3, 2], axes=[0, 2], origin=[1, 0], **T64)
add("vf_axes_20", "vectorized_filter", v3, function="vsum", size=[3, 2], axes=[2, 0], origin=[0, -1], **T64)
add("vf_axes_fp", "vectorized_filter", v3, function="vsum", footprint=RAND43, axes=[-1, 0], **T64)
add("vf_axes_1_valid", "vectorized_filter", v3, function="vmax", size=4, axes=[1], mode="valid")
add("vf_axes_none", "vectorized_filter", v3, function="vsum", footprint=np.array(True), axes=[], **T64)
for layout in ndimage_inputs.LAYOUTS:
    add(f"vf_lay_{layout}", "vectorized_filter", make_input((12, 14), "float32"), layout=layout, function="vmax",
        size=3)
    add(f"vf_lay3_{layout}", "vectorized_filter", make_input((6, 8, 10), "complex64"), layout=layout,
        function="vsum", size=[2, 3, 2], mode="constant", cval=1.0, rtol=1e-5, atol=1e-5)
for lay in ("C", "F", "rev", "step2", "input"):
    add(f"vf_outarr_{lay}", "vectorized_filter", v64, function="vmax", size=3,
        output_array={"dtype": "float64", "layout": lay})
add("vf_outarr_f32", "vectorized_filter", v64, function="vmax", size=3, output_array={"dtype": "float32", "layout": "F"})
add("vf_outarr_valid", "vectorized_filter", v64, function="vmax", size=3, mode="valid",
    output_array={"dtype": "float64", "layout": "C", "shape": [8, 10]})
add("vf_0d", "vectorized_filter", np.array(3.5), function="vsum", size=3, **T64)

# ----------------------------------------------------------------------------------------------
s.group("errors")
e2 = make_input((5, 6), "float64")
ec = make_input((5, 6), "complex128")
add("err_gf_complex", "generic_filter", ec, function="range", size=3, error="type_error",
    error_text="Complex type not supported")
add("err_gf_nosize", "generic_filter", e2, function="range", error="runtime_error",
    error_text="no footprint or filter size provided")
add("err_gf_size_len", "generic_filter", e2, function="range", size=[3, 3, 3], error="runtime_error",
    error_text="sequence argument must have length equal to input rank")
add("err_gf_size0", "generic_filter", e2, function="range", size=0, error="runtime_error", error_text="footprint.ndim")
add("err_gf_fp_ndim", "generic_filter", e2, function="range", footprint=np.ones((3, 3, 3)), error="runtime_error",
    error_text="footprint.ndim")
add("err_gf_fp_axes", "generic_filter", e2, function="range", footprint=np.ones((3, 3)), axes=[0],
    error="runtime_error", error_text="footprint.ndim")
add("err_gf_origin", "generic_filter", e2, function="range", size=3, origin=2, error="value_error",
    error_text="invalid origin")
add("err_gf_origin_neg", "generic_filter", e2, function="range", size=4, origin=[0, -3], error="value_error",
    error_text="invalid origin")
add("err_gf_origin_len", "generic_filter", e2, function="range", size=3, origin=[0, 0, 0], error="runtime_error")
add("err_gf_axes", "generic_filter", e2, function="range", size=3, axes=[2], error="value_error",
    error_text="out of range")
add("err_gf_axes_dup", "generic_filter", e2, function="range", size=3, axes=[0, -2], error="value_error",
    error_text="unique")
add("err_gf_f16", "generic_filter", make_input((5, 6), "float16"), function="range", size=3, error="runtime_error",
    error_text="array type not supported")
add("err_gf_out_f16", "generic_filter", e2, function="range", size=3, output="float16", error="runtime_error",
    error_text="array type not supported")
add("err_gf_out_complex", "generic_filter", e2, function="range", size=3, output="complex64", error="runtime_error",
    error_text="array type not supported")
add("err_gf_out_shape", "generic_filter", e2, function="range", size=3,
    output_array={"dtype": "float64", "layout": "C", "shape": [5, 5]}, error="runtime_error",
    error_text="output shape not correct")
add("err_g1_complex", "generic_filter1d", ec, function="diff1d", filter_size=3, error="type_error",
    error_text="Complex type not supported")
add("err_g1_size", "generic_filter1d", e2, function="diff1d", filter_size=0, error="runtime_error",
    error_text="invalid filter size")
add("err_g1_origin", "generic_filter1d", e2, function="diff1d", filter_size=3, origin=2, error="value_error",
    error_text="invalid origin")
add("err_g1_axis", "generic_filter1d", e2, function="diff1d", filter_size=3, axis=2, error="index_error",
    error_text="out of bounds")
add("err_g1_0d", "generic_filter1d", np.array(1.0), function="diff1d", filter_size=3, error="index_error")
add("err_g1_f16", "generic_filter1d", make_input((5, 6), "float16"), function="diff1d", filter_size=3,
    error="runtime_error", error_text="array type not supported")
add("err_g1_out_complex", "generic_filter1d", e2, function="diff1d", filter_size=3, output="complex128",
    error="runtime_error", error_text="array type not supported")
add("err_g1_out_shape", "generic_filter1d", e2, function="diff1d", filter_size=3,
    output_array={"dtype": "float64", "layout": "C", "shape": [6, 5]}, error="runtime_error",
    error_text="output shape not correct")
add("err_vf_nosize", "vectorized_filter", e2, function="vmax", error="value_error",
    error_text="Either `size` or `footprint` must be provided.")
add("err_vf_both", "vectorized_filter", e2, function="vmax", size=3, footprint=CROSS, error="value_error",
    error_text="may be provided, not both")
add("err_vf_size0", "vectorized_filter", e2, function="vmax", size=0, error="value_error",
    error_text="All elements of `size` must be positive integers.")
add("err_vf_axes_len", "vectorized_filter", e2, function="vmax", size=3, axes=[0, 1, 0], error="value_error",
    error_text="may not exceed the dimensionality")
add("err_vf_size_axes", "vectorized_filter", e2, function="vmax", size=[3, 3], axes=[0], error="value_error",
    error_text="must be compatible with the dimensionality")
add("err_vf_fp_axes", "vectorized_filter", e2, function="vmax", footprint=np.ones((3,)), error="value_error",
    error_text="must be compatible with the dimensionality")
add("err_vf_origin_len", "vectorized_filter", e2, function="vmax", size=3, origin=[0, 0, 0], error="value_error",
    error_text="`origin` must be an integer or tuple")
add("err_vf_valid_origin", "vectorized_filter", e2, function="vmax", size=3, mode="valid", origin=1,
    error="value_error", error_text="incompatible with use of `origin`")
add("err_vf_cval_mode", "vectorized_filter", e2, function="vmax", size=3, mode="reflect", cval=1.0,
    error="value_error", error_text="Use of `cval` is compatible only")
add("err_vf_cval_valid", "vectorized_filter", e2, function="vmax", size=3, mode="valid", cval=1.0,
    error="value_error", error_text="Use of `cval` is compatible only")
add("err_vf_batch", "vectorized_filter", e2, function="vmax", size=3, batch_memory=0, error="value_error",
    error_text="`batch_memory` must be positive number.")
add("err_vf_batch_small", "vectorized_filter", make_input((20, 22), "float64"), function="vsum", size=9,
    batch_memory=10000, error="value_error", error_text="`batch_memory` is insufficient for minimum chunk size.")
add("err_vf_axis_range", "vectorized_filter", e2, function="vmax", size=3, axes=[2], error="index_error",
    error_text="out of bounds")
add("err_vf_axis_dup", "vectorized_filter", e2, function="vmax", size=3, axes=[0, 0], error="value_error",
    error_text="repeated axis")
add("err_vf_origin", "vectorized_filter", e2, function="vmax", size=3, origin=2, error="value_error",
    error_text="index can't contain negative values")
add("err_vf_valid_big", "vectorized_filter", e2, function="vmax", size=6, mode="valid", error="value_error",
    error_text="window shape cannot be larger than input array shape")
add("err_vf_out_shape", "vectorized_filter", e2, function="vmax", size=3,
    output_array={"dtype": "float64", "layout": "C", "shape": [5, 7]}, error="value_error",
    error_text="could not broadcast")
add("err_vf_mode", "vectorized_filter", e2, function="vmax", size=3, mode="bogus", error="value_error",
    error_text="`mode` must be one of")

s.write()
