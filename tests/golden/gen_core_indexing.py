"""Reference data for cusci core's indexing family (indexing.hpp, manipulation.hpp), from NumPy,
written through golden.py.

Every case's func is the function under test (see tests/core/indexing/test_indexing_gpu.cpp); its
params: inputs (array names, in the function's argument order), layout (per input: C as stored, F
Fortran copy, S every axis sliced ::2 from the stored base, R every axis reversed, T transpose of the
stored base), outs (expected array names; none for an error case), and the function's options as
typed values (an index expression as a list of tokens: "array", "...", "newaxis", an int, or a
slice [start, stop, step]; pad widths, constant / end values and stat lengths as lists of
[before, after] pairs).
"""
import numpy as np

from golden import Suite

s = Suite("core_indexing")
rng = s.rng(20240611)
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex128"]


def rnd(shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        return rng.integers(lo, 60, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def apply_layout(base, lay):
    if lay == "C":
        return base
    if lay == "F":
        return np.asfortranarray(base)
    if lay == "S":
        return base[tuple(slice(None, None, 2) for _ in range(base.ndim))]
    if lay == "R":
        return base[tuple(slice(None, None, -1) for _ in range(base.ndim))]
    if lay == "T":
        return base.T
    raise ValueError(lay)


def base_for(shape, lay, dt):
    """A stored base array whose `lay` view has `shape`."""
    if lay == "S":
        return rnd(tuple(2 * s for s in shape), dt)
    if lay == "T":
        return rnd(tuple(reversed(shape)), dt)
    return rnd(shape, dt)


def add(case, op, inputs, layouts, args, outs, error=None, rtol=0.0, atol=0.0):
    """inputs: list of (array_base); layouts: list of layout codes; outs: list of arrays."""
    names = [s.array(f"{case}_in{i}", a) for i, a in enumerate(inputs)]
    onames = [s.array(f"{case}_out{i}", o) for i, o in enumerate(outs)]
    s.case(case, func=op, rtol=rtol, atol=atol, error=error, inputs=names, layout=list(layouts), outs=onames, **args)


def index_tokens(spec):
    """An index expression written "A,:,i2,...,N,1:4" (A: the next index array, iK: the integer K,
    N: newaxis) as the case's typed token list."""
    out = []
    for t in spec.split(","):
        if t == "A":
            out.append("array")
        elif t == "...":
            out.append("...")
        elif t == "N":
            out.append("newaxis")
        elif t.startswith("i"):
            out.append(int(t[1:]))
        else:
            parts = [int(p) if p else None for p in t.split(":")]
            out.append(parts + [None] * (3 - len(parts)))
    return out


# ---------------------------------------------------------------- take
s.group("take_mask")
for dt in DTYPES:
    for lay in ["C", "F", "S"]:
        shape = (5, 7)
        base = base_for(shape, lay, dt)
        a = apply_layout(base, lay)
        idx = rng.integers(-5, 5, size=(3, 4))
        add(f"take_ax0_{dt}_{lay}", "take", [base, idx], [lay, "C"], {"axis": 0, "mode": "raise"},
            [np.take(a, idx, axis=0)])
    a = rnd((4, 6), dt)
    idx = rng.integers(-30, 30, size=(9,))
    for mode in ["wrap", "clip"]:
        add(f"take_ax1_{mode}_{dt}", "take", [a, idx], ["C", "C"], {"axis": 1, "mode": mode},
            [np.take(a, idx, axis=1, mode=mode)])
    idx2 = rng.integers(-24, 24, size=(2, 3))
    add(f"take_none_{dt}", "take", [a, idx2], ["C", "C"], {"axis": None, "mode": "raise"}, [np.take(a, idx2)])
a = rnd((3001,), "float32")
idx = rng.integers(-3001, 3001, size=(4099,))
add("take_large_f32", "take", [a, idx], ["C", "C"], {"axis": 0, "mode": "raise"}, [np.take(a, idx)])
add("take_empty_idx", "take", [rnd((4, 3), "float64"), np.zeros((0,), np.int64)], ["C", "C"], {"axis": 1, "mode": "raise"},
    [np.take(rnd((4, 3), "float64"), np.zeros((0,), np.int64), axis=1)])
a = rnd((1,), "int32")
add("take_size1", "take", [a, np.array([-1, 0])], ["C", "C"], {"axis": 0, "mode": "raise"}, [np.take(a, [-1, 0])])
add("take_oob", "take", [rnd((4, 3), "float64"), np.array([0, 4])], ["C", "C"], {"axis": 0, "mode": "raise"}, [], "index_error")
add("take_oob_neg", "take", [rnd((4, 3), "float64"), np.array([-5])], ["C", "C"], {"axis": 0, "mode": "raise"}, [], "index_error")
add("take_bad_axis", "take", [rnd((4, 3), "float64"), np.array([0])], ["C", "C"], {"axis": 2, "mode": "raise"}, [], "index_error")
add("take_float_idx", "take", [rnd((4, 3), "float64"), np.array([0.0])], ["C", "C"], {"axis": 0, "mode": "raise"}, [], "type_error")
add("take_empty_axis", "take", [rnd((0, 3), "float64"), np.array([0])], ["C", "C"], {"axis": 0, "mode": "wrap"}, [], "index_error")

# ---------------------------------------------------------------- boolean masks
for dt in DTYPES:
    for lay in ["C", "F", "S", "R"]:
        shape = (6, 5)
        base = base_for(shape, lay, dt)
        a = apply_layout(base, lay)
        m = rng.random(shape) < 0.4
        add(f"mask_read_{dt}_{lay}", "getitem_mask", [base, m], [lay, "C"], {}, [a[m]])
    a = rnd((4, 3, 2), dt)
    m = rng.random((4, 3)) < 0.5
    add(f"mask_lead_{dt}", "getitem_mask", [a, m], ["C", "C"], {}, [a[m]])
    # assignment: scalar-like (size-1 array) and full-count array
    a = rnd((5, 4), dt)
    m = rng.random((5, 4)) < 0.5
    v1 = rnd((1,), dt)
    r = a.copy(); r[m] = v1
    add(f"mask_set1_{dt}", "setitem_mask", [a, m, v1], ["C", "C", "C"], {}, [r])
    vn = rnd((int(m.sum()),), dt)
    r = a.copy(); r[m] = vn
    add(f"mask_setn_{dt}", "setitem_mask", [a, m, vn], ["C", "C", "C"], {}, [r])
a = rnd((65537,), "float32")
m = rng.random(a.shape) < 0.5
add("mask_read_large", "getitem_mask", [a, m], ["C", "C"], {}, [a[m]])
a = rnd((77, 131), "int16")
m = rng.random(a.shape) < 0.3
base = rnd((154, 262), "int16")
add("mask_read_odd_S", "getitem_mask", [base, m], ["S", "C"], {}, [apply_layout(base, "S")[m]])
add("mask_empty", "getitem_mask", [np.zeros((0, 3), np.float32), np.zeros((0, 3), bool)], ["C", "C"], {}, [np.zeros((0,), np.float32)])
add("mask_none_true", "getitem_mask", [rnd((3, 3), "float64"), np.zeros((3, 3), bool)], ["C", "C"], {}, [np.zeros((0,), np.float64)])
add("mask_bad_shape", "getitem_mask", [rnd((3, 4), "float64"), np.ones((3, 5), bool)], ["C", "C"], {}, [], "index_error")
a = rnd((5, 4), "float64"); m = rng.random((5, 4)) < 0.5; m[0, 0] = True
add("mask_set_badcount", "setitem_mask", [a, m, rnd((int(m.sum()) + 1,), "float64")], ["C", "C", "C"], {}, [], "value_error")

# ---------------------------------------------------------------- integer-array indexing (getitem / setitem)
s.group("fancy_put")
def spec_index(spec, arrays):
    out, k = [], 0
    for s in spec.split(","):
        if s == "A":
            out.append(arrays[k]); k += 1
        elif s == "...":
            out.append(Ellipsis)
        elif s == "N":
            out.append(None)
        elif s.startswith("i"):
            out.append(int(s[1:]))
        else:
            parts = [int(p) if p else None for p in s.split(":")]
            while len(parts) < 3:
                parts.append(None)
            out.append(slice(*parts))
    return tuple(out)


fancy_cases = [
    ("A", (7, 5), [(4,)]),
    ("A", (7, 5), [(2, 3)]),
    (":,A", (4, 6, 3), [(5,)]),
    ("A,A", (4, 6, 3), [(2, 1), (1, 5)]),
    (":,A,A", (4, 6, 3), [(3,), (3,)]),
    ("A,:,A", (4, 6, 3), [(2, 2), (2,)]),
    ("i1,:,A", (4, 6, 3), [(5,)]),
    (":,i2,A", (4, 6, 3), [(5,)]),
    ("1:4,A", (5, 6), [(3,)]),
    ("::-1,A", (5, 6), [(2, 2)]),
    ("...,A", (3, 4, 5), [(6,)]),
    ("N,A,:", (5, 3), [(4,)]),
    ("A,::2", (6, 7), [(3,)]),
]
for ci, (spec, shape, ishapes) in enumerate(fancy_cases):
    for dt in (["float64", "int8", "complex128", "float16"] if ci < 3 else ["float32"]):
        for lay in (["C", "F", "S"] if ci in (2, 5) else ["C"]):
            base = base_for(shape, lay, dt)
            a = apply_layout(base, lay)
            arrs = []
            toks = spec.split(",")
            n_cons = sum(1 for t in toks if t not in ("N", "..."))
            ax, axes = 0, []
            for t in toks:
                if t == "...":
                    ax += a.ndim - n_cons
                elif t == "N":
                    continue
                else:
                    if t == "A":
                        axes.append(ax)
                    ax += 1
            for s_, ax_ in zip(ishapes, axes):
                n = a.shape[ax_]
                arrs.append(rng.integers(-n, n, size=s_))
            idx = spec_index(spec, arrs)
            add(f"fancy{ci}_{dt}_{lay}", "getitem", [base] + arrs, [lay] + ["C"] * len(arrs), {"index": index_tokens(spec)}, [a[idx]])
# setitem with unique indices (duplicates: which write wins is undefined)
for dt in ["float64", "int32", "bool", "complex128", "float16"]:
    a = rnd((6, 5), dt)
    idx = rng.permutation(6)[:4]
    v = rnd((4, 5), dt)
    r = a.copy(); r[idx] = v
    add(f"fset_rows_{dt}", "setitem", [a, idx, v], ["C", "C", "C"], {"index": index_tokens("A")}, [r])
    a = rnd((4, 6, 3), dt)
    i0 = np.array([0, 3, -1]); i2 = np.array([1, 2, 0])
    v = rnd((3, 6), dt)
    r = a.copy(); r[i0, :, i2] = v.T if False else v
    add(f"fset_sep_{dt}", "setitem", [a, i0, i2, v], ["C", "C", "C", "C"], {"index": index_tokens("A,:,A")}, [r])
    a = rnd((5, 7), dt)
    i1 = rng.permutation(7)[:3]
    v = rnd((3,), dt)  # broadcast along rows
    r = a.copy(); r[:, i1] = v
    add(f"fset_bcast_{dt}", "setitem", [a, i1, v], ["C", "C", "C"], {"index": index_tokens(":,A")}, [r])
add("fancy_oob", "getitem", [rnd((4, 5), "float64"), np.array([1, 5])], ["C", "C"], {"index": index_tokens(":,A")}, [], "index_error")
add("fancy_bcast_err", "getitem", [rnd((4, 5), "float64"), np.array([1, 2]), np.array([1, 2, 3])], ["C", "C", "C"],
    {"index": index_tokens("A,A")}, [], "index_error")
add("fancy_too_many", "getitem", [rnd((4,), "float64"), np.array([1]), np.array([1])], ["C", "C", "C"], {"index": index_tokens("A,A")}, [],
    "index_error")
add("fset_shape_err", "setitem", [rnd((4, 5), "float64"), np.array([1, 2]), rnd((3,), "float64")], ["C", "C", "C"],
    {"index": index_tokens("A")}, [], "value_error")

# ---------------------------------------------------------------- put / compress / extract / place / putmask
for dt in DTYPES:
    a = rnd((4, 5), dt)
    ind = rng.permutation(20)[:7] - 10
    v = rnd((3,), dt)
    r = a.copy(); np.put(r, ind, v)
    add(f"put_{dt}", "put", [a, ind, v], ["C", "C", "C"], {"mode": "raise"}, [r])
    cond = rng.random(5) < 0.5
    add(f"compress_ax1_{dt}", "compress", [cond, a], ["C", "C"], {"axis": 1}, [np.compress(cond, a, axis=1)])
    cond2 = (rng.random((4, 5)) < 0.5).astype(np.int32)
    add(f"extract_{dt}", "extract", [cond2, a], ["C", "C"], {}, [np.extract(cond2, a)])
    m = rng.random((4, 5)) < 0.5
    vals = rnd((3,), dt)
    r = a.copy(); np.place(r, m, vals)
    add(f"place_{dt}", "place", [a, m, vals], ["C", "C", "C"], {}, [r])
    r = a.copy(); np.putmask(r, m, vals)
    add(f"putmask_{dt}", "putmask", [a, m, vals], ["C", "C", "C"], {}, [r])
for mode in ["wrap", "clip"]:
    a = rnd((3, 4), "float32"); ind = np.array([-20, 30, 5]); v = rnd((3,), "float32")
    r = a.copy(); np.put(r, ind, v, mode=mode)
    add(f"put_{mode}", "put", [a, ind, v], ["C", "C", "C"], {"mode": mode}, [r])
a = rnd((6, 4), "float64"); a_f = np.asfortranarray(a); ind = np.array([0, 5, 23, 11]); v = rnd((4,), "float64")
r = a_f.copy(); np.put(r, ind, v)
add("put_F", "put", [a, ind, v], ["F", "C", "C"], {"mode": "raise"}, [r])
add("put_oob", "put", [rnd((3,), "float64"), np.array([3]), rnd((1,), "float64")], ["C", "C", "C"], {"mode": "raise"}, [], "index_error")
cond = np.array([0, 1, 1])
a = rnd((5, 2), "int64")
add("compress_short", "compress", [cond, a], ["C", "C"], {"axis": 0}, [np.compress(cond, a, axis=0)])
add("compress_none", "compress", [np.array([1, 0, 1, 1]), a], ["C", "C"], {"axis": None}, [np.compress([1, 0, 1, 1], a)])
add("compress_long_err", "compress", [np.array([0, 0, 1, 0, 0, 1]), a], ["C", "C"], {"axis": 0}, [], "index_error")
add("putmask_size_err", "putmask", [rnd((3,), "float64"), np.ones(4, bool), rnd((1,), "float64")], ["C", "C", "C"], {}, [], "value_error")
add("place_empty_err", "place", [rnd((3,), "float64"), np.ones(3, bool), np.zeros(0)], ["C", "C", "C"], {}, [], "value_error")

# ---------------------------------------------------------------- diagonal / diag / tril / triu / tri indices
s.group("diag_join_split")
for dt in DTYPES:
    for lay in ["C", "F", "S"]:
        base = base_for((5, 7), lay, dt)
        a = apply_layout(base, lay)
        for k in [-2, 0, 3]:
            add(f"diagonal_{dt}_{lay}_{k}", "diagonal", [base], [lay], {"offset": k, "axis1": 0, "axis2": 1}, [np.diagonal(a, k).copy()])
            add(f"tril_{dt}_{lay}_{k}", "tril", [base], [lay], {"k": k}, [np.tril(a, k)])
            add(f"triu_{dt}_{lay}_{k}", "triu", [base], [lay], {"k": k}, [np.triu(a, k)])
    v = rnd((4,), dt)
    for k in [-1, 0, 2]:
        add(f"diag1d_{dt}_{k}", "diag", [v], ["C"], {"k": k}, [np.diag(v, k)])
    a = rnd((4, 6), dt)
    add(f"diag2d_{dt}", "diag", [a], ["C"], {"k": 1}, [np.diag(a, 1)])
a = rnd((2, 3, 4, 5), "float32")
add("diagonal_3d", "diagonal", [a], ["C"], {"offset": 1, "axis1": 1, "axis2": 3}, [np.diagonal(a, 1, 1, 3).copy()])
add("diagonal_empty", "diagonal", [rnd((3, 4), "float32")], ["C"], {"offset": 9, "axis1": 0, "axis2": 1}, [np.zeros((0,), np.float32)])
a = rnd((3, 4, 5), "float64")
add("tril_batched", "tril", [a], ["C"], {"k": -1}, [np.tril(a, -1)])
a = rnd((4,), "int32")
add("tril_1d", "tril", [a], ["C"], {"k": 0}, [np.tril(a)])
a = rnd((67, 129), "float32")
add("triu_large", "triu", [a], ["C"], {"k": 5}, [np.triu(a, 5)])
for (n, k, m) in [(4, 0, None), (4, -1, 6), (5, 2, 3), (0, 0, None)]:
    r, c = np.tril_indices(n, k, m)
    add(f"tril_indices_{n}_{k}_{m}", "tril_indices", [], [], {"n": n, "k": k, "m": m}, [r, c])
    r, c = np.triu_indices(n, k, m)
    add(f"triu_indices_{n}_{k}_{m}", "triu_indices", [], [], {"n": n, "k": k, "m": m}, [r, c])
add("diag_3d_err", "diag", [rnd((2, 2, 2), "float64")], ["C"], {"k": 0}, [], "value_error")
add("diagonal_axis_err", "diagonal", [rnd((2, 2), "float64")], ["C"], {"offset": 0, "axis1": 0, "axis2": 0}, [], "value_error")

# ---------------------------------------------------------------- joining
for dt in DTYPES:
    arrs = [rnd((3, 4), dt), rnd((2, 4), dt), rnd((5, 4), dt)]
    add(f"concat0_{dt}", "concatenate", arrs, ["C", "C", "C"], {"axis": 0}, [np.concatenate(arrs, 0)])
    arrs = [rnd((3, 2), dt), rnd((3, 5), dt), rnd((3, 1), dt)]
    add(f"concat1_{dt}", "concatenate", arrs, ["C", "F", "C"], {"axis": 1}, [np.concatenate([arrs[0], np.asfortranarray(arrs[1]), arrs[2]], 1)])
    b = [rnd((6, 4), dt), rnd((3, 2), dt)]
    views = [apply_layout(b[0], "S"), b[1]]
    add(f"concat_strided_{dt}", "concatenate", b, ["S", "C"], {"axis": 0}, [np.concatenate(views, 0)])
    arrs = [rnd((2, 3), dt), rnd((2, 3), dt)]
    add(f"stack_{dt}", "stack", arrs, ["C", "C"], {"axis": -1}, [np.stack(arrs, -1)])
# promotion and dtype=
mix = [rnd((2, 3), "int8"), rnd((1, 3), "uint16"), rnd((2, 3), "float32")]
add("concat_promote", "concatenate", mix, ["C", "C", "C"], {"axis": 0}, [np.concatenate(mix, 0)])
mix = [rnd((4,), "int32"), rnd((3,), "int64")]
add("concat_promote_i", "concatenate", mix, ["C", "C"], {"axis": 0}, [np.concatenate(mix)])
mix = [rnd((4,), "bool"), rnd((3,), "complex128")]
add("concat_promote_c", "concatenate", mix, ["C", "C"], {"axis": 0}, [np.concatenate(mix)])
mix = [rnd((4,), "float64"), rnd((3,), "float64")]
add("concat_dtype", "concatenate", mix, ["C", "C"], {"axis": 0, "dtype": "float32"}, [np.concatenate(mix, dtype=np.float32)])
arrs = [rnd((2, 3), "int16"), rnd((3,), "int16")]
add("concat_none", "concatenate", arrs, ["C", "C"], {"axis": None}, [np.concatenate(arrs, axis=None)])
arrs = [rnd((n,), "float32") for n in [1, 0, 7, 13, 2, 5, 3, 11, 4, 8]]
add("concat_many", "concatenate", arrs, ["C"] * 10, {"axis": 0}, [np.concatenate(arrs)])
arrs = [rnd((3, 0, 2), "int8"), rnd((3, 4, 2), "int8")]
add("concat_zero_part", "concatenate", arrs, ["C", "C"], {"axis": 1}, [np.concatenate(arrs, 1)])
arrs = [rnd((2, 3, 2), "uint16"), rnd((2, 1, 2), "uint16")]
add("concat_mid_u16", "concatenate", arrs, ["C", "C"], {"axis": 1}, [np.concatenate(arrs, 1)])
arrs = [rnd((70, 33), "float64") for _ in range(3)]
add("concat_large", "concatenate", arrs, ["C", "C", "C"], {"axis": 1}, [np.concatenate(arrs, 1)])
add("concat_shape_err", "concatenate", [rnd((2, 3), "float64"), rnd((2, 4), "float64")], ["C", "C"], {"axis": 0}, [], "value_error")
add("concat_ndim_err", "concatenate", [rnd((2, 3), "float64"), rnd((3,), "float64")], ["C", "C"], {"axis": 0}, [], "value_error")
add("concat_axis_err", "concatenate", [rnd((2, 3), "float64"), rnd((2, 3), "float64")], ["C", "C"], {"axis": 2}, [], "index_error")
add("concat_0d_err", "concatenate", [np.array(1.0), np.array(2.0)], ["C", "C"], {"axis": 0}, [], "value_error")
add("stack_shape_err", "stack", [rnd((2, 3), "float64"), rnd((3, 2), "float64")], ["C", "C"], {"axis": 0}, [], "value_error")
for fn_ in ["hstack", "vstack", "dstack", "column_stack"]:
    for shapes in [[(3,), (4,)] if fn_ == "hstack" else [(3,), (3,)], [(2, 3), (2, 3)], [(2, 3, 2), (2, 3, 2)]]:
        if fn_ == "column_stack" and len(shapes[0]) == 3:
            continue
        arrs = [rnd(s, "float32") for s in shapes]
        add(f"{fn_}_{len(shapes[0])}d", fn_, arrs, ["C", "C"], {}, [getattr(np, fn_)(arrs)])
arrs = [np.array(1.5), np.array(2.5)]
add("hstack_0d", "hstack", arrs, ["C", "C"], {}, [np.hstack(arrs)])

# ---------------------------------------------------------------- splitting
a = rnd((7, 6), "int32")
for name, sec, ax in [("split3", 3, 1), ("split_idx", [2, 5], 0), ("split_idx_neg", [-3, 10], 0)]:
    outs = np.split(a, sec, axis=ax)
    add(f"{name}", "split", [a], ["C"], {"sections" if isinstance(sec, int) else "indices": sec, "axis": ax}, outs)
for sec, ax in [(3, 0), (4, 1), (9, 0), (1, 0)]:
    outs = np.array_split(a, sec, axis=ax)
    add(f"array_split_{sec}_{ax}", "array_split", [a], ["C"], {"sections": sec, "axis": ax}, outs)
add("array_split_F", "array_split", [a], ["F"], {"sections": 3, "axis": 1}, np.array_split(np.asfortranarray(a), 3, axis=1))
add("split_uneven_err", "split", [a], ["C"], {"sections": 4, "axis": 0}, [], "value_error")
add("array_split_zero_err", "array_split", [a], ["C"], {"sections": 0, "axis": 0}, [], "value_error")

# ---------------------------------------------------------------- tile / repeat
s.group("tile_flip")
for dt in ["bool", "int8", "float16", "float64", "complex128"]:
    a = rnd((2, 3), dt)
    for reps in [[2], [2, 3], [2, 1, 2], [0, 2]]:
        add(f"tile_{dt}_{'x'.join(map(str, reps))}", "tile", [a], ["C"], {"reps": reps}, [np.tile(a, reps)])
    add(f"repeat_int_{dt}", "repeat", [a], ["C"], {"repeats": 3, "axis": 1}, [np.repeat(a, 3, axis=1)])
    add(f"repeat_none_{dt}", "repeat", [a], ["F"], {"repeats": 2, "axis": None}, [np.repeat(np.asfortranarray(a), 2)])
    add(f"repeat_vec_{dt}", "repeat", [a], ["C"], {"repeats": [1, 0, 3], "axis": 1}, [np.repeat(a, [1, 0, 3], axis=1)])
a = rnd((4, 5), "int64")
base = rnd((8, 10), "int64")
add("repeat_vec_S", "repeat", [base], ["S"], {"repeats": [2, 0, 1, 3], "axis": 0},
    [np.repeat(apply_layout(base, "S"), [2, 0, 1, 3], axis=0)])
add("repeat_vec_err", "repeat", [a], ["C"], {"repeats": [1, 2], "axis": 0}, [], "value_error")
add("repeat_neg_err", "repeat", [a], ["C"], {"repeats": -1, "axis": 0}, [], "value_error")

# ---------------------------------------------------------------- flips, roll, axes, ravel, dims
for dt in ["bool", "int8", "uint16", "float16", "float32", "complex128"]:
    for lay in ["C", "F", "S"]:
        base = base_for((4, 5, 3), lay, dt)
        a = apply_layout(base, lay)
        add(f"flip_all_{dt}_{lay}", "flip", [base], [lay], {"axes": None}, [np.flip(a)])
        add(f"flip_1_{dt}_{lay}", "flip", [base], [lay], {"axes": [1]}, [np.flip(a, 1)])
        add(f"roll_none_{dt}_{lay}", "roll", [base], [lay], {"shift": 7, "axes": None}, [np.roll(a, 7)])
        add(f"roll_ax_{dt}_{lay}", "roll", [base], [lay], {"shift": [-2, 9], "axes": [0, 2]}, [np.roll(a, (-2, 9), (0, 2))])
        add(f"moveaxis_{dt}_{lay}", "moveaxis", [base], [lay], {"source": [0, 2], "destination": [2, 0]}, [np.moveaxis(a, [0, 2], [2, 0])])
        add(f"ascontig_{dt}_{lay}", "ascontiguousarray", [base], [lay], {}, [np.ascontiguousarray(a)])
    a = rnd((5, 6), dt)
    add(f"fliplr_{dt}", "fliplr", [a], ["C"], {}, [np.fliplr(a)])
    add(f"flipud_{dt}", "flipud", [a], ["C"], {}, [np.flipud(a)])
    add(f"swapaxes_{dt}", "swapaxes", [a], ["C"], {"axis1": 0, "axis2": -1}, [np.swapaxes(a, 0, -1)])
    base = rnd((37, 45), dt)
    add(f"transpose_T_{dt}", "ascontiguousarray", [base], ["T"], {}, [np.ascontiguousarray(base.T)])
a = rnd((10,), "float64")
add("roll_1d_neg", "roll", [a], ["C"], {"shift": -13, "axes": [0]}, [np.roll(a, -13)])
a = rnd((4, 5), "int32")
add("roll_same_axis", "roll", [a], ["C"], {"shift": [2, 3], "axes": [1, 1]}, [np.roll(a, (2, 3), (1, 1))])
add("roll_empty", "roll", [np.zeros((0, 3), np.float32)], ["C"], {"shift": 1, "axes": None}, [np.zeros((0, 3), np.float32)])
add("roll_axis_err", "roll", [rnd((4, 5), "int32")], ["C"], {"shift": 1, "axes": [2]}, [], "index_error")
for lay in ["C", "F", "S"]:
    base = base_for((3, 4), lay, "int32")
    a = apply_layout(base, lay)
    add(f"ravel_C_{lay}", "ravel", [base], [lay], {"order": "C"}, [np.ravel(a)])
    add(f"ravel_F_{lay}", "ravel", [base], [lay], {"order": "F"}, [np.ravel(a, order="F")])
for shp in [(), (3,), (2, 3), (2, 3, 4)]:
    a = rnd(shp, "float32")
    for f_ in ["atleast_1d", "atleast_2d", "atleast_3d"]:
        add(f"{f_}_{len(shp)}", f_, [a], ["C"], {}, [getattr(np, f_)(a)])
a = rnd((3, 4), "float64")
add("expand_dims", "expand_dims", [a], ["C"], {"axes": [0, -1]}, [np.expand_dims(a, (0, -1))])
add("expand_dims_err", "expand_dims", [a], ["C"], {"axes": [0, 0]}, [], "value_error")
a = rnd((1, 3, 1, 4), "float64")
add("squeeze_all", "squeeze", [a], ["C"], {"axes": None}, [np.squeeze(a)])
add("squeeze_ax", "squeeze", [a], ["C"], {"axes": [2]}, [np.squeeze(a, 2)])
add("squeeze_err", "squeeze", [a], ["C"], {"axes": [1]}, [], "value_error")
add("swapaxes_err", "swapaxes", [a], ["C"], {"axis1": 0, "axis2": 4}, [], "index_error")

# ---------------------------------------------------------------- pad
s.group("pad")
def pairs(pw):
    """Pad widths (or constant / end values) as a list of [before, after] pairs."""
    return [list(p) for p in pw]


fast_modes = ["constant", "edge", "reflect", "symmetric", "wrap"]
for dt in DTYPES:
    for lay in ["C", "F", "S"]:
        base = base_for((4, 5), lay, dt)
        a = apply_layout(base, lay)
        for mode in fast_modes:
            pw = [(2, 3), (0, 7)]
            add(f"pad_{mode}_{dt}_{lay}", "pad", [base], [lay], {"pw": pairs(pw), "mode": mode}, [np.pad(a, pw, mode=mode)])
for mode in ["reflect", "symmetric", "wrap", "edge"]:
    for n in [1, 2, 3]:
        a = rnd((n,), "float64")
        pw = [(9, 5)]
        add(f"pad_{mode}_n{n}", "pad", [a], ["C"], {"pw": pairs(pw), "mode": mode}, [np.pad(a, pw, mode=mode)])
        if mode in ("reflect", "symmetric"):
            add(f"pad_{mode}_odd_n{n}", "pad", [a], ["C"], {"pw": pairs(pw), "mode": mode, "rt": "odd"},
                [np.pad(a, pw, mode=mode, reflect_type="odd")], rtol=1e-12, atol=1e-12)
a = rnd((3, 4), "float32")
cv = [(1.5, -2.0), (7.0, 9.0)]
add("pad_constant_values", "pad", [a], ["C"], {"pw": pairs([(1, 2), (3, 1)]), "mode": "constant", "cv": pairs(cv)},
    [np.pad(a, [(1, 2), (3, 1)], constant_values=cv)])
a = rnd((3, 4), "int16")
add("pad_constant_int_trunc", "pad", [a], ["C"], {"pw": pairs([(1, 1)]), "mode": "constant", "cv": [[5, -3]]},
    [np.pad(a, 1, constant_values=(5, -3))])
add("pad_constant_empty", "pad", [np.zeros((0, 3), np.float64)], ["C"], {"pw": pairs([(1, 1), (2, 0)]), "mode": "constant", "cv": [[4, 4]]},
    [np.pad(np.zeros((0, 3)), [(1, 1), (2, 0)], constant_values=4)])
a = rnd((3, 4, 2), "float64")
add("pad_3d_reflect", "pad", [a], ["C"], {"pw": pairs([(2, 1), (0, 3), (1, 1)]), "mode": "reflect"},
    [np.pad(a, [(2, 1), (0, 3), (1, 1)], mode="reflect")])
a = rnd((5, 6), "float32")
add("pad_empty_mode_center", "pad", [a], ["C"], {"pw": pairs([(0, 0), (0, 0)]), "mode": "empty"}, [np.pad(a, 0, mode="empty")])
stat_dtypes = ["int8", "uint16", "int32", "int64", "float16", "float32", "float64"]
for dt in stat_dtypes:
    for lay in ["C", "F"]:
        base = base_for((5, 4), lay, dt)
        if np.dtype(dt).kind in "iu":
            base = (np.abs(base.astype(np.int64)) % 40 + 1).astype(dt)
        a = apply_layout(base, lay)
        pw = [(2, 3), (1, 2)]
        r = 0.0 if np.dtype(dt).kind in "iu" else (1e-3 if dt == "float16" else (1e-5 if dt == "float32" else 1e-12))
        for mode in ["maximum", "minimum", "mean", "median"]:
            add(f"pad_{mode}_{dt}_{lay}", "pad", [base], [lay], {"pw": pairs(pw), "mode": mode}, [np.pad(a, pw, mode=mode)], rtol=r, atol=r)
            add(f"pad_{mode}_sl_{dt}_{lay}", "pad", [base], [lay], {"pw": pairs(pw), "mode": mode, "sl": [[2, 3], [1, 3]]},
                [np.pad(a, pw, mode=mode, stat_length=[(2, 3), (1, 3)])], rtol=r, atol=r)
        ev = [(-7, -9), (-5, -3)]
        add(f"pad_linear_ramp_{dt}_{lay}", "pad", [base], [lay], {"pw": pairs(pw), "mode": "linear_ramp", "ev": pairs(ev)},
            [np.pad(a, pw, mode="linear_ramp", end_values=ev)], rtol=max(r, 1e-12), atol=max(r, 1e-12) if r else 0.0)
        for mode in ["reflect", "symmetric"]:
            pwl = [(7, 2), (3, 9)]
            add(f"pad_{mode}_odd_{dt}_{lay}", "pad", [base], [lay], {"pw": pairs(pwl), "mode": mode, "rt": "odd"},
                [np.pad(a, pwl, mode=mode, reflect_type="odd")], rtol=r * 10, atol=r * 10)
a = rnd((4, 3), "complex128")
add("pad_mean_c128", "pad", [a], ["C"], {"pw": pairs([(1, 2)]), "mode": "mean"}, [np.pad(a, 1 if False else [(1, 2)], mode="mean")],
    rtol=1e-12, atol=1e-12)
add("pad_ramp_c128", "pad", [a], ["C"], {"pw": pairs([(2, 1)]), "mode": "linear_ramp"}, [np.pad(a, [(2, 1)], mode="linear_ramp")],
    rtol=1e-12, atol=1e-12)
a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
add("pad_median_nan", "pad", [a], ["C"], {"pw": pairs([(0, 0), (1, 1)]), "mode": "median"}, [np.pad(a, [(0, 0), (1, 1)], mode="median")])
add("pad_maximum_nan", "pad", [a], ["C"], {"pw": pairs([(0, 0), (1, 1)]), "mode": "maximum"}, [np.pad(a, [(0, 0), (1, 1)], mode="maximum")])
a = rnd((64, 48), "float32")
add("pad_reflect_large", "pad", [a], ["C"], {"pw": pairs([(16, 16)]), "mode": "reflect"}, [np.pad(a, 16, mode="reflect")])
add("pad_neg_err", "pad", [rnd((3,), "float64")], ["C"], {"pw": pairs([(-1, 1)]), "mode": "edge"}, [], "value_error")
add("pad_empty_axis_err", "pad", [np.zeros((0, 2))], ["C"], {"pw": pairs([(1, 1)]), "mode": "edge"}, [], "value_error")
add("pad_stat0_err", "pad", [rnd((3,), "float64")], ["C"], {"pw": pairs([(1, 1)]), "mode": "maximum", "sl": [[0, 0]]}, [], "value_error")
add("pad_width_len_err", "pad", [rnd((3, 3), "float64")], ["C"], {"pw": [[1, 1], [1, 1], [1, 1]], "mode": "edge"}, [], "value_error")
add("pad_bool_mean_err", "pad", [rnd((3,), "bool")], ["C"], {"pw": pairs([(1, 1)]), "mode": "mean"}, [], "type_error")

# Added after the first GPU run (kept last so every earlier case keeps its random data).
s.group("later")
# NumPy's result_type over a sequence is not a left-to-right pairwise promotion.
mix = [rnd((2, 3), "int8"), rnd((1, 3), "uint16"), rnd((2, 3), "float16")]
add("concat_promote_f16", "concatenate", mix, ["C", "C", "C"], {"axis": 0}, [np.concatenate(mix, 0)])
mix = [rnd((2,), "int32"), rnd((3,), "float16"), rnd((1,), "complex64")]
add("concat_promote_f16c", "concatenate", mix, ["C", "C", "C"], {"axis": 0}, [np.concatenate(mix, 0)])
mix = [rnd((2, 3), "int8"), rnd((2, 3), "uint16"), rnd((2, 3), "float32")]
add("stack_promote", "stack", mix, ["C", "C", "C"], {"axis": 1}, [np.stack(mix, 1)])
mix = [rnd((2,), "uint32"), rnd((2,), "int8"), rnd((2,), "float32")]
add("vstack_promote", "vstack", mix, ["C", "C", "C"], {}, [np.vstack(mix)])
# linear_ramp from a negative end value into unsigned dtypes wraps around (NumPy's float -> uint cast).
for dt in ["uint8", "uint32", "uint64"]:
    a = rnd((4, 3), dt)
    ev = [(-7, -200), (-5, 3)]
    pw = [(2, 3), (3, 2)]
    add(f"pad_linear_ramp_wrap_{dt}", "pad", [a], ["C"], {"pw": pairs(pw), "mode": "linear_ramp", "ev": pairs(ev)},
        [np.pad(a, pw, mode="linear_ramp", end_values=ev)])

# roll / pad remap kernel: 16-byte units (one row, or rows of a multiple of 16 bytes) and one-item
# units, interior spans read with aligned vector loads or item by item, rows longer than one block's
# 512 units, a partial last unit, every item size, strided and F-order inputs.
for dt, n, shifts in [("float32", 2601, [1237, 1000, -4, 5202]), ("int8", 3001, [-777, 16]), ("uint16", 3001, [-777]),
                      ("float64", 1100, [-777, 2]), ("complex128", 1100, [-333]), ("float32", 1, [5]), ("float32", 3, [-4])]:
    a = rnd((n,), dt)
    for sh in shifts:
        add(f"roll_big_{dt}_{n}_{sh}", "roll", [a], ["C"], {"shift": sh, "axes": [0]}, [np.roll(a, sh)])
for dt, shp in [("float32", (37, 64)), ("float32", (37, 63)), ("int8", (9, 48)), ("complex64", (7, 10))]:
    a = rnd(shp, dt)
    add(f"roll_2d_{dt}_{shp[1]}", "roll", [a], ["C"], {"shift": [5, -19], "axes": [0, 1]}, [np.roll(a, (5, -19), (0, 1))])
    add(f"roll_2d_ax0_{dt}_{shp[1]}", "roll", [a], ["C"], {"shift": -3, "axes": [0]}, [np.roll(a, -3, 0)])
for lay in ["F", "S"]:
    base = base_for((21, 70), lay, "float32")
    a = apply_layout(base, lay)
    add(f"roll_big_none_{lay}", "roll", [base], [lay], {"shift": 333, "axes": None}, [np.roll(a, 333)])
    add(f"roll_big_ax1_{lay}", "roll", [base], [lay], {"shift": -61, "axes": [1]}, [np.roll(a, -61, 1)])
a = rnd((20, 96), "float32")
add("pad_reflect_vec16", "pad", [a], ["C"], {"pw": pairs([(16, 16)]), "mode": "reflect"}, [np.pad(a, 16, mode="reflect")])
a = rnd((9, 96), "float32")
for mode in fast_modes:
    pw = [(3, 5), (6, 2)]
    add(f"pad_{mode}_misaligned_f32", "pad", [a], ["C"], {"pw": pairs(pw), "mode": mode}, [np.pad(a, pw, mode=mode)])
a = rnd((1, 2100), "float32")
for mode in ["reflect", "constant"]:
    pw = [(1, 1), (12, 24)]
    add(f"pad_{mode}_longrow_f32", "pad", [a], ["C"], {"pw": pairs(pw), "mode": mode}, [np.pad(a, pw, mode=mode)])
for mode in ["reflect", "symmetric", "wrap", "edge"]:
    a = rnd((5,), "float32")
    add(f"pad_{mode}_wide_n5_f32", "pad", [a], ["C"], {"pw": pairs([(13, 17)]), "mode": mode}, [np.pad(a, (13, 17), mode=mode)])
a = rnd((9, 30), "int8")
add("pad_reflect_i8_vec", "pad", [a], ["C"], {"pw": pairs([(1, 2), (1, 1)]), "mode": "reflect"}, [np.pad(a, [(1, 2), (1, 1)], mode="reflect")])
a = rnd((9, 20), "uint16")
add("pad_symmetric_u16_vec", "pad", [a], ["C"], {"pw": pairs([(0, 0), (2, 2)]), "mode": "symmetric"}, [np.pad(a, [(0, 0), (2, 2)], mode="symmetric")])
a = rnd((6, 7), "complex128")
add("pad_reflect_c128_big", "pad", [a], ["C"], {"pw": pairs([(3, 3)]), "mode": "reflect"}, [np.pad(a, 3, mode="reflect")])
a = rnd((3, 4, 16), "float32")
cv = [(1.5, -2.0), (7.0, 9.0), (-1.0, 3.0)]
pw = [(1, 1), (2, 0), (0, 0)]
add("pad_constant_3d_vec", "pad", [a], ["C"], {"pw": pairs(pw), "mode": "constant", "cv": pairs(cv)}, [np.pad(a, pw, constant_values=cv)])
for lay in ["S", "F"]:
    base = base_for((12, 40), lay, "float32")
    a = apply_layout(base, lay)
    add(f"pad_reflect_vec_{lay}", "pad", [base], [lay], {"pw": pairs([(16, 16)]), "mode": "reflect"}, [np.pad(a, 16, mode="reflect")])
    add(f"pad_wrap_vec_{lay}", "pad", [base], [lay], {"pw": pairs([(4, 1), (3, 5)]), "mode": "wrap"}, [np.pad(a, [(4, 1), (3, 5)], mode="wrap")])

s.write()
