"""References for cusci::distributed's vectors and row-partitioned CSR matrix
(tests/distributed/test_matrix_gpu.cpp): square sparse matrices (CSR arrays, int64 indptr and int32
indices), a vector x, SciPy's y = A @ x, x . y, norm(x) and A.diagonal(), in float64 and for the
float32-rounded data. Matrices: a 2-D Poisson matrix, a random nonsymmetric one with its diagonal, an
arrow matrix, one with empty rows, a 3 x 3 one (fewer rows than some partitions have ranks), an empty
0 x 0 one, one stored with duplicate and unsorted entries, and three of examples/data (1138_bus:
real symmetric, orsirr_1: real general, Erdos971: pattern symmetric). The synthetic matrices are also
written as Matrix Market files beside the manifest (symmetric, gzip-compressed, integer, pattern and
duplicate-entry files), which the test reads with csr_matrix::read_matrix_market. Seeded. Run at build
time (tests/golden/CMakeLists.txt).
"""
import gzip
import io

import numpy as np
import scipy.io
import scipy.sparse as sp

from golden import Suite, tol

s = Suite("distributed_matrix")
rng = s.rng(20261205)


def write_mtx(name, a, **kw):
    """Writes `a` as Matrix Market file `name` beside the manifest (gzip-compressed for .gz names)."""
    buf = io.BytesIO()
    scipy.io.mmwrite(buf, sp.coo_matrix(a), **kw)
    data = buf.getvalue()
    if name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    with open(s.file(name), "wb") as f:
        f.write(data)
    return name


def add(name, a, mtx=None, mtx_source=None, raw=None):
    """A case for matrix `a` (square). `raw`: (data, indices, indptr) stored as given (duplicates,
    unsorted) instead of a's canonical arrays. `mtx`: a Matrix Market file holding the same matrix,
    in examples/data (mtx_source "example") or beside the manifest ("golden")."""
    a = sp.csr_array(a, dtype=np.float64)
    a.sum_duplicates()
    a.sort_indices()
    n = a.shape[0]
    assert a.shape == (n, n)
    data, indices, indptr = raw if raw is not None else (a.data, a.indices, a.indptr)
    x = rng.standard_normal(n)
    y = a @ x
    x32 = x.astype(np.float32)
    a32 = sp.csr_array(a.astype(np.float32), dtype=np.float64)  # the float32-rounded values, in float64
    y32 = a32 @ x32.astype(np.float64)
    # Rounding of a row's sum scales with sum_j |a_ij x_j|, not with |y_i|.
    rowscale = float((abs(a) @ abs(x)).max()) if n else 1.0
    rt, at = tol(np.float64, scale=rowscale)
    rt32, at32 = tol(np.float32, scale=rowscale)
    xy = float(x @ y)
    xy32 = float(x32.astype(np.float64) @ y32.astype(np.float32).astype(np.float64))
    dot_atol = 1e-12 * max(float(abs(x * y).sum()), 1.0)
    s.case(name, func="matrix", rtol=rt, atol=at, n=n, nnz=int(len(data)), canonical=raw is None,
           canonical_nnz=int(a.nnz),
           indptr=s.array(name + "_indptr", np.asarray(indptr, dtype=np.int64)),
           indices=s.array(name + "_indices", np.asarray(indices, dtype=np.int32)),
           data=s.array(name + "_data", np.asarray(data, dtype=np.float64)),
           x=s.array(name + "_x", x), y=s.array(name + "_y", y), y32=s.array(name + "_y32", y32),
           diag=s.array(name + "_diag", a.diagonal()),
           rtol32=rt32, atol32=at32, xy=xy, xy32=xy32, dot_atol=dot_atol,
           norm=float(np.linalg.norm(x)), norm32=float(np.linalg.norm(x32.astype(np.float64))),
           mtx=mtx, mtx_source=mtx_source)


s.group("synthetic")
# 2-D Poisson 12 x 12 (5-point): banded, each rank exchanges with its neighbours only. Written
# symmetric (lower triangle), so that the reader's mirroring is exercised.
n1 = 12
t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n1, n1))
poisson = (sp.kron(sp.eye(n1), t) + sp.kron(t, sp.eye(n1))).tocsr()
add("poisson2d_12", poisson, write_mtx("poisson2d_12.mtx", poisson, symmetry="symmetric"), "golden")
# Random 200 x 200, 3% dense, plus its diagonal: every rank talks to every other. gzip-compressed.
r = (sp.random(200, 200, density=0.03, random_state=np.random.default_rng(11), format="csr")
     + sp.diags(rng.uniform(1.0, 2.0, 200))).tocsr()
add("random_200", r, write_mtx("random_200.mtx.gz", r, symmetry="general"), "golden")
# Arrow matrix (full first row and column, 4 on the diagonal): rows of very different lengths, for
# the by-entries partition and the lanes per row. Integer values, written with the integer field.
m = 150
arrow = sp.lil_array((m, m))
arrow[0, :] = 1.0
arrow[:, 0] = 2.0
arrow.setdiag(4.0)
arrow = arrow.tocsr()
add("arrow_150", arrow, write_mtx("arrow_150.mtx", arrow, field="integer", symmetry="general"), "golden")
# Empty rows (the last one included), a row reading only other ranks' columns; ones, written as a
# pattern file.
e = sp.csr_array((np.ones(5), ([0, 2, 4, 4, 6], [1, 8, 0, 4, 7])), shape=(9, 9))
add("empty_rows_9", e, write_mtx("empty_rows_9.mtx", e, field="pattern", symmetry="general"), "golden")
# Fewer rows than 4 ranks: a rank owns nothing.
tiny = sp.csr_array(np.array([[2.0, -1.0, 0.5], [0.0, 3.0, 0.0], [1.0, 0.0, -4.0]]))
add("tiny_3", tiny, write_mtx("tiny_3.mtx", tiny, symmetry="general"), "golden")
# No rows at all.
add("empty_0", sp.csr_array((0, 0)), write_mtx("empty_0.mtx", sp.csr_array((0, 0)), symmetry="general"), "golden")
# Duplicate and unsorted entries, stored as given (SciPy's product and diagonal sum the duplicates).
nd = 60
rows = np.concatenate([np.arange(nd), rng.integers(0, nd, 240)])
cols = np.concatenate([np.arange(nd), rng.integers(0, nd, 240)])
vals = rng.standard_normal(rows.size)
order = np.lexsort((rng.random(rows.size), rows))  # by row, the columns of a row shuffled
rows, cols, vals = rows[order], cols[order], vals[order]
indptr_d = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=nd))])
dup = sp.csr_array((vals, cols, indptr_d), shape=(nd, nd))
assert not dup.has_canonical_format
add("duplicates_60", dup.copy(), write_mtx("duplicates_60.mtx", sp.coo_array((vals, (rows, cols)), shape=(nd, nd)),
                                           symmetry="general"), "golden",
    raw=(vals, cols, indptr_d))

s.group("real")
for fname in ("1138_bus.mtx", "orsirr_1.mtx", "Erdos971.mtx"):
    a = scipy.io.mmread(s.data(fname), spmatrix=False).tocsr()
    add(fname.removesuffix(".mtx"), a, fname, "example")
s.write()
