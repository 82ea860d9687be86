"""References for cusci::distributed's Krylov solvers (cg, bicgstab, gmres) and their preconditioners,
from SciPy 1.18.1 (format and shared code: golden.py). Seeded; run at build time
(tests/golden/CMakeLists.txt) into <out>/distributed_solvers/.

Matrices (parameter `matrix`; `source` "gen": stored here as CSR arrays <m>_data (float64),
<m>_indices, <m>_indptr (int32) with `shape`; "mtx": the bundled file examples/data/<m>.mtx, which
the test reads itself):
  poisson2d   2-D Poisson, 5-point, 64 x 64 grid (n = 4096), SPD;
  poisson3d   3-D Poisson, 7-point, 16^3 grid (n = 4096), SPD;
  convdiff    2-D convection-diffusion, 48 x 48 grid (n = 2304), upwind first derivatives (Peclet 40),
              nonsymmetric;
  1138_bus    examples/data/1138_bus.mtx (n = 1138, SPD, condition 8.6e6: Jacobi cuts CG's
              iterations from about 2300 to about 900).
Each matrix has `cond`, its 2-norm condition number (eigsh for the SPD ones, the singular values of
the dense matrix for convdiff).

Cases (func = the solver: "cg", "bicgstab", "gmres"):
  matrix, source, shape, dtype (what A and b are cast to: float64, or float32), b (array name, float64),
  x0 (array name or absent), M ("none" or "jacobi": SciPy's diags(1 / A.diagonal())), solver_rtol,
  solver_atol, maxiter, restart (gmres; absent: SciPy's defaults); gmres runs with callback_type
  'pr_norm' (the distributed gmres's callback semantics: maxiter counts restart cycles).
  ilu: true where the test also runs the case with block_jacobi_ilu0 (no SciPy counterpart: SciPy's
  spilu is not ILU(0); there the test compares with the one-GPU solver and ilu0).
  Expected: info, callbacks (SciPy's callback count: cg/bicgstab iterations, gmres inner iterations),
  it_lo, it_hi (the least and the most callbacks of SciPy over the run and 8 runs with b perturbed by 4
  eps, relative, of the case's precision: the rounding spread of the method on the problem; different
  summation orders of the dot products, as the ranks' partial sums, move the count as much),
  xtol_same (10 times the largest relative change of SciPy's x over the perturbed runs, at least 1e-10
  (float64) / 1e-4 (float32): how far two solves that differ by rounding only may end apart; the test
  holds the distributed x to it against the one-GPU x where both took as many iterations), x_ref
  (spsolve(A, b) in float64, absent for b = 0), prnorm (gmres: the first 20 pr_norm values of the
  callback), resid (SciPy's relative true residual norm(b - A x) / norm(b)).
Errors: error = "value_error" for atol < 0 (SciPy's ValueError), one case per solver.
"""
import warnings
import zlib

import numpy as np
import scipy.io
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("distributed_solvers")
rng = s.rng(20261204)

FUNCS = {"cg": sla.cg, "bicgstab": sla.bicgstab, "gmres": sla.gmres}
MATS = {}
COND = {}


def lap1(k):
    return sp.diags([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])


def poisson2d(k):
    eye = sp.identity(k)
    return sp.kron(eye, lap1(k)) + sp.kron(lap1(k), eye)


def poisson3d(k):
    eye = sp.identity(k)
    L = lap1(k)
    return sp.kron(sp.kron(eye, eye), L) + sp.kron(sp.kron(eye, L), eye) + sp.kron(sp.kron(L, eye), eye)


def convdiff(k, peclet):
    h = 1.0 / (k + 1)
    d1 = sp.diags([-np.ones(k - 1), np.ones(k)], [-1, 0]) * (peclet * h)  # upwind first derivative
    eye = sp.identity(k)
    return poisson2d(k) + sp.kron(eye, d1) + 0.5 * sp.kron(d1, eye)


def spd_cond(A):
    lmax = sla.eigsh(A, k=1, which="LA", return_eigenvectors=False)[0]
    lmin = sla.eigsh(A, k=1, sigma=0, which="LM", return_eigenvectors=False)[0]
    return float(lmax / lmin)


def gen(name, A, spd):
    A = sp.csr_matrix(A, dtype=np.float64)
    A.sum_duplicates()
    A.sort_indices()
    s.csr(name, A)
    MATS[name] = ("gen", A)
    if spd:
        COND[name] = spd_cond(A)
    else:
        sv = scipy.linalg.svdvals(A.toarray())
        COND[name] = float(sv[0] / sv[-1])


def mtx(name):
    A = sp.csr_matrix(scipy.io.mmread(s.data(name + ".mtx")), dtype=np.float64)
    A.sum_duplicates()
    A.sort_indices()
    MATS[name] = ("mtx", A)
    COND[name] = spd_cond(A)


s.group("matrices")
gen("poisson2d", poisson2d(64), True)
gen("poisson3d", poisson3d(16), True)
gen("convdiff", convdiff(48, 40.0), False)
mtx("1138_bus")

s.group("vectors")
RHS = {}


def rhs(matrix, kind="rand"):
    key = (matrix, kind)
    if key not in RHS:
        n = MATS[matrix][1].shape[0]
        v = rng.standard_normal(n) if kind == "rand" else np.zeros(n)
        RHS[key] = (s.array(f"b_{matrix}_{kind}", v), v)
    return RHS[key]


def run(func, A, b, x0, M, opts):
    calls = []
    prn = []

    def cb(v):
        calls.append(1)
        if func == "gmres":
            prn.append(float(v))

    kw = dict(opts)
    if func == "gmres":
        kw["callback_type"] = "pr_norm"
    x, info = FUNCS[func](A, b, x0=x0, M=M, callback=cb, **kw)
    return x, int(info), len(calls), prn


def case(name, func, matrix, dtype="float64", b="rand", x0=None, M="none", ilu=False, **opts):
    src, A64 = MATS[matrix]
    A = A64.astype(dtype)
    n = A.shape[0]
    bname, b64 = rhs(matrix, b)
    bv = b64.astype(dtype)
    x0name, x0v = None, None
    if x0 is not None:
        x0v = (0.1 * rng.standard_normal(n)).astype(dtype)
        x0name = s.array(f"{name}_x0", x0v.astype(np.float64))
    Mm = sp.diags(1.0 / A.diagonal()).tocsr().astype(dtype) if M == "jacobi" else None
    x, info, calls, prn = run(func, A, bv, x0v, Mm, opts)
    its = [calls]
    xdiff = 0.0
    nb = np.linalg.norm(b64)
    if nb > 0:
        eps = np.finfo(np.dtype(dtype)).eps
        prng = np.random.default_rng(zlib.crc32(name.encode()))
        for _ in range(8):
            bp = (b64 * (1 + 4 * eps * prng.standard_normal(n))).astype(dtype)
            xp, _, cp, _ = run(func, A, bp, x0v, Mm, opts)
            its.append(cp)
            xdiff = max(xdiff, float(np.linalg.norm(xp - x) / max(np.linalg.norm(x), 1e-300)))
    ren = {"rtol": "solver_rtol", "atol": "solver_atol"}
    params = dict(matrix=matrix, source=src, shape=list(A.shape), dtype=dtype, b=bname, x0=x0name, M=M, ilu=ilu,
                  cond=COND[matrix], **{ren.get(k, k): v for k, v in opts.items()})
    expect = dict(info=info, callbacks=calls, it_lo=min(its), it_hi=max(its),
                  xtol_same=max(10 * xdiff, 1e-4 if np.dtype(dtype) == np.float32 else 1e-10))
    if nb > 0:
        expect["x_ref"] = s.array(f"{name}_xref", sla.spsolve(A64.tocsc(), b64))
        expect["resid"] = float(np.linalg.norm(b64 - A64 @ x.astype(np.float64)) / nb)
    if prn:
        expect["prnorm"] = s.array(f"{name}_prnorm", np.array(prn[:20]))
    s.case(name, func, **params, **expect)
    return name, info, calls, min(its), max(its)


s.group("cases")
report = []
# The main sweep: every problem, solver (cg only for the SPD matrices; on 1138_bus only cg: restarted
# GMRES(20) stalls there (SciPy ends with info = maxiter after 227,600 inner iterations), and BiCGSTAB's
# count is chaotic (SciPy's spreads over 2689..3627 iterations without M, 994..2373 with Jacobi, when b
# moves by 4 eps), so no count could be compared), M none and Jacobi; the M-none case also runs with
# block_jacobi_ilu0 in the test.
for mat in ["poisson2d", "poisson3d", "convdiff", "1138_bus"]:
    for func in ["cg", "bicgstab", "gmres"]:
        if func == "cg" and mat == "convdiff":
            continue
        if func != "cg" and mat == "1138_bus":
            continue
        for M in ["none", "jacobi"]:
            report.append(case(f"{func}_{mat}_{M}", func, mat, M=M, ilu=(M == "none")))
# float32: SciPy computes in float32 (cusci's dot products accumulate in float64).
report.append(case("cg_poisson2d_none_f32", "cg", "poisson2d", dtype="float32", ilu=True))
report.append(case("cg_poisson2d_jacobi_f32", "cg", "poisson2d", dtype="float32", M="jacobi"))
# Options.
report.append(case("cg_x0", "cg", "poisson2d", x0=True, atol=1e-6))
report.append(case("bicgstab_x0", "bicgstab", "convdiff", x0=True))
report.append(case("gmres_x0", "gmres", "convdiff", x0=True, atol=1e-6))
report.append(case("cg_rtol8", "cg", "poisson3d", rtol=1e-8))
report.append(case("cg_atol", "cg", "poisson3d", rtol=0.0, atol=1e-3))
report.append(case("bicgstab_rtol8", "bicgstab", "poisson3d", rtol=1e-8))
report.append(case("gmres_restart40", "gmres", "convdiff", restart=40))
report.append(case("gmres_restart5_jacobi", "gmres", "poisson3d", restart=5, M="jacobi"))
# Iteration limits (info = maxiter; gmres's maxiter counts restart cycles).
report.append(case("cg_maxiter", "cg", "poisson2d", maxiter=10))
report.append(case("bicgstab_maxiter", "bicgstab", "convdiff", maxiter=7))
report.append(case("gmres_maxiter", "gmres", "convdiff", restart=10, maxiter=2))
report.append(case("cg_maxiter0", "cg", "poisson2d", maxiter=0))
# b = 0: x = 0, info 0, no iteration.
for func in ["cg", "bicgstab", "gmres"]:
    report.append(case(f"{func}_b0", func, "poisson3d", b="zero"))

# atol < 0: SciPy's ValueError.
for func in ["cg", "bicgstab", "gmres"]:
    A = MATS["poisson3d"][1]
    bname, b64 = rhs("poisson3d")
    try:
        FUNCS[func](A, b64, atol=-1.0)
        raise AssertionError(func)
    except ValueError:
        pass
    s.case(f"{func}_err_atol", func, error="value_error", matrix="poisson3d", source="gen", shape=list(A.shape),
           dtype="float64", b=bname, M="none", solver_atol=-1.0)

s.write()
for name, info, calls, lo, hi in report:
    if hi - lo > 0:
        print(f"  {name}: SciPy's callbacks {calls}, over perturbed b {lo}..{hi}")
