"""Reference data for cusci's elementwise family (ufuncs), its dtype list with float16 and NumPy 2's
promotion. Deterministic: every random input comes from a seeded generator. Run at build time
(tests/golden/CMakeLists.txt).

A ufunc case's func is the ufunc's name; its params: inputs (array names), expected (array name, null
when NumPy raises), and decimals, lo, hi where the function takes them.
"""
import numpy as np

from golden import Suite

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
IDX = {np.dtype(d): i for i, d in enumerate(DTYPES)}
s = Suite("core_elementwise")


def table(name, arr):
    """A reference table read whole by the tests (dtype promotion, float16 conversions)."""
    s.case(name, func="table", expected=s.array(name, arr))


def ufunc_case(case, func, inputs, expected=None, rtol=0, atol=0, error=None, **params):
    """Case `case` calls `func` on the arrays `inputs` (stored as <case>_in0, <case>_in1); `expected`
    is NumPy's result, None when NumPy raised `error`."""
    names = [s.array(f"{case}_in{k}", x) for k, x in enumerate(inputs)]
    s.case(case, func=func, rtol=rtol, atol=atol, error=error or None, inputs=names, nin=len(names),
           expected=None if expected is None else s.array(case, expected), **params)


def dtype_tables():
    s.group("tables")
    n = len(DTYPES)
    promote = np.zeros((n, n), dtype=np.int32)
    for i, a in enumerate(DTYPES):
        for j, b in enumerate(DTYPES):
            promote[i, j] = IDX[np.promote_types(a, b)]
    table("promote_types", promote)
    scalars = [True, 1, 1.0, 1j]
    weak = np.zeros((n, len(scalars)), dtype=np.int32)
    for i, a in enumerate(DTYPES):
        for j, sc in enumerate(scalars):
            weak[i, j] = IDX[np.result_type(np.zeros(1, a), sc)]
    table("weak_scalar", weak)
    # float16 rounding: float64 values near float16's limits, ties, subnormals, inf/nan, and their
    # float16 roundings (stored as float16 and as bits).
    rng = np.random.default_rng(16)
    vals = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -65520.0, 1e6, -1e6, np.inf, -np.inf, np.nan,
            2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 3 * 2.0 ** -25, 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25,
            1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -40, 0.1, 1 / 3, 2049.0, 2051.0,
            6.1e-5, 5.96e-8, 1e-9, -1e-9]
    vals = np.array(vals + list(rng.standard_normal(40) * 10.0 ** rng.integers(-8, 6, 40)), dtype=np.float64)
    table("f16_from_f64_in", vals)
    table("f16_from_f64_out", vals.astype(np.float16).view(np.uint16))
    f32 = vals.astype(np.float32)
    table("f16_from_f32_in", f32)
    table("f16_from_f32_out", f32.astype(np.float16).view(np.uint16))
    allbits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    table("f16_all_as_f32", allbits.view(np.float16).astype(np.float32))
    table("f16_arange6", np.arange(6, dtype=np.float16))



def values(dt, n, rng, kind="general"):
    """n seeded values of dtype dt, with the special values of its kind first."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return (rng.integers(0, 2, n) > 0)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = [0, 1, 2, 3, 7, info.max, info.min] + ([-1, -2, -7, -128 if dt.itemsize == 1 else -9] if dt.kind == "i" else [])
        lo, hi = (max(info.min, -50), min(info.max, 50)) if kind != "wide" else (info.min, info.max)
        v = np.concatenate([np.array(base, dtype=np.int64 if dt.kind == "i" else np.uint64).astype(dt),
                            rng.integers(lo, hi, n, endpoint=True).astype(dt)])[:n]
        return v.astype(dt)
    special = [0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.0, 0.5, -2.5, 2.5, 3.0]
    if kind == "unit":
        r = rng.uniform(-1.2, 1.2, n)
    elif kind == "pos":
        r = rng.uniform(0.0, 5.0, n)
    else:
        r = rng.standard_normal(n) * 3
    if dt.kind == "c":
        re = np.concatenate([special, r])[:n]
        im = np.concatenate([special[::-1], rng.standard_normal(n)])[:n]
        return (re + 1j * im).astype(dt)
    return np.concatenate([special, r])[:n].astype(dt)


# Maximum ulp errors of CUDA's libm (CUDA Math API, "Mathematical Functions" appendix: single and
# double precision tables, full range, default -prec-div/-prec-sqrt) for the real function behind
# each ufunc. 0 means correctly rounded (IEEE operations, sqrt, rint, ...).
CUDA_ULP = {  # name: (float32, float64)
    "sqrt": (0, 0), "cbrt": (1, 1), "exp": (2, 1), "exp2": (2, 1), "expm1": (1, 1), "log": (1, 1),
    "log2": (1, 1), "log10": (2, 1), "log1p": (1, 1), "sin": (2, 2), "cos": (2, 2), "tan": (4, 2),
    "arcsin": (2, 2), "arccos": (2, 2), "arctan": (2, 2), "sinh": (3, 2), "cosh": (2, 1), "tanh": (2, 1),
    "arcsinh": (3, 3), "arccosh": (4, 3), "arctanh": (3, 2), "rint": (0, 0), "angle": (3, 2),
    "arctan2": (3, 2), "hypot": (3, 2), "power": (4, 2), "divide": (0, 0),
}
# NumPy's own loops (glibc, or its SIMD/SVML loops, validated to 4 ulp) add their error to CUDA's
# for functions that are not correctly rounded; correctly rounded ones must match exactly.
NUMPY_ULP = 4


def tol(dt, approx, name=None):
    """(rtol, atol) of a ufunc result: from the ulp bounds above where CUDA documents them, else by
    dtype (exact for integers and for exact float operations)."""
    dt = np.dtype(dt)
    if dt.kind in "biu":
        return 0, 0
    if name in CUDA_ULP and dt.kind == "f" and dt.itemsize in (4, 8):
        cu = CUDA_ULP[name][0 if dt.itemsize == 4 else 1]
        ulps = cu + NUMPY_ULP if cu else 0
        eps = float(np.finfo(dt).eps)
        return ulps * eps, ulps * eps * 1e-6
    base = {2: 2e-3, 4: 2e-5, 8: 1e-12, 16: 1e-12}[dt.itemsize if dt.kind == "f" else dt.itemsize // 2 * (1 if dt.itemsize > 8 else 1)]
    if dt.kind == "c":
        base = 2e-5 if dt.itemsize == 8 else 1e-12
    if not approx:
        base = 0 if dt.kind == "f" else base
    return base, base * 1e-2 if approx else 0


UNARY = ["abs", "negative", "positive", "square", "reciprocal", "sign", "sqrt", "cbrt", "exp", "exp2", "expm1",
         "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
         "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite",
         "logical_not", "invert", "conjugate", "angle"]
EXACT = {"abs", "negative", "positive", "square", "sign", "floor", "ceil", "trunc", "rint", "isnan", "isinf",
         "isfinite", "logical_not", "invert", "conjugate", "reciprocal"}
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum", "minimum",
          "fmax", "fmin", "copysign", "arctan2", "hypot", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "logical_and", "logical_or", "logical_xor"]
BEXACT = {"add", "subtract", "multiply", "floor_divide", "remainder", "maximum", "minimum", "fmax", "fmin",
          "copysign", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and",
          "logical_or", "logical_xor"}
NPNAME = {"abs": "absolute", "invert": "invert", "conjugate": "conjugate"}


def npfun(name):
    return getattr(np, NPNAME.get(name, name))


def run(f, *args):
    with np.errstate(all="ignore"):
        try:
            return f(*args), ""
        except TypeError:
            return None, "type_error"
        except ValueError:
            return None, "value_error"


def ufunc_cases(rng):
    domain = {"arcsin": "unit", "arccos": "unit", "arctanh": "unit", "sqrt": "pos", "log": "pos", "log2": "pos",
              "log10": "pos", "log1p": "pos", "arccosh": "pos"}
    s.group("unary")
    for name in UNARY:
        for dt in DTYPES:
            for shape in [(3, 5), (0,), (1,), (1003,)] if dt in ("float32", "int32") else [(3, 5)]:
                n = int(np.prod(shape))
                x = values(dt, n, rng, domain.get(name, "general")).reshape(shape)
                y, err = run(npfun(name), x)
                case = "u_%s_%s_%s" % (name, dt, "x".join(map(str, shape)))
                if err:
                    ufunc_case(case, name, [x], error=err)
                    continue
                rt, at = tol(y.dtype, name not in EXACT, name)
                ufunc_case(case, name, [x], y, rt, at)
    s.group("binary")
    for name in BINARY:
        for dt in DTYPES:
            for sa, sb in ([((3, 5), (3, 5)), ((3, 1), (1, 5)), ((1003,), (1003,)), ((0, 3), (1, 3))]
                           if dt in ("float32", "int64") else [((3, 5), (3, 5))]):
                x = values(dt, int(np.prod(sa)), rng).reshape(sa)
                kind = "general"
                yv = values(dt, int(np.prod(sb)), rng, kind).reshape(sb)
                if name == "power" and np.dtype(dt).kind == "i":
                    yv = np.abs(yv) % 5
                if name in ("left_shift", "right_shift") and np.dtype(dt).kind in "iu":
                    yv = (np.abs(yv.astype(np.int64)) % 70).astype(dt)
                y, err = run(npfun(name), x, yv)
                case = "b_%s_%s_%s_%s" % (name, dt, "x".join(map(str, sa)), "x".join(map(str, sb)))
                if err:
                    ufunc_case(case, name, [x, yv], error=err)
                    continue
                rt, at = tol(y.dtype, name not in BEXACT, name)
                ufunc_case(case, name, [x, yv], y, rt, at)
    # Mixed dtypes: add and divide of every pair (the promotion table in action).
    s.group("mixed")
    for a in DTYPES:
        for b in DTYPES:
            x = values(a, 4, rng).reshape(4)
            yv = values(b, 4, rng).reshape(4)
            for name in ("add", "maximum"):
                y, err = run(npfun(name), x, yv)
                case = "m_%s_%s_%s" % (name, a, b)
                rt, at = tol(y.dtype, False)
                ufunc_case(case, name, [x, yv], y, rt, at, error=err)
    # Power edge cases and negative integer powers.
    x = np.array([2, -3, 0, 1, -1, 7], dtype=np.int32)
    e = np.array([3, 0, 0, 31, 5, 2], dtype=np.int32)
    ufunc_case("e_power_int", "power", [x, e], x ** e)
    ufunc_case("e_power_negint", "power", [x, -e], error="value_error")
    # around with decimals.
    for dt in ["float16", "float32", "float64", "int32", "complex128"]:
        for d in (-2, 0, 1, 3):
            x = (values(dt, 12, rng) * (123 if np.dtype(dt).kind != "b" else 1)).astype(dt)
            y = np.round(x, d)
            case = "r_%s_%d" % (dt, d)
            rt, at = tol(y.dtype, True)
            ufunc_case(case, "around", [x], y, rt, at, decimals=d)
    # clip with scalars (NumPy 2).
    for dt in ["int8", "uint8", "float16", "float32", "float64"]:
        x = values(dt, 15, rng)
        for lo, hi in [(1, 3), (-1000, 300), (0.5, 2.5)]:
            y, err = run(np.clip, x, lo, hi)
            case = "c_%s_%s_%s" % (dt, lo, hi)
            if err:
                ufunc_case(case, "clip", [x], error=err, lo=lo, hi=hi)
                continue
            ufunc_case(case, "clip", [x], y, lo=lo, hi=hi)


def layout_cases():
    """NumPy's order='K' result layouts: element strides of the result (bytes / itemsize) for fixed
    operand layouts (built the same way in test_ufunc_gpu.cpp). Arrays only, no case (no values)."""
    s.group("layout")
    a = np.ones((4, 6), np.float32)
    b = np.ones((4, 6), np.float32)
    c = np.ones((6, 4), np.float32)
    x = np.ones((2, 3, 4), np.float32)
    cases = [
        np.add(a.T, b.T),                                   # 0: both F -> F
        np.add(a.T, c),                                     # 1: F and C disagree -> C
        np.add(c, a.T),                                     # 2
        np.add(a.T, np.ones((1, 4), np.float32)),           # 3: row vector abstains -> F
        np.add(a.T, np.ones((6, 1), np.float32)),           # 4: column vector abstains -> F
        np.add(a.T, np.float32(1)),                         # 5
        np.add(x.transpose(1, 2, 0), x.transpose(1, 2, 0)),  # 6
        np.add(x.transpose(2, 0, 1), 1),                    # 7
        np.negative(a.T),                                   # 8
        np.add(a[:, ::2].T, 1),                             # 9: strided, not dense
        np.equal(a.T, b.T),                                 # 10: comparison
        np.add(a[::-1], a[::-1]),                           # 11: negative strides -> C
        np.multiply(x.transpose(2, 1, 0), 2.0),             # 12: F of a 3-d array
    ]
    for i, r in enumerate(cases):
        s.array("layout_%d" % i, np.array(r.strides, np.int64) // r.itemsize)


if __name__ == "__main__":
    dtype_tables()
    ufunc_cases(np.random.default_rng(2025))
    layout_cases()
    s.write()
