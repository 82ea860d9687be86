#!/usr/bin/env python
"""Reference data for cusci::ndimage's correlate and convolve (N-D weights), computed with SciPy at
build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage_correlate.py --out <build>/tests/golden

Each case: func ("correlate" / "convolve"), input and weights (array names), expected (array name,
absent for error cases), and SciPy's parameters: mode, cval (a number or [re, im]), origin (an int)
or origin_seq (a list), axes, output (a dtype name or null) with output_kind ("dtype": a new array of
that dtype; "array": a zero array of that dtype passed as output, laid out as output_order "C" or
"F"; "inplace": the input itself), layout of the input (C as stored, F, step2 = input[::2, ::2, ...],
rev = input[..., ::-1]), and weights_device (the weights passed as a device array). Error cases
record the exception SciPy raised (RuntimeError -> runtime_error, ValueError -> value_error,
TypeError -> type_error).
"""
import functools
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage_correlate")
rng = s.rng(20261215)
MODES = ("reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap")
ERRORS = {RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error"}
make_input = functools.partial(ndimage_inputs.make_input, rng, complex_scale=5)


def make_weights(shape, kind="real"):
    w = np.round(rng.standard_normal(shape), 3)
    if kind == "complex":
        w = w + 1j * np.round(rng.standard_normal(shape), 3)
    return w


def add(case, func, a, w, layout="C", mode="reflect", cval=0.0, origin=0, axes=None, output=None,
        output_kind="dtype", output_order="C", weights_device=False, expect_error=None):
    """Runs SciPy on view(a, layout) and records the case (or the error SciPy raises)."""
    inp = s.array(case + "_in", a)
    wname = s.array(case + "_w", np.asarray(w))
    x = view(np.array(a), layout)
    f = ndi.correlate if func == "correlate" else ndi.convolve
    out_arg = None
    if output_kind == "dtype":
        out_arg = None if output is None else np.dtype(output)
    elif output_kind == "array":
        out_arg = np.zeros(x.shape, dtype=output, order=output_order)
    elif output_kind == "inplace":
        out_arg = x
    params = dict(func=func, input=inp, weights=wname, layout=layout, mode=mode, cval=cval, axes=axes,
                  output=None if output is None else np.dtype(output).name, output_kind=output_kind,
                  output_order=output_order, weights_device=weights_device)
    if isinstance(origin, (list, tuple)):
        params["origin_seq"] = list(origin)
    else:
        params["origin"] = origin
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = f(x, np.asarray(w), output=out_arg, mode=mode, cval=cval, origin=origin, axes=axes)
    except tuple(ERRORS) as e:
        kind = ERRORS[type(e)]
        if expect_error is not None and kind != expect_error:
            raise AssertionError(f"{case}: SciPy raised {type(e).__name__} ({e}), expected {expect_error}")
        s.case(case, error=kind, scipy_message=str(e), **params)
        return
    if expect_error is not None:
        raise AssertionError(f"{case}: SciPy did not raise {expect_error}")
    r = np.asarray(r)
    scale = float(np.max(np.abs(r))) if r.size and r.dtype != np.bool_ else 1.0
    if not np.isfinite(scale):
        scale = 1.0
    rtol, atol = tol(r.dtype, scale=scale)
    s.case(case, rtol=rtol, atol=atol, expected=s.array(case + "_out", r), **params)


# ---- dtypes: every real and complex input dtype, 2-D, a 3 x 3 stencil, both functions
s.group("dtypes")
for dt in ("bool", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64",
           "complex64", "complex128"):
    a = make_input((13, 17), dt)
    w = make_weights((3, 3))
    add(f"dt_{dt}", "correlate", a, w)
    add(f"dt_{dt}_conv", "convolve", a, w, mode="nearest")
# outputs of other dtypes (SciPy's cast of the double sum: truncation, wrap-around)
for dt_in, dt_out in (("uint8", "float32"), ("float64", "int16"), ("float32", "uint8"), ("int16", "int8"),
                      ("float64", "uint32"), ("float64", "int64"), ("float64", "uint64"), ("int32", "float64"),
                      ("uint8", "bool"), ("float32", "float64"), ("float64", "float32"), ("int64", "int32")):
    a = make_input((11, 14), dt_in)
    add(f"out_{dt_in}_{dt_out}", "correlate", a, make_weights((3, 2)) * 3, output=dt_out)

# ---- weights of 1-D..4-D, even sizes, zeros, tiny weights (dropped by SciPy), larger arrays (tiles)
s.group("weights")
a1 = make_input((50,), "float64")
for k in (1, 2, 4, 5, 7):
    add(f"w1d_{k}", "correlate", a1, make_weights((k,)))
    add(f"w1d_{k}_conv", "convolve", a1, make_weights((k,)))
a2 = make_input((23, 29), "float64")
for ws in ((1, 1), (2, 2), (3, 4), (4, 3), (5, 5), (1, 5), (6, 1), (7, 2)):
    add(f"w2d_{ws[0]}x{ws[1]}", "correlate", a2, make_weights(ws))
    add(f"w2d_{ws[0]}x{ws[1]}_conv", "convolve", a2, make_weights(ws))
a3 = make_input((6, 7, 9), "float64")
for ws in ((3, 3, 3), (2, 3, 4), (1, 1, 1), (4, 4, 4), (1, 3, 1), (3, 1, 2)):
    add(f"w3d_{'x'.join(map(str, ws))}", "correlate", a3, make_weights(ws))
    add(f"w3d_{'x'.join(map(str, ws))}_conv", "convolve", a3, make_weights(ws), mode="wrap")
a4 = make_input((4, 5, 3, 6), "float32")
add("w4d", "correlate", a4, make_weights((3, 2, 3, 3)), mode="mirror")
add("w4d_conv", "convolve", a4, make_weights((2, 2, 1, 3)), mode="constant", cval=1.5)
# zeros and tiny weights: dropped taps, so inf / nan under them do not reach the result
wz = make_weights((3, 3))
wz[0, 1] = 0.0
wz[2, 2] = 1e-17
wz[1, 0] = -2e-16
wz[2, 0] = 3e-16  # > DBL_EPSILON: kept
az = make_input((12, 15), "float64")
az[4, 6] = np.inf
az[7, 3] = np.nan
add("w_zeros_inf", "correlate", az, wz)
add("w_zeros_inf_conv", "convolve", az, wz, mode="constant", cval=np.inf)
add("w_zeros_f32", "correlate", az.astype(np.float32), wz)
add("w_zeros_u8", "correlate", make_input((12, 15), "uint8"), wz * 2, output="int16")
wn = make_weights((3, 3))
wn[1, 1] = np.nan  # NaN weights fail SciPy's |w| > DBL_EPSILON test too
add("w_nan_weight", "correlate", az, wn)
add("w_all_zero", "correlate", az, np.zeros((3, 2)))
add("w_all_zero_u8", "correlate", make_input((5, 6), "uint8"), np.full((2, 2), 1e-18), mode="constant", cval=7.0)
add("w_int_weights", "correlate", make_input((9, 10), "int16"), np.array([[1, 2, 1], [0, 0, 0], [-1, -2, -1]]))
add("w_bool_weights", "correlate", make_input((9, 10), "uint8"), np.array([[True, False], [True, True]]))
add("w_device", "correlate", make_input((9, 10), "float64"), make_weights((3, 3)), weights_device=True)
add("w_device_conv", "convolve", make_input((9, 10), "float64"), make_weights((2, 3)), weights_device=True)
# larger arrays: several tiles of the blocked kernels (2-D: 64 x 32, 3-D: 8 x 8 x 32), both float paths
for dt in ("float32", "float64", "uint8", "int16"):
    add(f"tiles_2d_5x5_{dt}", "correlate", make_input((130, 97), dt), make_weights((5, 5)))
    add(f"tiles_3d_3x3x3_{dt}", "correlate", make_input((19, 18, 40), dt), make_weights((3, 3, 3)),
        mode="constant", cval=-1.25)
add("tiles_2d_3x3_f32_wrap", "correlate", make_input((70, 100), "float32"), make_weights((3, 3)), mode="wrap")
add("tiles_2d_big_weights", "correlate", make_input((40, 45), "float32"), make_weights((17, 17)))  # generic
add("tiles_2d_wide_weights", "correlate", make_input((40, 80), "float64"), make_weights((3, 40)), mode="nearest")
add("tiles_3d_5x5x5", "correlate", make_input((12, 14, 35), "float32"), make_weights((5, 5, 5)))
add("tiles_3d_7x7x7", "convolve", make_input((10, 11, 12), "float64"), make_weights((7, 7, 7)) / 50)  # generic
add("long_1d", "correlate", make_input((700,), "float32"), make_weights((9,)), mode="mirror")
add("short_lines", "correlate", make_input((1, 3), "float64"), make_weights((4, 5)), mode="mirror")
add("short_3d", "correlate", make_input((1, 2, 1), "float64"), make_weights((3, 3, 3)), mode="reflect")

# ---- every mode, with cval, on 1-D / 2-D / 3-D
s.group("modes")
for m in MODES:
    add(f"mode_{m}_1d", "correlate", make_input((17,), "float32"), make_weights((4,)), mode=m, cval=2.5)
    add(f"mode_{m}_2d_u8", "correlate", make_input((9, 11), "uint8"), make_weights((3, 4)) * 2, mode=m, cval=-3.5,
        output="int16")
    add(f"mode_{m}_3d", "convolve", make_input((5, 6, 7), "float64"), make_weights((3, 2, 3)), mode=m, cval=0.75)
    add(f"mode_{m}_2d_f32_big", "correlate", make_input((70, 40), "float32"), make_weights((5, 5)), mode=m,
        cval=1.0)
    # weights longer than the array (boundary maps fold several times)
    add(f"mode_{m}_short", "correlate", make_input((3, 2), "float64"), make_weights((7, 6)), mode=m, cval=-1.0)

# ---- origins: scalar, per axis, even sizes, convolve's adjustment, invalid ones
s.group("origins")
ao = make_input((12, 13), "float64")
for origin in (-1, 1, [0, -1], [1, -2], [-2, 1]):
    tag = str(origin).replace(" ", "").replace("[", "").replace("]", "").replace(",", "_")
    add(f"origin_{tag}", "correlate", ao, make_weights((4, 5)), origin=origin)
    add(f"origin_{tag}_conv", "convolve", ao, make_weights((4, 5)), origin=origin, mode="constant", cval=1.0)
add("origin_3d_seq", "correlate", make_input((6, 7, 8), "float32"), make_weights((3, 2, 4)), origin=[-1, 0, 1])
add("origin_3d_seq_conv", "convolve", make_input((6, 7, 8), "float32"), make_weights((3, 2, 4)), origin=[1, 0, -2])
add("origin_bad_hi", "correlate", ao, make_weights((4, 5)), origin=2, expect_error="value_error")
add("origin_bad_lo", "correlate", ao, make_weights((4, 5)), origin=[-3, 0], expect_error="value_error")
add("origin_bad_conv", "convolve", ao, make_weights((4, 5)), origin=[2, 0], expect_error="value_error")
add("origin_bad_len", "correlate", ao, make_weights((4, 5)), origin=[0, 0, 0], expect_error="runtime_error")

# ---- axes: subsets (weights of that many dims), negative, order, all axes permuted
s.group("axes")
ax3 = make_input((7, 8, 9), "float64")
add("axes_02", "correlate", ax3, make_weights((3, 4)), axes=[0, 2], origin=[1, -1])
add("axes_20", "correlate", ax3, make_weights((3, 4)), axes=[2, 0], origin=[1, -1])
add("axes_m1", "convolve", ax3, make_weights((4,)), axes=[-1], origin=1)
add("axes_1", "correlate", ax3, make_weights((5,)), axes=[1], mode="constant", cval=3.0)
add("axes_10_full", "correlate", make_input((8, 9), "float32"), make_weights((3, 2)), axes=[1, 0], origin=[1, 0])
add("axes_empty", "correlate", make_input((4, 5), "float64"), np.float64(2.5), axes=[])
add("axes_u8", "correlate", make_input((6, 7, 8), "uint8"), make_weights((2, 3)), axes=[1, 2], output="float32")
add("axes_bad", "correlate", ax3, make_weights((3,)), axes=[3], expect_error="value_error")
add("axes_repeat", "correlate", ax3, make_weights((3, 3)), axes=[1, 1], expect_error="value_error")
add("axes_wrong_ndim", "correlate", ax3, make_weights((3, 3, 3)), axes=[0, 1], expect_error="runtime_error")

# ---- outputs: arrays (C and F), in place
s.group("outputs")
add("outarr_f64", "correlate", make_input((10, 12), "float64"), make_weights((3, 3)), output="float64",
    output_kind="array")
add("outarr_f32_F", "correlate", make_input((10, 12), "float64"), make_weights((3, 3)), output="float32",
    output_kind="array", output_order="F")
add("outarr_i16", "convolve", make_input((10, 12), "uint8"), make_weights((2, 3)) * 2, output="int16",
    output_kind="array")
add("inplace_f32", "correlate", make_input((10, 12), "float32"), make_weights((3, 3)), output_kind="inplace")
add("inplace_u8", "correlate", make_input((20, 33), "uint8"), np.abs(make_weights((3, 3))), output_kind="inplace",
    mode="mirror")
add("inplace_3d_conv", "convolve", make_input((6, 7, 8), "float64"), make_weights((3, 3, 3)), output_kind="inplace")

# ---- layouts
s.group("layouts")
for layout in ("F", "step2", "rev"):
    add(f"layout_{layout}_2d", "correlate", make_input((14, 19), "float32"), make_weights((3, 4)), layout=layout)
    add(f"layout_{layout}_3d", "convolve", make_input((8, 10, 12), "float64"), make_weights((2, 3, 3)),
        layout=layout, mode="mirror")
    add(f"layout_{layout}_u8", "correlate", make_input((14, 19), "uint8"), make_weights((5, 2)) * 2,
        layout=layout, output="int16", mode="wrap")
    add(f"layout_{layout}_c64", "correlate", make_input((9, 12), "complex64"), make_weights((3, 3), "complex"),
        layout=layout)
add("layout_step2_1d", "correlate", make_input((41,), "int32"), make_weights((3,)), layout="step2")
add("layout_rev_inplace", "correlate", make_input((9, 12), "float64"), make_weights((3, 3)), layout="rev",
    output_kind="inplace")

# ---- complex inputs and weights (_complex_via_real_components)
s.group("complex")
for dt in ("complex64", "complex128"):
    ac = make_input((11, 13), dt)
    add(f"cx_{dt}_realw", "correlate", ac, make_weights((3, 3)), mode="constant", cval=complex(1.5, -2.0))
    add(f"cx_{dt}_cw", "correlate", ac, make_weights((3, 2), "complex"))
    add(f"cx_{dt}_cw_conv", "convolve", ac, make_weights((3, 2), "complex"), mode="constant", cval=complex(0.5, 1.0))
    add(f"cx_{dt}_cw_3d", "correlate", make_input((5, 6, 7), dt), make_weights((2, 3, 3), "complex"), mode="wrap")
for dt in ("uint8", "int32", "float32", "float64"):
    add(f"cx_real_{dt}_cw", "correlate", make_input((10, 12), dt), make_weights((3, 3), "complex"))
    add(f"cx_real_{dt}_cw_conv", "convolve", make_input((10, 12), dt), make_weights((2, 3), "complex"),
        mode="constant", cval=2.0)
add("cx_c128_out_c64", "correlate", make_input((8, 9), "complex128"), make_weights((3, 3), "complex"),
    output="complex64")
add("cx_c64_out_c128", "correlate", make_input((8, 9), "complex64"), make_weights((3, 3), "complex"),
    output="complex128")
add("cx_out_real_dtype", "correlate", make_input((8, 9), "complex64"), make_weights((3, 3)), output="float64")
add("cx_real_out_real_dtype", "correlate", make_input((8, 9), "float32"), make_weights((3, 3), "complex"),
    output="float32")
add("cx_outarr", "correlate", make_input((8, 9), "complex128"), make_weights((3, 3), "complex"),
    output="complex128", output_kind="array")
add("cx_inplace", "convolve", make_input((8, 9), "complex64"), make_weights((3, 3), "complex"),
    output_kind="inplace")
add("cx_axes", "correlate", make_input((5, 6, 7), "complex128"), make_weights((3,), "complex"), axes=[1])
add("cx_zero_imag_w", "correlate", make_input((8, 9), "float64"), make_weights((3, 3)) + 0j)

# ---- 0-d and empty inputs
s.group("shapes")
add("zero_d", "correlate", np.array(3.0), np.array(2.0))
add("zero_d_u8", "convolve", np.array(7, dtype=np.uint8), np.array(1.5))
add("empty_2d", "correlate", make_input((0, 5), "float32"), make_weights((3, 3)))
add("empty_3d", "convolve", make_input((3, 0, 2), "int16"), make_weights((2, 2, 2)))

# ---- errors
s.group("errors")
ae = make_input((6, 7), "float64")
add("err_weights_ndim", "correlate", ae, make_weights((3,)), expect_error="runtime_error")
add("err_weights_ndim3", "correlate", ae, make_weights((3, 3, 3)), expect_error="runtime_error")
add("err_weights_empty", "correlate", ae, np.zeros((3, 0)), expect_error="runtime_error")
add("err_out_cx_for_real", "correlate", ae, make_weights((3, 3)), output="complex128", expect_error="runtime_error")
add("err_outarr_real_for_cx", "correlate", make_input((6, 7), "complex128"), make_weights((3, 3)), output="float64",
    output_kind="array", expect_error="runtime_error")
add("err_outarr_real_for_cw", "correlate", ae, make_weights((3, 3), "complex"), output="float64",
    output_kind="array", expect_error="runtime_error")
add("err_float16", "correlate", make_input((6, 7), "float16"), make_weights((3, 3)), expect_error="runtime_error")
add("err_cval_complex_real", "correlate", ae, make_weights((3, 3)), mode="constant", cval=complex(1, 2),
    expect_error="type_error")
add("err_cval_complex_cw", "correlate", ae, make_weights((3, 3), "complex"), mode="constant", cval=complex(1, 2),
    expect_error="value_error")

# output array of the wrong shape (SciPy: RuntimeError "output shape not correct")
s.group("errors_shape")
x = make_input((6, 7), "float64")
inp = s.array("err_outarr_shape_in", x)
wname = s.array("err_outarr_shape_w", make_weights((3, 3)))
try:
    ndi.correlate(x, s._groups["errors_shape"]["err_outarr_shape_w"], output=np.zeros((7, 6)))
    raise AssertionError("err_outarr_shape: SciPy did not raise")
except RuntimeError as e:
    s.case("err_outarr_shape", error="runtime_error", scipy_message=str(e), func="correlate", input=inp,
           weights=wname, layout="C", mode="reflect", cval=0.0, origin=0, axes=None, output="float64",
           output_kind="array_shape", output_shape=[7, 6], output_order="C", weights_device=False)

s.write()
