// Tests of the raw sm_80 instruction wrappers against host references on fresh random data.
// Every device output buffer is poisoned with 0xFF bytes before a kernel runs, so an element the
// kernel forgot to write can never pass by looking like a correct zero.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "../common/gpu_test.hpp"
#include "atom/arch/sm80.hpp"
#include "atom/arch/universal_copy.hpp"

namespace {

using namespace strata::arch;

using strata::test::DeviceBuffer;

// A device buffer of `count` elements with every byte set to 0xFF (NaN for floating types).
template <class T>
DeviceBuffer<T> poisoned_buffer(size_t count) {
  DeviceBuffer<T> buffer(count);
  buffer.fill_bytes(0xFF);
  return buffer;
}

// ------------------------------------------------------------------------------------------------
// UniversalCopy
// ------------------------------------------------------------------------------------------------

template <int Bytes>
__global__ void universal_copy_kernel(const unsigned char* src, unsigned char* dst) {
  const int offset = threadIdx.x * Bytes;
  UniversalCopy<Bytes>::copy(src + offset, dst + offset);
}

template <int Bytes>
void check_universal_copy(std::mt19937& rng) {
  constexpr int kThreads = 64;
  std::uniform_int_distribution<int> nonzero_byte(1, 255);
  std::vector<unsigned char> src(kThreads * Bytes);
  for (auto& b : src) b = static_cast<unsigned char>(nonzero_byte(rng));

  std::vector<unsigned char> host_dst(src.size(), 0xFF);
  for (int t = 0; t < kThreads; ++t) UniversalCopy<Bytes>::copy(src.data() + t * Bytes, host_dst.data() + t * Bytes);
  EXPECT_EQ(host_dst, src) << "host copy of width " << Bytes;

  if (!strata::test::gpu_unavailable_reason().empty()) return;  // the host half above still ran
  DeviceBuffer<unsigned char> d_src(src);
  auto d_dst = poisoned_buffer<unsigned char>(src.size());
  universal_copy_kernel<Bytes><<<1, kThreads>>>(d_src.get(), d_dst.get());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(d_dst.download(), src) << "device copy of width " << Bytes;
}

TEST(ArchUniversalCopy, EveryWidthCopiesExactlyItsBytesOnHostAndDevice) {
  static_assert(sizeof(UniversalCopy<16>::Register) == 16 && alignof(UniversalCopy<16>::Register) == 16);
  std::mt19937 rng(1234);
  check_universal_copy<1>(rng);
  check_universal_copy<2>(rng);
  check_universal_copy<4>(rng);
  check_universal_copy<8>(rng);
  check_universal_copy<16>(rng);
}

// ------------------------------------------------------------------------------------------------
// cp.async: two commit groups per thread. After wait_group 1 the first group must have landed
// (the second may still be in flight); after wait_group 0 (or wait_all) both have. Each thread
// then reads a neighbour's slot, so the barrier's cross-thread visibility is exercised too.
// Zero-fill variants skip the source on every third thread.
// ------------------------------------------------------------------------------------------------

constexpr int kCopyThreads = 128;

__host__ __device__ inline bool copies_source(int thread) { return thread % 3 != 0; }

template <class Op, bool Zfill, bool FinishWithWaitAll>
__global__ void cp_async_kernel(const unsigned char* src_first, const unsigned char* src_second,
                                unsigned char* out_first, unsigned char* out_second) {
  constexpr int kBytes = Op::CopyBytes;
  __shared__ alignas(16) unsigned char smem[2][kCopyThreads * kBytes];
  const int t = threadIdx.x;
  for (int i = 0; i < kBytes; ++i) smem[0][t * kBytes + i] = smem[1][t * kBytes + i] = 0xFF;
  __syncthreads();

  const bool copy_source = !Zfill || copies_source(t);
  if constexpr (Zfill) {
    Op::copy(src_first + t * kBytes, smem[0] + t * kBytes, copy_source);
    cp_async_commit();
    Op::copy(src_second + t * kBytes, smem[1] + t * kBytes, copy_source);
    cp_async_commit();
  } else {
    Op::copy(src_first + t * kBytes, smem[0] + t * kBytes);
    cp_async_commit();
    Op::copy(src_second + t * kBytes, smem[1] + t * kBytes);
    cp_async_commit();
  }

  const int neighbour = (t + 1) % kCopyThreads;
  cp_async_wait<1>();
  __syncthreads();
  for (int i = 0; i < kBytes; ++i) out_first[neighbour * kBytes + i] = smem[0][neighbour * kBytes + i];

  if constexpr (FinishWithWaitAll) {
    cp_async_wait_all();
  } else {
    cp_async_wait<0>();
  }
  __syncthreads();
  for (int i = 0; i < kBytes; ++i) out_second[neighbour * kBytes + i] = smem[1][neighbour * kBytes + i];
}

template <class Op, bool Zfill, bool FinishWithWaitAll>
void check_cp_async(uint32_t seed) {
  constexpr int kBytes = Op::CopyBytes;
  constexpr size_t kTotal = size_t(kCopyThreads) * kBytes;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> nonzero_byte(1, 255);  // so a zero-filled byte is unmistakable
  std::vector<unsigned char> first(kTotal), second(kTotal);
  for (auto& b : first) b = static_cast<unsigned char>(nonzero_byte(rng));
  for (auto& b : second) b = static_cast<unsigned char>(nonzero_byte(rng));

  DeviceBuffer<unsigned char> d_first(first), d_second(second);
  auto d_out_first = poisoned_buffer<unsigned char>(kTotal);
  auto d_out_second = poisoned_buffer<unsigned char>(kTotal);
  cp_async_kernel<Op, Zfill, FinishWithWaitAll><<<1, kCopyThreads>>>(d_first.get(), d_second.get(),
                                                                     d_out_first.get(), d_out_second.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());

  const auto out_first = d_out_first.download();
  const auto out_second = d_out_second.download();
  for (int t = 0; t < kCopyThreads; ++t) {
    const bool copied = !Zfill || copies_source(t);
    for (int i = 0; i < kBytes; ++i) {
      const size_t at = size_t(t) * kBytes + i;
      ASSERT_EQ(out_first[at], copied ? first[at] : 0) << "group 1, thread " << t << ", byte " << i;
      ASSERT_EQ(out_second[at], copied ? second[at] : 0) << "group 2, thread " << t << ", byte " << i;
    }
  }
}

TEST(ArchSm80CpAsync, EverySizeAndCacheLevelCopiesAndWaitGroupOrdersGroups) {
  STRATA_REQUIRE_SM(8, 0);
  check_cp_async<CpAsync4_ca, false, false>(11);
  check_cp_async<CpAsync8_ca, false, true>(12);
  check_cp_async<CpAsync16_ca, false, false>(13);
  check_cp_async<CpAsync16_cg, false, true>(14);
}

TEST(ArchSm80CpAsync, ZeroFillWritesZerosWhereThePredicateIsFalse) {
  STRATA_REQUIRE_SM(8, 0);
  check_cp_async<CpAsyncZfill4_ca, true, false>(21);
  check_cp_async<CpAsyncZfill8_ca, true, true>(22);
  check_cp_async<CpAsyncZfill16_ca, true, false>(23);
  check_cp_async<CpAsyncZfill16_cg, true, true>(24);
}

// ------------------------------------------------------------------------------------------------
// ldmatrix: 64 rows of 8 16-bit values in shared memory; lane 8j + r points at row
// row_slot(8j + r), a permutation, so a wrong lane-to-row assignment cannot go unnoticed.
// Lanes past the last matrix still pass valid (different) rows, which the instruction ignores.
// ------------------------------------------------------------------------------------------------

constexpr int kRowSlots = 64;
constexpr int kRowElements = 8;

__host__ __device__ inline int row_slot(int lane) { return (lane * 5 + 3) % kRowSlots; }

template <int NumMatrices, bool Transpose>
__global__ void ldmatrix_kernel(const uint16_t* rows, uint32_t* out) {
  __shared__ alignas(16) uint16_t smem[kRowSlots * kRowElements];
  const int lane = threadIdx.x;
  for (int i = lane; i < kRowSlots * kRowElements; i += 32) smem[i] = rows[i];
  __syncthreads();
  uint32_t fragment[NumMatrices];
  Ldsm<NumMatrices, Transpose>::copy(smem + row_slot(lane) * kRowElements, fragment);
  for (int j = 0; j < NumMatrices; ++j) out[lane * NumMatrices + j] = fragment[j];
}

template <int NumMatrices, bool Transpose>
void check_ldmatrix(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> nonzero_value(1, 0xFFFF);
  std::vector<uint16_t> rows(kRowSlots * kRowElements);
  for (auto& v : rows) v = static_cast<uint16_t>(nonzero_value(rng));

  DeviceBuffer<uint16_t> d_rows(rows);
  auto d_out = poisoned_buffer<uint32_t>(32 * NumMatrices);
  ldmatrix_kernel<NumMatrices, Transpose><<<1, 32>>>(d_rows.get(), d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = d_out.download();

  // Element (r, c) of matrix j is column c of the row that lane 8j + r pointed at.
  auto element = [&](int j, int r, int c) -> uint32_t { return rows[row_slot(8 * j + r) * kRowElements + c]; };
  for (int lane = 0; lane < 32; ++lane) {
    for (int j = 0; j < NumMatrices; ++j) {
      const int fixed = lane / 4, pair = 2 * (lane % 4);
      const uint32_t expected = Transpose ? element(j, pair, fixed) | element(j, pair + 1, fixed) << 16
                                          : element(j, fixed, pair) | element(j, fixed, pair + 1) << 16;
      ASSERT_EQ(out[lane * NumMatrices + j], expected)
          << "x" << NumMatrices << (Transpose ? ".trans" : "") << ", lane " << lane << ", register " << j;
    }
  }
}

TEST(ArchSm80Ldmatrix, EachLaneReceivesTheIsaFragmentWithAndWithoutTranspose) {
  STRATA_REQUIRE_SM(8, 0);
  check_ldmatrix<1, false>(31);
  check_ldmatrix<2, false>(32);
  check_ldmatrix<4, false>(33);
  check_ldmatrix<1, true>(34);
  check_ldmatrix<2, true>(35);
  check_ldmatrix<4, true>(36);
}

// ------------------------------------------------------------------------------------------------
// mma.sync. A fragment of lane l is the list of elements "low to high" of the ISA's tables, so in
// little-endian memory it is a contiguous array of elements: the host writes element e of lane l
// at index l * count + e and the kernel reads those bytes as its registers.
// ------------------------------------------------------------------------------------------------

struct RowCol {
  int row, col;
};
using FragmentMap = RowCol (*)(int lane, int element);

// The index functions below restate the PTX ISA "Matrix Fragments" tables (g = groupID, t =
// threadID_in_group), written independently of the comments in sm80.hpp.
constexpr int group_of(int lane) { return lane >> 2; }
constexpr int thread_in_group(int lane) { return lane & 3; }

RowCol a_16bit_m16k16(int l, int e) {
  return {group_of(l) + 8 * ((e >> 1) & 1), thread_in_group(l) * 2 + (e & 1) + 8 * (e >> 2)};
}
RowCol b_16bit_k16n8(int l, int e) { return {thread_in_group(l) * 2 + (e & 1) + 8 * (e >> 1), group_of(l)}; }
RowCol c_m16n8(int l, int e) { return {group_of(l) + 8 * (e >> 1), thread_in_group(l) * 2 + (e & 1)}; }
RowCol a_tf32_m16k8(int l, int e) { return {group_of(l) + 8 * (e & 1), thread_in_group(l) + 4 * (e >> 1)}; }
RowCol b_tf32_k8n8(int l, int e) { return {thread_in_group(l) + 4 * e, group_of(l)}; }
RowCol a_s8_m16k32(int l, int e) {
  return {group_of(l) + 8 * ((e >> 2) & 1), thread_in_group(l) * 4 + (e & 3) + 16 * (e >> 3)};
}
RowCol b_s8_k32n8(int l, int e) { return {thread_in_group(l) * 4 + (e & 3) + 16 * (e >> 2), group_of(l)}; }
RowCol a_f64_m8k4(int l, int) { return {group_of(l), thread_in_group(l)}; }
RowCol b_f64_k4n8(int l, int) { return {thread_in_group(l), group_of(l)}; }
RowCol c_m8n8(int l, int e) { return {group_of(l), thread_in_group(l) * 2 + e}; }

// Codecs: how a value is drawn, rounded to the element type, and stored as that type's bits.
template <class T>
T bits_of(const void* p) {
  T t;
  std::memcpy(&t, p, sizeof(T));
  return t;
}
struct F16 {
  using Bits = uint16_t;
  static double draw(std::mt19937& g) { return std::uniform_real_distribution<double>(-1, 1)(g); }
  static Bits encode(double v) { const __half h = __float2half_rn(float(v)); return bits_of<Bits>(&h); }
  static double decode(Bits b) { return __half2float(bits_of<__half>(&b)); }
};
struct BF16 {
  using Bits = uint16_t;
  static double draw(std::mt19937& g) { return std::uniform_real_distribution<double>(-1, 1)(g); }
  static Bits encode(double v) { const __nv_bfloat16 h = __float2bfloat16_rn(float(v)); return bits_of<Bits>(&h); }
  static double decode(Bits b) { return __bfloat162float(bits_of<__nv_bfloat16>(&b)); }
};
struct F32 {
  using Bits = uint32_t;
  static double draw(std::mt19937& g) { return std::uniform_real_distribution<double>(-1, 1)(g); }
  static Bits encode(double v) { const float f = float(v); return bits_of<Bits>(&f); }
  static double decode(Bits b) { return bits_of<float>(&b); }
};
// Rounded to nearest (ties away) into tf32 on the host, so the products the tensor core forms are
// exact in fp32 and the reference sees exactly the operands the hardware does.
struct TF32 {
  using Bits = uint32_t;
  static double draw(std::mt19937& g) { return std::uniform_real_distribution<double>(-1, 1)(g); }
  static Bits encode(double v) { return (F32::encode(v) + 0x1000u) & 0xFFFFE000u; }
  static double decode(Bits b) { return F32::decode(b); }
};
struct S8 {
  using Bits = uint8_t;
  static double draw(std::mt19937& g) { return std::uniform_int_distribution<int>(-128, 127)(g); }
  static Bits encode(double v) { return static_cast<Bits>(static_cast<int8_t>(v)); }
  static double decode(Bits b) { return static_cast<int8_t>(b); }
};
struct S32 {
  using Bits = uint32_t;
  static double draw(std::mt19937& g) { return std::uniform_int_distribution<int>(-100000, 100000)(g); }
  static Bits encode(double v) { return static_cast<Bits>(static_cast<int32_t>(v)); }
  static double decode(Bits b) { return static_cast<int32_t>(b); }
};
struct F64 {
  using Bits = uint64_t;
  static double draw(std::mt19937& g) { return std::uniform_real_distribution<double>(-1, 1)(g); }
  static Bits encode(double v) { return bits_of<Bits>(&v); }
  static double decode(Bits b) { return bits_of<double>(&b); }
};

template <class Registers>
constexpr int register_count = std::extent_v<Registers>;
template <class Registers>
using register_word_t = std::remove_all_extents_t<Registers>;

// With InPlace the accumulator registers are passed as both C and D, as a mainloop does.
template <class Mma, bool InPlace>
__global__ void mma_once_kernel(const register_word_t<typename Mma::ARegisters>* a,
                                const register_word_t<typename Mma::BRegisters>* b,
                                const register_word_t<typename Mma::CRegisters>* c,
                                register_word_t<typename Mma::DRegisters>* d) {
  const int lane = threadIdx.x;
  typename Mma::ARegisters a_regs;
  typename Mma::BRegisters b_regs;
  typename Mma::CRegisters c_regs;
  typename Mma::DRegisters d_regs;
  constexpr int kA = register_count<typename Mma::ARegisters>, kB = register_count<typename Mma::BRegisters>;
  constexpr int kC = register_count<typename Mma::CRegisters>, kD = register_count<typename Mma::DRegisters>;
  for (int i = 0; i < kA; ++i) a_regs[i] = a[lane * kA + i];
  for (int i = 0; i < kB; ++i) b_regs[i] = b[lane * kB + i];
  for (int i = 0; i < kC; ++i) c_regs[i] = c[lane * kC + i];
  if constexpr (InPlace) {
    Mma::fma(c_regs, a_regs, b_regs, c_regs);
    for (int i = 0; i < kD; ++i) d[lane * kD + i] = c_regs[i];
  } else {
    Mma::fma(d_regs, a_regs, b_regs, c_regs);
    for (int i = 0; i < kD; ++i) d[lane * kD + i] = d_regs[i];
  }
}

// A rows x cols matrix drawn with Codec (already rounded to its type) and its fragment bytes.
template <class Codec>
struct Operand {
  std::vector<double> values;                 // row-major, exactly representable in the type
  std::vector<typename Codec::Bits> fragment;  // lane-major, elements low to high
};

template <class Codec>
Operand<Codec> make_operand(int rows, int cols, FragmentMap map, std::mt19937& rng) {
  Operand<Codec> op;
  op.values.resize(size_t(rows) * cols);
  for (auto& v : op.values) v = Codec::decode(Codec::encode(Codec::draw(rng)));
  const int per_lane = rows * cols / 32;
  op.fragment.resize(size_t(rows) * cols);
  std::set<std::pair<int, int>> covered;  // the map must hit every element exactly once
  for (int lane = 0; lane < 32; ++lane) {
    for (int e = 0; e < per_lane; ++e) {
      const RowCol rc = map(lane, e);
      EXPECT_TRUE(rc.row >= 0 && rc.row < rows && rc.col >= 0 && rc.col < cols);
      EXPECT_TRUE(covered.insert({rc.row, rc.col}).second)
          << "fragment map repeats (" << rc.row << "," << rc.col << ")";
      op.fragment[lane * per_lane + e] = Codec::encode(op.values[rc.row * cols + rc.col]);
    }
  }
  return op;
}

template <class Vec, class Bits>
std::vector<Vec> reinterpret_words(const std::vector<Bits>& bytes) {
  std::vector<Vec> words(bytes.size() * sizeof(Bits) / sizeof(Vec));
  std::memcpy(words.data(), bytes.data(), words.size() * sizeof(Vec));
  return words;
}

// Checks |D - (A*B + C)| <= tolerance * (|C| + sum_k |A B|) for every element, the reference in
// double. Scaling by the magnitude sum (not |reference|) keeps cancellation from making the check
// meaninglessly strict, while still catching any wrongly placed element.
template <int M, int N, int K, class CodecC>
void expect_mma_result(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c,
                       const std::vector<typename CodecC::Bits>& d_fragment, FragmentMap c_map, double tolerance,
                       bool in_place) {
  const int per_lane = M * N / 32;
  for (int lane = 0; lane < 32; ++lane) {
    for (int e = 0; e < per_lane; ++e) {
      const RowCol rc = c_map(lane, e);
      double reference = c[rc.row * N + rc.col];
      double magnitude = std::fabs(reference);
      for (int k = 0; k < K; ++k) {
        const double product = a[rc.row * K + k] * b[k * N + rc.col];
        reference += product;
        magnitude += std::fabs(product);
      }
      const double got = CodecC::decode(d_fragment[lane * per_lane + e]);
      const char* mode = in_place ? "C and D aliased, " : "";
      ASSERT_TRUE(std::isfinite(got)) << mode << "lane " << lane << " element " << e;
      ASSERT_LE(std::fabs(got - reference), tolerance * magnitude)
          << mode << "D(" << rc.row << "," << rc.col << ") from lane " << lane << " element " << e << ": got " << got
          << ", expected " << reference;
    }
  }
}

// Runs Mma once on fresh operands, with separate and with aliased C/D registers.
template <class Mma, class CodecA, class CodecB, class CodecC>
void check_mma(FragmentMap a_map, FragmentMap b_map, FragmentMap c_map, double tolerance, uint32_t seed) {
  constexpr int M = Mma::M, N = Mma::N, K = Mma::K;
  using AReg = register_word_t<typename Mma::ARegisters>;
  using BReg = register_word_t<typename Mma::BRegisters>;
  using CReg = register_word_t<typename Mma::CRegisters>;
  static_assert(sizeof(typename Mma::ARegisters) * 32 == M * K * sizeof(typename CodecA::Bits));
  static_assert(sizeof(typename Mma::BRegisters) * 32 == K * N * sizeof(typename CodecB::Bits));
  static_assert(sizeof(typename Mma::CRegisters) * 32 == M * N * sizeof(typename CodecC::Bits));

  std::mt19937 rng(seed);
  const auto a = make_operand<CodecA>(M, K, a_map, rng);
  const auto b = make_operand<CodecB>(K, N, b_map, rng);
  const auto c = make_operand<CodecC>(M, N, c_map, rng);

  DeviceBuffer<AReg> d_a(reinterpret_words<AReg>(a.fragment));
  DeviceBuffer<BReg> d_b(reinterpret_words<BReg>(b.fragment));
  DeviceBuffer<CReg> d_c(reinterpret_words<CReg>(c.fragment));
  for (const bool in_place : {false, true}) {
    auto d_d = poisoned_buffer<CReg>(c.fragment.size() * sizeof(typename CodecC::Bits) / sizeof(CReg));
    if (in_place) {
      mma_once_kernel<Mma, true><<<1, 32>>>(d_a.get(), d_b.get(), d_c.get(), d_d.get());
    } else {
      mma_once_kernel<Mma, false><<<1, 32>>>(d_a.get(), d_b.get(), d_c.get(), d_d.get());
    }
    STRATA_CUDA_CHECK(cudaGetLastError());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    const auto d_words = d_d.download();
    std::vector<typename CodecC::Bits> d_fragment(c.fragment.size());
    std::memcpy(d_fragment.data(), d_words.data(), d_fragment.size() * sizeof(typename CodecC::Bits));
    expect_mma_result<M, N, K, CodecC>(a.values, b.values, c.values, d_fragment, c_map, tolerance, in_place);
  }
}

// f16/bf16/tf32 products are exact in fp32 (at most 11 x 11 significant bits), so fp32
// accumulation leaves only the summation rounding: 1e-5 of the magnitude, a few fp32 ulps.
constexpr double kF32AccumulateTolerance = 1e-5;
// f16 accumulation rounds to 11 significant bits: 2^-9 leaves room for two or three roundings.
constexpr double kF16AccumulateTolerance = 1.0 / 512;
constexpr double kF64Tolerance = 1e-14;

TEST(ArchSm80Mma, M16N8K16_F32_F16_F16_F32) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m16n8k16_f32_f16_f16_f32, F16, F16, F32>(a_16bit_m16k16, b_16bit_k16n8, c_m16n8,
                                                         kF32AccumulateTolerance, 41);
}

TEST(ArchSm80Mma, M16N8K16_F32_BF16_BF16_F32) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m16n8k16_f32_bf16_bf16_f32, BF16, BF16, F32>(a_16bit_m16k16, b_16bit_k16n8, c_m16n8,
                                                             kF32AccumulateTolerance, 42);
}

TEST(ArchSm80Mma, M16N8K16_F16_F16_F16_F16) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m16n8k16_f16_f16_f16_f16, F16, F16, F16>(a_16bit_m16k16, b_16bit_k16n8, c_m16n8,
                                                         kF16AccumulateTolerance, 43);
}

TEST(ArchSm80Mma, M16N8K8_F32_TF32_TF32_F32) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m16n8k8_f32_tf32_tf32_f32, TF32, TF32, F32>(a_tf32_m16k8, b_tf32_k8n8, c_m16n8,
                                                            kF32AccumulateTolerance, 44);
}

TEST(ArchSm80Mma, M16N8K32_S32_S8_S8_S32IsExact) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m16n8k32_s32_s8_s8_s32, S8, S8, S32>(a_s8_m16k32, b_s8_k32n8, c_m16n8, 0.0, 45);
}

TEST(ArchSm80Mma, M8N8K4_F64_F64_F64_F64) {
  STRATA_REQUIRE_SM(8, 0);
  check_mma<Mma_m8n8k4_f64_f64_f64_f64, F64, F64, F64>(a_f64_m8k4, b_f64_k4n8, c_m8n8, kF64Tolerance, 46);
}

}  // namespace
