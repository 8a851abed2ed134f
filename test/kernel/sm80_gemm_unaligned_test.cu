// The Ampere GEMM under an Alignment below 16 bytes (Sm80GemmConfig's last parameter, what
// Sm80AutoGemm falls back to), through the odd-layout sweep of sm80_gemm_unaligned.cuh, for the
// element sizes beside 2 bytes: tf32 (4-byte copies and fp32 out; column-major A and B, a mixed
// majorness) and int8 (1-byte copies and int32 out; K-major, its only layout). 2-byte elements run the sweep as bf16 with both operands K-major and both MN-major, in
// sm80_gemm_tiles_test.cu and sm80_gemm_tiles_mn_major_test.cu, on the configurations
// Sm80AutoGemm falls back to (the same kernels, compiled there anyway); f16 takes the same 2-byte
// copies. An unaligned configuration costs about 30 s of nvcc. The 16-byte configurations refuse the
// same problems, with their message.
#include <kernel/gemm.hpp>

#include <string>
#include <type_traits>

#include "sm80_gemm_unaligned.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;

template <class TA, class LayoutA, class LayoutB, int Alignment>
using SmallConfig = Sm80GemmConfig<TA, TA, LayoutA, LayoutB, 128, 128, 32, 2, 2, 4, 1, Alignment>;

TEST(Sm80GemmUnaligned, Tf32) {
  unaligned_sweep<Sm80GemmKernel<SmallConfig<float, ColumnMajor, ColumnMajor, 4>, float, LinearCombination>>(
      400, "tf32 NN");
}

TEST(Sm80GemmUnaligned, Int8) {
  using Config = Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4, 1, 1>;
  unaligned_sweep<Sm80GemmKernel<Config, int32_t, LinearCombination>>(500, "int8 TN");
}

// The 16-byte configuration refuses the same layout, naming the first operand that breaks it, and
// the element-aligned one still refuses a pointer that is not even element-aligned.
TEST(Sm80GemmUnaligned, SixteenByteRuleStillRefuses) {
  using Aligned = Gemm<Sm80GemmKernel<SmallConfig<BF16, RowMajor, ColumnMajor, 16>, BF16, LinearCombination>>;
  using Unaligned = Gemm<Sm80GemmKernel<SmallConfig<BF16, RowMajor, ColumnMajor, 2>, BF16, LinearCombination>>;
  alignas(16) static BF16 buffer[64];
  Aligned::Arguments a;
  a.m = 16, a.n = 16, a.k = 16;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 17, a.ldb = 16, a.ldd = 16;
  a.epilogue = {{1.f, 0.f}};
  Status st = Aligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_leading_dim) << st.message();
  EXPECT_NE(st.message().find("lda (17) must be a multiple of 8 elements (16 bytes)"), std::string::npos)
      << st.message();
  EXPECT_TRUE(bool(Unaligned::can_implement(a))) << Unaligned::can_implement(a).message();

  a.lda = 16;
  a.D = buffer + 1;  // 2-byte aligned: enough for element stores
  st = Aligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("D must be 16-byte aligned"), std::string::npos) << st.message();
  EXPECT_TRUE(bool(Unaligned::can_implement(a))) << Unaligned::can_implement(a).message();

  a.D = buffer;
  a.A = reinterpret_cast<BF16 const*>(reinterpret_cast<char const*>(buffer) + 1);  // not element-aligned
  st = Unaligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("A must be 2-byte aligned"), std::string::npos) << st.message();
}

}  // namespace
