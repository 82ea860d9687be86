#!/usr/bin/env python3
"""Times cusci's dok_matrix / lil_matrix building and conversion (the program bench_sparse_incremental,
ids SI1..SI4) against SciPy's on the CPU of the same machine in one run, and prints a table of median
wall times and the ratio SciPy / cusci (> 1 means cusci is faster). Both sides assign 10^6 random float64
entries to an empty 10^5 x 10^5 matrix one `A[i, j] = v` at a time, then convert it to CSR.

Targets: building at least as fast as SciPy (SI1, SI3); conversion at least 10x faster (SI2, SI4).

Usage: python3 benchmarks/compare_scipy_incremental.py --build BUILD_DIR [--json out.jsonl] [--repeat N]
"""
import argparse
import json
import os
import subprocess
import time

import numpy as np
import scipy.sparse as sp

N, COUNT = 100_000, 1_000_000


def entries():
    rng = np.random.default_rng(20261203)
    i = rng.integers(0, N, COUNT).tolist()  # Python ints, as a user's loop has them
    j = rng.integers(0, N, COUNT).tolist()
    v = (1.0 + rng.integers(0, 1000, COUNT) * 0.001).tolist()
    return i, j, v


def wall_ms(fn, repeat):
    ms = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(ms))


def scipy_cases(repeat):
    i, j, v = entries()
    built = {}

    def build(cls):
        def run():
            A = cls((N, N), dtype=np.float64)
            for a, b, x in zip(i, j, v):
                A[a, b] = x
            built[cls] = A
        return run

    out = {}
    out["SI1"] = wall_ms(build(sp.dok_matrix), repeat)
    out["SI2"] = wall_ms(lambda: built[sp.dok_matrix].tocsr(), max(repeat, 5))
    out["SI3"] = wall_ms(build(sp.lil_matrix), repeat)
    out["SI4"] = wall_ms(lambda: built[sp.lil_matrix].tocsr(), max(repeat, 5))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--json")
    ap.add_argument("--repeat", type=int, default=3, help="SciPy builds per case (each takes seconds)")
    args = ap.parse_args()
    prog = os.path.join(args.build, "benchmarks", "bench_sparse_incremental")
    rows = {}
    out = subprocess.run([prog], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            if "id" in r:
                rows[r["id"]] = r
    theirs = scipy_cases(args.repeat)
    print(f"{'id':5} {'case':40} {'cusci ms':>10} {'SciPy ms':>10} {'SciPy/cusci':>11}")
    results = []
    for cid, sms in theirs.items():
        r = rows.get(cid)
        cu = r["ms"] if r else float("nan")
        name = r["case"] if r else "(not in bench_sparse_incremental)"
        print(f"{cid:5} {name[:40]:40} {cu:10.3f} {sms:10.3f} {sms / cu if r else float('nan'):11.2f}")
        results.append({"id": cid, "case": name, "cusci_ms": cu, "scipy_ms": sms})
    if args.json:
        with open(args.json, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
