// The random problems of the GEMM stress test (gemm_stress.cuh): problem `index` of seed `seed` is a
// function of those two numbers alone, so any one of them can be replayed by itself. Host code
// only; the runs and checks are in gemm_stress.cuh.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <kernel/gemm.hpp>

namespace strata::stress {

// The element types of a problem: A and B in, C and D out.
enum class TypeSet { bf16, f16, f16_f32, tf32, int8 };

constexpr const char* type_set_name(TypeSet t) {
  switch (t) {
    case TypeSet::bf16: return "bf16 in / bf16 out";
    case TypeSet::f16: return "fp16 in / fp16 out";
    case TypeSet::f16_f32: return "fp16 in / fp32 out";
    case TypeSet::tf32: return "tf32 (fp32 in / fp32 out)";
    default: return "int8 in / int32 out";
  }
}
constexpr int input_bytes(TypeSet t) { return t == TypeSet::tf32 ? 4 : t == TypeSet::int8 ? 1 : 2; }
constexpr int output_bytes(TypeSet t) { return t == TypeSet::bf16 || t == TypeSet::f16 ? 2 : 4; }
constexpr bool is_integer(TypeSet t) { return t == TypeSet::int8; }

// The type sets and majornesses the test draws from, with their share of the problems. Which GEMM
// runs each one is the test files' choice (gemm_stress_*.cu); changing this table changes which
// problem an index names.
struct Combo {
  TypeSet types;
  bool a_row_major, b_row_major;
  int weight;
};
inline constexpr Combo kCombos[] = {
    {TypeSet::bf16, true, false, 4}, {TypeSet::bf16, true, true, 1},     {TypeSet::bf16, false, true, 1},
    {TypeSet::bf16, false, false, 1}, {TypeSet::f16, true, false, 1},     {TypeSet::f16_f32, false, true, 1},
    {TypeSet::tf32, true, false, 1}, {TypeSet::int8, true, false, 1},
};

inline constexpr int kMaxDim = 4100;
// Bounds on one problem, over all its batches: elements of any one operand (32 Mi: 128 MiB of fp32,
// so A, B, C, D and a split-K workspace of up to 6 partial outputs stay under 1.5 GB) and
// multiply-adds (4100^3: the reference's time).
inline constexpr int64_t kMaxOperandElements = int64_t(1) << 25;
inline constexpr double kMaxWork = 7.0e10;

// splitmix64: the state advances by the golden ratio, each output is its finaliser.
constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
struct Rng {
  uint64_t state;
  uint64_t next() { return mix64(state += 0x9E3779B97F4A7C15ull); }
  int uniform(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }  // [lo, hi]
  double unit() { return double(next() >> 11) * 0x1.0p-53; }                      // [0, 1)
  bool chance(double p) { return unit() < p; }
  template <class T, size_t N>
  T pick(const T (&values)[N]) {
    return values[next() % N];
  }
};

struct Problem {
  uint64_t seed = 0;
  long long index = 0;
  int combo = 0;
  TypeSet types = TypeSet::bf16;
  bool a_row_major = true, b_row_major = false;
  int m = 1, n = 1, k = 1, batches = 1;
  int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;
  // Elements from a 256-byte aligned allocation to the operand's first element: not a multiple of
  // 16 bytes breaks the 16-byte rule for that pointer.
  int64_t offset_a = 0, offset_b = 0, offset_c = 0, offset_d = 0;
  float alpha = 1.f, beta = 0.f;
  bool c_aliases_d = false;  // C == D, ldc == ldd, stride_c == stride_d
  bool c_null = false;       // C == nullptr (only with beta == 0)
  bool drawn_unaligned = false;
  int split_k = 1;
  SplitKMode split_k_mode = SplitKMode::automatic;
  Schedule schedule = Schedule::tiles;
  RasterOrder raster_order = RasterOrder::along_n;
  int raster_group = 8;

  uint64_t data_seed(int operand) const { return mix64(seed ^ mix64(uint64_t(index) * 8 + uint64_t(operand) + 1)); }
  bool reads_c() const { return beta != 0.f; }
  int vector_in() const { return 16 / input_bytes(types); }   // elements per 16 bytes of A, B
  int vector_out() const { return 16 / output_bytes(types); } // of C, D
  // Rows (row-major) or columns of each operand, and the contiguous extent of each.
  int64_t outer_a() const { return a_row_major ? m : k; }
  int64_t inner_a() const { return a_row_major ? k : m; }
  int64_t outer_b() const { return b_row_major ? k : n; }
  int64_t inner_b() const { return b_row_major ? n : k; }
  static int64_t span(int64_t ld, int64_t outer, int64_t inner, int64_t stride, int batches) {
    return stride * (batches - 1) + ld * (outer - 1) + inner;
  }
  // Elements from the operand's first element to its last, over all batches.
  int64_t span_a() const { return span(lda, outer_a(), inner_a(), stride_a, batches); }
  int64_t span_b() const { return span(ldb, outer_b(), inner_b(), stride_b, batches); }
  int64_t span_c() const { return span(ldc, m, n, stride_c, batches); }
  int64_t span_d() const { return span(ldd, m, n, stride_d, batches); }
  double work() const { return double(m) * n * k * batches; }

  // Whether every operand the GEMM reads or writes keeps the 16-byte rule (pointer, leading
  // dimension and, with batches, batch stride multiples of 16 bytes) that configurations of the
  // default Alignment need. Element alignment always holds.
  bool keeps_16_byte_rule() const {
    auto keeps = [&](int64_t ld, int64_t stride, int64_t offset, int vector) {
      return ld % vector == 0 && offset % vector == 0 && (batches == 1 || stride % vector == 0);
    };
    return keeps(lda, stride_a, offset_a, vector_in()) && keeps(ldb, stride_b, offset_b, vector_in()) &&
           keeps(ldd, stride_d, offset_d, vector_out()) && (!reads_c() || keeps(ldc, stride_c, offset_c, vector_out()));
  }
};

namespace detail {
inline int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// A size from 1 to kMaxDim, weighted toward small ones, odd ones and tile edges.
inline int draw_dim(Rng& r) {
  const double u = r.unit();
  if (u < 0.25) return r.uniform(1, 32);
  if (u < 0.55) {  // a multiple of a tile size, or one off it; the multiple log-uniform
    static constexpr int kBases[] = {32, 64, 128, 256};
    const int base = r.pick(kBases), most = 4096 / base;
    const int q = std::clamp(int(std::exp(r.unit() * std::log(most + 1.0))), 1, most);
    return std::clamp(base * q + r.uniform(-1, 1), 1, kMaxDim);
  }
  if (u < 0.90) {  // log-uniform, half of them odd
    int v = std::clamp(int(std::exp(r.unit() * std::log(double(kMaxDim)))), 1, kMaxDim);
    if (r.chance(0.5)) v |= 1;
    return std::min(v, kMaxDim);
  }
  return r.uniform(2048, kMaxDim);
}

// A leading dimension of an operand whose contiguous extent is `extent`: the smallest multiple of
// `vector`, or that plus a padding of whole vectors.
inline int64_t aligned_ld(Rng& r, int64_t extent, int vector) {
  const int64_t tight = round_up(std::max<int64_t>(extent, 1), vector);
  const double u = r.unit();
  if (u < 0.45) return tight;
  if (u < 0.85) return tight + int64_t(vector) * r.uniform(1, 8);
  return tight + int64_t(vector) * r.uniform(9, 64);
}
// Any leading dimension from the extent up; not a multiple of `vector` when `break_rule`.
inline int64_t any_ld(Rng& r, int64_t extent, int vector, bool break_rule) {
  int64_t ld = std::max<int64_t>(extent, 1) + r.uniform(0, 3 * vector);
  if (break_rule && ld % vector == 0) ++ld;
  return ld;
}
}  // namespace detail

// Problem `index` of `seed`.
inline Problem make_problem(uint64_t seed, long long index) {
  using namespace detail;
  Problem p;
  p.seed = seed;
  p.index = index;
  Rng r{mix64(seed) ^ mix64(uint64_t(index) ^ 0x5354524553535F31ull)};

  int total_weight = 0;
  for (const Combo& c : kCombos) total_weight += c.weight;
  int pick = r.uniform(0, total_weight - 1);
  for (p.combo = 0; pick >= kCombos[p.combo].weight; ++p.combo) pick -= kCombos[p.combo].weight;
  const Combo& combo = kCombos[p.combo];
  p.types = combo.types;
  p.a_row_major = combo.a_row_major;
  p.b_row_major = combo.b_row_major;

  p.m = draw_dim(r);
  p.n = draw_dim(r);
  p.k = draw_dim(r);
  p.batches = r.chance(0.55) ? 1 : r.uniform(2, 4);

  // alpha and beta: exact in float (some not: 0.3, 0.7), integers and halves for int8 (whose
  // epilogue rounds alpha·acc + beta·c, exact in double then, to the nearest integer).
  if (is_integer(p.types)) {
    static constexpr float kAlphas[] = {1.f, 1.f, -1.f, 2.f, 3.f, 0.5f, -1.5f, 0.f};
    static constexpr float kBetas[] = {1.f, -1.f, 2.f, 0.5f};
    p.alpha = r.pick(kAlphas);
    p.beta = r.chance(0.5) ? 0.f : r.pick(kBetas);
  } else {
    static constexpr float kAlphas[] = {1.f, 1.f, 1.f, -1.f, 0.5f, 2.f, 1.5f, -0.75f, 0.3f, 0.f};
    static constexpr float kBetas[] = {1.f, -1.f, 0.5f, 2.f, -0.25f, 0.7f};
    p.alpha = r.pick(kAlphas);
    p.beta = r.chance(0.5) ? 0.f : r.pick(kBetas);
  }
  const double c_roll = r.unit();
  p.c_aliases_d = c_roll < 0.3;
  p.c_null = !p.c_aliases_d && p.beta == 0.f && c_roll < 0.5;

  // Leading dimensions, pointer offsets and batch strides: under the 16-byte rule, or (one
  // problem in eight) with at least one operand that breaks it.
  const int vin = p.vector_in(), vout = p.vector_out();
  p.drawn_unaligned = r.chance(0.125);
  constexpr int A = 0, B = 1, C = 2, D = 3;
  static constexpr int kWithoutC[] = {A, B, D};
  const int broken = !p.drawn_unaligned ? -1 : p.reads_c() && !p.c_aliases_d ? r.uniform(A, D) : r.pick(kWithoutC);
  auto ld_of = [&](int operand, int64_t extent, int vector) {
    if (!p.drawn_unaligned) return aligned_ld(r, extent, vector);
    return operand == broken || r.chance(0.3) ? any_ld(r, extent, vector, operand == broken)
                                              : aligned_ld(r, extent, vector);
  };
  auto offset_of = [&](int vector) -> int64_t {
    if (p.drawn_unaligned && r.chance(0.3)) return r.uniform(1, vector - 1);
    return r.chance(0.3) ? int64_t(vector) * r.uniform(1, 3) : 0;  // 16-byte but not 256-byte aligned
  };
  auto gap_of = [&](int vector) -> int64_t {
    if (p.drawn_unaligned && r.chance(0.3)) return r.uniform(0, 2 * vector);
    return r.chance(0.5) ? 0 : int64_t(vector) * r.uniform(1, 4);
  };
  p.lda = ld_of(A, p.inner_a(), vin);
  p.ldb = ld_of(B, p.inner_b(), vin);
  p.ldd = ld_of(D, p.n, vout);
  p.ldc = p.c_aliases_d ? p.ldd : ld_of(C, p.n, vout);
  p.offset_a = offset_of(vin);
  p.offset_b = offset_of(vin);
  p.offset_d = offset_of(vout);
  p.offset_c = p.c_aliases_d ? p.offset_d : offset_of(vout);
  // A and B may be shared by all batches (stride 0), C too; D's batches never overlap, and are
  // sometimes packed as tightly as allowed (the next batch starts right after the last element).
  p.stride_a = r.chance(0.05) ? 0 : p.lda * p.outer_a() + gap_of(vin);
  p.stride_b = r.chance(0.08) ? 0 : p.ldb * p.outer_b() + gap_of(vin);
  const int64_t packed_d = p.ldd * (p.m - 1) + p.n;
  p.stride_d = r.chance(0.2) ? (p.drawn_unaligned ? packed_d : round_up(packed_d, vout)) : p.ldd * p.m + gap_of(vout);
  p.stride_c = p.c_aliases_d ? p.stride_d : (r.chance(0.05) ? 0 : p.ldc * p.m + gap_of(vout));

  // Split-K and schedule: Stream-K chooses its own K ranges, so split_k is 0 or 1 with it.
  static constexpr Schedule kSchedules[] = {Schedule::tiles, Schedule::tiles, Schedule::stream_k, Schedule::automatic};
  static constexpr SplitKMode kModes[] = {SplitKMode::automatic, SplitKMode::serial, SplitKMode::parallel};
  p.schedule = r.pick(kSchedules);
  const double s_roll = r.unit();
  p.split_k = s_roll < 0.3 ? 1 : s_roll < 0.5 ? 0 : r.uniform(2, 6);
  if (p.schedule == Schedule::stream_k && p.split_k > 1) p.split_k = r.uniform(0, 1);
  p.split_k_mode = r.pick(kModes);
  static constexpr int kGroups[] = {1, 2, 3, 8, 8, 16};
  static constexpr RasterOrder kOrders[] = {RasterOrder::along_n, RasterOrder::along_m, RasterOrder::snake_along_n,
                                            RasterOrder::snake_along_m};
  p.raster_order = r.pick(kOrders);
  p.raster_group = r.pick(kGroups);

  // Keep the problem bounded: fewer batches first.
  auto too_big = [&] {
    return p.work() > kMaxWork || std::max({p.span_a(), p.span_b(), p.span_c(), p.span_d()}) > kMaxOperandElements;
  };
  while (p.batches > 1 && too_big()) --p.batches;
  return p;
}

inline const char* split_mode_name(SplitKMode m) {
  return m == SplitKMode::serial ? "serial" : m == SplitKMode::parallel ? "parallel" : "automatic";
}
inline const char* schedule_name(Schedule s) {
  return s == Schedule::stream_k ? "stream_k" : s == Schedule::automatic ? "automatic" : "tiles";
}

// Everything that defines the problem, on a few lines.
inline std::string describe(Problem const& p) {
  char text[1024];
  auto alias = p.c_aliases_d ? "C aliases D" : p.c_null ? "C null" : "C separate";
  std::snprintf(text, sizeof text,
                "problem %lld of seed %llu (0x%016llx): %s, A %s, B %s\n"
                "  m %d n %d k %d, batches %d; lda %lld ldb %lld ldc %lld ldd %lld; batch strides a %lld b %lld "
                "c %lld d %lld;\n"
                "  pointer offsets (elements) a %lld b %lld c %lld d %lld; 16-byte rule %s\n"
                "  alpha %.9g beta %.9g, %s; split_k %d (%s), schedule %s, raster %s group %d",
                p.index, (unsigned long long)p.seed, (unsigned long long)p.seed, type_set_name(p.types),
                p.a_row_major ? "row-major" : "column-major", p.b_row_major ? "row-major" : "column-major", p.m, p.n,
                p.k, p.batches, (long long)p.lda, (long long)p.ldb, (long long)p.ldc, (long long)p.ldd,
                (long long)p.stride_a, (long long)p.stride_b, (long long)p.stride_c, (long long)p.stride_d,
                (long long)p.offset_a, (long long)p.offset_b, (long long)p.offset_c, (long long)p.offset_d,
                p.keeps_16_byte_rule() ? "kept" : "broken", double(p.alpha), double(p.beta), alias, p.split_k,
                split_mode_name(p.split_k_mode), schedule_name(p.schedule),
                raster_order_name(p.raster_order), p.raster_group);
  return text;
}

}  // namespace strata::stress
