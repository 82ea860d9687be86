#!/usr/bin/env python
"""Reference data for cusci's array core (views, copies, casts, creation functions, .npy files). Run at
build time (tests/golden/CMakeLists.txt).

A case's func is the operation: index, T, transpose, reshape, squeeze, expand_dims, broadcast_to, copy,
astype, fill, roundtrip, zeros_like, ones_like, empty_like, arange, arange1, linspace, eye, zeros, ones,
empty, full, npy (a file for the .npy reader), npy_bad (a file the reader must reject). Its params:
  input        name of the input array (C order; absent for creation functions)
  layout       "C" or "F": layout of the device input (F = np.asfortranarray)
  pre          basic index applied to the input before the operation, or null
  in_dtype     dtype of the input
  the operation's arguments, named as NumPy names them: index, axes, shape, order, copy, axis, dtype,
               value / fill_value, start, stop, step, num, endpoint, N, M, k
  out_shape    expected shape; out_strides: expected strides in bytes, or null when not checked
  out_dtype    expected dtype, or null when not checked
  view         true when the result must share memory with the input, false when it must not, null
  c_contiguous, f_contiguous   NumPy's flags of the result, or null when not checked
  expected     name of the array of NumPy's result, or null
An index is a list of entries: an integer, [start, stop, step] (null parts allowed), "newaxis" or "...".
npy cases name a file (written by NumPy beside the manifest) with its dtype, shape, format version,
fortran_order and the array's sum as [re, im] (a check on the decoded values).
"""
import numpy as np

from golden import Suite, tol

s = Suite("core_array")
rng = np.random.default_rng(20240611)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
inputs = {}
save = s.array


def parse_index(text):
    """NumPy's index for the generator's own compact notation ("1:,::-1,None,...")."""
    if text == "":
        return ()
    out = []
    for tok in text.split(","):
        tok = tok.strip()
        if tok == "None":
            out.append(None)
        elif tok == "...":
            out.append(Ellipsis)
        elif ":" in tok:
            parts = [int(p) if p.strip() else None for p in tok.split(":")]
            out.append(slice(*parts))
        else:
            out.append(int(tok))
    return tuple(out)


def index_param(text):
    """The index of `text` as a JSON list (see the module docstring)."""
    out = []
    for e in parse_index(text):
        if e is None:
            out.append("newaxis")
        elif e is Ellipsis:
            out.append("...")
        elif isinstance(e, slice):
            out.append([e.start, e.stop, e.step])
        else:
            out.append(e)
    return out


def ints(text):
    return [int(v) for v in text.split(",")] if text else []


def make_input(shape, dtype="float64"):
    name = f"in_{dtype}_" + ("x".join(map(str, shape)) if shape else "0d")
    if name not in inputs:
        n = int(np.prod(shape)) if shape else 1
        base = np.arange(1, n + 1, dtype=np.float64) * 1.25 - n / 3.0
        if dtype == "bool":
            a = (np.arange(n) % 3 == 1)
        elif dtype.startswith("uint"):
            a = (np.arange(n) * 7 + 3).astype(dtype)
        elif dtype.startswith("int"):
            a = (np.arange(n) * 5 - n).astype(dtype)
        elif dtype.startswith("complex"):
            a = (base + 1j * (base[::-1] * 0.5)).astype(dtype)
        else:
            a = base.astype(dtype)
        a = a.reshape(shape)
        save(name, a)
        inputs[name] = a
    return name, inputs[name]


def row(case, op, rtol=0.0, atol=0.0, error=None, input=None, layout="C", pre="", **params):
    s.case(case, func=op, rtol=rtol, atol=atol, error=error, input=input, layout=layout,
           pre=index_param(pre) if pre else None, **params)


def result(r, view=None, flags=False):
    """The expectations on a result array `r`: shape, strides, memory sharing and flags."""
    out = dict(out_shape=list(r.shape), out_strides=list(r.strides), view=view)
    if flags:
        out.update(c_contiguous=bool(r.flags.c_contiguous), f_contiguous=bool(r.flags.f_contiguous))
    return out


def device_input(shape, dtype, layout, pre):
    name, a = make_input(shape, dtype)
    x = np.asfortranarray(a) if layout == "F" else a
    if a.size == 0:  # a fresh zero-size array, as the device input is (NumPy gives it zero strides)
        x = np.empty(a.shape, a.dtype, order=layout)
    if pre:
        x = x[parse_index(pre)]
    return name, x


def view_case(case, op, shape, args, fn, layout="C", pre="", dtype="float64", error=None):
    """`args`: the operation's arguments as params."""
    name, x = device_input(shape, dtype, layout, pre)
    if error:
        try:
            fn(x)
        except (IndexError, ValueError, TypeError):
            row(case, op, error=error, input=name, layout=layout, pre=pre, in_dtype=dtype, **args)
            return
        raise AssertionError(f"{case}: NumPy did not raise")
    r = fn(x)
    # Indexing every axis with an integer gives a NumPy scalar (a copy); cusci, like CuPy, gives a
    # 0-d view of the element instead.
    scalar_result = not isinstance(r, np.ndarray)
    r = np.asarray(r)
    view = None if r.size == 0 else True if scalar_result else bool(np.may_share_memory(r, x))
    row(case, op, input=name, layout=layout, pre=pre, in_dtype=dtype, **args, **result(r, view, flags=True),
        out_dtype=dtype, expected=save(case, r))


# --- basic indexing ------------------------------------------------------------------------------
index_cases = {
    (2, 3, 4): ["1", "-1", "1,2", "0,1,2", "-2,-3,-4", "::-1", ":,::2", "...,1", "1,...", "None,...", "...,None",
                ":,None,:,None", "1:,::-1,2", "::-2,1:2", ":,:,3:0:-1", "...,::-3", "None", "", "0,...,0",
                "5:", ":,-10:10", "0,::-1,::-2", "None,0,None,...,None", ":,1:1", "1:,::-1,1::2"],
    (24,): ["3:17:4", "-3:", ":-3", "::-5", "20:3:-3", "100:-100:-1", "5:5", "24:", "-30:30", "::-1,None",
            "...", "7", "-24", ":-100", "100:", "::25", "::-25"],
    (4, 6): [":,5", "::3,::-4", "-1,:", "2:0,:", "1:3,None,2:5"],
    (): ["", "None", "...", "None,...,None"],
    (0, 3): [":,1", "::-1", "None,:,::2"],
}
k = 0
for shape, idxs in index_cases.items():
    for layout in ("C", "F") if len(shape) > 1 else ("C",):
        for ix in idxs:
            view_case(f"index_{k:03d}", "index", shape, dict(index=index_param(ix)),
                      lambda x, ix=ix: x[parse_index(ix)], layout)
            k += 1
for ix, err in [("2", "index_error"), ("0,0,0,0", "index_error"), ("...,...", "index_error"),
                ("::0", "value_error"), ("0,-4", "index_error"), ("0,3", "index_error")]:
    view_case(f"index_err_{k:03d}", "index", (2, 3, 4), dict(index=index_param(ix)),
              lambda x, ix=ix: x[parse_index(ix)], error=err)
    k += 1
# every dtype through a strided, reversed view (exercises the copy kernel in to_host)
for dt in DTYPES:
    for layout in ("C", "F"):
        view_case(f"index_dt_{dt}_{layout}", "index", (2, 3, 4), dict(index=index_param("1:,::-2,1::2")),
                  lambda x: x[1:, ::-2, 1::2], layout, dtype=dt)

# --- transpose -----------------------------------------------------------------------------------
for layout in ("C", "F"):
    for pre in ("", ":,::2"):
        view_case(f"T_{layout}_{len(pre)}", "T", (2, 3, 4), {}, lambda x: x.T, layout, pre)
        for axes in ("2,0,1", "1,0,2", "0,-1,1"):
            view_case(f"transpose_{layout}_{len(pre)}_{axes}", "transpose", (2, 3, 4), dict(axes=ints(axes)),
                      lambda x, axes=axes: x.transpose(tuple(int(a) for a in axes.split(","))), layout, pre)
view_case("transpose_err_rep", "transpose", (2, 3, 4), dict(axes=[0, 0, 1]), lambda x: x.transpose(0, 0, 1),
          error="value_error")
view_case("transpose_err_len", "transpose", (2, 3, 4), dict(axes=[0, 1]), lambda x: x.transpose(0, 1),
          error="value_error")
view_case("transpose_err_axis", "transpose", (2, 3, 4), dict(axes=[0, 1, 3]), lambda x: x.transpose(0, 1, 3),
          error="index_error")

# --- reshape: the generator's notation shape|order|copy (copy: none, true, false) ----------------------
def reshape_args(arg):
    shp, order, copy = arg.split("|")
    return dict(shape=ints(shp), order=order, copy={"none": None, "true": True, "false": False}[copy])


def reshape_fn(arg):
    a = reshape_args(arg)
    return lambda x: np.reshape(x, tuple(a["shape"]), order=a["order"], copy=a["copy"])


reshape_cases = [
    ((24,), "C", "", "2,3,4|C|none"), ((24,), "C", "", "4,-1|F|none"), ((24,), "C", "", "-1|C|none"),
    ((24,), "C", "", "2,1,12,1|C|none"), ((24,), "C", "", "24|C|none"), ((24,), "C", "", "2,3,4|C|true"),
    ((2, 3, 4), "C", "", "6,4|C|none"), ((2, 3, 4), "C", "", "6,4|F|none"), ((2, 3, 4), "C", "", "-1|F|none"),
    ((2, 3, 4), "F", "", "6,4|F|none"), ((2, 3, 4), "F", "", "24|C|none"), ((2, 3, 4), "F", "", "2,12|F|false"),
    ((2, 3, 4), "C", ":,::2", "2,-1|C|none"), ((2, 3, 4), "C", ":,::2", "-1|C|none"),
    ((2, 3, 4), "C", ":,:,::2", "3,4|C|none"), ((2, 3, 4), "C", ":,:,::2", "12|C|none"),
    ((2, 3, 4), "C", ":,:,::2", "2,1,3,2,1|C|false"), ((2, 3, 4), "C", "::-1", "6,4|C|none"),
    ((2, 3, 4), "C", ":,::-1", "2,12|C|none"), ((2, 3, 4), "F", ":,1:", "2,2,4|F|none"),
    ((2, 3, 4), "C", "", "2,3,4|C|none"), ((2, 3, 4), "C", "::-1", "2,3,4|C|none"),
    ((2, 3, 4), "C", "", "4,3,2|C|true"), ((0, 3), "C", "", "3,0|C|none"), ((0, 3), "C", "", "0|C|none"),
    ((0, 3), "C", "", "3,0,5|F|none"), ((), "C", "", "1,1|C|none"), ((), "C", "", "|C|none"),
    ((3, 1), "C", "", "1,3|C|none"), ((1, 3, 1, 4), "C", "::-1,::2", "8|C|none"),
    ((4, 6), "C", "1:3", "12|C|none"), ((4, 6), "C", ":,1:3", "8|F|none"), ((4, 6), "C", "::2,::3", "4|C|none"),
]
for i, (shape, layout, pre, arg) in enumerate(reshape_cases):
    view_case(f"reshape_{i:02d}", "reshape", shape, reshape_args(arg), reshape_fn(arg), layout, pre)
for i, (shape, layout, pre, arg) in enumerate([
        ((24,), "C", "", "5,5|C|none"), ((24,), "C", "", "-1,-1|C|none"), ((24,), "C", "", "-1,5|C|none"),
        ((24,), "C", "", "-2,-12|C|none"), ((2, 3, 4), "C", "", "4,6|F|false"), ((2, 3, 4), "C", ":,::2", "3,4|C|false"),
        ((0, 3), "C", "", "-1,0|C|none")]):
    view_case(f"reshape_err_{i}", "reshape", shape, reshape_args(arg), reshape_fn(arg), layout, pre,
              error="value_error")

# --- squeeze / expand_dims / broadcast_to ------------------------------------------------------------
for layout in ("C", "F"):
    view_case(f"squeeze_all_{layout}", "squeeze", (1, 3, 1, 4), dict(axis=None), lambda x: x.squeeze(), layout)
    for ax in (0, -2, 2):
        view_case(f"squeeze_{layout}_{ax}", "squeeze", (1, 3, 1, 4), dict(axis=ax), lambda x, ax=ax: x.squeeze(ax),
                  layout)
    for ax in (0, 1, 3, -1, -4, 2):
        for pre in ("", ":,::2"):
            view_case(f"expand_dims_{layout}_{ax}_{len(pre)}", "expand_dims", (2, 3, 4), dict(axis=ax),
                      lambda x, ax=ax: np.expand_dims(x, ax), layout, pre)
view_case("squeeze_0d", "squeeze", (), dict(axis=None), lambda x: x.squeeze())
view_case("squeeze_err_size", "squeeze", (1, 3, 1, 4), dict(axis=1), lambda x: x.squeeze(1), error="value_error")
view_case("squeeze_err_axis", "squeeze", (1, 3, 1, 4), dict(axis=4), lambda x: x.squeeze(4), error="index_error")
view_case("expand_dims_err", "expand_dims", (2, 3, 4), dict(axis=4), lambda x: np.expand_dims(x, 4),
          error="index_error")
view_case("expand_dims_err_neg", "expand_dims", (2, 3, 4), dict(axis=-5), lambda x: np.expand_dims(x, -5),
          error="index_error")
view_case("expand_dims_0d", "expand_dims", (), dict(axis=0), lambda x: np.expand_dims(x, 0))
for i, (shape, layout, pre, tgt) in enumerate([
        ((3, 1), "C", "", "2,3,5"), ((3, 1), "C", "", "3,1"), ((3, 1), "C", "", "3,0"), ((4, 6), "C", "", "2,4,6"),
        ((4, 6), "F", "", "1,4,6"), ((4, 6), "C", "::-2", "3,2,6"), ((), "C", "", "2,2"), ((24,), "C", "5:9", "3,4"),
        ((1, 3, 1, 4), "C", "", "2,3,5,4")]):
    view_case(f"broadcast_to_{i}", "broadcast_to", shape, dict(shape=ints(tgt)),
              lambda x, tgt=tgt: np.broadcast_to(x, tuple(ints(tgt))), layout, pre)
for i, (shape, tgt) in enumerate([((4, 6), "4,5"), ((4, 6), "6"), ((3, 1), "2,4,1"), ((4, 6), "-1,6")]):
    view_case(f"broadcast_to_err_{i}", "broadcast_to", shape, dict(shape=ints(tgt)),
              lambda x, tgt=tgt: np.broadcast_to(x, tuple(ints(tgt))), error="value_error")

# --- copy / astype ---------------------------------------------------------------------------------
for shape, layout, pre in [((2, 3, 4), "C", ""), ((2, 3, 4), "F", ""), ((2, 3, 4), "C", "::-1,1:,::2"),
                           ((2, 3, 4), "F", "1,::-1"), ((0, 3), "C", ""), ((), "C", ""), ((1, 3, 1, 4), "F", ""),
                           ((24,), "C", "::-3"), ((3, 1), "C", "None,...")]:
    for order in ("C", "F"):
        view_case(f"copy_{order}_{layout}_{'x'.join(map(str, shape))}_{len(pre)}", "copy", shape, dict(order=order),
                  lambda x, order=order: x.copy(order=order), layout, pre)
for dt in DTYPES:
    view_case(f"copy_dt_{dt}", "copy", (3, 5), dict(order="F"), lambda x: x.copy(order="F"), "C", ":,::-2", dtype=dt)


def cast_input(src, dst):
    """A small input of dtype src whose values convert to dst without NumPy's 'invalid value' cases."""
    vals = np.array([0.0, 1.0, 2.75, 5.5, 100.25, 3.0, 0.5])
    signed_ok = not (dst.startswith("uint") or dst == "bool")
    if signed_ok and src not in ("bool",) and not src.startswith("uint"):
        vals = np.concatenate([vals, [-3.75, -1.0, -120.5]])
    if src == "bool":
        return np.array([True, False, True, True, False])
    if src.startswith("complex"):
        return (vals + 1j * (vals[::-1] - 1.5)).astype(src)
    return vals.astype(src)


for src in DTYPES:
    for dst in DTYPES:
        a = cast_input(src, dst)
        name = save(f"cast_in_{src}_{dst}", a)
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = a.astype(dst)
        case = f"astype_{src}_{dst}"
        row(case, "astype", input=name, in_dtype=src, dtype=dst, **result(r, view=False), out_dtype=None,
            expected=save(case, r))
for layout, pre, dst in [("C", "::2,::3", "float32"), ("F", "", "int32"), ("F", "1:,::-1", "complex64"),
                         ("C", "None,::-1", "uint8"), ("C", "", "float64")]:
    _, base = make_input((4, 6), "float64")
    base = np.abs(base)
    x = np.asfortranarray(base) if layout == "F" else base
    if pre:
        x = x[parse_index(pre)]
    r = x.astype(dst)
    case = f"astype_view_{layout}_{len(pre)}_{dst}"
    nm = "absin_float64_4x6"
    if not s.has_array(nm):
        save(nm, base)
    row(case, "astype", input=nm, layout=layout, pre=pre, in_dtype="float64", dtype=dst, **result(r, view=False),
        out_dtype=None, expected=save(case, r))

# --- fill: the generator's notation kind:value --------------------------------------------------------
fill_vals = {"int:3": 3, "float:2.75": 2.75, "bool:1": True, "int:-2": -2, "complex:1.5,-2": 1.5 - 2j, "int:0": 0}
for dt in DTYPES:
    for arg, v in fill_vals.items():
        if arg.startswith("complex") and not dt.startswith("complex"):
            continue
        if arg == "int:-2" and (dt.startswith("uint") or dt == "bool"):
            continue
        for pre in ("", ":,::2"):
            name, base = make_input((3, 4), dt)
            b = base.copy()
            b[parse_index(pre)].fill(v)
            case = f"fill_{dt}_{arg.replace(':', '_').replace(',', '_')}_{len(pre)}"
            row(case, "fill", input=name, pre=pre, in_dtype=dt, value=v, **result(b), out_dtype=None,
                expected=save(case, b))

# --- transfers ---------------------------------------------------------------------------------------
for dt in DTYPES:
    for shape in [(3, 5), (0,), (), (1,), (257,)]:
        name, a = make_input(shape, dt)
        case = f"roundtrip_{dt}_{'x'.join(map(str, shape)) or '0d'}"
        row(case, "roundtrip", input=name, in_dtype=dt, **result(np.empty(a.shape, a.dtype), view=False),
            out_dtype=dt, expected=save(case, a))

# --- *_like ------------------------------------------------------------------------------------------
for op in ("zeros_like", "ones_like", "empty_like"):
    for layout, pre in [("C", ""), ("F", ""), ("C", "::2,::-3"), ("F", "1:,::2")]:
        name, x = device_input((4, 6), "complex64", layout, pre)
        r = getattr(np, op)(x)
        case = f"{op}_{layout}_{len(pre)}"
        row(case, op, input=name, layout=layout, pre=pre, in_dtype="complex64", **result(r, view=False),
            out_dtype="complex64", expected=save(case, r) if op != "empty_like" else None)


# --- creation functions: the generator's notation a|b|... per function, typed by creation_args ---------
def num(text):
    return float(text) if ("." in text or "e" in text) else int(text)


full_vals = {"int:3": 3, "float:2.75": 2.75, "bool:1": True, "complex:1.5,-2": 1.5 - 2j, "int:-7": -7}


def creation_args(op, a):
    """The arguments of creation function `op` written as `a`, as typed params (NumPy's names)."""
    p = a.split("|")
    if op == "arange":
        return dict(start=num(p[0]), stop=num(p[1]), step=num(p[2]), dtype=p[3] or None)
    if op == "arange1":
        return dict(stop=num(p[0]))
    if op == "linspace":
        return dict(start=float(p[0]), stop=float(p[1]), num=int(p[2]), endpoint=bool(int(p[3])), dtype=p[4])
    if op == "eye":
        return dict(N=int(p[0]), M=int(p[1]) if p[1] else None, k=int(p[2]), dtype=p[3], order=p[4])
    if op in ("zeros", "ones", "empty"):
        return dict(shape=ints(p[0]), dtype=p[1], order=p[2])
    if op == "full":
        return dict(shape=ints(p[0]), fill_value=full_vals[p[1]], dtype=p[2] or None, order=p[3])
    raise ValueError(op)


def creation(case, op, arg, fn, error=None):
    args = creation_args(op, arg)
    if error:
        try:
            fn()
        except (ValueError, TypeError, ZeroDivisionError, IndexError):
            row(case, op, error=error, **args)
            return
        raise AssertionError(case)
    r = fn()
    rt, at = tol(r.dtype, rtol32=1e-6, rtol64=1e-13)
    row(case, op, rtol=rt, atol=at, **args, **result(r), out_dtype=str(r.dtype),
        expected=save(case, r) if op != "empty" else None)


c = 0
for a in ["0|10|1|", "5|-7|-3|", "0|0|1|", "3|17|4|", "0.5|5|1.5|", "1|2|0.1|", "-1|1|0.25|", "0|1|0.3|float32",
          "0|5|1|float32", "2|9|2|complex64", "0|7|1|int8", "1|30|3|uint8", "0.5|5|1.5|int64", "10|0|-0.5|",
          "0|1|1|bool", "0|2|1|bool", "3|0|1|", "0|1000|1|int16", "-2.5|2.5|0.5|float64", "0|3|1|uint64"]:
    lo, hi, st, dt = a.split("|")
    creation(f"arange_{c:02d}", "arange", a,
             lambda lo=lo, hi=hi, st=st, dt=dt: np.arange(num(lo), num(hi), num(st), dtype=dt or None))
    c += 1
for a in ["7", "7.5", "0", "-3"]:
    creation(f"arange1_{c:02d}", "arange1", a, lambda a=a: np.arange(num(a)))
    c += 1
creation("arange_err_step", "arange", "0|10|0|", lambda: np.arange(0, 10, 0), error="value_error")
creation("arange_err_fstep", "arange", "0|1|0.0|", lambda: np.arange(0, 1, 0.0), error="value_error")
for a in ["0|1|5|1|float64", "0|1|5|0|float64", "2|3|1|1|float64", "2|3|1|0|float64", "2|3|0|1|float64",
          "-1|7|9|1|int32", "0|10|7|1|float32", "0|1|50|1|float64", "1|1|4|1|float64", "5|-3|11|1|int64",
          "0|1|3|1|complex128", "0|2|3|1|bool", "-1.5|2.5|7|0|uint8", "0.1|0.9|1000|1|float64", "3|-1.5|6|0|int8"]:
    lo, hi, n, ep, dt = a.split("|")
    if dt == "uint8":
        lo = "1.5"
        a = "|".join([lo, hi, n, ep, dt])
    creation(f"linspace_{c:02d}", "linspace", a,
             lambda lo=lo, hi=hi, n=n, ep=ep, dt=dt: np.linspace(float(lo), float(hi), int(n), endpoint=bool(int(ep)),
                                                                 dtype=dt))
    c += 1
creation("linspace_err", "linspace", "0|1|-1|1|float64", lambda: np.linspace(0, 1, -1), error="value_error")
for a in ["3||0|float64|C", "3|5|1|float64|C", "4|3|-1|float64|F", "3|3|5|float64|C", "3|3|-3|int32|C",
          "0||0|float64|C", "1|1|0|float64|C", "4|4|0|int8|F", "2|6|-1|complex64|C", "5|2|-4|bool|C",
          "6|4|2|uint16|F", "3|0|0|float32|C"]:
    n, m, kk, dt, od = a.split("|")
    creation(f"eye_{c:02d}", "eye", a,
             lambda n=n, m=m, kk=kk, dt=dt, od=od: np.eye(int(n), int(m) if m else None, int(kk), dtype=dt, order=od))
    c += 1
creation("eye_err", "eye", "-1||0|float64|C", lambda: np.eye(-1), error="value_error")
for op in ("zeros", "ones", "empty"):
    for a in ["2,3|float64|C", "2,3|int16|F", "0,3|float32|C", "|complex128|C", "3,1,2|bool|F", "0|uint8|C",
              "4,0,2|int64|F"]:
        shp, dt, od = a.split("|")
        shp_t = tuple(int(v) for v in shp.split(",")) if shp else ()
        creation(f"{op}_{c:02d}", op, a, lambda op=op, shp_t=shp_t, dt=dt, od=od: getattr(np, op)(shp_t, dt, order=od))
        c += 1
    creation(f"{op}_err", op, "-1,3|float64|C", lambda op=op: getattr(np, op)((-1, 3)), error="value_error")
for a in ["2,3|int:3||C", "2,3|float:2.75||F", "4|bool:1||C", "2,2|complex:1.5,-2||C", "3|int:-7||C",
          "2,3|float:2.75|int32|C", "3,2|int:3|float32|F", "0,2|int:3||C", "|float:2.75||C"]:
    shp, v, dt, od = a.split("|")
    shp_t = tuple(int(x) for x in shp.split(",")) if shp else ()
    creation(f"full_{c:02d}", "full", a,
             lambda shp_t=shp_t, v=v, dt=dt, od=od: np.full(shp_t, full_vals[v], dtype=dt or None, order=od))
    c += 1

# --- .npy files written by NumPy: auxiliary files <case>.npy beside the manifest ------------------
def npy_file(case, arr, version=None, **kw):
    """Writes `arr` as NumPy writes it (np.save, or format `version`) to the file of case `case`."""
    with open(s.file(case + ".npy"), "wb") as f:
        if version is None:
            np.save(f, arr, **kw)
        else:
            np.lib.format.write_array(f, arr, version=version)
    return case + ".npy"


def npy_row(case, arr, file, error=None, input=None, version=(1, 0), fortran_order=False):
    if error:
        s.case(case, func="npy_bad", error=error, file=file)
        return
    total = complex(np.sum(arr.astype(np.complex128)))
    s.case(case, func="npy", rtol=1e-6, atol=1e-6, file=file, input=input, dtype=str(arr.dtype),
           shape=list(arr.shape), sum=total, version=list(version), fortran_order=fortran_order)


for dt in DTYPES:
    name, a = make_input((3, 4), dt)
    npy_row(f"npy_{dt}_C", a, npy_file(f"npy_{dt}_C", a), input=name)
    npy_row(f"npy_{dt}_F", a, npy_file(f"npy_{dt}_F", np.asfortranarray(a)), input=name, fortran_order=True)
    name, a3 = make_input((2, 3, 4), dt)
    npy_row(f"npy_{dt}_F3", a3, npy_file(f"npy_{dt}_F3", np.asfortranarray(a3)), input=name, fortran_order=True)
    name, a0 = make_input((), dt)
    npy_row(f"npy_{dt}_0d", a0, npy_file(f"npy_{dt}_0d", a0), input=name)
    e = np.zeros((0, 3), dtype=dt)
    npy_row(f"npy_{dt}_empty", e, npy_file(f"npy_{dt}_empty", e))
in_f64, a = make_input((3, 4), "float64")
for ver in ((2, 0), (3, 0)):
    case = f"npy_v{ver[0]}"
    npy_row(case, a, npy_file(case, np.asfortranarray(a), version=ver), input=in_f64, version=ver,
            fortran_order=True)
# a long header (many dimensions is not possible; a long shape repr via a big first dim is short), so
# check a header padded to 2.0 by NumPy itself
name, a = make_input((3, 4), "complex64")
npy_row("npy_v2_c64", a, npy_file("npy_v2_c64", a, version=(2, 0)), input=name, version=(2, 0))
# files the reader must reject with a type_error (NumPy writes them; cusci does not support the dtype)
npy_row("npy_bad_bigendian", None, npy_file("npy_bad_bigendian", np.arange(6, dtype=">f8")), error="type_error")
npy_row("npy_bad_float16", None, npy_file("npy_bad_float16", np.arange(6, dtype="<f2")), error="type_error")
npy_row("npy_bad_structured", None, npy_file("npy_bad_structured", np.zeros(3, dtype=[("a", "<i4"), ("b", "<f8")])),
        error="type_error")
npy_row("npy_bad_unicode", None, npy_file("npy_bad_unicode", np.array(["ab", "cd"])), error="type_error")
npy_row("npy_bad_object", None, npy_file("npy_bad_object", np.array([1, "x"], dtype=object), allow_pickle=True),
        error="type_error")
s.write()
