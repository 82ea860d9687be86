// GPU tests of cusci::linalg's special matrices against scipy.linalg 1.18 (tests/golden/gen_linalg_special.py):
// every case of the references (dtypes, batches, C/F/strided inputs, empty and 1x1 results, every
// option, SciPy's errors), on the null stream and on a non-blocking stream.

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cusci/linalg/special_matrices.hpp"
#include "cusci/stream.hpp"
#include "linalg_cases.hpp"
#include "testing.hpp"

using namespace cusci;
using namespace cusci::testing::linalg_cases;

namespace {

const std::string mod = "linalg_special";

ndarray call(const cusci::testing::golden_case& c) {
  const std::string f = c.func();
  const std::string layout = c.get<std::string>("layout");
  auto in = [&](const char* key) { return to_device(c.array(key), layout); };
  auto opt = [&](const char* key) -> std::optional<ndarray> {
    if (!c.has(key)) return std::nullopt;
    return in(key);
  };
  if (f == "toeplitz") return linalg::toeplitz(in("c"), opt("r"));
  if (f == "circulant") return linalg::circulant(in("c"));
  if (f == "hankel") return linalg::hankel(in("c"), opt("r"));
  if (f == "companion") return linalg::companion(in("a"));
  if (f == "convolution_matrix")
    return linalg::convolution_matrix(in("a"), c.get<std::int64_t>("n"),
                                      linalg::parse_convolution_mode(c.get<std::string>("mode")));
  if (f == "fiedler") return linalg::fiedler(in("a"));
  if (f == "fiedler_companion") return linalg::fiedler_companion(in("a"));
  if (f == "leslie") return linalg::leslie(in("f"), in("s"));
  if (f == "block_diag") {
    std::vector<ndarray> arrs;
    for (const auto& nm : c.get<std::vector<std::string>>("arrs"))
      arrs.push_back(to_device(cusci::testing::golden(mod, nm), layout));
    return linalg::block_diag(arrs);
  }
  if (f == "khatri_rao") return linalg::khatri_rao(in("a"), in("b"));
  const std::int64_t n = c.get<std::int64_t>("n");
  if (f == "hadamard") return linalg::hadamard(n, dtype_from_string(c.get<std::string>("dtype")));
  if (f == "hilbert") return linalg::hilbert(n);
  if (f == "invhilbert") return linalg::invhilbert(n, c.get<bool>("exact"));
  if (f == "pascal")
    return linalg::pascal(n, linalg::parse_pascal_kind(c.get<std::string>("kind")), c.get<bool>("exact"));
  if (f == "invpascal")
    return linalg::invpascal(n, linalg::parse_pascal_kind(c.get<std::string>("kind")), c.get<bool>("exact"));
  if (f == "helmert") return linalg::helmert(n, c.get<bool>("full"));
  if (f == "dft")
    return linalg::dft(n, c.has("scale") ? linalg::parse_dft_scale(c.get<std::string>("scale")) : linalg::dft_scale::none);
  throw std::runtime_error("case " + c.name() + ": unknown func " + f);
}

void run_case(const cusci::testing::golden_case& c) {
  INFO("case " << c.name());
  if (c.expects_error()) {
    cusci::testing::check_error(c, [&] { return call(c); });
    return;
  }
  ndarray x;
  REQUIRE_NOTHROW(x = call(c));
  CHECK(x.is_c_contiguous());
  const host_array e = c.array("expected");
  cusci::testing::check_allclose(x, e, c.rtol(), c.atol());
  // integers beyond 2^53 (pascal, invhilbert, invpascal exact) compare exactly, byte for byte
  if (is_integer(e.dtype()) && x.dtype() == e.dtype() && x.shape() == e.shape()) {
    const host_array h = to_host(x);
    CHECK(std::memcmp(h.data(), e.data(), e.nbytes()) == 0);
  }
}

}  // namespace

TEST_CASE("special matrices match scipy.linalg (references)") {
  const auto& cases = cusci::testing::cases(mod);
  REQUIRE(cases.size() > 400);
  for (const auto& c : cases) run_case(c);
}

TEST_CASE("special matrices on a non-blocking stream") {
  // one case per kind of work: gathers, formulas of each item size, core-ufunc paths, the synchronizing
  // leading-coefficient test, block copies
  run_on_nonblocking_stream(mod, {"toeplitz_batch_strided", "circulant_large", "companion_batch_F", "fcomp_large",
                                  "convmtx_same_batch_F", "block_diag_batch_strided", "khatri_rao_large",
                                  "fiedler_large", "hadamard_float16_8", "pascal_symmetric_34_1", "invhilbert_12_0",
                                  "dft_257_sqrtn"}, run_case);
}

TEST_CASE("inputs are not modified") {
  const host_array h = cusci::testing::golden(mod, "companion_large_a");
  const ndarray a = asarray(h);
  (void)linalg::companion(a);
  (void)linalg::fiedler_companion(a);
  (void)linalg::toeplitz(a);
  cusci::testing::check_allclose(a, h, 0.0, 0.0);
}
