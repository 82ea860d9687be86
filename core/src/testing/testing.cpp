// cusci::testing: NumPy's array assertions (numpy.testing.assert_array_compare and its callers) with
// NumPy 2.5's failure messages. Host implementation: device operands are copied to the host first.
// Written from NumPy's documented behaviour and experiments (see docs/core-testing.md).

#include "cusci/detail/shape.hpp"
#include "cusci/testing.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "cusci/detail/nvtx.hpp"
#include "cusci/io.hpp"

namespace cusci::testing {

host_array operand::to_host_array() const {
  if (auto* a = std::get_if<ndarray>(&v_)) return cusci::to_host(*a);
  if (auto* h = std::get_if<host_array>(&v_)) return *h;
  if (auto* p = std::get_if<std::filesystem::path>(&v_)) return cusci::io::read_npy(p->string());
  const auto& s = std::get<cusci::scalar>(v_);
  host_array h(s.dtype(), shape_t{});
  switch (s.dtype()) {
#define CUSCI_TESTING_FILL_(name, type)                 \
  case dtype::name:                                     \
    h.data_as<type>()[0] = s.template value<type>();    \
    break;
    CUSCI_FOR_EACH_DTYPE(CUSCI_TESTING_FILL_)
#undef CUSCI_TESTING_FILL_
  }
  return h;
}

namespace {

using i128 = __int128;
using cplx = std::complex<double>;

// ---------------------------------------------------------------------------------------------
// Number formatting (NumPy's Dragon4 modes, approximated with std::to_chars)
// ---------------------------------------------------------------------------------------------

// Rounds a double to the precision of a real floating dtype (float16, float32, float64).
double round_to(dtype t, double v) {
  switch (t) {
    case dtype::float16: return static_cast<double>(static_cast<float>(float16(v)));
    case dtype::float32: case dtype::complex64: return static_cast<double>(static_cast<float>(v));
    default: return v;
  }
}

// Shortest round-trip decimal digits of v (finite, in dtype t) in scientific form: mantissa digits
// "d1d2..dn" (no dot) and exponent e, v = d1.d2..dn * 10^e.
struct sci {
  bool neg = false;
  std::string digits;
  int exp = 0;
};

sci parse_sci(const char* b, const char* e) {
  sci s;
  std::string str(b, e);
  std::size_t pos = 0;
  if (str[0] == '-') {
    s.neg = true;
    pos = 1;
  }
  const std::size_t epos = str.find('e');
  for (std::size_t i = pos; i < epos; ++i)
    if (str[i] != '.') s.digits += str[i];
  s.exp = std::atoi(str.c_str() + epos + 1);
  while (s.digits.size() > 1 && s.digits.back() == '0') s.digits.pop_back();
  return s;
}

sci shortest(double v, dtype t) {
  char buf[64];
  if (t == dtype::float16) {
    const std::uint16_t bits = float16(v).bits;
    for (int p = 0; p < 6; ++p) {
      auto r = std::to_chars(buf, buf + 64, v, std::chars_format::scientific, p);
      if (float16(std::strtod(std::string(buf, r.ptr).c_str(), nullptr)).bits == bits) return parse_sci(buf, r.ptr);
    }
  }
  if (t == dtype::float32 || t == dtype::complex64 || t == dtype::float16) {
    auto r = std::to_chars(buf, buf + 64, static_cast<float>(v), std::chars_format::scientific);
    return parse_sci(buf, r.ptr);
  }
  auto r = std::to_chars(buf, buf + 64, v, std::chars_format::scientific);
  return parse_sci(buf, r.ptr);
}

// Python's str of a NumPy float scalar (repr of a Python float for float64): shortest digits,
// positional for 1e-4 <= |v| < 1e16 (at least one fractional digit), else d.ddde+XX.
std::string scalar_float_str(double v, dtype t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const sci s = shortest(v, t);
  std::string out = s.neg ? "-" : "";
  const double a = std::fabs(v);
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    const int n = static_cast<int>(s.digits.size());
    if (a == 0) return out + "0.0";
    if (s.exp >= 0) {
      std::string ip = s.digits.substr(0, std::min(n, s.exp + 1));
      while (static_cast<int>(ip.size()) < s.exp + 1) ip += '0';
      std::string fp = n > s.exp + 1 ? s.digits.substr(s.exp + 1) : "0";
      return out + ip + "." + fp;
    }
    return out + "0." + std::string(-s.exp - 1, '0') + s.digits;
  }
  out += s.digits.substr(0, 1);
  if (s.digits.size() > 1) out += "." + s.digits.substr(1);
  char eb[16];
  std::snprintf(eb, sizeof eb, "e%c%02d", s.exp < 0 ? '-' : '+', std::abs(s.exp));
  return out + eb;
}

// One component of Python's complex repr: integral values without ".0".
std::string complex_part_str(double v, dtype t) {
  std::string s = scalar_float_str(v, t);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string scalar_complex_str(cplx v, dtype t) {
  const std::string im = complex_part_str(v.imag(), t) + "j";
  if (v.real() == 0 && !std::signbit(v.real())) return im;
  std::string re = complex_part_str(v.real(), t);
  const bool imneg = std::signbit(v.imag()) && !std::isnan(v.imag());
  return "(" + re + (imneg ? "" : "+") + im + ")";
}

std::string i128_str(i128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s += static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  }
  if (neg) s += '-';
  std::reverse(s.begin(), s.end());
  return s;
}

// Positional digits of finite v with at most `precision` fractional digits (shortest if it fits),
// trailing zeros trimmed (NumPy's trim='.'): returns (int part with sign, frac part).
std::pair<std::string, std::string> positional(double v, dtype t, int precision) {
  const sci s = shortest(v, t);
  const int n = static_cast<int>(s.digits.size());
  const int frac = s.digits == "0" ? 0 : std::max(0, n - 1 - s.exp);
  if (frac <= precision) {
    // The shortest digits fit (for float32/float16 they differ from the double's exact expansion).
    std::string ip, fp;
    if (s.digits == "0") {
      ip = "0";
    } else if (s.exp >= 0) {
      ip = s.digits.substr(0, std::min(n, s.exp + 1));
      while (static_cast<int>(ip.size()) < s.exp + 1) ip += '0';
      fp = n > s.exp + 1 ? s.digits.substr(s.exp + 1) : "";
    } else {
      ip = "0";
      fp = std::string(-s.exp - 1, '0') + s.digits;
    }
    return {(s.neg ? "-" : "") + ip, fp};
  }
  // Cut at `precision` digits: round the exact value, trim trailing zeros.
  char buf[512];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, precision);
  const std::string str(buf, r.ec == std::errc() ? r.ptr : buf);
  const auto dot = str.find('.');
  std::string ip = dot == std::string::npos ? str : str.substr(0, dot);
  std::string fp = dot == std::string::npos ? "" : str.substr(dot + 1);
  while (!fp.empty() && fp.back() == '0') fp.pop_back();
  return {ip, fp};
}

// NumPy's FloatingFormat (floatmode 'maxprec') for the values `data` of real dtype t.
struct float_format {
  dtype t = dtype::float64;
  int precision = 8;
  bool plus = false;  // sign='+'
  bool exp_format = false;
  int pad_left = 0, pad_right = 0, exp_size = -1, sci_prec = 0;

  // precision is clamped to [0, 40]: beyond 40 NumPy's unique mode prints the same digits (a double
  // has at most 17 significant ones), and a negative precision has no meaning here.
  float_format(const std::vector<double>& data, dtype t_, int precision_, bool plus_)
      : t(t_), precision(std::clamp(precision_, 0, 40)), plus(plus_) {
    std::vector<double> fin;
    bool any_nonfinite = false, neginf = plus;
    for (double v : data) {
      if (std::isfinite(v)) fin.push_back(v);
      else {
        any_nonfinite = true;
        if (std::isinf(v) && v < 0) neginf = true;
      }
    }
    double mx = 0, mn = std::numeric_limits<double>::infinity();
    bool any_nz = false;
    for (double v : fin)
      if (v != 0) {
        any_nz = true;
        mx = std::max(mx, std::fabs(v));
        mn = std::min(mn, std::fabs(v));
      }
    if (any_nz) {
      const double cutoff = t == dtype::float16 ? 1e3 : (t == dtype::float32 || t == dtype::complex64) ? 1e6 : 1e8;
      if (mx >= cutoff || mn < 1e-4 || mx / mn > 1000.) exp_format = true;
    }
    if (fin.empty()) {
      pad_left = pad_right = 0;
    } else if (exp_format) {
      int maxfrac = 0, maxint = 0, maxexp = 0;
      for (double v : fin) {
        const sci s = shortest(v, t);
        int frac = static_cast<int>(s.digits.size()) - 1;
        sci r = s;
        if (frac > precision) {
          char buf[64];
          auto e = std::to_chars(buf, buf + 64, v, std::chars_format::scientific, precision);
          r = parse_sci(buf, e.ptr);
          frac = static_cast<int>(r.digits.size()) - 1;
        }
        if (r.digits == "0") frac = 0;
        maxfrac = std::max(maxfrac, frac);
        maxint = std::max(maxint, (r.neg || plus) ? 2 : 1);
        maxexp = std::max(maxexp, std::abs(r.exp) >= 100 ? 3 : 2);
      }
      sci_prec = maxfrac;
      exp_size = maxexp;
      pad_left = maxint;
      pad_right = exp_size + 2 + sci_prec;
    } else {
      for (double v : fin) {
        auto [ip, fp] = positional(v, t, precision);
        const int il = static_cast<int>(ip.size()) + ((plus && ip[0] != '-') ? 1 : 0);
        pad_left = std::max(pad_left, il);
        pad_right = std::max(pad_right, static_cast<int>(fp.size()));
      }
    }
    if (any_nonfinite) {
      const int offset = pad_right + 1;
      pad_left = std::max({pad_left, 3 - offset, 3 + (neginf ? 1 : 0) - offset});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string ret = std::isnan(v) ? (plus ? "+nan" : "nan") : (v < 0 ? "-inf" : plus ? "+inf" : "inf");
      const int w = pad_left + pad_right + 1 - static_cast<int>(ret.size());
      return std::string(std::max(0, w), ' ') + ret;
    }
    std::string ip, fp, ex;
    if (exp_format) {
      char buf[64];
      auto e = std::to_chars(buf, buf + 64, v, std::chars_format::scientific, sci_prec);
      std::string s(buf, e.ptr);
      const auto epos = s.find('e');
      std::string mant = s.substr(0, epos);
      const int expv = std::atoi(s.c_str() + epos + 1);
      const auto dot = mant.find('.');
      ip = dot == std::string::npos ? mant : mant.substr(0, dot);
      fp = dot == std::string::npos ? "" : mant.substr(dot + 1);
      std::string ed = std::to_string(std::abs(expv));
      while (static_cast<int>(ed.size()) < exp_size) ed = "0" + ed;
      ex = std::string("e") + (expv < 0 ? "-" : "+") + ed;
    } else {
      std::tie(ip, fp) = positional(v, t, precision);
    }
    if (plus && ip[0] != '-') ip = "+" + ip;
    std::string out = std::string(std::max(0, pad_left - static_cast<int>(ip.size())), ' ') + ip + "." + fp + ex;
    if (!exp_format) out += std::string(std::max(0, pad_right - static_cast<int>(fp.size())), ' ');
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// Host view of an operand
// ---------------------------------------------------------------------------------------------

enum class kind { b, i, u, f, c };

kind kind_of(dtype t) {
  if (is_bool(t)) return kind::b;
  if (is_signed_integer(t)) return kind::i;
  if (is_unsigned_integer(t)) return kind::u;
  if (is_complex(t)) return kind::c;
  return kind::f;
}

struct arr {
  host_array h;
  dtype t;
  shape_t shape;
  std::int64_t n = 0;
  // Values: real floats in `r`, complex in `c`, bool/integers exactly in `iv` (one of the three).
  std::vector<double> r;
  std::vector<cplx> c;
  std::vector<i128> iv;

  explicit arr(host_array a) : h(std::move(a)) {
    t = h.dtype();
    shape = h.shape();
    n = h.size();
    const kind k = kind_of(t);
    if (k == kind::c) {
      host_array cc = h.astype(dtype::complex128);
      const cplx* p = cc.data_as<cplx>();
      c.assign(p, p + n);
    } else if (k == kind::f) {
      host_array cc = h.astype(dtype::float64);
      const double* p = cc.data_as<double>();
      r.assign(p, p + n);
    } else if (k == kind::u) {
      host_array q = h.astype(dtype::uint64);
      const auto* qp = q.data_as<std::uint64_t>();
      iv.assign(qp, qp + n);
    } else {
      host_array q = h.astype(dtype::int64);
      const auto* qp = q.data_as<std::int64_t>();
      iv.assign(qp, qp + n);
    }
  }
  // Element i as complex<double> (integers above 2^53 rounded, as NumPy's cast to float64).
  cplx cv(std::int64_t i) const {
    if (!c.empty()) return c[i];
    if (!r.empty()) return {r[i], 0.0};
    return {static_cast<double>(iv[i]), 0.0};
  }
  bool is_int() const { return kind_of(t) != kind::f && kind_of(t) != kind::c; }
  int ndim() const { return static_cast<int>(shape.size()); }
  // Element i, or element 0 of a 0-d array broadcast against the other operand.
  std::int64_t at(std::int64_t i) const { return ndim() == 0 ? 0 : i; }
};

// Subset of an array (for "inf values mismatch": x[mask]) as a 1-d host array.
host_array select(const host_array& h, const std::vector<std::int64_t>& idx) {
  host_array out(h.dtype(), shape_t{static_cast<std::int64_t>(idx.size())});
  const std::size_t is = itemsize(h.dtype());
  const auto* src = static_cast<const std::byte*>(h.data());
  auto* dst = static_cast<std::byte*>(out.data());
  for (std::size_t k = 0; k < idx.size(); ++k) std::memcpy(dst + k * is, src + idx[k] * is, is);
  return out;
}

using cusci::detail::shape_str;  // NumPy's tuple text of a shape

std::string index_str(const shape_t& shape, std::int64_t flat) {
  std::vector<std::int64_t> idx(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] > 0) {
      idx[d] = flat % shape[d];
      flat /= shape[d];
    }
  }
  std::string r = "[";
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (i) r += ", ";
    r += std::to_string(idx[i]);
  }
  return r + "]";
}

// Element i of a as NumPy's f-string prints `ox[tuple(p)]` (or the whole 0-d array).
std::string element_str(const arr& a, std::int64_t i) {
  switch (kind_of(a.t)) {
    case kind::b: return a.iv[i] ? "True" : "False";
    case kind::i: case kind::u: return i128_str(a.iv[i]);
    // NumPy formats these through Python's float / complex (f-string), whatever the dtype.
    case kind::f: return scalar_float_str(a.cv(i).real(), dtype::float64);
    case kind::c: return scalar_complex_str(a.cv(i), dtype::float64);
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Array repr
// ---------------------------------------------------------------------------------------------

constexpr int kLineWidth = 75;
constexpr std::int64_t kThreshold = 1000;
constexpr std::int64_t kEdgeItems = 3;

std::string wrap_repr(const arr& a, int precision);

}  // namespace

std::string format_array_repr(const host_array& h, int precision) { return wrap_repr(arr(h), precision); }

namespace {

// Positions (flat C-order indices) kept by NumPy's summarization (_leading_trailing).
void kept_indices(const shape_t& shape, bool summarize, std::vector<std::int64_t>& out) {
  const int nd = static_cast<int>(shape.size());
  std::vector<std::vector<std::int64_t>> per(nd);
  for (int d = 0; d < nd; ++d) {
    if (summarize && shape[d] > 2 * kEdgeItems) {
      for (std::int64_t i = 0; i < kEdgeItems; ++i) per[d].push_back(i);
      for (std::int64_t i = shape[d] - kEdgeItems; i < shape[d]; ++i) per[d].push_back(i);
    } else {
      for (std::int64_t i = 0; i < shape[d]; ++i) per[d].push_back(i);
    }
  }
  std::vector<std::size_t> ctr(nd, 0);
  if (nd == 0) {
    out.push_back(0);
    return;
  }
  for (int d = 0; d < nd; ++d)
    if (per[d].empty()) return;
  while (true) {
    std::int64_t flat = 0;
    for (int d = 0; d < nd; ++d) flat = flat * shape[d] + per[d][ctr[d]];
    out.push_back(flat);
    int d = nd - 1;
    while (d >= 0 && ++ctr[d] == per[d].size()) ctr[d--] = 0;
    if (d < 0) break;
  }
}

struct formatter {
  const arr& a;
  std::optional<float_format> re, im;
  int int_width = 0;

  formatter(const arr& a_, const std::vector<std::int64_t>& kept, int precision) : a(a_) {
    const kind k = kind_of(a.t);
    if (k == kind::f || k == kind::c) {
      std::vector<double> r, i;
      for (auto f : kept) {
        r.push_back(a.cv(f).real());
        i.push_back(a.cv(f).imag());
      }
      re.emplace(r, a.t, precision, false);
      if (k == kind::c) im.emplace(i, a.t, precision, true);
    } else if (k == kind::i || k == kind::u) {
      for (auto f : kept) int_width = std::max(int_width, static_cast<int>(i128_str(a.iv[f]).size()));
    }
  }
  std::string operator()(std::int64_t f) const {
    switch (kind_of(a.t)) {
      case kind::b: return a.iv[f] ? (a.ndim() ? " True" : "True") : "False";
      case kind::i: case kind::u: {
        std::string s = i128_str(a.iv[f]);
        return std::string(std::max(0, int_width - static_cast<int>(s.size())), ' ') + s;
      }
      case kind::f: return (*re)(a.cv(f).real());
      case kind::c: {
        std::string r = (*re)(a.cv(f).real()), i = (*im)(a.cv(f).imag());
        std::size_t sp = i.find_last_not_of(' ') + 1;
        return r + i.substr(0, sp) + "j" + i.substr(sp);
      }
    }
    return "";
  }
};

std::string rstrip(const std::string& s) {
  const auto p = s.find_last_not_of(' ');
  return p == std::string::npos ? std::string() : s.substr(0, p + 1);
}

void extend_line(std::string& s, std::string& line, const std::string& word, int width, const std::string& next_prefix) {
  bool wrap = static_cast<int>(line.size() + word.size()) > width;
  if (line.size() <= next_prefix.size()) wrap = false;
  if (wrap) {
    s += rstrip(line) + "\n";
    line = next_prefix;
  }
  line += word;
}

// NumPy's _formatArray recursion over a C-order array.
std::string format_rec(const formatter& fmt, const shape_t& shape, std::vector<std::int64_t>& index,
                       const std::string& hanging, int width, bool summarize) {
  const int axis = static_cast<int>(index.size());
  const int nd = static_cast<int>(shape.size());
  if (axis == nd) {
    std::int64_t flat = 0;
    for (int d = 0; d < nd; ++d) flat = flat * shape[d] + index[d];
    return fmt(flat);
  }
  const std::string next_hanging = hanging + " ";
  const int next_width = width - 1;
  const std::int64_t len = shape[axis];
  const bool show_summary = summarize && 2 * kEdgeItems < len;
  const std::int64_t leading = show_summary ? kEdgeItems : 0;
  const std::int64_t trailing = show_summary ? kEdgeItems : len;
  const std::string sep = ", ";
  std::string s;
  auto rec = [&](std::int64_t i) {
    index.push_back(i);
    std::string r = format_rec(fmt, shape, index, next_hanging, next_width, summarize);
    index.pop_back();
    return r;
  };
  if (len == 0) return "[]";
  if (nd - axis == 1) {
    const int elem_width = width - 1;
    std::string line = hanging;
    for (std::int64_t i = 0; i < leading; ++i) {
      extend_line(s, line, rec(i), elem_width, hanging);
      line += sep;
    }
    if (show_summary) {
      extend_line(s, line, "...", elem_width, hanging);
      line += sep;
    }
    for (std::int64_t i = trailing; i > 1; --i) {
      extend_line(s, line, rec(len - i), elem_width, hanging);
      line += sep;
    }
    extend_line(s, line, rec(len - 1), elem_width, hanging);
    s += line;
  } else {
    const std::string line_sep = "," + std::string(static_cast<std::size_t>(nd - axis - 1), '\n');
    for (std::int64_t i = 0; i < leading; ++i) s += hanging + rec(i) + line_sep;
    if (show_summary) s += hanging + "..." + line_sep;
    for (std::int64_t i = trailing; i > 1; --i) s += hanging + rec(len - i) + line_sep;
    s += hanging + rec(len - 1);
  }
  return "[" + s.substr(hanging.size()) + "]";
}

std::string wrap_repr(const arr& a, int precision) {
  const std::string prefix = "array(";
  const bool summarize = a.n > kThreshold;
  std::string lst;
  if (a.n == 0) {
    lst = "[]";
  } else {
    std::vector<std::int64_t> kept;
    kept_indices(a.shape, summarize, kept);
    formatter fmt(a, kept, precision);
    if (a.ndim() == 0) {
      lst = fmt(0);
    } else {
      std::vector<std::int64_t> index;
      lst = format_rec(fmt, a.shape, index, std::string(prefix.size() + 1, ' '), kLineWidth - 1, summarize);
    }
  }
  std::vector<std::string> extras;
  if ((a.n == 0 && a.shape != shape_t{0}) || summarize) extras.push_back("shape=" + shape_str(a.shape));
  const bool implied = a.t == dtype::float64 || a.t == dtype::int64 || a.t == dtype::bool_ || a.t == dtype::complex128;
  if (!implied || a.n == 0) extras.push_back("dtype=" + std::string(dtype_name(a.t)));
  if (extras.empty()) return prefix + lst + ")";
  std::string arr_str = prefix + lst + ",";
  std::string extra = extras[0];
  for (std::size_t i = 1; i < extras.size(); ++i) extra += ", " + extras[i];
  extra += ")";
  const auto nl = arr_str.rfind('\n');
  const std::size_t last = arr_str.size() - (nl == std::string::npos ? 0 : nl + 1);
  const std::string spacer =
      static_cast<int>(last + extra.size() + 1) > kLineWidth ? "\n" + std::string(prefix.size(), ' ') : " ";
  return arr_str + spacer + extra;
}

// ---------------------------------------------------------------------------------------------
// The comparison engine (numpy.testing.assert_array_compare)
// ---------------------------------------------------------------------------------------------

struct names_t {
  const char* first;
  const char* second;
};

std::string build_err_msg(const std::vector<const arr*>& arrays, const std::string& err_msg,
                          const std::string& header, bool verbose, names_t names, int precision) {
  std::string msg = "\n" + header;
  if (!err_msg.empty()) {
    if (err_msg.find('\n') == std::string::npos && static_cast<int>(err_msg.size()) < 79 - static_cast<int>(header.size()))
      msg += " " + err_msg;
    else
      msg += "\n" + err_msg;
  }
  if (verbose) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      std::string r = wrap_repr(*arrays[i], precision);
      if (std::count(r.begin(), r.end(), '\n') > 3) {
        std::size_t p = 0;
        for (int k = 0; k < 3; ++k) p = r.find('\n', p) + 1;
        r = r.substr(0, p - 1) + "...";
      }
      msg += std::string("\n ") + (i == 0 ? names.first : names.second) + ": " + r;
    }
  }
  return msg;
}

bool c_isnan(cplx v) { return std::isnan(v.real()) || std::isnan(v.imag()); }
bool c_isinf(cplx v) { return std::isinf(v.real()) || std::isinf(v.imag()); }

dtype inexact_of(dtype t) { return is_inexact(t) ? t : dtype::float64; }

cplx round_c(dtype t, cplx v) { return {round_to(t, v.real()), round_to(t, v.imag())}; }

// Wraps an integer to the width of integer dtype t (two's complement).
i128 wrap_int(dtype t, i128 v) {
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (bits >= 64 && is_unsigned_integer(t)) return static_cast<i128>(static_cast<std::uint64_t>(v));
  if (bits >= 64) return static_cast<i128>(static_cast<std::int64_t>(static_cast<std::uint64_t>(v)));
  const i128 m = static_cast<i128>(1) << bits;
  i128 r = v % m;
  if (r < 0) r += m;
  if (is_signed_integer(t) && r >= m / 2) r -= m;
  return r;
}

// NumPy's np.abs of a complex value in its SIMD loop (the one every contiguous array goes through):
// infinities win over NaN, then larger * sqrt(fma(ratio, ratio, 1)) with ratio = smaller / larger,
// in the element's precision (not a correctly rounded hypot). Real dtypes: |v|.
template <class T>
T cabs_simd(T re, T im) {
  re = std::fabs(re);
  im = std::fabs(im);
  const T inf = std::numeric_limits<T>::infinity();
  if (re == inf || im == inf) return inf;
  if (std::isnan(re) || std::isnan(im)) return std::numeric_limits<T>::quiet_NaN();
  const T larger = std::max(re, im), smaller = std::min(re, im);
  const T ratio = larger == 0 ? T(0) : smaller / larger;
  return std::sqrt(std::fma(ratio, ratio, T(1))) * larger;
}

double abs_np(cplx v, dtype t) {
  if (t == dtype::complex64)
    return static_cast<double>(cabs_simd(static_cast<float>(v.real()), static_cast<float>(v.imag())));
  if (t == dtype::complex128) return cabs_simd(v.real(), v.imag());
  return std::fabs(v.real());
}

enum class cmp_op { isclose, equal, almost, less };

struct compare_spec {
  cmp_op op;
  double rtol = 0, atol = 0, threshold = 0;
  bool equal_nan = true;
};

// Element comparison of x[i] and y[j] (true = passes).
bool compare_one(const compare_spec& cs, const arr& x, std::int64_t i, const arr& y, std::int64_t j) {
  switch (cs.op) {
    case cmp_op::equal:
    case cmp_op::less: {
      if (x.is_int() && y.is_int())
        return cs.op == cmp_op::equal ? x.iv[i] == y.iv[j] : x.iv[i] < y.iv[j];
      const dtype pt = promote_types(x.t, y.t);
      const cplx a = round_c(pt, x.cv(i)), b = round_c(pt, y.cv(j));
      if (cs.op == cmp_op::equal) return a == b;
      if (!is_complex(pt)) return a.real() < b.real();
      return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    }
    case cmp_op::isclose: {
      // NumPy's isclose: y made inexact (yt); |x - y| in the promoted dtype ct, atol + rtol * |y|
      // in yt's real dtype; x == y in ct; NaN == NaN with equal_nan.
      const dtype yt = inexact_of(y.t);
      const dtype ct = promote_types(x.t, yt);
      const dtype ryt = real_dtype(yt);
      const cplx b = round_c(yt, y.cv(j));
      const cplx a = round_c(ct, x.cv(i));
      const cplx d = round_c(ct, a - b);
      const double ad = abs_np(d, ct), ab = abs_np(b, yt);
      const double rhs = round_to(ryt, round_to(ryt, cs.atol) + round_to(ryt, round_to(ryt, cs.rtol) * ab));
      const bool fin = std::isfinite(b.real()) && std::isfinite(b.imag());
      bool ok = (ad <= rhs && fin) || a == b;
      if (cs.equal_nan) ok = ok || (c_isnan(a) && c_isnan(b));
      return ok;
    }
    case cmp_op::almost: {
      const dtype yt = inexact_of(y.t);
      const dtype ct = promote_types(x.t, yt);
      const dtype rt = real_dtype(ct);
      const cplx b = round_c(yt, y.cv(j));
      const cplx a = round_c(ct, x.cv(i));
      const double z = abs_np(round_c(ct, a - round_c(ct, b)), ct);
      return z < round_to(rt, cs.threshold);
    }
  }
  return false;
}

// np.max semantics: NaN propagates.
double nan_max(double m, double v) {
  if (std::isnan(m) || std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
  return std::max(m, v);
}

std::string format_percent(double p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", p);
  return buf;
}

// array2string of a 0-d float value of dtype t (default print options: precision 8).
std::string float0d_str(double v, dtype t) {
  float_format f(std::vector<double>{v}, t, 8, false);
  return f(v);
}

struct assert_spec {
  std::string header;
  int precision = 6;
  bool equal_nan = true;
  bool equal_inf = true;
  bool strict = false;
  bool verbose = true;
  std::string err_msg;
  names_t names{"ACTUAL", "DESIRED"};
  compare_spec cs;
};

[[noreturn]] void fail(const std::string& m) { throw assertion_error(m); }

void assert_array_compare(const assert_spec& sp, const operand& xo, const operand& yo) {
  const arr x(xo.to_host_array());
  const arr y(yo.to_host_array());

  auto raise = [&](const std::string& reason, const arr& a, const arr& b) {
    fail(build_err_msg({&a, &b}, sp.err_msg + reason, sp.header, sp.verbose, sp.names, sp.precision));
  };

  const bool cond = sp.strict ? (x.shape == y.shape && x.t == y.t)
                              : (x.ndim() == 0 || y.ndim() == 0 || x.shape == y.shape);
  if (!cond) {
    if (x.shape != y.shape)
      raise("\n(shapes " + shape_str(x.shape) + ", " + shape_str(y.shape) + " mismatch)", x, y);
    raise("\n(dtypes " + std::string(dtype_name(x.t)) + ", " + std::string(dtype_name(y.t)) + " mismatch)", x, y);
  }

  // Broadcast size: the array operand's (or 1 when both are 0-d).
  const bool x0 = x.ndim() == 0, y0 = y.ndim() == 0;
  const shape_t bshape = x0 ? y.shape : x.shape;
  std::int64_t n = 1;
  for (auto s : bshape) n *= s;

  // flagged: NaN (equal_nan) and inf (equal_inf) positions, removed before the comparison.
  // A scalar flag when either operand is 0-d (NumPy returns the 0-d operand's flag).
  const bool scalar_flag = x0 || y0;
  std::vector<char> flagged(static_cast<std::size_t>(scalar_flag ? 0 : n), 0);
  bool flag_scalar = false;

  auto same_pos = [&](auto&& pred, const char* what) {
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t i = x.at(k), j = y.at(k);
      if (pred(x, i, k) != pred(y, j, k)) raise(std::string("\n") + what + " location mismatch:", x, y);
    }
  };
  if (sp.equal_nan) {
    auto isn = [](const arr& a, std::int64_t i, std::int64_t) { return c_isnan(a.cv(i)); };
    same_pos(isn, "nan");
    if (scalar_flag) flag_scalar = c_isnan((x0 ? x : y).cv(0));
    else
      for (std::int64_t k = 0; k < n; ++k) flagged[k] = c_isnan(y.cv(k));
  }
  if (sp.equal_inf) {
    auto isi = [&](const arr& a, std::int64_t i, std::int64_t k) {
      const bool f = scalar_flag ? flag_scalar : flagged[k] != 0;
      return c_isinf(a.cv(i)) && !f;
    };
    same_pos(isi, "inf");
    // infs_mask: the flag of the 0-d operand, or y's mask.
    std::vector<std::int64_t> inf_idx;
    bool inf_scalar = false;
    if (scalar_flag) {
      const arr& s = x0 ? x : y;
      inf_scalar = c_isinf(s.cv(0)) && !flag_scalar;
    } else {
      for (std::int64_t k = 0; k < n; ++k)
        if (c_isinf(y.cv(k)) && !flagged[k]) inf_idx.push_back(k);
    }
    if (scalar_flag ? inf_scalar : !inf_idx.empty()) {
      bool diff = false;
      if (!scalar_flag) {
        for (auto k : inf_idx) diff = diff || !(x.cv(k) == y.cv(k));
        if (diff) {
          const arr xs(select(x.h, inf_idx)), ys(select(y.h, inf_idx));
          raise("\ninf values mismatch:", xs, ys);
        }
      } else {
        for (std::int64_t k = 0; k < n; ++k) diff = diff || !(x.cv(x.at(k)) == y.cv(y.at(k)));
        if (diff) raise("\ninf values mismatch:", x, y);
      }
      if (scalar_flag) flag_scalar = true;
      else
        for (auto k : inf_idx) flagged[k] = 1;
    }
  }
  if (scalar_flag && flag_scalar) return;

  // Compare the elements that are not flagged.
  std::vector<std::int64_t> kept;  // broadcast flat positions compared
  std::vector<std::int64_t> bad;   // the failing ones
  for (std::int64_t k = 0; k < n; ++k) {
    if (!scalar_flag && flagged[k]) continue;
    kept.push_back(k);
    if (!compare_one(sp.cs, x, x.at(k), y, y.at(k))) bad.push_back(k);
  }
  if (bad.empty()) return;

  // Remarks.
  const std::int64_t n_elements = scalar_flag ? static_cast<std::int64_t>(kept.size()) : n;
  const std::int64_t n_mismatch = static_cast<std::int64_t>(bad.size());
  std::string remarks = "Mismatched elements: " + std::to_string(n_mismatch) + " / " + std::to_string(n_elements) +
                        " (" + format_percent(100.0 * static_cast<double>(n_mismatch) / static_cast<double>(n_elements)) + "%)";
  const bool both0 = x0 && y0;
  if (!both0) {
    std::string s;
    for (std::size_t m = 0; m < bad.size() && m < 5; ++m) {
      const std::int64_t k = bad[m];
      if (m) s += "\n";
      s += " " + index_str(bshape, k) + ": " + element_str(x, x.at(k)) + " (" + sp.names.first + "), " +
           element_str(y, y.at(k)) + " (" + sp.names.second + ")";
    }
    if (bad.size() == 1) remarks += "\nMismatch at index:\n" + s;
    else if (bad.size() <= 5) remarks += "\nMismatch at indices:\n" + s;
    else remarks += "\nFirst 5 mismatches are at indices:\n" + s;
  }

  // error = abs(x - y) in the promoted dtype (bool - bool is a TypeError in NumPy: no lines).
  const dtype et = promote_types(x.t, y.t);
  if (!is_bool(et)) {
    if (is_integer(et)) {
      i128 max_abs = 0;
      bool first = true;
      double max_rel = -1;
      bool any_rel = false;
      for (auto k : bad) {
        const i128 a = x.iv[x.at(k)], b = y.iv[y.at(k)];
        i128 e;
        if (is_unsigned_integer(et)) e = std::min(wrap_int(et, a - b), wrap_int(et, b - a));
        else e = wrap_int(et, wrap_int(et, a - b) < 0 ? -wrap_int(et, a - b) : wrap_int(et, a - b));
        if (first || e > max_abs) max_abs = e;
        first = false;
        if (b != 0) {
          const i128 ay = is_unsigned_integer(y.t) || is_bool(y.t) ? b : wrap_int(y.t, b < 0 ? -b : b);
          max_rel = any_rel ? nan_max(max_rel, static_cast<double>(e) / static_cast<double>(ay))
                            : static_cast<double>(e) / static_cast<double>(ay);
          any_rel = true;
        }
      }
      remarks += "\nMax absolute difference among violations: " + i128_str(max_abs);
      remarks += "\nMax relative difference among violations: " +
                 (any_rel ? float0d_str(max_rel, dtype::float64) : std::string("inf"));
    } else {
      const dtype rt = real_dtype(et);
      double max_abs = -std::numeric_limits<double>::infinity(), max_rel = max_abs;
      bool any_rel = false;
      for (auto k : bad) {
        const cplx a = round_c(et, x.cv(x.at(k))), b = round_c(et, y.cv(y.at(k)));
        const double e = abs_np(round_c(et, a - b), et);
        max_abs = nan_max(max_abs, e);
        if (b != cplx(0)) {
          const double r = round_to(rt, e / abs_np(round_c(y.t, y.cv(y.at(k))), y.t));
          max_rel = nan_max(max_rel, r);
          any_rel = true;
        }
      }
      remarks += "\nMax absolute difference among violations: " + float0d_str(max_abs, rt);
      remarks += "\nMax relative difference among violations: " +
                 (any_rel ? float0d_str(max_rel, rt) : std::string("inf"));
    }
  }
  fail(build_err_msg({&x, &y}, sp.err_msg + "\n" + remarks, sp.header, sp.verbose, sp.names, sp.precision));
}

std::string g_format(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

void assert_allclose(const operand& actual, const operand& desired, const allclose_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::testing::assert_allclose");
  assert_spec sp;
  sp.header = "Not equal to tolerance rtol=" + g_format(opts.rtol) + ", atol=" + g_format(opts.atol);
  sp.equal_nan = opts.equal_nan;
  sp.strict = opts.strict;
  sp.verbose = opts.verbose;
  sp.err_msg = opts.err_msg;
  sp.cs = compare_spec{cmp_op::isclose, opts.rtol, opts.atol, 0.0, opts.equal_nan};
  assert_array_compare(sp, actual, desired);
}

void assert_array_equal(const operand& actual, const operand& desired, const array_equal_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::testing::assert_array_equal");
  assert_spec sp;
  sp.header = "Arrays are not equal";
  sp.strict = opts.strict;
  sp.verbose = opts.verbose;
  sp.err_msg = opts.err_msg;
  sp.cs = compare_spec{cmp_op::equal};
  assert_array_compare(sp, actual, desired);
}

void assert_array_almost_equal(const operand& actual, const operand& desired, const array_almost_equal_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::testing::assert_array_almost_equal");
  assert_spec sp;
  sp.header = "Arrays are not almost equal to " + std::to_string(opts.decimal) + " decimals";
  sp.precision = opts.decimal;
  sp.verbose = opts.verbose;
  sp.err_msg = opts.err_msg;
  sp.cs = compare_spec{cmp_op::almost, 0, 0, 1.5 * std::pow(10.0, -static_cast<double>(opts.decimal))};
  assert_array_compare(sp, actual, desired);
}

void assert_array_less(const operand& x, const operand& y, const array_less_options& opts) {
  CUSCI_NVTX_SCOPE("cusci::testing::assert_array_less");
  assert_spec sp;
  sp.header = "Arrays are not strictly ordered `x < y`";
  sp.equal_inf = false;
  sp.strict = opts.strict;
  sp.verbose = opts.verbose;
  sp.err_msg = opts.err_msg;
  sp.names = {"x", "y"};
  sp.cs = compare_spec{cmp_op::less};
  assert_array_compare(sp, x, y);
}

}  // namespace cusci::testing
