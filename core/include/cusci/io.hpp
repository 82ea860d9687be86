#pragma once
/// @file io.hpp
/// NumPy `.npy` files (format versions 1.0, 2.0 and 3.0 on read; 1.0, or 2.0 for long headers, on
/// write) for every cusci dtype, C and Fortran order, little-endian.

#include <string>

#include "cusci/ndarray.hpp"

namespace cusci::io {

/// Reads a `.npy` file into host memory (C order; a Fortran-order file is transposed on read), with
/// the file's shape and dtype. Bool bytes other than 0 become 1 (any non-zero byte is True, as NumPy
/// reads it). Host only.
/// @throws cusci::value_error for a malformed file (naming the path and what is wrong);
///         cusci::type_error for an unsupported dtype (object, string, float16, big-endian, structured);
///         cusci::error when the path cannot be opened or read (missing file, directory, I/O error).
/// NumPy: `np.load(path)` for a `.npy` file (no `.npz`, no pickles, no `mmap_mode`).
host_array read_npy(const std::string& path);

/// Writes a host array as `.npy` (`fortran_order` stores it column-major with the flag set); the
/// bytes are those `np.save` writes. Host only.
/// @throws cusci::error when the file cannot be opened or written (e.g. a directory or a missing
///         parent directory).
/// NumPy: `np.save(path, a)` (the path is used as given: no `.npy` suffix is added).
void write_npy(const std::string& path, const host_array& a, bool fortran_order = false);

}  // namespace cusci::io

namespace cusci {
/// Reads a `.npy` file (as `io::read_npy`, synchronously on the host) and copies it to a new
/// C-contiguous array on the current device; the host-to-device copy is asynchronous on the current
/// stream (as `asarray`).
/// @throws as `io::read_npy`; cusci::out_of_memory; cusci::cuda_error.
/// CuPy: `cupy.load(path)` for a `.npy` file.
ndarray load(const std::string& path);
/// Copies `a` to the host (synchronizes the current stream of `a`'s device) and writes it as
/// `io::write_npy` does; an F-contiguous (and not C-contiguous) array is written in Fortran order,
/// as `np.save` does.
/// @throws as `io::write_npy` and `to_host`.
/// CuPy: `cupy.save(path, a)` (no `.npy` suffix is added).
void save(const std::string& path, const ndarray& a);
}  // namespace cusci
