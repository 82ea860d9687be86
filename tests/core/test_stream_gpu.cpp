// Streams, the current-stream guard, events and devices.
#include <doctest/doctest.h>

#include <thread>

#include "cusci/core.hpp"

using namespace cusci;

TEST_CASE("the current stream defaults to the null stream and follows nested guards") {
  CHECK(get_current_stream() == nullptr);
  stream s1, s2(true);
  {
    stream_guard g1(s1);
    CHECK(get_current_stream() == s1.handle());
    {
      stream_guard g2(s2);
      CHECK(get_current_stream() == s2.handle());
    }
    CHECK(get_current_stream() == s1.handle());
  }
  CHECK(get_current_stream() == nullptr);
  stream n = stream::null();
  CHECK(n.handle() == nullptr);
  CHECK(stream::per_thread().handle() == cudaStreamPerThread);
}

TEST_CASE("the current stream is per thread") {
  stream s;
  stream_guard g(s);
  cudaStream_t seen = reinterpret_cast<cudaStream_t>(1);
  std::thread t([&] { seen = get_current_stream(); });
  t.join();
  CHECK(seen == nullptr);
  CHECK(get_current_stream() == s.handle());
}

TEST_CASE("events time work and order streams") {
  stream s(true);
  stream_guard g(s);
  memory_ptr m = cusci::malloc(64 << 20);
  event a, b;
  a.record();
  CHECK(cudaMemsetAsync(m->ptr(), 1, 64 << 20, s.handle()) == cudaSuccess);
  b.record();
  const float ms = get_elapsed_time(a, b);
  CHECK(ms >= 0.0f);
  CHECK(b.done());
  s.synchronize();
  CHECK(s.done());
  event nt(true);
  nt.record(s);
  nt.synchronize();
  CHECK_THROWS_AS(get_elapsed_time(a, nt), cuda_error);
  stream other(true);
  b.wait_on(other.handle());
  other.synchronize();
  stream moved = std::move(s);
  CHECK(moved.handle() != nullptr);
}

TEST_CASE("devices: count, current device, guard, invalid id") {
  CHECK(device_count() >= 1);
  CHECK(is_available());
  const int d = get_device_id();
  {
    device_guard g(0);
    CHECK(get_device_id() == 0);
  }
  CHECK(get_device_id() == d);
  CHECK_THROWS_AS(device_guard{device_count()}, index_error);  // braces: not a declaration
  CHECK_THROWS_AS(set_device(-1), index_error);
  device_synchronize();
}
