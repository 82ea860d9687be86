"""Reference data for cusci::sparse::linalg's eigensolvers (eigsh, svds), from SciPy 1.18.1 (format
and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_eigen/.

Matrices: generated ones are stored as CSR arrays <m>_data, <m>_indices, <m>_indptr (float64 or
complex128; the case's `dtype` says what the call receives); the bundled ones (bcsstk16, lp_e226,
west0479) are named by `file` and read by the test from examples/data with cusci::io::mmread.
Parameter `A` (and `M`) name the arrays' prefix or the file; `shape` the shape.

Cases:
  eigsh  A, [M], dtype, k, which, [sigma, mode, ncv, maxiter, return_eigenvectors, v0], expected w
         (SciPy's order), [v (eigenvectors [n, k]) when the eigenvalues are simple], nops (the number
         of products with OP SciPy's ARPACK made, counted through its LinearOperator), rtol (of w).
  svds   A, dtype, k, which, expected s (ascending), [u, vh when the values are simple], nops.
Errors: error = the cusci exception (SciPy's exception kind); runtime_error for ArpackNoConvergence
(cusci::sparse::linalg::arpack_no_convergence derives from cusci::runtime_error), with `nconv`.
"""
import os
import warnings

import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, eigsh, svds, ArpackNoConvergence

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_eigen")
rng = s.rng(20261203)
stored = set()


def store(name, A):
    A = sp.csr_matrix(A)
    if name not in stored:
        s.csr(name, A)
        stored.add(name)
    return name


def lap1d(n):
    return sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")


def lap2d(m):
    T = lap1d(m)
    I = sp.identity(m, format="csr")
    return (sp.kron(T, I) + sp.kron(I, T)).tocsr()


def convdiff_sym(m):
    """2-D Poisson plus a positive variable reaction term (symmetric)."""
    A = lap2d(m)
    x = np.linspace(0, 1, m * m)
    return (A + sp.diags(1.0 + np.sin(7 * x) ** 2)).tocsr()


def hermitian(n):
    A = lap1d(n).astype(complex)
    B = sp.diags([np.full(n - 1, 0.5j), np.full(n - 1, -0.5j)], [1, -1])
    return (A + B + sp.diags(np.linspace(0, 1, n))).tocsr()


def counting(A):
    """LinearOperator counting its products (SciPy's ARPACK OP count in mode 1)."""
    cnt = [0]

    def mv(x):
        cnt[0] += 1
        return A @ x
    return LinearOperator(A.shape, matvec=mv, dtype=A.dtype), cnt


def simple(w, tolr=1e-6):
    """Whether every eigenvalue is simple (to compare eigenvectors up to a phase)."""
    w = np.sort(np.asarray(w, dtype=float))
    scale = max(1.0, np.max(np.abs(w)))
    return len(w) < 2 or np.min(np.diff(w)) > tolr * scale


def rtol_of(dtype):
    return 2e-4 if dtype in ("float32", "complex64") else 1e-8


def eig_case(name, Aname, A, dtype, k, which="LM", file=None, M=None, Mname=None, vectors=True, nops_of=True,
             **kw):
    Ad = A.astype(dtype)
    Md = None if M is None else M.astype(dtype)
    if nops_of and M is None and kw.get("sigma") is None:
        op, cnt = counting(Ad)
        w = eigsh(op, k=k, which=which, return_eigenvectors=vectors, rng=0, **kw)
        nops = cnt[0]
    else:
        w = eigsh(Ad, k=k, M=Md, which=which, return_eigenvectors=vectors, rng=0, **kw)
        nops = -1
    params = dict(A=Aname, dtype=dtype, k=k, which=which, shape=list(A.shape), nops=nops,
                  return_eigenvectors=vectors)
    if file:
        params["file"] = file
    if Mname:
        params["M"] = Mname
    for key in ("sigma", "mode", "ncv", "maxiter"):
        if key in kw:
            params[key] = kw[key]
    if vectors:
        w, v = w
        params["w"] = s.array(name + "_w", w)
        if simple(w) and A.shape[0] <= 2000:
            params["v"] = s.array(name + "_v", v)
    else:
        params["w"] = s.array(name + "_w", w)
    s.case(name, "eigsh", rtol=rtol_of(dtype), **params)


# ---- matrices ------------------------------------------------------------------------------------
L1 = lap1d(200)
store("lap1d", L1)
# BE on a spectrum symmetric about its middle (the pure Laplacian) ties the two ends; a variable
# diagonal separates them.
L1v = (L1 + sp.diags(np.linspace(0, 1, 200) ** 2)).tocsr()
store("lap1dv", L1v)
L2 = lap2d(20)
store("lap2d", L2)
CD = convdiff_sym(16)
store("convdiff", CD)
H = hermitian(120)
store("herm", H)
Mmass = sp.diags(1.0 + np.linspace(0, 1, 200) ** 2, format="csr")
store("mass", Mmass)
bc = sp.csr_matrix(scipy.io.mmread(s.data("bcsstk16.mtx.gz")))
lp = sp.csr_matrix(scipy.io.mmread(s.data("lp_e226.mtx")))
we = sp.csr_matrix(scipy.io.mmread(s.data("west0479.mtx")))

# ---- standard problems, every which, both precisions ----------------------------------------------
for which in ("LM", "SM", "LA", "SA", "BE"):
    for dt in ("float64", "float32"):
        if which == "SM" and dt == "float32":
            continue  # ARPACK's SM on a Laplacian converges slowly in float32; float64 covers it
        if which == "BE":
            eig_case(f"lap1dv_{which}_{dt}", "lap1dv", L1v, dt, 5, which)
        else:
            eig_case(f"lap1d_{which}_{dt}", "lap1d", L1, dt, 5, which)
for which in ("LM", "SA"):
    eig_case(f"lap2d_{which}", "lap2d", L2, "float64", 6, which)
eig_case("convdiff_LA", "convdiff", CD, "float64", 4, "LA")
eig_case("convdiff_SA_ncv", "convdiff", CD, "float64", 4, "SA", ncv=12)
eig_case("lap1d_k1_LA", "lap1d", L1, "float64", 1, "LA")
# without eigenvectors: SciPy's (ARPACK's) order
for which in ("LM", "SM", "LA", "SA"):
    eig_case(f"lap1d_{which}_novec", "lap1d", L1, "float64", 4, which, vectors=False)
eig_case("lap1dv_BE_novec", "lap1dv", L1v, "float64", 4, "BE", vectors=False)
# real data: bcsstk16 (n = 4884)
eig_case("bcsstk16_LM", "bcsstk16", bc, "float64", 4, "LM", file="bcsstk16.mtx.gz")
eig_case("bcsstk16_LA_f32", "bcsstk16", bc, "float32", 3, "LA", file="bcsstk16.mtx.gz")

# ---- complex Hermitian (SciPy: eigs; cusci returns ascending) --------------------------------------
for which in ("LM", "LA", "SA"):
    for dt in ("complex128", "complex64"):
        eig_case(f"herm_{which}_{dt}", "herm", H, dt, 4, which)

# ---- shift-invert, buckling, Cayley ------------------------------------------------------------------
for mode in ("normal", "buckling", "cayley"):
    eig_case(f"lap1d_sigma_{mode}", "lap1d", L1, "float64", 4, "LM", sigma=0.5, mode=mode)
eig_case("lap1d_sigma_f32", "lap1d", L1, "float32", 3, "LM", sigma=1.01)
eig_case("lap1d_sigma_novec", "lap1d", L1, "float64", 4, "LM", sigma=0.5, vectors=False)
eig_case("herm_sigma", "herm", H, "complex128", 3, "LM", sigma=1.0)

# ---- generalized: M ------------------------------------------------------------------------------------
eig_case("lap1d_M_LA", "lap1d", L1, "float64", 4, "LA", M=Mmass, Mname="mass")
eig_case("lap1d_M_SA", "lap1d", L1, "float64", 4, "SA", M=Mmass, Mname="mass")
eig_case("lap1d_M_sigma", "lap1d", L1, "float64", 4, "LM", M=Mmass, Mname="mass", sigma=0.2)
eig_case("lap1d_M_cayley", "lap1d", L1, "float64", 3, "LM", M=Mmass, Mname="mass", sigma=0.2, mode="cayley")

# ---- no convergence: ArpackNoConvergence with the converged pairs ---------------------------------------
L400 = lap1d(400)
store("lap1d400", L400)
for mi in (1, 3):
    try:
        eigsh(L400, k=4, which="SA", maxiter=mi, rng=0)
        raise SystemExit("expected ArpackNoConvergence")
    except ArpackNoConvergence as e:
        s.case(f"noconv_{mi}", "eigsh", error="runtime_error", A="lap1d400", dtype="float64", k=4, which="SA",
               shape=[400, 400], maxiter=mi, nconv=len(e.eigenvalues), message=str(e))

# ---- argument errors (SciPy's exceptions) ---------------------------------------------------------------
def err(name, kind, **p):
    base = dict(A="lap1d", dtype="float64", shape=[200, 200], k=5, which="LM")
    base.update(p)
    s.case(name, "eigsh", error=kind, **base)


err("err_k0", "value_error", k=0)
err("err_k_n", "type_error", k=200)
err("err_which", "value_error", which="XX")
err("err_ncv_small", "value_error", ncv=5)
err("err_maxiter", "value_error", maxiter=0)
err("err_mode", "value_error", sigma=0.5, mode="bogus")
err("err_opinv_nosigma", "value_error", opinv=True)
err("err_minv_nom", "value_error", minv=True)
err("err_be_complex", "value_error", A="herm", dtype="complex128", shape=[120, 120], which="BE")
err("err_mode_complex", "value_error", A="herm", dtype="complex128", shape=[120, 120], sigma=0.5, mode="buckling")
err("err_v0_shape", "value_error", v0_len=199)
err("err_M_shape", "value_error", M="lap2d")


# ---- svds ----------------------------------------------------------------------------------------------
def svd_case(name, Aname, A, dtype, k, which="LM", file=None, **kw):
    Ad = sp.csr_matrix(A).astype(dtype)
    u, sv, vh = svds(Ad, k=k, which=which, rng=0, **kw)
    params = dict(A=Aname, dtype=dtype, k=k, which=which, shape=list(A.shape))
    if file:
        params["file"] = file
    params.update({key: kw[key] for key in ("ncv", "maxiter") if key in kw})
    params["s"] = s.array(name + "_s", sv)
    if simple(sv, 1e-5):
        params["u"] = s.array(name + "_u", u)
        params["vh"] = s.array(name + "_vh", vh)
    s.case(name, "svds", rtol=rtol_of(dtype) * 10, **params)


svd_case("lp_e226_LM", "lp_e226", lp, "float64", 5, "LM", file="lp_e226.mtx")
svd_case("west0479_LM", "west0479", we, "float64", 4, "LM", file="west0479.mtx")
svd_case("west0479_LM_f32", "west0479", we, "float32", 3, "LM", file="west0479.mtx")
R = sp.random(80, 50, density=0.2, random_state=rng, format="csr") + sp.eye(80, 50, format="csr")
store("rect", R)
svd_case("rect_SM", "rect", R, "float64", 3, "SM")
svd_case("rect_T_LM", "rectT", R.T.tocsr(), "float64", 4, "LM")
store("rectT", R.T.tocsr())
C = (sp.random(60, 40, density=0.25, random_state=rng) + 1j * sp.random(60, 40, density=0.25, random_state=rng)
     + sp.eye(60, 40)).tocsr()
store("crect", C)
svd_case("crect_LM", "crect", C, "complex128", 3, "LM")
s.case("svds_err_k", "svds", error="value_error", A="rect", dtype="float64", shape=[80, 50], k=50, which="LM")
s.case("svds_err_which", "svds", error="value_error", A="rect", dtype="float64", shape=[80, 50], k=3, which="LA")
s.case("svds_err_ncv", "svds", error="value_error", A="rect", dtype="float64", shape=[80, 50], k=3, which="LM",
       ncv=50)
s.case("svds_err_v0", "svds", error="value_error", A="rect", dtype="float64", shape=[80, 50], k=3, which="LM",
       v0_len=80)

s.write()
