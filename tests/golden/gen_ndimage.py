#!/usr/bin/env python
"""Reference data for cusci::ndimage's filters (correlate1d, convolve1d, gaussian_filter1d,
gaussian_filter, uniform_filter1d, uniform_filter, minimum_filter1d, maximum_filter1d,
minimum_filter, maximum_filter), computed with SciPy at build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage.py --out <build>/tests/golden --data examples/data

Each case: func, input (array name), expected (array name, absent for error cases), and SciPy's
parameters (axis, weights, sigma, order, mode, cval, origin, truncate, radius, axes, output, size,
footprint (array name)), plus layout: C (as stored), F (copied to Fortran order), step2
(input[::2, ::2, ...]), rev (input[..., ::-1]). Complex weights: weights (real parts) and weights_im
(imaginary parts). output_array ({dtype, layout, shape}): SciPy's output= as an existing array of
that layout (C, F, rev, step2: every other element of an array twice as large) and shape (default:
the input's), or layout "input": the input array itself (in place). Error cases name the cusci
exception (SciPy's exception kind mapped as docs/architecture.md, checked here against SciPy) and
may give error_text, a part of the message (SciPy's own text where cusci repeats it).
"""
import functools
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol as shared_tol
import ndimage_inputs
from ndimage_inputs import view

s = Suite("ndimage")
rng = s.rng(20261201)
make_input = functools.partial(ndimage_inputs.make_input, rng)


def make_out_array(spec, x):
    """The numpy output array of an output_array spec for the (viewed) input x."""
    if spec["layout"] == "input":
        return x
    shape = tuple(spec.get("shape") or x.shape)
    dt = np.dtype(spec["dtype"])
    if spec["layout"] == "F":
        return np.full(shape, 77, dt, order="F")
    if spec["layout"] == "step2":
        big = np.full(tuple(2 * n for n in shape), 77, dt)
        return big[tuple(slice(None, None, 2) for _ in shape)]
    a = np.full(shape, 77, dt)
    return a[..., ::-1] if spec["layout"] == "rev" else a


def scipy_kind(exc):
    """The cusci exception for a SciPy / NumPy exception (docs/architecture.md, "Errors")."""
    if isinstance(exc, (np.exceptions.AxisError, IndexError)):
        return "index_error"
    if isinstance(exc, RuntimeError):
        return "runtime_error"
    if isinstance(exc, TypeError):
        return "type_error"
    if isinstance(exc, (ValueError, ZeroDivisionError, OverflowError)):
        return "value_error"
    raise AssertionError(f"unmapped exception {exc!r}")


def expect_error(case, error, call, error_text=None):
    """Checks that SciPy raises the exception kind `error` (and `error_text` where given)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001
        kind = scipy_kind(e)
        if kind != error:
            raise AssertionError(f"{case}: SciPy raised {type(e).__name__} ({e}) -> {kind}, case says {error}")
        if error_text is not None and error_text.startswith("=") and error_text[1:] not in str(e):
            raise AssertionError(f"{case}: SciPy's message {str(e)!r} lacks {error_text[1:]!r}")
        return
    raise AssertionError(f"{case}: SciPy accepted an error case")


def text_param(error_text):
    """error_text as stored: "=text" (checked against SciPy's message too) gives text."""
    return error_text[1:] if error_text is not None and error_text.startswith("=") else error_text


def tol(out_dtype, func, scale):
    # integers / bool: correlate1d sums in SciPy's order and matches exactly; the gaussian weights use
    # exp(), whose last bit may differ between libm and NumPy, so truncation may move by one.
    return shared_tol(out_dtype, scale=scale, int_atol=0.0 if func in ("correlate1d", "convolve1d") else 1.0)


def add(case, func, a, layout="C", error=None, output_array=None, error_text=None, **kw):
    inp = s.array(case + "_in", a)
    x = view(a.copy(), layout)
    weights = kw.get("weights")
    weights_im = None
    if weights is not None and np.iscomplexobj(np.asarray(weights)):
        wc = np.asarray(weights, dtype=np.complex128)
        weights, weights_im = [float(v) for v in wc.real], [float(v) for v in wc.imag]
    params = dict(axis=kw.get("axis", -1), weights=weights, weights_im=weights_im, sigma=kw.get("sigma"),
                  order=kw.get("order", 0), mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                  origin=kw.get("origin", 0), truncate=kw.get("truncate", 4.0), radius=kw.get("radius"),
                  axes=kw.get("axes"), output=kw.get("output"), output_array=output_array,
                  error_text=text_param(error_text))
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64) if weights_im is None else \
            np.asarray(weights, dtype=np.float64) + 1j * np.asarray(weights_im, dtype=np.float64)

    def call():
        if output_array is not None:
            out = make_out_array(output_array, x)
        else:
            out = np.dtype(params["output"]) if params["output"] else None
        if func == "correlate1d":
            return ndi.correlate1d(x, w, axis=params["axis"], output=out, mode=params["mode"],
                                   cval=params["cval"], origin=params["origin"])
        if func == "convolve1d":
            return ndi.convolve1d(x, w, axis=params["axis"], output=out, mode=params["mode"],
                                  cval=params["cval"], origin=params["origin"])
        if func == "gaussian_filter1d":
            return ndi.gaussian_filter1d(x, params["sigma"], axis=params["axis"], order=params["order"], output=out,
                                         mode=params["mode"], cval=params["cval"], truncate=params["truncate"],
                                         radius=params["radius"])
        return ndi.gaussian_filter(x, params["sigma"], order=params["order"], output=out, mode=params["mode"],
                                   cval=params["cval"], truncate=params["truncate"], radius=params["radius"],
                                   axes=params["axes"])

    expected, rtol, atol = None, 0.0, 0.0
    if error is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "promoting specified output dtype to complex"
            r = call()
        expected = s.array(case + "_out", r)
        scale = float(np.max(np.abs(r))) if r.size and r.dtype != np.bool_ else 1.0
        rtol, atol = tol(r.dtype, func, max(scale, 1.0))
    else:
        expect_error(case, error, call, error_text)
    s.case(case, func, rtol=rtol, atol=atol, error=error, input=inp, expected=expected, layout=layout,
           **{k: (list(v) if isinstance(v, tuple) else v) for k, v in params.items()})


MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-wrap", "grid-mirror", "grid-constant"]
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
          "float64", "complex64", "complex128"]

s.group("correlate")
# --- correlate1d: every mode x several origins / cvals / weight lengths, 1-D, including short lines
for mode in MODES:
    for L in (1, 2, 5, 13):
        for K in (1, 2, 3, 4, 7):
            w = [float(v) for v in np.round(rng.standard_normal(K), 3)]
            origins = sorted({-(K // 2), 0, (K - 1) // 2})
            for origin in origins:
                add(f"c1d_{mode}_L{L}_K{K}_o{origin}", "correlate1d", make_input((L,), "float64"), weights=w,
                    mode=mode, cval=2.5, origin=origin)
# symmetric and antisymmetric weights (paired-tap summation paths), long weights (> 128 taps)
add("c1d_sym", "correlate1d", make_input((37,), "float64"), weights=[0.25, 0.5, 1.0, 0.5, 0.25])
add("c1d_antisym", "correlate1d", make_input((37,), "float64"), weights=[-0.5, -1.0, 0.0, 1.0, 0.5])
add("c1d_long", "correlate1d", make_input((400,), "float64"),
    weights=[float(v) for v in np.round(rng.standard_normal(301), 3)], mode="wrap")
add("c1d_long_2d_ax0", "correlate1d", make_input((300, 5), "float32"),
    weights=[float(v) for v in np.round(rng.standard_normal(261), 3)], axis=0, mode="mirror")
add("c1d_verylong", "correlate1d", make_input((20,), "float64"),
    weights=[float(v) for v in np.round(rng.standard_normal(7001), 3)], mode="reflect")
# docstring examples
add("c1d_doc", "correlate1d", np.array([2, 8, 0, 4, 1, 9, 9, 0]), weights=[1.0, 3.0])
add("cv1d_doc", "convolve1d", np.array([2, 8, 0, 4, 1, 9, 9, 0]), weights=[1.0, 3.0])
# dtypes (input = output dtype) and explicit output dtypes
for dt in DTYPES:
    add(f"c1d_dtype_{dt}", "correlate1d", make_input((6, 7), dt), weights=[0.5, 1.0, 0.25], axis=1)
    add(f"c1d_dtype_{dt}_ax0", "correlate1d", make_input((6, 7), dt), weights=[1.0, -2.0, 1.0, 3.0], axis=0,
        mode="nearest")
for dt, out in [("float32", "float64"), ("float64", "float32"), ("uint8", "float32"), ("float64", "int16"),
                ("float64", "uint8"), ("int16", "int32"), ("float64", "int64"), ("float64", "uint32"),
                ("bool", "float64"), ("complex64", "complex128"), ("complex128", "complex64")]:
    add(f"c1d_out_{dt}_{out}", "correlate1d", make_input((5, 9), dt), weights=[0.3, 1.7, -0.6], output=out)
# negative results into unsigned / narrow signed outputs wrap as C casts on x86-64
add("c1d_wrap_uint8", "correlate1d", make_input((11,), "int16"), weights=[1.0, -3.0, 1.0], output="uint8")
add("c1d_wrap_int8", "correlate1d", make_input((11,), "int16"), weights=[2.0, -3.0, 2.0], output="int8")
# N-D, each axis, layouts
for layout in ("C", "F", "step2", "rev"):
    a = make_input((8, 9, 10), "float64")
    for axis in (0, 1, 2, -1):
        add(f"c1d_3d_{layout}_ax{axis}", "correlate1d", a, weights=[0.2, -0.7, 1.1, 0.4], axis=axis, layout=layout,
            mode="mirror", origin=-1)
    a2 = make_input((12, 7), "float32")
    for axis in (0, 1):
        add(f"c1d_2d_f32_{layout}_ax{axis}", "correlate1d", a2, weights=[1.0, 2.0, 1.0], axis=axis, layout=layout,
            mode="constant", cval=-1.5)
# sizes 0 and 1
add("c1d_empty", "correlate1d", np.zeros((0,), np.float64), weights=[1.0, 2.0])
add("c1d_empty_2d", "correlate1d", np.zeros((3, 0), np.float32), weights=[1.0, 2.0], axis=0)
add("c1d_size1", "correlate1d", np.array([3.5]), weights=[1.0, 2.0, 3.0], mode="constant", cval=1.0)
# convolve1d: reversal and origin flip, even and odd lengths
for K in (2, 3, 4, 5):
    w = [float(v) for v in np.round(rng.standard_normal(K), 3)]
    for origin in sorted({-(K // 2), 0, (K - 1) // 2}):
        for mode in ("reflect", "constant", "wrap"):
            add(f"cv1d_K{K}_o{origin}_{mode}", "convolve1d", make_input((9, 4), "float64"), weights=w, axis=0,
                origin=origin, mode=mode, cval=0.5)
# errors
add("err_c1d_empty_weights", "correlate1d", make_input((5,), "float64"), weights=[], error="runtime_error",
    error_text="=no filter weights given")
add("err_c1d_origin_hi", "correlate1d", make_input((5,), "float64"), weights=[1.0, 2.0, 3.0], origin=2,
    error="value_error")
add("err_c1d_origin_lo", "correlate1d", make_input((5,), "float64"), weights=[1.0, 2.0], origin=-2,
    error="value_error")
add("err_c1d_axis", "correlate1d", make_input((5, 4), "float64"), weights=[1.0], axis=2, error="index_error")
add("err_c1d_axis_neg", "correlate1d", make_input((5, 4), "float64"), weights=[1.0], axis=-3, error="index_error")
add("err_c1d_complex_out", "correlate1d", make_input((5,), "float64"), weights=[1.0], output="complex64",
    error="runtime_error", error_text="not supported")

s.group("gaussian")
# --- gaussian_filter1d: orders 0..4, modes, truncate, radius, dtypes
for order in range(5):
    for mode in MODES:
        add(f"g1d_o{order}_{mode}", "gaussian_filter1d", make_input((23,), "float64"), sigma=1.7, order=order,
            mode=mode, cval=0.75)
for L in (1, 2, 3, 6):
    for mode in MODES:
        add(f"g1d_short{L}_{mode}", "gaussian_filter1d", make_input((L,), "float64"), sigma=2.0, mode=mode, cval=-1.0)
for truncate in (0.5, 1.0, 2.5, 6.0):
    add(f"g1d_trunc{truncate}", "gaussian_filter1d", make_input((31,), "float64"), sigma=1.3, truncate=truncate)
for radius in (0, 1, 3, 12):
    add(f"g1d_radius{radius}", "gaussian_filter1d", make_input((31,), "float64"), sigma=2.2, radius=radius)
add("g1d_sigma_small", "gaussian_filter1d", make_input((9,), "float64"), sigma=0.2)
add("g1d_sigma_large", "gaussian_filter1d", make_input((50,), "float64"), sigma=40.0)  # 321 taps
for dt in DTYPES:
    add(f"g1d_dtype_{dt}", "gaussian_filter1d", make_input((4, 21), dt), sigma=1.5, axis=-1)
add("g1d_uint8_deriv", "gaussian_filter1d", (np.arange(20, dtype=np.uint8) * 10)[::-1].copy(), sigma=1.0, order=1)
add("g1d_int16_deriv2", "gaussian_filter1d", make_input((5, 30), "int16"), sigma=2.0, order=2, axis=1)
add("g1d_f32_to_f64", "gaussian_filter1d", make_input((7, 15), "float32"), sigma=1.0, output="float64", axis=0)
add("g1d_f64_to_u16", "gaussian_filter1d", np.abs(make_input((7, 15), "float64")) * 50, sigma=1.0, output="uint16")
for layout in ("F", "step2", "rev"):
    add(f"g1d_3d_{layout}", "gaussian_filter1d", make_input((10, 11, 12), "float32"), sigma=1.2, axis=1,
        layout=layout, mode="wrap")
add("err_g1d_sigma_neg", "gaussian_filter1d", make_input((5,), "float64"), sigma=-1.0, error="value_error")
add("err_g1d_sigma_zero", "gaussian_filter1d", make_input((5,), "float64"), sigma=0.0, error="value_error")
add("err_g1d_order_neg", "gaussian_filter1d", make_input((5,), "float64"), sigma=1.0, order=-1, error="value_error")
add("err_g1d_radius_neg", "gaussian_filter1d", make_input((5,), "float64"), sigma=1.0, radius=-2, error="value_error")
add("err_g1d_axis", "gaussian_filter1d", make_input((5,), "float64"), sigma=1.0, axis=1, error="index_error")

# --- gaussian_filter: N-D, per-axis sigma/order/mode/radius, axes subsets, chaining in integer outputs
add("gf_2d", "gaussian_filter", make_input((33, 40), "float64"), sigma=2.0)
add("gf_2d_f32", "gaussian_filter", make_input((33, 40), "float32"), sigma=2.0)
add("gf_2d_peraxis", "gaussian_filter", make_input((20, 25), "float64"), sigma=[1.0, 3.0], order=[1, 0],
    mode=["nearest", "wrap"])
add("gf_2d_radius", "gaussian_filter", make_input((20, 25), "float64"), sigma=[1.5, 0.8], radius=[2, 5])
add("gf_2d_zero_sigma_axis", "gaussian_filter", make_input((15, 16), "float64"), sigma=[0.0, 1.5])
add("gf_all_zero_sigma", "gaussian_filter", make_input((6, 5), "int16"), sigma=0.0)
add("gf_all_zero_sigma_cast", "gaussian_filter", make_input((6, 5), "float64"), sigma=0.0, output="int32")
add("gf_3d", "gaussian_filter", make_input((9, 10, 11), "float64"), sigma=1.0, mode="constant", cval=3.0)
add("gf_3d_f32_orders", "gaussian_filter", make_input((9, 10, 11), "float32"), sigma=[1.0, 1.5, 0.7],
    order=[0, 1, 2], mode="mirror")
add("gf_3d_axes02", "gaussian_filter", make_input((9, 10, 11), "float64"), sigma=1.2, axes=[0, 2])
add("gf_3d_axes_neg", "gaussian_filter", make_input((9, 10, 11), "float64"), sigma=[2.0, 0.5], axes=[-1, 1])
add("gf_4d", "gaussian_filter", make_input((4, 5, 6, 7), "float64"), sigma=0.9, mode="reflect")
add("gf_0d", "gaussian_filter", np.array(3.25), sigma=1.0)
add("gf_empty", "gaussian_filter", np.zeros((0, 4)), sigma=1.0)
for dt in DTYPES:
    add(f"gf_dtype_{dt}", "gaussian_filter", make_input((12, 13), dt), sigma=1.3, mode="nearest")
add("gf_uint8_chain_deriv", "gaussian_filter", (rng.random((16, 16)) * 255).astype(np.uint8), sigma=1.0,
    order=[1, 0])
add("gf_f64_to_int32", "gaussian_filter", make_input((16, 17), "float64") * 10, sigma=1.5, output="int32")
add("g1d_complex_out_promote", "gaussian_filter1d", make_input((8, 9), "complex64"), sigma=1.0, output="float64")
add("c1d_complex_out_promote", "correlate1d", make_input((8, 9), "complex128"), weights=[1.0, 0.5], output="float32")
add("err_gf_complex_real_out", "gaussian_filter", make_input((8, 9), "complex64"), sigma=1.0, output="float64",
    error="runtime_error", error_text="=output must have complex dtype")
for layout in ("F", "step2", "rev"):
    add(f"gf_2d_{layout}", "gaussian_filter", make_input((26, 30), "float32"), sigma=[1.5, 2.5], layout=layout,
        mode="grid-mirror")
    add(f"gf_3d_{layout}", "gaussian_filter", make_input((10, 12, 14), "float64"), sigma=1.1, layout=layout,
        mode="grid-constant", cval=1.0)
add("gf_large_kernel", "gaussian_filter", make_input((40, 300), "float32"), sigma=[12.0, 45.0])  # 97, 361 taps
add("gf_sigma_neg_skips_axis", "gaussian_filter", make_input((5, 6), "float64"), sigma=[1.0, -1.0])
add("err_gf_sigma_len", "gaussian_filter", make_input((5, 5), "float64"), sigma=[1.0, 1.0, 1.0], error="runtime_error",
    error_text="=sequence argument must have length equal to input rank")
add("err_gf_axes_dup", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, axes=[0, -2], error="value_error")
add("err_gf_axes_range", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, axes=[2], error="value_error",
    error_text="=specified axis: 2 is out of range")
add("err_gf_order_neg", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, order=-1, error="value_error")

# --- real data: a crop of skimage's camera image (uint8), smoothed as uint8 and as float64
cam = np.load(s.data("camera.npy"))[200:296, 180:300].copy()
add("camera_u8_s2", "gaussian_filter", cam, sigma=2.0)
add("camera_f64_s1p5", "gaussian_filter", cam, sigma=1.5, output="float64")
add("camera_f32_sobel_like", "gaussian_filter", cam.astype(np.float32), sigma=1.0, order=[0, 1], mode="nearest")

# --- host-side helpers: SciPy's private _gaussian_kernel1d and NumPy's summation
from scipy.ndimage._filters import _gaussian_kernel1d  # noqa: E402

s.group("helpers")
for sigma, order, radius in [(1.0, 0, 4), (2.0, 0, 8), (0.3, 0, 1), (1.7, 1, 7), (2.5, 2, 10), (0.8, 3, 4),
                             (3.0, 4, 12), (5.0, 0, 0), (12.0, 1, 48)]:
    name = s.array(f"kernel_s{sigma}_o{order}_r{radius}", _gaussian_kernel1d(sigma, order, radius))
    s.case(name, "kernel1d", rtol=1e-13, atol=1e-15, expected=name, sigma=sigma, order=order, radius=radius)
for n in (1, 5, 8, 9, 100, 128, 129, 257, 1000):
    v = rng.random(n) * np.exp(rng.standard_normal(n) * 4)
    vin = s.array(f"sum_in_{n}", v)
    vout = s.array(f"sum_out_{n}", np.array([v.sum()]))
    s.case(f"sum_{n}", "numpy_sum", input=vin, expected=vout)


# --- uniform_filter1d / uniform_filter (axis engine, running mean) and the minimum / maximum
# filters (axis engine for boxes, footprint engine otherwise)
s.group("uniform_minmax")
NEW_FUNCS = {
    "uniform_filter1d": lambda x, kw: ndi.uniform_filter1d(x, kw["size"], axis=kw.get("axis", -1), output=kw.get("out"),
                                                           mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                           origin=kw.get("origin", 0)),
    "minimum_filter1d": lambda x, kw: ndi.minimum_filter1d(x, kw["size"], axis=kw.get("axis", -1), output=kw.get("out"),
                                                           mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                           origin=kw.get("origin", 0)),
    "maximum_filter1d": lambda x, kw: ndi.maximum_filter1d(x, kw["size"], axis=kw.get("axis", -1), output=kw.get("out"),
                                                           mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                           origin=kw.get("origin", 0)),
    "uniform_filter": lambda x, kw: ndi.uniform_filter(x, kw.get("size", 3), output=kw.get("out"),
                                                       mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                       origin=kw.get("origin", 0), axes=kw.get("axes")),
    "minimum_filter": lambda x, kw: ndi.minimum_filter(x, kw.get("size"), footprint=kw.get("fp"), output=kw.get("out"),
                                                       mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                       origin=kw.get("origin", 0), axes=kw.get("axes")),
    "maximum_filter": lambda x, kw: ndi.maximum_filter(x, kw.get("size"), footprint=kw.get("fp"), output=kw.get("out"),
                                                       mode=kw.get("mode", "reflect"), cval=kw.get("cval", 0.0),
                                                       origin=kw.get("origin", 0), axes=kw.get("axes")),
}


def add_new(case, func, a, layout="C", error=None, footprint=None, output_array=None, error_text=None, **kw):
    """A case of the new filters. Parameters: size, axis, mode, cval, origin, axes, output,
    output_array, footprint (array name), layout, error_text."""
    inp = s.array(case + "_in", a)
    x = view(a.copy(), layout)
    call = dict(kw)
    if "output" in kw and kw["output"] is not None:
        call["out"] = np.dtype(kw["output"])
    if output_array is not None:
        call["out"] = make_out_array(output_array, x)
        kw["output_array"] = output_array
    if error_text is not None:
        kw["error_text"] = text_param(error_text)
    fp_name = None
    if footprint is not None:
        footprint = np.asarray(footprint)
        call["fp"] = footprint
        fp_name = s.array(case + "_fp", footprint.astype(np.bool_))
    expected, rtol, atol = None, 0.0, 0.0
    if error is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "promoting specified output dtype to complex"
            r = NEW_FUNCS[func](x, call)
        expected = s.array(case + "_out", r)
        finite = np.abs(r[np.isfinite(r)]) if r.dtype.kind == "f" else np.abs(r)
        scale = float(np.max(finite)) if finite.size and r.dtype != np.bool_ else 1.0
        rtol, atol = shared_tol(r.dtype, scale=scale)
        if func.startswith(("minimum", "maximum")):
            rtol, atol = 0.0, 0.0  # a selected value: exact (NaN where SciPy gives NaN)
    else:
        expect_error(case, error, lambda: NEW_FUNCS[func](x, call), error_text)
    s.case(case, func, rtol=rtol, atol=atol, error=error, input=inp, expected=expected, layout=layout,
           footprint=fp_name, **kw)


NEW_DTYPES = ["bool", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"]

# 1-D filters: every mode x sizes (1, even, odd, longer than the line) x origins, 1-D lines
for func in ("uniform_filter1d", "minimum_filter1d", "maximum_filter1d"):
    for mode in MODES:
        for L in (1, 5, 13):
            for size in (1, 2, 3, 6, 17):
                origins = sorted({-(size // 2), 0, (size - 1) // 2})
                for origin in origins:
                    add_new(f"{func}_{mode}_L{L}_s{size}_o{origin}", func, make_input((L,), "float64"), size=size,
                            mode=mode, cval=1.5, origin=origin)
    for dt in NEW_DTYPES:
        add_new(f"{func}_dtype_{dt}", func, make_input((6, 9), dt), size=3, axis=1)
        add_new(f"{func}_dtype_{dt}_ax0", func, make_input((7, 5), dt), size=4, axis=0, mode="constant", cval=2.0)
    # fast float paths (lines >= 32 along the last axis, columns) and long windows
    for dt in ("float32", "float64"):
        a = make_input((5, 70), dt)
        for size in (3, 7, 16, 31, 65):
            add_new(f"{func}_fast_{dt}_rows_s{size}", func, a, size=size, axis=1, mode="reflect")
            add_new(f"{func}_fast_{dt}_cols_s{size}", func, make_input((70, 12), dt), size=size, axis=0, mode="mirror",
                    origin=-(size // 2))
    for layout in ("C", "F", "step2", "rev"):
        a = make_input((8, 9, 40), "float32")
        for axis in (0, 1, 2):
            add_new(f"{func}_3d_{layout}_ax{axis}", func, a, size=5, axis=axis, layout=layout, mode="wrap", origin=1)
    add_new(f"{func}_empty", func, np.zeros((0, 4)), size=3, axis=0)
    add_new(f"{func}_out_f64_to_f32", func, make_input((6, 7), "float64"), size=3, output="float32")
    add_new(f"{func}_out_f64_to_u8", func, make_input((6, 7), "float64") * 10, size=3, output="uint8", mode="constant",
            cval=-3.0)
    add_new(f"{func}_out_i16_to_f64", func, make_input((6, 7), "int16"), size=2, output="float64")
    add_new(f"{func}_int64_big", func, np.array([2**60 + 1, 2**60 + 3, -2**61, 7, 2**59], np.int64), size=3)
    add_new(f"err_{func}_size0", func, make_input((5,), "float64"), size=0, error="runtime_error",
            error_text="=incorrect filter size")
    add_new(f"err_{func}_origin", func, make_input((5,), "float64"), size=3, origin=2, error="value_error")
    add_new(f"err_{func}_axis", func, make_input((5, 4), "float64"), size=3, axis=2, error="index_error")
    add_new(f"err_{func}_f16", func, make_input((5,), "float16"), size=3, error="runtime_error",
            error_text="not supported")
add_new("uniform_filter1d_complex", "uniform_filter1d", make_input((6, 7), "complex128"), size=3, mode="constant",
        cval=2.0)
add_new("err_minimum_filter1d_complex", "minimum_filter1d", make_input((6, 7), "complex64"), size=3,
        error="type_error")
add_new("err_maximum_filter1d_complex", "maximum_filter1d", make_input((6, 7), "complex64"), size=3,
        error="type_error")

# N-D filters by size: dtypes, per-axis sizes and modes, axes subsets, layouts, sizes 0/1
for func in ("uniform_filter", "minimum_filter", "maximum_filter"):
    for dt in NEW_DTYPES:
        add_new(f"{func}_dtype_{dt}", func, make_input((9, 11), dt), size=3)
    add_new(f"{func}_1d", func, make_input((23,), "float64"), size=4, mode="nearest")
    add_new(f"{func}_2d_peraxis", func, make_input((20, 25), "float64"), size=[3, 5], mode=["nearest", "wrap"],
            origin=[1, -2])
    add_new(f"{func}_2d_size1_axis", func, make_input((20, 25), "float32"), size=[1, 6], mode="mirror")
    add_new(f"{func}_all_size1", func, make_input((6, 5), "int16"), size=1)
    add_new(f"{func}_all_size1_cast", func, make_input((6, 5), "float64"), size=1, output="int32")
    add_new(f"{func}_3d", func, make_input((9, 10, 11), "float64"), size=3, mode="constant", cval=3.0)
    add_new(f"{func}_3d_f32_peraxis", func, make_input((9, 10, 40), "float32"), size=[2, 3, 7], mode="reflect")
    add_new(f"{func}_3d_axes02", func, make_input((9, 10, 11), "float64"), size=3, axes=[0, 2])
    add_new(f"{func}_3d_axes_neg", func, make_input((9, 10, 11), "float64"), size=[4, 2], axes=[-1, 1])
    add_new(f"{func}_4d", func, make_input((4, 5, 6, 7), "float64"), size=3, mode="reflect")
    add_new(f"{func}_0d", func, np.array(3.25), size=3)
    add_new(f"{func}_empty", func, np.zeros((0, 4)), size=3)
    for layout in ("F", "step2", "rev"):
        add_new(f"{func}_2d_{layout}", func, make_input((26, 40), "float32"), size=[3, 5], layout=layout,
                mode="grid-mirror")
        add_new(f"{func}_3d_{layout}", func, make_input((10, 12, 14), "float64"), size=3, layout=layout,
                mode="grid-constant", cval=1.0)
    add_new(f"{func}_u8_to_f32", func, make_input((12, 13), "uint8"), size=3, output="float32")
    add_new(f"err_{func}_size_len", func, make_input((5, 5), "float64"), size=[3, 3, 3], error="runtime_error",
            error_text="=sequence argument must have length equal to input rank")
    add_new(f"err_{func}_axes_dup", func, make_input((5, 5), "float64"), size=3, axes=[0, -2], error="value_error")
    add_new(f"err_{func}_axes_range", func, make_input((5, 5), "float64"), size=3, axes=[2], error="value_error")
    add_new(f"err_{func}_origin", func, make_input((5, 5), "float64"), size=3, origin=2, error="value_error")
    add_new(f"err_{func}_f16", func, make_input((5, 5), "float16"), size=3, error="runtime_error")
    cam = np.load(s.data("camera.npy"))[200:296, 180:300].copy()
    add_new(f"{func}_camera_u8", func, cam, size=[5, 3])
add_new("uniform_filter_complex", "uniform_filter", make_input((8, 9), "complex64"), size=3)
add_new("uniform_filter_u8_to_f64_s7", "uniform_filter", make_input((30, 31), "uint8"), size=7, output="float64")

# footprints: non-rectangular (footprint engine), all-true (separated), 1-D..4-D, every mode,
# origins, axes, dtypes, errors
DISK5 = np.array([[0, 1, 1, 1, 0], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0]], bool)
CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
ODD = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 0, 1]], bool)
BALL = np.zeros((3, 3, 3), bool)
BALL[1, 1, :] = BALL[1, :, 1] = BALL[:, 1, 1] = True
for func in ("minimum_filter", "maximum_filter"):
    for mode in MODES:
        add_new(f"{func}_fp_cross_{mode}", func, make_input((13, 17), "float64"), footprint=CROSS, mode=mode,
                cval=-4.5)
        add_new(f"{func}_fp_odd_{mode}", func, make_input((6, 5), "float32"), footprint=ODD, mode=mode, cval=2.0)
    for origin in ([0, 0], [1, -1], [-2, 1], [1, 2]):
        add_new(f"{func}_fp_disk_o{origin[0]}_{origin[1]}", func, make_input((40, 45), "float32"), footprint=DISK5,
                origin=origin)
    add_new(f"{func}_fp_odd_origin_scalar", func, make_input((9, 10), "int32"), footprint=ODD, origin=-1)
    for dt in NEW_DTYPES:
        add_new(f"{func}_fp_dtype_{dt}", func, make_input((11, 12), dt), footprint=CROSS, mode="constant", cval=1.0)
    add_new(f"{func}_fp_1d", func, make_input((30,), "float64"), footprint=[1, 0, 1, 1], mode="wrap")
    add_new(f"{func}_fp_3d", func, make_input((9, 10, 11), "float64"), footprint=BALL, mode="mirror")
    add_new(f"{func}_fp_3d_f32_big", func, make_input((20, 21, 40), "float32"), footprint=BALL, mode="nearest")
    add_new(f"{func}_fp_4d", func, make_input((4, 5, 6, 7), "float64"), footprint=BALL[None].repeat(2, axis=0),
            mode="reflect")
    add_new(f"{func}_fp_axes", func, make_input((6, 7, 8), "float64"), footprint=CROSS, axes=[0, 2], origin=[1, 0])
    add_new(f"{func}_fp_axes_rev", func, make_input((6, 7, 8), "float64"), footprint=ODD, axes=[2, 0], origin=[0, 1])
    add_new(f"{func}_fp_large", func, make_input((7, 6), "float64"), footprint=np.eye(15, dtype=bool), mode="reflect")
    add_new(f"{func}_fp_wide", func, make_input((70, 600), "float64"),
            footprint=np.tril(np.ones((41, 41), bool)), mode="mirror")
    for layout in ("F", "step2", "rev"):
        add_new(f"{func}_fp_{layout}", func, make_input((26, 30), "float32"), footprint=DISK5, layout=layout)
    add_new(f"{func}_fp_alltrue", func, make_input((20, 25), "float64"), footprint=np.ones((3, 4), bool),
            mode="nearest", origin=[0, 1])
    add_new(f"{func}_fp_empty", func, np.zeros((0, 5)), footprint=CROSS)
    add_new(f"{func}_fp_u8_to_f64", func, make_input((12, 13), "uint8"), footprint=CROSS, output="float64")
    add_new(f"{func}_fp_camera", func, cam, footprint=DISK5, mode="nearest")
    add_new(f"err_{func}_fp_allfalse", func, make_input((5, 5), "float64"), footprint=np.zeros((3, 3), bool),
            error="value_error")
    add_new(f"err_{func}_no_footprint", func, make_input((5, 5), "float64"), error="runtime_error",
            error_text="=no footprint provided")
    add_new(f"err_{func}_fp_ndim", func, make_input((5, 5), "float64"), footprint=BALL, error="runtime_error",
            error_text="=footprint.ndim (3) must match len(axes) (2)")
    add_new(f"err_{func}_fp_modes", func, make_input((5, 5), "float64"), footprint=CROSS, mode=["wrap", "reflect"],
            error="runtime_error", error_text="=A sequence of modes is not supported for non-separable footprints")
    add_new(f"err_{func}_fp_origin", func, make_input((5, 5), "float64"), footprint=CROSS, origin=2,
            error="value_error")
    add_new(f"err_{func}_fp_complex", func, make_input((5, 5), "complex128"), footprint=CROSS, error="type_error")
    add_new(f"err_{func}_alltrue_ndim", func, make_input((5, 5), "float64"), footprint=np.ones((3, 3, 3), bool),
            error="runtime_error", error_text="=sequence argument must have length equal to input rank")

# --- SciPy's output= as an existing array (any layout and dtype, the input itself in place), new
# outputs of inputs in any layout, complex weights, negative truncate / sigma, mode strings
s.group("outputs")
OUT_LAYOUTS = ("C", "F", "rev", "step2")
for in_layout in ("C", "F"):
    a2 = make_input((14, 37), "float32")
    a3 = make_input((6, 7, 9), "float64")
    for ol in OUT_LAYOUTS:
        sfx = f"in{in_layout}_out{ol}"
        add(f"outarr_c1d_{sfx}", "correlate1d", a2, layout=in_layout, weights=[0.25, -1.0, 0.5, 2.0], axis=0,
            mode="wrap", output_array=dict(dtype="float32", layout=ol))
        add(f"outarr_g1d_{sfx}", "gaussian_filter1d", a2, layout=in_layout, sigma=1.3, axis=1,
            output_array=dict(dtype="float64", layout=ol))
        add(f"outarr_gf_{sfx}", "gaussian_filter", a3, layout=in_layout, sigma=[1.0, 0.7, 1.4], mode="nearest",
            output_array=dict(dtype="float64", layout=ol))
        add(f"outarr_gf2_{sfx}", "gaussian_filter", a2, layout=in_layout, sigma=1.1,
            output_array=dict(dtype="float32", layout=ol))
        add(f"outarr_cv1d_{sfx}", "convolve1d", a3, layout=in_layout, weights=[1.0, 2.0, -0.5], axis=1,
            output_array=dict(dtype="float64", layout=ol))
        for func in ("uniform_filter1d", "minimum_filter1d", "maximum_filter1d"):
            add_new(f"outarr_{func}_{sfx}", func, a2, layout=in_layout, size=4, axis=0, mode="mirror",
                    output_array=dict(dtype="float32", layout=ol))
        for func in ("uniform_filter", "minimum_filter", "maximum_filter"):
            add_new(f"outarr_{func}_{sfx}", func, a3, layout=in_layout, size=[3, 2, 5],
                    output_array=dict(dtype="float64", layout=ol))
            add_new(f"outarr_{func}_2d_{sfx}", func, a2, layout=in_layout, size=3, mode="constant", cval=1.5,
                    output_array=dict(dtype="float32", layout=ol))
        for func in ("minimum_filter", "maximum_filter"):
            add_new(f"outarr_{func}_fp_{sfx}", func, a2, layout=in_layout, footprint=CROSS,
                    output_array=dict(dtype="float32", layout=ol))
# output arrays of another dtype than the input (SciPy casts as C does)
add("outarr_c1d_f64_to_i32", "correlate1d", make_input((9, 10), "float64") * 5, weights=[1.0, -2.0, 1.5],
    output_array=dict(dtype="int32", layout="F"))
add("outarr_gf_u8_to_f32", "gaussian_filter", make_input((12, 13), "uint8"), sigma=1.5,
    output_array=dict(dtype="float32", layout="rev"))
add("outarr_gf_f64_to_i16_chain", "gaussian_filter", make_input((12, 13), "float64") * 20, sigma=[1.0, 2.0],
    output_array=dict(dtype="int16", layout="step2"))
add_new("outarr_uniform_filter_i16_to_f64", "uniform_filter", make_input((11, 12), "int16"), size=[3, 4],
        output_array=dict(dtype="float64", layout="F"))
add_new("outarr_uniform_filter1d_f32_to_u8", "uniform_filter1d", make_input((11, 12), "float32") * 3, size=3,
        output_array=dict(dtype="uint8", layout="C"))
add_new("outarr_maximum_filter_i32_to_f32", "maximum_filter", make_input((11, 12), "int32"), size=3,
        output_array=dict(dtype="float32", layout="rev"))
add_new("outarr_minimum_filter_size1_cast", "minimum_filter", make_input((6, 5), "float64"), size=1,
        output_array=dict(dtype="int32", layout="F"))
add_new("outarr_uniform_filter_size1_to_c64", "uniform_filter", make_input((6, 5), "float32"), size=1,
        output_array=dict(dtype="complex64", layout="C"))
add("outarr_gf_sigma0_copy", "gaussian_filter", make_input((6, 5), "int16"), sigma=0.0,
    output_array=dict(dtype="float64", layout="step2"))
# complex inputs into output arrays
add("outarr_c1d_c64_to_c128_F", "correlate1d", make_input((8, 9), "complex64"), weights=[0.5, 1.0, -0.25],
    axis=0, mode="constant", cval=2.0, output_array=dict(dtype="complex128", layout="F"))
add("outarr_gf_c128_rev", "gaussian_filter", make_input((8, 9), "complex128"), sigma=1.0, layout="F",
    output_array=dict(dtype="complex128", layout="rev"))
add_new("outarr_uniform_filter_c64_step2", "uniform_filter", make_input((8, 9), "complex64"), size=3,
        output_array=dict(dtype="complex64", layout="step2"))
# in place: output= the input itself, for one, two and three passes, every layout
for lay in ("C", "F", "step2", "rev"):
    a2 = make_input((13, 35), "float64")
    a3 = make_input((7, 8, 9), "float32")
    ip = dict(layout="input")
    add(f"inplace_c1d_{lay}", "correlate1d", a2, layout=lay, weights=[1.0, 0.5, -2.0, 0.25], axis=1,
        output_array=ip)
    add(f"inplace_c1d_ax0_{lay}", "correlate1d", a2, layout=lay, weights=[1.0, 0.5, -2.0], axis=0, output_array=ip)
    add(f"inplace_g1d_{lay}", "gaussian_filter1d", a3, layout=lay, sigma=1.5, axis=0, output_array=ip)
    add(f"inplace_gf2_{lay}", "gaussian_filter", a2, layout=lay, sigma=1.2, mode="mirror", output_array=ip)
    add(f"inplace_gf3_{lay}", "gaussian_filter", a3, layout=lay, sigma=[1.0, 1.5, 0.8], output_array=ip)
    for func in ("uniform_filter1d", "minimum_filter1d", "maximum_filter1d"):
        add_new(f"inplace_{func}_{lay}", func, a2, layout=lay, size=5, axis=0, output_array=ip)
    for func in ("uniform_filter", "minimum_filter", "maximum_filter"):
        add_new(f"inplace_{func}_2d_{lay}", func, a2, layout=lay, size=[3, 4], output_array=ip)
        add_new(f"inplace_{func}_3d_{lay}", func, a3, layout=lay, size=3, mode="wrap", output_array=ip)
    for func in ("minimum_filter", "maximum_filter"):
        add_new(f"inplace_{func}_fp_{lay}", func, a2, layout=lay, footprint=DISK5, output_array=ip)
add("inplace_c1d_complex", "correlate1d", make_input((9, 10), "complex128"), weights=[0.5, 1.0, 0.25],
    output_array=dict(layout="input"))
add("inplace_gf_complex_F", "gaussian_filter", make_input((9, 10), "complex64"), sigma=1.0, layout="F",
    output_array=dict(layout="input"))
add_new("inplace_uniform_filter_int16", "uniform_filter", make_input((9, 10), "int16"), size=3,
        output_array=dict(layout="input"))
add_new("inplace_maximum_filter_size1", "maximum_filter", make_input((9, 10), "int16"), size=1,
        output_array=dict(layout="input"))
# new outputs of 4-D F inputs (three and four passes)
add("outnew_gf_4d_F", "gaussian_filter", make_input((4, 5, 6, 7), "float64"), sigma=1.0, layout="F")
add_new("outnew_uniform_filter_4d_F", "uniform_filter", make_input((4, 5, 6, 7), "float32"), size=3, layout="F")
# output array errors (SciPy's _get_output: RuntimeError)
for func, extra in (("correlate1d", dict(weights=[1.0, 2.0])), ("gaussian_filter1d", dict(sigma=1.0)),
                    ("gaussian_filter", dict(sigma=1.0))):
    add(f"err_outarr_shape_{func}", func, make_input((5, 6), "float64"), error="runtime_error",
        error_text="=output shape not correct", output_array=dict(dtype="float64", layout="C", shape=[6, 5]), **extra)
for func, extra in (("uniform_filter1d", dict(size=3)), ("minimum_filter1d", dict(size=3)),
                    ("uniform_filter", dict(size=3)), ("maximum_filter", dict(size=3)),
                    ("minimum_filter", dict(footprint=CROSS))):
    add_new(f"err_outarr_shape_{func}", func, make_input((5, 6), "float64"), error="runtime_error",
            error_text="=output shape not correct", output_array=dict(dtype="float64", layout="F", shape=[5, 7]),
            **extra)
add("err_outarr_real_for_complex_c1d", "correlate1d", make_input((5, 6), "complex64"), weights=[1.0, 2.0],
    error="runtime_error", error_text="=output must have complex dtype",
    output_array=dict(dtype="float32", layout="C"))
add_new("err_outarr_real_for_complex_uniform_filter1d", "uniform_filter1d", make_input((5, 6), "complex64"), size=3,
        error="runtime_error", error_text="=output must have complex dtype",
        output_array=dict(dtype="float32", layout="C"))
add("err_outarr_real_for_complex_gf", "gaussian_filter", make_input((5, 6), "complex128"), sigma=1.0,
    error="runtime_error", output_array=dict(dtype="float64", layout="C"))
add("err_outarr_complex_for_real_c1d", "correlate1d", make_input((5, 6), "float64"), weights=[1.0, 2.0],
    error="runtime_error", error_text="not supported", output_array=dict(dtype="complex128", layout="C"))
add_new("err_outarr_complex_minimum_filter1d", "minimum_filter1d", make_input((5, 6), "float64"), size=3,
        error="runtime_error", output_array=dict(dtype="complex128", layout="C"))
add_new("err_outarr_f16_uniform_filter", "uniform_filter", make_input((5, 6), "float64"), size=3,
        error="runtime_error", output_array=dict(dtype="float16", layout="C"))

# complex weights (SciPy 1.18: the conjugated weights for correlate1d, via real components)
CW3 = [0.5 + 1.0j, -1.0 + 0.25j, 0.75 - 0.5j]
CW4 = [1.0 - 1.0j, 0.5j, -0.25 + 0.0j, 2.0 + 0.5j]
for func in ("correlate1d", "convolve1d"):
    tag = "c1d" if func == "correlate1d" else "cv1d"
    for dt in ("float64", "float32", "int16", "uint8", "bool", "int32", "complex64", "complex128"):
        add(f"cw_{tag}_{dt}", func, make_input((7, 11), dt), weights=CW3, axis=1)
    for w, wn in ((CW3, "K3"), (CW4, "K4"), ([2.0 + 0.0j], "K1"), ([0.5 + 0.5j, 1.0 - 2.0j], "K2")):
        K = len(w)
        for origin in sorted({-(K // 2), 0, (K - 1) // 2}):
            if func == "convolve1d" and not (-(K // 2) <= -origin - (1 - K % 2) <= (K - 1) // 2):
                continue
            for mode in ("reflect", "constant", "wrap", "nearest", "mirror"):
                add(f"cw_{tag}_{wn}_o{origin}_{mode}", func, make_input((13,), "float64"), weights=w, origin=origin,
                    mode=mode, cval=-1.25)
                add(f"cw_{tag}_cplx_{wn}_o{origin}_{mode}", func, make_input((9,), "complex128"), weights=w,
                    origin=origin, mode=mode, cval=0.5)
    for lay in ("F", "rev", "step2"):
        add(f"cw_{tag}_3d_{lay}", func, make_input((6, 8, 10), "float32"), weights=CW4, axis=0, layout=lay)
        add(f"cw_{tag}_3d_cplx_{lay}", func, make_input((6, 8, 10), "complex64"), weights=CW3, axis=2, layout=lay)
    add(f"cw_{tag}_out_f32_to_c128", func, make_input((5, 9), "float32"), weights=CW3, output="complex128")
    add(f"cw_{tag}_out_real_promotes", func, make_input((5, 9), "float64"), weights=CW3, output="float32")
    add(f"cw_{tag}_out_c128_to_c64", func, make_input((5, 9), "complex128"), weights=CW4, output="complex64")
    add(f"cw_{tag}_outarr_F", func, make_input((5, 9), "float64"), weights=CW3, axis=0,
        output_array=dict(dtype="complex64", layout="F"))
    add(f"cw_{tag}_outarr_step2", func, make_input((5, 9), "complex64"), weights=CW4,
        output_array=dict(dtype="complex128", layout="step2"))
    add(f"cw_{tag}_inplace", func, make_input((6, 9), "complex128"), weights=CW3, layout="F",
        output_array=dict(layout="input"))
    add(f"cw_{tag}_long", func, make_input((300,), "float64"),
        weights=list(np.round(rng.standard_normal(141), 3) + 1j * np.round(rng.standard_normal(141), 3)), mode="wrap")
    add(f"cw_{tag}_empty", func, np.zeros((0, 3)), weights=CW3, axis=0)
    add(f"err_cw_{tag}_no_weights", func, make_input((5,), "float64"), weights=np.zeros(0, complex),
        error="runtime_error", error_text="=no filter weights given")
    add(f"err_cw_{tag}_origin", func, make_input((5,), "float64"), weights=CW3, origin=2, error="value_error",
        error_text="=Invalid origin")
    add(f"err_cw_{tag}_axis", func, make_input((5, 4), "float64"), weights=CW3, axis=2, error="index_error")
    add(f"err_cw_{tag}_real_outarr", func, make_input((5, 4), "float64"), weights=CW3, error="runtime_error",
        error_text="=output must have complex dtype", output_array=dict(dtype="float64", layout="C"))
    add(f"err_cw_{tag}_f16", func, make_input((5, 4), "float16"), weights=CW3, error="runtime_error")

# negative truncate and negative sigma, as SciPy: radius int(truncate * sigma + 0.5), kernel of sigma**2
add("g1d_trunc_neg_radius0", "gaussian_filter1d", make_input((12,), "float64"), sigma=1.0, truncate=-1.0)
add("g1d_trunc_neg_radius0_deriv", "gaussian_filter1d", make_input((12,), "float64"), sigma=1.0, truncate=-1.4,
    order=1)
add("g1d_sigma_neg_trunc_neg", "gaussian_filter1d", make_input((20,), "float64"), sigma=-1.5, truncate=-3.0)
add("g1d_sigma_neg_radius", "gaussian_filter1d", make_input((20,), "float64"), sigma=-2.0, radius=3, order=1)
add("gf_trunc_neg_radius0", "gaussian_filter", make_input((6, 7), "float32"), sigma=[1.0, 0.5], truncate=-0.5)
add("gf_sigma_neg_trunc_neg", "gaussian_filter", make_input((8, 9), "float64"), sigma=[-1.0, 0.3], truncate=-2.0)
add("err_g1d_trunc_neg", "gaussian_filter1d", make_input((9,), "float64"), sigma=1.0, truncate=-1.5,
    error="value_error", error_text="=Radius must be a nonnegative integer")
add("err_gf_trunc_neg", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, truncate=-2.0,
    error="value_error", error_text="=Radius must be a nonnegative integer")
add("err_g1d_sigma_zero_radius", "gaussian_filter1d", make_input((9,), "float64"), sigma=0.0, radius=2,
    error="value_error")
add("err_g1d_trunc_nan", "gaussian_filter1d", make_input((9,), "float64"), sigma=1.0, truncate=float("nan"),
    radius=2, error="value_error")

# mode strings SciPy does not know: RuntimeError "boundary mode not supported"
add("err_mode_c1d", "correlate1d", make_input((5,), "float64"), weights=[1.0, 2.0], mode="edge",
    error="runtime_error", error_text="=boundary mode not supported")
add("err_mode_gf", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, mode=["reflect", "edge"],
    error="runtime_error", error_text="=boundary mode not supported")
add_new("err_mode_uniform_filter1d", "uniform_filter1d", make_input((5,), "float64"), size=3, mode="Reflect",
        error="runtime_error", error_text="=boundary mode not supported")
add_new("err_mode_minimum_filter_fp", "minimum_filter", make_input((5, 5), "float64"), footprint=CROSS,
        mode="symmetric", error="runtime_error", error_text="=boundary mode not supported")
# sequence arguments of the wrong length (RuntimeError) and the rank of all-true footprints
add("err_gf_order_len", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, order=[0, 1, 0],
    error="runtime_error", error_text="=sequence argument must have length equal to input rank")
add("err_gf_radius_len", "gaussian_filter", make_input((5, 5), "float64"), sigma=1.0, radius=[1],
    error="runtime_error")
add_new("err_uniform_filter_origin_len", "uniform_filter", make_input((5, 5), "float64"), size=3, origin=[0, 0, 0],
        error="runtime_error", error_text="=sequence argument must have length equal to input rank")
add_new("err_maximum_filter_fp_origin_len", "maximum_filter", make_input((5, 5), "float64"), footprint=CROSS,
        origin=[0, 0, 0], error="runtime_error")
add_new("err_minimum_filter_fp_axes_ndim", "minimum_filter", make_input((5, 5, 4), "float64"), footprint=CROSS,
        axes=[1], error="runtime_error", error_text="=footprint.ndim (2) must match len(axes) (1)")

# complex weights, complex input: a complex64 input into a complex128 output (SciPy's float32
# temporaries are double sums rounded once), and in place, where SciPy's third and fourth passes read
# the parts already written (with cval in the constant mode, odd and even weights)
for func in ("correlate1d", "convolve1d"):
    tag = "c1d" if func == "correlate1d" else "cv1d"
    add(f"cw_{tag}_out_c64_to_c128", func, make_input((5, 9), "complex64"), weights=CW3, output="complex128",
        mode="constant", cval=0.75)
    add(f"cw_{tag}_outarr_c64_to_c128_F", func, make_input((6, 7), "complex64"), weights=CW4, axis=0,
        mode="wrap", output_array=dict(dtype="complex128", layout="F"))
    add(f"cw_{tag}_inplace_c64_const", func, make_input((7, 8), "complex64"), weights=CW4, axis=0,
        mode="constant", cval=-0.5, output_array=dict(layout="input"))
    add(f"cw_{tag}_inplace_c128_C_const", func, make_input((5, 12), "complex128"), weights=CW3,
        mode="constant", cval=1.5, output_array=dict(layout="input"))
    add(f"cw_{tag}_inplace_c128_rev", func, make_input((4, 10), "complex128"), weights=CW4, layout="rev",
        mode="mirror", output_array=dict(layout="input"))

# --- minimum / maximum filters with NaN and infinities: SciPy's answers depend on its algorithms'
# comparison order. The 1-D filters (and `size` / all-true footprints, run as 1-D passes) keep
# SciPy's running list of NI_MinOrMaxFilter1D, whose result near a NaN depends on the values'
# order and on values that already left the window; footprints compare in the footprint's order
# (a NaN first value stays, a later NaN is never taken). Sizes 1..40 (long ones on the van Herk
# kernel), every mode, origins, cval NaN / inf, float32 / float64, layouts, NaN at the line ends,
# and constant values outside the input dtype's range.
s.group("minmax_nan")
nrng = np.random.default_rng(20261202)


def nan_line(n, dt, p_nan=0.15, p_inf=0.08, ends=True):
    """Small integers (many ties, signed zeros) with NaN and +-inf mixed in."""
    x = nrng.choice(np.array([-3.0, -1.0, -0.0, 0.0, 1.0, 2.0, 5.0]), n)
    x[nrng.random(n) < p_inf] = np.inf
    x[nrng.random(n) < p_inf] = -np.inf
    x[nrng.random(n) < p_nan] = np.nan
    if ends and n > 1:
        x[0] = x[-1] = np.nan
    return x.astype(dt)


NAN_CVALS = (np.nan, 1.5, -np.inf, np.inf, 0.0)
for func in ("minimum_filter1d", "maximum_filter1d"):
    for dt in ("float32", "float64"):
        x = nan_line(70, dt)
        for size in range(1, 41):
            mode = MODES[size % len(MODES)]
            origins = sorted({-(size // 2), 0, (size - 1) // 2})
            origin = origins[size % len(origins)]
            cval = NAN_CVALS[size % len(NAN_CVALS)]
            add_new(f"{func}_nan_{dt}_s{size}", func, x, size=size, mode=mode, origin=origin, cval=cval)
        for mode in MODES:
            for size in (2, 5, 17, 31):
                add_new(f"{func}_nan_{dt}_{mode}_s{size}_nancval", func, nan_line(45, dt), size=size, mode=mode,
                        cval=np.nan, origin=-(size // 2))
        # sparse NaN: windows without NaN that still differ (a value dropped behind a NaN)
        y = np.array([0, 7, np.nan, 1, 3, 9, 9, 9, 9, 9, 2, 8, np.nan, -1, 4, 6, 6, 6, 6, 6, 6], dt)
        for size in (3, 4, 5, 6):
            for origin in sorted({-(size // 2), 0, (size - 1) // 2}):
                add_new(f"{func}_nan_hist_{dt}_s{size}_o{origin}", func, y, size=size, mode="nearest", origin=origin)
        # long lines: NaN near the replay's segment boundaries (every 2048 outputs, 4 K for K > 512),
        # a dense stretch (no clean restart before some segments), a line without NaN
        w = nan_line(3 * 9000, dt, p_nan=0.0, ends=False).reshape(3, 9000)
        for pos in (5, 2040, 2047, 2048, 2050, 4093, 4100, 6140, 8999):
            w[0, pos] = np.nan
        w[1, 3000:7000][nrng.random(4000) < 0.3] = np.nan
        for size in (2, 5, 31, 600):
            add_new(f"{func}_nan_long_{dt}_s{size}", func, w, size=size, mode="reflect", origin=(size - 1) // 2)
        add_new(f"{func}_nan_long_{dt}_cols_s31", func, np.ascontiguousarray(w[:, :4500].T), size=31, axis=0,
                mode="mirror")
        # 2-D: rows (last axis; the fast kernels up to 16, the van Herk kernel above) and columns
        a = nan_line(40 * 300, dt, p_nan=0.01, ends=False).reshape(40, 300)
        a[:, 0] = np.nan
        a[3, :] = np.nan
        b = nan_line(300 * 40, dt, p_nan=0.01, ends=False).reshape(300, 40)
        b[-1, :] = np.nan
        for size in (3, 16, 17, 31, 40):
            add_new(f"{func}_nan2d_{dt}_rows_s{size}", func, a, size=size, axis=1, mode="reflect")
            add_new(f"{func}_nan2d_{dt}_cols_s{size}", func, b, size=size, axis=0, mode="wrap", origin=size // 4)
            add_new(f"{func}_nan2d_{dt}_cols6_s{size}", func, b[:, :6], size=size, axis=0, mode="mirror")
        for layout in ("F", "step2", "rev"):
            for axis in (0, 1):
                add_new(f"{func}_nan2d_{dt}_{layout}_ax{axis}_s31", func, a[:30, :60], size=31, axis=axis,
                        layout=layout, mode="constant", cval=np.nan if axis else -1.0)
                add_new(f"{func}_nan2d_{dt}_{layout}_ax{axis}_s4", func, a[:30, :60], size=4, axis=axis,
                        layout=layout, mode="nearest")
        # NaN-free long windows (van Herk) with ties of signed zeros and infinities
        z = nan_line(2 * 500, dt, p_nan=0.0, ends=False).reshape(2, 500)
        for size in (17, 33, 100, 257):
            add_new(f"{func}_vhg_{dt}_rows_s{size}", func, z, size=size, axis=1, mode="reflect", origin=-(size // 2))
            add_new(f"{func}_vhg_{dt}_cols_s{size}", func, np.ascontiguousarray(z.T), size=size, axis=0,
                    mode="constant", cval=-0.0)
    # integers: a NaN cval reaches SciPy's list of doubles too; long windows on the van Herk kernel
    for dt in ("uint8", "int32", "int64"):
        add_new(f"{func}_nancval_{dt}", func, make_input((7, 12), dt), size=3, mode="constant", cval=np.nan)
        add_new(f"{func}_vhg_{dt}", func, make_input((6, 90), dt), size=37, mode="mirror")
        add_new(f"{func}_vhg_{dt}_cols", func, make_input((90, 40), dt), size=33, axis=0, mode="wrap")
    add_new(f"{func}_nancval_bool", func, nrng.random((5, 9)) < 0.5, size=2, mode="constant", cval=np.nan)
    # a constant value the input dtype cannot hold (SciPy compares it in double, then casts)
    for cval in (2.7, 300.0, -7.5):
        add_new(f"{func}_cval_u8_{cval}", func, make_input((6, 9), "uint8"), size=3, mode="constant", cval=cval)
        add_new(f"{func}_cval_u8_{cval}_s20", func, make_input((6, 40), "uint8"), size=20, mode="constant",
                cval=cval)
    add_new(f"{func}_cval_i8_m200", func, make_input((6, 9), "int8"), size=4, mode="constant", cval=-200.0)
    add_new(f"{func}_cval_f32_0.1", func, make_input((6, 9), "float32"), size=3, mode="constant", cval=0.1)

NAN_FPS = {"cross": CROSS, "disk": DISK5, "odd": ODD}
for func in ("minimum_filter", "maximum_filter"):
    for dt in ("float32", "float64"):
        a = nan_line(23 * 29, dt, p_nan=0.1, ends=False).reshape(23, 29)
        a[0, 0] = a[-1, -1] = np.nan
        # size: 1-D passes per axis (each pass's NaN feeds the next)
        for size in ((3, 3), (2, 5), (31, 4), (1, 17), (40, 40)):
            add_new(f"{func}_nan_{dt}_size{size[0]}x{size[1]}", func, a, size=list(size), mode="reflect")
        for mode in MODES:
            add_new(f"{func}_nan_{dt}_{mode}", func, a, size=[4, 3], mode=mode, cval=np.nan, origin=[1, -1])
            for name, fp in NAN_FPS.items():
                add_new(f"{func}_nan_{dt}_fp_{name}_{mode}", func, a, footprint=fp, mode=mode,
                        cval=np.nan if mode.endswith("constant") else 0.0)
        add_new(f"{func}_nan_{dt}_alltrue", func, a, footprint=np.ones((3, 5), bool), mode="wrap", origin=[0, 2])
        add_new(f"{func}_nan_{dt}_peraxis", func, a, size=[5, 6], mode=["constant", "mirror"], cval=np.nan)
        for name, fp in NAN_FPS.items():
            add_new(f"{func}_nan_{dt}_fp_{name}_origin", func, a, footprint=fp, origin=[-1, 1], mode="nearest")
        for layout in ("F", "step2", "rev"):
            add_new(f"{func}_nan_{dt}_{layout}", func, a, size=[3, 31], layout=layout, mode="nearest")
            add_new(f"{func}_nan_{dt}_fp_{layout}", func, a, footprint=DISK5, layout=layout, mode="wrap")
        a3 = nan_line(9 * 10 * 40, dt, p_nan=0.05, ends=False).reshape(9, 10, 40)
        add_new(f"{func}_nan3d_{dt}_size", func, a3, size=[3, 2, 20], mode="mirror")
        add_new(f"{func}_nan3d_{dt}_axes", func, a3, size=[5, 33], axes=[0, 2], mode="constant", cval=np.nan)
        add_new(f"{func}_nan3d_{dt}_fp", func, a3, footprint=BALL, mode="constant", cval=np.nan)
        add_new(f"{func}_nan1d_{dt}_size", func, nan_line(50, dt), size=7, mode="wrap")
        add_new(f"{func}_nan1d_{dt}_fp", func, nan_line(50, dt), footprint=[1, 0, 1, 1], mode="reflect")
    for cval in (2.7, 300.0):
        add_new(f"{func}_cval_u8_{cval}", func, make_input((9, 11), "uint8"), size=3, mode="constant", cval=cval)
        add_new(f"{func}_fp_cval_u8_{cval}", func, make_input((9, 11), "uint8"), footprint=CROSS, mode="constant",
                cval=cval)
    add_new(f"{func}_nancval_u8", func, make_input((9, 11), "uint8"), size=[3, 2], mode="constant", cval=np.nan)
    add_new(f"{func}_fp_nancval_i16", func, make_input((9, 11), "int16"), footprint=CROSS, mode="constant",
            cval=np.nan)

s.write()
