// Strata floor 4: one GEMM object over a set of Hopper tile configurations, choosing per problem
// the one its shape runs best on, in the style of Sm80AutoGemm:
//
//   using G = strata::Sm90AutoGemm<strata::Sm90Tiles<__nv_bfloat16>, __nv_bfloat16>;
//   G::Arguments args;                          // the same fields as Gemm<Kernel>::Arguments
//   ... sizes, pointers, epilogue ...
//   G gemm;
//   gemm.initialize(args, workspace, G::workspace_size(args), stream);
//   gemm.run(stream);
//   log(gemm.name());                           // the configuration chosen
//
// A tile set is any type naming three Sm90GemmConfig types of the same element types and layouts,
// one per Sm90TileClass (they may repeat): Small, Medium, Large; and a fourth, Decode, for the
// swapped problem D^T = B^T · A^T, with kDecode saying whether the set uses it; optionally a
// fifth, DecodeWide, for the same swap at more rows (from kDecodeWideMinRows, where the set names
// it, up to DecodeWide's BN, and to kDecodeWideMaxRows on a nearly full wave), and a sixth, Huge,
// for problems of many large tiles. The rule: kernel/sm90_tile_class.hpp. Sm90Tiles is the default
// set; a user tuning for another GPU writes their own. Every configuration is instantiated
// (compiled) once per Sm90AutoGemm type. The code is sm_90a code: compile it for compute_90a (strata::AutoGemm
// chooses between it and the Ampere path at run time).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "gemm.hpp"
#include "sm90_gemm.hpp"
#include "sm90_tile_class.hpp"

namespace strata {

namespace detail {
// BK spans one 128-byte swizzle row: 64 16-bit elements, 32 floats (tf32).
template <class T, class LayoutA, class LayoutB, int BM, int BN, int Stages,
          Sm90Schedule S = Sm90Schedule::cooperative>
using Sm90TileConfig = Sm90GemmConfig<T, LayoutA, LayoutB, BM, BN, 128 / int(sizeof(T)), Stages, S>;
// BK spans two swizzle rows (128 16-bit elements, 64 floats): half the stages and barrier round
// trips for the same bytes in flight, which the bandwidth-bound decode tiles gain from.
template <class T, class LayoutA, class LayoutB, int BM, int BN, int Stages,
          Sm90Schedule S = Sm90Schedule::cooperative>
using Sm90DeepTileConfig = Sm90GemmConfig<T, LayoutA, LayoutB, BM, BN, 256 / int(sizeof(T)), Stages, S>;

// Config with `Stages` stages: its own WithStages where it has one (keeping what it adds), else
// the Sm90GemmConfig of its parameters (a split tail at most Stages - 1 K tiles).
template <class Config, int Stages>
struct Sm90WithStages {
  using type = Sm90GemmConfig<typename Config::ElementA, typename Config::LayoutTagA, typename Config::LayoutTagB,
                              Config::BM, Config::BN, Config::BK, Stages, Config::schedule, Config::ClusterM,
                              Config::ClusterN, Config::kEpilogueBuffers, Config::kPairs,
                              Config::kSplitTail < Stages ? Config::kSplitTail : Stages - 1>;
};
template <class Config, int Stages>
  requires requires { typename Config::template WithStages<Stages>; }
struct Sm90WithStages<Config, Stages> {
  using type = typename Config::template WithStages<Stages>;
};

// The opt-in shared memory per CTA of every sm_90 GPU (227 KB).
inline constexpr int kSm90SharedMemoryBytes = 227 * 1024;

// Shared memory of the kernel of Config with `Stages` stages and epilogue (TD, Functor).
template <class Config, int Stages, class TD, class Functor>
inline constexpr int sm90_smem_bytes =
    Sm90GemmKernel<typename Sm90WithStages<Config, Stages>::type, TD, Functor>::smem_bytes;

// The most stages, at most Config's own, with which the kernel of Config and epilogue (TD,
// Functor) fits in kSm90SharedMemoryBytes: the stages share what the epilogue's staging leaves.
// Estimated from the two-stage kernel at a stage's operand bytes each (the barriers mostly fit in
// the 1024-byte alignment), then checked on the kernel itself.
template <class Config, class TD, class Functor>
constexpr int sm90_fitting_stages() {
  constexpr int per_stage = Config::stage_bytes_a + Config::stage_bytes_b;
  constexpr int estimate = 2 + (kSm90SharedMemoryBytes - sm90_smem_bytes<Config, 2, TD, Functor>) / per_stage;
  constexpr int stages = estimate < Config::Stages ? estimate : Config::Stages;
  return sm90_smem_bytes<Config, stages, TD, Functor> <= kSm90SharedMemoryBytes ? stages : stages - 1;
}

// Config with as many of its stages as fit beside the epilogue for (TD, Functor); Config itself
// when all of them do.
template <class Config, class TD, class Functor, int Stages = sm90_fitting_stages<Config, TD, Functor>()>
using Sm90Fitted =
    std::conditional_t<Stages == Config::Stages, Config, typename Sm90WithStages<Config, Stages>::type>;

// "cooperative 128x256x64, 4 stages, cluster 1x1" ("..., 1 staging buffer" where the epilogue has
// one): a configuration, for logs and benches.
template <class Config>
std::string sm90_config_name() {
  return std::string(Config::pingpong ? "ping-pong " : "cooperative ") + std::to_string(Config::BM) + "x" +
         std::to_string(Config::BN) + "x" + std::to_string(Config::BK) + ", " + std::to_string(Config::Stages) +
         " stages, cluster " + std::to_string(Config::ClusterM) + "x" + std::to_string(Config::ClusterN) +
         (Config::kEpilogueBuffers == 1 ? ", 1 staging buffer" : "") + (Config::kPairs ? ", K pairs" : "") +
         (Config::kSplitTail > 0 ? ", split tail " + std::to_string(Config::kSplitTail) : "");
}
}  // namespace detail

// Whether Sm90Tiles has configurations for these element types and layouts: half and bfloat16
// in any majorness, float (tf32) K-major only (row-major A, column-major B).
template <class T, class LayoutA, class LayoutB>
inline constexpr bool sm90_tiles_cover =
    std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> ||
    (std::is_same_v<T, float> && std::is_same_v<LayoutA, RowMajor> && std::is_same_v<LayoutB, ColumnMajor>);

// The default Hopper tile set, without clusters:
//   Large  128 × 256, 4 stages, cooperative (the configuration bench/RESULTS.md measures);
//   Medium 128 × 128, 6 stages, cooperative;
//   Small   64 × 128, 8 stages, ping-pong (few-tile problems and m <= 64: each consumer warpgroup
//           takes its own work unit, so one's partial-tile fixup overlaps the other's
//           mainloop);
//   Decode  m <= 16 with A row-major: A and B swapped, 64 weight rows × 16 tokens, BK two
//           swizzle rows (half the barrier round trips of BK 64 for the same bytes in flight),
//           8 stages, ping-pong, plain transposed stores;
//   DecodeWide  32 < m <= 64, the same swap on 64 weight rows × 64 tokens, BK two swizzle rows,
//           5 stages, ping-pong (m <= 32 stays on Small, which is faster there), while its tiles
//           fit in one wave (n <= 8448 on 132 SMs; Small is faster past that); 64 < m <= 128
//           (kDecodeWideMaxRows) where they fill 0.9 to 1 wave (n 3801 to 4224), k <= 8192;
//   Huge    64 × 256, 5 stages, ping-pong, one staging buffer per warpgroup (16-bit types only:
//           tf32 keeps Large), from kSm90HugeMinWaves waves of large tiles.
// Decode and DecodeWide split K in K pairs where their split-K plan allows (one unit per cluster of
// two CTAs, an even number of splits): the halves add up through distributed shared memory instead
// of the workspace (kernel/sm90_pair_sums.hpp). Small keeps the workspace: its mainloops ran longer
// in pairs (bench/RESULTS.md).
// Stage counts are the most each takes (192-200 KB of operands): Sm90AutoGemm runs a configuration
// with fewer where the epilogue's staging for TD leaves less of the 227 KB. BK is 64 for half and
// bfloat16, 32 for float (tf32), twice that for the decode tiles.
namespace detail {
// Sm90Tiles' Huge configuration, for 16-bit types only.
template <class T, class LayoutA, class LayoutB>
struct Sm90HugeTile {
  using Huge = Sm90GemmConfig<T, LayoutA, LayoutB, 64, 256, 64, 5, Sm90Schedule::pingpong, 1, 1, 1>;
};
template <class LayoutA, class LayoutB>
struct Sm90HugeTile<float, LayoutA, LayoutB> {};
}  // namespace detail

template <class T, class LayoutA = RowMajor, class LayoutB = ColumnMajor>
struct Sm90Tiles : detail::Sm90HugeTile<T, LayoutA, LayoutB> {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, float>,
                "Sm90Tiles: the element type must be half, bfloat16 or float (tf32)");
  static_assert(sm90_tiles_cover<T, LayoutA, LayoutB>,
                "Sm90Tiles: tf32 (float) needs K-major operands, a row-major A and a column-major B: wgmma reads "
                "32-bit operands only K-major (strata::AutoGemm sends other layouts to the Ampere path)");
  using Large = detail::Sm90TileConfig<T, LayoutA, LayoutB, 128, 256, 4>;
  using Medium = detail::Sm90TileConfig<T, LayoutA, LayoutB, 128, 128, 6>;
  using Small = detail::Sm90TileConfig<T, LayoutA, LayoutB, 64, 128, 8, Sm90Schedule::pingpong>;
  // Decode, for the swapped problem D^T = B^T · A^T: its A is B^T (the weights, 64 rows a tile),
  // its B is A^T, K-major only when A is row-major (a narrow BN needs K-major rows), and for tf32
  // its A must be K-major too (B column-major).
  static constexpr bool kDecode =
      std::is_same_v<LayoutA, RowMajor> && (!std::is_same_v<T, float> || std::is_same_v<LayoutB, ColumnMajor>);
  using DecodeLayoutA = std::conditional_t<std::is_same_v<LayoutB, ColumnMajor>, RowMajor, ColumnMajor>;  // B^T
  using Decode =
      typename detail::Sm90DeepTileConfig<T, DecodeLayoutA, ColumnMajor, 64, 16, 8, Sm90Schedule::pingpong>::WithPairs;
  using DecodeWide =
      typename detail::Sm90DeepTileConfig<T, DecodeLayoutA, ColumnMajor, 64, 64, 5, Sm90Schedule::pingpong>::WithPairs;
  static constexpr int kDecodeWideMinRows = 33, kDecodeWideMaxRows = 128;
};

template <class Tiles, class TD, class Functor = LinearCombination>
class Sm90AutoGemm {
  // A configuration of the set with as many of its stages as fit beside the epilogue for TD.
  template <class Config>
  using Fitted = detail::Sm90Fitted<Config, TD, Functor>;
  template <class Config>
  using GemmOf = Gemm<Sm90GemmKernel<Fitted<Config>, TD, Functor>>;
  // The decode configurations run the swapped problem and store D transposed; a set without one
  // repeats Small's kernel in its place (never chosen, nothing more compiled).
  using SmallKernel = Sm90GemmKernel<Fitted<typename Tiles::Small>, TD, Functor>;
  using DecodeKernel = std::conditional_t<
      Tiles::kDecode, Sm90GemmKernel<typename Tiles::Decode, TD, Functor, Sm90Store::plain_transposed>, SmallKernel>;
  using DecodeGemm = Gemm<DecodeKernel>;
  template <class Set, bool = Set::kDecode && (detail::sm90_decode_wide_rows<Set> > 0)>
  struct WideOf {
    using type = SmallKernel;
  };
  template <class Set>
  struct WideOf<Set, true> {
    using type = Sm90GemmKernel<typename Set::DecodeWide, TD, Functor, Sm90Store::plain_transposed>;
  };
  using DecodeWideKernel = typename WideOf<Tiles>::type;
  // A set without a Huge configuration repeats Large's in its place (never chosen).
  template <class Set, bool = detail::sm90_has_huge<Set>>
  struct HugeOf {
    using type = typename Set::Large;
  };
  template <class Set>
  struct HugeOf<Set, true> {
    using type = typename Set::Huge;
  };
  // In Sm90TileClass order.
  using Gemms = std::tuple<GemmOf<typename Tiles::Small>, GemmOf<typename Tiles::Medium>, GemmOf<typename Tiles::Large>,
                           DecodeGemm, Gemm<DecodeWideKernel>, GemmOf<typename HugeOf<Tiles>::type>>;
  using LargeGemm = std::tuple_element_t<2, Gemms>;
  using HugeGemm = std::tuple_element_t<5, Gemms>;
  template <class G>
  static constexpr bool same_problem_types =
      std::is_same_v<typename G::Arguments, typename LargeGemm::Arguments> &&
      std::is_same_v<typename G::Config::LayoutTagA, typename LargeGemm::Config::LayoutTagA> &&
      std::is_same_v<typename G::Config::LayoutTagB, typename LargeGemm::Config::LayoutTagB>;
  static_assert(same_problem_types<std::tuple_element_t<0, Gemms>> &&
                    same_problem_types<std::tuple_element_t<1, Gemms>> && same_problem_types<HugeGemm>,
                "Sm90AutoGemm: every configuration of the tile set must have the same element types and layouts");
  // A configuration past the shared memory would be refused on every Hopper GPU, sending its whole
  // class to the Ampere path.
  template <class G>
  static constexpr bool fits =
      Sm90GemmKernel<typename G::Config, TD, Functor>::smem_bytes <= detail::kSm90SharedMemoryBytes;
  static_assert(std::is_same_v<typename DecodeGemm::Arguments, typename LargeGemm::Arguments> &&
                    std::is_same_v<typename Gemm<DecodeWideKernel>::Arguments, typename LargeGemm::Arguments>,
                "Sm90AutoGemm: the decode configurations must take the same arguments (A and B of one type)");
  static_assert(DecodeKernel::smem_bytes <= detail::kSm90SharedMemoryBytes &&
                    DecodeWideKernel::smem_bytes <= detail::kSm90SharedMemoryBytes,
                "Sm90AutoGemm: a decode configuration needs more shared memory than a Hopper GPU grants");
  static_assert(fits<std::tuple_element_t<0, Gemms>> && fits<std::tuple_element_t<1, Gemms>> && fits<LargeGemm> &&
                    fits<HugeGemm>,
                "Sm90AutoGemm: a configuration of the tile set needs more shared memory than a Hopper GPU grants "
                "(227 KB) even with two stages: take a smaller tile");

 public:
  using Arguments = typename LargeGemm::Arguments;

  // The class, and so the configuration, that `args` runs on (on the current GPU's SM count):
  // sm90_tile_class, but small where the decode configuration refuses the swapped problem (its
  // operands' TMA rules, now on B as its A), so that refusals speak of the problem as given.
  static Sm90TileClass tile_class(Arguments const& a) {
    const Sm90TileClass c = sm90_tile_class<Tiles>(a.m, a.n, a.k, a.batch_count, detail::sm_count());
    if (sm90_swaps_operands(c) &&
        !visit(c, [&](auto* g) { return bool(std::remove_pointer_t<decltype(g)>::can_implement(swapped(a))); }))
      return Sm90TileClass::small;
    return c;
  }

  // The configuration of class c, in words.
  static std::string config_name(Sm90TileClass c) {
    const std::string name = visit(c, [](auto* g) {
      return detail::sm90_config_name<typename std::remove_pointer_t<decltype(g)>::Config>();
    });
    return sm90_swaps_operands(c) ? "A and B swapped, " + name + ", D stored transposed" : name;
  }

  // The problem the configuration of class c computes: D^T = B^T · A^T for the decode classes (its
  // A is B, its B is A; D, C and the functor keep the caller's coordinates through the transposed
  // stores).
  static Arguments arguments_for(Sm90TileClass c, Arguments const& a) { return sm90_swaps_operands(c) ? swapped(a) : a; }

  // As Gemm<Kernel>::can_implement and workspace_size, for the configuration `args` runs on.
  static Status can_implement(Arguments const& a) {
    return of_class(a, [](auto g, Arguments const& b) { return decltype(g)::type::can_implement(b); });
  }
  static size_t workspace_size(Arguments const& a) {
    return of_class(a, [](auto g, Arguments const& b) { return decltype(g)::type::workspace_size(b); });
  }

  // How that configuration shares `args` out on the current GPU (Sm90WorkPlan), and as Gemm<Kernel>
  // answers it: the K splits of each tile (of each pair's unit in K pairs), Stream-K, K pairs.
  static Sm90WorkPlan work_plan(Arguments const& a) {
    return of_class(a, [](auto g, Arguments const& b) { return decltype(g)::type::work_plan(b); });
  }
  static int effective_splits(Arguments const& a) { return work_plan(a).splits; }
  static bool uses_stream_k(Arguments const& a) { return work_plan(a).kind == Sm90WorkKind::stream_k; }
  static bool uses_pairs(Arguments const& a) { return work_plan(a).pairs; }

  // Chooses the configuration for `args` and initializes it (Gemm<Kernel>::initialize).
  Status initialize(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    chosen_ = -1;
    const Sm90TileClass c = tile_class(a);
    Status s = visit(
        c, [&](auto* g) { return g->initialize(arguments_for(c, a), workspace, workspace_bytes, stream); }, gemms_);
    if (s) chosen_ = static_cast<int>(c), plan_ = work_plan(a);
    return s;
  }

  // Runs the prepared GEMM on `stream`, with `options` as sm90_launch_options makes them.
  Status run(cudaStream_t stream = nullptr, LaunchOptions const& options = {}) const {
    if (chosen_ < 0) return {StatusCode::not_initialized, "run() before a successful initialize()"};
    const LaunchOptions o = sm90_launch_options(chosen(), options);
    return visit(chosen(), [&](auto* g) { return g->run(stream, o); }, gemms_);
  }

  // initialize + run.
  Status operator()(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    if (Status s = initialize(a, workspace, workspace_bytes, stream); !s) return s;
    return run(stream);
  }

  // The class the last successful initialize() chose, and its configuration and work plan in words
  // ("...; split-K 2", "...; K pairs").
  Sm90TileClass chosen() const { return static_cast<Sm90TileClass>(chosen_ < 0 ? 0 : chosen_); }
  std::string name() const {
    return chosen_ < 0 ? std::string("not initialized") : config_name(chosen()) + "; " + sm90_work_plan_name(plan_);
  }

 private:
  // f(pointer to the Gemm of class c), as detail::visit_gemm.
  template <class F, class Tuple = std::nullptr_t>
  static auto visit(Sm90TileClass c, F&& f, Tuple&& gemms = nullptr) {
    switch (c) {
      case Sm90TileClass::small: return detail::visit_gemm<Gemms, 0>(f, gemms);
      case Sm90TileClass::medium: return detail::visit_gemm<Gemms, 1>(f, gemms);
      case Sm90TileClass::decode: return detail::visit_gemm<Gemms, 3>(f, gemms);
      case Sm90TileClass::decode_wide: return detail::visit_gemm<Gemms, 4>(f, gemms);
      case Sm90TileClass::huge: return detail::visit_gemm<Gemms, 5>(f, gemms);
      default: return detail::visit_gemm<Gemms, 2>(f, gemms);
    }
  }

  // f(std::type_identity<the Gemm of the class `a` runs on>, the problem its configuration computes).
  template <class F>
  static auto of_class(Arguments const& a, F&& f) {
    const Sm90TileClass c = tile_class(a);
    return visit(c, [&](auto* g) {
      return f(std::type_identity<std::remove_pointer_t<decltype(g)>>{}, arguments_for(c, a));
    });
  }

  // D^T (n × m) = B^T (n × k) · A^T (k × m): the operands, their leading dimensions and batch
  // strides trade places; D and C stay (the decode kernel stores them transposed).
  static Arguments swapped(Arguments const& a) {
    Arguments t = a;
    t.m = a.n, t.n = a.m;
    t.A = a.B, t.lda = a.ldb, t.batch_stride_a = a.batch_stride_b;
    t.B = a.A, t.ldb = a.lda, t.batch_stride_b = a.batch_stride_a;
    return t;
  }

  Gemms gemms_;
  int chosen_ = -1;
  Sm90WorkPlan plan_{};
};

}  // namespace strata
