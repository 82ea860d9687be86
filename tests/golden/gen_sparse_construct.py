#!/usr/bin/env python3
"""References for cusci::sparse's construct family (constructors, arithmetic, comparisons).

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Arrays are named
"<case>__<name>". Inputs are stored as the arrays of their format (csr/csc: data, indices, indptr;
coo: data, row, col) with parameters <name>_fmt and <name>_shape; "dia"/"bsr" inputs are built from
the csr arrays with todia()/tobsr((2, 2)) on both sides. Results: array "out" is the dense value
(toarray() of a sparse result); parameters out_kind ("sparse", "dense", "random", "find"),
out_format and out_nnz; the dtype is that of "out". A format that is not given (SciPy's default) is
null.
"""
import warnings

import numpy as np
import scipy.sparse as sp

from golden import Suite

warnings.simplefilter("ignore")
s = Suite("sparse_construct")
rng = s.rng(20240518)


def arr(name, a):
    s.array(name, a)


DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def tol(dt):
    """This module's own rule: atol well below rtol (results are near 1 in magnitude)."""
    dt = np.dtype(dt)
    if dt in (np.float32, np.complex64):
        return 1e-5, 1e-6
    if dt.kind in "fc":
        return 1e-12, 1e-14
    return 0, 0


def values(n, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool) | (np.arange(n) % 3 == 0)
    if dt.kind in "iu":
        v = rng.integers(1, 9, n)
        if dt.kind == "i":
            v = v * rng.choice([-1, 1], n)
        return v.astype(dt)
    v = rng.standard_normal(n).round(3)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(n).round(3)
    return v.astype(dt)


def rand_sparse(m, n, density, dt, idx="int32", dups=False, unsorted=False, zeros=False):
    """A csr_matrix with optional duplicates, unsorted indices and explicit zeros."""
    k = int(round(density * m * n))
    r = rng.integers(0, max(m, 1), k) if m else np.zeros(0, int)
    c = rng.integers(0, max(n, 1), k) if n else np.zeros(0, int)
    if m == 0 or n == 0:
        r = c = np.zeros(0, int)
        k = 0
    d = values(k, dt)
    if zeros and k:
        d[0] = 0
    A = sp.csr_matrix((d, (r, c)), shape=(m, n), dtype=dt)
    A.sum_duplicates()
    data, indices, indptr = A.data.copy(), A.indices.copy(), A.indptr.copy()
    if dups and A.nnz:
        # duplicate the first entry of every other row (split its value in two)
        nd, ni, npt = [], [], [0]
        for i in range(m):
            s, e = indptr[i], indptr[i + 1]
            rd, ri = list(data[s:e]), list(indices[s:e])
            if e > s and i % 2 == 0 and np.dtype(dt).kind not in "b":
                half = rd[0] // 2 if np.dtype(dt).kind in "iu" else rd[0] / 2
                rd = [rd[0] - half, half] + rd[1:]
                ri = [ri[0], ri[0]] + ri[1:]
            nd += rd
            ni += ri
            npt.append(len(nd))
        data, indices, indptr = np.array(nd, dtype=dt), np.array(ni), np.array(npt)
    if unsorted:
        for i in range(m):
            s, e = indptr[i], indptr[i + 1]
            data[s:e], indices[s:e] = data[s:e][::-1].copy(), indices[s:e][::-1].copy()
    B = sp.csr_matrix((data, indices.astype(idx), indptr.astype(idx)), shape=(m, n))
    B.indices = B.indices.astype(idx)
    B.indptr = B.indptr.astype(idx)
    return B


def store_input(case, name, A, fmt):
    """Stores A (a csr_matrix) as `fmt`; returns (the SciPy object in that format, its case parameters).

    Works on a copy: SciPy canonicalizes matrices in place (`_deduped_data`, `sum_duplicates`, via
    abs/astype/power), so an operation must neither see another case's in-place changes nor alter the
    arrays stored for this one."""
    idx = A.indices.dtype  # csr_matrix.copy() would shrink int64 indices to int32
    A = sp.csr_matrix((A.data.copy(), A.indices.copy(), A.indptr.copy()), shape=A.shape)
    A.indices = A.indices.astype(idx)
    A.indptr = A.indptr.astype(idx)
    stored = {}
    if fmt == "csr":
        M = A
        stored["data"], stored["i1"], stored["i2"] = \
            M.data, M.indices, M.indptr
    elif fmt == "csc":
        M = sp.csc_matrix(A.T.tocsr().T)  # csc with the same duplicates/order semantics
        M = sp.csc_matrix((A.T.tocsr().data, A.T.tocsr().indices, A.T.tocsr().indptr), shape=A.shape)
        M.indices = M.indices.astype(A.indices.dtype)
        M.indptr = M.indptr.astype(A.indices.dtype)
        stored["data"], stored["i1"], stored["i2"] = \
            M.data, M.indices, M.indptr
    elif fmt == "coo":
        M = A.tocoo()
        M.row = M.row.astype(A.indices.dtype)
        M.col = M.col.astype(A.indices.dtype)
        stored["data"], stored["i1"], stored["i2"] = \
            M.data, M.row, M.col
    else:
        stored["data"], stored["i1"], stored["i2"] = \
            A.data, A.indices, A.indptr
        M = A.todia() if fmt == "dia" else A.tobsr((2, 2))
    for key in ("data", "i1", "i2"):  # snapshot: M may share (and later mutate) these arrays
        arr(f"{case}__{name}_{key}", np.array(stored[key], copy=True))
    return M, {f"{name}_fmt": fmt, f"{name}_shape": list(A.shape)}


def add(case, func, params, result=None, error=None, out_kind="sparse", dt=None):
    r_, a_ = tol(dt if dt is not None else (result.dtype if result is not None else np.float64))
    fmt, nnz = None, None
    if error:
        out_kind = None
    elif out_kind == "sparse":
        fmt, nnz = result.format, result.nnz
        arr(f"{case}__out", result.toarray())
    elif out_kind == "dense":
        arr(f"{case}__out", np.asarray(result))
    s.case(case, func=func, rtol=r_, atol=a_, error=error, out_kind=out_kind, out_format=fmt, out_nnz=nnz,
           **params)


def run_error(case, func, params, fn):
    try:
        fn()
    except ValueError:
        add(case, func, params, error="value_error")
        return
    except TypeError:
        add(case, func, params, error="type_error")
        return
    except NotImplementedError:
        add(case, func, params, error="not_implemented_error")
        return
    raise RuntimeError(f"{case}: expected an error")


# ----- eye / identity -------------------------------------------------------------------------
s.group("build")
n = 0
for (m, nn, k) in [(3, 3, 0), (3, 4, 1), (4, 3, -2), (1, 5, 0), (5, 1, 0), (0, 0, 0), (2, 2, 0), (4, 6, 3)]:
    for fmt in ["", "csr", "csc", "coo", "dia", "bsr"]:
        if fmt == "bsr" and (m, nn) != (2, 2):
            continue
        R = sp.eye(m, nn, k=k, dtype=np.float64, format=fmt or None)
        add(f"eye{n}", "eye", dict(m=m, n=nn, k=k, dtype="float64", format=fmt or None), R)
        n += 1
for dt in DTYPES:
    R = sp.eye(3, 4, k=1, dtype=dt, format="csr")
    add(f"eye{n}", "eye", dict(m=3, n=4, k=1, dtype=dt, format="csr"), R)
    n += 1
    R = sp.identity(3, dtype=dt)
    add(f"identity_{dt}", "identity", dict(n=3, dtype=dt, format=None), R)
run_error("eye_err_k", "eye", dict(m=3, n=3, k=5, dtype="float64", format=None), lambda: sp.eye(3, 3, k=5))
run_error("eye_err_fmt", "eye", dict(m=3, n=3, k=0, dtype="float64", format="xyz"),
          lambda: sp.eye(3, 3, format="xyz"))

# ----- diags / spdiags ------------------------------------------------------------------------
diag_cases = [
    ([[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0], [1.0, 2.0]], [0, -1, 2], None, None),
    ([[1.0], [-2.0], [1.0]], [-1, 0, 1], (4, 4), None),
    ([[1, 2, 3]], [1], None, None),
    ([[1, 2, 3]], [0], (3, 5), "complex64"),
    ([[1.5, 2.5, 3.5, 4.5, 5.5]], [0], (3, 5), "float32"),
    ([[1.0, 2.0]], [-2], (4, 2), None),
]
for i, (dg, offs, shape, dt) in enumerate(diag_cases):
    for fmt in ["", "csr", "coo"]:
        ins = [np.asarray(d) for d in dg]
        kw = {"dtype": dt} if dt else {}  # no dtype: SciPy 1.18's default (common_type)
        R = sp.diags(ins, offs, shape=shape, format=fmt or None, **kw)
        case = f"diags{i}_{fmt or 'none'}"
        for j, d in enumerate(ins):
            arr(f"{case}__diag{j}", d)
        add(case, "diags", dict(ndiag=len(ins), offsets=offs, format=fmt or None, shape=shape, dtype=dt), R)
for j, d in enumerate([np.arange(1.0, 4.0), np.arange(1.0, 3.0)]):
    arr(f"diags_err_len__diag{j}", d)
run_error("diags_err_len", "diags", dict(ndiag=2, offsets=[0, 1], format=None, shape=[5, 5]),
          lambda: sp.diags([np.arange(1.0, 4.0), np.arange(1.0, 3.0)], [0, 1], shape=(5, 5)))
arr("diags_err_off__diag0", np.arange(1.0, 4.0))
run_error("diags_err_off", "diags", dict(ndiag=1, offsets=[9], format=None, shape=[3, 3]),
          lambda: sp.diags([np.arange(1.0, 4.0)], [9], shape=(3, 3)))
arr("diags_err_n__diag0", np.arange(1.0, 4.0))
run_error("diags_err_n", "diags", dict(ndiag=1, offsets=[0, 1], format=None),
          lambda: sp.diags([np.arange(1.0, 4.0)], [0, 1]))
for i, (data, offs, m, nn, fmt) in enumerate([
        (np.array([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], dtype=np.float64), [0, -1, 2], 4, 4, ""),
        (np.arange(1, 13, dtype=np.int32).reshape(3, 4), [0, 1, -2], 3, 5, "csr"),
        (np.arange(1, 5, dtype=np.complex128).reshape(1, 4), [0], None, None, "coo")]):
    R = sp.spdiags(data, offs, m, nn, format=fmt or None)
    case = f"spdiags{i}"
    arr(f"{case}__data", data)
    add(case, "spdiags", dict(offsets=offs, format=fmt or None, m=m, n=nn), R)

# ----- random ---------------------------------------------------------------------------------
for i, (m, nn, dens, fmt, dt) in enumerate([(10, 20, 0.1, "coo", None), (7, 3, 0.5, "csr", "float32"),
                                            (5, 5, 1.0, "csc", "int16"), (40, 30, 0.013, "coo", "complex64"),
                                            (0, 5, 0.3, "coo", None), (6, 4, 0.0, "csr", "bool"),
                                            (9, 9, 0.25, "dia", "uint8")]):
    R = sp.random(m, nn, density=dens, format=fmt, dtype=dt, rng=1)
    k = int(round(dens * m * nn))  # SciPy's count of sampled positions
    assert R.tocoo().nnz <= k and (fmt == "dia" or R.nnz == k)
    # A dia result stores whole diagonals, so its nnz depends on where the k positions fell (the
    # random stream): only k is comparable; out_nnz is -1 there and the test checks nnz >= k.
    s.case(f"random{i}", func="random", m=m, n=nn, density=dens, format=fmt, dtype=dt or "float64", k=k,
           out_kind="random", out_format=R.format, out_nnz=R.nnz if fmt != "dia" else None)
run_error("random_err_density", "random", dict(m=3, n=3, density=1.5, format="coo", dtype="float64"),
          lambda: sp.random(3, 3, density=1.5))

# ----- kron / kronsum ----------------------------------------------------------------------------
kron_in = [(rand_sparse(3, 2, 0.5, "float64"), rand_sparse(2, 3, 0.6, "float64")),
           (rand_sparse(3, 3, 0.3, "int8"), rand_sparse(2, 2, 0.4, "float32")),
           (rand_sparse(2, 4, 0.5, "complex128", dups=True), rand_sparse(3, 1, 0.3, "int64")),
           (rand_sparse(0, 3, 0.5, "float64"), rand_sparse(2, 2, 1.0, "float64")),
           (rand_sparse(4, 4, 0.2, "float64", idx="int64", unsorted=True), rand_sparse(1, 5, 0.2, "uint16"))]
for i, (A, B) in enumerate(kron_in):
    for fmt in ["", "coo", "csr", "bsr"]:
        for af, bf in [("csr", "csr"), ("coo", "csc")]:
            case = f"kron{i}_{fmt or 'none'}_{af}{bf}"
            Ain, pa = store_input(case, "A", A, af)
            Bin, pb = store_input(case, "B", B, bf)
            add(case, "kron", {**pa, **pb, "format": fmt or None}, sp.kron(Ain, Bin, format=fmt or None))
for i, (A, B) in enumerate([(rand_sparse(3, 3, 0.5, "float64"), rand_sparse(2, 2, 0.5, "float64")),
                            (rand_sparse(2, 2, 0.7, "int32"), rand_sparse(3, 3, 0.4, "complex64"))]):
    for fmt in ["", "coo"]:
        case = f"kronsum{i}_{fmt or 'none'}"
        Ain, pa = store_input(case, "A", A, "csr")
        Bin, pb = store_input(case, "B", B, "coo")
        add(case, "kronsum", {**pa, **pb, "format": fmt or None}, sp.kronsum(Ain, Bin, format=fmt or None))
case = "kronsum_err"
store_input(case, "A", rand_sparse(2, 3, 0.5, "float64"), "csr")
store_input(case, "B", rand_sparse(2, 2, 0.5, "float64"), "csr")
run_error(case, "kronsum", dict(A_fmt="csr", A_shape=[2, 3], B_fmt="csr", B_shape=[2, 2], format=None),
          lambda: sp.kronsum(sp.csr_matrix((2, 3)), sp.csr_matrix((2, 2))))

# ----- stacks ------------------------------------------------------------------------------------
def stack_case(case, func, mats, fmts, fmt, dtype=None, grid=None):
    objs, p = [], {}
    for j, (A, f) in enumerate(zip(mats, fmts)):
        if A is None:  # an empty block: B<j>_fmt is null
            objs.append(None)
            p[f"B{j}_fmt"] = None
            continue
        o, pj = store_input(case, f"B{j}", A, f)
        objs.append(o)
        p.update(pj)
    p.update(nblocks=len(mats), format=fmt or None, dtype=dtype, grid=grid)
    try:
        if func == "hstack":
            R = sp.hstack(objs, format=fmt or None, dtype=dtype)
        elif func == "vstack":
            R = sp.vstack(objs, format=fmt or None, dtype=dtype)
        elif func == "block_diag":
            R = sp.block_diag(objs, format=fmt or None, dtype=dtype)
        else:
            g = [objs[r * grid[1]:(r + 1) * grid[1]] for r in range(grid[0])]
            R = sp.bmat(g, format=fmt or None, dtype=dtype)
    except ValueError:
        add(case, func, p, error="value_error")
        return
    add(case, func, p, R)


a1 = rand_sparse(3, 4, 0.4, "float64", dups=True, unsorted=True, zeros=True)
a2 = rand_sparse(3, 2, 0.5, "int32")
a3 = rand_sparse(2, 4, 0.5, "complex64", idx="int64")
for fmt in ["", "csr", "csc", "coo"]:
    for fm in [("csr", "csr"), ("csc", "csc"), ("coo", "csr")]:
        stack_case(f"hstack_{fmt or 'none'}_{fm[0]}{fm[1]}", "hstack", [a1, a2], fm, fmt)
        stack_case(f"vstack_{fmt or 'none'}_{fm[0]}{fm[1]}", "vstack", [a1, a3], fm, fmt)
stack_case("hstack_dtype", "hstack", [a1, a2], ("csr", "coo"), "", dtype="float32")
stack_case("hstack_err", "hstack", [a1, a3], ("coo", "coo"), "")
stack_case("vstack_err_csr", "vstack", [a1, a2], ("csr", "csr"), "")
b11, b12 = rand_sparse(2, 3, 0.5, "float64"), rand_sparse(2, 2, 0.5, "float64")
b22 = rand_sparse(3, 2, 0.5, "int16")
for fmt in ["", "csr", "coo"]:
    stack_case(f"bmat_{fmt or 'none'}", "bmat", [b11, b12, None, b22], ["csr", "coo", None, "csr"], fmt, grid=(2, 2))
    stack_case(f"bmat_csr_{fmt or 'none'}", "bmat", [b11, b12, rand_sparse(3, 3, 0.4, "float64"), b22],
               ["csr"] * 4, fmt, grid=(2, 2))
stack_case("bmat_err", "bmat", [b11, b22], ["coo", "coo"], "", grid=(1, 2))
for fmt in ["", "csr"]:
    stack_case(f"block_diag_{fmt or 'none'}", "block_diag", [a1, a2, rand_sparse(1, 1, 1.0, "uint8")],
               ["csr", "coo", "csc"], fmt)

# ----- tril / triu / find ------------------------------------------------------------------------
s.group("triangles")
tri_in = rand_sparse(5, 6, 0.6, "float64", dups=True, unsorted=True, zeros=True)
for func in ["tril", "triu"]:
    for k in [0, 1, -2, 7]:
        for fmt in ["", "csr", "csc"]:
            for inf in ["csr", "coo"]:
                case = f"{func}_{k}_{fmt or 'none'}_{inf}"
                A, pa = store_input(case, "A", tri_in, inf)
                R = (sp.tril if func == "tril" else sp.triu)(A, k=k, format=fmt or None)
                add(case, func, {**pa, "k": k, "format": fmt or None}, R)
for i, (A, inf) in enumerate([(tri_in, "csr"), (tri_in, "coo"), (tri_in, "csc"),
                              (rand_sparse(4, 4, 0.5, "int64", idx="int64", zeros=True), "csr"),
                              (rand_sparse(0, 3, 0.5, "float64"), "csr"), (rand_sparse(4, 4, 0.5, "float64"), "dia")]):
    case = f"find{i}"
    M, pa = store_input(case, "A", A, inf)
    r, c, d = sp.find(M)
    arr(f"{case}__out_row", r)
    arr(f"{case}__out_col", c)
    arr(f"{case}__out_data", d)
    s.case(case, func="find", rtol=tol(d.dtype)[0], atol=tol(d.dtype)[1], out_kind="find", out_format=None,
           out_nnz=len(d), **pa)

# ----- arithmetic -------------------------------------------------------------------------------
s.group("arithmetic")
def binary(case, func, A, B, af, bf, op=None):
    Ain, pa = store_input(case, "A", A, af)
    Bin, pb = store_input(case, "B", B, bf)
    p = {**pa, **pb}
    if op:
        p["op"] = op
    try:
        if func == "add":
            R = Ain + Bin
        elif func == "subtract":
            R = Ain - Bin
        elif func == "multiply":
            R = Ain.multiply(Bin)
        elif func == "divide":
            R = Ain / Bin
        elif func == "maximum":
            R = Ain.maximum(Bin)
        elif func == "minimum":
            R = Ain.minimum(Bin)
        else:
            R = {"eq": Ain == Bin, "ne": Ain != Bin, "lt": Ain < Bin, "le": Ain <= Bin, "gt": Ain > Bin,
                 "ge": Ain >= Bin}[op]
    except ValueError:
        add(case, func, p, error="value_error")
        return
    if sp.issparse(R):
        add(case, func, p, R)
    else:
        add(case, func, p, np.asarray(R), out_kind="dense")


X = rand_sparse(6, 5, 0.4, "float64", dups=True, unsorted=True, zeros=True)
Y = rand_sparse(6, 5, 0.4, "float64", zeros=True)
for func in ["add", "subtract", "multiply", "maximum", "minimum", "divide"]:
    for af, bf in [("csr", "csr"), ("csc", "csc"), ("coo", "csr"), ("csr", "csc"), ("csc", "coo")]:
        binary(f"{func}_{af}{bf}", func, X, Y, af, bf)
    for dt in DTYPES if func in ("add", "multiply") else ["bool", "int8", "uint16", "float32", "complex128"]:
        Xd = rand_sparse(5, 4, 0.5, dt, dups=True, unsorted=True)
        Yd = rand_sparse(5, 4, 0.5, dt, zeros=True)
        binary(f"{func}_{dt}", func, Xd, Yd, "csr", "csr")
    for da, db in [("int8", "float32"), ("bool", "int16"), ("uint8", "int8"), ("float32", "complex64"),
                   ("int64", "uint64")]:
        binary(f"{func}_{da}_{db}", func, rand_sparse(4, 4, 0.5, da), rand_sparse(4, 4, 0.5, db), "csr", "csr")
    binary(f"{func}_idx64", func, rand_sparse(5, 5, 0.4, "float64", idx="int64"), Y[:5, :5].tocsr(), "csr", "csr")
    binary(f"{func}_empty", func, rand_sparse(0, 3, 0.5, "float64"), rand_sparse(0, 3, 0.5, "float64"), "csr", "csr")
    binary(f"{func}_row", func, rand_sparse(1, 7, 0.5, "float64"), rand_sparse(1, 7, 0.5, "float64"), "csr", "csr")
    binary(f"{func}_col", func, rand_sparse(7, 1, 0.5, "float64"), rand_sparse(7, 1, 0.5, "float64"), "csc", "csr")
    binary(f"{func}_err", func, rand_sparse(3, 4, 0.5, "float64"), rand_sparse(4, 3, 0.5, "float64"), "csr", "csr")
binary("add_diadia", "add", rand_sparse(4, 4, 0.5, "float64"), rand_sparse(4, 4, 0.5, "float64"), "dia", "csr")
binary("add_bsr", "add", rand_sparse(4, 4, 0.5, "float64"), rand_sparse(4, 4, 0.5, "float64"), "bsr", "coo")
for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
    for af, bf in [("csr", "csr"), ("csc", "coo")]:
        binary(f"cmp_{op}_{af}{bf}", "compare", X, Y, af, bf, op)
    for dt in ["bool", "int16", "uint32", "float32", "complex128"]:
        binary(f"cmp_{op}_{dt}", "compare", rand_sparse(4, 5, 0.5, dt, dups=True), rand_sparse(4, 5, 0.5, dt),
               "csr", "csr", op)

# sparse with dense
def with_dense(case, func, A, af, D, op=None):
    Ain, pa = store_input(case, "A", A, af)
    arr(f"{case}__D", D)
    p = dict(pa)
    if op:
        p["op"] = op
    try:
        R = {"add": lambda: Ain + D, "subtract": lambda: Ain - D, "rsubtract": lambda: D - Ain,
             "multiply": lambda: Ain.multiply(D), "divide": lambda: Ain / D, "maximum": lambda: Ain.maximum(D),
             "minimum": lambda: Ain.minimum(D)}.get(func, lambda: {"eq": Ain == D, "lt": Ain < D, "ge": Ain >= D}[op])()
    except ValueError:
        add(case, func + "_dense", p, error="value_error")
        return
    except TypeError:
        add(case, func + "_dense", p, error="type_error")
        return
    if sp.issparse(R):
        add(case, func + "_dense", p, R)
    else:
        add(case, func + "_dense", p, np.asarray(R), out_kind="dense")


for func in ["add", "subtract", "rsubtract", "multiply", "divide", "maximum", "minimum"]:
    for af in ["csr", "coo", "csc"]:
        with_dense(f"{func}_dense_{af}", func, X, af, rng.standard_normal((6, 5)).round(2) + 3)
    with_dense(f"{func}_dense_int", func, rand_sparse(3, 4, 0.5, "int16", dups=True), "csr",
               rng.integers(1, 5, (3, 4)).astype(np.int32))
    with_dense(f"{func}_dense_bool", func, rand_sparse(3, 4, 0.5, "bool"), "csr",
               rng.integers(0, 2, (3, 4)).astype(bool))
with_dense("add_dense_bcast", "add", X, "csr", rng.standard_normal(5).round(2))
with_dense("add_dense_err", "add", X, "csr", rng.standard_normal((5, 5)))
for op in ["eq", "lt", "ge"]:
    with_dense(f"cmp_dense_{op}", "compare", X, "csr", rng.standard_normal((6, 5)).round(1), op)

# sparse with scalars and unary functions
def unary(case, func, A, af, params=None, fn=None):
    Ain, pa = store_input(case, "A", A, af)
    p = {**pa, **(params or {})}
    try:
        R = fn(Ain)
    except ValueError:
        add(case, func, p, error="value_error")
        return
    except NotImplementedError:
        add(case, func, p, error="not_implemented_error")
        return
    if sp.issparse(R):
        add(case, func, p, R)
    else:
        add(case, func, p, np.asarray(R), out_kind="dense")


s.group("elementwise")
SC = {"2": 2, "2.5": 2.5, "-1.5": -1.5, "0": 0, "3": 3, "-3": -3, "nan": float("nan"), "1j": 1j, "0.5": 0.5}
for dt in DTYPES:
    Z = rand_sparse(4, 5, 0.5, dt, dups=True, unsorted=True, zeros=True)
    for af in ["csr", "coo"]:
        unary(f"scale2_{dt}_{af}", "multiply_scalar", Z, af, dict(s=2), lambda A: A * 2)
        unary(f"scale25_{dt}_{af}", "multiply_scalar", Z, af, dict(s=2.5), lambda A: A * 2.5)
        unary(f"div2_{dt}_{af}", "divide_scalar", Z, af, dict(s=2), lambda A: A / 2)
        unary(f"abs_{dt}_{af}", "abs", Z, af, None, lambda A: abs(A))
        unary(f"neg_{dt}_{af}", "negative", Z, af, None, lambda A: -A)
        unary(f"conj_{dt}_{af}", "conj", Z, af, None, lambda A: A.conj())
        unary(f"real_{dt}_{af}", "real", Z, af, None, lambda A: A.real)
        unary(f"imag_{dt}_{af}", "imag", Z, af, None, lambda A: A.imag)
        unary(f"transpose_{dt}_{af}", "transpose", Z, af, None, lambda A: A.T)
        unary(f"H_{dt}_{af}", "conj_transpose", Z, af, None, lambda A: A.getH())
        unary(f"pow2_{dt}_{af}", "power", Z, af, dict(p=2), lambda A: A.power(2))
    unary(f"transpose_{dt}_csc", "transpose", Z, "csc", None, lambda A: A.T)
for af in ["csr", "csc", "coo", "dia"]:
    Z = rand_sparse(5, 5, 0.5, "float64", zeros=True)
    for v in ["2", "-1.5", "0", "nan"]:
        unary(f"max_{v}_{af}", "maximum_scalar", Z, af, dict(s=SC[v]), lambda A: A.maximum(SC[v]))
        unary(f"min_{v}_{af}", "minimum_scalar", Z, af, dict(s=SC[v]), lambda A: A.minimum(SC[v]))
        for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
            if op in ("le", "ge") and v == "0":
                continue
            fnop = {"eq": lambda A: A == SC[v], "ne": lambda A: A != SC[v], "lt": lambda A: A < SC[v],
                    "le": lambda A: A <= SC[v], "gt": lambda A: A > SC[v], "ge": lambda A: A >= SC[v]}[op]
            unary(f"cmps_{op}_{v}_{af}", "compare_scalar", Z, af, dict(s=SC[v], op=op), fnop)
for v in ["2.5", "-3", "0.5"]:
    unary(f"pow_{v}", "power", rand_sparse(4, 4, 0.5, "float64", zeros=True), "csr", dict(p=SC[v]),
          lambda A: A.power(SC[v]))
unary("pow_int_neg", "power", rand_sparse(3, 3, 0.5, "int32"), "csr", dict(p=-3), lambda A: A.power(-3))
unary("pow_zero", "power", rand_sparse(3, 3, 0.5, "float64"), "csr", dict(p=0), lambda A: A.power(0))
unary("pow_dtype", "power", rand_sparse(3, 3, 0.5, "int8"), "csr", dict(p=2, dtype="float32"),
      lambda A: A.power(2, dtype=np.float32))
unary("neg_bool_err", "negative", rand_sparse(3, 3, 0.5, "bool"), "csr", None, lambda A: -A)
unary("add_scalar0", "add_scalar", X, "csr", dict(s=0), lambda A: A + 0)
unary("add_scalar_err", "add_scalar", X, "csr", dict(s=2), lambda A: A + 2)
unary("scale_1j", "multiply_scalar", rand_sparse(3, 4, 0.5, "float32"), "csr", dict(s=1j), lambda A: A * 1j)
unary("div_1j", "divide_scalar", rand_sparse(3, 4, 0.5, "complex64"), "csr", dict(s=1j), lambda A: A / 1j)

s.write()
