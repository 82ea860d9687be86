"""Golden data for cusci's elementwise family (ufuncs), its dtype list with float16 and NumPy 2's
promotion. Deterministic: every random input comes from a seeded generator.

Run: /opt/goldenv/bin/python tests/golden/gen_core_elementwise.py  (NumPy 2.5, see requirements.txt)
Writes tests/golden/data/core_elementwise/*.npy and MANIFEST.tsv (columns: case, rtol, atol, op, ...).
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "core_elementwise")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
IDX = {np.dtype(d): i for i, d in enumerate(DTYPES)}
rows = []


def save(name, arr, rtol=0, atol=0, **extra):
    arr = np.asarray(arr)
    np.save(os.path.join(OUT, name + ".npy"), arr)
    r = {"case": name, "rtol": repr(rtol), "atol": repr(atol)}
    r.update({k: str(v) for k, v in extra.items()})
    rows.append(r)


def dtype_tables():
    n = len(DTYPES)
    table = np.zeros((n, n), dtype=np.int32)
    for i, a in enumerate(DTYPES):
        for j, b in enumerate(DTYPES):
            table[i, j] = IDX[np.promote_types(a, b)]
    save("promote_types", table, op="table")
    scalars = [True, 1, 1.0, 1j]
    weak = np.zeros((n, len(scalars)), dtype=np.int32)
    for i, a in enumerate(DTYPES):
        for j, s in enumerate(scalars):
            weak[i, j] = IDX[np.result_type(np.zeros(1, a), s)]
    save("weak_scalar", weak, op="table")
    # float16 rounding: float64 values near float16's limits, ties, subnormals, inf/nan, and their
    # float16 roundings (stored as float16 and as bits).
    rng = np.random.default_rng(16)
    vals = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -65520.0, 1e6, -1e6, np.inf, -np.inf, np.nan,
            2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 3 * 2.0 ** -25, 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25,
            1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -40, 0.1, 1 / 3, 2049.0, 2051.0,
            6.1e-5, 5.96e-8, 1e-9, -1e-9]
    vals = np.array(vals + list(rng.standard_normal(40) * 10.0 ** rng.integers(-8, 6, 40)), dtype=np.float64)
    save("f16_from_f64_in", vals, op="table")
    save("f16_from_f64_out", vals.astype(np.float16).view(np.uint16), op="table")
    f32 = vals.astype(np.float32)
    save("f16_from_f32_in", f32, op="table")
    save("f16_from_f32_out", f32.astype(np.float16).view(np.uint16), op="table")
    allbits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    save("f16_all_as_f32", allbits.view(np.float16).astype(np.float32), op="table")
    save("f16_arange6", np.arange(6, dtype=np.float16), op="table")



if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".npy"):
            os.remove(os.path.join(OUT, f))
    dtype_tables()
    cols = ["case", "rtol", "atol"]
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(r.get(c, "") for c in cols) + "\n")
