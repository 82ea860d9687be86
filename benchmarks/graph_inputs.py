"""Graph inputs shared by the csgraph peers (peers_sparse_csgraph_traversal.py,
peers_sparse_csgraph_shortest_path.py, peers_sparse_csgraph_flow.py): the same inputs as
graph_inputs.hpp builds for the benchmark programs, with NumPy's uint64 arithmetic, plus the
data-file finder and the CPU timer of those peers."""
import os
import time

import numpy as np


def find_matrix(data, name):
    """The path of `name`.mtx (or `name`.mtx.gz, gzip-compressed) in `data`, then in the usual data folders (relative to the working
    directory, then to the repository root), or None."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = [data or "", ".gpu-data/matrices", ".gpurun/data", "examples/data", "../shared/data/matrices"]
    dirs += [os.path.join(root, d) for d in (".gpu-data/matrices", ".gpurun/data", "examples/data",
                                             "../shared/data/matrices")]
    for d in dirs:
        for p in (os.path.join(d, name + ".mtx"), os.path.join(d, name + ".mtx.gz")):
            if os.path.exists(p):
                return p
    return None


def cpu_ms(fn, runs=5, warm=True):
    """Median wall time of `runs` calls of fn in ms (after one untimed call when `warm`)."""
    if warm:
        fn()
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts) * 1e3)


def splitmix64(i):
    """The splitmix64 finaliser of the uint64 value(s) i."""
    with np.errstate(over="ignore"):
        z = i + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def weight_1_to_16(a):
    """1 + (a & 15): integer weights 1..16 (float64)."""
    return 1.0 + (a & np.uint64(15)).astype(np.float64)


def generated_graph(weight):
    """The benchmarks' generated graph: 2^22 nodes, 2^25 edges; edge k goes from splitmix64(2k) >> 42
    to splitmix64(2k+1) >> 42 with weight weight(splitmix64(2k)) (duplicates summed by tocsr)."""
    import scipy.sparse as sp
    n, m = 1 << 22, 1 << 25
    k = np.arange(m, dtype=np.uint64)
    a = splitmix64(np.uint64(2) * k)
    b = splitmix64(np.uint64(2) * k + np.uint64(1))
    r = (a >> np.uint64(42)).astype(np.int32)
    c = (b >> np.uint64(42)).astype(np.int32)
    return sp.coo_matrix((weight(a), (r, c)), shape=(n, n)).tocsr()
