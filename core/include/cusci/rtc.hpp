#pragma once
/// @file rtc.hpp
/// Runtime-compiled kernels through NVRTC, with CuPy's semantics: raw kernels and modules written in
/// CUDA C++ (`cupy.RawKernel`, `cupy.RawModule`), and kernels generated from CuPy's parameter-list
/// syntax (`cupy.ElementwiseKernel`, `cupy.ReductionKernel`).
///
/// Compilation: NVRTC to a CUBIN for the current device's architecture (`-arch=sm_XY`), or to PTX for
/// the newest architecture NVRTC knows (JIT-compiled by the driver) when NVRTC lacks the device's.
/// Binaries are cached in memory and on disk (`CUSCI_CACHE_DIR`, default `~/.cusci/kernel_cache`;
/// `CUSCI_CACHE_IN_MEMORY=1` disables the disk cache), keyed by the source, the options, the name
/// expressions, the target architecture and NVRTC's version. A module is loaded lazily into each
/// device's primary context the first time a kernel runs there.
///
/// Nothing else in cusci compiles at run time: every other operation is precompiled.
/// Launches are asynchronous on the current stream of the current device (CuPy's semantics);
/// compiling and loading block the host but never synchronize a stream.
///
/// cusci core mirrors NumPy/CuPy, not SciPy. See docs/core-rtc.md.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <vector_types.h>  // dim3

#include "cusci/dtype.hpp"
#include "cusci/error.hpp"
#include "cusci/ndarray.hpp"
#include "cusci/reduction.hpp"
#include "cusci/scalar.hpp"

namespace cusci::rtc {

/// NVRTC rejected the source. Carries NVRTC's log, the kernel (or module) name and the options.
/// CuPy: `cupy.cuda.compiler.CompileException`.
class compile_error : public cusci::error {
 public:
  compile_error(const std::string& what, std::string log, std::string name, std::vector<std::string> options)
      : error(what), log_(std::move(log)), name_(std::move(name)), options_(std::move(options)) {}
  /// NVRTC's compilation log.
  const std::string& log() const noexcept { return log_; }
  /// The kernel name (raw_kernel, elementwise_kernel, reduction_kernel) or "module" (raw_module).
  const std::string& name() const noexcept { return name_; }
  /// The options given to NVRTC, cusci's own (-arch, -std, -I) included.
  const std::vector<std::string>& options() const noexcept { return options_; }

 private:
  std::string log_, name_;
  std::vector<std::string> options_;
};

/// One argument of a raw kernel launch: the bytes of a C++ value of exactly the kernel parameter's
/// type. An ndarray passes its data pointer (element 0); an arithmetic value passes its own type
/// (write `std::int32_t(n)` for an `int` parameter: a plain `n` of type `long` passes 8 bytes, as
/// CuPy passes a Python int as a 64-bit integer); a `cusci::scalar` passes its dtype's C type (a weak
/// integer as int64, a weak float as double); `arg::bytes` passes any trivially copyable struct.
class arg {
 public:
  /// The array's device pointer to element 0 (`a.data()`), 8 bytes.
  arg(const ndarray& a) { set_pointer(a.data()); }
  /// A raw device pointer, 8 bytes.
  arg(const void* p) { set_pointer(p); }
  arg(void* p) { set_pointer(p); }
  /// An arithmetic value of exactly type T (bool: 1 byte).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  arg(T v) {
    set(&v, sizeof(T), alignof(T));
  }
  /// A complex value as two consecutive reals (layout of cuda::std::complex<T> / cuComplex).
  template <class T>
  arg(std::complex<T> v) {
    set(&v, sizeof(v), alignof(T) * 2);
  }
  /// The scalar's value in its dtype's C type (weak int: int64, weak float: double, weak complex:
  /// complex128, bool: 1 byte; float16: 2 bytes).
  arg(const scalar& s);
  /// `n` raw bytes (a struct passed by value); `align` is the struct's alignment (a power of 2,
  /// <= 16). @throws cusci::value_error when n > 4096 or align is not a power of 2 <= 16.
  static arg bytes(const void* p, std::size_t n, std::size_t align);

  const void* data() const noexcept { return storage_.data(); }
  std::size_t size() const noexcept { return size_; }
  std::size_t alignment() const noexcept { return align_; }
  bool is_pointer() const noexcept { return pointer_; }

 private:
  arg() = default;
  void set_pointer(const void* p) {
    set(&p, sizeof(p), alignof(void*));
    pointer_ = true;
  }
  void set(const void* p, std::size_t n, std::size_t align) {
    storage_.assign((n + 7) / 8, 0);
    std::memcpy(storage_.data(), p, n);
    size_ = n;
    align_ = align;
    pointer_ = false;
  }
  std::vector<std::uint64_t> storage_;  // 8-byte aligned copy of the bytes
  std::size_t size_ = 0, align_ = 1;
  bool pointer_ = false;
};

/// Attributes of a compiled kernel on the current device (cuFuncGetAttribute).
/// CuPy: `RawKernel.attributes` / `max_threads_per_block`, `num_regs`, `shared_size_bytes`, ...
struct kernel_attributes {
  int max_threads_per_block = 0;          ///< largest block that can launch
  int shared_size_bytes = 0;              ///< static shared memory per block
  int const_size_bytes = 0;               ///< constant memory
  int local_size_bytes = 0;               ///< local memory per thread
  int num_regs = 0;                       ///< registers per thread
  int ptx_version = 0;                    ///< PTX virtual architecture (e.g. 90)
  int binary_version = 0;                 ///< binary architecture (e.g. 90)
  int max_dynamic_shared_size_bytes = 0;  ///< current cap on dynamic shared memory
};

/// Where a module's binary came from on its first use in this process (for tests and benchmarks).
struct cache_stats {
  std::size_t memory_hits = 0;  ///< found in the in-memory cache
  std::size_t disk_hits = 0;    ///< loaded from a disk-cache file
  std::size_t compiles = 0;     ///< compiled by NVRTC
  std::size_t disk_rejects = 0; ///< disk-cache files ignored (corrupt, truncated or another key)
};

/// Counters since process start (thread-safe; never throws).
cache_stats get_cache_stats() noexcept;
/// Empties the in-memory cache of compiled binaries (kernel objects already built keep theirs;
/// elementwise/reduction kernels also drop their per-signature function tables the next time they are
/// called with a new signature). The next compilation of the same source reads the disk cache.
/// Thread-safe; never throws. CuPy: `cupy._util.clear_memo` / deleting `_kernel_cache` (no public API).
void clear_memory_cache() noexcept;
/// The disk-cache directory in effect: `$CUSCI_CACHE_DIR`, else `$HOME/.cusci/kernel_cache`, else an
/// empty string when neither is set or the disk cache is disabled (`CUSCI_CACHE_IN_MEMORY=1`).
/// Read from the environment at each call. CuPy: `CUPY_CACHE_DIR`.
std::string cache_dir();

namespace detail {
struct module_state;
struct function_state;
struct elementwise_state;
struct reduction_state;
}  // namespace detail

/// A kernel written in CUDA C++, compiled by NVRTC on first use and launched by name.
/// The kernel must be `extern "C" __global__` (or found through a name expression of a raw_module).
/// CuPy: `cupy.RawKernel(code, name, options)`.
class raw_kernel {
 public:
  /// Records the source; compiles lazily (first launch or attribute query). Host only; never touches
  /// the device. `options` are NVRTC options added after cusci's own (`-arch=...`, `-std=c++17`
  /// unless an `-std=` option is given, `-I<CUDA include>`).
  /// @throws cusci::value_error when `name` is empty.
  raw_kernel(std::string code, std::string name, std::vector<std::string> options = {});

  /// Launches on the current stream of the current device: grid [blocks], block [threads],
  /// `shared_mem` bytes of dynamic shared memory. Asynchronous; compiles and loads first when needed
  /// (blocking the host, never synchronizing the stream).
  /// @throws cusci::rtc::compile_error (with NVRTC's log); cusci::value_error when the module has no
  ///         kernel of that name; cusci::type_error when the number of arguments or an argument's size
  ///         differs from the kernel's parameters (read with cuFuncGetParamInfo); cusci::cuda_error
  ///         when the driver refuses the launch (e.g. too many threads).
  /// CuPy: `RawKernel.__call__(grid, block, args, shared_mem=0)`.
  void operator()(dim3 grid, dim3 block, std::initializer_list<arg> args, std::size_t shared_mem = 0) const;
  void operator()(dim3 grid, dim3 block, const std::vector<arg>& args, std::size_t shared_mem = 0) const;

  /// Compiles (if needed) and loads the kernel on the current device. Blocking; throws as operator().
  void compile() const;
  /// Attributes on the current device (compiles and loads first). @throws as operator().
  kernel_attributes attributes() const;
  int max_threads_per_block() const { return attributes().max_threads_per_block; }
  int num_regs() const { return attributes().num_regs; }
  int shared_size_bytes() const { return attributes().shared_size_bytes; }
  int max_dynamic_shared_size_bytes() const { return attributes().max_dynamic_shared_size_bytes; }
  /// Sets CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES on the current device now and on every
  /// device the kernel is loaded on later. @throws cusci::value_error for a negative value;
  /// cusci::cuda_error when the driver refuses it (above the device's opt-in limit).
  /// CuPy: `RawKernel.max_dynamic_shared_size_bytes = n`.
  void set_max_dynamic_shared_size_bytes(int bytes);

  const std::string& name() const noexcept;
  const std::string& code() const noexcept;
  const std::vector<std::string>& options() const noexcept;

 private:
  friend class raw_module;
  explicit raw_kernel(std::shared_ptr<detail::function_state> st) : st_(std::move(st)) {}
  std::shared_ptr<detail::function_state> st_;
};

/// A global variable of a module on the current device (cuModuleGetGlobal): its address and size.
struct global_symbol {
  void* ptr = nullptr;
  std::size_t size = 0;
};

/// Several kernels (and globals) compiled from one source, with CuPy's name expressions for
/// templated kernels (nvrtcAddNameExpression / nvrtcGetLoweredName).
/// CuPy: `cupy.RawModule(code=..., options=..., name_expressions=...)`.
class raw_module {
 public:
  /// Records the source; compiles lazily. `name_expressions` are C++ names such as
  /// `"my_kernel<float, 4>"` that `get_function` later accepts. Host only; never throws.
  raw_module(std::string code, std::vector<std::string> options = {}, std::vector<std::string> name_expressions = {});
  /// The kernel `name` (an `extern "C"` name or one of the name expressions). Compiles and loads on the
  /// current device to check that it exists.
  /// @throws cusci::rtc::compile_error; cusci::value_error when there is no such kernel.
  /// CuPy: `RawModule.get_function(name)`.
  raw_kernel get_function(const std::string& name) const;
  /// The address and size of the global variable `name` (an `extern "C"` name or a name expression)
  /// on the current device. @throws as get_function. CuPy: `RawModule.get_global(name)`.
  global_symbol get_global(const std::string& name) const;
  /// Compiles (if needed) and loads on the current device. @throws cusci::rtc::compile_error.
  void compile() const;
  /// The mangled name NVRTC gave a name expression (compiles first).
  /// @throws cusci::value_error when `name_expression` was not given to the constructor.
  std::string lowered_name(const std::string& name_expression) const;

 private:
  std::shared_ptr<detail::module_state> st_;
};

/// An operand of elementwise and reduction kernels: a device array or a host scalar.
/// A weak scalar (a C++ arithmetic value) takes the type of its parameter (the placeholder's binding
/// from the arrays, or the fixed dtype); when nothing else binds the placeholder it binds it with its
/// NumPy default (bool, int64, float64, complex128). A strong scalar (`scalar::of(v, dtype)`) binds
/// its placeholder as an array of its dtype would.
using operand = std::variant<ndarray, scalar>;

/// Options of `elementwise_kernel` (CuPy's keyword arguments).
struct elementwise_options {
  /// Code placed before the kernel (helper functions, #includes, #defines). CuPy: `preamble`.
  std::string preamble{};
  /// Code run by every thread before its loop over elements. CuPy: `loop_prep`.
  std::string loop_prep{};
  /// Code run by every thread after its loop. CuPy: `after_loop`.
  std::string after_loop{};
  /// Extra NVRTC options. CuPy: `options`.
  std::vector<std::string> options{};
};

/// A kernel that runs `operation` once per element of the broadcast non-raw operands.
///
/// Parameter lists (CuPy's syntax): comma-separated `[raw] TYPE NAME`; TYPE is a NumPy dtype name
/// (`bool`, `int8` ... `uint64`, `float16`, `float32`, `float64`, `complex64`, `complex128`) or a
/// type placeholder (any other identifier, e.g. `T`), bound at call time from the dtypes of the
/// arguments (see `operand`). In `operation`: each non-raw input NAME is the element's value
/// (`const TYPE`), each non-raw output NAME a reference to the output element (`TYPE&`); a raw
/// parameter is an array object indexed by a C-order flat index over its own shape (`w[j]`,
/// `w.size()`, `w.ndim()`, `w.shape()[d]`); `i` is the flat index and `_ind.size()` the number of
/// elements. Placeholders are `typedef`s in the source. Complex dtypes are
/// `cuda::std::complex<float/double>` (<cuda/std/complex>), float16 is `__half` (<cuda_fp16.h>).
///
/// Strided inputs and outputs: the kernel computes each operand's byte offset from the flat index
/// with an indexer generated into the source (no contiguous copies); operands that are all
/// contiguous after merging axes get a kernel that indexes them directly.
/// CuPy: `cupy.ElementwiseKernel(in_params, out_params, operation, name, preamble=..., loop_prep=...,
/// after_loop=..., options=...)`.
class elementwise_kernel {
 public:
  /// Parses the parameter lists (host only; compiles lazily, once per signature: argument dtypes,
  /// number of merged axes, contiguity, index width).
  /// @throws cusci::value_error for a malformed parameter list, a duplicated or reserved name (`i`,
  ///         names starting with `_`), a raw scalar, or an empty `name`.
  elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                     std::string name = "kernel", elementwise_options opts = {});

  /// Runs the kernel. `args` holds the inputs, then optionally every output (all or none).
  /// @param args  inputs [shapes broadcasting together], then outputs [the broadcast shape].
  /// @param size  the number of elements when no non-raw array operand gives a shape (CuPy's `size=`);
  ///              must be absent otherwise.
  /// @return every output (given or allocated C-contiguous with the dtype of its parameter's binding),
  ///         in the order of `out_params`.
  /// Asynchronous on the current stream; the first call of a signature compiles (blocking the host).
  /// @throws cusci::type_error when the argument count is wrong, two arguments bound to one
  ///         placeholder have different dtypes, an array's dtype differs from a fixed-dtype parameter,
  ///         an output placeholder is bound by nothing, or a scalar is given for a raw parameter or an
  ///         output; cusci::value_error when shapes do not broadcast, a given output is not of the
  ///         broadcast shape, `size` is missing or superfluous, or the arrays are on different devices;
  ///         cusci::rtc::compile_error; cusci::out_of_memory.
  /// CuPy: `ElementwiseKernel.__call__(*args, size=None)` (returns the outputs as a tuple).
  std::vector<ndarray> call(const std::vector<operand>& args, std::optional<std::int64_t> size = {}) const;
  /// The same, returning the first output (the only one in the common case).
  ndarray operator()(const std::vector<operand>& args, std::optional<std::int64_t> size = {}) const {
    return call(args, size).front();
  }
  const std::string& name() const noexcept;

 private:
  std::shared_ptr<detail::elementwise_state> st_;
};

/// Options of `reduction_kernel` (CuPy's keyword arguments).
struct reduction_options {
  /// C++ type of the reduction variables `a`, `b` (may name a placeholder); default: the type of the
  /// first output (`type_out0_raw`). CuPy: `reduce_type`.
  std::string reduce_type{};
  /// Code placed before the kernel. CuPy: `preamble`.
  std::string preamble{};
  /// Extra NVRTC options. CuPy: `options`.
  std::vector<std::string> options{};
};

/// A reduction: `map_expr` (an expression of the inputs) is evaluated for every element, the values
/// are combined with `reduce_expr` (an expression of `a` and `b`, associative and commutative) over
/// the reduced axes starting from `identity`, and `post_map_expr` (a statement reading the result
/// `a` and assigning the outputs) runs once per output element. The source has the typedefs of the
/// placeholders, `type_in0_raw`, ..., `type_out0_raw`, ... and `_type_reduce`.
/// CuPy: `cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
/// name, reduce_type=..., preamble=..., options=...)`.
class reduction_kernel {
 public:
  /// @param identity  C++ expression of the starting value (`"0"`, `"-CUDART_INF_F"` with a suitable
  ///                  preamble), or none: then a reduction over zero elements throws.
  /// @throws cusci::value_error for a malformed parameter list, a raw parameter (not supported), no
  ///         output, or an empty name.
  reduction_kernel(std::string in_params, std::string out_params, std::string map_expr, std::string reduce_expr,
                   std::string post_map_expr, std::optional<std::string> identity,
                   std::string name = "reduce_kernel", reduction_options opts = {});

  /// Broadcasts the non-raw inputs together and reduces over `axis` (see cusci::axis_arg; all axes by
  /// default). Outputs are allocated C-contiguous with the reduced shape (length-1 axes kept with
  /// `keepdims`) and the dtype of their parameter's binding.
  /// @param args  inputs only [shapes broadcasting together] (no output arguments).
  /// Asynchronous on the current stream; the first call of a signature compiles.
  /// @throws cusci::type_error for a wrong argument count or a placeholder bound to two dtypes or an
  ///         unbound output placeholder; cusci::index_error for an axis out of range;
  ///         cusci::value_error for a repeated axis, shapes that do not broadcast, or a reduction over
  ///         zero elements without identity; cusci::rtc::compile_error; cusci::out_of_memory.
  /// CuPy: `ReductionKernel.__call__(*args, axis=None, keepdims=False)`. Deviation: no `out=`.
  std::vector<ndarray> call(const std::vector<operand>& args, axis_arg axis = {}, bool keepdims = false) const;
  /// The same, returning the first output.
  ndarray operator()(const std::vector<operand>& args, axis_arg axis = {}, bool keepdims = false) const {
    return call(args, std::move(axis), keepdims).front();
  }
  const std::string& name() const noexcept;

 private:
  std::shared_ptr<detail::reduction_state> st_;
};

}  // namespace cusci::rtc
