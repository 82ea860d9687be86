#!/usr/bin/env python3
"""Times cusci's host filter design (the program bench_signal_design) against SciPy's functions on the
same machine in one run, and prints a table of median wall times per call and the ratio SciPy / cusci
(> 1 means cusci is faster). Both sides design the same filters, windows and systems (the ids below;
bench_signal_design.cpp lists the same cases).

Usage: python3 benchmarks/compare_scipy_design.py --build BUILD_DIR [--json out.jsonl] [--blas-threads N]

--blas-threads N limits SciPy's BLAS/LAPACK (OpenBLAS, MKL, OpenMP) to N threads (default: the library's
own choice, as a plain SciPy session runs). Only firls calls LAPACK on matrices large enough for BLAS threads
to matter (128 x 128): on the shared 2-core development machine its time depends on them, so the table is
worth recording both ways.
"""
import argparse
import json
import os
import subprocess
import sys
import timeit


def _blas_threads_from_argv():
    """--blas-threads must take effect before NumPy loads its BLAS: read it from argv here."""
    for i, a in enumerate(sys.argv):
        if a == "--blas-threads" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if a.startswith("--blas-threads="):
            return a.split("=", 1)[1]
    return None


_threads = _blas_threads_from_argv()
if _threads is not None:
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = _threads

import numpy as np  # noqa: E402
import scipy.signal as ss  # noqa: E402
from scipy.signal import windows as sw  # noqa: E402


def cases():
    b12, a12 = ss.ellip(12, 0.5, 60, 0.3)
    z12, p12, k12 = ss.ellip(12, 0.5, 60, 0.3, output="zpk")
    h255 = ss.remez(255, [0, 0.15, 0.2, 0.5], [1, 0], fs=1)
    rng = np.random.default_rng(7)
    A8 = rng.standard_normal((8, 8)) - 3 * np.eye(8)
    B8 = rng.standard_normal((8, 2))
    C8 = rng.standard_normal((2, 8))
    D8 = np.zeros((2, 2))
    A6 = rng.standard_normal((6, 6))
    B6 = rng.standard_normal((6, 2))
    poles6 = np.array([-1, -2, -3, -4, -5, -6.0])
    return {
        "D1": lambda: ss.butter(8, 0.2, output="sos"),
        "D2": lambda: ss.cheby1(8, 1, [0.1, 0.3], "bandpass", output="sos"),
        "D3": lambda: ss.cheby2(16, 60, 0.3, output="sos"),
        "D4": lambda: ss.ellip(12, 0.5, 60, 0.3, output="sos"),
        "D5": lambda: ss.bessel(8, 0.2, norm="phase", output="sos"),
        "D6": lambda: ss.ellipord(0.2, 0.3, 1, 60),
        "D7": lambda: ss.buttord([0.1, 0.6], [0.2, 0.5], 3, 40),
        "D8": lambda: ss.iirnotch(60, 30, fs=360),
        "D9": lambda: ss.firwin(255, 0.3),
        "D10": lambda: ss.firwin2(255, [0, 0.3, 0.4, 1], [1, 1, 0, 0]),
        "D11": lambda: ss.firls(255, [0, 0.3, 0.4, 1], [1, 1, 0, 0]),
        "D12": lambda: ss.remez(255, [0, 0.15, 0.2, 0.5], [1, 0], fs=1),
        "D13": lambda: sw.kaiser(4096, 8.6),
        "D14": lambda: sw.chebwin(4096, 100),
        "D15": lambda: sw.dpss(1024, 4, 8),
        "D16": lambda: ss.zpk2sos(z12, p12, k12),
        "D17": lambda: ss.tf2zpk(b12, a12),
        "D18": lambda: ss.freqz(b12, a12, 8192),
        "D19": lambda: ss.cont2discrete((A8, B8, C8, D8), 0.01, method="zoh"),
        "D20": lambda: ss.place_poles(A6, B6, poles6),
        "D21": lambda: ss.minimum_phase(h255),
    }


def scipy_ms(fn):
    fn()
    n, t = 1, 0.0
    while t < 0.05:  # calls per sample: at least 50 ms of work
        n *= 2
        t = timeit.timeit(fn, number=n)
    samples = [timeit.timeit(fn, number=n) / n * 1e3 for _ in range(7)]
    return float(np.median(samples))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--json")
    ap.add_argument("--blas-threads", type=int, help="SciPy's BLAS threads (set before NumPy loads)")
    args = ap.parse_args()
    prog = os.path.join(args.build, "benchmarks", "bench_signal_design")
    rows = {}
    out = subprocess.run([prog], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            rows[r["id"]] = r
    print(f"{'id':5} {'case':58} {'cusci ms':>10} {'SciPy ms':>10} {'SciPy/cusci':>11}")
    results = []
    for cid, fn in cases().items():
        sp = scipy_ms(fn)
        r = rows.get(cid)
        cu = r["ms"] if r else float("nan")
        name = r["case"] if r else "(not in bench_signal_design)"
        print(f"{cid:5} {name[:58]:58} {cu:10.4f} {sp:10.4f} {sp / cu if r else float('nan'):11.2f}")
        results.append({"id": cid, "case": name, "cusci_ms": cu, "scipy_ms": sp})
    if args.json:
        with open(args.json, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
