// expect: complement: the layout must be injective
// (2,2):(1,1) maps coordinates (1,0) and (0,1) to the same index.
#include <layout/layout.hpp>

using namespace strata;

void trigger() {
  (void)complement(Layout<Shape<_2, _2>, Stride<_1, _1>>{}, _8{});
}
