// The run-time-compiled form of labeled_comprehension: the kernel source generated around the user's
// __device__ function (one thread per region, grid-stride), compiled once per (source, options,
// input dtype, pass_positions) through cusci::rtc (binaries also cached in memory and on disk), and
// launched between the precompiled prepare / finish steps of measurements.cpp.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "cusci/detail/rtc.hpp"
#include "cusci/error.hpp"
#include "cusci/ndimage/detail/measurements_plan.hpp"
#include "cusci/ndimage/measurements.hpp"
#include "cusci/rtc.hpp"
#include "filters/filter_common.hpp"
#include "cusci/detail/nvtx.hpp"

namespace cusci::ndimage {
namespace {

std::string comprehension_source(const device_function& f, dtype in, bool pass_positions) {
  std::string s =
      "typedef decltype(static_cast<char*>(nullptr) - static_cast<char*>(nullptr)) ptrdiff_t;\n"
      "namespace std { typedef ::ptrdiff_t ptrdiff_t; }\n";
  if (in == dtype::float16) s += "#include <cuda_fp16.h>\n";
  s += std::string("typedef ") + rtc::detail::ctype_name(in) + " cusci_input_t;\n";
  s += "#line 1 \"device_function\"\n" + f.code + "\n#line 1 \"cusci_generated\"\n";
  s += "extern \"C\" __global__ void cusci_labeled_comprehension(const cusci_input_t* values,\n"
       "    const long long* positions, const long long* offsets, double* result, long long nslots,\n"
       "    double default_value) {\n"
       "  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nslots;\n"
       "       s += (long long)gridDim.x * blockDim.x) {\n"
       "    const long long lo = offsets[s], n = offsets[s + 1] - lo;\n"
       "    if (n == 0) { result[s] = default_value; continue; }\n";
  if (pass_positions)
    s += "    result[s] = static_cast<double>(" + f.name +
         "(values + lo, positions + lo, static_cast<ptrdiff_t>(n)));\n";
  else
    s += "    result[s] = static_cast<double>(" + f.name + "(values + lo, static_cast<ptrdiff_t>(n)));\n";
  s += "  }\n}\n";
  return s;
}

const rtc::raw_module& module_for(const std::string& source, const std::vector<std::string>& options) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::vector<std::string>>, rtc::raw_module> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(source, options);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, rtc::raw_module(source, options)).first;
  return it->second;
}

}  // namespace

ndarray labeled_comprehension(const ndarray& input, const std::optional<ndarray>& labels, const label_index& index,
                              const device_function& func, const labeled_comprehension_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::ndimage::labeled_comprehension");
  if (func.name.empty()) throw value_error(detail::fname("labeled_comprehension") + ": device_function.name is empty");
  const detail::comprehension_plan p = detail::prepare_labeled_comprehension(input, labels, index, opts);
  if (p.nslots > 0) {
    const rtc::raw_kernel k = module_for(comprehension_source(func, p.input_dtype, p.pass_positions), func.options)
                                  .get_function("cusci_labeled_comprehension");
    k(dim3(p.grid), dim3(p.block),
      {rtc::arg(p.values.data()), rtc::arg(p.positions.data()), rtc::arg(p.offsets.data()), rtc::arg(p.result.data()),
       rtc::arg(static_cast<long long>(p.nslots)), rtc::arg(p.default_value)});
  }
  return detail::finish_labeled_comprehension(p);
}

}  // namespace cusci::ndimage
