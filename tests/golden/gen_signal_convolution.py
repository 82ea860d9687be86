"""Reference data for cusci::signal's convolution family, from SciPy 1.18.1 (format: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_convolution/.

Cases (func, then its parameters; arrays are named <case>_<what>):
  convolve, correlate   in1, in2 (arrays), layout1, layout2 (C | F | strided: the array holds the parent and
                        the input is parent[..., ::2]), mode, method; expected.
  fftconvolve,          in1, in2, layout1, layout2, mode, axes (null: not given; else a list); expected.
  oaconvolve
  convolve2d,           in1, in2, layout1, layout2, mode, boundary, fillvalue ([re, im]); expected.
  correlate2d
  choose_conv_method    shape1, shape2, dtype1, dtype2 (float inputs: the test makes zeros of these) or
                        in1, in2 (integer inputs, whose values matter), mode; expected = "direct" | "fft".
  correlation_lags      in1_len, in2_len, mode; expected (int64).
  deconvolve            signal, divisor; quotient, remainder.
Errors: error names the cusci exception (value_error, index_error).
Tolerances (atol relative to the output's scale S = max|in1| * sum|in2|, a bound of |out|): integers
exact; float32 / complex64 direct rtol 2e-5, atol 2e-6 S; FFT paths in single precision (a single-
precision input suffices: SciPy transforms each input in its own precision) rtol 1e-4, atol 1e-5 S (the
transform's rounding error is relative to the whole signal, not to each sample); float64 / complex128
rtol 1e-9, atol 1e-11 S; float16 rtol 1e-2, atol 1e-2 S. bool inputs with the fft method are not
compared (SciPy casts the transform's rounding noise to bool).
"""
import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal_convolution")
rng = s.rng(20261202)


def make(shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(shape) > 0.5
    if dt.kind in "iu":
        lo, hi = (0, 6) if dt.kind == "u" else (-5, 6)
        return rng.integers(lo, hi, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


_stored = {}


def store_input(name, a, layout):
    """Stores the input in the form the test rebuilds with `layout` (once per array and layout)."""
    key = (a.tobytes(), a.dtype.str, a.shape, layout)
    if key in _stored:
        return _stored[key]
    _stored[key] = name
    if layout == "strided" and a.ndim >= 1:
        parent = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        parent[..., ::2] = a
        return s.array(name, parent)
    return s.array(name, a)


def tolerance(out, in1, in2, fft):
    dt = np.asarray(out).dtype
    if dt.kind in "iub":
        return 0.0, 0.0
    a1 = np.abs(np.asarray(in1, dtype=np.complex128))
    a2 = np.abs(np.asarray(in2, dtype=np.complex128))
    scale = max((a1.max() if a1.size else 0.0) * a2.sum(), 1.0)
    single_in = any(np.asarray(v).dtype in (np.float16, np.float32, np.complex64) for v in (in1, in2))
    if dt == np.float16:
        return 1e-2, 1e-2 * scale
    if dt in (np.float32, np.complex64) or (fft and single_in):
        # SciPy transforms each input in its own precision: a float32 input limits a float64 result
        return (1e-4, 1e-5 * scale) if fft else (2e-5, 2e-6 * scale)
    return 1e-9, 1e-11 * scale


def run(fn, *a, **k):
    try:
        return fn(*a, **k), None
    except ValueError:
        return None, "value_error"
    except IndexError:
        return None, "index_error"


# ----------------------------------------------------------------------------------- convolve / correlate
s.group("convolve")
n_case = 0


def add_conv(func, a, b, mode, method, layout1="C", layout2="C", fft_tol=None):
    global n_case
    name = f"{func}_{n_case}"
    n_case += 1
    f = getattr(ss, func)
    out, err = run(f, a, b, mode=mode, method=method)
    params = dict(in1=store_input(name + "_in1", a, layout1), in2=store_input(name + "_in2", b, layout2),
                  layout1=layout1, layout2=layout2, mode=mode, method=method)
    if err:
        s.case(name, func=func, error=err, **params)
        return
    is_fft = method == "fft" or (method == "auto" and ss.choose_conv_method(a, b, mode=mode) == "fft")
    rtol, atol = tolerance(out, a, b, is_fft if fft_tol is None else fft_tol)
    s.case(name, func=func, rtol=rtol, atol=atol, expected=s.array(name + "_expected", out), **params)


shapes_1d = [((1,), (1,)), ((5,), (3,)), ((3,), (5,)), ((17,), (4,)), ((64,), (7,)), ((40,), (40,)),
             ((1000,), (31,)), ((6,), (11,))]
shapes_nd = [((6, 5), (3, 2)), ((4, 7), (5, 2)), ((5, 6), (2, 3)), ((1, 1), (1, 1)), ((7, 3), (7, 3)),
             ((5, 4, 3), (2, 3, 2)), ((3, 4, 5), (3, 4, 5))]
for func in ("convolve", "correlate"):
    rng = s.rng(11)  # the same inputs for both functions (stored once)
    for dt in ("float64", "float32", "complex128", "complex64"):
        for sa, sb in shapes_1d + shapes_nd:
            if sa[0] >= 40 and dt != "float64":
                continue
            a, b = make(sa, dt), make(sb, dt)
            for mode in ("full", "same", "valid"):
                for method in ("direct", "fft", "auto"):
                    if dt in ("complex128", "float32") and method == "auto":
                        continue
                    add_conv(func, a, b, mode, method)
    # integer, bool, float16 and mixed dtypes (SciPy keeps integer results for every method)
    for d1, d2 in [("int8", "int8"), ("int32", "int32"), ("uint8", "int16"), ("int32", "float32"),
                   ("int64", "float64"), ("float32", "complex128"), ("bool", "bool"), ("float16", "float16")]:
        for sa, sb in [((9,), (4,)), ((4,), (9,)), ((5, 4), (2, 3))]:
            a, b = make(sa, d1), make(sb, d2)
            for mode in ("full", "same", "valid"):
                for method in ("direct", "fft"):
                    if d1 == "bool" and method == "fft":
                        continue  # SciPy casts the FFT's rounding noise to bool: not reproducible
                    add_conv(func, a, b, mode, method)
    # int8 wrap-around: the direct sum overflows exactly as NumPy's
    a = np.full(20, 100, np.int8)
    b = np.full(5, 3, np.int8)
    add_conv(func, a, b, "full", "direct")
    # layouts
    for l1, l2 in [("F", "C"), ("strided", "F"), ("strided", "strided")]:
        for sa, sb in [((6, 5), (3, 2)), ((5, 4, 3), (2, 3, 2))]:
            a, b = make(sa, "float64"), make(sb, "complex128")
            for method in ("direct", "fft"):
                add_conv(func, a, b, "same", method, l1, l2)
    # 0-d inputs: the product
    add_conv(func, np.array(2.5), np.array(1.5 - 2j), "full", "direct")
    # errors: dimensionality, valid mode with neither larger, empty (direct: value_error, fft: index_error)
    add_conv(func, make((5,), "float64"), make((3, 2), "float64"), "full", "direct")
    add_conv(func, make((5, 2), "float64"), make((3, 4), "float64"), "valid", "direct")
    add_conv(func, make((5, 2), "float64"), make((3, 4), "float64"), "valid", "fft")
    add_conv(func, make((0,), "float64"), make((3,), "float64"), "full", "direct")
    add_conv(func, make((0,), "float64"), make((3,), "float64"), "full", "fft")
    add_conv(func, make((0,), "float64"), make((3,), "float64"), "full", "auto")
    add_conv(func, make((4, 3), "bool"), make((2, 2), "bool"), "full", "direct")
    add_conv(func, make((4, 3), "float16"), make((2, 2), "float16"), "full", "direct")
# a long signal where method auto picks fft (and the overlap-save engine runs)
# A long signal where method auto picks fft and the overlap-save engine runs (interior blocks read in
# place, edge blocks gathered). The inputs are formulas the test evaluates (gen = "sincos"):
# in1[k] = sin(0.01 k), in2[k] = cos(0.02 k) / n2, float32; only expected[::stride] is stored.
n1, n2, stride = 131072, 1024, 101
k1, k2 = np.arange(n1), np.arange(n2)
long_a = np.sin(0.01 * k1).astype(np.float32)
long_b = (np.cos(0.02 * k2) / n2).astype(np.float32)
for func in ("convolve", "correlate", "fftconvolve", "oaconvolve"):
    for mode in ("full", "same", "valid"):
        if func in ("convolve", "correlate"):
            out = getattr(ss, func)(long_a, long_b, mode=mode, method="auto")
        else:
            out = getattr(ss, func)(long_a, long_b, mode=mode)
        name = f"{func}_long_{mode}"
        rtol, atol = tolerance(out, long_a, long_b, True)
        s.case(name, func=func, rtol=rtol, atol=atol, gen="sincos", n1=n1, n2=n2, stride=stride, mode=mode,
               method="auto", axes=None, expected=s.array(name + "_expected", out[::stride]))

# ----------------------------------------------------------------------------------- fftconvolve / oaconvolve
s.group("fftconvolve")


def add_fft(func, a, b, mode="full", axes=None, layout1="C", layout2="C"):
    global n_case
    name = f"{func}_{n_case}"
    n_case += 1
    f = getattr(ss, func)
    out, err = run(f, a, b, mode=mode, axes=axes)
    params = dict(in1=store_input(name + "_in1", a, layout1), in2=store_input(name + "_in2", b, layout2),
                  layout1=layout1, layout2=layout2, mode=mode, axes=None if axes is None else list(axes))
    if err:
        s.case(name, func=func, error=err, **params)
        return
    rtol, atol = tolerance(out, a, b, True)
    s.case(name, func=func, rtol=rtol, atol=atol, expected=s.array(name + "_expected", np.asarray(out)), **params)


for func in ("fftconvolve", "oaconvolve"):
    rng = s.rng(12)
    for dt in ("float32", "float64", "complex64", "complex128"):
        big = [((2500,), (100,)), ((100,), (2500,)), ((1100,), (1,)), ((2000,), (300,))]
        for sa, sb in [((1,), (1,)), ((7,), (3,)), ((3,), (8,)), ((33,), (33,)), ((6, 5), (3, 2)),
                       ((5, 4, 3), (2, 3, 2))] + (big if dt == "float32" else []):
            a, b = make(sa, dt), make(sb, dt)
            for mode in ("full", "same", "valid"):
                add_fft(func, a, b, mode)
    # axes: one axis with a 1-D filter (the overlap-save engine, several lines), along axis 0 and 1,
    # broadcast non-convolved axes, several axes, axes where an input has length 1
    cases = [((3, 1100), (1, 50), [1]), ((3, 1100), (1, 50), None), ((1100, 3), (40, 1), [0]),
             ((2, 1100, 2), (1, 45, 1), [1]), ((4, 1, 6), (1, 3, 5), [2]), ((5, 6, 7), (3, 6, 2), [0, 2]),
             ((5, 6, 7), (3, 1, 2), [0, 2]), ((8, 9), (3, 4), [-1]), ((8, 9), (8, 4), [1]), ((1, 9), (3, 4), [0, 1])]
    for sa, sb, axes in cases:
        a, b = make(sa, "float32"), make(sb, "float32")
        for mode in ("full", "same", "valid"):
            add_fft(func, a, b, mode, axes)
    a, b = make((2, 1100), "float64"), make((1, 44), "float64")
    add_fft(func, a, b, "same", [1], "F", "C")
    add_fft(func, a, b, "same", [1], "strided", "strided")
    a, b = make((1200, 3), "complex64"), make((33, 1), "complex64")
    add_fft(func, a, b, "valid", [0], "F", "C")
    # dtypes: integers and bool compute in float64, float16 in float32, mixed precision in double
    for d1, d2 in [("int32", "int32"), ("int8", "float32"), ("bool", "bool"), ("float16", "float16"),
                   ("float32", "float64"), ("float32", "complex64"), ("float32", "complex128")]:
        for sa, sb in [((30,), (7,)), ((1200,), (20,))]:
            add_fft(func, make(sa, d1), make(sb, d2), "same")
    add_fft(func, make((0,), "float64"), make((3,), "float64"))
    add_fft(func, make((4, 0), "float32"), make((3, 2), "float32"))
    add_fft(func, np.array(3.0), np.array(-2.0))
    # errors
    add_fft(func, make((5,), "float64"), make((3, 2), "float64"))
    add_fft(func, make((5, 4), "float64"), make((3, 2), "float64"), axes=[])
    add_fft(func, make((5, 4), "float64"), make((3, 2), "float64"), axes=[2])
    add_fft(func, make((5, 4), "float64"), make((3, 2), "float64"), axes=[-3])
    add_fft(func, make((5, 4), "float64"), make((3, 2), "float64"), axes=[0, -2])
    add_fft(func, make((5, 4), "float64"), make((3, 2), "float64"), axes=[0])
    add_fft(func, make((5, 2), "float64"), make((3, 4), "float64"), mode="valid")

# ----------------------------------------------------------------------------------- convolve2d / correlate2d
s.group("convolve2d")


def add_2d(func, a, b, mode, boundary, fill=0.0, layout1="C", layout2="C"):
    global n_case
    name = f"{func}_{n_case}"
    n_case += 1
    f = getattr(ss, func)
    out, err = run(f, a, b, mode=mode, boundary=boundary, fillvalue=fill)
    params = dict(in1=store_input(name + "_in1", a, layout1), in2=store_input(name + "_in2", b, layout2),
                  layout1=layout1, layout2=layout2, mode=mode, boundary=boundary,
                  fillvalue=[float(np.real(fill)), float(np.imag(fill))])
    if err:
        s.case(name, func=func, error=err, **params)
        return
    rtol, atol = tolerance(out, a, b, False)
    if np.asarray(out).dtype.kind in "fc":
        atol += rtol * abs(fill) * np.abs(np.asarray(b, dtype=np.complex128)).sum()
    s.case(name, func=func, rtol=rtol, atol=atol, expected=s.array(name + "_expected", out), **params)


for func in ("convolve2d", "correlate2d"):
    rng = s.rng(13)
    for dt in ("float32", "float64", "complex64", "complex128", "int32"):
        big = [((64, 40), (15, 15)), ((70, 33), (4, 3)), ((66, 36), (20, 3))]
        for sa, sb in [((1, 1), (1, 1)), ((7, 5), (3, 3)), ((5, 6), (7, 2)), ((3, 4), (7, 9))] + (
                big if dt == "float32" else big[:1] if dt == "int32" else []):
            a, b = make(sa, dt), make(sb, dt)
            for mode in ("full", "same", "valid"):
                for boundary in ("fill", "wrap", "symm"):
                    fill = 0.0 if boundary != "fill" else (1.5 if dt != "int32" else 2.0)
                    if sa[0] > 60 and (dt != "float32" or boundary != "fill") and (boundary != "fill" or mode != "same") \
                            and not (dt == "float32" and mode == "same"):
                        continue
                    add_2d(func, a, b, mode, boundary, fill)
    # a kernel too large for the shared-memory tile (complex64, 40 x 41: 59 KB): the simple kernel
    big_a, big_b = make((20, 24), "complex64"), make((40, 41), "complex64")
    add_2d(func, big_a, big_b, "same", "symm")
    add_2d(func, big_a, big_b, "same", "fill", 0.5 - 1j)
    # mixed and small integer dtypes, complex fill
    add_2d(func, make((9, 8), "int8"), make((3, 2), "uint8"), "full", "fill", 3.0)
    add_2d(func, make((9, 8), "float32"), make((3, 2), "int64"), "same", "symm")
    add_2d(func, make((9, 8), "complex64"), make((3, 2), "float32"), "full", "fill", 1.0 + 2.0j)
    # layouts
    for l1, l2 in [("F", "C"), ("strided", "F"), ("strided", "strided")]:
        add_2d(func, make((40, 50), "float32"), make((5, 7), "float32"), "same", "symm", 0.0, l1, l2)
        add_2d(func, make((11, 9), "complex128"), make((3, 4), "complex128"), "full", "wrap", 0.0, l1, l2)
    # empty inputs with fill: SciPy fills or sums nothing
    add_2d(func, make((0, 2), "float64"), make((3, 2), "float64"), "full", "fill", 2.0)
    add_2d(func, make((4, 2), "float64"), make((0, 2), "float64"), "full", "fill", 2.0)
    # errors
    add_2d(func, make((5,), "float64"), make((3,), "float64"), "full", "fill")
    add_2d(func, make((5, 2), "float64"), make((3, 4), "float64"), "valid", "fill")
    add_2d(func, make((5, 4), "bool"), make((3, 2), "bool"), "full", "fill")
    add_2d(func, make((5, 4), "float16"), make((3, 2), "float16"), "full", "fill")
    add_2d(func, make((5, 4), "float64"), make((3, 2), "float64"), "full", "fill", 1j)

# ----------------------------------------------------------------------------------- choose_conv_method
s.group("choose")
k = 0
for sa, sb in [((2 ** 20,), (4096,)), ((100,), (5,)), ((1000,), (1000,)), ((2 ** 16,), (8,)), ((4096, 4096), (15, 15)),
               ((64, 64), (3, 3)), ((300, 300), (40, 40)), ((20, 20, 20), (5, 5, 5)), ((10,), (3000,))]:
    for mode in ("full", "same", "valid"):
        for dt in ("float32", "complex128"):
            a = np.lib.stride_tricks.as_strided(np.zeros(1, dt), shape=sa, strides=(0,) * len(sa))
            b = np.lib.stride_tricks.as_strided(np.zeros(1, dt), shape=sb, strides=(0,) * len(sb))
            s.case(f"choose_{k}", func="choose_conv_method", shape1=list(sa), shape2=list(sb), dtype1=dt, dtype2=dt,
                   mode=mode, expected=ss.choose_conv_method(a, b, mode=mode))
            k += 1
for vals1, vals2 in [(2 ** 26, 2 ** 26), (3, 4), (2 ** 40, 5)]:
    a = np.full(2000, vals1, np.int64)
    b = np.full(100, vals2, np.int64)
    s.case(f"choose_{k}", func="choose_conv_method", in1=s.array(f"choose_{k}_in1", a), in2=s.array(f"choose_{k}_in2", b),
           mode="full", expected=ss.choose_conv_method(a, b, mode="full"))
    k += 1
a = rng.random(5000) > 0.5
s.case(f"choose_{k}", func="choose_conv_method", in1=s.array(f"choose_{k}_in1", a), in2=s.array(f"choose_{k}_in2", a[:300]),
       mode="full", expected=ss.choose_conv_method(a, a[:300], mode="full"))

# ----------------------------------------------------------------------------------- correlation_lags
s.group("lags")
k = 0
for n1, n2 in [(1, 1), (5, 3), (3, 5), (6, 4), (4, 6), (7, 7), (8, 1), (1, 8), (10, 3)]:
    for mode in ("full", "same", "valid"):
        s.case(f"lags_{k}", func="correlation_lags", in1_len=n1, in2_len=n2, mode=mode,
               expected=s.array(f"lags_{k}", ss.correlation_lags(n1, n2, mode).astype(np.int64)))
        k += 1

# ----------------------------------------------------------------------------------- deconvolve
s.group("deconvolve")
k = 0
for sig, div in [(make((10,), "float64"), np.array([1.0, 0.5, 0.25])), (make((8,), "float32"), np.array([2.0, -1.0], np.float32)),
                 (make((12,), "complex128"), make((4,), "complex128")), (make((6,), "int32"), np.array([1, 2], np.int32)),
                 (make((5,), "float64"), np.array([3.0])), (make((5,), "float64"), make((5,), "float64") + 3.0)]:
    q, r = ss.deconvolve(sig, div)
    dt = np.result_type(np.asarray(q), np.asarray(r))
    tol = 1e-9 * max(1.0, float(np.abs(sig).max()))
    s.case(f"deconvolve_{k}", func="deconvolve", rtol=1e-9, atol=tol, signal=s.array(f"deconvolve_{k}_signal", sig),
           divisor=s.array(f"deconvolve_{k}_divisor", div), quotient=s.array(f"deconvolve_{k}_q", np.asarray(q)),
           remainder=s.array(f"deconvolve_{k}_r", np.asarray(r)))
    k += 1
sig = make((3,), "float64")
q, r = ss.deconvolve(sig, make((5,), "float64"))
s.case(f"deconvolve_{k}", func="deconvolve", signal=s.array(f"deconvolve_{k}_signal", sig),
       divisor=s.array(f"deconvolve_{k}_divisor", make((5,), "float64")),
       quotient=s.array(f"deconvolve_{k}_q", np.zeros(0)), remainder=s.array(f"deconvolve_{k}_r", np.asarray(r)))
k += 1
for sig, div in [(make((3, 2), "float64"), make((2,), "float64")), (make((4,), "float64"), make((0,), "float64"))]:
    s.case(f"deconvolve_{k}", func="deconvolve", error="value_error", signal=s.array(f"deconvolve_{k}_signal", sig),
           divisor=s.array(f"deconvolve_{k}_divisor", div))
    k += 1

s.write()
