"""Reference data for cusci::signal's smoothing family, from SciPy 1.18.1 (format and shared code:
golden.py). Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_smoothing/.

Cases (func, then its parameters; arrays are named <case>_<what>). Every input array `x` is stored
C-ordered; `layout` says how the test presents it: C, F (a Fortran-ordered copy) or strided (x holds
the parent, the input is x[..., ::2]).
  medfilt       x, layout, kernel_size (null | int | list); expected.
  medfilt2d     x, layout, kernel_size (null: the default 3 | int | list); expected.
  order_filter  x, layout, domain (array), rank, domain_on_device (bool); expected.
  wiener        x, layout, mysize (null | int | list), noise (null | float); expected.
  savgol_coeffs window_length, polyorder, deriv, delta, pos (null | float), use (string); expected.
  savgol_filter x, layout, window_length, polyorder, deriv, delta, axis, mode (string), cval; expected.
  whittaker_henderson  x, lamb ("reml" or a float, or a string to reject), order, weights (null |
                array); expected, expected_lamb, lamb_rtol.
Error cases carry the same parameters (no expected) and `error`, the cusci exception; SciPy is called
on them too and must raise, except the cases marked deviation=True (SciPy accepts them, cusci refuses:
see docs/signal-smoothing.md).
Tolerances: float64 results 1e-10 of their scale (savgol_coeffs 1e-10; the REML cases 1e-5, the
optimiser's own precision); float32 results 1e-4 of their scale (cusci's float32 convolution runs in
float32 with fused multiply-adds, and SciPy fits the interp edges in float32); integer and median
results exactly.
"""
import warnings

import numpy as np
import scipy.signal as ss

from golden import Suite

warnings.simplefilter("ignore")
s = Suite("signal_smoothing")
rng = s.rng(20261202)


def make_x(shape, dtype, kind="normal"):
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    if np.issubdtype(dt, np.unsignedinteger):
        return rng.integers(0, 200, size=shape).astype(dt)
    if np.issubdtype(dt, np.integer):
        return rng.integers(-100, 100, size=shape).astype(dt)
    if np.issubdtype(dt, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if kind == "smooth":
        t = np.linspace(0, 6 * np.pi, shape[-1] if len(shape) else 1)
        return (np.sin(t) + 0.2 * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def input_of(case, shape, dtype, layout, kind="normal"):
    """The input x as the test will see it, and the stored array it is rebuilt from."""
    if layout == "strided":
        pshape = list(shape)
        pshape[-1] *= 2
        parent = make_x(tuple(pshape), dtype, kind)
        return parent[..., ::2], s.array(f"{case}_x", parent)
    x = make_x(shape, dtype, kind)
    stored = s.array(f"{case}_x", x)
    if layout == "F":
        x = np.asfortranarray(x)
    return x, stored


def tol_of(y, dt=None):
    dt = np.dtype(dt if dt is not None else y.dtype)
    m = float(np.max(np.abs(y))) if y.size and np.all(np.isfinite(y)) else 1.0
    m = max(m, 1.0)
    if dt.kind in "iub":
        return 0.0, 0.0
    if dt == np.float32:
        return 1e-4, 1e-4 * m
    return 1e-10, 1e-10 * m


def raises(f):
    try:
        f()
    except Exception:
        return True
    return False


def error_case(name, func, err, scipy_call, deviation=False, **params):
    if not deviation and not raises(scipy_call):
        raise AssertionError(f"{name}: SciPy did not raise")
    s.case(name, func=func, error=err, deviation=deviation, **params)


def ks_param(k):
    if k is None or isinstance(k, int):
        return k
    return [int(v) for v in k]


# ---------------------------------------------------------------------------------------------- medfilt
s.group("medfilt")
n_med = 0


def add_medfilt(shape, dtype, k, layout="C", nan=False):
    global n_med
    case = f"medfilt{n_med:03d}"
    n_med += 1
    x, xname = input_of(case, shape, dtype, layout)
    if nan:
        parent = np.array(s._groups[s._group][xname])
        flat = parent.reshape(-1)
        flat[rng.integers(0, flat.size, size=max(1, flat.size // 50))] = np.nan
        s._groups[s._group][xname] = parent
        x = parent[..., ::2] if layout == "strided" else parent
    y = ss.medfilt(x, k) if k is not None else ss.medfilt(x)
    rt, at = tol_of(y, np.int64)  # medians are exact
    s.case(case, func="medfilt", rtol=rt, atol=at, x=xname, layout=layout, kernel_size=ks_param(k),
           expected=s.array(f"{case}_y", y))


# the 1-D kernel: every window, tile edges, lengths shorter than the window, layouts
for dt in (np.float32, np.float64):
    for k in (3, 5, 11, 25):
        for n in ((1, 2, 7, 1025, 2100) if k in (3, 11) else (1, 7, 1024)):
            add_medfilt((n,), dt, k)
    for k in (7, 9, 13, 15, 17, 19, 21, 23):
        add_medfilt((777,), dt, k)
    add_medfilt((0,), dt, 5)
    add_medfilt((600,), dt, 11, layout="strided")
    add_medfilt((600,), dt, None)
    add_medfilt((600,), dt, [11])
    add_medfilt((300,), dt, 27)        # beyond the 1-D kernel: ndimage's path
    add_medfilt((300,), dt, 1)
    add_medfilt((2000,), dt, 11, nan=True)  # NaN: the ndimage fallback replays SciPy's order
    add_medfilt((2000,), dt, 3, nan=True)
# integer 1-D (ndimage's 1-D path), N-D
for dt in (np.int16, np.uint8, np.int64, np.uint16, np.int32):
    add_medfilt((500,), dt, 7)
for dt in (np.float32, np.float64, np.int32, np.uint8):
    add_medfilt((20, 31), dt, 3)
    add_medfilt((20, 31), dt, [5, 3], layout="F")
    add_medfilt((20, 31), dt, [1, 7], layout="strided")
add_medfilt((6, 7, 8), np.float32, [3, 5, 3])
add_medfilt((6, 7, 8), np.float64, None)
add_medfilt((4, 5), np.float32, [9, 11])  # kernel larger than the array
add_medfilt((), np.float64, None)         # 0-d: treated as shape (1,)

for name, x, k, err, dev in [
    ("medfilt_even", make_x((20,), np.float32), 4, "value_error", False),
    ("medfilt_even2d", make_x((5, 6), np.float64), [3, 2], "value_error", False),
    ("medfilt_bool", make_x((20,), np.bool_), 3, "value_error", False),
    ("medfilt_f16", make_x((20,), np.float16), 3, "value_error", False),
    ("medfilt_complex", make_x((20,), np.complex64), 3, "value_error", False),
    ("medfilt_short", make_x((5, 6), np.float64), [3], "index_error", False),
    ("medfilt_long", make_x((20,), np.float64), [3, 3], "runtime_error", False),
    ("medfilt_negative", make_x((20,), np.float64), -3, "value_error", False),
]:
    error_case(name, "medfilt", err, lambda x=x, k=k: ss.medfilt(x, k), deviation=dev,
               x=s.array(f"{name}_x", x), layout="C", kernel_size=ks_param(k))

# -------------------------------------------------------------------------------------------- medfilt2d
s.group("medfilt2d")
n_m2 = 0


def add_medfilt2d(shape, dtype, k, layout="C"):
    global n_m2
    case = f"medfilt2d{n_m2:03d}"
    n_m2 += 1
    x, xname = input_of(case, shape, dtype, layout)
    y = ss.medfilt2d(x, k) if k is not None else ss.medfilt2d(x)
    s.case(case, func="medfilt2d", rtol=0.0, atol=0.0, x=xname, layout=layout, kernel_size=ks_param(k),
           expected=s.array(f"{case}_y", y))


for dt in (np.float32, np.float64, np.uint8):
    add_medfilt2d((40, 37), dt, None)
    add_medfilt2d((40, 37), dt, 5)
    add_medfilt2d((40, 37), dt, 7, layout="F")
    add_medfilt2d((40, 37), dt, [3, 5], layout="strided")
    add_medfilt2d((40, 37), dt, [9, 1])
    add_medfilt2d((5, 4), dt, 9)     # kernel larger than the array
    add_medfilt2d((1, 1), dt, 3)
add_medfilt2d((0, 5), np.float32, 3)
add_medfilt2d((30, 20), np.int16, 3)   # other dtypes: SciPy falls back to medfilt
add_medfilt2d((30, 20), np.int64, [5, 3])
add_medfilt2d((50,), np.int32, 5)      # ... which takes any number of dimensions

for name, x, k, err, dev in [
    ("medfilt2d_even", make_x((6, 7), np.float32), 4, "value_error", False),
    ("medfilt2d_1d", make_x((20,), np.float32), 3, "value_error", False),
    ("medfilt2d_3d", make_x((3, 4, 5), np.float64), 3, "value_error", False),
    ("medfilt2d_len1", make_x((6, 7), np.uint8), [3], "value_error", False),
    ("medfilt2d_len3", make_x((6, 7), np.float64), [3, 3, 3], "value_error", True),
    ("medfilt2d_bool", make_x((6, 7), np.bool_), 3, "value_error", False),
]:
    error_case(name, "medfilt2d", err, lambda x=x, k=k: ss.medfilt2d(x, k), deviation=dev,
               x=s.array(f"{name}_x", x), layout="C", kernel_size=ks_param(k))

# ----------------------------------------------------------------------------------------- order_filter
s.group("order_filter")
n_of = 0


def add_order(shape, dtype, domain, rank, layout="C", on_device=False):
    global n_of
    case = f"order{n_of:03d}"
    n_of += 1
    x, xname = input_of(case, shape, dtype, layout)
    y = ss.order_filter(x, domain, rank)
    s.case(case, func="order_filter", rtol=0.0, atol=0.0, x=xname, layout=layout,
           domain=s.array(f"{case}_domain", np.asarray(domain)), rank=int(rank), domain_on_device=on_device,
           expected=s.array(f"{case}_y", y))


mask53 = (rng.random((5, 3)) > 0.4).astype(np.float64)
mask53[2, 1] = 1
for dt in (np.float32, np.float64, np.int32, np.uint8, np.int64):
    add_order((25, 30), dt, np.identity(3), 0)
    add_order((25, 30), dt, np.identity(3), 2, layout="F", on_device=True)
    add_order((25, 30), dt, np.ones((3, 3)), 4, layout="strided")
    add_order((25, 30), dt, mask53, int(mask53.sum()) - 1)
    add_order((25, 30), dt, np.ones((3, 5)), -1, on_device=True)
add_order((100,), np.float32, np.ones(5), 1)
add_order((100,), np.float64, np.array([1, 0, 1, 0, 1]), 2)
add_order((5, 6, 7), np.float32, np.ones((3, 1, 3)), 3)
add_order((4, 4), np.float64, np.ones((7, 7)), 24)

for name, x, dom, rank, err in [
    ("order_even", make_x((6, 7), np.float32), np.ones((3, 2)), 0, "value_error"),
    ("order_bool", make_x((6, 7), np.bool_), np.ones((3, 3)), 1, "value_error"),
    ("order_rank", make_x((6, 7), np.float64), np.ones((3, 3)), 9, "runtime_error"),
    ("order_ndim", make_x((6, 7), np.float64), np.ones(3), 1, "runtime_error"),
    ("order_zero", make_x((6, 7), np.float64), np.zeros((3, 3)), 0, "runtime_error"),
]:
    error_case(name, "order_filter", err, lambda x=x, d=dom, r=rank: ss.order_filter(x, d, r),
               x=s.array(f"{name}_x", x), layout="C", domain=s.array(f"{name}_domain", np.asarray(dom)),
               rank=rank, domain_on_device=False)

# ----------------------------------------------------------------------------------------------- wiener
s.group("wiener")
n_w = 0


def add_wiener(shape, dtype, mysize=None, noise=None, layout="C"):
    global n_w
    case = f"wiener{n_w:03d}"
    n_w += 1
    x, xname = input_of(case, shape, dtype, layout)
    y = ss.wiener(x, mysize, noise)
    # float32 inputs: SciPy's correlate may run in float32 (FFT); allow 1e-6 of the scale.
    rt, at = (1e-6, 1e-6 * max(1.0, float(np.abs(y).max()) if y.size else 1.0)) if np.dtype(dtype) in (
        np.float32, np.float16) else tol_of(y)
    if np.dtype(dtype).kind in "iu":
        rt, at = 1e-9, 1e-9 * max(1.0, float(np.abs(y).max()) if y.size else 1.0)
    s.case(case, func="wiener", rtol=rt, atol=at, x=xname, layout=layout, mysize=ks_param(mysize),
           noise=None if noise is None else float(noise), expected=s.array(f"{case}_y", y))


for dt in (np.float64, np.float32, np.int16, np.uint8):
    add_wiener((30, 41), dt)
    add_wiener((30, 41), dt, 5, layout="F")
    add_wiener((30, 41), dt, [3, 7], noise=0.3, layout="strided")
add_wiener((200,), np.float64, 11)
add_wiener((200,), np.float64, 4)          # even: centred as correlate 'same'
add_wiener((20, 21), np.float64, [2, 5])
add_wiener((6, 7, 8), np.float64, 3)
add_wiener((6, 7, 8), np.float32, [3, 1, 5], noise=0.5)
add_wiener((4, 5), np.float64, 9)          # window larger than the array
add_wiener((70, 100), np.float32, 5)       # several tiles of the 2-D kernel
add_wiener((70, 100), np.float64, [15, 4], noise=0.8)
add_wiener((20, 40), np.float32, [17, 3])  # beyond the 2-D kernel's windows: the generic path
add_wiener((0, 5), np.float64, 3)
add_wiener((50,), np.int8, 5)              # x ** 2 wraps in int8, as NumPy
for name, x, ms, err, dev in [
    ("wiener_len", make_x((6, 7), np.float64), [3], "value_error", False),
    ("wiener_len3", make_x((6, 7), np.float64), [3, 3, 3], "value_error", False),
    ("wiener_negative", make_x((6,), np.float64), -1, "value_error", False),
    ("wiener_complex", make_x((6, 7), np.complex128), 3, "not_implemented_error", True),
]:
    error_case(name, "wiener", err, lambda x=x, m=ms: ss.wiener(x, m), deviation=dev,
               x=s.array(f"{name}_x", x), layout="C", mysize=ks_param(ms), noise=None)

# ---------------------------------------------------------------------------------------- savgol_coeffs
s.group("savgol_coeffs")
n_sc = 0
for wl in (1, 2, 3, 4, 5, 8, 11, 31, 51):
    for po in (0, 2, 3, 5):
        if po >= wl:
            continue
        for deriv, delta in ((0, 1.0), (1, 0.5), (2, 2.0), (po + 1, 1.0)):
            for pos in (None, 0.0, float(wl - 1), (wl - 1) / 3.0):
                for use in (("conv", "dot")[n_sc % 2],):
                    # keep to where SciPy's unscaled lstsq is itself accurate (docs/signal-smoothing.md)
                    if wl > 21 and po > 3 and pos is not None:
                        continue
                    c = ss.savgol_coeffs(wl, po, deriv=deriv, delta=delta, pos=pos, use=use)
                    case = f"sgc{n_sc:04d}"
                    n_sc += 1
                    s.case(case, func="savgol_coeffs", rtol=1e-9, atol=1e-10 * max(1.0, float(np.abs(c).max())),
                           window_length=wl, polyorder=po, deriv=deriv, delta=delta, pos=pos, use=use,
                           expected=s.array(f"{case}_c", c))
for name, args, err in [
    ("sgc_po", dict(window_length=5, polyorder=5), "value_error"),
    ("sgc_pos_hi", dict(window_length=5, polyorder=2, pos=5.0), "value_error"),
    ("sgc_pos_neg", dict(window_length=5, polyorder=2, pos=-1.0), "value_error"),
    ("sgc_use", dict(window_length=5, polyorder=2, use="x"), "value_error"),
    ("sgc_wl0", dict(window_length=0, polyorder=-1), "value_error"),
    ("sgc_wlneg", dict(window_length=-3, polyorder=-5), "value_error"),
    ("sgc_deriv", dict(window_length=5, polyorder=2, deriv=-1), "value_error"),
    ("sgc_delta0", dict(window_length=5, polyorder=2, deriv=1, delta=0.0), "value_error"),
]:
    full = dict(deriv=0, delta=1.0, pos=None, use="conv")
    full.update(args)
    error_case(name, "savgol_coeffs", err,
               lambda a=full: ss.savgol_coeffs(a["window_length"], a["polyorder"], deriv=a["deriv"],
                                               delta=a["delta"], pos=a["pos"], use=a["use"]), **full)
for wl, po, deriv in ((5, -1, 0), (3, 1, 2)):  # deriv > polyorder: zeros
    c = ss.savgol_coeffs(wl, po, deriv=deriv)
    case = f"sgc{n_sc:04d}"
    n_sc += 1
    s.case(case, func="savgol_coeffs", rtol=0.0, atol=0.0, window_length=wl, polyorder=po, deriv=deriv, delta=1.0,
           pos=None, use="conv", expected=s.array(f"{case}_c", c))

# ---------------------------------------------------------------------------------------- savgol_filter
s.group("savgol_filter")
n_sf = 0


def add_savgol(shape, dtype, wl, po, deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0, layout="C"):
    global n_sf
    case = f"sgf{n_sf:03d}"
    n_sf += 1
    x, xname = input_of(case, shape, dtype, layout, kind="smooth")
    y = ss.savgol_filter(x, wl, po, deriv=deriv, delta=delta, axis=axis, mode=mode, cval=cval)
    rt, at = tol_of(y)
    s.case(case, func="savgol_filter", rtol=rt, atol=at, x=xname, layout=layout, window_length=wl, polyorder=po,
           deriv=deriv, delta=delta, axis=axis, mode=mode, cval=cval, expected=s.array(f"{case}_y", y))


for mode in ("interp", "mirror", "constant", "nearest", "wrap"):
    for dt in (np.float32, np.float64):
        add_savgol((500,), dt, 31, 3, mode=mode)
        add_savgol((500,), dt, 8, 2, mode=mode)                 # even window
        add_savgol((500,), dt, 11, 4, deriv=1, delta=0.1, mode=mode)
        add_savgol((12, 60), dt, 7, 2, axis=0, mode=mode, layout="F")
        add_savgol((12, 60), dt, 9, 3, deriv=2, axis=1, mode=mode, layout="strided")
        add_savgol((5, 40, 3), dt, 5, 1, axis=1, mode=mode)
    add_savgol((500,), np.int32, 15, 2, mode=mode)              # integers: float64
    add_savgol((50,), np.float64, 1, 0, mode=mode)
    add_savgol((9,), np.float64, 9, 4, mode=mode)               # window == length
    add_savgol((30,), np.float64, 5, 2, deriv=3, mode=mode)     # deriv > polyorder: zeros
for mode in ("mirror", "constant", "nearest", "wrap"):
    add_savgol((3,), np.float64, 7, 2, mode=mode, cval=1.5)     # shorter than the window
    add_savgol((1,), np.float32, 5, 2, mode=mode)
    add_savgol((0,), np.float64, 5, 2, mode=mode)
    add_savgol((4, 0), np.float64, 3, 1, mode=mode)
    add_savgol((60,), np.float64, 5, -1, mode=mode)             # polyorder < 0: zero coefficients
add_savgol((40,), np.float64, 11, 3, mode="constant", cval=2.5)
add_savgol((3000,), np.float32, 51, 5)
add_savgol((64, 100), np.float32, 21, 3, axis=-1)
add_savgol((100, 64), np.float64, 21, 3, axis=0)
add_savgol((100,), np.uint8, 7, 2)
for name, x, wl, po, kw, err, dev in [
    ("sgf_po", make_x((20,), np.float64), 5, 5, {}, "value_error", False),
    ("sgf_long", make_x((20,), np.float64), 21, 2, {}, "value_error", False),
    ("sgf_mode", make_x((20,), np.float64), 5, 2, dict(mode="reflect"), "value_error", False),
    ("sgf_axis", make_x((20,), np.float64), 5, 2, dict(axis=1), "index_error", False),
    ("sgf_0d", np.array(3.0), 1, 0, {}, "index_error", False),
    ("sgf_empty", make_x((0,), np.float64), 1, 0, {}, "value_error", False),
    ("sgf_deg", make_x((20,), np.float64), 5, -1, {}, "value_error", False),
    ("sgf_deriv", make_x((20,), np.float64), 5, 2, dict(deriv=-1), "value_error", False),
    ("sgf_complex", make_x((20,), np.complex128), 5, 2, {}, "not_implemented_error", True),
]:
    full = dict(deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0)
    full.update(kw)
    error_case(name, "savgol_filter", err,
               lambda x=x, wl=wl, po=po, a=full: ss.savgol_filter(x, wl, po, deriv=a["deriv"], delta=a["delta"],
                                                                   axis=a["axis"], mode=a["mode"], cval=a["cval"]),
               deviation=dev, x=s.array(f"{name}_x", x), layout="C", window_length=wl, polyorder=po, **full)

# ---------------------------------------------------------------------------------- whittaker_henderson
s.group("whittaker")
n_wh = 0


def add_wh(n, dtype, lamb, order=2, weights=False, nan=False, lamb_rtol=0.0, xtol=None):
    global n_wh
    case = f"wh{n_wh:03d}"
    n_wh += 1
    y = make_x((n,), dtype, kind="smooth") if np.dtype(dtype).kind == "f" else make_x((n,), dtype)
    w = None
    if weights:
        w = rng.uniform(0.2, 2.0, n)
        if n > 10 and not isinstance(lamb, str):  # (REML with zero weights can lead SciPy's bracket to lamb -> 0)
            w[3:6] = 0.0
        if nan:
            y = y.astype(np.float64) if np.dtype(dtype).kind != "f" else y
            y[4] = np.nan
            y[5] = np.inf
    r = ss.whittaker_henderson(y, lamb=lamb, order=order, weights=w)
    assert np.isfinite(r.lamb) and np.all(np.isfinite(r.x)), case
    rt, at = tol_of(r.x)
    if not isinstance(lamb, str) and lamb < 1e16:
        # the band system's condition grows as lamb 4^order: SciPy's LAPACK and cusci's solver round apart
        rt = max(rt, 1e-15 * lamb * 4.0 ** order)
        at = rt * max(1.0, float(np.abs(r.x).max()))
    if xtol is not None:
        rt, at = xtol, xtol * max(1.0, float(np.abs(r.x).max()))
    s.case(case, func="whittaker_henderson", rtol=rt, atol=at, x=s.array(f"{case}_x", y),
           lamb=lamb if isinstance(lamb, str) else float(lamb), order=order,
           weights=None if w is None else s.array(f"{case}_w", w), expected=s.array(f"{case}_y", r.x),
           expected_lamb=float(r.lamb), lamb_rtol=lamb_rtol)


for order in (1, 2, 3, 4):
    for lamb in (0.5, 100.0, 1e6):
        add_wh(200, np.float64, lamb, order)
        add_wh(200, np.float64, lamb, order, weights=True)
    add_wh(order + 1, np.float64, 3.0, order)        # the shortest signal
    add_wh(2 * order + 1, np.float64, 3.0, order)
    add_wh(2 * order + 2, np.float64, 3.0, order, weights=True)
    add_wh(50, np.float64, 1e20, order)              # lamb * eps > 8: the polynomial limit
    add_wh(50, np.float64, 1e20, order, weights=True)
add_wh(100, np.float32, 10.0)                        # float64 result
add_wh(100, np.int32, 10.0)
add_wh(100, np.float32, 0.0)                         # lamb == 0: a copy in the signal's dtype
add_wh(100, np.int16, 0.0)
add_wh(100, np.float64, 10.0, weights=True, nan=True)  # non-finite values with zero weight
add_wh(100, np.float64, 0.0, weights=True, nan=True)
# REML: the optimum agrees to the optimiser's precision
add_wh(200, np.float64, "reml", 1, lamb_rtol=1e-4, xtol=1e-5)
add_wh(200, np.float64, "reml", 2, lamb_rtol=1e-4, xtol=1e-5)
add_wh(200, np.float64, "reml", 2, weights=True, lamb_rtol=1e-4, xtol=1e-5)
add_wh(1000, np.float64, "reml", 1, lamb_rtol=1e-4, xtol=1e-5)
add_wh(1000, np.float64, "reml", 2, lamb_rtol=1e-4, xtol=1e-5)
add_wh(50, np.float64, "reml", 3, lamb_rtol=1e-4, xtol=1e-5)

good = make_x((20,), np.float64)
bad_nan = good.copy()
bad_nan[3] = np.nan
w_nan = np.ones(20)
w_nan[2] = np.nan
for name, x, kw, err, dev in [
    ("wh_order0", good, dict(lamb=1.0, order=0), "value_error", False),
    ("wh_2d", make_x((4, 5), np.float64), dict(lamb=1.0), "value_error", False),
    ("wh_short", make_x((2,), np.float64), dict(lamb=1.0, order=2), "value_error", False),
    ("wh_wshape", good, dict(lamb=1.0, weights=np.ones(19)), "value_error", False),
    ("wh_nan", bad_nan, dict(lamb=1.0), "value_error", False),
    ("wh_wnan", good, dict(lamb=1.0, weights=w_nan), "value_error", False),
    ("wh_nan_weight", bad_nan, dict(lamb=1.0, weights=np.ones(20)), "value_error", False),
    ("wh_negative", good, dict(lamb=-1.0), "value_error", False),
    ("wh_name", good, dict(lamb="gcv"), "value_error", False),
    ("wh_complex", make_x((20,), np.complex128), dict(lamb=1.0), "not_implemented_error", True),
]:
    full = dict(lamb=kw.get("lamb"), order=kw.get("order", 2), weights=kw.get("weights"))
    error_case(name, "whittaker_henderson", err,
               lambda x=x, a=full: ss.whittaker_henderson(x, lamb=a["lamb"], order=a["order"], weights=a["weights"]),
               deviation=dev, x=s.array(f"{name}_x", x), lamb=full["lamb"], order=full["order"],
               weights=None if full["weights"] is None else s.array(f"{name}_w", full["weights"]))

s.write()
