"""Goldens of cusci::sparse's incremental family (scipy.sparse 1.18 dok_matrix and lil_matrix).

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Case parameters: dtype, rows, cols
and per func:
  func build: a sequence of element assignments A[i, j] = v (<case>_i, _j: int64, negative indices
        included; <case>_v: values of the case's dtype, zeros included: they remove entries; keys
        assigned twice: overwrites) replayed on an empty dok_matrix and lil_matrix, then:
        DOK in dict order <case>_dok_row/_col/_val (= SciPy's tocoo()), dok.tocsr() <case>_dok_csr_*,
        dok.tocsc() <case>_dok_csc_* (SciPy's own order, not sorted), LIL as lil.tocsr()
        <case>_lil_csr_* (= its rows/data), lil.tocsc() <case>_lil_csc_*, the dense array
        <case>_dense, the transposes (<case>_dokT_row/_col/_val, <case>_lilT_csr_*), and after
        resize(new_rows, new_cols) (<case>_rs_dok_row/_col/_val, <case>_rs_lil_csr_*). `huge`: a
        dimension above 2^31 - 1 (only COO/CSR and the host structures are compared; index dtype int64).
        `int64_idx`: the expected index dtype of SciPy's csr/coo arrays is int64.
  func from_csr: a csr_matrix over arrays with unsorted indices, duplicates and explicit zeros
        (<case>_in_data/_in_indices/_in_indptr) converted with todok() / tolil():
        <case>_dok_row/_col/_val (dict order) and <case>_lil_csr_*.
  func from_dense: <case>_in (2-D) -> dok (<case>_dok_*) and lil (<case>_lil_csr_*).
  func triplets: coo_matrix((data, (row, col))).todok() / .tolil() of host triplets with
        duplicates (<case>_data/_row/_col) -> <case>_dok_* and <case>_lil_csr_*.
  func astype: build sequence as above, then astype(to): <case>_dok_val (dict order kept) and
        <case>_lil_csr_*.
  func set_error: one assignment SciPy refuses: value given by `kind` ("int": `ival` a Python int,
        "float": `fval`, "complex": `cval`), at (i, j); error names the cusci exception.
  func mtx: a real matrix of examples/data (mmread), assigned entry by entry in a seeded random
        order (<case>_i/_j/_v), then dok.tocsr()/tocsc() and lil.tocsr()/tocsc() arrays as above.
"""
import os
import sys
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp

from golden import Suite

s = Suite("sparse_incremental")
rng = s.rng(20261203)
save = s.array

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def values(dt, n, zeros=0.25):
    """n values of dtype dt, about `zeros` of them zero; large magnitudes for the 64-bit integers."""
    if dt == "bool":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.startswith("complex"):
        v = (rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)).astype(dt)
    elif dt == "int64":
        v = rng.integers(-2**62, 2**62, n, dtype=np.int64)
    elif dt == "uint64":
        v = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    elif dt.startswith("uint"):
        v = rng.integers(0, 5, n).astype(dt)
    elif dt.startswith("float"):
        v = (rng.standard_normal(n) * 3).astype(dt)
    else:
        v = rng.integers(-4, 5, n).astype(dt)
    z = rng.random(n) < zeros
    v[z] = 0
    return v


def tol(dt):
    return (1e-6, 1e-6) if dt in ("float32", "complex64") else (0.0, 0.0)


def save_csr(prefix, A):
    save(prefix + "_data", A.data)
    save(prefix + "_indices", A.indices)
    save(prefix + "_indptr", A.indptr)


def save_dok(prefix, D):
    keys = list(D.keys())
    save(prefix + "_row", np.array([k[0] for k in keys], dtype=np.int64))
    save(prefix + "_col", np.array([k[1] for k in keys], dtype=np.int64))
    save(prefix + "_val", np.array(list(D.values()), dtype=D.dtype))


def replay(cls, shape, dt, i, j, v):
    A = cls(shape, dtype=dt)
    for a, b, x in zip(i, j, v):
        A[int(a), int(b)] = x
    return A


def ops(m, n, k):
    """k assignments in a (m, n) matrix: random positions (some negative, some repeated)."""
    i = rng.integers(0, m, k).astype(np.int64)
    j = rng.integers(0, n, k).astype(np.int64)
    if k >= 6:
        i[k // 2], j[k // 2] = i[1], j[1]  # an overwrite
        i[k - 1], j[k - 1] = i[2], j[2]
        neg = rng.random(k) < 0.2
        i[neg] -= m
        j[neg] -= n
    return i, j


# --- build: every dtype, several shapes and orders ----------------------------------------------
s.group("build")
SHAPES = [(6, 5, 30), (1, 1, 3), (0, 4, 0), (3, 0, 0), (9, 12, 60)]
for dt in DTYPES:
    for (m, n, k) in SHAPES:
        if (m, n) != (6, 5) and dt not in ("float64", "int64", "bool", "complex64", "uint64"):
            continue
        case = f"build_{dt}_{m}x{n}"
        i, j = ops(m, n, k)
        v = values(dt, k)
        if k >= 6:
            v[k - 1] = 0  # the last assignment removes an entry set before
        save(case + "_i", i)
        save(case + "_j", j)
        save(case + "_v", v)
        D = replay(sp.dok_matrix, (m, n), dt, i, j, v)
        L = replay(sp.lil_matrix, (m, n), dt, i, j, v)
        save_dok(case + "_dok", D)
        save_csr(case + "_dok_csr", D.tocsr())
        save_csr(case + "_dok_csc", D.tocsc())
        save_csr(case + "_lil_csr", L.tocsr())
        save_csr(case + "_lil_csc", L.tocsc())
        save(case + "_dense", D.toarray())
        save_dok(case + "_dokT", D.T)
        save_csr(case + "_lilT_csr", L.T.tocsr())
        rm, rn = max(m - 2, 0), n + 1
        D2, L2 = D.copy(), L.copy()
        D2.resize((rm, rn))
        L2.resize((rm, rn))
        save_dok(case + "_rs_dok", D2)
        save_csr(case + "_rs_lil_csr", L2.tocsr())
        assert D.nnz == L.nnz
        rt, at = tol(dt)
        s.case(case, func="build", rtol=rt, atol=at, dtype=dt, rows=m, cols=n, nnz=D.nnz,
               new_rows=rm, new_cols=rn, count_nonzero=int(D.count_nonzero()), huge=False,
               int64_idx=False)

# A dimension beyond int32: int64 index arrays (COO and CSR only; CSC would need 2^40 pointers).
for cls_shape in [(3, 2**40)]:
    m, n = cls_shape
    case = "build_float64_huge"
    i = np.array([0, 2, 1, 2, -1], dtype=np.int64)
    j = np.array([2**39, 5, 2**40 - 1, 7, -3], dtype=np.int64)
    v = np.array([1.5, -2.0, 3.0, 0.0, 4.0])
    save(case + "_i", i)
    save(case + "_j", j)
    save(case + "_v", v)
    D = replay(sp.dok_matrix, (m, n), "float64", i, j, v)
    L = replay(sp.lil_matrix, (m, n), "float64", i, j, v)
    save_dok(case + "_dok", D)
    C = D.tocsr()
    assert C.indices.dtype == np.int64 and D.tocoo().row.dtype == np.int64
    save_csr(case + "_dok_csr", C)
    save_csr(case + "_lil_csr", L.tocsr())
    assert L.tocsr().indices.dtype == np.int64
    s.case(case, func="build", dtype="float64", rows=m, cols=n, nnz=D.nnz, count_nonzero=int(D.count_nonzero()),
           huge=True, int64_idx=True)

# --- from_csr: unsorted indices, duplicates, explicit zeros --------------------------------------
s.group("convert")
for dt in DTYPES:
    case = f"from_csr_{dt}"
    m, n = 5, 6
    indptr = np.array([0, 3, 3, 7, 8, 10], dtype=np.int32)
    indices = np.array([4, 1, 4, 0, 5, 2, 0, 3, 1, 5], dtype=np.int32)  # row 0: 4 twice; row 2: unsorted
    data = values(dt, len(indices), zeros=0.0)
    data[6] = 0  # an explicit zero
    save(case + "_in_data", data)
    save(case + "_in_indices", indices)
    save(case + "_in_indptr", indptr)
    A = sp.csr_matrix((data, indices, indptr), shape=(m, n))
    save_dok(case + "_dok", A.copy().todok())
    save_csr(case + "_lil_csr", A.copy().tolil().tocsr())
    rt, at = tol(dt)
    s.case(case, func="from_csr", rtol=rt, atol=at, dtype=dt, rows=m, cols=n)

for dt in ["float64", "int32", "complex128", "bool", "uint64"]:
    case = f"from_dense_{dt}"
    d = values(dt, 4 * 7).reshape(4, 7)
    save(case + "_in", d)
    save_dok(case + "_dok", sp.dok_matrix(d))
    save_csr(case + "_lil_csr", sp.lil_matrix(d).tocsr())
    rt, at = tol(dt)
    s.case(case, func="from_dense", rtol=rt, atol=at, dtype=dt, rows=4, cols=7)

for dt in ["float64", "int8", "uint64", "bool", "complex64"]:
    case = f"triplets_{dt}"
    m, n, k = 5, 4, 16
    row = rng.integers(0, m, k).astype(np.int64)
    col = rng.integers(0, n, k).astype(np.int64)
    row[5], col[5] = row[0], col[0]
    row[9], col[9] = row[0], col[0]
    data = values(dt, k)
    save(case + "_row", row)
    save(case + "_col", col)
    save(case + "_data", data)
    C = sp.coo_matrix((data, (row, col)), shape=(m, n))
    save_dok(case + "_dok", C.copy().todok())
    save_csr(case + "_lil_csr", C.copy().tolil().tocsr())
    rt, at = tol(dt)
    s.case(case, func="triplets", rtol=rt, atol=at, dtype=dt, rows=m, cols=n)

for dt, to in [("float64", "int32"), ("complex128", "float32"), ("int64", "uint8"), ("float32", "bool"),
               ("uint64", "float64")]:
    case = f"astype_{dt}_{to}"
    m, n, k = 6, 5, 20
    i, j = ops(m, n, k)
    v = values(dt, k)
    if dt == "float64":
        v[3] = 0.25  # becomes an explicit zero in int32
    save(case + "_i", i)
    save(case + "_j", j)
    save(case + "_v", v)
    D = replay(sp.dok_matrix, (m, n), dt, i, j, v)
    L = replay(sp.lil_matrix, (m, n), dt, i, j, v)
    with warnings.catch_warnings():  # complex -> real casts warn
        warnings.simplefilter("ignore")
        save_dok(case + "_dok", D.astype(to))
        save_csr(case + "_lil_csr", L.astype(to).tocsr())
    rt, at = tol(to)
    s.case(case, func="astype", rtol=rt, atol=at, dtype=dt, to=to, rows=m, cols=n)

# --- assignments SciPy refuses -------------------------------------------------------------------
s.group("errors")
ERRS = [("int8", "int", 300, 0, 0), ("uint64", "int", -1, 0, 0), ("int64", "int", 2**63, 0, 0),
        ("uint8", "int", 256, 1, 1), ("float64", "complex", 1j, 0, 0), ("int32", "complex", 1 + 1j, 0, 0),
        ("int32", "float", float("nan"), 0, 0), ("int16", "float", float("inf"), 0, 0),
        ("float64", "int", 1, 3, 0), ("float64", "int", 1, 0, -5), ("float64", "int", 1, -4, 0),
        ("int8", "int", 127, 0, 0), ("uint64", "int", 2**64 - 1, 0, 0), ("bool", "float", 0.5, 1, 1),
        ("int32", "float", 2.7, 0, 1)]
EXC = {IndexError: "index_error", ValueError: "value_error", TypeError: "type_error", OverflowError: "value_error"}
for k, (dt, kind, val, i, j) in enumerate(ERRS):
    for cls in (sp.dok_matrix, sp.lil_matrix):
        fmt = cls.__name__[:3]
        case = f"set_error_{fmt}_{k}_{dt}"
        err, result = None, None
        try:
            A = cls((3, 4), dtype=dt)
            A[i, j] = val
            result = A[i, j]
        except Exception as e:  # noqa: BLE001
            err = next(v for t, v in EXC.items() if isinstance(e, t))
        params = dict(dtype=dt, fmt=fmt, kind=kind, i=i, j=j, rows=3, cols=4)
        if kind == "int":
            params["ival"] = str(val)  # may exceed int64: the test parses it
        elif kind == "float":
            params["fval"] = val
        else:
            params["cval"] = val
        if result is not None:
            params["result"] = result.item() if not isinstance(result.item(), complex) else result.item()
            params["result_str"] = str(result.item())
        s.case(case, func="set_error", error=err, **params)

# --- a real matrix, assigned entry by entry in a random order ------------------------------------
s.group("mtx")
path = os.path.join(s.data_dir, "1138_bus.mtx")
if not os.path.exists(path):
    sys.exit(f"{path} not found")
M = sp.coo_matrix(scipy.io.mmread(path, spmatrix=True))
perm = rng.permutation(M.nnz)
i, j, v = M.row[perm].astype(np.int64), M.col[perm].astype(np.int64), M.data[perm].astype(np.float64)
save("mtx_1138_bus_i", i)
save("mtx_1138_bus_j", j)
save("mtx_1138_bus_v", v)
D = replay(sp.dok_matrix, M.shape, "float64", i, j, v)
L = replay(sp.lil_matrix, M.shape, "float64", i, j, v)
save_csr("mtx_1138_bus_dok_csr", D.tocsr())
save_csr("mtx_1138_bus_dok_csc", D.tocsc())
save_csr("mtx_1138_bus_lil_csr", L.tocsr())
save_csr("mtx_1138_bus_lil_csc", L.tocsc())
s.case("mtx_1138_bus", func="mtx", rtol=0.0, atol=0.0, dtype="float64", rows=M.shape[0], cols=M.shape[1],
       nnz=D.nnz, file="1138_bus.mtx")

s.write()
