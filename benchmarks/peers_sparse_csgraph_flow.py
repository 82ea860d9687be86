"""Peers of benchmarks/bench_sparse_csgraph_flow.cu: SciPy 1.18.1 on the CPU (median wall time of a
few runs with time.perf_counter) for the same cases, under the same ids (MS1, MS2, RC1, RC2, RC3, MF1,
BM1). The inputs are built exactly as the benchmark builds them (see its header comment)."""
import os

import numpy as np

from bench_ids import wanted
from graph_inputs import cpu_ms, find_matrix, generated_graph, splitmix64


def _weight(a):
    return 1.0 + (a & np.uint64(0xFFFFF)).astype(np.float64) / 1048576.0


def grid_graph(side=512):
    import scipy.sparse as sp
    v = np.arange(side * side, dtype=np.int64)
    i, j = v // side, v % side
    rows, cols, caps = [], [], []
    for d, (di, dj) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
        a, b = i + di, j + dj
        ok = (a >= 0) & (a < side) & (b >= 0) & (b < side)
        k = (np.uint64(4) * v[ok].astype(np.uint64) + np.uint64(d))
        rows.append((v[ok], k))
        cols.append(a[ok] * side + b[ok])
        caps.append((np.uint64(1) + splitmix64(k) % np.uint64(100)).astype(np.int32))
    # the benchmark appends edges node by node, direction by direction: order by k
    k = np.concatenate([r[1] for r in rows])
    o = np.argsort(k, kind="stable")
    r = np.concatenate([r[0] for r in rows])[o]
    c = np.concatenate(cols)[o]
    w = np.concatenate(caps)[o]
    n = side * side
    return sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()


def bipartite_graph():
    import scipy.sparse as sp
    n, m = 1 << 20, 1 << 22
    k = np.arange(m, dtype=np.uint64)
    r = (splitmix64(np.uint64(2) * k) >> np.uint64(44)).astype(np.int32)
    c = (splitmix64(np.uint64(2) * k + np.uint64(1)) >> np.uint64(44)).astype(np.int32)
    return sp.coo_matrix((np.ones(m), (r, c)), shape=(n, n)).tocsr()


def cupy_cases(gpu_ms, data):
    import scipy.io
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    out = {}
    p = find_matrix(data, "nh2010")
    if p is not None and wanted("MS1", "RC1"):
        P = scipy.io.mmread(p).tocsr()
        w = _weight(splitmix64(np.arange(P.nnz, dtype=np.uint64)))
        A = sp.csr_matrix((w, P.indices, P.indptr), shape=P.shape)
        if wanted("MS1"):
            out["MS1"] = cpu_ms(lambda: csgraph.minimum_spanning_tree(A))
        if wanted("RC1"):
            out["RC1"] = cpu_ms(lambda: csgraph.reverse_cuthill_mckee(P))
    b = find_matrix(data, "bcsstk16") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "data", "bcsstk16.mtx.gz")
    if os.path.exists(b) and wanted("RC2"):
        B = scipy.io.mmread(b).tocsr()
        out["RC2"] = cpu_ms(lambda: csgraph.reverse_cuthill_mckee(B))
    if wanted("MS2", "RC3"):
        G = generated_graph(_weight)
        if wanted("MS2"):
            out["MS2"] = cpu_ms(lambda: csgraph.minimum_spanning_tree(G), runs=3)
        if wanted("RC3"):
            out["RC3"] = cpu_ms(lambda: csgraph.reverse_cuthill_mckee(G), runs=3)
    if wanted("MF1"):
        F = grid_graph(512)
        out["MF1"] = cpu_ms(lambda: csgraph.maximum_flow(F, 0, F.shape[0] - 1), runs=3)
    if wanted("BM1"):
        M = bipartite_graph()
        out["BM1"] = cpu_ms(lambda: csgraph.maximum_bipartite_matching(M), runs=3)
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(cupy_cases(None, None)))
