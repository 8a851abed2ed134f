// Strata floor 3: how a Hopper consumer warpgroup's accumulators leave it. The same functors as
// the Ampere epilogue (LinearCombination, bias + activation, any user functor) run on each
// accumulator in registers, and each thread stores the elements it holds: wgmma's accumulator
// layout gives thread t of the warpgroup (warp w = t / 32, lane l) rows 16w + l/4 and 16w + l/4 + 8
// of its 64, columns 8j + 2(l % 4) and the next one for every j < BN / 8. Elements past the
// matrix's edges are not stored; C is read only when the functor reads it. The two adjacent
// columns of a thread go out as one store where they are aligned for it. Transposed: element
// (row, col) goes to D[col · ldd + row] (C read there too) and the functor sees (col, row): the
// kernel computes D^T for a caller that swapped A and B (Sm90Store::plain_transposed).
#pragma once

#include <cstdint>

#include "sm80_epilogue.hpp"  // Sm80EpilogueArguments, store_as, to_compute
#include "sm90_config.hpp"

namespace strata {

template <class Config, class TD, class Functor, bool Transposed = false>
struct Sm90Epilogue {
  static constexpr int BN = Config::BN;
  using Arguments = Sm80EpilogueArguments<TD, TD, Functor>;
  // A thread's two adjacent columns, stored together where D's row keeps them aligned.
  struct alignas(2 * sizeof(TD)) Pair {
    TD v[2];
  };

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
