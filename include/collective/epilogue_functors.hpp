// Strata: what happens to each accumulator on its way out: small functors a user can write too.
//
// An epilogue functor is called once per output element, in the compute type (float; double for
// integer accumulators, so int32 results stay exact through a functor that is a template), with the
// accumulator, the source value C (0 when the epilogue does not read C) and the element's row and
// column in the output matrix. It returns the value to store:
//
//   struct MyEpilogue {
//     struct Params { float scale; };
//     Params params;
//     STRATA_HOST_DEVICE bool reads_source() const { return false; }
//     STRATA_HOST_DEVICE float operator()(float acc, float c, int row, int col) const { ... }
//   };
//
// `reads_source()` lets the epilogue skip loading C entirely (beta == 0).
#pragma once

#include <cmath>

#include "../layout/config.hpp"

namespace strata {

// ---- activations -------------------------------------------------------------------------------

struct Identity {
  STRATA_HOST_DEVICE float operator()(float x) const { return x; }
};

struct ReLU {
  STRATA_HOST_DEVICE float operator()(float x) const { return x > 0.f ? x : 0.f; }
};

// GELU, exact form: x * Φ(x) = 0.5 x (1 + erf(x / √2)).
struct GELU {
  STRATA_HOST_DEVICE float operator()(float x) const { return 0.5f * x * (1.f + erff(x * 0.70710678118654752f)); }
};

// GELU, tanh approximation (as used by GPT-2 style models).
struct GELUTanh {
  STRATA_HOST_DEVICE float operator()(float x) const {
    return 0.5f * x * (1.f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
  }
};

// SiLU (swish): x * sigmoid(x).
struct SiLU {
  STRATA_HOST_DEVICE float operator()(float x) const { return x / (1.f + expf(-x)); }
};

// Clamp to [lo, hi].
struct Clamp {
  float lo = 0.f;
  float hi = 6.f;
  STRATA_HOST_DEVICE float operator()(float x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

// ---- epilogue functors -------------------------------------------------------------------------

// D = alpha * acc + beta * C.
struct LinearCombination {
  struct Params {
    float alpha = 1.f;
    float beta = 0.f;
  };
  Params params;

  STRATA_HOST_DEVICE bool reads_source() const { return params.beta != 0.f; }
  // T is float, or double for integer accumulators (exact for every int32).
  template <class T>
  STRATA_HOST_DEVICE T operator()(T acc, T c, int, int) const {
    return T(params.alpha) * acc + T(params.beta) * c;
  }
};

enum class BiasMode { none, per_row, per_column };

// D = activation(alpha * acc + beta * C + bias), bias indexed by the output row (one value per
// row of D, length M) or column (length N); bias is float in device memory.
template <class Activation = Identity>
struct LinearCombinationBiasActivation {
  struct Params {
    float alpha = 1.f;
    float beta = 0.f;
    const float* bias = nullptr;
    BiasMode bias_mode = BiasMode::none;
    Activation activation = {};
  };
  Params params;

  STRATA_HOST_DEVICE bool reads_source() const { return params.beta != 0.f; }
  // Why these parameters cannot work, or null: Gemm::can_implement asks before launching.
  const char* invalid_reason() const {
    return params.bias_mode != BiasMode::none && params.bias == nullptr ? "the epilogue's bias pointer is null"
                                                                          : nullptr;
  }
  STRATA_HOST_DEVICE float operator()(float acc, float c, int row, int col) const {
    float x = params.alpha * acc + params.beta * c;
    if (params.bias_mode == BiasMode::per_row) x += params.bias[row];
    if (params.bias_mode == BiasMode::per_column) x += params.bias[col];
    return params.activation(x);
  }
};

}  // namespace strata
