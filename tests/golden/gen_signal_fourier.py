"""Reference data for cusci::signal's fourier family (hilbert, hilbert2, envelope, detrend, czt, zoom_fft,
CZT, ZoomFFT, czt_points), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_fourier/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  hilbert      x, layout (C | F | strided: x holds the parent, the input is x[..., ::2]), N (null: not
               given), axis; expected.
  hilbert2     x, layout, N (null, [n] or [n0, n1]), axes; expected.
  envelope     x, layout, bp_in ([lo, hi], null entries for None), n_out, squared, residual ("lowpass",
               "all", "None"), axis; expected.
  detrend      x, layout, axis, type ("linear", "constant", "l", "c"), bp [list]; expected.
  czt          x, layout, m, w ([re, im] or null), a ([re, im]), axis; expected.
  zoom_fft     x, layout, fn [list of 1 or 2], m, fs, endpoint, axis; expected.
  CZT          n, m, w, a, x, axis; expected (the call) and points.
  ZoomFFT      n, fn, m, fs, endpoint, x, axis; expected and points.
  czt_points   m, w, a; expected (host).
Errors (error = the cusci exception): the same parameters with `dtype` and `shape` giving the input
(the host test builds a data-less array of that dtype and shape); CZT_call errors need a GPU (the
object is built first) and give n, m and the input's shape.
Tolerances: relative to the result's scale; float32/complex64 results 1e-4 (cuFFT and pocketfft sum in
other orders), float64 1e-10; the chirp z-transform 1e-9 of its scale (Bluestein's error grows with n).
"""
import cmath
import contextlib
import os
import sys
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite, tol

warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's mean of an empty detrend input
s = Suite("signal_fourier")
rng = s.rng(20261202)


@contextlib.contextmanager
def quiet_stderr():
    """Silences file descriptors 1 and 2 (C libraries' messages) for the block."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for f in saved:
                os.close(f)


def cplx(v):
    return None if v is None else [float(np.real(v)), float(np.imag(v))]


def make_input(shape, dtype, layout):
    """(stored parent, the array SciPy sees)."""
    dt = np.dtype(dtype)
    if dt.kind == "c":
        a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    elif dt.kind in "iub":
        a = rng.integers(-20, 20, size=shape) if dt.kind == "i" else rng.integers(0, 2, size=shape)
    else:
        a = rng.standard_normal(shape)
    a = a.astype(dt)
    if layout == "strided":
        if len(shape) == 0:
            return a, a
        ps = tuple(shape[:-1]) + (2 * shape[-1],)
        parent = np.zeros(ps, dtype=dt)
        parent[..., ::2] = a
        return parent, parent[..., ::2]
    return a, a


def tolerance(r, f32=1e-4, f64=1e-10):
    r = np.asarray(r)
    scale = float(np.abs(r).max()) if r.size else 1.0
    return tol(r.dtype, scale=scale, rtol32=f32, rtol64=f64)


def add(func, name, x_parent, layout, expected, **params):
    rt, at = tolerance(expected, **params.pop("_tol", {}))
    s.case(name, func=func, rtol=rt, atol=at, x=s.array(f"{name}_x", x_parent), layout=layout,
           expected=s.array(f"{name}_out", expected), **params)


# ---------------------------------------------------------------------------------------------- hilbert
s.group("hilbert")
i = 0
hil = []
for n in (1, 2, 3, 7, 16, 33, 1000, 4096):
    for dt in ("float64", "float32"):
        hil.append(((n,), dt, "C", None, -1))
hil += [
    ((16384,), "float32", "C", None, -1),
    ((16385,), "float64", "C", None, -1),
    ((10,), "float64", "C", 16, -1),
    ((10,), "float64", "C", 7, -1),
    ((11,), "float32", "C", 4, -1),
    ((11,), "float32", "C", 1, -1),
    ((3, 0), "float64", "C", 5, -1),
    ((0, 8), "float64", "C", None, -1),
    ((4, 9), "float64", "C", None, -1),
    ((4, 9), "float64", "C", None, 0),
    ((4, 9), "float32", "F", None, 0),
    ((4, 9), "float32", "F", None, 1),
    ((4, 9), "float64", "strided", None, -1),
    ((4, 9), "float64", "strided", 12, 0),
    ((3, 5, 6), "float64", "C", None, 1),
    ((3, 5, 6), "float32", "strided", 4, 1),
    ((3, 5, 6), "float64", "F", 9, -3),
    ((5, 12), "int32", "C", None, -1),
    ((5, 12), "int64", "C", 13, 0),
    ((5, 12), "bool", "C", None, -1),
    ((5, 12), "float16", "C", None, -1),
    ((64, 128), "float32", "C", None, -1),
]
for shape, dt, layout, N, axis in hil:
    parent, x = make_input(shape, dt, layout)
    r = ss.hilbert(x, N=N, axis=axis)
    add("hilbert", f"hilbert{i:03d}", parent, layout, r, N=N, axis=axis)
    i += 1

# ---------------------------------------------------------------------------------------------- hilbert2
s.group("hilbert2")
i = 0
for shape, dt, layout, N, axes in [
    ((5, 5), "float64", "C", None, (-2, -1)),
    ((4, 6), "float64", "C", None, (-2, -1)),
    ((4, 6), "float32", "F", None, (-2, -1)),
    ((7, 8), "float64", "strided", None, (-2, -1)),
    ((7, 8), "float64", "C", [5], (-2, -1)),
    ((7, 8), "float64", "C", [9, 4], (-2, -1)),
    ((7, 8), "float64", "C", [9, 4], (1, 0)),
    ((3, 4, 5), "float64", "C", None, (0, 2)),
    ((3, 4, 5), "float32", "C", [6, 3], (2, 0)),
    ((3, 4, 5), "float64", "F", None, (-1, 1)),
    ((9,), "float64", "C", None, (-2, -1)),
    ((2, 3, 4), "int32", "C", None, (-2, -1)),
    ((0, 4), "float64", "C", [3, 4], (-2, -1)),
    ((2, 0, 3, 4), "float64", "C", None, (-2, -1)),
]:
    parent, x = make_input(shape, dt, layout)
    Nn = None if N is None else (N[0] if len(N) == 1 else tuple(N))
    r = ss.hilbert2(x, N=Nn, axes=axes)
    add("hilbert2", f"hilbert2_{i:03d}", parent, layout, r, N=N, axes=list(axes))
    i += 1

# ---------------------------------------------------------------------------------------------- envelope
s.group("envelope")
i = 0
env = []
for n in (1, 2, 5, 8, 17, 64):
    for bp in [(1, None), (None, None), (0, None), (None, 2), (2, 4), (-(n // 2), 0), (-((n + 1) // 2), 1)]:
        for residual in ("lowpass", "all", None):
            env.append(((3, n), "float64", "C", bp, None, False, residual, -1))
env += [
    ((3, 16), "complex128", "C", (1, None), None, False, "lowpass", -1),
    ((3, 16), "complex128", "C", (-4, 5), None, True, "all", -1),
    ((3, 15), "complex128", "C", (-3, -1), 20, False, "lowpass", -1),
    ((3, 15), "complex64", "C", (None, None), 10, False, "all", -1),
    ((3, 16), "complex128", "C", (-8, 8), 8, False, "lowpass", -1),
    ((3, 16), "complex128", "C", (-8, 8), 24, False, "lowpass", -1),
    ((3, 16), "complex128", "C", (2, 6), 7, False, None, -1),
    ((3, 16), "float64", "C", (1, None), 8, False, "lowpass", -1),
    ((3, 16), "float64", "C", (1, None), 24, True, "lowpass", -1),
    ((3, 15), "float64", "C", (2, 5), 9, False, "all", -1),
    ((3, 16), "float32", "C", (1, None), 32, False, "lowpass", -1),
    ((16, 3), "float64", "F", (1, 6), None, False, "lowpass", 0),
    ((4, 16, 3), "float32", "strided", (1, 6), 12, False, "all", 1),
    ((4, 16, 3), "complex128", "C", (-3, 6), 11, True, "lowpass", -2),
    ((2, 20), "int32", "C", (1, None), None, False, "lowpass", -1),
    ((2, 20), "float16", "C", (1, None), None, False, None, -1),
    ((0, 20), "float64", "C", (1, None), None, False, "lowpass", -1),
    ((2, 1000), "float64", "C", (5, 100), 250, False, "lowpass", -1),
    ((2, 1000), "float32", "C", (5, 100), 250, True, "all", -1),
]
for shape, dt, layout, bp, n_out, squared, residual, axis in env:
    parent, x = make_input(shape, dt, layout)
    try:
        r = ss.envelope(x, bp, n_out=n_out, squared=squared, residual=residual, axis=axis)
    except ValueError:  # a band SciPy rejects for this n (the sweep above); the errors are cased below
        continue
    add("envelope", f"envelope{i:03d}", parent, layout, r, bp_in=list(bp), n_out=n_out, squared=squared,
        residual="None" if residual is None else residual, axis=axis)
    i += 1

# ---------------------------------------------------------------------------------------------- detrend
s.group("detrend")
i = 0
det = []
for n in (1, 2, 3, 10, 101, 5000):
    for dt in ("float64", "float32"):
        det.append(((n,), dt, "C", -1, "linear", [0]))
        det.append(((n,), dt, "C", -1, "constant", [0]))
det += [
    ((4, 50), "float64", "C", -1, "linear", [10, 20, 30]),
    ((4, 50), "float64", "C", -1, "linear", [30, 10, 10, 50]),
    ((4, 50), "float64", "C", -1, "linear", [1, 2, 49]),
    ((50, 4), "float64", "C", 0, "linear", [7, 25]),
    ((50, 4), "float32", "F", 0, "l", [7, 25]),
    ((3, 40, 5), "float64", "C", 1, "linear", [13]),
    ((3, 40, 5), "float32", "strided", -2, "linear", [5, 17, 33]),
    ((3, 40, 5), "complex128", "C", 1, "linear", [20]),
    ((3, 40, 5), "complex64", "F", -1, "linear", [2]),
    ((6, 30), "int32", "C", -1, "linear", [10]),
    ((6, 30), "int32", "C", -1, "constant", [0]),
    ((6, 30), "float16", "C", -1, "linear", [0]),
    ((6, 30), "float16", "C", 0, "c", [0]),
    ((6, 30), "complex128", "strided", 0, "constant", [0]),
    ((0, 30), "float64", "C", -1, "constant", [0]),
    ((2, 9000), "float32", "C", -1, "linear", [4096, 4097, 8000]),
    ((1, 8500), "float64", "C", -1, "linear", [8191, 8192]),
]
for shape, dt, layout, axis, typ, bp in det:
    parent, x = make_input(shape, dt, layout)
    if np.dtype(dt).kind in "fc":  # a trend to remove
        t = np.arange(x.shape[axis]).reshape([-1 if d == (axis % x.ndim) else 1 for d in range(x.ndim)])
        x = x + (0.3 * t + 2.0).astype(x.dtype)
        if layout == "strided":
            parent[..., ::2] = x
        else:
            parent = x
    r = ss.detrend(x, axis=axis, type=typ, bp=bp)
    rt, at = tolerance(r, f32=1e-4, f64=1e-10)
    at = max(at, (1e-4 if r.dtype in (np.float32, np.complex64) else 1e-10) * float(np.abs(x).max(initial=1.0)))
    if r.dtype == np.float16:
        rt, at = 2e-3, 2e-3 * float(np.abs(x).max(initial=1.0))
    s.case(f"detrend{i:03d}", func="detrend", rtol=rt, atol=at, x=s.array(f"detrend{i:03d}_x", parent), layout=layout,
           expected=s.array(f"detrend{i:03d}_out", r), axis=axis, type=typ, bp=bp)
    i += 1

# ---------------------------------------------------------------------------------------------- czt, zoom_fft
s.group("czt")
i = 0
w1 = cmath.exp(-1j * np.pi / 40)
for shape, dt, layout, m, w, a, axis in [
    ((8,), "float64", "C", None, None, 1 + 0j, -1),
    ((7,), "complex128", "C", None, None, 1 + 0j, -1),
    ((1,), "float64", "C", None, None, 1 + 0j, -1),
    ((1,), "float64", "C", 5, None, 1 + 0j, -1),
    ((13,), "float64", "C", 20, None, 1 + 0j, -1),
    ((20,), "float64", "C", 13, None, 1 + 0j, -1),
    ((16,), "complex64", "C", 16, w1, 1 + 0j, -1),
    ((16,), "float32", "C", 30, 0.995 * w1, 0.9 * cmath.exp(0.2j), -1),
    ((4, 25), "float64", "C", 40, cmath.exp(-2j * np.pi / 60), 1.05 + 0j, -1),
    ((25, 4), "complex128", "F", 11, None, 1j, 0),
    ((3, 25, 4), "float64", "strided", 30, w1, 1 + 0j, 1),
    ((3, 12), "int32", "C", None, None, 1 + 0j, -1),
    ((0, 12), "float64", "C", 5, None, 1 + 0j, -1),
    ((2, 1000), "complex128", "C", 700, cmath.exp(-0.5j * np.pi / 700), cmath.exp(0.1j), -1),
    ((4096,), "complex64", "C", 4096, None, 1 + 0j, -1),
]:
    parent, x = make_input(shape, dt, layout)
    r = ss.czt(x, m=m, w=w, a=a, axis=axis)
    add("czt", f"czt{i:03d}", parent, layout, r, m=m, w=cplx(w), a=cplx(a), axis=axis, _tol=dict(f64=1e-9))
    i += 1

s.group("zoom_fft")
i = 0
for shape, dt, layout, fn, m, fs, endpoint, axis in [
    ((16,), "float64", "C", [2.0], None, 2.0, False, -1),
    ((16,), "float64", "C", [0.2, 0.4], None, 2.0, False, -1),
    ((16,), "float64", "C", [0.2, 0.4], 32, 2.0, True, -1),
    ((15,), "complex128", "C", [-0.3, 0.5], 9, 2.0, False, -1),
    ((4, 33), "float64", "C", [10.0, 40.0], 50, 100.0, True, -1),
    ((33, 4), "float32", "F", [0.5], 21, 1.0, False, 0),
    ((3, 20, 2), "float64", "strided", [0.1, 0.15], 64, 2 * np.pi, True, 1),
    ((2, 500), "float64", "C", [100.0, 110.0], 300, 1000.0, False, -1),
]:
    parent, x = make_input(shape, dt, layout)
    fnv = fn[0] if len(fn) == 1 else fn
    r = ss.zoom_fft(x, fnv, m=m, fs=fs, endpoint=endpoint, axis=axis)
    add("zoom_fft", f"zoom{i:03d}", parent, layout, r, fn=fn, m=m, fs=fs, endpoint=endpoint, axis=axis,
        _tol=dict(f64=1e-9))
    i += 1

s.group("objects")
i = 0
for n, m, w, a, shape, axis in [
    (8, None, None, 1 + 0j, (3, 8), -1),
    (6, 10, w1, 0.8 + 0.6j, (6, 2), 0),
    (5, 3, 1.01 * cmath.exp(0.3j), 1 + 0j, (5,), -1),
]:
    x = rng.standard_normal(shape)
    t = ss.CZT(n, m, w, a)
    r = t(x, axis=axis)
    rt, at = tolerance(r, f64=1e-9)
    s.case(f"CZT{i:02d}", func="CZT", rtol=rt, atol=at, n=n, m=m, w=cplx(w), a=cplx(a), axis=axis,
           x=s.array(f"CZT{i:02d}_x", x), expected=s.array(f"CZT{i:02d}_out", r),
           points=s.array(f"CZT{i:02d}_points", t.points()))
    i += 1
i = 0
for n, fn, m, fs, endpoint, shape, axis in [
    (16, [0.1, 0.3], None, 2.0, False, (2, 16), -1),
    (9, [0.5], 7, 1.0, True, (9, 3), 0),
    (12, [5.0, 8.0], 20, 50.0, True, (12,), -1),
]:
    x = rng.standard_normal(shape)
    t = ss.ZoomFFT(n, fn[0] if len(fn) == 1 else fn, m, fs=fs, endpoint=endpoint)
    r = t(x, axis=axis)
    rt, at = tolerance(r, f64=1e-9)
    s.case(f"ZoomFFT{i:02d}", func="ZoomFFT", rtol=rt, atol=at, n=n, fn=fn, m=m, fs=fs, endpoint=endpoint, axis=axis,
           x=s.array(f"ZoomFFT{i:02d}_x", x), expected=s.array(f"ZoomFFT{i:02d}_out", r),
           points=s.array(f"ZoomFFT{i:02d}_points", t.points()))
    i += 1

i = 0
for m, w, a in [(1, None, 1 + 0j), (7, None, 1 + 0j), (16, None, 0.5 + 0.5j), (12, w1, 1 + 0j),
                (150, 0.999 * cmath.exp(-0.05j), 1.2 * cmath.exp(-0.4j)), (5, 2 + 0j, 1 + 0j)]:
    r = ss.czt_points(m, w, a)
    s.case(f"czt_points{i:02d}", func="czt_points", rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(r).max())),
           m=m, w=cplx(w), a=cplx(a), expected=s.array(f"czt_points{i:02d}_out", r))
    i += 1

# ---------------------------------------------------------------------------------------------- errors
errors = [
    # func, exception, parameters (dtype, shape: the input), the SciPy call that must raise it
    ("hilbert", "value_error", dict(dtype="complex128", shape=[8]), lambda x: ss.hilbert(x)),
    ("hilbert", "value_error", dict(dtype="float64", shape=[8], N=0), lambda x: ss.hilbert(x, N=0)),
    ("hilbert", "value_error", dict(dtype="float64", shape=[0]), lambda x: ss.hilbert(x)),
    ("hilbert", "index_error", dict(dtype="float64", shape=[8], axis=1), lambda x: ss.hilbert(x, axis=1)),
    ("hilbert", "index_error", dict(dtype="float64", shape=[]), lambda x: ss.hilbert(x)),
    ("hilbert2", "value_error", dict(dtype="complex64", shape=[4, 4]), lambda x: ss.hilbert2(x)),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], axes=[0, 0]), lambda x: ss.hilbert2(x, axes=(0, 0))),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], axes=[0, -2]), lambda x: ss.hilbert2(x, axes=(0, -2))),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], axes=[0, 1, 1]),
     lambda x: ss.hilbert2(x, axes=(0, 1, 1))),
    ("hilbert2", "index_error", dict(dtype="float64", shape=[4, 4], axes=[0, 2]), lambda x: ss.hilbert2(x, axes=(0, 2))),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], N=[-1]), lambda x: ss.hilbert2(x, N=-1)),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], N=[5, 0]), lambda x: ss.hilbert2(x, N=(5, 0))),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[4, 4], N=[5, 5, 5]), lambda x: ss.hilbert2(x, N=(5, 5, 5))),
    ("hilbert2", "value_error", dict(dtype="float64", shape=[0, 4]), lambda x: ss.hilbert2(x)),
    ("envelope", "value_error", dict(dtype="float64", shape=[8], axis=1), lambda x: ss.envelope(x, axis=1)),
    ("envelope", "value_error", dict(dtype="float64", shape=[]), lambda x: ss.envelope(x)),
    ("envelope", "value_error", dict(dtype="float64", shape=[3, 0]), lambda x: ss.envelope(x)),
    ("envelope", "value_error", dict(dtype="float64", shape=[8], bp_in=[3, 2]), lambda x: ss.envelope(x, (3, 2))),
    ("envelope", "value_error", dict(dtype="float64", shape=[8], bp_in=[1, 5]), lambda x: ss.envelope(x, (1, 5))),
    ("envelope", "value_error", dict(dtype="float64", shape=[9], bp_in=[-6, None]), lambda x: ss.envelope(x, (-6, None))),
    ("envelope", "value_error", dict(dtype="float64", shape=[8], bp_in=[1, 1]), lambda x: ss.envelope(x, (1, 1))),
    ("envelope", "value_error", dict(dtype="float64", shape=[8], n_out=0), lambda x: ss.envelope(x, n_out=0)),
    ("detrend", "value_error", dict(dtype="float64", shape=[8], bp=[9]), lambda x: ss.detrend(x, bp=9)),
    ("detrend", "value_error", dict(dtype="float64", shape=[8], bp=[-1]), lambda x: ss.detrend(x, bp=-1)),
    ("detrend", "value_error", dict(dtype="float64", shape=[0]), lambda x: ss.detrend(x)),
    ("detrend", "value_error", dict(dtype="float64", shape=[0, 5]), lambda x: ss.detrend(x)),
    ("detrend", "index_error", dict(dtype="float64", shape=[8], axis=2), lambda x: ss.detrend(x, axis=2)),
    ("detrend", "index_error", dict(dtype="float64", shape=[8], axis=2, type="constant"),
     lambda x: ss.detrend(x, axis=2, type="constant")),
    ("detrend", "index_error", dict(dtype="float64", shape=[]), lambda x: ss.detrend(x)),
    ("czt", "value_error", dict(dtype="float64", shape=[8], m=0), lambda x: ss.czt(x, m=0)),
    ("czt", "value_error", dict(dtype="float64", shape=[0]), lambda x: ss.czt(x)),
    ("czt", "index_error", dict(dtype="float64", shape=[8], axis=1), lambda x: ss.czt(x, axis=1)),
    ("czt", "index_error", dict(dtype="float64", shape=[]), lambda x: ss.czt(x)),
    ("zoom_fft", "value_error", dict(dtype="float64", shape=[8], fn=[0.1, 0.2, 0.3]),
     lambda x: ss.zoom_fft(x, [0.1, 0.2, 0.3])),
    ("zoom_fft", "value_error", dict(dtype="float64", shape=[8], fn=[0.1, 0.2], m=1, endpoint=True),
     lambda x: ss.zoom_fft(x, [0.1, 0.2], m=1, endpoint=True)),
    ("zoom_fft", "value_error", dict(dtype="float64", shape=[8], fn=[0.1, 0.2], fs=0.0),
     lambda x: ss.zoom_fft(x, [0.1, 0.2], fs=0.0)),
    ("zoom_fft", "value_error", dict(dtype="float64", shape=[8], fn=[0.5], m=-2), lambda x: ss.zoom_fft(x, 0.5, m=-2)),
    ("zoom_fft", "index_error", dict(dtype="float64", shape=[8], fn=[0.5], axis=-2), lambda x: ss.zoom_fft(x, 0.5, axis=-2)),
    ("czt_points", "value_error", dict(m=0), None),
    ("CZT", "value_error", dict(n=0), None),
    ("CZT", "value_error", dict(n=5, m=-1), None),
    ("CZT_call", "value_error", dict(n=5, shape=[3, 6], axis=-1), None),
    ("CZT_call", "index_error", dict(n=5, shape=[3, 5], axis=2), None),
]
pyexc = {"value_error": (ValueError, ZeroDivisionError), "index_error": (IndexError,), "type_error": (TypeError,)}
for k, (func, exc, params, call) in enumerate(errors):
    if func == "czt_points":
        call = lambda x: ss.czt_points(0)
    elif func == "CZT":
        call = lambda x, p=params: ss.CZT(p["n"], p.get("m"))
    elif func == "CZT_call":
        call = lambda x, p=params: ss.CZT(p["n"])(np.zeros(p["shape"]), axis=p["axis"])
    x = np.zeros(params["shape"], dtype=params["dtype"]) if "dtype" in params else None
    with quiet_stderr():  # LAPACK's xerbla prints on SciPy's way to the ValueError of an empty detrend
        try:
            call(x)
            raise AssertionError(f"expected {exc} from case {k}: {func} {params}")
        except pyexc[exc]:
            pass
    s.case(f"err_{func}{k:02d}", func=func, error=exc, **params)

s.write()
