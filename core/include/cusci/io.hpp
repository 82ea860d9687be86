#pragma once
/// @file io.hpp
/// NumPy `.npy` files (format versions 1.0, 2.0 and 3.0 on read; 1.0, or 2.0 for long headers, on
/// write) for every cusci dtype, C and Fortran order, little-endian.

#include <string>

#include "cusci/ndarray.hpp"

namespace cusci::io {

/// Reads a `.npy` file into host memory (C order; a Fortran-order file is transposed on read).
/// @throws cusci::value_error for a malformed file (naming the path and what is wrong);
///         cusci::type_error for an unsupported dtype (object, big-endian, structured);
///         cusci::error when the file cannot be opened.
host_array read_npy(const std::string& path);

/// Writes a host array as `.npy` (`fortran_order` stores it column-major with the flag set).
/// @throws cusci::error when the file cannot be written.
void write_npy(const std::string& path, const host_array& a, bool fortran_order = false);

}  // namespace cusci::io

namespace cusci {
/// `cupy.load` for `.npy`: reads the file and copies it to the current device.
ndarray load(const std::string& path);
/// `cupy.save`: copies `a` to the host (synchronizes) and writes it; an F-contiguous (and not
/// C-contiguous) array is written in Fortran order, as `np.save` does.
void save(const std::string& path, const ndarray& a);
}  // namespace cusci
