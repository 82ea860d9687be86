// GPU tests of cusci::sparse::coo_array (n-dimensional COO) against SciPy 1.18 goldens
// (tests/golden/gen_sparse_coo_nd.py): ranks 1..5, every value dtype, duplicates, explicit zeros,
// unsorted entries, empty shapes and nnz = 0, through every operation SciPy's n-D coo_array has; plus
// round trips with the 2-D matrix classes and index-range errors that need the device.

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/io.hpp"
#include "cusci/sparse/coo_array.hpp"
#include "cusci/sparse/sparse.hpp"
#include "testing.hpp"

namespace t = cusci::testing;
using namespace cusci;
using namespace cusci::sparse;

namespace {

constexpr const char* M = "sparse_coo_nd";

/// The arrays of one case (stored as <case>__<key>; a key is absent when SciPy raised).
class case_arrays {
 public:
  explicit case_arrays(const t::golden_case& c) : name_(c.name()) {}
  bool contains(const std::string& key) const { return t::has_golden(M, name_ + "__" + key); }
  host_array operator[](const std::string& key) const { return t::golden(M, name_ + "__" + key); }
  ndarray dev(const std::string& key) const { return asarray((*this)[key]); }

 private:
  std::string name_;
};

std::vector<std::int64_t> ivec(const t::golden_value& v) { return v.get<std::vector<std::int64_t>>(); }

coo_array build(const case_arrays& z, const std::string& prefix, const coo_array::shape_type& shape) {
  return coo_array(z.dev(prefix + "data"), z.dev(prefix + "coords"), {.shape = shape});
}

void check_coords(const coo_array& a, const case_arrays& z, const std::string& key) {
  INFO("key ", key);
  t::check_allclose(a.coords().astype(dtype::int64), z[key], 0, 0);
}

void check_key(const ndarray& a, const case_arrays& z, const std::string& key, double rtol, double atol) {
  INFO("key ", key);
  t::check_allclose(a, z[key], rtol, atol);
}

// Runs `fn` (which checks a result against `key`) when SciPy produced the key; otherwise `fn` must
// throw a cusci::error (SciPy raised for the same arguments).
template <class F>
void expect(const case_arrays& z, const std::string& key, F&& fn) {
  INFO("key ", key);
  if (z.contains(key)) fn();
  else CHECK_THROWS_AS(fn(), cusci::error);
}

std::vector<int> to_ints(const std::vector<std::int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

}  // namespace

TEST_CASE("coo_array: every n-D operation against SciPy 1.18") {
  const auto cs = t::cases(M, "ops");
  REQUIRE(cs.size() >= 30);
  for (const auto& c : cs) {
    CAPTURE(c.name());
    const case_arrays z(c);
    const double rt = c.rtol(), at = c.atol();
    const auto p = c.params();
    const coo_array::shape_type shape = ivec(p.at("shape"));
    const int nd = static_cast<int>(shape.size());
    coo_array A = build(z, "", shape);

    // Construction, properties, toarray.
    CHECK(A.ndim() == nd);
    CHECK(A.shape() == shape);
    CHECK(A.nnz() == z["data"].size());
    CHECK(A.dtype() == dtype_from_string(p.at("dtype").get<std::string>()));
    CHECK(std::string(dtype_name(A.index_dtype())) == p.at("index_dtype").get<std::string>());
    CHECK_FALSE(A.has_canonical_format());
    check_key(A.toarray(), z, "dense", rt, at);
    check_key(A.todense(), z, "dense", rt, at);
    CHECK_FALSE(A.has_canonical_format());  // toarray works on a private copy

    // sum_duplicates / eliminate_zeros (in place, on copies).
    {
      coo_array S = A.copy();
      S.sum_duplicates();
      CHECK(S.has_canonical_format());
      check_key(S.data(), z, "sd_data", rt, at);
      check_coords(S, z, "sd_coords");
      S.sum_duplicates();  // no-op
      check_coords(S, z, "sd_coords");
      coo_array E = A.copy();
      E.eliminate_zeros();
      check_key(E.data(), z, "ez_data", rt, at);
      check_coords(E, z, "ez_coords");
      // From dense: canonical, nonzeros in C order.
      coo_array D(A.toarray());
      CHECK(D.has_canonical_format());
      check_key(D.toarray(), z, "dense", rt, at);
      CHECK(D.index_dtype() == (nd > 2 ? dtype::int64 : dtype::int32));
    }

    // reshape
    {
      const auto rs = p.at("reshapes");
      const auto rs_idx = p.at("rs_idx").get<std::vector<std::string>>();
      const auto rs_shapes = p.at("rs_shapes");
      for (std::size_t i = 0; i < rs.size(); ++i) {
        CAPTURE(i);
        const coo_array r = A.reshape(ivec(rs.at(i)));
        CHECK(r.shape() == ivec(rs_shapes.at(i)));
        CHECK(std::string(dtype_name(r.index_dtype())) == rs_idx[i]);
        check_coords(r, z, "rs" + std::to_string(i) + "_coords");
        check_key(r.data(), z, "data", 0, 0);
      }
      const coo_array same = A.reshape(shape);
      CHECK(same.data().data() == A.data().data());  // unchanged shape: the same arrays
    }

    // transpose, mT, swapaxes, permute_dims, matrix_transpose
    {
      const auto perms = p.at("perms");
      const auto tr_shapes = p.at("tr_shapes");
      for (std::size_t i = 0; i < perms.size(); ++i) {
        CAPTURE(i);
        const coo_array r = perms.at(i).is_null() ? A.transpose() : A.transpose(to_ints(ivec(perms.at(i))));
        CHECK(r.shape() == ivec(tr_shapes.at(i)));
        CHECK(r.index_dtype() == A.index_dtype());
        check_coords(r, z, "tr" + std::to_string(i) + "_coords");
      }
      check_coords(A.T(), z, "tr0_coords");
      if (nd >= 2) {
        check_coords(A.mT(), z, "mt_coords");
        check_coords(matrix_transpose(A), z, "mt_coords");
        check_coords(permute_dims(A, to_ints(ivec(perms.at(1))), true), z, "pd_coords");
      } else {
        CHECK_THROWS_AS(A.mT(), value_error);
      }
      check_coords(swapaxes(A, 0, -1), z, "sw_coords");
    }

    // expand_dims
    {
      const auto eax = ivec(p.at("expand_axes"));
      const auto ed_idx = p.at("ed_idx").get<std::vector<std::string>>();
      for (std::size_t i = 0; i < eax.size(); ++i) {
        CAPTURE(eax[i]);
        const coo_array r = expand_dims(A, static_cast<int>(eax[i]));
        CHECK(r.ndim() == nd + 1);
        CHECK(std::string(dtype_name(r.index_dtype())) == ed_idx[i]);
        check_coords(r, z, "ed" + std::to_string(i) + "_coords");
      }
    }

    // sums
    {
      check_key(A.sum(), z, "sum", rt, at);
      const auto sax = p.at("sum_axes");
      for (std::size_t i = 0; i < sax.size(); ++i) {
        const std::string key = "sum" + std::to_string(i);
        const auto ax = sax.at(i);
        expect(z, key, [&] {
          const ndarray r = ax.is_array() ? A.sum(to_ints(ivec(ax))) : A.sum(static_cast<int>(ax.as_int64()));
          check_key(r, z, key, rt, at);
        });
      }
      if (z.contains("sumf")) check_key(A.sum(0, dtype::float64), z, "sumf", rt, at);
    }

    // astype, scalar arithmetic
    check_key(A.astype(dtype::complex128).toarray(), z, "ast_dense", rt, at);
    check_key((A * 3).data(), z, "mul_data", rt, at);
    check_key((A / 2).data(), z, "div_data", rt, at);
    check_key((A * std::complex<double>(1, 2)).data(), z, "mulc_data", rt, at);

    // sparse +/-, multiply
    const coo_array B = build(z, "B_", shape);
    expect(z, "add_dense", [&] {
      const coo_array r = A + B;
      check_key(r.toarray(), z, "add_dense", rt, at);
      if (z.contains("add_data")) {
        check_key(r.data(), z, "add_data", rt, at);
        check_coords(r, z, "add_coords");
      }
    });
    expect(z, "sub_dense", [&] { check_key((A - B).toarray(), z, "sub_dense", rt, at); });
    expect(z, "muld_dense", [&] { check_key(A.multiply(z.dev("xd")).toarray(), z, "muld_dense", rt, at); });
    expect(z, "muls_dense", [&] { check_key(A.multiply(B).toarray(), z, "muls_dense", rt, at); });

    // dense +/-
    const ndarray xd = z.dev("xd");
    expect(z, "addd_dense", [&] {
      check_key(A + xd, z, "addd_dense", rt, at);
      check_key(xd + A, z, "addd_dense", rt, at);
    });
    expect(z, "subd_dense", [&] { check_key(A - xd, z, "subd_dense", rt, at); });
    expect(z, "rsubd_dense", [&] { check_key(xd - A, z, "rsubd_dense", rt, at); });
    expect(z, "addr_dense", [&] { check_key(A.add(z.dev("x_r")), z, "addr_dense", rt, at); });

    // dense products
    for (const char* k : {"v", "m", "3"}) {
      const std::string key = std::string("dot_") + k;
      expect(z, key, [&] { check_key(A.dot(z.dev(std::string("x_") + k)), z, key, rt, at); });
    }
    for (const char* k : {"v", "m", "c", "3", "b"}) {
      if (!z.contains(std::string("x_") + k)) continue;
      const std::string key = std::string("mm_") + k;
      expect(z, key, [&] { check_key(A.matmul(z.dev(std::string("x_") + k)), z, key, rt, at); });
    }
    expect(z, "td_1", [&] { check_key(A.tensordot(z.dev("x_m"), 1), z, "td_1", rt, at); });
    if (z.contains("x_t"))
      expect(z, "td_t", [&] { check_key(A.tensordot(z.dev("x_t"), {0, -1}, {1, 2}), z, "td_t", rt, at); });

    // sparse products
    const coo_array::shape_type sshape = ivec(p.at("S_shape"));
    const coo_array S = build(z, "S_", sshape);
    expect(z, "dots_dense", [&] { check_key(A.dot(S).toarray(), z, "dots_dense", rt, at); });
    expect(z, "mms_dense", [&] { check_key(A.matmul(S).toarray(), z, "mms_dense", rt, at); });
    if (z.contains("tds_dense"))
      check_key(A.tensordot(S, {nd - 1}, {static_cast<int>(sshape.size()) - 2}).toarray(), z, "tds_dense", rt, at);
  }
}

TEST_CASE("coo_array: round trips with the 2-D matrix classes") {
  ndarray d = asarray(std::vector<double>{0, 1, 0, 2, 3, 0}).reshape({2, 3});
  const coo_array A(d);
  CHECK(A.has_canonical_format());
  CHECK(A.nnz() == 3);
  CHECK(A.index_dtype() == dtype::int32);
  t::check_allclose(A.to_coo_matrix().toarray(), to_host(d), 0, 0);
  t::check_allclose(A.tocsr().toarray(), to_host(d), 0, 0);
  const coo_array back(spmatrix(A.tocsr()));
  CHECK_FALSE(back.has_canonical_format());
  t::check_allclose(back.toarray(), to_host(d), 0, 0);
  // 1-D arrays convert as a (1, n) row.
  const coo_array v(asarray(std::vector<float>{0, 5, 0, 7}));
  CHECK(v.to_coo_matrix().shape() == shape2{1, 4});
  CHECK(v.tocsr().nnz() == 2);
  // 3-D: no matrix conversion.
  const coo_array t3 = A.reshape({1, 2, 3});
  CHECK(t3.index_dtype() == dtype::int64);
  CHECK_THROWS_AS(t3.to_coo_matrix(), value_error);
  CHECK_THROWS_AS(t3.tocsr(), value_error);
  // The empty constructor.
  const coo_array e({2, 0, 3}, dtype::int16);
  CHECK(e.nnz() == 0);
  CHECK(e.toarray().shape() == shape_t{2, 0, 3});
  CHECK(e.dtype() == dtype::int16);
  CHECK(e.sum().item<std::int64_t>() == 0);
}

TEST_CASE("coo_array: indices out of range, inferred shapes, index dtypes (device checks)") {
  const ndarray data = asarray(std::vector<double>{1, 2, 3});
  const ndarray i0 = asarray(std::vector<std::int64_t>{0, 1, 4});
  const ndarray i1 = asarray(std::vector<std::int64_t>{2, 0, 1});
  const ndarray neg = asarray(std::vector<std::int64_t>{0, -1, 1});
  CHECK_THROWS_AS(coo_array(data, std::vector<ndarray>{i0, i1}, {.shape = coo_array::shape_type{4, 3}}), value_error);
  CHECK_THROWS_AS(coo_array(data, std::vector<ndarray>{neg, i1}, {.shape = coo_array::shape_type{4, 3}}), value_error);
  const coo_array inf(data, std::vector<ndarray>{i0, i1, i1});
  CHECK(inf.shape() == coo_array::shape_type{5, 3, 3});
  CHECK(inf.index_dtype() == dtype::int64);
  // Narrow index arrays give int32 for ndim <= 2, as SciPy's get_index_dtype.
  const ndarray n0 = asarray(std::vector<std::int16_t>{0, 1, 4});
  const ndarray n1 = asarray(std::vector<std::int16_t>{2, 0, 1});
  CHECK(coo_array(data, std::vector<ndarray>{n0, n1}).index_dtype() == dtype::int32);
  CHECK(coo_array(data, std::vector<ndarray>{i0, i1}).index_dtype() == dtype::int64);
  // Float index arrays are refused.
  CHECK_THROWS_AS(coo_array(data, std::vector<ndarray>{data}), type_error);
  // dtype= casts the values; copy=false shares a contiguous data array of the right dtype.
  const coo_array c32(data, std::vector<ndarray>{i0}, {.dtype = dtype::float32});
  CHECK(c32.dtype() == dtype::float32);
  const coo_array shared(data, std::vector<ndarray>{i0});
  CHECK(shared.data().data() == data.data());
  const coo_array copied(data, std::vector<ndarray>{i0}, {.copy = true});
  CHECK(copied.data().data() != data.data());
}
