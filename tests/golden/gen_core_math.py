"""Reference data for cusci's elementwise operations and reductions (NumPy 2.5 semantics). Seeded;
run at build time (tests/golden/CMakeLists.txt).

Layout of the packed sweeps (each value stored as complex128 so one file holds every result dtype;
cusci's results are converted the same way before comparing, so the conversion cannot hide a
difference):
  binary_<op>.npy      [13, 13, N]  np.<op>(in_<i>, in_<j>)        binary_<op>_dtype.npy [13, 13] dtype index
  scalar_<op>_<side>.npy [13, S, N] np.<op>(in_<i>, SCALARS[s]) (side r) or (SCALARS[s], in_<i>) (side l);
                                     scalar_<op>_<side>_dtype.npy [13, S]: dtype index, -1 OverflowError,
                                     -2 TypeError
(The unary functions are covered over all 14 dtypes, float16 included, by gen_core_elementwise.py.)
The sweeps' tolerances depend on the result dtype: their cases carry tolerance_by_dtype
({dtype name: [rtol, atol]}).
"""
import numpy as np

from golden import Suite

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
IDX = {np.dtype(d): i for i, d in enumerate(DTYPES)}
N = 9
rng = np.random.default_rng(20261130)
s = Suite("core_math")
save = s.array


def tol(dt):
    """Relative tolerance of a result of dtype dt in the exact-arithmetic cases (no atol: unlike
    golden.tol, a value near zero gets no absolute slack)."""
    dt = np.dtype(dt)
    if dt in (np.float32, np.complex64):
        return 1e-6, 0.0
    if dt in (np.float64, np.complex128):
        return 1e-14, 0.0
    return 0.0, 0.0


def make_input(dt, salt):
    """N values of dtype dt covering its range, with zero, and NaN/inf for inexact dtypes."""
    dt = np.dtype(dt)
    r = np.random.default_rng(1000 + 37 * salt + IDX[dt])
    if dt == np.bool_:
        return r.integers(0, 2, N).astype(bool) | np.array([salt == 0] + [False] * (N - 1))
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = r.integers(info.min, info.max, N, endpoint=True, dtype=dt)
        v[0] = 0 if salt == 1 else v[0]
        v[1] = 3
        v[2] = info.max if salt == 0 else 2
        return v
    if dt.kind == "f":
        v = (r.standard_normal(N) * 10).astype(dt)
        v[0] = 0.0 if salt == 1 else v[0]
        v[3] = np.nan if salt == 0 else 1.5
        v[4] = np.inf if salt == 0 else -np.inf
        return v
    re = r.standard_normal(N) * 10
    im = r.standard_normal(N) * 10
    v = (re + 1j * im).astype(dt)
    v[0] = 0 if salt == 1 else v[0]
    v[3] = complex(np.nan, 1.0) if salt == 0 else complex(2.0, np.nan)
    v[4] = complex(v[4].real, 0.0)
    v[5] = complex(v[6].real, -v[5].imag) if salt == 1 else v[5]
    return v


def main():
    s.group("sweeps")
    by_dtype = {d: list(tol(d)) for d in DTYPES}
    ina = {d: make_input(d, 0) for d in DTYPES}
    inb = {d: make_input(d, 1) for d in DTYPES}
    for d in DTYPES:
        s.case("in_a_" + d, func="input", array=save("in_a_" + d, ina[d]), dtype=d)
        s.case("in_b_" + d, func="input", array=save("in_b_" + d, inb[d]), dtype=d)
    ops = ["add", "subtract", "multiply", "divide", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal"]
    with np.errstate(all="ignore"):
        for op in ops:
            f = getattr(np, op)
            res = np.zeros((13, 13, N), np.complex128)
            dts = np.full((13, 13), -1, np.int32)
            for i, da in enumerate(DTYPES):
                for j, db in enumerate(DTYPES):
                    try:
                        r = f(ina[da], inb[db])
                    except TypeError:
                        dts[i, j] = -2
                        continue
                    res[i, j] = r.astype(np.complex128)
                    dts[i, j] = IDX[r.dtype]
            s.case("binary_" + op, func="binary_sweep", op=op, expected=save("binary_" + op, res),
                   dtypes=save("binary_" + op + "_dtype", dts), tolerance_by_dtype=by_dtype)

        # Python scalars (weak, NEP 50) on either side.
        scalars = [True, 3, -2, 2.5, complex(1.5, -2.0)]
        for op in ["add", "subtract", "multiply", "divide", "less", "equal"]:
            f = getattr(np, op)
            for side in ["r", "l"]:
                if side == "l" and op in ("less", "equal"):
                    continue
                res = np.zeros((13, len(scalars), N), np.complex128)
                dts = np.zeros((13, len(scalars)), np.int32)
                for i, d in enumerate(DTYPES):
                    for j, sv in enumerate(scalars):
                        try:
                            r = f(ina[d], sv) if side == "r" else f(sv, ina[d])
                        except OverflowError:
                            dts[i, j] = -1
                            continue
                        except TypeError:
                            dts[i, j] = -2
                            continue
                        res[i, j] = r.astype(np.complex128)
                        dts[i, j] = IDX[r.dtype]
                s.case(f"scalar_{op}_{side}", func="scalar_sweep", op=op, side=side,
                       expected=save(f"scalar_{op}_{side}", res), dtypes=save(f"scalar_{op}_{side}_dtype", dts),
                       scalars=scalars, tolerance_by_dtype=by_dtype)

        # Comparisons with Python ints outside the array's range: constant results in NumPy 2.
        cmp_ops = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
        oob = [("int8", 300), ("int8", -300), ("uint8", -1), ("uint64", -5), ("int16", 70000)]
        res = np.zeros((len(cmp_ops), len(oob), N), bool)
        for k, op in enumerate(cmp_ops):
            for c, (d, v) in enumerate(oob):
                res[k, c] = getattr(np, op)(ina[d], v)
        s.case("compare_out_of_range", func="compare_oob", expected=save("compare_out_of_range", res), ops=cmp_ops,
               operands=oob)

    # Broadcasting (float64 add and int32 multiply), sizes 0 and 1 included.
    shapes = [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((0, 3), (1, 3)), ((1,), (5,)), ((), (2, 2)),
              ((2, 1, 3), (4, 1)), ((0,), (1,)), ((5, 0), (5, 1)), ((1, 1), (1,)), ((7,), ())]
    for k, (sa, sb) in enumerate(shapes):
        a = rng.standard_normal(sa)
        b = rng.standard_normal(sb)
        ai = rng.integers(-1000, 1000, sa).astype(np.int32)
        bi = rng.integers(-1000, 1000, sb).astype(np.int32)
        names = {nm: save(f"bcast{k}_{nm}", v)
                 for nm, v in [("a", a), ("b", b), ("ai", ai), ("bi", bi), ("add", np.add(a, b)),
                               ("mul", np.multiply(ai, bi)), ("sub_ab", np.subtract(a, bi))]}
        s.case(f"bcast{k}", func="broadcast", rtol=1e-15, atol=0, **names)
    for k, (sa, sb) in enumerate([((2,), (3,)), ((2, 3), (3, 2)), ((4, 1, 2), (3, 3))]):
        try:
            np.add(np.zeros(sa), np.zeros(sb))
            raise SystemExit("expected a broadcast error")
        except ValueError as e:
            s.case(f"bcast_err{k}", func="broadcast_error", error="value_error", shape_a=sa, shape_b=sb,
                   message=str(e).strip())

    # Layouts: views of a (6, 8) base for each of three dtypes; F order; transposes; offsets.
    for d in ["float32", "int16", "complex128"]:
        r = np.random.default_rng(77 + IDX[np.dtype(d)])
        if np.dtype(d).kind == "c":
            base = (r.standard_normal((6, 8)) + 1j * r.standard_normal((6, 8))).astype(d)
        elif np.dtype(d).kind == "f":
            base = r.standard_normal((6, 8)).astype(d)
        else:
            base = r.integers(-300, 300, (6, 8)).astype(d)
        save(f"layout_{d}_base", base)
        views = {
            "strided": base[::2, 1::3],          # (3, 3)
            "transposed": base.T[:3, :3],        # (3, 3) of base.T
            "rev": base[::-2, ::-3],             # (3, 3) negative strides
        }
        save(f"layout_{d}_add_strided_rev", views["strided"] + views["rev"])
        save(f"layout_{d}_mul_transposed_strided", views["transposed"] * views["strided"])
        save(f"layout_{d}_sub_F_C", np.asfortranarray(base) - base[::-1])
        save(f"layout_{d}_add_offset", base.ravel()[1:] + base.ravel()[:-1])
        save(f"layout_{d}_less_T", base.T < base.T[::-1])
        save(f"layout_{d}_exp_strided", np.exp(views["strided"].astype(np.result_type(d, np.float32))))
        rt, at = tol(base.dtype)
        s.case(f"layout_{d}", func="layout", rtol=rt, atol=at, dtype=d, base=f"layout_{d}_base")

    # where.
    c = np.array([[True, False, True], [False, False, True]])
    ci = np.array([0, 2, -1])
    cf = np.array([0.0, np.nan, -0.0])
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    y = np.linspace(-1, 1, 3).astype(np.float32)
    for nm, v in [("c", c), ("ci", ci), ("cf", cf), ("x", x), ("y", y),
                  ("cxy", np.where(c, x, y)), ("cix", np.where(ci, x, 7)), ("cfy", np.where(cf, 2.5, y)),
                  ("css", np.where(c, 1, 2.0)), ("cxs", np.where(c, x, 3)), ("cys", np.where(c, 2, y))]:
        save("where_" + nm, v)
    s.case("where", func="where", rtol=1e-7, atol=0)

    # Reductions: a (3, 4, 5) array per dtype, over several axis selections.
    s.group("reduce")
    red_in = {}
    axis_cases = [("none", None, False), ("0", (0,), False), ("1", (1,), False), ("m1", (-1,), False),
                  ("02", (0, 2), False), ("12k", (1, 2), True), ("nonek", None, True), ("empty", (), False)]
    for d in DTYPES:
        dt = np.dtype(d)
        r = np.random.default_rng(500 + IDX[dt])
        if dt == np.bool_:
            a = r.integers(0, 2, (3, 4, 5)).astype(bool)
        elif dt.kind in "iu":
            info = np.iinfo(dt)
            a = r.integers(info.min, info.max, (3, 4, 5), endpoint=True, dtype=dt)
        elif dt.kind == "f":
            a = (r.standard_normal((3, 4, 5)) * 5).astype(dt)
        else:
            a = (r.standard_normal((3, 4, 5)) * 5 + 1j * r.standard_normal((3, 4, 5))).astype(dt)
            a[1, 2, :] = a[1, 2, 0].real + 1j * np.arange(5)  # lexicographic ties
        save(f"red_{d}_in", a)
        red_in[d] = a
        for op in ["sum", "mean", "min", "max"]:
            for nm, ax, kd in axis_cases:
                res = getattr(np, op)(a, axis=ax, keepdims=kd)
                save(f"red_{d}_{op}_{nm}", np.asarray(res))
        # float32 sums: NumPy accumulates pairwise in float32, cusci in float64, so the tolerance is
        # NumPy's own rounding error (about n * eps * max|x|), not cusci's.
        low = dt in (np.float32, np.complex64)
        s.case(f"red_{d}", func="reduce", rtol=4e-6 if low else 1e-14, atol=1e-4 if low else 1e-12, dtype=d,
               input=f"red_{d}_in")
        if dt.kind in "iu" and dt.itemsize == 8:
            # mean of full-range 64-bit integers: NumPy converts each element to float64 and sums
            # pairwise; another summation order moves the result by about n * eps * max|x|.
            s.case(f"red_{d}_mean", func="reduce_op", rtol=0,
                   atol=a.size * np.finfo(np.float64).eps * float(np.abs(a.astype(np.float64)).max()), dtype=d,
                   op="mean")

    # Reductions of a reversed, step -2 view of the float64 (3, 4, 5) input: a[..., ::-2].
    a = red_in["float64"][..., ::-2]
    for op in ["sum", "mean", "min", "max"]:
        for nm, ax in [("none", None), ("0", 0), ("2", 2), ("02", (0, 2))]:
            save(f"redview_{op}_{nm}", np.asarray(getattr(np, op)(a, axis=ax)))
    s.case("redview", func="reduce_view", rtol=1e-14, atol=1e-12, input="red_float64_in")

    # Reductions with NaN (propagation) and empty selections.
    v = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]], np.float32)
    save("rednan_in", v)
    for op in ["sum", "mean", "min", "max"]:
        for nm, ax in [("none", None), ("0", 0), ("1", 1)]:
            save(f"rednan_{op}_{nm}", np.asarray(getattr(np, op)(v, axis=ax)))
    vc = np.array([1 + 1j, complex(1, np.nan), 0.5 + 9j, 2 - 1j], np.complex128)
    save("rednanc_in", vc)
    save("rednanc_min", np.asarray(np.min(vc)))
    save("rednanc_max", np.asarray(np.max(vc)))
    save("rednanc_nonan_in", vc[[0, 2, 3]])
    save("rednanc_min_nonan", np.asarray(np.min(vc[[0, 2, 3]])))
    save("rednanc_max_nonan", np.asarray(np.max(vc[[0, 2, 3]])))
    s.case("rednan", func="reduce_nan", rtol=1e-6, atol=0)
    with np.errstate(all="ignore"):
        import warnings
        warnings.simplefilter("ignore")
        e = np.zeros((2, 0), np.float32)
        for nm, val in [("sum_1", np.sum(e, axis=1)), ("mean_1", np.mean(e, axis=1)),
                        ("sum_none", np.asarray(np.sum(e))), ("mean_none", np.asarray(np.mean(e))),
                        ("sum_0", np.sum(e, axis=0)), ("min_0", np.min(e, axis=0)),
                        ("isum_none", np.asarray(np.sum(np.zeros((0, 3), np.int8)))),
                        ("imean_1", np.mean(np.zeros((2, 0), np.int32), axis=1))]:
            save("redempty_" + nm, val)
    s.case("redempty", func="reduce_empty")
    for k, (shape, op, ax) in enumerate([((2, 0), "min", 1), ((0,), "max", None), ((0, 0), "min", 0),
                                         ((3, 0), "max", None)]):
        try:
            getattr(np, op)(np.zeros(shape), axis=ax)
            raise SystemExit("expected an error")
        except ValueError as err:
            s.case(f"redempty_err{k}", func="reduce_error", error="value_error", shape=shape, op=op,
                   axis=None if ax is None else [ax], message=str(err))

    # dtype= and keepdims.
    i8 = np.array([[100, 100, 27], [-128, -1, 5]], np.int8)
    f8 = np.array([[1.5, 1.5, -2.7], [1e30, 2.25, 3.0]], np.float64)
    b = np.array([[True, False, False], [False, False, False]])
    save("reddt_i8", i8)
    save("reddt_f8", f8)
    save("reddt_b", b)
    save("reddt_i8_sum_int8", np.asarray(np.sum(i8, dtype=np.int8)))
    save("reddt_i8_sum_int8_0", np.sum(i8, axis=0, dtype=np.int8))
    save("reddt_i8_sum_uint16_1", np.sum(i8, axis=1, dtype=np.uint16))
    f8b = np.array([[1.5, 1.5, -2.7], [4.9, 2.25, 3.0]])
    save("reddt_f8b", f8b)
    save("reddt_f8b_sum_int64_1", np.sum(f8b, axis=1, dtype=np.int64))
    save("reddt_f8_sum_float32", np.asarray(np.sum(f8, dtype=np.float32)))
    save("reddt_i8_mean_float32_0", np.mean(i8, axis=0, dtype=np.float32))
    save("reddt_b_sum_bool_1", np.sum(b, axis=1, dtype=np.bool_))
    save("reddt_i8_sum_complex128", np.asarray(np.sum(i8, dtype=np.complex128)))
    save("reddt_f8_max_float32_0", np.max(f8, axis=0).astype(np.float32))
    s.case("reddt", func="reduce_dtype", rtol=1e-6, atol=0)

    # Large reductions on inputs both sides compute from a hash (no large files):
    # x[i] = ((i * 2654435761) mod 2^32) / 2^32 - 0.5 in float64, rounded to float32;
    # ints: ((i * 2654435761) mod 2^32) mod 1000 - 500 as int32.
    def hashed(n):
        i = np.arange(n, dtype=np.uint64)
        h = (i * np.uint64(2654435761)) % np.uint64(2 ** 32)
        return (h.astype(np.float64) / 2.0 ** 32 - 0.5).astype(np.float32), (h % 1000).astype(np.int32) - 500

    for k, (shape, axis) in enumerate([((3, 200003), 1), ((3, 200003), 0), ((200003, 3), 0),
                                       ((200003, 3), 1), ((513, 1031), 0), ((513, 1031), 1),
                                       ((513, 1031), None), ((1 << 20,), None), ((64, 3, 4099), (0, 2)),
                                       ((4099, 3, 64), (0, 2))]):
        n = int(np.prod(shape))
        xf, xi = hashed(n)
        xf = xf.reshape(shape)
        xi = xi.reshape(shape)
        ax = axis
        res = {"exact": np.sum(xf.astype(np.float64), axis=ax), "numpy32": np.sum(xf, axis=ax),
               "isum": np.sum(xi, axis=ax), "imax": np.max(xi, axis=ax), "fmin": np.min(xf, axis=ax),
               "mean": np.mean(xf, axis=ax)}
        size = np.asarray(res["exact"]).size
        sub = max(1, -(-size // 500))  # large outputs are checked on every sub-th element
        for nm, val in res.items():
            save(f"redbig{k}_{nm}", np.asarray(val).ravel()[::sub])
        s.case(f"redbig{k}", func="reduce_big", rtol=1e-6, atol=1e-6, shape=shape,
               axis=None if ax is None else np.atleast_1d(ax).tolist(), sub=sub)

    # A large contiguous elementwise case (vector kernel and its tail), same hash input; results are
    # stored on every 7th element plus the last 8.
    xf, _ = hashed(100003)
    idx = np.concatenate([np.arange(0, 100003, 7), np.arange(100003 - 8, 100003)]).astype(np.int64)
    save("ewbig_idx", idx)
    with np.errstate(all="ignore"):
        for nm, val in [("add_rev", xf + xf[::-1]), ("mul_2", xf * 2), ("rsub_1", 1 - xf), ("exp", np.exp(xf)),
                        ("less_half", xf < 0.25), ("sqrt_abs", np.sqrt(np.abs(xf)))]:
            save("ewbig_" + nm, val[idx])
    s.case("ewbig", func="elementwise_big", rtol=1e-6, atol=1e-7, n=100003, idx="ewbig_idx")

    # Bad axes.
    for k, (ax, err, msg) in enumerate([((3,), "index_error", "axis 3 is out of bounds for array of dimension 3"),
                                        ((-4,), "index_error", "axis -4 is out of bounds for array of dimension 3"),
                                        ((0, 0), "value_error", "duplicate value in 'axis'"),
                                        ((1, -2), "value_error", "duplicate value in 'axis'")]):
        try:
            np.sum(np.zeros((2, 3, 4)), axis=ax)
            raise SystemExit("expected an axis error")
        except (ValueError, IndexError) as e:
            assert str(e) == msg, (str(e), msg)
            assert (err == "index_error") == isinstance(e, IndexError)
        s.case(f"redaxis_err{k}", func="axis_error", error=err, axis=list(ax), message=msg)
    s.write()


if __name__ == "__main__":
    main()
