// cusci::rtc at run time: NVRTC compilation with the in-memory and disk caches, module loading per
// device through the driver API (entry points fetched from the runtime, so that libcuda is not a link
// dependency of cusci_core), and the launch paths of raw, elementwise and reduction kernels.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <mutex>
#include <unordered_map>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include "cusci/detail/lazy_libs.hpp"
#include "cusci/device.hpp"
#include "cusci/memory.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/rtc.hpp"
#include "cusci/detail/rtc.hpp"
#include "cusci/stream.hpp"

#ifndef CUSCI_RTC_CUDA_INCLUDE_DIRS
#define CUSCI_RTC_CUDA_INCLUDE_DIRS ""
#endif

namespace cusci::rtc {
namespace detail {
namespace {

constexpr int max_devices = 64;

// --- driver entry points --------------------------------------------------------------------

struct driver_api {
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal) module_get_global = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuFuncGetParamInfo) func_get_param_info = nullptr;  // may stay null on old drivers
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
};

template <class F>
void entry(const char* sym, F& fn, unsigned version, bool required) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  const cudaError_t e = cudaGetDriverEntryPointByVersion(sym, &p, version, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
    if (required) {
      (void)cudaGetLastError();
      throw cuda_error(std::string("cusci::rtc: driver entry point ") + sym + " is not available (" +
                           cudaGetErrorName(e) + ")",
                       static_cast<int>(e));
    }
    return;
  }
  fn = reinterpret_cast<F>(p);
}

const driver_api& drv() {
  static const driver_api api = [] {
    driver_api a;
    entry("cuModuleLoadData", a.module_load_data, 12000, true);
    entry("cuModuleUnload", a.module_unload, 12000, true);
    entry("cuModuleGetFunction", a.module_get_function, 12000, true);
    entry("cuModuleGetGlobal", a.module_get_global, 12000, true);
    entry("cuLaunchKernel", a.launch_kernel, 12000, true);
    entry("cuFuncGetAttribute", a.func_get_attribute, 12000, true);
    entry("cuFuncSetAttribute", a.func_set_attribute, 12000, true);
    entry("cuFuncGetParamInfo", a.func_get_param_info, 12040, false);
    entry("cuGetErrorName", a.get_error_name, 12000, true);
    entry("cuGetErrorString", a.get_error_string, 12000, true);
    return a;
  }();
  return api;
}

[[noreturn]] void throw_cu(CUresult r, const char* call) {
  const char* nm = nullptr;
  const char* msg = nullptr;
  if (drv().get_error_name) drv().get_error_name(r, &nm);
  if (drv().get_error_string) drv().get_error_string(r, &msg);
  throw cuda_error(std::string(call) + " failed: " + (nm ? nm : "CUDA_ERROR") + " (" + (msg ? msg : "") + ")",
                   static_cast<int>(r));
}
#define CUSCI_RTC_CU_TRY(call)                       \
  do {                                               \
    const CUresult cusci_r_ = (call);                \
    if (cusci_r_ != CUDA_SUCCESS) throw_cu(cusci_r_, #call); \
  } while (0)

#define CUSCI_RTC_NVRTC_TRY(call)                                                    \
  do {                                                                               \
    const nvrtcResult cusci_r_ = (call);                                             \
    if (cusci_r_ != NVRTC_SUCCESS)                                                   \
      throw ::cusci::error(std::string("cusci::rtc: ") + #call +                     \
                           " failed: " + CUSCI_LAZY(nvrtcGetErrorString)(cusci_r_)); \
  } while (0)

// --- targets, include paths ---------------------------------------------------------------

struct target_info {
  std::string target;  // sm_90 or compute_90
  bool cubin = true;
};

int nvrtc_version_packed(int* major, int* minor) {
  static int mj = -1, mn = -1;
  static std::once_flag once;
  std::call_once(once, [] { CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcVersion)(&mj, &mn)); });
  *major = mj;
  *minor = mn;
  return mj * 100 + mn;
}

const target_info& target_for_device(int dev) {
  static std::mutex mu;
  static std::array<std::optional<target_info>, max_devices> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (dev < 0 || dev >= max_devices) throw index_error("cusci::rtc: device id out of range");
  if (cache[dev]) return *cache[dev];
  int major = 0, minor = 0;
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  const int cc = major * 10 + minor;
  int n = 0;
  CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetNumSupportedArchs)(&n));
  std::vector<int> archs(static_cast<std::size_t>(n));
  if (n > 0) CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetSupportedArchs)(archs.data()));
  target_info t;
  if (std::find(archs.begin(), archs.end(), cc) != archs.end()) {
    t.target = "sm_" + std::to_string(cc);
    t.cubin = true;
  } else {
    int best = -1;
    for (int a : archs)
      if (a <= cc && a > best) best = a;
    if (best < 0)
      throw error("cusci::rtc: NVRTC supports no architecture at or below the device's compute capability " +
                  std::to_string(major) + "." + std::to_string(minor));
    t.target = "compute_" + std::to_string(best);
    t.cubin = false;
  }
  cache[dev] = t;
  return *cache[dev];
}

std::vector<std::string> include_dirs() {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    std::error_code ec;
    if (d.empty() || !fs::is_directory(d, ec)) return;
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
    const std::string cccl = (fs::path(d) / "cccl").string();
    if (fs::is_directory(cccl, ec) && std::find(dirs.begin(), dirs.end(), cccl) == dirs.end()) dirs.push_back(cccl);
  };
  if (const char* p = std::getenv("CUSCI_CUDA_PATH"); p && *p) {
    add((fs::path(p) / "include").string());
  } else {
    std::string all = CUSCI_RTC_CUDA_INCLUDE_DIRS;
    std::size_t start = 0;
    while (start <= all.size()) {
      const std::size_t sep = all.find('|', start);
      add(all.substr(start, sep == std::string::npos ? std::string::npos : sep - start));
      if (sep == std::string::npos) break;
      start = sep + 1;
    }
  }
  return dirs;
}

// --- caches -------------------------------------------------------------------------------

struct stats_t {
  std::atomic<std::size_t> memory_hits{0}, disk_hits{0}, compiles{0}, disk_rejects{0};
};
stats_t& stats() {
  static stats_t* s = new stats_t;  // never destroyed: used from static destructors
  return *s;
}

struct program {
  cache_entry entry;
};

struct memory_cache_t {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<const program>> map;
};
memory_cache_t& memory_cache() {
  static memory_cache_t* c = new memory_cache_t;
  return *c;
}

bool disk_disabled() {
  const char* v = std::getenv("CUSCI_CACHE_IN_MEMORY");
  return v && *v && std::string(v) != "0";
}

std::string disk_dir() {
  if (disk_disabled()) return {};
  if (const char* d = std::getenv("CUSCI_CACHE_DIR"); d && *d) return d;
  if (const char* h = std::getenv("HOME"); h && *h) return (std::filesystem::path(h) / ".cusci" / "kernel_cache").string();
  return {};
}

}  // namespace

cache_entry compile_source(const std::string& source, const std::vector<std::string>& opts,
                           const std::vector<std::string>& names, const std::string& display, bool cubin) {
  nvrtcProgram prog = nullptr;
  CUSCI_RTC_NVRTC_TRY(
      CUSCI_LAZY(nvrtcCreateProgram)(&prog, source.c_str(), (display + ".cu").c_str(), 0, nullptr, nullptr));
  struct guard_t {
    nvrtcProgram* p;
    ~guard_t() { CUSCI_LAZY(nvrtcDestroyProgram)(p); }
  } guard{&prog};
  for (const auto& n : names) CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcAddNameExpression)(prog, n.c_str()));
  std::vector<const char*> copts;
  for (const auto& o : opts) copts.push_back(o.c_str());
  const nvrtcResult r = CUSCI_LAZY(nvrtcCompileProgram)(prog, static_cast<int>(copts.size()), copts.data());
  std::size_t log_size = 0;
  std::string log;
  if (CUSCI_LAZY(nvrtcGetProgramLogSize)(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    if (CUSCI_LAZY(nvrtcGetProgramLog)(prog, log.data()) != NVRTC_SUCCESS) log.clear();
    while (!log.empty() && log.back() == '\0') log.pop_back();
  }
  if (r != NVRTC_SUCCESS) {
    std::string opt_text;
    for (const auto& o : opts) opt_text += " " + o;
    throw compile_error("cusci::rtc: compiling '" + display + "' failed (" + CUSCI_LAZY(nvrtcGetErrorString)(r) +
                            ", options:" + opt_text + "):\n" + log,
                        log, display, opts);
  }
  cache_entry out;
  out.cubin = cubin;
  std::size_t n = 0;
  if (cubin) {
    CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetCUBINSize)(prog, &n));
    out.binary.resize(n);
    CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetCUBIN)(prog, out.binary.data()));
  } else {
    CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetPTXSize)(prog, &n));
    out.binary.resize(n);
    CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetPTX)(prog, out.binary.data()));
  }
  for (const auto& nm : names) {
    const char* lowered = nullptr;
    CUSCI_RTC_NVRTC_TRY(CUSCI_LAZY(nvrtcGetLoweredName)(prog, nm.c_str(), &lowered));
    out.lowered.emplace_back(nm, lowered ? lowered : "");
  }
  return out;
}

std::vector<std::string> default_options(const std::string& target, const std::vector<std::string>& user_opts) {
  std::vector<std::string> opts;
  opts.push_back("-arch=" + target);
  const bool has_std = std::any_of(user_opts.begin(), user_opts.end(), [](const std::string& o) {
    return o.rfind("-std=", 0) == 0 || o.rfind("--std=", 0) == 0;
  });
  if (!has_std) opts.push_back("-std=c++17");
  for (const auto& d : include_dirs()) opts.push_back("-I" + d);
  opts.insert(opts.end(), user_opts.begin(), user_opts.end());
  return opts;
}

namespace {

/// Compiles (or finds) `source` for the current device's target.
std::shared_ptr<const program> get_program(const std::string& source, const std::vector<std::string>& user_opts,
                                           const std::vector<std::string>& names, const std::string& display, int dev) {
  const target_info& tgt = target_for_device(dev);
  int mj = 0, mn = 0;
  nvrtc_version_packed(&mj, &mn);
  const std::vector<std::string> opts = default_options(tgt.target, user_opts);
  const std::string key = compile_key(source, opts, names, tgt.target, mj, mn);

  auto& mc = memory_cache();
  {
    std::lock_guard<std::mutex> lock(mc.mu);
    auto it = mc.map.find(key);
    if (it != mc.map.end()) {
      ++stats().memory_hits;
      return it->second;
    }
  }
  const std::string dir = disk_dir();
  if (!dir.empty()) {
    bool rejected = false;
    auto e = read_cache_file(dir, key, &rejected);
    if (rejected) ++stats().disk_rejects;
    if (e && e->cubin == tgt.cubin && e->lowered.size() == names.size()) {
      ++stats().disk_hits;
      auto p = std::make_shared<program>();
      p->entry = std::move(*e);
      std::lock_guard<std::mutex> lock(mc.mu);
      return mc.map.emplace(key, std::move(p)).first->second;
    }
  }
  auto p = std::make_shared<program>();
  p->entry = compile_source(source, opts, names, display, tgt.cubin);
  ++stats().compiles;
  if (!dir.empty()) (void)write_cache_file(dir, key, p->entry);  // best effort
  std::lock_guard<std::mutex> lock(mc.mu);
  return mc.map.emplace(key, std::move(p)).first->second;
}

int current_device() {
  int dev = 0;
  CUSCI_CUDA_TRY(cudaGetDevice(&dev));
  if (dev < 0 || dev >= max_devices) throw index_error("cusci::rtc: device id out of range");
  return dev;
}

int sm_count(int dev) {
  static std::array<std::atomic<int>, max_devices> cache{};
  int v = cache[dev].load();
  if (v == 0) {
    CUSCI_CUDA_TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev));
    cache[dev].store(v);
  }
  return v;
}

}  // namespace

// --- modules and functions ----------------------------------------------------------------

struct module_state {
  std::string code, display;
  std::vector<std::string> options, names;
  std::mutex mu;
  std::array<std::shared_ptr<const program>, max_devices> progs{};
  std::array<CUmodule, max_devices> mods{};

  ~module_state() {
    for (CUmodule m : mods)
      if (m && drv().module_unload) (void)drv().module_unload(m);  // errors at exit are ignored
  }

  /// The module on device `dev` (which must be current), compiling and loading as needed.
  CUmodule module(int dev, const program** prog_out = nullptr) {
    std::lock_guard<std::mutex> lock(mu);
    if (!progs[dev]) progs[dev] = get_program(code, options, names, display, dev);
    if (!mods[dev]) {
      CUSCI_CUDA_TRY(cudaSetDevice(dev));  // makes the primary context current (CUDA >= 12)
      CUmodule m = nullptr;
      CUSCI_RTC_CU_TRY(drv().module_load_data(&m, progs[dev]->entry.binary.data()));
      mods[dev] = m;
    }
    if (prog_out) *prog_out = progs[dev].get();
    return mods[dev];
  }

  std::string resolve(int dev, const std::string& name) {
    const program* p = nullptr;
    module(dev, &p);
    for (const auto& [expr, lowered] : p->entry.lowered)
      if (expr == name) return lowered;
    return name;
  }
};

struct function_state {
  std::shared_ptr<module_state> mod;
  std::string name;
  std::mutex mu;
  struct per_device {
    std::atomic<bool> ready{false};
    CUfunction f = nullptr;
    std::vector<std::size_t> param_sizes;
    bool sizes_known = false;
  };
  std::array<per_device, max_devices> dev;
  std::atomic<int> max_dyn_smem{-1};

  per_device& get(int d) {
    per_device& pd = dev[d];
    if (pd.ready.load(std::memory_order_acquire)) return pd;
    std::lock_guard<std::mutex> lock(mu);
    if (pd.ready.load()) return pd;
    CUmodule m = mod->module(d);
    const std::string lowered = mod->resolve(d, name);
    CUfunction f = nullptr;
    const CUresult r = drv().module_get_function(&f, m, lowered.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
      throw value_error("cusci::rtc: no kernel named '" + name + "' in the compiled module (declare it extern \"C\" "
                        "or pass it as a name expression)");
    if (r != CUDA_SUCCESS) throw_cu(r, "cuModuleGetFunction");
    pd.param_sizes.clear();
    pd.sizes_known = false;
    if (drv().func_get_param_info) {
      for (std::size_t k = 0;; ++k) {
        std::size_t off = 0, size = 0;
        if (drv().func_get_param_info(f, k, &off, &size) != CUDA_SUCCESS) break;
        pd.param_sizes.push_back(size);
      }
      pd.sizes_known = true;
    }
    const int smem = max_dyn_smem.load();
    if (smem >= 0)
      CUSCI_RTC_CU_TRY(drv().func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
    pd.f = f;
    pd.ready.store(true, std::memory_order_release);
    return pd;
  }

  void launch(dim3 grid, dim3 block, const arg* args, std::size_t n, std::size_t shared_mem) {
    const int d = current_device();
    per_device& pd = get(d);
    if (pd.sizes_known) {
      if (n != pd.param_sizes.size())
        throw type_error("cusci::rtc: kernel '" + name + "' takes " + std::to_string(pd.param_sizes.size()) +
                         " arguments, got " + std::to_string(n));
      for (std::size_t k = 0; k < n; ++k)
        if (args[k].size() != pd.param_sizes[k])
          throw type_error("cusci::rtc: argument " + std::to_string(k) + " of kernel '" + name + "' has " +
                           std::to_string(args[k].size()) + " bytes, the parameter has " +
                           std::to_string(pd.param_sizes[k]) + " (pass a value of the parameter's exact C++ type)");
    }
    std::array<void*, 64> small{};
    std::vector<void*> big;
    void** ptrs = small.data();
    if (n > small.size()) {
      big.resize(n);
      ptrs = big.data();
    }
    for (std::size_t k = 0; k < n; ++k) ptrs[k] = const_cast<void*>(args[k].data());
    CUSCI_RTC_CU_TRY(drv().launch_kernel(pd.f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                         static_cast<unsigned>(shared_mem),
                                         reinterpret_cast<CUstream>(cusci::get_current_stream()), ptrs, nullptr));
  }
};

namespace {
std::shared_ptr<module_state> make_module(std::string code, std::vector<std::string> options,
                                          std::vector<std::string> names, std::string display) {
  auto m = std::make_shared<module_state>();
  m->code = std::move(code);
  m->options = std::move(options);
  m->names = std::move(names);
  m->display = std::move(display);
  return m;
}
std::shared_ptr<function_state> make_function(std::shared_ptr<module_state> m, std::string name) {
  auto f = std::make_shared<function_state>();
  f->mod = std::move(m);
  f->name = std::move(name);
  return f;
}

arg scalar_as(const scalar& s, dtype t) {
  if (dtype_name(t) == "float16") return arg(half_bits(s.value<double>()));
  switch (t) {
    case dtype::bool_: return arg(s.value<bool>());
    case dtype::int8: return arg(s.value<std::int8_t>());
    case dtype::int16: return arg(s.value<std::int16_t>());
    case dtype::int32: return arg(s.value<std::int32_t>());
    case dtype::int64: return arg(s.value<std::int64_t>());
    case dtype::uint8: return arg(s.value<std::uint8_t>());
    case dtype::uint16: return arg(s.value<std::uint16_t>());
    case dtype::uint32: return arg(s.value<std::uint32_t>());
    case dtype::uint64: return arg(s.value<std::uint64_t>());
    case dtype::float32: return arg(s.value<float>());
    case dtype::float64: return arg(s.value<double>());
    case dtype::complex64: return arg(s.value<std::complex<float>>());
    case dtype::complex128: return arg(s.value<std::complex<double>>());
    default: break;
  }
  throw type_error("cusci::rtc: scalars of dtype " + std::string(dtype_name(t)) + " are not supported");
}

// Merges adjacent axes contiguous in every stride list and drops length-1 axes.
void coalesce(shape_t& shape, std::vector<shape_t>& st) {
  shape_t s;
  std::vector<shape_t> o(st.size());
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !s.empty();
    for (std::size_t k = 0; merge && k < st.size(); ++k) merge = st[k][d] * shape[d] == o[k].back();
    if (merge) {
      s.back() *= shape[d];
      for (std::size_t k = 0; k < st.size(); ++k) o[k].back() = st[k][d];
    } else {
      s.push_back(shape[d]);
      for (std::size_t k = 0; k < st.size(); ++k) o[k].push_back(st[k][d]);
    }
  }
  shape = std::move(s);
  st = std::move(o);
}

shape_t broadcast_all(const std::vector<const shape_t*>& shapes, const std::string& fn) {
  std::size_t nd = 0;
  for (auto* s : shapes) nd = std::max(nd, s->size());
  shape_t out(nd, 1);
  for (auto* s : shapes)
    for (std::size_t k = 0; k < s->size(); ++k) {
      const std::size_t d = nd - s->size() + k;
      const std::int64_t v = (*s)[k];
      if (v == out[d] || v == 1) continue;
      if (out[d] == 1) out[d] = v;
      else
        throw value_error(fn + ": operands could not be broadcast together (axis " + std::to_string(d) + ": " +
                          std::to_string(out[d]) + " vs " + std::to_string(v) + ")");
    }
  return out;
}

shape_t broadcast_strides(const ndarray& a, const shape_t& shape) {
  shape_t st(shape.size(), 0);
  const std::size_t off = shape.size() - a.shape().size();
  for (std::size_t k = 0; k < a.shape().size(); ++k)
    st[off + k] = (a.shape()[k] == 1) ? 0 : a.strides()[k];
  return st;
}

arg raw_array_arg(const ndarray& a) {
  const int nd = a.ndim();
  const int n = std::max(1, nd);
  std::vector<std::int64_t> w(3 + 2 * static_cast<std::size_t>(n), 0);
  void* p = a.data();
  std::memcpy(&w[0], &p, sizeof(p));
  w[1] = a.size();
  bool contig = true;
  std::int64_t expect = static_cast<std::int64_t>(a.itemsize());
  for (int d = nd - 1; d >= 0; --d) {
    if (a.shape()[d] != 1 && a.strides()[d] != expect) contig = false;
    expect *= a.shape()[d];
  }
  const std::int32_t nd32 = nd, c32 = contig ? 1 : 0;
  std::memcpy(reinterpret_cast<char*>(&w[2]), &nd32, 4);
  std::memcpy(reinterpret_cast<char*>(&w[2]) + 4, &c32, 4);
  for (int d = 0; d < nd; ++d) {
    w[3 + d] = a.shape()[d];
    w[3 + n + d] = a.strides()[d];
  }
  if (nd == 0) w[3] = 1;
  return arg::bytes(w.data(), w.size() * 8, 8);
}

std::int64_t product(const shape_t& s) {
  std::int64_t p = 1;
  for (auto v : s) p *= v;
  return p;
}

}  // namespace

// --- elementwise and reduction state ------------------------------------------------------

struct elementwise_state {
  std::string name, operation, fn;
  elementwise_options opts;
  std::vector<param_info> in, out;
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<function_state>> sigs;
};

struct reduction_state {
  std::string name, map_expr, reduce_expr, post_map_expr, fn;
  std::optional<std::string> identity;
  reduction_options opts;
  std::vector<param_info> in, out;
  std::mutex mu;
  struct entry {
    std::shared_ptr<function_state> main, final_;
    std::atomic<std::size_t> reduce_size{0};
  };
  std::unordered_map<std::string, std::shared_ptr<entry>> sigs;
};

}  // namespace detail

using namespace detail;

// --- public functions ---------------------------------------------------------------------

arg::arg(const scalar& s) { *this = scalar_as(s, s.dtype()); }

arg arg::bytes(const void* p, std::size_t n, std::size_t align) {
  if (n > 4096) throw value_error("cusci::rtc::arg::bytes: n must be <= 4096, got " + std::to_string(n));
  if (align == 0 || align > 16 || (align & (align - 1)) != 0)
    throw value_error("cusci::rtc::arg::bytes: align must be a power of 2 <= 16, got " + std::to_string(align));
  arg a;
  a.set(p, n, align);
  return a;
}

cache_stats get_cache_stats() noexcept {
  auto& s = stats();
  return {s.memory_hits.load(), s.disk_hits.load(), s.compiles.load(), s.disk_rejects.load()};
}

void clear_memory_cache() noexcept {
  auto& mc = memory_cache();
  std::lock_guard<std::mutex> lock(mc.mu);
  mc.map.clear();
}

std::string cache_dir() { return disk_dir(); }

// raw_kernel ---------------------------------------------------------------------------------

raw_kernel::raw_kernel(std::string code, std::string name, std::vector<std::string> options) {
  if (name.empty()) throw value_error("cusci::rtc::raw_kernel: name must not be empty");
  std::string display = name;
  st_ = make_function(make_module(std::move(code), std::move(options), {}, display), std::move(name));
}

void raw_kernel::operator()(dim3 grid, dim3 block, std::initializer_list<arg> args, std::size_t shared_mem) const {
  st_->launch(grid, block, args.begin(), args.size(), shared_mem);
}
void raw_kernel::operator()(dim3 grid, dim3 block, const std::vector<arg>& args, std::size_t shared_mem) const {
  st_->launch(grid, block, args.data(), args.size(), shared_mem);
}

void raw_kernel::compile() const { (void)st_->get(current_device()); }

kernel_attributes raw_kernel::attributes() const {
  CUfunction f = st_->get(current_device()).f;
  kernel_attributes a;
  auto q = [&](CUfunction_attribute at) {
    int v = 0;
    CUSCI_RTC_CU_TRY(drv().func_get_attribute(&v, at, f));
    return v;
  };
  a.max_threads_per_block = q(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  a.shared_size_bytes = q(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  a.const_size_bytes = q(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  a.local_size_bytes = q(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  a.num_regs = q(CU_FUNC_ATTRIBUTE_NUM_REGS);
  a.ptx_version = q(CU_FUNC_ATTRIBUTE_PTX_VERSION);
  a.binary_version = q(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  a.max_dynamic_shared_size_bytes = q(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  return a;
}

void raw_kernel::set_max_dynamic_shared_size_bytes(int bytes) {
  if (bytes < 0)
    throw value_error("cusci::rtc::raw_kernel::set_max_dynamic_shared_size_bytes: bytes must be >= 0, got " +
                      std::to_string(bytes));
  CUfunction f = st_->get(current_device()).f;
  CUSCI_RTC_CU_TRY(drv().func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
  st_->max_dyn_smem.store(bytes);
  // devices loaded earlier get the value too
  for (int d = 0; d < max_devices; ++d) {
    auto& pd = st_->dev[d];
    if (pd.ready.load() && pd.f != f) {
      cusci::device_guard g(d);
      CUSCI_RTC_CU_TRY(drv().func_set_attribute(pd.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
    }
  }
}

const std::string& raw_kernel::name() const noexcept { return st_->name; }
const std::string& raw_kernel::code() const noexcept { return st_->mod->code; }
const std::vector<std::string>& raw_kernel::options() const noexcept { return st_->mod->options; }

// raw_module ---------------------------------------------------------------------------------

raw_module::raw_module(std::string code, std::vector<std::string> options, std::vector<std::string> name_expressions)
    : st_(make_module(std::move(code), std::move(options), std::move(name_expressions), "module")) {}

raw_kernel raw_module::get_function(const std::string& name) const {
  if (name.empty()) throw value_error("cusci::rtc::raw_module::get_function: name must not be empty");
  auto f = make_function(st_, name);
  (void)f->get(current_device());
  return raw_kernel(std::move(f));
}

global_symbol raw_module::get_global(const std::string& name) const {
  const int d = current_device();
  CUmodule m = st_->module(d);
  const std::string lowered = st_->resolve(d, name);
  CUdeviceptr p = 0;
  std::size_t size = 0;
  const CUresult r = drv().module_get_global(&p, &size, m, lowered.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw value_error("cusci::rtc::raw_module::get_global: no global named '" + name + "' in the module");
  if (r != CUDA_SUCCESS) throw_cu(r, "cuModuleGetGlobal");
  return {reinterpret_cast<void*>(p), size};
}

void raw_module::compile() const { (void)st_->module(current_device()); }

std::string raw_module::lowered_name(const std::string& name_expression) const {
  if (std::find(st_->names.begin(), st_->names.end(), name_expression) == st_->names.end())
    throw value_error("cusci::rtc::raw_module::lowered_name: '" + name_expression +
                      "' is not one of the module's name expressions");
  return st_->resolve(current_device(), name_expression);
}

// elementwise_kernel -----------------------------------------------------------------------

elementwise_kernel::elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                                       std::string name, elementwise_options opts) {
  auto st = std::make_shared<elementwise_state>();
  st->fn = "cusci::rtc::elementwise_kernel '" + name + "'";
  if (name.empty()) throw value_error("cusci::rtc::elementwise_kernel: name must not be empty");
  st->in = parse_params(in_params, st->fn);
  st->out = parse_params(out_params, st->fn);
  check_unique_names(st->in, st->out, st->fn);
  if (st->out.empty()) throw value_error(st->fn + ": out_params must name at least one output");
  st->name = std::move(name);
  st->operation = std::move(operation);
  st->opts = std::move(opts);
  st_ = std::move(st);
}

const std::string& elementwise_kernel::name() const noexcept { return st_->name; }

std::vector<ndarray> elementwise_kernel::call(const std::vector<operand>& args, std::optional<std::int64_t> size) const {
  elementwise_state& S = *st_;
  const std::size_t n_in = S.in.size(), n_out = S.out.size();
  if (args.size() != n_in && args.size() != n_in + n_out)
    throw type_error(S.fn + ": expected " + std::to_string(n_in) + " arguments (inputs) or " +
                     std::to_string(n_in + n_out) + " (inputs and outputs), got " + std::to_string(args.size()));
  std::vector<arg_kind> kinds(n_in);
  int device = -1;
  auto note_device = [&](const ndarray& a) {
    if (device < 0) device = a.device();
    else if (a.device() != device)
      throw value_error(S.fn + ": the arrays are on different devices (" + std::to_string(device) + " and " +
                        std::to_string(a.device()) + ")");
  };
  for (std::size_t k = 0; k < n_in; ++k) {
    if (const auto* a = std::get_if<ndarray>(&args[k])) {
      kinds[k] = {true, a->dtype(), false};
      note_device(*a);
    } else {
      const scalar& s = std::get<scalar>(args[k]);
      if (S.in[k].raw) throw type_error(S.fn + ": raw parameter '" + S.in[k].name + "' needs an array, got a scalar");
      kinds[k] = {false, s.dtype(), s.is_weak()};
    }
  }
  std::vector<std::optional<dtype>> out_dt(n_out);
  std::vector<ndarray> outs(n_out);
  const bool outs_given = args.size() == n_in + n_out;
  if (outs_given)
    for (std::size_t k = 0; k < n_out; ++k) {
      const auto* a = std::get_if<ndarray>(&args[n_in + k]);
      if (!a) throw type_error(S.fn + ": output '" + S.out[k].name + "' must be an array, got a scalar");
      outs[k] = *a;
      out_dt[k] = a->dtype();
      note_device(*a);
    }
  const binding b = bind_types(S.in, S.out, kinds, out_dt, S.fn);

  // broadcast shape of the non-raw arrays
  std::vector<const shape_t*> shapes;
  for (std::size_t k = 0; k < n_in; ++k)
    if (!S.in[k].raw && kinds[k].is_array) shapes.push_back(&std::get<ndarray>(args[k]).shape());
  if (outs_given)
    for (std::size_t k = 0; k < n_out; ++k)
      if (!S.out[k].raw) shapes.push_back(&outs[k].shape());
  shape_t bshape;
  if (shapes.empty()) {
    if (!size)
      throw value_error(S.fn + ": size must be given when no non-raw array argument determines the shape");
    if (*size < 0) throw value_error(S.fn + ": size must be >= 0, got " + std::to_string(*size));
    bshape = {*size};
  } else {
    if (size) throw value_error(S.fn + ": size must not be given when array arguments determine the shape");
    bshape = broadcast_all(shapes, S.fn);
  }
  if (outs_given)
    for (std::size_t k = 0; k < n_out; ++k)
      if (!S.out[k].raw && outs[k].shape() != bshape)
        throw value_error(S.fn + ": output '" + S.out[k].name + "' does not have the broadcast shape of the operands");
  std::optional<device_guard> guard;
  if (device >= 0) guard.emplace(device);
  if (!outs_given)
    for (std::size_t k = 0; k < n_out; ++k) outs[k] = cusci::empty(bshape, b.out_types[k]);
  const std::int64_t n = product(bshape);
  if (n == 0) return outs;

  // operands and layout
  std::vector<const ndarray*> ops;
  for (std::size_t k = 0; k < n_in; ++k)
    if (!S.in[k].raw && kinds[k].is_array) ops.push_back(&std::get<ndarray>(args[k]));
  for (std::size_t k = 0; k < n_out; ++k)
    if (!S.out[k].raw) ops.push_back(&outs[k]);
  shape_t cshape = bshape;
  std::vector<shape_t> st;
  for (auto* a : ops) st.push_back(broadcast_strides(*a, bshape));
  coalesce(cshape, st);
  ew_layout L;
  L.n_arrays = static_cast<int>(ops.size());
  L.contiguous = cshape.size() <= 1;
  for (std::size_t j = 0; j < ops.size() && L.contiguous; ++j)
    if (!cshape.empty() && st[j][0] != static_cast<std::int64_t>(ops[j]->itemsize())) L.contiguous = false;
  if (cshape.empty()) {
    cshape = {1};
    for (auto& s : st) s = {0};
  }
  if (cshape.size() > 16)
    throw value_error(S.fn + ": more than 16 axes that cannot be merged are not supported");
  L.ndim = static_cast<int>(cshape.size());
  L.index64 = n > std::numeric_limits<std::int32_t>::max();
  L.in_scalar.resize(n_in);
  L.raw_dims.assign(n_in + n_out, 1);
  for (std::size_t k = 0; k < n_in; ++k) {
    L.in_scalar[k] = !kinds[k].is_array;
    if (S.in[k].raw) L.raw_dims[k] = std::max(1, std::get<ndarray>(args[k]).ndim());
  }
  for (std::size_t k = 0; k < n_out; ++k)
    if (S.out[k].raw) L.raw_dims[n_in + k] = std::max(1, outs[k].ndim());

  std::string sig;
  for (dtype t : b.in_types) sig += std::to_string(static_cast<int>(t)) + ",";
  for (dtype t : b.out_types) sig += std::to_string(static_cast<int>(t)) + ",";
  for (bool s : L.in_scalar) sig += s ? 's' : 'a';
  for (int r : L.raw_dims) sig += "r" + std::to_string(r);
  sig += L.contiguous ? "|c" : "|s" + std::to_string(L.ndim) + "." + std::to_string(L.n_arrays);
  sig += L.index64 ? "|64" : "|32";
  std::shared_ptr<function_state> fs;
  {
    std::lock_guard<std::mutex> lock(S.mu);
    auto it = S.sigs.find(sig);
    if (it != S.sigs.end()) fs = it->second;
  }
  if (!fs) {
    const std::string src = elementwise_source(S.in, S.out, b, S.operation, S.name, S.opts, L);
    fs = make_function(make_module(src, S.opts.options, {}, S.name), S.name);
    std::lock_guard<std::mutex> lock(S.mu);
    fs = S.sigs.emplace(sig, fs).first->second;
  }

  std::vector<arg> kargs;
  kargs.reserve(n_in + n_out + 2);
  for (std::size_t k = 0; k < n_in; ++k) {
    if (S.in[k].raw) kargs.push_back(raw_array_arg(std::get<ndarray>(args[k])));
    else if (!kinds[k].is_array) kargs.push_back(scalar_as(std::get<scalar>(args[k]), b.in_types[k]));
    else kargs.emplace_back(std::get<ndarray>(args[k]).data());
  }
  for (std::size_t k = 0; k < n_out; ++k) {
    if (S.out[k].raw) kargs.push_back(raw_array_arg(outs[k]));
    else kargs.emplace_back(outs[k].data());
  }
  kargs.emplace_back(static_cast<long long>(n));
  if (!L.contiguous && L.n_arrays > 0) {
    std::vector<std::int64_t> ix(cshape.begin(), cshape.end());
    for (const auto& s : st) ix.insert(ix.end(), s.begin(), s.end());
    kargs.push_back(arg::bytes(ix.data(), ix.size() * 8, 8));
  }
  const std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, L.index64 ? (std::int64_t{1} << 30) : (std::int64_t{1} << 23));
  fs->launch(dim3(static_cast<unsigned>(blocks)), dim3(256), kargs.data(), kargs.size(), 0);
  return outs;
}

// reduction_kernel ---------------------------------------------------------------------------

reduction_kernel::reduction_kernel(std::string in_params, std::string out_params, std::string map_expr,
                                   std::string reduce_expr, std::string post_map_expr,
                                   std::optional<std::string> identity, std::string name, reduction_options opts) {
  auto st = std::make_shared<reduction_state>();
  st->fn = "cusci::rtc::reduction_kernel '" + name + "'";
  if (name.empty()) throw value_error("cusci::rtc::reduction_kernel: name must not be empty");
  st->in = parse_params(in_params, st->fn);
  st->out = parse_params(out_params, st->fn);
  check_unique_names(st->in, st->out, st->fn);
  if (st->out.empty()) throw value_error(st->fn + ": out_params must name at least one output");
  for (const auto* l : {&st->in, &st->out})
    for (const auto& p : *l)
      if (p.raw) throw value_error(st->fn + ": raw parameters ('" + p.name + "') are not supported in reductions");
  st->name = std::move(name);
  st->map_expr = std::move(map_expr);
  st->reduce_expr = std::move(reduce_expr);
  st->post_map_expr = std::move(post_map_expr);
  st->identity = std::move(identity);
  st->opts = std::move(opts);
  st_ = std::move(st);
}

const std::string& reduction_kernel::name() const noexcept { return st_->name; }

std::vector<ndarray> reduction_kernel::call(const std::vector<operand>& args, axis_arg axis, bool keepdims) const {
  reduction_state& S = *st_;
  const std::size_t n_in = S.in.size(), n_out = S.out.size();
  if (args.size() != n_in)
    throw type_error(S.fn + ": expected " + std::to_string(n_in) + " arguments, got " + std::to_string(args.size()));
  std::vector<arg_kind> kinds(n_in);
  std::vector<const ndarray*> ops;
  std::vector<const shape_t*> shapes;
  int device = -1;
  for (std::size_t k = 0; k < n_in; ++k) {
    if (const auto* a = std::get_if<ndarray>(&args[k])) {
      kinds[k] = {true, a->dtype(), false};
      ops.push_back(a);
      shapes.push_back(&a->shape());
      if (device < 0) device = a->device();
      else if (a->device() != device) throw value_error(S.fn + ": the arrays are on different devices");
    } else {
      const scalar& s = std::get<scalar>(args[k]);
      kinds[k] = {false, s.dtype(), s.is_weak()};
    }
  }
  const binding b = bind_types(S.in, S.out, kinds, std::vector<std::optional<dtype>>(n_out), S.fn);
  const shape_t bshape = shapes.empty() ? shape_t{} : broadcast_all(shapes, S.fn);
  const int nd = static_cast<int>(bshape.size());
  std::vector<bool> reduced(static_cast<std::size_t>(nd), false);
  if (!axis.axes) std::fill(reduced.begin(), reduced.end(), true);
  else
    for (int ax : *axis.axes) {
      if (ax < -nd || ax >= nd)
        throw index_error(S.fn + ": axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                          std::to_string(nd));
      const int a = ax < 0 ? ax + nd : ax;
      if (reduced[a]) throw value_error(S.fn + ": duplicate value in 'axis'");
      reduced[a] = true;
    }
  shape_t out_shape, kshape, rshape;
  std::vector<shape_t> kst(ops.size()), rst(ops.size());
  for (int d = 0; d < nd; ++d) {
    if (reduced[d]) {
      rshape.push_back(bshape[d]);
      if (keepdims) out_shape.push_back(1);
    } else {
      kshape.push_back(bshape[d]);
      out_shape.push_back(bshape[d]);
    }
  }
  for (std::size_t j = 0; j < ops.size(); ++j) {
    const shape_t s = broadcast_strides(*ops[j], bshape);
    for (int d = 0; d < nd; ++d) (reduced[d] ? rst[j] : kst[j]).push_back(s[d]);
  }
  const std::int64_t out_size = product(kshape), red_size = product(rshape);
  std::optional<device_guard> guard;
  if (device >= 0) guard.emplace(device);
  std::vector<ndarray> outs;
  for (std::size_t k = 0; k < n_out; ++k) outs.push_back(cusci::empty(out_shape, b.out_types[k]));
  if (out_size == 0) return outs;
  if (red_size == 0 && !S.identity)
    throw value_error(S.fn + ": zero-size array to reduction operation " + S.name + " which has no identity");

  coalesce(kshape, kst);
  coalesce(rshape, rst);
  if (kshape.empty()) {
    kshape = {1};
    for (auto& s : kst) s = {0};
  }
  if (rshape.empty()) {
    rshape = {red_size == 0 ? 0 : 1};
    for (auto& s : rst) s = {0};
  }
  if (red_size == 0) {
    rshape = {0};
    for (auto& s : rst) s = {0};
  }
  if (kshape.size() > 16 || rshape.size() > 16)
    throw value_error(S.fn + ": more than 16 axes that cannot be merged are not supported");
  red_layout L;
  L.nk = static_cast<int>(kshape.size());
  L.nr = static_cast<int>(rshape.size());
  L.n_arrays = static_cast<int>(ops.size());
  L.in_scalar.resize(n_in);
  for (std::size_t k = 0; k < n_in; ++k) L.in_scalar[k] = !kinds[k].is_array;
  L.lane_fast = true;
  if (!ops.empty() && out_size > 1 && red_size > 1) {
    const std::int64_t item = static_cast<std::int64_t>(ops[0]->itemsize());
    const std::int64_t r_in = std::abs(rst[0].back()), k_in = std::abs(kst[0].back());
    if (r_in != item && k_in == item) L.lane_fast = false;
  }
  const int dev = current_device();
  const std::int64_t sms = sm_count(dev);
  auto pow2_ceil = [](std::int64_t v) {
    std::int64_t p = 1;
    while (p < v) p <<= 1;
    return p;
  };
  std::int64_t tpo;
  if (L.lane_fast) tpo = std::min<std::int64_t>(256, pow2_ceil(std::max<std::int64_t>(red_size, 1)));
  else {
    std::int64_t want = std::max<std::int64_t>(1, sms * 2048 / out_size), p = 1;
    while (p * 2 <= want && p < 256) p <<= 1;
    tpo = std::min<std::int64_t>(p, pow2_ceil(std::max<std::int64_t>(red_size, 1)));
  }
  const std::int64_t opb = 256 / tpo;
  const std::int64_t gx = (out_size + opb - 1) / opb;
  std::int64_t nseg = 1;
  const std::int64_t target = sms * 8;
  if (gx < target && red_size > tpo * 64) {
    nseg = std::min<std::int64_t>({(target + gx - 1) / gx, (red_size + tpo * 64 - 1) / (tpo * 64), 1024});
    nseg = std::max<std::int64_t>(nseg, 1);
  }
  std::int64_t seg_len = red_size;
  if (nseg > 1) {
    seg_len = (red_size + nseg - 1) / nseg;
    seg_len = (seg_len + tpo - 1) / tpo * tpo;
    nseg = (red_size + seg_len - 1) / seg_len;
  }
  if (gx > std::numeric_limits<std::int32_t>::max())
    throw value_error(S.fn + ": too many output elements for one launch");

  std::string sig;
  for (dtype t : b.in_types) sig += std::to_string(static_cast<int>(t)) + ",";
  for (dtype t : b.out_types) sig += std::to_string(static_cast<int>(t)) + ",";
  for (bool s : L.in_scalar) sig += s ? 's' : 'a';
  sig += "|" + std::to_string(L.nk) + "." + std::to_string(L.nr) + "." + std::to_string(L.n_arrays) +
         (L.lane_fast ? "L" : "O");
  std::shared_ptr<reduction_state::entry> e;
  {
    std::lock_guard<std::mutex> lock(S.mu);
    auto it = S.sigs.find(sig);
    if (it != S.sigs.end()) e = it->second;
  }
  if (!e) {
    const std::string src = reduction_source(S.in, S.out, b, S.map_expr, S.reduce_expr, S.post_map_expr, S.identity,
                                             S.name, S.opts, L);
    auto m = make_module(src, S.opts.options, {}, S.name);
    auto ne = std::make_shared<reduction_state::entry>();
    ne->main = make_function(m, S.name);
    ne->final_ = make_function(m, S.name + "_final");
    std::lock_guard<std::mutex> lock(S.mu);
    e = S.sigs.emplace(sig, ne).first->second;
  }

  // parameter block (layout of _cusci_rp)
  const std::size_t na = std::max<std::size_t>(ops.size(), 1);
  std::vector<std::int64_t> p;
  p.push_back(out_size);
  p.push_back(red_size);
  p.push_back(seg_len);
  p.push_back((static_cast<std::int64_t>(static_cast<std::uint32_t>(nseg)) << 32) |
              static_cast<std::uint32_t>(tpo));
  p.insert(p.end(), kshape.begin(), kshape.end());
  p.insert(p.end(), rshape.begin(), rshape.end());
  for (std::size_t j = 0; j < na; ++j) {
    if (j < kst.size()) p.insert(p.end(), kst[j].begin(), kst[j].end());
    else p.insert(p.end(), kshape.size(), 0);
  }
  for (std::size_t j = 0; j < na; ++j) {
    if (j < rst.size()) p.insert(p.end(), rst[j].begin(), rst[j].end());
    else p.insert(p.end(), rshape.size(), 0);
  }
  const arg pblock = arg::bytes(p.data(), p.size() * 8, 8);

  memory_ptr part, parth;
  if (nseg > 1) {
    std::size_t rsize = e->reduce_size.load();
    if (rsize == 0) {
      CUmodule m = e->main->mod->module(dev);
      CUdeviceptr gp = 0;
      CUSCI_RTC_CU_TRY(drv().module_get_global(&gp, &rsize, m, "_cusci_reduce_size_probe"));
      e->reduce_size.store(rsize);
    }
    part = cusci::malloc(static_cast<std::size_t>(out_size * nseg) * rsize);
    parth = cusci::malloc(static_cast<std::size_t>(out_size * nseg));
  }
  std::vector<arg> kargs;
  for (std::size_t k = 0; k < n_in; ++k) {
    if (!kinds[k].is_array) kargs.push_back(scalar_as(std::get<scalar>(args[k]), b.in_types[k]));
    else kargs.emplace_back(std::get<ndarray>(args[k]).data());
  }
  for (auto& o : outs) kargs.emplace_back(o.data());
  kargs.push_back(pblock);
  kargs.emplace_back(part ? part->ptr() : nullptr);
  kargs.emplace_back(parth ? parth->ptr() : nullptr);
  e->main->launch(dim3(static_cast<unsigned>(gx), static_cast<unsigned>(nseg)), dim3(256), kargs.data(), kargs.size(), 0);
  if (nseg > 1) {
    std::vector<arg> fargs;
    for (auto& o : outs) fargs.emplace_back(o.data());
    fargs.push_back(pblock);
    fargs.emplace_back(part->ptr());
    fargs.emplace_back(parth->ptr());
    e->final_->launch(dim3(static_cast<unsigned>(out_size)), dim3(256), fargs.data(), fargs.size(), 0);
  }
  return outs;
}

}  // namespace cusci::rtc
