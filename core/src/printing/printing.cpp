// NumPy's array printing (str, repr, array2string, print options); see cusci/printing.hpp and
// docs/core-printing.md. Host code only: a device array is reduced to its printed corners on the device
// (slices + concatenate) and copied to the host once.
//
// The formats follow NumPy 2.5's numpy/_core/arrayprint.py (FloatingFormat, IntegerFormat, BoolFormat,
// ComplexFloatingFormat, _formatArray, array_repr) and its Dragon4 float formatting: the shortest
// digits that identify a value come from std::to_chars (float, double; an exact shortest-round-trip
// algorithm, as Dragon4's unique mode) and, for float16, from a search over 1 to 5 significant digits
// with a round-trip check; digits cut at `precision` are the exact binary value rounded half to even
// (printf's "%.*f"/"%.*e", as Dragon4's cutoff rounding).

#include "cusci/detail/shape.hpp"
#include "cusci/printing.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cusci/error.hpp"
#include "cusci/manipulation.hpp"

namespace cusci {

namespace {

thread_local print_options tl_options{};

// ----------------------------------------------------------------------------------------------
// Digits of one float (Dragon4's role in NumPy).

enum class ftype { f16, f32, f64 };

ftype ftype_of(dtype t) {
  switch (t) {
    case dtype::float16: return ftype::f16;
    case dtype::float32: case dtype::complex64: return ftype::f32;
    default: return ftype::f64;
  }
}

/// a = D[0].D[1:] x 10^X, D without trailing zeros (except "0" for zero).
struct sci_digits {
  std::string d;
  int x = 0;
};

/// Parses printf/to_chars scientific output "d.ddde+XX" / "de-XX" (non-negative value).
sci_digits parse_sci(const char* s, std::size_t n, bool strip_zeros) {
  sci_digits r;
  std::size_t i = 0;
  for (; i < n && s[i] != 'e'; ++i)
    if (s[i] != '.') r.d.push_back(s[i]);
  if (i < n) r.x = std::atoi(std::string(s + i + 1, s + n).c_str());
  if (strip_zeros) {
    while (r.d.size() > 1 && r.d.back() == '0') r.d.pop_back();
  }
  return r;
}

bool f16_roundtrips(const std::string& s, std::uint16_t bits) {
  const double v = std::strtod(s.c_str(), nullptr);
  return float16(v).bits == bits;
}

/// Shortest digits that identify the non-negative finite `a` among the values of type t.
sci_digits shortest(double a, ftype t) {
  char buf[64];
  if (t == ftype::f64) {
    auto r = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
    return parse_sci(buf, static_cast<std::size_t>(r.ptr - buf), true);
  }
  if (t == ftype::f32) {
    auto r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(a), std::chars_format::scientific);
    return parse_sci(buf, static_cast<std::size_t>(r.ptr - buf), true);
  }
  if (a == 0) return {"0", 0};
  const std::uint16_t bits = float16(a).bits;
  for (int n = 1; n <= 6; ++n) {
    const int len = std::snprintf(buf, sizeof buf, "%.*e", n - 1, a);
    sci_digits near = parse_sci(buf, static_cast<std::size_t>(len), false);
    // candidates: the nearest n-digit decimal, then its neighbours
    const long long m = std::atoll(near.d.c_str());
    const long long cand[3] = {m, m - 1, m + 1};
    const double exact = a;
    int best = -1;
    double best_dist = 0;
    for (int k = 0; k < 3; ++k) {
      if (cand[k] <= 0) continue;
      const std::string s = std::to_string(cand[k]) + "e" + std::to_string(near.x - (n - 1));
      if (!f16_roundtrips(s, bits)) continue;
      const double dist = std::fabs(std::strtod(s.c_str(), nullptr) - exact);
      if (best < 0 || dist < best_dist) {
        best = k;
        best_dist = dist;
      }
    }
    if (best >= 0) {
      std::string digits = std::to_string(cand[best]);
      int x = near.x + static_cast<int>(digits.size()) - n;  // a carry (999 + 1) adds a digit
      while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
      return {digits, x};
    }
  }
  const int len = std::snprintf(buf, sizeof buf, "%.*e", 16, a);
  return parse_sci(buf, static_cast<std::size_t>(len), true);
}

/// NumPy's Dragon4 writes into a 16384-character buffer and raises RuntimeError("Float formatting
/// result too large") beyond it (about 16380 digits); cusci stops at 16000 digits.
void check_digits(int p) {
  if (p > 16000)
    throw runtime_error("cusci::array2string: Float formatting result too large (precision " + std::to_string(p) +
                        " > 16000 digits)");
}

enum class trim_mode { keep, dot, zero, minus };  // NumPy's trim 'k', '.', '0', '-'

/// Applies min_digits padding / trailing-zero trimming to a fraction and joins "int.frac".
std::string finish_fraction(std::string frac, int min_digits, trim_mode trim, bool& keep_dot) {
  const std::size_t md = min_digits > 0 ? static_cast<std::size_t>(min_digits) : 0;
  if (trim == trim_mode::keep) {
    if (frac.size() < md) frac.append(md - frac.size(), '0');
  } else {
    while (frac.size() > md && frac.back() == '0') frac.pop_back();
    if (frac.size() < md) frac.append(md - frac.size(), '0');
  }
  keep_dot = true;
  if (frac.empty()) {
    if (trim == trim_mode::zero) frac = "0";
    else if (trim == trim_mode::minus) keep_dot = false;
  }
  return frac;
}

std::string pad_left_to(std::string s, int width) {
  if (width > 0 && static_cast<int>(s.size()) < width) s.insert(0, static_cast<std::size_t>(width) - s.size(), ' ');
  return s;
}

/// NumPy's dragon4_positional (fractional=True): precision < 0 means None, min_digits < 0 None,
/// pad_left / pad_right < 0 none.
std::string positional(double x, ftype t, int precision, bool unique, int min_digits, trim_mode trim,
                       bool sign_plus, int pad_left = -1, int pad_right = -1) {
  const bool neg = std::signbit(x);
  const double a = std::fabs(x);
  std::string ip, frac;
  bool rounded = !unique;
  if (unique) {
    const sci_digits d = shortest(a, t);
    const int needed = std::max(0, static_cast<int>(d.d.size()) - 1 - d.x);
    if (precision >= 0 && needed > precision) {
      rounded = true;
    } else if (min_digits > needed) {  // Dragon4 prints further digits of the exact value
      rounded = true;
      precision = min_digits;
    } else if (d.x >= 0) {
      const std::size_t ni = static_cast<std::size_t>(d.x) + 1;
      if (d.d.size() <= ni) {
        ip = d.d + std::string(ni - d.d.size(), '0');
      } else {
        ip = d.d.substr(0, ni);
        frac = d.d.substr(ni);
      }
    } else {
      ip.assign(1, '0');
      frac.assign(static_cast<std::size_t>(-d.x - 1), '0');
      frac += d.d;
    }
  }
  if (rounded) {
    const int p = std::max(precision, 0);
    check_digits(p);
    std::vector<char> buf(static_cast<std::size_t>(p) + 400);
    std::snprintf(buf.data(), buf.size(), "%.*f", p, a);
    std::string s(buf.data());
    const auto dot = s.find('.');
    if (dot == std::string::npos) {
      ip = s;
    } else {
      ip = s.substr(0, dot);
      frac = s.substr(dot + 1);
    }
  }
  bool keep_dot = true;
  frac = finish_fraction(std::move(frac), min_digits, trim, keep_dot);
  std::string out = neg ? "-" : (sign_plus ? "+" : "");
  out += ip;
  out = pad_left_to(std::move(out), pad_left);
  if (keep_dot) out += '.';
  out += frac;
  if (pad_right > 0 && static_cast<int>(frac.size()) < pad_right) out.append(static_cast<std::size_t>(pad_right) - frac.size(), ' ');
  return out;
}

/// NumPy's dragon4_scientific: exp_digits < 0 means at least 2 exponent digits.
std::string scientific(double x, ftype t, int precision, bool unique, int min_digits, trim_mode trim,
                       bool sign_plus, int pad_left = -1, int exp_digits = -1) {
  const bool neg = std::signbit(x);
  const double a = std::fabs(x);
  sci_digits d;
  bool rounded = !unique;
  if (unique) {
    d = shortest(a, t);
    const int needed = static_cast<int>(d.d.size()) - 1;
    if (precision >= 0 && needed > precision) {
      rounded = true;
    } else if (min_digits > needed) {  // Dragon4 prints further digits of the exact value
      rounded = true;
      precision = min_digits;
    }
  }
  if (rounded) {
    const int p = std::max(precision, 0);
    check_digits(p);
    std::vector<char> buf(static_cast<std::size_t>(p) + 32);
    const int len = std::snprintf(buf.data(), buf.size(), "%.*e", p, a);
    d = parse_sci(buf.data(), static_cast<std::size_t>(len), false);
  }
  bool keep_dot = true;
  std::string frac = finish_fraction(d.d.substr(1), min_digits, trim, keep_dot);
  std::string out = neg ? "-" : (sign_plus ? "+" : "");
  out += d.d[0];
  out = pad_left_to(std::move(out), pad_left);
  if (keep_dot) out += '.';
  out += frac;
  out += 'e';
  out += d.x < 0 ? '-' : '+';
  std::string e = std::to_string(std::abs(d.x));
  const std::size_t ed = static_cast<std::size_t>(exp_digits < 0 ? 2 : exp_digits);
  if (e.size() < ed) e.insert(0, ed - e.size(), '0');
  return out + e;
}

// ----------------------------------------------------------------------------------------------
// Scalar str (numpy scalars' __str__).

std::string float_scalar_str(double v, ftype t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const double a = std::fabs(v);
  const double hi = t == ftype::f16 ? 1e3 : t == ftype::f32 ? 1e6 : 1e16;
  if (a == 0 || (a >= 1e-4 && a < hi)) return positional(v, t, -1, true, -1, trim_mode::zero, false);
  return scientific(v, t, -1, true, -1, trim_mode::minus, false);
}

std::string complex_part_str(double v, ftype t) {
  std::string s = float_scalar_str(v, t);
  if (s.size() >= 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string complex_scalar_str(double re, double im, ftype t) {
  std::string is = complex_part_str(im, t);
  if (re == 0 && !std::signbit(re)) return is + "j";
  const bool im_neg = std::signbit(im) && !std::isnan(im);
  if (std::isnan(im) && !is.empty() && is[0] == '-') is.erase(0, 1);
  return "(" + complex_part_str(re, t) + (im_neg ? "" : "+") + is + "j)";
}

// ----------------------------------------------------------------------------------------------
// Element access on a host array.

double real_at(const host_array& h, std::int64_t i) {
  const void* p = h.data();
  switch (h.dtype()) {
    case dtype::bool_: return static_cast<const bool*>(p)[i] ? 1.0 : 0.0;
    case dtype::int8: return static_cast<const std::int8_t*>(p)[i];
    case dtype::int16: return static_cast<const std::int16_t*>(p)[i];
    case dtype::int32: return static_cast<const std::int32_t*>(p)[i];
    case dtype::int64: return static_cast<double>(static_cast<const std::int64_t*>(p)[i]);
    case dtype::uint8: return static_cast<const std::uint8_t*>(p)[i];
    case dtype::uint16: return static_cast<const std::uint16_t*>(p)[i];
    case dtype::uint32: return static_cast<const std::uint32_t*>(p)[i];
    case dtype::uint64: return static_cast<double>(static_cast<const std::uint64_t*>(p)[i]);
    case dtype::float16: return static_cast<float>(static_cast<const float16*>(p)[i]);
    case dtype::float32: return static_cast<const float*>(p)[i];
    case dtype::float64: return static_cast<const double*>(p)[i];
    case dtype::complex64: return static_cast<const std::complex<float>*>(p)[i].real();
    case dtype::complex128: return static_cast<const std::complex<double>*>(p)[i].real();
  }
  return 0;
}

double imag_at(const host_array& h, std::int64_t i) {
  if (h.dtype() == dtype::complex64) return static_cast<const std::complex<float>*>(h.data())[i].imag();
  if (h.dtype() == dtype::complex128) return static_cast<const std::complex<double>*>(h.data())[i].imag();
  return 0;
}

/// Integers as (negative?, magnitude) so that int64 and uint64 both fit.
struct int_value {
  bool neg = false;
  std::uint64_t mag = 0;
};

int_value int_at(const host_array& h, std::int64_t i) {
  const void* p = h.data();
  auto s = [](std::int64_t v) {
    return v < 0 ? int_value{true, static_cast<std::uint64_t>(-(v + 1)) + 1u} : int_value{false, static_cast<std::uint64_t>(v)};
  };
  switch (h.dtype()) {
    case dtype::int8: return s(static_cast<const std::int8_t*>(p)[i]);
    case dtype::int16: return s(static_cast<const std::int16_t*>(p)[i]);
    case dtype::int32: return s(static_cast<const std::int32_t*>(p)[i]);
    case dtype::int64: return s(static_cast<const std::int64_t*>(p)[i]);
    case dtype::uint8: return {false, static_cast<const std::uint8_t*>(p)[i]};
    case dtype::uint16: return {false, static_cast<const std::uint16_t*>(p)[i]};
    case dtype::uint32: return {false, static_cast<const std::uint32_t*>(p)[i]};
    case dtype::uint64: return {false, static_cast<const std::uint64_t*>(p)[i]};
    default: return {};
  }
}

std::string int_str(int_value v) {
  std::string s = v.neg ? "-" : "";
  s += std::to_string(v.mag);
  return s;
}

bool int_less(int_value a, int_value b) {
  if (a.neg != b.neg) return a.neg;
  return a.neg ? a.mag > b.mag : a.mag < b.mag;
}

// ----------------------------------------------------------------------------------------------
// Element formatters (NumPy's FloatingFormat, IntegerFormat, BoolFormat, ComplexFloatingFormat).

struct resolved_options {
  int linewidth;
  int precision;
  bool suppress;
  std::int64_t threshold;
  int edgeitems;
  print_sign sign;
  float_mode floatmode;
  std::string nanstr, infstr;
};

class floating_format {
 public:
  floating_format(const std::vector<double>& data, ftype t, const resolved_options& o, print_sign sign)
      : t_(t), sign_(sign), floatmode_(o.floatmode), nanstr_(o.nanstr), infstr_(o.infstr) {
    precision_ = o.floatmode == float_mode::unique ? -1 : o.precision;
    std::vector<double> finite;
    bool any_neg_inf = false;
    for (double v : data) {
      if (std::isfinite(v)) finite.push_back(v);
      else if (std::isinf(v) && v < 0) any_neg_inf = true;
    }
    bool have_nz = false;
    double mx = 0, mn = 0;
    for (double v : finite) {
      if (v == 0) continue;
      const double a = std::fabs(v);
      if (!have_nz) {
        mx = mn = a;
        have_nz = true;
      } else {
        mx = std::max(mx, a);
        mn = std::min(mn, a);
      }
    }
    if (have_nz) {
      const double cutoff = t == ftype::f16 ? 1e3 : t == ftype::f32 ? 1e6 : 1e8;
      double ratio;  // computed in the array's precision, as NumPy
      if (t == ftype::f64) ratio = mx / mn;
      else if (t == ftype::f32) ratio = static_cast<float>(mx) / static_cast<float>(mn);
      else ratio = static_cast<float>(float16(static_cast<float>(mx) / static_cast<float>(mn)));
      // NumPy 2 compares with Python floats as weak scalars: 1e-4 is rounded to the array's type
      const double tiny = t == ftype::f64   ? 1e-4
                          : t == ftype::f32 ? static_cast<double>(1e-4f)
                                            : static_cast<double>(static_cast<float>(float16(1e-4)));
      if (mx >= cutoff || (!o.suppress && (mn < tiny || ratio > 1000.))) exp_format_ = true;
    }
    const bool plus = sign_ == print_sign::plus;
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
      trim_ = trim_mode::dot;
      exp_size_ = -1;
      unique_ = true;
      min_digits_ = -1;
    } else if (exp_format_) {
      trim_mode trim = trim_mode::dot;
      bool unique = true;
      if (floatmode_ == float_mode::fixed) {
        trim = trim_mode::keep;
        unique = false;
      }
      int max_exp = 0, max_frac = 0, max_int = 0;
      for (double v : finite) {
        const std::string s = scientific(v, t, precision_, unique, -1, trim, plus);
        const auto e = s.find('e'), dot = s.find('.');
        max_exp = std::max(max_exp, static_cast<int>(s.size() - e - 1));
        max_frac = std::max(max_frac, static_cast<int>(e - dot - 1));
        max_int = std::max(max_int, static_cast<int>(dot));
      }
      exp_size_ = max_exp - 1;
      trim_ = trim_mode::keep;
      precision_ = max_frac;
      min_digits_ = max_frac;
      unique_ = unique;
      pad_left_ = max_int;
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      trim_mode trim = trim_mode::dot;
      bool unique = true;
      if (floatmode_ == float_mode::fixed) {
        trim = trim_mode::keep;
        unique = false;
      }
      int max_frac = 0, max_int = 0;
      for (double v : finite) {
        const std::string s = positional(v, t, precision_, unique, -1, trim, plus);
        const auto dot = s.find('.');
        max_int = std::max(max_int, static_cast<int>(dot));
        max_frac = std::max(max_frac, static_cast<int>(s.size() - dot - 1));
      }
      pad_left_ = max_int;
      pad_right_ = max_frac;
      exp_size_ = -1;
      unique_ = unique;
      if (floatmode_ == float_mode::fixed || floatmode_ == float_mode::maxprec_equal) {
        precision_ = min_digits_ = pad_right_;
        trim_ = trim_mode::keep;
      } else {
        trim_ = trim_mode::dot;
        min_digits_ = 0;
      }
    }
    if (sign_ == print_sign::space) {
      bool any_signbit = false;
      for (double v : finite) any_signbit = any_signbit || std::signbit(v);
      if (!any_signbit) pad_left_ += 1;
    }
    if (finite.size() != data.size()) {
      const int neginf = (sign_ != print_sign::minus || any_neg_inf) ? 1 : 0;
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, static_cast<int>(nanstr_.size()) - offset,
                            static_cast<int>(infstr_.size()) + neginf - offset});
    }
  }

  std::string operator()(double x) const {
    const bool plus = sign_ == print_sign::plus;
    if (!std::isfinite(x)) {
      std::string r;
      if (std::isnan(x)) r = (plus ? "+" : "") + nanstr_;
      else r = (x < 0 ? "-" : plus ? "+" : "") + infstr_;
      return pad_left_to(std::move(r), pad_left_ + pad_right_ + 1);
    }
    if (exp_format_) return scientific(x, t_, precision_, unique_, min_digits_, trim_, plus, pad_left_, exp_size_);
    return positional(x, t_, precision_, unique_, min_digits_, trim_, plus, pad_left_, pad_right_);
  }

 private:
  ftype t_;
  print_sign sign_;
  float_mode floatmode_;
  std::string nanstr_, infstr_;
  int precision_ = -1;
  bool exp_format_ = false;
  int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1, min_digits_ = -1;
  trim_mode trim_ = trim_mode::dot;
  bool unique_ = true;
};

using element_fn = std::function<std::string(std::int64_t)>;

element_fn make_format(const host_array& h, const resolved_options& o) {
  const dtype t = h.dtype();
  const std::int64_t n = h.size();
  if (t == dtype::bool_) {
    const bool scalar = h.ndim() == 0;
    return [&h, scalar](std::int64_t i) -> std::string {
      return static_cast<const bool*>(h.data())[i] ? (scalar ? "True" : " True") : "False";
    };
  }
  if (is_integer(t)) {
    std::size_t width = 0;
    char sign = static_cast<char>(o.sign);
    if (n > 0) {
      int_value mx = int_at(h, 0), mn = mx;
      for (std::int64_t i = 1; i < n; ++i) {
        const int_value v = int_at(h, i);
        if (int_less(mx, v)) mx = v;
        if (int_less(v, mn)) mn = v;
      }
      std::size_t max_len = int_str(mx).size();
      if (sign == ' ' && mn.neg) sign = '-';
      if (!mx.neg && (sign == '+' || sign == ' ')) max_len += 1;
      width = std::max(max_len, int_str(mn).size());
    }
    return [&h, width, sign](std::int64_t i) {
      const int_value v = int_at(h, i);
      std::string s = int_str(v);
      if (!v.neg && sign != '-') s.insert(0, 1, sign);
      return pad_left_to(std::move(s), static_cast<int>(width));
    };
  }
  const ftype ft = ftype_of(t);
  std::vector<double> re(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) re[static_cast<std::size_t>(i)] = real_at(h, i);
  if (is_floating(t)) {
    floating_format f(re, ft, o, o.sign);
    return [&h, f](std::int64_t i) { return f(real_at(h, i)); };
  }
  std::vector<double> im(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) im[static_cast<std::size_t>(i)] = imag_at(h, i);
  floating_format fr(re, ft, o, o.sign), fi(im, ft, o, print_sign::plus);
  return [&h, fr, fi](std::int64_t i) {
    std::string r = fr(real_at(h, i)), s = fi(imag_at(h, i));
    const auto sp = s.find_last_not_of(' ');
    s.insert(sp == std::string::npos ? 0 : sp + 1, 1, 'j');
    return r + s;
  };
}

// ----------------------------------------------------------------------------------------------
// Layout (NumPy's _formatArray).

std::string rstrip(const std::string& s) {
  const auto e = s.find_last_not_of(" \t\n");
  return e == std::string::npos ? std::string() : s.substr(0, e + 1);
}

struct layout {
  const shape_t& shape;       // the printed array's shape
  const shape_t& rshape;      // the shape of the host data (corners only when summarised)
  const element_fn& fmt;
  std::string separator;
  int edge;
  bool summary;
  std::string next_line_prefix;

  void extend_line(std::string& s, std::string& line, const std::string& word, long width) const {
    bool wrap = static_cast<long>(line.size() + word.size()) > width;
    if (line.size() <= next_line_prefix.size()) wrap = false;
    if (wrap) {
      s += rstrip(line) + "\n";
      line = next_line_prefix;
    }
    line += word;
  }

  /// index: logical indices (non-negative) of the leading axes.
  std::string recurse(std::vector<std::int64_t>& index, const std::string& hanging, long width) const {
    const std::size_t axis = index.size();
    const std::size_t nd = shape.size();
    if (axis == nd) {
      std::int64_t flat = 0;
      for (std::size_t k = 0; k < nd; ++k) {
        std::int64_t i = index[k];
        if (rshape[k] != shape[k] && i >= edge) i -= shape[k] - rshape[k];
        flat = flat * rshape[k] + i;
      }
      return fmt(flat);
    }
    const std::size_t left = nd - axis;
    const std::string next_hanging = hanging + " ";
    const long next_width = width - 1;
    const std::int64_t len = shape[axis];
    const bool show = summary && 2 * static_cast<std::int64_t>(edge) < len;
    const std::int64_t leading = show ? edge : 0, trailing = show ? edge : len;
    // the line prefix of this level: NumPy's `hanging_indent` (the prefix of the rows it breaks)
    layout sub = *this;
    sub.next_line_prefix = hanging;
    std::string s;
    auto child = [&](std::int64_t i) {
      index.push_back(i);
      std::string r = recurse(index, next_hanging, next_width);
      index.pop_back();
      return r;
    };
    if (left == 1) {
      const long sep_len = static_cast<long>(rstrip(separator).size());
      const long elem_width = width - std::max(sep_len, 1L);
      std::string line = hanging;
      for (std::int64_t i = 0; i < leading; ++i) {
        sub.extend_line(s, line, child(i), elem_width);
        line += separator;
      }
      if (show) {
        sub.extend_line(s, line, "...", elem_width);
        line += separator;
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        sub.extend_line(s, line, child(len - i), elem_width);
        line += separator;
      }
      sub.extend_line(s, line, child(len - 1), elem_width);
      s += line;
    } else {
      const std::string line_sep = rstrip(separator) + std::string(left - 1, '\n');
      for (std::int64_t i = 0; i < leading; ++i) s += hanging + child(i) + line_sep;
      if (show) s += hanging + "..." + line_sep;
      for (std::int64_t i = trailing; i > 1; --i) s += hanging + child(len - i) + line_sep;
      s += hanging + child(len - 1);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }
};

resolved_options resolve(const array2string_options& a) {
  const print_options& g = tl_options;
  resolved_options o{a.max_line_width.value_or(g.linewidth), a.precision.value_or(g.precision),
                     a.suppress_small.value_or(g.suppress), a.threshold.value_or(g.threshold),
                     a.edgeitems.value_or(g.edgeitems), a.sign.value_or(g.sign), a.floatmode.value_or(g.floatmode),
                     g.nanstr, g.infstr};
  if (o.precision < 0) throw value_error("cusci::array2string: precision must be >= 0, got " + std::to_string(o.precision));
  if (o.edgeitems < 0) throw value_error("cusci::array2string: edgeitems must be >= 0, got " + std::to_string(o.edgeitems));
  return o;
}

std::int64_t size_of(const shape_t& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

/// The corner shape NumPy's _leading_trailing keeps.
shape_t corner_shape(const shape_t& shape, int edge) {
  shape_t r = shape;
  for (auto& d : r)  // edgeitems 0: NumPy's a[-0:] keeps the whole axis
    if (edge > 0 && d > 2 * static_cast<std::int64_t>(edge)) d = 2 * static_cast<std::int64_t>(edge);
  return r;
}

/// Host corners of a host array (C order).
host_array host_corners(const host_array& h, int edge) {
  const shape_t& shape = h.shape();
  const shape_t rs = corner_shape(shape, edge);
  host_array r(h.dtype(), rs);
  const std::size_t is = itemsize(h.dtype());
  const std::int64_t n = size_of(rs);
  const std::size_t nd = rs.size();
  std::vector<std::int64_t> idx(nd, 0);
  const auto* src = static_cast<const std::byte*>(h.data());
  auto* dst = static_cast<std::byte*>(r.data());
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t flat = 0;
    for (std::size_t a = 0; a < nd; ++a) {
      std::int64_t i = idx[a];
      if (rs[a] != shape[a] && i >= edge) i += shape[a] - rs[a];
      flat = flat * shape[a] + i;
    }
    std::memcpy(dst + static_cast<std::size_t>(k) * is, src + static_cast<std::size_t>(flat) * is, is);
    for (std::size_t a = nd; a-- > 0;) {
      if (++idx[a] < rs[a]) break;
      idx[a] = 0;
    }
  }
  return r;
}

/// Device corners: per summarised axis, the first and last `edge` items joined by concatenate.
host_array device_corners(const ndarray& a, int edge) {
  ndarray r = a;
  for (int ax = 0; ax < a.ndim(); ++ax) {
    const std::int64_t len = r.shape()[static_cast<std::size_t>(ax)];
    if (edge == 0 || len <= 2 * static_cast<std::int64_t>(edge)) continue;  // edge 0: a[-0:] is the whole axis
    std::vector<index_spec> lead(static_cast<std::size_t>(ax) + 1, index_spec{slice{}});
    std::vector<index_spec> trail = lead;
    lead.back() = slice{0, edge, {}};
    trail.back() = slice{len - edge, {}, {}};
    r = concatenate({r[lead], r[trail]}, ax);
  }
  return to_host(r);
}

std::string format_host(const host_array& data, const shape_t& shape, const resolved_options& o,
                        const std::string& separator, std::size_t prefix_len, bool summary) {
  const element_fn fmt = make_format(data, o);
  layout l{shape, data.shape(), fmt, separator, o.edgeitems, summary, std::string(prefix_len + 1, ' ')};
  std::vector<std::int64_t> index;
  return l.recurse(index, l.next_line_prefix, o.linewidth);
}

template <class A, class Corners>
std::string array2string_impl(const A& a, const array2string_options& opts, Corners&& corners) {
  resolved_options o = resolve(opts);
  o.linewidth -= static_cast<int>(opts.suffix.size());
  if (a.size() == 0) return "[]";
  const bool summary = a.size() > o.threshold;
  if (summary) {
    const host_array h = corners(a, o.edgeitems);
    return format_host(h, a.shape(), o, opts.separator, opts.prefix.size(), true);
  }
  if constexpr (std::is_same_v<A, host_array>) {
    return format_host(a, a.shape(), o, opts.separator, opts.prefix.size(), false);
  } else {
    const host_array h = to_host(a);
    return format_host(h, a.shape(), o, opts.separator, opts.prefix.size(), false);
  }
}

using cusci::detail::shape_str;  // NumPy's tuple text of a shape

bool dtype_is_implied(dtype t) {
  return t == dtype::bool_ || t == dtype::int64 || t == dtype::float64 || t == dtype::complex128;
}

std::string repr_finish(const std::string& lst, dtype t, const shape_t& shape, std::int64_t size,
                        const array_str_options& opts) {
  const print_options& g = tl_options;
  const int max_line_width = opts.max_line_width.value_or(g.linewidth);
  const std::string prefix = "array(";
  std::vector<std::string> extras;
  if ((size == 0 && shape != shape_t{0}) || size > g.threshold) extras.push_back("shape=" + shape_str(shape));
  if (!dtype_is_implied(t) || size == 0) extras.push_back("dtype=" + std::string(dtype_name(t)));
  if (extras.empty()) return prefix + lst + ")";
  std::string arr_str = prefix + lst + ",";
  std::string extra_str;
  for (std::size_t i = 0; i < extras.size(); ++i) extra_str += (i ? ", " : "") + extras[i];
  extra_str += ")";
  const auto nl = arr_str.rfind('\n');
  const std::size_t last_line_len = nl == std::string::npos ? arr_str.size() : arr_str.size() - nl - 1;
  std::string spacer = " ";
  if (static_cast<long>(last_line_len + extra_str.size() + 1) > max_line_width) spacer = "\n" + std::string(prefix.size(), ' ');
  return arr_str + spacer + extra_str;
}

array2string_options from_str_options(const array_str_options& o) {
  array2string_options a;
  a.max_line_width = o.max_line_width;
  a.precision = o.precision;
  a.suppress_small = o.suppress_small;
  return a;
}

/// array2string's arguments in array_repr: separator ", ", prefix "array(", suffix ")".
array2string_options repr_options(const array_str_options& o) {
  return array2string_options{o.max_line_width, o.precision, o.suppress_small, std::string(", "),
                              std::string("array("), {}, {}, {}, {}, std::string(")")};
}

}  // namespace

// ----------------------------------------------------------------------------------------------
// Options.

float_mode float_mode_from_string(std::string_view s) {
  if (s == "fixed") return float_mode::fixed;
  if (s == "unique") return float_mode::unique;
  if (s == "maxprec") return float_mode::maxprec;
  if (s == "maxprec_equal") return float_mode::maxprec_equal;
  throw value_error(
      "cusci::float_mode_from_string: floatmode option must be one of \"fixed\", \"unique\", \"maxprec\", "
      "\"maxprec_equal\", got \"" + std::string(s) + "\"");
}

print_sign print_sign_from_string(std::string_view s) {
  if (s == "-") return print_sign::minus;
  if (s == "+") return print_sign::plus;
  if (s == " ") return print_sign::space;
  throw value_error("cusci::print_sign_from_string: sign option must be one of ' ', '+', or '-', got '" +
                    std::string(s) + "'");
}

void set_printoptions(const print_options_update& u) {
  if (u.precision && *u.precision < 0)
    throw value_error("cusci::set_printoptions: precision must be >= 0, got " + std::to_string(*u.precision));
  if (u.edgeitems && *u.edgeitems < 0)
    throw value_error("cusci::set_printoptions: edgeitems must be >= 0, got " + std::to_string(*u.edgeitems));
  if (u.threshold && *u.threshold < 0)
    throw value_error("cusci::set_printoptions: threshold must be >= 0, got " + std::to_string(*u.threshold));
  print_options& g = tl_options;
  if (u.precision) g.precision = *u.precision;
  if (u.threshold) g.threshold = *u.threshold;
  if (u.edgeitems) g.edgeitems = *u.edgeitems;
  if (u.linewidth) g.linewidth = *u.linewidth;
  if (u.suppress) g.suppress = *u.suppress;
  if (u.nanstr) g.nanstr = *u.nanstr;
  if (u.infstr) g.infstr = *u.infstr;
  if (u.sign) g.sign = *u.sign;
  if (u.floatmode) g.floatmode = *u.floatmode;
}

void reset_printoptions() noexcept { tl_options = print_options{}; }

print_options get_printoptions() { return tl_options; }

printoptions::printoptions(const print_options_update& update) : saved_(tl_options) { set_printoptions(update); }

printoptions::~printoptions() { tl_options = saved_; }

// ----------------------------------------------------------------------------------------------
// Printing.

std::string array2string(const ndarray& a, const array2string_options& options) {
  return array2string_impl(a, options, [](const ndarray& x, int e) { return device_corners(x, e); });
}

std::string array2string(const host_array& a, const array2string_options& options) {
  return array2string_impl(a, options, [](const host_array& x, int e) { return host_corners(x, e); });
}

std::string scalar_str(const host_array& a, std::int64_t i) {
  if (i < 0 || i >= a.size())
    throw index_error("cusci::scalar_str: index " + std::to_string(i) + " is out of bounds for size " +
                      std::to_string(a.size()));
  const dtype t = a.dtype();
  if (t == dtype::bool_) return static_cast<const bool*>(a.data())[i] ? "True" : "False";
  if (is_integer(t)) return int_str(int_at(a, i));
  if (is_floating(t)) return float_scalar_str(real_at(a, i), ftype_of(t));
  return complex_scalar_str(real_at(a, i), imag_at(a, i), ftype_of(t));
}

std::string array_str(const host_array& a, const array_str_options& options) {
  if (a.ndim() == 0) {
    resolve(from_str_options(options));  // validates the options as NumPy's array_str would not need to
    return scalar_str(a, 0);
  }
  return array2string(a, from_str_options(options));
}

std::string array_str(const ndarray& a, const array_str_options& options) {
  if (a.ndim() == 0) {
    resolve(from_str_options(options));
    return scalar_str(to_host(a), 0);
  }
  return array2string(a, from_str_options(options));
}

std::string array_repr(const host_array& a, const array_str_options& options) {
  const array2string_options o = repr_options(options);
  return repr_finish(array2string(a, o), a.dtype(), a.shape(), a.size(), options);
}

std::string array_repr(const ndarray& a, const array_str_options& options) {
  const array2string_options o = repr_options(options);
  return repr_finish(array2string(a, o), a.dtype(), a.shape(), a.size(), options);
}

std::string to_string(const ndarray& a) { return array_str(a); }
std::string to_string(const host_array& a) { return array_str(a); }

std::ostream& operator<<(std::ostream& os, const ndarray& a) { return os << array_str(a); }
std::ostream& operator<<(std::ostream& os, const host_array& a) { return os << array_str(a); }

}  // namespace cusci
