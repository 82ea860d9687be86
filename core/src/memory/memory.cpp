// The caching device memory pool (CuPy's MemoryPool semantics), the alternative allocators, the
// pinned host pool, memory hooks (CuPy's MemoryHook), pool statistics, and the allocation route used
// while a stream is captured into a CUDA graph (cudaMallocAsync / cudaFreeAsync, recorded as graph
// memory nodes).
#include "cusci/memory.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
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

// ---- memory hooks (thread-local list, CuPy's model) ---------------------------------------------
// A plain pointer (trivially destructible), so that blocks released during static destruction, after
// the thread's thread_local objects are gone, still read a valid (null) list.
thread_local std::vector<memory_hook*>* tl_hooks = nullptr;
thread_local bool tl_in_hook = false;  // allocations made by a hook do not call hooks

using hook_fn = void (memory_hook::*)(const memory_hook_event&);

inline bool hooks_active() noexcept { return tl_hooks != nullptr && !tl_in_hook; }

void call_hooks(hook_fn f, const memory_hook_event& e) {
  if (!hooks_active()) return;
  const std::vector<memory_hook*> hs = *tl_hooks;  // a hook may install or remove guards
  tl_in_hook = true;
  struct reset_flag {
    ~reset_flag() { tl_in_hook = false; }
  } reset;
  for (memory_hook* h : hs) (h->*f)(e);
}

void call_hooks_noexcept(hook_fn f, const memory_hook_event& e) noexcept {
  try {
    call_hooks(f, e);
  } catch (...) {
  }
}

// ---- graph capture ------------------------------------------------------------------------------
std::atomic<int> active_captures{0};

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
  std::atomic<bool> alive{true};
  std::atomic<const memory_pool*> owner{nullptr};  // for hook events; null once the pool is destroyed
  mutable std::mutex m;
  std::size_t used = 0, total = 0, limit = 0, cached_bytes = 0, cached_blocks = 0;
  std::size_t peak = 0, n_allocs = 0, n_device_allocs = 0, n_used_blocks = 0;

  // Must be called with m held, after `used` grew by a handed-out block.
  void note_alloc_locked() {
    ++n_allocs;
    ++n_used_blocks;
    if (used > peak) peak = used;
  }
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
    --n_used_blocks;
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

memory_pool::memory_pool(int device) : device_(device), impl_(std::make_shared<impl>()) {
  impl_->device = device;
  impl_->owner.store(this);
}

memory_pool::~memory_pool() {
  try {
    std::lock_guard<std::mutex> lk(impl_->m);
    impl_->alive = false;
    impl_->owner.store(nullptr);
    impl_->release_cached_locked();
  } catch (...) {
  }
}

namespace {

/// Release of a pool block: free hooks around the return to the pool's cache.
/// `key`: the cache list the block returns to (its stream, or the thread's key for the per-thread stream).
void release_pool_block(memory_pool::impl& I, memory_block& blk, cudaStream_t key) {
  memory_hook_event ev{blk.device(), blk.size(), blk.size(), blk.ptr(), I.owner.load(), blk.stream()};
  call_hooks_noexcept(&memory_hook::free_preprocess, ev);
  I.give_back(blk.ptr(), blk.size(), key);
  call_hooks_noexcept(&memory_hook::free_postprocess, ev);
}

/// Stream-ordered allocation (cudaMallocAsync on `stream`, released with cudaFreeAsync on it): the
/// malloc_async allocator, and every allocation on a stream that is being captured into a graph
/// (where the runtime records the pair as graph memory nodes). `bytes` > 0.
memory_ptr stream_ordered_malloc(std::size_t bytes, int device, cudaStream_t stream) {
  memory_hook_event ev{device, bytes, bytes, nullptr, nullptr, stream};
  call_hooks(&memory_hook::malloc_preprocess, ev);
  call_hooks(&memory_hook::alloc_preprocess, ev);
  void* p = nullptr;
  cudaError_t e;
  {
    scoped_device g(device);
    e = cudaMallocAsync(&p, bytes, stream);
  }
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(bytes) + " with cudaMallocAsync on device " +
                            std::to_string(device),
                        bytes, 0, 0, 0);
  }
  CUSCI_CUDA_TRY(e);
  auto blk = std::make_shared<memory_block>(p, bytes, device, stream, [](memory_block& b) {
    memory_hook_event fe{b.device(), b.size(), b.size(), b.ptr(), nullptr, b.stream()};
    call_hooks_noexcept(&memory_hook::free_preprocess, fe);
    {
      scoped_device g(b.device());
      // Errors are dropped (destructors never throw); clear them so that they do not surface in an
      // unrelated later check (e.g. a block of an invalidated capture freed after the capture ended).
      if (cudaFreeAsync(b.ptr(), b.stream()) != cudaSuccess) cudaGetLastError();
    }
    call_hooks_noexcept(&memory_hook::free_postprocess, fe);
  });
  ev.mem_ptr = p;
  call_hooks(&memory_hook::alloc_postprocess, ev);
  call_hooks(&memory_hook::malloc_postprocess, ev);
  return blk;
}

}  // namespace

namespace {

/// The per-thread default stream's handle (cudaStreamPerThread) is one value naming a different stream in
/// every thread: the cache keys it by thread, so that a block one thread freed (its work still queued on
/// its own per-thread stream) is never handed to another thread's. A thread that cached such blocks
/// waits for its per-thread stream when it ends, since a later thread may get the same key.
struct per_thread_key {
  bool used = false;
  ~per_thread_key() {
    if (used && cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) cudaGetLastError();
  }
};

cudaStream_t cache_key(cudaStream_t stream) {
  if (stream != cudaStreamPerThread) return stream;
  thread_local per_thread_key key;
  key.used = true;
  return reinterpret_cast<cudaStream_t>(&key);
}

}  // namespace

memory_ptr memory_pool::malloc(std::size_t bytes, cudaStream_t stream) {
  (void)detail::checked_bytes(bytes, 1, "cusci::memory_pool::malloc");  // before round_up could wrap around
  if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, device_, stream, nullptr);
  // A captured pointer must stay valid for every replay: no cached block, no cudaMalloc.
  if (detail::stream_is_capturing(stream)) return stream_ordered_malloc(bytes, device_, stream);
  const std::size_t size = round_up(bytes);
  std::shared_ptr<impl> I = impl_;
  memory_hook_event ev{device_, bytes, size, nullptr, this, stream};
  call_hooks(&memory_hook::malloc_preprocess, ev);
  const cudaStream_t key = cache_key(stream);  // the allocating thread's key, also where the block returns
  auto make_block = [&](void* p, std::size_t got) {
    return std::make_shared<memory_block>(p, got, device_, stream,
                                          [I, key](memory_block& blk) { release_pool_block(*I, blk, key); });
  };
  memory_ptr blk;
  {
    std::lock_guard<std::mutex> lk(I->m);
    // Best fit among this stream's cached blocks, no more than twice the request (limits waste).
    auto it = I->free_lists.find(key);
    if (it != I->free_lists.end()) {
      auto b = it->second.lower_bound(size);
      if (b != it->second.end() && b->first <= 2 * size) {
        void* p = b->second;
        const std::size_t got = b->first;
        it->second.erase(b);
        I->cached_bytes -= got;
        --I->cached_blocks;
        I->used += got;
        I->note_alloc_locked();
        blk = make_block(p, got);
      }
    }
  }
  if (!blk) {
    // New device memory; alloc hooks run outside the lock (a hook may allocate).
    call_hooks(&memory_hook::alloc_preprocess, ev);
    void* p = nullptr;
    {
      std::lock_guard<std::mutex> lk(I->m);
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
      ++I->n_device_allocs;
      I->note_alloc_locked();
      blk = make_block(p, size);
    }
    ev.mem_ptr = p;
    call_hooks(&memory_hook::alloc_postprocess, ev);
  }
  ev.mem_ptr = blk->ptr();
  ev.mem_size = blk->size();
  call_hooks(&memory_hook::malloc_postprocess, ev);
  return blk;
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

std::size_t memory_pool::peak_used_bytes() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->peak; }
void memory_pool::reset_peak_used_bytes() {
  std::lock_guard<std::mutex> lk(impl_->m);
  impl_->peak = impl_->used;
}
std::size_t memory_pool::n_allocations() const { std::lock_guard<std::mutex> lk(impl_->m); return impl_->n_allocs; }

pool_statistics memory_pool::statistics() const {
  std::lock_guard<std::mutex> lk(impl_->m);
  pool_statistics st;
  st.used_bytes = impl_->used;
  st.total_bytes = impl_->total;
  st.free_bytes = impl_->cached_bytes;
  st.n_free_blocks = impl_->cached_blocks;
  st.n_used_blocks = impl_->n_used_blocks;
  st.peak_used_bytes = impl_->peak;
  st.n_allocations = impl_->n_allocs;
  st.n_device_allocations = impl_->n_device_allocs;
  return st;
}

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

namespace detail {
void throw_impossible_size(const char* function, std::size_t n, std::size_t size) {
  throw out_of_memory(std::string(function) + ": cannot allocate " + std::to_string(n) + " x " + std::to_string(size) +
                          " bytes: more than 2^63 - 1 bytes, which no device holds",
                      n, 0, 0, 0);
}
}  // namespace detail

memory_ptr malloc(std::size_t bytes) {
  (void)detail::checked_bytes(bytes, 1, "cusci::malloc");  // before get_current_stream touches the device
  return malloc(bytes, get_current_stream());
}

memory_ptr malloc(std::size_t bytes, cudaStream_t stream) {
  (void)detail::checked_bytes(bytes, 1, "cusci::malloc");  // before round_up could wrap around
  const int device = get_device_id();
  if (bytes == 0) return std::make_shared<memory_block>(nullptr, 0, device, stream, nullptr);
  if (detail::stream_is_capturing(stream)) return stream_ordered_malloc(bytes, device, stream);
  switch (current_allocator.load()) {
    case allocator_kind::pool: return get_default_memory_pool(device).malloc(bytes, stream);
    case allocator_kind::malloc_async: return stream_ordered_malloc(bytes, device, stream);
    case allocator_kind::plain: {
      memory_hook_event ev{device, bytes, bytes, nullptr, nullptr, stream};
      call_hooks(&memory_hook::malloc_preprocess, ev);
      call_hooks(&memory_hook::alloc_preprocess, ev);
      void* p = nullptr;
      cudaError_t e = cudaMalloc(&p, bytes);
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw out_of_memory("cusci: out of memory allocating " + fmt_bytes(bytes) + " with cudaMalloc on device " +
                                std::to_string(device),
                            bytes, 0, 0, 0);
      }
      CUSCI_CUDA_TRY(e);
      auto blk = std::make_shared<memory_block>(p, bytes, device, stream, [](memory_block& b) {
        memory_hook_event fe{b.device(), b.size(), b.size(), b.ptr(), nullptr, b.stream()};
        call_hooks_noexcept(&memory_hook::free_preprocess, fe);
        {
          scoped_device g(b.device());
          cudaFree(b.ptr());
        }
        call_hooks_noexcept(&memory_hook::free_postprocess, fe);
      });
      ev.mem_ptr = p;
      call_hooks(&memory_hook::alloc_postprocess, ev);
      call_hooks(&memory_hook::malloc_postprocess, ev);
      return blk;
    }
  }
  throw value_error("cusci::malloc: unknown allocator");
}

// ---- memory hooks ---------------------------------------------------------------------------------

memory_hook_guard::memory_hook_guard(memory_hook& hook) : hook_(&hook) {
  if (!tl_hooks) tl_hooks = new std::vector<memory_hook*>();
  tl_hooks->push_back(hook_);
}

memory_hook_guard::~memory_hook_guard() {
  if (!tl_hooks) return;
  // Remove the most recent entry of this hook (guards nest).
  for (auto it = tl_hooks->end(); it != tl_hooks->begin();) {
    --it;
    if (*it == hook_) {
      tl_hooks->erase(it);
      break;
    }
  }
  if (tl_hooks->empty()) {
    delete tl_hooks;
    tl_hooks = nullptr;
  }
}

std::vector<memory_hook*> get_memory_hooks() { return tl_hooks ? *tl_hooks : std::vector<memory_hook*>{}; }

void debug_print_hook::print(const char* what, const memory_hook_event& e) {
  static std::mutex print_mutex;
  std::ostringstream line;
  line << "{\"hook\":\"" << what << "\",\"device_id\":" << e.device_id << ",\"size\":" << e.size
       << ",\"mem_size\":" << e.mem_size << ",\"mem_ptr\":\"" << e.mem_ptr << "\",\"pool\":\""
       << static_cast<const void*>(e.pool) << "\",\"stream\":\"" << static_cast<const void*>(e.stream) << "\"}\n";
  std::lock_guard<std::mutex> lk(print_mutex);
  *os_ << line.str();
}

namespace detail {
void capture_started() noexcept { active_captures.fetch_add(1); }
void capture_ended() noexcept { active_captures.fetch_sub(1); }
bool stream_is_capturing(cudaStream_t stream) noexcept {
  if (active_captures.load(std::memory_order_relaxed) == 0) return false;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &st) != cudaSuccess) {
    cudaGetLastError();  // e.g. the legacy stream while a blocking stream captures: not capturing itself
    return false;
  }
  // An invalidated capture counts: its allocations must fail in the capture, not touch the pool.
  return st != cudaStreamCaptureStatusNone;
}
}  // namespace detail

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
  (void)detail::checked_bytes(bytes, 1, "cusci::pinned_malloc");  // before round_up could wrap around
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
