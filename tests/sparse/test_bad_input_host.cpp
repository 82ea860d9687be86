// Bad input to cusci::sparse's public families, table-driven (tests/common/bad_input.hpp): each call
// raises the typed exception SciPy's error maps to, names the function and fails within a second,
// before any device work (data-less arrays from testing::fake_array): constructors, construct
// (diags, eye, random, tril), linear operators, Matrix Market and sparse .npz files.

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "bad_input.hpp"
#include "cusci/io.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

using namespace cusci;
using testing::bad_input_case;
using testing::check_bad_inputs;
using testing::fake_array;
using testing::raises;

namespace {

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    path = std::filesystem::temp_directory_path() / ("cusci_sparse_bad_input_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = file(name);
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

host_array i64(std::vector<std::int64_t> v) { return host_array::from(v); }

}  // namespace

TEST_CASE("sparse: constructors and construct functions refuse bad input before any device work") {
  const ndarray d3 = fake_array(dtype::float64, {3}), d2 = fake_array(dtype::float64, {2});
  const ndarray i1 = fake_array(dtype::int32, {1}), i0 = fake_array(dtype::int32, {0});
  const std::int64_t t40 = std::int64_t{1} << 40;
  auto never = [](const ndarray&) -> ndarray { throw std::logic_error("matvec must not be called"); };
  const std::int64_t t62 = std::int64_t{1} << 62;
  const sparse::spmatrix huge = sparse::coo_matrix::from_valid(fake_array(dtype::float64, {0}), fake_array(dtype::int64, {0}),
                                                               fake_array(dtype::int64, {0}), {t62, t62});
  check_bad_inputs({
      {"csr_matrix: empty indptr, inferred shape (SciPy: negative shape)", raises::value_error,
       "'shape' elements cannot be negative",
       [&] { sparse::csr_matrix(fake_array(dtype::float64, {1}), i1, i0); }},
      {"csc_matrix: empty indptr, inferred shape", raises::value_error, "'shape' elements cannot be negative",
       [&] { sparse::csc_matrix(fake_array(dtype::float64, {1}), i1, i0); }},
      {"bsr_matrix: empty indptr, inferred shape (was a cuda_error)", raises::value_error,
       "'shape' elements cannot be negative",
       [&] { sparse::bsr_matrix(fake_array(dtype::float64, {1, 2, 2}), i1, i0); }},
      {"bsr_matrix: empty indptr and indices, inferred shape", raises::value_error, "unable to infer",
       [&] { sparse::bsr_matrix(fake_array(dtype::float64, {0, 2, 2}), i0, i0); }},
      {"bsr_matrix: empty indptr with a shape", raises::value_error, "index pointer size (0) should be (4)",
       [&] { sparse::bsr_matrix(fake_array(dtype::float64, {0, 2, 2}), i0, i0, {.shape = sparse::shape2{6, 6}}); }},
      {"diags: diagonal shorter than the diagonal it fills", raises::value_error, "Diagonal length (index 0: 2",
       [&] { (void)sparse::diags({d2}, {0}, {.shape = sparse::shape2{3, 3}}); }},
      {"diags: second diagonal too short", raises::value_error, "Diagonal length (index 1: 2 at offset -1)",
       [&] { (void)sparse::diags({fake_array(dtype::float64, {4}), d2, d2}, {0, -1, 2}, {.shape = sparse::shape2{4, 4}}); }},
      {"diags: offset out of bounds", raises::value_error, "Offset 5 (index 0) out of bounds",
       [&] { (void)sparse::diags({d3}, {5}, {.shape = sparse::shape2{3, 3}}); }},
      {"diags: offset INT64_MAX (no overflow)", raises::value_error, "out of bounds",
       [&] { (void)sparse::diags({d3}, {INT64_MAX}, {.shape = sparse::shape2{3, 3}}); }},
      {"diags: offset INT64_MIN (no overflow)", raises::value_error, "out of bounds",
       [&] { (void)sparse::diags({d3}, {INT64_MIN}, {.shape = sparse::shape2{3, 3}}); }},
      {"diags: more offsets than diagonals", raises::value_error, "Different number of diagonals and offsets",
       [&] { (void)sparse::diags({d3}, {0, 1}); }},
      {"diags: float16", raises::type_error, "float16",
       [&] { (void)sparse::diags({fake_array(dtype::float16, {3})}, {0}); }},
      {"random: density 2", raises::value_error, "density expected to be 0 <= density <= 1",
       [] { (void)sparse::random(3, 3, {.density = 2.0}); }},
      {"random: NaN density", raises::value_error, "density",
       [] { (void)sparse::random(3, 3, {.density = std::numeric_limits<double>::quiet_NaN()}); }},
      {"random: negative m", raises::value_error, "negative dimensions", [] { (void)sparse::random(-1, 3); }},
      {"random: m * n overflows", raises::value_error, "exceeds the int64 range",
       [&] { (void)sparse::random(t40, t40); }},
      {"random: float16", raises::type_error, "float16",
       [] { (void)sparse::random(3, 3, {.dtype = dtype::float16}); }},
      {"random: unknown format", raises::value_error, "cusci::sparse",
       [] { (void)sparse::random(3, 3, {.format = "xyz"}); }},
      {"eye: negative", raises::value_error, "negative dimensions", [] { (void)sparse::eye(-2); }},
      {"tril: k outside int32 with int32 indices (SciPy: OverflowError)", raises::value_error,
       "out of bounds for int32",
       [&] {
         const sparse::spmatrix A = sparse::coo_matrix::from_valid(d3, fake_array(dtype::int32, {3}),
                                                                   fake_array(dtype::int32, {3}), {4, 4});
         (void)sparse::tril(A, t40);
       }},
      {"triu: k = INT64_MIN with int32 indices", raises::value_error, "cusci::sparse::triu",
       [&] {
         const sparse::spmatrix A = sparse::coo_matrix::from_valid(d3, fake_array(dtype::int32, {3}),
                                                                   fake_array(dtype::int32, {3}), {4, 4});
         (void)sparse::triu(A, INT64_MIN);
       }},
      {"block_diag: rows adding up past 2^63 - 1", raises::value_error, "array is too big",
       [&] { (void)sparse::block_diag({huge, huge}); }},
      {"hstack: columns adding up past 2^63 - 1", raises::value_error, "cusci::sparse::bmat",
       [&] { (void)sparse::hstack({huge, huge}); }},
      {"vstack: rows adding up past 2^63 - 1", raises::value_error, "array is too big",
       [&] { (void)sparse::vstack({huge, huge, huge}); }},
      {"kron: a shape product past int64 (was a (0, 0) matrix with an entry)", raises::value_error,
       "overflows int64", [&] { (void)sparse::kron(huge, huge); }},
      {"linear_operator: float16 (documented float32/float64/complex64/complex128)", raises::type_error,
       "float32, float64, complex64 or complex128",
       [&] { sparse::linalg::linear_operator({2, 2}, dtype::float16, never); }},
      {"linear_operator: int32", raises::type_error, "linear_operator",
       [&] { sparse::linalg::linear_operator({2, 2}, dtype::int32, never); }},
      {"linear_operator::diagonal: float16", raises::type_error, "float32 or float64",
       [&] { (void)sparse::linalg::linear_operator::diagonal(fake_array(dtype::float16, {3})); }},
      {"linear_operator::diagonal: 2-D", raises::value_error, "must be 1-D",
       [&] { (void)sparse::linalg::linear_operator::diagonal(fake_array(dtype::float64, {3, 3})); }},
  });
}

TEST_CASE("sparse: Matrix Market and sparse .npz files refuse bad content with value_error") {
  temp_dir d;
  const std::string huge = d.write("huge.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                                "1048576 1048576 1099511627776\n1 1 1\n");
  const std::string big_dims = d.write("bigdims.mtx", "%%MatrixMarket matrix array real general\n"
                                                      "4294967296 4294967296\n1\n");
  const std::string nonsquare = d.write("ns.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 3 1\n1 1 1\n");
  const std::string badfield = d.write("bf.mtx", "%%MatrixMarket matrix coordinate quaternion general\n1 1 1\n1 1 1\n");
  auto sparse_npz = [&](const std::string& name, std::vector<io::npz_member> m) {
    const std::string p = d.file(name);
    io::savez(p, m, true);
    return p;
  };
  const std::string unknown = sparse_npz("unknown.npz", {io::npz_member::bytes("format", "xyz"),
                                                         io::npz_member::array("shape", i64({2, 2})),
                                                         io::npz_member::array("data", i64({1}))});
  const std::string shape3 = sparse_npz("shape3.npz", {io::npz_member::bytes("format", "csr"),
                                                       io::npz_member::array("shape", i64({2, 2, 2})),
                                                       io::npz_member::array("data", i64({1}))});
  const std::string no_indptr = sparse_npz("noindptr.npz", {io::npz_member::bytes("format", "csr"),
                                                            io::npz_member::array("shape", i64({2, 2})),
                                                            io::npz_member::array("data", i64({1})),
                                                            io::npz_member::array("indices", i64({0}))});
  const std::string no_format = sparse_npz("noformat.npz", {io::npz_member::array("shape", i64({2, 2}))});
  const std::string not_zip = d.write("notzip.npz", "this is not an archive");
  check_bad_inputs({
      {"mmread_host: 2^40 entries declared in a tiny file", raises::value_error, "huge.mtx",
       [&] { (void)io::mmread_host(huge); }},
      {"mmread_host: a 2^64-element array file", raises::value_error, "bigdims.mtx",
       [&] { (void)io::mmread_host(big_dims); }},
      {"mmread_host: non-square hermitian", raises::value_error, "must be square",
       [&] { (void)io::mmread_host(nonsquare); }},
      {"mmread_host: unknown field", raises::value_error, "bf.mtx", [&] { (void)io::mmread_host(badfield); }},
      {"mmwrite_host: hermitian with real values (documented value_error)", raises::value_error,
       "needs complex values",
       [&] {
         host_array a(dtype::float64, {2, 2});
         io::mmwrite_host(d.file("out.mtx"), a, {.field = io::mm_field::real, .symmetry = io::mm_symmetry::hermitian});
       }},
      {"load_npz_host: unknown format", raises::value_error, "Unknown format",
       [&] { (void)sparse::load_npz_host(unknown); }},
      {"load_npz_host: 3-value shape", raises::value_error, "must hold 2 values",
       [&] { (void)sparse::load_npz_host(shape3); }},
      {"load_npz_host: csr without indptr", raises::value_error, "missing member 'indptr'",
       [&] { (void)sparse::load_npz_host(no_indptr); }},
      {"load_npz_host: no format member", raises::value_error, "does not contain a sparse array",
       [&] { (void)sparse::load_npz_host(no_format); }},
      {"load_npz_host: not a zip file", raises::value_error, "not a valid .npz",
       [&] { (void)sparse::load_npz_host(not_zip); }},
  });
}

TEST_CASE("sparse: a Matrix Market 'real hermitian' file reads as symmetric, as scipy.io.mmread does") {
  temp_dir d;
  const std::string p = d.write("rh.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 2 2\n1 1 4\n2 1 5\n");
  const io::mm_host_matrix m = io::mmread_host(p);
  CHECK(m.symmetry == io::mm_symmetry::hermitian);
  REQUIRE(m.data.size() == 3);  // (0,0), (1,0) and the mirrored (0,1), real values unchanged
  CHECK(m.data[2] == 5.0);
  CHECK(m.row[2] == 0);
  CHECK(m.col[2] == 1);
}

// --- incremental family (dok_matrix, lil_matrix): host formats, checked before anything is allocated.
#include "cusci/sparse/dok.hpp"
#include "cusci/sparse/lil.hpp"

TEST_CASE("sparse: bad input to dok_matrix and lil_matrix") {
  const sparse::shape2 big{std::int64_t{1} << 40, 4};
  check_bad_inputs({
      {"dok_matrix: negative shape", raises::value_error, "cusci::sparse::dok_matrix",
       [] { sparse::dok_matrix a(sparse::shape2{-1, 2}); }},
      {"lil_matrix: negative shape", raises::value_error, "cusci::sparse::lil_matrix",
       [] { sparse::lil_matrix a(sparse::shape2{2, -1}); }},
      {"lil_matrix: 2^40 row lists (checked before allocating)", raises::out_of_memory, "cusci::sparse::lil_matrix",
       [&] { sparse::lil_matrix a(big); }},
      {"dok_matrix: float16", raises::type_error, "float16",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}, dtype::float16); }},
      {"lil_matrix: float16 dense input", raises::type_error, "float16",
       [] { sparse::lil_matrix a(fake_array(dtype::float16, {2, 2})); }},
      {"dok_matrix: 1-D dense input (SciPy: shape must have length 2)", raises::value_error, "length in (2,)",
       [] { sparse::dok_matrix a(fake_array(dtype::float64, {3})); }},
      {"dok_matrix::set: row out of range", raises::index_error, "cusci::sparse::dok_matrix::set: row index (2)",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}); a.set(2, 0, 1.0); }},
      {"lil_matrix::get: column out of range", raises::index_error, "cusci::sparse::lil_matrix::get: column index (-3)",
       [] { (void)sparse::lil_matrix(sparse::shape2{2, 2}).get(0, -3); }},
      {"dok_matrix::set: 300 into int8 (NumPy 2's OverflowError)", raises::value_error, "out of bounds for int8",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}, dtype::int8); a.set(0, 0, 300); }},
      {"lil_matrix::set: complex into float64 (SciPy: TypeError)", raises::type_error, "complex",
       [] { sparse::lil_matrix a(sparse::shape2{2, 2}); a.set(0, 0, std::complex<double>(0, 1)); }},
      {"lil_matrix::set: NaN into int32", raises::value_error, "NaN",
       [] { sparse::lil_matrix a(sparse::shape2{2, 2}, dtype::int32); a.set(0, 0, std::nan("")); }},
      {"dok_matrix::update: negative key", raises::index_error, "negative index (0, -1) not allowed",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}); a.update({0}, {-1}, host_array::from(std::vector<double>{1})); }},
      {"dok_matrix::pop: missing key", raises::index_error, "not found",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}); (void)a.pop({0, 0}); }},
      {"lil_matrix::setrow: wrong length", raises::value_error, "shape mismatch",
       [] { sparse::lil_matrix a(sparse::shape2{2, 3}); a.setrow(0, host_array::from(std::vector<double>{1, 2})); }},
      {"dok_matrix: triplets of different lengths", raises::value_error, "same length",
       [] { sparse::dok_matrix a(sparse::shape2{2, 2}, {0}, {0, 1}, host_array::from(std::vector<double>{1, 2})); }},
      {"lil_matrix::resize: negative", raises::value_error, "cannot be negative",
       [] { sparse::lil_matrix a(sparse::shape2{2, 2}); a.resize({-1, 2}); }},
  });
}
