// Shared machinery of the Ampere GEMM tests: fresh random operands, poisoned outputs, a GPU
// reference in double precision, and an element-by-element comparison with a stated tolerance.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <kernel/gemm.hpp>

#include "common/gpu_test.hpp"
#include "common/reference.hpp"

namespace strata::test {

struct Shape3 {
  int m, n, k;
};
inline std::string describe(Shape3 s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// The shape sweep of the element-type and majorness tests: 1, 7, 129, 1000 and 4097 in every
// dimension, so every edge is ragged and K runs from one element to 128 tiles and one.
inline constexpr Shape3 kEdgeShapes[] = {{1, 1, 1},       {7, 7, 7},          {129, 129, 129},
                                         {1000, 7, 4097}, {7, 1000, 129},     {4097, 129, 7},
                                         {129, 4097, 1000}, {1, 1000, 4097}, {1000, 129, 1}};

// Values of the operands: uniform in [-1, 1] for floating types, the whole int8 range for
// integers (never all zeros: zeros hide unwritten outputs and wrong indexing).
template <class T>
std::vector<T> random_operand(size_t count, uint64_t seed) {
  if constexpr (std::is_integral_v<T>) {
    std::mt19937_64 engine(seed);
    std::uniform_int_distribution<int> uniform(-128, 127);
    std::vector<T> v(count);
    for (auto& x : v) x = T(uniform(engine));
    return v;
  } else {
    return random_vector<T>(count, seed);
  }
}

template <class T>
__host__ __device__ double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return double(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return double(__bfloat162float(x));
  } else {
    return double(x);
  }
}

// An operand element as the tensor cores read it: fp32 fed to mma .tf32 keeps its sign, exponent
// and top 10 mantissa bits and the hardware ignores the low 13 (truncation toward zero, not the
// round-to-nearest of cvt.rna.tf32.f32: the kernel passes fp32 bits unconverted); other types
// are exact.
template <class T>
__host__ __device__ double as_mma_operand(T x) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits &= 0xFFFFE000u;
    float tf32;
    memcpy(&tf32, &bits, sizeof tf32);
    return double(tf32);
  } else {
    return as_double(x);
  }
}

// ref[i*n + j] = Σ_k A(i,k) B(k,j) in double, absref = Σ |A(i,k) B(k,j)|, for any majorness, of
// the operands as the tensor cores read them (as_mma_operand).
template <class TA, class TB>
__global__ void reference_gemm_kernel(int m, int n, int k, TA const* A, int64_t lda, bool a_row_major, TB const* B,
                                      int64_t ldb, bool b_row_major, double* ref, double* absref) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y;
  if (j >= n) return;
  double sum = 0, abs_sum = 0;
  for (int p = 0; p < k; ++p) {
    const double a = as_mma_operand(a_row_major ? A[i * lda + p] : A[i + p * lda]);
    const double b = as_mma_operand(b_row_major ? B[p * ldb + j] : B[p + j * ldb]);
    sum += a * b;
    abs_sum += std::fabs(a * b);
  }
  ref[int64_t(i) * n + j] = sum;
  absref[int64_t(i) * n + j] = abs_sum;
}

// Relative accuracy of an output element type: half an ulp of its mantissa.
template <class T>
constexpr double output_epsilon() {
  if constexpr (std::is_same_v<T, __half>) return 1.0 / 2048;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return 1.0 / 256;
  else if constexpr (std::is_same_v<T, float>) return 1.0 / (1 << 23);
  else return 0.0;  // integers: exact
}
// Accumulation error allowed in a dot product of length k, relative to Σ|a·b|: the products of
// the operands as the tensor cores read them are exact in fp32 (at most 11 × 11 significant
// bits), so what remains is the fp32 accumulation. For tf32 that is its worst case: each product
// enters the sum through at most one rounding (truncation, in the tensor core) of at most 2^-23
// of a partial sum no larger than Σ|a·b|, so k · 2^-23 (sm80_gemm_tf32_test.cu shows that it
// still fails bf16-rounded inputs and a dropped product). The 16-bit types keep 1e-4; int8 is
// exact.
template <class TA>
constexpr double accumulation_tolerance(int k) {
  if constexpr (std::is_same_v<TA, float>) return double(k) / (1 << 23);
  else if constexpr (std::is_same_v<TA, int8_t>) return 0.0;
  else return 1e-4;
}

// How far an output element may be from `want`: eps·|want| for the output's rounding plus
// acc_scale · accumulation_tolerance · Σ|a·b| (`absref`) for the accumulation, plus 1e-6 for sums
// too small to have a relative error (acc_scale: how much the epilogue can magnify an error of the
// accumulator, e.g. |alpha|, or the steepest slope of an activation).
template <class TA, class TD>
double element_tolerance(int k, double want, double absref, double acc_scale = 1.0) {
  return output_epsilon<TD>() * std::fabs(want) + acc_scale * accumulation_tolerance<TA>(k) * absref + 1e-6;
}

// Where a problem's matrices lie beyond the smallest legal leading dimensions. Pads and gaps are
// in elements and should keep 16-byte alignment (multiples of the operand's vector) unless a test
// wants an illegal layout on purpose.
struct ProblemLayout {
  int batches = 1;
  int64_t pad_a = 0, pad_b = 0, pad_c = 0, pad_d = 0;  // added to each leading dimension
  int64_t gap_a = 0, gap_b = 0, gap_c = 0, gap_d = 0;  // added between consecutive batches
  bool shared_b = false;  // every batch reads the same B (batch_stride_b = 0)
  bool with_c = false;    // a random source matrix C, for epilogues that read it
  // With with_c: C is D's own buffer (ldc = ldd, batch_stride_c = batch_stride_d), so D starts out
  // holding C, padding and batch gaps included, and each output element reads its C in place.
  bool c_is_d = false;
};

// A problem on the device: operands as the kernel's majorness says (padding and gaps random too,
// so reading them shows), D poisoned everywhere, optionally a random C, and the double-precision
// reference of A·B (ref) with Σ|a·b| (absref) for the tolerance. `G` runs it: Gemm<Kernel>, or
// anything with its host interface and Arguments (Sm80AutoGemm over tiles of Kernel's types).
template <class Kernel, class G_ = Gemm<Kernel>>
struct GemmProblem {
  using G = G_;
  using TA = typename Kernel::ElementA;
  using TB = typename Kernel::ElementB;
  using TD = typename Kernel::ElementD;
  using Config = typename Kernel::Config;
  static constexpr bool a_row_major = std::is_same_v<typename Config::LayoutTagA, RowMajor>;
  static constexpr bool b_row_major = std::is_same_v<typename Config::LayoutTagB, RowMajor>;
  static constexpr int vector_d = 16 / int(sizeof(TD));

  Shape3 s;
  int batches;
  ProblemLayout layout;
  int64_t lda, ldb, ldc, ldd, stride_a, stride_b, stride_c, stride_d;
  std::vector<TA> a;
  std::vector<TB> b;
  std::vector<TD> c;
  DeviceBuffer<TA> dA;
  DeviceBuffer<TB> dB;
  DeviceBuffer<TD> dC;
  DeviceBuffer<TD> dD;
  std::vector<double> ref, absref;

  static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
  // Elements from the start of the first batch to the end of the last.
  static size_t span(int64_t stride, int64_t extent, int batches) {
    return size_t(std::max<int64_t>(stride * (batches - 1) + extent, 1));
  }

  GemmProblem(Shape3 shape, uint64_t seed, int batch_count = 1)
      : GemmProblem(shape, seed, ProblemLayout{.batches = batch_count}) {}

  GemmProblem(Shape3 shape, uint64_t seed, ProblemLayout l) : s(shape), batches(l.batches), layout(l) {
    // Leading dimensions: the smallest legal ones (padded to 16 bytes), so edges are exercised,
    // plus what the layout asks for.
    lda = round_up(std::max(1, a_row_major ? s.k : s.m), Config::vector_a) + l.pad_a;
    ldb = round_up(std::max(1, b_row_major ? s.n : s.k), Config::vector_b) + l.pad_b;
    ldd = round_up(std::max(1, s.n), vector_d) + l.pad_d;
    if (l.c_is_d && !l.with_c) throw std::invalid_argument("ProblemLayout: c_is_d needs with_c");
    ldc = l.c_is_d ? ldd : round_up(std::max(1, s.n), vector_d) + l.pad_c;
    const int64_t extent_a = lda * (a_row_major ? s.m : s.k), extent_b = ldb * (b_row_major ? s.k : s.n);
    const int64_t extent_c = ldc * s.m, extent_d = ldd * s.m;
    stride_a = round_up(extent_a, Config::vector_a) + l.gap_a;
    stride_b = l.shared_b ? 0 : round_up(extent_b, Config::vector_b) + l.gap_b;
    stride_d = extent_d + l.gap_d;
    stride_c = l.c_is_d ? stride_d : extent_c + l.gap_c;
    a = random_operand<TA>(span(stride_a, extent_a, batches), seed);
    b = random_operand<TB>(span(stride_b, extent_b, batches), seed + 1);
    dA = DeviceBuffer<TA>(a);
    dB = DeviceBuffer<TB>(b);
    if (l.with_c) {
      c = random_operand<TD>(span(stride_c, extent_c, batches), seed + 2);  // D's span where C is D
      if (!l.c_is_d) dC = DeviceBuffer<TD>(c);
    }
    dD = DeviceBuffer<TD>(span(stride_d, extent_d, batches));
    poison();
    compute_reference();
  }

  // D before a run: all bytes 0xFF, or C's values where C is D's buffer.
  void poison() {
    if (layout.c_is_d)
      dD.upload(c);
    else
      dD.fill_bytes(0xFF);
  }

  // C(i, j) of batch bt (the problem must have been made with_c).
  double source(int i, int j, int bt) const { return as_double(c[size_t(bt * stride_c + i * ldc + j)]); }

  void compute_reference() {
    const int64_t mn = int64_t(s.m) * s.n;
    ref.assign(size_t(mn * batches), 0.0);
    absref.assign(size_t(mn * batches), 0.0);
    if (mn == 0) return;
    DeviceBuffer<double> dref{static_cast<size_t>(mn)}, dabs{static_cast<size_t>(mn)};
    for (int bt = 0; bt < batches; ++bt) {
      dim3 grid((s.n + 127) / 128, s.m);
      reference_gemm_kernel<<<grid, 128>>>(s.m, s.n, s.k, dA.get() + bt * stride_a, lda, a_row_major,
                                           dB.get() + bt * stride_b, ldb, b_row_major, dref.get(), dabs.get());
      throw_on_error(cudaGetLastError(), "reference_gemm_kernel");
      auto r = dref.download();
      auto ab = dabs.download();
      std::copy(r.begin(), r.end(), ref.begin() + bt * mn);
      std::copy(ab.begin(), ab.end(), absref.begin() + bt * mn);
    }
  }

  typename G::Arguments arguments() const {
    typename G::Arguments args;
    args.m = s.m; args.n = s.n; args.k = s.k;
    args.A = dA.get(); args.lda = lda;
    args.B = dB.get(); args.ldb = ldb;
    args.C = layout.c_is_d ? dD.get() : dC.get(); args.ldc = ldc;
    args.D = dD.get(); args.ldd = ldd;
    args.batch_count = batches;
    args.batch_stride_a = stride_a; args.batch_stride_b = stride_b;
    args.batch_stride_c = stride_c; args.batch_stride_d = stride_d;
    return args;
  }

  // Runs `args` (with a workspace if it needs one) and synchronizes; returns the status.
  Status run(typename G::Arguments const& args) {
    G gemm;
    const size_t ws = G::workspace_size(args);
    DeviceBuffer<char> workspace(ws);
    Status st = gemm.initialize(args, workspace.get(), ws);
    if (st) st = gemm.run();
    if (!st) {
      ADD_FAILURE() << "GEMM refused or failed: " << st.message();
      return st;
    }
    throw_on_error(cudaDeviceSynchronize(), "GEMM");
    return st;
  }

  // Elements of D's buffer that no longer hold the poison (all bytes 0xFF).
  int64_t written_elements() const {
    auto d = dD.download();
    int64_t written = 0;
    for (const TD& x : d) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(&x);
      for (size_t i = 0; i < sizeof(TD); ++i) {
        if (bytes[i] != 0xFF) {
          ++written;
          break;
        }
      }
    }
    return written;
  }

  // Checks every element of D against expected(i, j, batch, ref) within element_tolerance, and
  // that nothing outside the m × n windows of the batches (leading-dimension padding, gaps
  // between batches) was written: it still holds the poison, or C's values where C is D.
  void check(std::function<double(int, int, int, double)> const& expected, std::string const& what,
             double acc_scale = 1.0) {
    auto d = dD.download();
    int64_t bad = 0;
    double num = 0, den = 0;
    for (int bt = 0; bt < batches; ++bt) {
      for (int i = 0; i < s.m; ++i) {
        for (int j = 0; j < s.n; ++j) {
          const size_t r = size_t(bt) * s.m * s.n + size_t(i) * s.n + j;
          const double want = expected(i, j, bt, ref[r]);
          const double got = as_double(d[size_t(bt * stride_d + i * ldd + j)]);
          const double tol = element_tolerance<TA, TD>(s.k, want, absref[r], acc_scale);
          num += (got - want) * (got - want);
          den += want * want;
          if (!(std::fabs(got - want) <= tol)) {
            if (++bad <= 5) {
              ADD_FAILURE() << what << " " << describe(s) << " batch " << bt << ": D(" << i << "," << j << ") = " << got
                            << ", expected " << want << " (tolerance " << tol << ")";
            }
          }
        }
      }
    }
    EXPECT_EQ(bad, 0) << what << " " << describe(s) << ": " << bad << " wrong elements, relative error "
                      << std::sqrt(num / (den > 0 ? den : 1));
    int64_t outside = 0;
    for (size_t p = 0; p < d.size(); ++p) {
      const int64_t bt = stride_d > 0 ? int64_t(p) / stride_d : 0, r = int64_t(p) - bt * stride_d;
      if (bt < batches && r / ldd < s.m && r % ldd < s.n) continue;
      const auto* bytes = reinterpret_cast<const unsigned char*>(&d[p]);
      const auto* before = layout.c_is_d ? reinterpret_cast<const unsigned char*>(&c[p]) : nullptr;
      for (size_t e = 0; e < sizeof(TD); ++e) {
        if (bytes[e] != (before ? before[e] : 0xFF)) {
          ++outside;
          break;
        }
      }
    }
    EXPECT_EQ(outside, 0) << what << " " << describe(s) << ": " << outside
                          << " elements written outside the m x n output (padding or between batches)";
  }
};

// D = A·B (alpha 1, beta 0) for every shape: fresh operands (seeds from `seed` on), poisoned D,
// every element checked. For the type and layout sweeps.
template <class Kernel, class Shapes>
void sweep_plain_gemm(Shapes const& shapes, uint64_t seed, const char* what) {
  for (Shape3 s : shapes) {
    GemmProblem<Kernel> p(s, seed += 7);
    auto args = p.arguments();
    args.epilogue = {{1.f, 0.f}};
    const Status st = Gemm<Kernel>::can_implement(args);
    ASSERT_TRUE(bool(st)) << what << " " << describe(s) << ": " << st.message();
    ASSERT_TRUE(bool(p.run(args))) << what << " " << describe(s);
    p.check([](int, int, int, double ref) { return ref; }, what);
  }
}

}  // namespace strata::test
