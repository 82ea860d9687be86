#!/usr/bin/env python
"""References for cusci::sparse (COO construction, SpMV/SpMM, Matrix Market files, cg), from SciPy/NumPy.

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Real matrices are inputs: those of
examples/data are read from there. Seeded: reruns are identical.
"""
import os
import sys
import warnings

import numpy as np
import scipy.io as sio
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from golden import Suite

warnings.simplefilter("ignore", DeprecationWarning)

s = Suite("sparse")


def matrix_path(name):
    """A real matrix of examples/data."""
    return s.data(name + ".mtx")


rng = s.rng(20261130)
save = s.array


# --- COO construction: duplicates, unsorted, explicit zeros, empty rows ---------------------------------
s.group("coo")
def coo_case(name, m, n, r, c, d, dtype, dense=True):
    d = np.asarray(d, dtype=dtype)
    r = np.asarray(r, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    A = sp.coo_matrix((d, (r, c)), shape=(m, n))
    C = A.tocsr()
    assert C.has_canonical_format
    save(name + "_row", r)
    save(name + "_col", c)
    save(name + "_data", d)
    save(name + "_indptr", C.indptr.astype(np.int64))
    save(name + "_indices", C.indices.astype(np.int64))
    save(name + "_csrdata", C.data)
    if dense:
        save(name + "_dense", A.toarray())
    tol = 1e-6 if dtype == np.float32 else 1e-13
    s.case(name, func="coo_tocsr", rtol=tol, atol=tol, rows=m, cols=n, dtype=np.dtype(dtype).name, dense=dense)


for dt in (np.float32, np.float64):
    tag = "f32" if dt == np.float32 else "f64"
    # 6 x 5: duplicates (incl. one summing to zero), an explicit zero, empty rows 1 and 4, unsorted.
    coo_case("coo_dup_" + tag, 6, 5, [5, 0, 3, 0, 2, 5, 0, 3, 2, 5], [4, 1, 0, 1, 2, 0, 3, 0, 2, 4],
             [1.5, 2.0, -1.0, 0.25, 0.0, 3.0, -2.0, 1.0, 7.0, -1.5], dt)
    r = rng.integers(0, 300, 3000)
    c = rng.integers(0, 200, 3000)
    coo_case("coo_rand_" + tag, 300, 200, r, c, rng.standard_normal(3000), dt, dense=False)
coo_case("coo_empty_f64", 4, 3, [], [], [], np.float64)
coo_case("coo_norows_f64", 0, 5, [], [], [], np.float64)
coo_case("coo_one_f64", 1, 1, [0], [0], [2.5], np.float64)
coo_case("coo_tall_f64", 1000, 3, rng.integers(0, 1000, 50), rng.integers(0, 3, 50), rng.standard_normal(50),
         np.float64)


# --- SpMV / SpMM over dtypes ---------------------------------------------------------------------
def spmv_case(name, A, k=3):
    A = sp.csr_matrix(A, dtype=np.float64)
    A.sort_indices()
    m, n = A.shape
    save(name + "_data", A.data)
    save(name + "_indices", A.indices.astype(np.int64))
    save(name + "_indptr", A.indptr.astype(np.int64))
    x = rng.standard_normal(n)
    X = rng.standard_normal((n, k))
    save(name + "_x", x)
    save(name + "_X", X)
    A32 = A.astype(np.float32)
    save(name + "_y_f64", A @ x)
    save(name + "_Y_f64", A @ X)
    save(name + "_y_f32", A32 @ x.astype(np.float32))
    save(name + "_Y_f32", A32 @ X.astype(np.float32))
    save(name + "_y_mixed", A32 @ x)  # float32 matrix, float64 vector -> float64
    s.case(name, func="spmv", rtol=1e-12, atol=1e-12, rows=m, cols=n)


s.group("spmv")
spmv_case("spmv_small", sp.random(7, 5, density=0.4, random_state=1))
spmv_case("spmv_med", sp.random(500, 300, density=0.02, random_state=2))
E = sp.random(50, 40, density=0.1, random_state=3).tolil()
E[10:20, :] = 0
spmv_case("spmv_emptyrows", E.tocsr())
spmv_case("spmv_zero", sp.csr_matrix((5, 4)))
spmv_case("spmv_row", sp.random(1, 33, density=0.5, random_state=4))

# --- Matrix Market files ------------------------------------------------------------------------
s.group("mm")
for f in ("1138_bus", "west0479", "Erdos971"):
    src = matrix_path(f)
    A = sio.mmread(src)
    save("mm_" + f + "_row", A.row.astype(np.int64))
    save("mm_" + f + "_col", A.col.astype(np.int64))
    save("mm_" + f + "_data", A.data)
    C = A.tocsr()
    x = rng.standard_normal(A.shape[1])
    save("mm_" + f + "_x", x)
    save("mm_" + f + "_y", C @ x)
    s.case("mm_" + f, func="mmread_spmv", rtol=1e-12, atol=1e-12, rows=A.shape[0], cols=A.shape[1],
           dtype=A.dtype.name, matrix=f + ".mtx")

# bcsstk16 is read from examples/data by the tests; only x and A @ x are stored.
B16 = sio.mmread(matrix_path("bcsstk16")).tocsr()
x = rng.standard_normal(B16.shape[1])
save("mm_bcsstk16_x", x)
save("mm_bcsstk16_y", B16 @ x)
s.case("mm_bcsstk16", func="mmread_example_spmv", rtol=1e-12, atol=1e-9, rows=B16.shape[0], cols=B16.shape[1],
       dtype="float64", matrix="bcsstk16.mtx.gz")


# --- cg ----------------------------------------------------------------------------------------
def poisson2d(k):
    T = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    I = sp.identity(k)
    return (sp.kron(I, T) + sp.kron(T, I)).tocsr()


def jacobi(A):
    return spla.LinearOperator(A.shape, matvec=lambda v: v / A.diagonal().astype(A.dtype), dtype=A.dtype)


def cg_case(name, A, b, matrix, M=None, x0=None, rtol=1e-5, maxiter=None, dtype=np.float64, tol_x=1e-6):
    count = [0]

    def cb(xk):
        count[0] += 1

    A = A.astype(dtype)
    b = b.astype(dtype)
    Mop = jacobi(A) if M == "jacobi" else None
    x, info = spla.cg(A, b, x0=x0, rtol=rtol, maxiter=maxiter, M=Mop, callback=cb)
    save(name + "_b", b)
    if x0 is not None:
        save(name + "_x0", x0)
    save(name + "_x", x)
    s.case(name, func="cg", rtol=tol_x, atol=0, rows=A.shape[0], cols=A.shape[1], dtype=np.dtype(dtype).name,
           iters=count[0], info=info, maxiter=maxiter, solver_rtol=rtol, M=M, x0=x0 is not None, matrix=matrix)


s.group("cg")
bus = sio.mmread(matrix_path("1138_bus")).tocsr()
nb = bus.shape[0]
b_bus = rng.standard_normal(nb)
cg_case("cg_1138_jacobi", bus, b_bus, "1138_bus.mtx", M="jacobi")
cg_case("cg_1138_jacobi_tight", bus, b_bus, "1138_bus.mtx", M="jacobi", rtol=1e-10)
cg_case("cg_1138_none", bus, b_bus, "1138_bus.mtx")
cg_case("cg_1138_maxiter", bus, b_bus, "1138_bus.mtx", M="jacobi", maxiter=10, tol_x=1e-8)
cg_case("cg_1138_x0", bus, b_bus, "1138_bus.mtx", M="jacobi", x0=rng.standard_normal(nb))
cg_case("cg_1138_zero_b", bus, np.zeros(nb), "1138_bus.mtx", M="jacobi")
b16 = rng.standard_normal(B16.shape[0])
cg_case("cg_bcsstk16_jacobi", B16, b16, "bcsstk16.mtx.gz", M="jacobi")
P = poisson2d(30)
save("poisson30_data", P.data)
save("poisson30_indices", P.indices.astype(np.int64))
save("poisson30_indptr", P.indptr.astype(np.int64))
bp = rng.standard_normal(P.shape[0])
cg_case("cg_poisson_f64", P, bp, "poisson30", rtol=1e-8)
cg_case("cg_poisson_f32", P, bp, "poisson30", rtol=1e-4, dtype=np.float32, tol_x=1e-3)
cg_case("cg_poisson_jacobi", P, bp, "poisson30", M="jacobi", rtol=1e-8)

# --- SpMV with short rows and one long row (drawn last: the cases above keep their random numbers) -----
# Mean row length about 3.7: cusci's CSR-stream kernel; the 256-row tile holding row 700 (1800 entries)
# exceeds the kernel's shared-memory tile and takes its warp-per-row path; row 1500 has 100 entries.
s.group("spmv_longrow")
L = sp.random(2600, 2000, density=0.0015, random_state=6).tolil()
L[700, 100:1900] = np.linspace(-1.0, 1.0, 1800)
L[1500, :100] = np.arange(1.0, 101.0) / 100.0
spmv_case("spmv_longrow", L.tocsr())

s.write()
