// Ampere GEMM on fp32 operands through tf32 tensor cores (fp32 out, fp32 accumulation), in all four
// majorness combinations over kEdgeShapes: a K-major operand goes through ldmatrix, an MN-major one
// through element-wise shared -> register copies.
//
// The reference multiplies the operands as the tensor cores read them, truncated to tf32 (the
// kernel passes fp32 bits to mma .tf32, which ignores the low 13), exactly in double, so the
// kernel may differ from it only by its fp32 arithmetic: every element must lie within
// 2^-23·|ref| (the output) + k·2^-23·Σ|a·b| (the accumulation, worst case) + 1e-6. That rejects
// what the former 2^-9·Σ|a·b| let through (ToleranceRejectsWrongKernels runs the numbers on the
// host):
//  - inputs rounded to bf16 err by up to 2^-8 each, in random directions: on the sweep's random
//    data that puts an element a median 500 times over the tolerance at k = 7 and 11 times at
//    k = 129 (over 95 % of the elements fail), and one element in five still fails at k = 1000.
//    Past that the tolerance (k·2^-23 of Σ|a·b|) overtakes the random errors (about 2^-9/√k of
//    it), so BiasedInputsRejectBf16Rounding makes every input's bf16 rounding go down by 3/8 to 1/2 of a
//    bf16 ulp: almost 3·2^-10·Σ|a·b| off, six times the tolerance at k = 4097;
//  - a dropped product (|a·b| ~ 1/4 against k·2^-23·Σ|a·b| ~ k^2/2^25) fails nearly every element
//    for k <= 1000, and one in seven at k = 4097 (those whose dropped product is over about 1/2);
//  - rounding the inputs to nearest tf32 instead of truncating them fails for k <= 129 and on the
//    biased inputs; InputsAreTruncatedToTf32 says which rule the hardware follows.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

template <class LayoutA, class LayoutB>
using Tf32Kernel =
    Sm80GemmKernel<Sm80GemmConfig<float, float, LayoutA, LayoutB, 128, 128, 32, 2, 2, 3>, float, LinearCombination>;

uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
float float_of(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// |x| with the three lowest tf32 mantissa bits 011: its rounding to bf16 (the 16 bits below bf16's
// mantissa are 011 followed by 13 random ones, less than half an ulp) always goes down, by 3/8 to
// 1/2 of a bf16 ulp, at least 3·2^-11 of |x|; truncation to tf32 removes only the random ones.
float bf16_rounds_down(float x) { return float_of((bits_of(std::fabs(x)) & ~0xE000u) | 0x6000u); }

// ---- without a GPU: the tolerance against emulated right and wrong kernels ---------------------

float round_to_nearest_tf32(float x) { return float_of((bits_of(x) + 0x1000u) & 0xFFFFE000u); }
float through_bf16(float x) { return __bfloat162float(__float2bfloat16(x)); }
// s in fp32 rounded toward zero (the tensor core's truncation).
float truncated_to_float(double s) {
  const float f = float(s);
  return std::fabs(double(f)) > std::fabs(s) ? std::nextafter(f, 0.f) : f;
}

struct Verdicts {
  int64_t elements = 0;
  int64_t right_kernel = 0, bf16_inputs = 0, dropped_product = 0, nearest_tf32 = 0;  // elements off
};

// m × n dot products of length k on operands from `make`, each emulated four ways and checked
// with the harness's tolerance against the reference (tf32-truncated operands, exact in double):
// the right kernel (every product truncated into an fp32 sum one at a time, more roundings than
// the tensor cores' blocks of 8 make), inputs rounded to bf16, the last product dropped, inputs
// rounded to nearest tf32.
template <class Make>
Verdicts judge(int m, int n, int k, uint64_t seed, Make make) {
  std::vector<float> a = random_operand<float>(size_t(m) * k, seed), b = random_operand<float>(size_t(k) * n, seed + 1);
  for (float& x : a) x = make(x);
  for (float& x : b) x = make(x);
  Verdicts v;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double ref = 0, absref = 0, bf16 = 0, nearest = 0, last = 0;
      float acc = 0;
      for (int p = 0; p < k; ++p) {
        const float x = a[size_t(i) * k + p], y = b[size_t(p) * n + j];
        last = as_mma_operand(x) * as_mma_operand(y);
        ref += last;
        absref += std::fabs(last);
        acc = truncated_to_float(double(acc) + last);
        bf16 += double(through_bf16(x)) * through_bf16(y);
        nearest += double(round_to_nearest_tf32(x)) * round_to_nearest_tf32(y);
      }
      const double tol = element_tolerance<float, float>(k, ref, absref);
      auto off = [&](double got) { return std::fabs(got - ref) > tol ? 1 : 0; };
      ++v.elements;
      v.right_kernel += off(acc);
      v.bf16_inputs += off(bf16);
      v.dropped_product += off(ref - last);
      v.nearest_tf32 += off(nearest);
    }
  }
  return v;
}

TEST(Sm80GemmTf32, ToleranceRejectsWrongKernels) {
  auto uniform = [](float x) { return x; };
  for (int k : {7, 129, 1000, 4097}) {
    const Verdicts v = judge(64, 64, k, 100 + k, uniform);
    const std::string at = "random operands, k = " + std::to_string(k);
    EXPECT_EQ(v.right_kernel, 0) << at << ": the right kernel fails the tolerance";
    if (k <= 1000) EXPECT_GT(v.bf16_inputs, 0) << at << ": bf16-rounded inputs pass";
    if (k <= 129) EXPECT_GT(v.bf16_inputs, v.elements * 9 / 10) << at;
    EXPECT_GT(v.dropped_product, 0) << at << ": a dropped product passes";
    if (k <= 129) EXPECT_GT(v.nearest_tf32, 0) << at << ": inputs rounded to nearest tf32 pass";
  }
  const Verdicts v = judge(64, 64, 4097, 7, bf16_rounds_down);
  EXPECT_EQ(v.right_kernel, 0) << "biased operands, k = 4097: the right kernel fails the tolerance";
  EXPECT_EQ(v.bf16_inputs, v.elements) << "biased operands, k = 4097: bf16-rounded inputs pass";
}

// ---- on the GPU ------------------------------------------------------------------------------------

template <class LayoutA, class LayoutB>
void sweep(const char* what, uint64_t seed = 23) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_plain_gemm<Tf32Kernel<LayoutA, LayoutB>>(kEdgeShapes, seed, what);
}

TEST(Sm80GemmTf32, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor>("tf32 K-major A, K-major B"); }
TEST(Sm80GemmTf32, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor>("tf32 MN-major A, MN-major B"); }
// The mixed majornesses: one operand through ldmatrix, the other element by element.
TEST(Sm80GemmTf32, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor>("tf32 K-major A, MN-major B", 29); }
TEST(Sm80GemmTf32, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor>("tf32 MN-major A, K-major B", 29); }

using Kernel = Tf32Kernel<RowMajor, ColumnMajor>;

// Every A and B element 1 + 2^-11 + 2^-12: truncated to tf32 it is 1, rounded to nearest 1 + 2^-10.
// D = 32 exactly if the tensor cores truncate, as the reference assumes.
TEST(Sm80GemmTf32, InputsAreTruncatedToTf32) {
  STRATA_REQUIRE_SM(8, 0);
  GemmProblem<Kernel> p({16, 8, 32}, 3);
  const float x = float_of(0x3F801800u);
  ASSERT_EQ(double(x), 1.0 + 1.0 / 2048 + 1.0 / 4096);
  std::fill(p.a.begin(), p.a.end(), x);
  std::fill(p.b.begin(), p.b.end(), x);
  p.dA.upload(p.a);
  p.dB.upload(p.b);
  p.compute_reference();
  ASSERT_EQ(p.ref[0], 32.0);
  auto args = p.arguments();
  args.epilogue = {{1.f, 0.f}};
  ASSERT_TRUE(bool(p.run(args)));
  const std::vector<float> d = p.dD.download();
  EXPECT_EQ(d[0], 32.f) << "32 when the inputs are truncated to tf32, 32 * (1 + 2^-10)^2 = 32.0625 when they "
                           "are rounded to nearest, 32 * (1 + 3 * 2^-12)^2 = 32.047 when all of fp32 is used";
  p.check([](int, int, int, double ref) { return ref; }, "tf32 truncation");
}

// Inputs whose bf16 rounding always goes down (bf16_rounds_down): at k = 4097, where random
// errors average out, a kernel rounding to bf16 would still be at least 3·2^-10·Σ|a·b| off.
TEST(Sm80GemmTf32, BiasedInputsRejectBf16Rounding) {
  STRATA_REQUIRE_SM(8, 0);
  GemmProblem<Kernel> p({130, 129, 4097}, 41);
  for (float& v : p.a) v = bf16_rounds_down(v);
  for (float& v : p.b) v = bf16_rounds_down(v);
  p.dA.upload(p.a);
  p.dB.upload(p.b);
  p.compute_reference();
  auto args = p.arguments();
  args.epilogue = {{1.f, 0.f}};
  ASSERT_TRUE(bool(p.run(args)));
  p.check([](int, int, int, double ref) { return ref; }, "tf32, inputs whose bf16 rounding goes down");
}
}  // namespace
