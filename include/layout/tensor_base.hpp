// Strata: Tensor = engine + layout. The layout says where element c is (an index); the engine says
// what that index points into: memory behind a (memory-tagged) pointer, an owning register array,
// or, for an identity tensor, the coordinates themselves. Include tensor.hpp, which adds
// partitioning and the algorithms; this file is the part those two build on.
//
//   make_tensor(ptr, layout)            view of memory: ptr is T*, gmem_ptr, smem_ptr or rmem_ptr
//   make_tensor(ptr, shape[, stride])   the same with make_layout(shape[, stride])
//   make_tensor<T>(layout or shape)     owning register array sized from a static layout
//   make_fragment_like(t)               owning register tensor shaped like t (or like a layout)
//   t(i), t(c), t(i, j, ...)            element access by index or (hierarchical) coordinate
//   t(_, j)                             slicing: a view of the `_` modes
//   recast<U>(t)                        the same bytes seen as U elements
//   logical_divide(t, tiler), ...       the divides and products of the layout, over the same data
//   make_identity_tensor(shape)         t(c) == c: the coordinates that predicates test
//
// The layout may be a plain Layout or any other layout type that provides l(c), shape() and
// slice_and_offset(c, l): a ComposedLayout (swizzle.hpp) lays out a swizzled shared-memory tensor.
// Owning tensors start uninitialized, as local arrays do; clear() or fill() them when it matters.
#pragma once

#include <type_traits>

#include "arithmetic_tuple.hpp"
#include "layout.hpp"
#include "pointer.hpp"

namespace strata {

// ---- engines -----------------------------------------------------------------------------------

// ViewEngine<It>: no storage of its own, only where the data starts.
template <class Iterator>
struct ViewEngine {
  Iterator it;
  STRATA_HD Iterator begin() const { return it; }
};

// ArrayEngine<T, N>: N elements of T owned by value (in registers when the compiler can). Aligned
// to its own size, up to 16 bytes, so fragments can be moved as 128-bit vectors, while keeping
// sizeof == N * sizeof(T).
template <class T, int N>
struct ArrayEngine {
  static_assert(N > 0, "ArrayEngine: an owning tensor must hold at least one element");
  static constexpr std::size_t bytes = N * sizeof(T);
  static constexpr std::size_t alignment = [] {
    std::size_t a = 16;
    while (bytes % a != 0) a /= 2;
    return a < alignof(T) ? alignof(T) : a;
  }();
  alignas(alignment) T storage[N];

  STRATA_HD rmem_ptr<T> begin() { return rmem_ptr<T>(storage); }
  STRATA_HD rmem_ptr<T const> begin() const { return rmem_ptr<T const>(storage); }
};

template <class It>
struct is_coord_iterator : std::false_type {};
template <class C>
struct is_coord_iterator<CoordIterator<C>> : std::true_type {};

// What a view tensor may start from: a pointer (raw or tagged) or an identity tensor's iterator.
template <class It>
concept TensorIterator = Pointer<It> || is_coord_iterator<std::remove_cvref_t<It>>::value;

// ---- Tensor ------------------------------------------------------------------------------------

template <class Engine, class Layout_>
struct Tensor;

template <class T>
struct is_tensor : std::false_type {};
template <class E, class L>
struct is_tensor<Tensor<E, L>> : std::true_type {};
template <class T>
concept AnyTensor = is_tensor<std::remove_cvref_t<T>>::value;

template <class T>
struct is_owning_tensor : std::false_type {};
template <class T, int N, class L>
struct is_owning_tensor<Tensor<ArrayEngine<T, N>, L>> : std::true_type {};
template <class T>
inline constexpr bool is_owning_tensor_v = is_owning_tensor<std::remove_cvref_t<T>>::value;

template <class Engine, class Layout_>
struct Tensor : private detail::TupleBase<std::index_sequence<0, 1>, Engine, Layout_> {
  using Base = detail::TupleBase<std::index_sequence<0, 1>, Engine, Layout_>;
  using engine_type = Engine;
  using layout_type = Layout_;
  using iterator = decltype(std::declval<Engine&>().begin());
  // What t(c) yields: T for memory (T const for a const owning tensor's view), C for coordinates.
  using element_type = std::remove_reference_t<decltype(*std::declval<iterator>())>;
  using value_type = std::remove_cv_t<element_type>;

  Tensor() = default;
  STRATA_HD Tensor(Engine const& engine, Layout_ const& layout) : Base(engine, layout) {}
  // An owning tensor over a static layout, its elements left uninitialized like any local array:
  // zeroing registers that the kernel is about to overwrite would cost instructions.
  STRATA_HD explicit Tensor(Layout_ const&)
    requires(std::is_empty_v<Layout_>)
  {}

  STRATA_HD decltype(auto) layout() const { return static_cast<detail::TupleLeaf<1, Layout_> const&>(*this).get(); }
  STRATA_HD decltype(auto) engine() const { return static_cast<detail::TupleLeaf<0, Engine> const&>(*this).get(); }
  STRATA_HD decltype(auto) engine() { return static_cast<detail::TupleLeaf<0, Engine>&>(*this).get(); }
  STRATA_HD auto shape() const { return layout().shape(); }
  // Where element 0 of the layout's codomain is: a pointer, or a coordinate iterator.
  STRATA_HD auto data() const { return engine().begin(); }
  STRATA_HD auto data() { return engine().begin(); }

  static constexpr int rank = rank_v<decltype(std::declval<Layout_ const&>().shape())>;

  // t(c): the element at index or coordinate c; a coordinate holding `_` gives the sub-tensor of
  // those modes instead, a view that starts where the slice starts.
  template <class Coord>
  STRATA_HD decltype(auto) operator()(Coord const& c) const { return access(data(), layout(), c); }
  template <class Coord>
  STRATA_HD decltype(auto) operator()(Coord const& c) { return access(data(), layout(), c); }
  template <class C0, class C1, class... Cs>
  STRATA_HD decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
  template <class C0, class C1, class... Cs>
  STRATA_HD decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) {
    return (*this)(make_coord(c0, c1, cs...));
  }
  template <class I>
  STRATA_HD decltype(auto) operator[](I const& i) const { return (*this)(i); }
  template <class I>
  STRATA_HD decltype(auto) operator[](I const& i) { return (*this)(i); }

 private:
  template <class It, class L, class Coord>
  STRATA_HD static decltype(auto) access(It const& it, L const& l, Coord const& c) {
    if constexpr (has_underscore_v<Coord>) {
      auto so = slice_and_offset(c, l);
      return make_tensor(it + get<1>(so), get<0>(so));
    } else {
      return it[l(c)];
    }
  }
};

// ---- construction ------------------------------------------------------------------------------

// make_tensor(it, layout): the view whose element c is it[layout(c)].
template <TensorIterator It, class L>
  requires(!IntTuple<L>)
STRATA_HD auto make_tensor(It it, L const& layout) {
  return Tensor<ViewEngine<It>, L>(ViewEngine<It>{it}, layout);
}
// make_tensor(it, shape, ...): the view over make_layout(shape, ...) (column-major by default).
template <TensorIterator It, IntTuple S>
STRATA_HD auto make_tensor(It it, S const& shape) {
  return make_tensor(it, make_layout(shape));
}
template <TensorIterator It, class A, class B, class... Rest>
STRATA_HD auto make_tensor(It it, A const& a, B const& b, Rest const&... rest) {
  return make_tensor(it, make_layout(a, b, rest...));
}

// make_tensor<T>(layout or shape[, stride or order]): an owning tensor of cosize(layout) elements.
template <class T, class... Args>
  requires(sizeof...(Args) > 0 && !TensorIterator<T>)
STRATA_HD auto make_tensor(Args const&... args) {
  auto layout = [&] {
    if constexpr (sizeof...(Args) == 1 && (!IntTuple<Args> && ...)) {
      return (args, ...);
    } else {
      return make_layout(args...);
    }
  }();
  using L = decltype(layout);
  static_assert(is_static_v<L>,
                "make_tensor<T>: an owning (register) tensor needs a layout known at compile time");
  constexpr int n = decltype(cosize(layout))::value;
  return Tensor<ArrayEngine<T, n>, L>(layout);
}

// make_fragment_like(layout): the compact column-major layout of the same shape. Mode 0 is then
// contiguous, which is where atoms and vectorized copies want a thread's values.
template <class L>
  requires(!AnyTensor<L> && !IntTuple<L>)
STRATA_HD auto make_fragment_like(L const& layout) {
  return make_layout(layout.shape());
}
// make_fragment_like<T>(layout or tensor): an owning register tensor of that shape.
template <class T, class X>
STRATA_HD auto make_fragment_like(X const& x) {
  if constexpr (AnyTensor<X>) {
    return make_tensor<T>(make_fragment_like(x.layout()));
  } else {
    return make_tensor<T>(make_fragment_like(x));
  }
}
template <AnyTensor X>
STRATA_HD auto make_fragment_like(X const& t) {
  return make_fragment_like<typename X::value_type>(t);
}

// make_identity_tensor(shape): t(c) == c for every coordinate c of shape (one integer per
// top-level mode). Partition it like a data tensor and each thread holds its elements' coordinates.
template <IntTuple S>
STRATA_HD auto make_identity_tensor(S const& shape) {
  auto origin = [] {
    if constexpr (Tuple<S>) { return repeat<rank_v<S>>(Int<0>{}); } else { return Int<0>{}; }
  }();
  return make_tensor(CoordIterator<decltype(origin)>{origin}, make_identity_layout(shape));
}

// ---- the layout functions, applied to tensors --------------------------------------------------

template <int... Is, class E, class L>
STRATA_HD decltype(auto) shape(Tensor<E, L> const& t) {
  return shape<Is...>(t.layout());
}
template <int... Is, class E, class L>
STRATA_HD decltype(auto) stride(Tensor<E, L> const& t) {
  return stride<Is...>(t.layout());
}
template <int... Is, class E, class L>
STRATA_HD auto layout(Tensor<E, L> const& t) {
  return layout<Is...>(t.layout());
}
template <int... Is, class E, class L>
STRATA_HD auto cosize(Tensor<E, L> const& t) {
  return cosize<Is...>(t.layout());
}
template <int... Is, class E, class L>
STRATA_HD auto depth(Tensor<E, L> const& t) {
  return depth<Is...>(t.layout());
}

namespace detail {
// The tensor over t's data with another layout: a view (of t's registers, for an owning t).
template <class Tn, class L>
STRATA_HD auto view_as(Tn&& t, L const& layout) {
  static_assert(!(is_owning_tensor_v<Tn> && std::is_rvalue_reference_v<Tn&&>),
                "tensor view: the owning tensor is a temporary, the view would outlive its registers");
  return make_tensor(t.data(), layout);
}
}  // namespace detail

// recast<U>(t): the same bytes as elements of U; the layout goes through recast_layout, so e.g.
// 8 contiguous 16-bit values become one 128-bit value.
template <class U, AnyTensor Tn>
STRATA_HD auto recast(Tn&& t) {
  using T = typename std::remove_cvref_t<Tn>::value_type;
  static_assert(Pointer<typename std::remove_cvref_t<Tn>::iterator>,
                "recast: only tensors over memory can be recast (not identity tensors)");
  static_assert(!(is_owning_tensor_v<Tn> && std::is_rvalue_reference_v<Tn&&>),
                "recast: the owning tensor is a temporary, the view would outlive its registers");
  return make_tensor(recast_ptr<U>(t.data()), recast_layout<T, U>(t.layout()));
}

// Each of these is the layout function of the same name; the result views the same data.
template <AnyTensor Tn, class B>
STRATA_HD auto composition(Tn&& t, B const& b) {
  return detail::view_as(static_cast<Tn&&>(t), composition(t.layout(), b));
}
template <AnyTensor Tn, class T>
STRATA_HD auto logical_divide(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), logical_divide(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto zipped_divide(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), zipped_divide(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto tiled_divide(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), tiled_divide(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto flat_divide(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), flat_divide(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto logical_product(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), logical_product(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto zipped_product(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), zipped_product(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto tiled_product(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), tiled_product(t.layout(), tiler));
}
template <AnyTensor Tn, class T>
STRATA_HD auto flat_product(Tn&& t, T const& tiler) {
  return detail::view_as(static_cast<Tn&&>(t), flat_product(t.layout(), tiler));
}
template <AnyTensor Tn>
STRATA_HD auto coalesce(Tn&& t) {
  return detail::view_as(static_cast<Tn&&>(t), coalesce(t.layout()));
}
template <AnyTensor Tn>
STRATA_HD auto flatten(Tn&& t) {
  return detail::view_as(static_cast<Tn&&>(t), flatten(t.layout()));
}
template <int B, int E, AnyTensor Tn>
STRATA_HD auto group(Tn&& t) {
  return detail::view_as(static_cast<Tn&&>(t), group<B, E>(t.layout()));
}
template <int... Is, AnyTensor Tn>
STRATA_HD auto select(Tn&& t) {
  return detail::view_as(static_cast<Tn&&>(t), select<Is...>(t.layout()));
}
template <int B, int E, AnyTensor Tn>
STRATA_HD auto take(Tn&& t) {
  return detail::view_as(static_cast<Tn&&>(t), take<B, E>(t.layout()));
}

}  // namespace strata
