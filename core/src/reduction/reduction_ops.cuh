#pragma once
/// @file reduction_ops.cuh  (private to core/src; nvcc only)
/// The operations of the reduction engine (see reduction_engine.cuh for the interface): sums and
/// products (optionally skipping NaN), means, min/max (NaN propagating or NaN skipping), peak to peak,
/// arg-min/max, any/all, count_nonzero and one-pass variance.

#include "reduction/reduction_engine.cuh"

namespace cusci::detail::red {

/// a + b or a * b with NumPy's wrapping for integers (no signed overflow UB).
template <bool Prod, class A>
__device__ __forceinline__ A arith(A a, A b) {
  if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>) {
    const auto x = static_cast<std::uint64_t>(a), y = static_cast<std::uint64_t>(b);
    return static_cast<A>(Prod ? x * y : x + y);
  } else if constexpr (Prod) {
    return a * b;
  } else {
    return a + b;
  }
}

/// Sum (Prod = false) or product with accumulator A; SkipNaN replaces NaN elements by the identity
/// (nansum / nanprod); Mean divides by the element count on store.
template <class A, bool Prod, bool SkipNaN, bool Mean = false>
struct op_sum {
  using acc = A;
  using load_t = A;
  static constexpr bool pairwise32 = !Prod && !SkipNaN;
  __device__ static A identity() { return Prod ? A(1) : A(0); }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<A>(p, d); }
  template <class L>
  __device__ static void step(A& a, L x, i64) {
    if constexpr (SkipNaN) {
      if (isnan_any(x)) return;
    }
    a = arith<Prod>(a, convert<A>(x));
  }
  __device__ static A merge(A a, A b) { return arith<Prod>(a, b); }
  __device__ static void store(char* p, dtype dt, const A& a, const store_ctx& c) {
    if constexpr (Mean) {
      const double dn = static_cast<double>(c.n_red);
      if constexpr (is_complex_v<A>) store_as(p, dt, A(a.real() / dn, a.imag() / dn));
      else store_as(p, dt, static_cast<double>(a) / dn);
    } else {
      store_as(p, dt, a);
    }
  }
};

/// nanmean: sum and count of the non-NaN elements; an all-NaN slice gives 0 / 0 = NaN.
template <class A>
struct op_nanmean {
  struct acc {
    A s;
    double n;
  };
  using load_t = A;
  __device__ static acc identity() { return {A(0), 0.0}; }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<A>(p, d); }
  template <class L>
  __device__ static void step(acc& a, L x, i64) {
    if (isnan_any(x)) return;
    a.s = a.s + convert<A>(x);
    a.n += 1.0;
  }
  __device__ static acc merge(acc a, acc b) { return {a.s + b.s, a.n + b.n}; }
  __device__ static void store(char* p, dtype dt, const acc& a, const store_ctx&) {
    if constexpr (is_complex_v<A>) store_as(p, dt, A(a.s.real() / a.n, a.s.imag() / a.n));
    else store_as(p, dt, a.s / a.n);
  }
};

/// The better of two values for min (Max = false) or max, NaN propagating (first NaN kept) or, with
/// SkipNaN, NaN ignored (NaN only when both are NaN).
template <bool Max, bool SkipNaN, class A>
__device__ __forceinline__ A pick(A a, A b) {
  if constexpr (SkipNaN) {
    if (isnan_any(a)) return b;
    if (isnan_any(b)) return a;
  } else {
    if (isnan_any(a)) return a;
    if (isnan_any(b)) return b;
  }
  if constexpr (Max) return less_than(a, b) ? b : a;
  else return less_than(b, a) ? b : a;
}

/// min / max (SkipNaN: nanmin / nanmax, whose identity is NaN so that an all-NaN slice gives NaN).
template <class A, bool Max, bool SkipNaN>
struct op_minmax {
  using acc = A;
  using load_t = A;
  __device__ static A identity() {
    if constexpr (SkipNaN) return quiet_nan<A>();
    else return extreme<A, !Max>();
  }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<A>(p, d); }
  template <class L>
  __device__ static void step(A& a, L x, i64) { a = pick<Max, SkipNaN>(a, convert<A>(x)); }
  __device__ static A merge(A a, A b) { return pick<Max, SkipNaN>(a, b); }
  __device__ static void store(char* p, dtype dt, const A& a, const store_ctx&) { store_as(p, dt, a); }
};

/// A pair of values padded to a multiple of 4 bytes (warp shuffles move 4-byte words).
template <class A>
struct alignas(sizeof(A) < 4 ? 4 : alignof(A)) pair_state {
  A lo, hi;
};

/// Peak to peak: max - min in one pass; NaN propagates; integers wrap as NumPy's subtraction.
template <class A>
struct op_ptp {
  using acc = pair_state<A>;
  using load_t = A;
  __device__ static acc identity() { return {extreme<A, true>(), extreme<A, false>()}; }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<A>(p, d); }
  template <class L>
  __device__ static void step(acc& a, L x, i64) {
    const A v = convert<A>(x);
    a.lo = pick<false, false>(a.lo, v);
    a.hi = pick<true, false>(a.hi, v);
  }
  __device__ static acc merge(acc a, acc b) {
    return {pick<false, false>(a.lo, b.lo), pick<true, false>(a.hi, b.hi)};
  }
  __device__ static void store(char* p, dtype dt, const acc& a, const store_ctx&) {
    if constexpr (std::is_integral_v<A>) {
      store_as(p, dt, static_cast<A>(static_cast<std::uint64_t>(a.hi) - static_cast<std::uint64_t>(a.lo)));
    } else {
      store_as(p, dt, a.hi - a.lo);
    }
  }
};

/// Value and flat index of the best element so far.
template <class A>
struct alignas(alignof(A) > 8 ? alignof(A) : 8) arg_state {
  A v;
  i64 i;
};

inline constexpr i64 no_index = cuda::std::numeric_limits<i64>::max();

/// argmin / argmax: the first occurrence of the extreme value; NaN wins (first NaN), as NumPy.
/// SkipNaN (nanargmin / nanargmax) ignores NaN; an all-NaN slice stores -1 (the caller raises).
template <class A, bool Max, bool SkipNaN>
struct op_arg {
  using acc = arg_state<A>;
  using load_t = A;
  __device__ static acc identity() { return {extreme<A, !Max>(), no_index}; }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<A>(p, d); }
  template <class L>
  __device__ static void step(acc& a, L x, i64 j) {
    const A v = convert<A>(x);
    if constexpr (SkipNaN) {
      if (isnan_any(v)) return;
    }
    a = merge(a, acc{v, j});
  }
  __device__ static acc merge(acc a, acc b) {
    if constexpr (!SkipNaN) {
      const bool an = isnan_any(a.v), bn = isnan_any(b.v);
      if (an || bn) {
        if (an && bn) return a.i <= b.i ? a : b;
        return an ? a : b;
      }
    }
    const bool b_better = Max ? less_than(a.v, b.v) : less_than(b.v, a.v);
    const bool a_better = Max ? less_than(b.v, a.v) : less_than(a.v, b.v);
    if (b_better) return b;
    if (a_better) return a;
    return a.i <= b.i ? a : b;
  }
  __device__ static void store(char* p, dtype dt, const acc& a, const store_ctx&) {
    store_as(p, dt, a.i == no_index ? i64(-1) : a.i);
  }
};

/// any (All = false) / all over the truth values of the elements (NaN is true, as NumPy).
template <bool All>
struct op_logic {
  using acc = bool;
  using load_t = bool;
  __device__ static bool identity() { return All; }
  __device__ static bool load_dyn(const char* p, dtype d) { return is_nonzero(p, d); }
  template <class L>
  __device__ static void step(bool& a, L x, i64) {
    const bool nz = std::is_same_v<L, bool> ? static_cast<bool>(x) : nonzero_value(x);
    a = All ? (a && nz) : (a || nz);
  }
  __device__ static bool merge(bool a, bool b) { return All ? (a && b) : (a || b); }
  __device__ static void store(char* p, dtype dt, const bool& a, const store_ctx&) { store_as(p, dt, a); }
};

struct op_count {
  using acc = i64;
  using load_t = bool;
  __device__ static i64 identity() { return 0; }
  __device__ static bool load_dyn(const char* p, dtype d) { return is_nonzero(p, d); }
  template <class L>
  __device__ static void step(i64& a, L x, i64) {
    const bool nz = std::is_same_v<L, bool> ? static_cast<bool>(x) : nonzero_value(x);
    a += nz ? 1 : 0;
  }
  __device__ static i64 merge(i64 a, i64 b) { return a + b; }
  __device__ static void store(char* p, dtype dt, const i64& a, const store_ctx&) { store_as(p, dt, a); }
};

/// One-pass variance (Cplx: of complex values, |x - mean|^2). A thread's state holds shifted sums
/// around its first element (s1 = sum(x - shift), s2 = sum((x - shift)^2), exact enough in float64
/// because the shift is a sample); states merge with Chan, Golub and LeVeque's pairwise update
/// ("Updating formulae and a pairwise algorithm for computing sample variances", 1979), after which
/// the state is (n, mean, 0, M2). SkipNaN ignores NaN (nanvar).
template <bool Cplx, bool SkipNaN>
struct op_var {
  struct acc {
    double n, shift_r, shift_i, s1r, s1i, s2;
  };
  using load_t = std::conditional_t<Cplx, cuda::std::complex<double>, double>;
  __device__ static acc identity() { return {0, 0, 0, 0, 0, 0}; }
  __device__ static load_t load_dyn(const char* p, dtype d) { return load_as<load_t>(p, d); }
  template <class L>
  __device__ static void step(acc& a, L x, i64) {
    if constexpr (SkipNaN) {
      if (isnan_any(x)) return;
    }
    const load_t v = convert<load_t>(x);
    double vr, vi = 0;
    if constexpr (Cplx) { vr = v.real(); vi = v.imag(); }
    else vr = v;
    const bool first = a.n == 0;
    a.shift_r = first ? vr : a.shift_r;
    const double dr = vr - a.shift_r;
    a.s1r += dr;
    a.s2 = fma(dr, dr, a.s2);
    if constexpr (Cplx) {
      a.shift_i = first ? vi : a.shift_i;
      const double di = vi - a.shift_i;
      a.s1i += di;
      a.s2 = fma(di, di, a.s2);
    }
    a.n += 1.0;
  }
  __device__ static void moments(const acc& a, double& mr, double& mi, double& m2) {
    const double inv = 1.0 / a.n;
    mr = a.shift_r + a.s1r * inv;
    mi = a.shift_i + a.s1i * inv;
    m2 = a.s2 - (a.s1r * a.s1r + a.s1i * a.s1i) * inv;
    m2 = m2 < 0 ? 0 : m2;
  }
  __device__ static acc merge(acc a, acc b) {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    double ar, ai, am2, br, bi, bm2;
    moments(a, ar, ai, am2);
    moments(b, br, bi, bm2);
    const double n = a.n + b.n;
    const double dr = br - ar, di = bi - ai;
    const double wb = b.n / n;
    return {n, ar + dr * wb, ai + di * wb, 0, 0, am2 + bm2 + (dr * dr + di * di) * (a.n * wb)};
  }
  __device__ static void store(char* p, dtype dt, const acc& a, const store_ctx& c) {
    double m2 = 0;
    if (a.n > 0) {
      double mr, mi;
      moments(a, mr, mi, m2);
    }
    double dof = a.n - c.ddof;
    double v;
    if constexpr (SkipNaN) {
      v = dof > 0 ? m2 / dof : cuda::std::numeric_limits<double>::quiet_NaN();
    } else {
      dof = dof > 0 ? dof : 0.0;
      v = m2 / dof;  // NumPy: M2 / max(n - ddof, 0): inf, or NaN for 0 / 0
    }
    if (c.flag) v = ::sqrt(v);
    store_as(p, dt, v);
  }
};

}  // namespace cusci::detail::red
