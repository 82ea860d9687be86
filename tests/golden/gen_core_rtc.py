"""Reference data for cusci::rtc (runtime-compiled elementwise and reduction kernels), NumPy 2.5
semantics. Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/core_rtc/.

Cases (the kernels' operations written in NumPy); each case is named after its expected array and
gives x (and y), expected and the expected shape (a 0-d result is stored as shape (1,)):
  ew_<dt>_z      func elementwise: z = x * y + x with x [5, 7], y [7] broadcast (CuPy's 'T x, T y' -> 'T z')
  axpy_<dt>_z    func axpy: z = a * x + y, a = 2.5 (a weak scalar bound to T), x, y [33]
  strided_z      func strided: 3 * x[::2, 1::3] + 1 (view input) with x strided_x [6, 8] float64
  red_<axis>_<keep>_sumsq / _max   func reduce_sumsq / reduce_max over x [4, 5, 6] float32:
                 sum(x*x) and max(x) with axis and keepdims
  red_big_sumsq, red_big_max: x[i] = ((i * 7919) % 1001 - 500) / 256, i < 1048579 (built by the test):
                 a reduction split over many blocks
  red_cols_sumsq: axis 0 of red_cols_x [3000, 40] float32 (the kept axis is contiguous)
"""
import numpy as np

from golden import Suite

s = Suite("core_rtc")
rng = s.rng(20261201)

# Kernel tolerances per result dtype: tighter than the shared tol() (the kernels do one or two
# operations in the result dtype).
TOL = {"int32": (0, 0), "float32": (1e-6, 1e-6), "float64": (1e-14, 1e-14), "complex128": (1e-14, 1e-14),
       "float16": (1e-3, 1e-3)}


def values(dt, shape):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-50 if dt.kind == "i" else 0, 50, size=shape).astype(dt)
    return rng.uniform(-2, 2, size=shape).astype(dt)


def result(name, func, z, rtol=0.0, atol=0.0, **params):
    z = np.asarray(z)
    s.case(name, func=func, rtol=rtol, atol=atol, expected=s.array(name, z), dtype=z.dtype.name,
           shape=list(z.shape), **params)


s.group("elementwise")
for dt in ["int32", "float32", "float64", "complex128", "float16"]:
    x, y = values(dt, (5, 7)), values(dt, (7,))
    z = x * y + x  # NumPy computes float16 through float32 per operation and rounds each step
    result(f"ew_{dt}_z", "elementwise", z, *TOL[dt], x=s.array(f"ew_{dt}_x", x), y=s.array(f"ew_{dt}_y", y))
for dt in ["float32", "float64", "complex128"]:
    x, y = values(dt, (33,)), values(dt, (33,))
    z = (np.asarray(2.5, dtype=dt) * x + y).astype(dt)
    result(f"axpy_{dt}_z", "axpy", z, *TOL[dt], a=2.5, x=s.array(f"axpy_{dt}_x", x), y=s.array(f"axpy_{dt}_y", y))
x = values("float64", (6, 8))
result("strided_z", "strided", 3.0 * x[::2, 1::3] + 1.0, 1e-15, 1e-15, x=s.array("strided_x", x))

s.group("reduction")
x = values("float32", (4, 5, 6))
s.array("red_x", x)
for name, axis in [("none", None), ("0", 0), ("1", 1), ("m1", -1), ("02", (0, 2))]:
    for keep in [False, True]:
        k = "k" if keep else "n"
        sq = np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=keep).astype(np.float32)
        result(f"red_{name}_{k}_sumsq", "reduce_sumsq", sq, 1e-5, 1e-5, x="red_x", axis=axis, keepdims=keep)
        result(f"red_{name}_{k}_max", "reduce_max", np.max(x, axis=axis, keepdims=keep), x="red_x", axis=axis,
               keepdims=keep)
# x not stored: the test builds the same values, x[i] = ((i * 7919) % 1001 - 500) / 256 (exact)
i = np.arange(1048579, dtype=np.int64)
big = ((i * 7919) % 1001 - 500).astype(np.float64) / 256.0
result("red_big_sumsq", "reduce_sumsq", np.sum(big * big), 1e-12, 0.0, x=None, axis=None, keepdims=False)
result("red_big_max", "reduce_max", np.max(big), x=None, axis=None, keepdims=False)
cols = values("float32", (3000, 40))
result("red_cols_sumsq", "reduce_sumsq", np.sum(cols.astype(np.float64) ** 2, axis=0).astype(np.float32), 1e-5,
       1e-5, x=s.array("red_cols_x", cols), axis=0, keepdims=False)
s.write()
