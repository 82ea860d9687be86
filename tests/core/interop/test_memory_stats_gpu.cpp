// Pool statistics and memory hooks on the device: a hook sees the allocation and release of an
// ndarray's block with the right sizes and pointer; used/total/peak/counters move as expected.
#include <doctest/doctest.h>

#include <sstream>
#include <vector>

#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/stream.hpp"

using namespace cusci;

namespace {
struct recording_hook : memory_hook {
  std::vector<std::pair<std::string, memory_hook_event>> events;
  void malloc_preprocess(const memory_hook_event& e) override { events.emplace_back("malloc_pre", e); }
  void malloc_postprocess(const memory_hook_event& e) override { events.emplace_back("malloc_post", e); }
  void alloc_preprocess(const memory_hook_event& e) override { events.emplace_back("alloc_pre", e); }
  void alloc_postprocess(const memory_hook_event& e) override { events.emplace_back("alloc_post", e); }
  void free_preprocess(const memory_hook_event& e) override { events.emplace_back("free_pre", e); }
  void free_postprocess(const memory_hook_event& e) override { events.emplace_back("free_post", e); }
};
}  // namespace

TEST_CASE("a memory hook sees an ndarray's allocation and release") {
  memory_pool& pool = get_default_memory_pool();
  pool.free_all_blocks();  // the first allocation below goes to the device (alloc events too)
  recording_hook h;
  void* ptr = nullptr;
  {
    memory_hook_guard g(h);
    {
      ndarray a({1000}, dtype::float64);  // 8000 bytes -> a 8192-byte block
      ptr = a.data();
    }
    ndarray b({1000}, dtype::float64);  // served from the cache: malloc events only
    CHECK(b.data() == ptr);
  }
  std::vector<std::string> names;
  for (const auto& [n, e] : h.events) names.push_back(n);
  CHECK(names == std::vector<std::string>{"malloc_pre", "alloc_pre", "alloc_post", "malloc_post", "free_pre", "free_post",
                                          "malloc_pre", "malloc_post", "free_pre", "free_post"});
  for (const auto& [n, e] : h.events) {
    CAPTURE(n);
    CHECK(e.mem_size == 8192);
    CHECK(e.pool == &pool);
    CHECK(e.device_id == pool.device());
    if (n.find("malloc") == 0) CHECK(e.size == 8000);
    if (n != "malloc_pre" && n != "alloc_pre") CHECK(e.mem_ptr == ptr);
  }
}

TEST_CASE("debug_print_hook and counting_hook over real allocations") {
  std::ostringstream os;
  debug_print_hook p(os);
  counting_hook c;
  {
    memory_hook_guard g1(p);
    memory_hook_guard g2(c);
    ndarray a({10}, dtype::int32);
  }
  CHECK(c.n_mallocs() == 1);
  CHECK(c.malloc_bytes() == 512);
  CHECK(c.n_frees() == 1);
  CHECK(os.str().find("{\"hook\":\"malloc\"") != std::string::npos);
  CHECK(os.str().find("{\"hook\":\"free\"") != std::string::npos);
}

TEST_CASE("pool statistics: used, total, free blocks, peak with reset, counters") {
  memory_pool& pool = get_default_memory_pool();
  synchronize();
  pool.free_all_blocks();
  const pool_statistics s0 = pool.statistics();
  CHECK(s0.n_free_blocks == 0);
  CHECK(s0.free_bytes == 0);
  pool.reset_peak_used_bytes();
  CHECK(pool.peak_used_bytes() == s0.used_bytes);
  {
    ndarray a({1 << 20}, dtype::uint8);  // 1 MiB
    ndarray b({3000}, dtype::float32);   // 12000 -> 12288
    const pool_statistics s1 = pool.statistics();
    CHECK(s1.used_bytes == s0.used_bytes + (1 << 20) + 12288);
    CHECK(s1.total_bytes == s0.total_bytes + (1 << 20) + 12288);
    CHECK(s1.n_used_blocks == s0.n_used_blocks + 2);
    CHECK(s1.n_allocations == s0.n_allocations + 2);
    CHECK(s1.n_device_allocations == s0.n_device_allocations + 2);
    CHECK(s1.peak_used_bytes == s1.used_bytes);
  }
  const pool_statistics s2 = pool.statistics();
  CHECK(s2.used_bytes == s0.used_bytes);
  CHECK(s2.n_free_blocks == 2);
  CHECK(s2.free_bytes == (1 << 20) + 12288);
  CHECK(s2.peak_used_bytes == s0.used_bytes + (1 << 20) + 12288);  // the peak remembers
  CHECK(pool.n_allocations() == s0.n_allocations + 2);
  pool.reset_peak_used_bytes();
  CHECK(pool.peak_used_bytes() == s2.used_bytes);
  { ndarray c({3000}, dtype::float32); }  // the cached 12288-byte block: no new device allocation
  CHECK(pool.statistics().n_device_allocations == s2.n_device_allocations);
  CHECK(pool.n_allocations() == s0.n_allocations + 3);
  pool.free_all_blocks();
  CHECK(pool.n_free_blocks() == 0);
  CHECK(pool.total_bytes() == pool.used_bytes());
}
