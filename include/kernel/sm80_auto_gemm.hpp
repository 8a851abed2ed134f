// Strata floor 4: one GEMM object over a set of Ampere tile configurations, choosing per problem
// the one that was measured fastest for its shape (bench/RESULTS.md, H200):
//
//   using G = strata::Sm80AutoGemm<strata::Sm80Tiles<__nv_bfloat16>, __nv_bfloat16>;
//   G::Arguments args;                          // the same fields as Gemm<Kernel>::Arguments
//   ... sizes, pointers, epilogue ...
//   args.split_k = 0;                           // let the chosen kernel split K where it helps
//   args.schedule = strata::Schedule::automatic;
//   G gemm;
//   gemm.initialize(args, workspace, G::workspace_size(args), stream);
//   gemm.run(stream);
//
// A tile set is any type naming five Sm80GemmConfig types of the same element types and layouts,
// one per Sm80TileClass (they may repeat): Narrow, Thin, Medium, Small, Large, and optionally
// Unaligned, the configuration for problems whose pointers, leading dimensions or batch strides
// break the 16-byte rule (by default Small under an element-size Alignment: any element-aligned
// problem runs, more slowly, rather than being refused). Sm80Tiles is the measured one; a user
// tuning for another GPU writes their own. Every configuration is instantiated (compiled) once
// per Sm80AutoGemm type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include "gemm.hpp"

namespace strata {

// The shape classes a tile set covers: decode problems by their row count, larger ones by how
// many of the large configuration's tiles they make.
// unaligned: any class whose data breaks the 16-byte rule (Sm80AutoGemm).
enum class Sm80TileClass { narrow, thin, medium, small, large, unaligned };

// The class of an m-row problem whose output, cut into the large configuration's tiles, makes
// `large_tiles` tiles over all batches, on a GPU holding `large_wave` CTAs of the large
// configuration's split-K entry at once (SMs × CTAs per SM):
//   m <= 32: narrow, m <= 64: thin, m <= 128: medium. Decode shapes: flat tiles keep many CTAs
//     streaming B, and little MMA work goes to rows that do not exist;
//   m > 128: large from half a wave of large tiles up (one wave, or split-K, fills the GPU with
//     the most efficient tile), small below (smaller tiles, two CTAs per SM, more SMs busy).
// The thresholds follow the H200 measurements of Sm80Tiles in bench/RESULTS.md.
constexpr Sm80TileClass sm80_tile_class(long long m, long long large_tiles, long long large_wave) {
  if (m <= 32) return Sm80TileClass::narrow;
  if (m <= 64) return Sm80TileClass::thin;
  if (m <= 128) return Sm80TileClass::medium;
  return large_tiles >= (large_wave + 1) / 2 ? Sm80TileClass::large : Sm80TileClass::small;
}

constexpr const char* sm80_tile_class_name(Sm80TileClass c) {
  switch (c) {
    case Sm80TileClass::narrow: return "narrow";
    case Sm80TileClass::thin: return "thin";
    case Sm80TileClass::medium: return "medium";
    case Sm80TileClass::small: return "small";
    case Sm80TileClass::unaligned: return "unaligned";
    default: return "large";
  }
}

namespace detail {
template <class T, class LayoutA, class LayoutB, int BM, int BN, int BK, int WM, int WN, int Stages, int WK = 1>
using Sm80TileConfig = Sm80GemmConfig<T, T, LayoutA, LayoutB, BM, BN, BK, WM, WN, Stages, WK>;
}  // namespace detail

// The tiles the bench measured best on the H200 for 16-bit inputs (half, bfloat16):
//   Large  256 × 128 × 64, 4 × 2 warps of 64 × 64, 3 stages (one CTA per SM);
//   Small  128 × 128 × 32, 2 × 2 warps, 4 stages (two CTAs per SM);
//   Medium 128 × 128 × 64, 2 × 2 warps of 64 × 64 in each of 2 K slices (sliced K: 8 warps), 5
//          stages (160 KB: fits an A100's 163 KB); faster than 64 × 128 × 64 at m = 128;
//   Thin    64 ×  64 × 64, 1 × 4 warps, 6 stages;
//   Narrow  32 ×  64 × 64, 1 × 4 warps, 8 stages (Thin when A is column-major: an M-major tile
//           needs 64 rows, 128 bytes).
// tf32 (float) and int8 run one tile for every class (the only ones measured and tested).
template <class T, class LayoutA = RowMajor, class LayoutB = ColumnMajor>
struct Sm80Tiles {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>,
                "Sm80Tiles: the element type must be half, bfloat16, float (tf32) or int8_t");
  using Large = detail::Sm80TileConfig<T, LayoutA, LayoutB, 256, 128, 64, 4, 2, 3>;
  using Small = detail::Sm80TileConfig<T, LayoutA, LayoutB, 128, 128, 32, 2, 2, 4>;
  using Medium = detail::Sm80TileConfig<T, LayoutA, LayoutB, 128, 128, 64, 2, 2, 5, 2>;
  using Thin = detail::Sm80TileConfig<T, LayoutA, LayoutB, 64, 64, 64, 1, 4, 6>;
  using Narrow = std::conditional_t<std::is_same_v<LayoutA, RowMajor>,
                                    detail::Sm80TileConfig<T, LayoutA, LayoutB, 32, 64, 64, 1, 4, 8>, Thin>;
};
// A tile set of one configuration for every class: Sm80AutoGemm over it is Gemm over that one.
template <class Config>
struct Sm80OneTile {
  using Large = Config;
  using Small = Config;
  using Medium = Config;
  using Thin = Config;
  using Narrow = Config;
};
template <class LayoutA, class LayoutB>
struct Sm80Tiles<float, LayoutA, LayoutB>
    : Sm80OneTile<detail::Sm80TileConfig<float, LayoutA, LayoutB, 128, 128, 32, 2, 2, 3>> {};
template <class LayoutA, class LayoutB>
struct Sm80Tiles<int8_t, LayoutA, LayoutB>
    : Sm80OneTile<detail::Sm80TileConfig<int8_t, LayoutA, LayoutB, 128, 128, 64, 2, 2, 4>> {};

namespace detail {
template <class Tiles>
struct Sm80UnalignedOf {
  using Small = typename Tiles::Small;
  static constexpr int element_bytes = int(sizeof(typename Small::ElementA)) > int(sizeof(typename Small::ElementB))
                                           ? int(sizeof(typename Small::ElementA))
                                           : int(sizeof(typename Small::ElementB));
  using type = typename Small::template WithAlignment<element_bytes>;
};
template <class Tiles>
  requires requires { typename Tiles::Unaligned; }
struct Sm80UnalignedOf<Tiles> {
  using type = typename Tiles::Unaligned;
};
}  // namespace detail

template <class Tiles, class TD, class Functor = LinearCombination>
class Sm80AutoGemm {
  template <class Config>
  using GemmOf = Gemm<Sm80GemmKernel<Config, TD, Functor>>;
  // In Sm80TileClass order.
  using Gemms = std::tuple<GemmOf<typename Tiles::Narrow>, GemmOf<typename Tiles::Thin>,
                           GemmOf<typename Tiles::Medium>, GemmOf<typename Tiles::Small>,
                           GemmOf<typename Tiles::Large>, GemmOf<typename detail::Sm80UnalignedOf<Tiles>::type>>;
  using LargeGemm = std::tuple_element_t<4, Gemms>;
  template <class G>
  static constexpr bool same_problem_types =
      std::is_same_v<typename G::Arguments, typename LargeGemm::Arguments> &&
      std::is_same_v<typename G::Config::LayoutTagA, typename LargeGemm::Config::LayoutTagA> &&
      std::is_same_v<typename G::Config::LayoutTagB, typename LargeGemm::Config::LayoutTagB>;
  static_assert(same_problem_types<std::tuple_element_t<0, Gemms>> && same_problem_types<std::tuple_element_t<1, Gemms>> &&
                    same_problem_types<std::tuple_element_t<2, Gemms>> && same_problem_types<std::tuple_element_t<3, Gemms>> &&
                    same_problem_types<std::tuple_element_t<5, Gemms>>,
                "Sm80AutoGemm: every configuration of the tile set must have the same element types and layouts");

 public:
  using Arguments = typename LargeGemm::Arguments;

  // The class, and so the configuration, that `args` runs on.
  static Sm80TileClass tile_class(Arguments const& a) {
    // At most 2^47 tiles per batch for int sizes; saturated over the batches, so that sizes
    // can_implement refuses still choose without overflow.
    long long tiles = LargeGemm::tile_count(a);
    const long long batches = a.batch_count > 1 ? a.batch_count : 1;
    tiles = tiles > std::numeric_limits<long long>::max() / batches ? std::numeric_limits<long long>::max()
                                                                     : tiles * batches;
    const Sm80TileClass c = sm80_tile_class(a.m, tiles, LargeGemm::split_k_wave());
    // Data the class's configuration refuses only for its alignment goes to the unaligned one.
    const StatusCode code =
        visit(c, [&](auto* g) { return std::remove_pointer_t<decltype(g)>::can_implement(a).code(); });
    const bool misaligned = code == StatusCode::misaligned_pointer || code == StatusCode::misaligned_leading_dim;
    return misaligned ? Sm80TileClass::unaligned : c;
  }

  // As Gemm<Kernel>::can_implement, for the configuration `args` runs on.
  static Status can_implement(Arguments const& a) {
    return visit(tile_class(a), [&](auto* g) { return std::remove_pointer_t<decltype(g)>::can_implement(a); });
  }

  // As Gemm<Kernel>::workspace_size, for the configuration `args` runs on.
  static size_t workspace_size(Arguments const& a) {
    return visit(tile_class(a), [&](auto* g) { return std::remove_pointer_t<decltype(g)>::workspace_size(a); });
  }

  // Chooses the configuration for `args` and initializes it (Gemm<Kernel>::initialize).
  Status initialize(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    chosen_ = -1;
    const Sm80TileClass c = tile_class(a);
    Status s = visit(c, [&](auto* g) { return g->initialize(a, workspace, workspace_bytes, stream); }, gemms_);
    if (s) chosen_ = static_cast<int>(c);
    return s;
  }

  // Runs the prepared GEMM on `stream`.
  Status run(cudaStream_t stream = nullptr) const {
    if (chosen_ < 0) return {StatusCode::not_initialized, "run() before a successful initialize()"};
    return visit(static_cast<Sm80TileClass>(chosen_), [&](auto* g) { return g->run(stream); }, gemms_);
  }

  // initialize + run.
  Status operator()(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    if (Status s = initialize(a, workspace, workspace_bytes, stream); !s) return s;
    return run(stream);
  }

 private:
  // f(pointer to the Gemm of class c), as detail::visit_gemm.
  template <class F, class Tuple = std::nullptr_t>
  static auto visit(Sm80TileClass c, F&& f, Tuple&& gemms = nullptr) {
    switch (c) {
      case Sm80TileClass::narrow: return detail::visit_gemm<Gemms, 0>(f, gemms);
      case Sm80TileClass::thin: return detail::visit_gemm<Gemms, 1>(f, gemms);
      case Sm80TileClass::medium: return detail::visit_gemm<Gemms, 2>(f, gemms);
      case Sm80TileClass::small: return detail::visit_gemm<Gemms, 3>(f, gemms);
      case Sm80TileClass::unaligned: return detail::visit_gemm<Gemms, 5>(f, gemms);
      default: return detail::visit_gemm<Gemms, 4>(f, gemms);
    }
  }

  Gemms gemms_;
  int chosen_ = -1;
};

}  // namespace strata
