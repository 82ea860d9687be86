"""CuPy's equivalents of bench_ndimage_interpolation.cu (ids NI1..NI5): the same calls of
cupyx.scipy.ndimage on inputs of the same shapes and dtypes (a 4096 x 4096 float32 image of uniform values,
the same warp field, uniformly random coordinates over the image). Only map_coordinates' gather pattern
depends on the values, and the coordinates are built the same way on both sides."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.ndimage as cndi

    out = {}
    n = 4096
    img = cp.random.RandomState(1).random_sample((n, n), dtype=cp.float32) + cp.float32(0.5)
    out["NI1"] = gpu_ms(lambda: cndi.zoom(img, 2.0, order=1), n_repeat=30, n_warmup=3)
    out["NI2"] = gpu_ms(lambda: cndi.zoom(img, 2.0, order=3), n_repeat=30, n_warmup=3)
    out["NI2.nopf"] = gpu_ms(lambda: cndi.zoom(img, 2.0, order=3, prefilter=False), n_repeat=30, n_warmup=3)
    out["NI3"] = gpu_ms(lambda: cndi.rotate(img, 30.0, order=1), n_repeat=30, n_warmup=3)
    i = cp.arange(n, dtype=cp.float64)
    two_pi = 6.283185307179586
    warp = cp.empty((2, n, n), dtype=cp.float64)
    warp[0] = i[:, None] + 3.0 * cp.sin(two_pi * i[None, :] / 512.0)
    warp[1] = i[None, :] + 3.0 * cp.cos(two_pi * i[:, None] / 512.0)
    out["NI4"] = gpu_ms(lambda: cndi.map_coordinates(img, warp, order=3), n_repeat=30, n_warmup=3)
    del warp
    rnd = cp.random.RandomState(2).random_sample((2, n * n)) * (n - 1)
    out["NI4.rand"] = gpu_ms(lambda: cndi.map_coordinates(img, rnd, order=3), n_repeat=30, n_warmup=3)
    del rnd
    out["NI5"] = gpu_ms(lambda: cndi.spline_filter(img, 3), n_repeat=30, n_warmup=3)
    out["NI5.ax0"] = gpu_ms(lambda: cndi.spline_filter1d(img, 3, axis=0), n_repeat=30, n_warmup=3)
    out["NI5.ax1"] = gpu_ms(lambda: cndi.spline_filter1d(img, 3, axis=1), n_repeat=30, n_warmup=3)
    return out
