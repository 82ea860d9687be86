// Bad input to core's public families, table-driven (tests/common/bad_input.hpp): each call raises the
// typed exception NumPy's error maps to, names the function, and fails within a second, before any
// device work (no GPU needed): sizes that overflow or exceed the host's memory, host loops sized by an
// absurd parameter, and .npy / .npz files whose headers claim more than the file holds.

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bad_input.hpp"
#include "cusci/core.hpp"
#include "testing.hpp"

using namespace cusci;
using testing::bad_input_case;
using testing::check_bad_inputs;
using testing::fake_array;
using testing::raises;

namespace {

constexpr std::int64_t big = std::int64_t{1} << 62;

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    path = std::filesystem::temp_directory_path() / ("cusci_bad_input_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string p = (path / name).string();
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
};

void le(std::string& s, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}

/// A version 1.0 .npy preamble and header for `dict`, padded as NumPy pads it, then `data`.
std::string npy(const std::string& dict, const std::string& data = "") {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  le(out, h.size(), 2);
  return out + h + data;
}

std::string shape_of(int ndim, const std::string& each) {
  std::string s = "(";
  for (int i = 0; i < ndim; ++i) s += each + ", ";
  return s + ")";
}

/// A one-member zip archive (member "a.npy") whose records claim `usize` uncompressed and `csize`
/// compressed bytes (written as ZIP64 extra fields when they do not fit in 32 bits) around `payload`.
std::string zip1(const std::string& payload, int method, std::uint64_t csize, std::uint64_t usize) {
  const bool z64 = usize >= 0xffffffffu || csize >= 0xffffffffu;
  std::string extra;
  if (z64) {
    le(extra, 1, 2);
    le(extra, 16, 2);
    le(extra, usize, 8);
    le(extra, csize, 8);
  }
  const std::string name = "a.npy";
  std::string z;
  le(z, 0x04034b50, 4);
  le(z, z64 ? 45 : 20, 2);
  le(z, 0, 2);
  le(z, static_cast<std::uint64_t>(method), 2);
  le(z, 0, 4);  // time, date
  le(z, 0, 4);  // crc
  le(z, z64 ? 0xffffffffu : csize, 4);
  le(z, z64 ? 0xffffffffu : usize, 4);
  le(z, name.size(), 2);
  le(z, extra.size(), 2);
  z += name + extra + payload;
  const std::size_t cd = z.size();
  le(z, 0x02014b50, 4);
  le(z, z64 ? 45 : 20, 2);
  le(z, z64 ? 45 : 20, 2);
  le(z, 0, 2);
  le(z, static_cast<std::uint64_t>(method), 2);
  le(z, 0, 4);
  le(z, 0, 4);
  le(z, z64 ? 0xffffffffu : csize, 4);
  le(z, z64 ? 0xffffffffu : usize, 4);
  le(z, name.size(), 2);
  le(z, extra.size(), 2);
  le(z, 0, 2);   // comment
  le(z, 0, 2);   // disk
  le(z, 0, 2);   // internal attributes
  le(z, 0, 4);   // external attributes
  le(z, 0, 4);   // local header offset
  z += name + extra;
  const std::size_t cd_size = z.size() - cd;
  le(z, 0x06054b50, 4);
  le(z, 0, 4);
  le(z, 1, 2);
  le(z, 1, 2);
  le(z, cd_size, 4);
  le(z, cd, 4);
  le(z, 0, 2);
  return z;
}

/// `bytes` as one stored deflate block (BFINAL = 1, BTYPE = 00): valid raw deflate data.
std::string stored_deflate(const std::string& bytes) {
  std::string s(1, '\x01');
  le(s, bytes.size(), 2);
  le(s, ~bytes.size() & 0xffff, 2);
  return s + bytes;
}

}  // namespace

TEST_CASE("core: sizes, host loops and creation functions refuse bad input at once with NumPy's exception") {
  const std::int64_t tib = std::int64_t{1} << 40;
  check_bad_inputs({
      {"empty: a product beside a zero dimension overflows", raises::value_error, "array is too big",
       [] { (void)empty({big, big, 0}); }},
      {"empty: 65 dimensions", raises::value_error, "maximum supported dimension",
       [] { (void)empty(shape_t(65, 1)); }},
      {"empty: negative dimension", raises::value_error, "negative dimensions", [] { (void)empty({3, -1}); }},
      {"host_array: 8 TiB", raises::out_of_memory, "unable to allocate",
       [&] { (void)host_array(dtype::float64, {tib}); }},
      {"malloc: 2^64 - 1 bytes", raises::out_of_memory, "cusci::malloc", [] { (void)cusci::malloc(~std::size_t{0}); }},
      {"device_buffer: n * sizeof(T) wraps", raises::out_of_memory, "cusci::device_buffer",
       [] { cusci::device_buffer<double> b((std::size_t{1} << 61) + 1); }},
      {"full: 300 into int8 (NumPy 2: OverflowError)", raises::value_error, "out of bounds for int8",
       [] { (void)full({3}, scalar(300), dtype::int8); }},
      {"full: -1 into uint16 (NumPy 2: OverflowError)", raises::value_error, "cusci::full",
       [] { (void)full({3}, scalar(-1), dtype::uint16); }},
      {"full: 2^40 into int32", raises::value_error, "out of bounds for int32",
       [&] { (void)full({3}, scalar(tib), dtype::int32); }},
      {"fftfreq_host: 2^40 points", raises::out_of_memory, "unable to allocate", [&] { (void)fft::fftfreq_host(tib); }},
      {"rfftfreq_host: 2^42 points", raises::out_of_memory, "unable to allocate",
       [&] { (void)fft::rfftfreq_host(4 * tib); }},
      {"histogram: 2^40 bins (NumPy: MemoryError)", raises::out_of_memory, "cusci::histogram",
       [&] { (void)histogram(fake_array(dtype::float64, {5}), tib); }},
      {"histogram: 2^61 bins (NumPy: array is too big)", raises::value_error, "array is too big",
       [] { (void)histogram(fake_array(dtype::float64, {5}), std::int64_t{1} << 61); }},
      {"histogram: INT64_MAX bins", raises::value_error, "cusci::histogram",
       [] { (void)histogram(fake_array(dtype::float64, {5}), INT64_MAX); }},
      {"histogram: 0 bins", raises::value_error, "`bins` must be positive",
       [] { (void)histogram(fake_array(dtype::float64, {5}), 0); }},
      {"histogram: complex input", raises::type_error, "cusci::histogram",
       [] { (void)histogram(fake_array(dtype::complex128, {5}), 4); }},
      {"tril_indices(2^20, k=-2^40): NumPy's 1 TiB mask", raises::out_of_memory, "cusci::tril_indices",
       [&] { (void)tril_indices(std::int64_t{1} << 20, -tib); }},
      {"triu_indices(2^20, k=2^40)", raises::out_of_memory, "cusci::triu_indices",
       [&] { (void)triu_indices(std::int64_t{1} << 20, tib); }},
      {"tril_indices(2^40): 8 TiB of int64", raises::out_of_memory, "unable to allocate",
       [&] { (void)tril_indices(tib); }},
      {"tril_indices(2^62, m=2^62): too big", raises::value_error, "array is too big",
       [] { (void)tril_indices(big, 0, big); }},
      {"tril_indices(-1)", raises::value_error, "non-negative", [] { (void)tril_indices(-1); }},
      {"tril_indices(INT64_MAX, k=INT64_MIN)", raises::value_error, "cusci::tril_indices",
       [] { (void)tril_indices(INT64_MAX, INT64_MIN); }},
  });
}

TEST_CASE("core: shapes, axes and lengths of the array functions are checked before any device work") {
  const ndarray a = fake_array(dtype::float64, {3}), c = fake_array(dtype::complex128, {3});
  check_bad_inputs({
      {"tile: 3 * 2^62 elements", raises::value_error, "array is too big", [&] { (void)tile(a, {big}); }},
      {"repeat: -1", raises::value_error, "negative", [&] { (void)repeat(a, -1); }},
      {"reshape: 3 elements into (4,)", raises::value_error, "cannot reshape array of size 3 into shape (4,)",
       [&] { (void)a.reshape({4}); }},
      {"reshape: two unknown dimensions", raises::value_error, "can only specify one unknown dimension",
       [&] { (void)a.reshape({-1, -1}); }},
      {"broadcast_to: (3,) to (4,)", raises::value_error, "broadcast", [&] { (void)a.broadcast_to({4}); }},
      {"fft: n = 0", raises::value_error, "invalid number of data points (0)", [&] { (void)fft::fft(c, {.n = 0}); }},
      {"fft: n = -1", raises::value_error, "invalid number of data points (-1)",
       [&] { (void)fft::fft(c, {.n = -1}); }},
      {"concatenate: no arrays", raises::value_error, "need at least one array to concatenate",
       [] { (void)concatenate({}); }},
      {"concatenate: axis 2 of 1-D arrays", raises::index_error, "axis 2 is out of bounds",
       [&] { (void)concatenate({a, a}, 2); }},
      {"sum: axis 3 of a 1-D array", raises::index_error, "axis 3 is out of bounds", [&] { (void)sum(a, {3}); }},
      {"sort: axis 2 of a 1-D array", raises::index_error, "axis 2 is out of bounds", [&] { (void)sort(a, 2); }},
      {"arange: 2^62 int64 (NumPy: array is too big)", raises::value_error, "too big",
       [] { (void)arange(scalar(0), scalar(big), scalar(1)); }},
      {"arange: step 0 (NumPy: ZeroDivisionError)", raises::value_error, "cusci::arange",
       [] { (void)arange(scalar(0), scalar(10), scalar(0)); }},
      {"eye: 2^32 x 2^32 float64", raises::value_error, "array is too big",
       [] { (void)eye(std::int64_t{1} << 32); }},
      {"empty: 2^61 float64", raises::value_error, "array is too big",
       [] { (void)empty({std::int64_t{1} << 61}); }},
      {"linspace: -1 samples", raises::value_error, "must be non-negative", [] { (void)linspace(0.0, 1.0, -1); }},
  });
}

TEST_CASE("core: .npy and .npz readers refuse headers that claim more than NumPy allows or the file holds") {
  temp_dir d;
  const std::string dims70 = d.write("d70.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': " +
                                                    shape_of(70, "1") + ", }", std::string(8, '\0')));
  const std::string hidden = d.write("hidden.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                                                       std::to_string(big) + ", " + std::to_string(big) + ", 0), }"));
  const std::string hidden_f = d.write("hidden_f.npy", npy("{'descr': '<i2', 'fortran_order': True, 'shape': (" +
                                                           std::to_string(big) + ", 0, " + std::to_string(big) + "), }"));
  const std::string tera = d.write("tera.npy", npy("{'descr': '<f8', 'fortran_order': True, 'shape': (1048576, 1048576), }",
                                                   std::string(64, '\0')));
  // A 2^32 - 2 byte deflated member in a file of a few hundred bytes, and a 1 TiB one in ZIP64 records.
  const std::string member = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (536870911,), }");
  const std::string claim4g = d.write("claim4g.npz", zip1(stored_deflate(member), 8, member.size() + 5, 0xfffffffeu));
  const std::string claim1t = d.write("claim1t.npz", zip1(stored_deflate(member), 8, member.size() + 5,
                                                          std::uint64_t{1} << 40));
  const std::string stored1t = d.write("stored1t.npz", zip1(member, 0, std::uint64_t{1} << 40, std::uint64_t{1} << 40));
  const std::string m70 = npy("{'descr': '<u1', 'fortran_order': False, 'shape': " + shape_of(70, "1") + ", }", "x");
  const std::string dims70z = d.write("d70.npz", zip1(m70, 0, m70.size(), m70.size()));
  const std::string mbig = npy("{'descr': '<u1', 'fortran_order': True, 'shape': (" + std::to_string(big) + ", " +
                               std::to_string(big) + ", 0), }");
  const std::string hiddenz = d.write("hidden.npz", zip1(mbig, 0, mbig.size(), mbig.size()));
  CHECK(std::filesystem::file_size(claim4g) < 300);
  check_bad_inputs({
      {".npy with 70 dimensions (NumPy: at most 64)", raises::value_error, "maximum supported dimension",
       [&] { (void)io::read_npy(dims70); }},
      {".npy whose shape product overflows beside a zero", raises::value_error, "array is too big",
       [&] { (void)io::read_npy(hidden); }},
      {"Fortran-order .npy whose shape product overflows beside a zero", raises::value_error, "array is too big",
       [&] { (void)io::read_npy(hidden_f); }},
      {"Fortran-order .npy claiming 8 TiB", raises::value_error, "data is truncated",
       [&] { (void)io::read_npy(tera); }},
      {".npz: deflated member claiming 4 GiB in a 257-byte file", raises::value_error, "deflated bytes can hold",
       [&] { (void)io::load_npz(claim4g); }},
      {".npz: deflated member claiming 1 TiB (ZIP64)", raises::value_error, "deflated bytes can hold",
       [&] { (void)io::load_npz(claim1t); }},
      {".npz: stored member claiming 1 TiB (ZIP64)", raises::value_error, "runs past the end",
       [&] { (void)io::load_npz(stored1t); }},
      {".npz member with 70 dimensions", raises::value_error, "maximum supported dimension",
       [&] { (void)io::load_npz(dims70z); }},
      {".npz Fortran-order member whose shape overflows beside a zero", raises::value_error, "array is too big",
       [&] { (void)io::load_npz(hiddenz); }},
  });
}
