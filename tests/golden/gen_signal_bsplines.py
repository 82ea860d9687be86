"""Reference data for cusci::signal's bsplines family, from SciPy 1.18.1 (format: golden.py).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/signal_bsplines/.

Every case calls one function with the stored input(s) and SciPy's other arguments; expected is
SciPy's result, or error names the cusci exception SciPy's exception maps to (ValueError ->
value_error, TypeError -> type_error, IndexError / AxisError -> index_error). Arrays are named
<case>_<what>.
  symiirorder1   x, c0 (complex as [re, im]), z1, precision, layout (C | F | strided: x holds the
                 parent, the input is x[..., ::2])
  symiirorder2   x, r, omega, precision, layout
  cspline1d      x, lamb          qspline1d  x, lamb
  cspline2d      x, lamb, precision, layout       qspline2d  likewise
  spline_filter  x, lmbda, layout
  sepfir2d       x, hrow, hcol, layout
  gauss_spline   x, n
  cspline1d_eval cj, newx, dx, x0      qspline1d_eval  likewise
Tolerances: float32 / complex64 results 1e-4 of their scale (recursions of thousands of steps
round differently from SciPy's loops), float64 1e-10.
Cases where cusci documents a deviation (SciPy reading outside the image in sepfir2d, recursion
errors of the *_eval functions, a complex z1 with real input) are not generated; symiirorder1's F and
strided inputs are compared with SciPy's answer for the same values in C order (SciPy's C helper
reads a non-contiguous input as if it were C-contiguous).
"""
import numpy as np
import scipy.signal as ss

from golden import Suite, tol

s = Suite("signal_bsplines")
rng = s.rng(20261202)


def err_kind(e):
    if isinstance(e, IndexError):  # numpy's AxisError is both IndexError and ValueError
        return "index_error"
    if isinstance(e, (ValueError, ZeroDivisionError)):
        return "value_error"
    if isinstance(e, TypeError):
        return "type_error"
    if isinstance(e, RecursionError):
        return "runtime_error"
    raise e


def data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-20 if dt.kind == "i" else 0, 20, size=shape).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.standard_normal(shape).astype(dt)


def laid_out(name, x, layout):
    """Stores the parent array; returns the view SciPy sees."""
    if layout == "strided":
        parent = np.repeat(x, 2, axis=-1) if x.ndim else x
        parent[..., 1::2] = 0
        s.array(name, parent)
        return parent[..., ::2]
    s.array(name, x)
    if layout == "F":
        return np.asfortranarray(x)
    return x


def add(name, func, call, arrays, rtol32=1e-4, rtol64=1e-10, **params):
    """Runs `call()` (SciPy); stores the expected result or the error kind."""
    try:
        r = np.asarray(call())
    except Exception as e:  # noqa: BLE001 - every SciPy exception is mapped or re-raised
        s.case(name, func=func, error=err_kind(e), **arrays, **params)
        return
    finite = np.isfinite(r)
    scale = float(np.abs(r[finite]).max()) if finite.any() else 1.0
    rt, at = tol(r.dtype, scale=scale, rtol32=rtol32, rtol64=rtol64)
    s.case(name, func=func, rtol=rt, atol=at, expected=s.array(name + "_expected", r), **arrays, **params)


# ------------------------------------------------------------------------------------ symiirorder1
s.group("symiirorder1")
sym1 = []
for dt in ["float32", "float64", "complex64", "complex128", "int64"]:
    for shape in [(40,), (3, 120), (1000,), (8, 257), (1, 40), (0, 30)]:
        sym1.append((dt, shape, 0.5, 0.3, -1.0, "C"))
    sym1.append((dt, (5, 200), 1.2, -0.6, 1e-4, "F"))
    sym1.append((dt, (4, 301), 0.8, 0.9, 1e-3, "strided"))
    sym1.append((dt, (300,), 2.0, 0.1, 0.5, "C"))
    sym1.append((dt, (300,), 2.0, 0.1, 1e-9, "C"))
for dt in ["complex64", "complex128"]:
    sym1.append((dt, (2, 150), 0.5 + 0.2j, 0.3 - 0.4j, -1.0, "C"))
    sym1.append((dt, (600,), 1.0 - 1.0j, 0.2 + 0.5j, 1e-5, "strided"))
for i, (dt, shape, c0, z1, prec, layout) in enumerate(sym1):
    name = f"sym1_{i}"
    x = laid_out(name + "_x", data(shape, dt), layout)
    # SciPy's C helper reads a non-contiguous input as if it were C-contiguous (its initial sum then
    # takes other samples); cusci's answer is SciPy's on the same values in C order.
    add(name, "symiirorder1", lambda: ss.symiirorder1(np.ascontiguousarray(x), c0, z1, prec), dict(x=name + "_x"),
        c0=complex(c0), z1=complex(z1), precision=prec, layout=layout)
# errors
for i, (shape, dt, c0, z1) in enumerate([((40,), "float64", 0.5, 1.0), ((40,), "float64", 0.5, -1.2),
                                          ((3, 4, 40), "float64", 0.5, 0.3), ((), "float64", 0.5, 0.3),
                                          ((5,), "float64", 0.5, 0.3), ((0,), "float64", 0.5, 0.3),
                                          ((3, 0), "float32", 0.5, 0.3), ((40,), "float64", 0.5 + 1j, 0.3),
                                          ((12,), "float64", 0.5, 0.1), ((12,), "float32", 0.5, 0.1)]):
    name = f"sym1_err_{i}"
    x = s.array(name + "_x", data(shape, dt))
    xv = np.asarray(s._groups[s._group][x])
    add(name, "symiirorder1", lambda: ss.symiirorder1(xv, c0, z1), dict(x=x), c0=complex(c0), z1=complex(z1),
        precision=-1.0, layout="C")

# ------------------------------------------------------------------------------------ symiirorder2
s.group("symiirorder2")
sym2 = []
for dt in ["float32", "float64", "int32"]:
    for shape in [(60,), (3, 200), (1000,), (8, 257)]:
        sym2.append((dt, shape, 0.5, 0.4, -1.0, "C"))
    sym2.append((dt, (5, 300), 0.7, 0.0, 1e-3, "F"))
    sym2.append((dt, (300,), 0.6, np.pi, 1e-3, "strided"))
    sym2.append((dt, (2, 300), -0.5, 1.1, -1.0, "C"))
    sym2.append((dt, (400,), 0.8, 2.0, 1e-4, "C"))
    sym2.append((dt, (200,), 0.3, 0.5, 0.9, "C"))
for i, (dt, shape, r, om, prec, layout) in enumerate(sym2):
    name = f"sym2_{i}"
    x = laid_out(name + "_x", data(shape, dt), layout)
    add(name, "symiirorder2", lambda: ss.symiirorder2(x, r, om, prec), dict(x=name + "_x"), r=r, omega=om,
        precision=prec, layout=layout)
for i, (shape, dt, r, om) in enumerate([((40,), "float64", 1.0, 0.3), ((3, 4, 40), "float64", 0.5, 0.3),
                                         ((40,), "complex128", 0.5, 0.3), ((8,), "float64", 0.5, 0.3),
                                         ((40,), "float64", 1.5, 0.3)]):
    name = f"sym2_err_{i}"
    x = s.array(name + "_x", data(shape, dt))
    xv = np.asarray(s._groups[s._group][x])
    add(name, "symiirorder2", lambda: ss.symiirorder2(xv, r, om), dict(x=x), r=r, omega=om, precision=-1.0,
        layout="C")

# ------------------------------------------------------------------------------ cspline1d, qspline1d
s.group("spline1d")
k = 0
for func in ["cspline1d", "qspline1d"]:
    f = getattr(ss, func)
    for dt in ["float32", "float64", "complex128", "int16"]:
        for n in [1, 2, 3, 4, 10, 300, 1000]:
            for lamb in ([0.0, 0.5, 3.0, 100.0] if func == "cspline1d" else [0.0]):
                if lamb and n not in (3, 10, 1000):
                    continue
                name = f"s1d_{k}"
                k += 1
                x = laid_out(name + "_x", data((n,), dt), "C")
                add(name, func, lambda: f(x, lamb), dict(x=name + "_x"), lamb=lamb, layout="C")
    x = laid_out(f"s1d_{k}_x", data((301,), "float64"), "strided")
    add(f"s1d_{k}", func, lambda: f(x), dict(x=f"s1d_{k}_x"), lamb=0.0, layout="strided")
    k += 1
    errs = [((), 0.0), ((3, 4), 0.0), ((0,), 0.0), ((20,), 0.001), ((20,), -1.0), ((1,), 0.5), ((2,), 0.5),
            ((0,), 0.5), ((20,), 0.5)]
    for shape, lamb in errs:
        name = f"s1d_{k}"
        k += 1
        x = s.array(name + "_x", data(shape, "float64"))
        xv = np.asarray(s._groups[s._group][x])
        add(name, func, lambda: f(xv, lamb), dict(x=x), lamb=lamb, layout="C")

# ------------------------------------------------------------------------------ cspline2d, qspline2d
s.group("spline2d")
k = 0
for func in ["cspline2d", "qspline2d"]:
    f = getattr(ss, func)
    confs = []
    for dt in ["float32", "float64", "complex64", "complex128", "uint8"]:
        confs.append((dt, (20, 30), 0.0, -1.0, "C"))
        confs.append((dt, (24, 40), 0.0, -1.0, "F"))
    for dt in ["float32", "float64"]:
        confs += [(dt, (50,), 0.0, -1.0, "C"), (dt, (12, 13, 14), 0.0, -1.0, "C"), (dt, (30, 41), -1.0, 1e-4, "strided"),
                  (dt, (30, 40), 0.0, 0.0, "C"), (dt, (30, 40), 0.0, 0.5, "C"), (dt, (100, 33), 0.0, 1.5, "C"),
                  (dt, (40, 45), 0.5, -1.0, "C"), (dt, (24, 90), 5.0, 1e-5, "F"), (dt, (80,), 2.0, -1.0, "C")]
    confs += [("complex64", (20, 30), 1.0, -1.0, "C"), ("float64", (), 0.0, -1.0, "C"),
              ("float64", (5, 5), 0.0, -1.0, "C"), ("float64", (0, 20), 0.0, -1.0, "C"),
              ("float64", (20, 0), 0.0, -1.0, "C")]
    for dt, shape, lamb, prec, layout in confs:
        name = f"s2d_{k}"
        k += 1
        x = laid_out(name + "_x", data(shape, dt), layout)
        add(name, func, lambda: f(x, lamb, prec), dict(x=name + "_x"), lamb=lamb, precision=prec, layout=layout)

# -------------------------------------------------------------------------------------- spline_filter
s.group("spline_filter")
k = 0
for dt, shape, lmbda, layout in [("float32", (30, 40), 5.0, "C"), ("float64", (30, 40), 5.0, "F"),
                                 ("float32", (24, 129), 0.1, "C"), ("float64", (50, 31), 0.5, "strided"),
                                 ("complex64", (30, 40), 0.0, "C"), ("complex128", (25, 35), 0.0, "C"),
                                 ("float64", (40, 30), 0.0, "C"), ("int64", (30, 40), 5.0, "C"),
                                 ("float64", (40,), 5.0, "C"), ("complex64", (30, 40), 5.0, "C"),
                                 ("float64", (), 5.0, "C"), ("float64", (4, 30, 30), 5.0, "C")]:
    name = f"sf_{k}"
    k += 1
    x = laid_out(name + "_x", data(shape, dt), layout)
    # complex128 is computed in complex64 by SciPy (and cusci): complex64 tolerances.
    add(name, "spline_filter", lambda: ss.spline_filter(x, lmbda), dict(x=name + "_x"),
        rtol64=1e-4 if dt == "complex128" else 1e-10, lmbda=lmbda, layout=layout)

# --------------------------------------------------------------------------------------------- sepfir2d
s.group("sepfir2d")
k = 0
confs = [("float32", (20, 30), "float32", 7, "float32", 5, "C"),
         ("float64", (40, 33), "float64", 3, "float64", 7, "F"),
         ("float64", (60, 57), "float64", 7, "float64", 7, "C"),
         ("float32", (64, 70), "float32", 7, "float32", 7, "strided"),
         ("complex64", (20, 30), "float32", 5, "complex64", 3, "C"),
         ("complex128", (21, 22), "complex128", 3, "float64", 5, "C"),
         ("int32", (20, 30), "int64", 3, "float64", 3, "C"),
         ("uint8", (20, 30), "float32", 3, "int16", 3, "C"),
         ("float64", (1, 9), "float64", 9, "float64", 1, "C"),
         ("float64", (7, 7), "float64", 7, "float64", 7, "C"),
         # errors
         ("float64", (20, 30), "float64", 4, "float64", 3, "C"),
         ("float64", (20, 30), "float64", 3, "float64", 0, "C"),
         ("float32", (20, 30), "float64", 3, "float32", 3, "C"),
         ("float64", (20, 30), "complex128", 3, "float64", 3, "C"),
         ("float64", (30,), "float64", 3, "float64", 3, "C"),
         ("float64", (2, 3, 30), "float64", 3, "float64", 3, "C")]
for dt, shape, hrt, nr, hct, nc, layout in confs:
    name = f"sep_{k}"
    k += 1
    x = laid_out(name + "_x", data(shape, dt), layout)
    hr = s.array(name + "_hrow", data((nr,), hrt))
    hc = s.array(name + "_hcol", data((nc,), hct))
    hrv, hcv = (np.asarray(s._groups[s._group][a]) for a in (hr, hc))
    add(name, "sepfir2d", lambda: ss.sepfir2d(x, hrv, hcv), dict(x=name + "_x", hrow=hr, hcol=hc), layout=layout)
name = f"sep_{k}"
x = s.array(name + "_x", data((20, 30), "float64"))
hr = s.array(name + "_hrow", data((1, 3), "float64"))
hc = s.array(name + "_hcol", data((3,), "float64"))
s.case(name, func="sepfir2d", error="value_error", x=x, hrow=hr, hcol=hc, layout="C")

# ----------------------------------------------------------------------------------------- gauss_spline
s.group("gauss_spline")
k = 0
for dt, shape, n in [("float32", (100,), 3), ("float64", (5, 40), 0), ("float64", (64,), 2.5), ("int32", (30,), 3),
                     ("complex128", (20,), 2), ("complex64", (20,), 1), ("float64", (10,), -1), ("float64", (10,), -2),
                     ("float64", (0,), 3)]:
    name = f"gs_{k}"
    k += 1
    xa = data(shape, dt)
    if np.dtype(dt).kind in "fc":
        xa = xa * 2
    x = s.array(name + "_x", xa)
    xv = np.asarray(s._groups[s._group][x])
    add(name, "gauss_spline", lambda: ss.gauss_spline(xv, n), dict(x=x), rtol32=1e-5, rtol64=1e-12, n=n)

# --------------------------------------------------------------------------------- cspline1d_eval etc.
s.group("eval")
k = 0
for func in ["cspline1d_eval", "qspline1d_eval"]:
    f = getattr(ss, func)
    confs = []
    for cdt in (["float32", "float64", "complex128", "complex64"] if func == "cspline1d_eval" else ["float32", "float64", "int64"]):
        for ndt in ["float64", "float32", "int32"]:
            confs.append((cdt, 40, ndt, (200,), 1.0, 0.0))
    confs += [("float64", 40, "float64", (5, 30), 0.5, 3.0), ("float64", 2, "float64", (50,), 1.0, 0.0),
              ("float64", 7, "float64", (300,), 2.0, -1.5), ("float64", 40, "float64", (0,), 1.0, 0.0),
              # errors
              ("float64", 0, "float64", (5,), 1.0, 0.0), ("float64", 0, "float64", (0,), 1.0, 0.0)]
    if func == "cspline1d_eval":
        confs += [("int64", 10, "float64", (5,), 1.0, 0.0)]
    else:
        confs += [("complex128", 10, "float64", (5,), 1.0, 0.0)]
    for cdt, n, ndt, nshape, dx, x0 in confs:
        name = f"ev_{k}"
        k += 1
        cj = s.array(name + "_cj", data((n,), cdt))
        nx = rng.uniform(-2 * n - 3, 3 * n + 3, size=nshape)
        nx = nx.astype(ndt) if ndt != "int32" else np.round(nx).astype(np.int32)
        newx = s.array(name + "_newx", nx)
        cjv, nxv = (np.asarray(s._groups[s._group][a]) for a in (cj, newx))
        add(name, func, lambda: f(cjv, nxv, dx, x0), dict(cj=cj, newx=newx), rtol32=2e-5, rtol64=1e-12, dx=dx, x0=x0)
    name = f"ev_{k}"
    k += 1
    cj = s.array(name + "_cj", data((3, 4), "float64"))
    newx = s.array(name + "_newx", data((5,), "float64"))
    s.case(name, func=func, error="value_error", cj=cj, newx=newx, dx=1.0, x0=0.0)

s.write()
