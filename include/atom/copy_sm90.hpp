// Strata floor 2: the Hopper (sm_90) copy atoms — TMA loads and stores and stmatrix given
// thread–value layouts, so that collectives partition them like any other copy.
//
//   auto load = make_tma_load_atom<T>(&params.map_a, box);      // a TmaAtom; box: the descriptor's box
//   copy(load.with(&full_barrier[stage]), gA(_, _, k), sA(_, _, stage));                 // one thread
//   copy(load.with(&full_barrier[stage], cta_mask), ...);           // multicast to the CTAs in mask
//   copy(make_tma_store_atom<T>(&params.map_d, box), sD, gD);      // then bulk_commit_group()...
//   CopyAtom<arch::Stsm_x4, half>                                  // stmatrix: a warp stores 4 8x8 matrices
//
// TMA. One thread moves a whole box, so the atom's footprint is the box: ThrID = Layout<_1> and one
// value per box element, in the column-major order of the box's shape. The global side of a TMA is
// not memory but coordinates: partition an identity tensor of the global shape
// (make_identity_tensor) exactly as the data would be, and the atom reads the coordinate of each
// call's first value — the box's origin — and reorders it into TMA's dimension order. The shared
// side is the tensor laid out by the box layout the descriptor was built with (tma.hpp); the atom
// passes the address of each call's first value, the box's start (128-byte aligned, and aligned to
// the swizzle's repeat). A load completes on an mbarrier, so the atom must be armed with one:
// atom.with(&barrier) (or with(&barrier, cta_mask) for multicast); the barrier's phase must expect
// TmaBox<T, Box>::transaction_bytes per box (tma_transaction_bytes(atom)).
//
// stmatrix. Its layouts are ldmatrix's with source and destination exchanged (PTX ISA, "stmatrix":
// the same fragment and row-address tables): the source is the register fragment, thread t holding
// row t/4, elements 2(t%4) and 2(t%4)+1 of each matrix (column t/4, rows 2(t%4)+e with .trans);
// the destination is the row addresses, thread 8j+r giving row r of matrix j. RefLayout is the
// source, so make_tiled_copy_C(stmatrix_atom, tiled_mma) stores an accumulator fragment.
#pragma once

#include <cstdint>
#include <type_traits>

#include "arch/sm90.hpp"
#include "arch/sm90_tma.hpp"
#include "copy_atom.hpp"
#include "copy_sm80.hpp"
#include "tiled_copy.hpp"
#include "tma.hpp"

namespace strata {

// ---- stmatrix: registers -> shared, warp-wide ------------------------------------------------------

template <int N, bool Transpose>
struct CopyTraits<arch::Stsm<N, Transpose>> {
  using Operation = arch::Stsm<N, Transpose>;
  using ThrID = Layout<_32>;
  using SrcLayout = std::conditional_t<Transpose, detail::LdsmTransDstLayout<N>, detail::LdsmDstLayout<N>>;
  using DstLayout = detail::LdsmSrcLayout<N>;
  using RefLayout = SrcLayout;

  // Every lane of the warp must call it together (it is .sync.aligned).
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    static_assert(Src::in_registers, "stmatrix: the source must be a register fragment");
    static_assert(!Dst::in_registers && !detail::operand_in_gmem_v<Dst>,
                  "stmatrix: the destination must be in shared memory (an smem_ptr or an untagged pointer)");
    std::uint32_t regs[N];
    detail::pack_values(regs, src);
    Operation::copy(regs, dst.address());
  }
};

// ---- TMA ---------------------------------------------------------------------------------------------

// The operations: a load before and after it is armed with its mbarrier (and a multicast mask),
// and a store. Element and Box are the descriptor's element type and box layout.
template <class Element, class Box>
struct TmaLoad {};
template <class Element, class Box>
struct TmaLoadArmed {};
template <class Element, class Box>
struct TmaLoadMulticastArmed {};
template <class Element, class Box>
struct TmaStore {};

namespace detail {

template <class Element, class Box>
struct TmaCopyLayouts {
  using BoxInfo = TmaBox<Element, Box>;
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, Int<int(BoxInfo::num_elements) * int(sizeof_bits_v<Element>)>>, Stride<_0, _1>>;
  using DstLayout = SrcLayout;
  using RefLayout = SrcLayout;
};

template <class Operand>
inline constexpr bool operand_is_coordinates_v =
    is_coord_iterator<std::remove_cvref_t<typename Operand::tensor_type::iterator>>::value;

template <class Operand>
STRATA_HD void check_tma_shared_operand() {
  static_assert(!Operand::in_registers && !operand_in_gmem_v<Operand>,
                "TMA: the shared-memory side must be a tensor in shared memory (an smem_ptr or an untagged pointer)");
  static_assert(!operand_is_coordinates_v<Operand>, "TMA: the shared-memory side must be memory, not coordinates");
}

// The address of an operand's first value: the start of its box.
template <class Operand>
STRATA_HD auto* box_start(Operand const& op) {
  return &op.tensor(op.first);
}
}  // namespace detail

// tma_box_origin<Element, Box>(coords_operand): the coordinate of the operand's first value, the
// box's origin, as TMA's coordinates (dimension d = box mode TmaBox::mode_of_dim[d]).
template <class Element, class Box, class Operand>
STRATA_HD auto tma_box_origin(Operand const& op) {
  using B = TmaBox<Element, Box>;
  static_assert(detail::operand_is_coordinates_v<Operand>,
                "TMA: the global side must be coordinates: partition make_identity_tensor(global shape) like the "
                "data, and the atom takes each box's origin from it");
  auto coord = op(0);
  using C = std::remove_cvref_t<decltype(coord)>;
  std::array<int32_t, B::rank> origin{};
  if constexpr (Tuple<C>) {
    static_assert(rank_v<C> == B::rank, "TMA: the coordinates must have one mode per box mode");
    [&]<std::size_t... Ds>(std::index_sequence<Ds...>) {
      ((origin[Ds] = static_cast<int32_t>(get<B::mode_of_dim[Ds]>(coord))), ...);
    }(std::make_index_sequence<B::rank>{});
  } else {
    static_assert(B::rank == 1, "TMA: the coordinates must have one mode per box mode");
    origin[0] = static_cast<int32_t>(coord);
  }
  return origin;
}

// Unarmed: holds the descriptor. copy() needs the mbarrier, so arm it first.
template <class Element, class Box>
struct CopyTraits<TmaLoad<Element, Box>> : detail::TmaCopyLayouts<Element, Box> {
  using Operation = TmaLoad<Element, Box>;
  CUtensorMap const* descriptor = nullptr;

  CopyTraits() = default;
  STRATA_HD explicit CopyTraits(CUtensorMap const* desc) : descriptor(desc) {}

  // Completing on `mbarrier` in this CTA.
  STRATA_HD CopyTraits<TmaLoadArmed<Element, Box>> with(uint64_t* mbarrier) const {
    return CopyTraits<TmaLoadArmed<Element, Box>>(descriptor, mbarrier);
  }
  // Landing in every CTA of the cluster in `cta_mask` (bit r: rank r), completing on the barrier
  // at `mbarrier`'s offset in each.
  STRATA_HD CopyTraits<TmaLoadMulticastArmed<Element, Box>> with(uint64_t* mbarrier, uint16_t cta_mask) const {
    return CopyTraits<TmaLoadMulticastArmed<Element, Box>>(descriptor, mbarrier, cta_mask);
  }

  template <class Src, class Dst>
  STRATA_DEVICE void copy(Src const&, Dst const&) const {
    static_assert(sizeof(Src) == 0,
                  "TMA load: arm the atom with the mbarrier its bytes complete on: "
                  "copy(atom.with(&barrier), src, dst)");
  }
};

template <class Element, class Box>
struct CopyTraits<TmaLoadArmed<Element, Box>> : detail::TmaCopyLayouts<Element, Box> {
  using Operation = TmaLoadArmed<Element, Box>;
  CUtensorMap const* descriptor = nullptr;
  uint64_t* mbarrier = nullptr;

  CopyTraits() = default;
  STRATA_HD CopyTraits(CUtensorMap const* desc, uint64_t* bar) : descriptor(desc), mbarrier(bar) {}

  // Issued by one thread; the bytes of the whole box complete on `mbarrier`.
  template <class Src, class Dst>
  STRATA_DEVICE void copy(Src const& src, Dst const& dst) const {
    detail::check_tma_shared_operand<Dst>();
    const auto c = tma_box_origin<Element, Box>(src);
    void* smem = detail::box_start(dst);
    [&]<std::size_t... Ds>(std::index_sequence<Ds...>) { arch::tma_load(descriptor, mbarrier, smem, c[Ds]...); }(
        std::make_index_sequence<TmaBox<Element, Box>::rank>{});
  }
};

template <class Element, class Box>
struct CopyTraits<TmaLoadMulticastArmed<Element, Box>> : detail::TmaCopyLayouts<Element, Box> {
  using Operation = TmaLoadMulticastArmed<Element, Box>;
  CUtensorMap const* descriptor = nullptr;
  uint64_t* mbarrier = nullptr;
  uint16_t cta_mask = 0;

  CopyTraits() = default;
  STRATA_HD CopyTraits(CUtensorMap const* desc, uint64_t* bar, uint16_t mask)
      : descriptor(desc), mbarrier(bar), cta_mask(mask) {}

  template <class Src, class Dst>
  STRATA_DEVICE void copy(Src const& src, Dst const& dst) const {
    detail::check_tma_shared_operand<Dst>();
    const auto c = tma_box_origin<Element, Box>(src);
    void* smem = detail::box_start(dst);
    [&]<std::size_t... Ds>(std::index_sequence<Ds...>) {
      arch::tma_load_multicast(descriptor, mbarrier, cta_mask, smem, c[Ds]...);
    }(std::make_index_sequence<TmaBox<Element, Box>::rank>{});
  }
};

// Shared -> global. Joins the issuing thread's bulk group: arch::bulk_commit_group() after the
// stores, arch::bulk_wait_group_read<N>() before their shared memory is rewritten. The threads that
// wrote the box run arch::fence_proxy_async_shared() before the barrier that precedes the store.
template <class Element, class Box>
struct CopyTraits<TmaStore<Element, Box>> : detail::TmaCopyLayouts<Element, Box> {
  using Operation = TmaStore<Element, Box>;
  CUtensorMap const* descriptor = nullptr;

  CopyTraits() = default;
  STRATA_HD explicit CopyTraits(CUtensorMap const* desc) : descriptor(desc) {}

  template <class Src, class Dst>
  STRATA_DEVICE void copy(Src const& src, Dst const& dst) const {
    detail::check_tma_shared_operand<Src>();
    const auto c = tma_box_origin<Element, Box>(dst);
    const void* smem = detail::box_start(src);
    [&]<std::size_t... Ds>(std::index_sequence<Ds...>) { arch::tma_store(descriptor, smem, c[Ds]...); }(
        std::make_index_sequence<TmaBox<Element, Box>::rank>{});
  }
};

// TmaAtom<Op, T>: the copy atom of a TMA operation, with CopyAtom's interface (CopyAtomLike, so
// copy() and TiledCopy take it). CopyAtom proves at compile time, value by value, that an
// instruction moves whole values; a TMA footprint is one thread's contiguous box of whole elements,
// where that holds by construction, and its thousands of values would exceed the compiler's
// constant-evaluation budget, so TMA has this atom instead.
template <class Op, class Value>
struct TmaAtom : CopyTraits<Op>, detail::CopyAtomTag {
  using Operation = Op;
  using Traits = CopyTraits<Op>;
  using ValueType = Value;
  using ThrID = Layout<_1>;
  static_assert(sizeof_bits_v<Value> * Traits::BoxInfo::num_elements ==
                    decltype(size<1>(typename Traits::SrcLayout{}))::value,
                "TmaAtom: the value type must be the descriptor's element type (same width)");

  static constexpr int num_threads = 1;
  static constexpr int num_values_src = int(Traits::BoxInfo::num_elements);
  static constexpr int num_values_dst = num_values_src;
  static constexpr int num_values_ref = num_values_src;
  using ValLayoutSrc = Layout<Shape<_1, Int<num_values_src>>, Stride<_0, _1>>;
  using ValLayoutDst = ValLayoutSrc;
  using ValLayoutRef = ValLayoutSrc;

  TmaAtom() = default;
  STRATA_HD explicit TmaAtom(Traits const& traits) : Traits(traits) {}

  STRATA_HD Traits const& traits() const { return *this; }

  // One box: src and dst are CopyOperands of the box's values (coordinates on the global side).
  template <class Src, class Dst, class... Extra>
  STRATA_HOST_DEVICE void call(Src const& src, Dst const& dst, Extra&&... extra) const {
    static_assert(Src::size == num_values_src && Dst::size == num_values_dst,
                  "TmaAtom::call: the operands must hold exactly one box's values");
    traits().copy(src, dst, static_cast<Extra&&>(extra)...);
  }

  // The same atom armed: with(&mbarrier) or with(&mbarrier, cta_mask) for a load.
  template <class... Args>
  STRATA_HD auto with(Args&&... args) const {
    auto armed = traits().with(static_cast<Args&&>(args)...);
    return TmaAtom<typename decltype(armed)::Operation, Value>(armed);
  }
};

// make_tma_load_atom<T>(desc, box) / make_tma_store_atom<T>(desc, box): the atoms of a descriptor
// built by make_tma_descriptor for elements T and this box layout. `desc` points at the descriptor
// where the kernel sees it (a __grid_constant__ parameter, or global memory).
template <class T, class Box>
STRATA_HD auto make_tma_load_atom(CUtensorMap const* desc, Box const&) {
  return TmaAtom<TmaLoad<T, Box>, T>(CopyTraits<TmaLoad<T, Box>>(desc));
}
template <class T, class Box>
STRATA_HD auto make_tma_store_atom(CUtensorMap const* desc, Box const&) {
  return TmaAtom<TmaStore<T, Box>, T>(CopyTraits<TmaStore<T, Box>>(desc));
}

// The bytes one call of a TMA atom delivers: what a load's mbarrier phase must expect per box.
template <class Op, class T>
STRATA_HD int tma_transaction_bytes(TmaAtom<Op, T> const&) {
  return int(CopyTraits<Op>::BoxInfo::transaction_bytes);
}

// make_tma_tiled_copy(atom): the TiledCopy of one thread moving one box per call, its tile the box's
// shape: partition_S / partition_D then split a (coordinate or shared-memory) tensor into boxes.
template <class Op, class T>
STRATA_HD auto make_tma_tiled_copy(TmaAtom<Op, T> const& atom) {
  using Info = typename CopyTraits<Op>::BoxInfo;
  using Inner = typename Info::Inner;
  constexpr int n = int(Info::num_elements);
  return make_tiled_copy_tv(atom, Layout<Shape<_1, Int<n>>, Stride<_0, _1>>{}, product_each(Inner{}.shape()));
}

}  // namespace strata
