"""Goldens for cusci::sparse products and reductions (tests/sparse/products/), from SciPy 1.18.

Run with /opt/goldenv/bin/python tests/golden/gen_sparse_products.py. Writes one .npz per case group
into tests/golden/data/sparse_products/ plus MANIFEST.tsv (case, rtol, atol, kind, note). Every case
stores its inputs (COO triplets in a deliberately awkward order: duplicates, explicit zeros,
unsorted; raw CSR/CSC arrays with unsorted indices and duplicates) and SciPy's outputs. A key is
missing when SciPy raises for that operation.
"""
import os
import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as spla

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sparse_products")
MATRICES = os.environ.get("CUSCI_MATRIX_DIR", "/work/shared/data/matrices")
rng = np.random.default_rng(20261130)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
manifest = []


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


def save(name, d, rtol, atol, kind, note=""):
    np.savez_compressed(os.path.join(OUT, name + ".npz"), **d)
    manifest.append((name, rtol, atol, kind, note))


def tol(dt):
    dt = np.dtype(dt)
    if dt in (np.float32, np.complex64):
        return 2e-5, 2e-5
    if dt.kind in "fc":
        return 1e-12, 1e-12
    return 0, 0


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    for dt in DTYPES:
        save(f"dtype_{dt}", dtype_case(dt), *tol(dt), "dtype", dt)
    # Shapes: empty, 1 x n, n x 1, no stored entries, all-negative with implicit zeros, all stored.
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
    for name in ("west0479", "1138_bus", "orsirr_1", "lp_e226"):
        path = os.path.join(MATRICES, name + ".mtx")
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
        save(f"mtx_{name}", d, 1e-10, 1e-10, "mtx", name + ".mtx")
    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
        f.write("case\trtol\tatol\tkind\tnote\n")
        for row in manifest:
            f.write("\t".join(str(v) for v in row) + "\n")
    print("scipy", scipy.__version__, "numpy", np.__version__, len(manifest), "cases")


if __name__ == "__main__":
    main()
