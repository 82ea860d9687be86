#!/usr/bin/env python
"""Golden data for cusci's array core (views, copies, casts, creation functions, .npy files).

Writes tests/golden/data/core_array/*.npy and MANIFEST.tsv. Run with the pinned environment:
    /opt/goldenv/bin/python tests/golden/gen_core_array.py

MANIFEST columns:
  case      name of the case; <case>.npy holds NumPy's result when `expected` is 1
  op        index, T, transpose, reshape, squeeze, expand_dims, broadcast_to, copy, astype, fill,
            roundtrip, zeros_like, ones_like, empty_like, arange, arange1, linspace, eye, zeros, ones,
            empty, full, npy (a file for the .npy reader), npy_bad (a file the reader must reject)
  input     name of the input .npy (C order; empty for creation functions)
  layout    C or F: layout of the device input (F = np.asfortranarray)
  pre       basic index applied to the input before the op ("" = none); same syntax as `arg` of index
  arg       op argument (see the generators below; index syntax: comma-separated entries, each an
            integer, a slice a:b:c with empty parts allowed, None (newaxis) or ...)
  dtype     dtype name where the op takes one
  shape     expected shape, comma-separated ("" for 0-d)
  strides   expected strides in bytes, comma-separated, or "*" when not checked
  view      1 when the result must share memory with the input, 0 when it must not, "*" unchecked
  expected  1 when <case>.npy holds the expected values
  error     expected exception (index_error, value_error, type_error) or empty
  rtol, atol  tolerances
  sum_re, sum_im  for npy cases: the array's sum as complex128 (a check on the decoded values)
  flags     for view cases: "C" and/or "F" when the result is C- / F-contiguous (NumPy's flags), "-" none
"""
import io
import os
import struct
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "data" / "core_array"
OUT.mkdir(parents=True, exist_ok=True)
for f in OUT.glob("*"):
    f.unlink()

rng = np.random.default_rng(20240611)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
COLS = ["case", "op", "input", "layout", "pre", "arg", "dtype", "shape", "strides", "view", "expected",
        "error", "rtol", "atol", "sum_re", "sum_im", "flags"]
rows = []
inputs = {}


def save(name, arr):
    np.save(OUT / f"{name}.npy", arr)


def csv(t):
    return ",".join(str(int(x)) for x in t)


def parse_index(s):
    if s == "":
        return ()
    out = []
    for tok in s.split(","):
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


def row(**kw):
    r = {c: "" for c in COLS}
    r.update({"layout": "C", "strides": "*", "view": "*", "expected": "0", "rtol": "0", "atol": "0"})
    r.update({k: str(v) for k, v in kw.items()})
    assert r["case"] not in {x["case"] for x in rows}, r["case"]
    rows.append(r)


def device_input(shape, dtype, layout, pre):
    name, a = make_input(shape, dtype)
    x = np.asfortranarray(a) if layout == "F" else a
    if a.size == 0:  # a fresh zero-size array, as the device input is (NumPy gives it zero strides)
        x = np.empty(a.shape, a.dtype, order=layout)
    if pre:
        x = x[parse_index(pre)]
    return name, x


def view_case(case, op, shape, arg, fn, layout="C", pre="", dtype="float64", error=None):
    name, x = device_input(shape, dtype, layout, pre)
    if error:
        try:
            fn(x)
        except (IndexError, ValueError, TypeError):
            row(case=case, op=op, input=name, layout=layout, pre=pre, arg=arg, dtype=dtype, error=error)
            return
        raise AssertionError(f"{case}: NumPy did not raise")
    r = fn(x)
    # Indexing every axis with an integer gives a NumPy scalar (a copy); cusci, like CuPy, gives a
    # 0-d view of the element instead.
    scalar_result = not isinstance(r, np.ndarray)
    r = np.asarray(r)
    save(case, r)
    row(case=case, op=op, input=name, layout=layout, pre=pre, arg=arg, dtype=dtype, shape=csv(r.shape),
        strides=csv(r.strides),
        view="*" if r.size == 0 else 1 if scalar_result else int(np.may_share_memory(r, x)),
        expected=1, flags=("C" if r.flags.c_contiguous else "") + ("F" if r.flags.f_contiguous else "") or "-")


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
        for s in idxs:
            view_case(f"index_{k:03d}", "index", shape, s, lambda x, s=s: x[parse_index(s)], layout)
            k += 1
for s, err in [("2", "index_error"), ("0,0,0,0", "index_error"), ("...,...", "index_error"),
               ("::0", "value_error"), ("0,-4", "index_error"), ("0,3", "index_error")]:
    view_case(f"index_err_{k:03d}", "index", (2, 3, 4), s, lambda x, s=s: x[parse_index(s)], error=err)
    k += 1
# every dtype through a strided, reversed view (exercises the copy kernel in to_host)
for dt in DTYPES:
    for layout in ("C", "F"):
        view_case(f"index_dt_{dt}_{layout}", "index", (2, 3, 4), "1:,::-2,1::2", lambda x: x[1:, ::-2, 1::2],
                  layout, dtype=dt)

# --- transpose -----------------------------------------------------------------------------------
for layout in ("C", "F"):
    for pre in ("", ":,::2"):
        view_case(f"T_{layout}_{len(pre)}", "T", (2, 3, 4), "", lambda x: x.T, layout, pre)
        for axes in ("2,0,1", "1,0,2", "0,-1,1"):
            view_case(f"transpose_{layout}_{len(pre)}_{axes}", "transpose", (2, 3, 4), axes,
                      lambda x, axes=axes: x.transpose(tuple(int(a) for a in axes.split(","))), layout, pre)
view_case("transpose_err_rep", "transpose", (2, 3, 4), "0,0,1", lambda x: x.transpose(0, 0, 1), error="value_error")
view_case("transpose_err_len", "transpose", (2, 3, 4), "0,1", lambda x: x.transpose(0, 1), error="value_error")
view_case("transpose_err_axis", "transpose", (2, 3, 4), "0,1,3", lambda x: x.transpose(0, 1, 3),
          error="index_error")

# --- reshape: arg = shape|order|copy (copy: none, true, false) ---------------------------------------
def reshape_fn(arg):
    shp, order, copy = arg.split("|")
    shp = tuple(int(v) for v in shp.split(",")) if shp else ()
    copy = {"none": None, "true": True, "false": False}[copy]
    return lambda x: np.reshape(x, shp, order=order, copy=copy)


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
    view_case(f"reshape_{i:02d}", "reshape", shape, arg, reshape_fn(arg), layout, pre)
for i, (shape, layout, pre, arg) in enumerate([
        ((24,), "C", "", "5,5|C|none"), ((24,), "C", "", "-1,-1|C|none"), ((24,), "C", "", "-1,5|C|none"),
        ((24,), "C", "", "-2,-12|C|none"), ((2, 3, 4), "C", "", "4,6|F|false"), ((2, 3, 4), "C", ":,::2", "3,4|C|false"),
        ((0, 3), "C", "", "-1,0|C|none")]):
    view_case(f"reshape_err_{i}", "reshape", shape, arg, reshape_fn(arg), layout, pre, error="value_error")

# --- squeeze / expand_dims / broadcast_to ------------------------------------------------------------
for layout in ("C", "F"):
    view_case(f"squeeze_all_{layout}", "squeeze", (1, 3, 1, 4), "", lambda x: x.squeeze(), layout)
    for ax in (0, -2, 2):
        view_case(f"squeeze_{layout}_{ax}", "squeeze", (1, 3, 1, 4), str(ax), lambda x, ax=ax: x.squeeze(ax), layout)
    for ax in (0, 1, 3, -1, -4, 2):
        for pre in ("", ":,::2"):
            view_case(f"expand_dims_{layout}_{ax}_{len(pre)}", "expand_dims", (2, 3, 4), str(ax),
                      lambda x, ax=ax: np.expand_dims(x, ax), layout, pre)
view_case("squeeze_0d", "squeeze", (), "", lambda x: x.squeeze())
view_case("squeeze_err_size", "squeeze", (1, 3, 1, 4), "1", lambda x: x.squeeze(1), error="value_error")
view_case("squeeze_err_axis", "squeeze", (1, 3, 1, 4), "4", lambda x: x.squeeze(4), error="index_error")
view_case("expand_dims_err", "expand_dims", (2, 3, 4), "4", lambda x: np.expand_dims(x, 4), error="index_error")
view_case("expand_dims_err_neg", "expand_dims", (2, 3, 4), "-5", lambda x: np.expand_dims(x, -5), error="index_error")
view_case("expand_dims_0d", "expand_dims", (), "0", lambda x: np.expand_dims(x, 0))
for i, (shape, layout, pre, tgt) in enumerate([
        ((3, 1), "C", "", "2,3,5"), ((3, 1), "C", "", "3,1"), ((3, 1), "C", "", "3,0"), ((4, 6), "C", "", "2,4,6"),
        ((4, 6), "F", "", "1,4,6"), ((4, 6), "C", "::-2", "3,2,6"), ((), "C", "", "2,2"), ((24,), "C", "5:9", "3,4"),
        ((1, 3, 1, 4), "C", "", "2,3,5,4")]):
    view_case(f"broadcast_to_{i}", "broadcast_to", shape, tgt,
              lambda x, tgt=tgt: np.broadcast_to(x, tuple(int(v) for v in tgt.split(","))), layout, pre)
for i, (shape, tgt) in enumerate([((4, 6), "4,5"), ((4, 6), "6"), ((3, 1), "2,4,1"), ((4, 6), "-1,6")]):
    view_case(f"broadcast_to_err_{i}", "broadcast_to", shape, tgt,
              lambda x, tgt=tgt: np.broadcast_to(x, tuple(int(v) for v in tgt.split(","))), error="value_error")

# --- copy / astype ---------------------------------------------------------------------------------
for shape, layout, pre in [((2, 3, 4), "C", ""), ((2, 3, 4), "F", ""), ((2, 3, 4), "C", "::-1,1:,::2"),
                           ((2, 3, 4), "F", "1,::-1"), ((0, 3), "C", ""), ((), "C", ""), ((1, 3, 1, 4), "F", ""),
                           ((24,), "C", "::-3"), ((3, 1), "C", "None,...")]:
    for order in ("C", "F"):
        view_case(f"copy_{order}_{layout}_{'x'.join(map(str, shape))}_{len(pre)}", "copy", shape, order,
                  lambda x, order=order: x.copy(order=order), layout, pre)
for dt in DTYPES:
    view_case(f"copy_dt_{dt}", "copy", (3, 5), "F", lambda x: x.copy(order="F"), "C", ":,::-2", dtype=dt)


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
        name = f"cast_in_{src}_{dst}"
        save(name, a)
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = a.astype(dst)
        case = f"astype_{src}_{dst}"
        save(case, r)
        row(case=case, op="astype", input=name, arg=dst, dtype=src, shape=csv(r.shape), strides=csv(r.strides),
            view=0, expected=1)
for layout, pre, dst in [("C", "::2,::3", "float32"), ("F", "", "int32"), ("F", "1:,::-1", "complex64"),
                         ("C", "None,::-1", "uint8"), ("C", "", "float64")]:
    _, base = make_input((4, 6), "float64")
    base = np.abs(base)
    x = np.asfortranarray(base) if layout == "F" else base
    if pre:
        x = x[parse_index(pre)]
    r = x.astype(dst)
    case = f"astype_view_{layout}_{len(pre)}_{dst}"
    save(case, r)
    nm = "absin_float64_4x6"
    save(nm, base)
    row(case=case, op="astype", input=nm, layout=layout, pre=pre, arg=dst, dtype="float64", shape=csv(r.shape),
        strides=csv(r.strides), view=0, expected=1)

# --- fill: arg = kind:value ------------------------------------------------------------------------
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
            save(case, b)
            row(case=case, op="fill", input=name, pre=pre, arg=arg, dtype=dt, shape=csv(b.shape),
                strides=csv(b.strides), expected=1)

# --- transfers ---------------------------------------------------------------------------------------
for dt in DTYPES:
    for shape in [(3, 5), (0,), (), (1,), (257,)]:
        name, a = make_input(shape, dt)
        case = f"roundtrip_{dt}_{'x'.join(map(str, shape)) or '0d'}"
        save(case, a)
        row(case=case, op="roundtrip", input=name, dtype=dt, shape=csv(a.shape),
            strides=csv(np.empty(a.shape, a.dtype).strides), view=0,
            expected=1)

# --- *_like ------------------------------------------------------------------------------------------
for op in ("zeros_like", "ones_like", "empty_like"):
    for layout, pre in [("C", ""), ("F", ""), ("C", "::2,::-3"), ("F", "1:,::2")]:
        name, x = device_input((4, 6), "complex64", layout, pre)
        r = getattr(np, op)(x)
        case = f"{op}_{layout}_{len(pre)}"
        if op != "empty_like":
            save(case, r)
        row(case=case, op=op, input=name, layout=layout, pre=pre, dtype="complex64", shape=csv(r.shape),
            strides=csv(r.strides), view=0, expected=int(op != "empty_like"))


# --- creation functions ------------------------------------------------------------------------------
def num(s):
    return float(s) if ("." in s or "e" in s) else int(s)


def tol(dt):
    if dt in ("float32", "complex64"):
        return "1e-6", "1e-6"
    if dt in ("float64", "complex128"):
        return "1e-13", "1e-13"
    return "0", "0"


def creation(case, op, arg, fn, dt_hint=None, error=None):
    if error:
        try:
            fn()
        except (ValueError, TypeError, ZeroDivisionError, IndexError):
            row(case=case, op=op, arg=arg, error=error)
            return
        raise AssertionError(case)
    r = fn()
    if op != "empty":
        save(case, r)
    rt, at = tol(str(r.dtype))
    row(case=case, op=op, arg=arg, dtype=str(r.dtype), shape=csv(r.shape), strides=csv(r.strides),
        expected=int(op != "empty"), rtol=rt, atol=at)


c = 0
for a in ["0|10|1|", "5|-7|-3|", "0|0|1|", "3|17|4|", "0.5|5|1.5|", "1|2|0.1|", "-1|1|0.25|", "0|1|0.3|float32",
          "0|5|1|float32", "2|9|2|complex64", "0|7|1|int8", "1|30|3|uint8", "0.5|5|1.5|int64", "10|0|-0.5|",
          "0|1|1|bool", "0|2|1|bool", "3|0|1|", "0|1000|1|int16", "-2.5|2.5|0.5|float64", "0|3|1|uint64"]:
    s, e, st, dt = a.split("|")
    creation(f"arange_{c:02d}", "arange", a,
             lambda s=s, e=e, st=st, dt=dt: np.arange(num(s), num(e), num(st), dtype=dt or None))
    c += 1
for a in ["7", "7.5", "0", "-3"]:
    creation(f"arange1_{c:02d}", "arange1", a, lambda a=a: np.arange(num(a)))
    c += 1
creation("arange_err_step", "arange", "0|10|0|", lambda: np.arange(0, 10, 0), error="value_error")
creation("arange_err_fstep", "arange", "0|1|0.0|", lambda: np.arange(0, 1, 0.0), error="value_error")
for a in ["0|1|5|1|float64", "0|1|5|0|float64", "2|3|1|1|float64", "2|3|1|0|float64", "2|3|0|1|float64",
          "-1|7|9|1|int32", "0|10|7|1|float32", "0|1|50|1|float64", "1|1|4|1|float64", "5|-3|11|1|int64",
          "0|1|3|1|complex128", "0|2|3|1|bool", "-1.5|2.5|7|0|uint8", "0.1|0.9|1000|1|float64", "3|-1.5|6|0|int8"]:
    s, e, n, ep, dt = a.split("|")
    if dt == "uint8":
        s = "1.5"
        a = "|".join([s, e, n, ep, dt])
    creation(f"linspace_{c:02d}", "linspace", a,
             lambda s=s, e=e, n=n, ep=ep, dt=dt: np.linspace(float(s), float(e), int(n), endpoint=bool(int(ep)), dtype=dt))
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
full_vals = {"int:3": 3, "float:2.75": 2.75, "bool:1": True, "complex:1.5,-2": 1.5 - 2j, "int:-7": -7}
for a in ["2,3|int:3||C", "2,3|float:2.75||F", "4|bool:1||C", "2,2|complex:1.5,-2||C", "3|int:-7||C",
          "2,3|float:2.75|int32|C", "3,2|int:3|float32|F", "0,2|int:3||C", "|float:2.75||C"]:
    shp, v, dt, od = a.split("|")
    shp_t = tuple(int(x) for x in shp.split(",")) if shp else ()
    creation(f"full_{c:02d}", "full", a,
             lambda shp_t=shp_t, v=v, dt=dt, od=od: np.full(shp_t, full_vals[v], dtype=dt or None, order=od))
    c += 1

# --- .npy files written by NumPy -----------------------------------------------------------------
def npy_row(case, arr, error="", input=""):
    s = complex(np.sum(arr.astype(np.complex128))) if not error else 0j
    row(case=case, input=input, op="npy" if not error else "npy_bad", dtype=str(arr.dtype) if not error else "",
        shape=csv(arr.shape) if not error else "", error=error, expected=0 if error else 1,
        rtol="1e-6", atol="1e-6", sum_re=repr(s.real), sum_im=repr(s.imag))


for dt in DTYPES:
    name, a = make_input((3, 4), dt)
    save(f"npy_{dt}_C", a)
    npy_row(f"npy_{dt}_C", a, input=name)
    save(f"npy_{dt}_F", np.asfortranarray(a))
    npy_row(f"npy_{dt}_F", a, input=name)
    name, a3 = make_input((2, 3, 4), dt)
    save(f"npy_{dt}_F3", np.asfortranarray(a3))
    npy_row(f"npy_{dt}_F3", a3, input=name)
    name, a0 = make_input((), dt)
    save(f"npy_{dt}_0d", a0)
    npy_row(f"npy_{dt}_0d", a0, input=name)
    e = np.zeros((0, 3), dtype=dt)
    save(f"npy_{dt}_empty", e)
    npy_row(f"npy_{dt}_empty", e)
in_f64, a = make_input((3, 4), "float64")
for ver in ((2, 0), (3, 0)):
    case = f"npy_v{ver[0]}"
    with open(OUT / f"{case}.npy", "wb") as f:
        np.lib.format.write_array(f, np.asfortranarray(a), version=ver)
    npy_row(case, a, input=in_f64)
# a long header (many dimensions is not possible; a long shape repr via a big first dim is short), so
# check a header padded to 2.0 by NumPy itself
with open(OUT / "npy_v2_c64.npy", "wb") as f:
    np.lib.format.write_array(f, make_input((3, 4), "complex64")[1], version=(2, 0))
npy_row("npy_v2_c64", make_input((3, 4), "complex64")[1], input=make_input((3, 4), "complex64")[0])
# files the reader must reject with a type_error (NumPy writes them; cusci does not support the dtype)
np.save(OUT / "npy_bad_bigendian.npy", np.arange(6, dtype=">f8"))
npy_row("npy_bad_bigendian", np.zeros(1), error="type_error")
np.save(OUT / "npy_bad_float16.npy", np.arange(6, dtype="<f2"))
npy_row("npy_bad_float16", np.zeros(1), error="type_error")
np.save(OUT / "npy_bad_structured.npy", np.zeros(3, dtype=[("a", "<i4"), ("b", "<f8")]))
npy_row("npy_bad_structured", np.zeros(1), error="type_error")
np.save(OUT / "npy_bad_unicode.npy", np.array(["ab", "cd"]))
npy_row("npy_bad_unicode", np.zeros(1), error="type_error")
np.save(OUT / "npy_bad_object.npy", np.array([1, "x"], dtype=object), allow_pickle=True)
npy_row("npy_bad_object", np.zeros(1), error="type_error")

with open(OUT / "MANIFEST.tsv", "w") as f:
    f.write("\t".join(COLS) + "\n")
    for r in rows:
        f.write("\t".join(r[c] for c in COLS) + "\n")
total = sum(p.stat().st_size for p in OUT.glob("*"))
print(f"{len(rows)} cases, {len(list(OUT.glob('*.npy')))} files, {total / 1e6:.2f} MB")
