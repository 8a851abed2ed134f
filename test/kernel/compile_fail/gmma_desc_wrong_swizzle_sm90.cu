// expect: the swizzle must be a wgmma swizzle in elements of T
// The 128-byte swizzle of 16-bit elements, Swizzle<3,3,3>, on an 8-bit (e4m3) tile: it swaps
// 8-byte halves of the 16-byte chunks that the hardware keeps whole (8-bit data needs
// Swizzle<3,4,3>). Refused at compile time.
#include <atom/gmma_desc_sm90.hpp>

using Tile = strata::Layout<strata::Shape<strata::_64, strata::_32>, strata::Stride<strata::Int<128>, strata::_1>>;
unsigned long long fields() {
  auto swizzled = strata::composition(strata::Swizzle<3, 3, 3>{}, Tile{});
  return strata::make_gmma_desc_fields<__nv_fp8_e4m3, strata::GmmaMajor::K>(swizzled).desc;
}
