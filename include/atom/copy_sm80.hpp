// Strata floor 2: the Ampere (sm_80) copy atoms — the traits that give the raw instructions of
// arch/ their thread–value layouts.
//
//   CopyAtom<arch::UniversalCopy<16>, T>      one thread moves 16 bytes (ld/st.128), any memory
//   CopyAtom<arch::CpAsync16_cg, T>           cp.async, global -> shared, 16 bytes (also 4/8, .ca)
//   CopyAtom<arch::CpAsyncZfill16_cg, T>      the same, zero-filling where copy_if's predicate is false
//   CopyAtom<arch::CpAsyncZfillBytes16_cg, T> the same, reading a byte count per call (copy_bytes)
//   CopyAtom<arch::CopyChunkAnyAlignment<E>, T> 16 bytes from a source aligned only to E bytes
//   CopyAtom<arch::Ldsm_x4, T>                ldmatrix: a warp loads four 8x8 16-bit matrices
//   CopyAtom<arch::Ldsm_x4_trans, T>          the same, each matrix transposed on the way
//
// Layouts are in bits (copy_atom.hpp says why). The footprint of a one-thread copy is its B bytes.
// The footprint of ldmatrix .xN is N matrices of 8 rows of 128 bits (8 16-bit elements), stored
// row after row, matrix after matrix: bit 1024*j + 128*r + b is bit b of row r of matrix j.
// Facts from the PTX ISA ("ldmatrix", "Matrix fragments for ldmatrix"):
//   - each thread in a group of 8 provides the address of one row: threads 8j..8j+7 give rows
//     0..7 of matrix j; for .x1 only threads 0-7 and for .x2 only 0-15 are read, the others'
//     addresses are ignored (here: they repeat the rows of threads t mod 8N, so every thread's
//     address stays a valid one);
//   - thread t receives, in register j, row t/4, elements 2(t%4) and 2(t%4)+1 of matrix j;
//   - with .trans it receives column t/4, elements (rows) 2(t%4) and 2(t%4)+1 instead.
// In a TiledCopy ldmatrix is described by its destination (RefLayout = DstLayout): the tile's TV
// layout is the MMA fragment the registers must form, and each thread's row address follows.
#pragma once

#include <cstdint>
#include <type_traits>

#include "arch/sm80.hpp"
#include "arch/universal_copy.hpp"
#include "copy_atom.hpp"

namespace strata {

namespace detail {

// One thread moving `Bytes` bytes: its bits are the footprint, in order, on both sides.
template <int Bytes>
struct OneThreadCopyLayouts {
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, Int<8 * Bytes>>, Stride<_0, _1>>;
  using DstLayout = SrcLayout;
  using RefLayout = SrcLayout;
};

template <class Operand>
inline constexpr bool operand_in_smem_v = is_smem_v<std::remove_cvref_t<typename Operand::tensor_type::iterator>>;
template <class Operand>
inline constexpr bool operand_in_gmem_v = is_gmem_v<std::remove_cvref_t<typename Operand::tensor_type::iterator>>;

// cp.async reads global memory and writes shared memory; a pointer without a memory tag is
// trusted, one tagged for the wrong memory is refused.
template <class Src, class Dst>
constexpr void check_cp_async_operands() {
  static_assert(!Src::in_registers && !operand_in_smem_v<Src>,
                "cp.async: the source must be in global memory (a gmem_ptr or an untagged pointer)");
  static_assert(!Dst::in_registers && !operand_in_gmem_v<Dst>,
                "cp.async: the destination must be in shared memory (an smem_ptr or an untagged pointer)");
}

}  // namespace detail

// ---- one thread, any memory: ld/st of 1, 2, 4, 8 or 16 bytes ----------------------------------

// Either side may be a register fragment (its values are packed into the register first), so the
// same atom loads gmem -> registers, stores registers -> gmem, or copies memory -> memory.
template <int Bytes>
struct CopyTraits<arch::UniversalCopy<Bytes>> : detail::OneThreadCopyLayouts<Bytes> {
  using Operation = arch::UniversalCopy<Bytes>;
  template <class Src, class Dst>
  STRATA_HOST_DEVICE static void copy(Src const& src, Dst const& dst) {
    typename Operation::Register staged_src, staged_dst;
    void const* s = detail::source_address(src, staged_src);
    void* d = detail::destination_address(dst, staged_dst);
    Operation::copy(s, d);
    detail::finish_destination(dst, staged_dst);
  }
};

// ---- cp.async: global -> shared, no registers -------------------------------------------------

// Completes asynchronously: the issuing thread must cp_async_commit() and cp_async_wait<N>(),
// and the CTA must __syncthreads(), before anyone reads the destination.
template <int Bytes, arch::CacheLevel Level>
struct CopyTraits<arch::CpAsync<Bytes, Level>> : detail::OneThreadCopyLayouts<Bytes> {
  using Operation = arch::CpAsync<Bytes, Level>;
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    detail::check_cp_async_operands<Src, Dst>();
    Operation::copy(src.address(), dst.address());
  }
};

// Zero-fill: copy_if(atom, pred, src, dst) hands each call its predicate; where it is false the
// instruction reads nothing (the source address may lie outside the matrix) and writes Bytes
// zeros, so a hanging tile's shared memory holds zeros past the matrix's edge and the MMA can run
// over the whole tile unchanged. Unpredicated copy() copies everything.
template <int Bytes, arch::CacheLevel Level>
struct CopyTraits<arch::CpAsyncZfill<Bytes, Level>> : detail::OneThreadCopyLayouts<Bytes> {
  using Operation = arch::CpAsyncZfill<Bytes, Level>;
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst, bool copy_source) {
    detail::check_cp_async_operands<Src, Dst>();
    Operation::copy(src.address(), dst.address(), copy_source);
  }
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    copy(src, dst, true);
  }
};

// Byte count: copy(src, dst, int bytes) reads the first `bytes` of the footprint and zero-fills the
// rest (what copy_bytes hands each call); copy(src, dst, bool) is the predicated form (all or
// nothing), so copy_if works too; unpredicated copy() copies everything.
template <int Bytes, arch::CacheLevel Level>
struct CopyTraits<arch::CpAsyncZfillBytes<Bytes, Level>> : detail::OneThreadCopyLayouts<Bytes> {
  using Operation = arch::CpAsyncZfillBytes<Bytes, Level>;
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst, int source_bytes) {
    detail::check_cp_async_operands<Src, Dst>();
    Operation::copy(src.address(), dst.address(), source_bytes);
  }
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst, bool copy_source) {
    copy(src, dst, copy_source ? Bytes : 0);
  }
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    copy(src, dst, Bytes);
  }
};

// The same footprint and calls from a source of any element alignment (arch::CopyChunkAnyAlignment
// picks the instruction width per call at run time).
template <int ElementBytes>
struct CopyTraits<arch::CopyChunkAnyAlignment<ElementBytes>> : detail::OneThreadCopyLayouts<16> {
  using Operation = arch::CopyChunkAnyAlignment<ElementBytes>;
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst, int source_bytes) {
    detail::check_cp_async_operands<Src, Dst>();
    Operation::copy(src.address(), dst.address(), source_bytes);
  }
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst, bool copy_source) {
    copy(src, dst, copy_source ? 16 : 0);
  }
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    copy(src, dst, 16);
  }
};

// ---- ldmatrix: shared -> registers, warp-wide --------------------------------------------------

namespace detail {
// Thread t supplies row t mod 8N: 128 bits at 128 * (t mod 8N).
template <int N>
using LdsmSrcLayout = Layout<Shape<Shape<Int<8 * N>, Int<4 / N>>, _128>, Stride<Stride<_128, _0>, _1>>;
// Thread t receives bits 32t..32t+31 of each matrix: row t/4, elements 2(t%4), 2(t%4)+1.
template <int N>
using LdsmDstLayout = Layout<Shape<_32, Shape<_32, Int<N>>>, Stride<_32, Stride<_1, _1024>>>;
// Transposed: thread t = t0 + 4*t1 receives rows 2*t0 + e (e = 0, 1) of column t1, each 16 bits:
// bit 128*(2*t0 + e) + 16*t1 + b of each matrix.
template <int N>
using LdsmTransDstLayout =
    Layout<Shape<Shape<_4, _8>, Shape<_16, _2, Int<N>>>, Stride<Stride<_256, _16>, Stride<_1, _128, _1024>>>;
}  // namespace detail

template <int N, bool Transpose>
struct CopyTraits<arch::Ldsm<N, Transpose>> {
  using Operation = arch::Ldsm<N, Transpose>;
  using ThrID = Layout<_32>;
  using SrcLayout = detail::LdsmSrcLayout<N>;
  using DstLayout = std::conditional_t<Transpose, detail::LdsmTransDstLayout<N>, detail::LdsmDstLayout<N>>;
  using RefLayout = DstLayout;

  // Every lane of the warp must call it together (it is .sync.aligned).
  template <class Src, class Dst>
  STRATA_DEVICE static void copy(Src const& src, Dst const& dst) {
    static_assert(!Src::in_registers && !detail::operand_in_gmem_v<Src>,
                  "ldmatrix: the source must be in shared memory (an smem_ptr or an untagged pointer)");
    static_assert(Dst::in_registers, "ldmatrix: the destination must be a register fragment");
    std::uint32_t regs[N];
    Operation::copy(src.address(), regs);
    detail::unpack_values(dst, regs);
  }
};

}  // namespace strata
