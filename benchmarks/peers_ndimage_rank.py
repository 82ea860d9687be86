"""CuPy's equivalents of bench_ndimage_rank.cu (ids N2.s3/5/7, N2b.s3/5/7, N2v of the CuPy H200
baseline): cupyx.scipy.ndimage.median_filter on inputs of the same shape, dtype and distribution
(uniform float32 in [0, 1), uniform uint8). CuPy's median filter sorts each window, so its time
depends on the window size, not on the values."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.ndimage as cnd

    out = {}
    rs = cp.random.RandomState(1)
    img = rs.random_sample((4096, 4096), dtype=cp.float32)
    for size in (3, 5, 7):
        out[f"N2.s{size}"] = gpu_ms(lambda: cnd.median_filter(img, size))
    img8 = rs.randint(0, 256, size=(4096, 4096), dtype=cp.int32).astype(cp.uint8)
    for size in (3, 5, 7):
        out[f"N2b.s{size}"] = gpu_ms(lambda: cnd.median_filter(img8, size))
    del img, img8
    vol = rs.random_sample((512, 512, 512), dtype=cp.float32)
    out["N2v"] = gpu_ms(lambda: cnd.median_filter(vol, 3), n_repeat=20)
    return out
