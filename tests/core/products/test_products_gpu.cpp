// GPU tests of matmul, dot, vdot, inner, outer, tensordot and einsum against NumPy goldens
// (tests/golden/gen_core_products.py), plus layout paths the goldens cannot name (pointer-array
// batches, folded batches, non-default streams, TF32 switch).

#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/products.hpp"
#include "cusci/reduction.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;
using cusci::testing::check_allclose;
using cusci::testing::golden;

namespace {

const char* kModule = "core_products";

using cusci::testing::golden_case;

/// A copy of `a` with `shape` (the same elements): the case gives each array's shape, as a 0-d array
/// may be stored with shape (1,).
host_array with_shape(const host_array& a, const shape_t& shape) {
  host_array h(a.dtype(), shape);
  REQUIRE(h.nbytes() == a.nbytes());
  std::memcpy(h.data(), a.data(), a.nbytes());
  return h;
}

/// The operand view named by `code` built from the stored base (see the generator's docstring).
ndarray make_view(const ndarray& base, const std::string& code) {
  const int nd = base.ndim();
  if (code == "c" || nd == 0) return base;
  if (code == "f") return base.copy(order::F);
  if (code == "t") {
    std::vector<int> perm(nd);
    for (int i = 0; i < nd; ++i) perm[i] = i;
    if (nd >= 2) std::swap(perm[nd - 1], perm[nd - 2]);
    return base.transpose(perm);
  }
  std::vector<index_spec> idx;
  idx.push_back(ellipsis);
  if (code == "s") idx.push_back(slice{{}, {}, 2});
  else if (code == "n") idx.push_back(slice{{}, {}, -1});
  else throw std::invalid_argument("unknown view code " + code);
  return base[idx];
}

/// tensordot's axes: an int, or [axes of a, axes of b].
tensordot_axes axes_of(const golden_case& c) {
  if (c.params().at("axes").is_number_integer()) return c.get<int>("axes");
  const auto p = c.get<std::vector<std::vector<int>>>("axes");
  REQUIRE(p.size() == 2);
  return std::pair<std::vector<int>, std::vector<int>>(p[0], p[1]);
}

using product_fn = std::function<ndarray(const golden_case&, const std::vector<ndarray>&)>;
const std::map<std::string, product_fn>& products() {
  static const std::map<std::string, product_fn> table = {
      {"matmul", [](const golden_case&, const std::vector<ndarray>& o) { return matmul(o[0], o[1]); }},
      {"dot", [](const golden_case&, const std::vector<ndarray>& o) { return dot(o[0], o[1]); }},
      {"vdot", [](const golden_case&, const std::vector<ndarray>& o) { return vdot(o[0], o[1]); }},
      {"inner", [](const golden_case&, const std::vector<ndarray>& o) { return inner(o[0], o[1]); }},
      {"outer", [](const golden_case&, const std::vector<ndarray>& o) { return outer(o[0], o[1]); }},
      {"tensordot",
       [](const golden_case& c, const std::vector<ndarray>& o) { return tensordot(o[0], o[1], axes_of(c)); }},
      {"einsum",
       [](const golden_case& c, const std::vector<ndarray>& o) { return einsum(c.get<std::string>("subscripts"), o); }},
  };
  return table;
}

ndarray run(const golden_case& c, const std::vector<ndarray>& ops) {
  const auto it = products().find(c.func());
  if (it == products().end()) throw std::invalid_argument("unknown function " + c.func());
  return it->second(c, ops);
}

std::string shape_text(const shape_t& s) {
  std::ostringstream os;
  os << '(';
  for (std::size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
  os << ')';
  return os.str();
}

/// One case. Shape mismatches and unexpected exceptions are recorded as failures of the case (not
/// fatal), so that every case runs.
void run_case(const golden_case& c) {
  const auto operands = c.get<std::vector<std::string>>("operands");
  const auto views = c.get<std::vector<std::string>>("views");
  const auto shapes = c.get<std::vector<shape_t>>("shapes");
  REQUIRE(views.size() == operands.size());
  REQUIRE(shapes.size() == operands.size());
  std::vector<ndarray> ops;
  for (std::size_t i = 0; i < operands.size(); ++i)
    ops.push_back(make_view(asarray(with_shape(golden(kModule, operands[i]), shapes[i])), views[i]));
  if (c.expects_error() && c.error() != "value_error" && c.error() != "index_error") {
    FAIL_CHECK("unknown error kind " << c.error());
  } else if (c.expects_error()) {
    cusci::testing::check_error(c, [&] { return run(c, ops); });
  } else {
    const ndarray r = run(c, ops);
    CHECK(r.is_c_contiguous());
    const host_array actual = to_host(r);
    const host_array expected = with_shape(c.array("expected"), c.get<shape_t>("out_shape"));
    if (actual.shape() != expected.shape()) {
      FAIL_CHECK("shape " << shape_text(actual.shape()) << " != expected " << shape_text(expected.shape()));
      return;
    }
    check_allclose(actual, expected, c.rtol(), c.atol());
  }
}

void run_cases(const std::string& func) {
  int n = 0;
  for (const auto& c : cusci::testing::cases(kModule, func)) {
    const std::string name = c.name();
    ++n;
    CAPTURE(name);
    // A host crash (signal) cannot be turned into a failed check and doctest does not print the
    // captured context for it: name the case on stderr first, so that a crash log says which case.
    std::fprintf(stderr, "[core_products] %s\n", name.c_str());
    try {
      run_case(c);
    } catch (const std::exception& e) {
      FAIL_CHECK("threw " << e.what());
    }
  }
  CHECK(n > 0);
}

host_array filled(const shape_t& shape, double scale) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>((i * 7919) % 23 - 11) / 11.0;
  return host_array::from(v, shape);
}

/// Host reference of a batched matmul (float64) for the layout tests below.
host_array ref_matmul(const host_array& a, const host_array& b) {
  // a [B, n, k], b [B, k, m] (C order, float64) -> [B, n, m]
  const auto B = a.shape()[0], n = a.shape()[1], k = a.shape()[2], m = b.shape()[2];
  std::vector<double> out(static_cast<std::size_t>(B * n * m), 0.0);
  const double* pa = a.data_as<double>();
  const double* pb = b.data_as<double>();
  for (std::int64_t z = 0; z < B; ++z)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < m; ++j) {
        double s = 0;
        for (std::int64_t p = 0; p < k; ++p) s += pa[(z * n + i) * k + p] * pb[(z * k + p) * m + j];
        out[(z * n + i) * m + j] = s;
      }
  return host_array::from(out, {B, n, m});
}

}  // namespace

TEST_CASE("matmul goldens") { run_cases("matmul"); }
TEST_CASE("dot goldens") { run_cases("dot"); }
TEST_CASE("vdot goldens") { run_cases("vdot"); }
TEST_CASE("inner goldens") { run_cases("inner"); }
TEST_CASE("outer goldens") { run_cases("outer"); }
TEST_CASE("tensordot goldens") { run_cases("tensordot"); }
TEST_CASE("einsum goldens") { run_cases("einsum"); }

TEST_CASE("matmul: batch layouts that need a pointer array, a fold or strided batches agree") {
  // a [4, 3, 5, 6] sliced to [4, 3:1:-1 ...] style non-uniform batches: take every other batch of
  // the outer axis and a reversed inner batch axis, so the batch strides do not collapse.
  const host_array ha = filled({4, 3, 5, 6}, 1.0), hb = filled({4, 3, 6, 2}, 0.5);
  const ndarray a = asarray(ha), b = asarray(hb);
  const ndarray av = a[{slice{{}, {}, 2}, slice{{}, {}, -1}}];  // [2, 3, 5, 6], non-uniform batch strides
  const ndarray bv = b[{slice{{}, {}, 2}, slice{{}, {}, -1}}];
  const ndarray r = matmul(av, bv);
  REQUIRE(r.shape() == shape_t{2, 3, 5, 2});
  // Reference: the same views copied to C order, flattened to one batch.
  const host_array ca = to_host(av.copy().reshape({6, 5, 6})), cb = to_host(bv.copy().reshape({6, 6, 2}));
  check_allclose(to_host(r.reshape({6, 5, 2})), ref_matmul(ca, cb), 1e-12, 1e-12);
  // float32 through the same path
  const ndarray r32 = matmul(av.astype(dtype::float32), bv.astype(dtype::float32));
  check_allclose(to_host(r32.reshape({6, 5, 2})).astype(dtype::float64), ref_matmul(ca, cb), 1e-5, 1e-5, false);
  // Folded batch: [8, 5, 6] @ [6, 2] as one GEMM, compared with the explicitly broadcast operand.
  const ndarray a3 = a.reshape({12, 5, 6});
  const ndarray b2 = asarray(filled({6, 2}, 0.25));
  const ndarray rf = matmul(a3, b2);
  const ndarray rb = matmul(a3, b2.broadcast_to({12, 6, 2}).copy());
  check_allclose(to_host(rf), to_host(rb), 1e-12, 1e-12);
  // Broadcast left operand: [6, 5] @ [12, 5, 2]
  const ndarray a2 = asarray(filled({6, 5}, 1.0));
  const ndarray b3 = asarray(filled({12, 5, 2}, 1.0));
  check_allclose(to_host(matmul(a2, b3)), to_host(matmul(a2.broadcast_to({12, 6, 5}).copy(), b3)), 1e-12, 1e-12);
}

TEST_CASE("matmul and dot on a non-blocking stream") {
  cusci::stream s(true);
  const host_array ha = filled({1, 33, 17}, 1.0), hb = filled({1, 17, 9}, 1.0);
  {
    cusci::stream_guard g(s);
    const ndarray a = asarray(filled({33, 17}, 1.0)), b = asarray(filled({17, 9}, 1.0));
    const ndarray r = matmul(a, b);
    const ndarray d = dot(a[std::int64_t{0}], a[std::int64_t{1}]);
    s.synchronize();
    check_allclose(to_host(r.reshape({1, 33, 9})), ref_matmul(ha, hb), 1e-12, 1e-12);
    double ref = 0;
    for (int i = 0; i < 17; ++i) ref += ha.data_as<double>()[i] * ha.data_as<double>()[17 + i];
    CHECK(d.item<double>() == doctest::Approx(ref).epsilon(1e-12));
  }
  // Back on the default stream while `s` still exists: the thread's cuBLAS handle (and its workspace)
  // is rebound here rather than after `s` is destroyed, and the product is right there too.
  const ndarray r0 = matmul(asarray(filled({3, 17}, 1.0)), asarray(filled({17, 2}, 1.0)));
  check_allclose(to_host(r0.reshape({1, 3, 2})), ref_matmul(filled({1, 3, 17}, 1.0), filled({1, 17, 2}, 1.0)), 1e-12,
                 1e-12);
  s.synchronize();
}

TEST_CASE("TF32 switch: off by default, float32 products stay float32-accurate") {
  CHECK_FALSE(get_allow_tf32());
  const host_array ha = filled({1, 64, 256}, 1.0), hb = filled({1, 256, 48}, 1.0);
  const ndarray a = asarray(ha.astype(dtype::float32)).reshape({64, 256});
  const ndarray b = asarray(hb.astype(dtype::float32)).reshape({256, 48});
  const host_array ref = ref_matmul(ha.astype(dtype::float32).astype(dtype::float64), hb.astype(dtype::float32).astype(dtype::float64));
  check_allclose(to_host(matmul(a, b).reshape({1, 64, 48})).astype(dtype::float64), ref, 1e-5, 1e-5, false);
  set_allow_tf32(true);
  CHECK(get_allow_tf32());
  // TF32 keeps ~10 mantissa bits: only a loose bound holds.
  check_allclose(to_host(matmul(a, b).reshape({1, 64, 48})).astype(dtype::float64), ref, 1e-2, 5e-2, false);
  set_allow_tf32(false);
}

TEST_CASE("einsum matches matmul and sum for batched and reduced forms") {
  const ndarray a = asarray(filled({3, 4, 5}, 1.0)), b = asarray(filled({3, 5, 2}, 1.0));
  check_allclose(to_host(einsum("bij,bjk->bik", a, b)), to_host(matmul(a, b)), 1e-12, 1e-12);
  check_allclose(to_host(einsum("bij->", a)), to_host(cusci::sum(a)), 1e-12, 1e-12);
  // einsum never returns a view of its operand
  const ndarray c = einsum("bij->bij", a);
  CHECK(c.memory() != a.memory());
}
