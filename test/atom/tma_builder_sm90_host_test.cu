// Host tests of the TMA descriptor builder (atom/tma.hpp) and of the TMA atoms' operands
// (atom/copy_sm90.hpp). No GPU is needed: every refusal is decided before the driver is reached,
// and the atoms' coordinates and shared-memory addresses are computed on the host.
//
//   - one test per rule the builder enforces: the status code and the words naming the rule, and
//     the descriptor left untouched;
//   - the swizzle mode read off the box layout (none, 32, 64, 128 bytes, or not TMA's);
//   - the arguments handed to the driver for accepted boxes: TMA's dimension order taken from the
//     box's strides, byte strides, box extents, transaction bytes;
//   - the TMA atom's operands: box origins from a partitioned identity tensor, reordered into TMA's
//     dimensions, and box starts in a staged shared-memory tensor.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "atom/copy_sm90.hpp"
#include "atom/tma.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;

// Backing store for global addresses: the builder only looks at the pointer.
alignas(256) float fake_global[64];
alignas(256) uint16_t fake_global16[64];

// make_tma_descriptor must refuse with `code` and a message containing `words`, and leave the
// descriptor as it was.
template <class T, class G, class B>
void expect_refused(T const* gmem, G const& global, B const& box, StatusCode code, std::string const& words,
                    TmaOptions const& options = {}) {
  CUtensorMap map;
  std::memset(&map, 0x5A, sizeof(map));
  const Status s = make_tma_descriptor(map, gmem, global, box, options);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_NE(s.message().find(words), std::string::npos) << "message: " << s.message() << "\nexpected words: " << words;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&map);
  for (std::size_t i = 0; i < sizeof(map); ++i) ASSERT_EQ(bytes[i], 0x5A) << "a refused descriptor was written";
}

// A valid starting point: a (64, 100) float tensor, mode 0 contiguous, boxes of (32, 8).
auto good_global() { return make_layout(make_shape(64, 100), make_stride(_1{}, 64)); }
using GoodBox = Layout<Shape<_32, _8>, Stride<_1, _32>>;

TEST(TmaBuilderRules, ValidArgumentsNeedNoDriverToBuild) {
  TmaEncodeArgs a;
  ASSERT_TRUE(make_tma_args(a, fake_global, good_global(), GoodBox{}).ok());
  EXPECT_TRUE(check_tma_args(a).ok());
}

TEST(TmaBuilderRules, RankMustBeOneToFive) {
  auto global = make_layout(make_shape(8, 2, 2, 2, 2, 2), make_stride(_1{}, 8, 16, 32, 64, 128));
  using Box = Layout<Shape<_8, _2, _2, _2, _2, _2>>;
  expect_refused(fake_global, global, Box{}, StatusCode::unsupported, "rank must be 1 to 5, got 6");
}

TEST(TmaBuilderRules, BoxMustHaveTheTensorsRank) {
  auto global = make_layout(make_shape(64, 100, 3), make_stride(_1{}, 64, 6400));
  expect_refused(fake_global, global, GoodBox{}, StatusCode::unsupported,
                 "the box has 2 modes but the global tensor has 3");
}

struct Rgb {
  unsigned char r, g, b;
};

TEST(TmaBuilderRules, ElementTypeMustBeOneTmaMoves) {
  alignas(16) static Rgb pixels[16];
  auto global = make_layout(make_shape(64, 100), make_stride(_1{}, 64));
  expect_refused(pixels, global, Layout<Shape<_16, _8>>{}, StatusCode::unsupported,
                 "element type is not one TMA moves");
  expect_refused(pixels, global, Layout<Shape<_16, _8>>{}, StatusCode::unsupported, "got a 3-byte type");
}

TEST(TmaBuilderRules, GlobalAddressMustNotBeNull) {
  expect_refused(static_cast<float const*>(nullptr), good_global(), GoodBox{}, StatusCode::null_pointer,
                 "global address is null");
}

TEST(TmaBuilderRules, GlobalAddressMustBe16ByteAligned) {
  expect_refused(fake_global + 1, good_global(), GoodBox{}, StatusCode::misaligned_pointer,
                 "global address must be 16-byte aligned, it is 4 bytes past");
}

TEST(TmaBuilderRules, GlobalExtentsMustBeOneTo2To32) {
  expect_refused(fake_global, make_layout(make_shape(64, 0), make_stride(_1{}, 64)), GoodBox{},
                 StatusCode::invalid_problem, "global dimension 1 (mode 1) must have an extent of 1 to 2^32, got 0");
  const long long too_many = (1LL << 32) + 1;
  expect_refused(fake_global, make_layout(make_shape(64LL, too_many), make_stride(_1{}, 64LL)), GoodBox{},
                 StatusCode::problem_too_large, "must have an extent of 1 to 2^32, got 4294967297");
}

TEST(TmaBuilderRules, GlobalStridesMustBePositive) {
  expect_refused(fake_global, make_layout(make_shape(64, 100), make_stride(_1{}, -64)), GoodBox{},
                 StatusCode::invalid_leading_dim, "global stride of dimension 1 (mode 1) must be positive, got -256 bytes");
}

TEST(TmaBuilderRules, GlobalStridesMustBeMultiplesOf16Bytes) {
  expect_refused(fake_global, make_layout(make_shape(64, 100), make_stride(_1{}, 65)), GoodBox{},
                 StatusCode::misaligned_leading_dim,
                 "global stride of dimension 1 (mode 1) must be a multiple of 16 bytes, got 260 bytes");
}

TEST(TmaBuilderRules, GlobalStridesMustBeBelow2To40Bytes) {
  const long long huge = 1LL << 38;  // floats: 2^40 bytes
  expect_refused(fake_global, make_layout(make_shape(64LL, 100LL), make_stride(_1{}, huge)), GoodBox{},
                 StatusCode::problem_too_large, "must be below 2^40 bytes, got 1099511627776 bytes");
}

TEST(TmaBuilderRules, BoxExtentsMustBeOneTo256) {
  using Box = Layout<Shape<_32, _512>>;
  expect_refused(fake_global, make_layout(make_shape(64, 1000), make_stride(_1{}, 64)), Box{}, StatusCode::unsupported,
                 "box extent of dimension 1 (mode 1) must be 1 to 256 elements, got 512");
}

TEST(TmaBuilderRules, InnerBoxBytesMustBeAMultipleOf16) {
  using Box = Layout<Shape<_6, _8>>;
  expect_refused(fake_global, good_global(), Box{}, StatusCode::unsupported,
                 "inner extent (dimension 0 (mode 0)) times the element size must be a multiple of 16 bytes, got 6 x "
                 "4 = 24 bytes");
}

TEST(TmaBuilderRules, SwizzledInnerBoxMustFitTheSwizzleSpan) {
  // 32 floats = 128 bytes per row under a 64-byte swizzle (Sw<2,4,3> on bytes is Sw<2,2,3> on floats).
  auto box = composition(Swizzle<2, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  auto global = make_layout(make_shape(100, 64), make_stride(64, _1{}));
  expect_refused(fake_global, global, box, StatusCode::unsupported,
                 "with a 64-byte swizzle the box's inner extent must be exactly 64 bytes (the swizzle span), got 128 "
                 "bytes");
  // 64-byte rows under the 128-byte swizzle: TMA does not lay them out as the box layout says.
  auto short_rows = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_16, _32>, Stride<_32, _1>>{});
  auto global16 = make_layout(make_shape(100, 64), make_stride(64, _1{}));
  expect_refused(fake_global16, global16, short_rows, StatusCode::unsupported,
                 "with a 128-byte swizzle the box's inner extent must be exactly 128 bytes (the swizzle span), got 64 "
                 "bytes");
}

TEST(TmaBuilderRules, SwizzleMustBeOneOfTmas) {
  auto global = make_layout(make_shape(100, 64), make_stride(64, _1{}));
  // The 128-byte swizzle of 16-bit elements applied to floats: on bytes Sw<3,5,3>, not TMA's.
  auto wrong_base = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  expect_refused(fake_global, global, wrong_base, StatusCode::unsupported,
                 "swizzle Sw<3,3,3> on 4-byte elements is not one of TMA's");
  auto wrong_shift = composition(Swizzle<2, 2, 4>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{});
  expect_refused(fake_global, global, wrong_shift, StatusCode::unsupported, "is not one of TMA's");
  // A swizzle seen from an offset is not where TMA starts its pattern.
  auto offset = make_composed_layout(Swizzle<3, 2, 3>{}, _8{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  expect_refused(fake_global, global, offset, StatusCode::unsupported, "is not one of TMA's");
}

TEST(TmaBuilderRules, ElementStridesMustBeOneToEight) {
  TmaOptions nine, zero;
  nine.element_strides = {1, 9, 1, 1, 1};
  zero.element_strides = {1, 0, 1, 1, 1};
  expect_refused(fake_global, good_global(), GoodBox{}, StatusCode::unsupported,
                 "element stride of dimension 1 (mode 1) must be 1 to 8, got 9", nine);
  expect_refused(fake_global, good_global(), GoodBox{}, StatusCode::unsupported,
                 "element stride of dimension 1 (mode 1) must be 1 to 8, got 0", zero);
}

TEST(TmaBuilderRules, ElementStrideOfTheContiguousDimensionMustBeOne) {
  TmaOptions options;
  options.element_strides = {2, 1, 1, 1, 1};
  expect_refused(fake_global, good_global(), GoodBox{}, StatusCode::unsupported,
                 "element stride of dimension 0 (the contiguous one) must be 1", options);
}

TEST(TmaBuilderRules, BoxModesMustBeSingleRuns) {
  // Mode 0 is 4 contiguous elements and then 2 more 64 elements away: not one run.
  using Box = Layout<Shape<Shape<_4, _2>, _8>, Stride<Stride<_1, _64>, _4>>;
  expect_refused(fake_global, good_global(), Box{}, StatusCode::unsupported, "box mode 0 must be one run");
}

TEST(TmaBuilderRules, BoxMustBeCompact) {
  using Box = Layout<Shape<_32, _8>, Stride<_1, _64>>;  // rows 64 apart: a gap TMA does not leave
  expect_refused(fake_global, good_global(), Box{}, StatusCode::unsupported,
                 "box's shared-memory layout must be compact");
}

TEST(TmaBuilderRules, ContiguousBoxModeMustHaveGlobalStrideOne) {
  auto transposed = make_layout(make_shape(64, 100), make_stride(100, _1{}));
  expect_refused(fake_global, transposed, GoodBox{}, StatusCode::unsupported,
                 "contiguous mode 0 (shared-memory stride 1, TMA's dimension 0) must have global stride 1, got 100");
}

// ------------------------------------------------------------------------------------------------
// The swizzle, read off the box
// ------------------------------------------------------------------------------------------------

template <class T, class Box>
int swizzle_of(Box const&) {
  return TmaBox<T, Box>::swizzle_bytes;
}

TEST(TmaBuilderSwizzle, ReadOffTheBoxLayout) {
  using Rows16 = Layout<Shape<_8, _64>, Stride<_64, _1>>;
  EXPECT_EQ(swizzle_of<__half>(Rows16{}), 0);
  EXPECT_EQ(swizzle_of<__half>(composition(Swizzle<1, 3, 3>{}, Rows16{})), 32);
  EXPECT_EQ(swizzle_of<__half>(composition(Swizzle<2, 3, 3>{}, Rows16{})), 64);
  EXPECT_EQ(swizzle_of<__half>(composition(Swizzle<3, 3, 3>{}, Rows16{})), 128);
  EXPECT_EQ(swizzle_of<uint8_t>(composition(Swizzle<3, 4, 3>{}, Rows16{})), 128);
  EXPECT_EQ(swizzle_of<float>(composition(Swizzle<3, 2, 3>{}, Rows16{})), 128);
  EXPECT_EQ(swizzle_of<float>(composition(Swizzle<2, 2, 3>{}, Rows16{})), 64);
  EXPECT_EQ(swizzle_of<double>(composition(Swizzle<1, 1, 3>{}, Rows16{})), 32);
  EXPECT_EQ(swizzle_of<float>(composition(Swizzle<3, 3, 3>{}, Rows16{})), -1);
  EXPECT_EQ(swizzle_of<__half>(composition(Swizzle<3, 3, 4>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{})), -1);
}

TEST(TmaBuilderSwizzle, GoesIntoTheDriverArguments) {
  auto global = make_layout(make_shape(100, 64), make_stride(64, _1{}));
  alignas(16) static __half halves[8];
  TmaEncodeArgs a;
  ASSERT_TRUE(make_tma_args(a, halves, global, composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}))
                  .ok());
  EXPECT_EQ(a.swizzle_bytes, 128);
  ASSERT_TRUE(make_tma_args(a, halves, global, composition(Swizzle<1, 3, 3>{}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}))
                  .ok());
  EXPECT_EQ(a.swizzle_bytes, 32);
  ASSERT_TRUE(make_tma_args(a, halves, global, Layout<Shape<_8, _64>, Stride<_64, _1>>{}).ok());
  EXPECT_EQ(a.swizzle_bytes, 0);
}

// ------------------------------------------------------------------------------------------------
// Arguments of accepted boxes
// ------------------------------------------------------------------------------------------------

TEST(TmaBuilderArgs, RowMajorBoxMakesTheLastModeTmaDimensionZero) {
  // A row-major (m, k) half matrix with lda = 72, boxes of 128 x 64 with the 128-byte swizzle.
  alignas(16) static __half a_matrix[8];
  auto global = make_layout(make_shape(1000, 70), make_stride(72, _1{}));
  auto box = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_128, _64>, Stride<_64, _1>>{});
  using B = TmaBox<__half, decltype(box)>;
  static_assert(B::rank == 2 && B::mode_of_dim[0] == 1 && B::mode_of_dim[1] == 0 && B::compact);
  static_assert(B::transaction_bytes == 128 * 64 * 2);
  TmaEncodeArgs a;
  ASSERT_TRUE(make_tma_args(a, a_matrix, global, box).ok());
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.data_type.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(a.global_dims[0], 70);
  EXPECT_EQ(a.global_dims[1], 1000);
  EXPECT_EQ(a.global_strides[1], 144);  // bytes between rows
  EXPECT_EQ(a.box_dims[0], 64);
  EXPECT_EQ(a.box_dims[1], 128);
  EXPECT_EQ(a.mode_of_dim[0], 1);
  EXPECT_EQ(a.swizzle_bytes, 128);
}

TEST(TmaBuilderArgs, FiveDimensionalBoxKeepsModeOrderWhenColumnMajor) {
  auto global = make_layout(make_shape(8, 3, 4, 3, 2), make_stride(_1{}, 8, 32, 136, 420));
  using Box = Layout<Shape<_4, _2, _2, _2, _2>>;
  TmaEncodeArgs a;
  ASSERT_TRUE(make_tma_args(a, fake_global, global, Box{}).ok());
  const long long strides[] = {4, 32, 128, 544, 1680};
  const long long dims[] = {8, 3, 4, 3, 2};
  for (int d = 0; d < 5; ++d) {
    EXPECT_EQ(a.mode_of_dim[d], d);
    EXPECT_EQ(a.global_dims[d], dims[d]);
    EXPECT_EQ(a.global_strides[d], strides[d]);
    EXPECT_EQ(a.box_dims[d], d == 0 ? 4 : 2);
  }
  EXPECT_EQ((TmaBox<float, Box>::transaction_bytes), 4 * 16 * 4);
}

TEST(TmaBuilderArgs, ModeOfExtentOneGetsAStrideTheDriverAccepts) {
  // A batch of one with batch stride 0: never stepped along, so its stride is replaced.
  auto global = make_layout(make_shape(64, 100, 1), make_stride(_1{}, 64, 0));
  using Box = Layout<Shape<_32, _8, _1>>;
  TmaEncodeArgs a;
  const Status s = make_tma_args(a, fake_global, global, Box{});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(a.global_strides[2], 64 * 4 * 100);
}

TEST(TmaBuilderArgs, ElementStridesMultiplyTheBoxExtents) {
  TmaOptions options;
  options.element_strides = {1, 3, 1, 1, 1};
  TmaEncodeArgs a;
  ASSERT_TRUE(make_tma_args(a, fake_global, good_global(), GoodBox{}, options).ok());
  EXPECT_EQ(a.box_dims[1], 24);
  EXPECT_EQ(a.element_strides[1], 3);
}

// ------------------------------------------------------------------------------------------------
// The TMA atoms' operands
// ------------------------------------------------------------------------------------------------

TEST(TmaAtomOperands, BoxOriginsComeFromAnIdentityTensorInTmaOrder) {
  constexpr int BM = 16, BK = 32;
  using Box = Layout<Shape<Int<BM>, Int<BK>>, Stride<Int<BK>, _1>>;  // row-major: k is TMA's dimension 0
  auto coords = make_identity_tensor(make_shape(100, 70));
  auto tiles = local_tile(coords, make_shape(Int<BM>{}, Int<BK>{}), make_coord(_, _));  // (BM, BK, m tiles, k tiles)
  for (int m = 0; m < 7; ++m) {
    for (int k = 0; k < 3; ++k) {
      auto tile = tiles(_, _, m, k);
      CopyOperand<decltype(tile), BM * BK, Int<0>> op{tile, {}};
      const auto origin = tma_box_origin<__half, Box>(op);
      EXPECT_EQ(origin[0], k * BK);
      EXPECT_EQ(origin[1], m * BM);
    }
  }
}

TEST(TmaAtomOperands, TiledCopyHandsEachStageItsBoxStart) {
  using Box = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}));
  alignas(1024) static __half smem[4 * 64 * 64];
  auto atom = make_tma_load_atom<__half>(nullptr, Box{});
  static_assert(decltype(atom)::num_threads == 1 && decltype(atom)::num_values_dst == 64 * 64);
  EXPECT_EQ(tma_transaction_bytes(atom), 64 * 64 * 2);
  auto tiled = make_tma_tiled_copy(atom);
  auto stages = make_tensor(make_smem_ptr(smem),
                            composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _64, _4>, Stride<_64, _1, Int<64 * 64>>>{}));
  auto coords = local_tile(make_identity_tensor(make_shape(1000, 1000)), make_shape(_64{}, _64{}), make_coord(3, _));
  auto thr = tiled.get_slice(0);
  auto dst = thr.partition_D(stages);  // (box values, 1, 1, stage)
  auto src = thr.partition_S(coords);  // (box values, 1, 1, k tile)
  static_assert(decltype(size<0>(dst))::value == 64 * 64 && decltype(size<0>(src))::value == 64 * 64);
  for (int s = 0; s < 4; ++s) {
    auto d = dst(_, 0, 0, s);
    CopyOperand<decltype(d), 64 * 64, Int<0>> dop{d, {}};
    EXPECT_EQ(&dop.tensor(dop.first), smem + s * 64 * 64) << "stage " << s;
    auto c = src(_, 0, 0, 5 + s);
    CopyOperand<decltype(c), 64 * 64, Int<0>> cop{c, {}};
    const auto origin = tma_box_origin<__half, Box>(cop);
    EXPECT_EQ(origin[0], (5 + s) * 64);
    EXPECT_EQ(origin[1], 3 * 64);
  }
}

}  // namespace
