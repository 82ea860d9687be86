"""CuPy's equivalents of bench_ndimage_derivatives.cu (ids ND1..ND6): the same filters on a 4096 x 4096
float32 image of uniform values in [0, 1) (the times do not depend on the values)."""


def cupy_cases(gpu_ms, data):
    import cupy as cp
    import cupyx.scipy.ndimage as cndi

    out = {}
    img = cp.random.RandomState(1).random_sample((4096, 4096), dtype=cp.float32)
    out["ND1"] = gpu_ms(lambda: cndi.sobel(img))
    out["ND1.ax0"] = gpu_ms(lambda: cndi.sobel(img, 0))
    out["ND6"] = gpu_ms(lambda: cndi.prewitt(img))
    out["ND2"] = gpu_ms(lambda: cndi.gaussian_gradient_magnitude(img, 2.0))
    out["ND3"] = gpu_ms(lambda: cndi.laplace(img))
    out["ND4"] = gpu_ms(lambda: cndi.gaussian_laplace(img, 2.0))
    out["ND5"] = gpu_ms(lambda: cndi.generic_gradient_magnitude(img, cndi.sobel))
    return out
