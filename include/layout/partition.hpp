// Strata: partitioning — who works on which part of a tensor.
//
// Both partitions start from zipped_divide(t, tiler) == ((tile modes), (rest modes)), a view in
// which mode 0 walks inside one tile and mode 1 walks from tile to tile. They differ in which mode
// the coordinate picks:
//
//   inner_partition(t, tiler, c)  keeps a tile, picks tile c     → one CTA's block of a matrix
//   outer_partition(t, tiler, c)  picks position c in every tile → one thread's strided share
//
//   local_tile(t, tiler, c)             == inner_partition(t, tiler, c)
//   local_tile(t, tiler, c, proj)       the same with the tiler and c projected by a Step, e.g.
//                                       Step<_1, X, _1> takes (M, K) out of an (M, N, K) tiler
//   local_partition(t, thr, i)          thread i's share under the thread layout thr: every
//                                       shape(thr)-sized block of t gives thread i one element
//   local_partition(t, thr, i, proj)    the same with the thread layout projected
#pragma once

#include "tensor_base.hpp"

namespace strata {

// X marks a mode to drop in a projection Step: Step<_1, X, _1>. It is `_`'s type, as in CuTe, so a
// projection is a dice: the modes where the step is not X are kept.
using X = Underscore;

namespace detail {
// `_` for every top-level mode of a mode of shape S: `_` for an integer, (_, _, ...) for a tuple,
// so slicing keeps each of those modes as a mode of the result.
template <class S>
STRATA_HD auto all_modes(S const&) {
  if constexpr (Tuple<S>) {
    return repeat<rank_v<S>>(_);
  } else {
    return _;
  }
}

// The coordinate c for a mode of shape S, with `_` for each mode of S that c does not name. An
// integer c is a 1-D index into the whole mode.
template <class S, class C>
STRATA_HD auto pad_with_all(S const&, C const& c) {
  if constexpr (!Tuple<C>) {
    return c;
  } else if constexpr (!Tuple<S>) {
    static_assert(rank_v<C> == 1, "partition: a coordinate names more modes than the tiles have");
    return get<0>(c);
  } else {
    static_assert(rank_v<C> <= rank_v<S>, "partition: a coordinate names more modes than the tiles have");
    return tuple_cat(c, repeat<rank_v<S> - rank_v<C>>(_));
  }
}

// The coordinate of index idx under layout (shape, stride) when the layout is compact in some
// order (a thread layout): mode by mode, (idx / stride) % shape.
template <class I, class S, class D>
STRATA_HD auto compact_idx2crd(I const& idx, S const& shape, D const& stride) {
  if constexpr (Tuple<S>) {
    return transform(shape, stride, [&](auto const& s, auto const& d) { return compact_idx2crd(idx, s, d); });
  } else if constexpr (is_constant_v<0, D>) {
    return Int<0>{};
  } else {
    return (idx / stride) % shape;
  }
}
}  // namespace detail

// product_each(shape): the size of each top-level mode (an integer stays an integer).
template <class S>
STRATA_HD auto product_each(S const& shape) {
  if constexpr (Tuple<S>) {
    return transform(shape, [](auto const& s) { return product(s); });
  } else {
    return shape;
  }
}

// flat_coord(l, idx): the top-level coordinate (one integer per mode) c with l(c) == idx, for a
// layout that is compact in some order, such as a thread layout. CuTe: l.get_flat_coord(idx).
template <class S, class D, class I>
STRATA_HD auto flat_coord(Layout<S, D> const& l, I const& idx) {
  auto hier = detail::compact_idx2crd(idx, l.shape(), l.stride());
  if constexpr (Tuple<S>) {
    return transform(hier, l.shape(), [](auto const& c, auto const& s) { return crd2idx(c, s); });
  } else {
    return hier;
  }
}

// inner_partition(t, tiler, c) == zipped_divide(t, tiler)(_..., c): tile c, whole; tile modes first,
// then any rest modes c leaves as `_`.
template <AnyTensor Tn, class Tiler, class Coord>
STRATA_HD auto inner_partition(Tn&& t, Tiler const& tiler, Coord const& coord) {
  auto tiled = zipped_divide(static_cast<Tn&&>(t), tiler);
  auto s = tiled.shape();
  return tiled(detail::all_modes(get<0>(s)), detail::pad_with_all(get<1>(s), coord));
}

// outer_partition(t, tiler, c) == zipped_divide(t, tiler)(c, _...): element c of every tile.
template <AnyTensor Tn, class Tiler, class Coord>
STRATA_HD auto outer_partition(Tn&& t, Tiler const& tiler, Coord const& coord) {
  auto tiled = zipped_divide(static_cast<Tn&&>(t), tiler);
  auto s = tiled.shape();
  return tiled(detail::pad_with_all(get<0>(s), coord), detail::all_modes(get<1>(s)));
}

// local_tile(t, tiler, c): the c-th tiler-shaped tile of t (tiles past the edge of t hang over it:
// guard them with an identity tensor). Modes of c given as `_` stay as modes of the result, e.g.
// local_tile(A, (BM, BK), (m, _)) is (BM, BK, number of k-tiles).
template <AnyTensor Tn, class Tiler, class Coord>
STRATA_HD auto local_tile(Tn&& t, Tiler const& tiler, Coord const& coord) {
  return inner_partition(static_cast<Tn&&>(t), tiler, coord);
}
// local_tile(t, tiler, c, proj): the modes of tiler and c where proj is X are dropped first.
template <AnyTensor Tn, class Tiler, class Coord, class Proj>
STRATA_HD auto local_tile(Tn&& t, Tiler const& tiler, Coord const& coord, Proj const& proj) {
  static_assert(Tuple<Proj> && Tuple<Tiler> && Tuple<Coord> && rank_v<Proj> == rank_v<Tiler> &&
                    rank_v<Proj> == rank_v<Coord>,
                "local_tile: the projection, the tiler and the coordinate must have the same rank");
  return local_tile(static_cast<Tn&&>(t), dice(proj, tiler), dice(proj, coord));
}

// local_partition(t, thr, i): thread i's elements of t under the thread layout thr; for the thread
// at coordinate (a, b) of thr, the elements (a + j * shape<0>(thr), b + k * shape<1>(thr)).
template <AnyTensor Tn, class S, class D, Integer I>
STRATA_HD auto local_partition(Tn&& t, Layout<S, D> const& thr, I const& idx) {
  return outer_partition(static_cast<Tn&&>(t), product_each(thr.shape()), flat_coord(thr, idx));
}
// local_partition(t, thr, i, proj): the modes of thr where proj is X are dropped first, e.g.
// Step<_1, X> partitions an (M, K) tile by the M mode of an (M, N) thread layout.
template <AnyTensor Tn, class S, class D, Integer I, class Proj>
STRATA_HD auto local_partition(Tn&& t, Layout<S, D> const& thr, I const& idx, Proj const& proj) {
  static_assert(Tuple<Proj> && rank_v<Proj> == rank_v<S>,
                "local_partition: the projection must have the rank of the thread layout");
  auto diced = make_layout(dice(proj, thr.shape()), dice(proj, thr.stride()));
  return local_partition(static_cast<Tn&&>(t), diced, idx);
}

}  // namespace strata
