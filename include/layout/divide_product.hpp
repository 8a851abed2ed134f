// Strata: divides (splitting a layout into tiles) and products (repeating a layout as tiles).
//
// A tiler is a layout, an integer n (the layout n:1), or a tuple of tilers applied mode by mode.
#pragma once

#include "complement.hpp"

namespace strata {

namespace detail {
// The tiler as a layout when it is an integer; unchanged otherwise.
template <class T>
STRATA_HD auto as_tiler(T const& t) {
  if constexpr (Integer<T>) {
    return make_layout(t, Int<1>{});
  } else {
    return t;
  }
}

// For a layout whose first K modes are (tile_i, rest_i) pairs: ((tile_0..tile_K-1), (rest_0..,
// remaining modes...)).
template <int K, class L>
STRATA_HD auto zip_tiles(L const& l) {
  constexpr int R = decltype(rank(l))::value;
  return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
    return make_layout(make_layout(layout<Is, 0>(l)...),
                       make_layout(layout<Is, 1>(l)..., layout<K + Js>(l)...));
  }(std::make_index_sequence<K>{}, std::make_index_sequence<R - K>{});
}

// (m0, m1) -> (m0, m1_0, m1_1, ...): spreads mode 1 of a rank-2 layout over the top level.
template <class L>
STRATA_HD auto spread_mode1(L const& l) {
  auto m1 = layout<1>(l);
  if constexpr (Tuple<decltype(m1.shape())>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(layout<0>(l), layout<Is>(m1)...);
    }(std::make_index_sequence<rank_v<decltype(m1.shape())>>{});
  } else {
    return l;
  }
}

// (m0, rest...) -> (m0_0, m0_1, ..., rest...): spreads mode 0 over the top level.
template <class L>
STRATA_HD auto spread_mode0(L const& l) {
  constexpr int R = decltype(rank(l))::value;
  auto m0 = layout<0>(l);
  if constexpr (Tuple<decltype(m0.shape())>) {
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(layout<Is>(m0)..., layout<1 + Js>(l)...);
    }(std::make_index_sequence<rank_v<decltype(m0.shape())>>{}, std::make_index_sequence<R - 1>{});
  } else {
    return l;
  }
}
}  // namespace detail

// logical_divide(a, tiler) == composition(a, make_layout(tiler, complement(tiler, size(a)))) for a
// layout tiler: mode 0 of the result enumerates one tile, mode 1 the tiles. For a tuple tiler, mode i
// of a is divided by tiler_i (a `_` leaves the mode whole) and later modes are unchanged.
template <class S, class D, class T>
STRATA_HD auto logical_divide(Layout<S, D> const& a, T const& tiler) {
  if constexpr (Tuple<T>) {
    constexpr int R = rank_v<S>;
    constexpr int K = rank_v<T>;
    static_assert(K <= R, "logical_divide: a tiler must not have more modes than the layout");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(logical_divide(layout<Is>(a), get<Is>(tiler))..., layout<K + Js>(a)...);
    }(std::make_index_sequence<K>{}, std::make_index_sequence<R - K>{});
  } else if constexpr (std::is_same_v<T, Underscore>) {
    return a;
  } else {
    auto t = detail::as_tiler(tiler);
    return composition(a, make_layout(t, complement(t, size(a))));
  }
}

// zipped_divide(a, tiler): ((tile modes), (rest modes)): the same function as logical_divide with the
// tile modes of every divided mode gathered in mode 0 and everything else in mode 1.
template <class S, class D, class T>
STRATA_HD auto zipped_divide(Layout<S, D> const& a, T const& tiler) {
  if constexpr (Tuple<T>) {
    return detail::zip_tiles<rank_v<T>>(logical_divide(a, tiler));
  } else {
    return logical_divide(a, tiler);
  }
}

// tiled_divide(a, tiler): ((tile modes), rest_0, rest_1, ...).
template <class S, class D, class T>
STRATA_HD auto tiled_divide(Layout<S, D> const& a, T const& tiler) {
  return detail::spread_mode1(zipped_divide(a, tiler));
}

// flat_divide(a, tiler): (tile_0, tile_1, ..., rest_0, rest_1, ...).
template <class S, class D, class T>
STRATA_HD auto flat_divide(Layout<S, D> const& a, T const& tiler) {
  return detail::spread_mode0(tiled_divide(a, tiler));
}

// logical_product(a, b) == make_layout(a, composition(complement(a, size(a) * cosize(b)), b)) for a
// layout b: mode 0 is a, mode 1 places copies of a as b says. For a tuple b, mode by mode.
template <class S, class D, class B>
STRATA_HD auto logical_product(Layout<S, D> const& a, B const& b) {
  if constexpr (Tuple<B>) {
    constexpr int R = rank_v<S>;
    constexpr int K = rank_v<B>;
    static_assert(K <= R, "logical_product: a tuple tiler must not have more modes than the layout");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(logical_product(layout<Is>(a), get<Is>(b))..., layout<K + Js>(a)...);
    }(std::make_index_sequence<K>{}, std::make_index_sequence<R - K>{});
  } else if constexpr (std::is_same_v<B, Underscore>) {
    return a;
  } else {
    auto t = detail::as_tiler(b);
    return make_layout(a, composition(complement(a, size(a) * cosize(t)), t));
  }
}

// zipped_product(a, b): ((a modes), (product modes)).
template <class S, class D, class B>
STRATA_HD auto zipped_product(Layout<S, D> const& a, B const& b) {
  if constexpr (Tuple<B>) {
    return detail::zip_tiles<rank_v<B>>(logical_product(a, b));
  } else {
    return logical_product(a, b);
  }
}

// tiled_product(a, b): ((a modes), product_0, product_1, ...).
template <class S, class D, class B>
STRATA_HD auto tiled_product(Layout<S, D> const& a, B const& b) {
  return detail::spread_mode1(zipped_product(a, b));
}

// flat_product(a, b): (a_0, a_1, ..., product_0, product_1, ...).
template <class S, class D, class B>
STRATA_HD auto flat_product(Layout<S, D> const& a, B const& b) {
  return detail::spread_mode0(tiled_product(a, b));
}

// blocked_product(a, b): rank max(rank a, rank b); mode i is (a_i, b_i'): the tile a is repeated
// over the grid b, each tile contiguous ("blocked"). result(x, y) with x in tile, y in grid.
template <class SA, class DA, class SB, class DB>
STRATA_HD auto blocked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  constexpr int R = rank_v<SA> > rank_v<SB> ? rank_v<SA> : rank_v<SB>;
  auto p = logical_product(append<R>(a), append<R>(b));
  return coalesce(zip_layouts(layout<0>(p), layout<1>(p)), repeat<R>(Int<1>{}));
}

// raked_product(a, b): like blocked_product with the two levels swapped in each mode: mode i is
// (b_i', a_i), so the elements of one tile are spread ("raked") across the grid.
template <class SA, class DA, class SB, class DB>
STRATA_HD auto raked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  constexpr int R = rank_v<SA> > rank_v<SB> ? rank_v<SA> : rank_v<SB>;
  auto p = logical_product(append<R>(a), append<R>(b));
  return coalesce(zip_layouts(layout<1>(p), layout<0>(p)), repeat<R>(Int<1>{}));
}

// tile_to_shape(block, shape): block repeated column-major (blocked_product) until it covers shape,
// each top-level mode coalesced. Each mode of shape must be a multiple of the block's mode.
template <class S, class D, class TS>
STRATA_HD auto tile_to_shape(Layout<S, D> const& block, TS const& target) {
  constexpr int R = rank_v<TS>;
  static_assert(rank_v<S> <= R, "tile_to_shape: the block must not have more modes than the shape");
  auto padded = append<R>(block);
  auto reps = transform(wrap(target), wrap(padded.shape()), [](auto const& t, auto const& s) {
    auto pt = product(t);
    auto ps = product(s);
    if constexpr (StaticInt<decltype(pt)> && StaticInt<decltype(ps)>) {
      static_assert(decltype(pt)::value % decltype(ps)::value == 0,
                    "tile_to_shape: each mode of the shape must be a multiple of the block's mode");
    }
    return ceil_div(pt, ps);
  });
  return coalesce(blocked_product(padded, make_layout(reps)), reps);
}

}  // namespace strata
