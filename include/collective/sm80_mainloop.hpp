// Strata floor 3: the Ampere multistage mainloop. One CTA computes a BM × BN tile of A·B over a
// range of K tiles:
//
//   global --cp.async (16-byte chunks, zero-fill at the edges)--> shared, Stages buffers ahead
//   shared --ldmatrix--> registers, the next k-block while the current one multiplies
//   registers --mma.sync--> accumulators
//
// Ragged edges: every 16-byte chunk is copied with a byte count clamped to what exists in its row
// (or column), and the rest of the chunk is zero-filled, so M, N and K need not be multiples of
// anything. Leading dimensions and pointers keep 16-byte chunks aligned (Gemm::can_implement)
// unless the Config's Alignment is lower, when each chunk is split as its address allows.
#pragma once

#include "../atom/arch/sm80.hpp"
#include "sm80_config.hpp"

namespace strata {

// What one CTA needs to know about its operands: the whole matrices as (rows, K) tensors in
// global memory (A as (M, K), B as (N, K)), and the K-tile range it owns.
template <class Config>
struct Sm80MainloopArguments {
  using TA = typename Config::ElementA;
  using TB = typename Config::ElementB;
  TA const* A;
  int64_t lda;
  TB const* B;
  int64_t ldb;
  int m, n, k;
};

template <class Config>
struct Sm80Mainloop {
  using TA = typename Config::ElementA;
  using TB = typename Config::ElementB;
  using TiledMma = typename Config::TiledMmaType;
  static constexpr int BM = Config::BM, BN = Config::BN, BK = Config::BK, Stages = Config::Stages;

  // (rows, K) view of a global operand: K-major rows are contiguous in K, else columns in rows.
  template <bool KMajor, class T>
  STRATA_DEVICE static auto global_operand(T const* ptr, int rows, int k, int64_t ld) {
    if constexpr (KMajor) {
      return make_tensor(make_gmem_ptr(ptr), make_layout(make_shape(rows, k), make_stride(ld, _1{})));
    } else {
      return make_tensor(make_gmem_ptr(ptr), make_layout(make_shape(rows, k), make_stride(_1{}, ld)));
    }
  }

  // Copies one K tile of an operand into one stage: each thread's 16-byte chunks, `g` being the
  // chunks of K tile 0 and `offset` the elements from there to this tile. The common case: the
  // whole tile lies inside the matrix.
  template <class Atom, class GTile, class STile>
  STRATA_DEVICE static void load_whole_tile(GTile const& g, int64_t offset, STile const& s) {
    copy_bytes(Atom{}, [](int) { return 16; }, make_tensor(g.data() + offset, g.layout()), s);
  }

  // The same at the matrix's edges: each chunk is clamped to the bytes that exist (rows past
  // `rows_left`, columns past `k_left` read nothing) and zero-filled beyond.
  template <bool KMajor, class Atom, class T, class GTile, class STile, class Coords>
  STRATA_DEVICE static void load_edge_tile(GTile const& g, int64_t offset, STile const& s, Coords const& c,
                                           int rows_left, int k_left) {
    constexpr int vec = 16 / int(sizeof(T));
    auto bytes_of = [&](int call) {
      auto coord = c(call * vec);  // (row, k) of the chunk's first element, within the tile
      const int row = get<0>(coord), col = get<1>(coord);
      int exist = KMajor ? (row < rows_left ? k_left - col : 0) : (col < k_left ? rows_left - row : 0);
      exist = exist < 0 ? 0 : (exist > vec ? vec : exist);
      return exist * int(sizeof(T));
    };
    copy_bytes(Atom{}, bytes_of, make_tensor(g.data() + offset, g.layout()), s);
  }

  // Accumulates A(m0:m0+BM, k tiles [k_tile_begin, k_tile_end)) · B(...)^T into `accum`, a
  // fragment from partition_fragment_C of the TiledMMA. `smem` holds Config::smem_bytes_mainloop.
  template <class Accum>
  STRATA_DEVICE static void run(Sm80MainloopArguments<Config> const& args, int m0, int n0, int k_tile_begin,
                                int k_tile_end, Accum& accum, char* smem) {
    const int tid = threadIdx.x;
    TiledMma mma;
    auto thr_mma = mma.get_slice(tid);

    // Shared-memory tiles, (BM, BK, Stages) and (BN, BK, Stages).
    auto sA = make_tensor(make_smem_ptr(reinterpret_cast<TA*>(smem)), typename Config::SmemLayoutA{});
    auto sB = make_tensor(make_smem_ptr(reinterpret_cast<TB*>(smem + Config::smem_bytes_a)),
                          typename Config::SmemLayoutB{});

    // This CTA's rows of A and B, as (BM, BK, k tiles) and (BN, BK, k tiles).
    auto mA = global_operand<Config::a_k_major>(args.A, args.m, args.k, args.lda);
    auto mB = global_operand<Config::b_k_major>(args.B, args.n, args.k, args.ldb);
    auto gA = local_tile(mA, make_shape(Int<BM>{}, Int<BK>{}), make_coord(m0 / BM, Underscore{}));
    auto gB = local_tile(mB, make_shape(Int<BN>{}, Int<BK>{}), make_coord(n0 / BN, Underscore{}));

    // Global -> shared: each thread's chunks, their shared destinations and tile coordinates.
    typename Config::G2SCopyA g2s_a;
    typename Config::G2SCopyB g2s_b;
    auto g2s_thr_a = g2s_a.get_slice(tid);
    auto g2s_thr_b = g2s_b.get_slice(tid);
    auto tAgA = g2s_thr_a.partition_S(gA(Underscore{}, Underscore{}, 0));  // (CPY, CPY_M, CPY_K) of K tile 0
    auto tAsA = g2s_thr_a.partition_D(sA);                                  // (CPY, CPY_M, CPY_K, Stages)
    auto tBgB = g2s_thr_b.partition_S(gB(Underscore{}, Underscore{}, 0));
    auto tBsB = g2s_thr_b.partition_D(sB);
    auto cA = make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{}));
    auto cB = make_identity_tensor(make_shape(Int<BN>{}, Int<BK>{}));
    auto tAcA = g2s_thr_a.partition_S(cA);  // (CPY, CPY_M, CPY_K) -> (row, k) in the tile
    auto tBcB = g2s_thr_b.partition_S(cB);
    const int a_rows_left = args.m - m0, b_rows_left = args.n - n0;
    // Elements from one K tile to the next.
    const int64_t a_step = Config::a_k_major ? int64_t(BK) : BK * args.lda;
    const int64_t b_step = Config::b_k_major ? int64_t(BK) : BK * args.ldb;
    const bool rows_whole = a_rows_left >= BM && b_rows_left >= BN;
    using AtomA = typename Config::G2SAtomA;
    using AtomB = typename Config::G2SAtomB;

    auto load = [&](int k_tile, int stage) {
      const int k_left = args.k - k_tile * BK;
      auto sA_stage = tAsA(Underscore{}, Underscore{}, Underscore{}, stage);
      auto sB_stage = tBsB(Underscore{}, Underscore{}, Underscore{}, stage);
      if (rows_whole && k_left >= BK) {
        load_whole_tile<AtomA>(tAgA, k_tile * a_step, sA_stage);
        load_whole_tile<AtomB>(tBgB, k_tile * b_step, sB_stage);
      } else {
        load_edge_tile<Config::a_k_major, AtomA, TA>(tAgA, k_tile * a_step, sA_stage, tAcA, a_rows_left, k_left);
        load_edge_tile<Config::b_k_major, AtomB, TB>(tBgB, k_tile * b_step, sB_stage, tBcB, b_rows_left, k_left);
      }
    };

    // Shared -> registers: ldmatrix into exactly the MMA's fragments.
    // Two k-blocks of register fragments: the one being multiplied and the one being loaded.
    constexpr int k_blocks = Config::k_blocks;  // of this warp's K slice
    auto two_k_blocks = [](auto rows) { return make_shape(rows, Int<2 * Config::kWarpsK * Config::atom_k>{}); };
    auto tCrA = thr_mma.partition_fragment_A(two_k_blocks(Int<BM>{}));  // (V, MMA_M, 2)
    auto tCrB = thr_mma.partition_fragment_B(two_k_blocks(Int<BN>{}));  // (V, MMA_N, 2)
    auto s2r_a = make_tiled_copy_A(typename Config::S2RAtomA{}, mma);
    auto s2r_b = make_tiled_copy_B(typename Config::S2RAtomB{}, mma);
    auto s2r_thr_a = s2r_a.get_slice(tid);
    auto s2r_thr_b = s2r_b.get_slice(tid);
    auto tXsA = s2r_thr_a.partition_S(sA);  // (CPY, CPY_M, k blocks, Stages)
    auto tXrA = s2r_thr_a.retile_D(tCrA);   // (CPY, CPY_M, 2)
    auto tXsB = s2r_thr_b.partition_S(sB);
    auto tXrB = s2r_thr_b.retile_D(tCrB);

    auto load_k_block = [&](int stage, int kb) {
      copy(s2r_a, tXsA(Underscore{}, Underscore{}, kb, stage), tXrA(Underscore{}, Underscore{}, kb % 2));
      copy(s2r_b, tXsB(Underscore{}, Underscore{}, kb, stage), tXrB(Underscore{}, Underscore{}, kb % 2));
    };

    // Prologue: Stages - 1 tiles in flight (empty commit groups past the end keep the count).
    int k_tile_next = k_tile_begin;
    STRATA_UNROLL
    for (int stage = 0; stage < Stages - 1; ++stage) {
      if (k_tile_next < k_tile_end) load(k_tile_next, stage);
      arch::cp_async_commit();
      ++k_tile_next;
    }

    int read_stage = 0;
    int write_stage = Stages - 1;
    arch::cp_async_wait<Stages - 2>();
    __syncthreads();
    if (k_tile_begin < k_tile_end) load_k_block(read_stage, 0);

    // One K tile: its k-blocks are multiplied while the next ones are read from shared memory,
    // and the tile Stages - 1 ahead is loaded into the stage freed one tile ago. With `whole`
    // (std::true_type) that tile is known to exist and to lie inside the matrix, and so is the
    // next k-block: the step is then one straight-line block without branches, which the compiler
    // schedules as a whole (cp.async and ldmatrix interleaved with mma.sync instead of all warps
    // issuing copies while the tensor cores wait).
    auto step = [&](int k_tile, auto whole) {
      constexpr bool Whole = decltype(whole)::value;
      STRATA_UNROLL
      for (int kb = 0; kb < k_blocks; ++kb) {
        if (kb == k_blocks - 1) {
          // The next tile's stage must have landed before its first k-block is read.
          read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
          arch::cp_async_wait<Stages - 2>();
          __syncthreads();
        }
        const int kb_next = kb + 1 == k_blocks ? 0 : kb + 1;
        if (Whole || kb != k_blocks - 1 || k_tile + 1 < k_tile_end) load_k_block(read_stage, kb_next);
        if (kb == 0) {
          if constexpr (Whole) {
            load_whole_tile<AtomA>(tAgA, k_tile_next * a_step, tAsA(Underscore{}, Underscore{}, Underscore{}, write_stage));
            load_whole_tile<AtomB>(tBgB, k_tile_next * b_step, tBsB(Underscore{}, Underscore{}, Underscore{}, write_stage));
          } else {
            if (k_tile_next < k_tile_end) load(k_tile_next, write_stage);
          }
          arch::cp_async_commit();
          ++k_tile_next;
          write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
        }
        gemm(mma, tCrA(Underscore{}, Underscore{}, kb % 2), tCrB(Underscore{}, Underscore{}, kb % 2), accum);
      }
    };

    // Steps whose load is a whole tile (all rows of the CTA inside the matrix, the K tile inside
    // K) run first without any edge checks; the last Stages - 1 tiles and edge CTAs take the
    // checked step.
    const int k_full_tiles = args.k / BK;
    const int k_whole_end = rows_whole ? (k_full_tiles < k_tile_end ? k_full_tiles : k_tile_end) : k_tile_begin;
    int k_tile = k_tile_begin;
    for (; k_tile + (Stages - 1) < k_whole_end; ++k_tile) step(k_tile, std::true_type{});
    for (; k_tile < k_tile_end; ++k_tile) step(k_tile, std::false_type{});
    arch::cp_async_wait<0>();
    __syncthreads();  // the epilogue may reuse the shared memory
    if constexpr (Config::kWarpsK > 1) add_slices(accum, smem);
  }

  // Sliced K: warp group 0 adds the other groups' accumulators to its own, in group order (the
  // sum does not depend on timing). Afterwards only group 0's accumulators are the tile's; the
  // epilogue and the split-K partials take theirs alone (threads below Config::kSliceThreads).
  // Each value goes through shared memory as value i of slice thread t at i * kSliceThreads + t:
  // a warp's 32 stores or loads of one value are 128 contiguous bytes, free of bank conflicts.
  template <class Accum>
  STRATA_DEVICE static void add_slices(Accum& accum, char* smem) {
    using Acc = typename Config::ElementAccumulator;
    constexpr int values = decltype(size(accum.layout()))::value;
    constexpr int T = Config::kSliceThreads;
    static_assert(int64_t(Config::kWarpsK - 1) * values * T * int(sizeof(Acc)) <= Config::smem_bytes_mainloop,
                  "Sm80Mainloop: the K slices' accumulators must fit the mainloop's shared memory");
    Acc* slices = reinterpret_cast<Acc*>(smem);
    const int group = threadIdx.x / T, t = threadIdx.x % T;
    if (group > 0) {
      Acc* mine = slices + int64_t(group - 1) * values * T + t;
      STRATA_UNROLL
      for (int i = 0; i < values; ++i) mine[i * T] = accum(i);
    }
    __syncthreads();
    if (group == 0) {
      for (int g = 1; g < Config::kWarpsK; ++g) {
        Acc const* theirs = slices + int64_t(g - 1) * values * T + t;
        STRATA_UNROLL
        for (int i = 0; i < values; ++i) accum(i) += theirs[i * T];
      }
    }
    __syncthreads();  // the epilogue reuses the shared memory
  }
};

}  // namespace strata
