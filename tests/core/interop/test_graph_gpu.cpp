// CUDA graph capture: a captured sequence of elementwise operations and a reduction, launched
// several times with changed input contents, against direct execution; the pool stays untouched
// during capture; a synchronizing operation inside a capture throws a clear error and leaves the
// stream usable; argument errors.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/graph.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"
#include "cusci/stream.hpp"
#include "testing.hpp"

using namespace cusci;

namespace {

std::vector<double> inputs(int round, std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(0.37 * static_cast<double>(i) + round) * (round + 1);
  return v;
}

/// The sequence under test: elementwise ops into a kept result and a reduction.
void pipeline(const ndarray& x, const ndarray& w, ndarray& y, ndarray& s) {
  ndarray t = multiply(x, 2.0);  // a temporary allocated and dropped inside the sequence
  y = add(t, w);
  y = maximum(y, 0.5);
  s = sum(multiply(y, y));
}

}  // namespace

TEST_CASE("captured elementwise ops and a reduction replay like direct execution") {
  stream st(true);
  stream_guard sg(st);
  const std::size_t n = 100003;
  ndarray x = asarray(inputs(0, n));
  const ndarray w = asarray(inputs(7, n));
  {  // warm-up: kernels loaded, caches filled, before capture
    ndarray y0, s0;
    pipeline(x, w, y0, s0);
    synchronize();
  }
  memory_pool& pool = get_default_memory_pool();
  const std::size_t allocs_before = pool.n_allocations();
  ndarray y, s;
  graph g;
  CHECK_FALSE(g.ready());
  g.capture([&] { pipeline(x, w, y, s); });
  CHECK(g.ready());
  CHECK_FALSE(g.capturing());
  CHECK(g.num_nodes() > 0);
  CHECK(g.device() == st.device());
  CHECK(pool.n_allocations() == allocs_before);  // captured allocations bypass the pool
  g.upload();
  for (int round = 1; round <= 3; ++round) {
    CAPTURE(round);
    const std::vector<double> in = inputs(round, n);
    // New contents in the same array (the graph holds its address).
    CUSCI_CUDA_TRY(cudaMemcpyAsync(x.data(), in.data(), n * sizeof(double), cudaMemcpyHostToDevice, st.handle()));
    g.launch();
    const host_array y_graph = to_host(y), s_graph = to_host(s);
    ndarray y_ref, s_ref;
    pipeline(x, w, y_ref, s_ref);
    testing::check_allclose(y_graph, to_host(y_ref), 0, 0);
    testing::check_allclose(s_graph, to_host(s_ref), 1e-12, 0);
  }
}

TEST_CASE("a synchronizing operation inside a capture throws and leaves the stream usable") {
  stream st(true);
  stream_guard sg(st);
  const ndarray x = asarray(inputs(1, 1000));
  { ndarray warm = add(x, 1.0); synchronize(); }
  graph g;
  std::string msg;
  try {
    g.capture([&] {
      ndarray t = add(x, 1.0);
      (void)t.item<double>();  // 1000 elements: value_error before any device work
    });
  } catch (const value_error&) {
    msg = "value_error";
  } catch (const cuda_error& e) {
    msg = e.what();
  }
  CHECK(msg == "value_error");  // a non-CUDA exception also abandons the capture and propagates
  CHECK_FALSE(is_capturing());
  msg.clear();
  try {
    g.capture([&] {
      ndarray total = sum(x);
      (void)total.item<double>();  // synchronizes: cannot be captured
    });
  } catch (const cuda_error& e) {
    msg = e.what();
  }
  CHECK_MESSAGE(msg.find("cannot be captured") != std::string::npos, msg);
  CHECK_MESSAGE(msg.find("cusci::graph::capture") != std::string::npos, msg);
  CHECK_FALSE(g.ready());
  CHECK_FALSE(g.capturing());
  CHECK_FALSE(is_capturing());
  // the stream works normally afterwards
  const ndarray y = add(x, 1.0);
  const host_array hy = to_host(y), hx = to_host(x);
  for (int i = 0; i < 1000; ++i) CHECK(hy.data_as<double>()[i] == hx.data_as<double>()[i] + 1.0);
  double host_sum = 0;
  for (int i = 0; i < 1000; ++i) host_sum += hx.data_as<double>()[i];
  CHECK(sum(x).item<double>() == doctest::Approx(host_sum).epsilon(1e-12));
}

TEST_CASE("graph argument errors") {
  graph g;
  CHECK_THROWS_AS(g.launch(), value_error);
  CHECK_THROWS_AS(g.upload(), value_error);
  CHECK_THROWS_AS(g.end_capture(), value_error);
  {  // the legacy default stream cannot be captured
    stream_guard sg(stream::null());
    CHECK_THROWS_AS(g.capture([] {}), value_error);
    CHECK_THROWS_AS(g.begin_capture(), value_error);
  }
  stream st(true);
  stream_guard sg(st);
  g.begin_capture();
  CHECK(g.capturing());
  CHECK(is_capturing());
  graph g2;
  CHECK_THROWS_AS(g2.begin_capture(), value_error);  // the stream is already capturing
  CHECK_THROWS_AS(g.begin_capture(), value_error);
  g.end_capture();  // an empty capture is a valid (empty) graph
  CHECK(g.ready());
  g.launch();
  synchronize();
  graph moved = std::move(g);
  CHECK(moved.ready());
  CHECK_FALSE(g.ready());
}
