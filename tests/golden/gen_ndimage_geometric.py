#!/usr/bin/env python
"""Golden data for cusci::ndimage::geometric_transform from SciPy 1.18.1, computed at build time
(tests/golden/golden.py):

    python tests/golden/gen_ndimage_geometric.py --out <build>/tests/golden

The mappings are Python twins of the CUDA functions of tests/ndimage/interpolation/
geometric_mappings.inc (the same operations in the same order, so the coordinates are the same
doubles): shift, scaling (output_shape different from the input's), a rotation, a swirl, a barrel
distortion (sqrt), a polar resampling, two rank-changing mappings (output rank 1 and 3 from a 2-D
input), and a mapping that fails, given to SciPy as a LowLevelCallable (ctypes) returning 0.
Sweeps: orders 0..5, every mode (wrap vs grid-wrap, constant vs grid-constant, reflect,
grid-mirror, mirror, nearest), prefilter on and off, 1-D..3-D, float32 / float64 / uint8 / int16 /
bool / complex128 inputs, output dtypes (integer outputs rounded by SciPy), C / F / strided /
reversed layouts, output arrays (C and F order, the input itself), and the errors SciPy raises
(each checked by calling SciPy).
"""
import ctypes
import math
import warnings

import numpy as np
import scipy
import scipy.ndimage as ndi

from golden import Suite, tol
from ndimage_inputs import make_input, view

s = Suite("ndimage_geometric")
rng = s.rng(20261202)
MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]

# The rotation's cosine and sine: cos / sin of 30 degrees as Python computes them; the C++ tests
# pass the same literals (NVRTC -D options, a #define).
ROT_C = 0.8660254037844387
ROT_S = 0.49999999999999994
assert ROT_C == math.cos(math.radians(30)) and ROT_S == math.sin(math.radians(30))


def m_shift(o):
    sh = (2.3, -1.7, 0.75, -0.4)
    return tuple(float(o[d]) - sh[d] for d in range(len(o)))


def m_scale(o):
    z = (0.7, 1.3, 0.45, 1.1)
    b = (0.5, -1.25, 0.3, 0.0)
    return tuple(float(o[d]) * z[d] + b[d] for d in range(len(o)))


def m_rotate(o):
    y = float(o[0]) - 4.5
    x = float(o[1]) - 5.0
    return (ROT_C * y - ROT_S * x + 4.5, ROT_S * y + ROT_C * x + 5.0)


def m_swirl(o):
    dy = float(o[0]) - 4.5
    dx = float(o[1]) - 5.0
    t = 0.004 * (dy * dy + dx * dx)
    den = 1.0 + t * t
    cs = (1.0 - t * t) / den
    sn = (2.0 * t) / den
    return (4.5 + (cs * dy - sn * dx), 5.0 + (sn * dy + cs * dx))


def m_barrel(o):
    ctr = (4.5, 5.0, 3.0)
    r2 = 0.0
    for d in range(len(o)):
        v = float(o[d]) - ctr[d]
        r2 = r2 + v * v
    sc = 1.0 + 0.02 * math.sqrt(r2)
    return tuple(ctr[d] + (float(o[d]) - ctr[d]) * sc for d in range(len(o)))


def m_polar(o):
    u = float(o[1]) * 0.125 - 1.0
    den = 1.0 + u * u
    cs = (1.0 - u * u) / den
    sn = (2.0 * u) / den
    rad = float(o[0]) * 0.6
    return (4.5 + rad * sn, 5.0 + rad * cs)


def m_line(o):
    t = float(o[0])
    return (1.5 + 0.37 * t, 9.0 - 0.61 * t)


def m_stack(o):
    return (float(o[1]) + 0.25 * float(o[0]), float(o[2]) - 0.5 * float(o[0]))


def m_int_shift(o):
    k = (1.0, -2.0) if len(o) == 2 else (-1.0, 1.0, -2.0)
    return tuple(float(o[d]) + k[d] for d in range(len(o)))


# gt_fail as SciPy's LowLevelCallable: int (long *, double *, int, int, void *), 0 on output row 2
_FAIL_T = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_long), ctypes.POINTER(ctypes.c_double),
                           ctypes.c_int, ctypes.c_int, ctypes.c_void_p)


def _fail(o, c, orank, irank, user_data):
    for d in range(irank):
        c[d] = float(o[d])
    return 0 if o[0] == 2 else 1


_fail_c = _FAIL_T(_fail)
MAPPINGS = {"shift": m_shift, "scale": m_scale, "rotate": m_rotate, "swirl": m_swirl, "barrel": m_barrel,
            "polar": m_polar, "line": m_line, "stack": m_stack, "int_shift": m_int_shift,
            "fail": scipy.LowLevelCallable(_fail_c)}

ERRORS = {RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error"}
inputs = {}


def stored(a):
    if id(a) not in inputs:
        inputs[id(a)] = (s.array(f"in{len(inputs)}", a), a)
    return inputs[id(a)][0]


def add(case, mapping, a, layout="C", out_kind=None, out_array_shape=None, expect_error=None, **kw):
    """One case: SciPy's geometric_transform(view(a, layout), MAPPINGS[mapping], **kw). `out_kind`:
    None (output= a dtype name or nothing), "array_C" / "array_F" (a zero array of that order, of
    shape `out_array_shape` or else output_shape or else the input's, of dtype `output` or else the
    input's, receives the result), "inplace" (the input itself). `expect_error`: the cusci exception
    kind the call must raise; SciPy is called and must raise the matching exception."""
    x = view(a, layout)
    args = dict(kw)
    params = dict(kw)
    if "output" in args and args["output"] is not None:
        args["output"] = np.dtype(args["output"])
        params["output"] = np.dtype(args["output"]).name
    if "output_shape" in args:
        args["output_shape"] = tuple(args["output_shape"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if out_kind in ("array_C", "array_F"):
                shape = out_array_shape if out_array_shape is not None else args.get("output_shape", x.shape)
                out = np.zeros(shape, dtype=args.pop("output", x.dtype), order=out_kind[-1])
                r = ndi.geometric_transform(x, MAPPINGS[mapping], output=out, **args)
                assert r is out
            elif out_kind == "inplace":
                r = x.copy()
                ndi.geometric_transform(r, MAPPINGS[mapping], output=r, **args)
            else:
                r = ndi.geometric_transform(x, MAPPINGS[mapping], **args)
            err = None
        except Exception as e:  # noqa: BLE001 - the kind is checked below
            err = ERRORS.get(type(e))
            if err is None:
                raise
    if expect_error is not None or err is not None:
        if err != expect_error:
            raise AssertionError(f"{case}: SciPy raised {err}, expected {expect_error}")
        s.case(case, "geometric_transform", error=err, input=stored(a), layout=layout, mapping=mapping,
               out_kind=out_kind, out_array_shape=out_array_shape, **params)
        return
    scale = float(np.max(np.abs(r))) if r.size else 1.0
    rtol, atol = tol(r.dtype, scale=scale, rtol32=1e-5, rtol64=1e-10, int_atol=1)
    s.case(case, "geometric_transform", rtol=rtol, atol=atol, input=stored(a), layout=layout, mapping=mapping,
           out_kind=out_kind, expected=s.array(case + "_out", r), **params)


img = make_input(rng, (10, 11), "float64")
img_big = make_input(rng, (20, 22), "float64")  # its step2 view is 10 x 11
img32 = make_input(rng, (12, 9), "float32")
imgu = make_input(rng, (8, 9), "uint8")
imgi = make_input(rng, (9, 10), "int16")
imgb = make_input(rng, (9, 10), "bool")
imgc = make_input(rng, (6, 7), "complex128", complex_scale=10)
img3 = make_input(rng, (5, 6, 7), "float64")
sig = make_input(rng, (13,), "float64")

# --- every order and mode -------------------------------------------------------------------------
s.group("modes")
for order in range(6):
    for m in MODES:
        add(f"shift_o{order}_{m}", "shift", img, order=order, mode=m, cval=1.5)
        add(f"rot_o{order}_{m}", "rotate", img, order=order, mode=m, cval=-0.5)
    for pf in (True, False):
        add(f"swirl_o{order}_pf{int(pf)}", "swirl", img, order=order, mode="nearest", prefilter=pf)
        add(f"scale_o{order}_pf{int(pf)}", "scale", img, order=order, mode="reflect", prefilter=pf,
            output_shape=(13, 8))

# --- mappings, ranks, output shapes ---------------------------------------------------------------
s.group("mappings")
for m in MODES:
    add(f"swirl_o3_{m}", "swirl", img, order=3, mode=m, cval=2.0)
    add(f"polar_o3_{m}", "polar", img, order=3, mode=m, output_shape=(8, 17))
    add(f"shift3d_o2_{m}", "shift", img3, order=2, mode=m)
    add(f"line_o3_{m}", "line", img, order=3, mode=m, output_shape=(15,))
for order in (0, 1, 3, 5):
    add(f"barrel_o{order}", "barrel", img, order=order, mode="mirror")
    add(f"barrel3d_o{order}", "barrel", img3, order=order, mode="grid-wrap")
    add(f"stack_o{order}", "stack", img, order=order, mode="constant", cval=0.25, output_shape=(3, 8, 9))
add("shift_1d", "shift", sig, order=3, mode="wrap")
add("scale_1d_longer", "scale", sig, order=3, mode="grid-mirror", output_shape=(20,))
add("scale_3d", "scale", img3, order=3, mode="nearest", output_shape=(8, 4, 9))
add("polar_o1_nopf", "polar", img, order=1, mode="grid-constant", prefilter=False, output_shape=(6, 17))

# --- dtypes and layouts ---------------------------------------------------------------------------
s.group("dtypes")
add("rot_f32_o1", "rotate", img32, order=1, mode="constant")
add("rot_f32_o3", "rotate", img32, order=3, mode="reflect")
add("swirl_f32_o5", "swirl", img32, order=5, mode="grid-wrap")
add("scale_uint8_o3_gc", "scale", imgu, order=3, mode="grid-constant", cval=7.0, output_shape=(12, 14))
add("scale_uint8_o1", "scale", imgu, order=1, mode="nearest")
add("barrel_int16_o2", "barrel", imgi, order=2, mode="mirror")
add("shift_int16_o0", "shift", imgi, order=0, mode="wrap")
add("shift_bool_o1", "shift", imgb, order=1, mode="nearest")
add("rot_complex_o3", "rotate", imgc, order=3, mode="constant", cval=1 + 2j)
add("swirl_complex_gc", "swirl", imgc, order=2, mode="grid-constant", cval=-1 + 0.5j)
add("polar_complex_o1", "polar", imgc, order=1, mode="nearest", output_shape=(5, 9))
add("shift_complex_out_c64", "shift", imgc, order=3, mode="mirror", output="complex64")
add("shift_complex_out_f64", "shift", imgc, order=3, mode="reflect", output="float64")  # promoted to complex
add("rot_out_int16", "rotate", img, order=3, mode="reflect", output="int16")
add("rot_out_uint8", "rotate", img, order=3, mode="reflect", output="uint8")
add("swirl_out_f32", "swirl", img, order=5, mode="grid-wrap", output="float32")
add("shift_out_int32", "shift", img * 1000, order=1, mode="nearest", output="int32")
for layout in ("F", "step2", "rev"):
    add(f"rot_o3_{layout}", "rotate", img_big, layout=layout, order=3, mode="nearest")
    add(f"shift_o1_{layout}", "shift", img_big, layout=layout, order=1, mode="wrap")
    add(f"shift3d_o3_{layout}", "shift", img3, layout=layout, order=3, mode="grid-constant", cval=1.0)
add("rot_complex_rev", "rotate", imgc, layout="rev", order=3, mode="mirror", cval=1j)

# --- output arrays --------------------------------------------------------------------------------
s.group("outputs")
add("out_array_C", "rotate", img, out_kind="array_C", order=3, mode="reflect")
add("out_array_F", "swirl", img, out_kind="array_F", order=3, mode="nearest")
add("out_array_F_int16", "swirl", img, out_kind="array_F", order=3, mode="nearest", output="int16")
add("out_array_shape", "polar", img, out_kind="array_C", order=1, output_shape=(8, 17))
add("out_array_complex", "rotate", imgc, out_kind="array_F", order=3, mode="grid-wrap")
add("out_inplace_o3", "shift", img, out_kind="inplace", order=3, mode="mirror")
add("out_inplace_o5_complex", "swirl", imgc, out_kind="inplace", order=5, mode="reflect")

# --- errors (SciPy is called and must raise) ------------------------------------------------------
s.group("errors")
add("err_order6", "shift", img, expect_error="runtime_error", order=6)
add("err_order_neg", "shift", img, expect_error="runtime_error", order=-1)
add("err_output_shape_empty", "shift", img, expect_error="runtime_error", output_shape=())
add("err_output_shape_negative", "shift", img, expect_error="value_error", output_shape=(-1, 3))
add("err_out_array_shape", "shift", img, expect_error="runtime_error", out_kind="array_C", out_array_shape=(3, 3))
add("err_out_array_not_output_shape", "polar", img, expect_error="runtime_error", out_kind="array_C",
    out_array_shape=(8, 17))  # SciPy's output_shape defaults to the input's shape, not the array's
add("err_complex_cval", "shift", img, expect_error="type_error", cval=1j)
add("err_complex_out_real", "shift", img, expect_error="runtime_error", output="complex128")
add("err_real_out_complex", "shift", imgc, expect_error="runtime_error", out_kind="array_C", output="float64")
add("err_float16", "shift", img.astype(np.float16), expect_error="runtime_error")
add("err_mapping_fails", "fail", img, expect_error="runtime_error", order=1)

# --- outputs of more than one chunk (2^22 points) -------------------------------------------------
# The input is arange(size) % 251 as uint8 (the C++ test makes it itself); the mapping shifts by whole
# samples, so with order 1 every point is an input value or cval. SciPy's Python mapping would take
# minutes on millions of points: the reference is ndi.shift by the opposite amounts, which computes
# the same values (checked on a small array below); stored are the sum and the rows around the chunk
# boundaries.
s.group("chunks")
small = (np.arange(7 * 9) % 251).astype(np.uint8).reshape(7, 9)
assert np.array_equal(ndi.geometric_transform(small, m_int_shift, order=1), ndi.shift(small, (-1.0, 2.0), order=1))
for name, shape, rows in (("chunks_2d", (2100, 2100), [[0], [1], [1996], [1997], [2098], [2099]]),
                          ("chunks_3d", (2, 3000, 1500), [[0, 0], [0, 2795], [0, 2796], [0, 2999], [1, 0], [1, 2795],
                                                          [1, 2796], [1, 2999]])):
    x = (np.arange(int(np.prod(shape))) % 251).astype(np.uint8).reshape(shape)
    k = m_int_shift((0,) * len(shape))
    r = ndi.shift(x, [-v for v in k], order=1, mode="constant")
    sample = np.stack([r[tuple(i)] for i in rows])
    s.case(name, "geometric_transform_chunks", shape=list(shape), mapping="int_shift", order=1, rows=rows,
           total=int(r.sum(dtype=np.int64)), expected=s.array(name + "_rows", sample))

s.write()
