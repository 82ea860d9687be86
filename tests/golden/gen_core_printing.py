#!/usr/bin/env python3
"""Reference strings for cusci core's printing family (str, repr, array2string, print options), printed
by NumPy, written through golden.py.

Every case: func ("str" = str(a), "repr" = repr(a), "array_str" / "array_repr" with the keyword
arguments `kw`, "array2string" with the keyword arguments `kw`), x (name of the stored input), dtype
(the cusci dtype of the input: float16 inputs are stored as float32, exact, and cast by the test),
layout (C; F = a Fortran-order copy; S2 = the view x[::2] along axis 0, the expected string being
that of the view), opts (the print options in effect, as np.printoptions(**opts)), kw (the call's
keyword arguments; sign and floatmode as NumPy's strings) and expected (NumPy's exact string, a JSON
string). The strings are stored in the manifest itself (JSON strings hold any text exactly).
"""
import numpy as np

from golden import Suite

s = Suite("core_printing")
rng = s.rng(20261202)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]

_n = [0]


def values(dt, shape, kind="mixed"):
    n = int(np.prod(shape))
    dt = np.dtype(dt)
    if dt == np.bool_:
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        if kind == "extreme":
            x = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
            if n >= 2:
                x[:2] = [info.min, info.max]
        else:
            x = rng.integers(max(info.min, -120), min(info.max, 120) + 1, n).astype(dt)
    elif dt.kind == "f":
        if kind == "small":
            x = (rng.integers(-8, 8, n) / 4.0).astype(dt)
        else:
            x = (rng.standard_normal(n) * 10).astype(dt)
    else:
        if kind == "small":
            x = (rng.integers(-3, 3, n) / 2.0 + 1j * (rng.integers(-3, 3, n) / 2.0)).astype(dt)
        else:
            x = (rng.standard_normal(n) * 3 + 1j * rng.standard_normal(n)).astype(dt)
    return x.reshape(shape)


def call(func, a, kw):
    if func == "str":
        return str(a)
    if func == "repr":
        return repr(a)
    if func == "array_str":
        return np.array_str(a, **kw)
    if func == "array_repr":
        return np.array_repr(a, **kw)
    return np.array2string(a, **kw)


def case(name, x, funcs=("str", "repr"), opts=None, kw=None, layout="C"):
    """Stores x once and one case per function of `funcs`."""
    x = np.asarray(x)
    _n[0] += 1
    xname = f"{name}_x"
    stored = x.astype(np.float32) if x.dtype == np.float16 else x
    s.array(xname, stored)
    view = x[::2] if layout == "S2" else x
    for func in funcs:
        kw1 = dict(kw or {})
        with np.printoptions(**(opts or {})):
            expected = call(func, view, kw1)
        s.case(f"{name}_{func}", func=func, x=xname, dtype=x.dtype.name, layout=layout, opts=opts or {},
               kw=kw1, expected=expected)


# --- every dtype, shapes 0-d to 4-d ---------------------------------------------------------------
for dt in DTYPES:
    case(f"d0_{dt}", values(dt, ()))
    case(f"d1_{dt}", values(dt, (7,)))
    case(f"d2_{dt}", values(dt, (4, 5)), layout="C")
    case(f"d2f_{dt}", values(dt, (4, 5)), layout="F")
    case(f"d2s_{dt}", values(dt, (6, 3)), layout="S2")
    case(f"d3_{dt}", values(dt, (2, 3, 4), "small"))
    case(f"d4_{dt}", values(dt, (2, 2, 2, 3), "small"))
    case(f"e0_{dt}", np.zeros((0,), dt))
    case(f"e03_{dt}", np.zeros((0, 3), dt))
    case(f"sum2_{dt}", values(dt, (40, 30)))
    case(f"sum1_{dt}", values(dt, (1001,), "small"))
    if dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        case(f"ext_{dt}", values(dt, (6,), "extreme"))
    case(f"wide_{dt}", values(dt, (3, 30)))

case("e204", np.zeros((2, 0, 4)))
case("sum3", values("float64", (12, 11, 10)))
case("sum3_i", values("int32", (11, 12, 13)))
case("sum4", values("float32", (7, 2, 8, 9)))
case("sum_1d_int", np.arange(2000))
case("sum_edge_exact", np.arange(1001.0))

# --- floats: nan/inf, negative zero, scientific notation --------------------------------------------
F = ("str", "repr", "array_str")
case("nan_inf", np.array([np.nan, np.inf, -np.inf, 1.5, -2.25, 0.0]), F)
case("all_nan", np.array([np.nan, np.nan]), F)
case("all_inf", np.array([np.inf, -np.inf]), F)
case("nan_only_pos_inf", np.array([np.nan, np.inf, 1.0]), F)
case("negzero", np.array([-0.0, 0.0, 1.0]), F)
case("negzero_only", np.array([-0.0, -0.0]), F)
case("tiny", np.array([1e-5, 1.0, 2.0]), F)
case("tiny2", np.array([1.5e-10, 2.25e-300, 5e-324]), F)
case("huge", np.array([1e8, 1.0]), F)
case("huge2", np.array([1e16, 123456789.0, -3e100]), F)
case("just_below_1e8", np.array([99999999.0, 1.0]), F)
case("ratio", np.array([1.0, 1000.0]), F)
case("ratio2", np.array([1.0, 1000.5]), F)
case("ratio_f32", np.array([0.001, 1.0000001], np.float32), F)
case("f32_big", np.array([1e6, 1.0], np.float32), F)
case("f32_below", np.array([999999.0, 1.0], np.float32), F)
case("f16_big", np.array([1000.0, 1.0], np.float16), F)
case("f16_vals", np.array([0.1, 65504, -0.0, 6e-8, np.nan, 1.0 / 3], np.float16), F)
case("f16_small", np.array([0.1, 0.2, 0.3, 1.0 / 3], np.float16), F)
case("f32_vals", np.array([0.1, 1.0 / 3, 16777216.0, 1e-3], np.float32), F)
case("f64_third", np.array([1.0 / 3, 2.0 / 3, 0.1, 0.2]), F)
case("round_up", np.array([0.999999999, 9.9999999999, 0.123456785]), F)
case("round_ties", np.array([0.125, 0.375, 2.5, 1e-9 + 0.5]), F)
case("ints_as_float", np.array([1.0, 2.0, 300.0]), F)
case("big_exp", np.array([1e-100, 1.0]), F)
case("exp_mixed", np.array([1.5e-5, 1.0, -2.75e10]), F)
case("exp_nan", np.array([1e-5, np.nan, -np.inf]), F)
case("exp_f32", np.array([1e-7, 3.3], np.float32), F)
case("c_nan_inf", np.array([complex(np.nan, 1), complex(1, np.nan), complex(np.inf, -np.inf), 1 + 2j]), F)
case("c_exp", np.array([1e-5 + 1j, 1e10 - 3.5j]), F)
case("c_negzero", np.array([complex(-0.0, -0.0), complex(0.0, -0.0), 1j]), F)
case("c64_vals", np.array([0.1 + 0.2j, 1 / 3 - 1j], np.complex64), F)
for k, v in enumerate([1.0, 1e16, 1e15, 1e-5, 1e-4, -0.0, np.nan, -np.inf, 123456789012345.6, 0.1]):
    case(f"s0_f64_{k}", np.array(v), F)
for k, v in enumerate([0.1, 1e6, 999999.0, 1e-4, 16777216.0, 1e16]):
    case(f"s0_f32_{k}", np.array(v, np.float32), F)
for k, v in enumerate([999.0, 1000.0, 0.1, 65504, 6e-8, 1e-4]):
    case(f"s0_f16_{k}", np.array(v, np.float16), F)
for k, v in enumerate([1 + 2j, 2j, complex(-0.0, 2), 1.5 + 0j, complex(np.nan, np.inf), 1e20 - 1e-20j, 0j,
                       complex(-0.0, -0.0), complex(0, -0.0), 1e15 + 1e16j]):
    case(f"s0_c128_{k}", np.array(v), F)
for k, v in enumerate([1e6j, 1e5 + 1e5j]):
    case(f"s0_c64_{k}", np.array(v, np.complex64), F)
for k, v in enumerate([True, False]):
    case(f"s0_bool_{k}", np.array(v), F)
case("s0_i8", np.array(-5, np.int8), F)
case("s0_u64", np.array(2**64 - 1, np.uint64), F)

# --- options ---------------------------------------------------------------------------------------
base = values("float64", (3, 4))
basec = values("complex128", (3, 3))
basei = values("int16", (3, 5))
G = ("str", "repr")
for p in (0, 1, 3, 12):
    case(f"opt_prec{p}", base, G, opts={"precision": p})
    case(f"opt_precc{p}", basec, G, opts={"precision": p})
case("opt_suppress", np.array([1e-10, 1.0, 2.5]), G, opts={"suppress": True})
case("opt_suppress2", np.array([1e-6, 4e-7, 2, 3]), G, opts={"suppress": True, "precision": 6})
case("opt_suppress_huge", np.array([1e9, 1.0]), G, opts={"suppress": True})
case("opt_threshold", np.arange(20.0), G, opts={"threshold": 10})
case("opt_threshold2", values("int64", (5, 6)), G, opts={"threshold": 5, "edgeitems": 1})
case("opt_edge2", values("float64", (30, 30)), G, opts={"edgeitems": 2})
case("opt_edge0", np.arange(2000), G, opts={"edgeitems": 0})
case("opt_edge0_2d", values("float32", (50, 50)), G, opts={"edgeitems": 0})
case("opt_lw20", values("float64", (3, 9)), G, opts={"linewidth": 20})
case("opt_lw5", values("int64", (2, 4)), G, opts={"linewidth": 5})
case("opt_lw200", values("float64", (2, 40)), G, opts={"linewidth": 200})
case("opt_lw_3d", values("float64", (2, 2, 12)), G, opts={"linewidth": 40})
for sg in ("+", " ", "-"):
    case(f"opt_sign{sg.strip() or 'space'}", np.array([1.5, -2.0, 0.0, np.nan, np.inf]), G, opts={"sign": sg})
    case(f"opt_signpos{sg.strip() or 'space'}", np.array([1.5, 2.0, np.inf]), G, opts={"sign": sg})
    case(f"opt_signi{sg.strip() or 'space'}", basei, G, opts={"sign": sg})
    case(f"opt_signip{sg.strip() or 'space'}", np.abs(basei), G, opts={"sign": sg})
    case(f"opt_signc{sg.strip() or 'space'}", basec, G, opts={"sign": sg})
    case(f"opt_signe{sg.strip() or 'space'}", np.array([1e-8, 2.0]), G, opts={"sign": sg})
for fm in ("fixed", "unique", "maxprec", "maxprec_equal"):
    case(f"opt_fm_{fm}", np.array([1.0, 0.5, 1.0 / 3, 2.25]), G, opts={"floatmode": fm})
    case(f"opt_fm3_{fm}", np.array([1.0, 0.5, 1.0 / 3, 2.25]), G, opts={"floatmode": fm, "precision": 3})
    case(f"opt_fme_{fm}", np.array([1e-5, 0.5, 1.0 / 3]), G, opts={"floatmode": fm, "precision": 4})
    case(f"opt_fmc_{fm}", basec, G, opts={"floatmode": fm, "precision": 4})
    case(f"opt_fm16_{fm}", np.array([0.1, 1.5, 3.0], np.float16), G, opts={"floatmode": fm})
case("opt_nanstr", np.array([np.nan, np.inf, -np.inf, 1.0]), G, opts={"nanstr": "NaN", "infstr": "Infinity"})
case("opt_nanstr_c", np.array([complex(np.nan, np.inf), 1.0]), G, opts={"nanstr": "NaN", "infstr": "Inf"})

# --- array_str / array_repr / array2string keyword arguments ------------------------------------------
A = values("float64", (4, 6))
case("kw_repr_lw", A, ("array_repr", "array_str"), kw={"max_line_width": 30})
case("kw_repr_prec", A, ("array_repr", "array_str"), kw={"precision": 2})
case("kw_repr_supp", np.array([1e-6, 4e-7, 2, 3]), ("array_repr", "array_str"),
     kw={"precision": 6, "suppress_small": True})
case("kw_repr_f32_lw", values("float32", (2, 7)), ("array_repr",), kw={"max_line_width": 40})
case("kw_repr_e_lw", np.zeros((0, 3), np.float32), ("array_repr",), kw={"max_line_width": 10})
case("kw_a2s_sep", A, ("array2string",), kw={"separator": ","})
case("kw_a2s_sep2", A, ("array2string",), kw={"separator": ", ", "prefix": "xx("})
case("kw_a2s_prefix", values("float64", (2, 20)), ("array2string",), kw={"prefix": "prefix: "})
case("kw_a2s_suffix", values("float64", (2, 20)), ("array2string",), kw={"suffix": "))))))"})
case("kw_a2s_all", values("float64", (30, 40)), ("array2string",),
     kw={"max_line_width": 50, "precision": 3, "suppress_small": True, "separator": ";", "threshold": 100,
         "edgeitems": 2, "sign": "+", "floatmode": "fixed"})
case("kw_a2s_0d", np.array(1.5), ("array2string",))
case("kw_a2s_0d_b", np.array(True), ("array2string",))
case("kw_a2s_empty", np.zeros((3, 0)), ("array2string",))
case("kw_a2s_opts", A, ("array2string",), opts={"precision": 2}, kw={"precision": 4})

# --- seeded random sweep: magnitudes, dtypes and options mixed ------------------------------------
FMODES = ["fixed", "unique", "maxprec", "maxprec_equal"]
for k in range(150):
    dt = ["float16", "float32", "float64", "complex64", "complex128", "int32", "uint8"][k % 7]
    shape = [(5,), (3, 4), (2, 3, 2), (1, 1, 6)][k % 4]
    scale = 10.0 ** int(rng.integers(-12, 12))
    with np.errstate(over="ignore"):  # float16 * 1e11 overflows to inf, printed as inf
        x = np.asarray(values(dt, shape) * (scale if np.dtype(dt).kind in "fc" else 1)).astype(dt)
    if np.dtype(dt).kind in "fc" and k % 3 == 0:
        x.flat[0] = [np.nan, np.inf, -np.inf, -0.0][k % 4]
    opts = {"precision": int(rng.integers(0, 12)), "floatmode": FMODES[k % 4],
            "suppress": bool(k % 5 == 0), "sign": ["-", "+", " "][k % 3], "linewidth": int(rng.integers(20, 100))}
    case(f"rand{k}", x, ("str", "repr"), opts=opts)

s.write()
