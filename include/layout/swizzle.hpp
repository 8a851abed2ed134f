// Strata: Swizzle<B, M, S> — the XOR bit permutation that spreads a tile's rows over shared-memory
// banks — and swizzled layouts, a swizzle composed with a layout (composed_layout.hpp).
//
// A swizzle keeps the low M bits of an index (the elements of one vector stay together), reads B
// bits starting at bit M + max(0, S) (the "row") and XORs them into the B bits starting at bit
// M - min(0, S) (the "column chunk"). Rows of one tile that would hit the same banks then hit
// different ones. With M = 3 on half-precision element offsets (16-byte chunks), B = 3 (eight
// chunks of a 128-byte row) and S = 3 (rows of 64 halves), Swizzle<3,3,3> is the 128-byte swizzle
// of Hopper's TMA and wgmma; on byte offsets the same pattern is Swizzle<3,4,3>.
#pragma once

#include <array>
#include <bit>

#include "composed_layout.hpp"

namespace strata {

template <int BBits, int MBase, int SShift>
struct Swizzle {
  static constexpr int num_bits = BBits;
  static constexpr int num_base = MBase;
  static constexpr int num_shft = SShift;

  static_assert(BBits >= 0, "Swizzle: B, the number of bits swizzled, must not be negative");
  static_assert(MBase >= 0, "Swizzle: M, the number of low bits kept, must not be negative");
  static_assert((SShift < 0 ? -SShift : SShift) >= BBits,
                "Swizzle: |S| must be at least B, so the bits read and the bits flipped do not overlap");
  static_assert(MBase + BBits + (SShift < 0 ? -SShift : SShift) <= 30,
                "Swizzle: the bits it touches must lie within the low 30 bits of an index");

  static constexpr int bit_mask = (1 << BBits) - 1;
  // The bits read, and the bits they are XORed into.
  static constexpr int yyy_mask = bit_mask << (MBase + (SShift > 0 ? SShift : 0));
  static constexpr int zzz_mask = bit_mask << (MBase - (SShift < 0 ? SShift : 0));
  static constexpr int swizzle_code = yyy_mask | zzz_mask;
  // The swizzle permutes each aligned block of 2^period_bits indices and leaves higher bits alone.
  static constexpr int period_bits = MBase + BBits + (SShift < 0 ? -SShift : SShift);

  // apply(x) == x ^ ((x & yyy_mask) >> S), shifting left by -S for a negative S.
  template <DynamicInt T>
  STRATA_HOST_DEVICE static constexpr T apply(T x) {
    if constexpr (SShift >= 0) {
      return T(x ^ ((x & T(yyy_mask)) >> SShift));
    } else {
      return T(x ^ ((x & T(yyy_mask)) << -SShift));
    }
  }

  // sw(x): the swizzled index; a static integer for a static x, the same integer type otherwise.
  template <Integer T>
  STRATA_HD auto operator()(T const& x) const {
    if constexpr (StaticInt<T>) {
      return Int<apply(int(std::remove_cvref_t<T>::value))>{};
    } else {
      return apply(x);
    }
  }
};

template <class T>
struct is_swizzle : std::false_type {};
template <int B, int M, int S>
struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T>
inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;

template <int B0, int M0, int S0, int B1, int M1, int S1>
STRATA_HD bool operator==(Swizzle<B0, M0, S0>, Swizzle<B1, M1, S1>) {
  return B0 == B1 && M0 == M1 && S0 == S1;
}

// size(sw) == cosize(sw) == 2^period_bits: sw is a bijection of [0, size(sw)) onto itself.
template <int B, int M, int S>
STRATA_HD auto size(Swizzle<B, M, S> const&) {
  return Int<(1 << Swizzle<B, M, S>::period_bits)>{};
}
template <int B, int M, int S>
STRATA_HD auto cosize(Swizzle<B, M, S> const& sw) {
  return size(sw);
}

// right_inverse(sw)(sw(x)) == x == sw(right_inverse(sw)(x)): a swizzle undoes itself (the bits it
// reads are not the bits it flips, so flipping twice restores them).
template <int B, int M, int S>
STRATA_HD auto right_inverse(Swizzle<B, M, S> const& sw) {
  return sw;
}
// left_inverse(sw)(sw(x)) == x.
template <int B, int M, int S>
STRATA_HD auto left_inverse(Swizzle<B, M, S> const& sw) {
  return sw;
}

// translation_period(sw): sw(x + k * 2^period_bits) == sw(x) + k * 2^period_bits for x >= 0.
template <int B, int M, int S>
STRATA_HD auto translation_period(Swizzle<B, M, S> const& sw) {
  return size(sw);
}

// image_bound(sw, n): 0 <= sw(x) < result for every 0 <= x < n. It is n when no index below n has a
// bit that sw reads (sw leaves them all in place), else n rounded up to whole periods (sw permutes
// each aligned period).
template <int B, int M, int S, class N>
STRATA_HD auto image_bound(Swizzle<B, M, S> const&, N const& n) {
  constexpr int untouched = 1 << (M + (S > 0 ? S : 0));
  constexpr int period = 1 << Swizzle<B, M, S>::period_bits;
  if constexpr (StaticInt<N>) {
    constexpr int v = N::value;
    return Int<(v <= untouched || B == 0 ? v : (v + period - 1) / period * period)>{};
  } else {
    return (n <= untouched || B == 0) ? n : N((n + period - 1) / period * period);
  }
}

// upcast<N>(sw)(x) == sw(N * x) / N for every x: the swizzle in units N times larger (N a power of
// two). M drops by log2 N; bits below the new unit are dropped with the bits that pair with them.
template <int N, int B, int M, int S>
STRATA_HD auto upcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "upcast: a swizzle can be re-expressed only for a power-of-two N");
  constexpr int log2_n = std::bit_width(unsigned(N)) - 1;
  if constexpr (M >= log2_n) {
    return Swizzle<B, M - log2_n, S>{};
  } else {
    return Swizzle<(B + M - log2_n > 0 ? B + M - log2_n : 0), 0, S>{};
  }
}

// downcast<N>(sw)(N * x) == N * sw(x) for every x: the swizzle in units N times smaller; M grows by
// log2 N.
template <int N, int B, int M, int S>
STRATA_HD auto downcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "downcast: a swizzle can be re-expressed only for a power-of-two N");
  return Swizzle<B, M + std::bit_width(unsigned(N)) - 1, S>{};
}

// ---- swizzled layouts ---------------------------------------------------------------------------

// composition(sw, o, l)(c) == sw(o + l(c)); an identity swizzle at offset 0 gives l itself.
template <int M, int S, class LS, class LD>
STRATA_HD auto composition(Swizzle<0, M, S> const&, Int<0>, Layout<LS, LD> const& l) {
  return l;
}

// composition(sw, l)(c) == sw(l(c)) for every c in l's domain: a composed layout sw o _0 o l (l
// itself for an identity swizzle).
template <int B, int M, int S, class LS, class LD>
STRATA_HD auto composition(Swizzle<B, M, S> const& sw, Layout<LS, LD> const& l) {
  return composition(sw, Int<0>{}, l);
}

namespace detail {
enum class SwizzleThrough { ok, dynamic_layout, not_bit_moving, leaves_domain, not_a_swizzle };
struct MovedSwizzle {
  SwizzleThrough status;
  int bits, base, shift;
};

constexpr int exact_log2(long long v) {
  int k = 0;
  while ((1LL << k) < v) ++k;
  return k;
}

// The swizzle sw' with a(sw(i)) == sw'(a(i)) for every i < size(a), for a static layout a that moves
// bits: its shapes are powers of two, so a(i) is the sum over the set bits j of i of a(2^j), and each
// a(2^j) is its own power of two or 0, so that sum is an XOR and a commutes with XOR. sw' then reads
// the bits a sends sw's read bits to and flips the bits a sends sw's flipped bits to.
template <class L, int B, int M, int S>
constexpr MovedSwizzle move_swizzle_through() {
  if constexpr (!is_static_v<L>) {
    return {SwizzleThrough::dynamic_layout, 0, 0, 0};
  } else {
    constexpr auto shapes = to_array<long long>(L{}.shape());
    long long n = 1;
    for (long long s : shapes) {
      if (s <= 0 || (s & (s - 1)) != 0) return {SwizzleThrough::not_bit_moving, 0, 0, 0};
      n *= s;
    }
    int const domain_bits = exact_log2(n);
    std::array<long long, 64> image{};
    for (int j = 0; j < domain_bits; ++j) {
      image[j] = (long long)(L{}(1LL << j));
      if (image[j] < 0 || (image[j] & (image[j] - 1)) != 0) return {SwizzleThrough::not_bit_moving, 0, 0, 0};
      for (int i = 0; i < j; ++i) {
        if (image[i] != 0 && image[i] == image[j]) return {SwizzleThrough::not_bit_moving, 0, 0, 0};
      }
    }
    int count = 0, y0 = 0, z0 = 0;
    for (int b = 0; b < B; ++b) {
      int const y = M + (S > 0 ? S : 0) + b;
      int const z = y - S;
      if (y >= domain_bits) break;  // never set inside the domain
      if (z >= domain_bits) return {SwizzleThrough::leaves_domain, 0, 0, 0};
      if (image[z] == 0) continue;  // the flip lands on a bit a ignores
      if (image[y] == 0) return {SwizzleThrough::not_a_swizzle, 0, 0, 0};
      int const ay = exact_log2(image[y]), az = exact_log2(image[z]);
      if (count == 0) {
        y0 = ay;
        z0 = az;
      } else if (ay != y0 + count || az != z0 + count) {
        return {SwizzleThrough::not_a_swizzle, 0, 0, 0};
      }
      ++count;
    }
    if (count == 0) return {SwizzleThrough::ok, 0, 0, 0};
    return {SwizzleThrough::ok, count, y0 < z0 ? y0 : z0, y0 - z0};
  }
}
}  // namespace detail

// composition(a, sw)(i) == a(sw(i)) for every i < size(a): the swizzle moved to a's side, as
// sw' o _0 o a (a itself when nothing is left to swizzle). Precondition: a is static and moves bits
// (power-of-two shapes, each bit of its domain sent to a bit of its own or dropped), sw maps a's
// domain into itself, and a sends sw's read bits and flipped bits to runs of consecutive bits.
template <class SA, class DA, int B, int M, int S>
STRATA_HD auto composition(Layout<SA, DA> const& a, Swizzle<B, M, S> const&) {
  using detail::SwizzleThrough;
  constexpr auto moved = detail::move_swizzle_through<Layout<SA, DA>, B, M, S>();
  static_assert(moved.status != SwizzleThrough::dynamic_layout,
                "composition(layout, swizzle): the layout must be static to move a swizzle through it");
  static_assert(moved.status != SwizzleThrough::not_bit_moving,
                "composition(layout, swizzle): the layout must move bits: power-of-two shapes, each bit of "
                "its domain sent to a bit of its own or dropped");
  static_assert(moved.status != SwizzleThrough::leaves_domain,
                "composition(layout, swizzle): the swizzle must map the layout's domain into itself");
  static_assert(moved.status != SwizzleThrough::not_a_swizzle,
                "composition(layout, swizzle): the layout must send the swizzle's read bits and flipped "
                "bits to two runs of consecutive bits");
  if constexpr (moved.bits == 0) {
    return a;
  } else {
    return make_composed_layout(Swizzle<moved.bits, moved.base, moved.shift>{}, Int<0>{}, a);
  }
}

// `Sw<B,M,S>`
template <int B, int M, int S>
std::ostream& operator<<(std::ostream& os, Swizzle<B, M, S> const&) {
  return os << "Sw<" << B << ',' << M << ',' << S << '>';
}

}  // namespace strata
