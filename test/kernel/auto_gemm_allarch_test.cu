// strata::AutoGemm on the GPU that runs it, from a unit compiled for every target (the Ampere
// gencode and sm_90a, "allarch" in the name): on compute capability 9.0 aligned problems take the
// Hopper path and say so, each class of the Hopper tile set among them; problems off the 16-byte
// rule (odd lda, odd batch stride, odd ldd) take the Ampere path there and everywhere; on other GPUs
// everything takes the Ampere path. Shapes with 1, 7, 129, 1000 and 4097, K = 0, two batches,
// beta != 0. Fresh random operands, D poisoned, every element against the double reference,
// padding and batch gaps checked untouched.
#include <kernel/auto_gemm.hpp>

#include <set>
#include <string>

#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;

using Auto = AutoGemm<BF16, RowMajor, ColumnMajor, BF16>;
// The Hopper part of Auto, to state which problems it takes.
using Hopper = Sm90AutoGemm<detail::Sm90TilesOfUnit<Sm90Tiles<BF16>, detail::ThisTranslationUnit>, BF16>;
// GemmProblem reads the element types and majorness off a kernel type.
using Kernel = Sm80GemmKernel<Sm80Tiles<BF16>::Large, BF16, LinearCombination>;

static_assert(Auto::kHopperCompiled, "this test must be compiled for compute_90a as well as the Ampere targets");

bool on_hopper() { return compute_capability_mismatch(9, 0, true).empty(); }

// AutoGemm's copy of the tile set (its configurations made types of this unit) keeps every knob of
// the rule: each shape gets the class Sm90Tiles itself gets (no GPU needed).
TEST(AutoGemmAllArch, HopperTilesOfTheUnitChooseAsSm90Tiles) {
  using Unit = detail::Sm90TilesOfUnit<Sm90Tiles<BF16>, detail::ThisTranslationUnit>;
  static_assert(detail::sm90_decode_wide_min_rows<Unit> == detail::sm90_decode_wide_min_rows<Sm90Tiles<BF16>> &&
                detail::sm90_decode_wide_max_rows<Unit> == detail::sm90_decode_wide_max_rows<Sm90Tiles<BF16>> &&
                detail::sm90_decode_wide_rows<Unit> == detail::sm90_decode_wide_rows<Sm90Tiles<BF16>> &&
                detail::sm90_has_huge<Unit> == detail::sm90_has_huge<Sm90Tiles<BF16>>);
  for (long long m : {1, 16, 17, 33, 64, 65, 100, 128, 129, 4096})
    for (long long n : {1000, 3800, 4096, 8192, 14336})
      for (long long k : {4096, 14336})
        EXPECT_EQ((sm90_tile_class<Unit>(m, n, k, 1, 132)), (sm90_tile_class<Sm90Tiles<BF16>>(m, n, k, 1, 132)))
            << m << " x " << n << " x " << k;
}

enum class Want { hopper_on_sm90, ampere, either };

// Runs `s` through Auto and checks every element; returns the kernel it ran on.
template <class Tweak>
std::string run_case(Shape3 s, ProblemLayout layout, Want want, uint64_t seed, const char* what, Tweak&& tweak) {
  GemmProblem<Kernel, Auto> p(s, seed, layout);
  auto args = p.arguments();
  const float alpha = layout.with_c ? 0.75f : 1.f, beta = layout.with_c ? -1.5f : 0.f;
  args.epilogue = LinearCombination{{alpha, beta}};
  tweak(args);
  const std::string label = std::string(what) + " " + describe(s) + (layout.batches > 1 ? ", 2 batches" : "");

  // The path follows auto_gemm_path; the cases that state one must take it.
  const AutoGemmPath path = auto_gemm_path(on_hopper() ? 9 : 8, 0, true, Hopper::can_implement(args).code());
  if (want == Want::hopper_on_sm90) EXPECT_EQ(path, on_hopper() ? AutoGemmPath::sm90 : AutoGemmPath::sm80) << label;
  if (want == Want::ampere) EXPECT_EQ(path, AutoGemmPath::sm80) << label;

  const Status st = Auto::can_implement(args);
  EXPECT_TRUE(bool(st)) << label << ": " << st.message();
  if (!st) return {};
  Auto gemm;
  const size_t bytes = Auto::workspace_size(args);
  DeviceBuffer<char> workspace(bytes);
  Status run = gemm.initialize(args, workspace.get(), bytes);
  if (run) run = gemm.run();
  EXPECT_TRUE(bool(run)) << label << ": " << run.message();
  if (!run) return {};
  throw_on_error(cudaDeviceSynchronize(), "AutoGemm");
  EXPECT_EQ(gemm.path(), path) << label << " ran on " << gemm.kernel_name();
  if (gemm.path() == AutoGemmPath::sm90) {
    const Sm90TileClass c = Hopper::tile_class(args);
    EXPECT_EQ(gemm.kernel_name(), std::string("sm90 ") + sm90_tile_class_name(c) + ": " + Hopper::config_name(c) +
                                      "; " + sm90_work_plan_name(Hopper::work_plan(args)))
        << label;
  }
  auto expected = [&](int i, int j, int bt, double ref) {
    return alpha * ref + (layout.with_c ? beta * p.source(i, j, bt) : 0.0);
  };
  p.check(expected, label + " on " + gemm.kernel_name(), alpha);
  return gemm.kernel_name();
}

constexpr auto no_tweak = [](auto&) {};

// Aligned problems: the Hopper path on 9.0, every class of its tile set (the Medium and Large
// shapes hold on GPUs of 81 to 160 SMs: H100 and H200 have 114 to 132).
TEST(AutoGemmAllArch, AlignedTakesHopperOnSm90) {
  STRATA_REQUIRE_SM(8, 0);
  EXPECT_EQ(detail::auto_gemm_device<detail::ThisTranslationUnit>().sm90a_loaded, on_hopper())
      << "this unit holds sm_90a code: the GPU loads it exactly when it has compute capability 9.0";
  const ProblemLayout plain{}, batched{.batches = 2, .pad_d = 8, .gap_d = 8, .with_c = true};
  struct Case {
    Shape3 s;
    ProblemLayout layout;
  };
  const Case cases[] = {{{1, 1, 1}, plain},          {{7, 129, 1000}, batched},    {{129, 7, 4097}, plain},
                        {{1000, 1000, 129}, batched}, {{129, 300, 0}, batched},     {{2048, 1200, 129}, plain},
                        {{2048, 600, 300}, batched},  {{1000, 4097, 7}, plain},     {{4097, 2000, 64}, batched},
                        {{40, 1000, 300}, batched},   {{64, 129, 1000}, plain},     {{100, 9000, 300}, plain},
                        {{4096, 10240, 64}, plain}};  // 1280 large tiles: huge up to 160 SMs
  std::set<std::string> kernels;
  uint64_t seed = 900;
  for (const Case& c : cases) {  // the class and configuration: the name before its work plan
    const std::string name = run_case(c.s, c.layout, Want::hopper_on_sm90, seed += 7, "aligned", no_tweak);
    kernels.insert(name.substr(0, name.find("; ")));
  }
  if (on_hopper()) {
    for (Sm90TileClass c : {Sm90TileClass::small, Sm90TileClass::medium, Sm90TileClass::large, Sm90TileClass::decode,
                            Sm90TileClass::decode_wide, Sm90TileClass::huge})
      EXPECT_EQ(kernels.count(std::string("sm90 ") + sm90_tile_class_name(c) + ": " + Hopper::config_name(c)), 1u)
          << "no case ran the " << sm90_tile_class_name(c) << " class";
  }
}

// Off the 16-byte rule: TMA cannot read (or store) it, so the Ampere path's narrow-copy
// configuration runs it on every GPU.
TEST(AutoGemmAllArch, MisalignedTakesAmpere) {
  STRATA_REQUIRE_SM(8, 0);
  const ProblemLayout odd_lda{.pad_a = 1}, odd_lda_batched{.batches = 2, .pad_a = 3, .pad_d = 1, .with_c = true},
      odd_batch_stride{.batches = 2, .gap_a = 3, .with_c = true}, odd_ldd{.pad_d = 1};
  uint64_t seed = 1900;
  for (auto [s, layout] : {std::pair{Shape3{129, 257, 129}, odd_lda}, {Shape3{1000, 77, 300}, odd_lda_batched},
                           {Shape3{7, 1000, 4097}, odd_lda}, {Shape3{300, 300, 64}, odd_batch_stride},
                           {Shape3{129, 129, 129}, odd_ldd}}) {
    const std::string kernel = run_case(s, layout, Want::ampere, seed += 7, "misaligned", no_tweak);
    EXPECT_EQ(kernel.rfind("sm80 unaligned: ", 0), 0u) << describe(s) << " ran on " << kernel;
  }
  // Split-K runs wherever its path takes it (the Ampere path, while the Hopper kernel refuses it).
  run_case({100, 300, 2000}, {.with_c = true}, Want::either, seed += 7, "split-K 3", [](auto& a) {
    a.split_k = 3;
    a.split_k_mode = SplitKMode::serial;
  });
}

// What neither path computes is refused, in the Ampere path's words, before anything runs.
TEST(AutoGemmAllArch, RefusesWhatNeitherPathComputes) {
  alignas(16) static BF16 buffer[256];
  Auto::Arguments a;
  a.m = a.n = a.k = 16;
  a.A = reinterpret_cast<BF16 const*>(reinterpret_cast<char const*>(buffer) + 1);  // not element-aligned
  a.B = a.D = buffer;
  a.lda = a.ldb = a.ldd = 16;
  a.epilogue = {{1.f, 0.f}};
  Status st = Auto::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("A must be 2-byte aligned"), std::string::npos) << st.message();
  Auto gemm;
  EXPECT_FALSE(bool(gemm.initialize(a)));
  EXPECT_EQ(gemm.kernel_name(), "not initialized");
  EXPECT_EQ(gemm.run().code(), StatusCode::not_initialized);
}

}  // namespace
