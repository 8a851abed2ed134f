// Strata: static and dynamic integers.
//
// A static integer `Int<N>` carries its value in its type, so layouts made of them cost nothing at
// run time and fold away in the compiler. Dynamic integers are plain `int` / `int64_t`.
// Arithmetic on two static integers stays static; mixing with a dynamic integer goes dynamic
// (through the implicit conversion of `Int<N>` to `int`), except where the result is known
// regardless of the dynamic operand (`_0 * x == _0`, `_1 * x == x`).
#pragma once

#include <cstdint>
#include <type_traits>

#include "config.hpp"

namespace strata {

template <int N>
struct Int {
  static constexpr int value = N;
  using value_type = int;
  STRATA_HOST_DEVICE constexpr operator int() const { return N; }
};

template <bool B>
using Bool = std::bool_constant<B>;

// Dynamic integers: the built-in integral types (bool excluded).
template <class T>
concept DynamicInt = std::is_integral_v<std::remove_cvref_t<T>> &&
                     !std::is_same_v<std::remove_cvref_t<T>, bool>;

template <class T>
struct is_static_int : std::false_type {};
template <int N>
struct is_static_int<Int<N>> : std::true_type {};
template <bool B>
struct is_static_int<std::bool_constant<B>> : std::true_type {};

template <class T>
concept StaticInt = is_static_int<std::remove_cvref_t<T>>::value;

// Integer: a leaf of a shape or stride.
template <class T>
concept Integer = DynamicInt<T> || StaticInt<T>;

// is_constant<N, T>: T is a static integer whose value is N.
template <auto N, class T>
struct is_constant : std::false_type {};
template <auto N, class T>
  requires StaticInt<T>
struct is_constant<N, T> : Bool<std::remove_cvref_t<T>::value == N> {};
template <auto N, class T>
inline constexpr bool is_constant_v = is_constant<N, std::remove_cvref_t<T>>::value;

using _m1 = Int<-1>;
using _0 = Int<0>;
using _1 = Int<1>;
using _2 = Int<2>;
using _3 = Int<3>;
using _4 = Int<4>;
using _5 = Int<5>;
using _6 = Int<6>;
using _7 = Int<7>;
using _8 = Int<8>;
using _9 = Int<9>;
using _10 = Int<10>;
using _12 = Int<12>;
using _16 = Int<16>;
using _24 = Int<24>;
using _32 = Int<32>;
using _48 = Int<48>;
using _64 = Int<64>;
using _96 = Int<96>;
using _128 = Int<128>;
using _192 = Int<192>;
using _256 = Int<256>;
using _512 = Int<512>;
using _1024 = Int<1024>;

// ---- static ∘ static: stays static -------------------------------------------------------------
template <int A, int B>
STRATA_HOST_DEVICE constexpr Int<A + B> operator+(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Int<A - B> operator-(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Int<A * B> operator*(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Int<A / B> operator/(Int<A>, Int<B>) {
  static_assert(B != 0, "division of static integers: the divisor must not be zero");
  return {};
}
template <int A, int B>
STRATA_HOST_DEVICE constexpr Int<A % B> operator%(Int<A>, Int<B>) {
  static_assert(B != 0, "remainder of static integers: the divisor must not be zero");
  return {};
}
template <int A>
STRATA_HOST_DEVICE constexpr Int<-A> operator-(Int<A>) { return {}; }

template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<A == B> operator==(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<A != B> operator!=(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<(A < B)> operator<(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<(A > B)> operator>(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<(A <= B)> operator<=(Int<A>, Int<B>) { return {}; }
template <int A, int B>
STRATA_HOST_DEVICE constexpr Bool<(A >= B)> operator>=(Int<A>, Int<B>) { return {}; }

// ---- results known whatever the dynamic operand is ---------------------------------------------
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr Int<0> operator*(Int<0>, T) { return {}; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr Int<0> operator*(T, Int<0>) { return {}; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr T operator*(Int<1>, T t) { return t; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr T operator*(T t, Int<1>) { return t; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr T operator/(T t, Int<1>) { return t; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr Int<0> operator%(T, Int<1>) { return {}; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr T operator+(Int<0>, T t) { return t; }
template <DynamicInt T>
STRATA_HOST_DEVICE constexpr T operator+(T t, Int<0>) { return t; }

// ---- helpers used throughout the algebra -------------------------------------------------------
template <Integer A, Integer B>
STRATA_HD auto min(A a, B b) {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    return Int<(A::value < B::value ? A::value : B::value)>{};
  } else {
    using R = std::common_type_t<decltype(a + 0), decltype(b + 0)>;
    return R(a) < R(b) ? R(a) : R(b);
  }
}

template <Integer A, Integer B>
STRATA_HD auto max(A a, B b) {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    return Int<(A::value > B::value ? A::value : B::value)>{};
  } else {
    using R = std::common_type_t<decltype(a + 0), decltype(b + 0)>;
    return R(a) > R(b) ? R(a) : R(b);
  }
}

// ceil_div(a, b) == smallest q with q * b >= a, for a >= 0, b > 0.
template <Integer A, Integer B>
STRATA_HD auto ceil_div(A a, B b) {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    return Int<(A::value + B::value - 1) / B::value>{};
  } else {
    return (a + b - 1) / b;
  }
}

template <Integer A, Integer B>
STRATA_HD auto gcd(A a, B b) {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    constexpr auto g = [] {
      int x = A::value < 0 ? -A::value : A::value, y = B::value < 0 ? -B::value : B::value;
      while (y != 0) { int t = x % y; x = y; y = t; }
      return x;
    }();
    return Int<g>{};
  } else {
    using R = std::common_type_t<decltype(a + 0), decltype(b + 0)>;
    R x = a < 0 ? -R(a) : R(a), y = b < 0 ? -R(b) : R(b);
    while (y != 0) { R t = x % y; x = y; y = t; }
    return x;
  }
}

// shape_div(a, b): a / b when b divides a, 1 when a divides b (then a "is used up" by b).
// Precondition: one divides the other. The algebra checks it with its own message for static input.
template <Integer A, Integer B>
STRATA_HD auto shape_div(A a, B b) {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    return Int<(A::value % B::value == 0 ? A::value / B::value
                                         : (B::value % A::value == 0 ? 1 : A::value / B::value))>{};
  } else if constexpr (is_constant_v<1, B>) {
    return a;
  } else {
    return a / b != 0 ? a / b : decltype(a / b)(1);
  }
}

// divides_either(a, b): the precondition of shape_div, for static operands (true for dynamic ones).
template <class A, class B>
STRATA_HD bool divides_either() {
  if constexpr (StaticInt<A> && StaticInt<B>) {
    return A::value != 0 && B::value != 0 && (A::value % B::value == 0 || B::value % A::value == 0);
  } else {
    return true;
  }
}

// A value of static integer type, usable where a function expects a value.
template <int N>
inline constexpr Int<N> int_c{};

}  // namespace strata
