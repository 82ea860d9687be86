"""Peers of benchmarks/bench_sparse_linalg.cu: cupyx.scipy.sparse.linalg's solvers on the same inputs (the
3-D Poisson matrix 128^3, 7-point, float64 CSR built as a sum of Kronecker products, the same matrix
that the C++ program builds; b = ones(n); eigsh's v0[i] = ((i * 7919) % 10007) / 10007 - 0.5) with the
same fixed work (tolerances that are never met, maxiter = the iteration count).

Where CuPy has no counterpart, SciPy runs on the CPU instead (the C++ case names say "SciPy CPU peer"):
  SL2 bicgstab (CuPy has no bicgstab) and SL5 lsqr (CuPy's lsqr is a direct sparse QR solve, not LSQR).
Those two are host wall times (time.perf_counter) of one call after the checked first call (about 10 s
a call on one core: SciPy's sparse products are single-threaded).

Iteration counts as the C++ program (see its header for the traffic model):
  SL1 cg 100, SL2 bicgstab 100, SL3 gmres restart=30 and maxiter=120 (CuPy's maxiter counts inner
  iterations in steps of restart: 4 cycles, as cusci's maxiter=4 cycles), SL4 minres 100, SL5 lsqr 100,
  SL6 eigsh k=6 which='LA' ncv=20 maxiter=300 (CuPy's maxiter counts Lanczos steps: 20 + 20 restarts
  of 14 steps = 300, as ARPACK's 20 restarts in cusci), SL7 lsmr 100, SL8 cgs 100.
A solver that reports another iteration count prints a note on stderr (its time is then for other work).

SL9..SL18 (inputs, models and counts in the C++ header; the matrices built here as Kronecker sums of
the same 1-D matrices, float64 canonical CSR; dense blocks X[i, j] = ((i * 7919 + j * 104729) % 10007)
/ 10007 - 0.5):
  SL9  CuPy gmres restart=30 maxiter=120 on convdiff3d_128 (7.5 / -1.5 lower / -1 upper).
  SL10 bicgstab 100 iterations on convdiff3d_128: CuPy's where cupyx.scipy.sparse.linalg has bicgstab,
       else SciPy on the CPU: the first (checked) call is timed, and when it took at most 8 s the median
       of 1 more call is reported instead (about 10 s a call: the family's time budget allows one).
  SL11, SL12 the same two on cage10 (scipy.io.mmread of <dir>/cage10.mtx, dir = $CUSCI_BENCH_MATRICES
       or compare_cupy.py's data; skipped with a note when missing), except that SL12 is bicgstab with
       b = v0 over 15 iterations (b = ones breaks down on cage10 after a rounding-dependent number of
       iterations: the C++ header); SciPy bicgstab: the median of 3 calls after the checked one
       (milliseconds each).
  SL13 spsolve(A, B [n, 16]) on bcsstk16: CuPy's spsolve takes one right-hand side: one call per
       column (each a cuSOLVER sparse QR of A); the first call is timed, then median of 3 more when it
       took at most 5 s.
  SL14 the same on poisson2d_1000, in a child process with a 30 s limit (a sparse QR of a 10^6 matrix
       per column may take long): the first column is timed; at most 1.25 s: median of up to 3 calls
       of all 16 columns; else 16 times the one column (a note says so); no result past the limit.
       Host wall time with the device synchronized (the solve is synchronous).
  SL15 CuPy eigsh k=10 which='LA' ncv=24 maxiter=304 tol=1e-300 on poisson2d_1000.
  SL16 SciPy eigsh k=6 sigma=0.0 which='LM' ncv=20 (tol 0: converged) on poisson2d_300 with OPinv = a
       counting wrapper of splu(A).solve (factorization timed), host wall time, 1 warm-up + 1 timed call
       (several seconds each); the number of solves goes to stderr.
  SL17 SciPy lobpcg(A, X [n, 6], tol=1e-300, maxiter=50, largest=True) on poisson2d_300, timed as
       SL10's SciPy call; SL17c CuPy's lobpcg, where CuPy has one (median of 5).
  SL18 SciPy expm_multiply(-2.5 poisson2d_1000, B [n, 10]) (m* = 40, s = 2: 80 products of the [n, 10]
       block besides the norm estimation), timed as SL10's SciPy call (10 to 25 s a call on one core:
       SciPy's sparse products are single-threaded: 1 call).
"""
import inspect
import json
import os
import subprocess
import sys
import time
import warnings

from bench_ids import wanted
from cpu_timer import cpu_ms


def _poisson3d(csp, cp, k):
    e = cp.ones(k)
    t1 = csp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1], format="csr")
    i1 = csp.identity(k, format="csr")
    A = (csp.kron(csp.kron(t1, i1), i1) + csp.kron(csp.kron(i1, t1), i1) + csp.kron(csp.kron(i1, i1), t1)).tocsr()
    A.sum_duplicates()
    A.sort_indices()
    return A


def _tol(fn, value):
    """The relative tolerance keyword of `fn`: rtol (current CuPy/SciPy) or tol (older CuPy, CuPy's minres)."""
    params = inspect.signature(fn).parameters
    return {"rtol": value} if "rtol" in params else {"tol": value}


def _check(case, got, expected):
    if got != expected:
        print(f"# peers_sparse_linalg {case}: {got} iterations reported, {expected} expected", file=sys.stderr)


def _kron_sum(sp, xp, k, dims, lower, diag1, upper):
    """sum over the axes of I x .. x tridiag(lower, diag1, upper) x .. x I on a k^dims grid (canonical CSR):
    the matrix bench_sparse_linalg.cu's stencil() fills (its diagonal dims * diag1)."""
    e = xp.ones(k)
    t1 = sp.diags([lower * e[:-1], diag1 * e, upper * e[:-1]], [-1, 0, 1], format="csr")
    i1 = sp.identity(k, format="csr")
    if dims == 2:
        A = sp.kron(t1, i1) + sp.kron(i1, t1)
    else:
        A = sp.kron(sp.kron(t1, i1), i1) + sp.kron(sp.kron(i1, t1), i1) + sp.kron(sp.kron(i1, i1), t1)
    A = A.tocsr()
    A.sum_duplicates()
    A.sort_indices()
    return A


def _block(xp, n, m):
    i = xp.arange(n, dtype=xp.int64)[:, None]
    j = xp.arange(m, dtype=xp.int64)[None, :]
    return ((i * 7919 + j * 104729) % 10007).astype(xp.float64) / 10007.0 - 0.5


def _v0(xp, n):
    return (xp.arange(n, dtype=xp.int64) * 7919 % 10007).astype(xp.float64) / 10007.0 - 0.5


def _matrix_path(data, name):
    """<dir>/<name> with dir = $CUSCI_BENCH_MATRICES or data, else data/<name>; None (with a note) if absent."""
    for d in (os.environ.get("CUSCI_BENCH_MATRICES") or data, data):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    print(f"# peers_sparse_linalg: {name} not found", file=sys.stderr)
    return None


def _read_csr(path):
    import scipy.io
    import scipy.sparse as sp

    A = sp.csr_matrix(scipy.io.mmread(path), dtype="float64")
    A.sum_duplicates()
    A.sort_indices()
    return A


def _cpu_first_ms(case, fn, n_repeat, one_call_ms=8000.0):
    """Host wall time of slow CPU calls: the first call is timed (SciPy has nothing to load or compile);
    over one_call_ms it is the result (the family's time budget), else the median of n_repeat more."""
    t = time.perf_counter()
    fn()
    first = (time.perf_counter() - t) * 1e3
    if first > one_call_ms:
        print(f"# peers_sparse_linalg {case}: one call took {first:.0f} ms: 1 call timed", file=sys.stderr)
        return first
    return cpu_ms(fn, n_repeat=n_repeat, n_warmup=0)


def scipy_bicgstab_ms(case, Ah, bh, N, n_repeat):
    """SciPy bicgstab, N iterations; the first (checked) call is timed as _cpu_first_ms says."""
    import scipy.sparse.linalg as spl

    def run():
        x, info = spl.bicgstab(Ah, bh, rtol=0.0, atol=0.0, maxiter=N)
        _check(case + " bicgstab (SciPy)", info, N)

    return _cpu_first_ms(case, run, n_repeat)


def scipy_shift_invert_ms(n_repeat=1):
    """SL16: SciPy eigsh k=6 sigma=0.0 which='LM' ncv=20 (tol 0) on poisson2d_300, OPinv = splu(A).solve
    (what eigsh builds itself for a sparse A), the factorization inside the timed call; prints the solves."""
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    Q = _kron_sum(sp, np, 300, 2, -1.0, 2.0, -1.0)
    v0 = _v0(np, Q.shape[0])
    solves = [0]

    def run():
        lu = spl.splu(Q.tocsc())

        def solve(x):
            solves[0] += 1
            return lu.solve(x)

        op = spl.LinearOperator(Q.shape, matvec=solve, dtype=Q.dtype)
        solves[0] = 0
        spl.eigsh(Q, k=6, sigma=0.0, which="LM", v0=v0, ncv=20, OPinv=op)

    ms = cpu_ms(run, n_repeat=n_repeat, n_warmup=1)
    print(f"# peers_sparse_linalg SL16: SciPy did {solves[0]} solves (compare cusci's \"solves\")", file=sys.stderr)
    return ms


def scipy_lobpcg_ms(n_repeat=1):
    """SL17: SciPy lobpcg on poisson2d_300, X [n, 6], tol=1e-300, maxiter=50, largest."""
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    Q = _kron_sum(sp, np, 300, 2, -1.0, 2.0, -1.0)
    X = _block(np, Q.shape[0], 6)
    def run():
        w, v, hist = spl.lobpcg(Q, X, tol=1e-300, maxiter=50, largest=True, retLambdaHistory=True)
        _check("SL17 lobpcg (SciPy)", len(hist) - 1, 52)  # best iterate's index + 1: 52 when the last is best

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Exited at iteration 50 with accuracies ..." (expected)
        return _cpu_first_ms("SL17", run, n_repeat)


def scipy_expm_multiply_ms(n_repeat=1):
    """SL18: SciPy expm_multiply(-2.5 poisson2d_1000, B [n, 10]) at t = 1."""
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    E = _kron_sum(sp, np, 1000, 2, 2.5, -5.0, 2.5)
    B = _block(np, E.shape[0], 10)
    return _cpu_first_ms("SL18", lambda: spl.expm_multiply(E, B), n_repeat)


# SL14's CuPy side, run as a child process that the parent kills at its time limit (argv[1]: this
# folder, for the matrix builders). Prints one JSON line {"ms": ..., "calls": ..., "extrapolated": ...}.
_SL14_CHILD = r"""
import json, statistics, sys, time
import cupy as cp
import cupyx.scipy.sparse as csp
import cupyx.scipy.sparse.linalg as cspl
sys.path.insert(0, sys.argv[1])
from peers_sparse_linalg import _kron_sum, _block
A = _kron_sum(csp, cp, 1000, 2, -1.0, 2.0, -1.0)
n = A.shape[0]
BF = cp.asfortranarray(_block(cp, n, 16))
X = cp.empty((n, 16), order="F")
small = _kron_sum(csp, cp, 30, 2, -1.0, 2.0, -1.0)
cspl.spsolve(small, cp.ones(small.shape[0]))  # loads cuSOLVER's sparse QR (untimed)
cp.cuda.Device().synchronize()
t = time.perf_counter()
X[:, 0] = cspl.spsolve(A, BF[:, 0])
cp.cuda.Device().synchronize()
one = (time.perf_counter() - t) * 1e3
if one > 1250.0:
    print(json.dumps({"ms": 16 * one, "calls": 0, "extrapolated": True, "one_column_ms": one}), flush=True)
    sys.exit(0)
times = []
for _ in range(3):
    t = time.perf_counter()
    for j in range(16):
        X[:, j] = cspl.spsolve(A, BF[:, j])
    cp.cuda.Device().synchronize()
    times.append((time.perf_counter() - t) * 1e3)
    if sum(times) > 20000.0:
        break
print(json.dumps({"ms": statistics.median(times), "calls": len(times), "extrapolated": False, "one_column_ms": one}),
      flush=True)
"""


def _sl14_cupy_ms(limit_s=30):
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        p = subprocess.run([sys.executable, "-c", _SL14_CHILD, here], capture_output=True, text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        print(f"# peers_sparse_linalg SL14: CuPy's spsolve did not finish within {limit_s} s: no peer time",
              file=sys.stderr)
        return None
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        print(f"# peers_sparse_linalg SL14: child failed rc={p.returncode}: {p.stderr[-1000:]}", file=sys.stderr)
        return None
    r = json.loads(lines[-1])
    if r["extrapolated"]:
        print(f"# peers_sparse_linalg SL14: one column took {r['one_column_ms']:.0f} ms: 16 times it reported",
              file=sys.stderr)
    return r["ms"]


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspl
    import scipy.sparse.linalg as spl

    k = 128
    A = _poisson3d(csp, cp, k)
    n = A.shape[0]
    assert A.nnz == 7 * n - 6 * k * k, A.nnz
    b = cp.ones(n)
    N = 100
    runs = dict(n_repeat=20, n_warmup=2)
    out = {}

    if wanted('SL1'):
        x, info = cspl.cg(A, b, **_tol(cspl.cg, 0.0), atol=0.0, maxiter=N)
        _check("SL1 cg", info, N)
        out["SL1"] = gpu_ms(lambda: cspl.cg(A, b, **_tol(cspl.cg, 0.0), atol=0.0, maxiter=N), **runs)

    if wanted('SL3'):
        x, info = cspl.gmres(A, b, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120)
        _check("SL3 gmres", info, 120)
        out["SL3"] = gpu_ms(lambda: cspl.gmres(A, b, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120), **runs)

    if wanted('SL4'):
        x, info = cspl.minres(A, b, **_tol(cspl.minres, 0.0), maxiter=N)
        _check("SL4 minres", info, N)
        out["SL4"] = gpu_ms(lambda: cspl.minres(A, b, **_tol(cspl.minres, 0.0), maxiter=N), **runs)

    if wanted('SL6'):
        v0 = (cp.arange(n, dtype=cp.int64) * 7919 % 10007).astype(cp.float64) / 10007.0 - 0.5
        ekw = dict(k=6, which="LA", ncv=20, maxiter=300, tol=1e-300)
        if "v0" in inspect.signature(cspl.eigsh).parameters:
            ekw["v0"] = v0
        else:
            print("# peers_sparse_linalg SL6: this CuPy's eigsh takes no v0 (random start)", file=sys.stderr)
        out["SL6"] = gpu_ms(lambda: cspl.eigsh(A, **ekw), **runs)

    if wanted('SL7'):
        res = cspl.lsmr(A, b, atol=0.0, btol=0.0, conlim=1e300, maxiter=N)
        _check("SL7 lsmr", int(res[2]), N)
        out["SL7"] = gpu_ms(lambda: cspl.lsmr(A, b, atol=0.0, btol=0.0, conlim=1e300, maxiter=N), **runs)

    if wanted('SL8'):
        x, info = cspl.cgs(A, b, **_tol(cspl.cgs, 0.0), atol=0.0, maxiter=N)
        _check("SL8 cgs", info, N)
        out["SL8"] = gpu_ms(lambda: cspl.cgs(A, b, **_tol(cspl.cgs, 0.0), atol=0.0, maxiter=N), **runs)

    # SciPy on the CPU, the same matrix (copied to the host) and b; the checked first call is the warm-up.
    Ah = A.get()
    bh = cp.asnumpy(b)
    del A, b
    if wanted('SL2'):
        x, info = spl.bicgstab(Ah, bh, rtol=0.0, atol=0.0, maxiter=N)
        _check("SL2 bicgstab (SciPy)", info, N)
        out["SL2"] = cpu_ms(lambda: spl.bicgstab(Ah, bh, rtol=0.0, atol=0.0, maxiter=N), n_repeat=1, n_warmup=0)
    if wanted('SL5'):
        res = spl.lsqr(Ah, bh, atol=0.0, btol=0.0, conlim=1e300, iter_lim=N)
        _check("SL5 lsqr (SciPy)", int(res[2]), N)
        out["SL5"] = cpu_ms(lambda: spl.lsqr(Ah, bh, atol=0.0, btol=0.0, conlim=1e300, iter_lim=N), n_repeat=1, n_warmup=0)
    del Ah, bh
    out.update(_more_cases(gpu_ms, data, cp, csp, cspl))
    return out


def _gpu_first_ms(gpu_ms, fn, case, one_call_ms=5000.0):
    """Slow whole calls: the first call (events around it, as gpu_ms); at most one_call_ms: median of 3 more."""
    import cupy as cp

    start, stop = cp.cuda.Event(), cp.cuda.Event()
    cp.cuda.Device().synchronize()
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    first = cp.cuda.get_elapsed_time(start, stop)
    if first > one_call_ms:
        print(f"# peers_sparse_linalg {case}: one call took {first:.0f} ms: 1 call timed", file=sys.stderr)
        return first
    return gpu_ms(fn, n_repeat=3, n_warmup=0)


def _more_cases(gpu_ms, data, cp, csp, cspl):
    import numpy as np
    import scipy.sparse.linalg as spl

    out = {}
    N = 100
    runs = dict(n_repeat=20, n_warmup=2)
    has_bicgstab = hasattr(cspl, "bicgstab")
    peer = "CuPy" if has_bicgstab else "SciPy on the CPU"
    print(f"# peers_sparse_linalg SL10/SL12 bicgstab: {peer}", file=sys.stderr)

    def nonsymmetric(C, id_gmres, id_bicgstab, scipy_repeats, bb, bN):
        """gmres with b = ones (120 inner iterations), bicgstab with b = bb (bN iterations)."""
        cb = cp.ones(C.shape[0])
        if wanted(id_gmres):
            x, info = cspl.gmres(C, cb, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120)
            _check(id_gmres + " gmres", info, 120)
            out[id_gmres] = gpu_ms(
                lambda: cspl.gmres(C, cb, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120), **runs)
        if not wanted(id_bicgstab):
            pass
        elif has_bicgstab:
            x, info = cspl.bicgstab(C, bb, **_tol(cspl.bicgstab, 0.0), atol=0.0, maxiter=bN)
            _check(id_bicgstab + " bicgstab", info, bN)
            out[id_bicgstab] = gpu_ms(lambda: cspl.bicgstab(C, bb, **_tol(cspl.bicgstab, 0.0), atol=0.0, maxiter=bN),
                                      **runs)
        else:
            out[id_bicgstab] = scipy_bicgstab_ms(id_bicgstab, C.get(), cp.asnumpy(bb), bN, scipy_repeats)

    if wanted('SL9', 'SL10'):
        # SL9, SL10: 3-D convection-diffusion 128^3 (upwind), 7.5 / -1.5 / -1.
        C = _kron_sum(csp, cp, 128, 3, -1.5, 2.5, -1.0)
        assert C.nnz == 7 * C.shape[0] - 6 * 128 * 128, C.nnz
        nonsymmetric(C, "SL9", "SL10", 1, cp.ones(C.shape[0]), N)
        del C

    # SL13 spsolve with 16 right-hand sides on bcsstk16: CuPy solves one column a call.
    def spsolve_columns(A, BF, X):
        for j in range(BF.shape[1]):
            X[:, j] = cspl.spsolve(A, BF[:, j])

    if wanted('SL13', 'SL14'):
        p = _matrix_path(data, "bcsstk16.mtx.gz")
        if p is not None:
            A = csp.csr_matrix(_read_csr(p))
            BF = cp.asfortranarray(_block(cp, A.shape[0], 16))
            X = cp.empty(BF.shape, order="F")
            spsolve_columns(A, BF[:, :1], X)  # loads cuSOLVER's sparse QR (untimed)
            out["SL13"] = _gpu_first_ms(gpu_ms, lambda: spsolve_columns(A, BF, X), "SL13")
            del A, BF, X
        # SL14 the same on the 2-D Poisson matrix 1000^2 (child process with a time limit).
        r = _sl14_cupy_ms()
        if r is not None:
            out["SL14"] = r

    if wanted('SL15'):
        # SL15 eigsh k=10 which='LA' ncv=24, 304 Lanczos steps (20 restarts of 14), 2-D Poisson 1000^2.
        P2 = _kron_sum(csp, cp, 1000, 2, -1.0, 2.0, -1.0)
        assert P2.nnz == 5 * P2.shape[0] - 4 * 1000, P2.nnz
        ekw = dict(k=10, which="LA", ncv=24, maxiter=304, tol=1e-300)
        if "v0" in inspect.signature(cspl.eigsh).parameters:
            ekw["v0"] = _v0(cp, P2.shape[0])
        else:
            print("# peers_sparse_linalg SL15: this CuPy's eigsh takes no v0 (random start)", file=sys.stderr)
        out["SL15"] = gpu_ms(lambda: cspl.eigsh(P2, **ekw), **runs)
        del P2, ekw

    if wanted('SL11', 'SL12'):
        # SL11, SL12: cage10.
        p = _matrix_path(data, "cage10.mtx")
        if p is not None:
            C = csp.csr_matrix(_read_csr(p))
            # SL12: b = v0, 15 iterations (a fixed amount of work on cage10 only so: the C++ header says why).
            nonsymmetric(C, "SL11", "SL12", 3, _v0(cp, C.shape[0]), 15)
            del C
        else:
            print("# peers_sparse_linalg: SL11, SL12 skipped (no cage10.mtx)", file=sys.stderr)

    if wanted('SL17c'):
        # SL17c CuPy lobpcg, where CuPy has one.
        if hasattr(cspl, "lobpcg"):
            Q = _kron_sum(csp, cp, 300, 2, -1.0, 2.0, -1.0)
            X = _block(cp, Q.shape[0], 6)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    w, v, hist = cspl.lobpcg(Q, X, tol=1e-300, maxiter=50, largest=True, retLambdaHistory=True)
                    _check("SL17c lobpcg (CuPy)", len(hist) - 1, 52)
                except TypeError:
                    cspl.lobpcg(Q, X, tol=1e-300, maxiter=50, largest=True)
                out["SL17c"] = gpu_ms(lambda: cspl.lobpcg(Q, X, tol=1e-300, maxiter=50, largest=True), n_repeat=5,
                                      n_warmup=0)
            del Q, X
        else:
            print("# peers_sparse_linalg SL17c: CuPy has no lobpcg", file=sys.stderr)

    # SciPy on the CPU: SL16 shift-invert eigsh, SL17 lobpcg, SL18 expm_multiply.
    if wanted("SL16"):
        out["SL16"] = scipy_shift_invert_ms()
    if wanted("SL17"):
        out["SL17"] = scipy_lobpcg_ms()
    if wanted("SL18"):
        out["SL18"] = scipy_expm_multiply_ms()
    return out
