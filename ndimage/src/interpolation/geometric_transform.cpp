// geometric_transform of cusci::ndimage: SciPy 1.18's argument handling (_interpolation.py's
// geometric_transform and _get_output), the prefilter shared with map_coordinates, then the output in
// chunks: a mapping kernel (NVRTC-compiled around the user's `__device__` function, or the functor
// kernel of nvcc/geometric_transform.cuh) fills the chunk's float64 input coordinates, and the
// map_coordinates kernels of resample.cu interpolate them into the chunk of the output. SciPy's
// NI_GeometricTransform treats a mapping's coordinates exactly as a coordinate array's, so the
// values are map_coordinates' values.

#include <algorithm>
#include <cctype>
#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cusci/detail/shape.hpp"
#include "cusci/elementwise.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/detail/geometric_plan.hpp"
#include "cusci/ndimage/interpolation.hpp"
#include "cusci/rtc.hpp"
#include "filters/filter_common.hpp"
#include "interpolation/interp_detail.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace detail {

static_assert(sizeof(geometric_chunk) == 288,
              "geometric_chunk must keep the layout of the generated kernel's parameter (cusci_gt_chunk)");

geometric_chunking plan_geometric_chunks(const shape_t& shape, std::int64_t max_points) {
  geometric_chunking p;
  const int nd = static_cast<int>(shape.size());
  std::int64_t total = 1;
  for (std::int64_t e : shape) total *= e;  // checked by the caller (checked_size)
  if (nd == 0 || total == 0) {
    p.count = 0;
    return p;
  }
  max_points = std::max<std::int64_t>(max_points, 1);
  // the first axis k whose trailing block prod(shape[k + 1:]) fits
  std::vector<std::int64_t> trailing(static_cast<std::size_t>(nd) + 1, 1);
  for (std::size_t d = static_cast<std::size_t>(nd); d-- > 0;) trailing[d] = trailing[d + 1] * shape[d];
  int k = 0;
  while (trailing[static_cast<std::size_t>(k) + 1] > max_points) ++k;
  const std::int64_t inner = trailing[static_cast<std::size_t>(k) + 1];
  const std::int64_t len = shape[static_cast<std::size_t>(k)];
  p.axis = k;
  p.rows = std::min(len, max_points / inner);
  p.blocks_per_run = (len + p.rows - 1) / p.rows;
  p.count = (total / trailing[static_cast<std::size_t>(k)]) * p.blocks_per_run;
  return p;
}

void geometric_chunk_at(const geometric_chunking& plan, const shape_t& shape, std::int64_t index,
                        geometric_chunk& c) {
  const int nd = static_cast<int>(shape.size());
  const int k = plan.axis;
  c.output_rank = nd;
  std::int64_t run = index / plan.blocks_per_run;
  const std::int64_t block = index - run * plan.blocks_per_run;
  for (int d = k - 1; d >= 0; --d) {  // one index of every axis before k (C order)
    const std::int64_t e = shape[static_cast<std::size_t>(d)];
    const std::int64_t q = run / e;
    c.start[d] = run - q * e;
    c.extent[d] = 1;
    run = q;
  }
  const std::int64_t len = shape[static_cast<std::size_t>(k)];
  c.start[k] = block * plan.rows;
  c.extent[k] = std::min(plan.rows, len - c.start[k]);
  std::int64_t n = c.extent[k];
  for (int d = k + 1; d < nd; ++d) {
    c.start[d] = 0;
    c.extent[d] = shape[static_cast<std::size_t>(d)];
    n *= c.extent[d];
  }
  for (int d = nd; d < geometric_max_rank; ++d) {
    c.start[d] = 0;
    c.extent[d] = 1;
  }
  c.n = n;
}

namespace {

bool is_identifier(const std::string& name) {
  // a C++ identifier, optionally qualified (ns::f or ::f)
  std::size_t i = 0;
  if (name.compare(0, 2, "::") == 0) i = 2;
  if (i >= name.size()) return false;
  while (i < name.size()) {
    const auto ch = static_cast<unsigned char>(name[i]);
    if (!(std::isalpha(ch) || ch == '_')) return false;
    ++i;
    while (i < name.size() && (std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_')) ++i;
    if (i == name.size()) return true;
    if (name.compare(i, 2, "::") != 0) return false;
    i += 2;
    if (i >= name.size()) return false;
  }
  return true;
}

}  // namespace

std::string geometric_kernel_source(const device_function& mapping, const char* fn) {
  if (mapping.code.empty())
    throw value_error(fname(fn) +
                      ": mapping.code is empty: it must hold the CUDA C++ source of the __device__ mapping");
  if (!is_identifier(mapping.name))
    throw value_error(fname(fn) + ": mapping.name must name the __device__ function in mapping.code, got '" +
                      mapping.name + "'");
  const std::string& f = mapping.name;
  std::string s;
  s.reserve(mapping.code.size() + 2600);
  s += "typedef decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr)) ptrdiff_t;\n"
       "namespace std { typedef ::ptrdiff_t ptrdiff_t; }\n";
  s += "#line 1 \"mapping\"\n";
  s += mapping.code;
  s += "\n#line 1 \"cusci_geometric_transform\"\n";
  s += R"(struct cusci_gt_chunk {
  double* coords;
  int* status;
  long long n;
  int output_rank, input_rank;
  long long start[16];
  long long extent[16];
};
template <class R> struct cusci_gt_is_void { static constexpr bool value = false; };
template <> struct cusci_gt_is_void<void> { static constexpr bool value = true; };
)";
  s += "typedef decltype(" + f +
       "(static_cast<std::ptrdiff_t*>(nullptr), static_cast<double*>(nullptr), 0, 0)) cusci_gt_result;\n";
  s += R"(__device__ char cusci_gt_reports_status[cusci_gt_is_void<cusci_gt_result>::value ? 1 : 2];
template <bool Void> struct cusci_gt_call {
  template <class P, class Q> __device__ static bool run(P o, Q c, int orank, int irank) {
)";
  s += "    return " + f + "(o, c, orank, irank) != 0;\n";
  s += R"(  }
};
template <> struct cusci_gt_call<true> {
  template <class P, class Q> __device__ static bool run(P o, Q c, int orank, int irank) {
)";
  s += "    " + f + "(o, c, orank, irank);\n";
  s += R"(    return true;
  }
};
extern "C" __global__ void __launch_bounds__(256) cusci_geometric_transform_map(const cusci_gt_chunk c) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= c.n) {
    if (c.n < 0) *c.status = cusci_gt_reports_status[0];  // never taken: keeps the global in the module
    return;
  }
  std::ptrdiff_t oc[16];
  double ic[16];
  unsigned int r = static_cast<unsigned int>(t);  // n <= 2^22
  for (int d = c.output_rank - 1; d >= 0; --d) {
    const unsigned int e = static_cast<unsigned int>(c.extent[d]);
    const unsigned int q = r / e;
    oc[d] = static_cast<std::ptrdiff_t>(c.start[d] + static_cast<long long>(r - q * e));
    r = q;
  }
  for (int h = 0; h < c.input_rank; ++h) ic[h] = 0.0;  // coordinates the mapping leaves unwritten are 0
  const bool ok = cusci_gt_call<cusci_gt_is_void<cusci_gt_result>::value>::run(oc, ic, c.output_rank, c.input_rank);
  if (!ok) *c.status = 1;
  for (int h = 0; h < c.input_rank; ++h) c.coords[h * c.n + t] = ic[h];
}
)";
  return s;
}

std::vector<std::string> geometric_kernel_options(const device_function& mapping) {
  std::vector<std::string> o{"--fmad=false"};
  o.insert(o.end(), mapping.options.begin(), mapping.options.end());
  return o;
}

namespace {

constexpr const char* kernel_name = "cusci_geometric_transform_map";

/// A compiled mapping kernel, kept for the life of the process.
struct compiled_mapping {
  rtc::raw_module module;
  rtc::raw_kernel kernel;
  bool reports_status;
};

struct mapping_cache_t {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<const compiled_mapping>> map;
};
mapping_cache_t& mapping_cache() {
  static mapping_cache_t* c = new mapping_cache_t;  // never destroyed: kernels may be used from static destructors
  return *c;
}

/// The kernel for `mapping`: from the cache, or compiled (NVRTC, through cusci::rtc's caches) and
/// loaded on the current device.
std::shared_ptr<const compiled_mapping> compiled(const device_function& mapping, const char* fn) {
  std::string src = geometric_kernel_source(mapping, fn);
  std::vector<std::string> opts = geometric_kernel_options(mapping);
  std::string key = src;
  for (const auto& o : opts) {
    key += '\x1f';
    key += o;
  }
  auto& cache = mapping_cache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.map.find(key);
    if (it != cache.map.end()) return it->second;
  }
  rtc::raw_module mod(std::move(src), std::move(opts));
  rtc::raw_kernel k = mod.get_function(kernel_name);  // compiles and loads: rtc::compile_error
  bool reports = true;  // when the size cannot be read, check the status (safe)
  try {
    reports = mod.get_global("cusci_gt_reports_status").size != 1;
  } catch (const value_error&) {
  }
  auto entry = std::make_shared<const compiled_mapping>(compiled_mapping{mod, k, reports});
  std::lock_guard<std::mutex> lock(cache.mu);
  return cache.map.emplace(std::move(key), std::move(entry)).first->second;
}

void launch_compiled(const geometric_chunk& c, const void* context) {
  const auto& m = *static_cast<const compiled_mapping*>(context);
  const auto blocks = static_cast<unsigned int>((c.n + 255) / 256);
  m.kernel(dim3(blocks), dim3(256), {rtc::arg::bytes(&c, sizeof(c), alignof(geometric_chunk))});
}

struct checked_args {
  shape_t oshape;
  dtype od;
};

/// SciPy's checks, in SciPy's order, before anything is allocated.
checked_args check_args(const ndarray& input, const geometric_transform_options& opts, const char* fn) {
  interp_check_order(opts.order, fn);
  shape_t oshape = opts.output_shape ? *opts.output_shape : input.shape();
  if (input.ndim() < 1 || oshape.empty())
    throw runtime_error(fname(fn) + ": input and output rank must be > 0 (input shape " +
                        cusci::detail::shape_str(input.shape()) + ", output_shape " +
                        cusci::detail::shape_str(oshape) + ")");
  if (!opts.output.is_array()) cusci::detail::checked_size(oshape, fname(fn));
  const dtype od = interp_result_dtype(input, opts.output, oshape, fn);
  interp_check_data_dtype(input.dtype(), fn, "input");
  interp_check_cval(input, opts.cval, fn);
  if (input.ndim() > geometric_max_rank || static_cast<int>(oshape.size()) > geometric_max_rank)
    throw not_implemented_error(fname(fn) + ": arrays of more than 16 dimensions are not supported (input rank " +
                                std::to_string(input.ndim()) + ", output rank " + std::to_string(oshape.size()) +
                                ")");
  std::int64_t points = 1;
  for (std::int64_t e : oshape) points *= e;
  if (input.size() == 0 && points > 0)
    throw runtime_error(fname(fn) + ": cannot interpolate an input with no elements (shape " +
                        cusci::detail::shape_str(input.shape()) + ") into a non-empty output");
  return {std::move(oshape), od};
}

/// A view of `a` restricted to the chunk `c` (same rank; extent-1 axes at the chunk's start).
ndarray chunk_view(const ndarray& a, const geometric_chunk& c) {
  shape_t shape(static_cast<std::size_t>(a.ndim()));
  std::int64_t off = a.offset();
  for (int d = 0; d < a.ndim(); ++d) {
    shape[static_cast<std::size_t>(d)] = c.extent[d];
    off += c.start[d] * a.strides()[static_cast<std::size_t>(d)];
  }
  return ndarray(a.memory(), a.dtype(), shape, a.strides(), off, a.device());
}

ndarray run_checked(const ndarray& input, const geometric_mapping& mapping, const geometric_transform_options& opts,
                    const checked_args& args, const char* fn) {
  const shape_t& oshape = args.oshape;
  // the array written: the output array itself unless it overlaps the input (then a new array,
  // copied into it at the end, so the input is never overwritten while it is read)
  ndarray target = make_output(opts.output, oshape, args.od, input.device(), fn);
  const bool direct = !opts.output.is_array() || !may_share_memory(target, input);
  if (!direct) target = ndarray(oshape, args.od);
  const int irank = input.ndim();
  // at most 2^24 coordinates (128 MiB) in the buffer
  const std::int64_t max_points =
      std::min<std::int64_t>(geometric_chunk_points, std::max<std::int64_t>(1, (geometric_chunk_points * 4) / irank));
  const geometric_chunking chunks = plan_geometric_chunks(oshape, max_points);
  if (chunks.count > 0) {
    // the real input, or the real and imaginary parts, prefiltered (SciPy: each part on its own)
    struct part {
      ndarray coef;
      std::int64_t npad;
      ndarray out;
      double cval;
    };
    std::vector<part> parts;
    std::vector<int> axes;
    for (int d = 0; d < input.ndim(); ++d) axes.push_back(d);
    auto add_part = [&](const ndarray& x, const ndarray& out, double cv) {
      auto [coef, npad] = interp_prefiltered(x, opts.order, opts.mode, cv, opts.prefilter, axes);
      parts.push_back({std::move(coef), npad, out, cv});
    };
    if (is_complex(input.dtype())) {
      add_part(cusci::real(input), cusci::real(target), opts.cval.real());
      add_part(cusci::imag(input), cusci::imag(target), opts.cval.imag());
    } else {
      add_part(input, target, opts.cval.real());
    }
    geometric_chunk first;  // the largest chunk: the first one spans `rows` indices of the chunked axis
    geometric_chunk_at(chunks, oshape, 0, first);
    ndarray coords({static_cast<std::int64_t>(irank) * first.n}, dtype::float64);
    ndarray status;
    if (mapping.reports_status) status = cusci::zeros({1}, dtype::int32);
    resample_spec spec;
    spec.kind = resample_spec::coordinates;
    spec.order = opts.order;
    spec.mode = interp_mode_code(opts.mode);
    for (std::int64_t i = 0; i < chunks.count; ++i) {
      geometric_chunk c;
      geometric_chunk_at(chunks, oshape, i, c);
      c.input_rank = irank;
      c.coords = static_cast<double*>(coords.data());
      c.status = mapping.reports_status ? static_cast<int*>(status.data()) : nullptr;
      mapping.launch(c, mapping.context);
      // the chunk's coordinates as map_coordinates' array [input_rank, extent...], C order
      shape_t cshape{irank};
      shape_t cstrides(static_cast<std::size_t>(c.output_rank) + 1);
      std::int64_t st = static_cast<std::int64_t>(sizeof(double));
      for (int d = c.output_rank - 1; d >= 0; --d) {
        cstrides[static_cast<std::size_t>(d) + 1] = st;
        st *= c.extent[d];
      }
      cstrides[0] = st;
      for (int d = 0; d < c.output_rank; ++d) cshape.push_back(c.extent[d]);
      spec.coords = ndarray(coords.memory(), dtype::float64, cshape, cstrides, coords.offset(), coords.device());
      for (const part& p : parts) {
        spec.npad = p.npad;
        spec.cval = p.cval;
        resample(p.coef, chunk_view(p.out, c), spec);
      }
    }
    if (mapping.reports_status && status.item<std::int32_t>() != 0)
      throw runtime_error(fname(fn) + ": unknown error in mapping function (the mapping returned 0 for at least one "
                                      "output point)");
  }
  if (direct) return target;
  return deliver_output(std::move(target), opts.output, fn);
}

}  // namespace

ndarray geometric_transform_run(const ndarray& input, const geometric_mapping& mapping,
                                const geometric_transform_options& opts) {
  const char* fn = "geometric_transform";
  const checked_args args = check_args(input, opts, fn);
  CUSCI_EXPECTS(mapping.launch != nullptr, value_error, fname(fn) + ": no mapping kernel given");
  return run_checked(input, mapping, opts, args, fn);
}

}  // namespace detail

ndarray geometric_transform(const ndarray& input, const device_function& mapping,
                            const geometric_transform_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::geometric_transform");
  const char* fn = "geometric_transform";
  const detail::checked_args args = detail::check_args(input, opts, fn);
  const auto k = detail::compiled(mapping, fn);  // checks the name (value_error) before compiling
  detail::geometric_mapping m;
  m.launch = &detail::launch_compiled;
  m.context = k.get();
  m.reports_status = k->reports_status;
  return detail::run_checked(input, m, opts, args, fn);
}

}  // namespace cusci::ndimage
