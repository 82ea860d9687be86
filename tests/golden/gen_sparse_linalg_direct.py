"""References for cusci::sparse::linalg's direct solvers (SciPy 1.18.1): spsolve (dense and sparse
right-hand sides, every format and dtype, singular matrices), splu / spilu (permutations, SuperLU's
nnz, L and U, solves with trans N/T/H, options), factorized, spsolve_triangular, is_sptriangular,
spbandwidth, inv, and SciPy's errors.

Matrices: the bundled west0479, orsirr_1, young1c (complex) and bcsstk16 (read by the tests from
examples/data with cusci's mmread; only right-hand sides and results are stored here) and generated
ones stored as canonical CSC arrays: a 2-D Poisson matrix, a 2-D upwind convection-diffusion matrix,
small random nonsymmetric real and complex matrices.

Tolerances of solutions: rtol = 100 * cond(A) * eps(dtype) (capped at 1e-2), cond from a dense 2-norm
condition number (bcsstk16: its 1-norm estimate); SuperLU's factors on the device side come from the
same algorithm (the system SuperLU 5), differing from SciPy's bundled copy only in the BLAS rounding
of the dense supernode updates.
"""

import sys
import warnings

import numpy as np
import scipy
import scipy.io as sio
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from golden import Suite

warnings.simplefilter("ignore", DeprecationWarning)  # scipy.io.mmread's spmatrix default notice
S = Suite("sparse_linalg_direct", sys.argv[1:])
rng = S.rng(20261203)

EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps,
       "complex64": np.finfo(np.float32).eps, "complex128": np.finfo(np.float64).eps}


def poisson2d(m):
    T = sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(m, m))
    E = sp.diags([-1.0, -1.0], [-1, 1], shape=(m, m))
    return (sp.kron(sp.eye(m), T) + sp.kron(E, sp.eye(m))).tocsc()


def convdiff2d(m, peclet=20.0):
    h = 1.0 / (m + 1)
    D = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m)) / h**2
    C = sp.diags([-1.0, 1.0], [-1, 0], shape=(m, m)) / h  # upwind first derivative
    I = sp.eye(m)
    return (sp.kron(I, D) + sp.kron(D, I) + peclet * (sp.kron(I, C) + 0.5 * sp.kron(C, I))).tocsc()


def random_nonsym(n, density, cplx, seed):
    r = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, random_state=r, format="csc")
    if cplx:
        B = sp.random(n, n, density=density, random_state=r, format="csc")
        A = A + 1j * B
    A = A + sp.diags(np.full(n, 2.0)) * (1 + (1j if cplx else 0))
    return A.tocsc()


def store_matrix(name, A):
    A = sp.csc_matrix(A)
    A.sum_duplicates()
    A.sort_indices()
    S.array(name + "_indptr", A.indptr.astype(np.int64))
    S.array(name + "_indices", A.indices.astype(np.int32))
    S.array(name + "_data", A.data)
    return A


def cond_of(A):
    if A.shape[0] <= 1100:
        return float(np.linalg.cond(A.toarray()))
    lu = sla.splu(sp.csc_matrix(A))
    inv_norm = sla.onenormest(sla.LinearOperator(A.shape, matvec=lu.solve, rmatvec=lambda x: lu.solve(x, "T")))
    return float(sla.norm(A, 1) * inv_norm)


def rtol_for(cond, dt):
    return float(min(1e-2, max(1e-12, 100.0 * cond * EPS[dt])))


S.group("matrices")
generated = {
    "poisson": store_matrix("poisson", poisson2d(12)),
    "poisson4": store_matrix("poisson4", poisson2d(4)),
    "convdiff": store_matrix("convdiff", convdiff2d(10)),
    "rand_real": store_matrix("rand_real", random_nonsym(60, 0.08, False, 1)),
    "rand_cplx": store_matrix("rand_cplx", random_nonsym(40, 0.1, True, 2)),
    "rand_small": store_matrix("rand_small", random_nonsym(24, 0.15, False, 3)),
}
bundled = {}
for name in ["west0479", "orsirr_1", "young1c", "bcsstk16"]:
    M = sp.csc_matrix(sio.mmread(S.data(name + ".mtx")))
    M.sum_duplicates()
    M.sort_indices()
    bundled[name] = M


def matrix(name):
    return generated[name] if name in generated else bundled[name]


conds = {name: cond_of(matrix(name)) for name in list(generated) + list(bundled)}


def is_cplx(dt):
    return dt.startswith("complex")


def rhs(n, k, dt, seed=None):
    """The right-hand sides the tests rebuild: b[i, j] = cos(0.37 (i + 1) + 1.3 j) (+ 1j sin(0.21 (i + 1)
    - 0.7 j) for complex dtypes), computed in float64, then cast."""
    i = np.arange(n, dtype=np.float64)[:, None] + 1.0
    j = np.arange(1 if k is None else k, dtype=np.float64)[None, :]
    b = np.cos(0.37 * i + 1.3 * j)
    if is_cplx(dt):
        b = b + 1j * np.sin(0.21 * i - 0.7 * j)
    b = b.astype(dt)
    return b[:, 0].copy() if k is None else b


# ---------------------------------------------------------------------------------------------
# spsolve, dense right-hand sides
S.group("spsolve")
spsolve_plan = [
    ("poisson", ["float32", "float64"], ["csc", "csr", "coo"]),
    ("convdiff", ["float32", "float64", "complex128"], ["csc", "csr"]),
    ("rand_real", ["float64"], ["csc", "csr", "dia", "bsr"]),
    ("rand_cplx", ["complex64", "complex128"], ["csc", "csr"]),
    ("west0479", ["float64"], ["csc", "csr"]),
    ("orsirr_1", ["float64"], ["csc", "csr"]),
    ("young1c", ["complex128"], ["csc", "csr"]),
    ("bcsstk16", ["float64"], ["csc"]),
]
seed = 100
for name, dts, fmts in spsolve_plan:
    A0 = matrix(name)
    n = A0.shape[0]
    for dt in dts:
        A = A0.astype(dt)
        for fmt in fmts:
            for k in [None, 1, 3]:
                if name in bundled and k == 3 and (fmt != "csc" or name == "bcsstk16"):
                    continue
                seed += 1
                b = rhs(n, k, dt, seed)
                for permc in [None] + (["NATURAL", "MMD_AT_PLUS_A"] if (fmt == "csc" and k is None and dt == "float64" and name != "bcsstk16") else []):
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        x = sla.spsolve(A.asformat(fmt), b, permc_spec=permc)
                    cname = f"spsolve_{name}_{dt}_{fmt}_{'v' if k is None else k}_{permc or 'default'}"
                    S.case(cname, "spsolve", rtol=rtol_for(conds[name], dt), matrix=name, dtype=dt, format=fmt,
                           k=k, x=S.array(cname + "_x", x), permc_spec=permc,
                           x_dtype=str(x.dtype), x_shape=list(x.shape),
                           warnings=sorted({type(m.message).__name__ if not isinstance(m.message, Warning) else m.category.__name__ for m in w}))

# dtype promotion: float32 A with float64 b, int64 A with float32 b, real A with complex b
for name, adt, bdt in [("poisson", "float32", "float64"), ("poisson", "int64", "float32"), ("convdiff", "float64", "complex128")]:
    A = matrix(name)
    if adt == "int64":
        A = sp.csc_matrix(np.round(A.toarray()).astype(np.int64))
    else:
        A = A.astype(adt)
    b = rhs(A.shape[0], None, bdt, 7)
    x = sla.spsolve(A, b)
    cname = f"spsolve_promote_{name}_{adt}_{bdt}"
    S.case(cname, "spsolve_promote", rtol=rtol_for(conds[name], str(x.dtype)), matrix=name, a_dtype=adt,
           b_dtype=bdt, x=S.array(cname + "_x", x), x_dtype=str(x.dtype))

# singular matrices: MatrixRankWarning and nan
for cname, dense in [("singular_numeric", [[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0]]),
                     ("singular_empty_col", [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
                     ("singular_empty_row", [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])]:
    A = sp.csc_matrix(np.array(dense))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        x = sla.spsolve(A, np.ones(3))
    assert np.isnan(x).all()
    S.case("spsolve_" + cname, "spsolve_singular", dense=S.array(cname + "_dense", np.array(dense)),
           warnings=[m.category.__name__ for m in w])
    try:
        sla.splu(A)
        raise AssertionError("splu of a singular matrix")
    except RuntimeError as e:
        S.case("splu_" + cname, "splu_singular", error="runtime_error", dense=cname + "_dense", message=str(e))
    if cname != "singular_numeric":
        try:
            sla.spilu(A)
            raise AssertionError("spilu of a singular matrix")
        except RuntimeError as e:
            S.case("spilu_" + cname, "spilu_singular", error="runtime_error", dense=cname + "_dense",
                   message=str(e))

# sparse right-hand sides (and inv)
S.group("spsolve_sparse")
for name, fmt, bfmt in [("poisson", "csc", "csc"), ("convdiff", "csr", "csc"), ("rand_cplx", "csc", "csr"),
                        ("rand_real", "csr", "coo")]:
    A = matrix(name).asformat(fmt)
    n = A.shape[0]
    B = sp.random(n, 4, density=0.05, random_state=np.random.default_rng(5), format=bfmt)
    B = B + sp.csc_matrix((np.ones(1), ([0], [3])), shape=(n, 4))  # no empty column
    B = B.asformat(bfmt)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        X = sla.spsolve(A, B)
    cname = f"spsolve_sparse_{name}_{fmt}_{bfmt}"
    Bc = sp.coo_matrix(B)
    S.case(cname, "spsolve_sparse", rtol=rtol_for(conds[name], str(X.dtype)), matrix=name, format=fmt,
           b_format=bfmt, b_row=S.array(cname + "_brow", Bc.row.astype(np.int64)),
           b_col=S.array(cname + "_bcol", Bc.col.astype(np.int64)), b_data=S.array(cname + "_bdata", Bc.data),
           x=S.array(cname + "_x", X.toarray()), x_format=X.format, x_dtype=str(X.dtype),
           warnings=[m.category.__name__ + ": " + str(m.message) for m in w])

for name, fmt in [("poisson", "csc"), ("rand_cplx", "csr"), ("convdiff", "coo")]:
    if name == "poisson":
        name = "poisson4"  # 16 x 16
    A = matrix(name).asformat(fmt)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        Ai = sla.inv(A)
    cname = f"inv_{name}_{fmt}"
    S.case(cname, "inv", rtol=rtol_for(conds[name], str(Ai.dtype)), matrix=name, format=fmt,
           x=S.array(cname + "_x", Ai.toarray()), x_format=Ai.format, x_dtype=str(Ai.dtype),
           warnings=[m.category.__name__ for m in w])

# ---------------------------------------------------------------------------------------------
# splu / spilu
S.group("factor")


def store_factor(cname, lu, with_factors):
    p = {"perm_r": S.array(cname + "_perm_r", lu.perm_r.astype(np.int32)),
         "perm_c": S.array(cname + "_perm_c", lu.perm_c.astype(np.int32)), "nnz": int(lu.nnz)}
    if with_factors:
        for tag, F in [("L", lu.L), ("U", lu.U)]:
            F = sp.csc_matrix(F).sorted_indices()
            p[tag + "_indptr"] = S.array(f"{cname}_{tag}_indptr", F.indptr.astype(np.int64))
            p[tag + "_indices"] = S.array(f"{cname}_{tag}_indices", F.indices.astype(np.int32))
            p[tag + "_data"] = S.array(f"{cname}_{tag}_data", F.data)
    return p


factor_plan = [
    # name, dtype, with L/U, orderings
    ("west0479", "float64", True, ["COLAMD", "NATURAL", "MMD_AT_PLUS_A"]),
    ("orsirr_1", "float64", False, ["COLAMD"]),
    ("young1c", "complex128", False, ["COLAMD"]),
    ("poisson", "float64", True, ["COLAMD", "NATURAL"]),
    ("poisson", "float32", False, ["COLAMD"]),
    ("convdiff", "float64", True, ["COLAMD", "MMD_ATA"]),
    ("rand_real", "float64", True, ["COLAMD"]),
    ("rand_cplx", "complex128", True, ["COLAMD"]),
    ("rand_cplx", "complex64", True, ["COLAMD"]),
]
for name, dt, with_factors, orders in factor_plan:
    A = matrix(name).astype(dt)
    n = A.shape[0]
    for ilu in [False, True]:
        for order in orders:
            kw = {"permc_spec": order}
            fn = "spilu" if ilu else "splu"
            cname = f"{fn}_{name}_{dt}_{order}"
            try:
                lu = (sla.spilu if ilu else sla.splu)(A, **kw)
            except RuntimeError as e:  # SuperLU's ILU meets a zero pivot column (west0479)
                S.case(cname, fn, error="runtime_error", message=str(e), matrix=name, dtype=dt, permc_spec=order)
                continue
            p = store_factor(cname, lu, with_factors and (name != "west0479" or order == "COLAMD"))
            b = rhs(n, None, dt, 11)
            B = rhs(n, 2, dt, 12)
            big = n > 500
            for trans in (["N", "H"] if big else ["N", "T", "H"]):
                p["x_" + trans] = S.array(f"{cname}_x{trans}", lu.solve(b, trans))
            if not big:
                p["X_N"] = S.array(cname + "_XN", lu.solve(B))
            # A solve with the factors is as sensitive as cond(L) cond(U), not cond(A). spilu of west0479
            # (COLAMD) leaves a pivot of -1.9e-18: cond(U) = 1.7e25, so no digit of x is reproducible in
            # float64 (scipy 1.18.1: two triangular solves with lu.L / lu.U agree to 1e-13 with each
            # other and differ from lu.solve by 1.39 relative). Such cases check the solves by their
            # componentwise backward error with SciPy's factors (stored, compared in the test) instead.
            if ilu and "L_indptr" in p:
                cf = np.linalg.cond(lu.L.toarray()) * np.linalg.cond(lu.U.toarray())
                if not np.isfinite(cf) or 100.0 * cf * EPS[dt] >= 1.0:
                    p["solve_check"] = "backward"
            S.case(cname, fn, rtol=rtol_for(conds[name], dt), matrix=name, dtype=dt, permc_spec=order,
                   with_factors=with_factors, **p)

# options: thresholds, relax / panel size, ILU drop rules and tolerances
opt_plan = [
    ("splu", {"diag_pivot_thresh": 0.1}),
    ("splu", {"diag_pivot_thresh": 0.0, "permc_spec": "MMD_AT_PLUS_A"}),
    ("splu", {"relax": 4, "panel_size": 8}),
    ("splu", {"options": {"SymmetricMode": True}, "permc_spec": "MMD_AT_PLUS_A", "diag_pivot_thresh": 0.01}),
    ("spilu", {"drop_tol": 1e-2}),
    ("spilu", {"drop_tol": 1e-3, "fill_factor": 5}),
    ("spilu", {"drop_rule": "basic"}),
    ("spilu", {"drop_rule": "basic,area", "drop_tol": 1e-2}),
    ("spilu", {"drop_rule": "dynamic", "drop_tol": 1e-2}),
    ("spilu", {"options": {"ILU_MILU": "SMILU_2"}}),
    ("spilu", {"options": {"ILU_Norm": "ONE_NORM", "ILU_FillTol": 1e-3}}),
]
for name in ["rand_real", "convdiff"]:
    A = matrix(name)
    for i, (fn, kw) in enumerate(opt_plan):
        cname = f"{fn}_options_{name}_{i}"
        try:
            lu = (sla.spilu if fn == "spilu" else sla.splu)(A, **kw)
        except RuntimeError as e:
            S.case(cname, fn + "_options", error="runtime_error", message=str(e), matrix=name, kwargs=kw)
            continue
        p = store_factor(cname, lu, name == "convdiff" and i in (0, 2, 4, 9))
        b = rhs(A.shape[0], None, "float64", 13)
        p["x_N"] = S.array(cname + "_xN", lu.solve(b))
        S.case(cname, fn + "_options", rtol=rtol_for(conds[name], "float64") if fn == "splu" else 1e-6,
               matrix=name, kwargs=kw, **p)

# factorized
for name, dt in [("convdiff", "float64"), ("rand_cplx", "complex128")]:
    A = matrix(name).astype(dt)
    b = rhs(A.shape[0], None, dt, 21)
    x = sla.factorized(A)(b)
    cname = f"factorized_{name}_{dt}"
    S.case(cname, "factorized", rtol=rtol_for(conds[name], dt), matrix=name, dtype=dt, x=S.array(cname + "_x", x))

# ---------------------------------------------------------------------------------------------
# spsolve_triangular, is_sptriangular, spbandwidth
S.group("triangular")
for name in ["poisson", "convdiff", "rand_real", "rand_cplx", "west0479"]:
    A0 = matrix(name)
    for lower in [True, False]:
        T = sp.tril(A0) if lower else sp.triu(A0)
        T = T + sp.diags(np.full(A0.shape[0], 4.0))  # a well-conditioned triangle
        T = sp.csc_matrix(T)
        tname = f"tri_{name}_{'L' if lower else 'U'}"
        S.array(tname + "_indptr", T.indptr.astype(np.int64))
        S.array(tname + "_indices", T.indices.astype(np.int32))
        S.array(tname + "_data", T.data)
        # unit_diagonal ignores the stored diagonal, so T's 4.0 does not make the unit triangle well
        # conditioned: convdiff's off-diagonals (about -1/h^2 - Pe/h = -301) make SciPy's own solution
        # grow to 5.3e48 (lower) / 1.2e42 (upper) in float64 and overflow to nan / inf in float32
        # (scipy 1.18.1: spsolve_triangular(tri_convdiff_L as float32 CSR, b, unit_diagonal=True) has 10
        # nan), a reference no relative error can be taken against. The unit cases solve a triangle of
        # the same pattern with the off-diagonals scaled so that every row's off-diagonal sum of
        # magnitudes is at most 1/2: its unit triangle is diagonally dominant, |x| <= 2 max|b|.
        off = sp.csc_matrix(T - sp.diags(T.diagonal()))
        rowsum = np.asarray(abs(off).sum(axis=1)).ravel()
        Tu = sp.csc_matrix(off * (0.5 / max(1.0, rowsum.max())) + sp.diags(T.diagonal()))
        Tu.sort_indices()
        assert np.array_equal(Tu.indptr, T.indptr) and np.array_equal(Tu.indices, T.indices)
        S.array(tname + "_unit_indptr", Tu.indptr.astype(np.int64))
        S.array(tname + "_unit_indices", Tu.indices.astype(np.int32))
        S.array(tname + "_unit_data", Tu.data)
        dt = "complex128" if name == "rand_cplx" else "float64"
        for unit in [False, True]:
            Tsrc, tsrc = (Tu, tname + "_unit") if unit else (T, tname)
            for fmt in ["csr", "csc", "coo"]:
                for k in [None, 3]:
                    if (fmt != "csr" or name == "west0479") and k is not None:
                        continue
                    for dtt in ([dt, "float32"] if dt == "float64" and fmt == "csr" and k is None else [dt]):
                        Tm = Tsrc.astype(dtt).asformat(fmt)
                        b = rhs(T.shape[0], k, dtt)
                        with warnings.catch_warnings(record=True) as w:
                            warnings.simplefilter("always")
                            x = sla.spsolve_triangular(Tm, b, lower=lower, unit_diagonal=unit)
                        cname = f"{tname}_{'unit' if unit else 'diag'}_{fmt}_{'v' if k is None else k}_{dtt}"
                        S.case(cname, "spsolve_triangular", rtol=(1e-4 if dtt == "float32" else 1e-10), lower=lower,
                               unit_diagonal=unit, format=fmt, dtype=dtt, t=tsrc, k=k,
                               x=S.array(cname + "_x", x), warnings=[m.category.__name__ for m in w])

# zero on the diagonal: LinAlgError
Z = sp.csr_matrix(np.array([[1.0, 0.0], [1.0, 0.0]]))
try:
    sla.spsolve_triangular(Z, np.ones(2))
    raise AssertionError
except np.linalg.LinAlgError as e:
    S.case("tri_zero_diag", "spsolve_triangular_error", error="lin_alg_error", message=str(e),
           dense=S.array("tri_zero_diag_dense", Z.toarray()))

struct_plan = [
    ("lower", np.tril(np.arange(1, 26, dtype=float).reshape(5, 5))),
    ("upper", np.triu(np.arange(1, 26, dtype=float).reshape(5, 5))),
    ("diag", np.diag(np.arange(1, 6, dtype=float))),
    ("full", np.arange(1, 26, dtype=float).reshape(5, 5)),
    ("band", np.triu(np.tril(np.ones((6, 6)), 1), -2)),
    ("rect", np.triu(np.ones((4, 7)), 3)),
    ("rect_tall", np.tril(np.ones((7, 4)), -1)),
]
for sname, D in struct_plan:
    for fmt in ["csr", "csc", "coo", "dia", "bsr"]:
        M = sp.csr_matrix(D).asformat(fmt)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            tri = sla.is_sptriangular(M)
            bw = sla.spbandwidth(M)
        S.case(f"struct_{sname}_{fmt}", "structure", dense=S.array(f"struct_{sname}_{fmt}", D) if fmt == "csr" else f"struct_{sname}_csr",
               format=fmt, lower=bool(tri[0]), upper=bool(tri[1]), below=int(bw[0]), above=int(bw[1]),
               warnings=[m.category.__name__ for m in w])
for name in ["west0479", "convdiff"]:
    M = matrix(name)
    S.case(f"struct_{name}", "structure_matrix", matrix=name, lower=bool(sla.is_sptriangular(M)[0]),
           upper=bool(sla.is_sptriangular(M)[1]), below=int(sla.spbandwidth(M)[0]), above=int(sla.spbandwidth(M)[1]))

# ---------------------------------------------------------------------------------------------
# expm (Pade orders 3 .. 13 by the scale of A; upper triangular: Code Fragment 2.1)
S.group("expm")
expm_plan = [
    ("rand_small", 1e-3, "csr"), ("rand_small", 0.05, "csc"), ("rand_small", 0.4, "csr"), ("rand_small", 1.5, "csr"),
    ("rand_small", 8.0, "csc"), ("rand_cplx", 1.0, "csr"), ("poisson4", 0.5, "coo"), ("poisson4", 3.0, "csr"),
    ("rand_small_upper", 4.0, "csc"), ("rand_small_upper", 0.02, "csr"),
]
for name, scale, fmt in expm_plan:
    A0 = sp.triu(matrix("rand_small")) if name == "rand_small_upper" else matrix(name)
    A = (sp.csc_matrix(A0) * scale).asformat(fmt)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        X = sla.expm(A)
    cname = f"expm_{name}_{scale}_{fmt}"
    S.case(cname, "expm", rtol=1e-9, matrix=name, scale=scale, format=fmt, x=S.array(cname + "_x", X.toarray()),
           x_format=X.format, x_dtype=str(X.dtype),
           warnings=sorted({m.category.__name__ + ": " + str(m.message) for m in w
                            if "Changing the sparsity structure" not in str(m.message)}))
X1 = sla.expm(sp.csr_matrix(np.array([[2]])))
S.case("expm_1x1_int", "expm_small", value=float(X1.toarray()[0, 0]), x_format=X1.format, x_dtype=str(X1.dtype))

# ---------------------------------------------------------------------------------------------
# errors (the message SciPy gives, for the record)
def err(cname, fn, exc, call, **params):
    try:
        call()
    except Exception as e:  # noqa: BLE001
        assert type(e).__name__ in ("ValueError", "TypeError", "RuntimeError", "LinAlgError"), type(e)
        S.case(cname, fn, error=exc, message=str(e), **params)
        return
    raise AssertionError(cname)


R = sp.csc_matrix(np.ones((2, 3)))
E = sp.csc_matrix(np.eye(3))
err("err_spsolve_nonsquare", "error", "value_error", lambda: sla.spsolve(R, np.ones(2)), what="spsolve_nonsquare")
err("err_spsolve_mismatch", "error", "value_error", lambda: sla.spsolve(E, np.ones(2)), what="spsolve_mismatch")
err("err_spsolve_permc", "error", "value_error", lambda: sla.spsolve(E, np.ones(3), permc_spec="FOO"),
    what="spsolve_permc")
err("err_splu_nonsquare", "error", "value_error", lambda: sla.splu(R), what="splu_nonsquare")
err("err_splu_permc", "error", "value_error", lambda: sla.splu(E, permc_spec="bad"), what="splu_permc")
err("err_spilu_droprule", "error", "value_error", lambda: sla.spilu(E, drop_rule="bogus"), what="spilu_droprule")
lu3 = sla.splu(E)
err("err_solve_trans", "error", "value_error", lambda: lu3.solve(np.ones(3), trans="X"), what="solve_trans")
err("err_solve_size", "error", "value_error", lambda: lu3.solve(np.ones(4)), what="solve_size")
err("err_solve_cast", "error", "type_error", lambda: lu3.solve(np.ones(3, dtype=complex)), what="solve_cast")
err("err_solve_cast32", "error", "type_error", lambda: sla.splu(E.astype(np.float32)).solve(np.ones(3)),
    what="solve_cast32")
err("err_tri_nonsquare", "error", "value_error", lambda: sla.spsolve_triangular(sp.csr_matrix(np.ones((2, 3))), np.ones(2)),
    what="tri_nonsquare")
err("err_tri_mismatch", "error", "value_error", lambda: sla.spsolve_triangular(sp.csr_matrix(np.eye(3)), np.ones(2)),
    what="tri_mismatch")
err("err_expm_nonsquare", "error", "value_error", lambda: sla.expm(R), what="expm_nonsquare")
err("err_bandwidth_empty", "error", "value_error", lambda: sla.spbandwidth(sp.csr_matrix((3, 3))),
    what="bandwidth_empty")
S.case("empty_is_sptriangular", "empty_structure", lower=True, upper=True)

S.write()
