"""Goldens of cusci::sparse's formats family (scipy.sparse 1.18 constructors and conversions).

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Case parameters: dtype, rows,
cols, and per func:
  func from_triplets: inputs <case>_data/_row/_col (duplicates, explicit zeros, unsorted) and SciPy's
              coo->csr (<case>_csr_data/_indices/_indptr), coo->csc, csr->dia (_dia_data/_dia_offsets),
              csr->bsr with blocksize (2, 1) (_bsr_data/_indices/_indptr), toarray (_dense),
              eliminate_zeros of the csr (_ez_data/_ez_indices/_ez_indptr).
  func from_dense: input <case>_in (2-D or 1-D) and SciPy's coo/csr/csc/dia arrays of it.
  func mmread_convert: <case>_csr_* and <case>_csc_* of csr_matrix(scipy.io.mmread(path)), file = its
               name (a real matrix of examples/data).
  func csr_to_csc: CSR -> CSC of compressed arrays as given (canonical or not: unsorted indices, duplicates,
               explicit zeros are kept): inputs <case>_in_data/_in_indices/_in_indptr of a (rows, cols)
               csr_matrix and SciPy's tocsc() <case>_csc_data/_csc_indices/_csc_indptr (the same arrays
               are csc_matrix(in arrays, shape=(cols, rows)).tocsr(), checked here). Index arrays are
               stored in the smallest unsigned dtype that holds them (tests convert); tiers lists the
               column-length tiers the case covers ("short", "long").
"""
import os
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

from golden import Suite

s = Suite("sparse_formats")
rng = s.rng(20240604)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


save = s.array


def values(dt, n):
    if dt == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dt.startswith("complex"):
        v = rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)
        return v.astype(dt)
    if dt.startswith("uint"):
        return rng.integers(0, 5, n).astype(dt)
    return rng.integers(-4, 5, n).astype(dt)


def tol(dt):
    """This module's own rule: the same relative and absolute tolerance (values are small integers)."""
    return (1e-6, 1e-6) if dt in ("float32", "complex64") else (1e-12, 1e-12)


# --- triplets: every value dtype; 6 x 5, 14 entries with duplicates, zeros, unsorted -----------
s.group("triplets")
for dt in DTYPES:
    case = f"trip_{dt}"
    m, n, nnz = 6, 5, 14
    row = rng.integers(0, m, nnz).astype(np.int64)
    col = rng.integers(0, n, nnz).astype(np.int32)
    row[3], col[3] = row[7], col[7]  # a duplicate
    data = values(dt, nnz)
    data[5] = 0  # an explicit zero
    save(case + "_data", data)
    save(case + "_row", row)
    save(case + "_col", col)
    coo = sp.coo_matrix((data, (row, col)), shape=(m, n))
    csr = sp.csr_matrix((data, (row, col)), shape=(m, n))
    csc = sp.csc_matrix((data, (row, col)), shape=(m, n))
    for pre, a in (("csr", csr), ("csc", csc)):
        save(f"{case}_{pre}_data", a.data)
        save(f"{case}_{pre}_indices", a.indices)
        save(f"{case}_{pre}_indptr", a.indptr)
    dia = csr.todia()
    save(case + "_dia_data", dia.data)
    save(case + "_dia_offsets", dia.offsets)
    dia_coo = dia.tocoo()  # SciPy 1.18: through CSR, so row-major order
    save(case + "_dia_coo_row", dia_coo.row.astype(np.int64))
    save(case + "_dia_coo_col", dia_coo.col.astype(np.int64))
    save(case + "_dia_coo_data", dia_coo.data)
    bsr = csr.tobsr(blocksize=(2, 1))
    bsr.sort_indices()
    save(case + "_bsr_data", bsr.data)
    save(case + "_bsr_indices", bsr.indices)
    save(case + "_bsr_indptr", bsr.indptr)
    save(case + "_dense", coo.toarray())
    ez = csr.copy()
    ez.eliminate_zeros()
    save(case + "_ez_data", ez.data)
    save(case + "_ez_indices", ez.indices)
    save(case + "_ez_indptr", ez.indptr)
    rt, at = tol(dt)
    s.case(case, func="from_triplets", rtol=rt, atol=at, dtype=dt, rows=m, cols=n)

# --- dense inputs: shapes incl. empty, 1 x n, n x 1; 1-D -> (1, n) -------------------------------
s.group("dense")
shapes = [(0, 0), (0, 3), (3, 0), (1, 5), (5, 1), (4, 6), (7,), (3, 3)]
for k, shp in enumerate(shapes):
    for dt in (["float64", "int16", "complex128", "bool"] if shp == (4, 6) else ["float64"]):
        case = f"dense{k}_{dt}"
        a = values(dt, int(np.prod(shp))).reshape(shp)
        if shp == (3, 3):
            a[:] = 0  # nnz 0
        save(case + "_in", a)
        coo = sp.coo_matrix(a)
        save(case + "_coo_row", coo.row)
        save(case + "_coo_col", coo.col)
        save(case + "_coo_data", coo.data)
        for pre, b in (("csr", sp.csr_matrix(a)), ("csc", sp.csc_matrix(a))):
            save(f"{case}_{pre}_data", b.data)
            save(f"{case}_{pre}_indices", b.indices)
            save(f"{case}_{pre}_indptr", b.indptr)
        d = sp.dia_matrix(a)
        save(case + "_dia_data", d.data)
        save(case + "_dia_offsets", d.offsets)
        save(case + "_dense", coo.toarray())
        rt, at = tol(dt)
        s.case(case, func="from_dense", rtol=rt, atol=at, dtype=dt, rows=coo.shape[0], cols=coo.shape[1])

# --- Matrix Market files: real matrices of examples/data --------------------------------------------
s.group("mtx")
for fname in ["1138_bus.mtx", "west0479.mtx", "Erdos971.mtx"]:
    path = os.path.join(s.data_dir, fname)
    if not os.path.exists(path):
        sys.exit(f"{fname} not found in {s.data_dir}")
    A = sp.csr_matrix(scipy.io.mmread(path, spmatrix=True)).astype(np.float64)
    case = "mtx_" + fname.split(".")[0]
    # csr_matrix(A.toarray()) drops stored zeros (west0479 has 22): its own reference.
    for pre, b in (("csr", A), ("csc", A.tocsc()), ("fromdense", sp.csr_matrix(A.toarray()))):
        save(f"{case}_{pre}_data", b.data)
        save(f"{case}_{pre}_indices", b.indices)
        save(f"{case}_{pre}_indptr", b.indptr)
    s.case(case, func="mmread_convert", rtol=1e-12, atol=1e-12, dtype="float64", rows=A.shape[0], cols=A.shape[1],
           file=fname)

# --- func csr_to_csc: CSR <-> CSC of given compressed arrays -------------------------------------
s.group("transpose")
trng = np.random.default_rng(20261130)


def small_uint(a):
    a = np.asarray(a, dtype=np.int64)
    for t in (np.uint8, np.uint16, np.uint32):
        if a.size == 0 or a.max() <= np.iinfo(t).max:
            return a.astype(t)
    return a


def tr_values(dt, n):
    if dt == "bool":
        return trng.integers(0, 2, n).astype(bool)
    if dt.startswith("complex"):
        return (trng.integers(-50, 51, n) + 1j * trng.integers(-50, 51, n)).astype(dt)
    if dt.startswith("uint"):
        return trng.integers(0, 250, n).astype(dt)
    if dt.startswith("float"):
        v = trng.integers(-50, 51, n).astype(dt) / 4
        if n > 2:
            v[1] = 0  # explicit zero
            v[2] = -0.0
        return v
    return trng.integers(-100, 101, n).astype(dt)


def from_entries(r, c, m, shuffle_rows=True):
    """CSR arrays of entries (r, c) in a random order within each row (non-canonical when shuffled)."""
    order = trng.permutation(len(r)) if shuffle_rows else np.lexsort((c, r))
    order = order[np.argsort(r[order], kind="stable")]
    indptr = np.zeros(m + 1, dtype=np.int64)
    np.add.at(indptr, r + 1, 1)
    return order, c[order], np.cumsum(indptr)


def dup_shuffle(rng, r, c, m, ndup):
    """CSR indices and indptr of entries (r, c) (modified in place) after making ndup / 2 of them
    duplicates of others, in a random order within each row."""
    dup = rng.choice(len(c), ndup, replace=False)
    r[dup[1::2]] = r[dup[::2]]
    c[dup[1::2]] = c[dup[::2]]
    perm = rng.permutation(len(r))
    order = perm[np.argsort(r[perm], kind="stable")]
    ptr = np.zeros(m + 1, dtype=np.int64)
    np.add.at(ptr, r + 1, 1)
    return c[order].astype(np.int64), np.cumsum(ptr)


def tr_case(case, dt, m, n, data, indices, indptr, tiers):
    A = sp.csr_matrix((data, indices, indptr), shape=(m, n))
    C = A.tocsc()
    B = sp.csc_matrix((data, indices, indptr), shape=(n, m)).tocsr()
    assert np.array_equal(B.indices, C.indices) and np.array_equal(B.indptr, C.indptr)
    assert np.array_equal(B.data, C.data)
    assert C.nnz == len(data)  # duplicates and zeros kept
    save(case + "_in_data", data)
    save(case + "_in_indices", small_uint(indices))
    save(case + "_in_indptr", small_uint(indptr))
    save(case + "_csc_data", C.data)
    save(case + "_csc_indices", small_uint(C.indices))
    save(case + "_csc_indptr", small_uint(C.indptr))
    rt, at = tol(dt)
    s.case(case, func="csr_to_csc", rtol=rt, atol=at, dtype=dt, rows=m, cols=n, tiers=tiers.split(",") if tiers else [])


# small: every value dtype; empty row 3, empty columns 5 and 8, duplicates, unsorted rows, zeros
for dt in DTYPES:
    m, n, k = 7, 9, 30
    r = trng.choice([0, 1, 2, 4, 5, 6], k)
    c = trng.choice([0, 1, 2, 3, 4, 6, 7], k)
    r[5], c[5] = r[11], c[11]
    order, ind, ptr = from_entries(r, c, m)
    tr_case(f"tr_small_{dt}", dt, m, n, tr_values(dt, k), ind, ptr, "short")

# tiers: columns of 0, 1, 2, ..., 32, 33 (long), 40, 100 entries; non-canonical; one dtype per item size
LENS = [0, 1, 2, 5, 8, 9, 15, 16, 17, 31, 32, 33, 40, 100, 3, 7]
for dt in ["bool", "int16", "float32", "float64", "complex128"]:
    m, n = 120, len(LENS)
    c = np.repeat(np.arange(n), LENS)
    r = trng.integers(0, m, len(c))
    order, ind, ptr = from_entries(r, c, m)
    tr_case(f"tr_tier_{dt}", dt, m, n, tr_values(dt, len(c)), ind, ptr, "short,long")
# the same pattern, canonical (duplicates summed, sorted)
m, n = 120, len(LENS)
c = np.repeat(np.arange(n), LENS)
r = trng.integers(0, m, len(c))
Acan = sp.csr_matrix((tr_values("float64", len(c)), (r, c)), shape=(m, n))
Acan.sum_duplicates()
tr_case("tr_tiercanon_float64", "float64", m, n, Acan.data, Acan.indices, Acan.indptr, "short,long")

# a dense column of 3001 entries (canonical), a 40-entry column, sparse others
m, n = 3001, 7
Ad = sp.random(m, n, density=0.02, format="lil", random_state=5, dtype=np.float64)
Ad[:, 2] = 1.0
Ad[np.arange(0, m, 75), 6] = 2.0
Ad = sp.csr_matrix(Ad)
Ad.sort_indices()
Ad.data[:] = tr_values("float64", Ad.nnz)
tr_case("tr_dense3001_float64", "float64", m, n, Ad.data, Ad.indices, Ad.indptr, "short,long")

s.group("transpose_large")
# > 100k entries in one column, from 3 rows of duplicates (order among duplicates = input order)
m, n = 3, 4
lens = [40000, 35000, 30000]
r = np.repeat(np.arange(m), lens)
c = np.where(trng.random(len(r)) < 0.97, 1, trng.choice([0, 2, 3], len(r)))
order, ind, ptr = from_entries(r, c, m)
tr_case("tr_huge_uint8", "uint8", m, n, trng.integers(0, 256, len(r)).astype(np.uint8), ind, ptr, "long")

# degenerate: nnz 0, one row, one column (long), empty shapes
tr_case("tr_nnz0_float64", "float64", 3, 4, np.zeros(0), np.zeros(0, np.int64), np.zeros(4, np.int64), "")
r = np.zeros(37, np.int64)
c = trng.integers(0, 40, 37)
order, ind, ptr = from_entries(r, c, 1)
tr_case("tr_row_complex64", "complex64", 1, 40, tr_values("complex64", 37), ind, ptr, "short")
tr_case("tr_col_int64", "int64", 50, 1, tr_values("int64", 50), np.zeros(50, np.int64), np.arange(51), "long")

# 5-point Laplacian of a 23 x 19 grid (the benchmark's structure: columns of 3 to 5 entries from rows
# far apart), canonical, float64 and float32, zeros and -0.0 among the values; its own generator so the
# cases above keep their data
prng = np.random.default_rng(2024)
gx, gy = 23, 19
L1 = lambda k: sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
P = sp.csr_matrix(sp.kronsum(L1(gx), L1(gy)))
P.sort_indices()
for dt in ["float64", "float32"]:
    v = (prng.integers(-50, 51, P.nnz) / 4).astype(dt)
    v[3], v[4] = 0, -0.0
    tr_case(f"tr_poisson_{dt}", dt, P.shape[0], P.shape[1], v, P.indices.astype(np.int64), P.indptr.astype(np.int64),
            "short")
tr_case("tr_one_float32", "float32", 1, 1, np.array([2.5], np.float32), np.zeros(1, np.int64),
        np.array([0, 1]), "short")
tr_case("tr_0x5_float64", "float64", 0, 5, np.zeros(0), np.zeros(0, np.int64), np.zeros(1, np.int64), "")
tr_case("tr_5x0_float64", "float64", 5, 0, np.zeros(0), np.zeros(0, np.int64), np.zeros(6, np.int64), "")

# canonical, with major slices longer than 32 entries (120, 299), an empty one, minor slices of 40
# (longer than any register tier), about 14 (the 9-16 tier) and none; every item size; its own generator
lrng = np.random.default_rng(77)
for dt in ["bool", "int16", "float32", "float64", "complex128"]:
    m, n = 40, 300
    mask = lrng.random((m, n)) < 0.03
    mask[:, 0:3] = True
    mask[::3, 3:6] = True
    mask[17, :120] = True
    mask[29, :] = True
    mask[11, :] = False
    mask[:, 250] = False
    r, c = np.nonzero(mask)
    ptr = np.concatenate([[0], np.cumsum(mask.sum(axis=1))])
    v = tr_values(dt, len(r))
    tr_case(f"tr_longrows_{dt}", dt, m, n, v, c.astype(np.int64), ptr.astype(np.int64), "short,long")

# 300 columns of 12-16 entries and 40 of 30: the first group of 256 columns holds more entries than
# the shared-memory stage of the staged fix-up (which then orders from global memory, listing slices
# longer than 16); rows shuffled with duplicates; its own generator
grng = np.random.default_rng(78)
for dt in ["float64", "complex128"]:
    m, n = 2000, 300
    lens = grng.integers(12, 17, n)
    lens[grng.choice(256, 40, replace=False)] = 30
    c = np.repeat(np.arange(n), lens)
    r = grng.integers(0, m, len(c))
    ind, ptr = dup_shuffle(grng, r, c, m, 50)
    v = (grng.integers(-50, 51, len(c)) / 4).astype(dt) if dt == "float64" else \
        (grng.integers(-50, 51, len(c)) + 1j * grng.integers(-50, 51, len(c))).astype(dt)
    tr_case(f"tr_stage_{dt}", dt, m, n, v, ind, ptr, "short,long")

# more minor slices than the count/scatter window of 512 slices around each 256-row tile's diagonal
# (entries inside and outside it), non-canonical (rows shuffled, duplicates): banded, random, wide,
# tall, and a tile of more than 8192 entries (whose rows are found by binary search, not a table);
# its own generator
s.group("transpose_window")
wrng = np.random.default_rng(79)


def w_values(dt, k):
    if dt.startswith("complex"):
        return (wrng.integers(-50, 51, k) + 1j * wrng.integers(-50, 51, k)).astype(dt)
    if dt.startswith("float"):
        return (wrng.integers(-50, 51, k) / 4).astype(dt)
    return wrng.integers(-1000, 1001, k).astype(dt)


def w_case(case, dt, m, n, r, c, tiers):
    ind, ptr = dup_shuffle(wrng, r.copy(), c.copy(), m, 40)
    tr_case(case, dt, m, n, w_values(dt, len(r)), ind, ptr, tiers)


gx, gy = 48, 40  # 5-point Laplacian, 1920 x 1920
Pw = sp.coo_matrix(sp.kronsum(L1(gx), L1(gy)))
w_case("tr_window_poisson_float64", "float64", Pw.shape[0], Pw.shape[1], Pw.row.astype(np.int64),
       Pw.col.astype(np.int64), "short")
k = 11000
w_case("tr_window_random_float32", "float32", 1500, 2600, wrng.integers(0, 1500, k), wrng.integers(0, 2600, k),
       "short")
m, n = 600, 4000  # wide: a band along the scaled diagonal and scattered entries
r = np.repeat(np.arange(m), 12)
c = np.clip(r * n // m + wrng.integers(-40, 41, len(r)), 0, n - 1)
c[::6] = wrng.integers(0, n, len(c[::6]))
w_case("tr_window_wide_float64", "float64", m, n, r, c, "short")
m, n = 3000, 700  # tall
r = np.repeat(np.arange(m), 3)
c = np.clip(r * n // m + wrng.integers(-3, 4, len(r)), 0, n - 1)
w_case("tr_window_tall_int64", "int64", m, n, r, c, "short,long")
m, n = 300, 2000  # 40 entries a row: the first tile holds 10240
r = np.repeat(np.arange(m), 40)
c = np.clip(r * n // m + wrng.integers(-200, 201, len(r)), 0, n - 1)
w_case("tr_window_bigtile_complex128", "complex128", m, n, r, c, "short")

# canonical (no duplicates, sorted), more columns than the window: a full column (long: the segmented
# sort), columns 256-511 dense enough that their group overflows the fix-up's shared-memory stage
# (ordered from global memory), values of 1, 4 and 8 bytes (complex64 is one 8-byte item), and a row
# tile of more than 8192 entries
for dt in ["int8", "float64", "complex64"]:
    m, n = 1200, 2000
    r = np.repeat(np.arange(m), 3)
    c = np.clip(r * n // m + wrng.integers(-30, 31, len(r)), 0, n - 1)
    r = np.concatenate([r, np.arange(m), wrng.integers(0, m, 2600)])
    c = np.concatenate([c, np.full(m, 7), wrng.integers(256, 512, 2600)])
    A = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(m, n))
    A.sum_duplicates()
    A.sort_indices()
    tr_case(f"tr_window_canon_{dt}", dt, m, n, w_values(dt, A.nnz), A.indices.astype(np.int64),
            A.indptr.astype(np.int64), "short,long")
m, n = 300, 2000
r = np.repeat(np.arange(m), 40)
c = np.clip(r * n // m + wrng.integers(-200, 201, len(r)), 0, n - 1)
A = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(m, n))
A.sum_duplicates()
A.sort_indices()
tr_case("tr_window_canon_bigtile_float32", "float32", m, n, w_values("float32", A.nnz), A.indices.astype(np.int64),
        A.indptr.astype(np.int64), "short")

s.write()
