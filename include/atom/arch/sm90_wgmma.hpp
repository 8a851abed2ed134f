// Strata floor 2: Hopper's warpgroup MMA, wgmma, as raw PTX wrappers (sm_90a only).
//
// One warpgroup (4 consecutive warps, the first a multiple of 4) computes D = A * B (+ D) on a
// 64 x N x K tile: wgmma.mma_async.sync.aligned.m64nNk{8,16,32}.<dtype>.<atype>.<btype>. B always
// comes from shared memory through a 64-bit matrix descriptor (atom/gmma_desc_sm90.hpp); A from a
// descriptor too (SS) or from four 32-bit registers per thread (RS). The accumulators are N/2 f32
// (or N/4 f16x2) registers per thread, in the order of the ISA's "Register Fragments" figure; the
// atom layer (atom/mma_sm90.hpp) gives them their thread-value layouts.
//
// The instruction is asynchronous: wgmma_fence() before the first wgmma that reads registers
// written since the last one, wgmma_commit_group() to close a batch, wgmma_wait_group<N>() before
// the accumulators (or RS A registers) are touched again. ptxas serializes (warning C7517) code
// that touches them earlier.
//
// Every N from 8 to 256 in steps of 8 exists for every type: the wrappers are generated below
// from one list of N and one asm text per instruction form.
#pragma once

#include <cstdint>
#include <type_traits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "../../layout/config.hpp"

#include "sm90_guards.hpp"  // STRATA_ARCH_SM90_ENABLED, STRATA_ARCH_SM90A_ENABLED, STRATA_ARCH_SM90_UNSUPPORTED

namespace strata::arch {

// Which way an operand in shared memory is contiguous, the imm-trans-a / imm-trans-b immediate:
// K-major (0, "not transposed": a row of A or a column of B is contiguous) or MN-major (1).
// MN-major exists only for 16-bit types.
enum class GmmaMajor : int { K = 0, MN = 1 };

// The scale-d predicate: D = A * B (overwrite) or D = A * B + D (accumulate). Overwriting on the
// first k-block spares the instructions that would clear the accumulators.
enum class WgmmaScaleD : uint32_t { overwrite = 0, accumulate = 1 };

// ---------------------------------------------------------------------------------------------
// Ordering
// ---------------------------------------------------------------------------------------------

// wgmma.fence.sync.aligned: orders this warpgroup's earlier register and shared-memory accesses
// before the wgmma that follow. Needed before the first wgmma of a batch, and whenever its
// accumulators or RS A registers were written by other instructions since the last wgmma.
STRATA_DEVICE __forceinline__ void wgmma_fence() {
#if defined(STRATA_ARCH_SM90A_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// wgmma.commit_group.sync.aligned: closes the batch of wgmma issued since the last commit.
STRATA_DEVICE __forceinline__ void wgmma_commit_group() {
#if defined(STRATA_ARCH_SM90A_ENABLED)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// wgmma.wait_group.sync.aligned N: blocks until at most `PendingGroups` committed batches are
// still running; their accumulators and A registers may be read or written only after that.
template <int PendingGroups>
STRATA_DEVICE __forceinline__ void wgmma_wait_group() {
  static_assert(0 <= PendingGroups && PendingGroups <= 7,
                "wgmma_wait_group: the number of batches left running must be 0 to 7");
#if defined(STRATA_ARCH_SM90A_ENABLED)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PendingGroups) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// An empty asm that claims to read and write `reg`: the compiler may not move accesses of the
// register across it, so reads of accumulators stay after wgmma_wait_group and writes before
// wgmma_fence. Generates no instruction.
STRATA_DEVICE __forceinline__ void wgmma_fence_operand(float& reg) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+f"(reg)::"memory");
#endif
}
STRATA_DEVICE __forceinline__ void wgmma_fence_operand(uint32_t& reg) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(reg)::"memory");
#endif
}
STRATA_DEVICE __forceinline__ void wgmma_fence_operand(uint16_t& reg) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+h"(reg)::"memory");
#endif
}

// ---------------------------------------------------------------------------------------------
// Operand lists, generated from decimal digits
//
// Inline asm names operands by position (%0, %1, ...), outputs first, and the preprocessor cannot
// add. So a count R of accumulator registers is written as its digits (h, t, u), R = 100h + 10t
// + u with u in 1..10, and everything is listed digit by digit: the accumulators are outputs
// %000 .. %(R-1) (leading zeros are allowed), the inputs are padded with unused immediates up to
// the next multiple of ten, 10 * (10h + t + 1), and the other operands (descriptors, registers of
// A, scale, immediates) follow from there: "%" <that decade> <k> for the k-th of them.
// ---------------------------------------------------------------------------------------------

#define STRATA_WG_STR(x) #x
#define STRATA_WG_XSTR(x) STRATA_WG_STR(x)

#define STRATA_WG_DECADE(I, S, h, t)                                                                      \
  I(h, t, 0) S() I(h, t, 1) S() I(h, t, 2) S() I(h, t, 3) S() I(h, t, 4) S() I(h, t, 5) S() I(h, t, 6) S() \
  I(h, t, 7) S() I(h, t, 8) S() I(h, t, 9) S()

// Decades 0 .. k-1 of hundred h, every item followed by S().
#define STRATA_WG_DECADES_0(I, S, h)
#define STRATA_WG_DECADES_1(I, S, h) STRATA_WG_DECADE(I, S, h, 0)
#define STRATA_WG_DECADES_2(I, S, h) STRATA_WG_DECADES_1(I, S, h) STRATA_WG_DECADE(I, S, h, 1)
#define STRATA_WG_DECADES_3(I, S, h) STRATA_WG_DECADES_2(I, S, h) STRATA_WG_DECADE(I, S, h, 2)
#define STRATA_WG_DECADES_4(I, S, h) STRATA_WG_DECADES_3(I, S, h) STRATA_WG_DECADE(I, S, h, 3)
#define STRATA_WG_DECADES_5(I, S, h) STRATA_WG_DECADES_4(I, S, h) STRATA_WG_DECADE(I, S, h, 4)
#define STRATA_WG_DECADES_6(I, S, h) STRATA_WG_DECADES_5(I, S, h) STRATA_WG_DECADE(I, S, h, 5)
#define STRATA_WG_DECADES_7(I, S, h) STRATA_WG_DECADES_6(I, S, h) STRATA_WG_DECADE(I, S, h, 6)
#define STRATA_WG_DECADES_8(I, S, h) STRATA_WG_DECADES_7(I, S, h) STRATA_WG_DECADE(I, S, h, 7)
#define STRATA_WG_DECADES_9(I, S, h) STRATA_WG_DECADES_8(I, S, h) STRATA_WG_DECADE(I, S, h, 8)
#define STRATA_WG_DECADES_10(I, S, h) STRATA_WG_DECADES_9(I, S, h) STRATA_WG_DECADE(I, S, h, 9)

// Units 0 .. k-1 of decade (h, t), separated by S(), none after the last.
#define STRATA_WG_UNITS_1(I, S, h, t) I(h, t, 0)
#define STRATA_WG_UNITS_2(I, S, h, t) STRATA_WG_UNITS_1(I, S, h, t) S() I(h, t, 1)
#define STRATA_WG_UNITS_3(I, S, h, t) STRATA_WG_UNITS_2(I, S, h, t) S() I(h, t, 2)
#define STRATA_WG_UNITS_4(I, S, h, t) STRATA_WG_UNITS_3(I, S, h, t) S() I(h, t, 3)
#define STRATA_WG_UNITS_5(I, S, h, t) STRATA_WG_UNITS_4(I, S, h, t) S() I(h, t, 4)
#define STRATA_WG_UNITS_6(I, S, h, t) STRATA_WG_UNITS_5(I, S, h, t) S() I(h, t, 5)
#define STRATA_WG_UNITS_7(I, S, h, t) STRATA_WG_UNITS_6(I, S, h, t) S() I(h, t, 6)
#define STRATA_WG_UNITS_8(I, S, h, t) STRATA_WG_UNITS_7(I, S, h, t) S() I(h, t, 7)
#define STRATA_WG_UNITS_9(I, S, h, t) STRATA_WG_UNITS_8(I, S, h, t) S() I(h, t, 8)
#define STRATA_WG_UNITS_10(I, S, h, t) STRATA_WG_UNITS_9(I, S, h, t) S() I(h, t, 9)

// Units k .. 9 of decade (h, t), every item followed by S().
#define STRATA_WG_LATER_UNITS_10(I, S, h, t)
#define STRATA_WG_LATER_UNITS_9(I, S, h, t) I(h, t, 9) S()
#define STRATA_WG_LATER_UNITS_8(I, S, h, t) I(h, t, 8) S() STRATA_WG_LATER_UNITS_9(I, S, h, t)
#define STRATA_WG_LATER_UNITS_7(I, S, h, t) I(h, t, 7) S() STRATA_WG_LATER_UNITS_8(I, S, h, t)
#define STRATA_WG_LATER_UNITS_6(I, S, h, t) I(h, t, 6) S() STRATA_WG_LATER_UNITS_7(I, S, h, t)
#define STRATA_WG_LATER_UNITS_5(I, S, h, t) I(h, t, 5) S() STRATA_WG_LATER_UNITS_6(I, S, h, t)
#define STRATA_WG_LATER_UNITS_4(I, S, h, t) I(h, t, 4) S() STRATA_WG_LATER_UNITS_5(I, S, h, t)
#define STRATA_WG_LATER_UNITS_3(I, S, h, t) I(h, t, 3) S() STRATA_WG_LATER_UNITS_4(I, S, h, t)
#define STRATA_WG_LATER_UNITS_2(I, S, h, t) I(h, t, 2) S() STRATA_WG_LATER_UNITS_3(I, S, h, t)
#define STRATA_WG_LATER_UNITS_1(I, S, h, t) I(h, t, 1) S() STRATA_WG_LATER_UNITS_2(I, S, h, t)

// The decade after (h, t): its hundreds digit (carried when t is 9) and its tens digit.
#define STRATA_WG_HUNDREDS_AFTER_0(h) h
#define STRATA_WG_HUNDREDS_AFTER_1(h) h
#define STRATA_WG_HUNDREDS_AFTER_2(h) h
#define STRATA_WG_HUNDREDS_AFTER_3(h) h
#define STRATA_WG_HUNDREDS_AFTER_4(h) h
#define STRATA_WG_HUNDREDS_AFTER_5(h) h
#define STRATA_WG_HUNDREDS_AFTER_6(h) h
#define STRATA_WG_HUNDREDS_AFTER_7(h) h
#define STRATA_WG_HUNDREDS_AFTER_8(h) h
#define STRATA_WG_HUNDREDS_AFTER_9(h) STRATA_WG_NEXT_HUNDRED_##h
#define STRATA_WG_NEXT_HUNDRED_0 1
#define STRATA_WG_NEXT_HUNDRED_1 2
#define STRATA_WG_TENS_AFTER_0 1
#define STRATA_WG_TENS_AFTER_1 2
#define STRATA_WG_TENS_AFTER_2 3
#define STRATA_WG_TENS_AFTER_3 4
#define STRATA_WG_TENS_AFTER_4 5
#define STRATA_WG_TENS_AFTER_5 6
#define STRATA_WG_TENS_AFTER_6 7
#define STRATA_WG_TENS_AFTER_7 8
#define STRATA_WG_TENS_AFTER_8 9
#define STRATA_WG_TENS_AFTER_9 0

// For R = (h, t, u): I(h, t, u) for every position in [0, R), separated by S(); the padding
// positions [R, 10 * (10h + t + 1)), each followed by S(); the k-th operand after the padding.
#define STRATA_WG_BELOW(I, S, h, t, u) \
  STRATA_WG_DECADES_10_TIMES_##h(I, S) STRATA_WG_DECADES_##t(I, S, h) STRATA_WG_UNITS_##u(I, S, h, t)
#define STRATA_WG_DECADES_10_TIMES_0(I, S)
#define STRATA_WG_DECADES_10_TIMES_1(I, S) STRATA_WG_DECADES_10(I, S, 0)
#define STRATA_WG_UP_TO_DECADE(I, S, h, t, u) STRATA_WG_LATER_UNITS_##u(I, S, h, t)
#define STRATA_WG_AT(h, t, k) \
  "%" STRATA_WG_XSTR(STRATA_WG_HUNDREDS_AFTER_##t(h)) STRATA_WG_XSTR(STRATA_WG_TENS_AFTER_##t) #k

#define STRATA_WG_COMMA() ,
#define STRATA_WG_TEXT_COMMA() ", "
#define STRATA_WG_REF(h, t, u) "%" #h #t #u
#define STRATA_WG_F32(h, t, u) "+f"(d[h * 100 + t * 10 + u])
#define STRATA_WG_U32(h, t, u) "+r"(d[h * 100 + t * 10 + u])
#define STRATA_WG_PAD(h, t, u) "n"(0)

// "{%000, ..., %(R-1)}", the matching output list for "+f" (f32) or "+r" (f16x2) registers, and
// the padding that starts the input list.
#define STRATA_WG_D_TEXT(h, t, u) "{" STRATA_WG_BELOW(STRATA_WG_REF, STRATA_WG_TEXT_COMMA, h, t, u) "}"
#define STRATA_WG_D_OUTPUTS(REG, h, t, u) STRATA_WG_BELOW(REG, STRATA_WG_COMMA, h, t, u)
#define STRATA_WG_PADDING(h, t, u) STRATA_WG_UP_TO_DECADE(STRATA_WG_PAD, STRATA_WG_COMMA, h, t, u)

// The asm statement itself, or a trap on a target without wgmma. The operands go through
// __VA_ARGS__ whole, so their commas need no protection.
#if defined(STRATA_ARCH_SM90A_ENABLED)
#define STRATA_WG_ASM(...) asm volatile(__VA_ARGS__)
#else
#define STRATA_WG_ASM(...) STRATA_ARCH_SM90_UNSUPPORTED()
#endif

// The scale-d predicate p from the 32-bit operand `k` after the padding, inside a scope.
#define STRATA_WG_PRED(h, t, k) "{\n.reg .pred p;\nsetp.ne.b32 p, " STRATA_WG_AT(h, t, k) ", 0;\n"
#define STRATA_WG_OPCODE(N, K, TYPES) "wgmma.mma_async.sync.aligned.m64n" #N "k" #K "." TYPES " "

// SS with transposes (16-bit inputs): d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b,
// imm-trans-a, imm-trans-b. After the padding: desc_a, desc_b, scale_d, TnspA, TnspB.
#define STRATA_WG_SS_TNSP(REG, N, K, TYPES, h, t, u)                                                   \
  STRATA_WG_ASM(STRATA_WG_PRED(h, t, 2) STRATA_WG_OPCODE(N, K, TYPES) STRATA_WG_D_TEXT(h, t, u) ", "    \
                STRATA_WG_AT(h, t, 0) ", " STRATA_WG_AT(h, t, 1) ", p, 1, 1, " STRATA_WG_AT(h, t, 3) ", " \
                STRATA_WG_AT(h, t, 4) ";\n}\n"                                                           \
                : STRATA_WG_D_OUTPUTS(REG, h, t, u)                                                      \
                : STRATA_WG_PADDING(h, t, u) "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TnspA), "n"(TnspB))

// SS without transposes (tf32, fp8): d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b.
#define STRATA_WG_SS_PLAIN(REG, N, K, TYPES, h, t, u)                                                 \
  STRATA_WG_ASM(STRATA_WG_PRED(h, t, 2) STRATA_WG_OPCODE(N, K, TYPES) STRATA_WG_D_TEXT(h, t, u) ", "   \
                STRATA_WG_AT(h, t, 0) ", " STRATA_WG_AT(h, t, 1) ", p, 1, 1;\n}\n"                      \
                : STRATA_WG_D_OUTPUTS(REG, h, t, u)                                                     \
                : STRATA_WG_PADDING(h, t, u) "l"(desc_a), "l"(desc_b), "r"(scale_d))

// RS: d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-b]. After the
// padding: a[0..3], desc_b, scale_d[, TnspB].
#define STRATA_WG_A_TEXT(h, t) \
  "{" STRATA_WG_AT(h, t, 0) ", " STRATA_WG_AT(h, t, 1) ", " STRATA_WG_AT(h, t, 2) ", " STRATA_WG_AT(h, t, 3) "}"
#define STRATA_WG_RS_TNSP(REG, N, K, TYPES, h, t, u)                                                       \
  STRATA_WG_ASM(STRATA_WG_PRED(h, t, 5) STRATA_WG_OPCODE(N, K, TYPES) STRATA_WG_D_TEXT(h, t, u) ", "        \
                STRATA_WG_A_TEXT(h, t) ", " STRATA_WG_AT(h, t, 4) ", p, 1, 1, " STRATA_WG_AT(h, t, 6) ";\n}\n" \
                : STRATA_WG_D_OUTPUTS(REG, h, t, u)                                                          \
                : STRATA_WG_PADDING(h, t, u) "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b),          \
                  "r"(scale_d), "n"(TnspB))
#define STRATA_WG_RS_PLAIN(REG, N, K, TYPES, h, t, u)                                                \
  STRATA_WG_ASM(STRATA_WG_PRED(h, t, 5) STRATA_WG_OPCODE(N, K, TYPES) STRATA_WG_D_TEXT(h, t, u) ", "  \
                STRATA_WG_A_TEXT(h, t) ", " STRATA_WG_AT(h, t, 4) ", p, 1, 1;\n}\n"                     \
                : STRATA_WG_D_OUTPUTS(REG, h, t, u)                                                    \
                : STRATA_WG_PADDING(h, t, u) "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b),    \
                  "r"(scale_d))

namespace detail {

template <class T>
inline constexpr bool is_wgmma_16bit_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T>
inline constexpr bool is_wgmma_fp8_v = std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;

// Every instruction form for one N, as static members: F32 accumulators float[N/2], F16
// accumulators uint32_t[N/4] (two halves each, low first). Only the forms a program calls are
// instantiated. Defined for each N by STRATA_WG_DEFINE_N below.
template <int N>
struct Wgmma;

// F32: the digits of N/2; F16: the digits of N/4 (see "Operand lists" above).
#define STRATA_WG_DEFINE_N(N, h, t, u, fh, ft, fu)                                                               \
  template <>                                                                                                    \
  struct Wgmma<N> {                                                                                              \
    template <class TA, int TnspA, int TnspB>                                                                    \
    STRATA_DEVICE static __forceinline__ void ss_f32(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,       \
                                                     uint32_t scale_d) {                                         \
      if constexpr (std::is_same_v<TA, __half>) {                                                                \
        STRATA_WG_SS_TNSP(STRATA_WG_F32, N, 16, "f32.f16.f16", h, t, u);                                         \
      } else {                                                                                                   \
        STRATA_WG_SS_TNSP(STRATA_WG_F32, N, 16, "f32.bf16.bf16", h, t, u);                                       \
      }                                                                                                          \
    }                                                                                                            \
    template <int TnspA, int TnspB>                                                                              \
    STRATA_DEVICE static __forceinline__ void ss_f16(uint32_t (&d)[N / 4], uint64_t desc_a, uint64_t desc_b,    \
                                                     uint32_t scale_d) {                                         \
      STRATA_WG_SS_TNSP(STRATA_WG_U32, N, 16, "f16.f16.f16", fh, ft, fu);                                        \
    }                                                                                                            \
    STRATA_DEVICE static __forceinline__ void ss_tf32(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,      \
                                                      uint32_t scale_d) {                                        \
      STRATA_WG_SS_PLAIN(STRATA_WG_F32, N, 8, "f32.tf32.tf32", h, t, u);                                         \
    }                                                                                                            \
    template <class TA, class TB>                                                                                \
    STRATA_DEVICE static __forceinline__ void ss_fp8(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,       \
                                                     uint32_t scale_d) {                                         \
      constexpr bool a4 = std::is_same_v<TA, __nv_fp8_e4m3>, b4 = std::is_same_v<TB, __nv_fp8_e4m3>;            \
      if constexpr (a4 && b4) {                                                                                  \
        STRATA_WG_SS_PLAIN(STRATA_WG_F32, N, 32, "f32.e4m3.e4m3", h, t, u);                                      \
      } else if constexpr (a4) {                                                                                 \
        STRATA_WG_SS_PLAIN(STRATA_WG_F32, N, 32, "f32.e4m3.e5m2", h, t, u);                                      \
      } else if constexpr (b4) {                                                                                 \
        STRATA_WG_SS_PLAIN(STRATA_WG_F32, N, 32, "f32.e5m2.e4m3", h, t, u);                                      \
      } else {                                                                                                   \
        STRATA_WG_SS_PLAIN(STRATA_WG_F32, N, 32, "f32.e5m2.e5m2", h, t, u);                                      \
      }                                                                                                          \
    }                                                                                                            \
    template <class TA, int TnspB>                                                                               \
    STRATA_DEVICE static __forceinline__ void rs_f32(float (&d)[N / 2], uint32_t const (&a)[4], uint64_t desc_b, \
                                                     uint32_t scale_d) {                                         \
      if constexpr (std::is_same_v<TA, __half>) {                                                                \
        STRATA_WG_RS_TNSP(STRATA_WG_F32, N, 16, "f32.f16.f16", h, t, u);                                         \
      } else {                                                                                                   \
        STRATA_WG_RS_TNSP(STRATA_WG_F32, N, 16, "f32.bf16.bf16", h, t, u);                                       \
      }                                                                                                          \
    }                                                                                                            \
    template <int TnspB>                                                                                         \
    STRATA_DEVICE static __forceinline__ void rs_f16(uint32_t (&d)[N / 4], uint32_t const (&a)[4],              \
                                                     uint64_t desc_b, uint32_t scale_d) {                        \
      STRATA_WG_RS_TNSP(STRATA_WG_U32, N, 16, "f16.f16.f16", fh, ft, fu);                                        \
    }                                                                                                            \
    STRATA_DEVICE static __forceinline__ void rs_tf32(float (&d)[N / 2], uint32_t const (&a)[4], uint64_t desc_b, \
                                                      uint32_t scale_d) {                                        \
      STRATA_WG_RS_PLAIN(STRATA_WG_F32, N, 8, "f32.tf32.tf32", h, t, u);                                         \
    }                                                                                                            \
    template <class TA, class TB>                                                                                \
    STRATA_DEVICE static __forceinline__ void rs_fp8(float (&d)[N / 2], uint32_t const (&a)[4], uint64_t desc_b, \
                                                     uint32_t scale_d) {                                         \
      constexpr bool a4 = std::is_same_v<TA, __nv_fp8_e4m3>, b4 = std::is_same_v<TB, __nv_fp8_e4m3>;            \
      if constexpr (a4 && b4) {                                                                                  \
        STRATA_WG_RS_PLAIN(STRATA_WG_F32, N, 32, "f32.e4m3.e4m3", h, t, u);                                      \
      } else if constexpr (a4) {                                                                                 \
        STRATA_WG_RS_PLAIN(STRATA_WG_F32, N, 32, "f32.e4m3.e5m2", h, t, u);                                      \
      } else if constexpr (b4) {                                                                                 \
        STRATA_WG_RS_PLAIN(STRATA_WG_F32, N, 32, "f32.e5m2.e4m3", h, t, u);                                      \
      } else {                                                                                                   \
        STRATA_WG_RS_PLAIN(STRATA_WG_F32, N, 32, "f32.e5m2.e5m2", h, t, u);                                      \
      }                                                                                                          \
    }                                                                                                            \
  };

// Every N of the ISA (8 to 256 in steps of 8) with the digits of its register counts N/2 and
// N/4, u in 1..10: the one table the generation needs, since the preprocessor cannot divide.
// clang-format off
#define STRATA_WG_FOR_EACH_N(X) \
  X(8,   0,0,4,  0,0,2)  X(16,  0,0,8,  0,0,4)  X(24,  0,1,2,  0,0,6)  X(32,  0,1,6,  0,0,8)  \
  X(40,  0,1,10, 0,0,10) X(48,  0,2,4,  0,1,2)  X(56,  0,2,8,  0,1,4)  X(64,  0,3,2,  0,1,6)  \
  X(72,  0,3,6,  0,1,8)  X(80,  0,3,10, 0,1,10) X(88,  0,4,4,  0,2,2)  X(96,  0,4,8,  0,2,4)  \
  X(104, 0,5,2,  0,2,6)  X(112, 0,5,6,  0,2,8)  X(120, 0,5,10, 0,2,10) X(128, 0,6,4,  0,3,2)  \
  X(136, 0,6,8,  0,3,4)  X(144, 0,7,2,  0,3,6)  X(152, 0,7,6,  0,3,8)  X(160, 0,7,10, 0,3,10) \
  X(168, 0,8,4,  0,4,2)  X(176, 0,8,8,  0,4,4)  X(184, 0,9,2,  0,4,6)  X(192, 0,9,6,  0,4,8)  \
  X(200, 0,9,10, 0,4,10) X(208, 1,0,4,  0,5,2)  X(216, 1,0,8,  0,5,4)  X(224, 1,1,2,  0,5,6)  \
  X(232, 1,1,6,  0,5,8)  X(240, 1,1,10, 0,5,10) X(248, 1,2,4,  0,6,2)  X(256, 1,2,8,  0,6,4)
// clang-format on

STRATA_WG_FOR_EACH_N(STRATA_WG_DEFINE_N)

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// The instructions, one struct per form, named Wgmma_m64nNk<K>_<D>_<A>_<B>_{SS,RS}: M, N, K,
// element types, the register arrays, and a static fma(d, a, b, scale_d) computing
// d = a * b (+ d when scale_d is accumulate). SS: a and b are 64-bit shared-memory matrix
// descriptors. RS: a is this thread's four 32-bit registers of A, in the order of the ISA's
// "Register Fragments" figure, two 16-bit (one tf32, four 8-bit) elements each, low first.
// ---------------------------------------------------------------------------------------------

namespace detail {
template <int N>
inline constexpr bool is_wgmma_n_v = N % 8 == 0 && 8 <= N && N <= 256;
}  // namespace detail

// f16 or bf16 inputs, f32 accumulators; either operand K- or MN-major.
template <int N_, class T16, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
struct Wgmma_m64nNk16_f32_16bit_SS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static_assert(detail::is_wgmma_16bit_v<T16>, "wgmma m64nNk16: the inputs are half or bfloat16");
  static constexpr int M = 64, N = N_, K = 16;
  static constexpr GmmaMajor major_a = MajorA, major_b = MajorB;
  using ElementA = T16;
  using ElementB = T16;
  using ElementC = float;
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, uint64_t desc_a, uint64_t desc_b, WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template ss_f32<T16, int(MajorA), int(MajorB)>(d, desc_a, desc_b, uint32_t(scale_d));
  }
};

// f16 inputs, f16 accumulators: element 2i of D in the low half of register i.
template <int N_, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
struct Wgmma_m64nNk16_f16_f16_f16_SS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static constexpr int M = 64, N = N_, K = 16;
  static constexpr GmmaMajor major_a = MajorA, major_b = MajorB;
  using ElementA = __half;
  using ElementB = __half;
  using ElementC = __half;
  using DRegisters = uint32_t[N / 4];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, uint64_t desc_a, uint64_t desc_b, WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template ss_f16<int(MajorA), int(MajorB)>(d, desc_a, desc_b, uint32_t(scale_d));
  }
};

// tf32 inputs (float, of which the tensor core reads the top 19 bits), f32 accumulators; K-major.
template <int N_>
struct Wgmma_m64nNk8_f32_tf32_tf32_SS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static constexpr int M = 64, N = N_, K = 8;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;
  using ElementA = float;
  using ElementB = float;
  using ElementC = float;
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, uint64_t desc_a, uint64_t desc_b, WgmmaScaleD scale_d) {
    detail::Wgmma<N>::ss_tf32(d, desc_a, desc_b, uint32_t(scale_d));
  }
};

// e4m3 / e5m2 inputs (any mix), f32 accumulators; K-major.
template <int N_, class TA, class TB>
struct Wgmma_m64nNk32_f32_fp8_SS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static_assert(detail::is_wgmma_fp8_v<TA> && detail::is_wgmma_fp8_v<TB>,
                "wgmma m64nNk32: the inputs are __nv_fp8_e4m3 or __nv_fp8_e5m2");
  static constexpr int M = 64, N = N_, K = 32;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;
  using ElementA = TA;
  using ElementB = TB;
  using ElementC = float;
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, uint64_t desc_a, uint64_t desc_b, WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template ss_fp8<TA, TB>(d, desc_a, desc_b, uint32_t(scale_d));
  }
};

// RS forms: A from registers (always K-major: the register form has no transpose for A).
template <int N_, class T16, GmmaMajor MajorB = GmmaMajor::K>
struct Wgmma_m64nNk16_f32_16bit_RS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static_assert(detail::is_wgmma_16bit_v<T16>, "wgmma m64nNk16: the inputs are half or bfloat16");
  static constexpr int M = 64, N = N_, K = 16;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = MajorB;
  using ElementA = T16;
  using ElementB = T16;
  using ElementC = float;
  using ARegisters = uint32_t[4];
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, ARegisters const& a, uint64_t desc_b,
                                                WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template rs_f32<T16, int(MajorB)>(d, a, desc_b, uint32_t(scale_d));
  }
};

template <int N_, GmmaMajor MajorB = GmmaMajor::K>
struct Wgmma_m64nNk16_f16_f16_f16_RS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static constexpr int M = 64, N = N_, K = 16;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = MajorB;
  using ElementA = __half;
  using ElementB = __half;
  using ElementC = __half;
  using ARegisters = uint32_t[4];
  using DRegisters = uint32_t[N / 4];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, ARegisters const& a, uint64_t desc_b,
                                                WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template rs_f16<int(MajorB)>(d, a, desc_b, uint32_t(scale_d));
  }
};

template <int N_>
struct Wgmma_m64nNk8_f32_tf32_tf32_RS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static constexpr int M = 64, N = N_, K = 8;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;
  using ElementA = float;
  using ElementB = float;
  using ElementC = float;
  using ARegisters = uint32_t[4];
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, ARegisters const& a, uint64_t desc_b,
                                                WgmmaScaleD scale_d) {
    detail::Wgmma<N>::rs_tf32(d, a, desc_b, uint32_t(scale_d));
  }
};

template <int N_, class TA, class TB>
struct Wgmma_m64nNk32_f32_fp8_RS {
  static_assert(detail::is_wgmma_n_v<N_>, "wgmma: N must be a multiple of 8 from 8 to 256");
  static_assert(detail::is_wgmma_fp8_v<TA> && detail::is_wgmma_fp8_v<TB>,
                "wgmma m64nNk32: the inputs are __nv_fp8_e4m3 or __nv_fp8_e5m2");
  static constexpr int M = 64, N = N_, K = 32;
  static constexpr GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;
  using ElementA = TA;
  using ElementB = TB;
  using ElementC = float;
  using ARegisters = uint32_t[4];
  using DRegisters = float[N / 2];
  STRATA_DEVICE static __forceinline__ void fma(DRegisters& d, ARegisters const& a, uint64_t desc_b,
                                                WgmmaScaleD scale_d) {
    detail::Wgmma<N>::template rs_fp8<TA, TB>(d, a, desc_b, uint32_t(scale_d));
  }
};

}  // namespace strata::arch
