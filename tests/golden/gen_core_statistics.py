#!/usr/bin/env python3
"""Reference data for cusci core's statistics family (median, nanmedian, percentile, quantile,
nanpercentile, nanquantile, average, cov, corrcoef), computed with NumPy, written through golden.py.

Params of every case: dtype (cusci dtype of the input; float16 inputs are stored as float32 and cast
by the test), layout (C; F = Fortran-order copy; S2 = rows [::2] of the stored array; R = rows
[::-1]), axis (null = all axes, an int or a list), keepdims, rdtype (NumPy's result dtype name), and
per function: qkind ("scalar": q is the number `q`; "int": the integer `q`; "list": q is the list `q` (host vector); "array":
q is the array <case>_q stored as float64 and cast to `qdtype`), method; weights (average: the array
<case>_w with `wdtype`), returned; y (cov/corrcoef: the array <case>_y), rowvar, bias, ddof,
fweights / aweights (arrays <case>_fw / <case>_aw), cdtype (cov's dtype=). Arrays: <case>_x input,
<case>_out expected (float16 results stored as float32), <case>_sw (average's sum of weights).
Error cases carry `error` (the cusci exception kind); the generator checks NumPy raises there too.
"""
import warnings

import numpy as np

from golden import Suite

s = Suite("core_statistics")
rng = s.rng(20261202)

REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
        "float64"]
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
DISCRETE = {"inverted_cdf", "closest_observation", "lower", "higher", "nearest"}
n_case = 0


def new_case(prefix):
    global n_case
    n_case += 1
    return f"{prefix}{n_case}"


def store(case, name, arr):
    arr = np.asarray(arr)
    if arr.dtype == np.float16:
        arr = arr.astype(np.float32)
    return s.array(f"{case}_{name}", arr)


def values(dt, shape, nans=0, dup=False):
    n = int(np.prod(shape))
    dt = np.dtype(dt)
    if dt == np.bool_:
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -50), min(info.max, 50) + 1, n).astype(dt)
        if n >= 4 and not dup:
            x[:2] = [info.min, info.max]
            rng.shuffle(x)
    elif dt.kind == "f":
        x = (rng.integers(-6, 6, n) / 2.0).astype(dt) if dup else rng.standard_normal(n).astype(dt)
        if nans and n:
            k = rng.choice(n, min(nans, n), replace=False)
            x[k] = np.nan
    else:
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
        if nans and n:
            k = rng.choice(n, min(nans, n), replace=False)
            x[k] = complex(np.nan, 0)
    return x.reshape(shape)


def stored_for(dt, shape, layout, **kw):
    if layout == "S2":
        return values(dt, (2 * shape[0],) + tuple(shape[1:]), **kw)
    return values(dt, shape, **kw)


def apply_layout(stored, layout):
    if layout == "C":
        return stored
    if layout == "F":
        return np.asfortranarray(stored)
    return stored[::2] if layout == "S2" else stored[::-1]


def tol_for(dt):
    dt = np.dtype(dt)
    if dt == np.float16:
        return 2e-3, 2e-3
    if dt in (np.float32, np.complex64):
        return 2e-6, 2e-6
    if dt.kind in "fc":
        return 1e-13, 1e-13
    return 0.0, 0.0


def np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def run(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def check_raises(fn, what):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except Exception:
            return
    raise AssertionError(f"NumPy does not raise for {what}")


def main():
    # --- median / nanmedian ---------------------------------------------------------------------
    s.group("median")
    specs = [((1,), None, "C"), ((7,), None, "C"), ((8,), -1, "C"), ((5, 6), 1, "C"), ((5, 6), 0, "F"),
             ((4, 6), [0, 1], "S2"), ((3, 4, 5), [0, 2], "C"), ((3, 4, 5), -2, "R"), ((), None, "C"),
             ((4, 0), 1, "C"), ((0, 3), 1, "C"), ((3, 4), [], "C"), ((301, 4), 0, "C")]
    for func in ["median", "nanmedian"]:
        for dt in REAL + ["complex64", "complex128"]:
            for shape, axis, layout in specs:
                for keepdims in ([False, True] if shape == (3, 4, 5) else [False]):
                    case = new_case("med")
                    nans = 2 if (dt[0] in "fc" and len(shape) > 0 and np.prod(shape) > 6) else 0
                    base = stored_for(dt, shape, layout, nans=nans)
                    x = apply_layout(base, layout)
                    r = run(lambda: getattr(np, func)(x, axis=np_axis(axis), keepdims=keepdims))
                    r = np.asarray(r)
                    store(case, "x", base)
                    store(case, "out", r)
                    rt, at = tol_for(r.dtype)
                    s.case(case, func=func, rtol=rt, atol=at, dtype=dt, layout=layout, axis=axis,
                           keepdims=keepdims, rdtype=r.dtype.name)
    # all-NaN rows and NaN in one row
    for func in ["median", "nanmedian"]:
        case = new_case("med")
        base = values("float64", (3, 5))
        base[0, :] = np.nan
        base[1, 2] = np.nan
        r = np.asarray(run(lambda: getattr(np, func)(base, axis=1)))
        store(case, "x", base)
        store(case, "out", r)
        s.case(case, func=func, rtol=0, atol=0, dtype="float64", layout="C", axis=1, keepdims=False,
               rdtype=r.dtype.name)

    # --- percentile / quantile / nan-variants --------------------------------------------------
    s.group("quantile")

    def qcase(func, dt, shape, axis, layout, qkind, q, method="linear", keepdims=False, qdtype="float64",
              nans=0, dup=False):
        case = new_case("q")
        base = stored_for(dt, shape, layout, nans=nans, dup=dup)
        x = apply_layout(base, layout)
        if qkind == "scalar":
            qq = float(q)
        elif qkind == "int":
            qq = int(q)
        elif qkind == "list":
            qq = [float(v) for v in q]
        else:
            qq = np.asarray(q, dtype=np.float64).astype(qdtype)
            store(case, "q", np.asarray(q, dtype=np.float64))
        r = np.asarray(run(lambda: getattr(np, func)(x, qq, axis=np_axis(axis), method=method,
                                                     keepdims=keepdims)))
        store(case, "x", base)
        store(case, "out", r)
        rt, at = tol_for(r.dtype)
        s.case(case, func=func, rtol=rt, atol=at, dtype=dt, layout=layout, axis=axis, keepdims=keepdims,
               qkind=qkind, q=(q if qkind != "array" else None), qdtype=qdtype, method=method,
               rdtype=r.dtype.name)

    for func, qs, ql in [("percentile", 37.5, [0, 5, 50, 95, 100]), ("quantile", 0.3, [0.0, 0.05, 0.5, 0.95, 1.0])]:
        # every method x a few dtypes, scalar and list q
        for method in METHODS:
            for dt in ["float64", "float32", "int16", "uint8", "float16"]:
                qcase(func, dt, (5, 37), 1, "C", "scalar", qs, method)
                qcase(func, dt, (5, 37), 1, "C", "list", ql, method, dup=True)
            qcase(func, "bool", (40,), None, "C", "list", ql, method) if method in DISCRETE else None
        # dtype sweep, layouts and axes (linear)
        for dt in REAL:
            m = "lower" if dt == "bool" else "linear"
            qcase(func, dt, (6, 10), 0, "F", "scalar", qs, m)
            qcase(func, dt, (4, 9), [0, 1], "S2", "list", ql, m)
            qcase(func, dt, (3, 4, 5), -1, "R", "list", ql[:2], m, keepdims=True)
        # q arrays of other dtypes and shapes; NaN propagation
        for qdtype in ["float64", "float32", "float16"]:
            for dt in ["float32", "int8", "float16", "float64"]:
                q2 = np.array([[ql[1], ql[2]], [ql[3], ql[4]]])
                qcase(func, dt, (3, 50), -1, "C", "array", q2, "linear", qdtype=qdtype)
                qcase(func, dt, (3, 50), -1, "C", "array", q2, "hazen", qdtype=qdtype)
        qcase(func, "float64", (4, 30), 1, "C", "list", ql, "linear", nans=3)
        qcase(func, "float32", (4, 30), 1, "C", "list", ql, "nearest", nans=3)
        qcase(func, "float64", (), None, "C", "scalar", qs, "linear")
        qcase(func, "float64", (3000,), None, "C", "list", ql, "linear")
        qcase(func, "float64", (3, 4), [], "C", "scalar", qs, "linear")
    for func, qs, ql in [("nanpercentile", 40.0, [0, 10, 50, 90, 100]), ("nanquantile", 0.4, [0.0, 0.1, 0.5, 0.9, 1.0])]:
        for method in METHODS:
            for dt in ["float64", "float32", "float16"]:
                qcase(func, dt, (6, 23), 1, "C", "list", ql, method, nans=20)
            qcase(func, "int32", (6, 23), 1, "C", "scalar", qs, method)
        qcase(func, "float64", (5, 8), 0, "F", "scalar", qs, "linear", nans=6)
        qcase(func, "float32", (2, 3, 4), [0, 2], "C", "list", ql, "linear", nans=5, keepdims=True)
        # all-NaN row
        case = new_case("q")
        base = values("float64", (3, 6))
        base[1, :] = np.nan
        base[2, :3] = np.nan
        r = np.asarray(run(lambda: getattr(np, func)(base, ql, axis=1)))
        store(case, "x", base)
        store(case, "out", r)
        s.case(case, func=func, rtol=1e-13, atol=1e-13, dtype="float64", layout="C", axis=1, keepdims=False,
               qkind="list", q=ql, qdtype="float64", method="linear", rdtype=r.dtype.name)
    # empty inputs: percentile of zero rows is empty; the nan-variants return nanmean(a) (q ignored)
    qcase("percentile", "float64", (0, 3), 1, "C", "list", [50.0, 10.0])
    qcase("quantile", "float32", (0, 3), 1, "C", "scalar", 0.5)
    qcase("nanpercentile", "float32", (2, 0), 1, "C", "list", [50.0, 10.0])
    qcase("nanquantile", "float64", (0, 3), 1, "C", "list", [0.5, 0.1])
    qcase("nanquantile", "int16", (2, 0), 1, "C", "scalar", 0.5, keepdims=True)
    # a Python int q: quantile's linear method keeps a's dtype (integer virtual index)
    for func in ["quantile", "nanquantile", "percentile"]:
        for dt in ["int8", "float32", "bool", "uint16"]:
            for qi in [0, 1]:
                if dt == "bool" and func == "percentile":
                    continue
                qcase(func, dt, (4, 11), 1, "C", "int", qi * (100 if func == "percentile" else 1), "linear")
    # inf at the top: NumPy's (b - a) * (1 - t) gives NaN for q = 100
    case = new_case("q")
    base = np.array([1.0, np.inf, 2.0])
    r = np.asarray(run(lambda: np.percentile(base, [0.0, 50.0, 100.0])))
    store(case, "x", base)
    store(case, "out", r)
    s.case(case, func="percentile", rtol=0, atol=0, dtype="float64", layout="C", axis=None, keepdims=False,
           qkind="list", q=[0.0, 50.0, 100.0], qdtype="float64", method="linear", rdtype=r.dtype.name)

    # --- average ------------------------------------------------------------------------------
    s.group("average")

    def acase(dt, shape, axis, wdt=None, wshape=None, returned=False, keepdims=False, layout="C"):
        case = new_case("avg")
        # 64-bit integers without their extremes: near +-2^63 the float64 sum cancels catastrophically,
        # and its value then depends on the summation order, which is NumPy's pairwise one only to rounding
        base = stored_for(dt, shape, layout, dup=dt in ("int64", "uint64"))
        x = apply_layout(base, layout)
        w = None
        if wdt is not None:
            w = np.abs(values(wdt, wshape if wshape is not None else x.shape)) + (1 if wdt != "bool" else True)
            w = w.astype(wdt)
            store(case, "w", w)
        r = run(lambda: np.average(x, axis=np_axis(axis), weights=w, returned=returned, keepdims=keepdims))
        if returned:
            r, sw = r
            store(case, "sw", np.asarray(sw))
        r = np.asarray(r)
        store(case, "x", base)
        store(case, "out", r)
        rt, at = tol_for(r.dtype)
        s.case(case, func="average", rtol=max(rt, 1e-6 if r.dtype == np.float32 else rt), atol=at, dtype=dt,
               layout=layout, axis=axis, keepdims=keepdims, wdtype=wdt, returned=returned, rdtype=r.dtype.name)

    for dt in REAL + ["complex64", "complex128"]:
        acase(dt, (4, 7), None)
        acase(dt, (4, 7), 1, wdt="float64", wshape=(7,), returned=True)
    acase("float32", (3, 4, 5), [0, 2], wdt="float32", wshape=(3, 5), keepdims=True)
    acase("float32", (3, 4, 5), [2, 0], wdt="float64", wshape=(5, 3), returned=True)
    acase("int8", (3, 5), 1, wdt="float16", wshape=(5,))
    acase("float16", (3, 5), 1, wdt="int8", wshape=(5,))
    acase("float64", (6, 5), None, wdt="int32", returned=True, layout="F")
    acase("float64", (6, 5), 0, returned=True, keepdims=True)

    # --- cov / corrcoef ---------------------------------------------------------------------------
    s.group("cov")

    def ccase(func, dt, shape, ydt=None, yshape=None, rowvar=True, bias=False, ddof=None, fw=False, aw=False,
              cdtype=None):
        case = new_case("cov")
        x = values(dt, shape)
        y = values(ydt, yshape) if ydt else None
        nobs = (shape[-1] if rowvar or len(shape) == 1 else shape[0]) if len(shape) else 1
        fwv = rng.integers(0, 4, nobs) if fw else None
        awv = rng.random(nobs) + 0.1 if aw else None
        if func == "cov":
            r = run(lambda: np.cov(x, y, rowvar=rowvar, bias=bias, ddof=ddof, fweights=fwv, aweights=awv,
                                   dtype=cdtype))
        else:
            r = run(lambda: np.corrcoef(x, y, rowvar=rowvar, dtype=cdtype))
        r = np.asarray(r)
        store(case, "x", x)
        if y is not None:
            store(case, "y", y)
        if fw:
            store(case, "fw", fwv)
        if aw:
            store(case, "aw", awv)
        store(case, "out", r)
        rt, at = tol_for(r.dtype)
        s.case(case, func=func, rtol=max(rt, 1e-5 if r.dtype in (np.float32, np.complex64) else 1e-12),
               atol=max(at, 1e-5 if r.dtype in (np.float32, np.complex64) else 1e-12), dtype=dt, ydtype=ydt,
               rowvar=rowvar, bias=bias, ddof=ddof, fweights=fw, aweights=aw, cdtype=cdtype, rdtype=r.dtype.name)

    for func in ["cov", "corrcoef"]:
        for dt in ["float64", "float32", "int32", "bool", "uint8", "complex128", "complex64", "float16"]:
            ccase(func, dt, (3, 9))
        ccase(func, "float64", (9,))
        ccase(func, "float64", (9, 3), rowvar=False)
        ccase(func, "float64", (3, 9), ydt="float64", yshape=(2, 9))
        ccase(func, "float64", (9,), ydt="int16", yshape=(9,))
        ccase(func, "float64", (3, 9), cdtype="float32")
        ccase(func, "complex128", (2, 9), ydt="complex128", yshape=(9,))
    ccase("cov", "float64", (3, 9), bias=True)
    ccase("cov", "float64", (3, 9), ddof=3)
    ccase("cov", "float64", (3, 9), fw=True)
    ccase("cov", "float64", (3, 9), aw=True)
    ccase("cov", "float64", (3, 9), fw=True, aw=True, ddof=0)
    ccase("cov", "complex128", (3, 9), fw=True, aw=True)
    ccase("cov", "float32", (8, 3), rowvar=False, aw=True)

    # --- error cases (checked against NumPy) -------------------------------------------------------
    s.group("errors")
    x = np.arange(12.0).reshape(3, 4)
    store("err", "x", x)
    errors = [
        ("percentile", dict(q=101.0), "value_error", lambda: np.percentile(x, 101.0)),
        ("percentile", dict(q=-1.0), "value_error", lambda: np.percentile(x, -1.0)),
        ("quantile", dict(q=1.5), "value_error", lambda: np.quantile(x, 1.5)),
        ("quantile", dict(q=float("nan")), "value_error", lambda: np.quantile(x, np.nan)),
        ("nanquantile", dict(q=2.0), "value_error", lambda: np.nanquantile(x, 2.0)),
        ("quantile", dict(q=0.5, axis=2), "index_error", lambda: np.quantile(x, 0.5, axis=2)),
        ("quantile", dict(q=0.5, axis=[0, -2]), "value_error", lambda: np.quantile(x, 0.5, axis=(0, -2))),
        ("quantile", dict(q=0.5, weights=True), "value_error", lambda: np.quantile(x, 0.5, weights=np.ones_like(x))),
        ("quantile", dict(q=0.5, cast="complex128"), "type_error", lambda: np.quantile(x.astype(complex), 0.5)),
        ("quantile", dict(q=0.5, cast="bool"), "type_error", lambda: np.quantile(x.astype(bool), 0.5)),
        ("quantile", dict(q=0.5, empty=True), "index_error", lambda: np.quantile(np.zeros((3, 0)), 0.5, axis=1)),
        ("median", dict(axis=-3), "index_error", lambda: np.median(x, axis=-3)),
        ("median", dict(axis=[1, 1]), "value_error", lambda: np.median(x, axis=(1, 1))),
        ("average", dict(wshape=[4]), "type_error", lambda: np.average(x, weights=np.ones(4))),
        ("average", dict(wshape=[3], axis=1), "value_error", lambda: np.average(x, axis=1, weights=np.ones(3))),
        ("average", dict(wshape=[4], axis=1, zero=True), "value_error",
         lambda: np.average(x, axis=1, weights=np.zeros(4))),
        ("cov", dict(ndim3=True), "value_error", lambda: np.cov(np.ones((2, 2, 2)))),
        ("cov", dict(fw=[1.5, 1, 1, 1]), "type_error", lambda: np.cov(x, fweights=np.array([1.5, 1, 1, 1]))),
        ("cov", dict(fw=[-1, 1, 1, 1]), "value_error", lambda: np.cov(x, fweights=np.array([-1, 1, 1, 1]))),
        ("cov", dict(aw=[1, 1, 1]), "runtime_error", lambda: np.cov(x, aweights=np.array([1.0, 1, 1]))),
        ("cov", dict(aw=[-1, 1, 1, 1]), "value_error", lambda: np.cov(x, aweights=np.array([-1.0, 1, 1, 1]))),
        ("cov", dict(yshape=[2, 5]), "value_error", lambda: np.cov(x, np.ones((2, 5)))),
    ]
    for func, params, err, fn in errors:
        check_raises(fn, f"{func} {params}")
        case = new_case("err")
        s.case(case, func=func, error=err, **params)

    s.write()


if __name__ == "__main__":
    main()
