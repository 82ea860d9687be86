"""Reference tables for cusci's dtype promotion: np.promote_types for every pair of the 13-dtype list,
NumPy 2's (NEP 50) result dtype of array-with-Python-scalar operations, and what np.dtype(s) makes of
dtype strings. Deterministic (no randomness). Run at build time (tests/golden/CMakeLists.txt).
"""
import numpy as np

from golden import Suite

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
idx = {np.dtype(d): i for i, d in enumerate(DTYPES)}

s = Suite("core_dtype")
table = np.zeros((len(DTYPES), len(DTYPES)), dtype=np.int32)
for i, a in enumerate(DTYPES):
    for j, b in enumerate(DTYPES):
        table[i, j] = idx[np.promote_types(a, b)]
s.case("promote_types", func="promote_types", expected=s.array("promote_types", table), dtypes=DTYPES)

# Columns: Python bool, int, float, complex scalars added to a 1-element array of each dtype.
scalars = [True, 1, 1.0, 1j]
weak = np.zeros((len(DTYPES), len(scalars)), dtype=np.int32)
for i, a in enumerate(DTYPES):
    for j, sc in enumerate(scalars):
        weak[i, j] = idx[np.result_type(np.zeros(1, a), sc)]
s.case("weak_scalar", func="promote_with_scalar", expected=s.array("weak_scalar", weak), dtypes=DTYPES)

# Dtype strings: what np.dtype(s) makes of each (its name, or None where NumPy raises TypeError).
# cusci accepts the ones naming a dtype of its list (little-endian or single-byte) and raises
# type_error for the others.
STRINGS = ["bool", "bool_", "?", "b1", "|b1", "int8", "byte", "b", "i1", ">i1", "int16", "short", "h", "i2",
           "int32", "intc", "i", "i4", "int64", "long", "l", "longlong", "q", "i8", "int", "int_", "intp", "p",
           "uint8", "ubyte", "B", "u1", "uint16", "ushort", "H", "u2", "uint32", "uintc", "I", "u4", "uint64",
           "ulong", "L", "ulonglong", "Q", "u8", "uint", "uintp", "P", "float16", "half", "e", "f2", "<f2",
           "float32", "single", "f", "f4", "<f4", "float64", "double", "float", "d", "f8", "=f8", "complex64",
           "csingle", "F", "c8", "complex128", "cdouble", "complex", "D", "c16", ">f4", ">f8", "longdouble",
           "g", "float128", "clongdouble", "G", "c32", "object", "O", "U", "S", "str", "bytes", "M8",
           "datetime64", "float_", "complex_", "float31", "int7", "", "Float32", "f4 ", "i0", "a"]
names = []
for st in STRINGS:
    try:
        names.append(np.dtype(st).name)
    except TypeError:
        names.append(None)
s.case("dtype_strings", func="dtype_from_string", strings=STRINGS, numpy=names)
s.write()
