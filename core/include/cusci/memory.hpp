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

/// How the default pool obtains device memory (`set_allocator`).
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

/// A caching device allocator for one device (CuPy's `cupy.cuda.MemoryPool`).
class memory_pool {
 public:
  explicit memory_pool(int device);
  ~memory_pool();
  memory_pool(const memory_pool&) = delete;
  memory_pool& operator=(const memory_pool&) = delete;

  /// Allocates `bytes` (rounded up to 512; 0 gives an empty block with a null pointer) for use on
  /// `stream`. Never synchronizes unless it must free cached blocks after a failed cudaMalloc.
  /// @throws cusci::out_of_memory with the requested, used and total bytes and the limit.
  memory_ptr malloc(std::size_t bytes, cudaStream_t stream);

  /// Bytes handed out and not yet returned.
  std::size_t used_bytes() const;
  /// Bytes the pool holds from the device: used plus cached.
  std::size_t total_bytes() const;
  /// Bytes cached in free lists.
  std::size_t free_bytes() const;
  /// Number of cached free blocks.
  std::size_t n_free_blocks() const;
  /// Returns every cached block to the device (cudaFree). Synchronizes the device first.
  void free_all_blocks();
  /// Caps total_bytes() at `bytes` (0 removes the cap).
  void set_limit(std::size_t bytes);
  /// Caps total_bytes() at `fraction` of the device's memory, fraction in [0, 1].
  /// @throws cusci::value_error for a fraction outside [0, 1].
  void set_limit_fraction(double fraction);
  /// The cap in bytes; 0 when none.
  std::size_t get_limit() const;
  int device() const noexcept { return device_; }

  struct impl;

 private:
  int device_;
  std::unique_ptr<impl> impl_;
};

/// The default pool of the current device (one per device, process-wide, thread-safe).
memory_pool& get_default_memory_pool();
/// The default pool of `device`.
memory_pool& get_default_memory_pool(int device);

/// Chooses how `cusci::malloc` obtains memory from now on. Blocks already handed out are released to
/// the allocator that made them.
void set_allocator(allocator_kind kind);
allocator_kind get_allocator();

/// Allocates `bytes` of device memory on the current device for use on `stream` (default: the current
/// stream) through the allocator chosen with `set_allocator`. Every cusci module allocates here,
/// library workspaces included.
/// @throws cusci::out_of_memory
memory_ptr malloc(std::size_t bytes);
memory_ptr malloc(std::size_t bytes, cudaStream_t stream);

/// A pinned (page-locked) host block from the pinned pool (CuPy's `PinnedMemoryPool`). Blocks are
/// cached and reused after the host memory is released; the pool is process-wide.
memory_ptr pinned_malloc(std::size_t bytes);

/// Statistics of the pinned host pool.
std::size_t pinned_used_bytes();
std::size_t pinned_total_bytes();
std::size_t pinned_n_free_blocks();
void pinned_free_all_blocks();

/// An uninitialized typed device buffer from the pool, for library workspaces and kernel temporaries.
/// Allocated on the current stream.
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
