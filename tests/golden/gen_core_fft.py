"""Golden data for cusci::fft (scipy.fft 1.18 semantics).

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/core_fft/.

Cases: func is the scipy.fft function name (fft, ..., idstn, fftshift, ifftshift); parameters:
  x         input array <case>_x (for layouts strided / reversed / offset: the base array, see below),
            x_shape its shape ([] for a 0-d input)
  expected  <case>_y (None for error cases)
  layout    C | F | strided (x = base[..., ::2]) | reversed (x = base[..., ::-1]) | offset (x = base[1:])
  n         1-D length or None;  s: N-D lengths or None
  axis      1-D axis;  axes: list, None (default) or [] (no axes)
  norm      backward | ortho | forward
  type      DCT/DST type (0 for the DFTs);  orthogonalize: None | false | true
  error     value_error | index_error | type_error
  rtol, atol  tolerances (atol scaled by the result's magnitude and the log of the length)
Host-test tables: array fast_len [T, 5] int64 rows (target, next, next real, prev, prev real);
arrays fftfreq_<i> / rfftfreq_<i> with their (n, d) in the file freq.tsv.
"""
import numpy as np
import scipy.fft as sf

from golden import Suite

suite = Suite("core_fft")
rng = suite.rng(20261130)


def make(dt, shape):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(-20, 20, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def fmt(v):
    """v in case names: 'none', 'empty' or the values joined by commas."""
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return "empty" if len(v) == 0 else ",".join(str(int(a)) for a in v)
    return str(v)


def sig3(v):
    """v rounded to 3 significant digits (the tolerances as they have always been given)."""
    return float(f"{v:.3g}")


def layout_of(base, layout):
    if layout == "C":
        return base
    if layout == "F":
        return np.asfortranarray(base)
    if layout == "strided":
        return base[..., ::2]
    if layout == "reversed":
        return base[..., ::-1]
    if layout == "offset":
        return base[1:]
    raise ValueError(layout)


def tolerance(y, x, lens):
    single = np.dtype(y.dtype) in (np.float32, np.complex64)
    eps = 1.2e-7 if single else 2.3e-16
    n = max(2, int(np.prod(lens)) if lens else 2)
    mag = float(np.max(np.abs(y))) if y.size else 1.0
    mag = max(mag, float(np.max(np.abs(x))) if x.size else 1.0, 1.0)
    return (20 if single else 50) * eps, 10 * eps * mag * np.log2(n) + eps * mag


def case(name, func, shape, dt, layout="C", n=None, s=None, axis=-1, axes=None, norm="backward",
         type_=0, orth=None, expect="ok", raw=None, deviation=False):
    """Adds one case: computes scipy.fft.<func>(x, ...) on the array the C++ test rebuilds."""
    if raw is not None:
        base = raw
    else:
        bshape = list(shape)
        if layout == "strided" and bshape:
            bshape[-1] = 2 * bshape[-1]
        if layout == "offset":
            bshape[0] += 1
        base = make(dt, tuple(bshape))
    x = layout_of(base, layout) if layout in ("strided", "reversed", "offset") else base
    x_name = suite.array(name + "_x", base)
    expected = None
    f = getattr(sf, func)
    kw = {}
    if func in ("fftshift", "ifftshift"):
        if axes is not None:
            kw["axes"] = axes
        y = f(x, **kw)
        lens = [1]
    elif func.endswith("n") or func.endswith("2"):
        if s is not None:
            kw["s"] = s
        if axes is not None:
            kw["axes"] = axes
        elif func.endswith("2"):
            pass
        kw["norm"] = norm
        if type_:
            kw["type"] = type_
            kw["orthogonalize"] = orth
        lens = list(s) if s is not None else None
    else:
        kw = dict(n=n, axis=axis, norm=norm)
        if type_:
            kw["type"] = type_
            kw["orthogonalize"] = orth
        lens = [n] if n is not None else None
    if expect == "ok":
        if func not in ("fftshift", "ifftshift"):
            y = f(x, **kw)
        if lens is None:
            lens = [max(y.shape)] if y.ndim else [1]
        rtol, atol = tolerance(y, x, [max(v, 1) for v in lens])
        if func in ("fftshift", "ifftshift"):
            rtol, atol = 0.0, 0.0
        expected = suite.array(name + "_y", y)
    elif deviation:  # cusci raises where SciPy returns a degenerate result (documented deviation)
        rtol, atol = 0.0, 0.0
    else:
        try:
            f(x, **kw)
            raise SystemExit(f"{name}: expected {expect} but SciPy succeeded")
        except (ValueError, IndexError, TypeError, RuntimeError) as e:
            got = {ValueError: "value_error", IndexError: "index_error", TypeError: "type_error",
                   RuntimeError: "value_error"}[type(e)]
            if got != expect:
                raise SystemExit(f"{name}: SciPy raised {type(e).__name__}, manifest says {expect}")
        rtol, atol = 0.0, 0.0
    suite.case(name, func=func, rtol=sig3(rtol), atol=sig3(atol), error=None if expect == "ok" else expect, x=x_name,
            x_shape=list(base.shape), expected=expected, layout=layout, n=n, s=s, axis=axis, axes=axes, norm=norm,
            type=type_, orthogonalize=orth)


NORMS = ["backward", "ortho", "forward"]
k = 0

# --- 1-D DFTs: every function x dtype x length x norm, crop/pad, axes, layouts ---------------------
suite.group("dft_1d")
for func in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]:
    real_only = func in ("rfft", "ihfft")
    dts = ["float32", "float64", "int32"] if real_only else ["float32", "float64", "complex64", "complex128", "int32"]
    for dt in dts:
        for L in [1, 2, 7, 8, 16, 45]:
            if func in ("irfft", "hfft") and L == 1:
                case(f"{func}_{dt}_L1_default", func, (1,), dt, expect="value_error")
                case(f"{func}_{dt}_L1_n1", func, (1,), dt, n=1, norm=NORMS[k % 3])
                k += 1
                continue
            case(f"{func}_{dt}_L{L}", func, (L,), dt, norm=NORMS[k % 3])
            k += 1
        # crop and pad (odd / even targets)
        for n in [5, 6, 20, 33]:
            case(f"{func}_{dt}_n{n}", func, (12,), dt, n=n, norm=NORMS[k % 3])
            k += 1
    # bool input
    case(f"{func}_bool", func, (9,), "bool")
    # axes and layouts on 2-D / 3-D
    for dt in (["float64", "float32"] if real_only else ["complex128", "complex64", "float64"]):
        for layout in ["C", "F", "strided", "reversed"]:
            for axis in [0, 1, -1, -2]:
                case(f"{func}_{dt}_{layout}_ax{axis}", func, (6, 9), dt, layout=layout, axis=axis,
                     norm=NORMS[k % 3], n=[None, 7, 12][k % 3])
                k += 1
        case(f"{func}_{dt}_3d_ax1", func, (3, 10, 4), dt, axis=1, norm=NORMS[k % 3])
        case(f"{func}_{dt}_3d_F_ax0", func, (5, 3, 4), dt, layout="F", axis=0, n=8)
        k += 1
    case(f"{func}_empty_batch", func, (0, 8), "float64")
    # errors
    # SciPy's irfft/hfft give a length-1 result for n=0 (the backend treats 0 as a default): cusci refuses it
    case(f"{func}_err_n0", func, (8,), "float64", n=0, expect="value_error", deviation=func in ("irfft", "hfft"))
    case(f"{func}_err_axis", func, (4, 5), "float64", axis=2, expect="index_error")
    case(f"{func}_err_axis_neg", func, (4, 5), "float64", axis=-3, expect="index_error")
    case(f"{func}_err_0d", func, (), "float64", expect="index_error", raw=np.array(1.5))
    case(f"{func}_err_empty", func, (0,), "float64", expect="value_error")
case("rfft_err_complex", "rfft", (8,), "complex128", expect="type_error")
case("ihfft_err_complex", "ihfft", (8,), "complex64", expect="type_error")
case("fft_large_pow2", "fft", (4096,), "complex64")
case("fft_large_prime", "fft", (1031,), "complex128")
case("rfft_large", "rfft", (3000,), "float32")
case("irfft_large", "irfft", (1025,), "complex64", n=2048)

# --- N-D DFTs ---------------------------------------------------------------------------------
suite.group("dft_nd")
for func in ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn",
             "ihfftn"]:
    real_in = func.startswith("rfft") or func.startswith("ihfft")
    dts = ["float32", "float64", "int32"] if real_in else ["complex64", "complex128", "float64"]
    is2 = func.endswith("2")
    for dt in dts:
        for shape in [(4, 6), (5, 7), (1, 8), (3, 4, 5)]:
            case(f"{func}_{dt}_{'x'.join(map(str, shape))}", func, shape, dt, norm=NORMS[k % 3])
            k += 1
    for layout in ["C", "F", "strided", "reversed"]:
        for axes in ([None, (0, 1), (1, 0), (-1, -2)] if is2 else [None, (0,), (1,), (0, 2), (2, 0), (-1, 0, 1), (1, 2)]):
            shape = (4, 6) if is2 else (4, 5, 6)
            dt = "float64" if real_in else "complex128"
            if is2 and axes is not None and shape == (4, 6):
                pass
            case(f"{func}_{layout}_{fmt(axes).replace(',', '_').replace('-', 'm')}", func, shape, dt, layout=layout,
                 axes=axes, norm=NORMS[k % 3])
            k += 1
    # s: crop / pad, -1, with and without axes
    for s, axes in ([((3, 8), None), ((6, 5), None), ((4, 7), (0, 1)), ((7, 4), (1, 0))] if is2 else
                    [((3, 8), None), ((6, 5, 2), None), ((4,), (1,)), ((7, 3), (2, 0)), ((5,), None), ((-1, 9), (0, 2))]):
        shape = (4, 6) if is2 else (4, 5, 6)
        dt = "float32" if real_in else "complex64"
        case(f"{func}_s_{fmt(s).replace(',', '_').replace('-', 'm')}_{fmt(axes).replace(',', '_')}", func, shape, dt,
             s=s, axes=axes, norm=NORMS[k % 3])
        k += 1
    case(f"{func}_4d", func, (2, 3, 4, 5), "float64" if real_in else "complex128", axes=None if is2 else (0, 1, 3))
    # errors
    case(f"{func}_err_repeat", func, (4, 6), "float64", axes=(0, 0), expect="value_error")
    case(f"{func}_err_axes_range", func, (4, 6), "float64", axes=(0, 2), expect="value_error")
    case(f"{func}_err_s0", func, (4, 6), "float64", s=(4, 0), axes=(0, 1), expect="value_error")
    case(f"{func}_err_slen", func, (4, 6), "float64", s=(4, 5), axes=(0,), expect="value_error")
    if not is2:
        case(f"{func}_err_s_too_long", func, (4, 6), "float64", s=(2, 3, 4), expect="value_error")
case("rfftn_err_empty_axes", "rfftn", (4, 6), "float64", axes=(), expect="value_error")
case("irfftn_err_empty_axes", "irfftn", (4, 6), "complex128", axes=(), expect="value_error")
case("rfftn_err_complex", "rfftn", (4, 6), "complex128", expect="type_error")
case("ihfftn_err_complex", "ihfftn", (4, 6), "complex128", expect="type_error")
case("ihfft2_err_complex", "ihfft2", (4, 6), "complex64", expect="type_error")
case("hfftn_3d_trailing", "hfftn", (4, 6, 5), "complex128", axes=(0, 1, 2), s=(4, 6, 8))
case("fftn_empty_axes", "fftn", (4, 6), "complex128", axes=())
case("fft2_large", "fft2", (64, 128), "complex64")
case("irfft2_large", "irfft2", (64, 65), "complex64")
case("irfftn_3d_trailing", "irfftn", (4, 6, 5), "complex128", axes=(0, 1, 2), s=(4, 6, 8))

# --- fast Hankel transform (FFTLog) ------------------------------------------------------------
# fht / ifht of power-law-times-Gaussian profiles on log grids, every dtype, orders (negative, half,
# integer), offsets (fhtoffset's optimum and others), biases including the singular ones (pole cases:
# SciPy warns "singular transform" / "singular inverse transform" and fixes u_0); batched leading
# dimensions and strided input. Params: dln, mu, offset, bias, warns (SciPy's UserWarning count).
suite.group("fftlog")
import warnings as _warnings


def fftlog_case(name, func, x, dln, mu, offset=0.0, bias=0.0, layout="C"):
    xin = x[..., ::2] if layout == "strided" else x
    with _warnings.catch_warnings(record=True) as w:
        _warnings.simplefilter("always")
        y = getattr(sf, func)(xin, dln, mu, offset=offset, bias=bias)
    single = y.dtype == np.float32
    mag = max(float(np.max(np.abs(y))), 1e-300)
    suite.case(name, func=func, rtol=1e-4 if single else 1e-10, atol=(1e-4 if single else 1e-10) * mag,
               x=suite.array(name + "_x", x), expected=suite.array(name + "_y", y), dln=dln, mu=mu, offset=offset,
               bias=bias, layout=layout, warns=len([m for m in w if "singular" in str(m.message)]))


r_grid = np.logspace(-4, 4, 128)
prof = r_grid ** 1.5 * np.exp(-r_grid ** 2 / 2)
dln0 = float(np.log(r_grid[1] / r_grid[0]))
for mu in [0.0, 0.5, 2.0, -0.5, 1.3]:
    for bias in [0.0, 0.7, -0.4]:
        off = sf.fhtoffset(dln0, mu, bias=bias)
        fftlog_case(f"fht_mu{fmt(mu)}_q{fmt(bias)}".replace("-", "m").replace(".", "p"), "fht", prof, dln0, mu,
                    offset=off, bias=bias)
        fftlog_case(f"ifht_mu{fmt(mu)}_q{fmt(bias)}".replace("-", "m").replace(".", "p"), "ifht", prof, dln0, mu,
                    offset=off, bias=bias)
fftlog_case("fht_odd", "fht", prof[:101], dln0, 1.0, offset=0.3)
fftlog_case("fht_f32", "fht", prof.astype(np.float32), dln0, 0.5)
fftlog_case("fht_f32_bias", "fht", prof.astype(np.float32), dln0, 0.5, bias=0.5)
fftlog_case("fht_int", "fht", np.arange(1, 33, dtype=np.int64), 0.05, 0.0)
fftlog_case("fht_batched", "fht", np.stack([prof, 2 * prof[::-1], prof ** 0.5]), dln0, 0.0, offset=0.1)
fftlog_case("fht_strided", "fht", np.stack([prof, prof[::-1]]), dln0, 0.0, layout="strided")
fftlog_case("fht_n1", "fht", np.array([2.5]), 0.1, 0.0)
fftlog_case("fht_n2", "fht", np.array([2.5, 1.0]), 0.1, 0.5)
# poles: xm = (mu + 1 - q) / 2 or xp = (mu + 1 + q) / 2 a non-positive integer
fftlog_case("fht_pole_xm", "fht", prof, dln0, 0.0, bias=1.0)   # u_0 = 0
fftlog_case("fht_singular", "fht", prof, dln0, 0.0, bias=-1.0)  # u_0 = inf: warns, u_0 := 0
fftlog_case("ifht_singular", "ifht", prof, dln0, 0.0, bias=1.0)  # u_0 = 0: warns, u_0 := inf
fftlog_case("fht_both_poles", "fht", prof, dln0, -3.0, bias=1.0)
for name, dln, mu, init, bias in [("a", 0.1, 2.0, 0.5, 0.0), ("b", 0.05, -0.5, 0.0, 0.3), ("c", 0.01, 0.0, -1.0, 0.0),
                                  ("d", 0.2, 3.5, 2.0, -1.2), ("e", 0.02, 1.0, 0.0, 1.0)]:
    suite.case(f"fhtoffset_{name}", func="fhtoffset", rtol=1e-12, atol=1e-12 * max(1.0, abs(init)), dln=dln, mu=mu,
               initial=init, bias=bias, value=float(sf.fhtoffset(dln, mu, initial=init, bias=bias)))
suite.case("fht_err_complex", func="fht", error="type_error", x=suite.array("fht_err_complex_x", prof.astype(complex)),
           dln=dln0, mu=0.0, offset=0.0, bias=0.0, layout="C", warns=0)

# --- DCT / DST --------------------------------------------------------------------------------
suite.group("dct_dst")
for func in ["dct", "idct", "dst", "idst"]:
    for t in [1, 2, 3, 4]:
        for norm in NORMS:
            for orth in [None, False, True]:
                L = [1, 2, 5, 8, 9][k % 5]
                if func in ("dct", "idct") and t == 1 and L == 1:
                    L = 3
                case(f"{func}_t{t}_{norm}_o{fmt(orth)}", func, (L,), "float64", norm=norm, type_=t, orth=orth)
                k += 1
        for n in [1, 4, 7, 12]:
            if func in ("dct", "idct") and t == 1 and n == 1:
                continue
            case(f"{func}_t{t}_n{n}", func, (6,), "float64", n=n, type_=t, norm=NORMS[k % 3])
            k += 1
        for dt in ["float32", "complex128", "complex64", "int32"]:
            case(f"{func}_t{t}_{dt}", func, (11,), dt, type_=t, norm=NORMS[k % 3])
            k += 1
        for layout in ["C", "F", "strided", "reversed"]:
            for axis in [0, -1]:
                case(f"{func}_t{t}_{layout}_ax{axis}", func, (5, 6), "float64", layout=layout, axis=axis, type_=t,
                     norm=NORMS[k % 3], n=[None, 4, 9][k % 3])
                k += 1
        case(f"{func}_t{t}_3d_ax1", func, (3, 7, 4), "float32", axis=1, type_=t)
        case(f"{func}_t{t}_large", func, (2, 300), "float64", type_=t)
    case(f"{func}_err_type", func, (8,), "float64", type_=5, expect="value_error")
    case(f"{func}_err_n0", func, (8,), "float64", type_=2, n=0, expect="value_error")
    case(f"{func}_err_axis", func, (4, 5), "float64", type_=2, axis=2, expect="index_error")
case("dct_err_t1_len1", "dct", (1,), "float64", type_=1, expect="value_error")
case("idct_err_t1_len1", "idct", (1,), "float64", type_=1, expect="value_error")
for func in ["dctn", "idctn", "dstn", "idstn"]:
    for t in [1, 2, 3, 4]:
        for axes, s in [(None, None), ((0,), None), ((1, 0), (5, 3)), ((-1,), (8,)), ((0, 2), None)]:
            shape = (4, 6) if axes != (0, 2) else (4, 3, 5)
            for layout in (["C", "F"] if axes is None else ["strided"]):
                case(f"{func}_t{t}_{layout}_{fmt(axes).replace(',', '_').replace('-', 'm')}_{fmt(s).replace(',', '_')}",
                     func, shape, ["float64", "float32", "complex128"][k % 3], layout=layout, axes=axes, s=s,
                     type_=t, norm=NORMS[k % 3], orth=[None, True, False][(k // 3) % 3])
                k += 1
    case(f"{func}_err_axes", func, (4, 6), "float64", type_=2, axes=(0, 3), expect="value_error")
    case(f"{func}_err_repeat", func, (4, 6), "float64", type_=2, axes=(1, 1), expect="value_error")

# --- shifts -----------------------------------------------------------------------------------
suite.group("shift_align")
for func in ["fftshift", "ifftshift"]:
    for dt, shape in [("float64", (7,)), ("int32", (8,)), ("complex128", (4, 5)), ("float32", (3, 4, 5)),
                      ("bool", (5, 6)), ("int8", (9,))]:
        for axes in [None, (0,), (-1,), (0, 0)]:
            if axes == (0, 0) and len(shape) < 2:
                continue
            case(f"{func}_{dt}_{len(shape)}d_{fmt(axes).replace(',', '_').replace('-', 'm')}", func, shape, dt,
                 axes=axes)
    case(f"{func}_F", func, (4, 5), "complex64", layout="F", axes=(1,))
    case(f"{func}_strided", func, (4, 5), "float64", layout="strided")

# --- alignment: cuFFT needs real data aligned to the complex type's size. Real transforms along a middle
# axis loop over blocks of odd length (R2C inputs / C2R outputs staged), and views that start one element
# (or one odd row) into their base.
for func, shape, dt, axes, s, layout in [
        ("rfftn", (3, 5, 3), "float64", (1,), None, "C"),      # batch the inner lines, odd input blocks
        ("rfftn", (3, 5, 3), "float32", (1,), None, "C"),
        ("rfftn", (5, 4, 3), "float64", (1,), None, "C"),      # batch the outer blocks, loop the inner lines
        ("rfftn", (5, 4, 3), "float32", (1,), None, "C"),
        ("rfftn", (3, 5, 4), "float64", (1,), None, "F"),      # strided input read in place, odd loop step
        ("rfftn", (3, 5, 3), "float64", (0, 2), None, "offset"),
        ("rfftn", (3, 5, 3), "float64", (2, 1), None, "C"),
        ("irfftn", (3, 4, 3), "complex128", (1,), (5,), "C"),  # odd output blocks
        ("irfftn", (3, 4, 3), "complex64", (1,), (5,), "C"),
        ("irfftn", (5, 3, 3), "complex128", (1,), (5,), "C"),  # loop over the inner lines
        ("irfftn", (5, 3, 3), "complex64", (1,), (5,), "C"),
        ("irfftn", (3, 4, 3), "complex128", (2, 1), (4, 7), "C"),
        ("rfft2", (3, 7), "float64", None, None, "offset"),
        ("rfft2", (3, 7), "float32", None, None, "offset"),
        ("fftn", (3, 5, 3), "complex64", (1,), None, "offset"),
        ("fftn", (3, 5, 3), "complex128", (0, 1), None, "offset")]:
    case(f"align_{func}_{dt}_{'x'.join(map(str, shape))}_{fmt(axes).replace(',', '_')}_{layout}", func, shape, dt,
         layout=layout, axes=axes, s=s, norm=NORMS[k % 3])
    k += 1
for func, shape, dt, axis, n, layout in [
        ("rfft", (9,), "float64", -1, None, "offset"),
        ("rfft", (9,), "float32", -1, None, "offset"),
        ("rfft", (4, 7), "float64", -1, None, "offset"),
        ("ihfft", (3, 5, 3), "float64", 1, None, "C"),
        ("rfft", (5, 4, 3), "float32", 1, None, "C"),
        ("irfft", (3, 5, 3), "complex64", 1, 7, "C"),
        ("hfft", (3, 5, 3), "complex128", 1, 7, "C"),
        ("hfft", (5, 4, 3), "complex64", 1, 5, "C"),
        ("fft", (9,), "complex64", -1, None, "offset"),
        ("fft", (9,), "complex128", -1, None, "offset")]:
    case(f"align_{func}_{dt}_{'x'.join(map(str, shape))}_ax{axis}_{layout}", func, shape, dt, layout=layout,
         axis=axis, n=n, norm=NORMS[k % 3])
    k += 1
case("align_dct_t2_offset", "dct", (9,), "float64", layout="offset", type_=2)

# --- host tables ------------------------------------------------------------------------------
suite.group("host")
targets = list(range(0, 130)) + [211, 1000, 1021, 1025, 2049, 4095, 9973, 65537, 100001, 123456789,
                                 (1 << 31) + 1, 10**12 + 7]
tab = np.array([[t, sf.next_fast_len(t), sf.next_fast_len(t, real=True),
                 sf.prev_fast_len(t), sf.prev_fast_len(t, real=True)] for t in targets], dtype=np.int64)
suite.array("fast_len", tab)
freq_rows = []
for i, (n, d) in enumerate([(1, 1.0), (2, 1.0), (5, 0.1), (8, 2.5), (9, -1.0), (100, 1e-3)]):
    suite.array(f"fftfreq_{i}", sf.fftfreq(n, d))
    suite.array(f"rfftfreq_{i}", sf.rfftfreq(n, d))
    freq_rows.append(f"{i}\t{n}\t{d!r}")
with open(suite.file("freq.tsv"), "w") as f:
    f.write("case\tn\td\n" + "\n".join(freq_rows) + "\n")
suite.write()
