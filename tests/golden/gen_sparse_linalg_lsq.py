"""Reference data for cusci::sparse::linalg's least-squares solvers (lsqr, lsmr), from SciPy 1.18.1
(format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_lsq/.

Every matrix is stored as the CSR arrays handed to SciPy, <g>_data, <g>_indices, <g>_indptr (int32),
with the parameter `shape`; parameter `matrix` names the prefix. Right-hand sides and starting guesses
are arrays named by `b` and `x0` (null: none); `b_2d`: the test passes b as [m, 1].

Cases (func "lsqr" / "lsmr"): parameters damp, opt_atol, opt_btol (the solver's atol, btol: the
case's own atol is golden.py's), conlim, iter_lim (lsqr) / maxiter (lsmr) (null: SciPy's default),
calc_var; expected: x (array), istop, itn, and SciPy's scalars (lsqr: r1norm, r2norm, anorm, acond,
arnorm, xnorm, var (array, with calc_var); lsmr: normr, normar, norma, conda, normx), x_dtype,
var_dtype (lsqr).

Tolerances. A Krylov iteration amplifies rounding differences, so no other implementation (cusci sums
its products in another order) reproduces SciPy's last digits, and on ill-conditioned problems neither
its iteration count. Each case is therefore solved again by SciPy with b perturbed at rounding level
and A (seeded perturbations of relative size 4 eps of the problem's precision) and its tolerances are
the spread SciPy itself shows (twelve runs: b perturbed, A's values perturbed, both, A's again, four
with the entries of each row of A and A^H summed in another, seeded order, and four whose products
carry seeded errors within the probabilistic rounding-error bound of a dot product):
  itn_tol    max(2, 2 * max |itn - itn_p|)   (the brief's "within 1-2" where SciPy is stable);
  istops     the istop codes SciPy returned over the runs (any of them is accepted);
  x_rtol     max(floor, 10 * max ||x - x_p|| / ||x||), floor 1e-8 (float64) / 1e-4 (float32);
  tol_<q>    for each scalar q: max(20 * max |q - q_p|, floor * |q|, 1e-300) (absolute; floor 1e-6,
             1e-5 for arnorm/normar/acond/conda; single precision 1e-3 and 1e-2).
The estimates (||A||, cond(A), ||r||, ||A^H r||) are recurrences over every iteration, and once the
bidiagonalization has lost orthogonality to a converged singular vector (random matrices with a
dominant singular value do so within 20 iterations) they depend on rounding more than x does: on the
H200 cusci's estimates differed from SciPy's by up to 10.2 times the ensemble's spread (lsmr on
`square`, 200 iterations: ||A|| 0.18 apart), and well-conditioned `tall` runs by 5e-6 (cond) and
1.2e-9 (x) relative. Hence the factor 20 for the scalars and the float64 floors.
When the iteration count differs from SciPy's (within itn_tol) the result is another iterate, so the
looser x_rtol_itn and tol_itn_<q> apply: the largest differences between SciPy's result and SciPy's
own iterates itn - itn_tol .. itn + itn_tol (runs with that iteration limit), doubled.
var_rtol / var_rtol_itn (lsqr with calc_var): the same two measures for var.
Errors: error = the cusci exception of SciPy's exception (TypeError -> type_error, ValueError ->
value_error), checked by calling SciPy.
"""
import warnings

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, lsmr, lsqr

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_lsq")
rng = s.rng(20261203)
stored = set()
M = {}


def store_matrix(name, A):
    A = sp.csr_matrix(A)
    A.sort_indices()
    if name not in stored:
        s.csr(name, A)
        stored.add(name)
    M[name] = A
    return name


def mmread(name):
    return sp.csr_matrix(scipy.io.mmread(s.data(name)))


def poisson2d(k):
    t = sp.diags([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])
    e = sp.eye(k)
    return (sp.kron(t, e) + sp.kron(e, t)).tocsr()


def convdiff2d(k, peclet=20.0):
    # -Laplace(u) + c . grad(u), first-order upwind convection: a nonsymmetric M-matrix.
    h = 1.0 / (k + 1)
    c = peclet * h
    t = sp.diags([-(1 + c) * np.ones(k - 1), (2 + c) * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])
    d = sp.diags([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], [-1, 0, 1])
    e = sp.eye(k)
    return (sp.kron(t, e) + sp.kron(e, d)).tocsr()


def rand_csr(m, n, density, dtype=np.float64, shift=0.5):
    A = sp.random(m, n, density=density, random_state=rng, format="csr") + shift * sp.eye(m, n)
    if np.dtype(dtype).kind == "c":
        A = A + 1j * sp.random(m, n, density=density, random_state=rng, format="csr")
    return sp.csr_matrix(A).astype(dtype)


def randvec(n, dtype):
    v = rng.standard_normal(n)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def precision_eps(dtype):
    dt = np.dtype(dtype)
    return float(np.finfo(dt).eps)


def perturbed(b, eps, k):
    r = np.random.default_rng(1000 + k)
    f = 1 + 4 * eps * r.choice([-1.0, 1.0], size=b.shape)
    if np.iscomplexobj(b):
        g = 1 + 4 * eps * r.choice([-1.0, 1.0], size=b.shape)
        return (b.real * f + 1j * b.imag * g).astype(b.dtype)
    return (b * f).astype(b.dtype) if b.dtype.kind == "f" else b * f


def reordered(A, seed):
    """A with each row's stored entries in a seeded random order (the same matrix, summed in
    another order by the CSR product)."""
    A = sp.csr_matrix(A)
    r = np.random.default_rng(seed)
    perm = np.arange(A.nnz)
    for i in range(A.shape[0]):
        lo, hi = A.indptr[i], A.indptr[i + 1]
        perm[lo:hi] = lo + r.permutation(hi - lo)
    return sp.csr_matrix((A.data[perm], A.indices[perm], A.indptr.copy()), shape=A.shape)


LSQR_Q = ["r1norm", "r2norm", "anorm", "acond", "arnorm", "xnorm"]
LSMR_Q = ["normr", "normar", "norma", "conda", "normx"]
counter = {"n": 0}


def noisy_operator(A, eps, seed):
    """A as a LinearOperator whose products y = A x carry a seeded error of at most
    sqrt(k_i) eps (|A| |x|)_i in row i (k_i: the row's entries), and likewise for A^H."""
    g = np.random.default_rng(seed)
    AH = sp.csr_matrix(A.conj().T)
    parts = []
    for M_ in (sp.csr_matrix(A), AH):
        parts.append((M_, abs(M_), eps * np.sqrt(np.diff(M_.indptr).astype(np.float64))))

    def product(which, y):
        M_, absM, bound = parts[which]
        out = M_ @ y
        scale = bound * (absM @ np.abs(y))
        noise = g.uniform(-1.0, 1.0, out.shape)
        if np.iscomplexobj(out):
            noise = (noise + 1j * g.uniform(-1.0, 1.0, out.shape)) / np.sqrt(2.0)
        return (out + scale * noise).astype(out.dtype)

    return LinearOperator(A.shape, matvec=lambda y: product(0, y), rmatvec=lambda y: product(1, y), dtype=A.dtype)


def add(func, matrix, b, x0=None, b_2d=False, name=None, **opts):
    """Solves with SciPy (and three perturbed right-hand sides) and stores the case."""
    A = M[matrix]
    counter["n"] += 1
    cname = name or f"{func}_{matrix}_{counter['n']}"
    solver = lsqr if func == "lsqr" else lsmr
    kw = dict(opts)
    if x0 is not None:
        kw["x0"] = x0.copy()

    def run(bb, AA=A):
        k2 = dict(kw)
        if "x0" in k2:
            k2["x0"] = k2["x0"].copy()
        return solver(AA, bb.copy(), **k2)

    ref = run(b)
    work = np.result_type(A.dtype, b.dtype if b.dtype.kind in "fc" else np.float64,
                          *([x0.dtype] if x0 is not None else []))
    eps = precision_eps(work)

    def perturbed_matrix(k):
        P = A.copy()
        P.data = perturbed(P.data, eps, 10 + k)
        return P

    pert = [run(perturbed(b, eps, 0)), run(b, perturbed_matrix(1)),
            run(perturbed(b, eps, 2), perturbed_matrix(3)), run(b, perturbed_matrix(4))]
    # The perturbations above keep SciPy's summation order, so they miss the rounding of another
    # order, which is what cusci's products differ by (its CSR kernels sum a row's products in lane
    # tree order, and A^H is its own CSR matrix). SciPy with each row's entries of A and of A^H
    # shuffled (same values, another order) shows that spread: e.g. lsmr on `wide` with x0 gives
    # ||A|| estimates 2e-5 apart (the perturbations above: under 1.5e-7), on `square` 0.19 and 0.36
    # apart after 200 iterations (above: 0.016 and 0.005). So four such runs join the spread.
    for k in range(4):
        S = reordered(A, 100 + k)
        SH = reordered(sp.csr_matrix(A.conj().T), 200 + k)
        op = LinearOperator(A.shape, matvec=lambda y, S=S: S @ y, rmatvec=lambda y, SH=SH: SH @ y,
                            dtype=A.dtype)
        pert.append(run(b, op))
    # Another machine rounds each product differently again (fused multiply-adds, tree sums): four
    # runs whose products carry a seeded error within the probabilistic rounding-error bound of a
    # k-term dot product, sqrt(k) eps (|A| |y|)_i (Higham and Mary, SIAM J. Sci. Comput. 41(5), 2019),
    # join the spread.
    for k in range(4):
        pert.append(run(b, noisy_operator(A, eps, 300 + k)))
    x = np.asarray(ref[0])
    xn = np.linalg.norm(x)
    x_floor = 1e-4 if work in (np.float32, np.complex64) else 1e-8
    dx = max([np.linalg.norm(np.asarray(p[0], dtype=np.complex128) - x) for p in pert] + [0.0])
    x_rtol = max(x_floor, 10 * dx / xn) if xn > 0 else x_floor
    itn_tol = max(2, 2 * max(abs(int(p[2]) - int(ref[2])) for p in pert))
    istops = sorted({int(ref[1])} | {int(p[1]) for p in pert})
    # The iterates SciPy reaches within itn_tol iterations of its own stop: what another iteration
    # count gives (iteration j of a run with the limit j is iterate j of the full run).
    limit_key = "iter_lim" if func == "lsqr" else "maxiter"
    near = []
    for j in range(max(1, int(ref[2]) - itn_tol), int(ref[2]) + itn_tol + 1):
        if j == int(ref[2]):
            continue
        k2 = dict(kw)
        k2[limit_key] = j if opts.get(limit_key) is None else min(j, opts[limit_key])
        if "x0" in k2:
            k2["x0"] = k2["x0"].copy()
        near.append(solver(A, b.copy(), **k2))
    dx_near = max([np.linalg.norm(np.asarray(p[0], dtype=np.complex128) - x) for p in near] + [0.0])
    x_rtol_itn = max(x_rtol, 2 * dx_near / xn) if xn > 0 else x_rtol
    names = LSQR_Q if func == "lsqr" else LSMR_Q
    params = {}
    for i, q in enumerate(names):
        v = float(ref[3 + i])
        spread = max(abs(float(p[3 + i]) - v) for p in pert)
        # Relative floors: 1e-6 (1e-3 single precision); 1e-5 (1e-2) for the estimates that are
        # differences of nearly equal quantities near convergence (||A^H r||, cond).
        sensitive = q in ("arnorm", "normar", "acond", "conda")
        single = work in (np.float32, np.complex64)
        qfloor = (1e-2 if sensitive else 1e-3) if single else (1e-5 if sensitive else 1e-6)
        params[q] = v
        params["tol_" + q] = max(20 * spread, qfloor * abs(v), 1e-300)
        spread_near = max([abs(float(p[3 + i]) - v) for p in near] + [0.0])
        params["tol_itn_" + q] = max(params["tol_" + q], 2 * spread_near)
    bname = s.array(cname + "_b", b)
    x0name = s.array(cname + "_x0", x0) if x0 is not None else None
    var = None
    var_rtol = var_rtol_itn = None
    if func == "lsqr" and opts.get("calc_var"):
        v0 = np.asarray(ref[9])
        var = s.array(cname + "_var", v0)
        vn = np.linalg.norm(v0)
        dv = max(np.linalg.norm(np.asarray(p[9]) - v0) for p in pert)
        dv_near = max([np.linalg.norm(np.asarray(p[9]) - v0) for p in near] + [0.0])
        var_rtol = max(x_floor, 10 * dv / vn) if vn > 0 else x_floor
        var_rtol_itn = max(var_rtol, 2 * dv_near / vn) if vn > 0 else x_floor
    s.case(cname, func, matrix=matrix, shape=list(A.shape), b=bname, x0=x0name, b_2d=b_2d,
           damp=opts.get("damp", 0.0), opt_atol=opts.get("atol", 1e-6), opt_btol=opts.get("btol", 1e-6),
           conlim=opts.get("conlim", 1e8), iter_lim=opts.get("iter_lim"), maxiter=opts.get("maxiter"),
           calc_var=bool(opts.get("calc_var", False)), x=s.array(cname + "_x", x), x_dtype=x.dtype.name,
           istop=int(ref[1]), istops=istops, itn=int(ref[2]), itn_tol=itn_tol, x_rtol=x_rtol,
           x_rtol_itn=x_rtol_itn, var=var, var_rtol=var_rtol,
           var_rtol_itn=var_rtol_itn,
           var_dtype=np.asarray(ref[9]).dtype.name if func == "lsqr" else None, **params)
    return cname


def add_both(matrix, b, x0=None, **opts):
    lsmr_opts = dict(opts)
    lsqr_opts = dict(opts)
    if "iter_lim" in opts:
        lsmr_opts["maxiter"] = lsmr_opts.pop("iter_lim")
    lsmr_opts.pop("calc_var", None)
    add("lsqr", matrix, b, x0, **lsqr_opts)
    add("lsmr", matrix, b, x0, **lsmr_opts)


def add_error(func, matrix, b, x0=None, name=None, **opts):
    """A case whose SciPy call raises; error = the matching cusci exception."""
    A = M[matrix]
    solver = lsqr if func == "lsqr" else lsmr
    kw = dict(opts)
    if x0 is not None:
        kw["x0"] = x0
    try:
        solver(A, b, **kw)
    except TypeError:
        err = "type_error"
    except ValueError:
        err = "value_error"
    else:
        raise AssertionError(f"{name}: SciPy did not raise")
    s.case(name, func, matrix=matrix, shape=list(A.shape), a_dtype=A.dtype.name, b=s.array(name + "_b", b),
           x0=s.array(name + "_x0", x0) if x0 is not None else None, error=err)


# ---- matrices -------------------------------------------------------------------------------------
store_matrix("tall", rand_csr(300, 100, 0.05))
store_matrix("wide", rand_csr(100, 300, 0.05))
store_matrix("square", rand_csr(200, 200, 0.04, shift=1.0))
store_matrix("poisson", poisson2d(12))
store_matrix("convdiff", convdiff2d(12))
store_matrix("tall_poisson", sp.vstack([poisson2d(10), 0.3 * rand_csr(60, 100, 0.05, shift=0.0)]).tocsr())
def col_scaled(A):
    """A with unit column norms (the diagonal column scaling commonly applied before LSQR)."""
    A = sp.csc_matrix(A)
    norms = np.sqrt(np.asarray(abs(A).power(2).sum(axis=0))).ravel()
    norms[norms == 0] = 1
    return sp.csr_matrix(A @ sp.diags(1 / norms))


store_matrix("lp_e226", mmread("lp_e226.mtx"))
store_matrix("west0479", mmread("west0479.mtx"))
store_matrix("lp_e226_s", col_scaled(M["lp_e226"]))
store_matrix("west0479_s", col_scaled(M["west0479"]))
store_matrix("young1c", mmread("young1c.mtx").astype(np.complex128))
store_matrix("tall_c", rand_csr(240, 90, 0.06, np.complex128))
store_matrix("tall32", M["tall"].astype(np.float32))
store_matrix("wide32", M["wide"].astype(np.float32))
store_matrix("poisson32", M["poisson"].astype(np.float32))
store_matrix("tall_c64", M["tall_c"].astype(np.complex64))
_rd = rand_csr(150, 40, 0.1).toarray()
_rd[:, 20:30] = _rd[:, 0:10]  # ten repeated columns: rank 30
store_matrix("rankdef", sp.csr_matrix(_rd))
store_matrix("identity", sp.eye(40, format="csr"))
store_matrix("diag", sp.diags(np.linspace(1.0, 4.0, 60)).tocsr())
store_matrix("embed", sp.csr_matrix(np.vstack([np.eye(3), np.zeros((2, 3))])))  # A^H b == 0 for b in e4, e5
store_matrix("empty_rows", sp.csr_matrix((5, 0)))

# ---- cases ----------------------------------------------------------------------------------------
s.group("solve")
# Least squares (incompatible b) and compatible systems, tall / wide / square, damped and not, x0.
for mat in ["tall", "wide", "square", "tall_poisson", "rankdef"]:
    A = M[mat]
    m, n = A.shape
    b = randvec(m, np.float64)
    add_both(mat, b)
    add_both(mat, b, damp=0.1)
    add_both(mat, b, damp=1.0)
    add_both(mat, b, x0=randvec(n, np.float64))
    add_both(mat, A @ randvec(n, np.float64))  # compatible: istop 1
add_both("tall", randvec(300, np.float64), atol=1e-10, btol=1e-10)
add_both("tall", randvec(300, np.float64), calc_var=True)
add_both("tall", randvec(300, np.float64), calc_var=True, damp=0.5)
add("lsqr", "tall", randvec(300, np.float64), b_2d=True, name="lsqr_tall_b2d")
add("lsmr", "tall", randvec(300, np.float64), b_2d=True, name="lsmr_tall_b2d")
add("lsqr", "tall", rng.integers(-5, 6, 300).astype(np.int64), name="lsqr_tall_int_b")
add("lsmr", "tall", rng.integers(-5, 6, 300).astype(np.int64), name="lsmr_tall_int_b")
# Poisson and convection-diffusion (square, SPD / nonsymmetric).
for mat in ["poisson", "convdiff"]:
    n = M[mat].shape[0]
    add_both(mat, randvec(n, np.float64))
    add_both(mat, randvec(n, np.float64), damp=0.05)
    add_both(mat, randvec(n, np.float64), atol=1e-8, btol=1e-8)
# The real matrices (condition numbers near 1e12 unscaled): short runs (istop 7) before rounding has
# grown, and with unit column norms to convergence (damped and not).
A = M["lp_e226"]
add_both("lp_e226", randvec(A.shape[0], np.float64), iter_lim=10)
add_both("lp_e226_s", randvec(A.shape[0], np.float64))
add_both("lp_e226_s", randvec(A.shape[0], np.float64), damp=0.1)
A = M["west0479"]
add_both("west0479", randvec(A.shape[0], np.float64), iter_lim=10)
add_both("west0479", randvec(A.shape[0], np.float64), conlim=1e3)  # istop 3
add_both("west0479_s", randvec(A.shape[0], np.float64), iter_lim=100)
add_both("west0479_s", randvec(A.shape[0], np.float64), damp=0.1)
# Complex.
A = M["young1c"]
add_both("young1c", randvec(A.shape[0], np.complex128), iter_lim=40)
add_both("young1c", randvec(A.shape[0], np.complex128), damp=50.0)
add_both("tall_c", randvec(240, np.complex128))
add_both("tall_c", randvec(240, np.complex128), damp=0.3)
add_both("tall_c", randvec(240, np.complex128), x0=randvec(90, np.complex128))
add_both("tall_c", M["tall_c"] @ randvec(90, np.complex128))
add("lsqr", "tall_c", randvec(240, np.complex128), calc_var=True, name="lsqr_tall_c_var")
add("lsqr", "tall", randvec(300, np.complex128), name="lsqr_tall_complex_b")  # real A, complex b
add("lsmr", "tall", randvec(300, np.complex128), name="lsmr_tall_complex_b")
add("lsqr", "tall", randvec(300, np.float64), x0=randvec(100, np.complex128), name="lsqr_tall_complex_x0")
add("lsmr", "tall", randvec(300, np.float64), x0=randvec(100, np.complex128), name="lsmr_tall_complex_x0")
# float32 / complex64 (x float64 / complex128, as SciPy).
for mat, mat64 in [("tall32", "tall"), ("wide32", "wide"), ("poisson32", "poisson")]:
    m, n = M[mat].shape
    add_both(mat, randvec(m, np.float32))
    add_both(mat, randvec(m, np.float32), damp=0.5)
add("lsqr", "tall32", randvec(300, np.float32), x0=randvec(100, np.float32), name="lsqr_tall32_x0_32")
add("lsmr", "tall32", randvec(300, np.float32), x0=randvec(100, np.float32), name="lsmr_tall32_x0_32")
add("lsqr", "tall32", randvec(300, np.float64), name="lsqr_tall32_b64")
add_both("tall_c64", randvec(240, np.complex64))
add_both("tall_c64", randvec(240, np.complex64), damp=0.3)
# Stopping codes and breakdowns.
add_both("identity", randvec(40, np.float64))                       # exact after one iteration
add_both("identity", randvec(40, np.float64), atol=0.0, btol=0.0)   # machine-precision tests
add_both("diag", randvec(60, np.float64))
add_both("tall", randvec(300, np.float64), iter_lim=5)              # istop 7
add_both("tall", randvec(300, np.float64), iter_lim=0)              # no iteration: istop 0
add_both("tall", np.zeros(300))                                      # b == 0: istop 0
add_both("tall", np.zeros(300), x0=randvec(100, np.float64))         # b == 0 with x0
add_both("embed", np.array([0.0, 0, 0, 1, 2]))                      # A^H b == 0: istop 0
add_both("embed", np.array([1.0, 2, 3, 4, 5]))                      # the least-squares part
add_both("square", randvec(200, np.float64), conlim=5.0)            # istop 3
add_both("empty_rows", np.ones(5))                                   # n == 0

# ---- errors ---------------------------------------------------------------------------------------
s.group("errors")
add_error("lsqr", "tall", np.ones(299), name="err_lsqr_b_short")
add_error("lsmr", "tall", np.ones(301), name="err_lsmr_b_long")
add_error("lsqr", "tall", np.ones(300), x0=np.ones(99), name="err_lsqr_x0_short")
add_error("lsmr", "tall", np.ones(300), x0=np.ones(101), name="err_lsmr_x0_long")
add_error("lsmr", "tall", np.ones(300, np.complex128), x0=np.ones(100), name="err_lsmr_real_x0_complex_b")
add_error("lsmr", "tall", np.ones(300), x0=np.ones(100, np.int64), name="err_lsmr_int_x0")
add_error("lsmr", "tall_c", np.ones(240), name="err_lsmr_complex_A_real_b")

s.write()
