#!/usr/bin/env python3
"""Writes the seed corpus of cusci's fuzz targets (tests/fuzz): small valid files of each reader's format,
made with NumPy, into <out>/{npy,npz,mmread,npz_sparse}/. Needs only NumPy (the sparse .npz seeds are
written in SciPy's layout by hand: np.savez of format/shape/data/indices/indptr, as scipy.sparse.save_npz
does). Usage: fuzz_seeds.py <out-dir>"""
import io
import os
import sys

import numpy as np


def main(out):
    dirs = {k: os.path.join(out, k) for k in ("npy", "npz", "mmread", "npz_sparse")}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(24)

    def put(kind, name, data):
        with open(os.path.join(dirs[kind], name), "wb") as f:
            f.write(data)

    def npy_bytes(a, version=None):
        b = io.BytesIO()
        if version is None:
            np.save(b, a)
        else:  # a version 2.0 / 3.0 header for the same array
            np.lib.format.write_array(b, a, version=version)
        return b.getvalue()

    arrays = {
        "f8_2x3": rng.standard_normal((2, 3)),
        "f4_5": rng.standard_normal(5).astype(np.float32),
        "i8_0d": np.array(7),
        "u1_empty": np.zeros((0, 4), np.uint8),
        "bool_3": np.array([True, False, True]),
        "c16_2x2_f": np.asfortranarray(rng.standard_normal((2, 2)) + 1j),
        "f2_3x1x2": np.arange(6, dtype=np.float16).reshape(3, 1, 2),
        "i4_f3d": np.asfortranarray(np.arange(24, dtype=np.int32).reshape(2, 3, 4)),
    }
    for k, a in arrays.items():
        put("npy", k + ".npy", npy_bytes(a))
    put("npy", "f8_v2.npy", npy_bytes(np.arange(3.0), (2, 0)))
    put("npy", "u2_v3.npy", npy_bytes(np.arange(3, dtype=np.uint16), (3, 0)))

    for compressed in (False, True):
        save = np.savez_compressed if compressed else np.savez
        tag = "deflated" if compressed else "stored"
        b = io.BytesIO()
        save(b, a=np.arange(10.0), b=np.ones((2, 2), np.int16), s=np.array(b"text"))
        put("npz", f"three_{tag}.npz", b.getvalue())
        b = io.BytesIO()
        save(b, f=np.asfortranarray(np.arange(6.0).reshape(2, 3)), u=np.array("unicode"))
        put("npz", f"fortran_{tag}.npz", b.getvalue())
    b = io.BytesIO()
    np.savez(b)
    put("npz", "empty.npz", b.getvalue())

    mtx = {
        "coord_real_general": "%%MatrixMarket matrix coordinate real general\n% c\n3 4 3\n1 1 1.5\n2 3 -2e3\n3 4 0\n",
        "coord_int_symmetric": "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 4\n2 1 -7\n3 2 9\n",
        "coord_complex_hermitian": "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 1 0\n2 1 2 -3\n",
        "coord_pattern_skew": "%%MatrixMarket matrix coordinate pattern skew-symmetric\n3 3 2\n2 1\n3 1\n",
        "coord_real_hermitian": "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 5\n",
        "array_real_general": "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n",
        "array_real_symmetric": "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n",
        "array_complex_general": "%%MatrixMarket matrix array complex general\r\n1 2\r\n1 2\r\n3 4\r\n",
        "coord_empty": "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
    }
    for k, t in mtx.items():
        put("mmread", k + ".mtx", t.encode())

    def sparse_npz(fmt, shape, compressed=True, **members):
        b = io.BytesIO()
        save = np.savez_compressed if compressed else np.savez
        save(b, format=np.array(fmt.encode()), shape=np.array(shape, np.int64), **members)
        return b.getvalue()

    put("npz_sparse", "csr.npz", sparse_npz("csr", (3, 4), data=np.array([1.0, 2, 3]),
                                            indices=np.array([0, 3, 1], np.int32),
                                            indptr=np.array([0, 2, 2, 3], np.int32)))
    put("npz_sparse", "csc_stored.npz", sparse_npz("csc", (2, 2), False, data=np.array([1.0, 2]),
                                                   indices=np.array([1, 0], np.int32),
                                                   indptr=np.array([0, 1, 2], np.int32)))
    put("npz_sparse", "coo.npz", sparse_npz("coo", (2, 3), data=np.array([5, 6], np.int64),
                                            row=np.array([0, 1], np.int32), col=np.array([2, 0], np.int32)))
    put("npz_sparse", "dia.npz", sparse_npz("dia", (3, 3), data=np.ones((2, 3), np.float32),
                                            offsets=np.array([0, 1], np.int32)))
    put("npz_sparse", "bsr.npz", sparse_npz("bsr", (4, 4), data=np.ones((1, 2, 2)),
                                            indices=np.array([1], np.int32), indptr=np.array([0, 1, 1], np.int32)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
