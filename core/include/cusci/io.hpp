#pragma once
/// @file io.hpp
/// NumPy `.npy` files (format versions 1.0, 2.0 and 3.0 on read; 1.0, or 2.0 for long headers, on
/// write) for every cusci dtype, C and Fortran order, little-endian.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

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


// --- .npz archives ---------------------------------------------------------------------------
// A `.npz` file is a zip archive whose members are `.npy` files named `<key>.npy` (NumPy's
// `np.savez`, `np.savez_compressed`, `np.load`). cusci writes members stored (method 0) or deflated
// (method 8, zlib raw deflate at level 6, as Python's zipfile), with ZIP64 records for members or
// archives of 2 GiB and more (Python's zipfile limit), and reads stored and deflated members, data
// descriptors, ZIP64 and members in any order. The `.npy` members are those `np.save` writes for the
// same arrays (byte for byte), so NumPy reads cusci's archives and cusci reads NumPy's.

/// The arrays of an `.npz` archive, in archive (central directory) order, keyed by member name
/// without the `.npy` suffix. NumPy: `np.lib.npyio.NpzFile` (eagerly read, no lazy loading).
class npz_file {
 public:
  using entry = std::pair<std::string, host_array>;
  npz_file() = default;
  explicit npz_file(std::vector<entry> entries) : entries_(std::move(entries)) {}
  /// Keys in archive order. NumPy: `NpzFile.files`.
  std::vector<std::string> files() const;
  /// The array stored under `key`. @throws cusci::index_error (Python's KeyError) naming the key.
  /// NumPy: `NpzFile[key]`.
  const host_array& operator[](const std::string& key) const;
  /// True when `key` is in the archive. NumPy: `key in npz`.
  bool contains(const std::string& key) const noexcept;
  std::size_t size() const noexcept { return entries_.size(); }
  const std::vector<entry>& entries() const noexcept { return entries_; }
  auto begin() const noexcept { return entries_.begin(); }
  auto end() const noexcept { return entries_.end(); }

 private:
  std::vector<entry> entries_;
};

/// Reads every array of an `.npz` archive into host memory (C order; Fortran-order members are
/// transposed on read, bool bytes normalized to 0/1, as `read_npy`). Host only.
/// @param path  archive written by `np.savez` / `np.savez_compressed` / `savez` (any zip archive
///              whose members are `.npy` files; members named without `.npy` keep their full name).
/// @return the arrays in archive order.
/// @throws cusci::error when the file cannot be opened or read; cusci::value_error naming the file
///         (and member) for a malformed archive (no end-of-central-directory record, truncated or
///         inconsistent records, CRC-32 mismatch, a member that is not a valid .npy file, encrypted
///         members, multi-disk archives, duplicate names), or an unsupported compression method (only
///         stored = 0 and deflated = 8: bzip2 = 12, LZMA = 14, ... are refused); cusci::type_error
///         for a member dtype cusci lacks.
/// NumPy: `np.load(path)` of an `.npz` (deviations: members are read at once, not lazily; a member
/// that is not a `.npy` file is an error, NumPy returns its bytes; no pickles).
npz_file load_npz(const std::string& path);

/// Writes `arrays` as an `.npz` archive, members `<key>.npy` in the given order, stored or (with
/// `compressed`) deflated. Host only; the file is replaced.
/// @param arrays  (key, array) pairs; keys must be distinct and non-empty.
/// @throws cusci::value_error for an empty or repeated key; cusci::error when the file cannot be
///         written.
/// NumPy: `np.savez(path, **arrays)` / `np.savez_compressed` (the path is used as given: no `.npz`
/// suffix is added; member timestamps are the current local time as Python's zipfile writes them).
void savez(const std::string& path, const std::vector<std::pair<std::string, host_array>>& arrays,
           bool compressed = false);
/// The same with device arrays: each is copied to the host first (synchronizes the current stream
/// of each array's device) and written in C order. CuPy: `cupy.savez` / `cupy.savez_compressed`.
/// @throws as above and as `to_host`.
void savez(const std::string& path, const std::vector<std::pair<std::string, ndarray>>& arrays,
           bool compressed = false);
/// Positional arrays, named `arr_0`, `arr_1`, ... as NumPy names them. NumPy: `np.savez(path, *arrays)`.
void savez(const std::string& path, const std::vector<host_array>& arrays, bool compressed = false);
void savez(const std::string& path, const std::vector<ndarray>& arrays, bool compressed = false);
/// Maps, written in the map's (sorted) order. Templates so that a braced list picks the vector overloads.
template <class Cmp, class Alloc>
void savez(const std::string& path, const std::map<std::string, host_array, Cmp, Alloc>& arrays,
           bool compressed = false) {
  savez(path, std::vector<std::pair<std::string, host_array>>(arrays.begin(), arrays.end()), compressed);
}
template <class Cmp, class Alloc>
void savez(const std::string& path, const std::map<std::string, ndarray, Cmp, Alloc>& arrays,
           bool compressed = false) {
  savez(path, std::vector<std::pair<std::string, ndarray>>(arrays.begin(), arrays.end()), compressed);
}
/// `savez(path, arrays, true)`. NumPy: `np.savez_compressed`.
inline void savez_compressed(const std::string& path,
                             const std::vector<std::pair<std::string, host_array>>& arrays) {
  savez(path, arrays, true);
}
inline void savez_compressed(const std::string& path, const std::vector<std::pair<std::string, ndarray>>& arrays) {
  savez(path, arrays, true);
}

namespace detail {
/// Size (bytes) from which savez writes ZIP64 records: 2^31 - 1 by default, as Python's zipfile.
/// Lowering it makes small archives use ZIP64 (for tests); 0 restores the default. Not thread-safe
/// with concurrent savez calls.
void set_npz_zip64_limit(std::uint64_t bytes) noexcept;
}  // namespace detail

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
