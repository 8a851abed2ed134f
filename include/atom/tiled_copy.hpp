// Strata floor 2: TiledCopy — a copy atom repeated over threads and values to cover a tile.
//
//   auto g2s = make_tiled_copy(CopyAtom<arch::CpAsync16_cg, half>{},
//                              Layout<Shape<_16, _8>, Stride<_8, _1>>{},  // 128 threads, 8 per row
//                              Layout<Shape<_1, _8>>{});                 // 8 halves each: 16 bytes
//   auto thr = g2s.get_slice(threadIdx.x);
//   copy(g2s, thr.partition_S(gA), thr.partition_D(sA));      // the whole (BM, BK) tile
//
//   auto s2r = make_tiled_copy_A(CopyAtom<arch::Ldsm_x4, half>{}, tiled_mma);
//   auto s2r_thr = s2r.get_slice(threadIdx.x);
//   auto frag_a = tiled_mma.get_slice(threadIdx.x).partition_fragment_A(sA);
//   copy(s2r, s2r_thr.partition_S(sA), s2r_thr.retile_D(frag_a));  // ldmatrix into the MMA's registers
//
// A TiledCopy is its atom plus two things, with CuTe's meaning:
//   - TiledLayout_TV: (thread, value) -> column-major index into the tile, for the whole group of
//     threads. It describes the atom's reference side (RefLayout: the destination for ldmatrix,
//     either side for one-thread copies). Values come in groups of the atom's value count: the
//     first group of each thread is one atom call, the next group the next call, and so on;
//   - Tiler_MN: the tile's shape (TileM, TileN).
// From these the source and destination TV layouts follow by the algebra: compose the tile's TV
// layout, atom group by atom group, with right_inverse(Ref) o Src (resp. Dst), which says for each
// (source thread, source value) of the atom which (reference thread, reference value) it is.
//
// Partitioning a tensor of shape (M, N, ...) is then: divide it by the tiler, compose the tile mode
// with the TV layout, slice the thread: (CPY values, CPY_M, CPY_N, ...), mode 0 being the thread's
// values of one tile, ((atom values), (atom calls)), the other modes counting tiles.
#pragma once

#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/partition.hpp"
#include "../layout/tensor.hpp"
#include "copy_atom.hpp"

namespace strata {

template <class TiledCopy_>
struct ThrCopy;

template <class Atom, class LayoutTV, class TilerMN>
struct TiledCopy : Atom {
  static_assert(CopyAtomLike<Atom>, "TiledCopy: the atom must be a CopyAtom<Op, Value>");
  static_assert(is_static_v<LayoutTV> && is_static_v<TilerMN>,
                "TiledCopy: the TV layout and the tiler must be known at compile time");

  using AtomType = Atom;
  using TiledLayout_TV = LayoutTV;
  using Tiler_MN = TilerMN;

  static constexpr int atom_num_threads = decltype(size<0>(typename Atom::ValLayoutRef{}))::value;
  static constexpr int atom_num_values = decltype(size<1>(typename Atom::ValLayoutRef{}))::value;
  static constexpr int num_threads = decltype(size<0>(LayoutTV{}))::value;
  static constexpr int num_values = decltype(size<1>(LayoutTV{}))::value;

  static_assert(num_threads % atom_num_threads == 0,
                "TiledCopy: the number of threads must be a multiple of the atom's (e.g. whole warps for ldmatrix)");
  static_assert(num_values % atom_num_values == 0,
                "TiledCopy: each thread's values must be a whole number of atom calls (e.g. 8 halves for a "
                "16-byte copy)");
  static_assert(decltype(size(LayoutTV{}))::value == num_threads * num_values &&
                    decltype(product(TilerMN{}))::value <= num_threads * num_values,
                "TiledCopy: the TV layout must reach no more elements than it has (thread, value) pairs");

  TiledCopy() = default;
  STRATA_HD explicit TiledCopy(Atom const& atom) : Atom(atom) {}

 private:
  // (thread, value) -> tile index, as the side described by the atom's layout `AtomSide` sees it:
  // ((atom thread, thread group), (atom value, call)) -> m + TileM * n.
  template <class AtomSide>
  STRATA_HD static auto side_tv(AtomSide const& side) {
    // (side thread, side value) -> (reference thread, reference value) index of the atom
    auto side_to_ref = composition(right_inverse(typename Atom::ValLayoutRef{}), side);
    // ((atom thread, atom value), (thread group, call)) -> tile index
    auto by_atom = zipped_divide(LayoutTV{}, make_shape(Int<atom_num_threads>{}, Int<atom_num_values>{}));
    auto side_by_atom = composition(by_atom, make_tile(side_to_ref, _));
    return coalesce(zip_layouts(layout<0>(side_by_atom), layout<1>(side_by_atom)), Shape<_1, Shape<_1, _1>>{});
  }

 public:
  // (thread, value) -> m + TileM * n: which element of the tile each thread reads (S) or writes (D)
  // as which value. For ldmatrix S is "whose row", D the fragment; for a one-thread copy both agree.
  STRATA_HD static auto get_layoutS_TV() { return side_tv(typename Atom::ValLayoutSrc{}); }
  STRATA_HD static auto get_layoutD_TV() { return side_tv(typename Atom::ValLayoutDst{}); }
  STRATA_HD static auto get_tile_shape() { return TilerMN{}; }

  // tidfrg(shape, side_tv): (thread, values, (rest modes)) -> column-major index into `shape`:
  // the shape divided into tiles, each tile's elements handed out by side_tv.
  template <class Shape_, class SideTV>
  STRATA_HD static auto tidfrg(Shape_ const& shape, SideTV const& tv) {
    static_assert(rank_v<Shape_> >= rank_v<TilerMN>,
                  "TiledCopy: the tensor to partition must have at least the tiler's modes (M, N)");
    check_divisible(shape);
    auto tiled = zipped_divide(make_layout(shape), TilerMN{});  // ((TileM, TileN), (RestM, RestN, ...))
    auto thrval = composition(layout<0>(tiled), tv);            // (thread, value) -> index into shape
    return make_layout(layout<0>(thrval), layout<1>(thrval), layout<1>(tiled));
  }

  // retile_layout(frag_shape): (CPY values, CPY_M, CPY_N, ...) -> column-major index into a
  // fragment of shape frag_shape = (V, X, Y, ...), where the fragment holds the thread's values
  // of the reference TV layout in blocks of V: the block of V values that lies at grid position
  // (x, y) of the tile (blocks ordered by where they sit, as an MMA fragment's (FrgV, MMA_M, MMA_K)
  // are), then tile after tile. This is CuTe's retile.
  template <class FragShape>
  STRATA_HD static auto retile_layout(FragShape const& frag_shape) {
    constexpr int R = rank_v<FragShape>;
    static_assert(R == rank_v<TilerMN> + 1,
                  "retile: the fragment must have one value mode and one mode per tiler mode, e.g. (V, M, K)");
    auto v = size<0>(frag_shape);
    static_assert(StaticInt<decltype(v)>, "retile: the fragment's value mode must have a static size");
    constexpr int V = decltype(v)::value;
    // (m, n) -> which block of V values of its thread holds the element; the V values of a block
    // collapse to one point (upcast by all threads' blocks).
    auto block_of_mn =
        upcast<num_threads * V>(composition(right_inverse(LayoutTV{}), make_layout(TilerMN{})));
    auto block_grid = product_each(block_of_mn.shape());
    // (atom values, calls) -> (value in block, block grid position) column-major index
    auto value_order = zipped_divide(logical_product(make_layout(v), right_inverse(block_of_mn)),
                                     make_layout(Int<atom_num_values>{}));
    auto tiled = zipped_divide(make_layout(frag_shape), tuple_cat(make_tuple(v), block_grid));
    auto ordered = composition(tiled, make_tile(value_order, _));  // ((atom values, calls), (1, RestM, RestN))
    return ordered(_, tuple_cat(make_tuple(_0{}), repeat<R - 1>(_)));
  }

  // retile(frag): the fragment seen with the copy's value grouping, (CPY values, CPY_M, CPY_N),
  // so that copy(tiled_copy, partition_S(smem), retile(frag)) fills exactly the registers the MMA
  // reads. The result is a view of frag.
  template <AnyTensor Frag>
  STRATA_HD static auto retile(Frag&& frag) {
    static_assert(!(is_owning_tensor_v<Frag> && std::is_rvalue_reference_v<Frag&&>),
                  "retile: the fragment is a temporary, the view would outlive its registers");
    return make_tensor(frag.data(), composition(frag.layout(), retile_layout(frag.layout().shape())));
  }

  STRATA_HD ThrCopy<TiledCopy> get_slice(int thr_idx) const { return ThrCopy<TiledCopy>(*this, thr_idx); }
  STRATA_HD ThrCopy<TiledCopy> get_thread_slice(int thr_idx) const { return get_slice(thr_idx); }

  // The same tiled copy with its atom armed with run-time state (see CopyAtom::with).
  template <class... Args>
  STRATA_HD auto with(Args&&... args) const {
    auto armed = Atom::with(static_cast<Args&&>(args)...);
    return TiledCopy<decltype(armed), LayoutTV, TilerMN>(armed);
  }

 private:
  template <class Shape_>
  STRATA_HD static void check_divisible(Shape_ const& shape) {
    [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      (check_mode_divisible(size<Is>(shape), get<Is>(TilerMN{})), ...);
    }(std::make_index_sequence<rank_v<TilerMN>>{});
  }
  template <class S, class T>
  STRATA_HD static void check_mode_divisible(S const&, T const&) {
    if constexpr (StaticInt<S>) {
      static_assert(S::value % T::value == 0,
                    "TiledCopy: each mode of the tensor must be a multiple of the tile (TileM, TileN); for a "
                    "matrix's ragged edge take whole tiles with local_tile and predicate them with copy_if");
    }
  }
};

template <class T>
struct is_tiled_copy : std::false_type {};
template <class A, class L, class T>
struct is_tiled_copy<TiledCopy<A, L, T>> : std::true_type {};

// size(tiled_copy): the number of threads it needs.
template <class A, class L, class T>
STRATA_HD auto size(TiledCopy<A, L, T> const&) {
  return Int<TiledCopy<A, L, T>::num_threads>{};
}

// ThrCopy: one thread's view of a TiledCopy.
template <class TiledCopy_>
struct ThrCopy : TiledCopy_ {
  int thr_idx = 0;

  ThrCopy() = default;
  STRATA_HD ThrCopy(TiledCopy_ const& tiled, int thread_index) : TiledCopy_(tiled), thr_idx(thread_index) {}

  // partition_S((M, N, ...) tensor): (CPY values, CPY_M, CPY_N, ...) — what this thread reads.
  template <AnyTensor T>
  STRATA_HD auto partition_S(T&& t) const {
    return partition_by(static_cast<T&&>(t), TiledCopy_::get_layoutS_TV());
  }
  // partition_D((M, N, ...) tensor): (CPY values, CPY_M, CPY_N, ...) — what this thread writes.
  template <AnyTensor T>
  STRATA_HD auto partition_D(T&& t) const {
    return partition_by(static_cast<T&&>(t), TiledCopy_::get_layoutD_TV());
  }
  // retile_S / retile_D(frag): a register fragment with the copy's value grouping (see retile).
  template <AnyTensor Frag>
  STRATA_HD auto retile_S(Frag&& frag) const {
    return TiledCopy_::retile(static_cast<Frag&&>(frag));
  }
  template <AnyTensor Frag>
  STRATA_HD auto retile_D(Frag&& frag) const {
    return TiledCopy_::retile(static_cast<Frag&&>(frag));
  }

 private:
  template <class T, class SideTV>
  STRATA_HD auto partition_by(T&& t, SideTV const& tv) const {
    static_assert(!(is_owning_tensor_v<T> && std::is_rvalue_reference_v<T&&>),
                  "partition: the tensor is a temporary register fragment, the view would outlive it");
    auto shape = t.layout().shape();
    constexpr int R = rank_v<decltype(shape)>;
    auto parts = make_tensor(t.data(), composition(t.layout(), TiledCopy_::tidfrg(shape, tv)));
    return parts(thr_idx, _, repeat<R>(_));
  }
};

// make_tiled_copy_tv(atom, layout_tv, tiler): the TiledCopy whose reference side hands out the
// (TileM, TileN) tile as layout_tv says: (thread, value) -> m + TileM * n.
template <CopyAtomLike Atom, class LayoutTV, class Tiler>
STRATA_HD auto make_tiled_copy_tv(Atom const& atom, LayoutTV const&, Tiler const&) {
  return TiledCopy<Atom, LayoutTV, Tiler>(atom);
}

// make_tiled_copy(atom, thr_layout, val_layout): threads arranged as thr_layout ((m, n) ->
// thread index) each take a val_layout-shaped block of values ((m, n) -> value index): the tile
// is raked_product(thr_layout, val_layout), of shape size-wise (ThrM * ValM, ThrN * ValN), with
// thread t's block at its place in thr_layout. Both layouts must be compact (each index once).
template <CopyAtomLike Atom, class ThrLayout, class ValLayout = Layout<_1, _0>>
STRATA_HD auto make_tiled_copy(Atom const& atom, ThrLayout const& thr_layout, ValLayout const& val_layout = {}) {
  static_assert(decltype(cosize(thr_layout))::value == decltype(size(thr_layout))::value &&
                    decltype(cosize(val_layout))::value == decltype(size(val_layout))::value,
                "make_tiled_copy: the thread and value layouts must be compact (number 0..n-1 each once)");
  // (m, n) -> thread index + size(thr) * value index
  auto layout_mn = raked_product(thr_layout, val_layout);
  // (thread index, value index) -> m + TileM * n
  auto layout_tv =
      composition(right_inverse(layout_mn), make_layout(make_shape(size(thr_layout), size(val_layout))));
  return make_tiled_copy_tv(atom, layout_tv, product_each(layout_mn.shape()));
}

// make_tiled_copy_A/B/C(atom, tiled_mma): the copy whose destination TV layout is the MMA's
// operand layout over its tile (TileM, TileK) / (TileN, TileK) / (TileM, TileN): each thread
// receives exactly the values its MMA fragment holds, in atom-sized groups of the fragment's own
// order. With ldmatrix this is how shared memory feeds mma.sync; retile_D(fragment) is then the
// destination.
template <CopyAtomLike Atom, class Mma>
STRATA_HD auto make_tiled_copy_A(Atom const& atom, Mma const& mma) {
  return make_tiled_copy_tv(atom, mma.get_layoutA_TV(),
                            make_shape(mma.template tile_size_mnk<0>(), mma.template tile_size_mnk<2>()));
}
template <CopyAtomLike Atom, class Mma>
STRATA_HD auto make_tiled_copy_B(Atom const& atom, Mma const& mma) {
  return make_tiled_copy_tv(atom, mma.get_layoutB_TV(),
                            make_shape(mma.template tile_size_mnk<1>(), mma.template tile_size_mnk<2>()));
}
template <CopyAtomLike Atom, class Mma>
STRATA_HD auto make_tiled_copy_C(Atom const& atom, Mma const& mma) {
  return make_tiled_copy_tv(atom, mma.get_layoutC_TV(),
                            make_shape(mma.template tile_size_mnk<0>(), mma.template tile_size_mnk<1>()));
}

}  // namespace strata
