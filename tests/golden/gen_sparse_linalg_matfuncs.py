"""Reference data for cusci::sparse::linalg's matrix functions (expm_multiply, onenormest,
funm_multiply_krylov) and LaplacianNd, from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_matfuncs/.

Matrices are stored as CSR arrays <m>_data, <m>_indices (int32), <m>_indptr (int32) with parameter
`shape`; parameter `matrix` names the prefix. Real matrices come from examples/data (scaled as each
case says), the others are generated: Poisson (5-point, Dirichlet) and upwind convection-diffusion
on small grids.

Cases (func, parameters, expected):
  expm_multiply   matrix, B (array), form ("csr" or "operator": the matrix wrapped as a
                  LinearOperator, traceA given), start/stop/num/endpoint (optional), traceA
                  (optional, [re, im]); x (SciPy's result), m_star, s, matvecs (products A B in the
                  series, counted by wrapping SciPy's cores), status (-1 single time, else SciPy's
                  interval status), exact_norm (whether the 1-norm SciPy used is exact: CSR input).
  onenormest      matrix, t, itmax; est_scipy (SciPy's estimate, np.random seeded), exact (the true
                  1-norm), always_exact (SciPy returned the true norm for 8 different seeds), and for
                  compute_v/compute_w cases the flags.
  funm_multiply_krylov  matrix, b, assume_a, t, f_atol, f_rtol (atol, rtol), restart_every_m,
                  max_restarts, f
                  ("expm"); y (SciPy's result with f = scipy.linalg.expm).
  laplacian       grid_shape, boundary_conditions, dtype; dense (toarray()), sparse_dense
                  (tosparse().toarray()), x / y (matvec of a float64 [N] and an [N, 2] block),
                  eigenvalues (all), eigenvalues_m / m, eigenvectors_m (SciPy's) and order_stable
                  (SciPy's ordering equals the stable argsort, so columns are comparable one to one);
                  op_dense (matmat(eye(N)): the operator whose eigenpairs eigenvalues()/eigenvectors()
                  are; it differs from toarray() for periodic grids with an axis of length 1).
Errors: error = the cusci exception (SciPy's exception kind).
"""
import warnings

import numpy as np
import scipy.io as sio
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
import scipy.sparse.linalg._expm_multiply as em

from golden import Suite, tol

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_matfuncs")
rng = s.rng(20261203)
stored = {}


def store(name, A):
    """Stores CSR A's arrays once under name (a name always means the same matrix)."""
    A = sp.csr_matrix(A)
    A.sort_indices()
    if name in stored:
        B = stored[name]
        if B.shape != A.shape or B.dtype != A.dtype or abs(B - A).sum() != 0:
            raise SystemExit(f"matrix name {name!r} reused for another matrix")
        return name
    s.csr(name, A)
    stored[name] = A
    return name


def poisson2d(nx, ny, dtype=np.float64):
    """-Laplacian, 5-point, Dirichlet (positive definite)."""
    Tx = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(nx, nx))
    Ty = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(ny, ny))
    return (sp.kron(sp.eye(ny), Tx) + sp.kron(Ty, sp.eye(nx))).tocsr().astype(dtype)


def convdiff2d(nx, ny, peclet, dtype=np.float64):
    """Upwind convection-diffusion (non-symmetric)."""
    h = 1.0 / (nx + 1)
    Tx = sp.diags([-1 - peclet * h, 2 + peclet * h, -1], [-1, 0, 1], shape=(nx, nx))
    Ty = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(ny, ny))
    return (sp.kron(sp.eye(ny), Tx) + sp.kron(Ty, sp.eye(nx))).tocsr().astype(dtype)


def real_matrix(name):
    A = sio.mmread(s.data(name + ".mtx"))
    return sp.csr_matrix(A)


def norm1(A):
    return abs(A).sum(axis=0).max()


# ------------------------------------------------------------------------------------------------
# expm_multiply, with the series' products counted and m_star, s recorded.

class Counter:
    def __init__(self, A):
        self.A = A
        self.n = 0
        self.shape = A.shape
        self.dtype = A.dtype

    def dot(self, x):
        self.n += 1
        return self.A.dot(x)


record = {"matvecs": 0, "frag": None, "status": -1}
_orig = {k: getattr(em, k) for k in ("_expm_multiply_simple_core", "_expm_multiply_interval_core_1",
                                      "_expm_multiply_interval_core_2", "_fragment_3_1")}


def _counting(fn):
    def f(A, *args, **kw):
        c = Counter(A)
        r = fn(c, *args, **kw)
        record["matvecs"] += c.n
        return r
    return f


def _frag(*args, **kw):
    r = _orig["_fragment_3_1"](*args, **kw)
    record["frag"] = r
    return r


em._expm_multiply_simple_core = _counting(_orig["_expm_multiply_simple_core"])
em._expm_multiply_interval_core_1 = _counting(_orig["_expm_multiply_interval_core_1"])
em._expm_multiply_interval_core_2 = _counting(_orig["_expm_multiply_interval_core_2"])
em._fragment_3_1 = _frag


def run_expm(A, B, form, traceA=None, **kw):
    record.update(matvecs=0, frag=None, status=-1)
    np.random.seed(7)
    if form == "csr":
        op = A
    elif form == "laplacian":
        op = spla.LaplacianNd(A[0], boundary_conditions=A[1], dtype=np.float64)
        A = op.tosparse().astype(np.float64)
    else:
        op = spla.aslinearoperator(A)
    X = spla.expm_multiply(op, B, traceA=traceA, **kw)
    frag = record["frag"]
    # The products of this expm_multiply call only: the status_only call below runs
    # _expm_multiply_simple_core for the action at start again (before it returns the status), and that
    # wrapped core would add its products to the count (2 s more for start = 0, m_star s or so otherwise).
    matvecs = record["matvecs"]
    if kw:
        args = {k: kw.get(k) for k in ("start", "stop", "num", "endpoint")}
        tr = traceA if traceA is not None else A.trace()
        np.random.seed(7)
        record["status"] = em._expm_multiply_interval(op, B, status_only=True, traceA=tr, **args)
    m_star, s_ = frag if frag is not None else (0, 1)
    return X, m_star, s_, matvecs, record["status"]


def expm_case(name, mat, A, B, form="csr", traceA=None, rtol=None, **kw):
    X, m_star, s_, mv, st = run_expm(A, B, form, traceA=traceA, **kw)
    extra = {}
    if form == "laplacian":
        extra = dict(grid_shape=list(A[0]), boundary_conditions=A[1])
        A = spla.LaplacianNd(A[0], boundary_conditions=A[1], dtype=np.float64).tosparse().astype(np.float64)
    store(mat, A)
    r, a = tol(X.dtype, scale=np.abs(X).max(), rtol32=2e-4, rtol64=1e-9)
    if rtol is not None:
        r, a = rtol, rtol * max(1.0, np.abs(X).max())
    params = dict(matrix=mat, shape=A.shape, B=s.array(name + "_B", B), form=form, x=s.array(name + "_x", X),
                  m_star=int(m_star), s=int(s_), matvecs=int(mv), status=int(st), exact_norm=form == "csr",
                  traceA=traceA)
    params.update(kw)
    params.update(extra)
    s.case(name, func="expm_multiply", rtol=r, atol=a, **params)


s.group("expm")
P = poisson2d(8, 8)
expm_case("expm_poisson_small", "poisson8", -0.25 * P, rng.standard_normal(64))          # condition (3.13) holds
expm_case("expm_poisson_big", "poisson8x", -6.0 * P, rng.standard_normal(64))            # powers estimated
expm_case("expm_poisson_block", "poisson8", -0.25 * P, rng.standard_normal((64, 3)))
C = convdiff2d(10, 9, 30.0)
expm_case("expm_convdiff", "convdiff", -0.5 * C, rng.standard_normal(90))
expm_case("expm_convdiff_f32", "convdiff32", (-0.5 * C).astype(np.float32),
          rng.standard_normal(90).astype(np.float32))
W = real_matrix("west0479")
W = W / norm1(W) * 3.0
expm_case("expm_west0479", "west0479", W, rng.standard_normal(479))
O = real_matrix("orsirr_1")
O = O / norm1(O) * 40.0
expm_case("expm_orsirr_1", "orsirr_1", O, rng.standard_normal(1030))
Y = real_matrix("young1c")
Y = Y / norm1(Y) * 2.0
expm_case("expm_young1c", "young1c", Y, (rng.standard_normal(841) + 1j * rng.standard_normal(841)))
bus = real_matrix("1138_bus")
bus = -(bus / norm1(bus)) * 5.0
expm_case("expm_1138_bus_block", "bus1138", bus, rng.standard_normal((1138, 2)))
# zero matrix: m_star = 0
Z = sp.csr_matrix((16, 16))
expm_case("expm_zero", "zero16", Z, rng.standard_normal(16))
# operator form (traceA given)
expm_case("expm_operator", "poisson8", -0.25 * P, rng.standard_normal(64), form="operator",
          traceA=float((-0.25 * P).trace()))
# time points: status 0 (q <= s), 1 (q % s == 0), 2 (otherwise)
expm_case("expm_interval_0", "poisson8x", -6.0 * P, rng.standard_normal(64), start=0.0, stop=1.0, num=3,
          endpoint=True)
expm_case("expm_interval_small", "poisson8", -0.25 * P, rng.standard_normal(64), start=0.0, stop=1.0, num=3,
          endpoint=True)
# LaplacianNd as the operator (traceA given; SciPy estimates the 1-norms with onenormest)
Lop = spla.LaplacianNd((8, 8), boundary_conditions="dirichlet", dtype=np.float64)
expm_case("expm_laplacian_op", "lap8x8", ((8, 8), "dirichlet"), rng.standard_normal(64), form="laplacian",
          traceA=float(Lop.tosparse().trace()))
expm_case("expm_interval_1", "poisson8x", -6.0 * P, rng.standard_normal(64), start=0.0, stop=1.0, num=41,
          endpoint=True)
expm_case("expm_interval_2", "poisson8x", -6.0 * P, rng.standard_normal(64), start=0.5, stop=2.0, num=37,
          endpoint=False)
expm_case("expm_interval_block", "convdiff", -0.5 * C, rng.standard_normal((90, 2)), start=-1.0, stop=1.0,
          num=5)
A_bad = sp.csr_matrix(np.ones((3, 4)))
store("rect34", A_bad)
s.case("expm_err_square", func="expm_multiply", error="value_error", matrix="rect34", shape=(3, 4),
       B=s.array("expm_err_square_B", np.ones(4)), form="csr")
s.case("expm_err_shape", func="expm_multiply", error="value_error", matrix="poisson8", shape=(64, 64),
       B=s.array("expm_err_shape_B", np.ones(63)), form="csr")
s.case("expm_err_ndim", func="expm_multiply", error="value_error", matrix="poisson8", shape=(64, 64),
       B=s.array("expm_err_ndim_B", np.ones((64, 2, 2))), form="csr")
s.case("expm_err_points", func="expm_multiply", error="value_error", matrix="poisson8", shape=(64, 64),
       B=s.array("expm_err_points_B", np.ones(64)), form="csr", start=0.0, stop=1.0, num=1)
for name, B, kw in (("expm_err_ndim", np.ones((64, 2, 2)), {}), ("expm_err_points", np.ones(64),
                                                                 dict(start=0.0, stop=1.0, num=1))):
    try:
        spla.expm_multiply(-0.25 * P, B, **kw)
        raise SystemExit(name + ": SciPy did not raise")
    except ValueError:
        pass

# ------------------------------------------------------------------------------------------------
# onenormest

s.group("onenormest")


def onenorm_case(name, mat, A, t=2, itmax=5, **kw):
    store(mat, A)
    exact = float(norm1(A)) if A.shape[0] == A.shape[1] else 0.0
    ests = []
    for seed in range(8):
        np.random.seed(seed)
        ests.append(float(spla.onenormest(A, t=t, itmax=itmax)))
    always = all(abs(e - exact) <= 1e-12 * max(exact, 1.0) for e in ests)
    s.case(name, func="onenormest", rtol=1e-12, atol=1e-12 * max(exact, 1.0), matrix=mat, shape=A.shape, t=t,
           itmax=itmax, est_scipy=ests[0], exact=exact, always_exact=always, **kw)


onenorm_case("onenorm_poisson", "poisson8_raw", P)
onenorm_case("onenorm_convdiff", "convdiff_raw", C)
onenorm_case("onenorm_convdiff_t3", "convdiff_raw", C, t=3, itmax=4)
onenorm_case("onenorm_west0479", "west0479", W, compute_v=True, compute_w=True)
onenorm_case("onenorm_orsirr_1", "orsirr_1", O)
onenorm_case("onenorm_young1c", "young1c", Y)
onenorm_case("onenorm_bus", "bus1138", bus)
D2 = sp.csr_matrix(np.array([[1.0, -7.0], [3.0, 2.0]]))
onenorm_case("onenorm_explicit", "dense2", D2, compute_v=True, compute_w=True)  # t >= n: exact
R = sp.random(40, 40, density=0.2, random_state=np.random.RandomState(3), format="csr")
R.data = R.data - 0.5
onenorm_case("onenorm_random", "rand40", R)
s.case("onenorm_err_square", func="onenormest", error="value_error", matrix="rect34", shape=(3, 4), t=2, itmax=5)
s.case("onenorm_err_t", func="onenormest", error="value_error", matrix="poisson8_raw", shape=(64, 64), t=0, itmax=5)
s.case("onenorm_err_itmax", func="onenormest", error="value_error", matrix="poisson8_raw", shape=(64, 64), t=2,
       itmax=1)
for t_, it_ in ((0, 5), (2, 1)):
    try:
        spla.onenormest(P, t=t_, itmax=it_)
        raise SystemExit("onenormest: SciPy did not raise")
    except ValueError:
        pass

# ------------------------------------------------------------------------------------------------
# funm_multiply_krylov (f = scipy.linalg.expm)

s.group("funm")


def funm_case(name, mat, A, b, error=None, **kw):
    store(mat, A)
    params = dict(matrix=mat, shape=A.shape, b=s.array(name + "_b", b), f="expm")
    params.update({("f_" + k if k in ("rtol", "atol") else k): v for k, v in kw.items()})
    if error:
        s.case(name, func="funm_multiply_krylov", error=error, **params)
        return
    y = spla.funm_multiply_krylov(sla.expm, A, b, **kw)
    r, a = tol(y.dtype, scale=np.abs(y).max(), rtol32=2e-4, rtol64=1e-9)
    s.case(name, func="funm_multiply_krylov", rtol=r, atol=a, y=s.array(name + "_y", y), **params)


funm_case("funm_poisson_her", "poisson8_f", -0.05 * P, rng.standard_normal(64), assume_a="hermitian")
funm_case("funm_poisson_gen", "poisson8_f", -0.05 * P, rng.standard_normal(64), assume_a="general", t=2.0)
funm_case("funm_convdiff_restart", "convdiff_f", -0.1 * C, rng.standard_normal(90), restart_every_m=6,
          max_restarts=12, rtol=1e-10)
funm_case("funm_convdiff_atol", "convdiff_f", -0.1 * C, rng.standard_normal(90), restart_every_m=5, atol=1e-3,
          rtol=0.0)
funm_case("funm_young1c", "young1c", Y, rng.standard_normal(841) + 1j * rng.standard_normal(841))
funm_case("funm_west_f32", "west32", W.astype(np.float32), rng.standard_normal(479).astype(np.float32))
funm_case("funm_her_short", "poisson8_f", -0.05 * P, rng.standard_normal(64), assume_a="her", restart_every_m=4,
          max_restarts=3)
funm_case("funm_err_assume", "poisson8_raw", P, np.ones(64), error="value_error", assume_a="symmetric")
funm_case("funm_err_b2d", "poisson8_raw", P, np.ones((64, 1)), error="value_error")
funm_case("funm_err_m", "poisson8_raw", P, np.ones(64), error="value_error", restart_every_m=0)
funm_case("funm_err_restarts", "poisson8_raw", P, np.ones(64), error="value_error", max_restarts=0)
funm_case("funm_err_atol", "poisson8_raw", P, np.ones(64), error="value_error", atol=-1.0)
for kw, b in ((dict(assume_a="symmetric"), np.ones(64)), ({}, np.ones((64, 1))), (dict(restart_every_m=0), np.ones(64)),
              (dict(max_restarts=0), np.ones(64)), (dict(atol=-1.0), np.ones(64))):
    try:
        spla.funm_multiply_krylov(sla.expm, P, b, **kw)
        raise SystemExit(f"funm_multiply_krylov {kw}: SciPy did not raise")
    except ValueError:
        pass
zb = np.zeros(64)
s.case("funm_zero_b", func="funm_multiply_krylov", rtol=0, atol=0, matrix="poisson8_raw", shape=(64, 64),
       b=s.array("funm_zero_b_b", zb), f="expm", y=s.array("funm_zero_b_y", spla.funm_multiply_krylov(sla.expm, P, zb)))

# ------------------------------------------------------------------------------------------------
# LaplacianNd

s.group("laplacian")


def stable_order(L, m):
    """The stable argsort of SciPy's eigenvalue grid (as _eigenvalue_ordering, kind='stable')."""
    grid_shape = L.grid_shape
    if m is None:
        indices = np.indices(grid_shape)
        Leig = np.zeros(grid_shape)
    else:
        gmin = min(grid_shape, tuple(np.ones_like(grid_shape) * m))
        indices = np.indices(gmin)
        Leig = np.zeros(gmin)
    for j, n in zip(indices, grid_shape):
        if L.boundary_conditions == 'dirichlet':
            Leig += -4 * np.sin(np.pi * (j + 1) / (2 * (n + 1))) ** 2
        elif L.boundary_conditions == 'neumann':
            Leig += -4 * np.sin(np.pi * j / (2 * n)) ** 2
        else:
            Leig += -4 * np.sin(np.pi * np.floor((j + 1) / 2) / n) ** 2
    ind = np.argsort(Leig.ravel(), kind="stable")
    if m is not None:
        ind = ind[-m:]
    return ind


for k, grid in enumerate( ((6,), (4, 5), (3, 4, 2), (1, 3), (2, 3), (5, 2), (7, 1))):
    for bc in ("dirichlet", "neumann", "periodic"):
        for dt in ((np.int8, np.float64) if k % 2 == 0 else (np.float32, np.int32)):
            L = spla.LaplacianNd(grid, boundary_conditions=bc, dtype=dt)
            N = int(np.prod(grid))
            name = f"lap_{'x'.join(map(str, grid))}_{bc}_{np.dtype(dt).name}"
            x1 = rng.standard_normal(N)
            x2 = rng.standard_normal((N, 2))
            m = 3
            _, ind_s = L._eigenvalue_ordering(m)
            same = bool(np.array_equal(ind_s, stable_order(L, m)))
            s.case(name, func="laplacian", rtol=1e-12, atol=1e-12, grid_shape=list(grid), boundary_conditions=bc,
                   dtype=np.dtype(dt).name, dense=s.array(name + "_dense", L.toarray()),
                   op_dense=s.array(name + "_opdense", L.matmat(np.eye(N))),
                   sparse_dense=s.array(name + "_sparse", L.tosparse().toarray()),
                   x1=s.array(name + "_x1", x1), y1=s.array(name + "_y1", L.matvec(x1)),
                   x2=s.array(name + "_x2", x2), y2=s.array(name + "_y2", L.matmat(x2)),
                   eigenvalues=s.array(name + "_ev", L.eigenvalues()), m=m,
                   eigenvalues_m=s.array(name + "_evm", L.eigenvalues(m)),
                   eigenvectors_m=s.array(name + "_evecm", L.eigenvectors(m)), order_stable=same,
                   eigenvectors_all=s.array(name + "_evec", L.eigenvectors()),
                   order_stable_all=bool(np.array_equal(L._eigenvalue_ordering(None)[1], stable_order(L, None))))
s.case("lap_err_bc", func="laplacian", error="value_error", grid_shape=[3, 3], boundary_conditions="robin",
       dtype="int8")
try:
    spla.LaplacianNd((3, 3), boundary_conditions="robin")
    raise SystemExit("LaplacianNd: SciPy did not raise")
except ValueError:
    pass

s.write()
