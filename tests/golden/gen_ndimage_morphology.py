#!/usr/bin/env python
"""Reference data for cusci::ndimage's structuring elements and binary morphology
(generate_binary_structure, iterate_structure, binary_erosion, binary_dilation, binary_opening,
binary_closing, binary_hit_or_miss, binary_propagation, binary_fill_holes), computed with SciPy at
build time (tests/golden/golden.py):

    python tests/golden/gen_ndimage_morphology.py --out <build>/tests/golden

Each case: func, input (array name), expected (array name; absent for error cases) and SciPy's
parameters: structure / structure1 / structure2 (array names), iterations, mask (array name),
border_value, origin / origin1 / origin2 (a number or a list), brute_force, axes, plus
  layout:    C, F, step2, rev (tests/golden/ndimage_inputs.py's view) or bcast (a zero-stride
             broadcast of the stored row along a new first axis of length `bcast_rows`);
  output:    a dtype name passed as SciPy's dtype class (SciPy's binary functions return bool anyway);
  out_array: a dtype name: an output array of that dtype (zeros, out_order C or F) is passed;
  out_shape: that array's shape when it differs from the input's (error cases);
  inplace:   the input itself is passed as output.
generate_binary_structure cases carry rank and connectivity; iterate_structure cases structure,
iterations and origin (expected_origin: SciPy's returned origin).
"""
import numpy as np
import scipy.ndimage as ndi

from golden import Suite
from ndimage_inputs import view

s = Suite("ndimage_morphology")
rng = s.rng(20261216)

ERRORS = {RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error",
          IndexError: "value_error"}  # SciPy's IndexError for an origin outside the structure: value_error
FUNCS = {"binary_erosion": ndi.binary_erosion, "binary_dilation": ndi.binary_dilation,
         "binary_opening": ndi.binary_opening, "binary_closing": ndi.binary_closing,
         "binary_hit_or_miss": ndi.binary_hit_or_miss, "binary_propagation": ndi.binary_propagation,
         "binary_fill_holes": ndi.binary_fill_holes}
count = {}


def blobs(shape, p=0.55, dtype=bool):
    a = rng.random(shape) < p
    a = ndi.binary_opening(a) | (rng.random(shape) < 0.08)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return a
    v = a.astype(dt)
    if dt.kind == "f":
        v = v * rng.uniform(0.5, 3.0, shape).astype(dt) * np.where(rng.random(shape) < 0.5, -1, 1).astype(dt)
    elif dt.kind == "i":
        v = v * rng.integers(1, 5, shape).astype(dt) * np.where(rng.random(shape) < 0.5, -1, 1).astype(dt)
    elif dt.kind == "u":
        v = v * rng.integers(1, 5, shape).astype(dt)
    return v


def pname(name, v):
    if v is None:
        return None
    return s.array(name, np.asarray(v))


def add(func, a, layout="C", output=None, out_array=None, out_order="C", out_shape=None, inplace=False,
        expect_error=None, bcast_rows=None, **kw):
    n = count.get(func, 0)
    count[func] = n + 1
    case = f"{func}_{n}"
    inp = s.array(case + "_in", a)
    if layout == "bcast":
        x = np.broadcast_to(a, (bcast_rows,) + a.shape)
    else:
        x = view(a, layout)
    f = FUNCS[func]
    params = {}
    call = {}
    for k, v in kw.items():
        if k in ("structure", "structure1", "structure2", "mask"):
            params[k] = pname(f"{case}_{k}", v)
            call[k] = v
        else:
            params[k] = list(v) if isinstance(v, tuple) else v
            call[k] = v
    error = None
    r = None
    try:
        if output is not None:
            r = f(x, output=np.dtype(output).type, **call)
        elif out_array is not None:
            o = np.zeros(out_shape if out_shape is not None else x.shape, dtype=out_array, order=out_order)
            r0 = f(x, output=o, **call)
            r = o
        elif inplace:
            y = x.copy(order="K")
            f(y, output=y, **call)
            r = y
        else:
            r = f(x, **call)
    except Exception as e:  # noqa: BLE001: the exception kind is the reference
        error = next((v for k2, v in ERRORS.items() if isinstance(e, k2)), None)
        if error is None:
            raise
        if expect_error is not None and error != expect_error:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy raised {type(e).__name__}: {e}")
    else:
        if expect_error is not None:
            raise AssertionError(f"{case}: expected {expect_error}, SciPy returned")
    params.update(layout=layout, output=output, out_array=out_array, out_order=out_order, out_shape=out_shape,
                  inplace=inplace, bcast_rows=bcast_rows)
    if error is not None:
        s.case(case, func, error=error, input=inp, **params)
    else:
        s.case(case, func, input=inp, expected=s.array(case + "_out", r), **params)


# --- structures -------------------------------------------------------------------------------
s.group("structures")
for rank in range(-1, 5):
    for conn in range(-1, 6):
        r = ndi.generate_binary_structure(rank, conn)
        s.case(f"gbs_{rank}_{conn}", "generate_binary_structure", rank=rank, connectivity=conn,
               expected=s.array(f"gbs_{rank}_{conn}_out", r))
its = [("c4", ndi.generate_binary_structure(2, 1)), ("c8", ndi.generate_binary_structure(2, 2)),
       ("c6_3d", ndi.generate_binary_structure(3, 1)), ("line", np.array([1, 1, 0, 1])),
       ("even", np.array([[1, 0], [1, 1]], np.int32)), ("asym", np.array([[0, 1, 1], [1, 0, 0]], np.float64)),
       ("nocentre", np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], bool))]
for tag, st in its:
    for it in (-1, 0, 1, 2, 3, 5):
        for origin in (None, 1 if st.ndim == 1 else [1, -1] if st.ndim == 2 else [0, 1, -1]):
            name = f"its_{tag}_{it}_{'o' if origin is not None else 'n'}"
            if origin is None:
                r = ndi.iterate_structure(st, it)
                eo = None
            else:
                r = ndi.iterate_structure(st, it, origin)
                if isinstance(r, tuple):
                    r, eo = r
                else:
                    eo = list(origin) if isinstance(origin, list) else [origin]
            s.case(name, "iterate_structure", structure=s.array(name + "_s", st), iterations=it, origin=origin,
                   expected_origin=eo, expected=s.array(name + "_out", r))

C4 = ndi.generate_binary_structure(2, 1)
C8 = ndi.generate_binary_structure(2, 2)
ASYM = np.array([[0, 1, 1], [1, 1, 0], [0, 0, 1]], bool)
EVEN = np.array([[1, 1], [0, 1]], bool)
EVEN3 = np.array([[1, 0, 1, 1]], np.int8)
BIG = ndi.iterate_structure(C4, 3)
NOC = np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0]], bool)  # centre false

# --- erosion / dilation / opening / closing ---------------------------------------------------
for func in ("binary_erosion", "binary_dilation", "binary_opening", "binary_closing"):
    s.group(func)
    a1 = blobs((41,))
    for it in (1, 3, 0, -1):
        add(func, a1, iterations=it)
        add(func, a1, iterations=it, structure=[1, 1, 0, 1], origin=-1)
        add(func, a1, iterations=it, border_value=1, brute_force=True)
    a2 = blobs((23, 30))
    for st in (None, C4, C8, ASYM, EVEN, BIG):
        for it in (1, 3, 0, -1):
            add(func, a2, structure=st, iterations=it)
        add(func, a2, structure=st, border_value=1)
        add(func, a2, structure=st, iterations=2, brute_force=True)
    for origin in (1, -1, (0, 1), (1, -1)):
        add(func, a2, structure=C8, origin=origin)
        add(func, a2, structure=ASYM, origin=origin, iterations=2)
    for origin in (-1, 0, (0, -1)):
        add(func, a2, structure=EVEN, origin=origin)
    add(func, a2, structure=NOC, iterations=1)
    add(func, a2, structure=NOC, iterations=3)
    add(func, a2, structure=NOC, iterations=3, brute_force=True)
    mask = rng.random(a2.shape) < 0.7
    for it in (1, 3, -1):
        add(func, a2, mask=mask, iterations=it)
        add(func, a2, mask=mask.astype(np.float64) * 0.5, iterations=it)  # int8 conversion in SciPy's list path
        add(func, a2, mask=mask.astype(np.int16), iterations=it, brute_force=True, border_value=1)
    a3 = blobs((7, 9, 8))
    for st in (None, ndi.generate_binary_structure(3, 2), ndi.generate_binary_structure(3, 3)):
        for it in (1, 2, -1):
            add(func, a3, structure=st, iterations=it)
    add(func, a3, axes=(0, 2))
    add(func, a3, axes=(2, 0), structure=ASYM, origin=(1, 0))
    add(func, a3, axes=(-1,), structure=[1, 1, 1, 0], origin=1, iterations=2)
    add(func, a3, axes=(1,), iterations=-1, border_value=1)
    for dt in ("int8", "uint8", "int32", "uint64", "float32", "float64"):
        add(func, blobs((12, 17), dtype=dt))
    for layout in ("F", "step2", "rev"):
        add(func, blobs((14, 18)), layout=layout, structure=ASYM, iterations=2)
    add(func, blobs((19,)), layout="bcast", bcast_rows=6, structure=C8)
    for o in ("bool", "int32", "float64"):
        add(func, a2, output=o)
        add(func, a2, out_array=o, out_order="F", structure=ASYM)
    add(func, a2, out_array="uint8", iterations=3)
    for dt in ("bool", "int16", "float32"):
        add(func, blobs((15, 16), dtype=dt), inplace=True, iterations=2)
    add(func, blobs((15, 16)), inplace=True, layout="F", iterations=-1)
    add(func, np.zeros((0, 5), bool))
    add(func, np.array(True))
    add(func, np.zeros((1,), bool))
    add(func, np.ones((6, 6), bool), border_value=1, iterations=-1)
    add(func, np.zeros((6, 6), bool), iterations=-1)
    # errors
    add(func, a2.astype(np.complex64), expect_error="type_error")
    add(func, a2.astype(np.float16), expect_error="runtime_error")
    if func in ("binary_erosion", "binary_opening"):  # SciPy's dilation raises IndexError here (deviation)
        add(func, a2, structure=[1, 1, 1], expect_error="runtime_error")
    add(func, a2, structure=np.ones((3, 3, 3)), expect_error="runtime_error")
    add(func, a2, structure=np.ones((0, 3)), expect_error=None)
    add(func, a2, mask=np.ones((4, 4), bool), expect_error="runtime_error")
    add(func, a2, origin=(1, 1, 1), expect_error="runtime_error")
    add(func, a2, out_array="complex128", expect_error="type_error")
    add(func, a2, out_array="float16", expect_error="runtime_error")
    add(func, a2, out_array="bool", out_shape=(3, 3), expect_error="runtime_error")
    add(func, a2, axes=(0, 0), expect_error="value_error")
    add(func, a2, axes=(2,), expect_error="value_error")
    add(func, a3, axes=(0,), structure=C4, expect_error="runtime_error")
    add(func, a2, mask=np.ones(a2.shape, np.float16), expect_error="runtime_error")
    if func == "binary_erosion":
        add(func, a2, origin=2, expect_error="value_error")
        add(func, a2, structure=EVEN, origin=1, expect_error="value_error")

# --- hit or miss ----------------------------------------------------------------------------
func = "binary_hit_or_miss"
s.group(func)
a2 = blobs((23, 30))
add(func, a2)
add(func, a2, structure1=C4)
add(func, a2, structure1=[[0, 1, 0], [0, 1, 1], [0, 0, 0]], structure2=[[1, 0, 0], [1, 0, 0], [1, 1, 1]])
add(func, a2, structure1=ASYM, origin1=(1, 0))
add(func, a2, structure1=ASYM, origin1=(1, 0), origin2=(-1, 1))
add(func, a2, structure1=EVEN, origin1=-1)
add(func, blobs((7, 9, 8)), axes=(1, 2), structure1=[[1, 1], [0, 1]])
add(func, blobs((40,)), structure1=[1, 1, 0])
for dt in ("int16", "float64"):
    add(func, blobs((12, 17), dtype=dt), structure1=C8)
for layout in ("F", "step2", "rev"):
    add(func, blobs((14, 18)), layout=layout, structure1=C4)
add(func, a2, out_array="int32")
add(func, a2, out_array="bool", out_order="F")
add(func, a2, inplace=True)
add(func, a2, output="bool")
add(func, a2.astype(np.complex128), expect_error="type_error")
add(func, a2, origin1=(1, 1, 1), expect_error="runtime_error")
add(func, a2, out_array="bool", out_shape=(2, 2), expect_error="runtime_error")

# --- propagation and fill holes ----------------------------------------------------------------
func = "binary_propagation"
s.group(func)
m = blobs((31, 33), p=0.6)
seed = np.zeros_like(m)
seed[15, 16] = True
seed[2, 3] = True
add(func, seed, mask=m)
add(func, seed, mask=m, structure=C8)
add(func, seed, mask=m, structure=ASYM, origin=(0, 1))
add(func, seed, mask=m, border_value=1)
add(func, seed, mask=m.astype(np.float32), axes=(1,))
add(func, seed, mask=m, out_array="uint8", out_order="F")
add(func, seed, mask=m, inplace=True)
add(func, seed, mask=m, layout="rev")
add(func, blobs((6, 8, 7), p=0.3))
sp = np.zeros((64, 64), bool)  # a long corridor: many iterations (several batches)
sp[1:63:2, 1:63] = True
for i in range(1, 63, 4):
    sp[i + 1, 62 if (i // 4) % 2 == 0 else 1] = True
sd = np.zeros_like(sp)
sd[1, 1] = True
add(func, sd, mask=sp)
add(func, seed, mask=m.astype(np.complex64), expect_error="runtime_error")

func = "binary_fill_holes"
s.group(func)
h = np.zeros((20, 24), bool)
h[2:9, 2:10] = True
h[4:6, 4:7] = False
h[12:18, 14:22] = True
h[14:16, 16:18] = False
h[12:15, 22:24] = True
h[13, 23] = False  # touches the border: not a hole
add(func, h)
add(func, h, structure=C8)
add(func, h, structure=ASYM, origin=(0, -1))
add(func, blobs((25, 26), p=0.6))
add(func, blobs((8, 9, 10), p=0.6))
add(func, blobs((8, 9, 10), p=0.6), axes=(0, 2))
add(func, h.astype(np.float16))
add(func, h.astype(np.complex64))
add(func, h.astype(np.int32), layout="F")
add(func, h, layout="step2")
add(func, h, out_array="int16")
add(func, h, inplace=True)
add(func, h, output="float32")
add(func, sp)
add(func, h, out_array="complex64", expect_error="type_error")
add(func, h, out_array="bool", out_shape=(3, 3), expect_error="runtime_error")

s.write()
