// Ampere GEMM with the fused epilogue D = act(alpha·A·B + beta·C + bias), bias per row or per
// column, for GELU and Clamp, through the direct epilogue and through the split-K
// reduction (which applies the functor itself). bf16 in and out: every element is checked against
// a double reference applying the same epilogue, within half a bf16 ulp plus the accumulation
// error times the epilogue's steepest slope.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;
using Large = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>;
using Small = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 128, 32, 2, 2, 4>;

struct Case {
  Shape3 s;
  BiasMode mode;
  float alpha, beta;  // alpha about 3/√k keeps alpha·A·B of order 1, where activations bend
  int split_k;
  SplitKMode split_mode = SplitKMode::automatic;
};
const Case kCases[] = {
    {{1, 1, 1}, BiasMode::per_row, 1.f, 0.f, 1},
    {{129, 257, 129}, BiasMode::per_row, 0.25f, 0.f, 1},
    {{1000, 7, 1000}, BiasMode::per_column, 0.1f, 0.f, 1},
    {{7, 1000, 4097}, BiasMode::per_row, 0.05f, -1.25f, 1},
    {{257, 129, 33}, BiasMode::per_column, 0.5f, 0.75f, 1},
    {{129, 300, 1000}, BiasMode::per_column, 0.1f, -1.25f, 3},  // split-K: the reduction's epilogue
    {{300, 129, 1000}, BiasMode::per_row, 0.1f, 0.f, 4},
    // Serial split-K: the last CTA of each tile runs the epilogue on the summed accumulators.
    {{129, 300, 1000}, BiasMode::per_row, 0.1f, -1.25f, 3, SplitKMode::serial},
    {{300, 129, 1000}, BiasMode::per_column, 0.1f, 0.f, 2, SplitKMode::serial},
};

// Runs every case with activation `act`; `reference` is the same activation in double, `slope`
// its steepest slope (how much it can magnify an error of its input).
template <class Config, class Act>
void bias_activation(Act act, double (*reference)(double), double slope, const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = Sm80GemmKernel<Config, T, LinearCombinationBiasActivation<Act>>;
  uint64_t seed = 700;
  for (const Case& c : kCases) {
    GemmProblem<Kernel> p(c.s, seed += 5, ProblemLayout{.pad_c = 8, .pad_d = 16, .with_c = c.beta != 0.f});
    const bool per_row = c.mode == BiasMode::per_row;
    const std::vector<float> bias = random_vector<float>(size_t(per_row ? c.s.m : c.s.n), seed + 3);
    DeviceBuffer<float> dbias(bias);
    auto args = p.arguments();
    args.split_k = c.split_k;
    args.split_k_mode = c.split_mode;
    args.epilogue = {{c.alpha, c.beta, dbias.get(), c.mode, act}};
    const std::string label = std::string(what) + (per_row ? ", bias per row" : ", bias per column") +
                              (c.beta != 0.f ? ", beta" : "") + ", split_k " + std::to_string(c.split_k) +
                              (c.split_mode == SplitKMode::serial ? " serial" : "");
    const Status st = Gemm<Kernel>::can_implement(args);
    ASSERT_TRUE(bool(st)) << label << " " << describe(c.s) << ": " << st.message();
    ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(c.s);
    p.check(
        [&](int i, int j, int bt, double ref) {
          double x = c.alpha * ref + bias[per_row ? i : j];
          if (c.beta != 0.f) x += c.beta * p.source(i, j, bt);
          return reference(x);
        },
        label, slope * c.alpha);
  }
}

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double clamp(double x) { return x < -0.5 ? -0.5 : (x > 0.75 ? 0.75 : x); }

// Two activations, one kernel each (each costs seconds of nvcc): GELU, a transcendental on the
// device (its slope peaks at about 1.13), and Clamp, piecewise linear with parameters of its own
// carried to the device. ReLU and SiLU are the same kinds of code (a stateless piecewise-linear
// function, an exp on the device): their values are checked in test/collective, and a bias with
// leaky ReLU runs, checked, in examples/fused_bias_relu.
TEST(Sm80GemmEpilogue, BiasGELU) { bias_activation<Small>(GELU{}, gelu, 1.2, "GELU"); }
TEST(Sm80GemmEpilogue, BiasClamp) { bias_activation<Large>(Clamp{-0.5f, 0.75f}, clamp, 1.0, "Clamp"); }
}  // namespace
