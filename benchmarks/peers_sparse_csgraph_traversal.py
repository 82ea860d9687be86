"""Peers of benchmarks/bench_sparse_csgraph_traversal.cu: SciPy 1.18.1 on the CPU (median wall time of
a few runs with time.perf_counter) for the same cases, under the same ids; CuPy's
cupyx.scipy.sparse.csgraph.connected_components (where it imports) under CC1c / CC2c."""
import numpy as np

from bench_ids import wanted
from graph_inputs import cpu_ms, find_matrix, generated_graph, weight_1_to_16


def cupy_cases(gpu_ms, data):
    import scipy.io
    from scipy.sparse import csgraph

    out = {}
    p = find_matrix(data, "nh2010")
    try:
        import cupyx.scipy.sparse as csp
        import cupyx.scipy.sparse.csgraph as ccg
    except Exception:  # noqa: BLE001 - CuPy's csgraph needs pylibcugraph
        ccg = None

    def cupy_components(key, M):
        """CuPy's connected_components of M under `key`, where CuPy has it and the case is wanted."""
        if ccg is None or not wanted(key):
            return
        try:
            Md = csp.csr_matrix(M)
            out[key] = gpu_ms(lambda: ccg.connected_components(Md))
        except Exception:  # noqa: BLE001 - e.g. pylibcugraph present but failing
            pass
    if p is not None and wanted("CC1", "BF1", "LP1", "CC1c"):
        A = scipy.io.mmread(p).tocsr().astype(np.float64)
        if wanted("CC1"):
            out["CC1"] = cpu_ms(lambda: csgraph.connected_components(A))
        if wanted("BF1"):
            out["BF1"] = cpu_ms(lambda: csgraph.breadth_first_order(A, 0))
        if wanted("LP1"):
            out["LP1"] = cpu_ms(lambda: csgraph.laplacian(A))
        cupy_components("CC1c", A)
    if wanted("CC2", "BF2", "CC3", "CC2c"):
        G = generated_graph(weight_1_to_16)
        if wanted("CC2"):
            out["CC2"] = cpu_ms(lambda: csgraph.connected_components(G), runs=3)
        if wanted("BF2"):
            out["BF2"] = cpu_ms(lambda: csgraph.breadth_first_order(G, 0), runs=3)
        if wanted("CC3"):
            out["CC3"] = cpu_ms(lambda: csgraph.connected_components(G, connection="strong"), runs=3)
        cupy_components("CC2c", G)
    return out


if __name__ == "__main__":
    import sys
    res = cupy_cases(lambda f, **k: float("nan"), sys.argv[1] if len(sys.argv) > 1 else None)
    for key, v in res.items():
        print(key, f"{v:.3f} ms")
