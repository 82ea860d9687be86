"""CuPy's equivalents of bench_signal_lti.cu (ids DL1, DL1x, DL1s, DL2, DL3, DL4): cupyx.scipy.signal.dlsim
on the same systems (block-diagonal rotation-scalings, B, C, D from the same patterns) and inputs of the
same shape and dtype (uniform float64 in [0, 1)).

CuPy's dlsim is SciPy's Python loop on the device (a few kernel launches per sample), so only DL1s
(2 * 10^4 samples) and a 2 * 10^4-sample run of DL3's system are timed; the others are linear
extrapolations (the loop's cost per sample does not depend on the length): DL1 and DL1x (10^7 samples)
are DL1s x 500, DL2 (64 systems of 2^20 samples) DL1s x 64 * 2^20 / (2 * 10^4), DL4 (4096 systems of
4096 samples) DL1s x 4096^2 / (2 * 10^4), DL3 (10^7 samples) its short run x 500. Timing them directly
would take hours."""
import math


def make_system(cp, radii, angles, m, p):
    n = 2 * len(radii)
    A = cp.zeros((n, n))
    for k, (r, a) in enumerate(zip(radii, angles)):
        c, s = r * math.cos(a), r * math.sin(a)
        A[2 * k:2 * k + 2, 2 * k:2 * k + 2] = cp.asarray([[c, -s], [s, c]])
    B = cp.asarray([1.0 / (1 + i) - 0.3 for i in range(n * m)]).reshape(n, m)
    C = cp.asarray([0.5 - 0.25 * (i % 4) for i in range(p * n)]).reshape(p, n)
    D = cp.asarray([0.1 * (i + 1) for i in range(p * m)]).reshape(p, m)
    return A, B, C, D


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.signal as csig

    out = {}
    rs = cp.random.RandomState(1)
    Ns = 20000
    A, B, C, D = make_system(cp, [0.95, 0.9], [0.3, 1.1], 1, 1)
    us = rs.random_sample((Ns, 1))
    short = gpu_ms(lambda: csig.dlsim((A, B, C, D, 1.0), us), n_repeat=3, n_warmup=1)
    out["DL1s"] = short
    out["DL1"] = short * (10**7 / Ns)
    out["DL1x"] = out["DL1"]  # CuPy's loop always builds the state trajectory
    out["DL2"] = short * (64 * (1 << 20) / Ns)
    A8, B8, C8, D8 = make_system(cp, [0.95, 0.9, 0.97, 0.85], [0.3, 1.1, 0.7, 2.0], 2, 2)
    u8 = rs.random_sample((Ns, 2))
    out["DL3"] = gpu_ms(lambda: csig.dlsim((A8, B8, C8, D8, 1.0), u8), n_repeat=3, n_warmup=1) * (10**7 / Ns)
    out["DL4"] = short * (4096 * 4096 / Ns)
    return out
