// Candidate Hopper tiles for decode-side problems (few rows of activations, many weight columns)
// against what Sm90AutoGemm runs now and against cuBLAS, before any of them enters the tile set.
// What it asked (bench/RESULTS.md, 38th session; answered in the 39th's): cuBLAS runs 128 CTAs
// at every m = 64 / 128 shape probed, its tiles sized so ceil(m / BM) · ceil(n / BN) fills one
// wave (112 weight columns a tile at n = 14336), in 2 × 1 clusters; Sm90Tiles' 64 × 128 and
// 128 × 128 tiles leave 20 of 132 SMs idle there. The candidates:
//   wave 64 x 112, ping-pong, plain stores      (m <= 64:  128 tiles at n = 14336)
//   wave 128 x 112, cooperative, plain stores   (m <= 128: 128 tiles at n = 14336)
//   64 x 64 ping-pong, 12 stages (all 227 KB), whole tiles, without and with a 2 x 1 cluster (B
//     multicast along M): cuBLAS's structure at 128 x 4096² (64 x 64, 13 stages, 2 x 1)
//   64 x 128 ping-pong, 2 x 1 cluster, whole tiles
//   Sm90Tiles' Small (64 x 128 ping-pong) at split-K 2, what m = 128 ran before decode_wide
//   128 x 64 and 128 x 32 cooperative, whole tiles: m <= 128 on one tile row, each weight block
//     read by one CTA (128 CTAs at n = 8192 and 4096 respectively); 128 x 64 also at split-K 2
//   Sm90Tiles' Medium (128 x 128) at split-K 2 and 4, Large (128 x 256) at 4 and 8: one tile row
//     at m <= 128, so fewer bytes read out of L2 than 64-row tiles (at 128 x 4096² the 64 x 64
//     tile's CTAs read 134 MB, 128 x 64 at split-K 2 101, medium at 4 67, large at 8 50, plus the
//     partial sums; cuBLAS's 2 x 1 clusters of 64 x 64, multicasting the weights, 101)
//   128 x 64 at split-K 2 and medium at 2 and 4 in K pairs, plain stores: each two K splits added
//     in a CTA pair's shared memory instead of the workspace (placing the pairs cost the small
//     tile 10-16 %)
// (plain stores for BN 112 and 32: the TMA epilogue takes BN in multiples of 64 columns). Every output is checked
// against cuBLAS on the same buffers first; then every variant and cuBLAS are timed interleaved,
// one launch at a time and in batches of 100 back-to-back launches (PDL as PROBE_PDL says), over
// input sets larger than the L2, two passes. Prints µs one / streamed, streamed TB/s (A + B + D) and the ratios to
// cuBLAS; each fixed plan's name ends with the operand megabytes its CTAs read out of L2 (a model).
//
//   scripts/probe-sm90.sh [m,n,k ...]      (default: m 64 and 128 × the four LLM weight shapes)
//   PROBE_ONLY=t1,t2   only the variants whose name contains one of the texts (cuBLAS always runs)
//   PROBE_PASSES=n     timing passes (default 2; 0 checks the outputs only, e.g. under ncu)
//   PROBE_L2=both      each variant also with its TMA loads unhinted (args.l2_hints off), timed
//                      interleaved with the hinted one (the bench's l2_gain); PROBE_L2=off: only so
//   PROBE_L2_PAIRS=a:b,... each variant also with its kernel's A and B loads hinted a and b (none,
//                      first, last: evict_first, evict_last) instead of by the rule
//                      (detail::study_l2_hints); the swapped decode classes' A holds the weights
//   PROBE_PDL=1        every strata variant launched with programmatic dependent launch, the weights
//                      independent (auto_gemm_bench_allarch's streamed rows); the probe's L2 A/B
//                      without it (43rd session) read the opposite of the bench's with it (44th)
//
// bf16, A row-major, B column-major; a study tool, not a benchmark of record.
#include <cuda_bf16.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <kernel/sm90_auto_gemm.hpp>

#include "../gemm_bench.cuh"
#include "../strata_runner.cuh"

namespace {
using namespace strata;
using namespace strata::bench;
using T = __nv_bfloat16;
using LC = LinearCombination;
using Tiles = Sm90Tiles<T>;
using Auto = Sm90AutoGemm<Tiles, T>;
template <int BM, int BN, int Stages, Sm90Schedule S, int ClusterM = 1>
using Config = Sm90GemmConfig<T, RowMajor, ColumnMajor, BM, BN, 64, Stages, S, ClusterM>;
using Wave64 = Gemm<Sm90GemmKernel<Config<64, 112, 8, Sm90Schedule::pingpong>, T, LC, Sm90Store::plain>>;
using Wave128 = Gemm<Sm90GemmKernel<Config<128, 112, 6, Sm90Schedule::cooperative>, T, LC, Sm90Store::plain>>;
using Whole64 = Gemm<Sm90GemmKernel<Config<64, 64, 12, Sm90Schedule::pingpong>, T, LC>>;
using Cluster64 = Gemm<Sm90GemmKernel<Config<64, 64, 12, Sm90Schedule::pingpong, 2>, T, LC>>;
using Small = Gemm<Sm90GemmKernel<Tiles::Small, T, LC>>;
using Medium = Gemm<Sm90GemmKernel<Tiles::Medium, T, LC>>;
using Large = Gemm<Sm90GemmKernel<Tiles::Large, T, LC>>;
using Cluster128 = Gemm<Sm90GemmKernel<Config<64, 128, 8, Sm90Schedule::pingpong, 2>, T, LC>>;
using Coop64 = Gemm<Sm90GemmKernel<Config<128, 64, 8, Sm90Schedule::cooperative>, T, LC>>;
using Coop32 = Gemm<Sm90GemmKernel<Config<128, 32, 10, Sm90Schedule::cooperative>, T, LC, Sm90Store::plain>>;
// The same one-row tiles in K pairs (a split's two K halves added over the SM-to-SM network, no
// workspace for them), with plain stores (the pairs' sums outgrow the TMA epilogue's staging).
template <class C>
using PairsOf = Gemm<Sm90GemmKernel<typename C::WithPairs, T, LC, Sm90Store::plain>>;
using Coop64Pairs = PairsOf<Config<128, 64, 8, Sm90Schedule::cooperative>>;
using MediumPairs = PairsOf<Config<128, 128, 5, Sm90Schedule::cooperative>>;  // medium; 6 stages with the sums: 265,216 bytes

struct Variant {
  std::string name;
  std::function<void(int)> launch;
};

// The problem of one shape: its input sets, D, and cuBLAS's result on the same buffers.
struct Problem {
  int m, n, k;
  InputSets<T> const& in;
  T* d;
  T* d_ref;
  std::function<void(int)> cublas;
};

// The items of a comma-separated environment variable, none when it is unset.
std::vector<std::string> comma_list(const char* variable) {
  std::vector<std::string> items;
  const char* env = std::getenv(variable);
  if (env == nullptr) return items;
  const std::string list = env;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(',', start), list.size());
    items.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

// PROBE_L2_PAIRS parsed: each "a:b" with the pair it names; exits with a usage line on a bad one.
std::vector<std::pair<std::string, Sm90L2HintPair>> l2_pairs() {
  const auto hint = [](std::string const& word, arch::L2Hint& h) {
    if (word == "none") h = arch::L2Hint::none;
    else if (word == "first") h = arch::L2Hint::evict_first;
    else if (word == "last") h = arch::L2Hint::evict_last;
    else return false;
    return true;
  };
  std::vector<std::pair<std::string, Sm90L2HintPair>> out;
  for (std::string const& item : comma_list("PROBE_L2_PAIRS")) {
    const size_t colon = item.find(':');
    Sm90L2HintPair pair;
    if (colon == std::string::npos || !hint(item.substr(0, colon), pair.a) || !hint(item.substr(colon + 1), pair.b)) {
      std::fprintf(stderr, "PROBE_L2_PAIRS: \"%s\" is not a:b with a and b each none, first or last\n", item.c_str());
      std::exit(2);
    }
    out.emplace_back(item, pair);
  }
  return out;
}

// Whether PROBE_ONLY (texts separated by commas) lets the variant `name` run: unset, or one of its
// texts is part of the name.
bool wanted(std::string const& name) {
  if (std::getenv("PROBE_ONLY") == nullptr) return true;
  for (std::string const& text : comma_list("PROBE_ONLY"))
    if (name.find(text) != std::string::npos) return true;
  return false;
}

// The operand bytes a fixed plan moves out of L2 into the SMs (model; every CTA reads its BM rows
// of A and BN columns of B over its share of K, no multicast, partial sums left out), in MB.
std::string operand_megabytes(int bm, int bn, int split, Problem const& p) {
  const double tiles = double((p.m + bm - 1) / bm) * double((p.n + bn - 1) / bn);
  const double k_share = double((p.k + split - 1) / split);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", tiles * split * (bm + bn) * k_share * sizeof(T) / 1e6);
  return text;
}

// One variant of add below, with the L2 hints `l2`.
template <class G>
void add_one(std::vector<Variant>& variants, std::string name, Problem const& p, bool automatic, int split,
             L2Hints l2) {
  if (!wanted(name)) return;
  auto runner = std::make_shared<StrataRunner<G, T, T>>();
  if (!automatic) runner->schedule = Schedule::tiles, runner->split_k = split;
  runner->l2_hints = l2;
  if (const char* pdl = std::getenv("PROBE_PDL"); pdl != nullptr && std::string(pdl) == "1")
    runner->options.programmatic_dependent_launch = runner->options.b_independent = true;
  std::string why;
  if (!runner->prepare(p.m, p.n, p.k, p.in.a, p.in.b, p.d, why)) {
    std::printf("  %s refused: %s\n", name.c_str(), why.c_str());
    return;
  }
  if constexpr (requires { runner->gemms[0].name(); }) name += " [" + runner->gemms[0].name() + "]";
  if constexpr (requires { G::Config::BM; })
    if (!automatic) name += ", " + operand_megabytes(G::Config::BM, G::Config::BN, split, p) + " MB";
  if (const std::string wrong =
          differs_from_cublas(*runner, p.cublas, p.d, p.d_ref, int64_t(p.m) * p.n, p.in.size(), 1.0 / 128);
      !wrong.empty())
    std::printf("  WRONG %s: %s\n", name.c_str(), wrong.c_str());
  variants.push_back({name, [runner](int i) { runner->launch(i); }});
}

// Variant G, one GEMM per input set (StrataRunner): whole tiles, or G's automatic schedule with
// `automatic`; its output checked against cuBLAS's (a line where it differs or G refuses). Once
// with the L2 hints' automatic rule and/or once without, as PROBE_L2 says.
template <class G>
void add(std::vector<Variant>& variants, std::string name, Problem const& p, bool automatic = false, int split = 1) {
  const char* l2_env = std::getenv("PROBE_L2");
  const std::string l2 = l2_env != nullptr ? l2_env : "";
  if (l2 != "off") add_one<G>(variants, name, p, automatic, split, L2Hints::automatic);
  if (l2 == "both" || l2 == "off") add_one<G>(variants, name + ", no L2 hints", p, automatic, split, L2Hints::off);
  for (auto const& [text, pair] : l2_pairs()) {
    strata::detail::study_l2_hints = pair;
    add_one<G>(variants, name + ", L2 A:B " + text, p, automatic, split, L2Hints::automatic);
    strata::detail::study_l2_hints.reset();
  }
}

void probe(int m, int n, int k) {
  const InputSets<T> in(m, n, k, 3800);
  DeviceArray<T> d(int64_t(m) * n), d_ref(int64_t(m) * n);
  const CublasHandle handle;
  const auto cublas = [&](int i) {
    cublas_gemm(handle, m, n, k, in.a[size_t(i) % in.a.size()], true, k, in.b[size_t(i) % in.b.size()], false, k,
                d_ref.ptr, n);
  };
  const Problem p{m, n, k, in, d.ptr, d_ref.ptr, cublas};
  std::vector<Variant> variants;
  add<Auto>(variants, "auto", p, true);
  add<Wave64>(variants, "wave 64x112 pp, whole tiles", p);
  add<Wave128>(variants, "wave 128x112 coop, whole tiles", p);
  add<Whole64>(variants, "64x64 pp, whole tiles", p);
  add<Cluster64>(variants, "64x64 pp 2x1, whole tiles", p);
  add<Cluster128>(variants, "64x128 pp 2x1, whole tiles", p);
  add<Small>(variants, "small 64x128 pp, split-K 2", p, false, 2);
  add<Coop64>(variants, "128x64 coop, whole tiles", p);
  add<Coop64>(variants, "128x64 coop, split-K 2", p, false, 2);
  for (const int split : {2, 4})
    add<Medium>(variants, "split medium 128x128 coop, split-K " + std::to_string(split), p, false, split);
  for (const int split : {4, 8})
    add<Large>(variants, "split large 128x256 coop, split-K " + std::to_string(split), p, false, split);
  add<Coop32>(variants, "128x32 coop, whole tiles", p);
  add<Coop64Pairs>(variants, "128x64 coop pairs, split-K 2", p, false, 2);
  for (const int split : {2, 4})
    add<MediumPairs>(variants, "split medium 128x128 coop pairs, split-K " + std::to_string(split), p, false, split);
  std::vector<std::function<void(int)>> launches;
  for (Variant const& v : variants) launches.push_back(v.launch);
  launches.push_back(cublas);
  const double bytes = 2.0 * (double(m) * k + double(k) * n + double(m) * n);
  const char* passes_env = std::getenv("PROBE_PASSES");
  const int passes = passes_env != nullptr ? std::atoi(passes_env) : 2;
  for (int pass = 0; pass < passes; ++pass) {
    const std::vector<double> one = median_ms_interleaved(launches);
    const std::vector<double> streamed = streamed_ms_interleaved(launches, 100, 5);
    std::printf("%d x %d x %d, pass %d: us one / streamed, streamed TB/s, ratio to cuBLAS one / streamed\n", m, n, k,
                pass);
    for (size_t i = 0; i < launches.size(); ++i)
      std::printf("  %-72s %7.2f / %7.2f  %5.2f TB/s  %.3f / %.3f\n",
                  i < variants.size() ? variants[i].name.c_str() : "cuBLAS", one[i] * 1e3, streamed[i] * 1e3,
                  bytes / (streamed[i] * 1e-3) / 1e12, one.back() / one[i], streamed.back() / streamed[i]);
  }
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::array<int, 3>> shapes;
  const std::vector<std::array<int, 3>> defaults = {
      {64, 4096, 4096},  {64, 14336, 4096},  {64, 4096, 14336},  {64, 8192, 8192},
      {128, 4096, 4096}, {128, 14336, 4096}, {128, 4096, 14336}, {128, 8192, 8192}};
  if (!shapes_from_args(argc, argv, 1, defaults, "[m,n,k ...]", shapes)) return 2;
  l2_pairs();  // a bad PROBE_L2_PAIRS stops here, before anything runs
  int device = 0, major = 0, devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("sm90_tile_probe: no GPU\n");
    return 0;
  }
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "compute capability");
  if (major != 9) {
    std::printf("sm90_tile_probe: needs a compute capability 9.0 GPU (this one is %d.x)\n", major);
    return 0;
  }
  for (auto const& s : shapes) probe(s[0], s[1], s[2]);
  return 0;
}
