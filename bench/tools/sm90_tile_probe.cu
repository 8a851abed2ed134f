// Candidate Hopper tiles for decode-side problems (few rows of activations, many weight columns)
// against what Sm90AutoGemm runs now and against cuBLAS, before any of them enters the tile set.
// What it asks (bench/RESULTS.md, 38th session): cuBLAS runs 128 CTAs at every m = 64 / 128 shape
// probed, its tiles sized so ceil(m / BM) · ceil(n / BN) fills one wave (112 weight columns a tile
// at n = 14336), in 2 × 1 clusters; Sm90Tiles' 64 × 128 and 128 × 128 tiles leave 20 of 132 SMs
// idle there. The candidates:
//   wave 64 x 112, ping-pong, plain stores      (m <= 64:  128 tiles at n = 14336)
//   wave 128 x 112, cooperative, plain stores   (m <= 128: 128 tiles at n = 14336)
//   64 x 64 ping-pong, 12 stages (all 227 KB), whole tiles, without and with a 2 x 1 cluster (B
//     multicast along M): cuBLAS's structure at 128 x 4096² (64 x 64, 13 stages, 2 x 1)
//   64 x 128 ping-pong, 2 x 1 cluster, whole tiles
// (plain stores: the TMA epilogue takes BN in multiples of 64 columns). Every output is checked
// against cuBLAS on the same buffers first; then every variant and cuBLAS are timed interleaved,
// one launch at a time and in batches of 100 back-to-back launches (no PDL), over input sets larger
// than the L2, two passes. Prints µs one / streamed, streamed TB/s (A + B + D) and the ratios to
// cuBLAS.
//
//   scripts/probe-sm90.sh [m,n,k ...]      (default: m 64 and 128 × the four LLM weight shapes)
//
// bf16, A row-major, B column-major; a study tool, not a benchmark of record.
#include <cuda_bf16.h>

#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <kernel/sm90_auto_gemm.hpp>

#include "../gemm_bench.cuh"

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
using Cluster128 = Gemm<Sm90GemmKernel<Config<64, 128, 8, Sm90Schedule::pingpong, 2>, T, LC>>;

struct Variant {
  std::string name;
  std::function<void(int)> launch;
};

// One GEMM per input set of variant G (split_k as given, Schedule::tiles; 0 lets G choose), kept
// alive by `keep`; false (and a line) where G refuses the problem.
template <class G>
bool add(std::vector<Variant>& variants, std::vector<std::shared_ptr<void>>& keep, std::string name,
         InputSets<T> const& in, int m, int n, int k, T* d, int split_k) {
  auto gemms = std::make_shared<std::vector<G>>(in.a.size());
  auto x = plain_gemm_arguments<typename G::Arguments>(m, n, k, in.a[0], in.b[0], d);
  x.split_k = split_k;
  if (split_k == 0) x.schedule = Schedule::automatic;
  auto workspace = std::make_shared<DeviceArray<char>>(int64_t(G::workspace_size(x)) + 16);
  for (size_t i = 0; i < in.a.size(); ++i) {
    x.A = in.a[i], x.B = in.b[i];
    if (const Status s = (*gemms)[i].initialize(x, workspace->ptr, size_t(workspace->count)); !s) {
      std::printf("  %s refused: %s\n", name.c_str(), s.message().c_str());
      return false;
    }
  }
  if constexpr (requires { (*gemms)[0].name(); })
    name += " [" + (*gemms)[0].name() + "]";
  else
    name += " [" + sm90_work_plan_name(G::work_plan(x)) + "]";
  keep.push_back(gemms), keep.push_back(workspace);
  variants.push_back({name, [gemms](int i) {
                        const Status s = (*gemms)[size_t(i) % gemms->size()].run(nullptr);
                        if (!s) throw std::runtime_error(s.message());
                      }});
  return true;
}

void probe(int m, int n, int k) {
  const InputSets<T> in(m, n, k, 3800);
  DeviceArray<T> d(int64_t(m) * n), d_ref(int64_t(m) * n);
  const CublasHandle handle;
  const auto cublas = [&](int i) {
    cublas_gemm(handle, m, n, k, in.a[size_t(i) % in.a.size()], true, k, in.b[size_t(i) % in.b.size()], false, k,
                d_ref.ptr, n);
  };
  std::vector<Variant> variants;
  std::vector<std::shared_ptr<void>> keep;
  add<Auto>(variants, keep, "auto", in, m, n, k, d.ptr, 0);
  add<Wave64>(variants, keep, "wave 64x112 pp", in, m, n, k, d.ptr, 1);
  add<Wave128>(variants, keep, "wave 128x112 coop", in, m, n, k, d.ptr, 1);
  add<Whole64>(variants, keep, "64x64 pp", in, m, n, k, d.ptr, 1);
  add<Cluster64>(variants, keep, "64x64 pp 2x1", in, m, n, k, d.ptr, 1);
  add<Cluster128>(variants, keep, "64x128 pp 2x1", in, m, n, k, d.ptr, 1);
  std::vector<std::function<void(int)>> launches;
  for (Variant const& v : variants) {
    for (int set : {0, in.size() - 1}) {
      check(cudaMemset(d.ptr, 0xFF, size_t(m) * n * sizeof(T)), "poison D");
      v.launch(set);
      cublas(set);
      check(cudaDeviceSynchronize(), "strata and cuBLAS outputs");
      const OutputComparison c = compare_outputs(d.ptr, d_ref.ptr, int64_t(m) * n, 1.0 / 128, 1e-2);
      if (c.relative_error > 1e-2 || c.far_elements > 0)
        std::printf("  WRONG %s: relative error %g, %lld elements off\n", v.name.c_str(), c.relative_error,
                    static_cast<long long>(c.far_elements));
    }
    launches.push_back(v.launch);
  }
  launches.push_back(cublas);
  const double bytes = 2.0 * (double(m) * k + double(k) * n + double(m) * n);
  for (int pass = 0; pass < 2; ++pass) {
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
