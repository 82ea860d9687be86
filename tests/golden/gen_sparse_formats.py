"""Goldens of cusci::sparse's formats family (scipy.sparse 1.18 constructors and conversions).

Run with /opt/goldenv/bin/python. Writes tests/golden/data/sparse_formats/*.npy and MANIFEST.tsv.
Columns: case, group, dtype, rows, cols, rtol, atol, extra.
  group trip: inputs <case>_data/_row/_col (duplicates, explicit zeros, unsorted) and SciPy's
              coo->csr (<case>_csr_data/_indices/_indptr), coo->csc, csr->dia (_dia_data/_dia_offsets),
              csr->bsr with blocksize (2, 1) (_bsr_data/_indices/_indptr), toarray (_dense),
              eliminate_zeros of the csr (_ez_data/_ez_indices/_ez_indptr).
  group dense: input <case>_in (2-D or 1-D) and SciPy's coo/csr/csc/dia arrays of it.
  group mtx:   <case>_csr_* and <case>_csc_* of csr_matrix(scipy.io.mmread(path)), extra = file name.
"""
import os
import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "sparse_formats")
MTX = os.path.join(HERE, "..", "..", "..", "shared", "data", "matrices")
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    os.remove(os.path.join(OUT, f))
rng = np.random.default_rng(20240604)
rows = []

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def save(name, a):
    np.save(os.path.join(OUT, name + ".npy"), np.ascontiguousarray(a))


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
    return ("1e-6", "1e-6") if dt in ("float32", "complex64") else ("1e-12", "1e-12")


# --- triplets: every value dtype; 6 x 5, 14 entries with duplicates, zeros, unsorted -----------
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
    rows.append([case, "trip", dt, m, n, rt, at, ""])

# --- dense inputs: shapes incl. empty, 1 x n, n x 1; 1-D -> (1, n) -------------------------------
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
        rows.append([case, "dense", dt, coo.shape[0], coo.shape[1], rt, at, ""])

# --- Matrix Market files of ../shared/data/matrices (small ones) ----------------------------------
for fname in ["1138_bus.mtx", "west0479.mtx", "Erdos971.mtx"]:
    path = os.path.join(MTX, fname)
    if not os.path.exists(path):
        continue
    A = sp.csr_matrix(scipy.io.mmread(path, spmatrix=True)).astype(np.float64)
    case = "mtx_" + fname.split(".")[0]
    for pre, b in (("csr", A), ("csc", A.tocsc())):
        save(f"{case}_{pre}_data", b.data)
        save(f"{case}_{pre}_indices", b.indices)
        save(f"{case}_{pre}_indptr", b.indptr)
    rows.append([case, "mtx", "float64", A.shape[0], A.shape[1], "1e-12", "1e-12", fname])

with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
    f.write("case\tgroup\tdtype\trows\tcols\trtol\tatol\textra\n")
    for r in rows:
        f.write("\t".join(str(x) for x in r) + "\n")
print(len(rows), "cases, scipy", scipy.__version__)
