// Strata: algorithms on tensors — copy, copy_if, fill, clear, and gemm on register fragments.
//
// These are the plain, per-thread fallbacks: each thread moves or multiplies the elements of the
// tensors it is given. Copy and MMA atoms (floor 2) replace them with hardware instructions; these
// keep working everywhere, in host code too.
#pragma once

#include <cstdint>
#include <cstring>

#include "tensor_base.hpp"

namespace strata {

namespace detail {
// A value of exactly B bytes, aligned to B, so one load or store of it is one memory instruction.
struct alignas(16) bytes16 {
  std::uint32_t word[4];
};
template <int B>
struct vector_of_bytes;
template <>
struct vector_of_bytes<2> { using type = std::uint16_t; };
template <>
struct vector_of_bytes<4> { using type = std::uint32_t; };
template <>
struct vector_of_bytes<8> { using type = std::uint64_t; };
template <>
struct vector_of_bytes<16> { using type = bytes16; };

// Whether the flat mode (s, d) survives upcast<W> intact when d is static: it is skipped by whole
// vectors (W | d), or it lies inside one vector (d | W and its extent s*d divides or is divided
// by W). A dynamic stride is checked at run time instead.
template <int W, class S, class D>
constexpr bool mode_vectorizes() {
  if constexpr (!StaticInt<D>) {
    return true;
  } else if constexpr (D::value == 0 || D::value % W == 0) {
    return true;
  } else if constexpr (StaticInt<S>) {
    constexpr int ext = S::value * D::value;
    return W % D::value == 0 && (ext % W == 0 || W % ext == 0);
  } else {
    return false;
  }
}
template <int W, class S, class D>
constexpr bool layout_vectorizes() {
  using FS = decltype(flatten_to_tuple(std::declval<S>()));
  using FD = decltype(flatten_to_tuple(std::declval<D>()));
  return []<std::size_t... Is>(std::index_sequence<Is...>) {
    return (true && ... && mode_vectorizes<W, std::remove_cvref_t<decltype(get<Is>(std::declval<FS>()))>,
                                           std::remove_cvref_t<decltype(get<Is>(std::declval<FD>()))>>());
  }(std::make_index_sequence<rank_v<FS>>{});
}

template <class L, int W>
constexpr bool layout_vectorizes_v = layout_vectorizes<W, typename L::Shape, typename L::Stride>();

// The widest W (a power of two, W * sizeof(T) <= 16 bytes) such that W divides the common vector of
// the two layouts and every static stride keeps vectors whole.
template <class SL, class DL, int Common, int W>
constexpr int widest_vector() {
  if constexpr (W <= 1) {
    return 1;
  } else if constexpr (Common % W == 0 && layout_vectorizes_v<SL, W> && layout_vectorizes_v<DL, W>) {
    return W;
  } else {
    return widest_vector<SL, DL, Common, W / 2>();
  }
}

template <class Src, class Dst>
constexpr int copy_vector_width_of() {
  using SL = typename Src::layout_type;
  using DL = typename Dst::layout_type;
  using T = typename Src::value_type;
  if constexpr (!PlainLayout<SL> || !PlainLayout<DL> || !Pointer<typename Src::iterator> ||
                !Pointer<typename Dst::iterator> || !std::is_same_v<T, typename Dst::value_type> ||
                sizeof(T) > 8 || 16 % sizeof(T) != 0) {
    return 1;  // nothing to prove it on: swizzled layouts, coordinates, converting copies, odd sizes
  } else {
    constexpr int common = decltype(max_common_vector(std::declval<SL>(), std::declval<DL>()))::value;
    return widest_vector<SL, DL, common, int(16 / sizeof(T))>();
  }
}

// Every dynamic stride of l is a multiple of w (static ones were proven at compile time).
template <class L>
STRATA_HD bool dynamic_strides_divisible(L const& l, int w) {
  bool ok = true;
  for_each(flatten_to_tuple(l.stride()), [&](auto const& d) {
    if constexpr (!StaticInt<decltype(d)>) ok = ok && d % w == 0;
  });
  return ok;
}

// Register arrays are allocated aligned (see ArrayEngine) and hold no address at run time, so their
// alignment is assumed; any other pointer is tested.
template <class P>
STRATA_HD bool pointer_aligned(P const& p, int bytes) {
  if constexpr (is_rmem_v<P>) {
    return true;
  } else {
    return reinterpret_cast<std::uintptr_t>(raw_pointer_cast(p)) % std::uintptr_t(bytes) == 0;
  }
}

template <class V>
STRATA_HD void move_vector(V const& src, V& dst) {
#if defined(__CUDA_ARCH__)
  dst = src;  // one LD/ST of the vector's width: V is aligned to its size
#else
  std::memcpy(&dst, &src, sizeof(V));  // the host way to move bytes across types without aliasing UB
#endif
}
}  // namespace detail

// copy_vector_width(src, dst): how many elements copy(src, dst) moves per access when the run-time
// conditions hold (see copy), as a static integer. It is the largest power of two W such that
//   - src and dst hold the same element type T, of at most 8 bytes, and W * sizeof(T) <= 16;
//   - W divides max_common_vector(src layout, dst layout): W consecutive indices of both tensors are
//     one contiguous run in both memories;
//   - every static stride of both layouts keeps such runs whole.
template <AnyTensor Src, AnyTensor Dst>
STRATA_HD auto copy_vector_width(Src const&, Dst const&) {
  return Int<detail::copy_vector_width_of<std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>>()>{};
}

// copy_is_vectorized(src, dst): whether copy(src, dst) moves copy_vector_width(src, dst) elements
// per access (true) or one element per access (false). Besides the static width it needs, at run
// time: every dynamic stride of both layouts is a multiple of the width, and both base pointers
// are aligned to the vector's size in bytes. Pointers into registers are taken as aligned (owning
// tensors are allocated so); every other pointer, global memory from users included, is tested.
template <AnyTensor Src, AnyTensor Dst>
STRATA_HD bool copy_is_vectorized(Src const& src, Dst const& dst) {
  constexpr int w = decltype(copy_vector_width(src, dst))::value;
  if constexpr (w == 1) {
    return false;
  } else {
    constexpr int bytes = w * int(sizeof(typename Src::value_type));
    return detail::dynamic_strides_divisible(src.layout(), w) && detail::dynamic_strides_divisible(dst.layout(), w) &&
           detail::pointer_aligned(src.data(), bytes) && detail::pointer_aligned(dst.data(), bytes);
  }
}

// copy(src, dst): dst(i) = src(i) for every i < size(dst), converting element types if they differ;
// vectorized as copy_is_vectorized says. Precondition: size(src) == size(dst).
template <AnyTensor Src, AnyTensor Dst>
STRATA_HD void copy(Src const& src, Dst&& dst) {
  using D = std::remove_cvref_t<Dst>;
  if constexpr (is_static_v<decltype(size(src))> && is_static_v<decltype(size(dst))>) {
    static_assert(decltype(size(src))::value == decltype(size(dst))::value,
                  "copy: the source and the destination must have the same size");
  }
  constexpr int w = decltype(copy_vector_width(src, dst))::value;
  if constexpr (w > 1) {
    if (copy_is_vectorized(src, dst)) {
      using V = typename detail::vector_of_bytes<w * int(sizeof(typename D::value_type))>::type;
      auto src_v = recast<V const>(src);
      auto dst_v = recast<V>(dst);
      STRATA_UNROLL
      for (int i = 0; i < int(size(dst_v)); ++i) detail::move_vector(src_v(i), dst_v(i));
      return;
    }
  }
  using T = typename D::value_type;
  STRATA_UNROLL
  for (int i = 0; i < int(size(dst)); ++i) dst(i) = static_cast<T>(src(i));
}

// copy_if(pred, src, dst): dst(i) = src(i) for every i with pred(i) true; every other element of
// dst is left as it was. pred is a tensor of booleans or anything callable as pred(i), e.g. a
// lambda that tests an identity tensor: [&](int i) { return elem_less(coords(i), shape); }.
template <class Pred, AnyTensor Src, AnyTensor Dst>
STRATA_HD void copy_if(Pred const& pred, Src const& src, Dst&& dst) {
  using T = typename std::remove_cvref_t<Dst>::value_type;
  STRATA_UNROLL
  for (int i = 0; i < int(size(dst)); ++i) {
    if (pred(i)) dst(i) = static_cast<T>(src(i));
  }
}

// fill(t, v): t(i) == v for every i.
template <AnyTensor Tn, class V>
STRATA_HD void fill(Tn&& t, V const& v) {
  using T = typename std::remove_cvref_t<Tn>::value_type;
  STRATA_UNROLL
  for (int i = 0; i < int(size(t)); ++i) t(i) = static_cast<T>(v);
}

// clear(t): t(i) == T{} (zero) for every i.
template <AnyTensor Tn>
STRATA_HD void clear(Tn&& t) {
  fill(static_cast<Tn&&>(t), typename std::remove_cvref_t<Tn>::value_type{});
}

namespace detail {
// Two extents known at compile time to differ (dynamic ones are trusted).
template <class X, class Y>
constexpr bool static_sizes_differ() {
  if constexpr (StaticInt<X> && StaticInt<Y>) {
    return X::value != Y::value;
  } else {
    return false;
  }
}
}  // namespace detail

// gemm(a, b, c): c(m, n) += a(m, k) * b(n, k) for every m, n, k — CuTe's convention: A is (M, K),
// B is (N, K), C is (M, N), so A and B are both K-minor in the same way. Also:
//   (M) x (N) => (M, N)                 an outer product (K == 1);
//   (V, M, K) x (V, N, K) => (V, M, N)  mode 0 a value mode: c(v, m, n) += a(v, m, k) * b(v, n, k).
// Products are formed in c's element type. This is plain FMA on one thread's registers: the
// fallback that MMA atoms replace.
template <AnyTensor A, AnyTensor B, AnyTensor C>
STRATA_HD void gemm(A const& a, B const& b, C&& c) {
  using T = typename std::remove_cvref_t<C>::value_type;
  constexpr int ra = std::remove_cvref_t<A>::rank;
  constexpr int rb = std::remove_cvref_t<B>::rank;
  constexpr int rc = std::remove_cvref_t<C>::rank;
  if constexpr (ra == 1 && rb == 1 && rc == 2) {
    static_assert(!detail::static_sizes_differ<decltype(size(a)), decltype(size<0>(c))>(), "gemm: size(a) must equal size<0>(c) (M)");
    static_assert(!detail::static_sizes_differ<decltype(size(b)), decltype(size<1>(c))>(), "gemm: size(b) must equal size<1>(c) (N)");
    STRATA_UNROLL
    for (int m = 0; m < int(size<0>(c)); ++m) {
      STRATA_UNROLL
      for (int n = 0; n < int(size<1>(c)); ++n) c(m, n) += static_cast<T>(a(m)) * static_cast<T>(b(n));
    }
  } else if constexpr (ra == 2 && rb == 2 && rc == 2) {
    static_assert(!detail::static_sizes_differ<decltype(size<0>(a)), decltype(size<0>(c))>(), "gemm: size<0>(a) must equal size<0>(c) (M)");
    static_assert(!detail::static_sizes_differ<decltype(size<0>(b)), decltype(size<1>(c))>(), "gemm: size<0>(b) must equal size<1>(c) (N)");
    static_assert(!detail::static_sizes_differ<decltype(size<1>(a)), decltype(size<1>(b))>(), "gemm: size<1>(a) must equal size<1>(b) (K)");
    STRATA_UNROLL
    for (int k = 0; k < int(size<1>(a)); ++k) {
      STRATA_UNROLL
      for (int m = 0; m < int(size<0>(c)); ++m) {
        STRATA_UNROLL
        for (int n = 0; n < int(size<1>(c)); ++n) c(m, n) += static_cast<T>(a(m, k)) * static_cast<T>(b(n, k));
      }
    }
  } else if constexpr (ra == 3 && rb == 3 && rc == 3) {
    static_assert(!detail::static_sizes_differ<decltype(size<0>(a)), decltype(size<0>(c))>() &&
                      !detail::static_sizes_differ<decltype(size<0>(b)), decltype(size<0>(c))>(),
                  "gemm: the value modes (mode 0) of a, b and c must have the same size");
    static_assert(!detail::static_sizes_differ<decltype(size<1>(a)), decltype(size<1>(c))>(), "gemm: size<1>(a) must equal size<1>(c) (M)");
    static_assert(!detail::static_sizes_differ<decltype(size<1>(b)), decltype(size<2>(c))>(), "gemm: size<1>(b) must equal size<2>(c) (N)");
    static_assert(!detail::static_sizes_differ<decltype(size<2>(a)), decltype(size<2>(b))>(), "gemm: size<2>(a) must equal size<2>(b) (K)");
    STRATA_UNROLL
    for (int k = 0; k < int(size<2>(a)); ++k) {
      STRATA_UNROLL
      for (int m = 0; m < int(size<1>(c)); ++m) {
        STRATA_UNROLL
        for (int n = 0; n < int(size<2>(c)); ++n) {
          STRATA_UNROLL
          for (int v = 0; v < int(size<0>(c)); ++v)
            c(v, m, n) += static_cast<T>(a(v, m, k)) * static_cast<T>(b(v, n, k));
        }
      }
    }
  } else {
    static_assert(ra < 0, "gemm: the ranks must be (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N) or (V,M,K)x(V,N,K)=>(V,M,N)");
  }
}

}  // namespace strata
