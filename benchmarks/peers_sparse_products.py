"""CuPy's equivalents of benchmarks/bench_sparse_products.cu (same matrices and dtypes). SP3 also
reports CuPy's peak pool memory during one A @ A (a CuPy MemoryHook summing live allocations) as
SP3-peak_bytes (the value, not a time)."""
import os


def _poisson(k, d, dtype):
    import cupyx.scipy.sparse as csp
    import cupy as cp
    one = csp.diags([-cp.ones(k - 1), 2 * cp.ones(k), -cp.ones(k - 1)], [-1, 0, 1], format="csr", dtype=dtype)
    eye = csp.identity(k, format="csr", dtype=dtype)
    if d == 2:
        A = csp.kron(eye, one) + csp.kron(one, eye)
    else:
        A = csp.kron(eye, csp.kron(eye, one)) + csp.kron(eye, csp.kron(one, eye)) + csp.kron(one, csp.kron(eye, eye))
    A = A.tocsr()
    A.sum_duplicates()
    return A


def _find(data, name):
    # The same places the benchmark program looks (it is given the matrices' paths; compare_cupy.py
    # passes only its --data folder here): the data folder, the repository's .gpurun/data and
    # examples/data (relative to the working directory and to this file's repository), the shared
    # matrices folder.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = [data, ".gpurun/data", "examples/data", "../shared/data/matrices"]
    dirs += [os.path.join(root, d) for d in (".gpurun/data", "examples/data", "../shared/data/matrices")]
    for d in dirs:
        for p in (os.path.join(d, name + ".mtx"), os.path.join(d, name + ".mtx.gz")):
            if os.path.exists(p):
                return p
    return None


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.sparse as csp
    import scipy.io

    out = {}
    for key, dt in (("SP1", cp.float64), ("SP1s", cp.float32)):
        A = _poisson(256, 3, dt)
        x = cp.ones(A.shape[1], dtype=dt)
        out[key] = gpu_ms(lambda: A @ x)
        del A, x
    for m in ("bcsstk16", "cage10", "nh2010"):
        p = _find(data, m)
        if p is None:
            continue
        A = csp.csr_matrix(scipy.io.mmread(p).tocsr().astype("float64"))
        x = cp.ones(A.shape[1])
        out["SP2-" + m] = gpu_ms(lambda: A @ x)
    A = _poisson(2048, 2, cp.float64)

    class Peak(cp.cuda.MemoryHook):
        name = "peak"

        def __init__(self):
            self.live = 0
            self.peak = 0

        def malloc_postprocess(self, device_id, size, mem_size, mem_ptr, pmem_id):
            self.live += mem_size
            self.peak = max(self.peak, self.live)

        def free_postprocess(self, device_id, mem_size, mem_ptr, pmem_id):
            self.live -= mem_size

    h = Peak()
    with h:
        C = A @ A
        cp.cuda.Device().synchronize()
        del C
    out["SP3-peak_bytes"] = float(h.peak)
    out["SP3"] = gpu_ms(lambda: A @ A, n_repeat=10, n_warmup=2)
    out["SP5"] = gpu_ms(lambda: A.sum(axis=0))
    del A
    A = _poisson(128, 3, cp.float64)
    X = cp.ones((A.shape[1], 8))
    out["SP4"] = gpu_ms(lambda: A @ X)
    Xb = cp.ones((8, A.shape[1]))
    out["SP4b"] = gpu_ms(lambda: (A @ Xb.T).T)
    del X, Xb
    for key, k in (("SP4c", 40), ("SP4d", 128)):
        X = cp.ones((A.shape[1], k))
        out[key] = gpu_ms(lambda: A @ X)
        del X
    return out
