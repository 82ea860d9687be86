#!/usr/bin/env python3
"""Reference strings for cusci::sparse's printing (repr/str of coo/csr/csc/dia/bsr matrices), printed by
SciPy 1.18.1, written through golden.py.

Every case builds one matrix from its stored arrays, exactly as the C++ test does:
  coo: coo_matrix((<c>_data, (<c>_a, <c>_b)), shape)             (unsorted, duplicates, explicit zeros)
  csr / csc: *_matrix((<c>_data, <c>_a, <c>_b), shape)           (a = indices, b = indptr)
  dia: dia_matrix((<c>_data, <c>_a), shape)                       (a = offsets)
  bsr: bsr_matrix((<c>_data, <c>_a, <c>_b), shape)                (data [nnzb, R, C])
with maxprint=<maxprint>. Params: fmt, dtype (value dtype), index (index dtype of a/b), shape, maxprint,
repr and str (SciPy's exact strings, JSON strings in the manifest).
"""
import numpy as np
import scipy.sparse as sp

from golden import Suite

s = Suite("sparse_printing")
rng = s.rng(20261203)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]


def vals(dt, n):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -100), min(info.max, 100) + 1, n).astype(dt)
    if dt.kind == "f":
        x = (rng.standard_normal(n) * 10).astype(dt)
    else:
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    if n >= 6:
        x[rng.integers(0, n)] = 0  # an explicit zero
    return x


def add(name, fmt, data, a, b, shape, index="int32", maxprint=None):
    data = np.asarray(data)
    a = np.asarray(a, dtype=index)
    b = None if b is None else np.asarray(b, dtype=index)
    kw = {} if maxprint is None else {"maxprint": maxprint}
    if fmt == "coo":
        A = sp.coo_matrix((data, (a, b)), shape=shape, **kw)
    elif fmt == "csr":
        A = sp.csr_matrix((data, a, b), shape=shape, **kw)
    elif fmt == "csc":
        A = sp.csc_matrix((data, a, b), shape=shape, **kw)
    elif fmt == "dia":
        A = sp.dia_matrix((data, a), shape=shape, **kw)
    else:
        A = sp.bsr_matrix((data, a, b), shape=shape, **kw)
    s.array(f"{name}_data", data)
    s.array(f"{name}_a", a)
    if b is not None:
        s.array(f"{name}_b", b)
    s.case(name, func="print", fmt=fmt, dtype=data.dtype.name, index=index, shape=list(shape),
           maxprint=50 if maxprint is None else maxprint, has_b=b is not None, repr=repr(A), str=str(A))


def random_coo(m, n, nnz, dt, dup=True):
    r = rng.integers(0, m, nnz)
    c = rng.integers(0, n, nnz)
    if dup and nnz >= 4:
        r[1], c[1] = r[0], c[0]  # a duplicate
    return vals(dt, nnz), r, c


def csr_arrays(m, n, nnz, dt, unsorted=False):
    counts = np.bincount(rng.integers(0, m, nnz), minlength=m)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.concatenate([np.sort(rng.choice(n, k, replace=False)) if k <= n else rng.integers(0, n, k)
                              for k in counts]) if nnz else np.zeros(0, int)
    if unsorted:
        for i in range(m):
            indices[indptr[i]:indptr[i + 1]] = indices[indptr[i]:indptr[i + 1]][::-1]
    return vals(dt, nnz), indices, indptr


for k, dt in enumerate(DTYPES):
    idx = "int64" if k % 3 == 2 else "int32"
    d, r, c = random_coo(5, 6, 9, dt)
    add(f"coo_{dt}", "coo", d, r, c, (5, 6), idx)
    d, i, p = csr_arrays(5, 7, 12, dt, unsorted=k % 2 == 1)
    add(f"csr_{dt}", "csr", d, i, p, (5, 7), idx)
    d, i, p = csr_arrays(7, 4, 10, dt)
    add(f"csc_{dt}", "csc", d, i, p, (4, 7), idx)
    add(f"dia_{dt}", "dia", vals(dt, 3 * 6).reshape(3, 6), [-1, 0, 2], None, (5, 6), idx)
    nb = 3
    add(f"bsr_{dt}", "bsr", vals(dt, nb * 2 * 3).reshape(nb, 2, 3), [0, 2, 1], [0, 2, 2, 3], (6, 9), idx)

# empty matrices
for fmt in ("coo", "csr", "csc", "dia", "bsr"):
    if fmt == "coo":
        add(f"empty_{fmt}", fmt, np.zeros(0), [], [], (3, 4))
    elif fmt in ("csr", "csc"):
        add(f"empty_{fmt}", fmt, np.zeros(0, np.int32), [], [0, 0, 0, 0, 0] if fmt == "csc" else [0, 0, 0, 0],
            (3, 4))
    elif fmt == "dia":
        add(f"empty_{fmt}", fmt, np.zeros((0, 4)), np.zeros(0), None, (3, 4))
    else:
        add(f"empty_{fmt}", fmt, np.zeros((0, 2, 2)), [], [0, 0, 0], (4, 6))
add("empty_00", "csr", np.zeros(0), [], [0], (0, 0))

# a DIA matrix whose stored diagonals hold only zeros (nnz > 0, no printed entry) and one with
# diagonals partly outside the matrix
add("dia_zeros", "dia", np.zeros((2, 4)), [0, 1], None, (4, 4))
add("dia_unsorted", "dia", np.arange(1.0, 9.0).reshape(2, 4), [2, -1], None, (4, 4))
add("dia_outside", "dia", np.arange(1.0, 13.0).reshape(2, 6), [-3, 4], None, (5, 6))

# truncation: nnz > maxprint in every format, and small maxprints
for fmt in ("coo", "csr", "csc"):
    if fmt == "coo":
        d, r, c = random_coo(20, 20, 120, "float64")
        add(f"trunc_{fmt}", fmt, d, r, c, (20, 20))
    else:
        d, i, p = csr_arrays(20, 20, 120, "float64")
        add(f"trunc_{fmt}", fmt, d, i, p, (20, 20))
add("trunc_dia", "dia", vals("float64", 7 * 12).reshape(7, 12), [-6, -3, -1, 0, 2, 5, 9], None, (12, 12))
add("trunc_bsr", "bsr", vals("float32", 8 * 4).reshape(8, 2, 2), np.arange(8) % 4, [0, 2, 4, 6, 8], (8, 8))
for mp in (0, 1, 2, 3, 10, 51):
    d, r, c = random_coo(6, 6, 12, "int64")
    add(f"maxprint{mp}_coo", "coo", d, r, c, (6, 6), maxprint=mp)
    d, i, p = csr_arrays(6, 6, 12, "complex128")
    add(f"maxprint{mp}_csr", "csr", d, i, p, (6, 6), maxprint=mp)
add("maxprint2_dia", "dia", np.ones((2, 3)), [0, 1], None, (3, 3), maxprint=2)
add("maxprint3_bsr", "bsr", np.arange(8.0).reshape(2, 2, 2), [0, 1], [0, 1, 2], (4, 4), maxprint=3)

# values printed as NumPy scalars: scientific notation, nan/inf, negative zero, big integers
add("special_vals", "coo", np.array([1e-20, 1e20, np.nan, -np.inf, -0.0, 123456789012345.6, 1e16, 0.1]),
    np.arange(8), np.arange(8), (8, 8))
add("special_c", "coo", np.array([complex(0, 2), complex(-0.0, 1), complex(1, -np.inf), complex(np.nan, 0)]),
    np.arange(4), np.zeros(4), (4, 1))
add("special_f32", "csr", np.array([0.1, 1e6, 1e-4, 16777216.0], np.float32), [0, 1, 2, 3], [0, 4], (1, 4))
add("special_u64", "coo", np.array([2**64 - 1, 0], np.uint64), [0, 1], [1, 0], (2, 2))
add("special_i64", "coo", np.array([-2**63, 2**63 - 1], np.int64), [0, 1], [1, 0], (2, 2))
add("big_shape", "coo", np.array([1.0]), [99999], [123456], (100000, 200000))

s.write()
