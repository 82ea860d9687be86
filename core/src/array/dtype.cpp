// dtype names, parsing, and NumPy 2's type promotion (np.promote_types, NEP 50 weak scalars).
#include "cusci/dtype.hpp"

#include <string>
#include <utility>

#include "cusci/error.hpp"
#include "cusci/scalar.hpp"

namespace cusci {

std::string_view dtype_name(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: return "bool";
#define CUSCI_NAME_(name, type) \
  case dtype::name: return #name;
    CUSCI_NAME_(int8, _) CUSCI_NAME_(int16, _) CUSCI_NAME_(int32, _) CUSCI_NAME_(int64, _)
    CUSCI_NAME_(uint8, _) CUSCI_NAME_(uint16, _) CUSCI_NAME_(uint32, _) CUSCI_NAME_(uint64, _)
    CUSCI_NAME_(float16, _) CUSCI_NAME_(float32, _) CUSCI_NAME_(float64, _) CUSCI_NAME_(complex64, _) CUSCI_NAME_(complex128, _)
#undef CUSCI_NAME_
  }
  return "unknown";
}

namespace {
char kind_char(dtype t) {
  if (is_bool(t)) return 'b';
  if (is_signed_integer(t)) return 'i';
  if (is_unsigned_integer(t)) return 'u';
  if (is_floating(t)) return 'f';
  return 'c';
}
}  // namespace

std::string dtype_descr(dtype t) {
  if (t == dtype::bool_) return "|b1";
  if (t == dtype::int8) return "|i1";
  if (t == dtype::uint8) return "|u1";
  return std::string("<") + kind_char(t) + std::to_string(itemsize(t));
}

dtype dtype_from_string(std::string_view s) {
  std::string_view name = s;
  if (!name.empty() && (name[0] == '<' || name[0] == '|' || name[0] == '=')) name.remove_prefix(1);
  else if (!name.empty() && name[0] == '>') {
    // Big-endian is accepted only for single-byte types, whose byte order is irrelevant.
    std::string_view rest = name.substr(1);
    if (rest == "b1" || rest == "i1" || rest == "u1") name = rest;
    else throw type_error("cusci: big-endian dtype '" + std::string(s) + "' is not supported");
  }
  struct entry { std::string_view a, b, c; dtype t; };
  static constexpr entry table[] = {
      {"bool", "b1", "?", dtype::bool_},         {"int8", "i1", "b", dtype::int8},
      {"int16", "i2", "h", dtype::int16},        {"int32", "i4", "i", dtype::int32},
      {"int64", "i8", "q", dtype::int64},        {"uint8", "u1", "B", dtype::uint8},
      {"uint16", "u2", "H", dtype::uint16},      {"uint32", "u4", "I", dtype::uint32},
      {"uint64", "u8", "Q", dtype::uint64},      {"float16", "f2", "e", dtype::float16},
      {"float32", "f4", "f", dtype::float32},
      {"float64", "f8", "d", dtype::float64},    {"complex64", "c8", "F", dtype::complex64},
      {"complex128", "c16", "D", dtype::complex128},
  };
  for (const auto& e : table)
    if (name == e.a || name == e.b || name == e.c) return e.t;
  // NumPy 2's other names (C type names and the platform's int / intp / uint, on LP64 Linux).
  static constexpr std::pair<std::string_view, dtype> aliases[] = {
      {"bool_", dtype::bool_},        {"byte", dtype::int8},         {"ubyte", dtype::uint8},
      {"short", dtype::int16},        {"ushort", dtype::uint16},     {"intc", dtype::int32},
      {"uintc", dtype::uint32},       {"int", dtype::int64},         {"int_", dtype::int64},
      {"intp", dtype::int64},         {"p", dtype::int64},           {"long", dtype::int64},
      {"l", dtype::int64},            {"longlong", dtype::int64},    {"uint", dtype::uint64},
      {"uintp", dtype::uint64},       {"P", dtype::uint64},          {"ulong", dtype::uint64},
      {"L", dtype::uint64},           {"ulonglong", dtype::uint64},  {"half", dtype::float16},
      {"single", dtype::float32},     {"float", dtype::float64},     {"double", dtype::float64},
      {"csingle", dtype::complex64},  {"complex", dtype::complex128}, {"cdouble", dtype::complex128},
  };
  for (const auto& [a, t] : aliases)
    if (name == a) return t;
  throw type_error("cusci: data type '" + std::string(s) + "' not understood or not supported");
}

namespace {
int bits(dtype t) { return static_cast<int>(itemsize(t)) * 8; }
dtype float_of_bits(int b) {
  return b <= 16 ? dtype::float16 : b <= 32 ? dtype::float32 : dtype::float64;
}
dtype signed_of_bits(int b) {
  switch (b) {
    case 8: return dtype::int8;
    case 16: return dtype::int16;
    case 32: return dtype::int32;
    default: return dtype::int64;
  }
}
// Bits of the smallest float NumPy can cast integer type t to "safely": 8-bit ints -> float16,
// 16-bit -> float32, 32/64-bit -> float64.
int float_bits_for_int(dtype t) { return bits(t) == 8 ? 16 : bits(t) == 16 ? 32 : 64; }
}  // namespace

dtype promote_types(dtype a, dtype b) noexcept {
  if (a == b) return a;
  if (is_bool(a)) return b;
  if (is_bool(b)) return a;
  const bool ai = is_integer(a), bi = is_integer(b);
  if (ai && bi) {
    const bool as = is_signed_integer(a), bs = is_signed_integer(b);
    if (as == bs) return bits(a) >= bits(b) ? a : b;
    const dtype s = as ? a : b, u = as ? b : a;
    if (bits(u) == 64) return dtype::float64;
    const int need = bits(u) * 2;
    return signed_of_bits(bits(s) > need ? bits(s) : need);
  }
  if (ai || bi) {
    const dtype i = ai ? a : b, x = ai ? b : a;  // x is float or complex
    const int fb = float_bits_for_int(i);
    if (is_floating(x)) return (bits(x) >= fb) ? x : float_of_bits(fb);
    // complex: component bits must hold fb (there is no complex32: complex64 is the smallest)
    return (bits(x) / 2 >= fb) ? x : dtype::complex128;
  }
  // both inexact
  if (is_floating(a) && is_floating(b)) return bits(a) >= bits(b) ? a : b;
  if (is_complex(a) && is_complex(b)) return bits(a) >= bits(b) ? a : b;
  const dtype f = is_floating(a) ? a : b, c = is_floating(a) ? b : a;
  return (bits(c) / 2 >= bits(f)) ? c : dtype::complex128;
}

namespace {
int kind_rank(dtype t) {
  if (is_bool(t)) return 0;
  if (is_integer(t)) return 1;
  if (is_floating(t)) return 2;
  return 3;
}
}  // namespace

dtype promote_with_scalar(dtype array_dtype, const scalar& s) noexcept {
  if (!s.is_weak()) return promote_types(array_dtype, s.dtype());
  const int ka = kind_rank(array_dtype), ks = kind_rank(s.dtype());
  if (ks <= ka) return array_dtype;
  // The weak scalar's kind is higher: NumPy uses the default dtype of that kind, combined with the array.
  switch (ks) {
    case 1: return dtype::int64;  // bool array with a Python int
    case 2: return dtype::float64;  // bool/int array with a Python float
    default:
      // Python complex: complex64 for float16/float32 arrays, complex128 otherwise.
      return array_dtype == dtype::float32 || array_dtype == dtype::float16 ? dtype::complex64
                                                                             : dtype::complex128;
  }
}

namespace {
// Float-to-integer conversions outside the target range are undefined in C++; NumPy gives
// platform-dependent values with a warning. cusci saturates (NaN gives 0), as CUDA's conversions do.
std::int64_t saturate_i64(double x) {
  if (!(x == x)) return 0;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  return static_cast<std::int64_t>(x);
}
std::uint64_t saturate_u64(double x) {
  if (!(x == x) || x <= 0.0) return x == x && x < 0.0 && x > -9223372036854775808.0
                                          ? static_cast<std::uint64_t>(static_cast<std::int64_t>(x))
                                          : 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<std::uint64_t>(x);
}
}  // namespace

scalar scalar::of(std::complex<double> v, cusci::dtype t) noexcept {
  scalar s;
  s.dtype_ = t;
  s.weak_ = false;
  if (is_complex(t)) {
    s.c_ = (t == dtype::complex64) ? std::complex<double>(std::complex<float>(v)) : v;
  } else if (is_floating(t)) {
    s.c_ = (t == dtype::float32)   ? static_cast<double>(static_cast<float>(v.real()))
           : (t == dtype::float16) ? static_cast<double>(static_cast<float>(float16(v.real())))
                                   : v.real();
  } else if (t == dtype::bool_) {
    s.i_ = v != std::complex<double>(0.0);
    s.c_ = static_cast<double>(s.i_);
  } else if (t == dtype::uint64) {
    s.u_ = saturate_u64(v.real());
    s.i_ = static_cast<std::int64_t>(s.u_);
    s.c_ = static_cast<double>(s.u_);
  } else {
    const auto raw = saturate_i64(v.real());
    std::int64_t w = raw;
    switch (t) {  // wrap to the target width, as a C cast would
      case dtype::int8: w = static_cast<std::int8_t>(raw); break;
      case dtype::int16: w = static_cast<std::int16_t>(raw); break;
      case dtype::int32: w = static_cast<std::int32_t>(raw); break;
      case dtype::uint8: w = static_cast<std::uint8_t>(raw); break;
      case dtype::uint16: w = static_cast<std::uint16_t>(raw); break;
      case dtype::uint32: w = static_cast<std::uint32_t>(raw); break;
      default: break;
    }
    s.i_ = w;
    s.c_ = static_cast<double>(w);
  }
  return s;
}

}  // namespace cusci
