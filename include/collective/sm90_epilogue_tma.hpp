// Strata floor 3: the Hopper epilogue that leaves through shared memory and TMA stores.
//
// One consumer warpgroup holds 64 × BN fp32 accumulators in wgmma's layout (thread t, warp
// w = t / 32, lane l: rows 16w + l/4 and + 8, columns 8j + 2(l % 4) and + 1). store() sends them
// out in sub-tiles of 64 rows × EpiN columns, EpiN = 128 bytes of TD (64 of 16 bits, 32 floats):
//
//   registers --functor--> TD pairs --stmatrix (16-bit) or st.shared (float)--> a staging buffer,
//   64 rows of 128 bytes with the 128-byte swizzle (chunk c of row r at c ^ r % 8: no bank
//   conflicts) --fence.proxy.async, warpgroup barrier--> one thread's TMA store of the box.
//
// Each warpgroup owns Config::kEpilogueBuffers staging buffers and takes them in turn: with two a
// sub-tile is written while the previous one is still being stored; before a buffer is reused its
// store must have read it (bulk_wait_group_read). The stores stay in flight after store() returns
// and overlap the next tile's mainloop; drain() waits for all of them before the kernel exits.
//
// When the functor reads C, each sub-tile's C box is first loaded by TMA into the same staging
// buffer (an mbarrier per warpgroup); each thread reads its elements there, applies the functor and
// overwrites them with D. So C may alias D: a sub-tile's C is read before its D is stored, and
// sub-tiles never overlap. Otherwise no byte of C is read.
//
// Edges: TMA writes only the part of a box inside D (and loads zeros past C's edges), so any m and
// n work; the functor is called only for elements inside the m × n output, and a sub-tile wholly
// past the edge is skipped (one wholly inside that reads no C is staged without those tests: the
// tensor cores wait for the staging). One exception: a TMA store clips a row at 16-byte
// granularity, writing up to the next 16-byte boundary past n (seen on the H200). So D's map ends
// at n_tma, n rounded down to 16 bytes, and the few columns [n_tma, n) go out as plain stores from
// the staging buffer.
// TMA coordinates are never negative (the H200 faults on them).
//
// The kernel's part (t: thread within the warpgroup, wg: consumer warpgroup 0 .. kConsumers - 1):
//   host:   make_params(p.epilogue, D, ldd, ...) after check(...) passed (can_implement)
//   device: init(smem.epilogue, threadIdx.x); __syncthreads();
//           State state{};                          // per thread, kept across the tiles
//           for each tile: mainloop, then store(p.epilogue, smem.epilogue, state, acc, wg, m0, n0, batch, t);
//           drain(t);                               // before the thread exits
//   Params is read in place (a reference into the __grid_constant__ parameters): a copy would
//   move the CUtensorMaps out of parameter space, where TMA cannot use them. store() uses named
//   barrier 1 + wg (128 threads); __syncthreads' barrier 0 is left alone.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "../atom/arch/sm80.hpp"  // ldmatrix
#include "../atom/arch/sm90.hpp"
#include "../atom/arch/sm90_tma.hpp"
#include "../atom/status.hpp"
#include "../atom/tma.hpp"
#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"
#include "sm90_epilogue.hpp"  // detail::pack_pair, unpack_pair

namespace strata {

template <class Config, class TD, class Functor>
struct Sm90TmaEpilogue {
  static constexpr int BN = Config::BN;
  static constexpr int kConsumers = Config::kConsumers;
  static constexpr int kRows = 64;                           // one warpgroup's rows
  static constexpr int EpiN = 128 / int(sizeof(TD));         // one 128-byte row of TD
  static constexpr int kSubtiles = BN / EpiN;
  static constexpr int kBuffers = Config::kEpilogueBuffers;  // staging buffers per warpgroup (1 or 2)
  static constexpr int kSubtileBytes = kRows * 128;
  static constexpr int kThreads = 128;                       // one warpgroup
  static constexpr bool k16Bit = sizeof(TD) == 2;
  static constexpr int kVector = 16 / int(sizeof(TD));       // elements of 16 bytes: TMA's store granularity

  static_assert(std::is_same_v<TD, __nv_bfloat16> || std::is_same_v<TD, __half> || std::is_same_v<TD, float>,
                "Sm90TmaEpilogue: D must be bfloat16, half or float");
  static_assert(BN % 16 == 0 && BN >= 16 && BN <= 256, "Sm90TmaEpilogue: BN must be a multiple of 16 from 16 to 256");
  static_assert(BN % EpiN == 0,
                "Sm90TmaEpilogue: BN must be a multiple of the sub-tile width (64 columns of a 16-bit D, 32 of float)");
  static_assert(kConsumers == 1 || kConsumers == 2, "Sm90TmaEpilogue: one or two consumer warpgroups");

  // A sub-tile in shared memory, (column, row) -> element: rows of 128 bytes, 16-byte chunk c of
  // row r at chunk c ^ (r % 8). On byte offsets that is Swizzle<3, 4, 3>, TMA's 128-byte swizzle.
  using Swizzle128 = Swizzle<3, k16Bit ? 3 : 2, 3>;
  using StagingLayout = decltype(composition(Swizzle128{}, Layout<Shape<Int<EpiN>, Int<kRows>>, Stride<_1, Int<EpiN>>>{}));
  // TMA's box: the sub-tile and a batch mode of extent 1 over the global tensor (n, m, batches).
  using TmaBoxD =
      decltype(composition(Swizzle128{}, Layout<Shape<Int<EpiN>, Int<kRows>, _1>, Stride<_1, Int<EpiN>, _0>>{}));
  static_assert(TmaBox<TD, TmaBoxD>::swizzle_bytes == 128, "Sm90TmaEpilogue: the box must carry TMA's 128-byte swizzle");
  static_assert(TmaBox<TD, TmaBoxD>::transaction_bytes == kSubtileBytes,
                "Sm90TmaEpilogue: one box must be exactly one staging buffer");

  // Buffers 1024-byte aligned: the 128-byte swizzle repeats every 8 rows, and TMA applies it from
  // such an address.
  struct SharedStorage {
    alignas(1024) TD staging[kConsumers][kBuffers][kRows * EpiN];
    uint64_t c_loaded[kConsumers];  // per warpgroup: the TMA load of C into its current buffer has landed
  };

  // What a warpgroup carries from one store() to the next: each of its threads holds the same copy,
  // value-initialized (State{}) before the first store() and kept for the whole kernel.
  struct State {
    uint32_t buffer = 0;   // the staging buffer the next sub-tile is written to
    uint32_t c_phase = 0;  // the parity of c_loaded's next phase
  };

  // CUtensorMaps first (CUDA 13 declares them alignas(128)); read in place on the device.
  struct alignas(128) Params {
    CUtensorMap tma_d;  // (n_tma, m, batches) of D, boxes of TmaBoxD; unused when n_tma == 0
    CUtensorMap tma_c;  // (n, m, batches) of C; encoded only when reads_source
    Functor functor;
    bool reads_source;
    int m, n;
    int n_tma;                      // n rounded down to kVector: the columns TMA stores
    TD* d;                          // D, for the columns [n_tma, n)
    int64_t ldd, batch_stride_d;
    int c_batched = 1;              // 0: every batch reads batch 0 of C (batch_stride_c 0)
  };

  // ---- host --------------------------------------------------------------------------------------

  // TMA's rules for D, and for C when the functor reads it; C is not looked at otherwise.
  static Status check(TD const* D, int64_t ldd, int64_t batch_stride_d, TD const* C, int64_t ldc,
                      int64_t batch_stride_c, int m, int n, int batches, Functor const& functor) {
    if (m < 1 || n < 1 || batches < 1)
      return {StatusCode::invalid_problem, "the TMA epilogue needs m, n and batches of at least 1 (got m = " +
                                               std::to_string(m) + ", n = " + std::to_string(n) +
                                               ", batches = " + std::to_string(batches) + "): it stores nothing"};
    if (D == nullptr) return {StatusCode::null_pointer, "D is null"};
    if (Status s = check_operand("D", "ldd", "batch_stride_d", "the TMA store", D, ldd, batch_stride_d, m, n, batches);
        !s)
      return s;
    if (!functor.reads_source()) return Status::success();
    if (C == nullptr) return {StatusCode::null_pointer, "C is null but the epilogue reads it (reads_source() is true)"};
    return check_operand("C", "ldc", "batch_stride_c", "the TMA load of C", C, ldc, batch_stride_c, m, n,
                         batch_stride_c == 0 ? 1 : batches);
  }

  // check(), then the descriptors; `p` is written only on success. Needs the driver (no GPU launch).
  static Status make_params(Params& p, TD const* D, int64_t ldd, int64_t batch_stride_d, TD const* C, int64_t ldc,
                            int64_t batch_stride_c, int m, int n, int batches, Functor const& functor) {
    if (Status s = check(D, ldd, batch_stride_d, C, ldc, batch_stride_c, m, n, batches, functor); !s) return s;
    const int n_tma = n / kVector * kVector;
    Params out{{}, {}, functor, functor.reads_source(), m, n, n_tma, const_cast<TD*>(D), ldd, batch_stride_d};
    const int d_columns = n_tma > 0 ? n_tma : n;  // with n_tma == 0 the map is never used
    if (Status s = make_tma_descriptor(out.tma_d, D, global_layout(m, d_columns, ldd, batch_stride_d, batches),
                                       TmaBoxD{});
        !s)
      return {s.code(), "D: " + s.message()};
    if (out.reads_source) {
      // A C shared by every batch (batch stride 0) is a tensor of one batch, read at batch 0.
      out.c_batched = batch_stride_c != 0;
      if (Status s = make_tma_descriptor(out.tma_c, C,
                                         global_layout(m, n, ldc, batch_stride_c, out.c_batched ? batches : 1),
                                         TmaBoxD{});
          !s)
        return {s.code(), "C: " + s.message()};
    }
    p = out;
    return Status::success();
  }

  // ---- device ------------------------------------------------------------------------------------

  // Every thread of the CTA calls it with threadIdx.x; the kernel's __syncthreads() follows.
  STRATA_DEVICE static void init(SharedStorage& smem, int t) {
    if (t == 0) {
      STRATA_UNROLL
      for (int wg = 0; wg < kConsumers; ++wg) arch::mbarrier_init(&smem.c_loaded[wg], 1);
      arch::fence_mbarrier_init();
    }
  }

  // Optional: brings the descriptors into the cache ahead of the first store (any one thread).
  STRATA_DEVICE static void prefetch(Params const& p) {
    arch::prefetch_tensormap(&p.tma_d);
    if (p.reads_source) arch::prefetch_tensormap(&p.tma_c);
  }

  struct NoHook {
    STRATA_DEVICE void operator()() const {}
  };

  // Warpgroup `wg` writes rows m0 .. m0 + 63, columns n0 .. n0 + BN - 1 of batch `batch`; all 128
  // of its threads call it together (t = thread within the warpgroup) with the same arguments.
  // before_right() runs (all of them together) before the first sub-tile that reads acc past
  // BN / 2 - 1, if one is reached: where a split tail's right half is made final (the mainloop).
  template <class BeforeRight = NoHook>
  STRATA_DEVICE static void store(Params const& p, SharedStorage& smem, State& state, float const (&acc)[BN / 2],
                                  int wg, int m0, int n0, int batch, int t, BeforeRight&& before_right = {}) {
    if (m0 >= p.m) return;  // the whole warpgroup is past the bottom edge
    const uint32_t barrier_id = 1 + uint32_t(wg);
    const bool issuer = t == 0;  // the one thread whose bulk groups these stores are
    uint64_t* c_loaded = &smem.c_loaded[wg];
    STRATA_UNROLL
    for (int s = 0; s < kSubtiles; ++s) {
      if ((s + 1) * EpiN > BN / 2) before_right();
      const int col0 = n0 + s * EpiN;
      if (col0 >= p.n) break;  // this and the later sub-tiles are past the right edge
      TD* buffer = smem.staging[wg][state.buffer];
      // At most kBuffers - 1 stores in flight (the other buffer's); the one that last read `buffer`
      // is done.
      if (issuer) arch::bulk_wait_group_read<kBuffers - 1>();
      if (p.reads_source) {
        if (issuer) {
          arch::mbarrier_arrive_expect_tx(c_loaded, kSubtileBytes);
          arch::tma_load(&p.tma_c, c_loaded, buffer, col0, m0, batch * p.c_batched);
        }
        arch::mbarrier_wait_parity_or_trap(c_loaded, state.c_phase);  // also orders this after the wait above
        state.c_phase ^= 1u;
      } else {
        arch::named_barrier_sync(barrier_id, kThreads);  // nobody writes `buffer` before its store has read it
      }
      // Most sub-tiles lie inside D and read no C: staged without per-element edge tests.
      if (!p.reads_source && m0 + kRows <= p.m && col0 + EpiN <= p.n) {
        stage<false>(p, buffer, acc, s, m0, col0, t);
      } else {
        stage<true>(p, buffer, acc, s, m0, col0, t);
      }
      arch::fence_proxy_async_shared();  // this thread's shared-memory writes before TMA reads them
      arch::named_barrier_sync(barrier_id, kThreads);
      if (issuer) {
        if (col0 < p.n_tma) arch::tma_store(&p.tma_d, buffer, col0, m0, batch);
        arch::bulk_commit_group();  // one bulk group per sub-tile (empty without a store): what the wait above counts
      }
      state.buffer = (state.buffer + 1u) % kBuffers;
    }
    // The columns TMA leaves out lie in the last sub-tile staged, whose buffer is reused only after
    // the next sub-tile's barrier: read back now, with the accumulators dead.
    if (p.n_tma < p.n && n0 <= p.n_tma && p.n_tma < n0 + BN) {
      const int col0 = n0 + (p.n_tma - n0) / EpiN * EpiN;
      store_tail(p, smem.staging[wg][(state.buffer + kBuffers - 1u) % kBuffers], m0, col0, batch, t);
      // With one buffer the next sub-tile's C load lands in it without a barrier first.
      if constexpr (kBuffers == 1) arch::named_barrier_sync(barrier_id, kThreads);
    }
  }

  // The warpgroup's stores complete (global writes done); each warpgroup's thread t == 0 must call
  // it before exiting (others may, it does nothing for them).
  STRATA_DEVICE static void drain(int t) {
    if (t == 0) arch::bulk_wait_group<0>();
  }

 private:
  // The functor on an element; kGeneral: C as read, and 0 past the output's edges (TMA does not
  // store those); else a sub-tile inside D that reads no C.
  template <bool kGeneral>
  STRATA_DEVICE static __forceinline__ float apply(Params const& p, float a, float c, int row, int col) {
    if constexpr (!kGeneral) return float(p.functor(a, 0.f, row, col));
    return row < p.m && col < p.n ? float(p.functor(a, c, row, col)) : 0.f;
  }

  template <bool kGeneral>
  STRATA_DEVICE static __forceinline__ void stage(Params const& p, TD* buffer, float const (&acc)[BN / 2], int s,
                                                  int m0, int col0, int t) {
    if constexpr (k16Bit) {
      stage_16bit<kGeneral>(p, buffer, acc, s, m0, col0, t);
    } else {
      stage_float<kGeneral>(p, buffer, acc, s, m0, col0, t);
    }
  }

  // 16-bit D: for each 16-column block k, stmatrix x4 writes matrix r = rows 8 (r % 2) .. of the
  // warp, columns 16k + 8 (r / 2) ..: register r is acc[32s + 8k + 2r] and the next, lane 8r + i
  // addresses row i of matrix r. With C, ldmatrix x4 at the same addresses gives C in that layout.
  template <bool kGeneral>
  STRATA_DEVICE static void stage_16bit(Params const& p, TD* buffer, float const (&acc)[BN / 2], int s, int m0,
                                        int col0, int t) {
    const int warp = t / 32, lane = t % 32;
    const int row_lo = 16 * warp + lane / 4;    // this thread's first row in the sub-tile
    const int col_in = 2 * (lane % 4);          // its first column in an 8-column block
    const int matrix = lane / 8;
    const int addr_row = 16 * warp + 8 * (matrix % 2) + lane % 8;  // the row this lane addresses
    STRATA_UNROLL
    for (int k = 0; k < EpiN / 16; ++k) {
      TD* row_ptr = buffer + StagingLayout{}(16 * k + 8 * (matrix / 2), addr_row);
      uint32_t source[4] = {0u, 0u, 0u, 0u};
      if (kGeneral && p.reads_source) arch::ldmatrix<4>(row_ptr, source);
      uint32_t out[4];
      STRATA_UNROLL
      for (int r = 0; r < 4; ++r) {
        const int i = 32 * s + 8 * k + 2 * r;
        const int row = m0 + row_lo + 8 * (r % 2), col = col0 + 16 * k + 8 * (r / 2) + col_in;
        const float2 c = detail::unpack_pair<TD>(source[r]);
        out[r] = detail::pack_pair<TD>(apply<kGeneral>(p, acc[i], c.x, row, col),
                                       apply<kGeneral>(p, acc[i + 1], c.y, row, col + 1));
      }
      arch::stmatrix<4>(row_ptr, out);
    }
  }

  // float D: each pair (acc[4j + 2h], + 1) goes to row 16w + l/4 + 8h, columns 8j + 2(l % 4), + 1,
  // as one 8-byte store (two wavefronts per warp, the least for 256 bytes); C is read from there.
  template <bool kGeneral>
  STRATA_DEVICE static void stage_float(Params const& p, TD* buffer, float const (&acc)[BN / 2], int s, int m0,
                                        int col0, int t) {
    const int warp = t / 32, lane = t % 32;
    const int row_lo = 16 * warp + lane / 4;
    const int col_in = 2 * (lane % 4);
    STRATA_UNROLL
    for (int b = 0; b < EpiN / 8; ++b) {
      STRATA_UNROLL
      for (int h = 0; h < 2; ++h) {
        const int i = 4 * (s * (EpiN / 8) + b) + 2 * h;
        const int local_row = row_lo + 8 * h, local_col = 8 * b + col_in;
        float2* pair = reinterpret_cast<float2*>(buffer + StagingLayout{}(local_col, local_row));
        const float2 c = kGeneral && p.reads_source ? *pair : make_float2(0.f, 0.f);
        const int row = m0 + local_row, col = col0 + local_col;
        *pair = make_float2(apply<kGeneral>(p, acc[i], c.x, row, col),
                            apply<kGeneral>(p, acc[i + 1], c.y, row, col + 1));
      }
    }
  }

  // Columns [n_tma, n) of the sub-tile at col0 (fewer than kVector, all in it), read back from the
  // staged sub-tile after the barrier and stored plainly; TMA's map stops short of them.
  STRATA_DEVICE static void store_tail(Params const& p, TD const* buffer, int m0, int col0, int batch, int t) {
    TD* d = p.d + int64_t(batch) * p.batch_stride_d;
    for (int e = t; e < kRows * kVector; e += kThreads) {
      const int r = e / kVector, c = p.n_tma + e % kVector;
      if (c < p.n && m0 + r < p.m) d[int64_t(m0 + r) * p.ldd + c] = buffer[StagingLayout{}(c - col0, r)];
    }
  }

  // D or C as TMA's global tensor: (n, m, batches), strides (1, ld, batch stride) in elements.
  static auto global_layout(int m, int n, int64_t ld, int64_t batch_stride, int batches) {
    return make_layout(make_shape(int64_t(n), int64_t(m), int64_t(batches)),
                       make_stride(int64_t(1), ld, batches > 1 ? batch_stride : int64_t(m) * ld));
  }

  // The rules TMA sets for an operand, in the operand's own names; then TMA's remaining limits.
  static Status check_operand(const char* name, const char* ld_name, const char* stride_name, const char* use,
                              TD const* ptr, int64_t ld, int64_t batch_stride, int m, int n, int batches) {
    using std::to_string;
    const std::string nm(name), ldn(ld_name), sn(stride_name);
    const std::string vector = to_string(16 / sizeof(TD)) + " elements (16 bytes: " + use + ")";
    if (const auto off = reinterpret_cast<uintptr_t>(ptr) % 16; off != 0)
      return {StatusCode::misaligned_pointer, nm + " must be 16-byte aligned (" + use + "); it is " + to_string(off) +
                                                  " bytes past a multiple of 16"};
    if (ld < n)
      return {StatusCode::invalid_leading_dim,
              ldn + " (" + to_string(ld) + ") is smaller than n (" + to_string(n) + "): the rows of " + nm + " overlap"};
    if ((ld * int64_t(sizeof(TD))) % 16 != 0)
      return {StatusCode::misaligned_leading_dim, ldn + " (" + to_string(ld) + ") must be a multiple of " + vector};
    if (batches > 1 && (batch_stride * int64_t(sizeof(TD))) % 16 != 0)
      return {StatusCode::misaligned_leading_dim,
              sn + " (" + to_string(batch_stride) + ") must be a multiple of " + vector};
    TmaEncodeArgs args;
    if (Status s = make_tma_args(args, ptr, global_layout(m, n, ld, batch_stride, batches), TmaBoxD{}); !s)
      return {s.code(), nm + ": " + s.message()};
    return Status::success();
  }
};

}  // namespace strata
