"""Reference data for cusci::sparse::linalg's LinearOperator algebra and the ILU(0) / IC(0)
preconditioners (sparse/include/cusci/sparse/linalg.hpp, linalg/preconditioners.hpp), from SciPy
1.18.1 and NumPy (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_operator/.

Matrices are stored as CSR arrays <m>_data, <m>_indices (int32), <m>_indptr (int32), shape in the
case parameters.

Cases (func, parameters, expected):
  operator   kind ("dense" / "sparse"), A (prefix: a dense array <A> or CSR arrays), ops: a list of
             steps applied to the wrapped operator in order; each case checks SciPy's dtype and shape
             of the final operator and its products: x -> matvec (mv), y -> rmatvec (rmv),
             X -> matmat (mm), Y -> rmatmat (rmm) of the final operator (arrays <case>_x ... _rmm).
             Steps: ["H"], ["T"], ["add_self_T"] (op + op.T, square only), ["mul_self_H"]
             (op * op.H), ["scale", re, im], ["pow", p], ["neg"], ["sub_self"].
  ilu0       matrix, dtype; L / U (CSR arrays of the factors, from a row-wise ILU(0) written
             below, independent of cusci's algorithm), x, y = U^-1 L^-1 x (SciPy's
             spsolve_triangular on those factors). The generator asserts ILU(0)'s defining
             property, (L U)[i, j] == A[i, j] on A's pattern, with SciPy's product. (SciPy's
             spilu(drop_tol=0, fill_factor=1) is not ILU(0): SuperLU's ILUTP fills in and drops.)
  ic0        matrix, dtype; L (CSR arrays; (L L^H) == A on tril(A)'s pattern, asserted), x,
             y = L^-H L^-1 x.
  ic0_cg     matrix, b, rtol_cg; iterations and info of SciPy's cg with M = the IC(0) operator;
             xs (the exact solution, spsolve) and x_rtol (20 times SciPy's relative error).
  errors     func ("ilu0" / "ic0"), matrix: error kind.
"""
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_operator")
rng = s.rng(20261203)


def store_csr(name, A):
    A = sp.csr_matrix(A)
    A.sort_indices()
    s.csr(name, A)
    return name


def poisson2d(k):
    T = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    I = sp.identity(k)
    return sp.csr_matrix(sp.kron(I, T) + sp.kron(T, I))


def convdiff2d(k, peclet=0.6):
    """Upwind-free central convection-diffusion: -Lap u + c . grad u (nonsymmetric)."""
    T = sp.diags([-1.0 - peclet, 2.0, -1.0 + peclet], [-1, 0, 1], shape=(k, k))
    S = sp.diags([-1.0 - 0.5 * peclet, 2.0, -1.0 + 0.5 * peclet], [-1, 0, 1], shape=(k, k))
    I = sp.identity(k)
    return sp.csr_matrix(sp.kron(I, T) + sp.kron(S, I))


def ilu0_ref(A):
    """Row-wise IKJ ILU(0) (Saad, Alg. 10.4) over dict rows: (L unit lower, U upper) as CSR."""
    A = sp.csr_matrix(A)
    A.sum_duplicates()
    A.sort_indices()
    n = A.shape[0]
    rows = []
    for i in range(n):
        cols = A.indices[A.indptr[i]:A.indptr[i + 1]]
        vals = A.data[A.indptr[i]:A.indptr[i + 1]]
        rows.append(dict(zip(cols.tolist(), vals.tolist())))
    for i in range(n):
        ri = rows[i]
        for k in sorted(c for c in ri if c < i):
            ri[k] = ri[k] / rows[k][k]
            lik = ri[k]
            for j, ukj in rows[k].items():
                if j > k and j in ri:
                    ri[j] = ri[j] - lik * ukj
    dt = A.dtype
    L = sp.lil_matrix((n, n), dtype=dt)
    U = sp.lil_matrix((n, n), dtype=dt)
    Lr, Lc, Lv, Ur, Uc, Uv = [], [], [], [], [], []
    for i, ri in enumerate(rows):
        for j, v in ri.items():
            if j < i:
                Lr.append(i); Lc.append(j); Lv.append(v)
            else:
                Ur.append(i); Uc.append(j); Uv.append(v)
        Lr.append(i); Lc.append(i); Lv.append(1.0)
    L = sp.csr_matrix((np.array(Lv, dtype=dt), (Lr, Lc)), shape=(n, n))
    U = sp.csr_matrix((np.array(Uv, dtype=dt), (Ur, Uc)), shape=(n, n))
    return L, U


def ic0_ref(A):
    """Right-looking masked IC(0) on tril(A) (a different order from cusci's row dot products)."""
    T = sp.tril(sp.csr_matrix(A)).tocsc()
    T.sum_duplicates()
    T.sort_indices()
    n = T.shape[0]
    cols = []
    for j in range(n):
        idx = T.indices[T.indptr[j]:T.indptr[j + 1]]
        val = T.data[T.indptr[j]:T.indptr[j + 1]]
        cols.append(dict(zip(idx.tolist(), val.tolist())))
    for k in range(n):
        ck = cols[k]
        d = np.sqrt(np.real(ck[k]))
        ck[k] = d
        for i in ck:
            if i > k:
                ck[i] = ck[i] / d
        for j in sorted(i for i in ck if i > k):
            cj = cols[j]
            ljk = np.conj(ck[j])
            for i, lik in ck.items():
                if i >= j and i in cj:
                    cj[i] = cj[i] - lik * ljk
    r, c, v = [], [], []
    for j, cj in enumerate(cols):
        for i, x in cj.items():
            r.append(i); c.append(j); v.append(x)
    return sp.csr_matrix((np.array(v, dtype=T.dtype), (r, c)), shape=(n, n))


def on_pattern(P, A):
    """P's values at A's stored positions, as a CSR matrix with A's pattern."""
    B = sp.csr_matrix(A, copy=True)
    B.data[:] = 1
    return sp.csr_matrix(sp.csr_matrix(P).multiply(B))


def check_ilu0(A, L, U):
    """The defining property of ILU(0): (L U)[i, j] == A[i, j] on A's pattern (and the factors stay
    inside it), checked with NumPy/SciPy products."""
    A = sp.csr_matrix(A)
    err = abs(on_pattern(L @ U, A) - A).max()
    assert err <= 1e-12 * max(1.0, abs(A).max()), err
    assert L.nnz + U.nnz - A.shape[0] == A.nnz


def check_ic0(A, L):
    T = sp.tril(sp.csr_matrix(A)).tocsr()
    err = abs(on_pattern(L @ L.conj().T, T) - T).max()
    assert err <= 1e-12 * max(1.0, abs(T).max()), err
    assert L.nnz == T.nnz


def rand_vec(n, dt):
    x = rng.standard_normal(n)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(n)
    return x.astype(dt)


def tol_for(dt, scale=1.0):
    return (2e-3 * scale, 0.0) if np.dtype(dt) in (np.float32, np.complex64) else (1e-9 * scale, 0.0)


mats = {}
mats["poisson8"] = poisson2d(8)
mats["convdiff8"] = convdiff2d(8)
mats["orsirr_1"] = sp.csr_matrix(scipy.io.mmread(s.data("orsirr_1.mtx")))
mats["1138_bus"] = sp.csr_matrix(scipy.io.mmread(s.data("1138_bus.mtx")))
yc = sp.csr_matrix(scipy.io.mmread(s.data("young1c.mtx")))
mats["young1c"] = yc
# Complex Hermitian positive definite: Poisson plus i times a skew-symmetric coupling.
P = poisson2d(8)
Kp = sp.triu(P, 1) * 0.3
mats["hpd8"] = sp.csr_matrix(P + 1j * (Kp - Kp.T))
# Complex nonsymmetric.
mats["cconv8"] = sp.csr_matrix(convdiff2d(8) + 0.25j * sp.identity(64))
for name, M in mats.items():
    store_csr(name, M)

# ----- ilu0 -----
for name in ["poisson8", "convdiff8", "orsirr_1", "young1c", "cconv8"]:
    A = mats[name]
    dts = [np.complex64, np.complex128] if np.iscomplexobj(A.data) else [np.float32, np.float64]
    L, U = ilu0_ref(A.astype(np.complex128 if np.iscomplexobj(A.data) else np.float64))
    check_ilu0(A, L, U)
    cname = f"ilu0_{name}"
    store_csr(cname + "_L", L)
    store_csr(cname + "_U", U)
    for dt in dts:
        x = rand_vec(A.shape[0], dt)
        z = sla.spsolve_triangular(L.astype(np.complex128 if np.dtype(dt).kind == "c" else np.float64),
                                   x.astype(np.complex128 if np.dtype(dt).kind == "c" else np.float64),
                                   lower=True, unit_diagonal=True)
        y = sla.spsolve_triangular(U, z, lower=False)
        # Error growth of float32 triangular solves on ill-conditioned factors.
        cond_scale = 1.0 if name in ("poisson8", "convdiff8", "cconv8") else 50.0
        rt, at = tol_for(dt, cond_scale)
        c = f"{cname}_{np.dtype(dt).name}"
        s.array(c + "_x", x)
        s.array(c + "_y", y.astype(dt))
        s.case(c, "ilu0", rtol=rt, atol=at, matrix=name, shape=list(A.shape), dtype=np.dtype(dt).name,
               factors=cname)

# ----- ic0 -----
for name in ["poisson8", "1138_bus", "hpd8"]:
    A = mats[name]
    cplx = np.iscomplexobj(A.data)
    dts = [np.complex64, np.complex128] if cplx else [np.float32, np.float64]
    L = ic0_ref(A.astype(np.complex128 if cplx else np.float64))
    check_ic0(A, L)
    cname = f"ic0_{name}"
    store_csr(cname + "_L", L)
    for dt in dts:
        x = rand_vec(A.shape[0], dt)
        wt = np.complex128 if cplx else np.float64
        z = sla.spsolve_triangular(L, x.astype(wt), lower=True)
        y = sla.spsolve_triangular(sp.csr_matrix(L.conj().T), z, lower=False)
        rt, at = tol_for(dt, 1.0 if name != "1138_bus" else 100.0)
        c = f"{cname}_{np.dtype(dt).name}"
        s.array(c + "_x", x)
        s.array(c + "_y", y.astype(dt))
        s.case(c, "ic0", rtol=rt, atol=at, matrix=name, shape=list(A.shape), dtype=np.dtype(dt).name, factors=cname)

# ----- cg with M = IC(0) (the operator is usable as a preconditioner) -----
for name in ["poisson8", "1138_bus"]:
    A = mats[name]
    L = ic0_ref(A)
    LH = sp.csr_matrix(L.T)

    def msolve(v, L=L, LH=LH):
        return sla.spsolve_triangular(LH, sla.spsolve_triangular(L, np.ravel(v), lower=True), lower=False)

    M = sla.LinearOperator(A.shape, matvec=msolve, dtype=np.float64)
    b = rng.standard_normal(A.shape[0])
    its = [0]

    def cb(xk):
        its[0] += 1

    x, info = sla.cg(A, b, rtol=1e-8, M=M, callback=cb)
    its_plain = [0]

    def cb2(xk):
        its_plain[0] += 1

    sla.cg(A, b, rtol=1e-8, callback=cb2)
    # The exact solution, and how close SciPy's x came to it: cusci's x must come as close (within a
    # factor 20: the two runs differ only in rounding, which an ill-conditioned A amplifies).
    xs = sla.spsolve(sp.csc_matrix(A), b)
    err = np.linalg.norm(x - xs) / np.linalg.norm(xs)
    c = f"ic0_cg_{name}"
    s.array(c + "_b", b)
    s.array(c + "_xs", xs)
    s.case(c, "ic0_cg", matrix=name, shape=list(A.shape), iterations=its[0], info=int(info),
           iterations_unpreconditioned=its_plain[0], rtol_cg=1e-8, x_rtol=float(max(1e-7, 20 * err)))

# ----- errors -----
# An explicitly stored zero pivot in row 0 (the diagonal entry exists, its value is 0).
Z = sp.csr_matrix((np.array([0.0, 1.0, 1.0, 1.0]), np.array([0, 1, 0, 1]), np.array([0, 2, 4])), shape=(2, 2))
assert Z.nnz == 4
store_csr("zeropivot", Z)
s.case("ilu0_zero_pivot", "errors", error="runtime_error", target="ilu0", matrix="zeropivot", shape=[2, 2])
N = sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 1.0]]))  # indefinite: IC(0) pivot 1 - 4 < 0
store_csr("indefinite", N)
s.case("ic0_indefinite", "errors", error="runtime_error", target="ic0", matrix="indefinite", shape=[2, 2])
D = sp.csr_matrix((np.array([1.0, 1.0]), np.array([1, 0]), np.array([0, 1, 2])), shape=(2, 2))  # no diagonal
store_csr("nodiag", D)
s.case("ilu0_no_diagonal", "errors", error="runtime_error", target="ilu0", matrix="nodiag", shape=[2, 2])
s.case("ic0_no_diagonal", "errors", error="runtime_error", target="ic0", matrix="nodiag", shape=[2, 2])

# ----- LinearOperator algebra -----
dense_rect = {"f32": rng.standard_normal((6, 4)).astype(np.float32),
              "c128": (rng.standard_normal((6, 4)) + 1j * rng.standard_normal((6, 4))).astype(np.complex128)}
dense_sq = {"f64": rng.standard_normal((5, 5)), "c64": (rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5))).astype(np.complex64)}
for k, v in {**{"rect_" + a: b for a, b in dense_rect.items()}, **{"sq_" + a: b for a, b in dense_sq.items()}}.items():
    s.array("dense_" + k, v)
sq_sparse = sp.random(7, 7, density=0.4, random_state=1, format="csr") + sp.identity(7, format="csr")
store_csr("sparse_sq", sq_sparse)

programs = {
    "plain": [],
    "H": [["H"]],
    "T": [["T"]],
    "HH": [["H"], ["H"]],
    "mul_H": [["mul_self_H"]],
    "scale_real": [["scale", 2.5, 0.0]],
    "scale_complex": [["scale", 0.5, -1.5]],
    "neg": [["neg"]],
    "sub": [["sub_self"]],
}
sq_programs = {
    "add_T": [["add_self_T"]],
    "pow0": [["pow", 0]],
    "pow3": [["pow", 3]],
    "pow2_H": [["pow", 2], ["H"]],
    "scaleT": [["scale", 0.0, 2.0], ["T"]],
}


def apply(op, steps):
    for st in steps:
        if st[0] == "H":
            op = op.H
        elif st[0] == "T":
            op = op.T
        elif st[0] == "add_self_T":
            op = op + op.T
        elif st[0] == "mul_self_H":
            op = op * op.H
        elif st[0] == "scale":
            a = complex(st[1], st[2]) if st[2] != 0 else float(st[1])
            op = a * op
        elif st[0] == "neg":
            op = -op
        elif st[0] == "sub_self":
            op = op - 0.5 * op
        elif st[0] == "pow":
            op = op ** int(st[1])
    return op


def add_operator_case(kind, aname, A, prog_name, steps):
    op = apply(sla.aslinearoperator(A), steps)
    m, n = op.shape
    cplx = np.iscomplexobj(A) if not sp.issparse(A) else np.iscomplexobj(A.data)
    xdt = np.complex128 if cplx else np.float64
    c = f"op_{aname}_{prog_name}"
    x = rand_vec(n, xdt)
    y = rand_vec(m, xdt)
    X = np.stack([rand_vec(n, xdt) for _ in range(3)], axis=1)
    Y = np.stack([rand_vec(m, xdt) for _ in range(3)], axis=1)
    for nm, v in (("x", x), ("y", y), ("X", X), ("Y", Y)):
        s.array(f"{c}_{nm}", v)
    s.array(c + "_mv", op.matvec(x))
    s.array(c + "_rmv", op.rmatvec(y))
    s.array(c + "_mm", op.matmat(X))
    s.array(c + "_rmm", op.rmatmat(Y))
    s.case(c, "operator", rtol=1e-4, atol=1e-5, kind=kind, A=aname, ops=steps, shape=[m, n],
           dtype=np.dtype(op.dtype).name)


for k in ["rect_f32", "rect_c128", "sq_f64", "sq_c64"]:
    A = dense_sq[k[3:]] if k.startswith("sq_") else dense_rect[k[5:]]
    progs = dict(programs)
    if k.startswith("sq_"):
        progs.update(sq_programs)
    for pn, steps in progs.items():
        add_operator_case("dense", "dense_" + k, A, pn, steps)
for pn, steps in {**programs, **sq_programs}.items():
    add_operator_case("sparse", "sparse_sq", sq_sparse, pn, steps)

s.write()
