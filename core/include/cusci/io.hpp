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
/// @throws cusci::value_error for a malformed file (naming the path and what is wrong), a shape of
///         more than 64 dimensions or whose size overflows ("array is too big", as NumPy), data
///         shorter than the shape needs (checked before anything is allocated);
///         cusci::type_error for an unsupported dtype (object, string, big-endian, structured);
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

// String members: cusci has no string dtype, but files such as SciPy's sparse `.npz` (whose `format`
// member is `np.array(b'csr')`, dtype `|S3`) hold a single string. `load_npz` therefore also reads
// members of NumPy's bytes (`|S<n>`, `S<n>`) or unicode (`<U<n>`, `|U<n>`) dtype that hold exactly
// one element (0-d or any shape of size 1), decoded to a `std::string`: bytes as they are, without
// the trailing NULs NumPy strips; unicode (UTF-32LE code points) encoded as UTF-8. They are reached
// through `npz_file::member_string`, never as arrays. String members of more than one element, and
// big-endian unicode, remain unsupported (type_error).

/// The members of an `.npz` archive, keyed by member name without the `.npy` suffix: the arrays (in
/// archive order) and the single-element string members (see above). NumPy: `np.lib.npyio.NpzFile`
/// (eagerly read, no lazy loading).
class npz_file {
 public:
  using entry = std::pair<std::string, host_array>;
  using string_entry = std::pair<std::string, std::string>;
  npz_file() = default;
  explicit npz_file(std::vector<entry> entries) : entries_(std::move(entries)) {}
  /// Arrays and string members; `order` lists every key in archive order (empty: arrays, then strings).
  npz_file(std::vector<entry> entries, std::vector<string_entry> strings, std::vector<std::string> order = {})
      : entries_(std::move(entries)), strings_(std::move(strings)), order_(std::move(order)) {}
  /// Every key (arrays and string members) in archive order. NumPy: `NpzFile.files`.
  std::vector<std::string> files() const;
  /// The array stored under `key`. @throws cusci::index_error (Python's KeyError) naming the key;
  /// cusci::type_error when `key` is a string member (use `member_string`). NumPy: `NpzFile[key]`.
  const host_array& operator[](const std::string& key) const;
  /// The decoded string of the single-element `|S` / `<U` member `key` (UTF-8 for unicode).
  /// @throws cusci::index_error naming the key when it is not in the archive; cusci::type_error when
  ///         `key` is an array member. NumPy: `NpzFile[key].item()` (bytes or str).
  const std::string& member_string(const std::string& key) const;
  /// True when `key` (array or string member) is in the archive. NumPy: `key in npz`.
  bool contains(const std::string& key) const noexcept;
  /// True when `key` is a string member.
  bool is_string(const std::string& key) const noexcept;
  /// Number of array members (string members are not counted; see `strings()`).
  std::size_t size() const noexcept { return entries_.size(); }
  /// The array members, in archive order (iteration visits these only).
  const std::vector<entry>& entries() const noexcept { return entries_; }
  /// The string members, in archive order.
  const std::vector<string_entry>& strings() const noexcept { return strings_; }
  auto begin() const noexcept { return entries_.begin(); }
  auto end() const noexcept { return entries_.end(); }

 private:
  std::vector<entry> entries_;
  std::vector<string_entry> strings_;
  std::vector<std::string> order_;
};

/// One member for `savez(path, std::vector<npz_member>)`: an array, or a byte string written as the
/// 0-d `|S<n>` array `np.array(b'...')` is (n = its length, at least 1 as NumPy's `|S0` becomes
/// `|S1`). Build with `npz_member::array(key, a)` / `npz_member::bytes(key, s)`.
class npz_member {
 public:
  static npz_member array(std::string key, host_array a) {
    npz_member m;
    m.key_ = std::move(key);
    m.array_ = std::move(a);
    return m;
  }
  static npz_member bytes(std::string key, std::string s) {
    npz_member m;
    m.key_ = std::move(key);
    m.bytes_ = std::move(s);
    m.is_bytes_ = true;
    return m;
  }
  const std::string& key() const noexcept { return key_; }
  bool is_bytes() const noexcept { return is_bytes_; }
  const host_array& array_value() const noexcept { return array_; }
  const std::string& bytes_value() const noexcept { return bytes_; }

 private:
  npz_member() = default;
  std::string key_;
  host_array array_;
  std::string bytes_;
  bool is_bytes_ = false;
};

/// Reads every array of an `.npz` archive into host memory (C order; Fortran-order members are
/// transposed on read, bool bytes normalized to 0/1, as `read_npy`). Host only.
/// @param path  archive written by `np.savez` / `np.savez_compressed` / `savez` (any zip archive
///              whose members are `.npy` files; members named without `.npy` keep their full name).
/// @return the arrays in archive order.
/// @throws cusci::error when the file cannot be opened or read; cusci::value_error naming the file
///         (and member) for a malformed archive (no end-of-central-directory record, truncated or
///         inconsistent records, CRC-32 mismatch, a member that is not a valid .npy file, encrypted
///         members, multi-disk archives, duplicate names, a member's shape as read_npy refuses it, a
///         deflated member recording more than 1032 times its compressed size, deflate's limit:
///         checked before anything is allocated), or an unsupported compression method (only
///         stored = 0 and deflated = 8: bzip2 = 12, LZMA = 14, ... are refused); cusci::type_error
///         for a member dtype cusci lacks (string members of more than one element included);
///         cusci::out_of_memory (NumPy's MemoryError) for a member larger than the host's memory.
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
/// Arrays and byte-string members (see `npz_member`), written in the given order. Host only.
/// @throws as above. NumPy: `np.savez(path, indices=..., format=np.array(b'csr'), ...)` as
/// `scipy.sparse.save_npz` calls it.
void savez(const std::string& path, const std::vector<npz_member>& members, bool compressed = false);
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
