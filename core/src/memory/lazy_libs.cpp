// The CUDA libraries (and NCCL) loaded on first use (see cusci/detail/lazy_libs.hpp): one dlopen per library and
// process, by the soname of the toolkit cusci was built with (CMake passes them from the toolkit's files,
// core/src/memory/memory.cmake; the fallbacks below are the sonames the headers' major versions give).
#include "cusci/detail/lazy_libs.hpp"

#include "cusci/error.hpp"

#include <dlfcn.h>

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cusolver_common.h>
#include <cusparse.h>

#include <cstring>
#include <mutex>
#include <string>

#define CUSCI_LAZY_XSTR2_(x) #x
#define CUSCI_LAZY_XSTR_(x) CUSCI_LAZY_XSTR2_(x)

#ifndef CUSCI_SONAME_CUBLAS
#define CUSCI_SONAME_CUBLAS "libcublas.so." CUSCI_LAZY_XSTR_(CUBLAS_VER_MAJOR)
#endif
#ifndef CUSCI_SONAME_CUBLASLT
#define CUSCI_SONAME_CUBLASLT "libcublasLt.so." CUSCI_LAZY_XSTR_(CUBLAS_VER_MAJOR)
#endif
#ifndef CUSCI_SONAME_CUSPARSE
#define CUSCI_SONAME_CUSPARSE "libcusparse.so." CUSCI_LAZY_XSTR_(CUSPARSE_VER_MAJOR)
#endif
#ifndef CUSCI_SONAME_CUSOLVER
#define CUSCI_SONAME_CUSOLVER "libcusolver.so." CUSCI_LAZY_XSTR_(CUSOLVER_VER_MAJOR)
#endif
#ifndef CUSCI_SONAME_CUFFT
#define CUSCI_SONAME_CUFFT "libcufft.so." CUSCI_LAZY_XSTR_(CUFFT_VER_MAJOR)
#endif
#ifndef CUSCI_SONAME_NCCL
// NCCL (cusci::distributed's collectives) keeps soname major 2 across its releases.
#define CUSCI_SONAME_NCCL "libnccl.so.2"
#endif
#ifndef CUSCI_SONAME_NVRTC
// NVRTC's major version is the toolkit's (CUDART_VERSION = 1000 * major + 10 * minor); nullptr: computed.
#define CUSCI_SONAME_NVRTC nullptr
#endif

namespace cusci::detail {
namespace {

struct library {
  const char* prefix;  // the functions' name prefix
  const char* soname;  // nullptr: NVRTC's default soname (nvrtc_soname())
  void* handle;        // guarded by mutex(); never closed
};

// cublasLt before cublas: the longer prefix first.
library libraries[] = {
    {"cublasLt", CUSCI_SONAME_CUBLASLT, nullptr}, {"cublas", CUSCI_SONAME_CUBLAS, nullptr},
    {"cusparse", CUSCI_SONAME_CUSPARSE, nullptr}, {"cusolver", CUSCI_SONAME_CUSOLVER, nullptr},
    {"cufft", CUSCI_SONAME_CUFFT, nullptr},       {"nvrtc", CUSCI_SONAME_NVRTC, nullptr},
    {"nccl", CUSCI_SONAME_NCCL, nullptr},
};

std::mutex& mutex() {
  static std::mutex m;
  return m;
}

std::string nvrtc_soname() { return "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000); }

// The directory of the loaded CUDA runtime (the toolkit's library directory, as a rule), with a trailing
// '/', or "" if unknown: the second place a library is looked for when the soname alone is not found.
std::string cudart_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaRuntimeGetVersion), &info) == 0 || !info.dli_fname) return {};
  const std::string f = info.dli_fname;
  const auto slash = f.rfind('/');
  return slash == std::string::npos ? std::string() : f.substr(0, slash + 1);
}

// dlerror() of the last failed dl* call of this thread, or a fallback.
std::string last_dlerror() {
  const char* e = dlerror();
  return e ? std::string(e) : std::string("unknown error");
}

}  // namespace

void* lazy_symbol(const char* name) {
  library* lib = nullptr;
  for (auto& l : libraries) {
    if (std::strncmp(name, l.prefix, std::strlen(l.prefix)) == 0) {
      lib = &l;
      break;
    }
  }
  if (!lib) throw error(std::string("cusci: internal error: no CUDA library provides '") + name + "'");
  const std::string soname = lib->soname ? std::string(lib->soname) : nvrtc_soname();

  std::lock_guard<std::mutex> lock(mutex());
  if (!lib->handle) {
    dlerror();  // clear a stale error
    void* h = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const std::string why = last_dlerror();
      // Not on the loader's search path: try next to the CUDA runtime cusci runs with.
      const std::string dir = cudart_directory();
      if (!dir.empty()) h = dlopen((dir + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
      // The next call tries again (nothing is cached on failure).
      if (!h) {
        throw cuda_error("cusci: cannot load " + soname + " (needed by " + name + "): " + why,
                         static_cast<int>(cudaErrorSharedObjectInitFailed));
      }
    }
    lib->handle = h;
  }
  dlerror();
  void* f = dlsym(lib->handle, name);
  if (!f) {
    throw cuda_error("cusci: " + soname + " has no function " + name + " (is it older than the toolkit cusci "
                     "was built with?): " + last_dlerror(),
                     static_cast<int>(cudaErrorSharedObjectSymbolNotFound));
  }
  return f;
}

}  // namespace cusci::detail
