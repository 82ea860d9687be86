"""Peers of benchmarks/bench_sparse_csgraph_shortest_path.cu: SciPy 1.18.1 on the CPU (median wall time
of a few runs with time.perf_counter) for the same cases, under the same ids. The slow cases (SP4:
Floyd-Warshall O(N^3) on 2048 nodes; SP5: SciPy's Bellman-Ford relaxes N - 1 full rounds; SP6:
Johnson's Bellman-Ford pass, the same) run once. CuPy has no shortest-path functions."""
import numpy as np

from bench_ids import wanted
from graph_inputs import cpu_ms, find_matrix, generated_graph, splitmix64, weight_1_to_16


def _uniform(i):
    return (splitmix64(i) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def dense_graph(n=2048):
    k = np.arange(n * n, dtype=np.uint64)
    u = _uniform(k)
    w = 1.0 + _uniform(k + np.uint64(1 << 22))
    return np.where(u < 0.3, w, 0.0).reshape(n, n)


def negative_graph(A):
    import scipy.sparse as sp
    n = A.shape[0]
    p = 20000.0 * _uniform(np.arange(n, dtype=np.uint64) + np.uint64(1 << 30))
    rows = np.repeat(np.arange(n), np.diff(A.indptr))
    w = (A.data + p[rows]) - p[A.indices]
    return sp.csr_matrix((w, A.indices, A.indptr), shape=A.shape)


def cupy_cases(gpu_ms, data):
    import scipy.io
    from scipy.sparse import csgraph

    out = {}
    p = find_matrix(data, "nh2010")
    if p is not None and wanted("SP1", "SP1p", "SP3", "SP5", "SP6"):
        A = scipy.io.mmread(p).tocsr().astype(np.float64)
        if wanted("SP1"):
            out["SP1"] = cpu_ms(lambda: csgraph.dijkstra(A, indices=0))
        if wanted("SP1p"):
            out["SP1p"] = cpu_ms(lambda: csgraph.dijkstra(A, indices=0, return_predecessors=True))
        if wanted("SP3"):
            out["SP3"] = cpu_ms(lambda: csgraph.dijkstra(A, indices=np.arange(64) * 700), runs=3)
        if wanted("SP5"):
            out["SP5"] = cpu_ms(lambda: csgraph.bellman_ford(A, indices=0), runs=1, warm=False)
        if wanted("SP6"):
            An = negative_graph(A)
            out["SP6"] = cpu_ms(lambda: csgraph.johnson(An, indices=np.arange(16) * 3000), runs=1, warm=False)
    if wanted("SP2"):
        G = generated_graph(weight_1_to_16)
        out["SP2"] = cpu_ms(lambda: csgraph.dijkstra(G, indices=0), runs=3)
    if wanted("SP4"):
        D = dense_graph()
        out["SP4"] = cpu_ms(lambda: csgraph.floyd_warshall(D), runs=1, warm=False)
    return out


if __name__ == "__main__":
    import sys
    for k, v in cupy_cases(None, sys.argv[1] if len(sys.argv) > 1 else None).items():
        print(k, round(v, 3), "ms")
