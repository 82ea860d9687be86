"""Goldens of cusci::sparse's coo_nd family: scipy.sparse.coo_array of any rank (SciPy 1.18.1).

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Module "sparse_coo_nd".

func "ops": one input array A per case (ranks 1..5, every value dtype, duplicates, explicit zeros,
unsorted entries, empty shapes, nnz = 0) and SciPy's results of every n-D COO operation on it, stored
as <case>__<key> (a key is absent when SciPy raised for that operation). Parameters: shape, dtype,
index_dtype (SciPy's A.coords[0].dtype), the arguments of the operations (reshapes, perms,
expand_axes, sum_axes, ...), the index dtypes of the results (names ending in _idx) and the result
shapes of reshape and transpose (rs_shapes, tr_shapes). Keys:
  data, coords ([ndim, nnz] int64), dense; sd_data/sd_coords (sum_duplicates); ez_data/ez_coords
  (eliminate_zeros on A as given); rs<i>_coords (reshape to reshapes[i]); tr<i>_coords (transpose by
  perms[i], null: reversed); mt_coords (mT); sw_coords (swapaxes(A, 0, -1)); pd_coords
  (permute_dims(A, perms[-1])); ed<i>_coords (expand_dims at expand_axes[i]); sum (axis None),
  sum<i> (sum_axes[i]), sumf (axis 0 with dtype float64); ast_dense (astype complex128);
  mul_data (A * 3), div_data (A / 2), mulc_data (A * (1+2j)); B_data/B_coords (a second array of
  A's shape and dtype), add_dense, sub_dense, and for ndim > 2 add_data/add_coords (SciPy's n-D add
  concatenates), muld_dense (A.multiply(dense of A's shape), xd), muls_dense (A.multiply(B));
  addd_dense (A + xd), subd_dense (A - xd), rsubd_dense (xd - A), addr_dense (A + x_r, x_r of shape
  (K,) broadcast);
  dot/matmul/tensordot operands x_* and results dot_*, mm_*, td_* (dense), and the sparse operand
  S_data/S_coords/S_shape with results dots_dense, mms_dense, tds_dense.

func "error": arguments SciPy rejects, with the exception mapped to cusci's (value_error,
index_error, type_error); params: op, shape and the op's arguments. Run on data-less arrays by the
host test (every check happens before device work).
"""
import numpy as np
import scipy.sparse as sp

from golden import Suite, tol

s = Suite("sparse_coo_nd")
rng = s.rng(20261203)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def values(dt, n):
    if dt == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dt.startswith("complex"):
        return (rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)).astype(dt)
    if dt.startswith("uint"):
        return rng.integers(0, 5, n).astype(dt)
    return rng.integers(-4, 5, n).astype(dt)


def make(shape, dt, nnz):
    """data [nnz] with some zeros, coords [ndim, nnz] with duplicates, unsorted."""
    size = int(np.prod(shape))
    if size == 0 or nnz == 0:
        return values(dt, 0), np.zeros((len(shape), 0), np.int64)
    lin = rng.integers(0, size, nnz)
    if nnz >= 4:
        lin[1] = lin[0]  # a duplicate
        lin[3] = lin[2]
    coords = np.array(np.unravel_index(lin, shape), dtype=np.int64).reshape(len(shape), nnz)
    data = values(dt, nnz)
    if nnz >= 6:
        data[5] = 0  # an explicit zero
    return data, coords


def coo(data, coords, shape):
    """A coo_array over copies of the arrays (SciPy may sort the arrays it was given in place)."""
    return sp.coo_array((data.copy(), tuple(np.array(c) for c in coords)), shape=shape)


def stack_coords(a):
    return np.array(np.stack(a.coords) if a.ndim > 0 else np.zeros((0, a.nnz)), dtype=np.int64).reshape(a.ndim, a.nnz)


def tol_of(dt, scale=1.0):
    return tol(np.dtype(dt), scale=scale, rtol32=1e-5, rtol64=1e-12)


def attempt(fn):
    try:
        return fn()
    except (ValueError, TypeError, IndexError):
        return None


def dense_of(r):
    return r.toarray() if sp.issparse(r) else np.asarray(r)


CASES = [
    # (name, shape, dtypes, nnz)
    ("r1", (9,), ["float64", "int32", "bool", "complex64"], 7),
    ("r2", (4, 5), ["float64", "int16", "bool", "complex128", "uint32"], 12),
    ("r3", (3, 4, 5), DTYPES, 20),
    ("r4", (2, 3, 2, 4), ["float64", "float32", "int64", "bool", "complex128"], 16),
    ("r5", (2, 1, 3, 2, 3), ["float64", "int8", "uint64", "complex64"], 14),
    ("e1", (0,), ["float64"], 0),
    ("e3", (3, 0, 4), ["float64", "int32"], 0),
    ("z3", (2, 3, 4), ["float64", "bool"], 0),
    ("z2", (3, 4), ["float32"], 0),
    ("o3", (1, 1, 1), ["float64"], 3),
]


def reshapes_for(shape):
    size = int(np.prod(shape))
    if size == 0:
        return [[0], list(reversed(shape))]
    out = [[size], [-1, shape[-1]], list(reversed(shape))]
    if size % 2 == 0 and size > 0:
        out.append([2, -1, 1])
    return out


def perms_for(nd):
    out = [None]
    if nd >= 2:
        p = list(rng.permutation(nd))
        out.append([int(x) for x in p])
        out.append([-1] + list(range(nd - 1)))  # negative axis
    return out


def sum_axes_for(nd):
    out = [0, -1]
    if nd >= 2:
        out.append([0, nd - 1])
    if nd >= 3:
        out.append([-2, 0])
        out.append(list(range(nd)))
    return out


s.group("ops")
for base, shape, dts, nnz in CASES:
    nd = len(shape)
    K = shape[-1]
    for dt in dts:
        name = f"{base}_{dt}"
        data, coords = make(shape, dt, nnz)
        A = coo(data, coords, shape)
        # A fresh array for every operation: some SciPy operations change their operands in place
        # (sum() and astype sum duplicates; a 1-D array's tocsr shares and sorts its arrays).
        F = lambda: coo(data, coords, shape)  # noqa: E731
        params = {"shape": list(shape), "dtype": dt, "index_dtype": A.coords[0].dtype.name}
        rt, at = tol_of(dt, scale=20)

        def put(key, arr):
            s.array(f"{name}__{key}", np.asarray(arr))

        put("data", F().data)
        put("coords", stack_coords(F()))
        put("dense", F().toarray())

        S = F().copy()
        S.sum_duplicates()
        put("sd_data", S.data)
        put("sd_coords", stack_coords(S))
        E = F().copy()
        E.eliminate_zeros()
        put("ez_data", E.data)
        put("ez_coords", stack_coords(E))

        rs = reshapes_for(shape)
        params["reshapes"] = rs
        rs_idx, rs_shapes = [], []
        for i, ns in enumerate(rs):
            r = F().reshape(tuple(ns))
            put(f"rs{i}_coords", stack_coords(r))
            rs_idx.append(r.coords[0].dtype.name)
            rs_shapes.append(list(r.shape))
        params["rs_idx"] = rs_idx
        params["rs_shapes"] = rs_shapes

        perms = perms_for(nd)
        params["perms"] = perms
        tr_shapes = []
        for i, p in enumerate(perms):
            r = F().transpose(None if p is None else tuple(p))
            put(f"tr{i}_coords", stack_coords(r))
            tr_shapes.append(list(r.shape))
        params["tr_shapes"] = tr_shapes
        if nd >= 2:
            put("mt_coords", stack_coords(F().mT))
        put("sw_coords", stack_coords(sp.swapaxes(F(), 0, -1)))
        if nd >= 2:
            put("pd_coords", stack_coords(sp.permute_dims(F(), tuple(perms[1]), copy=True)))

        eax = [0, -1, nd]
        params["expand_axes"] = eax
        ed_idx = []
        for i, ax in enumerate(eax):
            r = sp.expand_dims(F(), axis=ax)
            put(f"ed{i}_coords", stack_coords(r))
            ed_idx.append(r.coords[0].dtype.name)
        params["ed_idx"] = ed_idx

        put("sum", np.asarray(F().sum()))
        sax = sum_axes_for(nd)
        params["sum_axes"] = sax
        for i, ax in enumerate(sax):
            put(f"sum{i}", np.asarray(F().sum(axis=ax if isinstance(ax, int) else tuple(ax))))
        if not dt.startswith("complex"):
            put("sumf", np.asarray(F().sum(axis=0, dtype=np.float64)))
        put("ast_dense", F().astype(np.complex128).toarray())

        put("mul_data", (F() * 3).data)
        put("div_data", (F() / 2).data)
        put("mulc_data", (F() * (1 + 2j)).data)

        bdata, bcoords = make(shape, dt, nnz)
        B = coo(bdata, bcoords, shape)
        FB = lambda: coo(bdata, bcoords, shape)  # noqa: E731
        put("B_data", FB().data)
        put("B_coords", stack_coords(FB()))
        r = attempt(lambda: F() + FB())
        if r is not None:
            put("add_dense", dense_of(r))
            if nd > 2:
                put("add_data", r.data)
                put("add_coords", stack_coords(r))
        r = attempt(lambda: F() - FB())
        if r is not None:
            put("sub_dense", dense_of(r))

        xd = rng.integers(-3, 4, shape).astype(np.float64)
        put("xd", xd)
        r = attempt(lambda: F().multiply(xd))
        if r is not None:
            put("muld_dense", dense_of(r))
        r = attempt(lambda: F().multiply(FB()))
        if r is not None:
            put("muls_dense", dense_of(r))
        xr = xd.reshape(-1)[:K]  # broadcast along the leading axes
        put("x_r", xr)
        # SciPy 1.18.1's n-D A + D with a D that needs broadcasting returns D unchanged (its copy of the
        # broadcast view has neither C nor F layout, and the entries are added into a temporary): the
        # reference is SciPy's sum with the broadcast D materialized, when it broadcasts.
        xr_full = attempt(lambda: np.ascontiguousarray(np.broadcast_to(xr, shape)))
        for key, fn in (("addd", lambda: F() + xd), ("subd", lambda: F() - xd), ("rsubd", lambda: xd - F()),
                        ("addr", lambda: F() + (xr if xr_full is None else xr_full))):
            r = attempt(fn)
            if r is not None:
                put(f"{key}_dense", dense_of(r))

        # Dense products.
        xv = rng.integers(-3, 4, (K,)).astype(np.float64)
        xm = rng.integers(-3, 4, (K, 3)).astype(np.float64)
        x3 = rng.integers(-3, 4, (2, K, 3)).astype(np.float64)
        xc = rng.integers(-3, 4, (K, 1)).astype(np.float64)
        put("x_v", xv)
        put("x_m", xm)
        put("x_3", x3)
        put("x_c", xc)
        for key, x in (("v", xv), ("m", xm), ("3", x3)):
            r = attempt(lambda: F().dot(x))
            if r is not None:
                put(f"dot_{key}", dense_of(r))
        for key, x in (("v", xv), ("m", xm), ("c", xc), ("3", x3)):
            r = attempt(lambda: F() @ x)
            if r is not None:
                put(f"mm_{key}", dense_of(r))
        if nd >= 3:
            xb = rng.integers(-3, 4, (1,) + shape[1:-2] + (K, 2)).astype(np.float64)  # broadcast batch
            put("x_b", xb)
            r = attempt(lambda: F() @ xb)
            if r is not None:
                put("mm_b", dense_of(r))
        r = attempt(lambda: F().tensordot(xm, axes=1))
        if r is not None:
            put("td_1", dense_of(r))
        if nd >= 2:
            xt = rng.integers(-3, 4, (2, shape[0], shape[-1])).astype(np.float64)
            put("x_t", xt)
            r = attempt(lambda: F().tensordot(xt, axes=([0, -1], [1, 2])))
            if r is not None:
                put("td_t", dense_of(r))

        # Sparse products: S of shape batch(A) + (K, 2) (batch dims of A), A's dtype.
        sshape = (shape[:-2] if nd >= 3 else ()) + (K, 2)
        sdata, scoords = make(sshape, dt, max(nnz // 2, 0))
        Sx = coo(sdata, scoords, sshape)
        FS = lambda: coo(sdata, scoords, sshape)  # noqa: E731
        put("S_data", FS().data)
        put("S_coords", stack_coords(FS()))
        params["S_shape"] = list(sshape)
        r = attempt(lambda: F().dot(FS()))
        if r is not None:
            put("dots_dense", dense_of(r))
        r = attempt(lambda: F() @ FS())
        if r is not None:
            put("mms_dense", dense_of(r))
        r = attempt(lambda: F().tensordot(FS(), axes=([nd - 1], [len(sshape) - 2])))
        if r is not None and sp.issparse(r):
            put("tds_dense", dense_of(r))

        s.case(name, func="ops", rtol=rt, atol=at, **params)

# --- errors -----------------------------------------------------------------------------------------
EXC = {ValueError: "value_error", IndexError: "index_error", TypeError: "type_error"}


def err_case(name, op, shape, fn, **args):
    A = sp.coo_array(np.ones(shape))
    try:
        fn(A)
    except tuple(EXC) as e:
        s.case(f"err_{name}", func="error", error=EXC[type(e)], op=op, shape=list(shape), **args)
        return
    raise AssertionError(f"SciPy accepted error case {name}")


err_case("reshape_size", "reshape", (2, 3, 4), lambda A: A.reshape((5, 5)), new_shape=[5, 5])
err_case("reshape_two_unknown", "reshape", (2, 3, 4), lambda A: A.reshape((-1, -1)), new_shape=[-1, -1])
err_case("reshape_bad_unknown", "reshape", (2, 3, 4), lambda A: A.reshape((5, -1)), new_shape=[5, -1])
err_case("transpose_len", "transpose", (2, 3, 4), lambda A: A.transpose((0, 1)), axes=[0, 1])
err_case("transpose_repeat", "transpose", (2, 3, 4), lambda A: A.transpose((0, 0, 1)), axes=[0, 0, 1])
err_case("transpose_range", "transpose", (2, 3, 4), lambda A: A.transpose((0, 1, 5)), axes=[0, 1, 5])
err_case("mT_1d", "mT", (5,), lambda A: A.mT)
err_case("sum_range", "sum", (2, 3, 4), lambda A: A.sum(axis=3), axis=[3])
err_case("sum_neg_range", "sum", (2, 3, 4), lambda A: A.sum(axis=-4), axis=[-4])
err_case("sum_dup", "sum", (2, 3, 4), lambda A: A.sum(axis=(0, -3)), axis=[0, -3])
err_case("sum_empty", "sum", (2, 3, 4), lambda A: A.sum(axis=()), axis=[])
err_case("permute_len", "permute_dims", (2, 3, 4), lambda A: sp.permute_dims(A, (0, 1)), axes=[0, 1])
err_case("permute_range", "permute_dims", (2, 3, 4), lambda A: sp.permute_dims(A, (0, 1, 3)), axes=[0, 1, 3])
err_case("permute_dup", "permute_dims", (2, 3, 4), lambda A: sp.permute_dims(A, (0, 1, -3)), axes=[0, 1, -3])
err_case("swapaxes_range", "swapaxes", (2, 3, 4), lambda A: sp.swapaxes(A, 0, 3), axis1=0, axis2=3)
err_case("swapaxes_neg", "swapaxes", (2, 3, 4), lambda A: sp.swapaxes(A, -4, 0), axis1=-4, axis2=0)
err_case("expand_range", "expand_dims", (2, 3, 4), lambda A: sp.expand_dims(A, axis=4), axis=4)
err_case("expand_neg", "expand_dims", (2, 3, 4), lambda A: sp.expand_dims(A, axis=-5), axis=-5)
err_case("tocsr_3d", "tocsr", (2, 3, 4), lambda A: A.tocsr())
err_case("dot_align", "dot_dense", (2, 3, 4), lambda A: A.dot(np.ones((5, 2))), x_shape=[5, 2])
err_case("dot_align_sparse", "dot_sparse", (2, 3, 4), lambda A: A.dot(sp.coo_array(np.ones((5, 2)))),
         x_shape=[5, 2])
err_case("matmul_k", "matmul_dense", (2, 3, 4), lambda A: A @ np.ones((2, 5, 2)), x_shape=[2, 5, 2])
err_case("matmul_vec", "matmul_dense", (2, 3, 4), lambda A: A @ np.ones(5), x_shape=[5])
err_case("matmul_batch", "matmul_dense", (2, 3, 4), lambda A: A @ np.ones((3, 4, 2)), x_shape=[3, 4, 2])
err_case("matmul_sparse_k", "matmul_sparse", (2, 3, 4), lambda A: A @ sp.coo_array(np.ones((2, 5, 2))),
         x_shape=[2, 5, 2])
err_case("matmul_sparse_batch", "matmul_sparse", (2, 3, 4),
         lambda A: A @ sp.coo_array(np.ones((3, 4, 2))), x_shape=[3, 4, 2])
err_case("tensordot_int", "tensordot_dense", (2, 3, 4), lambda A: A.tensordot(np.ones((4, 2)), axes=3),
         x_shape=[4, 2], axes=3)
err_case("tensordot_int0", "tensordot_dense", (2, 3, 4), lambda A: A.tensordot(np.ones((4, 2)), axes=0),
         x_shape=[4, 2], axes=0)
err_case("tensordot_size", "tensordot_dense", (2, 3, 4),
         lambda A: A.tensordot(np.ones((3, 2)), axes=([2], [0])), x_shape=[3, 2], a_axes=[2], b_axes=[0])
err_case("tensordot_len", "tensordot_dense", (2, 3, 4),
         lambda A: A.tensordot(np.ones((4, 2)), axes=([2, 1], [0])), x_shape=[4, 2], a_axes=[2, 1], b_axes=[0])
err_case("tensordot_range", "tensordot_dense", (2, 3, 4),
         lambda A: A.tensordot(np.ones((4, 2)), axes=([3], [0])), x_shape=[4, 2], a_axes=[3], b_axes=[0])
err_case("tensordot_sparse_size", "tensordot_sparse", (2, 3, 4),
         lambda A: A.tensordot(sp.coo_array(np.ones((3, 2))), axes=([2], [0])), x_shape=[3, 2], a_axes=[2],
         b_axes=[0])
err_case("add_shape", "add", (2, 3, 4), lambda A: A + sp.coo_array(np.ones((2, 4, 3))), x_shape=[2, 4, 3])
err_case("multiply_dense_shape", "multiply_dense", (2, 3, 4), lambda A: A.multiply(np.ones((2, 4, 3))),
         x_shape=[2, 4, 3])
err_case("multiply_sparse_shape", "multiply_sparse", (2, 3, 4),
         lambda A: A.multiply(sp.coo_array(np.ones((2, 4, 3)))), x_shape=[2, 4, 3])


def ctor_err(name, fn, **params):
    try:
        fn()
    except tuple(EXC) as e:
        s.case(f"err_{name}", func="error", error=EXC[type(e)], op="construct", **params)
        return
    raise AssertionError(f"SciPy accepted error case {name}")


ctor_err("ctor_ncoords", lambda: sp.coo_array((np.ones(2), (np.zeros(2, int), np.zeros(2, int))), shape=(3, 3, 3)),
         shape=[3, 3, 3], ncoords=2, nnz=2, coord_len=2)
ctor_err("ctor_len", lambda: sp.coo_array((np.ones(3), (np.zeros(2, int), np.zeros(2, int))), shape=(3, 3)),
         shape=[3, 3], ncoords=2, nnz=3, coord_len=2)
ctor_err("ctor_negative_shape", lambda: sp.coo_array((np.ones(0), (np.zeros(0, int),)), shape=(-1,)),
         shape=[-1], ncoords=1, nnz=0, coord_len=0)
ctor_err("ctor_infer_empty", lambda: sp.coo_array((np.ones(0), (np.zeros(0, int), np.zeros(0, int)))),
         shape=None, ncoords=2, nnz=0, coord_len=0)

s.write()
