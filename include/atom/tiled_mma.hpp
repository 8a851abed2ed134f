// Strata floor 2: TiledMMA — an MMA atom repeated over threads and values to cover a CTA's tile.
//
//   auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{},
//                             Layout<Shape<_2, _2, _1>>{},     // 2 x 2 atoms side by side: 4 warps
//                             Tile<_32, _32, _16>{});          // tile 32 x 32 x 16: each warp 2 atoms in N
//   auto thr = mma.get_slice(threadIdx.x);
//   auto tCgC = thr.partition_C(gC);             // (MMA, MMA_M, MMA_N): this thread's part of C
//   auto tCrA = thr.partition_fragment_A(sA);    // registers shaped like partition_A(sA)
//   gemm(mma, tCrA, tCrB, tCrC);                 // every atom of the thread's fragments
//
// Three ingredients, with CuTe's meaning:
//   - the atom (mma_atom.hpp): one instruction as thread–value layouts;
//   - atom_layout_mnk: how many atoms run side by side in M, N, K, and in which thread order.
//     Its product with the atom's ThrID is ThrLayoutVMNK: (thread in atom, atom m, atom n,
//     atom k) -> thread index. Shape<_2,_2,_1> with a 32-thread atom is 128 threads;
//   - permutation_mnk: a tiler per mode (`_` = none, an integer n = identity of size n, or a
//     layout) that the operand tiles are first divided by. Its size is the tile size of that
//     mode when larger than atoms * threads, so each thread repeats the atom over values; a
//     layout reorders which rows/columns the atoms see, e.g. to give a warp contiguous columns.
//
// Partitioning an (M, N) tensor for C ("thrfrg_C") is four steps of the algebra:
//   logical_divide by the permutation; divide by the atom tile; compose the atom tile with the
//   atom's TV layout ((ThrV, FrgV)); divide what is left by the thread counts (ThrM, ThrN).
// The result ((ThrV, (ThrM, ThrN)), FrgV, RestM, RestN, ...) is sliced at one thread's
// coordinate: (MMA values, MMA_M, MMA_N, ...). A and B go the same way on (M, K) and (N, K).
#pragma once

#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/tensor.hpp"
#include "mma_atom.hpp"

namespace strata {

namespace detail {

// The size a tiler covers; `_` covers nothing by itself.
template <class P>
constexpr int tiler_size() {
  if constexpr (std::is_same_v<P, Underscore>) {
    return 0;
  } else {
    return decltype(size(P{}))::value;
  }
}

// A mode of extent n must hold whole tiles: the permutation's size, else atoms x threads.
template <int Covered, class Perm, class N>
STRATA_HD void check_whole_tiles(N const&) {
  if constexpr (StaticInt<N>) {
    constexpr int tile = tiler_size<Perm>() == 0 ? Covered : tiler_size<Perm>();
    static_assert(N::value % tile == 0,
                  "TiledMMA: each mode of a partitioned operand must be a whole number of the tiled MMA's "
                  "tiles (TileM, TileN, TileK); take whole tiles with local_tile and predicate the edge");
  }
}

// The tiling of one operand for an atom over threads. `l` is (X, Y, extra...) — (M, K) for A,
// (N, K) for B, (M, N) for C; the result is ((ThrV, (ThrX, ThrY)), FrgV, RestX, RestY, extra...):
// mode 0 picks the thread, the other modes enumerate that thread's values.
template <class AtomTV, int AtomX, int AtomY, int ThrX, int ThrY, class PermX, class PermY, class L>
STRATA_HD auto tile_over_threads(L const& l) {
  constexpr int R = decltype(rank(l))::value;
  static_assert(R >= 2, "TiledMMA: an operand to partition must have at least two modes, (M, K), (N, K) or (M, N)");
  check_whole_tiles<AtomX * ThrX, PermX>(size<0>(l));
  check_whole_tiles<AtomY * ThrY, PermY>(size<1>(l));
  auto permuted = logical_divide(l, make_tile(PermX{}, PermY{}));
  auto divided = logical_divide(permuted, make_tile(Int<AtomX>{}, Int<AtomY>{}));  // ((AX, RX), (AY, RY), ...)
  auto atom = make_layout(layout<0, 0>(divided), layout<1, 0>(divided));          // (AX, AY)
  auto tv = composition(atom, AtomTV{});                                          // (ThrV, FrgV)
  auto rest = make_layout(layout<0, 1>(divided), layout<1, 1>(divided));          // (RX, RY)
  auto rest_split = logical_divide(rest, make_tile(Int<ThrX>{}, Int<ThrY>{}));    // ((TX, RX'), (TY, RY'))
  auto thr = make_layout(layout<0>(tv), make_layout(layout<0, 0>(rest_split), layout<1, 0>(rest_split)));
  return [&]<std::size_t... Js>(std::index_sequence<Js...>) {
    return make_layout(thr, layout<1>(tv), layout<0, 1>(rest_split), layout<1, 1>(rest_split),
                       layout<2 + Js>(divided)...);
  }(std::make_index_sequence<R - 2>{});
}

// The permutation as a tuple of exactly three tilers, `_` for the modes not given.
template <class P>
STRATA_HD auto pad_to_rank3(P const& p) {
  auto t = wrap(p);
  constexpr int R = rank_v<decltype(t)>;
  static_assert(R <= 3, "make_tiled_mma: the permutation has at most three modes, M, N and K");
  return tuple_cat(t, repeat<3 - R>(Underscore{}));
}

}  // namespace detail

template <class TiledMma>
struct ThrMMA;

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA {
  static_assert(is_mma_atom<Atom>::value, "TiledMMA: the atom must be an MmaAtom<Op>");
  static_assert(is_static_v<AtomLayoutMNK> && decltype(rank(AtomLayoutMNK{}))::value == 3,
                "TiledMMA: the atom layout must be a static layout of rank 3 (M, N, K)");

  using AtomType = Atom;
  using AtomShapeMNK = typename Atom::ShapeMNK;
  using AtomLayout = AtomLayoutMNK;
  using Permutation = PermutationMNK;
  using ElementA = typename Atom::ElementA;
  using ElementB = typename Atom::ElementB;
  using ElementC = typename Atom::ElementC;
  using FragmentA = typename Atom::FragmentA;
  using FragmentB = typename Atom::FragmentB;
  using FragmentC = typename Atom::FragmentC;

  // (thread in atom, atom m, atom n, atom k) -> thread index.
  using ThrLayoutVMNK = decltype(tiled_product(typename Atom::ThrID{}, AtomLayoutMNK{}));

  static constexpr int thr_v = decltype(size<0>(ThrLayoutVMNK{}))::value;
  static constexpr int thr_m = decltype(size<1>(ThrLayoutVMNK{}))::value;
  static constexpr int thr_n = decltype(size<2>(ThrLayoutVMNK{}))::value;
  static constexpr int thr_k = decltype(size<3>(ThrLayoutVMNK{}))::value;
  static constexpr int num_threads = thr_v * thr_m * thr_n * thr_k;

  static_assert(decltype(size(right_inverse(ThrLayoutVMNK{})))::value == num_threads &&
                    decltype(cosize(ThrLayoutVMNK{}))::value == num_threads,
                "TiledMMA: atoms times threads must number the threads 0..n-1 each once "
                "(the atom layout must be compact)");

 private:
  template <int I>
  using Perm = std::remove_cvref_t<decltype(get<I>(PermutationMNK{}))>;

  template <int I>
  static constexpr int tile_size_of() {
    constexpr int covered = decltype(size<I>(AtomShapeMNK{}))::value * decltype(size<I + 1>(ThrLayoutVMNK{}))::value;
    constexpr int tiler = detail::tiler_size<Perm<I>>();
    static_assert(tiler == 0 || tiler % covered == 0,
                  "TiledMMA: a permutation must cover a multiple of atoms x threads in its mode");
    return tiler == 0 ? covered : tiler;
  }

 public:
  // The tile one pass of all threads covers: TileM, TileN, TileK as static integers.
  template <int I>
  STRATA_HD static auto tile_size_mnk() {
    static_assert(0 <= I && I < 3, "tile_size_mnk: the mode is 0 (M), 1 (N) or 2 (K)");
    return Int<tile_size_of<I>()>{};
  }
  STRATA_HD static auto get_tile_shape() {
    return make_shape(tile_size_mnk<0>(), tile_size_mnk<1>(), tile_size_mnk<2>());
  }

  // thrfrg_X(l): the layout l of an operand, ((ThrV, (ThrX, ThrY)), FrgV, RestX, RestY, extra...).
  template <class L>
  STRATA_HD static auto thrfrg_A(L const& mk) {
    return detail::tile_over_threads<typename Atom::LayoutA_TV, Atom::M, Atom::K, thr_m, thr_k, Perm<0>, Perm<2>>(mk);
  }
  template <class L>
  STRATA_HD static auto thrfrg_B(L const& nk) {
    return detail::tile_over_threads<typename Atom::LayoutB_TV, Atom::N, Atom::K, thr_n, thr_k, Perm<1>, Perm<2>>(nk);
  }
  template <class L>
  STRATA_HD static auto thrfrg_C(L const& mn) {
    return detail::tile_over_threads<typename Atom::LayoutC_TV, Atom::M, Atom::N, thr_m, thr_n, Perm<0>, Perm<1>>(mn);
  }

  // (thread index) -> (v, m, n, k), the thread's place among atoms: the inverse of ThrLayoutVMNK.
  STRATA_HD static auto thread_coord(int thr_idx) {
    int i = right_inverse(ThrLayoutVMNK{})(thr_idx);
    return make_coord(i % thr_v, (i / thr_v) % thr_m, (i / (thr_v * thr_m)) % thr_n, i / (thr_v * thr_m * thr_n));
  }

 private:
  // (thread index) -> the colexicographic index of its thread coordinate in mode 0 of thrfrg_X;
  // the stride-0 mode is the atom direction the operand does not depend on (N for A, M for B,
  // K for C), so threads that differ only there share values.
  template <class Strides>
  STRATA_HD static auto thread_to_operand_thread(Strides const& strides) {
    return composition(make_layout(ThrLayoutVMNK{}.shape(), strides), right_inverse(ThrLayoutVMNK{}));
  }
  template <class TV, class ThreadMap>
  STRATA_HD static auto index_tv(TV const& tv, ThreadMap const& thread_map) {
    constexpr int R = decltype(rank(tv))::value;
    auto values = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(layout<1 + Is>(tv)...);
    }(std::make_index_sequence<R - 1>{});
    return make_layout(composition(layout<0>(tv), thread_map), values);
  }

 public:
  // (thread index, value index) -> m + TileM * k: which element of the TileM x TileK tile of A
  // each thread holds as which value. Threads of different atom-n hold the same A.
  STRATA_HD static auto get_layoutA_TV() {
    auto tile = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<2>()));
    return index_tv(thrfrg_A(tile), thread_to_operand_thread(make_stride(_1{}, Int<thr_v>{}, _0{}, Int<thr_v * thr_m>{})));
  }
  // (thread index, value index) -> n + TileN * k into the TileN x TileK tile of B.
  STRATA_HD static auto get_layoutB_TV() {
    auto tile = make_layout(make_shape(tile_size_mnk<1>(), tile_size_mnk<2>()));
    return index_tv(thrfrg_B(tile), thread_to_operand_thread(make_stride(_1{}, _0{}, Int<thr_v>{}, Int<thr_v * thr_n>{})));
  }
  // (thread index, value index) -> m + TileM * n into the TileM x TileN tile of C.
  STRATA_HD static auto get_layoutC_TV() {
    auto tile = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<1>()));
    return index_tv(thrfrg_C(tile), thread_to_operand_thread(make_stride(_1{}, Int<thr_v>{}, Int<thr_v * thr_m>{}, _0{})));
  }

  STRATA_HD ThrMMA<TiledMMA> get_slice(int thr_idx) const { return ThrMMA<TiledMMA>(thr_idx); }
  STRATA_HD ThrMMA<TiledMMA> get_thread_slice(int thr_idx) const { return get_slice(thr_idx); }
};

template <class T>
struct is_tiled_mma : std::false_type {};
template <class A, class L, class P>
struct is_tiled_mma<TiledMMA<A, L, P>> : std::true_type {};
template <class T>
concept TiledMma = is_tiled_mma<std::remove_cvref_t<T>>::value;

// size(tiled_mma): the number of threads it needs.
template <class A, class L, class P>
STRATA_HD auto size(TiledMMA<A, L, P> const&) {
  return Int<TiledMMA<A, L, P>::num_threads>{};
}

// make_tiled_mma(atom, atom_layout_mnk, permutation_mnk): see the top of this file. `atom` may
// be an MmaAtom or the bare instruction Op; a rank-1 or rank-2 atom layout gets size-1 modes
// appended, and a permutation of fewer than three modes gets `_` for the rest.
template <class AtomOrOp, class AtomLayout = Layout<Shape<_1, _1, _1>>, class Permutation = Tile<Underscore, Underscore, Underscore>>
STRATA_HD auto make_tiled_mma(AtomOrOp const&, AtomLayout const& atom_layout = {}, Permutation const& permutation = {}) {
  using Atom = std::conditional_t<is_mma_atom<AtomOrOp>::value, AtomOrOp, MmaAtom<AtomOrOp>>;
  using L3 = decltype(append<3>(atom_layout));
  using P3 = decltype(detail::pad_to_rank3(permutation));
  return TiledMMA<Atom, L3, P3>{};
}

// ThrMMA: one thread's view of a TiledMMA — what it partitions and which fragments it owns.
template <class TiledMma_>
struct ThrMMA : TiledMma_ {
  int thr_idx = 0;

  ThrMMA() = default;
  STRATA_HD explicit ThrMMA(int thread_index) : thr_idx(thread_index) {}

 private:
  // t seen through a thrfrg layout of its shape, sliced at this thread: (values, rest...). The
  // thrfrg layout is built on the compact layout of t's shape and composed with t's layout, so t
  // may be laid out by anything that composes with a plain layout (a swizzled shared-memory
  // layout, an identity tensor's coordinates).
  template <class T, class Thrfrg>
  STRATA_HD static auto slice_thread(T&& t, Thrfrg const& thrfrg_indices, int thread_in_operand) {
    constexpr int R = decltype(rank(thrfrg_indices))::value;
    auto partitioned = composition(static_cast<T&&>(t), thrfrg_indices);
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {  // Underscore{}: `_` is a host variable
      return partitioned(thread_in_operand, ((void)Is, Underscore{})...);
    }(std::make_index_sequence<R - 1>{});
  }
  STRATA_HD auto coord() const { return TiledMma_::thread_coord(thr_idx); }
  // Colexicographic index of this thread in mode 0 of thrfrg_X: (v, (x, y)).
  STRATA_HD int operand_thread(int x, int nx, int y) const {
    return get<0>(coord()) + TiledMma_::thr_v * (x + nx * y);
  }

 public:
  // partition_A((M, K, ...) tensor): (MMA values, MMA_M, MMA_K, ...) — this thread's elements
  // of A, mode 0 in the order the atom's A fragment takes them.
  template <class T>
  STRATA_HD auto partition_A(T&& mk) const {
    auto c = coord();
    return slice_thread(static_cast<T&&>(mk), TiledMma_::thrfrg_A(make_layout(shape(mk))),
                        operand_thread(get<1>(c), TiledMma_::thr_m, get<3>(c)));
  }
  // partition_B((N, K, ...) tensor): (MMA values, MMA_N, MMA_K, ...).
  template <class T>
  STRATA_HD auto partition_B(T&& nk) const {
    auto c = coord();
    return slice_thread(static_cast<T&&>(nk), TiledMma_::thrfrg_B(make_layout(shape(nk))),
                        operand_thread(get<2>(c), TiledMma_::thr_n, get<3>(c)));
  }
  // partition_C((M, N, ...) tensor): (MMA values, MMA_M, MMA_N, ...).
  template <class T>
  STRATA_HD auto partition_C(T&& mn) const {
    auto c = coord();
    return slice_thread(static_cast<T&&>(mn), TiledMma_::thrfrg_C(make_layout(shape(mn))),
                        operand_thread(get<1>(c), TiledMma_::thr_m, get<2>(c)));
  }

  // partition_fragment_X(t): a register tensor shaped like partition_X(t), compact with the
  // atom's values contiguous, holding the atom's fragment type. Only t's shape is used.
  template <class T>
  STRATA_HD auto partition_fragment_A(T const& mk) const {
    return make_fragment_of<typename TiledMma_::FragmentA>(TiledMma_::thrfrg_A(make_layout(shape(mk))));
  }
  template <class T>
  STRATA_HD auto partition_fragment_B(T const& nk) const {
    return make_fragment_of<typename TiledMma_::FragmentB>(TiledMma_::thrfrg_B(make_layout(shape(nk))));
  }
  template <class T>
  STRATA_HD auto partition_fragment_C(T const& mn) const {
    return make_fragment_of<typename TiledMma_::FragmentC>(TiledMma_::thrfrg_C(make_layout(shape(mn))));
  }

 private:
  // A register tensor of the shape of modes 1.. of a thrfrg layout (what one thread holds).
  template <class V, class Thrfrg>
  STRATA_HD static auto make_fragment_of(Thrfrg const& thrfrg_indices) {
    constexpr int R = decltype(rank(thrfrg_indices))::value;
    auto values_shape = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_shape(shape<1 + Is>(thrfrg_indices)...);
    }(std::make_index_sequence<R - 1>{});
    static_assert(is_static_v<decltype(values_shape)>,
                  "partition_fragment: the partitioned shape must be static to live in registers");
    return make_tensor<V>(make_layout(values_shape));
  }
};

namespace detail {
// Element v of a fragment at (x, k): rank-3 fragments are (V, X, K); a rank-2 one (V, X) is one
// k-block, as gemm takes a slice t(_, _, k) of a rank-3 fragment.
template <class T>
STRATA_HD decltype(auto) fragment_at(T&& t, int v, int x, int k) {
  if constexpr (decltype(rank(t.layout()))::value == 2) {
    return t(v, x);
  } else {
    return t(v, x, k);
  }
}
}  // namespace detail

// gemm(tiled_mma, d, a, b, c): d = a * b + c on one thread's fragments, a (V_A, MMA_M, MMA_K),
// b (V_B, MMA_N, MMA_K), c and d (V_C, MMA_M, MMA_N): one atom call per (m, n, k). a and b may
// also be one k-block, (V_A, MMA_M) and (V_B, MMA_N). The loop runs k outermost and n in
// serpentine order (back and forth as m advances), so consecutive calls share an A or B fragment
// and the compiler keeps it in registers.
template <TiledMma Mma, class TD, class TA, class TB, class TC>
STRATA_HD void gemm(Mma const&, TD&& d, TA const& a, TB const& b, TC const& c) {
  using Atom = typename std::remove_cvref_t<Mma>::AtomType;
  constexpr int VA = Atom::num_values_a, VB = Atom::num_values_b, VC = Atom::num_values_c;
  constexpr int RA = decltype(rank(a.layout()))::value, RB = decltype(rank(b.layout()))::value;
  static_assert(((RA == 3 && RB == 3) || (RA == 2 && RB == 2)) && decltype(rank(c.layout()))::value == 3 &&
                    decltype(rank(d.layout()))::value == 3,
                "gemm(tiled_mma, ...): fragments must be a (V, MMA_M, MMA_K), b (V, MMA_N, MMA_K), c and d "
                "(V, MMA_M, MMA_N); a and b may drop their K mode together");
  static_assert(decltype(size<0>(a.layout()))::value == VA && decltype(size<0>(b.layout()))::value == VB &&
                    decltype(size<0>(c.layout()))::value == VC && decltype(size<0>(d.layout()))::value == VC,
                "gemm(tiled_mma, ...): mode 0 of each fragment must hold one atom's values "
                "(use partition_fragment_A/B/C of the same TiledMMA)");
  using SA = std::remove_cvref_t<decltype(shape(a.layout()))>;
  using SB = std::remove_cvref_t<decltype(shape(b.layout()))>;
  using SC = std::remove_cvref_t<decltype(shape(c.layout()))>;
  if constexpr (is_static_v<SA> && is_static_v<SB> && is_static_v<SC>) {
    static_assert(decltype(size<1>(SA{}))::value == decltype(size<1>(SC{}))::value &&
                      decltype(size<1>(SB{}))::value == decltype(size<2>(SC{}))::value,
                  "gemm(tiled_mma, ...): the fragments disagree: need a (V, M, K), b (V, N, K), c (V, M, N)");
    if constexpr (RA == 3) {
      static_assert(decltype(size<2>(SA{}))::value == decltype(size<2>(SB{}))::value,
                    "gemm(tiled_mma, ...): a and b must have the same number of k-blocks");
    }
  }
  const int num_m = size<1>(a.layout()), num_n = size<1>(b.layout());
  const int num_k = [&] {
    if constexpr (RA == 3) { return int(size<2>(a.layout())); } else { return 1; }
  }();
  STRATA_UNROLL
  for (int k = 0; k < num_k; ++k) {
    STRATA_UNROLL
    for (int m = 0; m < num_m; ++m) {
      typename Atom::FragmentA fa[VA];
      STRATA_UNROLL
      for (int v = 0; v < VA; ++v) fa[v] = detail::fragment_at(a, v, m, k);
      STRATA_UNROLL
      for (int step = 0; step < num_n; ++step) {
        const int n = (m % 2 == 0) ? step : num_n - 1 - step;
        typename Atom::FragmentB fb[VB];
        typename Atom::FragmentC fc[VC];
        STRATA_UNROLL
        for (int v = 0; v < VB; ++v) fb[v] = detail::fragment_at(b, v, n, k);
        STRATA_UNROLL
        for (int v = 0; v < VC; ++v) fc[v] = (k == 0) ? c(v, m, n) : d(v, m, n);
        Atom::call(fc, fa, fb, fc);
        STRATA_UNROLL
        for (int v = 0; v < VC; ++v) d(v, m, n) = fc[v];
      }
    }
  }
}

// gemm(tiled_mma, a, b, c): c += a * b.
template <TiledMma Mma, class TA, class TB, class TC>
STRATA_HD void gemm(Mma const& mma, TA const& a, TB const& b, TC&& c) {
  gemm(mma, c, a, b, c);
}

}  // namespace strata
