"""Reference data for cusci::signal's multirate family (upfirdn, resample_poly, resample, decimate), from
SciPy 1.18.1 (format and shared code: golden.py). Seeded; run at build time into <out>/signal_multirate/.

Cases (func, then its parameters; arrays are named <case>_<what>). Every case may carry error = the cusci
exception SciPy's exception maps to (the generator checks that SciPy raises); the test then runs the same
call and expects that exception.
  upfirdn        h (array), x (array), up, down, axis, mode, cval, layout; expected.
  resample_poly  x, up, down, axis, window (name or null), window_args [list], window_beta (a bare
                 Kaiser beta, or null), window_taps (array name or null), padtype, cval (null: not
                 given), layout; expected.
  resample       x, num, axis, window / window_args / window_beta / window_taps (null: no window),
                 domain, t (array or null), layout; expected, expected_t (when t is given).
  decimate       x, q, n (null: default), ftype, axis, zero_phase, layout; expected.
layout: C | F (the test makes an F-ordered copy) | strided (x holds the parent, the input is x[..., ::2]).
Tolerances: relative 1e-5 (float32 / complex64) or 1e-11 (float64 / complex128) of max|expected| (the
polyphase sums run in another order than SciPy's loop; the FFTs are cuFFT's).
"""
import numpy as np
import scipy.signal as ss

from golden import Suite

s = Suite("signal_multirate")
rng = s.rng(20261202)

EXC = {ValueError: "value_error", IndexError: "index_error", TypeError: "type_error",
       ZeroDivisionError: "value_error", NotImplementedError: "not_implemented_error"}


def make_x(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def input_of(case, shape, dtype, layout):
    """The input x and the name of the stored array the test rebuilds it from."""
    if layout == "strided":
        pshape = list(shape)
        pshape[-1] *= 2
        parent = make_x(tuple(pshape), dtype)
        return parent[..., ::2], s.array(f"{case}_x", parent)
    x = make_x(shape, dtype)
    return x, s.array(f"{case}_x", x)


def tol(y, x=None):
    """Relative 1e-5 of max|y| when y or the input x is single precision (SciPy's FFTs of complex64 data
    are single precision even where a float64 window promotes the result), else 1e-11."""
    y = np.asarray(y)
    m = float(np.max(np.abs(y))) if y.size else 1.0
    if not np.isfinite(m):
        m = 1.0
    single = (np.float16, np.float32, np.complex64)
    r = 1e-5 if (y.dtype in single or (x is not None and np.asarray(x).dtype in single)) else 1e-11
    return r, r * max(m, 1.0)


def run(name, func, call, **params):
    """Adds case `name`: SciPy's result of call(), or the mapped exception when SciPy raises."""
    try:
        out = call()
    except tuple(EXC) as e:
        kind = "index_error" if isinstance(e, (np.exceptions.AxisError, IndexError)) else \
            next(v for k, v in EXC.items() if isinstance(e, k))
        s.case(name, func=func, error=kind, **params)
        return None
    return out


def window_params(win):
    if win is None:
        return dict(window=None, window_args=[], window_beta=None, window_taps=None)
    if isinstance(win, str):
        return dict(window=win, window_args=[], window_beta=None, window_taps=None)
    if isinstance(win, float):
        return dict(window=None, window_args=[], window_beta=win, window_taps=None)
    return dict(window=win[0], window_args=[float(a) for a in win[1:]], window_beta=None, window_taps=None)


# --------------------------------------------------------------------------------------------- upfirdn
s.group("upfirdn")
ui = 0
MODES = ["constant", "symmetric", "reflect", "edge", "wrap", "smooth", "antisymmetric", "antireflect", "line"]


def add_upfirdn(h, shape, dtype, up, down, axis=-1, mode="constant", cval=0.0, layout="C", x=None):
    global ui
    case = f"ufd{ui:03d}"
    ui += 1
    if x is None:
        x, xname = input_of(case, shape, dtype, layout)
    else:
        xname = s.array(f"{case}_x", x)
    h = np.asarray(h)
    params = dict(h=s.array(f"{case}_h", h), x=xname, up=up, down=down, axis=axis, mode=mode, cval=cval,
                  layout=layout)
    y = run(case, "upfirdn", lambda: ss.upfirdn(h, x, up, down, axis=axis, mode=mode, cval=cval), **params)
    if y is not None:
        rt, at = tol(y)
        s.case(case, func="upfirdn", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


h61 = ss.firwin(61, 1 / 3, window=("kaiser", 5.0)) * 2
for dt in (np.float32, np.float64, np.complex64, np.complex128):
    for hdt in (np.float32, np.float64):
        add_upfirdn(h61.astype(hdt), (1000,), dt, 2, 3)
    add_upfirdn(h61, (3, 257), dt, 3, 2, axis=1)
# sizes, ratios and filter lengths
for L in (1, 2, 7, 50, 4099):
    for (up, down) in ((1, 1), (2, 3), (3, 2), (1, 4), (4, 1), (5, 7)):
        for hl in (1, 3, 8, 61):
            if L == 4099 and hl != 61:
                continue
            add_upfirdn(rng.standard_normal(hl).astype(np.float32), (L,), np.float32, up, down)
add_upfirdn(rng.standard_normal(2001), (20000,), np.float32, 1, 100)  # long filter, large down
add_upfirdn(rng.standard_normal(3201), (700,), np.float64, 160, 147)  # large ratio
add_upfirdn(rng.standard_normal(9), (300,), np.float32, 40, 1)
add_upfirdn(rng.standard_normal(40), (33,), np.float64, 1, 37)  # down > len
add_upfirdn([1.0 + 0.5j, -0.25j, 0.3], (41,), np.float32, 2, 1)  # complex h, real x
add_upfirdn([1, 2, 3], (41,), np.int16, 2, 1)  # integer h and x -> float64
add_upfirdn(np.float32([1, 2, 3]), (41,), np.int16, 2, 1)  # float32 h, int16 x -> float32
add_upfirdn([0.5, 1.0, 0.5], (0,), np.float64, 2, 3)  # empty axis, constant
add_upfirdn([0.5, 1.0, 0.5, 0.2], (0,), np.float64, 3, 1, cval=1.5)
add_upfirdn([0.5, 1.0, 0.5], (4, 0), np.float32, 2, 3, axis=0)
add_upfirdn([0.5, 1.0, 0.5], (0, 5), np.float32, 2, 3, axis=-1)
# every mode, with several lengths and ratios (cval for constant)
for mode in MODES:
    for (L, up, down, hl) in ((2, 1, 1, 5), (5, 2, 3, 16), (9, 3, 1, 30), (33, 1, 2, 61), (200, 2, 3, 64),
                              (3, 4, 3, 40)):
        h = rng.standard_normal(hl)
        add_upfirdn(h, (L,), np.float64, up, down, mode=mode, cval=(1.25 if mode == "constant" else 0.0))
    add_upfirdn(rng.standard_normal(24).astype(np.float32), (3, 77), np.float32, 2, 3, axis=-1, mode=mode)
    add_upfirdn(rng.standard_normal(24), (4, 60), np.complex128, 3, 2, axis=-1, mode=mode)
    add_upfirdn(rng.standard_normal(7), (1,), np.float64, 2, 1, mode=mode) if mode not in (
        "reflect", "antireflect", "smooth") else None
# N-D, axes, layouts
for layout in ("C", "F", "strided"):
    for axis in (0, 1, -1):
        add_upfirdn(h61, (20, 30), np.float32, 2, 3, axis=axis, layout=layout)
    add_upfirdn(rng.standard_normal(12), (3, 4, 25), np.float64, 3, 2, axis=1, layout=layout, mode="reflect")
    add_upfirdn(rng.standard_normal(12), (3, 4, 25), np.complex64, 1, 3, axis=0, layout=layout, mode="wrap")
# errors (SciPy raises; checked above)
xe = rng.standard_normal(10)
add_upfirdn(np.ones((2, 3)), None, None, 1, 1, x=xe)  # h 2-D
add_upfirdn(np.zeros(0), None, None, 1, 1, x=xe)  # h empty
add_upfirdn([1.0, 2.0], None, None, 0, 1, x=xe)  # up 0
add_upfirdn([1.0, 2.0], None, None, 1, -2, x=xe)  # down < 1
add_upfirdn([1.0, 2.0], None, None, 1, 1, axis=1, x=xe)  # axis out of range
add_upfirdn([1.0, 2.0], None, None, 1, 1, axis=-3, x=rng.standard_normal((3, 4)))
add_upfirdn([1.0, 2.0], None, None, 1, 1, x=np.float64(2.0))  # 0-d x

# ------------------------------------------------------------------------------------------ resample_poly
s.group("resample_poly")
ri = 0


def add_rp(shape, dtype, up, down, axis=0, window=("kaiser", 5.0), taps=None, padtype="constant", cval=None,
           layout="C", x=None):
    global ri
    case = f"rp{ri:03d}"
    ri += 1
    if x is None:
        x, xname = input_of(case, shape, dtype, layout)
    else:
        xname = s.array(f"{case}_x", x)
    wp = window_params(window)
    w = window
    if taps is not None:
        wp = dict(window=None, window_args=[], window_beta=None, window_taps=s.array(f"{case}_taps", taps))
        w = taps
    params = dict(x=xname, up=up, down=down, axis=axis, padtype=padtype, cval=cval, layout=layout, **wp)
    y = run(case, "resample_poly",
            lambda: ss.resample_poly(x, up, down, axis=axis, window=w, padtype=padtype, cval=cval), **params)
    if y is not None:
        rt, at = tol(y)
        s.case(case, func="resample_poly", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for dt in (np.float32, np.float64, np.complex64, np.complex128, np.int32):
    add_rp((1000,), dt, 2, 3)
    add_rp((301,), dt, 3, 2)
for (up, down) in ((1, 1), (4, 4), (6, 4), (1, 5), (7, 3), (10, 1), (160, 147), (1, 13), (13, 1)):
    add_rp((257,), np.float32, up, down)
    add_rp((256,), np.float64, up, down)
for L in (1, 2, 3, 37, 6000):
    add_rp((L,), np.float32, 2, 3)
    add_rp((L,), np.float64, 5, 2)
for win in ("hamming", ("kaiser", 8.0), 6.0, "hann", ("tukey", 0.3)):
    add_rp((200,), np.float64, 3, 4, window=win)
add_rp((200,), np.float64, 3, 4, taps=ss.firwin(31, 0.2))
add_rp((200,), np.float64, 3, 4, taps=ss.firwin(20, 0.2))
add_rp((200,), np.float32, 2, 1, taps=ss.firwin(41, 0.4).astype(np.float32))
add_rp((200,), np.float32, 1, 3, taps=np.float32([0.25, 0.5, 0.25]))
add_rp((50,), np.float64, 2, 3, taps=np.array([1.0]))
for pt in MODES + ["mean", "median", "maximum", "minimum"]:
    add_rp((101,), np.float64, 3, 2, padtype=pt)
    add_rp((4, 64), np.float32, 2, 5, axis=1, padtype=pt)
    if pt not in ("median",):
        add_rp((40,), np.complex128, 3, 1, padtype=pt)
add_rp((64,), np.float64, 3, 2, padtype="median")  # even length median
add_rp((101,), np.float64, 3, 2, padtype="constant", cval=2.5)
add_rp((101,), np.int32, 3, 2, padtype="maximum")
for layout in ("C", "F", "strided"):
    for axis in (0, 1, -1):
        add_rp((40, 30), np.float32, 2, 3, axis=axis, layout=layout)
    add_rp((3, 20, 9), np.float64, 5, 3, axis=1, layout=layout, padtype="line")
add_rp((0,), np.float64, 2, 3)
add_rp((3, 0), np.float32, 2, 3, axis=1)
# errors
xe = rng.standard_normal(30)
add_rp(None, None, 0, 2, x=xe)
add_rp(None, None, 2, -1, x=xe)
add_rp(None, None, 2, 3, padtype="mean", cval=1.0, x=xe)
add_rp(None, None, 2, 3, taps=np.ones((2, 3)), x=xe)
add_rp(None, None, 2, 3, taps=np.zeros(0), x=xe)
add_rp(None, None, 2, 3, window="nosuchwindow", x=xe)
add_rp(None, None, 2, 3, axis=2, x=rng.standard_normal((4, 5)))
add_rp(None, None, 2, 3, x=np.float64(1.0))

# ------------------------------------------------------------------------------------------------ resample
s.group("resample")
si = 0


def add_rs(shape, dtype, num, axis=0, window=None, taps=None, domain="time", t=None, layout="C", x=None):
    global si
    case = f"rs{si:03d}"
    si += 1
    if x is None:
        x, xname = input_of(case, shape, dtype, layout)
    else:
        xname = s.array(f"{case}_x", x)
    wp = window_params(window)
    w = window
    if taps is not None:
        wp = dict(window=None, window_args=[], window_beta=None, window_taps=s.array(f"{case}_taps", taps))
        w = taps
    params = dict(x=xname, num=num, axis=axis, domain=domain, layout=layout,
                  t=(s.array(f"{case}_t", t) if t is not None else None), **wp)
    out = run(case, "resample", lambda: ss.resample(x, num, t=t, axis=axis, window=w, domain=domain), **params)
    if out is None:
        return
    if t is not None:
        y, tr = out
        params["expected_t"] = s.array(f"{case}_tr", tr)
    else:
        y = out
    rt, at = tol(y, x)
    s.case(case, func="resample", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for dt in (np.float32, np.float64, np.complex64, np.complex128, np.int16):
    for (n, num) in ((64, 96), (64, 40), (63, 100), (63, 41), (100, 100), (10, 7), (7, 10), (8, 3), (3, 8), (1, 5),
                     (5, 1), (2, 2)):
        add_rs((n,), dt, num)
for win in ("hann", ("kaiser", 3.0), "boxcar"):
    for (n, num) in ((64, 96), (63, 41), (50, 50)):
        add_rs((n,), np.float64, num, window=win)
        add_rs((n,), np.complex64, num, window=win)
        add_rs((n,), np.float32, num, window=win)
add_rs((40,), np.float64, 60, taps=rng.random(40))
add_rs((41,), np.float32, 30, taps=rng.random(41).astype(np.float32))
add_rs((40,), np.complex128, 60, taps=rng.random(40))
for dt in (np.complex128, np.float64, np.complex64):
    add_rs((48,), dt, 80, domain="freq")
    add_rs((48,), dt, 30, domain="freq")
add_rs((47,), np.complex128, 30, domain="freq", window="hann")
add_rs((30,), np.float64, 45, t=np.linspace(0.5, 3.0, 30))
add_rs((30,), np.float32, 20, t=np.linspace(0.5, 3.0, 30).astype(np.float32))
add_rs((30,), np.float64, 20, t=np.arange(30, dtype=np.int64) * 3)
for layout in ("C", "F", "strided"):
    for axis in (0, 1, -1):
        add_rs((24, 30), np.float32, 17, axis=axis, layout=layout)
    add_rs((3, 20, 9), np.complex128, 33, axis=1, layout=layout)
add_rs((2 ** 15,), np.float32, 2 ** 15 * 2 // 3)
add_rs((1000,), np.float64, 1, axis=-1)
# errors
xe = rng.standard_normal(16)
add_rs(None, None, 0, x=xe)
add_rs(None, None, -3, x=xe)
add_rs(None, None, 8, taps=np.ones(15), x=xe)
add_rs(None, None, 8, t=np.array([1.0]), x=xe)
add_rs(None, None, 8, axis=2, x=rng.standard_normal((4, 5)))
add_rs(None, None, 8, x=np.float64(1.0))

# ------------------------------------------------------------------------------------------------ decimate
s.group("decimate")
di = 0


def add_dec(shape, dtype, q, n=None, ftype="iir", axis=-1, zero_phase=True, layout="C", x=None):
    global di
    case = f"dec{di:03d}"
    di += 1
    if x is None:
        x, xname = input_of(case, shape, dtype, layout)
    else:
        xname = s.array(f"{case}_x", x)
    params = dict(x=xname, q=q, n=n, ftype=ftype, axis=axis, zero_phase=zero_phase, layout=layout)
    y = run(case, "decimate", lambda: ss.decimate(x, q, n=n, ftype=ftype, axis=axis, zero_phase=zero_phase),
            **params)
    if y is not None:
        rt, at = tol(y)
        if y.dtype in (np.float32, np.complex64):
            rt, at = 2e-3, 2e-4 * max(float(np.max(np.abs(y))) if y.size else 1.0, 1.0)
        else:  # the IIR recursions (chunked scans) sum in another order than SciPy's loop
            rt, at = 1e-9, 1e-10 * max(float(np.max(np.abs(y))) if y.size else 1.0, 1.0)
        s.case(case, func="decimate", rtol=rt, atol=at, expected=s.array(f"{case}_y", y), **params)


for dt in (np.float32, np.float64, np.complex128, np.int32):
    for ftype in ("iir", "fir"):
        for zp in (True, False):
            add_dec((500,), dt, 4, ftype=ftype, zero_phase=zp)
for q in (2, 3, 5, 13):
    for ftype in ("iir", "fir"):
        add_dec((1001,), np.float64, q, ftype=ftype)
add_dec((400,), np.float64, 3, n=4)
add_dec((400,), np.float64, 3, n=30, ftype="fir")
add_dec((400,), np.float64, 1, ftype="iir")
for layout in ("C", "F", "strided"):
    add_dec((6, 200), np.float32, 3, axis=1, layout=layout)
    add_dec((200, 5), np.float64, 4, axis=0, layout=layout, ftype="fir")
    add_dec((200, 5), np.float64, 2, axis=0, layout=layout, zero_phase=False)
# errors
xe = rng.standard_normal(100)
add_dec(None, None, 0, x=xe)
add_dec(None, None, 3, n=-1, x=xe)
add_dec(None, None, 1, ftype="fir", x=xe)
add_dec(None, None, 3, x=rng.standard_normal(20))  # shorter than sosfiltfilt's padding
add_dec(None, None, 3, axis=3, x=rng.standard_normal((4, 50)))

# ------------------------------------------------------------------------------ cheby1 / cheby2 (host design)
s.group("cheby")
cheby_cases = [
    ("cheby1", 8, 0.05, [0.2], "low", False, "sos", None),
    ("cheby1", 8, 0.05, [0.8 / 3], "low", False, "sos", None),
    ("cheby1", 8, 0.05, [0.8 / 13], "low", False, "ba", None),
    ("cheby1", 5, 1.0, [0.3], "high", False, "zpk", None),
    ("cheby1", 4, 0.5, [0.2, 0.5], "bandpass", False, "sos", None),
    ("cheby1", 3, 2.0, [0.2, 0.5], "bandstop", False, "ba", None),
    ("cheby1", 4, 1.0, [2.0], "low", True, "zpk", None),
    ("cheby1", 3, 1.0, [1.0, 3.0], "bandpass", True, "ba", None),
    ("cheby1", 0, 1.0, [0.3], "low", False, "ba", None),
    ("cheby1", 1, 3.0, [0.3], "low", False, "zpk", None),
    ("cheby1", 6, 0.1, [1000.0], "lp", False, "sos", 8000.0),
    ("cheby1", 4, 0.5, [50.0, 200.0], "bp", False, "zpk", 1000.0),
    ("cheby2", 6, 40.0, [0.3], "low", False, "sos", None),
    ("cheby2", 5, 30.0, [0.3], "high", False, "ba", None),
    ("cheby2", 4, 50.0, [0.2, 0.6], "bandpass", False, "sos", None),
    ("cheby2", 3, 20.0, [0.2, 0.6], "bandstop", False, "zpk", None),
    ("cheby2", 4, 30.0, [2.0], "low", True, "zpk", None),
    ("cheby2", 0, 30.0, [0.4], "low", False, "ba", None),
    # errors
    ("cheby1", 4, -1.0, [0.3], "low", False, "ba", None),
    ("cheby2", 4, -1.0, [0.3], "low", False, "ba", None),
    ("cheby1", -1, 1.0, [0.3], "low", False, "ba", None),
    ("cheby1", 4, 1.0, [1.0], "low", False, "ba", None),
    ("cheby1", 4, 1.0, [0.0], "low", False, "ba", None),
    ("cheby1", 4, 1.0, [0.5, 0.2], "bandpass", False, "ba", None),
    ("cheby1", 4, 1.0, [0.2, 0.5], "low", False, "ba", None),
    ("cheby1", 4, 1.0, [0.2], "bandpass", False, "ba", None),
    ("cheby1", 4, 1.0, [600.0], "low", False, "ba", 1000.0),
    ("cheby1", 4, 1.0, [60.0], "low", True, "ba", 1000.0),
]
for i, (fn, N, r, Wn, bt, an, out, fs) in enumerate(cheby_cases):
    case = f"cheb{i:02d}"
    f = getattr(ss, fn)
    params = dict(N=N, r=r, Wn=Wn, btype=bt, analog=an, output=out, fs=fs)
    res = run(case, fn, lambda: f(N, r, Wn if len(Wn) > 1 else Wn[0], btype=bt, analog=an, output=out, fs=fs),
              **params)
    if res is None:
        continue
    if out == "ba":
        params.update(b=s.array(f"{case}_b", res[0]), a=s.array(f"{case}_a", res[1]))
    elif out == "zpk":
        params.update(z=s.array(f"{case}_z", res[0]), p=s.array(f"{case}_p", res[1]), k=float(res[2]))
    else:
        params.update(sos=s.array(f"{case}_sos", res))
    s.case(case, func=fn, rtol=1e-10, atol=1e-13, **params)

s.write()
