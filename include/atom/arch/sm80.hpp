// Strata floor 2: the raw Ampere (sm_80) instructions a GEMM is made of, one inline-PTX wrapper each:
// cp.async (global -> shared without registers), ldmatrix (shared -> MMA fragments) and the
// warp-wide mma.sync tensor-core operations. The atom layer above gives them thread-value layouts;
// here they are only instructions with their operand registers spelled out as the PTX ISA does.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../../layout/config.hpp"

// Device passes for an architecture below sm_80 still compile these wrappers, because a fat binary
// may carry older code next to the sm_80 one; reaching a wrapper there is a bug, so it traps
// instead of silently computing nothing. The host pass only needs the declarations.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define STRATA_ARCH_SM80_ENABLED 1
#endif
#if defined(__CUDA_ARCH__)
#define STRATA_ARCH_SM80_UNSUPPORTED() __trap()
#else
#define STRATA_ARCH_SM80_UNSUPPORTED() ((void)0)
#endif

namespace strata::arch {

// ---------------------------------------------------------------------------------------------
// cp.async: each thread copies 4, 8 or 16 bytes from global to shared memory asynchronously.
// Copies issued since the last commit form a group; wait_group N blocks until at most N of this
// thread's groups are still in flight. Other threads see the data only after a barrier.
// ---------------------------------------------------------------------------------------------

// Where the copied line is cached on its way: .ca keeps it in L1 and L2 (operands that neighbours
// re-read), .cg only in L2 (GEMM tiles, read once per CTA; spares L1 for other data).
enum class CacheLevel { All, Global };

namespace detail {
// cp.async names its shared operand by a 32-bit shared-window address and its global operand by
// a global-window address; generic pointers must be converted first (the ISA leaves a generic
// address in a .global operand undefined even though the windows coincide on current GPUs).
// Without nvcc (a host compiler reading these headers for the atoms' layouts, as the host-only
// atom tests do) the conversions do not exist, nor is any of this ever called.
STRATA_DEVICE __forceinline__ uint32_t shared_address(const void* smem_ptr) {
#if defined(__CUDACC__)
  return static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
#else
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(smem_ptr));
#endif
}
STRATA_DEVICE __forceinline__ uint64_t global_address(const void* gmem_ptr) {
#if defined(__CUDACC__)
  return static_cast<uint64_t>(__cvta_generic_to_global(gmem_ptr));
#else
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(gmem_ptr));
#endif
}
}  // namespace detail

// Copies `Bytes` bytes from `gmem_src` to `smem_dst`; both aligned to `Bytes`.
template <int Bytes, CacheLevel Level = CacheLevel::All>
STRATA_DEVICE __forceinline__ void cp_async(void* smem_dst, const void* gmem_src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp_async: the copy size must be 4, 8 or 16 bytes");
  static_assert(Level == CacheLevel::All || Bytes == 16,
                "cp_async: CacheLevel::Global (.cg) exists only for 16-byte copies");
#if defined(STRATA_ARCH_SM80_ENABLED)
  const uint32_t dst = detail::shared_address(smem_dst);
  const uint64_t src = detail::global_address(gmem_src);
  if constexpr (Level == CacheLevel::Global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes) : "memory");
  }
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// As cp_async, but when `copy_source` is false nothing is read from global memory and `Bytes`
// zeros are written instead (src-size 0). This is how a tile's out-of-bounds part is filled
// without a branch around the copy; `gmem_src` need not point at readable memory then.
template <int Bytes, CacheLevel Level = CacheLevel::All>
STRATA_DEVICE __forceinline__ void cp_async_zfill(void* smem_dst, const void* gmem_src, bool copy_source) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp_async_zfill: the copy size must be 4, 8 or 16 bytes");
  static_assert(Level == CacheLevel::All || Bytes == 16,
                "cp_async_zfill: CacheLevel::Global (.cg) exists only for 16-byte copies");
#if defined(STRATA_ARCH_SM80_ENABLED)
  const uint32_t dst = detail::shared_address(smem_dst);
  const uint64_t src = detail::global_address(gmem_src);
  const uint32_t source_bytes = copy_source ? Bytes : 0;
  if constexpr (Level == CacheLevel::Global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(source_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(Bytes),
                 "r"(source_bytes)
                 : "memory");
  }
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// As cp_async_zfill with a byte count: the first `source_bytes` (0..Bytes) bytes are read and the
// rest of the `Bytes` are zero-filled (src-size), so a chunk hanging over a matrix's edge copies
// what exists and zeros beyond. `gmem_src` is not read when source_bytes == 0.
template <int Bytes, CacheLevel Level = CacheLevel::All>
STRATA_DEVICE __forceinline__ void cp_async_zfill_bytes(void* smem_dst, const void* gmem_src, int source_bytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp_async_zfill_bytes: the copy size must be 4, 8 or 16 bytes");
  static_assert(Level == CacheLevel::All || Bytes == 16,
                "cp_async_zfill_bytes: CacheLevel::Global (.cg) exists only for 16-byte copies");
#if defined(STRATA_ARCH_SM80_ENABLED)
  const uint32_t dst = detail::shared_address(smem_dst);
  const uint64_t src = detail::global_address(gmem_src);
  if constexpr (Level == CacheLevel::Global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(source_bytes) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(Bytes), "r"(source_bytes)
                 : "memory");
  }
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// Closes the group of cp.async issued by this thread since the previous commit.
STRATA_DEVICE __forceinline__ void cp_async_commit() {
#if defined(STRATA_ARCH_SM80_ENABLED)
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// Blocks until at most `PendingGroups` of this thread's committed groups are still in flight:
// a multistage mainloop waits for the oldest stage while the newer ones keep loading.
template <int PendingGroups>
STRATA_DEVICE __forceinline__ void cp_async_wait() {
  static_assert(PendingGroups >= 0, "cp_async_wait: the number of groups left in flight cannot be negative");
#if defined(STRATA_ARCH_SM80_ENABLED)
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PendingGroups) : "memory");
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// Blocks until every cp.async of this thread has landed, committed or not.
STRATA_DEVICE __forceinline__ void cp_async_wait_all() {
#if defined(STRATA_ARCH_SM80_ENABLED)
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}

// Copy operations for the atom layer. Argument order is (source, destination) as for every copy
// operation in Strata; the free functions above keep the PTX order (destination, source).
template <int Bytes, CacheLevel Level>
struct CpAsync {
  static constexpr int CopyBytes = Bytes;
  static constexpr CacheLevel Cache = Level;
  STRATA_DEVICE static __forceinline__ void copy(const void* gmem_src, void* smem_dst) {
    cp_async<Bytes, Level>(smem_dst, gmem_src);
  }
};

template <int Bytes, CacheLevel Level>
struct CpAsyncZfill {
  static constexpr int CopyBytes = Bytes;
  static constexpr CacheLevel Cache = Level;
  STRATA_DEVICE static __forceinline__ void copy(const void* gmem_src, void* smem_dst, bool copy_source) {
    cp_async_zfill<Bytes, Level>(smem_dst, gmem_src, copy_source);
  }
};

template <int Bytes, CacheLevel Level>
struct CpAsyncZfillBytes {
  static constexpr int CopyBytes = Bytes;
  static constexpr CacheLevel Cache = Level;
  STRATA_DEVICE static __forceinline__ void copy(const void* gmem_src, void* smem_dst, int source_bytes) {
    cp_async_zfill_bytes<Bytes, Level>(smem_dst, gmem_src, source_bytes);
  }
};

// One 16-byte shared chunk from a global source aligned only to its element size (ElementBytes):
// the first `source_bytes` bytes are copied, the rest zero-filled. The source's actual alignment
// picks the widest copy that fits it, at run time: one 16-byte cp.async, two of 8 or four of 4
// bytes, or, below 4-byte alignment (cp.async has no narrower form), element-wide loads and
// shared stores, which complete before the thread goes on (so they need no wait, only the
// barrier every cp.async needs too). A partial chunk takes pieces as wide as its byte count
// allows, so nothing past `source_bytes` is read. For problems whose leading dimensions or pointers break the
// 16-byte rule: slower, still a tensor-core GEMM.
template <int ElementBytes>
struct CopyChunkAnyAlignment {
  static_assert(ElementBytes == 1 || ElementBytes == 2 || ElementBytes == 4,
                "CopyChunkAnyAlignment: elements must be 1, 2 or 4 bytes wide");
  static constexpr int CopyBytes = 16;
  STRATA_DEVICE static __forceinline__ void copy(const void* gmem_src, void* smem_dst, int source_bytes) {
    // The widest copy that the address allows and that reads exactly `source_bytes`: a copy
    // instruction is not to touch bytes past them (they may lie past the end of the allocation).
    const auto address = reinterpret_cast<uintptr_t>(gmem_src) | uintptr_t(source_bytes < 16 ? source_bytes : 0);
    auto pieces = [&](auto piece) {
      constexpr int P = decltype(piece)::value;
      STRATA_UNROLL
      for (int i = 0; i < 16 / P; ++i) {
        int bytes = source_bytes - i * P;
        bytes = bytes < 0 ? 0 : (bytes > P ? P : bytes);
        cp_async_zfill_bytes<P, CacheLevel::All>(static_cast<char*>(smem_dst) + i * P,
                                                 static_cast<char const*>(gmem_src) + i * P, bytes);
      }
    };
    if (address % 16 == 0) {
      cp_async_zfill_bytes<16, CacheLevel::Global>(smem_dst, gmem_src, source_bytes);
    } else if (address % 8 == 0) {
      pieces(std::integral_constant<int, 8>{});
    } else if (address % 4 == 0) {
      pieces(std::integral_constant<int, 4>{});
    } else {
      using E = std::conditional_t<ElementBytes == 1, uint8_t, std::conditional_t<ElementBytes == 2, uint16_t, uint32_t>>;
      E const* src = static_cast<E const*>(gmem_src);
      E* dst = static_cast<E*>(smem_dst);
      STRATA_UNROLL
      for (int e = 0; e < 16 / ElementBytes; ++e) dst[e] = e * ElementBytes < source_bytes ? src[e] : E(0);
    }
  }
};

using CpAsync4_ca = CpAsync<4, CacheLevel::All>;
using CpAsync8_ca = CpAsync<8, CacheLevel::All>;
using CpAsync16_ca = CpAsync<16, CacheLevel::All>;
using CpAsync16_cg = CpAsync<16, CacheLevel::Global>;
using CpAsyncZfill4_ca = CpAsyncZfill<4, CacheLevel::All>;
using CpAsyncZfill8_ca = CpAsyncZfill<8, CacheLevel::All>;
using CpAsyncZfill16_ca = CpAsyncZfill<16, CacheLevel::All>;
using CpAsyncZfill16_cg = CpAsyncZfill<16, CacheLevel::Global>;
using CpAsyncZfillBytes16_cg = CpAsyncZfillBytes<16, CacheLevel::Global>;

// ---------------------------------------------------------------------------------------------
// ldmatrix: the warp loads 1, 2 or 4 8x8 matrices of 16-bit elements from shared memory.
// Lane 8*j + r passes the address of row r of matrix j (16 contiguous, 16-byte aligned bytes);
// for .x1 and .x2 only lanes 0-7 and 0-15 are read. Register j of lane l then holds row l/4,
// columns 2*(l%4) and 2*(l%4)+1 of matrix j (low half first) -- exactly an mma.sync fragment.
// With .trans it holds column l/4, rows 2*(l%4) and 2*(l%4)+1 instead.
// Rows written by other threads must be made visible with a barrier before the load.
// ---------------------------------------------------------------------------------------------

namespace detail {
template <int NumMatrices, bool Transpose>
STRATA_DEVICE __forceinline__ void ldmatrix_impl(const void* smem_row, uint32_t (&dst)[NumMatrices]) {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4,
                "ldmatrix: the number of 8x8 matrices must be 1, 2 or 4");
#if defined(STRATA_ARCH_SM80_ENABLED)
  const uint32_t row = detail::shared_address(smem_row);
  if constexpr (NumMatrices == 1 && !Transpose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(dst[0]) : "r"(row));
  } else if constexpr (NumMatrices == 1 && Transpose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(dst[0]) : "r"(row));
  } else if constexpr (NumMatrices == 2 && !Transpose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(dst[0]), "=r"(dst[1])
                 : "r"(row));
  } else if constexpr (NumMatrices == 2 && Transpose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(dst[0]), "=r"(dst[1])
                 : "r"(row));
  } else if constexpr (NumMatrices == 4 && !Transpose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])
                 : "r"(row));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])
                 : "r"(row));
  }
#else
  STRATA_ARCH_SM80_UNSUPPORTED();
#endif
}
}  // namespace detail

template <int NumMatrices>
STRATA_DEVICE __forceinline__ void ldmatrix(const void* smem_row, uint32_t (&dst)[NumMatrices]) {
  detail::ldmatrix_impl<NumMatrices, false>(smem_row, dst);
}

template <int NumMatrices>
STRATA_DEVICE __forceinline__ void ldmatrix_trans(const void* smem_row, uint32_t (&dst)[NumMatrices]) {
  detail::ldmatrix_impl<NumMatrices, true>(smem_row, dst);
}

template <int NumMatrices, bool Transpose>
struct Ldsm {
  static constexpr int Matrices = NumMatrices;
  static constexpr bool Transposed = Transpose;
  static constexpr int ElementBits = 16;
  using DRegisters = uint32_t[NumMatrices];
  // `smem_row`: this lane's row address, as described above.
  STRATA_DEVICE static __forceinline__ void copy(const void* smem_row, DRegisters& dst) {
    detail::ldmatrix_impl<NumMatrices, Transpose>(smem_row, dst);
  }
};

using Ldsm_x1 = Ldsm<1, false>;
using Ldsm_x2 = Ldsm<2, false>;
using Ldsm_x4 = Ldsm<4, false>;
using Ldsm_x1_trans = Ldsm<1, true>;
using Ldsm_x2_trans = Ldsm<2, true>;
using Ldsm_x4_trans = Ldsm<4, true>;

// ---------------------------------------------------------------------------------------------
// mma.sync: D = A * B + C for one warp, A row-major (M x K), B column-major (K x N).
// Named Mma_m<M>n<N>k<K>_<D>_<A>_<B>_<C>. Which lane holds which element is the PTX ISA's
// "Matrix Fragments for mma.m16n8k16" (and siblings) table; with g = lane/4, t = lane%4:
//   16-bit A (x8 halves): row g + 8*((i/2)%2), col 2t + i%2 + 8*(i/4)
//   16-bit B (x4):        row 2t + i%2 + 8*(i/2), col g
//   C/D (x4):             row g + 8*(i/2),        col 2t + i%2
// Operands are passed by reference: `d` may alias `c` for an in-place accumulation.
// ---------------------------------------------------------------------------------------------

// 16-bit A and B (half or bfloat16), fp32 accumulators: one wrapper, the element type picks the
// instruction's type suffix.
template <class T16>
struct Mma_m16n8k16_f32_16bit {
  static_assert(std::is_same_v<T16, __half> || std::is_same_v<T16, __nv_bfloat16>,
                "Mma_m16n8k16_f32_16bit: the inputs are half or bfloat16");
  static constexpr int M = 16, N = 8, K = 16;
  using ElementA = T16;
  using ElementB = T16;
  using ElementC = float;  // also the type of D
  using ARegisters = uint32_t[4];  // two 16-bit values per register, low half first
  using BRegisters = uint32_t[2];
  using CRegisters = float[4];
  using DRegisters = float[4];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, const ARegisters& a, const BRegisters& b,
                                                const CRegisters& c) {
#if defined(STRATA_ARCH_SM80_ENABLED)
    if constexpr (std::is_same_v<T16, __half>) {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
          : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
            "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    } else {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
          : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
            "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    }
#else
    STRATA_ARCH_SM80_UNSUPPORTED();
#endif
  }
};
using Mma_m16n8k16_f32_f16_f16_f32 = Mma_m16n8k16_f32_16bit<__half>;
using Mma_m16n8k16_f32_bf16_bf16_f32 = Mma_m16n8k16_f32_16bit<__nv_bfloat16>;

// Half-precision accumulators: C/D elements 2i and 2i+1 share register i (low half first).
struct Mma_m16n8k16_f16_f16_f16_f16 {
  static constexpr int M = 16, N = 8, K = 16;
  using ElementA = __half;
  using ElementB = __half;
  using ElementC = __half;
  using ARegisters = uint32_t[4];
  using BRegisters = uint32_t[2];
  using CRegisters = uint32_t[2];
  using DRegisters = uint32_t[2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, const ARegisters& a, const BRegisters& b,
                                                const CRegisters& c) {
#if defined(STRATA_ARCH_SM80_ENABLED)
    asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
        : "=r"(d[0]), "=r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    STRATA_ARCH_SM80_UNSUPPORTED();
#endif
  }
};

// TF32 operands live in 32-bit float registers: the tensor core reads the sign, the 8 exponent
// bits and the top 10 mantissa bits, so ElementA/B are `float`. Feed values already rounded to
// tf32 (cvt.rna.tf32.f32) when the rounding mode matters. Fragments, one element per register:
//   A (x4): row g + 8*(i%2), col t + 4*(i/2);  B (x2): row t + 4*i, col g;  C/D as above.
struct Mma_m16n8k8_f32_tf32_tf32_f32 {
  static constexpr int M = 16, N = 8, K = 8;
  using ElementA = float;
  using ElementB = float;
  using ElementC = float;
  using ARegisters = uint32_t[4];
  using BRegisters = uint32_t[2];
  using CRegisters = float[4];
  using DRegisters = float[4];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, const ARegisters& a, const BRegisters& b,
                                                const CRegisters& c) {
#if defined(STRATA_ARCH_SM80_ENABLED)
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    STRATA_ARCH_SM80_UNSUPPORTED();
#endif
  }
};

// int8: four elements per register, lowest byte first. Sums wrap modulo 2^32 (no .satfinite).
//   A (x16): row g + 8*((i/4)%2), col 4t + i%4 + 16*(i/8);  B (x8): row 4t + i%4 + 16*(i/4), col g.
struct Mma_m16n8k32_s32_s8_s8_s32 {
  static constexpr int M = 16, N = 8, K = 32;
  using ElementA = int8_t;
  using ElementB = int8_t;
  using ElementC = int32_t;
  using ARegisters = uint32_t[4];
  using BRegisters = uint32_t[2];
  using CRegisters = int32_t[4];
  using DRegisters = int32_t[4];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, const ARegisters& a, const BRegisters& b,
                                                const CRegisters& c) {
#if defined(STRATA_ARCH_SM80_ENABLED)
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#else
    STRATA_ARCH_SM80_UNSUPPORTED();
#endif
  }
};

// Double precision, the one f64 shape sm_80 has (m16n8k{4,8,16} f64 need sm_90):
//   A (x1): row g, col t;  B (x1): row t, col g;  C/D (x2): row g, col 2t + i.
struct Mma_m8n8k4_f64_f64_f64_f64 {
  static constexpr int M = 8, N = 8, K = 4;
  using ElementA = double;
  using ElementB = double;
  using ElementC = double;
  using ARegisters = double[1];
  using BRegisters = double[1];
  using CRegisters = double[2];
  using DRegisters = double[2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, const ARegisters& a, const BRegisters& b,
                                                const CRegisters& c) {
#if defined(STRATA_ARCH_SM80_ENABLED)
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
        : "=d"(d[0]), "=d"(d[1])
        : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
#else
    STRATA_ARCH_SM80_UNSUPPORTED();
#endif
  }
};

}  // namespace strata::arch
