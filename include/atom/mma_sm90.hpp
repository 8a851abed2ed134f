// Strata floor 2: the Hopper (sm_90a) wgmma MMA atoms.
//
// One atom is one wgmma.mma_async of atom/arch/sm90_wgmma.hpp, issued by a warpgroup: ThrID is
// Layout<_128>, the tile 64 x N x K. Its layouts, in the conventions of mma_atom.hpp (A -> m + 64k,
// B -> n + Nk, C -> m + 64n), read off the PTX ISA's "Register Fragments" figures for wgmma,
// written in the lane's two variables as for mma.sync plus the warp w of the warpgroup,
//
//   thread = 32 w + lane,   g = lane / 4 (0..7),   t = lane % 4 (0..3),
//
// so every thread mode is (4, 8, 4): t, g, w. Each warp owns 16 rows (16 w + g and + 8).
//
//   C/D (N/2 values):  row 16w + g + 8 ((i/2)%2),  col 8 (i/4) + 2t + i%2
//   A, 16-bit RS (8):  row 16w + g + 8 ((i/2)%2),  col 8 (i/4) + 2t + i%2      (C's layout at N = 16)
//   A, tf32 RS (4):    row 16w + g + 8 (i%2),      col 4 (i/2) + t
//   A, 8-bit RS (16):  row 16w + g + 8 ((i/4)%2),  col 16 (i/8) + 4t + i%4
//
// A and B in shared memory are not held by threads: the instruction reads them through one 64-bit
// descriptor per operand tile (atom/gmma_desc_sm90.hpp). Their TV layout is one value per thread,
// the tile's origin, and the fragment type is GmmaDescriptor: partition_A(sA) is then the atoms'
// first elements and make_gmma_desc_fragment_A turns them into descriptors.
//
//   auto mma = make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<256>{}, Layout<Shape<_2, _1, _1>>{});  // 128 x 256
//   auto thr = mma.get_slice(threadIdx.x);                     // 256 threads: two warpgroups along M
//   auto tCrA = make_gmma_desc_fragment_A(thr, sA);            // (1, MMA_M, MMA_K) descriptors
//   auto tCrB = make_gmma_desc_fragment_B(thr, sB);
//   auto acc = thr.partition_fragment_C(gC);                   // (N/2, MMA_M, MMA_N) floats
//   arch::wgmma_fence();
//   wgmma_gemm(mma, tCrA, tCrB, acc, arch::WgmmaScaleD::overwrite);
//   arch::wgmma_commit_group();
//   arch::wgmma_wait_group<0>();
//   wgmma_fence_operands(acc);                                 // reads of acc stay after the wait
#pragma once

#include <cstring>
#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/tensor.hpp"
#include "arch/sm90_wgmma.hpp"
#include "gmma_desc_sm90.hpp"
#include "mma_atom.hpp"
#include "tiled_mma.hpp"

namespace strata {

namespace sm90_layouts {

// C/D of m64nNk*: index m + 64n.  t -> col 2t: 128;  g -> row: 1;  w -> row 16w: 16;
//   i%2 -> col +1: 64;  (i/2)%2 -> row +8: 8;  i/4 -> col +8: 512.
template <int N>
using C_64xN = Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2, Int<N / 8>>>, Stride<Stride<_128, _1, _16>, Stride<_64, _8, _512>>>;

// A of m64nNk16 in registers, 16-bit: the same strides as C over 64 x 16 (index m + 64k).
using A_64x16 = C_64xN<16>;

// A of m64nNk8 in registers, tf32: index m + 64k.  t -> col t: 64;  g -> 1;  w -> 16;
//   i%2 -> row +8: 8;  i/2 -> col +4: 256.
using A_64x8_tf32 = Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2>>, Stride<Stride<_64, _1, _16>, Stride<_8, _256>>>;

// A of m64nNk32 in registers, 8-bit: index m + 64k.  t -> col 4t: 256;  g -> 1;  w -> 16;
//   i%4 -> col +1: 64;  (i/4)%2 -> row +8: 8;  i/8 -> col +16: 1024.
using A_64x32_8bit =
    Layout<Shape<Shape<_4, _8, _4>, Shape<_4, _2, _2>>, Stride<Stride<_256, _1, _16>, Stride<_64, _8, _1024>>>;

// An operand read through a descriptor: every thread "holds" the tile's origin, as one value.
using Descriptor_TV = Layout<Shape<_128, _1>, Stride<_0, _0>>;

}  // namespace sm90_layouts

namespace detail {

template <class Op>
inline constexpr bool is_wgmma_rs_v = requires { typename Op::ARegisters; };

// What every wgmma atom shares: a warpgroup, the instruction's shape and types, C's layout; A by
// descriptor (SS) or in registers (RS, with the layout given), B by descriptor.
template <class Op, class A_TV>
struct Sm90MmaTraits {
  using ElementA = typename Op::ElementA;
  using ElementB = typename Op::ElementB;
  using ElementC = typename Op::ElementC;
  using FragmentB = GmmaDescriptor;
  using ShapeMNK = Shape<_64, Int<Op::N>, Int<Op::K>>;
  using ThrID = Layout<_128>;
  using LayoutA_TV = A_TV;
  using LayoutB_TV = sm90_layouts::Descriptor_TV;
  using LayoutC_TV = sm90_layouts::C_64xN<Op::N>;
  static constexpr int num_values_c = Op::N / 2;

  // This thread's registers of D in the instruction's order, from the fragment's values: f32 ones
  // are the registers; f16 ones pair up, the even value in the low half.
  template <class FragC>
  STRATA_DEVICE static void fma(FragC (&d)[num_values_c], typename Op::DRegisters* regs, auto const& a,
                                GmmaDescriptor const& b, arch::WgmmaScaleD scale_d) {
    if constexpr (std::is_same_v<FragC, float>) {
      Op::fma(*regs, a, b.desc, scale_d);
    } else {
      typename Op::DRegisters packed;
      std::memcpy(&packed, &d[0], sizeof(packed));
      Op::fma(packed, a, b.desc, scale_d);
      std::memcpy(&d[0], &packed, sizeof(packed));
    }
  }

  // d = a * b + c: one wgmma, accumulating (d may be c). The caller fences and waits.
  template <class FragA, class FragC>
  STRATA_HOST_DEVICE static void call(FragC (&d)[num_values_c], FragA const (&a)[decltype(size<1>(A_TV{}))::value],
                                      GmmaDescriptor const (&b)[1], FragC const (&c)[num_values_c]) {
#if defined(__CUDA_ARCH__)
    if (&d[0] != &c[0]) {
      for (int v = 0; v < num_values_c; ++v) d[v] = c[v];
    }
    issue(d, a, b[0], arch::WgmmaScaleD::accumulate);
#else
    (void)d, (void)a, (void)b, (void)c;
#endif
  }

  // One wgmma on the values of one atom: SS takes a's one descriptor, RS packs a's values into
  // the four registers of A, low half (byte) first.
  template <class FragA, int VA, class FragC>
  STRATA_DEVICE static void issue(FragC (&d)[num_values_c], FragA const (&a)[VA], GmmaDescriptor const& b,
                                  arch::WgmmaScaleD scale_d) {
    auto* regs = reinterpret_cast<typename Op::DRegisters*>(&d[0]);
    if constexpr (is_wgmma_rs_v<Op>) {
      static_assert(sizeof(a) == 16, "wgmma RS: the A fragment of one atom fills four 32-bit registers");
      typename Op::ARegisters ra;
      std::memcpy(&ra, &a[0], sizeof(ra));
      fma(d, regs, ra, b, scale_d);
    } else {
      fma(d, regs, a[0].desc, b, scale_d);
    }
  }
};

template <class Op>
struct Sm90SSTraits : Sm90MmaTraits<Op, sm90_layouts::Descriptor_TV> {
  using FragmentA = GmmaDescriptor;
};

template <class Op>
using sm90_rs_a_layout_t = std::conditional_t<
    Op::K == 16, sm90_layouts::A_64x16,
    std::conditional_t<Op::K == 8, sm90_layouts::A_64x8_tf32, sm90_layouts::A_64x32_8bit>>;

template <class Op>
struct Sm90RSTraits : Sm90MmaTraits<Op, sm90_rs_a_layout_t<Op>> {};

}  // namespace detail

template <int N, class T16, GmmaMajor MA, GmmaMajor MB>
struct MmaTraits<arch::Wgmma_m64nNk16_f32_16bit_SS<N, T16, MA, MB>>
    : detail::Sm90SSTraits<arch::Wgmma_m64nNk16_f32_16bit_SS<N, T16, MA, MB>> {};
template <int N, GmmaMajor MA, GmmaMajor MB>
struct MmaTraits<arch::Wgmma_m64nNk16_f16_f16_f16_SS<N, MA, MB>>
    : detail::Sm90SSTraits<arch::Wgmma_m64nNk16_f16_f16_f16_SS<N, MA, MB>> {};
template <int N>
struct MmaTraits<arch::Wgmma_m64nNk8_f32_tf32_tf32_SS<N>> : detail::Sm90SSTraits<arch::Wgmma_m64nNk8_f32_tf32_tf32_SS<N>> {};
template <int N, class TA, class TB>
struct MmaTraits<arch::Wgmma_m64nNk32_f32_fp8_SS<N, TA, TB>>
    : detail::Sm90SSTraits<arch::Wgmma_m64nNk32_f32_fp8_SS<N, TA, TB>> {};

template <int N, class T16, GmmaMajor MB>
struct MmaTraits<arch::Wgmma_m64nNk16_f32_16bit_RS<N, T16, MB>>
    : detail::Sm90RSTraits<arch::Wgmma_m64nNk16_f32_16bit_RS<N, T16, MB>> {};
template <int N, GmmaMajor MB>
struct MmaTraits<arch::Wgmma_m64nNk16_f16_f16_f16_RS<N, MB>>
    : detail::Sm90RSTraits<arch::Wgmma_m64nNk16_f16_f16_f16_RS<N, MB>> {};
template <int N>
struct MmaTraits<arch::Wgmma_m64nNk8_f32_tf32_tf32_RS<N>> : detail::Sm90RSTraits<arch::Wgmma_m64nNk8_f32_tf32_tf32_RS<N>> {};
template <int N, class TA, class TB>
struct MmaTraits<arch::Wgmma_m64nNk32_f32_fp8_RS<N, TA, TB>>
    : detail::Sm90RSTraits<arch::Wgmma_m64nNk32_f32_fp8_RS<N, TA, TB>> {};

// ---- the atoms, named as CuTe names them: SM90_64xNx<K>_<D><A><B>_{SS,RS} ---------------------

template <int N, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F32F16F16_SS = MmaAtom<arch::Wgmma_m64nNk16_f32_16bit_SS<N, __half, MajorA, MajorB>>;
template <int N, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F32BF16BF16_SS = MmaAtom<arch::Wgmma_m64nNk16_f32_16bit_SS<N, __nv_bfloat16, MajorA, MajorB>>;
template <int N, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F16F16F16_SS = MmaAtom<arch::Wgmma_m64nNk16_f16_f16_f16_SS<N, MajorA, MajorB>>;
template <int N>
using SM90_64xNx8_F32TF32TF32_SS = MmaAtom<arch::Wgmma_m64nNk8_f32_tf32_tf32_SS<N>>;
template <int N>
using SM90_64xNx32_F32E4M3E4M3_SS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_SS<N, __nv_fp8_e4m3, __nv_fp8_e4m3>>;
template <int N>
using SM90_64xNx32_F32E4M3E5M2_SS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_SS<N, __nv_fp8_e4m3, __nv_fp8_e5m2>>;
template <int N>
using SM90_64xNx32_F32E5M2E4M3_SS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_SS<N, __nv_fp8_e5m2, __nv_fp8_e4m3>>;
template <int N>
using SM90_64xNx32_F32E5M2E5M2_SS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_SS<N, __nv_fp8_e5m2, __nv_fp8_e5m2>>;

template <int N, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F32F16F16_RS = MmaAtom<arch::Wgmma_m64nNk16_f32_16bit_RS<N, __half, MajorB>>;
template <int N, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F32BF16BF16_RS = MmaAtom<arch::Wgmma_m64nNk16_f32_16bit_RS<N, __nv_bfloat16, MajorB>>;
template <int N, GmmaMajor MajorB = GmmaMajor::K>
using SM90_64xNx16_F16F16F16_RS = MmaAtom<arch::Wgmma_m64nNk16_f16_f16_f16_RS<N, MajorB>>;
template <int N>
using SM90_64xNx8_F32TF32TF32_RS = MmaAtom<arch::Wgmma_m64nNk8_f32_tf32_tf32_RS<N>>;
template <int N>
using SM90_64xNx32_F32E4M3E4M3_RS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_RS<N, __nv_fp8_e4m3, __nv_fp8_e4m3>>;
template <int N>
using SM90_64xNx32_F32E4M3E5M2_RS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_RS<N, __nv_fp8_e4m3, __nv_fp8_e5m2>>;
template <int N>
using SM90_64xNx32_F32E5M2E4M3_RS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_RS<N, __nv_fp8_e5m2, __nv_fp8_e4m3>>;
template <int N>
using SM90_64xNx32_F32E5M2E5M2_RS = MmaAtom<arch::Wgmma_m64nNk32_f32_fp8_RS<N, __nv_fp8_e5m2, __nv_fp8_e5m2>>;

// ---- descriptors for a TiledMMA's fragments -------------------------------------------------------

namespace detail {

template <class P>
inline constexpr bool is_plain_tiler_v = std::is_same_v<P, Underscore> || StaticInt<P>;

// Descriptors for every atom of one operand: `origins` is partition_X of the shared-memory
// tensor (the atoms' first elements), `frag` the matching descriptor fragment.
template <class T, GmmaMajor Major, int X, int Y, class Frag, class Origins, class Smem>
STRATA_DEVICE void fill_gmma_descriptors(Frag& frag, Origins const& origins, Smem const& smem) {
  static_assert(is_smem_v<std::remove_cvref_t<decltype(smem.data())>>,
                "make_gmma_desc_fragment: the operand must be a shared-memory tensor (make_smem_ptr)");
  const GmmaDescriptor fields = make_gmma_desc_fields<T, Major>(gmma_tile_layout<X, Y>(smem.layout()));
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(raw_pointer_cast(origins.data())));
  STRATA_UNROLL
  for (int i = 0; i < int(size(frag)); ++i) {
    uint32_t offset = uint32_t(unswizzled_offset(origins.layout(), i)) * uint32_t(sizeof(T));
    frag(i) = GmmaDescriptor{fields.desc | GmmaDescriptor::encode(base + offset)};
  }
}

template <class Mma>
STRATA_HD void check_gmma_permutation() {
  using P = typename Mma::Permutation;
  static_assert(is_plain_tiler_v<std::remove_cvref_t<decltype(get<0>(P{}))>> &&
                    is_plain_tiler_v<std::remove_cvref_t<decltype(get<1>(P{}))>> &&
                    is_plain_tiler_v<std::remove_cvref_t<decltype(get<2>(P{}))>>,
                "wgmma TiledMMA: a descriptor describes a contiguous block of rows, so the permutation may "
                "only be `_` or a tile size in each mode, not a layout");
}

}  // namespace detail

// make_gmma_desc_fragment_A(thr_mma, sA): the descriptors of this thread's atoms of A, a register
// tensor shaped like partition_fragment_A(sA), (1, MMA_M, MMA_K, rest...). sA is the (M, K, ...)
// shared-memory tile, laid out by make_gmma_smem_layout (or any layout a descriptor describes);
// its pointer aligned to the swizzle pattern. SS atoms only.
#if defined(__CUDACC__)
template <class ThrMma, class TensorA>
STRATA_DEVICE auto make_gmma_desc_fragment_A(ThrMma const& thr, TensorA const& sA) {
  using Atom = typename ThrMma::AtomType;
  using Op = typename Atom::Operation;
  static_assert(std::is_same_v<typename Atom::FragmentA, GmmaDescriptor>,
                "make_gmma_desc_fragment_A: the atom must read A from shared memory (an _SS atom)");
  detail::check_gmma_permutation<ThrMma>();
  auto frag = thr.partition_fragment_A(sA);
  detail::fill_gmma_descriptors<typename Atom::ElementA, Op::major_a, Atom::M, Atom::K>(frag, thr.partition_A(sA), sA);
  return frag;
}

// make_gmma_desc_fragment_B(thr_mma, sB): the same for B, sB (N, K, ...): (1, MMA_N, MMA_K, rest...).
template <class ThrMma, class TensorB>
STRATA_DEVICE auto make_gmma_desc_fragment_B(ThrMma const& thr, TensorB const& sB) {
  using Atom = typename ThrMma::AtomType;
  using Op = typename Atom::Operation;
  detail::check_gmma_permutation<ThrMma>();
  auto frag = thr.partition_fragment_B(sB);
  detail::fill_gmma_descriptors<typename Atom::ElementB, Op::major_b, Atom::N, Atom::K>(frag, thr.partition_B(sB), sB);
  return frag;
}

// ---- issuing --------------------------------------------------------------------------------------

// wgmma_gemm(tiled_mma, a, b, c, scale_d): c = a * b (+ c) on one thread's fragments, one wgmma per
// (m, n, k-block): a (V_A, MMA_M, MMA_K) descriptors (SS) or values (RS), b (1, MMA_N, MMA_K)
// descriptors, c (V_C, MMA_M, MMA_N) from partition_fragment_C; a and b may be one k-block,
// (V, MMA_M) and (V, MMA_N). The first k-block overwrites c or accumulates into it as scale_d
// says; later ones accumulate. Only the wgmma are issued: wgmma_fence() before, and
// wgmma_commit_group() / wgmma_wait_group<N>() after, are the caller's.
template <TiledMma Mma, class TA, class TB, class TC>
STRATA_DEVICE void wgmma_gemm(Mma const&, TA const& a, TB const& b, TC&& c, arch::WgmmaScaleD scale_d) {
  using Atom = typename std::remove_cvref_t<Mma>::AtomType;
  using Traits = typename Atom::Traits;
  constexpr int VA = Atom::num_values_a, VC = Atom::num_values_c;
  constexpr int RA = decltype(rank(a.layout()))::value, RB = decltype(rank(b.layout()))::value;
  static_assert(((RA == 3 && RB == 3) || (RA == 2 && RB == 2)) && decltype(rank(c.layout()))::value == 3,
                "wgmma_gemm: fragments must be a (V, MMA_M, MMA_K), b (V, MMA_N, MMA_K), c (V, MMA_M, MMA_N); "
                "a and b may drop their K mode together");
  static_assert(std::is_same_v<decltype(coalesce(layout<0>(c.layout()))), Layout<Int<VC>, _1>>,
                "wgmma_gemm: one atom's accumulators must be contiguous (use partition_fragment_C)");
  static_assert(std::is_same_v<decltype(coalesce(layout<0>(a.layout()))), Layout<Int<VA>, _1>> ||
                    decltype(size<0>(a.layout()))::value == 1,
                "wgmma_gemm: one atom's A values must be contiguous (use partition_fragment_A)");
  const int num_m = size<1>(a.layout()), num_n = size<1>(b.layout());
  const int num_k = [&] {
    if constexpr (RA == 3) { return int(size<2>(a.layout())); } else { return 1; }
  }();
  using FragA = typename Atom::FragmentA;
  using FragC = typename Atom::FragmentC;
  STRATA_UNROLL
  for (int k = 0; k < num_k; ++k) {
    const arch::WgmmaScaleD scale = k == 0 ? scale_d : arch::WgmmaScaleD::accumulate;
    STRATA_UNROLL
    for (int m = 0; m < num_m; ++m) {
      auto const& fa = *reinterpret_cast<FragA const(*)[VA]>(&detail::fragment_at(a, 0, m, k));
      STRATA_UNROLL
      for (int step = 0; step < num_n; ++step) {
        const int n = (m % 2 == 0) ? step : num_n - 1 - step;  // serpentine, as gemm(tiled_mma, ...)
        auto& fc = *reinterpret_cast<FragC(*)[VC]>(&c(0, m, n));
        Traits::issue(fc, fa, detail::fragment_at(b, 0, n, k), scale);
      }
    }
  }
}

// wgmma_fence_operands(fragment): wgmma_fence_operand on every register of a register tensor, so
// the compiler moves no access of it across the wgmma fence or wait next to this call.
template <class T>
STRATA_DEVICE void wgmma_fence_operands(T&& fragment) {
  using V = typename std::remove_cvref_t<T>::value_type;
  static_assert(sizeof(V) == 4 || sizeof(V) == 2, "wgmma_fence_operands: 32-bit or 16-bit registers");
  STRATA_UNROLL
  for (int i = 0; i < int(size(fragment)); ++i) {
    if constexpr (std::is_same_v<V, float>) {
      arch::wgmma_fence_operand(fragment(i));
    } else if constexpr (sizeof(V) == 4) {
      arch::wgmma_fence_operand(*reinterpret_cast<uint32_t*>(&fragment(i)));
    } else {
      arch::wgmma_fence_operand(*reinterpret_cast<uint16_t*>(&fragment(i)));
    }
  }
}
#endif

}  // namespace strata
