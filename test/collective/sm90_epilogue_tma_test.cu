// Tests of the Hopper TMA epilogue (collective/sm90_epilogue_tma.hpp).
//
//   - host (no GPU): check() refuses each broken rule of D, and of C when it is read, with its code
//     and words; C is not looked at when the functor does not read it; the box is TMA's.
//   - GPU (compute capability 9.0 exactly): a kernel of kConsumers warpgroups and no mainloop fills
//     each thread's accumulators, in wgmma's layout, with a known function of (batch, row, col) and
//     calls store() for several tiles in a persistent loop (both staging buffers and the C barrier's
//     phases cycle across calls), then drain(). Every element of D's buffer is checked against the
//     host's value rounded to TD: the m × n output of each batch, and the guard value everywhere else
//     (padding columns between n and ld, the gap between batches, a tail past the end). Covered:
//     bf16, half and float D; BN 64, 128, 192 (three sub-tiles: the buffer parity flips between
//     tiles) and 256; one and two consumer warpgroups; tile multiples and ragged m, n (clipping,
//     sub-tiles and warpgroups wholly past the edge; n not a multiple of 16 bytes, whose last
//     columns TMA would overwrite up to the 16-byte boundary, and n below 16 bytes); batches with a
//     gap; beta != 0 with C separate and C aliased to D; a functor that uses (row, col) and counts
//     calls outside the output.
// A failure prints the first wrong elements with their batch, row, column, where they sit in the
// tile (warpgroup, warp, sub-tile), the value found and expected, and which elements of the same
// sub-tile should have held the value found.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../common/gpu_test.hpp"
#include "collective/epilogue_functors.hpp"
#include "collective/sm90_epilogue_tma.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;
using bf16 = __nv_bfloat16;

template <int BN_, int Consumers_, int Buffers_ = 2>
struct TestConfig {
  static constexpr int BN = BN_, kConsumers = Consumers_, kEpilogueBuffers = Buffers_;
};

// ---- values -------------------------------------------------------------------------------------

STRATA_HOST_DEVICE inline uint32_t mix(uint32_t batch, uint32_t row, uint32_t col, uint32_t seed) {
  uint32_t x = row * 0x9E3779B1u ^ col * 0x85EBCA77u ^ batch * 0xC2B2AE3Du ^ seed;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  x *= 0x297A2D39u;
  x ^= x >> 15;
  return x;
}
// Odd multiples of 1/32 in (-8, 8): never zero, exact in every TD, and their sums below stay exact in float.
STRATA_HOST_DEVICE inline float acc_value(int batch, int row, int col) {
  return float(2 * int(mix(batch, row, col, 0x1234u) & 255u) - 255) / 32.f;
}
// Odd multiples of 1/16 in (-16, 16), exact in every TD.
inline float c_value(int batch, int row, int col) {
  return float(2 * int(mix(batch, row, col, 0xBEEFu) & 255u) - 255) / 16.f;
}

// alpha * acc + beta * c + a term of (row, col); counts the calls made outside the m × n output.
struct CoordinateFunctor {
  float alpha = 1.f, beta = 0.f;
  int m = 0, n = 0;
  int* outside_calls = nullptr;
  STRATA_HOST_DEVICE bool reads_source() const { return beta != 0.f; }
  STRATA_HOST_DEVICE float operator()(float acc, float c, int row, int col) const {
#if defined(__CUDA_ARCH__)
    if (row < 0 || row >= m || col < 0 || col >= n) atomicAdd(outside_calls, 1);
#endif
    return alpha * acc + beta * c + float((row * 7 + col * 13) % 32 - 16) / 4.f;
  }
};

template <class TD>
TD to_td(float x) {
  if constexpr (std::is_same_v<TD, float>) return x;
  else if constexpr (std::is_same_v<TD, bf16>) return __float2bfloat16_rn(x);
  else return __float2half_rn(x);
}
template <class TD>
float to_float(TD x) {
  if constexpr (std::is_same_v<TD, float>) return x;
  else if constexpr (std::is_same_v<TD, bf16>) return __bfloat162float(x);
  else return __half2float(x);
}
template <class TD>
uint32_t bits(TD x) {
  uint32_t b = 0;
  std::memcpy(&b, &x, sizeof(TD));
  return b;
}
template <class TD>
TD guard_value() {  // all bits set: a NaN in every TD, never a result
  TD g;
  std::memset(&g, 0xFF, sizeof(TD));
  return g;
}

// ---- the kernel ---------------------------------------------------------------------------------

template <class Epi>
struct alignas(128) KernelParams {
  typename Epi::Params epi;
  int tiles_m, tiles_n, batches;
};

template <class Epi>
__global__ void __launch_bounds__(128 * Epi::kConsumers, 1)
    tma_epilogue_kernel(const __grid_constant__ KernelParams<Epi> kp) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int BN = Epi::BN, BM = 64 * Epi::kConsumers;
  extern __shared__ unsigned char smem_raw[];
  const uint32_t raw = uint32_t(__cvta_generic_to_shared(smem_raw));
  auto& smem = *reinterpret_cast<typename Epi::SharedStorage*>(smem_raw + (1024u - raw % 1024u) % 1024u);
  Epi::init(smem, int(threadIdx.x));
  if (threadIdx.x == 0) Epi::prefetch(kp.epi);
  __syncthreads();
  const int wg = int(threadIdx.x) / 128, t = int(threadIdx.x) % 128;
  const int warp = t / 32, g = (t % 32) / 4, q = t % 4;
  typename Epi::State state{};
  const int per_batch = kp.tiles_m * kp.tiles_n;
  for (int tile = int(blockIdx.x); tile < per_batch * kp.batches; tile += int(gridDim.x)) {
    const int batch = tile / per_batch, tm = tile % per_batch / kp.tiles_n, tn = tile % kp.tiles_n;
    const int m0 = tm * BM + 64 * wg, n0 = tn * BN;
    float acc[BN / 2];
    STRATA_UNROLL
    for (int i = 0; i < BN / 2; ++i)  // wgmma's accumulator layout
      acc[i] = acc_value(batch, m0 + 16 * warp + g + 8 * ((i / 2) % 2), n0 + 8 * (i / 4) + 2 * q + i % 2);
    Epi::store(kp.epi, smem, state, acc, wg, m0, n0, batch, t);
  }
  Epi::drain(t);
#endif
}

// ---- one problem on the GPU ---------------------------------------------------------------------

struct Problem {
  int m, n, batches;
  int64_t ldd, batch_stride_d;  // batch_stride_d 0: m * ldd
  float alpha = 2.f, beta = 0.f;
  bool alias = false;           // C is D (ldc, batch stride of D)
  int64_t ldc = 0, batch_stride_c = 0;
  int tiles_per_cta = 3;        // the persistent loop's length (the last CTA may get fewer)
};

std::string describe(Problem const& p) {
  std::ostringstream s;
  s << "m " << p.m << " n " << p.n << " batches " << p.batches << " ldd " << p.ldd << " batch_stride_d "
    << p.batch_stride_d << " alpha " << p.alpha << " beta " << p.beta;
  if (p.beta != 0.f) s << (p.alias ? " C aliases D" : " C separate, ldc " + std::to_string(p.ldc));
  return s.str();
}

template <class Functor>
Functor make_functor(Problem const& p, int* outside_calls) {
  if constexpr (std::is_same_v<Functor, LinearCombination>) {
    (void)outside_calls;
    return LinearCombination{{p.alpha, p.beta}};
  } else {
    return CoordinateFunctor{p.alpha, p.beta, p.m, p.n, outside_calls};
  }
}

template <class TD, int BN, int Consumers, class Functor, int Buffers = 2>
void run_problem(Problem p) {
  using Epi = Sm90TmaEpilogue<TestConfig<BN, Consumers, Buffers>, TD, Functor>;
  constexpr int BM = 64 * Consumers, EpiN = Epi::EpiN;
  SCOPED_TRACE(describe(p) + ", BN " + std::to_string(BN) + ", " + std::to_string(Consumers) + " consumer(s), " +
               std::to_string(8 * sizeof(TD)) + "-bit D");
  if (p.batch_stride_d == 0) p.batch_stride_d = p.ldd * p.m;
  const bool reads = p.beta != 0.f;
  if (p.alias) p.ldc = p.ldd, p.batch_stride_c = p.batch_stride_d;
  if (p.batch_stride_c == 0) p.batch_stride_c = p.ldc * p.m;
  const int64_t tail = 4 * p.ldd + 64;  // guard past the last batch
  const int64_t d_count = (p.batches - 1) * p.batch_stride_d + p.m * p.ldd + tail;
  const int64_t c_count = reads && !p.alias ? (p.batches - 1) * p.batch_stride_c + p.m * p.ldc + 64 : 1;

  // D starts as the guard everywhere and, when C aliases it, as C inside the output.
  std::vector<TD> d_init(size_t(d_count), guard_value<TD>()), c_host(size_t(c_count), guard_value<TD>());
  for (int b = 0; b < p.batches; ++b)
    for (int r = 0; r < p.m; ++r)
      for (int c = 0; c < p.n; ++c) {
        if (p.alias) d_init[size_t(b * p.batch_stride_d + r * p.ldd + c)] = to_td<TD>(c_value(b, r, c));
        if (reads && !p.alias) c_host[size_t(b * p.batch_stride_c + r * p.ldc + c)] = to_td<TD>(c_value(b, r, c));
      }
  DeviceBuffer<TD> d(d_init);
  DeviceBuffer<TD> c_dev(c_host);
  DeviceBuffer<int> outside(std::vector<int>{0});
  const TD* c_ptr = !reads ? nullptr : p.alias ? d.get() : c_dev.get();
  const Functor functor = make_functor<Functor>(p, outside.get());

  KernelParams<Epi> kp{};
  const Status s = Epi::make_params(kp.epi, d.get(), p.ldd, p.batch_stride_d, c_ptr, p.ldc, p.batch_stride_c, p.m,
                                    p.n, p.batches, functor);
  ASSERT_TRUE(s.ok()) << s.message();
  kp.tiles_m = (p.m + BM - 1) / BM, kp.tiles_n = (p.n + BN - 1) / BN, kp.batches = p.batches;
  const int tiles = kp.tiles_m * kp.tiles_n * p.batches;
  const int ctas = (tiles + p.tiles_per_cta - 1) / p.tiles_per_cta;
  const int smem_bytes = int(sizeof(typename Epi::SharedStorage)) + 1024;
  STRATA_CUDA_CHECK(cudaFuncSetAttribute(tma_epilogue_kernel<Epi>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         smem_bytes));
  tma_epilogue_kernel<Epi><<<ctas, 128 * Consumers, smem_bytes>>>(kp);
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<TD> got = d.download();
  if constexpr (std::is_same_v<Functor, CoordinateFunctor>) {
    EXPECT_EQ(outside.download()[0], 0) << "the functor was called for elements outside the m x n output";
  }

  auto expected_at = [&](int b, int r, int c) {
    const float source = reads ? c_value(b, r, c) : 0.f;
    return to_td<TD>(make_functor<Functor>(p, nullptr)(acc_value(b, r, c), source, r, c));
  };
  long long wrong_inside = 0, wrong_guard = 0;
  int printed = 0;
  for (int64_t i = 0; i < d_count; ++i) {
    const int64_t b64 = i / p.batch_stride_d, in_batch = i % p.batch_stride_d;
    const int b = int(b64 < p.batches ? b64 : p.batches - 1);
    const int64_t off = i - b * p.batch_stride_d;
    const int r = int(off / p.ldd), c = int(off % p.ldd);
    const bool inside = off >= 0 && r < p.m && c < p.n;
    const TD want = inside ? expected_at(b, r, c) : guard_value<TD>();
    if (bits(got[size_t(i)]) == bits(want)) continue;
    (inside ? wrong_inside : wrong_guard) += 1;
    if (printed++ >= 8) continue;
    std::ostringstream line;
    line << "D[" << i << "]: ";
    if (inside) {
      line << "batch " << b << " row " << r << " col " << c << " (tile " << r / BM << "," << c / BN << ": warpgroup "
           << r % BM / 64 << ", warp " << r % 64 / 16 << ", row " << r % 16 << " of the warp, sub-tile "
           << c % BN / EpiN << ", column " << c % EpiN << " of it)";
    } else {
      const char* where = b64 >= p.batches || r >= p.m ? (b64 >= p.batches ? "tail past the last batch"
                                                                             : "gap after a batch's rows")
                                                       : "padding column between n and ldd";
      line << "guard (" << where << ", batch " << b << " offset " << in_batch << ")";
    }
    line << ": got " << to_float(got[size_t(i)]) << " (0x" << std::hex << bits(got[size_t(i)]) << std::dec
         << "), expected " << to_float(want) << " (0x" << std::hex << bits(want) << std::dec << ")";
    if (inside) {  // which elements of this sub-tile should have held the value found
      const int r0 = r / 64 * 64, c0 = c / EpiN * EpiN;
      int candidates = 0;
      for (int rr = r0; rr < r0 + 64 && rr < p.m && candidates < 3; ++rr)
        for (int cc = c0; cc < c0 + EpiN && cc < p.n && candidates < 3; ++cc)
          if (bits(expected_at(b, rr, cc)) == bits(got[size_t(i)])) {
            line << (candidates++ ? ", " : "; the value of (row, col) ") << "(" << rr << ", " << cc << ")";
          }
    }
    ADD_FAILURE() << line.str();
  }
  EXPECT_EQ(wrong_inside, 0) << "wrong elements inside the output";
  EXPECT_EQ(wrong_guard, 0) << "elements outside the output that were written";
}

// ---- GPU tests ----------------------------------------------------------------------------------

using LC = LinearCombination;
using CF = CoordinateFunctor;

TEST(Sm90TmaEpilogue, Bf16Bn256TwoConsumers) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<bf16, 256, 2, LC>({.m = 512, .n = 768, .batches = 1, .ldd = 768, .batch_stride_d = 0});
  run_problem<bf16, 256, 2, LC>({.m = 100, .n = 77, .batches = 3, .ldd = 88, .batch_stride_d = 100 * 88 + 64,
                                 .tiles_per_cta = 3});
  run_problem<bf16, 256, 2, LC>({.m = 1000, .n = 999, .batches = 2, .ldd = 1008, .batch_stride_d = 1000 * 1008 + 8,
                                 .alpha = 2.f, .beta = 0.5f, .ldc = 1016});
  run_problem<bf16, 256, 2, LC>({.m = 333, .n = 517, .batches = 2, .ldd = 520, .batch_stride_d = 0, .alpha = 2.f,
                                 .beta = -0.5f, .alias = true});
  run_problem<bf16, 256, 2, LC>({.m = 50, .n = 40, .batches = 4, .ldd = 48, .batch_stride_d = 0, .beta = 0.5f,
                                 .ldc = 40, .tiles_per_cta = 2});  // second warpgroup and sub-tiles 1-3 past the edge
}

TEST(Sm90TmaEpilogue, Bf16Bn128OneConsumer) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<bf16, 128, 1, LC>({.m = 256, .n = 384, .batches = 1, .ldd = 384, .batch_stride_d = 0, .tiles_per_cta = 4});
  run_problem<bf16, 128, 1, LC>({.m = 100, .n = 77, .batches = 2, .ldd = 80, .batch_stride_d = 100 * 80 + 16});
  run_problem<bf16, 128, 1, LC>({.m = 200, .n = 300, .batches = 2, .ldd = 304, .batch_stride_d = 0, .alpha = 2.f,
                                 .beta = 0.5f, .alias = true});
}

TEST(Sm90TmaEpilogue, FloatBn128TwoConsumers) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<float, 128, 2, LC>({.m = 384, .n = 512, .batches = 1, .ldd = 512, .batch_stride_d = 0});
  run_problem<float, 128, 2, LC>({.m = 100, .n = 77, .batches = 3, .ldd = 80, .batch_stride_d = 100 * 80 + 4});
  run_problem<float, 128, 2, LC>({.m = 300, .n = 250, .batches = 2, .ldd = 252, .batch_stride_d = 0, .alpha = 2.f,
                                  .beta = 0.5f, .ldc = 260});
  run_problem<float, 128, 2, LC>({.m = 130, .n = 129, .batches = 2, .ldd = 132, .batch_stride_d = 0, .alpha = 2.f,
                                  .beta = -0.5f, .alias = true});
  run_problem<float, 128, 2, LC>({.m = 70, .n = 66, .batches = 3, .ldd = 68, .batch_stride_d = 0, .alpha = 2.f,
                                  .beta = 0.5f, .ldc = 72});  // sub-tile 2 holds only the plainly stored columns
}

TEST(Sm90TmaEpilogue, FloatBn256OneConsumer) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<float, 256, 1, LC>({.m = 192, .n = 512, .batches = 1, .ldd = 516, .batch_stride_d = 0});
  run_problem<float, 256, 1, LC>({.m = 65, .n = 33, .batches = 2, .ldd = 36, .batch_stride_d = 65 * 36 + 12,
                                  .alpha = 2.f, .beta = 0.5f, .alias = true});
}

TEST(Sm90TmaEpilogue, HalfBn192TwoConsumersCoordinates) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<__half, 192, 2, CF>({.m = 256, .n = 576, .batches = 1, .ldd = 576, .batch_stride_d = 0});
  run_problem<__half, 192, 2, CF>({.m = 100, .n = 77, .batches = 3, .ldd = 80, .batch_stride_d = 0, .alpha = 2.f,
                                   .beta = 0.5f, .ldc = 96});
  run_problem<__half, 192, 2, CF>({.m = 129, .n = 200, .batches = 2, .ldd = 208, .batch_stride_d = 0, .alpha = 1.f,
                                   .beta = 0.5f, .alias = true});
}

TEST(Sm90TmaEpilogue, Bf16Bn64OneConsumerCoordinates) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<bf16, 64, 1, CF>({.m = 192, .n = 256, .batches = 1, .ldd = 256, .batch_stride_d = 0, .tiles_per_cta = 5});
  run_problem<bf16, 64, 1, CF>({.m = 70, .n = 9, .batches = 2, .ldd = 16, .batch_stride_d = 70 * 16 + 8, .alpha = 2.f,
                                .beta = 0.5f, .alias = true});
  run_problem<bf16, 64, 1, CF>({.m = 40, .n = 5, .batches = 3, .ldd = 8, .batch_stride_d = 0, .alpha = 2.f,
                                .beta = 0.5f, .ldc = 8});  // n below 16 bytes: no TMA store at all
}

// One staging buffer (the huge class's ping-pong 64 x 256): each sub-tile's store, and the C load
// that lands in the same buffer, wait for the previous one; several tiles per CTA so the next
// tile's first sub-tile follows the last one's store.
TEST(Sm90TmaEpilogue, Bf16Bn256OneConsumerOneBuffer) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  run_problem<bf16, 256, 1, LC, 1>({.m = 256, .n = 768, .batches = 1, .ldd = 768, .batch_stride_d = 0,
                                    .tiles_per_cta = 4});
  run_problem<bf16, 256, 1, LC, 1>({.m = 300, .n = 517, .batches = 2, .ldd = 520, .batch_stride_d = 0, .alpha = 2.f,
                                    .beta = -0.5f, .ldc = 528, .tiles_per_cta = 3});
  run_problem<bf16, 256, 1, LC, 1>({.m = 129, .n = 300, .batches = 2, .ldd = 304, .batch_stride_d = 0, .alpha = 2.f,
                                    .beta = 0.5f, .alias = true, .tiles_per_cta = 2});
}

// ---- host tests of check() ----------------------------------------------------------------------

using EpiBf16 = Sm90TmaEpilogue<TestConfig<256, 2>, bf16, LC>;
using EpiFloat = Sm90TmaEpilogue<TestConfig<128, 1>, float, LC>;

template <class TD>
TD const* fake(uintptr_t address) {  // check() never dereferences
  return reinterpret_cast<TD const*>(address);
}
constexpr uintptr_t kD = 0x100000, kC = 0x200000;
const LC kNoSource{{1.f, 0.f}}, kSource{{1.f, 1.f}};

void expect_refusal(Status const& s, StatusCode code, std::string const& words) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_NE(s.message().find(words), std::string::npos) << "message: " << s.message() << "\nexpected: " << words;
}

TEST(Sm90TmaEpilogueCheck, AcceptsTmaOperands) {
  EXPECT_TRUE(EpiBf16::check(fake<bf16>(kD), 80, 80 * 100, fake<bf16>(kC), 88, 88 * 100, 100, 77, 2, kSource).ok());
  EXPECT_TRUE(EpiFloat::check(fake<float>(kD), 4, 4, nullptr, 0, 0, 1, 1, 1, kNoSource).ok());
  EXPECT_TRUE(EpiBf16::check(fake<bf16>(kD), 8, 3, nullptr, 0, 0, 5, 8, 1, kNoSource).ok())
      << "the batch stride does not matter for one batch";
}

TEST(Sm90TmaEpilogueCheck, RefusesEmptyProblem) {
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 8, 8, nullptr, 0, 0, 0, 8, 1, kNoSource), StatusCode::invalid_problem,
                 "m, n and batches of at least 1 (got m = 0");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 8, 8, nullptr, 0, 0, 8, 8, 0, kNoSource), StatusCode::invalid_problem,
                 "batches = 0");
}

TEST(Sm90TmaEpilogueCheck, RefusesBadD) {
  expect_refusal(EpiBf16::check(nullptr, 8, 8, nullptr, 0, 0, 8, 8, 1, kNoSource), StatusCode::null_pointer,
                 "D is null");
  expect_refusal(EpiBf16::check(fake<bf16>(kD + 2), 8, 64, nullptr, 0, 0, 8, 8, 1, kNoSource),
                 StatusCode::misaligned_pointer,
                 "D must be 16-byte aligned (the TMA store); it is 2 bytes past a multiple of 16");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 70, 7000, nullptr, 0, 0, 100, 77, 1, kNoSource),
                 StatusCode::invalid_leading_dim, "ldd (70) is smaller than n (77)");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 13, 13 * 8, nullptr, 0, 0, 8, 13, 1, kNoSource),
                 StatusCode::misaligned_leading_dim,
                 "ldd (13) must be a multiple of 8 elements (16 bytes: the TMA store)");
  expect_refusal(EpiFloat::check(fake<float>(kD), 14, 14 * 8, nullptr, 0, 0, 8, 13, 1, kNoSource),
                 StatusCode::misaligned_leading_dim,
                 "ldd (14) must be a multiple of 4 elements (16 bytes: the TMA store)");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 16 * 8 + 4, nullptr, 0, 0, 8, 13, 2, kNoSource),
                 StatusCode::misaligned_leading_dim,
                 "batch_stride_d (132) must be a multiple of 8 elements (16 bytes: the TMA store)");
  // TMA's own limits, through make_tma_args: a non-positive batch stride, a stride of 2^40 bytes.
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 0, nullptr, 0, 0, 8, 13, 2, kNoSource),
                 StatusCode::invalid_leading_dim, "D: TMA: the global stride of dimension 2");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), int64_t(1) << 39, 0, nullptr, 0, 0, 8, 13, 1, kNoSource),
                 StatusCode::problem_too_large, "D: TMA: the global stride of dimension 1");
}

TEST(Sm90TmaEpilogueCheck, RefusesBadCWhenRead) {
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 0, nullptr, 16, 0, 8, 13, 1, kSource), StatusCode::null_pointer,
                 "C is null but the epilogue reads it");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 0, fake<bf16>(kC + 8), 16, 0, 8, 13, 1, kSource),
                 StatusCode::misaligned_pointer,
                 "C must be 16-byte aligned (the TMA load of C); it is 8 bytes past a multiple of 16");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 0, fake<bf16>(kC), 12, 0, 8, 13, 1, kSource),
                 StatusCode::invalid_leading_dim, "ldc (12) is smaller than n (13)");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 0, fake<bf16>(kC), 20, 0, 8, 13, 1, kSource),
                 StatusCode::misaligned_leading_dim,
                 "ldc (20) must be a multiple of 8 elements (16 bytes: the TMA load of C)");
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 16, 16 * 8, fake<bf16>(kC), 16, 16 * 8 + 2, 8, 13, 2, kSource),
                 StatusCode::misaligned_leading_dim,
                 "batch_stride_c (130) must be a multiple of 8 elements (16 bytes: the TMA load of C)");
  // D is checked before C.
  expect_refusal(EpiBf16::check(fake<bf16>(kD), 13, 0, nullptr, 16, 0, 8, 13, 1, kSource),
                 StatusCode::misaligned_leading_dim, "ldd (13)");
}

TEST(Sm90TmaEpilogueCheck, IgnoresCWhenNotRead) {
  EXPECT_TRUE(EpiBf16::check(fake<bf16>(kD), 16, 16 * 8, fake<bf16>(kC + 2), 3, 5, 8, 13, 2, kNoSource).ok());
}

TEST(Sm90TmaEpilogueCheck, TheBoxIsTmas) {
  using BoxB = TmaBox<bf16, EpiBf16::TmaBoxD>;
  using BoxF = TmaBox<float, EpiFloat::TmaBoxD>;
  EXPECT_EQ(BoxB::swizzle_bytes, 128);
  EXPECT_EQ(BoxF::swizzle_bytes, 128);
  EXPECT_EQ(BoxB::transaction_bytes, 8192);
  EXPECT_EQ(BoxF::transaction_bytes, 8192);
  EXPECT_EQ(EpiBf16::EpiN, 64);
  EXPECT_EQ(EpiFloat::EpiN, 32);
  // The driver's arguments for D: dimension 0 the columns, 1 the rows, 2 the batch.
  TmaEncodeArgs a;
  const auto global = make_layout(make_shape(int64_t(77), int64_t(100), int64_t(2)),
                                  make_stride(int64_t(1), int64_t(80), int64_t(8064)));
  ASSERT_TRUE(make_tma_args(a, fake<bf16>(kD), global, EpiBf16::TmaBoxD{}).ok());
  EXPECT_EQ(a.box_dims[0], 64);
  EXPECT_EQ(a.box_dims[1], 64);
  EXPECT_EQ(a.box_dims[2], 1);
  EXPECT_EQ(a.global_strides[1], 160);
  EXPECT_EQ(a.global_strides[2], 16128);
  // The staging layout is the box without its batch mode: element (col, row) of each.
  for (int row = 0; row < 64; ++row)
    for (int col = 0; col < 64; ++col)
      ASSERT_EQ(int(EpiBf16::StagingLayout{}(col, row)), int(EpiBf16::TmaBoxD{}(col, row, 0)));
  // Bank-conflict-free stmatrix: the 8 rows of one 8x8 matrix land in 8 different 16-byte chunks.
  for (int row0 = 0; row0 < 64; row0 += 8)
    for (int col0 = 0; col0 < 64; col0 += 8) {
      unsigned chunks = 0;
      for (int r = 0; r < 8; ++r) chunks |= 1u << (int(EpiBf16::StagingLayout{}(col0, row0 + r)) % 64 / 8);
      EXPECT_EQ(chunks, 0xFFu) << "rows " << row0 << ".., columns " << col0 << "..";
    }
}

}  // namespace
