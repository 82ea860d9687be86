#!/usr/bin/env python
"""Golden data for cusci::ndimage's grey morphology (grey_erosion, grey_dilation, grey_opening,
grey_closing, morphological_gradient, morphological_laplace, white_tophat, black_tophat) from SciPy
1.18.1: box sizes (odd and even), flat footprints (asymmetric and even ones: erosion uses them as
given, dilation mirrors them), non-flat structures (with and without a footprint, 1-D to 4-D, more
taps than travel in the kernel parameters), every mode, cval (NaN too), origins over their whole
valid range, axes, every real dtype (bool, integers with SciPy's wrap-around casts, floats with NaN),
output dtypes and arrays (every layout, in place), input layouts (C, F, step2, rev, and a
zero-stride broadcast), sizes 0 and 1, and the error cases. Same case format as gen_ndimage.py
(tests/golden/golden.py):

    python tests/golden/gen_ndimage_grey.py --out <build>/tests/golden

Case parameters: input (array), layout (C, F, step2, rev, bcast: the stored array's first row
broadcast to its shape with stride 0), size (int, list or null), footprint (array name), structure
(array name), mode (string or list), cval, origin (int or list), axes, output (dtype name),
output_array ({"dtype", "layout"}: C, F, rev, step2, or "input" for in place; "shape" for errors),
after_work (an error raised by NumPy's arithmetic after the filters ran: not checked by the host
test), error (+ error_text).

In place: an output array that is the input receives the values SciPy gives for a separate output
array of the input's dtype (cusci's rule; SciPy's composites that read the input after writing the
output differ there).
"""
import functools
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage_grey")
rng = s.rng(20261216)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap"]
FUNCS = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
         "morphological_laplace", "white_tophat", "black_tophat"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]

warnings.simplefilter("ignore", UserWarning)  # SciPy's "ignoring size because footprint is set"
np.seterr(all="ignore")  # NaN and overflow in the composites' arithmetic are part of the cases
make_input = functools.partial(ndimage_inputs.make_input, rng, uint_max=250, int_max=120)


def layout_view(a, layout):
    if layout == "bcast":
        return np.broadcast_to(a[:1], a.shape)
    return view(a, layout)


def call(func, x, kw):
    f = getattr(ndi, func)
    return f(x, size=kw.get("size"), footprint=kw.get("fp"), structure=kw.get("st"), output=kw.get("out"),
             mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0), origin=kw.get("origin", 0),
             axes=kw.get("axes"))


def add(case, func, a, layout="C", error=None, error_text=None, footprint=None, structure=None, output_array=None,
        after_work=None, **kw):
    if layout == "bcast":
        a = np.ascontiguousarray(np.broadcast_to(a[:1], a.shape))
    inp = s.array(case + "_in", a)
    x = layout_view(a, layout)
    c = dict(kw)
    if kw.get("output") is not None:
        c["out"] = np.dtype(kw["output"])
    fp_name = st_name = None
    if footprint is not None:
        footprint = np.asarray(footprint)
        c["fp"] = footprint
        fp_name = s.array(case + "_fp", footprint.astype(np.bool_))
    if structure is not None:
        structure = np.asarray(structure)
        c["st"] = structure
        st_name = s.array(case + "_st", structure.astype(np.float64))
    if output_array is not None:
        # A separate output array of the asked dtype (in place: the input's dtype); the values an
        # output array receives are the ones SciPy writes into such an array.
        dt = a.dtype if output_array["layout"] == "input" else np.dtype(output_array["dtype"])
        c["out"] = np.zeros(output_array.get("shape", a.shape), dt)
    expected = None
    if error is None:
        r = call(func, x, c)
        if output_array is not None:
            assert r is c["out"] or np.shares_memory(r, c["out"]), case
        expected = s.array(case + "_out", r)
    else:
        try:
            call(func, x, c)
        except (ValueError, RuntimeError, TypeError, IndexError):
            pass
        else:
            raise AssertionError(f"{case}: SciPy accepted an error case")
    s.case(case, func, rtol=0.0, atol=0.0, error=error, error_text=error_text, input=inp, expected=expected,
           layout=layout, footprint=fp_name, structure=st_name, output_array=output_array, after_work=after_work,
           **kw)


CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
DIAMOND5 = np.array([[abs(i - 2) + abs(j - 2) <= 2 for j in range(5)] for i in range(5)])
RAND43 = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]], bool)  # even, asymmetric
ROW4 = np.array([[1, 1, 0, 1]], bool)
CROSS3D = np.zeros((3, 3, 3), bool)
CROSS3D[1, 1, :] = CROSS3D[1, :, 1] = CROSS3D[:, 1, 1] = True
ST33 = np.array([[0.0, 1.0, 0.5], [2.0, 0.0, -1.0], [1.5, 3.0, 0.25]])
ST23 = np.array([[1.0, -2.0, 0.0], [4.0, 0.5, 2.0]])  # even rows, asymmetric
ST44 = rng.integers(-3, 4, size=(4, 4)).astype(np.float64)
ST_INT = np.array([[1, 2, 1], [2, 5, 2], [1, 2, 1]])  # integer structure (converted to float64)
ST0 = np.zeros((3, 3))  # flat values, the non-flat kernel (-0.0 + -0.0 keeps a negative zero)

s.group("sizes")
a64 = make_input((17, 19), "float64")
for func in FUNCS:
    for size in (1, 2, 3, 4, 5):
        add(f"{func}_s{size}", func, a64, size=size)
    add(f"{func}_s35", func, a64, size=[3, 5], mode="nearest")
    add(f"{func}_s21", func, a64, size=[2, 1], mode="wrap")
    add(f"{func}_s64_1d", func, make_input((40,), "float32"), size=6, mode="mirror")
for func in ("grey_erosion", "grey_dilation"):
    for size in (3, 4):
        for mode in MODES:
            add(f"{func}_s{size}_{mode}", func, a64, size=size, mode=mode, cval=1.25)
    add(f"{func}_modes", func, a64, size=[3, 4], mode=["constant", "wrap"], cval=-3.0)
    add(f"{func}_long", func, make_input((20, 70), "float32"), size=[3, 23], mode="reflect")
for func in ("grey_opening", "grey_closing", "white_tophat", "black_tophat"):
    for mode in ("constant", "wrap", "mirror"):
        add(f"{func}_s3_{mode}", func, a64, size=3, mode=mode, cval=2.5)

s.group("footprints")
for func in FUNCS:
    add(f"{func}_cross", func, a64, footprint=CROSS)
    add(f"{func}_rand43", func, a64, footprint=RAND43, mode="constant", cval=0.5)
    add(f"{func}_diamond", func, a64, footprint=DIAMOND5, mode="wrap")
    add(f"{func}_row4", func, a64, footprint=ROW4, mode="mirror")
    add(f"{func}_allones", func, a64, footprint=np.ones((2, 3)))  # separable as SciPy
for func in ("grey_erosion", "grey_dilation"):
    for mode in MODES:
        add(f"{func}_rand43_{mode}", func, a64, footprint=RAND43, mode=mode, cval=-1.5)
    add(f"{func}_fp_ints", func, a64, footprint=np.array([[2, 0, 1], [0, 3, 0], [1, 0, 5]]))
    add(f"{func}_fp_single", func, a64, footprint=[[1]])
    add(f"{func}_fp_size_ignored", func, a64, size=7, footprint=CROSS)
    add(f"{func}_cross3d", func, make_input((6, 7, 8), "float32"), footprint=CROSS3D, mode="nearest")
    add(f"{func}_fp_big", func, make_input((40, 45), "float64"), footprint=rng.random((9, 11)) < 0.5)

s.group("structures")
for func in FUNCS:
    add(f"{func}_st33", func, a64, structure=ST33)
    add(f"{func}_st23", func, a64, structure=ST23, mode="constant", cval=1.0)
    add(f"{func}_st44", func, a64, structure=ST44, mode="wrap")
    add(f"{func}_st_fp", func, a64, structure=ST33, footprint=CROSS, mode="nearest")
    add(f"{func}_st_int", func, make_input((15, 16), "int16"), structure=ST_INT, mode="mirror")
for func in ("grey_erosion", "grey_dilation"):
    for mode in MODES:
        add(f"{func}_st23_{mode}", func, a64, structure=ST23, mode=mode, cval=4.0)
    add(f"{func}_st0", func, np.where(a64 > 0, a64, -0.0), structure=ST0)
    add(f"{func}_st_fp_rand43", func, a64, structure=rng.random((4, 3)) * 4, footprint=RAND43, mode="reflect")
    add(f"{func}_st_fp_flatshape", func, a64, structure=rng.random((2, 2)), footprint=ROW4)  # read flat
    add(f"{func}_st_size_ignored", func, a64, size=5, structure=ST33)
    add(f"{func}_st1d", func, make_input((50,), "float32"), structure=[1.0, 0.0, 2.0, -1.0], mode="reflect")
    add(f"{func}_st3d", func, make_input((7, 8, 9), "float64"), structure=rng.random((3, 2, 3)) * 2 - 1,
        mode="constant", cval=-2.0)
    add(f"{func}_st4d", func, make_input((4, 5, 3, 6), "float64"), structure=rng.random((2, 3, 1, 3)), mode="wrap")
    # More taps than travel in the kernel parameters (device buffers).
    add(f"{func}_st_many", func, make_input((40, 41), "float32"), structure=rng.random((23, 23)) * 5,
        mode="reflect")
    # Tiles: several 32 x 32 tiles with partial edge tiles; a halo that shrinks the tile.
    add(f"{func}_st_tiles", func, make_input((70, 67), "float64"), structure=ST33, mode="mirror")
    add(f"{func}_st_tiles_f32", func, make_input((9, 10, 35), "float32"), structure=rng.random((3, 3, 3)),
        mode="nearest")
    add(f"{func}_st_wide", func, make_input((20, 30), "float64"), structure=rng.random((31, 45)) * 3,
        mode="constant", cval=3.0)
    # Wrap-around: uint8 values minus the structure below 0 (stored as x86-64's C cast does).
    add(f"{func}_st_u8_wrap", func, make_input((12, 13), "uint8", lim=5), structure=ST33 * 3, mode="reflect")
    add(f"{func}_st_i8_wrap", func, make_input((12, 13), "int8", lim=127), structure=ST_INT * 10)

s.group("origins")
for func in ("grey_erosion", "grey_dilation"):
    for size in (3, 4, 5):
        # The whole valid range: -(size // 2) .. (size - 1) // 2 for both (the dilation negates the
        # origin and subtracts 1 along even extents, which maps the range onto itself).
        for origin in range(-(size // 2), (size - 1) // 2 + 1):
            add(f"{func}_origin_s{size}_o{origin}", func, a64, size=size, origin=origin, mode="constant", cval=-2.0)
            add(f"{func}_origin_fp_s{size}_o{origin}", func, a64,
                footprint=(rng.random((size, size)) < 0.6) | np.eye(size, dtype=bool), origin=origin, mode="wrap")
    add(f"{func}_origin_list", func, a64, size=[3, 4], origin=[1, -1], mode="nearest")
    add(f"{func}_origin_rand43", func, a64, footprint=RAND43, origin=[-1, 1], mode="mirror")
    add(f"{func}_origin_st23", func, a64, structure=ST23, origin=[-1, 1],
        mode="reflect")
    add(f"{func}_origin_st44", func, a64, structure=ST44, origin=[-1, 1], mode="constant", cval=0.5)
for func in FUNCS[2:]:
    add(f"{func}_origin", func, a64, footprint=RAND43, origin=[1, -1])
    add(f"{func}_origin_s4", func, a64, size=4, origin=-1)

s.group("axes")
a3 = make_input((6, 7, 8), "float64")
for func in FUNCS:
    add(f"{func}_axes_02", func, a3, size=[3, 4], axes=[0, 2])
    add(f"{func}_axes_fp", func, a3, footprint=RAND43, axes=[2, 0], origin=[0, 1])
    add(f"{func}_axes_st", func, a3, structure=ST23, axes=[1, 2], mode="nearest")
for func in ("grey_erosion", "grey_dilation"):
    add(f"{func}_axes_neg", func, a3, size=3, axes=[-1], mode="mirror")
    add(f"{func}_axes_fp_1", func, a3, footprint=[1, 0, 1, 1], axes=[1], origin=1)
    add(f"{func}_axes_st_rev", func, a3, structure=ST44, axes=[2, 1], origin=[0, 1], mode="wrap")
    add(f"{func}_axes_empty", func, a3, size=3, axes=[])
    add(f"{func}_axes_modes", func, a3, size=[3, 2], axes=[0, 1], mode=["wrap", "constant"], cval=9.0)

s.group("dtypes")
for dt in DTYPES:
    a = make_input((13, 14), dt)
    for func in ("grey_erosion", "grey_dilation"):
        add(f"dt_{func}_s3_{dt}", func, a, size=3, mode="constant", cval=-1.0)
        add(f"dt_{func}_cross_{dt}", func, a, footprint=CROSS, mode="constant", cval=300.7)
        add(f"dt_{func}_st_{dt}", func, a, structure=ST33, mode="constant", cval=2.0)
        add(f"dt_{func}_st_fp_{dt}", func, a, structure=ST23, footprint=[[1, 0, 1], [1, 1, 0]], mode="reflect")
        add(f"dt1d_{func}_{dt}", func, make_input((29,), dt), size=4, mode="wrap")
    for func in ("grey_opening", "grey_closing", "white_tophat", "black_tophat"):
        add(f"dt_{func}_{dt}", func, a, size=3)
        add(f"dt_{func}_fp_{dt}", func, a, footprint=CROSS, mode="nearest")
    if dt != "bool":
        add(f"dt_morphological_gradient_{dt}", "morphological_gradient", a, size=3)
        add(f"dt_morphological_laplace_{dt}", "morphological_laplace", a, footprint=CROSS)
        add(f"dt_white_tophat_st_{dt}", "white_tophat", a, structure=ST_INT)
        add(f"dt_morphological_gradient_st_{dt}", "morphological_gradient", a, structure=ST33)
# Large 64-bit values with a structure: SciPy converts them to double, adds, compares and casts the
# winner back (rounded). (With a flat footprint that is not all true cusci compares 64-bit integers
# exactly: a documented deviation beyond 2^53, so no such case here.)
big = rng.integers(-2**62, 2**62, size=(9, 10), dtype=np.int64)
add("dt_grey_erosion_big_i64_st", "grey_erosion", big, structure=ST0)
add("dt_grey_dilation_big_i64_st", "grey_dilation", big, structure=ST_INT, mode="constant", cval=-1e30)
ubig = rng.integers(0, 2**64 - 1, size=(9, 10), dtype=np.uint64)
add("dt_grey_dilation_big_u64_st", "grey_dilation", ubig, structure=ST_INT)
add("dt_grey_erosion_big_u64_st", "grey_erosion", ubig, structure=ST23, mode="wrap")
# Boxes (the separable passes): SciPy's line buffers hold doubles, so 64-bit values are rounded, and a
# cval outside the type's range compares as itself; each pass's result is stored (rounded) before
# the next pass reads it.
add("dt_grey_erosion_big_u64_s3", "grey_erosion", ubig, size=3, mode="constant", cval=-1.0)
add("dt_grey_dilation_big_i64_s32", "grey_dilation", big, size=[3, 2], mode="constant", cval=2.5)
add("dt_grey_dilation_big_u64_s5", "grey_dilation", ubig, size=5, mode="constant", cval=2.0 ** 65)
# Output dtypes: C casts of the result (the structure's double straight into the output).
for dt, out in [("uint8", "float64"), ("float64", "float32"), ("float64", "int16"), ("int16", "int32"),
                ("int32", "uint8"), ("float32", "float64"), ("bool", "float32"), ("uint8", "int8")]:
    a = make_input((11, 12), dt, lim=6)
    add(f"out_grey_erosion_st_{dt}_{out}", "grey_erosion", a, structure=ST33, output=out)
    add(f"out_grey_dilation_{dt}_{out}", "grey_dilation", a, size=3, output=out)
    add(f"out_grey_erosion_fp_{dt}_{out}", "grey_erosion", a, footprint=RAND43, output=out, mode="wrap")
    add(f"out_grey_opening_{dt}_{out}", "grey_opening", a, structure=ST23, output=out)
    if np.can_cast(np.result_type(dt, out), out, "same_kind") or dt == out == "bool":
        add(f"out_white_tophat_{dt}_{out}", "white_tophat", a, size=3, output=out)
    else:  # NumPy's subtract into the output refuses the cast
        add(f"err_out_white_tophat_{dt}_{out}", "white_tophat", a, size=3, output=out, error="type_error",
            after_work=True)
    if dt != "bool":
        add(f"out_morphological_gradient_{dt}_{out}", "morphological_gradient", a, size=3, output=out)  # ignored
        add(f"out_morphological_laplace_{dt}_{out}", "morphological_laplace", a, size=3, output=out)  # ignored

s.group("nan")
for dt in ("float32", "float64"):
    a = make_input((24, 40), dt)
    a[rng.random(a.shape) < 0.08] = np.nan
    a[3, 5] = np.inf
    a[10, 20] = -np.inf
    a[0, 0] = np.nan
    for func in FUNCS:
        add(f"nan_{func}_s3_{dt}", func, a, size=3)
        add(f"nan_{func}_cross_{dt}", func, a, footprint=CROSS, mode="wrap")
        add(f"nan_{func}_st_{dt}", func, a, structure=ST33, mode="nearest")
    for func in ("grey_erosion", "grey_dilation"):
        for mode in ("reflect", "constant", "wrap"):
            add(f"nan_{func}_cval_{mode}_{dt}", func, a, size=[3, 2], mode=mode, cval=np.nan)
            add(f"nan_{func}_cval_st_{mode}_{dt}", func, a, structure=ST23, mode=mode, cval=np.nan)
        add(f"nan_{func}_1d_{dt}", func, a[5], size=5)
        add(f"nan_{func}_st_inf_{dt}", func, a, structure=np.array([[np.inf, 0.0, -np.inf]]))
for dt in ("int32", "uint8", "bool"):
    add(f"nan_cval_int_{dt}", "grey_erosion", make_input((10, 11), dt), structure=ST33, mode="constant",
        cval=np.nan)
    add(f"nan_cval_int_fp_{dt}", "grey_dilation", make_input((10, 11), dt), footprint=CROSS, mode="constant",
        cval=np.nan)

s.group("layouts")
for layout in ("C", "F", "step2", "rev", "bcast"):
    for func in FUNCS:
        add(f"lay_{func}_{layout}", func, make_input((18, 22), "float32"), layout=layout, size=3)
    add(f"lay_st_{layout}", "grey_erosion", make_input((18, 22), "int32"), layout=layout, structure=ST23)
    add(f"lay_st_dil_{layout}", "grey_dilation", make_input((18, 22), "float64"), layout=layout, structure=ST44,
        mode="wrap")
    add(f"lay_fp_{layout}", "grey_dilation", make_input((14, 16), "uint8"), layout=layout, footprint=RAND43)
    add(f"lay_3d_{layout}", "grey_erosion", make_input((8, 10, 12), "float64"), layout=layout,
        structure=rng.random((3, 3, 3)))
    add(f"lay_4d_{layout}", "grey_dilation", make_input((4, 5, 6, 7), "float32"), layout=layout,
        structure=rng.random((2, 3, 3, 2)))

s.group("outputs")
for layout in ("C", "F", "rev", "step2", "input"):
    for func in FUNCS:
        add(f"outarr_{func}_{layout}", func, make_input((12, 14), "float64"), size=3,
            output_array={"dtype": "float64", "layout": layout})
        add(f"outarr_{func}_st_{layout}", func, make_input((12, 14), "int16"), structure=ST23,
            output_array={"dtype": "int16", "layout": layout})
        add(f"outarr_{func}_fp_{layout}", func, make_input((12, 14), "float32"), footprint=RAND43,
            output_array={"dtype": "float32", "layout": layout})
# Output arrays of another dtype (the composites' NumPy steps cast into them).
for func in FUNCS:
    add(f"outarr_{func}_u8_f64", func, make_input((12, 14), "uint8"), size=3,
        output_array={"dtype": "float64", "layout": "C"})
    add(f"outarr_{func}_f64_f32", func, make_input((12, 14), "float64"), structure=ST33,
        output_array={"dtype": "float32", "layout": "F"})
add("outarr_white_tophat_bool_input", "white_tophat", make_input((12, 14), "bool"), size=3,
    output_array={"dtype": "bool", "layout": "input"})
add("outarr_black_tophat_bool_int8", "black_tophat", make_input((12, 14), "bool"), footprint=CROSS,
    output_array={"dtype": "int8", "layout": "C"})
add("outarr_morphological_laplace_i8_input", "morphological_laplace", make_input((12, 14), "int8", lim=127),
    size=3, output_array={"dtype": "int8", "layout": "input"})
# Sizes 0 and 1.
for func in FUNCS:
    add(f"empty_{func}", func, np.zeros((0, 5), np.float32), size=3)
    add(f"one_{func}", func, np.array([[2.5]]), size=3, mode="constant", cval=1.0)
add("empty_st", "grey_erosion", np.zeros((4, 0), np.float64), structure=ST33)
add("one_st", "grey_dilation", np.array([4.5]), structure=[1.0, 2.0, 0.5], mode="constant", cval=-1.0)

s.group("errors")
e2 = make_input((5, 6), "float64")
for func in FUNCS:
    add(f"err_{func}_complex", func, make_input((5, 6), "complex128"), size=3, error="type_error",
        error_text="Complex type not supported")
    add(f"err_{func}_origin", func, e2, size=3, origin=2, error="value_error", error_text="invalid origin")
    add(f"err_{func}_axes_range", func, e2, size=3, axes=[2], error="value_error", error_text="out of range")
    # The composites check the output array in their last filter, after the first ran (SciPy's order).
    add(f"err_{func}_out_shape", func, e2, size=3,
        output_array={"dtype": "float64", "layout": "C", "shape": [5, 5]}, error="runtime_error",
        error_text="output shape not correct", after_work=func not in ("grey_erosion", "grey_dilation") or None)
for func in ("grey_erosion", "grey_dilation"):
    add(f"err_{func}_nothing", func, e2, error="value_error",
        error_text="size, footprint, or structure must be specified")
    add(f"err_{func}_fp_zero", func, e2, footprint=np.zeros((3, 3)), error="value_error",
        error_text="All-zero footprint is not supported")
    add(f"err_{func}_axes_dup", func, e2, size=3, axes=[0, -2], error="value_error", error_text="unique")
    add(f"err_{func}_origin_len", func, e2, size=3, origin=[0, 0, 0], error="runtime_error",
        error_text="sequence argument must have length equal to input rank")
    add(f"err_{func}_size_len", func, e2, size=[3, 3, 3], error="runtime_error",
        error_text="sequence argument must have length equal to input rank")
    add(f"err_{func}_fp_ndim_axes", func, make_input((4, 5, 6), "float64"), footprint=CROSS, axes=[0],
        error="runtime_error", error_text="must match len(axes)")
    fp3 = np.ones((2, 2, 2), bool)
    fp3[0, 0, 0] = False  # not all true: SciPy's non-separable path
    add(f"err_{func}_fp_ndim", func, e2, footprint=fp3, error="runtime_error", error_text="must match len(axes)")
    add(f"err_{func}_fp_ones_ndim", func, e2, footprint=np.ones((2, 2, 2)), error="runtime_error",
        error_text="sequence argument must have length equal to input rank")
    add(f"err_{func}_st_ndim", func, e2, structure=np.ones((2, 2, 2)), error="runtime_error")
    add(f"err_{func}_st_axes", func, make_input((4, 5, 6), "float64"), structure=np.ones((3, 3, 3)), axes=[0, 1],
        error="runtime_error")
    add(f"err_{func}_st_modes", func, e2, structure=ST33, mode=["reflect", "wrap"], error="runtime_error",
        error_text="A sequence of modes is not supported")
    add(f"err_{func}_fp_modes", func, e2, footprint=CROSS, mode=["reflect", "wrap"], error="runtime_error",
        error_text="A sequence of modes is not supported")
    add(f"err_{func}_modes_len", func, e2, size=3, mode=["reflect"], error="runtime_error")
    add(f"err_{func}_f16", func, make_input((5, 6), "float16"), size=3, error="runtime_error")
    add(f"err_{func}_f16_st", func, make_input((5, 6), "float16"), structure=ST33, error="runtime_error")
    add(f"err_{func}_out_complex", func, e2, size=3, output="complex128", error="runtime_error")
# The even-extent origin range [-2, 1] for extent 4 (both functions).
for func in ("grey_erosion", "grey_dilation"):
    add(f"err_{func}_origin_even", func, e2, size=4, origin=2, error="value_error", error_text="invalid origin")
    add(f"err_{func}_origin_even_lo", func, e2, size=4, origin=-3, error="value_error", error_text="invalid origin")
    add(f"err_{func}_origin_fp", func, e2, footprint=RAND43, origin=[2, 0], error="value_error",
        error_text="invalid origin")
    add(f"err_{func}_origin_st", func, e2, structure=ST23, origin=[0, -2], error="value_error",
        error_text="invalid origin")
# SciPy's IndexError while grey_dilation adjusts the origins.
add("err_grey_dilation_size_short", "grey_dilation", e2, size=[3], error="index_error")
add("err_grey_dilation_fp_short", "grey_dilation", e2, footprint=[1, 0, 1], error="index_error")
# NumPy's arithmetic in the composites (raised after the filters ran).
add("err_morphological_gradient_bool", "morphological_gradient", make_input((5, 6), "bool"), size=3,
    error="type_error", after_work=True)
add("err_morphological_laplace_bool", "morphological_laplace", make_input((5, 6), "bool"), size=3,
    error="type_error", after_work=True)
add("err_white_tophat_cast", "white_tophat", e2, size=3, output_array={"dtype": "int32", "layout": "C"},
    error="type_error", after_work=True)
add("err_morphological_gradient_cast", "morphological_gradient", e2, size=3,
    output_array={"dtype": "int32", "layout": "C"}, error="type_error", after_work=True)

s.write()
