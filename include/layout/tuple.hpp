// Strata: a tuple that costs nothing for static members, and the generic algorithms on tuples.
//
// `std::tuple` is neither guaranteed empty for empty members nor constexpr-friendly in device code,
// so Strata has its own: a member whose type is empty (a static integer, a tuple of them) takes no
// storage and is recreated on access. A tuple of only static integers is therefore an empty class.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "integer.hpp"

namespace strata {

namespace detail {
template <std::size_t I, class T, bool Empty = std::is_empty_v<T>>
struct TupleLeaf {
  T value;
  STRATA_HD T const& get() const { return value; }
  STRATA_HD T& get() { return value; }
};
template <std::size_t I, class T>
struct TupleLeaf<I, T, true> {
  TupleLeaf() = default;
  STRATA_HD explicit TupleLeaf(T const&) {}
  STRATA_HD T get() const { return T{}; }
};

template <class Indices, class... Ts>
struct TupleBase;
template <std::size_t... Is, class... Ts>
struct TupleBase<std::index_sequence<Is...>, Ts...> : TupleLeaf<Is, Ts>... {
  TupleBase() = default;
  STRATA_HD explicit TupleBase(Ts const&... ts)
    requires(sizeof...(Ts) > 0)
      : TupleLeaf<Is, Ts>{ts}... {}
};
}  // namespace detail

template <class... Ts>
struct tuple : detail::TupleBase<std::index_sequence_for<Ts...>, Ts...> {
  using Base = detail::TupleBase<std::index_sequence_for<Ts...>, Ts...>;
  tuple() = default;
  template <class... Us>
    requires(sizeof...(Us) == sizeof...(Ts) && sizeof...(Ts) > 0 &&
             (std::is_constructible_v<Ts, Us const&> && ...))
  STRATA_HD tuple(Us const&... us) : Base(Ts(us)...) {}
};
template <class... Ts>
tuple(Ts...) -> tuple<Ts...>;

template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<tuple<Ts...>> : std::true_type {};
template <class T>
concept Tuple = is_tuple<std::remove_cvref_t<T>>::value;

template <class T>
struct tuple_size : std::integral_constant<std::size_t, 1> {};
template <class... Ts>
struct tuple_size<tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
// Number of top-level modes: a tuple's element count, 1 for anything else.
template <class T>
inline constexpr int rank_v = int(tuple_size<std::remove_cvref_t<T>>::value);

template <std::size_t I, class T>
struct tuple_element;
template <std::size_t I, class T0, class... Ts>
struct tuple_element<I, tuple<T0, Ts...>> : tuple_element<I - 1, tuple<Ts...>> {};
template <class T0, class... Ts>
struct tuple_element<0, tuple<T0, Ts...>> {
  using type = T0;
};

namespace detail {
// The leaf of index I, its type deduced from the tuple's one base with that index (no recursive
// tuple_element per access).
template <std::size_t I, class T, bool E>
STRATA_HD decltype(auto) leaf_get(TupleLeaf<I, T, E> const& leaf) {
  return leaf.get();
}
template <std::size_t I, class T, bool E>
STRATA_HD decltype(auto) leaf_get(TupleLeaf<I, T, E>& leaf) {
  return leaf.get();
}
}  // namespace detail

// get<I>(t): the I-th element; get<I, J...>(t) == get<J...>(get<I>(t)). On a non-tuple, get<0> is
// the value itself, so rank-1 things can be treated uniformly.
template <std::size_t I, class... Ts>
STRATA_HD decltype(auto) get(tuple<Ts...> const& t) {
  static_assert(I < sizeof...(Ts), "get: the index must be smaller than the rank of the tuple");
  return detail::leaf_get<I>(t);
}
template <std::size_t I, class... Ts>
STRATA_HD decltype(auto) get(tuple<Ts...>& t) {
  static_assert(I < sizeof...(Ts), "get: the index must be smaller than the rank of the tuple");
  return detail::leaf_get<I>(t);
}
template <std::size_t I, class T>
  requires(!Tuple<T>)
STRATA_HD T get(T const& t) {
  static_assert(I == 0, "get: a non-tuple has only mode 0");
  return t;
}
template <std::size_t I, std::size_t J, std::size_t... Is, class T>
STRATA_HD decltype(auto) get(T const& t) {
  return get<J, Is...>(get<I>(t));
}

template <class... Ts>
STRATA_HD tuple<Ts...> make_tuple(Ts const&... ts) {
  return tuple<Ts...>(ts...);
}

// ---- generic algorithms ------------------------------------------------------------------------

// apply(t, f) == f(get<0>(t), ..., get<n-1>(t))
template <Tuple T, class F>
STRATA_HD decltype(auto) apply(T const& t, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) -> decltype(auto) {
    return f(get<Is>(t)...);
  }(std::make_index_sequence<rank_v<T>>{});
}

// transform(t, f)[i] == f(t[i]); transform(a, b, f)[i] == f(a[i], b[i])
template <Tuple T, class F>
STRATA_HD auto transform(T const& t, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(t))...);
  }(std::make_index_sequence<rank_v<T>>{});
}
template <Tuple A, Tuple B, class F>
STRATA_HD auto transform(A const& a, B const& b, F&& f) {
  static_assert(rank_v<A> == rank_v<B>, "transform: both tuples must have the same rank");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(a), get<Is>(b))...);
  }(std::make_index_sequence<rank_v<A>>{});
}
template <Tuple A, Tuple B, Tuple C, class F>
STRATA_HD auto transform(A const& a, B const& b, C const& c, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(a), get<Is>(b), get<Is>(c))...);
  }(std::make_index_sequence<rank_v<A>>{});
}

// for_each(t, f) calls f(t[i]) for i = 0, 1, ... in order.
template <Tuple T, class F>
STRATA_HD void for_each(T const& t, F&& f) {
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    (f(get<Is>(t)), ...);
  }(std::make_index_sequence<rank_v<T>>{});
}

namespace detail {
// fold from element I on: recursion on the index, so no tuple of the remaining elements is built
// (and instantiated) at each step.
template <std::size_t I, class T, class V, class F>
STRATA_HD auto fold_from(T const& t, V const& acc, F& f) {
  if constexpr (I == std::size_t(rank_v<T>)) {
    return acc;
  } else {
    return fold_from<I + 1>(t, f(acc, get<I>(t)), f);
  }
}
}  // namespace detail

// fold(t, init, f) == f(...f(f(init, t[0]), t[1])..., t[n-1])
template <Tuple T, class V, class F>
STRATA_HD auto fold(T const& t, V const& init, F&& f) {
  return detail::fold_from<0>(t, init, f);
}

// tuple_cat(a, b, ...) holds the elements of a, then of b, ...
template <Tuple A>
STRATA_HD auto tuple_cat(A const& a) {
  return a;
}
template <Tuple A, Tuple B, Tuple... Rest>
STRATA_HD auto tuple_cat(A const& a, B const& b, Rest const&... rest) {
  auto ab = [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>,
                                                      std::index_sequence<Js...>) {
    return make_tuple(get<Is>(a)..., get<Js>(b)...);
  }(std::make_index_sequence<rank_v<A>>{}, std::make_index_sequence<rank_v<B>>{});
  return tuple_cat(ab, rest...);
}

// take<B, E>(t) holds t[B], ..., t[E-1].
template <int B, int E, Tuple T>
STRATA_HD auto take(T const& t) {
  static_assert(0 <= B && B <= E && E <= rank_v<T>, "take: need 0 <= begin <= end <= rank");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(get<B + Is>(t)...);
  }(std::make_index_sequence<E - B>{});
}

// select<I...>(t) holds t[I]...
template <int... Is, Tuple T>
STRATA_HD auto select(T const& t) {
  return make_tuple(get<Is>(t)...);
}

// wrap(x): x if x is a tuple, else the rank-1 tuple (x).
template <class T>
STRATA_HD auto wrap(T const& t) {
  if constexpr (Tuple<T>) {
    return t;
  } else {
    return make_tuple(t);
  }
}

// unwrap(t): the only element of a rank-1 tuple (recursively); anything else unchanged.
template <class T>
STRATA_HD auto unwrap(T const& t) {
  if constexpr (Tuple<T> && rank_v<T> == 1) {
    return unwrap(get<0>(t));
  } else {
    return t;
  }
}

// replace<I>(t, x): t with element I replaced by x.
template <int I, Tuple T, class X>
STRATA_HD auto replace(T const& t, X const& x) {
  return tuple_cat(take<0, I>(t), make_tuple(x), take<I + 1, rank_v<T>>(t));
}

// repeat_like<T>(x): a tuple of the same top-level rank as T filled with x.
template <int N, class X>
STRATA_HD auto repeat(X const& x) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(((void)Is, x)...);
  }(std::make_index_sequence<N>{});
}

// Equality by value, element-wise; static integers compare equal to dynamic ones of equal value.
template <class... As, class... Bs>
STRATA_HD bool operator==(tuple<As...> const& a, tuple<Bs...> const& b) {
  if constexpr (sizeof...(As) != sizeof...(Bs)) {
    return false;
  } else {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (... && bool(get<Is>(a) == get<Is>(b)));
    }(std::index_sequence_for<As...>{});
  }
}
template <class... As, class B>
  requires(!Tuple<B>)
STRATA_HD bool operator==(tuple<As...> const&, B const&) {
  return false;
}
template <class A, class... Bs>
  requires(!Tuple<A>)
STRATA_HD bool operator==(A const&, tuple<Bs...> const&) {
  return false;
}

}  // namespace strata
