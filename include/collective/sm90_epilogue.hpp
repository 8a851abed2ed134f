// Strata floor 3: how a Hopper consumer warpgroup's accumulators leave it. The same functors as
// the Ampere epilogue (LinearCombination, bias + activation, any user functor) run on each
// accumulator in registers, and each thread stores the elements it holds: wgmma's accumulator
// layout gives thread t of the warpgroup (warp w = t / 32, lane l) rows 16w + l/4 and 16w + l/4 + 8
// of its 64, columns 8j + 2(l % 4) and the next one for every j < BN / 8. Elements past the
// matrix's edges are not stored; C is read only when the functor reads it. The two adjacent
// columns of a thread go out as one store where they are aligned for it. Transposed: element
// (row, col) goes to D[col · ldd + row] (C read there too) and the functor sees (col, row): the
// kernel computes D^T for a caller that swapped A and B (Sm90Store::plain_transposed). A 16-bit
// transposed D whose rows are 16-byte aligned goes through shared memory instead (store_staged):
// each D row of the block then leaves as 16-byte stores, where the element stores above would
// write 16 bytes per four lanes across as many rows.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../atom/arch/sm90.hpp"  // stmatrix_trans, named barriers
#include "sm80_epilogue.hpp"      // Sm80EpilogueArguments, store_as, to_compute
#include "sm90_config.hpp"

namespace strata {

namespace detail {
// Two values as one 32-bit register of 16-bit TD, the first in the low half (stmatrix's order).
template <class TD>
STRATA_DEVICE __forceinline__ uint32_t pack_pair(float lo, float hi) {
  if constexpr (std::is_same_v<TD, __nv_bfloat16>) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t const*>(&v);
  } else {
    const __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t const*>(&v);
  }
}
template <class TD>
STRATA_DEVICE __forceinline__ float2 unpack_pair(uint32_t bits) {
  if constexpr (std::is_same_v<TD, __nv_bfloat16>) {
    return __bfloat1622float2(*reinterpret_cast<__nv_bfloat162 const*>(&bits));
  } else {
    return __half22float2(*reinterpret_cast<__half2 const*>(&bits));
  }
}
}  // namespace detail

template <class Config, class TD, class Functor, bool Transposed = false>
struct Sm90Epilogue {
  static constexpr int BN = Config::BN;
  using Arguments = Sm80EpilogueArguments<TD, TD, Functor>;
  // A thread's two adjacent columns, stored together where D's row keeps them aligned.
  struct alignas(2 * sizeof(TD)) Pair {
    TD v[2];
  };

  // Shared memory of store_staged, one per warpgroup: the block transposed, BN rows of 64 elements
  // (128 bytes), the 16-byte chunks of row r at chunk ^ (r % 8) so that neither stmatrix's eight
  // rows nor a warp's reads of four whole rows meet in a bank.
  static constexpr bool kStaged = Transposed && sizeof(TD) == 2 && BN % 16 == 0;
  struct alignas(128) Staging {
    TD v[kStaged ? BN * 64 : 1];
  };

  // Where 16-byte chunk `chunk` of staging row r starts, in elements.
  STRATA_DEVICE static constexpr int staged_offset(int r, int chunk) { return r * 64 + (chunk ^ (r % 8)) * 8; }

  // Whether store_staged takes the shared-memory path for D at `d` (at its batch) with leading
  // dimension ldd: 16-byte aligned rows, and no C to read.
  STRATA_HOST_DEVICE static bool staged(TD const* d, int64_t ldd, bool reads_source) {
    return kStaged && !reads_source && reinterpret_cast<uintptr_t>(d) % 16 == 0 && ldd % 8 == 0;
  }

  // store() for Transposed, through `staging` where staged() holds and the block's 64 rows lie
  // inside m (its columns may pass n: those D rows are not written). All 128 threads of the
  // warpgroup call it together; `barrier_id` is a named barrier of theirs.
  STRATA_DEVICE static void store_staged(Arguments const& out, int m, int n, int m0, int n0,
                                         float const (&acc)[BN / 2], int t, Staging& staging, uint32_t barrier_id) {
    static_assert(kStaged, "Sm90Epilogue::store_staged: only a transposed 16-bit D with BN a multiple of 16 is staged");
    if (!staged(out.D, out.ldd, out.functor.reads_source()) || m0 + 64 > m) {
      store(out, m, n, m0, n0, acc, t);
      return;
    }
    const int warp = t / 32, lane = t % 32;
    arch::named_barrier_sync(barrier_id, 128);  // the last block's reads of `staging` are done
    // Fragment block (j, h): rows 16 warp + 8h .. + 7, columns 8j .. 8j + 7; stmatrix.trans writes it
    // as staging rows 8j .. 8j + 7 (D's rows), chunk 2 warp + h of each.
    STRATA_UNROLL
    for (int j0 = 0; j0 < BN / 8; j0 += 2) {
      uint32_t pairs[4];
      STRATA_UNROLL
      for (int q = 0; q < 4; ++q) {
        const int i = 4 * (j0 + q / 2) + 2 * (q % 2);
        const int row = m0 + 16 * warp + 8 * (q % 2) + lane / 4, col = n0 + 8 * (j0 + q / 2) + 2 * (lane % 4);
        pairs[q] = detail::pack_pair<TD>(col < n ? float(out.functor(acc[i], 0.f, col, row)) : 0.f,
                                         col + 1 < n ? float(out.functor(acc[i + 1], 0.f, col + 1, row)) : 0.f);
      }
      const int q = lane / 8, r = 8 * (j0 + q / 2) + lane % 8;  // the matrix this lane addresses, its row
      arch::stmatrix_trans<4>(staging.v + staged_offset(r, 2 * warp + q % 2), pairs);
    }
    arch::named_barrier_sync(barrier_id, 128);
    const int rows = n - n0 < BN ? n - n0 : BN;
    for (int e = t; e < rows * 8; e += 128) {
      const int r = e / 8, chunk = e % 8;
      const uint4 v = *reinterpret_cast<uint4 const*>(staging.v + staged_offset(r, chunk));
      *reinterpret_cast<uint4*>(out.D + int64_t(n0 + r) * out.ldd + m0 + 8 * chunk) = v;
    }
  }

  // Writes this warpgroup's 64 × BN block at rows m0.., columns n0.. of the m × n output (D and C
  // already at the batch); `t` is the thread within the warpgroup.
  STRATA_DEVICE static void store(Arguments const& out, int m, int n, int m0, int n0, float const (&acc)[BN / 2],
                                  int t) {
    const int warp = t / 32, lane = t % 32;
    const int row_base = m0 + 16 * warp + lane / 4;
    const int col_base = n0 + 2 * (lane % 4);
    const bool reads_source = out.functor.reads_source();
    if constexpr (Transposed) {
      STRATA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        STRATA_UNROLL
        for (int h = 0; h < 2; ++h) {
          const int row = row_base + 8 * h;
          STRATA_UNROLL
          for (int e = 0; e < 2; ++e) {
            const int col = col_base + 8 * j + e;
            if (row >= m || col >= n) continue;
            const int64_t at = int64_t(col) * out.ldd + row;
            const float source = reads_source ? detail::to_compute<float>(out.C[int64_t(col) * out.ldc + row]) : 0.f;
            out.D[at] = detail::store_as<TD>(out.functor(acc[4 * j + 2 * h + e], source, col, row));
          }
        }
      }
    } else {
      STRATA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        STRATA_UNROLL
        for (int h = 0; h < 2; ++h) {
          const int row = row_base + 8 * h;
          if (row >= m) continue;
          TD* d = out.D + int64_t(row) * out.ldd;
          TD const* c = reads_source ? out.C + int64_t(row) * out.ldc : nullptr;
          const int col = col_base + 8 * j;
          auto value = [&](int e) {
            const float source = reads_source ? detail::to_compute<float>(c[col + e]) : 0.f;
            return detail::store_as<TD>(out.functor(acc[4 * j + 2 * h + e], source, row, col + e));
          };
          if (col + 1 < n && reinterpret_cast<uintptr_t>(d + col) % sizeof(Pair) == 0) {
            *reinterpret_cast<Pair*>(d + col) = Pair{{value(0), value(1)}};  // one store for the pair
          } else {
            if (col < n) d[col] = value(0);
            if (col + 1 < n) d[col + 1] = value(1);
          }
        }
      }
    }
  }
};

}  // namespace strata
