// Host-only parts of cusci::rtc: CuPy's parameter-list parser, placeholder binding, the generated
// elementwise and reduction sources, the cache-key hash and the disk-cache file format.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include <unistd.h>

#include "cusci/error.hpp"
#include "cusci/detail/rtc.hpp"

namespace cusci::rtc::detail {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

std::optional<dtype> param_dtype(std::string_view type) {
  static const std::pair<std::string_view, dtype> names[] = {
#define CUSCI_RTC_NAME_(name, type) {#name, dtype::name},
      CUSCI_FOR_EACH_DTYPE(CUSCI_RTC_NAME_)
#undef CUSCI_RTC_NAME_
  };
  if (type == "bool") return dtype::bool_;
  for (const auto& [n, t] : names)
    if (n == type && n != "bool_") return t;
  return std::nullopt;
}

std::vector<param_info> parse_params(std::string_view list, const std::string& function) {
  std::vector<param_info> out;
  if (trim(list).empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string_view entry = trim(list.substr(start, comma == std::string_view::npos ? list.npos : comma - start));
    auto tok = split_ws(entry);
    param_info p;
    if (tok.size() == 3 && tok[0] == "raw") {
      p.raw = true;
      tok.erase(tok.begin());
    }
    if (tok.size() != 2 || tok[0] == "raw")
      throw value_error(function + ": malformed parameter '" + std::string(entry) +
                        "': expected '[raw] TYPE NAME' (e.g. 'T x' or 'raw float32 w')");
    if (!is_identifier(tok[0]))
      throw value_error(function + ": invalid type '" + std::string(tok[0]) + "' in parameter '" +
                        std::string(entry) + "'");
    if (!is_identifier(tok[1]))
      throw value_error(function + ": invalid parameter name '" + std::string(tok[1]) + "' in '" +
                        std::string(entry) + "'");
    if (tok[1] == "i" || tok[1][0] == '_')
      throw value_error(function + ": parameter name '" + std::string(tok[1]) +
                        "' is reserved ('i' and names starting with '_')");
    if (tok[0][0] == '_')
      throw value_error(function + ": type placeholder '" + std::string(tok[0]) + "' may not start with '_'");
    p.type = std::string(tok[0]);
    p.name = std::string(tok[1]);
    p.fixed = param_dtype(p.type);
    out.push_back(std::move(p));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

void check_unique_names(const std::vector<param_info>& in, const std::vector<param_info>& out,
                        const std::string& function) {
  std::vector<std::string> names;
  for (const auto* l : {&in, &out})
    for (const auto& p : *l) {
      if (std::find(names.begin(), names.end(), p.name) != names.end())
        throw value_error(function + ": parameter name '" + p.name + "' is used twice");
      names.push_back(p.name);
    }
}

std::string ctype_name(dtype t) {
  const std::string_view n = dtype_name(t);
  if (n == "float16") return "__half";
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
    case dtype::float32: return "float";
    case dtype::float64: return "double";
    case dtype::complex64: return "cuda::std::complex<float>";
    case dtype::complex128: return "cuda::std::complex<double>";
    default: break;
  }
  throw type_error("cusci::rtc: dtype " + std::string(n) + " has no C++ type in generated kernels");
}

std::string type_includes(const std::vector<dtype>& types) {
  bool cplx = false, half = false;
  for (dtype t : types) {
    cplx = cplx || is_complex(t);
    half = half || dtype_name(t) == "float16";
  }
  std::string s;
  if (half) s += "#include <cuda_fp16.h>\n";
  if (cplx) s += "#include <cuda/std/complex>\n";
  return s;
}

binding bind_types(const std::vector<param_info>& in, const std::vector<param_info>& out,
                   const std::vector<arg_kind>& in_args, const std::vector<std::optional<dtype>>& out_args,
                   const std::string& function) {
  std::map<std::string, std::pair<dtype, std::string>> ph;  // placeholder -> dtype, who bound it
  binding b;
  auto bind = [&](const param_info& p, dtype dt, bool check_fixed) {
    if (p.fixed) {
      if (check_fixed && *p.fixed != dt)
        throw type_error(function + ": parameter '" + p.name + "' has dtype " + p.type + ", got an array of dtype " +
                         std::string(dtype_name(dt)));
      return;
    }
    auto it = ph.find(p.type);
    if (it == ph.end()) {
      ph.emplace(p.type, std::make_pair(dt, p.name));
      b.placeholders.emplace_back(p.type, dt);
    } else if (it->second.first != dt) {
      throw type_error(function + ": type placeholder " + p.type + " is bound to " +
                       std::string(dtype_name(it->second.first)) + " by '" + it->second.second + "' and to " +
                       std::string(dtype_name(dt)) + " by '" + p.name + "'");
    }
  };
  for (std::size_t k = 0; k < in.size(); ++k)
    if (in_args[k].is_array || !in_args[k].weak) bind(in[k], in_args[k].dt, in_args[k].is_array);
  for (std::size_t k = 0; k < out.size(); ++k)
    if (k < out_args.size() && out_args[k]) bind(out[k], *out_args[k], true);
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!in_args[k].is_array && in_args[k].weak && !in[k].fixed && !ph.count(in[k].type))
      bind(in[k], in_args[k].dt, false);
  auto type_of = [&](const param_info& p) -> dtype {
    if (p.fixed) return *p.fixed;
    auto it = ph.find(p.type);
    if (it == ph.end())
      throw type_error(function + ": type placeholder " + p.type + " of output '" + p.name +
                       "' is bound by no input; pass the output array");
    return it->second.first;
  };
  for (const auto& p : in) b.in_types.push_back(type_of(p));
  for (const auto& p : out) b.out_types.push_back(type_of(p));
  return b;
}

// --- generated sources --------------------------------------------------------------------

namespace {

std::string typedefs(const binding& b, const std::vector<param_info>& in, const std::vector<param_info>& out,
                     bool raw_names) {
  std::vector<dtype> all = b.in_types;
  all.insert(all.end(), b.out_types.begin(), b.out_types.end());
  std::string s = type_includes(all);
  for (const auto& [name, t] : b.placeholders) s += "typedef " + ctype_name(t) + " " + name + ";\n";
  if (raw_names) {
    for (std::size_t k = 0; k < in.size(); ++k)
      s += "typedef " + ctype_name(b.in_types[k]) + " type_in" + std::to_string(k) + "_raw;\n";
    for (std::size_t k = 0; k < out.size(); ++k)
      s += "typedef " + ctype_name(b.out_types[k]) + " type_out" + std::to_string(k) + "_raw;\n";
  }
  return s;
}

const char* const raw_array_struct = R"(template <class T, int N>
struct _cusci_raw {
  T* ptr_;
  long long size_;
  int ndim_;
  int contig_;
  long long shape_[N];
  long long strides_[N];
  __device__ __forceinline__ T& operator[](long long k) const {
    if (contig_) return ptr_[k];
    long long off = 0;
    for (int d = ndim_ - 1; d >= 0; --d) {
      const long long q = k / shape_[d];
      off += (k - q * shape_[d]) * strides_[d];
      k = q;
    }
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(ptr_) + off);
  }
  __device__ __forceinline__ long long size() const { return size_; }
  __device__ __forceinline__ int ndim() const { return ndim_; }
  __device__ __forceinline__ const long long* shape() const { return shape_; }
  __device__ __forceinline__ const long long* strides() const { return strides_; }
  __device__ __forceinline__ T* data() const { return ptr_; }
};
)";

// Offsets of `n_ops` operands for a flat index `idx` over `nd` axes: axes nd-1 .. 1 divide, axis 0
// takes the remaining quotient. `shape`/`st` are the names of the struct members.
std::string offset_code(const std::string& idx_type, const std::string& idx, int nd, int n_ops,
                        const std::string& shape, const std::string& st, const std::string& prefix,
                        const std::string& base = "") {
  std::ostringstream s;
  for (int j = 0; j < n_ops; ++j)
    s << "      long long " << prefix << j << " = " << (base.empty() ? "0" : base + std::to_string(j)) << ";\n";
  s << "      {\n        " << idx_type << " _q = " << idx << ";\n";
  for (int d = nd - 1; d >= 1; --d) {
    s << "        { const " << idx_type << " _s = (" << idx_type << ")" << shape << "[" << d << "]; const "
      << idx_type << " _n2 = _q / _s; const long long _c = (long long)(_q - _n2 * _s); _q = _n2;";
    for (int j = 0; j < n_ops; ++j) s << " " << prefix << j << " += _c * " << st << "[" << j << "][" << d << "];";
    s << " }\n";
  }
  s << "        { const long long _c = (long long)_q;";
  for (int j = 0; j < n_ops; ++j) s << " " << prefix << j << " += _c * " << st << "[" << j << "][0];";
  s << " }\n      }\n";
  return s.str();
}

}  // namespace

std::string elementwise_source(const std::vector<param_info>& in, const std::vector<param_info>& out,
                               const binding& b, const std::string& operation, const std::string& name,
                               const elementwise_options& opts, const ew_layout& L) {
  std::ostringstream s;
  s << "// cusci::rtc::elementwise_kernel " << name << "\n";
  s << typedefs(b, in, out, false);
  bool any_raw = false;
  for (const auto* l : {&in, &out})
    for (const auto& p : *l) any_raw = any_raw || p.raw;
  if (any_raw) s << raw_array_struct;
  s << "struct _cusci_ind_t {\n  long long n_;\n  __device__ __forceinline__ long long size() const { return n_; }\n};\n";
  const bool strided = !L.contiguous && L.n_arrays > 0;
  if (strided)
    s << "struct _cusci_ix {\n  long long shape[" << L.ndim << "];\n  long long st[" << L.n_arrays << "][" << L.ndim
      << "];\n};\n";
  s << opts.preamble << "\n";
  // parameters
  std::vector<std::string> params;
  std::vector<std::string> loads;  // per-element declarations
  int op = 0;
  auto add = [&](const param_info& p, dtype t, bool is_in, bool is_scalar, int raw_dims) {
    const std::string ct = p.fixed ? ctype_name(t) : p.type;
    if (p.raw) {
      params.push_back("_cusci_raw<" + ct + ", " + std::to_string(raw_dims) + "> " + p.name);
    } else if (is_scalar) {
      params.push_back("const " + ct + " " + p.name);
    } else if (!strided) {
      params.push_back((is_in ? "const " : "") + ct + "* _cp_" + p.name);
      loads.push_back(is_in ? "const " + ct + " " + p.name + " = _cp_" + p.name + "[_k];"
                            : ct + "& " + p.name + " = _cp_" + p.name + "[_k];");
    } else {
      params.push_back(std::string(is_in ? "const " : "") + "char* _cp_" + p.name);
      const std::string off = "_o" + std::to_string(op++);
      loads.push_back(is_in ? "const " + ct + " " + p.name + " = *reinterpret_cast<const " + ct + "*>(_cp_" + p.name +
                                  " + " + off + ");"
                            : ct + "& " + p.name + " = *reinterpret_cast<" + ct + "*>(_cp_" + p.name + " + " + off + ");");
    }
  };
  for (std::size_t k = 0; k < in.size(); ++k)
    add(in[k], b.in_types[k], true, k < L.in_scalar.size() && L.in_scalar[k], k < L.raw_dims.size() ? L.raw_dims[k] : 1);
  for (std::size_t k = 0; k < out.size(); ++k)
    add(out[k], b.out_types[k], false, false, in.size() + k < L.raw_dims.size() ? L.raw_dims[in.size() + k] : 1);
  params.push_back("const long long _n");
  if (strided) params.push_back("const _cusci_ix _ix");
  const std::string idx = L.index64 ? "unsigned long long" : "unsigned int";
  s << "extern \"C\" __global__ void " << name << "(";
  for (std::size_t k = 0; k < params.size(); ++k) s << (k ? ", " : "") << params[k];
  s << ") {\n  const _cusci_ind_t _ind{_n};\n  (void)_ind;\n";
  s << "  " << opts.loop_prep << "\n";
  s << "  for (" << idx << " _k = (" << idx << ")blockIdx.x * blockDim.x + threadIdx.x; _k < (" << idx
    << ")_n; _k += (" << idx << ")gridDim.x * blockDim.x) {\n";
  s << "    const long long i = (long long)_k;\n    (void)i;\n";
  if (strided) s << offset_code(idx, "_k", L.ndim, L.n_arrays, "_ix.shape", "_ix.st", "_o");
  for (const auto& l : loads) s << "    " << l << "\n";
  s << "    " << operation << ";\n  }\n";
  s << "  " << opts.after_loop << "\n}\n";
  return s.str();
}

std::string reduction_source(const std::vector<param_info>& in, const std::vector<param_info>& out, const binding& b,
                             const std::string& map_expr, const std::string& reduce_expr,
                             const std::string& post_map_expr, const std::optional<std::string>& identity,
                             const std::string& name, const reduction_options& opts, const red_layout& L) {
  std::ostringstream s;
  const bool has_id = identity.has_value();
  const int na = std::max(L.n_arrays, 1);
  s << "// cusci::rtc::reduction_kernel " << name << "\n";
  s << typedefs(b, in, out, true);
  s << "typedef " << (opts.reduce_type.empty() ? std::string("type_out0_raw") : opts.reduce_type)
    << " _type_reduce;\n";
  s << opts.preamble << "\n";
  s << "template <class T, int N>\nstruct alignas(T) _cusci_smem {\n  unsigned char b_[sizeof(T) * N];\n};\n";
  s << "struct _cusci_rp {\n  long long out_size, red_size, seg_len;\n  int tpo, nseg;\n  long long kshape[" << L.nk
    << "];\n  long long rshape[" << L.nr << "];\n  long long kst[" << na << "][" << L.nk << "];\n  long long rst[" << na
    << "][" << L.nr << "];\n};\n";
  s << "__device__ __forceinline__ _type_reduce _cusci_reduce(const _type_reduce& a, const _type_reduce& b) {\n"
       "  return (" << reduce_expr << ");\n}\n";
  s << "__device__ __forceinline__ void _cusci_combine(_type_reduce& acc, bool& has, const _type_reduce& v) {\n"
       "  if (has) acc = _cusci_reduce(acc, v);\n  else { acc = v; has = true; }\n}\n";
  s << "__device__ _type_reduce _cusci_reduce_size_probe;\n";
  // output parameters and the post-map function
  std::string out_params, out_args, out_decl;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::string ct = out[k].fixed ? ctype_name(b.out_types[k]) : out[k].type;
    out_params += ", " + ct + "* _cp_" + out[k].name;
    out_args += ", _cp_" + out[k].name;
    out_decl += "  " + ct + "& " + out[k].name + " = _cp_" + out[k].name + "[_o];\n";
  }
  s << "__device__ __forceinline__ void _cusci_post(_type_reduce a" << out_params << ", const long long _o) {\n"
    << out_decl << "  " << post_map_expr << ";\n}\n";
  // input parameters
  std::string in_params, loads;
  int op = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::string ct = in[k].fixed ? ctype_name(b.in_types[k]) : in[k].type;
    if (k < L.in_scalar.size() && L.in_scalar[k]) {
      in_params += ", const " + ct + " " + in[k].name;
    } else {
      in_params += ", const char* _cp_" + in[k].name;
      loads += "        const " + ct + " " + in[k].name + " = *reinterpret_cast<const " + ct + "*>(_cp_" + in[k].name +
               " + _r" + std::to_string(op++) + ");\n";
    }
  }
  const std::string init = has_id ? "_type_reduce _acc = _type_reduce(" + *identity + ");\n  bool _has = true;\n"
                                  : "_type_reduce _acc = _type_reduce();\n  bool _has = false;\n";
  const std::string lane_fast = L.lane_fast ? "true" : "false";
  auto tree = [&](const std::string& slot_a, const std::string& slot_b, const std::string& lane,
                  const std::string& width) {
    std::ostringstream t;
    t << "  for (int _s = " << width << " >> 1; _s > 0; _s >>= 1) {\n    if (" << lane << " < _s) {\n      const int _a = "
      << slot_a << ", _b = " << slot_b << ";\n";
    if (has_id) t << "      _sm[_a] = _cusci_reduce(_sm[_a], _sm[_b]);\n";
    else
      t << "      if (_smh[_b]) {\n        if (_smh[_a]) _sm[_a] = _cusci_reduce(_sm[_a], _sm[_b]);\n"
           "        else { _sm[_a] = _sm[_b]; _smh[_a] = 1; }\n      }\n";
    t << "    }\n    __syncthreads();\n  }\n";
    return t.str();
  };
  const std::string smem = "  __shared__ _cusci_smem<_type_reduce, 256> _smraw;\n"
                           "  _type_reduce* _sm = reinterpret_cast<_type_reduce*>(_smraw.b_);\n" +
                           std::string(has_id ? "" : "  __shared__ unsigned char _smh[256];\n");
  // main kernel
  s << "extern \"C\" __global__ void __launch_bounds__(256) " << name << "(" << in_params.substr(in.empty() ? 0 : 2)
    << (in.empty() ? "" : ", ") << out_params.substr(2)
    << ", const _cusci_rp _p, _type_reduce* _part, unsigned char* _parth) {\n"
    << smem << "  const int _tpo = _p.tpo, _opb = 256 / _tpo;\n"
    << "  const bool _lf = " << lane_fast << ";\n"
    << "  const int _lane = _lf ? (int)threadIdx.x % _tpo : (int)threadIdx.x / _opb;\n"
    << "  const int _ol = _lf ? (int)threadIdx.x / _tpo : (int)threadIdx.x % _opb;\n"
    << "  const long long _o = (long long)blockIdx.x * _opb + _ol;\n  " << init
    << "  if (_o < _p.out_size) {\n"
    << "    const long long _rb = (long long)blockIdx.y * _p.seg_len;\n"
    << "    const long long _re = _rb + _p.seg_len < _p.red_size ? _rb + _p.seg_len : _p.red_size;\n"
    << offset_code("long long", "_o", L.nk, L.n_arrays, "_p.kshape", "_p.kst", "_k")
    << "#pragma unroll 4\n"
    << "    for (long long _rr = _rb + _lane; _rr < _re; _rr += _tpo) {\n"
    << offset_code("long long", "_rr", L.nr, L.n_arrays, "_p.rshape", "_p.rst", "_r", "_k") << loads
    << "      _cusci_combine(_acc, _has, (_type_reduce)(" << map_expr << "));\n    }\n  }\n"
    << "  _sm[threadIdx.x] = _acc;\n" << (has_id ? "" : "  _smh[threadIdx.x] = _has ? 1 : 0;\n")
    << "  __syncthreads();\n"
    << tree("_lf ? _ol * _tpo + _lane : _lane * _opb + _ol", "_lf ? _ol * _tpo + _lane + _s : (_lane + _s) * _opb + _ol",
            "_lane", "_tpo")
    << "  if (_lane == 0 && _o < _p.out_size) {\n    const int _a = _lf ? _ol * _tpo : _ol;\n"
    << "    if (_p.nseg == 1) _cusci_post(_sm[_a]" << out_args << ", _o);\n"
    << "    else {\n      _part[_o * _p.nseg + blockIdx.y] = _sm[_a];\n      _parth[_o * _p.nseg + blockIdx.y] = "
    << (has_id ? "1" : "_smh[_a]") << ";\n    }\n  }\n}\n";
  // final kernel for split reductions: one block per output
  s << "extern \"C\" __global__ void __launch_bounds__(256) " << name << "_final(" << out_params.substr(2)
    << ", const _cusci_rp _p, const _type_reduce* _part, const unsigned char* _parth) {\n"
    << smem << "  const long long _o = blockIdx.x;\n  " << init
    << "  for (int _j = threadIdx.x; _j < _p.nseg; _j += 256)\n"
    << "    if (_parth[_o * _p.nseg + _j]) _cusci_combine(_acc, _has, _part[_o * _p.nseg + _j]);\n"
    << "  _sm[threadIdx.x] = _acc;\n" << (has_id ? "" : "  _smh[threadIdx.x] = _has ? 1 : 0;\n")
    << "  __syncthreads();\n  const int _lane = threadIdx.x;\n"
    << tree("_lane", "_lane + _s", "_lane", "256")
    << "  if (threadIdx.x == 0) _cusci_post(_sm[0]" << out_args << ", _o);\n}\n";
  return s.str();
}

// --- hashing and the disk cache -----------------------------------------------------------

std::uint64_t fnv1a_64(std::string_view bytes) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::array<std::uint64_t, 2> fnv1a_128(std::string_view bytes) noexcept {
  using u128 = unsigned __int128;
  u128 h = (static_cast<u128>(0x6c62272e07bb0142ull) << 64) | 0x62b821756295c58dull;
  const u128 prime = (static_cast<u128>(1) << 88) | 0x13bu;  // 2^88 + 2^8 + 0x3b
  for (unsigned char c : bytes) {
    h ^= c;
    h *= prime;
  }
  return {static_cast<std::uint64_t>(h >> 64), static_cast<std::uint64_t>(h)};
}

std::string hash_hex(std::string_view bytes) {
  const auto h = fnv1a_128(bytes);
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(h[0]),
                static_cast<unsigned long long>(h[1]));
  return std::string(buf, 32);
}

std::string compile_key(const std::string& source, const std::vector<std::string>& options,
                        const std::vector<std::string>& name_expressions, const std::string& target, int nvrtc_major,
                        int nvrtc_minor) {
  std::string k = "cusci-rtc-key 1\n";
  auto field = [&](const std::string& tag, const std::string& v) {
    k += tag + " " + std::to_string(v.size()) + "\n" + v + "\n";
  };
  field("nvrtc", std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor));
  field("target", target);
  for (const auto& o : options) field("option", o);
  for (const auto& n : name_expressions) field("name", n);
  field("source", source);
  return k;
}

std::string cache_file_name(std::string_view key) { return hash_hex(key) + ".cubin"; }

namespace {
constexpr char magic[8] = {'C', 'U', 'S', 'C', 'I', 'R', 'T', 1};

void put_u64(std::string& s, std::uint64_t v) {
  for (int b = 0; b < 8; ++b) s.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}
void put_str(std::string& s, std::string_view v) {
  put_u64(s, v.size());
  s.append(v.data(), v.size());
}
struct reader {
  std::string_view s;
  std::size_t pos = 0;
  bool ok = true;
  std::uint64_t u64() {
    if (s.size() - pos < 8) { ok = false; return 0; }
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[pos + b])) << (8 * b);
    pos += 8;
    return v;
  }
  std::string_view str() {
    const std::uint64_t n = u64();
    if (!ok || n > s.size() - pos) { ok = false; return {}; }
    std::string_view v = s.substr(pos, n);
    pos += n;
    return v;
  }
};
}  // namespace

std::string serialize_cache_entry(std::string_view key, const cache_entry& e) {
  std::string s(magic, sizeof(magic));
  put_str(s, key);
  put_u64(s, e.cubin ? 1 : 0);
  put_u64(s, e.lowered.size());
  for (const auto& [a, b] : e.lowered) {
    put_str(s, a);
    put_str(s, b);
  }
  put_str(s, e.binary);
  put_u64(s, fnv1a_64(s));
  return s;
}

std::optional<cache_entry> parse_cache_entry(std::string_view bytes, std::string_view key) {
  if (bytes.size() < sizeof(magic) + 8 || std::memcmp(bytes.data(), magic, sizeof(magic)) != 0) return std::nullopt;
  reader r{bytes.substr(0, bytes.size() - 8)};
  reader tail{bytes.substr(bytes.size() - 8)};
  if (tail.u64() != fnv1a_64(r.s)) return std::nullopt;
  r.pos = sizeof(magic);
  if (r.str() != key || !r.ok) return std::nullopt;
  cache_entry e;
  const std::uint64_t kind = r.u64();
  if (kind > 1) return std::nullopt;
  e.cubin = kind == 1;
  const std::uint64_t n = r.u64();
  if (!r.ok || n > bytes.size()) return std::nullopt;
  for (std::uint64_t j = 0; j < n && r.ok; ++j) {
    std::string a(r.str());
    std::string b(r.str());
    e.lowered.emplace_back(std::move(a), std::move(b));
  }
  e.binary = std::string(r.str());
  if (!r.ok || r.pos != r.s.size() || e.binary.empty()) return std::nullopt;
  return e;
}

bool write_cache_file(const std::string& dir, std::string_view key, const cache_entry& e) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir)) return false;
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  const fs::path final_path = fs::path(dir) / cache_file_name(key);
  const fs::path tmp = fs::path(dir) / (cache_file_name(key) + ".tmp." + std::to_string(::getpid()) + "." +
                                        std::to_string(counter++) + "." + std::to_string(rd()));
  const std::string bytes = serialize_cache_entry(key, e);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, final_path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

std::optional<cache_entry> read_cache_file(const std::string& dir, std::string_view key, bool* rejected) {
  if (rejected) *rejected = false;
  const std::filesystem::path p = std::filesystem::path(dir) / cache_file_name(key);
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream ss;
  ss << f.rdbuf();
  auto e = parse_cache_entry(ss.str(), key);
  if (!e && rejected) *rejected = true;
  return e;
}

std::uint16_t half_bits(double v) noexcept {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 48) & 0x8000u);
  const int e = static_cast<int>((b >> 52) & 0x7ff);
  const std::uint64_t m = b & ((std::uint64_t{1} << 52) - 1);
  if (e == 0x7ff) return static_cast<std::uint16_t>(sign | 0x7c00u | (m ? 0x200u : 0u));
  const int he = e - 1023 + 15;
  if (he >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  // value = 1.m * 2^(e-1023); express as an integer count of the result's unit in the last place
  int shift;               // bits of the 53-bit significand dropped
  std::uint64_t sig = m | (std::uint64_t{1} << 52);
  if (e == 0) return sign;  // double subnormals are far below half's range
  if (he >= 1) shift = 42;  // normal half: 10 fraction bits kept
  else {
    shift = 42 + (1 - he);  // subnormal half: unit 2^-24
    if (shift > 63) return sign;
  }
  std::uint64_t q = sig >> shift;
  const std::uint64_t rem = sig & ((std::uint64_t{1} << shift) - 1), halfway = std::uint64_t{1} << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1u))) ++q;
  if (he >= 1) {
    // q holds 1 + 10 bits; adding the exponent field carries correctly into it on mantissa overflow
    const std::uint64_t h = (static_cast<std::uint64_t>(he - 1) << 10) + q;
    return static_cast<std::uint16_t>(sign | (h >= 0x7c00u ? 0x7c00u : h));
  }
  return static_cast<std::uint16_t>(sign | q);  // q <= 0x400: the smallest normal when it rounds up
}

}  // namespace cusci::rtc::detail
