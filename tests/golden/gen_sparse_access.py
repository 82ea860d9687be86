#!/usr/bin/env python
"""References for cusci::sparse's access family (indexing, Matrix Market, .npz), from SciPy 1.18.

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Writes, under <out>/sparse_access/:
  - func "getitem" (group index) and "access" (group access) cases: an input matrix (array <case>__a,
    dense, as SciPy built it) and what SciPy's indexing returns (arrays <case>__<result>; the result
    formats and shapes are case parameters), over formats x value dtypes x index dtypes;
  - func "mmread" cases: Matrix Market files written by scipy.io.mmwrite (every format x field x
    symmetry) and hand-written ones (comments, blank lines, malformed), as auxiliary files <file>,
    with array <case> = scipy.io.mmread result (dense) and mminfo as parameters;
  - func "load_npz" cases: scipy.sparse.save_npz files (every format, stored and compressed) as
    auxiliary files <case>.npz, with the dense matrix as array <case>;
  - func "mmread_shared" cases: shape, nnz, sum and sum of |values| of each matrix of
    ../shared/data/matrices (beside the source tree) as scipy.io.mmread reads it.
Seeded: reruns are identical.
"""
import glob
import os
import warnings

import numpy as np
import scipy
import scipy.io as sio
import scipy.sparse as sp

from golden import Suite

warnings.simplefilter("ignore")

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "data", "matrices")
s = Suite("sparse_access")
rng = s.rng(20261204)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def rand_dense(m, n, dt, density=0.4):
    mask = rng.random((m, n)) < density
    if dt == "bool":
        v = np.ones((m, n), dtype=bool)
    elif np.dtype(dt).kind in "iu":
        v = rng.integers(1, 100, size=(m, n)).astype(dt)
    elif np.dtype(dt).kind == "c":
        v = (rng.standard_normal((m, n)) + 1j * rng.standard_normal((m, n))).astype(dt)
    else:
        v = rng.standard_normal((m, n)).astype(dt)
    return np.where(mask, v, np.zeros((), dtype=dt)).astype(dt)


def save_case(name, **arrays):
    """Stores the arrays of one case as <case>__<name>."""
    for k, v in arrays.items():
        s.array(name + "__" + k, np.asarray(v))


def idx_spec(kind, v):
    """One axis index as a parameter: {"int": 3}, {"slice": [1, 5, 2]} (null = None), {"arr": [1, 3, 1]},
    {"mask": [true, false, true]}."""
    if kind == "mask":
        return {kind: [bool(x) for x in v]}
    return {kind: list(v) if kind in ("slice", "arr") else v}


def to_py(kind, v):
    if kind == "int":
        return v
    if kind == "slice":
        return slice(*v)
    if kind == "arr":
        return list(v)
    if kind == "mask":
        return np.array(v, dtype=bool)


def indexing():
    s.group("index")
    shapes = [(7, 6), (1, 5), (5, 1), (0, 4), (9, 11)]
    selections = [
        (("int", 2), ("slice", (None, None, None))),
        (("int", -1), ("slice", (1, None, 2))),
        (("slice", (1, 5, 2)), ("slice", (None, None, None))),
        (("slice", (None, None, -1)), ("slice", (None, None, -2))),
        (("slice", (5, 1, -2)), ("int", 0)),
        (("slice", (2, 2, None)), ("slice", (None, None, None))),  # empty selection
        (("arr", [1, 3, 1]), ("slice", (None, None, None))),
        (("slice", (None, None, None)), ("arr", [2, 0, -1, 2])),
        (("arr", [-1, 0]), ("slice", (1, 4, None))),
        (("slice", (None, None, 3)), ("arr", [])),
    ]
    case_no = 0
    for (m, n) in shapes:
        for fmt in ["csr", "csc"]:
            for dt in DTYPES:
                for it in ["int32", "int64"]:
                    if (m, n) != (7, 6) and (dt not in ("float64", "int8", "complex64") or it != "int32"):
                        continue
                    D = rand_dense(m, n, dt)
                    A = sp.csr_matrix(D) if fmt == "csr" else sp.csc_matrix(D)
                    A.indices = A.indices.astype(it)
                    A.indptr = A.indptr.astype(it)
                    for (rk, rv), (ck, cv) in selections:
                        if m == 0 and rk in ("int", "arr"):
                            continue
                        if n == 1 and ck == "arr":
                            cv = [0, -1, 0]
                        if m == 1 and rk == "arr":
                            rv = [0, -1, 0]
                        if rk == "int" and rv >= m:
                            rv = m - 1
                        if n < 6 and ck == "arr":
                            cv = [x for x in cv if -n <= x < n]
                        if ck == "int" and cv >= n:
                            continue
                        r = A[to_py(rk, rv), to_py(ck, cv)]
                        name = "idx_%04d" % case_no
                        case_no += 1
                        save_case(name, a=D, out=r.toarray())
                        s.case(name, func="getitem", fmt=fmt, dtype=dt, index=it, rows=idx_spec(rk, rv),
                               cols=idx_spec(ck, cv), out_fmt=r.format, out_shape=list(r.shape))
    # masks, elements, paired arrays, getrow/getcol, reshape, resize
    s.group("access")
    for fmt in ["csr", "csc", "coo", "dia", "bsr"]:
        for dt in ["float64", "int32", "complex128", "bool"]:
            D = rand_dense(6, 8, dt)
            A = sp.csr_matrix(D).asformat(fmt)
            if fmt == "bsr":
                A = sp.csr_matrix(D).tobsr(blocksize=(2, 2))
            base = "acc_%s_%s" % (fmt, dt)
            out = dict(a=D)
            out["getrow"] = A.getrow(-2).toarray()
            formats = dict(getrow_fmt=A.getrow(-2).format, getcol_fmt=A.getcol(3).format,
                           reshape_fmt=A.reshape((4, 12)).format)
            out["getcol"] = A.getcol(3).toarray()
            out["reshape_c"] = A.reshape((4, 12)).toarray()
            out["reshape_f"] = A.reshape((12, -1), order="F").toarray()
            B = A.copy()
            B.resize((4, 10))
            out["resize_a"] = B.toarray()
            B = A.copy()
            B.resize((8, 4))
            out["resize_b"] = B.toarray()
            if fmt in ("csr", "csc"):
                out["elem"] = np.array([A[1, 2], A[-1, -1], A[5, 0]], dtype=D.dtype)
                out["pairs"] = np.asarray(A[[1, 2, -1, 1], [3, 3, 0, 3]])
                mr = np.array([True, False, True, True, False, False])
                mc = np.array([False, True, True, False, True, False, True, True])
                out["mask_r"] = A[mr, :].toarray()
                out["mask_c"] = A[:, mc].toarray()
                C = A.copy()
                C[1, 2] = 7
                C[[0, 5, 0], [1, 1, 1]] = np.array([3, 4, 5]).astype(D.dtype)
                C[2:4, 1:7:3] = 2
                out["set"] = C.toarray()
                out["set_nnz"] = np.array(C.nnz)
            save_case(base, **out)
            s.case(base, func="access", fmt=fmt, dtype=dt, index="int32", **formats)


def matrix_market():
    s.group("mm")
    k = 0
    for fmt in ["coordinate", "array"]:
        for field in ["real", "integer", "complex", "pattern"]:
            for sym in ["general", "symmetric", "skew-symmetric", "hermitian"]:
                if fmt == "array" and field == "pattern":
                    continue
                if sym == "hermitian" and field != "complex":
                    continue
                n = 5
                if field == "complex":
                    D = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
                elif field == "integer":
                    D = rng.integers(-50, 50, size=(n, n)).astype(np.int64)
                else:
                    D = np.round(rng.standard_normal((n, n)), 3)
                D = np.where(rng.random((n, n)) < 0.5, D, 0).astype(D.dtype)
                if sym == "symmetric":
                    D = np.tril(D) + np.tril(D, -1).T
                elif sym == "skew-symmetric":
                    D = np.tril(D, -1) - np.tril(D, -1).T
                elif sym == "hermitian":
                    D = np.tril(D, -1) + np.tril(D, -1).conj().T + np.diag(np.diag(D).real)
                name = "mm_%02d" % k
                k += 1
                p = s.file(name + ".mtx")
                a = sp.coo_matrix(D) if fmt == "coordinate" else D
                sio.mmwrite(p, a, comment="written by scipy %s\nsecond line" % scipy.__version__,
                            field=field, symmetry=sym)
                r = sio.mmread(p)
                info = sio.mminfo(p)
                s.array(name, r.toarray() if sp.issparse(r) else r)
                s.case(name, func="mmread", file=name + ".mtx", fmt=info[3], dtype=str(np.asarray(r.dtype)),
                       rows=info[0], cols=info[1], entries=info[2], field=info[4], symmetry=info[5],
                       sparse=sp.issparse(r), nnz=(r.nnz if sp.issparse(r) else 0))
    # hand-written: comments, blank lines, indentation, exponents, upper-triangle entries of a symmetric file
    texts = {
        "hand_blank": "%%MatrixMarket matrix coordinate real general\n% a comment\n\n%another\n3 4 3\n\n1 1 1.5e0\n"
                      "3 4 -2E-3\n\n2 2 7\n\n",
        "hand_sym_upper": "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 2 5\n3 3 1\n2 1 4\n",
        "hand_skew_diag": "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 2\n1 1 5\n2 1 1\n",
        "hand_herm": "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n2 1 1 2\n1 1 3 4\n",
        "hand_array_sym": "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n",
        "hand_array_skew": "%%MatrixMarket matrix array complex skew-symmetric\n3 3\n1 2\n3 4\n5 6\n",
        "hand_crlf": "%%MatrixMarket matrix coordinate integer general\r\n%c\r\n2 2 2\r\n1 1 9223372036854775807\r\n2 2 -9223372036854775808\r\n",
        "hand_empty": "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
        "hand_case": "%%MatrixMarket matrix Coordinate Pattern General\n2 3 2\n1 3\n2 1\n",
    }
    for name, t in texts.items():
        p = s.file(name + ".mtx")
        with open(p, "w", newline="") as f:
            f.write(t)
        r = sio.mmread(p)
        info = sio.mminfo(p)
        s.array("mm_" + name, r.toarray() if sp.issparse(r) else r)
        s.case("mm_" + name, func="mmread", file=name + ".mtx", fmt=info[3], dtype=str(r.dtype),
               rows=info[0], cols=info[1], entries=info[2], field=info[4], symmetry=info[5],
               sparse=sp.issparse(r), nnz=(r.nnz if sp.issparse(r) else 0))


def npz():
    s.group("npz")
    for fmt in ["csr", "csc", "coo", "dia", "bsr"]:
        for dt in ["float64", "int64", "complex64", "bool", "uint16"]:
            for comp in [False, True]:
                D = rand_dense(6, 4, dt)
                A = sp.csr_matrix(D)
                A = A.tobsr(blocksize=(2, 2)) if fmt == "bsr" else A.asformat(fmt)
                name = "npz_%s_%s_%s" % (fmt, dt, "z" if comp else "s")
                sp.save_npz(s.file(name + ".npz"), A, compressed=comp)
                s.array(name, A.toarray())
                s.case(name, func="load_npz", fmt=fmt, dtype=dt, index=str(
                    (A.offsets if fmt == "dia" else A.row if fmt == "coo" else A.indices).dtype), rows=6, cols=4,
                    compressed=comp)
    # a sparse-array file (with _is_array) and an empty matrix
    sp.save_npz(s.file("npz_csr_array.npz"), sp.csr_array(np.eye(3)))
    s.array("npz_csr_array", np.eye(3))
    s.case("npz_csr_array", func="load_npz", fmt="csr", dtype="float64", index="int32", rows=3, cols=3,
           compressed=True)
    sp.save_npz(s.file("npz_coo_empty.npz"), sp.coo_matrix((0, 5)))
    s.array("npz_coo_empty", np.zeros((0, 5)))
    s.case("npz_coo_empty", func="load_npz", fmt="coo", dtype="float64", index="int32", rows=0, cols=5,
           compressed=True)
    # `format` as a NumPy unicode scalar (<U3) instead of bytes: scipy.sparse.load_npz accepts both
    # (it decodes bytes, keeps str), so the reader must too.
    A = sp.csr_matrix(rand_dense(5, 3, "float64"))
    p = s.file("npz_csr_unicode.npz")
    np.savez(p, indices=A.indices, indptr=A.indptr, format=np.array("csr"), shape=np.array(A.shape), data=A.data)
    assert np.load(p)["format"].dtype.str == "<U3"
    B = sp.load_npz(p)
    assert B.format == "csr" and np.array_equal(B.toarray(), A.toarray())
    s.array("npz_csr_unicode", B.toarray())
    s.case("npz_csr_unicode", func="load_npz", fmt="csr", dtype="float64", index="int32", rows=5, cols=3,
           compressed=False)


def matrices():
    for p in sorted(glob.glob(os.path.join(SHARED, "*.mtx"))):
        name = os.path.basename(p)
        r = sio.mmread(p).tocoo()
        info = sio.mminfo(p)
        s.case("mat_" + name[:-4], func="mmread_shared", rtol=1e-12, atol=0, file=name, fmt=info[3],
               dtype=str(r.dtype), rows=r.shape[0], cols=r.shape[1], entries=info[2], field=info[4],
               symmetry=info[5], nnz=r.nnz, sum=float(np.real(r.data.sum())), abssum=float(np.abs(r.data).sum()),
               rowsum=float((r.row.astype(np.float64) * np.abs(r.data)).sum()))


def main():
    indexing()
    matrix_market()
    npz()
    matrices()
    s.write()


if __name__ == "__main__":
    main()
