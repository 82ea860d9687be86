"""Reference data for cusci::sparse::linalg's long-recurrence Krylov solvers (gmres, lgmres, gcrotmk,
minres), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_gmres/.

Matrices (parameter `matrix`): the bundled Matrix Market files, read by the test itself from
examples/data (`source` "mtx": orsirr_1, west0479, young1c, 1138_bus, bcsstk16), or generated here and
stored as CSR arrays <name>_data / _indices / _indptr with `shape` (`source` "gen": poisson (2-D
5-point Laplacian), convdiff (2-D upwind convection-diffusion, nonsymmetric), cplx (complex
non-Hermitian: convdiff + i * diag), herm (complex Hermitian), diag3 (three distinct eigenvalues:
the Krylov space is exhausted after three steps)). `dtype` is what A and b are cast to before the
solve (float32, float64, complex64, complex128).

Cases (func = the solver):
  b: right-hand side array; x0: starting guess (optional); solver_rtol, solver_atol (SciPy's rtol,
  atol), maxiter and the solver's own
  options (restart, callback_type; inner_m, outer_k, store_outer_Av, prepend_outer_v; m, k,
  truncate, discard_C; shift, check); M: "jacobi" (diags(1 / A.diagonal())) or absent.
  Expected: x (SciPy's solution), xtol_same (SciPy's change of x when b moves by 10 eps, times
  100, with a floor: the tolerance when cusci takes SciPy's number of iterations), info, callbacks (how many times SciPy called the callback: with
  callback_type 'pr_norm' / 'legacy' gmres's inner iterations, lgmres / gcrotmk outer iterations
  begun, minres's steps), prnorm (gmres: the callback's pr_norm values), xtol (how far cusci's x may
  be from SciPy's, relative: 10 times SciPy's own relative error against the direct solution
  spsolve(A, b), plus a floor for the dtype; absent when SciPy did not converge), resid_ok (SciPy's
  x meets norm(b - A x) <= max(rtol norm(b), atol)).
Errors: error = the cusci exception for SciPy's ValueError.
"""
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_gmres")
rng = s.rng(20261203)
MATS = {}


def mtx(name):
    A = sp.csr_matrix(scipy.io.mmread(s.data(name + ".mtx")))
    A.sum_duplicates()
    MATS[name] = ("mtx", A)


def gen(name, A):
    A = sp.csr_matrix(A)
    A.sum_duplicates()
    A.sort_indices()
    s.csr(name, A)
    MATS[name] = ("gen", A)


def lap1(k):
    return sp.diags([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])


def poisson(k):
    I = sp.identity(k)
    return sp.kron(I, lap1(k)) + sp.kron(lap1(k), I)


def convdiff(k, peclet):
    h = 1.0 / (k + 1)
    d1 = sp.diags([-np.ones(k - 1), np.ones(k)], [-1, 0]) * (peclet * h)  # upwind first derivative
    I = sp.identity(k)
    return poisson(k) + sp.kron(I, d1) + 0.5 * sp.kron(d1, I)


for m in ["orsirr_1", "west0479", "young1c", "1138_bus", "bcsstk16"]:
    mtx(m)
gen("poisson", poisson(20))
gen("convdiff", convdiff(18, 40.0))
cd = convdiff(12, 10.0)
gen("cplx", cd + 1j * sp.diags(rng.uniform(0.5, 1.5, cd.shape[0])))
P = poisson(14).astype(np.complex128)
Hm = sp.triu(sp.random(196, 196, density=0.02, random_state=np.random.RandomState(7)), 1) * (1 + 1j)
gen("herm", P + Hm + Hm.conj().T + 8 * sp.identity(196))
gen("diag3", sp.diags(np.repeat([1.0, 2.0, 5.0], [10, 12, 9])))

SOLVERS = {"gmres": sla.gmres, "lgmres": sla.lgmres, "gcrotmk": sla.gcrotmk, "minres": sla.minres}
vectors = {}


def rhs(matrix, dtype, kind="rand"):
    key = (matrix, np.dtype(dtype).name, kind)
    if key not in vectors:
        A = MATS[matrix][1]
        n = A.shape[0]
        if kind == "rand":
            v = rng.standard_normal(n)
            if np.dtype(dtype).kind == "c":
                v = v + 1j * rng.standard_normal(n)
        elif kind == "zero":
            v = np.zeros(n)
        else:
            raise ValueError(kind)
        name = f"b_{matrix}_{np.dtype(dtype).name}_{kind}"
        s.array(name, v.astype(dtype))
        vectors[key] = name
    return vectors[key]


def case(name, func, matrix, dtype, b="rand", x0=None, M=None, **opts):
    src, A = MATS[matrix]
    A = A.astype(dtype)
    bname = rhs(matrix, dtype, b)
    bv = s._groups[s._where[bname]][bname]
    kw = dict(opts)
    x0name = None
    if x0 is not None:
        if x0 == "exact":
            xv = sla.spsolve(A.astype(np.result_type(dtype, np.float64)).tocsc(), bv.astype(np.result_type(dtype, np.float64)))
        else:
            xv = rng.standard_normal(A.shape[0])
        xv = np.asarray(xv).astype(dtype)
        x0name = s.array(f"{name}_x0", xv)
        kw["x0"] = xv.copy()
    if M == "jacobi":
        kw["M"] = sp.diags(1 / A.diagonal())
    calls = []
    prn = []
    if func == "gmres":
        cbt = opts.get("callback_type")
        if cbt in ("pr_norm", "legacy", None):
            def cb(v):
                calls.append(1)
                prn.append(float(v))
        else:
            def cb(v):
                calls.append(1)
    else:
        def cb(v):
            calls.append(1)
    if func == "gcrotmk" and "CU" in opts:
        kw.pop("CU")
    x, info = SOLVERS[func](A, bv, callback=cb, **kw)
    # rtol / atol go under solver_rtol / solver_atol (Suite.case's own rtol / atol are comparison
    # tolerances).
    ren = {"rtol": "solver_rtol", "atol": "solver_atol"}
    params = dict(matrix=matrix, source=src, shape=list(A.shape), dtype=np.dtype(dtype).name, b=bname,
                  x0=x0name, M=M, **{ren.get(k, k): v for k, v in opts.items() if k not in ("CU",)})
    expect = dict(x=s.array(f"{name}_x", np.asarray(x)), info=int(info), callbacks=len(calls))
    if func == "gmres" and prn:
        expect["prnorm"] = s.array(f"{name}_prnorm", np.array(prn))
    rtol = opts.get("rtol", 1e-5)
    atol = opts.get("atol", 0.0)
    hi = np.result_type(dtype, np.float64)
    Ah = A.astype(hi)
    r = np.linalg.norm(bv.astype(hi) - Ah @ x.astype(hi))
    expect["resid_ok"] = bool(r <= max(rtol * np.linalg.norm(bv.astype(hi)), atol))
    single = np.dtype(dtype) in (np.float32, np.complex64)
    if info == 0 and np.linalg.norm(bv) > 0:
        shift = opts.get("shift", 0.0)
        As = (Ah - shift * sp.identity(A.shape[0])).tocsc()
        xe = sla.spsolve(As, bv.astype(hi))
        err = np.linalg.norm(x.astype(hi) - xe) / max(np.linalg.norm(xe), 1e-300)
        expect["xtol"] = float(10 * err + (1e-3 if single else 1e-10))
    # Rounding sensitivity: the same solve from b perturbed by 10 eps (relative). When cusci takes
    # SciPy's number of iterations its x may differ from SciPy's by about this much (xtol_same: 100
    # times the change, with a floor).
    if np.linalg.norm(bv) > 0:
        eps = np.finfo(np.dtype(dtype)).eps
        pert = rng.standard_normal(bv.shape) * np.linalg.norm(bv) / np.sqrt(bv.size) * 10 * eps
        kw2 = dict(kw)
        x2, _ = SOLVERS[func](A, (bv + pert).astype(dtype), callback=lambda v: None, **kw2)
        d = np.linalg.norm(x2.astype(hi) - x.astype(hi)) / max(np.linalg.norm(x.astype(hi)), 1e-300)
        expect["xtol_same"] = float(max(100 * d, 1e-3 if single else 1e-8))
    s.case(name, func, **params, **expect)
    return info, len(calls)


report = []
# ---- gmres
for dt in ["float64", "float32"]:
    report.append(case(f"gmres_orsirr_{dt}", "gmres", "orsirr_1", dt, callback_type="pr_norm", maxiter=10))
    report.append(case(f"gmres_orsirr_jac_{dt}", "gmres", "orsirr_1", dt, M="jacobi", callback_type="pr_norm",
                       maxiter=30 if dt == "float64" else 5))
    report.append(case(f"gmres_convdiff_{dt}", "gmres", "convdiff", dt, callback_type="pr_norm"))
    report.append(case(f"gmres_poisson_r40_{dt}", "gmres", "poisson", dt, restart=40, callback_type="pr_norm"))
report.append(case("gmres_west", "gmres", "west0479", "float64", restart=30, maxiter=4,
                   callback_type="pr_norm"))
report.append(case("gmres_young1c", "gmres", "young1c", "complex128", callback_type="pr_norm", maxiter=20))
report.append(case("gmres_young1c_c64", "gmres", "young1c", "complex64", callback_type="pr_norm", maxiter=10))
report.append(case("gmres_cplx", "gmres", "cplx", "complex128", callback_type="pr_norm", rtol=1e-8))
report.append(case("gmres_x0", "gmres", "convdiff", "float64", x0="rand", callback_type="pr_norm", atol=1e-6))
report.append(case("gmres_x0_exact", "gmres", "convdiff", "float64", x0="exact", callback_type="pr_norm"))
report.append(case("gmres_b0", "gmres", "poisson", "float64", b="zero", callback_type="pr_norm"))
report.append(case("gmres_breakdown", "gmres", "diag3", "float64", callback_type="pr_norm", rtol=1e-12))
report.append(case("gmres_legacy_maxiter", "gmres", "convdiff", "float64", callback_type="legacy", maxiter=7))
report.append(case("gmres_legacy", "gmres", "poisson", "float64", callback_type="legacy"))
report.append(case("gmres_cbx", "gmres", "convdiff", "float64", restart=10, callback_type="x"))
report.append(case("gmres_nonconv", "gmres", "convdiff", "float64", restart=5, maxiter=3, callback_type="pr_norm"))
report.append(case("gmres_tight", "gmres", "poisson", "float64", rtol=1e-10, restart=30, callback_type="pr_norm"))
# ---- lgmres
for dt in ["float64", "float32"]:
    report.append(case(f"lgmres_convdiff_{dt}", "lgmres", "convdiff", dt))
report.append(case("lgmres_orsirr_jac", "lgmres", "orsirr_1", "float64", M="jacobi"))
report.append(case("lgmres_young1c", "lgmres", "young1c", "complex128", maxiter=100))
report.append(case("lgmres_cplx", "lgmres", "cplx", "complex128", rtol=1e-8))
report.append(case("lgmres_prepend", "lgmres", "convdiff", "float64", inner_m=10, outer_k=2, prepend_outer_v=True))
report.append(case("lgmres_noAv", "lgmres", "convdiff", "float64", inner_m=10, store_outer_Av=False))
report.append(case("lgmres_x0", "lgmres", "poisson", "float64", x0="rand", atol=1e-7))
report.append(case("lgmres_nonconv", "lgmres", "convdiff", "float64", inner_m=5, maxiter=3))
report.append(case("lgmres_breakdown", "lgmres", "diag3", "float64", rtol=1e-12))
# ---- gcrotmk
for dt in ["float64", "float32"]:
    report.append(case(f"gcrotmk_convdiff_{dt}", "gcrotmk", "convdiff", dt))
report.append(case("gcrotmk_orsirr_jac", "gcrotmk", "orsirr_1", "float64", M="jacobi"))
report.append(case("gcrotmk_young1c", "gcrotmk", "young1c", "complex128", maxiter=100))
report.append(case("gcrotmk_cplx", "gcrotmk", "cplx", "complex128", rtol=1e-8))
report.append(case("gcrotmk_m10k4", "gcrotmk", "convdiff", "float64", m=10, k=4))
report.append(case("gcrotmk_smallest", "gcrotmk", "convdiff", "float64", m=4, k=3, truncate="smallest"))
report.append(case("gcrotmk_oldest_m4k3", "gcrotmk", "convdiff", "float64", m=4, k=3))
report.append(case("gcrotmk_discard", "gcrotmk", "convdiff", "float64", m=6, k=3, discard_C=True))
report.append(case("gcrotmk_x0", "gcrotmk", "poisson", "float64", x0="rand", atol=1e-7))
report.append(case("gcrotmk_nonconv", "gcrotmk", "convdiff", "float64", m=4, k=2, maxiter=3))
# ---- minres
for dt in ["float64", "float32"]:
    report.append(case(f"minres_poisson_{dt}", "minres", "poisson", dt))
    report.append(case(f"minres_1138_{dt}", "minres", "1138_bus", dt, M="jacobi"))
report.append(case("minres_poisson_shift", "minres", "poisson", "float64", shift=1.3))
report.append(case("minres_1138_shift", "minres", "1138_bus", "float64", shift=0.5, maxiter=3000))
report.append(case("minres_bcsstk16_jac", "minres", "bcsstk16", "float64", M="jacobi"))
report.append(case("minres_herm", "minres", "herm", "complex128", rtol=1e-8))
report.append(case("minres_x0", "minres", "poisson", "float64", x0="rand"))
report.append(case("minres_maxiter", "minres", "poisson", "float64", maxiter=15))
report.append(case("minres_check", "minres", "poisson", "float64", check=True))
report.append(case("minres_diag3", "minres", "diag3", "float64", rtol=1e-12))
report.append(case("minres_b0", "minres", "poisson", "float64", b="zero"))

# ---- errors SciPy raises (ValueError)
for func, opts in [("gmres", dict(atol=-1.0)), ("lgmres", dict(atol=-1.0)), ("gcrotmk", dict(atol=-1.0)),
                   ("gmres", dict(callback_type="y")), ("gcrotmk", dict(truncate="newest"))]:
    A = MATS["poisson"][1]
    bname = rhs("poisson", "float64")
    try:
        SOLVERS[func](A, s._groups[s._where[bname]][bname], **opts)
        raise AssertionError((func, opts))
    except ValueError:
        pass
    s.case(f"{func}_err_{'_'.join(map(str, opts))}", func, error="value_error", matrix="poisson", source="gen",
           shape=list(A.shape), dtype="float64", b=bname,
           **{{"rtol": "solver_rtol", "atol": "solver_atol"}.get(k, k): v for k, v in opts.items()})
_bn = rhs("convdiff", "float64")
try:
    sla.minres(MATS["convdiff"][1], s._groups[s._where[_bn]][_bn], check=True)
    raise AssertionError("minres check")
except ValueError:
    pass
s.case("minres_err_nonsym", "minres", error="value_error", matrix="convdiff", source="gen", shape=[324, 324],
       dtype="float64", b=_bn, check=True)

s.write()
