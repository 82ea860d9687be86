"""CuPy's equivalents of bench_signal_responses.cu (ids FR1, FR2, FR3): cupyx.scipy.signal.freqz and
freqz_sos on the same filters and grids (float64 coefficients, 2^20 points). FR1: the 64 FIR filters
in SciPy's N-D b form [101, 64, 1] in one call where CuPy takes it, else a loop of 64 calls (noted in
the output)."""
import sys


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import numpy as np
    import scipy.signal as ss
    import cupyx.scipy.signal as csig

    out = {}
    n = 1 << 20
    K, ntaps = 64, 101
    bank = np.stack([ss.firwin(ntaps, 0.01 + 0.94 * k / (K - 1)) for k in range(K)], axis=1)[:, :, None]
    b = cp.asarray(bank)
    try:
        _, h = csig.freqz(b, worN=n)
        if h.shape != (K, n):
            raise ValueError(f"shape {h.shape}")
        out["FR1"] = gpu_ms(lambda: csig.freqz(b, worN=n), n_repeat=10)
    except Exception as e:  # CuPy without N-D b: one call per filter
        print(f"# FR1: cupyx freqz does not batch ({e!r}); timing a loop of {K} calls", file=sys.stderr)
        cols = [cp.asarray(bank[:, k, 0]) for k in range(K)]
        out["FR1"] = gpu_ms(lambda: [csig.freqz(c, worN=n) for c in cols], n_repeat=5)
    del b
    bi, ai = (cp.asarray(v) for v in ss.butter(8, 0.2))
    out["FR2"] = gpu_ms(lambda: csig.freqz(bi, ai, worN=n))
    sos = cp.asarray(ss.butter(16, 0.2, output="sos"))
    fz = getattr(csig, "freqz_sos", None) or csig.sosfreqz
    out["FR3"] = gpu_ms(lambda: fz(sos, worN=n))
    return out
