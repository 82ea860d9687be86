#!/usr/bin/env python3
"""Reference data for cusci core's testing family: the AssertionError messages NumPy 2.5's
np.testing.assert_allclose / assert_array_equal / assert_array_almost_equal / assert_array_less print
for seeded operands, so that the C++ tests compare cusci::testing's messages with NumPy's, line for
line.

Each case: func (the numpy.testing function name), arrays <case>_x and <case>_y (the two operands,
0-d for a scalar operand; float16 operands are stored as float32 and cast back by the test: params
xdtype / ydtype give the operand dtypes), the keyword options that were passed (a_rtol, a_atol for rtol, atol;
equal_nan, err_msg, verbose, strict, decimal; absent = NumPy's default), and `message`: NumPy's
str(AssertionError), or null when the assertion passes. `repr_exact` is false for the few cases
whose array repr lines cusci's simple formatter is not expected to reproduce (the test then compares
the lines before the " ACTUAL:" / " x:" line only).
"""
import numpy as np
from numpy import testing as npt

from golden import Suite

s = Suite("core_testing")
rng = s.rng(20261202)

FUNCS = {
    "assert_allclose": npt.assert_allclose,
    "assert_array_equal": npt.assert_array_equal,
    "assert_array_almost_equal": npt.assert_array_almost_equal,
    "assert_array_less": npt.assert_array_less,
}


def add(name, func, x, y, repr_exact=True, **opts):
    x = np.asarray(x)
    y = np.asarray(y)
    try:
        FUNCS[func](x, y, **opts)
        msg = None
    except AssertionError as e:
        msg = str(e)
    # rtol / atol are Suite.case's own tolerance fields: stored as a_rtol / a_atol.
    params = {("a_" + k if k in ("rtol", "atol") else k): v for k, v in opts.items()}
    for key, a in (("x", x), ("y", y)):
        params[key + "dtype"] = a.dtype.name
        s.array(f"{name}_{key}", a.astype(np.float32) if a.dtype == np.float16 else a)
    s.case(name, func=func, message=msg, repr_exact=repr_exact, **params)


def perturb(a, n, scale):
    b = a.copy()
    idx = rng.choice(a.size, n, replace=False)
    b.flat[idx] = b.flat[idx] + scale * (1 + rng.random(n)).astype(a.dtype)
    return b


# --- assert_allclose -------------------------------------------------------------------------
a = rng.standard_normal(3)
add("ac_pass", "assert_allclose", a, a.copy())
add("ac_basic", "assert_allclose", [1.0, 2.0, 3.0], [1.0, 2.1, 3.2])
add("ac_2d_errmsg", "assert_allclose", [[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 5.0]], err_msg="hello")
add("ac_long_errmsg", "assert_allclose", [1.0], [2.0], err_msg="x" * 90)
add("ac_multiline_errmsg", "assert_allclose", [1.0], [2.0], err_msg="a\nb")
add("ac_shapes", "assert_allclose", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0])
add("ac_shapes_2d", "assert_allclose", np.ones((2, 3)), np.ones((3, 2)))
add("ac_shapes_bcast1", "assert_allclose", np.ones(3), np.ones(1))
add("ac_nan_pass", "assert_allclose", [1.0, np.nan], [1.0, np.nan])
add("ac_nan_noequal", "assert_allclose", [1.0, np.nan], [1.0, np.nan], equal_nan=False)
add("ac_nan_loc", "assert_allclose", [1.0, np.nan, 3.0], [1.0, 2.0, np.nan])
add("ac_inf_vals", "assert_allclose", [1.0, np.inf], [1.0, -np.inf])
add("ac_inf_loc", "assert_allclose", [1.0, np.inf], [1.0, 2.0])
add("ac_inf_pass", "assert_allclose", [np.inf, -np.inf, 1.0], [np.inf, -np.inf, 1.0])
add("ac_scalar_desired", "assert_allclose", [1.0, 2.0], np.float64(2.0))
add("ac_scalar_actual", "assert_allclose", np.float64(2.0), [1.0, 2.0, 2.0])
add("ac_scalar_both", "assert_allclose", np.float64(2.0), np.float64(3.0))
add("ac_scalar_nan", "assert_allclose", np.float64(np.nan), [np.nan, np.nan])
add("ac_strict_shape", "assert_allclose", [1.0, 2.0], np.float64(2.0), strict=True)
add("ac_strict_dtype", "assert_allclose", np.array([1.0, 2.0], np.float32), [1.0, 2.0], strict=True)
add("ac_strict_pass", "assert_allclose", [1.0, 2.0], [1.0, 2.0], strict=True)
add("ac_verbose_false", "assert_allclose", [1.0, 2.0], [1, 3], verbose=False)
add("ac_int_desired", "assert_allclose", [1.0, 2.0], [1, 3])
add("ac_rtol", "assert_allclose", [1.0, 2.0, 3.0], [1.0, 2.0001, 3.0], rtol=1e-5)
add("ac_rtol_pass", "assert_allclose", [1.0, 2.0, 3.0], [1.0, 2.00001, 3.0], rtol=1e-5)
add("ac_atol", "assert_allclose", [0.0, 1e-9, 2e-6], [0.0, 0.0, 0.0], atol=1e-6)
add("ac_atol_rtol", "assert_allclose", [1.0, 2.0], [1.1, 2.0], rtol=0.05, atol=0.001)
add("ac_zero_desired", "assert_allclose", [1.0, 2.0], [0.0, 0.0])
add("ac_many", "assert_allclose", np.arange(30.0).reshape(2, 15), np.arange(30.0).reshape(2, 15) + 1)
add("ac_3d", "assert_allclose", np.arange(24.0).reshape(2, 3, 4), np.arange(24.0).reshape(2, 3, 4) * 1.5)
add("ac_small", "assert_allclose", [1e-5, 2e-5], [1e-5, 3e-5])
add("ac_big", "assert_allclose", [1e9, 2e9], [1e9, 3e9])
add("ac_mixed_mag", "assert_allclose", [0.001, 5.0, 1234.5], [0.001, 5.5, 1234.5])
add("ac_neg", "assert_allclose", [-1.5, 2.25, -3.0], [-1.5, 2.5, 3.0])
add("ac_empty", "assert_allclose", np.zeros(0), np.zeros(0))
add("ac_empty_2d", "assert_allclose", np.zeros((0, 3)), np.zeros((0, 2)))
add("ac_summarized", "assert_allclose", np.arange(2000.0), np.arange(2000.0) * 1.001)
for dt in ["float16", "float32", "float64", "complex64", "complex128"]:
    x = rng.standard_normal(7).astype(dt)
    if np.dtype(dt).kind == "c":
        x = (rng.standard_normal(7) + 1j * rng.standard_normal(7)).astype(dt)
    add(f"ac_{dt}_pass", "assert_allclose", x, x.copy())
    add(f"ac_{dt}_fail", "assert_allclose", x, perturb(x, 2, 1e-2), rtol=1e-3)
    add(f"ac_{dt}_vs64", "assert_allclose", x, x.astype(np.complex128 if x.dtype.kind == "c" else np.float64) * 1.01)
for dt in ["int8", "int32", "int64", "uint8", "uint64", "bool"]:
    x = rng.integers(0, 2 if dt == "bool" else 100, 6).astype(dt)
    y = x.copy()
    y[2] = not y[2] if dt == "bool" else y[2] + 1
    add(f"ac_{dt}", "assert_allclose", x, y)
add("ac_complex_inf", "assert_allclose", np.array([1 + 1j, complex(np.inf, 1)]), np.array([1 + 1j, complex(np.inf, 2)]))
add("ac_complex_nan", "assert_allclose", np.array([1 + 1j, complex(np.nan, 1)]), np.array([1 + 2j, complex(1, np.nan)]))

# --- assert_array_equal ----------------------------------------------------------------------
add("ae_pass", "assert_array_equal", [1, 2, 3], [1, 2, 3])
add("ae_basic", "assert_array_equal", [1, 2, 3], [1, 2, 4])
add("ae_scalar", "assert_array_equal", np.array([1, 2, 3]), np.int64(3))
add("ae_zero_desired", "assert_array_equal", np.array([1, 0, 3]), np.array([1, 2, 3]))
add("ae_nan_inf", "assert_array_equal", np.array([1, np.nan, 3]), np.array([1, np.nan, np.inf]))
add("ae_nan_pass", "assert_array_equal", np.array([1, np.nan, np.inf]), np.array([1, np.nan, np.inf]))
add("ae_bool", "assert_array_equal", np.array([True, False, True]), np.array([True, True, True]))
add("ae_bool_int", "assert_array_equal", np.array([True, False]), np.array([1, 1]))
add("ae_int8_wrap", "assert_array_equal", np.array([-128, 5], np.int8), np.array([100, 5], np.int8))
add("ae_uint8", "assert_array_equal", np.array([3, 250], np.uint8), np.array([5, 2], np.uint8))
add("ae_uint64_big", "assert_array_equal", np.array([2**64 - 1, 0], np.uint64), np.array([2**64 - 2, 0], np.uint64))
add("ae_int64_big", "assert_array_equal", np.array([2**62 + 1, 0], np.int64), np.array([2**62, 0], np.int64))
add("ae_int_float", "assert_array_equal", np.array([1, 2, 3]), np.array([1.0, 2.5, 3.0]))
add("ae_float32", "assert_array_equal", np.array([0.1, 0.2], np.float32), np.array([0.1, 0.3], np.float32))
add("ae_float32_vs64", "assert_array_equal", np.array([0.1, 0.5], np.float32), np.array([0.1, 0.5]))
add("ae_complex", "assert_array_equal", np.array([1 + 2j, 3 - 1j]), np.array([1 + 2j, 3 + 1j]))
add("ae_strict_dtype", "assert_array_equal", np.array([1, 2], np.int32), np.array([1, 2]), strict=True)
add("ae_2d_mixed", "assert_array_equal", np.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4) * (np.arange(12).reshape(3, 4) % 5 != 0))
add("ae_errmsg", "assert_array_equal", [1, 2], [1, 3], err_msg="step 3: gaussian_filter")
add("ae_long_ints", "assert_array_equal", np.arange(40), np.arange(40)[::-1].copy())

# --- assert_array_almost_equal ---------------------------------------------------------------
add("aa_basic", "assert_array_almost_equal", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0001])
add("aa_pass", "assert_array_almost_equal", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0000001])
add("aa_decimal2", "assert_array_almost_equal", [1.0, 2.0, 3.0], [1.0, 2.01, 3.1], decimal=2)
add("aa_decimal10", "assert_array_almost_equal", [1 / 3, 2.0], [0.3333333333, 2.0], decimal=10)
add("aa_nan", "assert_array_almost_equal", [1.0, np.nan], [1.0, np.nan])
add("aa_nan_loc", "assert_array_almost_equal", [1.0, np.nan], [np.nan, 1.0])
add("aa_int", "assert_array_almost_equal", [1, 2, 3], [1, 2, 4])
add("aa_float32", "assert_array_almost_equal", np.array([1.5, 2.25], np.float32), np.array([1.5, 2.26], np.float32), decimal=3)
add("aa_complex", "assert_array_almost_equal", np.array([1 + 1j, 2]), np.array([1 + 1.1j, 2]), decimal=3)
add("aa_scalar", "assert_array_almost_equal", [1.0, 1.5], np.float64(1.0))

# --- assert_array_less -----------------------------------------------------------------------
add("al_basic", "assert_array_less", [1.0, 2.0, 3.0], [2, 3, 3])
add("al_strict", "assert_array_less", [1.0, 2.0, 3.0], [2, 3, 3], strict=True)
add("al_pass", "assert_array_less", [1.0, 2.0], [1.5, 2.5])
add("al_nan", "assert_array_less", [1.0, np.nan], [2.0, np.nan])
add("al_nan_loc", "assert_array_less", [1.0, np.nan], [2.0, 3.0])
add("al_inf", "assert_array_less", [1.0, -np.inf], [np.inf, 3.0])
add("al_inf_fail", "assert_array_less", [1.0, np.inf], [2.0, np.inf])
add("al_scalar", "assert_array_less", [1.0, 5.0, 3.0], np.float64(4.0))
add("al_int", "assert_array_less", np.array([1, 7, 3]), np.array([2, 3, 4]))
add("al_uint", "assert_array_less", np.array([1, 7, 3], np.uint16), np.array([2, 3, 4], np.uint16))
add("al_complex", "assert_array_less", np.array([1 + 1j, 2 + 2j]), np.array([1 + 2j, 2 + 1j]))

# --- more layouts of the message ---------------------------------------------------------------
add("mx_0d_nan_noequal", "assert_allclose", np.float64(np.nan), np.float64(np.nan), equal_nan=False)
add("mx_int_uint64", "assert_array_equal", np.array([1, -1], np.int64), np.array([1, 2**64 - 1], np.uint64))
add("mx_int_vs_float_2p53", "assert_array_equal", np.array([2**53 + 1]), np.array([2.0**53]))
add("mx_float16_equal", "assert_array_equal", np.array([0.1, 1000.0], np.float16), np.array([0.1, 1001.0], np.float16))
add("mx_f32_summarized", "assert_allclose", np.arange(1500, dtype=np.float32), np.arange(1500, dtype=np.float32) + 0.5)
add("mx_complex_nan_inf", "assert_array_equal", np.array([complex(np.inf, np.nan), 1j]), np.array([complex(np.inf, np.nan), 2j]))
add("mx_less_complex_nan", "assert_array_less", np.array([1 + 1j, complex(np.nan, 0)]), np.array([1 + 0.5j, complex(np.nan, 0)]))
add("mx_exp_mixed", "assert_allclose", np.array([-1e-5, 3e10, 7.0]), np.array([-1e-5, 3e10, 8.0]))
add("mx_2d_scalar_desired", "assert_array_equal", np.arange(6).reshape(2, 3), np.int64(2))
add("mx_less_verbose", "assert_array_less", [3.0, 1.0], [2.0, 2.0], verbose=False)
add("mx_shapes_errmsg", "assert_array_equal", np.zeros(2), np.zeros(3), err_msg="short")
add("mx_empty_vs_0d", "assert_allclose", np.zeros(0), np.float64(1.0))
add("mx_neg_zero", "assert_array_equal", np.array([-0.0, 0.0]), np.array([0.0, -0.0]))
add("mx_wide_row", "assert_allclose", np.linspace(-1, 1, 17) * 123.456, np.linspace(-1, 1, 17) * 123.457)
add("mx_int16_vs_int8", "assert_array_equal", np.array([300, -2], np.int16), np.array([44, -2], np.int8))
add("mx_uint8_less", "assert_array_less", np.array([5, 200], np.uint8), np.array([10, 100], np.uint8))
add("mx_almost_f16", "assert_array_almost_equal", np.array([1.0, 2.0], np.float16), np.array([1.0, 2.01], np.float16), decimal=3)
add("mx_4d", "assert_allclose", np.ones((2, 2, 2, 2)), np.full((2, 2, 2, 2), 1.5))
add("mx_bool_scalar", "assert_array_equal", np.array([True, True, False]), np.True_)

s.write()
