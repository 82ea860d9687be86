#!/usr/bin/env python
"""Reference data for cusci::ndimage::watershed_ift, computed with SciPy at build time
(tests/golden/golden.py):

    python tests/golden/gen_ndimage_watershed.py --out <build>/tests/golden

Each case (func "watershed_ift"): input and markers (array names, stored before the layout is
applied), structure (array name; absent: SciPy's default), layout (C, F, step2, rev:
tests/golden/ndimage_inputs.py's view, applied to input and markers alike), and
  output:     a dtype name passed as SciPy's `output=` dtype (SciPy ignores it: markers' dtype);
  out_array:  a dtype name: an output array of that dtype (zeros, order out_order C or F) is passed;
  out_shape:  that array's shape when it differs from the input's (error cases);
  expected:   SciPy's result (array name);
  determined: a bool array (array name) marking the elements whose label is uniquely determined:
              exactly one label reaches them at the least path cost (computed here independently of
              SciPy, and checked against SciPy's result). Tests compare `expected` on these elements
              only; elsewhere any label of least cost is correct, and SciPy's pick depends on its queue
              order (see cusci's documentation of watershed_ift);
  exact:      true when every element is uniquely determined (the whole result must equal SciPy's);
  scipy_suboptimal: the number of elements where SciPy's own result is not the unique least-cost
              label (SciPy's queue quirk with background markers; see below); they are left out of
              `determined`.
Error cases carry `error` (the cusci exception) and no expected.
"""
import numpy as np
import scipy.ndimage as ndi

from golden import Suite
from ndimage_inputs import view

s = Suite("ndimage_watershed")
rng = s.rng(20261216)
FUNC = "watershed_ift"
ERRORS = {RuntimeError: "runtime_error", ValueError: "value_error", TypeError: "type_error"}
stats = {"cases": 0, "exact": 0, "undetermined_elements": 0, "elements": 0, "suboptimal_cases": 0,
         "suboptimal_elements": 0}


def effective_labels(markers, out_dtype):
    """SciPy's C loop reads a marker into a C int and writes it to the output dtype: (is marker,
    label as the output holds it)."""
    m32 = np.asarray(markers).astype(np.int64).astype(np.int32)  # wraps like the C cast
    return m32 != 0, m32.astype(out_dtype).astype(np.int64)


def flat_offsets(shape, structure):
    nd = len(shape)
    strides = [1] * nd
    for d in range(nd - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    offs = []
    for c in np.ndindex(*structure.shape):
        if structure[c]:
            o = sum((ci - 1) * st for ci, st in zip(c, strides))
            if o != 0:
                offs.append(o)
    return offs


def determined_mask(inp, markers, structure, out_dtype):
    """Elements reached at least cost (minimax of |input[a] - input[b]| along the path, neighbours
    e -> e + offset in SciPy's flat C-order index space) by exactly one label, or by none (they keep
    0). A label's paths may not pass through markers of other labels."""
    v = np.asarray(inp).ravel().astype(np.int64)
    n = v.size
    is_mark, lab = effective_labels(np.asarray(markers), out_dtype)
    is_mark, lab = is_mark.ravel(), lab.ravel()
    offs = flat_offsets(np.asarray(inp).shape, structure)
    inf = np.iinfo(np.int64).max
    costs = []
    for L in np.unique(lab[is_mark]):
        own = is_mark & (lab == L)
        blocked = is_mark & ~own
        cost = np.full(n, inf, np.int64)
        cost[own] = 0
        while True:
            prev = cost.copy()
            for o in offs:
                lo, hi = max(0, o), min(n, n + o)  # p in [lo, hi), q = p - o in [0, n)
                if lo >= hi:
                    continue
                p = np.arange(lo, hi)
                q = p - o
                cq = cost[q]
                w = np.abs(v[p] - v[q])
                cand = np.where(cq == inf, inf, np.maximum(cq, w))
                upd = (cand < cost[p]) & ~blocked[p]
                cost[p[upd]] = cand[upd]
            if np.array_equal(prev, cost):
                break
        costs.append((L, cost))
    det = np.ones(n, bool)
    unique = np.zeros(n, np.int64)
    if costs:
        allc = np.stack([c for _, c in costs])
        best = allc.min(axis=0)
        nbest = (allc == best).sum(axis=0)
        labels = np.array([L for L, _ in costs])
        det = (nbest == 1) | (best == inf)
        unique = np.where(best == inf, 0, labels[np.argmax(allc == best, axis=0)])
    return det, unique


def add(name, inp, markers, structure=None, layout="C", output=None, out_array=None, out_order="C",
        out_shape=None, expect_error=None):
    inp = np.asarray(inp)
    markers = np.asarray(markers)
    xi, xm = view(inp, layout), view(markers, layout)
    params = dict(input=s.array(name + "_in", inp), markers=s.array(name + "_mk", markers), layout=layout)
    st = None
    if structure is not None:
        st = np.asarray(structure)
        params["structure"] = s.array(name + "_st", st)
    if output is not None:
        params["output"] = np.dtype(output).name
    kw = {}
    if st is not None:
        kw["structure"] = st
    if out_array is not None:
        params["out_array"] = np.dtype(out_array).name
        params["out_order"] = out_order
        shape = xi.shape if out_shape is None else tuple(out_shape)
        if out_shape is not None:
            params["out_shape"] = list(shape)
        kw["output"] = np.zeros(shape, out_array, order=out_order)
    elif output is not None:
        kw["output"] = output
    try:
        r = ndi.watershed_ift(xi, xm, **kw)
    except Exception as e:  # noqa: BLE001 - SciPy's exception decides the case
        kind = ERRORS[type(e)]
        if expect_error is not None:
            assert kind == expect_error, (name, kind, e)
        s.case(name, FUNC, error=kind, **params)
        return
    assert expect_error is None, (name, "SciPy did not raise")
    if out_array is not None:
        assert r is kw["output"]
    out_dtype = r.dtype
    if xi.size and xi.ndim:
        sbool = (ndi.generate_binary_structure(xi.ndim, 1) if st is None else st.astype(bool))
        det, unique = determined_mask(np.ascontiguousarray(xi), np.ascontiguousarray(xm), sbool, out_dtype)
        det = det.reshape(xi.shape)
        unique = unique.reshape(xi.shape)
        # SciPy's queue does not always settle the least cost: an element alone in its cost bucket
        # is not unlinked when it moves to a lower bucket, and a background (negative) label appended
        # to the stale bucket later splices the two lists, so elements get settled early. That only
        # happens with negative labels; those elements are left out of the comparison and counted.
        off = det & (unique != r.astype(np.int64))
        _, eff = effective_labels(xm, out_dtype)
        assert not off.any() or (eff < 0).any(), (name, "SciPy differs from the least-cost label", np.argwhere(off)[:5])
        params["scipy_suboptimal"] = int(off.sum())
        stats["suboptimal_cases"] += int(off.any())
        stats["suboptimal_elements"] += int(off.sum())
        det = det & ~off
    else:
        det = np.ones(xi.shape, bool)
    params["expected"] = s.array(name + "_out", r)
    params["determined"] = s.array(name + "_det", det)
    params["exact"] = bool(det.all())
    stats["cases"] += 1
    stats["exact"] += int(det.all())
    stats["undetermined_elements"] += int((~det).sum())
    stats["elements"] += int(det.size)
    s.case(name, FUNC, **params)


def sparse_markers(shape, count, dtype=np.int32, negative=0, labels=None):
    m = np.zeros(shape, dtype)
    idx = rng.choice(int(np.prod(shape)), size=count + negative, replace=False)
    vals = list(labels) if labels is not None else list(range(1, count + 1))
    vals += [-(k + 1) for k in range(negative)]
    m.flat[idx] = vals
    return m


S4 = ndi.generate_binary_structure(2, 1)
S8 = ndi.generate_binary_structure(2, 2)

# --- SciPy's own examples (scipy/ndimage/tests/test_measurements.py, watershed_ift01..09 style) ---
s.group("basic")
ring = np.array([[0, 0, 0, 0, 0, 0, 0, 0],
                 [0, 1, 1, 1, 1, 1, 0, 0],
                 [0, 1, 0, 0, 0, 1, 0, 0],
                 [0, 1, 0, 0, 0, 1, 0, 0],
                 [0, 1, 0, 0, 0, 1, 0, 0],
                 [0, 1, 1, 1, 1, 1, 0, 0],
                 [0, 0, 0, 0, 0, 0, 0, 0],
                 [0, 0, 0, 0, 0, 0, 0, 0]], np.uint8)
ring_mk = np.zeros((8, 8), np.int8)
ring_mk[3, 3] = 1
ring_mk[0, 0] = 2
add("ring_s8", ring, ring_mk, S8)
add("ring_s4", ring, ring_mk)
ring_mk_neg = ring_mk.copy()
ring_mk_neg[0, 0] = -1
add("ring_neg_s8", ring, ring_mk_neg, S8)
add("ring_neg_s4", ring, ring_mk_neg)
add("ring_int_structure", ring, ring_mk, S8.astype(np.int32) * 3)
walls = np.array([[0, 0, 0, 0, 0, 0, 0],
                  [0, 1, 1, 1, 1, 1, 0],
                  [0, 1, 0, 1, 0, 1, 0],
                  [0, 1, 0, 1, 0, 1, 0],
                  [0, 1, 0, 1, 0, 1, 0],
                  [0, 1, 1, 1, 1, 1, 0],
                  [0, 0, 0, 0, 0, 0, 0]], np.uint8)
walls_mk = np.zeros((7, 7), np.int8)
walls_mk[3, 2] = 2
walls_mk[3, 4] = 3
walls_mk[6, 6] = -1
add("walls_s8", walls, walls_mk, S8)
add("walls_s4", walls, walls_mk)
add("walls_uint16", walls.astype(np.uint16) * 1000, walls_mk.astype(np.int64), S8)

# --- random plateaus and ties, 2-D ---
s.group("random2d")
for dt, hi in ((np.uint8, 4), (np.uint8, 256), (np.uint16, 4), (np.uint16, 65536)):
    for shape in ((9, 11), (16, 16)):
        for lay in ("one", "several", "neg", "allneg", "dup", "adjacent", "none"):
            tag = f"r2_{np.dtype(dt).name}_{hi}_{shape[0]}x{shape[1]}_{lay}"
            a = rng.integers(0, hi, shape).astype(dt)
            if lay == "one":
                m = sparse_markers(shape, 1)
            elif lay == "several":
                m = sparse_markers(shape, 5)
            elif lay == "neg":
                m = sparse_markers(shape, 4, negative=2)
            elif lay == "allneg":
                m = -sparse_markers(shape, 3)
            elif lay == "dup":
                m = sparse_markers(shape, 6, labels=[1, 2, 1, 2, 3, 3])
            elif lay == "adjacent":
                m = np.zeros(shape, np.int32)
                m[4, 4], m[4, 5], m[5, 4] = 1, 2, -3
            else:
                m = np.zeros(shape, np.int32)
            for sname, st in (("s4", None), ("s8", S8)):
                add(f"{tag}_{sname}", a, m, st)

# plateaus: blocky images with long flat runs (deep floods), two levels of ties
for k, (shape, blocks) in enumerate((((32, 40), 4), ((64, 64), 8))):
    base = rng.integers(0, 3, (shape[0] // blocks + 1, shape[1] // blocks + 1))
    a = np.kron(base, np.ones((blocks, blocks), np.int64))[: shape[0], : shape[1]].astype(np.uint8) * 40
    m = sparse_markers(shape, 6, negative=1)
    add(f"plateau_{k}_s4", a, m)
    add(f"plateau_{k}_s8", a, m, S8)
    add(f"plateau_{k}_u16", a.astype(np.uint16) * 250, m.astype(np.int16), S8)

# smooth ramps: costs unique almost everywhere
yy, xx = np.mgrid[0:40, 0:50]
ramp = ((np.sin(yy / 5.0) + np.cos(xx / 7.0) + 2) * 60).astype(np.uint8)
add("ramp_s4", ramp, sparse_markers((40, 50), 8))
add("ramp_s8_neg", ramp, sparse_markers((40, 50), 8, negative=2), S8)
add("ramp_u16", (ramp.astype(np.uint16) * 257 + rng.integers(0, 50, ramp.shape).astype(np.uint16)),
    sparse_markers((40, 50), 8, dtype=np.int64))

# asymmetric and unusual structures (SciPy accepts them: directed neighbourhoods)
half = np.array([[0, 0, 0], [1, 1, 0], [1, 1, 1]], bool)
add("asym_half", ramp, sparse_markers((40, 50), 5), half)
add("centre_only", ramp, sparse_markers((40, 50), 5), np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], bool))
add("row_only", ramp, sparse_markers((40, 50), 5), np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]], bool))
# SciPy's flat-index neighbours: the end of a row touches the start of the next one
wrap_in = np.zeros((4, 5), np.uint8)
wrap_in[:, 0] = 9
wrap_mk = np.zeros((4, 5), np.int32)
wrap_mk[0, 4] = 1
wrap_mk[3, 1] = 2
add("wrap_rows", wrap_in, wrap_mk, np.array([[0, 0, 0], [1, 0, 1], [0, 0, 0]], bool))
# a size-1 axis (zero and repeated flat offsets)
add("column", rng.integers(0, 5, (12, 1)).astype(np.uint8), sparse_markers((12, 1), 2), S8)

# --- 1-D and 3-D ---
s.group("nd")
add("line_1d", rng.integers(0, 6, 40).astype(np.uint8), sparse_markers((40,), 3, negative=1))
add("line_1d_u16", rng.integers(0, 3000, 40).astype(np.uint16), sparse_markers((40,), 4))
for dt, hi in ((np.uint8, 3), (np.uint8, 200), (np.uint16, 5000)):
    a = rng.integers(0, hi, (5, 6, 7)).astype(dt)
    m = sparse_markers((5, 6, 7), 4, negative=1)
    name = f"vol_{np.dtype(dt).name}_{hi}"
    add(name + "_s6", a, m)
    add(name + "_s18", a, m, ndi.generate_binary_structure(3, 2))
    add(name + "_s26", a, m, ndi.generate_binary_structure(3, 3))
blob3 = (ndi.gaussian_filter(rng.random((12, 14, 10)), 2) * 2000).astype(np.uint16)
add("vol_smooth_u16", blob3, sparse_markers((12, 14, 10), 6, dtype=np.int16, negative=1),
    ndi.generate_binary_structure(3, 3))
add("vol_4d", rng.integers(0, 4, (3, 4, 3, 5)).astype(np.uint8), sparse_markers((3, 4, 3, 5), 3))

# --- dtypes, outputs, layouts ---
s.group("io")
base = rng.integers(0, 50, (12, 14)).astype(np.uint8)
for mdt in (np.int8, np.int16, np.int32, np.int64):
    add(f"markers_{np.dtype(mdt).name}", base, sparse_markers((12, 14), 4, dtype=mdt, negative=1), S8)
add("output_dtype_ignored", base, sparse_markers((12, 14), 4, dtype=np.int16), S8, output=np.float64)
big = np.zeros((12, 14), np.int16)
big[2, 3], big[8, 9], big[5, 12] = 200, 7, -2
add("out_int8_wraps", base, big, S8, out_array=np.int8)  # 200 becomes -56: a background label
add("out_int64_F", base, sparse_markers((12, 14), 4, negative=1), S8, out_array=np.int64, out_order="F")
add("out_int16_from_int64", base, sparse_markers((12, 14), 4, dtype=np.int64), None, out_array=np.int16)
wide = np.zeros((12, 14), np.int64)
wide[1, 1], wide[10, 12], wide[6, 6] = 2**32 + 5, 2**32, -(2**33) - 3  # read as C ints: 5, 0, -3
add("markers_int64_truncated", base, wide, S8)
for layout in ("F", "step2", "rev"):
    a = rng.integers(0, 6, (14, 18)).astype(np.uint8)
    add(f"layout_{layout}", a, sparse_markers((14, 18), 5, negative=1), S8, layout=layout)
    add(f"layout_{layout}_u16", a.astype(np.uint16) * 300, sparse_markers((14, 18), 5, dtype=np.int16), None,
        layout=layout)
add("zero_d", np.array(5, np.uint8), np.array(3, np.int32))
add("empty", np.zeros((0, 4), np.uint8), np.zeros((0, 4), np.int32))
add("single", np.array([7], np.uint16), np.array([-4], np.int8))

# --- the bundled real image: camera.npy, 4x downsampled (128 x 128), ~20 markers ---
s.group("camera")
cam = np.load(s.data("camera.npy"))
small = cam[::4, ::4].astype(np.uint8)
grad = np.hypot(ndi.sobel(small.astype(float), 0), ndi.sobel(small.astype(float), 1))
grad = np.clip(grad / grad.max() * 255, 0, 255).astype(np.uint8)
# markers at the minima of the smoothed gradient, strongest basins first
minima = (grad == ndi.minimum_filter(grad, size=9))
pts = np.argwhere(minima)
pts = pts[rng.permutation(len(pts))][:20]
cam_mk = np.zeros(small.shape, np.int32)
for k, (y, x) in enumerate(pts):
    cam_mk[y, x] = k + 1
cam_mk[0, 0] = -1
add("camera_gradient_s4", grad, cam_mk)
add("camera_gradient_s8", grad, cam_mk, S8)
add("camera_raw_crop_s8", cam[200:328, 180:308], sparse_markers((128, 128), 20, negative=2), S8)
add("camera_u16", small.astype(np.uint16) * 256, cam_mk.astype(np.int64), S8)

# --- errors ---
s.group("errors")
a = rng.integers(0, 5, (6, 7)).astype(np.uint8)
m = sparse_markers((6, 7), 2)
add("err_float_input", a.astype(np.float32), m, expect_error="type_error")
add("err_int8_input", a.astype(np.int8), m, expect_error="type_error")
add("err_uint32_input", a.astype(np.uint32), m, expect_error="type_error")
add("err_bool_input", a.astype(bool), m, expect_error="type_error")
add("err_markers_uint8", a, m.astype(np.uint8), expect_error="runtime_error")
add("err_markers_float", a, m.astype(np.float64), expect_error="runtime_error")
add("err_markers_bool", a, m.astype(bool), expect_error="runtime_error")
add("err_markers_shape", a, np.zeros((7, 6), np.int32), expect_error="runtime_error")
add("err_structure_rank", a, m, np.ones(3, bool), expect_error="runtime_error")
add("err_structure_dims", a, m, np.ones((3, 5), bool), expect_error="runtime_error")
add("err_out_uint8", a, m, out_array=np.uint8, expect_error="runtime_error")
add("err_out_float", a, m, out_array=np.float64, expect_error="runtime_error")
add("err_out_shape", a, m, out_array=np.int32, out_shape=(7, 7), expect_error="runtime_error")
add("err_too_many_dims", np.zeros((1,) * 8, np.uint8), np.ones((1,) * 8, np.int32), expect_error="runtime_error")

print(f"ndimage_watershed: {stats['cases']} result cases, {stats['exact']} fully determined; "
      f"{stats['undetermined_elements']} of {stats['elements']} elements tied (compared only where determined); "
      f"SciPy not least-cost on {stats['suboptimal_elements']} elements of {stats['suboptimal_cases']} cases")
s.write()
