// Strata floor 2: the MMA atom — one matrix instruction seen through the layout algebra.
//
// An instruction such as mma.sync.m16n8k16 computes D = A * B + C on an M x N x K tile, but no
// thread holds a whole matrix: each holds a few values of each operand, in registers, in an order
// the PTX ISA tabulates. An atom states that table as three thread–value (TV) layouts,
//
//   LayoutA_TV: (thread, value) -> m + M * k   (column-major index into the M x K tile of A)
//   LayoutB_TV: (thread, value) -> n + N * k   (column-major index into the N x K tile of B)
//   LayoutC_TV: (thread, value) -> m + M * n   (column-major index into the M x N tile of C/D)
//
// so that everything above it (TiledMMA, TiledCopy, partitioning) is layout algebra and never
// again looks at the instruction. `thread` is the atom's logical thread index in [0, size(ThrID));
// ThrID maps it to the thread index within the group that issues the instruction: 32 threads
// for mma.sync, 128 (a warpgroup) for Hopper's wgmma, 1 for a plain FMA.
//
// An atom is `MmaAtom<Op>`: Op is the instruction (an arch:: wrapper with a static
// `fma(d, a, b, c)` on its register arrays), `MmaTraits<Op>` says its element types, shape and
// layouts. Fragments are handled as elements in value order; `MmaAtom::call` packs them into the
// instruction's registers (two halves or four bytes to a 32-bit register, low first, as the ISA
// orders them) and unpacks D again.
//
// Room for Hopper: a traits class may set FragmentA/FragmentB to a non-element type (wgmma's
// shared-memory descriptors: one 64-bit value per warpgroup tile instead of elements), and may
// replace the packing with its own static `call(d, a, b, c)`; ThrID is never assumed to be 32.
#pragma once

#include <cstring>
#include <type_traits>

#include "../layout/layout.hpp"

namespace strata {

// MmaTraits<Op>: specialised once per instruction. It provides
//   ElementA, ElementB, ElementC          value types (D has the type of C)
//   ShapeMNK                              Shape<Int<M>, Int<N>, Int<K>>
//   ThrID                                 logical thread -> thread within the issuing group
//   LayoutA_TV, LayoutB_TV, LayoutC_TV    as described above
// and optionally FragmentA/B/C (what a fragment holds, default the element types) and a static
// `call(d, a, b, c)` on fragment arrays that replaces the default packing.
template <class Op>
struct MmaTraits;

namespace detail {
template <class T>
concept HasFragmentA = requires { typename T::FragmentA; };
template <class T>
concept HasFragmentB = requires { typename T::FragmentB; };
template <class T>
concept HasFragmentC = requires { typename T::FragmentC; };

template <class Traits, bool = HasFragmentA<Traits>>
struct fragment_a { using type = typename Traits::ElementA; };
template <class Traits>
struct fragment_a<Traits, true> { using type = typename Traits::FragmentA; };
template <class Traits, bool = HasFragmentB<Traits>>
struct fragment_b { using type = typename Traits::ElementB; };
template <class Traits>
struct fragment_b<Traits, true> { using type = typename Traits::FragmentB; };
template <class Traits, bool = HasFragmentC<Traits>>
struct fragment_c { using type = typename Traits::ElementC; };
template <class Traits>
struct fragment_c<Traits, true> { using type = typename Traits::FragmentC; };

// Reinterprets `count` values as the instruction's register array (or back): the bytes are the
// same, only the grouping differs. memcpy is the defined way to do that; on register-resident
// arrays the compiler turns it into moves and byte permutes.
template <class To, class From>
STRATA_HOST_DEVICE inline void copy_bytes(To& to, From const& from) {
  static_assert(sizeof(To) == sizeof(From),
                "MmaAtom: a fragment must fill the instruction's registers exactly (check the value "
                "count of the TV layout against the register array of the Op)");
  std::memcpy(static_cast<void*>(&to), static_cast<void const*>(&from), sizeof(To));
}
}  // namespace detail

template <class Op>
struct MmaAtom {
  using Operation = Op;
  using Traits = MmaTraits<Op>;

  using ElementA = typename Traits::ElementA;
  using ElementB = typename Traits::ElementB;
  using ElementC = typename Traits::ElementC;
  using ElementD = ElementC;
  using FragmentA = typename detail::fragment_a<Traits>::type;
  using FragmentB = typename detail::fragment_b<Traits>::type;
  using FragmentC = typename detail::fragment_c<Traits>::type;

  using ShapeMNK = typename Traits::ShapeMNK;
  using ThrID = typename Traits::ThrID;
  using LayoutA_TV = typename Traits::LayoutA_TV;
  using LayoutB_TV = typename Traits::LayoutB_TV;
  using LayoutC_TV = typename Traits::LayoutC_TV;

  static constexpr int M = decltype(size<0>(ShapeMNK{}))::value;
  static constexpr int N = decltype(size<1>(ShapeMNK{}))::value;
  static constexpr int K = decltype(size<2>(ShapeMNK{}))::value;
  static constexpr int num_threads = decltype(size(ThrID{}))::value;
  static constexpr int num_values_a = decltype(size<1>(LayoutA_TV{}))::value;
  static constexpr int num_values_b = decltype(size<1>(LayoutB_TV{}))::value;
  static constexpr int num_values_c = decltype(size<1>(LayoutC_TV{}))::value;

  static_assert(rank_v<ShapeMNK> == 3, "MmaAtom: ShapeMNK must have the three modes M, N, K");
  static_assert(decltype(size<0>(LayoutA_TV{}))::value == num_threads &&
                    decltype(size<0>(LayoutB_TV{}))::value == num_threads &&
                    decltype(size<0>(LayoutC_TV{}))::value == num_threads,
                "MmaAtom: mode 0 (threads) of every TV layout must have the size of ThrID");
  static_assert(num_threads * num_values_c == M * N,
                "MmaAtom: the C layout must give each element of the M x N tile to one (thread, value)");

  // d = a * b + c for one instruction. Each array holds this thread's values in the order of
  // mode 1 of the operand's TV layout; d may be the same array as c.
  STRATA_HOST_DEVICE static void call(FragmentC (&d)[num_values_c], FragmentA const (&a)[num_values_a],
                                      FragmentB const (&b)[num_values_b], FragmentC const (&c)[num_values_c]) {
    if constexpr (requires { Traits::call(d, a, b, c); }) {
      Traits::call(d, a, b, c);
    } else {
      typename Op::ARegisters ra;
      typename Op::BRegisters rb;
      typename Op::CRegisters rc;
      typename Op::DRegisters rd;
      detail::copy_bytes(ra, a);
      detail::copy_bytes(rb, b);
      detail::copy_bytes(rc, c);
      Op::fma(rd, ra, rb, rc);
      detail::copy_bytes(d, rd);
    }
  }
};

template <class T>
struct is_mma_atom : std::false_type {};
template <class Op>
struct is_mma_atom<MmaAtom<Op>> : std::true_type {};

// ---- UniversalFma: one thread, one multiply-add ------------------------------------------------

// The 1 x 1 x 1 "instruction" every processor has: d = a * b + c in the types given. Tiled over
// threads and values it makes a CUDA-core GEMM, and it runs on the host too, so TiledMMA can be
// exercised without tensor cores.
template <class TA, class TB = TA, class TC = TA>
struct UniversalFma {
  static constexpr int M = 1, N = 1, K = 1;
  using ElementA = TA;
  using ElementB = TB;
  using ElementC = TC;
  using ARegisters = TA[1];
  using BRegisters = TB[1];
  using CRegisters = TC[1];
  using DRegisters = TC[1];
  STRATA_HOST_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) {
    d[0] = static_cast<TC>(a[0] * b[0] + c[0]);
  }
};

template <class TA, class TB, class TC>
struct MmaTraits<UniversalFma<TA, TB, TC>> {
  using ElementA = TA;
  using ElementB = TB;
  using ElementC = TC;
  using ShapeMNK = Shape<_1, _1, _1>;
  using ThrID = Layout<_1>;
  using LayoutA_TV = Layout<Shape<_1, _1>>;
  using LayoutB_TV = Layout<Shape<_1, _1>>;
  using LayoutC_TV = Layout<Shape<_1, _1>>;
};

}  // namespace strata
