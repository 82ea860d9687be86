"""Golden data for cusci's products (matmul, dot, vdot, inner, outer, tensordot, einsum), NumPy 2.5
semantics.

Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/core_products/.

Each case (func matmul, dot, vdot, inner, outer, tensordot, einsum) stores its operands as arrays
`<case>_<k>` (k = 0, 1, 2, ...; parameter operands, with their shapes in shapes) and NumPy's result as
`<case>_out` (parameter expected, None for error cases; its shape in out_shape). A 0-d array's shape
is []. Operands are stored as "bases" from which the test builds the operand view named in parameter
views (one code per operand):
  c   the stored array as is (C order)
  f   an F-order copy of it
  t   the stored array has its last two axes swapped; the test swaps them back (a transposed view)
  s   the stored array has a doubled last axis; the test takes [..., ::2] (a strided view)
  n   the stored array has its last axis reversed; the test takes [..., ::-1] (negative stride)
Other parameters: subscripts (einsum), axes (tensordot: an int, or [axes of a, axes of b]).
Errors: value_error / index_error.
"""
import numpy as np

from golden import Suite

s = Suite("core_products")
rng = s.rng(20261201)


def values(shape, dt):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        lo, hi = (0, 5) if dt.kind == "u" else (-4, 5)
        return rng.integers(lo, hi, shape).astype(dt)
    if dt.kind == "c":
        return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dt)
    return rng.uniform(-1, 1, shape).astype(dt)


def base_for(x, view):
    """The stored array from which the test's view `view` gives back x."""
    if view == "c" or view == "f" or x.ndim == 0:
        return x
    if view == "t":
        return np.swapaxes(x, -1, -2)
    if view == "s":
        b = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        b[..., ::2] = x
        return b
    if view == "n":
        return x[..., ::-1]
    raise ValueError(view)


def products_tol(dt, k=1):
    """(rtol, atol) of a product whose sums have k terms: atol grows with k, not with the magnitude
    (the shared tol() scales atol by the result's magnitude)."""
    dt = np.dtype(dt)
    if dt in (np.float32, np.complex64):
        return 2e-5, 2e-6 * max(k, 1)
    if dt in (np.float64, np.complex128):
        return 1e-12, 1e-13 * max(k, 1)
    return 0.0, 0.0


def case(name, func, ops, views=None, arg=None, error=None, k=16):
    """arg: einsum subscripts, or tensordot axes (an int or a pair of lists)."""
    views = views or ["c"] * len(ops)
    bases = [base_for(x, v) for x, v in zip(ops, views)]
    operands = [s.array(f"{name}_{i}", b) for i, b in enumerate(bases)]
    rt, at = 0.0, 0.0
    expected, out_shape = None, None
    if not error:
        if func == "matmul":
            r = np.matmul(*ops)
        elif func == "dot":
            r = np.dot(*ops)
        elif func == "vdot":
            r = np.vdot(*ops)
        elif func == "inner":
            r = np.inner(*ops)
        elif func == "outer":
            r = np.outer(*ops)
        elif func == "tensordot":
            r = np.tensordot(*ops, axes=arg)
        elif func == "einsum":
            r = np.einsum(arg, *ops)
        else:
            raise ValueError(func)
        r = np.asarray(r)
        expected, out_shape = s.array(f"{name}_out", r), list(r.shape)
        rt, at = products_tol(r.dtype, k)
    else:
        # The case must really fail in NumPy.
        try:
            if func == "einsum":
                np.einsum(arg, *ops)
            elif func == "tensordot":
                np.tensordot(*ops, axes=arg)
            else:
                getattr(np, func)(*ops)
        except (ValueError, IndexError):
            pass
        else:
            raise AssertionError(f"{name}: NumPy did not fail")
    extra = {"subscripts": arg} if func == "einsum" else {"axes": arg} if func == "tensordot" else {}
    s.case(name, func=func, rtol=rt, atol=at, error=error, operands=operands, views=views,
           shapes=[list(b.shape) for b in bases], expected=expected, out_shape=out_shape, **extra)


def main():
    all_dt = ["float32", "float64", "complex64", "complex128", "int8", "int16", "int32", "int64", "uint8",
              "uint16", "uint32", "uint64", "bool"]
    # --- matmul: every dtype, 2-D
    s.group("matmul")
    for dt in all_dt:
        case(f"mm_2d_{dt}", "matmul", [values((5, 7), dt), values((7, 3), dt)], k=7)
    # int8 that wraps (NumPy accumulates in int8)
    big8 = rng.integers(60, 127, (4, 9)).astype(np.int8)
    case("mm_wrap_int8", "matmul", [big8, rng.integers(60, 127, (9, 3)).astype(np.int8)])
    # mixed dtypes
    for da, db in [("int32", "float32"), ("float32", "float64"), ("uint8", "int8"), ("bool", "int32"),
                   ("int64", "uint64"), ("float32", "complex128"), ("int16", "complex64")]:
        case(f"mm_mixed_{da}_{db}", "matmul", [values((4, 6), da), values((6, 5), db)], k=6)
    # 1-D promotion
    for dt in ["float64", "int32", "complex64"]:
        case(f"mm_1d2d_{dt}", "matmul", [values((7,), dt), values((7, 3), dt)], k=7)
        case(f"mm_2d1d_{dt}", "matmul", [values((5, 7), dt), values((7,), dt)], k=7)
        case(f"mm_1d1d_{dt}", "matmul", [values((7,), dt), values((7,), dt)], k=7)
        case(f"mm_3d1d_{dt}", "matmul", [values((2, 5, 7), dt), values((7,), dt)], k=7)
        case(f"mm_1d3d_{dt}", "matmul", [values((7,), dt), values((3, 7, 2), dt)], k=7)
    # batched with broadcasting
    shapes = [((2, 3, 4, 5), (5, 6)), ((3, 1, 4, 5), (2, 5, 6)), ((4, 5), (2, 3, 5, 6)), ((2, 1, 4, 5), (1, 3, 5, 2)),
              ((6, 4, 5), (6, 5, 3)), ((1, 4, 5), (6, 5, 3)), ((6, 4, 5), (1, 5, 3)), ((2, 3, 1, 5), (3, 5, 4))]
    for i, (sa, sb) in enumerate(shapes):
        for dt in ["float32", "float64", "int16", "complex128"]:
            case(f"mm_batch{i}_{dt}", "matmul", [values(sa, dt), values(sb, dt)], k=5)
    # layouts: transposed, F order, strided, negative strides
    for dt in ["float32", "float64", "complex64", "int32"]:
        for va, vb in [("t", "c"), ("c", "t"), ("t", "t"), ("f", "f"), ("s", "c"), ("c", "s"), ("n", "c"),
                       ("c", "n"), ("s", "t")]:
            case(f"mm_view_{va}{vb}_{dt}", "matmul", [values((6, 9), dt), values((9, 4), dt)], [va, vb], k=9)
        for va, vb in [("t", "c"), ("c", "t"), ("f", "c"), ("s", "s")]:
            case(f"mm_bview_{va}{vb}_{dt}", "matmul", [values((3, 6, 9), dt), values((3, 9, 4), dt)], [va, vb], k=9)
        case(f"mm_bview_bc_t_{dt}", "matmul", [values((3, 6, 9), dt), values((9, 4), dt)], ["c", "t"], k=9)
    # sizes 0 and 1, larger tiles
    for dt in ["float32", "int32", "complex128"]:
        case(f"mm_zero_n_{dt}", "matmul", [values((0, 4), dt), values((4, 3), dt)])
        case(f"mm_zero_k_{dt}", "matmul", [values((3, 0), dt), values((0, 4), dt)])
        case(f"mm_zero_batch_{dt}", "matmul", [values((2, 0, 3), dt), values((3, 4), dt)])
        case(f"mm_zero_kb_{dt}", "matmul", [values((2, 3, 0), dt), values((0, 4), dt)])
        case(f"mm_one_{dt}", "matmul", [values((1, 1), dt), values((1, 1), dt)])
        case(f"mm_k1_{dt}", "matmul", [values((5, 1), dt), values((1, 4), dt)])
        case(f"mm_row_{dt}", "matmul", [values((1, 9), dt), values((9, 1), dt)], k=9)
    case("mm_big_float32", "matmul", [values((70, 130), "float32"), values((130, 45), "float32")], k=130)
    case("mm_big_float64", "matmul", [values((70, 130), "float64"), values((130, 45), "float64")], k=130)
    case("mm_big_int32", "matmul", [values((40, 37), "int32"), values((37, 45), "int32")])
    case("mm_big_uint64", "matmul", [values((33, 17), "uint64"), values((17, 18), "uint64")])
    # errors
    case("mm_err_core", "matmul", [values((3, 4), "float64"), values((5, 6), "float64")], error="value_error")
    case("mm_err_core1d", "matmul", [values((3,), "float64"), values((4,), "float64")], error="value_error")
    case("mm_err_0d", "matmul", [np.array(2.0), values((2, 2), "float64")], error="value_error")
    case("mm_err_batch", "matmul", [values((2, 3, 4), "float32"), values((3, 4, 5), "float32")], error="value_error")

    # --- dot
    s.group("dot")
    for dt in ["float32", "float64", "complex64", "complex128", "int32", "int8", "bool", "uint16"]:
        case(f"dot_1d_{dt}", "dot", [values((11,), dt), values((11,), dt)], k=11)
        case(f"dot_2d_{dt}", "dot", [values((4, 6), dt), values((6, 3), dt)], k=6)
    case("dot_1d_strided_float32", "dot", [values((9,), "float32"), values((9,), "float32")], ["s", "n"], k=9)
    case("dot_1d_strided_complex128", "dot", [values((9,), "complex128"), values((9,), "complex128")], ["s", "c"], k=9)
    case("dot_1d_mixed", "dot", [values((9,), "int32"), values((9,), "float32")], k=9)
    case("dot_1d_empty", "dot", [values((0,), "float64"), values((0,), "float64")])
    case("dot_1d_empty_int", "dot", [values((0,), "int32"), values((0,), "int32")])
    case("dot_nd1d", "dot", [values((2, 3, 4), "float64"), values((4,), "float64")], k=4)
    case("dot_1dnd", "dot", [values((4,), "float64"), values((2, 4, 3), "float64")], k=4)
    case("dot_ndmd", "dot", [values((2, 3, 4), "float64"), values((5, 4, 6), "float64")], k=4)
    case("dot_ndmd_int", "dot", [values((2, 3, 4), "int64"), values((5, 4, 6), "int64")])
    case("dot_2d3d_f32", "dot", [values((3, 4), "float32"), values((2, 4, 5), "float32")], ["t", "c"], k=4)
    case("dot_0d", "dot", [np.array(2.5), values((3, 2), "float32")])
    case("dot_0d_int", "dot", [values((4,), "int16"), np.array(3, dtype=np.int16)])
    case("dot_err_1d", "dot", [values((3,), "float64"), values((4,), "float64")], error="value_error")
    case("dot_err_2d", "dot", [values((2, 3), "float64"), values((4, 5), "float64")], error="value_error")
    case("dot_err_nd", "dot", [values((2, 3), "float64"), values((2, 4, 5), "float64")], error="value_error")

    # --- vdot
    s.group("vdot")
    for dt in ["float32", "float64", "complex64", "complex128", "int32", "bool"]:
        case(f"vdot_{dt}", "vdot", [values((2, 3), dt), values((3, 2), dt)], k=6)
    case("vdot_strided_c128", "vdot", [values((4, 3), "complex128"), values((12,), "complex128")], ["t", "s"], k=12)
    case("vdot_mixed", "vdot", [values((5,), "complex64"), values((5,), "float64")], k=5)
    case("vdot_err", "vdot", [values((5,), "float64"), values((6,), "float64")], error="value_error")

    # --- inner
    s.group("inner")
    case("inner_2d", "inner", [values((2, 3), "float64"), values((4, 3), "float64")], k=3)
    case("inner_1d_c64", "inner", [values((5,), "complex64"), values((5,), "complex64")], k=5)
    case("inner_nd", "inner", [values((2, 3, 4), "float32"), values((5, 4), "float32")], k=4)
    case("inner_int", "inner", [values((3, 4), "int32"), values((2, 4), "int8")])
    case("inner_0d", "inner", [values((2, 2), "float64"), np.array(3.0)])
    case("inner_f", "inner", [values((3, 5), "float64"), values((4, 5), "float64")], ["f", "t"], k=5)
    case("inner_err", "inner", [values((2, 3), "float64"), values((2, 4), "float64")], error="value_error")

    # --- outer
    s.group("outer")
    case("outer_1d", "outer", [values((3,), "float64"), values((4,), "float64")])
    case("outer_nd", "outer", [values((2, 2), "float32"), values((3,), "float32")])
    case("outer_bool", "outer", [values((4,), "bool"), values((5,), "bool")])
    case("outer_mixed", "outer", [values((3,), "int8"), values((2,), "complex64")])
    case("outer_strided", "outer", [values((3,), "float64"), values((4,), "float64")], ["s", "n"])
    case("outer_empty", "outer", [values((0,), "float64"), values((4,), "float64")])

    # --- tensordot
    s.group("tensordot")
    case("td_2", "tensordot", [values((3, 4, 5), "float64"), values((4, 5, 6), "float64")], arg=2, k=20)
    case("td_1", "tensordot", [values((3, 4, 5), "float32"), values((5, 2), "float32")], arg=1, k=5)
    case("td_0", "tensordot", [values((3, 2), "float64"), values((4,), "float64")], arg=0)
    case("td_pair", "tensordot", [values((3, 4, 5), "float64"), values((4, 3, 2), "float64")],
         arg=([1, 0], [0, 1]), k=12)
    case("td_pair_neg", "tensordot", [values((3, 4, 5), "complex128"), values((5, 2), "complex128")],
         arg=([-1], [0]), k=5)
    case("td_pair_mid", "tensordot", [values((3, 4, 5), "float64"), values((6, 4), "float64")], arg=([1], [1]), k=4)
    case("td_int", "tensordot", [values((3, 4, 5), "int32"), values((4, 5, 2), "int32")], arg=2)
    case("td_views", "tensordot", [values((4, 5), "float64"), values((4, 5), "float64")], ["t", "s"], arg=2, k=20)
    case("td_err_len", "tensordot", [values((3, 4), "float64"), values((4, 3), "float64")], arg=([0, 1], [0]),
         error="value_error")
    case("td_err_shape", "tensordot", [values((3, 4), "float64"), values((3, 4), "float64")], arg=([1], [0]),
         error="value_error")

    # --- einsum
    s.group("einsum")
    E = [
        ("ij,jk->ik", [(4, 5), (5, 3)], "float64"),
        ("ij,jk", [(4, 5), (5, 3)], "float32"),
        ("bij,bjk->bik", [(3, 4, 5), (3, 5, 2)], "float32"),
        ("bij,jk->bik", [(3, 4, 5), (5, 2)], "float64"),
        ("ij->ji", [(3, 4)], "float64"),
        ("ji", [(3, 4)], "float64"),
        ("ij", [(3, 4)], "int32"),
        ("i,j->ij", [(3,), (4,)], "float64"),
        ("ii->i", [(4, 4)], "float64"),
        ("ii", [(4, 4)], "float64"),
        ("ii", [(4, 4)], "int32"),
        ("ij->i", [(3, 5)], "float64"),
        ("ij->j", [(3, 5)], "int16"),
        ("ij->", [(3, 5)], "float32"),
        ("ij,ij->ij", [(3, 4), (3, 4)], "float64"),
        ("ij,ij->", [(3, 4), (3, 4)], "complex128"),
        ("ij,ji->", [(3, 4), (4, 3)], "float64"),
        ("i,i", [(6,), (6,)], "float64"),
        ("i,i->", [(6,), (6,)], "int64"),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], "float64"),
        ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)], "float64"),
        ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)], "float64"),
        ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)], "float64"),
        ("...ij,jk->...ik", [(2, 2, 3, 4), (4, 5)], "float32"),
        ("...ij,...jk", [(2, 1, 3, 4), (3, 4, 2)], "float64"),
        ("i...->...", [(3, 2, 2)], "float64"),
        ("iij,jk->ik", [(3, 3, 4), (4, 2)], "float64"),
        ("ij,jk->ik", [(4, 5), (5, 3)], "int32"),
        ("ij,jk->ik", [(4, 5), (5, 3)], "complex64"),
        ("ij,jk->ki", [(4, 5), (5, 3)], "float64"),
        ("ab,cd->abcd", [(2, 3), (2, 2)], "float64"),
        ("ij,k->ijk", [(2, 3), (0,)], "float64"),
        ("Ab,bA->A", [(3, 4), (4, 3)], "float64"),
        ("ij,jk->ik", [(4, 0), (0, 3)], "float64"),
        (" ij , jk -> ik ", [(2, 3), (3, 2)], "float64"),
    ]
    for i, (sub, shapes_, dt) in enumerate(E):
        ops = [values(s, dt) for s in shapes_]
        k = max([int(np.prod(s)) for s in shapes_] + [1])
        case(f"es_{i:02d}", "einsum", ops, arg=sub, k=min(k, 64))
    # einsum with views and mixed dtypes
    case("es_views", "einsum", [values((4, 5), "float64"), values((5, 3), "float64")], ["t", "s"], arg="ij,jk->ik", k=5)
    case("es_mixed", "einsum", [values((4, 5), "int32"), values((5, 3), "float32")], arg="ij,jk->ik", k=5)
    case("es_bool", "einsum", [values((4, 5), "bool"), values((5, 3), "bool")], arg="ij,jk->ik")
    case("es_err_out", "einsum", [values((2, 3), "float64"), values((3, 4), "float64")], arg="ij,jk->il",
         error="value_error")
    case("es_err_rep", "einsum", [values((2, 3), "float64")], arg="ij->ii", error="value_error")
    case("es_err_ndim", "einsum", [values((2, 3, 4), "float64")], arg="ij->i", error="value_error")
    case("es_err_size", "einsum", [values((2, 3), "float64"), values((4, 5), "float64")], arg="ij,jk->ik",
         error="value_error")
    case("es_err_count", "einsum", [values((2, 3), "float64")], arg="ij,jk->ik", error="value_error")
    case("es_err_char", "einsum", [values((2, 3), "float64")], arg="i1->i", error="value_error")
    s.write()


if __name__ == "__main__":
    main()
