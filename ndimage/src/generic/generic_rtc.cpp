// The run-time-compiled form of generic_filter, generic_filter1d and vectorized_filter: the kernel
// source generated around the user's __device__ function, compiled once per (source, options,
// signature) through cusci::rtc (whose binaries are also cached in memory and on disk), and launched
// between the precompiled preparation and finishing steps of generic_plan.cpp.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/ndimage/detail/generic_plan.hpp"
#include "cusci/ndimage/generic.hpp"
#include "cusci/rtc.hpp"
#include "filters/filter_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

/// Declarations every generated source starts with (the user's function may use either spelling).
constexpr const char* kPrelude =
    "typedef decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr)) ptrdiff_t;\n"
    "namespace std { typedef ::ptrdiff_t ptrdiff_t; }\n";

/// The C++ type of a dtype in generated sources.
const char* device_type_name(dtype t) {
  switch (t) {
    case dtype::bool_: return "bool";
    case dtype::int8: return "signed char";
    case dtype::int16: return "short";
    case dtype::int32: return "int";
    case dtype::int64: return "long long";
    case dtype::uint8: return "unsigned char";
    case dtype::uint16: return "unsigned short";
    case dtype::uint32: return "unsigned int";
    case dtype::uint64: return "unsigned long long";
    case dtype::float16: return "__half";
    case dtype::float32: return "float";
    case dtype::float64: return "double";
    case dtype::complex64: return "cuda::std::complex<float>";
    case dtype::complex128: return "cuda::std::complex<double>";
  }
  return "double";
}

/// `cusci_convert<R>(v)`: the function's result v (of whatever type R it returns) stored into
/// `cusci_output_t` with NumPy's casting, as SciPy's `output[...] = result` assigns it: a real
/// floating result into an integer type is C's conversion as compiled for x86-64 (cvttsd2si to 32
/// bits for types up to int32 / uint16, to 64 bits for int64 / uint32, the two-branch sequence for
/// uint64: NaN and out-of-range values give the "integer indefinite" value, then its low bits; the
/// same rule as cusci's precompiled casts, engine/cast.cuh), into bool it is `v != 0` (NaN true); a
/// complex result keeps its real part for a real output. Everything else is static_cast.
std::string convert_source(dtype out, bool fp16, bool complex) {
  std::string s =
      "template <class T> struct cusci_is_float { static constexpr bool value = false; };\n"
      "template <> struct cusci_is_float<float> { static constexpr bool value = true; };\n"
      "template <> struct cusci_is_float<double> { static constexpr bool value = true; };\n"
      "template <class T> struct cusci_is_complex { static constexpr bool value = false; };\n";
  if (fp16) s += "template <> struct cusci_is_float<__half> { static constexpr bool value = true; };\n";
  if (complex)
    s += "template <class T> struct cusci_is_complex<cuda::std::complex<T>> { static constexpr bool value = true; };\n";
  const bool out_complex = is_complex(out);
  s += "__device__ __forceinline__ cusci_output_t cusci_from_double(double d) {\n";
  switch (out) {
    case dtype::bool_: s += "  return d != 0.0 || d != d;\n"; break;
    case dtype::int8:
    case dtype::int16:
    case dtype::int32:
    case dtype::uint8:
    case dtype::uint16:
      s += "  const int i = (d > -2147483649.0 && d < 2147483648.0) ? (int)d : (int)0x80000000u;\n"
           "  return (cusci_output_t)(unsigned)i;\n";
      break;
    case dtype::int64:
    case dtype::uint32:
      s += "  const long long i = (d >= -9223372036854775808.0 && d < 9223372036854775808.0) ? (long long)d\n"
           "      : (long long)0x8000000000000000ull;\n"
           "  return (cusci_output_t)(unsigned long long)i;\n";
      break;
    case dtype::uint64:
      s += "  const double t63 = 9223372036854775808.0;\n"
           "  if (d >= t63) { const double e = d - t63;\n"
           "    const long long i = e < t63 ? (long long)e : (long long)0x8000000000000000ull;\n"
           "    return (unsigned long long)i ^ (1ull << 63); }\n"
           "  const long long i = (d >= -t63 && d < t63) ? (long long)d : (long long)0x8000000000000000ull;\n"
           "  return (unsigned long long)i;\n";
      break;
    default: s += "  return static_cast<cusci_output_t>(d);\n"; break;
  }
  s += "}\n"
       "template <class R> __device__ __forceinline__ cusci_output_t cusci_convert(const R& v) {\n"
       "  if constexpr (cusci_is_float<R>::value) return cusci_from_double(static_cast<double>(v));\n";
  if (!out_complex) s += "  else if constexpr (cusci_is_complex<R>::value) return cusci_convert(v.real());\n";
  s += "  else return static_cast<cusci_output_t>(v);\n}\n";
  return s;
}

/// The gather-and-call loop shared by the window kernels (generic_filter and vectorized_filter):
/// one thread per output (grid-stride), the window gathered through the offsets into a local array
/// (LOCAL > 0) or the thread's slice of the global scratch buffer.
std::string window_source(const device_function& f, dtype in, dtype out, bool convert) {
  const bool fp16 = in == dtype::float16 || out == dtype::float16;
  const bool complex = is_complex(in) || is_complex(out);
  std::string s = kPrelude;
  if (fp16) s += "#include <cuda_fp16.h>\n";
  if (complex) s += "#include <cuda/std/complex>\n";
  s += std::string("typedef ") + device_type_name(in) + " cusci_input_t;\ntypedef " + device_type_name(out) +
       " cusci_output_t;\n";
  s += convert ? convert_source(out, fp16, complex)
               : "template <class R> __device__ __forceinline__ cusci_output_t cusci_convert(const R& v) {\n"
                 "  return static_cast<cusci_output_t>(v);\n}\n";
  s += "#line 1 \"device_function\"\n" + f.code + "\n#line 1 \"cusci_generated\"\n";
  s += "template <int LOCAL>\n"
       "__device__ __forceinline__ void cusci_window_loop(const cusci_input_t* __restrict__ padded,\n"
       "    const long long* __restrict__ geom, cusci_output_t* __restrict__ out, cusci_input_t* scratch,\n"
       "    long long count, long long window, int ndim) {\n"
       "  cusci_input_t local[LOCAL > 0 ? LOCAL : 1];\n"
       "  const long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
       "  cusci_input_t* w = LOCAL > 0 ? local : scratch + tid * window;\n"
       "  const long long* off = geom + 2 * ndim;\n"
       "  for (long long i = tid; i < count; i += (long long)gridDim.x * blockDim.x) {\n"
       "    long long rem = i, base = 0;\n"
       "    for (int d = ndim - 1; d >= 0; --d) {\n"
       "      const long long n = geom[d];\n"
       "      base += (rem % n) * geom[ndim + d];\n"
       "      rem /= n;\n"
       "    }\n"
       "    for (long long k = 0; k < window; ++k) w[k] = padded[base + off[k]];\n"
       "    out[i] = cusci_convert(" + f.name + "(w, static_cast<ptrdiff_t>(window)));\n"
       "  }\n"
       "}\n"
       "extern \"C\" __global__ void cusci_window_local(const cusci_input_t* padded, const long long* geom,\n"
       "    cusci_output_t* out, cusci_input_t* scratch, long long count, long long window, int ndim) {\n"
       "  cusci_window_loop<" + std::to_string(detail::generic_local_window) + ">(padded, geom, out, scratch, count, window, ndim);\n"
       "}\n"
       "extern \"C\" __global__ void cusci_window_global(const cusci_input_t* padded, const long long* geom,\n"
       "    cusci_output_t* out, cusci_input_t* scratch, long long count, long long window, int ndim) {\n"
       "  cusci_window_loop<0>(padded, geom, out, scratch, count, window, ndim);\n"
       "}\n";
  return s;
}

std::string line_source(const device_function& f) {
  std::string s = kPrelude;
  s += "#line 1 \"device_function\"\n" + f.code + "\n#line 1 \"cusci_generated\"\n";
  s += "extern \"C\" __global__ void cusci_line_filter(double* in, double* out, long long lines,\n"
       "    long long in_len, long long out_len) {\n"
       "  for (long long l = blockIdx.x * (long long)blockDim.x + threadIdx.x; l < lines;\n"
       "       l += (long long)gridDim.x * blockDim.x)\n"
       "    (void)" + f.name + "(in + l * in_len, static_cast<ptrdiff_t>(in_len), out + l * out_len,\n"
       "        static_cast<ptrdiff_t>(out_len));\n"
       "}\n";
  return s;
}

/// One module per generated source and options: built once per process (the binary itself also
/// comes from cusci::rtc's memory / disk cache).
const rtc::raw_module& module_for(const std::string& source, const std::vector<std::string>& options) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::vector<std::string>>, rtc::raw_module> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(source, options);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, rtc::raw_module(source, options)).first;
  return it->second;
}

void check_function(const device_function& f, const char* fn) {
  if (f.name.empty()) throw value_error(detail::fname(fn) + ": device_function.name is empty");
}

void launch_window(const detail::window_plan& p, const rtc::raw_module& m) {
  if (p.skip || p.count == 0) return;
  const bool local = p.window <= detail::generic_local_window;
  const rtc::raw_kernel k = m.get_function(local ? "cusci_window_local" : "cusci_window_global");
  const void* scratch = local ? nullptr : p.scratch.data();
  k(dim3(p.grid), dim3(p.block),
    {rtc::arg(p.padded.data()), rtc::arg(p.geometry.data()), rtc::arg(p.result.data()), rtc::arg(scratch),
     rtc::arg(static_cast<long long>(p.count)), rtc::arg(static_cast<long long>(p.window)),
     rtc::arg(static_cast<std::int32_t>(p.ndim))});
}

}  // namespace

ndarray generic_filter(const ndarray& input, const device_function& function, const per_axis<std::int64_t>& size,
                       const generic_filter_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::generic_filter");
  check_function(function, "generic_filter");
  detail::window_plan p = detail::prepare_generic_filter(input, size, opts);
  if (!p.skip && p.count > 0)
    launch_window(p, module_for(window_source(function, dtype::float64, dtype::float64, false), function.options));
  return detail::finish_generic_filter(p);
}

ndarray vectorized_filter(const ndarray& input, const device_function& function, const vectorized_filter_options& opts) {
  check_function(function, "vectorized_filter");
  detail::window_plan p = detail::prepare_vectorized_filter(input, opts);
  if (!p.skip && p.count > 0) {
    launch_window(p, module_for(window_source(function, p.input_dtype, p.result.dtype(), true), function.options));
  }
  return detail::finish_vectorized_filter(p);
}

ndarray generic_filter1d(const ndarray& input, const device_function& function, std::int64_t filter_size, int axis,
                         const generic_filter1d_options& opts) {
  check_function(function, "generic_filter1d");
  detail::line_plan p = detail::prepare_generic_filter1d(input, filter_size, axis, opts);
  if (!p.skip && p.lines > 0) {
    const rtc::raw_kernel k = module_for(line_source(function), function.options).get_function("cusci_line_filter");
    k(dim3(p.grid), dim3(p.block),
      {rtc::arg(p.padded.data()), rtc::arg(p.result.data()), rtc::arg(static_cast<long long>(p.lines)),
       rtc::arg(static_cast<long long>(p.in_length)), rtc::arg(static_cast<long long>(p.out_length))});
  }
  return detail::finish_generic_filter1d(p);
}

}  // namespace cusci::ndimage
