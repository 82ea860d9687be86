"""Reference data for cusci::sparse::linalg's nonsymmetric short-recurrence Krylov solvers (bicg,
bicgstab, cgs, qmr, tfqmr), from SciPy 1.18.1 (format and shared code: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/sparse_linalg_nonsymmetric/.

Matrices (parameter `matrix` names the arrays <m>_data, <m>_indices (int32), <m>_indptr (int32), in
float64 or complex128; a case of another dtype converts the data, as SciPy's A.astype(dtype)):
  cd      2-D convection-diffusion, 20 x 20 grid (n = 400), central differences, wind (20, 10);
  cdc     the same plus 5i on the diagonal (complex128);
  orsirr  examples/data/orsirr_1.mtx (1030, nonsymmetric, oil reservoir);
  west    examples/data/west0479.mtx (479, nonsymmetric, badly conditioned: no method converges);
  young   examples/data/young1c.mtx (841, complex, acoustics);
  bd_*    tiny integer systems on which SciPy breaks down (found by search; the breakdown is exact in
          exact arithmetic, and SciPy's float32/float64/complex128 runs agree on it). Not every
          scalar is exact (bicgstab on bd_c: omega = 0.6): the breakdown's exact zero (e.g.
          p = (p - omega v) beta + r = [6, 0]) needs NumPy's rounding, each product and sum rounded
          on its own; a fused multiply-add leaves 1.1e-16 there and no breakdown.

Each case (func = the solver's name):
  matrix, dtype (the system's: float32, float64, complex64, complex128), b (array name, stored in
  float64/complex128; converted to dtype), b_shape ("n" or "n1": [n] or [n, 1]), x0 (array name or
  null), rtol_arg, atol_arg (the solver's rtol and atol; the case's own rtol/atol fields are unused),
  maxiter (null: the default),
  M ("none"; "jacobi": cusci's jacobi(A), SciPy's diags(1 / A.diagonal()); "diag_csr": the same
  diagonal as a csr_matrix <matrix>_dinv_* (a general operator for cusci); "zero": an all-zero CSR
  matrix; "perm": the CSR matrix <M>_ of a permutation-like matrix stored under parameter M_name),
  for qmr M1 / M2 with the same values (M2 "none" is the identity; SciPy's qmr needs both when one is
  given, so the generator passes the identity there);
  expected: x (SciPy's x, in the case dtype), info, iterations (SciPy's callback count);
  it_lo, it_hi: the iteration counts of SciPy on 8 runs with b perturbed by 4 eps (relative, of the
  case's precision) and the unperturbed run, min and max: the rounding spread of the method on this
  problem (cusci's float64 dot accumulation and fused multiply-adds perturb the iteration as much);
  xtol: the relative difference allowed between cusci's x and SciPy's: 10 times the largest
  difference between SciPy's x and the perturbed runs' x, at least 1e-11 (f64: other summation
  orders of the dot products) / 1e-4 (f32: cusci sums float32 dot products in float64); "inf" when
  that exceeds 1e-2 (x after a few iterations on west0479 is chaotic): info and iterations only;
  restol: the allowed relative true residual norm(b - A x) / norm(b) of cusci's x: 10 times the
  largest of SciPy's over the runs, at least the convergence threshold;
  steps: true for maxiter-limited runs compared after a few iterations (info = maxiter).
A run whose perturbed runs end with another info, or (converging runs) whose iteration counts
spread over more than max(3, 25 %), is left out (listed on stdout): SciPy's own answer is not
reproducible there (float32 CGS and TFQMR, BiCGSTAB on orsirr_1 with Jacobi, ...).
Breakdown cases: info < 0, x compared as above.
"""
import warnings
import zlib

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from golden import Suite

warnings.simplefilter("ignore")

s = Suite("sparse_linalg_nonsymmetric")
rng = s.rng(20261203)

FUNCS = {"bicg": sla.bicg, "bicgstab": sla.bicgstab, "cgs": sla.cgs, "qmr": sla.qmr, "tfqmr": sla.tfqmr}
stored = set()
dropped = []


def store_csr(name, A):
    """Stores CSR A (float64 or complex128) once as name_data / _indices / _indptr."""
    if name in stored:
        return name
    A = sp.csr_matrix(A)
    A.sum_duplicates()
    A.sort_indices()
    dt = np.complex128 if np.iscomplexobj(A.data) else np.float64
    s.csr(name, A, data=A.data.astype(dt))
    stored.add(name)
    return name


def convdiff(m, wind=(20.0, 10.0)):
    h = 1.0 / (m + 1)
    e = np.ones(m)
    T = sp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1]) / h**2
    C = sp.diags([-e[:-1], e[:-1]], [-1, 1]) / (2 * h)
    I = sp.identity(m)
    A = sp.kron(I, T) + sp.kron(T, I) + wind[0] * sp.kron(I, C) + wind[1] * sp.kron(C, I)
    return sp.csr_matrix(A)


def mmread(name):
    return sp.csr_matrix(scipy.io.mmread(s.data(name)))


MATS = {}
MATS["cd"] = convdiff(20)
MATS["cdc"] = sp.csr_matrix(MATS["cd"] + 5j * sp.identity(400))
MATS["orsirr"] = mmread("orsirr_1.mtx")
MATS["west"] = mmread("west0479.mtx")
MATS["young"] = mmread("young1c.mtx")
for k, A in MATS.items():
    store_csr(k, A)

B = {}


def rhs(mat, kind):
    """Right-hand side `kind` of matrix `mat`: "ones" (A @ 1) or "rand" (seeded), stored once."""
    name = f"{mat}_b_{kind}"
    if name not in B:
        A = MATS[mat]
        n = A.shape[0]
        if kind == "ones":
            b = A @ np.ones(n)
        else:
            b = rng.standard_normal(n)
            if np.iscomplexobj(A.data):
                b = b + 1j * rng.standard_normal(n)
        B[name] = b
        s.array(name, b)
    return name


def precond_matrix(mat, kind, dtype):
    A = MATS[mat]
    n = A.shape[0]
    if kind in ("jacobi", "diag_csr"):
        return sp.diags(1.0 / A.diagonal().astype(dtype)).tocsr().astype(dtype)
    if kind == "zero":
        return sp.csr_matrix((n, n), dtype=dtype)
    raise ValueError(kind)


def run(func, A, b, x0, rtol, atol, maxiter, M, M1, M2):
    cnt = [0]

    def cb(_):
        cnt[0] += 1

    kw = dict(x0=x0, rtol=rtol, atol=atol, maxiter=maxiter, callback=cb)
    if func == "qmr":
        if M1 is not None or M2 is not None:
            n = A.shape[0]
            ident = sla.aslinearoperator(sp.identity(n, dtype=A.dtype))
            kw["M1"] = sla.aslinearoperator(M1) if M1 is not None else ident
            kw["M2"] = sla.aslinearoperator(M2) if M2 is not None else ident
    elif M is not None:
        kw["M"] = M
    x, info = FUNCS[func](A, b, **kw)
    return x, info, cnt[0]


def relerr(a, b):
    nb = np.linalg.norm(b)
    return float(np.linalg.norm(a - b) / (nb if nb > 0 else 1.0))


def add(name, func, mat, dtype, bkind="ones", b_shape="n", x0=False, rtol=1e-5, atol=0.0, maxiter=None, M="none",
        M1="none", M2="none", steps=False, perturb=True):
    A64 = MATS[mat]
    A = A64.astype(dtype)
    n = A.shape[0]
    bname = rhs(mat, bkind)
    b = B[bname].astype(dtype)
    x0name = None
    x0v = None
    if x0:
        x0s = (0.1 * rng.standard_normal(n)).astype(B[bname].dtype)
        x0name = s.array(name + "_x0", x0s)
        x0v = x0s.astype(dtype)
    Mm = None if M == "none" else precond_matrix(mat, M, dtype)
    M1m = None if M1 == "none" else precond_matrix(mat, M1, dtype)
    M2m = None if M2 == "none" else precond_matrix(mat, M2, dtype)
    for kind in {M, M1, M2} - {"none", "jacobi"}:
        store_csr(f"{mat}_{kind}", precond_matrix(mat, kind, np.complex128 if np.iscomplexobj(A64.data) else np.float64))
    bb = b.reshape(n, 1) if b_shape == "n1" else b
    x, info, it = run(func, A, bb, x0v, rtol, atol, maxiter, Mm, M1m, M2m)
    eps = np.finfo(dtype).eps
    its = [it]
    infos = {info}
    xdiff = 0.0
    nb = np.linalg.norm(b)
    res = [float(np.linalg.norm(b - A @ x) / nb)] if nb > 0 else [0.0]
    if perturb and nb > 0:
        prng = np.random.default_rng(zlib.crc32(name.encode()))
        for _ in range(8):
            pert = 1 + 4 * eps * prng.standard_normal(n)
            bp = (b * pert).astype(dtype)
            xp, infop, itp = run(func, A, bp, x0v, rtol, atol, maxiter, Mm, M1m, M2m)
            its.append(itp)
            infos.add(infop)
            xdiff = max(xdiff, relerr(xp, x))
            res.append(float(np.linalg.norm(b - A @ xp) / nb))
    if len(infos) > 1 or (not steps and max(its) - min(its) > max(3, 0.25 * it)):
        dropped.append(name)  # SciPy itself is not reproducible here: no reference to compare with
        return
    floor = 1e-4 if np.finfo(dtype).bits == 32 else 1e-11
    xtol = max(10 * xdiff, floor)
    if xtol > 1e-2 or not np.all(np.isfinite(x)):
        xtol = float("inf")  # x after a few chaotic iterations: info and iterations only
    thr = max(atol, rtol * nb) / nb if nb > 0 else 0.0
    restol = max(10 * max(res), thr) if np.all(np.isfinite(res)) else float("inf")
    s.case(name, func, matrix=mat, dtype=np.dtype(dtype).name, b=bname, b_shape=b_shape, x0=x0name, rtol_arg=rtol,
           atol_arg=atol, maxiter=maxiter, M=M, M1=M1, M2=M2, info=int(info), iterations=int(it), it_lo=int(min(its)),
           it_hi=int(max(its)), xtol=float(xtol), restol=float(restol), steps=steps,
           x=s.array(name + "_x", np.asarray(x).astype(dtype)))


# ---- converging runs --------------------------------------------------------------------------------
s.group("runs")
for f in FUNCS:
    add(f"{f}_cd_f64", f, "cd", np.float64)
    add(f"{f}_cd_f32", f, "cd", np.float32)
    add(f"{f}_cd_f64_rand", f, "cd", np.float64, bkind="rand")
    add(f"{f}_cd_f64_x0", f, "cd", np.float64, bkind="rand", x0=True)
    add(f"{f}_cd_f64_n1", f, "cd", np.float64, b_shape="n1")
    add(f"{f}_cd_f64_atol", f, "cd", np.float64, rtol=0.0, atol=1e-3)
    add(f"{f}_cdc_c128", f, "cdc", np.complex128, bkind="rand")
    add(f"{f}_cdc_c64", f, "cdc", np.complex64, bkind="rand")
    if f == "qmr":
        add(f"{f}_cd_f64_M1diag", f, "cd", np.float64, M1="diag_csr")
        add(f"{f}_cd_f64_M2diag", f, "cd", np.float64, M2="diag_csr")
        add(f"{f}_orsirr_f64_M1diag", f, "orsirr", np.float64, M1="diag_csr")
        add(f"{f}_young_c128_M1diag", f, "young", np.complex128, M1="diag_csr")
    else:
        add(f"{f}_cd_f64_jacobi", f, "cd", np.float64, M="jacobi")
        add(f"{f}_cd_f32_jacobi", f, "cd", np.float32, M="jacobi")
        add(f"{f}_cd_f64_diagcsr", f, "cd", np.float64, M="diag_csr")
        add(f"{f}_orsirr_f64_jacobi", f, "orsirr", np.float64, M="jacobi")
        add(f"{f}_orsirr_f32_jacobi", f, "orsirr", np.float32, M="jacobi")
        add(f"{f}_young_c128_diagcsr", f, "young", np.complex128, M="diag_csr")
    if f in ("bicg", "bicgstab", "qmr"):
        add(f"{f}_young_c128", f, "young", np.complex128)
        add(f"{f}_young_c64", f, "young", np.complex64)
        add(f"{f}_orsirr_f64", f, "orsirr", np.float64)

# ---- maxiter-limited runs: info = maxiter, x after a few iterations ---------------------------------
s.group("steps")
for f in FUNCS:
    for mat, dt in (("cd", np.float64), ("orsirr", np.float64), ("west", np.float64), ("young", np.complex128),
                    ("cd", np.float32)):
        add(f"{f}_{mat}_{np.dtype(dt).name}_steps5", f, mat, dt, maxiter=5, steps=True)
    add(f"{f}_west_f64_nonconv", f, "west", np.float64, maxiter=200, steps=True)
    add(f"{f}_cd_f64_maxiter0", f, "cd", np.float64, maxiter=0, steps=True, perturb=False)
    add(f"{f}_cd_f64_maxiter1", f, "cd", np.float64, maxiter=1, steps=True)

# ---- b = 0 ---------------------------------------------------------------------------------------------
s.group("zero")
zname = s.array("cd_b_zero", np.zeros(400))
B["cd_b_zero"] = np.zeros(400)
for f in FUNCS:
    x, info, it = run(f, MATS["cd"], np.zeros(400), None, 1e-5, 0.0, None, None, None, None)
    s.case(f"{f}_zero_b", f, matrix="cd", dtype="float64", b=zname, b_shape="n", x0=None, rtol_arg=1e-5, atol_arg=0.0,
           maxiter=None, M="none", M1="none", M2="none", info=int(info), iterations=it, it_lo=it, it_hi=it,
           xtol=0.0, restol=0.0, steps=False, x=s.array(f"{f}_zero_b_x", x))

# ---- breakdowns ---------------------------------------------------------------------------------------
s.group("breakdown")
BD = {
    "bd_a": ([[0, 0], [0, -1]], [1, 0]),
    "bd_b": ([[0, 2], [0, 2]], [0, 1]),
    "bd_c": ([[0, 2], [0, 1]], [-1, 1]),
    "bd_d": ([[2, -1, 0], [-2, -2, 0], [0, 1, 0]], [0, 1, 0]),
    "bd_e": ([[1, -1, 0], [0, 0, 1], [0, 0, 2]], [1, 0, 1]),
    "bd_f": ([[1, 0, 0], [1, 2, -1], [2, 0, -2]], [0, 0, 1]),
    "bd_g": ([[0, -2, 0], [0, 0, 2], [0, 0, 2]], [1, 0, -1]),
    "bd_h": ([[0, -1, 2, -2], [1, 0, 1, 1], [0, 0, 2, 1], [-2, 0, 0, -2]], [0, 1, -1, 0]),
    "bd_i": ([[2, -1, 0], [0, -2, 0], [1, 0, 0]], [1, -1, 0]),
}
for k, (a, b) in BD.items():
    MATS[k] = sp.csr_matrix(np.array(a, float))
    store_csr(k, MATS[k])
    B[f"{k}_b"] = np.array(b, float)
    s.array(f"{k}_b", B[f"{k}_b"])
for f in FUNCS:
    for k in BD:
        infos = set()
        for dt in (np.float64, np.float32, np.complex128):
            _, info, it = run(f, MATS[k].astype(dt), B[f"{k}_b"].astype(dt), None, 1e-5, 0.0, 50, None, None, None)
            infos.add((info, it))
        if len(infos) != 1:
            continue  # not structural: the dtypes disagree
        info, it = infos.pop()
        if info >= 0:
            continue
        for dt in (np.float64, np.float32, np.complex128):
            name = f"{f}_{k}_{np.dtype(dt).name}"
            x, info2, it2 = run(f, MATS[k].astype(dt), B[f"{k}_b"].astype(dt), None, 1e-5, 0.0, 50, None, None, None)
            s.case(name, f, matrix=k, dtype=np.dtype(dt).name, b=f"{k}_b", b_shape="n", x0=None, rtol_arg=1e-5, atol_arg=0.0,
                   maxiter=50, M="none", M1="none", M2="none", info=int(info2), iterations=it2, it_lo=it2, it_hi=it2,
                   xtol=1e-4 if dt == np.float32 else 1e-11, restol=float("inf"), steps=True,
                   x=s.array(name + "_x", np.asarray(x).astype(dt)))
# qmr with a singular preconditioner: M1 = 0 (rho = 0: -10), M2 = 0 (xi = 0: -15).
for which in ("M1", "M2"):
    k = "bd_f"
    Z = sp.csr_matrix((3, 3))
    store_csr(f"{k}_zero", Z)
    kw = {"M1": "zero", "M2": "none"} if which == "M1" else {"M1": "none", "M2": "zero"}
    ident = sla.aslinearoperator(sp.identity(3))
    M1 = sla.aslinearoperator(Z) if which == "M1" else ident
    M2 = sla.aslinearoperator(Z) if which == "M2" else ident
    cnt = [0]
    x, info = sla.qmr(MATS[k], B[f"{k}_b"], M1=M1, M2=M2, callback=lambda _: cnt.__setitem__(0, cnt[0] + 1))
    name = f"qmr_{k}_{which}zero"
    s.case(name, "qmr", matrix=k, dtype="float64", b=f"{k}_b", b_shape="n", x0=None, rtol_arg=1e-5, atol_arg=0.0, maxiter=None,
           M="none", info=int(info), iterations=cnt[0], it_lo=cnt[0], it_hi=cnt[0], xtol=1e-11, restol=float("inf"),
           steps=True, x=s.array(name + "_x", x), **kw)

print(f"sparse_linalg_nonsymmetric: {len(dropped)} runs left out (SciPy's own result varies with 4 eps of b): "
      + ", ".join(dropped))
s.write()
