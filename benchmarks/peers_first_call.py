"""CuPy's first-call latency for the cases of benchmarks/bench_first_call.cpp: each case in a fresh Python
process with an empty kernel cache (CUPY_CACHE_DIR a new directory), timing the first call and the
second (wall time with a device synchronization). FC0 is the context creation (the first
cupy.cuda.runtime.free(0) after `import cupy`); FC1..FC7 exclude it and the import. FC6 (a runtime-compiled
generic_filter) has no like-for-like CuPy form here and is not reported."""
import os
import subprocess
import sys
import tempfile

CASE = r'''
import sys, time
import cupy as cp
t0 = time.perf_counter(); cp.cuda.runtime.free(0); ctx = (time.perf_counter() - t0) * 1e3
case = sys.argv[1]
if case == "FC0":
    print(ctx); sys.exit(0)
import cupyx.scipy.ndimage as nd, cupyx.scipy.sparse as csp, cupyx.scipy.signal as sg, scipy.signal
if case == "FC1":
    x = cp.random.default_rng(1).random((512, 512)).astype(cp.float32); f = lambda: nd.gaussian_filter(x, 2.0)
elif case == "FC2":
    k = 512; n = k * k
    A = csp.diags([-cp.ones(n - k), -cp.ones(n - 1), 4 * cp.ones(n), -cp.ones(n - 1), -cp.ones(n - k)],
                  [-k, -1, 0, 1, k], format="csr"); v = cp.ones(n); f = lambda: A @ v
elif case == "FC3":
    x = cp.ones(1 << 20, dtype=cp.complex128); f = lambda: cp.fft.fft(x)
elif case == "FC4":
    sos = cp.asarray(scipy.signal.butter(4, 0.1, output="sos")); x = cp.ones(1000000); f = lambda: sg.sosfilt(sos, x)
elif case == "FC5":
    x = cp.ones(1 << 24, dtype=cp.float32); f = lambda: cp.sum(x)
elif case == "FC7":
    x = cp.random.default_rng(1).random(1 << 20).astype(cp.float32); f = lambda: cp.sort(x)
cp.cuda.Device().synchronize()
def timed():
    t = time.perf_counter(); f(); cp.cuda.Device().synchronize(); return (time.perf_counter() - t) * 1e3
print(timed())
'''


def cupy_cases(gpu_ms, data):
    out = {}
    for case in ("FC0", "FC1", "FC2", "FC3", "FC4", "FC5", "FC7"):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, CUPY_CACHE_DIR=cache)
            r = subprocess.run([sys.executable, "-c", CASE, case], capture_output=True, text=True, env=env, timeout=300)
            if r.returncode == 0 and r.stdout.strip():
                out[case] = float(r.stdout.strip().splitlines()[-1])
            else:
                print(f"# peers_first_call {case} failed: {r.stderr[-300:]}", file=sys.stderr)
    return out
