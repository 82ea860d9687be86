// Internal: the CUDA libraries (cuBLAS, cuBLASLt, cuSPARSE, cuSOLVER, cuFFT, NVRTC, NCCL) are loaded on first
// use. No cusci library links them; each is opened with dlopen(RTLD_NOW | RTLD_LOCAL) by the soname of
// the toolkit cusci was built with the first time a function that needs it is called, and its functions
// are resolved with dlsym. A program that uses only ndarray, ndimage, ... never loads them.
//
// Call sites keep including the libraries' headers (cublas_v2.h, cusparse.h, ...) for the declarations
// and write
//
//   CUSCI_CUBLAS_TRY(CUSCI_LAZY(cublasGemmEx)(h, opb, opa, ...));
//
// instead of cublasGemmEx(h, opb, opa, ...). CUSCI_LAZY(fn) is a function pointer of type decltype(&fn),
// resolved once per call site (a function-local static, thread-safe) by its exported name. The name is
// the macro-EXPANDED one, so headers' renames (cublasCreate -> cublasCreate_v2) give the exported symbol.
// Where the C++ headers overload fn (decltype(&fn) ambiguous), CUSCI_LAZY_AS(fn, type) names the type.
//
// A library that cannot be loaded, or a symbol it lacks, throws cusci::cuda_error ("cusci: cannot load
// libcufft.so.12 (needed by cufftExecC2C): <dlerror()>"); the call site retries on its next call.
#pragma once

namespace cusci::detail {

/// The address of the CUDA-library function `name` (an exported symbol such as "cublasCreate_v2"). The
/// library comes from the name's prefix: cublasLt*, cublas*, cusparse*, cusolver*, cufft*, nvrtc*, nccl*. Each
/// library is opened once per process (thread-safe) and never closed. Throws cusci::cuda_error when the
/// library cannot be opened or lacks the symbol, cusci::error for a name of no known library; never
/// returns null.
void* lazy_symbol(const char* name);

}  // namespace cusci::detail

#define CUSCI_LAZY_STR2_(x) #x
#define CUSCI_LAZY_STR_(x) CUSCI_LAZY_STR2_(x)

/// CUSCI_LAZY(fn)(args...): calls the CUDA-library function fn, loading its library on first use.
#define CUSCI_LAZY(fn) CUSCI_LAZY_AS(fn, decltype(&fn))

/// CUSCI_LAZY_AS(fn, fn_ptr_type)(args...): the same for a name the headers overload in C++ (cuBLAS'
/// cublasGemmEx & co. have a C++-only inline overload taking cudaDataType as the compute type), where
/// decltype(&fn) is ambiguous: fn_ptr_type names the exported (extern "C") one, and must be the type of
/// one of fn's overloads (checked at compile time).
#define CUSCI_LAZY_AS(fn, ...)                                                                           \
  ([]() -> __VA_ARGS__ {                                                                                 \
    using cusci_lazy_t_ = __VA_ARGS__;                                                                   \
    static_assert(sizeof(static_cast<cusci_lazy_t_>(&fn)) != 0, "CUSCI_LAZY_AS: fn has no such overload"); \
    static const cusci_lazy_t_ cusci_lazy_fn_ =                                                          \
        reinterpret_cast<cusci_lazy_t_>(::cusci::detail::lazy_symbol(CUSCI_LAZY_STR_(fn)));              \
    return cusci_lazy_fn_;                                                                               \
  }())
