#pragma once
/// @file memory.hpp
/// Device memory: the caching pool every cusci module allocates from (CuPy's `MemoryPool` semantics and
/// names), the pinned host pool, and the owning buffer types built on them.
///
/// Pool rules (as CuPy's): sizes are rounded up to 512 bytes; a freed block goes back to the pool's
/// free list of the stream it was allocated on and is reused by later allocations on that stream
/// without cudaFree; a block is never handed to another stream while cached, so stream order alone
/// makes reuse safe. A buffer used on a stream other than its allocation stream must be kept alive
/// (hold the ndarray) until that stream's work is done. When cudaMalloc fails, the pool frees its
/// cached blocks and retries once, then throws `cusci::out_of_memory`.

#include <atomic>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

namespace cusci {

/// How the default pool obtains device memory (`set_allocator`). cusci core mirrors NumPy/CuPy, not
/// SciPy.
enum class allocator_kind {
  pool,          ///< caching pool over cudaMalloc (default; CuPy's MemoryPool)
  malloc_async,  ///< stream-ordered cudaMallocAsync / cudaFreeAsync (CuPy's MemoryAsyncPool)
  plain,         ///< cudaMalloc / cudaFree on every allocation, no caching
};

/// A block of device memory owned by a shared handle; released to its origin (the pool, the
/// stream-ordered allocator, or a user deleter) when the last handle goes away.
class memory_block {
 public:
  memory_block(void* ptr, std::size_t size, int device, cudaStream_t stream,
               std::function<void(memory_block&)> release) noexcept
      : ptr_(ptr), size_(size), device_(device), stream_(stream), release_(std::move(release)) {}
  ~memory_block();
  memory_block(const memory_block&) = delete;
  memory_block& operator=(const memory_block&) = delete;

  void* ptr() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  int device() const noexcept { return device_; }
  /// The stream the block was allocated on.
  cudaStream_t stream() const noexcept { return stream_; }

 private:
  void* ptr_;
  std::size_t size_;
  int device_;
  cudaStream_t stream_;
  std::function<void(memory_block&)> release_;
};

using memory_ptr = std::shared_ptr<memory_block>;

/// A snapshot of a pool's statistics, taken under its lock (the fields are consistent with each
/// other). CuPy: `MemoryPool.used_bytes()` / `total_bytes()` / `free_bytes()` / `n_free_blocks()`;
/// the peak and the counters have no CuPy counterpart (PyTorch: `torch.cuda.memory_stats`).
struct pool_statistics {
  std::size_t used_bytes = 0;        ///< bytes handed out and not yet returned (rounded sizes)
  std::size_t total_bytes = 0;       ///< bytes held from the device (used + cached)
  std::size_t free_bytes = 0;        ///< bytes cached in free lists
  std::size_t n_free_blocks = 0;     ///< cached free blocks
  std::size_t n_used_blocks = 0;     ///< blocks handed out and not yet returned
  std::size_t peak_used_bytes = 0;   ///< highest used_bytes since creation or the last reset_peak
  std::size_t n_allocations = 0;     ///< blocks handed out since creation (cache hits included)
  std::size_t n_device_allocations = 0;  ///< cudaMalloc calls made by the pool since creation
};

/// A caching device allocator for one device. All members are thread-safe and host only (no device
/// work) unless they say otherwise.
///
/// CUDA graph capture: while the stream passed to `malloc` is being captured by `cusci::graph`
/// (cudaStreamIsCapturing), the pool neither calls cudaMalloc nor hands out cached blocks (a captured
/// pointer must stay valid for every replay of the graph): the request goes to the stream-ordered
/// allocator instead (cudaMallocAsync on the capturing stream, freed with cudaFreeAsync on it), which
/// the capture records as graph memory nodes. Such blocks are not counted in the statistics. The
/// check costs one atomic load while no cusci capture is active anywhere in the process.
/// CuPy: `cupy.cuda.MemoryPool` (methods of the same names). Deviation: one pool per device (CuPy's
/// pool serves every device).
class memory_pool {
 public:
  /// An empty pool for `device` (allocates nothing until `malloc`). Normally use
  /// `get_default_memory_pool()`.
  explicit memory_pool(int device);
  /// Returns the cached blocks to the device. Blocks still in use stay valid; each is returned to the
  /// device (cudaFree) when released. The default pools are never destroyed.
  ~memory_pool();
  memory_pool(const memory_pool&) = delete;
  memory_pool& operator=(const memory_pool&) = delete;

  /// Allocates `bytes` (rounded up to 512; 0 gives an empty block with a null pointer) for use on
  /// `stream`. Never synchronizes unless it must free cached blocks after a failed cudaMalloc.
  /// @throws cusci::out_of_memory with the requested, used and total bytes and the limit (also when
  ///         the limit would be exceeded); cusci::cuda_error for another CUDA failure.
  /// CuPy: `MemoryPool.malloc`.
  memory_ptr malloc(std::size_t bytes, cudaStream_t stream);

  /// Bytes handed out and not yet returned (rounded sizes). Never throws in practice.
  /// CuPy: `MemoryPool.used_bytes`.
  std::size_t used_bytes() const;
  /// Bytes the pool holds from the device: used plus cached. CuPy: `MemoryPool.total_bytes`.
  std::size_t total_bytes() const;
  /// Bytes cached in free lists. CuPy: `MemoryPool.free_bytes`.
  std::size_t free_bytes() const;
  /// Number of cached free blocks. CuPy: `MemoryPool.n_free_blocks`.
  std::size_t n_free_blocks() const;
  /// Returns every cached block to the device with cudaFree, which synchronizes the device.
  /// Blocks in use are not affected. Errors from cudaFree are ignored (never throws).
  /// CuPy: `MemoryPool.free_all_blocks`.
  void free_all_blocks();
  /// Caps total_bytes() at `bytes` (0 removes the cap); cached blocks are freed before an allocation
  /// would exceed it. Does not free anything by itself. CuPy: `MemoryPool.set_limit(size=...)`.
  void set_limit(std::size_t bytes);
  /// Caps total_bytes() at `fraction` of the device's total memory, fraction in [0, 1].
  /// @throws cusci::value_error for a fraction outside [0, 1]; cusci::cuda_error when the device
  ///         cannot be queried. CuPy: `MemoryPool.set_limit(fraction=...)`.
  void set_limit_fraction(double fraction);
  /// The cap in bytes; 0 when none. CuPy: `MemoryPool.get_limit`.
  std::size_t get_limit() const;
  /// The device this pool allocates on.
  int device() const noexcept { return device_; }
  /// Highest used_bytes() since creation or the last `reset_peak_used_bytes`. Never throws in
  /// practice. PyTorch: `torch.cuda.max_memory_allocated`.
  std::size_t peak_used_bytes() const;
  /// Sets the peak to the current used_bytes(). PyTorch: `torch.cuda.reset_peak_memory_stats`.
  void reset_peak_used_bytes();
  /// Number of blocks handed out since creation (cache hits and new device allocations; zero-byte
  /// requests are not counted).
  std::size_t n_allocations() const;
  /// All statistics at once (one lock). Host only; never throws in practice.
  pool_statistics statistics() const;

  struct impl;

 private:
  int device_;
  std::shared_ptr<impl> impl_;  // shared with the release callbacks of its live blocks
};

/// The default pool of the current device (one per device, process-wide, thread-safe; created on
/// first use and never destroyed).
/// @throws cusci::cuda_error when no device is available.
/// CuPy: `cupy.get_default_memory_pool()`.
memory_pool& get_default_memory_pool();
/// The default pool of `device`.
/// @throws cusci::index_error for a device id outside [0, 64).
memory_pool& get_default_memory_pool(int device);

/// Chooses how `cusci::malloc` obtains memory from now on (process-wide, all devices, thread-safe).
/// Blocks already handed out are released to the allocator that made them. Host only; never throws.
/// CuPy: `cupy.cuda.set_allocator(pool.malloc)` with a `MemoryPool`, a `MemoryAsyncPool` or None.
void set_allocator(allocator_kind kind);
/// The allocator chosen with `set_allocator` (default `allocator_kind::pool`). CuPy:
/// `cupy.cuda.get_allocator()`.
allocator_kind get_allocator();

/// Allocates `bytes` of device memory on the current device for use on `stream` (default: the current
/// stream) through the allocator chosen with `set_allocator`. Every cusci module allocates here,
/// library workspaces included. Does not synchronize (except as memory_pool::malloc on failure).
/// @throws cusci::out_of_memory, at once (before any device call) for a request above 2^63 - 1 bytes
///         (NumPy's MemoryError for an impossible size); cusci::cuda_error when no device is
///         available or CUDA fails.
/// CuPy: `cupy.cuda.alloc(bytes)`.
memory_ptr malloc(std::size_t bytes);
memory_ptr malloc(std::size_t bytes, cudaStream_t stream);

namespace detail {
/// Throws cusci::out_of_memory for an allocation of n elements of `size` bytes that no device can
/// hold (the byte count exceeds 2^63 - 1). Defined in memory.cpp.
[[noreturn]] void throw_impossible_size(const char* function, std::size_t n, std::size_t size);
/// n * size as a byte count, checked (see throw_impossible_size).
inline std::size_t checked_bytes(std::size_t n, std::size_t size, const char* function) {
  constexpr std::size_t max_bytes = static_cast<std::size_t>(-1) >> 1;  // 2^63 - 1
  if (size != 0 && n > max_bytes / size) throw_impossible_size(function, n, size);
  return n * size;
}
}  // namespace detail

/// A pinned (page-locked) host block of at least `bytes` (rounded up to 512; 0 gives an empty block
/// with a null pointer) from the process-wide pinned pool. Blocks are cached and reused once their
/// last handle is released; the caller must keep the block alive until any asynchronous copy using
/// it has finished. Thread-safe; never synchronizes (cudaHostAlloc may block the host briefly).
/// @throws cusci::out_of_memory when pinned memory cannot be allocated (after freeing the cache and
///         retrying once); cusci::cuda_error for another CUDA failure.
/// CuPy: `cupy.cuda.alloc_pinned_memory` / `PinnedMemoryPool.malloc`.
memory_ptr pinned_malloc(std::size_t bytes);

/// Statistics of the pinned host pool (bytes handed out, bytes held, cached blocks), and
/// `pinned_free_all_blocks` returns the cached blocks with cudaFreeHost. Never throw.
/// CuPy: `PinnedMemoryPool.n_free_blocks` / `free_all_blocks` (used/total bytes have no CuPy
/// counterpart).
std::size_t pinned_used_bytes();
std::size_t pinned_total_bytes();
std::size_t pinned_n_free_blocks();
void pinned_free_all_blocks();

/// An uninitialized typed device buffer of `n` elements from `cusci::malloc`, for library workspaces
/// and kernel temporaries. Allocated on the current stream (or `stream`); constructors throw as
/// `cusci::malloc`. No NumPy/CuPy counterpart (close to `cupy.cuda.alloc`).
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  /// @throws cusci::out_of_memory when n * sizeof(T) exceeds what any allocation can hold (2^63 - 1 bytes).
  explicit device_buffer(std::size_t n)
      : n_(n), block_(cusci::malloc(detail::checked_bytes(n, sizeof(T), "cusci::device_buffer"))) {}
  device_buffer(std::size_t n, cudaStream_t stream)
      : n_(n), block_(cusci::malloc(detail::checked_bytes(n, sizeof(T), "cusci::device_buffer"), stream)) {}
  T* data() const noexcept { return block_ ? static_cast<T*>(block_->ptr()) : nullptr; }
  std::size_t size() const noexcept { return n_; }
  const memory_ptr& block() const noexcept { return block_; }

 private:
  std::size_t n_ = 0;
  memory_ptr block_;
};

// --- memory hooks ---------------------------------------------------------------------------------

/// What a memory hook is told about one event. CuPy passes the same values as keyword arguments.
struct memory_hook_event {
  int device_id = 0;            ///< the device of the memory
  std::size_t size = 0;         ///< bytes requested by the caller (malloc_*); the block size otherwise
  std::size_t mem_size = 0;     ///< bytes of the block (the pool rounds requests up to 512)
  void* mem_ptr = nullptr;      ///< the block's device address (nullptr in malloc/alloc preprocess)
  const memory_pool* pool = nullptr;  ///< the pool serving it; nullptr for the stream-ordered
                                      ///< (malloc_async, graph capture) and plain allocators
  cudaStream_t stream = nullptr;      ///< the stream the block is allocated for
};

/// Base class of memory hooks: override the callbacks of interest (all default to doing nothing).
/// Installed per thread with `memory_hook_guard`; called on the thread that allocates or releases.
///  - malloc_preprocess / malloc_postprocess: around every `cusci::malloc` / `memory_pool::malloc`
///    request of a non-zero size (cache hits included);
///  - alloc_preprocess / alloc_postprocess: around each request for new device memory
///    (cudaMalloc in the pool and the plain allocator, cudaMallocAsync in the stream-ordered one);
///  - free_preprocess / free_postprocess: around each block's release (back to the pool's cache, or
///    cudaFreeAsync / cudaFree), when the last handle of the block goes away.
/// A hook may allocate device memory: allocations made inside a hook do not call hooks. Exceptions
/// thrown by malloc/alloc callbacks propagate to the allocating caller; those thrown by free
/// callbacks are swallowed (releases happen in destructors).
/// CuPy: `cupy.cuda.MemoryHook` (same callback names; events in one struct instead of keywords).
class memory_hook {
 public:
  virtual ~memory_hook() = default;
  virtual void malloc_preprocess(const memory_hook_event&) {}
  virtual void malloc_postprocess(const memory_hook_event&) {}
  virtual void alloc_preprocess(const memory_hook_event&) {}
  virtual void alloc_postprocess(const memory_hook_event&) {}
  virtual void free_preprocess(const memory_hook_event&) {}
  virtual void free_postprocess(const memory_hook_event&) {}
};

/// Installs `hook` for the calling thread while alive (CuPy's `with hook:`); hooks of one thread
/// are called in installation order. Guards nest; each removes its own hook on destruction (which
/// never throws). The hook must outlive the guard. Host only.
class memory_hook_guard {
 public:
  explicit memory_hook_guard(memory_hook& hook);
  ~memory_hook_guard();
  memory_hook_guard(const memory_hook_guard&) = delete;
  memory_hook_guard& operator=(const memory_hook_guard&) = delete;

 private:
  memory_hook* hook_;
};

/// The hooks installed on the calling thread, in installation order. CuPy:
/// `cupy.cuda.memory_hook.get_memory_hooks()`.
std::vector<memory_hook*> get_memory_hooks();

/// A hook that writes one JSON line per event to a stream (postprocess events only, as CuPy's
/// DebugPrintHook), e.g. `{"hook":"malloc","device_id":0,"size":100,"mem_size":512,"mem_ptr":"0x7f..."}`.
/// Lines are written whole under a lock (one stream may be shared by several threads). The stream
/// must outlive the hook. CuPy: `cupy.cuda.memory_hooks.DebugPrintHook`.
class debug_print_hook : public memory_hook {
 public:
  explicit debug_print_hook(std::ostream& os) : os_(&os) {}
  void malloc_postprocess(const memory_hook_event& e) override { print("malloc", e); }
  void alloc_postprocess(const memory_hook_event& e) override { print("alloc", e); }
  void free_postprocess(const memory_hook_event& e) override { print("free", e); }

 private:
  void print(const char* what, const memory_hook_event& e);
  std::ostream* os_;
};

/// A hook that counts events and bytes (thread-safe counters), for tests and quick accounting:
/// the number of malloc / alloc / free events and their byte totals (mem_size).
/// No CuPy counterpart (close to `LineProfileHook` without call sites: C++ has no cheap call-site
/// information at the allocation point).
class counting_hook : public memory_hook {
 public:
  void malloc_postprocess(const memory_hook_event& e) override { add(n_mallocs_, malloc_bytes_, e); }
  void alloc_postprocess(const memory_hook_event& e) override { add(n_allocs_, alloc_bytes_, e); }
  void free_postprocess(const memory_hook_event& e) override { add(n_frees_, free_bytes_, e); }
  std::size_t n_mallocs() const noexcept { return n_mallocs_.load(); }
  std::size_t n_allocs() const noexcept { return n_allocs_.load(); }
  std::size_t n_frees() const noexcept { return n_frees_.load(); }
  std::size_t malloc_bytes() const noexcept { return malloc_bytes_.load(); }
  std::size_t alloc_bytes() const noexcept { return alloc_bytes_.load(); }
  std::size_t free_bytes() const noexcept { return free_bytes_.load(); }

 private:
  static void add(std::atomic<std::size_t>& n, std::atomic<std::size_t>& b, const memory_hook_event& e) noexcept {
    n.fetch_add(1);
    b.fetch_add(e.mem_size);
  }
  std::atomic<std::size_t> n_mallocs_{0}, n_allocs_{0}, n_frees_{0}, malloc_bytes_{0}, alloc_bytes_{0},
      free_bytes_{0};
};

namespace detail {
/// Book-keeping of cusci graph captures (called by `cusci::graph`): while the count is non-zero,
/// allocations check whether their stream is capturing. Never throw.
void capture_started() noexcept;
void capture_ended() noexcept;
/// True when `stream` is being captured into a CUDA graph (false when no cusci capture is active or
/// the query fails). Never throws.
bool stream_is_capturing(cudaStream_t stream) noexcept;
}  // namespace detail

}  // namespace cusci
