#!/usr/bin/env python
"""Golden data for the fast float32/float64 paths of cusci::ndimage's correlation passes: lines of
at least 32 along the contiguous axis (row kernel: segments of 256/2048 outputs, halos, the last
partial segment, rows whose length is not a multiple of the vector width) and passes along
non-contiguous axes (column kernel: segment splits, every mode, origins, 1..64 taps, lines shorter
than the filter). Same case format as gen_ndimage.py, computed at build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage_fast.py --out <build>/tests/golden --data examples/data
"""
import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol as shared_tol
from ndimage_inputs import view

s = Suite("ndimage_fast")
rng = s.rng(20261207)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap"]
# id(array) -> (stored name, array): cases on one array share its input. The array is kept in the
# entry so that its id stays unique while the generator runs.
inputs = {}


def tol(dt, scale):
    # Sums of up to 64 terms accumulated in the array's precision with fused multiply-adds.
    return shared_tol(dt, scale=scale)


def add(case, func, a, layout="C", axis=-1, weights=None, sigma=None, order=0, mode="reflect", cval=0.0,
        origin=0, truncate=4.0, radius=None):
    x = view(a, layout)
    if func == "correlate1d":
        r = ndi.correlate1d(x, weights, axis=axis, mode=mode, cval=cval, origin=origin)
    elif func == "convolve1d":
        r = ndi.convolve1d(x, weights, axis=axis, mode=mode, cval=cval, origin=origin)
    elif func == "gaussian_filter1d":
        r = ndi.gaussian_filter1d(x, sigma, axis=axis, order=order, mode=mode, cval=cval, truncate=truncate,
                                  radius=radius)
    else:
        r = ndi.gaussian_filter(x, sigma, order=order, mode=mode, cval=cval, truncate=truncate, radius=radius)
    rtol, atol = tol(r.dtype, max(float(np.max(np.abs(r))), 1.0))
    if id(a) not in inputs:
        inputs[id(a)] = (s.array(case + "_in", a), a)
    s.case(case, func, rtol=rtol, atol=atol, input=inputs[id(a)][0], expected=s.array(case + "_out", r),
           layout=layout, axis=axis, weights=None if weights is None else [float(v) for v in weights],
           sigma=sigma, order=order, mode=mode, cval=cval, origin=origin, truncate=truncate, radius=radius)


def data(shape, dt):
    return (rng.standard_normal(shape) * 10).astype(dt)


# Row kernel, every mode, origins at both ends and the centre, odd row length (rows 1.. misaligned
# for 16-byte stores), float32 (8 outputs a thread) and float64 (4 outputs a thread).
for dt, shape in (("float32", (3, 259)), ("float64", (2, 131))):
    a = data(shape, dt)
    w = rng.standard_normal(5)
    for mode in MODES:
        for origin in (-2, 0, 2):
            add(f"rows_{dt}_{mode}_o{origin}", "correlate1d", a, weights=w, mode=mode, cval=1.5, origin=origin)
    # Even length, convolution.
    add(f"rows_{dt}_conv_K4", "convolve1d", a, weights=rng.standard_normal(4), mode="wrap", origin=-1)

# Aligned rows (vector stores), several segments plus a partial one, gaussian kernel of 17 taps.
a = data((2, 4096 + 2048 + 40), "float32")
add("rows_f32_long_gauss", "gaussian_filter1d", a, sigma=2.0, mode="nearest")
a = data((4, 256), "float32")
add("rows_f32_256_gauss", "gaussian_filter1d", a, sigma=1.5, mode="mirror")
a = data((2, 1024 + 7), "float64")
add("rows_f64_long_gauss_deriv", "gaussian_filter1d", a, sigma=3.0, order=1, mode="reflect")

# Tap-count buckets (8/16/24/32/64 for float32, up to 32 for float64) and the limits.
for dt, ks in (("float32", (1, 8, 9, 16, 23, 24, 25, 33, 63, 64)), ("float64", (2, 8, 17, 24, 31, 32))):
    a2 = data((3, 300), dt)
    a3 = data((3, 70, 9), dt)
    for K in ks:
        w = rng.standard_normal(K)
        lo, hi = -(K // 2), (K - 1) // 2
        add(f"taps_rows_{dt}_K{K}", "correlate1d", a2, weights=w, mode="reflect", origin=hi)
        add(f"taps_cols_{dt}_K{K}", "correlate1d", a3, axis=1, weights=w, mode="mirror", origin=lo)

# Lines shorter than the filter (but >= 32 on the row kernel): every mode.
for dt in ("float32", "float64"):
    K = 63 if dt == "float32" else 31
    a2 = data((2, 33), dt)
    a3 = data((7, 33), dt)
    w = rng.standard_normal(K)
    for mode in MODES:
        add(f"short_rows_{dt}_{mode}", "correlate1d", a2, weights=w, mode=mode, cval=-2.0, origin=1)
        add(f"short_cols_{dt}_{mode}", "correlate1d", a3, axis=0, weights=w, mode=mode, cval=-2.0, origin=-1)

# Column kernel: every mode, origins, 3-D axes 0 and 1, and split into several segments.
for dt in ("float32", "float64"):
    a = data((4, 20, 33), dt)  # inner 33: one full warp and a partial one
    w = rng.standard_normal(7)
    for mode in MODES:
        for origin in (-3, 3):
            add(f"cols_{dt}_{mode}_o{origin}_ax0", "correlate1d", a, axis=0, weights=w, mode=mode, cval=0.5,
                origin=origin)
        add(f"cols_{dt}_{mode}_ax1", "correlate1d", a, axis=1, weights=w, mode=mode, cval=0.5)
    a = data((300, 33), dt)  # few columns: the axis is split into segments
    add(f"cols_{dt}_segments", "gaussian_filter1d", a, axis=0, sigma=2.0, mode="reflect")

# Whole filters over layouts (F goes through the transposed view; step2/rev through the generic
# row kernel and the column kernel with non-unit strides).
for dt in ("float32", "float64"):
    a = data((45, 70), dt)
    for layout in ("C", "F", "step2", "rev"):
        add(f"gf_{dt}_{layout}", "gaussian_filter", a, layout=layout, sigma=2.0, mode="reflect")
    a = data((7, 33, 34), dt)
    add(f"gf3_{dt}", "gaussian_filter", a, sigma=1.3, mode="constant", cval=0.0)

# Fused 2-D kernel (gaussian_filter on 2-D float arrays: axis-0 pass then axis-1 pass in one
# kernel, tiles of 64 x 128 (float32) / 32 x 64 (float64) outputs). Every mode on a small array
# (all four edges in one tile), mixed per-axis modes (constant on one axis only: the intermediate is
# extended with cval, not filtered), derivative orders with constant mode (the order of the passes
# matters), arrays a little larger than one tile each way with an odd width (misaligned rows),
# lines shorter than the filter, and a strided (sliced) input.
for dt in ("float32", "float64"):
    a = data((20, 37), dt)
    for mode in MODES:
        add(f"fused_{dt}_{mode}", "gaussian_filter", a, sigma=1.5, mode=mode, cval=2.5)
    add(f"fused_{dt}_mixed_cr", "gaussian_filter", a, sigma=[2.0, 1.0], order=[1, 0], mode=["constant", "reflect"],
        cval=-3.0)
    add(f"fused_{dt}_mixed_wc", "gaussian_filter", a, sigma=[1.0, 2.5], order=[0, 2], mode=["wrap", "constant"],
        cval=4.0)
    big = data((67, 131) if dt == "float32" else (35, 67), dt)
    add(f"fused_{dt}_tiles_reflect", "gaussian_filter", big, sigma=2.0, mode="reflect")
    add(f"fused_{dt}_tiles_constant_deriv", "gaussian_filter", big, sigma=[1.2, 3.0], order=[1, 1],
        mode="constant", cval=1.0)
    add(f"fused_{dt}_tiles_step2", "gaussian_filter", big, layout="step2", sigma=1.0, mode="mirror")
    small = data((3, 5), dt)
    add(f"fused_{dt}_short_nearest", "gaussian_filter", small, sigma=3.0, mode="nearest")
    add(f"fused_{dt}_short_grid-wrap", "gaussian_filter", small, sigma=[2.0, 3.5], mode="grid-wrap")

s.write()
