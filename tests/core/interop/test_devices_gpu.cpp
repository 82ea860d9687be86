// Several devices: to_device on one device (same array or a copy), peer-access queries, and
// copies between devices (skipped with a message on machines with fewer than two GPUs).
#include <string>

#include <doctest/doctest.h>

#include <vector>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;

namespace {
ndarray sample(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 3.0f;
  return asarray(v, shape);
}
}  // namespace

TEST_CASE("to_device on the array's own device") {
  const ndarray a = sample({5, 7});
  const int d = a.device();
  const ndarray same = to_device(a, d);
  CHECK(same.data() == a.data());
  const ndarray c = to_device(a, d, true);
  CHECK(c.data() != a.data());
  testing::check_allclose(to_host(c), to_host(a), 0, 0);
  const ndarray f = to_device(a.T(), d, true);  // F-contiguous stays F
  CHECK(f.is_f_contiguous());
  testing::check_allclose(to_host(f), to_host(a.T()), 0, 0);
  CHECK_THROWS_AS((void)to_device(a, device_count()), index_error);
  CHECK_THROWS_AS((void)to_device(a, -1), index_error);
  CHECK(can_access_peer(d, d));
  CHECK(enable_peer_access(d));
  CHECK_THROWS_AS((void)can_access_peer(d, device_count()), index_error);
}

TEST_CASE("to_device between two devices" * doctest::skip(device_count() < 2)) {
  const ndarray a = sample({64, 33});
  const int src = a.device(), dst = (src + 1) % device_count();
  const bool peer = can_access_peer(dst, src);
  // std::string: doctest prints a bare const char* operand as a pointer.
  MESSAGE("peer access " << dst << " -> " << src << ": " << std::string(peer ? "yes" : "no (staged through host)"));
  for (const ndarray& v : {a, a.T(), a[{slice{1, std::nullopt, 3}, slice{std::nullopt, std::nullopt, -2}}]}) {
    const ndarray b = to_device(v, dst);
    CHECK(b.device() == dst);
    CHECK(b.shape() == v.shape());
    CHECK(b.dtype() == v.dtype());
    testing::check_allclose(to_host(b), to_host(v), 0, 0);
    const ndarray back = to_device(b, src);
    CHECK(back.device() == src);
    testing::check_allclose(to_host(back), to_host(v), 0, 0);
  }
  {  // the destination's current stream sees the copy; the source array may go at once
    device_guard g(dst);
    stream s(true);
    stream_guard sg(s);
    ndarray b;
    host_array want;
    {
      device_guard back(src);
      ndarray tmp = sample({1000});
      want = to_host(tmp);
      b = to_device(tmp, dst);
    }  // tmp is released at once: its pool must not reuse the block before the copy has read it
    testing::check_allclose(to_host(b), want, 0, 0);
  }
  device_guard back(src);
  const ndarray e = to_device(sample({0, 4}), dst);
  CHECK(e.size() == 0);
  CHECK(e.device() == dst);
}
