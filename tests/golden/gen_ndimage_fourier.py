#!/usr/bin/env python
"""Reference data for cusci::ndimage's Fourier filters (fourier_gaussian, fourier_uniform,
fourier_ellipsoid, fourier_shift), computed with SciPy at build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage_fourier.py --out <build>/tests/golden --data examples/data

Inputs are numpy.fft.fftn (n = -1) or numpy.fft.rfftn along `axis` (n = the original length) of
seeded images, plus plain real / integer / bool arrays (SciPy accepts them). Each case: func, input
(array name), expected (array name; absent for error cases) and SciPy's parameters: the per-axis
parameter under SciPy's name (sigma, size or shift: a number or a list, "nan"/"inf" as strings),
n, axis, output (a dtype name given as SciPy's dtype class, e.g. np.float32), plus
  layout:    C (as stored), F (copied to Fortran order), step2 (input[::2, ::2, ...]), rev (input[..., ::-1]);
  out_array: a dtype name: an output array of that dtype (zeros) is passed, out_order C or F;
  out_shape: the shape of that output array when it differs from the input's (error cases);
  inplace:   the input array itself is passed as output;
  overlap:   the output is input[1:] of a larger array whose [:-1] is the input (memory shared with
             the input, another view); the expected values are SciPy's for a separate output.
"""
import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol
from ndimage_inputs import view

s = Suite("ndimage_fourier")
rng = s.rng(20261215)

FUNCS = {"fourier_gaussian": (ndi.fourier_gaussian, "sigma"),
         "fourier_uniform": (ndi.fourier_uniform, "size"),
         "fourier_ellipsoid": (ndi.fourier_ellipsoid, "size"),
         "fourier_shift": (ndi.fourier_shift, "shift")}
# Most specific first: NotImplementedError is a RuntimeError, AxisError a ValueError and IndexError.
ERRORS = {NotImplementedError: "not_implemented_error", np.exceptions.AxisError: "index_error",
          RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error"}


def image(shape):
    return rng.random(shape) * 4.0 - 1.0


def spectrum(shape, n=-1, axis=-1, dtype=np.complex128):
    """fftn of a seeded image of `shape`, or its real FFT along `axis` (all axes transformed)."""
    x = image(shape)
    if n < 0:
        return np.fft.fftn(x).astype(dtype)
    ax = axis % len(shape)
    others = [d for d in range(len(shape)) if d != ax]
    return np.fft.rfftn(x, axes=others + [ax]).astype(dtype)


def real_input(shape, dtype):
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind == "u":
        return rng.integers(0, min(np.iinfo(dt).max, 200) + 1, size=shape).astype(dt)
    if dt.kind == "i":
        lim = min(np.iinfo(dt).max, 100)
        return rng.integers(-lim, lim + 1, size=shape).astype(dt)
    return image(shape).astype(dt) * 10


def jparam(v):
    if isinstance(v, (list, tuple)):
        return [jparam(x) for x in v]
    return v


def add(case, func, a, param, n=-1, axis=-1, layout="C", output=None, out_array=None, out_order="C",
        out_shape=None, inplace=False, overlap=False, expect_error=None):
    f, pname = FUNCS[func]
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    kw = dict(n=n, axis=axis)
    error = None
    try:
        if output is not None:
            r = f(x, param, output=np.dtype(output).type, **kw)
        elif out_array is not None:
            o = np.zeros(out_shape if out_shape is not None else x.shape, dtype=out_array, order=out_order)
            r = f(x, param, output=o, **kw)
            assert r is o
        elif inplace:
            y = x.copy(order="K")
            r = f(y, param, output=y, **kw)
        elif overlap:
            r = f(x.copy(), param, **kw)  # SciPy's values for a separate output
        else:
            r = f(x, param, **kw)
    except Exception as e:  # noqa: BLE001: the exception kind is the reference
        error = next((v for k, v in ERRORS.items() if isinstance(e, k)), None)
        if error is None:
            raise
        if expect_error is not None and error != expect_error:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy raised {type(e).__name__}: {e}")
    else:
        if expect_error is not None:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy returned")
    params = {pname: jparam(param), "n": n, "axis": axis, "layout": layout, "output": output,
              "out_array": out_array, "out_order": out_order, "out_shape": out_shape, "inplace": inplace,
              "overlap": overlap}
    if error is not None:
        s.case(case, func, error=error, input=inp, **params)
        return
    finite = r[np.isfinite(r)] if r.size else r
    scale = float(np.max(np.abs(finite))) if finite.size else 1.0
    # The device's exp/sin/cos differ from the C library's by an ulp or two; its J1 (2-D ellipsoid)
    # has an absolute error of up to about 1e-11 for large arguments, hence the looser double tolerance.
    rtol, atol = tol(r.dtype, scale=scale, rtol64=1e-10 if func == "fourier_ellipsoid" else 1e-12)
    s.case(case, func, rtol=rtol, atol=atol, input=inp, expected=s.array(case + "_out", r), **params)


PARAMS = {"fourier_gaussian": [1.5, 0.0, 4.0], "fourier_uniform": [3.0, 0.5, 7.5],
          "fourier_ellipsoid": [3.0, 1.0, 6.5], "fourier_shift": [2.0, -0.75, 13.25]}

s.group("complex")
# --- complex FFT inputs (n = -1): 1-D .. 3-D (4-D except the ellipsoid), complex64 and complex128,
# every layout, scalar and per-axis parameters.
SHAPES = [(17,), (16,), (12, 15), (9, 1), (6, 7, 8), (5, 1, 4), (3, 4, 2, 5)]
for func in FUNCS:
    for shape in SHAPES:
        if func == "fourier_ellipsoid" and len(shape) > 3:
            continue
        tag = "x".join(map(str, shape))
        for dt in ("complex128", "complex64"):
            a = spectrum(shape, dtype=dt)
            for p in PARAMS[func]:
                add(f"{func}_c_{tag}_{dt}_p{p}", func, a, p)
            per_axis = [float(v) for v in np.round(rng.uniform(0.5, 5.0, len(shape)), 2)]
            add(f"{func}_c_{tag}_{dt}_peraxis", func, a, per_axis)
        for layout in ("F", "step2", "rev"):
            add(f"{func}_c_{tag}_{layout}", func, spectrum(shape), PARAMS[func][0], layout=layout)

s.group("real_fft")
# --- real FFT inputs (n >= 0): the half axis on every axis, n odd and even, per-axis parameters.
for func in FUNCS:
    for shape in [(15,), (16,), (12, 15), (12, 16), (6, 7, 8), (5, 6, 3, 4)]:
        if func == "fourier_ellipsoid" and len(shape) > 3:
            continue
        tag = "x".join(map(str, shape))
        for ax in range(len(shape)):
            for axis in sorted({ax, ax - len(shape)}):
                a = spectrum(shape, n=shape[ax], axis=ax)
                add(f"{func}_r_{tag}_ax{axis}", func, a, PARAMS[func][0], n=shape[ax], axis=axis)
            a = spectrum(shape, n=shape[ax], axis=ax, dtype=np.complex64)
            per_axis = [float(v) for v in np.round(rng.uniform(0.5, 5.0, len(shape)), 2)]
            add(f"{func}_r_{tag}_ax{ax}_c64_peraxis", func, a, per_axis, n=shape[ax], axis=ax)
            add(f"{func}_r_{tag}_ax{ax}_rev", func, spectrum(shape, n=shape[ax], axis=ax), PARAMS[func][2],
                n=shape[ax], axis=ax, layout="rev")
    # n different from the length the half axis implies (SciPy uses n as given)
    a = spectrum((10, 9), n=9, axis=1)
    add(f"{func}_r_n_other", func, a, PARAMS[func][1], n=30, axis=1)
    add(f"{func}_r_n_zero", func, a, PARAMS[func][1], n=0, axis=1)   # NaN / inf where SciPy divides by 0
    add(f"{func}_r_n_zero_ax0", func, a, PARAMS[func][1], n=0, axis=0)
    add(f"{func}_r_n_len1", func, spectrum((6, 1)), 2.0, n=1, axis=1)
    add(f"{func}_r_n_len1_n0", func, spectrum((6, 1)), 2.0, n=0, axis=1)

s.group("dtypes")
# --- real and integer inputs (SciPy filters any real dtype: float32 stays float32, the others give
# float64; fourier_shift gives complex128), explicit output dtypes.
for func in FUNCS:
    for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
               "float64"):
        add(f"{func}_dt_{dt}", func, real_input((7, 10), dt), PARAMS[func][0])
    outs = ["complex64", "complex128"] if func == "fourier_shift" else ["float32", "float64", "complex64",
                                                                          "complex128"]
    for o in outs:
        add(f"{func}_out_f64_{o}", func, real_input((8, 6), "float64"), PARAMS[func][0], output=o)
        add(f"{func}_out_i16_{o}", func, real_input((8, 6), "int16"), PARAMS[func][0], output=o)
    for o in ("complex64", "complex128"):
        add(f"{func}_out_c128_{o}", func, spectrum((8, 6)), PARAMS[func][0], output=o)
        add(f"{func}_out_c64_{o}", func, spectrum((8, 6), dtype=np.complex64), PARAMS[func][0], output=o)

s.group("special")
# --- special parameter values: 0, negative, NaN, inf, huge (the exp cutoff at 50), length-1 axes.
for func in FUNCS:
    for p in (0.0, -2.5, float("nan"), float("inf"), 1e3):
        add(f"{func}_sp_{p}", func, spectrum((6, 5)), p)
        add(f"{func}_sp1d_{p}", func, spectrum((7,)), p)
    add(f"{func}_sp_mixed", func, spectrum((4, 6, 5)), [0.0, -1.0, 2.0])
    add(f"{func}_len1_all", func, spectrum((1, 1)), 3.0)
    add(f"{func}_len1_1d", func, spectrum((1,)), 3.0)
    add(f"{func}_len2", func, spectrum((2, 3)), 1.0)

s.group("outputs")
# --- output arrays (C and F order, other dtypes), in place, overlap with the input.
for func in FUNCS:
    shift = func == "fourier_shift"
    for order in ("C", "F"):
        add(f"{func}_oa_c128_{order}", func, spectrum((9, 8)), PARAMS[func][0], out_array="complex128",
            out_order=order)
        add(f"{func}_oa_c64_from_c128_{order}", func, spectrum((9, 8)), PARAMS[func][0], out_array="complex64",
            out_order=order)
        add(f"{func}_oa_real_{order}", func, real_input((9, 8), "float32"), PARAMS[func][0],
            out_array="complex64" if shift else "float64", out_order=order)
    add(f"{func}_oa_step2_in", func, spectrum((10, 12)), [1.0, 2.0], out_array="complex128", layout="step2")
    for dt, layout in (("complex128", "C"), ("complex64", "F"), ("complex128", "step2"), ("complex64", "rev")):
        add(f"{func}_inplace_{dt}_{layout}", func, spectrum((8, 7), dtype=dt), PARAMS[func][0], layout=layout,
            inplace=True)
    if not shift:
        add(f"{func}_inplace_f32", func, real_input((8, 7), "float32"), PARAMS[func][0], inplace=True)
        add(f"{func}_inplace_f64_F", func, real_input((6, 5, 4), "float64"), PARAMS[func][0], layout="F",
            inplace=True)
    a = spectrum((21,))
    add(f"{func}_overlap", func, a, PARAMS[func][0], overlap=True)

s.group("empty")
# --- zero-size inputs: the output is returned unfilled (fourier_ellipsoid even before checking axis
# and size, as SciPy), float16 is not looked at.
for func in FUNCS:
    add(f"{func}_empty", func, np.zeros((0, 4), np.complex128), 1.0)
    add(f"{func}_empty_real", func, np.zeros((3, 0), np.float32), 1.0)
    add(f"{func}_empty_f16", func, np.zeros((0, 3), np.float16), 1.0)
    add(f"{func}_empty_int_out_array", func, np.zeros((0, 3)), 1.0, out_array="int32")
    if func == "fourier_ellipsoid":
        add(f"{func}_empty_bad_axis", func, np.zeros((0, 3)), [1.0, 2.0, 3.0], axis=7)
    else:
        add(f"{func}_empty_bad_seq", func, np.zeros((0, 3)), [1.0, 2.0, 3.0], expect_error="runtime_error")

s.group("errors")
# --- errors: SciPy's exception kinds (RuntimeError -> runtime_error, AxisError -> index_error,
# NotImplementedError -> not_implemented_error).
for func in FUNCS:
    shift = func == "fourier_shift"
    c = spectrum((4, 5))
    add(f"{func}_err_seq_short", func, c, [1.0], expect_error="runtime_error")
    add(f"{func}_err_seq_long", func, c, [1.0, 2.0, 3.0], expect_error="runtime_error")
    add(f"{func}_err_axis", func, c, 1.0, axis=2, expect_error="index_error")
    add(f"{func}_err_axis_neg", func, c, 1.0, axis=-3, n=4, expect_error="index_error")
    add(f"{func}_err_0d", func, np.array(1.5 + 0.5j), 1.0, expect_error="index_error")
    add(f"{func}_err_out_int", func, c, 1.0, output="int32", expect_error="runtime_error")
    add(f"{func}_err_out_f16", func, c, 1.0, output="float16", expect_error="runtime_error")
    add(f"{func}_err_out_real_for_complex", func, c, 1.0, output="float32", expect_error="runtime_error")
    add(f"{func}_err_out_shape", func, c, 1.0, out_array="complex128", out_shape=[5, 4],
        expect_error="runtime_error")
    add(f"{func}_err_out_array_int", func, real_input((4, 5), "float64"), 1.0, out_array="int32",
        expect_error="runtime_error")
    add(f"{func}_err_out_array_real", func, c, 1.0, out_array="float64", expect_error="runtime_error")
    add(f"{func}_err_f16", func, np.ones((3, 3), np.float16), 1.0, expect_error="runtime_error")
    if shift:
        add(f"{func}_err_out_f64", func, real_input((4, 5), "float64"), 1.0, output="float64",
            expect_error="runtime_error")
    else:
        add(f"{func}_ok_out_f64", func, real_input((4, 5), "float64"), 1.0, output="float64")
    if func == "fourier_ellipsoid":
        add(f"{func}_err_4d", func, spectrum((2, 2, 2, 2)), 1.0, expect_error="not_implemented_error")
        add(f"{func}_err_4d_empty", func, np.zeros((0, 2, 2, 2)), 1.0, expect_error="not_implemented_error")

s.write()
