"""Golden data for cusci::rtc (runtime-compiled elementwise and reduction kernels), NumPy 2.5 semantics.

Writes tests/golden/data/core_rtc/*.npy and MANIFEST.tsv. Seeded; rerunning gives identical files.
Run: /opt/goldenv/bin/python tests/golden/gen_core_rtc.py

Cases (the kernels' operations written in NumPy):
  ew_<dt>_x, ew_<dt>_y, ew_<dt>_z     z = x * y + x with x [5, 7], y [7] broadcast (CuPy's 'T x, T y' -> 'T z')
  axpy_<dt>_x, axpy_<dt>_y, axpy_<dt>_z  z = a * x + y, a = 2.5 (a weak scalar bound to T), x, y [33]
  strided_x [6, 8] float64; strided_z = 3 * x[::2, 1::3] + 1 (view input)
  red_<axis>_<keep>_sumsq / _max   over x [4, 5, 6] float32: sum(x*x) and max(x) with axis and keepdims
  red_big_sumsq, red_big_max: x[i] = ((i * 7919) % 1001 - 500) / 256, i < 1048579 (built by the test):
                               a reduction split over many blocks
  red_cols_x [3000, 40] float32 and red_cols_sumsq: axis 0 (the kept axis is contiguous)
"""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "data", "core_rtc")
rng = np.random.default_rng(20261201)
rows = []


def save(name, arr, rtol=0.0, atol=0.0):
    # np.array, not np.ascontiguousarray: the latter returns at least 1-D, turning a 0-d result
    # (a full reduction without keepdims) into shape (1,).
    np.save(os.path.join(OUT, name + ".npy"), np.array(arr, order="C", copy=True))
    rows.append((name, rtol, atol, str(arr.dtype), "x".join(map(str, arr.shape))))


def values(dt, shape):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-50 if dt.kind == "i" else 0, 50, size=shape).astype(dt)
    return rng.uniform(-2, 2, size=shape).astype(dt)


def main():
    os.makedirs(OUT, exist_ok=True)
    tol = {"int32": (0, 0), "float32": (1e-6, 1e-6), "float64": (1e-14, 1e-14), "complex128": (1e-14, 1e-14),
           "float16": (1e-3, 1e-3)}
    for dt in ["int32", "float32", "float64", "complex128", "float16"]:
        x, y = values(dt, (5, 7)), values(dt, (7,))
        z = x * y + x  # NumPy computes float16 through float32 per operation and rounds each step
        save(f"ew_{dt}_x", x)
        save(f"ew_{dt}_y", y)
        save(f"ew_{dt}_z", z, *tol[dt])
    for dt in ["float32", "float64", "complex128"]:
        x, y = values(dt, (33,)), values(dt, (33,))
        z = (np.asarray(2.5, dtype=dt) * x + y).astype(dt)
        save(f"axpy_{dt}_x", x)
        save(f"axpy_{dt}_y", y)
        save(f"axpy_{dt}_z", z, *tol[dt])
    x = values("float64", (6, 8))
    save("strided_x", x)
    save("strided_z", 3.0 * x[::2, 1::3] + 1.0, 1e-15, 1e-15)
    x = values("float32", (4, 5, 6))
    save("red_x", x)
    for name, axis in [("none", None), ("0", 0), ("1", 1), ("m1", -1), ("02", (0, 2))]:
        for keep in [False, True]:
            k = "k" if keep else "n"
            s = np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=keep).astype(np.float32)
            save(f"red_{name}_{k}_sumsq", np.asarray(s), 1e-5, 1e-5)
            save(f"red_{name}_{k}_max", np.asarray(np.max(x, axis=axis, keepdims=keep)))
    # not stored: the test builds the same values, x[i] = ((i * 7919) % 1001 - 500) / 256 (exact)
    i = np.arange(1048579, dtype=np.int64)
    big = ((i * 7919) % 1001 - 500).astype(np.float64) / 256.0
    save("red_big_sumsq", np.asarray(np.sum(big * big)), 1e-12, 0.0)
    save("red_big_max", np.asarray(np.max(big)))
    cols = values("float32", (3000, 40))
    save("red_cols_x", cols)
    save("red_cols_sumsq", np.sum(cols.astype(np.float64) ** 2, axis=0).astype(np.float32), 1e-5, 1e-5)
    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
        f.write("case\trtol\tatol\tdtype\tshape\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")


if __name__ == "__main__":
    main()
