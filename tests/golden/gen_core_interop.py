"""Reference data for cusci's interop family (.npz archives), written by NumPy and Python's zipfile.
Seeded; run at build time (tests/golden/CMakeLists.txt) into <out>/core_interop/.

Auxiliary files (Suite.file): .npz archives made by np.savez / np.savez_compressed and hand-made
variants (data descriptors, reordered central directory, prepended bytes, bzip2/LZMA members, corrupt
archives). Arrays: what each archive holds (set_*, pos_*, small_*), the arrays of the listings (lst_*)
and the decompressed bytes of each member of NumPy-written archives of them (listing_<method>_<i>, uint8).
Cases:
  func load_npz, no error: file, members (names in order), expected (array names, one per member),
      shapes (of the expected arrays)
  func load_npz, error value_error / type_error: file, message (a text the message holds, or None)
  func savez: compressed, method (ZIP method of every member), members (member names in order),
      sources (array names, one per member) with their shapes, listing (array names of the members' bytes)
Every case has a note. A 0-d array's shape is given as [] in shapes.
"""
import io
import os
import struct
import zipfile

import numpy as np

from golden import Suite

s = Suite("core_interop")
s.group("arrays")
rng = s.rng(20260517)


def arrays_set():
    """Several dtypes, an empty array, a 0-d array and a Fortran-order array."""
    return {
        "f64": rng.standard_normal((3, 4)),
        "f32": rng.standard_normal(7).astype(np.float32),
        "i8": rng.integers(-128, 127, size=5, dtype=np.int8),
        "i16": rng.integers(-30000, 30000, size=(2, 3), dtype=np.int16),
        "i32": rng.integers(-2**31, 2**31 - 1, size=6, dtype=np.int32),
        "i64": rng.integers(-2**62, 2**62, size=(2, 2), dtype=np.int64),
        "u8": rng.integers(0, 255, size=9, dtype=np.uint8),
        "u16": rng.integers(0, 65535, size=4, dtype=np.uint16),
        "u32": rng.integers(0, 2**32 - 1, size=3, dtype=np.uint32),
        "u64": rng.integers(0, 2**63, size=3, dtype=np.uint64),
        "b": rng.integers(0, 2, size=(2, 5)).astype(bool),
        "c64": (rng.standard_normal(4) + 1j * rng.standard_normal(4)).astype(np.complex64),
        "c128": rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)),
        "empty": np.zeros((0, 3), np.float32),
        "scalar": np.array(42, dtype=np.int64),
        "fortran": np.asfortranarray(rng.standard_normal((4, 3))),
        "fortran3d": np.asfortranarray(rng.integers(0, 100, size=(2, 3, 4)).astype(np.int32)),
    }


def save_expected(prefix, arrays):
    """Stores each array as <prefix>_<key>; returns the names and shapes."""
    return [s.array(f"{prefix}_{k}", v) for k, v in arrays.items()], [list(v.shape) for v in arrays.values()]


def read_case(case, file, members, expected, note):
    names, shapes = expected
    s.case(case, func="load_npz", file=file, members=list(members), expected=names, shapes=shapes, note=note)


def error_case(case, file, error, note, message=None):
    s.case(case, func="load_npz", error=error, file=file, message=message, note=note)


def reorder_central_directory(data):
    """The same archive with its central directory entries in reverse order."""
    eocd = data.rfind(b"PK\x05\x06")
    n, cd_size, cd_off = struct.unpack("<HII", data[eocd + 10:eocd + 20])
    cd = data[cd_off:cd_off + cd_size]
    entries, p = [], 0
    for _ in range(n):
        nlen, elen, clen = struct.unpack("<HHH", cd[p + 28:p + 34])
        size = 46 + nlen + elen + clen
        entries.append(cd[p:p + size])
        p += size
    return data[:cd_off] + b"".join(reversed(entries)) + data[cd_off + cd_size:]


class Unseekable(io.RawIOBase):
    """A write-only stream without seek: zipfile then writes data descriptors (flag bit 3)."""

    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)

    def seekable(self):
        return False

    def seek(self, *a):
        raise OSError("unseekable")

    def tell(self):
        raise OSError("unseekable")


def npy_bytes(a):
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


# 1. NumPy-written archives, stored and compressed, with the arrays they hold.
arrs = arrays_set()
set_arrays = save_expected("set", arrs)
np.savez(s.file("numpy_stored.npz"), **arrs)
read_case("numpy_stored", "numpy_stored.npz", arrs, set_arrays, note="np.savez")
np.savez_compressed(s.file("numpy_compressed.npz"), **arrs)
read_case("numpy_compressed", "numpy_compressed.npz", arrs, set_arrays, note="np.savez_compressed")

# Positional names arr_0, arr_1.
pos = {f"arr_{i}": a for i, a in enumerate([rng.standard_normal(3), np.arange(4, dtype=np.int32)])}
pos_arrays = save_expected("pos", pos)
np.savez(s.file("numpy_positional.npz"), *pos.values())
read_case("numpy_positional", "numpy_positional.npz", pos, pos_arrays, note="np.savez(f, *arrays)")

# 2. Variants: data descriptors, reversed central directory, prepended bytes.
small = {"x": rng.standard_normal((2, 3)), "flag": np.array([True, False, True]), "n": np.arange(5, dtype=np.uint16)}
small_arrays = save_expected("small", small)
for method, tag in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")):
    u = Unseekable()
    with zipfile.ZipFile(u, "w", compression=method) as z:
        for k, v in small.items():
            with z.open(k + ".npy", "w") as m:
                m.write(npy_bytes(v))
    data = bytes(u.buf)
    assert struct.unpack("<H", data[6:8])[0] & 8, "expected a data descriptor"
    with open(s.file(f"descriptor_{tag}.npz"), "wb") as f:
        f.write(data)
    read_case(f"descriptor_{tag}", f"descriptor_{tag}.npz", small, small_arrays, note="data descriptors (flag bit 3)")
buf = io.BytesIO()
np.savez_compressed(buf, **small)
rev = reorder_central_directory(buf.getvalue())
with open(s.file("reordered.npz"), "wb") as f:
    f.write(rev)
read_case("reordered", "reordered.npz", reversed(list(small)),
          ([f"small_{k}" for k in reversed(list(small))], [list(small[k].shape) for k in reversed(list(small))]),
          note="central directory in the reverse order of the local headers")
with open(s.file("prefixed.npz"), "wb") as f:
    f.write(b"#!stub prepended to the archive\n" * 3 + buf.getvalue())
read_case("prefixed", "prefixed.npz", small, small_arrays, note="bytes before the archive (as zipfile reads)")

# 3. Unsupported methods and malformed archives.
for method, tag, message in ((zipfile.ZIP_BZIP2, "bzip2", "12 (bzip2)"), (zipfile.ZIP_LZMA, "lzma", "14 (LZMA)")):
    with zipfile.ZipFile(s.file(f"method_{tag}.npz"), "w", compression=method) as z:
        z.writestr("a.npy", npy_bytes(np.arange(3.0)))
    error_case(f"method_{tag}", f"method_{tag}.npz", "value_error", note=f"{tag} member", message=message)
good = buf.getvalue()
with open(s.file("truncated.npz"), "wb") as f:
    f.write(good[: len(good) // 2])
error_case("truncated", "truncated.npz", "value_error", note="cut in half")
sbuf = io.BytesIO()
np.savez(sbuf, x=np.arange(16.0))
bad = bytearray(sbuf.getvalue())
pos_data = bad.find(b"\x93NUMPY") + 200  # inside the element bytes of the stored member
bad[pos_data] ^= 0xFF
with open(s.file("badcrc.npz"), "wb") as f:
    f.write(bytes(bad))
error_case("badcrc", "badcrc.npz", "value_error", note="one data byte flipped", message="CRC-32")
with open(s.file("notzip.npz"), "wb") as f:
    f.write(rng.integers(0, 256, size=300, dtype=np.uint8).tobytes())
error_case("notzip", "notzip.npz", "value_error", note="random bytes")
with zipfile.ZipFile(s.file("textmember.npz"), "w") as z:
    z.writestr("a.npy", npy_bytes(np.arange(3.0)))
    z.writestr("readme.txt", "not an array")
error_case("textmember", "textmember.npz", "value_error", note="member that is not .npy", message="readme.txt")
with zipfile.ZipFile(s.file("bigendian.npz"), "w") as z:
    z.writestr("a.npy", npy_bytes(np.arange(3.0).astype(">f8")))
error_case("bigendian", "bigendian.npz", "type_error", note="big-endian member")

# 4. Listings of NumPy-written archives (C-order arrays) for comparing the archives cusci writes:
#    member names in order and the decompressed bytes of each member.
lst = {
    "a": rng.standard_normal((3, 5)),
    "mask": rng.integers(0, 2, size=7).astype(bool),
    "z": (rng.standard_normal(3) + 1j * rng.standard_normal(3)).astype(np.complex64),
    "empty": np.zeros((0,), np.int16),
    "s": np.array(2.5, np.float32),
    "u": rng.integers(0, 2**32 - 1, size=(2, 2, 2), dtype=np.uint32),
    "wide": np.arange(123456, dtype=np.int64).reshape(1, 123456)[:, ::1000].copy(),
}
lst_names, lst_shapes = save_expected("lst", lst)
for compressed in (False, True):
    tag = "compressed" if compressed else "stored"
    path = s.file(f"listing_src_{tag}.npz")
    (np.savez_compressed if compressed else np.savez)(path, **lst)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        listing = [s.array(f"listing_{tag}_{i}", np.frombuffer(z.read(n), np.uint8)) for i, n in enumerate(names)]
        meth = sorted({zi.compress_type for zi in z.infolist()})
    os.remove(path)
    assert len(meth) == 1
    s.case(f"listing_{tag}", func="savez", compressed=compressed, method=meth[0], members=names, sources=lst_names,
           shapes=lst_shapes, listing=listing, note=f"methods {meth}")

s.write()
