#!/usr/bin/env python3
"""Reference data for cusci core's numeric family (interp, gradient, trapezoid, isclose, allclose,
array_equal, nan_to_num, cross, linalg.norm), computed with NumPy, written through golden.py.

Array inputs are passed by name: a parameter `<p>` names the stored base array, `<p>_dtype` the cusci
dtype of the input (float16 inputs are stored as float32 and cast by the test) and `<p>_layout` how
the test lays it out: C (as stored), F (Fortran-order copy), S2 (stored with twice the first axis; the
input is [::2]), R (stored reversed along the first axis; the input is [::-1]). Expected arrays:
`expected` (a list of names for gradient), `rdtype` the expected result dtype (float16 results stored
as float32). Error cases carry `error`; every one of them is checked here against NumPy (the same call
raises the exception kind the C++ test expects).
"""
import warnings

import numpy as np

from golden import Suite

s = Suite("core_numeric")
rng = s.rng(20261202)
counter = [0]

ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
       "float64", "complex64", "complex128"]
EXC = {ValueError: "value_error", TypeError: "type_error", IndexError: "index_error"}


def name(prefix):
    counter[0] += 1
    return f"{prefix}{counter[0]}"


def values(dt, shape, special=False, lo=-4, hi=4):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt == np.bool_:
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, lo), min(info.max, hi) + 1, n).astype(dt)
    elif dt.kind == "f":
        x = rng.uniform(lo, hi, n).astype(dt)
        if special and n >= 6:
            k = rng.choice(n, 3, replace=False)
            x[k] = np.array([np.nan, np.inf, -np.inf], dtype=dt)
    else:
        x = (rng.uniform(lo, hi, n) + 1j * rng.uniform(lo, hi, n)).astype(dt)
        if special and n >= 6:
            k = rng.choice(n, 3, replace=False)
            x.real[k[0]] = np.nan
            x.imag[k[1]] = np.inf
            x.real[k[2]] = -np.inf
    return x.reshape(shape)


def store_input(case, p, x, layout="C"):
    """Stores input x of parameter p; returns the params dict."""
    base = x.astype(np.float32) if x.dtype == np.float16 else x
    if layout == "S2":
        b = np.zeros((2 * base.shape[0],) + base.shape[1:], base.dtype)
        b[::2] = base
        base = b
    elif layout == "R":
        base = base[::-1]
    nm = s.array(f"{case}_{p}", base)
    return {p: nm, f"{p}_dtype": x.dtype.name, f"{p}_layout": layout}


def store_expected(case, r, key="expected", idx=None):
    r = np.asarray(r)
    nm = f"{case}_{key}" if idx is None else f"{case}_{key}{idx}"
    s.array(nm, r.astype(np.float32) if r.dtype == np.float16 else r)
    return nm


def rtol_for(dt):
    dt = np.dtype(dt)
    if dt == np.float16:
        return 4e-3
    if dt in (np.float32, np.complex64):
        return 2e-5
    if dt.kind in "fc":
        return 1e-12
    return 0.0


def expect_error(fn, *args, **kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args, **kw)
    except tuple(EXC) as e:
        if isinstance(e, np.exceptions.AxisError):  # ValueError and IndexError: cusci throws index_error
            return "index_error"
        for t, nm in EXC.items():
            if isinstance(e, t):
                return nm
    raise AssertionError(f"NumPy did not raise for {fn.__name__}")


def quiet(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def add_case(func, ins, result, scale=None, rtol=None, **params):
    case = name(func + "_")
    p = {}
    for k, (x, layout) in ins.items():
        p.update(store_input(case, k, x, layout))
    r = np.asarray(result)
    p["expected"] = store_expected(case, r)
    p["rdtype"] = r.dtype.name
    rt = rtol_for(r.dtype) if rtol is None else rtol
    fin = r[np.isfinite(r)] if r.dtype.kind in "fc" else r
    sc = float(np.abs(fin).max()) if (scale is None and fin.size) else (scale or 1.0)
    s.case(case, func=func, rtol=rt, atol=rt * max(sc, 1.0), **p, **params)


def add_error(func, ins, err, **params):
    case = name(func + "_err_")
    p = {}
    for k, (x, layout) in ins.items():
        p.update(store_input(case, k, x, layout))
    s.case(case, func=func, error=err, **p, **params)


# --- interp ------------------------------------------------------------------------------------------
s.group("interp")
xp = np.sort(rng.uniform(-3, 3, 12))
for xdt, xpdt, fpdt in [("float64", "float64", "float64"), ("float32", "float64", "float32"),
                        ("int32", "int64", "int16"), ("uint8", "float32", "complex64"),
                        ("float64", "float64", "complex128"), ("bool", "int8", "bool"),
                        ("float16", "float16", "float16"), ("int64", "uint16", "uint64")]:
    for layout, shape in [("C", (40,)), ("F", (5, 8)), ("S2", (6, 4)), ("R", (7,))]:
        if xdt in ("float64", "float32", "float16"):
            x = rng.uniform(-4, 4, shape).astype(xdt)
            x.flat[0] = np.nan
            x.flat[1] = xp[3]
            x.flat[2] = xp[-1]
        else:
            x = values(xdt, shape, lo=-5, hi=5)
        if xpdt in ("float64", "float32", "float16"):
            xpa = xp.astype(xpdt)
        else:
            xpa = np.unique(rng.integers(-4, 5, 9)).astype(xpdt) if xpdt != "uint16" else np.arange(0, 9, 2, dtype=xpdt)
            if xpdt == "int8":
                xpa = np.array([0, 1], np.int8)
        fpa = values(fpdt, xpa.shape)
        r = quiet(np.interp, x, xpa, fpa)
        add_case("interp", {"x": (x, layout), "xp": (xpa, "C"), "fp": (fpa, "C")}, r)
# left/right, fp with inf (NumPy's NaN alternative formulas), duplicates in xp, one point, empty x
x = np.linspace(-4, 4, 33)
fpa = np.array([0, 1, np.inf, 2, 3, -np.inf, -np.inf, 5, np.nan, 1, 2, 3], float)
add_case("interp", {"x": (x, "C"), "xp": (xp, "C"), "fp": (fpa, "C")}, quiet(np.interp, x, xp, fpa))
add_case("interp", {"x": (x, "C"), "xp": (xp, "C"), "fp": (fpa.astype(complex) * (1 + 1j), "C")},
         quiet(np.interp, x, xp, fpa.astype(complex) * (1 + 1j)))
fpa = rng.uniform(-1, 1, 12)
add_case("interp", {"x": (x, "C"), "xp": (xp, "C"), "fp": (fpa, "C")}, np.interp(x, xp, fpa, left=-7.5, right=9.25),
         left=-7.5, right=9.25)
fpc = fpa + 1j * rng.uniform(-1, 1, 12)
add_case("interp", {"x": (x, "C"), "xp": (xp, "C"), "fp": (fpc, "C")},
         np.interp(x, xp, fpc, left=1 + 2j, right=-3j), left=1 + 2j, right=-3j)
xpd = np.array([0.0, 1.0, 1.0, 2.0, 3.0, 3.0])
fpd = np.array([0.0, 1.0, 5.0, 6.0, 7.0, 8.0])
xd = np.array([-1, 0, 0.5, 1.0, 1.5, 3.0, 3.5, np.nan])
add_case("interp", {"x": (xd, "C"), "xp": (xpd, "C"), "fp": (fpd, "C")}, np.interp(xd, xpd, fpd))
add_case("interp", {"x": (xd, "C"), "xp": (np.array([1.0]), "C"), "fp": (np.array([4.0]), "C")},
         np.interp(xd, [1.0], [4.0]))
add_case("interp", {"x": (xd, "C"), "xp": (np.array([1.0]), "C"), "fp": (np.array([4.0]), "C")},
         np.interp(xd, [1.0], [4.0], left=-1, right=-2), left=-1.0, right=-2.0)
add_case("interp", {"x": (np.zeros((0, 3)), "C"), "xp": (xp, "C"), "fp": (fpa, "C")},
         np.interp(np.zeros((0, 3)), xp, fpa))
add_case("interp", {"x": (np.array(0.3), "C"), "xp": (xp, "C"), "fp": (fpa, "C")}, np.interp(np.array(0.3), xp, fpa))
# period (xp unsorted, negative period, x far outside)
xpp = rng.uniform(0, 360, 10)
fpp = rng.uniform(-1, 1, 10)
xq = np.linspace(-400, 800, 57)
for per in (360.0, -360.0, 100.0):
    add_case("interp", {"x": (xq, "C"), "xp": (xpp, "C"), "fp": (fpp, "C")}, np.interp(xq, xpp, fpp, period=per),
             period=per, left=5.0)
add_case("interp", {"x": (xq, "C"), "xp": (xpp, "C"), "fp": (fpp + 2j * fpp, "C")},
         np.interp(xq, xpp, fpp + 2j * fpp, period=360.0), period=360.0)
# errors
e = expect_error(np.interp, [1.0], [1.0, 2.0], [1.0, 2.0, 3.0])
add_error("interp", {"x": (np.array([1.0]), "C"), "xp": (np.array([1.0, 2.0]), "C"), "fp": (np.array([1.0, 2, 3]), "C")}, e)
e = expect_error(np.interp, [1.0], np.zeros(0), np.zeros(0))
add_error("interp", {"x": (np.array([1.0]), "C"), "xp": (np.zeros(0), "C"), "fp": (np.zeros(0), "C")}, e)
e = expect_error(np.interp, [1.0], [1.0, 2.0], [1.0, 2.0], period=0)
add_error("interp", {"x": (np.array([1.0]), "C"), "xp": (np.array([1.0, 2.0]), "C"), "fp": (np.array([1.0, 2]), "C")},
          e, period=0.0)
e = expect_error(np.interp, np.array([1 + 1j]), [1.0, 2.0], [1.0, 2.0])
add_error("interp", {"x": (np.array([1 + 1j]), "C"), "xp": (np.array([1.0, 2.0]), "C"), "fp": (np.array([1.0, 2]), "C")}, e)
e = expect_error(np.interp, [1.0], np.ones((2, 2)), np.ones((2, 2)))
add_error("interp", {"x": (np.array([1.0]), "C"), "xp": (np.ones((2, 2)), "C"), "fp": (np.ones((2, 2)), "C")}, e)

# --- gradient ----------------------------------------------------------------------------------------
s.group("gradient")


def grad_case(f, layout, spacing, axis=None, edge_order=1):
    """spacing: list of floats or arrays (stored); axis None, int or list."""
    kw = {"edge_order": edge_order}
    if axis is not None:
        kw["axis"] = tuple(axis) if isinstance(axis, list) else axis
    r = quiet(np.gradient, f, *spacing, **kw)
    if not isinstance(r, (list, tuple)):
        r = [r]
    case = name("gradient_")
    p = store_input(case, "f", f, layout)
    sp = []
    for i, d in enumerate(spacing):
        if np.ndim(d) == 0 and not isinstance(d, np.ndarray):
            sp.append(float(d))
        else:
            sp.append(store_input(case, f"h{i}", np.asarray(d))[f"h{i}"])
            p[f"h{i}_dtype"] = np.asarray(d).dtype.name
    exp = [store_expected(case, x, idx=i) for i, x in enumerate(r)]
    rt = rtol_for(r[0].dtype)
    fin = [np.abs(x[np.isfinite(x)]).max() for x in r if x.size]
    sc = max(fin) if fin else 1.0
    s.case(case, func="gradient", rtol=rt * (10 if r[0].dtype == np.float16 else 100), atol=rt * 100 * max(sc, 1.0),
           spacing=sp, axis=axis, edge_order=edge_order, expected=exp, rdtype=r[0].dtype.name, **p)


for dt in ["int8", "int64", "uint16", "float16", "float32", "float64", "complex64", "complex128"]:
    for layout, shape in [("C", (7,)), ("F", (5, 6)), ("S2", (4, 5)), ("R", (3, 4, 5))]:
        f = values(dt, shape, lo=-3, hi=3)
        for eo in (1, 2):
            grad_case(f, layout, [], edge_order=eo)
    f = values(dt, (5, 6))
    grad_case(f, "C", [0.5], edge_order=2)
    grad_case(f, "C", [2.0, 0.25], axis=None)
f = values("float64", (6, 5, 4), special=True)
grad_case(f, "C", [], axis=1)
grad_case(f, "F", [], axis=-1, edge_order=2)
grad_case(f, "S2", [1.5, 3.0], axis=[0, 2])
grad_case(f, "C", [0.5], axis=[2, 0])
xs = np.cumsum(rng.uniform(0.2, 1.0, 6))
zs = np.cumsum(rng.uniform(0.2, 1.0, 4))
for eo in (1, 2):
    grad_case(f, "C", [xs, 2.0, zs], edge_order=eo)
    grad_case(f, "R", [zs, xs], axis=[2, 0], edge_order=eo)
    grad_case(values("float32", (6, 4)), "F", [xs.astype(np.float32), zs.astype(np.float32)], edge_order=eo)
    grad_case(values("complex128", (6,)), "C", [xs], edge_order=eo)
    grad_case(values("int32", (6,)), "C", [np.array([0, 1, 3, 4, 7, 9], np.int64)], edge_order=eo)
    grad_case(values("float64", (6,)), "C", [np.arange(6.0) * 0.5], edge_order=eo)  # uniform coordinates
    grad_case(values("float64", (6, 4)), "C", [np.float64(0.5)], edge_order=eo)  # one 0-d array
grad_case(values("float64", (2, 3)), "C", [], axis=0, edge_order=1)  # shortest axis
grad_case(values("float64", (3, 3)), "C", [], edge_order=2)
grad_case(values("float32", (0, 4)), "C", [], axis=1)  # empty along the other axis
# errors
for f, sp, kw in [(np.ones(1), [], {}), (np.ones((2, 3)), [], {"edge_order": 2}), (np.ones(4), [], {"edge_order": 3}),
                  (np.ones(4, bool), [], {}), (np.ones((3, 3)), [1.0, 2.0, 3.0], {}),
                  (np.ones(4), [np.arange(5.0)], {}), (np.ones(4), [np.ones((2, 2))], {}),
                  (np.ones((3, 3)), [], {"axis": 2}), (np.ones((3, 3)), [], {"axis": (0, 0)})]:
    e = expect_error(np.gradient, f, *sp, **kw)
    case = name("gradient_err_")
    p = store_input(case, "f", f)
    spp = []
    for i, d in enumerate(sp):
        if isinstance(d, np.ndarray):
            spp.append(store_input(case, f"h{i}", d)[f"h{i}"])
        else:
            spp.append(d)
    ax = kw.get("axis")
    s.case(case, func="gradient", error=e, spacing=spp, axis=list(ax) if isinstance(ax, tuple) else ax,
           edge_order=kw.get("edge_order", 1), **p)

# --- trapezoid ---------------------------------------------------------------------------------------
s.group("trapezoid")
for dt in ALL:
    for layout, shape, axis in [("C", (9,), -1), ("F", (4, 6), 0), ("S2", (3, 5), 1), ("R", (2, 3, 4), 1)]:
        y = values(dt, shape, special=True)
        r = quiet(np.trapezoid, y, axis=axis)
        add_case("trapezoid", {"y": (y, layout)}, r, rtol=rtol_for(r.dtype) * 10, axis=axis)
        r = quiet(np.trapezoid, y, dx=0.25, axis=axis)
        add_case("trapezoid", {"y": (y, layout)}, r, rtol=rtol_for(r.dtype) * 10, axis=axis, dx=0.25)
    y = values(dt, (4, 6))
    xx = np.cumsum(rng.uniform(0.1, 1, 6))
    r = quiet(np.trapezoid, y, xx)
    add_case("trapezoid", {"y": (y, "C"), "x": (xx, "C")}, r, rtol=rtol_for(r.dtype) * 10)
for xdt in ["int32", "float32", "float64", "bool"]:
    y = values("float64", (4, 6))
    xx = values(xdt, (4, 6))
    r = quiet(np.trapezoid, y, xx, axis=0)
    add_case("trapezoid", {"y": (y, "C"), "x": (xx, "F")}, r, rtol=1e-10, axis=0)
    y = values("float32", (5,))
    xx = values(xdt, (5,))
    r = quiet(np.trapezoid, y, xx)
    add_case("trapezoid", {"y": (y, "C"), "x": (xx, "R")}, r, rtol=1e-5)
for shape, axis in [((0,), -1), ((1,), 0), ((3, 0), 0), ((3, 0), 1), ((0, 4), 1)]:
    y = np.ones(shape)
    add_case("trapezoid", {"y": (y, "C")}, np.trapezoid(y, axis=axis), axis=axis)
e = expect_error(np.trapezoid, np.ones((3, 3)), axis=2)
add_error("trapezoid", {"y": (np.ones((3, 3)), "C")}, e, axis=2)
e = expect_error(np.trapezoid, np.ones((3, 4)), np.ones(3))
add_error("trapezoid", {"y": (np.ones((3, 4)), "C"), "x": (np.ones(3), "C")}, e, axis=-1)

# --- isclose / allclose ------------------------------------------------------------------------------
s.group("isclose")


def close_pair(dt1, dt2, shape1, shape2):
    a = values(dt1, shape1, special=True)
    b = np.broadcast_to(a, np.broadcast_shapes(shape1, shape2))[tuple(slice(0, n) for n in shape2)] if shape1 == shape2 else values(dt2, shape2, special=True)
    b = np.array(b).astype(dt2)
    if shape1 == shape2 and np.dtype(dt2).kind in "fc":
        pert = rng.choice([0, 1e-9, 1e-7, 1e-6, 1e-4, 1e-2], b.size).reshape(b.shape)
        b = (b.astype(np.complex128 if b.dtype.kind == "c" else np.float64) * (1 + pert)).astype(dt2)
        if b.size > 4:
            b.flat[3] = a.flat[3] if a.dtype.kind != "c" or b.dtype.kind == "c" else b.flat[3]
    return a, b


for dt1, dt2, sh1, sh2, lay in [("float32", "float32", (64,), (64,), "C"), ("float64", "float64", (8, 8), (8, 8), "C"),
                                ("float64", "float64", (8, 8), (8, 8), "F"), ("float32", "float64", (30,), (30,), "S2"),
                                ("int8", "float32", (20,), (20,), "C"), ("bool", "bool", (10,), (10,), "C"),
                                ("int64", "int64", (12,), (12,), "R"), ("uint8", "int8", (12,), (12,), "C"),
                                ("complex64", "complex128", (16,), (16,), "C"), ("float16", "float16", (16,), (16,), "C"),
                                ("float64", "float32", (3, 1), (1, 4), "C"), ("complex128", "float64", (5, 4), (4,), "F"),
                                ("uint64", "float64", (6,), (6,), "C"), ("float32", "float32", (0,), (0,), "C")]:
    a, b = close_pair(dt1, dt2, sh1, sh2)
    for rtol, atol, en in [(1e-5, 1e-8, False), (1e-3, 0.0, True), (0.0, 0.5, False)]:
        r = quiet(np.isclose, a, b, rtol=rtol, atol=atol, equal_nan=en)
        ac = bool(quiet(np.allclose, a, b, rtol=rtol, atol=atol, equal_nan=en))
        add_case("isclose", {"a": (a, lay), "b": (b, lay if sh1 == sh2 else "C")}, r, rtol=0.0, c_rtol=rtol, c_atol=atol,
                 equal_nan=en, allclose=ac)
a = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, 1e-10])
b = np.array([1.0 + 1e-6, np.nan, np.inf, np.inf, 1e-9, 0.0])
for en in (False, True):
    for dt in ("float32", "float64"):
        add_case("isclose", {"a": (a.astype(dt), "C"), "b": (b.astype(dt), "C")},
                 np.isclose(a.astype(dt), b.astype(dt), equal_nan=en), equal_nan=en, rtol=0.0, c_rtol=1e-5, c_atol=1e-8,
                 allclose=bool(np.allclose(a.astype(dt), b.astype(dt), equal_nan=en)))
allc = np.linspace(1, 2, 50)
add_case("isclose", {"a": (allc, "C"), "b": (allc * (1 + 1e-7), "C")}, np.isclose(allc, allc * (1 + 1e-7)),
         rtol=0.0, c_rtol=1e-5, c_atol=1e-8, equal_nan=False, allclose=True)
e = expect_error(np.isclose, np.ones(3), np.ones(4))
add_error("isclose", {"a": (np.ones(3), "C"), "b": (np.ones(4), "C")}, e, c_rtol=1e-5, c_atol=1e-8, equal_nan=False)

# --- array_equal -------------------------------------------------------------------------------------
s.group("array_equal")
base = values("float64", (4, 5), special=True)
for a, b in [(base, base.copy()), (np.nan_to_num(base), np.nan_to_num(base)), (base, base[:, :4]),
             (np.ones(3), np.ones((1, 3))), (np.arange(4), np.arange(4.0)), (np.arange(4), np.arange(1, 5)),
             (np.array([1 + np.nan * 1j, 2]), np.array([1 + np.nan * 1j, 2])), (np.ones(3, bool), np.ones(3, np.int8)),
             (np.zeros((0, 2)), np.zeros((0, 2))), (np.array([np.nan, 1.0]), np.array([1.0, np.nan])),
             (np.float32([1, np.nan]), np.float64([1, np.nan])), (np.zeros(0), np.zeros((0, 1)))]:
    for en in (False, True):
        r = np.array_equal(a, b, equal_nan=en)
        case = name("array_equal_")
        p = store_input(case, "a", a)
        p.update(store_input(case, "b", b))
        s.case(case, func="array_equal", equal_nan=en, result=bool(r), **p)

# --- nan_to_num --------------------------------------------------------------------------------------
s.group("nan_to_num")
for dt in ["bool", "int32", "uint8", "float16", "float32", "float64", "complex64", "complex128"]:
    for layout in ("C", "F", "S2"):
        x = values(dt, (6, 4), special=True)
        for kw in [{}, {"nan": -1.5, "posinf": 7.0, "neginf": -8.0}, {"posinf": 1e300}]:
            r = quiet(np.nan_to_num, x, **kw)
            for copy in (True, False):
                add_case("nan_to_num", {"x": (x, layout)}, r, copy=copy, **kw)

# --- cross -------------------------------------------------------------------------------------------
s.group("cross")
for dt1, dt2 in [("float64", "float64"), ("float32", "float32"), ("int8", "int8"), ("uint8", "uint8"),
                 ("int64", "int32"), ("int8", "float32"), ("complex64", "complex64"), ("complex128", "float64"),
                 ("float16", "float16"), ("uint64", "uint64"), ("int16", "uint16")]:
    for sa, sb, kw, la in [((3,), (3,), {}, "C"), ((4, 3), (3,), {}, "S2"), ((2, 1, 3), (5, 3), {}, "C"),
                           ((3, 4), (4, 3), {"axisa": 0}, "F"), ((3, 4), (3, 4), {"axis": 0}, "C"),
                           ((2, 3, 5), (3, 5), {"axisa": 1, "axisb": 0, "axisc": 0}, "R"),
                           ((4, 3), (4, 3), {"axisc": 0}, "C"), ((0, 3), (3,), {}, "C")]:
        a = values(dt1, sa, lo=-9, hi=9)
        b = values(dt2, sb, lo=-9, hi=9)
        r = quiet(np.cross, a, b, **kw)
        add_case("cross", {"a": (a, la), "b": (b, "C")}, r, **kw)
for a, b, kw in [(np.ones(2), np.ones(2), {}), (np.ones(3), np.ones(2), {}), (np.ones(3, bool), np.ones(3, bool), {}),
                 (np.ones((3, 3)), np.ones(3), {"axisa": 2}), (np.ones(3), np.ones(3), {"axisc": 1}),
                 (np.ones((2, 3)), np.ones((3, 3)), {})]:
    e = expect_error(np.cross, a, b, **kw)
    add_error("cross", {"a": (a, "C"), "b": (b, "C")}, e, **kw)
e = expect_error(np.cross, np.float64(1.0), np.ones(3))
add_error("cross", {"a": (np.array(1.0), "C"), "b": (np.ones(3), "C")}, e)

# --- linalg.norm -------------------------------------------------------------------------------------
s.group("norm")
INF = float("inf")


def ord_param(o):
    return o if isinstance(o, str) or o is None else float(o)


def norm_case(x, layout, ord=None, axis=None, keepdims=False):
    r = quiet(np.linalg.norm, x, ord=ord, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)
    add_case("norm", {"x": (x, layout)}, r, rtol=rtol_for(r.dtype) * (5 if r.dtype == np.float16 else 20),
             ord=ord_param(ord), axis=axis, keepdims=keepdims)


for dt in ["bool", "int8", "int32", "uint64", "float16", "float32", "float64", "complex64", "complex128"]:
    v = values(dt, (37,), special=False)
    for o in [None, 2, 1, INF, -INF, 0, 3, 0.5, -1, -2.5]:
        norm_case(v, "R" if o == 3 else "C", o)
    m = values(dt, (6, 5))
    for o in [None, "fro", 1, -1, INF, -INF] + ([] if dt == "float16" else [2, -2, "nuc"]):
        norm_case(m, "F" if o == 1 else "C", o)
        norm_case(m, "S2", o, axis=[1, 0], keepdims=True)
    norm_case(m, "C", None, axis=1)
    norm_case(m, "F", 2, axis=0, keepdims=True)
    norm_case(m, "C", None, keepdims=True)
    t = values(dt, (3, 4, 5))
    norm_case(t, "C")
    norm_case(t, "C", INF, axis=-1)
    for o in [None, 1, INF] + ([] if dt == "float16" else [2, -2, "nuc"]):
        norm_case(t, "R", o, axis=[2, 0])
        norm_case(t, "C", o, axis=[-2, -1], keepdims=True)
# specials and empties
v = np.array([1.0, np.nan, 2.0])
norm_case(v, "C")
norm_case(np.array([1.0, np.inf, 2.0]), "C")
norm_case(np.array([1.0, np.inf, 2.0]), "C", 1)
norm_case(np.array([1e-200, 3e-200]), "C")  # NumPy underflows to 0 here? (only when squares underflow)
norm_case(np.array([1e150, 2e150]), "C")
norm_case(np.zeros(5), "C")
norm_case(np.zeros(5), "C", 2, axis=0)
norm_case(np.zeros((3, 4)), "C", None, axis=1)
for o in [None, 2, 1, INF, 0, 3]:
    norm_case(np.zeros(0), "C", o)
for o in [None, 2, "nuc", 1, -1, INF, "fro"]:
    norm_case(np.zeros((0, 3)), "C", o)
norm_case(np.zeros((2, 0, 3)), "C", 2, axis=[1, 2])
norm_case(values("float64", (2, 3, 4)), "C", None, axis=[0, 2])
norm_case(values("float64", (1, 1)), "C", -2)
norm_case(values("complex128", (7, 3)), "C", 2)
norm_case(values("float32", (3, 7)), "C", "nuc")
for x, kw in [(np.ones(3), {"ord": "fro"}), (np.ones(3), {"ord": "nuc", "axis": 0}), (np.ones((3, 3)), {"ord": 3}),
              (np.ones((3, 3)), {"ord": 0}), (np.ones((2, 2, 2)), {"ord": 2}), (np.ones((3, 3)), {"axis": (0, 0)}),
              (np.ones((3, 3)), {"axis": 2}), (np.ones((3, 3)), {"axis": (0, 5)}), (np.ones((3, 3), np.float16), {"ord": 2}),
              (np.ones((3, 3), np.float16), {"ord": "nuc"}), (np.zeros(0), {"ord": -INF}), (np.zeros((0, 3)), {"ord": -2}),
              (np.ones((2, 2, 2)), {"axis": (0, 1, 2)})]:
    e = expect_error(np.linalg.norm, x, **kw)
    ax = kw.get("axis")
    add_error("norm", {"x": (x, "C")}, e, ord=ord_param(kw.get("ord")), axis=list(ax) if isinstance(ax, tuple) else ax,
              keepdims=False)

s.write()
