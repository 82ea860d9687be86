#!/usr/bin/env python3
"""Reference data for cusci core's sorting family (sort, argsort, partition, argpartition, searchsorted,
unique, nonzero, argwhere, flatnonzero, bincount, histogram), computed with NumPy, written through
golden.py.

Params of every case: dtype (cusci dtype of the input; float16 inputs are stored as float32 and cast by
the test), layout (C; F = Fortran-order copy; S2 = rows [::2] of the stored array; R = rows [::-1]),
axis (null for axis=None), and the function's options: kth (list); side, vdtype, sorter; index,
inverse, counts, equal_nan; ndim; weights (dtype name or null), minlength; density, bins (a count, or
the name of the edges array), range ([lo, hi] or null). Arrays: <case>_x input, <case>_<name> expected
outputs. The error cases of the C++ tests are checked here against NumPy (the same calls raise the
same exception kind).
"""
import numpy as np

from golden import Suite

s = Suite("core_sorting")
rng = s.rng(20261130)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def store(case, name, arr):
    """Stores `arr` as array <case>_<name>; returns that name."""
    return s.array(f"{case}_{name}", arr)


def store_input(case, x):
    """float16 is stored as float32 (exact), the rest as is."""
    store(case, "x", x.astype(np.float32) if x.dtype == np.float16 else x)


def values(dt, shape, special=True, dup=True):
    n = int(np.prod(shape))
    dt = np.dtype(dt)
    if dt == np.bool_:
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        if dup:
            x = rng.integers(max(info.min, -6), min(info.max, 6) + 1, n).astype(dt)
        else:
            x = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        if n >= 4 and not dup:
            x[:2] = [info.min, info.max]
    elif dt.kind == "f":
        x = (rng.integers(-8, 8, n) / 4.0).astype(dt) if dup else rng.standard_normal(n).astype(dt)
        if special and n >= 8:
            k = rng.choice(n, 8, replace=False)
            x[k] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan, -0.0, -np.nan], dtype=dt)
    else:
        re = rng.integers(-3, 3, n) / 2.0
        im = rng.integers(-3, 3, n) / 2.0
        x = (re + 1j * im).astype(dt)
        if special and n >= 8:
            k = rng.choice(n, 6, replace=False)
            r = np.array([np.nan, 1.0, np.nan, -0.0, np.inf, 0.5])
            i = np.array([0.0, np.nan, np.nan, 0.0, 1.0, np.nan])
            x[k] = (r + 1j * 0).astype(dt)
            x.imag[k] = i
    return x.reshape(shape)


def apply_layout(stored, layout):
    if layout == "C":
        return stored
    if layout == "F":
        return np.asfortranarray(stored)
    if layout == "S2":
        return stored[::2]
    if layout == "R":
        return stored[::-1]
    raise ValueError(layout)


def stored_for(dt, shape, layout, **kw):
    if layout == "S2":
        base = values(dt, (2 * shape[0],) + tuple(shape[1:]), **kw)
    else:
        base = values(dt, shape, **kw)
    return base


def add(case, func, dt, layout="C", axis=-1, rtol=0.0, atol=0.0, **options):
    s.case(case, func=func, rtol=rtol, atol=atol, dtype=dt, layout=layout, axis=axis, **options)


def main():
    n_case = 0

    # --- sort / argsort: dtype sweep x sizes x axes x layouts ------------------------------------
    s.group("sort")
    specs = [((0,), -1, "C"), ((1,), -1, "C"), ((7,), -1, "C"), ((301,), -1, "C"), ((301,), None, "R"),
             ((5, 33), -1, "C"), ((5, 33), 0, "F"), ((6, 9), 1, "S2"), ((4, 0), 1, "C"), ((3, 4, 5), 1, "C"),
             ((3, 4, 5), None, "F"), ((4, 6), 0, "R")]
    for dt in DTYPES:
        for shape, axis, layout in specs:
            case = f"sort{n_case}"
            n_case += 1
            base = stored_for(dt, shape, layout)
            x = apply_layout(base, layout)
            store_input(case, base)
            # kind="stable": NumPy's default (SIMD) sort of floats does not keep -0.0 / +0.0 in input
            # order, so only the stable sort defines the zero signs that are compared bit for bit
            srt = np.sort(x, axis=axis, kind="stable")
            store(case, "sorted", srt.astype(np.float32) if dt == "float16" else srt)
            store(case, "argsorted", np.argsort(x, axis=axis, kind="stable"))
            add(case, "sort", dt, layout, axis)
    # many ties, larger sizes (stable order of equal keys; a few rows long enough for CUB's large paths)
    for dt in ["int32", "float32", "float64", "int64", "uint8", "complex64"]:
        for shape, axis in [((3000,), -1), ((2, 1500), -1), ((1000, 3), 0)]:
            case = f"sort{n_case}"
            n_case += 1
            base = values(dt, shape)
            store_input(case, base)
            store(case, "sorted", np.sort(base, axis=axis, kind="stable"))
            store(case, "argsorted", np.argsort(base, axis=axis, kind="stable"))
            add(case, "sort", dt, "C", axis)

    # --- partition / argpartition ---------------------------------------------------------------
    s.group("partition_searchsorted_unique")
    for dt, shape, axis, kth in [("float64", (40,), -1, [3]), ("int32", (6, 17), -1, [0, 5, 16]),
                                 ("float32", (9, 5), 0, [-1]), ("uint16", (50,), None, [25, -3]),
                                 ("complex64", (20,), -1, [7])]:
        case = f"part{n_case}"
        n_case += 1
        base = values(dt, shape)
        store_input(case, base)
        np.partition(base, kth, axis=axis)  # NumPy accepts these kth
        store(case, "sorted", np.sort(base, axis=axis, kind="stable"))
        add(case, "partition", dt, "C", axis, kth=kth)

    # --- searchsorted ---------------------------------------------------------------------------
    for adt, vdt, side, use_sorter in [("float64", "float64", "left", False), ("float64", "float64", "right", False),
                                       ("float32", "float32", "left", True), ("int32", "float64", "right", False),
                                       ("uint8", "int16", "left", False), ("int64", "int64", "right", True),
                                       ("complex64", "complex64", "left", False),
                                       ("complex128", "complex128", "right", False),
                                       ("bool", "bool", "right", False), ("float16", "float16", "left", False)]:
        case = f"ss{n_case}"
        n_case += 1
        a = values(adt, (60,))
        v = values(vdt, (4, 9))
        if use_sorter:
            srt = np.argsort(a, kind="stable")
            a_in = a
        else:
            a_in = np.sort(a)
            srt = None
        store(case, "a", a_in.astype(np.float32) if adt == "float16" else a_in)
        store(case, "v", v.astype(np.float32) if vdt == "float16" else v)
        if srt is not None:
            store(case, "sorter", srt)
        store(case, "out", np.searchsorted(a_in, v, side=side, sorter=srt))
        add(case, "searchsorted", adt, "C", None, side=side, vdtype=vdt, sorter=use_sorter)
    # empty a
    case = f"ss{n_case}"
    n_case += 1
    store(case, "a", np.zeros(0))
    store(case, "v", np.array([1.0, np.nan]))
    store(case, "out", np.searchsorted(np.zeros(0), np.array([1.0, np.nan])))
    add(case, "searchsorted", "float64", "C", None, side="left", vdtype="float64", sorter=False)

    # --- unique ---------------------------------------------------------------------------------
    def unique_case(x, stored, dt, layout, equal_nan=True):
        nonlocal n_case
        for flags in range(8):
            ri, rv, rc = bool(flags & 1), bool(flags & 2), bool(flags & 4)
            case = f"uniq{n_case}"
            n_case += 1
            store_input(case, stored)
            r = np.unique(x, return_index=ri, return_inverse=rv, return_counts=rc, equal_nan=equal_nan)
            if not (ri or rv or rc):
                r = (r,)
            vals = r[0]
            store(case, "values", vals.astype(np.float32) if dt == "float16" else vals)
            j = 1
            if ri:
                store(case, "index", r[j]); j += 1
            if rv:
                inv = r[j]
                if not equal_nan and not ri:
                    # Without return_index NumPy orders equal keys with its unstable quicksort, so which
                    # of several NaNs (distinct when equal_nan=False) gets which slot is unspecified;
                    # cusci's sort is stable: take NumPy's stable answer (the return_index path).
                    inv = np.unique(x, return_index=True, return_inverse=True, equal_nan=False)[2]
                store(case, "inverse", inv); j += 1
            if rc:
                store(case, "counts", r[j]); j += 1
            add(case, "unique", dt, layout, None, index=ri, inverse=rv, counts=rc, equal_nan=equal_nan)

    for dt in DTYPES:
        base = values(dt, (41,))
        unique_case(base, base, dt, "C")
    base = values("float64", (8, 7))
    unique_case(np.asfortranarray(base), base, "float64", "F")
    base = values("float32", (50,))
    unique_case(base, base, "float32", "C", equal_nan=False)
    base = values("complex128", (30,))
    unique_case(base, base, "complex128", "C", equal_nan=False)
    base = values("int32", (0,))
    unique_case(base, base, "int32", "C")
    base = values("int16", (2, 3, 4))
    unique_case(base, base, "int16", "C")

    # --- nonzero / argwhere / flatnonzero -------------------------------------------------------
    s.group("nonzero_bincount_histogram")
    for dt, shape, layout in [("bool", (37,), "C"), ("int8", (5, 7), "F"), ("float32", (4, 6), "S2"),
                              ("complex64", (3, 4, 5), "C"), ("float64", (0, 3), "C"), ("uint64", (9,), "R"),
                              ("int32", (1,), "C"), ("float16", (13,), "C"), ("complex128", (11,), "C"),
                              ("int16", (2, 3, 2, 3), "C")]:
        case = f"nz{n_case}"
        n_case += 1
        base = stored_for(dt, shape, layout)
        x = apply_layout(base, layout)
        store_input(case, base)
        for d, idx in enumerate(np.nonzero(x)):
            store(case, f"nz{d}", idx)
        store(case, "argwhere", np.argwhere(x))
        store(case, "flat", np.flatnonzero(x))
        add(case, "nonzero", dt, layout, None, ndim=x.ndim)
    case = f"nz{n_case}"
    n_case += 1
    x = np.array(5.0)
    store(case, "x", x)
    store(case, "argwhere", np.argwhere(x))
    store(case, "flat", np.flatnonzero(x))
    add(case, "nonzero", "float64", "C", None, ndim=0)

    # --- bincount -------------------------------------------------------------------------------
    for dt, n, hi, wdt, minlength, layout in [("int64", 500, 40, "", 0, "C"), ("int32", 333, 7, "float64", 0, "C"),
                                              ("uint8", 200, 255, "float32", 300, "R"), ("int16", 0, 1, "", 5, "C"),
                                              ("uint64", 64, 20000, "", 0, "S2"), ("bool", 50, 2, "int32", 0, "C"),
                                              ("int8", 100, 100, "float64", 0, "C"), ("uint32", 1, 3, "", 0, "C"),
                                              ("int64", 3000, 9000, "float64", 10, "C")]:
        case = f"bc{n_case}"
        n_case += 1
        m = 2 * n if layout == "S2" else n
        base = rng.integers(0, hi, m).astype(dt)
        x = apply_layout(base, layout)
        store(case, "x", base)
        w = None
        if wdt:
            w = (rng.standard_normal(n) * 3).astype(wdt) if wdt != "int32" else rng.integers(-5, 5, n).astype(wdt)
            store(case, "w", w)
        store(case, "out", np.bincount(x, weights=w, minlength=minlength))
        add(case, "bincount", dt, layout, None, rtol=1e-12, atol=1e-12, weights=wdt or None, minlength=minlength)

    # --- histogram ------------------------------------------------------------------------------
    hist_specs = [
        ("float64", (1000,), 10, None, "", False),
        ("float32", (999,), 7, None, "", False),
        ("float32", (31, 17), 1000, None, "", False),
        ("float64", (500,), 13, (-1.0, 2.5), "float64", False),
        ("float32", (500,), 5, (0.0, 1.0), "float32", True),
        ("int32", (400,), 8, None, "", False),
        ("int32", (400,), 10, (0.0, 10.0), "", False),   # integer data on the edges exactly
        ("uint8", (300,), 17, None, "int64", False),
        ("float64", (0,), 4, None, "", False),
        ("float64", (50,), 3, None, "", True),
        ("float64", (1,), 5, None, "", False),        # one value: range expanded by 0.5
        ("float32", (20,), 4, (0.5, 0.5), "", False),  # empty range expanded
        ("float16", (200,), 9, None, "", False),
        ("int64", (300,), 6, (-2.0, 3.0), "float32", True),
        ("float64", (100,), "edges", None, "", False),
        ("float32", (100,), "edges_int", None, "float64", False),
        ("int32", (100,), "edges", None, "", True),
        ("float64", (60,), "edges_rep", None, "", False),
        ("float64", (0,), "edges", None, "", False),
    ]
    for dt, shape, bins, rng_, wdt, density in hist_specs:
        case = f"hist{n_case}"
        n_case += 1
        npdt = np.dtype(dt)
        n = int(np.prod(shape))
        if npdt.kind == "f":
            x = rng.uniform(-1.0, 2.0, n).astype(dt)
            if n >= 10:
                x[:4] = np.array([-1.0, 2.0, 0.5, 0.25], dtype=dt)
            if rng_ is not None and n >= 10:
                x[4] = np.nan  # dropped with an explicit range
        else:
            x = rng.integers(0, 11, n).astype(dt)
        if dt == "float32" and shape == (20,):
            x[:] = np.float32(0.5)
        if dt == "float64" and shape == (1,):
            x[:] = 3.0
        x = x.reshape(shape)
        store_input(case, x)
        w = None
        if wdt:
            w = (rng.uniform(0, 3, n)).astype(wdt).reshape(shape) if wdt != "int64" else \
                rng.integers(0, 5, n).astype(wdt).reshape(shape)
            store(case, "w", w)
        options = dict(weights=wdt or None, density=density, range=rng_)
        if isinstance(bins, str):
            if bins == "edges":
                e = np.array([-1.0, -0.2, 0.0, 0.5, 1.7, 2.0]) if npdt.kind == "f" else np.array([0.0, 2.5, 3.0, 7.0, 10.0])
            elif bins == "edges_int":
                e = np.array([-1, 0, 1, 2], dtype=np.int64)
            else:
                e = np.array([-1.0, 0.0, 0.0, 1.0, 2.0])
            options["bins"] = store(case, "edges", e)
            h, be = np.histogram(x, bins=e, weights=w, density=density)
        else:
            h, be = np.histogram(x, bins=bins, range=rng_, weights=w, density=density)
            options["bins"] = bins
        store(case, "hist", h.astype(np.float32) if h.dtype == np.float16 else h)
        store(case, "edges_out", be.astype(np.float32) if be.dtype == np.float16 else be)
        rt = 1e-12 if (wdt or density) else 0.0
        if wdt == "float32" or (density and dt == "float32"):
            rt = 1e-5
        add(case, "histogram", dt, "C", None, rtol=rt, atol=0.0, **options)

    # --- fast paths (separate generator: the cases above keep their data) ----------------------------
    s.group("fast_paths")
    r2 = s.rng(20261201)

    # sort of one contiguous float32/float64 sequence (CUB's native float order, then the NaNs with
    # the sign bit set rotated to the end): NaNs of both signs and several payloads, zeros of both
    # signs, infinities; prefix lengths c of sign-bit NaNs with c and n - c odd/even, c = n, and
    # sizes past CUB's one-tile sort
    def nan_bits(dt, neg, payload):
        if dt == "float32":
            u = np.uint32(0x7FC00000 | payload) | (np.uint32(0x80000000) if neg else np.uint32(0))
            return np.array([u], dtype=np.uint32).view(np.float32)[0]
        u = np.uint64(0x7FF8000000000000 | payload) | (np.uint64(1 << 63) if neg else np.uint64(0))
        return np.array([u], dtype=np.uint64).view(np.float64)[0]

    for dt in ["float32", "float64"]:
        for n, c_neg, c_pos, shape in [(2, 1, 0, None), (5, 5, 0, None), (8, 3, 0, None), (9, 4, 2, None),
                                       (9, 0, 3, None), (1001, 37, 20, None), (150, 11, 4, (3, 50)),
                                       (6000 if dt == "float32" else 3000, 1501, 700, None)]:
            case = f"sortnf{n_case}"
            n_case += 1
            x = r2.standard_normal(n).astype(dt)
            k = r2.permutation(n)
            x[k[:c_neg]] = [nan_bits(dt, True, int(p)) for p in r2.integers(0, 5, c_neg)]
            x[k[c_neg:c_neg + c_pos]] = [nan_bits(dt, False, int(p)) for p in r2.integers(0, 5, c_pos)]
            rest = k[c_neg + c_pos:]
            if len(rest) >= 8:
                x[rest[:8]] = np.array([-0.0, 0.0, np.inf, -np.inf, -0.0, -0.0, 0.0, -np.inf], dtype=dt)
            if shape is not None:
                x = x.reshape(shape)
            store_input(case, x)
            store(case, "sorted", np.sort(x, axis=None if shape is not None else -1, kind="stable"))
            if n <= 1001:
                store(case, "argsorted", np.argsort(x, axis=None if shape is not None else -1, kind="stable"))
            # "sortv": sorted values only (argsort does not take this path; keeps the data small)
            add(case, "sort" if n <= 1001 else "sortv", dt, "C", None if shape is not None else -1)

    # bincount: the first pass's shared bins (max < 4096, weighted < 2048) and its edges, the second
    # pass in shared memory and with global atomics (counts: warp-aggregated; one repeated value),
    # minlength beyond the first pass's bins, strided inputs
    for dt, n, lo, hi, wdt, minlength, layout in [
            ("int64", 2000, 0, 1024, "", 0, "C"), ("int32", 300, 0, 4097, "", 0, "C"),
            ("int64", 500, 0, 16500, "", 0, "S2"), ("int32", 500, 0, 2048, "float64", 0, "C"),
            ("int64", 500, 0, 2049, "float32", 0, "R"), ("int64", 300, 0, 8300, "float64", 0, "C"),
            ("int64", 700, 0, 100, "", 4200, "C"),
            ("int64", 700, 0, 100, "float64", 50, "C"), ("int64", 1, 0, 1, "", 0, "C"),
            ("uint16", 300, 0, 5000, "", 0, "C"), ("int32", 4000, 0, 3, "", 0, "S2")]:
        case = f"bcf{n_case}"
        n_case += 1
        m = 2 * n if layout == "S2" else n
        base = r2.integers(lo, hi, m).astype(dt)
        if hi == 16500:
            base[: m // 2] = 16400  # one value in most lanes of the global-atomic pass
        if hi in (2049, 4097):
            base[m // 3] = hi - 1  # max(x) one past the first pass's bins
        x = apply_layout(base, layout)
        store(case, "x", base)
        w = None
        if wdt:
            w = (r2.standard_normal(n) * 3).astype(wdt)
            store(case, "w", w)
        store(case, "out", np.bincount(x, weights=w, minlength=minlength))
        add(case, "bincount", dt, layout, None, rtol=1e-12, atol=1e-12, weights=wdt or None, minlength=minlength)

    # histogram: sizes past one tile, bins with and without shared counters and staged edges, data on
    # every edge, strided input, explicit edges staged or not
    for dt, n, bins, wdt, layout, kind in [
            ("float32", 6000, 1000, "", "C", "uniform"), ("float32", 1001, 1000, "", "C", "on_edges"),
            ("float64", 1001, 1000, "", "C", "on_edges"),
            ("float32", 1000, 6300, "float64", "C", "uniform"), ("float16", 3000, 300, "", "C", "uniform"),
            ("int64", 1500, 1000, "", "C", "uniform"), ("float32", 1001, 77, "float32", "S2", "uniform"),
            ("float64", 500, "e1500", "", "C", "edges"), ("float64", 500, "e3100", "float64", "C", "edges"),
            ("float32", 300, 4100, "float32", "C", "uniform")]:  # shared sums, edges left in global memory
        case = f"histf{n_case}"
        n_case += 1
        npdt = np.dtype(dt)
        m = 2 * n if layout == "S2" else n
        if kind == "on_edges":
            base = np.linspace(-1.0, 2.0, bins + 1).astype(dt)[r2.permutation(n)]
        elif npdt.kind == "f":
            base = r2.uniform(-1.0, 2.0, m).astype(dt)
        else:
            base = r2.integers(-500, 1500, m).astype(dt)
        x = apply_layout(base, layout)
        store_input(case, base)
        w = None
        if wdt:
            w = r2.uniform(0, 3, n).astype(wdt)
            store(case, "w", w)
        options = dict(weights=wdt or None, density=False, range=None)
        if kind == "edges":
            ne = int(bins[1:])
            e = np.sort(r2.uniform(-1.2, 2.2, ne))
            e[0], e[-1] = -1.2, 2.2
            e[ne // 2] = x[0]  # an element on an inner edge
            e = np.sort(e)
            options["bins"] = store(case, "edges", e)
            h, be = np.histogram(x, bins=e, weights=w)
        else:
            h, be = np.histogram(x, bins=bins, weights=w)
            options["bins"] = bins
        store(case, "hist", h)
        store(case, "edges_out", be.astype(np.float32) if be.dtype == np.float16 else be)
        rt = 1e-12 if wdt else 0.0
        if wdt == "float32":
            rt = 1e-5
        add(case, "histogram", dt, layout, None, rtol=rt, atol=0.0, **options)

    # --- NumPy raises for the error cases the C++ tests check -------------------------------------
    def raises(exc, f):
        try:
            f()
        except exc:
            return
        raise AssertionError(f"NumPy did not raise {exc}")

    raises(np.exceptions.AxisError, lambda: np.sort(np.zeros((2, 3)), axis=2))
    raises(np.exceptions.AxisError, lambda: np.argsort(np.zeros(3), axis=-2))
    raises(np.exceptions.AxisError, lambda: np.sort(np.array(1.0)))
    raises(ValueError, lambda: np.partition(np.arange(5), 5))
    raises(ValueError, lambda: np.partition(np.arange(5), -6))
    raises(ValueError, lambda: np.bincount(np.array([1, -1, 2])))
    raises(TypeError, lambda: np.bincount(np.array([1.0, 2.0])))
    raises(ValueError, lambda: np.bincount(np.zeros((2, 2), np.int64)))
    raises(ValueError, lambda: np.bincount(np.array([1, 2]), minlength=-1))
    raises(ValueError, lambda: np.bincount(np.array([1, 2]), weights=np.ones(3)))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=0))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=-3))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=3, range=(2.0, 1.0)))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=3, range=(0.0, np.inf)))
    raises(ValueError, lambda: np.histogram(np.array([1.0, np.nan]), bins=3))
    raises(ValueError, lambda: np.histogram(np.array([1.0, np.inf]), bins=3))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=np.array([0.0, 2.0, 1.0])))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=np.zeros((2, 2))))
    raises(ValueError, lambda: np.histogram(np.arange(4.0), bins=3, weights=np.ones(3)))
    raises(ValueError, lambda: np.nonzero(np.array(1.0)))
    raises(ValueError, lambda: np.searchsorted(np.zeros((2, 2)), np.zeros(2)))
    raises(ValueError, lambda: np.searchsorted(np.arange(5.0), np.array([4.0]), sorter=np.array([0, 1, 2, 3, 9])))

    s.write()

if __name__ == "__main__":
    main()
