"""References for cusci::distributed's row partitions and halo plans: square sparse matrices (CSR,
int64 and int32 indices), a vector x and SciPy's product A @ x, which a test reproduces by carrying out
each rank's plan (its own rows times [x_owned, x_ghosts] gathered through the send lists). Seeded. Run at
build time (tests/golden/CMakeLists.txt).
"""
import numpy as np
import scipy.sparse as sp

from golden import Suite, tol

s = Suite("distributed_partition")
rng = s.rng(20261204)


def add(name, a, idx_dtype):
    a = sp.csr_array(a)
    a.sort_indices()
    x = rng.standard_normal(a.shape[1])
    y = a @ x
    rt, at = tol(np.float64, scale=abs(y).max() if y.size else 1.0)
    s.case(name, func="plan_halos", rtol=rt, atol=at, n=int(a.shape[0]), nnz=int(a.nnz), index_dtype=idx_dtype,
           indptr=s.array(name + "_indptr", a.indptr.astype(np.int64)),
           indices=s.array(name + "_indices", a.indices.astype(idx_dtype)),
           data=s.array(name + "_data", a.data.astype(np.float64)),
           x=s.array(name + "_x", x), expected=s.array(name + "_y", y))


s.group("matrices")
# 2-D Poisson 20 x 20 (5-point), banded: ranks exchange with their neighbours only.
n1 = 20
t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n1, n1))
poisson = sp.kron(sp.eye(n1), t) + sp.kron(t, sp.eye(n1))
add("poisson2d_20", poisson, "int64")
add("poisson2d_20_i32", poisson, "int32")
# Random 300 x 300, 2% dense, plus the diagonal: every rank talks to every other.
r = sp.random(300, 300, density=0.02, random_state=np.random.default_rng(7), format="csr") + sp.eye(300)
add("random_300", r, "int64")
# Rows of very different lengths (arrow matrix: a full first row and column), for the nnz balance.
m = 200
arrow = sp.lil_array((m, m))
arrow[0, :] = 1.0
arrow[:, 0] = 1.0
arrow.setdiag(4.0)
add("arrow_200", arrow, "int32")
# Empty rows and a matrix smaller than some partitions.
e = sp.csr_array((np.ones(3), ([0, 2, 4], [1, 4, 0])), shape=(7, 7))
add("sparse_7_empty_rows", e, "int64")
s.write()
