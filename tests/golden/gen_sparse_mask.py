#!/usr/bin/env python
"""References for cusci::sparse's 2-D boolean-mask indexing and its SparseEfficiencyWarnings, from SciPy 1.18.

Run at build time (tests/golden/CMakeLists.txt; format: golden.py). Writes, under <out>/sparse_mask/:
  - func "mask_get" cases: `A[mask]` for csr_matrix / csc_matrix A (arrays <case>__data, __indices,
    __indptr exactly as SciPy holds them: canonical, or with duplicates, unsorted indices and explicit
    zeros) and a mask (dense: <case>__mask; sparse: parameter mask_fmt with <case>__mdata/__mind/__mptr
    for csr/csc/bsr, __mdata/__mrow/__mcol for coo, built from <case>__mask for dia), the result
    flattened in <case>__out and SciPy's result shape as parameter out_shape;
  - func "mask_set" cases: `A[mask] = x` (<case>__val, kind scalar or array of a given shape), the
    dense result <case>__res, SciPy's nnz afterwards and the warnings SciPy issued ([category,
    message] pairs);
  - func "mask_error" cases: calls SciPy rejects (wrong mask shape, non-bool sparse mask, values that do
    not broadcast, formats SciPy cannot index), with the exception kind and SciPy's message;
  - func "warn_compare" / "warn_maxmin" / "warn_setitem" cases: the SparseEfficiencyWarnings of
    comparisons with scalars and sparse matrices, maximum/minimum with scalars, and element/slice
    assignment.
Seeded: reruns are identical.
"""
import warnings

import numpy as np
import scipy.sparse as sp

from golden import Suite

s = Suite("sparse_mask")
rng = s.rng(20261203)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


def rand_dense(m, n, dt, density=0.4):
    mask = rng.random((m, n)) < density
    if dt == "bool":
        v = np.ones((m, n), dtype=bool)
    elif np.dtype(dt).kind in "iu":
        v = rng.integers(1, 100, size=(m, n)).astype(dt)
    elif np.dtype(dt).kind == "c":
        v = (rng.standard_normal((m, n)) + 1j * rng.standard_normal((m, n))).astype(dt)
    else:
        v = rng.standard_normal((m, n)).astype(dt)
    return np.where(mask, v, np.zeros((), dtype=dt)).astype(dt)


def compressed(D, fmt, it, messy):
    """csr/csc matrix of D with index dtype it; messy: each row (column) shuffled, the first stored
    entries duplicated (with a zero partner, so the sums equal D), one explicit zero added."""
    m, n = D.shape
    C = sp.coo_matrix(D)
    r, c, v = list(C.row), list(C.col), list(C.data)
    if messy:
        zero = np.zeros((), dtype=D.dtype)[()]
        for k in range(min(2, len(v))):
            r.append(r[k])
            c.append(c[k])
            v.append(zero)
        empty = np.argwhere(D == 0)
        if len(empty):
            i, j = empty[len(empty) // 2]
            r.append(i)
            c.append(j)
            v.append(zero)
    r = np.array(r, dtype=np.int64)
    c = np.array(c, dtype=np.int64)
    v = np.array(v, dtype=D.dtype)
    major, minor, nmaj = (r, c, m) if fmt == "csr" else (c, r, n)
    perm = rng.permutation(len(v)) if messy else np.lexsort((minor, major))
    order = perm[np.argsort(major[perm], kind="stable")]
    indptr = np.zeros(nmaj + 1, dtype=np.int64)
    np.add.at(indptr, major + 1, 1)
    indptr = np.cumsum(indptr)
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    A = cls((v[order], minor[order].astype(it), indptr.astype(it)), shape=(m, n))
    A.indices = A.indices.astype(it)
    A.indptr = A.indptr.astype(it)
    return A


def store_matrix(name, A):
    s.array(name + "__data", A.data)
    s.array(name + "__indices", A.indices)
    s.array(name + "__indptr", A.indptr)


def rand_mask(shape, kind):
    if kind == "false":
        return np.zeros(shape, dtype=bool)
    if kind == "true":
        return np.ones(shape, dtype=bool)
    return rng.random(shape) < 0.45


def sparse_mask(M, fmt, messy):
    """A bool sparse matrix whose true entries are M's; messy (csr/csc/coo): explicit False entries,
    one true position stored twice, storage order shuffled."""
    if fmt in ("dia", "bsr"):
        return sp.dia_matrix(M) if fmt == "dia" else sp.bsr_matrix(M, blocksize=(2, 2))
    C = sp.coo_matrix(M)
    r, c, v = list(C.row), list(C.col), list(C.data)
    if messy:
        falses = np.argwhere(~M)
        for i, j in falses[:2]:
            r.append(i)
            c.append(j)
            v.append(False)
        if len(v) and v[0]:
            r.append(r[0])
            c.append(c[0])
            v.append(True)
    r = np.array(r, dtype=np.int32)
    c = np.array(c, dtype=np.int32)
    v = np.array(v, dtype=bool)
    perm = rng.permutation(len(v)) if messy else np.arange(len(v))
    if fmt == "coo":
        return sp.coo_matrix((v[perm], (r[perm], c[perm])), shape=M.shape)
    major, minor, nmaj = (r, c, M.shape[0]) if fmt == "csr" else (c, r, M.shape[1])
    if not messy:
        perm = np.lexsort((minor, major))
    order = perm[np.argsort(major[perm], kind="stable")]
    indptr = np.zeros(nmaj + 1, dtype=np.int64)
    np.add.at(indptr, major + 1, 1)
    indptr = np.cumsum(indptr).astype(np.int32)
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    return cls((v[order], minor[order], indptr), shape=M.shape)


def store_mask(name, M, mfmt, SM):
    s.array(name + "__mask", M)
    if mfmt in ("csr", "csc"):
        s.array(name + "__mdata", SM.data)
        s.array(name + "__mind", SM.indices)
        s.array(name + "__mptr", SM.indptr)
    elif mfmt == "bsr":  # SciPy's block order (not sorted within a block row)
        s.array(name + "__mdata", SM.data)
        s.array(name + "__mind", SM.indices)
        s.array(name + "__mptr", SM.indptr)
    elif mfmt == "coo":
        s.array(name + "__mdata", SM.data)
        s.array(name + "__mrow", SM.row)
        s.array(name + "__mcol", SM.col)


def recorded(f):
    """Runs f, returning (result, [[category, message], ...]) of the warnings it issued."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f()
    return out, [[x.category.__name__, str(x.message)] for x in w]


def mask_get():
    s.group("get")
    no = 0
    shapes = [(6, 8), (0, 5), (4, 0), (1, 1), (7, 3)]
    for shape in shapes:
        for fmt in ["csr", "csc"]:
            for dt in DTYPES:
                for it in ["int32", "int64"]:
                    main = shape == (6, 8)
                    if not main and (dt not in ("float64", "int8", "complex64") or it != "int32"):
                        continue
                    for messy in [False, True]:
                        if not main and messy:
                            continue
                        for mkind in ["rand", "false", "true"]:
                            if mkind != "rand" and not (main and dt in ("float64", "bool") and it == "int32"):
                                if not (not main and mkind == "true"):
                                    continue
                            mfmts = ["dense"]
                            if main and it == "int32" and dt in ("float64", "complex128", "bool", "uint64"):
                                mfmts += ["csr", "csc", "coo", "dia", "bsr"]
                            for mfmt in mfmts:
                                for mmessy in ([False, True] if mfmt in ("csr", "csc", "coo") else [False]):
                                    D = rand_dense(shape[0], shape[1], dt)
                                    A = compressed(D, fmt, it, messy)
                                    M = rand_mask(shape, mkind)
                                    SM = None if mfmt == "dense" else sparse_mask(M, mfmt, mmessy)
                                    key = M if SM is None else SM
                                    r = A[key]
                                    out = r.toarray() if sp.issparse(r) else np.asarray(r)
                                    name = "get_%04d" % no
                                    no += 1
                                    store_matrix(name, A)
                                    store_mask(name, M, mfmt, SM)
                                    s.array(name + "__out", out.reshape(-1))
                                    s.case(name, func="mask_get", fmt=fmt, dtype=dt, index=it, shape=list(shape),
                                           messy=messy, mask_fmt=mfmt, mask_messy=mmessy,
                                           canonical=bool(A.has_canonical_format),
                                           out_shape=list(r.shape), out_sparse=bool(sp.issparse(r)))


VALUE_KINDS = ["scalar", "n", "1n", "n1", "1", "n11"]


def value_for(kind, n, dt):
    if dt == "bool":
        base = (np.arange(max(n, 1)) % 2 == 0)
    elif np.dtype(dt).kind in "iu":
        base = (np.arange(max(n, 1)) * 3 + 2).astype(dt)
    elif np.dtype(dt).kind == "c":
        base = (np.arange(max(n, 1)) * 0.5 + 1 - 1j * np.arange(max(n, 1))).astype(dt)
    else:
        base = (np.arange(max(n, 1)) * 0.75 - 1.5).astype(dt)
    if kind == "scalar":
        return np.asarray(base[min(1, len(base) - 1)])
    if kind == "1":
        return base[:1].copy()
    if kind == "n":
        return base[:n].copy()
    if kind == "1n":
        return base[:n].reshape(1, n).copy()
    if kind == "n1":
        return base[:n].reshape(n, 1).copy()
    return base[:n].reshape(n, 1, 1).copy()


def mask_set():
    s.group("set")
    no = 0
    for fmt in ["csr", "csc"]:
        for dt in DTYPES:
            for it in ["int32", "int64"]:
                for messy in [False, True]:
                    for mkind in ["rand", "false", "true", "stored"]:
                        for mfmt in ["dense", "csr", "coo"]:
                            for vkind in VALUE_KINDS:
                                wide = dt in ("float64", "complex128", "int32") and it == "int32"
                                if not wide and (mfmt != "dense" or vkind not in ("scalar", "n")):
                                    continue
                                if mkind in ("false", "true", "stored") and vkind not in ("scalar", "n"):
                                    continue
                                if mfmt != "dense" and (messy or vkind != "n"):
                                    continue
                                shape = (6, 8)
                                D = rand_dense(shape[0], shape[1], dt)
                                A = compressed(D, fmt, it, messy)
                                if mkind == "stored":  # only stored positions: no insertion, no warning
                                    M = D != 0
                                else:
                                    M = rand_mask(shape, mkind)
                                SM = None if mfmt == "dense" else sparse_mask(M, mfmt, mfmt == "coo")
                                key = M if SM is None else SM
                                n = int(len(key.nonzero()[0])) if SM is not None else int(M.sum())
                                x = value_for(vkind, n, dt)
                                B = A.copy()

                                def assign():
                                    B[key] = x

                                _, w = recorded(assign)
                                name = "set_%04d" % no
                                no += 1
                                store_matrix(name, A)
                                store_mask(name, M, mfmt, SM)
                                s.array(name + "__val", x)
                                s.array(name + "__res", B.toarray())
                                s.case(name, func="mask_set", fmt=fmt, dtype=dt, index=it, shape=list(shape),
                                       messy=messy, mask_fmt=mfmt, mask_messy=mfmt == "coo", value_kind=vkind,
                                       canonical=bool(A.has_canonical_format), nnz=int(B.nnz), warnings=w)
    # The last value wins for a position stored twice in a sparse mask.
    D = rand_dense(4, 5, "float64")
    A = compressed(D, "csr", "int32", False)
    SM = sp.coo_matrix((np.array([True, True, True]), (np.array([1, 0, 1]), np.array([2, 0, 2]))), shape=(4, 5))
    x = np.array([5.0, 6.0, 7.0])
    B = A.copy()
    _, w = recorded(lambda: B.__setitem__(SM, x))
    name = "set_dup"
    store_matrix(name, A)
    store_mask(name, SM.toarray(), "coo", SM)
    s.array(name + "__val", x)
    s.array(name + "__res", B.toarray())
    s.case(name, func="mask_set", fmt="csr", dtype="float64", index="int32", shape=[4, 5], messy=False,
           mask_fmt="coo", mask_messy=True, value_kind="n", canonical=True, nnz=int(B.nnz), warnings=w)


def expect_error(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the kind is what is recorded
        return type(e).__name__, str(e)
    raise AssertionError("SciPy accepted the call")


KIND = {"IndexError": "index_error", "ValueError": "value_error", "TypeError": "type_error",
        "NotImplementedError": "not_implemented_error"}


def mask_error():
    s.group("error")
    D = rand_dense(3, 4, "float64")
    M = rand_mask((3, 4), "rand")
    s.array("err__a", D)
    no = 0

    def case(op, fmt, mask, mask_fmt="dense", value=None, check_message=True):
        nonlocal no
        A = sp.csr_matrix(D).asformat(fmt) if fmt != "bsr" else sp.csr_matrix(D).tobsr(blocksize=(1, 2))
        key = mask if mask_fmt == "dense" else sp.csr_matrix(mask)
        if op == "get":
            kind, msg = expect_error(lambda: A[key])
        else:
            def assign():
                A[key] = value
            kind, msg = expect_error(assign)
        name = "err_%03d" % no
        no += 1
        s.array(name + "__mask", np.asarray(mask))
        if value is not None:
            s.array(name + "__val", np.asarray(value, dtype=np.float64))
        s.case(name, func="mask_error", error=KIND[kind], op=op, fmt=fmt, mask_fmt=mask_fmt,
               message=msg if check_message else None)

    for op in ["get", "set"]:
        val = 1.0 if op == "set" else None
        for fmt in ["csr", "csc"]:
            case(op, fmt, np.zeros((3, 3), dtype=bool), value=val)
            case(op, fmt, np.zeros((4, 4), dtype=bool), value=val)
            case(op, fmt, np.ones((2, 6), dtype=bool), value=val)
            case(op, fmt, np.zeros((3, 5), dtype=bool), mask_fmt="csr", value=val)
            case(op, fmt, M.astype(np.float64), mask_fmt="csr", value=val)
            case(op, fmt, np.zeros((3, 4, 1), dtype=bool), value=val, check_message=False)
        # cusci names every rejected format "not subscriptable" (SciPy's assignment messages differ)
        case(op, "coo", M, value=val, check_message=op == "get")
        case(op, "dia", M, value=val, check_message=op == "get")
        case(op, "bsr", M, value=val)
    for fmt in ["csr", "csc"]:
        n = int(M.sum())
        for bad in [np.ones(n + 1), np.ones((1, 1)), np.ones((2, n)), np.ones(2)]:
            case("set", fmt, M, value=bad, check_message=False)
        case("set", fmt, np.zeros((3, 4), dtype=bool), value=np.ones(3), check_message=False)


SCALARS = [("int", 0), ("int", -1), ("int", 3), ("float", 0.0), ("float", -0.0), ("float", 2.5), ("float", 1e-5),
           ("float", 1e16), ("float", float("nan")), ("float", float("inf")), ("complex", 0j), ("complex", 1 + 2j),
           ("complex", -2.5 + 0j), ("bool", True), ("bool", False), ("float32", 0.1), ("int8", 0), ("uint64", 3)]
OPS = ["eq", "ne", "lt", "le", "gt", "ge"]


def py_scalar(kind, v):
    if kind in ("int", "float", "complex", "bool"):
        return {"int": int, "float": float, "complex": complex, "bool": bool}[kind](v)
    return np.dtype(kind).type(v)


def warn_cases():
    s.group("warn")
    import operator
    D = rand_dense(4, 5, "float64")
    s.array("warn__a", D)
    no = 0
    for fmt in ["csr", "csc"]:
        A = sp.csr_matrix(D).asformat(fmt)
        for kind, v in SCALARS:
            for op in OPS:
                x = py_scalar(kind, v)
                if kind == "complex" and op not in ("eq", "ne"):
                    continue  # Python cannot order complex numbers
                _, w = recorded(lambda: getattr(operator, op)(A, x))
                s.case("wc_%03d" % no, func="warn_compare", fmt=fmt, op=op, kind=kind,
                       value=[x.real, x.imag] if kind == "complex" else (bool(x) if kind == "bool" else
                                                                          float(x) if kind in ("float", "float32")
                                                                          else int(x)),
                       warnings=w)
                no += 1
        for op in OPS:
            _, w = recorded(lambda: getattr(operator, op)(A, A))
            s.case("wc_%03d" % no, func="warn_compare", fmt=fmt, op=op, kind="sparse", value=None, warnings=w)
            no += 1
        for f in ["maximum", "minimum"]:
            for kind, v in [("int", 1), ("int", -1), ("int", 0), ("float", float("nan")), ("float", 0.5),
                            ("float", -0.5)]:
                x = py_scalar(kind, v)
                _, w = recorded(lambda: getattr(A, f)(x))
                s.case("wm_%03d" % no, func="warn_maxmin", fmt=fmt, op=f, kind=kind, value=float(x), warnings=w)
                no += 1
        # element and slice assignment: existing entries only, then a new one
        nz = np.argwhere(D != 0)[0]
        z = np.argwhere(D == 0)[0]
        for what, i, j in [("existing", int(nz[0]), int(nz[1])), ("new", int(z[0]), int(z[1]))]:
            B = A.copy()
            _, w = recorded(lambda: B.__setitem__((i, j), 7.0))
            s.case("ws_%03d" % no, func="warn_setitem", fmt=fmt, what=what, i=i, j=j, warnings=w)
            no += 1
        B = A.copy()
        _, w = recorded(lambda: B.__setitem__((slice(1, 3), slice(None)), 2.0))
        s.case("ws_%03d" % no, func="warn_setitem", fmt=fmt, what="slice", i=None, j=None, warnings=w)
        no += 1


mask_get()
mask_set()
mask_error()
warn_cases()
s.write()
