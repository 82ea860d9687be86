#pragma once
/// @file error.hpp
/// cusci's exception hierarchy and the checking macros used everywhere. Checks are never compiled out.
/// The classes mirror Python's / NumPy's / CuPy's exceptions (cusci core mirrors NumPy/CuPy, not SciPy):
/// `error` is the base every cusci exception derives from.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace cusci {

/// Base of every exception cusci throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An argument has the right type but an inappropriate value (Python's ValueError).
class value_error : public error {
 public:
  using error::error;
};

/// An argument has an unsupported dtype or type (Python's TypeError).
class type_error : public error {
 public:
  using error::error;
};

/// An index or axis is out of range (Python's IndexError / NumPy's AxisError).
class index_error : public error {
 public:
  using error::error;
};

/// Functionality that cusci deliberately does not provide (Python's NotImplementedError).
class not_implemented_error : public error {
 public:
  using error::error;
};

/// An error SciPy reports as Python's RuntimeError: a request that is well-typed but cannot be
/// carried out as given (scipy.ndimage: "no filter weights given", "boundary mode not supported", a
/// `size` sequence of the wrong length). Where SciPy raises RuntimeError, cusci throws this type.
class runtime_error : public error {
 public:
  using error::error;
};

/// A device (or pinned host) allocation failed even after the pool released its cached blocks, or
/// the pool limit would be exceeded. CuPy: `cupy.cuda.memory.OutOfMemoryError`.
class out_of_memory : public error {
 public:
  out_of_memory(const std::string& what, std::size_t requested, std::size_t used, std::size_t total,
                std::size_t limit)
      : error(what), requested_(requested), used_(used), total_(total), limit_(limit) {}
  std::size_t requested_bytes() const noexcept { return requested_; }
  std::size_t used_bytes() const noexcept { return used_; }
  std::size_t total_bytes() const noexcept { return total_; }
  /// The pool's limit in bytes; 0 means no limit was set.
  std::size_t limit_bytes() const noexcept { return limit_; }

 private:
  std::size_t requested_, used_, total_, limit_;
};

/// A CUDA runtime call failed. The message holds the API name, the status name, CUDA's message and
/// file:line of the call. CuPy: `cupy.cuda.runtime.CUDARuntimeError`.
class cuda_error : public error {
 public:
  cuda_error(const std::string& what, int status) : error(what), status_(status) {}
  /// The raw status code (cudaError_t, cublasStatus_t, ...).
  int status() const noexcept { return status_; }

 private:
  int status_;
};

/// A cuBLAS call failed.
class cublas_error : public cuda_error {
 public:
  using cuda_error::cuda_error;
};
/// A cuSPARSE call failed.
class cusparse_error : public cuda_error {
 public:
  using cuda_error::cuda_error;
};
/// A cuSOLVER call failed.
class cusolver_error : public cuda_error {
 public:
  using cuda_error::cuda_error;
};
/// A cuFFT call failed.
class cufft_error : public cuda_error {
 public:
  using cuda_error::cuda_error;
};

namespace detail {
[[noreturn]] void throw_cuda_error(int status, const char* api_call, const char* file, int line);
[[noreturn]] void throw_cublas_error(int status, const char* api_call, const char* file, int line);
[[noreturn]] void throw_cusparse_error(int status, const char* api_call, const char* file, int line);
[[noreturn]] void throw_cusolver_error(int status, const char* api_call, const char* file, int line);
[[noreturn]] void throw_cufft_error(int status, const char* api_call, const char* file, int line);
}  // namespace detail

}  // namespace cusci

/// Throws `exc_type(message)` unless `cond` holds. Never compiled out.
#define CUSCI_EXPECTS(cond, exc_type, message) \
  do {                                         \
    if (!(cond)) throw exc_type(message);      \
  } while (0)

/// Checks a CUDA runtime call; throws cusci::cuda_error on failure.
#define CUSCI_CUDA_TRY(call)                                                         \
  do {                                                                               \
    const int cusci_status_ = static_cast<int>(call);                                \
    if (cusci_status_ != 0)                                                          \
      ::cusci::detail::throw_cuda_error(cusci_status_, #call, __FILE__, __LINE__);   \
  } while (0)

/// Checks the last kernel launch (cudaGetLastError); throws cusci::cuda_error on failure.
#define CUSCI_CHECK_LAUNCH() CUSCI_CUDA_TRY(cudaGetLastError())

#define CUSCI_CUBLAS_TRY(call)                                                       \
  do {                                                                               \
    const int cusci_status_ = static_cast<int>(call);                                \
    if (cusci_status_ != 0)                                                          \
      ::cusci::detail::throw_cublas_error(cusci_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUSCI_CUSPARSE_TRY(call)                                                       \
  do {                                                                                 \
    const int cusci_status_ = static_cast<int>(call);                                  \
    if (cusci_status_ != 0)                                                            \
      ::cusci::detail::throw_cusparse_error(cusci_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUSCI_CUSOLVER_TRY(call)                                                       \
  do {                                                                                 \
    const int cusci_status_ = static_cast<int>(call);                                  \
    if (cusci_status_ != 0)                                                            \
      ::cusci::detail::throw_cusolver_error(cusci_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUSCI_CUFFT_TRY(call)                                                       \
  do {                                                                              \
    const int cusci_status_ = static_cast<int>(call);                               \
    if (cusci_status_ != 0)                                                         \
      ::cusci::detail::throw_cufft_error(cusci_status_, #call, __FILE__, __LINE__); \
  } while (0)
