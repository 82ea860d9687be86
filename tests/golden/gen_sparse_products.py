"""Goldens for cusci::sparse products and reductions (tests/sparse/products/), from SciPy 1.18.

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Each case's arrays are named
"<case>__<key>". Every case stores its inputs (COO triplets in a deliberately awkward order: duplicates, explicit zeros,
unsorted; raw CSR/CSC arrays with unsorted indices and duplicates) and SciPy's outputs. A key is
missing when SciPy raises for that operation. Real matrices are inputs, read from examples/data.
"""
import os
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from golden import Suite, tol

s = Suite("sparse_products")
rng = s.rng(20261130)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def values(dt, n, lo=-4, hi=5):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind == "u":
        return rng.integers(0, hi, n).astype(dt)
    if dt.kind == "i":
        return rng.integers(lo, hi, n).astype(dt)
    if dt.kind == "f":
        return (rng.integers(-12, 13, n) / 4).astype(dt)
    return ((rng.integers(-12, 13, n) + 1j * rng.integers(-12, 13, n)) / 4).astype(dt)


def compressed_raw(data, major, minor, nmajor):
    """Arrays of a compressed matrix sorted by major index only (stable): unsorted minor indices and
    duplicates kept."""
    order = np.argsort(major, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(major, minlength=nmajor))]).astype(np.int64)
    return data[order], minor[order].astype(np.int64), indptr


def put(d, key, fn):
    try:
        r = fn()
    except Exception as e:  # SciPy rejects: no golden, the test skips the key
        return
    if sp.issparse(r):
        r = r.toarray()
    d[key] = np.asarray(r)


def triplets(dt, shape, nnz, skip_row=None, skip_col=None):
    m, n = shape
    rows = [r for r in range(m) if r != skip_row]
    cols = [c for c in range(n) if c != skip_col]
    row = rng.choice(rows, nnz).astype(np.int64) if rows and nnz else np.zeros(0, np.int64)
    col = rng.choice(cols, nnz).astype(np.int64) if cols and nnz else np.zeros(0, np.int64)
    data = values(dt, nnz)
    if nnz >= 4:  # duplicates and an explicit zero
        row[-1], col[-1] = row[0], col[0]
        row[-2], col[-2] = row[1], col[1]
        data[2] = 0
    return data, row, col


def reductions(d, A, dt):
    """Everything of products.hpp on the (spmatrix) A; keys as the test reads them."""
    put(d, "sum", lambda: A.sum())
    put(d, "sum0", lambda: A.sum(axis=0))
    put(d, "sum1", lambda: A.sum(axis=1))
    put(d, "mean", lambda: A.mean())
    put(d, "mean0", lambda: A.mean(axis=0))
    put(d, "mean1", lambda: A.mean(axis=1))
    put(d, "max", lambda: A.max())
    put(d, "min", lambda: A.min())
    put(d, "max0", lambda: A.max(axis=0))
    put(d, "max1", lambda: A.max(axis=1))
    put(d, "min0", lambda: A.min(axis=0))
    put(d, "min1", lambda: A.min(axis=1))
    put(d, "argmax", lambda: A.argmax())
    put(d, "argmin", lambda: A.argmin())
    put(d, "argmax0", lambda: A.argmax(axis=0))
    put(d, "argmax1", lambda: A.argmax(axis=1))
    put(d, "argmin0", lambda: A.argmin(axis=0))
    put(d, "argmin1", lambda: A.argmin(axis=1))
    put(d, "cnz", lambda: A.count_nonzero())
    put(d, "cnz0", lambda: A.count_nonzero(axis=0))
    put(d, "cnz1", lambda: A.count_nonzero(axis=1))
    for k in (0, 1, -2):
        put(d, f"diag{k}", lambda k=k: A.diagonal(k))
        put(d, f"trace{k}", lambda k=k: A.trace(k))
    put(d, "nfro", lambda: spla.norm(A))
    for name, o in (("n1", 1), ("nm1", -1), ("ninf", np.inf), ("nminf", -np.inf)):
        put(d, name, lambda o=o: spla.norm(A, o))
    for ax in (0, 1):
        for name, o in (("v0", 0), ("v1", 1), ("v2", 2), ("vinf", np.inf), ("vminf", -np.inf), ("v3", 3)):
            put(d, f"{name}_ax{ax}", lambda o=o, ax=ax: spla.norm(A, o, axis=ax))
    m, n = A.shape

    def setdiag(vals, k):
        B = A.tocsr(copy=True)
        B.setdiag(vals, k)
        return B.toarray()

    put(d, "sd_vals", lambda: values(dt, 3))
    if "sd_vals" in d:
        put(d, "setdiag1", lambda: setdiag(d["sd_vals"], 1))
        put(d, "setdiagm1", lambda: setdiag(d["sd_vals"][:2], -1))
        put(d, "setdiag0s", lambda: setdiag(d["sd_vals"][0], 0))


def dtype_case(dt):
    shape = (7, 5)
    data, row, col = triplets(dt, shape, 16, skip_row=3, skip_col=2)
    d = {"data": data, "row": row, "col": col, "shape": np.array(shape, np.int64)}
    d["csr_data"], d["csr_indices"], d["csr_indptr"] = compressed_raw(data, row, col, shape[0])
    d["csc_data"], d["csc_indices"], d["csc_indptr"] = compressed_raw(data, col, row, shape[1])
    A = sp.coo_matrix((data, (row, col)), shape=shape)
    d["x"] = values(dt, shape[1])
    d["X"] = values(dt, shape[1] * 3).reshape(shape[1], 3)
    d["xf"] = rng.standard_normal(shape[1])
    d["Xb"] = values(dt, 4 * shape[1]).reshape(4, shape[1])  # batch of 4 vectors
    bd, br, bc = triplets(dt, (5, 4), 9)
    d["b_data"], d["b_row"], d["b_col"] = bd, br, bc
    B = sp.coo_matrix((bd, (br, bc)), shape=(5, 4))
    put(d, "Ax", lambda: A @ d["x"])
    put(d, "AX", lambda: A @ d["X"])
    put(d, "Axf", lambda: A @ d["xf"])
    put(d, "AXb", lambda: (A @ d["Xb"].T).T)
    # Products of the canonical matrix (duplicates summed in the value dtype, bool: or), which is what
    # A.todia() / A.tobsr() hold: the DIA and BSR tests compare against these.
    Ac = A.tocsr()
    put(d, "Ax_c", lambda: Ac @ d["x"])
    put(d, "AX_c", lambda: Ac @ d["X"])
    put(d, "Axf_c", lambda: Ac @ d["xf"])
    put(d, "AXb_c", lambda: (Ac @ d["Xb"].T).T)
    put(d, "AB", lambda: (A.tocsr() @ B.tocsr()).toarray())
    put(d, "AB_nnz", lambda: (A.tocsr() @ B.tocsr()).count_nonzero())
    S = sp.coo_matrix((values(dt, 25).reshape(5, 5)))
    d["sq"] = S.toarray()
    for p in (0, 1, 2, 3):
        put(d, f"pow{p}", lambda p=p: spla.matrix_power(S.tocsr(), p))
    reductions(d, A, dt)
    return d


def save(name, d, rtol, atol, func, **params):
    """Stores case `name`: its arrays d as <name>__<key>."""
    for k, v in d.items():
        s.array(f"{name}__{k}", v)
    s.case(name, func=func, rtol=rtol, atol=atol, **params)


def matrix_path(name):
    """A real matrix of examples/data."""
    p = os.path.join(s.data_dir, name)
    if not os.path.exists(p):
        sys.exit(f"{name} not found in {s.data_dir}")
    return p


# --- SpGEMM (row-wise kernel tiers) -----------------------------------------------------------------
# A separate generator, so that the cases above keep their values.
rng_g = np.random.default_rng(20270611)


def gvalues(dt, n, exact=False):
    """Random values of dt; `exact`: float/complex values are multiples of 1/4 (sums exact in any order)."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng_g.integers(0, 2, n).astype(bool)
    if dt.kind == "u":
        return rng_g.integers(0, 9, n).astype(dt)
    if dt.kind == "i":
        return rng_g.integers(-4, 5, n).astype(dt)
    if exact and dt.kind in "fc":
        return ((rng_g.integers(-12, 13, n) + (1j * rng_g.integers(-12, 13, n) if dt.kind == "c" else 0)) / 4).astype(dt)
    if dt.kind == "f":
        return rng_g.standard_normal(n).astype(dt)
    return (rng_g.standard_normal(n) + 1j * rng_g.standard_normal(n)).astype(dt)


def neg(v):
    """-v in v's dtype (unsigned: the wrapped negation, so that v + neg(v) == 0)."""
    if v.dtype == np.bool_:
        return v.copy()
    with np.errstate(over="ignore"):
        return (np.zeros_like(v) - v).astype(v.dtype)


def tier_operands(dt):
    """A [40, 200] and B [200, 700] whose rows hit every tier of the row-wise SpGEMM: tier 1 (at most
    8 entries and 512 products), tier 2 (at most 128 entries and 4096 products), tier 3 (longer), by
    entry count and by product count; empty rows and columns; rows whose sums cancel to zero."""
    k, n = 200, 700
    brows = []
    for r in range(k):
        if r < 8:  # dense rows of B: 600 entries
            cols = np.sort(rng_g.choice(n - 1, 600, replace=False))
        elif r >= 100 and r % 2 == 1:  # rows 100.. come in identical pairs (2j, 2j + 1)
            brows.append(brows[-1])
            continue
        else:
            cols = np.sort(rng_g.choice(n - 1, int(rng_g.integers(0, 7)), replace=False))  # column 699 empty
        brows.append((cols, gvalues(dt, len(cols), exact=r >= 100)))
    B = sp.csr_matrix((np.concatenate([v for _, v in brows]), np.concatenate([c for c, _ in brows]),
                       np.concatenate([[0], np.cumsum([len(c) for c, _ in brows])])), shape=(k, n))
    arows = []

    def row(cols, vals=None):
        cols = np.asarray(cols, np.int64)
        order = np.argsort(cols)
        v = gvalues(dt, len(cols)) if vals is None else vals
        arows.append((cols[order], np.asarray(v, dtype=dt)[order]))

    row([])                                                            # 0: empty
    for i in range(1, 21):                                             # 1..20: tier 1
        row(rng_g.choice(np.arange(8, 200), int(rng_g.integers(1, 9)), replace=False))
    row([0, 50, 60])                                                   # 21: 3 entries, > 512 products
    for na in (9, 17, 32, 33, 64, 128):                                # 22..27: tier 2 by entries
        row(rng_g.choice(np.arange(8, 200), na, replace=False))
    row(rng_g.choice(np.arange(8, 200), 150, replace=False))           # 28: tier 3 by entries
    row(list(range(7)) + [150])                                        # 29: 8 entries, 4200+ products
    row([3])                                                           # 30: one dense row (tier 2)
    for pairs, extra in ((2, 0), (20, 0), (3, 2), (50, 40), (40, 5)):  # 31..35: cancellations
        j = rng_g.choice(50, pairs, replace=False)                     # B rows 100 + 2j == 101 + 2j
        v = gvalues(dt, pairs, exact=True)  # pair-only sums are exactly 0 in any summation order
        cols = np.concatenate([100 + 2 * j, 101 + 2 * j,
                               rng_g.choice(np.arange(8, 100), extra, replace=False)]).astype(np.int64)
        vals = np.concatenate([v, neg(v), gvalues(dt, extra)])
        row(cols, vals)
    row([8, 9, 10])                                                    # 36: explicit zero in A
    arows[-1] = (arows[-1][0], np.array([0, 1, 0], dtype=dt) if dt != "bool" else np.array([0, 1, 0], bool))
    while len(arows) < 40:                                             # 37..39: tier 1 / 2 mix
        row(rng_g.choice(np.arange(0, 200), int(rng_g.integers(1, 20)), replace=False))
    A = sp.csr_matrix((np.concatenate([v for _, v in arows]), np.concatenate([c for c, _ in arows]),
                       np.concatenate([[0], np.cumsum([len(c) for c, _ in arows])])), shape=(len(arows), k))
    if np.dtype(dt).kind == "f":  # a NaN in B's row 9: every sum it reaches is NaN (kept)
        B.data[B.indptr[9]] = np.nan
    return A, B


def csr_keys(d, prefix, M):
    M = sp.csr_matrix(M)
    M.sort_indices()
    d[prefix + "_data"] = M.data
    d[prefix + "_indices"] = M.indices.astype(np.int64)
    d[prefix + "_indptr"] = M.indptr.astype(np.int64)
    d[prefix + "_shape"] = np.array(M.shape, np.int64)


def spgemm_case(A, B, pows=()):
    d = {}
    csr_keys(d, "a", A)
    csr_keys(d, "b", B)
    with np.errstate(all="ignore"):
        C = A.tocsr() @ B.tocsr()
    csr_keys(d, "c", C)
    for p in pows:
        with np.errstate(all="ignore"):
            csr_keys(d, f"pow{p}", spla.matrix_power(A.tocsr(), p))
    return d


def spgemm_tol(dt):
    """Rows of tiers 1 and 2 are summed in SciPy's order (bitwise equal); tier-3 rows go through the
    expand-sort-compress kernel, whose reduce-by-key may group the additions differently."""
    return tol(dt, rtol32=1e-5)


def spgemm_cases():
    s.group("spgemm_tiers")
    for dt in DTYPES:
        A, B = tier_operands(dt)
        save(f"spgemm_tiers_{dt}", spgemm_case(A, B), *spgemm_tol(dt), "spgemm", dtype=dt)
    # 1 x n @ n x 1, n x 1 @ 1 x n, a square matrix mixing the tiers for matrix_power.
    s.group("spgemm")
    for name, (s1, s2, n1, n2) in {"row_col": ((1, 9), (9, 1), 6, 5), "col_row": ((9, 1), (1, 9), 6, 5)}.items():
        A = sp.random(*s1, density=n1 / (s1[0] * s1[1]), random_state=rng_g, format="csr")
        B = sp.random(*s2, density=n2 / (s2[0] * s2[1]), random_state=rng_g, format="csr")
        save(f"spgemm_{name}", spgemm_case(A, B), 1e-15, 0, "spgemm", dtype="float64")
    m = 60
    dens = np.zeros((m, m))
    for i in range(m):
        nz = 2 if i < 40 else (12 if i < 55 else 45)
        dens[i, rng_g.choice(m, nz, replace=False)] = rng_g.integers(-3, 4, nz)
    A = sp.csr_matrix(dens.astype(np.int64))
    save("spgemm_power_int64", spgemm_case(A, A, pows=(2, 3, 5)), 0, 0, "spgemm", dtype="int64")
    A = sp.csr_matrix((dens / 4).astype(np.float64))
    save("spgemm_power_float64", spgemm_case(A, A, pows=(2, 3, 5)), 1e-15, 0, "spgemm", dtype="float64")
    # Many tier-1 rows over several blocks.
    A = sp.random(3000, 2000, density=3 / 2000, random_state=rng_g, format="csr")
    B = sp.random(2000, 2500, density=4 / 2500, random_state=rng_g, format="csr")
    save("spgemm_rand3000_float64", spgemm_case(A, B), 1e-15, 0, "spgemm", dtype="float64")


def main():
    s.group("dtype")
    for dt in DTYPES:
        save(f"dtype_{dt}", dtype_case(dt), *tol(dt), "dtype", dtype=dt)
    # Shapes: empty, 1 x n, n x 1, no stored entries, all-negative with implicit zeros, all stored.
    s.group("shape")
    shapes = {"empty0x3": ((0, 3), 0), "empty3x0": ((3, 0), 0), "row1x6": ((1, 6), 5), "col6x1": ((6, 1), 5),
              "nostored4x3": ((4, 3), 0), "neg5x4": ((5, 4), 6), "full3x3": ((3, 3), 9)}
    for name, (shape, nnz) in shapes.items():
        if name == "neg5x4":
            data = -np.abs(values("float64", nnz)) - 0.5
            row = rng.integers(0, shape[0], nnz)
            col = rng.integers(0, shape[1], nnz)
        elif name == "full3x3":
            data = values("float64", 9) + 10
            row, col = np.repeat(np.arange(3), 3), np.tile(np.arange(3), 3)
            perm = rng.permutation(9)
            data, row, col = data[perm], row[perm], col[perm]
        else:
            data, row, col = triplets("float64", shape, nnz)
        d = {"data": data, "row": row.astype(np.int64), "col": col.astype(np.int64),
             "shape": np.array(shape, np.int64)}
        d["csr_data"], d["csr_indices"], d["csr_indptr"] = compressed_raw(data, row.astype(np.int64),
                                                                         col.astype(np.int64), shape[0])
        d["csc_data"], d["csc_indices"], d["csc_indptr"] = compressed_raw(data, col.astype(np.int64),
                                                                         row.astype(np.int64), shape[1])
        A = sp.coo_matrix((data, (row, col)), shape=shape)
        d["x"] = values("float64", shape[1])
        d["X"] = values("float64", shape[1] * 2).reshape(shape[1], 2)
        put(d, "Ax", lambda: A @ d["x"])
        put(d, "AX", lambda: A @ d["X"])
        reductions(d, A, "float64")
        save(f"shape_{name}", d, 1e-12, 1e-12, "shape")
    # Real matrices: A @ x and A @ A summarized (row / column sums, nnz, Frobenius norm).
    s.group("mtx")
    for name in ("west0479", "1138_bus", "orsirr_1", "lp_e226"):
        path = matrix_path(name + ".mtx")
        A = sp.csr_matrix(scipy.io.mmread(path))
        n = A.shape[1]
        d = {"x": np.cos(np.arange(n) * 0.37)}
        d["Ax"] = A @ d["x"]
        C = A @ A if A.shape[0] == A.shape[1] else A @ A.T
        d["C_sum0"] = np.asarray(C.sum(axis=0))
        d["C_sum1"] = np.asarray(C.sum(axis=1))
        d["C_nnz"] = np.array(C.nnz)
        d["C_fro"] = np.array(spla.norm(C))
        d["A_sum0"] = np.asarray(A.sum(axis=0))
        d["A_n1"] = np.array(spla.norm(A, 1))
        d["A_ninf"] = np.array(spla.norm(A, np.inf))
        d["square"] = np.array(A.shape[0] == A.shape[1])
        save(f"mtx_{name}", d, 1e-10, 1e-10, "mtx", file=name + ".mtx")
    spgemm_cases()
    s.write()


if __name__ == "__main__":
    main()
