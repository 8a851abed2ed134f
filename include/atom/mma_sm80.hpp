// Strata floor 2: the Ampere (sm_80) tensor-core MMA atoms.
//
// Each atom is `MmaAtom<arch::Mma_...>` with its TV layouts read off the PTX ISA's tables
// "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32 / m8n8k4". The ISA writes every table
// in the same two variables of the lane,
//
//   g = groupID = lane / 4  (0..7),   t = threadID_in_group = lane % 4  (0..3),
//
// so every layout's thread mode is (4, 8): t first (the fast digit of the lane), then g. Its
// strides say where t and g move in the tile; the value mode lists, digit by digit, how the
// value index i moves. Each stride below is derived in its comment from the ISA's row/column
// formula; test/atom/mma_atom_test.cpp checks every (lane, i) against those formulas.
//
// Index conventions (mma_atom.hpp): A -> m + M*k, B -> n + N*k, C/D -> m + M*n. "row.col" in
// the instruction means A is K-contiguous per row and B is K-contiguous per column, which is why
// these are named _TN (both operands K-major), as in CuTe.
#pragma once

#include "arch/sm80.hpp"
#include "mma_atom.hpp"

namespace strata {

namespace sm80_layouts {

// C/D of every m16n8 shape: row = g + 8*(i/2), col = 2t + i%2; index m + 16n.
//   t -> col 2t: stride 32;  g -> row g: stride 1;  i%2 -> col +1: 16;  i/2 -> row +8: 8.
using C_16x8 = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8>>>;

// A of m16n8k16 (16-bit): row = g + 8*((i/2)%2), col = 2t + i%2 + 8*(i/4); index m + 16k.
//   t -> col 2t: 32;  g -> 1;  i%2 -> col +1: 16;  (i/2)%2 -> row +8: 8;  i/4 -> col +8: 128.
using A_16x16 =
    Layout<Shape<Shape<_4, _8>, Shape<_2, _2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8, _128>>>;

// B of m16n8k16 (16-bit): row(k) = 2t + i%2 + 8*(i/2), col(n) = g; index n + 8k.
//   t -> k 2t: 16;  g -> n: 1;  i%2 -> k +1: 8;  i/2 -> k +8: 64.
using B_8x16 = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_16, _1>, Stride<_8, _64>>>;

// A of m16n8k8 tf32: row = g + 8*(i%2), col = t + 4*(i/2); index m + 16k.
//   t -> col t: 16;  g -> 1;  i%2 -> row +8: 8;  i/2 -> col +4: 64.
using A_16x8_tf32 = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_16, _1>, Stride<_8, _64>>>;

// B of m16n8k8 tf32: row(k) = t + 4*i, col(n) = g; index n + 8k.
//   t -> k t: 8;  g -> 1;  i -> k +4: 32.
using B_8x8_tf32 = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_8, _1>, _32>>;

// A of m16n8k32 8-bit: row = g + 8*((i/4)%2), col = 4t + i%4 + 16*(i/8); index m + 16k.
//   t -> col 4t: 64;  g -> 1;  i%4 -> col +1: 16;  (i/4)%2 -> row +8: 8;  i/8 -> col +16: 256.
using A_16x32_s8 =
    Layout<Shape<Shape<_4, _8>, Shape<_4, _2, _2>>, Stride<Stride<_64, _1>, Stride<_16, _8, _256>>>;

// B of m16n8k32 8-bit: row(k) = 4t + i%4 + 16*(i/4), col(n) = g; index n + 8k.
//   t -> k 4t: 32;  g -> 1;  i%4 -> k +1: 8;  i/4 -> k +16: 128.
using B_8x32_s8 = Layout<Shape<Shape<_4, _8>, Shape<_4, _2>>, Stride<Stride<_32, _1>, Stride<_8, _128>>>;

// m8n8k4 f64 -- A: row g, col t; index m + 8k: t -> 8, g -> 1, one value.
//               B: row(k) t, col(n) g; index n + 8k: t -> 8, g -> 1, one value.
//               C: row g, col 2t + i; index m + 8n: t -> 16, g -> 1, i -> 8.
using AB_8x4_f64 = Layout<Shape<Shape<_4, _8>, _1>, Stride<Stride<_8, _1>, _0>>;
using C_8x8_f64 = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_16, _1>, _8>>;

}  // namespace sm80_layouts

namespace detail {
// What every warp-wide mma.sync atom shares: 32 threads, the lane is the thread, the shape and
// element types come from the instruction wrapper.
template <class Op, class A_TV, class B_TV, class C_TV>
struct Sm80MmaTraits {
  using ElementA = typename Op::ElementA;
  using ElementB = typename Op::ElementB;
  using ElementC = typename Op::ElementC;
  using ShapeMNK = Shape<Int<Op::M>, Int<Op::N>, Int<Op::K>>;
  using ThrID = Layout<_32>;
  using LayoutA_TV = A_TV;
  using LayoutB_TV = B_TV;
  using LayoutC_TV = C_TV;
};
}  // namespace detail

template <>
struct MmaTraits<arch::Mma_m16n8k16_f32_f16_f16_f32>
    : detail::Sm80MmaTraits<arch::Mma_m16n8k16_f32_f16_f16_f32, sm80_layouts::A_16x16, sm80_layouts::B_8x16,
                            sm80_layouts::C_16x8> {};
template <>
struct MmaTraits<arch::Mma_m16n8k16_f32_bf16_bf16_f32>
    : detail::Sm80MmaTraits<arch::Mma_m16n8k16_f32_bf16_bf16_f32, sm80_layouts::A_16x16, sm80_layouts::B_8x16,
                            sm80_layouts::C_16x8> {};
// Half accumulators: the same positions as f32 ones, two to a register (c0,c1 | c2,c3).
template <>
struct MmaTraits<arch::Mma_m16n8k16_f16_f16_f16_f16>
    : detail::Sm80MmaTraits<arch::Mma_m16n8k16_f16_f16_f16_f16, sm80_layouts::A_16x16, sm80_layouts::B_8x16,
                            sm80_layouts::C_16x8> {};
template <>
struct MmaTraits<arch::Mma_m16n8k8_f32_tf32_tf32_f32>
    : detail::Sm80MmaTraits<arch::Mma_m16n8k8_f32_tf32_tf32_f32, sm80_layouts::A_16x8_tf32,
                            sm80_layouts::B_8x8_tf32, sm80_layouts::C_16x8> {};
template <>
struct MmaTraits<arch::Mma_m16n8k32_s32_s8_s8_s32>
    : detail::Sm80MmaTraits<arch::Mma_m16n8k32_s32_s8_s8_s32, sm80_layouts::A_16x32_s8, sm80_layouts::B_8x32_s8,
                            sm80_layouts::C_16x8> {};
template <>
struct MmaTraits<arch::Mma_m8n8k4_f64_f64_f64_f64>
    : detail::Sm80MmaTraits<arch::Mma_m8n8k4_f64_f64_f64_f64, sm80_layouts::AB_8x4_f64, sm80_layouts::AB_8x4_f64,
                            sm80_layouts::C_8x8_f64> {};

// The atoms, named as CuTe names them: SM80_<M>x<N>x<K>_<D><A><B><C>_TN.
using SM80_16x8x16_F32F16F16F32_TN = MmaAtom<arch::Mma_m16n8k16_f32_f16_f16_f32>;
using SM80_16x8x16_F32BF16BF16F32_TN = MmaAtom<arch::Mma_m16n8k16_f32_bf16_bf16_f32>;
using SM80_16x8x16_F16F16F16F16_TN = MmaAtom<arch::Mma_m16n8k16_f16_f16_f16_f16>;
using SM80_16x8x8_F32TF32TF32F32_TN = MmaAtom<arch::Mma_m16n8k8_f32_tf32_tf32_f32>;
using SM80_16x8x32_S32S8S8S32_TN = MmaAtom<arch::Mma_m16n8k32_s32_s8_s8_s32>;
using SM80_8x8x4_F64F64F64F64_TN = MmaAtom<arch::Mma_m8n8k4_f64_f64_f64_f64>;

}  // namespace strata
