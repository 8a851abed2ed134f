// expect: no descriptor describes this layout
// A plain row-major 64 x 16 bf16 tile as a wgmma operand: its rows are 32 bytes apart, but without
// a swizzle the 8 rows of a core matrix must be 16 bytes apart (the 32B swizzle would make it
// canonical). Refused at compile time; the architecture does not matter (nvcc -arch=sm_80 here).
#include <atom/gmma_desc_sm90.hpp>

using RowMajor = strata::Layout<strata::Shape<strata::_64, strata::_16>, strata::Stride<strata::_16, strata::_1>>;
unsigned long long fields() {
  return strata::make_gmma_desc_fields<__nv_bfloat16, strata::GmmaMajor::K>(RowMajor{}).desc;
}
