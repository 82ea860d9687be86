#!/usr/bin/env python
"""Golden data for cusci::ndimage's interpolation functions (spline_filter1d, spline_filter,
map_coordinates, affine_transform, shift, zoom, rotate) from SciPy 1.18.1, computed at build time
(tests/golden/golden.py):

    python tests/golden/gen_ndimage_interpolation.py --out <build>/tests/golden

Sweeps: orders 0..5, every mode (wrap vs grid-wrap, constant vs grid-constant, reflect,
grid-mirror, mirror, nearest), prefilter on and off, 1-D..3-D, float32 / float64 / uint8 / int16 /
complex128 inputs, output dtypes (integer outputs are rounded by SciPy), C / F / strided / reversed
layouts, zoom with and without grid_mode, rotate with reshape on and off and other axes, every
affine matrix form, output_shape, and the errors SciPy raises.
"""
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol
from ndimage_inputs import view

s = Suite("ndimage_interpolation")
rng = s.rng(20261215)
MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]
inputs = {}


def data(shape, dt):
    a = rng.standard_normal(shape) * 10
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape) * 10
    elif np.dtype(dt).kind == "u":
        a = rng.integers(0, 255, size=shape)
    elif np.dtype(dt).kind == "i":
        a = rng.integers(-1000, 1000, size=shape)
    return np.asarray(a, dtype=dt)


def stored(a):
    if id(a) not in inputs:
        inputs[id(a)] = (s.array(f"in{len(inputs)}", a), a)
    return inputs[id(a)][0]


def add(case, func, a, layout="C", error=None, **kw):
    x = view(a, layout)
    fn = getattr(ndi, func)
    args = dict(kw)
    params = dict(kw)
    for k in ("coordinates", "matrix"):
        if k in args and isinstance(args[k], np.ndarray):
            params[k] = s.array(case + "_" + k, args[k])
    if "output" in args and args["output"] is not None:
        args["output"] = np.dtype(args["output"])
        params["output"] = np.dtype(args["output"]).name
    pos = []
    if func in ("map_coordinates",):
        pos = [args.pop("coordinates")]
    elif func == "affine_transform":
        pos = [args.pop("matrix")]
    elif func in ("shift", "zoom"):
        pos = [args.pop(func)]
    elif func == "rotate":
        pos = [args.pop("angle")]
    if error is not None:
        s.case(case, func, error=error, input=stored(a), layout=layout, **params)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = fn(x, *pos, **args)
    scale = float(np.max(np.abs(r))) if r.size else 1.0
    rtol, atol = tol(r.dtype, scale=scale, rtol32=1e-5, rtol64=1e-10, int_atol=1)
    s.case(case, func, rtol=rtol, atol=atol, input=stored(a), layout=layout, expected=s.array(case + "_out", r),
           **params)


# --- spline_filter1d / spline_filter ------------------------------------------------------------
s.group("spline")
a1 = data((17,), np.float64)
a2 = data((9, 12), np.float64)
a3 = data((5, 6, 7), np.float32)
a2c = data((7, 8), np.complex128)
a2u = data((9, 10), np.uint8)
short = data((2, 3), np.float64)
for order in range(0, 6):
    for m in MODES:
        add(f"sf1_1d_o{order}_{m}", "spline_filter1d", a1, order=order, mode=m)
for order in (2, 3, 4, 5):
    for ax in (0, 1, -1):
        add(f"sf1_2d_o{order}_ax{ax}", "spline_filter1d", a2, order=order, axis=ax, mode="mirror")
    add(f"sf1_3d_o{order}_ax1_F", "spline_filter1d", a3, layout="F", order=order, axis=1, mode="reflect")
    add(f"sf1_3d_o{order}_ax2_step", "spline_filter1d", a3, layout="step2", order=order, axis=2, mode="grid-wrap")
    for m in MODES:
        add(f"sf_2d_o{order}_{m}", "spline_filter", a2, order=order, mode=m)
add("sf1_short", "spline_filter1d", short, order=3, axis=0)
add("sf_short", "spline_filter", short, order=5, mode="grid-wrap")
add("sf_3d_rev", "spline_filter", a3, layout="rev", order=3)
add("sf_out_f32", "spline_filter", a2, order=3, output="float32")
add("sf_out_int16", "spline_filter", a2, order=3, output="int16")
add("sf1_out_uint8", "spline_filter1d", a2u, order=3, output="uint8")
add("sf_uint8_in", "spline_filter", a2u, order=4, mode="nearest")
add("sf_complex", "spline_filter", a2c, order=3, mode="reflect")
add("sf1_complex", "spline_filter1d", a2c, order=2, axis=0)
# lines of 64 samples or more: the chunked (parallel) recursions; integer outputs stay sequential
long1 = data((1500,), np.float64)
long_col = data((700, 6), np.float64)
long_row = data((5, 700), np.float32)
long2 = data((300, 70), np.float64)
for m in MODES:
    add(f"sf1_long_o3_{m}", "spline_filter1d", long1, order=3, mode=m)
for order in (2, 4, 5):
    add(f"sf1_long_o{order}_wrap", "spline_filter1d", long1, order=order, mode="grid-wrap")
    add(f"sf1_long_o{order}_reflect", "spline_filter1d", long1, order=order, mode="reflect")
add("sf1_long_col_o5", "spline_filter1d", long_col, order=5, axis=0, mode="grid-wrap")
add("sf1_long_col_o3_F", "spline_filter1d", long_col, layout="F", order=3, axis=0, mode="mirror")
add("sf1_long_row_o4", "spline_filter1d", long_row, order=4, axis=1, mode="reflect")
add("sf1_long_row_rev", "spline_filter1d", long_row, layout="rev", order=3, axis=-1, mode="nearest")
add("sf1_long_row_step", "spline_filter1d", long_row, layout="step2", order=2, axis=1, mode="grid-wrap")
add("sf_long_2d_o3", "spline_filter", long2, order=3, mode="mirror")
add("sf_long_2d_o5_f32", "spline_filter", long2, order=5, mode="reflect", output="float32")
add("sf1_long_out_int16", "spline_filter1d", long1 * 30, order=3, output="int16")
add("sf1_long_out_uint8", "spline_filter1d", long1, order=3, output="uint8")
add("sf_long_out_int32", "spline_filter", long2 * 1000, order=4, output="int32")
add("sf_err_order1", "spline_filter", a2, error="runtime_error", order=1)
add("sf1_err_order6", "spline_filter1d", a2, error="runtime_error", order=6)
add("sf1_err_axis", "spline_filter1d", a2, error="index_error", order=3, axis=2)

# --- map_coordinates ----------------------------------------------------------------------------
s.group("map")
img = data((10, 11), np.float64)
img32 = data((12, 9), np.float32)
imgu = data((8, 9), np.uint8)
imgc = data((6, 7), np.complex128)
img3 = data((5, 6, 7), np.float64)
sig = data((13,), np.float64)
coords2 = rng.uniform(-4, 15, size=(2, 5, 7))
coords1 = rng.uniform(-6, 19, size=(1, 40))
coords3 = rng.uniform(-2, 8, size=(3, 30))
edge = np.array([[-1.0, -0.5, -1e-16, 0.0, 0.25, 9.0, 9.5, 10.0, 12.0, -12.0, 30.7, -30.2]])
for order in range(6):
    for m in MODES:
        add(f"map_1d_o{order}_{m}", "map_coordinates", sig, coordinates=coords1, order=order, mode=m, cval=1.5)
        add(f"map_edge_o{order}_{m}", "map_coordinates", sig, coordinates=edge, order=order, mode=m, cval=-2.0)
    for pf in (True, False):
        add(f"map_2d_o{order}_pf{int(pf)}", "map_coordinates", img, coordinates=coords2, order=order,
            mode="nearest", prefilter=pf)
for m in MODES:
    add(f"map_2d_o3_{m}", "map_coordinates", img, coordinates=coords2, order=3, mode=m, cval=0.5)
    add(f"map_3d_o2_{m}", "map_coordinates", img3, coordinates=coords3, order=2, mode=m)
add("map_f32", "map_coordinates", img32, coordinates=coords2.astype(np.float32), order=3, mode="mirror")
add("map_f32_F", "map_coordinates", img32, layout="F", coordinates=coords2, order=1, mode="reflect")
add("map_step", "map_coordinates", img3, layout="step2", coordinates=coords3[:, :10] / 2, order=3, mode="wrap")
add("map_int_coords", "map_coordinates", img, coordinates=rng.integers(-3, 13, size=(2, 20)), order=3)
add("map_uint8_o1", "map_coordinates", imgu, coordinates=coords2 * 0.8, order=1, mode="nearest")
add("map_uint8_o3", "map_coordinates", imgu, coordinates=coords2 * 0.8, order=3, mode="grid-constant", cval=7.0)
add("map_out_int16", "map_coordinates", img, coordinates=coords2, order=3, mode="reflect", output="int16")
add("map_out_uint8", "map_coordinates", img, coordinates=coords2, order=3, mode="reflect", output="uint8")
add("map_out_f32", "map_coordinates", img, coordinates=coords2, order=5, mode="grid-wrap", output="float32")
add("map_complex", "map_coordinates", imgc, coordinates=coords2 * 0.6, order=3, mode="constant", cval=1 + 2j)
add("map_complex_gc", "map_coordinates", imgc, coordinates=coords2 * 0.6, order=2, mode="grid-constant",
    cval=-1 + 0.5j)
add("map_err_order", "map_coordinates", img, error="runtime_error", coordinates=coords2, order=6)
add("map_err_shape", "map_coordinates", img, error="runtime_error", coordinates=coords3)
add("map_err_rank", "map_coordinates", img, error="runtime_error", coordinates=np.zeros(2))
add("map_err_complex_coords", "map_coordinates", img, error="type_error", coordinates=coords2 + 0j)

# --- affine_transform ---------------------------------------------------------------------------
s.group("affine")
rot = np.array([[0.8, -0.6], [0.6, 0.8]])
for order in range(6):
    for m in MODES:
        add(f"aff_o{order}_{m}", "affine_transform", img, matrix=rot, offset=[1.5, -2.0], order=order, mode=m,
            cval=2.5)
add("aff_diag", "affine_transform", img, matrix=np.array([0.7, 1.3]), offset=[0.5, -1.0], order=3)
add("aff_diag_nearest", "affine_transform", img, matrix=np.array([1.2, 0.6]), offset=2.0, order=4, mode="nearest")
add("aff_hom3", "affine_transform", img, matrix=np.array([[0.9, 0.2, 1.0], [-0.1, 1.1, -0.5]]), order=3,
    mode="reflect")
add("aff_hom33", "affine_transform", img, matrix=np.array([[0.9, 0.2, 1.0], [-0.1, 1.1, -0.5], [0, 0, 1]]),
    order=2, mode="grid-wrap")
add("aff_output_shape", "affine_transform", img, matrix=rot, offset=1.0, output_shape=(14, 6), order=3,
    mode="mirror")
add("aff_3d", "affine_transform", img3, matrix=np.array([[1, 0.1, 0], [0.05, 0.9, 0.1], [0, -0.1, 1.1]]),
    offset=[0.2, 0.3, -0.4], order=3, mode="grid-constant", cval=1.0)
add("aff_3d_o1_F", "affine_transform", img3, layout="F", matrix=np.eye(3) * 0.9, offset=0.3, order=1)
add("aff_int16_out", "affine_transform", img, matrix=rot, order=3, mode="nearest", output="int16")
add("aff_complex", "affine_transform", imgc, matrix=rot, order=3, mode="mirror", cval=1j)
add("aff_err_rows", "affine_transform", img, error="runtime_error", matrix=np.eye(3)[:, :2])
add("aff_err_cols", "affine_transform", img, error="runtime_error", matrix=np.ones((2, 4)))
add("aff_err_hom", "affine_transform", img, error="value_error", matrix=np.ones((3, 3)))
add("aff_err_matrix", "affine_transform", img, error="runtime_error", matrix=np.ones((2, 2, 2)))
add("aff_err_offset", "affine_transform", img, error="runtime_error", matrix=rot, offset=[1.0, 2.0, 3.0])

# --- shift --------------------------------------------------------------------------------------
s.group("shift")
for order in range(6):
    for m in MODES:
        add(f"shift_o{order}_{m}", "shift", img, shift=[2.3, -1.7], order=order, mode=m, cval=-1.0)
add("shift_1d", "shift", sig, shift=-3.5, order=3, mode="wrap")
add("shift_3d", "shift", img3, shift=[0.5, -1.0, 2.25], order=5, mode="grid-mirror")
add("shift_nopf", "shift", img, shift=1.5, order=3, prefilter=False, mode="nearest")
add("shift_uint8", "shift", imgu, shift=[0.5, 0.5], order=1)
add("shift_uint8_o3", "shift", imgu, shift=[0.4, -1.6], order=3, mode="reflect")
add("shift_f32_rev", "shift", img32, layout="rev", shift=[0.3, 0.7], order=3, mode="mirror")
add("shift_complex", "shift", imgc, shift=[1.2, -0.4], order=3, mode="grid-constant", cval=2 - 1j)
add("shift_err_len", "shift", img, error="runtime_error", shift=[1.0, 2.0, 3.0])

# --- zoom ---------------------------------------------------------------------------------------
s.group("zoom")
for order in range(6):
    for m in MODES:
        add(f"zoom_o{order}_{m}", "zoom", img, zoom=[1.7, 0.6], order=order, mode=m, cval=3.0)
        add(f"zoom_grid_o{order}_{m}", "zoom", img, zoom=[1.5, 2.0], order=order, mode=m, grid_mode=True)
add("zoom_1d", "zoom", sig, zoom=2.0, order=3)
add("zoom_3d", "zoom", img3, zoom=[0.5, 1.5, 2.0], order=2, mode="nearest")
add("zoom_one", "zoom", img, zoom=1.0, order=3)
add("zoom_one_nopf", "zoom", img, zoom=1.0, order=3, prefilter=False)
add("zoom_to_one", "zoom", img, zoom=[0.1, 1.0], order=1)
add("zoom_f32_o1", "zoom", img32, zoom=2.0, order=1)
add("zoom_f32_o3_step", "zoom", img32, layout="step2", zoom=2.0, order=3, mode="reflect")
add("zoom_uint8", "zoom", imgu, zoom=2.0, order=3, mode="grid-constant")
add("zoom_int16_out", "zoom", img, zoom=1.3, order=3, output="int16")
add("zoom_complex", "zoom", imgc, zoom=[1.5, 0.7], order=3, mode="mirror", grid_mode=True)
add("zoom_complex_nogrid", "zoom", imgc, zoom=[1.5, 0.7], order=3, mode="mirror")
add("zoom_complex_grid_wrap", "zoom", imgc, zoom=[2.0, 1.3], order=2, mode="grid-wrap", grid_mode=True, cval=1 - 1j)
zimg = data((80, 90), np.float32)
add("zoom_long_o3", "zoom", zimg, zoom=1.3, order=3)
add("zoom_long_o3_nearest", "zoom", zimg, zoom=[0.8, 1.6], order=3, mode="nearest")
add("zoom_long_o5_grid", "zoom", zimg, zoom=[1.5, 0.75], order=5, mode="grid-constant", grid_mode=True, cval=2.0)
add("zoom_long_o2_wrap", "zoom", zimg, zoom=1.1, order=2, mode="grid-wrap", grid_mode=True)
add("zoom_long_o1_rows", "zoom", zimg, zoom=[2.3, 1.7], order=1)
add("zoom_long_o0", "zoom", zimg, zoom=[1.3, 0.7], order=0, mode="nearest")
add("rot_long_o1", "rotate", zimg, angle=30.0, order=1)
add("zoom_err_len", "zoom", img, error="runtime_error", zoom=[1.0, 2.0, 3.0])

# --- rotate -------------------------------------------------------------------------------------
s.group("rotate")
for order in range(6):
    for m in MODES:
        add(f"rot_o{order}_{m}", "rotate", img, angle=30.0, order=order, mode=m, cval=1.0)
for ang in (0.0, 90.0, -90.0, 180.0, 270.0, 45.0, 123.4, -17.0, 725.0):
    for reshape in (True, False):
        add(f"rot_ang{ang}_r{int(reshape)}", "rotate", img, angle=ang, reshape=reshape, order=1)
add("rot_3d_axes01", "rotate", img3, angle=20.0, axes=(0, 1), order=3, mode="nearest")
add("rot_3d_axes12", "rotate", img3, angle=-35.0, axes=(1, 2), order=3, reshape=False, mode="reflect")
add("rot_3d_axes20", "rotate", img3, angle=60.0, axes=(2, 0), order=2, mode="grid-constant", cval=0.5)
add("rot_3d_neg_axes", "rotate", img3, angle=10.0, axes=(-1, -3), order=1)
add("rot_f32_F", "rotate", img32, layout="F", angle=30.0, order=1)
add("rot_uint8", "rotate", imgu, angle=15.0, order=3)
add("rot_complex", "rotate", imgc, angle=33.0, order=3, cval=1 + 1j)
add("rot_err_1d", "rotate", sig, error="value_error", angle=10.0)
add("rot_err_axes", "rotate", img, error="value_error", angle=10.0, axes=(0, 2))
add("rot_err_naxes", "rotate", img3, error="value_error", angle=10.0, axes=(0, 1, 2))

s.write()
