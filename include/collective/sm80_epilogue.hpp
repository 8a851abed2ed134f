// Strata floor 3: how an Ampere CTA's accumulators leave it. The accumulators sit in the MMA's
// fragment layout (pairs of columns spread over lanes), which would make narrow, scattered global
// stores. So the tile goes out band by band through shared memory:
//
//   registers --(the MMA's C layout)--> shared band of (WarpsM*16) rows × BN, fp32, padded rows
//   shared --(16-byte row chunks, coalesced)--> functor(acc, C, row, col) --> global D
//
// C is read, with the same 16-byte chunks, only when the functor says it needs it. Chunks that
// hang over the right edge of the matrix, or (with a Config's Alignment below 16) are not 16-byte
// aligned, are written element by element.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "sm80_config.hpp"

namespace strata {

namespace detail {
template <class T>
STRATA_HD float to_float(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __half2float(x);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __bfloat162float(x);
  } else {
    return static_cast<float>(x);
  }
}
// The type accumulators are handed to the functor in: double for integers (exact), else float.
template <class Accumulator>
using compute_t = std::conditional_t<std::is_integral_v<Accumulator>, double, float>;

// An element as the compute type: 16-bit floats through float, anything else converted directly.
template <class Compute, class T>
STRATA_HD Compute to_compute(T x) {
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<Compute>(to_float(x));
  } else {
    return static_cast<Compute>(x);
  }
}

template <class T>
STRATA_HD T from_compute(double x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(llrint(x));
  } else {
    return static_cast<T>(x);
  }
}

template <class T>
STRATA_HD T from_float(float x) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(x);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(x);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(lrintf(x));
  } else {
    return static_cast<T>(x);
  }
}

// A functor's result as a D element: integers rounded from double, floats converted.
template <class TD, class R>
STRATA_HD TD store_as(R x) {
  if constexpr (std::is_integral_v<TD>) {
    return from_compute<TD>(static_cast<double>(x));
  } else {
    return from_float<TD>(static_cast<float>(x));
  }
}

// 16 bytes of T as one register-resident vector.
template <class T>
struct alignas(16) Vector16 {
  static constexpr int size = 16 / int(sizeof(T));
  T v[size];
};
}  // namespace detail

template <class TD, class TC, class Functor>
struct Sm80EpilogueArguments {
  TD* D;
  int64_t ldd;
  TC const* C;  // read only when functor.reads_source()
  int64_t ldc;
  Functor functor;
};

template <class Config, class TD, class TC, class Functor>
struct Sm80Epilogue {
  using Accumulator = typename Config::ElementAccumulator;
  using TiledMma = typename Config::TiledMmaType;
  static constexpr int BN = Config::BN;
  static constexpr int band_rows = decltype(TiledMma::template tile_size_mnk<0>())::value;
  static constexpr int bands = Config::BM / band_rows;
  // Row pitch padded by 8 words: the 8 rows one fragment store touches land on distinct banks.
  static constexpr int pitch = BN + 8;
  static constexpr int smem_bytes = band_rows * pitch * int(sizeof(Accumulator));
  static constexpr int vec = 16 / int(sizeof(TD));
  using Compute = detail::compute_t<Accumulator>;

  static_assert(BN % vec == 0, "Sm80Epilogue: BN must be a multiple of the 16-byte output vector");
  static_assert(std::is_same_v<TD, TC> || std::is_same_v<TC, void>,
                "Sm80Epilogue: C and D must have the same element type");

  // Whether D (and C, when read) can move in 16-byte vectors here: always under the 16-byte rule,
  // else where both addresses happen to be aligned.
  STRATA_DEVICE static bool vector_aligned(TD const* d, TC const* c) {
    if constexpr (Config::alignment >= 16) {
      return true;
    } else {
      return (reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(c)) % 16 == 0;
    }
  }

  // Writes the CTA's BM × BN tile at (m0, n0) of the m × n output. `smem` holds smem_bytes.
  // `accum` is the fragment of the calling thread from partition_fragment_C of the TiledMMA.
  template <class Accum>
  STRATA_DEVICE static void run(Sm80EpilogueArguments<TD, TC, Functor> const& args, int m, int n, int m0, int n0,
                                Accum const& accum, char* smem) {
    const int tid = threadIdx.x;
    TiledMma mma;
    auto thr_mma = mma.get_slice(tid);
    auto sBand = make_tensor(make_smem_ptr(reinterpret_cast<Accumulator*>(smem)),
                             make_layout(make_shape(Int<band_rows>{}, Int<BN>{}), make_stride(Int<pitch>{}, _1{})));
    auto tCsBand = thr_mma.partition_C(sBand);  // (V, 1, MMA_N): this thread's part of one band
    constexpr int V = decltype(size<0>(tCsBand.layout()))::value;
    constexpr int NN = decltype(size<2>(tCsBand.layout()))::value;
    const bool reads_source = args.functor.reads_source();

    const bool holds_tile = Config::holds_sum(tid);  // with sliced K, the first slice's threads

    STRATA_UNROLL
    for (int band = 0; band < bands; ++band) {
      if (holds_tile) {
        STRATA_UNROLL
        for (int j = 0; j < NN; ++j) {
          STRATA_UNROLL
          for (int v = 0; v < V; ++v) tCsBand(v, 0, j) = accum(v, band, j);
        }
      }
      __syncthreads();

      constexpr int chunks_per_row = BN / vec;
      constexpr int chunks = band_rows * chunks_per_row;
      STRATA_UNROLL
      for (int c = tid; c < chunks; c += Config::kThreads) {
        const int row = c / chunks_per_row;
        const int col = (c % chunks_per_row) * vec;
        const int gm = m0 + band * band_rows + row;
        const int gn = n0 + col;
        if (gm >= m || gn >= n) continue;
        Compute acc[vec];
        STRATA_UNROLL
        for (int e = 0; e < vec; ++e) acc[e] = static_cast<Compute>(sBand(row, col + e));
        TD* d = args.D + gm * args.ldd + gn;
        if (gn + vec <= n && vector_aligned(d, reads_source ? args.C + gm * args.ldc + gn : nullptr)) {
          detail::Vector16<TD> source{}, out;
          if (reads_source) source = *reinterpret_cast<detail::Vector16<TD> const*>(args.C + gm * args.ldc + gn);
          STRATA_UNROLL
          for (int e = 0; e < vec; ++e) {
            out.v[e] = detail::store_as<TD>(args.functor(acc[e], detail::to_compute<Compute>(source.v[e]), gm, gn + e));
          }
          *reinterpret_cast<detail::Vector16<TD>*>(d) = out;
        } else {
          for (int e = 0; e < vec && gn + e < n; ++e) {
            const Compute source = reads_source ? detail::to_compute<Compute>(args.C[gm * args.ldc + gn + e]) : 0;
            d[e] = detail::store_as<TD>(args.functor(acc[e], source, gm, gn + e));
          }
        }
      }
      __syncthreads();
    }
  }
};

}  // namespace strata
