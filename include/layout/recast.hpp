// Strata: common vectors of two layouts and re-typing layouts (upcast, downcast, recast_layout).
#pragma once

#include <climits>

#include "complement.hpp"

namespace strata {

// max_common_layout(a, b): the largest layout c such that a(c(i)) == b(c(i)) == i for every i: the
// coordinates that both a and b map to one contiguous run of indices, in the same order. A run
// found only from dynamic strides is not trusted and gives 1:0.
template <class SA, class DA, class SB, class DB>
STRATA_HD auto max_common_layout(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  auto inv_b = right_inverse(b);
  auto common = coalesce(composition(a, inv_b));
  auto s0 = get<0>(wrap(common.shape()));
  auto d0 = get<0>(wrap(common.stride()));
  if constexpr (StaticInt<decltype(s0)> && is_constant_v<1, decltype(d0)>) {
    return composition(inv_b, make_layout(s0, d0));
  } else {
    return Layout<Int<1>, Int<0>>{};
  }
}

// max_common_vector(a, b) == size(max_common_layout(a, b)), as a static integer: how many elements
// can move together as one vector between a tensor laid out by a and one laid out by b.
template <class SA, class DA, class SB, class DB>
STRATA_HD auto max_common_vector(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return size(max_common_layout(a, b));
}

namespace detail {
template <int N, class S, class D>
STRATA_HD auto upcast_mode(S const& s, D const& d) {
  if constexpr (Tuple<S>) {
    auto r = transform(s, d, [](auto const& x, auto const& y) { return upcast_mode<N>(x, y); });
    return make_tuple(transform(r, [](auto const& m) { return get<0>(m); }),
                      transform(r, [](auto const& m) { return get<1>(m); }));
  } else if constexpr (is_constant_v<0, D>) {
    return make_tuple(s, d);
  } else if constexpr (StaticInt<D>) {
    static_assert(divides_either<Int<N>, D>(), "upcast: each static stride must divide or be a multiple of N");
    return make_tuple(shape_div(s, shape_div(Int<N>{}, d)), shape_div(d, Int<N>{}));
  } else {
    // The static rule at run time: a unit stride shrinks its mode, a multiple of N is divided.
    if (d == 0) return make_tuple(decltype(shape_div(s, shape_div(N, d)))(s), decltype(shape_div(d, N))(d));
    return make_tuple(shape_div(s, shape_div(N, d)), shape_div(d, N));
  }
}
template <int N, class S, class D>
STRATA_HD auto downcast_mode(S const& s, D const& d) {
  if constexpr (Tuple<S>) {
    auto r = transform(s, d, [](auto const& x, auto const& y) { return downcast_mode<N>(x, y); });
    return make_tuple(transform(r, [](auto const& m) { return get<0>(m); }),
                      transform(r, [](auto const& m) { return get<1>(m); }));
  } else if constexpr (is_constant_v<1, D>) {
    return make_tuple(s * Int<N>{}, d);
  } else {
    return make_tuple(s, d * Int<N>{});  // the N sub-elements live in the unit-stride mode
  }
}
}  // namespace detail

// upcast<N>(l): the layout of l in units N times larger (N old elements make one new element); the
// unit-stride mode shrinks by N, other strides are divided by N.
template <int N, class S, class D>
STRATA_HD auto upcast(Layout<S, D> const& l) {
  auto r = detail::upcast_mode<N>(l.shape(), l.stride());
  return make_layout(get<0>(r), get<1>(r));
}

// downcast<N>(l): the layout of l in units N times smaller; the unit-stride mode grows by N, every
// other stride is multiplied by N (CuTe). A layout without a unit-stride mode loses the sub-elements.
template <int N, class S, class D>
STRATA_HD auto downcast(Layout<S, D> const& l) {
  auto r = detail::downcast_mode<N>(l.shape(), l.stride());
  return make_layout(get<0>(r), get<1>(r));
}

// Size in bits of an element type (sub-byte types may specialise it).
template <class T>
inline constexpr int sizeof_bits_v = int(sizeof(T) * CHAR_BIT);

// recast_layout<Old, New>(l): l, indexing Old elements, re-expressed to index New elements. Any
// layout with upcast/downcast works: a plain one, or a composed (swizzled) one.
template <class Old, class New, class L>
STRATA_HD auto recast_layout(L const& l) {
  constexpr int old_bits = sizeof_bits_v<Old>;
  constexpr int new_bits = sizeof_bits_v<New>;
  if constexpr (old_bits == new_bits) {
    return l;
  } else if constexpr (new_bits > old_bits) {
    static_assert(new_bits % old_bits == 0, "recast_layout: the new element size must be a multiple of the old one");
    return upcast<new_bits / old_bits>(l);
  } else {
    static_assert(old_bits % new_bits == 0, "recast_layout: the old element size must be a multiple of the new one");
    return downcast<old_bits / new_bits>(l);
  }
}

}  // namespace strata
