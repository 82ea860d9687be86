#!/usr/bin/env python
"""Golden data for cusci::ndimage's labelling and measurements from SciPy 1.18.1: label, find_objects,
value_indices, sum_labels, mean, variance, standard_deviation, minimum, maximum, median,
minimum_position, maximum_position, extrema, center_of_mass, histogram and labeled_comprehension.

    python tests/golden/gen_ndimage_measurements.py --out <build>/tests/golden

Case parameters (C++ reader: tests/ndimage/measurements/measurements_cases.hpp):
- input (array name) and layout (C, F, step2, rev: ndimage_inputs.view); labels (array name or null)
  and labels_layout;
- index_kind: "none", "scalar" (index: int), "list" (index: list of ints) or "array" (index: list,
  index_dtype and index_shape: a device array);
- label: structure (array name or null), output (dtype name), output_array ({"dtype", "layout"});
  expected (labels), num_features;
- find_objects: max_label; expected_slices: a list of null or [[start, stop], ...];
- value_indices: ignore_value; values (list) and, per value v, the array "<case>_v<i>" [ndim, count];
- histogram: min, max, bins; labeled_comprehension: function (name of a CUDA function of the C++
  test, its Python twin below), out_dtype, default, pass_positions;
- results: expected (one array), or expected_min / expected_max / expected_minpos / expected_maxpos
  (extrema). Positions and centres of mass are arrays [ndim] or [index entries, ndim]; histograms
  [bins] or [index entries, bins] with zero counts for absent labels (SciPy's None).
- error (+ error_text): the cusci exception and the text its message contains.
"""
import functools
import warnings

import numpy as np
import scipy.ndimage as ndi

from golden import Suite, tol
import ndimage_inputs
from ndimage_inputs import view

warnings.simplefilter("ignore", RuntimeWarning)

s = Suite("ndimage_measurements")
rng = s.rng(20261216)
make_input = functools.partial(ndimage_inputs.make_input, rng)

_counter = [0]


def uniq(prefix):
    _counter[0] += 1
    return f"{prefix}_{_counter[0]}"


def expect_error(fn, *a, **kw):
    try:
        fn(*a, **kw)
    except (ValueError, RuntimeError, TypeError, IndexError, OverflowError, AssertionError):
        return
    raise AssertionError("SciPy accepted an error case")


# ------------------------------------------------------------------------------------------------
# label
# ------------------------------------------------------------------------------------------------
s.group("label")


def blobs(shape, p=0.5, smooth=True):
    a = rng.random(shape)
    if smooth and len(shape) > 0 and a.size > 0:
        a = ndi.uniform_filter(a, 3)
    return a < np.quantile(a, p) if a.size else a < p


def check_first_appearance(lab, n):
    seen = []
    for v in lab.ravel():
        if v and (not seen or v > max(seen)):
            seen.append(v)
    assert seen == list(range(1, n + 1)), "SciPy's numbering is not first-appearance order"


def add_label(case, a, layout="C", structure=None, output=None, output_array=None, error=None, error_text=None,
              needs_device=False):
    inp = s.array(case + "_in", a)
    st = s.array(case + "_st", np.asarray(structure)) if structure is not None else None
    x = view(a, layout)
    params = dict(input=inp, layout=layout, structure=st, output=output, output_array=output_array)
    if error:
        out = np.empty(output_array["shape"], output_array["dtype"]) if output_array else output
        expect_error(ndi.label, x, structure, out)
        s.case(case, "label", error=error, error_text=error_text, needs_device=needs_device, **params)
        return
    od = output_array["dtype"] if output_array else output
    lab, n = ndi.label(x, structure, od)
    if lab.ndim and lab.dtype != np.bool_:
        check_first_appearance(lab.astype(np.int64), n)
    s.case(case, "label", expected=s.array(case + "_out", lab), num_features=int(n), **params)


FULL2 = np.ones((3, 3), bool)
FULL3 = np.ones((3, 3, 3), bool)
DIAG2 = np.eye(3, dtype=bool)  # symmetric: the two diagonal neighbours of one diagonal
for dt in ("bool", "uint8", "int16", "float32", "float64"):
    b = blobs((13, 17))
    a = (b * make_input((13, 17), dt, lim=5) + b).astype(dt) if dt != "bool" else b
    add_label(f"label_2d_{dt}", a)
    add_label(f"label_2d_{dt}_full", a, structure=FULL2)
add_label("label_2d_diag", blobs((11, 12), 0.4), structure=DIAG2)
add_label("label_2d_int_structure", blobs((11, 12), 0.4), structure=FULL2.astype(np.int32) * 3)
add_label("label_random50_8conn", rng.random((64, 64)) < 0.5, structure=FULL2)
add_label("label_random50_4conn", rng.random((64, 64)) < 0.5)
add_label("label_1d", rng.random(40) < 0.5)
add_label("label_1d_full", rng.random(40) < 0.5, structure=np.ones(3, bool))
add_label("label_3d", blobs((5, 6, 7), 0.45))
add_label("label_3d_full", blobs((5, 6, 7), 0.45), structure=FULL3)
add_label("label_3d_rank2", blobs((5, 6, 7), 0.45), structure=ndi.generate_binary_structure(3, 2))
add_label("label_3d_random", rng.random((9, 10, 11)) < 0.3, structure=FULL3)
# Spirals and U shapes: provisional labels merge late.
u = np.zeros((9, 12), bool)
u[1:8, 1] = u[1:8, 10] = u[7, 1:11] = True
u[1:6, 4] = u[1:6, 7] = u[5, 4:8] = True
add_label("label_u_shapes", u)
w = np.zeros((8, 8), bool)
w[::2, :] = True
w[:, 7] = True
add_label("label_comb", w)
nan_in = make_input((9, 9), "float64")
nan_in[np.abs(nan_in) < 8] = 0
nan_in[4, 4] = np.nan
add_label("label_nan_is_foreground", nan_in)
add_label("label_all_background", np.zeros((6, 7), bool))
add_label("label_all_foreground", np.ones((6, 7), np.int8))
sp = np.zeros((6, 7))
sp[3, 5] = 2.5
add_label("label_single_pixel", sp)
add_label("label_0d_one", np.array(3.0))
add_label("label_0d_zero", np.array(0))
add_label("label_empty", np.zeros((0, 4), bool))
for layout in ndimage_inputs.LAYOUTS:
    add_label(f"label_layout_{layout}", blobs((14, 16), 0.5), layout=layout, structure=FULL2)
    add_label(f"label_layout3_{layout}", blobs((6, 8, 10), 0.5), layout=layout)
for od in ("int16", "uint8", "int64", "uint32", "float32", "float64", "bool"):
    add_label(f"label_output_{od}", blobs((12, 13), 0.5), output=od)
for lay in ("C", "F"):
    add_label(f"label_output_array_{lay}", blobs((12, 13), 0.5), output_array={"dtype": "int32", "layout": lay})
    add_label(f"label_output_array_u16_{lay}", blobs((12, 13), 0.5), output_array={"dtype": "uint16", "layout": lay})
many = np.zeros(300, bool)
many[::2] = True  # 150 features
add_label("label_output_int8_127", many[:254], output="int8")
add_label("label_output_uint8_150", many, output="uint8")
add_label("err_label_output_int8_too_small", many, output="int8", error="runtime_error",
          error_text="insufficient bit-depth in requested output type", needs_device=True)
many2 = np.zeros(520, bool)
many2[::2] = True  # 260 features
add_label("err_label_output_uint8_too_small", many2, output="uint8", error="runtime_error",
          error_text="insufficient bit-depth", needs_device=True)
add_label("err_label_output_bool_too_small", many2, output="bool", error="runtime_error",
          error_text="insufficient bit-depth", needs_device=True)
add_label("err_label_complex", np.ones((4, 4), np.complex64), error="type_error", error_text="Complex type not supported")
add_label("err_label_structure_rank", np.ones((4, 4), bool), structure=np.ones((3, 3, 3), bool), error="runtime_error",
          error_text="structure and input must have equal rank")
add_label("err_label_structure_dims", np.ones((4, 4), bool), structure=np.ones((3, 5), bool), error="value_error",
          error_text="structure dimensions must be equal to 3")
asym = np.array([[0, 0, 1], [0, 1, 0], [0, 0, 0]], bool)
add_label("err_label_structure_asymmetric", np.ones((4, 4), bool), structure=asym, error="value_error",
          error_text="Structuring element is not symmetric", needs_device=True)
add_label("err_label_output_shape", np.ones((4, 5), bool), output_array={"dtype": "int32", "layout": "C", "shape": [5, 4]},
          error="value_error", error_text="output shape not correct")
add_label("err_label_output_float16", np.ones((4, 5), bool), output="float16", error="type_error",
          error_text="No matching signature found")

# ------------------------------------------------------------------------------------------------
# find_objects
# ------------------------------------------------------------------------------------------------
s.group("find_objects")


def slices_json(r):
    return [None if t is None else [[sl.start, sl.stop] for sl in t] for t in r]


def add_fo(case, a, layout="C", max_label=0, error=None, error_text=None):
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    if error:
        expect_error(ndi.find_objects, x, max_label)
        s.case(case, "find_objects", error=error, error_text=error_text, input=inp, layout=layout, max_label=max_label)
        return
    r = ndi.find_objects(x, max_label)
    s.case(case, "find_objects", input=inp, layout=layout, max_label=max_label, expected_slices=slices_json(r))


lab2, n2 = ndi.label(blobs((15, 18), 0.5))
add_fo("fo_2d", lab2)
add_fo("fo_2d_max_fewer", lab2, max_label=max(1, n2 // 2))
add_fo("fo_2d_max_more", lab2, max_label=n2 + 3)
for layout in ndimage_inputs.LAYOUTS:
    add_fo(f"fo_layout_{layout}", lab2, layout=layout)
lab3, n3 = ndi.label(blobs((6, 7, 8), 0.5), FULL3)
add_fo("fo_3d", lab3)
add_fo("fo_1d", ndi.label(rng.random(30) < 0.5)[0])
add_fo("fo_gaps_negative", np.array([[0, 3, 3, -2], [5, 0, 3, -1], [5, 5, 0, 0]], np.int64))
add_fo("fo_uint8", lab2.astype(np.uint8) if n2 < 256 else (lab2 % 200).astype(np.uint8))
add_fo("fo_int16", lab2.astype(np.int16))
add_fo("fo_bool_max", np.array([False, True, True, False]), max_label=1)
add_fo("fo_all_zero", np.zeros((4, 5), np.int32))
add_fo("fo_single", np.pad(np.array([[7]], np.int32), ((2, 1), (3, 0))))
add_fo("err_fo_complex", np.ones((3, 3), np.complex128), error="type_error", error_text="Complex type not supported")
add_fo("err_fo_bool_no_max", np.array([True, False]), error="type_error", error_text="cannot be interpreted as an integer")
add_fo("err_fo_float", np.array([0.0, 1.0, 2.5]), error="type_error")

# ------------------------------------------------------------------------------------------------
# value_indices
# ------------------------------------------------------------------------------------------------
s.group("value_indices")


def add_vi(case, a, layout="C", ignore_value=None, error=None, error_text=None):
    inp = s.array(case + "_in", a)
    x = view(a, layout)
    if error:
        expect_error(ndi.value_indices, x, ignore_value=ignore_value)
        s.case(case, "value_indices", error=error, error_text=error_text, input=inp, layout=layout,
               ignore_value=ignore_value)
        return
    r = ndi.value_indices(x, ignore_value=ignore_value)
    values = sorted(int(k) for k in r)
    assert [int(k) for k in r] == values, "SciPy's keys are not ascending"
    for i, k in enumerate(r):
        s.array(f"{case}_v{i}", np.array(r[k], dtype=np.int64).reshape(x.ndim, -1))
    s.case(case, "value_indices", input=inp, layout=layout, ignore_value=ignore_value, values=values)


add_vi("vi_2d_int32", make_input((7, 9), "int32", lim=4))
add_vi("vi_2d_ignore", make_input((7, 9), "int32", lim=4), ignore_value=0)
add_vi("vi_1d_uint8", make_input((25,), "uint8", lim=6))
add_vi("vi_3d_int64", make_input((3, 4, 5), "int64", lim=3))
add_vi("vi_int8_negative", make_input((6, 6), "int8", lim=3), ignore_value=-2)
add_vi("vi_uint16_ignore_absent", make_input((5, 6), "uint16", lim=3), ignore_value=99)
for layout in ndimage_inputs.LAYOUTS:
    add_vi(f"vi_layout_{layout}", make_input((8, 10), "int16", lim=5), layout=layout)
add_vi("err_vi_float", np.zeros((3, 3)), error="value_error", error_text="must be an integer array")
add_vi("err_vi_bool", np.zeros((3, 3), bool), error="value_error", error_text="must be an integer array")
add_vi("err_vi_ignore_out_of_bounds", np.zeros((3, 3), np.uint8), ignore_value=-1, error="value_error",
       error_text="out of bounds for uint8")

# ------------------------------------------------------------------------------------------------
# measurements
# ------------------------------------------------------------------------------------------------
s.group("measure")

SCALAR_FUNCS = ("sum_labels", "mean", "variance", "standard_deviation", "minimum", "maximum", "median")
POS_FUNCS = ("minimum_position", "maximum_position")


def as_positions(r, ndim):
    a = np.asarray(r, dtype=np.int64)
    return a.reshape(-1, ndim) if a.ndim == 2 or (a.ndim == 1 and isinstance(r, list)) else a.reshape(ndim)


def index_value(kind, index, index_dtype):
    if kind == "none":
        return None
    if kind == "scalar":
        return index
    if kind == "list":
        return list(index)
    return np.asarray(index, dtype=index_dtype)


def run_measure(func, x, lab, idx, ndim, extra):
    f = getattr(ndi, func)
    if func == "histogram":
        r = f(x, extra["min"], extra["max"], extra["bins"], lab, idx)
        if isinstance(r, np.ndarray) and r.dtype == object:
            r = np.array([np.zeros(extra["bins"], np.int64) if v is None else v for v in r.ravel()],
                         dtype=np.int64).reshape(r.shape + (extra["bins"],))
        elif r is None:
            r = np.zeros(extra["bins"], np.int64)
        return {"expected": np.asarray(r, dtype=np.int64)}
    if func == "labeled_comprehension":
        fn = COMPREHENSIONS[extra["function"]]
        r = ndi.labeled_comprehension(x, lab, idx, fn, np.dtype(extra["out_dtype"]), extra["default"],
                                      pass_positions=extra["pass_positions"])
        return {"expected": np.asarray(r, dtype=extra["out_dtype"])}
    r = f(x, lab, idx)
    if func == "extrema":
        mn, mx, pmin, pmax = r
        return {"expected_min": np.asarray(mn), "expected_max": np.asarray(mx),
                "expected_minpos": as_positions(pmin, ndim), "expected_maxpos": as_positions(pmax, ndim)}
    if func in POS_FUNCS:
        return {"expected": as_positions(r, ndim)}
    if func == "center_of_mass":
        a = np.asarray(r, dtype=np.float64)
        return {"expected": a.reshape(-1, ndim) if isinstance(r, list) else a.reshape(ndim)}
    return {"expected": np.asarray(r)}


def add_m(case, func, a, labels=None, kind="none", index=None, index_dtype="int64", layout="C", labels_layout="C",
          error=None, error_text=None, rtol=None, atol=None, needs_device=False, **extra):
    inp = s.array(case + "_in", a)
    lab_name = s.array(case + "_labels", labels) if labels is not None else None
    x = view(a, layout)
    lab = view(labels, labels_layout) if labels is not None else None
    idx = index_value(kind, index, index_dtype)
    index_shape = list(np.shape(idx)) if kind == "array" else None
    params = dict(input=inp, layout=layout, labels=lab_name, labels_layout=labels_layout, index_kind=kind,
                  index=(list(np.asarray(index).ravel().tolist()) if kind in ("list", "array") else index),
                  index_dtype=index_dtype if kind == "array" else None, index_shape=index_shape, **extra)
    if error:
        expect_error(run_measure, func, x, lab, idx, a.ndim, extra)
        s.case(case, func, error=error, error_text=error_text, needs_device=needs_device, **params)
        return
    res = run_measure(func, x, lab, idx, a.ndim, extra)
    names = {}
    worst = 1.0
    for k, v in res.items():
        names[k] = s.array(f"{case}_{k}", v)
        if v.dtype.kind == "f" and v.size:
            fin = np.abs(v[np.isfinite(v)])
            worst = max(worst, float(fin.max()) if fin.size else 1.0)
    out_dt = next(iter(res.values())).dtype
    # SciPy sums float32 / float16 inputs in their own precision (NumPy's pairwise sum), cusci in
    # float64: the tolerance is the input's precision where it is coarser than the result's.
    r, at = tol(np.float32 if a.dtype == np.float32 and out_dt.kind == "f" else out_dt,
                scale=worst * max(1.0, np.sqrt(a.size)))
    if out_dt == np.float16 or (a.dtype == np.float16 and out_dt.kind == "f"):
        r, at = 2e-3, 2e-3 * worst * max(1.0, np.sqrt(a.size))
    if rtol is not None:
        r, at = rtol, atol
    s.case(case, func, rtol=r, atol=at, **names, **params)


def labels_for(shape, n_labels=6, dtype=np.int32, background=0.3):
    lab = rng.integers(1, n_labels + 1, size=shape)
    lab[rng.random(shape) < background] = 0
    return lab.astype(dtype)


def distinct(shape, dtype):
    """Distinct values (no ties), so that positions are unique for SciPy's unstable argsort."""
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        raise ValueError
    if dt.kind in "iu":
        hi = min(np.iinfo(dt).max, n * 3)
        lo = 0 if dt.kind == "u" else max(np.iinfo(dt).min, -n * 3)
        vals = rng.choice(np.arange(lo, hi + 1), size=n, replace=False)
    else:
        vals = rng.permutation(n) * 0.75 - n / 3
    return vals.reshape(shape).astype(dt)


DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float16", "float32", "float64")
INDEX_FORMS = [("none", None), ("scalar", 2), ("scalar_absent", 99), ("list", [3, 1, 99, 2, 0, -1, 3]),
               ("array", [[1, 2], [6, 5]]), ("list_empty", [])]
ALL_FUNCS = SCALAR_FUNCS + POS_FUNCS + ("extrema", "center_of_mass")

shape2 = (13, 17)
lab_2d = labels_for(shape2)
for func in ALL_FUNCS:
    for dt in DTYPES:
        if func in POS_FUNCS + ("extrema",) and dt == "bool":
            a = make_input(shape2, dt)
        elif func in POS_FUNCS + ("extrema",) and dt not in ("bool",):
            a = distinct(shape2, dt) if np.dtype(dt).itemsize > 1 or dt == "uint8" else make_input(shape2, dt)
        else:
            a = make_input(shape2, dt, lim=50)
        ties = func in POS_FUNCS + ("extrema",) and (dt in ("bool", "int8"))
        for form, index in INDEX_FORMS:
            kind = {"scalar_absent": "scalar", "list_empty": "list"}.get(form, form)
            if ties and kind in ("list", "array"):
                continue  # SciPy's choice among ties follows NumPy's unstable argsort
            empty_error = form == "scalar_absent" and func in ("minimum", "maximum", "extrema") + POS_FUNCS
            if empty_error:
                add_m(f"{func}_{dt}_{form}", func, a, lab_2d, kind, index, error="value_error",
                      error_text="zero-size array", needs_device=True)
                continue
            if func == "center_of_mass" and form == "array":
                index = [1, 2, 6, 5]  # SciPy's center_of_mass garbles a 2-D index
            add_m(f"{func}_{dt}_{form}", func, a, lab_2d, kind, index)
    # No labels (index ignored), 1-D, 3-D, label dtypes, layouts.
    add_m(f"{func}_nolabels", func, make_input((7, 8), "float64"))
    add_m(f"{func}_nolabels_index_ignored", func, make_input((7, 8), "float64"), None, "list", [1, 2])
    add_m(f"{func}_1d", func, distinct((40,), "float64"), labels_for((40,), 4), "list", [1, 2, 3, 4, 5])
    add_m(f"{func}_3d", func, distinct((5, 6, 7), "float32"), labels_for((5, 6, 7), 5), "array", [4, 1, 5, 2])
    for ldt in ("int8", "uint16", "int64", "uint64", "bool"):
        nl = 1 if ldt == "bool" else 5
        add_m(f"{func}_labels_{ldt}", func, distinct((9, 11), "float64"), labels_for((9, 11), nl, ldt), "list",
              [1, 0, 2, 7] if ldt != "bool" else [1, 0])
    for layout in ndimage_inputs.LAYOUTS:
        add_m(f"{func}_layout_{layout}", func, distinct((10, 12), "float64"), labels_for((10, 12), 4), "list",
              [1, 2, 3, 4], layout=layout, labels_layout=layout)
    add_m(f"{func}_labels_F_input_rev", func, distinct((10, 12), "int32"), labels_for((10, 12), 4), "list", [4, 3, 2, 1],
          layout="rev", labels_layout="F")
    add_m(f"{func}_single_pixel", func, distinct((6, 7), "float64"),
          np.pad(np.array([[3]], np.int32), ((2, 3), (4, 2))), "list", [3, 1])
    add_m(f"{func}_all_background", func, make_input((6, 7), "float64"), np.zeros((6, 7), np.int32), "list", [1, 2])
    add_m(f"{func}_large_labels_search", func, distinct((10, 12), "float64"),
          (labels_for((10, 12), 3).astype(np.int64) * 10 ** 9), "list", [2 * 10 ** 9, 10 ** 9, 5, 3 * 10 ** 9])
    add_m(f"{func}_negative_labels", func, distinct((10, 12), "float64"), labels_for((10, 12), 4) - 2, "array",
          [-1, 0, 1, 2, -3])
    try:  # complex: an error case where SciPy refuses it too (cusci refuses it everywhere: host test)
        run_measure(func, np.ones((4, 4), np.complex128), labels_for((4, 4)), [1], 2, {})
    except TypeError:
        add_m(f"err_{func}_complex", func, np.ones((4, 4), np.complex128), labels_for((4, 4)), "list", [1],
              error="type_error")
    add_m(f"err_{func}_shapes", func, np.ones((4, 4)), labels_for((4, 5)), "list", [1], error="value_error",
          error_text="input and labels must have the same shape")

# Broadcast labels (sums, means: SciPy's _stats broadcasts input and labels).
for func in ("sum_labels", "mean", "variance"):
    add_m(f"{func}_broadcast_labels", func, make_input((6, 7), "float64"), labels_for((1, 7), 3), "list", [1, 2, 3])
# The middle of two int8 values and boolean medians (no overflow: SciPy computes in float64).
i8 = np.array([[127, 125, -128, -127], [126, 127, 1, 0]], np.int8)
l8 = np.array([[1, 1, 2, 2], [3, 3, 4, 4]], np.int32)
add_m("median_int8_midpoint", "median", i8, l8, "list", [1, 2, 3, 4])
add_m("median_int8_midpoint_scalar", "median", i8, l8, "scalar", 1)
add_m("median_int8_midpoint_none", "median", i8)
add_m("median_bool", "median", np.array([[True, False], [True, True]]), np.array([[1, 1], [2, 2]]), "list", [1, 2])
add_m("median_absent_smallest_label", "median", make_input((6, 7), "float64"), labels_for((6, 7), 4) + 2, "list",
      [3, 40, 4])
add_m("median_float32_even", "median", make_input((8, 8), "float32"), labels_for((8, 8), 3), "list", [1, 2, 3])
add_m("sum_labels_uint8_no_overflow", "sum_labels", np.full((16, 16), 250, np.uint8), labels_for((16, 16), 2), "scalar", 1)
add_m("sum_labels_int8_no_overflow_none", "sum_labels", np.full((16, 16), -120, np.int8), labels_for((16, 16), 2))
add_m("sum_labels_bool", "sum_labels", rng.random((9, 9)) < 0.5, labels_for((9, 9), 3), "scalar", 2)
add_m("mean_uint64_large", "mean", np.full((5, 5), 2 ** 62, np.uint64), labels_for((5, 5), 2), "list", [1, 2])
add_m("variance_int64_large", "variance", (make_input((8, 8), "int64", lim=1000) + 10 ** 12).astype(np.int64),
      labels_for((8, 8), 2), "list", [1, 2])
add_m("center_of_mass_bool", "center_of_mass", rng.random((9, 10)) < 0.5, labels_for((9, 10), 3), "list", [1, 2, 3])
add_m("center_of_mass_int_scalar", "center_of_mass", make_input((9, 10), "uint16"), labels_for((9, 10), 3), "scalar", 2)
# Ties with a scalar or no index: the first in C order.
tie = np.array([[3, 1, 1], [1, 5, 5], [0, 5, 1]], np.int16)
add_m("minimum_position_ties_scalar", "minimum_position", tie, np.ones((3, 3), np.int32), "scalar", 1)
add_m("maximum_position_ties_none", "maximum_position", tie)
add_m("extrema_ties_none", "extrema", tie)

# ------------------------------------------------------------------------------------------------
# histogram
# ------------------------------------------------------------------------------------------------
s.group("histogram")
hin = make_input((12, 13), "float64")
hlab = labels_for((12, 13), 4)
add_m("hist_none", "histogram", hin, None, "none", None, min=-10.0, max=10.0, bins=8)
add_m("hist_labels_none_index", "histogram", hin, hlab, "none", None, min=-10.0, max=10.0, bins=5)
add_m("hist_scalar", "histogram", hin, hlab, "scalar", 2, min=-5.0, max=15.0, bins=7)
add_m("hist_scalar_absent", "histogram", hin, hlab, "scalar", 9, min=-5.0, max=15.0, bins=7)
add_m("hist_list_absent", "histogram", hin, hlab, "list", [4, 9, 1, 1], min=-20.0, max=20.0, bins=10)
add_m("hist_int_edges", "histogram", make_input((10, 10), "int16", lim=10), labels_for((10, 10), 3), "list", [1, 2, 3],
      min=-10.0, max=10.0, bins=20)
add_m("hist_uint8_max_edge", "histogram", make_input((10, 10), "uint8", lim=9), labels_for((10, 10), 2), "list",
      [1, 2], min=0.0, max=9.0, bins=3)
add_m("hist_min_eq_max", "histogram", np.array([1.0, 1.0, 2.0, 0.5]), np.array([1, 1, 1, 1]), "scalar", 1,
      min=1.0, max=1.0, bins=4)
add_m("hist_bins0", "histogram", hin, None, "none", None, min=0.0, max=1.0, bins=0)
add_m("hist_float32_3d", "histogram", make_input((4, 5, 6), "float32"), labels_for((4, 5, 6), 3), "array", [3, 1],
      min=-30.0, max=30.0, bins=6)
add_m("err_hist_bins_negative", "histogram", hin, None, "none", None, min=0.0, max=1.0, bins=-2, error="value_error",
      error_text="must be non-negative")
add_m("err_hist_decreasing", "histogram", hin, None, "none", None, min=1.0, max=0.0, bins=3, error="value_error",
      error_text="must increase monotonically")
add_m("err_hist_index_no_labels", "histogram", hin, None, "list", [1], min=0.0, max=1.0, bins=3, error="value_error",
      error_text="index without defined labels")
add_m("err_hist_index_lossy", "histogram", hin, hlab.astype(np.int8), "list", [1, 300], min=0.0, max=1.0, bins=3,
      error="value_error", error_text="without loss of precision")

# ------------------------------------------------------------------------------------------------
# labeled_comprehension: Python twins of the CUDA functions of the C++ test
# (tests/ndimage/measurements/measurements_cases.hpp: the same names).
# ------------------------------------------------------------------------------------------------
s.group("comprehension")


def c_sum(v):
    return float(np.sum(v.astype(np.float64)))


def c_count(v):
    return float(v.size)


def c_max(v):
    return float(np.max(v))


def c_range(v):
    return float(np.max(v)) - float(np.min(v))


def c_possum(v, p):
    return float(np.sum(p))


def c_weighted(v, p):
    return float(np.sum(v.astype(np.float64) * p))


COMPREHENSIONS = {"sum": c_sum, "count": c_count, "max": c_max, "range": c_range, "possum": c_possum,
                  "weighted": c_weighted}
cin = make_input((11, 12), "float64")
clab = labels_for((11, 12), 5)
for fn in ("sum", "count", "max", "range"):
    for form, index in (("none", None), ("scalar", 3), ("list", [5, 1, 9, 2, 2]), ("array", [1, 4, 3, 8])):
        add_m(f"lc_{fn}_{form}", "labeled_comprehension", cin, clab, form, index, function=fn, out_dtype="float64",
              default=-1.5, pass_positions=False)
for fn in ("possum", "weighted"):
    add_m(f"lc_{fn}_positions", "labeled_comprehension", cin, clab, "list", [1, 2, 3, 7], function=fn,
          out_dtype="float64", default=0.0, pass_positions=True)
for dt in ("bool", "int8", "uint16", "int32", "float32"):
    add_m(f"lc_dtype_{dt}", "labeled_comprehension", make_input((9, 10), dt), labels_for((9, 10), 3), "list",
          [1, 2, 3, 4], function="max", out_dtype="float64", default=0.0, pass_positions=False)
for od in ("int32", "uint8", "float32", "int64"):
    add_m(f"lc_out_{od}", "labeled_comprehension", make_input((9, 10), "int16", lim=20), labels_for((9, 10), 3), "list",
          [1, 2, 3, 4], function="count", out_dtype=od, default=7.0, pass_positions=False)
add_m("lc_no_labels", "labeled_comprehension", cin, None, "none", None, function="sum", out_dtype="float64",
      default=0.0, pass_positions=False)
for layout in ndimage_inputs.LAYOUTS:
    add_m(f"lc_layout_{layout}", "labeled_comprehension", cin, clab, "list", [1, 2, 3], layout=layout,
          labels_layout=layout, function="weighted", out_dtype="float64", default=0.0, pass_positions=True)
add_m("err_lc_index_no_labels", "labeled_comprehension", cin, None, "scalar", 1, function="sum", out_dtype="float64",
      default=0.0, pass_positions=False, error="value_error", error_text="index without defined labels")
add_m("err_lc_index_lossy", "labeled_comprehension", cin, clab.astype(np.int8), "list", [1, 300], function="sum",
      out_dtype="float64", default=0.0, pass_positions=False, error="value_error",
      error_text="Cannot convert index values from <int64> to <int8>")
add_m("err_lc_index_lossy_bool", "labeled_comprehension", cin, clab > 0, "list", [2], function="sum",
      out_dtype="float64", default=0.0, pass_positions=False, error="value_error",
      error_text="without loss of precision")

s.write()
