// Host tests of cusci::sparse's access family: Matrix Market files (every format x field x
// symmetry written by SciPy, hand-written and malformed files, the shared real matrices), SciPy's
// .npz sparse files (read and written), and index checks that throw before touching a device.
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cusci/sparse/access.hpp"
#include "cusci/sparse/io.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;

namespace {

// The shared real matrices beside the source tree (what gen_sparse_access.py reads).
const std::string shared_matrices = std::string(CUSCI_EXAMPLE_DATA) + "/../../../shared/data/matrices";

// Where written files go: $CUSCI_ACCESS_KEEP (kept, for checking them with SciPy) or /tmp.
std::string out_dir() {
  const char* keep = std::getenv("CUSCI_ACCESS_KEEP");
  std::string d = keep ? keep : "/tmp/cusci_access_host_" + std::to_string(static_cast<long>(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

std::vector<t::golden_case> rows_of(const std::string& func) { return t::cases("sparse_access", func); }

// The file of a case: mm_00.mtx (SciPy-written) or hand_blank.mtx (hand-written), written by the generator.
std::string mm_file(const t::golden_case& r) { return t::golden_file("sparse_access", r.get<std::string>("file")); }

// Dense complex128 [rows, cols] (C order) of a parsed file, duplicates summed.
std::vector<std::complex<double>> dense_of(const io::mm_host_matrix& h) {
  std::vector<std::complex<double>> d(static_cast<std::size_t>(h.rows * h.cols));
  auto val = [&](std::size_t k) {
    if (h.field == io::mm_field::integer) return std::complex<double>(static_cast<double>(h.idata[k]), 0);
    if (h.field == io::mm_field::complex) return std::complex<double>(h.data[k], h.imag[k]);
    return std::complex<double>(h.data[k], 0);
  };
  if (h.format == io::mm_format::array) {
    for (std::int64_t i = 0; i < h.rows; ++i)
      for (std::int64_t j = 0; j < h.cols; ++j)
        d[static_cast<std::size_t>(i * h.cols + j)] = val(static_cast<std::size_t>(j * h.rows + i));
  } else {
    for (std::size_t k = 0; k < h.row.size(); ++k) d[static_cast<std::size_t>(h.row[k] * h.cols + h.col[k])] += val(k);
  }
  return d;
}

void check_dense(const std::vector<std::complex<double>>& got, const host_array& want) {
  REQUIRE(static_cast<std::int64_t>(got.size()) == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == t::element(want, static_cast<std::int64_t>(k)));
}

std::string write_tmp(const std::string& name, const std::string& text) {
  const std::string p = out_dir() + "/" + name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

void expect_malformed(const std::string& name, const std::string& text, int line, const std::string& what) {
  const std::string p = write_tmp(name, text);
  try {
    io::mmread_host(p);
    FAIL("no exception for " << name);
  } catch (const value_error& e) {
    const std::string msg = e.what();
    CHECK_MESSAGE(msg.find(p + ":" + std::to_string(line) + ":") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find(what) != std::string::npos, msg);
  }
}

// Dense complex128 of a sparse .npz read on the host.
std::vector<std::complex<double>> dense_of(const sparse::npz_sparse_host& m) {
  const std::int64_t M = m.shape[0], N = m.shape[1];
  std::vector<std::complex<double>> d(static_cast<std::size_t>(M * N));
  auto ix = [](const host_array& a) { return a.astype(dtype::int64).to_vector<std::int64_t>(); };
  auto at = [&](std::int64_t i, std::int64_t j) -> std::complex<double>& { return d[static_cast<std::size_t>(i * N + j)]; };
  switch (m.fmt) {
    case sparse::format::coo: {
      auto r = ix(m.row), c = ix(m.col);
      for (std::size_t k = 0; k < r.size(); ++k) at(r[k], c[k]) += t::element(m.data, static_cast<std::int64_t>(k));
      break;
    }
    case sparse::format::csr:
    case sparse::format::csc: {
      auto p = ix(m.indptr), x = ix(m.indices);
      for (std::size_t l = 0; l + 1 < p.size(); ++l)
        for (std::int64_t k = p[l]; k < p[l + 1]; ++k) {
          const auto L = static_cast<std::int64_t>(l);
          (m.fmt == sparse::format::csr ? at(L, x[k]) : at(x[k], L)) += t::element(m.data, k);
        }
      break;
    }
    case sparse::format::dia: {
      auto off = ix(m.offsets);
      const std::int64_t L = m.data.shape()[1];
      for (std::size_t q = 0; q < off.size(); ++q)
        for (std::int64_t j = 0; j < std::min(L, N); ++j) {
          const std::int64_t i = j - off[q];
          if (i >= 0 && i < M) at(i, j) += t::element(m.data, static_cast<std::int64_t>(q) * L + j);
        }
      break;
    }
    case sparse::format::bsr: {
      auto p = ix(m.indptr), x = ix(m.indices);
      const std::int64_t R = m.data.shape()[1], C = m.data.shape()[2];
      for (std::size_t l = 0; l + 1 < p.size(); ++l)
        for (std::int64_t k = p[l]; k < p[l + 1]; ++k)
          for (std::int64_t a = 0; a < R; ++a)
            for (std::int64_t b = 0; b < C; ++b)
              at(static_cast<std::int64_t>(l) * R + a, x[k] * C + b) += t::element(m.data, (k * R + a) * C + b);
      break;
    }
  }
  return d;
}

}  // namespace

TEST_CASE("mmread_host and mminfo match scipy.io.mmread / mminfo on SciPy-written and hand-written files") {
  const auto rows = rows_of("mmread");
  CHECK(rows.size() >= 30);
  for (const auto& r : rows) {
    const std::string c = r.name();
    CAPTURE(c);
    const std::string p = mm_file(r);
    const io::mm_info info = io::mminfo(p);
    CHECK(info.rows == r.get<std::int64_t>("rows"));
    CHECK(info.cols == r.get<std::int64_t>("cols"));
    CHECK(info.entries == r.get<std::int64_t>("entries"));
    CHECK(io::to_string(info.format) == r.get<std::string>("fmt"));
    CHECK(io::to_string(info.field) == r.get<std::string>("field"));
    CHECK(io::to_string(info.symmetry) == r.get<std::string>("symmetry"));
    const io::mm_host_matrix h = io::mmread_host(p);
    const host_array want = t::golden("sparse_access", c);
    // SciPy's dtype: int64 for integer, complex128 for complex, float64 otherwise.
    const dtype dt = h.field == io::mm_field::integer ? dtype::int64
                     : h.field == io::mm_field::complex ? dtype::complex128 : dtype::float64;
    CHECK(dt == want.dtype());
    check_dense(dense_of(h), want);
    if (r.get<bool>("sparse")) CHECK(static_cast<std::int64_t>(h.row.size()) == r.get<std::int64_t>("nnz"));
  }
}

TEST_CASE("mmwrite_host output reads back equal (coordinate and array, every field and symmetry)") {
  const std::string d = out_dir();
  for (const auto& r : rows_of("mmread")) {
    const std::string c = r.name();
    CAPTURE(c);
    const io::mm_host_matrix h = io::mmread_host(mm_file(r));
    host_array vals = h.field == io::mm_field::integer ? host_array::from(h.idata) : host_array::from(h.data);
    if (h.field == io::mm_field::complex) {
      std::vector<std::complex<double>> z(h.data.size());
      for (std::size_t k = 0; k < z.size(); ++k) z[k] = {h.data[k], h.imag[k]};
      vals = host_array::from(z);
    }
    const std::string p = d + "/" + c + "_cusci.mtx";
    io::mmwrite_options o{.comment = "cusci " + c};
    if (h.field == io::mm_field::pattern) o.field = io::mm_field::pattern;
    if (h.format == io::mm_format::coordinate) {
      io::mmwrite_host_typed(p, h.rows, h.cols, h.row, h.col, vals, o);
    } else {
      // Column-major values -> C-order [rows, cols].
      host_array dense(vals.dtype(), {h.rows, h.cols});
      const std::size_t sz = itemsize(vals.dtype());
      for (std::int64_t i = 0; i < h.rows; ++i)
        for (std::int64_t j = 0; j < h.cols; ++j)
          std::memcpy(static_cast<char*>(dense.data()) + (i * h.cols + j) * sz,
                      static_cast<const char*>(vals.data()) + (j * h.rows + i) * sz, sz);
      io::mmwrite_host(p, dense, o);
    }
    const io::mm_host_matrix b = io::mmread_host(p);
    CHECK(b.format == h.format);
    CHECK(b.field == h.field);
    CHECK(b.comment == "cusci " + c);
    // AUTO finds the symmetry SciPy wrote (general files may be found symmetric when they are).
    if (h.symmetry != io::mm_symmetry::general && c.rfind("mm_hand", 0) != 0) CHECK(b.symmetry == h.symmetry);
    check_dense(dense_of(b), t::golden("sparse_access", c));
  }
}

TEST_CASE("mmwrite_host: SciPy's field from the dtype, explicit fields and symmetries") {
  const std::string d = out_dir();
  const std::string p = d + "/w_fields.mtx";
  const std::vector<std::int64_t> r{0, 1, 1}, c{0, 0, 1};
  io::mmwrite_host_typed(p, 2, 2, r, c, host_array::from(std::vector<std::uint8_t>{1, 2, 3}));
  CHECK(io::mminfo(p).field == io::mm_field::integer);
  io::mmwrite_host_typed(p, 2, 2, r, c, host_array::from(std::vector<float>{0.1f, 2, 3}));
  CHECK(io::mminfo(p).field == io::mm_field::real);
  CHECK(io::mmread_host(p).data[0] == 0.1);  // float32 written in its shortest form, as SciPy
  io::mmwrite_host_typed(p, 2, 2, r, c, host_array::from(std::vector<std::complex<double>>{{1, 0}, {2, 1}, {3, 0}}));
  CHECK(io::mminfo(p).field == io::mm_field::complex);
  CHECK(io::mminfo(p).symmetry == io::mm_symmetry::general);
  // hermitian: (1,0) = conj((0,1)) with a real diagonal; written as its lower triangle.
  io::mmwrite_host_typed(p, 2, 2, {0, 1, 0}, {1, 0, 0}, host_array::from(std::vector<std::complex<double>>{{2, -1}, {2, 1}, {3, 0}}));
  CHECK(io::mminfo(p).symmetry == io::mm_symmetry::hermitian);
  CHECK(io::mminfo(p).entries == 2);
  io::mmwrite_host(p, host_array::from(std::vector<double>{0, 2, -2, 0}, {2, 2}));
  CHECK(io::mminfo(p).format == io::mm_format::array);
  CHECK(io::mminfo(p).symmetry == io::mm_symmetry::skew_symmetric);
  CHECK(io::mmread_host(p).data == std::vector<double>{0, -2, 2, 0});
  CHECK_THROWS_AS(io::mmwrite_host(p, host_array::from(std::vector<double>{1, 2}), {.field = io::mm_field::pattern}),
                  value_error);
  CHECK_THROWS_AS(io::mmwrite_host_typed(p, 2, 2, r, c, host_array::from(std::vector<double>{1, 2, 3}),
                                   {.symmetry = io::mm_symmetry::hermitian}),
                  value_error);
  CHECK_THROWS_AS(io::mmwrite_host_typed(p, 2, 2, r, c, host_array::from(std::vector<std::uint64_t>{1, 2, ~0ULL})),
                  value_error);
}

TEST_CASE("mmread_host: malformed files give value_error with the 1-based line") {
  const std::string hdr = "%%MatrixMarket matrix coordinate real general\n";
  expect_malformed("m1.mtx", "%%MatrixMarket matrix banana real general\n1 1 1\n1 1 1\n", 1, "format");
  expect_malformed("m2.mtx", hdr + "%c\n\n2 2 3\n1 1 1\n2 2 2\n", 7, "expected 3 entries, found 2");
  expect_malformed("m3.mtx", hdr + "2 2 2\n1 1 1\n2 2 x\n", 4, "real value");
  expect_malformed("m4.mtx", hdr + "2 2 1\n\n3 1 1\n", 4, "row index 3");
  expect_malformed("m5.mtx", "%%MatrixMarket matrix array real general\n2 2\n1.5\n2.5\n3.5\n", 6,
                   "expected 4 values, found 3");
  expect_malformed("m5b.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 2, "declares 4 values");
  expect_malformed("m6.mtx", "%%MatrixMarket matrix array real general\n2 2 4\n1\n2\n3\n4\n", 2, "size line");
  expect_malformed("m7.mtx", "%%MatrixMarket matrix array pattern general\n2 2\n", 1, "pattern");
  expect_malformed("m8.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 99999999999999999999\n", 3,
                   "integer");
  expect_malformed("m9.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1\n", 3, "expected 4 values");
  expect_malformed("m10.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6, "more values");
  expect_malformed("m11.mtx", hdr + "2 2 1\n1 1 1\n1 2 3\n", 4, "more entries");
}

TEST_CASE("mmread_host: the shared real matrices match SciPy (shape, nnz, sums) and parse fast") {
  const auto rows = rows_of("mmread_shared");
  if (!std::filesystem::exists(shared_matrices)) {
    MESSAGE("skipped: " << shared_matrices << " not present");
    return;
  }
  CHECK(rows.size() == 12);
  const std::string d = out_dir();
  for (const auto& r : rows) {
    const std::string name = r.name().substr(4);
    CAPTURE(name);
    const std::string p = shared_matrices + "/" + name + ".mtx";
    const auto t0 = std::chrono::steady_clock::now();
    const io::mm_host_matrix h = io::mmread_host(p);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK_MESSAGE(secs < 1.0, name << " took " << secs << " s");
    CHECK(h.rows == r.get<std::int64_t>("rows"));
    CHECK(h.cols == r.get<std::int64_t>("cols"));
    CHECK(h.entries == r.get<std::int64_t>("entries"));
    CHECK(static_cast<std::int64_t>(h.row.size()) == r.get<std::int64_t>("nnz"));
    double sum = 0, abssum = 0, rowsum = 0;
    for (std::size_t k = 0; k < h.data.size(); ++k) {
      const std::complex<double> v = h.field == io::mm_field::complex ? std::complex<double>(h.data[k], h.imag[k])
                                                                      : std::complex<double>(h.data[k], 0);
      sum += v.real();
      abssum += std::abs(v);
      rowsum += static_cast<double>(h.row[k]) * std::abs(v);
    }
    CHECK(sum == doctest::Approx(r.get<double>("sum")).epsilon(1e-12).scale(abssum));
    CHECK(abssum == doctest::Approx(r.get<double>("abssum")).epsilon(1e-12));
    CHECK(rowsum == doctest::Approx(r.get<double>("rowsum")).epsilon(1e-12));
    // Write (values as read) and read back: the same entries.
    const std::string q = d + "/mat_" + name + "_cusci.mtx";
    host_array vals = h.field == io::mm_field::integer ? host_array::from(h.idata) : host_array::from(h.data);
    if (h.field == io::mm_field::complex) {
      std::vector<std::complex<double>> z(h.data.size());
      for (std::size_t k = 0; k < z.size(); ++k) z[k] = {h.data[k], h.imag[k]};
      vals = host_array::from(z);
    }
    io::mmwrite_host_typed(q, h.rows, h.cols, h.row, h.col, vals,
                     {.field = h.field == io::mm_field::pattern ? std::optional(io::mm_field::pattern) : std::nullopt,
                      .symmetry = io::mm_symmetry::general});
    const io::mm_host_matrix b = io::mmread_host(q);
    CHECK(b.row == h.row);
    CHECK(b.col == h.col);
    CHECK(b.data == h.data);
    CHECK(b.imag == h.imag);
    CHECK(b.idata == h.idata);
  }
}

TEST_CASE("load_npz_host reads scipy.sparse.save_npz files; save_npz_host output reads back") {
  const auto rows = rows_of("load_npz");
  CHECK(rows.size() >= 50);
  const std::string d = out_dir();
  for (const auto& r : rows) {
    const std::string c = r.name();
    CAPTURE(c);
    const sparse::npz_sparse_host m = sparse::load_npz_host(t::golden_file("sparse_access", c + ".npz"));
    CHECK(sparse::to_string(m.fmt) == r.get<std::string>("fmt"));
    CHECK(m.shape == sparse::shape2{r.get<std::int64_t>("rows"), r.get<std::int64_t>("cols")});
    CHECK(m.data.dtype() == dtype_from_string(r.get<std::string>("dtype")));
    CHECK(m.is_array == (c == "npz_csr_array"));
    const host_array want = t::golden("sparse_access", c);
    check_dense(dense_of(m), want);
    for (bool z : {false, true}) {
      const std::string p = d + "/" + c + (z ? "_cusci_z.npz" : "_cusci_s.npz");
      sparse::save_npz_host(p, m, z);
      const sparse::npz_sparse_host b = sparse::load_npz_host(p);
      CHECK(b.fmt == m.fmt);
      CHECK(b.shape == m.shape);
      CHECK(b.data.dtype() == m.data.dtype());
      CHECK(b.is_array == m.is_array);
      check_dense(dense_of(b), want);
    }
  }
  CHECK_THROWS_AS(sparse::load_npz_host(t::golden_file("sparse_access", "mm_00.mtx")), value_error);
  CHECK_THROWS_AS(sparse::load_npz_host("/nonexistent/x.npz"), cusci::error);
}

namespace {
// Array headers over no memory, for checks that throw before any device work.
constexpr auto fake = &cusci::testing::fake_array;
}  // namespace

TEST_CASE("indexing: argument checks before any device work") {
  const sparse::csr_matrix A = sparse::csr_matrix::from_valid(fake(dtype::float64, {4}), fake(dtype::int32, {4}),
                                                              fake(dtype::int32, {6}), {5, 6});
  CHECK_THROWS_WITH_AS(sparse::get(A, 5, 0), doctest::Contains("index (5) out of range"), index_error);
  CHECK_THROWS_WITH_AS(sparse::get(A, 0, -7), doctest::Contains("index (-7) out of range"), index_error);
  CHECK_THROWS_AS(sparse::getitem(A, std::vector<std::int64_t>{0, 6}, cusci::slice{}), index_error);
  CHECK_THROWS_WITH_AS(sparse::getitem(A, std::vector<bool>{true, false}, cusci::slice{}),
                       doctest::Contains("bool index 0 has shape (5,) instead of (2,)"), index_error);
  CHECK_THROWS_AS(sparse::getitem(A, cusci::slice{0, 4, 0}, cusci::slice{}), value_error);
  CHECK_THROWS_AS(sparse::getitem(A, std::int64_t{1}, std::int64_t{2}), value_error);
  CHECK_THROWS_AS(sparse::getitem(A, std::vector<std::int64_t>{1}, std::vector<std::int64_t>{2}), value_error);
  CHECK_THROWS_AS(sparse::getrow(A, 7), index_error);
  CHECK_THROWS_AS(sparse::getcol(A, -7), index_error);
  CHECK_THROWS_WITH_AS(sparse::reshape(A, {4, 4}), doctest::Contains("cannot reshape array of size 30 into shape (4, 4)"),
                       value_error);
  CHECK_THROWS_AS(sparse::reshape(A, {-1, -1}), value_error);
  const sparse::coo_matrix C = sparse::coo_matrix::from_valid(fake(dtype::float64, {0}), fake(dtype::int32, {0}),
                                                              fake(dtype::int32, {0}), {5, 6});
  CHECK_THROWS_WITH_AS(sparse::get(C, 0, 0), doctest::Contains("not subscriptable"), type_error);
  CHECK_THROWS_AS(sparse::getitem(C, cusci::slice{}, std::int64_t{0}), type_error);
  sparse::spmatrix S = C;
  CHECK_THROWS_AS(sparse::setitem(S, 0, 0, 1.0), type_error);
  const sparse::bsr_matrix B = sparse::bsr_matrix::from_valid(fake(dtype::float64, {0, 2, 2}), fake(dtype::int32, {0}),
                                                              fake(dtype::int32, {3}), {4, 4});
  CHECK_THROWS_AS(sparse::get(B, 0, 0), not_implemented_error);
  sparse::bsr_matrix B2 = B;
  CHECK_THROWS_WITH_AS(sparse::resize(B2, {4, 5}), doctest::Contains("shape must be divisible into (2, 2) blocks"),
                       value_error);
}
