"""Peers of benchmarks/bench_fftlog.cu: SciPy 1.18.1's scipy.fft.fht / ifht on the CPU of the same machine
(median wall time of 5 calls after one warm-up call, time.perf_counter) for the same cases under the same
ids, FH1 - FH5; the target is FH1 at least 10x faster in cusci. Further rows:
  FH1-mt     FH1 with scipy.fft.set_workers(os.cpu_count()) (SciPy's FFTs multi-threaded; its
             coefficients, scipy.special.loggamma over n // 2 + 1 points, stay single-threaded)
  FH<k>-cupy CuPy's cupyx.scipy.fft.fht / ifht on the GPU (median GPU time of compare_cupy's gpu_ms),
             where it imports and runs.
Inputs: np.random.default_rng(0), uniform in [0, 1), the shapes and dtypes of bench_fftlog.cu (cusci draws
its values with its own generator: the transform takes no data-dependent path). FH2's dln is 1e-5 (see
bench_fftlog.cu: with dln = 0.01 the bias's power law overflows float64 for 2^24 points).
Run alone: python3 benchmarks/peers_fftlog.py (prints the SciPy times; CuPy rows where CuPy imports)."""
import os
import time

import numpy as np

N = 1 << 24
DLN, MU = 0.01, 0.5
DLN2, BIAS = 1e-5, 0.3


def cpu_ms(fn, runs=5):
    """Median wall time of `runs` calls of fn in ms, after one untimed call."""
    fn()
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts) * 1e3)


def cases(xp, fht, ifht, fhtoffset):
    """(id, zero-argument callable) for the five cases on arrays of namespace xp."""
    rng = np.random.default_rng(0)
    x = xp.asarray(rng.random(N))
    b = xp.asarray(rng.random((16, 1 << 20)))
    x32 = xp.asarray(rng.random(N, dtype=np.float32))
    offset = float(fhtoffset(DLN2, MU, bias=BIAS))
    return [
        ("FH1", lambda: fht(x, DLN, MU)),
        ("FH2", lambda: fht(x, DLN2, MU, offset=offset, bias=BIAS)),
        ("FH3", lambda: ifht(x, DLN, MU)),
        ("FH4", lambda: fht(b, DLN, MU)),
        ("FH5", lambda: fht(x32, DLN, MU)),
    ]


def cupy_cases(gpu_ms, data):
    import scipy.fft as sf

    out = {}
    scipy_cases = cases(np, sf.fht, sf.ifht, sf.fhtoffset)
    for key, fn in scipy_cases:
        out[key] = cpu_ms(fn)
    with sf.set_workers(os.cpu_count() or 1):
        out["FH1-mt"] = cpu_ms(scipy_cases[0][1])
    del scipy_cases
    try:
        import cupy as cp
        import cupyx.scipy.fft as cfft

        cupy_fns = cases(cp, cfft.fht, cfft.ifht, sf.fhtoffset)  # the offset is a host scalar
    except Exception:  # noqa: BLE001 - no CuPy, or a CuPy without fht
        return out
    for key, fn in cupy_fns:
        try:
            out[f"{key}-cupy"] = gpu_ms(fn, n_repeat=10, n_warmup=2)
        except Exception:  # noqa: BLE001 - one case's failure must not lose the others
            pass
    return out


if __name__ == "__main__":
    import sys

    def no_gpu(fn, **kw):
        return float("nan")

    res = cupy_cases(no_gpu, sys.argv[1] if len(sys.argv) > 1 else None)
    for key, v in res.items():
        print(key, f"{v:.3f} ms")
