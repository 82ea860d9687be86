// The caching device memory pool (CuPy's MemoryPool semantics), the alternative allocators, and the
// pinned host pool.
#include "cusci/memory.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cusci/device.hpp"
#include "cusci/error.hpp"
#include "cusci/stream.hpp"

namespace cusci {

memory_block::~memory_block() {
  if (release_) {
    try {
      release_(*this);
    } catch (...) {
      // Destructors never throw; a failed release only loses the block.
    }
  }
}

namespace {
constexpr std::size_t round_unit = 512;
constexpr std::size_t round_up(std::size_t n) { return (n + round_unit - 1) / round_unit * round_unit; }

std::string fmt_bytes(std::size_t b) { return std::to_string(b) + " bytes"; }

// Runs a CUDA call on `device`, restoring the caller's device.
struct scoped_device {
  int prev = -1;
  explicit scoped_device(int d) {
    if (cudaGetDevice(&prev) != cudaSuccess) { cudaGetLastError(); prev = -1; }
    if (prev != d) cudaSetDevice(d);
  }
  ~scoped_device() {
    int now = -1;
    if (prev >= 0 && cudaGetDevice(&now) == cudaSuccess && now != prev) cudaSetDevice(prev);
  }
};
}  // namespace

struct memory_pool::impl {
  int device;
  bool alive = true;
  mutable std::mutex m;
  std::size_t used = 0, total = 0, limit = 0, cached_bytes = 0, cached_blocks = 0;
  // Free blocks per allocation stream, ordered by size.
  std::unordered_map<cudaStream_t, std::multimap<std::size_t, void*>> free_lists;

  // Must be called with m held. Returns the number of bytes released.
  void release_cached_locked() {
    scoped_device g(device);
    for (auto& [s, lst] : free_lists) {
      for (auto& [size, p] : lst) {
        cudaFree(p);
        total -= size;
      }
      lst.clear();
    }
    free_lists.clear();
    cached_bytes = 0;
    cached_blocks = 0;
  }

  void give_back(void* p, std::size_t size, cudaStream_t s) {
    std::lock_guard<std::mutex> lk(m);
    used -= size;
    if (!alive) {  // the pool object is gone: nothing will reuse the block
      scoped_device g(device);
      cudaFree(p);
      total -= size;
      return;
    }
    free_lists[s].emplace(size, p);
    cached_bytes += size;
    ++cached_blocks;
  }
};

memory_pool::memory_pool(int device) : device_(device), impl_(std::make_shared<impl>()) { impl_->device = device; }

memory_pool::~memory_pool() {
  try {
    std::lock_guard<std::mutex> lk(impl_->m);
    impl_->alive = false;
    impl_->release_cached_locked();
  } catch (...) {
  }
}

memory_ptr memory_pool::malloc(std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, device_, stream, nullptr);
  const std::size_t size = round_up(bytes);
  std::shared_ptr<impl> I = impl_;
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lk(I->m);
    // Best fit among this stream's cached blocks, no more than twice the request (limits waste).
    auto it = I->free_lists.find(stream);
    if (it != I->free_lists.end()) {
      auto b = it->second.lower_bound(size);
      if (b != it->second.end() && b->first <= 2 * size) {
        p = b->second;
        const std::size_t got = b->first;
        it->second.erase(b);
        I->cached_bytes -= got;
        --I->cached_blocks;
        I->used += got;
        return std::make_shared<memory_block>(p, got, device_, stream, [I, stream](memory_block& blk) {
          I->give_back(blk.ptr(), blk.size(), stream);
        });
      }
    }
    auto over_limit = [&] { return I->limit != 0 && I->total + size > I->limit; };
    if (over_limit() && I->cached_blocks) I->release_cached_locked();
    if (over_limit()) {
      throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(size) + " on device " +
                              std::to_string(device_) + ": the pool limit is " + fmt_bytes(I->limit) + " (" +
                              fmt_bytes(I->used) + " used, " + fmt_bytes(I->total) + " total)",
                          size, I->used, I->total, I->limit);
    }
    scoped_device g(device_);
    cudaError_t e = cudaMalloc(&p, size);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      I->release_cached_locked();  // free cached blocks and retry once
      e = cudaMalloc(&p, size);
    }
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(size) + " on device " +
                              std::to_string(device_) + " (" + fmt_bytes(I->used) + " used, " +
                              fmt_bytes(I->total) + " total in the pool, limit " +
                              (I->limit ? fmt_bytes(I->limit) : std::string("none")) + ")",
                          size, I->used, I->total, I->limit);
    }
    CUSCI_CUDA_TRY(e);
    I->used += size;
    I->total += size;
  }
  return std::make_shared<memory_block>(p, size, device_, stream,
                                        [I, stream](memory_block& blk) { I->give_back(blk.ptr(), blk.size(), stream); });
}

std::size_t memory_pool::used_bytes() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->used; }
std::size_t memory_pool::total_bytes() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->total; }
std::size_t memory_pool::free_bytes() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->cached_bytes; }
std::size_t memory_pool::n_free_blocks() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->cached_blocks; }

void memory_pool::free_all_blocks() {
  std::lock_guard<std::mutex> lk(impl_->m);
  impl_->release_cached_locked();
}

void memory_pool::set_limit(std::size_t bytes) {
  std::lock_guard<std::mutex> lk(impl_->m);
  impl_->limit = bytes;
}

void memory_pool::set_limit_fraction(double fraction) {
  CUSCI_EXPECTS(fraction >= 0.0 && fraction <= 1.0, value_error,
                "cusci::memory_pool::set_limit_fraction: fraction must be in [0, 1], got " + std::to_string(fraction));
  std::size_t free_b = 0, total_b = 0;
  {
    scoped_device g(device_);
    CUSCI_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  }
  set_limit(static_cast<std::size_t>(fraction * static_cast<double>(total_b)));
}

std::size_t memory_pool::get_limit() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->limit; }

namespace {
constexpr int max_devices = 64;
std::array<std::atomic<memory_pool*>, max_devices> pools{};
std::mutex pools_mutex;
std::atomic<allocator_kind> current_allocator{allocator_kind::pool};
}  // namespace

memory_pool& get_default_memory_pool(int device) {
  CUSCI_EXPECTS(device >= 0 && device < max_devices, index_error,
                "cusci::get_default_memory_pool: device must be in [0, 64), got " + std::to_string(device));
  memory_pool* p = pools[device].load(std::memory_order_acquire);
  if (!p) {
    std::lock_guard<std::mutex> lk(pools_mutex);
    p = pools[device].load();
    if (!p) {
      // Intentionally never deleted: blocks may be released during static destruction at exit.
      p = new memory_pool(device);
      pools[device].store(p, std::memory_order_release);
    }
  }
  return *p;
}

memory_pool& get_default_memory_pool() { return get_default_memory_pool(get_device_id()); }

void set_allocator(allocator_kind kind) { current_allocator.store(kind); }
allocator_kind get_allocator() { return current_allocator.load(); }

memory_ptr malloc(std::size_t bytes) { return malloc(bytes, get_current_stream()); }

memory_ptr malloc(std::size_t bytes, cudaStream_t stream) {
  const int device = get_device_id();
  switch (current_allocator.load()) {
    case allocator_kind::pool: return get_default_memory_pool(device).malloc(bytes, stream);
    case allocator_kind::malloc_async: {
      if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, device, stream, nullptr);
      void* p = nullptr;
      cudaError_t e = cudaMallocAsync(&p, bytes, stream);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(bytes) + " with cudaMallocAsync on device " +
                                std::to_string(device),
                            bytes, 0, 0, 0);
      }
      CUSCI_CUDA_TRY(e);
      return std::make_shared<memory_block>(p, bytes, device, stream,
                                            [](memory_block& b) { cudaFreeAsync(b.ptr(), b.stream()); });
    }
    case allocator_kind::plain: {
      if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, device, stream, nullptr);
      void* p = nullptr;
      cudaError_t e = cudaMalloc(&p, bytes);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(bytes) + " with cudaMalloc on device " +
                                std::to_string(device),
                            bytes, 0, 0, 0);
      }
      CUSCI_CUDA_TRY(e);
      return std::make_shared<memory_block>(p, bytes, device, stream, [](memory_block& b) {
        scoped_device g(b.device());
        cudaFree(b.ptr());
      });
    }
  }
  throw value_error("cusci::malloc: unknown allocator");
}

// ---- pinned host pool ---------------------------------------------------------------------------
namespace {
struct pinned_pool {
  std::mutex m;
  std::multimap<std::size_t, void*> free_list;
  std::size_t used = 0, total = 0;
};
pinned_pool& pinned() {
  static pinned_pool* p = new pinned_pool();  // never deleted, see get_default_memory_pool
  return *p;
}
}  // namespace

memory_ptr pinned_malloc(std::size_t bytes) {
  if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, -1, nullptr, nullptr);
  const std::size_t size = round_up(bytes);
  pinned_pool& P = pinned();
  auto release = [&P](memory_block& b) {
    std::lock_guard<std::mutex> lk(P.m);
    P.used -= b.size();
    P.free_list.emplace(b.size(), b.ptr());
  };
  std::lock_guard<std::mutex> lk(P.m);
  auto it = P.free_list.lower_bound(size);
  if (it != P.free_list.end() && it->first <= 2 * size) {
    void* p = it->second;
    const std::size_t got = it->first;
    P.free_list.erase(it);
    P.used += got;
    return std::make_shared<memory_block>(p, got, -1, nullptr, release);
  }
  void* p = nullptr;
  cudaError_t e = cudaHostAlloc(&p, size, cudaHostAllocPortable);
  if (e != cudaSuccess) {
    cudaGetLastError();
    for (auto& [s, q] : P.free_list) {
      cudaFreeHost(q);
      P.total -= s;
    }
    P.free_list.clear();
    e = cudaHostAlloc(&p, size, cudaHostAllocPortable);
  }
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw out_of_memory("cusci: out of pinned host memory allocating " + fmt_bytes(size), size, P.used, P.total, 0);
  }
  CUSCI_CUDA_TRY(e);
  P.used += size;
  P.total += size;
  return std::make_shared<memory_block>(p, size, -1, nullptr, release);
}

std::size_t pinned_used_bytes() { std::lock_guard<std::mutex> lk(pinned().m); return pinned().used; }
std::size_t pinned_total_bytes() { std::lock_guard<std::mutex> lk(pinned().m); return pinned().total; }
std::size_t pinned_n_free_blocks() { std::lock_guard<std::mutex> lk(pinned().m); return pinned().free_list.size(); }

void pinned_free_all_blocks() {
  pinned_pool& P = pinned();
  std::lock_guard<std::mutex> lk(P.m);
  for (auto& [s, q] : P.free_list) {
    cudaFreeHost(q);
    P.total -= s;
  }
  P.free_list.clear();
}

}  // namespace cusci
