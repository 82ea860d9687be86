// The caching memory pool: reuse without cudaFree, rounding, statistics, limits, out_of_memory and
// recovery, stream-aware reuse, the other allocators, and the pinned pool.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "cusci/core.hpp"

using namespace cusci;

TEST_CASE("pool rounds to 512 bytes and reuses freed blocks on the same stream") {
  memory_pool& pool = get_default_memory_pool();
  pool.free_all_blocks();
  const std::size_t used0 = pool.used_bytes();
  void* first = nullptr;
  {
    memory_ptr a = cusci::malloc(1000);
    first = a->ptr();
    CHECK(a->size() == 1024);
    CHECK(pool.used_bytes() == used0 + 1024);
    CHECK(reinterpret_cast<std::uintptr_t>(a->ptr()) % 256 == 0);
  }
  CHECK(pool.used_bytes() == used0);
  CHECK(pool.n_free_blocks() >= 1);
  const std::size_t total = pool.total_bytes();
  {
    memory_ptr b = cusci::malloc(900);  // same rounded size: the cached block comes back
    CHECK(b->ptr() == first);
    CHECK(pool.total_bytes() == total);
  }
  memory_ptr z = cusci::malloc(0);
  CHECK(z->ptr() == nullptr);
  CHECK(z->size() == 0);
  pool.free_all_blocks();
  CHECK(pool.n_free_blocks() == 0);
  CHECK(pool.free_bytes() == 0);
  CHECK(pool.total_bytes() == pool.used_bytes());
}

TEST_CASE("a block freed on one stream is not handed to another stream") {
  memory_pool& pool = get_default_memory_pool();
  pool.free_all_blocks();
  stream s1(true), s2(true);
  void* p1 = nullptr;
  {
    memory_ptr a = cusci::malloc(4096, s1.handle());
    p1 = a->ptr();
    CHECK(a->stream() == s1.handle());
  }
  memory_ptr b = cusci::malloc(4096, s2.handle());
  CHECK(b->ptr() != p1);
  memory_ptr c = cusci::malloc(4096, s1.handle());
  CHECK(c->ptr() == p1);
  {
    stream_guard g(s1);
    memory_ptr d = cusci::malloc(4096);  // the current stream is s1
    CHECK(d->stream() == s1.handle());
  }
}

TEST_CASE("a block freed on one thread's per-thread stream is not handed to another thread's") {
  // cudaStreamPerThread is one handle naming a different stream in every thread: the pool keys it by
  // thread, and the block goes back to the thread that allocated it, wherever it is freed.
  memory_pool& pool = get_default_memory_pool();
  pool.free_all_blocks();
  const cudaStream_t pts = cudaStreamPerThread;
  void* p1 = nullptr;
  memory_ptr held;
  std::thread t1([&] {
    {
      memory_ptr a = cusci::malloc(8192, pts);
      p1 = a->ptr();
      CHECK(a->stream() == pts);
    }
    memory_ptr again = cusci::malloc(8192, pts);  // the same thread: its own cached block comes back
    CHECK(again->ptr() == p1);
    held = again;  // freed below, on the main thread
  });
  t1.join();
  held.reset();  // returns to t1's list, not to the main thread's
  memory_ptr b = cusci::malloc(8192, pts);
  CHECK(b->ptr() != p1);
}

TEST_CASE("set_limit: out_of_memory states the numbers, cached blocks are freed first, the program goes on") {
  memory_pool& pool = get_default_memory_pool();
  pool.free_all_blocks();
  const std::size_t base = pool.total_bytes();
  pool.set_limit(base + (64u << 20));
  CHECK(pool.get_limit() == base + (64u << 20));
  {
    memory_ptr a = cusci::malloc(32u << 20);
    try {
      memory_ptr b = cusci::malloc(48u << 20);
      FAIL("expected out_of_memory");
    } catch (const out_of_memory& e) {
      CHECK(e.requested_bytes() == (48u << 20));
      CHECK(e.limit_bytes() == base + (64u << 20));
      CHECK(e.used_bytes() >= (32u << 20));
      CHECK(std::string(e.what()).find("limit") != std::string::npos);
    }
  }
  // a is back in the cache; a different size over the limit frees the cache and then fits.
  memory_ptr c = cusci::malloc(60u << 20);
  CHECK(c->size() == (60u << 20));
  c.reset();
  pool.set_limit(0);
  CHECK_THROWS_AS(pool.set_limit_fraction(1.5), value_error);
  pool.set_limit_fraction(1.0);
  CHECK(pool.get_limit() > 0);
  pool.set_limit(0);
}

TEST_CASE("a real device out-of-memory raises out_of_memory and later allocations still work") {
  std::size_t free_b = 0, total_b = 0;
  REQUIRE(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess);
  CHECK_THROWS_AS(cusci::malloc(total_b * 2), out_of_memory);
  memory_ptr ok = cusci::malloc(1 << 20);
  CHECK(ok->ptr() != nullptr);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("set_allocator: cudaMallocAsync and plain cudaMalloc") {
  for (allocator_kind k : {allocator_kind::malloc_async, allocator_kind::plain}) {
    set_allocator(k);
    CHECK(get_allocator() == k);
    memory_ptr a = cusci::malloc(12345);
    CHECK(a->ptr() != nullptr);
    CHECK(cudaMemsetAsync(a->ptr(), 0, 12345, get_current_stream()) == cudaSuccess);
    synchronize();
  }
  set_allocator(allocator_kind::pool);
}

TEST_CASE("pinned host pool caches blocks") {
  pinned_free_all_blocks();
  void* p = nullptr;
  {
    memory_ptr h = pinned_malloc(3000);
    p = h->ptr();
    CHECK(p != nullptr);
    CHECK(pinned_used_bytes() >= 3000);
  }
  CHECK(pinned_n_free_blocks() == 1);
  memory_ptr h2 = pinned_malloc(2900);
  CHECK(h2->ptr() == p);
  h2.reset();
  pinned_free_all_blocks();
  CHECK(pinned_n_free_blocks() == 0);
}

TEST_CASE("device_buffer is typed pool memory") {
  device_buffer<double> b(1000);
  CHECK(b.size() == 1000);
  CHECK(b.data() != nullptr);
  CHECK(b.block()->size() >= 8000);
  device_buffer<int> empty;
  CHECK(empty.data() == nullptr);
}

TEST_CASE("a block outlives its pool object and is freed on release") {
  memory_ptr keep;
  {
    memory_pool local(get_device_id());
    keep = local.malloc(1 << 20, get_current_stream());
    CHECK(local.used_bytes() == (1u << 20));
  }
  CHECK(keep->ptr() != nullptr);
  CHECK(cudaMemsetAsync(keep->ptr(), 0, 1 << 20, get_current_stream()) == cudaSuccess);
  synchronize();
  keep.reset();  // goes back to the device, not to the destroyed pool
  CHECK(cudaGetLastError() == cudaSuccess);
}
