"""Peers of benchmarks/bench_sparse_linalg.cu: cupyx.scipy.sparse.linalg's solvers on the same inputs (the
3-D Poisson matrix 128^3, 7-point, float64 CSR built as a sum of Kronecker products, the same matrix
that the C++ program builds; b = ones(n); eigsh's v0[i] = ((i * 7919) % 10007) / 10007 - 0.5) with the
same fixed work (tolerances that are never met, maxiter = the iteration count).

Where CuPy has no counterpart, SciPy runs on the CPU instead (the C++ case names say "SciPy CPU peer"):
  SL2 bicgstab (CuPy has no bicgstab) and SL5 lsqr (CuPy's lsqr is a direct sparse QR solve, not LSQR).
Those two are host wall times (time.perf_counter), median of 3 calls after one warm-up call (about 10 s
a call on one core: SciPy's sparse products are single-threaded).

Iteration counts as the C++ program (see its header for the traffic model):
  SL1 cg 100, SL2 bicgstab 100, SL3 gmres restart=30 and maxiter=120 (CuPy's maxiter counts inner
  iterations in steps of restart: 4 cycles, as cusci's maxiter=4 cycles), SL4 minres 100, SL5 lsqr 100,
  SL6 eigsh k=6 which='LA' ncv=20 maxiter=300 (CuPy's maxiter counts Lanczos steps: 20 + 20 restarts
  of 14 steps = 300, as ARPACK's 20 restarts in cusci), SL7 lsmr 100, SL8 cgs 100.
A solver that reports another iteration count prints a note on stderr (its time is then for other work).
"""
import inspect
import statistics
import sys
import time


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


def _cpu_ms(fn, n_repeat=3, n_warmup=1):
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def _check(case, got, expected):
    if got != expected:
        print(f"# peers_sparse_linalg {case}: {got} iterations reported, {expected} expected", file=sys.stderr)


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

    x, info = cspl.cg(A, b, **_tol(cspl.cg, 0.0), atol=0.0, maxiter=N)
    _check("SL1 cg", info, N)
    out["SL1"] = gpu_ms(lambda: cspl.cg(A, b, **_tol(cspl.cg, 0.0), atol=0.0, maxiter=N), **runs)

    x, info = cspl.gmres(A, b, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120)
    _check("SL3 gmres", info, 120)
    out["SL3"] = gpu_ms(lambda: cspl.gmres(A, b, **_tol(cspl.gmres, 0.0), atol=0.0, restart=30, maxiter=120), **runs)

    x, info = cspl.minres(A, b, **_tol(cspl.minres, 0.0), maxiter=N)
    _check("SL4 minres", info, N)
    out["SL4"] = gpu_ms(lambda: cspl.minres(A, b, **_tol(cspl.minres, 0.0), maxiter=N), **runs)

    v0 = (cp.arange(n, dtype=cp.int64) * 7919 % 10007).astype(cp.float64) / 10007.0 - 0.5
    ekw = dict(k=6, which="LA", ncv=20, maxiter=300, tol=1e-300)
    if "v0" in inspect.signature(cspl.eigsh).parameters:
        ekw["v0"] = v0
    else:
        print("# peers_sparse_linalg SL6: this CuPy's eigsh takes no v0 (random start)", file=sys.stderr)
    out["SL6"] = gpu_ms(lambda: cspl.eigsh(A, **ekw), **runs)

    res = cspl.lsmr(A, b, atol=0.0, btol=0.0, conlim=1e300, maxiter=N)
    _check("SL7 lsmr", int(res[2]), N)
    out["SL7"] = gpu_ms(lambda: cspl.lsmr(A, b, atol=0.0, btol=0.0, conlim=1e300, maxiter=N), **runs)

    x, info = cspl.cgs(A, b, **_tol(cspl.cgs, 0.0), atol=0.0, maxiter=N)
    _check("SL8 cgs", info, N)
    out["SL8"] = gpu_ms(lambda: cspl.cgs(A, b, **_tol(cspl.cgs, 0.0), atol=0.0, maxiter=N), **runs)

    # SciPy on the CPU, the same matrix (copied to the host) and b; the checked first call is the warm-up.
    Ah = A.get()
    bh = cp.asnumpy(b)
    del A, b, v0, x
    x, info = spl.bicgstab(Ah, bh, rtol=0.0, atol=0.0, maxiter=N)
    _check("SL2 bicgstab (SciPy)", info, N)
    out["SL2"] = _cpu_ms(lambda: spl.bicgstab(Ah, bh, rtol=0.0, atol=0.0, maxiter=N), n_warmup=0)
    res = spl.lsqr(Ah, bh, atol=0.0, btol=0.0, conlim=1e300, iter_lim=N)
    _check("SL5 lsqr (SciPy)", int(res[2]), N)
    out["SL5"] = _cpu_ms(lambda: spl.lsqr(Ah, bh, atol=0.0, btol=0.0, conlim=1e300, iter_lim=N), n_warmup=0)
    return out
