#!/usr/bin/env python
"""Reference data for cusci::ndimage's derivative filters (prewitt, sobel, laplace, gaussian_laplace,
gaussian_gradient_magnitude, generic_laplace, generic_gradient_magnitude), computed with SciPy at
build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage_derivatives.py --out <build>/tests/golden --data examples/data

Each case: func, input (array name), expected (array name; absent for error cases), layout of the
input (C as stored, F copied to Fortran order, step2 = input[::2, ::2, ...], rev = input[..., ::-1]),
and SciPy's parameters: axis, output (a dtype name), out_layout (an output array given as `output=`:
C / F zeros, step2 = a view zeros(2 * shape)[::2, ::2, ...], inplace = the input view itself), mode
(a name or a list), cval, axes, sigma, truncate, radius, and for the generic functions `derivative`,
the name of the callable (see DERIVATIVES; the C++ test builds the same callable).
"""
import functools
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol as shared_tol
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage_derivatives")
rng = s.rng(20261215)
make_input = functools.partial(ndimage_inputs.make_input, rng)


def corr121(input, axis, output, mode, cval):
    """A second derivative as in SciPy's laplace."""
    return ndi.correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)


def corr121_f64(input, axis, output, mode, cval):
    """corr121 computed into float64 whatever the output: copied into an output array, returned as
    float64 when a dtype is asked for."""
    r = ndi.correlate1d(input, [1, -2, 1], axis, np.float64, mode, cval, 0)
    if isinstance(output, np.ndarray):
        output[...] = r
        return output
    return r


DERIVATIVES = {"sobel": ndi.sobel, "prewitt": ndi.prewitt, "corr121": corr121, "corr121_f64": corr121_f64}
GAUSSIAN = ("gaussian_laplace", "gaussian_gradient_magnitude")
PY_ERRORS = {"runtime_error": RuntimeError, "value_error": ValueError, "index_error": IndexError,
             "type_error": TypeError}


def call(func, x, out, p):
    kw = dict(output=out, mode=p["mode"], cval=p["cval"])
    if func in ("prewitt", "sobel"):
        return getattr(ndi, func)(x, p["axis"], **kw)
    if func == "laplace":
        return ndi.laplace(x, axes=p["axes"], **kw)
    if func in GAUSSIAN:
        extra = {"truncate": p["truncate"]}
        if p["radius"] is not None:
            extra["radius"] = p["radius"]
        return getattr(ndi, func)(x, p["sigma"], axes=p["axes"], **kw, **extra)
    return getattr(ndi, func)(x, DERIVATIVES[p["derivative"]], axes=p["axes"], **kw)


def tolerance(func, r, x_scale, ndim, p):
    scale = max(float(np.max(np.abs(r))) if r.size else 1.0, x_scale)
    if not np.isfinite(scale):
        scale = 1.0
    gauss = func in GAUSSIAN
    # Integer results: the correlations of integer weights sum exactly, so they match SciPy exactly;
    # Gaussian kernels use exp(), whose last bit may differ between libm and NumPy, so a truncation
    # may move by one (by one per summed axis for the sums).
    n_axes = len(p["axes"]) if p["axes"] is not None else max(ndim, 1)
    int_atol = float(n_axes) if gauss else 0.0
    rtol32 = 1e-4 if gauss else 2e-5
    # float32 passes run in float32 with fused multiply-adds (SciPy: double): relative to the values
    # the passes see, which the sums may cancel.
    return shared_tol(r.dtype, scale=scale, rtol32=rtol32, rtol64=1e-12, int_atol=int_atol)


def add(case, func, a, layout="C", error=None, out_layout=None, **kw):
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    p = dict(axis=kw.get("axis", -1), output=kw.get("output"), mode=kw.get("mode", "reflect"),
             cval=kw.get("cval", 0.0), axes=kw.get("axes"), sigma=kw.get("sigma"),
             truncate=kw.get("truncate", 4.0), radius=kw.get("radius"), derivative=kw.get("derivative"))
    out_dt = np.dtype(p["output"]) if p["output"] else x.dtype
    expected, rtol, atol = None, 0.0, 0.0
    # the input's scale before an in-place call overwrites it (the stored input is a copy made above)
    x_scale = max(float(np.max(np.abs(x))) if x.size else 1.0, 1.0)
    if out_layout == "inplace":
        assert p["output"] is None
        out = x
    elif out_layout == "C":
        out = np.zeros(x.shape, out_dt)
    elif out_layout == "F":
        out = np.zeros(x.shape, out_dt, order="F")
    elif out_layout == "step2":
        out = np.zeros(tuple(2 * n for n in x.shape), out_dt)[tuple(slice(None, None, 2) for _ in x.shape)]
    elif out_layout == "badshape":  # one more row than the input
        out = np.zeros((x.shape[0] + 1,) + x.shape[1:], out_dt)
    else:
        assert out_layout is None
        out = out_dt if p["output"] else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # sqrt of wrapped-around negative sums
        if error is None:
            r = call(func, x, out, p)
            if out_layout is not None:
                assert r is out
            expected = s.array(case + "_out", r)
            rtol, atol = tolerance(func, r, x_scale, x.ndim, p)
        else:
            py = PY_ERRORS[error]
            # deviation: cusci raises `error` where SciPy raises another exception or none
            try:
                call(func, x, out, p)
            except py:
                pass
            except Exception:
                if not kw.get("deviation"):
                    raise
            else:
                if not kw.get("deviation"):
                    raise AssertionError(f"{case}: SciPy did not raise {py.__name__}")
    params = {k: (list(v) if isinstance(v, tuple) else v) for k, v in p.items()}
    s.case(case, func, rtol=rtol, atol=atol, error=error, input=inp, expected=expected, layout=layout,
           out_layout=out_layout, **params)


MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-wrap", "grid-mirror", "grid-constant"]
DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64",
          "complex64", "complex128"]
LAYOUTS = ["C", "F", "step2", "rev"]

# ---------------------------------------------------------------- prewitt and sobel
s.group("sobel")
for func in ("sobel", "prewitt"):
    f = func[:3]
    for dt in DTYPES:
        for axis in (0, -1):
            add(f"{f}_dtype_{dt}_ax{axis}", func, make_input((13, 17), dt), axis=axis)
    add(f"{f}_1d", func, make_input((21,), "float64"))
    add(f"{f}_1d_int", func, make_input((21,), "int32"), mode="wrap")
    for axis in (0, 1, 2, -2):
        add(f"{f}_3d_ax{axis}", func, make_input((6, 7, 8), "float64"), axis=axis)
        add(f"{f}_3d_i16_ax{axis}", func, make_input((6, 7, 8), "int16"), axis=axis, mode="nearest")
    add(f"{f}_4d", func, make_input((3, 4, 5, 6), "float64"), axis=2, mode="mirror")
    for mode in MODES:
        add(f"{f}_mode_{mode}", func, make_input((9, 11), "float64"), axis=0, mode=mode, cval=1.5)
        add(f"{f}_mode_{mode}_i32", func, make_input((9, 11), "int32"), axis=1, mode=mode, cval=-3.0)
    add(f"{f}_modes_per_axis", func, make_input((6, 7, 8), "float64"), axis=1,
        mode=["constant", "wrap", "nearest"], cval=2.0)
    add(f"{f}_modes_per_axis_c", func, make_input((6, 7), "complex128"), axis=0, mode=["mirror", "constant"],
        cval=-1.0)
    for layout in LAYOUTS:
        add(f"{f}_layout_{layout}_f32", func, make_input((10, 11, 12), "float32"), layout=layout, axis=1,
            mode="reflect")
        add(f"{f}_layout_{layout}_i16", func, make_input((14, 15), "int16"), layout=layout, axis=0,
            mode="constant", cval=5.0)
    for dt, out in [("uint8", "int16"), ("uint8", "float32"), ("float32", "float64"), ("int16", "float32"),
                    ("float64", "int32"), ("float64", "uint8"), ("int16", "uint8"), ("int16", "int8"),
                    ("complex64", "complex128"), ("float64", "float32")]:
        add(f"{f}_out_{dt}_{out}", func, make_input((9, 12), dt), output=out, axis=1)
    add(f"{f}_out_3d_f64_i32", func, make_input((6, 7, 8), "float64"), output="int32", axis=0)
    # output arrays: C, F, strided view, the input itself (C, F and strided inputs)
    for ol in ("C", "F", "step2"):
        add(f"{f}_outarr_{ol}", func, make_input((9, 10, 11), "float64"), out_layout=ol, axis=2)
        add(f"{f}_outarr_{ol}_u8_i16", func, make_input((12, 13), "uint8"), out_layout=ol, output="int16", axis=0)
    for layout in ("C", "F", "step2"):
        add(f"{f}_inplace_{layout}", func, make_input((9, 10, 11), "float64"), layout=layout, out_layout="inplace",
            axis=1)
        add(f"{f}_inplace_{layout}_i32", func, make_input((12, 13), "int32"), layout=layout, out_layout="inplace",
            axis=0, mode="wrap")
    add(f"{f}_inplace_1d", func, make_input((15,), "float32"), out_layout="inplace")
    # sizes
    add(f"{f}_empty", func, np.zeros((0, 5), np.float64), axis=0)
    add(f"{f}_size1", func, np.array([3.5]), mode="constant", cval=1.0)
    add(f"{f}_1x1", func, make_input((1, 1), "float64"), axis=0)
    add(f"{f}_1x7", func, make_input((1, 7), "int32"), axis=0, mode="mirror")
    add(f"{f}_2", func, make_input((2,), "float64"), mode="mirror")
    # errors
    add(f"err_{f}_axis", func, make_input((5, 4), "float64"), axis=2, error="index_error")
    add(f"err_{f}_axis_neg", func, make_input((5, 4), "float64"), axis=-3, error="index_error")
    add(f"err_{f}_0d", func, np.array(3.0), error="index_error")
    add(f"err_{f}_mode_len", func, make_input((5, 4), "float64"), mode=["reflect"], error="runtime_error")
    add(f"err_{f}_complex_real_out", func, make_input((5, 4), "complex64"), output="float64", error="runtime_error")
    add(f"err_{f}_real_complex_out", func, make_input((5, 4), "float64"), output="complex128",
        error="runtime_error")
    add(f"err_{f}_f16", func, make_input((5, 4), "float16"), error="runtime_error")
    add(f"err_{f}_f16_out", func, make_input((5, 4), "float32"), output="float16", error="runtime_error")
    add(f"err_{f}_outarr_shape", func, make_input((5, 4), "float64"), out_layout="badshape", error="runtime_error")

cam = np.load(s.data("camera.npy"))[200:296, 180:300].copy()
add("sob_camera_u8", "sobel", cam, axis=0)
add("sob_camera_u8_i16", "sobel", cam, axis=1, output="int16")
add("sob_camera_f32", "sobel", cam.astype(np.float32), axis=1, mode="nearest")

# ---------------------------------------------------------------- laplace
s.group("laplace")
for dt in DTYPES:
    add(f"lap_dtype_{dt}", "laplace", make_input((13, 17), dt))
    add(f"lap_dtype_{dt}_3d", "laplace", make_input((5, 6, 7), dt), mode="nearest")
add("lap_1d", "laplace", make_input((30,), "float64"))
add("lap_4d", "laplace", make_input((3, 4, 5, 6), "float64"), mode="wrap")
for mode in MODES:
    add(f"lap_mode_{mode}", "laplace", make_input((9, 11), "float64"), mode=mode, cval=1.5)
    add(f"lap_mode_{mode}_i16", "laplace", make_input((9, 11), "int16"), mode=mode, cval=-7.0)
add("lap_modes_per_axis", "laplace", make_input((6, 7, 8), "float64"), mode=["constant", "wrap", "mirror"], cval=3.0)
add("lap_axes_0", "laplace", make_input((6, 7, 8), "float64"), axes=[0])
add("lap_axes_20", "laplace", make_input((6, 7, 8), "float64"), axes=[2, 0], mode=["nearest", "constant"], cval=2.0)
add("lap_axes_neg", "laplace", make_input((6, 7, 8), "int32"), axes=[-1, 1])
add("lap_axes_empty", "laplace", make_input((6, 7), "float64"), axes=[])
add("lap_axes_empty_cast", "laplace", make_input((6, 7), "float64"), axes=[], output="int16")
add("lap_0d", "laplace", np.array(2.5))
for layout in LAYOUTS:
    add(f"lap_layout_{layout}_f32", "laplace", make_input((10, 11, 12), "float32"), layout=layout)
    add(f"lap_layout_{layout}_i32", "laplace", make_input((14, 15), "int32"), layout=layout, mode="constant", cval=4.0)
for dt, out in [("uint8", "int16"), ("float32", "float64"), ("float64", "int32"), ("int16", "uint8"),
                ("int16", "int8"), ("complex128", "complex64"), ("float64", "float32")]:
    add(f"lap_out_{dt}_{out}", "laplace", make_input((9, 12), dt), output=out)
add("lap_wrap_u8", "laplace", make_input((20, 21), "uint8", lim=255))
add("lap_wrap_i8", "laplace", make_input((20, 21), "int8", lim=127))
for ol in ("C", "F", "step2"):
    add(f"lap_outarr_{ol}", "laplace", make_input((9, 10, 11), "float64"), out_layout=ol)
    add(f"lap_outarr_{ol}_u8_i16", "laplace", make_input((12, 13), "uint8"), out_layout=ol, output="int16")
# in place: the derivatives after the first read the partially updated array, as in SciPy
for layout in ("C", "F", "step2"):
    add(f"lap_inplace_{layout}", "laplace", make_input((9, 10, 11), "float64"), layout=layout, out_layout="inplace")
    add(f"lap_inplace_{layout}_i16", "laplace", make_input((12, 13), "int16"), layout=layout, out_layout="inplace",
        mode="nearest")
add("lap_inplace_axes", "laplace", make_input((9, 10, 11), "float32"), out_layout="inplace", axes=[2, 0])
add("lap_empty", "laplace", np.zeros((4, 0), np.float64))
add("lap_size1", "laplace", np.array([2.0]), mode="constant", cval=1.0)
add("lap_camera_u8_i16", "laplace", cam, output="int16")
add("err_lap_axes_range", "laplace", make_input((5, 4), "float64"), axes=[2], error="value_error")
add("err_lap_axes_dup", "laplace", make_input((5, 4), "float64"), axes=[0, -2], error="value_error")
add("err_lap_mode_len", "laplace", make_input((5, 4), "float64"), mode=["reflect"] * 3, error="runtime_error")
add("err_lap_mode_len_axes", "laplace", make_input((5, 4, 3), "float64"), axes=[0, 1], mode=["reflect"] * 3,
    error="runtime_error")
add("err_lap_complex_real_out", "laplace", make_input((5, 4), "complex128"), output="float32", error="runtime_error")
add("err_lap_real_complex_out", "laplace", make_input((5, 4), "int16"), output="complex64", error="runtime_error")
add("err_lap_f16", "laplace", make_input((5, 4), "float16"), error="runtime_error")
add("err_lap_outarr_shape", "laplace", make_input((5, 4), "float64"), out_layout="badshape", error="runtime_error")

# ---------------------------------------------------------------- gaussian_laplace
s.group("gaussian_laplace")
for dt in DTYPES:
    add(f"gl_dtype_{dt}", "gaussian_laplace", make_input((13, 17), dt), sigma=1.0)
add("gl_1d", "gaussian_laplace", make_input((40,), "float64"), sigma=2.0)
add("gl_3d", "gaussian_laplace", make_input((8, 9, 10), "float64"), sigma=1.2, mode="nearest")
add("gl_3d_f32", "gaussian_laplace", make_input((8, 9, 10), "float32"), sigma=[1.0, 0.7, 1.5])
add("gl_sigma_per_axis", "gaussian_laplace", make_input((15, 16), "float64"), sigma=[1.0, 2.5])
add("gl_sigma_zero_axis", "gaussian_laplace", make_input((15, 16), "float64"), sigma=[0.0, 1.5])
add("gl_sigma_all_zero", "gaussian_laplace", make_input((6, 5), "int16"), sigma=0.0)
add("gl_sigma_all_zero_f16", "gaussian_laplace", make_input((6, 5), "float16"), sigma=0.0)
for mode in MODES:
    add(f"gl_mode_{mode}", "gaussian_laplace", make_input((12, 13), "float64"), sigma=1.1, mode=mode, cval=2.0)
add("gl_modes_per_axis", "gaussian_laplace", make_input((8, 9, 10), "float64"), sigma=1.0,
    mode=["constant", "wrap", "reflect"], cval=-2.0)
add("gl_axes_0", "gaussian_laplace", make_input((8, 9, 10), "float64"), sigma=1.5, axes=[0])
add("gl_axes_21", "gaussian_laplace", make_input((8, 9, 10), "float64"), sigma=[1.0, 2.0], axes=[2, 1],
    mode=["mirror", "nearest"])
add("gl_axes_empty", "gaussian_laplace", make_input((5, 6), "float64"), sigma=[], axes=[])
add("gl_truncate", "gaussian_laplace", make_input((20, 21), "float64"), sigma=2.0, truncate=2.0)
add("gl_truncate_neg", "gaussian_laplace", make_input((20, 21), "float64"), sigma=1.0, truncate=-0.2)
add("gl_radius", "gaussian_laplace", make_input((20, 21), "float64"), sigma=2.0, radius=3)
add("gl_radius_seq_axes", "gaussian_laplace", make_input((8, 9, 10), "float64"), sigma=1.5, axes=[0, 2],
    radius=[2, 7, 4])
add("gl_large_sigma", "gaussian_laplace", make_input((30, 200), "float64"), sigma=[1.0, 40.0])  # 321 taps
for layout in LAYOUTS:
    add(f"gl_layout_{layout}", "gaussian_laplace", make_input((10, 11, 12), "float32"), sigma=1.0, layout=layout)
    add(f"gl_layout_{layout}_i16", "gaussian_laplace", make_input((14, 15), "int16", lim=1000), sigma=0.8,
        layout=layout)
for dt, out in [("uint8", "float32"), ("uint8", "int16"), ("float32", "float64"), ("float64", "int32"),
                ("complex64", "complex128"), ("int16", "uint8")]:
    add(f"gl_out_{dt}_{out}", "gaussian_laplace", make_input((9, 12), dt), sigma=1.3, output=out)
for ol in ("C", "F", "step2"):
    add(f"gl_outarr_{ol}", "gaussian_laplace", make_input((9, 10, 11), "float64"), sigma=1.0, out_layout=ol)
for layout in ("C", "F", "step2"):
    add(f"gl_inplace_{layout}", "gaussian_laplace", make_input((9, 10, 11), "float64"), sigma=1.0, layout=layout,
        out_layout="inplace")
add("gl_inplace_i32", "gaussian_laplace", make_input((12, 13), "int32", lim=1000), sigma=1.0, out_layout="inplace")
add("gl_camera_f64", "gaussian_laplace", cam, sigma=2.0, output="float64")
# sigma not > 1e-15 (negative, NaN): gaussian_filter gives that axis no pass, the derivative included
add("gl_sigma_neg", "gaussian_laplace", make_input((9, 8), "float64"), sigma=[1.0, -1.0])
add("gl_sigma_neg_axes", "gaussian_laplace", make_input((6, 7, 8), "float32"), sigma=[-2.0, 1.2], axes=[2, 0],
    mode="nearest")
add("gl_sigma_nan", "gaussian_laplace", make_input((9, 8), "float64"), sigma=[float("nan"), 1.5])
add("gl_sigma_all_neg_i16", "gaussian_laplace", make_input((6, 5), "int16"), sigma=-1.0)
add("gl_sigma_neg_trunc_neg", "gaussian_laplace", make_input((10, 11), "float64"), sigma=[-1.0, 1.0],
    truncate=-0.3)
add("err_gl_sigma_inf", "gaussian_laplace", make_input((5, 4), "float64"), sigma=float("inf"), error="value_error",
    deviation=True)  # SciPy: OverflowError from int(truncate * sigma + 0.5)
add("err_gl_trunc_nan", "gaussian_laplace", make_input((5, 4), "float64"), sigma=1.0, truncate=float("nan"),
    radius=2, error="value_error")  # int(nan) even when radius replaces it
add("err_gl_sigma_len", "gaussian_laplace", make_input((5, 4), "float64"), sigma=[1.0, 1.0, 1.0],
    error="runtime_error")
add("err_gl_sigma_len_axes", "gaussian_laplace", make_input((5, 4, 3), "float64"), sigma=[1.0, 1.0, 1.0], axes=[0, 1],
    error="runtime_error")
add("err_gl_radius_len", "gaussian_laplace", make_input((5, 4, 3), "float64"), sigma=1.0, axes=[0, 1],
    radius=[1, 2], error="runtime_error")
add("err_gl_radius_neg", "gaussian_laplace", make_input((5, 4), "float64"), sigma=1.0, radius=-1,
    error="value_error")
add("err_gl_truncate_neg", "gaussian_laplace", make_input((5, 4), "float64"), sigma=1.0, truncate=-3.0,
    error="value_error")
add("err_gl_mode_len", "gaussian_laplace", make_input((5, 4), "float64"), sigma=1.0, mode=["reflect"],
    error="runtime_error")
add("err_gl_axes_range", "gaussian_laplace", make_input((5, 4), "float64"), sigma=1.0, axes=[-3],
    error="value_error")
add("err_gl_f16", "gaussian_laplace", make_input((5, 4), "float16"), sigma=1.0, error="runtime_error")
add("err_gl_complex_real_out", "gaussian_laplace", make_input((5, 4), "complex64"), sigma=1.0, output="float32",
    error="runtime_error")

# ---------------------------------------------------------------- gaussian_gradient_magnitude
s.group("gaussian_gradient_magnitude")
for dt in DTYPES:
    add(f"ggm_dtype_{dt}", "gaussian_gradient_magnitude", make_input((13, 17), dt), sigma=1.0)
add("ggm_1d", "gaussian_gradient_magnitude", make_input((40,), "float64"), sigma=2.0)
add("ggm_3d", "gaussian_gradient_magnitude", make_input((8, 9, 10), "float64"), sigma=1.2, mode="nearest")
add("ggm_3d_f32", "gaussian_gradient_magnitude", make_input((8, 9, 10), "float32"), sigma=[1.0, 0.7, 1.5])
add("ggm_sigma_zero_axis", "gaussian_gradient_magnitude", make_input((15, 16), "float64"), sigma=[0.0, 1.5])
add("ggm_sigma_all_zero", "gaussian_gradient_magnitude", make_input((6, 5), "float64"), sigma=0.0)
add("ggm_sigma_all_zero_i16", "gaussian_gradient_magnitude", make_input((6, 5), "int16"), sigma=0.0)
add("ggm_sigma_all_zero_f16", "gaussian_gradient_magnitude", make_input((6, 5), "float16"), sigma=0.0)
for mode in MODES:
    add(f"ggm_mode_{mode}", "gaussian_gradient_magnitude", make_input((12, 13), "float64"), sigma=1.1, mode=mode,
        cval=2.0)
add("ggm_modes_per_axis", "gaussian_gradient_magnitude", make_input((8, 9, 10), "float64"), sigma=1.0,
    mode=["constant", "wrap", "reflect"], cval=-2.0)
# axes: every derivative still smooths along all axes (sigma has one value per input axis)
add("ggm_axes_0", "gaussian_gradient_magnitude", make_input((8, 9, 10), "float64"), sigma=1.5, axes=[0])
add("ggm_axes_21", "gaussian_gradient_magnitude", make_input((8, 9, 10), "float64"), sigma=[1.0, 2.0, 0.5],
    axes=[2, 1], mode=["mirror", "nearest"])
add("ggm_axes_empty", "gaussian_gradient_magnitude", make_input((5, 6), "int32"), sigma=1.0, axes=[])
add("ggm_truncate", "gaussian_gradient_magnitude", make_input((20, 21), "float64"), sigma=2.0, truncate=2.0)
add("ggm_radius", "gaussian_gradient_magnitude", make_input((20, 21), "float64"), sigma=2.0, radius=[1, 5])
add("ggm_large_sigma", "gaussian_gradient_magnitude", make_input((30, 200), "float32"), sigma=[1.0, 40.0])
for layout in LAYOUTS:
    add(f"ggm_layout_{layout}", "gaussian_gradient_magnitude", make_input((10, 11, 12), "float32"), sigma=1.0,
        layout=layout)
    add(f"ggm_layout_{layout}_u8", "gaussian_gradient_magnitude", make_input((14, 15), "uint8"), sigma=0.8,
        layout=layout)
for dt, out in [("uint8", "float32"), ("uint8", "int16"), ("float32", "float64"), ("float64", "int32"),
                ("float64", "uint16"), ("complex64", "complex128"), ("int16", "uint8"), ("float64", "int8")]:
    add(f"ggm_out_{dt}_{out}", "gaussian_gradient_magnitude", make_input((9, 12), dt), sigma=1.3, output=out)
for ol in ("C", "F", "step2"):
    add(f"ggm_outarr_{ol}", "gaussian_gradient_magnitude", make_input((9, 10, 11), "float64"), sigma=1.0,
        out_layout=ol)
for layout in ("C", "F", "step2"):
    add(f"ggm_inplace_{layout}", "gaussian_gradient_magnitude", make_input((9, 10, 11), "float64"), sigma=1.0,
        layout=layout, out_layout="inplace")
add("ggm_inplace_f32_axes", "gaussian_gradient_magnitude", make_input((9, 10, 11), "float32"), sigma=0.9,
    out_layout="inplace", axes=[1, 2])
add("ggm_inplace_u8", "gaussian_gradient_magnitude", make_input((12, 13), "uint8"), sigma=1.0, out_layout="inplace")
add("ggm_camera_f32", "gaussian_gradient_magnitude", cam.astype(np.float32), sigma=1.5)
add("ggm_camera_u8", "gaussian_gradient_magnitude", cam, sigma=1.0)
add("ggm_sigma_neg", "gaussian_gradient_magnitude", make_input((9, 8), "float64"), sigma=-1.0)
add("ggm_sigma_neg_axis", "gaussian_gradient_magnitude", make_input((6, 7, 8), "float64"), sigma=[1.0, -0.5, 1.5],
    axes=[1, 2])
add("ggm_sigma_nan_u8", "gaussian_gradient_magnitude", make_input((9, 8), "uint8"), sigma=[1.0, float("nan")])
add("err_ggm_sigma_inf", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=[1.0, float("inf")],
    error="value_error", deviation=True)  # SciPy: OverflowError from int(truncate * sigma + 0.5)
add("err_ggm_radius_neg", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0, radius=[1, -1],
    error="value_error")
add("err_ggm_sigma_len", "gaussian_gradient_magnitude", make_input((5, 4, 3), "float64"), sigma=[1.0, 1.0],
    axes=[0, 1], error="runtime_error")
add("err_ggm_radius_len", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0, radius=[1, 2, 3],
    error="runtime_error")
add("err_ggm_mode_len", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0,
    mode=["reflect"] * 3, error="runtime_error")
add("err_ggm_axes_dup", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0, axes=[1, 1],
    error="value_error")
add("err_ggm_real_complex_out", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0,
    output="complex128", error="runtime_error")
add("err_ggm_f16", "gaussian_gradient_magnitude", make_input((5, 4), "float16"), sigma=1.0, error="runtime_error")
add("err_ggm_outarr_shape", "gaussian_gradient_magnitude", make_input((5, 4), "float64"), sigma=1.0,
    out_layout="badshape", error="runtime_error")

# ---------------------------------------------------------------- generic_gradient_magnitude
s.group("generic_gradient_magnitude")
for dt in DTYPES:
    add(f"ggen_dtype_{dt}", "generic_gradient_magnitude", make_input((13, 17), dt), derivative="sobel")
for deriv in ("sobel", "prewitt"):
    add(f"ggen_3d_{deriv}", "generic_gradient_magnitude", make_input((8, 9, 10), "float64"), derivative=deriv,
        mode="nearest")
    add(f"ggen_3d_{deriv}_i32", "generic_gradient_magnitude", make_input((8, 9, 10), "int32", lim=1000),
        derivative=deriv)
add("ggen_1d", "generic_gradient_magnitude", make_input((25,), "float64"), derivative="sobel")
add("ggen_modes_per_axis", "generic_gradient_magnitude", make_input((8, 9, 10), "float64"), derivative="sobel",
    mode=["constant", "wrap", "mirror"], cval=1.5)
add("ggen_axes", "generic_gradient_magnitude", make_input((8, 9, 10), "float64"), derivative="sobel", axes=[2, 0])
add("ggen_axes_empty", "generic_gradient_magnitude", make_input((5, 6), "float64"), derivative="sobel", axes=[])
add("ggen_0d", "generic_gradient_magnitude", np.array(-2.0), derivative="sobel")
for layout in LAYOUTS:
    add(f"ggen_layout_{layout}", "generic_gradient_magnitude", make_input((10, 11, 12), "float32"),
        derivative="sobel", layout=layout)
for dt, out in [("uint8", "int16"), ("uint8", "float32"), ("float64", "int32"), ("complex64", "complex128")]:
    add(f"ggen_out_{dt}_{out}", "generic_gradient_magnitude", make_input((9, 12), dt), derivative="sobel", output=out)
# squares and sums wrap in the output dtype; the square root of a negative sum is NaN, cast as NumPy
for dt, lim in [("int8", 127), ("uint8", 255), ("int16", 2000), ("uint16", 4000), ("int32", 100000),
                ("uint32", 100000), ("int64", 10 ** 9), ("uint64", 10 ** 9)]:
    add(f"ggen_wrap_{dt}", "generic_gradient_magnitude", make_input((16, 17), dt, lim=lim), derivative="sobel")
for ol in ("C", "F", "step2"):
    add(f"ggen_outarr_{ol}", "generic_gradient_magnitude", make_input((9, 10, 11), "float64"), derivative="sobel",
        out_layout=ol)
for layout in ("C", "F"):
    add(f"ggen_inplace_{layout}", "generic_gradient_magnitude", make_input((9, 10, 11), "float64"),
        derivative="prewitt", layout=layout, out_layout="inplace")
add("ggen_inplace_i16", "generic_gradient_magnitude", make_input((12, 13), "int16"), derivative="sobel",
    out_layout="inplace")
add("ggen_camera_u8", "generic_gradient_magnitude", cam, derivative="sobel", output="float32")
add("err_ggen_mode_len", "generic_gradient_magnitude", make_input((5, 4), "float64"), derivative="sobel",
    mode=["reflect"], error="runtime_error")
add("err_ggen_axes_range", "generic_gradient_magnitude", make_input((5, 4), "float64"), derivative="sobel", axes=[5],
    error="value_error")
add("err_ggen_outarr_shape", "generic_gradient_magnitude", make_input((5, 4), "float64"), derivative="sobel",
    out_layout="badshape", error="runtime_error")
add("err_ggen_deriv_raises", "generic_gradient_magnitude", make_input((5, 4), "float16"), derivative="sobel",
    error="runtime_error")

# ---------------------------------------------------------------- generic_laplace
s.group("generic_laplace")
for dt in DTYPES:
    add(f"glap_dtype_{dt}", "generic_laplace", make_input((13, 17), dt), derivative="corr121")
add("glap_3d", "generic_laplace", make_input((8, 9, 10), "float64"), derivative="corr121",
    mode=["constant", "wrap", "mirror"], cval=1.5)
add("glap_axes", "generic_laplace", make_input((8, 9, 10), "int32"), derivative="corr121", axes=[1, -1])
add("glap_axes_empty", "generic_laplace", make_input((5, 6), "float64"), derivative="corr121", axes=[])
add("glap_sobel", "generic_laplace", make_input((8, 9, 10), "float64"), derivative="sobel")
for layout in LAYOUTS:
    add(f"glap_layout_{layout}", "generic_laplace", make_input((10, 11, 12), "float32"), derivative="corr121",
        layout=layout)
for ol in ("C", "F", "step2"):
    add(f"glap_outarr_{ol}", "generic_laplace", make_input((9, 10, 11), "float64"), derivative="corr121",
        out_layout=ol)
add("glap_inplace", "generic_laplace", make_input((9, 10, 11), "float64"), derivative="corr121", out_layout="inplace")
add("glap_out_u8_i16", "generic_laplace", make_input((9, 12), "uint8"), derivative="corr121", output="int16")
# a derivative that returns float64 whatever the output dtype: NumPy's `output += tmp` (same_kind)
add("glap_mixed_f32", "generic_laplace", make_input((9, 10, 11), "float32"), derivative="corr121_f64")
add("glap_mixed_i16_f32", "generic_laplace", make_input((9, 12), "int16"), derivative="corr121_f64", output="float32")
add("err_glap_mixed_i32", "generic_laplace", make_input((9, 12), "int32"), derivative="corr121_f64",
    error="type_error")
add("err_glap_mode_len", "generic_laplace", make_input((5, 4), "float64"), derivative="corr121",
    mode=["reflect"] * 3, error="runtime_error")
add("err_glap_axes_dup", "generic_laplace", make_input((5, 4), "float64"), derivative="corr121", axes=[0, 0],
    error="value_error")

s.write()
