// Per-device, per-thread cuBLAS / cuSPARSE / cuSOLVER handles and the cuFFT plan cache.
//
// Handles are created lazily, bound to the caller's current stream on every fetch, and destroyed at
// thread exit. Workspaces come from the pool and are always allocated on the stream they are used on:
// when a handle or plan is fetched on another stream than before, it gets a new workspace allocated on
// the new stream and the old one goes back to the pool on the old stream. The pool reuses a block only
// on its own stream, in stream order, so no two streams ever share a workspace at once, and no call is
// ever made on a stream that may have been destroyed since.
#include "cusci/detail/libraries.hpp"

#include <array>
#include <cstdint>
#include <list>
#include <sstream>
#include <string>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/device.hpp"
#include "cusci/fft.hpp"
#include "cusci/error.hpp"
#include "cusci/memory.hpp"
#include "cusci/stream.hpp"

namespace cusci::detail {
namespace {
constexpr int max_devices = 64;
constexpr std::size_t cublas_workspace_bytes = 32u << 20;  // cuBLAS' recommendation for Hopper

struct per_device {
  cublasHandle_t cublas = nullptr;
  memory_ptr cublas_ws;
  cudaStream_t cublas_stream = nullptr;
  cusparseHandle_t cusparse = nullptr;
  cusolverDnHandle_t cusolver = nullptr;
};

struct thread_state {
  std::array<per_device, max_devices> dev{};
  ~thread_state() {
    // Never throws; tolerates the CUDA runtime unloading at process exit.
    for (auto& d : dev) {
      if (d.cublas) CUSCI_LAZY(cublasDestroy)(d.cublas);
      if (d.cusparse) CUSCI_LAZY(cusparseDestroy)(d.cusparse);
      if (d.cusolver) CUSCI_LAZY(cusolverDnDestroy)(d.cusolver);
    }
  }
};

thread_local thread_state state;

per_device& current() {
  const int d = get_device_id();
  CUSCI_EXPECTS(d < max_devices, index_error, "cusci: device id too large");
  return state.dev[d];
}

// Creating a handle or plan allocates device memory outside the pool; with the device nearly full
// the library reports its allocation failure (or NOT_INITIALIZED / SETUP_FAILED, which is how the
// create functions report a failed cudaMalloc inside them). `attempt` makes the object into a local
// variable (never into the cache, so a failed creation leaves nothing half-made behind); on failure
// the pool's cached blocks are returned to the device and creation is tried once more. The CUDA error
// a failed internal cudaMalloc leaves pending is cleared, so the next launch check does not see it.
template <class Status, class Attempt>
Status create_retrying(Attempt&& attempt, Status ok) {
  Status st = attempt();
  if (st == ok) return st;
  (void)cudaGetLastError();
  get_default_memory_pool().free_all_blocks();
  st = attempt();
  if (st != ok) (void)cudaGetLastError();
  return st;
}

/// out_of_memory for a handle or plan whose creation still failed after the retry.
[[noreturn]] void throw_create_oom(const std::string& what, const char* status) {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) (void)cudaGetLastError();
  memory_pool& p = get_default_memory_pool();
  throw out_of_memory("cusci: " + what + " failed (" + status +
                          ") after the pool's cached blocks were freed: out of device memory (" +
                          std::to_string(free_b) + " of " + std::to_string(total_b) + " bytes free, pool uses " +
                          std::to_string(p.used_bytes()) + ")",
                      0, p.used_bytes(), p.total_bytes(), p.get_limit());
}
/// Whether the device has less than 256 MiB free: cuSOLVER reports a failed allocation inside
/// cusolverDnCreate (its cuBLAS handle, its workspace) as CUSOLVER_STATUS_INTERNAL_ERROR, which is taken
/// as memory exhaustion only when the device really is (nearly) full.
bool device_nearly_full() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return free_b < (std::size_t{256} << 20);
}
}  // namespace

cublasHandle_t cublas_handle() {
  per_device& d = current();
  const cudaStream_t s = get_current_stream();
  if (!d.cublas) {
    cublasHandle_t h = nullptr;
    const cublasStatus_t st = create_retrying([&] { return CUSCI_LAZY(cublasCreate)(&h); }, CUBLAS_STATUS_SUCCESS);
    if (st == CUBLAS_STATUS_ALLOC_FAILED || st == CUBLAS_STATUS_NOT_INITIALIZED)
      throw_create_oom("cublasCreate", CUSCI_LAZY(cublasGetStatusName)(st));
    if (st != CUBLAS_STATUS_SUCCESS) throw_cublas_error(st, "cublasCreate", __FILE__, __LINE__);
    d.cublas = h;
  }
  if (!d.cublas_ws || d.cublas_stream != s) {
    d.cublas_ws.reset();  // back to the pool on its own stream
    d.cublas_ws = cusci::malloc(cublas_workspace_bytes, s);
    d.cublas_stream = s;
  }
  CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetStream)(d.cublas, s));
  // cublasSetStream resets the workspace to the default: set ours again.
  CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasSetWorkspace)(d.cublas, d.cublas_ws->ptr(), d.cublas_ws->size()));
  return d.cublas;
}

cusparseHandle_t cusparse_handle() {
  per_device& d = current();
  if (!d.cusparse) {
    cusparseHandle_t h = nullptr;
    const cusparseStatus_t st =
        create_retrying([&] { return CUSCI_LAZY(cusparseCreate)(&h); }, CUSPARSE_STATUS_SUCCESS);
    if (st == CUSPARSE_STATUS_ALLOC_FAILED || st == CUSPARSE_STATUS_NOT_INITIALIZED)
      throw_create_oom("cusparseCreate", CUSCI_LAZY(cusparseGetErrorName)(st));
    if (st != CUSPARSE_STATUS_SUCCESS) throw_cusparse_error(st, "cusparseCreate", __FILE__, __LINE__);
    d.cusparse = h;
  }
  CUSCI_CUSPARSE_TRY(CUSCI_LAZY(cusparseSetStream)(d.cusparse, get_current_stream()));
  return d.cusparse;
}

cusolverDnHandle_t cusolver_dn_handle() {
  per_device& d = current();
  if (!d.cusolver) {
    cusolverDnHandle_t h = nullptr;
    const cusolverStatus_t st =
        create_retrying([&] { return CUSCI_LAZY(cusolverDnCreate)(&h); }, CUSOLVER_STATUS_SUCCESS);
    if (st == CUSOLVER_STATUS_ALLOC_FAILED || st == CUSOLVER_STATUS_NOT_INITIALIZED)
      throw_create_oom("cusolverDnCreate", st == CUSOLVER_STATUS_ALLOC_FAILED ? "CUSOLVER_STATUS_ALLOC_FAILED"
                                                                           : "CUSOLVER_STATUS_NOT_INITIALIZED");
    if (st == CUSOLVER_STATUS_INTERNAL_ERROR && device_nearly_full())
      throw_create_oom("cusolverDnCreate", "CUSOLVER_STATUS_INTERNAL_ERROR");
    if (st != CUSOLVER_STATUS_SUCCESS) throw_cusolver_error(st, "cusolverDnCreate", __FILE__, __LINE__);
    d.cusolver = h;
  }
  CUSCI_CUSOLVER_TRY(CUSCI_LAZY(cusolverDnSetStream)(d.cusolver, get_current_stream()));
  return d.cusolver;
}

// --- cuFFT plan cache ----------------------------------------------------------------------------
// One LRU list per device and thread. An entry owns its plan and work area; leases share the entry, so a
// plan evicted (or never cached, with size 0) while a caller executes it is destroyed only when the last
// lease goes. Destroying a plan first waits for the device: its queued transforms may still run (their
// stream may even be gone by now).
namespace {
struct fft_entry {
  fft_plan_key key;
  cufftHandle plan = 0;
  std::size_t work_bytes = 0;
  memory_ptr work;
  cudaStream_t stream = nullptr;
  bool work_set = false;
  ~fft_entry() {
    if (plan) {
      // On the plan's own device (the cache of another device may be trimmed from here). Never
      // throws; errors at process exit are ignored.
      int cur = -1;
      const bool switched = cudaGetDevice(&cur) == cudaSuccess && cur != key.device &&
                            cudaSetDevice(key.device) == cudaSuccess;
      cudaDeviceSynchronize();
      CUSCI_LAZY(cufftDestroy)(plan);
      if (switched) cudaSetDevice(cur);
    }
    work.reset();
  }
};

struct fft_cache_state {
  int size = 16;                // CuPy's default
  std::int64_t memsize = -1;    // no bound
  std::int64_t curr_mem = 0;
  std::list<std::shared_ptr<fft_entry>> plans;  // most recently used first
};

struct fft_thread_state {
  std::array<fft_cache_state, max_devices> dev{};
};
thread_local fft_thread_state fft_state;
thread_local fft_plan_lease fft_last_lease;  // keeps the plan of fft_plan() alive until the next call

fft_cache_state& fft_cache(int device) {
  CUSCI_EXPECTS(device >= 0 && device < max_devices, index_error,
                "cusci::fft::plan_cache: device id out of range [0, 64), got " + std::to_string(device));
  return fft_state.dev[device];
}

void fft_evict_to_bounds(fft_cache_state& c) {
  while (!c.plans.empty() && (static_cast<std::int64_t>(c.plans.size()) > c.size ||
                              (c.memsize >= 0 && c.curr_mem > c.memsize))) {
    c.curr_mem -= static_cast<std::int64_t>(c.plans.back()->work_bytes);
    c.plans.pop_back();  // destroyed here unless a lease still holds it
  }
}

// Binds the entry to stream s: a work area allocated on s (a new one when s differs from its last use).
void fft_bind(fft_entry& e, cudaStream_t s) {
  if (!e.work_set || e.stream != s) {
    // Until the new work area is set the plan has none: a failed allocation (out_of_memory) must not
    // leave the plan pointing at the released block for the next call on the old stream.
    e.work_set = false;
    e.work.reset();  // back to the pool on its own stream
    e.work = cusci::malloc(e.work_bytes, s);
    if (e.work_bytes) CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftSetWorkArea)(e.plan, e.work->ptr()));
    e.stream = s;
    e.work_set = true;
  }
  CUSCI_CUFFT_TRY(CUSCI_LAZY(cufftSetStream)(e.plan, s));
}

// One attempt at the plan for `key`: the status of the first failing cuFFT call, the plan in `out`
// only on success (a plan made half-way is destroyed here).
cufftResult fft_try_make(const fft_plan_key& key, std::shared_ptr<fft_entry>& out) {
  auto e = std::make_shared<fft_entry>();
  e->key = key;
  cufftHandle h = 0;
  cufftResult st = CUSCI_LAZY(cufftCreate)(&h);
  if (st != CUFFT_SUCCESS) return st;
  e->plan = h;  // destroyed by ~fft_entry on any failure below
  if ((st = CUSCI_LAZY(cufftSetAutoAllocation)(h, 0)) != CUFFT_SUCCESS) return st;
  long long n[3], inembed[3], onembed[3];
  for (int i = 0; i < 3; ++i) {
    n[i] = key.n[i];
    inembed[i] = key.inembed[i];
    onembed[i] = key.onembed[i];
  }
  std::size_t work = 0;
  const bool embed = key.inembed[0] != 0;
  st = CUSCI_LAZY(cufftMakePlanMany64)(h, key.rank, n, embed ? inembed : nullptr, key.istride, key.idist,
                                       embed ? onembed : nullptr, key.ostride, key.odist,
                                       static_cast<cufftType>(key.type), key.batch, &work);
  if (st != CUFFT_SUCCESS) return st;
  e->work_bytes = work;
  out = std::move(e);
  return CUFFT_SUCCESS;
}

// The plan for `key`, retried once after freeing the pool's cache (create_retrying); out_of_memory
// when cuFFT still cannot allocate, cufft_error for any other failure. Nothing is cached on failure.
std::shared_ptr<fft_entry> fft_make(const fft_plan_key& key) {
  std::shared_ptr<fft_entry> e;
  const cufftResult st = create_retrying([&] { return fft_try_make(key, e); }, CUFFT_SUCCESS);
  if (st == CUFFT_ALLOC_FAILED || st == CUFFT_SETUP_FAILED)
    throw_create_oom("cuFFT plan creation (cufftCreate / cufftMakePlanMany64)",
                     st == CUFFT_ALLOC_FAILED ? "CUFFT_ALLOC_FAILED" : "CUFFT_SETUP_FAILED");
  if (st != CUFFT_SUCCESS)
    throw_cufft_error(st, "cufftCreate / cufftSetAutoAllocation / cufftMakePlanMany64", __FILE__, __LINE__);
  return e;
}
}  // namespace

fft_plan_lease acquire_fft_plan(const fft_plan_key& key_in) {
  fft_plan_key key = key_in;
  key.device = get_device_id();
  const cudaStream_t s = get_current_stream();
  fft_cache_state& c = fft_cache(key.device);
  for (auto it = c.plans.begin(); it != c.plans.end(); ++it) {
    if ((*it)->key == key) {
      c.plans.splice(c.plans.begin(), c.plans, it);  // mark most recently used
      std::shared_ptr<fft_entry> e = c.plans.front();
      fft_bind(*e, s);
      return {e->plan, e};
    }
  }
  std::shared_ptr<fft_entry> e = fft_make(key);
  fft_bind(*e, s);
  const bool fits = c.size > 0 && (c.memsize < 0 || static_cast<std::int64_t>(e->work_bytes) <= c.memsize);
  if (fits) {
    c.plans.push_front(e);
    c.curr_mem += static_cast<std::int64_t>(e->work_bytes);
    fft_evict_to_bounds(c);
  }
  return {e->plan, e};
}

cufftHandle fft_plan(const fft_plan_key& key) {
  fft_plan_lease l = acquire_fft_plan(key);
  fft_last_lease = l;
  return l.handle;
}

}  // namespace cusci::detail

// --- cusci::fft::plan_cache: the user-facing controls of the cache above ---------------------------
namespace cusci::fft {
using detail::fft_cache;

void plan_cache::set_size(int size) {
  CUSCI_EXPECTS(size >= 0, value_error,
                "cusci::fft::plan_cache::set_size: size must be >= 0, got " + std::to_string(size));
  auto& c = fft_cache(device_);
  c.size = size;
  detail::fft_evict_to_bounds(c);
}
int plan_cache::get_size() const { return fft_cache(device_).size; }
void plan_cache::set_memsize(std::int64_t bytes) {
  CUSCI_EXPECTS(bytes >= -1, value_error,
                "cusci::fft::plan_cache::set_memsize: memsize must be >= -1 (-1: no bound), got " +
                    std::to_string(bytes));
  auto& c = fft_cache(device_);
  c.memsize = bytes;
  detail::fft_evict_to_bounds(c);
}
std::int64_t plan_cache::get_memsize() const { return fft_cache(device_).memsize; }
int plan_cache::get_curr_size() const { return static_cast<int>(fft_cache(device_).plans.size()); }
std::int64_t plan_cache::get_curr_memsize() const { return fft_cache(device_).curr_mem; }
void plan_cache::clear() {
  auto& c = fft_cache(device_);
  c.plans.clear();
  c.curr_mem = 0;
}
std::string plan_cache::show_info() const {
  const auto& c = fft_cache(device_);
  std::ostringstream os;
  os << "------------------- cuFFT plan cache (device " << device_ << ") -------------------\n"
     << "cache enabled? " << (c.size > 0 ? "True" : "False") << "\n"
     << "current / max size   : " << c.plans.size() << " / " << c.size << " (counts)\n"
     << "current / max memsize: " << c.curr_mem << " / "
     << (c.memsize < 0 ? std::string("(unlimited)") : std::to_string(c.memsize)) << " (bytes)\n\n"
     << "cached plans (most recently used first):\n";
  for (const auto& e : c.plans) {
    const auto& k = e->key;
    os << "  type=" << k.type << " rank=" << k.rank << " n=(";
    for (int i = 0; i < k.rank; ++i) os << (i ? "," : "") << k.n[i];
    os << ") istride=" << k.istride << " idist=" << k.idist << " ostride=" << k.ostride
       << " odist=" << k.odist << " batch=" << k.batch << " work=" << e->work_bytes << " B\n";
  }
  return os.str();
}
plan_cache get_plan_cache() { return plan_cache(get_device_id()); }
}  // namespace cusci::fft
