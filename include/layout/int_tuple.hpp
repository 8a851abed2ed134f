// Strata: hierarchical integer tuples (shapes, strides, coordinates) and the arithmetic on them.
#pragma once

#include <type_traits>

#include "tuple.hpp"

namespace strata {

// An IntTuple is an integer or a tuple of IntTuples.
template <class T>
struct is_int_tuple : Bool<Integer<T>> {};
template <class... Ts>
struct is_int_tuple<tuple<Ts...>> : Bool<(is_int_tuple<Ts>::value && ...)> {};
template <class T>
concept IntTuple = is_int_tuple<std::remove_cvref_t<T>>::value;

// is_static_v<T>: T is empty, i.e. fully known at compile time (static integers, tuples of them,
// all-static layouts).
template <class T>
inline constexpr bool is_static_v = std::is_empty_v<std::remove_cvref_t<T>>;

template <class... Ts>
using Shape = tuple<Ts...>;
template <class... Ts>
using Stride = tuple<Ts...>;
template <class... Ts>
using Coord = tuple<Ts...>;
template <class... Ts>
using Step = tuple<Ts...>;
template <class... Ts>
using Tile = tuple<Ts...>;

template <class... Ts>
STRATA_HD auto make_shape(Ts const&... ts) { return make_tuple(ts...); }
template <class... Ts>
STRATA_HD auto make_stride(Ts const&... ts) { return make_tuple(ts...); }
template <class... Ts>
STRATA_HD auto make_coord(Ts const&... ts) { return make_tuple(ts...); }
template <class... Ts>
STRATA_HD auto make_step(Ts const&... ts) { return make_tuple(ts...); }
template <class... Ts>
STRATA_HD auto make_tile(Ts const&... ts) { return make_tuple(ts...); }

// ---- Underscore: "all of this mode" in a coordinate --------------------------------------------
struct Underscore {};
// Device code may not refer to a namespace-scope constexpr object of class type, only to a
// __device__ variable, so the device pass of nvcc sees `_` as one (CuTe does the same).
#if defined(__CUDA_ARCH__)
static const __device__ Underscore _{};
#else
inline constexpr Underscore _{};
#endif

template <class T>
struct has_underscore : Bool<std::is_same_v<T, Underscore>> {};
template <class... Ts>
struct has_underscore<tuple<Ts...>> : Bool<(has_underscore<Ts>::value || ...)> {};
template <class T>
inline constexpr bool has_underscore_v = has_underscore<std::remove_cvref_t<T>>::value;

// ---- reductions --------------------------------------------------------------------------------

// product(t) == the product of all leaves of t (1 for an empty tuple).
template <class T>
STRATA_HD auto product(T const& t) {
  if constexpr (Tuple<T>) {
    return fold(t, Int<1>{}, [](auto const& acc, auto const& x) { return acc * product(x); });
  } else {
    return t;
  }
}

// sum(t) == the sum of all leaves of t.
template <class T>
STRATA_HD auto sum(T const& t) {
  if constexpr (Tuple<T>) {
    return fold(t, Int<0>{}, [](auto const& acc, auto const& x) { return acc + sum(x); });
  } else {
    return t;
  }
}

// inner_product(a, b) == sum over leaves of a[i] * b[i]; a and b congruent.
template <class A, class B>
STRATA_HD auto inner_product(A const& a, B const& b) {
  if constexpr (Tuple<A> && Tuple<B>) {
    static_assert(rank_v<A> == rank_v<B>, "inner_product: the tuples must be congruent");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (Int<0>{} + ... + inner_product(get<Is>(a), get<Is>(b)));
    }(std::make_index_sequence<rank_v<A>>{});
  } else {
    static_assert(!Tuple<A> && !Tuple<B>, "inner_product: the tuples must be congruent");
    return a * b;
  }
}

// depth(t): 0 for an integer, 1 + the largest depth of the elements for a tuple.
template <class T>
STRATA_HD auto depth(T const& t) {
  if constexpr (Tuple<T>) {
    return fold(t, Int<1>{}, [](auto const& acc, auto const& x) { return max(acc, Int<1>{} + depth(x)); });
  } else {
    return Int<0>{};
  }
}

// flatten(t): the leaves of t, in order, as a tuple of depth <= 1 (an integer stays an integer).
template <class T>
STRATA_HD auto flatten_to_tuple(T const& t) {
  if constexpr (Tuple<T>) {
    return apply(t, [](auto const&... xs) { return tuple_cat(make_tuple(), flatten_to_tuple(xs)...); });
  } else {
    return make_tuple(t);
  }
}
template <class T>
STRATA_HD auto flatten(T const& t) {
  if constexpr (Tuple<T>) {
    return flatten_to_tuple(t);
  } else {
    return t;
  }
}

// congruent<A, B>: A and B have the same hierarchical structure.
template <class A, class B>
struct is_congruent : Bool<!Tuple<A> && !Tuple<B>> {};
template <class... As, class... Bs>
struct is_congruent<tuple<As...>, tuple<Bs...>> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(As) != sizeof...(Bs)) {
      return false;
    } else {
      return (is_congruent<As, Bs>::value && ...);
    }
  }();
};
template <class A, class B>
inline constexpr bool congruent_v = is_congruent<std::remove_cvref_t<A>, std::remove_cvref_t<B>>::value;

// ---- element-wise arithmetic on IntTuples ------------------------------------------------------

// shape_div(a, b) for tuples: a tuple a is divided mode by mode, each mode consuming what it can
// of b; a tuple b divides a mode-by-mode.
template <class A, class B>
  requires(Tuple<A> || Tuple<B>)
STRATA_HD auto shape_div(A const& a, B const& b) {
  if constexpr (Tuple<A> && Tuple<B>) {
    return transform(a, b, [](auto const& x, auto const& y) { return shape_div(x, y); });
  } else if constexpr (Tuple<A>) {
    auto r = fold(a, make_tuple(make_tuple(), b), [](auto const& acc, auto const& ai) {
      auto rest = get<1>(acc);
      return make_tuple(tuple_cat(get<0>(acc), make_tuple(shape_div(ai, rest))),
                        shape_div(rest, product(ai)));
    });
    return get<0>(r);
  } else {
    return shape_div(a, product(b));
  }
}

// ceil_div(a, b) mode by mode for tuples (b a tuple of the same top-level rank, or an integer that
// is consumed from the first mode on).
template <class A, class B>
  requires(Tuple<A> || Tuple<B>)
STRATA_HD auto ceil_div(A const& a, B const& b) {
  if constexpr (Tuple<A> && Tuple<B>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(ceil_div(get<Is>(a), [&] {
        if constexpr (Is < rank_v<B>) { return get<Is>(b); } else { return Int<1>{}; }
      }())...);
    }(std::make_index_sequence<rank_v<A>>{});
  } else if constexpr (Tuple<A>) {
    return ceil_div(a, make_tuple(b));
  } else {
    return ceil_div(a, product(b));
  }
}

// elem_scale(a, b)[i] == a[i] * product(b[i])
template <class A, class B>
STRATA_HD auto elem_scale(A const& a, B const& b) {
  if constexpr (Tuple<A>) {
    return transform(a, b, [](auto const& x, auto const& y) { return elem_scale(x, y); });
  } else {
    return a * product(b);
  }
}

// ---- compact strides ---------------------------------------------------------------------------

// compact_col_major(shape, start): the strides of the column-major (first mode fastest, "LayoutLeft")
// layout of shape, starting at `start`; exclusive prefix products of the leaves.
template <class S, class I = Int<1>>
STRATA_HD auto compact_col_major(S const& shape, I const& start = {}) {
  if constexpr (Tuple<S>) {
    auto r = fold(shape, make_tuple(make_tuple(), start), [](auto const& acc, auto const& si) {
      auto strides = compact_col_major(si, get<1>(acc));
      return make_tuple(tuple_cat(get<0>(acc), make_tuple(strides)), get<1>(acc) * product(si));
    });
    return get<0>(r);
  } else {
    // A static size-1 mode gets stride 0: its stride never matters and 0 keeps it coalescable.
    if constexpr (is_constant_v<1, S>) {
      return Int<0>{};
    } else {
      return start;
    }
  }
}

// compact_row_major(shape, start): the strides of the row-major (last mode fastest, "LayoutRight")
// layout of shape.
template <class S, class I = Int<1>>
STRATA_HD auto compact_row_major(S const& shape, I const& start = {}) {
  if constexpr (Tuple<S>) {
    constexpr int R = rank_v<S>;
    auto reversed = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(get<R - 1 - Is>(shape)...);
    }(std::make_index_sequence<R>{});
    auto r = fold(reversed, make_tuple(make_tuple(), start), [](auto const& acc, auto const& si) {
      auto strides = compact_row_major(si, get<1>(acc));
      return make_tuple(tuple_cat(make_tuple(strides), get<0>(acc)), get<1>(acc) * product(si));
    });
    return get<0>(r);
  } else {
    return compact_col_major(shape, start);
  }
}

// ---- coordinates -------------------------------------------------------------------------------

// idx2crd(idx, shape): the colexicographic coordinate of idx in shape (first mode fastest),
// congruent with shape. The last mode is not reduced, so idx >= size(shape) extends it.
template <class Idx, class S>
STRATA_HD auto idx2crd(Idx const& idx, S const& shape) {
  if constexpr (Tuple<Idx>) {
    static_assert(Tuple<S> && rank_v<Idx> == rank_v<S>, "idx2crd: the coordinate must match the shape");
    return transform(idx, shape, [](auto const& i, auto const& s) { return idx2crd(i, s); });
  } else if constexpr (Tuple<S>) {
    constexpr int R = rank_v<S>;
    auto r = fold(take<0, R - 1>(shape), make_tuple(make_tuple(), idx), [](auto const& acc, auto const& si) {
      auto n = product(si);
      return make_tuple(tuple_cat(get<0>(acc), make_tuple(idx2crd(get<1>(acc) % n, si))), get<1>(acc) / n);
    });
    return tuple_cat(get<0>(r), make_tuple(idx2crd(get<1>(r), get<R - 1>(shape))));
  } else {
    return idx;
  }
}

// crd2idx(coord, shape, stride) == the index of coord: the inner product of its natural
// (fully hierarchical) coordinate with stride. coord may be an integer (a 1-D index into shape),
// a tuple congruent with shape, or anything between (each integer indexes its whole mode).
template <class C, class S, class D>
STRATA_HD auto crd2idx(C const& coord, S const& shape, D const& stride) {
  if constexpr (Tuple<C>) {
    static_assert(Tuple<S> && Tuple<D> && rank_v<C> == rank_v<S>,
                  "crd2idx: the coordinate must have the rank of the shape");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (Int<0>{} + ... + crd2idx(get<Is>(coord), get<Is>(shape), get<Is>(stride)));
    }(std::make_index_sequence<rank_v<C>>{});
  } else if constexpr (Tuple<S>) {
    constexpr int R = rank_v<S>;
    if constexpr (R == 0) {
      return Int<0>{};
    } else {
      // Peel mode 0 with a remainder; the last mode takes what is left (extends past the end).
      if constexpr (R == 1) {
        return crd2idx(coord, get<0>(shape), get<0>(stride));
      } else {
        auto n0 = product(get<0>(shape));
        return crd2idx(coord % n0, get<0>(shape), get<0>(stride)) +
               crd2idx(coord / n0, take<1, R>(shape), take<1, R>(stride));
      }
    }
  } else {
    return coord * stride;
  }
}

// crd2idx(coord, shape): the colexicographic index of coord in shape.
template <class C, class S>
STRATA_HD auto crd2idx(C const& coord, S const& shape) {
  return crd2idx(coord, shape, compact_col_major(shape));
}

// ---- slicing with Underscore -------------------------------------------------------------------

// slice(coord, t): the parts of t where coord has `_`, as a flat-at-the-top tuple.
template <class C, class T>
STRATA_HD auto slice(C const& coord, T const& t) {
  if constexpr (std::is_same_v<C, Underscore>) {
    return make_tuple(t);
  } else if constexpr (Tuple<C>) {
    static_assert(Tuple<T> && rank_v<C> == rank_v<T>, "slice: the coordinate must match the shape");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return tuple_cat(make_tuple(), slice(get<Is>(coord), get<Is>(t))...);
    }(std::make_index_sequence<rank_v<C>>{});
  } else {
    return make_tuple();
  }
}

// dice(coord, t): the parts of t where coord is not `_`; the complement of slice.
template <class C, class T>
STRATA_HD auto dice(C const& coord, T const& t) {
  if constexpr (std::is_same_v<C, Underscore>) {
    return make_tuple();
  } else if constexpr (Tuple<C>) {
    static_assert(Tuple<T> && rank_v<C> == rank_v<T>, "dice: the coordinate must match the shape");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return tuple_cat(make_tuple(), dice(get<Is>(coord), get<Is>(t))...);
    }(std::make_index_sequence<rank_v<C>>{});
  } else {
    return make_tuple(t);
  }
}

// underscore_to_zero(coord): coord with every `_` replaced by 0 (the origin of a slice).
template <class C>
STRATA_HD auto underscore_to_zero(C const& coord) {
  if constexpr (std::is_same_v<C, Underscore>) {
    return Int<0>{};
  } else if constexpr (Tuple<C>) {
    return transform(coord, [](auto const& c) { return underscore_to_zero(c); });
  } else {
    return coord;
  }
}

}  // namespace strata
