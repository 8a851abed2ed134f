// Host tests of the per-element epilogue functors (no GPU needed).
#include <gtest/gtest.h>

#include <collective/epilogue_functors.hpp>

#include <cmath>

using namespace strata;

TEST(EpilogueFunctors, LinearCombination) {
  LinearCombination f{{2.f, 0.5f}};
  EXPECT_TRUE(f.reads_source());
  EXPECT_FLOAT_EQ(f(3.f, 4.f, 0, 0), 8.f);
  LinearCombination g{{1.f, 0.f}};
  EXPECT_FALSE(g.reads_source());
}

TEST(EpilogueFunctors, Activations) {
  EXPECT_FLOAT_EQ(ReLU{}(-1.f), 0.f);
  EXPECT_FLOAT_EQ(ReLU{}(2.f), 2.f);
  for (float x : {-3.f, -0.5f, 0.f, 0.7f, 2.5f}) {
    double exact_gelu = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    EXPECT_NEAR(GELU{}(x), exact_gelu, 1e-6);
    EXPECT_NEAR(GELUTanh{}(x), exact_gelu, 2e-3);  // the approximation's known error
    EXPECT_NEAR(SiLU{}(x), x / (1.0 + std::exp(-double(x))), 1e-6);
  }
  Clamp c{-1.f, 1.f};
  EXPECT_FLOAT_EQ(c(-5.f), -1.f);
  EXPECT_FLOAT_EQ(c(0.25f), 0.25f);
  EXPECT_FLOAT_EQ(c(5.f), 1.f);
}

TEST(EpilogueFunctors, BiasPerRowAndColumnThenActivation) {
  float bias[3] = {1.f, -10.f, 3.f};
  LinearCombinationBiasActivation<ReLU> rows{{1.f, 1.f, bias, BiasMode::per_row, {}}};
  EXPECT_FLOAT_EQ(rows(2.f, 1.f, 0, 2), 4.f);   // 2 + 1 + bias[0]
  EXPECT_FLOAT_EQ(rows(2.f, 1.f, 1, 0), 0.f);   // relu(3 - 10)
  LinearCombinationBiasActivation<Identity> cols{{0.5f, 0.f, bias, BiasMode::per_column, {}}};
  EXPECT_FALSE(cols.reads_source());
  EXPECT_FLOAT_EQ(cols(2.f, 100.f, 0, 2), 4.f);  // 0.5*2 + bias[2], C ignored with beta 0
}
