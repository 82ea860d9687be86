"""References of cusci::linalg's special matrices (scipy.linalg 1.18.1): toeplitz, circulant, hankel,
companion, convolution_matrix, fiedler, fiedler_companion, leslie, block_diag, hadamard, hilbert,
invhilbert, pascal, invpascal, helmert, dft, khatri_rao.

Every case calls SciPy; a SciPy exception becomes the case's expected cusci exception (ValueError ->
value_error, TypeError -> type_error, IndexError -> index_error), an object-dtype result (Python
integers) becomes not_implemented_error (cusci has no such dtype). Inputs are stored under
<case>_<param>; with layout "F" the test copies them to Fortran order, with layout "strided" the stored
array has its last axis doubled and the test takes [..., ::2] (the logical input).

Run: python gen_linalg_special.py --out DIR
"""
import warnings

import numpy as np
import scipy.linalg as sl

from golden import Suite, tol

s = Suite("linalg_special")
rng = s.rng(20261203)

EXC = {ValueError: "value_error", TypeError: "type_error", IndexError: "index_error",
       NotImplementedError: "not_implemented_error"}


def store(name, x, layout):
    x = np.asarray(x)
    if layout == "strided" and x.ndim >= 1:
        base = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), dtype=x.dtype)
        base[..., ::2] = x
        if x.dtype != np.bool_:
            base[..., 1::2] = 7  # never read
        return s.array(name, base)
    return s.array(name, x)


def case(name, func, call, arrays=None, layout="C", compare_exact=False, atol_per_scale=None, **params):
    """Adds a case: `call()` computes SciPy's result from the logical inputs `arrays` (param -> array,
    or a list of arrays); `compare_exact` asks for rtol = atol = 0. Every other keyword is stored as a
    parameter of the case (SciPy's own `exact` of invhilbert/pascal/invpascal among them)."""
    stored = {}
    for k, v in (arrays or {}).items():
        if isinstance(v, list):
            stored[k] = [store(f"{name}_{k}{i}", x, layout) for i, x in enumerate(v)]
        else:
            stored[k] = store(f"{name}_{k}", v, layout)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = call()
    except tuple(EXC) as e:
        kind = next(v for t, v in EXC.items() if isinstance(e, t))
        s.case(name, func=func, error=kind, layout=layout, **stored, **params)
        return
    r = np.asarray(r)
    if r.dtype == object:
        s.case(name, func=func, error="not_implemented_error", layout=layout, **stored, **params)
        return
    if compare_exact or r.dtype.kind not in "fc":
        rt, at = 0.0, 0.0
    else:
        scale = float(np.abs(r).max()) if r.size else 1.0
        rt, at = tol(r.dtype, scale=scale)
        if atol_per_scale is not None:
            at = max(at, atol_per_scale * max(scale, 1.0))
    s.case(name, func=func, rtol=rt, atol=at, layout=layout, expected=s.array(name + "_out", r), **stored, **params)


def rand(shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(1, 9, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "int64", "uint8", "bool"]
LAYOUTS = ["C", "F", "strided"]

# --- toeplitz --------------------------------------------------------------------------------------
s.group("toeplitz")
for dt in DTYPES + ["float16", "int8"]:
    c, r = rand(5, dt), rand(4, dt)
    case(f"toeplitz_{dt}", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r}, compare_exact=True)
    case(f"toeplitz_{dt}_nor", "toeplitz", lambda: sl.toeplitz(c), {"c": c}, compare_exact=True)
for lay in LAYOUTS:
    c, r = rand((2, 3, 6), "complex128"), rand((3, 5), "complex128")
    case(f"toeplitz_batch_{lay}", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r},
         layout=lay, compare_exact=True)
    case(f"toeplitz_batch_nor_{lay}", "toeplitz", lambda: sl.toeplitz(c), {"c": c}, layout=lay, compare_exact=True)
c, r = rand(300, "float64"), rand(200, "float64")
case("toeplitz_large", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r}, compare_exact=True)
c, r = rand(3, "int8"), rand(4, "float32")
case("toeplitz_promote", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r}, compare_exact=True)
c = np.array(2.5)
case("toeplitz_0d", "toeplitz", lambda: sl.toeplitz(c), {"c": c}, compare_exact=True)
c, r = np.ones(0), rand(3, "float64")
case("toeplitz_c_empty", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r}, compare_exact=True)
c, r = rand(3, "float64"), np.ones(0)
case("toeplitz_r_empty", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r}, compare_exact=True)
c = np.array([[1.0]])
case("toeplitz_1x1", "toeplitz", lambda: sl.toeplitz(c), {"c": c}, compare_exact=True)
c = np.ones((0, 3))
case("toeplitz_batch0", "toeplitz", lambda: sl.toeplitz(c), {"c": c})
c, r = rand((2, 3), "float64"), rand((3, 3), "float64")
case("toeplitz_nobroadcast", "toeplitz", lambda: sl.toeplitz(c, r), {"c": c, "r": r})

# --- circulant ------------------------------------------------------------------------------------
s.group("circulant")
for dt in DTYPES:
    c = rand(7, dt)
    case(f"circulant_{dt}", "circulant", lambda: sl.circulant(c), {"c": c}, compare_exact=True)
for lay in LAYOUTS:
    c = rand((2, 3, 5), "float32")
    case(f"circulant_batch_{lay}", "circulant", lambda: sl.circulant(c), {"c": c}, layout=lay, compare_exact=True)
for nm, c in [("empty", np.ones(0)), ("batch0", np.ones((0, 3))), ("batch_n0", np.ones((3, 0))),
              ("0d", np.array(4.0)), ("large", rand(257, "float64"))]:
    case(f"circulant_{nm}", "circulant", lambda: sl.circulant(c), {"c": c}, compare_exact=True)

# --- hankel ---------------------------------------------------------------------------------------
s.group("hankel")
for dt in DTYPES:
    c, r = rand(4, dt), rand(6, dt)
    case(f"hankel_{dt}", "hankel", lambda: sl.hankel(c, r), {"c": c, "r": r}, compare_exact=True)
    case(f"hankel_{dt}_nor", "hankel", lambda: sl.hankel(c), {"c": c}, compare_exact=True)
for lay in LAYOUTS:
    c, r = rand((2, 3), "float64"), rand((2, 2), "float64")  # flattened (SciPy 1.18, FutureWarning)
    case(f"hankel_nd_{lay}", "hankel", lambda: sl.hankel(c, r), {"c": c, "r": r}, layout=lay, compare_exact=True)
c, r = rand(2, "int16"), rand(3, "complex64")
case("hankel_promote", "hankel", lambda: sl.hankel(c, r), {"c": c, "r": r}, compare_exact=True)
for nm, c, r in [("c_empty", np.ones(0), rand(3, "float64")), ("empty", np.ones(0), None),
                 ("r_empty", rand(3, "float64"), np.ones(0)), ("0d_c", np.array(1.0), rand(3, "float64")),
                 ("0d_r", rand(3, "float64"), np.array(1.0)), ("0d_nor", np.array(1.0), None)]:
    if r is None:
        case(f"hankel_{nm}", "hankel", lambda: sl.hankel(c), {"c": c}, compare_exact=True)
    else:
        case(f"hankel_{nm}", "hankel", lambda: sl.hankel(c, r), {"c": c, "r": r}, compare_exact=True)

# --- companion ------------------------------------------------------------------------------------
s.group("companion")
for dt in DTYPES + ["float16"]:
    a = rand(6, dt)
    if dt == "bool":
        a[0] = True
    case(f"companion_{dt}", "companion", lambda: sl.companion(a), {"a": a})
for lay in LAYOUTS:
    a = rand((2, 3, 5), "complex64")
    case(f"companion_batch_{lay}", "companion", lambda: sl.companion(a), {"a": a}, layout=lay)
for nm, a in [("n2", rand(2, "float64")), ("n1", rand(1, "float64")), ("0d", np.array(3.0)),
              ("batch0", np.ones((0, 3))), ("zero_lead", np.array([[1.0, 2, 3], [0.0, 1, 2]])),
              ("bool_zero_lead", np.array([False, True, True])), ("large", rand(40, "float64"))]:
    case(f"companion_{nm}", "companion", lambda: sl.companion(a), {"a": a})

# --- convolution_matrix ---------------------------------------------------------------------------
s.group("convolution_matrix")
for mode in ["full", "same", "valid"]:
    for m, n in [(1, 1), (3, 5), (5, 3), (4, 4), (6, 1), (1, 6), (8, 7)]:
        a = rand(m, "float64")
        case(f"convmtx_{mode}_{m}_{n}", "convolution_matrix", lambda: sl.convolution_matrix(a, n, mode), {"a": a},
             compare_exact=True, n=n, mode=mode)
    for lay in LAYOUTS:
        a = rand((2, 3, 4), "complex128")
        case(f"convmtx_{mode}_batch_{lay}", "convolution_matrix", lambda: sl.convolution_matrix(a, 5, mode),
             {"a": a}, layout=lay, compare_exact=True, n=5, mode=mode)
for dt in DTYPES:
    a = rand(4, dt)
    case(f"convmtx_{dt}", "convolution_matrix", lambda: sl.convolution_matrix(a, 3), {"a": a}, compare_exact=True, n=3,
         mode="full")
for nm, a, n in [("n0", rand(3, "float64"), 0), ("nneg", rand(3, "float64"), -2), ("a_empty", np.ones(0), 3),
                 ("batch0", np.ones((0, 3)), 3), ("0d", np.array(2.0), 3)]:
    case(f"convmtx_{nm}", "convolution_matrix", lambda: sl.convolution_matrix(a, n), {"a": a}, n=n, mode="full")

# --- fiedler --------------------------------------------------------------------------------------
s.group("fiedler")
for dt in DTYPES + ["int8"]:
    a = rand(6, dt)
    case(f"fiedler_{dt}", "fiedler", lambda: sl.fiedler(a), {"a": a})
for lay in LAYOUTS:
    a = rand((3, 2, 5), "float64")
    case(f"fiedler_batch_{lay}", "fiedler", lambda: sl.fiedler(a), {"a": a}, layout=lay)
for nm, a in [("empty", np.ones(0)), ("batch_n0", np.ones((3, 0))), ("size1", np.ones(1, np.int32)),
              ("size1_batch", np.ones((1, 1), np.complex64)), ("0d", np.array(2.0)), ("bool1", np.array([True])),
              ("large", rand(200, "float32"))]:
    case(f"fiedler_{nm}", "fiedler", lambda: sl.fiedler(a), {"a": a})

# --- fiedler_companion ----------------------------------------------------------------------------
s.group("fiedler_companion")
for dt in DTYPES:
    for n in [3, 4, 7, 8]:
        a = rand(n, dt)
        if dt == "bool":
            a[0] = True
        case(f"fcomp_{dt}_{n}", "fiedler_companion", lambda: sl.fiedler_companion(a), {"a": a})
for lay in LAYOUTS:
    a = rand((2, 2, 6), "float64")
    case(f"fcomp_batch_{lay}", "fiedler_companion", lambda: sl.fiedler_companion(a), {"a": a}, layout=lay)
for nm, a in [("n2", rand(2, "int32")), ("n2_zero", np.array([0.0, 3.0])), ("n1", np.ones(1, np.int32)),
              ("n0", np.ones(0)), ("batch_n0", np.ones((3, 0))), ("batch_n1", np.ones((3, 1))),
              ("batch_n2", rand((3, 2), "float32")), ("batch0", np.ones((0, 3))),
              ("zero_lead", np.array([0.0, 1, 2, 3])), ("batch_zero_lead", np.array([[1.0, 2, 3], [0.0, 1, 2]])),
              ("0d", np.array(2.0)), ("large", rand(101, "float64"))]:
    case(f"fcomp_{nm}", "fiedler_companion", lambda: sl.fiedler_companion(a), {"a": a})

# --- leslie ---------------------------------------------------------------------------------------
s.group("leslie")
for dt in DTYPES:
    f, sv = rand(5, dt), rand(4, dt)
    case(f"leslie_{dt}", "leslie", lambda: sl.leslie(f, sv), {"f": f, "s": sv}, compare_exact=True)
for lay in LAYOUTS:
    f, sv = rand((2, 3, 4), "float32"), rand((3, 3), "float64")
    case(f"leslie_batch_{lay}", "leslie", lambda: sl.leslie(f, sv), {"f": f, "s": sv}, layout=lay, compare_exact=True)
for nm, f, sv in [("promote", rand(3, "int64"), rand(2, "float32")), ("n2", rand(2, "float64"), rand(1, "float64")),
                  ("s0", rand(1, "float64"), np.ones(0)), ("0d", np.array(2.0), np.ones(0)),
                  ("badlen", rand(4, "float64"), rand(2, "float64")),
                  ("batch0", np.ones((0, 3)), np.ones((0, 2))),
                  ("nobroadcast", rand((2, 3), "float64"), rand((3, 2), "float64"))]:
    case(f"leslie_{nm}", "leslie", lambda: sl.leslie(f, sv), {"f": f, "s": sv}, compare_exact=True)

# --- block_diag -----------------------------------------------------------------------------------
s.group("block_diag")
for lay in LAYOUTS:
    arrs = [rand((2, 3), "float64"), rand((1, 1), "int32"), rand((3, 2), "float32")]
    case(f"block_diag_{lay}", "block_diag", lambda: sl.block_diag(*arrs), {"arrs": arrs},
         layout=lay, compare_exact=True)
    arrs = [rand((2, 1, 2, 2), "complex64"), rand((3, 1, 3), "float64"), rand((2, 2), "int8")]
    case(f"block_diag_batch_{lay}", "block_diag", lambda: sl.block_diag(*arrs), {"arrs": arrs}, layout=lay,
         compare_exact=True)
for nm, arrs in [("none", []), ("one", [rand((3, 3), "bool")]), ("scalars", [np.array(1), np.array(2.5)]),
                 ("vectors", [rand(3, "int64"), rand(2, "uint8")]),
                 ("empties", [np.ones((2, 0)), np.ones(0), np.ones((0, 2), np.int32), rand((1, 1), "float32")]),
                 ("batch_empty", [np.ones((0, 2, 2)), rand((2, 2), "float64")]),
                 ("nobroadcast", [rand((2, 2, 2), "float64"), rand((3, 2, 2), "float64")])]:
    case(f"block_diag_{nm}", "block_diag", lambda: sl.block_diag(*arrs), {"arrs": arrs}, compare_exact=True)

# --- khatri_rao -----------------------------------------------------------------------------------
s.group("khatri_rao")
for dt in DTYPES:
    a, b = rand((3, 4), dt), rand((2, 4), dt)
    case(f"khatri_rao_{dt}", "khatri_rao", lambda: sl.khatri_rao(a, b), {"a": a, "b": b})
for lay in LAYOUTS:
    a, b = rand((2, 3, 4), "complex128"), rand((5, 4), "float64")
    case(f"khatri_rao_batch_{lay}", "khatri_rao", lambda: sl.khatri_rao(a, b), {"a": a, "b": b}, layout=lay)
for nm, a, b in [("promote", rand((2, 2), "int8"), rand((3, 2), "float32")),
                 ("empty_k", np.ones((2, 0), np.int8), np.ones((3, 0))),
                 ("empty_m", np.ones((0, 3), np.float32), rand((2, 3), "float64")),
                 ("1d", rand(3, "float64"), rand(3, "float64")),
                 ("cols", rand((2, 3), "float64"), rand((2, 4), "float64")),
                 ("batch0", np.ones((0, 2, 3)), rand((3, 3), "float64")),
                 ("large", rand((40, 30), "float64"), rand((50, 30), "float64"))]:
    case(f"khatri_rao_{nm}", "khatri_rao", lambda: sl.khatri_rao(a, b), {"a": a, "b": b})

# --- functions of n -------------------------------------------------------------------------------
s.group("of_n")
for n in [1, 2, 4, 16, 64, 256, 0, 3, -4, 6]:
    case(f"hadamard_{n}", "hadamard", lambda: sl.hadamard(n), n=n, dtype="int64")
for dt in ["int8", "uint8", "uint16", "float16", "float32", "complex64", "complex128", "bool"]:
    for n in [1, 8]:
        case(f"hadamard_{dt}_{n}", "hadamard", lambda: sl.hadamard(n, dtype=np.dtype(dt)), n=n, dtype=dt)
for n in [-2, 0, 1, 2, 7, 100]:
    case(f"hilbert_{n}", "hilbert", lambda: sl.hilbert(n), n=n)
for n in [-1, 0, 1, 2, 5, 12, 14, 15, 20, 60]:
    for exact in [False, True]:
        case(f"invhilbert_{n}_{int(exact)}", "invhilbert", lambda: sl.invhilbert(n, exact=exact), n=n, exact=exact)
for kind in ["symmetric", "lower", "upper"]:
    for n in [-1, 0, 1, 2, 5, 20, 34, 35, 60]:
        for exact in [True, False]:
            case(f"pascal_{kind}_{n}_{int(exact)}", "pascal", lambda: sl.pascal(n, kind=kind, exact=exact),
                 n=n, kind=kind, exact=exact)
            case(f"invpascal_{kind}_{n}_{int(exact)}", "invpascal",
                 lambda: sl.invpascal(n, kind=kind, exact=exact), n=n, kind=kind, exact=exact)
    n = 100  # float only: binomials beyond C(67, k) take the product / ratio paths
    case(f"pascal_{kind}_{n}_0", "pascal", lambda: sl.pascal(n, kind=kind, exact=False), n=n, kind=kind, exact=False)
    case(f"invpascal_{kind}_{n}_0", "invpascal", lambda: sl.invpascal(n, kind=kind, exact=False), n=n, kind=kind,
         exact=False)
for n in [-1, 0, 1, 2, 5, 50]:
    for full in [False, True]:
        case(f"helmert_{n}_{int(full)}", "helmert", lambda: sl.helmert(n, full=full), n=n, full=full)
for n in [-3, 0, 1, 2, 5, 8, 64, 257]:
    for scale in [None, "sqrtn", "n"]:
        # SciPy forms omega ** k, whose rounding grows with k: the tolerance allows about n ulps
        case(f"dft_{n}_{scale}", "dft", lambda: sl.dft(n, scale=scale), atol_per_scale=1e-13 * max(n, 1),
             n=n, scale=scale)

s.write()
