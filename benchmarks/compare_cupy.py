#!/usr/bin/env python3
"""Runs cusci's benchmark programs and CuPy's equivalents on the same GPU in the same run, and prints a
table of median GPU times and the ratio CuPy / cusci (> 1 means cusci is faster).

Inputs: the same shapes, dtypes and matrices on both sides (the Poisson matrices are built the same way,
bcsstk16 is read from the same file, filter coefficients come from the same design calls). Dense values
are drawn by each side's own generator (cusci's signal benchmarks filter constant signals): none of the
operations timed here takes a data-dependent path, so their times do not depend on the values.

Further benchmark families: a program bench_<family> (benchmarks/bench_<family>.cu) and, beside it,
peers_<family>.py defining `cupy_cases(gpu_ms, data) -> {id: ms}` with CuPy's equivalents.

Usage: python3 benchmarks/compare_cupy.py --build build-gpu [--data examples/data] [--json out.jsonl]
       [--results DIR]  (reuse bench_<module>.jsonl files written earlier in the same run)
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


MODULES = ["core", "sparse", "ndimage", "signal", "linalg", "elementwise", "reduction", "sorting", "indexing",
           "fft", "rtc", "products", "random", "interop", "sparse_formats", "sparse_construct", "sparse_products",
           "sparse_access", "ndimage_derivatives", "ndimage_correlate", "ndimage_rank", "ndimage_fourier",
           "ndimage_interpolation", "ndimage_morphology", "signal_convolution", "signal_multirate", "signal_fourier",
           "signal_smoothing", "signal_bsplines", "signal_zero_phase", "signal_responses", "signal_lti",
           "signal_spectral", "signal_short_time_fft", "signal_peaks", "signal_waveforms", "sparse_csgraph_traversal",
           "sparse_csgraph_shortest_path", "sparse_csgraph_flow", "sparse_linalg", "statistics", "setops", "numeric", "first_call", "fftlog",
           "sparse_dense_products"]


def read_results(folder):
    rows = {}
    for mod in MODULES:
        path = os.path.join(folder, f"bench_{mod}.jsonl")
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if line.startswith("{"):
                        try:
                            r = json.loads(line)
                            rows[r["id"]] = r
                        except json.JSONDecodeError:
                            pass
    return rows


def run_cusci(build, data):
    rows = {}
    for mod in MODULES:
        exe = os.path.join(build, "benchmarks", f"bench_{mod}")
        if not os.path.exists(exe):
            print(f"# {exe} missing", file=sys.stderr)
            continue
        args = [exe]
        if mod == "sparse":
            args.append(os.path.join(data, "bcsstk16.mtx.gz"))
        elif mod == "ndimage_morphology":
            args.append(os.path.join(data, "camera.npy"))
        elif mod == "sparse_linalg":  # the Matrix Market directory, as peers_sparse_linalg.py chooses it
            args.append(os.environ.get("CUSCI_BENCH_MATRICES") or data)
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"# bench_{mod} failed rc={p.returncode}: {p.stderr[-2000:]}", file=sys.stderr)
        for line in p.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    r = json.loads(line)
                    rows[r["id"]] = r
                except json.JSONDecodeError:
                    pass
    return rows


def cupy_cases(data, families=None, base=True):
    import cupy as cp
    import cupyx.scipy.ndimage as cnd
    import cupyx.scipy.signal as csig
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspl
    import scipy.io
    import scipy.signal
    from cupyx.profiler import benchmark

    def gpu_ms(fn, n_repeat=30, n_warmup=5):
        r = benchmark(fn, n_repeat=n_repeat, n_warmup=n_warmup)
        return float(np.median(r.gpu_times[0]) * 1e3)

    rng = cp.random.default_rng(0)
    out = {}
    if not base:
        return family_cases(data, families, gpu_ms, out)

    n = 1 << 28
    a = rng.random(n, dtype=cp.float32)
    b = rng.random(n, dtype=cp.float32)
    out["C1"] = gpu_ms(lambda: a + b)
    out["C1s"] = gpu_ms(lambda: a * 2)
    out["C1e"] = gpu_ms(lambda: cp.exp(a))
    out["C1c"] = gpu_ms(lambda: a < b)
    out["C2"] = gpu_ms(lambda: a.sum())
    out["C2m"] = gpu_ms(lambda: a.max())
    del a, b
    m = rng.random((16384, 16384), dtype=cp.float32)
    out["C2x0"] = gpu_ms(lambda: m.sum(axis=0))
    out["C2x1"] = gpu_ms(lambda: m.sum(axis=1))
    del m
    one = cp.ones(1, dtype=cp.float32)
    for _ in range(100):
        one + 1
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(10000):
        one + 1
    cp.cuda.Device().synchronize()
    out["C4"] = (time.perf_counter() - t) / 10000 * 1e3
    sizes = [256, 4096, 65536, 1 << 20, 16 << 20, 100]
    t = time.perf_counter()
    for _ in range(1000):
        bufs = [cp.cuda.alloc(s) for s in sizes]
        del bufs
    out["C4a"] = (time.perf_counter() - t) / 1000 * 1e3

    def poisson3d(k, dtype):
        e = cp.ones(k, dtype=dtype)
        t1 = csp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1], format="csr")
        i1 = csp.identity(k, dtype=dtype, format="csr")
        return (csp.kron(csp.kron(t1, i1), i1) + csp.kron(csp.kron(i1, t1), i1) + csp.kron(csp.kron(i1, i1), t1)).tocsr()

    for key, dt in [("S1", cp.float64), ("S1s", cp.float32)]:
        A = poisson3d(256, dt)
        x = rng.random(A.shape[0], dtype=cp.float64).astype(dt)
        out[key] = gpu_ms(lambda: A @ x)
        del A, x
    A = csp.csr_matrix(scipy.io.mmread(os.path.join(data, "bcsstk16.mtx.gz")).tocsr())
    x = cp.ones(A.shape[0])
    out["S1r"] = gpu_ms(lambda: A @ x)

    k = 3162
    e = cp.ones(k)
    t1 = csp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1], format="csr")
    i1 = csp.identity(k, format="csr")
    P = (csp.kron(t1, i1) + csp.kron(i1, t1)).tocsr()
    bb = cp.ones(P.shape[0])
    out["L1"] = gpu_ms(lambda: cspl.cg(P, bb, rtol=1e-30, maxiter=200), n_repeat=5, n_warmup=1)
    del P, bb

    img = rng.random((4096, 4096), dtype=cp.float32)
    out["N1"] = gpu_ms(lambda: cnd.gaussian_filter(img, 2.0))
    vol = rng.random((512, 512, 512), dtype=cp.float32)
    out["N1v"] = gpu_ms(lambda: cnd.gaussian_filter(vol, 2.0), n_repeat=20)
    out["N1.ax0"] = gpu_ms(lambda: cnd.gaussian_filter1d(img, 2.0, axis=0))
    out["N1.ax1"] = gpu_ms(lambda: cnd.gaussian_filter1d(img, 2.0, axis=1))
    odd = rng.random((4093, 4091), dtype=cp.float32)
    out["N1o"] = gpu_ms(lambda: cnd.gaussian_filter(odd, 2.0))
    img64 = img.astype(cp.float64)
    out["N1d"] = gpu_ms(lambda: cnd.gaussian_filter(img64, 2.0))
    out["N1u"] = gpu_ms(lambda: cnd.uniform_filter(img, 31))
    for size in (3, 7, 17, 31):
        out[f"N2min.s{size}"] = gpu_ms(lambda: cnd.minimum_filter(img, size))
        out[f"N2max.s{size}"] = gpu_ms(lambda: cnd.maximum_filter(img, size))
    yy, xx = np.mgrid[-3:4, -3:4]
    disk = (yy * yy + xx * xx) <= 10
    out["N2max.disk7"] = gpu_ms(lambda: cnd.maximum_filter(img, footprint=disk))
    out["N1uv"] = gpu_ms(lambda: cnd.uniform_filter(vol, 5), n_repeat=20)
    out["N2minv.s3"] = gpu_ms(lambda: cnd.minimum_filter(vol, 3), n_repeat=20)
    cross = np.zeros((3, 3, 3), bool)
    cross.flat[[4, 10, 12, 13, 14, 16, 22]] = True
    vol256 = vol[:256, :256, :256].copy()
    out["N2maxv.cross3"] = gpu_ms(lambda: cnd.maximum_filter(vol256, footprint=cross), n_repeat=20)
    del img, vol, odd, img64

    # Coefficients as in bench_signal: butter(4, 0.2) and butter(16, 0.2) as sos, in float32 so that the
    # result is float32 (G2, G2s, G3, G3s); G3d keeps SciPy's float64 sos (float64 result).
    x = rng.random((256, 1 << 18), dtype=cp.float32)
    sos64 = cp.asarray(scipy.signal.butter(16, 0.2, output="sos"))
    sos32 = sos64.astype(cp.float32)
    out["G3"] = gpu_ms(lambda: csig.sosfilt(sos32, x), n_repeat=10, n_warmup=2)
    out["G3d"] = gpu_ms(lambda: csig.sosfilt(sos64, x), n_repeat=10, n_warmup=2)
    bz, az = scipy.signal.butter(4, 0.2)
    bz, az = cp.asarray(bz, dtype=cp.float32), cp.asarray(az, dtype=cp.float32)
    out["G2"] = gpu_ms(lambda: csig.lfilter(bz, az, x), n_repeat=10, n_warmup=2)
    x1 = rng.random(1 << 26, dtype=cp.float32)
    out["G2s"] = gpu_ms(lambda: csig.lfilter(bz, az, x1), n_repeat=3, n_warmup=1)
    out["G3s"] = gpu_ms(lambda: csig.sosfilt(sos32, x1), n_repeat=3, n_warmup=1)
    eb, ea = scipy.signal.butter(4, [0.5, 40.0], "bandpass", fs=360.0)
    eb, ea = cp.asarray(eb), cp.asarray(ea)
    esos = cp.asarray(scipy.signal.butter(4, [0.5, 40.0], "bandpass", output="sos", fs=360.0), dtype=cp.float32)
    out["G2b"] = gpu_ms(lambda: csig.lfilter(eb, ea, x1), n_repeat=3, n_warmup=1)
    out["G3b"] = gpu_ms(lambda: csig.sosfilt(esos, x1), n_repeat=3, n_warmup=1)
    del x, x1

    linalg_cases(gpu_ms, rng, out)
    return family_cases(data, families, gpu_ms, out)


def linalg_u(xp, k):
    """bench_linalg.cu's generator at the uint64 counters k: u(k) = uniform[-1, 1) from splitmix64(k), float64,
    bit for bit the device's values (xp: cupy, or numpy for checks on the host; uint64 products wrap)."""
    u64 = np.uint64
    z = k + u64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> u64(30))) * u64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u64(27))) * u64(0x94D049BB133111EB)
    z ^= z >> u64(31)
    return (z >> u64(11)).astype(xp.float64) * (2.0 ** -52) - 1.0


def linalg_matrix(xp, nb, n, seed, symmetric=False, c=1.0, shift=0.0):
    """bench_linalg.cu's `matrix`: nb == 0 gives one (n, n) matrix, else (nb, n, n); element (b, i, j) is
    c u(seed + (b n + i) n + j) + shift [i == j], or with `symmetric` u(seed + (b n + min(i, j)) n + max(i, j))."""
    m = max(nb, 1)
    if symmetric:
        i = xp.arange(n, dtype=xp.uint64)
        lo, hi = xp.minimum(i[:, None], i[None, :]), xp.maximum(i[:, None], i[None, :])
        a = xp.empty((m, n, n), dtype=xp.float64)
        for b in range(m):  # one matrix at a time keeps the uint64 temporaries small
            a[b] = linalg_u(xp, (lo + np.uint64(b * n)) * np.uint64(n) + hi + np.uint64(seed))
    else:
        a = c * linalg_u(xp, xp.arange(m * n * n, dtype=xp.uint64) + np.uint64(seed)).reshape(m, n, n)
        if shift:
            a += shift * xp.eye(n)
    return a[0] if nb == 0 else a


def linalg_cases(gpu_ms, rng, out):
    """CuPy's peers of bench_linalg.cu. A1..A2b draw their values from CuPy's generator (the batched LU and
    Cholesky take no data-dependent path); A3..A9 rebuild bench_linalg's matrices exactly (linalg_matrix),
    because the Jacobi solvers' sweeps and expm's scaling depend on the values. A8raw / A9raw (bare cuSOLVER
    calls) are cusci-only reference rows."""
    import cupy as cp
    import cupyx.scipy.linalg as cla
    from bench_ids import wanted

    for key, shape in [("A1", (100000, 8, 8)), ("A1b", (10000, 32, 32))]:
        if wanted(key):
            M = rng.random(shape) + shape[-1] * cp.eye(shape[-1])
            r = rng.random(shape[:-1])
            out[key] = gpu_ms(lambda: cp.linalg.solve(M, r[..., None]))
    if wanted("A2"):
        M = rng.random((8192, 8192))
        M = M @ M.T + 8192 * cp.eye(8192)
        out["A2"] = gpu_ms(lambda: cp.linalg.cholesky(M), n_repeat=10)
    if wanted("A2b"):
        M = rng.random((10000, 32, 32))
        M = M @ M.transpose(0, 2, 1) + 32 * cp.eye(32)
        out["A2b"] = gpu_ms(lambda: cp.linalg.cholesky(M))
    seed = lambda k: k << 40  # bench_linalg.cu's seed_of
    if wanted("A3"):  # eigh 4096^2 fp64, symmetric(seed 3), lower triangle (UPLO='L' as SciPy's lower=True)
        M = linalg_matrix(cp, 0, 4096, seed(3), symmetric=True)
        out["A3"] = gpu_ms(lambda: cp.linalg.eigh(M), n_repeat=10, n_warmup=2)
    if wanted("A3b"):  # eigh batched (500, 100, 100) float32, symmetric(seed 4)
        M = linalg_matrix(cp, 500, 100, seed(4), symmetric=True).astype(cp.float32)
        out["A3b"] = gpu_ms(lambda: cp.linalg.eigh(M))
    if wanted("A4"):  # svd 4096^2 fp64, full_matrices=False, uniform(seed 5)
        M = linalg_matrix(cp, 0, 4096, seed(5))
        out["A4"] = gpu_ms(lambda: cp.linalg.svd(M, full_matrices=False), n_repeat=5, n_warmup=1)
    if wanted("A4b"):  # svd batched (256, 64, 64) float32, uniform(seed 6)
        M = linalg_matrix(cp, 256, 64, seed(6)).astype(cp.float32)
        out["A4b"] = gpu_ms(lambda: cp.linalg.svd(M), n_repeat=5, n_warmup=1)
    if wanted("A5"):  # solve batched (1e4, 64, 64) fp64: bench_solve's general (u(k) + n I) and rhs (u(77 + k))
        nb, n = 10000, 64
        M = linalg_matrix(cp, nb, n, 0, shift=float(n))
        r = linalg_u(cp, cp.arange(nb * n, dtype=cp.uint64) + np.uint64(77)).reshape(nb, n, 1)
        out["A5"] = gpu_ms(lambda: cp.linalg.solve(M, r))
    if wanted("A6", "A6d"):  # inv / det batched (1e4, 64, 64) fp64, u(seed 9 + k) + n I
        M = linalg_matrix(cp, 10000, 64, seed(9), shift=64.0)
        if wanted("A6"):
            out["A6"] = gpu_ms(lambda: cp.linalg.inv(M))
        if wanted("A6d"):
            out["A6d"] = gpu_ms(lambda: cp.linalg.det(M))
    if wanted("A7"):  # expm 1024^2 fp64 of 3 sqrt(3 / n) u(seed 7 + k): [13/13] Pade on both sides (see bench)
        n = 1024
        A = linalg_matrix(cp, 0, n, seed(7), c=3.0 * np.sqrt(3.0 / n))
        out["A7"] = gpu_ms(lambda: cla.expm(A), n_repeat=20, n_warmup=3)
    if wanted("A8"):  # qr 8192^2 fp64 (square: numpy's 'reduced' = SciPy's 'full'), uniform(seed 8)
        M = linalg_matrix(cp, 0, 8192, seed(8))
        out["A8"] = gpu_ms(lambda: cp.linalg.qr(M), n_repeat=10, n_warmup=2)
    if wanted("A9"):  # lu_factor 8192^2 fp64, uniform(seed 10)
        M = linalg_matrix(cp, 0, 8192, seed(10))
        out["A9"] = gpu_ms(lambda: cla.lu_factor(M), n_repeat=10, n_warmup=2)


def family_cases(data, families, gpu_ms, out):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    for mod in MODULES:
        if families is not None and mod not in families:
            continue
        if os.path.exists(os.path.join(here, f"peers_{mod}.py")):
            try:
                peer = __import__(f"peers_{mod}")
                out.update(peer.cupy_cases(gpu_ms, data))
            except Exception as e:  # one family's failure must not lose the others' numbers
                print(f"# peers_{mod} failed: {e!r}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build-gpu")
    ap.add_argument("--data", default="examples/data")
    ap.add_argument("--json", default=None)
    ap.add_argument("--families", default=None,
                    help="comma-separated families whose peers_<family>.py run (default: all)")
    ap.add_argument("--no-base", action="store_true",
                    help="skip the cases of the five original modules (core, sparse, ndimage, signal, linalg)")
    ap.add_argument("--results", default=None,
                    help="read cusci's results from bench_<module>.jsonl files in this folder instead of running them")
    ap.add_argument("--ids", default=None,
                    help="comma-separated case ids: only these are printed, the peers time only these, and "
                         "the programs that honour CUSCI_BENCH_IDS (bench::wanted) run only these")
    ap.add_argument("--cusci-json", default=None,
                    help="also write every row cusci's programs printed (all cases, whatever --ids says) here")
    args = ap.parse_args()
    if args.ids:
        os.environ["CUSCI_BENCH_IDS"] = args.ids  # read by the peers through bench_ids.wanted
    mine = read_results(args.results) if args.results else run_cusci(args.build, args.data)
    if args.cusci_json:
        with open(args.cusci_json, "w") as f:
            for r in mine.values():
                f.write(json.dumps(r) + "\n")
    families = args.families.split(",") if args.families else None
    theirs = cupy_cases(args.data, families, not args.no_base)
    ids = list(dict.fromkeys(list(mine.keys()) + list(theirs.keys())))
    if args.ids:
        chosen = [s.strip() for s in args.ids.split(",") if s.strip()]
        ids = [i for i in ids if i in chosen]
    print(f"{'id':6} {'case':48} {'cusci ms':>10} {'CuPy ms':>10} {'CuPy/cusci':>10} {'% roof':>7}")
    lines = []
    for i in ids:
        m = mine.get(i)
        c = theirs.get(i)
        ms = m["ms"] if m else float("nan")
        ratio = (c / ms) if (m and c) else float("nan")
        roof = m.get("roof_pct", "") if m else ""
        name = m["case"] if m else "(cusci: not measured)"
        print(f"{i:6} {name[:48]:48} {ms:10.4f} {c if c is not None else float('nan'):10.4f} {ratio:10.2f} {roof:>7}")
        lines.append({"id": i, "case": name, "cusci_ms": ms, "cupy_ms": c, "ratio": ratio, "roof_pct": roof})
    if args.json:
        with open(args.json, "w") as f:
            for l in lines:
                f.write(json.dumps(l) + "\n")


if __name__ == "__main__":
    main()
