// Programmatic dependent launch of the Hopper GEMM (LaunchOptions::programmatic_dependent_launch):
// the GEMM may start while the kernel before it in the stream still runs, and must touch neither
// its operands nor D before that kernel is done. The kernels before it here let it start at once
// (griddepcontrol.launch_dependents first), then spin for a while and only then write the GEMM's
// A (read after write) or read D's old contents (write after read): a GEMM that did not wait
// reads poison or overwrites D too early. A control kernel launched the same way but without the
// wait shows the overlap is real (where it is not, e.g. under compute-sanitizer, which serializes
// kernels, the test checks the results and then skips, saying so); B written late too. Then
// decode GEMMs whose K is shared out, launched back to back many times on one workspace (tile
// counters and partial tiles reused), and the decode class's swapped kernel, whose late-written
// tokens are its B (in K pairs and through the workspace). Operands declared independent (loaded before the wait) and the trigger after
// the loads: correct with A written late, and B written late though declared independent shows the
// early loads are real.
#include <atom/arch/sm90.hpp>

#include <cmath>
#include <stdexcept>

#include <kernel/sm90_auto_gemm.hpp>  // Sm90Tiles::Decode and the swapped problem

#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using Kernel = Sm90GemmKernel<Sm90GemmConfig<BF16, RowMajor, ColumnMajor, 64, 128, 64, 8>, BF16, LinearCombination>;
using G = Gemm<Kernel>;

// About 200 µs at the H200's clocks: far longer than the GEMM needs to start.
constexpr long long kSpinCycles = 400000;

__device__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Lets the next kernel start, spins, then copies src to dst.
__global__ void late_copy(uint16_t* dst, uint16_t const* src, int64_t count, long long cycles) {
  arch::griddepcontrol_launch_dependents();
  spin(cycles);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

// Launched with the attribute but without griddepcontrol.wait: copies what src holds when it runs.
__global__ void eager_copy(uint16_t* dst, uint16_t const* src, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

LaunchOptions pdl() {
  LaunchOptions o;
  o.programmatic_dependent_launch = true;
  return o;
}

void launch_dependent_copy(uint16_t* dst, uint16_t const* src, int64_t count, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(8);
  config.blockDim = dim3(256);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  throw_on_error(cudaLaunchKernelEx(&config, eager_copy, dst, src, count), "eager_copy");
}

int64_t count_equal(std::vector<uint16_t> const& v, uint16_t value) {
  int64_t n = 0;
  for (uint16_t x : v) n += x == value;
  return n;
}

// Every kernel launched once beforehand: with lazy loading (CUDA's default) a kernel's first
// launch loads its module, which waits for the kernels running then and would hide the overlap.
template <class Gemm_>
void load_kernels(Gemm_ const& gemm, cudaStream_t stream) {
  late_copy<<<1, 32, 0, stream>>>(nullptr, nullptr, 0, 0);
  eager_copy<<<1, 32, 0, stream>>>(nullptr, nullptr, 0);
  throw_on_error(cudaStreamSynchronize(stream), "loading the test kernels");
  ASSERT_TRUE(bool(gemm.run(stream)));
  throw_on_error(cudaStreamSynchronize(stream), "loading the GEMM");
}

struct Streamed {
  cudaStream_t stream = nullptr;
  Streamed() { throw_on_error(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Streamed() { cudaStreamDestroy(stream); }
};

// A GEMM initialized for `args` on a stream of its own, with its workspace; a refusal throws
// (GoogleTest reports it as the test's failure).
template <class Gemm_ = G>
struct Prepared {
  Streamed st;
  Gemm_ gemm;
  DeviceBuffer<char> ws;
  explicit Prepared(typename Gemm_::Arguments const& args) : ws(Gemm_::workspace_size(args)) {
    if (const Status s = gemm.initialize(args, ws.get(), ws.size(), st.stream); !s)
      throw std::runtime_error("initialize: " + s.message());
  }
};

// The kernel before the GEMM writes A (then B) late: the GEMM must compute with the values written.
TEST(Sm90GemmPdl, WaitsForTheOperandsThePreviousKernelWrites) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  bool overlapped = true;
  for (Shape3 s : {Shape3{16, 1000, 4097}, Shape3{300, 520, 256}}) {
    GemmProblem<Kernel> p(s, 900 + s.m);
    const int64_t count = int64_t(p.a.size());
    DeviceBuffer<BF16> real(p.a);
    DeviceBuffer<uint16_t> seen{size_t(count)};
    const auto args = p.arguments();
    Prepared prepared(args);
    auto& [st, gemm, ws] = prepared;
    auto* a = reinterpret_cast<uint16_t*>(p.dA.get());
    auto* r = reinterpret_cast<uint16_t const*>(real.get());
    load_kernels(gemm, st.stream);

    // Control: a dependent launch that does not wait sees A still poisoned.
    throw_on_error(cudaMemsetAsync(a, 0xFF, size_t(count) * 2, st.stream), "poison A");
    late_copy<<<8, 256, 0, st.stream>>>(a, r, count, kSpinCycles);
    launch_dependent_copy(seen.get(), a, count, st.stream);
    throw_on_error(cudaStreamSynchronize(st.stream), "control");
    overlapped = overlapped && count_equal(seen.download(), 0xFFFF) > count / 2;

    // A written late, then B written late.
    const int64_t count_b = int64_t(p.b.size());
    DeviceBuffer<BF16> real_b(p.b);
    auto* b = reinterpret_cast<uint16_t*>(p.dB.get());
    auto const* rb = reinterpret_cast<uint16_t const*>(real_b.get());
    for (bool late_b : {false, true}) {
      uint16_t* x = late_b ? b : a;
      const int64_t n = late_b ? count_b : count;
      throw_on_error(cudaMemsetAsync(x, 0xFF, size_t(n) * 2, st.stream), "poison");
      late_copy<<<8, 256, 0, st.stream>>>(x, late_b ? rb : r, n, kSpinCycles);
      ASSERT_TRUE(bool(gemm.run(st.stream, pdl())));
      throw_on_error(cudaStreamSynchronize(st.stream), "GEMM after a late writer");
      p.check([](int, int, int, double ref) { return ref; },
              std::string(G::uses_stream_k(args) ? "Stream-K" : "tiles") + (late_b ? ", B" : ", A") +
                  " written late, PDL");
    }
  }
  // A tool that serializes kernels (compute-sanitizer, a profiler) removes the overlap: the results
  // were checked, but a GEMM that did not wait would have passed too.
  if (!overlapped)
    GTEST_SKIP() << "the dependent launches did not overlap the kernel before them (the control read no poison): "
                    "the GEMM's results were checked, its waiting was not exercised";
}

int64_t count_nan(std::vector<BF16> const& v) {
  int64_t n = 0;
  for (BF16 x : v) n += std::isnan(__bfloat162float(x));
  return n;
}

// B declared independent (LaunchOptions::b_independent), A written late by the kernel before: the
// GEMM loads B's first stages before griddepcontrol.wait and A after it, with either trigger. The
// early loads are real: B written late too, though declared independent, reaches the GEMM as the
// poison it held (every output NaN). Then AutoGemm's decode classes (A and B swapped: the caller's
// B is the kernel's A) with the weights independent and the tokens written late.
TEST(Sm90GemmPdl, IndependentOperandsLoadBeforeTheWait) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  bool overlapped = true;
  for (Shape3 s : {Shape3{16, 1000, 4097}, Shape3{300, 520, 256}}) {
    GemmProblem<Kernel> p(s, 1100 + s.m);
    DeviceBuffer<BF16> real_a(p.a), real_b(p.b);
    Prepared prepared(p.arguments());
    auto& [st, gemm, ws] = prepared;
    auto* a = reinterpret_cast<uint16_t*>(p.dA.get());
    auto* b = reinterpret_cast<uint16_t*>(p.dB.get());
    const int64_t count_a = int64_t(p.a.size()), count_b = int64_t(p.b.size());
    load_kernels(gemm, st.stream);
    for (PdlTrigger trigger : {PdlTrigger::at_exit, PdlTrigger::after_loads}) {
      LaunchOptions o = pdl();
      o.b_independent = true, o.pdl_trigger = trigger;
      const std::string how = trigger == PdlTrigger::at_exit ? "trigger at exit" : "trigger after loads";
      throw_on_error(cudaMemsetAsync(a, 0xFF, size_t(count_a) * 2, st.stream), "poison A");
      late_copy<<<8, 256, 0, st.stream>>>(a, reinterpret_cast<uint16_t const*>(real_a.get()), count_a, kSpinCycles);
      ASSERT_TRUE(bool(gemm.run(st.stream, o)));
      throw_on_error(cudaStreamSynchronize(st.stream), "GEMM after a late writer of A");
      p.check([](int, int, int, double ref) { return ref; }, "B independent, A written late, " + how);

      p.poison();
      throw_on_error(cudaMemsetAsync(b, 0xFF, size_t(count_b) * 2, st.stream), "poison B");
      late_copy<<<8, 256, 0, st.stream>>>(b, reinterpret_cast<uint16_t const*>(real_b.get()), count_b, kSpinCycles);
      ASSERT_TRUE(bool(gemm.run(st.stream, o)));
      throw_on_error(cudaStreamSynchronize(st.stream), "GEMM after a late writer of B");
      const int64_t nan = count_nan(p.dD.download());
      overlapped = overlapped && nan > 0;
      if (nan > 0)
        EXPECT_GE(nan, int64_t(s.m) * s.n) << how << ": B loaded early should make every output NaN";
    }
  }
  for (int m : {16, 64}) {  // the decode and decode_wide classes
    using Auto = Sm90AutoGemm<Sm90Tiles<BF16>, BF16>;
    GemmProblem<Kernel, Auto> p({m, 4096, 4096}, 1200 + m);
    auto args = p.arguments();
    args.split_k = 0, args.schedule = Schedule::automatic;
    ASSERT_TRUE(sm90_swaps_operands(Auto::tile_class(args))) << "m " << m << " should take a decode class";
    DeviceBuffer<BF16> real(p.a);
    Prepared<Auto> prepared(args);
    auto& [st, gemm, ws] = prepared;
    ASSERT_TRUE(bool(gemm.run(st.stream)));
    throw_on_error(cudaStreamSynchronize(st.stream), "loading the decode GEMM");
    LaunchOptions o = pdl();
    o.b_independent = true;  // the weights; the trigger automatic (after the loads, for these classes)
    auto* a = reinterpret_cast<uint16_t*>(p.dA.get());
    const int64_t count = int64_t(p.a.size());
    for (int i = 0; i < 2; ++i) {
      p.poison();
      throw_on_error(cudaMemsetAsync(a, 0xFF, size_t(count) * 2, st.stream), "poison the tokens");
      late_copy<<<8, 256, 0, st.stream>>>(a, reinterpret_cast<uint16_t const*>(real.get()), count, kSpinCycles);
      for (int j = 0; j <= 20 * i; ++j) ASSERT_TRUE(bool(gemm.run(st.stream, o)));
      throw_on_error(cudaStreamSynchronize(st.stream), "decode GEMM after a late writer of the tokens");
      p.check([](int, int, int, double ref) { return ref; },
              std::string(Auto::config_name(gemm.chosen())) + ", weights independent, tokens written late" +
                  (i ? ", then 20 more launches" : ""));
    }
  }
  if (!overlapped)
    GTEST_SKIP() << "the dependent launches did not overlap the kernel before them (B written late reached the GEMM "
                    "in time): the results were checked, the early loads were not exercised";
}

// The kernel before the GEMM reads D's old contents late: the GEMM must not overwrite them first.
TEST(Sm90GemmPdl, WaitsForThePreviousKernelToReadD) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  GemmProblem<Kernel> p({64, 2048, 1000}, 950);
  const int64_t count = int64_t(p.dD.size());
  DeviceBuffer<uint16_t> saved{size_t(count)};
  Prepared prepared(p.arguments());
  auto& [st, gemm, ws] = prepared;
  auto* d = reinterpret_cast<uint16_t*>(p.dD.get());
  load_kernels(gemm, st.stream);
  throw_on_error(cudaMemsetAsync(d, 0xFF, size_t(count) * 2, st.stream), "poison D");
  late_copy<<<8, 256, 0, st.stream>>>(saved.get(), d, count, kSpinCycles);
  ASSERT_TRUE(bool(gemm.run(st.stream, pdl())));
  throw_on_error(cudaStreamSynchronize(st.stream), "GEMM after a late reader");
  EXPECT_EQ(count_equal(saved.download(), 0xFFFF), count) << "the GEMM wrote D before the kernel before it read D";
  p.check([](int, int, int, double ref) { return ref; }, "PDL after a late reader");
}

// Back to back on one workspace: each launch's partial tiles and tile counters (Stream-K, and the
// automatic schedule's split-K) are the next one's, so a launch that started on them early would
// corrupt the sums.
TEST(Sm90GemmPdl, BackToBackSharedOutLaunches) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  for (Schedule schedule : {Schedule::stream_k, Schedule::automatic})
    for (int launch : {0, 1, 2}) {  // PDL triggered at exit, PDL triggered after the loads, no PDL
      const bool with_pdl = launch < 2;
      LaunchOptions o = with_pdl ? pdl() : LaunchOptions{};
      if (launch == 1) o.pdl_trigger = PdlTrigger::after_loads, o.b_independent = true;
      GemmProblem<Kernel> p({16, 4096, 4096}, 970);
      auto args = p.arguments();
      args.split_k = 0, args.schedule = schedule;
      const Sm90WorkKind kind = Kernel::work_plan(args).kind;
      ASSERT_EQ(kind, schedule == Schedule::stream_k ? Sm90WorkKind::stream_k : Sm90WorkKind::split_k)
          << "a decode shape should share its K out";
      Prepared prepared(args);
      auto& [st, gemm, ws] = prepared;
      for (int i = 0; i < 50; ++i) ASSERT_TRUE(bool(gemm.run(st.stream, o)));
      throw_on_error(cudaStreamSynchronize(st.stream), "50 launches");
      const std::string what = std::string(kind == Sm90WorkKind::stream_k ? "Stream-K" : "split-K") + ", 50 launches";
      p.check([](int, int, int, double ref) { return ref; },
              launch == 0 ? what + ", PDL" : launch == 1 ? what + ", PDL after the loads, B early" : what);
    }
}
// The decode class's kernel (A and B swapped, D stored transposed) under PDL: tokens written late
// by the kernel before, then 50 launches back to back (the automatic split: in K pairs, clusters of
// two CTAs, for m 1; through one workspace, SplitKMode::serial, for m 16).
TEST(Sm90GemmPdl, DecodeClassWaitsAndRunsBackToBack) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  using Decode = Sm90GemmKernel<Sm90Tiles<BF16>::Decode, BF16, LinearCombination, Sm90Store::plain_transposed>;
  using GD = Gemm<Decode>;
  for (int m : {1, 16}) {
    GemmProblem<Kernel> p({m, 4096, 4096}, 990 + m);
    auto args = p.arguments();
    args.split_k = 0, args.schedule = Schedule::automatic;
    if (m == 16) args.split_k_mode = SplitKMode::serial;
    const auto swapped = Sm90AutoGemm<Sm90Tiles<BF16>, BF16>::arguments_for(Sm90TileClass::decode, args);
    const Sm90WorkPlan plan = Decode::work_plan(swapped);
    if (m == 16)
      ASSERT_EQ(plan.kind, Sm90WorkKind::split_k) << "64 weight tiles should split through the workspace";
    else
      ASSERT_TRUE(plan.pairs) << "64 weight tiles should split in K pairs";
    Prepared<GD> prepared(swapped);
    auto& [st, gemm, ws] = prepared;
    load_kernels(gemm, st.stream);

    const int64_t count = int64_t(p.a.size());
    DeviceBuffer<BF16> real(p.a);
    auto* a = reinterpret_cast<uint16_t*>(p.dA.get());
    throw_on_error(cudaMemsetAsync(a, 0xFF, size_t(count) * 2, st.stream), "poison the tokens");
    late_copy<<<8, 256, 0, st.stream>>>(a, reinterpret_cast<uint16_t const*>(real.get()), count, kSpinCycles);
    ASSERT_TRUE(bool(gemm.run(st.stream, pdl())));
    throw_on_error(cudaStreamSynchronize(st.stream), "decode GEMM after a late writer of the tokens");
    p.check([](int, int, int, double ref) { return ref; }, "decode, tokens written late, PDL");

    for (bool early : {false, true}) {  // then triggered after the loads, its A (the weights) loaded early
      LaunchOptions o = pdl();
      if (early) o.pdl_trigger = PdlTrigger::after_loads, o.a_independent = true;
      p.poison();
      for (int i = 0; i < 50; ++i) ASSERT_TRUE(bool(gemm.run(st.stream, o)));
      throw_on_error(cudaStreamSynchronize(st.stream), "50 decode launches");
      p.check([](int, int, int, double ref) { return ref; },
              early ? "decode, 50 launches, PDL after the loads, weights early" : "decode, 50 launches, PDL");
    }
  }
}

}  // namespace
