"""Goldens for dense @ sparse products, the result formats of sparse @ sparse products and the
index-dtype utilities of cusci::sparse (tests/sparse/products/dense_sparse_*.cpp), from SciPy 1.18.

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Each case's arrays are named
"<case>__<key>".
  - dense_sparse: X @ B for B given as COO triplets (duplicates, an explicit zero, unsorted), with X
    1-D, 2-D, a single row, no rows, and a wider array whose even columns are X (for strided views);
    keys "XB*" from B with its duplicates (CSR, CSC and COO keep them: each stored entry is
    multiplied), "XB*_c" from B.tocsr() (duplicates summed in B's dtype: what DIA and BSR hold).
  - spsp: A @ B for every pair of formats (operands made from the canonical CSR arrays of A and B with
    asformat; BSR with 2 x 2 blocks), the result's format, dtype and canonical arrays (CSR/CSC: sorted
    indices; DIA and BSR: the dense values and the blocksize).
  - index_dtype: get_index_dtype(arrays, maxval, check_contents) and safely_cast_index_arrays.
"""
import os
import sys
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse._sputils import get_index_dtype

from golden import Suite, tol

warnings.simplefilter("ignore")  # SciPy's deprecation and efficiency notices
s = Suite("sparse_products2")
TEST_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "sparse")
rng = s.rng(20261203)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
FORMATS = ["csr", "csc", "coo", "dia", "bsr"]


def values(dt, n):
    """Values of dt; float and complex values are multiples of 1/4 (sums exact in any order)."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind == "u":
        return rng.integers(0, 9, n).astype(dt)
    if dt.kind == "i":
        return rng.integers(-8, 9, n).astype(dt)
    if dt.kind == "f":
        return (rng.integers(-12, 13, n) / 4).astype(dt)
    return ((rng.integers(-12, 13, n) + 1j * rng.integers(-12, 13, n)) / 4).astype(dt)


def triplets(dt, shape, nnz):
    m, n = shape
    row = rng.integers(0, m, nnz).astype(np.int64)
    col = rng.integers(0, n, nnz).astype(np.int64)
    data = values(dt, nnz)
    if nnz >= 4:  # duplicates and an explicit zero
        row[-1], col[-1] = row[0], col[0]
        row[-2], col[-2] = row[1], col[1]
        data[2] = 0
    return data, row, col


def compressed_raw(data, major, minor, nmajor):
    """Arrays of a compressed matrix ordered by major index only (stable): minor indices unsorted within
    a slice, duplicates kept."""
    order = np.argsort(major, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(major, minlength=nmajor))]).astype(np.int64)
    return data[order], minor[order].astype(np.int64), indptr


def save(name, d, rtol, atol, func, **params):
    for k, v in d.items():
        s.array(f"{name}__{k}", v)
    s.case(name, func=func, rtol=rtol, atol=atol, **params)


def matmul(X, B):
    with np.errstate(all="ignore"):
        return np.asarray(X @ B)


# --- dense @ sparse -----------------------------------------------------------------------------------

def dense_sparse_case(dtx, dtb, shape=(9, 7), nnz=20, k=3):
    m, n = shape
    data, row, col = triplets(dtb, shape, nnz)
    d = {"data": data, "row": row, "col": col, "shape": np.array(shape, np.int64)}
    d["csr_data"], d["csr_indices"], d["csr_indptr"] = compressed_raw(data, row, col, m)
    d["csc_data"], d["csc_indices"], d["csc_indptr"] = compressed_raw(data, col, row, n)
    B = sp.coo_matrix((data, (row, col)), shape=shape)
    Bc = B.tocsr()
    x = values(dtx, m)
    X = values(dtx, k * m).reshape(k, m)
    wide = np.zeros((k, 2 * m), dtype=X.dtype)
    wide[:, ::2] = X  # X is wide[:, ::2]
    d["x"], d["X"], d["Xwide"] = x, X, wide
    for suffix, M in (("", B), ("_c", Bc)):
        d["xB" + suffix] = matmul(x, M)
        d["XB" + suffix] = matmul(X, M)
        d["X1B" + suffix] = matmul(X[:1], M)           # a single row
        d["X0B" + suffix] = matmul(X[:0], M)           # no rows
        d["XrB" + suffix] = matmul(X[::-1], M)         # rows reversed (negative stride)
    return d


def dense_sparse_cases():
    s.group("dense_sparse")
    for dt in DTYPES:
        d = dense_sparse_case(dt, dt)
        save(f"ds_{dt}_{dt}", d, *tol(dt), "dense_sparse", dtx=dt, dtb=dt)
    # Mixed dtypes: NumPy's promotion (SciPy's upcast; float16 x int8 -> float16 -> float32).
    for dtx, dtb in (("float64", "int8"), ("int8", "bool"), ("bool", "uint16"), ("float32", "complex64"),
                     ("int64", "uint64"), ("float16", "int8"), ("float16", "float32"), ("uint8", "int8"),
                     ("complex128", "float32"), ("int32", "float32")):
        d = dense_sparse_case(dtx, dtb)
        rdt = d["XB"].dtype
        save(f"ds_{dtx}_{dtb}", d, *tol(rdt), "dense_sparse", dtx=dtx, dtb=dtb)
    # Empty shapes and a matrix without stored entries.
    for name, shape, nnz in (("m0", (0, 4), 0), ("n0", (5, 0), 0), ("nostored", (5, 4), 0), ("row1", (1, 6), 4),
                             ("col1", (6, 1), 4)):
        d = dense_sparse_case("float64", "float64", shape, nnz, k=2)
        save(f"ds_shape_{name}", d, 1e-15, 0, "dense_sparse_shape", dtx="float64", dtb="float64")


def matrix_path(name):
    for d in (s.data_dir, TEST_DATA):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
        if os.path.exists(p + ".gz"):  # a Matrix Market file stored gzip-compressed
            return p + ".gz"
    sys.exit(f"{name} not found in {s.data_dir} or {TEST_DATA}")


def mtx_cases():
    s.group("dense_sparse_mtx")
    for name in ("1138_bus", "bcsstk16"):
        path = matrix_path(name + ".mtx")
        A = sp.csr_matrix(scipy.io.mmread(path))
        m = A.shape[0]
        i = np.arange(m)
        X = np.stack([np.cos(i * 0.37), np.sin(i * 0.11), (i % 7) - 3.0, np.ones(m)])
        d = {"X": X, "XA": matmul(X, A), "xA": matmul(X[0], A)}
        save(f"ds_mtx_{name}", d, 1e-12, 1e-9, "dense_sparse_mtx", file=os.path.basename(path))


# --- sparse @ sparse result formats ------------------------------------------------------------------

def canonical_csr(dt, shape, nnz):
    data, row, col = triplets(dt, shape, nnz)
    A = sp.coo_matrix((data, (row, col)), shape=shape).tocsr()
    A.sum_duplicates()
    A.sort_indices()
    return A


def result_keys(d, C):
    d["c_shape"] = np.array(C.shape, np.int64)
    d["c_dense"] = C.toarray()
    if C.format in ("csr", "csc"):
        S = C.sorted_indices()
        d["c_data"] = S.data
        d["c_indices"] = S.indices.astype(np.int64)
        d["c_indptr"] = S.indptr.astype(np.int64)
    if C.format == "bsr":
        d["c_blocksize"] = np.array(C.blocksize, np.int64)


def spsp_cases():
    s.group("spsp")
    pairs = [(dt, dt) for dt in DTYPES] + [("int8", "float32"), ("bool", "int16"), ("uint64", "int64"),
                                          ("complex64", "float64"), ("uint8", "int8")]
    for dta, dtb in pairs:
        A = canonical_csr(dta, (6, 8), 18)
        B = canonical_csr(dtb, (8, 4), 14)
        base = {}
        for key, M in (("a", A), ("b", B)):
            base[key + "_data"] = M.data
            base[key + "_indices"] = M.indices.astype(np.int64)
            base[key + "_indptr"] = M.indptr.astype(np.int64)
            base[key + "_shape"] = np.array(M.shape, np.int64)
        for fa in FORMATS:
            for fb in FORMATS:
                Aa = A.tobsr(blocksize=(2, 2)) if fa == "bsr" else A.asformat(fa)
                Bb = B.tobsr(blocksize=(2, 2)) if fb == "bsr" else B.asformat(fb)
                with np.errstate(all="ignore"):
                    C = Aa @ Bb
                d = dict(base) if (fa, fb) == ("csr", "csr") else {}
                result_keys(d, C)
                rdt = C.dtype
                idt = str(C.indices.dtype) if C.format in ("csr", "csc") else None
                save(f"spsp_{dta}_{dtb}_{fa}_{fb}", d, *tol(rdt), "spsp", dta=dta, dtb=dtb, fa=fa, fb=fb,
                     operands=f"spsp_{dta}_{dtb}_csr_csr", result_format=C.format, result_dtype=str(rdt),
                     result_index_dtype=idt)
    # A BSR with 3 x 2 blocks times CSR: blocksize (3, 1).
    A = canonical_csr("float64", (6, 8), 18)
    B = canonical_csr("float64", (8, 4), 14)
    C = A.tobsr(blocksize=(3, 2)) @ B
    d = {"a_data": A.data, "a_indices": A.indices.astype(np.int64), "a_indptr": A.indptr.astype(np.int64),
         "a_shape": np.array(A.shape, np.int64), "b_data": B.data, "b_indices": B.indices.astype(np.int64),
         "b_indptr": B.indptr.astype(np.int64), "b_shape": np.array(B.shape, np.int64)}
    result_keys(d, C)
    save("spsp_bsr32_csr", d, 1e-15, 0, "spsp_bsr32", result_format=C.format, result_dtype=str(C.dtype))


# --- index dtypes ---------------------------------------------------------------------------------------

def index_dtype_cases():
    s.group("index_dtype")
    i32max, i32min = np.iinfo(np.int32).max, np.iinfo(np.int32).min
    arrays = {
        "i32": np.array([1, -5, 7], np.int32),
        "i64small": np.array([1, -5, i32max], np.int64),
        "i64big": np.array([1, i32max + 1], np.int64),
        "i64neg": np.array([i32min - 1, 0], np.int64),
        "i64empty": np.zeros(0, np.int64),
        "u32small": np.array([3, 4], np.uint32),
        "u32big": np.array([3, i32max + 1], np.uint32),
        "u64big": np.array([2**63 + 5], np.uint64),
        "i16": np.array([-3, 300], np.int16),
        "u16": np.array([65535], np.uint16),
        "b": np.array([True, False]),
        "f64": np.array([1.0, 2.0]),
    }
    for k, v in arrays.items():
        s.array(f"idx__{k}", v)
    combos = [[], ["i32"], ["i64small"], ["i64big"], ["i64neg"], ["i64empty"], ["u32small"], ["u32big"],
              ["u64big"], ["i16"], ["u16"], ["b"], ["f64"], ["i32", "i64small"], ["i32", "i64big"],
              ["u32small", "i64empty", "i16"]]
    n = 0
    for names in combos:
        for maxval in (None, 10, i32max, i32max + 1):
            for check in (False, True):
                r = get_index_dtype(tuple(arrays[k] for k in names), maxval=maxval, check_contents=check)
                s.case(f"gid_{n}", func="get_index_dtype", arrays=names, maxval=maxval, check_contents=check,
                       expected=np.dtype(r).name)
                n += 1
    # safely_cast_index_arrays: int64 index arrays; shapes small and larger than the target's maximum.
    n = 0
    mi = 0
    for fmt in FORMATS:
        for shape, hi in (((6, 5), 5), ((300, 200), 120), ((300, 200), 250)):
            A = sp.random(shape[0], shape[1], density=0.02, random_state=rng, format="coo")
            A.row[0], A.col[0] = min(hi, shape[0] - 1), min(hi, shape[1] - 1)
            A = A.asformat(fmt) if fmt != "bsr" else A.tobsr(blocksize=(2, 1))
            if fmt in ("csr", "csc", "bsr"):
                A.sort_indices()  # cusci's conversions give sorted indices
            if fmt == "coo":
                A.row, A.col = A.row.astype(np.int64), A.col.astype(np.int64)
            elif fmt == "dia":
                A.offsets = A.offsets.astype(np.int64)
            else:
                A.indices, A.indptr = A.indices.astype(np.int64), A.indptr.astype(np.int64)
            C = A.tocoo()
            mname = f"scm_{mi}"
            mi += 1
            s.array(f"{mname}__data", C.data)
            s.array(f"{mname}__row", C.row.astype(np.int64))
            s.array(f"{mname}__col", C.col.astype(np.int64))
            s.array(f"{mname}__shape", np.array(shape, np.int64))
            for idx_dtype in ("int32", "int8", "uint8", "int16"):
                for msg in ("", "SuperLU"):
                    err = None
                    d = {}
                    try:
                        out = sp.safely_cast_index_arrays(A, np.dtype(idx_dtype), msg)
                        out = out if isinstance(out, tuple) else (out,)
                        for j, o in enumerate(out):
                            d[f"out{j}"] = o
                    except ValueError as e:
                        err = str(e) if "{msg}" in str(e) else str(e).split(" for ")[0] + " for"
                    save(f"sc_{n}", d, 0, 0, "safely_cast", fmt=fmt, matrix=mname, idx_dtype=idx_dtype, msg=msg,
                         error_text=err, nout=len(d))
                    n += 1


def main():
    dense_sparse_cases()
    mtx_cases()
    spsp_cases()
    index_dtype_cases()
    s.write()


if __name__ == "__main__":
    main()
