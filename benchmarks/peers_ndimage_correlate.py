"""CuPy's equivalents of bench_ndimage_correlate.cu (ids NC1..NC3), on inputs of the same shapes and
dtypes (uniform values in [0, 1), uint8 in [0, 255)) and the same weights (1 / (k + 2) in C order).
cupyx.scipy.ndimage.correlate / convolve compile one elementwise kernel per weights shape; the first
call (warm-up) includes that compilation."""
import numpy as np


def _weights(shape):
    n = int(np.prod(shape))
    return (1.0 / (np.arange(n, dtype=np.float64) + 2)).reshape(shape)


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.ndimage as cnd

    out = {}
    rs = cp.random.RandomState(1)
    img = rs.random_sample((4096, 4096), dtype=cp.float32)
    w3 = cp.asarray(_weights((3, 3)))
    w5 = cp.asarray(_weights((5, 5)))
    out["NC1"] = gpu_ms(lambda: cnd.correlate(img, w3))
    out["NC2"] = gpu_ms(lambda: cnd.correlate(img, w5))
    out["NC1c"] = gpu_ms(lambda: cnd.convolve(img, w3))
    imgd = img.astype(cp.float64)
    out["NC1d"] = gpu_ms(lambda: cnd.correlate(imgd, w3))
    del imgd
    imgu = (img * 255).astype(cp.uint8)
    out["NC1u"] = gpu_ms(lambda: cnd.correlate(imgu, w3))
    del imgu, img
    vol = rs.random_sample((256, 256, 256), dtype=cp.float32)
    w333 = cp.asarray(_weights((3, 3, 3)))
    out["NC3"] = gpu_ms(lambda: cnd.correlate(vol, w333))
    return out
