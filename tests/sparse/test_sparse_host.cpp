// Host tests of cusci::sparse: the Matrix Market parser and writer, and argument checks that throw
// before any device work (arrays here are views onto no memory; nothing touches a device).

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <fstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

using namespace cusci;
namespace t = cusci::testing;

namespace {

std::string tmp_path(const std::string& name) {
  return std::string("/tmp/cusci_sparse_host_") + std::to_string(static_cast<long>(::getpid())) + "_" + name;
}

std::string write_tmp(const std::string& name, const std::string& text) {
  std::string p = tmp_path(name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// Expects mmread_host to throw value_error whose message names the file and "<path>:<line>:".
void expect_malformed(const std::string& name, const std::string& text, int line, const std::string& what = "") {
  const std::string p = write_tmp(name, text);
  try {
    io::mmread_host(p);
    FAIL("no exception for " << name);
  } catch (const value_error& e) {
    const std::string msg = e.what();
    CHECK_MESSAGE(msg.find(p + ":" + std::to_string(line) + ":") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find("cusci::io::mmread") != std::string::npos, msg);
    if (!what.empty()) CHECK_MESSAGE(msg.find(what) != std::string::npos, msg);
  }
  std::remove(p.c_str());
}

// Array headers over no memory, for checks that throw before any device work.
constexpr auto fake = &cusci::testing::fake_array;

}  // namespace

TEST_CASE("mmread_host matches scipy.io.mmread on real matrices") {
  for (const auto& row : t::cases("sparse", "mmread_spmv")) {
    const std::string c = row.name();
    CAPTURE(c);
    // A real matrix of examples/data.
    const std::string path = std::string(CUSCI_EXAMPLE_DATA) + "/" + row.get<std::string>("matrix");
    io::mm_host_matrix h = io::mmread_host(path);
    CHECK(h.rows == row.get<std::int64_t>("rows"));
    CHECK(h.cols == row.get<std::int64_t>("cols"));
    t::check_allclose(host_array::from(h.row), t::golden("sparse", c + "_row"), 0, 0);
    t::check_allclose(host_array::from(h.col), t::golden("sparse", c + "_col"), 0, 0);
    t::check_allclose(host_array::from(h.data), t::golden("sparse", c + "_data"), 0, 0);
  }
}

TEST_CASE("mmread_host reads the gzip-compressed bcsstk16.mtx.gz as SciPy does") {
  // SciPy's A @ x for a seeded x (gen_sparse.py), recomputed here from the parsed entries.
  const std::string path = std::string(CUSCI_EXAMPLE_DATA) + "/bcsstk16.mtx.gz";
  const io::mm_host_matrix h = io::mmread_host(path);
  const std::vector<double> x = t::golden("sparse", "mm_bcsstk16_x").to_vector<double>();
  const std::vector<double> want = t::golden("sparse", "mm_bcsstk16_y").to_vector<double>();
  REQUIRE(h.rows == static_cast<std::int64_t>(want.size()));
  REQUIRE(h.cols == static_cast<std::int64_t>(x.size()));
  CHECK(h.symmetry == io::mm_symmetry::symmetric);
  std::vector<double> y(want.size(), 0.0);
  for (std::size_t k = 0; k < h.data.size(); ++k) y[h.row[k]] += h.data[k] * x[h.col[k]];
  double err = 0, ref = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    err = std::max(err, std::abs(y[i] - want[i]));
    ref = std::max(ref, std::abs(want[i]));
  }
  CHECK(err <= 1e-12 * ref);
  const io::mm_info info = io::mminfo(path);
  CHECK(info.rows == h.rows);
  CHECK(info.entries == h.entries);

  // A truncated gzip stream and a corrupt one are read errors naming the function and the file.
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 1000);
  const std::string cut = write_tmp("cut.mtx.gz", bytes.substr(0, bytes.size() / 2));
  const std::string cut_msg = "cusci::io::mmread: cannot read '" + cut + "'";
  CHECK_THROWS_WITH_AS(io::mmread_host(cut), doctest::Contains(cut_msg.c_str()), error);
  std::string bad = bytes.substr(0, 4000);
  for (std::size_t i = 100; i < bad.size(); i += 7) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  const std::string corrupt = write_tmp("corrupt.mtx.gz", bad);
  const std::string corrupt_msg = "cusci::io::mmread: cannot read '" + corrupt + "'";
  CHECK_THROWS_WITH_AS(io::mmread_host(corrupt), doctest::Contains(corrupt_msg.c_str()), error);
  std::remove(cut.c_str());
  std::remove(corrupt.c_str());
}

TEST_CASE("mmread_host: header, comments, blank lines, fields and symmetries") {
  SUBCASE("pattern symmetric with comments, blank lines and CRLF") {
    const std::string p = write_tmp("pat.mtx",
                                    "%%MatrixMarket matrix coordinate pattern symmetric\r\n%first\r\n\r\n% second\r\n"
                                    "3 3 3\r\n1 1\r\n\r\n3 1\r\n3 2\r\n");
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.field == io::mm_field::pattern);
    CHECK(h.symmetry == io::mm_symmetry::symmetric);
    CHECK(h.comment == "first\n second");
    CHECK(h.entries == 3);
    CHECK(h.row == std::vector<std::int64_t>{0, 2, 2, 0, 1});
    CHECK(h.col == std::vector<std::int64_t>{0, 0, 1, 2, 2});
    CHECK(h.data == std::vector<double>{1, 1, 1, 1, 1});
    std::remove(p.c_str());
  }
  SUBCASE("integer general, banner case-insensitive, tabs and '+' signs") {
    const std::string p = write_tmp("int.mtx", "%%MatrixMarket MATRIX Coordinate INTEGER General\n2 4 2\n1\t4\t+7\n2 1 -3\n");
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.field == io::mm_field::integer);
    CHECK(h.row == std::vector<std::int64_t>{0, 1});
    CHECK(h.col == std::vector<std::int64_t>{3, 0});
    CHECK(h.data == std::vector<double>{7, -3});
    std::remove(p.c_str());
  }
  SUBCASE("skew-symmetric mirrors with the sign flipped") {
    const std::string p = write_tmp("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1.5e0\n");
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.row == std::vector<std::int64_t>{1, 0});
    CHECK(h.col == std::vector<std::int64_t>{0, 1});
    CHECK(h.data == std::vector<double>{1.5, -1.5});
    std::remove(p.c_str());
  }
  SUBCASE("empty matrix") {
    const std::string p = write_tmp("empty.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n");
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.rows == 0);
    CHECK(h.data.empty());
    std::remove(p.c_str());
  }
}

TEST_CASE("mmread_host: malformed files name the path and the line") {
  const std::string hdr = "%%MatrixMarket matrix coordinate real general\n";
  expect_malformed("nobanner.mtx", "3 3 1\n1 1 1\n", 1, "banner");
  expect_malformed("empty.mtx", "", 1);
  expect_malformed("shortbanner.mtx", "%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", 1);
  expect_malformed("badfield.mtx", "%%MatrixMarket matrix coordinate quaternion general\n1 1 1\n1 1 1\n", 1, "field");
  expect_malformed("badsym.mtx", "%%MatrixMarket matrix coordinate real diagonal\n1 1 1\n1 1 1\n", 1, "symmetry");
  expect_malformed("nosize.mtx", hdr + "% only a comment\n", 3, "size line");
  expect_malformed("badsize.mtx", hdr + "%c\n3 x 1\n1 1 1\n", 3, "size line");
  expect_malformed("twosize.mtx", hdr + "3 3\n1 1 1\n", 2);
  expect_malformed("fewvals.mtx", hdr + "3 3 2\n1 1 1\n2 2\n", 4, "expected 3 values");
  expect_malformed("manyvals.mtx", hdr + "3 3 1\n1 1 1 9\n", 3, "expected 3 values");
  expect_malformed("badvalue.mtx", hdr + "3 3 1\n1 1 abc\n", 3, "real value");
  expect_malformed("badindex.mtx", hdr + "3 3 1\n1.5 1 1\n", 3, "integers");
  expect_malformed("row0.mtx", hdr + "3 3 1\n0 1 1\n", 3, "row index 0");
  expect_malformed("colbig.mtx", hdr + "3 3 2\n1 1 1\n\n2 4 1\n", 5, "column index 4");
  expect_malformed("missing.mtx", hdr + "3 3 3\n1 1 1\n2 2 2\n", 5, "expected 3 entries, found 2");
  expect_malformed("extra.mtx", hdr + "3 3 1\n1 1 1\n2 2 2\n", 4, "more entries");
  expect_malformed("intfloat.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n", 3, "integer");
  expect_malformed("symrect.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2, "square");
  expect_malformed("patval.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 5\n", 3, "2 values");
}

TEST_CASE("mmread_host: a declared entry count the file cannot hold is refused before allocating") {
  const std::string hdr = "%%MatrixMarket matrix coordinate real general\n";
  expect_malformed("huge.mtx", hdr + "2 2 4000000000000\n1 1 1\n", 2,
                   "the size line declares 4000000000000 entries, but the file has only 6 bytes after it");
  expect_malformed("maxcount.mtx", hdr + "2 2 9223372036854775807\n", 2, "declares 9223372036854775807 entries");
  expect_malformed("bigcount.mtx", hdr + "%c\n2 2 2000000000\n1 1 1\n2 2 2\n", 3, "declares 2000000000 entries");
  // A file one entry short that could hold the count still gets the precise message.
  expect_malformed("short.mtx", hdr + "2 2 3\n1 1 1\n2 2 2\n", 5, "expected 3 entries, found 2");
  // The smallest possible entries fit: pattern "i j" lines, the last without a newline.
  const std::string p =
      write_tmp("tight.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 1\n2 2\n3 3");
  CHECK(io::mmread_host(p).row == std::vector<std::int64_t>{0, 1, 2});
  std::remove(p.c_str());
}

TEST_CASE("mmread_host: indented comment lines") {
  // SciPy's reader skips "  % b" before the size line; cusci accepts it among the entries too.
  const std::string p = write_tmp("indent.mtx",
                                  "%%MatrixMarket matrix coordinate real general\n% a\n  % b\n2 2 2\n  % c\n1 1 1.0\n"
                                  "\t%d\n2 2 2.0\n");
  io::mm_host_matrix h = io::mmread_host(p);
  CHECK(h.comment == " a\n b");  // the size line ends the header comment, as SciPy's
  CHECK(h.row == std::vector<std::int64_t>{0, 1});
  CHECK(h.data == std::vector<double>{1.0, 2.0});
  std::remove(p.c_str());
}

TEST_CASE("mmread_host: array and complex files, unreadable files") {
  // Array and complex files are read as SciPy reads them (the full format is supported).
  const std::string a = write_tmp("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  io::mm_host_matrix h = io::mmread_host(a);
  CHECK(h.format == io::mm_format::array);
  CHECK(h.data == std::vector<double>{1, 2, 3, 4});  // column-major, as stored
  std::remove(a.c_str());
  const std::string c = write_tmp("cplx.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n");
  h = io::mmread_host(c);
  CHECK(h.data == std::vector<double>{1});
  CHECK(h.imag == std::vector<double>{2});
  std::remove(c.c_str());
  CHECK_THROWS_AS(io::mmread_host("/nonexistent/dir/none.mtx"), cusci::error);
}

TEST_CASE("mmwrite_host -> mmread_host round trip") {
  const std::vector<std::int64_t> r{0, 1, 2, 2, 0}, c{0, 0, 1, 2, 2};
  const std::vector<double> d{1.5, 2.25, 3.0, 0.1, -1e-300};
  SUBCASE("general, shortest repr round-trips exactly, comments") {
    const std::string p = tmp_path("w_general.mtx");
    io::mmwrite_host(p, 3, 4, r, c, d, {.comment = "hello\nworld"});
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.symmetry == io::mm_symmetry::general);  // AUTO on a non-square matrix
    CHECK(h.comment == "hello\nworld");
    CHECK(h.rows == 3);
    CHECK(h.cols == 4);
    CHECK(h.row == r);
    CHECK(h.col == c);
    CHECK(h.data == d);
    std::remove(p.c_str());
  }
  SUBCASE("symmetric writes the lower triangle only") {
    const std::string p = tmp_path("w_sym.mtx");
    io::mmwrite_host(p, 3, 3, r, c, d, {.precision = 3, .symmetry = io::mm_symmetry::symmetric});
    io::mm_host_matrix h = io::mmread_host(p);
    CHECK(h.symmetry == io::mm_symmetry::symmetric);
    CHECK(h.entries == 4);  // (0, 2) is dropped, as SciPy drops upper-triangle entries
    CHECK(h.row == std::vector<std::int64_t>{0, 1, 2, 2, 0, 1});
    CHECK(h.col == std::vector<std::int64_t>{0, 0, 1, 2, 1, 2});
    CHECK(h.data[1] == doctest::Approx(2.25));
    CHECK(h.data[3] == doctest::Approx(0.1));
    std::remove(p.c_str());
  }
  SUBCASE("AUTO detects symmetry of a small square matrix") {
    const std::string p = tmp_path("w_auto.mtx");
    io::mmwrite_host(p, 2, 2, {0, 1, 0, 1}, {1, 0, 0, 1}, {2.0, 2.0, 1.0, 0.0});
    CHECK(io::mmread_host(p).symmetry == io::mm_symmetry::symmetric);
    io::mmwrite_host(p, 2, 2, {0, 1}, {1, 0}, {2.0, -2.0});
    CHECK(io::mmread_host(p).symmetry == io::mm_symmetry::skew_symmetric);
    io::mmwrite_host(p, 2, 2, {0, 1}, {1, 0}, {2.0, 3.0});
    CHECK(io::mmread_host(p).symmetry == io::mm_symmetry::general);
    std::remove(p.c_str());
  }
  SUBCASE("integer truncates, pattern drops values") {
    const std::string p = tmp_path("w_int.mtx");
    io::mmwrite_host(p, 3, 3, r, c, d, {.field = io::mm_field::integer, .symmetry = io::mm_symmetry::general});
    CHECK(io::mmread_host(p).data == std::vector<double>{1, 2, 3, 0, 0});
    io::mmwrite_host(p, 3, 3, r, c, d, {.field = io::mm_field::pattern, .symmetry = io::mm_symmetry::general});
    CHECK(io::mmread_host(p).data == std::vector<double>{1, 1, 1, 1, 1});
    std::remove(p.c_str());
  }
  SUBCASE("bad options") {
    const std::string p = tmp_path("w_bad.mtx");
    CHECK_THROWS_AS(io::mmwrite_host(p, 3, 3, r, c, d, {.precision = -1}), value_error);
    CHECK_THROWS_AS(io::mmwrite_host(p, 3, 4, r, c, d, {.symmetry = io::mm_symmetry::symmetric}), value_error);
    // Real values with field complex are written with zero imaginary parts, as SciPy casts them.
    io::mmwrite_host(p, 3, 3, r, c, d, {.field = io::mm_field::complex});
    CHECK(io::mmread_host(p).imag == std::vector<double>(d.size(), 0.0));
    CHECK_THROWS_AS(io::mmwrite_host(p, 3, 3, r, c, d, {.symmetry = io::mm_symmetry::hermitian}), value_error);
    CHECK_THROWS_AS(io::mmwrite_host("/nonexistent/dir/x.mtx", 3, 3, r, c, d), cusci::error);
  }
}

namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The value token of the last entry line of a one-entry file written by mmwrite_host.
std::string last_value(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind(' ') + 1);
}

}  // namespace

TEST_CASE("mmwrite_host: precision is bounded and the text is exactly what printf wrote") {
  const std::string p = tmp_path("w_prec.mtx");
  const std::vector<std::int64_t> r{0}, c{0};
  const std::vector<double> d{0.1};
  const io::mmwrite_options gen{.symmetry = io::mm_symmetry::general};
  SUBCASE("out of range precision is a value_error naming the bound, before anything is written") {
    std::remove(p.c_str());
    for (int prec : {-1, 33, 100, 100000}) {
      CAPTURE(prec);
      io::mmwrite_options o = gen;
      o.precision = prec;
      const std::string want = "precision must be in [0, 32], got " + std::to_string(prec);
      CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 1, 1, r, c, d, o), doctest::Contains(want.c_str()), value_error);
    }
    CHECK(!std::ifstream(p).good());
  }
  SUBCASE("0 and 1 give one significant digit (SciPy writes 1e-01 for both)") {
    for (int prec : {0, 1}) {
      io::mmwrite_options o = gen;
      o.precision = prec;
      io::mmwrite_host(p, 1, 1, r, c, d, o);
      CHECK(last_value(slurp(p)) == "1e-01");
    }
  }
  SUBCASE("17 round-trips; 32 (the maximum) writes 32 digits, no stray bytes") {
    for (int prec : {17, 32}) {
      CAPTURE(prec);
      io::mmwrite_options o = gen;
      o.precision = prec;
      const std::vector<double> v{-std::numeric_limits<double>::max()};
      io::mmwrite_host(p, 1, 1, r, c, v, o);
      const std::string text = slurp(p);
      CHECK(text.find('\0') == std::string::npos);
      const std::string tok = last_value(text);
      // "-d." then prec - 1 digits then "e+308".
      CHECK(tok.size() == static_cast<std::size_t>(prec) + 7);
      CHECK(tok.substr(tok.size() - 5) == "e+308");
      CHECK(io::mmread_host(p).data == v);
    }
  }
  std::remove(p.c_str());
}

TEST_CASE("mmwrite_host: indices out of range and values an integer field cannot hold") {
  const std::string p = tmp_path("w_range.mtx");
  std::remove(p.c_str());
  CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 2, 2, {5, 0}, {0, 1}, {1.0, 2.0}),
                       doctest::Contains("row index 5 of entry 0 out of range [0, 2)"), value_error);
  CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 2, 2, {0, -3}, {0, 1}, {1.0, 2.0}),
                       doctest::Contains("row index -3 of entry 1 out of range [0, 2)"), value_error);
  CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 2, 3, {0, 1}, {3, 1}, {1.0, 2.0}),
                       doctest::Contains("column index 3 of entry 0 out of range [0, 3)"), value_error);
  CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 2, 2, {0}, {-1}, {1.0}, {.field = io::mm_field::pattern}),
                       doctest::Contains("column index -1"), value_error);
  CHECK_THROWS_AS(io::mmwrite_host(p, 0, 0, {0}, {0}, {1.0}), value_error);
  CHECK_THROWS_AS(io::mmwrite_host(p, -1, 2, {}, {}, {}), value_error);
  const io::mmwrite_options integer{.field = io::mm_field::integer, .symmetry = io::mm_symmetry::general};
  for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL, 1e300, -1e300, 0x1p63}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(io::mmwrite_host(p, 2, 2, {0, 1}, {0, 1}, {1.0, bad}, integer),
                         doctest::Contains("field 'integer' needs finite values in the int64 range, entry 1"),
                         value_error);
  }
  CHECK(!std::ifstream(p).good());  // nothing written by a rejected call
  // The int64 extremes that are doubles are written exactly; real fields keep inf and nan.
  io::mmwrite_host(p, 1, 2, {0, 0}, {0, 1}, {-0x1p63, 0x1p63 - 1024}, integer);
  const std::string text = slurp(p);
  CHECK(text.find("1 1 -9223372036854775808\n") != std::string::npos);
  CHECK(text.find("1 2 9223372036854774784\n") != std::string::npos);
  io::mmwrite_host(p, 1, 1, {0}, {0}, {HUGE_VAL}, {.symmetry = io::mm_symmetry::general});
  CHECK(std::isinf(io::mmread_host(p).data.at(0)));
  std::remove(p.c_str());
}

TEST_CASE("Matrix Market enum strings") {
  CHECK(io::mm_field_from_string("Real") == io::mm_field::real);
  CHECK(io::mm_field_from_string("pattern") == io::mm_field::pattern);
  CHECK(io::mm_symmetry_from_string("skew-symmetric") == io::mm_symmetry::skew_symmetric);
  CHECK(io::mm_symmetry_from_string("AUTO") == io::mm_symmetry::automatic);
  CHECK_THROWS_AS(io::mm_field_from_string("float"), value_error);
  CHECK_THROWS_AS(io::mm_symmetry_from_string("lower"), value_error);
  CHECK(io::to_string(io::mm_symmetry::skew_symmetric) == "skew-symmetric");
}

TEST_CASE("get_index_dtype") {
  CHECK(sparse::get_index_dtype(0) == dtype::int32);
  CHECK(sparse::get_index_dtype(2147483647) == dtype::int32);
  CHECK(sparse::get_index_dtype(2147483648LL) == dtype::int64);
}

TEST_CASE("constructors reject bad arguments before device work") {
  const ndarray d3 = fake(dtype::float64, {3}), i3 = fake(dtype::int32, {3}), i2 = fake(dtype::int32, {2});
  // coo
  CHECK_THROWS_WITH_AS(sparse::coo_matrix(d3, i3, i2, {3, 3}),
                       doctest::Contains("all index and data arrays must have the same length"), value_error);
  CHECK_THROWS_AS(sparse::coo_matrix(fake(dtype::float64, {3, 1}), i3, i3, {3, 3}), value_error);
  CHECK_THROWS_AS(sparse::coo_matrix(fake(dtype::float16, {3}), i3, i3, {3, 3}), type_error);
  CHECK_THROWS_AS(sparse::coo_matrix(d3, fake(dtype::float64, {3}), i3, {3, 3}), type_error);
  CHECK_THROWS_WITH_AS(sparse::coo_matrix(d3, i3, i3, {-1, 3}), doctest::Contains("cannot be negative"), value_error);
  CHECK_THROWS_AS(sparse::coo_matrix(d3, i3, i3, {3, 3}, dtype::int16), type_error);
  CHECK_THROWS_AS(sparse::coo_matrix(d3, i3, i3, {3, 3000000000LL}, dtype::int32), value_error);
  // csr
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d3, i3, fake(dtype::int32, {3}), {3, 3}),
                       doctest::Contains("index pointer size 3 should be 4"), value_error);
  CHECK_THROWS_WITH_AS(sparse::csr_matrix(d3, i2, fake(dtype::int32, {4}), {3, 3}),
                       doctest::Contains("indices and data should have the same size"), value_error);
  CHECK_THROWS_AS(sparse::csr_matrix(fake(dtype::float64, {3, 1}), i3, fake(dtype::int32, {4}), {3, 3}), value_error);
  CHECK_THROWS_AS(sparse::csr_matrix(fake(dtype::float16, {3}), i3, fake(dtype::int32, {4}), {3, 3}), type_error);
  CHECK_THROWS_AS(sparse::csr_matrix(d3, i3, fake(dtype::float32, {4}), {3, 3}), type_error);
  CHECK_THROWS_AS(sparse::csr_matrix(d3, i3, fake(dtype::int32, {4}), {3, -3}), value_error);
}

TEST_CASE("linear_operator and cg reject bad arguments before device work") {
  auto never = [](const ndarray&) -> ndarray {
    FAIL("matvec must not be called");
    return ndarray();
  };
  CHECK_THROWS_AS(sparse::linalg::linear_operator({-1, 2}, dtype::float64, never), value_error);
  CHECK_THROWS_AS(sparse::linalg::linear_operator({2, 2}, dtype::int32, never), type_error);
  CHECK_THROWS_AS(sparse::linalg::linear_operator({2, 2}, dtype::float64, nullptr), value_error);
  sparse::linalg::linear_operator A({4, 4}, dtype::float64, never), R({4, 3}, dtype::float64, never);
  CHECK_THROWS_WITH_AS(A.matvec(fake(dtype::float64, {3})), doctest::Contains("dimension mismatch"), value_error);
  CHECK_THROWS_AS(A.matvec(fake(dtype::float64, {4, 2})), value_error);
  using sparse::linalg::cg;
  CHECK_THROWS_WITH_AS(cg(R, fake(dtype::float64, {4})), doctest::Contains("expected square matrix"), value_error);
  CHECK_THROWS_WITH_AS(cg(A, fake(dtype::float64, {3})),
                       doctest::Contains("shapes of A (4, 4) and b (3,) are incompatible"), value_error);
  CHECK_THROWS_AS(cg(A, fake(dtype::float64, {4, 2})), value_error);
  CHECK_THROWS_AS(cg(A, fake(dtype::complex128, {4})), type_error);
  CHECK_THROWS_WITH_AS(cg(A, fake(dtype::float64, {4}), {.x0 = fake(dtype::float64, {5})}),
                       doctest::Contains("x0 (5,)"), value_error);
  CHECK_THROWS_WITH_AS(cg(A, fake(dtype::float64, {4}), {.M = R}),
                       doctest::Contains("matrix and preconditioner have different shapes"), value_error);
  CHECK_THROWS_WITH_AS(cg(A, fake(dtype::float64, {4}), {.atol = -1.0}), doctest::Contains("`atol`"), value_error);
}

TEST_CASE("dot and cg refuse operands on different devices, before any device work") {
  const auto A = sparse::csr_matrix::from_valid(fake(dtype::float64, {4}), fake(dtype::int32, {4}),
                                                fake(dtype::int32, {3}), {2, 2});
  const ndarray x0 = fake(dtype::float64, {2});
  const ndarray x1(memory_ptr{}, dtype::float64, x0.shape(), x0.strides(), 0, 1);
  CHECK_THROWS_WITH_AS(A.dot(x1), doctest::Contains("different devices"), value_error);
  CHECK_THROWS_WITH_AS(sparse::linalg::cg(A, x1), doctest::Contains("different devices"), value_error);
}
