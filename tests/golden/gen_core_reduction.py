"""Reference data for cusci's reductions and scans (NumPy 2.5 semantics), written through golden.py.

Every case's func is the NumPy function; its params: kind (the test that runs it: reduce, arg, scan,
diff, diff_pa, bcast, allnan, allnan_arg, edge, zero, one, error, big, big2, scanx), dtype, axis (null,
an int or a list of ints), keepdims, ddof, n; error cases also the input shape; "scanx" cases (hashed
scan inputs, see scan_sweep) also shape, view, sub, off and len. The expected array of a case is stored
under the case's name.
Inputs: in_<dtype> (3, 4, 5) and big_<dtype> (3, 8, 10) with big[:, ::2, ::2] == in (strided views);
nan_<dtype> (3, 4, 5) with NaN at the first, last and some inner positions (never a whole axis-2 row,
except in allnan_<dtype>). Large accuracy cases use a hash both sides compute (no large files).
"""
import warnings

import numpy as np

from golden import Suite

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]
s = Suite("core_reduction")


def add(case, kind, func, dtype, axis=None, keepdims=False, ddof=0, n=0, rtol=0.0, atol=0.0, error=None,
        **extra):
    """One case; axis: None, an int or a tuple of ints."""
    s.case(case, func=func, rtol=rtol, atol=atol, error=error, kind=kind, dtype=dtype,
           axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=bool(keepdims), ddof=float(ddof),
           n=int(n), **extra)


def hashed_input(dt, func, n):
    """The scan sweep's input, flat, of n elements; the test computes the same from the index i:
    h = (i * 2654435761) mod 2^32; sums of floats take h / 2^32 + 0.25, products 1 + (h / 2^32 - 0.5) / 256
    (in float64, then cast); integers take h mod 1000 (- 500 for int64) for sums, 1 + h mod 3 for products;
    nan-variants put NaN at i mod 101 == 7."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761)) % np.uint64(2**32)
    prod = "prod" in func
    if dt in ("float32", "float64"):
        u = h.astype(np.float64) / 2.0**32
        x = (1.0 + (u - 0.5) / 256.0) if prod else (u + 0.25)
        x = x.astype(dt)
        if func.startswith("nan"):
            x[(i % np.uint64(101)) == np.uint64(7)] = np.nan
        return x
    if prod:
        return (np.uint64(1) + h % np.uint64(3)).astype(dt)
    if dt == "int64":
        return (h % np.uint64(1000)).astype(np.int64) - 500
    return (h % np.uint64(1000)).astype(dt)


def scan_sweep():
    """Scans over hashed inputs sized to reach every tier of the 1-D single-pass kernel (one partial
    tile, exact tiles, more than 32 tiles so the look-back takes several windows) and of the
    strided-axis kernel (16-byte path: float32 4 columns / 8-byte types 2 columns per thread, chunks
    of 24 rows; the one-column path otherwise), for every dtype with its own fast path, C order,
    a misaligned 1-D view ("off1": base[1:]), rows sliced from a wider array ("half": base[:, :c]),
    every other column ("step2": base[:, ::2]), F order, all -0.0 ("negzero") and all NaN ("allnan",
    for nancumsum). A case keeps every sub-th element of the
    C-order flattened result and its last one, packed per dtype into scanx_<dtype>.npy from `off`
    (`len` elements): no input is stored, the test computes it as hashed_input does."""
    t1 = {"float32": 8192, "float64": 4096, "int64": 4096, "uint64": 4096}
    cases = []
    for dt, t in t1.items():
        for n in [0, 1, 7, t - 1, t, t + 1, 3 * t + 5, 40 * t + 3]:
            cases.append(("cumsum", dt, (n,), "none", "c"))
        for f in ["cumprod"] + (["nancumsum", "nancumprod"] if dt.startswith("float") else []):
            for n in [t + 1, 40 * t + 3]:
                cases.append((f, dt, (n,), "0", "c"))
        cases.append(("cumsum", dt, (20001,), "0", "off1"))
        # 300 tiles of the own 1-D kernel: more than the blocks resident at once on the H200, so the
        # look-back crosses waves of blocks
        cases.append(("cumsum", dt, (300 * t + 3,), "none", "c"))
    cases.append(("cumsum", "float32", (3, 1048577), "1", "c"))
    cases.append(("cumsum", "float64", (2, 1048576), "m1", "c"))
    for dt in ["float32", "float64", "int64", "uint64"]:
        for shape, ax, view in [((1000, 1028), "0", "c"), ((1000, 1028), "0", "half"), ((3, 50, 12), "1", "c"),
                                ((25, 4), "0", "c"), ((24, 8), "0", "c"), ((1, 8), "0", "c"), ((61, 6), "0", "c"),
                                ((300, 36), "0", "step2"), ((300, 36), "0", "f")]:
            cases.append(("cumsum", dt, shape, ax, view))
        cases.append(("cumprod", dt, (300, 36), "0", "c"))
    for f in ["nancumsum", "nancumprod"]:
        for dt in ["float32", "float64"]:
            cases.append((f, dt, (1000, 1028), "0", "c"))
            cases.append((f, dt, (3, 50, 12), "1", "c"))
    # Signed zeros: NumPy's sums of -0.0 stay -0.0 (1-D, strided-axis and row kernels); nancumsum of
    # NaN alone gives +0.0.
    for dt in ["float32", "float64"]:
        for shape, ax in [((3 * t1[dt] + 5,), "none"), ((30, 8), "0"), ((4, 3000), "1")]:
            cases.append(("cumsum", dt, shape, ax, "negzero"))
        for shape, ax in [((3 * t1[dt] + 5,), "0"), ((30, 8), "0")]:
            cases.append(("nancumsum", dt, shape, ax, "allnan"))
    packs = {}
    for f, dt, shape, ax, view in cases:
        n = int(np.prod(shape))
        if view in ("negzero", "allnan"):
            x = np.full(shape, -0.0 if view == "negzero" else np.nan, dtype=dt)
        elif view == "off1":
            x = hashed_input(dt, f, n + 1)[1:]
        elif view == "half":
            x = hashed_input(dt, f, 2 * n).reshape(shape[0], 2 * shape[1])[:, : shape[1]]
        elif view == "step2":
            x = hashed_input(dt, f, 2 * n).reshape(shape[0], 2 * shape[1])[:, ::2]
        else:
            x = hashed_input(dt, f, n).reshape(shape)
            if view == "f":
                x = np.asfortranarray(x)
        axv = None if ax == "none" else int(ax.replace("m", "-"))
        r = getattr(np, f)(x, axis=axv)
        sub = max(1, n // 1000)
        if sub > 1 and sub % 2 == 0:
            sub += 1
        flat = r.reshape(-1)
        pick = list(range(0, n, sub))
        if n > 0 and pick[-1] != n - 1:
            pick.append(n - 1)
        case = f"scanx_{f}_{dt}_{'x'.join(map(str, shape))}_{ax}_{view}"
        off = sum(len(p) for p in packs.setdefault(dt, []))
        packs[dt].append(flat[pick])
        if dt.startswith("int") or dt.startswith("uint"):
            rt = 0.0
        else:
            # Any summation order is as right as NumPy's sequential one: allow a few times NumPy's own
            # error against the float64 / longdouble scan of the same input, with a floor. Products:
            # also at least 8 sqrt(L) u (L factors along the axis, u the unit roundoff), since the
            # relative rounding errors of an L-factor product add up (a random walk of typical size
            # sqrt(L) u; Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., sec. 3.1)
            # in a parallel scan's association order as in NumPy's loop, independently of each other.
            wide = getattr(np, f)(x.astype(np.longdouble if dt == "float64" else np.float64), axis=axv)
            ok = np.isfinite(wide) & (wide != 0)
            rel = float(np.max(np.abs(r[ok] - wide[ok]) / np.abs(wide[ok]))) if ok.any() else 0.0
            rt = max(4 * rel, 2e-6 if dt == "float32" else 1e-13)
            if f.endswith("cumprod"):
                length = n if axv is None else shape[axv]
                rt = max(rt, 8 * float(np.sqrt(max(length, 1))) * float(np.finfo(dt).eps) / 2)
        add(case, "scanx", f, dt, axv, False, 0, n, rt, 0.0, shape=list(shape), view=view, sub=sub, off=off,
            len=len(pick))
    s.group("scanx")
    for dt, parts in packs.items():
        s.array(f"scanx_{dt}", np.concatenate(parts))


def make_input(dt, rng):
    shape = (3, 4, 5)
    if dt == "bool":
        return rng.random(shape) < 0.6
    if dt.startswith("int"):
        info = np.iinfo(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return rng.integers(lo, hi, shape).astype(dt)
    if dt.startswith("uint"):
        return rng.integers(0, 200, shape).astype(dt)
    # Magnitudes in [0.8, 1.25] with random signs keep float16 products in range.
    mag = rng.uniform(0.8, 1.25, shape) * np.where(rng.random(shape) < 0.5, -1, 1)
    if dt.startswith("complex"):
        mag = mag + 1j * rng.uniform(-1, 1, shape)
    return mag.astype(dt)


def red_tol(func, dt):
    """(rtol, atol) of func on dtype dt: exact for integer results, else by the working precision."""
    float_res = func in ("mean", "var", "std", "nanmean", "nanvar", "nanstd")
    if dt in ("float16",):
        return (2e-2, 2e-3) if func in ("var", "std", "nanvar", "nanstd", "prod", "nanprod", "cumprod",
                                         "nancumprod") else (4e-3, 2e-3)
    if dt in ("float32", "complex64"):
        return (2e-5, 1e-6)
    if dt in ("float64", "complex128") or float_res:
        return (1e-12, 1e-13)
    return (0.0, 0.0)


AXES = [("none", None, False), ("0", 0, False), ("1", 1, False), ("m1", -1, False), ("02", (0, 2), False),
        ("12k", (1, 2), True), ("nonek", None, True), ("m3m1", (-3, -1), False), ("empty", (), False)]
ARG_AXES = [("none", None, False), ("0", 0, False), ("m1", -1, False), ("1k", 1, True), ("nonek", None, True)]


def axis_str(ax):
    """The axis as it appears in case names."""
    if ax is None:
        return "none"
    if isinstance(ax, tuple):
        return ",".join(str(a) for a in ax) if ax else "()"
    return str(ax)


def red_funcs(dt):
    fs = ["sum", "prod", "mean", "min", "max", "any", "all", "count_nonzero", "var", "std"]
    if dt != "bool":
        fs.append("ptp")
    fs += ["nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanvar", "nanstd"]
    return fs


def call(func, a, ax, keepdims, ddof=0):
    f = getattr(np, func)
    if func in ("var", "std", "nanvar", "nanstd"):
        return f(a, axis=ax, keepdims=keepdims, ddof=ddof)
    if func == "count_nonzero":
        r = np.count_nonzero(a, axis=ax, keepdims=keepdims)
        return np.asarray(r, dtype=np.int64)
    return f(a, axis=ax, keepdims=keepdims)


def main():
    rng = s.rng(20251)
    warnings.simplefilter("ignore")
    inputs = {}
    for dt in DTYPES:
        s.group(f"sweep_{dt}")
        a = make_input(dt, rng)
        inputs[dt] = a
        s.array(f"in_{dt}", a)
        big = np.zeros((3, 8, 10), dtype=dt)
        big[:, ::2, ::2] = a
        s.array(f"big_{dt}", big)
        src = {"in": a}
        if dt in INEXACT:
            n = a.copy()
            flat = n.reshape(-1)
            for i in (0, 59, 7, 13, 22, 38):
                flat[i] = np.nan
            s.array(f"nan_{dt}", n)
            src["nan"] = n
        for sname, x in src.items():
            for func in red_funcs(dt):
                if sname == "nan" and func in ("any", "all", "count_nonzero"):
                    continue
                for an, ax, kd in AXES:
                    if func == "ptp" and ax == ():
                        continue
                    for ddof in ([0, 1] if func in ("var", "std", "nanvar", "nanstd") else [0]):
                        r = call(func, x, ax, kd, ddof)
                        case = f"{sname}_{dt}_{func}_{an}_d{ddof}"
                        s.array(case, r)
                        rt, at = red_tol(func, dt)
                        add(case, "reduce", func, dt, ax, kd, ddof, 0, rt, at)
            for func in ["argmin", "argmax", "nanargmin", "nanargmax"]:
                for an, ax, kd in ARG_AXES:
                    r = np.asarray(getattr(np, func)(x, axis=ax, keepdims=kd), dtype=np.int64)
                    case = f"{sname}_{dt}_{func}_{an}"
                    s.array(case, r)
                    add(case, "arg", func, dt, ax, kd, 0, 0, 0.0, 0.0)
            for func in ["cumsum", "cumprod", "nancumsum", "nancumprod"]:
                for an, ax in [("none", None), ("0", 0), ("1", 1), ("m1", -1)]:
                    r = getattr(np, func)(x, axis=ax)
                    case = f"{sname}_{dt}_{func}_{an}"
                    s.array(case, r)
                    rt, at = red_tol(func, dt)
                    add(case, "scan", func, dt, ax, 0, 0, 0, rt, at)
        # diff: n = 1 along the last axis, n = 2 along axis 0, n = 3 along axis 1 (longer than 2nd axis - 1).
        for n, ax in [(1, -1), (2, 0), (4, 1), (0, 1)]:
            r = np.diff(a, n=n, axis=ax)
            case = f"in_{dt}_diff_n{n}_{axis_str(ax)}"
            s.array(case, r)
            add(case, "diff", "diff", dt, ax, 0, 0, n, *red_tol("diff", dt))
    # prepend / append: a 0-d prepend and an array append along axis 1 (float64 with int32 parts).
    s.group("cases")
    a = inputs["float64"]
    pre = np.asarray(2.5)
    app = np.arange(3 * 2 * 5, dtype=np.int32).reshape(3, 2, 5)
    s.array("diff_pre", pre)
    s.array("diff_app", app)
    s.array("diff_prepend_append", np.diff(a, axis=1, prepend=pre, append=app))
    add("diff_prepend_append", "diff_pa", "diff", "float64", 1, 0, 0, 1, 1e-12, 1e-13)

    # Broadcast inputs (zero strides): (4, 5) broadcast to (3, 4, 5).
    for dt in ["int32", "float64", "complex64"]:
        b = inputs[dt][0]
        bb = np.broadcast_to(b, (3, 4, 5))
        s.array(f"bc_{dt}", b)
        for func in ["sum", "mean", "max", "var", "argmax", "cumsum"]:
            for an, ax in [("none", None), ("0", 0), ("12", (1, 2))]:
                if func in ("argmax", "cumsum") and isinstance(ax, tuple):
                    continue
                r = np.asarray(getattr(np, func)(bb, axis=ax))
                if func == "argmax":
                    r = r.astype(np.int64)
                case = f"bc_{dt}_{func}_{an}"
                s.array(case, r)
                add(case, "bcast", func, dt, ax, 0, 0, 0, *red_tol(func, dt))

    # All-NaN slices: nanmin / nanmax / nanmean / nanvar give NaN, nansum 0, nanprod 1; nanargmax raises.
    for dt in ["float32", "float64", "complex128"]:
        x = np.ones((3, 4), dtype=dt)
        x[1, :] = np.nan
        x[2, 0] = np.nan
        s.array(f"allnan_{dt}", x)
        for func in ["nanmin", "nanmax", "nanmean", "nanvar", "nansum", "nanprod", "nanstd"]:
            if dt.startswith("complex") and func in ("nanmin", "nanmax"):
                continue
            r = getattr(np, func)(x, axis=1)
            case = f"allnan_{dt}_{func}"
            s.array(case, r)
            add(case, "allnan", func, dt, 1, 0, 0, 0, *red_tol(func, dt))
        for func in ["nanargmin", "nanargmax"]:
            add(f"allnan_{dt}_{func}", "error", func, dt, 1, 0, 0, 0, error="value_error")
            # axis 0 has no all-NaN column: fine
            r = np.asarray(getattr(np, func)(x, axis=0), dtype=np.int64)
            s.array(f"allnan_{dt}_{func}_0", r)
            add(f"allnan_{dt}_{func}_0", "allnan_arg", func, dt, 0)

    # Edge values: +-inf, NaN first / last for argmax, min, max (float64 row vectors).
    e = np.array([[np.nan, 1.0, np.inf, -np.inf, 2.0], [3.0, -np.inf, np.inf, 0.0, np.nan],
                  [np.inf, np.inf, -1.0, -np.inf, -np.inf]])
    s.array("edge_in", e)
    for func in ["argmin", "argmax", "nanargmin", "nanargmax", "min", "max", "nanmin", "nanmax", "sum", "ptp"]:
        r = np.asarray(getattr(np, func)(e, axis=1))
        if func.startswith("arg") or func.startswith("nanarg"):
            r = r.astype(np.int64)
        s.array(f"edge_{func}", r)
        add(f"edge_{func}", "edge", func, "float64", 1, 0, 0, 0, 0.0, 0.0)

    # Sizes 0 and 1.
    z = np.zeros((2, 0), dtype=np.float32)
    for func, ax in [("sum", 1), ("prod", 1), ("mean", 1), ("any", 1), ("all", 1), ("count_nonzero", 1),
                     ("var", 1), ("nansum", 1), ("nanmean", 1), ("sum", None), ("mean", None), ("min", 0),
                     ("argmax", 0), ("cumsum", 1), ("cumsum", None), ("std", None)]:
        r = np.asarray(call(func, z, ax, False) if func not in ("argmax", "cumsum") else getattr(np, func)(z, axis=ax))
        if func in ("argmax", "count_nonzero"):
            r = r.astype(np.int64)
        case = f"zero_{func}_{axis_str(ax)}"
        s.array(case, r)
        add(case, "zero", func, "float32", ax, 0, 0, 0, 0.0, 0.0)
    one = np.array([[7.5]], dtype=np.float64)
    for func in ["sum", "var", "argmax", "ptp", "std", "cumsum", "mean"]:
        r = np.asarray(getattr(np, func)(one, axis=None) if func != "std" else np.std(one, ddof=1))
        if func == "argmax":
            r = r.astype(np.int64)
        s.array(f"one_{func}", r)
        add(f"one_{func}", "one", func, "float64", None, 0, 1 if func == "std" else 0, 0, 0.0, 0.0)

    # Errors: zero-size min/max/argmax/ptp, bad axis, repeated axis, diff n < 0 / 0-d.
    for func, shape, ax, err in [("min", "2,0", "1", "value"), ("max", "0", "none", "value"),
                                  ("argmax", "0", "none", "value"), ("argmin", "3,0", "1", "value"),
                                  ("ptp", "0,3", "0", "value"), ("nanmin", "0", "none", "value"),
                                  ("nanargmax", "0", "none", "value"), ("sum", "2,3", "2", "index"),
                                  ("sum", "2,3", "m3", "index"), ("mean", "2,3", "0,0", "value"),
                                  ("var", "2,3", "1,m1", "value"), ("argmax", "2,3", "2", "index"),
                                  ("cumsum", "2,3", "2", "index"), ("any", "2,3", "m3", "index")]:
        # Check the expectation against NumPy itself.
        axv = None if ax == "none" else tuple(int(v.replace("m", "-")) for v in ax.split(","))
        if axv is not None and len(axv) == 1:
            axv = axv[0]
        x = np.zeros(tuple(int(s) for s in shape.split(",")))
        try:
            getattr(np, func)(x, axis=axv)
            raise SystemExit(f"{func} {shape} {ax}: NumPy did not raise")
        except np.exceptions.AxisError:
            assert err == "index"
        except ValueError:
            assert err == "value"
        add(f"err_{func}_{shape}_{ax}", "error", func, "float64", axv, 0, 0, 0, error=err + "_error",
            shape=list(x.shape))

    # Large float32 cases from a hash: x[i] = float32(h / 2^32 + 0.25), h = (i * 2654435761) mod 2^32.
    n = 1_000_003
    h = (np.arange(n, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(2**32)
    x = (h.astype(np.float64) / 2.0**32 + 0.25).astype(np.float32)
    exact = np.cumsum(x.astype(np.float64))
    c32 = np.cumsum(x)
    rel = float(np.max(np.abs(c32.astype(np.float64) - exact) / exact))
    s.group("big")
    s.array("big_cumsum_every1000", c32[::1000])
    # NumPy's float32 cumsum is sequential: its own relative error (rel) bounds how far any other
    # float32 scan order may land from it; allow three times that.
    add("big_cumsum_every1000", "big", "cumsum", "float32", None, 0, 0, n, max(3 * rel, 1e-6), 0.0)
    for func in ["sum", "mean", "var", "std", "max", "argmax", "min", "argmin", "nansum"]:
        r = np.asarray(getattr(np, func)(x))
        if func.startswith("arg"):
            r = r.astype(np.int64)
        s.array(f"big_{func}", r)
        add(f"big_{func}", "big", func, "float32", None, 0, 0, n, 1e-5 if func in ("sum", "nansum", "mean", "var", "std") else 0.0, 0.0)
    # 2-D: (1000, 1003) sums and cumsum along axis 0 (column scan), every 997th element.
    x2 = x[: 1000 * 1000].reshape(1000, 1000)
    s.array("big2_sum_0", np.sum(x2, axis=0))
    s.array("big2_sum_1", np.sum(x2, axis=1))
    s.array("big2_var_0", np.var(x2, axis=0))
    s.array("big2_argmax_0", np.argmax(x2, axis=0).astype(np.int64))
    c0 = np.cumsum(x2, axis=0)
    s.array("big2_cumsum_0_every997", c0.reshape(-1)[::997])
    c1 = np.cumsum(x2, axis=1)
    s.array("big2_cumsum_1_every997", c1.reshape(-1)[::997])
    for c in ["big2_sum_0", "big2_sum_1", "big2_var_0", "big2_argmax_0", "big2_cumsum_0_every997",
              "big2_cumsum_1_every997"]:
        add(c, "big2", c.split("_")[1], "float32", int(c.split("_")[2]), 0, 0, 1000, 0.0 if "argmax" in c else 2e-5, 0.0)

    scan_sweep()

    s.write()

if __name__ == "__main__":
    main()
