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

    for key, shape in [("A1", (100000, 8, 8)), ("A1b", (10000, 32, 32))]:
        M = rng.random(shape) + shape[-1] * cp.eye(shape[-1])
        r = rng.random(shape[:-1])
        out[key] = gpu_ms(lambda: cp.linalg.solve(M, r[..., None]))
    M = rng.random((8192, 8192))
    M = M @ M.T + 8192 * cp.eye(8192)
    out["A2"] = gpu_ms(lambda: cp.linalg.cholesky(M), n_repeat=10)
    M = rng.random((10000, 32, 32))
    M = M @ M.transpose(0, 2, 1) + 32 * cp.eye(32)
    out["A2b"] = gpu_ms(lambda: cp.linalg.cholesky(M))
    return family_cases(data, families, gpu_ms, out)


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
