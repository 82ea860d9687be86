#!/usr/bin/env python3
"""Reference data for cusci core's setops family (isin, setdiff1d, intersect1d, union1d, lexsort,
digitize; unravel_index, ravel_multi_index, indices, meshgrid), computed with NumPy, written through
golden.py.

Every case is generic: params `inputs` = [[array name, cusci dtype name, layout], ...] (layout C; F =
Fortran-order copy; R = reversed along axis 0, a negative-stride view; float16 inputs are stored as
float32 and cast by the test) and `outputs` = [[array name, cusci dtype name], ...], the expected
results in order (a function returning a tuple gives several). Options are the remaining params under
NumPy's names. Error cases (`error` set) name the exception NumPy's call raises, checked here.
"""
import numpy as np

from golden import Suite

s = Suite("core_setops")
rng = s.rng(20261202)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
REAL = [d for d in DTYPES if not d.startswith("complex")]
INTS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
MIXED = [("int8", "float64"), ("uint64", "int64"), ("int32", "float32"), ("bool", "int64"), ("uint8", "int8"),
         ("complex64", "float64"), ("float16", "int16"), ("int64", "complex128")]


def values(dt, n, lo=-6, hi=6, special=True):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, lo), min(info.max, hi) + 1, n).astype(dt)
    if dt.kind == "f":
        x = (rng.integers(2 * lo, 2 * hi + 1, n) / 2.0).astype(dt)
        if special and n >= 6:
            k = rng.choice(n, 4, replace=False)
            x[k] = np.array([np.nan, np.inf, -0.0, np.nan], dtype=dt)
        return x
    x = (rng.integers(lo, hi + 1, n) / 2.0 + 1j * rng.integers(-2, 3, n) / 2.0).astype(dt)
    if special and n >= 6:
        k = rng.choice(n, 2, replace=False)
        x[k[0]] = complex(np.nan, 0.0)
        x.imag[k[1]] = np.nan
    return x


def stored(arr):
    return arr.astype(np.float32) if arr.dtype == np.float16 else arr


def layout_of(arr, layout):
    if layout == "F":
        return np.asfortranarray(arr)
    if layout == "R":
        return arr[::-1]
    return arr


def add(case, func, ins, outs, error=None, **params):
    """ins: [(array, layout)] (the array as stored, before the layout); outs: [array]."""
    inputs = []
    for i, (a, layout) in enumerate(ins):
        inputs.append([s.array(f"{case}_in{i}", stored(a)), str(a.dtype), layout])
    outputs = []
    for i, o in enumerate(outs):
        o = np.asarray(o)
        outputs.append([s.array(f"{case}_out{i}", stored(o)), str(o.dtype)])
    s.case(case, func, error=error, inputs=inputs, outputs=outputs, **params)


def run(ins):
    return [layout_of(a, l) for a, l in ins]


# --- isin --------------------------------------------------------------------------------------------
s.group("isin")
pairs = [(d, d) for d in DTYPES] + MIXED
for da, db in pairs:
    for shape, layout in [((3, 5), "C"), ((4, 6), "F"), ((), "C"), ((0,), "C"), ((7,), "R")]:
        a = values(da, int(np.prod(shape))).reshape(shape)
        for tshape in [(9,), (2, 4), (0,)]:
            b = values(db, int(np.prod(tshape))).reshape(tshape)
            for invert in (False, True):
                c = f"isin_{da}_{db}_{len(shape)}{layout}_{len(tshape)}{tshape[0]}_{int(invert)}"
                ins = [(a, layout), (b, "C")]
                x, y = run(ins)
                add(c, "isin", ins, [np.isin(x, y, invert=invert)], invert=invert,
                    kind="table" if (da in INTS and db in INTS and invert) else None)
                if tshape[0] == 0 or shape == ():
                    break

# --- setdiff1d, union1d, intersect1d --------------------------------------------------------------------
s.group("sets")
for da, db in pairs:
    for n1, n2, layout in [(20, 15, "C"), (12, 0, "C"), (0, 9, "C"), (18, 11, "R")]:
        a, b = values(da, n1), values(db, n2)
        if n1 == 18:
            a, b = a.reshape(6, 3), b
        ins = [(a, layout), (b, "C")]
        x, y = run(ins)
        tag = f"{da}_{db}_{n1}_{n2}"
        add(f"setdiff1d_{tag}", "setdiff1d", ins, [np.setdiff1d(x, y)], assume_unique=False)
        add(f"union1d_{tag}", "union1d", ins, [np.union1d(x, y)])
        add(f"intersect1d_{tag}", "intersect1d", ins, [np.intersect1d(x, y)], assume_unique=False,
            return_indices=False)
        add(f"intersect1di_{tag}", "intersect1d", ins, list(np.intersect1d(x, y, return_indices=True)),
            assume_unique=False, return_indices=True)
    # assume_unique with unique inputs (NaN-free: NumPy's unique keeps one NaN, which is unique too)
    ua = rng.permutation(np.unique(values(da, 30, special=False)))
    ub = rng.permutation(np.unique(values(db, 25, special=False)))
    ins = [(ua, "C"), (ub, "C")]
    tag = f"{da}_{db}_u"
    add(f"setdiff1d_{tag}", "setdiff1d", ins, [np.setdiff1d(ua, ub, assume_unique=True)], assume_unique=True)
    add(f"intersect1d_{tag}", "intersect1d", ins, [np.intersect1d(ua, ub, assume_unique=True)],
        assume_unique=True, return_indices=False)
    add(f"intersect1di_{tag}", "intersect1d", ins,
        list(np.intersect1d(ua, ub, assume_unique=True, return_indices=True)), assume_unique=True,
        return_indices=True)
# larger duplicates-heavy inputs
for dt in ["int64", "float64", "int8"]:
    a, b = values(dt, 5000, -40, 40), values(dt, 3000, -20, 60)
    ins = [(a, "C"), (b, "C")]
    add(f"setdiff1d_{dt}_big", "setdiff1d", ins, [np.setdiff1d(a, b)], assume_unique=False)
    add(f"union1d_{dt}_big", "union1d", ins, [np.union1d(a, b)])
    add(f"intersect1di_{dt}_big", "intersect1d", ins, list(np.intersect1d(a, b, return_indices=True)),
        assume_unique=False, return_indices=True)

# --- lexsort ---------------------------------------------------------------------------------------------
s.group("lexsort")
for i, dts in enumerate([("int64",), ("int8", "float64"), ("bool", "float32", "int16"), ("uint64", "complex64"),
                         ("float16", "uint8", "int32", "bool"), ("complex128", "float64", "uint32")]):
    for shape, axis, layout in [((40,), -1, "C"), ((5, 12), -1, "C"), ((5, 12), 0, "F"), ((3, 4, 6), 1, "C"),
                                ((0, 4), -1, "C"), ((30,), 0, "R"), ((310, 5), -1, "C")]:
        keys = [values(d, int(np.prod(shape)), -2, 2).reshape(shape) for d in dts]
        ins = [(k, layout) for k in keys]
        c = f"lexsort_{i}_{len(shape)}_{axis}_{layout}_{shape[0]}"
        add(c, "lexsort", ins, [np.lexsort(run(ins), axis=axis)], axis=axis, form="list")
    # the 2-D array form
    kk = values(dts[0], 3 * 25, -3, 3).reshape(3, 25)
    add(f"lexsort_{i}_array", "lexsort", [(kk, "C")], [np.lexsort(kk)], axis=-1, form="array")
k0 = np.array(5)
add("lexsort_0d", "lexsort", [(k0, "C")], [np.lexsort((k0,))], axis=-1, form="list")

# --- digitize -----------------------------------------------------------------------------------------
s.group("digitize")
bins_sets = {
    "inc": np.array([-3.0, -1.0, -1.0, 0.0, 2.5, 4.0]),
    "dec": np.array([5.0, 3.0, 3.0, 0.0, -2.0]),
    "flat": np.array([1.0, 1.0, 1.0]),
    "flatinc": np.array([1.0, 1.0, 2.0, 3.0]),
    "flatdec": np.array([1.0, 1.0, 0.0, -3.0]),
    "one": np.array([0.5]),
    "empty": np.array([], dtype=np.float64),
}
for dx in REAL:
    for bname, b in bins_sets.items():
        for bdt in (["float64", "int32", "float32"] if bname in ("inc", "dec") else ["float64"]):
            if bdt.startswith("int") and (np.isnan(b).any() or (b != np.round(b)).any()):
                bb = np.round(b[~np.isnan(b)]).astype(bdt)
            else:
                bb = b.astype(bdt)
            x = values(dx, 24, -4, 6).reshape(4, 6)
            for right in (False, True):
                c = f"digitize_{dx}_{bname}_{bdt}_{int(right)}"
                ins = [(x, "F" if right else "C"), (bb, "C")]
                xx, yy = run(ins)
                add(c, "digitize", ins, [np.digitize(xx, yy, right=right)], right=right)
x0 = np.array(2.5)
add("digitize_0d", "digitize", [(x0, "C"), (bins_sets["inc"], "C")], [np.digitize(x0, bins_sets["inc"])], right=False)
bx = values("float64", 10000, -30, 30)
bb = np.linspace(-20, 20, 101)
add("digitize_big", "digitize", [(bx, "C"), (bb, "C")], [np.digitize(bx, bb)], right=False)
add("digitize_big_dec", "digitize", [(bx, "C"), (bb[::-1].copy(), "C")], [np.digitize(bx, bb[::-1], right=True)], right=True)

# --- unravel_index, ravel_multi_index ---------------------------------------------------------------------
s.group("index")
for shape in [(3, 4, 5), (7,), (2, 1, 3, 2), (6, 1)]:
    total = int(np.prod(shape))
    for dt in INTS:
        if dt == "bool":
            idx = rng.integers(0, 2, 12).astype(bool).reshape(3, 4)
        else:
            idx = rng.integers(0, min(total, int(np.iinfo(dt).max) + 1), 12).astype(dt).reshape(3, 4)
        for order in ("C", "F"):
            c = f"unravel_{'x'.join(map(str, shape))}_{dt}_{order}"
            add(c, "unravel_index", [(idx, "F" if order == "F" else "C")],
                list(np.unravel_index(idx, shape, order=order)), shape=list(shape), order=order)
add("unravel_0d", "unravel_index", [(np.array(17), "C")], list(np.unravel_index(np.array(17), (4, 5))),
    shape=[4, 5], order="C")
add("unravel_empty", "unravel_index", [(np.array([], np.int64), "C")],
    list(np.unravel_index(np.array([], np.int64), (4, 5))), shape=[4, 5], order="C")
add("unravel_shape0", "unravel_index", [(np.array(0), "C")], list(np.unravel_index(np.array(0), ())),
    shape=[], order="C")
big = rng.integers(0, 512 ** 3, 5000)
add("unravel_big", "unravel_index", [(big, "C")], list(np.unravel_index(big, (512, 512, 512))),
    shape=[512, 512, 512], order="C")

for dims in [(3, 4, 5), (6,), (2, 7)]:
    nd = len(dims)
    for mode in [["raise"], ["wrap"], ["clip"]] + ([["wrap", "clip", "raise"][:nd]] if nd > 1 else []):
        for order in ("C", "F"):
            coords = []
            for d in range(nd):
                if mode[min(d, len(mode) - 1)] == "raise":
                    coords.append(rng.integers(0, dims[d], (4, 1) if d % 2 == 0 else (5,)).astype(
                        ["int64", "int32", "uint8"][d % 3]))
                else:
                    coords.append(rng.integers(-2 * dims[d], 2 * dims[d], (4, 1) if d % 2 == 0 else (5,)).astype(
                        ["int64", "int16", "int8"][d % 3]))
            m = tuple(mode) if len(mode) > 1 else mode[0]
            c = f"ravel_{'x'.join(map(str, dims))}_{'_'.join(mode)}_{order}"
            add(c, "ravel_multi_index", [(a, "C") for a in coords],
                [np.ravel_multi_index(tuple(coords), dims, mode=m, order=order)], dims=list(dims), mode=list(mode),
                order=order)
add("ravel_nodims", "ravel_multi_index", [], [np.ravel_multi_index((), ())], dims=[], mode=["raise"], order="C")

# --- indices, meshgrid ----------------------------------------------------------------------------------
s.group("grids")
for dims in [(2, 3, 4), (5,), (0, 3), (), (2, 2)]:
    for dt in (["int64", "float32", "int8", "complex64"] + (["bool"] if max(dims, default=0) <= 2 else [])):
        tag = f"{'x'.join(map(str, dims))}_{dt}"
        add(f"indices_{tag}", "indices", [], [np.indices(dims, dtype=dt)], dimensions=list(dims), dtype=dt,
            sparse=False)
        add(f"indicess_{tag}", "indices", [], list(np.indices(dims, dtype=dt, sparse=True)), dimensions=list(dims),
            dtype=dt, sparse=True)
for i, dts in enumerate([("float64",), ("int32", "float32"), ("int8", "complex128", "uint16"),
                         ("bool", "float16", "int64", "uint8")]):
    xs = [values(d, 2 + j, special=False) for j, d in enumerate(dts)]
    if i == 1:
        xs[1] = xs[1][:2].reshape(2, 1)  # a 2-D input is flattened
    for indexing in ("xy", "ij"):
        for sparse in (False, True):
            for copy in (True, False):
                c = f"meshgrid_{i}_{indexing}_{int(sparse)}_{int(copy)}"
                add(c, "meshgrid", [(x, "C") for x in xs], list(np.meshgrid(*xs, copy=copy, sparse=sparse,
                                                                            indexing=indexing)),
                    copy=copy, sparse=sparse, indexing=indexing)


# --- errors: NumPy raises; the C++ test makes the same call -------------------------------------------
s.group("errors")
EXC = {ValueError: "value_error", TypeError: "type_error", IndexError: "index_error",
       np.exceptions.AxisError: "index_error"}


def err(case, func, ins, call, **params):
    try:
        call(*[layout_of(a, l) for a, l in ins])
    except Exception as e:  # noqa: BLE001
        kind = next(v for k, v in EXC.items() if type(e) is k) if type(e) in EXC else None
        assert kind, (case, type(e))
        add(case, func, ins, [], error=kind, **params)
        return
    raise AssertionError(f"{case}: NumPy did not raise")


f64 = np.arange(4.0)
i64 = np.arange(4)
err("e_isin_table_float", "isin", [(f64, "C"), (i64, "C")], lambda a, b: np.isin(a, b, kind="table"),
    invert=False, kind="table")
err("e_lexsort_shapes", "lexsort", [(i64, "C"), (np.arange(5), "C")], lambda a, b: np.lexsort((a, b)), axis=-1,
    form="list")
err("e_lexsort_axis", "lexsort", [(i64, "C"), (i64, "C")], lambda a, b: np.lexsort((a, b), axis=1), axis=1,
    form="list")
err("e_lexsort_axisneg", "lexsort", [(i64.reshape(2, 2), "C")], lambda a: np.lexsort((a,), axis=-3), axis=-3,
    form="list")
err("e_digitize_complex_x", "digitize", [(f64.astype(complex), "C"), (f64, "C")], lambda x, b: np.digitize(x, b),
    right=False)
err("e_digitize_complex_bins", "digitize", [(f64, "C"), (f64.astype(complex), "C")],
    lambda x, b: np.digitize(x, b), right=False)
err("e_digitize_2d", "digitize", [(f64, "C"), (f64.reshape(2, 2), "C")], lambda x, b: np.digitize(x, b), right=False)
err("e_digitize_0d", "digitize", [(f64, "C"), (np.array(1.0), "C")], lambda x, b: np.digitize(x, b), right=False)
err("e_digitize_nonmono", "digitize", [(f64, "C"), (np.array([1.0, 3.0, 2.0]), "C")],
    lambda x, b: np.digitize(x, b), right=False)
err("e_digitize_nonmono_dec", "digitize", [(f64, "C"), (np.array([3.0, 3.0, 1.0, 2.0]), "C")],
    lambda x, b: np.digitize(x, b), right=True)
err("e_digitize_nan_first", "digitize", [(f64, "C"), (np.array([np.nan, 1.0, 2.0]), "C")],
    lambda x, b: np.digitize(x, b), right=False)
err("e_unravel_float", "unravel_index", [(f64, "C")], lambda a: np.unravel_index(a, (3, 4)), shape=[3, 4], order="C")
err("e_unravel_range", "unravel_index", [(np.array([3, 12, 1]), "C")], lambda a: np.unravel_index(a, (3, 4)),
    shape=[3, 4], order="C")
err("e_unravel_neg", "unravel_index", [(np.array([-1]), "C")], lambda a: np.unravel_index(a, (3, 4)),
    shape=[3, 4], order="F")
err("e_unravel_zero", "unravel_index", [(np.array([0]), "C")], lambda a: np.unravel_index(a, (3, 0)),
    shape=[3, 0], order="C")
err("e_unravel_negdim", "unravel_index", [(np.array([0]), "C")], lambda a: np.unravel_index(a, (3, -1)),
    shape=[3, -1], order="C")
err("e_unravel_0dshape", "unravel_index", [(np.array([0]), "C")], lambda a: np.unravel_index(a, ()),
    shape=[], order="C")
err("e_unravel_0dshape_range", "unravel_index", [(np.array(1), "C")], lambda a: np.unravel_index(a, ()),
    shape=[], order="C")
err("e_unravel_huge", "unravel_index", [(np.array([0]), "C")],
    lambda a: np.unravel_index(a, (2 ** 40, 2 ** 40)), shape=[2 ** 40, 2 ** 40], order="C")
c3, c1 = np.array([3]), np.array([1])
err("e_ravel_range", "ravel_multi_index", [(c3, "C"), (c1, "C")], lambda a, b: np.ravel_multi_index((a, b), (3, 4)),
    dims=[3, 4], mode=["raise"], order="C")
err("e_ravel_neg", "ravel_multi_index", [(c1, "C"), (-c1, "C")], lambda a, b: np.ravel_multi_index((a, b), (3, 4)),
    dims=[3, 4], mode=["raise"], order="F")
err("e_ravel_len", "ravel_multi_index", [(c1, "C")], lambda a: np.ravel_multi_index((a,), (3, 4)),
    dims=[3, 4], mode=["raise"], order="C")
err("e_ravel_modes", "ravel_multi_index", [(c1, "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, 4), mode=("wrap", "clip", "raise")), dims=[3, 4],
    mode=["wrap", "clip", "raise"], order="C")
err("e_ravel_float", "ravel_multi_index", [(c1.astype(float), "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, 4)), dims=[3, 4], mode=["raise"], order="C")
err("e_ravel_zero_wrap", "ravel_multi_index", [(c1, "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, 0), mode="wrap"), dims=[3, 0], mode=["wrap"], order="C")
err("e_ravel_zero_raise", "ravel_multi_index", [(c1, "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, 0)), dims=[3, 0], mode=["raise"], order="C")
err("e_ravel_huge", "ravel_multi_index", [(c1, "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (2 ** 40, 2 ** 40)), dims=[2 ** 40, 2 ** 40], mode=["raise"],
    order="C")
err("e_ravel_negdim", "ravel_multi_index", [(c1, "C"), (c1, "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, -4)), dims=[3, -4], mode=["raise"], order="C")
err("e_ravel_broadcast", "ravel_multi_index", [(np.arange(2), "C"), (np.arange(3), "C")],
    lambda a, b: np.ravel_multi_index((a, b), (3, 4)), dims=[3, 4], mode=["raise"], order="C")
err("e_indices_neg", "indices", [], lambda: np.indices((2, -1)), dimensions=[2, -1], dtype="int64", sparse=False)
err("e_indices_bool", "indices", [], lambda: np.indices((2, 3), dtype=bool), dimensions=[2, 3], dtype="bool",
    sparse=False)

s.write()
