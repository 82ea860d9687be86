"""Golden files for cusci's interop family (.npz archives), written by NumPy and Python's zipfile.

Run with the golden environment: /opt/goldenv/bin/python tests/golden/gen_core_interop.py
Writes tests/golden/data/core_interop/: .npz archives made by np.savez / np.savez_compressed (and
hand-made variants: data descriptors, reordered central directory, prepended bytes, ZIP64 local
headers, bzip2/LZMA members, corrupt archives), the arrays each holds as .npy files (read by cusci's
independent .npy reader), member listings of NumPy-written archives (names and decompressed bytes) to
check the archives cusci writes, and MANIFEST.tsv.
"""
import io
import os
import struct
import zipfile

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "core_interop")
rng = np.random.default_rng(20260517)
rows = []


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
    for k, v in arrays.items():
        np.save(os.path.join(OUT, f"{prefix}_{k}.npy"), v.copy(order="C"))  # ascontiguousarray would make 0-d 1-d


def add(case, kind, file, members="", expect="", note=""):
    rows.append((case, "0", "0", kind, file, members, expect, note))


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


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))

    # 1. NumPy-written archives, stored and compressed, with the arrays as .npy files.
    arrs = arrays_set()
    save_expected("set", arrs)
    keys = ",".join(arrs)
    np.savez(os.path.join(OUT, "numpy_stored.npz"), **arrs)
    add("numpy_stored", "read", "numpy_stored.npz", keys, note="np.savez")
    np.savez_compressed(os.path.join(OUT, "numpy_compressed.npz"), **arrs)
    add("numpy_compressed", "read", "numpy_compressed.npz", keys, note="np.savez_compressed")

    # Positional names arr_0, arr_1.
    pos = [rng.standard_normal(3), np.arange(4, dtype=np.int32)]
    for i, a in enumerate(pos):
        np.save(os.path.join(OUT, f"pos_arr_{i}.npy"), a)
    np.savez(os.path.join(OUT, "numpy_positional.npz"), *pos)
    add("numpy_positional", "read", "numpy_positional.npz", "arr_0,arr_1", note="np.savez(f, *arrays)")

    # 2. Variants: data descriptors, reversed central directory, prepended bytes.
    small = {"x": rng.standard_normal((2, 3)), "flag": np.array([True, False, True]), "n": np.arange(5, dtype=np.uint16)}
    save_expected("small", small)
    skeys = ",".join(small)
    for method, tag in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")):
        u = Unseekable()
        with zipfile.ZipFile(u, "w", compression=method) as z:
            for k, v in small.items():
                with z.open(k + ".npy", "w") as m:
                    m.write(npy_bytes(v))
        data = bytes(u.buf)
        assert struct.unpack("<H", data[6:8])[0] & 8, "expected a data descriptor"
        with open(os.path.join(OUT, f"descriptor_{tag}.npz"), "wb") as f:
            f.write(data)
        add(f"descriptor_{tag}", "read", f"descriptor_{tag}.npz", skeys, note="data descriptors (flag bit 3)")
    buf = io.BytesIO()
    np.savez_compressed(buf, **small)
    rev = reorder_central_directory(buf.getvalue())
    with open(os.path.join(OUT, "reordered.npz"), "wb") as f:
        f.write(rev)
    add("reordered", "read", "reordered.npz", ",".join(reversed(list(small))),
        note="central directory in the reverse order of the local headers")
    with open(os.path.join(OUT, "prefixed.npz"), "wb") as f:
        f.write(b"#!stub prepended to the archive\n" * 3 + buf.getvalue())
    add("prefixed", "read", "prefixed.npz", skeys, note="bytes before the archive (as zipfile reads)")

    # 3. Unsupported methods and malformed archives.
    for method, tag in ((zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "lzma")):
        with zipfile.ZipFile(os.path.join(OUT, f"method_{tag}.npz"), "w", compression=method) as z:
            z.writestr("a.npy", npy_bytes(np.arange(3.0)))
        add(f"method_{tag}", "error", f"method_{tag}.npz", expect="value_error", note=f"{tag} member")
    good = buf.getvalue()
    with open(os.path.join(OUT, "truncated.npz"), "wb") as f:
        f.write(good[: len(good) // 2])
    add("truncated", "error", "truncated.npz", expect="value_error", note="cut in half")
    sbuf = io.BytesIO()
    np.savez(sbuf, x=np.arange(16.0))
    bad = bytearray(sbuf.getvalue())
    pos_data = bad.find(b"\x93NUMPY") + 200  # inside the element bytes of the stored member
    bad[pos_data] ^= 0xFF
    with open(os.path.join(OUT, "badcrc.npz"), "wb") as f:
        f.write(bytes(bad))
    add("badcrc", "error", "badcrc.npz", expect="value_error", note="one data byte flipped")
    with open(os.path.join(OUT, "notzip.npz"), "wb") as f:
        f.write(rng.integers(0, 256, size=300, dtype=np.uint8).tobytes())
    add("notzip", "error", "notzip.npz", expect="value_error", note="random bytes")
    with zipfile.ZipFile(os.path.join(OUT, "textmember.npz"), "w") as z:
        z.writestr("a.npy", npy_bytes(np.arange(3.0)))
        z.writestr("readme.txt", "not an array")
    add("textmember", "error", "textmember.npz", expect="value_error", note="member that is not .npy")
    with zipfile.ZipFile(os.path.join(OUT, "bigendian.npz"), "w") as z:
        z.writestr("a.npy", npy_bytes(np.arange(3.0).astype(">f8")))
    add("bigendian", "error", "bigendian.npz", expect="type_error", note="big-endian member")

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
    save_expected("lst", lst)
    for compressed in (False, True):
        tag = "compressed" if compressed else "stored"
        path = os.path.join(OUT, f"listing_src_{tag}.npz")
        (np.savez_compressed if compressed else np.savez)(path, **lst)
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            for i, n in enumerate(names):
                np.save(os.path.join(OUT, f"listing_{tag}_{i}.npy"), np.frombuffer(z.read(n), np.uint8))
            meth = {zi.compress_type for zi in z.infolist()}
        os.remove(path)
        add(f"listing_{tag}", "listing", "", ",".join(names), note=f"methods {sorted(meth)}")

    with open(os.path.join(OUT, "MANIFEST.tsv"), "w") as f:
        f.write("case\trtol\tatol\tkind\tfile\tmembers\texpect\tnote\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
