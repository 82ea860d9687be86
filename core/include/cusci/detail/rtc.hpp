#pragma once
/// @file detail/rtc.hpp
/// Internals of cusci/rtc.hpp that need no GPU, exposed for tests: CuPy's parameter-list parser,
/// type-placeholder binding, the generated kernel sources, the cache-key hash and the disk-cache file
/// format. Not a stable API.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cusci/dtype.hpp"
#include "cusci/rtc.hpp"

namespace cusci::rtc::detail {

// --- parameter lists ------------------------------------------------------------------------

/// One parameter of a CuPy parameter list: `[raw] TYPE NAME`.
struct param_info {
  std::string name;
  std::string type;            ///< as written (a NumPy dtype name or a placeholder)
  std::optional<dtype> fixed;  ///< the dtype when TYPE is a NumPy dtype name; empty for a placeholder
  bool raw = false;
};

/// The dtype of a NumPy dtype name as accepted in parameter lists ("bool", "int8" ... "uint64",
/// "float16", "float32", "float64", "complex64", "complex128"); empty for anything else.
std::optional<dtype> param_dtype(std::string_view type);

/// Parses a comma-separated parameter list (blank: no parameters).
/// @throws cusci::value_error naming `function` and the offending entry for a malformed entry, an
///         invalid identifier or a reserved name (`i`, names starting with `_`).
std::vector<param_info> parse_params(std::string_view list, const std::string& function);

/// @throws cusci::value_error when a name occurs twice in `in` and `out` together.
void check_unique_names(const std::vector<param_info>& in, const std::vector<param_info>& out,
                        const std::string& function);

/// C++ type of a dtype in generated sources: bool, signed char, short, int, long long, unsigned
/// char ..., __half, float, double, cuda::std::complex<float>, cuda::std::complex<double>.
std::string ctype_name(dtype t);
/// The #include lines the types need (<cuda/std/complex>, <cuda_fp16.h>), each once.
std::string type_includes(const std::vector<dtype>& types);

// --- type binding ---------------------------------------------------------------------------

/// What the binder knows of an input argument.
struct arg_kind {
  bool is_array = true;  ///< an ndarray (false: a host scalar)
  dtype dt = dtype::float64;
  bool weak = false;     ///< a weak scalar (C++ arithmetic value)
};

/// The dtype of every parameter and every placeholder binding, in first-bound order.
struct binding {
  std::vector<dtype> in_types, out_types;
  std::vector<std::pair<std::string, dtype>> placeholders;
};

/// Binds placeholders as CuPy does: from array (and strong scalar) inputs, then from given outputs
/// (`out_args[k]` empty when output k is to be allocated), then from weak scalars (NumPy's default
/// dtype of the scalar's kind) for placeholders still unbound.
/// @throws cusci::type_error when two arguments bind one placeholder to different dtypes, an array
///         differs from a fixed-dtype parameter, or an output placeholder stays unbound.
binding bind_types(const std::vector<param_info>& in, const std::vector<param_info>& out,
                   const std::vector<arg_kind>& in_args, const std::vector<std::optional<dtype>>& out_args,
                   const std::string& function);

// --- generated sources ----------------------------------------------------------------------

/// Layout choices baked into an elementwise kernel's source.
struct ew_layout {
  bool contiguous = true;  ///< every non-raw array operand is 1-D unit-stride after merging axes
  int ndim = 1;            ///< merged axes of the indexer (strided form only), 1..16
  int n_arrays = 0;        ///< number of non-raw array operands (inputs then outputs)
  bool index64 = false;    ///< 64-bit loop index (more than 2^31 - 1 elements)
  std::vector<bool> in_scalar;  ///< per input: a host scalar
  std::vector<int> raw_dims;    ///< per parameter (inputs then outputs): array dims of a raw one (>= 1)
};

/// The CUDA source of an elementwise kernel (`extern "C" __global__ void <name>`).
std::string elementwise_source(const std::vector<param_info>& in, const std::vector<param_info>& out,
                               const binding& b, const std::string& operation, const std::string& name,
                               const elementwise_options& opts, const ew_layout& layout);

/// Layout choices baked into a reduction kernel's source.
struct red_layout {
  int nk = 1, nr = 1;      ///< merged kept / reduced axes (>= 1)
  int n_arrays = 0;        ///< non-raw array inputs
  bool lane_fast = true;   ///< consecutive threads walk the reduced axis (else consecutive outputs)
  std::vector<bool> in_scalar;
};

/// The CUDA source of a reduction: kernels `<name>` (partial or final per output) and `<name>_final`
/// (combines the partial results of split reductions).
std::string reduction_source(const std::vector<param_info>& in, const std::vector<param_info>& out, const binding& b,
                             const std::string& map_expr, const std::string& reduce_expr,
                             const std::string& post_map_expr, const std::optional<std::string>& identity,
                             const std::string& name, const reduction_options& opts, const red_layout& layout);

// --- hashing and the disk cache ---------------------------------------------------------------

/// 64-bit FNV-1a.
std::uint64_t fnv1a_64(std::string_view bytes) noexcept;
/// 128-bit FNV-1a (high word first).
std::array<std::uint64_t, 2> fnv1a_128(std::string_view bytes) noexcept;
/// 32 lower-case hex digits of fnv1a_128.
std::string hash_hex(std::string_view bytes);

/// The cache key of a compilation: format version, NVRTC version, target, options, name expressions
/// and source, each length-prefixed so that no two inputs give the same key.
std::string compile_key(const std::string& source, const std::vector<std::string>& options,
                        const std::vector<std::string>& name_expressions, const std::string& target,
                        int nvrtc_major, int nvrtc_minor);

/// A compiled program as cached.
struct cache_entry {
  std::string binary;  ///< CUBIN or PTX (NUL-terminated text)
  bool cubin = true;
  std::vector<std::pair<std::string, std::string>> lowered;  ///< name expression -> mangled name
};

/// File name of a key: hash_hex(key) + ".cubin".
std::string cache_file_name(std::string_view key);
/// File contents: magic, the key, the entry, and a trailing FNV-1a 64 checksum of everything before.
std::string serialize_cache_entry(std::string_view key, const cache_entry& e);
/// Parses file contents; empty when the magic, a length, the checksum or the stored key do not match.
std::optional<cache_entry> parse_cache_entry(std::string_view bytes, std::string_view key);
/// Writes the entry to `dir`/cache_file_name(key) atomically (a temporary file in `dir`, then
/// rename), creating `dir` as needed. Returns false (and leaves no temporary file) on failure.
bool write_cache_file(const std::string& dir, std::string_view key, const cache_entry& e);
/// Reads `dir`/cache_file_name(key); empty when absent or invalid (`*rejected` set when a file existed
/// but was invalid).
std::optional<cache_entry> read_cache_file(const std::string& dir, std::string_view key, bool* rejected = nullptr);

// --- compilation (NVRTC only; no device needed) ------------------------------------------------

/// The NVRTC options cusci compiles with for `target` ("sm_90" gives a CUBIN, "compute_90" PTX):
/// `-arch=<target>`, `-std=c++17` unless `user_opts` has an `-std=`, `-I` for the CUDA include
/// directories (`$CUSCI_CUDA_PATH/include` or the build's toolkit, each with its `cccl`
/// subdirectory when present), then `user_opts`.
std::vector<std::string> default_options(const std::string& target, const std::vector<std::string>& user_opts);
/// Compiles `source` with NVRTC with exactly `options`, registering `name_expressions`.
/// @throws cusci::rtc::compile_error with NVRTC's log; cusci::error for other NVRTC failures.
cache_entry compile_source(const std::string& source, const std::vector<std::string>& options,
                           const std::vector<std::string>& name_expressions, const std::string& display, bool cubin);

/// Round-to-nearest-even binary16 bits of a double (host side of float16 scalars).
std::uint16_t half_bits(double v) noexcept;

}  // namespace cusci::rtc::detail
