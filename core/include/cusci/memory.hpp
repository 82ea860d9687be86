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

#include <cstddef>
#include <functional>
#include <memory>

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

/// A caching device allocator for one device. All members are thread-safe and host only (no device
/// work) unless they say otherwise.
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
/// @throws cusci::out_of_memory; cusci::cuda_error when no device is available or CUDA fails.
/// CuPy: `cupy.cuda.alloc(bytes)`.
memory_ptr malloc(std::size_t bytes);
memory_ptr malloc(std::size_t bytes, cudaStream_t stream);

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
  explicit device_buffer(std::size_t n) : n_(n), block_(cusci::malloc(n * sizeof(T))) {}
  device_buffer(std::size_t n, cudaStream_t stream) : n_(n), block_(cusci::malloc(n * sizeof(T), stream)) {}
  T* data() const noexcept { return block_ ? static_cast<T*>(block_->ptr()) : nullptr; }
  std::size_t size() const noexcept { return n_; }
  const memory_ptr& block() const noexcept { return block_; }

 private:
  std::size_t n_ = 0;
  memory_ptr block_;
};

}  // namespace cusci
