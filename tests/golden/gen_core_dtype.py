"""Golden tables for cusci's dtype promotion: np.promote_types for every pair of the dtype list, and
NumPy 2's (NEP 50) result dtype of array-with-Python-scalar operations. Deterministic (no randomness).

Run: python tests/golden/gen_core_dtype.py  (SciPy 1.18.1 / NumPy 2.5, see requirements.txt)
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "data", "core_dtype")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
idx = {np.dtype(d): i for i, d in enumerate(DTYPES)}

os.makedirs(OUT, exist_ok=True)
table = np.zeros((len(DTYPES), len(DTYPES)), dtype=np.int32)
for i, a in enumerate(DTYPES):
    for j, b in enumerate(DTYPES):
        table[i, j] = idx[np.promote_types(a, b)]
np.save(os.path.join(OUT, "promote_types.npy"), table)

# Columns: Python bool, int, float, complex scalars added to a 1-element array of each dtype.
scalars = [True, 1, 1.0, 1j]
weak = np.zeros((len(DTYPES), len(scalars)), dtype=np.int32)
for i, a in enumerate(DTYPES):
    for j, s in enumerate(scalars):
        weak[i, j] = idx[np.result_type(np.zeros(1, a), s)]
np.save(os.path.join(OUT, "weak_scalar.npy"), weak)

with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
    f.write("case\trtol\tatol\tdescription\n")
    f.write("promote_types\t0\t0\tindex of np.promote_types(DTYPES[i], DTYPES[j])\n")
    f.write("weak_scalar\t0\t0\tindex of result_type(array of DTYPES[i], [True, 1, 1.0, 1j][j])\n")
